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
 * per 128-bit one), reused for every table, plus 24 bytes per reported pair twice over (the list
 * and its copy into caller memory). The caller's own ids and fingerprints are not copied.
 *
 * Feature pairs (supershingles, word-list fingerprints): all pairs of documents sharing at least
 * min_shared distinct feature values. Pugh's iceberg query: features occurring in one document
 * only are discarded (first through a two-bit counting filter, as in the talk, then exactly after
 * sorting (feature, document) entries), and for each remaining feature every pair of its
 * documents is emitted as a candidate; sorting the candidates counts the shared features of each
 * pair. A feature held by more than max_df documents would emit max_df^2/2 candidates on its own:
 * such features are skipped (and counted), like stop words. Memory: 12 bytes per distinct
 * (feature, document) entry twice over, and 8 bytes per candidate twice over.
 *
 * Both return pairs with a < b (by id), sorted by (a, b), in memory from the caller's allocator.
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
 * All pairs of the n fingerprints (bits = 64: one word each; 128: two words each, the first 64
 * bits first) within Hamming distance k, 0 <= k <= NDD_BATCH_MAX_K. nblocks = 0 chooses the
 * block count (ndd_batch_auto_blocks); otherwise it is passed to ndd_layout_make with radius k.
 * ids need not be sorted; pairs of equal ids are never reported. n must be below 2^32.
 * On NDD_OK, *pairs (NULL when *npairs is 0) is owned by the caller.
 */
NDD_API NddStatus ndd_hamming_pairs(int bits, const int64_t *ids, const uint64_t *fps, size_t n,
									int k, int nblocks, NddInterruptFn interrupt, NddAllocFn alloc,
									NddPair **pairs, size_t *npairs);

/*
 * All pairs of the n documents sharing at least min_shared (>= 1) distinct feature values.
 * Document i's features are features[offsets[i] .. offsets[i + 1]) (offsets has n + 1 entries;
 * duplicates inside one document count once). Features held by more than max_df (>= 2)
 * documents are ignored; their number is stored in *skipped. n must be below 2^32.
 */
NDD_API NddStatus ndd_shared_feature_pairs(const int64_t *ids, const int64_t *features,
									const size_t *offsets, size_t n, int min_shared,
									size_t max_df, NddInterruptFn interrupt, NddAllocFn alloc,
									NddPair **pairs, size_t *npairs, size_t *skipped);

/*
 * Sets *found to 1 and *dup to an id that occurs more than once among the n ids, or *found to 0.
 */
NDD_API NddStatus ndd_find_duplicate_id(const int64_t *ids, size_t n, int *found, int64_t *dup);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_BATCH_PAIRS_API_H */
