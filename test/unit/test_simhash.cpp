// test_simhash.cpp
//    simhash: the vote on hand-picked hashes, the definition on real features, and the properties
//    that make it useful (small edits move few bits, unrelated texts land about 32 bits apart).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "corpus_reader.hpp"
#include "hashing.hpp"
#include "simhash.hpp"
#include "tokenize.hpp"

namespace {

ndd::TokenStream stream(const std::string& s) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    ts.tokenize(s.data(), s.size(), poller);
    return ts;
}

uint64_t simhash_text(const std::string& s, size_t k = 1) {
    ndd::InterruptPoller poller(nullptr);
    return ndd::simhash_shingles(stream(s), k, poller);
}

int hamming(uint64_t a, uint64_t b) { return __builtin_popcountll(a ^ b); }

TEST(SimhashVoter, MajorityPerBitWithTiesGoingToZero) {
    ndd::SimhashVoter v;
    v.add(0b1011);
    v.add(0b0011);
    v.add(0b0001);
    // bit 0: 3 of 3; bit 1: 2 of 3; bit 2: 0 of 3; bit 3: 1 of 3; all others 0 of 3.
    EXPECT_EQ(v.result(), 0b0011u);

    ndd::SimhashVoter tie;
    tie.add(~uint64_t(0));
    tie.add(0);
    EXPECT_EQ(tie.result(), 0u) << "a sum of exactly 0 gives bit 0";

    ndd::SimhashVoter none;
    EXPECT_EQ(none.result(), 0u);
}

TEST(SimhashVoter, CountsBeyondTheByteLanes) {
    // Thousands of votes cross the 255-vote flush of the byte-wide counters many times.
    ndd::SimhashVoter v;
    for (int i = 0; i < 1000; i++) v.add(0xF0F0F0F0F0F0F0F0ULL);
    for (int i = 0; i < 999; i++) v.add(0x0FFFFFFFFFFFFFFFULL);
    // Bits set in both hashes: 1999 votes for. Bits only in the first: 1000 for, 999 against.
    // Bits only in the second: 999 for, 1000 against.
    EXPECT_EQ(v.result(), 0xF0F0F0F0F0F0F0F0ULL | (0xF0F0F0F0F0F0F0F0ULL & 0x0FFFFFFFFFFFFFFFULL));

    std::mt19937_64 rng(1);
    std::vector<uint64_t> hs(5000);
    for (auto& h : hs) h = rng();
    ndd::SimhashVoter fast;
    long sums[64] = {};
    for (uint64_t h : hs) {
        fast.add(h);
        for (int i = 0; i < 64; i++) sums[i] += ((h >> i) & 1) ? 1 : -1;
    }
    uint64_t expect = 0;
    for (int i = 0; i < 64; i++)
        if (sums[i] > 0) expect |= uint64_t(1) << i;
    EXPECT_EQ(fast.result(), expect);
}

TEST(SimhashVoter, WeightedVotes) {
    ndd::WeightedSimhashVoter v;
    v.add(0b01, 2.5);
    v.add(0b10, 1.0);
    v.add(0b11, -1.0);
    // bit 0: +2.5 -1 -(-1)... = 2.5 - 1.0 - 1.0 = 0.5 > 0; bit 1: -2.5 + 1.0 - 1.0 = -2.5.
    EXPECT_EQ(v.result(), 0b01u);
}

TEST(Simhash, OneWordIsItsOwnHash) {
    // A single feature wins every bit: the fingerprint is its XXH3 hash with the feature seed.
    EXPECT_EQ(simhash_text("Hello!"), XXH3_64bits_withSeed("hello", 5, ndd::kFeatureSeed));
    EXPECT_EQ(simhash_text("two words", 4), XXH3_64bits_withSeed("two words", 9, ndd::kFeatureSeed));
    EXPECT_EQ(simhash_text(""), 0u);
}

TEST(Simhash, WordsVoteByCount) {
    // "a a b": the hash of "a" twice, of "b" once.
    ndd::SimhashVoter v;
    uint64_t ha = XXH3_64bits_withSeed("a", 1, ndd::kFeatureSeed), hb = XXH3_64bits_withSeed("b", 1, ndd::kFeatureSeed);
    v.add(ha);
    v.add(ha);
    v.add(hb);
    EXPECT_EQ(simhash_text("A a, B"), v.result());
    EXPECT_EQ(simhash_text("A a, B"), ha) << "two votes of a beat one of b everywhere";
}

