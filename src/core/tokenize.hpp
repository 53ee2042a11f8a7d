// tokenize.hpp
//    ndd's default normalization: what every word-level fingerprint sees.
//
//    The document (UTF-8) is lowercased exactly as Python's str.lower() does (full lowercase, final
//    sigma included), and its tokens are the maximal runs of letters and digits (Python's
//    str.isalnum(); everything else, underscore included, separates). This is the normalization of
//    the evaluation ground truth, re.findall(r"[^\W_]+", text.lower()), to the code point.
//
//    Bytes that are not valid UTF-8 (they cannot come from a UTF-8 database, but can from SQL_ASCII)
//    are read one at a time as a separator that is neither cased nor case-ignorable.
//
//    The result is a TokenStream: the tokens joined by single spaces in one buffer, plus where each
//    token starts. A run of k tokens is then one contiguous span of that buffer ("w1 w2 w3"), which
//    is exactly the string a k-shingle is defined as, so shingles are hashed in place without
//    building any string.
#ifndef NDD_TOKENIZE_HPP
#define NDD_TOKENIZE_HPP

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "guard.hpp"
#include "tokenizer_api.h"

namespace ndd {

class WordBreaks;

// Which tokenizer makes the tokens (tokenizer_api.h has the definitions). Words is the rule above.
// Unicode: the same lowercasing and letters and digits, cut further at ICU's UAX #29 word
// boundaries, combining marks kept inside their word, and each ideograph, kana and Hangul syllable
// a token of its own (is_unit_char). The last two are variants of Unicode kept only for the
// measurement that chose those units (bench/tokenizer_units.cpp, doc/tokenizers.md); SQL cannot
// name them: UnicodeBigrams makes overlapping pairs of such characters instead (a run of one gives
// that one), UnicodeDictionary leaves them in ICU's dictionary words.
enum class Tokenizer : int32_t {
    Words = NDD_TOKENIZER_WORDS,
    Unicode = NDD_TOKENIZER_UNICODE,
    UnicodeBigrams = 101,
    UnicodeDictionary = 102,
};

// The tokenizer of a tokenizer_api.h number; throws InvalidArgument for another number.
Tokenizer tokenizer_of(int32_t number);

// Largest document the Unicode tokenizers accept: their stream can be 3 times the input (a 3-byte
// ideograph becomes a 6-byte bigram and a space) and offsets are 32-bit.
constexpr size_t kMaxUnicodeDocumentBytes = size_t(1) << 30;

// Largest document the core accepts (bytes). Offsets in a TokenStream are 32-bit and the stream can
// be 1.5 times the input (a 2-byte letter can lowercase to 3 bytes); PostgreSQL values stop at 1 GB.
constexpr size_t kMaxDocumentBytes = size_t(1) << 31;

// Reads the normalized tokens of a document one at a time without keeping them: the memory it
// holds is one token, whatever the document's size. TokenStream::tokenize is built on it, so both
// see the same tokens. The document must outlive the cursor.
class TokenCursor {
public:
    // Throws InvalidArgument for a document over kMaxDocumentBytes (kMaxUnicodeDocumentBytes).
    TokenCursor(const char* doc, size_t len, Tokenizer tokenizer = Tokenizer::Words);
    ~TokenCursor();

    // The next token (valid until the next call), or an empty view after the last one.
    std::string_view next(InterruptPoller& poller) {
        return tokenizer_ == Tokenizer::Words ? next_words(poller) : next_unicode(poller);
    }

private:
    std::string_view next_words(InterruptPoller& poller);
    std::string_view next_unicode(InterruptPoller& poller);
    void poll(InterruptPoller& poller);
    // Appends the ASCII letters and digits p_ .. q lowercased to the token; p_ = q.
    void append_ascii(const unsigned char* q);
    // Unicode tokenizers only. The text is read in runs: maximal runs of letters, digits and the
    // combining marks that follow them (the only places a token can be). A word boundary inside a
    // run depends on the run alone (the rules of UAX #29 that look further, WB6-7, WB11-12, WB4
    // across a separator, only concern characters that end a run anyway), so ICU is asked only for
    // the runs where it can cut: those holding a letter or digit that is neither ASCII nor a unit
    // character. Pure ASCII words and runs of ideographs and kana never reach it.
    bool start_run(InterruptPoller& poller);
    Tokenizer tokenizer_ = Tokenizer::Words;
    const unsigned char* run_end_ = nullptr;     // end of the current run (p_ is in it)
    std::unique_ptr<WordBreaks> breaks_;         // ICU over the current run, when it needs it
    size_t run_base_ = 0;                        // offset of the run's start in the document
    size_t boundary_ = SIZE_MAX;                 // the next word boundary at or after p_ (offset)
    const unsigned char* unit_prev_ = nullptr;  // UnicodeBigrams: the unit character before p_
    size_t unit_prev_len_ = 0;
    const unsigned char* begin_;
    const unsigned char* end_;
    const unsigned char* p_;
    const unsigned char* poll_at_;  // where the next cancellation poll is due
    // The current token. A hand-managed buffer: std::string's resize and append are out-of-line
    // calls that made tokenizing 1.6 times slower.
    std::unique_ptr<char[]> token_;
    size_t len_ = 0;
    size_t cap_ = 0;
    // Room for `extra` more bytes of the token.
    char* room(size_t extra) {
        if (len_ + extra > cap_) grow(len_ + extra);
        return token_.get() + len_;
    }
    void grow(size_t need);
};

// The normalized token stream of one document.
class TokenStream {
public:
    // Number of tokens.
    size_t size() const { return starts_.size(); }
    bool empty() const { return starts_.empty(); }

