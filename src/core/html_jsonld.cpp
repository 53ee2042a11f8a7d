// html_jsonld.cpp
//    JSON-LD articleBody as evidence for the content model; what it does is in html_jsonld.hpp.
#include "html_jsonld.hpp"

#include <rapidjson/reader.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cctype>
#include <cstring>

namespace ndd {

namespace {

// ---- the articleBody, from RapidJSON's SAX events ----

// One open object, or an array that is the value of an @type (its strings are types). An object
// records whether its @type names an article, its articleBody and its datePublished. Other arrays hold nothing the
// handler needs but their depth: they are counted on the frame they opened in, so that a script of
// a million '[' costs a counter, not a million frames.
struct JsonFrame {
    bool object = false;
    bool article = false;
    enum class Key : uint8_t { Other, Type, Body, Date } key = Key::Other;
    size_t plain_arrays = 0;  // arrays open inside this frame that are not @type's
    std::string body;
    std::string date;
};

struct ArticleBodyHandler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ArticleBodyHandler> {
    std::vector<JsonFrame> stack;
    size_t top_plain_arrays = 0;  // arrays open outside any frame (a script's top-level array)
    std::string best;          // the longest articleBody of an article
    std::string article_date;  // the datePublished of the first article that states one
    std::string first_date;    // the first datePublished of any object, complete or not

