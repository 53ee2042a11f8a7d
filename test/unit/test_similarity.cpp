// test_similarity.cpp
//    Exact Jaccard/containment on hand-made cases and the word edit distance against a plain full
//    dynamic program and against the corpus ground truth.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "content_hash.hpp"
#include "corpus_reader.hpp"
#include "hashing.hpp"
#include "minhash.hpp"
#include "simhash.hpp"
#include "similarity.hpp"
#include "tokenize.hpp"

namespace {

ndd::TokenStream stream(const std::string& s) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    ts.tokenize(s.data(), s.size(), poller);
    return ts;
}

ndd::ShingleOverlap overlap(const std::string& a, const std::string& b, size_t k) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ta = stream(a), tb = stream(b);
    return ndd::shingle_overlap(ta, tb, k, poller);
}

TEST(Jaccard, HandMadeSets) {
    // A = {abcd, bcde}, B = {abcd, bcdf}: J = 1/3, containment 1/2.
    ndd::ShingleOverlap o = overlap("a b c d e", "A B C D F", 4);
    EXPECT_EQ(o.size_a, 2u);
    EXPECT_EQ(o.size_b, 2u);
    EXPECT_EQ(o.inter, 1u);
    EXPECT_DOUBLE_EQ(ndd::jaccard_of(o), 1.0 / 3);
    EXPECT_DOUBLE_EQ(ndd::containment_of(o), 0.5);
    // Repeated shingles count once: {"x x"}.
    o = overlap("x x x x", "x x", 2);
    EXPECT_EQ(o.size_a, 1u);
    EXPECT_DOUBLE_EQ(ndd::jaccard_of(o), 1.0);
    // Fewer tokens than k: one shingle of all of them.
    o = overlap("a b", "a b c", 4);
    EXPECT_EQ(o.size_a, 1u);
    EXPECT_EQ(o.inter, 0u);
    // Containment is asymmetric.
    o = overlap("p q r", "p q r s t u", 2);
    EXPECT_DOUBLE_EQ(ndd::containment_of(o), 1.0);
    EXPECT_DOUBLE_EQ(ndd::jaccard_of(o), 2.0 / 5);
}

TEST(Jaccard, EmptyDocuments) {
    ndd::ShingleOverlap both = overlap("", "!!", 4);
    EXPECT_DOUBLE_EQ(ndd::jaccard_of(both), 1.0);
    EXPECT_DOUBLE_EQ(ndd::containment_of(both), 1.0);
    ndd::ShingleOverlap one = overlap("", "words here", 4);
    EXPECT_DOUBLE_EQ(ndd::jaccard_of(one), 0.0);
    EXPECT_DOUBLE_EQ(ndd::containment_of(one), 1.0);
    ndd::ShingleOverlap other = overlap("words here", "", 4);
    EXPECT_DOUBLE_EQ(ndd::containment_of(other), 0.0);
}

// Plain O(n*m) dynamic program.
size_t full_dp(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, size_t sub) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++) prev[j] = j;
    for (size_t i = 1; i <= a.size(); i++) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); j++)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1] ? sub : 0)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

TEST(EditDistance, HandMadeCases) {
    ndd::InterruptPoller poller(nullptr);
    auto d = [&](const std::string& a, const std::string& b, unsigned sub = 1) {
        return ndd::word_edit_distance(a.data(), a.size(), b.data(), b.size(), sub, poller);
    };
    EXPECT_EQ(d("k i t t e n", "s i t t i n g"), 3u);
    EXPECT_EQ(d("", ""), 0u);
    EXPECT_EQ(d("", "a b c"), 3u);
    EXPECT_EQ(d("a b c", ""), 3u);
    EXPECT_EQ(d("The cat sat.", "the CAT sat"), 0u);
    EXPECT_EQ(d("a b c d", "b c d a"), 2u);
    EXPECT_EQ(d("one two three", "one 2 three"), 1u);
    // Substitution cost 2: a replaced word is a deletion plus an insertion.
    EXPECT_EQ(d("one two three", "one 2 three", 2), 2u);
    EXPECT_EQ(d("k i t t e n", "s i t t i n g", 2), 5u);
    EXPECT_EQ(d("a b c d", "b c d a", 2), 2u);
    EXPECT_THROW(ndd::word_edit_distance("a", 1, "b", 1, 3, poller), ndd::InvalidArgument);
}

