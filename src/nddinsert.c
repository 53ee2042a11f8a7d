/*-------------------------------------------------------------------------
 *
 * nddinsert.c
 *	  Inserting one heap row into an ndd index: one entry in every table (or one in the NULL
 *	  chain), each appended to its bucket's chain.
 *
 * Locking: the bucket's primary page is exclusively locked for the whole append, which makes it
 * the bucket's lock (README.index.md): chain pages are then locked in chain order, and a new page
 * is locked before it is reachable. Every change is WAL-logged through generic WAL.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * Appends one entry to the chain starting at primary. delta/tail are the entry's fingerprint
 * fields (unused on the NULL chain). The entry goes to the first page of the chain with room and a
 * format wide enough for the TID (pages emptied by VACUUM are refilled that way); if there is
 * none, a new page is linked after the last one.
 */
static void
ndd_chain_append(Relation index, const NddMetaPageData *meta, BlockNumber primary, bool nulls,
				 uint64 delta, uint64 tail, BlockNumber block, OffsetNumber offset)
{
	Buffer		pbuf = ReadBuffer(index, primary);
	Buffer		cur = pbuf;
	GenericXLogState *state;
	Page		page;
	NddFormat	f;

	LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
	for (;;)
	{
		BlockNumber next;

		page = BufferGetPage(cur);
		ndd_page_format(page, meta->delta_bits, meta->bits == 128, &f);
		if (f.entry_bytes > 0 && ndd_page_has_room(page, &f) && ndd_format_fits(&f, block, offset))
		{
			state = GenericXLogStart(index);
			page = GenericXLogRegisterBuffer(state, cur, 0);
			ndd_page_append(page, &f, delta, tail, block, offset);
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

			if (nulls)
			{
				nf.entry_bytes = NDD_NULL_ENTRY_BYTES;
				nf.block_bits = NDD_NULL_BLOCK_BITS;
				nf.offset_bits = NDD_NULL_OFFSET_BITS;
				nf.delta_bits = 0;
				nf.wide = false;
			}
			else
				ndd_format_for(meta, Max(meta->block_bits, Min(32, ndd_bits_for(block) + 1)),
							   Max(meta->offset_bits, ndd_bits_for(offset)), &nf);
			state = GenericXLogStart(index);
			page = GenericXLogRegisterBuffer(state, cur, 0);
			npage = GenericXLogRegisterBuffer(state, nbuf, GENERIC_XLOG_FULL_IMAGE);
			ndd_page_init(npage, nulls ? NDD_PAGE_NULLS : NDD_PAGE_OVERFLOW, &nf);
			ndd_page_append(npage, &nf, delta, tail, block, offset);
			NddPageGetOpaque(page)->next = BufferGetBlockNumber(nbuf);
			GenericXLogFinish(state);
			UnlockReleaseBuffer(nbuf);
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
}

/* aminsert: adds the row's entry to every table (or its TID to the NULL chain). */
bool
ndd_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	NddMetaPageData meta = *ndd_get_meta(index);
	BlockNumber block = ItemPointerGetBlockNumber(ht_ctid);
	OffsetNumber offset = ItemPointerGetOffsetNumber(ht_ctid);
	uint64		words[2];
	int			t;

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
		ndd_chain_append(index, &meta, ndd_primary_block(&meta, t, page), false,
						 perm[0] - ndd_page_low(page, meta.npages), perm[1], block, offset);
	}
	return false;
}
