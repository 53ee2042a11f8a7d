/*
 * batch_pairs_api.h
 *    All near-duplicate pairs of a collection in one pass: Manku's batch mode for Hamming
 *    fingerprints, and Pugh's iceberg query for documents described by feature arrays.
 *
 * Hamming pairs (simhash64, fp128). For each table of a permuted-block layout (layout_api.h, the
 * only definition of blocks and tables) every fingerprint is permuted so that the table's key
 * blocks come first, the permuted values are radix-sorted by the key, and fingerprints inside a
 * run of equal keys are compared by full Hamming distance (a permutation of bit positions keeps
 * Hamming distances). By pigeonhole (radius = k) every pair within k bits shares the key of at
 * least one table. A pair is reported only by the first table, in table order, whose key it
 * shares: the check is "the XOR of the two fingerprints has no bit inside an earlier table's key
 * blocks", a few AND instructions, so no global set of reported pairs is needed.
 *
 * Memory: two arrays of n entries of (8 * words + 4) bytes (12 bytes per 64-bit fingerprint, 20
 * per 128-bit one), reused for every table; pairs are streamed out (below), never held. The
 * caller's own ids and fingerprints are not copied.
 *
 * Feature pairs (supershingles, word-list fingerprints): all pairs of documents sharing at least
 * min_shared distinct feature values. Pugh's iceberg query: features occurring in one document
 * only are discarded (first through a two-bit counting filter, as in the talk, then exactly after
 * sorting (feature, document) entries), and for each remaining feature every pair of its
 * documents is emitted as a candidate; the caller counts the shared features of each pair by
 * sorting the candidates (with a sort that spills). A feature held by more than max_df documents
 * would emit max_df^2/2 candidates on its own: such features are skipped (and counted), like stop
 * words. Memory: 12 bytes per distinct (feature, document) entry twice over; candidates are
 * streamed out, never held.
 */
#ifndef NDD_BATCH_PAIRS_API_H
#define NDD_BATCH_PAIRS_API_H

#include "ndd_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One reported pair: ids a < b and the Hamming distance or the number of shared features. */
typedef struct NddPair
{
	int64_t		a;
	int64_t		b;
	int32_t		value;
	int32_t		pad;
} NddPair;

/* The largest k the batch mode serves (a layout needs radius < nblocks <= 32). */
#define NDD_BATCH_MAX_K 31

/*
 * The block count the batch mode uses for n fingerprints of `bits` bits and distance k when the
 * caller passes nblocks = 0: the count, among those ndd_layout_make accepts, that minimises the
 * expected work on random fingerprints (one sort per table plus the comparisons inside runs).
 * Returns 0 when no layout serves k.
 */
NDD_API int ndd_batch_auto_blocks(int bits, int k, size_t n);

/*
 * Streaming. Neither all-pairs function returns its answer in one piece (it can be far larger
 * than memory: n identical fingerprints make n(n-1)/2 pairs). Each is an iterator behind an
 * opaque handle: *_begin checks the parameters and allocates the iterator's working memory (the
 * size *_memory states, outside the caller's allocator), *_next writes up to cap (>= 1) results
 * into the caller's buffer and returns with no C++ frame left on the stack, keeping its place for
 * the next call (0 results: the end), and *_end frees the handle (NULL is allowed; never fails, so
 * it may run from a MemoryContext reset callback while an error unwinds). The caller's input
 * arrays must stay valid and unchanged until *_end. After a *_next returns anything but NDD_OK,
 * only *_end may be called. Cancellation: the interrupt callback given to *_begin is polled
 * during *_next.
 */
typedef struct NddHammingPairIter NddHammingPairIter;
typedef struct NddFeatureCandidateIter NddFeatureCandidateIter;

/*
 * Bytes of working memory ndd_hamming_pairs_begin allocates for n fingerprints of `bits` bits:
 * two arrays of n permuted entries (12 bytes each for 64 bits, 20 for 128), reused per table.
 */
