// cosine.cpp
//    The exact term-frequency cosine of cosine.hpp.
#include "cosine.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "hashing.hpp"

namespace ndd {

namespace {

// One text's shingles with their counts, sorted by (hash, text): equal strings adjacent, so two
// texts' vectors are multiplied by merging.
class TermCounts {
public:
    TermCounts(const TokenStream& ts, size_t k, InterruptPoller& poller) : base_(ts.text().data()) {
        if (k < 1) throw InvalidArgument("shingle size must be at least 1");
        std::vector<Ref> refs;
        refs.reserve(shingle_count(ts.size(), k));
        for_each_shingle(ts, k, poller, [&](std::string_view s) {
            refs.push_back({hash64(s, kFeatureSeed), static_cast<uint32_t>(s.data() - base_),
                            static_cast<uint32_t>(s.size()), 1});
        });
        poller.check();
        std::sort(refs.begin(), refs.end(), [&](const Ref& x, const Ref& y) {
            if (x.hash != y.hash) return x.hash < y.hash;
            return text(x) < text(y);
        });
        poller.check();
        for (const Ref& r : refs) {
            if (!terms_.empty() && terms_.back().hash == r.hash && text(terms_.back()) == text(r))
                terms_.back().count++;
            else
                terms_.push_back(r);
        }
    }

    uint64_t norm2() const {
        uint64_t sum = 0;
        for (const Ref& r : terms_) sum += static_cast<uint64_t>(r.count) * r.count;
        return sum;
    }

    uint64_t dot(const TermCounts& other, InterruptPoller& poller) const {
        uint64_t sum = 0;
        size_t i = 0, j = 0;
        while (i < terms_.size() && j < other.terms_.size()) {
            poller.tick();
            const Ref& x = terms_[i];
            const Ref& y = other.terms_[j];
            int c = x.hash != y.hash ? (x.hash < y.hash ? -1 : 1) : text(x).compare(other.text(y));
            if (c < 0) {
                i++;
            } else if (c > 0) {
                j++;
            } else {
                sum += static_cast<uint64_t>(x.count) * y.count;
                i++;
                j++;
            }
        }
        return sum;
    }

private:
    struct Ref {
        uint64_t hash;
        uint32_t offset;
        uint32_t length;
        uint32_t count;
    };
    std::string_view text(const Ref& r) const { return std::string_view(base_ + r.offset, r.length); }
    const char* base_;
    std::vector<Ref> terms_;
};

}  // namespace

TermProducts term_products(const TokenStream& a, const TokenStream& b, size_t k, InterruptPoller& poller) {
    TermCounts ca(a, k, poller);
    TermCounts cb(b, k, poller);
    return TermProducts{ca.dot(cb, poller), ca.norm2(), cb.norm2()};
}

double cosine_of(const TermProducts& p) {
    if (p.norm2_a == 0 && p.norm2_b == 0) return 1.0;
    if (p.norm2_a == 0 || p.norm2_b == 0) return 0.0;
    // one correctly rounded square root of the exact product while a double holds it exactly
    // ("a a b" against "a b b" is then 4 / 5 = 0.8, not 4 / (sqrt 5 sqrt 5))
    unsigned __int128 product = static_cast<unsigned __int128>(p.norm2_a) * p.norm2_b;
    double denominator = product <= (static_cast<unsigned __int128>(1) << 53)
                             ? std::sqrt(static_cast<double>(static_cast<uint64_t>(product)))
                             : std::sqrt(static_cast<double>(p.norm2_a)) * std::sqrt(static_cast<double>(p.norm2_b));
    double c = static_cast<double>(p.dot) / denominator;
    return std::min(c, 1.0);
}

}  // namespace ndd
