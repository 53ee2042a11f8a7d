/*
 * jaccard_pairs.c
 *    ndd_jaccard_pairs() and ndd_containment_pairs(): every pair of a collection whose exact
 *    word-shingle resemblance (or containment) reaches a threshold, in one call; ndd_jaccard_bands()
 *    and ndd_jaccard_banding(), the LSH band keys for asking the same of one document through a GIN
 *    index. The method is the core's (jaccard_pairs_api.h).
 *
 * The documents are read through a cursor and handed to the core one at a time; the core keeps
 * their shingle-hash sets and band keys behind an opaque handle owned by the call's memory context
 * (NddCoreHandle), so an error or a cancel anywhere cannot leak it. What the core holds is counted
 * against maintenance_work_mem (a batch job over a whole collection, like CREATE INDEX): within it
 * this file's in-memory path runs the core's whole pass; beyond it the call goes on with the disk
 * path (jaccard_spill.c). Pairs come back from the core in batches into the result tuplestore,
 * which spills to disk beyond work_mem; interrupts are checked between batches and inside the core.
 */
#include "jaccard_pairs.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "batch_pairs_api.h"
#include "fingerprint_api.h"
#include "fingerprint_args.h"
#include "jaccard_pairs_api.h"
#include "query_reader.h"

PG_FUNCTION_INFO_V1(ndd_jaccard_pairs);
PG_FUNCTION_INFO_V1(ndd_containment_pairs);
PG_FUNCTION_INFO_V1(ndd_jaccard_bands);
PG_FUNCTION_INFO_V1(ndd_jaccard_banding);

/* Results fetched from the core per call: a few hundred kB, between interrupt checks. */
#define NDD_JACCARD_BATCH 8192

/*
 * Rows of docs_sql per cursor fetch: the fetched rows are held at once, so with texts of any size
 * they are few (the fetch itself costs little next to tokenizing a document).
 */
#define NDD_JACCARD_FETCH_ROWS 64

/* Frees the core job when the call's memory context goes, normally or on error (NddCoreHandle). */
static void
free_job(void *job)
{
	ndd_jaccard_job_free((NddJaccardJob *) job);
}

static void
check_threshold(double threshold)
{
	if (!(threshold > 0 && threshold <= 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("threshold must be greater than 0 and at most 1"),
				 errdetail("The value given was %g.", threshold),
				 errhint("Threshold 0 would make every pair an answer; ask for a positive similarity.")));
}

/* The banding for threshold and hashes, or 22023 when no banding reaches the miss bound. */
static void
banding_of(double threshold, int32 hashes, int *bands, int *rows, double *miss)
{
	check_threshold(threshold);
	ndd_check_param("hashes", hashes, 1, NDD_JACCARD_MAX_HASHES);
	if (ndd_jaccard_choose_bands(threshold, hashes, NDD_JACCARD_DEFAULT_MISS, bands, rows, miss) != NDD_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("threshold %g is too low for a sketch of %d hashes", threshold, hashes),
				 errdetail("No banding of %d hashes misses a pair at the threshold with probability at most %g.",
						   hashes, NDD_JACCARD_DEFAULT_MISS),
				 errhint("Use more hashes (up to %d) or a higher threshold.", NDD_JACCARD_MAX_HASHES)));
}

/*
 * Moves the documents the job holds to disk, starting the disk path the first time (n documents
 * read so far, for the message). Returns the spill.
 */
static JaccardSpill *
to_disk(JaccardSpill *spill, MemoryContext work, int measure, NddJaccardJob *job, size_t n, const char *fname)
{
	if (!spill)
	{
		ereport(DEBUG1,
				(errmsg("%s: %zu documents exceed maintenance_work_mem (%d kB), continuing on disk",
						fname, n, maintenance_work_mem)));
		spill = ndd_jaccard_spill_begin(work, measure);
	}
	ndd_jaccard_spill_flush(spill, job, fname);
	return spill;
}

