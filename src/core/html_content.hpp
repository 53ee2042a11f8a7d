// html_content.hpp
//    The main content of a page from its text blocks (html_blocks.hpp), in the family of the best
//    published extractors (issue 29; the rules, with the figures behind them, in doc/web.md):
//
//   1. Readability's choice of the element holding the article: each block's prose score
//      (1 + commas + one per 100 code points, for link-poor blocks of 25 code points or more) goes
//      to its innermost element, half to the next one up, less further up; an element's score, with
//      25 per signal of its markup (class/id tokens, <article>, <main>, role="main",
//      itemprop="articleBody"; boilerplate ones negative), times (1 - link density), ranks it.
//   2. The best element climbs to its parent while the parent adds a quarter of its prose (prose
//      spread over many small elements is one article), and takes siblings holding a fifth of its
//      prose that are neither link lists nor teaser lists (linked headings) nor marked boilerplate.
//      Lists of items (three or more consecutive siblings of one tag and first class token:
//      reviews, comments, teaser cards) beside the element, with less prose than it, count against
//      the climb and as no sibling's prose, unless the element is part of the list; an element
//      inside a list where no item holds half of its prose (one comment of a thread) weighs a
//      quarter. A run of list items that are mostly links right after the element's prose (an
//      index page's table of contents) is its own list: each entry counts as a block of prose for
//      it, its links neither in its link density nor in step 4's share of the page. A lead
//      paragraph right before the region (past a byline and a date) joins it.
//   3. Inside that region, jusText's classes and neighbours: good from 25 code points with link
//      density <= 0.2, bad above 1/3, boilerplate markup inside the region costing two classes
//      (none for an element holding 75 % of the region's prose outside lists of items: the
//      article's own wrapper); a paragraph with link density up to 0.5 (an embedded tweet, a
//      sentence citing its sources) left to its neighbours. The article's metadata (bylines,
//      dates, a picture's caption and credit, in markup that names them: html_blocks.hpp) is no
//      content, wherever it sits.
//   4. After the JSON-LD evidence (html_jsonld.hpp), the blocks opening the content that restate
//      the page's <title> or og:title (a headline), or its description (a summary line: a heading
//      or <div> shorter than a paragraph, apart from the article's paragraphs), are left out.
//   5. A page without prose falls back to jusText over the whole page; a page with no good block
//      (or good blocks under 5 % of its text) gives its whole text (html_text), never nothing.
#ifndef NDD_HTML_CONTENT_HPP
#define NDD_HTML_CONTENT_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "html_blocks.hpp"

namespace ndd {

enum class BlockClass : uint8_t { Bad, Short, NearGood, Good };

// Step 1 and 2 for every block of doc: the final class of each (Good or Bad). Releases
// doc.regions once the main region is chosen: nothing after needs them, and a page can hold one
// per 9 bytes (`<p>a<br>a`), as much memory as its blocks.
std::vector<BlockClass> html_classify(HtmlDocument& doc);

// All the visible text: the blocks, one a line (no trailing newline).
std::string html_text(const char* html, size_t len, InterruptPoller& poller);

// The main content: the good blocks, one a line, or html_text when there is none.
std::string html_content(const char* html, size_t len, InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_HTML_CONTENT_HPP
