// html_jsonld.hpp
//    The page's own statement of its article, as evidence for the content model (issue 29): many
//    news and blog pages state their text in schema.org JSON-LD (`<script
//    type="application/ld+json">` holding an Article, NewsArticle, BlogPosting... with an
//    `articleBody`). The statement is evidence, not output: it is often cut to its first
//    characters, escaped as HTML, or a summary, and the content stays the page's own blocks. Where
//    the page's blocks agree with it (word 4-shingles, contained both ways), the blocks of the
//    article it names are content and the blocks beyond its two ends that share nothing with it
//    are not (doc/web.md has the rules and the figures).
//
// The JSON is parsed by RapidJSON (Debian's rapidjson-dev, header-only) as SAX events with its
// iterative parser: no DOM, constant C stack whatever the nesting, no exceptions, UTF-8
// validated; the scripts hold at most kHtmlJsonLdMaxBytes (html_blocks.hpp), so the parse is
// linear and bounded.
#ifndef NDD_HTML_JSONLD_HPP
#define NDD_HTML_JSONLD_HPP

#include <string>
#include <string_view>
#include <vector>

#include "html_blocks.hpp"
#include "html_content.hpp"

namespace ndd {

// Whether a schema.org @type names an article: Article and its subtypes (NewsArticle,
// TechArticle, ReportageNewsArticle...), BlogPosting and the other postings, Report; a full IRI
// ("https://schema.org/NewsArticle") or a prefixed name ("schema:Article") is matched by its
// last segment.
bool json_ld_article_type(std::string_view type);

// The longest `articleBody` string of an object whose @type (a string or an array of strings)
// names an article, at any depth (inside @graph, arrays, other objects), over all the scripts;
// empty when there is none. A script that is not valid JSON gives what was read before its
// error. Lenient where pages are: comments, trailing commas, raw control characters in strings
// (read as spaces), an HTML comment or CDATA wrapper before the first '{' or '['.
std::string json_ld_article_body(const std::vector<std::string>& scripts);

// The `datePublished` string of one script, read as json_ld_article_body reads it (ndd_html_meta's
// JSON-LD source): that of the first object whose @type names an article and states one, else the
// first any object states (a WebPage's, or one in a script cut before its object closed); escapes
// decoded (`\/`, `\u00e9`); a number or other non-string is no date. A script the parse refuses
// before any date (names written unquoted) gives the first "datePublished": "..." a scan finds.
// Empty when there is none.
std::string json_ld_date_published(std::string_view script);

// The content model's use of the evidence, after html_classify: with the articleBody of
// doc.json_ld (at least 60 words, half of whose 4-shingles the page's blocks hold), a block of
// eight words or more whose shingles are mostly in it is made Good, and a Good block that is no
// heading and shares nothing with it (no shingle; a block of one to three words: not found in it
// whole) is made Bad between the blocks that agree with it (captions, "read also" lines), before
// the block where it starts and after the block where it ends (a comment, a teaser, an author
// box). It ends only where a block ends, and only when it holds at least half the shingles of the
// content found: an articleBody cut at its first characters, or a summary, says nothing of what
// follows. Leaves cls as it is otherwise, and always on pages without JSON-LD.
void html_jsonld_evidence(const HtmlDocument& doc, std::vector<BlockClass>& cls, InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_HTML_JSONLD_HPP
