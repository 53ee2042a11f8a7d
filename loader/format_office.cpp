// format_office.cpp
//    Office Open XML (docx, xlsx, pptx), OpenDocument (odt, ods, odp) and EPUB: zips of XML parts.
//    libarchive reads the zip, libxml2's streaming reader the XML (no entity substitution, no network,
//    no DTD: an entity bomb stays unexpanded); EPUB chapters are XHTML, read by the core's HTML text
//    extraction. Which parts hold the text is in each standard: ECMA-376 (word/document.xml,
//    xl/sharedStrings.xml and xl/worksheets/, ppt/slides/), OASIS ODF 1.2 (content.xml, meta.xml),
//    EPUB 3 (META-INF/container.xml -> the package document's spine).
#include <archive.h>
#include <archive_entry.h>
#include <libxml/xmlreader.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "formats.hpp"
#include "html_api.h"

namespace ndd_load {

namespace {

using Parts = std::map<std::string, std::string>;

// The zip's entries whose names `want` accepts, all of them together at most max_total bytes once
// inflated (a zip bomb stops here, not in memory).
Parts read_parts(std::string_view raw, const std::function<bool(const std::string&)>& want, size_t max_total) {
    std::unique_ptr<archive, int (*)(archive*)> a(archive_read_new(), archive_read_free);
    archive_read_support_format_zip(a.get());
    if (archive_read_open_memory(a.get(), raw.data(), raw.size()) != ARCHIVE_OK)
        throw FormatError(std::string("libarchive cannot open the zip: ") + archive_error_string(a.get()));
    Parts parts;
    size_t total = 0;
    archive_entry* entry;
    int r;
    while ((r = archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        const char* name = archive_entry_pathname(entry);
        if (!name || !want(name)) continue;
        std::string data;
        char buf[65536];
        la_ssize_t n;
        while ((n = archive_read_data(a.get(), buf, sizeof buf)) > 0) {
            total += static_cast<size_t>(n);
            if (total > max_total)
                throw FormatError("the zip's parts inflate past " + std::to_string(max_total) +
                                  " bytes (--max-size): a zip bomb?");
            data.append(buf, static_cast<size_t>(n));
        }
        if (n < 0) throw FormatError(std::string("libarchive cannot read ") + name + ": " + archive_error_string(a.get()));
        parts[name] = std::move(data);
    }
    if (r != ARCHIVE_EOF) throw FormatError(std::string("libarchive cannot read the zip: ") + archive_error_string(a.get()));
    return parts;
}

using Reader = std::unique_ptr<xmlTextReader, void (*)(xmlTextReaderPtr)>;

Reader open_xml(const std::string& xml) {
    Reader r(xmlReaderForMemory(xml.data(), static_cast<int>(xml.size()), nullptr, nullptr,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA),
             xmlFreeTextReader);
    if (!r) throw FormatError("libxml2 cannot read an XML part");
    return r;
}

std::string local_name(xmlTextReaderPtr r) {
    const xmlChar* n = xmlTextReaderConstLocalName(r);
    return n ? reinterpret_cast<const char*>(n) : "";
}

std::string attribute(xmlTextReaderPtr r, const char* name) {
    xmlChar* v = xmlTextReaderGetAttribute(r, BAD_CAST name);
    if (!v) return "";
    std::string s(reinterpret_cast<const char*>(v));
    xmlFree(v);
    return s;
}

// Which elements make text in a part: `text` the elements whose character data counts (empty: all),
// `para` end a line, `tab`/`brk` stand for a tab or a line break, `cell`/`row` end a table cell or
// row, `skip` elements are left out with their content, `space` (ODF's text:s) stands for c spaces.
struct TextSpec {
    std::set<std::string> text, para, tab, brk, cell, row, skip;
    std::string space;
};

// The text of an XML part by spec, appended to out. A part that is not well-formed stops where
// libxml2 stops (the text up to there is kept); its error is noted in *damaged.
void xml_text(const std::string& xml, const TextSpec& spec, std::string& out, bool* damaged) {
    Reader reader = open_xml(xml);
    xmlTextReaderPtr r = reader.get();
    int text_depth = 0;  // > 0 inside an element of spec.text
    int skip_depth = 0;
    auto end_line = [&](char c) {
        while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
        out.push_back(c);
    };
    int ret;
    while ((ret = xmlTextReaderRead(r)) == 1) {
        int type = xmlTextReaderNodeType(r);
        if (type == XML_READER_TYPE_ELEMENT) {
            std::string name = local_name(r);
            bool empty = xmlTextReaderIsEmptyElement(r);
            if (skip_depth || spec.skip.count(name)) {
                if (!empty) skip_depth++;
                continue;
            }
            if (spec.tab.count(name)) out.push_back('\t');
            else if (spec.brk.count(name)) out.push_back('\n');
            else if (!spec.space.empty() && name == spec.space) {
                long c = std::strtol(attribute(r, "c").c_str(), nullptr, 10);
                out.append(static_cast<size_t>(std::clamp(c, 1L, 100L)), ' ');
            }
            if (spec.text.count(name) && !empty) text_depth++;
            if (empty && spec.cell.count(name)) out.push_back('\t');
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            std::string name = local_name(r);
            if (skip_depth) {
                skip_depth--;
                continue;
            }
            if (spec.text.count(name) && text_depth > 0) text_depth--;
            if (spec.cell.count(name)) {
                while (!out.empty() && out.back() == '\n') out.pop_back();
                out.push_back('\t');
            } else if (spec.row.count(name)) {
                while (!out.empty() && out.back() == '\t') out.pop_back();
                out.push_back('\n');
            } else if (spec.para.count(name)) {
                end_line('\n');
            }
        } else if ((type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE ||
                    type == XML_READER_TYPE_CDATA) &&
                   !skip_depth && (spec.text.empty() || text_depth > 0)) {
            const xmlChar* v = xmlTextReaderConstValue(r);
            if (v) out += reinterpret_cast<const char*>(v);
        }
    }
    if (ret < 0 && damaged) *damaged = true;
}

// The text of the first element named `name` (local name) in xml, "" if none.
std::string first_text(const std::string& xml, const std::string& name) {
    Reader reader = open_xml(xml);
    xmlTextReaderPtr r = reader.get();
    while (xmlTextReaderRead(r) == 1) {
        if (xmlTextReaderNodeType(r) == XML_READER_TYPE_ELEMENT && local_name(r) == name) {
            xmlChar* s = xmlTextReaderReadString(r);
            if (!s) return "";
            std::string v(reinterpret_cast<const char*>(s));
            xmlFree(s);
            return v;
        }
    }
    return "";
}

// Dublin Core title and creator of a metadata part (docProps/core.xml, meta.xml, the EPUB package).
void dublin_core(const Parts& parts, const std::string& name, Document& doc, JsonObject& meta) {
    auto it = parts.find(name);
    if (it == parts.end()) return;
    std::string title = first_text(it->second, "title");
    if (!title.empty()) doc.title = clean_utf8(title);
    std::string creator = first_text(it->second, "creator");
    if (!creator.empty()) meta.add("creator", creator);
}

// Numbered parts (ppt/slides/slide12.xml, xl/worksheets/sheet3.xml) in their numeric order.
std::vector<std::string> numbered(const Parts& parts, const std::string& prefix, const std::string& suffix) {
    std::vector<std::pair<long, std::string>> found;
    for (const auto& [name, data] : parts) {
        if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (middle.find_first_not_of("0123456789") != std::string::npos) continue;
        found.emplace_back(std::strtol(middle.c_str(), nullptr, 10), name);
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> names;
    for (auto& f : found) names.push_back(f.second);
    return names;
}

const std::string* part(const Parts& parts, const std::string& name) {
    auto it = parts.find(name);
    return it == parts.end() ? nullptr : &it->second;
}

// xlsx: the shared strings, then each sheet's rows, cells by tabs, sheets apart by a blank line.
std::string xlsx_text(const Parts& parts, bool* damaged) {
    std::vector<std::string> shared;
    if (const std::string* sst = part(parts, "xl/sharedStrings.xml")) {
        Reader reader = open_xml(*sst);
        xmlTextReaderPtr r = reader.get();
        int in_t = 0, skip = 0;
        int ret;
        while ((ret = xmlTextReaderRead(r)) == 1) {
            int type = xmlTextReaderNodeType(r);
            std::string name = type == XML_READER_TYPE_ELEMENT || type == XML_READER_TYPE_END_ELEMENT ? local_name(r) : "";
            bool empty = type == XML_READER_TYPE_ELEMENT && xmlTextReaderIsEmptyElement(r);
            if (type == XML_READER_TYPE_ELEMENT && name == "si") shared.emplace_back();
            else if (type == XML_READER_TYPE_ELEMENT && name == "rPh" && !empty) skip++;  // phonetic runs
            else if (type == XML_READER_TYPE_END_ELEMENT && name == "rPh") skip--;
            else if (type == XML_READER_TYPE_ELEMENT && name == "t" && !empty) in_t++;
            else if (type == XML_READER_TYPE_END_ELEMENT && name == "t") in_t--;
            else if ((type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) && in_t > 0 &&
                     !skip && !shared.empty())
                shared.back() += reinterpret_cast<const char*>(xmlTextReaderConstValue(r));
        }
        if (ret < 0) *damaged = true;
    }
    std::string out;
    for (const std::string& name : numbered(parts, "xl/worksheets/sheet", ".xml")) {
        if (!out.empty()) out += '\n';
        Reader reader = open_xml(parts.at(name));
        xmlTextReaderPtr r = reader.get();
        std::string cell_type, value;
        bool in_value = false;
        int ret;
        while ((ret = xmlTextReaderRead(r)) == 1) {
            int type = xmlTextReaderNodeType(r);
            if (type == XML_READER_TYPE_ELEMENT) {
                std::string n = local_name(r);
                if (n == "c") {
                    cell_type = attribute(r, "t");
                    value.clear();
                } else if ((n == "v" || n == "t") && !xmlTextReaderIsEmptyElement(r)) {
                    in_value = true;
                }
            } else if (type == XML_READER_TYPE_END_ELEMENT) {
                std::string n = local_name(r);
                if (n == "v" || n == "t") {
                    in_value = false;
                } else if (n == "c") {
                    if (cell_type == "s") {
                        char* end = nullptr;
                        unsigned long i = std::strtoul(value.c_str(), &end, 10);
                        value = !value.empty() && *end == '\0' && i < shared.size() ? shared[i] : "";
                    }
                    out += value;
                    out += '\t';
                } else if (n == "row") {
                    while (!out.empty() && out.back() == '\t') out.pop_back();
                    out += '\n';
                }
            } else if ((type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) && in_value) {
                value += reinterpret_cast<const char*>(xmlTextReaderConstValue(r));
            }
        }
        if (ret < 0) *damaged = true;
    }
    return out;
}

std::string html_text(const std::string& page) {
    char* text = nullptr;
    size_t len = 0;
    if (ndd_html_extract(page.data(), page.size(), NDD_HTML_TEXT, 0, std::malloc, &text, &len, nullptr) != NDD_OK)
        throw FormatError("the HTML text extraction failed");
    std::string s(text, len);
    std::free(text);
    return s;
}

// A path of the package document, relative to its directory, percent-decoded, with "../" resolved.
std::string resolve(const std::string& base_dir, const std::string& href) {
    std::string decoded;
    for (size_t i = 0; i < href.size(); i++) {
        if (href[i] == '%' && i + 2 < href.size() && std::isxdigit(static_cast<unsigned char>(href[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(href[i + 2]))) {
            decoded.push_back(static_cast<char>(std::strtol(href.substr(i + 1, 2).c_str(), nullptr, 16)));
            i += 2;
        } else if (href[i] == '#') {
            break;
        } else {
            decoded.push_back(href[i]);
        }
    }
    std::vector<std::string> segments;
    std::string path = base_dir + decoded, segment;
    for (size_t i = 0; i <= path.size(); i++) {
        if (i == path.size() || path[i] == '/') {
            if (segment == "..") {
                if (!segments.empty()) segments.pop_back();
            } else if (!segment.empty() && segment != ".") {
                segments.push_back(segment);
            }
            segment.clear();
        } else {
            segment.push_back(path[i]);
        }
    }
    std::string out;
    for (const auto& s : segments) out += (out.empty() ? "" : "/") + s;
    return out;
}

std::string epub_text(const Parts& parts, Document& doc, JsonObject& meta, bool* damaged) {
    const std::string* container = part(parts, "META-INF/container.xml");
    if (!container) throw FormatError("the EPUB has no META-INF/container.xml");
    std::string opf_path;
    {
        Reader reader = open_xml(*container);
        while (xmlTextReaderRead(reader.get()) == 1)
            if (xmlTextReaderNodeType(reader.get()) == XML_READER_TYPE_ELEMENT && local_name(reader.get()) == "rootfile") {
                opf_path = attribute(reader.get(), "full-path");
                break;
            }
    }
    const std::string* opf = part(parts, opf_path);
    if (!opf) throw FormatError("the EPUB's package document " + opf_path + " is missing");
    dublin_core(parts, opf_path, doc, meta);
    std::string base = opf_path.find('/') == std::string::npos ? "" : opf_path.substr(0, opf_path.rfind('/') + 1);
    std::map<std::string, std::string> manifest;
    std::vector<std::string> spine;
    {
        Reader reader = open_xml(*opf);
        xmlTextReaderPtr r = reader.get();
        while (xmlTextReaderRead(r) == 1) {
            if (xmlTextReaderNodeType(r) != XML_READER_TYPE_ELEMENT) continue;
            std::string n = local_name(r);
            if (n == "item") manifest[attribute(r, "id")] = attribute(r, "href");
            else if (n == "itemref") spine.push_back(attribute(r, "idref"));
        }
    }
    std::string out;
    int64_t chapters = 0;
    for (const std::string& id : spine) {
        auto it = manifest.find(id);
        if (it == manifest.end()) continue;
        const std::string* chapter = part(parts, resolve(base, it->second));
        if (!chapter) {
            *damaged = true;
            continue;
        }
        std::string text = html_text(*chapter);
        if (text.empty()) continue;
        if (!out.empty()) out += "\n\n";
        out += text;
        chapters++;
    }
    meta.add("chapters", chapters);
    return out;
}

bool ends_with(const std::string& s, const char* suffix) {
    size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

void extract_office(std::string_view raw, const std::string& kind, Document& doc, JsonObject& meta, size_t max_total) {
    bool damaged = false;
    std::string text;
    if (kind == "docx" || kind == "xlsx" || kind == "pptx") {
        Parts parts = read_parts(
            raw,
            [](const std::string& n) {
                return n == "docProps/core.xml" || n == "word/document.xml" || n == "xl/sharedStrings.xml" ||
                       n.rfind("xl/worksheets/sheet", 0) == 0 || n.rfind("ppt/slides/slide", 0) == 0;
            },
            max_total);
        dublin_core(parts, "docProps/core.xml", doc, meta);
        if (kind == "docx") {
            const std::string* body = part(parts, "word/document.xml");
            if (!body) throw FormatError("the docx has no word/document.xml");
            xml_text(*body, TextSpec{{"t"}, {"p"}, {"tab"}, {"br", "cr"}, {}, {}, {}, ""}, text, &damaged);
        } else if (kind == "xlsx") {
            text = xlsx_text(parts, &damaged);
        } else {
            for (const std::string& slide : numbered(parts, "ppt/slides/slide", ".xml")) {
                if (!text.empty()) text += '\n';
                xml_text(parts.at(slide), TextSpec{{"t"}, {"p"}, {"tab"}, {"br"}, {}, {}, {}, ""}, text, &damaged);
            }
        }
    } else if (kind == "odt" || kind == "ods" || kind == "odp") {
        Parts parts = read_parts(raw, [](const std::string& n) { return n == "content.xml" || n == "meta.xml"; },
                                 max_total);
        dublin_core(parts, "meta.xml", doc, meta);
        const std::string* content = part(parts, "content.xml");
        if (!content) throw FormatError("the OpenDocument file has no content.xml");
        // every character in the body is text, except the styles, change tracking and annotations
        TextSpec spec{{},
                      {"p", "h"},
                      {"tab"},
                      {"line-break"},
                      {"table-cell", "covered-table-cell"},
                      {"table-row"},
                      {"automatic-styles", "font-face-decls", "tracked-changes", "annotation", "sequence-decls",
                       "scripts", "forms"},
                      "s"};
        xml_text(*content, spec, text, &damaged);
    } else if (kind == "epub") {
        Parts parts = read_parts(
            raw,
            [](const std::string& n) {
                return ends_with(n, ".xml") || ends_with(n, ".opf") || ends_with(n, ".xhtml") ||
                       ends_with(n, ".html") || ends_with(n, ".htm");
            },
            max_total);
        text = epub_text(parts, doc, meta, &damaged);
    } else {
        throw FormatError("no reader for " + kind);
    }
    if (damaged) meta.add("damaged", true);
    doc.text = clean_utf8(text);
}

}  // namespace ndd_load
