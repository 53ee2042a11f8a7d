// Unit tests of ndd's URL rules (url.hpp): each normalization step, the SURT key, rejections with
// their reasons, the C entry points' allocation and status, and the common path suffix of mirror
// detection checked against a brute force over segment lists.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "url.hpp"
#include "url_api.h"

namespace {

std::string norm(const std::string& u) {
    ndd::UrlResult r = ndd::url_normalize(u);
    return r.ok ? r.text : "!" + r.why;
}

std::string surt(const std::string& u) {
    ndd::UrlResult r = ndd::url_surt(u);
    return r.ok ? r.text : "!" + r.why;
}

TEST(UrlNormalize, SyntaxNormalization) {
    EXPECT_EQ(norm("HTTP://WWW.Example.COM/a"), "http://www.example.com/a");   // scheme, host case
    EXPECT_EQ(norm("http://h/%7euser/%3a%2f"), "http://h/~user/%3A%2F");      // decode unreserved, upper hex
    EXPECT_EQ(norm("http://h/%41%5A"), "http://h/AZ");
    EXPECT_EQ(norm("http://h/a/./b/../c/./"), "http://h/a/c/");               // dot segments
    EXPECT_EQ(norm("http://h/../../x"), "http://h/x");
    EXPECT_EQ(norm("http://h"), "http://h/");                                // empty path
    EXPECT_EQ(norm("http://h/a/"), "http://h/a/");                           // trailing slash kept
    EXPECT_EQ(norm("http://%65xample.com/"), "http://example.com/");
    EXPECT_EQ(norm("http://ex%2eAmple.com/"), "http://ex.ample.com/");       // a decoded dot is a dot
}

TEST(UrlNormalize, Ports) {
    EXPECT_EQ(norm("http://h:80/"), "http://h/");
    EXPECT_EQ(norm("https://h:443/"), "https://h/");
    EXPECT_EQ(norm("https://h:0443/"), "https://h/");
    EXPECT_EQ(norm("http://h:443/"), "http://h:443/");   // not http's default
    EXPECT_EQ(norm("https://h:80/"), "https://h:80/");
    EXPECT_EQ(norm("http://h:/"), "http://h/");
    EXPECT_EQ(norm("http://h:08080/"), "http://h:8080/");
    EXPECT_EQ(norm("http://h:65535/"), "http://h:65535/");
    EXPECT_EQ(norm("http://h:65536/"), "!its port is above 65535");
    EXPECT_EQ(norm("http://h:123456789012345678901234567890/"), "!its port is above 65535");
}

TEST(UrlNormalize, FragmentAndQuery) {
    EXPECT_EQ(norm("http://h/a#top"), "http://h/a");
    EXPECT_EQ(norm("http://h/a?#top"), "http://h/a");
    EXPECT_EQ(norm("http://h/a?"), "http://h/a");
    EXPECT_EQ(norm("http://h/a?&&"), "http://h/a");
    EXPECT_EQ(norm("http://h/a?b=2&a=1&a=0&c"), "http://h/a?a=1&a=0&b=2&c");  // stable by name
    EXPECT_EQ(norm("http://h/a?a=2&a=1"), "http://h/a?a=2&a=1");
    EXPECT_EQ(norm("http://h/a?a=1&&b=2&"), "http://h/a?a=1&b=2");
    EXPECT_EQ(norm("http://h/a?x=1/2"), "http://h/a?x=1/2");
    EXPECT_EQ(norm("http://h/a?B=1&a=1"), "http://h/a?B=1&a=1");  // bytewise: 'B' < 'a'
}

TEST(UrlNormalize, TrackingParameters) {
    EXPECT_EQ(norm("http://h/?utm_source=x&UTM_Medium=y&utm_=z&id=3"), "http://h/?id=3");
    EXPECT_EQ(norm("http://h/?gclid=1&FBCLID=2&msclkid=3&dclid=4&gbraid=5&wbraid=6&yclid=7"), "http://h/");
    EXPECT_EQ(norm("http://h/?mc_cid=1&mc_eid=2&x=0"), "http://h/?x=0");
    EXPECT_EQ(norm("http://h/?JSESSIONID=1&phpsessid=2&sid=3&SessionId=4"), "http://h/");
    EXPECT_EQ(norm("http://h/?sidebar=1&usid=2&utm=3"), "http://h/?sidebar=1&usid=2&utm=3");
    EXPECT_EQ(norm("http://h/?utm%5Fsource=x"), "http://h/");  // %5F is '_', decoded first
    EXPECT_EQ(norm("http://h/a.jsp;jsessionid=0A1B?x=1"), "http://h/a.jsp?x=1");
    EXPECT_EQ(norm("http://h/a.jsp;JSessionID=0A1B;v=2"), "http://h/a.jsp;v=2");
    EXPECT_EQ(norm("http://h/d;sid=9/a"), "http://h/d/a");
    EXPECT_EQ(norm("http://h/a;v=1"), "http://h/a;v=1");
}

TEST(UrlNormalize, Hosts) {
    EXPECT_EQ(norm("http://b\xc3\xbc" "cher.de/"), "http://xn--bcher-kva.de/");
    EXPECT_EQ(norm("http://B\xc3\x9c" "CHER.de/"), "http://xn--bcher-kva.de/");  // UTS #46 maps case
    EXPECT_EQ(norm("http://b%C3%BCcher.de/"), "http://xn--bcher-kva.de/");
    EXPECT_EQ(norm("http://XN--BCHER-KVA.de/"), "http://xn--bcher-kva.de/");
    EXPECT_EQ(norm("http://h/\xc3\xbc?q=\xc3\xa9"), "http://h/%C3%BC?q=%C3%A9");
    EXPECT_EQ(norm("http://[0:0:0:0:0:0:0:1]:8080/a"), "http://[::1]:8080/a");
    EXPECT_EQ(norm("http://[FE80::A]/"), "http://[fe80::a]/");
    EXPECT_EQ(norm("http://[v1.FE]/"), "http://[v1.fe]/");
    EXPECT_EQ(norm("http://10.0.0.1:80/"), "http://10.0.0.1/");
    EXPECT_EQ(norm("http://User:Pw@Example.com/"), "http://User:Pw@example.com/");
    EXPECT_EQ(norm("http://@h/"), "http://@h/");
    EXPECT_EQ(norm("http://example.com./"), "http://example.com./");
    EXPECT_EQ(norm("mailto:Joe@Example.COM"), "mailto:Joe@Example.COM");
    EXPECT_EQ(norm("FTP://ftp.Debian.org:21/pub/"), "ftp://ftp.debian.org:21/pub/");
}

TEST(UrlNormalize, NotFolded) {
    EXPECT_NE(norm("http://h/"), norm("https://h/"));
    EXPECT_NE(norm("http://www.h/"), norm("http://h/"));
    EXPECT_NE(norm("http://h/a/"), norm("http://h/a"));
}

TEST(UrlNormalize, Rejections) {
    EXPECT_EQ(norm("example.com/a"), "!it has no scheme (a relative reference is not a URL)");
    EXPECT_EQ(norm("//example.com/a"), "!it has no scheme (a relative reference is not a URL)");
    EXPECT_EQ(norm(""), "!it has no scheme (a relative reference is not a URL)");
    EXPECT_EQ(norm("http://"), "!it has no host");
    EXPECT_EQ(norm("http:///a"), "!it has no host");
    EXPECT_EQ(norm("https:"), "!it has no host");
    EXPECT_EQ(norm("http://h/a b"), "!unexpected byte 0x20 at byte 11");
    EXPECT_EQ(norm("http://h/%zz"), "!unexpected 'z' at byte 11");
    EXPECT_EQ(norm("http://h/\xc3\xbc%g"), "!unexpected 'g' at byte 13");  // offsets in the caller's bytes
    EXPECT_EQ(norm("http://h/%"), "!it ends too early");
    EXPECT_EQ(norm("http://h/a\\b"), "!unexpected '\\' at byte 11");
    EXPECT_EQ(norm(std::string("http://h/\0", 10)), "!it holds a NUL byte");
    EXPECT_EQ(norm("http://h%00x/"), "!its host holds an encoded NUL byte");
    EXPECT_EQ(norm("http://%C3%28.de/"), "!its host is not UTF-8");
    EXPECT_EQ(norm("http://%F0%9F%98.de/"), "!its host is not UTF-8");      // truncated sequence
    EXPECT_EQ(norm("http://%ED%A0%80.de/"), "!its host is not UTF-8");      // a surrogate
    EXPECT_EQ(norm("http://%C0%AF.de/"), "!its host is not UTF-8");         // overlong '/'
    EXPECT_EQ(norm("http://xn--zz.com/").substr(0, 58), "!its host is not a valid internationalized domain name (st");
    EXPECT_EQ(norm("http://[::1/"), "!unexpected '/' at byte 12");
    EXPECT_EQ(norm("http://[1::2::3]/").substr(0, 11), "!unexpected");
    ndd::UrlResult r = ndd::url_normalize("http://h/" + std::string(NDD_URL_MAX_BYTES, 'a'));
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.too_long);
    EXPECT_TRUE(ndd::url_normalize("http://h/" + std::string(NDD_URL_MAX_BYTES - 9, 'a')).ok);
}

