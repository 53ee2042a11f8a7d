// formats.hpp
//    One function per document format: each reads the raw bytes of one document and fills its text,
//    title, html and meta, through the Debian library of that format (doc/loader.md, "Formats"). They
//    throw FormatError for a document the library refuses; the caller makes it the row's error.
//    They run in a worker process (sandbox.hpp): a library that crashes takes only that process.
#ifndef NDD_LOAD_FORMATS_HPP
#define NDD_LOAD_FORMATS_HPP

#include <stdexcept>
#include <string>
#include <string_view>

#include "record.hpp"

namespace ndd_load {

struct FormatError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Plain text in any common encoding (encoding.hpp); meta: {"encoding": ...}.
void extract_text(std::string_view raw, Document& doc, JsonObject& meta);

// HTML, kept as HTML in doc.html (converted to UTF-8: byte order mark, then the page's meta charset,
// then uchardet); doc.text is its visible text (the core's ndd_html_extract, as ndd_html_text in
// the server), doc.title its <title> (libxml2's HTML parser).
void extract_html(std::string_view raw, Document& doc, JsonObject& meta);

// PDF through poppler-cpp: the text of each page in reading order (pdftotext's default layout),
// pages separated by a form feed; title and the document information in meta.
void extract_pdf(std::string_view raw, Document& doc, JsonObject& meta);

// Office Open XML, OpenDocument and EPUB: a zip of XML parts (libarchive reads the zip, libxml2 the
// XML). kind is the format's name: docx, xlsx, pptx, odt, ods, odp, epub; max_total bounds the bytes
// its parts inflate to.
void extract_office(std::string_view raw, const std::string& kind, Document& doc, JsonObject& meta,
                    size_t max_total);

// The format name for a MIME type from libmagic: "text", "html", "pdf", "docx", ..., "archive" for
// what libarchive unpacks, "unsupported:<why>" otherwise.
std::string format_of_mime(const std::string& mime);

}  // namespace ndd_load

#endif  // NDD_LOAD_FORMATS_HPP
