// Unit tests of the HTML text extraction (html_blocks.hpp, html_content.hpp, html_api.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "html_api.h"
#include "html_content.hpp"
#include "html_meta.hpp"

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

TEST(HtmlClassHint, MetadataWords) {
    auto meta = [](const char* s, int* hint = nullptr, size_t max_words = 0) {
        bool m = true;
        const int h = ndd::html_class_hint(s, std::strlen(s), max_words, &m);
        if (hint) *hint = h;
        return m;
    };
    int h = 0;
    EXPECT_TRUE(meta("image-caption", &h));
    EXPECT_EQ(h, -1);  // a caption is boilerplate too (weighed as such in the region's choice)
    EXPECT_TRUE(meta("byline-section", &h));
    EXPECT_EQ(h, 0);  // a byline only names metadata: no hint
    EXPECT_TRUE(meta("articleByline byline___2NGv_"));
    EXPECT_TRUE(meta("publish-date"));
    EXPECT_TRUE(meta("ap-story-timestamp"));
    EXPECT_TRUE(meta("entry-author author-name"));
    EXPECT_TRUE(meta("image-credit"));
    EXPECT_FALSE(meta("updated authorship dated"));  // whole tokens only
    EXPECT_FALSE(meta("entry-meta"));                // not "meta" (html_blocks.hpp)
    EXPECT_FALSE(meta("post-content", &h));
    EXPECT_EQ(h, 1);
    EXPECT_FALSE(meta("author-box-wrap x", nullptr, 2));  // an id of three words or more names nothing
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
    // tokens, not substrings (issue 29): camelCase and punctuation split a name into tokens
    EXPECT_EQ(h("PageBuilder-pageRow"), 0);  // no "pager"
    EXPECT_EQ(h("shareholders commentary"), 0);
    EXPECT_EQ(h("and-w-sidebar"), -1);  // a signal still: weighed against the text (HtmlContent tests)
    EXPECT_EQ(h("mainNavigation"), -1);
    EXPECT_EQ(h("articleBody"), 1);
    EXPECT_EQ(h(repeat("x", 1000).c_str()), 0);
    // words of one length, first and last letter look alike to a hash of those: each its own hint
    EXPECT_EQ(h("comment"), -1);
    EXPECT_EQ(h("consent"), -1);
    EXPECT_EQ(h("content"), 1);
    EXPECT_EQ(h("contents"), 0);
    EXPECT_EQ(h("document story prose"), 1);
    EXPECT_EQ(h("tags-text"), -1);
    // one class name for the body and another for a sidebar or a share bar cancel out
    // (Readability's class weight); within one name boilerplate still wins ("post-footer")
    EXPECT_EQ(h("tags text"), 0);
    EXPECT_EQ(h("l-sidebar-fixed l-segment l-article-body-segment"), 0);
    EXPECT_EQ(h("entry share"), 0);
    EXPECT_EQ(h("post-footer widget"), -1);
    EXPECT_EQ(h("caption-full"), -1);
    EXPECT_EQ(h("control-bar-credit"), -1);
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

// ---- issue 29: failure classes on real pages, each from a minimal page ----

namespace {
// Short-paragraph news: no paragraph reaches 200 code points.
const std::string kNews =
    "<p>The council voted on Tuesday to close the old bridge, citing safety concerns.</p>"
    "<p>Repairs are expected to take at least two years, officials said.</p>"
    "<p>Residents will have to use a ferry, which runs every twenty minutes.</p>"
    "<p>“We had no choice,” the mayor told reporters after the vote.</p>"
    "<p>A public meeting is planned for next week.</p>";
const std::string kNewsText =
    "The council voted on Tuesday to close the old bridge, citing safety concerns.\n"
    "Repairs are expected to take at least two years, officials said.\n"
    "Residents will have to use a ferry, which runs every twenty minutes.\n"
    "“We had no choice,” the mayor told reporters after the vote.\n"
    "A public meeting is planned for next week.";
const std::string kNav = "<nav><ul><li><a href=/1>Home</a><li><a href=/2>World</a><li><a href=/3>Sport</a></ul></nav>";
}  // namespace

// (2) A boilerplate word in a layout class of an ancestor (or of the article itself) is a signal
// weighed against the text, not a veto of the whole article.
TEST(HtmlContentIssue29, BoilerplateWordsInLayoutClassesDoNotVetoTheArticle) {
    const std::string side = "<div class=widget><h3>Popular</h3><ul><li><a href=/a>One story</a><li><a href=/b>"
                             "Another story</a><li><a href=/c>A third story</a></ul></div>";
    for (const char* wrapper : {"<div class=\"and-w-sidebar\">", "<div class=\"l-sidebar-fixed\">",
                                "<div class=\"PageBuilder-pageRow\">", "<div class=\"pagination-first\">"}) {
        std::string page = kNav + wrapper + "<div class=main-col><h1>Bridge to close</h1>" + kNews + "</div>" + side +
                           "</div><footer><p>(c) The Paper</p></footer>";
        EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText) << wrapper;
    }
    // on <article> itself: the page's own statement wins over its class word
    std::string page = kNav + "<article class=\"url-breadcrumb\"><h1>Bridge to close</h1>" + kNews + "</article>" + side;
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
}

// (2) A boilerplate word on the element that wraps the whole article inside the chosen region (a
// plugin's "share" beside the theme's "entry") is outweighed by the prose it holds; a marked element
// beside the article's own paragraphs (a gallery of captioned slides) stays left out.
TEST(HtmlContentIssue29, BoilerplateWordOnTheArticlesWrapperInsideTheRegion) {
    std::string page = kNav + "<article><h1>Bridge to close</h1><div class=\"entry themeform share\">" + kNews +
                       "</div></article><footer><p>(c) The Paper</p></footer>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
    std::string gallery = "<div class=\"gallery-widget\">";
    for (int i = 0; i < 4; i++) gallery += "<h3>Slide " + std::to_string(i) + "</h3><p>" + kLong + "</p>";
    gallery += "</div>";
    page = kNav + "<article><h1>Bridge to close</h1>" + kNews + "<p>" + kLong + "</p>" + gallery + "</article>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText + "\n" + kLong);
}

