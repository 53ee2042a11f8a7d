// Unit tests of ndd's URL rules (url.hpp): each normalization step, the SURT key, rejections with
// their reasons, the C entry points' allocation and status, and the common path suffix of mirror
// detection checked against a brute force over segment lists.
#include <gtest/gtest.h>

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
