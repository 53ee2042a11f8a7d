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
//   - metadata: a block all of whose text lies inside markup that names the article's metadata
//     rather than its text (who wrote it and when, a picture's caption and credit: the markup is
//     listed above kHtmlMetadataMaxChars) is marked as such (HtmlDocument::metadata), unless the
//     outermost such element holds more than kHtmlMetadataMaxChars code points;
//   - input that is not valid UTF-8 (binary junk in a SQL_ASCII database) has each invalid byte
//     replaced by U+FFFD first, so the text out is always valid UTF-8; a <meta charset> is ignored
//     (the text was decoded when it entered the database).
#ifndef NDD_HTML_BLOCKS_HPP
#define NDD_HTML_BLOCKS_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "guard.hpp"
#include "html_prepass.hpp"

namespace ndd {

// What kind of element holds a block (the nearest block-level ancestor).
enum class HtmlBlockKind : uint8_t { Other, Paragraph, Heading, ListItem, Cell, Pre };

// One text block: text[begin, end), its '\n' at text[end]. A value read from HtmlBlocks (which
// stores it in 8 bytes): offsets and counts are 32-bit (html_blocks refuses a text beyond 4 GB;
// PostgreSQL's text is at most 1 GB, its text at most 3 GB after U+FFFD replacement).
struct HtmlBlock {
    uint32_t begin = 0;
    uint32_t end = 0;
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

// The blocks of a page in document order, 8 bytes each: a page of tiny blocks (`<p>a` repeated)
// holds one per 4 bytes of page, so that the blocks alone would be 4x the page at 16 bytes. A
// block stores its end offset (its begin is the previous block's end + 1: each block is followed
// by its '\n') and its other fields packed in 32 bits; a block with more than 255 code points
// (or a context depth beyond 1023) keeps them in a side table instead, which holds at most one
// entry per 256 bytes of text. The storage grows in chunks, never copied: a vector that doubles
// holds 1.5x to 3x its size while it grows.
class HtmlBlocks {
public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    HtmlBlock operator[](size_t i) const {
        const Packed& p = at(i);
        HtmlBlock b;
        b.begin = i ? at(i - 1).end + 1 : 0;
        b.end = p.end;
        if (p.info & kWide) {
            const HtmlBlock& w = wide_[p.info & ~kWide];
            b.chars = w.chars;
            b.link_chars = w.link_chars;
            b.context_depth = w.context_depth;
            b.context = w.context;
            b.kind = w.kind;
        } else {
            b.chars = p.info & 0xFF;
            b.link_chars = (p.info >> 8) & 0xFF;
            b.context_depth = static_cast<uint16_t>((p.info >> 16) & 0x3FF);
            b.context = static_cast<int8_t>(static_cast<int>((p.info >> 26) & 3) - 1);
            b.kind = static_cast<HtmlBlockKind>((p.info >> 28) & 7);
        }
        return b;
    }

    // Appends b (its begin must follow the last block's end + 1; b.end is where its '\n' goes).
    void push_back(const HtmlBlock& b) {
        uint32_t info;
        if (b.chars <= 0xFF && b.link_chars <= 0xFF && b.context_depth <= 0x3FF) {
            info = b.chars | (b.link_chars << 8) | (static_cast<uint32_t>(b.context_depth) << 16) |
                   (static_cast<uint32_t>(b.context + 1) << 26) | (static_cast<uint32_t>(b.kind) << 28);
        } else {
            if (wide_.size() >= kWide) throw std::bad_alloc();
            info = kWide | static_cast<uint32_t>(wide_.size());
            wide_.push_back(b);
        }
        if ((size_ & kChunkMask) == 0) chunks_.emplace_back(new Packed[kChunk]);
        chunks_[size_ >> kChunkBits][size_ & kChunkMask] = Packed{b.end, info};
        size_++;
    }

private:
    struct Packed {
        uint32_t end;
        // chars (8 bits), link_chars (8), context_depth (10), context + 1 (2), kind (3), and the
        // top bit: set when the bits below are an index into wide_ instead
        uint32_t info;
    };
    static constexpr uint32_t kWide = 0x80000000u;
    static constexpr size_t kChunkBits = 15;  // 32,768 blocks, 256 kB a chunk
    static constexpr size_t kChunk = size_t(1) << kChunkBits;
    static constexpr size_t kChunkMask = kChunk - 1;
    std::vector<std::unique_ptr<Packed[]>> chunks_;
    std::vector<HtmlBlock> wide_;
    size_t size_ = 0;

