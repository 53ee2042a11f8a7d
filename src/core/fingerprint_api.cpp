// fingerprint_api.cpp
//    The extern "C" boundary of the fingerprint functions: argument checks, then the C++ core inside
//    ndd::guarded so no exception crosses into PostgreSQL.
#include "fingerprint_api.h"

#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "bitflip.hpp"
#include "content_hash.hpp"
#include "guard.hpp"
#include "minhash.hpp"
#include "similarity.hpp"
#include "simhash.hpp"
#include "tokenize.hpp"
#include "tokenizer_api.h"
#include "unicode_tables.hpp"
#include "word_breaks.hpp"
#include "wordlists.hpp"

static_assert(NDD_MAX_MINHASHES == ndd::kMaxMinhashes, "limits must agree");
static_assert(NDD_MAX_BITFLIP_WINDOW == ndd::kMaxBitflipWindow, "limits must agree");
static_assert(NDD_MAX_BITFLIP_SAMPLES == ndd::kMaxBitflipSamples, "limits must agree");
static_assert(NDD_MAX_WORD_LISTS == ndd::kMaxWordLists, "limits must agree");
static_assert(sizeof(int64_t) == sizeof(uint64_t), "sketch values are bit-cast");

namespace {

// Throws InvalidArgument unless lo <= v <= hi.
void require_range(int64_t v, int64_t lo, int64_t hi, const char* what) {
    if (v < lo || v > hi) throw ndd::InvalidArgument(what);
}

// Throws InvalidArgument for a null pointer to a non-empty buffer.
void require_buffer(const void* p, size_t len) {
    if (!p && len > 0) throw ndd::InvalidArgument("null buffer");
}

// The token stream of a text argument.
void tokenize_arg(ndd::TokenStream& ts, const char* doc, size_t len, ndd::InterruptPoller& poller, int32_t tokenizer) {
    require_buffer(doc, len);
    ts.tokenize(len ? doc : "", len, poller, ndd::tokenizer_of(tokenizer));
}

// Sketch values cross the boundary as int64 (SQL bigint) and are unsigned inside.
std::vector<uint64_t> as_unsigned(const int64_t* v, size_t n) {
    std::vector<uint64_t> out(n);
    if (n) std::memcpy(out.data(), v, n * sizeof(uint64_t));
    return out;
}

}  // namespace

extern "C" {

NDD_API NddStatus ndd_fp_simhash_text(const char* doc, size_t len, int32_t shingle, uint64_t* out,
                                   int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(shingle, 1, NDD_MAX_SHINGLE, "shingle");
        require_buffer(doc, len);
        ndd::InterruptPoller poller(interrupt);
        *out = ndd::simhash_shingles(doc, len, static_cast<size_t>(shingle), poller, ndd::tokenizer_of(tokenizer));
    });
}

NDD_API NddStatus ndd_fp_simhash_chars(const char* doc, size_t len, int32_t n, uint64_t* out, int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(n, 1, NDD_MAX_SHINGLE, "n");
        require_buffer(doc, len);
        ndd::InterruptPoller poller(interrupt);
        *out = ndd::simhash_chars(doc, len, static_cast<size_t>(n), poller, ndd::tokenizer_of(tokenizer));
    });
}

NDD_API NddStatus ndd_fp_simhash_features(size_t count, const char* const* items, const size_t* lens,
                                       const double* weights, uint64_t* out, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_buffer(items, count);
        require_buffer(lens, count);
        ndd::InterruptPoller poller(interrupt);
        *out = ndd::simhash_features(count, items, lens, weights, poller);
    });
}

NDD_API NddStatus ndd_fp_simhash_sequence(size_t count, const char* const* items, const size_t* lens, int32_t shingle,
                                       uint64_t* out, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(shingle, 1, NDD_MAX_SHINGLE, "shingle");
        require_buffer(items, count);
        require_buffer(lens, count);
        ndd::InterruptPoller poller(interrupt);
        ndd::TokenStream ts;
        ts.assign(count, items, lens, poller);
        *out = ndd::simhash_shingles(ts, static_cast<size_t>(shingle), poller);
    });
}

NDD_API NddStatus ndd_fp_shingle_minhash(const char* doc, size_t len, int32_t shingle, int32_t hashes, int64_t* out,
                                      int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(shingle, 1, NDD_MAX_SHINGLE, "shingle");
        require_range(hashes, 1, NDD_MAX_MINHASHES, "hashes");
        require_buffer(doc, len);
        ndd::InterruptPoller poller(interrupt);
        uint64_t sketch[ndd::kMaxMinhashes];
        ndd::shingle_minhash(doc, len, static_cast<size_t>(shingle), static_cast<size_t>(hashes), sketch, poller,
                             ndd::tokenizer_of(tokenizer));
        std::memcpy(out, sketch, static_cast<size_t>(hashes) * sizeof(uint64_t));
    });
}