// (2) A layout class naming both a sidebar and the article's body (The Verge's "l-sidebar-fixed
// l-article-body-segment") marks nothing: its paragraphs are the article even where a marked
// element inside it (a promotion heading) splits them, while its newsletter box stays out.
TEST(HtmlContentIssue29, SidebarAndBodyClassNamesCancelOut) {
    std::string page = kNav + "<article><h1>Bridge to close</h1><div class=\"l-sidebar-fixed l-article-body-segment\">"
                       "<div class=c-entry-content>" + kNews.substr(0, kNews.find("<p>“")) + "<div class=promo><h3>Ferry times</h3></div>" +
                       kNews.substr(kNews.find("<p>“")) + "</div><div class=newsletter><h3>Sign up for the newsletter</h3>"
                       "<p>Daily updates from the near future, every morning in your inbox.</p></div></div></article>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
}

// The heading that opens the content and repeats the page's <title> is the page's title, left out
// as Readability leaves out a header duplicating the title: two copies of an article under two
// sites' titles give the same text. A heading that is not in the title, a word or two found in any
// title, and a page whose only content is its headline keep it.
TEST(HtmlContentIssue29, HeadlineRepeatingTheTitleLeftOut) {
    const std::string body = "<body>" + kNav + "<article><h1>Bridge to close</h1>" + kNews + "</article></body></html>";
    EXPECT_EQ(content("<html><head><title>Bridge to close - The Paper</title></head>" + body), kNewsText);
    EXPECT_EQ(content("<html><head><title>The Paper: Bridge to close | News</title></head>" + body), kNewsText);
    EXPECT_EQ(content("<html><head><title>The Paper</title></head>" + body), "Bridge to close\n" + kNewsText);
    EXPECT_EQ(content("<html><head><title>Bridge news</title></head><body><article><h1>Bridge</h1>" + kNews + "</article></body></html>"),
              "Bridge\n" + kNewsText);
    // only the opening heading: a subheading repeating the title further down stays
    EXPECT_EQ(content("<html><head><title>Repairs - The Paper</title></head><body><article><h1>Bridge to close</h1>" + kNews +
                      "<h2>Repairs</h2>" + kNews + "</article></body></html>"),
              "Bridge to close\n" + kNewsText + "\nRepairs\n" + kNewsText);
}

// A headline that restates the page's title without repeating it (Readability's textSimilarity over
// 0.75: a dash for a hyphen, the site's name), or that only og:title states, is the page's title
// too, in heading markup or not (a template's headline in a <div>); a headline with words of its
// own stays (branch deks).
TEST(HtmlContentIssue29, HeadlineNearTheTitleLeftOut) {
    auto page = [&](const std::string& head, const std::string& h) {
        return "<html><head>" + head + "</head><body>" + kNav + "<article>" + h + kNews + "</article></body></html>";
    };
    const std::string h1 = "<h1>Bridge to close \xe2\x80\x93 for two years</h1>";
    EXPECT_EQ(content(page("<title>Bridge to close - for two years | The Paper</title>", h1)), kNewsText);
    EXPECT_EQ(content(page("<title>News</title><meta property=\"og:title\" content=\"Bridge to close - for two years\">", h1)),
              kNewsText);
    EXPECT_EQ(content(page("<title>Bridge to close - for two years | The Paper</title>", "<div>Bridge to close for two years</div>")),
              kNewsText);
    EXPECT_EQ(content(page("<title>Bridge to close | The Paper</title>", "<h1>Council votes: old bridge to close for two years</h1>")),
              "Council votes: old bridge to close for two years\n" + kNewsText);
}

// A summary line opening the content (a heading or a <div> shorter than a lead paragraph, outside
// the article's paragraphs) that is the page's description is the page's summary, left out; the
// same sentence as the article's first paragraph, or a summary as long as a lead paragraph
// (trafilatura's annotators keep those), stays (branch deks).
TEST(HtmlContentIssue29, SummaryLineRestatingTheDescriptionLeftOut) {
    const std::string dek = "The old bridge will close for two years.";
    auto page = [&](const std::string& meta, const std::string& before) {
        return "<html><head><title>Bridge to close</title>" + meta + "</head><body>" + kNav + "<article><h1>Bridge to close</h1>" +
               before + "<div class=\"body\">" + kNews + "</div></article></body></html>";
    };
    const std::string description = "<meta name=\"description\" content=\"" + dek + "\">";
    const std::string og = "<meta property=\"og:description\" content=\"" + dek + "\">";
    EXPECT_EQ(content(page(description, "<h2>" + dek + "</h2>")), kNewsText);
    EXPECT_EQ(content(page(og, "<div>" + dek + "</div>")), kNewsText);
    // not the description: stays
    EXPECT_EQ(content(page(description, "<h2>Residents will take a ferry instead.</h2>")),
              "Residents will take a ferry instead.\n" + kNewsText);
    // a summary as long as a lead paragraph stays
    const std::string lead = "The old bridge will close for two years, the council decided on Tuesday, and residents will take a ferry across the river.";
    EXPECT_EQ(content(page("<meta name=\"description\" content=\"" + lead + "\">", "<h2>" + lead + "</h2>")), lead + "\n" + kNewsText);
    // the statements are read in the parse of the blocks (the sources ndd_html_meta reads)
    ndd::InterruptPoller poller(nullptr);
    const std::string html = page(description + og + "<meta property=\"og:title\" content=\" Bridge \n to close \">", "");
    ndd::HtmlDocument doc = ndd::html_blocks(html.data(), html.size(), poller);
    EXPECT_EQ(doc.description, dek);
    EXPECT_EQ(doc.og_description, dek);
    EXPECT_EQ(doc.og_title.substr(0, 15), "Bridge to close");
    // the article's first paragraph, which the description repeats or was cut from, stays
    const std::string first = "The council voted on Tuesday to close the old bridge, citing safety concerns.";
    EXPECT_EQ(content(page("<meta name=\"description\" content=\"" + first + "\">", "")), kNewsText);
    EXPECT_EQ(content(page("<meta name=\"description\" content=\"The council voted on Tuesday to close the old\">", "")), kNewsText);
}

