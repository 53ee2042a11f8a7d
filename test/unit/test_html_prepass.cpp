// Unit tests of the pre-pass in front of libxml2 (html_prepass.hpp) and of the raw-text elements,
// bounds and piece boundaries of the HTML parse (html_blocks.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "html_blocks.hpp"
#include "html_content.hpp"
#include "html_prepass.hpp"

namespace {

std::string pre(const std::string& html, const ndd::HtmlPrepassLimits& lim = ndd::HtmlPrepassLimits()) {
    return ndd::html_prepass_string(html.data(), html.size(), lim);
}
std::string text(const std::string& html) {
    ndd::InterruptPoller p(nullptr);
    return ndd::html_text(html.data(), html.size(), p);
}
// The blocks' text when the parser is fed `piece` bytes at a time after a first piece of `first`.
std::string blocks_text(const std::string& html, size_t first, size_t piece) {
    ndd::InterruptPoller p(nullptr);
    ndd::HtmlFeedOptions opt;
    opt.first_piece = first;
    opt.piece = piece;
    return ndd::html_blocks(html.data(), html.size(), p, opt).text;
}
const std::string kCutMark = "<!---->";
std::string repeat(const std::string& s, size_t n) {
    std::string r;
    for (size_t i = 0; i < n; i++) r += s;
    return r;
}

// Pages whose raw-text elements hold what libxml2's HTML 4 rules would end them at.
const std::string kRawPages[] = {
    "<div><p>before</p><script>var x='<a><div class=\"a\"></div></a>'; var y=1;</script><p>after</p></div>",
    "<div><script>if (a</b) z();</script><p>after</p></div>",
    "<style>p::after{content:'</p>'}</style><p>styled</p>",
    "<p>x</p><textarea>a <b>bold</b> &amp; </div> z</textarea><p>y</p>",
    "<title>t </titlex> &amp; </title\n x> <p>body</p>",
    "<xmp><p>shown</p> &amp; as written</xmp><p>next</p>",
    "<iframe><p>not shown</p></iframe><noembed><p>no</p></noembed><noframes></div>no</noframes><p>z</p>",
    "<noscript><p>no</noscript><p>yes</p>",
    "<SCRIPT>a='</SCRIPTX>'; b='</scrip>'</Script ><p>case</p>",
    "<script type=\"text/template\"><div class=\"modal\">Cookie text</div></script><p>article</p>",
    "<p>end</p><plaintext><p>all & this</p></plaintext>",
};
const std::string kRawTexts[] = {
    "before\nafter",
    "after",
    "styled",
    "x\na <b>bold</b> & </div> z\ny",
    "body",
    "<p>shown</p> &amp; as written\nnext",
    "z",
    "yes",
    "case",
    "article",
    "end\n<p>all & this</p></plaintext>",
};

}  // namespace

TEST(HtmlRawText, EndsOnlyAtItsOwnEndTag) {
    for (size_t i = 0; i < std::size(kRawPages); i++) EXPECT_EQ(text(kRawPages[i]), kRawTexts[i]) << kRawPages[i];
}

// The result does not depend on where a piece fed to libxml2 ends: a boundary at every byte of
// the pre-pass's output (one page of all the cases), and pieces of 1 to 9 bytes.
TEST(HtmlRawText, EveryPieceBoundary) {
    std::string page, want;
    for (size_t i = 0; i + 1 < std::size(kRawPages); i++) page += "<div>" + kRawPages[i] + "</div>";
    std::string ref = blocks_text(page, 0, 65536);
    for (size_t i = 0; i + 1 < std::size(kRawTexts); i++) want += kRawTexts[i] + "\n";
    EXPECT_EQ(ref, want);
    size_t out = pre(page).size();
    for (size_t first = 1; first <= out; first++) ASSERT_EQ(blocks_text(page, first, 65536), ref) << first;
    for (size_t piece = 1; piece < 10; piece++) ASSERT_EQ(blocks_text(page, 0, piece), ref) << piece;
}