NDD_API NddStatus ndd_fp_minhash_similarity(const int64_t* a, const int64_t* b, size_t n, double* out) {
    return ndd::guarded([&] {
        require_buffer(a, n);
        require_buffer(b, n);
        std::vector<uint64_t> ua = as_unsigned(a, n), ub = as_unsigned(b, n);
        *out = ndd::minhash_similarity(ua.data(), ub.data(), n);
    });
}

NDD_API NddStatus ndd_fp_supershingles(const int64_t* sketch, size_t n, int32_t groups, int64_t* out) {
    return ndd::guarded([&] {
        require_buffer(sketch, n);
        require_range(groups, 1, static_cast<int64_t>(n), "groups");
        std::vector<uint64_t> s = as_unsigned(sketch, n);
        std::vector<uint64_t> result(static_cast<size_t>(groups));
        ndd::supershingles(s.data(), n, static_cast<size_t>(groups), result.data());
        std::memcpy(out, result.data(), result.size() * sizeof(uint64_t));
    });
}

NDD_API NddStatus ndd_fp_features_shared(const int64_t* a, size_t na, const int64_t* b, size_t nb, int32_t* out,
                                      NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_buffer(a, na);
        require_buffer(b, nb);
        ndd::InterruptPoller poller(interrupt);
        std::vector<uint64_t> ua = as_unsigned(a, na), ub = as_unsigned(b, nb);
        *out = static_cast<int32_t>(ndd::features_shared(ua.data(), na, ub.data(), nb, poller));
    });
}

NDD_API NddStatus ndd_fp_bitflip_fp(const char* doc, size_t len, int32_t window, int32_t samples, NddFp128* out,
                                 NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_buffer(doc, len);
        require_range(window, 1, NDD_MAX_BITFLIP_WINDOW, "window");
        require_range(samples, 1, NDD_MAX_BITFLIP_SAMPLES, "samples");
        ndd::InterruptPoller poller(interrupt);
        ndd::Fingerprint128 fp = ndd::bitflip_fingerprint(reinterpret_cast<const unsigned char*>(len ? doc : ""), len,
                                                          static_cast<size_t>(window), static_cast<size_t>(samples),
                                                          poller);
        out->hi = fp.hi;
        out->lo = fp.lo;
    });
}

NDD_API NddStatus ndd_fp_word_list_fingerprints(const char* doc, size_t len, int32_t lists, int64_t* out, int32_t* count,
                                             int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(lists, 1, NDD_MAX_WORD_LISTS, "lists");
        require_buffer(doc, len);
        ndd::InterruptPoller poller(interrupt);
        uint64_t fps[ndd::kMaxWordLists];
        size_t n = ndd::word_list_fingerprints(doc, len, static_cast<size_t>(lists), fps, poller,
                                               ndd::tokenizer_of(tokenizer));
        std::memcpy(out, fps, n * sizeof(uint64_t));
        *count = static_cast<int32_t>(n);
    });
}

NDD_API NddStatus ndd_fp_content_hash(const char* doc, size_t len, NddFp128* out, int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_buffer(doc, len);
        ndd::InterruptPoller poller(interrupt);
        ndd::Fingerprint128 fp = ndd::content_hash(doc, len, poller, ndd::tokenizer_of(tokenizer));
        out->hi = fp.hi;
        out->lo = fp.lo;
    });
}

NDD_API NddStatus ndd_fp_shingle_overlap(const char* a, size_t alen, const char* b, size_t blen, int32_t shingle,
                                      NddShingleOverlap* out, int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(shingle, 1, NDD_MAX_SHINGLE, "shingle");
        ndd::InterruptPoller poller(interrupt);
        ndd::TokenStream ta, tb;
        tokenize_arg(ta, a, alen, poller, tokenizer);
        tokenize_arg(tb, b, blen, poller, tokenizer);
        ndd::ShingleOverlap o = ndd::shingle_overlap(ta, tb, static_cast<size_t>(shingle), poller);
        out->size_a = static_cast<int64_t>(o.size_a);
        out->size_b = static_cast<int64_t>(o.size_b);
        out->inter = static_cast<int64_t>(o.inter);
        ndd_fp_overlap_measures(out);
    });
}

