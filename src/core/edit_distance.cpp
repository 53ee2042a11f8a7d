// edit_distance.cpp
//    The banded, bit-parallel character edit distance described in edit_distance.hpp.
#include "edit_distance.hpp"

#include <algorithm>
#include <climits>
#include <utility>

#include "guard.hpp"
#include "tokenize.hpp"

namespace ndd {

namespace {

constexpr unsigned kWord = 64;
constexpr uint64_t kHighBit = uint64_t(1) << 63;

// Calls emit with each symbol of UTF-8 text: a code point, or 0x110000 + byte for a byte that
// starts no valid sequence (decode_utf8 of tokenize.hpp decides).
template <typename Emit>
void for_each_codepoint(const char* s, size_t len, Emit&& emit) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(s);
    const unsigned char* end = p + len;
    while (p < end) {
        uint32_t cp;
        size_t l = decode_utf8(p, end, &cp);
        emit(cp == kInvalidCodePoint ? kInvalidCodePoint + *p : cp);
        p += l;
    }
}

size_t blocks_of(size_t m) { return (m + kWord - 1) / kWord; }

// The match masks of the pattern: mask(id, b) has bit r set when pattern position 64 b + r holds the
// symbol id. Ids are dense (0 .. sigma - 1); id sigma is "in no pattern position".
class MatchMasks {
public:
    MatchMasks(const std::vector<uint32_t>& pattern, uint32_t sigma, MatchTable table, size_t total_len)
        : sigma_(sigma), blocks_(blocks_of(pattern.size())) {
        size_t dense_words = (static_cast<size_t>(sigma) + 1) * blocks_;
        dense_ = table == MatchTable::Dense ||
                 (table == MatchTable::Auto && dense_words <= std::max<size_t>(65536, total_len));
        if (dense_) {
            dense_masks_.assign(dense_words, 0);
            for (size_t i = 0; i < pattern.size(); i++)
                dense_masks_[static_cast<size_t>(pattern[i]) * blocks_ + i / kWord] |= uint64_t(1) << (i % kWord);
            return;
        }
        offsets_.reserve(blocks_ + 1);
        std::vector<std::pair<uint32_t, uint64_t>> block;
        for (size_t b = 0; b < blocks_; b++) {
            offsets_.push_back(static_cast<uint32_t>(ids_.size()));
            block.clear();
            size_t end = std::min(pattern.size(), (b + 1) * kWord);
            for (size_t i = b * kWord; i < end; i++) block.emplace_back(pattern[i], uint64_t(1) << (i % kWord));
            std::sort(block.begin(), block.end());
            for (size_t i = 0; i < block.size(); i++) {
                if (!ids_.empty() && ids_.size() > offsets_.back() && ids_.back() == block[i].first) {
                    masks_.back() |= block[i].second;
                } else {
                    ids_.push_back(block[i].first);
                    masks_.push_back(block[i].second);
                }
            }
        }
        offsets_.push_back(static_cast<uint32_t>(ids_.size()));
    }

    bool dense() const { return dense_; }
    // Dense tables: the masks of symbol id, one word per block.
    const uint64_t* dense_row(uint32_t id) const { return dense_masks_.data() + static_cast<size_t>(id) * blocks_; }

