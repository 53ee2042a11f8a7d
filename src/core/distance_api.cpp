// distance_api.cpp
//    The C boundary of the edit distance and cosine measures (distance_api.h).
#include "distance_api.h"

#include "cosine.hpp"
#include "edit_distance.hpp"
#include "fingerprint_api.h"
#include "tokenize.hpp"
#include "vector_simhash.hpp"

static_assert(NDD_MAX_VECTOR_DIMENSIONS == ndd::kMaxVectorDimensions, "limits must agree");
#include "guard.hpp"

#include <vector>

NDD_API NddStatus ndd_edit_distance(const char* a, size_t alen, const char* b, size_t blen, int32_t substitution_cost,
                                    int64_t bound, NddEditDistance* out, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if (substitution_cost != 1 && substitution_cost != 2) throw ndd::InvalidArgument("substitution_cost");
        if ((!a && alen > 0) || (!b && blen > 0) || !out) throw ndd::InvalidArgument("null buffer");
        ndd::InterruptPoller poller(interrupt);
        std::vector<uint32_t> va = ndd::utf8_codepoints(a, alen);
        std::vector<uint32_t> vb = ndd::utf8_codepoints(b, blen);
        size_t na = va.size(), nb = vb.size();
        unsigned cost = static_cast<unsigned>(substitution_cost);
        uint64_t d = ndd::edit_distance_codepoints_in_place(va, vb, cost,
                                                            bound < 0 ? ndd::kNoEditBound : static_cast<uint64_t>(bound),
                                                            poller);
        out->distance = static_cast<int64_t>(d);
        out->length_a = static_cast<int64_t>(na);
        out->length_b = static_cast<int64_t>(nb);
        out->similarity = ndd::edit_similarity_of(d, na, nb, cost);
    });
}

NDD_API size_t ndd_utf8_length(const char* s, size_t len) { return s ? ndd::utf8_codepoint_count(s, len) : 0; }

NDD_API size_t ndd_edit_distance_bytes(size_t na, size_t nb) { return ndd::edit_distance_bytes(na, nb); }

NDD_API NddStatus ndd_cosine_text(const char* a, size_t alen, const char* b, size_t blen, int32_t shingle,
                                  int32_t tokenizer, double* out, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if (shingle < 1 || shingle > NDD_MAX_SHINGLE) throw ndd::InvalidArgument("shingle");
        if ((!a && alen > 0) || (!b && blen > 0) || !out) throw ndd::InvalidArgument("null buffer");
        ndd::InterruptPoller poller(interrupt);
        ndd::Tokenizer t = ndd::tokenizer_of(tokenizer);
        ndd::TokenStream ta, tb;
        ta.tokenize(alen ? a : "", alen, poller, t);
        tb.tokenize(blen ? b : "", blen, poller, t);
        *out = ndd::cosine_of(ndd::term_products(ta, tb, static_cast<size_t>(shingle), poller));
    });
}

NDD_API NddStatus ndd_vector_simhash(const double* v, size_t n, int32_t words, uint64_t* out, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if (!out) throw ndd::InvalidArgument("null buffer");
        ndd::InterruptPoller poller(interrupt);
        ndd::vector_simhash(v, n, static_cast<unsigned>(words), out, poller);
    });
}
