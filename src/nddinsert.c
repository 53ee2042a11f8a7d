/*-------------------------------------------------------------------------
 *
 * nddinsert.c
 *	  Inserting one heap row into an ndd index: one entry in every table of the last segment (or
 *	  one in the NULL chain), each appended to its bucket's chain; and the growth step that appends
 *	  a new segment when inserts have made the last segment's chains long.
 *
 * Locking: the bucket's primary page is exclusively locked for the whole append, which makes it
 * the bucket's lock (README.index.md): chain pages are then locked in chain order, and a new page
 * is locked before it is reachable. The growth step runs after the appends, holding no page lock;
 * it writes the new segment holding no lock others need and publishes it with one metapage
 * update. Every change is WAL-logged (generic WAL; log_newpage for the reserved range's end).
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/xloginsert.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * The entry format of a new data page whose entries' delta field is delta_bits wide, for an entry
 * with this heap TID: the build's heap field widths, or wider ones the TID needs (the block field
 * with room for the heap to double).
 */
static void
data_page_format(const NddMetaPageData *meta, int delta_bits, BlockNumber block,
				 OffsetNumber offset, NddFormat *f)
{
	ndd_format_for(delta_bits, meta->layout.bits == 128,
				   Max(meta->block_bits, Min(32, ndd_bits_for(block) + 1)),
				   Max(meta->offset_bits, ndd_bits_for(offset)), f);
}

