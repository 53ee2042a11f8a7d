/*
 * similarity.c
 *    Exact verification functions: jaccard() and containment() of word shingle sets, and
 *    word_edit_distance(). Nothing is estimated: shingles are compared as strings.
 */
#include "ndd.h"

#include "fingerprint_api.h"
#include "fingerprint_args.h"

PG_FUNCTION_INFO_V1(ndd_jaccard);
PG_FUNCTION_INFO_V1(ndd_containment);
PG_FUNCTION_INFO_V1(ndd_word_edit_distance);

/* Exact comparison of the shingle sets of the first two (text) arguments. */
static NddShingleOverlap
overlap_of_args(FunctionCallInfo fcinfo, const char *what)
{
	size_t		alen,
				blen;
	const char *a = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &alen);
	const char *b = ndd_text_utf8(PG_GETARG_TEXT_PP(1), &blen);
	int32		shingle = PG_GETARG_INT32(2);
	NddShingleOverlap o;

	memset(&o, 0, sizeof(o));
	ndd_check_param("shingle", shingle, 1, NDD_MAX_SHINGLE);
	ndd_raise_status(ndd_fp_shingle_overlap(a, alen, b, blen, shingle, &o, ndd_interrupt_pending), what);
	return o;
}

/*
 * jaccard(a text, b text, shingle int DEFAULT 4) -> float8: |S(a) n S(b)| / |S(a) u S(b)| over the
 * distinct word shingles; 1 when neither text has a word.
 */
Datum
ndd_jaccard(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(overlap_of_args(fcinfo, "jaccard").jaccard);
}

/*
 * containment(a text, b text, shingle int DEFAULT 4) -> float8: |S(a) n S(b)| / |S(a)|, how much of
 * a is in b; 1 when a has no word.
 */
Datum
ndd_containment(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(overlap_of_args(fcinfo, "containment").containment);
}

/*
 * word_edit_distance(a text, b text, substitution_cost int DEFAULT 1) -> int: the fewest token
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
	int64		distance = 0;

	ndd_check_param("substitution_cost", cost, 1, 2);
	ndd_raise_status(ndd_fp_word_edit_distance(a, alen, b, blen, cost, &distance, ndd_interrupt_pending),
					 "word_edit_distance");
	/* at most the number of tokens of both texts, which 1 GB values keep far below INT32_MAX */
	PG_RETURN_INT32((int32) distance);
}
