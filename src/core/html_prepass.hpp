// html_prepass.hpp
//    A streaming pre-pass between a page and libxml2's HTML parser (html_blocks.cpp): it splits
//    the page into HTML5 tokens (WHATWG tokenizer states, no tree construction) and writes them
//    back out in a form whose every piece libxml2 parses in bounded time:
//      - raw-text elements end as in HTML5, at their own end tag only: script, style, xmp,
//        iframe, noembed, noframes, noscript (scripting on), plaintext (never ends), and the
//        escapable textarea and title. Their content is written so that libxml2 sees no tag in
//        it: script and style with every "</" written "<\/" (libxml2 ends them at any "</x"),
//        the others as escaped text (&lt;, and &amp; where HTML5 decodes no references);
//      - an element whose content is dropped that is not raw text (template, head, an element
//        with hidden or aria-hidden="true") ends at its end tag whatever it holds: the end tags of
//        the elements written inside it are written first (libxml2 ignores an end tag while a div,
//        table or td is open above it; <span hidden><div></span> would hide the rest of the page);
//      - a start tag keeps its first max_attributes (64) attributes with distinct names (HTML5 keeps
//        the first of duplicates; libxml2 compares each with all earlier ones), names cut to
//        max_name (128) bytes, values to max_value (4096) bytes; attribute names libxml2 cannot parse (@click,
//        [x]) are dropped: none of them carries text;
//      - start tags past max_depth (512) open elements are dropped (each end tag scans the stack of open
//        elements; browsers cap the depth too: Blink at 512); the sink says how deep the parser is;
//      - comments, doctypes, processing instructions and bogus comments are dropped (libxml2
//        dropped them too); "</>" is dropped; a "<" that starts no tag is written "&lt;";
//      - </html> and </body> are dropped (in HTML5 they close nothing; libxml2 ends the document
//        at </html>), so are end tags before the first start tag (libxml2 would end the document
//        at them); NUL is dropped from text (HTML5 ignores it there; libxml2 would end the
//        document at it) and becomes U+FFFD in raw text and attribute values;
//      - a text run longer than text_piece (64 kB) is cut by an empty comment "<!---->" (libxml2
//        holds text until the next "<", then parses it in one call); script and style content
//        past max_raw (1 MB) bytes is dropped, all of it when the sink keeps none
//        (HtmlPrepassSink::keeps_script: ndd drops it, and it is 40% of the bytes of real pages);
//        the content of a <script type="application/ld+json"> goes to the sink's json_ld() too.
//      - for a sink that reads few attributes (HtmlPrepassSink::attribute_use), only those reach
//        libxml2, some without their value; for one to which any run of blanks is one space
//        (folds_blanks), runs of blanks reach it as one byte (the text blocks: nearly 40 % faster on real
//        pages, the same blocks; bench/README.md, "Speed of the parse").
//    Text, character references and the structure of ordinary markup pass unchanged, so libxml2
//    builds the same elements as without the pre-pass on ordinary pages. Linear in the input: each
//    byte is looked at a bounded number of times.
#ifndef NDD_HTML_PREPASS_HPP
#define NDD_HTML_PREPASS_HPP

#include <cstddef>
#include <string>
#include <string_view>

#include "guard.hpp"

namespace ndd {

struct HtmlPrepassLimits {
    size_t max_attributes = 64;  // attributes kept per start tag
    size_t max_name = 128;       // bytes of a tag or attribute name
    size_t max_value = 4096;     // bytes of an attribute value
    size_t max_depth = 512;      // open elements
    size_t max_raw = 1 << 20;    // bytes of script or style content kept per element
    size_t text_piece = 65536;   // bytes of text between two tags at most
};

// What the reader of the parser's output does with an attribute (HtmlPrepassSink::attribute_use).
enum class HtmlAttributeUse {
    None,   // nothing: not written
    Name,   // only asks whether the element has it: written without its value
    Value,  // reads its value: written as the page has it (within max_value)
};

// Where the pre-pass writes. append() takes the bytes for the parser; may_open() is asked before
// each start tag of a non-void element and says whether the parser has room for one more open
// element (the sink knows the parser's depth; a sink that does not care returns true).
class HtmlPrepassSink {
public:
    virtual void append(const char* s, size_t n) = 0;
    virtual bool may_open() = 0;
    // Whether script and style content is written (between its tags, which are written all the
    // same): not when the reader drops it anyway, so that libxml2 does not parse it.
    virtual bool keeps_script() const { return true; }
    // The content of a <script type="application/ld+json"> (the page's own structured data: the
    // content model takes its articleBody as evidence, html_jsonld.hpp), as the page has it, up
    // to max_raw bytes, whether or not keeps_script(). Called once per such script.
    virtual void json_ld(const char*, size_t) {}
    // How an attribute (its name, lower case) is written into the start tag for the parser: a
    // reader that looks at a few attributes only spares libxml2 the parse of the others (src,
    // srcset, data-*... most of the bytes of a real page's tags; libxml2 2.9 reads an attribute
    // value a character at a time), and of the values it does not read. An attribute not written
    // still counts towards max_attributes and as the first of its name.
    virtual HtmlAttributeUse attribute_use(std::string_view) const { return HtmlAttributeUse::Value; }
    // Whether a run of blanks (space, tab, CR, LF) in text may reach the parser as one byte: for a
    // reader to which any run of blanks is one space (the text blocks), half the text bytes of a
    // real page are indentation. A text run of blanks alone 1,000 bytes long or more is written
    // whole (libxml2 opens an implied <p> for it where it would not for a shorter one), and so is
    // text past text_piece bytes without a tag.
    virtual bool folds_blanks() const { return false; }

protected:
    ~HtmlPrepassSink() = default;
};

// Runs the pre-pass over html[0, len) (valid UTF-8 expected; any bytes are safe), polling the
// interrupt as it goes.
void html_prepass(const char* html, size_t len, HtmlPrepassSink& out, InterruptPoller& poller,
                  const HtmlPrepassLimits& limits = HtmlPrepassLimits());

// The pre-pass's output as one string, for the unit tests (a sink whose may_open() is always true).
std::string html_prepass_string(const char* html, size_t len, const HtmlPrepassLimits& limits = HtmlPrepassLimits());

}  // namespace ndd

#endif  // NDD_HTML_PREPASS_HPP
