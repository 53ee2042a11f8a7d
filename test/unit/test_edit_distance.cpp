// test_edit_distance.cpp
//    The bit-parallel, banded character edit distance against a plain O(n m) dynamic program on
//    thousands of random pairs (small alphabets, Unicode, empty, long), with and without a bound,
//    with both kinds of match table; UTF-8 decoding; cancellation.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "distance_api.h"
#include "edit_distance.hpp"

namespace {

using Seq = std::vector<uint32_t>;

// The textbook dynamic program, one row at a time.
uint64_t plain_distance(const Seq& a, const Seq& b, unsigned cost) {
    std::vector<uint64_t> row(b.size() + 1), next(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++) row[j] = j;
    for (size_t i = 1; i <= a.size(); i++) {
        next[0] = i;
        for (size_t j = 1; j <= b.size(); j++) {
            uint64_t diag = row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : cost);
            next[j] = std::min({row[j] + 1, next[j - 1] + 1, diag});
        }
        std::swap(row, next);
    }
    return row[b.size()];
}

uint64_t fast(const Seq& a, const Seq& b, unsigned cost, uint64_t bound = ndd::kNoEditBound,
              ndd::MatchTable table = ndd::MatchTable::Auto) {
    ndd::InterruptPoller poller(nullptr);
    return ndd::edit_distance_codepoints(a.data(), a.size(), b.data(), b.size(), cost, bound, poller, table);
}

Seq random_seq(std::mt19937_64& rng, size_t len, uint32_t alphabet, uint32_t base) {
    Seq s(len);
    for (auto& c : s) c = base + static_cast<uint32_t>(rng() % alphabet);
    return s;
}

// b as a few random edits of a: what near-duplicates look like (a small distance on a long text).
Seq mutate(std::mt19937_64& rng, Seq s, size_t edits, uint32_t alphabet, uint32_t base) {
    for (size_t e = 0; e < edits; e++) {
        size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
        uint32_t c = base + static_cast<uint32_t>(rng() % alphabet);
        switch (rng() % 3) {
            case 0: s.insert(s.begin() + at, c); break;
            case 1: if (at < s.size()) s.erase(s.begin() + at); break;
            default: if (at < s.size()) s[at] = c; break;
        }
    }
    return s;
}

Seq u(const std::string& s) { return ndd::utf8_codepoints(s.data(), s.size()); }

TEST(CharEditDistance, HandMade) {
    EXPECT_EQ(fast(u("kitten"), u("sitting"), 1), 3u);
    EXPECT_EQ(fast(u("kitten"), u("sitting"), 2), 5u);
    EXPECT_EQ(fast(u(""), u(""), 1), 0u);
    EXPECT_EQ(fast(u(""), u("abc"), 1), 3u);
    EXPECT_EQ(fast(u("abc"), u(""), 2), 3u);
    EXPECT_EQ(fast(u("abc"), u("abc"), 1), 0u);
    // code points, never bytes: é (2 bytes) -> e is one substitution, 日本 -> 日本語 one insertion
    EXPECT_EQ(fast(u("caf\xC3\xA9"), u("cafe"), 1), 1u);
    EXPECT_EQ(fast(u("\xE6\x97\xA5\xE6\x9C\xAC"), u("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"), 1), 1u);
    EXPECT_EQ(fast(u("\xF0\x9F\x98\x80"), u("\xF0\x9F\x98\x81"), 1), 1u);
}

TEST(CharEditDistance, BoundStopsAtBoundPlusOne) {
    EXPECT_EQ(fast(u("kitten"), u("sitting"), 1, 3), 3u);
    EXPECT_EQ(fast(u("kitten"), u("sitting"), 1, 2), 3u);
    EXPECT_EQ(fast(u("kitten"), u("sitting"), 1, 0), 1u);
    EXPECT_EQ(fast(u("abc"), u("abcdefgh"), 1, 4), 5u);  // refused by lengths alone
    EXPECT_EQ(fast(u(""), u("abcdefgh"), 2, 4), 5u);
    EXPECT_EQ(fast(u("same"), u("same"), 1, 0), 0u);
}

TEST(CharEditDistance, Utf8Decoding) {
    EXPECT_EQ(u("a\xC3\xA9"), (Seq{'a', 0xE9}));
    EXPECT_EQ(ndd::utf8_codepoint_count("a\xC3\xA9\xE6\x97\xA5", 6), 3u);
    // invalid bytes are symbols of their own, apart from every character
    EXPECT_EQ(u("\xFF" "a\xC3"), (Seq{0x110000u + 0xFF, 'a', 0x110000u + 0xC3}));
    EXPECT_EQ(u("\xED\xA0\x80"), (Seq{0x110000u + 0xED, 0x110000u + 0xA0, 0x110000u + 0x80}));  // a surrogate
    EXPECT_EQ(u("\xC0\xAF"), (Seq{0x110000u + 0xC0, 0x110000u + 0xAF}));                          // overlong
    EXPECT_EQ(fast(u("\xFF"), u("\xC3\xBF"), 1), 1u);  // byte FF is not U+00FF
}

