// minhash.hpp
//    Broder's shingle sketches: t minima of independent hash functions over a document's word
//    shingles; the share of equal positions of two sketches estimates the Jaccard resemblance of the
//    shingle sets. And his supershingles: the sketch cut into groups, each group hashed to one feature.
//
//    Each shingle is hashed once to 64 bits (XXH3, kFeatureSeed, the string "w1 w2 w3 w4"); hash
//    function i is then the bijection
//        h_i(x) = mix(x XOR a_i),  mix(z) = splitmix64's finalizer (two multiply-xorshift rounds)
//    with a_i the i-th output of splitmix64 seeded with kMinhashSeed. Bijective mixing of a 64-bit
//    hash is a permutation of the 64-bit values, so sketch position i is the minimum of the set under
//    permutation i; it costs two multiplications instead of re-hashing the shingle text t times, and
//    runs 8 permutations per instruction where the CPU has AVX-512 (4 with AVX2).
#ifndef NDD_MINHASH_HPP
#define NDD_MINHASH_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tokenize.hpp"

namespace ndd {

// Largest sketch (number of hash functions). The work is shingles x hashes and the result is one
// array per row; at 1024 the estimate's standard error is already under 1.6 %, and exact numbers
// are what jaccard() is for.
constexpr size_t kMaxMinhashes = 1024;

// The value at every position of the sketch of a document without shingles: the minimum over the
// empty set, taken as the top of the range, so that two empty documents have equal sketches
// (resemblance 1, as jaccard() says) and an empty one shares no position with a real one.
constexpr uint64_t kEmptyMinimum = ~uint64_t(0);

// out[0..t) = the sketch of the word k-shingles of ts (the set of distinct shingles).
void shingle_minhash(const TokenStream& ts, size_t k, size_t t, uint64_t* out, InterruptPoller& poller);

// The same for document doc, read shingle by shingle (ShingleCursor): memory does not grow with it.
void shingle_minhash(const char* doc, size_t len, size_t k, size_t t, uint64_t* out, InterruptPoller& poller,
                     Tokenizer tokenizer = Tokenizer::Words);

// The same for shingle hashes already computed (any order, repeats allowed): the permutation part.
void minhash_of_hashes(const uint64_t* hashes, size_t n, size_t t, uint64_t* out, InterruptPoller& poller);

// One implementation of the permutation-and-minimum step: folds the shingle hashes xs[0..n) into
// mins[0..t), t a multiple of 8, with a[0..t) the permutation constants. Every kernel computes the
// same integers; they differ only in the instructions used.
struct MinhashKernel {
    const char* name;
    void (*fold)(const uint64_t* xs, size_t n, const uint64_t* a, size_t t, uint64_t* mins);
};

// The kernels this CPU can run, fastest first (the first one is used). Exposed for the tests.
std::vector<MinhashKernel> minhash_kernels();

// Share of positions where two sketches of length n (> 0) agree.
double minhash_similarity(const uint64_t* a, const uint64_t* b, size_t n);

// out[g] = the supershingle of group g: XXH3 of the group's n/groups values (8 little-endian bytes
// each), seed kSupershingleSeed + g. The group number in the seed keeps features of different groups
// apart even when their values coincide (e.g. the groups of an empty document's sketch).
// groups must divide n.
void supershingles(const uint64_t* sketch, size_t n, size_t groups, uint64_t* out);

// Number of distinct values present in both a and b.
size_t features_shared(const uint64_t* a, size_t na, const uint64_t* b, size_t nb, InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_MINHASH_HPP
