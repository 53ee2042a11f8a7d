// Unit tests of the JSON-LD articleBody as evidence for the content model (html_jsonld.hpp), and
// of the pre-pass's hook that keeps the scripts' text (html_prepass.hpp, html_blocks.hpp).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "html_blocks.hpp"
#include "html_content.hpp"
#include "html_jsonld.hpp"

namespace {

std::string content(const std::string& html) {
    ndd::InterruptPoller p(nullptr);
    return ndd::html_content(html.data(), html.size(), p);
}
std::vector<std::string> scripts_of(const std::string& html) {
    ndd::InterruptPoller p(nullptr);
    return ndd::html_blocks(html.data(), html.size(), p).json_ld;
}
std::string body(const std::string& json) { return ndd::json_ld_article_body({json}); }

const std::string kP1 =
    "The river rose by two metres overnight, flooding the lower town and cutting the road to the coast, officials "
    "said on Tuesday morning.";
const std::string kP2 =
    "Residents were moved to the school on the hill, where volunteers served soup and blankets through the night, "
    "the mayor said.";
const std::string kP3 =
    "Engineers will inspect the bridge when the water falls, which may take until the end of the week, according "
    "to the regional office.";
const std::string kP4 =
    "The forecast promises dry weather from Thursday, and the schools of the lower town stay closed until further "
    "notice from the council.";
const std::string kCaption = "Photograph by the agency, used with permission of its owners";
const std::string kReadAlso = "Read also: how the last flood changed the town forever and what was learned";
const std::string kBio = "Jane Doe writes about weather, rivers and the people who live beside them for the paper since long ago.";

// An article whose region holds a caption, a "read also" line and an author box: the content
// model keeps all three without evidence.
std::string article_page(const std::string& json_ld) {
    std::string head = json_ld.empty() ? "" : "<head><script type=\"application/ld+json\">" + json_ld + "</script></head>";
    // (the caption and the bio in markup that does not name them: a <figcaption> or a class
    // "author-bio" is metadata, never content, with or without the page's JSON-LD)
    return "<html>" + head + "<body><nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav><article><h1>The river rose overnight</h1><p>" +
           kP1 + "</p><div class=\"pic\"><img src=\"a.jpg\"><div>" + kCaption + "</div></div><p>" + kP2 + "</p><p>" +
           kReadAlso + "</p><p>" + kP3 + "</p><p>" + kP4 + "</p><div class=\"writer-bio\"><p>" + kBio +
           "</p></div></article></body></html>";
}
std::string article(const std::string& type, const std::string& text) {
    return "{\"@context\":\"https://schema.org\",\"@type\":\"" + type + "\",\"headline\":\"The river\",\"articleBody\":\"" + text + "\"}";
}
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(HtmlJsonLd, ArticleTypes) {
    for (const char* t : {"Article", "NewsArticle", "ReportageNewsArticle", "TechArticle", "BlogPosting", "LiveBlogPosting",
                          "Report", "article", "https://schema.org/NewsArticle", "http://schema.org/BlogPosting", "schema:Article"})
        EXPECT_TRUE(ndd::json_ld_article_type(t)) << t;
    for (const char* t : {"WebPage", "Organization", "Person", "BreadcrumbList", "ImageObject", "Reporter", "", "/"})
        EXPECT_FALSE(ndd::json_ld_article_type(t)) << t;
}

TEST(HtmlJsonLd, ArticleBodyWhereverTheArticleIs) {
    EXPECT_EQ(body(article("NewsArticle", "the text")), "the text");
    // @type after articleBody, as an array, in @graph, in a top-level array, as an IRI
    EXPECT_EQ(body(R"({"articleBody":"b","@type":"Article"})"), "b");
    EXPECT_EQ(body(R"({"@type":["CreativeWork","BlogPosting"],"articleBody":"b"})"), "b");
    EXPECT_EQ(body(R"({"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"p"},{"@type":"NewsArticle","articleBody":"g"}]})"), "g");
    EXPECT_EQ(body(R"([{"@type":"Organization"},{"@type":"https://schema.org/Article","articleBody":"a"}])"), "a");
    // escapes decoded
    EXPECT_EQ(body(R"({"@type":"Article","articleBody":"caf\u00e9 \"q\"\nx"})"), "caf\xC3\xA9 \"q\"\nx");
    // the longest of several articles, over several scripts
    EXPECT_EQ(ndd::json_ld_article_body({article("Article", "short"), R"([{"@type":"Article","articleBody":"the longest one"},{"@type":"Article","articleBody":"mid one"}])"}),
              "the longest one");
}

