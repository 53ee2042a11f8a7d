/*
 * fingerprints.c
 *    SQL functions that turn a document into fingerprints: simhash (words, word shingles, tsvector
 *    lexemes, weighted feature arrays, character n-grams), shingle minhash sketches, the bit-flip
 *    fingerprint, Pugh's word-list fingerprints, the content hash, ndd_tokens(), the token stream
 *    they all see, and ndd_filter(), that stream without numbers and stop words.
 *
 * Each function checks its parameters (22023 naming the parameter), hands UTF-8 bytes to the C++
 * core through fingerprint_api.h, and raises the core's status only after the call has returned.
 * The algorithms, seeds and normalization are documented in src/core (tokenize.hpp, hashing.hpp and
 * one header per fingerprint).
 */
#include "ndd.h"

#include <limits.h>
#include <math.h>

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "tsearch/ts_type.h"
#include "utils/array.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "fingerprint_api.h"
#include "fingerprint_args.h"

PG_FUNCTION_INFO_V1(ndd_simhash_text);
PG_FUNCTION_INFO_V1(ndd_simhash_text_shingles);
PG_FUNCTION_INFO_V1(ndd_simhash_tsvector);
PG_FUNCTION_INFO_V1(ndd_simhash_tsvector_shingles);
PG_FUNCTION_INFO_V1(ndd_simhash_features);
PG_FUNCTION_INFO_V1(ndd_simhash_chars);
PG_FUNCTION_INFO_V1(ndd_shingle_minhash);
PG_FUNCTION_INFO_V1(ndd_bitflip_fp);
PG_FUNCTION_INFO_V1(ndd_word_list_fingerprints);
PG_FUNCTION_INFO_V1(ndd_content_hash);
PG_FUNCTION_INFO_V1(ndd_tokens);
PG_FUNCTION_INFO_V1(ndd_filter);
PG_FUNCTION_INFO_V1(ndd_tokenizer_version_sql);

/* simhash of the words (shingle 1) or word shingles of a text argument. */
static Datum
simhash_of_text(text *doc, int32 shingle, int32 tokenizer)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(doc, &len);
	uint64		fp = 0;

	ndd_check_param("shingle", shingle, 1, NDD_MAX_SHINGLE);
	ndd_raise_status(ndd_fp_simhash_text(bytes, len, shingle, &fp, tokenizer, ndd_interrupt_pending), "simhash");
	PG_RETURN_SIMHASH64(fp);
}

/*
 * simhash(doc text, tokenizer text DEFAULT 'words') -> simhash64: every word votes, with weight
 * its number of occurrences.
 */
Datum
ndd_simhash_text(PG_FUNCTION_ARGS)
{
	return simhash_of_text(PG_GETARG_TEXT_PP(0), 1, ndd_tokenizer_arg(fcinfo, 1));
}

/*
 * simhash(doc text, shingle int, tokenizer text DEFAULT 'words') -> simhash64: every word shingle of
 * that size votes.
 */
Datum
ndd_simhash_text_shingles(PG_FUNCTION_ARGS)
{
	return simhash_of_text(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1), ndd_tokenizer_arg(fcinfo, 2));
}

/* One lexeme occurrence of a tsvector, for sorting into document order. */
typedef struct LexemeOccurrence
{
	uint16		pos;			/* position in the document (0 when the lexeme has none) */
	int			lexeme;			/* index of the lexeme in the tsvector */
} LexemeOccurrence;

/* Orders occurrences by position, then lexeme; lexemes without positions (pos 0) come last. */
static int
occurrence_cmp(const void *a, const void *b)
{
	const LexemeOccurrence *x = a;
	const LexemeOccurrence *y = b;
	int			px = x->pos == 0 ? INT_MAX : x->pos;
	int			py = y->pos == 0 ? INT_MAX : y->pos;

	if (px != py)
		return px < py ? -1 : 1;
	return x->lexeme < y->lexeme ? -1 : (x->lexeme > y->lexeme ? 1 : 0);
}

/* The UTF-8 bytes of every lexeme of tsv (items[i], lens[i]). */
static void
tsvector_lexemes(TSVector tsv, const char ***items, size_t **lens)
{
	WordEntry  *we = ARRPTR(tsv);
	char	   *str = STRPTR(tsv);
	int			i;

	*items = palloc(sizeof(char *) * Max(tsv->size, 1));
	*lens = palloc(sizeof(size_t) * Max(tsv->size, 1));
	for (i = 0; i < tsv->size; i++)
		(*items)[i] = ndd_utf8_bytes(str + we[i].pos, we[i].len, &(*lens)[i]);
}

