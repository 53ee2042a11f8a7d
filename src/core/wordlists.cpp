// wordlists.cpp
//    Pugh's word-list fingerprints (see wordlists.hpp for the definition).
#include "wordlists.hpp"

#include <algorithm>
#include <vector>

#include "hashing.hpp"

namespace ndd {

size_t word_list_fingerprints(const TokenStream& ts, size_t lists, uint64_t* out, InterruptPoller& poller) {
    if (lists < 1 || lists > kMaxWordLists) throw InvalidArgument("number of lists out of range");
    std::vector<uint64_t> words;
    words.reserve(ts.size());
    for (size_t i = 0; i < ts.size(); i++) {
        poller.tick();
        words.push_back(hash64(ts.token(i), kFeatureSeed));
    }
    poller.check();
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    poller.check();

    std::vector<uint64_t> sums(lists, 0);
    std::vector<bool> used(lists, false);
    for (uint64_t x : words) {
        size_t j = static_cast<size_t>(mul_high(x, lists));
        sums[j] += mix64(x ^ kWordListSeed);
        used[j] = true;
    }
    size_t count = 0;
    for (size_t j = 0; j < lists; j++) {
        if (!used[j]) continue;
        unsigned char bytes[8];
        store_le64(sums[j], bytes);
        uint64_t h = XXH3_64bits_withSeed(bytes, sizeof bytes, kWordListSeed);
        out[count++] = (h & ~uint64_t(0xFF)) | j;
    }
    return count;
}

}  // namespace ndd
