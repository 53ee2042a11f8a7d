/*
 * workflow_pairs.c
 *    ndd_pairs() and ndd_feature_pairs(): every near-duplicate pair of a collection in one call,
 *    without one index probe per row (the core's batch mode, batch_pairs_api.h).
 *
 * Both read their input from a query text through a cursor into compact arrays (16 bytes per
 * simhash64 row, 24 per fp128 row, 8 per feature): that input and the core's working arrays over
 * it are bounded by maintenance_work_mem (query_reader.h), checked while reading. The answer can be
 * quadratic in the input (n identical fingerprints make n(n-1)/2 pairs), so it is never held: the
 * core's iterator (batch_pairs_api.h) fills a small buffer at a time, with no C++ frame on the
 * stack while the pairs go into the result tuplestore (which spills beyond work_mem) and while we
 * check for interrupts. The iterator handle is freed by a reset callback of the work context, so an
 * error or a cancel unwinding through here frees it too. Feature pairs count their shared
 * features by sorting the candidates with a tuplesort (spills beyond work_mem).
 */
#include "ndd.h"

#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplesort.h"

#include "batch_pairs_api.h"
#include "layout_api.h"
#include "query_reader.h"

PG_FUNCTION_INFO_V1(ndd_pairs);
PG_FUNCTION_INFO_V1(ndd_feature_pairs);

/* The most documents one call handles: the core numbers rows with 32 bits. */
#define NDD_MAX_DOCUMENTS ((size_t) UINT32_MAX - 1)

/* Results asked of the core per call: small, so the C++ frames come and go often. */
#define NDD_STREAM_BATCH 4096

/*
 * A core iterator owned by a memory context: freed when the context is reset or deleted, whether
 * the function ends normally or an error unwinds through it.
 */
typedef struct CoreIterator
{
	void	   *iter;
	void		(*end) (void *iter);
	MemoryContextCallback callback;
} CoreIterator;

static void
core_iterator_release(void *arg)
{
	CoreIterator *ci = (CoreIterator *) arg;

	if (ci->iter != NULL)
		ci->end(ci->iter);
	ci->iter = NULL;
}

static CoreIterator *
core_iterator_register(MemoryContext cxt, void (*end) (void *iter))
{
	CoreIterator *ci = MemoryContextAllocZero(cxt, sizeof(CoreIterator));

	ci->end = end;
	ci->callback.func = core_iterator_release;
	ci->callback.arg = ci;
	MemoryContextRegisterResetCallback(cxt, &ci->callback);
	return ci;
}

static void
end_hamming_iter(void *iter)
{
	ndd_hamming_pairs_end((NddHammingPairIter *) iter);
}

static void
end_feature_iter(void *iter)
{
	ndd_feature_candidates_end((NddFeatureCandidateIter *) iter);
}