/*
 * simhash(doc tsvector) -> simhash64: every lexeme votes with weight its number of positions, or 1
 * when it has none (a stripped tsvector). With a 'simple' configuration this equals simhash(text)
 * wherever PostgreSQL's parser and ndd's tokenizer find the same words.
 */
Datum
ndd_simhash_tsvector(PG_FUNCTION_ARGS)
{
	TSVector	tsv = PG_GETARG_TSVECTOR(0);
	WordEntry  *we = ARRPTR(tsv);
	const char **items;
	size_t	   *lens;
	double	   *weights;
	uint64		fp = 0;
	int			i;

	tsvector_lexemes(tsv, &items, &lens);
	weights = palloc(sizeof(double) * Max(tsv->size, 1));
	for (i = 0; i < tsv->size; i++)
		weights[i] = we[i].haspos ? POSDATALEN(tsv, &we[i]) : 1;
	ndd_raise_status(ndd_fp_simhash_features(tsv->size, items, lens, weights, &fp, ndd_interrupt_pending),
					 "simhash");
	PG_RETURN_SIMHASH64(fp);
}

/*
 * simhash(doc tsvector, shingle int) -> simhash64: shingles of lexemes in document order. Each
 * position of a lexeme is one occurrence; occurrences are sorted by position (ties by lexeme).
 * Lexemes without positions follow, once each, in the tsvector's (alphabetical) order, so a
 * stripped tsvector is shingled in lexeme order.
 */
Datum
ndd_simhash_tsvector_shingles(PG_FUNCTION_ARGS)
{
	TSVector	tsv = PG_GETARG_TSVECTOR(0);
	int32		shingle = PG_GETARG_INT32(1);
	WordEntry  *we = ARRPTR(tsv);
	const char **lexemes;
	size_t	   *lexlens;
	LexemeOccurrence *occ;
	const char **items;
	size_t	   *lens;
	int			nocc = 0;
	int			i,
				j;
	uint64		fp = 0;

	ndd_check_param("shingle", shingle, 1, NDD_MAX_SHINGLE);
	tsvector_lexemes(tsv, &lexemes, &lexlens);

	for (i = 0; i < tsv->size; i++)
		nocc += we[i].haspos ? POSDATALEN(tsv, &we[i]) : 1;
	occ = palloc(sizeof(LexemeOccurrence) * Max(nocc, 1));
	nocc = 0;
	for (i = 0; i < tsv->size; i++)
	{
		if (we[i].haspos)
		{
			WordEntryPos *pos = POSDATAPTR(tsv, &we[i]);

			for (j = 0; j < POSDATALEN(tsv, &we[i]); j++)
			{
				/* positions start at 1; 0 cannot occur in a positioned entry */
				occ[nocc].pos = Max(WEP_GETPOS(pos[j]), 1);
				occ[nocc].lexeme = i;
				nocc++;
			}
		}
		else
		{
			occ[nocc].pos = 0;
			occ[nocc].lexeme = i;
			nocc++;
		}
	}
	qsort(occ, nocc, sizeof(LexemeOccurrence), occurrence_cmp);

	items = palloc(sizeof(char *) * Max(nocc, 1));
	lens = palloc(sizeof(size_t) * Max(nocc, 1));
	for (i = 0; i < nocc; i++)
	{
		items[i] = lexemes[occ[i].lexeme];
		lens[i] = lexlens[occ[i].lexeme];
	}
	ndd_raise_status(ndd_fp_simhash_sequence(nocc, items, lens, shingle, &fp, ndd_interrupt_pending),
					 "simhash");
	PG_RETURN_SIMHASH64(fp);
}

/*
 * simhash(features text[], weights float8[] DEFAULT NULL) -> simhash64: every element of features
 * votes (its bytes are hashed as given, not normalized) with the weight at the same position of
 * weights, or with 1 when weights is NULL. Repeated features simply vote again. Not strict: a NULL
 * weights array means "unweighted"; a NULL features array gives NULL. Null elements are errors.
 */