// (3) A picture's caption (<figcaption>, or an element of class "caption" or "credit": a gallery's
// slide) is no sentence of the article, however long (BylinesDatesAndCreditsLeftOut below: nor a
// short one between two paragraphs).
TEST(HtmlContentIssue29, CaptionsLeftOut) {
    const std::string cap = "U.S. Defense Secretary Mark Esper, left, and the Vietnamese Defense Minister shake hands in Hanoi, "
                            "Vietnam, on Wednesday, Nov. 20, 2019, after their meeting.";
    std::string page = kNav + "<article><h1>Bridge to close</h1>" + kNews + "<figure><img src=a.jpg><figcaption>" + cap +
                       "</figcaption></figure></article>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
    page = kNav + "<article><h1>Bridge to close</h1><div class=gallery><div class=img-wrap><img src=a.jpg></div>"
           "<div class=\"caption\"><div class=caption-full>" + cap + "</div><span class=credit>Photo: Hau Dinh, AP</span></div></div>" +
           kNews + "</article>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
}

// (3) The article's metadata (branch bylines): a byline, a date, a picture's caption or credit,
// each in markup that names it (a class or id token byline, author, dateline, timestamp, date,
// caption, credit; <time>, <figcaption>, rel="author", itemprop="author" or "datePublished"), is
// no line of the content even inside the article's container, between its paragraphs, where the
// neighbours rule made a short line content; by its markup, in any script. The page's own
// metadata (ndd_html_meta) is read apart and keeps the date.
TEST(HtmlContentIssue29, BylinesDatesAndCreditsLeftOut) {
    const std::string credit = "<div class=\"asset asset-image\"><img src=a.jpg><div class=image-meta>"
                               "<div class=image-caption>Eastern Michigan quarterback Mike Glass III</div>"
                               "<div class=image-credit>Al Goldis, Associated Press</div></div></div>";
    std::string page = kNav + "<article><div class=byline-section><div class=attribution><span class=author>Detroit News wire "
                       "services</span></div><div class=publish-date>Published 11:11 PM EST Nov 19, 2019</div></div>" + credit +
                       kNews + "</article>";
    EXPECT_EQ(content(page), kNewsText);
    page = kNav + "<article><p><a rel=author href=/anna>Anna Berg</a></p><p><time datetime=2019-11-19>Nov. 19, 2019, 8:41 AM</time></p>"
           "<div class=ap-story-timestamp>Nov. 20, 2019 5:52 AM EST</div>" + kNews.substr(0, kNews.find("<p>Residents")) +
           "<span itemprop=datePublished>segunda-feira, 22 de janeiro de 2018</span>" + kNews.substr(kNews.find("<p>Residents")) +
           "<div class=articleByline><span itemprop=author>Phil Helsel</span></div></article>";
    EXPECT_EQ(content(page), kNewsText);
    // the same rule for a Chinese page: markup, not words
    const std::string zh = "<p>市议会周二投票决定关闭这座老桥，理由是安全问题，居民们对此议论纷纷，意见不一。</p>"
                           "<p>官员们说，维修工作预计至少需要两年时间，费用由市里和省里共同承担。</p>"
                           "<p>居民将不得不乘坐渡轮过河，渡轮每二十分钟一班，从早上七点开到晚上十点。</p>";
    page = kNav + "<article><div class=byline>记者 王小明</div><time>2019年11月19日</time>" + zh + "</article>";
    EXPECT_EQ(content(page),
              "市议会周二投票决定关闭这座老桥，理由是安全问题，居民们对此议论纷纷，意见不一。\n"
              "官员们说，维修工作预计至少需要两年时间，费用由市里和省里共同承担。\n"
              "居民将不得不乘坐渡轮过河，渡轮每二十分钟一班，从早上七点开到晚上十点。");
    // unmarked, the same lines are the neighbours rule's to decide: a byline and a copyright line
    // that a page writes as plain lines of its article stay
    page = kNav + "<article>" + kNews + "<div>Anna Berg, columnist</div><div>Copyright Town News, all rights reserved</div>" + kNews +
           "</article>";
    EXPECT_EQ(content(page), kNewsText + "\nAnna Berg, columnist\nCopyright Town News, all rights reserved\n" + kNewsText);
}

// (3) Metadata markup holding more than a byline or a caption holds (kHtmlMetadataMaxChars) names
// nothing: an article inside <div class="author-notes">, a page of captioned pictures whose
// captions are its text, stay the content.
TEST(HtmlContentIssue29, MetadataMarkupAroundTheArticleNamesNothing) {
    std::string page = kNav + "<div class=\"post author-notes\"><h1>Bridge to close</h1>" + kNews + "</div>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
    std::string gallery = kNav + "<article><h1>The bridge in pictures</h1><p>Five pictures.</p>";
    const char* caps[] = {"The bridge in 1910, when the first trams crossed it on their way to the market square.",
                          "The bridge in 1944, its middle span blown up by the retreating army in the night.",
                          "The bridge in 1951, rebuilt in steel by the same firm that had built it forty years before."};
    for (const char* c : caps) gallery += std::string("<figure><img src=a.jpg><figcaption>") + c + "</figcaption></figure>";
    gallery += "</article>";
    const std::string out = content(gallery);
    for (const char* c : caps) EXPECT_NE(out.find(c), std::string::npos) << out;
}

// (2) An <article> inside an <aside> (the teaser cards of a sidebar) is an item of the aside, not
// the page's main content: it lifts no boilerplate context.
TEST(HtmlContentIssue29, ArticlesInsideAnAsideAreNoContent) {
    std::string side = "<aside class=widget-area>";
    for (int i = 0; i < 6; i++)
        side += std::string(i % 2 ? "<article class=card-big>" : "<article class=card-small>") + "<h3><a href=/d" +
                std::to_string(i) + ">Deal " + std::to_string(i) +
                "</a></h3><p class=excerpt>Apple recently launched the new AirPods Pro for $250, but surprisingly it is "
                "already possible to grab a pair at a considerable discount, as the retailer cut the price again…</p></article>";
    side += "</aside>";
    std::string page = kNav + "<div class=single><div class=col-8><h1>Bridge to close</h1>" + kNews + "</div>" + side + "</div>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
}

