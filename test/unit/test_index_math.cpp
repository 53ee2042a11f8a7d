// Unit tests of the index's pure arithmetic: permuted fingerprints, prefix balls and the page map.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "layout_api.h"

namespace {

NddLayout make(int bits, int radius, int nblocks = 0) {
    NddLayout l;
    EXPECT_EQ(ndd_layout_make(bits, radius, nblocks, &l), NDD_OK);
    return l;
}

int dist(const uint64_t a[2], const uint64_t b[2]) {
    return __builtin_popcountll(a[0] ^ b[0]) + __builtin_popcountll(a[1] ^ b[1]);
}

// Reference permutation, one bit at a time: table t's key blocks in block order, then the other
// blocks in block order. The index stores this form on disk, so it must not change silently.
void slow_permute(const NddLayout& l, int t, const uint64_t fp[2], uint64_t out[2]) {
    out[0] = out[1] = 0;
    int pos = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < l.nblocks; b++) {
            if (((l.table_blocks[t] >> b) & 1u) != (pass == 0 ? 1u : 0u)) continue;
            for (int i = 0; i < l.block_len[b]; i++, pos++) {
                int src = l.block_start[b] + i;
                uint64_t v = (fp[src / 64] >> (63 - src % 64)) & 1u;
                out[pos / 64] |= v << (63 - pos % 64);
            }
        }
}

}  // namespace

TEST(IndexMath, PermuteMatchesBitByBitReference) {
    std::mt19937_64 rng(12);
    for (int bits : {64, 128}) {
        for (int radius : {0, 1, 2, 3, 5, 8}) {
            for (int extra : {1, 2, 3}) {
                NddLayout l;
                if (ndd_layout_make(bits, radius, radius + extra, &l) != NDD_OK) continue;
                for (int rep = 0; rep < 100; rep++) {
                    uint64_t a[2] = {rng(), bits == 128 ? rng() : 0};
                    for (int t = 0; t < l.ntables; t++) {
                        uint64_t got[2], want[2];
                        ndd_layout_permute(&l, t, a, got);
                        slow_permute(l, t, a, want);
                        ASSERT_EQ(got[0], want[0]) << "bits=" << bits << " radius=" << radius << " t=" << t;
                        ASSERT_EQ(got[1], want[1]) << "bits=" << bits << " radius=" << radius << " t=" << t;
                    }
                }
            }
        }
    }
}

TEST(IndexMath, PermuteManyMatchesOneByOne) {
    std::mt19937_64 rng(13);
    for (int bits : {64, 128}) {
        for (int radius : {0, 1, 3, 5}) {
            NddLayout l;
            if (ndd_layout_make(bits, radius, radius + 2, &l) != NDD_OK) continue;
            const size_t n = 37;
            uint64_t fp[2 * n], got[2 * n];
            for (size_t i = 0; i < 2 * n; i++) fp[i] = rng();  // fp[2i + 1] set: 64 bits must ignore it
            for (int t = 0; t < l.ntables; t++) {
                NddPermutation pm;
                ndd_layout_permutation(&l, t, &pm);
                ndd_permutation_apply_n(&pm, fp, n, got);
                for (size_t i = 0; i < n; i++) {
                    uint64_t one[2];
                    ndd_permutation_apply(&pm, fp + 2 * i, one);
                    ASSERT_EQ(got[2 * i], one[0]) << "bits=" << bits << " t=" << t << " i=" << i;
                    ASSERT_EQ(got[2 * i + 1], one[1]) << "bits=" << bits << " t=" << t << " i=" << i;
                }
            }
        }
    }
}