TEST(HtmlPrepass, OrdinaryMarkupPassesUnchanged) {
    EXPECT_EQ(pre("<p class=\"a b\" id=x>t &amp; u</p><br/><a href='/x'>l</a>"),
              "<p class=\"a b\" id=\"x\">t &amp; u</p><br/><a href=\"/x\">l</a>");
    EXPECT_EQ(pre("<DIV Hidden>x</DIV>"), "<div hidden>x</div>");
}

TEST(HtmlPrepass, MarkupThatIsNoTag) {
    EXPECT_EQ(pre("a < b <1 <"), "a &lt; b &lt;1 &lt;");
    EXPECT_EQ(pre("<p>a</>b</ x>c</"), "<p>abc&lt;/");
    EXPECT_EQ(pre("<p>a<!-- x -->b<!-->c<!--->d<!-- -- --!>e<!doctype html>f<?php x ?>g<!– x –>h"),
              "<p>abcdefgh");
    EXPECT_EQ(pre("<p>a<!-- never closed <p>b"), "<p>a");
    EXPECT_EQ(pre("<p>a<b class=\"x"), "<p>a");  // the page ends inside a tag: no tag
    EXPECT_EQ(pre(std::string("<p>a\0b", 6)), "<p>ab");
}

TEST(HtmlPrepass, EndTagsThatWouldEndTheDocument) {
    EXPECT_EQ(pre("</x></p><p>a</p></body></html><p>b"), "<p>a</p><p>b");
    EXPECT_EQ(text("</x><p>a</p></body></html><p>b</p></html>c"), "a\nb\nc");
    EXPECT_EQ(text(repeat("</", 1000) + "<p>x"), "x");
}

TEST(HtmlPrepass, AttributesBounded) {
    ndd::HtmlPrepassLimits lim;
    lim.max_attributes = 3;
    lim.max_value = 4;
    lim.max_name = 5;
    EXPECT_EQ(pre("<p a=1 a=2 b c=\"x>y\" d=4 e=5>t", lim), "<p a=\"1\" b c=\"x>y\">t");
    EXPECT_EQ(pre("<p title=\"abcdefgh\" @click=x [y]=1 longname=1>", lim), "<p title=\"abcd\" longn=\"1\">");
    EXPECT_EQ(pre("<p t=\"\xC3\xA9\xC3\xA9\xC3\xA9\">", lim), "<p t=\"\xC3\xA9\xC3\xA9\">");
    EXPECT_EQ(pre("<verylongtag a=1>", lim), "<veryl a=\"1\">");
    EXPECT_EQ(pre("<p a='\"<'>"), "<p a=\"&quot;&lt;\">");
    // 200,000 attributes: the first 64 reach the parser
    std::string page = "<p ";
    for (int i = 0; i < 200000; i++) page += "a" + std::to_string(i) + "=1 ";
    std::string out = pre(page + ">x");
    EXPECT_EQ(std::count(out.begin(), out.end(), '='), 64);
    EXPECT_EQ(text(page + ">x"), "x");
}

TEST(HtmlPrepass, LongTextCutForTheParser) {
    ndd::HtmlPrepassLimits lim;
    lim.text_piece = 10;
    EXPECT_EQ(pre("<p>0123456789abcdefghij", lim), "<p>0123456789<!---->abcdefghij");
    // never inside a character or within a reference's reach
    std::string out = pre("<p>012345678\xC3\xA9xyz", lim);
    EXPECT_EQ(out, "<p>012345678\xC3\xA9<!---->xyz");
    EXPECT_EQ(pre("<p>0123456&eacute;abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", lim).find("&ea<"),
              std::string::npos);
    // a run of '&' is cut all the same
    EXPECT_NE(pre("<p>" + std::string(200, '&'), lim).find(kCutMark), std::string::npos);
    // the parser joins the pieces: one word
    EXPECT_EQ(text("<p>" + std::string(200000, 'w') + "</p>"), std::string(200000, 'w'));
}