TEST(EditDistance, BandedMatchesFullDynamicProgramming) {
    std::mt19937_64 rng(4);
    ndd::InterruptPoller poller(nullptr);
    for (int t = 0; t < 3000; t++) {
        size_t n = rng() % 60, alphabet = 1 + rng() % 6;
        std::vector<uint32_t> a(n);
        for (auto& x : a) x = static_cast<uint32_t>(rng() % alphabet);
        std::vector<uint32_t> b = a;
        // A few random edits, or an unrelated sequence.
        if (rng() % 4 == 0) {
            b.resize(rng() % 60);
            for (auto& x : b) x = static_cast<uint32_t>(rng() % alphabet);
        } else {
            for (int e = rng() % 8; e > 0; e--) {
                size_t op = rng() % 3, pos = b.empty() ? 0 : rng() % b.size();
                if (op == 0 || b.empty())
                    b.insert(b.begin() + (b.empty() ? 0 : pos), static_cast<uint32_t>(rng() % alphabet));
                else if (op == 1)
                    b.erase(b.begin() + pos);
                else
                    b[pos] = static_cast<uint32_t>(rng() % alphabet);
            }
        }
        for (unsigned sub : {1u, 2u})
            ASSERT_EQ(ndd::edit_distance_ids(a.data(), a.size(), b.data(), b.size(), sub, poller), full_dp(a, b, sub))
                << "case " << t << ", substitution cost " << sub;
    }
    // Long sequences with a band wider than the first guess.
    std::vector<uint32_t> a(3000), b;
    for (auto& x : a) x = static_cast<uint32_t>(rng() % 50);
    b = a;
    for (int e = 0; e < 300; e++) b[rng() % b.size()] = static_cast<uint32_t>(rng() % 50);
    b.erase(b.begin() + 100, b.begin() + 180);
    for (unsigned sub : {1u, 2u})
        EXPECT_EQ(ndd::edit_distance_ids(a.data(), a.size(), b.data(), b.size(), sub, poller), full_dp(a, b, sub));
}

// The corpus's edit_dist is the insert/delete distance (substitution cost 2); Levenshtein is never
// larger, and equal to it only where no substitution helps.
void check_edit_distances(const std::string& docs_file, const std::string& pairs_file, int min_checked) {
    std::vector<ndd_test::Doc> docs = ndd_test::read_docs(docs_file);
    std::vector<ndd_test::TruthPair> pairs = ndd_test::read_pairs(pairs_file);
    auto by_id = ndd_test::index_by_id(docs);
    ndd::InterruptPoller poller(nullptr);
    int checked = 0, bad = 0;
    for (const auto& p : pairs) {
        // Pairs of documents up to 6,000 words keep the test quick (the distance is O(n d)).
        if (p.edit_dist < 0 || p.ntok_a > 6000 || p.ntok_b > 6000 || checked >= 400) continue;
        checked++;
        const std::string &ta = docs[by_id.at(p.a)].text, &tb = docs[by_id.at(p.b)].text;
        long d = static_cast<long>(ndd::word_edit_distance(ta.data(), ta.size(), tb.data(), tb.size(), 2, poller));
        long lev = static_cast<long>(ndd::word_edit_distance(ta.data(), ta.size(), tb.data(), tb.size(), 1, poller));
        if ((d != p.edit_dist || lev > d || 2 * lev < d) && bad++ < 5)
            ADD_FAILURE() << p.a << " " << p.b << ": " << d << " (Levenshtein " << lev << ") vs " << p.edit_dist;
    }
    EXPECT_GT(checked, min_checked) << pairs_file;
    EXPECT_EQ(bad, 0) << pairs_file;
}

TEST(EditDistance, MatchesSampleGroundTruth) {
    check_edit_distances(ndd_test::sample_file("sample.jsonl"), ndd_test::sample_file("sample.pairs.k4.tsv"), 100);
}

TEST(EditDistance, MatchesCorpusGroundTruth) {
    NDD_REQUIRE_CORPUS();
    for (const char* corpus : {"legal", "web"})
        check_edit_distances(ndd_test::corpus_file(std::string("dev/") + corpus + ".jsonl.gz"),
                             ndd_test::corpus_file(std::string("dev/") + corpus + ".pairs.k4.tsv.gz"), 300);
}

