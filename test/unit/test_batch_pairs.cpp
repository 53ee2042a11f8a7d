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

// Runs the streaming iterator to its end with a buffer of `cap` pairs, sorted by (a, b).
std::vector<Triple> batch(const std::vector<int64_t>& ids, const std::vector<uint64_t>& fps, int words,
                          int k, int nblocks, size_t cap = 4096) {
    NddHammingPairIter* it = nullptr;
    EXPECT_EQ(ndd_hamming_pairs_begin(64 * words, ids.data(), fps.data(), ids.size(), k, nblocks, nullptr, &it),
              NDD_OK);
    std::vector<Triple> out;
    std::vector<NddPair> buf(cap);
    for (;;) {
        size_t got = 0;
        EXPECT_EQ(ndd_hamming_pairs_next(it, buf.data(), cap, &got), NDD_OK);
        EXPECT_LE(got, cap);
        if (got == 0) break;
        for (size_t i = 0; i < got; i++) {
            EXPECT_LT(buf[i].a, buf[i].b);
            out.emplace_back(buf[i].a, buf[i].b, buf[i].value);
        }
    }
    ndd_hamming_pairs_end(it);
    std::sort(out.begin(), out.end());
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
    std::vector<int64_t> none;
    std::vector<uint64_t> none_fp;
    EXPECT_TRUE(batch(none, none_fp, 1, 3, 0).empty());
    EXPECT_TRUE(batch({1}, {0}, 1, 3, 0).empty());
}

TEST(BatchPairs, ResumesAcrossSmallBuffers) {
    // Every buffer size gives the same pairs, each once: the iterator keeps its place inside a
    // run, between runs and between tables. 40 equal fingerprints make one long run per table;
    // the random ones add short runs and pairs found by later tables only.
    std::mt19937_64 rng(21);
    auto ids = make_ids(rng, 400);
    auto fps = make_fps(rng, 400, 1, 4, true);
    for (size_t i = 0; i < 40; i++) fps[i] = 0x0123456789abcdefULL;
    auto want = brute_force(ids, fps, 1, 4);
    for (size_t cap : {1, 2, 3, 7, 64, 1000, 100000}) EXPECT_EQ(batch(ids, fps, 1, 4, 0, cap), want) << cap;
    auto fps2 = make_fps(rng, 400, 2, 5, true);
    auto want2 = brute_force(ids, fps2, 2, 5);
    for (size_t cap : {1, 5, 4096}) EXPECT_EQ(batch(ids, fps2, 2, 5, 0, cap), want2) << cap;
}

