/*
 * distance_api.h
 *    C entry points of the character edit distance (edit_distance.hpp) and of the cosine measures
 *    of the core.
 *
 * Plain C, includable from the SQL layer; follows ndd_status.h (returns an NddStatus, never throws
 * or jumps, polls `interrupt` (may be NULL) in long loops). Text arguments are UTF-8 bytes, not
 * NUL-terminated; a byte that starts no valid sequence counts as one character of its own.
 */
#ifndef NDD_DISTANCE_API_H
#define NDD_DISTANCE_API_H

#include <stddef.h>
#include <stdint.h>

#include "ndd_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The edit distance of two texts and what it is measured against. */
typedef struct NddEditDistance
{
	int64_t		distance;		/* the distance, or bound + 1 when it exceeds bound */
	int64_t		length_a;		/* code points of a */
	int64_t		length_b;		/* code points of b */
	double		similarity;		/* 1 - distance / max(lengths) (cost 1), / (sum of lengths) (cost 2) */
} NddEditDistance;

/*
 * The edit distance of a and b over code points: insertions and deletions cost 1, a substitution
 * substitution_cost (1: Levenshtein; 2: the insert/delete distance). bound < 0: no bound; otherwise
 * the answer stops at bound + 1.
 */
NDD_API NddStatus ndd_edit_distance(const char *a, size_t alen, const char *b, size_t blen,
									int32_t substitution_cost, int64_t bound, NddEditDistance *out,
									NddInterruptFn interrupt);

/* Code points of a UTF-8 text (as ndd_edit_distance counts them). */
NDD_API size_t ndd_utf8_length(const char *s, size_t len);

/* An upper bound of the heap bytes ndd_edit_distance needs for texts of na and nb code points. */
NDD_API size_t ndd_edit_distance_bytes(size_t na, size_t nb);

/*
 * The exact cosine of the term-frequency vectors of a's and b's word shingles of `shingle` tokens
 * (1: the words; 1..NDD_MAX_SHINGLE of fingerprint_api.h) of tokenizer (tokenizer_api.h), in C++
 * heap memory: what ndd_fp_shingle_set_bytes gives for each text (a few bytes more per shingle).
 * 1 when neither has a word, 0 when one has none.
 */
NDD_API NddStatus ndd_cosine_text(const char *a, size_t alen, const char *b, size_t blen, int32_t shingle,
								  int32_t tokenizer, double *out, NddInterruptFn interrupt);

/* Dimensions a vector simhash accepts (pgvector's limit). */
#define NDD_MAX_VECTOR_DIMENSIONS	16000

/*
 * Charikar's simhash of the vector v[0..n) over fixed random +-1 hyperplanes (vector_simhash.hpp):
 * out[0] for 64 bits (words 1), out[0] (hi) and out[1] (lo) for 128 (words 2). Every component
 * finite, 1 <= n <= NDD_MAX_VECTOR_DIMENSIONS, else NDD_INVALID_ARGUMENT.
 */
NDD_API NddStatus ndd_vector_simhash(const double *v, size_t n, int32_t words, uint64_t *out,
									 NddInterruptFn interrupt);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_DISTANCE_API_H */