    size_t& plain_arrays() { return stack.empty() ? top_plain_arrays : stack.back().plain_arrays; }
    // The object whose key a value is the value of: the innermost object, or the object of an
    // @type array; none inside another array.
    JsonFrame* object_for_value() {
        if (stack.empty() || stack.back().plain_arrays) return nullptr;
        JsonFrame& top = stack.back();
        if (top.object) return &top;
        return stack.size() >= 2 ? &stack[stack.size() - 2] : nullptr;
    }
    bool Default() {
        if (!stack.empty() && stack.back().object && !stack.back().plain_arrays) stack.back().key = JsonFrame::Key::Other;
        return true;
    }
    bool String(const char* s, rapidjson::SizeType n, bool) {
        JsonFrame* o = object_for_value();
        if (o) {
            const bool in_type_array = !stack.back().object;
            if (o->key == JsonFrame::Key::Type && json_ld_article_type(std::string_view(s, n))) o->article = true;
            else if (o->key == JsonFrame::Key::Body && !in_type_array) o->body.assign(s, n);
            else if (o->key == JsonFrame::Key::Date && !in_type_array && o->date.empty()) {
                o->date.assign(s, n);
                if (first_date.empty()) first_date = o->date;
            }
        }
        return Default();
    }
    bool Key(const char* s, rapidjson::SizeType n, bool) {
        const std::string_view k(s, n);
        stack.back().key = k == "@type"           ? JsonFrame::Key::Type
                           : k == "articleBody"   ? JsonFrame::Key::Body
                           : k == "datePublished" ? JsonFrame::Key::Date
                                                  : JsonFrame::Key::Other;
        return true;
    }
    bool StartObject() {
        stack.emplace_back();
        stack.back().object = true;
        return true;
    }
    bool EndObject(rapidjson::SizeType) {
        JsonFrame f = std::move(stack.back());
        stack.pop_back();
        if (f.article && f.body.size() > best.size()) best = std::move(f.body);
        if (f.article && article_date.empty()) article_date = std::move(f.date);
        return Default();
    }
    bool StartArray() {
        if (!stack.empty() && stack.back().object && !stack.back().plain_arrays && stack.back().key == JsonFrame::Key::Type)
            stack.emplace_back();  // an @type array: a frame of its own (object = false)
        else
            plain_arrays()++;
        return true;
    }
    bool EndArray(rapidjson::SizeType) {
        if (plain_arrays()) plain_arrays()--;
        else stack.pop_back();
        return Default();
    }
};

// ---- word 4-shingles, the same for the articleBody and the page's blocks ----

uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

enum class CharKind { Separator, Word, Ideograph };

// Words are runs of letters and digits (ASCII folded to lower case); each ideograph, kana or
// Hangul syllable is a word of its own (scripts written without spaces); punctuation (ASCII, the
// Latin-1 signs, General and CJK punctuation, full-width forms) and U+FFFD separate words.
CharKind char_kind(uint32_t c) {
    if (c < 0x80) return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9') ? CharKind::Word : CharKind::Separator;
    if (c <= 0xBF || (c >= 0x2000 && c <= 0x206F) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFE30 && c <= 0xFE4F) ||
        (c >= 0xFF00 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20) || c == 0xFFFD)
        return CharKind::Separator;
    if ((c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
        (c >= 0xFF66 && c <= 0xFF9F) || (c >= 0x20000 && c <= 0x3FFFF))
        return CharKind::Ideograph;
    return CharKind::Word;
}

// Decodes one code point at s[i] (valid UTF-8 expected; a stray byte is taken as itself).
uint32_t next_cp(const unsigned char* s, size_t n, size_t& i) {
    unsigned char c = s[i++];
    if (c < 0x80) return c;
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    uint32_t cp = c & (0x3F >> more);
    for (; more > 0 && i < n && (s[i] & 0xC0) == 0x80; more--) cp = (cp << 6) | (s[i++] & 0x3F);
    return cp;
}

// Calls emit(shingle hash) for each run of four consecutive words of s[0, n), and returns the
// number of words; a text of one to three words calls short_text(hash of its words) once
// instead, and with `all_short` every run of one to three words of the text calls it (the
// articleBody's: so that a short block is found in it whole). With `markup`, the
// text is read as HTML may have been written into it: tags (`<p>`, `</a>`) separate words, named
// character references separate them too and numeric ones are decoded.
uint64_t gram(const uint64_t* ring, size_t w, size_t k) {
    uint64_t g = 0x9e3779b97f4a7c15ULL * k;
    for (size_t j = k; j > 0; j--) g = mix(g + ring[(w - j) & 3]);
    return g;
}

template <class Emit, class Short>
size_t shingles(const char* text, size_t n, bool markup, bool all_short, Emit emit, Short short_text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text);
    uint64_t ring[4] = {0, 0, 0, 0};
    size_t words = 0;
    uint64_t h = 0;
    bool in_word = false;
    auto end_word = [&] {
        if (!in_word) return;
        in_word = false;
        ring[words++ & 3] = mix(h);
        if (words >= 4) emit(gram(ring, words, 4));
        if (all_short)
            for (size_t k = 1; k <= 3 && k <= words; k++) short_text(gram(ring, words, k));
    };
    auto add = [&](uint32_t cp) {
        switch (char_kind(cp)) {
            case CharKind::Separator:
                end_word();
                return;
            case CharKind::Ideograph:
                end_word();
                h = 0xcbf29ce484222325ULL ^ cp;
                in_word = true;
                end_word();
                return;
            case CharKind::Word:
                if (!in_word) h = 0xcbf29ce484222325ULL;
                in_word = true;
                if (cp < 0x80) cp |= (cp >= 'A' && cp <= 'Z') ? 0x20 : 0;
                h = (h ^ cp) * 0x100000001b3ULL;
                return;
        }
    };
    for (size_t i = 0; i < n;) {
        if (markup && s[i] == '<' && i + 1 < n && (std::isalpha(s[i + 1]) || s[i + 1] == '/')) {
            const void* gt = std::memchr(s + i, '>', std::min<size_t>(n - i, 1024));
            if (gt) {
                end_word();
                i = static_cast<size_t>(static_cast<const unsigned char*>(gt) - s) + 1;
                continue;
            }
        }
        if (markup && s[i] == '&') {
            size_t j = i + 1;
            if (j < n && s[j] == '#') {
                uint32_t cp = 0;
                bool hex = j + 1 < n && (s[j + 1] | 0x20) == 'x';
                size_t k = j + 1 + hex, digits = 0;
                for (; k < n && digits < 8 && std::isxdigit(s[k]) && (hex || std::isdigit(s[k])); k++, digits++)
                    cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(std::isdigit(s[k]) ? s[k] - '0' : (s[k] | 0x20) - 'a' + 10);
                if (digits && k < n && s[k] == ';') {
                    add(cp);
                    i = k + 1;
                    continue;
                }
            } else {
                size_t k = j;
                while (k < n && k - j < 32 && std::isalnum(s[k])) k++;
                if (k > j && k < n && s[k] == ';') {
                    end_word();
                    i = k + 1;
                    continue;
                }
            }
        }
        add(next_cp(s, n, i));
    }
    end_word();
    if (!all_short && words >= 1 && words <= 3) short_text(gram(ring, words, words));
    return words;
}

// An articleBody shorter than this (in words) is no evidence: a teaser, a summary.
constexpr size_t kJsonLdMinWords = 60;
// The share of the articleBody's shingles that the page's blocks must hold: below, it is not the
// page's visible text (another language, another article, a summary written apart).
constexpr double kJsonLdMinCoverage = 0.5;
// A block agrees with the articleBody when this share of its shingles is in it.
constexpr double kJsonLdAgree = 0.5;
// A block the statement makes content holds at least this many shingles (eight words).
constexpr uint32_t kJsonLdMinShingles = 5;

}  // namespace

