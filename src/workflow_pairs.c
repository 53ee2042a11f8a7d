/*
 * workflow_pairs.c
 *    ndd_pairs() and ndd_feature_pairs(): every near-duplicate pair of a collection in one call,
 *    without one index probe per row (the core's batch mode, batch_pairs_api.h).
 *
 * Both read their input from a query text through a cursor into compact arrays (16 bytes per
 * simhash64 row, 24 per fp128 row, 8 per feature), call the core once and hand the pairs back in
 * a tuplestore, which spills to disk beyond work_mem.
 */
#include "ndd.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "batch_pairs_api.h"
#include "layout_api.h"
#include "query_reader.h"

PG_FUNCTION_INFO_V1(ndd_pairs);
PG_FUNCTION_INFO_V1(ndd_feature_pairs);

/* The most documents one call handles: the core numbers rows with 32 bits. */
#define NDD_MAX_DOCUMENTS ((size_t) UINT32_MAX - 1)

/* Arrays that grow by doubling inside a given memory context. */
static void *
grow(MemoryContext cxt, void *ptr, size_t *capacity, size_t needed, size_t elem_size)
{
	size_t		cap = *capacity;

	if (needed <= cap)
		return ptr;
	cap = Max(cap * 2, Max(needed, 1024));
	*capacity = cap;
	if (ptr == NULL)
		return MemoryContextAllocHuge(cxt, cap * elem_size);
	return repalloc_huge(ptr, cap * elem_size);
}

/* Raises the error for a document count beyond what the core numbers. */
static void
check_document_count(size_t n, const char *fname)
{
	if (n >= NDD_MAX_DOCUMENTS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s handles at most %zu documents", fname, NDD_MAX_DOCUMENTS)));
}

/* Raises an error naming a duplicate id among the n ids, if there is one. */
static void
check_unique_ids(const int64 *ids, size_t n, const char *argname)
{
	int			found = 0;
	int64_t		dup = 0;
	NddStatus	status = ndd_find_duplicate_id((const int64_t *) ids, n, &found, &dup);

	ndd_raise_status(status, "duplicate ids");
	if (found)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s returned the id " INT64_FORMAT " more than once", argname, (int64) dup),
				 errhint("Each row is one document: make the ids unique.")));
}

/* Reads the id of a row, refusing NULL. */
static int64
row_id(NddQueryReader *reader, HeapTuple tuple, Oid idtype)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tuple, reader->desc, 1, &isnull);

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s returned a null id", reader->argname)));
	return ndd_query_integer(d, idtype);
}

/* Appends the pairs to the function's result tuplestore as (a, b, value). */
static void
emit_pairs(FunctionCallInfo fcinfo, const NddPair *pairs, size_t npairs)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	for (size_t i = 0; i < npairs; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = Int64GetDatum(pairs[i].a);
		values[1] = Int64GetDatum(pairs[i].b);
		values[2] = Int32GetDatum(pairs[i].value);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
	}
}

/*
 * ndd_pairs(docs_sql text, k int, blocks int DEFAULT 0)
 *    RETURNS TABLE(a bigint, b bigint, distance int)
 * Every pair of rows of docs_sql (id, fingerprint) whose fingerprints are within k bits, a < b.
 */
Datum
ndd_pairs(PG_FUNCTION_ARGS)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int32		k = PG_GETARG_INT32(1);
	int32		blocks = PG_GETARG_INT32(2);
	MemoryContext work;
	NddQueryReader reader;
	HeapTuple	tuple;
	Oid			idtype,
				fptype;
	int			bits,
				words;
	int64	   *ids = NULL;
	uint64	   *fps = NULL;
	size_t		n = 0,
				cap_ids = 0,
				cap_fps = 0;
	NddPair    *pairs = NULL;
	size_t		npairs = 0;
	NddStatus	status;

	if (k < 0 || k > NDD_BATCH_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 0 and %d", NDD_BATCH_MAX_K),
				 errdetail("k is %d.", k)));
	if (blocks < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("blocks must not be negative"),
				 errhint("Use 0 to let ndd_pairs choose the block count.")));

	InitMaterializedSRF(fcinfo, 0);
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_pairs", ALLOCSET_DEFAULT_SIZES);

	SPI_connect();
	ndd_query_open(&reader, sql, "docs_sql", 2);
	ndd_query_require_integer(&reader, 1, "the document id");
	idtype = ndd_query_column_type(&reader, 1);
	fptype = ndd_query_column_type(&reader, 2);
	if (fptype == ndd_extension_type(fcinfo, "simhash64") || fptype == INT8OID)
		bits = 64;
	else if (fptype == ndd_extension_type(fcinfo, "fp128"))
		bits = 128;
	else
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column 2 of docs_sql must be a fingerprint of type simhash64 or fp128"),
				 errdetail("It has type %s.", format_type_be(fptype))));
	words = bits / 64;
	if (blocks != 0)
	{
		NddLayout	layout;

		if (ndd_layout_make(bits, k, blocks, &layout) != NDD_OK)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("blocks = %d cannot serve k = %d on %d-bit fingerprints", blocks, k, bits),
					 errhint("Use 0 to choose automatically, or a count above k with at most %d tables (blocks choose k).",
							 NDD_LAYOUT_MAX_TABLES)));
	}

	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		isnull;
		int64		id = row_id(&reader, tuple, idtype);
		Datum		fp = SPI_getbinval(tuple, reader.desc, 2, &isnull);

		if (isnull)
			continue;			/* no fingerprint, no near-duplicates */
		check_document_count(n + 1, "ndd_pairs");
		ids = grow(work, ids, &cap_ids, n + 1, sizeof(int64));
		fps = grow(work, fps, &cap_fps, (n + 1) * words, sizeof(uint64));
		ids[n] = id;
		if (bits == 64)
			fps[n] = DatumGetSimhash64(fp);
		else
		{
			Fp128	   *v = DatumGetFp128P(fp);

			fps[2 * n] = v->hi;
			fps[2 * n + 1] = v->lo;
		}
		n++;
	}
	ndd_query_close(&reader);
	SPI_finish();

	check_unique_ids(ids, n, "docs_sql");
	{
		MemoryContext old = MemoryContextSwitchTo(work);

		status = ndd_hamming_pairs(bits, (const int64_t *) ids, (const uint64_t *) fps, n, k,
								   blocks, ndd_interrupt_pending, ndd_alloc_noerror,
								   &pairs, &npairs);
		MemoryContextSwitchTo(old);
	}
	ndd_raise_status(status, "all pairs within k bits");
	emit_pairs(fcinfo, pairs, npairs);
	MemoryContextDelete(work);
	return (Datum) 0;
}