TEST(HtmlPrepass, ScriptContentBounded) {
    ndd::HtmlPrepassLimits lim;
    lim.max_raw = 8;
    EXPECT_EQ(pre("<script>0123456789</script><p>x", lim), "<script>01234567</script><p>x");
    EXPECT_EQ(pre("<script>a</b></script>"), "<script>a<\\/b></script>");
    EXPECT_EQ(pre("<script/>x</script>y"), "<script>x</script>y");  // HTML5 ignores "/>" here
    EXPECT_EQ(pre("<script>never closed"), "<script>never closed");
}

TEST(HtmlPrepass, DepthBounded) {
    // past 512 open elements start tags are dropped, their text kept: every region is shallower
    ndd::InterruptPoller p(nullptr);
    std::string page = repeat("<div><p>x", 3000);
    ndd::HtmlDocument doc = ndd::html_blocks(page.data(), page.size(), p);
    size_t deepest = 0;
    for (size_t i = 0; i < doc.regions.size(); i++) deepest = std::max<size_t>(deepest, doc.regions[i].depth);
    EXPECT_LE(deepest, 512u);
    EXPECT_EQ(std::count(doc.text.begin(), doc.text.end(), 'x'), 3000);
    // stray end tags against the deepest stack still parse
    EXPECT_EQ(text(repeat("<b>", 100000) + repeat("</x>", 100000) + "y"), "y");
}

// Work is linear: the pre-pass writes at most a bounded number of bytes per byte read, on every
// hostile family of issue 31 and on a mix of all constructs.
TEST(HtmlPrepass, OutputLinearInInput) {
    std::string attrs = "<p ";
    for (int i = 0; i < 20000; i++) attrs += "a" + std::to_string(i) + "=1 ";
    const std::string pages[] = {attrs + ">x", repeat("<b>", 30000) + repeat("</x>", 3000), repeat("</", 30000),
                                 repeat("<p>a", 30000), repeat("<textarea><</textarea>", 3000),
                                 repeat("<script></a></script>", 3000), repeat("\"", 1000) + repeat("<", 30000)};
    for (const auto& page : pages) EXPECT_LE(pre(page).size(), 4 * page.size() + 64) << page.substr(0, 40);
}

// Properties over generated tag soup (tokens of every construct the pre-pass distinguishes, NUL
// and broken UTF-8 included): the text does not depend on the pieces the parser is fed, the
// pre-pass writes a bounded number of bytes per byte read, and nothing crashes under tight limits.
TEST(HtmlPrepass, GeneratedTagSoupProperties) {
    static const char* const kTokens[] = {
        "<", "</", "<!--", "-->", "--!>", "<!", "<?", ">", "/>", "/", "=", "\"", "'", " ", "\n", "a", "word",
        "div", "p", "script", "style", "textarea", "title", "xmp", "plaintext", "iframe", "noscript", "html",
        "body", "&amp;", "&", "\xC3\xA9", "\xE2", "x=1", "<script>", "</script>", "</script", "<textarea>",
        "</textarea>", "<p ", "<b>", "</x>", "<![CDATA[", "]]>", "<!DOCTYPE html>", "</html>", "<div>", "</div>"};
    uint64_t state = 42;
    auto next = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<size_t>(state >> 33);
    };
    for (int it = 0; it < 3000; it++) {
        std::string page;
        for (size_t i = 0, n = next() % 120; i < n; i++) {
            size_t t = next() % (std::size(kTokens) + 1);
            if (t == std::size(kTokens)) page.push_back('\0');
            else page += kTokens[t];
        }
        std::string ref = blocks_text(page, 0, 65536);
        ASSERT_EQ(blocks_text(page, 1 + next() % 16, 1 + next() % 7), ref) << page;
        ASSERT_LE(pre(page).size(), 8 * page.size() + 16) << page;
        ndd::HtmlPrepassLimits lim;
        lim.max_attributes = 1;
        lim.max_name = 2;
        lim.max_value = 3;
        lim.max_raw = 4;
        lim.text_piece = 5;
        lim.max_depth = 12;
        ndd::HtmlFeedOptions opt;
        opt.limits = lim;
        opt.piece = 3;
        ndd::InterruptPoller p(nullptr);
        ndd::html_blocks(page.data(), page.size(), p, opt);
    }
}

