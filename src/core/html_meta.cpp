// html_meta.cpp
//    The metadata of a page in one SAX pass of libxml2's HTML parser; the sources and their order
//    are in html_meta.hpp. As in html_blocks.cpp, no exception crosses libxml2's frames: each
//    callback catches, stops the parser, and the error is rethrown once the chunk has returned.
#include "html_meta.hpp"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string_view>

#include "ascii.hpp"
#include "html_feed.hpp"
#include "html_jsonld.hpp"

namespace ndd {

namespace {

bool space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Appends s to out with runs of whitespace as one space, no leading space, at most
// kHtmlMetaMaxBytes bytes (cut at a character boundary); `pending` carries a space between calls.
void append_collapsed(std::string& out, bool& pending, std::string_view s) {
    for (size_t i = 0; i < s.size() && out.size() < kHtmlMetaMaxBytes; i++) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == 0) continue;  // no NUL in a text or jsonb value
        if (space(c)) {
            pending = !out.empty();
            continue;
        }
        if (pending) {
            out.push_back(' ');
            pending = false;
        }
        out.push_back(static_cast<char>(c));
    }
    if (out.size() >= kHtmlMetaMaxBytes) {
        out.resize(kHtmlMetaMaxBytes);
        // drop a character cut in the middle: back to the last lead byte
        size_t end = out.size();
        size_t i = end;
        while (i > 0 && (static_cast<unsigned char>(out[i - 1]) & 0xC0) == 0x80) i--;
        if (i > 0) {
            unsigned char lead = static_cast<unsigned char>(out[i - 1]);
            size_t need = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
            if (end - (i - 1) < need) out.resize(i - 1);
        }
    }
}

