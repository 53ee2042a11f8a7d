// test_minhash.cpp
//    Shingle sketches: the definition (recomputed here from the documented seeds), agreement of the
//    CPU-specific kernels, accuracy against exact Jaccard on real corpus pairs, supershingles and
//    shared features.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "corpus_reader.hpp"
#include "hashing.hpp"
#include "minhash.hpp"
#include "similarity.hpp"
#include "tokenize.hpp"

namespace {

ndd::TokenStream stream(const std::string& s) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    ts.tokenize(s.data(), s.size(), poller);
    return ts;
}

std::vector<uint64_t> sketch(const std::string& s, size_t k, size_t t) {
    ndd::InterruptPoller poller(nullptr);
    std::vector<uint64_t> out(t);
    ndd::shingle_minhash(stream(s), k, t, out.data(), poller);
    return out;
}

double similarity(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
    return ndd::minhash_similarity(a.data(), b.data(), a.size());
}

TEST(Minhash, DefinitionFromTheDocumentedSeeds) {
    // Position i = min over distinct shingles x of mix64(XXH3(x, kFeatureSeed) XOR a_i), a_i the
    // i-th splitmix64 output from kMinhashSeed.
    std::vector<std::string> shingles = {"a b", "b c", "c a"};
    std::vector<uint64_t> expect(20, ~uint64_t(0));
    ndd::SplitMix64 gen(ndd::kMinhashSeed);
    for (size_t i = 0; i < expect.size(); i++) {
        uint64_t a = gen.next();
        for (const auto& s : shingles) expect[i] = std::min(expect[i], ndd::mix64(ndd::hash64(s, ndd::kFeatureSeed) ^ a));
    }
    EXPECT_EQ(sketch("A b. C a b c", 2, 20), expect) << "repeated shingles do not matter";
}

TEST(Minhash, EveryKernelComputesTheSameSketch) {
    std::mt19937_64 rng(3);
    std::vector<uint64_t> xs(5000);
    for (auto& x : xs) x = rng();
    ndd::SplitMix64 gen(ndd::kMinhashSeed);
    std::vector<uint64_t> a(ndd::kMaxMinhashes);
    for (auto& v : a) v = gen.next();
    std::vector<ndd::MinhashKernel> kernels = ndd::minhash_kernels();
    ASSERT_FALSE(kernels.empty());
    EXPECT_STREQ(kernels.back().name, "scalar");
    for (size_t t : {8u, 88u, 1024u}) {
        std::vector<uint64_t> reference(t, ~uint64_t(0));
        kernels.back().fold(xs.data(), xs.size(), a.data(), t, reference.data());
        for (const auto& k : kernels) {
            std::vector<uint64_t> mins(t, ~uint64_t(0));
            k.fold(xs.data(), xs.size(), a.data(), t, mins.data());
            EXPECT_EQ(mins, reference) << "kernel " << k.name << ", t = " << t;
        }
    }
}

TEST(Minhash, EmptyDocumentsAndIdenticalDocuments) {
    std::vector<uint64_t> e = sketch("", 4, 84);
    for (uint64_t v : e) EXPECT_EQ(v, ndd::kEmptyMinimum);
    EXPECT_EQ(similarity(e, sketch("  ...  ", 4, 84)), 1.0);
    std::vector<uint64_t> a = sketch("one two three four five six", 4, 84);
    EXPECT_EQ(similarity(a, sketch("One, two; THREE four five six!", 4, 84)), 1.0);
    EXPECT_EQ(similarity(a, e), 0.0);
    // Fewer tokens than the shingle size: one shingle of all of them.
    EXPECT_EQ(similarity(sketch("one two", 4, 84), sketch("one two", 2, 84)), 1.0);
    EXPECT_LT(similarity(sketch("one two", 4, 84), sketch("one three", 4, 84)), 0.1);
}

TEST(Minhash, ArgumentChecks) {
    ndd::InterruptPoller poller(nullptr);
    std::vector<uint64_t> out(ndd::kMaxMinhashes + 1);
    ndd::TokenStream ts = stream("x");
    EXPECT_THROW(ndd::shingle_minhash(ts, 0, 84, out.data(), poller), ndd::InvalidArgument);
    EXPECT_THROW(ndd::shingle_minhash(ts, 4, 0, out.data(), poller), ndd::InvalidArgument);
    EXPECT_THROW(ndd::shingle_minhash(ts, 4, ndd::kMaxMinhashes + 1, out.data(), poller), ndd::InvalidArgument);
    EXPECT_NO_THROW(ndd::shingle_minhash(ts, 4, ndd::kMaxMinhashes, out.data(), poller));
    EXPECT_THROW(ndd::minhash_similarity(out.data(), out.data(), 0), ndd::InvalidArgument);
}

