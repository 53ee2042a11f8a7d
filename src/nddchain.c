/*-------------------------------------------------------------------------
 *
 * nddchain.c
 *	  The chains of the ndd index: walking one (NddChain, with the lock order and the damage
 *	  checks of README.index.md, "Locking" and "Damaged pages"), appending entries to one
 *	  (insert and migration), removing entries from one (VACUUM, migration) and the new pages
 *	  linked to one (from the free list or the end of the relation).
 *
 * Every index file that reads or changes a chain goes through here: nddinsert.c, nddgrow.c,
 * nddvacuum.c, nddscan.c and nddcheck.c. This file calls only nddpage.c (pages, entry formats,
 * the metapage and its cache, the map views), so the index's files call each other without a
 * cycle (doc/architecture.md, "The index's files").
 *
 * Locking: a bucket's first page is locked for the whole walk and is the bucket's lock; the
 * chain's other pages are locked one at a time in chain order, and a new page is locked before
 * it is reachable. Every change is WAL-logged (generic WAL, or records written directly in the
 * generic format: ndd_appends_logged).
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/rel.h"

/* ---- walking a chain (NddChain, nddam.h) ---- */

/*
 * LockBuffer, unless this backend holds the page's lock already: a link that damage made point
 * at a page this backend holds (in the walk, or in a migration's other walks) would wait on
 * itself for ever, with no cancel and no fast shutdown to end it. That is an error instead.
 */
void
ndd_lock_buffer(Relation index, Buffer buf, int mode)
{
	if (!BufferIsLocal(buf) &&
		LWLockHeldByMe(BufferDescriptorGetContentLock(GetBufferDescriptor(buf - 1))))
	{
		BlockNumber blkno = BufferGetBlockNumber(buf);

		ReleaseBuffer(buf);
		ndd_corrupt(index, "a link leads to a page this backend holds locked", blkno);
	}
	LockBuffer(buf, mode);
}

/*
 * Is blkno the first page of a chain of the index whose metapage copy is meta: a primary page
 * of the map (of any extent, written yet or not), or the NULL chain's first page? Such a page is
 * some walker's bucket lock, so no chain may link to it (README.index.md, "Damaged pages").
 */
static bool
ndd_is_chain_start(const NddMetaPageData *meta, BlockNumber blkno)
{
	int			e;
	int			t;

	if (blkno == meta->null_start)
		return true;
	for (t = 0; t < meta->layout.ntables; t++)
		if (blkno >= meta->table_start[t] && blkno - meta->table_start[t] < meta->ext[0].count)
			return true;
	for (e = 1; e < meta->nextents; e++)
		if (blkno >= meta->ext[e].start &&
			blkno - meta->ext[e].start < (uint64) meta->layout.ntables * meta->ext[e].count)
			return true;
	return false;
}

/*
 * Reads the entry format of a page (delta_bits and wide come from its map: NddMapView).
 * Only chain walks read pages, and they check what this returns (ndd_chain_check_page).
 */
static void
ndd_page_format(Page page, int delta_bits, bool wide, NddFormat *f)
{
	NddPageOpaque opaque = NddPageGetOpaque(page);

	f->entry_bytes = opaque->entry_bytes;
	f->block_bits = opaque->block_bits;
	f->offset_bits = opaque->offset_bits;
	f->wide = opaque->kind == NDD_PAGE_NULLS ? false : wide;
	f->delta_bits = opaque->kind == NDD_PAGE_NULLS ? 0 : delta_bits;
}

/*
 * Checks the page the walk has just locked: initialized as an ndd page of the kind its place in
 * the chain calls for, with an entry format the decoder can read for this map and an entry
 * area inside the page; sets c->f to its format. Entries are decoded with 16-byte loads and
 * shifts by the format's widths, so a width out of range or a pd_lower past the special space
 * would read outside the page or shift by more than the word: they are errors here instead.
 */
