// hashing.hpp
//    The fixed seeds and the small mixers every fingerprint is built from.
//
//    Fingerprints are stored in tables and compared with fingerprints computed years later on other
//    machines, so every seed here is fixed forever: changing one silently makes every stored
//    fingerprint of that kind incomparable with new ones. Each seed is the ASCII of a short name
//    read as a big-endian 64-bit number, so it is recognisable in a hex dump and obviously not tuned.
//    All hashing is xxHash's XXH3 over bytes (so the result does not depend on the machine's byte
//    order); integers that are hashed are first written as little-endian bytes.
#ifndef NDD_HASHING_HPP
#define NDD_HASHING_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

// Inline xxHash into the core: most hashed items are a few bytes long, where the call overhead of
// the shared library would dominate. The results are the same as libxxhash's.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace ndd {

// "ndd.feat": the 64-bit hash of any feature: a word, a word shingle ("w1 w2 w3 w4", single spaces),
// a character n-gram, a tsvector lexeme, an element of a feature array. One seed for all of them
// keeps the variants consistent: simhash(doc) = simhash(doc, 1) = simhash(ndd_tokens(doc)).
constexpr uint64_t kFeatureSeed = 0x6e64642e66656174ULL;
// "ndd.minh": source of the per-function constants of the minhash permutations (via splitmix64).
constexpr uint64_t kMinhashSeed = 0x6e64642e6d696e68ULL;
// "ndd.supr": the hash of a supershingle group (the group number is added to it).
constexpr uint64_t kSupershingleSeed = 0x6e64642e73757072ULL;
// "ndd.bitf": source of the byte table and base of the bit-flip fingerprint's rolling checksum.
constexpr uint64_t kBitflipSeed = 0x6e64642e62697466ULL;
// "ndd.list": the word-list fingerprints (a word's value in its list, and the list's fingerprint).
constexpr uint64_t kWordListSeed = 0x6e64642e6c697374ULL;
// "ndd.cont": the 128-bit content hash of the normalized token stream.
constexpr uint64_t kContentSeed = 0x6e64642e636f6e74ULL;
// "ndd.band": LSH band keys of a minhash sketch (plus (rows << 16) + band). Band keys are stored in
// indexes (ndd_jaccard_bands).
constexpr uint64_t kBandSeed = 0x6e64642e62616e64ULL;
// "ndd.vrfy": the second hash of a shingle in ndd_jaccard_pairs' verification sets (the first is
// the feature hash, kFeatureSeed). Never stored, but one place for every seed all the same.
constexpr uint64_t kVerifySeed = 0x6e64642e76726679ULL;

// A 128-bit fingerprint: hi holds bits 0..63 (bit 0 = its most significant bit), lo bits 64..127,
// the order of the fp128 type's text form.
struct Fingerprint128 {
    uint64_t hi;
    uint64_t lo;
};

// XXH3 64-bit hash of a byte string.
inline uint64_t hash64(std::string_view s, uint64_t seed) {
    return XXH3_64bits_withSeed(s.data(), s.size(), seed);
}

// splitmix64's output function: a bijective 64-bit mixer with full avalanche.
inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// A deterministic stream of 64-bit values from a seed (splitmix64), for deriving constants.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ULL;
        return mix64(state_);
    }

private:
    uint64_t state_;
};

// Writes v as 8 little-endian bytes.
inline void store_le64(uint64_t v, unsigned char* out) {
    for (int i = 0; i < 8; i++) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

// The high 64 bits of a 64 x 64-bit product: maps a uniform 64-bit hash to [0, n) without bias
// worth mentioning and without a division.
inline uint64_t mul_high(uint64_t a, uint64_t b) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}

}  // namespace ndd

#endif  // NDD_HASHING_HPP
