/*
 * distances.c
 *    The character edit distance of two texts, edit_distance() and edit_similarity() (core:
 *    src/core/edit_distance.cpp, bit-parallel and banded), the exact term-frequency cosine(), and
 *    Charikar's cosine estimate from two simhashes, simhash_cosine().
 */
#include "ndd.h"

#include <math.h>

#include "miscadmin.h"

#include "distance_api.h"
#include "fingerprint_api.h"
#include "fingerprint_args.h"

PG_FUNCTION_INFO_V1(ndd_edit_distance_text);
PG_FUNCTION_INFO_V1(ndd_edit_similarity_text);
PG_FUNCTION_INFO_V1(ndd_cosine_text_tf);
PG_FUNCTION_INFO_V1(ndd_simhash_cosine64);
PG_FUNCTION_INFO_V1(ndd_simhash_cosine128);

/*
 * The edit distance of two texts, within work_mem: the core holds 4 bytes per code point of each
 * text and the pattern's match masks (ndd_edit_distance_bytes), in C++ heap memory PostgreSQL does
 * not see, so a pair needing more is refused with 53200 before the work starts.
 */
static NddEditDistance
edit_distance_of(text *ta, text *tb, int32 cost, int64 bound, const char *what)
{
	size_t		alen,
				blen;
	const char *a = ndd_text_utf8(ta, &alen);
	const char *b = ndd_text_utf8(tb, &blen);
	double		need;
	NddEditDistance out;

	ndd_check_param("substitution_cost", cost, 1, 2);
	/* a code point takes at least one byte: the byte count bounds the need without a scan */
	need = (double) ndd_edit_distance_bytes(alen, blen);
	if (need > (double) work_mem * 1024.0)
		need = (double) ndd_edit_distance_bytes(ndd_utf8_length(a, alen), ndd_utf8_length(b, blen));
	if (need > (double) work_mem * 1024.0)
	{
		size_t		need_mb = (size_t) (need / (1 << 20)) + 1;

		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("%s needs %zu MB of memory for texts of %zu and %zu bytes, more than work_mem (%d kB)",
						what, need_mb, alen, blen, work_mem),
				 errdetail("The distance holds 4 bytes per character of each text and the match masks of the shorter one."),
				 errhint("Raise work_mem to at least %zuMB for this call (SET work_mem = '%zuMB').", need_mb, need_mb)));
	}
	memset(&out, 0, sizeof(out));
	ndd_raise_status(ndd_edit_distance(a, alen, b, blen, cost, bound, &out, ndd_interrupt_pending), what);
	return out;
}

/*
 * edit_distance(a text, b text, max int DEFAULT NULL, substitution_cost int DEFAULT 1) -> int: the
 * fewest character insertions, deletions and substitutions (cost 1; cost 2 gives the insert/delete
 * distance) turning a into b, over code points; with max, max + 1 as soon as the distance exceeds
 * it. Not strict, because a NULL max means "no bound": NULL a, b or substitution_cost give NULL.
 */
Datum
ndd_edit_distance_text(PG_FUNCTION_ARGS)
{
	int64		bound = -1;
	NddEditDistance d;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	if (!PG_ARGISNULL(2))
	{
		int32		max = PG_GETARG_INT32(2);

		if (max < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("max must be at least 0, not %d", max)));
		bound = max;
	}
	d = edit_distance_of(PG_GETARG_TEXT_PP(0), PG_GETARG_TEXT_PP(1), PG_GETARG_INT32(3), bound, "edit_distance");
	/* at most the code points of both texts (< 2^31 for two values of at most 1 GB), or max + 1 */
	if (d.distance > PG_INT32_MAX)
		d.distance = PG_INT32_MAX;
	PG_RETURN_INT32((int32) d.distance);
}

/*
 * edit_similarity(a text, b text, substitution_cost int DEFAULT 1) -> float8: 1 - d / max(length a,
 * length b) for cost 1, 1 - d / (length a + length b) for cost 2 (lengths in code points: the
 * distance's largest value), so 1 for equal texts and 0 for texts with nothing in common; 1 when
 * both are empty.
 */
Datum
ndd_edit_similarity_text(PG_FUNCTION_ARGS)
{
	NddEditDistance d = edit_distance_of(PG_GETARG_TEXT_PP(0), PG_GETARG_TEXT_PP(1), PG_GETARG_INT32(2), -1,
										 "edit_similarity");

	PG_RETURN_FLOAT8(d.similarity);
}

