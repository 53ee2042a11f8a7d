// html_blocks.hpp
//    An HTML page as the sequence of its text blocks: the parse step of ndd_html_text and
//    ndd_html_content (doc/web.md has the rules and the measurement behind the parser choice).
//
// The page goes through a pre-pass (html_prepass.hpp: HTML5 raw-text elements, and bounds that
// keep every call into libxml2 linear), then libxml2's HTML parser in push mode (64 kB chunks, the
// interrupt polled between them) with SAX callbacks: no tree is built, so memory is the block text plus a stack of
// open elements, and nothing recurses on the nesting depth (100,000 nested elements are a stack of
// 100,000 small frames, not 100,000 C frames). Rules:
//   - dropped with everything inside: script, style, template, noscript, head (title, meta),
//     iframe, noframes, noembed, and elements with the `hidden` attribute or aria-hidden="true";
//     comments; raw-text elements end only at their own end tag, as in HTML5;
//   - character references are decoded by the parser; numeric references to no character (&#0;,
//     surrogates, beyond U+10FFFF) are dropped, unknown named ones kept as written;
//   - block elements (p, div, li, headings, br, hr, table cells and rows, pre, blockquote, sections,
//     lists, forms...) end the current block; inline elements (a, b, span, code...) do not, so
//     `<b>wo</b>rd` is one word;
//   - whitespace (ASCII space, tab, CR, LF, FF and U+00A0) collapses to one space; a block has no
//     leading or trailing space; empty blocks are dropped;
//   - input that is not valid UTF-8 (binary junk in a SQL_ASCII database) has each invalid byte
//     replaced by U+FFFD first, so the text out is always valid UTF-8; a <meta charset> is ignored
//     (the text was decoded when it entered the database).
#ifndef NDD_HTML_BLOCKS_HPP
#define NDD_HTML_BLOCKS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "guard.hpp"
#include "html_prepass.hpp"

namespace ndd {

// What kind of element holds a block (the nearest block-level ancestor).
enum class HtmlBlockKind : uint8_t { Other, Paragraph, Heading, ListItem, Cell, Pre };

// One text block: text[begin, HtmlDocument::end(block)). 16 bytes, as a page of tiny blocks
// (`<p>a` repeated: one block per 4 bytes of page) holds one per 4 bytes: offsets and counts are
// 32-bit (html_blocks refuses a text beyond 4 GB; PostgreSQL's text is at most 1 GB, its text at
// most 3 GB after U+FFFD replacement) and the end is derived from the next block's begin.
struct HtmlBlock {
    uint32_t begin = 0;
    uint32_t chars = 0;       // code points, single spaces included
    uint32_t link_chars = 0;  // code points inside <a href>
    // nesting depth of the element that set context (0: none); the pre-pass caps the depth at
    // HtmlPrepassLimits::max_depth (512), so 16 bits hold it (saturated beyond)
    uint16_t context_depth = 0;
    // Context of the nearest ancestor that says something about itself: -1 boilerplate (nav,
    // footer, aside, a class or id such as "sidebar" or "cookie-banner", role="navigation"...),
    // +1 content (main, article, role="main", class or id "content", "article"...), 0 neither.
    int8_t context = 0;
    HtmlBlockKind kind = HtmlBlockKind::Other;
};
static_assert(sizeof(HtmlBlock) == 16, "HtmlBlock is one per 4 bytes of page at worst: keep it small");

// A block-level element holding blocks [first, last) of the document, at nesting depth `depth`
// (html_content.cpp picks the main region among them).
struct HtmlRegion {
    size_t first;
    size_t last;
    size_t depth;        // of the outermost element holding exactly these blocks
    size_t inner_depth;  // of the innermost one
    // What the element (and the wrappers that hold exactly the same blocks) says about itself:
    // the sum of its class/id/role hints (each -1, 0 or +1), and whether it is the page's own
    // statement of its main content (<article>, <main>, role="main", itemprop="articleBody").
    int8_t hint = 0;
    bool semantic = false;
};

struct HtmlDocument {
    std::string text;                 // the blocks, each followed by '\n'
    std::vector<HtmlBlock> blocks;    // in document order
    std::vector<HtmlRegion> regions;  // the block-level elements that hold at least one block

    // End of a block in text (its '\n' follows): the next block begins right after that '\n'.
    size_t end(const HtmlBlock& b) const {
        const size_t i = static_cast<size_t>(&b - blocks.data());
        return (i + 1 < blocks.size() ? blocks[i + 1].begin : text.size()) - 1;
    }
};

// Parses html (len bytes, any content) into its blocks. Throws Cancelled when the interrupt
// fires, std::bad_alloc when memory runs out.
HtmlDocument html_blocks(const char* html, size_t len, InterruptPoller& poller);

// How the page reaches the parser: the pre-pass's limits (html_prepass.hpp) and the size of the
// pieces fed to libxml2 (the first one may differ: the unit tests put a piece boundary at every
// position of a page).
struct HtmlFeedOptions {
    HtmlPrepassLimits limits;
    size_t piece = 65536;
    size_t first_piece = 0;  // 0: piece
};
HtmlDocument html_blocks(const char* html, size_t len, InterruptPoller& poller, const HtmlFeedOptions& options);

// The input with each byte that does not start a valid UTF-8 sequence replaced by U+FFFD; empty
// when the input is valid (the common case: no copy). Polls the interrupt.
std::string html_utf8_sanitized(const char* s, size_t n, InterruptPoller& poller);

// Classifies a class or id attribute value: -1 when one of its tokens names boilerplate, +1 when
// one names content, 0 otherwise, and 0 when it has more than max_words tokens (0: no limit).
// The value is split into tokens at every character that is not an ASCII letter or digit and
// between a lower-case letter and an upper-case one ("PageBuilder-pageRow": page, builder, page,
// row), and tokens are matched whole, so that "pagerow" or "shareholders" name nothing; a few
// unambiguous roots also match as the start or end of a token ("sphinxsidebar", "navbar").
// Exposed for the unit tests; the word lists are in the .cpp.
int html_class_hint(const char* value, size_t len, size_t max_words = 0);

}  // namespace ndd

#endif  // NDD_HTML_BLOCKS_HPP
