// test_extract.cpp
//    Format detection and extraction of the committed fixtures (test/data/loader, made by pandoc and
//    LibreOffice from source.md), archives written here by libarchive: nesting, bombs, compression.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "extract.hpp"
#include "formats.hpp"

using namespace ndd_load;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(NDD_LOAD_FIXTURES) + "/" + name, std::ios::binary);
    EXPECT_TRUE(in.good()) << name;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

magic_t magic() {
    static magic_t m = [] {
        magic_t m = magic_open(MAGIC_MIME_TYPE);
        magic_load(m, nullptr);
        return m;
    }();
    return m;
}

// The documents an Extractor writes for data.
std::vector<Document> extract(const std::string& data, const std::string& name, ExtractLimits limits = {}) {
    FILE* f = std::tmpfile();
    Extractor ex(magic(), limits, fileno(f));
    ex.document(data, std::nullopt, std::nullopt, name, 0);
    std::fflush(f);
    std::string out(static_cast<size_t>(std::ftell(f)), '\0');
    std::rewind(f);
    EXPECT_EQ(std::fread(out.data(), 1, out.size(), f), out.size());
    std::fclose(f);
    std::vector<Document> docs;
    FrameReader reader(out, out.size());
    Document d;
    while (reader.next(d)) docs.push_back(d);
    EXPECT_FALSE(reader.truncated());
    return docs;
}

std::set<std::string> words(const std::string& text) {
    std::set<std::string> out;
    std::string w;
    for (char c : text + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || (c & 0x80)) {
            w.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        } else if (!w.empty()) {
            out.insert(w);
            w.clear();
        }
    }
    return out;
}

double jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
    size_t common = 0;
    for (const auto& w : a) common += b.count(w);
    return a.empty() && b.empty() ? 1.0 : double(common) / double(a.size() + b.size() - common);
}

// An archive of (name, bytes) entries in libarchive's format `format` ("zip", "ustar") and filter.
std::string make_archive(const std::vector<std::pair<std::string, std::string>>& entries, const char* format,
                         bool gzip = false) {
    archive* a = archive_write_new();
    archive_write_set_format_by_name(a, format);
    if (gzip) archive_write_add_filter_gzip(a);
    std::string out(64 << 20, '\0');
    size_t used = 0;
    EXPECT_EQ(archive_write_open_memory(a, out.data(), out.size(), &used), ARCHIVE_OK);
    for (const auto& [name, data] : entries) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, name.c_str());
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
        archive_entry_set_mtime(e, 1700000000, 0);
        archive_write_header(a, e);
        archive_write_data(a, data.data(), data.size());
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    out.resize(used);
    return out;
}

}  // namespace

// The same document in every format: each gives its format, no error, and nearly the words of the
// plain text (pandoc's rendering of the same source).
TEST(Extract, SameDocumentInEveryFormat) {
    std::set<std::string> plain = words(fixture("source.txt"));
    std::map<std::string, std::string> expected = {
        {"source.html", "html"}, {"source.docx", "docx"}, {"source.odt", "odt"}, {"source.epub", "epub"},
        {"source.pdf", "pdf"},   {"source.pptx", "pptx"}, {"source.odp", "odp"}, {"source.txt", "text"}};
    for (const auto& [name, format] : expected) {
        std::vector<Document> docs = extract(fixture(name), name);
        ASSERT_EQ(docs.size(), 1u) << name;
        const Document& d = docs[0];
        EXPECT_EQ(d.format, format) << name;
        EXPECT_FALSE(d.error.has_value()) << name << ": " << d.error.value_or("");
        ASSERT_TRUE(d.text.has_value()) << name;
        EXPECT_GE(jaccard(words(*d.text), plain), 0.9) << name << ":\n" << *d.text;
        if (format != "text") {
            EXPECT_EQ(d.title, "Near-duplicate detection inside PostgreSQL") << name;
        }
        EXPECT_EQ(d.size, static_cast<int64_t>(fixture(name).size()));
        EXPECT_EQ(d.hash->size(), 32u);
    }
}

