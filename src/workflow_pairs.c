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
#include "common/hashfn.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplesort.h"

#include "batch_pairs_api.h"
#include "layout_api.h"
#include "query_reader.h"

PG_FUNCTION_INFO_V1(ndd_pairs);
PG_FUNCTION_INFO_V1(ndd_feature_pairs);
PG_FUNCTION_INFO_V1(ndd_pairs_between);
PG_FUNCTION_INFO_V1(ndd_layout_table_pairs);
PG_FUNCTION_INFO_V1(ndd_layout_parts);

/* The most documents one call handles: the core numbers rows with 32 bits. */
#define NDD_MAX_DOCUMENTS ((size_t) UINT32_MAX - 1)

/* Results asked of the core per call: small, so the C++ frames come and go often. */
#define NDD_STREAM_BATCH 4096

/* A core iterator in the work context (NddCoreHandle): freed when the context goes. */
static NddCoreHandle *
core_iterator_register(MemoryContext cxt, void (*end) (void *iter))
{
	NddCoreHandle *ci = MemoryContextAllocZero(cxt, sizeof(NddCoreHandle));

	ndd_core_handle_tie(ci, cxt, end);
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

/* Raises the error for a k the batch mode does not serve, or a negative block count. */
static void
check_k_blocks(int32 k, int32 blocks, const char *fname)
{
	if (k < 0 || k > NDD_BATCH_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 0 and %d", NDD_BATCH_MAX_K),
				 errdetail("k is %d.", k)));
	if (blocks < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("blocks must not be negative"),
				 errhint("Use 0 to let %s choose the block count.", fname)));
}

/* Raises the error for a block count that gives no layout serving k (0 is always fine). */
static void
check_layout(int bits, int32 k, int32 blocks)
{
	if (blocks != 0 && ndd_layout_check(bits, k, blocks) != NDD_LAYOUT_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("blocks = %d cannot serve k = %d on %d-bit fingerprints", blocks, k, bits),
				 errhint("Use 0 to choose automatically, or a count above k with at most %d tables (blocks choose k).",
						 NDD_LAYOUT_MAX_TABLES)));
}

/*
 * The width of a fingerprint type (simhash64 or bigint: 64, fp128: 128: ndd_fingerprint_bits), or 0
 * for any other type.
 */
static int
fingerprint_bits(FunctionCallInfo fcinfo, Oid typid)
{
	if (typid != INT8OID && typid != ndd_extension_type(fcinfo, "simhash64") &&
		typid != ndd_extension_type(fcinfo, "fp128"))
		return 0;
	return ndd_fingerprint_bits(get_typlen(typid));
}

/* Fingerprint rows read into compact arrays: ids[i] and fps[i * words ...]. */
typedef struct HammingRows
{
	int			bits;			/* 0 until the first query is read */
	int64	   *ids;
	uint64	   *fps;
	size_t		n;
	size_t		cap_ids;
	size_t		cap_fps;
	bool		too_large;		/* past the budget: the rest was only counted */
} HammingRows;

/*
 * Bytes per row at the peak: the id and fingerprint, plus the larger of the duplicate-id check's
 * copy of the ids and the core's working arrays.
 */
static size_t
hamming_row_bytes(int bits)
{
	return sizeof(int64) + (bits / 64) * sizeof(uint64) +
		Max(sizeof(int64), ndd_hamming_pairs_memory(bits, 1));
}

/*
 * Appends the rows of sql (id, fingerprint) to *rows; rows without a fingerprint are skipped.
 * The fingerprint type must match the rows read before. Past maintenance_work_mem the rows are
 * counted only (rows->too_large), for the caller's error message.
 */
