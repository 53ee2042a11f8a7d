// url.cpp
//    ndd's URL rules (url.hpp) over uriparser and libidn2, and their C entry points (url_api.h).
#include "url.hpp"

#include <arpa/inet.h>
#include <idn2.h>
#include <uriparser/Uri.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "ascii.hpp"
#include "guard.hpp"
#include "url_api.h"

namespace ndd {

namespace {

// uriparser's parse result, freed on every path out.
struct ParsedUri {
    UriUriA uri;
    bool live = false;
    ParsedUri() { std::memset(&uri, 0, sizeof uri); }
    ~ParsedUri() {
        if (live) uriFreeUriMembersA(&uri);
    }
    ParsedUri(const ParsedUri&) = delete;
    ParsedUri& operator=(const ParsedUri&) = delete;
};

std::string_view range(const UriTextRangeA& r) {
    if (r.first == nullptr || r.afterLast == nullptr || r.afterLast < r.first) return {};
    return std::string_view(r.first, static_cast<std::size_t>(r.afterLast - r.first));
}

char ascii_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

const char* const kTrackingNames[] = {"gclid",  "dclid",  "gbraid",     "wbraid",    "fbclid",
                                      "msclkid", "yclid", "mc_cid",     "mc_eid",    "jsessionid",
                                      "phpsessid", "sid", "sessionid"};

// The parts of a URL after normalization, each in its final text form.
struct UrlParts {
    std::string scheme;
    bool has_authority = false;
    bool has_userinfo = false;
    std::string userinfo;
    std::string host;       // IPv6 and IPvFuture literals with their brackets
    bool host_is_ip = false;
    std::string port;       // empty: none (or the default, removed)
    std::string path;
    std::string query;      // without '?'; empty: none
};

struct Reject {
    std::string why;
};

// Step 1: bytes >= 0x80 percent-encoded.
std::string encode_non_ascii(std::string_view in) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(in.size());
    for (unsigned char c : in) {
        if (c >= 0x80) {
            out.push_back('%');
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 15]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

// The offset in the caller's text of offset `pos` of the encoded text.
std::size_t original_offset(std::string_view in, std::size_t pos) {
    std::size_t enc = 0;
    for (std::size_t i = 0; i < in.size(); i++) {
        std::size_t w = static_cast<unsigned char>(in[i]) >= 0x80 ? 3 : 1;
        if (enc + w > pos) return i;
        enc += w;
    }
    return in.size();
}

std::string describe_byte(unsigned char c) {
    char buf[32];
    if (c >= 0x21 && c < 0x7f)
        std::snprintf(buf, sizeof buf, "'%c'", c);
    else
        std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
    return buf;
}

// Whether the len bytes at s are UTF-8 (no overlong form, surrogate or code point above U+10FFFF).
bool is_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t n;
        unsigned int cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 1, cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2, cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3, cp = c & 0x07;
        } else {
            return false;
        }
        if (i + n >= s.size()) return false;
        for (std::size_t k = 1; k <= n; k++) {
            unsigned char d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        i += n + 1;
    }
    return true;
}

// The characters a host name may hold once it is ASCII: letters (lower case by then), digits,
// '-', and '_' (not in STD3's LDH set, but in real host names that browsers and DNS accept).
bool host_char_ok(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// One label of a host name to ASCII. An ASCII label other than an A-label (xn--) is only put
// in lower case: IDNA's hyphen rules would reject real ASCII names (r3---sn-x.googlevideo.com),
// as browsers do not apply them to ASCII. Anything else goes through UTS #46 (libidn2: mapping,
// NFC, non-transitional, validity; an A-label is decoded and checked). libidn2 runs without
// IDN2_USE_STD3_ASCII_RULES: in libidn2 2.3 that flag drops the characters STD3 disallows
// instead of failing (`a_b` -> `ab`, `evil.com／x` -> `evil.comx`), which is host confusion of
// its own; the STD3 check is done after the mapping instead, by host_char_ok over the result
// (where WHATWG checks its forbidden domain code points: whatwg/url issue 818).
std::string label_to_ascii(std::string_view label) {
    bool ascii = true;
    for (char c : label) ascii &= static_cast<unsigned char>(c) < 0x80;
    std::string out;
    if (ascii && !(label.size() >= 4 && ascii_iequals(label.substr(0, 4), "xn--"))) {
        out.assign(label);
    } else {
        std::string z(label);
        char* mapped = nullptr;
        int rc = idn2_to_ascii_8z(z.c_str(), &mapped, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
        if (rc != IDN2_OK) {
            if (rc == IDN2_MALLOC) throw std::bad_alloc();
            throw Reject{std::string("its host is not a valid internationalized domain name (") +
                         idn2_strerror(rc) + ")"};
        }
        out.assign(mapped);
        idn2_free(mapped);
    }
    for (char& c : out) {
        c = ascii_lower(c);
        if (!host_char_ok(c))
            throw Reject{"its host name holds " + describe_byte(static_cast<unsigned char>(c)) +
                         (ascii ? "" : " once mapped to ASCII") +
                         ", which is not allowed in a host name"};
    }
    return out;
}

// WHATWG's IPv4 number: decimal, 0x hexadecimal or 0-prefixed octal; false if it is none, or
// above 2^32 - 1 (every part is at most that, so a larger one fails whatever its place).
bool ipv4_number(std::string_view s, std::uint64_t* value) {
    int base = 10;
    if (s.size() >= 2 && s[0] == '0' && s[1] == 'x') {
        s.remove_prefix(2);
        base = 16;
    } else if (s.size() >= 2 && s[0] == '0') {
        s.remove_prefix(1);
        base = 8;
    }
    std::uint64_t v = 0;
    for (char c : s) {
        int d = hex_value(c);
        if (d < 0 || d >= base) return false;
        v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
        if (v > 0xFFFFFFFFull) return false;
    }
    *value = v;
    return true;
}

// WHATWG's "ends in a number": the last label (a trailing empty one aside) is all digits or a
// 0x number. Such a host is an IPv4 address in one of its spellings (127.1, 0x7f.0.0.1,
// 2130706433, 0177.0.0.1, full-width digits) or invalid, never a domain name.
bool ends_in_number(std::string_view host) {
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    std::size_t dot = host.rfind('.');
    std::string_view last = dot == std::string_view::npos ? host : host.substr(dot + 1);
    if (last.empty()) return false;
    bool digits = true;
    for (char c : last) digits &= c >= '0' && c <= '9';
    std::uint64_t v;
    return digits || (last.size() >= 2 && last[0] == '0' && last[1] == 'x' && ipv4_number(last, &v));
}

// A host that ends in a number to its dotted-decimal IPv4 form (WHATWG's IPv4 parser).
std::string parse_ipv4(std::string_view host) {
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    std::vector<std::uint64_t> parts;
    std::size_t start = 0;
    for (;;) {
        std::size_t dot = host.find('.', start);
        std::string_view part = host.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        std::uint64_t v;
        if (part.empty() || parts.size() == 4 || !ipv4_number(part, &v))
            throw Reject{"its host ends in a number but is not an IPv4 address"};
        parts.push_back(v);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    std::uint64_t addr = 0;
    for (std::size_t i = 0; i + 1 < parts.size(); i++) {
        if (parts[i] > 255) throw Reject{"its host ends in a number but is not an IPv4 address"};
        addr = (addr << 8) | parts[i];
    }
    int rest = static_cast<int>(5 - parts.size());  // bytes the last number fills
    if (parts.back() >= (1ull << (8 * rest))) throw Reject{"its host ends in a number but is not an IPv4 address"};
    addr = (addr << (8 * rest)) | parts.back();
    return std::to_string((addr >> 24) & 255) + "." + std::to_string((addr >> 16) & 255) + "." +
           std::to_string((addr >> 8) & 255) + "." + std::to_string(addr & 255);
}

// Step 4 for a registered name: percent-decoded, split into labels at '.' and the three dots
// UTS #46 maps to it, each label to ASCII (label_to_ascii), then an IPv4 address if it ends in a
// number. So every spelling of a host (percent-encoded, full-width, upper case, U-label or
// A-label) gives one host or none, and no spelling can hold a delimiter ('/', '@', ':', '%', ...)
// that the normalized URL would read differently.
std::string normalize_reg_name(std::string_view host, bool* is_ip) {
    std::string decoded;
    for (std::size_t i = 0; i < host.size(); i++) {
        if (host[i] == '%' && i + 2 < host.size() && hex_value(host[i + 1]) >= 0 &&
            hex_value(host[i + 2]) >= 0) {
            unsigned char c = static_cast<unsigned char>(hex_value(host[i + 1]) * 16 + hex_value(host[i + 2]));
            if (c == 0) throw Reject{"its host holds an encoded NUL byte"};
            decoded.push_back(static_cast<char>(c));
            i += 2;
        } else {
            decoded.push_back(host[i]);
        }
    }
    if (!is_utf8(decoded)) throw Reject{"its host is not UTF-8"};
    // U+3002 IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP, U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP
    static const char* const kDots[] = {"\xE3\x80\x82", "\xEF\xBC\x8E", "\xEF\xBD\xA1"};
    std::string out;
    std::size_t start = 0;
    for (std::size_t i = 0;; i++) {
        std::size_t sep = 0;
        if (i < decoded.size()) {
            if (decoded[i] == '.') sep = 1;
            for (const char* d : kDots)
                if (decoded.compare(i, 3, d) == 0) sep = 3;
            if (sep == 0) continue;
        }
        out.append(label_to_ascii(std::string_view(decoded).substr(start, i - start)));
        if (i >= decoded.size()) break;
        out.push_back('.');
        i += sep - 1;
        start = i + 1;
    }
    *is_ip = ends_in_number(out);
    return *is_ip ? parse_ipv4(out) : out;
}

// Step 6 for one path segment: percent-encodings in upper case, unreserved characters decoded
// (RFC 3986 6.2.2.1 and 6.2.2.2; uriparser's path normalization would also remove dot segments,
// which must come last, see normalize_path).
std::string normalize_segment_encoding(std::string_view seg) {
    std::string out;
    out.reserve(seg.size());
    for (std::size_t i = 0; i < seg.size(); i++) {
        if (seg[i] == '%' && i + 2 < seg.size() && hex_value(seg[i + 1]) >= 0 && hex_value(seg[i + 2]) >= 0) {
            char c = static_cast<char>(hex_value(seg[i + 1]) * 16 + hex_value(seg[i + 2]));
            bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                              c == '-' || c == '.' || c == '_' || c == '~';
            if (unreserved) {
                out.push_back(c);
            } else {
                out.push_back('%');
                out.push_back(ascii_upper(seg[i + 1]));
                out.push_back(ascii_upper(seg[i + 2]));
            }
            i += 2;
        } else {
            out.push_back(seg[i]);
        }
    }
    return out;
}

// Step 6 for one path segment: without its tracking and session parameters.
std::string strip_segment_params(std::string_view seg) {
    std::size_t semi = seg.find(';');
    if (semi == std::string_view::npos) return std::string(seg);
    std::string out(seg.substr(0, semi));
    while (semi != std::string_view::npos) {
        std::size_t next = seg.find(';', semi + 1);
        std::string_view param = seg.substr(semi + 1, next == std::string_view::npos ? std::string_view::npos : next - semi - 1);
        std::string_view name = param.substr(0, param.find('='));
        if (!url_is_tracking_name(name)) {
            out.push_back(';');
            out.append(param);
        }
        semi = next;
    }
    return out;
}

// Step 6: the path from uriparser's segments. Dot segments are removed last, after the
// segments' percent-encodings are normalized and their tracking parameters removed, so that a
// segment that only becomes `.` or `..` then (`%2e%2E`, `..;jsessionid=1`) is removed in the same
// pass and a second normalization finds nothing left to do. A segment with other parameters
// (`..;v=1`) is not a dot segment (RFC 3986 5.2.4 compares whole segments). A rootless path
// (`urn:a/../b`, `mailto:x`) is opaque: no dot segments are removed from it (as WHATWG).
std::string normalize_path(const UriPathSegmentA* head, bool absolute, bool has_authority) {
    std::vector<std::string> segs;
    for (const UriPathSegmentA* s = head; s != nullptr; s = s->next)
        segs.push_back(strip_segment_params(normalize_segment_encoding(range(s->text))));
    // A rootless path whose first segment was only tracking parameters (`foo:;sid=1/a`) now
    // starts with '/': it is an absolute path, and is read as one the next time.
    if (!absolute && segs.size() > 1 && segs[0].empty()) {
        segs.erase(segs.begin());
        absolute = true;
    }
    if (absolute) {
        std::vector<std::string> kept;
        for (std::size_t i = 0; i < segs.size(); i++) {
            bool last = i + 1 == segs.size();
            if (segs[i] == "." || segs[i] == "..") {
                if (segs[i] == ".." && !kept.empty()) kept.pop_back();
                if (last) kept.emplace_back();  // `/a/b/..` -> `/a/`: the path stays a directory
            } else {
                kept.push_back(std::move(segs[i]));
            }
        }
        segs.swap(kept);
    }
    std::string out = absolute ? "/" : "";
    for (std::size_t i = 0; i < segs.size(); i++) {
        if (i > 0) out.push_back('/');
        out.append(segs[i]);
    }
    // Without an authority, a path starting with `//` would read as one (`foo:/.//a` would become
    // `foo://a`, host a): keep the `/.` that RFC 3986 5.2.4 note and WHATWG keep.
    if (!has_authority && out.size() >= 2 && out[0] == '/' && out[1] == '/') out.insert(0, "/.");
    return out;
}

// Step 7.
std::string normalize_query(std::string_view q) {
    struct Param {
        std::string_view name;
        std::string_view text;
    };
    std::vector<Param> params;
    std::size_t start = 0;
    while (start <= q.size()) {
        std::size_t amp = q.find('&', start);
        if (amp == std::string_view::npos) amp = q.size();
        std::string_view p = q.substr(start, amp - start);
        if (!p.empty()) {
            std::string_view name = p.substr(0, p.find('='));
            if (!url_is_tracking_name(name)) params.push_back({name, p});
        }
        start = amp + 1;
    }
    std::stable_sort(params.begin(), params.end(),
                     [](const Param& x, const Param& y) { return x.name < y.name; });
    std::string out;
    for (const Param& p : params) {
        if (!out.empty()) out.push_back('&');
        out.append(p.text);
    }
    return out;
}

UrlParts parse_parts(std::string_view input) {
    if (input.find('\0') != std::string_view::npos) throw Reject{"it holds a NUL byte"};
    std::string enc = encode_non_ascii(input);
    ParsedUri p;
    const char* error_pos = nullptr;
    int rc = uriParseSingleUriExA(&p.uri, enc.data(), enc.data() + enc.size(), &error_pos);
    if (rc == URI_ERROR_MALLOC) throw std::bad_alloc();
    if (rc != URI_SUCCESS) {
        if (error_pos != nullptr && error_pos >= enc.data() && error_pos < enc.data() + enc.size()) {
            std::size_t at = original_offset(input, static_cast<std::size_t>(error_pos - enc.data()));
            throw Reject{"unexpected " + describe_byte(static_cast<unsigned char>(input[at])) +
                         " at byte " + std::to_string(at + 1)};
        }
        throw Reject{"it ends too early"};
    }
    p.live = true;
    if (p.uri.scheme.first == nullptr) throw Reject{"it has no scheme (a relative reference is not a URL)"};
    // The path is normalized by normalize_path (dot segments must come after the parameters go),
    // the fragment is dropped.
    rc = uriNormalizeSyntaxExA(&p.uri, URI_NORMALIZE_SCHEME | URI_NORMALIZE_USER_INFO |
                                           URI_NORMALIZE_HOST | URI_NORMALIZE_QUERY);
    if (rc == URI_ERROR_MALLOC) throw std::bad_alloc();
    if (rc != URI_SUCCESS) throw Reject{"uriparser could not normalize it"};

    UrlParts out;
    out.scheme = std::string(range(p.uri.scheme));
    for (char& c : out.scheme) c = ascii_lower(c);
    bool web = out.scheme == "http" || out.scheme == "https";
    out.has_authority = p.uri.hostText.first != nullptr;
    if (out.has_authority) {
        if (p.uri.userInfo.first != nullptr) {
            out.has_userinfo = true;
            out.userinfo = std::string(range(p.uri.userInfo));
        }
        if (p.uri.hostData.ip6 != nullptr) {
            char buf[INET6_ADDRSTRLEN];
            if (inet_ntop(AF_INET6, p.uri.hostData.ip6->data, buf, sizeof buf) == nullptr)
                throw Reject{"its IPv6 address cannot be printed"};
            out.host = std::string("[") + buf + "]";
            out.host_is_ip = true;
        } else if (p.uri.hostData.ipFuture.first != nullptr) {
            out.host = "[" + std::string(range(p.uri.hostData.ipFuture)) + "]";
            for (char& c : out.host) c = ascii_lower(c);
            out.host_is_ip = true;
        } else if (p.uri.hostData.ip4 != nullptr) {
            const unsigned char* d = p.uri.hostData.ip4->data;
            out.host = std::to_string(d[0]) + "." + std::to_string(d[1]) + "." + std::to_string(d[2]) +
                       "." + std::to_string(d[3]);
            out.host_is_ip = true;
        } else {
            out.host = normalize_reg_name(range(p.uri.hostText), &out.host_is_ip);
        }
        if (web && out.host.empty()) throw Reject{"it has no host"};
        std::string_view port = range(p.uri.portText);
        std::size_t z = 0;
        while (z + 1 < port.size() && port[z] == '0') z++;
        port.remove_prefix(z);
        if (port.size() > 5 || (!port.empty() && std::stol(std::string(port)) > 65535))
            throw Reject{"its port is above 65535"};
        if (!((out.scheme == "http" && port == "80") || (out.scheme == "https" && port == "443")))
            out.port = std::string(port);
    } else if (web) {
        throw Reject{"it has no host"};
    }

    out.path = normalize_path(p.uri.pathHead, out.has_authority || p.uri.absolutePath, out.has_authority);
    if (p.uri.query.first != nullptr) out.query = normalize_query(range(p.uri.query));
    return out;
}

std::string assemble(const UrlParts& u, std::size_t* path_start) {
    std::string out = u.scheme;
    out.push_back(':');
    if (u.has_authority) {
        out.append("//");
        if (u.has_userinfo) {
            out.append(u.userinfo);
            out.push_back('@');
        }
        out.append(u.host);
        if (!u.port.empty()) {
            out.push_back(':');
            out.append(u.port);
        }
    }
    *path_start = u.has_authority ? out.size() : 0;
    out.append(u.path);
    if (!u.query.empty()) {
        out.push_back('?');
        out.append(u.query);
    }
    return out;
}

template <typename Build>
UrlResult run_rules(std::string_view url, Build build) {
    UrlResult r;
    if (url.size() > NDD_URL_MAX_BYTES) {
        r.too_long = true;
        r.why = "it is longer than " + std::to_string(NDD_URL_MAX_BYTES) + " bytes";
        return r;
    }
    try {
        UrlParts parts = parse_parts(url);
        r.text = build(parts, &r.path_start);
        r.ok = true;
    } catch (const Reject& e) {
        r.why = e.why;
    }
    return r;
}

NddStatus to_c(const UrlResult& r, NddAllocFn alloc, NddUrl* out, int* valid, char* why) {
    return guarded([&] {
        out->data = nullptr;
        out->len = 0;
        out->path_start = 0;
        why[0] = '\0';
        if (!r.ok) {
            *valid = r.too_long ? NDD_URL_TOO_LONG : NDD_URL_INVALID;
            std::snprintf(why, NDD_URL_WHY_BYTES, "%s", r.why.c_str());
            return;
        }
        *valid = NDD_URL_OK;
        out->data = static_cast<char*>(alloc(r.text.size() + 1));
        if (out->data == nullptr) throw std::bad_alloc();
        std::memcpy(out->data, r.text.data(), r.text.size());
        out->data[r.text.size()] = '\0';
        out->len = r.text.size();
        out->path_start = r.path_start;
    });
}

}  // namespace

bool url_is_tracking_name(std::string_view name) {
    if (name.size() >= 4 && ascii_iequals(name.substr(0, 4), "utm_")) return true;
    for (const char* t : kTrackingNames)
        if (ascii_iequals(name, t)) return true;
    return false;
}

UrlResult url_normalize(std::string_view url) {
    return run_rules(url, [](const UrlParts& u, std::size_t* path_start) { return assemble(u, path_start); });
}

UrlResult url_surt(std::string_view url) {
    return run_rules(url, [](const UrlParts& u, std::size_t* path_start) {
        if (!u.has_authority) return assemble(u, path_start);
        *path_start = 0;
        std::string out;
        if (u.scheme != "http" && u.scheme != "https") {
            out = u.scheme;
            out.push_back(':');
        }
        if (u.host_is_ip) {
            out.append(u.host);
        } else {
            std::string_view host = u.host;
            if (!host.empty() && host.back() == '.') host.remove_suffix(1);
            std::size_t end = host.size();
            bool first = true;
            for (;;) {
                std::size_t dot = end == 0 ? std::string_view::npos : host.rfind('.', end - 1);
                std::size_t begin = dot == std::string_view::npos ? 0 : dot + 1;
                if (!first) out.push_back(',');
                out.append(host.substr(begin, end - begin));
                first = false;
                if (dot == std::string_view::npos) break;
                end = dot;
            }
        }
        if (!u.port.empty()) {
            out.push_back(':');
            out.append(u.port);
        }
        out.push_back(')');
        out.append(u.path);
        if (!u.query.empty()) {
            out.push_back('?');
            out.append(u.query);
        }
        return out;
    });
}

std::size_t url_common_suffix(std::string_view a, std::size_t a_path, std::string_view b,
                              std::size_t b_path) noexcept {
    if (a_path == 0 || b_path == 0 || a_path >= a.size() || b_path >= b.size()) return 0;
    std::size_t qa = a.find('?', a_path), qb = b.find('?', b_path);
    if (qa == std::string_view::npos) qa = a.size();
    if (qb == std::string_view::npos) qb = b.size();
    std::size_t limit = std::min(a.size() - a_path, b.size() - b_path);
    std::size_t m = 0;
    while (m < limit && a[a.size() - 1 - m] == b[b.size() - 1 - m]) m++;
    // The suffix of length L is whole segments when the byte before it is a path '/' (not one
    // inside the query) on both sides; L < m keeps that byte inside the common part.
    for (std::size_t len = m; len-- > 1;) {
        std::size_t pa = a.size() - len - 1, pb = b.size() - len - 1;
        if (a[pa] == '/' && pa < qa && pb < qb) return len;
    }
    return 0;
}

}  // namespace ndd

extern "C" {

NddStatus ndd_url_normalize(const char* url, size_t len, NddAllocFn alloc, NddUrl* out, int* valid,
                            char* why) {
    ndd::UrlResult r;
    NddStatus st = ndd::guarded([&] { r = ndd::url_normalize(std::string_view(url, len)); });
    if (st != NDD_OK) return st;
    return ndd::to_c(r, alloc, out, valid, why);
}

NddStatus ndd_url_surt(const char* url, size_t len, NddAllocFn alloc, NddUrl* out, int* valid,
                       char* why) {
    ndd::UrlResult r;
    NddStatus st = ndd::guarded([&] { r = ndd::url_surt(std::string_view(url, len)); });
    if (st != NDD_OK) return st;
    return ndd::to_c(r, alloc, out, valid, why);
}

size_t ndd_url_common_suffix(const char* a, size_t alen, size_t a_path, const char* b, size_t blen,
                             size_t b_path) {
    return ndd::url_common_suffix(std::string_view(a, alen), a_path, std::string_view(b, blen), b_path);
}

}  // extern "C"
