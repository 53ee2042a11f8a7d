// url.hpp
//    The canonical form of a URL and its SURT key: the one definition of ndd's URL rules.
//
// Parsing and RFC 3986 syntax normalization are uriparser's (liburiparser, a complete RFC 3986
// parser), internationalized host names go to ASCII through libidn2 (IDNA2008 with UTS #46
// non-transitional mapping, as browsers do). What ndd adds on top is the crawler's part.
//
// url_normalize(url), in this order:
//   1. Bytes >= 0x80 are percent-encoded (RFC 3987 section 3.1: an IRI becomes a URI), so
//      `http://bücher.de/ü` parses. Any other character RFC 3986 does not allow (space, '\', '<',
//      control characters, '%' not followed by two hex digits) makes the URL invalid.
//   2. RFC 3986 parse; the URL must be absolute (have a scheme). http and https URLs must have a
//      non-empty host.
//   3. RFC 3986 section 6.2.2 syntax normalization of scheme, userinfo and query (uriparser):
//      scheme in lower case, percent-encodings in upper case (%3a -> %3A), percent-encoded
//      unreserved characters decoded (%7E -> ~, %41 -> A). The path is step 6.
//   4. Host: an IPv6 literal in its RFC 5952 text form ([0:0::1] -> [::1]). A registered name
//      is percent-decoded (once) and must be UTF-8; it is split into labels at '.' and at the
//      dots UTS #46 maps to '.' (U+3002, U+FF0E, U+FF61); an ASCII label is put in lower case,
//      any other label (non-ASCII, or an A-label `xn--`) goes through UTS #46 (libidn2:
//      non-transitional, NFC, validity, punycode: bücher -> xn--bcher-kva). Every label must
//      then hold only a-z, 0-9, '-' and '_' (STD3's rule, plus '_' as browsers and DNS allow):
//      whatever spells '/', '@', ':', '?', '#', '%', '\', ',' ... in a host (itself,
//      percent-encoded, full-width, a compatibility form) is rejected, so no spelling makes the
//      normalized URL read another host. A host whose last label is a number (digits, or 0x
//      hexadecimal) is an IPv4 address in WHATWG's spellings (127.1, 0x7f.0.0.1, 2130706433,
//      0177.0.0.1) written in dotted decimal, or invalid (a.123, 256.1.1.1).
//   5. Port: leading zeros dropped, above 65535 invalid; empty (`http://h:/`) or the scheme's
//      default (http 80, https 443) removed.
//   6. Path, segment by segment: percent-encodings as in step 3; path parameters (`;name=value`
//      inside a segment) whose name is a tracking or session name (below) removed
//      (`/a.jsp;jsessionid=0A1B` -> `/a.jsp`); then, last, dot segments removed (RFC 3986
//      5.2.4): a segment that is `.` or `..` once decoded and stripped (`%2e%2E`,
//      `..;jsessionid=1`) is one, `..;v=1` is not. So one normalization is enough. A rootless
//      path (`urn:a/../b`) is opaque (no dot segments removed), and a path without an authority
//      that would start with `//` keeps a leading `/.` (`foo:/.//a`, not `foo://a`). Empty ->
//      "/" when there is an authority.
//   7. Query: split on '&'; empty parameters (`a=1&&b=2`) and tracking or session parameters
//      removed; the rest sorted by name, bytewise, stable (equal names keep their order:
//      `?b=2&a=1&a=0` -> `?a=1&a=0&b=2`); an empty query (`?`, or nothing left) removed.
//   8. Fragment removed.
//   Userinfo is kept (normalized). Not folded: http vs https, `www.`, a trailing slash on a
//   non-empty path, a trailing dot of the host: each may or may not serve the same page, which is
//   for content to tell (ndd_mirrors, content hashes).
//   Guarantees (test/unit/test_url.cpp, properties over generated URLs): url_normalize(x) =
//   x for every x it returns; url_surt(u) = url_surt(url_normalize(u)), defined for the same u.
//
//   Tracking and session names, compared without regard to ASCII case: every name starting with
//   `utm_`, and gclid, dclid, gbraid, wbraid, fbclid, msclkid, yclid, mc_cid, mc_eid, jsessionid,
//   phpsessid, sid, sessionid. This list is frozen (a stored normalized URL must not change under
//   its user); a new list would be a new function or option.
//
// url_surt(url): the SURT key (Heritrix, the Wayback Machine's CDX) of url_normalize(url):
//   host labels reversed and joined by ',' (a trailing dot dropped), then ':port' if any, then
//   ')', then path and query: `https://www.Example.com/a?b=1` -> `com,example,www)/a?b=1` (a
//   host holds no ',' or ')', so the key's host part reads back as the normalized host). The
//   scheme and userinfo are dropped for http and https (as CDX does); other schemes with a host
//   keep `scheme:` in front (`ftp:org,debian,ftp)/`). IP literals are not reversed. A URL without
//   an authority (mailto:, urn:) is its normalized form.
#ifndef NDD_URL_HPP
#define NDD_URL_HPP

#include <cstddef>
#include <string>
#include <string_view>

namespace ndd {

struct UrlResult {
    bool ok = false;
    bool too_long = false;
    std::string text;          // the normalized URL or SURT key when ok
    std::size_t path_start = 0;  // offset of the path when there is an authority, else 0
    std::string why;           // the reason when !ok
};

UrlResult url_normalize(std::string_view url);
UrlResult url_surt(std::string_view url);

// True when name (a query or path parameter name, already normalized) is a tracking or session
// parameter of the list above.
bool url_is_tracking_name(std::string_view name);

// See ndd_url_common_suffix in url_api.h.
std::size_t url_common_suffix(std::string_view a, std::size_t a_path, std::string_view b,
                              std::size_t b_path) noexcept;

}  // namespace ndd

#endif  // NDD_URL_HPP