    uint64_t mask(uint32_t id, size_t b) const {
        if (dense_) return dense_masks_[static_cast<size_t>(id) * blocks_ + b];
        if (id == sigma_) return 0;
        const uint32_t* lo = ids_.data() + offsets_[b];
        const uint32_t* hi = ids_.data() + offsets_[b + 1];
        const uint32_t* at = std::lower_bound(lo, hi, id);
        return at != hi && *at == id ? masks_[at - ids_.data()] : 0;
    }

private:
    uint32_t sigma_;
    size_t blocks_;
    bool dense_;
    std::vector<uint64_t> dense_masks_;
    std::vector<uint32_t> offsets_;  // sparse: block b's entries are [offsets_[b], offsets_[b+1])
    std::vector<uint32_t> ids_;
    std::vector<uint64_t> masks_;
};

// One column step of a block of Myers' algorithm (Hyyrö's form) for the Levenshtein distance.
// pv/mv: the block's vertical +1 / -1 differences; eq: its match mask; hin: the horizontal
// difference entering at the top (-1, 0, +1). Returns the one leaving at the bottom.
// Both steps are branch-free: hin and hout follow the data, and a mispredicted branch per block and
// column would cost more than the step.
struct LevenshteinStep {
    int operator()(uint64_t& pv, uint64_t& mv, uint64_t eq, int hin) const {
        uint64_t hin_neg = static_cast<uint64_t>(hin < 0), hin_pos = static_cast<uint64_t>(hin > 0);
        uint64_t xv = eq | mv;
        eq |= hin_neg;
        uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
        uint64_t ph = mv | ~(xh | pv);
        uint64_t mh = pv & xh;
        int hout = static_cast<int>(ph >> 63) - static_cast<int>(mh >> 63);
        ph = (ph << 1) | hin_pos;
        mh = (mh << 1) | hin_neg;
        pv = mh | ~(xv | ph);
        mv = ph & xv;
        return hout;
    }
};

// One column step of a block of the bit-parallel LCS (Hyyrö 2004), read as the insert/delete
// distance D = i + j - 2 L. pv: bit set where D's vertical difference is +1 (L's is 0), clear where
// it is -1 (mv is its complement); hin: D's horizontal difference entering at the top (+1 or -1: an
// L carry of 0 or 1).
struct IndelStep {
    int operator()(uint64_t& pv, uint64_t& mv, uint64_t eq, int hin) const {
        uint64_t v = pv;
        uint64_t u = v & eq;
        uint64_t sum = v + u;
        uint64_t carry = static_cast<uint64_t>(sum < v);
        uint64_t sum2 = sum + static_cast<uint64_t>(hin < 0);
        carry |= static_cast<uint64_t>(sum2 < sum);
        pv = sum2 | (v & ~eq);
        mv = ~pv;
        return 1 - 2 * static_cast<int>(carry);
    }
};

class BandedDistance {
public:
    BandedDistance(const std::vector<uint32_t>& text, const std::vector<uint32_t>& pattern, const MatchMasks& masks,
                   unsigned cost, InterruptPoller& poller)
        : text_(text), m_(pattern.size()), masks_(masks), cost_(cost), poller_(poller), blocks_(blocks_of(m_)),
          pv_(blocks_), mv_(blocks_), score_(blocks_) {}

    // The distance when it is <= k, otherwise a value > k. Requires text length >= pattern length.
    // The distance when it is <= k, otherwise a value > k; *stopped_at: the column where every
    // cell of the band exceeded k (Ukkonen's cut-off), or 0.
    uint64_t run(uint64_t k, int64_t* stopped_at) {
        *stopped_at = 0;
        if (masks_.dense())
            return cost_ == 1 ? run_with<true>(k, LevenshteinStep(), stopped_at)
                              : run_with<true>(k, IndelStep(), stopped_at);
        return cost_ == 1 ? run_with<false>(k, LevenshteinStep(), stopped_at)
                          : run_with<false>(k, IndelStep(), stopped_at);
    }

private:
    template <bool Dense, typename Step>
    uint64_t run_with(uint64_t k, Step step, int64_t* stopped_at) {
        const int64_t n = static_cast<int64_t>(text_.size());
        const int64_t m = static_cast<int64_t>(m_);
        const int64_t s = n - m;
        if (static_cast<uint64_t>(s) > k) return k + 1;
        // diagonals j - i in [-half, s + half]; a band wider than the matrix is the matrix
        const int64_t half = static_cast<int64_t>(std::min<uint64_t>((k - static_cast<uint64_t>(s)) / 2,
                                                                     static_cast<uint64_t>(n + m)));
        auto block_of_row = [](int64_t row) { return (row - 1) / static_cast<int64_t>(kWord); };
        // column 0: D(i, 0) = i
        int64_t first = 0;
        int64_t last = block_of_row(std::min(m, std::max<int64_t>(1, half)));
        for (int64_t b = 0; b <= last; b++) start_block(b, static_cast<uint64_t>(b + 1) * kWord);
        size_t work = 0;
        for (int64_t j = 1; j <= n; j++) {
            int64_t new_first = block_of_row(std::max<int64_t>(1, j - (s + half)));
            int64_t new_last = block_of_row(std::min(m, j + half));
            while (last < new_last) {
                last++;
                start_block(last, score_[last - 1] + kWord);
            }
            if (new_first > first) first = std::min(new_first, last);
            uint32_t c = text_[j - 1];
            int hin = 1;  // row 0 (D(0, j) = j), or the over-estimate above a block left behind
            const uint64_t* row = Dense ? masks_.dense_row(c) : nullptr;
            for (int64_t b = first; b <= last; b++) {
                int hout = step(pv_[b], mv_[b], Dense ? row[b] : masks_.mask(c, b), hin);
                score_[b] += hout;
                hin = hout;
            }
            work += static_cast<size_t>(last - first + 1);
            while (work >= 64) {
                work -= 64;
                poller_.tick();
            }
            // Every 64 columns: when every cell of the band exceeds k, so does the last one (its
            // optimal path crosses this column inside the band, through cells <= its cost). A cell of
            // a block is at least its bottom score minus the block's +1 differences below it.
            if (j % 64 == 0) {
                int64_t low = INT64_MAX;
                for (int64_t b = first; b <= last; b++)
                    low = std::min<int64_t>(low, score_[b] - __builtin_popcountll(pv_[b]));
                if (low > static_cast<int64_t>(k)) {
                    *stopped_at = j;
                    return k + 1;
                }
            }
        }
        // the last block's rows past m are padding (they match nothing): take their differences
        // off the score of its bottom row
        size_t used = m_ - static_cast<size_t>(blocks_ - 1) * kWord;
        uint64_t pad = used == kWord ? 0 : ~uint64_t(0) << used;
        int64_t d = score_[blocks_ - 1] - __builtin_popcountll(pv_[blocks_ - 1] & pad) +
                    __builtin_popcountll(mv_[blocks_ - 1] & pad);
        return static_cast<uint64_t>(d);
    }