NDD_API size_t ndd_hamming_pairs_memory(int bits, size_t n);

/*
 * All pairs of the n fingerprints (bits = 64: one word each; 128: two words each, the first 64
 * bits first) within Hamming distance k, 0 <= k <= NDD_BATCH_MAX_K. nblocks = 0 chooses the
 * block count (ndd_batch_auto_blocks); otherwise it is passed to ndd_layout_make with radius k.
 * ids need not be sorted; pairs of equal ids are never reported. n must be below 2^32.
 * Each pair is reported once, with a < b and value = its distance, in no particular order (table
 * by table, run by run).
 */
NDD_API NddStatus ndd_hamming_pairs_begin(int bits, const int64_t *ids, const uint64_t *fps, size_t n,
									int k, int nblocks, NddInterruptFn interrupt,
									NddHammingPairIter **iter);
/*
 * The same with two restrictions, for jobs split across machines or between two sets. table >= 0
 * (a table of the layout, whose nblocks must then be given, not 0): only the pairs whose first
 * shared key, in table order, is that table's; the pairs of every table of the same layout over
 * the same rows are exactly the pairs of ndd_hamming_pairs_begin, each once, so a job may run the
 * tables apart (and each table over any rows grouped so that equal keys meet). table = -1: all
 * tables. n_new > 0 (two sets: rows [0, n_new) are new, the others stored): only the pairs of a new
 * row with a stored one, reported with a = the new row's id and b = the stored row's, equal ids
 * included (they are two rows); n_new = 0: one set, as ndd_hamming_pairs_begin.
 */
NDD_API NddStatus ndd_hamming_pairs_begin_part(int bits, const int64_t *ids, const uint64_t *fps, size_t n,
									size_t n_new, int k, int nblocks, int table,
									NddInterruptFn interrupt, NddHammingPairIter **iter);
NDD_API NddStatus ndd_hamming_pairs_next(NddHammingPairIter *iter, NddPair *buf, size_t cap,
									size_t *npairs);
NDD_API void ndd_hamming_pairs_end(NddHammingPairIter *iter);

/*
 * Bytes of working memory ndd_feature_candidates_begin allocates at most for n documents holding
 * nfeatures feature values in all (before removing duplicates): the (feature, document) entries
 * twice over and the counting filter.
 */
NDD_API size_t ndd_feature_candidates_memory(size_t n, size_t nfeatures);

/*
 * The candidate pairs of Pugh's iceberg query over n documents: document i's features are
 * features[offsets[i] .. offsets[i + 1]) (offsets has n + 1 entries; duplicates inside one
 * document count once). For every feature value held by 2 to max_df (>= 2) documents, every pair
 * of its documents is one candidate, packed as (i << 32) | j with document positions i < j. A pair
 * of documents sharing s such features is therefore emitted exactly s times, one feature after
 * another (so the s copies are not adjacent): the caller counts them by grouping equal values
 * (a sort that may spill, e.g. PostgreSQL's tuplesort) and keeps the groups of at least
 * min_shared. Features held by more than max_df documents are skipped, like stop words; their
 * number is stored in *skipped by begin. The features and offsets arrays are no longer needed
 * once begin has returned. n must be below 2^32.
 */
NDD_API NddStatus ndd_feature_candidates_begin(const int64_t *features, const size_t *offsets, size_t n,
									size_t max_df, NddInterruptFn interrupt,
									NddFeatureCandidateIter **iter, size_t *skipped);
NDD_API NddStatus ndd_feature_candidates_next(NddFeatureCandidateIter *iter, uint64_t *buf, size_t cap,
									size_t *ncandidates);
NDD_API void ndd_feature_candidates_end(NddFeatureCandidateIter *iter);

/*
 * Sets *found to 1 and *dup to an id that occurs more than once among the n ids, or *found to 0.
 */
NDD_API NddStatus ndd_find_duplicate_id(const int64_t *ids, size_t n, int *found, int64_t *dup);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_BATCH_PAIRS_API_H */