// An element whose content ndd drops ends at its end tag whatever it holds: a start tag inside it
// that is never closed (libxml2 ignores </template> or </span> while a <div>, <table> or <td> is
// open above it) must not hide the rest of the page. Property: for every such element E and
// generated junk J (tags of other names, unclosed or stray, text, references, a '<' that starts no
// tag; not a tag left open at the end of J, which would take in </E> in HTML5 as here),
// "before <E>J</E> after" yields "before" and "after".
TEST(HtmlPrepass, DroppedElementEndsWhateverItHolds) {
    struct Dropped {
        const char* open;
        const char* name;
    };
    static const Dropped kDropped[] = {
        {"<template>", "template"},   {"<noscript>", "noscript"},   {"<iframe src=x>", "iframe"},
        {"<noembed>", "noembed"},     {"<noframes>", "noframes"},   {"<script>", "script"},
        {"<style>", "style"},         {"<title>", "title"},         {"<head>", "head"},
        {"<div hidden>", "div"},      {"<span hidden=\"\">", "span"}, {"<section HIDDEN>", "section"},
        {"<div aria-hidden=\"true\">", "div"}, {"<p aria-hidden=true>", "p"}, {"<table hidden>", "table"},
        {"<ul hidden>", "ul"},        {"<a hidden href=x>", "a"},    {"<td hidden>", "td"},
    };
    static const char* const kNames[] = {"div", "p", "span", "table", "tbody", "tr", "td", "th", "ul", "ol", "li",
                                         "a", "b", "i", "section", "form", "select", "option", "h1", "pre",
                                         "button", "dl", "dd", "dt", "center", "font", "nav", "article", "x-y"};
    static const char* const kOther[] = {"junk", " ", "\n", "&amp;", "&", "a < b", "<3", ">", "<br>", "<img src=x>",
                                         "<hr/>", "<input>", "\xC3\xA9", "<div/>", "</>", "x=1"};
    uint64_t state = 7;
    auto next = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<size_t>(state >> 33);
    };
    for (const Dropped& e : kDropped) {
        for (int it = 0; it < 300; it++) {
            std::string junk;
            for (size_t i = 0, n = next() % 24; i < n; i++) {
                size_t kind = next() % 3;
                const char* name = kNames[next() % std::size(kNames)];
                if (std::string(name) == e.name) continue;  // E's own tags would end or nest E
                if (kind == 0) junk += std::string("<") + name + (next() % 4 ? ">" : " class=\"c\">");
                else if (kind == 1 && next() % 3 == 0) junk += std::string("</") + name + ">";
                else junk += kOther[next() % std::size(kOther)];
            }
            std::string page = std::string("<html><body><p>before</p>") + e.open + junk + "</" + e.name + "><p>after</p></body></html>";
            std::string t = text(page);
            ASSERT_NE(t.find("before"), std::string::npos) << page << "\n=> " << t;
            ASSERT_NE(t.find("after"), std::string::npos) << page << "\n=> " << t;
        }
    }
    // the page of the report (parcoabruzzo.it): a <div> left open inside <noscript>
    EXPECT_EQ(text("<html><body><noscript><div id=\"x\"></noscript><div><p>visible text</p></div></body></html>"),
              "visible text");
    EXPECT_EQ(text("<html><body><template><div><table><tr><td>x</template><p>after</p></body></html>"), "after");
    // what the dropped element holds stays dropped, and the closing touches nothing outside it
    EXPECT_EQ(text("<div><p>a</p><span hidden><div>x<p>y</span><p>b</p></div>"), "a\nb");
}

// ---- the lean feed (HtmlFeedOptions::lean): only the attributes the reader reads, runs of blanks
// as one byte ----