/*
 * Bytes the core's job needs to add one document of len bytes beyond what it holds: the token
 * stream (its text and offsets), the shingle hashes, and the document's entries in the job's sets,
 * whose vector may double while they are appended. A token takes at least two bytes of input, so
 * 26 bytes per input byte bound it without reading the text; past a thirty-second of the budget
 * the text is read once to count it (ndd_fp_shingle_set_bytes: token bytes, offsets, and 16
 * bytes per shingle), twice that covering the hashes and the doubling.
 */
static size_t
document_bytes(const char *body, size_t len, int32 shingle, int32 tokenizer, const char *fname)
{
	size_t		set_bytes;

	if ((double) len * 26.0 <= (double) ndd_input_budget() / 32.0)
		return len * 26;
	ndd_raise_status(ndd_fp_shingle_set_bytes(body, len, shingle, &set_bytes, tokenizer, ndd_interrupt_pending), fname);
	return len + 2 * set_bytes;
}

/*
 * The shared body: read (id, body[, sketch]) rows of docs_sql into a core job (moving it to disk
 * whenever it outgrows its share of maintenance_work_mem), check ids, then stream the pairs into
 * the result tuplestore.
 */
static void
pairs_srf(FunctionCallInfo fcinfo, int measure, double threshold, int32 shingle, int32 hashes,
		  int32 tokenizer, const char *fname)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ReturnSetInfo *rsinfo;
	MemoryContext work,
				row_cxt,
				old;
	NddCoreHandle *owner;
	NddJaccardJob *job = NULL;
	NddQueryReader reader;
	HeapTuple	tuple;
	Oid			idtype,
				bodytype;
	bool		has_sketch = false;
	int64	   *ids = NULL;		/* the ids of the documents the job holds */
	size_t		n = 0,
				n_ids = 0,
				cap_ids = 0;
	NddJaccardResult *batch;
	int			done = 0;
	uint64		npairs = 0;
	TimestampTz last = GetCurrentTimestamp();
	NddStatus	status;
	int			found = 0;
	int64_t		dup = 0;
	JaccardSpill *spill = NULL;
	size_t		budget = ndd_input_budget();
	size_t		need;

	ndd_check_param("shingle", shingle, 1, NDD_MAX_SHINGLE);
	if (measure == NDD_MEASURE_JACCARD)
	{
		int			bands,
					rows;
		double		miss;

		banding_of(threshold, hashes, &bands, &rows, &miss);
	}
	else
		check_threshold(threshold);

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd jaccard pairs", ALLOCSET_DEFAULT_SIZES);
	row_cxt = AllocSetContextCreate(work, "row", ALLOCSET_DEFAULT_SIZES);

	/* the job is owned by work: freed whenever work goes */
	owner = MemoryContextAllocZero(work, sizeof(NddCoreHandle));
	ndd_core_handle_tie(owner, work, free_job);
	status = ndd_jaccard_job_create(measure, threshold, shingle, hashes, NDD_JACCARD_DEFAULT_MISS, tokenizer,
									&job);
	owner->handle = job;
	ndd_raise_status(status, fname);

	SPI_connect();
	ndd_query_open(&reader, sql, "docs_sql", 2);
	reader.fetch_rows = NDD_JACCARD_FETCH_ROWS;
	ndd_query_require_integer(&reader, 1, "the document id");
	idtype = ndd_query_column_type(&reader, 1);
	bodytype = ndd_query_column_type(&reader, 2);
	if (bodytype != TEXTOID && bodytype != VARCHAROID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column 2 of docs_sql must be the document body, of type text"),
				 errdetail("It has type %s.", format_type_be(bodytype))));
	if (measure == NDD_MEASURE_JACCARD && reader.desc->natts >= 3)
	{
		/* a third column holds stored sketches: they choose the candidates, the text decides */
		if (ndd_query_column_type(&reader, 3) != INT8ARRAYOID)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("column 3 of docs_sql must be the document's minhash sketch, of type bigint[]"),
					 errdetail("It has type %s.", format_type_be(ndd_query_column_type(&reader, 3))),
					 errhint("Return shingle_minhash(body, shingle, hashes) with the same shingle and hashes, or only (id, body).")));
		has_sketch = true;
	}

	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(tuple, reader.desc, 1, &isnull);
		int64		id;
		const char *body;
		size_t		len;
		const int64 *sketch = NULL;

		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("docs_sql returned a null id")));
		id = ndd_query_integer(d, idtype);
		d = SPI_getbinval(tuple, reader.desc, 2, &isnull);
		if (isnull)
			continue;			/* no text: jaccard() is NULL with any other, never >= threshold */
		old = MemoryContextSwitchTo(row_cxt);
		body = ndd_text_utf8(DatumGetTextPP(d), &len);
		if (has_sketch)
		{
			d = SPI_getbinval(tuple, reader.desc, 3, &isnull);
			if (!isnull)
			{
				int			nsketch;

				/* a null sketch is computed from the text */
				sketch = ndd_int8_array_values(DatumGetArrayTypeP(d), "sketch", &nsketch);
				if (nsketch != hashes)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("the sketch of document " INT64_FORMAT " has %d elements, hashes is %d",
									id, nsketch, hashes),
							 errhint("Pass hashes => the size of the stored sketches, computed with the same shingle size.")));
			}
		}
		MemoryContextSwitchTo(old);

		/*
		 * One document's own working memory (its token stream, its shingle hashes, its share of
		 * the job's sets as they grow) is counted too (issue 20: two 90 MB texts took 529 MB at
		 * maintenance_work_mem = 64MB): the documents held so far go to disk first when both
		 * would not fit, and a document that alone needs more than the budget is refused. (Small
		 * documents overshoot the budget by their own need at most, checked after each below.)
		 */
		need = document_bytes(body, len, shingle, tokenizer, fname);
		if (need > budget)
			ndd_input_too_large(fname, psprintf("document " INT64_FORMAT " (%zu bytes of text)", id, len), need);
		if (n_ids > 0 && need > budget / 8 && ndd_jaccard_job_bytes(job) + need > budget)
		{
			spill = to_disk(spill, work, measure, job, n, fname);
			n_ids = 0;			/* on disk, in the documents' records */
		}
		status = ndd_jaccard_job_add(job, id, body, len, (const uint64_t *) sketch, ndd_interrupt_pending);
		ndd_raise_status(status, fname);
		MemoryContextReset(row_cxt);

		if (n_ids + 1 >= cap_ids)
		{
			cap_ids = Max(1024, cap_ids * 2);
			ids = ids ? repalloc_huge(ids, cap_ids * sizeof(int64))
				: MemoryContextAllocHuge(work, cap_ids * sizeof(int64));
		}
		ids[n_ids++] = id;
		n++;

		/*
		 * Checked after every document (the core's size is O(1) to read): one large text can exceed
		 * the budget. In memory up to maintenance_work_mem; then to disk, in batches of half of it.
		 */
		if (ndd_jaccard_job_bytes(job) > (spill ? ndd_jaccard_spill_flush_bytes(spill) : budget))
		{
			spill = to_disk(spill, work, measure, job, n, fname);
			n_ids = 0;
		}
		if ((n & 255) == 0)
			ndd_jaccard_progress(&last, fname, "reading: document", n, 0, 0);
	}
	ndd_query_close(&reader);
	SPI_finish();
	if (spill)
		ndd_jaccard_spill_flush(spill, job, fname);

	if (spill)
	{
		ndd_jaccard_spill_pass(spill, job, rsinfo, fname, &last);
		MemoryContextDelete(work);
		return;
	}
	ndd_raise_status(ndd_find_duplicate_id((const int64_t *) ids, n_ids, &found, &dup), "duplicate ids");
	if (found)
		ndd_jaccard_duplicate_id((int64) dup);
	batch = MemoryContextAlloc(work, NDD_JACCARD_BATCH * sizeof(NddJaccardResult));
	while (!done)
	{
		size_t		got = 0,
					progress = 0,
					total = 0;

		status = ndd_jaccard_job_next(job, batch, NDD_JACCARD_BATCH, &got, &done, &progress, &total,
									  ndd_interrupt_pending);
		ndd_raise_status(status, fname);
		for (size_t i = 0; i < got; i++)
			ndd_jaccard_put_pair(rsinfo, &batch[i]);
		npairs += got;
		CHECK_FOR_INTERRUPTS();
		ndd_jaccard_progress(&last, fname, measure == NDD_MEASURE_JACCARD ? "band" : "document",
					   progress, Max(total, 1), npairs);
	}
	MemoryContextDelete(work);
}

