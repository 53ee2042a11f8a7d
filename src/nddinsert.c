/*-------------------------------------------------------------------------
 *
 * nddinsert.c
 *	  Inserting one heap row into an ndd index: one entry in every table of the last segment (or
 *	  one in the NULL chain), each appended to its bucket's chain; and the growth step that appends
 *	  a new segment when inserts have made the last segment's chains long.
 *
 * Locking: the bucket's primary page is exclusively locked for the whole append, which makes it
 * the bucket's lock (README.index.md): chain pages are then locked in chain order, and a new page
 * is locked before it is reachable. The growth step runs after the appends, holding no page lock,
 * under the metapage's exclusive lock. Every change is WAL-logged through generic WAL.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* The format of a new page linked to a chain for an entry with this heap TID. */
static void
new_page_format(const NddMetaPageData *meta, bool nulls, BlockNumber block, OffsetNumber offset,
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
		ndd_format_for(meta, Max(meta->block_bits, Min(32, ndd_bits_for(block) + 1)),
					   Max(meta->offset_bits, ndd_bits_for(offset)), nf);
}

/* A chain's insert hint names a page that cannot be part of the chain. */
static void
ndd_insert_hint_corrupted(Relation index, BlockNumber primary, BlockNumber hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("ndd index \"%s\" is corrupted: the chain at block %u names block %u as its insert page",
					RelationGetRelationName(index), primary, hint),
			 errhint("REINDEX the index.")));
}

/*
 * Appends one entry to the chain starting at primary. delta/tail are the entry's fingerprint
 * fields (unused on the NULL chain). The search for room starts at the chain's insert_at page
 * (README.index.md, "Inserts"): the entry goes to the first page from there with room and a format
 * wide enough for the TID, or to a new page linked after the last one; insert_at then names that
 * page, in the same WAL record. The pages before insert_at are never looked at again until VACUUM
 * moves it back, so a chain of any length (a fingerprint inserted a million times) costs an insert
 * O(1) pages amortized. Returns whether it linked a new page.
 */