TEST(ContentHash, NormalizedTextDecides) {
    auto h = [](const std::string& s) { return ndd::content_hash(stream(s)); };
    ndd::Fingerprint128 a = h("Hello,   World!"), b = h("hello world"), c = h("hello world!!! again");
    EXPECT_EQ(a.hi, b.hi);
    EXPECT_EQ(a.lo, b.lo);
    EXPECT_NE(a.hi, c.hi);
    XXH128_hash_t ref = XXH3_128bits_withSeed("hello world", 11, ndd::kContentSeed);
    EXPECT_EQ(a.hi, ref.high64);
    EXPECT_EQ(a.lo, ref.low64);
    XXH128_hash_t empty = XXH3_128bits_withSeed("", 0, ndd::kContentSeed);
    EXPECT_EQ(h(" - ").lo, empty.low64);
}

}  // namespace

// Random text of words from a small vocabulary with cased Unicode, separators and invalid bytes.
std::string random_text(std::mt19937& rng, size_t words) {
    static const char* vocab[] = {"Alpha", "beta", "GAMMA", "δέλτα", "ΣΊΣΥΦΟΣ", "İstanbul", "x", "42", "q_r", "\xff"};
    static const char* seps[] = {" ", ", ", "\n", "  --  ", "!"};
    std::string s;
    for (size_t i = 0; i < words; i++) {
        s += vocab[rng() % (sizeof vocab / sizeof *vocab)];
        s += seps[rng() % (sizeof seps / sizeof *seps)];
    }
    return s;
}

TEST(ShingleCursor, ReadsTheShinglesOfForEachShingle) {
    std::mt19937 rng(8);
    ndd::InterruptPoller poller(nullptr);
    for (size_t words : {0, 1, 2, 3, 5, 40, 300}) {
        std::string doc = random_text(rng, words);
        ndd::TokenStream ts = stream(doc);
        for (size_t k : {1, 2, 4, 9}) {
            std::vector<std::string> want;
            ndd::for_each_shingle(ts, k, poller, [&](std::string_view s) { want.emplace_back(s); });
            std::vector<std::string> got;
            ndd::ShingleCursor cursor(doc.data(), doc.size(), k);
            std::string_view s;
            uint64_t h;
            while (cursor.next(&s, &h, poller)) {
                EXPECT_EQ(h, ndd::hash64(s, ndd::kFeatureSeed));
                got.emplace_back(s);
            }
            EXPECT_FALSE(cursor.next(&s, &h, poller)) << "the cursor stays at its end";
            EXPECT_EQ(got, want) << words << " words, k = " << k;
        }
    }
}

TEST(ShingleCursor, SetBytesCountTokensAndShingles) {
    ndd::InterruptPoller poller(nullptr);
    EXPECT_EQ(ndd::shingle_set_bytes("", 0, 4, poller), 0u);
    // "ab cd ef": 9 bytes with a separator after each token, 3 tokens, 1 shingle of 3 < 4 tokens.
    EXPECT_EQ(ndd::shingle_set_bytes("AB, cd ef", 9, 4, poller), 9u + 8 * 3 + 16 * 1);
    EXPECT_EQ(ndd::shingle_set_bytes("AB, cd ef", 9, 2, poller), 9u + 8 * 3 + 16 * 2);
}

// The fingerprints computed while reading a document (ShingleCursor, TokenCursor) equal those of its
// token stream.
TEST(ShingleCursor, StreamingFingerprintsEqualThoseOfTheTokenStream) {
    std::mt19937 rng(15);
    ndd::InterruptPoller poller(nullptr);
    for (size_t words : {0, 1, 3, 50, 5000}) {
        std::string doc = random_text(rng, words);
        ndd::TokenStream ts = stream(doc);
        ndd::Fingerprint128 a = ndd::content_hash(ts), b = ndd::content_hash(doc.data(), doc.size(), poller);
        EXPECT_EQ(a.hi, b.hi);
        EXPECT_EQ(a.lo, b.lo);
        for (size_t k : {1, 3, 4}) {
            EXPECT_EQ(ndd::simhash_shingles(ts, k, poller), ndd::simhash_shingles(doc.data(), doc.size(), k, poller));
            uint64_t x[100], y[100];
            ndd::shingle_minhash(ts, k, 100, x, poller);
            ndd::shingle_minhash(doc.data(), doc.size(), k, 100, y, poller);
            EXPECT_TRUE(std::equal(x, x + 100, y)) << words << " words, k = " << k;
        }
    }
}
