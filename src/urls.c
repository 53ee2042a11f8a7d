/*
 * urls.c
 *    URLs: the canonical form (ndd_url_normalize), the SURT sort key (ndd_url_surt), the validity
 *    test for skipping bad rows (ndd_url_is_valid), and mirrored sites from fingerprinted pages
 *    (ndd_mirrors). The rules are the core's (src/core/url.hpp); this file turns their answers into
 *    SQL values and errors.
 *
 * ndd_mirrors reads (url, fingerprint) rows through the query reader into a compact arena (the
 * normalized URLs, NUL-terminated, and their fingerprints), bounded by maintenance_work_mem like
 * every batch function. The pairs of pages within k bits come from the core's sort-based batch
 * pairs (batch_pairs_api.h); each pair becomes one (prefix a, prefix b, common suffix p) entry in a
 * tuplesort (which spills beyond work_mem), so the pairs are never held. Reading the sorted entries
 * groups them by prefix pair and counts distinct suffixes; the pages under a prefix are counted by
 * binary search in the sorted array of distinct normalized URLs (all pages under a prefix ending in
 * '/' are one range of it). ndd_mirrors_from_pairs does the same from pairs found elsewhere (the
 * distributed batch on Citus, or any similarity join): (id, url) pages and (a, b) pairs of ids.
 */
#include "ndd.h"

#include <math.h>

#include "catalog/pg_collation.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/tuplesort.h"

#include "batch_pairs_api.h"
#include "query_reader.h"
#include "url_api.h"

PG_FUNCTION_INFO_V1(ndd_url_normalize_sql);
PG_FUNCTION_INFO_V1(ndd_url_surt_sql);
PG_FUNCTION_INFO_V1(ndd_url_is_valid);
PG_FUNCTION_INFO_V1(ndd_mirrors);
PG_FUNCTION_INFO_V1(ndd_mirrors_from_pairs);

/* How much of a rejected value an error message shows. */
#define NDD_URL_SHOWN_BYTES 200

/* Pairs asked of the core per call (the C++ frames come and go often). */
#define NDD_MIRROR_BATCH 4096

/* Seconds between progress notices of a long call (as ndd_jaccard_pairs). */
#define NDD_MIRROR_PROGRESS_SECS 10

/* Bytes of URL arena allocated at a time. */
#define NDD_ARENA_CHUNK ((size_t) 64 << 10)

typedef NddStatus (*UrlRuleFn) (const char *url, size_t len, NddAllocFn alloc, NddUrl *out,
								int *valid, char *why);

/* The value as an error message shows it: at most NDD_URL_SHOWN_BYTES, whole characters. */
static char *
shown_value(const char *s, size_t len)
{
	int			cut;

	if (len <= NDD_URL_SHOWN_BYTES)
		return pnstrdup(s, len);
	cut = pg_mbcliplen(s, (int) Min(len, (size_t) INT_MAX), NDD_URL_SHOWN_BYTES);
	return psprintf("%s...", pnstrdup(s, cut));
}

/* Raises the error for a URL the rules rejected: 22P02, or 54000 for one beyond the length limit. */
static void
url_error(const char *s, size_t len, int valid, const char *why, const char *hint)
{
	if (valid == NDD_URL_TOO_LONG)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("URL too long: \"%s\"", shown_value(s, len)),
				 errdetail("It has %zu bytes; ndd accepts URLs of at most %d bytes.", len, NDD_URL_MAX_BYTES),
				 errhint("%s", hint)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid URL: \"%s\"", shown_value(s, len)),
			 errdetail("The value is not a URL: %s.", why),
			 errhint("%s", hint)));
}

/*
 * Applies a rule of the core to the text t. The URL is handed to the core in UTF-8 (converted
 * from the database encoding; SQL_ASCII bytes pass as they are); the answer is ASCII. Returns
 * false with *valid and why set when the URL is rejected.
 */
static bool
apply_rule(UrlRuleFn rule, const char *s, size_t len, NddUrl *out, int *valid, char *why)
{
	const char *utf8 = s;
	NddStatus	status;

	if (GetDatabaseEncoding() != PG_UTF8 && GetDatabaseEncoding() != PG_SQL_ASCII)
		utf8 = pg_server_to_any(s, (int) len, PG_UTF8);
	if (utf8 != s)
		len = strlen(utf8);
	status = rule(utf8, len, ndd_alloc_noerror, out, valid, why);
	ndd_raise_status(status, "a URL");
	return *valid == NDD_URL_OK;
}