TEST(IndexMath, PermuteKeepsDistancesAndStartsWithTheKey) {
    std::mt19937_64 rng(11);
    for (int bits : {64, 128}) {
        for (int radius : {0, 1, 3, 7}) {
            for (int extra : {1, 2}) {
                NddLayout l;
                if (ndd_layout_make(bits, radius, radius + extra, &l) != NDD_OK) continue;
                for (int rep = 0; rep < 300; rep++) {
                    uint64_t a[2] = {rng(), bits == 128 ? rng() : 0}, b[2] = {rng(), bits == 128 ? rng() : 0};
                    for (int t = 0; t < l.ntables; t++) {
                        uint64_t pa[2], pb[2], back[2];
                        ndd_layout_permute(&l, t, a, pa);
                        ndd_layout_permute(&l, t, b, pb);
                        ASSERT_EQ(dist(pa, pb), dist(a, b));
                        if (bits == 64) ASSERT_EQ(pa[1], 0u);
                        int kb = l.key_bits[t] < 64 ? l.key_bits[t] : 64;
                        ASSERT_EQ(kb == 64 ? pa[0] : pa[0] >> (64 - kb), ndd_layout_key(&l, t, a, kb));
                        ndd_layout_unpermute(&l, t, pa, back);
                        ASSERT_EQ(back[0], a[0]);
                        ASSERT_EQ(back[1], a[1]);
                    }
                }
            }
        }
    }
}

TEST(IndexMath, BallVolume) {
    EXPECT_EQ(ndd_ball_volume(16, 0), 1u);
    EXPECT_EQ(ndd_ball_volume(16, 1), 17u);
    EXPECT_EQ(ndd_ball_volume(16, 2), 137u);
    EXPECT_EQ(ndd_ball_volume(14, 14), 16384u);
    EXPECT_EQ(ndd_ball_volume(14, 40), 16384u);
    EXPECT_EQ(ndd_ball_volume(64, 64), UINT64_MAX);  // 2^64 saturates
    EXPECT_EQ(ndd_ball_volume(0, 3), 1u);
}

TEST(IndexMath, PrefixBallIsExactlyTheBall) {
    std::mt19937_64 rng(5);
    for (int width : {0, 1, 5, 12}) {
        for (int radius : {0, 1, 2, 3, 12}) {
            uint64_t center = rng() & ((1ULL << width) - 1);
            std::vector<uint64_t> out(ndd_ball_volume(width, radius));
            size_t n = 0;
            ASSERT_EQ(ndd_prefix_ball(center, width, radius, out.data(), out.size(), &n), NDD_OK);
            ASSERT_EQ(n, out.size());
            std::set<uint64_t> got(out.begin(), out.end());
            ASSERT_EQ(got.size(), n);  // distinct
            for (uint64_t v = 0; v < (1ULL << width); v++)
                ASSERT_EQ(got.count(v) == 1, __builtin_popcountll(v ^ center) <= radius);
            for (size_t i = 1; i < n; i++) ASSERT_LT(out[i - 1], out[i]);
        }
    }
    uint64_t small[4];
    size_t n = 0;
    EXPECT_EQ(ndd_prefix_ball(0, 16, 1, small, 4, &n), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_prefix_ball(0, 65, 1, small, 4, &n), NDD_INVALID_ARGUMENT);
}

TEST(IndexMath, PrefixShellIsExactlyTheSphere) {
    std::mt19937_64 rng(6);
    for (int width : {0, 1, 5, 12}) {
        for (int radius : {0, 1, 2, 3, 12}) {
            uint64_t center = rng() & ((1ULL << width) - 1);
            std::vector<uint64_t> out(ndd_shell_volume(width, radius) + 1);
            size_t n = 0;
            ASSERT_EQ(ndd_prefix_shell(center, width, radius, out.data(), out.size(), &n), NDD_OK);
            ASSERT_EQ(n, ndd_shell_volume(width, radius));
            std::set<uint64_t> got(out.begin(), out.begin() + n);
            ASSERT_EQ(got.size(), n);
            for (uint64_t v = 0; v < (1ULL << width); v++)
                ASSERT_EQ(got.count(v) == 1, __builtin_popcountll(v ^ center) == radius);
            for (size_t i = 1; i < n; i++) ASSERT_LT(out[i - 1], out[i]);
            // the shells up to r make the ball
            uint64_t sum = 0;
            for (int r = 0; r <= radius; r++) sum += ndd_shell_volume(width, r);
            ASSERT_EQ(sum, ndd_ball_volume(width, radius));
        }
    }
    uint64_t small[4];
    size_t n = 0;
    EXPECT_EQ(ndd_prefix_shell(0, 16, 2, small, 4, &n), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_prefix_shell(0, 65, 1, small, 4, &n), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_shell_volume(16, 17), 0u);
}