/*
 * ndd_feature_pairs(docs_sql text, min_shared int DEFAULT 2, max_df int DEFAULT 1000)
 *    RETURNS TABLE(a bigint, b bigint, shared int)
 * Every pair of rows of docs_sql (id, features bigint[]) sharing at least min_shared distinct
 * feature values. Features held by more than max_df documents are ignored, with a notice.
 */
Datum
ndd_feature_pairs(PG_FUNCTION_ARGS)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int32		min_shared = PG_GETARG_INT32(1);
	int32		max_df = PG_GETARG_INT32(2);
	MemoryContext work,
				row_cxt;
	NddQueryReader reader;
	HeapTuple	tuple;
	Oid			idtype,
				ftype;
	int64	   *ids = NULL,
			   *features = NULL;
	size_t	   *offsets = NULL;
	size_t		n = 0,
				nfeatures = 0,
				cap_ids = 0,
				cap_features = 0,
				cap_offsets = 0;
	NddPair    *pairs = NULL;
	size_t		npairs = 0,
				skipped = 0;
	NddStatus	status;

	if (min_shared < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1"),
				 errdetail("min_shared is %d.", min_shared)));
	if (max_df < 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_df must be at least 2"),
				 errdetail("max_df is %d.", max_df)));

	InitMaterializedSRF(fcinfo, 0);
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_feature_pairs", ALLOCSET_DEFAULT_SIZES);
	row_cxt = AllocSetContextCreate(work, "ndd_feature_pairs row", ALLOCSET_DEFAULT_SIZES);
	offsets = grow(work, offsets, &cap_offsets, 1, sizeof(size_t));
	offsets[0] = 0;

	SPI_connect();
	ndd_query_open(&reader, sql, "docs_sql", 2);
	ndd_query_require_integer(&reader, 1, "the document id");
	idtype = ndd_query_column_type(&reader, 1);
	ftype = ndd_query_column_type(&reader, 2);
	if (ftype != INT8ARRAYOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column 2 of docs_sql must be the features, of type bigint[]"),
				 errdetail("It has type %s.", format_type_be(ftype))));

	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		isnull;
		int64		id = row_id(&reader, tuple, idtype);
		Datum		d = SPI_getbinval(tuple, reader.desc, 2, &isnull);
		MemoryContext old;
		Datum	   *elems;
		bool	   *elem_nulls;
		int			nelems;

		if (isnull)
			continue;			/* no features, no pairs */
		check_document_count(n + 1, "ndd_feature_pairs");
		old = MemoryContextSwitchTo(row_cxt);
		deconstruct_array(DatumGetArrayTypeP(d), INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
						  &elems, &elem_nulls, &nelems);
		MemoryContextSwitchTo(old);

		features = grow(work, features, &cap_features, nfeatures + nelems, sizeof(int64));
		for (int i = 0; i < nelems; i++)
			if (!elem_nulls[i])
				features[nfeatures++] = DatumGetInt64(elems[i]);
		ids = grow(work, ids, &cap_ids, n + 1, sizeof(int64));
		offsets = grow(work, offsets, &cap_offsets, n + 2, sizeof(size_t));
		ids[n] = id;
		offsets[n + 1] = nfeatures;
		n++;
		MemoryContextReset(row_cxt);
	}
	ndd_query_close(&reader);
	SPI_finish();

	check_unique_ids(ids, n, "docs_sql");
	{
		MemoryContext old = MemoryContextSwitchTo(work);

		status = ndd_shared_feature_pairs((const int64_t *) ids, (const int64_t *) features, offsets, n,
								   min_shared, (size_t) max_df, ndd_interrupt_pending,
								   ndd_alloc_noerror, &pairs, &npairs, &skipped);
		MemoryContextSwitchTo(old);
	}
	ndd_raise_status(status, "pairs sharing features");
	if (skipped > 0)
		ereport(NOTICE,
				(errmsg_plural("ndd_feature_pairs ignored %zu feature held by more than %d documents",
							   "ndd_feature_pairs ignored %zu features held by more than %d documents each",
							   skipped, skipped, max_df),
				 errhint("Raise max_df to count them; exact duplicates are best removed first (content_hash).")));
	emit_pairs(fcinfo, pairs, npairs);
	MemoryContextDelete(work);
	return (Datum) 0;
}
