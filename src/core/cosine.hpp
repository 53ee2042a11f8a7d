// cosine.hpp
//    The exact cosine of the term-frequency vectors of two texts: the components are the word
//    k-shingles (k = 1: the words) of the tokenizer that jaccard() uses, each counted with its
//    repeats (jaccard compares the sets, the cosine the counts). Shingles are compared as strings,
//    like ShingleSet (hashes only order them), so nothing is estimated.
#ifndef NDD_COSINE_HPP
#define NDD_COSINE_HPP

#include <cstddef>
#include <cstdint>

#include "guard.hpp"
#include "tokenize.hpp"

namespace ndd {

// The integer sums a cosine is made of: sum of tf_a(s) tf_b(s), of tf_a(s)^2 and of tf_b(s)^2 over
// the shingles s. Exact (a 1 GB text has fewer than 2^29 tokens, so every sum is below 2^58).
struct TermProducts {
    uint64_t dot;
    uint64_t norm2_a;
    uint64_t norm2_b;
};

TermProducts term_products(const TokenStream& a, const TokenStream& b, size_t k, InterruptPoller& poller);

// dot / (sqrt(norm2_a) sqrt(norm2_b)), at most 1; 1 when neither text has a word (as jaccard:
// two texts without words are the same text), 0 when exactly one has none.
double cosine_of(const TermProducts& p);

}  // namespace ndd

#endif  // NDD_COSINE_HPP