// (2) Content words on stacked wrappers (#content > .post) count once: the post's own text
// (.entry-content) is the article, not the post with its author box.
TEST(HtmlContentIssue29, StackedWrapperWordsCountOnce) {
    std::string page = kNav + "<div id=content><div class=\"post hentry\"><h2>Bridge to close</h2>"
                       "<div class=entry-content>" + kNews + repeat("<p>" + kLong + "</p>", 4) + "</div><div class=author-info><h3>About Anna</h3><p>Anna "
                       "writes about food, books and everything in between from a small house by a lake, and has been "
                       "blogging since 2009, when her first daughter was born.</p></div></div></div>";
    std::string c = content(page);
    EXPECT_EQ(c.substr(0, 16 + kNewsText.size()), "Bridge to close\n" + kNewsText);
    EXPECT_NE(c.find(kLong), std::string::npos);
    EXPECT_EQ(c.find("About Anna"), std::string::npos);
}

// A page that is nothing but its article (a documentation page under <body>, a bare article): the
// element holding the whole page is a candidate, so the result is the article, not one of its
// definitions.
TEST(HtmlContentIssue29, BareArticleUnderBodyIsTheWholeArticle) {
    std::string page = "<html><body><section><h1>mod: utilities</h1><p>There are a couple of useful utilities "
                       "provided in this module, listed below.</p>";
    std::string expected = "mod: utilities\nThere are a couple of useful utilities provided in this module, listed below.";
    for (int i = 0; i < 4; i++) {
        std::string name = "mod.f" + std::to_string(i) + "(x)";
        std::string para = "Return the value of x, converted in the way number " + std::to_string(i) +
                           " converts it, or raise an error when it cannot, as the other functions do.";
        page += "<dl><dt>" + name + "</dt><dd><p>" + para + "</p><p>New in version 3." + std::to_string(i) + ".</p></dd></dl>";
        expected += "\n" + name + "\n" + para + "\nNew in version 3." + std::to_string(i) + ".";
    }
    page += "<p>The remaining functions are part of the legacy interface, and new code should not use them.</p>"
            "</section></body></html>";
    expected += "\nThe remaining functions are part of the legacy interface, and new code should not use them.";
    EXPECT_EQ(content(page), expected);
}

// (3) Short-paragraph news beats a teaser list with longer excerpts and a long reader comment.
TEST(HtmlContentIssue29, ShortParagraphNewsIsTheMainContent) {
    std::string teasers;
    for (int i = 0; i < 3; i++)
        teasers += "<div class=teaser><h3><a href=/t" + std::to_string(i) + ">Another story " + std::to_string(i) +
                   "</a></h3><p>" + kLong + "</p></div>";
    std::string comment = "<div class=comments><div class=comment><p>" + kLong + " " + kLong + "</p></div></div>";
    std::string page = kNav + "<div><h1>Bridge to close</h1>" + kNews + "</div>" + comment + "<div class=more>" +
                       teasers + "</div>";
    EXPECT_EQ(content(page), "Bridge to close\n" + kNewsText);
}

// (3) Lengths are code points: a Chinese article in short paragraphs is content too.
TEST(HtmlContentIssue29, ChineseShortParagraphs) {
    std::string zh = "<p>市议会星期二投票决定关闭旧桥，理由是安全问题，维修工作预计至少需要两年时间。</p>"
                     "<p>居民将不得不乘坐渡轮，渡轮每二十分钟一班，市长在投票后对记者说我们别无选择。</p>"
                     "<p>下周将举行一次公开会议，届时居民可以就交通安排提出意见和建议。</p>";
    std::string page = kNav + "<div class=wrap><div>" + zh + "</div><div class=sidebar><ul><li><a href=/x>热门新闻一</a>"
                       "<li><a href=/y>热门新闻二</a></ul></div></div>";
    std::string c = content(page);
    EXPECT_NE(c.find("市议会星期二"), std::string::npos);
    EXPECT_NE(c.find("下周将举行"), std::string::npos);
    EXPECT_EQ(c.find("热门新闻"), std::string::npos);
}

// (4) An index page (a list of links with a line of introduction) gives the same content under two
// templates: its own list, not the templates' navigation.
TEST(HtmlContentIssue29, IndexPageSameUnderTwoTemplates) {
    std::string list = "<h1>Library reference</h1><p>The modules described in this chapter, listed by name, with a "
                       "line on what each one is for.</p><ul>";
    for (int i = 0; i < 12; i++)
        list += "<li><a href=/m" + std::to_string(i) + ">module" + std::to_string(i) + "</a> — what module " +
                std::to_string(i) + " is for, in a few words</li>";
    list += "</ul>";
    std::string a = kNav + "<div class=page><div class=body>" + list + "</div></div><footer><p>Built with care.</p></footer>";
    std::string b = "<table><tr><td>" + kNav + "</td><td>" + list +
                    "</td></tr><tr><td colspan=2>Hosted by a friendly archive of old pages.</td></tr></table>";
    EXPECT_EQ(content(a), content(b));
    EXPECT_EQ(content(a).find("Home"), std::string::npos);
}

