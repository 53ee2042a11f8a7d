// manku_layout.cpp
//    The block and table arithmetic of Manku's permuted-block tables (see layout_api.h).
#include <cstring>

#include "guard.hpp"
#include "layout_api.h"

namespace {

// Bits [start, start + len) of fp, right-aligned; len <= 64 and the range stays inside one
// 128-bit value, possibly straddling the two words.
inline uint64_t bits_range(const uint64_t fp[2], int start, int len) {
    if (len == 0) return 0;
    int word = start >> 6, off = start & 63;
    if (off + len <= 64) {
        uint64_t w = fp[word] << off;  // drop the bits before the block
        return w >> (64 - len);
    }
    // straddles the word boundary: the tail of word 0 followed by the head of word 1
    int first = 64 - off;
    uint64_t hi = fp[0] & (first == 64 ? ~0ULL : ((1ULL << first) - 1));
    uint64_t lo = fp[1] >> (64 - (len - first));
    return (hi << (len - first)) | lo;
}

uint64_t binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) r = r * static_cast<uint64_t>(n - k + i) / static_cast<uint64_t>(i);
    return r;
}

}  // namespace

extern "C" NddStatus ndd_layout_make(int bits, int radius, int nblocks, NddLayout* out) {
    return ndd::guarded([&] {
        if (nblocks == 0) nblocks = radius + 1;
        int max_blocks = bits < NDD_LAYOUT_MAX_BLOCKS ? bits : NDD_LAYOUT_MAX_BLOCKS;
        if ((bits != 64 && bits != 128) || radius < 0 || nblocks <= radius || nblocks > max_blocks ||
            binomial(nblocks, radius) > NDD_LAYOUT_MAX_TABLES)
            throw ndd::InvalidArgument("layout parameters out of range");

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
        key = (key << take) | bits_range(fp, l->block_start[b], take);
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

static_assert(sizeof(NddLayout) % 4 == 0, "NddLayout is stored verbatim in index metapages");

namespace {

// Appends len (<= 64) right-aligned bits v to the 128-bit accumulator out[0..1] at bit position pos.
inline void put_bits(uint64_t out[2], int pos, int len, uint64_t v) {
    if (len == 0) return;
    int word = pos >> 6, off = pos & 63;
    if (off + len <= 64) {
        out[word] |= v << (64 - off - len);
        return;
    }
    int first = 64 - off;  // bits that still fit in out[word]
    out[0] |= v >> (len - first);
    out[1] |= v << (64 - (len - first));
}

// The blocks of table t in permuted order: its key blocks, then the others, each in block order.
int permuted_blocks(const NddLayout* l, int table, int order[NDD_LAYOUT_MAX_BLOCKS]) {
    int n = 0;
    uint32_t mask = l->table_blocks[table];
    for (int b = 0; b < l->nblocks; b++)
        if (mask & (1u << b)) order[n++] = b;
    for (int b = 0; b < l->nblocks; b++)
        if (!(mask & (1u << b))) order[n++] = b;
    return n;
}

}  // namespace

extern "C" void ndd_layout_permute(const NddLayout* l, int table, const uint64_t fp[2], uint64_t out[2]) {
    int order[NDD_LAYOUT_MAX_BLOCKS];
    int n = permuted_blocks(l, table, order);
    uint64_t src[2] = {fp[0], l->bits == 128 ? fp[1] : 0};
    out[0] = out[1] = 0;
    int pos = 0;
    for (int i = 0; i < n; i++) {
        int b = order[i];
        // a block may be wider than 64 bits (one 128-bit block): move it in pieces
        for (int done = 0; done < l->block_len[b];) {
            int len = l->block_len[b] - done > 64 ? 64 : l->block_len[b] - done;
            put_bits(out, pos, len, bits_range(src, l->block_start[b] + done, len));
            pos += len;
            done += len;
        }
    }
}

extern "C" void ndd_layout_unpermute(const NddLayout* l, int table, const uint64_t perm[2], uint64_t out[2]) {
    int order[NDD_LAYOUT_MAX_BLOCKS];
    int n = permuted_blocks(l, table, order);
    uint64_t src[2] = {perm[0], l->bits == 128 ? perm[1] : 0};
    out[0] = out[1] = 0;
    int pos = 0;
    for (int i = 0; i < n; i++) {
        int b = order[i];
        for (int done = 0; done < l->block_len[b];) {
            int len = l->block_len[b] - done > 64 ? 64 : l->block_len[b] - done;
            put_bits(out, l->block_start[b] + done, len, bits_range(src, pos, len));
            pos += len;
            done += len;
        }
    }
}