TEST(HtmlJsonLd, NoArticleNoBody) {
    EXPECT_EQ(body(R"({"@type":"WebPage","articleBody":"not an article"})"), "");
    EXPECT_EQ(body(R"({"articleBody":"no type"})"), "");
    EXPECT_EQ(body(R"({"@type":"Article","articleBody":{"text":"an object"}})"), "");
    EXPECT_EQ(body(R"({"@type":"Article","articleBody":["an array"]})"), "");
    EXPECT_EQ(body(R"({"@type":"Article","text":"no articleBody"})"), "");
    // an articleBody of an object inside the article is not the article's
    EXPECT_EQ(body(R"({"@type":"Article","about":{"@type":"Thing","articleBody":"inner"}})"), "");
    // the @type of an inner object is not the outer one's
    EXPECT_EQ(body(R"({"articleBody":"outer","author":{"@type":"Article"}})"), "");
    // a string inside an array under @type is a type, never a body
    EXPECT_EQ(body(R"({"@type":["Article"],"articleBody":"b","x":["articleBody"]})"), "b");
    EXPECT_EQ(ndd::json_ld_article_body({}), "");
}

TEST(HtmlJsonLd, WhatPagesWrite) {
    // comments, trailing commas, raw line breaks and tabs in strings, CDATA and comment wrappers
    EXPECT_EQ(body("/* c */ {\"@type\":\"Article\", // c\n \"articleBody\":\"a\nb\tc\",}"), "a b c");
    EXPECT_EQ(body("//<![CDATA[\n{\"@type\":\"Article\",\"articleBody\":\"x\"}\n//]]>"), "x");
    EXPECT_EQ(body("<!-- {\"@type\":\"Article\",\"articleBody\":\"x\"} -->"), "x");
    // invalid JSON: what was complete before the error counts, the rest not
    EXPECT_EQ(body(R"([{"@type":"Article","articleBody":"done"}, {"@type":"Article","articleBody":"cut)"), "done");
    EXPECT_EQ(body(R"({"@type":"Article","articleBody":"x" "y"})"), "");
    EXPECT_EQ(body("not json at all"), "");
    // invalid UTF-8 in a string: the script is refused (RapidJSON validates), nothing crashes
    EXPECT_EQ(body("{\"@type\":\"Article\",\"articleBody\":\"\xff\xfe\"}"), "");
}

TEST(HtmlJsonLd, HostileJsonIsBounded) {
    // nesting far deeper than any C stack holds: the iterative parser uses none
    const size_t depth = 200000;
    std::string deep = "{\"@type\":\"Article\",\"articleBody\":\"kept\",\"x\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
    EXPECT_EQ(body(deep), "kept");
    std::string objects;
    for (size_t i = 0; i < depth; i++) objects += "{\"a\":";
    EXPECT_EQ(body(objects + "1" + std::string(depth, '}')), "");
    EXPECT_EQ(body(std::string(depth, '[')), "");  // never closed
    // a huge string
    std::string huge(1 << 20, 'a');
    EXPECT_EQ(body(article("Article", huge)).size(), huge.size());
}

TEST(HtmlJsonLd, ScriptsKeptByTheParse) {
    const std::string j = R"({"@type":"Article","articleBody":"</div> a <b> </script"})";
    // only scripts of type application/ld+json (any case, parameters allowed), as written
    auto s = scripts_of("<html><head><script type=\"application/ld+json\">" + j + "</script><script>var x = 1;</script>"
                        "<script type=\"text/javascript\">y()</script><script type=\" Application/LD+JSON; charset=utf-8\">2</script>"
                        "<script type=\"application/ld+jsonx\">3</script><script type=\"application/json\">4</script></head>"
                        "<body><p>text</p><script type=application/ld+json>5</script></body></html>");
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0], j);  // "</script" ends it only before whitespace, '/' or '>' (HTML5)
    EXPECT_EQ(s[1], "2");
    EXPECT_EQ(s[2], "5");
    // the script's text is not the page's
    EXPECT_EQ(content("<script type=\"application/ld+json\">" + j + "</script><p>text</p>"), "text");
    // the first duplicate type attribute counts (HTML5)
    EXPECT_TRUE(scripts_of("<script type=\"text/javascript\" type=\"application/ld+json\">1</script>").empty());
    // html_text keeps none
    ndd::InterruptPoller p(nullptr);
    ndd::HtmlFeedOptions text_only;
    text_only.blocks = false;
    const std::string page = "<script type=\"application/ld+json\">1</script><p>x</p>";
    EXPECT_TRUE(ndd::html_blocks(page.data(), page.size(), p, text_only).json_ld.empty());
}

