// Unit tests of the permuted-block table layout: block sizes, table keys, and the pigeonhole
// guarantee checked against brute force.
#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "layout_api.h"

namespace {

NddLayout make(int bits, int radius, int nblocks = 0) {
    NddLayout l;
    EXPECT_EQ(ndd_layout_make(bits, radius, nblocks, &l), NDD_OK);
    return l;
}

// Reference: bit i (0 = most significant of word 0) of a fingerprint.
int bit(const uint64_t fp[2], int i) { return static_cast<int>((fp[i / 64] >> (63 - i % 64)) & 1); }

// Reference key: the table's blocks' bits, concatenated one bit at a time.
uint64_t slow_key(const NddLayout& l, int t, const uint64_t fp[2], int nbits) {
    uint64_t key = 0;
    int have = 0;
    for (int b = 0; b < l.nblocks; b++) {
        if (!(l.table_blocks[t] & (1u << b))) continue;
        for (int i = 0; i < l.block_len[b] && have < nbits; i++, have++)
            key = (key << 1) | static_cast<uint64_t>(bit(fp, l.block_start[b] + i));
    }
    return key;
}

int popcount_key(uint64_t x) { return __builtin_popcountll(x); }

}  // namespace

TEST(MankuLayout, MankuExampleFiveBlocksTenTables) {
    // The article's example: k = 3, 5 blocks of 13,13,13,13,12 bits, C(5,2) = 10 tables.
    NddLayout l = make(64, 3, 5);
    EXPECT_EQ(l.ntables, 10);
    int sizes[] = {13, 13, 13, 13, 12};
    for (int b = 0; b < 5; b++) EXPECT_EQ(l.block_len[b], sizes[b]);
    EXPECT_EQ(l.block_start[4], 52);
    for (int t = 0; t < 10; t++) {
        EXPECT_EQ(__builtin_popcount(l.table_blocks[t]), 2);
        EXPECT_TRUE(l.key_bits[t] == 25 || l.key_bits[t] == 26);
    }
    EXPECT_EQ(l.table_blocks[0], 0b00011u);  // lexicographic: {0,1} first, {3,4} last
    EXPECT_EQ(l.table_blocks[9], 0b11000u);
}

TEST(MankuLayout, DefaultIsOneBlockPerTable) {
    NddLayout l = make(64, 3);
    EXPECT_EQ(l.nblocks, 4);
    EXPECT_EQ(l.ntables, 4);
    for (int t = 0; t < 4; t++) EXPECT_EQ(l.key_bits[t], 16);
    NddLayout w = make(128, 18);
    EXPECT_EQ(w.ntables, 19);
    int total = 0;
    for (int b = 0; b < w.nblocks; b++) total += w.block_len[b];
    EXPECT_EQ(total, 128);
}

TEST(MankuLayout, RejectsBadParameters) {
    NddLayout l;
    EXPECT_EQ(ndd_layout_make(32, 3, 0, &l), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_layout_make(64, -1, 0, &l), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_layout_make(64, 3, 3, &l), NDD_INVALID_ARGUMENT);    // nblocks <= radius
    EXPECT_EQ(ndd_layout_make(64, 40, 0, &l), NDD_INVALID_ARGUMENT);   // more than 32 blocks
    EXPECT_EQ(ndd_layout_make(64, 5, 10, &l), NDD_INVALID_ARGUMENT);   // C(10,5) = 252 tables
    EXPECT_EQ(ndd_layout_make(64, 0, 1, &l), NDD_OK);                  // k = 0: one exact table
    EXPECT_EQ(l.ntables, 1);
}

TEST(MankuLayout, CheckSaysWhyAndAgreesWithMake) {
    EXPECT_EQ(ndd_layout_check(32, 3, 0), NDD_LAYOUT_BAD_BITS);
    EXPECT_EQ(ndd_layout_check(64, -1, 0), NDD_LAYOUT_BAD_RADIUS);
    EXPECT_EQ(ndd_layout_check(64, 3, 3), NDD_LAYOUT_TOO_FEW_BLOCKS);
    EXPECT_EQ(ndd_layout_check(64, 40, 0), NDD_LAYOUT_TOO_MANY_BLOCKS);
    EXPECT_EQ(ndd_layout_check(64, 5, 10), NDD_LAYOUT_TOO_MANY_TABLES);
    EXPECT_EQ(ndd_layout_check(0, 6, 12), NDD_LAYOUT_TOO_MANY_TABLES);  // either width
    EXPECT_EQ(ndd_layout_check(0, 3, 5), NDD_LAYOUT_OK);
    // every combination: check and make agree, and a made layout has C(nblocks, radius) tables
    for (int bits : {64, 128})
        for (int radius = -1; radius <= 40; radius++)
            for (int nblocks = 0; nblocks <= 40; nblocks++) {
                NddLayout l;
                NddStatus st = ndd_layout_make(bits, radius, nblocks, &l);
                int why = ndd_layout_check(bits, radius, nblocks);
                ASSERT_EQ(st == NDD_OK, why == NDD_LAYOUT_OK) << bits << " " << radius << " " << nblocks;
                if (st == NDD_OK) {
                    EXPECT_EQ(static_cast<uint64_t>(l.ntables), ndd_layout_tables(l.nblocks, radius));
                }
            }
}

