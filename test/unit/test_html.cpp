// Unit tests of the HTML text extraction (html_blocks.hpp, html_content.hpp, html_api.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "html_api.h"
#include "html_content.hpp"

namespace {

std::string text(const std::string& html) {
    ndd::InterruptPoller p(nullptr);
    return ndd::html_text(html.data(), html.size(), p);
}
std::string content(const std::string& html) {
    ndd::InterruptPoller p(nullptr);
    return ndd::html_content(html.data(), html.size(), p);
}
std::string repeat(const std::string& s, int n) {
    std::string r;
    for (int i = 0; i < n; i++) r += s;
    return r;
}
const std::string kLong =
    "This paragraph is the article: it is long enough to be content by its length alone, with more than two "
    "hundred code points of running text and no links at all, which is what the body of an article looks like.";

}  // namespace

TEST(HtmlText, DropsInvisibleElementsAndComments) {
    EXPECT_EQ(text("<head><title>t</title></head><p>a</p><script>s</script><style>c</style><!--x-->"
                   "<template>t</template><noscript>n</noscript><p hidden>h</p><p>b</p>"),
              "a\nb");
}

TEST(HtmlText, BlocksAndInlineElements) {
    EXPECT_EQ(text("<p>wo<b>r</b>d</p><div>x<br>y</div><li>z"), "word\nx\ny\nz");
    EXPECT_EQ(text("  \n\t "), "");
    EXPECT_EQ(text(""), "");
}

TEST(HtmlText, WhitespaceCollapsed) { EXPECT_EQ(text("<p> a \t\n b&nbsp;\xC2\xA0 c </p>"), "a b c"); }

TEST(HtmlText, CharacterReferences) {
    EXPECT_EQ(text("<p>&amp;&lt;&#65;&#x42;&eacute;&#0;&bogus;</p>"), "&<AB\xC3\xA9&bogus;");
}

TEST(HtmlText, InvalidUtf8BecomesReplacementCharacter) {
    EXPECT_EQ(text(std::string("<p>a\xFF" "b\xC3</p>")), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD");
}

TEST(HtmlText, ContentAfterTheEndOfTheDocumentIsKept) {
    EXPECT_EQ(text("<p>a</p></body></html><p>b</p></html>c"), "a\nb\nc");
}

TEST(HtmlText, DeepNestingIteratesInsteadOfRecursing) {
    EXPECT_EQ(text(repeat("<div>", 200000) + "deep" + repeat("</div>", 200000)), "deep");
    EXPECT_EQ(text(repeat("<div><span>", 100000) + "x"), "x");
}

TEST(HtmlText, LongPageAcrossChunks) {
    std::string t = text(repeat("<p>word</p>", 50000));  // 550 kB: many 64 kB parser chunks
    EXPECT_EQ(t.size(), 50000u * 5 - 1);
}

TEST(HtmlClassHint, Words) {
    auto h = [](const char* s, size_t max_words = 0) { return ndd::html_class_hint(s, std::strlen(s), max_words); };
    EXPECT_EQ(h("site-footer"), -1);
    EXPECT_EQ(h("sphinxsidebar"), -1);
    EXPECT_EQ(h("navbar top"), -1);
    EXPECT_EQ(h("ad"), -1);
    EXPECT_EQ(h("header download shadow"), -1);  // "header" names boilerplate
    EXPECT_EQ(h("download shadow"), 0);          // "ad" only as a whole word
    EXPECT_EQ(h("post-content"), 1);
    EXPECT_EQ(h("post-footer"), -1);  // boilerplate wins
    EXPECT_EQ(h("module-email-header", 2), 0);  // an id slug of three words does not count
    EXPECT_EQ(h(repeat("x", 1000).c_str()), 0);
}

TEST(HtmlContent, BoilerplateFamiliesLeftOut) {
    std::string page = "<nav><a href=/a>A</a> <a href=/b>B</a></nav><div class=cookie-banner><p>" + kLong +
                       "</p></div><main><h1>Title</h1><p>" + kLong + "</p></main><aside><p>" + kLong +
                       "</p></aside><footer><p>" + kLong + "</p></footer>";
    EXPECT_EQ(content(page), "Title\n" + kLong);
}

TEST(HtmlContent, LinkDensityAndNeighbours) {
    std::string links = "<div><a href=/1>one link</a> <a href=/2>two links</a> <a href=/3>three links</a></div>";
    // short blocks between good ones are good; the link list is bad
    std::string page = links + "<div><p>" + kLong + "</p><p>Short.</p><p>" + kLong + "</p></div>" + links;
    EXPECT_EQ(content(page), kLong + "\nShort.\n" + kLong);
}

TEST(HtmlContent, NoMainContentGivesTheWholeText) {
    EXPECT_EQ(content("<p>Hello.</p><ul><li><a href=/>Home</a></ul>"), "Hello.\nHome");
    EXPECT_EQ(content(""), "");
}

TEST(HtmlContent, Deterministic) {
    std::string page = "<div id=sidebar>x</div><article><p>" + kLong + "</p></article>";
    EXPECT_EQ(content(page), content(page));
    EXPECT_EQ(content(page), kLong);
}

namespace {
int always_cancel() { return 1; }
void* test_alloc(size_t n) { return std::malloc(n); }
}  // namespace

TEST(HtmlApi, CancelledAndArguments) {
    std::string page = repeat("<p>word</p>", 20000);
    char* out = nullptr;
    size_t len = 0;
    EXPECT_EQ(ndd_html_extract(page.data(), page.size(), NDD_HTML_TEXT, 4, test_alloc, &out, &len, always_cancel),
              NDD_CANCELLED);
    EXPECT_EQ(ndd_html_extract(nullptr, 5, NDD_HTML_TEXT, 4, test_alloc, &out, &len, nullptr), NDD_INVALID_ARGUMENT);
    ASSERT_EQ(ndd_html_extract("<p>a &amp; b", 12, NDD_HTML_CONTENT, 4, test_alloc, &out, &len, nullptr), NDD_OK);
    EXPECT_EQ(std::string(out + 4, len), "a & b");
    std::free(out);
}

TEST(HtmlContent, MainRegionLeavesOutAnUnmarkedFooter) {
    // no tag or class says what the footer is: it is long, has no link, and sits in another cell
    std::string footer = "This page is an unofficial copy kept for archival purposes; the archive makes no claim to "
                         "the documents it keeps and removes any of them on request, write to the webmaster for that.";
    std::string nav = "<a href=/1>first link</a> <a href=/2>second link</a> <a href=/3>third link</a> <a href=/4>fourth</a>";
    std::string page = "<table><tr><td>" + nav + "</td></tr><tr><td><h1>Title</h1><p>" + kLong + "</p><p>Short.</p><p>" +
                       kLong + "</p></td></tr><tr><td>" + footer + "</td></tr></table>";
    EXPECT_EQ(content(page), "Title\n" + kLong + "\nShort.\n" + kLong);
}

TEST(HtmlContent, LoneGoodBlockOnAPageOfLinksIsNoMainContent) {
    std::string links;
    for (int i = 0; i < 200; i++) links += "<li><a href=/" + std::to_string(i) + ">a link to another page number " + std::to_string(i) + "</a></li>";
    std::string page = "<ul>" + links + "</ul><p>" + kLong + "</p>";
    EXPECT_EQ(content(page), text(page));  // the long paragraph is under 5 % of the text
}
