// pair_list.hpp
//    How the all-pairs functions hand their result over the C boundary: sorted by (a, b), copied
//    into memory from the caller's allocator.
#ifndef NDD_PAIR_LIST_HPP
#define NDD_PAIR_LIST_HPP

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "batch_pairs_api.h"

namespace ndd {

// Sorts v by (a, b) and copies it into memory from alloc; *pairs is NULL for an empty list.
inline void hand_over_pairs(std::vector<NddPair>& v, NddAllocFn alloc, NddPair** pairs,
                            size_t* npairs) {
    std::sort(v.begin(), v.end(), [](const NddPair& x, const NddPair& y) {
        return x.a != y.a ? x.a < y.a : x.b < y.b;
    });
    *pairs = nullptr;
    *npairs = v.size();
    if (v.empty()) return;
    void* mem = alloc(v.size() * sizeof(NddPair));
    if (!mem) throw std::bad_alloc();
    std::memcpy(mem, v.data(), v.size() * sizeof(NddPair));
    *pairs = static_cast<NddPair*>(mem);
}

}  // namespace ndd

#endif  // NDD_PAIR_LIST_HPP