TEST(MankuLayout, TablesAreBinomialsAndSaturate) {
    EXPECT_EQ(ndd_layout_tables(5, 3), 10u);
    EXPECT_EQ(ndd_layout_tables(12, 6), 924u);
    EXPECT_EQ(ndd_layout_tables(32, 16), 601080390u);
    EXPECT_EQ(ndd_layout_tables(4, 5), 0u);
    EXPECT_EQ(ndd_layout_tables(100, 50), UINT64_MAX);
    EXPECT_EQ(ndd_layout_tables(60, 30), 118264581564861424u);
}

TEST(MankuLayout, KeysMatchBitByBitReference) {
    std::mt19937_64 rng(42);
    for (int bits : {64, 128}) {
        for (int radius : {0, 1, 3, 6}) {
            for (int extra : {1, 2}) {
                NddLayout l;
                if (ndd_layout_make(bits, radius, radius + extra, &l) != NDD_OK) continue;
                for (int rep = 0; rep < 200; rep++) {
                    uint64_t fp[2] = {rng(), bits == 128 ? rng() : 0};
                    for (int t = 0; t < l.ntables; t++)
                        for (int nbits : {1, 7, 16, 33, 64})
                            ASSERT_EQ(ndd_layout_key(&l, t, fp, nbits),
                                      slow_key(l, t, fp, nbits < l.key_bits[t] ? nbits : l.key_bits[t]))
                                << "bits=" << bits << " radius=" << radius << " t=" << t;
                }
            }
        }
    }
}

// The permutation computed once (what the build uses) permutes as ndd_layout_permute does, for
// every table of 64- and 128-bit layouts, k = 0 (a 128-bit block cut in two) included; on 64 bits
// whatever fp[1] holds is ignored.
TEST(MankuLayout, PrecomputedPermutationEqualsPermute) {
    std::mt19937_64 rng(11);
    for (int bits : {64, 128}) {
        for (int radius : {0, 1, 3, 6}) {
            for (int extra : {1, 2}) {
                NddLayout l;
                if (ndd_layout_make(bits, radius, radius + extra, &l) != NDD_OK) continue;
                for (int t = 0; t < l.ntables; t++) {
                    NddPermutation pm;
                    ndd_layout_permutation(&l, t, &pm);
                    for (int rep = 0; rep < 200; rep++) {
                        uint64_t fp[2] = {rng(), rng()}, clean[2] = {fp[0], bits == 128 ? fp[1] : 0};
                        uint64_t want[2], got[2];
                        ndd_layout_permute(&l, t, clean, want);
                        ndd_permutation_apply(&pm, fp, got);
                        ASSERT_EQ(got[0], want[0]) << "bits=" << bits << " radius=" << radius << " t=" << t;
                        ASSERT_EQ(got[1], want[1]) << "bits=" << bits << " radius=" << radius << " t=" << t;
                    }
                }
            }
        }
    }
}

TEST(MankuLayout, PigeonholeEveryNearPairSharesAFullKey) {
    // Flip up to `radius` random bits: some table's full key (up to 64 bits) must be equal.
    std::mt19937_64 rng(7);
    for (int bits : {64, 128}) {
        for (int radius = 0; radius <= 6; radius++) {
            for (int extra : {1, 2}) {
                NddLayout l;
                if (ndd_layout_make(bits, radius, radius + extra, &l) != NDD_OK) continue;
                for (int rep = 0; rep < 2000; rep++) {
                    uint64_t a[2] = {rng(), bits == 128 ? rng() : 0}, b[2] = {a[0], a[1]};
                    int flips = static_cast<int>(rng() % (radius + 1));
                    for (int f = 0; f < flips; f++) {
                        int pos = static_cast<int>(rng() % bits);
                        b[pos / 64] ^= 1ULL << (63 - pos % 64);
                    }
                    bool shared = false;
                    for (int t = 0; t < l.ntables && !shared; t++)
                        shared = ndd_layout_key(&l, t, a, 64) == ndd_layout_key(&l, t, b, 64);
                    ASSERT_TRUE(shared) << "bits=" << bits << " radius=" << radius;
                }
            }
        }
    }
}