TEST(Extract, HtmlIsKept) {
    std::vector<Document> docs = extract(fixture("source.html"), "source.html");
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_EQ(docs[0].html, fixture("source.html"));
    EXPECT_EQ(docs[0].text->find('<'), std::string::npos);
}

// XHTML behind an XML declaration (libmagic: text/xml) is HTML; other XML stays text.
TEST(Extract, XhtmlIsHtml) {
    std::string xhtml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 "
                        "Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">\n<html xmlns=\"http://"
                        "www.w3.org/1999/xhtml\"><head><title>A page</title></head><body><p>Its words.</p></body></html>\n";
    std::vector<Document> docs = extract(xhtml, "page.xhtml");
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_EQ(docs[0].format, "html");
    EXPECT_EQ(docs[0].html, xhtml);
    EXPECT_EQ(docs[0].title, "A page");
    std::string xml = "<?xml version=\"1.0\"?>\n<!-- a note -->\n<note><to>html</to><body>words</body></note>\n";
    docs = extract(xml, "note.xml");
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_EQ(docs[0].format, "text");
}

TEST(Extract, SpreadsheetsByRowsAndCells) {
    for (const char* name : {"cities.xlsx", "cities.ods"}) {
        std::vector<Document> docs = extract(fixture(name), name);
        ASSERT_EQ(docs.size(), 1u);
        EXPECT_NE(docs[0].text->find("Lisbon\tPortugal\t545796\n"), std::string::npos) << name << ": " << *docs[0].text;
        EXPECT_NE(docs[0].text->find("Zürich\tSwitzerland\t421878"), std::string::npos) << name;
    }
}

TEST(Extract, PdfMetadata) {
    std::vector<Document> docs = extract(fixture("source.pdf"), "source.pdf");
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_NE(docs[0].meta->find("\"pages\": 1"), std::string::npos) << *docs[0].meta;
    EXPECT_NE(docs[0].meta->find("\"Author\": \"The ndd authors\""), std::string::npos) << *docs[0].meta;
}

TEST(Extract, DamagedPdfIsAnErrorRow) {
    std::string pdf = fixture("source.pdf");
    for (size_t cut : {size_t(0), size_t(100), pdf.size() / 2, pdf.size() - 200}) {
        std::vector<Document> docs = extract(pdf.substr(0, cut), "cut.pdf");
        ASSERT_EQ(docs.size(), 1u);
        if (cut == 0) continue;  // empty: text
        EXPECT_EQ(docs[0].format, "pdf") << cut;
        EXPECT_TRUE(docs[0].error.has_value()) << cut;
    }
}

TEST(Extract, ArchivesGiveMembersThenThemselves) {
    std::string tgz = make_archive({{"a/one.txt", "first text"}, {"two.html", "<title>Two</title><p>second"}},
                                   "ustar", true);
    std::vector<Document> docs = extract(tgz, "x.tar.gz");
    ASSERT_EQ(docs.size(), 3u);
    EXPECT_EQ(docs[0].member, "a/one.txt");
    EXPECT_EQ(docs[0].text, "first text");
    EXPECT_EQ(docs[0].modified, "2023-11-14 22:13:20.000000+00");
    EXPECT_EQ(docs[1].member, "two.html");
    EXPECT_EQ(docs[1].title, "Two");
    EXPECT_FALSE(docs[2].member.has_value());
    EXPECT_EQ(docs[2].format, "tar");
    EXPECT_NE(docs[2].meta->find("\"members\": 2"), std::string::npos);
}

TEST(Extract, NestingStopsAtMaxDepth) {
    std::string inner = make_archive({{"deep.txt", "at the bottom"}}, "zip");
    for (int i = 0; i < 6; i++) inner = make_archive({{"level" + std::to_string(i) + ".zip", inner}}, "zip");
    ExtractLimits limits;
    limits.max_depth = 3;
    std::vector<Document> docs = extract(inner, "outer.zip", limits);
    // outer.zip (depth 0) and the zips at depths 1, 2 are opened; the one at depth 3 is refused
    ASSERT_EQ(docs.size(), 4u);
    EXPECT_EQ(docs[0].member, "level5.zip!/level4.zip!/level3.zip");
    EXPECT_NE(docs[0].error->find("--max-depth"), std::string::npos);
    EXPECT_FALSE(docs[3].error.has_value());
}

