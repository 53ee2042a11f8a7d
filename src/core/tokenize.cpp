// tokenize.cpp
//    The default normalization (see tokenize.hpp): Python-exact lowercasing and letter/digit runs.
//
//    ASCII, the bulk of most documents, goes through a 128-entry table; everything else is decoded
//    and looked up in the generated Unicode tables. Two characters need more than a table:
//      U+0130 (capital I with dot) lowercases to "i" + U+0307; U+0307 is a combining mark, not a
//        letter, so it ends the token after the "i" (this is what lowercasing first, then splitting,
//        gives in Python);
//      U+03A3 (capital sigma) lowercases to final sigma U+03C2 when a cased letter precedes it and
//        none follows it, skipping case-ignorable characters both ways; else to U+03C3.
#include "tokenize.hpp"

#include <algorithm>
#include <cstring>

#include "hashing.hpp"
#include "unicode_tables.hpp"
#include "word_breaks.hpp"

namespace ndd {

namespace {

// ASCII classes: 0 separates, 1 is a letter or digit kept as is, 2 an uppercase letter.
struct AsciiTable {
    uint8_t cls[128];
    constexpr AsciiTable() : cls{} {
        for (int c = '0'; c <= '9'; c++) cls[c] = 1;
        for (int c = 'a'; c <= 'z'; c++) cls[c] = 1;
        for (int c = 'A'; c <= 'Z'; c++) cls[c] = 2;
    }
};
constexpr AsciiTable kAscii;

constexpr uint32_t kCapitalSigma = 0x03A3;
constexpr uint32_t kSmallSigma = 0x03C3;
constexpr uint32_t kFinalSigma = 0x03C2;
constexpr uint32_t kCapitalIWithDot = 0x0130;

// Decodes the character that ends just before pos (begin < pos). Returns its first byte.
const unsigned char* decode_before(const unsigned char* begin, const unsigned char* pos, uint32_t* cp) {
    if (pos[-1] < 0x80) {
        *cp = pos[-1];
        return pos - 1;
    }
    // A character is at most 4 bytes; take the nearest lead byte whose forward decoding ends exactly
    // at pos. If there is none, the byte before pos is an invalid byte on its own, as the forward
    // decoder would have read it.
    for (size_t n = 2; n <= 4 && pos - begin >= static_cast<std::ptrdiff_t>(n); n++) {
        const unsigned char* q = pos - n;
        if ((*q & 0xC0) == 0x80) continue;
        uint32_t c;
        if (decode_utf8(q, pos, &c) == n && c != kInvalidCodePoint) {
            *cp = c;
            return q;
        }
        break;
    }
    decode_utf8(pos - 1, pos, cp);
    return pos - 1;
}

// Python's rule for a capital sigma at sigma (its encoding ends at after): final sigma when the
// nearest preceding character that is not case-ignorable exists and is cased, and the nearest
// following one is absent or not cased.
bool is_final_sigma(const unsigned char* begin, const unsigned char* sigma, const unsigned char* after,
                    const unsigned char* end) {
    // Each scan stops at the first character that is not case-ignorable, and sigma itself is not, so
    // over a whole document the scans together read every byte at most twice: linear time.
    const unsigned char* p = sigma;
    bool preceded_by_cased = false;
    while (p > begin) {
        uint32_t cp;
        p = decode_before(begin, p, &cp);
        if (!unicode::is_case_ignorable(cp)) {
            preceded_by_cased = unicode::is_cased(cp);
            break;
        }
    }
    if (!preceded_by_cased) return false;
    p = after;
    while (p < end) {
        uint32_t cp;
        p += decode_utf8(p, end, &cp);
        if (!unicode::is_case_ignorable(cp)) return !unicode::is_cased(cp);
    }
    return true;
}

}  // namespace

size_t decode_utf8(const unsigned char* p, const unsigned char* end, uint32_t* cp) {
    unsigned char b0 = p[0];
    if (b0 < 0x80) {
        *cp = b0;
        return 1;
    }
    size_t n;
    uint32_t c, min;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
        c = b0 & 0x1F;
        min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        c = b0 & 0x0F;
        min = 0x800;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        c = b0 & 0x07;
        min = 0x10000;
    } else {
        *cp = kInvalidCodePoint;
        return 1;
    }
    if (static_cast<size_t>(end - p) < n) {
        *cp = kInvalidCodePoint;
        return 1;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *cp = kInvalidCodePoint;
            return 1;
        }
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > unicode::kMaxCodePoint || (c >= 0xD800 && c <= 0xDFFF)) {
        *cp = kInvalidCodePoint;
        return 1;
    }
    *cp = c;
    return n;
}

