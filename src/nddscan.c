/*-------------------------------------------------------------------------
 *
 * nddscan.c
 *	  Searching an ndd index: `fp <@ hamming_ball(q, r)` (strategy 1) and
 *	  `ORDER BY fp <~> q` (strategy 2, KNN).
 *
 * Where the candidates come from (the "source" of a pass):
 *  - PROBE: for each table, the buckets whose entries can hold a match. For r <= the layout
 *    radius that is the one key range of q's key in each table (pigeonhole: a match shares a full
 *    key with q in at least one table). For larger r every key prefix within
 *    e = ndd_layout_key_radius(r) bits of q's is probed (generalized pigeonhole).
 *  - FULL: every entry of table 0, when the probes would read more (every row is in every table).
 *  - NULLS: the NULL chain, for scans without a WHERE key (KNN returns NULL rows last).
 * Every candidate is checked against every ball by its full Hamming distance here, so the scan is
 * exact and needs no heap recheck; a row found in several tables is reported once.
 *
 * Results are keys (distance << 48 | heap block << 16 | offset): sorted, they give KNN order (and
 * heap order for plain searches). A pass keeps the smallest keys above the last one returned, at
 * most work_mem's worth; when a pass had to drop keys, another pass over the same source follows.
 * Memory stays bounded whatever the number of matches. KNN without a WHERE key first probes the
 * layout radius around q (the near duplicates, usually the whole answer), then passes over table 0
 * for everything further.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "lib/qunique.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* A fingerprint in every table's permuted form. */
typedef struct NddPoint
{
	uint64		perm[NDD_LAYOUT_MAX_TABLES][2];
} NddPoint;

typedef enum NddSourceKind
{
	SRC_PROBE,
	SRC_FULL,
	SRC_NULLS,
	SRC_DONE
} NddSourceKind;

/* A run of consecutive primary pages of one table. */
typedef struct NddRange
{
	uint32		first;
	uint32		last;
} NddRange;

typedef struct NddScanOpaqueData
{
	NddMetaPageData meta;		/* read at every rescan, and again when a pass finds the map
								 * changed under it */
	NddViews	views;			/* the maps of meta that hold heads (ndd_map_views) */
	MemoryContext cxt;			/* reset at every rescan */

	/* the WHERE keys */
	bool		empty;			/* a key can match nothing (NULL ball, negative radius) */
	int			nballs;
	int			driving;		/* the ball with the smallest radius picks the buckets */
	int		   *radius;
	NddPoint   *balls;

	/* the ORDER BY key */
	bool		ordered;
	bool		order_null;		/* ORDER BY fp <~> NULL: every distance is NULL */
	NddPoint   *order;

	/* the plan of the current source */
	bool		planned;
	NddSourceKind source;
	int			max_dist;		/* KNN first stage: only distances <= this; else -1 */
	bool		knn_probe_stage;	/* the source is one of KNN's probe stages */
	NddPoint   *center;			/* what the probes are centered on */
	int			probe_radius;
	double		plan_pages;		/* primary pages the current PROBE plan reads */
	double		probed_pages;	/* primary pages KNN's probe stages have read so far */
	double		full_pages;		/* primary pages of table 0 over every view: a full pass */
	NddRange ***ranges;			/* per view and table */
	int		  **nranges;
	bool	   *seg_full;		/* per view: PROBE reads its table 0 whole instead */

	/* the results of the current pass */
	uint64	   *items;
	int			nitems;
	int			nalloc;			/* items allocated: grows by doubling up to cap */
	int			cap;			/* items a pass keeps: grows for ordered scans up to cap_max */
	int			cap_max;		/* work_mem's worth of items */
	int			pos;
	bool		has_lower;
	uint64		lower;			/* keys <= lower were returned already */
	uint64		upper;			/* keys > upper were dropped in this pass */
	bool		truncated;		/* this pass dropped keys: pass again */
	NddSourceKind items_source;	/* where the items came from */

	IndexTuple	null_itup;		/* what an index-only scan reads: see ndd_gettuple */
} NddScanOpaqueData;

typedef NddScanOpaqueData *NddScanOpaque;

#define KEY_TID_MASK	UINT64CONST(0xFFFFFFFFFFFF)