TEST(Simhash, ShinglesAreTokensJoinedBySpaces) {
    ndd::SimhashVoter v;
    for (const char* s : {"the quick", "quick brown", "brown fox"}) v.add(XXH3_64bits_withSeed(s, strlen(s), ndd::kFeatureSeed));
    EXPECT_EQ(simhash_text("The QUICK -- brown fox.", 2), v.result());
    EXPECT_EQ(simhash_text("The QUICK -- brown fox.", 1), simhash_text("the quick brown fox"));
}

TEST(Simhash, FeatureArraysAgreeWithText) {
    ndd::InterruptPoller poller(nullptr);
    std::vector<std::string> words = {"the", "cat", "sat", "on", "the", "mat"};
    std::vector<const char*> items;
    std::vector<size_t> lens;
    for (auto& w : words) {
        items.push_back(w.data());
        lens.push_back(w.size());
    }
    uint64_t unweighted = ndd::simhash_features(words.size(), items.data(), lens.data(), nullptr, poller);
    EXPECT_EQ(unweighted, simhash_text("The cat sat on the mat."));
    // Weights equal to the counts, with each distinct feature once, give the same result.
    std::vector<const char*> uitems = {"the", "cat", "sat", "on", "mat"};
    std::vector<size_t> ulens = {3, 3, 3, 2, 3};
    std::vector<double> weights = {2, 1, 1, 1, 1};
    EXPECT_EQ(ndd::simhash_features(5, uitems.data(), ulens.data(), weights.data(), poller), unweighted);
    // A heavy feature dominates.
    std::vector<double> heavy = {1, 1000, 1, 1, 1};
    EXPECT_EQ(ndd::simhash_features(5, uitems.data(), ulens.data(), heavy.data(), poller),
              XXH3_64bits_withSeed("cat", 3, ndd::kFeatureSeed));
    std::vector<double> bad = {1, std::numeric_limits<double>::quiet_NaN(), 1, 1, 1};
    EXPECT_THROW(ndd::simhash_features(5, uitems.data(), ulens.data(), bad.data(), poller), ndd::InvalidArgument);
}

TEST(SimhashChars, NgramsOfTheStream) {
    ndd::InterruptPoller poller(nullptr);
    auto chars = [&](const std::string& doc, size_t n) { return ndd::simhash_chars(doc.data(), doc.size(), n, poller); };
    auto h = [](const char* s) { return XXH3_64bits_withSeed(s, strlen(s), ndd::kFeatureSeed); };
    // Fewer code points than n: one gram, the whole stream.
    EXPECT_EQ(chars("AB", 4), h("ab"));
    EXPECT_EQ(chars("", 4), 0u);
    // "ab, c" -> stream "ab c" -> 2-grams "ab", "b ", " c".
    ndd::SimhashVoter v;
    v.add(h("ab"));
    v.add(h("b "));
    v.add(h(" c"));
    EXPECT_EQ(chars("ab, c", 2), v.result());
    // n counts code points, not bytes: "été" has 3 code points in 5 bytes, so n = 3 is one gram.
    EXPECT_EQ(chars("\xc3\x89T\xc3\x89", 3), h("\xc3\xa9t\xc3\xa9"));
    ndd::SimhashVoter w;
    w.add(h("\xc3\xa9t"));
    w.add(h("t\xc3\xa9"));
    EXPECT_EQ(chars("\xc3\x89T\xc3\x89", 2), w.result());
}

// A text of n words drawn from a vocabulary of v made-up words (deterministic).
std::string random_text(std::mt19937_64& rng, size_t n, size_t v, const std::string& prefix = "w") {
    std::string s;
    for (size_t i = 0; i < n; i++) {
        if (i) s += ' ';
        s += prefix + std::to_string(rng() % v);
    }
    return s;
}

TEST(SimhashProperties, IdenticalTextIdenticalFingerprint) {
    std::mt19937_64 rng(11);
    std::string t = random_text(rng, 500, 2000);
    EXPECT_EQ(simhash_text(t), simhash_text(t));
    EXPECT_EQ(simhash_text(t, 3), simhash_text(t, 3));
    // Case and punctuation are normalized away.
    std::string shouted;
    for (char c : t) shouted += c == ' ' ? std::string(" ,, ") : std::string(1, static_cast<char>(toupper(c)));
    EXPECT_EQ(simhash_text(t), simhash_text(shouted));
}