/* The format of a new page linked to a chain of segment sv for an entry with this heap TID. */
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
		data_page_format(sv->meta, sv->delta_bits, block, offset, nf);
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
 * The generic WAL record of an append, written directly: one entry added to the page of cur and,
 * when hint is valid (the chain's first page), that page's insert_at set to cur. Both buffers are
 * exclusively locked by the caller.
 *
 * An append is most of an insert's work, and GenericXLogStart/RegisterBuffer/Finish cost far more
 * than the change: a 64 kB state allocated per record, two copies of every page and a byte-by-byte
 * comparison of every page's used area to find what changed. Here the change is known: the entry's
 * bytes and pd_lower on one page, insert_at on the other. The record is exactly what
 * GenericXLogFinish would write for it (RM_GENERIC_ID; per block, REGBUF_STANDARD and a delta of
 * fragments {uint16 offset, uint16 length, bytes}, the format generic_xlog.c reads back in
 * generic_redo), so replay, standbys and wal_consistency_checking = 'generic' treat it as any
 * other generic record (test/t/001_wal.pl compares a standby that replays it). As in
 * GenericXLogFinish, the bytes between pd_lower and pd_upper are zero on the page (redo zeroes
 * them): the entry is written into that zeroed area and pd_lower moved past it.
 */
static void
ndd_append_logged(Relation index, Buffer cur, Buffer hint, const NddFormat *f, uint64 delta,
				  uint64 tail, BlockNumber block, OffsetNumber offset)
{
	Page		page = BufferGetPage(cur);
	uint16		at = ((PageHeader) page)->pd_lower;
	BlockNumber here = BufferGetBlockNumber(cur);
	/* two fragments on cur (pd_lower, the entry of at most 32 bytes), one on hint (insert_at) */
	char		cur_delta[2 * NDD_FRAGMENT_HEADER + sizeof(uint16) + 32];
	char		hint_delta[NDD_FRAGMENT_HEADER + sizeof(BlockNumber)];
	int			cur_len = 0;

	Assert(f->entry_bytes <= 32);
	START_CRIT_SECTION();
	ndd_page_append(page, f, delta, tail, block, offset);
	MarkBufferDirty(cur);
	if (BufferIsValid(hint))
	{
		NddPageGetOpaque(BufferGetPage(hint))->insert_at = here;
		MarkBufferDirty(hint);
	}
	if (RelationNeedsWAL(index))
	{
		XLogRecPtr	recptr;

		cur_len = ndd_delta_fragment(cur_delta, cur_len, page, offsetof(PageHeaderData, pd_lower),
									 sizeof(uint16));
		cur_len = ndd_delta_fragment(cur_delta, cur_len, page, at, f->entry_bytes);
		XLogBeginInsert();
		XLogRegisterBuffer(0, cur, REGBUF_STANDARD);
		XLogRegisterBufData(0, cur_delta, cur_len);
		if (BufferIsValid(hint))
		{
			Page		hpage = BufferGetPage(hint);
			int			hint_len;

			hint_len = ndd_delta_fragment(hint_delta, 0, hpage,
										  (char *) &NddPageGetOpaque(hpage)->insert_at - (char *) hpage,
										  sizeof(BlockNumber));
			XLogRegisterBuffer(1, hint, REGBUF_STANDARD);
			XLogRegisterBufData(1, hint_delta, hint_len);
		}
		recptr = XLogInsert(RM_GENERIC_ID, 0);
		PageSetLSN(page, recptr);
		if (BufferIsValid(hint))
			PageSetLSN(BufferGetPage(hint), recptr);
	}
	END_CRIT_SECTION();
}

/*
 * Appends one entry to the chain of segment sv starting at primary. delta/tail are the entry's
 * fingerprint fields (unused on the NULL chain). The search for room starts at the chain's insert_at page
 * (README.index.md, "Inserts"): the entry goes to the first page from there with room and a format
 * wide enough for the TID, or to a new page linked after the last one; insert_at then names that
 * page, in the same WAL record. The pages before insert_at are never looked at again until VACUUM
 * moves it back, so a chain of any length (a fingerprint inserted a million times) costs an insert
 * O(1) pages amortized. Returns whether it linked a new page.
 */
static bool
ndd_chain_append(Relation index, const NddSegView *sv, BlockNumber primary, bool nulls,
				 uint64 delta, uint64 tail, BlockNumber block, OffsetNumber offset)
{
	NddChain	chain;
	BlockNumber start;
	GenericXLogState *state;
	Page		page;
	NddFormat	f;
	bool		linked = false;

	page = ndd_chain_begin(&chain, index, sv, primary, BUFFER_LOCK_EXCLUSIVE, NULL);
	start = NddPageGetOpaque(page)->insert_at;
	if (start != InvalidBlockNumber && start != primary)
	{
		/*
		 * The primary's exclusive lock is the bucket lock: lock the chain page it names (the walk
		 * checks that it lies in the index and is a later page of a chain of this chain's kind).
		 */
		page = ndd_chain_goto(&chain, start);
	}
	for (;;)
	{
		Buffer		cur = chain.cur;
		Buffer		pbuf = chain.first;

		f = chain.f;
		if (ndd_page_has_room(page, &f) && ndd_format_fits(&f, block, offset))
		{
			BlockNumber here = BufferGetBlockNumber(cur);
			BlockNumber was = NddPageGetOpaque(BufferGetPage(pbuf))->insert_at;

			/* the walk starts at insert_at and never comes back to the primary */
			ndd_append_logged(index, cur, cur != pbuf && was != here ? pbuf : InvalidBuffer,
							  &f, delta, tail, block, offset);
			break;
		}
		if (NddPageGetOpaque(page)->next == InvalidBlockNumber)
		{
			/* the end of the chain: link a new page after this one */
			Buffer		nbuf = ndd_new_buffer(index);
			Page		npage;
			NddFormat	nf;

			new_page_format(sv, nulls, block, offset, &nf);
			state = GenericXLogStart(index);
			page = GenericXLogRegisterBuffer(state, cur, 0);
			npage = GenericXLogRegisterBuffer(state, nbuf, GENERIC_XLOG_FULL_IMAGE);
			ndd_page_init(npage, nulls ? NDD_PAGE_NULLS : NDD_PAGE_OVERFLOW, &nf);
			ndd_page_append(npage, &nf, delta, tail, block, offset);
			NddPageGetOpaque(page)->next = BufferGetBlockNumber(nbuf);
			/* the primary: the same page as cur, or a third buffer of the record */
			NddPageGetOpaque(cur == pbuf ? page : GenericXLogRegisterBuffer(state, pbuf, 0))->insert_at =
				BufferGetBlockNumber(nbuf);
			GenericXLogFinish(state);
			UnlockReleaseBuffer(nbuf);
			linked = true;
			break;
		}
		page = ndd_chain_next(&chain);
	}
	ndd_chain_end(&chain);
	return linked;
}

/*
 * The metapage, exclusively locked and registered in a new generic WAL record, for one update:
 * ndd_meta_finish logs it and releases the lock (GenericXLogAbort + UnlockReleaseBuffer drops it).
 * Taken with no other page locked.
 */
static NddMetaPage
ndd_meta_begin(Relation index, Buffer *mbuf, GenericXLogState **state)
{
	*mbuf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
	LockBuffer(*mbuf, BUFFER_LOCK_EXCLUSIVE);
	*state = GenericXLogStart(index);
	return NddPageGetMeta(GenericXLogRegisterBuffer(*state, *mbuf, 0));
}

static void
ndd_meta_finish(Buffer mbuf, GenericXLogState *state)
{
	GenericXLogFinish(state);
	UnlockReleaseBuffer(mbuf);
}

/*
 * Counts, in the metapage, the `linked` overflow pages an insert into segment s linked. Returns
 * whether a growth step is due: s is the last segment, there is room for another, and the
 * inserts into s have linked as many pages as it has primaries (its chains average two pages).
 */
static bool
ndd_count_growth(Relation index, int s, int linked)
{
	Buffer		mbuf;
	GenericXLogState *state;
	NddMetaPage meta = ndd_meta_begin(index, &mbuf, &state);
	bool		due;

	if (s != meta->nsegments - 1)
	{
		/* a segment was appended meanwhile: the count of an older one no longer matters */
		GenericXLogAbort(state);
		UnlockReleaseBuffer(mbuf);
		return false;
	}
	meta->seg[s].grown_pages += linked;
	due = meta->nsegments < NDD_MAX_SEGMENTS &&
		(uint64) meta->seg[s].grown_pages >= (uint64) meta->layout.ntables * meta->seg[s].npages;
	ndd_meta_finish(mbuf, state);
	return due;
}

/*
 * Reserves `total` contiguous new blocks at the end of the index and returns the first. Only the
 * last one is written here (an empty page of the given kind, WAL-logged so that a standby's file
 * has the same length); the file system fills the blocks before it with zeros, which read as new
 * pages, as hash indexes allocate a split point. The extension lock is held for this one write,
 * not while the caller fills the blocks, so inserts linking overflow pages meanwhile only wait
 * for it, and get the blocks after these.
 */
static BlockNumber
ndd_reserve_blocks(Relation index, uint32 total, const NddFormat *f)
{
	PGAlignedBlock zero;
	BlockNumber first;
	BlockNumber last;

	LockRelationForExtension(index, ExclusiveLock);
	first = RelationGetNumberOfBlocks(index);
	last = first + total - 1;
	ndd_page_init((Page) zero.data, NDD_PAGE_PRIMARY, f);
	if (RelationNeedsWAL(index))
		log_newpage(&index->rd_node, MAIN_FORKNUM, last, (Page) zero.data, true);
	PageSetChecksumInplace((Page) zero.data, last);
	smgrextend(RelationGetSmgr(index), MAIN_FORKNUM, last, zero.data, false);
	UnlockRelationForExtension(index, ExclusiveLock);
	return first;
}

/*
 * The growth step (README.index.md, "Growth"): appends a segment with as many primary pages per
 * table as the whole index has pages per table, so each segment is about three times the one
 * before, a table grown from empty to N rows has O(log N) segments, each read like a well-sized
 * index (a few pages per table), and the relation at most doubles at a step. s is the segment
 * whose count made the step due; heap_block is the inserted row's heap block, to size the new
 * pages' block field.
 *
 * It never holds a lock that scans or inserts need while it writes: only one backend grows an
 * index at a time, serialized by a heavyweight lock on the metapage's page number that nothing
 * else takes (as GIN serializes its pending-list cleanup); a backend that finds a step under way
 * leaves it to the one doing it. The new pages are reserved (ndd_reserve_blocks) and recorded as
 * pending in the metapage, initialized and WAL-logged (full images) with no other lock held,
 * interruptibly, and only then does one generic WAL record of the metapage, under its exclusive
 * lock for that update only, make them reachable (Invariant 3). A cancel or error before it
 * leaves the range pending, and the next step fills that range instead of reserving another; a
 * crash between the reservation and its record leaves unreachable blocks, only wasted space.
 */
static void
ndd_grow(Relation index, int s, BlockNumber heap_block)
{
	NddMetaPageData cur;
	NddSegment	seg = {0};
	int			ntables;
	NddFormat	f;
	BlockNumber nblocks;
	uint32		total;
	uint32		i;
	Buffer		mbuf;
	GenericXLogState *state;
	NddMetaPage meta;

	if (!ConditionalLockPage(index, NDD_METAPAGE_BLKNO, ExclusiveLock))
		return;					/* another backend is growing this index */

	/* a step that finished while this backend waited for the lock makes this one moot */
	cur = *ndd_get_meta(index);
	if (s != cur.nsegments - 1 || cur.nsegments >= NDD_MAX_SEGMENTS)
	{
		UnlockPage(index, NDD_METAPAGE_BLKNO, ExclusiveLock);
		return;
	}

	ntables = cur.layout.ntables;
	nblocks = RelationGetNumberOfBlocks(index);
	if (cur.pending.npages > 0 &&
		(uint64) cur.pending.start + (uint64) cur.pending.npages * ntables <= nblocks)
	{
		/* the range an interrupted step reserved: fill it, whatever it holds */
		seg.npages = cur.pending.npages;
		seg.start = cur.pending.start;
		data_page_format(&cur, ndd_page_delta_bits(seg.npages), heap_block, 0, &f);
	}
	else
	{
		/* every primary must stay addressable */
		double		npages = Min((double) nblocks / ntables,
								 (double) (MaxBlockNumber - nblocks) / (2.0 * ntables));

		if (npages < cur.seg[s].npages)
		{
			UnlockPage(index, NDD_METAPAGE_BLKNO, ExclusiveLock);
			return;
		}
		seg.npages = (uint32) npages;
		data_page_format(&cur, ndd_page_delta_bits(seg.npages), heap_block, 0, &f);
		seg.start = ndd_reserve_blocks(index, seg.npages * (uint32) ntables, &f);
		meta = ndd_meta_begin(index, &mbuf, &state);
		meta->pending = seg;
		ndd_meta_finish(mbuf, state);
	}

	/* the primaries of all tables, contiguous */
	total = seg.npages * (uint32) ntables;
	for (i = 0; i < total;)
	{
		Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
		int			n = 0;
		int			j;

		CHECK_FOR_INTERRUPTS();
		state = GenericXLogStart(index);
		for (; n < MAX_GENERIC_XLOG_PAGES && i < total; n++, i++)
		{
			/* nobody else can reach these blocks: no read, just a zeroed, locked buffer */
			bufs[n] = ReadBufferExtended(index, MAIN_FORKNUM, seg.start + i, RBM_ZERO_AND_LOCK, NULL);
			ndd_page_init(GenericXLogRegisterBuffer(state, bufs[n], GENERIC_XLOG_FULL_IMAGE),
						  NDD_PAGE_PRIMARY, &f);
		}
		GenericXLogFinish(state);
		for (j = 0; j < n; j++)
			UnlockReleaseBuffer(bufs[j]);
	}

	/* publish: one metapage update; inserts from now on go to the new segment */
	meta = ndd_meta_begin(index, &mbuf, &state);
	Assert(meta->nsegments == s + 1);
	meta->seg[meta->nsegments++] = seg;
	memset(&meta->pending, 0, sizeof(meta->pending));
	ndd_meta_finish(mbuf, state);
	UnlockPage(index, NDD_METAPAGE_BLKNO, ExclusiveLock);
}

/* aminsert: adds the row's entry to every table of the last segment (or its TID to the NULL chain). */
bool
ndd_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	NddMetaPageData meta;
	NddSegView	sv;
	int			s;
	BlockNumber block = ItemPointerGetBlockNumber(ht_ctid);
	OffsetNumber offset = ItemPointerGetOffsetNumber(ht_ctid);
	uint64		words[2];
	int			t;
	int			linked = 0;

	/* a copy: the cached one is overwritten by the next read (ndd_grow's) */
	meta = *ndd_get_meta(index);
	s = meta.nsegments - 1;
	ndd_segment_view(&meta, s, &sv);
	if (isnull[0])
	{
		ndd_chain_append(index, &sv, meta.null_start, true, 0, 0, block, offset);
		return false;
	}

	ndd_fingerprint_words(values[0], meta.layout.bits, words);
	for (t = 0; t < meta.layout.ntables; t++)
	{
		uint64		perm[2];
		uint32		page;

		ndd_layout_permute(&meta.layout, t, words, perm);
		page = ndd_page_of(perm[0], sv.npages);
		linked += ndd_chain_append(index, &sv, ndd_primary_block(&sv, t, page), false,
								   perm[0] - ndd_page_low(page, sv.npages), perm[1], block, offset);
	}
	if (linked > 0 && ndd_count_growth(index, s, linked))
		ndd_grow(index, s, block);
	return false;
}