namespace {

class LeanSink final : public ndd::HtmlPrepassSink {
public:
    std::string out;
    void append(const char* s, size_t n) override { out.append(s, n); }
    bool may_open() override { return true; }
    ndd::HtmlAttributeUse attribute_use(std::string_view n) const override {
        if (n == "href" || n == "hidden") return ndd::HtmlAttributeUse::Name;
        if (n == "class") return ndd::HtmlAttributeUse::Value;
        return ndd::HtmlAttributeUse::None;
    }
    bool folds_blanks() const override { return true; }
};
std::string lean_pre(const std::string& html, const ndd::HtmlPrepassLimits& lim = ndd::HtmlPrepassLimits()) {
    LeanSink sink;
    ndd::InterruptPoller p(nullptr);
    ndd::html_prepass(html.data(), html.size(), sink, p, lim);
    return sink.out;
}

// Everything html_blocks gives, written out: the text, each block's fields and each region's.
std::string blocks_dump(const std::string& html, bool lean, bool blocks = true) {
    ndd::InterruptPoller p(nullptr);
    ndd::HtmlFeedOptions opt;
    opt.lean = lean;
    opt.blocks = blocks;
    ndd::HtmlDocument doc = ndd::html_blocks(html.data(), html.size(), p, opt);
    std::string d = doc.text + "|";
    for (size_t i = 0; i < doc.blocks.size(); i++) {
        const ndd::HtmlBlock b = doc.blocks[i];
        d += std::to_string(b.end) + "," + std::to_string(b.chars) + "," + std::to_string(b.link_chars) + "," +
             std::to_string(b.context_depth) + "," + std::to_string(b.context) + "," +
             std::to_string(static_cast<int>(b.kind)) + ";";
    }
    d += "|";
    for (size_t i = 0; i < doc.regions.size(); i++) {
        const ndd::HtmlRegion& r = doc.regions[i];
        d += std::to_string(r.first) + "," + std::to_string(r.last) + "," + std::to_string(r.depth) + "," +
             std::to_string(r.inner_depth) + "," + std::to_string(r.hint) + "," + std::to_string(r.semantic) + "," +
             std::to_string(r.signature) + ";";
    }
    d += "|";
    for (size_t i = 0; i < doc.blocks.size(); i++) d += doc.is_metadata(i) ? "m" : ".";
    for (const std::string& j : doc.json_ld) d += "|" + j;
    return d;
}

}  // namespace

TEST(HtmlPrepassLean, OnlyTheAttributesReadAndTheirValuesWhenRead) {
    EXPECT_EQ(lean_pre("<a HREF=\"/x\" data-a=\"1\" class=\"c d\" src=y hidden=hidden>t</a>"),
              "<a href class=\"c d\" hidden>t</a>");
    // an attribute not written is still the first of its name, and one of the first max_attributes
    EXPECT_EQ(lean_pre("<p title=1 class=a class=b>x"), "<p class=\"a\">x");
    EXPECT_EQ(lean_pre("<p x=1 X=2 class=a>x"), "<p class=\"a\">x");
    ndd::HtmlPrepassLimits lim;
    lim.max_attributes = 2;
    EXPECT_EQ(lean_pre("<p a=1 b=2 class=c>x", lim), "<p>x");
    // what the pre-pass itself reads still counts: type (JSON-LD), hidden
    EXPECT_EQ(lean_pre("<div aria-hidden=true><p>x</div>"), "<div><p>x</p></div>");
}

