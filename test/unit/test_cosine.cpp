// test_cosine.cpp
//    The exact term-frequency cosine on hand-made cases and against a std::map of shingle strings
//    over random texts (repeats, shingles longer than the text, Unicode, empty).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>

#include "cosine.hpp"
#include "distance_api.h"
#include "tokenize.hpp"

namespace {

double cosine(const std::string& a, const std::string& b, size_t k = 1) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ta, tb;
    ta.tokenize(a.data(), a.size(), poller);
    tb.tokenize(b.data(), b.size(), poller);
    return ndd::cosine_of(ndd::term_products(ta, tb, k, poller));
}

std::map<std::string, double> counts(const std::string& doc, size_t k) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    ts.tokenize(doc.data(), doc.size(), poller);
    std::map<std::string, double> m;
    ndd::for_each_shingle(ts, k, poller, [&](std::string_view s) { m[std::string(s)] += 1; });
    return m;
}

double reference(const std::string& a, const std::string& b, size_t k) {
    auto ca = counts(a, k), cb = counts(b, k);
    if (ca.empty() && cb.empty()) return 1.0;
    if (ca.empty() || cb.empty()) return 0.0;
    double dot = 0, na = 0, nb = 0;
    for (auto& [s, c] : ca) {
        na += c * c;
        auto it = cb.find(s);
        if (it != cb.end()) dot += c * it->second;
    }
    for (auto& [s, c] : cb) nb += c * c;
    return std::min(1.0, dot / (std::sqrt(na) * std::sqrt(nb)));
}

TEST(Cosine, HandMade) {
    EXPECT_DOUBLE_EQ(cosine("a a b", "a b b"), 0.8);  // (2,1).(1,2) / 5
    EXPECT_DOUBLE_EQ(cosine("The cat", "the CAT!"), 1.0);
    EXPECT_DOUBLE_EQ(cosine("x y", "z w"), 0.0);
    EXPECT_DOUBLE_EQ(cosine("", "!!"), 1.0);  // neither has a word
    EXPECT_DOUBLE_EQ(cosine("", "word"), 0.0);
    EXPECT_DOUBLE_EQ(cosine("a b c", "a b d", 2), 0.5);  // {a b, b c} . {a b, b d}
    EXPECT_DOUBLE_EQ(cosine("a b", "a b", 5), 1.0);     // fewer tokens than k: one shingle
    // repeats count (jaccard would say 1): (3) . (1) / (3 * 1) = 1, but (3,1).(1,1) / (sqrt(10) sqrt(2))
    EXPECT_DOUBLE_EQ(cosine("a a a", "a"), 1.0);
    EXPECT_NEAR(cosine("a a a b", "a b"), 4.0 / (std::sqrt(10.0) * std::sqrt(2.0)), 1e-15);
}

TEST(Cosine, EqualsMapReferenceOnRandomTexts) {
    std::mt19937_64 rng(28);
    const char* words[] = {"a", "b", "c", "dé", "日本", "ee", "f", "gg", "h", "Zz"};
    for (int t = 0; t < 2000; t++) {
        std::string x, y;
        size_t nx = rng() % 40, ny = rng() % 40, vocab = 2 + rng() % 9;
        for (size_t i = 0; i < nx; i++) x += std::string(words[rng() % vocab]) + (rng() % 5 ? " " : ", ");
        for (size_t i = 0; i < ny; i++) y += std::string(words[rng() % vocab]) + " ";
        size_t k = 1 + rng() % 4;
        ASSERT_NEAR(cosine(x, y, k), reference(x, y, k), 1e-14) << x << " | " << y << " k=" << k;
        ASSERT_NEAR(cosine(x, y, k), cosine(y, x, k), 1e-15);
    }
}

TEST(Cosine, CApi) {
    double out = -1;
    ASSERT_EQ(ndd_cosine_text("a a b", 5, "a b b", 5, 1, NDD_TOKENIZER_WORDS, &out, nullptr), NDD_OK);
    EXPECT_DOUBLE_EQ(out, 0.8);
    EXPECT_EQ(ndd_cosine_text("a", 1, "b", 1, 0, NDD_TOKENIZER_WORDS, &out, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_cosine_text("a", 1, "b", 1, 1, 99, &out, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_cosine_text(nullptr, 0, nullptr, 0, 1, NDD_TOKENIZER_WORDS, &out, nullptr), NDD_OK);
    EXPECT_DOUBLE_EQ(out, 1.0);
}

}  // namespace