TEST(UrlNormalize, Idempotent) {
    const char* urls[] = {"HTTP://www.Example.COM:80/a/./b/../c/%7euser/%3a?b=2&a=1&utm_source=x#f",
                          "http://b\xc3\xbc" "cher.de/\xc3\xbc?q=1", "http://[::FFFF:1.2.3.4]/",
                          "http://h/a.jsp;jsessionid=1;x=2?&z&y", "ftp://u@h:21/x/../y"};
    for (const char* u : urls) {
        std::string once = norm(u);
        ASSERT_NE(once[0], '!') << u;
        EXPECT_EQ(norm(once), once) << u;
    }
}

TEST(UrlNormalize, HostileInputsAnswer) {
    std::mt19937 rng(22);
    const std::string alphabet = "abc%:/?#[]@!$&'()*+,;=-._~0123456789\\ \x01\x7f\x80\xc3\xbc\xff";
    for (int i = 0; i < 20000; i++) {
        std::string u = i % 2 ? "http://" : "";
        int len = static_cast<int>(rng() % 40);
        for (int j = 0; j < len; j++) u.push_back(alphabet[rng() % alphabet.size()]);
        ndd::UrlResult r = ndd::url_normalize(u);
        if (r.ok) {
            EXPECT_EQ(norm(r.text), r.text) << u;  // whatever is accepted is a fixed point
        } else {
            EXPECT_FALSE(r.why.empty()) << u;
        }
        (void)ndd::url_surt(u);
    }
    std::string slashes = "http://h" + std::string(NDD_URL_MAX_BYTES - 8, '/');
    EXPECT_EQ(norm(slashes).size(), slashes.size());
    std::string dots = "http://h/";
    while (dots.size() + 3 <= NDD_URL_MAX_BYTES) dots += "../";
    EXPECT_EQ(norm(dots), "http://h/");
}

