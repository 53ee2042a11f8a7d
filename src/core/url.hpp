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
//   3. RFC 3986 section 6.2.2 syntax normalization (uriparser): scheme and host in lower case,
//      percent-encodings in upper case (%3a -> %3A), percent-encoded unreserved characters
//      decoded (%7E -> ~, %41 -> A), dot segments removed.
//   4. Host: an IPv6 literal in its RFC 5952 text form ([0:0::1] -> [::1]); a host holding
//      percent-encoded bytes (an internationalized name after step 1) is decoded, must be UTF-8,
//      and goes to its ASCII form (bücher.de -> xn--bcher-kva.de); ASCII letters lower case.
//   5. Port: leading zeros dropped, above 65535 invalid; empty (`http://h:/`) or the scheme's
//      default (http 80, https 443) removed.
//   6. Path: empty -> "/" when there is an authority. Path parameters (`;name=value` inside a
//      segment) whose name is a tracking or session name (below) are removed:
//      `/a.jsp;jsessionid=0A1B` -> `/a.jsp`.
//   7. Query: split on '&'; empty parameters (`a=1&&b=2`) and tracking or session parameters
//      removed; the rest sorted by name, bytewise, stable (equal names keep their order:
//      `?b=2&a=1&a=0` -> `?a=1&a=0&b=2`); an empty query (`?`, or nothing left) removed.
//   8. Fragment removed.
//   Userinfo is kept (normalized). Not folded: http vs https, `www.`, a trailing slash on a
//   non-empty path, a trailing dot of the host: each may or may not serve the same page, which is
//   for content to tell (ndd_mirrors, content hashes).
//
//   Tracking and session names, compared without regard to ASCII case: every name starting with
//   `utm_`, and gclid, dclid, gbraid, wbraid, fbclid, msclkid, yclid, mc_cid, mc_eid, jsessionid,
//   phpsessid, sid, sessionid. This list is frozen (a stored normalized URL must not change under
//   its user); a new list would be a new function or option.
//
// url_surt(url): the SURT key (Heritrix, the Wayback Machine's CDX) of url_normalize(url):
//   host labels reversed and joined by ',' (a trailing dot dropped), then ':port' if any, then
//   ')', then path and query: `https://www.Example.com/a?b=1` -> `com,example,www)/a?b=1`. The
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
