// feature_pairs.cpp
//    Pugh's iceberg query: all pairs of documents sharing at least r feature values
//    (supershingles, word-list fingerprints), see batch_pairs_api.h.
#include <algorithm>
#include <vector>

#include "batch_pairs_api.h"
#include "guard.hpp"
#include "pair_list.hpp"
#include "radix_sort.hpp"

namespace {

// One distinct feature of one document.
struct __attribute__((packed)) FeatureEntry {
    uint64_t feature;
    uint32_t doc;
};

// A 64-bit mixer (splitmix64's finaliser) so that the counting filter spreads structured values.
inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The talk's first pass: two bits per hash slot (0, 1 or many). Entries whose slot saw only one
// entry belong to a feature of a single document and are dropped before sorting; collisions only
// keep some singletons, which the exact pass after sorting drops.
std::vector<FeatureEntry> drop_unique(const std::vector<FeatureEntry>& in, ndd::InterruptPoller& poll) {
    size_t slots = 64;
    while (slots < 2 * in.size()) slots <<= 1;
    std::vector<uint8_t> counters(slots / 4);  // four two-bit counters per byte
    const uint64_t mask = slots - 1;
    for (const FeatureEntry& e : in) {
        uint64_t s = mix(e.feature) & mask;
        uint8_t& byte = counters[s >> 2];
        int shift = static_cast<int>(s & 3) * 2;
        unsigned c = (byte >> shift) & 3u;
        if (c < 2) byte = static_cast<uint8_t>(byte + (1u << shift));
        poll.tick();
    }
    std::vector<FeatureEntry> out;
    for (const FeatureEntry& e : in) {
        uint64_t s = mix(e.feature) & mask;
        if (((counters[s >> 2] >> (static_cast<int>(s & 3) * 2)) & 3u) >= 2) out.push_back(e);
        poll.tick();
    }
    return out;
}

}  // namespace

extern "C" NddStatus ndd_shared_feature_pairs(const int64_t* ids, const int64_t* features,
                                       const size_t* offsets, size_t n, int min_shared,
                                       size_t max_df, NddInterruptFn interrupt, NddAllocFn alloc,
                                       NddPair** pairs, size_t* npairs, size_t* skipped) {
    return ndd::guarded([&] {
        if (min_shared < 1 || max_df < 2 || n >= (size_t{1} << 32))
            throw ndd::InvalidArgument("feature pair parameters out of range");
        ndd::InterruptPoller poll(interrupt, 1u << 16);

        // (feature, document) for each distinct feature of each document, in document order.
        std::vector<FeatureEntry> entries;
        std::vector<uint64_t> doc;
        for (size_t d = 0; d < n; d++) {
            doc.assign(features + offsets[d], features + offsets[d + 1]);
            std::sort(doc.begin(), doc.end());
            doc.erase(std::unique(doc.begin(), doc.end()), doc.end());
            for (uint64_t f : doc) entries.push_back(FeatureEntry{f, static_cast<uint32_t>(d)});
            poll.tick();
        }
        std::vector<FeatureEntry> kept = drop_unique(entries, poll);
        std::vector<FeatureEntry>().swap(entries);

        // Sort by feature; the sort is stable, so each feature's documents stay in order.
        std::vector<FeatureEntry> scratch(kept.size());
        FeatureEntry* e = ndd::radix_sort(kept.data(), scratch.data(), kept.size(), 64,
                                          [](const FeatureEntry& x) { return x.feature; }, poll);

        // Every pair of documents of each feature's run is a candidate, packed as (first, second).
        std::vector<uint64_t> cand;
        size_t nskipped = 0;
        for (size_t s = 0, m = kept.size(); s < m;) {
            size_t r = s + 1;
            while (r < m && e[r].feature == e[s].feature) r++;
            size_t c = r - s;
            if (c > max_df) {
                nskipped++;
            } else {
                for (size_t i = s; i + 1 < r; i++)
                    for (size_t j = i + 1; j < r; j++) {
                        cand.push_back((static_cast<uint64_t>(e[i].doc) << 32) | e[j].doc);
                        poll.tick();
                    }
            }
            s = r;
        }
        std::vector<FeatureEntry>().swap(kept);
        std::vector<FeatureEntry>().swap(scratch);

        // Count each candidate's features: sort the candidates, keep runs of at least min_shared.
        std::vector<uint64_t> cand_tmp(cand.size());
        uint64_t* c = ndd::radix_sort(cand.data(), cand_tmp.data(), cand.size(), 64,
                                      [](uint64_t x) { return x; }, poll);
        std::vector<NddPair> out;
        for (size_t s = 0, m = cand.size(); s < m;) {
            size_t r = s + 1;
            while (r < m && c[r] == c[s]) r++;
            if (r - s >= static_cast<size_t>(min_shared)) {
                int64_t a = ids[c[s] >> 32], b = ids[c[s] & 0xffffffffu];
                if (a != b) {
                    if (a > b) std::swap(a, b);
                    out.push_back(NddPair{a, b, static_cast<int32_t>(r - s), 0});
                }
            }
            s = r;
            poll.tick();
        }
        *skipped = nskipped;
        ndd::hand_over_pairs(out, alloc, pairs, npairs);
    });
}