TEST(Extract, ZipBombStopsAtMaxSize) {
    std::string zeros(20 << 20, '0');
    std::string bomb = make_archive({{"zeros.txt", zeros}, {"small.txt", "still read"}}, "zip");
    EXPECT_LT(bomb.size(), 100000u);
    ExtractLimits limits;
    limits.max_size = 1 << 20;
    std::vector<Document> docs = extract(bomb, "bomb.zip", limits);
    ASSERT_EQ(docs.size(), 3u);
    EXPECT_NE(docs[0].error->find("--max-size"), std::string::npos);
    EXPECT_EQ(docs[1].text, "still read");
}

TEST(Extract, UnsupportedAndNames) {
    std::vector<Document> docs = extract(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), "x.png");
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_EQ(docs[0].format, "unsupported");
    EXPECT_NE(docs[0].error->find("image/png"), std::string::npos);
    EXPECT_EQ(format_of_mime("application/msword").rfind("unsupported:legacy binary Word", 0), 0u);
    EXPECT_EQ(uncompressed_name("dir/notes.txt.gz"), "notes.txt");
    EXPECT_EQ(uncompressed_name("blob"), "blob");
    EXPECT_EQ(member_path(std::nullopt, "a"), "a");
    EXPECT_EQ(member_path(std::string("x.zip"), "a"), "x.zip!/a");
}

TEST(Extract, MailMessageAndAttachment) {
    std::string eml =
        "From: Ann <ann@example.com>\r\nTo: bob@example.org\r\nSubject: =?UTF-8?Q?Caf=C3=A9?=\r\n"
        "Message-ID: <1@example.com>\r\nIn-Reply-To: <0@example.com>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\nun caf=E9 noir\r\n--XX\r\nContent-Type: text/plain\r\n"
        "Content-Disposition: attachment; filename=\"../notes.txt\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        "aGVsbG8gYXR0YWNobWVudA==\r\n--XX--\r\n";
    std::vector<Document> docs = extract(eml, "m.eml");
    ASSERT_EQ(docs.size(), 2u);
    EXPECT_EQ(docs[0].member, ".._notes.txt");  // no directory from a sender
    EXPECT_EQ(docs[0].text, "hello attachment");
    EXPECT_EQ(docs[1].format, "eml");
    EXPECT_EQ(docs[1].title, "Café");
    EXPECT_EQ(docs[1].text, "un café noir");
    EXPECT_NE(docs[1].meta->find("\"in_reply_to\": \"<0@example.com>\""), std::string::npos) << *docs[1].meta;
    EXPECT_NE(docs[1].meta->find("\"message_id\": \"1@example.com\""), std::string::npos) << *docs[1].meta;
    // an mbox of two: each message a member, the mbox last
    std::string mbox = "From a@b Sat Jan  1 00:00:00 2000\n" + eml + "\nFrom a@b Sat Jan  1 00:00:00 2000\n" + eml;
    docs = extract(mbox, "box");
    ASSERT_EQ(docs.size(), 5u);
    EXPECT_EQ(docs[1].member, "message-1");
    EXPECT_EQ(docs[2].member, "message-2!/.._notes.txt");
    EXPECT_EQ(docs[4].format, "mbox");
}