/* Appends one pair to the function's result tuplestore as (a, b, value). */
static void
emit_pair(ReturnSetInfo *rsinfo, int64 a, int64 b, int32 value)
{
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	values[0] = Int64GetDatum(a);
	values[1] = Int64GetDatum(b);
	values[2] = Int32GetDatum(value);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
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

/*
 * Bytes ndd_feature_pairs holds at its peak for docs documents with feats features: ids, offsets
 * and features, plus the larger of the duplicate-id check's copy of the ids and the core's
 * (feature, document) entries.
 */
static size_t
feature_memory(size_t docs, size_t feats)
{
	return docs * (sizeof(int64) + sizeof(size_t)) + feats * sizeof(int64) +
		Max(docs * sizeof(int64), ndd_feature_candidates_memory(docs, feats));
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
	ReturnSetInfo *rsinfo;
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
				cap_fps = 0,
				row_bytes,
				max_rows;
	bool		too_large = false;
	CoreIterator *ci;
	NddHammingPairIter *iter = NULL;
	NddPair    *buf;
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
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
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

	/*
	 * Bytes per row at the peak: the id and fingerprint, plus the larger of the duplicate-id
	 * check's copy of the ids and the core's working arrays.
	 */
	row_bytes = sizeof(int64) + words * sizeof(uint64) +
		Max(sizeof(int64), ndd_hamming_pairs_memory(bits, 1));
	max_rows = ndd_input_budget() / row_bytes;
	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		isnull;
		int64		id = row_id(&reader, tuple, idtype);
		Datum		fp = SPI_getbinval(tuple, reader.desc, 2, &isnull);

		if (isnull)
			continue;			/* no fingerprint, no near-duplicates */
		check_document_count(n + 1, "ndd_pairs");
		if (n + 1 > max_rows)
			too_large = true;	/* count the rest, to say how much memory they need */
		if (too_large)
		{
			n++;
			continue;
		}
		ids = ndd_grow_array(work, ids, &cap_ids, n + 1, sizeof(int64), max_rows);
		fps = ndd_grow_array(work, fps, &cap_fps, (n + 1) * words, sizeof(uint64), max_rows * words);
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
	if (too_large)
		ndd_input_too_large("ndd_pairs", psprintf("%zu fingerprints", n), n * row_bytes);

	check_unique_ids(ids, n, "docs_sql");

	ci = core_iterator_register(work, end_hamming_iter);
	status = ndd_hamming_pairs_begin(bits, (const int64_t *) ids, (const uint64_t *) fps, n, k,
									 blocks, ndd_interrupt_pending, &iter);
	ci->iter = iter;
	ndd_raise_status(status, "all pairs within k bits");
	buf = MemoryContextAlloc(work, NDD_STREAM_BATCH * sizeof(NddPair));
	for (;;)
	{
		size_t		got;

		status = ndd_hamming_pairs_next(iter, buf, NDD_STREAM_BATCH, &got);
		ndd_raise_status(status, "all pairs within k bits");
		if (got == 0)
			break;
		for (size_t i = 0; i < got; i++)
			emit_pair(rsinfo, buf[i].a, buf[i].b, buf[i].value);
		CHECK_FOR_INTERRUPTS();
	}
	MemoryContextDelete(work);	/* frees the iterator through its callback */
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
	ReturnSetInfo *rsinfo;
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
				cap_offsets = 0,
				skipped = 0,
				budget = ndd_input_budget();
	bool		too_large = false;
	CoreIterator *ci;
	NddFeatureCandidateIter *iter = NULL;
	uint64	   *buf;
	Tuplesortstate *sort;
	NddStatus	status;
	Datum		value;
	bool		isnull;
	int64		run_value = 0;
	int32		run_length = 0;

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
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_feature_pairs", ALLOCSET_DEFAULT_SIZES);
	row_cxt = AllocSetContextCreate(work, "ndd_feature_pairs row", ALLOCSET_DEFAULT_SIZES);
	offsets = ndd_grow_array(work, offsets, &cap_offsets, 1, sizeof(size_t), 1);
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
		int64		id = row_id(&reader, tuple, idtype);
		Datum		d = SPI_getbinval(tuple, reader.desc, 2, &isnull);
		MemoryContext old;
		Datum	   *elems;
		bool	   *elem_nulls;
		int			nelems;
		size_t		kept = 0;

		if (isnull)
			continue;			/* no features, no pairs */
		check_document_count(n + 1, "ndd_feature_pairs");
		old = MemoryContextSwitchTo(row_cxt);
		deconstruct_array(DatumGetArrayTypeP(d), INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
						  &elems, &elem_nulls, &nelems);
		MemoryContextSwitchTo(old);
		for (int i = 0; i < nelems; i++)
			kept += !elem_nulls[i];

		if (!too_large && feature_memory(n + 1, nfeatures + kept) > budget)
			too_large = true;	/* count the rest, to say how much memory they need */
		if (!too_large)
		{
			/* capacities never go beyond what the budget allows */
			features = ndd_grow_array(work, features, &cap_features, nfeatures + kept,
									  sizeof(int64), budget / sizeof(int64) / 3);
			for (int i = 0; i < nelems; i++)
				if (!elem_nulls[i])
					features[nfeatures++] = DatumGetInt64(elems[i]);
			ids = ndd_grow_array(work, ids, &cap_ids, n + 1, sizeof(int64), budget / sizeof(int64) / 3);
			offsets = ndd_grow_array(work, offsets, &cap_offsets, n + 2, sizeof(size_t),
									 budget / sizeof(size_t) / 3);
			ids[n] = id;
			offsets[n + 1] = nfeatures;
		}
		else
			nfeatures += kept;
		n++;
		MemoryContextReset(row_cxt);
	}
	ndd_query_close(&reader);
	SPI_finish();
	if (too_large)
		ndd_input_too_large("ndd_feature_pairs", psprintf("%zu documents with %zu features", n, nfeatures),
							feature_memory(n, nfeatures));

	check_unique_ids(ids, n, "docs_sql");

	ci = core_iterator_register(work, end_feature_iter);
	status = ndd_feature_candidates_begin((const int64_t *) features, offsets, n, (size_t) max_df,
										  ndd_interrupt_pending, &iter, &skipped);
	ci->iter = iter;
	ndd_raise_status(status, "pairs sharing features");
	/* the core holds its own (feature, document) entries now */
	if (features)
		pfree(features);
	pfree(offsets);
	if (skipped > 0)
		ereport(NOTICE,
				(errmsg_plural("ndd_feature_pairs ignored %zu feature held by more than %d documents",
							   "ndd_feature_pairs ignored %zu features held by more than %d documents each",
							   skipped, skipped, max_df),
				 errhint("Raise max_df to count them; exact duplicates are best removed first (content_hash).")));

	/*
	 * A pair sharing s features comes out of the core s times, not adjacently: a sort brings the
	 * copies together (as one int8 per candidate; the signed order does not matter, only the
	 * grouping) and the length of each run of equal values is the number of shared features.
	 */
	sort = tuplesort_begin_datum(INT8OID, Int8LessOperator, InvalidOid, false, work_mem, NULL,
								 TUPLESORT_NONE);
	buf = MemoryContextAlloc(work, NDD_STREAM_BATCH * sizeof(uint64));
	for (;;)
	{
		size_t		got;

		status = ndd_feature_candidates_next(iter, (uint64_t *) buf, NDD_STREAM_BATCH, &got);
		ndd_raise_status(status, "pairs sharing features");
		if (got == 0)
			break;
		for (size_t i = 0; i < got; i++)
			tuplesort_putdatum(sort, Int64GetDatum((int64) buf[i]), false);
		CHECK_FOR_INTERRUPTS();
	}
	ci->iter = NULL;
	ndd_feature_candidates_end(iter);	/* its entries are no longer needed */
	tuplesort_performsort(sort);

	for (size_t i = 0;; i++)
	{
		bool		more = tuplesort_getdatum(sort, true, &value, &isnull, NULL);

		if (run_length > 0 && (!more || DatumGetInt64(value) != run_value))
		{
			if (run_length >= min_shared)
			{
				uint64		packed = (uint64) run_value;
				int64		a = ids[packed >> 32],
							b = ids[packed & 0xffffffff];

				if (a != b)
					emit_pair(rsinfo, Min(a, b), Max(a, b), run_length);
			}
			run_length = 0;
		}
		if (!more)
			break;
		run_value = DatumGetInt64(value);
		run_length++;
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	tuplesort_end(sort);
	MemoryContextDelete(work);
	return (Datum) 0;
}