TEST(BatchPairs, RejectsBadParameters) {
    NddHammingPairIter* it = reinterpret_cast<NddHammingPairIter*>(1);
    int64_t id = 1;
    uint64_t fp[2] = {0, 0};
    EXPECT_EQ(ndd_hamming_pairs_begin(32, &id, fp, 1, 3, 0, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(it, nullptr);
    EXPECT_EQ(ndd_hamming_pairs_begin(64, &id, fp, 1, -1, 0, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs_begin(64, &id, fp, 1, 32, 0, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs_begin(64, &id, fp, 1, 3, 3, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs_begin(64, &id, fp, 1, 5, 10, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs_begin(64, &id, fp, 1, 3, 0, nullptr, &it), NDD_OK);
    NddPair p;
    size_t got = 7;
    EXPECT_EQ(ndd_hamming_pairs_next(it, &p, 0, &got), NDD_INVALID_ARGUMENT);  // no room
    EXPECT_EQ(got, 0u);
    ndd_hamming_pairs_end(it);
    ndd_hamming_pairs_end(nullptr);
}

TEST(BatchPairs, Cancellable) {
    std::mt19937_64 rng(14);
    auto ids = make_ids(rng, 200000);
    auto fps = make_fps(rng, 200000, 1, 3, false);
    NddHammingPairIter* it = nullptr;
    ASSERT_EQ(ndd_hamming_pairs_begin(64, ids.data(), fps.data(), ids.size(), 3, 0, cancel_now, &it), NDD_OK);
    std::vector<NddPair> buf(4096);
    size_t got;
    EXPECT_EQ(ndd_hamming_pairs_next(it, buf.data(), buf.size(), &got), NDD_CANCELLED);
    ndd_hamming_pairs_end(it);
}

TEST(BatchPairs, MemoryIsTheTwoEntryArrays) {
    EXPECT_EQ(ndd_hamming_pairs_memory(64, 1000), 2 * 1000 * 12u);
    EXPECT_EQ(ndd_hamming_pairs_memory(128, 1000), 2 * 1000 * 20u);
}

TEST(BatchPairs, AutoBlocksGrowWithTheCollection) {
    // Few rows: the fewest tables (k + 1 blocks); many rows: longer keys pay for more tables.
    EXPECT_EQ(ndd_batch_auto_blocks(64, 3, 1000), 4);
    EXPECT_GE(ndd_batch_auto_blocks(64, 3, 10000000), 5);
    EXPECT_EQ(ndd_batch_auto_blocks(128, 18, 1000000), 19);  // C(20, 18) tables would be too many
    EXPECT_EQ(ndd_batch_auto_blocks(64, 32, 10), 0);
}

namespace {

// Runs ndd_hamming_pairs_begin_part to its end, sorted; pairs kept as reported (a, b, d).
std::vector<Triple> batch_part(const std::vector<int64_t>& ids, const std::vector<uint64_t>& fps, int words,
                               size_t n_new, int k, int nblocks, int table) {
    NddHammingPairIter* it = nullptr;
    EXPECT_EQ(ndd_hamming_pairs_begin_part(64 * words, ids.data(), fps.data(), ids.size(), n_new, k, nblocks,
                                           table, nullptr, &it),
              NDD_OK);
    std::vector<Triple> out;
    std::vector<NddPair> buf(7);  // small: the loop resumes mid-run
    for (;;) {
        size_t got = 0;
        EXPECT_EQ(ndd_hamming_pairs_next(it, buf.data(), buf.size(), &got), NDD_OK);
        if (got == 0) break;
        for (size_t i = 0; i < got; i++) out.emplace_back(buf[i].a, buf[i].b, buf[i].value);
    }
    ndd_hamming_pairs_end(it);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

// The tables of one layout run apart (as a distributed job runs them) give every pair once, exactly
// the one-call answer. (Grouping each table's rows by key part is checked in SQL:
// test/sql/workflows_two_sets.sql.)
TEST(BatchPairs, TablesApartEqualTheWhole) {
    std::mt19937_64 rng(23);
    for (int words : {1, 2}) {
        for (int k : {0, 2, 3, 5}) {
            size_t n = 1200;
            auto ids = make_ids(rng, n);
            auto fps = make_fps(rng, n, words, k + 2, true);
            auto truth = brute_force(ids, fps, words, k);
            int nb = k + 2;
            int ntables = 0;
            std::vector<Triple> all;
            for (int t = 0;; t++) {
                NddHammingPairIter* it = nullptr;
                if (ndd_hamming_pairs_begin_part(64 * words, ids.data(), fps.data(), n, 0, k, nb, t, nullptr,
                                                 &it) != NDD_OK)
                    break;
                ndd_hamming_pairs_end(it);
                auto part = batch_part(ids, fps, words, 0, k, nb, t);
                all.insert(all.end(), part.begin(), part.end());
                ntables++;
            }
            EXPECT_EQ(ntables, (k + 2) * (k + 1) / 2);  // C(k + 2, k) tables
            std::sort(all.begin(), all.end());
            EXPECT_EQ(all, truth) << "words=" << words << " k=" << k;
        }
    }
}

// Two sets: exactly the (new, stored) pairs within k of a brute-force comparison, a = the new id,
// equal ids across the sets included; for the whole layout and table by table.
TEST(BatchPairs, TwoSetsEqualBruteForce) {
    std::mt19937_64 rng(29);
    for (int words : {1, 2}) {
        for (int k : {0, 3, 4}) {
            size_t n = 1500, n_new = 300;
            auto ids = make_ids(rng, n);
            ids[0] = ids[n - 1];  // one id in both sets: two rows, still a pair if close
            auto fps = make_fps(rng, n, words, k + 2, true);
            for (int w = 0; w < words; w++) fps[w] = fps[(n - 1) * words + w];
            std::vector<Triple> truth;
            for (size_t i = 0; i < n_new; i++)
                for (size_t j = n_new; j < n; j++) {
                    int d = 0;
                    for (int w = 0; w < words; w++)
                        d += __builtin_popcountll(fps[i * words + w] ^ fps[j * words + w]);
                    if (d <= k) truth.emplace_back(ids[i], ids[j], d);
                }
            std::sort(truth.begin(), truth.end());
            ASSERT_FALSE(truth.empty());
            EXPECT_EQ(batch_part(ids, fps, words, n_new, k, 0, -1), truth) << "words=" << words << " k=" << k;
            std::vector<Triple> all;
            for (int t = 0; t < k + 1; t++) {
                auto part = batch_part(ids, fps, words, n_new, k, k + 1, t);
                all.insert(all.end(), part.begin(), part.end());
            }
            std::sort(all.begin(), all.end());
            EXPECT_EQ(all, truth) << "tables apart, words=" << words << " k=" << k;
        }
    }
}

TEST(BatchPairs, PartRejectsBadParameters) {
    int64_t id = 1;
    uint64_t fp[2] = {0, 0};
    NddHammingPairIter* it = nullptr;
    EXPECT_EQ(ndd_hamming_pairs_begin_part(64, &id, fp, 1, 0, 3, 0, 0, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs_begin_part(64, &id, fp, 1, 0, 3, 4, 4, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs_begin_part(64, &id, fp, 1, 0, 3, 4, -2, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_hamming_pairs_begin_part(64, &id, fp, 1, 2, 3, 4, 0, nullptr, &it), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(it, nullptr);
}