Datum
ndd_simhash_features(PG_FUNCTION_ARGS)
{
	ArrayType  *features;
	Datum	   *fdatums;
	bool	   *fnulls;
	int			nfeatures;
	const char **items;
	size_t	   *lens;
	double	   *weights = NULL;
	uint64		fp = 0;
	int			i;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	features = PG_GETARG_ARRAYTYPE_P(0);
	deconstruct_array(features, TEXTOID, -1, false, TYPALIGN_INT, &fdatums, &fnulls, &nfeatures);
	items = palloc(sizeof(char *) * Max(nfeatures, 1));
	lens = palloc(sizeof(size_t) * Max(nfeatures, 1));
	for (i = 0; i < nfeatures; i++)
	{
		if (fnulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("parameter \"features\" must not contain nulls")));
		/* array elements are never toasted, but may have short headers: *_ANY reads both */
		items[i] = ndd_text_utf8((text *) DatumGetPointer(fdatums[i]), &lens[i]);
	}

	if (!PG_ARGISNULL(1))
	{
		ArrayType  *warr = PG_GETARG_ARRAYTYPE_P(1);
		Datum	   *wdatums;
		bool	   *wnulls;
		int			nweights;

		deconstruct_array(warr, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
						  &wdatums, &wnulls, &nweights);
		if (nweights != nfeatures)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("parameter \"weights\" must have one element per feature"),
					 errdetail("Parameter \"features\" has %d elements and \"weights\" has %d.", nfeatures, nweights)));
		weights = palloc(sizeof(double) * Max(nweights, 1));
		for (i = 0; i < nweights; i++)
		{
			if (wnulls[i])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("parameter \"weights\" must not contain nulls")));
			weights[i] = DatumGetFloat8(wdatums[i]);
			if (isnan(weights[i]) || isinf(weights[i]))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("parameter \"weights\" must contain only finite values"),
						 errdetail("Element %d is %s.", i + 1, isnan(weights[i]) ? "NaN" : "infinite")));
		}
	}
	ndd_raise_status(ndd_fp_simhash_features(nfeatures, items, lens, weights, &fp, ndd_interrupt_pending),
					 "simhash");
	PG_RETURN_SIMHASH64(fp);
}

/*
 * simhash_chars(doc text, n int DEFAULT 4, tokenizer text DEFAULT 'words') -> simhash64: every character n-gram of the normalized
 * token stream (the tokens joined by single spaces; n counts characters) votes.
 */
Datum
ndd_simhash_chars(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	int32		n = PG_GETARG_INT32(1);
	int32		tokenizer = ndd_tokenizer_arg(fcinfo, 2);
	uint64		fp = 0;

	ndd_check_param("n", n, 1, NDD_MAX_SHINGLE);
	ndd_raise_status(ndd_fp_simhash_chars(bytes, len, n, &fp, tokenizer, ndd_interrupt_pending), "simhash_chars");
	PG_RETURN_SIMHASH64(fp);
}

/*
 * shingle_minhash(doc text, shingle int DEFAULT 4, hashes int DEFAULT 84, tokenizer text DEFAULT
 * 'words') -> bigint[]: the minima of
 * `hashes` independent permutations over the distinct word shingles. A text without words gives
 * `hashes` copies of -1 (all bits set: the minimum over nothing), so empty texts resemble each other.
 */
Datum
ndd_shingle_minhash(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	int32		shingle = PG_GETARG_INT32(1);
	int32		hashes = PG_GETARG_INT32(2);
	int32		tokenizer = ndd_tokenizer_arg(fcinfo, 3);
	int64	   *sketch;

	ndd_check_param("shingle", shingle, 1, NDD_MAX_SHINGLE);
	ndd_check_param("hashes", hashes, 1, NDD_MAX_MINHASHES);
	sketch = palloc(sizeof(int64) * hashes);
	ndd_raise_status(ndd_fp_shingle_minhash(bytes, len, shingle, hashes, sketch, tokenizer, ndd_interrupt_pending),
					 "shingle_minhash");
	PG_RETURN_ARRAYTYPE_P(ndd_int8_array(sketch, hashes));
}

/*
 * bitflip_fp(doc text, window int DEFAULT 64, samples int DEFAULT 128) -> fp128: the fingerprint of
 * patent 7,707,157 over the raw (UTF-8) bytes of the text; see src/core/bitflip.hpp.
 */
