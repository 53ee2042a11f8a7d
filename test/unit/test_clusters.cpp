// Unit tests of clustering near-duplicate pairs: fully transitive vs conservative, on hand-made
// cases from the research report (a chain, the order dependence) and on random graphs against
// the definitions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "clusters_api.h"

namespace {

void* test_alloc(size_t size) { return std::malloc(size); }

struct Result {
    std::vector<int64_t> id, cluster;
    std::vector<int> rep;
    NddClusterProblem problem;
    int64_t problem_id;
};

Result cluster(const std::vector<int64_t>* order, const std::vector<int64_t>& pairs, bool conservative) {
    NddClusterRow* rows = nullptr;
    size_t nrows = 0;
    Result r;
    EXPECT_EQ(ndd_cluster_pairs(order ? order->data() : nullptr, order ? order->size() : 0, pairs.data(),
                           pairs.size() / 2, conservative, nullptr, test_alloc, &rows, &nrows,
                           &r.problem, &r.problem_id),
              NDD_OK);
    for (size_t i = 0; i < nrows; i++) {
        r.id.push_back(rows[i].id);
        r.cluster.push_back(rows[i].cluster_id);
        r.rep.push_back(rows[i].representative);
    }
    std::free(rows);
    return r;
}

}  // namespace

TEST(Clusters, ChainIsOneTransitiveClusterButTwoConservativeOnes) {
    // A-B and B-C are near-duplicates, A-C are not (ids 1, 2, 3).
    std::vector<int64_t> pairs = {1, 2, 3, 2};
    Result t = cluster(nullptr, pairs, false);
    EXPECT_EQ(t.id, (std::vector<int64_t>{1, 2, 3}));
    EXPECT_EQ(t.cluster, (std::vector<int64_t>{1, 1, 1}));
    EXPECT_EQ(t.rep, (std::vector<int>{1, 0, 0}));
    Result c = cluster(nullptr, pairs, true);
    EXPECT_EQ(c.cluster, (std::vector<int64_t>{1, 1, 3}));  // B joins A; C cannot join B
    EXPECT_EQ(c.rep, (std::vector<int>{1, 0, 1}));
}

TEST(Clusters, ConservativeDependsOnOrder) {
    std::vector<int64_t> pairs = {1, 2, 2, 3};
    std::vector<int64_t> order = {2, 1, 3};  // B first: it recruits both A and C
    Result c = cluster(&order, pairs, true);
    EXPECT_EQ(c.id, order);
    EXPECT_EQ(c.cluster, (std::vector<int64_t>{2, 2, 2}));
    EXPECT_EQ(c.rep, (std::vector<int>{1, 0, 0}));
    Result t = cluster(&order, pairs, false);
    EXPECT_EQ(t.cluster, (std::vector<int64_t>{2, 2, 2}));
}

TEST(Clusters, ResearchReportFigure) {
    // Documents A..G inserted in order; links as in the report's figure of a long transitive
    // cluster: A-B, A-C? no: B-C, C-D, D-E, E-F, F-G, and A-B-... conservative gives several.
    std::vector<int64_t> order = {1, 2, 3, 4, 5, 6, 7, 8};  // 8 is alone
    std::vector<int64_t> pairs = {1, 2, 2, 3, 1, 3, 3, 4, 4, 5, 5, 6, 6, 7, 3, 5};
    Result t = cluster(&order, pairs, false);
    EXPECT_EQ(t.cluster, (std::vector<int64_t>{1, 1, 1, 1, 1, 1, 1, 8}));
    Result c = cluster(&order, pairs, true);
    // 1 rep; 2,3 join 1; 4's only earlier neighbour 3 is no rep -> rep; 5 joins 4 (3 is no rep);
    // 6: neighbour 5 no rep -> rep; 7 joins 6; 8 alone.
    EXPECT_EQ(c.cluster, (std::vector<int64_t>{1, 1, 1, 4, 4, 6, 6, 8}));
    EXPECT_EQ(c.rep, (std::vector<int>{1, 0, 0, 1, 0, 1, 0, 1}));
}

TEST(Clusters, EarliestRepresentativeWins) {
    // 3 is a near-duplicate of both representatives 1 and 2: it joins 1, the earliest.
    std::vector<int64_t> order = {1, 2, 3};
    Result c = cluster(&order, {3, 2, 3, 1}, true);
    EXPECT_EQ(c.cluster, (std::vector<int64_t>{1, 2, 1}));
}

TEST(Clusters, RandomGraphsMatchDefinitions) {
    std::mt19937_64 rng(31);
    for (int rep = 0; rep < 50; rep++) {
        int n = 60;
        std::vector<int64_t> order(n);
        for (int i = 0; i < n; i++) order[i] = 1000 - 13 * i;
        std::shuffle(order.begin(), order.end(), rng);
        std::vector<int64_t> pairs;
        std::set<std::pair<int64_t, int64_t>> adj;
        for (int e = 0; e < 50; e++) {
            int64_t a = order[rng() % n], b = order[rng() % n];
            pairs.push_back(a);
            pairs.push_back(b);
            adj.insert({a, b});
            adj.insert({b, a});
        }
        Result c = cluster(&order, pairs, true);
        Result t = cluster(&order, pairs, false);
        std::map<int64_t, int> pos;
        for (int i = 0; i < n; i++) pos[order[i]] = i;
        for (int i = 0; i < n; i++) {
            int64_t id = order[i], rid = c.cluster[i];
            // conservative: a member is a near-duplicate of its representative, which is earlier
            // and a representative itself
            if (rid != id) {
                EXPECT_TRUE(adj.count({id, rid}));
                EXPECT_LT(pos[rid], i);
                EXPECT_EQ(c.cluster[pos[rid]], rid);
            } else {
                // a representative has no earlier representative neighbour
                for (int j = 0; j < i; j++)
                    if (c.cluster[j] == order[j] && order[j] != id) {
                        EXPECT_FALSE(adj.count({id, order[j]}));
                    }
            }
            // transitive: neighbours share the cluster; the cluster id is the earliest member
            EXPECT_LE(pos[t.cluster[i]], i);
            for (int j = 0; j < n; j++)
                if (adj.count({id, order[j]})) {
                    EXPECT_EQ(t.cluster[i], t.cluster[j]);
                }
            // every conservative cluster lies inside one transitive cluster
            EXPECT_EQ(t.cluster[i], t.cluster[pos[rid]]);
        }
    }
}

TEST(Clusters, RefusesBadInput) {
    std::vector<int64_t> order = {1, 2, 1};
    Result r = cluster(&order, {1, 2}, false);
    EXPECT_EQ(r.problem, NDD_CLUSTER_DUPLICATE_ORDER_ID);
    EXPECT_EQ(r.problem_id, 1);
    EXPECT_TRUE(r.id.empty());
    order = {1, 2};
    r = cluster(&order, {1, 5}, true);
    EXPECT_EQ(r.problem, NDD_CLUSTER_UNORDERED_PAIR_ID);
    EXPECT_EQ(r.problem_id, 5);
    Result e = cluster(nullptr, {}, true);
    EXPECT_TRUE(e.id.empty());
    EXPECT_EQ(e.problem, NDD_CLUSTER_OK);
    Result self = cluster(nullptr, {4, 4}, true);
    EXPECT_EQ(self.id, (std::vector<int64_t>{4}));
    EXPECT_EQ(self.rep, (std::vector<int>{1}));
}
