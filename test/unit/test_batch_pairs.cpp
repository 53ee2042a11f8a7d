// Unit tests of the batch all-pairs mode: every pair within k bits, each once, exactly as a
// brute-force comparison of all pairs finds them, for both fingerprint widths.
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

// Fingerprints of `words` words: random ones, plus near copies of earlier ones with 0..maxflip
// flipped bits, plus (when clustered) values that agree on all but their low 12 bits so that
// runs of equal keys get long.
std::vector<uint64_t> make_fps(std::mt19937_64& rng, size_t n, int words, int maxflip, bool clustered) {
    std::vector<uint64_t> fps(n * words);
    int bits = 64 * words;
    for (size_t i = 0; i < n; i++) {
        uint64_t* f = &fps[i * words];
        int kind = static_cast<int>(rng() % 3);
        if (i > 0 && kind == 0) {
            const uint64_t* src = &fps[(rng() % i) * words];
            for (int w = 0; w < words; w++) f[w] = src[w];
            int flips = static_cast<int>(rng() % (maxflip + 1));
            for (int k = 0; k < flips; k++) {
                int pos = static_cast<int>(rng() % bits);
                f[pos / 64] ^= 1ULL << (63 - pos % 64);
            }
        } else if (clustered && kind == 1) {
            for (int w = 0; w < words; w++) f[w] = 0x5555555555555555ULL;
            f[words - 1] ^= rng() & 0xfff;
        } else {
            for (int w = 0; w < words; w++) f[w] = rng();
        }
    }
    return fps;
}

std::vector<Triple> brute_force(const std::vector<int64_t>& ids, const std::vector<uint64_t>& fps,
                                int words, int k) {
    std::vector<Triple> out;
    size_t n = ids.size();
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            int d = 0;
            for (int w = 0; w < words; w++) d += __builtin_popcountll(fps[i * words + w] ^ fps[j * words + w]);
            if (d <= k) out.emplace_back(std::min(ids[i], ids[j]), std::max(ids[i], ids[j]), d);
        }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Triple> batch(const std::vector<int64_t>& ids, const std::vector<uint64_t>& fps, int words,
                          int k, int nblocks) {
    NddPair* pairs = nullptr;
    size_t npairs = 0;
    NddStatus st = ndd_hamming_pairs(64 * words, ids.data(), fps.data(), ids.size(), k, nblocks,
                                     nullptr, test_alloc, &pairs, &npairs);
    EXPECT_EQ(st, NDD_OK);
    std::vector<Triple> out;
    for (size_t i = 0; i < npairs; i++) {
        EXPECT_LT(pairs[i].a, pairs[i].b);
        if (i > 0) {  // sorted by (a, b)
            bool sorted = pairs[i - 1].a < pairs[i].a ||
                          (pairs[i - 1].a == pairs[i].a && pairs[i - 1].b <= pairs[i].b);
            EXPECT_TRUE(sorted);
        }
        out.emplace_back(pairs[i].a, pairs[i].b, pairs[i].value);
    }
    std::free(pairs);
    return out;
}

// Shuffled, sparse ids so that pairs are reported by id, not by position.
std::vector<int64_t> make_ids(std::mt19937_64& rng, size_t n) {
    std::vector<int64_t> ids(n);
    for (size_t i = 0; i < n; i++) ids[i] = static_cast<int64_t>(i) * 7 - 1000;
    std::shuffle(ids.begin(), ids.end(), rng);
    return ids;
}

int cancel_now() { return 1; }

}  // namespace

TEST(BatchPairs, EqualsBruteForce64) {
    std::mt19937_64 rng(11);
    for (bool clustered : {false, true}) {
        for (int k : {0, 1, 2, 3, 4, 6}) {
            size_t n = 1500;
            auto ids = make_ids(rng, n);
            auto fps = make_fps(rng, n, 1, k + 2, clustered);
            auto truth = brute_force(ids, fps, 1, k);
            EXPECT_FALSE(truth.empty());
            for (int nb : {0, k + 1, k + 2}) {
                ASSERT_EQ(batch(ids, fps, 1, k, nb), truth) << "k=" << k << " nblocks=" << nb
                                                            << " clustered=" << clustered;
            }
        }
    }
}