/* Keys the first pass of an ordered scan keeps (it returns at least half of them). */
#define NDD_KNN_FIRST_CAP	128

static double full_pass_pages(const NddViews *views);

/* qsort/qunique comparator of uint64 keys. */
static int
cmp_key(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

static inline uint64
make_key(int dist, BlockNumber block, OffsetNumber offset)
{
	return ((uint64) dist << 48) | ((uint64) block << 16) | offset;
}

/* Permutes a fingerprint for every table. */
static void
make_point(const NddLayout *layout, const uint64 words[2], NddPoint *pt)
{
	int			t;

	for (t = 0; t < layout->ntables; t++)
		ndd_layout_permute(layout, t, words, pt->perm[t]);
}

/* ambeginscan */
IndexScanDesc
ndd_beginscan(Relation index, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(index, nkeys, norderbys);
	NddScanOpaque so = palloc0(sizeof(NddScanOpaqueData));

	/* the metapage is read at every rescan, which always comes before the first fetch */
	if (norderbys > 0)
	{
		/* the AM owns the arrays the executor reads the ORDER BY distances from */
		scan->xs_orderbyvals = palloc0(sizeof(Datum) * norderbys);
		scan->xs_orderbynulls = palloc(sizeof(bool) * norderbys);
	}
	so->cxt = AllocSetContextCreate(CurrentMemoryContext, "ndd scan", ALLOCSET_DEFAULT_SIZES);
	scan->opaque = so;
	/* the shape of the (all-NULL) tuples an index-only scan gets (ndd_gettuple) */
	scan->xs_itupdesc = RelationGetDescr(index);
	return scan;
}

/* amrescan: takes the new keys; the work happens at the first fetch. */
void
ndd_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys, ScanKey orderbys, int norderbys)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	int			bits;
	MemoryContext old;
	int			i;

	if (scankey && scan->numberOfKeys > 0)
		memmove(scan->keyData, scankey, scan->numberOfKeys * sizeof(ScanKeyData));
	if (orderbys && scan->numberOfOrderBys > 0)
		memmove(scan->orderByData, orderbys, scan->numberOfOrderBys * sizeof(ScanKeyData));

	MemoryContextReset(so->cxt);
	old = MemoryContextSwitchTo(so->cxt);

	ndd_meta_copy(&so->meta, ndd_get_meta(scan->indexRelation));
	bits = so->meta.layout.bits;
	ndd_map_views(&so->meta, &so->views);

	so->empty = false;
	so->nballs = 0;
	so->driving = -1;
	so->radius = palloc(sizeof(int) * Max(1, scan->numberOfKeys));
	so->balls = palloc(sizeof(NddPoint) * Max(1, scan->numberOfKeys));
	for (i = 0; i < scan->numberOfKeys; i++)
	{
		ScanKey		key = &scan->keyData[i];
		HammingBall *ball;
		int			r;

		if (key->sk_flags & SK_ISNULL)
		{
			so->empty = true;	/* the operator is strict */
			continue;
		}
		if (key->sk_strategy != NDD_STRATEGY_WITHIN)
			elog(ERROR, "ndd index: unsupported strategy %d", key->sk_strategy);
		ball = DatumGetHammingBallP(key->sk_argument);
		ndd_check_ball_width(ball, bits);
		r = ball->radius;
		if (r < 0)
			so->empty = true;
		so->radius[so->nballs] = Min(r, bits);
		make_point(&so->meta.layout, ball->words, &so->balls[so->nballs]);
		if (so->driving < 0 || so->radius[so->nballs] < so->radius[so->driving])
			so->driving = so->nballs;
		so->nballs++;
	}

	so->ordered = scan->numberOfOrderBys > 0;
	so->order_null = false;
	so->order = NULL;
	if (so->ordered)
	{
		ScanKey		key = &scan->orderByData[0];

		if (key->sk_flags & SK_ISNULL)
			so->order_null = true;
		else
		{
			uint64		words[2];

			if (key->sk_strategy != NDD_STRATEGY_DISTANCE)
				elog(ERROR, "ndd index: unsupported ordering strategy %d", key->sk_strategy);
			ndd_fingerprint_words(key->sk_argument, bits, words);
			so->order = palloc(sizeof(NddPoint));
			make_point(&so->meta.layout, words, so->order);
		}
	}

	so->planned = false;
	so->items = NULL;
	so->nalloc = 0;
	so->nitems = so->pos = 0;
	so->cap_max = (int) Min((int64) work_mem * 1024L / sizeof(uint64), (int64) (MaxAllocSize / sizeof(uint64)));
	so->cap_max = Max(so->cap_max, 1024);

	/*
	 * An ordered scan is usually read for its first few rows (LIMIT n), which the executor does
	 * not tell an index AM: its first pass keeps only the NDD_KNN_FIRST_CAP smallest keys (a
	 * bounded top-n), and every pass that had to drop keys is followed by one keeping eight times
	 * more, so returning every row costs O(log rows) passes while LIMIT 10 costs one.
	 */
	so->cap = so->ordered ? Min(NDD_KNN_FIRST_CAP, so->cap_max) : so->cap_max;
	so->probed_pages = 0;
	so->full_pages = full_pass_pages(&so->views);
	so->has_lower = false;
	so->lower = 0;
	MemoryContextSwitchTo(old);
}

