// simhash.cpp
//    Charikar's simhash over words, word shingles, character n-grams and weighted features.
#include "simhash.hpp"

#include <cmath>

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

uint64_t simhash_shingles(const char* doc, size_t len, size_t k, InterruptPoller& poller) {
    ShingleCursor shingles(doc, len, k);
    SimhashVoter voter;
    std::string_view s;
    uint64_t h;
    while (shingles.next(&s, &h, poller)) voter.add(h);
    return voter.result();
}

uint64_t simhash_chars(const TokenStream& ts, size_t n, InterruptPoller& poller) {
    if (n < 1) throw InvalidArgument("n-gram size must be at least 1");
    std::string_view text = ts.text();
    SimhashVoter voter;
    if (text.empty()) return voter.result();

    // Ring of the byte offsets of the last n+1 code point starts seen; the gram that ends just before
    // the newest start begins at the oldest one. The stream is valid UTF-8 (the tokenizer wrote it),
    // so a code point starts at every byte that is not a continuation byte.
    std::vector<size_t> ring(n + 1);
    size_t seen = 0;  // code points started so far
    const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
    size_t len = text.size();
    for (size_t i = 0; i < len; i++) {
        if ((p[i] & 0xC0) == 0x80) continue;
        poller.tick();
        if (seen >= n) {
            size_t start = ring[(seen - n) % (n + 1)];
            voter.add(hash64(text.substr(start, i - start), kFeatureSeed));
        }
        ring[seen % (n + 1)] = i;
        seen++;
    }
    // The last gram ends at the end of the text; with fewer than n code points it is the whole text.
    size_t start = seen >= n ? ring[(seen - n) % (n + 1)] : 0;
    voter.add(hash64(text.substr(start), kFeatureSeed));
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
