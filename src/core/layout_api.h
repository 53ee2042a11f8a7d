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

/* What ndd_layout_check finds wrong with (bits, radius, nblocks), in the order it checks. */
#define NDD_LAYOUT_OK				0
#define NDD_LAYOUT_BAD_BITS			1	/* bits is not 64 or 128 */
#define NDD_LAYOUT_BAD_RADIUS		2	/* radius < 0 */
#define NDD_LAYOUT_TOO_FEW_BLOCKS	3	/* nblocks <= radius: the pigeonhole needs more */
#define NDD_LAYOUT_TOO_MANY_BLOCKS	4	/* nblocks > min(bits, NDD_LAYOUT_MAX_BLOCKS) */
#define NDD_LAYOUT_TOO_MANY_TABLES	5	/* C(nblocks, radius) > NDD_LAYOUT_MAX_TABLES */

/*
 * The one test of whether a width, radius and block count (0 means radius + 1, the fewest tables)
 * make a layout: NDD_LAYOUT_OK exactly when ndd_layout_make succeeds. bits = 0 checks what holds
 * for either width (the index's options, checked before the column's type is known). The index's
 * options, its build and the batch functions all ask here; each words its own error.
 */
NDD_API int ndd_layout_check(int bits, int radius, int nblocks);

/* The number of tables of a layout: C(nblocks, radius); UINT64_MAX when the product would overflow
 * (only far beyond NDD_LAYOUT_MAX_TABLES). */
NDD_API uint64_t ndd_layout_tables(int nblocks, int radius);

/*
 * Fills *out for the given fingerprint width, radius and block count (0 means radius + 1, the
 * fewest tables). Returns NDD_INVALID_ARGUMENT unless ndd_layout_check accepts them.
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

/*
 * Multi-index hashing's generalized pigeonhole (Norouzi, Punjani and Fleet) over the tables: the
 * largest radius r such that every fingerprint within r bits of q has, in some table t, a key
 * within e[t] bits of q's key (e[t] = -1: table t is not probed at all); -1 when no table is
 * probed, the layout's bits when the probes cover every key of some table. Where every key is a
 * single block (nblocks = radius + 1, the default layouts) a fingerprint outside every probe
 * differs in at least e[t] + 1 bits in each block t, so r = sum(e[t] + 1) - 1: the radius grows by
 * one for each table whose probe radius grows by one. Other layouts get the uniform bound: the
 * largest r whose ndd_layout_key_radius is at most the smallest e[t].
 */
NDD_API int ndd_layout_proven_radius(const NddLayout *layout, const int e[]);

/*
 * The cheapest probe radii for a query of radius r (0 <= r < bits) by the same rule: every table
 * probes keys within *lo bits (-1: not at all) and *extra tables of the caller's choice within
 * *lo + 1, and ndd_layout_proven_radius of that is at least r. Single-block keys: the r + 1 bits
 * spread over the tables ((4, 3, 3, 3) for r = 16 on four tables, where the uniform bound probes
 * 4 everywhere); other layouts: *lo = ndd_layout_key_radius(r), *extra = 0.
 */
NDD_API void ndd_layout_radius_split(const NddLayout *layout, int r, int *lo, int *extra);


/*
 * The permuted fingerprint of table t: the table's key blocks in block order, then the remaining
 * blocks in block order, as a bits-wide value in out[0] (first 64 bits) and out[1] (the rest, 0 for
 * 64-bit layouts). A bit permutation, so Hamming distances are the same before and after; the first
 * key_bits[t] bits are the table's key. The index stores fingerprints in this form so that a table's
 * entries sort and bucket by their key.
 */
NDD_API void ndd_layout_permute(const NddLayout *layout, int table, const uint64_t fp[2], uint64_t out[2]);

/* The inverse of ndd_layout_permute. */
NDD_API void ndd_layout_unpermute(const NddLayout *layout, int table, const uint64_t perm[2], uint64_t out[2]);

/*
 * Table t's permutation as bit segments (its key blocks in block order, then the others; a block
 * wider than 64 bits cut so that every segment fits a word), computed once for a loop that permutes
 * many fingerprints by one table: the build, which permutes every row once per table and pass.
 */
typedef struct NddPermutation
{
	int			bits;			/* of the layout: 64 ignores fp[1] */
	int			nseg;
	uint8_t		start[2 * NDD_LAYOUT_MAX_BLOCKS];	/* first source bit of each segment */
	uint8_t		len[2 * NDD_LAYOUT_MAX_BLOCKS];	/* its width, 1..64 */
} NddPermutation;