static Page
ndd_chain_check_page(NddChain *c)
{
	Page		page = BufferGetPage(c->cur);
	BlockNumber blkno = BufferGetBlockNumber(c->cur);
	NddPageOpaque opaque;
	NddFormat  *f = &c->f;
	uint8		want;
	int			used;

	if (!ndd_page_initialized(page))
		ndd_corrupt(c->index, "a chain page is not initialized", blkno);
	opaque = NddPageGetOpaque(page);
	want = c->nulls ? NDD_PAGE_NULLS : c->cur == c->first ? NDD_PAGE_PRIMARY : NDD_PAGE_OVERFLOW;
	if (opaque->kind != want)
		ndd_corrupt(c->index, "a chain page has the wrong kind", blkno);
	if (c->nulls)
	{
		ndd_page_format(page, 0, false, f);
		if (f->entry_bytes != NDD_NULL_ENTRY_BYTES || f->block_bits != NDD_NULL_BLOCK_BITS ||
			f->offset_bits != NDD_NULL_OFFSET_BITS)
			ndd_corrupt(c->index, "a NULL-chain page has the wrong entry size", blkno);
	}
	else
	{
		NddFormat	expect;

		ndd_page_format(page, c->mv->delta_bits, c->mv->wide, f);
		if (f->block_bits < 1 || f->block_bits > 32 || f->offset_bits < 1 || f->offset_bits > 16)
			ndd_corrupt(c->index, "a page has an invalid entry format", blkno);
		ndd_format_for(c->mv->delta_bits, c->mv->wide, f->block_bits, f->offset_bits, &expect);
		if (expect.entry_bytes != f->entry_bytes)
			ndd_corrupt(c->index, "a page has an invalid entry format", blkno);
	}
	used = (int) ((PageHeader) page)->pd_lower - (int) MAXALIGN(SizeOfPageHeaderData);
	if (used < 0 || ((PageHeader) page)->pd_lower > BLCKSZ - MAXALIGN(sizeof(NddPageOpaqueData)) ||
		used % f->entry_bytes != 0)
		ndd_corrupt(c->index, "a page's entry area is malformed", blkno);
	return page;
}


/*
 * Locks the chain's first page (the bucket lock) and returns it as the current page, checked.
 * mv is the map view whose page map placed the chain (any view for the NULL chain). Returns NULL,
 * holding nothing, when a primary page is not one of that map (moved by a migration, a page of a
 * later map, or a page of the map not written yet): the caller's metapage copy is out of date or
 * the page is damaged (ndd_stale_or_corrupt tells which).
 */
Page
ndd_chain_begin(NddChain *c, Relation index, const NddMapView *mv, BlockNumber first, int mode,
				BufferAccessStrategy strategy)
{
	Page		page;

	c->index = index;
	c->mv = mv;
	c->strategy = strategy;
	c->mode = mode;
	c->nulls = first == mv->meta->null_start;
	c->mark = first;
	c->power = 1;
	c->steps = 0;
	c->first = strategy ? ReadBufferExtended(index, MAIN_FORKNUM, first, RBM_NORMAL, strategy)
		: ndd_read_first(index, first);
	ndd_lock_buffer(index, c->first, mode);
	c->cur = c->first;
	c->gone = NDD_GONE_NONE;
	page = BufferGetPage(c->first);
	if (!c->nulls)
	{
		NddPageOpaque o = NddPageGetOpaque(page);

		/* not a page of any map (damage): the checks below say what is wrong */
		if (!ndd_page_initialized(page) || (o->kind != NDD_PAGE_PRIMARY && o->kind != NDD_PAGE_MOVED) ||
			(o->kind == NDD_PAGE_PRIMARY && o->generation == mv->generation))
			return ndd_chain_check_page(c);
		/*
		 * A page of the previous map that a migration has moved (or rewritten in place as the
		 * current map's page with the same number): its heads are in the current map.
		 */
		if (mv->generation + 1 == mv->meta->generation &&
			((o->kind == NDD_PAGE_MOVED && o->generation == mv->generation) ||
			 (o->kind == NDD_PAGE_PRIMARY && o->generation == mv->meta->generation)))
			c->gone = NDD_GONE_MOVED;
		else
			c->gone = NDD_GONE_STALE;
		UnlockReleaseBuffer(c->first);
		c->first = c->cur = InvalidBuffer;
		return NULL;
	}
	return ndd_chain_check_page(c);
}

