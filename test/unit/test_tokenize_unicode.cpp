// test_tokenize_unicode.cpp
//    The 'unicode' tokenizer (tokenize.hpp, word_breaks.hpp): UAX #29 word boundaries from ICU, each
//    ideograph, kana and Hangul syllable a token, combining marks kept, 'words' lowercasing; the
//    per-thread cache of ICU iterators; and the tokenizer argument of the C API.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "fingerprint_api.h"
#include "simhash.hpp"
#include "similarity.hpp"
#include "tokenize.hpp"
#include "word_breaks.hpp"

namespace {

using V = std::vector<std::string>;

V tokens_of(const std::string& s, ndd::Tokenizer t = ndd::Tokenizer::Unicode) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    ts.tokenize(s.data(), s.size(), poller, t);
    V out;
    for (size_t i = 0; i < ts.size(); i++) out.emplace_back(ts.token(i));
    return out;
}

// The same tokens read one at a time through a TokenCursor (what the streaming functions use).
V cursor_tokens_of(const std::string& s, ndd::Tokenizer t = ndd::Tokenizer::Unicode) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenCursor c(s.data(), s.size(), t);
    V out;
    for (std::string_view tok = c.next(poller); !tok.empty(); tok = c.next(poller)) out.emplace_back(tok);
    return out;
}

TEST(TokenizeUnicode, ChineseIdeographsAreTokens) {
    EXPECT_EQ(tokens_of("我们今天去北京。"), (V{"我", "们", "今", "天", "去", "北", "京"}));
    EXPECT_EQ(tokens_of("我们今天去北京。", ndd::Tokenizer::Words), (V{"我们今天去北京"}));
}

TEST(TokenizeUnicode, JapaneseKanaAndKanjiAreTokens) {
    EXPECT_EQ(tokens_of("東京は日本の首都です。コンピューター"),
              (V{"東", "京", "は", "日", "本", "の", "首", "都", "で", "す", "コ", "ン", "ピ", "ュ", "ー", "タ", "ー"}));
    // half-width katakana too
    EXPECT_EQ(tokens_of("ｶﾀｶﾅ"), (V{"ｶ", "ﾀ", "ｶ", "ﾅ"}));
}

TEST(TokenizeUnicode, HangulSyllablesAreTokens) {
    EXPECT_EQ(tokens_of("한국어를 배웁니다"), (V{"한", "국", "어", "를", "배", "웁", "니", "다"}));
}

TEST(TokenizeUnicode, ThaiIsSegmentedWithIcuDictionary) {
    EXPECT_EQ(tokens_of("ภาษาไทยง่ายนิดเดียว"), (V{"ภาษา", "ไทย", "ง่าย", "นิด", "เดียว"}));
    // 'words' cuts Thai at every combining vowel sign
    EXPECT_EQ(tokens_of("ภาษาไทยง่ายนิดเดียว", ndd::Tokenizer::Words), (V{"ภาษาไทยง", "ายน", "ดเด", "ยว"}));
}

TEST(TokenizeUnicode, CombiningMarksStayInTheirWord) {
    EXPECT_EQ(tokens_of("हिन्दी भाषा"), (V{"हिन्दी", "भाषा"}));
    EXPECT_EQ(tokens_of("cafe\xCC\x81 ok"), (V{"cafe\xCC\x81", "ok"}));  // e + combining acute
    // a mark with no letter before it separates, as in 'words'
    EXPECT_EQ(tokens_of("\xCC\x81" "abc"), (V{"abc"}));
}

TEST(TokenizeUnicode, LowercasingIsThatOfWords) {
    EXPECT_EQ(tokens_of("Hello WORLD ΟΔΟΣ Σ"), (V{"hello", "world", "οδος", "σ"}));
    // U+0130: "i" and a combining dot above, kept as a mark
    EXPECT_EQ(tokens_of("İstanbul"), (V{"i\xCC\x87stanbul"}));
}

