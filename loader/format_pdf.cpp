// format_pdf.cpp
//    PDF through poppler-cpp (formats.hpp). Poppler parses an untrusted, complex format and has had
//    crashes: it only ever runs in a worker process under limits (sandbox.hpp).
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include <memory>
#include <vector>

#include "formats.hpp"

namespace ndd_load {

namespace {

// Poppler prints its complaints about a damaged file on stderr; the row's error says what matters.
void quiet(const std::string&, void*) {}

std::string utf8(const poppler::ustring& s) {
    poppler::byte_array bytes = s.to_utf8();
    return clean_utf8(std::string_view(bytes.data(), bytes.size()));
}

}  // namespace

void extract_pdf(std::string_view raw, Document& doc, JsonObject& meta) {
    poppler::set_debug_error_function(quiet, nullptr);
    // load_from_raw_data does not copy: the bytes must outlive the document
    std::unique_ptr<poppler::document> pdf(
        poppler::document::load_from_raw_data(raw.data(), static_cast<int>(raw.size())));
    if (!pdf) throw FormatError("poppler cannot read this PDF (damaged or not a PDF)");
    if (pdf->is_locked()) throw FormatError("the PDF is encrypted (a password is needed to read its text)");

    int pages = pdf->pages();
    meta.add("pages", static_cast<int64_t>(pages));
    int major = 0, minor = 0;
    pdf->get_pdf_version(&major, &minor);
    meta.add("pdf_version", std::to_string(major) + "." + std::to_string(minor));
    for (const std::string& key : pdf->info_keys()) {
        if (key == "CreationDate" || key == "ModDate") {
            time_t t = pdf->info_date_t(key);
            if (t != static_cast<time_t>(-1)) meta.add(key, iso_time(t, 0));
            continue;
        }
        std::string value = utf8(pdf->info_key(key));
        if (!value.empty()) meta.add(key, value);
        if (key == "Title" && !value.empty()) doc.title = value;
    }

    std::string text;
    for (int i = 0; i < pages; i++) {
        std::unique_ptr<poppler::page> page(pdf->create_page(i));
        if (i > 0) text += '\f';
        if (!page) continue;
        text += utf8(page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout));
    }
    doc.text = std::move(text);
}

}  // namespace ndd_load
