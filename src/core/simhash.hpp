// simhash.hpp
//    Charikar's simhash: every feature's 64-bit hash votes on every bit, +w where the hash has a 1
//    and -w where it has a 0; bit i of the fingerprint is 1 iff the votes on bit i sum to more than 0
//    (a tie gives 0). Bit i of the hash votes on bit i of the fingerprint (bit 0 = least significant).
//
//    A feature that occurs c times votes with weight c, which is the same as each occurrence voting
//    with weight 1; the voters below therefore take occurrences and never need to group features.
#ifndef NDD_SIMHASH_HPP
#define NDD_SIMHASH_HPP

#include <cstddef>
#include <cstdint>

#include "tokenize.hpp"

namespace ndd {

// Counts unit votes. Each vote is 8 shift-and-add steps on byte-wide counters (8 lanes of 8 bits in
// a uint64), flushed to 64-bit counters every 255 votes, instead of 64 separate increments.
class SimhashVoter {
public:
    // One vote of weight 1 for the bits of h.
    void add(uint64_t h) {
        for (int j = 0; j < 8; j++) lanes_[j] += (h >> j) & 0x0101010101010101ULL;
        if (++pending_ == 255) flush();
    }
    // The fingerprint: bit i set iff more votes had bit i set than clear.
    uint64_t result();

private:
    void flush();
    uint64_t lanes_[8] = {};  // lanes_[j], byte k: votes seen for bit 8k+j since the last flush
    unsigned pending_ = 0;
    uint64_t ones_[64] = {};
    uint64_t total_ = 0;
};

// Sums real-valued votes (weighted features).
class WeightedSimhashVoter {
public:
    // A vote of weight w (any finite value; negative votes against the hash's bits).
    void add(uint64_t h, double w) {
        for (int i = 0; i < 64; i++) sums_[i] += ((h >> i) & 1) ? w : -w;
    }
    // The fingerprint: bit i set iff the sum on bit i is > 0.
    uint64_t result() const;

private:
    double sums_[64] = {};
};

// simhash of the word k-shingles of a token stream (k = 1: the words), each occurrence one vote.
uint64_t simhash_shingles(const TokenStream& ts, size_t k, InterruptPoller& poller);

// The same for document doc, read shingle by shingle (ShingleCursor): memory does not grow with it.
uint64_t simhash_shingles(const char* doc, size_t len, size_t k, InterruptPoller& poller,
                          Tokenizer tokenizer = Tokenizer::Words);

// simhash of the character n-grams of the stream text of doc (tokens joined by single spaces): every
// run of n consecutive code points, or the whole text when it has fewer than n, or nothing when
// empty. Reads doc token by token, holding about n code points.
uint64_t simhash_chars(const char* doc, size_t len, size_t n, InterruptPoller& poller,
                       Tokenizer tokenizer = Tokenizer::Words);

// simhash of explicit features, feature i (bytes items[i], lens[i]) voting with weights[i], or with
// 1 when weights is null. Every weight must be finite.
uint64_t simhash_features(size_t count, const char* const* items, const size_t* lens, const double* weights,
                          InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_SIMHASH_HPP
