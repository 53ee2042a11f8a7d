/*
 * fingerprint_api.h
 *    C entry points of the fingerprint functions of the core (simhash, minhash, supershingles,
 *    bit-flip and word-list fingerprints, content hash, exact similarity, tokens).
 *
 * Plain C, includable from the SQL layer. Every function follows ndd_status.h: it returns an
 * NddStatus, never throws or jumps, polls `interrupt` (may be NULL) in long loops, and allocates
 * variable-size output with the caller's NddAllocFn. Text arguments are UTF-8 bytes (not
 * NUL-terminated); bytes that are not valid UTF-8 act as separators. Parameters outside the limits
 * below give NDD_INVALID_ARGUMENT; the SQL layer validates them first to raise a proper error.
 *
 * Every function that tokenizes takes `tokenizer`, a number of tokenizer_api.h (NDD_TOKENIZER_*);
 * another number gives NDD_INVALID_ARGUMENT.
 *
 * Normalization, seeds and every definition are documented in the core headers: tokenize.hpp,
 * hashing.hpp, simhash.hpp, minhash.hpp, bitflip.hpp, wordlists.hpp, similarity.hpp.
 */
#ifndef NDD_FINGERPRINT_API_H
#define NDD_FINGERPRINT_API_H

#include <stddef.h>
#include <stdint.h>

#include "ndd_status.h"
#include "tokenizer_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of the parameters (inclusive; every lower limit is 1). */
#define NDD_MAX_SHINGLE				256		/* word shingle and character n-gram size */
#define NDD_MAX_MINHASHES			1024	/* hash functions of a minhash sketch */
#define NDD_MAX_BITFLIP_WINDOW		65536	/* bytes */
#define NDD_MAX_BITFLIP_SAMPLES		65536
#define NDD_MAX_WORD_LISTS			256
#define NDD_MAX_DOCUMENT_BYTES		((size_t) 1 << 31)

/* A 128-bit fingerprint; hi holds the first 64 bits of its text form. */
typedef struct NddFp128
{
	uint64_t	hi;
	uint64_t	lo;
} NddFp128;

/* Exact shingle-set comparison of two texts. */
typedef struct NddShingleOverlap
{
	int64_t		size_a;			/* distinct shingles of a */
	int64_t		size_b;			/* distinct shingles of b */
	int64_t		inter;			/* distinct shingles in both */
	double		jaccard;		/* inter / union; 1 when both are empty */
	double		containment;	/* inter / size_a; 1 when a is empty */
} NddShingleOverlap;

/*
 * The tokens of a text: `text` holds them joined by single spaces (text_len bytes, not
 * NUL-terminated); token i starts at starts[i] and ends one byte before starts[i+1] (the last one at
 * text_len). Both arrays come from the caller's allocator (NULL when empty).
 */
typedef struct NddTokens
{
	char	   *text;
	size_t		text_len;
	uint32_t   *starts;
	size_t		count;
} NddTokens;

/* simhash of the words of doc (shingle = 1) or of its word shingles of that size. */
NDD_API NddStatus ndd_fp_simhash_text(const char *doc, size_t len, int32_t shingle, uint64_t *out,
								   int32_t tokenizer, NddInterruptFn interrupt);

/* simhash of the character n-grams of doc's token stream (tokens joined by single spaces). */
NDD_API NddStatus ndd_fp_simhash_chars(const char *doc, size_t len, int32_t n, uint64_t *out,
									int32_t tokenizer, NddInterruptFn interrupt);

/*
 * simhash of count features (items[i], lens[i] bytes each, hashed as they are), feature i voting
 * with weights[i], or each with 1 when weights is NULL. Weights must be finite.
 */
NDD_API NddStatus ndd_fp_simhash_features(size_t count, const char *const *items, const size_t *lens,
									   const double *weights, uint64_t *out, NddInterruptFn interrupt);

/*
 * simhash of the word shingles of a sequence of items already normalized (e.g. tsvector lexemes in
 * document order): a shingle is `shingle` consecutive items joined by single spaces.
 */
NDD_API NddStatus ndd_fp_simhash_sequence(size_t count, const char *const *items, const size_t *lens,
									   int32_t shingle, uint64_t *out, NddInterruptFn interrupt);