TEST(TokenizeUnicode, DigitsAndPunctuationAsInWords) {
    EXPECT_EQ(tokens_of("Version 3.14, don't foo_bar 42x"), (V{"version", "3", "14", "don", "t", "foo", "bar", "42x"}));
    // a UAX #29 boundary between two letters or digits cuts (superscript two is not Numeric there)
    EXPECT_EQ(tokens_of("x² m2"), (V{"x", "²", "m2"}));
    EXPECT_EQ(tokens_of("x² m2", ndd::Tokenizer::Words), (V{"x²", "m2"}));
}

TEST(TokenizeUnicode, MixedScriptsInOneRun) {
    EXPECT_EQ(tokens_of("abc漢字def한글ghi"), (V{"abc", "漢", "字", "def", "한", "글", "ghi"}));
}

TEST(TokenizeUnicode, InvalidUtf8SeparatesLikeWords) {
    std::string s = "ab\xFF" "cd\xE6\x97" "ef\xC3";
    EXPECT_EQ(tokens_of(s), (V{"ab", "cd", "ef"}));
    EXPECT_EQ(tokens_of(s), tokens_of(s, ndd::Tokenizer::Words));
}

TEST(TokenizeUnicode, VariantsKeptForTheMeasurement) {
    EXPECT_EQ(tokens_of("北京大学 a", ndd::Tokenizer::UnicodeBigrams), (V{"北京", "京大", "大学", "a"}));
    EXPECT_EQ(tokens_of("京 a", ndd::Tokenizer::UnicodeBigrams), (V{"京", "a"}));
    EXPECT_EQ(tokens_of("我们今天去北京", ndd::Tokenizer::UnicodeDictionary), (V{"我们", "今天", "去", "北京"}));
}

// On text that has no character the two tokenizers treat differently (ASCII), they agree exactly.
TEST(TokenizeUnicode, AsciiTextTokenizesAsWords) {
    std::mt19937 rng(24);
    const std::string alphabet = "abcXYZ019 .,;:'_-\t\n!?()";
    for (int round = 0; round < 300; round++) {
        std::string s;
        size_t n = rng() % 200;
        for (size_t i = 0; i < n; i++) s += alphabet[rng() % alphabet.size()];
        ASSERT_EQ(tokens_of(s), tokens_of(s, ndd::Tokenizer::Words)) << s;
    }
}

// Random text from every script involved: the stream and the cursor agree, and no token is empty
// or holds a separator.
TEST(TokenizeUnicode, CursorAndStreamAgreeOnRandomText) {
    std::mt19937 rng(7);
    const char* pieces[] = {"a", "Z", "9", " ", ".", "'", "漢", "字", "か", "カ", "ー", "한", "ภ", "า", "ษ", "ไ", "ท",
                            "ย", "\xE0\xB8\xB4", "\xCC\x81", "Σ", "İ", "ß", "\xFF", "\xE6\x97", "²", "\n"};
    for (int round = 0; round < 300; round++) {
        std::string s;
        size_t n = rng() % 80;
        for (size_t i = 0; i < n; i++) s += pieces[rng() % (sizeof pieces / sizeof *pieces)];
        for (auto t : {ndd::Tokenizer::Unicode, ndd::Tokenizer::UnicodeBigrams, ndd::Tokenizer::UnicodeDictionary}) {
            V a = tokens_of(s, t);
            ASSERT_EQ(a, cursor_tokens_of(s, t)) << s;
            for (const auto& tok : a) {
                ASSERT_FALSE(tok.empty());
                ASSERT_EQ(tok.find(' '), std::string::npos) << s;
            }
        }
    }
}

TEST(TokenizeUnicode, LongThaiRunWithoutSpaces) {
    std::string s;
    for (int i = 0; i < 20000; i++) s += "ภาษาไทยง่ายนิดเดียว";
    V t = tokens_of(s);
    ASSERT_EQ(t.size(), 100000u);
    EXPECT_EQ(t[99999], "เดียว");
}

TEST(TokenizeUnicode, CancelledDuringALongDocument) {
    std::string s;
    for (int i = 0; i < 50000; i++) s += "ภาษาไทย 漢字 word ";
    ndd::InterruptPoller poller([] { return 1; });
    ndd::TokenStream ts;
    EXPECT_THROW(ts.tokenize(s.data(), s.size(), poller, ndd::Tokenizer::Unicode), ndd::Cancelled);
}

