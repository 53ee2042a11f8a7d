// test_vector_simhash.cpp
//    The random-hyperplane simhash of vectors: golden values (fixed forever), sign and scale
//    invariance, the angle estimate on random vectors, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "distance_api.h"
#include "vector_simhash.hpp"

namespace {

uint64_t sh64(const std::vector<double>& v) {
    ndd::InterruptPoller poller(nullptr);
    uint64_t out;
    ndd::vector_simhash(v.data(), v.size(), 1, &out, poller);
    return out;
}

TEST(VectorSimhash, ScaleInvariantAndNegationFlipsEveryBitOfAGenericVector) {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> g;
    std::vector<double> v(768);
    for (auto& x : v) x = g(rng);
    std::vector<double> scaled(v), negated(v);
    for (auto& x : scaled) x *= 4;  // a power of two: the sums scale exactly
    for (auto& x : negated) x = -x;
    EXPECT_EQ(sh64(v), sh64(scaled));
    EXPECT_EQ(sh64(v), ~sh64(negated));
}

TEST(VectorSimhash, HammingDistanceEstimatesTheAngle) {
    // pairs at a known angle: the mean of pi d / 64 over many pairs is close to the angle
    std::mt19937_64 rng(28);
    std::normal_distribution<double> g;
    const size_t dims = 256;
    for (double theta : {0.2, 0.6, 1.2}) {
        double total = 0;
        const int pairs = 400;
        for (int p = 0; p < pairs; p++) {
            std::vector<double> x(dims), y(dims);
            for (auto& c : x) c = g(rng);
            for (auto& c : y) c = g(rng);
            // y orthogonal to x, both unit, then z = cos(theta) x + sin(theta) y
            double xx = 0, xy = 0;
            for (size_t i = 0; i < dims; i++) xx += x[i] * x[i], xy += x[i] * y[i];
            for (size_t i = 0; i < dims; i++) y[i] -= xy / xx * x[i];
            double nx = std::sqrt(xx), ny = 0;
            for (double c : y) ny += c * c;
            ny = std::sqrt(ny);
            std::vector<double> z(dims);
            for (size_t i = 0; i < dims; i++) z[i] = std::cos(theta) * x[i] / nx + std::sin(theta) * y[i] / ny;
            total += M_PI * __builtin_popcountll(sh64(x) ^ sh64(z)) / 64.0;
        }
        EXPECT_NEAR(total / pairs, theta, 0.05) << "theta " << theta;
    }
}

TEST(VectorSimhash, GoldenValues) {
    // fixed forever: a changed value breaks every stored fingerprint (the values were checked
    // against an independent Python implementation of the definition in vector_simhash.hpp)
    ndd::InterruptPoller poller(nullptr);
    std::vector<double> v = {1.0, -2.0, 0.5, 3.25};
    uint64_t out[2];
    ndd::vector_simhash(v.data(), v.size(), 1, out, poller);
    uint64_t one = out[0];
    ndd::vector_simhash(v.data(), v.size(), 2, out, poller);
    EXPECT_EQ(out[0], one);  // the first word of the 128-bit form is the 64-bit form
    EXPECT_EQ(one, 0x765a48445fccbcfdull);
    EXPECT_EQ(out[1], 0x0e442b7548e6f0a8ull);
}

TEST(VectorSimhash, BadInput) {
    uint64_t out[2];
    double nan[] = {1.0, NAN}, inf[] = {INFINITY}, ok[] = {1.0};
    EXPECT_EQ(ndd_vector_simhash(nan, 2, 1, out, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_vector_simhash(inf, 1, 1, out, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_vector_simhash(ok, 0, 1, out, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_vector_simhash(ok, 1, 3, out, nullptr), NDD_INVALID_ARGUMENT);
    std::vector<double> big(NDD_MAX_VECTOR_DIMENSIONS + 1, 1.0);
    EXPECT_EQ(ndd_vector_simhash(big.data(), big.size(), 1, out, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_vector_simhash(big.data(), big.size() - 1, 2, out, nullptr), NDD_OK);
    double zero[] = {0.0, 0.0};
    EXPECT_EQ(ndd_vector_simhash(zero, 2, 1, out, nullptr), NDD_OK);
    EXPECT_EQ(out[0], 0u);  // no side of any hyperplane
}

}  // namespace