/* out[0..hashes) = minhash sketch of doc's word shingles (values are unsigned minima, bit-cast). */
NDD_API NddStatus ndd_fp_shingle_minhash(const char *doc, size_t len, int32_t shingle, int32_t hashes,
									  int64_t *out, int32_t tokenizer, NddInterruptFn interrupt);

/* *out = share of the n (> 0) positions where sketches a and b agree. */
NDD_API NddStatus ndd_fp_minhash_similarity(const int64_t *a, const int64_t *b, size_t n, double *out);

/* out[0..groups) = supershingles of a sketch of n values; groups must divide n. */
NDD_API NddStatus ndd_fp_supershingles(const int64_t *sketch, size_t n, int32_t groups, int64_t *out);

/* *out = number of distinct values present in both arrays. */
NDD_API NddStatus ndd_fp_features_shared(const int64_t *a, size_t na, const int64_t *b, size_t nb,
									  int32_t *out, NddInterruptFn interrupt);

/* Bit-flip fingerprint of the raw bytes of doc. */
NDD_API NddStatus ndd_fp_bitflip_fp(const char *doc, size_t len, int32_t window, int32_t samples,
								 NddFp128 *out, NddInterruptFn interrupt);

/*
 * Word-list fingerprints of doc: out (room for `lists` values) receives one per non-empty list, in
 * list order; *count says how many.
 */
NDD_API NddStatus ndd_fp_word_list_fingerprints(const char *doc, size_t len, int32_t lists, int64_t *out,
											 int32_t *count, int32_t tokenizer, NddInterruptFn interrupt);

/* 128-bit hash of doc's normalized token stream. */
NDD_API NddStatus ndd_fp_content_hash(const char *doc, size_t len, NddFp128 *out, int32_t tokenizer, NddInterruptFn interrupt);

/*
 * Exact comparison of the word-shingle sets of a and b, in C++ heap memory: the bytes
 * ndd_fp_shingle_set_bytes gives for each, on top of the inputs.
 */
NDD_API NddStatus ndd_fp_shingle_overlap(const char *a, size_t alen, const char *b, size_t blen,
									  int32_t shingle, NddShingleOverlap *out, int32_t tokenizer, NddInterruptFn interrupt);

/* Heap bytes ndd_fp_shingle_overlap needs for doc (one side); reads doc's tokens once. */
NDD_API NddStatus ndd_fp_shingle_set_bytes(const char *doc, size_t len, int32_t shingle, size_t *bytes,
										int32_t tokenizer, NddInterruptFn interrupt);

/* Fills out->jaccard and out->containment from its three sizes (the definitions of similarity.hpp). */
NDD_API void ndd_fp_overlap_measures(NddShingleOverlap *out);

/*
 * The word shingles of a document one at a time (repeats included), holding one shingle in memory:
 * the way to compare shingle sets that do not fit in memory (sorted outside the core). Open gives a
 * cursor the caller must close (a C++ object: free it from a memory context callback so an error
 * cannot leak it); doc must stay valid until then.
 */
typedef struct NddShingleCursor NddShingleCursor;

NDD_API NddStatus ndd_shingle_cursor_open(const char *doc, size_t len, int32_t shingle, int32_t tokenizer,
										  NddShingleCursor **out);

/*
 * The next shingle: *text (*len bytes, valid until the next call) and its 64-bit hash, the one
 * ndd_fp_shingle_overlap orders by; *found = 0 after the last one.
 */
NDD_API NddStatus ndd_shingle_cursor_next(NddShingleCursor *cursor, const char **text, size_t *len, uint64_t *hash,
									   int *found, NddInterruptFn interrupt);

NDD_API void ndd_shingle_cursor_close(NddShingleCursor *cursor);

/*
 * Edit distance between the token sequences of a and b: insertions and deletions cost 1, a
 * substitution substitution_cost (1: Levenshtein; 2: the insert/delete distance).
 */
NDD_API NddStatus ndd_fp_word_edit_distance(const char *a, size_t alen, const char *b, size_t blen,
										 int32_t substitution_cost, int64_t *out, int32_t tokenizer, NddInterruptFn interrupt);

/* The tokens of doc, allocated with alloc. */
NDD_API NddStatus ndd_fp_tokens(const char *doc, size_t len, NddAllocFn alloc, NddTokens *out,
							 int32_t tokenizer, NddInterruptFn interrupt);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_FINGERPRINT_API_H */
