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

Fingerprint128 content_hash(const char* doc, size_t len, InterruptPoller& poller, Tokenizer tokenizer) {
    TokenCursor tokens(doc, len, tokenizer);
    XXH3_state_t state;
    XXH3_128bits_reset_withSeed(&state, kContentSeed);
    bool first = true;
    for (std::string_view t = tokens.next(poller); !t.empty(); t = tokens.next(poller)) {
        if (!first) XXH3_128bits_update(&state, " ", 1);
        XXH3_128bits_update(&state, t.data(), t.size());
        first = false;
    }
    XXH128_hash_t h = XXH3_128bits_digest(&state);
    return Fingerprint128{h.high64, h.low64};
}

}  // namespace ndd
