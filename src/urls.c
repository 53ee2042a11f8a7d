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
 * '/' are one range of it).
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
#include "utils/tuplesort.h"

#include "batch_pairs_api.h"
#include "query_reader.h"
#include "url_api.h"

PG_FUNCTION_INFO_V1(ndd_url_normalize_sql);
PG_FUNCTION_INFO_V1(ndd_url_surt_sql);
PG_FUNCTION_INFO_V1(ndd_url_is_valid);
PG_FUNCTION_INFO_V1(ndd_mirrors);

/* How much of a rejected value an error message shows. */
#define NDD_URL_SHOWN_BYTES 200

/* Pairs asked of the core per call (the C++ frames come and go often). */
#define NDD_MIRROR_BATCH 4096

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
 * ndd_mirrors
 * ------------------------------------------------------------------------------------------- */

/* The pages of a call: normalized URLs (NUL-terminated, in an arena) and fingerprints. */
typedef struct MirrorPages
{
	int			bits;
	char	  **urls;
	uint32	   *lens;
	uint32	   *paths;			/* offset of each URL's path */
	uint64	   *fps;
	int64	   *ids;			/* 0 .. n-1, the core's document ids */
	size_t		n;
	size_t		cap;
	char	   *chunk;			/* the arena's current chunk */
	size_t		chunk_left;
	size_t		bytes;			/* memory held, for the budget */
	size_t		url_bytes;
	bool		too_large;
} MirrorPages;

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

/* Bytes per page besides its URL: pointers, lengths, fingerprint, id, sorted index, core arrays. */
static size_t
mirror_row_bytes(int bits)
{
	return sizeof(char *) * 2 + sizeof(uint32) * 2 + (bits / 64) * sizeof(uint64) + sizeof(int64) +
		ndd_hamming_pairs_memory(bits, 1);
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

static void
read_pages(FunctionCallInfo fcinfo, MemoryContext work, const char *sql, MirrorPages *pages)
{
	NddQueryReader reader;
	HeapTuple	tuple;
	Oid			urltype,
				fptype;
	int			words;
	size_t		budget = ndd_input_budget();
	MemoryContext row_cxt = AllocSetContextCreate(work, "ndd_mirrors row", ALLOCSET_SMALL_SIZES);

	SPI_connect();
	ndd_query_open(&reader, sql, "pages_sql", 2);
	urltype = ndd_query_column_type(&reader, 1);
	fptype = ndd_query_column_type(&reader, 2);
	if (urltype != TEXTOID && urltype != VARCHAROID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column 1 of pages_sql must be the URL, of type text"),
				 errdetail("It has type %s.", format_type_be(urltype))));
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

	while ((tuple = ndd_query_next(&reader)) != NULL)
	{
		bool		url_null,
					fp_null;
		Datum		ud = SPI_getbinval(tuple, reader.desc, 1, &url_null);
		Datum		fd = SPI_getbinval(tuple, reader.desc, 2, &fp_null);
		MemoryContext old;
		text	   *t;
		NddUrl		url;
		int			valid;
		char		why[NDD_URL_WHY_BYTES];
		size_t		n = pages->n;

		if (url_null || fp_null)
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

				pages->urls = pages->urls ? repalloc_huge(pages->urls, cap * sizeof(char *))
					: MemoryContextAllocHuge(work, cap * sizeof(char *));
				pages->lens = pages->lens ? repalloc_huge(pages->lens, cap * sizeof(uint32))
					: MemoryContextAllocHuge(work, cap * sizeof(uint32));
				pages->paths = pages->paths ? repalloc_huge(pages->paths, cap * sizeof(uint32))
					: MemoryContextAllocHuge(work, cap * sizeof(uint32));
				pages->fps = pages->fps ? repalloc_huge(pages->fps, cap * words * sizeof(uint64))
					: MemoryContextAllocHuge(work, cap * words * sizeof(uint64));
				pages->cap = cap;
			}
			pages->urls[n] = arena_copy(work, pages, url.data, url.len);
			pages->lens[n] = (uint32) url.len;
			pages->paths[n] = (uint32) url.path_start;
			if (pages->bits == 64)
				pages->fps[n] = DatumGetSimhash64(fd);
			else
			{
				Fp128	   *v = DatumGetFp128P(fd);

				pages->fps[2 * n] = v->hi;
				pages->fps[2 * n + 1] = v->lo;
			}
		}
		pages->n++;
		MemoryContextReset(row_cxt);
	}
	ndd_query_close(&reader);
	SPI_finish();
	if (pages->too_large)
		ndd_input_too_large("ndd_mirrors", psprintf("%zu pages", pages->n),
							pages->url_bytes + pages->n * mirror_row_bytes(pages->bits));
	pages->ids = MemoryContextAllocHuge(work, Max(pages->n, 1) * sizeof(int64));
	for (size_t i = 0; i < pages->n; i++)
		pages->ids[i] = (int64) i;
}

