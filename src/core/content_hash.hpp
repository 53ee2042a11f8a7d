// content_hash.hpp
//    The exact-duplicate key: a 128-bit hash of the normalized token stream, so texts that differ only
//    in case, punctuation or spacing get the same key.
#ifndef NDD_CONTENT_HASH_HPP
#define NDD_CONTENT_HASH_HPP

#include "hashing.hpp"
#include "tokenize.hpp"

namespace ndd {

// XXH3_128bits of ts.text() (the tokens joined by single spaces) with seed kContentSeed; hi is the
// high 64 bits of the 128-bit result, lo the low 64. A text without words hashes the empty string.
Fingerprint128 content_hash(const TokenStream& ts);

// The same for document doc, read token by token (TokenCursor): memory does not grow with it.
Fingerprint128 content_hash(const char* doc, size_t len, InterruptPoller& poller,
                            Tokenizer tokenizer = Tokenizer::Words);

}  // namespace ndd

#endif  // NDD_CONTENT_HASH_HPP