    void start_block(int64_t b, uint64_t bottom_score) {
        pv_[b] = ~uint64_t(0);
        mv_[b] = 0;
        score_[b] = static_cast<int64_t>(bottom_score);
    }

    const std::vector<uint32_t>& text_;
    size_t m_;
    const MatchMasks& masks_;
    unsigned cost_;
    InterruptPoller& poller_;
    size_t blocks_;
    std::vector<uint64_t> pv_, mv_;
    std::vector<int64_t> score_;
};

// Replaces the symbols of pattern by dense ids (0 .. sigma - 1) and those of text by the same ids, or
// sigma for a symbol not in pattern. Returns sigma. Code points below kDirect (the alphabets of most
// European scripts) are numbered through a table; only the others are sorted.
uint32_t to_ids(std::vector<uint32_t>& pattern, std::vector<uint32_t>& text, InterruptPoller& poller) {
    constexpr uint32_t kDirect = 4096, kNone = UINT32_MAX;
    std::vector<uint32_t> direct(kDirect, kNone);
    std::vector<uint32_t> large;
    for (uint32_t c : pattern) {
        if (c < kDirect)
            direct[c] = 0;
        else
            large.push_back(c);
    }
    uint32_t sigma = 0;
    for (auto& slot : direct)
        if (slot != kNone) slot = sigma++;
    std::sort(large.begin(), large.end());
    large.erase(std::unique(large.begin(), large.end()), large.end());
    large.shrink_to_fit();
    const uint32_t small = sigma;
    sigma += static_cast<uint32_t>(large.size());
    auto id = [&](uint32_t c) {
        if (c < kDirect) return direct[c] == kNone ? sigma : direct[c];
        auto at = std::lower_bound(large.begin(), large.end(), c);
        return at != large.end() && *at == c ? small + static_cast<uint32_t>(at - large.begin()) : sigma;
    };
    for (auto& c : pattern) {
        c = id(c);
        poller.tick();
    }
    for (auto& c : text) {
        c = id(c);
        poller.tick();
    }
    return sigma;
}

// The distance of two code point sequences it may modify (trimmed, renumbered).
uint64_t distance_of(std::vector<uint32_t>& a, std::vector<uint32_t>& b, unsigned cost, uint64_t bound,
                     InterruptPoller& poller, MatchTable table) {
    if (cost != 1 && cost != 2) throw InvalidArgument("substitution_cost must be 1 or 2");
    // a common prefix and suffix cost nothing (an optimal path keeps them aligned)
    size_t p = 0;
    while (p < a.size() && p < b.size() && a[p] == b[p]) p++;
    size_t q = 0;
    while (q < a.size() - p && q < b.size() - p && a[a.size() - 1 - q] == b[b.size() - 1 - q]) q++;
    a.erase(a.end() - q, a.end());
    b.erase(b.end() - q, b.end());
    a.erase(a.begin(), a.begin() + p);
    b.erase(b.begin(), b.begin() + p);
    std::vector<uint32_t>& text = a.size() >= b.size() ? a : b;
    std::vector<uint32_t>& pattern = a.size() >= b.size() ? b : a;
    const uint64_t n = text.size(), m = pattern.size();
    // the distance is at most this: substitute (cost 1) or delete and insert (cost 2) everything
    const uint64_t most = cost == 1 ? n : n + m;
    auto answer = [&](uint64_t d) { return d > bound ? bound + 1 : d; };
    if (m == 0) return answer(n);
    if (n - m > bound) return bound + 1;
    uint32_t sigma = to_ids(pattern, text, poller);
    MatchMasks masks(pattern, sigma, table, n + m);
    BandedDistance banded(text, pattern, masks, cost, poller);
    // Ukkonen's doubling: a band of k costs O(n k / 64); the first k that holds the answer costs
    // at most twice the last one. A run that stops at column j (every cell of its band above k)
    // suggests a distance near k n / j: the next band is at least that and a quarter.
    uint64_t limit = std::min(bound, most);
    uint64_t k = std::min(limit, std::max<uint64_t>(kWord, n - m));
    for (;;) {
        int64_t stopped_at;
        uint64_t d = banded.run(k, &stopped_at);
        if (d <= k) return answer(d);
        if (k >= limit) return bound + 1;
        uint64_t next = 2 * k;
        if (stopped_at > 0) {
            double guess = static_cast<double>(k) * static_cast<double>(n) / static_cast<double>(stopped_at) * 1.25;
            if (guess > static_cast<double>(next)) next = guess >= static_cast<double>(limit) ? limit : static_cast<uint64_t>(guess);
        }
        // a band of half the pattern or more costs about what the whole matrix costs
        if (next + 1 >= m / 2) next = limit;
        k = std::min(limit, next);
    }
}

}  // namespace

