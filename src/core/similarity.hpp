// similarity.hpp
//    Exact verification measures: Jaccard resemblance and containment of word shingle SETS, and the
//    word-level edit distance. These are the ground truth the fingerprints approximate, so nothing
//    here is hashed away: shingles are compared as strings (hashes only order them).
#ifndef NDD_SIMILARITY_HPP
#define NDD_SIMILARITY_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tokenize.hpp"

namespace ndd {

// Sizes of two documents' distinct-shingle sets and of their intersection.
struct ShingleOverlap {
    size_t size_a;
    size_t size_b;
    size_t inter;
};

// The distinct word k-shingles of a token stream (which must outlive it), kept sorted by (hash,
// text): a total order in which equal strings are adjacent, so sets are deduplicated and intersected
// by merging, with exact string comparison.
class ShingleSet {
public:
    ShingleSet(const TokenStream& ts, size_t k, InterruptPoller& poller);
    size_t size() const { return refs_.size(); }
    // |this n other|, comparing shingle strings exactly.
    size_t intersection(const ShingleSet& other, InterruptPoller& poller) const;

private:
    struct Ref {
        uint64_t hash;
        uint32_t offset;
        uint32_t length;
    };
    std::string_view text(const Ref& r) const { return std::string_view(base_ + r.offset, r.length); }
    const char* base_;
    std::vector<Ref> refs_;
};

// Exact set sizes for word k-shingles.
ShingleOverlap shingle_overlap(const TokenStream& a, const TokenStream& b, size_t k, InterruptPoller& poller);

// Bytes of C++ heap that ShingleSet over TokenStream needs for one document with word k-shingles (the
// stream, its token offsets with the vector's growth, and 16 bytes per shingle), found by reading
// its tokens once without keeping them. The caller compares it with its memory budget before
// choosing the in-memory path (shingle_overlap) over a spilling one (ShingleCursor).
size_t shingle_set_bytes(const char* doc, size_t len, size_t k, InterruptPoller& poller,
                         Tokenizer tokenizer = Tokenizer::Words);

// |A n B| / |A u B|; 1 when both sets are empty (two texts without words are the same text).
inline double jaccard_of(const ShingleOverlap& o) {
    size_t uni = o.size_a + o.size_b - o.inter;
    return uni == 0 ? 1.0 : static_cast<double>(o.inter) / static_cast<double>(uni);
}

// |A n B| / |A|: how much of a is in b; 1 when A is empty (the empty set is contained in any set).
inline double containment_of(const ShingleOverlap& o) {
    return o.size_a == 0 ? 1.0 : static_cast<double>(o.inter) / static_cast<double>(o.size_a);
}

// Edit distance between the token sequences: the fewest token insertions, deletions and
// substitutions turning one into the other, an insertion or deletion costing 1 and a substitution
// `substitution_cost` (1 or 2). Cost 1 is the Levenshtein distance (the research report's "word edit
// distance"); cost 2 makes a substitution no cheaper than a deletion plus an insertion, which gives
// the insert/delete distance n + m - 2 LCS (the lecture slides' definition, and the edit_dist column
// of the evaluation corpus).
// Memory O(min(n, m)); time O(max(n, m) * d) for distance d after trimming the common prefix and
// suffix (a band around the diagonal, doubled until it provably holds the answer), at worst O(n * m).
// Memory: 4 bytes per token of each document plus each distinct token once.
size_t word_edit_distance(const char* a, size_t alen, const char* b, size_t blen, unsigned substitution_cost,
                          InterruptPoller& poller,
                          Tokenizer tokenizer = Tokenizer::Words);

// The same over sequences of token ids (exposed for tests).
size_t edit_distance_ids(const uint32_t* a, size_t n, const uint32_t* b, size_t m, unsigned substitution_cost,
                         InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_SIMILARITY_HPP
