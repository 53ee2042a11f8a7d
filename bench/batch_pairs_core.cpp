// batch_pairs_core.cpp
//    The batch all-pairs mode in the core alone (no PostgreSQL): n random 64-bit fingerprints with
//    1% planted near-duplicates (1-3 flipped bits), k = 3, for each block count; prints seconds and
//    which bit count ran (NDD_BENCH_PORTABLE=1: the fallback of CPUs without POPCNT).
//    Build and run: bench/batch_pairs_core.sh [n ...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "batch_pairs_api.h"
#include "popcount.h"

namespace {

const char* popcount_variant() {
#ifdef NDD_POPCOUNT_DISPATCH
    if (std::getenv("NDD_BENCH_PORTABLE")) ndd_cpu_has_popcnt = 0;
    return ndd_cpu_has_popcnt ? "run-time-popcnt" : "portable";
#else
    return "compile-time-builtin";
#endif
}

}  // namespace

int main(int argc, char** argv) {
    const char* variant = popcount_variant();
    for (int a = 1; a < argc; a++) {
        size_t n = std::strtoull(argv[a], nullptr, 10);
        std::mt19937_64 rng(1);
        std::vector<int64_t> ids(n);
        std::vector<uint64_t> fps(n);
        for (size_t i = 0; i < n; i++) {
            ids[i] = static_cast<int64_t>(i + 1);
            if (i > 0 && rng() % 100 == 0) {
                fps[i] = fps[rng() % i];
                int flips = 1 + static_cast<int>(rng() % 3);
                for (int f = 0; f < flips; f++) fps[i] ^= 1ULL << (rng() % 64);
            } else {
                fps[i] = rng();
            }
        }
        int autob = ndd_batch_auto_blocks(64, 3, n);
        for (int nb : {4, 5, 6}) {
            auto t0 = std::chrono::steady_clock::now();
            // The pairs stream through a small buffer, as in ndd_pairs; they are only counted.
            NddHammingPairIter* it = nullptr;
            size_t npairs = 0, got = 0;
            std::vector<NddPair> buf(4096);
            NddStatus st = ndd_hamming_pairs_begin(64, ids.data(), fps.data(), n, 3, nb, nullptr, &it);
            while (st == NDD_OK && (st = ndd_hamming_pairs_next(it, buf.data(), buf.size(), &got)) == NDD_OK && got)
                npairs += got;
            ndd_hamming_pairs_end(it);
            double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf("popcount=%s n=%zu k=3 nblocks=%d%s status=%d pairs=%zu seconds=%.2f\n", variant, n,
                        nb, nb == autob ? " (auto)" : "", static_cast<int>(st), npairs, s);
        }
    }
    return 0;
}
