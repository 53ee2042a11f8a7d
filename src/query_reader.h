/*
 * query_reader.h
 *    Reading the rows of a query text given by the user (pgRouting style: "docs_sql returns
 *    (id, fp)"), batch by batch through an SPI cursor, with the column checks every workflow
 *    function needs.
 */
#ifndef NDD_QUERY_READER_H
#define NDD_QUERY_READER_H

#include "postgres.h"

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

#endif							/* NDD_QUERY_READER_H */