TEST(IndexMath, PageMapCoversTheSpaceInOrder) {
    std::mt19937_64 rng(9);
    for (uint32_t np : {1u, 2u, 3u, 7u, 1000u, 16340u, 65536u, 4000000u}) {
        int db = ndd_page_delta_bits(np);
        EXPECT_EQ(ndd_page_of(0, np), 0u);
        EXPECT_EQ(ndd_page_of(UINT64_MAX, np), np - 1);
        for (uint32_t p = 0; p < np && p < 2000; p++) {
            uint64_t lo = ndd_page_low(p, np);
            ASSERT_EQ(ndd_page_of(lo, np), p);
            if (lo > 0) ASSERT_EQ(ndd_page_of(lo - 1, np), p - 1);
        }
        for (int rep = 0; rep < 10000; rep++) {
            uint64_t h = rng();
            uint32_t p = ndd_page_of(h, np);
            uint64_t delta = h - ndd_page_low(p, np);
            if (db < 64) ASSERT_LT(delta, 1ULL << db);
        }
        // the widest page needs all db bits: the delta bound is tight to one bit
        if (np > 1) EXPECT_GE(ndd_page_low(1, np) - 1, db > 1 ? (1ULL << (db - 1)) : 0);
    }
    EXPECT_EQ(ndd_page_delta_bits(1), 64);
    EXPECT_EQ(ndd_page_delta_bits(16384), 50);
    EXPECT_EQ(ndd_page_delta_bits(16340), 51);
}

// The build's batch sort: by bucket, and stable (a bucket's entries in their input order), which is
// what keeps the build's pages independent of how its rows were batched; against std::stable_sort.
TEST(IndexMath, BuildEntriesSortIsAStableSortByBucket) {
    std::mt19937_64 rng(30);
    for (int bucket_bits : {0, 1, 5, 11, 14, 18, 32}) {
        for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{5000}}) {
            std::vector<NddBuildEntry> a(n), tmp(n);
            for (size_t i = 0; i < n; i++) {
                a[i] = NddBuildEntry{};
                a[i].perm[0] = rng();
                a[i].bucket = bucket_bits == 0 ? 0 : static_cast<uint32_t>(rng() >> (64 - bucket_bits));
                a[i].block = static_cast<uint32_t>(i);  // the input order, to check stability
                a[i].offset = static_cast<uint16_t>(i);
            }
            std::vector<NddBuildEntry> want = a;
            std::stable_sort(want.begin(), want.end(),
                             [](const NddBuildEntry& x, const NddBuildEntry& y) { return x.bucket < y.bucket; });
            NddBuildEntry* sorted = nullptr;
            ASSERT_EQ(ndd_build_entries_sort(a.data(), tmp.data(), n, bucket_bits, &sorted, nullptr), NDD_OK);
            for (size_t i = 0; i < n; i++) {
                ASSERT_EQ(sorted[i].bucket, want[i].bucket) << "bits=" << bucket_bits << " i=" << i;
                ASSERT_EQ(sorted[i].block, want[i].block) << "bits=" << bucket_bits << " i=" << i;
                ASSERT_EQ(sorted[i].perm[0], want[i].perm[0]);
            }
        }
    }
    NddBuildEntry one{}, scratch{}, *out = nullptr;
    EXPECT_EQ(ndd_build_entries_sort(&one, &scratch, 1, 33, &out, nullptr), NDD_INVALID_ARGUMENT);
}