static int
compare_cstrings(const void *x, const void *y)
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
	qsort(sorted, pages->n, sizeof(char *), compare_cstrings);
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

/*
 * The sort entry of a prefix pair and suffix: a \x01 b \x01 p. Normalized URLs hold printable
 * ASCII only (bytes >= 0x80 are percent-encoded, control characters rejected), so \x01 sorts
 * below every URL byte and the entries sort as the triples (a, b, p) would, bytewise.
 */
static text *
pair_entry(const char *a, size_t alen, const char *b, size_t blen, const char *p, size_t plen)
{
	text	   *t = palloc(VARHDRSZ + alen + blen + plen + 2);
	char	   *d = VARDATA(t);

	SET_VARSIZE(t, VARHDRSZ + alen + blen + plen + 2);
	memcpy(d, a, alen);
	d[alen] = '\x01';
	memcpy(d + alen + 1, b, blen);
	d[alen + 1 + blen] = '\x01';
	memcpy(d + alen + blen + 2, p, plen);
	return t;
}

/* Feeds every pair of pages within k bits, as (a, b, p) entries, into sort. */
static void
sort_pair_entries(MemoryContext work, MirrorPages *pages, int32 k, Tuplesortstate *sort,
				  TupleTableSlot *slot)
{
	MirrorIter *mi = MemoryContextAllocZero(work, sizeof(MirrorIter));
	MemoryContext batch_cxt = AllocSetContextCreate(work, "ndd_mirrors pairs", ALLOCSET_DEFAULT_SIZES);
	NddPair    *buf = MemoryContextAlloc(work, NDD_MIRROR_BATCH * sizeof(NddPair));
	NddStatus	status;

	mi->callback.func = mirror_iter_release;
	mi->callback.arg = mi;
	MemoryContextRegisterResetCallback(work, &mi->callback);
	status = ndd_hamming_pairs_begin_part(pages->bits, (const int64_t *) pages->ids,
										  (const uint64_t *) pages->fps, pages->n, 0, k, 0, -1,
										  ndd_interrupt_pending, &mi->iter);
	ndd_raise_status(status, "pages within k bits");
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
		{
			size_t		x = (size_t) buf[i].a,
						y = (size_t) buf[i].b;
			const char *ux = pages->urls[x],
					   *uy = pages->urls[y];
			size_t		lx = pages->lens[x],
						ly = pages->lens[y],
						p = ndd_url_common_suffix(ux, lx, pages->paths[x], uy, ly, pages->paths[y]);
			size_t		ax,
						ay;
			int			cmp;

			if (p == 0)
				continue;		/* no common suffix of whole segments */
			ax = lx - p;
			ay = ly - p;
			cmp = memcmp(ux, uy, Min(ax, ay));
			if (cmp == 0)
				cmp = (ax > ay) - (ax < ay);
			if (cmp == 0)
				continue;		/* one prefix: the same URL twice */
			ExecClearTuple(slot);
			slot->tts_values[0] = cmp < 0 ? PointerGetDatum(pair_entry(ux, ax, uy, ay, ux + ax, p))
				: PointerGetDatum(pair_entry(uy, ay, ux, ax, ux + ax, p));
			slot->tts_isnull[0] = false;
			ExecStoreVirtualTuple(slot);
			tuplesort_puttupleslot(sort, slot);
		}
		MemoryContextSwitchTo(old);
		MemoryContextReset(batch_cxt);
		CHECK_FOR_INTERRUPTS();
	}
	ndd_hamming_pairs_end(mi->iter);
	mi->iter = NULL;
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
 * ndd_mirrors(pages_sql text, k int, min_shared int, min_fraction float8)
 *    RETURNS TABLE(a text, b text, shared bigint, pages_a bigint, pages_b bigint)
 * Pairs of URL prefixes (scheme://host/leading/segments/) under which at least min_shared and at
 * least min_fraction of each side's pages have a page within k bits on the other side at the same
 * remaining path. See doc/web.md for the definition.
 */
Datum
ndd_mirrors(PG_FUNCTION_ARGS)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int32		k = PG_GETARG_INT32(1);
	int32		min_shared = PG_GETARG_INT32(2);
	float8		min_fraction = PG_GETARG_FLOAT8(3);
	ReturnSetInfo *rsinfo;
	MemoryContext work;
	MirrorPages pages = {0};
	TupleDesc	entry_desc;
	TupleTableSlot *in_slot,
			   *out_slot;
	Tuplesortstate *sort;
	AttrNumber	attno = 1;
	Oid			lt_op = TextLessOperator;
	Oid			collation = C_COLLATION_OID;
	bool		nulls_first = false;
	char	  **sorted;
	size_t		nsorted;
	StringInfoData group,		/* the current a \x01 b \x01 */
				last_p;
	int64		shared = 0;
	uint64		entries = 0;

	if (k < 0 || k > NDD_BATCH_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 0 and %d", NDD_BATCH_MAX_K),
				 errdetail("k is %d.", k)));
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

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	work = AllocSetContextCreate(CurrentMemoryContext, "ndd_mirrors", ALLOCSET_DEFAULT_SIZES);
	read_pages(fcinfo, work, sql, &pages);
	if (pages.n < 2)
	{
		MemoryContextDelete(work);
		return (Datum) 0;
	}

	/* one text column, sorted bytewise (C collation): the (a, b, p) entries */
	entry_desc = CreateTemplateTupleDesc(1);
	TupleDescInitEntry(entry_desc, 1, "entry", TEXTOID, -1, 0);
	TupleDescInitEntryCollation(entry_desc, 1, C_COLLATION_OID);
	in_slot = MakeSingleTupleTableSlot(entry_desc, &TTSOpsVirtual);
	out_slot = MakeSingleTupleTableSlot(entry_desc, &TTSOpsMinimalTuple);
	sort = tuplesort_begin_heap(entry_desc, 1, &attno, &lt_op, &collation, &nulls_first, work_mem,
								NULL, TUPLESORT_NONE);
	sort_pair_entries(work, &pages, k, sort, in_slot);
	tuplesort_performsort(sort);

	/* the core's arrays are gone; the URLs, sorted and distinct, count the pages under a prefix */
	sorted = sorted_distinct_urls(work, &pages, &nsorted);

	initStringInfo(&group);
	initStringInfo(&last_p);
	for (;;)
	{
		bool		more = tuplesort_gettupleslot(sort, true, false, out_slot, NULL);
		const char *e = NULL,
				   *p = NULL;
		size_t		elen = 0,
					glen = 0,
					plen = 0;

		if (more)
		{
			bool		isnull;
			text	   *t = DatumGetTextPP(slot_getattr(out_slot, 1, &isnull));
			const char *sep;

			e = VARDATA_ANY(t);
			elen = VARSIZE_ANY_EXHDR(t);
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
			CHECK_FOR_INTERRUPTS();
	}
	tuplesort_end(sort);
	ExecDropSingleTupleTableSlot(in_slot);
	ExecDropSingleTupleTableSlot(out_slot);
	MemoryContextDelete(work);
	return (Datum) 0;
}
