// format_html.cpp
//    HTML: kept as HTML, its text by the core of ndd, its title by libxml2 (formats.hpp).
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cstdlib>
#include <new>
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

// The text of the first <title> element before <body>, by libxml2's HTML parser in push mode with
// SAX callbacks that stop it at the end of that title or at the start of the body (the parser
// implies the body at the first text or element of the page's content): the head alone is parsed,
// not the whole page into a tree (which cost a quarter of a WARC's extraction time).
struct TitleReader {
    htmlParserCtxtPtr ctxt = nullptr;
    bool in_title = false, found = false;
    std::string title;
};

void title_start(void* user, const xmlChar* name, const xmlChar**) {
    auto* r = static_cast<TitleReader*>(user);
    if (xmlStrcasecmp(name, BAD_CAST "title") == 0) {
        r->in_title = r->found = true;
    } else if (xmlStrcasecmp(name, BAD_CAST "body") == 0) {
        xmlStopParser(r->ctxt);
    }
}

void title_end(void* user, const xmlChar* name) {
    auto* r = static_cast<TitleReader*>(user);
    if (r->in_title && xmlStrcasecmp(name, BAD_CAST "title") == 0) xmlStopParser(r->ctxt);
}

void title_text(void* user, const xmlChar* text, int len) {
    auto* r = static_cast<TitleReader*>(user);
    constexpr size_t kMaxTitle = 64 << 10;  // a title past 64 kB is cut there
    if (r->in_title && len > 0 && r->title.size() < kMaxTitle)
        r->title.append(reinterpret_cast<const char*>(text), std::min<size_t>(static_cast<size_t>(len), kMaxTitle - r->title.size()));
}

bool find_title(std::string_view utf8, std::string& title) {
    htmlSAXHandler sax{};
    sax.startElement = title_start;
    sax.endElement = title_end;
    sax.characters = title_text;
    sax.cdataBlock = title_text;
    TitleReader r;
    std::unique_ptr<htmlParserCtxt, void (*)(htmlParserCtxtPtr)> ctxt(
        htmlCreatePushParserCtxt(&sax, &r, nullptr, 0, nullptr, XML_CHAR_ENCODING_UTF8), htmlFreeParserCtxt);
    if (!ctxt) throw std::bad_alloc();
    r.ctxt = ctxt.get();
    htmlCtxtUseOptions(ctxt.get(), kParseOptions);
    constexpr size_t kPiece = 4096;  // the head is usually within the first piece or two
    for (size_t pos = 0; pos < utf8.size() && !ctxt->disableSAX && ctxt->instate != XML_PARSER_EOF; pos += kPiece) {
        size_t n = std::min(kPiece, utf8.size() - pos);
        htmlParseChunk(ctxt.get(), utf8.data() + pos, static_cast<int>(n), 0);
    }
    if (!ctxt->disableSAX && ctxt->instate != XML_PARSER_EOF) htmlParseChunk(ctxt.get(), nullptr, 0, 1);
    title = std::move(r.title);
    return r.found;
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
    std::string title;
    if (find_title(page.text, title)) doc.title = clean_utf8(collapse_spaces(title));

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