NDD_API void ndd_layout_permutation(const NddLayout *layout, int table, NddPermutation *out);

/* out = ndd_layout_permute(layout, table, fp, out) for pm made from that layout and table. */
NDD_API void ndd_permutation_apply(const NddPermutation *pm, const uint64_t fp[2], uint64_t out[2]);

/*
 * ndd_permutation_apply over n fingerprints at once (fp and out: n pairs of words, fp[2i + 1]
 * ignored by 64-bit layouts): one call for a batch of the build's rows instead of one per row.
 */
NDD_API void ndd_permutation_apply_n(const NddPermutation *pm, const uint64_t *fp, size_t n,
									 uint64_t *out);

/*
 * The number of width-bit values within radius bits of a given one (sum of C(width, i) for
 * i <= radius), saturating at UINT64_MAX. width is 0..64.
 */
NDD_API uint64_t ndd_ball_volume(int width, int radius);

/*
 * Writes every width-bit value (width 0..64) within radius bits of center into out, in increasing
 * order, and their number into *count. Returns NDD_INVALID_ARGUMENT (and writes nothing) when more
 * than cap values would be written; check ndd_ball_volume() first.
 */
NDD_API NddStatus ndd_prefix_ball(uint64_t center, int width, int radius, uint64_t *out, size_t cap,
								  size_t *count);

/*
 * Like ndd_prefix_ball, the width-bit values at exactly radius bits from center (C(width, radius)
 * of them, ndd_shell_volume), in increasing order: what a probe adds when its radius grows by one.
 */
NDD_API uint64_t ndd_shell_volume(int width, int radius);
NDD_API NddStatus ndd_prefix_shell(uint64_t center, int width, int radius, uint64_t *out, size_t cap,
								   size_t *count);

/*
 * The page map of the index: a table's primary pages split the 64-bit space of permuted-fingerprint
 * heads (out[0] of ndd_layout_permute) into npages contiguous ranges of near-equal width. Page p holds
 * heads h with floor(h * npages / 2^64) = p, i.e. ndd_page_low(p) <= h < ndd_page_low(p + 1). Any
 * npages >= 1 works (no power of two needed, so pages can be filled evenly at any row count), and an
 * entry only stores h - ndd_page_low(p), which needs ndd_page_delta_bits(npages) bits.
 */
static inline uint32_t
ndd_page_of(uint64_t head, uint32_t npages)
{
	return (uint32_t) (((unsigned __int128) head * npages) >> 64);
}

/* The smallest head on page p (p = npages gives 2^64, returned as 0: callers never need it). */
static inline uint64_t
ndd_page_low(uint32_t p, uint32_t npages)
{
	/* ceil(p * 2^64 / npages) */
	unsigned __int128 num = ((unsigned __int128) p << 64) + (npages - 1);

	return (uint64_t) (num / npages);
}

/* The width in bits of head - ndd_page_low(page) over every page (1..64). */
static inline int
ndd_page_delta_bits(uint32_t npages)
{
	/* the widest page spans ceil(2^64 / npages) heads, so deltas are below that */
	unsigned __int128 span = (((unsigned __int128) 1 << 64) + (npages - 1)) / npages;
	uint64_t	maxdelta = (uint64_t) (span - 1);
	int			bits = 0;

	while (bits < 64 && (maxdelta >> bits) != 0)
		bits++;
	return bits == 0 ? 1 : bits;
}

/*
 * One entry of an index build's batch: a row's permuted fingerprint in one table (perm[1] is 0 for
 * 64-bit layouts), the bucket (primary page of the map) it belongs to, counted from the batch's
 * first bucket, and the row's heap TID.
 */
typedef struct NddBuildEntry
{
	uint64_t	perm[2];
	uint32_t	bucket;
	uint32_t	block;
	uint16_t	offset;
} NddBuildEntry;

/*
 * Sorts a[0..n) by bucket (every bucket below 2^bucket_bits, bucket_bits 0..32), stably: a
 * bucket's entries keep their order, which is the order of the chain the build fills (its pages
 * must not depend on how the rows were batched). A radix sort: a few linear passes, using tmp
 * (room for n entries) as scratch; *sorted is set to whichever of a and tmp holds the result.
 * Polls interrupt: NDD_CANCELLED when it answers nonzero.
 */
NDD_API NddStatus ndd_build_entries_sort(NddBuildEntry *a, NddBuildEntry *tmp, size_t n,
										 int bucket_bits, NddBuildEntry **sorted,
										 NddInterruptFn interrupt);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_LAYOUT_API_H */