static bool
ndd_chain_append(Relation index, const NddMetaPageData *meta, BlockNumber primary, bool nulls,
				 uint64 delta, uint64 tail, BlockNumber block, OffsetNumber offset)
{
	Buffer		pbuf = ReadBuffer(index, primary);
	Buffer		cur = pbuf;
	BlockNumber start;
	GenericXLogState *state;
	Page		page;
	NddFormat	f;
	bool		linked = false;

	LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
	start = NddPageGetOpaque(BufferGetPage(pbuf))->insert_at;
	if (start != InvalidBlockNumber && start != primary)
	{
		/*
		 * The primary's exclusive lock is the bucket lock: lock the chain page it names. A hint that
		 * cannot name a page of this chain (damage) must not send the entry elsewhere.
		 */
		if (start >= RelationGetNumberOfBlocks(index))
			ndd_insert_hint_corrupted(index, primary, start);
		cur = ReadBuffer(index, start);
		LockBuffer(cur, BUFFER_LOCK_EXCLUSIVE);
		if (PageIsNew(BufferGetPage(cur)) ||
			NddPageGetOpaque(BufferGetPage(cur))->kind != (nulls ? NDD_PAGE_NULLS : NDD_PAGE_OVERFLOW))
			ndd_insert_hint_corrupted(index, primary, start);
	}
	for (;;)
	{
		BlockNumber next;

		page = BufferGetPage(cur);
		ndd_page_format(page, meta->delta_bits, meta->bits == 128, &f);
		if (f.entry_bytes > 0 && ndd_page_has_room(page, &f) && ndd_format_fits(&f, block, offset))
		{
			BlockNumber here = BufferGetBlockNumber(cur);
			BlockNumber was = NddPageGetOpaque(BufferGetPage(pbuf))->insert_at;

			state = GenericXLogStart(index);
			page = GenericXLogRegisterBuffer(state, cur, 0);
			ndd_page_append(page, &f, delta, tail, block, offset);
			/* the walk starts at insert_at and never comes back to the primary */
			if (cur != pbuf && was != here)
				NddPageGetOpaque(GenericXLogRegisterBuffer(state, pbuf, 0))->insert_at = here;
			GenericXLogFinish(state);
			break;
		}
		next = NddPageGetOpaque(page)->next;
		if (next == InvalidBlockNumber)
		{
			/* the end of the chain: link a new page after this one */
			Buffer		nbuf = ndd_new_buffer(index);
			Page		npage;
			NddFormat	nf;

			new_page_format(meta, nulls, block, offset, &nf);
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
		if (cur != pbuf)
			UnlockReleaseBuffer(cur);
		cur = ReadBuffer(index, next);
		LockBuffer(cur, BUFFER_LOCK_EXCLUSIVE);
	}
	if (cur != pbuf)
		UnlockReleaseBuffer(cur);
	UnlockReleaseBuffer(pbuf);
	return linked;
}

/*
 * The growth step (README.index.md, "Growth"), after an insert into segment s linked `linked` new
 * overflow pages: counts them in the metapage and, once the inserts into the last segment have
 * linked as many pages as it has primaries (its chains average two pages), appends a segment
 * with as many primary pages per table as the whole index has pages per table: each segment is
 * about three times the one before, so a table grown from empty to N rows has O(log N)
 * segments, each read like a well-sized index (a few pages per table), and the relation at
 * most doubles at a growth step. heap_block
 * is the inserted row's heap block, to size the new pages' block field.
 *
 * The new segment's pages are initialized and WAL-logged before the metapage record that makes
 * them reachable: a crash in between leaves unreachable pages, only wasted space.
 */
static void
ndd_grow(Relation index, int s, int linked, BlockNumber heap_block)
{
	Buffer		mbuf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
	NddMetaPage cur;
	GenericXLogState *state;
	NddMetaPage meta;
	NddSegment	seg = {0};
	bool		add = false;

	LockBuffer(mbuf, BUFFER_LOCK_EXCLUSIVE);
	cur = NddPageGetMeta(BufferGetPage(mbuf));
	if (s != cur->nsegments - 1)
	{
		/* a segment was appended meanwhile: the count of an older one no longer matters */
		UnlockReleaseBuffer(mbuf);
		return;
	}
	if (cur->nsegments < NDD_MAX_SEGMENTS &&
		(uint64) cur->seg[s].grown_pages + linked >= (uint64) cur->ntables * cur->seg[s].npages)
	{
		BlockNumber nblocks = RelationGetNumberOfBlocks(index);
		double		npages = (double) nblocks / cur->ntables;
		NddMetaPageData view;
		NddFormat	f;
		uint32		i;
		uint32		total;

		/* every primary must stay addressable */
		npages = Min(npages, (double) (MaxBlockNumber - nblocks) / (2.0 * cur->ntables));
		if (npages >= cur->seg[s].npages)
		{
			add = true;
			seg.npages = (uint32) npages;
			seg.delta_bits = ndd_page_delta_bits(seg.npages);
			memcpy(&view, cur, sizeof(view));
			view.delta_bits = seg.delta_bits;
			ndd_format_for(&view, Max(cur->block_bits, Min(32, ndd_bits_for(heap_block) + 1)),
						   cur->offset_bits, &f);

			/* the primaries of all tables, contiguous: no other backend may extend meanwhile */
			total = seg.npages * (uint32) cur->ntables;
			LockRelationForExtension(index, ExclusiveLock);
			for (i = 0; i < total;)
			{
				Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
				int			n = 0;
				int			j;

				state = GenericXLogStart(index);
				for (; n < MAX_GENERIC_XLOG_PAGES && i < total; n++, i++)
				{
					Page		page;

					bufs[n] = ReadBuffer(index, P_NEW);
					LockBuffer(bufs[n], BUFFER_LOCK_EXCLUSIVE);
					if (i == 0)
						seg.start = BufferGetBlockNumber(bufs[n]);
					Assert(BufferGetBlockNumber(bufs[n]) == seg.start + i);
					page = GenericXLogRegisterBuffer(state, bufs[n], GENERIC_XLOG_FULL_IMAGE);
					ndd_page_init(page, NDD_PAGE_PRIMARY, &f);
				}
				GenericXLogFinish(state);
				for (j = 0; j < n; j++)
					UnlockReleaseBuffer(bufs[j]);
			}
			UnlockRelationForExtension(index, ExclusiveLock);
		}
	}

	state = GenericXLogStart(index);
	meta = NddPageGetMeta(GenericXLogRegisterBuffer(state, mbuf, 0));
	meta->seg[s].grown_pages += linked;
	if (add)
		meta->seg[meta->nsegments++] = seg;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(mbuf);
}

/* aminsert: adds the row's entry to every table of the last segment (or its TID to the NULL chain). */
bool
ndd_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	NddMetaPage cur;
	NddMetaPageData meta;
	int			s;
	BlockNumber block = ItemPointerGetBlockNumber(ht_ctid);
	OffsetNumber offset = ItemPointerGetOffsetNumber(ht_ctid);
	uint64		words[2];
	int			t;
	int			linked = 0;

	cur = ndd_get_meta(index);
	s = cur->nsegments - 1;
	ndd_segment_view(cur, s, &meta);
	if (isnull[0])
	{
		ndd_chain_append(index, &meta, meta.null_start, true, 0, 0, block, offset);
		return false;
	}

	ndd_fingerprint_words(values[0], meta.bits, words);
	for (t = 0; t < meta.ntables; t++)
	{
		uint64		perm[2];
		uint32		page;

		ndd_layout_permute(&meta.layout, t, words, perm);
		page = ndd_page_of(perm[0], meta.npages);
		linked += ndd_chain_append(index, &meta, ndd_primary_block(&meta, t, page), false,
								   perm[0] - ndd_page_low(page, meta.npages), perm[1], block, offset);
	}
	if (linked > 0)
		ndd_grow(index, s, linked, block);
	return false;
}