/* Primary pages of table 0 a full pass reads: those of every view. */
static double
full_pass_pages(const NddViews *views)
{
	double		pages = 0;
	int			i;

	for (i = 0; i < views->n; i++)
		pages += ndd_view_pages(&views->v[i]);
	return pages;
}

/*
 * The page ranges of table t of view s to probe for keys within e bits of center's key (false:
 * too many).
 */
static bool
plan_table_ranges(NddScanOpaque so, int s, int t, const uint64 head, int e, uint64 limit)
{
	const NddMapView *mv = &so->views.v[s];
	int			kb = Min(64, (int) so->meta.layout.key_bits[t]);
	int			w;
	uint64		nprefix;
	uint64	   *prefixes;
	size_t		n = 0;
	size_t		i;
	NddRange   *ranges;
	int			nr = 0;

	if (e == 0)
		w = kb;
	else
		w = Min(kb, ndd_bits_for(mv->npages) + 1);
	nprefix = ndd_ball_volume(w, e);
	if (nprefix > limit)
		return false;
	prefixes = palloc(sizeof(uint64) * nprefix);
	ndd_raise_status(ndd_prefix_ball(w == 64 ? head : head >> (64 - w), w, e, prefixes, nprefix, &n),
					 "the probes of an ndd scan");
	ranges = palloc(sizeof(NddRange) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		uint64		lo = w == 64 ? prefixes[i] : prefixes[i] << (64 - w);
		uint64		hi = w == 64 ? prefixes[i] : lo | ndd_mask(64 - w);
		uint32		first;
		uint32		last;

		/* only the heads this view holds */
		lo = Max(lo, mv->lo);
		hi = Min(hi, mv->hi);
		if (lo > hi)
			continue;
		first = ndd_page_of(lo, mv->npages);
		last = ndd_page_of(hi, mv->npages);

		/* prefixes come in increasing order, so ranges do too: merge touching ones */
		if (nr > 0 && first <= ranges[nr - 1].last + 1)
			ranges[nr - 1].last = Max(ranges[nr - 1].last, last);
		else
		{
			ranges[nr].first = first;
			ranges[nr].last = last;
			nr++;
		}
	}
	pfree(prefixes);
	so->ranges[s][t] = ranges;
	so->nranges[s][t] = nr;
	return true;
}

/*
 * Chooses PROBE around center with radius r, or FULL when probing would read more. Under PROBE,
 * each view is probed, or read whole (its table 0) where that is cheaper.
 */