static void
read_hamming_rows(FunctionCallInfo fcinfo, MemoryContext work, const char *sql, const char *argname,
				  const char *fname, HammingRows *rows)
{
	NddQueryReader reader;
	HeapTuple	tuple;
	Oid			idtype,
				fptype;
	int			bits,
				words;
	size_t		max_rows;
	uint64		w[2];

	SPI_connect();
	ndd_query_open(&reader, sql, argname, 2);
	ndd_query_require_integer(&reader, 1, "the document id");
	idtype = ndd_query_column_type(&reader, 1);
	fptype = ndd_query_column_type(&reader, 2);
	bits = fingerprint_bits(fcinfo, fptype);
	if (bits == 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column 2 of %s must be a fingerprint of type simhash64 or fp128", argname),
				 errdetail("It has type %s.", format_type_be(fptype))));
	if (rows->bits != 0 && rows->bits != bits)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("the fingerprints of %s have %d bits, the others %d", argname, bits, rows->bits)));
	rows->bits = bits;
	words = bits / 64;
	max_rows = ndd_input_budget() / hamming_row_bytes(bits);
	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		isnull;
		int64		id = row_id(&reader, tuple, idtype);
		Datum		fp = SPI_getbinval(tuple, reader.desc, 2, &isnull);
		size_t		n = rows->n;

		if (isnull)
			continue;			/* no fingerprint, no near-duplicates */
		check_document_count(n + 1, fname);
		if (n + 1 > max_rows)
			rows->too_large = true; /* count the rest, to say how much memory they need */
		if (rows->too_large)
		{
			rows->n++;
			continue;
		}
		rows->ids = ndd_grow_array(work, rows->ids, &rows->cap_ids, n + 1, sizeof(int64), max_rows);
		rows->fps = ndd_grow_array(work, rows->fps, &rows->cap_fps, (n + 1) * words, sizeof(uint64),
								   max_rows * words);
		rows->ids[n] = id;
		ndd_fingerprint_words(fp, bits, w);
		memcpy(&rows->fps[n * words], w, words * sizeof(uint64));
		rows->n++;
	}
	ndd_query_close(&reader);
	SPI_finish();
}

/*
 * Runs the core's pair iterator over rows (n_new, table: ndd_hamming_pairs_begin_part) and
 * appends every pair to the function's result. Frees the work context.
 */
static void
emit_hamming_pairs(ReturnSetInfo *rsinfo, MemoryContext work, int bits, const int64 *ids,
				   const uint64 *fps, size_t n, size_t n_new, int32 k, int32 blocks, int32 table)
{
	NddCoreHandle *ci = core_iterator_register(work, end_hamming_iter);
	NddHammingPairIter *iter = NULL;
	NddPair    *buf;
	NddStatus	status;

	status = ndd_hamming_pairs_begin_part(bits, (const int64_t *) ids, (const uint64_t *) fps, n, n_new,
										  k, blocks, table, ndd_interrupt_pending, &iter);
	ci->handle = iter;
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
	HammingRows rows = {0};

	check_k_blocks(k, blocks, "ndd_pairs");
	InitMaterializedSRF(fcinfo, 0);
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_pairs", ALLOCSET_DEFAULT_SIZES);
	read_hamming_rows(fcinfo, work, sql, "docs_sql", "ndd_pairs", &rows);
	check_layout(rows.bits, k, blocks);
	if (rows.too_large)
		ndd_input_too_large("ndd_pairs", psprintf("%zu fingerprints", rows.n),
							rows.n * hamming_row_bytes(rows.bits));
	check_unique_ids(rows.ids, rows.n, "docs_sql");
	emit_hamming_pairs((ReturnSetInfo *) fcinfo->resultinfo, work, rows.bits, rows.ids, rows.fps,
					   rows.n, 0, k, blocks, -1);
	return (Datum) 0;
}

/*
 * ndd_pairs_between(new_sql text, stored_sql text, k int, blocks int DEFAULT 0)
 *    RETURNS TABLE(new_id bigint, stored_id bigint, distance int)
 * Every pair of a row of new_sql and a row of stored_sql (id, fingerprint) within k bits: the
 * crawler's daily job, one batch instead of one index probe per new row.
 */