TEST(HtmlPrepassLean, BlankRunsFolded) {
    EXPECT_EQ(lean_pre("<p>  a \n\t b  <!-- c -->  c\n</p>"), "<p> a b c\n</p>");
    EXPECT_EQ(lean_pre("<p>a b\xC2\xA0 \f  c</p>"), "<p>a b\xC2\xA0 \f c</p>");  // \f and U+00A0 are no blank to libxml2
    EXPECT_EQ(lean_pre("<p>a &amp;   b</p>   "), "<p>a &amp; b</p> ");
    // a text run of blanks alone, 1,000 bytes or more, is written whole, joined across dropped
    // comments; shorter, or beside text, it is one byte
    const std::string b999(999, ' '), b600(600, '\n');
    EXPECT_EQ(lean_pre("<html>" + b999 + "<head>"), "<html> <head>");
    EXPECT_EQ(lean_pre("<html>" + b999 + " <head>"), "<html>" + b999 + " <head>");
    EXPECT_EQ(lean_pre("<html>" + b600 + "<!-- x -->" + b600 + "<head>"), "<html>" + b600 + b600 + "<head>");
    EXPECT_EQ(lean_pre("<p>" + b600 + "x" + b600 + "</p>"), "<p>\nx\n</p>");
    EXPECT_EQ(lean_pre(b600 + b600), b600 + b600);
    // past text_piece bytes without a tag, the text goes as the page has it (and is cut)
    ndd::HtmlPrepassLimits lim;
    lim.text_piece = 10;
    EXPECT_EQ(lean_pre("<p>a    b    c    d</p>  e  <p>", lim), "<p>a    b    " + kCutMark + "c    d</p> e <p>");
}

// Property: the lean feed gives the same blocks, regions and JSON-LD as the page fed whole, over
// generated pages of blanks, attributes the blocks read and do not read, comments and references,
// fed in pieces of every size; and so does the text alone.
TEST(HtmlPrepassLean, SameBlocksAsThePageFedWhole) {
    static const char* const kTokens[] = {
        " ", "  ", "\n", "\t\t", "\r\n", "\f", "\xC2\xA0", "word", "\xC3\xA9t\xC3\xA9", "&amp;", "&nbsp;", "&",
        "<!-- c -->", "<p>", "</p>", "<div class=\"nav menu\" data-x=\"1\">", "<div id=\"content\" title=t>",
        "</div>", "<a href=\"/x\" rel=nofollow>", "<a name=x>", "</a>", "<span hidden=\"hidden\">", "</span>",
        "<section role=\"main\" style=\"color:red\">", "</section>", "<p style=\"display:none\">",
        "<article itemprop=\"articleBody\" class=\"post\">", "</article>", "<li class=\"item a\">", "<li>", "<br>",
        "<td aria-hidden=\"true\">", "<td aria-hidden=\"false\">", "<table>", "</table>", "<pre>", "</pre>",
        "<script type=\"application/ld+json\">{\"articleBody\": \"x  y\"}</script>", "<script>  var a;  </script>",
        "<title>  t  </title>", "<head>", "</head>", "<body class=\"sidebar\">", "<textarea>  x  </textarea>",
        "<img src=\"a.png\" alt=\"  a  \">", "<!DOCTYPE html>", "<h2 class=\"title\">", "</h2>", "<footer>", "</footer>",
        "<div class=\"byline\">", "<a rel=\"author\" href=\"/a\">", "<span itemprop=\"datePublished\">", "<time>", "</time>",
        "<figure><figcaption>", "</figcaption></figure>"};
    uint64_t state = 29;
    auto next = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<size_t>(state >> 33);
    };
    for (int it = 0; it < 2000; it++) {
        // (an <html> start tag inside the page makes libxml2's output depend on the pieces it is
        // fed, lean or not: at the start only)
        std::string page = it % 2 ? "<!DOCTYPE html><html lang=en>" : "";
        for (size_t i = 0, n = next() % 200; i < n; i++) {
            size_t t = next() % (std::size(kTokens) + 1);
            if (t == std::size(kTokens)) page += std::string(500 + next() % 1000, " \n"[next() % 2]);  // long blank runs
            else page += kTokens[t];
        }
        const std::string whole = blocks_dump(page, false);
        ASSERT_EQ(blocks_dump(page, true), whole) << page;
        ASSERT_EQ(blocks_dump(page, true, false), blocks_dump(page, false, false)) << page;
        ASSERT_EQ(blocks_text(page, 1 + next() % 16, 1 + next() % 7), blocks_text(page, 0, 65536)) << page;
    }
}
