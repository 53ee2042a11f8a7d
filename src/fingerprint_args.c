/*
 * fingerprint_args.c
 *    Argument handling shared by the SQL functions of the fingerprint area.
 */
#include "fingerprint_args.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"

/*
 * The first use of 'unicode' in a session compares ICU's version with the one recorded in
 * ndd_tokenizer_versions and warns when they differ (what ndd_tokenizer_check() reports, the way
 * PostgreSQL warns about a collation whose library version changed; doc/tokenizers.md). Once per
 * backend; skipped where a query cannot run (no transaction or snapshot, a parallel worker, the
 * extension's script itself), and then tried again at the next use.
 */
static bool unicode_version_checked = false;

static void
check_unicode_version(FunctionCallInfo fcinfo)
{
	Oid			nsp;
	char		current[256];
	char	   *sql;

	if (unicode_version_checked || IsParallelWorker() || !IsTransactionState() || !ActiveSnapshotSet() ||
		creating_extension)
		return;
	/* the calling function's schema is the extension's (not relocatable) */
	if (!fcinfo->flinfo || !OidIsValid(fcinfo->flinfo->fn_oid))
		return;
	nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
	if (!OidIsValid(nsp) || !OidIsValid(get_relname_relid("ndd_tokenizer_versions", nsp)))
		return;
	unicode_version_checked = true;
	if (ndd_tokenizer_version(NDD_TOKENIZER_UNICODE, current, sizeof(current)) != NDD_OK)
		return;
	sql = psprintf("SELECT version FROM %s.ndd_tokenizer_versions WHERE tokenizer OPERATOR(pg_catalog.=) 'unicode'",
				   quote_identifier(get_namespace_name(nsp)));
	SPI_connect();
	if (SPI_execute(sql, true, 1) == SPI_OK_SELECT && SPI_processed == 1)
	{
		char	   *recorded = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		if (recorded && strcmp(recorded, current) != 0)
			ereport(WARNING,
					(errmsg("tokenizer \"unicode\" has version %s, but what is stored was computed with version %s",
							current, recorded),
					 errhint("Recompute the fingerprints made with tokenizer => 'unicode' (UPDATE stored columns, "
							 "REINDEX indexes over them), then run SELECT ndd_tokenizer_refresh_version('unicode').")));
	}
	SPI_finish();
}

const char *
ndd_utf8_bytes(const char *data, int len, size_t *outlen)
{
	int			enc = GetDatabaseEncoding();
	const char *utf8;

	if (enc == PG_UTF8 || enc == PG_SQL_ASCII || len == 0)
	{
		*outlen = (size_t) len;
		return data;
	}
	/* returns data itself when nothing changes (pure ASCII), else a palloc'd converted copy */
	utf8 = pg_server_to_any(data, len, PG_UTF8);
	*outlen = utf8 == data ? (size_t) len : strlen(utf8);
	return utf8;
}

const char *
ndd_text_utf8(text *t, size_t *outlen)
{
	return ndd_utf8_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), outlen);
}

text *
ndd_text_from_utf8(const char *data, size_t len)
{
	int			enc = GetDatabaseEncoding();
	const char *server;

	if (enc == PG_UTF8 || enc == PG_SQL_ASCII || len == 0)
		return cstring_to_text_with_len(data, (int) len);
	server = pg_any_to_server(data, (int) len, PG_UTF8);
	return cstring_to_text_with_len(server, server == data ? (int) len : (int) strlen(server));
}

int32
ndd_tokenizer_arg(FunctionCallInfo fcinfo, int argno)
{
	text	   *name;
	int32		tokenizer = NDD_TOKENIZER_WORDS;

	if (PG_NARGS() <= argno || PG_ARGISNULL(argno))
		return NDD_TOKENIZER_WORDS;
	name = PG_GETARG_TEXT_PP(argno);
	if (ndd_tokenizer_from_name(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), &tokenizer) != NDD_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown tokenizer \"%s\"", text_to_cstring(name)),
				 errhint("The tokenizers are 'words' and 'unicode'.")));
	if (tokenizer == NDD_TOKENIZER_UNICODE)
		check_unicode_version(fcinfo);
	return tokenizer;
}

void
ndd_check_param(const char *name, int32 value, int32 lo, int32 hi)
{
	if (value < lo || value > hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter \"%s\" must be between %d and %d", name, lo, hi),
				 errdetail("The value given was %d.", value)));
}

const int64 *
ndd_int8_array_values(ArrayType *arr, const char *name, int *count)
{
	if (ARR_ELEMTYPE(arr) != INT8OID)
		elog(ERROR, "parameter \"%s\" is not a bigint array", name);
	if (array_contains_nulls(arr))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("parameter \"%s\" must not contain nulls", name)));
	*count = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	/* without a null bitmap, bigint elements are stored back to back and 8-byte aligned */
	return (const int64 *) ARR_DATA_PTR(arr);
}

ArrayType *
ndd_int8_array(const int64 *values, int n)
{
	Datum	   *datums;
	int			i;

	if (n == 0)
		return construct_empty_array(INT8OID);
	datums = palloc(sizeof(Datum) * n);
	for (i = 0; i < n; i++)
		datums[i] = Int64GetDatum(values[i]);
	return construct_array(datums, n, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
}

static void
close_shingle_cursor(void *cursor)
{
	ndd_shingle_cursor_close((NddShingleCursor *) cursor);
}

NddCursorGuard *
ndd_cursor_open(const char *doc, size_t len, int32 shingle, int32 tokenizer, const char *what)
{
	NddCursorGuard *g = palloc0(sizeof(NddCursorGuard));
	NddShingleCursor *cursor = NULL;
	NddStatus	status;

	g->what = what;
	ndd_core_handle_tie(&g->core, CurrentMemoryContext, close_shingle_cursor);
	status = ndd_shingle_cursor_open(doc, len, shingle, tokenizer, &cursor);
	g->core.handle = cursor;
	ndd_raise_status(status, what);
	return g;
}

bool
ndd_cursor_next(NddCursorGuard *g, const char **text, size_t *len, uint64 *hash)
{
	int			found = 0;

	ndd_raise_status(ndd_shingle_cursor_next((NddShingleCursor *) g->core.handle, text, len, hash, &found,
											 ndd_interrupt_pending),
					 g->what);
	return found != 0;
}

void
ndd_cursor_close(NddCursorGuard *g)
{
	ndd_core_handle_release(&g->core);
}
