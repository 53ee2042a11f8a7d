// wordlists.hpp
//    Pugh's word-list fingerprints (patent 6,658,423): every word goes to one of L lists chosen by its
//    hash, each list is fingerprinted, and two documents are near-duplicates when any fingerprint is
//    shared.
//
//    Pugh's edit model is "remove all occurrences of a word" or "add occurrences of a word", and a
//    moved block of text should not count, so a list's fingerprint is order-insensitive over the
//    list's DISTINCT words:
//      x      = XXH3(word, kFeatureSeed)            (the word's usual feature hash)
//      list   = high 64 bits of x * L               (0 .. L-1)
//      sum_j  = sum over distinct words of list j of mix64(x XOR kWordListSeed)   (mod 2^64)
//      fp_j   = (XXH3(sum_j as 8 little-endian bytes, kWordListSeed) with its low 8 bits
//                replaced by j)
//    The list number in the low 8 bits guarantees that fingerprints of different lists never collide.
//    Lists that received no word are left out: an empty list says nothing about a document, and
//    would otherwise match the same empty list of every other short document. The result holds one
//    fingerprint per non-empty list, in list order (so at most L, and none for a text without words).
//    Words are told apart by their 64-bit hash.
#ifndef NDD_WORDLISTS_HPP
#define NDD_WORDLISTS_HPP

#include <cstddef>
#include <cstdint>

#include "tokenize.hpp"

namespace ndd {

// Largest number of lists: the list number lives in the fingerprint's low 8 bits.
constexpr size_t kMaxWordLists = 256;

// Writes the fingerprints of the non-empty lists of document doc to out (room for `lists` values);
// returns how many. Reads doc token by token (TokenCursor), keeping the distinct words' hashes (and
// up to a million more between compactions), not the token stream.
size_t word_list_fingerprints(const char* doc, size_t len, size_t lists, uint64_t* out, InterruptPoller& poller,
                              Tokenizer tokenizer = Tokenizer::Words);

}  // namespace ndd

#endif  // NDD_WORDLISTS_HPP
