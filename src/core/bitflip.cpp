// bitflip.cpp
//    The bit-flip fingerprint (see bitflip.hpp for the exact definition).
#include "bitflip.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "hashing.hpp"

namespace ndd {

namespace {

// T (byte values), U[b] = T[b] * B^window for the byte leaving the window, and the base B.
struct RollingTables {
    std::array<uint64_t, 256> t;
    uint64_t base;
    RollingTables() {
        SplitMix64 gen(kBitflipSeed);
        for (auto& v : t) v = gen.next();
        base = gen.next() | 1;
    }
};

const RollingTables& rolling_tables() {
    static const RollingTables tables;
    return tables;
}

// The checksum of a window from its polynomial value.
inline uint32_t finish_checksum(uint64_t r) { return static_cast<uint32_t>(mix64(r) >> 32); }

// Keeps the smallest `samples` distinct values offered. Once the set is full only values under its
// largest member get in, which after the first few thousand windows is rare, so the common case is
// one well-predicted comparison. Up to kInsertionLimit samples the set is a sorted array kept by
// insertion (a binary search also rejects repeats); beyond that, candidates collect in a buffer that
// is sorted, deduplicated and cut back to `samples` whenever it reaches twice that.
class SmallestDistinct {
public:
    explicit SmallestDistinct(size_t samples) : samples_(samples) {
        buf_.reserve(samples <= kInsertionLimit ? samples + 1 : 2 * samples);
    }
    // The hot path: inlined into the window loop; the rest stays out of line.
    void offer(uint32_t c) {
        if (full_ && c >= limit_) return;
        add(c);
    }
    // The kept values, ascending.
    const std::vector<uint32_t>& values() {
        if (samples_ > kInsertionLimit) compact();
        return buf_;
    }

private:
    static constexpr size_t kInsertionLimit = 1024;

    __attribute__((noinline)) void add(uint32_t c) {
        if (samples_ <= kInsertionLimit)
            insert(c);
        else {
            buf_.push_back(c);
            if (buf_.size() >= 2 * samples_) compact();
        }
    }
    void insert(uint32_t c) {
        auto pos = std::lower_bound(buf_.begin(), buf_.end(), c);
        if (pos != buf_.end() && *pos == c) return;
        buf_.insert(pos, c);
        if (buf_.size() > samples_) buf_.pop_back();
        if (buf_.size() == samples_) {
            full_ = true;
            limit_ = buf_.back();
        }
    }
    void compact() {
        std::sort(buf_.begin(), buf_.end());
        buf_.erase(std::unique(buf_.begin(), buf_.end()), buf_.end());
        if (buf_.size() >= samples_) {
            buf_.resize(samples_);
            full_ = true;
            limit_ = buf_.back();
        }
    }
    size_t samples_;
    std::vector<uint32_t> buf_;
    bool full_ = false;
    uint32_t limit_ = 0;
};

}  // namespace

uint32_t bitflip_window_checksum(const unsigned char* w, size_t window) {
    const RollingTables& rt = rolling_tables();
    uint64_t r = 0;
    for (size_t j = 0; j < window; j++) r = r * rt.base + rt.t[w[j]];
    return finish_checksum(r);
}

void bitflip_window_bytes(const unsigned char* doc, size_t len, size_t window, size_t i, unsigned char* out) {
    size_t total = bitflip_window_count(len, window);
    for (size_t j = 0; j < window; j++) {
        size_t k = (i + j) % total;
        out[j] = k < len ? doc[k] : 0;
    }
}

Fingerprint128 bitflip_fingerprint(const unsigned char* doc, size_t len, size_t window, size_t samples,
                                   InterruptPoller& poller) {
    if (window < 1 || window > kMaxBitflipWindow) throw InvalidArgument("window out of range");
    if (samples < 1 || samples > kMaxBitflipSamples) throw InvalidArgument("samples out of range");
    const RollingTables& rt = rolling_tables();

    // B^window, and U[b] = T[b] * B^window: what byte b contributes when it leaves the window
    // (after the multiplication by B that shifts the window).
    uint64_t bw = 1;
    for (size_t j = 0; j < window; j++) bw *= rt.base;
    std::array<uint64_t, 256> u;
    for (int b = 0; b < 256; b++) u[b] = rt.t[b] * bw;

    const size_t total = bitflip_window_count(len, window);  // N: bytes after padding = windows
    // Byte k (< N) of the padded document.
    auto byte_at = [&](size_t k) -> unsigned char { return k < len ? doc[k] : 0; };

    SmallestDistinct keep(samples);
    uint64_t r = 0;
    for (size_t j = 0; j < window; j++) r = r * rt.base + rt.t[byte_at(j)];
    keep.offer(finish_checksum(r));

    // Window i+1 = window i minus byte i plus byte i+window (mod N). While i+window < len the bytes
    // are the document's own, read directly; the last window-1 steps pad and wrap.
    size_t i = 0;
    size_t direct_end = len > window ? len - window : 0;  // steps whose incoming byte needs no wrap
    while (i < direct_end) {
        size_t stop = std::min(direct_end, i + 65536);
        poller.check();
        for (; i < stop; i++) {
            r = r * rt.base - u[doc[i]] + rt.t[doc[i + window]];
            keep.offer(finish_checksum(r));
        }
    }
    for (; i + 1 < total; i++) {
        poller.tick();
        r = r * rt.base - u[byte_at(i)] + rt.t[byte_at((i + window) % total)];
        keep.offer(finish_checksum(r));
    }

    Fingerprint128 fp{0, 0};
    for (uint32_t c : keep.values()) {
        unsigned bit = c & 127;  // the least significant 7 bits
        if (bit < 64)
            fp.hi ^= uint64_t(1) << (63 - bit);
        else
            fp.lo ^= uint64_t(1) << (127 - bit);
    }
    return fp;
}

}  // namespace ndd