static void
plan_source(NddScanOpaque so, NddPoint *center, int r)
{
	const NddMetaPageData *meta = &so->meta;
	int			ntables = meta->layout.ntables;
	int			e;
	int			s;
	bool		any_probe = false;
	MemoryContext old;

	so->source = SRC_FULL;
	so->center = center;
	so->probe_radius = r;
	so->plan_pages = 0;
	if (r >= meta->layout.bits)
		return;
	/* in the scan's context, reset by every rescan: an inner scan of a join plans once per outer row */
	old = MemoryContextSwitchTo(so->cxt);
	e = ndd_layout_key_radius(&meta->layout, r);
	so->ranges = palloc0(sizeof(NddRange **) * so->views.n);
	so->nranges = palloc0(sizeof(int *) * so->views.n);
	so->seg_full = palloc0(sizeof(bool) * so->views.n);
	for (s = 0; s < so->views.n; s++)
	{
		uint32		npages = ndd_view_pages(&so->views.v[s]);
		uint64		pages = 0;
		int			t;

		so->ranges[s] = palloc0(sizeof(NddRange *) * ntables);
		so->nranges[s] = palloc0(sizeof(int) * ntables);
		for (t = 0; t < ntables && !so->seg_full[s]; t++)
		{
			int			i;

			if (!plan_table_ranges(so, s, t, center->perm[t][0], e, npages))
				so->seg_full[s] = true;
			else
			{
				for (i = 0; i < so->nranges[s][t]; i++)
					pages += so->ranges[s][t][i].last - so->ranges[s][t][i].first + 1;
				if (pages >= npages && e > 0)
					so->seg_full[s] = true;	/* one whole table is cheaper */
			}
			if (so->seg_full[s])
				pages = npages;
		}
		any_probe |= !so->seg_full[s];
		so->plan_pages += so->seg_full[s] ? npages : (double) pages;
	}
	if (any_probe)
		so->source = SRC_PROBE;
	MemoryContextSwitchTo(old);
}

/* Adds a key to the pass's results, keeping only the smallest cap of those above lower. */
static inline void
collect(NddScanOpaque so, uint64 key)
{
	if ((so->has_lower && key <= so->lower) || key > so->upper)
		return;
	so->items[so->nitems++] = key;
	if (so->nitems < so->nalloc)
		return;
	if (so->nalloc < so->cap)
	{
		/*
		 * Grow instead of allocating work_mem up front: a radius query usually collects a handful
		 * of keys, and a multi-megabyte allocation per scan (malloc, page faults, free) would cost
		 * more than the search itself.
		 */
		so->nalloc = (int) Min((int64) so->nalloc * 2, (int64) so->cap);
		so->items = repalloc_huge(so->items, sizeof(uint64) * (Size) so->nalloc);
	}
	else
	{
		/* keep the smaller half and drop everything above it from now on */
		int			keep = so->cap / 2;

		pg_qsort(so->items, so->nitems, sizeof(uint64), cmp_key);
		so->nitems = (int) qunique(so->items, so->nitems, sizeof(uint64), cmp_key);
		if (so->nitems > keep)
		{
			so->nitems = keep;
			so->upper = so->items[keep - 1];
			so->truncated = true;
		}
	}
}

/*
 * Checks the entries of one chain (the bucket of view mv's table t starting at primary page p,
 * or the NULL chain when t < 0) and reports each qualifying one to the TID bitmap or the
 * collector. Returns the number reported; sets *gone when the primary page is not of mv's map
 * (NddChain.gone), reporting nothing.
 */
