// word_breaks.cpp
//    ICU's word boundaries and character properties for the 'unicode' tokenizer (word_breaks.hpp).
#include "word_breaks.hpp"

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>

#include <climits>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "guard.hpp"

namespace ndd {

namespace {

void check(UErrorCode status, const char* what) {
    if (U_FAILURE(status)) throw std::runtime_error(std::string(what) + ": " + u_errorName(status));
}

// The iterators of this thread not in use. Closed when the thread (the backend) exits.
struct IteratorPool {
    std::vector<UBreakIterator*> free;
    size_t created = 0;
    ~IteratorPool() {
        for (UBreakIterator* it : free) ubrk_close(it);
    }
};
thread_local IteratorPool pool;

UBreakIterator* take_iterator() {
    if (!pool.free.empty()) {
        UBreakIterator* it = pool.free.back();
        pool.free.pop_back();
        return it;
    }
    // Reserve the pool slot first, so giving the iterator back can never need memory.
    pool.free.reserve(pool.created + 1);
    UErrorCode status = U_ZERO_ERROR;
    // The root locale: UAX #29 with ICU's dictionaries, no language tailoring.
    UBreakIterator* it = ubrk_open(UBRK_WORD, "", nullptr, 0, &status);
    if (U_FAILURE(status)) {
        if (it) ubrk_close(it);
        check(status, "ubrk_open");
    }
    pool.created++;
    return it;
}

}  // namespace

void WordBreaks::reset(const char* doc, size_t len) {
    if (len > static_cast<size_t>(INT32_MAX)) throw InvalidArgument("document too large for ICU");
    UErrorCode status = U_ZERO_ERROR;
    // utext_openUTF8 on an open UText re-points it (no allocation)
    UText* t = utext_openUTF8(text_, len ? doc : "", static_cast<int64_t>(len), &status);
    check(status, "utext_openUTF8");
    text_ = t;
    if (!iter_) iter_ = take_iterator();
    ubrk_setUText(iter_, text_, &status);
    check(status, "ubrk_setUText");
    ubrk_first(iter_);
}

void WordBreaks::release() noexcept {
    if (iter_) {
        // Detach the document before it goes away; the reserve in take_iterator makes push_back
        // allocation-free.
        UErrorCode status = U_ZERO_ERROR;
        ubrk_setText(iter_, nullptr, 0, &status);
        if (U_SUCCESS(status))
            pool.free.push_back(iter_);
        else
            ubrk_close(iter_);
        iter_ = nullptr;
    }
    if (text_) {
        utext_close(text_);
        text_ = nullptr;
    }
}

WordBreaks::~WordBreaks() { release(); }

size_t WordBreaks::next() {
    int32_t b = ubrk_next(iter_);
    return b == UBRK_DONE ? SIZE_MAX : static_cast<size_t>(b);
}

bool is_unit_char(uint32_t cp) {
    UChar32 c = static_cast<UChar32>(cp);
    UErrorCode status = U_ZERO_ERROR;
    switch (uscript_getScript(c, &status)) {
        case USCRIPT_HAN:
        case USCRIPT_HIRAGANA:
        case USCRIPT_KATAKANA:
        case USCRIPT_HANGUL:
            return true;
        default:
            return u_getIntPropertyValue(c, UCHAR_WORD_BREAK) == U_WB_KATAKANA;
    }
}

bool is_combining_mark(uint32_t cp) {
    return (U_GET_GC_MASK(static_cast<UChar32>(cp)) & U_GC_M_MASK) != 0;
}

std::string icu_version() {
    UVersionInfo lib, uni;
    u_getVersion(lib);
    u_getUnicodeVersion(uni);
    char a[U_MAX_VERSION_STRING_LENGTH], b[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(lib, a);
    u_versionToString(uni, b);
    return std::string("icu-") + a + "/unicode-" + b;
}

size_t word_break_iterators_created() { return pool.created; }

}  // namespace ndd
