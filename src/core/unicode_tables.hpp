// unicode_tables.hpp
//    Lookups into the generated Unicode tables (unicode_tables.cpp, made by gen_unicode_tables.py):
//    which code points are letters or digits, their lowercase, and the two properties final sigma
//    needs. All of it is read off Python's str methods, because the ground truth was made in Python.
#ifndef NDD_UNICODE_TABLES_HPP
#define NDD_UNICODE_TABLES_HPP

#include <cstddef>
#include <cstdint>

namespace ndd {
namespace unicode {

struct CodeRange {
    uint32_t lo;
    uint32_t hi;  // inclusive
};

constexpr uint32_t kMaxCodePoint = 0x10FFFF;

extern const char kUnicodeVersion[];
extern const uint16_t kAlnumIndex[0x1100];
extern const uint64_t kAlnumBlocks[][4];
extern const uint16_t kLowerIndex[0x1100];
extern const int32_t kLowerBlocks[][256];
extern const CodeRange kCaseIgnorable[];
extern const size_t kCaseIgnorableCount;
extern const CodeRange kCased[];
extern const size_t kCasedCount;

// True for what Python's str.isalnum() accepts (letters, and digits and numbers of every kind).
inline bool is_alnum(uint32_t cp) {
    if (cp > kMaxCodePoint) return false;
    const uint64_t* block = kAlnumBlocks[kAlnumIndex[cp >> 8]];
    return (block[(cp >> 6) & 3] >> (cp & 63)) & 1;
}

// The one-code-point lowercase of cp (cp itself when it has none). U+0130 and U+03A3 are the
// caller's business: their lowercase is two code points or depends on context.
inline uint32_t to_lower_simple(uint32_t cp) {
    if (cp > kMaxCodePoint) return cp;
    return static_cast<uint32_t>(static_cast<int32_t>(cp) + kLowerBlocks[kLowerIndex[cp >> 8]][cp & 255]);
}

// Binary search in a sorted list of disjoint ranges.
inline bool in_ranges(const CodeRange* ranges, size_t count, uint32_t cp) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < ranges[mid].lo)
            hi = mid;
        else if (cp > ranges[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

// Case_Ignorable as Python's final-sigma rule sees it (a character both cased and case-ignorable
// counts as case-ignorable, since the rule skips it).
inline bool is_case_ignorable(uint32_t cp) { return in_ranges(kCaseIgnorable, kCaseIgnorableCount, cp); }

// Cased (and not case-ignorable).
inline bool is_cased(uint32_t cp) { return in_ranges(kCased, kCasedCount, cp); }

}  // namespace unicode
}  // namespace ndd

#endif  // NDD_UNICODE_TABLES_HPP
