/*
 * similarity.c
 *    Exact verification functions: jaccard() and containment() of word shingle sets, and
 *    word_edit_distance(). Nothing is estimated: shingles are compared as strings. Shingle sets
 *    that do not fit in work_mem are sorted through tuplesorts that spill to disk.
 */
#include "ndd.h"

#include "catalog/pg_operator_d.h"
#include "catalog/pg_type_d.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/tuplesort.h"

#include "fingerprint_api.h"
#include "fingerprint_args.h"

PG_FUNCTION_INFO_V1(ndd_jaccard);
PG_FUNCTION_INFO_V1(ndd_containment);
PG_FUNCTION_INFO_V1(ndd_word_edit_distance);
PG_FUNCTION_INFO_V1(ndd_verify_pair);

/*
 * Memory. The in-memory comparison (the core's ShingleSet) needs about 16 bytes per shingle plus a
 * copy of each token stream, in C++ heap memory PostgreSQL does not see: six times the input and
 * more. It runs only when the core's exact figure for both sides fits in work_mem. Past that, each
 * side's shingles go through a tuplesort (work_mem / 2 each, spilling to temporary files) and the
 * two sorted runs are merged. Both paths compare shingles exactly, as (64-bit hash, text) pairs, so
 * they count the same sets.
 */

/*
 * A shingle as a sort key: a bytea holding its hash (big-endian, so byte order is hash order) and
 * then its text. bytea's "<" compares bytes, so equal keys are equal (hash, text) pairs.
 */
static bytea *
shingle_key(const char *text, size_t len, uint64 hash, const char *what)
{
	bytea	   *key;
	int			i;

	if (len > MaxAllocSize - VARHDRSZ - sizeof(uint64))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s cannot compare a word shingle of %zu bytes", what, len),
				 errdetail("A shingle of a text that does not fit in work_mem is sorted as one value of at most 1 GB.")));
	key = palloc(VARHDRSZ + sizeof(uint64) + len);
	SET_VARSIZE(key, VARHDRSZ + sizeof(uint64) + len);
	for (i = 0; i < 8; i++)
		((unsigned char *) VARDATA(key))[i] = (unsigned char) (hash >> (56 - 8 * i));
	memcpy(VARDATA(key) + sizeof(uint64), text, len);
	return key;
}

/* Every shingle of doc (repeats included), sorted by key with at most work_kb of memory. */
static Tuplesortstate *
sorted_shingles(const char *doc, size_t len, int32 shingle, int32 tokenizer, int work_kb, const char *what)
{
	NddCursorGuard *cursor = ndd_cursor_open(doc, len, shingle, tokenizer, what);
	Tuplesortstate *sort;
	const char *text;
	size_t		tlen;
	uint64		hash;

	sort = tuplesort_begin_datum(BYTEAOID, ByteaLessOperator, InvalidOid, false, work_kb, NULL, TUPLESORT_NONE);
	while (ndd_cursor_next(cursor, &text, &tlen, &hash))
	{
		bytea	   *key = shingle_key(text, tlen, hash, what);

		tuplesort_putdatum(sort, PointerGetDatum(key), false);
		pfree(key);
	}
	ndd_cursor_close(cursor);
	tuplesort_performsort(sort);
	return sort;
}

/* One side of the merge: its sorted keys, read without repeats. */
typedef struct SortedSide
{
	Tuplesortstate *sort;
	bytea	   *key;			/* the current key, NULL after the last */
	int64		distinct;		/* distinct keys read so far */
} SortedSide;

/* Orders keys as bytea's "<" does: bytes, then length. */
static int
key_cmp(const bytea *x, const bytea *y)
{
	size_t		xl = VARSIZE_ANY_EXHDR(x);
	size_t		yl = VARSIZE_ANY_EXHDR(y);
	int			c = memcmp(VARDATA_ANY(x), VARDATA_ANY(y), Min(xl, yl));

	if (c != 0)
		return c;
	return xl < yl ? -1 : (xl > yl ? 1 : 0);
}

/* Moves side to its next distinct key. */
static void
advance(SortedSide *side)
{
	Datum		d;
	bool		isnull;

	CHECK_FOR_INTERRUPTS();
	while (ndd_tuplesort_getdatum(side->sort, true, &d, &isnull))
	{
		bytea	   *key = (bytea *) DatumGetPointer(d);

		if (side->key && key_cmp(key, side->key) == 0)
		{
			pfree(key);
			continue;
		}
		if (side->key)
			pfree(side->key);
		side->key = key;
		side->distinct++;
		return;
	}
	if (side->key)
		pfree(side->key);
	side->key = NULL;
}