static int64
scan_chain(IndexScanDesc scan, const NddMapView *mv, int t, uint32 p, TIDBitmap *tbm, int *gone)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	BlockNumber blkno = t < 0 ? mv->meta->null_start : ndd_primary_block(mv, t, p);
	uint64		low = t < 0 ? 0 : ndd_page_low(p, mv->npages);
	NddChain	chain;
	Page		page;
	int64		found = 0;
	const uint64 *ord = (so->order && t >= 0) ? so->order->perm[t] : NULL;

	page = ndd_chain_begin(&chain, index, mv, blkno, BUFFER_LOCK_SHARE, NULL);
	*gone = chain.gone;
	if (page == NULL)
		return 0;
	for (; page != NULL; page = ndd_chain_next(&chain))
	{
		const NddFormat f = chain.f;
		int			n;
		int			i;
		const char *ptr;

		/*
		 * The hot loop of every scan (a KNN pass reads every entry of a table): the fingerprint
		 * is tested first, straight from the entry's bits, and the TID is decoded only for the
		 * few entries that pass. Entries further than the pass's current top-n bound (keys above
		 * upper are dropped anyway) are skipped before building a key.
		 */
		bool		wide = f.wide;

		n = ndd_page_nentries(page, &f);
		ptr = (const char *) page + MAXALIGN(SizeOfPageHeaderData);
		for (i = 0; i < n; i++, ptr += f.entry_bytes)
		{
			unsigned __int128 v = ndd_entry_bits(ptr);
			BlockNumber block;
			OffsetNumber offset;
			int			b;
			int			dist = 0;
			bool		ok = true;

			if (t >= 0)
			{
				uint64		head = ndd_entry_head(v, &f, low);
				uint64		tail = ndd_entry_tail(ptr, &f);

				for (b = 0; b < so->nballs; b++)
				{
					const uint64 *c = so->balls[b].perm[t];

					if (ndd_popcount64(head ^ c[0]) + (wide ? ndd_popcount64(tail ^ c[1]) : 0) >
						so->radius[b])
					{
						ok = false;
						break;
					}
				}
				if (!ok)
					continue;
				if (ord)
				{
					dist = ndd_popcount64(head ^ ord[0]) + (wide ? ndd_popcount64(tail ^ ord[1]) : 0);
					if ((so->max_dist >= 0 && dist > so->max_dist) ||
						(tbm == NULL && (uint64) dist > (so->upper >> 48)))
						continue;
				}
			}
			ndd_entry_tid(v, &f, &block, &offset);
			/* a match is handed to the executor: its TID must be one a heap page can hold */
			if (offset == InvalidOffsetNumber || offset > MaxHeapTuplesPerPage)
				ndd_corrupt(index, "an entry has an invalid heap TID", BufferGetBlockNumber(chain.cur));
			found++;
			if (tbm)
			{
				ItemPointerData tid;

				ItemPointerSet(&tid, block, offset);
				tbm_add_tuples(tbm, &tid, 1, false);
			}
			else
				collect(so, make_key(dist, block, offset));
		}
	}
	ndd_chain_end(&chain);
	return found;
}

/*
 * Scans the bucket of view mv's table t at page p (t < 0: the NULL chain). When a migration has
 * moved that page since the metapage was read, its heads are read in the current map's pages
 * (README.index.md, "Growth"): a row may then be seen twice, which the keys' deduplication and the
 * TID bitmap absorb. Returns false when the map changed in another way: the pass must start over
 * with the metapage read again (ndd_stale_or_corrupt has told that from damage).
 */
static bool
scan_bucket(IndexScanDesc scan, const NddMapView *mv, int t, uint32 p, TIDBitmap *tbm,
			int64 *found)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	int			gone;

	CHECK_FOR_INTERRUPTS();
	*found += scan_chain(scan, mv, t, p, tbm, &gone);
	if (gone == NDD_GONE_MOVED)
	{
		NddMapView	cur;
		uint64		lo;
		uint64		hi;
		uint32		q0;
		uint32		q1;
		uint32		q;

		ndd_map_view(&so->meta, false, &cur);
		ndd_moved_pages(&so->meta, p, &lo, &hi, &q0, &q1);
		for (q = q0; q <= q1; q++)
		{
			*found += scan_chain(scan, &cur, t, q, tbm, &gone);
			if (gone != NDD_GONE_NONE)
			{
				ndd_stale_or_corrupt(scan->indexRelation, &so->meta, ndd_primary_block(&cur, t, q));
				return false;
			}
		}
	}
	else if (gone != NDD_GONE_NONE)
	{
		ndd_stale_or_corrupt(scan->indexRelation, &so->meta, ndd_primary_block(mv, t, p));
		return false;
	}
	return true;
}

/* Reads table 0 of view mv whole. */
static bool
scan_table0(IndexScanDesc scan, const NddMapView *mv, TIDBitmap *tbm, int64 *found)
{
	uint32		p;

	for (p = mv->first_page; p <= mv->last_page; p++)
		if (!scan_bucket(scan, mv, 0, p, tbm, found))
			return false;
	return true;
}

/*
 * One pass over the current source, in every view. Returns false when the map changed under it
 * (a later expansion, or a migration past a page the pass expected in the previous map): the
 * caller reads the metapage again and repeats the pass.
 */
