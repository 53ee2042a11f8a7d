// build_sort.cpp
//    The index build's batch sort (layout_api.h, ndd_build_entries_sort): a batch of entries of one
//    table ordered by bucket, stably, so that the build fills its pages one after the other instead
//    of appending each entry to a page at a random place of a large image.
#include "guard.hpp"
#include "layout_api.h"
#include "radix_sort.hpp"

extern "C" NddStatus ndd_build_entries_sort(NddBuildEntry* a, NddBuildEntry* tmp, size_t n, int bucket_bits,
                                            NddBuildEntry** sorted, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if (bucket_bits < 0 || bucket_bits > 32 || (n > 0 && (a == nullptr || tmp == nullptr)))
            throw ndd::InvalidArgument("bucket_bits out of range or no buffer");
        ndd::InterruptPoller poll(interrupt);
        *sorted = ndd::radix_sort(a, tmp, n, bucket_bits,
                                  [](const NddBuildEntry& e) { return static_cast<uint64_t>(e.bucket); }, poll);
    });
}
