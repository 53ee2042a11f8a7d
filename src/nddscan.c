/*-------------------------------------------------------------------------
 *
 * nddscan.c
 *	  Searching an ndd index: `fp <@ hamming_ball(q, r)` (strategy 1) and
 *	  `ORDER BY fp <~> q` (strategy 2, KNN).
 *
 * Where the candidates come from (the "source" of a pass):
 *  - PROBE: for each table t, the buckets whose entries can hold a match: every key prefix within
 *    e[t] bits of q's, where the e[t] are multi-index hashing's split of r over the tables
 *    (ndd_layout_radius_split: for r <= the layout radius, q's own key in each table, the
 *    pigeonhole; above it, e.g. (4, 3, 3, 3) for r = 16 on four tables, the tables that get the
 *    larger radius chosen by the pages they would read).
 *  - KNN: for ORDER BY without a WHERE key, probes that grow one table's radius by one at a time,
 *    the table whose next shell of keys reads the fewest new pages; after each step every row
 *    within the proven radius (ndd_layout_proven_radius) has been read and is returned.
 *  - FULL: every entry of table 0, when the probes would read more (every row is in every table).
 *  - NULLS: the NULL chain, for scans without a WHERE key (KNN returns NULL rows last).
 * Every candidate is checked against every ball by its full Hamming distance here, so the scan is
 * exact and needs no heap recheck; a row found in several tables is reported once.
 *
 * Results are keys (distance << 48 | heap block << 16 | offset): sorted, they give KNN order (and
 * heap order for plain searches). A pass keeps the smallest keys above the last one returned, at
 * most work_mem's worth; when a pass had to drop keys, another pass over the same source follows.
 * Memory stays bounded whatever the number of matches. KNN without a WHERE key widens its probes
 * while they read fewer pages than one pass over table 0, then passes over table 0 for everything
 * further.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include <math.h>

#include "lib/qunique.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/float.h"
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
	SRC_KNN,
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

/*
 * A run of heads [lo, hi] a probe needs (the heads of one or more of its key prefixes): on a
 * page's sorted prefix the scan checks only the entries of these (README.index.md, "Sorted pages").
 */
typedef struct NddSpan
{
	uint64		lo;
	uint64		hi;
} NddSpan;

/* The head runs a probe of one table needs, in increasing order; NULL: every entry of a page. */
typedef struct NddSpans
{
	const NddSpan *v;
	int			n;
} NddSpans;

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
	NddPoint   *center;			/* what the probes are centered on */
	int			probe_radius;
	double		plan_pages;		/* primary pages the current PROBE plan reads */
	double		probed_pages;	/* primary pages KNN's probes have read so far */
	double		full_pages;		/* primary pages of table 0 over every view: a full pass */
	NddRange ***ranges;			/* per view and table */
	int		  **nranges;
	NddSpans  **spans;			/* per view and table: the head runs of those pages it needs */

	/* KNN's probes (SRC_KNN): one table's radius grows by one at each step */
	int			knn_e[NDD_LAYOUT_MAX_TABLES];	/* the probe radius of each table, -1: none */
	int			knn_proven;		/* every row within this distance has been read */
	int64		knn_returned;	/* rows the probes have returned */
	uint64	  **knn_read;		/* per view * ntables + table: bitmap of the primary pages read */
	bool		knn_step_valid[NDD_LAYOUT_MAX_TABLES];	/* knn_step_* below is that table's */
	double		knn_step_cost[NDD_LAYOUT_MAX_TABLES];	/* new pages of its next step */
	uint32	  **knn_step_pages;	/* per view * ntables + table: the pages of its next step */
	int		   *knn_step_n;

	/* the results of the current pass */
	uint64	   *items;
	int			nitems;
	int			nready;			/* items[0..nready) are returned; KNN's probes keep the rest */
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

	/* what the scan read, reported at DEBUG2 when it ends (bench/index_sorted.sh counts it) */
	int64		pages_read;
	int64		entries_checked;	/* entries whose distance was computed */
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
	so->nitems = so->nready = so->pos = 0;
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

/* The width of the key prefixes a probe of view mv's table t enumerates for radius e > 0. */
static int
probe_width(const NddScanOpaque so, const NddMapView *mv, int t)
{
	/*
	 * The page map resolves about log2(npages) bits of a head. Longer prefixes than that still
	 * pay: a short prefix within e bits of q's stands for all its extensions, most of them further
	 * than e, and their pages are read for nothing (at 10M rows, whole 16-bit keys read 10 % fewer
	 * pages than prefixes one bit past the page map). Three bits past it is the whole key of the
	 * default layouts at any size up to billions of rows, while keys of several blocks (26 bits
	 * and more) stay bounded in what a probe enumerates.
	 */
	return Min(Min(64, (int) so->meta.layout.key_bits[t]), ndd_bits_for(mv->npages) + 3);
}

