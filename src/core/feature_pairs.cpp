// feature_pairs.cpp
//    Pugh's iceberg query: the candidate pairs of documents sharing feature values
//    (supershingles, word-list fingerprints), streamed; see batch_pairs_api.h.
#include <algorithm>
#include <vector>

#include "batch_pairs_api.h"
#include "guard.hpp"
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
    auto shared = [&](const FeatureEntry& e) {
        uint64_t s = mix(e.feature) & mask;
        return ((counters[s >> 2] >> (static_cast<int>(s & 3) * 2)) & 3u) >= 2;
    };
    // Counted first so that the survivors take exactly their size (memory is what bounds a run).
    size_t kept = 0;
    for (const FeatureEntry& e : in) {
        kept += shared(e);
        poll.tick();
    }
    std::vector<FeatureEntry> out;
    out.reserve(kept);
    for (const FeatureEntry& e : in) {
        if (shared(e)) out.push_back(e);
        poll.tick();
    }
    return out;
}

}  // namespace

// What the C side sees as an opaque handle: the (feature, document) entries sorted by feature,
// and a cursor over the pairs of documents of each feature's run.
struct NddFeatureCandidateIter {
    NddFeatureCandidateIter(NddInterruptFn interrupt) : poll(interrupt, 1u << 16) {}
    ndd::InterruptPoller poll;
    std::vector<FeatureEntry> kept, scratch;
    const FeatureEntry* e = nullptr;
    size_t m = 0;        // entries
    size_t max_df = 0;
    size_t s = 0, r = 0, i = 0, j = 0;  // current run [s, r) and its next pair (i, j)

    // The end of the run of entries of e[s]'s feature.
    size_t run_end(size_t from) const {
        size_t to = from + 1;
        while (to < m && e[to].feature == e[from].feature) to++;
        return to;
    }

    size_t next(uint64_t* out, size_t cap) {
        size_t got = 0;
        while (s < m) {
            if (r - s <= max_df) {
                for (; i + 1 < r; i++, j = i + 1)
                    for (; j < r; j++) {
                        if (got == cap) return got;
                        poll.tick();
                        out[got++] = (static_cast<uint64_t>(e[i].doc) << 32) | e[j].doc;
                    }
            }
            s = r;
            if (s < m) r = run_end(s);
            i = s;
            j = s + 1;
        }
        return got;
    }
};

extern "C" size_t ndd_feature_candidates_memory(size_t n, size_t nfeatures) {
    (void) n;
    // entries, then kept (at most as many), then scratch beside kept; the filter's two bits per
    // slot with at least two slots per entry (at most four, rounding up to a power of two).
    return 2 * nfeatures * sizeof(FeatureEntry) + nfeatures + 64;
}

extern "C" NddStatus ndd_feature_candidates_begin(const int64_t* features, const size_t* offsets, size_t n,
                                                  size_t max_df, NddInterruptFn interrupt,
                                                  NddFeatureCandidateIter** iter, size_t* skipped) {
    *iter = nullptr;
    *skipped = 0;
    NddFeatureCandidateIter* it = nullptr;
    NddStatus st = ndd::guarded([&] {
        if (max_df < 2 || n >= (size_t{1} << 32))
            throw ndd::InvalidArgument("feature pair parameters out of range");
        it = new NddFeatureCandidateIter(interrupt);
        ndd::InterruptPoller& poll = it->poll;

        // (feature, document) for each distinct feature of each document, in document order.
        std::vector<FeatureEntry> entries;
        entries.reserve(n ? offsets[n] : 0);
        std::vector<uint64_t> doc;
        for (size_t d = 0; d < n; d++) {
            doc.assign(features + offsets[d], features + offsets[d + 1]);
            std::sort(doc.begin(), doc.end());
            doc.erase(std::unique(doc.begin(), doc.end()), doc.end());
            for (uint64_t f : doc) entries.push_back(FeatureEntry{f, static_cast<uint32_t>(d)});
            poll.tick();
        }
        it->kept = drop_unique(entries, poll);
        std::vector<FeatureEntry>().swap(entries);

        // Sort by feature; the sort is stable, so each feature's documents stay in order.
        it->scratch.resize(it->kept.size());
        it->m = it->kept.size();
        it->e = ndd::radix_sort(it->kept.data(), it->scratch.data(), it->m, 64,
                                [](const FeatureEntry& x) { return x.feature; }, poll);
        it->max_df = max_df;
        size_t nskipped = 0;
        for (size_t s = 0; s < it->m;) {
            size_t r = it->run_end(s);
            if (r - s > max_df) nskipped++;
            s = r;
        }
        it->r = it->m ? it->run_end(0) : 0;
        it->j = 1;
        *skipped = nskipped;
    });
    if (st == NDD_OK)
        *iter = it;
    else
        delete it;
    return st;
}

extern "C" NddStatus ndd_feature_candidates_next(NddFeatureCandidateIter* iter, uint64_t* buf, size_t cap,
                                                 size_t* ncandidates) {
    *ncandidates = 0;
    return ndd::guarded([&] {
        if (cap == 0) throw ndd::InvalidArgument("empty buffer");
        *ncandidates = iter->next(buf, cap);
    });
}

extern "C" void ndd_feature_candidates_end(NddFeatureCandidateIter* iter) { delete iter; }