Datum
ndd_pairs_between(PG_FUNCTION_ARGS)
{
	char	   *new_sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *stored_sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	int32		k = PG_GETARG_INT32(2);
	int32		blocks = PG_GETARG_INT32(3);
	MemoryContext work;
	HammingRows rows = {0};
	size_t		n_new;

	check_k_blocks(k, blocks, "ndd_pairs_between");
	InitMaterializedSRF(fcinfo, 0);
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_pairs_between", ALLOCSET_DEFAULT_SIZES);
	read_hamming_rows(fcinfo, work, new_sql, "new_sql", "ndd_pairs_between", &rows);
	n_new = rows.n;
	read_hamming_rows(fcinfo, work, stored_sql, "stored_sql", "ndd_pairs_between", &rows);
	if (n_new == 0 || n_new == rows.n)
	{
		MemoryContextDelete(work);	/* one side is empty: no pairs */
		return (Datum) 0;
	}
	check_layout(rows.bits, k, blocks);
	if (rows.too_large)
		ndd_input_too_large("ndd_pairs_between", psprintf("%zu fingerprints", rows.n),
							rows.n * hamming_row_bytes(rows.bits));
	check_unique_ids(rows.ids, n_new, "new_sql");
	check_unique_ids(rows.ids + n_new, rows.n - n_new, "stored_sql");
	emit_hamming_pairs((ReturnSetInfo *) fcinfo->resultinfo, work, rows.bits, rows.ids, rows.fps,
					   rows.n, n_new, k, blocks, -1);
	return (Datum) 0;
}

/*
 * ndd_layout_table_pairs(layout_table int, k int, blocks int, ids bigint[], fps simhash64[] | fp128[],
 *                        n_new int DEFAULT 0)
 *    RETURNS TABLE(a bigint, b bigint, distance int)
 * One table's share of ndd_pairs (n_new = 0) or ndd_pairs_between (the first n_new rows new) over
 * rows given as arrays: the pairs whose first shared key, in the layout's table order, is this
 * table's. A distributed job groups the rows of every table by their key (ndd_layout_parts) and
 * calls this once per group where the group is stored; every pair comes out of exactly one call.
 * blocks = 0 means k + 1 (the layout with the fewest tables, as ndd_layout_parts).
 */
Datum
ndd_layout_table_pairs(PG_FUNCTION_ARGS)
{
	int32		table = PG_GETARG_INT32(0);
	int32		k = PG_GETARG_INT32(1);
	int32		blocks = PG_GETARG_INT32(2);
	ArrayType  *id_array = PG_GETARG_ARRAYTYPE_P(3);
	ArrayType  *fp_array = PG_GETARG_ARRAYTYPE_P(4);
	int32		n_new_arg = PG_GETARG_INT32(5);
	Oid			fptype = ARR_ELEMTYPE(fp_array);
	MemoryContext work;
	Datum	   *id_elems,
			   *fp_elems;
	bool	   *id_nulls,
			   *fp_nulls;
	int			n_ids,
				n_fps,
				bits,
				words;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	int64	   *ids;
	uint64	   *fps;
	uint64		w[2];
	size_t		n = 0,
				n_new = 0;
	NddLayout	layout;

	check_k_blocks(k, blocks, "ndd_layout_table_pairs");
	if (blocks == 0)
		blocks = k + 1;
	bits = fptype == INT8OID ? 0 : fingerprint_bits(fcinfo, fptype);
	if (bits == 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("fps must be an array of simhash64 or fp128"),
				 errdetail("It is an array of %s.", format_type_be(fptype))));
	check_layout(bits, k, blocks);
	ndd_layout_make(bits, k, blocks, &layout);
	if (table < 0 || table >= layout.ntables)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("layout_table must be between 0 and %d", layout.ntables - 1),
				 errdetail("layout_table is %d; the layout of %d blocks for k = %d has %d tables.",
						   table, blocks, k, layout.ntables)));
	if (ARR_NDIM(id_array) > 1 || ARR_NDIM(fp_array) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("ids and fps must be one-dimensional arrays")));
	deconstruct_array(id_array, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &id_elems, &id_nulls, &n_ids);
	get_typlenbyvalalign(fptype, &typlen, &typbyval, &typalign);
	deconstruct_array(fp_array, fptype, typlen, typbyval, typalign, &fp_elems, &fp_nulls, &n_fps);
	if (n_ids != n_fps)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("ids has %d elements and fps %d", n_ids, n_fps)));
	if (n_new_arg < 0 || n_new_arg > n_ids)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("n_new must be between 0 and the number of rows, %d", n_ids),
				 errdetail("n_new is %d.", n_new_arg)));
	if ((size_t) n_ids * hamming_row_bytes(bits) > ndd_input_budget())
		ndd_input_too_large("ndd_layout_table_pairs", psprintf("%d fingerprints", n_ids),
							(size_t) n_ids * hamming_row_bytes(bits));

	InitMaterializedSRF(fcinfo, 0);
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_layout_table_pairs", ALLOCSET_DEFAULT_SIZES);
	words = bits / 64;
	ids = MemoryContextAlloc(work, Max(n_ids, 1) * sizeof(int64));
	fps = MemoryContextAlloc(work, Max(n_ids, 1) * words * sizeof(uint64));
	for (int i = 0; i < n_ids; i++)
	{
		if (id_nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("ids holds a null id")));
		if (fp_nulls[i])
			continue;			/* no fingerprint, no near-duplicates */
		ids[n] = DatumGetInt64(id_elems[i]);
		ndd_fingerprint_words(fp_elems[i], bits, w);
		memcpy(&fps[n * words], w, words * sizeof(uint64));
		n++;
		if (i < n_new_arg)
			n_new++;
	}
	if (n_new_arg > 0)
	{
		check_unique_ids(ids, n_new, "the new rows");
		check_unique_ids(ids + n_new, n - n_new, "the stored rows");
		if (n_new == 0 || n_new == n)
		{
			MemoryContextDelete(work);	/* one side is empty: no pairs */
			return (Datum) 0;
		}
	}
	else
		check_unique_ids(ids, n, "ids");
	emit_hamming_pairs((ReturnSetInfo *) fcinfo->resultinfo, work, bits, ids, fps, n, n_new, k, blocks,
					   table);
	return (Datum) 0;
}