/*
 * The page ranges of view mv holding the heads whose first w bits are one of prefixes[0..n)
 * (in increasing order), touching ranges merged. Returns their number; *pages, the pages they
 * hold. With spans (room for n), also the runs of heads themselves, touching runs merged.
 */
static int
prefix_ranges(const NddMapView *mv, const uint64 *prefixes, size_t n, int w, NddRange *ranges,
			  uint64 *pages, NddSpan *spans, int *nspans)
{
	int			nr = 0;
	size_t		i;

	*pages = 0;
	if (spans)
		*nspans = 0;
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
		if (spans)
		{
			if (*nspans > 0 && spans[*nspans - 1].hi != PG_UINT64_MAX &&
				lo <= spans[*nspans - 1].hi + 1)
				spans[*nspans - 1].hi = Max(spans[*nspans - 1].hi, hi);
			else
			{
				spans[*nspans].lo = lo;
				spans[*nspans].hi = hi;
				(*nspans)++;
			}
		}

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
	for (i = 0; i < (size_t) nr; i++)
		*pages += ranges[i].last - ranges[i].first + 1;
	return nr;
}

/*
 * The page ranges of view s's table t to probe for keys within e bits of head's (e >= 0), into
 * *ranges / *nranges, and the pages they hold into *pages; false when that takes more than limit
 * prefixes.
 */
static bool
plan_table_ranges(NddScanOpaque so, int s, int t, const uint64 head, int e, uint64 limit,
				  NddRange **ranges, int *nranges, NddSpans *spans, uint64 *pages)
{
	const NddMapView *mv = &so->views.v[s];
	int			w = e == 0 ? Min(64, (int) so->meta.layout.key_bits[t]) : probe_width(so, mv, t);
	uint64		nprefix;
	uint64	   *prefixes;
	NddSpan    *sv;
	size_t		n = 0;

	nprefix = ndd_ball_volume(w, e);
	if (nprefix > limit)
		return false;
	prefixes = palloc(sizeof(uint64) * nprefix);
	ndd_raise_status(ndd_prefix_ball(w == 64 ? head : head >> (64 - w), w, e, prefixes, nprefix, &n),
					 "the probes of an ndd scan");
	*ranges = palloc(sizeof(NddRange) * Max(n, 1));
	sv = palloc(sizeof(NddSpan) * Max(n, 1));
	*nranges = prefix_ranges(mv, prefixes, n, w, *ranges, pages, sv, &spans->n);
	spans->v = sv;
	pfree(prefixes);
	return true;
}

/*
 * Chooses PROBE around center with radius r, or FULL when probing would read more. Multi-index
 * hashing's split (ndd_layout_radius_split) gives every table the probe radius lo and `extra` of
 * them lo + 1: those whose larger probe adds the fewest pages, over every view. The radii are the
 * same in every view, since a row's entries lie in different views in different tables.
 */
