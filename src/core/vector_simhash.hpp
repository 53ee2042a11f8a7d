// vector_simhash.hpp
//    Charikar's simhash of a real vector: bit j is the side of random hyperplane j on which the
//    vector lies, so two vectors at angle theta differ in a bit with probability theta / pi
//    (simhash_cosine turns the Hamming distance back into a cosine).
//
//    The hyperplanes are fixed forever (stored fingerprints must stay comparable) and reproducible
//    on every machine: their components are +1 or -1 (Achlioptas' database-friendly projections; a
//    random sign vector is as good as a Gaussian one for the angle up to O(1/sqrt(dimensions))),
//    drawn from a counter-based generator: the signs of dimension i for fingerprint word w are the
//    bits of mix64(kVectorSeed + (2 i + w + 1) * golden ratio), the splitmix64 stream of the seed
//    "ndd.vect" at position 2 i + w. Bit j (from the most significant) of word w is set when
//    sum_i s_ij * v_i > 0, s_ij = +1 if bit 63 - j of the signs is set, else -1. The sum is
//    accumulated in double, in the order of the components, with additions and subtractions only:
//    IEEE-754 binary64 rounds each to nearest, so every machine whose doubles are binary64 without
//    excess precision (FLT_EVAL_METHOD 0: every 64-bit target) computes the same bits; no libm
//    function and no multiplication (no fused multiply-add) is involved. A real (float) component
//    converts to double exactly, so real[] and float8[] of the same values give the same fingerprint.
#ifndef NDD_VECTOR_SIMHASH_HPP
#define NDD_VECTOR_SIMHASH_HPP

#include <cstddef>
#include <cstdint>

#include "guard.hpp"

namespace ndd {

// "ndd.vect": the hyperplane signs of vector simhashes. Stored in fingerprints: never change it.
constexpr uint64_t kVectorSeed = 0x6e64642e76656374ULL;

// pgvector's limit of dimensions (an index can hold 2,000; the type 16,000).
constexpr size_t kMaxVectorDimensions = 16000;

// The simhash of v[0..n) in `words` 64-bit words (1: simhash64, 2: fp128, hi first). v must be
// finite (InvalidArgument otherwise) and 1 <= n <= kMaxVectorDimensions.
void vector_simhash(const double* v, size_t n, unsigned words, uint64_t* out, InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_VECTOR_SIMHASH_HPP
