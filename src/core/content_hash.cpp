// content_hash.cpp
//    The 128-bit hash of the normalized token stream.
#include "content_hash.hpp"

#include "hashing.hpp"

namespace ndd {

Fingerprint128 content_hash(const TokenStream& ts) {
    std::string_view s = ts.text();
    XXH128_hash_t h = XXH3_128bits_withSeed(s.data(), s.size(), kContentSeed);
    return Fingerprint128{h.high64, h.low64};
}

}  // namespace ndd
