// minhash.cpp
//    Shingle sketches (min-wise hashing), their similarity, supershingles and shared features.
#include "minhash.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "hashing.hpp"

namespace ndd {

namespace {

// The constants a_i of the minhash permutations, the splitmix64 stream of kMinhashSeed.
struct MinhashConstants {
    std::array<uint64_t, kMaxMinhashes> a;
    MinhashConstants() {
        SplitMix64 gen(kMinhashSeed);
        for (auto& v : a) v = gen.next();
    }
};

const MinhashConstants& minhash_constants() {
    static const MinhashConstants constants;
    return constants;
}

// Plain C++: any CPU.
void fold_scalar(const uint64_t* xs, size_t n, const uint64_t* a, size_t t, uint64_t* mins) {
    for (size_t j = 0; j < n; j++) {
        uint64_t x = xs[j];
        for (size_t i = 0; i < t; i++) {
            uint64_t v = mix64(x ^ a[i]);
            mins[i] = v < mins[i] ? v : mins[i];
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
// GCC vector extensions: the same expressions as mix64, on 4 or 8 lanes. Vectors are only loaded and
// stored with memcpy, never passed by value, so no function's ABI depends on the target.
typedef uint64_t U64x8 __attribute__((vector_size(64)));
typedef uint64_t U64x4 __attribute__((vector_size(32)));

// AVX-512 (F + DQ for the 64-bit multiply): 8 permutations at a time.
__attribute__((target("avx512f,avx512dq"))) void fold_avx512(const uint64_t* xs, size_t n, const uint64_t* a,
                                                             size_t t, uint64_t* mins) {
    for (size_t b = 0; b < t; b += 8) {
        U64x8 av, m;
        std::memcpy(&av, a + b, sizeof av);
        std::memcpy(&m, mins + b, sizeof m);
        for (size_t j = 0; j < n; j++) {
            U64x8 z = av ^ xs[j];
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            z = z ^ (z >> 31);
            m = z < m ? z : m;
        }
        std::memcpy(mins + b, &m, sizeof m);
    }
}

// AVX2: 4 permutations at a time (the 64-bit multiply is emulated, still twice the scalar speed).
__attribute__((target("avx2"))) void fold_avx2(const uint64_t* xs, size_t n, const uint64_t* a, size_t t,
                                               uint64_t* mins) {
    for (size_t b = 0; b < t; b += 4) {
        U64x4 av, m;
        std::memcpy(&av, a + b, sizeof av);
        std::memcpy(&m, mins + b, sizeof m);
        for (size_t j = 0; j < n; j++) {
            U64x4 z = av ^ xs[j];
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            z = z ^ (z >> 31);
            m = z < m ? z : m;
        }
        std::memcpy(mins + b, &m, sizeof m);
    }
}
#endif

// The kernel in use, chosen once.
const MinhashKernel& best_kernel() {
    static const MinhashKernel kernel = minhash_kernels().front();
    return kernel;
}

// Sketch of the hashes in xs: t minima (t <= kMaxMinhashes), in chunks so the hashes stay in the L1
// cache across the permutation blocks and cancellation is checked between chunks.
constexpr size_t kChunk = 2048;

// The running minima of t permutations, fed chunk by chunk.
class SketchFolder {
public:
    explicit SketchFolder(size_t t) : t_(t), t8_((t + 7) / 8 * 8), a_(minhash_constants().a.data()) {
        static_assert(kMaxMinhashes % 8 == 0, "kernels work on blocks of 8 permutations");
        std::fill(mins_, mins_ + t8_, kEmptyMinimum);
    }
    void fold(const uint64_t* xs, size_t n) { kernel_.fold(xs, n, a_, t8_, mins_); }
    void result(uint64_t* out) const { std::copy(mins_, mins_ + t_, out); }

private:
    size_t t_, t8_;
    const uint64_t* a_;
    const MinhashKernel& kernel_ = best_kernel();
    uint64_t mins_[kMaxMinhashes];
};

void sketch_of(const uint64_t* xs, size_t n, size_t t, uint64_t* out, InterruptPoller& poller) {
    SketchFolder folder(t);
    for (size_t j = 0; j < n; j += kChunk) {
        poller.check();
        folder.fold(xs + j, std::min(kChunk, n - j));
    }
    folder.result(out);
}

}  // namespace

std::vector<MinhashKernel> minhash_kernels() {
    std::vector<MinhashKernel> kernels;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
        kernels.push_back({"avx512", fold_avx512});
    if (__builtin_cpu_supports("avx2")) kernels.push_back({"avx2", fold_avx2});
#endif
    kernels.push_back({"scalar", fold_scalar});
    return kernels;
}

void minhash_of_hashes(const uint64_t* hashes, size_t n, size_t t, uint64_t* out, InterruptPoller& poller) {
    if (t < 1 || t > kMaxMinhashes) throw InvalidArgument("number of hashes out of range");
    sketch_of(hashes, n, t, out, poller);
}

void shingle_minhash(const TokenStream& ts, size_t k, size_t t, uint64_t* out, InterruptPoller& poller) {
    if (k < 1) throw InvalidArgument("shingle size must be at least 1");
    if (t < 1 || t > kMaxMinhashes) throw InvalidArgument("number of hashes out of range");
    std::vector<uint64_t> hashes;
    hashes.reserve(shingle_count(ts.size(), k));
    for_each_shingle(ts, k, poller, [&](std::string_view s) { hashes.push_back(hash64(s, kFeatureSeed)); });
    sketch_of(hashes.data(), hashes.size(), t, out, poller);
}

void shingle_minhash(const char* doc, size_t len, size_t k, size_t t, uint64_t* out, InterruptPoller& poller,
                     Tokenizer tokenizer) {
    if (t < 1 || t > kMaxMinhashes) throw InvalidArgument("number of hashes out of range");
    ShingleCursor shingles(doc, len, k, tokenizer);
    SketchFolder folder(t);
    uint64_t chunk[kChunk];
    size_t n = 0;
    std::string_view s;
    while (shingles.next(&s, &chunk[n], poller)) {
        if (++n == kChunk) {
            folder.fold(chunk, n);
            n = 0;
        }
    }
    folder.fold(chunk, n);
    folder.result(out);
}

double minhash_similarity(const uint64_t* a, const uint64_t* b, size_t n) {
    if (n == 0) throw InvalidArgument("empty sketch");
    size_t equal = 0;
    for (size_t i = 0; i < n; i++) equal += a[i] == b[i];
    return static_cast<double>(equal) / static_cast<double>(n);
}

void supershingles(const uint64_t* sketch, size_t n, size_t groups, uint64_t* out) {
    if (groups < 1 || n % groups != 0) throw InvalidArgument("groups must divide the sketch length");
    size_t per = n / groups;
    std::vector<unsigned char> bytes(per * 8);
    for (size_t g = 0; g < groups; g++) {
        for (size_t i = 0; i < per; i++) store_le64(sketch[g * per + i], &bytes[i * 8]);
        out[g] = XXH3_64bits_withSeed(bytes.data(), bytes.size(), kSupershingleSeed + g);
    }
}

size_t features_shared(const uint64_t* a, size_t na, const uint64_t* b, size_t nb, InterruptPoller& poller) {
    std::vector<uint64_t> x(a, a + na), y(b, b + nb);
    poller.check();
    std::sort(x.begin(), x.end());
    x.erase(std::unique(x.begin(), x.end()), x.end());
    poller.check();
    std::sort(y.begin(), y.end());
    y.erase(std::unique(y.begin(), y.end()), y.end());
    poller.check();
    size_t shared = 0;
    for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
        if (x[i] < y[j])
            i++;
        else if (y[j] < x[i])
            j++;
        else {
            shared++;
            i++;
            j++;
        }
    }
    return shared;
}

}  // namespace ndd