static bool
run_source(IndexScanDesc scan, TIDBitmap *tbm, int64 *found)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	int			s;
	int			t;
	uint32		p;

	if (so->source == SRC_NULLS)
	{
		/* one NULL chain for the whole index */
		return scan_bucket(scan, &so->views.v[0], -1, 0, tbm, found);
	}
	for (s = 0; s < so->views.n; s++)
	{
		const NddMapView *mv = &so->views.v[s];

		switch (so->source)
		{
			case SRC_PROBE:
				if (so->seg_full[s])
				{
					if (!scan_table0(scan, mv, tbm, found))
						return false;
					break;
				}
				for (t = 0; t < so->meta.layout.ntables; t++)
				{
					int			i;

					for (i = 0; i < so->nranges[s][t]; i++)
						for (p = so->ranges[s][t][i].first; p <= so->ranges[s][t][i].last; p++)
							if (!scan_bucket(scan, mv, t, p, tbm, found))
								return false;
				}
				break;
			case SRC_FULL:
				if (!scan_table0(scan, mv, tbm, found))
					return false;
				break;
			case SRC_NULLS:
			case SRC_DONE:
				break;
		}
	}
	return true;
}

/*
 * The map changed under a pass: reads the metapage again and plans the current source anew over
 * its views (a PROBE source may become a FULL one). The pass then starts over.
 */
static void
reread_map(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	MemoryContext old = MemoryContextSwitchTo(so->cxt);

	ndd_meta_copy(&so->meta, ndd_get_meta(scan->indexRelation));
	ndd_map_views(&so->meta, &so->views);
	so->full_pages = full_pass_pages(&so->views);
	if (so->source == SRC_PROBE)
		plan_source(so, so->center, so->probe_radius);
	MemoryContextSwitchTo(old);
}

/*
 * Plans KNN's probe stage of radius r (README.index.md, "Scans"): the rows at distances up to r
 * above those already returned, from the probes of radius r, as long as the probe stages so far
 * and this one read fewer pages than one pass over table 0; else that pass, for every distance
 * left. The stages widen the key radius one bit at a time, so their costs grow geometrically and
 * the whole costs at most about twice the cheaper of the probes that find the answer and the pass.
 */
static void
plan_knn_stage(NddScanOpaque so, int r)
{
	so->knn_probe_stage = false;
	so->max_dist = -1;
	if (r < so->meta.layout.bits)
	{
		plan_source(so, so->order, r);
		if (so->source == SRC_PROBE && so->probed_pages + so->plan_pages < so->full_pages)
		{
			so->knn_probe_stage = true;
			so->max_dist = r;
			so->probed_pages += so->plan_pages;
			return;
		}
	}
	so->source = SRC_FULL;
}

/* The widest radius whose probes use a key radius one more than radius r's. */
static int
next_stage_radius(const NddLayout *layout, int r)
{
	int			e = ndd_layout_key_radius(layout, r);

	r++;
	while (r < layout->bits && ndd_layout_key_radius(layout, r + 1) <= e + 1)
		r++;
	return r;
}

/* Sets up the first source of a scan. */
static void
plan_first_source(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;

	so->planned = true;
	/* pg_stat_user_indexes.idx_scan: one per scan (or rescan) that reads the index */
	ndd_count_index_search(scan);
	so->max_dist = -1;
	so->knn_probe_stage = false;
	if (so->empty)
		so->source = SRC_DONE;
	else if (so->nballs > 0)
		plan_source(so, &so->balls[so->driving], so->radius[so->driving]);
	else if (so->order)
	{
		/* KNN: the near duplicates first, from the probes of the layout radius */
		plan_knn_stage(so, so->meta.layout.radius);
	}
	else
		so->source = SRC_FULL;
}

/* Moves to the source after the current one has been exhausted. */
static void
next_source(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;

	if (so->knn_probe_stage)
	{
		/* every row within probe_radius has been returned: widen */
		so->has_lower = true;
		so->lower = make_key(so->probe_radius, 0, 0) | KEY_TID_MASK;
		plan_knn_stage(so, next_stage_radius(&so->meta.layout, so->probe_radius));
		return;
	}
	if (so->source != SRC_NULLS && scan->numberOfKeys == 0)
	{
		/* a scan without WHERE keys returns every row: the NULL rows come last */
		so->source = SRC_NULLS;
		so->has_lower = false;
		return;
	}
	so->source = SRC_DONE;
}

