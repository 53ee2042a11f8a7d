// batch_pairs.cpp
//    Manku's batch mode: every pair of a collection of Hamming fingerprints within k bits, by
//    sorting permuted fingerprints once per table of the layout (see batch_pairs_api.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "batch_pairs_api.h"
#include "guard.hpp"
#include "layout_api.h"
#include "pair_list.hpp"
#include "radix_sort.hpp"

namespace {

// A permuted fingerprint of W words and the index of its row. Packed: 12 or 20 bytes, which is
// what bounds the memory of a 10M-row run.
template <int W>
struct __attribute__((packed)) Entry {
    uint64_t p[W];
    uint32_t row;
};

// A bit permutation given as source segments (each at most 64 bits) laid end to end.
struct Permutation {
    int nseg = 0;
    uint8_t start[2 * NDD_LAYOUT_MAX_BLOCKS];
    uint8_t len[2 * NDD_LAYOUT_MAX_BLOCKS];
};

// Bits [start, start + len) of a 128-bit value (bit 0 = most significant of word 0),
// right-aligned; 1 <= len <= 64.
inline uint64_t extract_bits(const uint64_t* v, int start, int len) {
    int word = start >> 6, off = start & 63;
    if (off + len <= 64) return (v[word] << off) >> (64 - len);
    int first = 64 - off;
    uint64_t head = v[0] & ((uint64_t{1} << first) - 1);
    uint64_t tail = v[1] >> (64 - (len - first));
    return (head << (len - first)) | tail;
}

// Writes the len low bits of x at bit position pos of out (out is zeroed by the caller).
inline void append_bits(uint64_t* out, int pos, uint64_t x, int len) {
    int word = pos >> 6, off = pos & 63;
    if (off + len <= 64) {
        out[word] |= x << (64 - off - len);
        return;
    }
    int first = 64 - off;
    out[word] |= x >> (len - first);
    out[word + 1] |= x << (64 - (len - first));
}

// The permutation of table t: its key blocks in block order, then the other blocks in order.
// The table's key is then the leading key_bits[t] bits of the permuted value.
Permutation table_permutation(const NddLayout& l, int t) {
    Permutation pm;
    for (int pass = 0; pass < 2; pass++) {
        for (int b = 0; b < l.nblocks; b++) {
            bool in_key = (l.table_blocks[t] >> b) & 1u;
            if (in_key != (pass == 0)) continue;
            // A 128-bit block (k = 0 on fp128) is split so every segment fits a word.
            for (int s = 0; s < l.block_len[b]; s += 64) {
                int len = std::min(64, l.block_len[b] - s);
                pm.start[pm.nseg] = static_cast<uint8_t>(l.block_start[b] + s);
                pm.len[pm.nseg] = static_cast<uint8_t>(len);
                pm.nseg++;
            }
        }
    }
    return pm;
}

// Applies a permutation to a W-word value.
template <int W>
inline void permute(const Permutation& pm, const uint64_t* src, uint64_t* dst) {
    uint64_t in[2] = {src[0], W == 2 ? src[1] : 0};
    uint64_t out[2] = {0, 0};
    int pos = 0;
    for (int s = 0; s < pm.nseg; s++) {
        append_bits(out, pos, extract_bits(in, pm.start[s], pm.len[s]), pm.len[s]);
        pos += pm.len[s];
    }
    for (int w = 0; w < W; w++) dst[w] = out[w];
}

// The bits of table t's key blocks as a mask over the unpermuted fingerprint.
void key_mask(const NddLayout& l, int t, uint64_t mask[2]) {
    mask[0] = mask[1] = 0;
    for (int b = 0; b < l.nblocks; b++) {
        if (!((l.table_blocks[t] >> b) & 1u)) continue;
        for (int i = 0; i < l.block_len[b]; i++) {
            int bit = l.block_start[b] + i;
            mask[bit >> 6] |= uint64_t{1} << (63 - (bit & 63));
        }
    }
}

// Sort passes needed for a key: one per 11-bit digit of at most 64 key bits.
int sort_passes(int key_bits) { return (std::min(key_bits, 64) + 10) / 11; }

// Expected work (in comparisons) of the batch mode with this layout on n random fingerprints:
// per table, permuting and sorting n entries, plus the pairs inside runs of equal keys.
double expected_work(const NddLayout& l, size_t n) {
    double nn = static_cast<double>(n), work = 0;
    for (int t = 0; t < l.ntables; t++) {
        work += nn * (6.0 + 2.0 * sort_passes(l.key_bits[t]));
        work += nn * nn / 2.0 * std::ldexp(1.0, -static_cast<int>(l.key_bits[t]));
    }
    return work;
}

// The batch mode for W-word fingerprints with a fixed layout.
template <int W>
void hamming_pairs(const NddLayout& l, const int64_t* ids, const uint64_t* fps, size_t n, int k,
                   ndd::InterruptPoller& poll, std::vector<NddPair>& out) {
    std::vector<Entry<W>> buf_a(n), buf_b(n);

    // Masks of every table's key, each expressed in every table's permuted space.
    uint64_t raw[NDD_LAYOUT_MAX_TABLES][2];
    for (int t = 0; t < l.ntables; t++) key_mask(l, t, raw[t]);

    for (int t = 0; t < l.ntables; t++) {
        Permutation pm = table_permutation(l, t);
        uint64_t masks[NDD_LAYOUT_MAX_TABLES][2];
        for (int u = 0; u <= t; u++) {
            permute<W>(pm, raw[u], masks[u]);
            if (W == 1) masks[u][1] = 0;
        }

        for (size_t i = 0; i < n; i++) {
            uint64_t v[W];
            permute<W>(pm, fps + i * W, v);
            for (int w = 0; w < W; w++) buf_a[i].p[w] = v[w];
            buf_a[i].row = static_cast<uint32_t>(i);
            poll.tick();
        }
        // Sort by the key, or by its first 64 bits when it is longer (k = 0 or 1 on fp128): the
        // runs are then a coarsening of the key's runs and the explicit key check below decides.
        int sort_bits = std::min<int>(l.key_bits[t], 64);
        int shift = 64 - sort_bits;
        auto sort_key = [shift](const Entry<W>& e) { return e.p[0] >> shift; };
        Entry<W>* e = ndd::radix_sort(buf_a.data(), buf_b.data(), n, sort_bits, sort_key, poll);

        size_t s = 0;
        while (s < n) {
            uint64_t key = sort_key(e[s]);
            size_t r = s + 1;
            while (r < n && sort_key(e[r]) == key) r++;
            for (size_t i = s; i + 1 < r; i++) {
                for (size_t j = i + 1; j < r; j++) {
                    poll.tick();
                    uint64_t x[2];
                    x[0] = e[i].p[0] ^ e[j].p[0];
                    x[1] = W == 2 ? e[i].p[W - 1] ^ e[j].p[W - 1] : 0;
                    int d = __builtin_popcountll(x[0]) + __builtin_popcountll(x[1]);
                    if (d > k) continue;
                    if ((x[0] & masks[t][0]) | (x[1] & masks[t][1])) continue;  // not this key
                    bool earlier = false;  // reported by an earlier table already
                    for (int u = 0; u < t && !earlier; u++)
                        earlier = ((x[0] & masks[u][0]) | (x[1] & masks[u][1])) == 0;
                    if (earlier) continue;
                    int64_t a = ids[e[i].row], b = ids[e[j].row];
                    if (a == b) continue;
                    if (a > b) std::swap(a, b);
                    out.push_back(NddPair{a, b, d, 0});
                }
            }
            s = r;
        }
    }
}

}  // namespace