TEST(SimhashProperties, OneWordEditMovesFewBits) {
    std::mt19937_64 rng(12);
    double total = 0;
    int worst = 0;
    const int trials = 200;
    for (int trial = 0; trial < trials; trial++) {
        std::string t = random_text(rng, 500, 2000);
        std::vector<std::string> words;
        size_t start = 0;
        for (size_t p; (p = t.find(' ', start)) != std::string::npos; start = p + 1) words.push_back(t.substr(start, p - start));
        words.push_back(t.substr(start));
        words[rng() % words.size()] = "replacement" + std::to_string(trial);
        std::string edited;
        for (size_t i = 0; i < words.size(); i++) edited += (i ? " " : "") + words[i];
        int d = hamming(simhash_text(t), simhash_text(edited));
        total += d;
        worst = std::max(worst, d);
    }
    // A vote of about 500 moves by 2: a bit flips only where its sum was within 2 of zero.
    EXPECT_LE(total / trials, 3.0);
    EXPECT_LE(worst, 10);
}

TEST(SimhashProperties, UnrelatedTextsAreAboutHalfTheBitsApart) {
    std::mt19937_64 rng(13);
    double total = 0;
    const int pairs = 300;
    for (int i = 0; i < pairs; i++) {
        std::string a = random_text(rng, 300, 5000, "a");
        std::string b = random_text(rng, 300, 5000, "b");
        total += hamming(simhash_text(a), simhash_text(b));
    }
    double mean = total / pairs;
    EXPECT_GE(mean, 28.0);
    EXPECT_LE(mean, 36.0);
}

// Real pairs with Jaccard >= 0.9 must be far closer than random pairs of the same documents.
void check_near_closer(const std::string& docs_file, const std::string& pairs_file, int min_near) {
    std::vector<ndd_test::Doc> docs = ndd_test::read_docs(docs_file);
    std::vector<ndd_test::TruthPair> pairs = ndd_test::read_pairs(pairs_file);
    auto by_id = ndd_test::index_by_id(docs);
    std::vector<uint64_t> fp(docs.size());
    for (size_t i = 0; i < docs.size(); i++) fp[i] = simhash_text(docs[i].text);
    double near = 0;
    int nnear = 0;
    for (const auto& p : pairs) {
        if (std::stod(p.jaccard) < 0.9) continue;
        near += hamming(fp[by_id.at(p.a)], fp[by_id.at(p.b)]);
        nnear++;
    }
    ASSERT_GT(nnear, min_near) << pairs_file;
    std::mt19937_64 rng(14);
    double random = 0;
    for (int i = 0; i < 2000; i++) random += hamming(fp[rng() % fp.size()], fp[rng() % fp.size()]);
    EXPECT_LT(near / nnear, 2.0);
    EXPECT_GT(random / 2000, 12.0);
}

TEST(SimhashProperties, SampleNearDuplicatesAreCloserThanUnrelatedDocuments) {
    check_near_closer(ndd_test::sample_file("sample.jsonl"), ndd_test::sample_file("sample.pairs.k4.tsv"), 50);
}

TEST(SimhashProperties, CorpusNearDuplicatesAreCloserThanUnrelatedDocuments) {
    NDD_REQUIRE_CORPUS();
    check_near_closer(ndd_test::corpus_file("dev/legal.jsonl.gz"), ndd_test::corpus_file("dev/legal.pairs.k4.tsv.gz"), 100);
}

}  // namespace

// Against a plain reference over the whole token stream, on texts long enough to move the window.
TEST(SimhashChars, EqualsTheGramsOfTheWholeStream) {
    ndd::InterruptPoller poller(nullptr);
    std::mt19937_64 rng(4);
    const char* words[] = {"Été", "ΣΊΣΥΦΟΣ", "a", "bb", "İx", "日本語", "42"};
    for (size_t count : {0, 1, 2, 3000}) {
        std::string doc;
        for (size_t i = 0; i < count; i++) doc += std::string(words[rng() % 7]) + (rng() % 3 ? " " : ", ");
        std::string text(stream(doc).text());
        std::vector<size_t> starts;  // code point starts, then the end
        for (size_t i = 0; i < text.size(); i++)
            if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
        size_t cps = starts.size();
        starts.push_back(text.size());
        for (size_t n : {1, 2, 5, 256}) {
            ndd::SimhashVoter want;
            if (cps > 0 && cps < n) want.add(XXH3_64bits_withSeed(text.data(), text.size(), ndd::kFeatureSeed));
            for (size_t i = 0; cps >= n && i + n <= cps; i++)
                want.add(XXH3_64bits_withSeed(text.data() + starts[i], starts[i + n] - starts[i], ndd::kFeatureSeed));
            EXPECT_EQ(ndd::simhash_chars(doc.data(), doc.size(), n, poller), want.result()) << count << " words, n = " << n;
        }
    }
}
