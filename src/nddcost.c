/*-------------------------------------------------------------------------
 *
 * nddcost.c
 *	  The ndd access method's cost estimate (amcostestimate): probed buckets or one pass
 *	  over a table, KNN's probe stages; README.index.md, "Cost estimate".
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include <math.h>

#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/selfuncs.h"
#include "utils/spccache.h"
#include "utils/rel.h"

/* The radius of a `fp <@ ball` index qual when the planner can see it, else -2. */
static int
qual_radius(PlannerInfo *root, Node *clause)
{
	Node	   *ball;

	if (IsA(clause, RestrictInfo))
		clause = (Node *) ((RestrictInfo *) clause)->clause;
	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return -2;
	ball = lsecond(((OpExpr *) clause)->args);
	ball = estimate_expression_value(root, ball);
	if (IsA(ball, Const))
	{
		if (((Const *) ball)->constisnull)
			return -1;
		return DatumGetHammingBallP(((Const *) ball)->constvalue)->radius;
	}
	if (IsA(ball, FuncExpr) && list_length(((FuncExpr *) ball)->args) == 2)
	{
		Node	   *k = estimate_expression_value(root, lsecond(((FuncExpr *) ball)->args));

		if (IsA(k, Const) && !((Const *) k)->constisnull)
			return DatumGetInt32(((Const *) k)->constvalue);
	}
	return -2;
}

/*
 * amcostestimate. An ndd scan reads, for each table, the primary pages of the probed buckets and
 * their overflow pages, and checks every entry on them; or, when the probes would read more than
 * one whole table, reads one table entirely (every row is in every table). Heap visits are the
 * planner's business (it multiplies the selectivity of the operator's estimator by the rows).
 */
void
ndd_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				 Cost *indexStartupCost, Cost *indexTotalCost,
				 Selectivity *indexSelectivity, double *indexCorrelation,
				 double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	Relation	rel;
	NddMetaPage cached;
	NddMetaPageData meta;
	List	   *quals = get_quals_from_indexclauses(path->indexclauses);
	ListCell   *lc;
	int			radius = INT_MAX;
	double		tuples = Max(index->rel->tuples, 1.0);
	double		table_pages;
	double		primaries;
	int			ntables;
	double		per_page;
	double		pages;
	double		entries;
	double		spc_random,
				spc_seq;
	/* each entry visited costs what a btree charges per index tuple it checks against a qual */
	Cost		cpu_entry = cpu_index_tuple_cost + cpu_operator_cost;
	Cost		startup = 0,
				total;

	rel = index_open(index->indexoid, NoLock);
	cached = ndd_read_meta(rel, false);
	if (cached)
		meta = *cached;
	index_close(rel, NoLock);
	if (cached == NULL)
	{
		/* another on-disk version: never chosen if anything else can run; its scan says REINDEX */
		*indexStartupCost = disable_cost;
		*indexTotalCost = disable_cost;
		*indexSelectivity = 1.0;
		*indexCorrelation = 0;
		*indexPages = index->pages;
		return;
	}

	get_tablespace_page_costs(index->reltablespace, &spc_random, &spc_seq);
	ntables = meta.layout.ntables;

	/*
	 * Pages of one table: the map's primaries plus their share of the overflow pages (while an
	 * expansion migrates, each head is in one of two maps of about that size).
	 */
	primaries = meta.npages;
	table_pages = Max((double) index->pages - 1, (double) ntables) / ntables;
	table_pages = Max(table_pages, primaries);
	per_page = tuples / table_pages;

	foreach(lc, quals)
	{
		int			r = qual_radius(root, (Node *) lfirst(lc));

		if (r == -2)
			r = meta.layout.radius;	/* unseen radius (generic plan): assume the layout's */
		radius = Min(radius, r);
	}

	*indexSelectivity = quals ? clauselist_selectivity(root, quals, index->rel->relid,
													   JOIN_INNER, NULL) : 1.0;

	if (quals == NIL || radius >= meta.layout.bits)
	{
		/* a full pass over table 0 */
		pages = table_pages;
		entries = tuples;
		total = pages * spc_seq + entries * cpu_entry;
	}
	else if (radius < 0)
	{
		pages = 0;
		entries = 0;
		total = 0;
	}
	else
	{
		/*
		 * Multi-index hashing's split of the radius over the tables, as the scan probes it:
		 * `extra` tables within lo + 1 bits, the others within lo (-1: not probed). A probe of
		 * radius e reads about the pages of a ball of radius e over the bits the page map
		 * resolves (its prefixes are longer, but the longer bits pick among a page's keys).
		 */
		int			lo;
		int			extra;
		double		probes = 0;
		double		overflow = table_pages / primaries;	/* average chain length */
		double		npages = meta.npages;
		int			w = ndd_bits_for((uint64) npages);
		int			t;

		ndd_layout_radius_split(&meta.layout, radius, &lo, &extra);
		for (t = 0; t < ntables; t++)
		{
			int			e = lo + (t < extra ? 1 : 0);
			int			width = Min(Min(meta.layout.key_bits[t], 64), w);
			/*
			 * The primary pages one key spans: one while the key has at least log2(npages) bits;
			 * npages / 2^key_bits once the map has more pages than the key has values (a 4-table
			 * simhash64 layout above about 45M rows), every one of them read.
			 */
			double		key_pages = Max(1.0, npages / pow(2.0, width));

			if (e >= 0)
				probes += (double) ndd_ball_volume(width, e) * overflow * key_pages;
		}
		if (probes >= table_pages)
		{
			pages = table_pages;
			entries = tuples;
			total = pages * spc_seq + entries * cpu_entry;
		}
		else
		{
			pages = probes;
			entries = probes * per_page;
			total = pages * spc_random + entries * cpu_entry;
		}
	}

	/* returning TIDs: one index-tuple cost each */
	total += *indexSelectivity * tuples * cpu_index_tuple_cost;

	if (path->indexorderbys != NIL)
	{
		/*
		 * KNN (README.index.md, "Scans"). With a WHERE ball, the ball's probes come before the
		 * first row. Without one, the probe stages widen the radius until the rows found outnumber
		 * what a pass keeps or their pages would exceed one pass over table 0,
		 * which then follows: the first rows cost at most the probes plus that pass, the usual
		 * near-duplicate query only the first stage's probes. Returning every row takes one more
		 * pass for each eight-fold growth of what a pass keeps (from 128 keys).
		 */
		double		full = table_pages * spc_seq + tuples * cpu_entry;
		double		first_stage = ntables * (table_pages / primaries) * spc_random +
			ntables * (tuples / primaries) * cpu_entry;
		double		passes = 1 + ceil(log(Max(tuples / 128.0, 1.0)) / log(8.0));

		if (quals == NIL)
		{
			startup = Min(first_stage, full) + full;
			total = startup + (passes - 1) * full +
				2.0 * cpu_operator_cost * tuples * log2(Max(tuples, 2.0)) / 8;
		}
		else
			startup = total;
	}

	*indexStartupCost = startup;
	*indexTotalCost = Max(total, startup);
	*indexCorrelation = 0;
	*indexPages = pages;
}
