// encoding.cpp
//    Encoding detection (uchardet) and conversion to UTF-8 (ICU), see encoding.hpp.
#include "encoding.hpp"

#include <uchardet.h>
#include <unicode/ucnv.h>

#include <memory>
#include <vector>

#include "record.hpp"

namespace ndd_load {

namespace {

// uchardet reads this much: its answer settles long before, and a 200 MB text need not be read twice.
constexpr size_t kDetectBytes = 1 << 20;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool known_encoding(const std::string& name) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter* conv = ucnv_open(name.c_str(), &status);
    if (U_FAILURE(status)) return false;
    ucnv_close(conv);
    return true;
}

// UTF-8 with a few damaged bytes (a cut download, one bad sector) rather than a legacy encoding: its
// multibyte sequences mostly decode. Text in a single-byte encoding almost never forms one (an
// accented letter followed by the right continuation byte), so one valid sequence in ten suffices.
bool mostly_utf8(std::string_view s) {
    size_t valid = 0, invalid = 0;
    for (size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (n && (i + n > s.size() || !valid_utf8(s.substr(i, n)))) n = 0;
        if (n) {
            valid++;
            i += n;
        } else {
            invalid++;
            i++;
        }
    }
    return valid > 0 && invalid * 10 <= valid;
}

}  // namespace

std::string detect_encoding(std::string_view bytes, std::string_view declared) {
    if (starts_with(bytes, "\xEF\xBB\xBF")) return "UTF-8";
    if (starts_with(bytes, std::string_view("\xFF\xFE\0\0", 4))) return "UTF-32LE";
    if (starts_with(bytes, std::string_view("\0\0\xFE\xFF", 4))) return "UTF-32BE";
    if (starts_with(bytes, "\xFF\xFE")) return "UTF-16LE";
    if (starts_with(bytes, "\xFE\xFF")) return "UTF-16BE";
    if (valid_utf8(bytes) || mostly_utf8(bytes.substr(0, kDetectBytes))) return "UTF-8";
    if (!declared.empty() && known_encoding(std::string(declared))) return std::string(declared);
    std::unique_ptr<std::remove_pointer_t<uchardet_t>, void (*)(uchardet_t)> ud(uchardet_new(), uchardet_delete);
    std::string answer;
    if (ud) {
        std::string_view head = bytes.substr(0, kDetectBytes);
        if (uchardet_handle_data(ud.get(), head.data(), head.size()) == 0) {
            uchardet_data_end(ud.get());
            answer = uchardet_get_charset(ud.get());
        }
    }
    // uchardet says "ASCII" for bytes it cannot place when they are 7-bit, but the text is not
    // valid UTF-8 here: a NUL or control bytes. WINDOWS-1252 reads every byte.
    if (answer.empty() || answer == "ASCII" || !known_encoding(answer)) return "WINDOWS-1252";
    return answer;
}

Decoded decode(std::string_view bytes, const std::string& encoding) {
    Decoded out;
    if (encoding == "UTF-8") {
        std::string_view body = starts_with(bytes, "\xEF\xBB\xBF") ? bytes.substr(3) : bytes;
        out.text = clean_utf8(body);
        out.encoding = encoding;
        return out;
    }
    out.encoding = known_encoding(encoding) ? encoding : "WINDOWS-1252";
    UErrorCode status = U_ZERO_ERROR;
    // ucnv_convert works on whole buffers; the target is at most 4 bytes per source byte (a byte of a
    // single-byte encoding becomes up to 3 UTF-8 bytes, U+FFFD included), plus the terminator.
    std::vector<char> target(bytes.size() * 4 + 4);
    int32_t n = ucnv_convert("UTF-8", out.encoding.c_str(), target.data(), static_cast<int32_t>(target.size()),
                             bytes.data(), static_cast<int32_t>(bytes.size()), &status);
    if (U_FAILURE(status)) {
        out.text = clean_utf8(bytes);
        out.encoding += " (conversion failed; read as UTF-8)";
        return out;
    }
    std::string_view converted(target.data(), static_cast<size_t>(n));
    // the byte order mark becomes U+FEFF: not part of the text
    if (starts_with(converted, "\xEF\xBB\xBF")) converted.remove_prefix(3);
    out.text = clean_utf8(converted);
    return out;
}

Decoded to_utf8(std::string_view bytes, std::string_view declared) { return decode(bytes, detect_encoding(bytes, declared)); }

}  // namespace ndd_load