bool json_ld_article_type(std::string_view type) {
    const size_t cut = type.find_last_of("/:#");
    if (cut != std::string_view::npos) type.remove_prefix(cut + 1);
    auto ends_with_ci = [&](std::string_view tail) {
        if (type.size() < tail.size()) return false;
        for (size_t k = 0; k < tail.size(); k++)
            if ((type[type.size() - tail.size() + k] | 0x20) != (tail[k] | 0x20)) return false;
        return true;
    };
    return ends_with_ci("article") || ends_with_ci("posting") || (type.size() == 6 && ends_with_ci("report"));
}

// HTML written into the articleBody as escaped text ("&lt;p&gt;", even "&amp;lt;p&amp;gt;"): the
// basic references decoded, twice at most, so that its tags read as tags.
static void unescape_markup(std::string& s) {
    static constexpr std::pair<std::string_view, char> kRefs[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
    for (int round = 0; round < 2 && s.find('&') != std::string::npos; round++) {
        size_t w = 0;
        for (size_t r = 0; r < s.size();) {
            bool done = false;
            if (s[r] == '&')
                for (const auto& [ref, c] : kRefs)
                    if (s.compare(r, ref.size(), ref) == 0) {
                        s[w++] = c;
                        r += ref.size();
                        done = true;
                        break;
                    }
            if (!done) s[w++] = s[r++];
        }
        s.resize(w);
    }
}

// Feeds one script to the handler: from the first '{' or '[' (past an HTML comment or CDATA
// wrapper); raw control characters, which JSON forbids in strings and pages write all the same,
// read as spaces. `json` is the caller's buffer, reused from script to script.
static void parse_script(std::string_view script, ArticleBodyHandler& handler, std::string& json) {
    const size_t cdata = script.find("<![CDATA[");
    const size_t start = script.find_first_of("{[", cdata == std::string_view::npos ? 0 : cdata + 9);
    if (start == std::string_view::npos) return;
    json.assign(script.substr(start));
    bool in_string = false;
    for (size_t k = 0; k < json.size(); k++) {
        const char c = json[k];
        if (in_string && c == '\\') k++;
        else if (c == '"') in_string = !in_string;
        else if (in_string && static_cast<unsigned char>(c) < 0x20) json[k] = ' ';
    }
    rapidjson::Reader reader;
    rapidjson::StringStream in(json.c_str());
    reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag | rapidjson::kParseCommentsFlag |
                 rapidjson::kParseTrailingCommasFlag | rapidjson::kParseStopWhenDoneFlag>(in, handler);
    // objects left open by an error hold no complete statement
    handler.stack.clear();
    handler.top_plain_arrays = 0;
}

std::string json_ld_article_body(const std::vector<std::string>& scripts) {
    ArticleBodyHandler handler;
    std::string json;
    for (const std::string& script : scripts) parse_script(script, handler, json);
    return std::move(handler.best);
}

// The first "datePublished" key followed by a string, found by a scan, not a parse: the fallback
// for scripts the parse refuses before it reaches a date (pages write names unquoted,
// `"author": Jane Doe`, and still state their date). Escapes are kept as written except \/.
static std::string scanned_date(std::string_view s) {
    constexpr std::string_view key = "\"datePublished\"";
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
    for (size_t at = s.find(key); at != std::string_view::npos; at = s.find(key, at + 1)) {
        size_t i = at + key.size();
        while (i < s.size() && space(s[i])) i++;
        if (i >= s.size() || s[i] != ':') continue;
        for (i++; i < s.size() && space(s[i]);) i++;
        if (i >= s.size() || s[i] != '"') continue;
        std::string v;
        for (i++; i < s.size() && s[i] != '"'; i++) {
            if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '/') i++;
            v.push_back(s[i]);
        }
        if (std::any_of(v.begin(), v.end(), [&](char c) { return !space(c); })) return v;
    }
    return {};
}

std::string json_ld_date_published(std::string_view script) {
    ArticleBodyHandler handler;
    std::string json;
    parse_script(script, handler, json);
    if (!handler.article_date.empty()) return std::move(handler.article_date);
    if (!handler.first_date.empty()) return std::move(handler.first_date);
    return scanned_date(script);
}