Datum
ndd_bitflip_fp(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	int32		window = PG_GETARG_INT32(1);
	int32		samples = PG_GETARG_INT32(2);
	NddFp128	fp = {0, 0};
	Fp128	   *result;

	ndd_check_param("window", window, 1, NDD_MAX_BITFLIP_WINDOW);
	ndd_check_param("samples", samples, 1, NDD_MAX_BITFLIP_SAMPLES);
	ndd_raise_status(ndd_fp_bitflip_fp(bytes, len, window, samples, &fp, ndd_interrupt_pending), "bitflip_fp");
	result = palloc(sizeof(Fp128));
	result->hi = fp.hi;
	result->lo = fp.lo;
	PG_RETURN_FP128_P(result);
}

/*
 * word_list_fingerprints(doc text, lists int DEFAULT 4, tokenizer text DEFAULT 'words') -> bigint[]: one fingerprint per non-empty
 * word list, in list order; the low 8 bits of each are its list number. Empty for a text without
 * words.
 */
Datum
ndd_word_list_fingerprints(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	int32		lists = PG_GETARG_INT32(1);
	int32		tokenizer = ndd_tokenizer_arg(fcinfo, 2);
	int64		fps[NDD_MAX_WORD_LISTS];
	int32		count = 0;

	ndd_check_param("lists", lists, 1, NDD_MAX_WORD_LISTS);
	ndd_raise_status(ndd_fp_word_list_fingerprints(bytes, len, lists, fps, &count, tokenizer, ndd_interrupt_pending),
					 "word_list_fingerprints");
	PG_RETURN_ARRAYTYPE_P(ndd_int8_array(fps, count));
}

/*
 * content_hash(doc text, tokenizer text DEFAULT 'words') -> fp128: XXH3-128 of the normalized token stream, the key for exact
 * duplicates up to case, punctuation and spacing.
 */
Datum
ndd_content_hash(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	NddFp128	fp = {0, 0};
	Fp128	   *result;

	ndd_raise_status(ndd_fp_content_hash(bytes, len, &fp, ndd_tokenizer_arg(fcinfo, 1), ndd_interrupt_pending), "content_hash");
	result = palloc(sizeof(Fp128));
	result->hi = fp.hi;
	result->lo = fp.lo;
	PG_RETURN_FP128_P(result);
}

/*
 * The tokens as a text[] written in place, for a database whose text is the core's UTF-8 (or
 * SQL_ASCII) bytes: one allocation of the array's final size, where making a text datum per token
 * and then copying them all into the array took three times as much (issue 8: a 26 MB text went
 * through 227 MB of memory).
 */
static ArrayType *
tokens_array_in_place(const NddTokens *tokens)
{
	Size		nbytes = ARR_OVERHEAD_NONULLS(1);
	ArrayType  *result;
	char	   *p;
	size_t		i;

	for (i = 0; i < tokens->count; i++)
	{
		size_t		end = i + 1 < tokens->count ? tokens->starts[i + 1] - 1 : tokens->text_len;

		nbytes += INTALIGN(VARHDRSZ + end - tokens->starts[i]);
	}
	if (tokens->count > MaxArraySize || !AllocSizeIsValid(nbytes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("array size exceeds the maximum allowed (%d)", (int) MaxAllocSize),
				 errdetail("The text has %zu tokens.", tokens->count)));
	result = palloc0(nbytes);
	SET_VARSIZE(result, nbytes);
	result->ndim = 1;
	result->dataoffset = 0;
	result->elemtype = TEXTOID;
	ARR_DIMS(result)[0] = (int) tokens->count;
	ARR_LBOUND(result)[0] = 1;
	p = ARR_DATA_PTR(result);
	for (i = 0; i < tokens->count; i++)
	{
		size_t		start = tokens->starts[i];
		size_t		end = i + 1 < tokens->count ? tokens->starts[i + 1] - 1 : tokens->text_len;

		SET_VARSIZE(p, VARHDRSZ + end - start);
		memcpy(VARDATA(p), tokens->text + start, end - start);
		p += INTALIGN(VARHDRSZ + end - start);
		if ((i & 0xFFFF) == 0xFFFF)
			CHECK_FOR_INTERRUPTS();
	}
	return result;
}