TEST(BatchPairs, EqualsBruteForce128) {
    std::mt19937_64 rng(12);
    for (bool clustered : {false, true}) {
        for (int k : {0, 1, 3, 6, 18}) {
            size_t n = 1200;
            auto ids = make_ids(rng, n);
            auto fps = make_fps(rng, n, 2, k + 3, clustered);
            auto truth = brute_force(ids, fps, 2, k);
            EXPECT_FALSE(truth.empty());
            for (int nb : {0, k + 1}) {
                ASSERT_EQ(batch(ids, fps, 2, k, nb), truth) << "k=" << k << " nblocks=" << nb
                                                            << " clustered=" << clustered;
            }
        }
    }
}

TEST(BatchPairs, LargeRadiusStillExact) {
    std::mt19937_64 rng(13);
    auto ids = make_ids(rng, 600);
    auto fps = make_fps(rng, 600, 1, 20, false);
    for (int k : {10, 20, 31}) ASSERT_EQ(batch(ids, fps, 1, k, 0), brute_force(ids, fps, 1, k)) << k;
}

TEST(BatchPairs, ExactDuplicatesAndEqualIds) {
    std::vector<int64_t> ids = {5, 3, 9, 3};
    std::vector<uint64_t> fps = {42, 42, 43, 42};
    // ids 3 and 3 are the same document twice: never paired with itself.
    auto got = batch(ids, fps, 1, 1, 0);
    std::vector<Triple> want = {{3, 5, 0}, {3, 5, 0}, {3, 9, 1}, {3, 9, 1}, {5, 9, 1}};
    EXPECT_EQ(got, want);
    int found = 0;
    int64_t dup = 0;
    EXPECT_EQ(ndd_find_duplicate_id(ids.data(), ids.size(), &found, &dup), NDD_OK);
    EXPECT_EQ(found, 1);
    EXPECT_EQ(dup, 3);
    ids[3] = 4;
    EXPECT_EQ(ndd_find_duplicate_id(ids.data(), ids.size(), &found, &dup), NDD_OK);
    EXPECT_EQ(found, 0);
}

TEST(BatchPairs, EmptyAndSingleInput) {
    NddPair* pairs = reinterpret_cast<NddPair*>(1);
    size_t npairs = 7;
    EXPECT_EQ(ndd_hamming_pairs(64, nullptr, nullptr, 0, 3, 0, nullptr, test_alloc, &pairs, &npairs), NDD_OK);
    EXPECT_EQ(npairs, 0u);
    EXPECT_EQ(pairs, nullptr);
    int64_t id = 1;
    uint64_t fp = 0;
    EXPECT_EQ(ndd_hamming_pairs(64, &id, &fp, 1, 3, 0, nullptr, test_alloc, &pairs, &npairs), NDD_OK);
    EXPECT_EQ(npairs, 0u);
}

TEST(BatchPairs, RejectsBadParameters) {
    NddPair* pairs;
    size_t npairs;
    int64_t id = 1;
    uint64_t fp[2] = {0, 0};
    EXPECT_EQ(ndd_hamming_pairs(32, &id, fp, 1, 3, 0, nullptr, test_alloc, &pairs, &npairs), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs(64, &id, fp, 1, -1, 0, nullptr, test_alloc, &pairs, &npairs), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs(64, &id, fp, 1, 32, 0, nullptr, test_alloc, &pairs, &npairs), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs(64, &id, fp, 1, 3, 3, nullptr, test_alloc, &pairs, &npairs), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs(64, &id, fp, 1, 5, 10, nullptr, test_alloc, &pairs, &npairs), NDD_INVALID_ARGUMENT);
}

TEST(BatchPairs, Cancellable) {
    std::mt19937_64 rng(14);
    auto ids = make_ids(rng, 200000);
    auto fps = make_fps(rng, 200000, 1, 3, false);
    NddPair* pairs;
    size_t npairs;
    EXPECT_EQ(ndd_hamming_pairs(64, ids.data(), fps.data(), ids.size(), 3, 0, cancel_now, test_alloc,
                                &pairs, &npairs),
              NDD_CANCELLED);
}

TEST(BatchPairs, AutoBlocksGrowWithTheCollection) {
    // Few rows: the fewest tables (k + 1 blocks); many rows: longer keys pay for more tables.
    EXPECT_EQ(ndd_batch_auto_blocks(64, 3, 1000), 4);
    EXPECT_GE(ndd_batch_auto_blocks(64, 3, 10000000), 5);
    EXPECT_EQ(ndd_batch_auto_blocks(128, 18, 1000000), 19);  // C(20, 18) tables would be too many
    EXPECT_EQ(ndd_batch_auto_blocks(64, 32, 10), 0);
}
