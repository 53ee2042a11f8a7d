/*
 * query_reader.h
 *    Reading the rows of a query text given by the user (pgRouting style: "docs_sql returns
 *    (id, fp)"), batch by batch through an SPI cursor, with the column checks every workflow
 *    function needs.
 */
#ifndef NDD_QUERY_READER_H
#define NDD_QUERY_READER_H

#include "postgres.h"

#include "pg_compat.h"

#include "access/tupdesc.h"
#include "executor/spi.h"

/* An open cursor over a user query, and the batch currently being read. */
typedef struct NddQueryReader
{
	const char *argname;		/* the SQL argument the query came from, for messages */
	Portal		portal;
	TupleDesc	desc;			/* the query's result columns */
	SPITupleTable *batch;
	uint64		pos;			/* next row of batch */
	long		fetch_rows;		/* rows per batch; 0 (what open sets): NDD_FETCH_ROWS. Readers of
								 * rows of unbounded size (document texts) take fewer, so that one
								 * batch is not a memory of its own */
} NddQueryReader;

/*
 * Opens a cursor for sql (the caller has called SPI_connect) and checks that it returns at least
 * min_columns columns.
 */
extern void ndd_query_open(NddQueryReader *reader, const char *sql, const char *argname,
						   int min_columns);

/* The next row (valid until the next call), or NULL at the end. Checks for interrupts. */
extern HeapTuple ndd_query_next(NddQueryReader *reader);

/* Closes the cursor. */
extern void ndd_query_close(NddQueryReader *reader);

/* The type of column attno (1-based). */
extern Oid	ndd_query_column_type(NddQueryReader *reader, int attno);

/* Raises 42804 unless column attno is smallint, integer or bigint; what names it ("an id"). */
extern void ndd_query_require_integer(NddQueryReader *reader, int attno, const char *what);

/* An integer column's value as int64 (after ndd_query_require_integer). */
extern int64 ndd_query_integer(Datum value, Oid typid);

/* The OID of a type of this extension, found in the schema of the calling function. */
extern Oid	ndd_extension_type(FunctionCallInfo fcinfo, const char *typname);

/*
 * Memory of the rows a workflow function holds (ids, fingerprints, features, pairs, and the core's
 * working arrays over them). It grows with the input, so it is bounded by maintenance_work_mem:
 * these are batch jobs over a whole collection, like CREATE INDEX, and they hold their input once
 * (their output and sorts are bounded by work_mem separately, through tuplestore and tuplesort).
 * ndd_input_budget() is the bound in bytes; ndd_input_too_large() raises the error for an input
 * that needs `needed` bytes: SQLSTATE 53200 (out_of_memory, class 53 "insufficient resources"),
 * because the limit is a memory setting the user can raise, not a fixed limit of the program
 * (54000), and the hint says to what.
 */
extern size_t ndd_input_budget(void);
pg_noreturn extern void ndd_input_too_large(const char *fname, const char *what, size_t needed);

/*
 * Capacity (in elements) for an array of elem_size-byte elements that must hold `needed`, grown by
 * doubling in cxt, but never beyond max_elems.
 */
extern void *ndd_grow_array(MemoryContext cxt, void *ptr, size_t *capacity, size_t needed,
							size_t elem_size, size_t max_elems);

#endif							/* NDD_QUERY_READER_H */