    // The whole stream: the tokens joined by single spaces.
    std::string_view text() const { return std::string_view(buf_.get(), len_); }

    // Token i.
    std::string_view token(size_t i) const { return span(i, 1); }

    // Tokens first .. first+count-1 joined by single spaces (count >= 1, first+count <= size()).
    std::string_view span(size_t first, size_t count) const {
        size_t begin = starts_[first];
        size_t last = first + count - 1;
        size_t end = last + 1 < starts_.size() ? starts_[last + 1] - 1 : len_;
        return std::string_view(buf_.get() + begin, end - begin);
    }

    // Byte offset of each token in text().
    const std::vector<uint32_t>& starts() const { return starts_; }

    // Builds the stream of doc[0..len) (replacing any previous content).
    void tokenize(const char* doc, size_t len, InterruptPoller& poller, Tokenizer tokenizer = Tokenizer::Words);

    // Builds a stream from ready-made items (e.g. tsvector lexemes, already normalized), joined by
    // single spaces in the given order.
    void assign(size_t count, const char* const* items, const size_t* lens, InterruptPoller& poller);

private:
    std::unique_ptr<char[]> buf_;
    size_t len_ = 0;
    std::vector<uint32_t> starts_;
};

// Number of k-shingles of a stream of n tokens: n-k+1, or 1 when 0 < n < k, or 0 when n = 0.
inline size_t shingle_count(size_t n, size_t k) {
    if (n == 0) return 0;
    return n < k ? 1 : n - k + 1;
}

// Calls f(std::string_view) for every word k-shingle of the stream, in order, repeats included:
// contiguous runs of k tokens joined by single spaces; all the tokens as one shingle when there are
// fewer than k; nothing when there are none.
template <typename F>
void for_each_shingle(const TokenStream& ts, size_t k, InterruptPoller& poller, F&& f) {
    size_t n = ts.size();
    if (n == 0) return;
    if (n < k) {
        f(ts.span(0, n));
        return;
    }
    for (size_t i = 0; i + k <= n; i++) {
        poller.tick();
        f(ts.span(i, k));
    }
}

// The word k-shingles of a document read one at a time, repeats included, in the order of
// for_each_shingle: memory is one shingle, whatever the document's size. The document must outlive
// the cursor.
class ShingleCursor {
public:
    ShingleCursor(const char* doc, size_t len, size_t k, Tokenizer tokenizer = Tokenizer::Words);
    // Stores the next shingle (valid until the next call) and its hash64(kFeatureSeed); false after
    // the last one.
    bool next(std::string_view* shingle, uint64_t* hash, InterruptPoller& poller);

private:
    TokenCursor tokens_;
    size_t k_;
    size_t seen_ = 0;          // tokens read so far
    bool done_ = false;
    std::string window_;       // the last (up to) k tokens joined by single spaces
    std::deque<size_t> lens_;  // their lengths
};

// Decodes one UTF-8 character at p (p < end). Returns its length in bytes (>= 1) and stores the code
// point, or kInvalidCodePoint for a byte that does not start a valid, shortest-form, non-surrogate
// sequence (then the length is 1).
constexpr uint32_t kInvalidCodePoint = 0x110000;
size_t decode_utf8(const unsigned char* p, const unsigned char* end, uint32_t* cp);

// Writes cp (<= U+10FFFF) as UTF-8 at out; returns the number of bytes (1 to 4).
size_t encode_utf8(uint32_t cp, char* out);

}  // namespace ndd

#endif  // NDD_TOKENIZE_HPP