/*
 * ndd_tokens(doc text, tokenizer text DEFAULT 'words') -> text[]: the tokens every word-level function sees, in order.
 */
Datum
ndd_tokens(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *bytes = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	NddTokens	tokens = {NULL, 0, NULL, 0};
	Datum	   *datums;
	size_t		i;
	int			enc = GetDatabaseEncoding();

	ndd_raise_status(ndd_fp_tokens(bytes, len, ndd_alloc_noerror, &tokens, ndd_tokenizer_arg(fcinfo, 1),
								   ndd_interrupt_pending), "ndd_tokens");
	if (tokens.count == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(TEXTOID));
	if (enc == PG_UTF8 || enc == PG_SQL_ASCII)
		PG_RETURN_ARRAYTYPE_P(tokens_array_in_place(&tokens));
	/* other encodings: each token converted on its own */
	datums = palloc_extended(sizeof(Datum) * tokens.count, MCXT_ALLOC_HUGE);
	for (i = 0; i < tokens.count; i++)
	{
		size_t		start = tokens.starts[i];
		size_t		end = i + 1 < tokens.count ? tokens.starts[i + 1] - 1 : tokens.text_len;

		datums[i] = PointerGetDatum(ndd_text_from_utf8(tokens.text + start, end - start));
		if ((i & 0xFFFF) == 0xFFFF)
			CHECK_FOR_INTERRUPTS();
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(datums, (int) tokens.count, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * ndd_filter's stop-word answers, cached per call: to_tsvector() runs the configuration's parser
 * and dictionaries, far dearer than a lookup, and a text repeats its words. The key is the token's
 * 64-bit hash; the token is kept to tell a collision (then the answer is computed, not cached).
 */
typedef struct StopwordEntry
{
	uint64		hash;			/* key */
	char	   *token;
	size_t		len;
	bool		stop;
} StopwordEntry;

typedef struct StopwordCache
{
	Oid			cfg;
	MemoryContext cxt;			/* holds the hash table and the tokens; reset when over work_mem */
	MemoryContext scratch;		/* to_tsvector's allocations, reset after each call */
	HTAB	   *table;
	Size		bytes;			/* tokens cached */
} StopwordCache;

/* Tokens longer than this are not cached (a stop word is short; a huge token would fill the cache). */
#define STOPWORD_CACHE_MAX_TOKEN	256

static void
stopword_cache_reset(StopwordCache *c)
{
	HASHCTL		ctl;

	MemoryContextReset(c->cxt);
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(StopwordEntry);
	ctl.hcxt = c->cxt;
	c->table = hash_create("ndd_filter stop words", 1024, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	c->bytes = 0;
}

/* Is the UTF-8 token a stop word of the configuration (to_tsvector(cfg, token) = '')? */
static bool
stopword_lookup(StopwordCache *c, const char *token, size_t len)
{
	MemoryContext old = MemoryContextSwitchTo(c->scratch);
	TSVector	lexemes;
	bool		stop;

	lexemes = DatumGetTSVector(DirectFunctionCall2(to_tsvector_byid, ObjectIdGetDatum(c->cfg),
												   PointerGetDatum(ndd_text_from_utf8(token, len))));
	stop = lexemes->size == 0;
	MemoryContextSwitchTo(old);
	MemoryContextReset(c->scratch);
	return stop;
}

static bool
is_stopword(StopwordCache *c, const char *token, size_t len, uint64 hash)
{
	StopwordEntry *e;
	bool		found;

	if (len > STOPWORD_CACHE_MAX_TOKEN)
		return stopword_lookup(c, token, len);
	/* the cache is bounded by work_mem: start over when it is full */
	if (c->bytes > (Size) work_mem * 1024)
		stopword_cache_reset(c);
	e = hash_search(c->table, &hash, HASH_ENTER, &found);
	if (found)
	{
		if (e->len == len && memcmp(e->token, token, len) == 0)
			return e->stop;
		return stopword_lookup(c, token, len);	/* another token with the same hash */
	}
	e->stop = stopword_lookup(c, token, len);
	e->token = MemoryContextAlloc(c->cxt, len);
	memcpy(e->token, token, len);
	e->len = len;
	c->bytes += len + sizeof(StopwordEntry) + 16;
	return e->stop;
}

/* A token of ASCII digits only. */
static bool
is_number(const char *token, size_t len)
{
	size_t		i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++)
		if (token[i] < '0' || token[i] > '9')
			return false;
	return true;
}

/*
 * ndd_filter(doc text, numbers boolean DEFAULT true, stopwords regconfig DEFAULT NULL, tokenizer text
 * DEFAULT 'words') -> text:
 * doc's tokens (ndd_tokens), in order and joined by single spaces, without the tokens of ASCII
 * digits only (numbers) and without those to_tsvector(stopwords, token) reduces to nothing.
 * NULL doc gives NULL; NULL numbers means false, NULL stopwords no stop words, NULL tokenizer 'words'.
 *
 * Memory: the detoasted text, the result (built in place: at most the text's normalized size),
 * one token, and the stop-word cache (bounded by work_mem). Tokens are read one at a time (the
 * word shingles of length 1 of the core's cursor), so a text of hundreds of MB costs about twice
 * its size (in a database encoding other than UTF8, one more copy for the conversion).
 */
Datum
ndd_filter(PG_FUNCTION_ARGS)
{
	bool		numbers;
	StopwordCache cache = {InvalidOid, NULL, NULL, NULL, 0};
	size_t		len;
	const char *bytes;
	NddCursorGuard *cursor;
	StringInfoData out;
	const char *token;
	size_t		tlen;
	uint64		hash;
	text	   *result;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	numbers = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	if (!PG_ARGISNULL(2))
	{
		cache.cfg = PG_GETARG_OID(2);
		ndd_check_ts_config_oid(cache.cfg);
		cache.cxt = AllocSetContextCreate(CurrentMemoryContext, "ndd_filter stop words",
										  ALLOCSET_DEFAULT_SIZES);
		cache.scratch = AllocSetContextCreate(CurrentMemoryContext, "ndd_filter to_tsvector",
											  ALLOCSET_SMALL_SIZES);
		stopword_cache_reset(&cache);
	}
	bytes = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	cursor = ndd_cursor_open(bytes, len, 1, ndd_tokenizer_arg(fcinfo, 3), "ndd_filter");

	/*
	 * The result is written after room for a varlena header, so that in UTF8 and SQL_ASCII
	 * databases the buffer becomes the result text as it is. Sized for the input at once: the
	 * filtered stream is rarely longer (lowercasing can lengthen a letter; then it doubles).
	 */
	out.maxlen = (int) Min(len + VARHDRSZ + 1, (size_t) MaxAllocSize - 1);
	out.data = palloc(out.maxlen);
	out.len = VARHDRSZ;
	out.data[out.len] = '\0';
	out.cursor = 0;
	while (ndd_cursor_next(cursor, &token, &tlen, &hash))
	{
		if (numbers && is_number(token, tlen))
			continue;
		if (OidIsValid(cache.cfg) && is_stopword(&cache, token, tlen, hash))
			continue;
		if (out.len > VARHDRSZ)
			appendStringInfoChar(&out, ' ');
		if (tlen >= MaxAllocSize)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("ndd_filter cannot return a token of %zu bytes", tlen)));
		appendBinaryStringInfo(&out, token, (int) tlen);
	}
	ndd_cursor_close(cursor);
	if (OidIsValid(cache.cfg))
	{
		MemoryContextDelete(cache.cxt);
		MemoryContextDelete(cache.scratch);
	}
	if (GetDatabaseEncoding() == PG_UTF8 || GetDatabaseEncoding() == PG_SQL_ASCII)
	{
		result = (text *) out.data;
		SET_VARSIZE(result, out.len);
	}
	else
	{
		result = ndd_text_from_utf8(out.data + VARHDRSZ, out.len - VARHDRSZ);
		pfree(out.data);
	}
	PG_RETURN_TEXT_P(result);
}

/*
 * ndd_tokenizer_version(tokenizer text) -> text: what fingerprints made with the tokenizer depend on
 * (src/core/tokenizer_api.h).
 */
Datum
ndd_tokenizer_version_sql(PG_FUNCTION_ARGS)
{
	char		buf[256];

	ndd_raise_status(ndd_tokenizer_version(ndd_tokenizer_arg(fcinfo, 0), buf, sizeof(buf)),
					 "ndd_tokenizer_version");
	PG_RETURN_TEXT_P(cstring_to_text(buf));
}
