// Unit tests of the bit count (popcount.h): the run-time dispatched count, the portable fallback and
// (on a CPU that has it) the POPCNT instruction agree with a bit-by-bit count on edge and random
// values, and the detection agrees with the CPU.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "popcount.h"

namespace {

int naive_count(uint64_t x) {
    int n = 0;
    for (int i = 0; i < 64; i++) n += static_cast<int>((x >> i) & 1u);
    return n;
}

std::vector<uint64_t> test_values() {
    std::vector<uint64_t> v = {0, ~uint64_t{0}, 0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL,
                               0x0f0f0f0f0f0f0f0fULL, 0x8000000000000001ULL, 0xffffffff00000000ULL,
                               0x00000000ffffffffULL};
    for (int i = 0; i < 64; i++) {
        v.push_back(uint64_t{1} << i);
        v.push_back(~(uint64_t{1} << i));
        v.push_back((uint64_t{1} << i) - 1);
    }
    std::mt19937_64 rng(20261123);
    for (int i = 0; i < 200000; i++) {
        // every density of set bits, not only the ~32 of uniform values
        uint64_t x = rng();
        switch (i % 4) {
            case 1: x &= rng(); break;
            case 2: x |= rng(); break;
            case 3: x &= rng() & rng(); break;
        }
        v.push_back(x);
    }
    return v;
}

}  // namespace

TEST(Popcount, PortableMatchesBitByBit) {
    for (uint64_t x : test_values()) ASSERT_EQ(ndd_popcount64_portable(x), naive_count(x)) << std::hex << x;
}

TEST(Popcount, DispatchedMatchesPortable) {
    for (uint64_t x : test_values()) ASSERT_EQ(ndd_popcount64(x), ndd_popcount64_portable(x)) << std::hex << x;
}

#ifdef NDD_POPCOUNT_DISPATCH
TEST(Popcount, DetectionMatchesCpu) {
    __builtin_cpu_init();
    EXPECT_EQ(ndd_cpu_has_popcnt != 0, __builtin_cpu_supports("popcnt") != 0);
}

TEST(Popcount, InstructionMatchesPortable) {
    if (!ndd_cpu_has_popcnt) GTEST_SKIP() << "this CPU has no POPCNT instruction";
    for (uint64_t x : test_values()) ASSERT_EQ(ndd_popcount64_hw(x), ndd_popcount64_portable(x)) << std::hex << x;
}

TEST(Popcount, FallbackPathWhenTheCpuLacksPopcnt) {
    // What a CPU without POPCNT runs: the same dispatch with the flag cleared.
    int saved = ndd_cpu_has_popcnt;
    ndd_cpu_has_popcnt = 0;
    std::vector<uint64_t> v = test_values();
    bool ok = true;
    for (uint64_t x : v) ok = ok && ndd_popcount64(x) == naive_count(x);
    ndd_cpu_has_popcnt = saved;
    EXPECT_TRUE(ok);
}
#endif