/*
 * Refuses (53200) a cosine of texts of alen and blen bytes when its term counts would not fit in
 * work_mem: per shingle a 24-byte reference and a 24-byte count (up to 1.5 times the 32 bytes per
 * shingle that ndd_fp_shingle_set_bytes counts), besides the token streams. A token takes at least
 * two bytes of input, so 32 bytes per input byte bound the need without reading the texts.
 */
static void
check_cosine_memory(const char *a, size_t alen, const char *b, size_t blen, int32 shingle, int32 tokenizer)
{
	double		budget = (double) work_mem * 1024.0;
	size_t		abytes,
				bbytes;
	double		need;

	if (32.0 * ((double) alen + (double) blen) <= budget)
		return;
	ndd_raise_status(ndd_fp_shingle_set_bytes(a, alen, shingle, &abytes, tokenizer, ndd_interrupt_pending), "cosine");
	ndd_raise_status(ndd_fp_shingle_set_bytes(b, blen, shingle, &bbytes, tokenizer, ndd_interrupt_pending), "cosine");
	need = 1.5 * ((double) abytes + (double) bbytes);
	if (need > budget)
	{
		size_t		need_mb = (size_t) (need / (1 << 20)) + 1;

		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("cosine needs %zu MB of memory for the term counts of texts of %zu and %zu bytes, more than work_mem (%d kB)",
						need_mb, alen, blen, work_mem),
				 errhint("Raise work_mem to at least %zuMB for this call (SET work_mem = '%zuMB').", need_mb, need_mb)));
	}
}

/*
 * cosine(a text, b text, shingle int DEFAULT 1, tokenizer text DEFAULT 'words') -> float8: the
 * cosine of the term-frequency vectors of the word shingles of a and b (jaccard's tokens and
 * shingles, counted with repeats); 1 when neither has a word, 0 when one has none.
 */
Datum
ndd_cosine_text_tf(PG_FUNCTION_ARGS)
{
	size_t		alen,
				blen;
	const char *a = ndd_text_utf8(PG_GETARG_TEXT_PP(0), &alen);
	const char *b = ndd_text_utf8(PG_GETARG_TEXT_PP(1), &blen);
	int32		shingle = PG_GETARG_INT32(2);
	int32		tokenizer = ndd_tokenizer_arg(fcinfo, 3);
	double		out = 0;

	ndd_check_param("shingle", shingle, 1, NDD_MAX_SHINGLE);
	check_cosine_memory(a, alen, b, blen, shingle, tokenizer);
	ndd_raise_status(ndd_cosine_text(a, alen, b, blen, shingle, tokenizer, &out, ndd_interrupt_pending), "cosine");
	PG_RETURN_FLOAT8(out);
}

/*
 * Charikar's estimate of the cosine of the angle between the vectors two f-bit simhashes were made
 * from: each bit is the side of one random hyperplane, and two vectors at angle theta fall on
 * different sides with probability theta / pi, so d differing bits estimate theta as pi d / f.
 * d = 0 gives exactly 1, d = f / 2 exactly 0 and d = f exactly -1.
 */
static double
charikar_cosine(int distance, int bits)
{
	if (distance == 0)
		return 1.0;
	if (distance == bits)
		return -1.0;
	if (2 * distance == bits)
		return 0.0;				/* cos(pi / 2) is 6e-17 in floating point */
	return cos(M_PI * (double) distance / (double) bits);
}

/* simhash_cosine(a, b) of two fingerprints of `bits` bits (the first two arguments) */
static double
simhash_cosine_args(FunctionCallInfo fcinfo, int bits)
{
	uint64		a[2],
				b[2];

	ndd_fingerprint_words(PG_GETARG_DATUM(0), bits, a);
	ndd_fingerprint_words(PG_GETARG_DATUM(1), bits, b);
	return charikar_cosine(ndd_hamming_words(a, b), bits);
}

/* simhash_cosine(a simhash64, b simhash64) -> float8: cos(pi * (a <~> b) / 64) */
Datum
ndd_simhash_cosine64(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(simhash_cosine_args(fcinfo, 64));
}

/* simhash_cosine(a fp128, b fp128) -> float8: cos(pi * (a <~> b) / 128) */
Datum
ndd_simhash_cosine128(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(simhash_cosine_args(fcinfo, 128));
}
