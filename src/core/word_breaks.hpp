// word_breaks.hpp
//    What the 'unicode' tokenizer takes from ICU: the UAX #29 word boundaries of a UTF-8 document
//    (ICU's word BreakIterator, which segments Thai, Lao, Khmer, Myanmar, Chinese and Japanese with
//    its dictionaries), and two character classes. ICU's C API is used (it never throws); every ICU
//    object is owned by an RAII holder here, so an exception between two calls cannot leak one.
//
//    Creating a word BreakIterator costs far more than tokenizing a short document (it loads and
//    compiles ICU's rule data: bench/results/tokenizer_units.txt has the figures), so iterators are
//    kept in a per-thread pool and re-pointed at each new document (ubrk_setUText); a backend is one
//    thread, so in PostgreSQL this is one cached iterator per backend (two when two documents are
//    tokenized at once, as jaccard() does).
#ifndef NDD_WORD_BREAKS_HPP
#define NDD_WORD_BREAKS_HPP

#include <cstddef>
#include <cstdint>
#include <string>

struct UBreakIterator;
struct UText;

namespace ndd {

// The UAX #29 word boundaries of a text, in increasing order. The text must outlive its use.
// Throws InvalidArgument for a text ICU cannot index (over INT32_MAX bytes), std::runtime_error when
// ICU fails (its data missing).
class WordBreaks {
public:
    WordBreaks() = default;
    WordBreaks(const char* doc, size_t len) { reset(doc, len); }
    ~WordBreaks();
    // Starts over on doc[0..len), keeping the ICU objects.
    void reset(const char* doc, size_t len);
    WordBreaks(const WordBreaks&) = delete;
    WordBreaks& operator=(const WordBreaks&) = delete;

    // The next boundary after the previous one (byte offset; the first call gives the first
    // boundary after 0), or SIZE_MAX after the last (which is len).
    size_t next();

private:
    void release() noexcept;  // gives the iterator back to the pool, closes the text
    UText* text_ = nullptr;
    UBreakIterator* iter_ = nullptr;
};

// True for the characters the 'unicode' tokenizer makes tokens of one by one: ideographs (Han),
// Hiragana, Katakana (with the marks UAX #29 counts as Katakana, such as U+30FC) and Hangul.
bool is_unit_char(uint32_t cp);

// True for combining marks (general categories Mn, Mc, Me): they continue the word they follow.
bool is_combining_mark(uint32_t cp);

// "icu-72.1/unicode-15.0": the ICU library and Unicode versions the boundaries come from.
std::string icu_version();

// Iterators created (not taken from the pool) by this thread so far: how the tests see the cache.
size_t word_break_iterators_created();

}  // namespace ndd

#endif  // NDD_WORD_BREAKS_HPP