/* Fills so->items with the next batch of results; false when the scan is over. */
static bool
next_batch(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;

	if (!so->planned)
		plan_first_source(scan);
	while (so->source != SRC_DONE)
	{
		NddSourceKind was = so->source;

		if (so->items == NULL)
		{
			so->nalloc = Min(so->cap, 256);
			so->items = MemoryContextAllocHuge(so->cxt, sizeof(uint64) * (Size) so->nalloc);
		}
		for (;;)
		{
			int64		found = 0;

			so->nitems = 0;
			so->pos = 0;
			so->upper = PG_UINT64_MAX;
			so->truncated = false;
			if (run_source(scan, NULL, &found))
				break;
			reread_map(scan);
		}
		pg_qsort(so->items, so->nitems, sizeof(uint64), cmp_key);
		so->nitems = (int) qunique(so->items, so->nitems, sizeof(uint64), cmp_key);
		if (so->truncated)
		{
			/* the next pass over this source resumes after the last key returned, keeping more */
			so->has_lower = true;
			so->lower = so->items[so->nitems - 1];
			so->cap = (int) Min((int64) so->cap * 8, (int64) so->cap_max);
		}
		else
			next_source(scan);
		so->items_source = was;
		if (so->nitems > 0)
			return true;
	}
	return false;
}

/* amgettuple: the next matching row, in distance order for KNN scans. */
bool
ndd_gettuple(IndexScanDesc scan, ScanDirection dir)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	uint64		key;
	int			i;

	if (dir != ForwardScanDirection)
		elog(ERROR, "ndd indexes support only forward scans");

	if (so->pos >= so->nitems && !next_batch(scan))
		return false;
	key = so->items[so->pos++];
	ItemPointerSet(&scan->xs_heaptid, (BlockNumber) ((key >> 16) & 0xFFFFFFFF),
				   (OffsetNumber) (key & 0xFFFF));
	scan->xs_recheck = false;	/* every entry was checked by its full distance */
	if (scan->xs_want_itup)
	{
		/*
		 * An index-only scan that needs no column (SELECT count(*) FROM t): PostgreSQL plans one
		 * for any index with amgettuple, amcanreturn or not, and needs some index tuple per row.
		 * No column of it is read (ndd cannot return any), so an all-NULL tuple serves.
		 */
		if (so->null_itup == NULL)
		{
			Datum		value = (Datum) 0;
			bool		isnull = true;
			MemoryContext old = MemoryContextSwitchTo(GetMemoryChunkContext(so));

			so->null_itup = index_form_tuple(scan->xs_itupdesc, &value, &isnull);
			MemoryContextSwitchTo(old);
		}
		scan->xs_itup = so->null_itup;
	}
	if (scan->numberOfOrderBys > 0)
	{
		bool		null = so->order_null || so->items_source == SRC_NULLS;

		scan->xs_orderbyvals[0] = HammingDistanceGetDatum(null ? 0 : (int32) (key >> 48));
		scan->xs_orderbynulls[0] = null;
		/*
		 * Further ORDER BY distances (ORDER BY fp <~> a, fp <~> b) are not computed: report 0, a
		 * lower bound, and let the executor recheck and reorder ties of the first.
		 */
		for (i = 1; i < scan->numberOfOrderBys; i++)
		{
			scan->xs_orderbyvals[i] = HammingDistanceGetDatum(0);
			scan->xs_orderbynulls[i] = false;
		}
		scan->xs_recheckorderby = scan->numberOfOrderBys > 1;
	}
	return true;
}

/* amgetbitmap: every matching row into the bitmap. */
int64
ndd_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	int64		found = 0;

	plan_first_source(scan);
	while (so->source != SRC_DONE)
	{
		/* a pass over again only adds TIDs the bitmap has */
		while (!run_source(scan, tbm, &found))
			reread_map(scan);
		/* no ordering in a bitmap: the KNN stages collapse into one full pass */
		if (so->knn_probe_stage)
		{
			so->knn_probe_stage = false;
			so->max_dist = -1;
			so->source = SRC_FULL;
			continue;
		}
		if (so->source != SRC_NULLS && scan->numberOfKeys == 0)
			so->source = SRC_NULLS;
		else
			so->source = SRC_DONE;
	}
	return found;
}

/* amendscan */
void
ndd_endscan(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;

	MemoryContextDelete(so->cxt);
	pfree(so);
	scan->opaque = NULL;
}
