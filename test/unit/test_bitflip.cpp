// test_bitflip.cpp
//    The bit-flip fingerprint against the patent's own example and a direct, slow re-implementation of
//    its definition (every window materialized, checksummed from scratch).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bitflip.hpp"

namespace {

const unsigned char* bytes(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

std::string window(const std::string& doc, size_t w, size_t i) {
    std::string out(w, '\0');
    ndd::bitflip_window_bytes(bytes(doc), doc.size(), w, i, reinterpret_cast<unsigned char*>(&out[0]));
    return out;
}

// The definition, step by step: all windows, their checksums, the smallest distinct ones, the flips.
ndd::Fingerprint128 slow_fingerprint(const std::string& doc, size_t w, size_t samples) {
    std::set<uint32_t> sums;
    for (size_t i = 0; i < ndd::bitflip_window_count(doc.size(), w); i++) {
        std::string win = window(doc, w, i);
        sums.insert(ndd::bitflip_window_checksum(bytes(win), w));
    }
    ndd::Fingerprint128 fp{0, 0};
    size_t taken = 0;
    for (uint32_t c : sums) {
        if (taken++ == samples) break;
        unsigned bit = c % 128;  // bit 0 = most significant bit of hi
        if (bit < 64)
            fp.hi ^= uint64_t(1) << (63 - bit);
        else
            fp.lo ^= uint64_t(1) << (127 - bit);
    }
    return fp;
}

ndd::Fingerprint128 fingerprint(const std::string& doc, size_t w = 64, size_t samples = 128) {
    ndd::InterruptPoller poller(nullptr);
    return ndd::bitflip_fingerprint(bytes(doc), doc.size(), w, samples, poller);
}

int hamming(const ndd::Fingerprint128& a, const ndd::Fingerprint128& b) {
    return __builtin_popcountll(a.hi ^ b.hi) + __builtin_popcountll(a.lo ^ b.lo);
}

TEST(Bitflip, PatentExampleWindows) {
    // FIG. 6: "Four score and seven years ago." with a 4-byte block: one window per byte, wrapping.
    const std::string doc = "Four score and seven years ago.";
    ASSERT_EQ(doc.size(), 31u);
    EXPECT_EQ(ndd::bitflip_window_count(doc.size(), 4), 31u);
    EXPECT_EQ(window(doc, 4, 0), "Four");
    EXPECT_EQ(window(doc, 4, 1), "our ");
    EXPECT_EQ(window(doc, 4, 2), "ur s");
    EXPECT_EQ(window(doc, 4, 29), "o.Fo");  // next-to-last block
    EXPECT_EQ(window(doc, 4, 30), ".Fou");  // last block
}

TEST(Bitflip, ShortDocumentsArePaddedWithNulBytes) {
    EXPECT_EQ(ndd::bitflip_window_count(3, 8), 8u);
    EXPECT_EQ(window("abc", 8, 0), std::string("abc\0\0\0\0\0", 8));
    EXPECT_EQ(window("abc", 8, 6), std::string("\0\0abc\0\0\0", 8));
    // The empty text: window NUL bytes in every rotation, one distinct checksum, one bit flipped.
    ndd::Fingerprint128 e = fingerprint("");
    EXPECT_EQ(__builtin_popcountll(e.hi) + __builtin_popcountll(e.lo), 1);
    EXPECT_EQ(hamming(e, slow_fingerprint("", 64, 128)), 0);
}

TEST(Bitflip, RollingChecksumMatchesTheDefinition) {
    std::mt19937_64 rng(9);
    std::vector<std::string> docs = {"Four score and seven years ago.", "", "x", std::string(200, 'a'),
                                     std::string("nul\0inside", 10)};
    for (int i = 0; i < 20; i++) {
        std::string d(rng() % 3000, ' ');
        for (auto& c : d) c = static_cast<char>(rng() % 7 == 0 ? rng() : 'a' + rng() % 5);
        docs.push_back(d);
    }
    for (const auto& d : docs) {
        for (size_t w : {1u, 4u, 64u, 100u}) {
            for (size_t samples : {1u, 5u, 128u, 2000u}) {
                ndd::Fingerprint128 fast = fingerprint(d, w, samples), slow = slow_fingerprint(d, w, samples);
                ASSERT_EQ(fast.hi, slow.hi) << "len " << d.size() << " window " << w << " samples " << samples;
                ASSERT_EQ(fast.lo, slow.lo) << "len " << d.size() << " window " << w << " samples " << samples;
            }
        }
    }
}

TEST(Bitflip, SamplesLimitTheFlips) {
    std::mt19937_64 rng(10);
    std::string d(5000, ' ');
    for (auto& c : d) c = static_cast<char>(rng());
    // One sample: exactly one bit set.
    ndd::Fingerprint128 one = fingerprint(d, 64, 1);
    EXPECT_EQ(__builtin_popcountll(one.hi) + __builtin_popcountll(one.lo), 1);
    // 128 samples can set at most 128 bits, and an even/odd count per bit follows from the flips.
    ndd::Fingerprint128 fp = fingerprint(d);
    EXPECT_GT(__builtin_popcountll(fp.hi) + __builtin_popcountll(fp.lo), 30);
}

TEST(Bitflip, SmallEditsStayWithinTheNearDuplicateRadius) {
    std::mt19937_64 rng(11);
    const char* words[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"};
    double near = 0, far = 0;
    const int trials = 50;
    for (int t = 0; t < trials; t++) {
        std::string d, other;
        for (int i = 0; i < 2000; i++) d += std::string(words[rng() % 10]) + (rng() % 13 ? " " : ".\n");
        for (int i = 0; i < 2000; i++) other += std::string(words[rng() % 10]) + (rng() % 13 ? " " : ".\n");
        std::string edited = d;
        edited[rng() % edited.size()] = '#';
        near += hamming(fingerprint(d), fingerprint(edited));
        far += hamming(fingerprint(d), fingerprint(other));
    }
    // The patent's rule: Hamming distance <= 18 of 128 means near-duplicate.
    EXPECT_LE(near / trials, 6.0);
    EXPECT_GE(far / trials, 40.0);
}

TEST(Bitflip, ArgumentChecks) {
    ndd::InterruptPoller poller(nullptr);
    EXPECT_THROW(ndd::bitflip_fingerprint(bytes("abc"), 3, 0, 128, poller), ndd::InvalidArgument);
    EXPECT_THROW(ndd::bitflip_fingerprint(bytes("abc"), 3, ndd::kMaxBitflipWindow + 1, 128, poller), ndd::InvalidArgument);
    EXPECT_THROW(ndd::bitflip_fingerprint(bytes("abc"), 3, 64, 0, poller), ndd::InvalidArgument);
    EXPECT_THROW(ndd::bitflip_fingerprint(bytes("abc"), 3, 64, ndd::kMaxBitflipSamples + 1, poller), ndd::InvalidArgument);
}

}  // namespace