NDD_API NddStatus ndd_fp_shingle_set_bytes(const char* doc, size_t len, int32_t shingle, size_t* bytes,
                                          int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(shingle, 1, NDD_MAX_SHINGLE, "shingle");
        require_buffer(doc, len);
        ndd::InterruptPoller poller(interrupt);
        *bytes = ndd::shingle_set_bytes(doc, len, static_cast<size_t>(shingle), poller, ndd::tokenizer_of(tokenizer));
    });
}

NDD_API void ndd_fp_overlap_measures(NddShingleOverlap* out) {
    ndd::ShingleOverlap o{static_cast<size_t>(out->size_a), static_cast<size_t>(out->size_b),
                          static_cast<size_t>(out->inter)};
    out->jaccard = ndd::jaccard_of(o);
    out->containment = ndd::containment_of(o);
}

NDD_API NddStatus ndd_shingle_cursor_open(const char* doc, size_t len, int32_t shingle, int32_t tokenizer,
                                          NddShingleCursor** out) {
    return ndd::guarded([&] {
        require_range(shingle, 1, NDD_MAX_SHINGLE, "shingle");
        require_buffer(doc, len);
        *out = reinterpret_cast<NddShingleCursor*>(new ndd::ShingleCursor(doc, len, static_cast<size_t>(shingle),
                                                                                     ndd::tokenizer_of(tokenizer)));
    });
}

NDD_API NddStatus ndd_shingle_cursor_next(NddShingleCursor* cursor, const char** text, size_t* len, uint64_t* hash,
                                       int* found, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if (!cursor) throw ndd::InvalidArgument("no cursor");
        ndd::InterruptPoller poller(interrupt);
        std::string_view s;
        *found = reinterpret_cast<ndd::ShingleCursor*>(cursor)->next(&s, hash, poller) ? 1 : 0;
        *text = s.data();
        *len = s.size();
    });
}

NDD_API void ndd_shingle_cursor_close(NddShingleCursor* cursor) {
    delete reinterpret_cast<ndd::ShingleCursor*>(cursor);
}

NDD_API NddStatus ndd_fp_word_edit_distance(const char* a, size_t alen, const char* b, size_t blen,
                                         int32_t substitution_cost, int64_t* out, int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        require_range(substitution_cost, 1, 2, "substitution_cost");
        require_buffer(a, alen);
        require_buffer(b, blen);
        ndd::InterruptPoller poller(interrupt);
        *out = static_cast<int64_t>(
            ndd::word_edit_distance(a, alen, b, blen, static_cast<unsigned>(substitution_cost), poller,
                                    ndd::tokenizer_of(tokenizer)));
    });
}

NDD_API NddStatus ndd_fp_tokens(const char* doc, size_t len, NddAllocFn alloc, NddTokens* out,
                             int32_t tokenizer, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if (!alloc) throw ndd::InvalidArgument("no allocator");
        ndd::InterruptPoller poller(interrupt);
        ndd::TokenStream ts;
        tokenize_arg(ts, doc, len, poller, tokenizer);
        std::string_view text = ts.text();
        NddTokens result{nullptr, text.size(), nullptr, ts.size()};
        if (!text.empty()) {
            result.text = static_cast<char*>(alloc(text.size()));
            if (!result.text) throw std::bad_alloc();
            std::memcpy(result.text, text.data(), text.size());
        }
        if (ts.size() > 0) {
            result.starts = static_cast<uint32_t*>(alloc(ts.size() * sizeof(uint32_t)));
            if (!result.starts) throw std::bad_alloc();
            std::memcpy(result.starts, ts.starts().data(), ts.size() * sizeof(uint32_t));
        }
        *out = result;
    });
}

NDD_API NddStatus ndd_tokenizer_from_name(const char* name, size_t len, int32_t* out) {
    return ndd::guarded([&] {
        require_buffer(name, len);
        std::string_view n(len ? name : "", len);
        if (n == "words")
            *out = NDD_TOKENIZER_WORDS;
        else if (n == "unicode")
            *out = NDD_TOKENIZER_UNICODE;
        else
            throw ndd::InvalidArgument("unknown tokenizer");
    });
}

NDD_API NddStatus ndd_tokenizer_version(int32_t tokenizer, char* buf, size_t cap) {
    return ndd::guarded([&] {
        if (!buf || cap == 0) throw ndd::InvalidArgument("no buffer");
        std::string v = std::string("ndd-1/unicode-") + ndd::unicode::kUnicodeVersion;
        if (ndd::tokenizer_of(tokenizer) != ndd::Tokenizer::Words) v += "/" + ndd::icu_version();
        if (v.size() >= cap) throw ndd::InvalidArgument("buffer too small");
        std::memcpy(buf, v.c_str(), v.size() + 1);
    });
}

}  // extern "C"
