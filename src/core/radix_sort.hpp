// radix_sort.hpp
//    A stable least-significant-digit radix sort on the low bits of a 64-bit key, used by the
//    batch all-pairs code and the index build's page phase: their keys are fixed-width bit strings, where a radix sort does a few
//    linear passes instead of n log n comparisons.
#ifndef NDD_RADIX_SORT_HPP
#define NDD_RADIX_SORT_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "guard.hpp"

namespace ndd {

// Sorts a[0..n) by key(a[i]) & ((1 << key_bits) - 1), stably, using tmp[0..n) as scratch.
// Returns the buffer that holds the sorted elements (a or tmp). key_bits is 0..64.
template <typename T, typename KeyFn>
T* radix_sort(T* a, T* tmp, size_t n, int key_bits, KeyFn key, InterruptPoller& poll) {
    constexpr int kDigit = 11;
    std::vector<size_t> count((size_t{1} << kDigit) + 1);
    for (int shift = 0; shift < key_bits; shift += kDigit) {
        int width = key_bits - shift < kDigit ? key_bits - shift : kDigit;
        uint64_t mask = (uint64_t{1} << width) - 1;
        size_t buckets = size_t{1} << width;
        std::fill(count.begin(), count.end(), 0);
        for (size_t i = 0; i < n; i++) {
            count[((key(a[i]) >> shift) & mask) + 1]++;
            poll.tick();
        }
        // A digit that is the same everywhere (e.g. the high digits of small keys) moves nothing.
        bool one_bucket = false;
        for (size_t b = 1; b <= buckets; b++)
            if (count[b] == n) one_bucket = true;
        if (one_bucket) continue;
        for (size_t b = 1; b <= buckets; b++) count[b] += count[b - 1];
        for (size_t i = 0; i < n; i++) {
            tmp[count[(key(a[i]) >> shift) & mask]++] = a[i];
            poll.tick();
        }
        T* swap = a;
        a = tmp;
        tmp = swap;
    }
    return a;
}

}  // namespace ndd

#endif  // NDD_RADIX_SORT_HPP
