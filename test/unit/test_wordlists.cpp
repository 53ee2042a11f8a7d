// test_wordlists.cpp
//    Pugh's word-list fingerprints: list numbers in the low bits, order and repetition do not matter,
//    and one of Pugh's edits changes exactly one list.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "hashing.hpp"
#include "wordlists.hpp"

namespace {

std::vector<uint64_t> lists_of(const std::string& s, size_t lists = 4) {
    ndd::InterruptPoller poller(nullptr);
    std::vector<uint64_t> out(lists);
    out.resize(ndd::word_list_fingerprints(s.data(), s.size(), lists, out.data(), poller));
    return out;
}

std::string words(std::mt19937_64& rng, int n) {
    std::string s;
    for (int i = 0; i < n; i++) s += "w" + std::to_string(rng() % 3000) + " ";
    return s;
}

TEST(WordLists, DefinitionOfOneList) {
    // One word, one list: its fingerprint is the documented hash of that word's value.
    uint64_t x = XXH3_64bits_withSeed("hello", 5, ndd::kFeatureSeed);
    uint64_t sum = ndd::mix64(x ^ ndd::kWordListSeed);
    unsigned char b[8];
    ndd::store_le64(sum, b);
    uint64_t h = XXH3_64bits_withSeed(b, 8, ndd::kWordListSeed);
    size_t list = static_cast<size_t>(ndd::mul_high(x, 4));
    EXPECT_EQ(lists_of("Hello hello HELLO", 4), (std::vector<uint64_t>{(h & ~uint64_t(0xFF)) | list}));
}

TEST(WordLists, EmptyListsAreLeftOutAndListNumbersAreInTheLowByte) {
    EXPECT_TRUE(lists_of("").empty());
    EXPECT_TRUE(lists_of(" ... ").empty());
    std::mt19937_64 rng(1);
    std::vector<uint64_t> f = lists_of(words(rng, 500), 16);
    ASSERT_EQ(f.size(), 16u);
    for (size_t j = 0; j < f.size(); j++) EXPECT_EQ(f[j] & 0xFF, j);
    EXPECT_EQ(lists_of(words(rng, 500), 1).size(), 1u);
}

TEST(WordLists, OrderAndRepetitionDoNotMatter) {
    EXPECT_EQ(lists_of("a b c d e f g h"), lists_of("h g f e d c b a a a b"));
}

TEST(WordLists, OneEditChangesExactlyOneList) {
    std::mt19937_64 rng(2);
    for (int t = 0; t < 50; t++) {
        std::string base = words(rng, 400);
        std::vector<uint64_t> a = lists_of(base);
        // Pugh's edit: add occurrences of a word the text does not have.
        std::vector<uint64_t> b = lists_of(base + " brandnewword" + std::to_string(t) + " brandnewword" + std::to_string(t));
        ASSERT_EQ(a.size(), 4u);
        ASSERT_EQ(b.size(), 4u);
        int changed = 0;
        for (size_t j = 0; j < 4; j++) changed += a[j] != b[j];
        EXPECT_EQ(changed, 1);
    }
}

TEST(WordLists, ArgumentChecks) {
    ndd::InterruptPoller poller(nullptr);
    uint64_t out[ndd::kMaxWordLists + 1];
    EXPECT_THROW(ndd::word_list_fingerprints("", 0, 0, out, poller), ndd::InvalidArgument);
    EXPECT_THROW(ndd::word_list_fingerprints("", 0, ndd::kMaxWordLists + 1, out, poller), ndd::InvalidArgument);
}

}  // namespace
