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

/* A generic WAL delta fragment's header: uint16 offset, uint16 length (generic_xlog.c). */
#define NDD_FRAGMENT_HEADER		(2 * sizeof(uint16))

/*
 * Appends to out (len bytes used) the generic WAL delta fragment that sets the length bytes of
 * page at offset to what they hold now; returns the new length.
 */
static int
ndd_delta_fragment(char *out, int len, Page page, int offset, int length)
{
	uint16		o = (uint16) offset;
	uint16		l = (uint16) length;

	memcpy(out + len, &o, sizeof(o));
	memcpy(out + len + sizeof(o), &l, sizeof(l));
	memcpy(out + len + NDD_FRAGMENT_HEADER, (char *) page + offset, length);
	return len + NDD_FRAGMENT_HEADER + length;
}

/*
 * Appends entries e[0..n) to page (registered in a generic WAL record by the caller, or not
 * WAL-logged at all) while they have room and fit its format; returns how many it appended.
 */
int
ndd_append_fitting(Page page, const NddFormat *f, uint64 low, const NddEntry *e, int n)
{
	int			k = 0;

	while (k < n && ndd_page_has_room(page, f) && ndd_format_fits(f, e[k].block, e[k].offset))
	{
		ndd_page_append(page, f, e[k].head - low, e[k].tail, e[k].block, e[k].offset);
		k++;
	}
	return k;
}

/*
 * The generic WAL record of an append, written directly: entries e[0..n) appended to the page of
 * cur while they have room and fit its format (at least the first must), and, when hint is valid
 * (the chain's first page), that page's insert_at set to cur. Both buffers are exclusively locked
 * by the caller. Returns how many entries it appended.
 *
 * Appends are most of an insert's work, and of a migration's, and GenericXLogStart/RegisterBuffer
 * /Finish cost far more than the change: a 64 kB state allocated per record, two copies of every
 * page and a byte-by-byte comparison of every page's used area to find what changed. Here the
 * change is known: the entries' bytes and pd_lower on one page, insert_at on the other. The
 * record is exactly what GenericXLogFinish would write for it (RM_GENERIC_ID; per block,
 * REGBUF_STANDARD and a delta of fragments {uint16 offset, uint16 length, bytes}, the format
 * generic_xlog.c reads back in generic_redo), so replay, standbys and wal_consistency_checking =
 * 'generic' treat it as any other generic record (test/t/001_wal.pl compares a standby that
 * replays it). As in GenericXLogFinish, the bytes between pd_lower and pd_upper are zero on the
 * page (redo zeroes them): the entries are written into that zeroed area and pd_lower moved past
 * them.
 */
static int
ndd_append_logged(Relation index, Buffer cur, Buffer hint, const NddFormat *f, uint64 low,
				  const NddEntry *e, int n)
{
	Page		page = BufferGetPage(cur);
	uint16		at = ((PageHeader) page)->pd_lower;
	BlockNumber here = BufferGetBlockNumber(cur);
	/* two fragments on cur (pd_lower, the entries: at most a page), one on hint (insert_at) */
	union
	{
		char		data[2 * NDD_FRAGMENT_HEADER + sizeof(uint16) + BLCKSZ];
		double		force_align;
	}			cur_delta;
	char		hint_delta[NDD_FRAGMENT_HEADER + sizeof(BlockNumber)];
	int			cur_len = 0;
	int			k;

	START_CRIT_SECTION();
	k = ndd_append_fitting(page, f, low, e, n);
	Assert(k >= 1);
	MarkBufferDirty(cur);
	if (BufferIsValid(hint))
	{
		NddPageGetOpaque(BufferGetPage(hint))->insert_at = here;
		MarkBufferDirty(hint);
	}
	if (RelationNeedsWAL(index))
	{
		XLogRecPtr	recptr;

		cur_len = ndd_delta_fragment(cur_delta.data, cur_len, page,
									 offsetof(PageHeaderData, pd_lower), sizeof(uint16));
		cur_len = ndd_delta_fragment(cur_delta.data, cur_len, page, at, k * f->entry_bytes);
		XLogBeginInsert();
		/*
		 * The chain's first page first: redo locks a record's pages in this order, and a reader
		 * on a standby holds the first page while it waits for the others (the lock order of
		 * README.index.md, "Locking"; the other order could wait on it for ever).
		 */
		if (BufferIsValid(hint))
		{
			Page		hpage = BufferGetPage(hint);
			int			hint_len;

			hint_len = ndd_delta_fragment(hint_delta, 0, hpage,
										  (char *) &NddPageGetOpaque(hpage)->insert_at - (char *) hpage,
										  sizeof(BlockNumber));
			XLogRegisterBuffer(0, hint, REGBUF_STANDARD);
			XLogRegisterBufData(0, hint_delta, hint_len);
		}
		XLogRegisterBuffer(BufferIsValid(hint) ? 1 : 0, cur, REGBUF_STANDARD);
		XLogRegisterBufData(BufferIsValid(hint) ? 1 : 0, cur_delta.data, cur_len);
		recptr = XLogInsert(RM_GENERIC_ID, 0);
		PageSetLSN(page, recptr);
		if (BufferIsValid(hint))
			PageSetLSN(BufferGetPage(hint), recptr);
	}
	END_CRIT_SECTION();
	return k;
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
	BlockNumber start;
	Page		page;
	int			result = NDD_APPEND_DONE;
	int			i = 0;

	page = ndd_chain_begin(&chain, index, sv, primary, BUFFER_LOCK_EXCLUSIVE, NULL);
	if (page == NULL)
	{
		*gone = chain.gone;
		return NDD_APPEND_GONE;
	}
	start = NddPageGetOpaque(page)->insert_at;
	if (start != InvalidBlockNumber && start != primary)
	{
		/*
		 * The primary's exclusive lock is the bucket lock: lock the chain page it names (the walk
		 * checks that it lies in the index and is a later page of a chain of this chain's kind).
		 */
		page = ndd_chain_goto(&chain, start);
	}
	while (i < n)
	{
		Buffer		cur = chain.cur;
		Buffer		pbuf = chain.first;
		BlockNumber here = BufferGetBlockNumber(cur);
		bool		move_hint = cur != pbuf &&
			NddPageGetOpaque(BufferGetPage(pbuf))->insert_at != here;
		NddFormat	f = chain.f;

		if (ndd_page_has_room(page, &f) && ndd_format_fits(&f, e[i].block, e[i].offset))
		{
			i += ndd_append_logged(index, cur, move_hint ? pbuf : InvalidBuffer, &f, low, e + i, n - i);
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
 * aminsert: adds the row's entry to every table of the map (or its TID to the NULL chain), then
 * lets nddgrow.c expand the map or advance a migration when that is due.
 */
bool
ndd_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	NddMetaPageData meta;
	NddViews	views;
	NddEntry	e;
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
	if (overflowed > 0)
		due = ndd_count_overflow(index, meta.generation, overflowed);
	if (due || meta.old_npages != 0 || ndd_expansion_due(&meta))
		ndd_grow_work(index, heapRel, e.block);
	return false;
}
