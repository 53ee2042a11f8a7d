/*-------------------------------------------------------------------------
 *
 * nddinsert.c
 *	  Inserting one heap row into an ndd index: one entry in every table of the map (or one in
 *	  the NULL chain), each appended to its bucket's chain; the append itself, which a migration
 *	  also uses to move a page's entries (nddgrow.c).
 *
 * Locking: the bucket's primary page is exclusively locked for the whole append, which makes it
 * the bucket's lock (README.index.md): chain pages are then locked in chain order, and a new page
 * is locked before it is reachable. Expansions and migrations run after the appends, holding no
 * page lock (nddgrow.c). Every change is WAL-logged (generic WAL).
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/xloginsert.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

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

/* The format of a new page linked to a chain of map view sv for an entry with this heap TID. */
static void
new_page_format(const NddSegView *sv, bool nulls, BlockNumber block, OffsetNumber offset,
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
		ndd_data_page_format(sv->meta, sv->delta_bits, block, offset, nf);
}

/* Can entry e go on page, of format f, as it is: room, and fields wide enough for its TID? */
static inline bool
entry_fits(Page page, const NddFormat *f, const NddEntry *e)
{
	return ndd_page_has_room(page, f) && ndd_format_fits(f, e->block, e->offset);
}

/*
 * Appends entries e[0..n) to page (registered in a generic WAL record by the caller, or not
 * WAL-logged at all) while they have room and fit its format; returns how many it appended.
 */
int
ndd_append_fitting(Page page, const NddFormat *f, uint64 low, const NddEntry *e, int n)
{
	int			k = 0;

	while (k < n && entry_fits(page, f, &e[k]))
	{
		ndd_page_append(page, f, e[k].head - low, e[k].tail, e[k].block, e[k].offset);
		k++;
	}
	return k;
}

/*
 * One page's part of an append record (ndd_appends_logged): entries appended to the page of cur
 * and, when hint is valid (the chain's first page), that page's insert_at set to cur.
 */
