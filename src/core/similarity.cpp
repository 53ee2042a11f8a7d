// similarity.cpp
//    Exact shingle-set overlap and word edit distance.
#include "similarity.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hashing.hpp"

namespace ndd {

namespace {

constexpr uint32_t kInfinity = 0x7fffffff;

// Edit distance if it is at most k, else k+1: dynamic programming restricted to the cells within k of
// the diagonal (every step off the diagonal costs 1, so a path of cost <= k never leaves them). Rows run over b (the longer, m tokens), the one
// row array over a (n tokens), so memory is O(n). Requires n <= m and k >= m - n.
size_t banded_distance(const uint32_t* a, size_t n, const uint32_t* b, size_t m, size_t k, uint32_t sub,
                       InterruptPoller& poller) {
    std::vector<uint32_t> row(n + 1, kInfinity);
    for (size_t j = 0; j <= n && j <= k; j++) row[j] = static_cast<uint32_t>(j);
    size_t cells = 0;
    for (size_t i = 1; i <= m; i++) {
        size_t lo = i > k ? i - k : 0;
        size_t hi = std::min(n, i + k);
        uint32_t diag, left;
        size_t j;
        if (lo == 0) {
            diag = row[0];
            row[0] = static_cast<uint32_t>(i);
            left = row[0];
            j = 1;
        } else {
            diag = row[lo - 1];  // the previous row's leftmost band cell
            left = kInfinity;
            j = lo;
        }
        uint32_t row_min = lo == 0 ? row[0] : kInfinity;
        uint32_t bi = b[i - 1];
        for (; j <= hi; j++) {
            uint32_t up = row[j];  // kInfinity at j = i+k: outside the previous row's band
            uint32_t v = diag + (a[j - 1] != bi ? sub : 0);
            v = std::min(v, std::min(up, left) + 1);
            diag = up;
            row[j] = v;
            left = v;
            row_min = std::min(row_min, v);
        }
        if (row_min > k) return k + 1;  // every path through this row already costs more than k
        cells += hi - lo + 1;
        if (cells >= (1u << 20)) {
            cells = 0;
            poller.check();
        }
    }
    return row[n] > k ? k + 1 : row[n];
}

// Hash of a token for the interning map.
struct TokenHash {
    size_t operator()(std::string_view s) const { return static_cast<size_t>(hash64(s, kFeatureSeed)); }
};

}  // namespace

ShingleSet::ShingleSet(const TokenStream& ts, size_t k, InterruptPoller& poller) : base_(ts.text().data()) {
    if (k < 1) throw InvalidArgument("shingle size must be at least 1");
    refs_.reserve(shingle_count(ts.size(), k));
    for_each_shingle(ts, k, poller, [&](std::string_view s) {
        refs_.push_back(
            {hash64(s, kFeatureSeed), static_cast<uint32_t>(s.data() - base_), static_cast<uint32_t>(s.size())});
    });
    poller.check();
    std::sort(refs_.begin(), refs_.end(), [&](const Ref& x, const Ref& y) {
        if (x.hash != y.hash) return x.hash < y.hash;
        return text(x) < text(y);
    });
    poller.check();
    refs_.erase(std::unique(refs_.begin(), refs_.end(),
                            [&](const Ref& x, const Ref& y) { return x.hash == y.hash && text(x) == text(y); }),
                refs_.end());
}

size_t ShingleSet::intersection(const ShingleSet& other, InterruptPoller& poller) const {
    size_t inter = 0;
    size_t i = 0, j = 0;
    while (i < refs_.size() && j < other.refs_.size()) {
        poller.tick();
        const Ref& x = refs_[i];
        const Ref& y = other.refs_[j];
        int c;
        if (x.hash != y.hash)
            c = x.hash < y.hash ? -1 : 1;
        else
            c = text(x).compare(other.text(y));
        if (c < 0)
            i++;
        else if (c > 0)
            j++;
        else {
            inter++;
            i++;
            j++;
        }
    }
    return inter;
}

ShingleOverlap shingle_overlap(const TokenStream& a, const TokenStream& b, size_t k, InterruptPoller& poller) {
    ShingleSet sa(a, k, poller);
    ShingleSet sb(b, k, poller);
    return ShingleOverlap{sa.size(), sb.size(), sa.intersection(sb, poller)};
}

size_t shingle_set_bytes(const char* doc, size_t len, size_t k, InterruptPoller& poller, Tokenizer tokenizer) {
    if (k < 1) throw InvalidArgument("shingle size must be at least 1");
    TokenCursor cursor(doc, len, tokenizer);
    size_t n = 0, bytes = 0;
    for (std::string_view t = cursor.next(poller); !t.empty(); t = cursor.next(poller)) {
        n++;
        bytes += t.size() + 1;
    }
    // TokenStream allocates 1.5 * len for its text but touches only what it writes; its offsets
    // vector grows by doubling, so up to twice 4 bytes per token.
    return bytes + 8 * n + sizeof(uint64_t) * 2 * shingle_count(n, k);
}

size_t edit_distance_ids(const uint32_t* a, size_t n, const uint32_t* b, size_t m, unsigned substitution_cost,
                         InterruptPoller& poller) {
    if (substitution_cost != 1 && substitution_cost != 2) throw InvalidArgument("substitution cost must be 1 or 2");
    // Common prefix and suffix cost nothing and are common between near-duplicates.
    while (n > 0 && m > 0 && a[0] == b[0]) {
        a++;
        b++;
        n--;
        m--;
    }
    while (n > 0 && m > 0 && a[n - 1] == b[m - 1]) {
        n--;
        m--;
    }
    if (n > m) {
        std::swap(a, b);
        std::swap(n, m);
    }
    if (n == 0) return m;
    size_t k = std::max<size_t>(m - n, 16);
    for (;;) {
        // A band of m already covers the whole table; the bound n + m (every token deleted and
        // inserted) lets the result be as large as it can be with either substitution cost.
        if (k >= m) return banded_distance(a, n, b, m, n + m, substitution_cost, poller);
        size_t d = banded_distance(a, n, b, m, k, substitution_cost, poller);
        if (d <= k) return d;
        k *= 2;
    }
}

size_t word_edit_distance(const char* a, size_t alen, const char* b, size_t blen, unsigned substitution_cost,
                          InterruptPoller& poller, Tokenizer tokenizer) {
    // Tokens become small integers (equal strings, equal ids) so the inner loop compares integers.
    // They are read with a TokenCursor, so what is kept is 4 bytes per token and each distinct token
    // once, not the two token streams.
    std::unordered_map<std::string, uint32_t, TokenHash> ids;
    auto intern = [&](const char* doc, size_t len) {
        TokenCursor tokens(doc, len, tokenizer);
        std::vector<uint32_t> out;
        for (std::string_view t = tokens.next(poller); !t.empty(); t = tokens.next(poller)) {
            auto it = ids.find(std::string(t));
            if (it == ids.end()) it = ids.emplace(std::string(t), static_cast<uint32_t>(ids.size())).first;
            out.push_back(it->second);
        }
        out.shrink_to_fit();
        return out;
    };
    std::vector<uint32_t> ia = intern(a, alen);
    std::vector<uint32_t> ib = intern(b, blen);
    return edit_distance_ids(ia.data(), ia.size(), ib.data(), ib.size(), substitution_cost, poller);
}

}  // namespace ndd