TEST(HtmlJsonLd, ScriptsKeptAreBounded) {
    // at most kHtmlJsonLdMaxBytes in all and kHtmlJsonLdMaxScripts scripts
    std::string big(700000, 'x');
    std::string page;
    for (int i = 0; i < 3; i++) page += "<script type=\"application/ld+json\">" + big + "</script>";
    size_t total = 0;
    for (const auto& s : scripts_of(page)) total += s.size();
    EXPECT_EQ(total, ndd::kHtmlJsonLdMaxBytes);
    std::string many;
    for (int i = 0; i < 5000; i++) many += "<script type=\"application/ld+json\">{}</script>";
    EXPECT_EQ(scripts_of(many).size(), ndd::kHtmlJsonLdMaxScripts);
    EXPECT_TRUE(scripts_of(std::string("<script type=\"application/ld+json\"></script>")).empty());
}

TEST(HtmlJsonLdEvidence, DropsWhatTheArticleDoesNotSay) {
    const std::string without = content(article_page(""));
    ASSERT_TRUE(has(without, kCaption) && has(without, kReadAlso) && has(without, kBio)) << without;
    const std::string full = kP1 + "\\n" + kP2 + "\\n" + kP3 + " " + kP4;
    const std::string with = content(article_page(article("NewsArticle", full)));
    EXPECT_EQ(with, "The river rose overnight\n" + kP1 + "\n" + kP2 + "\n" + kP3 + "\n" + kP4);
    // the same articleBody written as HTML, escaped once or twice
    const std::string html = "&lt;p&gt;" + kP1 + "&lt;/p&gt;&lt;p&gt;" + kP2 + "&lt;/p&gt;&amp;lt;p&amp;gt;" + kP3 + "&lt;br&gt;" + kP4 + "&lt;/p&gt;";
    EXPECT_EQ(content(article_page(article("NewsArticle", html))), with);
    EXPECT_EQ(content(article_page(article("NewsArticle", "<p>" + kP1 + "</p><p>" + kP2 + "</p><p>" + kP3 + "</p><p>" + kP4 + "</p>"))), with);
}

TEST(HtmlJsonLdEvidence, ACutArticleBodySaysNothingOfWhatFollows) {
    // cut at a word inside the fourth paragraph (as sites state the first N characters): what the
    // articleBody covers loses its caption and "read also" line, the rest of the page is judged
    // as without it
    const std::string cut = kP1 + " " + kP2 + " " + kP3 + " The forecast promises dry weather";
    const std::string with = content(article_page(article("Article", cut)));
    EXPECT_FALSE(has(with, kCaption)) << with;
    EXPECT_FALSE(has(with, kReadAlso)) << with;
    EXPECT_TRUE(has(with, kP4) && has(with, kBio)) << with;
    // cut at the end of a paragraph, but far shorter than the content found: no end either
    const std::string first = kP1 + " " + kP2 + " " + kP3;
    const std::string longer = article_page(article("Article", first));
    std::string page = longer;
    const std::string more = "<p>" + kP4 + " More words follow here to make the article longer than what it states.</p>";
    page.insert(page.find("<div class=\"writer-bio\">"), more + more + more + more);
    const std::string c = content(page);
    EXPECT_TRUE(has(c, kBio)) << c;
}

TEST(HtmlJsonLdEvidence, NoEvidenceNoChange) {
    const std::string without = content(article_page(""));
    // a statement that is not an article, too short, or not the page's text changes nothing
    EXPECT_EQ(content(article_page(R"({"@type":"Organization","name":"The paper","articleBody":")" + kP1 + kP2 + kP3 + "\"}")), without);
    EXPECT_EQ(content(article_page(article("Article", kP1))), without);
    std::string other;
    for (int i = 0; i < 20; i++) other += "Entirely different words about markets and prices fell again today number " + std::to_string(i) + ". ";
    EXPECT_EQ(content(article_page(article("Article", other))), without);
    EXPECT_EQ(content(article_page("{\"@type\":\"Article\",\"articleBody\":")), without);
}

