// test_jaccard_pairs.cpp
//    The exact all-pairs core against brute force: the banding is the optimum of its criterion, and
//    every pair the job reports (and only those) has the measure similarity.hpp computes from the
//    shingle strings, on generated near-duplicates and on hand-made edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "jaccard_pairs.hpp"
#include "minhash.hpp"
#include "similarity.hpp"
#include "tokenize.hpp"

namespace {

using Triple = std::tuple<int64_t, int64_t, double>;

// Every result of a job over docs (ids 10, 11, ...), handed out in batches of `batch`.
std::vector<Triple> run_job(const std::vector<std::string>& docs, int measure, double t, int shingle, int hashes,
                            size_t batch) {
    ndd::InterruptPoller poller(nullptr);
    ndd::JaccardJob job(measure, t, shingle, hashes, NDD_JACCARD_DEFAULT_MISS);
    for (size_t i = 0; i < docs.size(); i++) job.add(static_cast<int64_t>(10 + i), docs[i].data(), docs[i].size(), nullptr, poller);
    std::vector<Triple> got;
    std::vector<NddJaccardResult> buf(batch);
    bool done = false;
    while (!done) {
        size_t n = job.next(buf.data(), batch, done, poller);
        EXPECT_LE(n, batch);
        for (size_t i = 0; i < n; i++) got.emplace_back(buf[i].a, buf[i].b, buf[i].value);
    }
    std::sort(got.begin(), got.end());
    return got;
}

// The same by comparing every pair's shingle strings (similarity.hpp, what jaccard() runs).
std::vector<Triple> brute_force(const std::vector<std::string>& docs, int measure, double t, int shingle) {
    ndd::InterruptPoller poller(nullptr);
    std::vector<ndd::TokenStream> ts(docs.size());
    for (size_t i = 0; i < docs.size(); i++) ts[i].tokenize(docs[i].data(), docs[i].size(), poller);
    std::vector<Triple> want;
    for (size_t i = 0; i < docs.size(); i++)
        for (size_t j = 0; j < docs.size(); j++) {
            if (i == j || (measure == NDD_MEASURE_JACCARD && j < i)) continue;
            ndd::ShingleOverlap o = ndd::shingle_overlap(ts[i], ts[j], shingle, poller);
            double v = measure == NDD_MEASURE_JACCARD ? ndd::jaccard_of(o) : ndd::containment_of(o);
            if (v >= t) want.emplace_back(static_cast<int64_t>(10 + i), static_cast<int64_t>(10 + j), v);
        }
    std::sort(want.begin(), want.end());
    return want;
}

// Base texts from a Zipf-like vocabulary, each copied with word edits at several rates, some
// copies truncated (so they are contained in their original), plus exact copies.
std::vector<std::string> generated_collection(unsigned seed, size_t bases) {
    std::mt19937_64 rng(seed);
    std::vector<std::string> vocab;
    for (int i = 0; i < 400; i++) vocab.push_back("w" + std::to_string(i));
    auto word = [&] {
        double u = std::uniform_real_distribution<double>(0, 1)(rng);
        return vocab[static_cast<size_t>(std::pow(u, 2.5) * vocab.size())];
    };
    std::vector<std::string> docs;
    for (size_t b = 0; b < bases; b++) {
        size_t len = 20 + rng() % 200;
        std::vector<std::string> words;
        for (size_t i = 0; i < len; i++) words.push_back(word());
        auto join = [](const std::vector<std::string>& w) {
            std::string s;
            for (auto& x : w) s += x + " ";
            return s;
        };
        docs.push_back(join(words));
        for (double rate : {0.0, 0.01, 0.03, 0.08}) {
            std::vector<std::string> c = words;
            for (auto& x : c)
                if (std::uniform_real_distribution<double>(0, 1)(rng) < rate) x = word();
            docs.push_back(join(c));
        }
        std::vector<std::string> part(words.begin(), words.begin() + words.size() * 3 / 4);
        docs.push_back(join(part));
    }
    return docs;
}

TEST(JaccardBands, ChoiceIsTheOptimumOfItsCriterion) {
    for (double t : {0.5, 0.8, 0.9, 0.95}) {
        for (int h : {84, 128, 256}) {
            ndd::Banding got = ndd::choose_bands(t, h, 1e-6);
            EXPECT_LE(got.bands * got.rows, h);
            EXPECT_LE(got.miss, 1e-6);
            EXPECT_NEAR(got.miss, ndd::band_miss_probability(t, got.bands, got.rows), 1e-18);
            // no (b, r) within the sketch meets the bound with fewer false candidates
            for (int r = 1; r <= h; r++)
                for (int b = 1; b * r <= h; b++) {
                    if (ndd::band_miss_probability(t, b, r) > 1e-6) continue;
                    ndd::Banding other = ndd::choose_bands(t, b * r, 1e-6);  // same criterion, b*r hashes
                    EXPECT_LE(got.fp_area, other.fp_area + 1e-12) << t << " " << h << " " << b << "x" << r;
                }
            std::printf("t=%.2f hashes=%d: %d bands x %d rows, miss at t %.2e, P(candidate) at t-0.1 %.3f, at 0.5 %.2e\n",
                        t, h, got.bands, got.rows, got.miss, 1 - ndd::band_miss_probability(t - 0.1, got.bands, got.rows),
                        1 - ndd::band_miss_probability(0.5, got.bands, got.rows));
        }
    }
}

TEST(JaccardBands, ThresholdOneAndTooLow) {
    ndd::Banding one = ndd::choose_bands(1.0, 128, 1e-6);
    EXPECT_EQ(one.bands, 1);
    EXPECT_EQ(one.rows, 128);
    EXPECT_EQ(one.miss, 0.0);
    EXPECT_THROW(ndd::choose_bands(0.05, 128, 1e-6), ndd::InvalidArgument);
    EXPECT_THROW(ndd::choose_bands(0.0, 128, 1e-6), ndd::InvalidArgument);
    EXPECT_THROW(ndd::choose_bands(1.5, 128, 1e-6), ndd::InvalidArgument);
}

TEST(JaccardBands, KeysDependOnBandAndValuesOnly) {
    std::vector<uint64_t> s(128), t(128);
    for (size_t i = 0; i < 128; i++) s[i] = t[i] = i * 0x9e3779b97f4a7c15ULL;
    t[127] ^= 1;  // only the last band differs
    std::vector<uint64_t> ks(16), kt(16);
    ndd::band_keys(s.data(), 16, 8, ks.data());
    ndd::band_keys(t.data(), 16, 8, kt.data());
    for (int j = 0; j < 15; j++) EXPECT_EQ(ks[j], kt[j]);
    EXPECT_NE(ks[15], kt[15]);
    // equal band contents in different bands give different keys
    std::vector<uint64_t> z(16, 0), kz(2);
    ndd::band_keys(z.data(), 2, 8, kz.data());
    EXPECT_NE(kz[0], kz[1]);
}

TEST(JaccardPairs, EqualsBruteForceOnGeneratedText) {
    std::vector<std::string> docs = generated_collection(7, 40);
    for (double t : {0.5, 0.8, 0.9}) {
        std::vector<Triple> want = brute_force(docs, NDD_MEASURE_JACCARD, t, 4);
        EXPECT_GT(want.size(), 40u) << t;
        EXPECT_EQ(run_job(docs, NDD_MEASURE_JACCARD, t, 4, 128, 1000), want) << t;
        EXPECT_EQ(run_job(docs, NDD_MEASURE_JACCARD, t, 4, 84, 1), want) << t;  // resumed after every pair
    }
    std::vector<Triple> want = brute_force(docs, NDD_MEASURE_JACCARD, 0.7, 2);
    EXPECT_EQ(run_job(docs, NDD_MEASURE_JACCARD, 0.7, 2, 256, 7), want);
}

TEST(JaccardPairs, ContainmentEqualsBruteForce) {
    std::vector<std::string> docs = generated_collection(11, 30);
    for (double t : {0.5, 0.8, 0.9, 1.0}) {
        std::vector<Triple> want = brute_force(docs, NDD_MEASURE_CONTAINMENT, t, 4);
        EXPECT_GT(want.size(), 30u) << t;
        EXPECT_EQ(run_job(docs, NDD_MEASURE_CONTAINMENT, t, 4, 128, 1000), want) << t;
        EXPECT_EQ(run_job(docs, NDD_MEASURE_CONTAINMENT, t, 4, 128, 3), want) << t;
    }
}

// The disk path's pieces (what jaccard_pairs.c does with files and sorts), in memory: documents
// taken out of the job in batches (doc(), clear()), candidates from equal (band, key) or from
// A's prefix hashes against every hash of B, each verified once with verify_sets().
std::vector<Triple> run_pieces(const std::vector<std::string>& docs, int measure, double t, size_t batch) {
    ndd::InterruptPoller poller(nullptr);
    ndd::JaccardJob job(measure, t, 4, 128, NDD_JACCARD_DEFAULT_MISS);
    struct Doc {
        int64_t id;
        std::vector<ndd::ShingleHash> set;
        std::vector<uint64_t> keys;
        size_t prefix;
    };
    std::vector<Doc> held;
    auto take = [&] {
        for (size_t d = 0; d < job.count(); d++) {
            NddJaccardDoc x = job.doc(d);
            const auto* h = reinterpret_cast<const ndd::ShingleHash*>(x.set);
            held.push_back({x.id, std::vector<ndd::ShingleHash>(h, h + x.nset),
                            x.keys ? std::vector<uint64_t>(x.keys, x.keys + x.nkeys) : std::vector<uint64_t>(),
                            x.prefix});
        }
        job.clear();
        EXPECT_EQ(job.count(), 0u);
    };
    for (size_t i = 0; i < docs.size(); i++) {
        job.add(static_cast<int64_t>(10 + i), docs[i].data(), docs[i].size(), nullptr, poller);
        if (job.count() == batch) take();
    }
    take();
    std::vector<Triple> got;
    for (size_t x = 0; x < held.size(); x++)
        for (size_t y = 0; y < held.size(); y++) {
            if (x == y || (measure == NDD_MEASURE_JACCARD && y < x)) continue;
            bool candidate = false;
            // the core's rule, as the disk path applies it: band 0's keys known, repeats dropped
            // (candidate is a flag), prefix entries of x against every entry of y
            if (measure == NDD_MEASURE_JACCARD) {
                for (size_t j = 0; j < held[x].keys.size(); j++)
                    candidate |= held[x].keys[j] == held[y].keys[j] &&
                                 ndd_jaccard_band_candidate(x, y, static_cast<int>(j), held[x].keys.data(),
                                                            held[y].keys.data(), 1);
            } else {
                for (size_t i = 0; i < held[x].set.size(); i++)
                    for (const auto& h : held[y].set)
                        candidate |= h.h1 == held[x].set[i].h1 &&
                                     ndd_containment_candidate(x, i < held[x].prefix, y);
            }
            if (!candidate) continue;
            NddJaccardResult r;
            if (job.verify_sets(held[x].id, held[x].set.data(), held[x].set.size(), held[y].id, held[y].set.data(),
                                held[y].set.size(), &r))
                got.emplace_back(r.a, r.b, r.value);
        }
    std::sort(got.begin(), got.end());
    return got;
}

TEST(JaccardPairs, CandidateRuleTakesAPairInItsFirstSharedBand) {
    // x and y share the keys of bands 1 and 3
    const uint64_t kx[4] = {10, 11, 12, 13}, ky[4] = {20, 11, 22, 13};
    EXPECT_EQ(ndd_jaccard_band_candidate(1, 2, 1, kx, ky, 4), 1);
    EXPECT_EQ(ndd_jaccard_band_candidate(1, 2, 3, kx, ky, 4), 0);  // verified in band 1 already
    EXPECT_EQ(ndd_jaccard_band_candidate(1, 2, 3, kx, ky, 1), 1);  // band 0 only known: a repeat
    EXPECT_EQ(ndd_jaccard_band_candidate(2, 2, 1, kx, kx, 4), 0);  // one document is no pair
    // sharing band 0: taken there, never again even when only band 0 is known
    const uint64_t kz[4] = {10, 0, 0, 13};
    EXPECT_EQ(ndd_jaccard_band_candidate(1, 3, 0, kx, kz, 1), 1);
    EXPECT_EQ(ndd_jaccard_band_candidate(1, 3, 3, kx, kz, 1), 0);
    EXPECT_EQ(ndd_containment_candidate(1, 1, 2), 1);
    EXPECT_EQ(ndd_containment_candidate(1, 0, 2), 0);  // not one of the prefix that finds 1's pairs
    EXPECT_EQ(ndd_containment_candidate(2, 1, 2), 0);
}

TEST(JaccardPairs, DiskPiecesEqualBruteForce) {
    std::vector<std::string> docs = generated_collection(13, 25);
    docs.push_back("");  // contained in everything: the caller adds those pairs, not the prefix
    for (double t : {0.5, 0.8, 0.9}) {
        std::vector<Triple> want = brute_force(docs, NDD_MEASURE_JACCARD, t, 4);
        EXPECT_GT(want.size(), 25u) << t;
        EXPECT_EQ(run_pieces(docs, NDD_MEASURE_JACCARD, t, 7), want) << t;
        std::vector<Triple> wantc = brute_force(docs, NDD_MEASURE_CONTAINMENT, t, 4);
        wantc.erase(std::remove_if(wantc.begin(), wantc.end(),
                                   [&](const Triple& p) { return std::get<0>(p) == static_cast<int64_t>(10 + docs.size() - 1); }),
                    wantc.end());
        EXPECT_EQ(run_pieces(docs, NDD_MEASURE_CONTAINMENT, t, 1), wantc) << t;
    }
    ndd::InterruptPoller poller(nullptr);
    ndd::JaccardJob job(NDD_MEASURE_JACCARD, 0.8, 4, 128, NDD_JACCARD_DEFAULT_MISS);
    EXPECT_THROW(job.doc(0), ndd::InvalidArgument);
    // a given sketch replaces the computed one: the keys of the text's own sketch
    std::vector<uint64_t> sketch(128);
    std::string text = "one two three four five six";
    ndd::TokenStream ts;
    ts.tokenize(text.data(), text.size(), poller);
    ndd::shingle_minhash(ts, 4, 128, sketch.data(), poller);
    job.add(1, text.data(), text.size(), nullptr, poller);
    job.add(2, text.data(), text.size(), sketch.data(), poller);
    std::vector<uint64_t> zero(128, 0);
    job.add(3, text.data(), text.size(), zero.data(), poller);
    NddJaccardDoc a = job.doc(0), b = job.doc(1), c = job.doc(2);
    EXPECT_TRUE(std::equal(a.keys, a.keys + a.nkeys, b.keys));
    EXPECT_FALSE(std::equal(a.keys, a.keys + a.nkeys, c.keys));
}

// The job folds only a document's distinct feature hashes into the positions its bands read: its
// keys must be those of the full shingle_minhash sketch (what a stored sketch gives), whatever the
// banding, on texts with repeated shingles.
TEST(JaccardPairs, ComputedKeysEqualTheFullSketchs) {
    ndd::InterruptPoller poller(nullptr);
    std::vector<std::string> docs = generated_collection(5, 6);
    docs.push_back("a b c d a b c d a b c d a b c d e");
    docs.push_back("");
    for (double t : {0.5, 0.8, 0.95, 1.0})
        for (int hashes : {64, 100, 128, 256}) {
            ndd::JaccardJob job(NDD_MEASURE_JACCARD, t, 4, hashes, NDD_JACCARD_DEFAULT_MISS);
            std::vector<std::vector<uint64_t>> sketches;
            for (size_t i = 0; i < docs.size(); i++) {
                ndd::TokenStream ts;
                ts.tokenize(docs[i].data(), docs[i].size(), poller);
                sketches.emplace_back(hashes);
                ndd::shingle_minhash(ts, 4, hashes, sketches.back().data(), poller);
                job.add(static_cast<int64_t>(2 * i), docs[i].data(), docs[i].size(), nullptr, poller);
                job.add(static_cast<int64_t>(2 * i + 1), docs[i].data(), docs[i].size(), sketches.back().data(), poller);
            }
            for (size_t i = 0; i < docs.size(); i++) {
                NddJaccardDoc a = job.doc(2 * i), b = job.doc(2 * i + 1);
                EXPECT_TRUE(std::equal(a.keys, a.keys + a.nkeys, b.keys)) << t << " " << hashes << " " << i;
            }
        }
}

TEST(JaccardPairs, SortRecordsOrdersByHiThenLo) {
    std::mt19937_64 rng(3);
    std::vector<NddJaccardRecord> r(5000);
    for (auto& x : r) x = NddJaccardRecord{rng() % 50, rng() % 7};
    std::vector<NddJaccardRecord> want = r;
    std::stable_sort(want.begin(), want.end(), [](const NddJaccardRecord& p, const NddJaccardRecord& q) {
        return std::make_pair(p.hi, p.lo) < std::make_pair(q.hi, q.lo);
    });
    ASSERT_EQ(ndd_jaccard_sort_records(r.data(), r.size()), NDD_OK);
    for (size_t i = 0; i < r.size(); i++) EXPECT_TRUE(r[i].hi == want[i].hi && r[i].lo == want[i].lo) << i;
    EXPECT_EQ(ndd_jaccard_sort_records(nullptr, 0), NDD_OK);
}

TEST(JaccardPairs, EdgeCases) {
    // empty texts (resemblance 1 with each other, 0 with others; contained in everything),
    // fewer words than the shingle, repeated shingles, case and punctuation
    std::vector<std::string> docs = {"",      "  ,.; ",  "a b",         "A, B!",       "x x x x x x",
                                     "x x x", "a b c d", "a b c d e f", "a b c d e g", "\xff\xfe bad utf8"};
    for (int measure : {NDD_MEASURE_JACCARD, NDD_MEASURE_CONTAINMENT})
        for (double t : {0.01, 0.3, 0.5, 1.0})
            for (int k : {1, 3, 4}) {
                if (measure == NDD_MEASURE_JACCARD && t < 0.1) continue;  // too low for bands
                EXPECT_EQ(run_job(docs, measure, t, k, 256, 2), brute_force(docs, measure, t, k))
                    << measure << " " << t << " " << k;
            }
    EXPECT_THROW(ndd::JaccardJob(NDD_MEASURE_JACCARD, 0.0, 4, 128, 1e-6), ndd::InvalidArgument);
    EXPECT_THROW(ndd::JaccardJob(NDD_MEASURE_CONTAINMENT, 1.01, 4, 128, 1e-6), ndd::InvalidArgument);
    EXPECT_THROW(ndd::JaccardJob(NDD_MEASURE_JACCARD, 0.8, 0, 128, 1e-6), ndd::InvalidArgument);
}

}  // namespace