void html_jsonld_evidence(const HtmlDocument& doc, std::vector<BlockClass>& cls, InterruptPoller& poller) {
    // most pages' JSON-LD is an Organization, a BreadcrumbList, an Article without its text:
    // none is parsed unless a script names articleBody at all
    if (std::none_of(doc.json_ld.begin(), doc.json_ld.end(), [](const std::string& s) { return s.find("articleBody") != std::string::npos; }))
        return;
    std::string body = json_ld_article_body(doc.json_ld);
    if (body.empty()) return;
    unescape_markup(body);
    // the articleBody's shingles, and its first and last in its own order
    std::vector<uint64_t> stated, stated_short;
    shingles(body.data(), body.size(), true, true, [&](uint64_t x) { stated.push_back(x); },
             [&](uint64_t x) { stated_short.push_back(x); });
    if (stated.size() + 3 < kJsonLdMinWords) return;
    const uint64_t first_stated = stated.front(), last_stated = stated.back();
    std::sort(stated.begin(), stated.end());
    stated.erase(std::unique(stated.begin(), stated.end()), stated.end());
    std::sort(stated_short.begin(), stated_short.end());
    stated_short.erase(std::unique(stated_short.begin(), stated_short.end()), stated_short.end());
    // per block: its shingles and those in the articleBody; the articleBody's shingles found, each
    // marked once (bounded by the statement, however often the page repeats it)
    const size_t n = doc.blocks.size();
    std::vector<uint32_t> total(n, 0), shared(n, 0);
    std::vector<int8_t> short_in(n, -1);  // a block of 1 to 3 words: whether they are in the articleBody
    std::vector<uint8_t> hit(stated.size(), 0);
    size_t found = 0;
    size_t start_block = n, end_block = n;
    for (size_t i = 0; i < n; i++) {
        const HtmlBlock b = doc.blocks[i];
        uint64_t last = 0;
        poller.tick();
        shingles(doc.text.data() + b.begin, b.end - b.begin, false, false, [&](uint64_t x) {
            poller.tick();
            total[i]++;
            last = x;
            auto at = std::lower_bound(stated.begin(), stated.end(), x);
            if (at == stated.end() || *at != x) return;
            shared[i]++;
            found += hit[at - stated.begin()] == 0;
            hit[at - stated.begin()] = 1;
            if (x == first_stated && start_block == n) start_block = i;
        }, [&](uint64_t x) { short_in[i] = std::binary_search(stated_short.begin(), stated_short.end(), x); });
        // the articleBody ends where a block ends: one cut at its first N characters ends inside
        // a paragraph (or, cut at a word, its last words are found inside one) and says nothing
        // of the blocks after
        if (total[i] && last == last_stated) end_block = i;
    }
    if (static_cast<double>(found) < kJsonLdMinCoverage * static_cast<double>(stated.size())) return;
    std::vector<uint8_t>().swap(hit);
    size_t first_agree = n, last_agree = n;
    for (size_t i = 0; i < n; i++) {
        if (total[i] == 0 || static_cast<double>(shared[i]) < kJsonLdAgree * static_cast<double>(total[i])) continue;
        if (first_agree == n) first_agree = i;
        last_agree = i;
        // a line of a few words (a caption that repeats the title) is no paragraph of the statement
        if (total[i] >= kJsonLdMinShingles) cls[i] = BlockClass::Good;
    }
    if (first_agree == n) return;
    // The article's ends: where the articleBody's first and last shingles are, when the page
    // holds them, else the blocks agreeing first and last (a cut articleBody: nothing said after).
    const size_t from = start_block < n ? std::min(start_block, first_agree) : n;
    // An articleBody much shorter than the content found (under half its shingles) is cut at a
    // paragraph's end, or a summary: nothing after it is judged.
    uint64_t good_shingles = 0;
    for (size_t i = 0; i < n; i++)
        if (cls[i] == BlockClass::Good) good_shingles += total[i];
    const bool whole = 2 * stated.size() >= good_shingles;
    const size_t to = end_block < n && whole ? std::max(end_block, last_agree) : n;
    // Good blocks that share nothing with the articleBody (no shingle; a block of one to three
    // words: not found in it whole) are dropped between the blocks that agree with it (captions,
    // "read also" lines, credits) and beyond its two ends (a comment, a teaser, an author box).
    // Headings are kept: subheadings are the article's, and articleBody often leaves them out.
    for (size_t i = 0; i < n; i++) {
        if (cls[i] != BlockClass::Good || doc.blocks[i].kind == HtmlBlockKind::Heading) continue;
        if (total[i] ? shared[i] != 0 : short_in[i] != 0) continue;
        const bool outside = (from < n && i < from) || (to < n && i > to);
        const bool inside = i > first_agree && i < last_agree;
        if (outside || inside) cls[i] = BlockClass::Bad;
    }
}

}  // namespace ndd