/* The SQL functions ndd_url_normalize and ndd_url_surt: (url text, strict boolean) -> text. */
static Datum
url_rule_sql(FunctionCallInfo fcinfo, UrlRuleFn rule)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	bool		strict = PG_GETARG_BOOL(1);
	NddUrl		out;
	int			valid;
	char		why[NDD_URL_WHY_BYTES];

	if (!apply_rule(rule, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &out, &valid, why))
	{
		if (!strict)
			PG_RETURN_NULL();
		url_error(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), valid, why,
				  "Pass strict => false to get NULL for such values, or skip them with WHERE ndd_url_is_valid(url).");
	}
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out.data, (int) out.len));
}

Datum
ndd_url_normalize_sql(PG_FUNCTION_ARGS)
{
	return url_rule_sql(fcinfo, ndd_url_normalize);
}

Datum
ndd_url_surt_sql(PG_FUNCTION_ARGS)
{
	return url_rule_sql(fcinfo, ndd_url_surt);
}

/* ndd_url_is_valid(url text) -> boolean: whether ndd_url_normalize accepts url. */
Datum
ndd_url_is_valid(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	NddUrl		out;
	int			valid;
	char		why[NDD_URL_WHY_BYTES];

	PG_RETURN_BOOL(apply_rule(ndd_url_normalize, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &out, &valid, why));
}

/* ---------------------------------------------------------------------------------------------
 * ndd_mirrors and ndd_mirrors_from_pairs
 * ------------------------------------------------------------------------------------------- */

/*
 * The pages of a call: normalized URLs (NUL-terminated, in an arena) with, for ndd_mirrors, their
 * fingerprints (bits = 64 or 128) and, for ndd_mirrors_from_pairs, the caller's ids (bits = 0).
 */
typedef struct MirrorPages
{
	int			bits;
	char	  **urls;
	uint32	   *lens;
	uint32	   *paths;			/* offset of each URL's path */
	uint64	   *fps;
	int64	   *ids;			/* ndd_mirrors: 0 .. n-1, the core's document ids */
	size_t		n;
	size_t		cap;
	char	   *chunk;			/* the arena's current chunk */
	size_t		chunk_left;
	size_t		bytes;			/* arena bytes held, for the budget */
	size_t		url_bytes;
	bool		too_large;
	const char *fname;			/* the SQL function, for messages */
	TimestampTz last_notice;	/* of the progress notices */
} MirrorPages;

/*
 * A progress notice every NDD_MIRROR_PROGRESS_SECS seconds: the phase and how far it is (of
 * total, when known).
 */
static void
progress(MirrorPages *pages, const char *phase, uint64 done, uint64 total)
{
	TimestampTz now = GetCurrentTimestamp();

	if (pages->last_notice == 0)
		pages->last_notice = now;
	if (!TimestampDifferenceExceeds(pages->last_notice, now, NDD_MIRROR_PROGRESS_SECS * 1000))
		return;
	pages->last_notice = now;
	if (total > 0)
		ereport(NOTICE, (errmsg("%s: %s " UINT64_FORMAT " of " UINT64_FORMAT, pages->fname, phase, done, total)));
	else
		ereport(NOTICE, (errmsg("%s: %s " UINT64_FORMAT, pages->fname, phase, done)));
}

/* A core pair iterator freed with the work context, also when an error unwinds. */
typedef struct MirrorIter
{
	NddHammingPairIter *iter;
	MemoryContextCallback callback;
} MirrorIter;

static void
mirror_iter_release(void *arg)
{
	MirrorIter *mi = (MirrorIter *) arg;

	if (mi->iter != NULL)
		ndd_hamming_pairs_end(mi->iter);
	mi->iter = NULL;
}

/*
 * Bytes per page besides its URL: pointer, length, path offset, the sorted index's pointer, and
 * the id; with fingerprints, the fingerprint and the core's working arrays; with ids, the
 * position array that maps ids to pages.
 */
static size_t
mirror_row_bytes(int bits)
{
	size_t		common = sizeof(char *) * 2 + sizeof(uint32) * 2 + sizeof(int64);

	if (bits == 0)
		return common + sizeof(uint32);
	/* with fingerprints, also skip_hot_fingerprints' order and flag */
	return common + (bits / 64) * sizeof(uint64) + sizeof(uint32) + 1 + ndd_hamming_pairs_memory(bits, 1);
}

