// manku_layout.cpp
//    The block and table arithmetic of Manku's permuted-block tables (see layout_api.h).
#include <cstring>

#include "block_permutation.hpp"
#include "guard.hpp"
#include "layout_api.h"

extern "C" uint64_t ndd_layout_tables(int nblocks, int radius) {
    if (radius < 0 || radius > nblocks) return 0;
    // C(n, k) = C(n, n - k): the shorter product; each step's partial product is a binomial, so
    // the division is exact, and a product past any table limit saturates instead of overflowing
    int k = radius < nblocks - radius ? radius : nblocks - radius;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) {
        uint64_t factor = static_cast<uint64_t>(nblocks - k + i);
        if (r > UINT64_MAX / factor) return UINT64_MAX;
        r = r * factor / static_cast<uint64_t>(i);
    }
    return r;
}

extern "C" int ndd_layout_check(int bits, int radius, int nblocks) {
    if (bits != 0 && bits != 64 && bits != 128) return NDD_LAYOUT_BAD_BITS;
    if (radius < 0) return NDD_LAYOUT_BAD_RADIUS;
    if (nblocks == 0) nblocks = radius + 1;
    if (nblocks <= radius) return NDD_LAYOUT_TOO_FEW_BLOCKS;
    int max_blocks = bits != 0 && bits < NDD_LAYOUT_MAX_BLOCKS ? bits : NDD_LAYOUT_MAX_BLOCKS;
    if (nblocks > max_blocks) return NDD_LAYOUT_TOO_MANY_BLOCKS;
    if (ndd_layout_tables(nblocks, radius) > NDD_LAYOUT_MAX_TABLES) return NDD_LAYOUT_TOO_MANY_TABLES;
    return NDD_LAYOUT_OK;
}

extern "C" NddStatus ndd_layout_make(int bits, int radius, int nblocks, NddLayout* out) {
    return ndd::guarded([&] {
        if (bits == 0 || ndd_layout_check(bits, radius, nblocks) != NDD_LAYOUT_OK)
            throw ndd::InvalidArgument("layout parameters out of range");
        if (nblocks == 0) nblocks = radius + 1;

        NddLayout l;
        std::memset(&l, 0, sizeof l);
        l.bits = bits;
        l.radius = radius;
        l.nblocks = nblocks;

        // Sizes differ by at most one bit, the longer blocks first (Manku: 13,13,13,13,12).
        int base = bits / nblocks, extra = bits % nblocks, start = 0;
        for (int b = 0; b < nblocks; b++) {
            l.block_start[b] = static_cast<uint8_t>(start);
            l.block_len[b] = static_cast<uint8_t>(base + (b < extra ? 1 : 0));
            start += l.block_len[b];
        }

        // Every (nblocks - radius)-subset in lexicographic order: walk all masks of nblocks bits in
        // increasing order of their lowest set bits by enumerating combinations directly.
        int keep = nblocks - radius;
        int idx[NDD_LAYOUT_MAX_BLOCKS];
        for (int i = 0; i < keep; i++) idx[i] = i;
        int t = 0;
        for (;;) {
            uint32_t mask = 0;
            int width = 0;
            for (int i = 0; i < keep; i++) {
                mask |= 1u << idx[i];
                width += l.block_len[idx[i]];
            }
            l.table_blocks[t] = mask;
            l.key_bits[t] = static_cast<uint8_t>(width);
            t++;
            // next combination
            int i = keep - 1;
            while (i >= 0 && idx[i] == nblocks - keep + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < keep; j++) idx[j] = idx[j - 1] + 1;
        }
        l.ntables = t;
        *out = l;
    });
}

extern "C" uint64_t ndd_layout_key(const NddLayout* l, int table, const uint64_t fp[2], int nbits) {
    int width = l->key_bits[table];
    if (nbits > width) nbits = width;
    if (nbits > 64) nbits = 64;
    uint64_t key = 0;
    int have = 0;
    uint32_t mask = l->table_blocks[table];
    for (int b = 0; b < l->nblocks && have < nbits; b++) {
        if (!(mask & (1u << b))) continue;
        int take = l->block_len[b];
        if (take > nbits - have) take = nbits - have;
        key = (key << take) | ndd::bits_range(fp, l->block_start[b], take);
        have += take;
    }
    return key;
}

extern "C" int ndd_layout_key_radius(const NddLayout* l, int k) {
    if (k <= l->radius) return 0;
    // The adversary spreads k differing bits as evenly as possible over the blocks: s blocks get
    // q + 1 of them and the rest q. The table made of the m least-loaded blocks then differs in
    // q*m bits, plus one for each of the (q + 1)-blocks it cannot avoid.
    int b = l->nblocks, m = b - l->radius;
    int q = k / b, s = k % b;
    int over = m - (b - s);
    return q * m + (over > 0 ? over : 0);
}