/*
 * ndd_jaccard_pairs(docs_sql text, threshold float8, shingle int DEFAULT 4, hashes int DEFAULT 128,
 *                   tokenizer text DEFAULT 'words')
 *    RETURNS TABLE(a bigint, b bigint, jaccard float8)
 * Every pair of rows of docs_sql (id, body) with jaccard(a.body, b.body, shingle, tokenizer) >= threshold,
 * once, a < b.
 */
Datum
ndd_jaccard_pairs(PG_FUNCTION_ARGS)
{
	pairs_srf(fcinfo, NDD_MEASURE_JACCARD, PG_GETARG_FLOAT8(1), PG_GETARG_INT32(2), PG_GETARG_INT32(3),
			  ndd_tokenizer_arg(fcinfo, 4), "ndd_jaccard_pairs");
	return (Datum) 0;
}

/*
 * ndd_containment_pairs(docs_sql text, threshold float8, shingle int DEFAULT 4,
 *                       tokenizer text DEFAULT 'words')
 *    RETURNS TABLE(a bigint, b bigint, containment float8)
 * Every ordered pair of distinct rows with containment(a.body, b.body, shingle, tokenizer) >=
 * threshold.
 */
Datum
ndd_containment_pairs(PG_FUNCTION_ARGS)
{
	pairs_srf(fcinfo, NDD_MEASURE_CONTAINMENT, PG_GETARG_FLOAT8(1), PG_GETARG_INT32(2), 1,
			  ndd_tokenizer_arg(fcinfo, 3), "ndd_containment_pairs");
	return (Datum) 0;
}