// ICU's BreakIterator is costly to open: one per thread is kept and reused, two only while two
// texts are tokenized at once (jaccard holds both documents' streams).
TEST(TokenizeUnicode, IteratorsAreCachedPerThread) {
    std::thread([] {
        EXPECT_EQ(ndd::word_break_iterators_created(), 0u);
        for (int i = 0; i < 100; i++) tokens_of("ภาษาไทย café");
        EXPECT_EQ(ndd::word_break_iterators_created(), 1u);
        tokens_of("漢字 abc");  // never needs ICU
        EXPECT_EQ(ndd::word_break_iterators_created(), 1u);
        ndd::InterruptPoller poller(nullptr);
        std::string a = "ภาษาไทย", b = "café ok";
        ndd::TokenCursor ca(a.data(), a.size(), ndd::Tokenizer::Unicode);
        ndd::TokenCursor cb(b.data(), b.size(), ndd::Tokenizer::Unicode);
        EXPECT_EQ(ca.next(poller), "ภาษา");
        EXPECT_EQ(cb.next(poller), "café");
        EXPECT_EQ(ndd::word_break_iterators_created(), 2u);
    }).join();
}

TEST(TokenizeUnicode, ShinglesAndSimilarityUseTheTokenizer) {
    ndd::InterruptPoller poller(nullptr);
    std::string a = "我们今天去北京大学参观", b = "我们今天去北京大学看看";
    ndd::TokenStream ta, tb;
    ta.tokenize(a.data(), a.size(), poller, ndd::Tokenizer::Unicode);
    tb.tokenize(b.data(), b.size(), poller, ndd::Tokenizer::Unicode);
    // 11 characters each, 8 shingles of 4, the first 6 shared
    ndd::ShingleOverlap o = ndd::shingle_overlap(ta, tb, 4, poller);
    EXPECT_EQ(o.size_a, 8u);
    EXPECT_EQ(o.inter, 6u);
    // the streaming path gives what the stream gives
    EXPECT_EQ(ndd::simhash_shingles(a.data(), a.size(), 4, poller, ndd::Tokenizer::Unicode),
              ndd::simhash_shingles(ta, 4, poller));
}

TEST(TokenizerApi, NamesAndVersions) {
    int32_t t = -1;
    EXPECT_EQ(ndd_tokenizer_from_name("words", 5, &t), NDD_OK);
    EXPECT_EQ(t, NDD_TOKENIZER_WORDS);
    EXPECT_EQ(ndd_tokenizer_from_name("unicode", 7, &t), NDD_OK);
    EXPECT_EQ(t, NDD_TOKENIZER_UNICODE);
    EXPECT_EQ(ndd_tokenizer_from_name("Unicode", 7, &t), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_tokenizer_from_name("unicode ", 8, &t), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_tokenizer_from_name("", 0, &t), NDD_INVALID_ARGUMENT);
    char buf[128];
    ASSERT_EQ(ndd_tokenizer_version(NDD_TOKENIZER_WORDS, buf, sizeof buf), NDD_OK);
    EXPECT_EQ(std::string(buf).find("icu"), std::string::npos) << buf;
    ASSERT_EQ(ndd_tokenizer_version(NDD_TOKENIZER_UNICODE, buf, sizeof buf), NDD_OK);
    EXPECT_NE(std::string(buf).find("/icu-"), std::string::npos) << buf;
    EXPECT_EQ(ndd_tokenizer_version(NDD_TOKENIZER_UNICODE, buf, 5), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_tokenizer_version(7, buf, sizeof buf), NDD_INVALID_ARGUMENT);
    // an unknown number is refused by every entry point, not read as some tokenizer
    uint64_t fp;
    EXPECT_EQ(ndd_fp_simhash_text("a b", 3, 1, &fp, 7, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_simhash_text("a b", 3, 1, &fp, NDD_TOKENIZER_UNICODE, nullptr), NDD_OK);
}

}  // namespace