typedef struct NddAppendPart
{
	Buffer		cur;			/* the page the entries go to, exclusively locked */
	Buffer		hint;			/* the chain's first page, exclusively locked, or InvalidBuffer */
	NddFormat	f;				/* cur's entry format */
	uint64		low;			/* the smallest head of the chain's map page */
	const NddEntry *e;			/* the entries: as many as have room on cur and fit its format,
								 * at least e[0] */
	int			n;
	int			done;			/* out: how many were appended */
} NddAppendPart;

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
static void
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
 * Locks the bucket (the chain's first page) of table t's page `pageno` of map view sv and the
 * page its insert_at names, where appends start (README.index.md, "Inserts"); NULL, holding
 * nothing, when the primary page is not of sv's map (c->gone says why).
 */
static Page
ndd_chain_open(NddChain *c, Relation index, const NddSegView *sv, BlockNumber primary)
{
	Page		page = ndd_chain_begin(c, index, sv, primary, BUFFER_LOCK_EXCLUSIVE, NULL);
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
 * view sv (t < 0: the NULL chain; e's fingerprint fields are then unused). The search for room
 * starts at the chain's insert_at page (README.index.md, "Inserts"): entries go to the first page
 * from there with room and a format wide enough for their TIDs, or to new pages linked after the
 * last one; insert_at then names the page of the last one, in the same WAL record. The pages
 * before insert_at are never looked at again until VACUUM moves it back, so a chain of any length
 * (a fingerprint inserted a million times) costs an insert O(1) pages amortized.
 *
 * Returns NDD_APPEND_GONE, appending nothing, when the primary page is not of sv's map (*gone
 * says why: NddChain.gone), NDD_APPEND_OVERFLOWED when it linked the chain's first overflow page
 * because its first page was full (the load signal of nddgrow.c), NDD_APPEND_DONE otherwise.
 */
int
ndd_chain_append(Relation index, const NddSegView *sv, int t, uint32 pageno,
				 const NddEntry *e, int n, int *gone)
{
	bool		nulls = t < 0;
	BlockNumber primary = nulls ? sv->meta->null_start : ndd_primary_block(sv, t, pageno);
	uint64		low = nulls ? 0 : ndd_page_low(pageno, sv->npages);
	NddChain	chain;
	Page		page;
	int			result = NDD_APPEND_DONE;
	int			i = 0;

	page = ndd_chain_open(&chain, index, sv, primary);
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

		if (entry_fits(page, &f, &e[i]))
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
			new_page_format(sv, nulls, e[i].block, e[i].offset, &nf);
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

/*
 * An entry of one table waiting, with its chain's pages locked, to go into the WAL record that
 * ndd_insert writes for several tables (flush_staged).
 */
typedef struct NddStaged
{
	NddChain	chain;			/* the bucket and the page the entry goes on (chain.cur) */
	NddEntry	e;
	uint64		low;			/* the smallest head of the chain's map page */
} NddStaged;

/*
 * Opens the chain of table t's page `pageno` of map view sv for entry e (ndd_chain_open). When e
 * can go on the page where appends start as it is, with room and a format that fits its TID
 * (nearly always), keeps the chain locked in *s and returns NDD_APPEND_STAGED; otherwise
 * releases it and returns NDD_APPEND_GONE (*gone: NddChain.gone) or NDD_APPEND_WALK, when the
 * append must walk on or link a page (ndd_chain_append).
 */
#define NDD_APPEND_STAGED	(-1)
#define NDD_APPEND_WALK		(-2)
static int
ndd_chain_stage(Relation index, const NddSegView *sv, int t, uint32 pageno, const NddEntry *e,
				NddStaged *s, int *gone)
{
	Page		page = ndd_chain_open(&s->chain, index, sv, ndd_primary_block(sv, t, pageno));

	if (page == NULL)
	{
		*gone = s->chain.gone;
		return NDD_APPEND_GONE;
	}
	if (entry_fits(page, &s->chain.f, e))
	{
		s->e = *e;
		s->low = ndd_page_low(pageno, sv->npages);
		return NDD_APPEND_STAGED;
	}
	ndd_chain_end(&s->chain);
	return NDD_APPEND_WALK;
}

/* Appends the staged entries s[0..*n) in one WAL record and releases their chains. */
static void
flush_staged(Relation index, NddStaged *s, int *n)
{
	NddAppendPart parts[MAX_GENERIC_XLOG_PAGES];
	int			i;

	if (*n == 0)
		return;
	for (i = 0; i < *n; i++)
	{
		NddAppendPart part = {s[i].chain.cur, InvalidBuffer, s[i].chain.f, s[i].low, &s[i].e, 1, 0};

		parts[i] = part;
	}
	ndd_appends_logged(index, parts, *n);
	for (i = 0; i < *n; i++)
		ndd_chain_end(&s[i].chain);
	*n = 0;
}

/*
 * aminsert: adds the row's entry to every table of the map (or its TID to the NULL chain), then
 * lets nddgrow.c expand the map or advance a migration when that is due.
 *
 * The entries of up to MAX_GENERIC_XLOG_PAGES tables go into one WAL record: their chains are
 * locked one table after the other, in table order, and released together after the record (a
 * chain that needs more than its insert_at page first releases the ones held). Every other
 * holder of several bucket locks holds them within one table (a migration; README.index.md,
 * "Locking"), so the table order adds no deadlock; on a standby, redo locks the record's pages in
 * table order, one page per table, while a reader holds pages of one chain only.
 */
bool
ndd_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	NddMetaPageData meta;
	NddViews	views;
	NddEntry	e;
	NddStaged	staged[MAX_GENERIC_XLOG_PAGES];
	int			nstaged = 0;
	uint64		words[2];
	int			t;
	int			overflowed = 0;
	int			gone;
	bool		due = false;

	/* a copy: the cached one is overwritten by the next read */
	ndd_meta_copy(&meta, ndd_get_meta(index));
	ndd_map_views(&meta, &views);
	e.block = ItemPointerGetBlockNumber(ht_ctid);
	e.offset = ItemPointerGetOffsetNumber(ht_ctid);
	e.head = e.tail = 0;
	if (isnull[0])
	{
		ndd_chain_append(index, &views.v[0], -1, 0, &e, 1, &gone);
		return false;
	}

	ndd_fingerprint_words(values[0], meta.layout.bits, words);
	for (t = 0; t < meta.layout.ntables;)
	{
		uint64		perm[2];
		const NddSegView *sv;
		NddSegView	cur;
		uint32		page;
		int			r;

		ndd_layout_permute(&meta.layout, t, words, perm);
		e.head = perm[0];
		e.tail = perm[1];
		sv = ndd_view_of(&views, e.head);
		page = ndd_page_of(e.head, sv->npages);
		r = ndd_chain_stage(index, sv, t, page, &e, &staged[nstaged], &gone);
		if (r == NDD_APPEND_STAGED)
		{
			if (++nstaged == MAX_GENERIC_XLOG_PAGES)
				flush_staged(index, staged, &nstaged);
			t++;
			continue;
		}
		/* the cases below take other locks (the metapage, new pages): hold no chain of another table */
		flush_staged(index, staged, &nstaged);
		if (r == NDD_APPEND_WALK)
			r = ndd_chain_append(index, sv, t, page, &e, 1, &gone);
		if (r == NDD_APPEND_GONE && gone == NDD_GONE_MOVED)
		{
			/* migrated since the metapage was read: the head's page of the current map */
			ndd_map_view(&meta, false, &cur);
			page = ndd_page_of(e.head, cur.npages);
			r = ndd_chain_append(index, &cur, t, page, &e, 1, &gone);
			sv = &cur;
		}
		if (r == NDD_APPEND_GONE)
		{
			/* the map changed since the metapage was read (or the page is damaged): again */
			ndd_stale_or_corrupt(index, &meta, ndd_primary_block(sv, t, page));
			ndd_meta_copy(&meta, ndd_get_meta(index));
			ndd_map_views(&meta, &views);
			continue;
		}
		if (r == NDD_APPEND_OVERFLOWED && sv->generation == meta.generation)
			overflowed++;
		t++;
	}
	flush_staged(index, staged, &nstaged);
	if (overflowed > 0)
		due = ndd_count_overflow(index, meta.generation, overflowed);
	if (due || meta.old_npages != 0 || ndd_expansion_due(&meta))
		ndd_grow_work(index, heapRel, e.block);
	return false;
}