// ---- properties over generated URLs (issue 31): idempotence, SURT consistency, one host ----

// The UTF-8 bytes of code point cp.
std::string utf8(unsigned cp) {
    std::string o;
    if (cp < 0x80) {
        o.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        o.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        o.push_back(static_cast<char>(0x80 | (cp & 63)));
    } else if (cp < 0x10000) {
        o.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        o.push_back(static_cast<char>(0x80 | ((cp >> 6) & 63)));
        o.push_back(static_cast<char>(0x80 | (cp & 63)));
    } else {
        o.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        o.push_back(static_cast<char>(0x80 | ((cp >> 12) & 63)));
        o.push_back(static_cast<char>(0x80 | ((cp >> 6) & 63)));
        o.push_back(static_cast<char>(0x80 | (cp & 63)));
    }
    return o;
}

// Every spelling of the ASCII character c that a URL's host could hold: itself, percent-encoded
// (both cases of hex), full-width (U+FF01..U+FF5E), and the other compatibility forms UTS #46
// maps to it (small forms U+FE50..U+FE6B, ideographic and halfwidth dots).
std::vector<std::string> spellings(char c) {
    static const char kHexU[] = "0123456789ABCDEF", kHexL[] = "0123456789abcdef";
    unsigned char u = static_cast<unsigned char>(c);
    std::vector<std::string> v = {std::string(1, c), std::string("%") + kHexU[u >> 4] + kHexU[u & 15],
                                  std::string("%") + kHexL[u >> 4] + kHexL[u & 15]};
    if (u > 0x20 && u < 0x7f) v.push_back(utf8(0xFF00 + u - 0x20));
    struct Small {
        char c;
        unsigned cp;
    };
    static const Small kSmall[] = {{',', 0xFE50}, {'.', 0xFE52}, {';', 0xFE54}, {':', 0xFE55}, {'?', 0xFE56},
                                   {'!', 0xFE57}, {'(', 0xFE59}, {')', 0xFE5A}, {'#', 0xFE5F}, {'&', 0xFE60},
                                   {'*', 0xFE61}, {'+', 0xFE62}, {'-', 0xFE63}, {'<', 0xFE64}, {'>', 0xFE65},
                                   {'=', 0xFE66}, {'\\', 0xFE68}, {'$', 0xFE69}, {'%', 0xFE6A}, {'@', 0xFE6B},
                                   {'.', 0x3002}, {'.', 0xFF61}, {'/', 0x2215}, {'/', 0x2044}};
    for (const Small& s : kSmall)
        if (s.c == c) v.push_back(utf8(s.cp));
    return v;
}

template <typename T>
const T& pick(std::mt19937& rng, const std::vector<T>& v) {
    return v[rng() % v.size()];
}

