// simhash.cpp
//    Charikar's simhash over words, word shingles, character n-grams and weighted features.
#include "simhash.hpp"

#include <cmath>
#include <deque>
#include <string>

#include "hashing.hpp"

namespace ndd {

void SimhashVoter::flush() {
    for (int j = 0; j < 8; j++) {
        uint64_t lane = lanes_[j];
        for (int k = 0; k < 8; k++) ones_[8 * k + j] += (lane >> (8 * k)) & 0xFF;
        lanes_[j] = 0;
    }
    total_ += pending_;
    pending_ = 0;
}

uint64_t SimhashVoter::result() {
    flush();
    uint64_t fp = 0;
    for (int i = 0; i < 64; i++) {
        // votes for = ones, against = total - ones; the sum is positive iff ones > total - ones.
        if (ones_[i] > total_ - ones_[i]) fp |= uint64_t(1) << i;
    }
    return fp;
}

uint64_t WeightedSimhashVoter::result() const {
    uint64_t fp = 0;
    for (int i = 0; i < 64; i++)
        if (sums_[i] > 0) fp |= uint64_t(1) << i;
    return fp;
}

uint64_t simhash_shingles(const TokenStream& ts, size_t k, InterruptPoller& poller) {
    if (k < 1) throw InvalidArgument("shingle size must be at least 1");
    SimhashVoter voter;
    for_each_shingle(ts, k, poller, [&](std::string_view s) { voter.add(hash64(s, kFeatureSeed)); });
    return voter.result();
}

uint64_t simhash_shingles(const char* doc, size_t len, size_t k, InterruptPoller& poller, Tokenizer tokenizer) {
    ShingleCursor shingles(doc, len, k, tokenizer);
    SimhashVoter voter;
    std::string_view s;
    uint64_t h;
    while (shingles.next(&s, &h, poller)) voter.add(h);
    return voter.result();
}

uint64_t simhash_chars(const char* doc, size_t len, size_t n, InterruptPoller& poller, Tokenizer tokenizer) {
    if (n < 1) throw InvalidArgument("n-gram size must be at least 1");
    TokenCursor tokens(doc, len, tokenizer);
    SimhashVoter voter;
    // The window: the last (up to) n code points of the stream, buf[start..); lens holds their byte
    // lengths, oldest first. The stream is valid UTF-8 (the tokenizer wrote it), so a code point
    // starts at every byte that is not a continuation byte. Dropped bytes are erased only once they
    // are half of buf, so each byte is moved O(1) times.
    std::string buf;
    size_t start = 0;
    std::deque<unsigned char> lens;
    size_t seen = 0;  // code points so far
    auto push = [&](const char* p, size_t cp_len) {
        if (lens.size() == n) {
            start += lens.front();
            lens.pop_front();
        }
        if (start >= 4096 && 2 * start >= buf.size()) {
            buf.erase(0, start);
            start = 0;
        }
        buf.append(p, cp_len);
        lens.push_back(static_cast<unsigned char>(cp_len));
        seen++;
        if (lens.size() == n) voter.add(hash64(std::string_view(buf).substr(start), kFeatureSeed));
    };
    for (std::string_view t = tokens.next(poller); !t.empty(); t = tokens.next(poller)) {
        if (seen > 0) push(" ", 1);
        for (size_t i = 0; i < t.size();) {
            size_t j = i + 1;
            while (j < t.size() && (static_cast<unsigned char>(t[j]) & 0xC0) == 0x80) j++;
            push(t.data() + i, j - i);
            i = j;
        }
    }
    // With fewer than n code points the one gram is the whole text; an empty text has none.
    if (seen > 0 && seen < n) voter.add(hash64(buf, kFeatureSeed));
    return voter.result();
}

uint64_t simhash_features(size_t count, const char* const* items, const size_t* lens, const double* weights,
                          InterruptPoller& poller) {
    if (!weights) {
        SimhashVoter voter;
        for (size_t i = 0; i < count; i++) {
            poller.tick();
            voter.add(hash64(std::string_view(items[i], lens[i]), kFeatureSeed));
        }
        return voter.result();
    }
    WeightedSimhashVoter voter;
    for (size_t i = 0; i < count; i++) {
        poller.tick();
        if (!std::isfinite(weights[i])) throw InvalidArgument("weights must be finite");
        voter.add(hash64(std::string_view(items[i], lens[i]), kFeatureSeed), weights[i]);
    }
    return voter.result();
}

}  // namespace ndd
