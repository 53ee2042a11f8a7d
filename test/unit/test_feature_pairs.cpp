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

void* test_alloc(size_t size) { return std::malloc(size); }

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

std::vector<Triple> run(const Docs& d, int r, size_t max_df, size_t* skipped) {
    NddPair* pairs = nullptr;
    size_t npairs = 0;
    EXPECT_EQ(ndd_shared_feature_pairs(d.ids.data(), d.features.data(), d.offsets.data(), d.ids.size(), r,
                                max_df, nullptr, test_alloc, &pairs, &npairs, skipped),
              NDD_OK);
    std::vector<Triple> out;
    for (size_t i = 0; i < npairs; i++) out.emplace_back(pairs[i].a, pairs[i].b, pairs[i].value);
    std::free(pairs);
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
    NddPair* pairs;
    size_t npairs, skipped;
    EXPECT_EQ(ndd_shared_feature_pairs(d.ids.data(), d.features.data(), d.offsets.data(), 1, 0, 10, nullptr,
                                test_alloc, &pairs, &npairs, &skipped),
              NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_shared_feature_pairs(d.ids.data(), d.features.data(), d.offsets.data(), 1, 1, 1, nullptr,
                                test_alloc, &pairs, &npairs, &skipped),
              NDD_INVALID_ARGUMENT);
}
