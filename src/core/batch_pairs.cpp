// batch_pairs.cpp
//    Manku's batch mode: every pair of a collection of Hamming fingerprints within k bits, by
//    sorting permuted fingerprints once per table of the layout (see batch_pairs_api.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "batch_pairs_api.h"
#include "block_permutation.hpp"
#include "guard.hpp"
#include "layout_api.h"
#include "popcount.h"
#include "radix_sort.hpp"

// What the C side sees as an opaque handle: a resumable pair loop.
struct NddHammingPairIter {
    virtual ~NddHammingPairIter() = default;
    // Writes up to cap (>= 1) pairs to out; 0 means there are no more.
    virtual size_t next(NddPair* out, size_t cap) = 0;
};

namespace {

// A permuted fingerprint of W words and the index of its row. Packed: 12 or 20 bytes, which is
// what bounds the memory of a 10M-row run.
template <int W>
struct __attribute__((packed)) Entry {
    uint64_t p[W];
    uint32_t row;
};

// Applies a table's permutation to a W-word value.
template <int W>
inline void permute(const ndd::BlockPermutation& pm, const uint64_t* src, uint64_t* dst) {
    uint64_t in[2] = {src[0], W == 2 ? src[1] : 0};
    uint64_t out[2];
    ndd::permute(pm, in, out);
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

// The batch mode for W-word fingerprints with a fixed layout, as a resumable loop: next() fills
// a caller's buffer and returns, keeping its place (table, run, pair of the run) for the next call.
template <int W>
class HammingIter final : public NddHammingPairIter {
public:
    // table >= 0: only the pairs whose first shared key is that table's (one table of a
    // distributed job); n_new > 0: only pairs of a row below n_new with a row at or above it.
    HammingIter(const NddLayout& l, const int64_t* ids, const uint64_t* fps, size_t n, size_t n_new,
                int k, int table, NddInterruptFn interrupt)
        : l_(l), ids_(ids), fps_(fps), n_(n), n_new_(n_new), k_(k), poll_(interrupt, 1u << 16),
          buf_a_(n), buf_b_(n) {
        for (int t = 0; t < l_.ntables; t++) key_mask(l_, t, raw_[t]);
        if (table >= 0) {
            t_ = table;
            t_end_ = table + 1;
        } else {
            t_end_ = l_.ntables;
        }
    }

    size_t next(NddPair* out, size_t cap) override {
        size_t got = 0;
        while (t_ < t_end_) {
            if (!prepared_) prepare();
            // Locals for the hot loop; written back whenever we leave it.
            size_t s = s_, r = r_, i = i_, j = j_;
            const Entry<W>* e = e_;
            const uint64_t m0 = masks_[t_][0], m1 = masks_[t_][1];
            while (s < n_) {
                for (; i + 1 < r; i++, j = i + 1) {
                    for (; j < r; j++) {
                        if (got == cap) {
                            s_ = s, r_ = r, i_ = i, j_ = j;
                            return got;
                        }
                        poll_.tick();
                        if (n_new_ != 0 && (e[i].row < n_new_) == (e[j].row < n_new_)) continue;
                        uint64_t x0 = e[i].p[0] ^ e[j].p[0];
                        uint64_t x1 = W == 2 ? e[i].p[W - 1] ^ e[j].p[W - 1] : 0;
                        int d = ndd_popcount64(x0) + (W == 2 ? ndd_popcount64(x1) : 0);
                        if (d > k_) continue;
                        if ((x0 & m0) | (x1 & m1)) continue;  // not this table's key
                        bool earlier = false;  // reported by an earlier table already
                        for (int u = 0; u < t_ && !earlier; u++)
                            earlier = ((x0 & masks_[u][0]) | (x1 & masks_[u][1])) == 0;
                        if (earlier) continue;
                        int64_t a = ids_[e[i].row], b = ids_[e[j].row];
                        if (n_new_ != 0) {
                            if (e[i].row >= n_new_) std::swap(a, b);  // a: the new row
                        } else {
                            if (a == b) continue;
                            if (a > b) std::swap(a, b);
                        }
                        out[got++] = NddPair{a, b, d, 0};
                    }
                }
                s = r;
                r = run_end(s);
                i = s;
                j = s + 1;
            }
            t_++;
            prepared_ = false;
        }
        return got;
    }

private:
    uint64_t sort_key(const Entry<W>& e) const { return e.p[0] >> shift_; }

    // The end of the run of equal keys starting at s.
    size_t run_end(size_t s) const {
        if (s >= n_) return n_;
        uint64_t key = sort_key(e_[s]);
        size_t r = s + 1;
        while (r < n_ && sort_key(e_[r]) == key) r++;
        return r;
    }

    // Permutes and sorts the fingerprints for table t_ and puts the cursor on its first run.
    void prepare() {
        ndd::BlockPermutation pm = ndd::block_permutation(l_, t_);
        for (int u = 0; u <= t_; u++) {
            permute<W>(pm, raw_[u], masks_[u]);
            if (W == 1) masks_[u][1] = 0;
        }
        for (size_t i = 0; i < n_; i++) {
            uint64_t v[W];
            permute<W>(pm, fps_ + i * W, v);
            for (int w = 0; w < W; w++) buf_a_[i].p[w] = v[w];
            buf_a_[i].row = static_cast<uint32_t>(i);
            poll_.tick();
        }
        // Sort by the key, or by its first 64 bits when it is longer (k = 0 or 1 on fp128): the
        // runs are then a coarsening of the key's runs and the explicit key check decides.
        int sort_bits = std::min<int>(l_.key_bits[t_], 64);
        shift_ = 64 - sort_bits;
        int shift = shift_;
        e_ = ndd::radix_sort(buf_a_.data(), buf_b_.data(), n_, sort_bits,
                             [shift](const Entry<W>& x) { return x.p[0] >> shift; }, poll_);
        s_ = 0;
        r_ = run_end(0);
        i_ = 0;
        j_ = 1;
        prepared_ = true;
    }

    NddLayout l_;
    const int64_t* ids_;
    const uint64_t* fps_;
    size_t n_;
    size_t n_new_;
    int k_;
    ndd::InterruptPoller poll_;
    std::vector<Entry<W>> buf_a_, buf_b_;
    // Masks of every table's key: raw_ over the unpermuted fingerprint, masks_ in the current
    // table's permuted space (for this table and the earlier ones).
    uint64_t raw_[NDD_LAYOUT_MAX_TABLES][2];
    uint64_t masks_[NDD_LAYOUT_MAX_TABLES][2];
    int t_ = 0, t_end_ = 0;
    bool prepared_ = false;
    int shift_ = 0;
    const Entry<W>* e_ = nullptr;
    size_t s_ = 0, r_ = 0, i_ = 0, j_ = 0;  // current run [s_, r_) and its next pair (i_, j_)
};

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

extern "C" size_t ndd_hamming_pairs_memory(int bits, size_t n) {
    return 2 * n * (bits == 128 ? sizeof(Entry<2>) : sizeof(Entry<1>));
}

extern "C" NddStatus ndd_hamming_pairs_begin(int bits, const int64_t* ids, const uint64_t* fps, size_t n,
                                             int k, int nblocks, NddInterruptFn interrupt,
                                             NddHammingPairIter** iter) {
    return ndd_hamming_pairs_begin_part(bits, ids, fps, n, 0, k, nblocks, -1, interrupt, iter);
}

extern "C" NddStatus ndd_hamming_pairs_begin_part(int bits, const int64_t* ids, const uint64_t* fps,
                                                  size_t n, size_t n_new, int k, int nblocks, int table,
                                                  NddInterruptFn interrupt, NddHammingPairIter** iter) {
    *iter = nullptr;
    return ndd::guarded([&] {
        if ((bits != 64 && bits != 128) || k < 0 || k > NDD_BATCH_MAX_K || nblocks < 0 ||
            n >= (size_t{1} << 32) || n_new > n)
            throw ndd::InvalidArgument("batch parameters out of range");
        if (table >= 0 && nblocks == 0)
            throw ndd::InvalidArgument("one table of a layout needs the layout's block count");
        if (nblocks == 0) nblocks = ndd_batch_auto_blocks(bits, k, n);
        NddLayout l;
        if (ndd_layout_make(bits, k, nblocks, &l) != NDD_OK)
            throw ndd::InvalidArgument("no layout for these parameters");
        if (table < -1 || table >= l.ntables) throw ndd::InvalidArgument("no such table in the layout");
        if (bits == 64)
            *iter = new HammingIter<1>(l, ids, fps, n, n_new, k, table, interrupt);
        else
            *iter = new HammingIter<2>(l, ids, fps, n, n_new, k, table, interrupt);
    });
}

extern "C" NddStatus ndd_hamming_pairs_next(NddHammingPairIter* iter, NddPair* buf, size_t cap,
                                            size_t* npairs) {
    *npairs = 0;
    return ndd::guarded([&] {
        if (cap == 0) throw ndd::InvalidArgument("empty buffer");
        *npairs = iter->next(buf, cap);
    });
}

extern "C" void ndd_hamming_pairs_end(NddHammingPairIter* iter) { delete iter; }

extern "C" NddStatus ndd_find_duplicate_id(const int64_t* ids, size_t n, int* found, int64_t* dup) {
    return ndd::guarded([&] {
        std::vector<int64_t> v(ids, ids + n);
        std::sort(v.begin(), v.end());
        auto it = std::adjacent_find(v.begin(), v.end());
        *found = it != v.end();
        *dup = *found ? *it : 0;
    });
}