static char *
arena_copy(MemoryContext work, MirrorPages *pages, const char *s, size_t len)
{
	char	   *dst;

	if (pages->chunk_left < len + 1)
	{
		size_t		size = Max(NDD_ARENA_CHUNK, len + 1);

		pages->chunk = MemoryContextAllocHuge(work, size);
		pages->chunk_left = size;
		pages->bytes += size;
	}
	dst = pages->chunk;
	memcpy(dst, s, len);
	dst[len] = '\0';
	pages->chunk += len + 1;
	pages->chunk_left -= len + 1;
	return dst;
}

static void *
grow(MemoryContext work, void *ptr, size_t cap, size_t elem)
{
	return ptr ? repalloc_huge(ptr, cap * elem) : MemoryContextAllocHuge(work, cap * elem);
}

/*
 * Reads the pages of sql: (url text, fp simhash64 | fp128) when with_ids is false, (id integer,
 * url text) when it is true. Rows with a NULL URL or fingerprint are skipped; every URL is
 * normalized (an invalid one, or one without a host, is an error naming it).
 */
static void
read_pages(FunctionCallInfo fcinfo, MemoryContext work, const char *sql, bool with_ids,
		   MirrorPages *pages)
{
	NddQueryReader reader;
	HeapTuple	tuple;
	int			url_col = with_ids ? 2 : 1;
	Oid			urltype,
				idtype = InvalidOid;
	int			words = 0;
	size_t		budget = ndd_input_budget();
	MemoryContext row_cxt = AllocSetContextCreate(work, "ndd_mirrors row", ALLOCSET_SMALL_SIZES);

	SPI_connect();
	ndd_query_open(&reader, sql, "pages_sql", 2);
	urltype = ndd_query_column_type(&reader, url_col);
	if (urltype != TEXTOID && urltype != VARCHAROID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column %d of pages_sql must be the URL, of type text", url_col),
				 errdetail("It has type %s.", format_type_be(urltype))));
	if (with_ids)
	{
		ndd_query_require_integer(&reader, 1, "the page id");
		idtype = ndd_query_column_type(&reader, 1);
		pages->bits = 0;
	}
	else
	{
		Oid			fptype = ndd_query_column_type(&reader, 2);

		if (fptype == ndd_extension_type(fcinfo, "simhash64") || fptype == INT8OID)
			pages->bits = 64;
		else if (fptype == ndd_extension_type(fcinfo, "fp128"))
			pages->bits = 128;
		else
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("column 2 of pages_sql must be a fingerprint of type simhash64 or fp128"),
					 errdetail("It has type %s.", format_type_be(fptype))));
		words = pages->bits / 64;
	}

	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		url_null,
					other_null;
		Datum		ud = SPI_getbinval(tuple, reader.desc, url_col, &url_null);
		Datum		od = SPI_getbinval(tuple, reader.desc, with_ids ? 1 : 2, &other_null);
		MemoryContext old;
		text	   *t;
		NddUrl		url;
		int			valid;
		char		why[NDD_URL_WHY_BYTES];
		size_t		n = pages->n;

		if (with_ids && other_null)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("pages_sql returned a null id")));
		if (url_null || other_null)
			continue;			/* no URL or no fingerprint: no mirror evidence */
		old = MemoryContextSwitchTo(row_cxt);
		t = DatumGetTextPP(ud);
		if (!apply_rule(ndd_url_normalize, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &url, &valid, why))
			url_error(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), valid, why,
					  "Skip such rows in pages_sql: WHERE ndd_url_is_valid(url).");
		if (url.path_start == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("URL without a host in pages_sql: \"%s\"",
							shown_value(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t))),
					 errdetail("Mirrors are sites: every URL needs a host (scheme://host/path)."),
					 errhint("Skip such rows in pages_sql.")));
		MemoryContextSwitchTo(old);
		if (n + 1 >= (size_t) UINT32_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("ndd_mirrors handles at most %u pages", UINT32_MAX - 1)));
		pages->url_bytes += url.len + 1;
		if (!pages->too_large &&
			pages->bytes + (n + 1) * mirror_row_bytes(pages->bits) + url.len + 1 > budget)
			pages->too_large = true;	/* count the rest, to say how much memory they need */
		if (!pages->too_large)
		{
			if (n == pages->cap)
			{
				size_t		cap = Max(1024, pages->cap * 2);

				pages->urls = grow(work, pages->urls, cap, sizeof(char *));
				pages->lens = grow(work, pages->lens, cap, sizeof(uint32));
				pages->paths = grow(work, pages->paths, cap, sizeof(uint32));
				pages->ids = grow(work, pages->ids, cap, sizeof(int64));
				if (!with_ids)
					pages->fps = grow(work, pages->fps, cap * words, sizeof(uint64));
				pages->cap = cap;
			}
			pages->urls[n] = arena_copy(work, pages, url.data, url.len);
			pages->lens[n] = (uint32) url.len;
			pages->paths[n] = (uint32) url.path_start;
			if (with_ids)
				pages->ids[n] = ndd_query_integer(od, idtype);
			else
			{
				pages->ids[n] = (int64) n;
				if (pages->bits == 64)
					pages->fps[n] = DatumGetSimhash64(od);
				else
				{
					Fp128	   *v = DatumGetFp128P(od);

					pages->fps[2 * n] = v->hi;
					pages->fps[2 * n + 1] = v->lo;
				}
			}
		}
		pages->n++;
		MemoryContextReset(row_cxt);
		if ((pages->n & 0xfff) == 0)
			progress(pages, "reading pages: page", pages->n, 0);
	}
	ndd_query_close(&reader);
	SPI_finish();
	if (pages->too_large)
		ndd_input_too_large(pages->fname,
							psprintf("%zu pages", pages->n),
							pages->url_bytes + pages->n * mirror_row_bytes(pages->bits));
}