std::string collapsed(std::string_view s) {
    std::string out;
    bool pending = false;
    append_collapsed(out, pending, s);
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

// Whether the space-separated list `list` (rel, itemprop) holds `word`, case-insensitively.
bool has_token(std::string_view list, std::string_view word) {
    size_t i = 0;
    while (i < list.size()) {
        while (i < list.size() && space(static_cast<unsigned char>(list[i]))) i++;
        size_t j = i;
        while (j < list.size() && !space(static_cast<unsigned char>(list[j]))) j++;
        if (j > i && ascii_iequals(list.substr(i, j - i), word)) return true;
        i = j;
    }
    return false;
}

enum Field { kTitle, kCanonical, kOgUrl, kLanguage, kDescription, kPublished, kFields };

struct MetaBuilder : HtmlSaxTarget {
    std::string value[kFields];
    int rank[kFields] = {99, 99, 99, 99, 99, 99};  // rank of the source each value came from
    size_t depth = 0;
    // text being collected: <title>, an itemprop="datePublished" element, a JSON-LD script
    enum class Capture { None, Title, DateText, JsonLd } capture = Capture::None;
    size_t capture_depth = 0;
    std::string text;
    bool pending = false;
    size_t article_depth = 0;  // depth of the outermost open <article>, 0: none

    static constexpr size_t kJsonLdMax = 1 << 20;  // bytes of one JSON-LD script looked at

    void offer(Field f, int r, std::string_view v) {
        if (r >= rank[f]) return;
        std::string c = collapsed(v);
        if (c.empty()) return;
        value[f] = std::move(c);
        rank[f] = r;
    }

    void begin_capture(Capture c) {
        capture = c;
        capture_depth = depth;
        text.clear();
        pending = false;
    }

    void start(const char* name, const char** atts) {
        depth++;
        auto attr = [&](const char* want) -> const char* {
            if (!atts) return nullptr;
            for (size_t i = 0; atts[i]; i += 2)
                if (!std::strcmp(atts[i], want)) return atts[i + 1] ? atts[i + 1] : "";
            return nullptr;
        };
        if (!std::strcmp(name, "html")) {
            const char* lang = attr("lang");
            if (!lang) lang = attr("xml:lang");
            if (lang) offer(kLanguage, 0, lang);
        } else if (!std::strcmp(name, "title")) {
            if (capture == Capture::None && rank[kTitle] > 0) begin_capture(Capture::Title);
        } else if (!std::strcmp(name, "link")) {
            const char* rel = attr("rel");
            const char* href = attr("href");
            if (rel && href && has_token(rel, "canonical")) offer(kCanonical, 0, href);
        } else if (!std::strcmp(name, "meta")) {
            const char* content = attr("content");
            if (!content) content = "";
            const char* prop = attr("property");
            const char* nm = attr("name");
            const char* equiv = attr("http-equiv");
            std::string_view key = prop ? prop : nm ? nm : "";
            if (ascii_iequals(key, "og:url")) offer(kOgUrl, 0, content);
            else if (ascii_iequals(key, "og:title")) offer(kTitle, 1, content);
            else if (ascii_iequals(key, "description")) offer(kDescription, 0, content);
            else if (ascii_iequals(key, "og:description")) offer(kDescription, 1, content);
            else if (ascii_iequals(key, "article:published_time")) offer(kPublished, 0, content);
            if (equiv && ascii_iequals(equiv, "content-language")) offer(kLanguage, 1, content);
        } else if (!std::strcmp(name, "script")) {
            const char* type = attr("type");
            if (type && ascii_iequals(collapsed(type), "application/ld+json") && capture == Capture::None && rank[kPublished] > 2)
                begin_capture(Capture::JsonLd);
        } else if (!std::strcmp(name, "article")) {
            if (article_depth == 0) article_depth = depth;
        } else if (!std::strcmp(name, "time") && article_depth) {
            if (const char* dt = attr("datetime")) offer(kPublished, 3, dt);
        }
        const char* itemprop = attr("itemprop");
        if (itemprop && has_token(itemprop, "datePublished") && rank[kPublished] > 1) {
            const char* v = attr("content");
            if (!v) v = attr("datetime");
            if (v) offer(kPublished, 1, v);
            else if (capture == Capture::None) begin_capture(Capture::DateText);
        }
    }

    // JSON-LD's datePublished is read from script content (html_feed.hpp)
    static constexpr bool kKeepsScript = true;

    // the elements still open when the parser ended a document (html_feed.hpp)
    void close_all() {
        while (depth > 0) end();
    }

    void end() {
        if (depth == 0) return;
        if (capture != Capture::None && depth == capture_depth) {
            if (capture == Capture::Title) offer(kTitle, 0, text);
            else if (capture == Capture::DateText) offer(kPublished, 1, text);
            else if (capture == Capture::JsonLd) {
                std::string d = json_ld_date_published(text);
                if (!d.empty()) offer(kPublished, 2, d);
            }
            capture = Capture::None;
            text.clear();
        }
        if (depth == article_depth) article_depth = 0;
        depth--;
    }

    void characters(const char* s, size_t n) {
        if (capture == Capture::None) return;
        if (capture == Capture::JsonLd) {
            text.append(s, std::min(n, kJsonLdMax - std::min(kJsonLdMax, text.size())));
        } else {
            append_collapsed(text, pending, std::string_view(s, n));
        }
    }

};

extern "C" {
static void meta_start(void* ud, const xmlChar* name, const xmlChar** atts) {
    auto* b = static_cast<MetaBuilder*>(ud);
    b->guard([&] { b->start(reinterpret_cast<const char*>(name), reinterpret_cast<const char**>(atts)); });
}
static void meta_end(void* ud, const xmlChar*) {
    auto* b = static_cast<MetaBuilder*>(ud);
    b->guard([&] { b->end(); });
}
static void meta_characters(void* ud, const xmlChar* s, int n) {
    auto* b = static_cast<MetaBuilder*>(ud);
    b->guard([&] { b->characters(reinterpret_cast<const char*>(s), n > 0 ? static_cast<size_t>(n) : 0); });
}
static void meta_error(void*, xmlErrorPtr) {}
}


}  // namespace

HtmlMeta html_meta(const char* html, size_t len, InterruptPoller& poller) {
    htmlSAXHandler sax;
    std::memset(&sax, 0, sizeof sax);
    sax.startElement = meta_start;
    sax.endElement = meta_end;
    sax.characters = meta_characters;
    sax.cdataBlock = meta_characters;  // script text (JSON-LD) arrives here
    sax.serror = meta_error;
    sax.initialized = XML_SAX2_MAGIC;

    // The same path as the text blocks' (html_feed.hpp): the pre-pass's bounds hold here too.
    MetaBuilder b;
    html_sax_parse(html, len, &sax, b, poller);
    return HtmlMeta{std::move(b.value[kTitle]),    std::move(b.value[kCanonical]),   std::move(b.value[kOgUrl]),
                    std::move(b.value[kLanguage]), std::move(b.value[kDescription]), std::move(b.value[kPublished])};
}

}  // namespace ndd
