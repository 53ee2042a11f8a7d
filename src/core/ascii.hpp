// ASCII case folding for the names the web's formats declare case-insensitive and ASCII-only: HTML
// attribute values such as <meta name="Description">, URL schemes and hosts' "xn--" prefixes, query
// parameter names. Unicode text is folded by ICU (tokenize.hpp), never here.
#ifndef NDD_ASCII_HPP
#define NDD_ASCII_HPP

#include <cstddef>
#include <string_view>

namespace ndd {

inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Whether a and b are equal once their ASCII letters are folded to lower case (other bytes compared
// as they are).
inline bool ascii_iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); i++)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

}  // namespace ndd

#endif
