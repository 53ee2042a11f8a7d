/*
 * jaccard_pairs.h
 *    What the two paths of ndd_jaccard_pairs() and ndd_containment_pairs() share: the in-memory
 *    path (jaccard_pairs.c: the core's job does the whole pass) and the disk path (jaccard_spill.c:
 *    the same method with every structure that grows with the collection on disk), taken once the
 *    documents' shingle sets outgrow maintenance_work_mem. Both take their candidates by the core's
 *    rule (ndd_jaccard_band_candidate, ndd_containment_candidate in jaccard_pairs_api.h) and
 *    verify them with the core's ndd_jaccard_verify, so both give the same pairs.
 */
#ifndef NDD_JACCARD_PAIRS_H
#define NDD_JACCARD_PAIRS_H

#include "ndd.h"

#include "funcapi.h"
#include "utils/timestamp.h"

#include "jaccard_pairs_api.h"

/* Seconds between progress notices of a long call. */
#define NDD_JACCARD_PROGRESS_SECS 10

/*
 * A progress notice every NDD_JACCARD_PROGRESS_SECS seconds: what the call is doing, how far
 * (x of total; total = 0 when unknown), and the pairs found so far.
 */
static inline void
ndd_jaccard_progress(TimestampTz *last, const char *fname, const char *what, size_t x, size_t total,
			   uint64 pairs)
{
	TimestampTz now = GetCurrentTimestamp();

	if (!TimestampDifferenceExceeds(*last, now, NDD_JACCARD_PROGRESS_SECS * 1000))
		return;
	*last = now;
	if (total == 0)
		ereport(NOTICE, (errmsg("%s: %s %zu, " UINT64_FORMAT " pairs so far", fname, what, x, pairs)));
	else
		ereport(NOTICE,
				(errmsg("%s: %s %zu of %zu, " UINT64_FORMAT " pairs so far", fname, what, x, total, pairs)));
}

/* Appends one pair to the function's result tuplestore as (a, b, value). */
static inline void
ndd_jaccard_put_pair(ReturnSetInfo *rsinfo, const NddJaccardResult *r)
{
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	values[0] = Int64GetDatum(r->a);
	values[1] = Int64GetDatum(r->b);
	values[2] = Float8GetDatum(r->value);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/* ---- the disk path (jaccard_spill.c) ---- */
typedef struct JaccardSpill JaccardSpill;

/* Starts the disk path of a call whose measure is NDD_MEASURE_*, in cxt (freed with it). */
extern JaccardSpill *ndd_jaccard_spill_begin(MemoryContext cxt, int measure);

/* Bytes the core job may hold before ndd_jaccard_spill_flush empties it into the spill. */
extern size_t ndd_jaccard_spill_flush_bytes(const JaccardSpill *sp);

/* Moves every document the core job holds into the spill, and empties the job. */
extern void ndd_jaccard_spill_flush(JaccardSpill *sp, NddJaccardJob *job, const char *fname);

/*
 * The pass of the disk path over every document flushed (first checking their ids): the pairs go
 * into the function's result. Returns their number.
 */
extern uint64 ndd_jaccard_spill_pass(JaccardSpill *sp, NddJaccardJob *job, ReturnSetInfo *rsinfo,
									 const char *fname, TimestampTz *last);

/* Raises the error of docs_sql returning id twice. */
pg_noreturn extern void ndd_jaccard_duplicate_id(int64 id);

#endif							/* NDD_JACCARD_PAIRS_H */
