/*
 * query_reader.c
 *    Rows of a user-supplied query text through an SPI cursor, fetched in bounded batches.
 *
 * The workflow functions (ndd_pairs, ndd_feature_pairs, ndd_clusters) take the query that
 * produces their input as text, like pgRouting does, so that the input can be any table, view,
 * join or filter. Fetching through a cursor keeps SPI's own memory to one batch at a time; the
 * callers keep only the columns they need, in compact arrays.
 */
#include "postgres.h"

#include "pg_compat.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "query_reader.h"

/* Rows per fetch: large enough to amortise the executor round trip, small enough to stay small. */
#define NDD_FETCH_ROWS 10000

void
ndd_query_open(NddQueryReader *reader, const char *sql, const char *argname, int min_columns)
{
	SPIPlanPtr	plan;

	memset(reader, 0, sizeof(*reader));
	reader->argname = argname;

	plan = SPI_prepare(sql, 0, NULL);
	if (plan == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not prepare %s: %s", argname, SPI_result_code_string(SPI_result))));
	if (!SPI_is_cursor_plan(plan))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a single query that returns rows", argname)));

	reader->portal = SPI_cursor_open(NULL, plan, NULL, NULL, false);
	reader->desc = reader->portal->tupDesc;
	if (reader->desc->natts < min_columns)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must return at least %d columns", argname, min_columns),
				 errdetail("It returns %d.", reader->desc->natts)));
}

HeapTuple
ndd_query_next(NddQueryReader *reader)
{
	if (reader->batch == NULL || reader->pos >= reader->batch->numvals)
	{
		if (reader->batch != NULL)
		{
			SPI_freetuptable(reader->batch);
			reader->batch = NULL;
		}
		CHECK_FOR_INTERRUPTS();
		SPI_cursor_fetch(reader->portal, true, reader->fetch_rows > 0 ? reader->fetch_rows : NDD_FETCH_ROWS);
		if (SPI_processed == 0)
			return NULL;
		reader->batch = SPI_tuptable;
		reader->pos = 0;
	}
	return reader->batch->vals[reader->pos++];
}

void
ndd_query_close(NddQueryReader *reader)
{
	if (reader->batch != NULL)
		SPI_freetuptable(reader->batch);
	reader->batch = NULL;
	SPI_cursor_close(reader->portal);
}

Oid
ndd_query_column_type(NddQueryReader *reader, int attno)
{
	return TupleDescAttr(reader->desc, attno - 1)->atttypid;
}

void
ndd_query_require_integer(NddQueryReader *reader, int attno, const char *what)
{
	Oid			typid = ndd_query_column_type(reader, attno);

	if (typid != INT8OID && typid != INT4OID && typid != INT2OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column %d of %s must be %s of type bigint, integer or smallint",
						attno, reader->argname, what),
				 errdetail("It has type %s.", format_type_be(typid))));
}

int64
ndd_query_integer(Datum value, Oid typid)
{
	if (typid == INT8OID)
		return DatumGetInt64(value);
	if (typid == INT4OID)
		return DatumGetInt32(value);
	return DatumGetInt16(value);
}

Oid
ndd_extension_type(FunctionCallInfo fcinfo, const char *typname)
{
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			typid = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
										CStringGetDatum(typname), ObjectIdGetDatum(nsp));

	if (!OidIsValid(typid))
		elog(ERROR, "type %s not found in the schema of the ndd extension", typname);
	return typid;
}

size_t
ndd_input_budget(void)
{
	return (size_t) maintenance_work_mem * 1024;
}

void
ndd_input_too_large(const char *fname, const char *what, size_t needed)
{
	size_t		needed_mb = (needed + (1 << 20) - 1) >> 20;

	ereport(ERROR,
			(errcode(ERRCODE_OUT_OF_MEMORY),
			 errmsg("%s needs %zu MB of memory for %s, more than maintenance_work_mem (%d kB)",
					fname, needed_mb, what, maintenance_work_mem),
			 errhint("Raise maintenance_work_mem to at least %zuMB for this call (SET maintenance_work_mem = '%zuMB'), or give it fewer rows.",
					 needed_mb, needed_mb)));
}

void *
ndd_grow_array(MemoryContext cxt, void *ptr, size_t *capacity, size_t needed, size_t elem_size,
			   size_t max_elems)
{
	size_t		cap = *capacity;

	if (needed <= cap)
		return ptr;
	cap = Min(Max(cap * 2, Max(needed, 1024)), Max(max_elems, needed));
	*capacity = cap;
	if (ptr == NULL)
		return MemoryContextAllocHuge(cxt, cap * elem_size);
	return repalloc_huge(ptr, cap * elem_size);
}
