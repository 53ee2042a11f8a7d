// prefix_ball.cpp
//    Enumerating the bit strings within a Hamming radius of a key prefix: the probes of the ndd index
//    for query radii above what its tables answer by exact key match (see layout_api.h).
#include <algorithm>
#include <cstdint>

#include "guard.hpp"
#include "layout_api.h"

extern "C" uint64_t ndd_ball_volume(int width, int radius) {
    if (width < 0 || radius < 0) return 0;
    if (radius > width) radius = width;
    uint64_t total = 0, term = 1;  // term = C(width, i)
    for (int i = 0; i <= radius; i++) {
        if (i > 0) {
            // C(w, i) = C(w, i-1) * (w - i + 1) / i, in 128 bits so the product cannot wrap
            unsigned __int128 t = static_cast<unsigned __int128>(term) * static_cast<unsigned>(width - i + 1) /
                                  static_cast<unsigned>(i);
            if (t > UINT64_MAX) return UINT64_MAX;
            term = static_cast<uint64_t>(t);
        }
        if (total > UINT64_MAX - term) return UINT64_MAX;
        total += term;
    }
    return total;
}

extern "C" NddStatus ndd_prefix_ball(uint64_t center, int width, int radius, uint64_t* out, size_t cap,
                                     size_t* count) {
    return ndd::guarded([&] {
        if (width < 0 || width > 64 || radius < 0) throw ndd::InvalidArgument("prefix ball out of range");
        uint64_t volume = ndd_ball_volume(width, radius);
        if (volume > cap) throw ndd::InvalidArgument("prefix ball larger than the output");
        if (width < 64) center &= (1ULL << width) - 1;
        if (radius > width) radius = width;
        size_t n = 0;
        // Every set of at most `radius` distinct bit positions, as an increasing index array.
        int pos[64];
        for (int r = 0; r <= radius; r++) {
            for (int i = 0; i < r; i++) pos[i] = i;
            for (;;) {
                uint64_t v = center;
                for (int i = 0; i < r; i++) v ^= 1ULL << pos[i];
                out[n++] = v;
                int i = r - 1;
                while (i >= 0 && pos[i] == width - r + i) i--;
                if (i < 0) break;
                pos[i]++;
                for (int j = i + 1; j < r; j++) pos[j] = pos[j - 1] + 1;
            }
        }
        std::sort(out, out + n);
        *count = n;
    });
}