TEST(HtmlJsonLdEvidence, AddsTheBlocksItStates) {
    // the article's paragraphs inside a boilerplate-marked wrapper, below a longer sidebar: the
    // paragraphs the articleBody states are content
    std::string side;
    for (int i = 0; i < 3; i++) side += "<p>" + kBio + " " + kCaption + " and more about the author and her books.</p>";
    const std::string page_body = "<div class=\"sidebar\"><p>" + kP1 + "</p><p>" + kP2 + "</p><p>" + kP3 + "</p><p>" + kP4 +
                                  "</p></div><div class=\"main\">" + side + "</div>";
    const std::string full = kP1 + " " + kP2 + " " + kP3 + " " + kP4;
    const std::string with = content("<script type=\"application/ld+json\">" + article("BlogPosting", full) + "</script>" + page_body);
    const std::string without = content(page_body);
    ASSERT_FALSE(has(without, kP1)) << without;
    EXPECT_TRUE(has(with, kP1) && has(with, kP2) && has(with, kP3) && has(with, kP4)) << with;
}

// Property: whatever a script holds, the content is made of the page's own blocks (never of the
// articleBody's text) and a page without an article statement gives what it gives without script.
TEST(HtmlJsonLdEvidence, RandomScriptsProperty) {
    std::mt19937 rng(29);
    const std::string without = content(article_page(""));
    const char* pieces[] = {"{", "}", "[", "]", ",", ":", "\"@type\"", "\"Article\"", "\"articleBody\"", "\"@graph\"",
                            "\"", "\\", "\\u00e9", "\xff", "1", "null", " ", "\n", "</p>", "&lt;p&gt;"};
    const std::string words[] = {kP1, kP2, kP3, kP4, kCaption};
    for (int t = 0; t < 300; t++) {
        std::string s;
        int n = static_cast<int>(rng() % 60);
        for (int i = 0; i < n; i++) s += rng() % 8 == 0 ? words[rng() % 5] : pieces[rng() % (sizeof pieces / sizeof *pieces)];
        const std::string c = content(article_page(s));
        size_t start = 0;
        for (size_t nl; start <= c.size(); start = nl + 1) {
            nl = c.find('\n', start);
            if (nl == std::string::npos) nl = c.size();
            EXPECT_TRUE(has(without, c.substr(start, nl - start))) << s;
        }
        if (s.find("Article") == std::string::npos) EXPECT_EQ(c, without) << s;
    }
}

TEST(HtmlJsonLd, DatePublished) {
    using ndd::json_ld_date_published;
    // an article's date wins over an earlier object's, wherever @type comes in the object
    EXPECT_EQ(json_ld_date_published(R"({"@graph":[{"@type":"WebPage","datePublished":"2001-01-01"},)"
                                     R"({"datePublished":"2002-02-02","@type":["Thing","NewsArticle"]}]})"),
              "2002-02-02");
    // no article states one: the first object's; escapes decoded
    EXPECT_EQ(json_ld_date_published(R"([{"@type":"WebPage","datePublished":"2003\/03\/03"},{"datePublished":"x"}])"), "2003/03/03");
    EXPECT_EQ(json_ld_date_published(R"({"datePublished":"2004-04-0\u0034"})"), "2004-04-04");
    // a script cut before its object closes still states its date; the first string of the key only
    EXPECT_EQ(json_ld_date_published(R"({"@type":"Article","datePublished":"2005-05-05","articleBody":"cut)"), "2005-05-05");
    EXPECT_EQ(json_ld_date_published(R"({"@type":"Article","datePublished":"2006-06-06","datePublished":"2007-07-07"})"), "2006-06-06");
    // not a string, inside an array, a nested key, an escaped key in a string: no date
    EXPECT_EQ(json_ld_date_published(R"({"datePublished":20010101})"), "");
    EXPECT_EQ(json_ld_date_published(R"({"datePublished":["2008-08-08"]})"), "");
    EXPECT_EQ(json_ld_date_published(R"({"headline":"\"datePublished\":\"2009-09-09\""})"), "");
    EXPECT_EQ(json_ld_date_published("not json"), "");
}

TEST(HtmlJsonLd, DatePublishedOfInvalidJson) {
    // names written unquoted, as pages do: the parse stops before the date, the scan finds it
    EXPECT_EQ(ndd::json_ld_date_published("{\"@type\": \"NewsArticle\", \"author\": Jane Doe,\n \"datePublished\" : \"2021-05-11 09:49\"}"),
              "2021-05-11 09:49");
    // a date the parse read before the error wins over the scan's later one
    EXPECT_EQ(ndd::json_ld_date_published(R"({"@type":"Article","datePublished":"2001-01-01","x": y, "datePublished":"2002"})"), "2001-01-01");
    EXPECT_EQ(ndd::json_ld_date_published("{\"x\": y, \"datePublished\": 5, \"datePublished\": \"  \"}"), "");
}