TEST(MankuLayout, KeyRadiusBoundsBeyondTheLayout) {
    NddLayout l = make(64, 3);  // 4 blocks of 16, one block per table
    EXPECT_EQ(ndd_layout_key_radius(&l, 3), 0);
    EXPECT_EQ(ndd_layout_key_radius(&l, 4), 1);
    EXPECT_EQ(ndd_layout_key_radius(&l, 7), 1);
    EXPECT_EQ(ndd_layout_key_radius(&l, 8), 2);
    NddLayout m = make(64, 3, 5);  // keys of 2 blocks out of 5
    EXPECT_EQ(ndd_layout_key_radius(&m, 3), 0);
    EXPECT_EQ(ndd_layout_key_radius(&m, 4), 1);
    EXPECT_EQ(ndd_layout_key_radius(&m, 5), 2);

    // The bound holds and is tight against random pairs: some table's key differs in at most e bits.
    std::mt19937_64 rng(3);
    for (int k = 4; k <= 12; k++) {
        int e = ndd_layout_key_radius(&m, k);
        for (int rep = 0; rep < 2000; rep++) {
            uint64_t a[2] = {rng(), 0}, b[2] = {a[0], 0};
            for (int f = 0; f < k; f++) b[0] ^= 1ULL << (rng() % 64);
            int best = 64;
            for (int t = 0; t < m.ntables; t++) {
                int d = popcount_key(ndd_layout_key(&m, t, a, 64) ^ ndd_layout_key(&m, t, b, 64));
                if (d < best) best = d;
            }
            ASSERT_LE(best, e) << "k=" << k;
        }
    }
}

// Multi-index hashing's rule: any pair within the proven radius of probe radii e shares, in some
// table t, a key within e[t] bits; and for single-block keys the bound is tight (a pair one bit
// further, spread e[t] + 1 bits per block, escapes every probe).
TEST(MankuLayout, ProvenRadiusHoldsAndIsTight) {
    std::mt19937_64 rng(11);
    for (auto [bits, k, blocks] : {std::tuple{64, 3, 0}, std::tuple{128, 7, 0}, std::tuple{64, 3, 5},
                                   std::tuple{64, 4, 0}}) {
        NddLayout l = make(bits, k, blocks);
        for (int rep = 0; rep < 300; rep++) {
            int e[NDD_LAYOUT_MAX_TABLES];
            for (int t = 0; t < l.ntables; t++) e[t] = static_cast<int>(rng() % 7) - 1;
            int r = ndd_layout_proven_radius(&l, e);
            ASSERT_GE(r, -1);
            ASSERT_LT(r, bits);
            for (int pair = 0; pair < 20 && r >= 0; pair++) {
                uint64_t a[2] = {rng(), bits == 128 ? rng() : 0}, b[2] = {a[0], a[1]};
                int flips = static_cast<int>(rng() % (r + 1));
                for (int f = 0; f < flips; f++) {
                    int bit = static_cast<int>(rng() % bits);
                    b[bit / 64] ^= 1ULL << (bit % 64);
                }
                bool found = false;
                for (int t = 0; t < l.ntables && !found; t++) {
                    int d = popcount_key(ndd_layout_key(&l, t, a, 64) ^ ndd_layout_key(&l, t, b, 64));
                    if (l.key_bits[t] > 64) {
                        uint64_t ua[2], ub[2];
                        ndd_layout_permute(&l, t, a, ua);
                        ndd_layout_permute(&l, t, b, ub);
                        d = popcount_key(ua[0] ^ ub[0]) +
                            popcount_key((ua[1] ^ ub[1]) >> (128 - l.key_bits[t]));
                    }
                    found = d <= e[t];
                }
                ASSERT_TRUE(found) << "bits=" << bits << " r=" << r;
            }
            if (l.nblocks - l.radius == 1) {
                // the escaping pair: e[t] + 1 flips in block t (0 for tables not probed)
                uint64_t a[2] = {0, 0}, b[2] = {0, 0};
                int dist = 0;
                for (int t = 0; t < l.ntables; t++) {
                    int b0 = -1;
                    for (int bl = 0; bl < l.nblocks; bl++)
                        if (l.table_blocks[t] & (1u << bl)) b0 = bl;
                    for (int f = 0; f < e[t] + 1; f++) {
                        int bit = l.block_start[b0] + f;
                        b[bit / 64] |= 1ULL << (63 - bit % 64);
                        dist++;
                    }
                }
                ASSERT_EQ(dist, r + 1);
                for (int t = 0; t < l.ntables; t++)
                    ASSERT_GT(popcount_key(ndd_layout_key(&l, t, a, 64) ^ ndd_layout_key(&l, t, b, 64)), e[t]);
            }
        }
        // the split reaches every radius, never probing more than the uniform bound
        for (int r = 0; r < bits; r++) {
            int lo, extra, e[NDD_LAYOUT_MAX_TABLES];
            ndd_layout_radius_split(&l, r, &lo, &extra);
            ASSERT_LE(lo + (extra > 0), ndd_layout_key_radius(&l, r)) << "r=" << r;
            for (int t = 0; t < l.ntables; t++) e[t] = lo + (t < extra ? 1 : 0);
            ASSERT_GE(ndd_layout_proven_radius(&l, e), r) << "r=" << r;
        }
    }
    NddLayout l = make(64, 3);
    int e16[4] = {4, 3, 3, 3}, none[4] = {-1, -1, -1, -1}, full[4] = {16, -1, -1, -1};
    EXPECT_EQ(ndd_layout_proven_radius(&l, e16), 16);
    EXPECT_EQ(ndd_layout_proven_radius(&l, none), -1);
    EXPECT_EQ(ndd_layout_proven_radius(&l, full), 64);
}