/*
 * ndd_layout_parts(fp simhash64 | fp128, k int, blocks int DEFAULT 0, parts int DEFAULT 4096)
 *    RETURNS int[]
 * For each table of the layout (blocks = 0: k + 1 blocks, the fewest tables), in table order, the
 * part in [0, parts) of fp's key in that table: a hash of (table, key), so rows with equal keys in a
 * table always share a part. Distributing rows by part puts every group of rows that can hold a
 * pair (a key of a table) on one shard, and a radius query within k needs only the parts of its
 * own keys, at most one per table.
 */
Datum
ndd_layout_parts(PG_FUNCTION_ARGS)
{
	Oid			fptype = get_fn_expr_argtype(fcinfo->flinfo, 0);
	int32		k = PG_GETARG_INT32(1);
	int32		blocks = PG_GETARG_INT32(2);
	int32		parts = PG_GETARG_INT32(3);
	uint64		fp[2] = {0, 0};
	int			bits;
	NddLayout	layout;
	Datum	   *elems;

	bits = fptype == ndd_extension_type(fcinfo, "fp128") ? 128 : 64;
	ndd_fingerprint_words(PG_GETARG_DATUM(0), bits, fp);
	check_k_blocks(k, blocks, "ndd_layout_parts");
	if (blocks == 0)
		blocks = k + 1;
	check_layout(bits, k, blocks);
	if (parts < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parts must be at least 1"),
				 errdetail("parts is %d.", parts)));
	ndd_layout_make(bits, k, blocks, &layout);
	elems = palloc(layout.ntables * sizeof(Datum));
	for (int t = 0; t < layout.ntables; t++)
	{
		/* keys longer than 64 bits (fp128, k = 0 or 1): equal keys have equal first 64 bits */
		uint64		key = ndd_layout_key(&layout, t, (const uint64_t *) fp, 64);
		uint64		h = hash_bytes_uint32_extended((uint32) t, key);

		elems[t] = Int32GetDatum((int32) (h % (uint64) parts));
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, layout.ntables, INT4OID, 4, true, TYPALIGN_INT));
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
	NddCoreHandle *ci;
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
	ci->handle = iter;
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
	ndd_core_handle_release(ci);	/* its entries are no longer needed */
	tuplesort_performsort(sort);

	for (size_t i = 0;; i++)
	{
		bool		more = ndd_tuplesort_getdatum(sort, true, &value, &isnull);

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