static int
compare_cstrings(const void *x, const void *y, void *arg)
{
	return strcmp(*(char *const *) x, *(char *const *) y);
}

/*
 * The distinct normalized URLs in byte order (*count of them), for counting the pages under a
 * prefix.
 */
static char **
sorted_distinct_urls(MemoryContext work, const MirrorPages *pages, size_t *count)
{
	char	  **sorted = MemoryContextAllocHuge(work, Max(pages->n, 1) * sizeof(char *));
	size_t		m = 0;

	memcpy(sorted, pages->urls, pages->n * sizeof(char *));
	qsort_interruptible(sorted, pages->n, sizeof(char *), compare_cstrings, NULL);
	for (size_t i = 0; i < pages->n; i++)
		if (m == 0 || strcmp(sorted[m - 1], sorted[i]) != 0)
			sorted[m++] = sorted[i];
	*count = m;
	return sorted;
}

/* The number of URLs of sorted[0 .. count) that start with prefix (len bytes): one range. */
static int64
pages_under(char **sorted, size_t count, const char *prefix, size_t len)
{
	size_t		lo = 0,
				hi = count,
				first;

	while (lo < hi)				/* first URL >= prefix */
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (strcmp(sorted[mid], prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	hi = count;
	while (lo < hi)				/* first URL past the range of those starting with prefix */
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (strncmp(sorted[mid], prefix, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64) (lo - first);
}

/* The sort of (a, b, p) entries and the slots that carry them in and out. */
typedef struct EntrySort
{
	uint64		entries;		/* put so far */
	Tuplesortstate *sort;
	TupleTableSlot *in;
	TupleTableSlot *out;
} EntrySort;

/* One text column, sorted bytewise (C collation); spills beyond work_mem. */
static void
entry_sort_begin(EntrySort *es)
{
	TupleDesc	desc = CreateTemplateTupleDesc(1);
	AttrNumber	attno = 1;
	Oid			lt_op = TextLessOperator;
	Oid			collation = C_COLLATION_OID;
	bool		nulls_first = false;

	TupleDescInitEntry(desc, 1, "entry", TEXTOID, -1, 0);
	TupleDescInitEntryCollation(desc, 1, C_COLLATION_OID);
	es->in = MakeSingleTupleTableSlot(desc, &TTSOpsVirtual);
	es->out = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	es->sort = tuplesort_begin_heap(desc, 1, &attno, &lt_op, &collation, &nulls_first, work_mem,
									NULL, TUPLESORT_NONE);
}

static void
entry_sort_end(EntrySort *es)
{
	tuplesort_end(es->sort);
	ExecDropSingleTupleTableSlot(es->in);
	ExecDropSingleTupleTableSlot(es->out);
}

/*
 * The sort entry of pages x and y, if their paths have a non-empty common suffix p of whole
 * segments and their prefixes differ: a \x01 b \x01 p with a < b. Normalized URLs hold printable
 * ASCII only (bytes >= 0x80 are percent-encoded, control characters rejected), so \x01 sorts below
 * every URL byte and the entries sort as the triples (a, b, p) would, bytewise. Allocates in the
 * current memory context.
 */
static void
put_pair_entry(const MirrorPages *pages, size_t x, size_t y, EntrySort *es)
{
	const char *ux = pages->urls[x],
			   *uy = pages->urls[y];
	size_t		lx = pages->lens[x],
				ly = pages->lens[y],
				p = ndd_url_common_suffix(ux, lx, pages->paths[x], uy, ly, pages->paths[y]);
	size_t		ax,
				ay;
	int			cmp;
	text	   *t;
	char	   *d;

	if (p == 0)
		return;					/* no common suffix of whole segments */
	ax = lx - p;
	ay = ly - p;
	cmp = memcmp(ux, uy, Min(ax, ay));
	if (cmp == 0)
		cmp = (ax > ay) - (ax < ay);
	if (cmp == 0)
		return;					/* one prefix: the same URL twice */
	if (cmp > 0)
	{
		const char *u = ux;
		size_t		a = ax;

		ux = uy;
		ax = ay;
		uy = u;
		ay = a;
	}
	t = palloc(VARHDRSZ + ax + ay + p + 2);
	SET_VARSIZE(t, VARHDRSZ + ax + ay + p + 2);
	d = VARDATA(t);
	memcpy(d, ux, ax);
	d[ax] = '\x01';
	memcpy(d + ax + 1, uy, ay);
	d[ax + 1 + ay] = '\x01';
	memcpy(d + ax + ay + 2, ux + ax, p);
	ExecClearTuple(es->in);
	es->in->tts_values[0] = PointerGetDatum(t);
	es->in->tts_isnull[0] = false;
	ExecStoreVirtualTuple(es->in);
	tuplesort_puttupleslot(es->sort, es->in);
	/* the sort holds its own copy (within work_mem, else on disk): an entry can be 3 URLs long */
	pfree(t);
	es->entries++;
}

static void
emit_mirror(ReturnSetInfo *rsinfo, const char *a, size_t alen, const char *b, size_t blen,
			int64 shared, int64 pages_a, int64 pages_b)
{
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	values[0] = PointerGetDatum(cstring_to_text_with_len(a, (int) alen));
	values[1] = PointerGetDatum(cstring_to_text_with_len(b, (int) blen));
	values[2] = Int64GetDatum(shared);
	values[3] = Int64GetDatum(pages_a);
	values[4] = Int64GetDatum(pages_b);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * Reads the sorted entries, groups them by prefix pair, counts each pair's distinct suffixes and
 * reports the pairs that pass the thresholds.
 */
static void
emit_mirrors(ReturnSetInfo *rsinfo, MemoryContext work, MirrorPages *pages, EntrySort *es,
			 int32 min_shared, float8 min_fraction)
{
	size_t		nsorted;
	char	  **sorted;
	StringInfoData group,		/* the current a \x01 b \x01 */
				last_p;
	int64		shared = 0;
	uint64		entries = 0;

	tuplesort_performsort(es->sort);
	sorted = sorted_distinct_urls(work, pages, &nsorted);
	initStringInfo(&group);
	initStringInfo(&last_p);
	for (;;)
	{
		bool		more = tuplesort_gettupleslot(es->sort, true, false, es->out, NULL);
		const char *e = NULL,
				   *p = NULL;
		size_t		glen = 0,
					plen = 0;

		if (more)
		{
			bool		isnull;
			text	   *t = DatumGetTextPP(slot_getattr(es->out, 1, &isnull));
			size_t		elen = VARSIZE_ANY_EXHDR(t);
			const char *sep;

			e = VARDATA_ANY(t);
			sep = memchr(e, '\x01', elen);
			sep = memchr(sep + 1, '\x01', elen - (sep + 1 - e));
			glen = sep + 1 - e;
			p = sep + 1;
			plen = elen - glen;
		}
		if (shared > 0 && (!more || glen != (size_t) group.len || memcmp(e, group.data, glen) != 0))
		{
			/* the end of a prefix pair's entries */
			if (shared >= min_shared)
			{
				const char *a = group.data,
						   *b = (const char *) memchr(a, '\x01', group.len) + 1;
				size_t		alen = b - 1 - a,
							blen = group.len - alen - 2;
				char	   *ca = pnstrdup(a, alen),
						   *cb = pnstrdup(b, blen);
				int64		pages_a = pages_under(sorted, nsorted, ca, alen),
							pages_b = pages_under(sorted, nsorted, cb, blen);

				if (shared >= min_fraction * pages_a && shared >= min_fraction * pages_b)
					emit_mirror(rsinfo, a, alen, b, blen, shared, pages_a, pages_b);
				pfree(ca);
				pfree(cb);
			}
			shared = 0;
		}
		if (!more)
			break;
		if (shared == 0)
		{
			resetStringInfo(&group);
			appendBinaryStringInfo(&group, e, (int) glen);
			resetStringInfo(&last_p);
		}
		if (shared == 0 || plen != (size_t) last_p.len || memcmp(p, last_p.data, plen) != 0)
		{
			shared++;			/* a new distinct suffix of this prefix pair */
			resetStringInfo(&last_p);
			appendBinaryStringInfo(&last_p, p, (int) plen);
		}
		if ((++entries & 0xffff) == 0)
		{
			CHECK_FOR_INTERRUPTS();
			progress(pages, "counting prefix pairs: entry", entries, es->entries);
		}
	}
	pfree(group.data);
	pfree(last_p.data);
}

static void
check_thresholds(int32 min_shared, float8 min_fraction)
{
	if (min_shared < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1"),
				 errdetail("min_shared is %d.", min_shared)));
	if (isnan(min_fraction) || min_fraction < 0 || min_fraction > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_fraction must be between 0 and 1"),
				 errdetail("min_fraction is %g.", min_fraction)));
}

/* Orders page positions by fingerprint, then host (the URL before its path). */
static int
compare_fp_host(const void *x, const void *y, void *arg)
{
	const MirrorPages *pages = (const MirrorPages *) arg;
	uint32		a = *(const uint32 *) x,
				b = *(const uint32 *) y;
	int			words = pages->bits / 64;
	uint32		la = pages->paths[a],
				lb = pages->paths[b];
	int			cmp;

	for (int w = 0; w < words; w++)
	{
		uint64		fa = pages->fps[(size_t) a * words + w],
					fb = pages->fps[(size_t) b * words + w];

		if (fa != fb)
			return fa < fb ? -1 : 1;
	}
	cmp = memcmp(pages->urls[a], pages->urls[b], Min(la, lb));
	return cmp != 0 ? cmp : (la > lb) - (la < lb);
}

/*
 * Leaves out of the pair search the pages whose fingerprint more than max_hosts hosts serve
 * (parking, error and login pages: issue 31, 100 fingerprints of 10,000 hosts each made 5 billion
 * pairs and 70 GB of temporary files), or that more than max_hosts pages carry (one host's soft
 * 404 page at every path would pair them all just the same). Such a page is no evidence of a
 * mirror, and every pair of its pages would be a candidate: a fingerprint now makes at most
 * max_hosts^2 / 2 pairs. The pages still count under their prefixes (pages_a, pages_b). Compacts
 * ids and fps to the pages kept and returns their number; a notice says how many fingerprints and
 * pages were left out.
 */
static size_t
skip_hot_fingerprints(MemoryContext work, MirrorPages *pages, int32 max_hosts)
{
	size_t		n = pages->n,
				kept = 0,
				hot = 0,
				hot_pages = 0;
	int			words = pages->bits / 64;
	uint32	   *order = MemoryContextAllocHuge(work, n * sizeof(uint32));
	bool	   *skip = MemoryContextAllocHuge(work, n * sizeof(bool));

	for (size_t i = 0; i < n; i++)
	{
		order[i] = (uint32) i;
		skip[i] = false;
	}
	qsort_interruptible(order, n, sizeof(uint32), compare_fp_host, pages);
	for (size_t start = 0, end; start < n; start = end)
	{
		int64		hosts = 1;

		for (end = start + 1; end < n; end++)
		{
			uint32		a = order[end - 1],
						b = order[end];

			if (memcmp(&pages->fps[(size_t) order[start] * words], &pages->fps[(size_t) b * words],
					   words * sizeof(uint64)) != 0)
				break;
			if (pages->paths[a] != pages->paths[b] || memcmp(pages->urls[a], pages->urls[b], pages->paths[a]) != 0)
				hosts++;
			if ((end & 0xffff) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		if (hosts > max_hosts || end - start > (size_t) max_hosts)
		{
			hot++;
			hot_pages += end - start;
			for (size_t i = start; i < end; i++)
				skip[order[i]] = true;
		}
	}
	for (size_t i = 0; i < n; i++)
	{
		if (skip[i])
			continue;
		pages->ids[kept] = (int64) i;
		memmove(&pages->fps[kept * words], &pages->fps[i * words], words * sizeof(uint64));
		kept++;
	}
	pfree(order);
	pfree(skip);
	if (hot > 0)
		ereport(NOTICE,
				(errmsg("%s: %zu fingerprints served by more than %d hosts or pages each left out (%zu pages)",
						pages->fname, hot, max_hosts, hot_pages),
				 errdetail("A page that many sites serve alike (a parking, error or login page) is no evidence of a mirror, and every pair of its hosts would be compared."),
				 errhint("Raise max_hosts_per_fingerprint to count them.")));
	return kept;
}

/* Error context of the pair search: how far the sort of entries got (temp_file_limit, cancel). */
static void
entry_sort_context(void *arg)
{
	const EntrySort *es = (const EntrySort *) arg;

	errcontext("ndd_mirrors: sorting the entries of the pairs of pages within k bits (" UINT64_FORMAT " so far)",
			   es->entries);
}

/*
 * ndd_mirrors(pages_sql text, k int, min_shared int, min_fraction float8,
 *             max_hosts_per_fingerprint int)
 *    RETURNS TABLE(a text, b text, shared bigint, pages_a bigint, pages_b bigint)
 * Pairs of URL prefixes (scheme://host/leading/segments/) under which at least min_shared and at
 * least min_fraction of each side's pages have a page within k bits on the other side at the same
 * remaining path; pages whose fingerprint more than max_hosts_per_fingerprint hosts or pages serve
 * are left out of the pairs (skip_hot_fingerprints). See doc/web.md for the definition.
 */
Datum
ndd_mirrors(PG_FUNCTION_ARGS)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int32		k = PG_GETARG_INT32(1);
	int32		min_shared = PG_GETARG_INT32(2);
	float8		min_fraction = PG_GETARG_FLOAT8(3);
	int32		max_hosts = PG_GETARG_INT32(4);
	MemoryContext work,
				batch_cxt;
	MirrorPages pages = {0};
	EntrySort	es;
	MirrorIter *mi;
	NddPair    *buf;
	NddStatus	status;
	size_t		kept;
	ErrorContextCallback errctx;

	if (k < 0 || k > NDD_BATCH_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 0 and %d", NDD_BATCH_MAX_K),
				 errdetail("k is %d.", k)));
	check_thresholds(min_shared, min_fraction);
	if (max_hosts < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_hosts_per_fingerprint must be at least 1"),
				 errdetail("max_hosts_per_fingerprint is %d.", max_hosts)));
	InitMaterializedSRF(fcinfo, 0);
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_mirrors", ALLOCSET_DEFAULT_SIZES);
	pages.fname = "ndd_mirrors";
	read_pages(fcinfo, work, sql, false, &pages);
	kept = pages.n < 2 ? pages.n : skip_hot_fingerprints(work, &pages, max_hosts);
	if (kept < 2)
	{
		MemoryContextDelete(work);
		return (Datum) 0;
	}

	/* every pair of pages within k bits, from the core's batch mode, as an entry of the sort */
	entry_sort_begin(&es);
	mi = MemoryContextAllocZero(work, sizeof(MirrorIter));
	mi->callback.func = mirror_iter_release;
	mi->callback.arg = mi;
	MemoryContextRegisterResetCallback(work, &mi->callback);
	status = ndd_hamming_pairs_begin_part(pages.bits, (const int64_t *) pages.ids,
										  (const uint64_t *) pages.fps, kept, 0, k, 0, -1,
										  ndd_interrupt_pending, &mi->iter);
	ndd_raise_status(status, "pages within k bits");
	batch_cxt = AllocSetContextCreate(work, "ndd_mirrors pairs", ALLOCSET_DEFAULT_SIZES);
	buf = MemoryContextAlloc(work, NDD_MIRROR_BATCH * sizeof(NddPair));
	errctx.callback = entry_sort_context;
	errctx.arg = &es;
	errctx.previous = error_context_stack;
	error_context_stack = &errctx;
	for (;;)
	{
		size_t		got;
		MemoryContext old;

		status = ndd_hamming_pairs_next(mi->iter, buf, NDD_MIRROR_BATCH, &got);
		ndd_raise_status(status, "pages within k bits");
		if (got == 0)
			break;
		old = MemoryContextSwitchTo(batch_cxt);
		for (size_t i = 0; i < got; i++)
			put_pair_entry(&pages, (size_t) buf[i].a, (size_t) buf[i].b, &es);
		MemoryContextSwitchTo(old);
		MemoryContextReset(batch_cxt);
		CHECK_FOR_INTERRUPTS();
		progress(&pages, "pairs of pages within k bits: entries", es.entries, 0);
	}
	ndd_hamming_pairs_end(mi->iter);	/* its arrays before the sorted URLs */
	mi->iter = NULL;

	emit_mirrors((ReturnSetInfo *) fcinfo->resultinfo, work, &pages, &es, min_shared, min_fraction);
	error_context_stack = errctx.previous;
	entry_sort_end(&es);
	MemoryContextDelete(work);
	return (Datum) 0;
}

/* Orders page positions by the caller's id (qsort_interruptible). */
static int
compare_page_ids(const void *x, const void *y, void *arg)
{
	const int64 *ids = (const int64 *) arg;
	int64		a = ids[*(const uint32 *) x],
				b = ids[*(const uint32 *) y];

	return (a > b) - (a < b);
}

/* The position of the page with this id, or -1 (order: positions sorted by id). */
static int64
page_of_id(const MirrorPages *pages, const uint32 *order, int64 id)
{
	size_t		lo = 0,
				hi = pages->n;

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (pages->ids[order[mid]] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pages->n && pages->ids[order[lo]] == id ? (int64) order[lo] : -1;
}

/*
 * ndd_mirrors_from_pairs(pages_sql text, pairs_sql text, min_shared int, min_fraction float8)
 *    RETURNS TABLE(a text, b text, shared bigint, pages_a bigint, pages_b bigint)
 * ndd_mirrors over pairs of pages found elsewhere: pages_sql returns (id, url), pairs_sql returns
 * (a, b, ...) ids of pages (pairs naming an id pages_sql does not return are ignored).
 */
Datum
ndd_mirrors_from_pairs(PG_FUNCTION_ARGS)
{
	char	   *pages_sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *pairs_sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	int32		min_shared = PG_GETARG_INT32(2);
	float8		min_fraction = PG_GETARG_FLOAT8(3);
	MemoryContext work,
				batch_cxt;
	MirrorPages pages = {0};
	EntrySort	es;
	uint32	   *order;
	NddQueryReader reader;
	HeapTuple	tuple;
	Oid			atype,
				btype;
	uint64		rows = 0;

	check_thresholds(min_shared, min_fraction);
	InitMaterializedSRF(fcinfo, 0);
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_mirrors_from_pairs", ALLOCSET_DEFAULT_SIZES);
	pages.fname = "ndd_mirrors_from_pairs";
	read_pages(fcinfo, work, pages_sql, true, &pages);

	order = MemoryContextAllocHuge(work, Max(pages.n, 1) * sizeof(uint32));
	for (size_t i = 0; i < pages.n; i++)
		order[i] = (uint32) i;
	qsort_interruptible(order, pages.n, sizeof(uint32), compare_page_ids, pages.ids);
	for (size_t i = 1; i < pages.n; i++)
		if (pages.ids[order[i]] == pages.ids[order[i - 1]])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("pages_sql returned the id " INT64_FORMAT " more than once", pages.ids[order[i]]),
					 errhint("Each row is one page: make the ids unique.")));

	entry_sort_begin(&es);
	batch_cxt = AllocSetContextCreate(work, "ndd_mirrors_from_pairs pairs", ALLOCSET_DEFAULT_SIZES);
	SPI_connect();
	ndd_query_open(&reader, pairs_sql, "pairs_sql", 2);
	ndd_query_require_integer(&reader, 1, "a page id");
	ndd_query_require_integer(&reader, 2, "a page id");
	atype = ndd_query_column_type(&reader, 1);
	btype = ndd_query_column_type(&reader, 2);
	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		anull,
					bnull;
		Datum		ad = SPI_getbinval(tuple, reader.desc, 1, &anull);
		Datum		bd = SPI_getbinval(tuple, reader.desc, 2, &bnull);
		int64		x,
					y;

		if (anull || bnull)
			continue;
		x = page_of_id(&pages, order, ndd_query_integer(ad, atype));
		y = page_of_id(&pages, order, ndd_query_integer(bd, btype));
		if (x >= 0 && y >= 0 && x != y)
		{
			MemoryContext old = MemoryContextSwitchTo(batch_cxt);

			put_pair_entry(&pages, (size_t) x, (size_t) y, &es);
			MemoryContextSwitchTo(old);
		}
		if ((++rows & 0xfff) == 0)
		{
			MemoryContextReset(batch_cxt);
			progress(&pages, "reading pairs: pair", rows, 0);
		}
	}
	ndd_query_close(&reader);
	SPI_finish();

	emit_mirrors((ReturnSetInfo *) fcinfo->resultinfo, work, &pages, &es, min_shared, min_fraction);
	entry_sort_end(&es);
	MemoryContextDelete(work);
	return (Datum) 0;
}