    const Packed& at(size_t i) const { return chunks_[i >> kChunkBits][i & kChunkMask]; }
};

// A block-level element holding blocks [first, last) of the document, at nesting depth `depth`
// (html_content.cpp picks the main region among them).
// 16 bytes: a page can hold one region per two blocks (`<p>a<br>a` repeated). Block indices are
// below 2^32 (as the text's offsets); depths are capped by the pre-pass (512), saturated at 65535.
struct HtmlRegion {
    uint32_t first;
    uint32_t last;
    uint16_t depth;        // of the outermost element holding exactly these blocks
    uint16_t inner_depth;  // of the innermost one
    // What the element (and the wrappers that hold exactly the same blocks) says about itself:
    // the sum of its class/id/role hints (each -1, 0 or +1), and whether it is the page's own
    // statement of its main content (<article>, <main>, role="main", itemprop="articleBody").
    int8_t hint = 0;
    bool semantic = false;
    // The outermost element's tag and first class token hashed into 16 bits (0: no class): siblings
    // that share it, three or more in a row, are a list of items (comments, reviews, teaser cards).
    uint16_t signature = 0;
};
static_assert(sizeof(HtmlRegion) == 16, "HtmlRegion is one per two blocks at worst: keep it small");

// The regions of a page in the order their elements end (postorder: a region after the regions it
// holds, siblings in document order; `last` never decreases), stored as HtmlBlocks stores blocks:
// in chunks that grow without copying (a vector that doubles holds 1.5x to 3x its size while it
// grows, and a page of `<p>a<br>a` holds a region per 9 bytes).
class HtmlRegions {
public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const HtmlRegion& operator[](size_t i) const { return chunks_[i >> kChunkBits][i & kChunkMask]; }
    HtmlRegion& back() { return chunks_[(size_ - 1) >> kChunkBits][(size_ - 1) & kChunkMask]; }
    const HtmlRegion& back() const { return (*this)[size_ - 1]; }
    void push_back(const HtmlRegion& r) {
        if ((size_ & kChunkMask) == 0) chunks_.emplace_back(new HtmlRegion[kChunk]);
        chunks_[size_ >> kChunkBits][size_ & kChunkMask] = r;
        size_++;
    }

private:
    // 4,096 regions, 64 kB a chunk: below malloc's mmap threshold, so that a small page pays no
    // system call (a chunk is constructed whole)
    static constexpr size_t kChunkBits = 12;
    static constexpr size_t kChunk = size_t(1) << kChunkBits;
    static constexpr size_t kChunkMask = kChunk - 1;
    std::vector<std::unique_ptr<HtmlRegion[]>> chunks_;
    size_t size_ = 0;
};

// Bytes of JSON-LD a page's HtmlDocument keeps, all its scripts together.
constexpr size_t kHtmlJsonLdMaxBytes = size_t(1) << 20;
constexpr size_t kHtmlJsonLdMaxScripts = 256;

constexpr size_t kHtmlTitleMaxBytes = 1024;

// The markup that names the article's metadata: the lines a bare copy of the article leaves out
// (issue 29's hand-made article texts) and that the published extractors drop. Readability removes
// the byline node (rel="author", itemprop="author", a class or id matching byline, author or
// dateline, under 100 characters); trafilatura discards the elements whose class or id names an
// author, a byline, a timestamp or a caption, and every <figure>:
//   - the elements <time> and <figcaption>;
//   - rel="author"; itemprop author, creator, datePublished, dateModified, dateCreated, caption;
//   - a class or id token (as html_class_hint splits them) byline(s), author(s), dateline,
//     timestamp, date, datetime, caption, credit(s).
// Not <address> nor a class "meta": both extractors keep an address's text, and trafilatura's
// own evaluation pages count an event's venue ("event-meta") and a recipe's times
// ("recipe-meta") as text. An element holding more text than kHtmlMetadataMaxChars is no byline,
// date or caption whatever its markup (a caption is a sentence or two; an article inside
// <div class="author-x"> is an article).
constexpr uint32_t kHtmlMetadataMaxChars = 300;

struct HtmlDocument {
    std::string text;                 // the blocks, each followed by '\n'
    HtmlBlocks blocks;                // in document order
    HtmlRegions regions;              // the block-level elements that hold at least two blocks
    // The content of the page's <script type="application/ld+json"> elements, as written, at most
    // kHtmlJsonLdMaxBytes in all (a script past that is cut) and the first kHtmlJsonLdMaxScripts; empty for html_text (blocks false).
    std::vector<std::string> json_ld;
    // The text of the page's first <title>, its spaces collapsed as the blocks' are, at most
    // kHtmlTitleMaxBytes (empty for html_text): html_content tells the page's title from a
    // standfirst by it (a heading outside the article that repeats it is the page's title).
    std::string title;
    // What the page's <meta> elements state of its title and summary (the first og:title,
    // name="description" and og:description, spaces collapsed, at most kHtmlTitleMaxBytes each;
    // empty for html_text): html_content tells a headline and a standfirst that restate them
    // from the article's text.
    std::string og_title;
    std::string description;
    std::string og_description;
    // One bit a block (block i: bit i % 64 of word i / 64), set for the blocks that are the
    // article's metadata (the markup above kHtmlMetadataMaxChars); as long as the last such
    // block needs, empty on a page without any (html_content drops them: drop_metadata).
    std::vector<uint64_t> metadata;

    bool is_metadata(size_t i) const { return (i >> 6) < metadata.size() && ((metadata[i >> 6] >> (i & 63)) & 1); }

    // End of a block in text (its '\n' follows): the next block begins right after that '\n'.
    size_t end(const HtmlBlock& b) const { return b.end; }
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
    bool blocks = true;      // false: HtmlDocument::text alone, no blocks nor regions (html_text)
    // Only the attributes the blocks read, and runs of blanks as one byte, reach libxml2
    // (html_prepass.hpp: attribute_use, folds_blanks): the same blocks, nearly 40 % faster on real pages.
    // false: the page as it is (the unit tests compare both).
    bool lean = true;
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
// Within one class name boilerplate wins ("post-footer": -1); one class name for content and
// another for boilerplate on the same element cancel out, as Readability's class weight does
// (+25 and -25): "l-sidebar-fixed l-article-body-segment" or "entry share" is 0.
// With `metadata`, also says whether a token names the article's metadata (a byline, a date, a
// caption, a credit: the words above kHtmlMetadataMaxChars), whatever the hint ("image-caption"
// is -1 and metadata, "byline" 0 and metadata); false when the value has more than max_words
// tokens.
// Exposed for the unit tests; the word lists are in the .cpp.
int html_class_hint(const char* value, size_t len, size_t max_words = 0, bool* metadata = nullptr);

}  // namespace ndd

#endif  // NDD_HTML_BLOCKS_HPP
