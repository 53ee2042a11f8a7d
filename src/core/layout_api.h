/*
 * layout_api.h
 *    Manku's permuted-block tables: the one definition of how a fingerprint is cut into blocks and
 *    which block combinations key each table. The index access method and the batch (all-pairs)
 *    functions both use it, so the pigeonhole argument below is made in one place only.
 *
 * A fingerprint of `bits` bits (64 or 128; bit 0 is the most significant bit of word 0) is cut into
 * `nblocks` contiguous blocks whose sizes differ by at most one bit (Manku's example for k = 3 and 5
 * blocks: 13, 13, 13, 13, 12). Each table is keyed by one (nblocks - radius)-subset of the blocks,
 * concatenated in block order; there are C(nblocks, radius) tables, in lexicographic order of their
 * subsets. Pigeonhole: two fingerprints that differ in at most `radius` bits differ in at most
 * `radius` blocks, so at least nblocks - radius blocks are equal and the two share the key of the
 * table made of those blocks. Candidates found that way are then checked by full Hamming distance.
 *
 * For a query radius k above the layout's, ndd_layout_key_radius() gives the number of bits e such
 * that some table's key of a match lies within e bits of the query's key (probe every key within e).
 *
 * Plain C, includable from C; the struct is POD so the index can store it in its metapage verbatim.
 */
#ifndef NDD_LAYOUT_API_H
#define NDD_LAYOUT_API_H

#include "ndd_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NDD_LAYOUT_MAX_BLOCKS 32
#define NDD_LAYOUT_MAX_TABLES 64

typedef struct NddLayout
{
	int32_t		bits;			/* fingerprint width: 64 or 128 */
	int32_t		radius;			/* largest k answered by exact key matches alone */
	int32_t		nblocks;
	int32_t		ntables;
	uint8_t		block_start[NDD_LAYOUT_MAX_BLOCKS];	/* first bit of each block */
	uint8_t		block_len[NDD_LAYOUT_MAX_BLOCKS];	/* its width in bits */
	uint32_t	table_blocks[NDD_LAYOUT_MAX_TABLES];	/* bitmask of the blocks keying a table */
	uint8_t		key_bits[NDD_LAYOUT_MAX_TABLES];	/* total width of that key */
} NddLayout;

/*
 * Fills *out for the given fingerprint width, radius and block count (0 means radius + 1, the
 * fewest tables). Returns NDD_INVALID_ARGUMENT unless bits is 64 or 128, 0 <= radius,
 * radius < nblocks <= min(bits, NDD_LAYOUT_MAX_BLOCKS) and C(nblocks, radius) <= NDD_LAYOUT_MAX_TABLES.
 */
NDD_API NddStatus ndd_layout_make(int bits, int radius, int nblocks, NddLayout *out);

/*
 * The first nbits (1..64) bits of table t's key for fingerprint fp (fp[1] is ignored for 64-bit
 * layouts), right-aligned: the concatenation of the table's blocks in block order, truncated. nbits
 * larger than the key is clamped to the key's width.
 */
NDD_API uint64_t ndd_layout_key(const NddLayout *layout, int table, const uint64_t fp[2], int nbits);

/*
 * For fingerprints within k bits of each other, the largest number of bits in which their keys
 * differ in the table where they differ least: 0 for k <= radius (the pigeonhole case). Negative k
 * gives 0.
 */
NDD_API int ndd_layout_key_radius(const NddLayout *layout, int k);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_LAYOUT_API_H */