/*
 * Moves to page blkno of the chain (the next page, or the page an insert hint names), releasing
 * the current page unless it is the first, whose lock is kept to the end of the walk. Refuses,
 * before locking anything, a link to the metapage or to any chain's first page and a link back
 * to a page this walk has passed.
 */
Page
ndd_chain_goto(NddChain *c, BlockNumber blkno)
{
	if (blkno == NDD_METAPAGE_BLKNO || ndd_is_chain_start(c->mv->meta, blkno))
		ndd_corrupt(c->index, "a chain links to the first page of a chain or to the metapage",
					BufferGetBlockNumber(c->cur));
	if (blkno == c->mark)
		ndd_corrupt(c->index, "a chain links back to one of its own pages",
					BufferGetBlockNumber(c->cur));
	if (blkno >= ndd_known_nblocks(c->index, blkno))
		ndd_corrupt(c->index, "a chain links past the end of the index",
					BufferGetBlockNumber(c->cur));
	/* Brent: the mark moves to the current block at every power of two */
	if (++c->steps == c->power)
	{
		c->mark = blkno;
		c->power *= 2;
		c->steps = 0;
	}
	if (BufferIsValid(c->cur) && c->cur != c->first)
		UnlockReleaseBuffer(c->cur);
	c->cur = ReadBufferExtended(c->index, MAIN_FORKNUM, blkno, RBM_NORMAL, c->strategy);
	ndd_lock_buffer(c->index, c->cur, c->mode);
	return ndd_chain_check_page(c);
}

/* Moves to the current page's successor; NULL at the chain's end. */
Page
ndd_chain_next(NddChain *c)
{
	BlockNumber next = NddPageGetOpaque(BufferGetPage(c->cur))->next;

	if (next != InvalidBlockNumber)
		return ndd_chain_goto(c, next);
	if (c->cur != c->first)
		UnlockReleaseBuffer(c->cur);
	c->cur = InvalidBuffer;
	return NULL;
}

/* Ends the walk wherever it is: releases the current page and the bucket lock. */
void
ndd_chain_end(NddChain *c)
{
	if (BufferIsValid(c->cur) && c->cur != c->first)
		UnlockReleaseBuffer(c->cur);
	UnlockReleaseBuffer(c->first);
	c->cur = c->first = InvalidBuffer;
}

/*
 * *out = meta as table t's pages are: a migration interrupted (by an error or a crash) after it
 * moved table t's page cursor - 1 and before it moved the cursor leaves that one page in the
 * current map already. For the callers that walk every bucket holding the growth lock (VACUUM,
 * ndd_index_check), so that no page changes under them: their views then cover every head once.
 */
void
ndd_settle_table(Relation index, const NddMetaPageData *meta, int t, NddMetaPageData *out)
{
	*out = *meta;
	if (meta->old_npages != 0 && meta->cursor > 0)
	{
		NddMapView	ov;
		NddChain	chain;

		/* the walk tells a moved page from the previous map's own (NddChain.gone) */
		ndd_map_view(meta, true, &ov);
		if (ndd_chain_begin(&chain, index, &ov, ndd_primary_block(&ov, t, meta->cursor - 1),
							BUFFER_LOCK_SHARE, NULL) != NULL)
			ndd_chain_end(&chain);
		else if (chain.gone == NDD_GONE_MOVED)
			out->cursor--;
	}
}

/* ---- new pages, and removing entries ---- */