/* The overlap of a's and b's shingle sets through two tuplesorts, within work_mem. */
static NddShingleOverlap
spilled_overlap(const char *a, size_t alen, const char *b, size_t blen, int32 shingle, int32 tokenizer,
				const char *what)
{
	int			work_kb = Max(work_mem / 2, 64);
	SortedSide	sa = {sorted_shingles(a, alen, shingle, tokenizer, work_kb, what), NULL, 0};
	SortedSide	sb = {sorted_shingles(b, blen, shingle, tokenizer, work_kb, what), NULL, 0};
	NddShingleOverlap o;

	memset(&o, 0, sizeof(o));
	advance(&sa);
	advance(&sb);
	while (sa.key && sb.key)
	{
		int			c = key_cmp(sa.key, sb.key);

		if (c <= 0)
			advance(&sa);
		if (c >= 0)
			advance(&sb);
		if (c == 0)
			o.inter++;
	}
	while (sa.key)
		advance(&sa);
	while (sb.key)
		advance(&sb);
	tuplesort_end(sa.sort);
	tuplesort_end(sb.sort);
	o.size_a = sa.distinct;
	o.size_b = sb.distinct;
	ndd_fp_overlap_measures(&o);
	return o;
}

/*
 * Whether the in-memory comparison of a and b fits in work_mem. A token takes at least two bytes of
 * input (itself and a separator), so 24 bytes per input byte bound what the core needs without
 * reading the texts; only past that bound does the core count it exactly.
 */
static bool
overlap_fits_in_memory(const char *a, size_t alen, const char *b, size_t blen, int32 shingle, int32 tokenizer,
					   const char *what)
{
	double		budget = (double) work_mem * 1024.0;
	size_t		abytes,
				bbytes;

	if (24.0 * ((double) alen + (double) blen) <= budget)
		return true;
	ndd_raise_status(ndd_fp_shingle_set_bytes(a, alen, shingle, &abytes, tokenizer, ndd_interrupt_pending), what);
	if ((double) abytes > budget)
		return false;
	ndd_raise_status(ndd_fp_shingle_set_bytes(b, blen, shingle, &bbytes, tokenizer, ndd_interrupt_pending), what);
	return (double) abytes + (double) bbytes <= budget;
}

/* Exact comparison of the shingle sets of a and b, within work_mem. */
static NddShingleOverlap
overlap_of(const char *a, size_t alen, const char *b, size_t blen, int32 shingle, int32 tokenizer,
		   const char *what)
{
	NddShingleOverlap o;

	memset(&o, 0, sizeof(o));
	ndd_check_param("shingle", shingle, 1, NDD_MAX_SHINGLE);
	if (!overlap_fits_in_memory(a, alen, b, blen, shingle, tokenizer, what))
		return spilled_overlap(a, alen, b, blen, shingle, tokenizer, what);
	ndd_raise_status(ndd_fp_shingle_overlap(a, alen, b, blen, shingle, &o, tokenizer, ndd_interrupt_pending), what);
	return o;
}

/* Exact comparison of the shingle sets of the first two (text) arguments (shingle, tokenizer: the third
 * and fourth). */
static NddShingleOverlap
overlap_of_args(FunctionCallInfo fcinfo, const char *what)
{
	size_t		alen,
				blen;
	const char *a = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &alen);
	const char *b = ndd_text_utf8(PG_GETARG_TEXT_PP(1), &blen);

	return overlap_of(a, alen, b, blen, PG_GETARG_INT32(2), ndd_tokenizer_arg(fcinfo, 3), what);
}

/* The number of tokens of doc (what cardinality(ndd_tokens(doc)) is), read one at a time. */
static int64
token_count(const char *doc, size_t len, int32 tokenizer, const char *what)
{
	NddCursorGuard *cursor = ndd_cursor_open(doc, len, 1, tokenizer, what);
	const char *text;
	size_t		tlen;
	uint64		hash;
	int64		n = 0;

	while (ndd_cursor_next(cursor, &text, &tlen, &hash))
		n++;
	ndd_cursor_close(cursor);
	return n;
}

/*
 * Refuses (53200) a word edit distance of texts of alen and blen bytes with na and nb tokens when
 * the core would need more than work_mem: 4 bytes per token in each token array (up to three
 * times that while the arrays grow), a row of 4 bytes per token of the shorter one, and each
 * distinct token once in a hash map (at most about twice the texts). Its time is O(n * distance)
 * and it is cancellable; its memory grew with the texts unchecked (issue 20: ndd_verify of two
 * 90 MB texts took 1.6 GB).
 */
static void
check_edit_distance_memory(size_t alen, int64 na, size_t blen, int64 nb, const char *what)
{
	double		need = 12.0 * (double) (na + nb) + 4.0 * (double) Min(na, nb) + 2.0 * ((double) alen + (double) blen);

	if (need > (double) work_mem * 1024.0)
	{
		size_t		need_mb = (size_t) (need / (1 << 20)) + 1;

		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("%s needs %zu MB of memory for the word edit distance of texts of " INT64_FORMAT " and " INT64_FORMAT " words, more than work_mem (%d kB)",
						what, need_mb, na, nb, work_mem),
				 errhint("Raise work_mem to at least %zuMB for this call (SET work_mem = '%zuMB').", need_mb, need_mb)));
	}
}

