// clusters.cpp
//    Fully transitive (union-find) and conservative (representative-based) clustering of
//    near-duplicate pairs, see clusters_api.h.
#include <algorithm>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "clusters_api.h"
#include "guard.hpp"

namespace {

// Union-find over positions in the order, each set rooted at its earliest position.
class EarliestRootSets {
public:
    explicit EarliestRootSets(size_t n) : parent_(n) {
        for (size_t i = 0; i < n; i++) parent_[i] = static_cast<uint32_t>(i);
    }
    uint32_t find(uint32_t x) {
        while (parent_[x] != x) {
            parent_[x] = parent_[parent_[x]];  // path halving
            x = parent_[x];
        }
        return x;
    }
    void unite(uint32_t a, uint32_t b) {
        a = find(a);
        b = find(b);
        if (a == b) return;
        // The later root hangs under the earlier one, so a root is its set's earliest member.
        if (a < b)
            parent_[b] = a;
        else
            parent_[a] = b;
    }

private:
    std::vector<uint32_t> parent_;
};

}  // namespace

extern "C" size_t ndd_cluster_memory(size_t ndocs, size_t npairs) {
    // Per document: docs, index (id, position), cluster, parent or (start, fill, is_rep), and
    // the returned row. Per pair: the edge and, conservative, its entry in `earlier`.
    size_t per_doc = sizeof(int64_t) + sizeof(std::pair<int64_t, uint32_t>) + sizeof(uint32_t) +
                     2 * sizeof(size_t) + 1 + sizeof(NddClusterRow);
    size_t per_pair = sizeof(std::pair<uint32_t, uint32_t>) + sizeof(uint32_t);
    return ndocs * per_doc + npairs * per_pair;
}

extern "C" NddStatus ndd_cluster_pairs(const int64_t* order, size_t n, const int64_t* pairs,
                                  size_t npairs, int conservative, NddInterruptFn interrupt,
                                  NddAllocFn alloc, NddClusterRow** rows, size_t* nrows,
                                  NddClusterProblem* problem, int64_t* problem_id) {
    return ndd::guarded([&] {
        ndd::InterruptPoller poll(interrupt, 1u << 16);
        *rows = nullptr;
        *nrows = 0;
        *problem = NDD_CLUSTER_OK;
        *problem_id = 0;

        // The documents, earliest first.
        std::vector<int64_t> docs;
        if (order) {
            docs.assign(order, order + n);
        } else {
            docs.assign(pairs, pairs + 2 * npairs);
            std::sort(docs.begin(), docs.end());
            docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
        }
        if (docs.size() >= (size_t{1} << 32)) throw ndd::InvalidArgument("too many documents");

        // id -> position, by binary search in the ids sorted with their positions.
        std::vector<std::pair<int64_t, uint32_t>> index(docs.size());
        for (size_t i = 0; i < docs.size(); i++) index[i] = {docs[i], static_cast<uint32_t>(i)};
        std::sort(index.begin(), index.end());
        for (size_t i = 1; i < index.size(); i++)
            if (index[i].first == index[i - 1].first) {
                *problem = NDD_CLUSTER_DUPLICATE_ORDER_ID;
                *problem_id = index[i].first;
                return;
            }
        auto position = [&](int64_t id, uint32_t* pos) {
            auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(id, uint32_t{0}));
            if (it == index.end() || it->first != id) return false;
            *pos = it->second;
            return true;
        };

        // The pairs as positions (earlier, later); self pairs dropped.
        std::vector<std::pair<uint32_t, uint32_t>> edges;
        edges.reserve(npairs);
        for (size_t p = 0; p < npairs; p++) {
            uint32_t a, b;
            for (int side = 0; side < 2; side++) {
                int64_t id = pairs[2 * p + side];
                if (!position(id, side == 0 ? &a : &b)) {
                    *problem = NDD_CLUSTER_UNORDERED_PAIR_ID;
                    *problem_id = id;
                    return;
                }
            }
            if (a == b) continue;
            edges.emplace_back(std::min(a, b), std::max(a, b));
            poll.tick();
        }

        std::vector<uint32_t> cluster(docs.size());
        if (!conservative) {
            EarliestRootSets sets(docs.size());
            for (const auto& e : edges) {
                sets.unite(e.first, e.second);
                poll.tick();
            }
            for (size_t i = 0; i < docs.size(); i++) cluster[i] = sets.find(static_cast<uint32_t>(i));
        } else {
            // For each document, its earlier neighbours (CSR by the later end of each edge).
            std::vector<size_t> start(docs.size() + 1, 0);
            for (const auto& e : edges) start[e.second + 1]++;
            for (size_t i = 0; i < docs.size(); i++) start[i + 1] += start[i];
            std::vector<uint32_t> earlier(edges.size());
            std::vector<size_t> fill(start.begin(), start.end() - 1);
            for (const auto& e : edges) earlier[fill[e.second]++] = e.first;
            std::vector<char> is_rep(docs.size(), 0);
            for (size_t i = 0; i < docs.size(); i++) {
                // The earliest representative among the earlier neighbours, all decided already.
                uint32_t best = static_cast<uint32_t>(i);
                for (size_t j = start[i]; j < start[i + 1]; j++) {
                    uint32_t u = earlier[j];
                    if (is_rep[u] && u < best) best = u;
                }
                if (best == i) is_rep[i] = 1;
                cluster[i] = best;
                poll.tick();
            }
        }

        if (docs.empty()) return;
        void* mem = alloc(docs.size() * sizeof(NddClusterRow));
        if (!mem) throw std::bad_alloc();
        NddClusterRow* out = static_cast<NddClusterRow*>(mem);
        for (size_t i = 0; i < docs.size(); i++) {
            out[i].id = docs[i];
            out[i].cluster_id = docs[cluster[i]];
            out[i].representative = cluster[i] == i;
            out[i].pad = 0;
        }
        *rows = out;
        *nrows = docs.size();
    });
}
