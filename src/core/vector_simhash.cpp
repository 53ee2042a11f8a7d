// vector_simhash.cpp
//    The random-hyperplane simhash of a vector (vector_simhash.hpp).
#include "vector_simhash.hpp"

#include <cmath>

#include "hashing.hpp"

namespace ndd {

void vector_simhash(const double* v, size_t n, unsigned words, uint64_t* out, InterruptPoller& poller) {
    if (words != 1 && words != 2) throw InvalidArgument("a vector simhash has 1 or 2 words");
    if (n == 0 || n > kMaxVectorDimensions || !v) throw InvalidArgument("dimensions");
    for (size_t i = 0; i < n; i++)
        if (!std::isfinite(v[i])) throw InvalidArgument("component not finite");
    for (unsigned w = 0; w < words; w++) {
        double sum[64] = {};
        for (size_t i = 0; i < n; i++) {
            uint64_t signs = mix64(kVectorSeed + (2 * static_cast<uint64_t>(i) + w + 1) * 0x9e3779b97f4a7c15ULL);
            for (unsigned j = 0; j < 64; j++) {
                if ((signs >> (63 - j)) & 1)
                    sum[j] += v[i];
                else
                    sum[j] -= v[i];
            }
            poller.tick();
        }
        uint64_t word = 0;
        for (unsigned j = 0; j < 64; j++)
            if (sum[j] > 0) word |= uint64_t(1) << (63 - j);
        out[w] = word;
    }
}

}  // namespace ndd
