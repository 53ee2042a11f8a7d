// html_content.hpp
//    The main content of a page: its text blocks (html_blocks.hpp) classified by length, link
//    density and context, then by their neighbours, as jusText does (Pomikálek 2011) with
//    boilerpipe's and trafilatura's structural hints (tag and class/id context) in place of a
//    stop-word list, so that it works in any language. The rules, in order (doc/web.md):
//
//   1. Each block gets a class from its own features:
//        context -1 (inside nav, footer, aside, a "sidebar"/"cookie"... class) -> bad;
//        link density (link code points / code points) > 1/3                   -> bad;
//        at least 200 code points and link density <= 0.2                      -> good;
//        fewer than 70 code points                                              -> short;
//        otherwise                                                              -> near-good.
//      A heading that is short is near-good (a title belongs with the text it heads). Context +1
//      (main, article, "content") lifts short to near-good and near-good to good.
//   2. Neighbours decide the rest, looking at the nearest good-or-bad block on each side (the
//      page's edges count as bad): a short block between two good ones is good, between two bad
//      ones bad, and otherwise good only when a near-good block lies between it and the good side;
//      a near-good block is bad when both sides are bad and good otherwise. A heading that is not
//      bad by itself and lies at most 200 code points before a good block is good.
//   3. The content is the good blocks in document order, one a line. A page with no good block has
//      no identifiable main content: its whole text is returned (html_text), never nothing.
#ifndef NDD_HTML_CONTENT_HPP
#define NDD_HTML_CONTENT_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "html_blocks.hpp"

namespace ndd {

enum class BlockClass : uint8_t { Bad, Short, NearGood, Good };

// Step 1 and 2 for every block of doc: the final class of each (Good or Bad).
std::vector<BlockClass> html_classify(const HtmlDocument& doc);

// All the visible text: the blocks, one a line (no trailing newline).
std::string html_text(const char* html, size_t len, InterruptPoller& poller);

// The main content: the good blocks, one a line, or html_text when there is none.
std::string html_content(const char* html, size_t len, InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_HTML_CONTENT_HPP
