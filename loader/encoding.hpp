// encoding.hpp
//    Text in any common encoding to UTF-8: uchardet detects (Mozilla's universal charset detector: it
//    tells the legacy single-byte and CJK encodings apart on statistics of the language, where ICU's
//    detector mostly answers ISO-8859-1), ICU converts (the project already links ICU; invalid bytes
//    become U+FFFD instead of stopping the conversion).
#ifndef NDD_LOAD_ENCODING_HPP
#define NDD_LOAD_ENCODING_HPP

#include <string>
#include <string_view>

namespace ndd_load {

struct Decoded {
    std::string text;      // valid UTF-8, no NUL
    std::string encoding;  // what the bytes were read as, e.g. "UTF-8", "WINDOWS-1252", "UTF-16LE"
};

// The encoding of bytes: a byte order mark first, then valid UTF-8 as UTF-8, then uchardet's answer
// (declared, when not empty, is tried before uchardet: an HTML page's meta charset), WINDOWS-1252
// when uchardet has none (every byte is a character there).
std::string detect_encoding(std::string_view bytes, std::string_view declared = {});

// The bytes read as encoding (ICU converter names and aliases), as UTF-8. An unknown name falls back
// to WINDOWS-1252, and says so in the result's encoding.
Decoded decode(std::string_view bytes, const std::string& encoding);

// detect_encoding, then decode.
Decoded to_utf8(std::string_view bytes, std::string_view declared = {});

}  // namespace ndd_load

#endif  // NDD_LOAD_ENCODING_HPP
