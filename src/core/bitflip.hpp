// bitflip.hpp
//    The bit-flip fingerprint of patent 7,707,157 (Google): a 128-bit value built from the smallest
//    checksums of a window sliding over the document's bytes.
//
//    - The input is the raw bytes of the text, not the normalized token stream.
//    - A document of n bytes is padded with NUL bytes to `window` bytes when it is shorter; call the
//      result's length N = max(n, window). The window starts at every offset 0 .. N-1 and wraps
//      around from the end to the beginning (the patent's "o.Fo", ".Fou"): N windows. A padded short
//      document thus yields `window` windows (its rotations), and the empty text one distinct
//      checksum, that of `window` NUL bytes.
//    - The checksum of a window (the patent allows any checksum function) is a rolling polynomial
//      hash followed by a mixer, so each window costs O(1) instead of O(window):
//          R = sum_j T[b_j] * B^(window-1-j)  mod 2^64    (b_0 .. b_{window-1} the window's bytes)
//          checksum = high 32 bits of mix64(R)            (mix64 = splitmix64's finalizer)
//      T[0..255] are the first 256 outputs of splitmix64 seeded with kBitflipSeed, B the 257th
//      forced odd.
//    - The `samples` smallest distinct checksums are kept; each selects bit (checksum mod 128) - its
//      least significant 7 bits - which is flipped. Bit b is numbered from the most significant bit
//      of the first (hi) word: bit 0 is the top bit of hi, bit 127 the bottom bit of lo, the order of
//      the fp128 text form and of its bit(128) cast.
#ifndef NDD_BITFLIP_HPP
#define NDD_BITFLIP_HPP

#include <cstddef>
#include <cstdint>

#include "guard.hpp"
#include "hashing.hpp"

namespace ndd {

// Largest window (bytes) and number of samples accepted. A short document costs `window` windows,
// so the window bounds the work for tiny texts; beyond 65536 samples every one of the 128 bits has
// long been flipped hundreds of times and more samples only cost memory.
constexpr size_t kMaxBitflipWindow = 65536;
constexpr size_t kMaxBitflipSamples = 65536;

// The bit-flip fingerprint of doc[0..len).
Fingerprint128 bitflip_fingerprint(const unsigned char* doc, size_t len, size_t window, size_t samples,
                                   InterruptPoller& poller);

// The checksum of one window given explicitly (window bytes at w): what the rolling computation
// produces for that window. For tests and documentation.
uint32_t bitflip_window_checksum(const unsigned char* w, size_t window);

// The byte sequence of window i of doc as the fingerprint sees it (padding and wrap-around), written
// to out (window bytes). For tests and documentation.
void bitflip_window_bytes(const unsigned char* doc, size_t len, size_t window, size_t i, unsigned char* out);

// Number of windows of a document of len bytes: max(len, window).
inline size_t bitflip_window_count(size_t len, size_t window) { return len > window ? len : window; }

}  // namespace ndd

#endif  // NDD_BITFLIP_HPP
