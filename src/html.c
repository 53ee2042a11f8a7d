/*
 * html.c
 *    SQL functions of the web area: ndd_html_text(html) and ndd_html_content(html), the visible text
 *    and the main content of an HTML page, and ndd_html_meta(html), what the page says about itself
 *    (the core's html_api.h; rules in doc/web.md).
 *
 * Memory: the core holds the page's text blocks (at most about the page's size, in C++ heap
 * memory, freed before the call returns) and the result is palloc'd once; nothing else grows with
 * the page. The parse is linear in the page (no recursion on nesting) and polls for cancellation
 * every 64 kB.
 */
#include "ndd.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "fingerprint_args.h"
#include "html_api.h"

PG_FUNCTION_INFO_V1(ndd_html_text);
PG_FUNCTION_INFO_V1(ndd_html_content);
PG_FUNCTION_INFO_V1(ndd_html_meta);

static Datum
html_extract(text *page, NddHtmlMode mode, const char *what)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(page, &len);
	char	   *buf = NULL;
	size_t		out_len = 0;
	int			enc = GetDatabaseEncoding();
	text	   *result;

	ndd_raise_status(ndd_html_extract(bytes, len, mode, VARHDRSZ, ndd_alloc_noerror, &buf, &out_len,
									  ndd_interrupt_pending), what);
	/* character references can make the text longer than the page (&nGt; is 5 bytes, 6 out) */
	if (out_len > MaxAllocSize - VARHDRSZ - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s: the text of the page is too long (%zu bytes)", what, out_len),
				 errdetail("A text value holds at most 1 GB.")));
	if (enc == PG_UTF8 || enc == PG_SQL_ASCII)
	{
		/* the core wrote the UTF-8 text VARHDRSZ bytes into buf: that is the result as it is */
		result = (text *) buf;
		SET_VARSIZE(result, out_len + VARHDRSZ);
	}
	else
	{
		/* other encodings: a character the database encoding lacks raises 22P05 */
		result = ndd_text_from_utf8(buf + VARHDRSZ, out_len);
		pfree(buf);
	}
	PG_RETURN_TEXT_P(result);
}

/* ndd_html_text(html text) -> text: every visible text block of the page, one a line. */
Datum
ndd_html_text(PG_FUNCTION_ARGS)
{
	return html_extract(PG_GETARG_TEXT_PP(0), NDD_HTML_TEXT, "ndd_html_text");
}

/* ndd_html_content(html text) -> text: the page's main content, or its whole text without one. */
Datum
ndd_html_content(PG_FUNCTION_ARGS)
{
	return html_extract(PG_GETARG_TEXT_PP(0), NDD_HTML_CONTENT, "ndd_html_content");
}

/* jsonb key or string value from UTF-8 bytes, in the database encoding */
static void
push_string(JsonbParseState **state, JsonbIteratorToken token, const char *utf8, size_t len)
{
	JsonbValue	v;
	int			enc = GetDatabaseEncoding();
	const char *server = utf8;

	if (len > 0 && enc != PG_UTF8 && enc != PG_SQL_ASCII)
	{
		server = pg_any_to_server(utf8, (int) len, PG_UTF8);
		if (server != utf8)
			len = strlen(server);
	}
	v.type = jbvString;
	v.val.string.val = (char *) server;
	v.val.string.len = (int) len;
	pushJsonbValue(state, token, &v);
}

/*
 * ndd_html_meta(html text) -> jsonb: {"title", "canonical", "og_url", "language", "description",
 * "published"}, each a string as the page states it or null.
 */
Datum
ndd_html_meta(PG_FUNCTION_ARGS)
{
	static const char *const keys[NDD_HTML_META_FIELDS] = {
		"title", "canonical", "og_url", "language", "description", "published"
	};
	text	   *page = PG_GETARG_TEXT_PP(0);
	size_t		len;
	const char *bytes = ndd_text_utf8(page, &len);
	char	   *buf = NULL;
	size_t		lens[NDD_HTML_META_FIELDS];
	JsonbParseState *state = NULL;
	JsonbValue *res;
	Jsonb	   *result;
	const char *p;

	ndd_raise_status(ndd_html_extract_meta(bytes, len, ndd_alloc_noerror, &buf, lens, ndd_interrupt_pending),
					 "ndd_html_meta");
	pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
	p = buf;
	for (int i = 0; i < NDD_HTML_META_FIELDS; i++)
	{
		push_string(&state, WJB_KEY, keys[i], strlen(keys[i]));
		if (lens[i] > 0)
			push_string(&state, WJB_VALUE, p, lens[i]);
		else
		{
			JsonbValue	null;

			null.type = jbvNull;
			pushJsonbValue(&state, WJB_VALUE, &null);
		}
		p += lens[i] + 1;
	}
	res = pushJsonbValue(&state, WJB_END_OBJECT, NULL);
	/* the values point into buf until the jsonb is built: free it only then */
	result = JsonbValueToJsonb(res);
	pfree(buf);
	PG_RETURN_JSONB_P(result);
}
