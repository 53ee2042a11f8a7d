// Unit tests of the feature-array all-pairs mode (Pugh's iceberg query): documents sharing at
// least r distinct features, checked against a brute-force intersection of every pair.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "batch_pairs_api.h"

namespace {

using Triple = std::tuple<int64_t, int64_t, int>;

struct Docs {
    std::vector<int64_t> ids;
    std::vector<int64_t> features;
    std::vector<size_t> offsets{0};
    void add(int64_t id, std::vector<int64_t> f) {
        ids.push_back(id);
        features.insert(features.end(), f.begin(), f.end());
        offsets.push_back(features.size());
    }
};

// Streams the candidates with a buffer of `cap` and counts them as the SQL layer does (sort, runs
// of at least r), sorted by (a, b).
std::vector<Triple> run(const Docs& d, int r, size_t max_df, size_t* skipped, size_t cap = 4096) {
    NddFeatureCandidateIter* it = nullptr;
    EXPECT_EQ(ndd_feature_candidates_begin(d.features.data(), d.offsets.data(), d.ids.size(), max_df, nullptr,
                                           &it, skipped),
              NDD_OK);
    std::vector<uint64_t> cand, buf(cap);
    for (;;) {
        size_t got = 0;
        EXPECT_EQ(ndd_feature_candidates_next(it, buf.data(), cap, &got), NDD_OK);
        EXPECT_LE(got, cap);
        if (got == 0) break;
        cand.insert(cand.end(), buf.begin(), buf.begin() + got);
    }
    ndd_feature_candidates_end(it);
    std::sort(cand.begin(), cand.end());
    std::vector<Triple> out;
    for (size_t s = 0; s < cand.size();) {
        size_t e = s + 1;
        while (e < cand.size() && cand[e] == cand[s]) e++;
        uint32_t i = static_cast<uint32_t>(cand[s] >> 32), j = static_cast<uint32_t>(cand[s]);
        EXPECT_LT(i, j);
        int64_t a = d.ids[i], b = d.ids[j];
        if (e - s >= static_cast<size_t>(r) && a != b) out.emplace_back(std::min(a, b), std::max(a, b), e - s);
        s = e;
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Triple> brute_force(const Docs& d, int r) {
    std::vector<std::set<int64_t>> sets;
    for (size_t i = 0; i < d.ids.size(); i++)
        sets.emplace_back(d.features.begin() + d.offsets[i], d.features.begin() + d.offsets[i + 1]);
    std::vector<Triple> out;
    for (size_t i = 0; i < sets.size(); i++)
        for (size_t j = i + 1; j < sets.size(); j++) {
            int shared = 0;
            for (int64_t f : sets[i]) shared += sets[j].count(f) ? 1 : 0;
            if (shared >= r && d.ids[i] != d.ids[j])
                out.emplace_back(std::min(d.ids[i], d.ids[j]), std::max(d.ids[i], d.ids[j]), shared);
        }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(FeaturePairs, EqualsBruteForce) {
    std::mt19937_64 rng(21);
    Docs d;
    // Six features per document (supershingle-like); documents copy some features of one
    // earlier document, others are fresh random values, and a few come from a small shared pool.
    std::vector<std::vector<int64_t>> made;
    for (int i = 0; i < 800; i++) {
        std::vector<int64_t> f;
        size_t source = i > 0 ? rng() % i : 0;
        for (int g = 0; g < 6; g++) {
            int kind = static_cast<int>(rng() % 10);
            if (i > 0 && kind < 6)
                f.push_back(made[source][g]);
            else if (kind == 4)
                f.push_back(static_cast<int64_t>(rng() % 50));
            else
                f.push_back(static_cast<int64_t>(rng()));
        }
        if (i % 17 == 0) f.push_back(f[0]);  // a repeated feature counts once
        made.push_back(f);
        d.add(3 * static_cast<int64_t>(800 - i), f);
    }
    for (int r : {1, 2, 3, 6}) {
        size_t skipped = 99;
        auto truth = brute_force(d, r);
        EXPECT_FALSE(truth.empty()) << r;
        ASSERT_EQ(run(d, r, 1000000, &skipped), truth) << "r=" << r;
        EXPECT_EQ(skipped, 0u);
    }
}

TEST(FeaturePairs, HandMadeAndSingletonsDropped) {
    Docs d;
    d.add(10, {1, 2, 3});
    d.add(20, {1, 2, 4});
    d.add(30, {2, 5, 6});
    d.add(40, {});
    d.add(50, {7, 7, 7});
    d.add(60, {7});
    size_t skipped;
    std::vector<Triple> r2 = {{10, 20, 2}};
    EXPECT_EQ(run(d, 2, 100, &skipped), r2);
    std::vector<Triple> r1 = {{10, 20, 2}, {10, 30, 1}, {20, 30, 1}, {50, 60, 1}};
    EXPECT_EQ(run(d, 1, 100, &skipped), r1);
}

TEST(FeaturePairs, FeaturesInTooManyDocumentsAreSkipped) {
    Docs d;
    for (int i = 0; i < 10; i++) d.add(i, {999, 1000 + i / 2});  // 999 everywhere, pairs share 1000+
    size_t skipped = 0;
    auto got = run(d, 1, 5, &skipped);
    EXPECT_EQ(skipped, 1u);  // feature 999 is in 10 > 5 documents
    std::vector<Triple> want = {{0, 1, 1}, {2, 3, 1}, {4, 5, 1}, {6, 7, 1}, {8, 9, 1}};
    EXPECT_EQ(got, want);
    EXPECT_EQ(run(d, 1, 10, &skipped).size(), 45u);
    EXPECT_EQ(skipped, 0u);
}

TEST(FeaturePairs, RejectsBadParameters) {
    Docs d;
    d.add(1, {1});
    NddFeatureCandidateIter* it = reinterpret_cast<NddFeatureCandidateIter*>(1);
    size_t skipped;
    EXPECT_EQ(ndd_feature_candidates_begin(d.features.data(), d.offsets.data(), 1, 1, nullptr, &it, &skipped),
              NDD_INVALID_ARGUMENT);
    EXPECT_EQ(it, nullptr);
    ndd_feature_candidates_end(nullptr);
}

TEST(FeaturePairs, ResumesAcrossSmallBuffers) {
    // Buffers of any size give the same pairs: the cursor keeps its place inside a feature's run
    // of documents and between features (including skipped ones).
    std::mt19937_64 rng(31);
    Docs d;
    for (int64_t i = 0; i < 300; i++) {
        std::vector<int64_t> f;
        for (int j = 0; j < 6; j++) f.push_back(static_cast<int64_t>(rng() % 60));
        if (i < 30) f.push_back(1000);  // one feature shared by 30 documents
        d.add(i * 7 + 1, f);
    }
    size_t skipped = 0;
    auto want = brute_force(d, 2);
    for (size_t cap : {1, 2, 3, 29, 4096}) EXPECT_EQ(run(d, 2, 100000, &skipped, cap), want) << cap;
    EXPECT_EQ(skipped, 0u);
    auto capped = run(d, 1, 25, &skipped, 4096);
    EXPECT_EQ(run(d, 1, 25, &skipped, 3), capped);
    EXPECT_GE(skipped, 1u);  // feature 1000 at least
}

TEST(FeaturePairs, Cancellable) {
    Docs d;
    for (int64_t i = 0; i < 3000; i++) d.add(i, {1});
    NddFeatureCandidateIter* it = nullptr;
    size_t skipped;
    ASSERT_EQ(ndd_feature_candidates_begin(d.features.data(), d.offsets.data(), d.ids.size(), 100000,
                                           [] { return 1; }, &it, &skipped),
              NDD_OK);
    std::vector<uint64_t> buf(1u << 20);
    size_t got;
    EXPECT_EQ(ndd_feature_candidates_next(it, buf.data(), buf.size(), &got), NDD_CANCELLED);
    ndd_feature_candidates_end(it);
}
