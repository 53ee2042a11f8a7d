// html_blocks.cpp
//    libxml2's HTML parser (SAX, push mode) turned into a sequence of text blocks; rules in
//    html_blocks.hpp. libxml2 is C: no exception may cross its frames, so every callback catches
//    and stops the parser, and the error is rethrown once htmlParseChunk has returned.
#include "html_blocks.hpp"

#include "ascii.hpp"
#include "html_feed.hpp"
#include "html_prepass.hpp"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

namespace ndd {

namespace {

// ---- element table ----

enum TagFlag : uint8_t {
    kBlock = 1,     // ends the current block where it starts and where it ends
    kSkip = 2,      // dropped with its whole content
    kLink = 4,      // <a>: text inside counts as link text when it has an href
    kBoiler = 8,    // boilerplate context (nav, footer, aside...)
    kContent = 16,  // content context (main, article)
    kHeader = 32,   // <header>: boilerplate unless inside content
    kRoot = 64,     // html, body: their class and id describe the page, not a part of it
    kMetadata = 128, // figcaption, time: the article's metadata (html_blocks.hpp)
};

struct TagInfo {
    const char* name;
    uint8_t flags;
    HtmlBlockKind kind;
};

// Sorted by name (binary search). Elements not listed are inline.
constexpr TagInfo kTags[] = {
    {"a", kLink, HtmlBlockKind::Other},
    {"address", kBlock, HtmlBlockKind::Other},
    {"article", kBlock | kContent, HtmlBlockKind::Other},
    {"aside", kBlock | kBoiler, HtmlBlockKind::Other},
    {"blockquote", kBlock, HtmlBlockKind::Paragraph},
    {"body", kBlock | kRoot, HtmlBlockKind::Other},
    {"br", kBlock, HtmlBlockKind::Other},
    {"button", kBlock | kBoiler, HtmlBlockKind::Other},
    {"caption", kBlock, HtmlBlockKind::Cell},
    {"center", kBlock, HtmlBlockKind::Other},
    {"dd", kBlock, HtmlBlockKind::ListItem},
    {"details", kBlock, HtmlBlockKind::Other},
    {"dialog", kBlock | kBoiler, HtmlBlockKind::Other},
    {"dir", kBlock, HtmlBlockKind::Other},
    {"div", kBlock, HtmlBlockKind::Other},
    {"dl", kBlock, HtmlBlockKind::Other},
    {"dt", kBlock, HtmlBlockKind::ListItem},
    {"fieldset", kBlock, HtmlBlockKind::Other},
    // a figure's caption describes a picture, it is no sentence of the article (the bare copies
    // of articles that the benchmarks hold have none)
    {"figcaption", kBlock | kBoiler | kMetadata, HtmlBlockKind::Paragraph},
    {"figure", kBlock, HtmlBlockKind::Other},
    {"footer", kBlock | kBoiler, HtmlBlockKind::Other},
    {"form", kBlock | kBoiler, HtmlBlockKind::Other},
    {"frameset", kBlock, HtmlBlockKind::Other},
    {"h1", kBlock, HtmlBlockKind::Heading},
    {"h2", kBlock, HtmlBlockKind::Heading},
    {"h3", kBlock, HtmlBlockKind::Heading},
    {"h4", kBlock, HtmlBlockKind::Heading},
    {"h5", kBlock, HtmlBlockKind::Heading},
    {"h6", kBlock, HtmlBlockKind::Heading},
    {"head", kSkip, HtmlBlockKind::Other},
    {"header", kBlock | kHeader, HtmlBlockKind::Other},
    {"hgroup", kBlock, HtmlBlockKind::Heading},
    {"hr", kBlock, HtmlBlockKind::Other},
    {"html", kBlock | kRoot, HtmlBlockKind::Other},
    {"iframe", kSkip, HtmlBlockKind::Other},
    {"legend", kBlock, HtmlBlockKind::Other},
    {"li", kBlock, HtmlBlockKind::ListItem},
    {"listing", kBlock, HtmlBlockKind::Pre},
    {"main", kBlock | kContent, HtmlBlockKind::Other},
    {"menu", kBlock | kBoiler, HtmlBlockKind::Other},
    {"nav", kBlock | kBoiler, HtmlBlockKind::Other},
    {"noembed", kSkip, HtmlBlockKind::Other},
    {"noframes", kSkip, HtmlBlockKind::Other},
    {"noscript", kSkip, HtmlBlockKind::Other},
    {"ol", kBlock, HtmlBlockKind::Other},
    {"option", kBlock, HtmlBlockKind::Other},
    {"p", kBlock, HtmlBlockKind::Paragraph},
    {"plaintext", kBlock, HtmlBlockKind::Pre},
    {"pre", kBlock, HtmlBlockKind::Pre},
    {"script", kSkip, HtmlBlockKind::Other},
    {"section", kBlock, HtmlBlockKind::Other},
    {"select", kBlock, HtmlBlockKind::Other},
    {"style", kSkip, HtmlBlockKind::Other},
    {"summary", kBlock, HtmlBlockKind::Other},
    {"table", kBlock, HtmlBlockKind::Other},
    {"tbody", kBlock, HtmlBlockKind::Other},
    {"td", kBlock, HtmlBlockKind::Cell},
    {"template", kSkip, HtmlBlockKind::Other},
    {"textarea", kBlock, HtmlBlockKind::Other},
    {"tfoot", kBlock, HtmlBlockKind::Other},
    {"th", kBlock, HtmlBlockKind::Cell},
    {"thead", kBlock, HtmlBlockKind::Other},
    {"time", kMetadata, HtmlBlockKind::Other},
    {"title", kSkip, HtmlBlockKind::Other},
    {"tr", kBlock, HtmlBlockKind::Other},
    {"ul", kBlock, HtmlBlockKind::Other},
    {"xmp", kBlock, HtmlBlockKind::Pre},
};

const TagInfo* find_tag(const char* name) {
    auto it = std::lower_bound(std::begin(kTags), std::end(kTags), name,
                               [](const TagInfo& t, const char* n) { return std::strcmp(t.name, n) < 0; });
    return (it != std::end(kTags) && std::strcmp(it->name, name) == 0) ? it : nullptr;
}

// ---- class, id and role words ----

// A token of a class or id names boilerplate when it equals one of these words, or starts or ends
// with one of the unambiguous roots below ("sphinxsidebar", "navbar", "sitefooter"). Whole tokens
// only for the others: "shareholders", "commentary", "promotion" and "adventure" name nothing.
constexpr std::string_view kBoilerWords[] = {
    "nav",        "navigation", "menu",      "footer",     "header",     "sidebar",   "banner",
    "cookie",     "cookies",    "consent",   "gdpr",       "advert",     "ad",        "ads",
    "adbox",      "sponsor",    "sponsored", "promo",      "breadcrumb", "breadcrumbs", "pagination",
    "pager",      "share",      "sharing",   "social",     "related",    "comment",   "comments",
    "widget",     "popup",      "modal",     "newsletter", "subscribe",  "signup",    "login",
    "toolbar",    "masthead",   "disclaimer", "copyright", "skiplink",   "skip",      "tags",
    "caption",    "credit",  // a picture's caption or its credit line, as <figcaption>
};
constexpr std::string_view kBoilerRoots[] = {"nav", "sidebar", "footer", "header", "banner", "breadcrumb",
                                             "cookie", "masthead", "toolbar", "newsletter"};
// A token names content when it equals one of these.
constexpr std::string_view kContentWords[] = {"content", "main", "article", "post", "entry", "story",
                                              "body", "text", "prose", "document"};
// A token names the article's metadata (html_blocks.hpp, above kHtmlMetadataMaxChars) when it
// equals one of these: who wrote it and when, a picture's caption or credit.
constexpr std::string_view kMetadataWords[] = {"byline",   "bylines",  "author", "authors", "dateline", "timestamp",
                                               "date",     "datetime", "caption", "credit", "credits"};

// ARIA landmark roles.
int role_hint(std::string_view role) {
    if (role == "main" || role == "article") return 1;
    if (role == "navigation" || role == "banner" || role == "contentinfo" || role == "complementary" ||
        role == "search" || role == "menu" || role == "menubar" || role == "dialog" || role == "alertdialog")
        return -1;
    return 0;
}

// What a word of the lists names (a word may name metadata and boilerplate: "caption").
enum WordFlag : uint8_t { kWordBoiler = 1, kWordContent = 2, kWordMetadata = 4 };

// The whole words of the lists in a small hash table (FNV-1a of the word): most tokens of a
// class attribute match no word, and comparing each with every word of the lists was a tenth of
// the parse. A word's flags are those of every list it is in (a word both boilerplate and content
// would be boilerplate, as html_class_hint reads them; "post-footer" is -1 by its tokens). A full slot
// (not with these lists: at most two words share one) sends further words to a list searched in
// full.
class WordTable {
public:
    WordTable() {
        for (auto r : kBoilerWords) add(r, kWordBoiler);
        for (auto r : kContentWords) add(r, kWordContent);
        for (auto r : kMetadataWords) add(r, kWordMetadata);
    }
    // the WordFlags of w, 0 for a word of no list
    uint8_t find(std::string_view w) const {
        const Entry* e = slot_[key(w)];
        for (size_t i = 0; i < kWays && !e[i].word.empty(); i++)
            if (e[i].word == w) return e[i].flags;
        for (const Entry& o : overflow_)
            if (o.word == w) return o.flags;
        return 0;
    }

private:
    struct Entry {
        std::string_view word;
        uint8_t flags = 0;
    };
    static constexpr size_t kSlots = 256, kWays = 2;
    static size_t key(std::string_view w) {
        uint32_t h = 2166136261u;
        for (unsigned char c : w) h = (h ^ c) * 16777619u;
        return h & (kSlots - 1);
    }
    void add(std::string_view w, uint8_t flags) {
        Entry* e = slot_[key(w)];
        for (size_t i = 0; i < kWays; i++) {
            if (e[i].word == w) {
                e[i].flags |= flags;
                return;
            }
            if (e[i].word.empty()) {
                e[i] = {w, flags};
                return;
            }
        }
        for (Entry& o : overflow_)
            if (o.word == w) {
                o.flags |= flags;
                return;
            }
        overflow_.push_back({w, flags});
    }
    Entry slot_[kSlots][kWays];
    std::vector<Entry> overflow_;
};

// A root is tested by its first (or last) byte inline before the rest is compared.
bool has_root(std::string_view w, std::string_view r) {
    return w.size() > r.size() &&
           ((w[0] == r[0] && std::memcmp(w.data(), r.data(), r.size()) == 0) ||
            (w.back() == r.back() && std::memcmp(w.data() + w.size() - r.size(), r.data(), r.size()) == 0));
}

// The WordFlags of a token: its own, and boilerplate when it has one of the roots.
uint8_t word_flags(std::string_view w) {
    static const WordTable table;
    if (w.empty()) return 0;
    const uint8_t exact = table.find(w);
    if (exact & kWordBoiler) return exact;
    for (auto r : kBoilerRoots)
        if (has_root(w, r)) return exact | kWordBoiler;
    return exact;
}

bool is_space_byte(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Whether one of the space-separated tokens of an attribute value (itemprop and rel list several)
// satisfies f; only the first 256 bytes are read.
template <class F>
bool any_token(const char* v, F f) {
    std::string_view s(v, std::min<size_t>(std::strlen(v), 256));
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space_byte(static_cast<unsigned char>(s[i]))) i++;
        size_t j = i;
        while (j < s.size() && !is_space_byte(static_cast<unsigned char>(s[j]))) j++;
        if (j > i && f(s.substr(i, j - i))) return true;
        i = j;
    }
    return false;
}

// itemprop="articleBody" (schema.org's Article) or "text" (its CreativeWork): the element holds
// the main text.
bool html_itemprop_is_body(const char* v) {
    return any_token(v, [](std::string_view w) { return w == "articleBody" || w == "text" || w == "reviewBody"; });
}

// itemprop of the article's metadata (schema.org's CreativeWork): who wrote it and when, and an
// image's caption. Readability takes itemprop="author" for a byline.
bool html_itemprop_is_metadata(const char* v) {
    return any_token(v, [](std::string_view w) {
        return w == "author" || w == "creator" || w == "datePublished" || w == "dateModified" || w == "dateCreated" ||
               w == "caption";
    });
}

// An inline style that hides the element (display: none, visibility: hidden), as Readability's
// isProbablyVisible: dialogs, share forms and hidden templates that browsers never show. Only the
// first 512 bytes of the attribute are looked at; spaces and case are ignored.
bool style_hides(const char* v) {
    char buf[512];
    size_t n = 0;
    for (size_t i = 0; v[i] && i < 512; i++) {
        unsigned char c = static_cast<unsigned char>(v[i]);
        if (is_space_byte(c)) continue;
        buf[n++] = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    std::string_view s(buf, n);
    return s.find("display:none") != std::string_view::npos || s.find("visibility:hidden") != std::string_view::npos;
}

// ---- UTF-8 validation ----

// Length of the valid UTF-8 sequence at p (at most n bytes), 0 when it is not one.
size_t utf8_valid_len(const unsigned char* p, size_t n) {
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return len;
}

// ---- the SAX builder ----

// HtmlRegion::signature of an element: FNV-1a of its tag name and the first token of its class
// attribute (a list item's own class comes first, its state after: "comment even depth-1",
// "comment odd alt depth-1"), folded to 16 bits; 0 when the class has no token.
uint16_t element_signature(const char* tag, const char* cls) {
    size_t i = 0;
    while (is_space_byte(static_cast<unsigned char>(cls[i]))) i++;
    if (!cls[i]) return 0;
    uint32_t h = 2166136261u;
    for (const char* p = tag; *p; p++) h = (h ^ static_cast<unsigned char>(*p)) * 16777619u;
    h = (h ^ ' ') * 16777619u;
    for (size_t n = 0; cls[i] && !is_space_byte(static_cast<unsigned char>(cls[i])) && n < 64; i++, n++)
        h = (h ^ static_cast<unsigned char>(cls[i])) * 16777619u;
    const auto s = static_cast<uint16_t>(h ^ (h >> 16));
    return s ? s : 1;
}

struct Frame {
    size_t first_block;     // blocks.size() when the element started
    uint8_t flags;          // TagFlag of the element
    bool skip;              // inside a dropped element
    bool link;              // inside <a href>
    int8_t context;         // nearest hinted ancestor's context, this element included
    uint16_t context_depth; // that ancestor's nesting depth (0: none; saturated)
    HtmlBlockKind kind;     // nearest block ancestor's kind, this element included
    int8_t own_hint;        // this element's own class/id/role hint (HtmlRegion::hint)
    bool semantic;          // <article>, <main>, role="main", itemprop="articleBody"
    uint16_t signature;     // HtmlRegion::signature
    bool aside;             // inside an <aside>
    bool meta;              // inside an element that names the article's metadata (html_blocks.hpp)
    uint32_t meta_chars_at; // the builder's text_chars when the element started
};

struct Builder : HtmlSaxTarget {
    HtmlDocument doc;
    std::vector<Frame> stack;
    // the block being filled
    size_t block_begin = 0;
    bool in_block = false;      // the current block has text
    bool pending_space = false;
    HtmlBlock cur;
    // false: the text alone is wanted (html_text), no blocks nor regions are kept
    bool keep_blocks = true;
    // HtmlFeedOptions::lean
    bool lean = true;
    // inside the page's first <title> (its text goes to doc.title), and past it
    bool in_title = false;
    bool title_seen = false;
    // Code points of the text so far (saturated at 32 bits: only differences below
    // kHtmlMetadataMaxChars matter), and of the block being filled those inside metadata markup;
    // metadata_void: the block holds text of a metadata element too long to be metadata.
    uint32_t text_chars = 0;
    uint32_t metadata_chars = 0;
    bool metadata_void = false;

    const Frame& top() const {
        static const Frame root{0, 0, false, false, 0, 0, HtmlBlockKind::Other, 0, false, 0, false, false, 0};
        return stack.empty() ? root : stack.back();
    }

    void end_block() {
        if (in_block) {
            // HtmlBlock's offsets are 32-bit: a text beyond 4 GB (out of reach from SQL, whose
            // text is at most 1 GB) is refused as memory that cannot be had
            if (doc.text.size() >= UINT32_MAX) throw std::bad_alloc();
            cur.begin = static_cast<uint32_t>(block_begin);
            cur.end = static_cast<uint32_t>(doc.text.size());
            if (keep_blocks) {
                doc.blocks.push_back(cur);
                if (metadata_chars == cur.chars && !metadata_void) mark_metadata(doc.blocks.size() - 1, true);
            }
            doc.text.push_back('\n');
        }
        in_block = false;
        pending_space = false;
    }

    void mark_metadata(size_t i, bool on) {
        std::vector<uint64_t>& m = doc.metadata;
        if (!on && (i >> 6) >= m.size()) return;
        if ((i >> 6) >= m.size()) m.resize((i >> 6) + 1, 0);
        if (on) m[i >> 6] |= uint64_t(1) << (i & 63);
        else m[i >> 6] &= ~(uint64_t(1) << (i & 63));
    }

    // The end of the outermost metadata element f: one holding more than kHtmlMetadataMaxChars
    // code points is no byline nor caption (an article in an element of class "author-x"), and
    // none of its blocks is metadata by it.
    void end_metadata(const Frame& f) {
        if (text_chars - f.meta_chars_at <= kHtmlMetadataMaxChars) return;
        for (size_t i = f.first_block; i < doc.blocks.size(); i++) mark_metadata(i, false);
        if (in_block) metadata_void = true;
    }

    void text(const unsigned char* s, size_t n) {
        const Frame& f = top();
        if (f.skip) {
            if (in_title) title_text(s, n);
            return;
        }
        for (size_t i = 0; i < n;) {
            unsigned char c = s[i];
            if (is_space_byte(c)) {
                pending_space = in_block;
                i++;
                continue;
            }
            if (c == 0xC2 && i + 1 < n && s[i + 1] == 0xA0) {  // U+00A0, no-break space
                pending_space = in_block;
                i += 2;
                continue;
            }
            if (!in_block) {
                in_block = true;
                block_begin = doc.text.size();
                cur = HtmlBlock{};
                cur.context = f.context;
                cur.context_depth = f.context_depth;
                cur.kind = f.kind;
                metadata_chars = 0;
                metadata_void = false;
            } else if (pending_space) {
                doc.text.push_back(' ');
                cur.chars++;
                if (f.link) cur.link_chars++;
                if (f.meta) metadata_chars++;
                if (text_chars < UINT32_MAX) text_chars++;
            }
            pending_space = false;
            // copy the run of non-space bytes up to the next space
            size_t j = i;
            uint64_t cps = 0;
            while (j < n && !is_space_byte(s[j]) && !(s[j] == 0xC2 && j + 1 < n && s[j + 1] == 0xA0)) {
                cps += (s[j] & 0xC0) != 0x80;
                j++;
            }
            doc.text.append(reinterpret_cast<const char*>(s + i), j - i);
            cur.chars += static_cast<uint32_t>(cps);
            if (f.link) cur.link_chars += static_cast<uint32_t>(cps);
            if (f.meta) metadata_chars += static_cast<uint32_t>(cps);
            text_chars = static_cast<uint32_t>(std::min<uint64_t>(uint64_t(text_chars) + cps, UINT32_MAX));
            i = j;
        }
    }

    // What start() reads of each attribute (the text alone needs only what hides an element);
    // libxml2 is given nothing else (html_prepass.hpp)
    HtmlAttributeUse attribute_use(std::string_view an) const {
        if (!lean) return HtmlAttributeUse::Value;
        if (an == "hidden") return HtmlAttributeUse::Name;
        if (an == "style" || an == "aria-hidden") return HtmlAttributeUse::Value;
        if (!keep_blocks) return HtmlAttributeUse::None;
        if (an == "href") return HtmlAttributeUse::Name;
        if (an == "class" || an == "id" || an == "role" || an == "itemprop" || an == "rel") return HtmlAttributeUse::Value;
        if (an == "content" || an == "property" || an == "name") return HtmlAttributeUse::Value;  // <meta>
        return HtmlAttributeUse::None;
    }

    // Text appended to t with its spaces collapsed (leading ones dropped; a trailing one is dropped
    // by html_content's comparison), up to `cap` bytes.
    static void append_collapsed(std::string& t, const unsigned char* s, size_t n, size_t cap) {
        for (size_t i = 0; i < n && t.size() < cap; i++) {
            if (is_space_byte(s[i])) {
                if (!t.empty() && t.back() != ' ') t.push_back(' ');
            } else {
                t.push_back(static_cast<char>(s[i]));
            }
        }
    }

    // The title's text, up to kHtmlTitleMaxBytes.
    void title_text(const unsigned char* s, size_t n) { append_collapsed(doc.title, s, n, kHtmlTitleMaxBytes); }

    // A <meta> that states the page's title or summary (the sources ndd_html_meta reads, html_meta.hpp):
    // the first og:title, name="description" and og:description, each up to kHtmlTitleMaxBytes.
    void meta_statement(const char** atts) {
        const char *key = nullptr, *content = nullptr;
        for (size_t i = 0; atts[i]; i += 2) {
            std::string_view an(atts[i]);
            if (an == "content") content = atts[i + 1];
            else if ((an == "property" || (an == "name" && !key)) && atts[i + 1]) key = atts[i + 1];
        }
        if (!key || !content) return;
        std::string* field = ascii_iequals(key, "og:title")         ? &doc.og_title
                              : ascii_iequals(key, "description")    ? &doc.description
                              : ascii_iequals(key, "og:description") ? &doc.og_description
                                                                     : nullptr;
        if (field && field->empty())
            append_collapsed(*field, reinterpret_cast<const unsigned char*>(content), std::strlen(content), kHtmlTitleMaxBytes);
    }

    void start(const char* name, const char** atts) {
        const TagInfo* info = find_tag(name);
        const Frame& parent = top();
        if (keep_blocks && !title_seen && info && (info->flags & kSkip) && std::strcmp(name, "title") == 0) in_title = title_seen = true;
        if (keep_blocks && atts && std::strcmp(name, "meta") == 0) meta_statement(atts);
        Frame f{0,           info ? info->flags : uint8_t(0), parent.skip, parent.link, parent.context, parent.context_depth,
                parent.kind, 0,    false, 0, parent.aside || std::strcmp(name, "aside") == 0, parent.meta, text_chars};
        if (info && (info->flags & kMetadata)) f.meta = true;
        if (info && (info->flags & kSkip)) f.skip = true;
        int hint = 0;
        bool href = false;
        if (atts) {
            for (size_t i = 0; atts[i]; i += 2) {
                // compared by length first: most attributes are none of these
                std::string_view an(atts[i]);
                const char* av = atts[i + 1] ? atts[i + 1] : "";
                if (an == "hidden") f.skip = true;
                else if (an == "aria-hidden" && !std::strcmp(av, "true")) f.skip = true;
                else if (an == "style" && style_hides(av)) f.skip = true;
                else if (an == "href") href = true;
                else if ((an == "class" || an == "id") && !(info && (info->flags & kRoot))) {
                    // An id counts only when it has at most two words: longer ones are mostly
                    // slugs of headings (id="module-email.header" is no page header). A content
                    // word does not lift a boilerplate context (<span class="text"> in a
                    // banner); main, article and role="main" do.
                    bool meta = false;
                    int h = html_class_hint(av, std::strlen(av), an[0] == 'i' ? 2 : 0, &meta);
                    if (h < 0 || (h > 0 && parent.context >= 0 && hint == 0)) hint = h;
                    f.meta |= meta;
                    if (an[0] == 'c') f.signature = element_signature(name, av);
                } else if (an == "role") {
                    int h = role_hint(av);
                    if (h > 0) f.semantic = true;
                    if (h < 0 || (h > 0 && hint >= 0)) hint = h;
                } else if (an == "itemprop") {
                    if (html_itemprop_is_body(av)) f.semantic = true;
                    else if (html_itemprop_is_metadata(av)) f.meta = true;
                } else if (an == "rel" && any_token(av, [](std::string_view w) { return w == "author"; })) {
                    f.meta = true;
                }
            }
        }
        if (info) {
            if (info->flags & kBoiler) hint = -1;
            else if ((info->flags & kHeader) && parent.context <= 0) hint = -1;
            else if (info->flags & kContent) f.semantic = true;  // main, article
        }
        // A list item is an item whatever its class: a class-less <li> is named by its tag (it
        // makes a region, and so one of a list, only when it holds several blocks: a title and
        // its text, a slide's caption, a comment, not a bullet's line).
        if (f.signature == 0 && info && info->kind == HtmlBlockKind::ListItem && std::strcmp(name, "li") == 0) f.signature = element_signature(name, name);
        f.own_hint = static_cast<int8_t>(hint);
        // The page's own statement that this is its main content outweighs a class word on the
        // same element (<article class="url-breadcrumb">). Inside an <aside> it is an item of
        // the aside (HTML's "tangentially related" content: the teaser cards of a sidebar, each
        // an <article>), not the page's main content.
        if (parent.aside) f.semantic = false;
        if (f.semantic) hint = 1;
        if (hint != 0) {
            f.context = static_cast<int8_t>(hint);
            f.context_depth = static_cast<uint16_t>(std::min<size_t>(stack.size() + 1, UINT16_MAX));
        }
        if (info && (info->flags & kLink) && href) f.link = true;
        if (info && (info->flags & kBlock)) {
            f.kind = info->kind;
            if (!parent.skip) end_block();
        }
        f.first_block = doc.blocks.size();
        stack.push_back(f);
    }

    // script and style content is dropped (sax_cdata): libxml2 need not parse it (html_feed.hpp)
    static constexpr bool kKeepsScript = false;
    // text() makes one space of any run of whitespace
    bool folds_blanks() const { return lean; }

    // JSON-LD is kept for the content model (html_jsonld.hpp), within kHtmlJsonLdMaxBytes and
    // kHtmlJsonLdMaxScripts (a page of a million empty scripts holds no million strings)
    size_t json_ld_bytes = 0;
    void json_ld(const char* s, size_t n) {
        if (!keep_blocks || n == 0 || json_ld_bytes >= kHtmlJsonLdMaxBytes || doc.json_ld.size() >= kHtmlJsonLdMaxScripts)
            return;
        n = std::min(n, kHtmlJsonLdMaxBytes - json_ld_bytes);
        json_ld_bytes += n;
        doc.json_ld.emplace_back(s, n);
    }

    // the elements still open when the parser ended a document (html_feed.hpp)
    void close_all() {
        while (!stack.empty()) end();
    }

    void end() {
        in_title = false;  // <title> holds no element: the first end after it is its own
        if (stack.empty()) return;
        Frame f = stack.back();
        size_t depth = stack.size();
        stack.pop_back();
        if (f.meta && !f.skip && keep_blocks && !top().meta) {
            if (f.flags & kBlock) end_block();  // its last block, before its length decides
            end_metadata(f);
        }
        if ((f.flags & kBlock) && !f.skip) {
            end_block();
            if (!keep_blocks) return;
            // Regions of two blocks or more (one block is no region to choose), and of the
            // elements holding the same blocks only the outermost (a wrapper div adds nothing):
            // the list stays well below the number of elements.
            size_t last = doc.blocks.size();
            const auto depth16 = static_cast<uint16_t>(std::min<size_t>(depth, UINT16_MAX));
            if (last >= f.first_block + 2) {
                if (!doc.regions.empty() && doc.regions.back().first == f.first_block && doc.regions.back().last == last) {
                    HtmlRegion& r = doc.regions.back();
                    r.depth = depth16;
                    r.hint = static_cast<int8_t>(std::clamp(r.hint + f.own_hint, -2, 2));
                    r.semantic = r.semantic || f.semantic;
                    // The outermost element that carries a class is the one among siblings: a
                    // class-less wrapper (<li><article class="comment">) names nothing, and the
                    // item it wraps keeps its name.
                    if (f.signature) r.signature = f.signature;
                } else {
                    doc.regions.push_back({static_cast<uint32_t>(f.first_block), static_cast<uint32_t>(last), depth16,
                                           depth16, f.own_hint, f.semantic, f.signature});
                }
            }
        }
    }

};

extern "C" {
static void sax_start(void* ud, const xmlChar* name, const xmlChar** atts) {
    auto* b = static_cast<Builder*>(ud);
    b->guard([&] { b->start(reinterpret_cast<const char*>(name), reinterpret_cast<const char**>(atts)); });
}
static void sax_end(void* ud, const xmlChar*) {
    auto* b = static_cast<Builder*>(ud);
    b->guard([&] { b->end(); });
}
static void sax_characters(void* ud, const xmlChar* s, int n) {
    auto* b = static_cast<Builder*>(ud);
    b->guard([&] { b->text(s, n > 0 ? static_cast<size_t>(n) : 0); });
}
// script and style content arrives here: dropped.
static void sax_cdata(void*, const xmlChar*, int) {}
// parse errors are expected on real pages: ignored, the parser recovers as browsers do.
static void sax_error(void*, xmlErrorPtr) {}
}

}  // namespace

// The input with each byte that does not start a valid UTF-8 sequence replaced by U+FFFD; empty
// when the input is valid (the common case: no copy).
std::string html_utf8_sanitized(const char* s, size_t n, InterruptPoller& poller) {
    const auto* p = reinterpret_cast<const unsigned char*>(s);
    size_t i = 0;
    while (i < n) {
        // eight ASCII bytes at a time: most of a page is markup
        if (n - i >= 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            if ((w & 0x8080808080808080ULL) == 0) {
                i += 8;
                if ((i & 0xFFFF) < 8) poller.tick();
                continue;
            }
        }
        size_t l = utf8_valid_len(p + i, n - i);
        if (l == 0) break;
        i += l;
        if ((i & 0xFFFF) < 4) poller.tick();
    }
    if (i == n) return {};
    std::string out;
    out.reserve(n + 64);
    out.append(s, i);
    while (i < n) {
        size_t l = utf8_valid_len(p + i, n - i);
        if (l == 0) {
            out += "\xEF\xBF\xBD";
            i++;
        } else {
            out.append(s + i, l);
            i += l;
        }
        if ((i & 0xFFFF) < 4) poller.tick();
    }
    return out;
}

int html_class_hint(const char* value, size_t len, size_t max_words, bool* metadata) {
    // only the first 256 bytes count: a huge attribute costs no more than a small one
    len = std::min<size_t>(len, 256);
    auto is_lower = [](unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    auto is_upper = [](unsigned char c) { return c >= 'A' && c <= 'Z'; };
    char word[257];
    size_t wl = 0, words = 0;
    int hint = 0;
    bool boiler = false, meta = false;
    if (metadata) *metadata = false;
    // per class name (a space-separated token): whether a word of it names boilerplate, content
    bool name_boiler = false, name_content = false, any_boiler_name = false, any_content_name = false;
    for (size_t i = 0; i <= len; i++) {
        unsigned char c = i < len ? static_cast<unsigned char>(value[i]) : ' ';
        // a token ends before a non-alphanumeric character and before an upper-case letter that
        // follows a lower-case one (camelCase)
        bool upper = is_upper(c);
        bool boundary = !(is_lower(c) || upper) || (upper && i > 0 && is_lower(static_cast<unsigned char>(value[i - 1])));
        if (boundary && wl > 0) {
            words++;
            const uint8_t f = word_flags(std::string_view(word, wl));
            if (f & kWordBoiler) boiler = name_boiler = true;  // boilerplate wins over content ("post-footer")
            else if (f & kWordContent) hint = 1, name_content = true;
            if (f & kWordMetadata) meta = true;
            wl = 0;
        }
        if (is_lower(c)) word[wl++] = static_cast<char>(c);
        else if (upper) word[wl++] = static_cast<char>(c - 'A' + 'a');
        if (is_space_byte(c)) {
            any_boiler_name |= name_boiler;
            any_content_name |= name_content && !name_boiler;
            name_boiler = name_content = false;
        }
    }
    any_boiler_name |= name_boiler;
    any_content_name |= name_content && !name_boiler;
    if (max_words && words > max_words) return 0;
    if (metadata) *metadata = meta;
    // One class name for the article's body and another for a sidebar or a share bar on the same
    // element cancel out, as Readability's class weight (+25 and -25) does.
    if (any_boiler_name && any_content_name) return 0;
    return boiler ? -1 : hint;
}


HtmlDocument html_blocks(const char* html, size_t len, InterruptPoller& poller) {
    return html_blocks(html, len, poller, HtmlFeedOptions());
}

HtmlDocument html_blocks(const char* html, size_t len, InterruptPoller& poller, const HtmlFeedOptions& opt) {
    htmlSAXHandler sax;
    std::memset(&sax, 0, sizeof sax);
    sax.startElement = sax_start;
    sax.endElement = sax_end;
    sax.characters = sax_characters;
    sax.ignorableWhitespace = sax_characters;
    sax.cdataBlock = sax_cdata;
    sax.serror = sax_error;
    sax.initialized = XML_SAX2_MAGIC;  // so that serror is used

    Builder b;
    b.keep_blocks = opt.blocks;
    b.lean = opt.lean;
    b.doc.text.reserve(len / 4 + 64);
    html_sax_parse(html, len, &sax, b, poller, opt);
    b.end_block();
    return std::move(b.doc);
}

}  // namespace ndd