namespace {

// The documents an Extractor writes for the input file holding data, extracting part `part` of
// `parts` (split_into: Extractor::part); *whole is input()'s answer.
std::vector<Document> extract_input(const std::string& data, uint32_t part, uint32_t parts, uint32_t split_into,
                                    bool* whole = nullptr) {
    FILE* in = std::tmpfile();
    EXPECT_EQ(std::fwrite(data.data(), 1, data.size(), in), data.size());
    std::fflush(in);
    struct stat st;
    fstat(fileno(in), &st);
    FILE* f = std::tmpfile();
    Extractor ex(magic(), {}, fileno(f));
    ex.part(part, parts, split_into);
    bool done = ex.input(fileno(in), "crawl.warc.gz", st);
    if (whole) *whole = done;
    std::fflush(f);
    std::string out(static_cast<size_t>(std::ftell(f)), '\0');
    std::rewind(f);
    EXPECT_EQ(std::fread(out.data(), 1, out.size(), f), out.size());
    std::fclose(f);
    std::fclose(in);
    std::vector<Document> docs;
    FrameReader reader(out, out.size());
    Document d;
    while (reader.next(d)) docs.push_back(d);
    return docs;
}

std::string gzip_member(const std::string& data) {
    std::string out = make_archive({{"r", data}}, "raw", true);
    return out;
}

std::string warc_record(const std::string& type, const std::string& uri, const std::string& block) {
    return "WARC/1.0\r\nWARC-Type: " + type + "\r\nWARC-Target-URI: " + uri +
           "\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: application/http; msgtype=response\r\n"
           "Content-Length: " + std::to_string(block.size()) + "\r\n\r\n" + block + "\r\n\r\n";
}

std::string http(const std::string& type, const std::string& body) {
    return "HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\n\r\n" + body;
}

}  // namespace

// A WARC extracted in parts (Extractor::part): the parts together give every record the whole
// extraction gives, each once; part 0 alone writes the input's own row, the same row.
TEST(Extract, WarcInPartsGivesTheWholeOnce) {
    std::string warc;
    for (int i = 0; i < 10; i++) {
        std::string uri = "http://example.com/" + std::to_string(i);
        warc += gzip_member(warc_record("request", uri, "GET / HTTP/1.1\r\n\r\n"));
        warc += gzip_member(warc_record("response", uri,
                                        http("text/html", "<title>page " + std::to_string(i) + "</title><p>text " +
                                                              std::string(static_cast<size_t>(i) * 100, 'x'))));
    }
    auto key = [](const Document& d) { return d.member.value_or("(input)") + "|" + d.text.value_or("") + "|" + d.title.value_or("") + "|" + d.hash.value_or(""); };
    std::multiset<std::string> whole, parts;
    std::vector<Document> all = extract_input(warc, 0, 0, 1);
    for (const Document& d : all) whole.insert(key(d));
    ASSERT_EQ(all.size(), 11u);
    for (uint32_t p = 0; p < 3; p++) {
        std::vector<Document> docs = extract_input(warc, p, 3, 3);
        for (const Document& d : docs) {
            parts.insert(key(d));
            if (!d.member) {
                EXPECT_EQ(p, 0u);
                EXPECT_EQ(d.meta, all.back().meta);  // records 10, other records 10
            }
        }
    }
    EXPECT_EQ(whole, parts);
    // the whole input, split allowed: a WARC under Extractor::kSplitBytes is extracted at once, one
    // of at least that size is answered "split" with nothing written
    bool done = false;
    EXPECT_EQ(extract_input(warc, 0, 0, 2, &done).size(), 11u);
    EXPECT_TRUE(done);
    std::string big = warc;
    std::string filler = gzip_member(warc_record("resource", "http://example.com/big", std::string(1 << 20, 'a')));
    while (big.size() < Extractor::kSplitBytes) big += filler;  // gzip makes 1 MB of one letter small: many of them
    EXPECT_TRUE(extract_input(big, 0, 0, 2, &done).empty());
    EXPECT_FALSE(done);
}

// A record declared HTML is HTML without libmagic, unless its head holds a binary data byte.
TEST(Extract, WarcDeclaredHtmlIsTrustedUnlessBinary) {
    std::string warc = gzip_member(warc_record("response", "http://a/", http("text/html; charset=utf-8", "plain words, no tag"))) +
                       gzip_member(warc_record("response", "http://b/", http("text/html", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16))));
    std::vector<Document> docs = extract_input(warc, 0, 0, 1);
    ASSERT_EQ(docs.size(), 3u);
    EXPECT_EQ(docs[0].format, "html");
    EXPECT_NE(docs[0].meta->find("\"mime\": \"text/html\""), std::string::npos) << *docs[0].meta;
    EXPECT_NE(docs[1].format, "html");
    EXPECT_EQ(docs[1].meta->find("\"mime\": \"text/html\""), std::string::npos) << *docs[1].meta;
}
