/*-------------------------------------------------------------------------
 *
 * nddvacuum.c
 *	  VACUUM of an ndd index: removing the entries of dead heap rows from every table and the
 *	  NULL chain, compacting each page in place.
 *
 * VACUUM never moves entries between pages, and emptied overflow pages stay in their chain
 * (VACUUM points the chain's insert_at at the first page with room, where inserts refill it).
 * It holds the growth lock (nddgrow.c), so no expansion or migration changes the map under it:
 * every bucket of the map it read is walked once. It sleeps (vacuum_delay_point) only between
 * chains, holding no page lock, and reads through the vacuum's buffer access strategy.
 * Statistics count table 0 and the NULL chain: one entry per indexed heap row.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

/* What VACUUM's callback says is dead, for ndd_chain_remove. */
typedef struct DeadTids
{
	IndexBulkDeleteCallback callback;
	void	   *state;
} DeadTids;

static bool
tid_is_dead(const char *entry, const NddFormat *f, uint64 low, void *arg)
{
	const DeadTids *d = (const DeadTids *) arg;
	ItemPointerData tid;
	BlockNumber block;
	OffsetNumber offset;

	ndd_entry_tid(ndd_entry_bits(entry), f, &block, &offset);
	ItemPointerSet(&tid, block, offset);
	return d->callback(&tid, d->state);
}

/*
 * Removes dead entries from the chain of map view mv starting at primary. Returns the entries
 * kept and adds the removed ones to *removed.
 */
static int64
vacuum_chain(Relation index, const NddMapView *mv, BlockNumber primary,
			 IndexBulkDeleteCallback callback, void *callback_state, int64 *removed,
			 BufferAccessStrategy strategy)
{
	NddChain	chain;
	Page		page;
	int64		kept = 0;
	BlockNumber room = InvalidBlockNumber;	/* the chain's first page with room */
	BlockNumber last = primary;
	DeadTids	dead = {callback, callback_state};

	/*
	 * The primary's exclusive lock is the bucket lock: no reader is inside the chain. No
	 * vacuum_delay_point during the walk: it would sleep holding that lock.
	 */
	page = ndd_chain_begin(&chain, index, mv, primary, BUFFER_LOCK_EXCLUSIVE, strategy);
	if (page == NULL)
		ndd_corrupt(index, "a primary page belongs to another map than the metapage says", primary);
	for (; page != NULL; page = ndd_chain_next(&chain))
	{
		const NddFormat f = chain.f;
		int			n = ndd_page_nentries(page, &f);
		int			gone = ndd_chain_remove(index, &chain, 0, tid_is_dead, &dead);

		*removed += gone;
		kept += n - gone;
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

/*
 * The buckets of table t of the index whose metapage copy (read under the growth lock) is meta:
 * fills views with the maps that hold its heads.
 */
static void
table_views(Relation index, const NddMetaPageData *meta, int t, NddMetaPageData *settled,
			NddViews *views)
{
	ndd_settle_table(index, meta, t, settled);
	ndd_map_views(settled, views);
}

/* ambulkdelete: removes the entries of the heap rows the callback names. */
IndexBulkDeleteResult *
ndd_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			   IndexBulkDeleteCallback callback, void *callback_state)
{
	Relation	index = info->index;
	NddMetaPageData meta;
	NddMetaPageData settled;
	NddViews	views;
	int64		kept = 0;
	int64		removed = 0;
	int			t;
	int			v;
	uint32		p;

	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));

	/*
	 * Under the growth lock the map stays as read. A later expansion can only come after this
	 * VACUUM, and rows inserted meanwhile are not among the dead ones the heap scan found.
	 */
	ndd_growth_lock(index, ExclusiveLock, true);
	meta = *ndd_get_meta(index);
	for (t = 0; t < meta.layout.ntables; t++)
	{
		table_views(index, &meta, t, &settled, &views);
		for (v = 0; v < views.n; v++)
		{
			const NddMapView *mv = &views.v[v];

			for (p = mv->first_page; p <= mv->last_page; p++)
			{
				int64		r = 0;
				int64		k;

				ndd_vacuum_delay_point();
				k = vacuum_chain(index, mv, ndd_primary_block(mv, t, p), callback, callback_state, &r,
								 info->strategy);
				if (t == 0)
				{
					kept += k;
					removed += r;
				}
			}
		}
	}
	/* NULL-chain entries are bare TIDs: any view reads them */
	kept += vacuum_chain(index, &views.v[0], meta.null_start, callback, callback_state, &removed,
						 info->strategy);
	ndd_growth_unlock(index, ExclusiveLock);

	stats->num_pages = RelationGetNumberOfBlocks(index);
	stats->num_index_tuples = (double) kept;
	stats->tuples_removed += (double) removed;
	stats->estimated_count = false;
	return stats;
}

/* Counts the entries of a chain of map view mv without changing it. */
static int64
count_chain(Relation index, const NddMapView *mv, BlockNumber primary,
			BufferAccessStrategy strategy)
{
	NddChain	chain;
	Page		page;
	int64		n = 0;

	page = ndd_chain_begin(&chain, index, mv, primary, BUFFER_LOCK_SHARE, strategy);
	if (page == NULL)
		ndd_corrupt(index, "a primary page belongs to another map than the metapage says", primary);
	for (; page != NULL; page = ndd_chain_next(&chain))
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
	NddMetaPageData settled;
	NddViews	views;
	int64		n = 0;
	int			v;
	uint32		p;

	if (info->analyze_only)
		return stats;
	if (stats != NULL)
		return stats;

	stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	ndd_growth_lock(index, ExclusiveLock, true);
	meta = *ndd_get_meta(index);
	table_views(index, &meta, 0, &settled, &views);
	for (v = 0; v < views.n; v++)
	{
		const NddMapView *mv = &views.v[v];

		for (p = mv->first_page; p <= mv->last_page; p++)
		{
			ndd_vacuum_delay_point();
			n += count_chain(index, mv, ndd_primary_block(mv, 0, p), info->strategy);
		}
	}
	n += count_chain(index, &views.v[0], meta.null_start, info->strategy);	/* bare TIDs: any view */
	ndd_growth_unlock(index, ExclusiveLock);
	stats->num_pages = RelationGetNumberOfBlocks(index);
	stats->num_index_tuples = (double) n;
	stats->estimated_count = false;
	return stats;
}