/*
 * A new page, pinned and exclusively locked: the first page of the free list (the overflow
 * pages of chains a migration emptied, README.index.md "Growth"), or a page added at the end of
 * the index. Called with the chain's pages locked: the metapage's lock comes after them, and the
 * free page is one nobody else can reach (its chain is gone), so neither lock waits on a lock
 * this backend holds. Taking the page off the list is its own WAL record; a crash before the
 * caller's record that links it loses the page (wasted space, never a reachable page).
 */
Buffer
ndd_new_buffer(Relation index)
{
	Buffer		mbuf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
	NddMetaPage meta;
	BlockNumber head;
	Buffer		buf;

	LockBuffer(mbuf, BUFFER_LOCK_EXCLUSIVE);
	meta = NddPageGetMeta(BufferGetPage(mbuf));
	head = meta->free_head;
	if (head != InvalidBlockNumber)
	{
		GenericXLogState *state;
		Page		page;
		BlockNumber next;

		if (head == NDD_METAPAGE_BLKNO || head >= RelationGetNumberOfBlocks(index) ||
			ndd_is_chain_start(meta, head))
		{
			UnlockReleaseBuffer(mbuf);
			ndd_corrupt(index, "the free list names a page that cannot be free", head);
		}
		buf = ReadBuffer(index, head);
		ndd_lock_buffer(index, buf, BUFFER_LOCK_EXCLUSIVE);
		page = BufferGetPage(buf);
		if (!ndd_page_initialized(page) || NddPageGetOpaque(page)->kind != NDD_PAGE_OVERFLOW)
		{
			UnlockReleaseBuffer(buf);
			UnlockReleaseBuffer(mbuf);
			ndd_corrupt(index, "a page of the free list is not a freed overflow page", head);
		}
		next = NddPageGetOpaque(page)->next;
		state = GenericXLogStart(index);
		meta = NddPageGetMeta(GenericXLogRegisterBuffer(state, mbuf, 0));
		meta->free_head = next;
		meta->nfree = meta->nfree > 0 ? meta->nfree - 1 : 0;
		GenericXLogFinish(state);
		UnlockReleaseBuffer(mbuf);
		return buf;
	}
	UnlockReleaseBuffer(mbuf);
	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBuffer(index, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
}

/*
 * Removes from the current page of chain c (walked in exclusive mode) the entries for which
 * drop(entry, f, low, arg) is true, compacting the page in one WAL record; the page is only
 * looked at when there is nothing to remove (the usual case). low is the smallest head of the
 * chain's page. Returns the number of entries removed.
 */
int
ndd_chain_remove(Relation index, NddChain *c, uint64 low, NddEntryFilter drop, void *arg)
{
	const NddFormat f = c->f;
	Page		page = BufferGetPage(c->cur);
	int			n = ndd_page_nentries(page, &f);
	int			i;
	int			out = 0;
	int			sorted = ndd_page_sorted(page, n);
	int			sorted_out = 0;
	GenericXLogState *state;
	char	   *base;

	for (i = 0; i < n; i++)
		if (drop((char *) page + MAXALIGN(SizeOfPageHeaderData) + i * f.entry_bytes, &f, low, arg))
			break;
	if (i == n)
		return 0;
	state = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(state, c->cur, 0);
	base = (char *) page + MAXALIGN(SizeOfPageHeaderData);
	for (i = 0; i < n; i++)
	{
		char	   *src = base + i * f.entry_bytes;

		if (drop(src, &f, low, arg))
			continue;
		if (out != i)
			memmove(base + out * f.entry_bytes, src, f.entry_bytes);
		out++;
		if (i < sorted)
			sorted_out = out;
	}
	((PageHeader) page)->pd_lower = MAXALIGN(SizeOfPageHeaderData) + out * f.entry_bytes;
	/* the compaction keeps the order: the survivors of the sorted prefix are the new one */
	NddPageGetOpaque(page)->sorted = (uint16) sorted_out;
	GenericXLogFinish(state);
	return n - out;
}

/* ---- appending to a chain ---- */

/*
 * The entry format of a new data page whose entries' delta field is delta_bits wide, for an entry
 * with this heap TID: the build's heap field widths, or wider ones the TID needs (the block field
 * with room for the heap to double).
 */
void
ndd_data_page_format(const NddMetaPageData *meta, int delta_bits, BlockNumber block,
					 OffsetNumber offset, NddFormat *f)
{
	ndd_format_for(delta_bits, meta->layout.bits == 128,
				   Max(meta->block_bits, Min(32, ndd_bits_for(block) + 1)),
				   Max(meta->offset_bits, ndd_bits_for(offset)), f);
}

/* The format of a new page linked to a chain of map view mv for an entry with this heap TID. */
static void
new_page_format(const NddMapView *mv, bool nulls, BlockNumber block, OffsetNumber offset,
				NddFormat *nf)
{
	if (nulls)
	{
		nf->entry_bytes = NDD_NULL_ENTRY_BYTES;
		nf->block_bits = NDD_NULL_BLOCK_BITS;
		nf->offset_bits = NDD_NULL_OFFSET_BITS;
		nf->delta_bits = 0;
		nf->wide = false;
	}
	else
		ndd_data_page_format(mv->meta, mv->delta_bits, block, offset, nf);
}

/*
 * Appends entries e[0..n) to page (registered in a generic WAL record by the caller, or not
 * WAL-logged at all) while they have room and fit its format; returns how many it appended.
 */
int
ndd_append_fitting(Page page, const NddFormat *f, uint64 low, const NddEntry *e, int n)
{
	int			k = 0;

	while (k < n && ndd_entry_fits(page, f, &e[k]))
	{
		ndd_page_append(page, f, e[k].head - low, e[k].tail, e[k].block, e[k].offset);
		k++;
	}
	return k;
}

/*
 * The generic WAL record of appends to up to MAX_GENERIC_XLOG_PAGES pages (the most generic_redo
 * replays; a part with a hint counts twice), written directly. Every buffer is exclusively locked
 * by the caller.
 *
 * Appends are most of an insert's work, and of a migration's, and GenericXLogStart/RegisterBuffer
 * /Finish cost far more than the change: a 64 kB state allocated per record, two copies of every
 * page and a byte-by-byte comparison of every page's used area to find what changed. Here the
 * change is known: the entries' bytes and pd_lower on one page, insert_at on the other. The
 * record is exactly what GenericXLogFinish would write for it (RM_GENERIC_ID; per block,
 * REGBUF_STANDARD and a delta of fragments {uint16 offset, uint16 length, bytes}, the format
 * generic_xlog.c reads back in generic_redo; a block's data may be registered in pieces, which
 * XLogInsert concatenates), so replay, standbys and wal_consistency_checking = 'generic' treat it
 * as any other generic record (test/t/001_wal.pl compares a standby that replays it). As in
 * GenericXLogFinish, the bytes between pd_lower and pd_upper are zero on the page (redo zeroes
 * them): the entries are written into that zeroed area and pd_lower moved past them.
 *
 * Several chains share a record (ndd_insert): an entry is a few bytes, and a record of its own
 * adds a record header, a block reference with the relation's identity and a CRC pass to them
 * (a 1M-row stream's index WAL: 427 MB with a record per table, 319 MB with one per row).
 */
void
ndd_appends_logged(Relation index, NddAppendPart *parts, int nparts)
{
	/* per part: the fragment headers {offset, length} of pd_lower, the entries and insert_at */
	uint16		frag[MAX_GENERIC_XLOG_PAGES][3][2];
	int			i;

	START_CRIT_SECTION();
	for (i = 0; i < nparts; i++)
	{
		NddAppendPart *a = &parts[i];
		Page		page = BufferGetPage(a->cur);

		frag[i][1][0] = ((PageHeader) page)->pd_lower;
		a->done = ndd_append_fitting(page, &a->f, a->low, a->e, a->n);
		Assert(a->done >= 1);
		frag[i][1][1] = (uint16) (a->done * a->f.entry_bytes);
		MarkBufferDirty(a->cur);
		if (BufferIsValid(a->hint))
		{
			NddPageGetOpaque(BufferGetPage(a->hint))->insert_at = BufferGetBlockNumber(a->cur);
			MarkBufferDirty(a->hint);
		}
	}
	if (RelationNeedsWAL(index))
	{
		XLogRecPtr	recptr;
		uint8		block = 0;

		XLogBeginInsert();
		for (i = 0; i < nparts; i++)
		{
			NddAppendPart *a = &parts[i];
			Page		page = BufferGetPage(a->cur);

			/*
			 * The chain's first page first: redo locks a record's pages in this order, and a
			 * reader on a standby holds the first page while it waits for the others (the lock
			 * order of README.index.md, "Locking"; the other order could wait on it for ever).
			 * Parts are in table order, one chain per table, as ndd_insert locks them.
			 */
			if (BufferIsValid(a->hint))
			{
				Page		hpage = BufferGetPage(a->hint);
				char	   *insert_at = (char *) &NddPageGetOpaque(hpage)->insert_at;

				frag[i][2][0] = (uint16) (insert_at - (char *) hpage);
				frag[i][2][1] = sizeof(BlockNumber);
				XLogRegisterBuffer(block, a->hint, REGBUF_STANDARD);
				XLogRegisterBufData(block, (char *) frag[i][2], sizeof(frag[i][2]));
				XLogRegisterBufData(block, insert_at, sizeof(BlockNumber));
				block++;
			}
			frag[i][0][0] = offsetof(PageHeaderData, pd_lower);
			frag[i][0][1] = sizeof(uint16);
			XLogRegisterBuffer(block, a->cur, REGBUF_STANDARD);
			XLogRegisterBufData(block, (char *) frag[i][0], sizeof(frag[i][0]));
			XLogRegisterBufData(block, (char *) &((PageHeader) page)->pd_lower, sizeof(uint16));
			XLogRegisterBufData(block, (char *) frag[i][1], sizeof(frag[i][1]));
			XLogRegisterBufData(block, (char *) page + frag[i][1][0], frag[i][1][1]);
			block++;
		}
		Assert(block <= MAX_GENERIC_XLOG_PAGES);
		recptr = XLogInsert(RM_GENERIC_ID, 0);
		for (i = 0; i < nparts; i++)
		{
			PageSetLSN(BufferGetPage(parts[i].cur), recptr);
			if (BufferIsValid(parts[i].hint))
				PageSetLSN(BufferGetPage(parts[i].hint), recptr);
		}
	}
	END_CRIT_SECTION();
}

/*
 * Locks the bucket (the chain's first page) of table t's page `pageno` of map view mv and the
 * page its insert_at names, where appends start (README.index.md, "Inserts"); NULL, holding
 * nothing, when the primary page is not of mv's map (c->gone says why).
 */
Page
ndd_chain_open(NddChain *c, Relation index, const NddMapView *mv, BlockNumber primary)
{
	Page		page = ndd_chain_begin(c, index, mv, primary, BUFFER_LOCK_EXCLUSIVE, NULL);
	BlockNumber start;

	if (page == NULL)
		return NULL;
	start = NddPageGetOpaque(page)->insert_at;
	if (start != InvalidBlockNumber && start != primary)
	{
		/*
		 * The primary's exclusive lock is the bucket lock: lock the chain page it names (the walk
		 * checks that it lies in the index and is a later page of a chain of this chain's kind).
		 */
		page = ndd_chain_goto(c, start);
	}
	return page;
}

/*
 * Appends entries e[0..n), all of one bucket, to the chain of table t's page `page` of the map
 * view mv (t < 0: the NULL chain; e's fingerprint fields are then unused). The search for room
 * starts at the chain's insert_at page (README.index.md, "Inserts"): entries go to the first page
 * from there with room and a format wide enough for their TIDs, or to new pages linked after the
 * last one; insert_at then names the page of the last one, in the same WAL record. The pages
 * before insert_at are never looked at again until VACUUM moves it back, so a chain of any length
 * (a fingerprint inserted a million times) costs an insert O(1) pages amortized.
 *
 * Returns NDD_APPEND_GONE, appending nothing, when the primary page is not of mv's map (*gone
 * says why: NddChain.gone), NDD_APPEND_OVERFLOWED when it linked the chain's first overflow page
 * because its first page was full (the load signal of nddgrow.c), NDD_APPEND_DONE otherwise.
 */
int
ndd_chain_append(Relation index, const NddMapView *mv, int t, uint32 pageno,
				 const NddEntry *e, int n, int *gone)
{
	bool		nulls = t < 0;
	BlockNumber primary = nulls ? mv->meta->null_start : ndd_primary_block(mv, t, pageno);
	uint64		low = nulls ? 0 : ndd_page_low(pageno, mv->npages);
	NddChain	chain;
	Page		page;
	int			result = NDD_APPEND_DONE;
	int			i = 0;

	page = ndd_chain_open(&chain, index, mv, primary);
	if (page == NULL)
	{
		*gone = chain.gone;
		return NDD_APPEND_GONE;
	}
	while (i < n)
	{
		Buffer		cur = chain.cur;
		Buffer		pbuf = chain.first;
		BlockNumber here = BufferGetBlockNumber(cur);
		bool		move_hint = cur != pbuf &&
			NddPageGetOpaque(BufferGetPage(pbuf))->insert_at != here;
		NddFormat	f = chain.f;

		if (ndd_entry_fits(page, &f, &e[i]))
		{
			NddAppendPart part = {cur, move_hint ? pbuf : InvalidBuffer, f, low, e + i, n - i, 0};

			ndd_appends_logged(index, &part, 1);
			i += part.done;
			continue;			/* the page may have room for more, or the next entry may not fit */
		}
		if (NddPageGetOpaque(page)->next == InvalidBlockNumber)
		{
			/* the end of the chain: link a new page after this one */
			Buffer		nbuf = ndd_new_buffer(index);
			GenericXLogState *state;
			Page		ppage;
			Page		npage;
			NddFormat	nf;
			BlockNumber nblk = BufferGetBlockNumber(nbuf);

			/*
			 * The load signal counts a chain whose first page is full, not one whose first page
			 * is too narrow for the TID (a page made when the heap was smaller): that is no sign
			 * that the map holds too many entries.
			 */
			if (cur == pbuf && !nulls && !ndd_page_has_room(page, &f))
				result = NDD_APPEND_OVERFLOWED;
			new_page_format(mv, nulls, e[i].block, e[i].offset, &nf);
			state = GenericXLogStart(index);
			/* in lock order, which redo follows: the first page, the last page, the new page */
			ppage = cur == pbuf ? NULL : GenericXLogRegisterBuffer(state, pbuf, 0);
			page = GenericXLogRegisterBuffer(state, cur, 0);
			npage = GenericXLogRegisterBuffer(state, nbuf, GENERIC_XLOG_FULL_IMAGE);
			ndd_page_init(npage, nulls ? NDD_PAGE_NULLS : NDD_PAGE_OVERFLOW, &nf);
			i += ndd_append_fitting(npage, &nf, low, e + i, n - i);
			NddPageGetOpaque(page)->next = nblk;
			NddPageGetOpaque(ppage ? ppage : page)->insert_at = nblk;
			GenericXLogFinish(state);
			UnlockReleaseBuffer(nbuf);
			if (i < n)
				page = ndd_chain_next(&chain);	/* go on on the new page */
			continue;
		}
		page = ndd_chain_next(&chain);
	}
	ndd_chain_end(&chain);
	return result;
}
