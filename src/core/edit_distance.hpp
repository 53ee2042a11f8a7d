// edit_distance.hpp
//    The character edit distance of two texts: over code points (never bytes), bit-parallel, with an
//    optional bound that stops early.
//
//    Levenshtein (substitution cost 1) runs Myers' bit-vector algorithm (Myers 1999) in Hyyrö's
//    multi-word block form (Hyyrö 2003): the shorter text is the pattern, cut into blocks of 64 code
//    points; each code point of the longer text advances every active block by one column in a
//    dozen word operations. The insert/delete distance (substitution cost 2) is n + m - 2 LCS with
//    the LCS computed by the bit-parallel recurrence of Allison-Dix / Hyyrö (2004) over the same
//    blocks.
//
//    The band. A cell (i, j) of the dynamic program (row i of the pattern, column j of the text) lies
//    on an edit path of cost <= k only if |j - i| + |(n - m) - (j - i)| <= k: reaching its diagonal
//    costs |j - i| and leaving it for the last cell's diagonal costs the rest. So with a bound k only
//    the blocks holding those rows are computed, about k / 64 + 2 of them per column, entering at
//    the bottom with every vertical difference +1 and leaving at the top with a horizontal input of
//    +1. Both over-estimate the cells they replace (the true differences are at most +1) and the
//    dynamic program is monotone in its inputs, so every computed cell is >= its true value, and the
//    cells of a path of cost <= k (all inside the band) are exact: the answer is exact when it is
//    <= k, and > k otherwise. Without a bound, k starts at 64 (or |n - m|) and doubles until the
//    answer fits (Ukkonen's doubling): time O(n * d / 64) for distance d, at worst O(n * m / 64).
//
//    Memory: 4 bytes per code point of each text, 16 bytes per block of the pattern, and the match
//    masks: one 64-bit word per (distinct code point of the pattern, block) when that is small (the
//    usual case: a few hundred distinct letters), otherwise per block a sorted list of its distinct
//    code points and their masks (at most 12 bytes per pattern code point), found by binary search.
//    edit_distance_bytes gives the figure before the work starts.
#ifndef NDD_EDIT_DISTANCE_HPP
#define NDD_EDIT_DISTANCE_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "guard.hpp"

namespace ndd {

// "No bound": edit_distance_codepoints computes the exact distance.
constexpr uint64_t kNoEditBound = UINT64_MAX;

// How the match masks are stored (Auto chooses by size; tests force either).
enum class MatchTable { Auto, Dense, Sparse };

// The code points of UTF-8 text. A byte that does not start a valid sequence is its own symbol
// (0x110000 + byte), so invalid input is compared byte by byte and never merged with a character.
std::vector<uint32_t> utf8_codepoints(const char* s, size_t len);

// Number of code points utf8_codepoints gives, without allocating.
size_t utf8_codepoint_count(const char* s, size_t len);

// The edit distance of a and b (insertions and deletions cost 1, a substitution substitution_cost,
// 1 or 2), or bound + 1 when it exceeds bound (kNoEditBound: no bound).
uint64_t edit_distance_codepoints(const uint32_t* a, size_t n, const uint32_t* b, size_t m, unsigned substitution_cost,
                                  uint64_t bound, InterruptPoller& poller, MatchTable table = MatchTable::Auto);

// The same over sequences it may change (trims and renumbers them in place: no copy).
uint64_t edit_distance_codepoints_in_place(std::vector<uint32_t>& a, std::vector<uint32_t>& b,
                                           unsigned substitution_cost, uint64_t bound, InterruptPoller& poller);

// An upper bound of the heap bytes ndd_edit_distance (distance_api.h) needs for texts of na and nb code points.
size_t edit_distance_bytes(size_t na, size_t nb);

// The normalized similarity: 1 - d / max(n, m) for substitution cost 1 (the Levenshtein distance is
// at most the longer length), 1 - d / (n + m) for cost 2 (the insert/delete distance is at most the
// sum); 1 when both are empty.
double edit_similarity_of(uint64_t distance, size_t n, size_t m, unsigned substitution_cost);

}  // namespace ndd

#endif  // NDD_EDIT_DISTANCE_HPP