// An index page whose entries are links alone (a documentation chapter's table of contents right
// after its intro) gives its heading and intro whatever the template: the list is the intro's own,
// so reviews beside it, an author box around it and the share of the page its links take (the
// intro is under 5 % of the text) do not win over the intro, and the links stay out.
TEST(HtmlContentIssue29, IndexPageOwnListOfLinksUnderThreeTemplates) {
    std::string body = "<section><h1>Program Frameworks</h1><p>The modules described in this chapter are frameworks that "
                       "will largely dictate the structure of your program, oriented toward writing command-line "
                       "interfaces.</p><p>The full list of modules described in this chapter is:</p><ul>";
    for (int i = 1; i <= 120; i++)
        body += "<li><a href=m" + std::to_string(i) + ".html>module" + std::to_string(i) + ": a module of this chapter</a></li>";
    body += "</ul></section>";
    const std::string review =
        "<div class=review><div>5 stars</div><p>I bought this for my daughter and she has been using it every day for "
        "three months now. The quality is much better than I expected for the price, the instructions were clear, and "
        "customer service answered within a day.</p></div>";
    const std::string bare = "<html><body>" + body + "</body></html>";
    const std::string shop = "<html><body><div class=product><div class=buy><h1>Gift set</h1><p>$49.99, in stock</p></div>"
                             "<div class=tabs><div class=tab-panel>" + body + "</div><div class=tab-panel><h2>Customer "
                             "reviews</h2>" + repeat(review, 3) + "</div></div></div></body></html>";
    const std::string blog = "<html><body><div id=main><div class=post><h2>Program Frameworks</h2><div>Posted on March 2, "
                             "2024 by Anna</div><div class=entry-text>" + body + "</div><div class=author-info><h3>About "
                             "Anna</h3><p>Anna writes about food, books and everything in between from a small house by a "
                             "lake. She has been blogging since 2009, when her first daughter was born, and still answers "
                             "every comment herself.</p></div></div></div></body></html>";
    const std::string c = content(bare);
    EXPECT_EQ(c.rfind("Program Frameworks\nThe modules described", 0), 0u) << c;
    EXPECT_EQ(c.find("module1:"), std::string::npos);
    EXPECT_EQ(content(shop), c);
    EXPECT_EQ(content(blog), c);
}

// The page's own semantics: itemprop="articleBody" and role="main" mark the article.
TEST(HtmlContentIssue29, ItempropArticleBody) {
    std::string page = kNav + "<div><div itemprop=articleBody>" + kNews + "</div><div><p>" + kLong +
                       "</p></div></div>";
    std::string c = content(page);
    EXPECT_EQ(c.substr(0, kNewsText.size()), kNewsText);
}

// Inline display:none hides an element as a browser does (share dialogs, templates).
TEST(HtmlContentIssue29, DisplayNoneIsHidden) {
    EXPECT_EQ(text("<p>shown</p><div style=\"DISPLAY: none\"><p>hidden</p></div><p style='visibility:hidden'>no</p>"),
              "shown");
}

// ---- ndd_html_meta's core ----

// Lists of items (branch realpages3): three reviews of one tag and class beside a product's
// description (and four: less prose than the description) are not taken with it, while the description's own tab panels (a list it is part
// of) do not count against it; with two reviews there is no list, and they come along.
TEST(HtmlContentIssue29, ListOfItemsBesideTheArticleLeftOut) {
    const std::string desc = "<p>" + kLong + "</p><p>" + kLong + "</p><p>Its arm turns in two joints, so that the light "
                             "falls where it is needed, and the base is heavy enough to stay put.</p>";
    const std::string review = "<div class=\"review even\"><div>5 stars</div><p>Bought it for my study, three months "
                               "ago, and it still works well.</p></div>";
    auto page = [&](int reviews) {
        return "<html><body><header><a href=\"/\">Shop</a> <a href=\"/cart\">Cart</a></header><div class=\"tabs\">"
               "<div class=\"panel\">" + desc + "</div><div class=\"panel\"><h2>Customer reviews</h2>" +
               repeat(review, reviews) + "</div><div class=\"panel\"><table><tr><th>Weight</th><td>2 kg</td></tr>"
               "<tr><th>Colour</th><td>Black</td></tr></table></div></div><footer><a href=\"/help\">Help</a></footer>"
               "</body></html>";
    };
    const std::string expected = kLong + "\n" + kLong + "\nIts arm turns in two joints, so that the light falls where it is needed, and "
                                 "the base is heavy enough to stay put.";
    EXPECT_EQ(content(page(3)), expected);
    EXPECT_EQ(content(page(4)), expected);
    EXPECT_NE(content(page(2)).find("Bought it"), std::string::npos);
}

// The page's short title above a byline, outside the article's element, is not the article's text
// (a bare copy has none); a standfirst in heading markup, as long as a paragraph, still is.
TEST(HtmlContentIssue29, PageTitleOutsideTheRegionLeftOut) {
    const std::string lead = "A standfirst in heading markup, as long as a paragraph of the article it introduces.";
    auto page = [&](const std::string& h) {
        return "<html><body><div class=\"post\"><h2>" + h + "</h2><div>Posted on March 2 by Anna</div>"
               "<div class=\"text\"><p>" + kLong + "</p><p>" + kLong + "</p></div></div></body></html>";
    };
    EXPECT_EQ(content(page("The lamp on my desk")), kLong + "\n" + kLong);
    EXPECT_EQ(content(page(lead)), lead + "\n" + kLong + "\n" + kLong);
}

// A page that is the article alone, in sections under the element that holds the whole page,
// keeps every section (the choice may climb into that element).
TEST(HtmlContentIssue29, BareArticleInSectionsKeepsEverySection) {
    const std::string p = "<p>Its arm turns in two joints, so that the light falls where it is needed, and the base "
                          "is heavy enough to stay put.</p>";
    const std::string page = "<html><body><div><div><h2>A lamp</h2><p>It came in a flat box.</p></div><div><p>" + kLong +
                             "</p>" + p + "</div><div>" + p + "<p>It is the best lamp I have had.</p></div></div></body></html>";
    EXPECT_EQ(content(page), text(page));
}

// A heading heads what follows it: a short one closing the article above a list of links or
// teasers the content leaves out ("See also", "Related") is not content, while a section title
// over the next paragraph, or over a subtitle and then a paragraph, is (branch realpages5).
TEST(HtmlContentIssue29, HeadingOverNoContentLeftOut) {
    const std::string links = "<ul><li><a href=\"/a\">The lamp shop</a></li><li><a href=\"/b\">The lamp museum</a></li>"
                              "<li><a href=\"/c\">Lamps of the world</a></li></ul>";
    const std::string page = "<html><body><div class=\"text\"><p>" + kLong + "</p><h2>How it works</h2><h3>The arm</h3><p>" +
                             kLong + "</p><h2>See also</h2>" + links + "</div></body></html>";
    EXPECT_EQ(content(page), kLong + "\nHow it works\nThe arm\n" + kLong);
    // the same heading over a paragraph stays
    const std::string kept = "<html><body><div class=\"text\"><p>" + kLong + "</p><h2>See also</h2><p>" + kLong +
                             "</p></div></body></html>";
    EXPECT_EQ(content(kept), kLong + "\nSee also\n" + kLong);
}

