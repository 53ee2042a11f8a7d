// wordlists.cpp
//    Pugh's word-list fingerprints (see wordlists.hpp for the definition).
#include "wordlists.hpp"

#include <algorithm>
#include <vector>

#include "hashing.hpp"

namespace ndd {

size_t word_list_fingerprints(const char* doc, size_t len, size_t lists, uint64_t* out, InterruptPoller& poller,
                              Tokenizer tokenizer) {
    if (lists < 1 || lists > kMaxWordLists) throw InvalidArgument("number of lists out of range");
    TokenCursor tokens(doc, len, tokenizer);
    std::vector<uint64_t> words;
    size_t distinct = 0;  // words[0..distinct) is sorted and without repeats
    auto compact = [&]() {
        poller.check();
        std::sort(words.begin() + static_cast<std::ptrdiff_t>(distinct), words.end());
        std::inplace_merge(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(distinct), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        distinct = words.size();
        poller.check();
    };
    for (std::string_view t = tokens.next(poller); !t.empty(); t = tokens.next(poller)) {
        words.push_back(hash64(t, kFeatureSeed));
        if (words.size() - distinct >= (size_t(1) << 20)) compact();
    }
    compact();

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
