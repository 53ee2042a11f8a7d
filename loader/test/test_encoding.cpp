// test_encoding.cpp
//    Encoding detection (uchardet) and conversion (ICU): texts written in legacy encodings by ICU's
//    own converters, read back to the same UTF-8.
#include <gtest/gtest.h>
#include <unicode/ucnv.h>

#include <vector>

#include "encoding.hpp"
#include "record.hpp"

using namespace ndd_load;

namespace {

std::string encode(const std::string& utf8, const char* encoding) {
    UErrorCode status = U_ZERO_ERROR;
    std::vector<char> out(utf8.size() * 4 + 8);
    int32_t n = ucnv_convert(encoding, "UTF-8", out.data(), static_cast<int32_t>(out.size()), utf8.data(),
                             static_cast<int32_t>(utf8.size()), &status);
    EXPECT_TRUE(U_SUCCESS(status)) << encoding;
    return std::string(out.data(), static_cast<size_t>(n));
}

const std::string kFrench =
    "Le cœur de l'été: les élèves réécrivent leurs thèmes à la fenêtre, où la lumière tombe sur les "
    "pages déjà écrites. Ça ne s'arrête jamais: on efface, on recommence, on se décourage à peine.";
const std::string kRussian =
    "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему. "
    "Всё смешалось в доме Облонских. Жена узнала, что муж был в связи с бывшею в их доме француженкою.";
const std::string kJapanese =
    "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で"
    "ニャーニャー泣いていた事だけは記憶している。";

}  // namespace

TEST(Encoding, Utf8StaysAsItIs) {
    Decoded d = to_utf8(kFrench);
    EXPECT_EQ(d.encoding, "UTF-8");
    EXPECT_EQ(d.text, kFrench);
    EXPECT_EQ(to_utf8("\xEF\xBB\xBF" + kFrench).text, kFrench);  // the byte order mark is not text
}

TEST(Encoding, LegacyEncodingsAreDetected) {
    struct Case {
        const std::string* text;
        const char* encoding;
    } cases[] = {{&kFrench, "windows-1252"}, {&kRussian, "windows-1251"}, {&kRussian, "KOI8-R"},
                 {&kJapanese, "Shift_JIS"},  {&kJapanese, "EUC-JP"},      {&kRussian, "UTF-16LE"}};
    for (const auto& c : cases) {
        std::string bytes = encode(*c.text, c.encoding);
        if (std::string(c.encoding) == "UTF-16LE") bytes = "\xFF\xFE" + bytes;
        Decoded d = to_utf8(bytes);
        EXPECT_EQ(d.text, *c.text) << c.encoding << " read as " << d.encoding;
    }
}

TEST(Encoding, DeclaredEncodingWinsOverDetection) {
    std::string bytes = encode(kRussian, "ISO-8859-5");
    EXPECT_EQ(to_utf8(bytes, "ISO-8859-5").text, kRussian);
    // an unknown declared name is ignored, not an error
    EXPECT_TRUE(valid_utf8(to_utf8(bytes, "no-such-charset").text));
}

// UTF-8 with a damaged byte stays UTF-8 (the bad byte replaced), not a legacy reading of it all.
TEST(Encoding, DamagedUtf8StaysUtf8) {
    std::string bytes = kFrench.substr(0, 60) + "\xff" + kFrench.substr(60);
    Decoded d = to_utf8(bytes);
    EXPECT_EQ(d.encoding, "UTF-8");
    EXPECT_EQ(d.text, kFrench.substr(0, 60) + "\xef\xbf\xbd" + kFrench.substr(60));
    // while Latin-1 text, whose accented letters never form UTF-8 sequences, is not taken for it
    EXPECT_NE(detect_encoding(encode(kFrench, "ISO-8859-1")), "UTF-8");
}

// Bytes that are no text in any encoding still give valid UTF-8 (never a failed COPY).
TEST(Encoding, AnyBytesGiveValidUtf8) {
    std::string bytes;
    for (int i = 0; i < 4096; i++) bytes.push_back(static_cast<char>((i * 7919) & 0xff));
    Decoded d = to_utf8(bytes);
    EXPECT_TRUE(valid_utf8(d.text));
    EXPECT_FALSE(d.encoding.empty());
    EXPECT_TRUE(valid_utf8(decode(bytes, "UTF-8").text));
    EXPECT_TRUE(valid_utf8(decode(bytes, "Shift_JIS").text));
}