// An embedded post inside the article's paragraphs (a tweet's <blockquote>: its text with a link,
// its attribution line whose date is a link, between a third and half of its text) is part of the
// article, as Readability keeps every paragraph of the article (branch embeds); a paragraph that
// is mostly one link (a related story's label and headline) is not, and neither is the same
// quote outside the main region.
TEST(HtmlContentIssue29, EmbeddedQuoteInTheArticleKept) {
    const std::string tweet =
        "<blockquote class=\"twitter-tweet\"><p>Nobody will take your slogan, I promise. <a href=\"https://t.co/x\">"
        "https://t.co/xyzw</a></p>&mdash; A Writer (@awriter) <a href=\"https://twitter.com/a/status/1\">November 18, 2019</a>"
        "</blockquote>";
    const std::string related = "<p>Read: <a href=\"/other\">Another story about the slogan of the state</a></p>";
    const std::string page = "<html><body><div class=\"text\"><p>" + kLong + "</p>" + tweet + "<p>" + kLong + "</p>" + related +
                             "<p>" + kLong + "</p></div><div class=\"other\">" + tweet + "</div></body></html>";
    EXPECT_EQ(content(page), kLong + "\nNobody will take your slogan, I promise. https://t.co/xyzw\n"
                                     "\xE2\x80\x94 A Writer (@awriter) November 18, 2019\n" + kLong + "\n" + kLong);
}

// A heading over a list of linked headings (teaser titles: "More:" above <li><h4><a>) heads no
// content: the linked headings are what it heads, not headings to look past (branch embeds).
TEST(HtmlContentIssue29, LabelOverTeaserTitlesLeftOut) {
    std::string teasers;
    for (int i = 0; i < 3; i++)
        teasers += "<ul><li><h4><a href=\"/t" + std::to_string(i) + "\">Another story number " + std::to_string(i) +
                   "</a></h4></li></ul>";
    const std::string page = "<html><body><div class=\"text\"><p>" + kLong + "</p><h4>More:</h4>" + teasers + "<p>" +
                             kLong + "</p></div></body></html>";
    EXPECT_EQ(content(page), kLong + "\n" + kLong);
}

// A reference chapter (branch docheld): a title, an intro, three entries of one kind and a
// subsection holding one long entry of that kind, in elements that say nothing of themselves (a
// bare page, or a template whose article element has no telling class): the long entry's
// element wins the scores, and the choice climbs through its definition list (a wrapper: its
// term gives no evidence), past the subsection (too little gained alone) to the chapter, whose
// other entries are the chosen entry's own kind. On main only the long entry was taken.
TEST(HtmlContentIssue29, ReferenceChapterTakenWhole) {
    const std::string page =
        "<html><body><section><h1>lamp — Lamps and their parts</h1><p>This module describes lamps, their arms"
        ", their bases and the bulbs they hold, as a catalogue would.</p><dl class=\"api function\"><dt>lamp."
        "on(room)</dt><dd><p>Turns the lamp on, in the given room, and returns the light it gives.</p></dd></"
        "dl><dl class=\"api function\"><dt>lamp.off(room)</dt><dd><p>Turns the lamp off, in the given room, a"
        "nd returns nothing at all.</p></dd></dl><dl class=\"api function\"><dt>lamp.dim(room, level)</dt><dd"
        "><p>Dims the lamp, in the given room, to a level between zero and one.</p></dd></dl><section><h2>The"
        " Lamp class</h2><dl class=\"api class\"><dt>class lamp.Lamp(arm, base)</dt><dd><p>A lamp with an arm"
        " that turns in two joints, so that the light falls where it is needed, and a base heavy enough to st"
        "ay put, even on a desk that shakes.</p><p>The arm, the base and the bulb are parts of their own, eac"
        "h with a type, a weight and a colour, and each can be replaced without the others.</p><p>A lamp is m"
        "ade, sold and repaired by people, not by machines, and this class, like the rest, keeps the names of"
        " the people who made it.</p></dd></dl></section></section></body></html>";
    EXPECT_EQ(content(page), text(page));
}

// ... while a post under its title keeps the comment thread below it out: lists of items in an
// element that a boilerplate word marks still count against the climb.
TEST(HtmlContentIssue29, TitledPostKeepsItsCommentsOut) {
    const std::string page =
        "<html><body><div class=\"post\"><h2>The lamp on my desk</h2><div class=\"entry-content\"><p>A lamp w"
        "ith an arm that turns in two joints, so that the light falls where it is needed, and a base heavy en"
        "ough to stay put, even on a desk that shakes, which mine does.</p><p>The arm, the base and the bulb "
        "are parts of their own, each with a type, a weight and a colour, and each can be replaced without th"
        "e others, which I did twice.</p></div><div id=\"comments\"><div class=\"comment\"><p>I have the same"
        " lamp, and mine broke after a week, so I sent it back, and the shop gave me a new one without asking"
        " anything.</p></div><div class=\"comment\"><p>Where did you buy it, and how much was it, if I may as"
        "k? I have been looking for one like it for months now, without luck.</p></div><div class=\"comment\""
        "><p>Nice post, thank you, and the photos are lovely, as always, even the one of the cat sleeping und"
        "er the lamp on the desk.</p></div></div></div></body></html>";
    const std::string c = content(page);
    EXPECT_NE(c.find("which I did twice."), std::string::npos);
    EXPECT_EQ(c.find("same lamp"), std::string::npos);
    EXPECT_EQ(c.find("Where did you buy it"), std::string::npos);
}