// Every key a single block: the sum rule of layout_api.h applies.
static bool single_block_keys(const NddLayout* l) { return l->nblocks - l->radius == 1; }

extern "C" int ndd_layout_proven_radius(const NddLayout* l, const int e[]) {
    if (single_block_keys(l)) {
        int sum = 0;
        for (int t = 0; t < l->ntables; t++) {
            if (e[t] >= l->key_bits[t]) return l->bits;  // every key of table t is probed
            if (e[t] >= 0) sum += e[t] + 1;
        }
        return sum - 1;
    }
    int lo = l->bits;
    for (int t = 0; t < l->ntables; t++) lo = e[t] < lo ? e[t] : lo;
    if (lo < 0) return -1;
    int r = l->radius;
    while (r < l->bits && ndd_layout_key_radius(l, r + 1) <= lo) r++;
    return r;
}

extern "C" void ndd_layout_radius_split(const NddLayout* l, int r, int* lo, int* extra) {
    if (!single_block_keys(l)) {
        *lo = ndd_layout_key_radius(l, r);
        *extra = 0;
        return;
    }
    // r + 1 "misses" spread as evenly as possible: (r + 1) % T tables get one more
    *lo = (r + 1) / l->ntables - 1;
    *extra = (r + 1) % l->ntables;
}

static_assert(sizeof(NddLayout) % 4 == 0, "NddLayout is stored verbatim in index metapages");

ndd::BlockPermutation ndd::block_permutation(const NddLayout& l, int table) {
    BlockPermutation pm{};
    pm.bits = l.bits;
    uint32_t mask = l.table_blocks[table];
    for (int pass = 0; pass < 2; pass++) {
        for (int b = 0; b < l.nblocks; b++) {
            bool in_key = (mask >> b) & 1u;
            if (in_key != (pass == 0)) continue;
            for (int done = 0; done < l.block_len[b]; done += 64) {
                int len = l.block_len[b] - done > 64 ? 64 : l.block_len[b] - done;
                pm.start[pm.nseg] = static_cast<uint8_t>(l.block_start[b] + done);
                pm.len[pm.nseg] = static_cast<uint8_t>(len);
                pm.nseg++;
            }
        }
    }
    return pm;
}

extern "C" void ndd_layout_permute(const NddLayout* l, int table, const uint64_t fp[2], uint64_t out[2]) {
    uint64_t src[2] = {fp[0], l->bits == 128 ? fp[1] : 0};
    ndd::permute(ndd::block_permutation(*l, table), src, out);
}

extern "C" void ndd_layout_permutation(const NddLayout* l, int table, NddPermutation* out) {
    *out = ndd::block_permutation(*l, table);
}

extern "C" void ndd_permutation_apply(const NddPermutation* pm, const uint64_t fp[2], uint64_t out[2]) {
    uint64_t src[2] = {fp[0], pm->bits == 128 ? fp[1] : 0};
    ndd::permute(*pm, src, out);
}

extern "C" void ndd_permutation_apply_n(const NddPermutation* pm, const uint64_t* fp, size_t n, uint64_t* out) {
    if (pm->bits == 64) {
        // every segment within the one word: a mask and a shift each, no branch per row
        uint64_t mask[2 * NDD_LAYOUT_MAX_BLOCKS];
        int left[2 * NDD_LAYOUT_MAX_BLOCKS], right[2 * NDD_LAYOUT_MAX_BLOCKS];
        int nseg = 0;
        for (int s = 0, pos = 0; s < pm->nseg; pos += pm->len[s], s++) {
            int start = pm->start[s], len = pm->len[s];
            if (len == 0) continue;
            mask[nseg] = (len == 64 ? ~uint64_t{0} : ((uint64_t{1} << len) - 1)) << (64 - start - len);
            left[nseg] = start > pos ? start - pos : 0;
            right[nseg] = pos > start ? pos - start : 0;
            nseg++;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t x = fp[2 * i], o = 0;
            for (int s = 0; s < nseg; s++) o |= ((x & mask[s]) << left[s]) >> right[s];
            out[2 * i] = o;
            out[2 * i + 1] = 0;
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t src[2] = {fp[2 * i], pm->bits == 128 ? fp[2 * i + 1] : 0};
        ndd::permute(*pm, src, out + 2 * i);
    }
}

extern "C" void ndd_layout_unpermute(const NddLayout* l, int table, const uint64_t perm[2], uint64_t out[2]) {
    uint64_t src[2] = {perm[0], l->bits == 128 ? perm[1] : 0};
    ndd::unpermute(ndd::block_permutation(*l, table), src, out);
}
