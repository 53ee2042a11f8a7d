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

extern "C" uint64_t ndd_shell_volume(int width, int radius) {
    if (width < 0 || radius < 0 || radius > width) return 0;
    uint64_t inner = radius == 0 ? 0 : ndd_ball_volume(width, radius - 1);
    uint64_t ball = ndd_ball_volume(width, radius);
    return ball == UINT64_MAX ? UINT64_MAX : ball - inner;
}

namespace {
// Appends center with every set of exactly r of its width low bits flipped; n counts them.
void flip_sets(uint64_t center, int width, int r, uint64_t* out, size_t& n) {
    int pos[64];
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
}  // namespace

extern "C" NddStatus ndd_prefix_shell(uint64_t center, int width, int radius, uint64_t* out, size_t cap,
                                      size_t* count) {
    return ndd::guarded([&] {
        if (width < 0 || width > 64 || radius < 0) throw ndd::InvalidArgument("prefix shell out of range");
        uint64_t volume = ndd_shell_volume(width, radius);
        if (volume > cap) throw ndd::InvalidArgument("prefix shell larger than the output");
        if (width < 64) center &= (1ULL << width) - 1;
        size_t n = 0;
        if (radius <= width) flip_sets(center, width, radius, out, n);
        std::sort(out, out + n);
        *count = n;
    });
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
        // every set of at most `radius` distinct bit positions
        for (int r = 0; r <= radius; r++) flip_sets(center, width, r, out, n);
        std::sort(out, out + n);
        *count = n;
    });
}