// Up to 400 ground-truth pairs (J >= 0.5) of real documents, and 200 random pairs.
void check_estimates(const std::string& docs_file, const std::string& pairs_file) {
    std::vector<ndd_test::Doc> docs = ndd_test::read_docs(docs_file);
    std::vector<ndd_test::TruthPair> pairs = ndd_test::read_pairs(pairs_file);
    ASSERT_GE(pairs.size(), 200u) << pairs_file;
    auto by_id = ndd_test::index_by_id(docs);
    std::mt19937_64 rng(21);
    std::shuffle(pairs.begin(), pairs.end(), rng);
    if (pairs.size() > 400) pairs.resize(400);
    double bias = 0;
    int within = 0, within_big = 0;
    for (const auto& p : pairs) {
        double j = std::stod(p.jaccard);
        const std::string& a = docs[by_id.at(p.a)].text;
        const std::string& b = docs[by_id.at(p.b)].text;
        double est = similarity(sketch(a, 4, 84), sketch(b, 4, 84));
        bias += est - j;
        within += std::fabs(est - j) <= 0.1;
        // With 1024 hashes the standard error is at most 0.016: 0.1 is more than 6 of them.
        within_big += std::fabs(similarity(sketch(a, 4, 1024), sketch(b, 4, 1024)) - j) <= 0.1;
    }
    // 84 hashes: standard error up to 0.055, so about 7% of pairs near J = 0.5 stray beyond 0.1.
    EXPECT_GE(within, 0.9 * pairs.size());
    EXPECT_EQ(within_big, static_cast<int>(pairs.size()));
    EXPECT_LT(std::fabs(bias / pairs.size()), 0.02) << "the estimator is unbiased";

    // Unrelated documents: close to 0.
    int low = 0;
    for (int i = 0; i < 200; i++) {
        const std::string& a = docs[rng() % docs.size()].text;
        const std::string& b = docs[rng() % docs.size()].text;
        ndd::InterruptPoller poller(nullptr);
        ndd::TokenStream ta = stream(a), tb = stream(b);
        double j = ndd::jaccard_of(ndd::shingle_overlap(ta, tb, 4, poller));
        low += std::fabs(similarity(sketch(a, 4, 84), sketch(b, 4, 84)) - j) <= 0.1;
    }
    EXPECT_GE(low, 180);
}

TEST(Minhash, EstimatesExactJaccardOnSamplePairs) {
    check_estimates(ndd_test::sample_file("sample.jsonl"), ndd_test::sample_file("sample.pairs.k4.tsv"));
}

TEST(Minhash, EstimatesExactJaccardOnCorpusPairs) {
    NDD_REQUIRE_CORPUS();
    check_estimates(ndd_test::corpus_file("dev/web.jsonl.gz"), ndd_test::corpus_file("dev/web.pairs.k4.tsv.gz"));
}

TEST(Supershingles, GroupsHashedWithTheirNumber) {
    std::vector<uint64_t> s(12);
    for (size_t i = 0; i < s.size(); i++) s[i] = 0x0102030405060708ULL * (i + 1);
    std::vector<uint64_t> out(3);
    ndd::supershingles(s.data(), s.size(), 3, out.data());
    for (size_t g = 0; g < 3; g++) {
        unsigned char bytes[32];
        for (size_t i = 0; i < 4; i++) ndd::store_le64(s[g * 4 + i], bytes + 8 * i);
        EXPECT_EQ(out[g], XXH3_64bits_withSeed(bytes, 32, ndd::kSupershingleSeed + g));
    }
    // Equal groups in different positions still give different features.
    std::vector<uint64_t> same(84, 7), f(6);
    ndd::supershingles(same.data(), same.size(), 6, f.data());
    ndd::InterruptPoller poller(nullptr);
    EXPECT_EQ(ndd::features_shared(f.data(), 6, f.data(), 6, poller), 6u);
    EXPECT_THROW(ndd::supershingles(s.data(), s.size(), 5, out.data()), ndd::InvalidArgument);
    EXPECT_THROW(ndd::supershingles(s.data(), s.size(), 0, out.data()), ndd::InvalidArgument);
}

TEST(Supershingles, NearDuplicatesShareFeaturesUnrelatedDoNot) {
    std::mt19937_64 rng(5);
    std::string base;
    for (int i = 0; i < 2000; i++) base += "w" + std::to_string(rng() % 5000) + " ";
    std::string edited = base + " one extra tail";
    std::string other;
    for (int i = 0; i < 2000; i++) other += "w" + std::to_string(rng() % 5000) + " ";
    ndd::InterruptPoller poller(nullptr);
    auto features = [&](const std::string& s) {
        std::vector<uint64_t> f(6);
        std::vector<uint64_t> sk = sketch(s, 4, 84);
        ndd::supershingles(sk.data(), sk.size(), 6, f.data());
        return f;
    };
    std::vector<uint64_t> fa = features(base), fb = features(edited), fc = features(other);
    EXPECT_GE(ndd::features_shared(fa.data(), 6, fb.data(), 6, poller), 2u);
    EXPECT_EQ(ndd::features_shared(fa.data(), 6, fc.data(), 6, poller), 0u);
}

TEST(FeaturesShared, CountsDistinctCommonValues) {
    ndd::InterruptPoller poller(nullptr);
    std::vector<uint64_t> a = {1, 2, 2, 3, ~uint64_t(0)}, b = {2, 3, 3, 4, ~uint64_t(0)};
    EXPECT_EQ(ndd::features_shared(a.data(), a.size(), b.data(), b.size(), poller), 3u);
    EXPECT_EQ(ndd::features_shared(a.data(), 0, b.data(), b.size(), poller), 0u);
}

}  // namespace
