// block_permutation.hpp
//    The permutation of a table of Manku's layout (layout_api.h) as a list of bit segments, and its
//    application to a fingerprint: the one implementation behind ndd_layout_permute (the index) and
//    the batch all-pairs mode, which applies one table's permutation to every row and so wants it
//    computed once per table and inlined.
#ifndef NDD_BLOCK_PERMUTATION_HPP
#define NDD_BLOCK_PERMUTATION_HPP

#include <cstdint>

#include "layout_api.h"

namespace ndd {

// Bits [start, start + len) of a 128-bit value v (bit 0 = the most significant of v[0]),
// right-aligned; 0 <= len <= 64, possibly straddling the two words.
inline uint64_t bits_range(const uint64_t v[2], int start, int len) {
    if (len == 0) return 0;
    int word = start >> 6, off = start & 63;
    if (off + len <= 64) return (v[word] << off) >> (64 - len);
    // straddles the word boundary: the tail of word 0 followed by the head of word 1
    int first = 64 - off;
    uint64_t head = v[0] & ((uint64_t{1} << first) - 1);
    uint64_t tail = v[1] >> (64 - (len - first));
    return (head << (len - first)) | tail;
}

// ORs the len (0..64) low bits of x into out at bit position pos (same numbering as bits_range).
inline void put_bits(uint64_t out[2], int pos, int len, uint64_t x) {
    if (len == 0) return;
    int word = pos >> 6, off = pos & 63;
    if (off + len <= 64) {
        out[word] |= x << (64 - off - len);
        return;
    }
    int first = 64 - off;  // bits that still fit in out[0]
    out[0] |= x >> (len - first);
    out[1] |= x << (64 - (len - first));
}

// Table t's permutation: its key blocks in block order, then the other blocks in block order, as
// source segments laid end to end in the permuted value. A block wider than 64 bits (the single
// block of k = 0 on fp128) is cut so that every segment fits a word. The C ABI's NddPermutation
// (layout_api.h), so that C callers can compute it once too.
using BlockPermutation = NddPermutation;

BlockPermutation block_permutation(const NddLayout& l, int table);

// out = in permuted (both 128-bit; a 64-bit layout leaves out[1] = 0 when in[1] = 0).
inline void permute(const BlockPermutation& pm, const uint64_t in[2], uint64_t out[2]) {
    out[0] = out[1] = 0;
    for (int s = 0, pos = 0; s < pm.nseg; pos += pm.len[s], s++)
        put_bits(out, pos, pm.len[s], bits_range(in, pm.start[s], pm.len[s]));
}

// The inverse: out = the fingerprint whose permutation is in.
inline void unpermute(const BlockPermutation& pm, const uint64_t in[2], uint64_t out[2]) {
    out[0] = out[1] = 0;
    for (int s = 0, pos = 0; s < pm.nseg; pos += pm.len[s], s++)
        put_bits(out, pm.start[s], pm.len[s], bits_range(in, pos, pm.len[s]));
}

}  // namespace ndd

#endif  // NDD_BLOCK_PERMUTATION_HPP