/*
 * ndd_jaccard_bands(sketch bigint[], threshold float8) -> bigint[]: the band keys of a minhash
 * sketch for threshold (the banding ndd_jaccard_banding(threshold, length of sketch) shows). Two
 * documents with resemblance >= threshold share a key with probability >= 1 - 1e-6, so
 * `bands && ndd_jaccard_bands(shingle_minhash($1, 4, 128), 0.9)` through a GIN index finds the
 * candidates, and jaccard() decides.
 */
Datum
ndd_jaccard_bands(PG_FUNCTION_ARGS)
{
	int			nsketch;
	const int64 *sketch = ndd_int8_array_values(PG_GETARG_ARRAYTYPE_P(0), "sketch", &nsketch);
	double		threshold = PG_GETARG_FLOAT8(1);
	int			bands,
				rows;
	double		miss;
	int64	   *keys;

	if (nsketch < 1 || nsketch > NDD_JACCARD_MAX_HASHES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sketch must have between 1 and %d elements", NDD_JACCARD_MAX_HASHES),
				 errdetail("It has %d.", nsketch)));
	banding_of(threshold, nsketch, &bands, &rows, &miss);
	keys = palloc(sizeof(int64) * bands);
	ndd_raise_status(ndd_jaccard_band_keys((const uint64_t *) sketch, nsketch, bands, rows, (uint64_t *) keys),
					 "ndd_jaccard_bands");
	PG_RETURN_ARRAYTYPE_P(ndd_int8_array(keys, bands));
}

/*
 * ndd_jaccard_banding(threshold float8, hashes int DEFAULT 128)
 *    RETURNS (bands int, rows int, miss_probability float8)
 * The banding ndd_jaccard_pairs and ndd_jaccard_bands use.
 */
Datum
ndd_jaccard_banding(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};
	int			bands,
				rows;
	double		miss;

	banding_of(PG_GETARG_FLOAT8(0), PG_GETARG_INT32(1), &bands, &rows, &miss);
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int32GetDatum(bands);
	values[1] = Int32GetDatum(rows);
	values[2] = Float8GetDatum(miss);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
