/*
 * workflow_clusters.c
 *    ndd_clusters(): clusters of near-duplicates from a pair list, fully transitive or
 *    conservative (the research report's two methods, clusters_api.h).
 */
#include "ndd.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "clusters_api.h"
#include "query_reader.h"

PG_FUNCTION_INFO_V1(ndd_clusters);

/*
 * Bytes held at the peak for npairs pairs and norder ordered ids (without an order, the documents
 * are at most the pairs' two sides): our arrays of ids plus the core's.
 */
static size_t
cluster_memory(size_t npairs, size_t norder, bool ordered)
{
	return npairs * 2 * sizeof(int64) + norder * sizeof(int64) +
		ndd_cluster_memory(ordered ? norder : 2 * npairs, npairs);
}

/*
 * ndd_clusters(pairs_sql text, conservative bool DEFAULT false, order_sql text DEFAULT NULL)
 *    RETURNS TABLE(id bigint, cluster_id bigint, representative boolean)
 * pairs_sql returns (a, b) near-duplicate pairs; order_sql, when given, returns every document's
 * id earliest first (its ORDER BY is the order) and documents without pairs become clusters of
 * their own. cluster_id is the id of the representative, the cluster's earliest member.
 */
Datum
ndd_clusters(PG_FUNCTION_ARGS)
{
	char	   *pairs_sql;
	char	   *order_sql = NULL;
	bool		conservative;
	MemoryContext work;
	NddQueryReader reader;
	HeapTuple	tuple;
	int64	   *pairs = NULL,
			   *order = NULL;
	size_t		npairs = 0,
				norder = 0,
				cap_pairs = 0,
				cap_order = 0;
	NddClusterRow *rows = NULL;
	size_t		nrows = 0;
	NddClusterProblem problem;
	int64_t		problem_id;
	NddStatus	status;
	ReturnSetInfo *rsinfo;
	size_t		budget = ndd_input_budget();
	bool		too_large = false;

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("conservative must not be null")));
	conservative = PG_GETARG_BOOL(1);
	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0))
		return (Datum) 0;		/* no pairs query, no clusters: like a strict function */
	pairs_sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (!PG_ARGISNULL(2))
		order_sql = text_to_cstring(PG_GETARG_TEXT_PP(2));

	/*
	 * The pairs and the order are held in memory (a union-find needs them all); they and the
	 * core's arrays are bounded by maintenance_work_mem, checked while reading.
	 */
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_clusters", ALLOCSET_DEFAULT_SIZES);
	SPI_connect();

	ndd_query_open(&reader, pairs_sql, "pairs_sql", 2);
	ndd_query_require_integer(&reader, 1, "a document id");
	ndd_query_require_integer(&reader, 2, "a document id");
	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		null_a,
					null_b;
		Datum		a = SPI_getbinval(tuple, reader.desc, 1, &null_a);
		Datum		b = SPI_getbinval(tuple, reader.desc, 2, &null_b);

		if (null_a || null_b)
			continue;			/* a pair with an unknown side links nothing */
		if (too_large || cluster_memory(npairs + 1, 0, order_sql != NULL) > budget)
		{
			too_large = true;	/* count the rest, to say how much memory they need */
			npairs++;
			continue;
		}
		pairs = ndd_grow_array(work, pairs, &cap_pairs, 2 * (npairs + 1), sizeof(int64),
							   budget / sizeof(int64) / 4);
		pairs[2 * npairs] = ndd_query_integer(a, ndd_query_column_type(&reader, 1));
		pairs[2 * npairs + 1] = ndd_query_integer(b, ndd_query_column_type(&reader, 2));
		npairs++;
	}
	ndd_query_close(&reader);

	if (order_sql != NULL)
	{
		ndd_query_open(&reader, order_sql, "order_sql", 1);
		ndd_query_require_integer(&reader, 1, "the document id");
		while ((tuple = ndd_query_next(&reader)) != NULL)
		{
			bool		isnull;
			Datum		id = SPI_getbinval(tuple, reader.desc, 1, &isnull);

			if (isnull)
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("order_sql returned a null id")));
			if (too_large || cluster_memory(npairs, norder + 1, true) > budget)
			{
				too_large = true;
				norder++;
				continue;
			}
			order = ndd_grow_array(work, order, &cap_order, norder + 1, sizeof(int64),
								   budget / sizeof(int64) / 4);
			order[norder++] = ndd_query_integer(id, ndd_query_column_type(&reader, 1));
		}
		ndd_query_close(&reader);
	}
	SPI_finish();
	if (too_large)
		ndd_input_too_large("ndd_clusters",
							order_sql ? psprintf("%zu pairs over %zu documents", npairs, norder)
							: psprintf("%zu pairs", npairs),
							cluster_memory(npairs, norder, order_sql != NULL));

	{
		MemoryContext old = MemoryContextSwitchTo(work);
		static const int64_t no_ids[1] = {0};

		status = ndd_cluster_pairs(order_sql ? (order ? (const int64_t *) order : no_ids) : NULL, norder,
							  (const int64_t *) pairs, npairs, conservative, ndd_interrupt_pending,
							  ndd_alloc_noerror, &rows, &nrows, &problem, &problem_id);
		MemoryContextSwitchTo(old);
	}
	ndd_raise_status(status, "clusters");
	if (problem == NDD_CLUSTER_DUPLICATE_ORDER_ID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("order_sql returned the id " INT64_FORMAT " more than once", (int64) problem_id)));
	if (problem == NDD_CLUSTER_UNORDERED_PAIR_ID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("pairs_sql returned the id " INT64_FORMAT ", which order_sql does not return",
						(int64) problem_id),
				 errhint("order_sql must return every document, in the order that picks representatives.")));

	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	for (size_t i = 0; i < nrows; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = Int64GetDatum(rows[i].id);
		values[1] = Int64GetDatum(rows[i].cluster_id);
		values[2] = BoolGetDatum(rows[i].representative != 0);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	MemoryContextDelete(work);
	return (Datum) 0;
}
