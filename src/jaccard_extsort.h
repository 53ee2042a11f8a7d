/*
 * jaccard_extsort.h
 *    The external sort of the disk path of ndd_jaccard_pairs() and ndd_containment_pairs()
 *    (jaccard_spill.c): 16-byte records (hi, lo), handed back in (hi, lo) order, in memory while they
 *    fit its share of maintenance_work_mem, else through temporary files split by their leading bits
 *    (jaccard_extsort.c says how and why).
 */
#ifndef NDD_JACCARD_EXTSORT_H
#define NDD_JACCARD_EXTSORT_H

#include "ndd.h"

#include "jaccard_pairs_api.h"

typedef struct JaccardExtSort JaccardExtSort;

/* A sort holding at most mem_bytes of records in memory (plus its files' buffers, mem_bytes / 2). */
extern JaccardExtSort *ndd_extsort_begin(MemoryContext cxt, size_t mem_bytes);

/* Adds one record (before ndd_extsort_performsort). */
extern void ndd_extsort_put(JaccardExtSort *es, uint64 hi, uint64 lo);

/* Ends the input: the records can now be read in order. */
extern void ndd_extsort_performsort(JaccardExtSort *es);

/* The next record in (hi, lo) order into *out; false once every record was handed out. */
extern bool ndd_extsort_next(JaccardExtSort *es, NddJaccardRecord *out);

/* Frees the sort's memory and closes its files. */
extern void ndd_extsort_end(JaccardExtSort *es);

#endif							/* NDD_JACCARD_EXTSORT_H */