// Thousands of random pairs of every shape against the plain dynamic program.
TEST(CharEditDistance, EqualsPlainDynamicProgram) {
    std::mt19937_64 rng(20261128);
    struct Shape {
        uint32_t alphabet, base;
        size_t max_len;
    };
    const Shape shapes[] = {{2, 'a', 12}, {4, 'a', 80}, {26, 'a', 200}, {3, 0x4E00, 150},
                            {5000, 0x4E00, 300}, {1, 'x', 70}, {2, 0x1F600, 140}};
    int cases = 0;
    for (const Shape& sh : shapes) {
        for (int t = 0; t < 600; t++) {
            Seq a = random_seq(rng, rng() % (sh.max_len + 1), sh.alphabet, sh.base);
            Seq b = (t % 2) ? random_seq(rng, rng() % (sh.max_len + 1), sh.alphabet, sh.base)
                            : mutate(rng, a, rng() % 12, sh.alphabet, sh.base);
            for (unsigned cost : {1u, 2u}) {
                uint64_t want = plain_distance(a, b, cost);
                ASSERT_EQ(fast(a, b, cost), want) << "cost " << cost << " lengths " << a.size() << " " << b.size();
                ASSERT_EQ(fast(a, b, cost, ndd::kNoEditBound, ndd::MatchTable::Sparse), want);
                ASSERT_EQ(fast(b, a, cost, ndd::kNoEditBound, ndd::MatchTable::Dense), want);
                uint64_t bound = rng() % (want + 3);
                uint64_t capped = want > bound ? bound + 1 : want;
                ASSERT_EQ(fast(a, b, cost, bound), capped) << "bound " << bound << " want " << want;
                ASSERT_EQ(fast(a, b, cost, bound, ndd::MatchTable::Sparse), capped);
                ASSERT_EQ(fast(a, b, cost, want), want);
                if (want > 0) {
                    ASSERT_EQ(fast(a, b, cost, want - 1), want);
                }
                cases++;
            }
        }
    }
    EXPECT_GT(cases, 8000);
}

// Long near-duplicates (many blocks, a band narrower than the pattern, blocks left behind above
// and entered below) against the plain program.
TEST(CharEditDistance, LongNearDuplicatesEqualPlainDynamicProgram) {
    std::mt19937_64 rng(7);
    for (int t = 0; t < 40; t++) {
        uint32_t alphabet = t % 2 ? 4 : 60;
        Seq a = random_seq(rng, 500 + rng() % 2500, alphabet, 'A');
        Seq b = mutate(rng, a, rng() % 150, alphabet, 'A');
        for (unsigned cost : {1u, 2u}) {
            uint64_t want = plain_distance(a, b, cost);
            EXPECT_EQ(fast(a, b, cost), want);
            EXPECT_EQ(fast(a, b, cost, ndd::kNoEditBound, ndd::MatchTable::Sparse), want);
            for (uint64_t bound : {want / 3, want / 2, want, want + 1, 2 * want + 70}) {
                uint64_t capped = want > bound ? bound + 1 : want;
                EXPECT_EQ(fast(a, b, cost, bound), capped) << "bound " << bound << " want " << want;
            }
        }
    }
}

TEST(CharEditDistance, InsertDeleteIsLengthsMinusTwiceLcs) {
    // the insert/delete distance of a string and its reversal, and of disjoint alphabets
    EXPECT_EQ(fast(u("abcdef"), u("fedcba"), 2), 10u);  // LCS 1
    EXPECT_EQ(fast(u("aaaa"), u("bbbbbb"), 2), 10u);
    EXPECT_EQ(fast(u("aaaa"), u("bbbbbb"), 1), 6u);
}

TEST(CharEditDistance, Similarity) {
    EXPECT_DOUBLE_EQ(ndd::edit_similarity_of(3, 6, 7, 1), 1.0 - 3.0 / 7);
    EXPECT_DOUBLE_EQ(ndd::edit_similarity_of(5, 6, 7, 2), 1.0 - 5.0 / 13);
    EXPECT_DOUBLE_EQ(ndd::edit_similarity_of(0, 0, 0, 1), 1.0);
    EXPECT_DOUBLE_EQ(ndd::edit_similarity_of(4, 0, 4, 2), 0.0);
}

TEST(CharEditDistance, CApiCountsCodePointsAndRefusesBadCost) {
    NddEditDistance out;
    ASSERT_EQ(ndd_edit_distance("caf\xC3\xA9", 5, "cafe!", 5, 1, -1, &out, nullptr), NDD_OK);
    EXPECT_EQ(out.distance, 2);
    EXPECT_EQ(out.length_a, 4);
    EXPECT_EQ(out.length_b, 5);
    EXPECT_DOUBLE_EQ(out.similarity, 1.0 - 2.0 / 5);
    ASSERT_EQ(ndd_edit_distance("abcdef", 6, "uvwxyz", 6, 1, 2, &out, nullptr), NDD_OK);
    EXPECT_EQ(out.distance, 3);
    EXPECT_EQ(ndd_edit_distance("a", 1, "b", 1, 3, -1, &out, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_edit_distance(nullptr, 0, nullptr, 0, 2, -1, &out, nullptr), NDD_OK);
    EXPECT_EQ(out.distance, 0);
    EXPECT_EQ(ndd_utf8_length("\xE6\x97\xA5x", 4), 2u);
    EXPECT_GE(ndd_edit_distance_bytes(100000, 100000), 8u * 200000);
}

int interrupt_always() { return 1; }

TEST(CharEditDistance, LongWorkIsCancellable) {
    std::string a(200000, 'a'), b(200000, 'b');
    NddEditDistance out;
    EXPECT_EQ(ndd_edit_distance(a.data(), a.size(), b.data(), b.size(), 1, -1, &out, interrupt_always),
              NDD_CANCELLED);
}

}  // namespace