static void
plan_source(NddScanOpaque so, NddPoint *center, int r)
{
	const NddMetaPageData *meta = &so->meta;
	int			ntables = meta->layout.ntables;
	int			lo;
	int			extra;
	int			s;
	int			t;
	int			i;
	bool		feasible = true;
	double		cost_lo[NDD_LAYOUT_MAX_TABLES];
	double		cost_hi[NDD_LAYOUT_MAX_TABLES];
	bool		wide[NDD_LAYOUT_MAX_TABLES];
	int			maxe;
	NddRange ***ranges_hi;
	int		  **nranges_hi;
	NddSpans  **spans_hi;
	MemoryContext old;

	so->source = SRC_FULL;
	so->center = center;
	so->probe_radius = r;
	so->plan_pages = 0;
	if (r >= meta->layout.bits)
		return;
	/* in the scan's context, reset by every rescan: an inner scan of a join plans once per outer row */
	old = MemoryContextSwitchTo(so->cxt);
	ndd_layout_radius_split(&meta->layout, r, &lo, &extra);
	so->ranges = palloc0(sizeof(NddRange **) * so->views.n);
	so->nranges = palloc0(sizeof(int *) * so->views.n);
	so->spans = palloc0(sizeof(NddSpans *) * so->views.n);
	ranges_hi = palloc0(sizeof(NddRange **) * so->views.n);
	nranges_hi = palloc0(sizeof(int *) * so->views.n);
	spans_hi = palloc0(sizeof(NddSpans *) * so->views.n);
	memset(cost_lo, 0, sizeof(cost_lo));
	memset(cost_hi, 0, sizeof(cost_hi));
	for (s = 0; s < so->views.n && feasible; s++)
	{
		uint64		limit = ndd_view_pages(&so->views.v[s]);

		so->ranges[s] = palloc0(sizeof(NddRange *) * ntables);
		so->nranges[s] = palloc0(sizeof(int) * ntables);
		so->spans[s] = palloc0(sizeof(NddSpans) * ntables);
		ranges_hi[s] = palloc0(sizeof(NddRange *) * ntables);
		nranges_hi[s] = palloc0(sizeof(int) * ntables);
		spans_hi[s] = palloc0(sizeof(NddSpans) * ntables);
		for (t = 0; t < ntables && feasible; t++)
		{
			uint64		pages = 0;

			if (lo >= 0 &&
				!plan_table_ranges(so, s, t, center->perm[t][0], lo, limit,
								   &so->ranges[s][t], &so->nranges[s][t], &so->spans[s][t], &pages))
				feasible = false;
			cost_lo[t] += pages;
			pages = 0;
			if (extra > 0 && feasible &&
				!plan_table_ranges(so, s, t, center->perm[t][0], lo + 1, limit,
								   &ranges_hi[s][t], &nranges_hi[s][t], &spans_hi[s][t], &pages))
				feasible = false;
			cost_hi[t] += pages;
		}
	}
	if (!feasible)
	{
		MemoryContextSwitchTo(old);
		return;
	}
	/* the extra tables: the smallest growth first (selection: ntables is small) */
	memset(wide, 0, sizeof(wide));
	for (i = 0; i < extra; i++)
	{
		int			best = -1;

		for (t = 0; t < ntables; t++)
			if (!wide[t] && (best < 0 || cost_hi[t] - cost_lo[t] < cost_hi[best] - cost_lo[best]))
				best = t;
		wide[best] = true;
	}
	maxe = extra > 0 ? lo + 1 : lo;
	for (t = 0; t < ntables; t++)
	{
		so->plan_pages += wide[t] ? cost_hi[t] : cost_lo[t];
		for (s = 0; s < so->views.n; s++)
		{
			if (wide[t])
			{
				so->ranges[s][t] = ranges_hi[s][t];
				so->nranges[s][t] = nranges_hi[s][t];
				so->spans[s][t] = spans_hi[s][t];
			}
		}
	}
	/* one whole table is cheaper (radii up to the layout's always probe: one page per table) */
	if (!(so->plan_pages >= so->full_pages && maxe > 0))
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

/* Entries a page can hold at most (the smallest entry is 8 bytes). */
#define NDD_MAX_PAGE_ENTRIES	(NDD_PAGE_CAPACITY_BYTES / 8 + 1)

/*
 * The hot loop of most scans, for one centre (one WHERE ball, or the ORDER BY point): the indexes
 * of the page's n entries within limit bits of c, with their distances, into idx/dist; returns
 * their number. Nothing but the page is read or written in the loop (no scan state the compiler
 * must reload after every store), the append is branch-free, and `wide` is a constant in each
 * inlined copy, so the 64-bit loop carries no test of it.
 */
static pg_attribute_always_inline int
filter_entries(const char *ptr, int first, int n, const NddFormat *f, uint64 low, bool wide,
			   const uint64 c[2], int limit, uint16 *idx, uint8 *dist)
{
	const int	shift = f->offset_bits + f->block_bits;
	const uint64 dmask = ndd_mask(f->delta_bits);
	const int	step = f->entry_bytes;
	const int	tail_at = f->entry_bytes - 8;
	const uint64 c0 = c[0];
	const uint64 c1 = c[1];
	int			m = 0;
	int			i;

	for (i = 0; i < n; i++, ptr += step)
	{
		unsigned __int128 v;
		uint64		head;
		int			d;

		memcpy(&v, ptr, sizeof(v));
		head = low + ((uint64) (v >> shift) & dmask);
		d = ndd_popcount64(head ^ c0);
		if (wide)
		{
			uint64		tail;

			memcpy(&tail, ptr + tail_at, sizeof(tail));
			d += ndd_popcount64(tail ^ c1);
		}
		idx[m] = (uint16) (first + i);
		dist[m] = (uint8) d;
		m += d <= limit;
	}
	return m;
}

/* A run [first, first + n) of a page's entries to check. */
typedef struct NddRun
{
	int			first;
	int			n;
} NddRun;

/* The delta (head - the page's low head) of entry i of a page's entries at base, format f. */
static inline uint64
entry_delta(const char *base, const NddFormat *f, int i)
{
	return ndd_entry_head(ndd_entry_bits(base + (Size) i * f->entry_bytes), f, 0);
}

/*
 * The first of a page's entries [i, j) (format f, the first `sorted` of the page's sorted by
 * head, their deltas within [0, range]) whose delta is >= delta, or j. The search starts where an
 * even spread of the sorted deltas over the range puts delta (heads are hashes: the guess is off
 * by about the square root of the entries), moves away from it by doubling steps, and finishes
 * with a binary search within the last step. A probe's page is cold in the CPU's caches, and a
 * binary search over the whole page reads a cache line per step (log2 of about 700 entries: ten
 * misses, the most of a radius-3 probe's time); this reads the few lines around the guess, and
 * on skewed heads at most about twice the binary search's steps.
 */
static inline int
lower_bound_delta(const char *base, const NddFormat *f, int sorted, uint64 range, int i, int j,
				  uint64 delta)
{
	int			g;
	int			step = 1;

	if (i >= j)
		return i;
	g = (int) ((double) delta / ((double) range + 1.0) * sorted);
	g = Max(i, Min(g, j - 1));
	if (entry_delta(base, f, g) < delta)
	{
		/* the answer is in (g, j]: gallop up */
		int			lo = g + 1;

		while (lo + step - 1 < j && entry_delta(base, f, lo + step - 1) < delta)
		{
			lo += step;
			step <<= 1;
		}
		i = lo;
		j = Min(lo + step - 1, j);
	}
	else
	{
		/* the answer is in [i, g]: gallop down */
		int			hi = g;

		while (hi - step >= i && entry_delta(base, f, hi - step) >= delta)
		{
			hi -= step;
			step <<= 1;
		}
		i = Max(i, hi - step + 1);
		j = hi;
	}
	/* every entry before i is below delta, entry j (if within the page) is not */
	while (i < j)
	{
		int			mid = i + (j - i) / 2;

		if (entry_delta(base, f, mid) < delta)
			i = mid + 1;
		else
			j = mid;
	}
	return i;
}

/*
 * The runs of the n entries at base (format f, heads from low up to high, the first `sorted` of
 * them in head order) that a probe needing the head runs spans must check, into runs; returns
 * their number (at most the spans meeting the page, plus one). In the sorted prefix, the entries
 * of each span that meets the page, found by binary search; after it, every entry (inserts since
 * the build append in any order). spans NULL or nothing sorted: every entry, one run.
 */
static int
page_runs(const char *base, const NddFormat *f, int n, int sorted, uint64 low, uint64 high,
		  const NddSpans *spans, NddRun *runs)
{
	int			nruns = 0;
	int			a = 0;
	int			b = spans ? spans->n : 0;
	int			at = 0;

	if (spans == NULL || sorted == 0)
	{
		runs[0].first = 0;
		runs[0].n = n;
		return 1;
	}
	/* the first span that ends at or after low */
	while (a < b)
	{
		int			mid = a + (b - a) / 2;

		if (spans->v[mid].hi < low)
			a = mid + 1;
		else
			b = mid;
	}
	for (; a < spans->n && spans->v[a].lo <= high && at < sorted; a++)
	{
		uint64		lo = Max(spans->v[a].lo, low) - low;
		uint64		hi = Min(spans->v[a].hi, high) - low;
		int			first = lower_bound_delta(base, f, sorted, high - low, at, sorted, lo);
		int			end = hi == PG_UINT64_MAX ? sorted :
			lower_bound_delta(base, f, sorted, high - low, first, sorted, hi + 1);

		if (end > first)
		{
			runs[nruns].first = first;
			runs[nruns].n = end - first;
			nruns++;
		}
		at = end;
	}
	if (n > sorted)
	{
		runs[nruns].first = sorted;
		runs[nruns].n = n - sorted;
		nruns++;
	}
	return nruns;
}

/*
 * Hands one qualifying entry of the chain's current page to the TID bitmap or the collector. A
 * match goes to the executor: its TID must be one a heap page can hold.
 */
static inline void
report_entry(NddScanOpaque so, Relation index, const NddChain *chain, TIDBitmap *tbm,
			 BlockNumber block, OffsetNumber offset, int dist)
{
	if (offset == InvalidOffsetNumber || offset > MaxHeapTuplesPerPage)
		ndd_corrupt(index, "an entry has an invalid heap TID", BufferGetBlockNumber(chain->cur));
	if (tbm)
	{
		ItemPointerData tid;

		ItemPointerSet(&tid, block, offset);
		tbm_add_tuples(tbm, &tid, 1, false);
	}
	else
		collect(so, make_key(dist, block, offset));
}

/*
 * Checks the entries of one chain (the bucket of view mv's table t starting at primary page p,
 * or the NULL chain when t < 0) and reports each qualifying one to the TID bitmap or the
 * collector. Returns the number reported; sets *gone when the primary page is not of mv's map
 * (NddChain.gone), reporting nothing. With spans (a probe's), only the entries of its head runs
 * are checked on each page's sorted prefix: every match of the probe's ball has, in some table,
 * its head in that table's runs, so the entries outside them are found elsewhere or not at all.
 */
static int64
scan_chain(IndexScanDesc scan, const NddMapView *mv, int t, uint32 p, const NddSpans *spans,
		   TIDBitmap *tbm, int *gone)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	BlockNumber blkno = t < 0 ? mv->meta->null_start : ndd_primary_block(mv, t, p);
	uint64		low = t < 0 ? 0 : ndd_page_low(p, mv->npages);
	uint64		high = (t < 0 || p + 1 >= mv->npages) ? PG_UINT64_MAX : ndd_page_low(p + 1, mv->npages) - 1;
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
		bool		wide;
		NddRun		runs[NDD_MAX_PAGE_ENTRIES + 1];
		int			nruns;
		int			r;
		const char *base = (const char *) page + MAXALIGN(SizeOfPageHeaderData);

		n = ndd_page_nentries(page, &f);
		nruns = page_runs(base, &f, n, t < 0 ? 0 : ndd_page_sorted(page, n), low, high, spans, runs);
		so->pages_read++;
		for (r = 0; r < nruns; r++)
			so->entries_checked += runs[r].n;

		if (t >= 0 && so->nballs + (ord != NULL) == 1)
		{
			/* one centre: the common case, through the tight loop */
			const uint64 *c = ord ? ord : so->balls[0].perm[t];
			int			limit = ord ? (tbm ? (int) so->meta.layout.bits : (int) Min(so->upper >> 48, 255))
				: so->radius[0];
			uint16		idx[NDD_MAX_PAGE_ENTRIES];
			uint8		dist[NDD_MAX_PAGE_ENTRIES];
			int			m = 0;

			ptr = base;
			for (r = 0; r < nruns; r++)
			{
				const char *at = base + (Size) runs[r].first * f.entry_bytes;

				m += f.wide ? filter_entries(at, runs[r].first, runs[r].n, &f, low, true, c, limit,
											 idx + m, dist + m)
					: filter_entries(at, runs[r].first, runs[r].n, &f, low, false, c, limit,
									 idx + m, dist + m);
			}
			for (i = 0; i < m; i++)
			{
				BlockNumber block;
				OffsetNumber offset;

				ndd_entry_tid(ndd_entry_bits(ptr + (Size) idx[i] * f.entry_bytes), &f, &block, &offset);
				found++;
				report_entry(so, index, &chain, tbm, block, offset, ord ? dist[i] : 0);
			}
			continue;
		}

		/*
		 * Several centres (WHERE balls, or a ball and the ORDER BY point), or the NULL chain: the
		 * fingerprint is tested first, straight from the entry's bits, and the TID is decoded
		 * only for the few entries that pass. Entries further than the pass's current top-n bound
		 * (keys above upper are dropped anyway) are skipped before building a key.
		 */
		wide = f.wide;
		for (r = 0; r < nruns; r++)
		{
			for (i = runs[r].first, ptr = base + (Size) i * f.entry_bytes; i < runs[r].first + runs[r].n;
				 i++, ptr += f.entry_bytes)
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
						if (tbm == NULL && (uint64) dist > (so->upper >> 48))
							continue;
					}
				}
				ndd_entry_tid(v, &f, &block, &offset);
				found++;
				report_entry(so, index, &chain, tbm, block, offset, dist);
			}
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
scan_bucket(IndexScanDesc scan, const NddMapView *mv, int t, uint32 p, const NddSpans *spans,
			TIDBitmap *tbm,
			int64 *found)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	int			gone;

	CHECK_FOR_INTERRUPTS();
	*found += scan_chain(scan, mv, t, p, spans, tbm, &gone);
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
			*found += scan_chain(scan, &cur, t, q, spans, tbm, &gone);
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
		if (!scan_bucket(scan, mv, 0, p, NULL, tbm, found))
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
		return scan_bucket(scan, &so->views.v[0], -1, 0, NULL, tbm, found);
	}
	for (s = 0; s < so->views.n; s++)
	{
		const NddMapView *mv = &so->views.v[s];

		switch (so->source)
		{
			case SRC_PROBE:
				for (t = 0; t < so->meta.layout.ntables; t++)
				{
					int			i;

					for (i = 0; i < so->nranges[s][t]; i++)
						for (p = so->ranges[s][t][i].first; p <= so->ranges[s][t][i].last; p++)
							if (!scan_bucket(scan, mv, t, p, &so->spans[s][t], tbm, found))
								return false;
				}
				break;
			case SRC_FULL:
				if (!scan_table0(scan, mv, tbm, found))
					return false;
				break;
			case SRC_KNN:
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

/* KNN's read bitmap of view s's table t. */
static inline uint64 *
knn_read_map(NddScanOpaque so, int s, int t)
{
	return so->knn_read[s * so->meta.layout.ntables + t];
}

static inline bool
knn_page_read(const uint64 *map, const NddMapView *mv, uint32 p)
{
	uint32		i = p - mv->first_page;

	return (map[i / 64] >> (i % 64)) & 1;
}

static inline void
knn_mark_read(uint64 *map, const NddMapView *mv, uint32 p)
{
	uint32		i = p - mv->first_page;

	map[i / 64] |= UINT64CONST(1) << (i % 64);
}

/* Empty read bitmaps and step caches for the current views (after a rescan or a map change). */
static void
knn_reset_maps(NddScanOpaque so)
{
	int			ntables = so->meta.layout.ntables;
	int			s;
	int			t;
	MemoryContext old = MemoryContextSwitchTo(so->cxt);

	so->knn_read = palloc(sizeof(uint64 *) * so->views.n * ntables);
	so->knn_step_pages = palloc0(sizeof(uint32 *) * so->views.n * ntables);
	so->knn_step_n = palloc0(sizeof(int) * so->views.n * ntables);
	for (s = 0; s < so->views.n; s++)
		for (t = 0; t < ntables; t++)
			so->knn_read[s * ntables + t] =
				palloc0(sizeof(uint64) * ((ndd_view_pages(&so->views.v[s]) + 63) / 64));
	for (t = 0; t < ntables; t++)
		so->knn_step_valid[t] = false;
	MemoryContextSwitchTo(old);
}

/*
 * The pages of table t's next KNN step (its probe radius one more: the keys at exactly that
 * distance from q's) that no step has read yet, in every view, and how many they are (or
 * get_float8_infinity() when the shell is too large to enumerate: a full pass is cheaper then).
 */
static void
knn_plan_step(NddScanOpaque so, int t)
{
	int			ntables = so->meta.layout.ntables;
	int			e = so->knn_e[t] + 1;
	int			s;
	MemoryContext old = MemoryContextSwitchTo(so->cxt);

	so->knn_step_valid[t] = true;
	so->knn_step_cost[t] = 0;
	for (s = 0; s < so->views.n; s++)
	{
		const NddMapView *mv = &so->views.v[s];
		int			w = probe_width(so, mv, t);
		uint64		head = so->order->perm[t][0];
		uint64		nshell = ndd_shell_volume(w, e);
		const uint64 *map = knn_read_map(so, s, t);
		uint64	   *prefixes;
		NddRange   *ranges;
		uint32	   *pages;
		uint64		npages;
		size_t		n = 0;
		int			nr;
		int			np = 0;
		int			i;

		if (so->knn_step_pages[s * ntables + t])
			pfree(so->knn_step_pages[s * ntables + t]);
		so->knn_step_pages[s * ntables + t] = NULL;
		so->knn_step_n[s * ntables + t] = 0;
		if (nshell > 2 * (uint64) ndd_view_pages(mv))
		{
			so->knn_step_cost[t] = get_float8_infinity();
			break;
		}
		prefixes = palloc(sizeof(uint64) * Max(nshell, 1));
		ndd_raise_status(ndd_prefix_shell(w == 64 ? head : head >> (64 - w), w, e, prefixes,
										  Max(nshell, 1), &n),
						 "the probes of an ndd scan");
		ranges = palloc(sizeof(NddRange) * Max(n, 1));
		nr = prefix_ranges(mv, prefixes, n, w, ranges, &npages, NULL, NULL);
		pfree(prefixes);
		pages = palloc(sizeof(uint32) * Max(npages, 1));
		for (i = 0; i < nr; i++)
		{
			uint32		p;

			for (p = ranges[i].first; p <= ranges[i].last; p++)
				if (!knn_page_read(map, mv, p))
					pages[np++] = p;
		}
		pfree(ranges);
		so->knn_step_pages[s * ntables + t] = pages;
		so->knn_step_n[s * ntables + t] = np;
		so->knn_step_cost[t] += np;
	}
	MemoryContextSwitchTo(old);
}

/*
 * Reads every page within the probe radii knn_e of every table, afresh: after the map changed
 * under a step, or when the top-n dropped keys within the proven radius. Returns false when the
 * map changed again.
 */
static bool
knn_read_balls(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	int			ntables = so->meta.layout.ntables;
	int			s;
	int			t;
	int64		found = 0;
	MemoryContext old = MemoryContextSwitchTo(so->cxt);

	knn_reset_maps(so);
	for (s = 0; s < so->views.n; s++)
	{
		const NddMapView *mv = &so->views.v[s];

		for (t = 0; t < ntables; t++)
		{
			uint64	   *map = knn_read_map(so, s, t);
			NddRange   *ranges;
			int			nr;
			uint64		pages;
			int			i;
			int			e;

			if (so->knn_e[t] < 0)
				continue;
			/* the union of the shells 0..e of the prefixes the steps enumerated */
			e = so->knn_e[t];
			{
				int			w = probe_width(so, mv, t);
				uint64		head = so->order->perm[t][0];
				uint64		nprefix = ndd_ball_volume(w, e);
				uint64	   *prefixes = palloc(sizeof(uint64) * nprefix);
				size_t		n = 0;

				ndd_raise_status(ndd_prefix_ball(w == 64 ? head : head >> (64 - w), w, e, prefixes,
												 nprefix, &n),
								 "the probes of an ndd scan");
				ranges = palloc(sizeof(NddRange) * Max(n, 1));
				nr = prefix_ranges(mv, prefixes, n, w, ranges, &pages, NULL, NULL);
				pfree(prefixes);
			}
			so->probed_pages += pages;
			for (i = 0; i < nr; i++)
			{
				uint32		p;

				for (p = ranges[i].first; p <= ranges[i].last; p++)
				{
					knn_mark_read(map, mv, p);
					if (!scan_bucket(scan, mv, t, p, NULL, NULL, &found))
					{
						MemoryContextSwitchTo(old);
						return false;
					}
				}
			}
			pfree(ranges);
		}
	}
	MemoryContextSwitchTo(old);
	return true;
}

/* Rows a KNN scan is taken to want when it says nothing: LIMIT 10, the usual query. */
#define NDD_KNN_EXPECTED_ROWS	10

/*
 * Primary pages the probes would have read, over every view and table, once they prove radius r
 * (the split of ndd_layout_radius_split; a ball of radius e over the bits a view's page map
 * resolves, as the cost estimate counts it).
 */
static double
knn_pages_to_prove(NddScanOpaque so, int r)
{
	const NddLayout *layout = &so->meta.layout;
	int			lo;
	int			extra;
	int			s;
	int			t;
	double		pages = 0;

	if (r >= layout->bits)
		return so->full_pages * layout->ntables;
	ndd_layout_radius_split(layout, r, &lo, &extra);
	for (s = 0; s < so->views.n; s++)
	{
		double		npages = ndd_view_pages(&so->views.v[s]);
		int			w = ndd_bits_for(so->views.v[s].npages);

		for (t = 0; t < layout->ntables; t++)
		{
			int			e = lo + (t < extra ? 1 : 0);
			int			width = Min(Min((int) layout->key_bits[t], 64), w);

			if (e >= 0)
				pages += Min(npages, (double) ndd_ball_volume(width, e) *
							 Max(1.0, npages / pow(2.0, width)));
		}
	}
	return pages;
}

/* The top-n starts over: nothing collected, nothing dropped. */
static void
knn_clear_items(NddScanOpaque so)
{
	so->nitems = so->nready = so->pos = 0;
	so->upper = PG_UINT64_MAX;
	so->truncated = false;
}

/* Reads the balls again until the map holds still under the reading. */
static void
knn_reread(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;

	for (;;)
	{
		knn_clear_items(so);
		if (knn_read_balls(scan))
			break;
		reread_map(scan);
	}
	pg_qsort(so->items, so->nitems, sizeof(uint64), cmp_key);
	so->nitems = (int) qunique(so->items, so->nitems, sizeof(uint64), cmp_key);
}

/*
 * KNN's probes (README.index.md, "Scans"): makes items[0..nready) the next rows in distance
 * order and returns true, or returns false when the probes are over (so->source says what
 * follows: a pass over table 0 for the rows further than what was returned, or the NULL rows).
 *
 * items holds the smallest keys above lower of every page read so far (a top-n: at most cap,
 * dropping those above upper when it fills). After each step every row within knn_proven has
 * been read, so the kept keys up to that distance (and up to upper, if keys were dropped) are
 * final: they are returned. A step is taken only while the pages of every step so far and this one
 * stay below one pass over table 0.
 */
static bool
knn_probe_batch(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;
	const NddLayout *layout = &so->meta.layout;
	int			ntables = layout->ntables;

	/* what the previous batch returned leaves the top-n */
	if (so->nready > 0)
	{
		memmove(so->items, so->items + so->nready, sizeof(uint64) * (so->nitems - so->nready));
		so->nitems -= so->nready;
		so->nready = so->pos = 0;
	}
	for (;;)
	{
		uint64		proven_key;
		uint64		bound;
		int			n;
		int			best = -1;
		int			mine = INT_MAX;
		int			t;
		int			s;
		int64		found = 0;
		bool		moved = false;

		/* the largest key every row up to which has been read (0: none, no TID has offset 0) */
		if (so->knn_proven >= layout->bits)
			proven_key = PG_UINT64_MAX;
		else if (so->knn_proven < 0)
			proven_key = 0;
		else
			proven_key = make_key(so->knn_proven, 0, 0) | KEY_TID_MASK;
		bound = so->truncated ? Min(proven_key, so->upper) : proven_key;
		for (n = 0; n < so->nitems && so->items[n] <= bound; n++)
			;
		if (n > 0)
		{
			so->nready = n;
			so->has_lower = true;
			so->lower = bound;
			so->knn_returned += n;
			return true;
		}
		if (so->knn_proven >= layout->bits)
		{
			/* every row has been read and returned */
			so->source = SRC_NULLS;
			so->has_lower = false;
			knn_clear_items(so);
			return false;
		}
		if (so->truncated && so->upper < proven_key)
		{
			/*
			 * Keys within the proven radius were dropped: read the same pages again for the keys
			 * above the last one returned, keeping eight times more.
			 */
			so->cap = (int) Min((int64) so->cap * 8, (int64) so->cap_max);
			knn_reread(scan);
			continue;
		}

		/* the next step: the table whose next shell reads the fewest new pages */
		for (t = 0; t < ntables; t++)
			mine = Min(mine, so->knn_e[t]);
		for (t = 0; t < ntables; t++)
		{
			/* layouts of several blocks per key prove more only as the smallest radius grows */
			if (layout->nblocks - layout->radius != 1 && so->knn_e[t] != mine)
				continue;
			if (!so->knn_step_valid[t])
				knn_plan_step(so, t);
			if (best < 0 || so->knn_step_cost[t] < so->knn_step_cost[best])
				best = t;
		}
		/*
		 * A pass over table 0 when the next step would take the probes past one, or when the rows
		 * seen already say that proving the usual LIMIT's last row would: the probes would only
		 * add to the pass they end in. The estimate of that row's distance: the smallest d at
		 * which the rows seen within d, scaled from the pages read to a whole table, reach the
		 * rows still wanted. Far neighbours (random 128-bit queries on a million rows) then cost
		 * one pass, not two; a wrong guess costs one pass, what the probes would end in anyway.
		 */
		if (so->knn_returned < NDD_KNN_EXPECTED_ROWS && so->probed_pages > 0)
		{
			double		scale = so->full_pages / so->probed_pages;
			int64		need = NDD_KNN_EXPECTED_ROWS - so->knn_returned;
			int			i;

			for (i = 0; i < so->nitems; i++)
				if ((i + 1) * scale >= need)
				{
					if (knn_pages_to_prove(so, (int) (so->items[i] >> 48)) >= so->full_pages)
						so->knn_step_cost[best] = get_float8_infinity();
					break;
				}
		}
		if (so->probed_pages + so->knn_step_cost[best] >= so->full_pages)
		{
			/* one pass over table 0 reads less: it returns every row above lower */
			so->source = SRC_FULL;
			knn_clear_items(so);
			return false;
		}

		/* the step: its pages in every view */
		so->knn_e[best]++;
		so->knn_step_valid[best] = false;
		so->probed_pages += so->knn_step_cost[best];
		for (s = 0; s < so->views.n && !moved; s++)
		{
			const NddMapView *mv = &so->views.v[s];
			uint64	   *map = knn_read_map(so, s, best);
			const uint32 *pages = so->knn_step_pages[s * ntables + best];
			int			i;

			for (i = 0; i < so->knn_step_n[s * ntables + best]; i++)
			{
				knn_mark_read(map, mv, pages[i]);
				if (!scan_bucket(scan, mv, best, pages[i], NULL, NULL, &found))
				{
					moved = true;
					break;
				}
			}
		}
		if (moved)
		{
			/* the map changed under the step: read every probe so far in the new map */
			reread_map(scan);
			knn_reread(scan);
		}
		else
		{
			pg_qsort(so->items, so->nitems, sizeof(uint64), cmp_key);
			so->nitems = (int) qunique(so->items, so->nitems, sizeof(uint64), cmp_key);
		}
		so->knn_proven = ndd_layout_proven_radius(layout, so->knn_e);
	}
}

/* Sets up the first source of a scan. */
static void
plan_first_source(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;

	so->planned = true;
	/* pg_stat_user_indexes.idx_scan: one per scan (or rescan) that reads the index */
	ndd_count_index_search(scan);
	if (so->empty)
		so->source = SRC_DONE;
	else if (so->nballs > 0)
		plan_source(so, &so->balls[so->driving], so->radius[so->driving]);
	else if (so->order)
	{
		int			t;

		/* KNN: probes that grow from nothing, one table and one bit at a time */
		so->source = SRC_KNN;
		for (t = 0; t < so->meta.layout.ntables; t++)
			so->knn_e[t] = -1;
		so->knn_proven = -1;
		so->knn_returned = 0;
		knn_reset_maps(so);
		knn_clear_items(so);
	}
	else
		so->source = SRC_FULL;
}

/* Moves to the source after the current one has been exhausted. */
static void
next_source(IndexScanDesc scan)
{
	NddScanOpaque so = (NddScanOpaque) scan->opaque;

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
		if (so->source == SRC_KNN)
		{
			if (knn_probe_batch(scan))
			{
				so->items_source = SRC_KNN;
				return true;
			}
			continue;
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
		so->nready = so->nitems;
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

	if (so->pos >= so->nready && !next_batch(scan))
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
	/* no ordering in a bitmap: KNN's probes become one full pass */
	if (so->source == SRC_KNN)
		so->source = SRC_FULL;
	while (so->source != SRC_DONE)
	{
		/* a pass over again only adds TIDs the bitmap has */
		while (!run_source(scan, tbm, &found))
			reread_map(scan);
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

	/* what it cost, over every rescan: the work a benchmark counts without timing it */
	elog(DEBUG2, "ndd scan of \"%s\": %lld index pages read, %lld entries checked",
		 RelationGetRelationName(scan->indexRelation), (long long) so->pages_read,
		 (long long) so->entries_checked);
	MemoryContextDelete(so->cxt);
	pfree(so);
	scan->opaque = NULL;
}