// A long heading outside the article (as long as a standfirst) that repeats the page's <title>
// is the page's title (branch docheld): a documentation page's title under a blog's template
// ("array — Efficient arrays of numeric values — Python 3.11.2 documentation") was taken as a
// standfirst, and the same page differed from its other copies by it. The same heading under
// another title stays a standfirst (PageTitleOutsideTheRegionLeftOut).
TEST(HtmlContentIssue29, LongHeadingRepeatingTheTitleLeftOut) {
    const std::string h = "The lamp on my desk, its arm, its base and its bulb: a year of light at work";
    auto page = [&](const std::string& title) {
        return "<html><head><title>" + title + "</title></head><body><div class=\"post\"><h2>" + h +
               "</h2><div>Posted on March 2 by Anna</div><div class=\"text\"><p>" + kLong + "</p><p>" + kLong +
               "</p></div></div></body></html>";
    };
    EXPECT_EQ(content(page(h + " \xe2\x80\x93 Notes from the Lake House")), kLong + "\n" + kLong);
    EXPECT_EQ(content(page("  " + h + "\n | Notes")), kLong + "\n" + kLong);
    EXPECT_EQ(content(page("Notes from the Lake House")), h + "\n" + kLong + "\n" + kLong);
}

// Property (branch docheld): on pages made of random fragments (titles, chapters of definition
// lists, comment threads, link lists, headings, nesting left open), every line of the content is a
// line of the page's text: the climb, the lists of a chosen element's kind and the title rule only
// choose among the page's blocks.
TEST(HtmlContentIssue29, ContentLinesAreTextLinesOnRandomPages) {
    const char* frag[] = {"<title>", "</title>", "<title>A lamp, its arm and base: a year of light at work - Notes</title>",
                          "<h1>", "</h1>", "<h2>A lamp, its arm and base: a year of light at work</h2>", "<section>",
                          "</section>", "<dl class=\"py function\">", "</dl>", "<dt>f(x)</dt>", "<dd>", "</dd>",
                          "<div class=\"comment\">", "</div>", "<div id=\"comments\">",
                          "<p>A lamp with an arm that turns in two joints, so that the light falls where it is needed.</p>",
                          "<p>Short.</p>", "<a href=x>link text here</a>", "<ul><li><a href=y>entry of the list</a></li>",
                          "</ul>", "<div>", "<svg><title>t</title></svg>", "<head>", "</head>", "<body>",
                          "<title>unterminated", "<h2><a href=z>Linked</a></h2>", "<table><tr><td>cell, a, b</td></tr></table>",
                          "<div class=\"byline\">By Anna Berg, a writer of lamps</div>", "<time>", "</time>",
                          "<figure><figcaption>A lamp on a desk, its arm turned towards the wall.</figcaption></figure>"};
    const size_t nf = sizeof frag / sizeof *frag;
    uint64_t seed = 29;
    auto next = [&]() { return (seed = seed * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
    for (int it = 0; it < 300; it++) {
        std::string h;
        for (uint64_t k = 0, n = next() % 200; k < n; k++) h += frag[next() % nf];
        const std::string t = "\n" + text(h) + "\n", c = content(h);
        size_t from = 0;
        for (size_t to; from <= c.size(); from = to + 1) {
            to = c.find('\n', from);
            if (to == std::string::npos) to = c.size();
            if (to > from) ASSERT_NE(t.find("\n" + c.substr(from, to - from) + "\n"), std::string::npos) << h;
        }
    }
}

TEST(HtmlMeta, SourcesAndOrder) {
    ndd::InterruptPoller p(nullptr);
    std::string page = "<html lang=en><head><title> A \n title </title><link rel=\"alternate canonical\" href=\" /c \">"
                       "<meta property=og:url content=https://x.example/c><meta name=description content=d>"
                       "<meta property=og:description content=no></head><body><article><time datetime=2001-02-03>"
                       "</time></article><script type=\"application/ld+json\">{\"datePublished\":\"2000-01-01\"}</script>";
    ndd::HtmlMeta m = ndd::html_meta(page.data(), page.size(), p);
    EXPECT_EQ(m.title, "A title");
    EXPECT_EQ(m.canonical, "/c");
    EXPECT_EQ(m.og_url, "https://x.example/c");
    EXPECT_EQ(m.language, "en");
    EXPECT_EQ(m.description, "d");
    EXPECT_EQ(m.published, "2000-01-01");  // JSON-LD before <time> in <article>, wherever it comes
}

TEST(HtmlMeta, NothingStatedAndHostileInput) {
    ndd::InterruptPoller p(nullptr);
    std::string page = "<p>text</p><title>" + repeat("\xE2\x82\xAC", 5000) + "</title>\xFF<script type=application/ld+json>" +
                       repeat("\"datePublished\" : 1, ", 100000) + "</script>";
    ndd::HtmlMeta m = ndd::html_meta(page.data(), page.size(), p);
    EXPECT_LE(m.title.size(), ndd::kHtmlMetaMaxBytes);
    EXPECT_EQ(m.title.size() % 3, 0u);  // cut at a character boundary
    EXPECT_EQ(m.published, "");
    ndd::HtmlMeta e = ndd::html_meta("", 0, p);
    EXPECT_EQ(e.title + e.canonical + e.og_url + e.language + e.description + e.published, "");
}

TEST(HtmlMeta, Cancelled) {
    std::string page = repeat("<p>word</p>", 20000);
    char* out = nullptr;
    size_t lens[NDD_HTML_META_FIELDS];
    EXPECT_EQ(ndd_html_extract_meta(page.data(), page.size(), test_alloc, &out, lens, always_cancel), NDD_CANCELLED);
    ASSERT_EQ(ndd_html_extract_meta("<title>t</title>", 16, test_alloc, &out, lens, nullptr), NDD_OK);
    EXPECT_EQ(std::string(out, lens[NDD_HTML_META_TITLE]), "t");
    std::free(out);
}

// ---- the blocks' storage (issue 31, finding 4: memory on pages of tiny blocks) ----

// HtmlBlocks keeps 8 bytes a block, small fields packed and large ones in a side table: every
// field reads back as written, across chunk boundaries and on both sides of every packing limit.
TEST(HtmlBlocksStorage, FieldsReadBackAsWritten) {
    std::srand(31);
    ndd::HtmlBlocks blocks;
    std::vector<ndd::HtmlBlock> want;
    uint32_t pos = 0;
    const uint32_t chars_choice[] = {0, 1, 254, 255, 256, 257, 70000};
    const uint16_t depth_choice[] = {0, 1, 512, 1022, 1023, 1024, 65535};
    for (int i = 0; i < 100000; i++) {  // three chunks of 32,768 and some
        ndd::HtmlBlock b;
        b.begin = pos;
        b.chars = std::rand() % 4 ? static_cast<uint32_t>(std::rand() % 300) : chars_choice[std::rand() % 7];
        b.link_chars = b.chars ? static_cast<uint32_t>(std::rand()) % (b.chars + 1) : 0;
        b.end = pos + b.chars + static_cast<uint32_t>(std::rand() % 3);
        b.context_depth = std::rand() % 4 ? static_cast<uint16_t>(std::rand() % 600) : depth_choice[std::rand() % 7];
        b.context = static_cast<int8_t>(std::rand() % 3 - 1);
        b.kind = static_cast<ndd::HtmlBlockKind>(std::rand() % 6);
        blocks.push_back(b);
        want.push_back(b);
        pos = b.end + 1;
    }
    ASSERT_EQ(blocks.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) {
        const ndd::HtmlBlock b = blocks[i];
        ASSERT_EQ(b.begin, want[i].begin) << i;
        ASSERT_EQ(b.end, want[i].end) << i;
        ASSERT_EQ(b.chars, want[i].chars) << i;
        ASSERT_EQ(b.link_chars, want[i].link_chars) << i;
        ASSERT_EQ(b.context_depth, want[i].context_depth) << i;
        ASSERT_EQ(b.context, want[i].context) << i;
        ASSERT_EQ(b.kind, want[i].kind) << i;
    }
}

// Over generated pages: each block is text[begin, end) with its '\n' at end, its code points
// counted in chars; and the text alone (html_text's parse, which keeps no blocks) is the same text.
TEST(HtmlBlocksStorage, BlocksCoverTheTextAndTextAloneIsTheSame) {
    std::srand(4);
    const char* pieces[] = {"<p>", "</p>", "<div class=\"nav\">", "</div>", "<a href=x>", "</a>", "<br>", "<li>",
                            "<h2>", "</h2>", " ", "word", "\xC3\xA9t\xC3\xA9", "&amp;", "<article>", "</article>",
                            "<span>", "</span>", "<td>", "<pre>", "</pre>"};
    for (int page = 0; page < 300; page++) {
        std::string html;
        const int n = 1 + std::rand() % 400;
        for (int i = 0; i < n; i++) html += pieces[std::rand() % (sizeof pieces / sizeof pieces[0])];
        if (page % 7 == 0) html += repeat("long words of text ", 30);  // blocks beyond 255 code points
        ndd::InterruptPoller p(nullptr);
        ndd::HtmlDocument doc = ndd::html_blocks(html.data(), html.size(), p);
        size_t expect_begin = 0;
        for (size_t i = 0; i < doc.blocks.size(); i++) {
            const ndd::HtmlBlock b = doc.blocks[i];
            ASSERT_EQ(b.begin, expect_begin) << html;
            ASSERT_LT(b.begin, b.end) << html;
            ASSERT_EQ(doc.text[b.end], '\n') << html;
            size_t cps = 0;
            for (size_t j = b.begin; j < b.end; j++) cps += (static_cast<unsigned char>(doc.text[j]) & 0xC0) != 0x80;
            ASSERT_EQ(b.chars, cps) << html;
            ASSERT_LE(b.link_chars, b.chars) << html;
            expect_begin = b.end + 1;
        }
        ASSERT_EQ(expect_begin, doc.text.size()) << html;
        ndd::HtmlFeedOptions opt;
        opt.blocks = false;
        ndd::HtmlDocument alone = ndd::html_blocks(html.data(), html.size(), p, opt);
        ASSERT_EQ(alone.text, doc.text) << html;
        ASSERT_TRUE(alone.blocks.empty() && alone.regions.empty()) << html;
    }
}

// The regions are stored in postorder, as the content step's backward sweep (html_content.cpp,
// sweep_regions) assumes: each holds two blocks or more, they nest or are disjoint, no two hold
// the same blocks, `last` never decreases and a region comes after every region it holds; over
// generated pages and one of 10,000 regions (past the storage's chunks of 4,096).
TEST(HtmlRegionsStorage, PostorderOfNestedRegions) {
    std::srand(31);
    const char* pieces[] = {"<p>", "</p>", "<div>", "</div>", "<section class=\"content\">", "</section>", "<br>", "<li>",
                            "<ul>", "</ul>", "a", "word, word", "<article>", "</article>", "<td>", "<tr>", "<table>",
                            "</table>", "<nav>", "</nav>"};
    for (int page = 0; page < 301; page++) {
        std::string html;
        if (page == 300) {
            html = repeat("<p>a<br>a", 10000);
        } else {
            const int n = 1 + std::rand() % 600;
            for (int i = 0; i < n; i++) html += pieces[std::rand() % (sizeof pieces / sizeof pieces[0])];
        }
        ndd::InterruptPoller p(nullptr);
        ndd::HtmlDocument doc = ndd::html_blocks(html.data(), html.size(), p);
        const ndd::HtmlRegions& rg = doc.regions;
        if (page == 300) {  // each <p> holds two blocks, then <body> (with <html>) holds them all
            ASSERT_EQ(rg.size(), 10001u);
            ASSERT_EQ(rg.back().first, 0u);
            ASSERT_EQ(rg.back().last, 20000u);
        }
        for (size_t i = 0; i < rg.size(); i++) {
            ASSERT_LE(rg[i].first + 2, rg[i].last) << html;
            ASSERT_LE(rg[i].last, doc.blocks.size()) << html;
            if (page == 300 && i < 10000) ASSERT_EQ(rg[i].first, 2 * i) << i;
            if (i > 0) ASSERT_LE(rg[i - 1].last, rg[i].last) << html;
            // every earlier region is inside this one or wholly before it (for small pages, all)
            for (size_t j = (page == 300 ? i : 0); j < i; j++) {
                const bool inside = rg[i].first <= rg[j].first && rg[j].last <= rg[i].last;
                const bool before = rg[j].last <= rg[i].first;
                ASSERT_TRUE(inside || before) << html;
                ASSERT_FALSE(rg[i].first == rg[j].first && rg[i].last == rg[j].last) << html;
            }
        }
    }
}