size_t encode_utf8(uint32_t cp, char* out) {
    if (cp < 0x80) {
        out[0] = static_cast<char>(cp);
        return 1;
    }
    if (cp < 0x800) {
        out[0] = static_cast<char>(0xC0 | (cp >> 6));
        out[1] = static_cast<char>(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = static_cast<char>(0xE0 | (cp >> 12));
        out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out[2] = static_cast<char>(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = static_cast<char>(0xF0 | (cp >> 18));
    out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[3] = static_cast<char>(0x80 | (cp & 0x3F));
    return 4;
}

Tokenizer tokenizer_of(int32_t number) {
    switch (number) {
        case NDD_TOKENIZER_WORDS:
            return Tokenizer::Words;
        case NDD_TOKENIZER_UNICODE:
            return Tokenizer::Unicode;
        case static_cast<int32_t>(Tokenizer::UnicodeBigrams):
            return Tokenizer::UnicodeBigrams;
        case static_cast<int32_t>(Tokenizer::UnicodeDictionary):
            return Tokenizer::UnicodeDictionary;
        default:
            throw InvalidArgument("unknown tokenizer");
    }
}

TokenCursor::TokenCursor(const char* doc, size_t len, Tokenizer tokenizer) : tokenizer_(tokenizer) {
    if (len > kMaxDocumentBytes) throw InvalidArgument("document too large");
    begin_ = reinterpret_cast<const unsigned char*>(len ? doc : "");
    end_ = begin_ + len;
    p_ = begin_;
    poll_at_ = begin_;
    if (tokenizer != Tokenizer::Words) {
        if (len > kMaxUnicodeDocumentBytes) throw InvalidArgument("document too large");
        run_end_ = begin_;
    }
}

TokenCursor::~TokenCursor() = default;

void TokenCursor::append_ascii(const unsigned char* q) {
    char* out = room(static_cast<size_t>(q - p_));
    for (; p_ < q; p_++) *out++ = static_cast<char>(kAscii.cls[*p_] == 2 ? (*p_ | 0x20) : *p_);
    len_ = static_cast<size_t>(out - token_.get());
}

void TokenCursor::poll(InterruptPoller& poller) {
    poller.check();
    poll_at_ = end_ - p_ > 65536 ? p_ + 65536 : end_;
}

void TokenCursor::grow(size_t need) {
    size_t cap = cap_ ? cap_ : 64;
    while (cap < need) cap *= 2;
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (len_) std::memcpy(bigger.get(), token_.get(), len_);
    token_ = std::move(bigger);
    cap_ = cap;
}

std::string_view TokenCursor::next_words(InterruptPoller& poller) {
    len_ = 0;
    while (p_ < end_) {
        // Poll for cancellation once per 64 kB of input; the inner loops stay branch-light.
        if (p_ >= poll_at_) poll(poller);
        unsigned char b = *p_;
        if (b < 0x80) {
            if (!kAscii.cls[b]) {
                p_++;
                if (len_) return std::string_view(token_.get(), len_);
                continue;
            }
            // A run of ASCII letters and digits (up to the next poll) is lowercased in one go.
            const unsigned char* q = p_;
            while (q < poll_at_ && *q < 0x80 && kAscii.cls[*q]) q++;
            append_ascii(q);
            continue;
        }
        uint32_t cp;
        const unsigned char* start = p_;
        p_ += decode_utf8(p_, end_, &cp);
        uint32_t lower;
        bool ends_after = false;
        if (cp == kCapitalSigma) {
            lower = is_final_sigma(begin_, start, p_, end_) ? kFinalSigma : kSmallSigma;
        } else if (cp == kCapitalIWithDot) {
            lower = 'i';
            ends_after = true;  // the U+0307 that follows the "i" is not a letter
        } else {
            lower = unicode::to_lower_simple(cp);
        }
        if (cp != kInvalidCodePoint && unicode::is_alnum(lower)) {
            len_ += encode_utf8(lower, room(4));
            if (ends_after) return std::string_view(token_.get(), len_);
        } else if (len_) {
            return std::string_view(token_.get(), len_);
        }
    }
    return std::string_view(token_.get(), len_);
}

// True for a character the Unicode tokenizers keep in a token on its own merit: a letter or digit
// once lowercased (as next_words() decides; U+0130 and U+03A3 lowercase to letters).
bool alnum_char(uint32_t cp) {
    return cp == kCapitalIWithDot || cp == kCapitalSigma || unicode::is_alnum(unicode::to_lower_simple(cp));
}

// Finds the next run (see tokenize.hpp) from p_, sets p_ to its start and run_end_ to its end, and
// points ICU at it when it can cut it. False when no run is left.
bool TokenCursor::start_run(InterruptPoller& poller) {
    const bool units = tokenizer_ != Tokenizer::UnicodeDictionary;
    unit_prev_len_ = 0;
    while (p_ < end_) {
        if (p_ >= poll_at_) poll(poller);
        if (*p_ < 0x80) {
            if (kAscii.cls[*p_]) break;
            p_++;
            continue;
        }
        uint32_t cp;
        size_t n = decode_utf8(p_, end_, &cp);
        if (cp != kInvalidCodePoint && alnum_char(cp)) break;
        p_ += n;
    }
    if (p_ >= end_) return false;
    bool needs_icu = false;
    const unsigned char* q = p_;
    const unsigned char* poll_scan = p_ + 65536;
    while (q < end_) {
        if (q >= poll_scan) {
            poller.check();
            poll_scan = q + 65536;
        }
        if (*q < 0x80) {
            if (!kAscii.cls[*q]) break;
            q++;
            continue;
        }
        uint32_t cp;
        size_t n = decode_utf8(q, end_, &cp);
        if (cp == kInvalidCodePoint) break;
        if (alnum_char(cp)) {
            if (!units || !is_unit_char(cp)) needs_icu = true;
        } else if (!is_combining_mark(cp)) {
            break;
        }
        q += n;
    }
    run_end_ = q;
    run_base_ = static_cast<size_t>(p_ - begin_);
    if (needs_icu) {
        if (!breaks_) breaks_.reset(new WordBreaks());
        breaks_->reset(reinterpret_cast<const char*>(p_), static_cast<size_t>(q - p_));
        boundary_ = run_base_;  // the run's start, a boundary that cuts nothing
    } else {
        boundary_ = SIZE_MAX;
    }
    return true;
}

// The Unicode tokenizers: the characters are lowercased and classed exactly as next_words() does,
// and a token also ends
//   - at every UAX #29 word boundary inside a run (boundary_), which is what separates the words
//     of Thai, Lao, Khmer and Myanmar (and, with UnicodeDictionary, of Chinese and Japanese);
//   - around each unit character (is_unit_char), which is a token of its own (Unicode) or pairs
//     with its neighbours in its run of unit characters (UnicodeBigrams);
// and a combining mark that follows a letter or digit of a token continues it (Thai vowel signs,
// Devanagari vowel signs and virama are marks, and 'words' would cut the word there).
std::string_view TokenCursor::next_unicode(InterruptPoller& poller) {
    len_ = 0;
    const bool units = tokenizer_ != Tokenizer::UnicodeDictionary;
    for (;;) {
        if (p_ >= run_end_) {
            if (len_) return std::string_view(token_.get(), len_);
            if (!start_run(poller)) return std::string_view(token_.get(), 0);
        }
        if (p_ >= poll_at_) poll(poller);
        size_t at = static_cast<size_t>(p_ - begin_);
        if (at >= boundary_) {
            bool on_boundary = at == boundary_;
            while (boundary_ <= at) {
                size_t b = breaks_->next();
                boundary_ = b == SIZE_MAX ? SIZE_MAX : run_base_ + b;
            }
            if (on_boundary && len_) return std::string_view(token_.get(), len_);
        }
        if (*p_ < 0x80) {
            // ASCII letters and digits up to the next boundary (or poll, or the run's end) in one go
            unit_prev_len_ = 0;
            size_t stop_at = std::min(boundary_, static_cast<size_t>(run_end_ - begin_));
            const unsigned char* stop = std::min(begin_ + stop_at, poll_at_);
            const unsigned char* q = p_;
            while (q < stop && *q < 0x80) q++;
            append_ascii(q);
            continue;
        }
        uint32_t cp;
        const unsigned char* start = p_;
        size_t n = decode_utf8(p_, end_, &cp);
        if (units && is_unit_char(cp) && alnum_char(cp)) {
            // Unit characters have no case: their bytes are the token.
            if (len_) {
                unit_prev_len_ = 0;
                return std::string_view(token_.get(), len_);  // p_ stays: the unit comes next
            }
            p_ += n;
            if (tokenizer_ == Tokenizer::UnicodeBigrams) {
                if (unit_prev_len_) {
                    char* out = room(unit_prev_len_ + n);
                    std::memcpy(out, unit_prev_, unit_prev_len_);
                    std::memcpy(out + unit_prev_len_, start, n);
                    len_ = unit_prev_len_ + n;
                    unit_prev_ = start;
                    unit_prev_len_ = n;
                    return std::string_view(token_.get(), len_);
                }
                // The first of its run: a bigram with the next one, or alone if none follows.
                uint32_t next_cp = kInvalidCodePoint;
                if (p_ < run_end_) decode_utf8(p_, run_end_, &next_cp);
                if (next_cp != kInvalidCodePoint && is_unit_char(next_cp) && alnum_char(next_cp)) {
                    unit_prev_ = start;
                    unit_prev_len_ = n;
                    continue;
                }
            }
            std::memcpy(room(n), start, n);
            len_ = n;
            return std::string_view(token_.get(), len_);
        }
        unit_prev_len_ = 0;
        p_ += n;
        if (!alnum_char(cp)) {
            // a combining mark: it continues a token, and is dropped after a unit character
            if (len_) len_ += encode_utf8(cp, room(4));
            continue;
        }
        uint32_t lower;
        if (cp == kCapitalSigma) {
            lower = is_final_sigma(begin_, start, p_, end_) ? kFinalSigma : kSmallSigma;
        } else if (cp == kCapitalIWithDot) {
            // "i" and a combining dot above, which stays in the token as every mark does
            char* out = room(3);
            out[0] = 'i';
            encode_utf8(0x0307, out + 1);
            len_ += 3;
            continue;
        } else {
            lower = unicode::to_lower_simple(cp);
        }
        len_ += encode_utf8(lower, room(4));
    }
}

void TokenStream::tokenize(const char* doc, size_t len, InterruptPoller& poller, Tokenizer tokenizer) {
    TokenCursor cursor(doc, len, tokenizer);
    // Words: lowercasing grows a character by at most half (2 bytes -> 3), and a separating space in
    // the output always stands for at least one separator byte of the input: 1.5 * len bounds the
    // output. Unicode: a 3-byte unit character can become a 6-byte bigram and a space of its own,
    // and no unit character is shorter: 7/3 * len does.
    buf_.reset(new char[tokenizer == Tokenizer::Words ? len + len / 2 + 4 : len * 7 / 3 + 8]);
    starts_.clear();
    char* out = buf_.get();
    size_t o = 0;
    for (std::string_view t = cursor.next(poller); !t.empty(); t = cursor.next(poller)) {
        if (!starts_.empty()) out[o++] = ' ';
        starts_.push_back(static_cast<uint32_t>(o));
        std::memcpy(out + o, t.data(), t.size());
        o += t.size();
    }
    len_ = o;
}

ShingleCursor::ShingleCursor(const char* doc, size_t len, size_t k, Tokenizer tokenizer)
    : tokens_(doc, len, tokenizer), k_(k) {
    if (k < 1) throw InvalidArgument("shingle size must be at least 1");
}

bool ShingleCursor::next(std::string_view* shingle, uint64_t* hash, InterruptPoller& poller) {
    if (done_) return false;
    for (;;) {
        std::string_view t = tokens_.next(poller);
        if (t.empty()) {
            done_ = true;
            // fewer than k tokens make one shingle of them all (for_each_shingle)
            if (seen_ == 0 || seen_ >= k_) return false;
            break;
        }
        seen_++;
        if (lens_.size() == k_) {
            // drop the oldest token and the space after it (the whole window when k = 1)
            window_.erase(0, std::min(window_.size(), lens_.front() + 1));
            lens_.pop_front();
        }
        if (!window_.empty()) window_ += ' ';
        window_.append(t.data(), t.size());
        lens_.push_back(t.size());
        if (lens_.size() == k_) break;
    }
    *shingle = window_;
    *hash = hash64(*shingle, kFeatureSeed);
    return true;
}

void TokenStream::assign(size_t count, const char* const* items, const size_t* lens, InterruptPoller& poller) {
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += lens[i] + 1;
    if (total > kMaxDocumentBytes) throw InvalidArgument("token stream too large");
    buf_.reset(new char[total + 1]);
    starts_.clear();
    starts_.reserve(count);
    size_t o = 0;
    for (size_t i = 0; i < count; i++) {
        poller.tick();
        if (i > 0) buf_[o++] = ' ';
        starts_.push_back(static_cast<uint32_t>(o));
        if (lens[i] > 0) std::memcpy(buf_.get() + o, items[i], lens[i]);
        o += lens[i];
    }
    len_ = o;
}

}  // namespace ndd
