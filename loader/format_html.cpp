// format_html.cpp
//    HTML: kept as HTML, its text by the core of ndd, its title by libxml2 (formats.hpp).
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <cstdlib>
#include <memory>

#include "encoding.hpp"
#include "formats.hpp"
#include "html_api.h"

namespace ndd_load {

namespace {

constexpr int kParseOptions =
    HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_COMPACT;

using XmlDoc = std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)>;

XmlDoc parse(std::string_view bytes, const char* encoding) {
    return XmlDoc(htmlReadMemory(bytes.data(), static_cast<int>(bytes.size()), nullptr, encoding, kParseOptions),
                  xmlFreeDoc);
}

// The text of the first <title> element under root, depth-first.
bool find_title(xmlNodePtr node, std::string& title) {
    for (; node; node = node->next) {
        if (node->type != XML_ELEMENT_NODE) continue;
        if (xmlStrcasecmp(node->name, BAD_CAST "title") == 0) {
            xmlChar* content = xmlNodeGetContent(node);
            if (content) {
                title = reinterpret_cast<const char*>(content);
                xmlFree(content);
            }
            return true;
        }
        if (xmlStrcasecmp(node->name, BAD_CAST "body") == 0) return false;
        if (find_title(node->children, title)) return true;
    }
    return false;
}

std::string collapse_spaces(const std::string& s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f') {
            space = !out.empty();
        } else {
            if (space) out.push_back(' ');
            space = false;
            out.push_back(c);
        }
    }
    return out;
}

}  // namespace

void extract_html(std::string_view raw, Document& doc, JsonObject& meta) {
    if (raw.size() > static_cast<size_t>(INT32_MAX / 2)) throw FormatError("HTML page too large for libxml2");
    // The declared encoding (a meta charset) counts only when the bytes are not UTF-8 already:
    // libxml2's parser reads it while parsing the page as it is.
    std::string declared;
    if (!valid_utf8(raw)) {
        XmlDoc probe = parse(raw, nullptr);
        if (probe && probe->encoding) declared = reinterpret_cast<const char*>(probe->encoding);
    }
    Decoded page = to_utf8(raw, declared);
    meta.add("encoding", page.encoding);
    XmlDoc parsed = parse(page.text, "UTF-8");
    std::string title;
    if (parsed && find_title(xmlDocGetRootElement(parsed.get()), title)) doc.title = clean_utf8(collapse_spaces(title));

    char* text = nullptr;
    size_t len = 0;
    NddStatus status = ndd_html_extract(page.text.data(), page.text.size(), NDD_HTML_TEXT, 0, std::malloc, &text,
                                        &len, nullptr);
    if (status != NDD_OK) throw FormatError("the HTML text extraction failed");
    doc.text = std::string(text, len);
    std::free(text);
    doc.html = std::move(page.text);
}

}  // namespace ndd_load