std::vector<uint32_t> utf8_codepoints(const char* s, size_t len) {
    std::vector<uint32_t> out;
    out.reserve(utf8_codepoint_count(s, len));
    for_each_codepoint(s, len, [&](uint32_t c) { out.push_back(c); });
    return out;
}

size_t utf8_codepoint_count(const char* s, size_t len) {
    size_t n = 0;
    for_each_codepoint(s, len, [&](uint32_t) { n++; });
    return n;
}

uint64_t edit_distance_codepoints(const uint32_t* a, size_t n, const uint32_t* b, size_t m, unsigned substitution_cost,
                                  uint64_t bound, InterruptPoller& poller, MatchTable table) {
    std::vector<uint32_t> va(a, a + n), vb(b, b + m);
    return distance_of(va, vb, substitution_cost, bound, poller, table);
}

uint64_t edit_distance_codepoints_in_place(std::vector<uint32_t>& a, std::vector<uint32_t>& b,
                                           unsigned substitution_cost, uint64_t bound, InterruptPoller& poller) {
    return distance_of(a, b, substitution_cost, bound, poller, MatchTable::Auto);
}

size_t edit_distance_bytes(size_t na, size_t nb) {
    size_t lo = std::min(na, nb), total = na + nb, blocks = blocks_of(lo) + 1;
    size_t dense = 8 * std::max<size_t>(65536, total) + 8 * blocks;
    size_t sparse = 12 * lo + 8 * blocks;
    // both texts' code points, the sorted alphabet, the blocks' state, the masks
    return 4 * total + 4 * lo + 24 * blocks + std::max(dense, sparse) + 4096;
}

double edit_similarity_of(uint64_t distance, size_t n, size_t m, unsigned substitution_cost) {
    double denominator = substitution_cost == 1 ? static_cast<double>(std::max(n, m)) : static_cast<double>(n + m);
    if (denominator == 0) return 1.0;
    return 1.0 - static_cast<double>(distance) / denominator;
}

}  // namespace ndd