/*
 * jaccard(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') -> float8: |S(a) n S(b)| / |S(a) u S(b)| over the
 * distinct word shingles; 1 when neither text has a word.
 */
Datum
ndd_jaccard(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(overlap_of_args(fcinfo, "jaccard").jaccard);
}

/*
 * containment(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') -> float8: |S(a) n S(b)| / |S(a)|, how much of
 * a is in b; 1 when a has no word.
 */
Datum
ndd_containment(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(overlap_of_args(fcinfo, "containment").containment);
}

/*
 * word_edit_distance(a text, b text, substitution_cost int DEFAULT 1, tokenizer text DEFAULT 'words') -> int: the fewest token
 * insertions, deletions and substitutions turning a's tokens into b's. Substitution cost 1 is the
 * Levenshtein distance; 2 gives the insert/delete distance (that of the evaluation corpus).
 */
Datum
ndd_word_edit_distance(PG_FUNCTION_ARGS)
{
	size_t		alen,
				blen;
	const char *a = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &alen);
	const char *b = ndd_text_utf8(PG_GETARG_TEXT_PP(1), &blen);
	int32		cost = PG_GETARG_INT32(2);
	int32		tokenizer = ndd_tokenizer_arg(fcinfo, 3);
	int64		distance = 0;

	ndd_check_param("substitution_cost", cost, 1, 2);
	/*
	 * small texts skip the count: a token takes at least two bytes (and a unit character of
	 * 'unicode', three), so 10 per byte bound the need
	 */
	if (10.0 * ((double) alen + (double) blen) <= (double) work_mem * 1024.0)
		ndd_raise_status(ndd_fp_word_edit_distance(a, alen, b, blen, cost, &distance, tokenizer,
												   ndd_interrupt_pending),
						 "word_edit_distance");
	else
	{
		check_edit_distance_memory(alen, token_count(a, alen, tokenizer, "word_edit_distance"),
								   blen, token_count(b, blen, tokenizer, "word_edit_distance"), "word_edit_distance");
		ndd_raise_status(ndd_fp_word_edit_distance(a, alen, b, blen, cost, &distance, tokenizer,
												   ndd_interrupt_pending),
						 "word_edit_distance");
	}
	/* at most the number of tokens of both texts, which 1 GB values keep far below INT32_MAX */
	PG_RETURN_INT32((int32) distance);
}

/*
 * ndd_verify_pair(a text, b text, shingle int, tokenizer text) -> (jaccard, a_in_b, b_in_a, word_edit_distance,
 * edit_similarity): every measure of ndd_verify for one pair, from one copy of each text (separate
 * calls each detoasted both, and cardinality(ndd_tokens()) built every token as an array):
 * the shingle overlap within work_mem (spilling as jaccard() does), the word edit distance within
 * work_mem or 53200. edit_similarity = 1 - distance / (tokens of a + tokens of b), NULL when both
 * have no token.
 */
Datum
ndd_verify_pair(PG_FUNCTION_ARGS)
{
	size_t		alen,
				blen;
	const char *a = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &alen);
	const char *b = ndd_text_utf8(PG_GETARG_TEXT_PP(1), &blen);
	int32		shingle = PG_GETARG_INT32(2);
	int32		tokenizer = ndd_tokenizer_arg(fcinfo, 3);
	int64		na = token_count(a, alen, tokenizer, "ndd_verify");
	int64		nb = token_count(b, blen, tokenizer, "ndd_verify");
	NddShingleOverlap o;
	int64		distance = 0;
	TupleDesc	desc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	/* the cheap refusal first, before the shingle sets are compared */
	check_edit_distance_memory(alen, na, blen, nb, "ndd_verify");
	o = overlap_of(a, alen, b, blen, shingle, tokenizer, "ndd_verify");
	ndd_raise_status(ndd_fp_word_edit_distance(a, alen, b, blen, 1, &distance, tokenizer, ndd_interrupt_pending),
					 "ndd_verify");

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "ndd_verify_pair must return a composite");
	desc = BlessTupleDesc(desc);
	values[0] = Float8GetDatum(o.jaccard);
	values[1] = Float8GetDatum(o.containment);
	/* containment(b, a): the same intersection over b's set; 1 when b has no shingle */
	values[2] = Float8GetDatum(o.size_b == 0 ? 1.0 : (double) o.inter / (double) o.size_b);
	values[3] = Int32GetDatum((int32) distance);
	if (na + nb == 0)
		nulls[4] = true;
	else
		values[4] = Float8GetDatum(1.0 - (double) distance / (double) (na + nb));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