extern "C" int ndd_batch_auto_blocks(int bits, int k, size_t n) {
    int best = 0;
    double best_work = std::numeric_limits<double>::infinity();
    for (int nb = k + 1; nb <= NDD_LAYOUT_MAX_BLOCKS; nb++) {
        NddLayout l;
        if (ndd_layout_make(bits, k, nb, &l) != NDD_OK) continue;
        double w = expected_work(l, n);
        if (w < best_work) {
            best_work = w;
            best = nb;
        }
    }
    return best;
}

extern "C" NddStatus ndd_hamming_pairs(int bits, const int64_t* ids, const uint64_t* fps, size_t n,
                                       int k, int nblocks, NddInterruptFn interrupt,
                                       NddAllocFn alloc, NddPair** pairs, size_t* npairs) {
    return ndd::guarded([&] {
        if ((bits != 64 && bits != 128) || k < 0 || k > NDD_BATCH_MAX_K || nblocks < 0 ||
            n >= (size_t{1} << 32))
            throw ndd::InvalidArgument("batch parameters out of range");
        if (nblocks == 0) nblocks = ndd_batch_auto_blocks(bits, k, n);
        NddLayout l;
        if (ndd_layout_make(bits, k, nblocks, &l) != NDD_OK)
            throw ndd::InvalidArgument("no layout for these parameters");
        ndd::InterruptPoller poll(interrupt, 1u << 16);
        std::vector<NddPair> out;
        if (bits == 64)
            hamming_pairs<1>(l, ids, fps, n, k, poll, out);
        else
            hamming_pairs<2>(l, ids, fps, n, k, poll, out);
        ndd::hand_over_pairs(out, alloc, pairs, npairs);
    });
}

extern "C" NddStatus ndd_find_duplicate_id(const int64_t* ids, size_t n, int* found, int64_t* dup) {
    return ndd::guarded([&] {
        std::vector<int64_t> v(ids, ids + n);
        std::sort(v.begin(), v.end());
        auto it = std::adjacent_find(v.begin(), v.end());
        *found = it != v.end();
        *dup = *found ? *it : 0;
    });
}

