/*-------------------------------------------------------------------------
 *
 * nddvacuum.c
 *	  VACUUM of an ndd index: removing the entries of dead heap rows from every table and the
 *	  NULL chain, compacting each page in place.
 *
 * Entries never move between pages, and emptied overflow pages stay in their chain (VACUUM points
 * the chain's insert_at at the first page with room, where inserts refill it), so a bucket's chain
 * never shrinks and needs no page recycling. VACUUM sleeps (vacuum_delay_point) only between
 * chains, holding no lock, and reads through the vacuum's buffer access strategy.
 * Statistics count table 0 and the NULL chain: one entry per indexed heap row.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

/*
 * Removes dead entries from the chain of segment sv starting at primary. Returns the entries kept
 * and adds the removed ones to *removed.
 */
static int64
vacuum_chain(Relation index, const NddSegView *sv, BlockNumber primary,
			 IndexBulkDeleteCallback callback, void *callback_state, int64 *removed,
			 BufferAccessStrategy strategy)
{
	NddChain	chain;
	Page		page;
	int64		kept = 0;
	BlockNumber room = InvalidBlockNumber;	/* the chain's first page with room */
	BlockNumber last = primary;

	/*
	 * The primary's exclusive lock is the bucket lock: no reader is inside the chain. No
	 * vacuum_delay_point during the walk: it would sleep holding that lock.
	 */
	for (page = ndd_chain_begin(&chain, index, sv, primary, BUFFER_LOCK_EXCLUSIVE, strategy);
		 page != NULL; page = ndd_chain_next(&chain))
	{
		const NddFormat f = chain.f;
		int			n;
		int			i;
		int			ndead = 0;

		n = ndd_page_nentries(page, &f);
		/* a first look without changing anything: most pages have nothing to remove */
		for (i = 0; i < n; i++)
		{
			NddEntry	e;
			ItemPointerData tid;

			ndd_entry_decode((char *) page + MAXALIGN(SizeOfPageHeaderData) + i * f.entry_bytes,
							 &f, 0, &e);
			ItemPointerSet(&tid, e.block, e.offset);
			if (callback(&tid, callback_state))
				ndead++;
		}
		if (ndead > 0)
		{
			GenericXLogState *state = GenericXLogStart(index);
			Page		wpage = GenericXLogRegisterBuffer(state, chain.cur, 0);
			char	   *base = (char *) wpage + MAXALIGN(SizeOfPageHeaderData);
			int			out = 0;

			for (i = 0; i < n; i++)
			{
				NddEntry	e;
				ItemPointerData tid;
				char	   *src = base + i * f.entry_bytes;

				ndd_entry_decode(src, &f, 0, &e);
				ItemPointerSet(&tid, e.block, e.offset);
				if (callback(&tid, callback_state))
					continue;
				if (out != i)
					memmove(base + out * f.entry_bytes, src, f.entry_bytes);
				out++;
			}
			((PageHeader) wpage)->pd_lower = MAXALIGN(SizeOfPageHeaderData) + out * f.entry_bytes;
			GenericXLogFinish(state);
			*removed += n - out;
			kept += out;
		}
		else
			kept += n;
		if (room == InvalidBlockNumber && ndd_page_has_room(page, &f))
			room = BufferGetBlockNumber(chain.cur);
		last = BufferGetBlockNumber(chain.cur);
	}

	/*
	 * Inserts start at the first page with room again, or at the last page when none has room
	 * (InvalidBlockNumber names the primary itself).
	 */
	if (room == InvalidBlockNumber)
		room = last;
	if (room == primary)
		room = InvalidBlockNumber;
	if (room != NddPageGetOpaque(BufferGetPage(chain.first))->insert_at)
	{
		GenericXLogState *state = GenericXLogStart(index);

		NddPageGetOpaque(GenericXLogRegisterBuffer(state, chain.first, 0))->insert_at = room;
		GenericXLogFinish(state);
	}
	ndd_chain_end(&chain);
	return kept;
}

/* ambulkdelete: removes the entries of the heap rows the callback names. */
IndexBulkDeleteResult *
ndd_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			   IndexBulkDeleteCallback callback, void *callback_state)
{
	Relation	index = info->index;
	NddMetaPageData meta = *ndd_get_meta(index);
	NddSegView	seg;
	int64		kept = 0;
	int64		removed = 0;
	int			s;
	int			t;
	uint32		p;

	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));

	/*
	 * Segments appended after this read hold only rows inserted after the heap scan that found
	 * the dead ones, so the segments known now are all that can hold a dead row's entries.
	 */
	for (s = 0; s < meta.nsegments; s++)
	{
		ndd_segment_view(&meta, s, &seg);
		for (t = 0; t < meta.layout.ntables; t++)
		{
			for (p = 0; p < seg.npages; p++)
			{
				int64		r = 0;
				int64		k;

				vacuum_delay_point();
				k = vacuum_chain(index, &seg, ndd_primary_block(&seg, t, p), callback, callback_state, &r,
								 info->strategy);
				if (t == 0)
				{
					kept += k;
					removed += r;
				}
			}
		}
	}
	/* NULL-chain entries are bare TIDs: the last segment's view reads them as well as any */
	kept += vacuum_chain(index, &seg, meta.null_start, callback, callback_state, &removed,
						 info->strategy);

	stats->num_pages = RelationGetNumberOfBlocks(index);
	stats->num_index_tuples = (double) kept;
	stats->tuples_removed += (double) removed;
	stats->estimated_count = false;
	return stats;
}

/* Counts the entries of a chain of segment sv without changing it. */
static int64
count_chain(Relation index, const NddSegView *sv, BlockNumber primary,
			BufferAccessStrategy strategy)
{
	NddChain	chain;
	Page		page;
	int64		n = 0;

	for (page = ndd_chain_begin(&chain, index, sv, primary, BUFFER_LOCK_SHARE, strategy);
		 page != NULL; page = ndd_chain_next(&chain))
		n += ndd_page_nentries(page, &chain.f);
	ndd_chain_end(&chain);
	return n;
}

/* amvacuumcleanup: statistics, counted from table 0 when no bulk delete ran. */
IndexBulkDeleteResult *
ndd_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	Relation	index = info->index;
	NddMetaPageData meta;
	NddSegView	seg;
	int64		n = 0;
	int			s;
	uint32		p;

	if (info->analyze_only)
		return stats;
	if (stats != NULL)
		return stats;

	meta = *ndd_get_meta(index);
	stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	for (s = 0; s < meta.nsegments; s++)
	{
		ndd_segment_view(&meta, s, &seg);
		for (p = 0; p < seg.npages; p++)
		{
			vacuum_delay_point();
			n += count_chain(index, &seg, ndd_primary_block(&seg, 0, p), info->strategy);
		}
	}
	n += count_chain(index, &seg, meta.null_start, info->strategy);	/* bare TIDs: any view */
	stats->num_pages = RelationGetNumberOfBlocks(index);
	stats->num_index_tuples = (double) n;
	stats->estimated_count = false;
	return stats;
}