// A URL from hostile parts: every delimiter in every spelling in hosts, dot segments mixed with
// parameters and encoded dots, backslashes, userinfo, ports, IPv4 spellings, IPv6, IDN.
std::string gen_url(std::mt19937& rng) {
    static const std::vector<std::string> schemes = {"http", "https", "HTTP", "hTTps", "ftp", "foo", "ws"};
    static const std::vector<std::string> userinfos = {"", "", "", "u@", "u:p@", "@", "U%40x@", "a\xEF\xBC\xA0" "b@",
                                                       "example.com@", "u:p:q@", "%3A@"};
    static const std::vector<std::string> labels = {
        "a", "B", "www", "Example", "com", "org", "r3---sn-x", "a_b", "-a", "xn--bcher-kva", "XN--ZCA", "xn--zz",
        "b\xC3\xBC" "cher", "B\xC3\x9C" "CHER", "\xC3\x9F", "\xE4\xBE\x8B\xE3\x81\x88", "\xEF\xBD\x81\xEF\xBD\x82",
        "a\xC2\xAD" "b", "\xC2\xAD", "a\xE2\x80\x8D" "b", "\xE2\x92\x88" "x", "\xE2\x91\xB4", "%41bc", "%C3%BC",
        "%C3%28", "1", "0x7f", "0177", "256", "4294967295", "4294967296", "12", "\xEF\xBC\x91\xEF\xBC\x92", ""};
    static const std::vector<std::string> ips = {"1.2.3.4", "127.0.0.1", "0x7f.1", "2130706433", "01.02.03.04",
                                                 "1.2.3.4.", "256.1.1.1", "[::1]", "[0:0:0:0:0:0:0:1]", "[FE80::A]",
                                                 "[::ffff:1.2.3.4]", "[v1.FE]", "[::1", "1.2.3"};
    static const std::vector<std::string> ports = {"", "", "", ":80", ":0080", ":443", ":8080", ":", ":65536",
                                                   "\xEF\xBC\x9A\xEF\xBC\x98\xEF\xBC\x90", ":8o"};
    static const std::vector<std::string> segs = {
        "a", "B", "", ".", "..", "%2e", "%2E", ".%2e", "%2e%2E", "..;jsessionid=1", ".;sid=2", "..;v=1",
        "a;jsessionid=x", ";sid=1", ";JSESSIONID=1;v=2", "%7e", "%2F", "%2f..", "\xC3\xBC", "\xEF\xBC\x8F",
        "a\\b", "%5C", "x:y", "..%2F", "%252e", "a.html", "%3B", "@"};
    static const std::vector<std::string> params = {"a=1", "b=2", "utm_source=x", "", "%26", "A=1", "a=0",
                                                    "SID=3", "x=/..", "\xEF\xBC\x86" "c", "q=%2e%2e"};
    static const std::vector<std::string> frags = {"", "", "#x", "#\xEF\xBC\x8F", "#a/../b"};
    static const std::string delims = "/@:?#%\\[].,;=!$&'()*+~<>^|\" ";

    std::string u = pick(rng, schemes);
    int shape = static_cast<int>(rng() % 10);
    if (shape == 0) {  // no authority: absolute, rootless, or one that dot segments could turn into one
        static const std::vector<std::string> bare = {":/", ":", ":/./", ":a/", ":;sid=1/"};
        u += pick(rng, bare);
    } else {
        u += "://" + pick(rng, userinfos);
        if (shape == 1) {
            u += pick(rng, ips);
        } else {
            int n = 1 + static_cast<int>(rng() % 4);
            for (int i = 0; i < n; i++) {
                if (i > 0) u += rng() % 8 ? "." : pick(rng, spellings('.'));
                u += pick(rng, labels);
                if (rng() % 5 == 0) {  // a delimiter in one of its spellings inside the label
                    std::vector<std::string> sp = spellings(delims[rng() % delims.size()]);
                    u += pick(rng, sp) + pick(rng, labels);
                }
            }
        }
        u += pick(rng, ports);
    }
    int nseg = static_cast<int>(rng() % 6);
    for (int i = 0; i < nseg; i++) {
        if (i > 0 || shape != 0) u += "/";
        u += pick(rng, segs);
    }
    if (rng() % 2) {
        u += "?";
        int np = static_cast<int>(rng() % 4);
        for (int i = 0; i < np; i++) u += (i ? "&" : "") + pick(rng, params);
    }
    return u + pick(rng, frags);
}

// The host of a normalized URL with an authority, found by hand (not through url.cpp): between
// "//" (and userinfo '@') and the port or path.
std::string host_of(const ndd::UrlResult& n) {
    std::size_t at = n.text.find("//") + 2;
    std::string auth = n.text.substr(at, n.path_start - at);
    std::size_t u = auth.rfind('@');
    if (u != std::string::npos) auth = auth.substr(u + 1);
    std::size_t colon = auth.rfind(':');
    if (colon != std::string::npos && auth.find(']', colon) == std::string::npos) auth = auth.substr(0, colon);
    return auth;
}

