// html_meta.hpp
//    What a page says about itself, for finding the same page under many URLs and dating it
//    (ndd_html_meta, doc/web.md): its title, canonical link, og:url, language, description and
//    publication date, each as the page states it (trimmed, whitespace collapsed, at most
//    kHtmlMetaMaxBytes bytes), empty when it does not.
//
// One pass of libxml2's HTML parser (SAX, push mode, 64 kB chunks, the interrupt polled between
// them), as html_blocks: no tree, memory bounded by the fields' caps plus the parser's stack of
// open elements. Where a field has several sources, the first in this order that the page has
// wins (the first occurrence of each):
//   title:       <title>; og:title
//   canonical:   <link rel="canonical" href>
//   og_url:      <meta property="og:url" content>
//   language:    <html lang> (or xml:lang); <meta http-equiv="content-language">
//   description: <meta name="description">; og:description
//   published:   <meta property="article:published_time">; itemprop="datePublished" (content or
//                datetime attribute, else its text); JSON-LD "datePublished" in a
//                <script type="application/ld+json"> (an article's first, else any object's:
//                json_ld_date_published, the parse the content model uses); the first
//                <time datetime> inside <article>
#ifndef NDD_HTML_META_HPP
#define NDD_HTML_META_HPP

#include <cstddef>
#include <string>

#include "guard.hpp"

namespace ndd {

constexpr size_t kHtmlMetaMaxBytes = 2048;

struct HtmlMeta {
    std::string title;
    std::string canonical;
    std::string og_url;
    std::string language;
    std::string description;
    std::string published;
};

// Reads the metadata of html (len bytes, any content; invalid UTF-8 bytes become U+FFFD). Throws
// Cancelled when the interrupt fires, std::bad_alloc when memory runs out.
HtmlMeta html_meta(const char* html, size_t len, InterruptPoller& poller);

}  // namespace ndd

#endif  // NDD_HTML_META_HPP