// The host a SURT key names, labels put back in order. scheme_prefixed: the key starts with
// `scheme:` (every scheme but http and https).
std::string host_of_surt(const std::string& key, bool scheme_prefixed) {
    std::string h = key.substr(0, key.find(')'));
    if (scheme_prefixed) h = h.substr(h.find(':') + 1);
    if (h.compare(0, 1, "[") == 0) return h.substr(0, h.find(']') + 1);
    h = h.substr(0, h.find(':'));  // the port
    if (h.find_first_not_of("0123456789.") == std::string::npos && !h.empty()) return h;  // IPv4: not reversed
    std::vector<std::string> parts;
    std::size_t s = 0;
    for (;;) {
        std::size_t c = h.find(',', s);
        parts.push_back(h.substr(s, c == std::string::npos ? std::string::npos : c - s));
        if (c == std::string::npos) break;
        s = c + 1;
    }
    std::string out;
    for (std::size_t i = parts.size(); i-- > 0;) out += parts[i] + (i ? "." : "");
    return out;
}

bool is_ip_literal(const std::string& h) {
    if (!h.empty() && h[0] == '[') return true;
    int dots = 0;
    for (char c : h) {
        if (c == '.') dots++;
        else if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    return dots == 3;
}

// Properties of every generated URL u: normalize(normalize(u)) = normalize(u); surt(u) is defined
// exactly when normalize(u) is, and surt(u) = surt(normalize(u)); the SURT key names the
// normalized URL's host; that host is an IP literal or labels of a-z 0-9 - _ (no delimiter of
// any spelling survives). Fixed seed: the same cases on every run.
TEST(UrlProperties, GeneratedUrls) {
    std::mt19937 rng(31);
    int accepted = 0, rejected = 0, with_host = 0;
    for (int i = 0; i < 40000; i++) {
        std::string u = gen_url(rng);
        ndd::UrlResult n = ndd::url_normalize(u), s = ndd::url_surt(u);
        ASSERT_EQ(n.ok, s.ok) << u;
        if (!n.ok) {
            EXPECT_FALSE(n.why.empty()) << u;
            rejected++;
            continue;
        }
        accepted++;
        ndd::UrlResult nn = ndd::url_normalize(n.text), sn = ndd::url_surt(n.text);
        ASSERT_TRUE(nn.ok) << u << " -> " << n.text << ": " << nn.why;
        EXPECT_EQ(nn.text, n.text) << u;
        EXPECT_EQ(nn.path_start, n.path_start) << u;
        ASSERT_TRUE(sn.ok) << u;
        EXPECT_EQ(sn.text, s.text) << u;
        if (n.path_start == 0) continue;
        with_host++;
        std::string host = host_of(n);
        if (!is_ip_literal(host)) {
            EXPECT_EQ(host.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_."), std::string::npos)
                << u << " -> " << n.text;
            if (!host.empty() && host.back() == '.') host.pop_back();  // SURT drops a trailing dot
        }
        bool web = n.text.compare(0, 5, "http:") == 0 || n.text.compare(0, 6, "https:") == 0;
        EXPECT_EQ(host_of_surt(s.text, !web), host) << u << " -> " << n.text << " / " << s.text;
    }
    // not vacuous: both outcomes are common
    EXPECT_GT(accepted, 8000);
    EXPECT_GT(rejected, 8000);
    EXPECT_GT(with_host, 6000);
}

// Every spelling of a delimiter inside a host is rejected, or (the dots) is a dot: no spelling
// makes `evil.com<delim>x.example.com` a URL whose host, userinfo, port or path moved.
TEST(UrlProperties, DelimitersInHostsInEverySpelling) {
    const std::string delims = "/@:?#%\\[]<>^| \",;=!$&'()*+~`{}";
    int cases = 0;
    for (char d : delims) {
        std::vector<std::string> sp_all = spellings(d);
        for (std::size_t k = 1; k < sp_all.size(); k++) {  // [0] is the delimiter itself
            const std::string& sp = sp_all[k];
            std::string u = "http://evil.com" + sp + "x.example.com/";
            ndd::UrlResult n = ndd::url_normalize(u);
            EXPECT_FALSE(n.ok) << u << " -> " << n.text;
            cases++;
        }
    }
    int dots = 0;
    for (const std::string& sp : spellings('.')) {
        std::string u = "http://evil.com" + sp + "x.example.com/";
        if (norm(u)[0] == '!') continue;  // U+FE52 SMALL FULL STOP is disallowed by IDNA2008
        EXPECT_EQ(norm(u), "http://evil.com.x.example.com/") << sp;
        EXPECT_EQ(surt(u), "com,example,x,com,evil)/") << sp;
        dots++;
    }
    EXPECT_EQ(dots, 6);  // '.', %2E, %2e, U+FF0E, U+3002, U+FF61
    EXPECT_GT(cases, 100);
}

// One host whatever its spelling: a random ASCII host name and its spellings (upper case,
// percent-encoded, full-width letters and digits, ideographic dots) normalize to the same host,
// or the spelling is rejected (IDNA's hyphen rules apply to a full-width label, not an ASCII one).
TEST(UrlProperties, SpellingsOfOneHost) {
    std::mt19937 rng(5);
    const std::string alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_";
    int same = 0;
    for (int i = 0; i < 5000; i++) {
        std::string host;
        int nl = 1 + static_cast<int>(rng() % 3);
        for (int l = 0; l < nl; l++) {
            if (l) host += '.';
            int len = 1 + static_cast<int>(rng() % 6);
            for (int k = 0; k < len; k++) host += alphabet[rng() % (l + 1 == nl ? 26 : alphabet.size())];
        }
        std::string plain = norm("http://" + host + "/");
        std::string variant;
        for (char c : host) {
            std::vector<std::string> sp = spellings(c);
            std::string v = pick(rng, sp);
            if (c >= 'a' && c <= 'z' && rng() % 3 == 0) v = std::string(1, static_cast<char>(c - 32));
            variant += v;
        }
        std::string other = norm("http://" + variant + "/");
        if (plain[0] == '!') {
            EXPECT_EQ(other[0], '!') << host << " / " << variant;
            continue;
        }
        if (other[0] != '!') {
            EXPECT_EQ(other, plain) << host << " / " << variant;
            EXPECT_EQ(surt("http://" + variant + "/"), surt("http://" + host + "/"));
            same++;
        }
    }
    EXPECT_GT(same, 2500);
}

// IPv4 addresses in every spelling WHATWG accepts are one host; a host ending in a number that is
// not an address is rejected.
TEST(UrlProperties, Ipv4Spellings) {
    for (const char* u : {"http://127.0.0.1/", "http://127.1/", "http://0x7f.1/", "http://0X7F.0.0.1/",
                          "http://2130706433/", "http://0177.0.0.1/", "http://127.0.0.1./", "http://127.0.1/",
                          "http://%31%32%37.0.0.1/", "http://\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x97.0.0.1/",
                          "http://127\xE3\x80\x82" "0.0.1/", "http://0x7f000001/"}) {
        EXPECT_EQ(norm(u), "http://127.0.0.1/") << u;
        EXPECT_EQ(surt(u), "127.0.0.1)/") << u;
    }
    EXPECT_EQ(norm("http://255.255.255.255/"), "http://255.255.255.255/");
    EXPECT_EQ(norm("http://0/"), "http://0.0.0.0/");
    EXPECT_EQ(norm("http://0x/"), "http://0.0.0.0/");  // WHATWG: an empty hexadecimal number is 0
    for (const char* u : {"http://256.1.1.1/", "http://1.2.3.4.5/", "http://4294967296/", "http://a.123/",
                          "http://1..2/", "http://a.0x/", "http://09.1.1.1/", "http://1.256.1/", "http://1.2.65536/"}) {
        EXPECT_EQ(norm(u), "!its host ends in a number but is not an IPv4 address") << u;
    }
    EXPECT_EQ(norm("http://1.2.3.4a/"), "http://1.2.3.4a/");  // does not end in a number: a name
    EXPECT_EQ(norm("http://a.0xg/"), "http://a.0xg/");
}

// The findings of issue 31 item 5, and the dot-segment rule.
TEST(UrlProperties, Findings) {
    EXPECT_EQ(norm("http://evil.com\xEF\xBC\x8Fx.example.com/"),
              "!its host name holds '/' once mapped to ASCII, which is not allowed in a host name");
    EXPECT_EQ(surt("http://evil.com\xEF\xBC\x8Fx.example.com/"),
              "!its host name holds '/' once mapped to ASCII, which is not allowed in a host name");
    EXPECT_EQ(norm("http://example.com\xEF\xBC\xA0" "evil.com/"),
              "!its host name holds '@' once mapped to ASCII, which is not allowed in a host name");
    EXPECT_EQ(norm("http://exa\xEF\xBC\x85mple.com/"),
              "!its host name holds '%' once mapped to ASCII, which is not allowed in a host name");
    EXPECT_EQ(norm("http://a.com\xEF\xBC\x9A" "80/"),
              "!its host name holds ':' once mapped to ASCII, which is not allowed in a host name");
    EXPECT_EQ(norm("http://evil.com%2Fx.example.com/"), "!its host name holds '/', which is not allowed in a host name");
    EXPECT_EQ(norm("http://a%40b.com/"), "!its host name holds '@', which is not allowed in a host name");
    EXPECT_EQ(norm("http://a!b.com/"), "!its host name holds '!', which is not allowed in a host name");
    EXPECT_EQ(norm("http://a,b.com/"), "!its host name holds ',', which is not allowed in a host name");
    // libidn2's STD3 flag would have made these ab.com and evil.comx: not used
    EXPECT_EQ(norm("http://a_b.com/"), "http://a_b.com/");
    EXPECT_EQ(norm("http://a\xEF\xBC\xBF" "b.com/"), "http://a_b.com/");  // full-width low line
    EXPECT_EQ(norm("http://r3---sn-x.googlevideo.com/"), "http://r3---sn-x.googlevideo.com/");
    EXPECT_EQ(norm("http://a\xC2\xAD" "b.com/"), "http://ab.com/");  // soft hyphen: mapped to nothing
    EXPECT_EQ(norm("http://%C2%AD/"), "!it has no host");                 // ... so this host is empty
    EXPECT_EQ(norm("http://xn--bcher-kva.de/"), "http://xn--bcher-kva.de/");
    EXPECT_EQ(norm("http://xn--Bcher-kva.de/"), "http://xn--bcher-kva.de/");
    // dot segments are removed after the tracking parameters and encodings: one pass is enough
    EXPECT_EQ(norm("http://a.com/x/..;jsessionid=1/y"), "http://a.com/y");
    EXPECT_EQ(norm("http://a.com/x/.;sid=1/y"), "http://a.com/x/y");
    EXPECT_EQ(norm("http://a.com/x/%2e%2E/y"), "http://a.com/y");
    EXPECT_EQ(norm("http://a.com/x/.%2e"), "http://a.com/");
    EXPECT_EQ(norm("http://a.com/x/y/..;jsessionid=1"), "http://a.com/x/");
    EXPECT_EQ(norm("http://a.com/x/..;v=1/y"), "http://a.com/x/..;v=1/y");  // not a dot segment (RFC 3986)
    EXPECT_EQ(norm("http://a.com/x/..;v=1;sid=2/y"), "http://a.com/x/..;v=1/y");
    EXPECT_EQ(norm("http://a.com/x/%2F../y"), "http://a.com/x/%2F../y");   // %2F.. is one segment
    EXPECT_EQ(norm("http://a.com/a/..;x/../b"), "http://a.com/a/b");
    EXPECT_EQ(norm("http://a.com/a/..;sid=1/../b"), "http://a.com/b");
    // a path without an authority never reads as one
    EXPECT_EQ(norm("foo:/.//evil.com/x"), "foo:/.//evil.com/x");
    EXPECT_EQ(norm("foo:/a/..//evil.com"), "foo:/.//evil.com");
    EXPECT_EQ(norm("foo:;sid=1//evil.com"), "foo:/.//evil.com");
    EXPECT_EQ(norm("urn:a/../b"), "urn:a/../b");  // rootless paths are opaque
    EXPECT_EQ(norm("foo:;sid=1/%2e%2E/b"), "foo:/b");  // until they start with a slash
    EXPECT_EQ(norm("http://h/a\\b"), "!unexpected '\\' at byte 11");
}

TEST(UrlSurt, Keys) {
    EXPECT_EQ(surt("https://www.Example.com/a?b=1"), "com,example,www)/a?b=1");
    EXPECT_EQ(surt("http://www.example.com/a?b=1#x"), "com,example,www)/a?b=1");
    EXPECT_EQ(surt("http://example.com"), "com,example)/");
    EXPECT_EQ(surt("http://example.com./"), "com,example)/");
    EXPECT_EQ(surt("http://h:8080/a?utm_source=1&z=1&a=2"), "h:8080)/a?a=2&z=1");
    EXPECT_EQ(surt("http://user@a.b.c/"), "c,b,a)/");
    EXPECT_EQ(surt("http://10.1.2.3/x"), "10.1.2.3)/x");
    EXPECT_EQ(surt("http://[::1]/x"), "[::1])/x");
    EXPECT_EQ(surt("ftp://ftp.debian.org/pub/"), "ftp:org,debian,ftp)/pub/");
    EXPECT_EQ(surt("mailto:joe@example.com"), "mailto:joe@example.com");
    EXPECT_EQ(surt("nope"), "!it has no scheme (a relative reference is not a URL)");
    // a domain and its subdomains are one range of keys
    std::string d = surt("http://example.com/"), s = surt("http://docs.example.com/");
    EXPECT_EQ(s.compare(0, 11, "com,example"), 0);
    EXPECT_EQ(d.compare(0, 11, "com,example"), 0);
}

TEST(UrlApi, AllocatesAndReports) {
    NddUrl out;
    int valid = -1;
    char why[NDD_URL_WHY_BYTES];
    const char* u = "HTTP://H/a?b=1&a=2";
    ASSERT_EQ(ndd_url_normalize(u, std::strlen(u), std::malloc, &out, &valid, why), NDD_OK);
    EXPECT_EQ(valid, NDD_URL_OK);
    EXPECT_EQ(std::string(out.data, out.len), "http://h/a?a=2&b=1");
    EXPECT_EQ(out.path_start, 8u);
    std::free(out.data);
    ASSERT_EQ(ndd_url_surt(u, 5, std::malloc, &out, &valid, why), NDD_OK);
    EXPECT_EQ(valid, NDD_URL_INVALID);
    EXPECT_EQ(out.data, nullptr);
    EXPECT_STREQ(why, "it has no host");
    auto fail = [](size_t) -> void* { return nullptr; };
    EXPECT_EQ(ndd_url_normalize(u, std::strlen(u), fail, &out, &valid, why), NDD_OUT_OF_MEMORY);
}

// The longest common suffix of whole segments, by brute force over the segment lists.
size_t brute_suffix(const std::string& a, size_t ap, const std::string& b, size_t bp) {
    auto segs = [](const std::string& s, size_t p) {
        std::string path = s.substr(p + 1), query;
        size_t q = path.find('?');
        if (q != std::string::npos) {
            query = path.substr(q);
            path = path.substr(0, q);
        }
        std::vector<std::string> v;
        size_t start = 0;
        for (;;) {
            size_t sl = path.find('/', start);
            v.push_back(path.substr(start, sl == std::string::npos ? std::string::npos : sl - start));
            if (sl == std::string::npos) break;
            start = sl + 1;
        }
        v.back() += query;
        return v;
    };
    std::vector<std::string> x = segs(a, ap), y = segs(b, bp);
    size_t n = 0, len = 0, best = 0;
    while (n < x.size() && n < y.size() && x[x.size() - 1 - n] == y[y.size() - 1 - n]) {
        len += x[x.size() - 1 - n].size() + (n > 0 ? 1 : 0);
        n++;
        best = len;
    }
    return best;
}

TEST(UrlCommonSuffix, Examples) {
    auto cs = [](const std::string& a, const std::string& b) {
        ndd::UrlResult x = ndd::url_normalize(a), y = ndd::url_normalize(b);
        size_t n = ndd::url_common_suffix(x.text, x.path_start, y.text, y.path_start);
        return x.text.substr(0, x.text.size() - n) + " | " + y.text.substr(0, y.text.size() - n) + " | " +
               x.text.substr(x.text.size() - n);
    };
    EXPECT_EQ(cs("http://a/docs/x.html", "http://b/mirror/docs/x.html"), "http://a/ | http://b/mirror/ | docs/x.html");
    EXPECT_EQ(cs("http://a/3.10/x.html", "http://a/3.11/x.html"), "http://a/3.10/ | http://a/3.11/ | x.html");
    EXPECT_EQ(cs("http://a/x/", "http://b/y/"), "http://a/x/ | http://b/y/ | ");     // empty last segment
    EXPECT_EQ(cs("http://a/", "http://b/"), "http://a/ | http://b/ | ");
    EXPECT_EQ(cs("http://a/x?q=1", "http://b/y/x?q=1"), "http://a/ | http://b/y/ | x?q=1");
    EXPECT_EQ(cs("http://a/?q=1", "http://b/?q=1"), "http://a/ | http://b/ | ?q=1");
    EXPECT_EQ(cs("http://a/p?x=/q", "http://b/p?x=/q"), "http://a/ | http://b/ | p?x=/q");
    EXPECT_EQ(cs("http://a/z?x=/q", "http://b/p?x=/q"), "http://a/z?x=/q | http://b/p?x=/q | ");
    EXPECT_EQ(cs("http://a/ab.html", "http://b/b.html"), "http://a/ab.html | http://b/b.html | ");
    EXPECT_EQ(cs("http://a/x/y", "http://a/x/y"), "http://a/ | http://a/ | x/y");
}

TEST(UrlCommonSuffix, AgreesWithSegments) {
    std::mt19937 rng(7);
    const char* parts[] = {"a", "b", "", "ab", "a?b", "?", "b/a", "x=1", "?q=/a"};
    for (int i = 0; i < 50000; i++) {
        std::string u[2];
        for (std::string& s : u) {
            s = rng() % 2 ? "http://h" : "http://g/k";
            int n = 1 + static_cast<int>(rng() % 4);
            for (int j = 0; j < n; j++) {
                s += "/";
                s += parts[rng() % 9];
            }
        }
        // segment lists as the normalized URL has them: the first '?' starts the query
        size_t ap = u[0].find('/', 7), bp = u[1].find('/', 7);
        EXPECT_EQ(ndd::url_common_suffix(u[0], ap, u[1], bp), brute_suffix(u[0], ap, u[1], bp))
            << u[0] << " " << u[1];
    }
}

}  // namespace
