// extract.cpp
//    Format detection, archives and the dispatch to each format (extract.hpp, formats.hpp).
#include "extract.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fnmatch.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include <cctype>
#include <csignal>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "encoding.hpp"
#include "formats.hpp"
#include "warc.hpp"

namespace ndd_load {

namespace {

constexpr size_t kMagicBytes = 1 << 20;  // libmagic looks at the head of a document only

using Archive = std::unique_ptr<archive, int (*)(archive*)>;

Archive new_reader() {
    Archive a(archive_read_new(), archive_read_free);
    if (!a) throw std::bad_alloc();
    archive_read_support_filter_all(a.get());
    archive_read_support_format_all(a.get());
    // a lone compressed file (notes.txt.gz) is an "archive" of one member
    archive_read_support_format_raw(a.get());
    return a;
}

std::string format_name_of(archive* a) {
    switch (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) {
        case ARCHIVE_FORMAT_ZIP: return "zip";
        case ARCHIVE_FORMAT_TAR: return "tar";
        case ARCHIVE_FORMAT_CPIO: return "cpio";
        case ARCHIVE_FORMAT_7ZIP: return "7z";
        case ARCHIVE_FORMAT_RAR: return "rar";
        case ARCHIVE_FORMAT_RAR_V5: return "rar";
        case ARCHIVE_FORMAT_AR: return "ar";
        case ARCHIVE_FORMAT_ISO9660: return "iso9660";
        case ARCHIVE_FORMAT_RAW: return archive_filter_count(a) > 1 ? archive_filter_name(a, 0) : "raw";
        default: return "archive";
    }
}

// The kind of an Office or EPUB zip from its parts, for the zips libmagic calls application/zip (it
// recognizes them only when a telltale part comes first).
std::string office_kind_of_zip(std::string_view data) {
    Archive a(archive_read_new(), archive_read_free);
    archive_read_support_format_zip(a.get());
    if (archive_read_open_memory(a.get(), data.data(), data.size()) != ARCHIVE_OK) return "";
    archive_entry* entry;
    bool content_types = false;
    std::string kind;
    for (int i = 0; i < 10000 && archive_read_next_header(a.get(), &entry) == ARCHIVE_OK; i++) {
        const char* p = archive_entry_pathname(entry);
        if (!p) continue;
        std::string name = p;
        if (name == "mimetype") {
            char buf[128];
            la_ssize_t n = archive_read_data(a.get(), buf, sizeof buf - 1);
            std::string mime(buf, n > 0 ? static_cast<size_t>(n) : 0);
            std::string k = format_of_mime(mime);
            if (k == "odt" || k == "ods" || k == "odp" || k == "epub") return k;
        }
        if (name == "[Content_Types].xml") content_types = true;
        if (name.rfind("word/", 0) == 0) kind = "docx";
        else if (name.rfind("xl/", 0) == 0) kind = "xlsx";
        else if (name.rfind("ppt/", 0) == 0) kind = "pptx";
    }
    return content_types ? kind : "";
}

void write_all(int fd, const std::string& buf) {
    size_t done = 0;
    while (done < buf.size()) {
        ssize_t n = write(fd, buf.data() + done, buf.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error(std::string("cannot write the worker's output: ") + std::strerror(errno));
        done += static_cast<size_t>(n);
    }
}

// The fault a test asks for on the document named name, by NDD_LOAD_FAULT=KIND:NAME[,KIND:NAME...]
// (doc/loader.md, "Testing"): crash (SIGSEGV, as a library bug would), spin (a CPU loop, as a parser
// that never ends), hog (allocate until the address space limit refuses) or slow (a quarter of a
// second of CPU, then on as usual). NAME is a shell pattern (fnmatch); the first KIND:NAME whose
// pattern matches applies. The worker process alone suffers it.
void injected_fault(const std::string& name) {
    static const char* faults = std::getenv("NDD_LOAD_FAULT");
    if (!faults) return;
    std::string kind;
    for (std::string_view rest = faults; !rest.empty() && kind.empty();) {
        size_t comma = rest.find(',');
        std::string f(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        size_t colon = f.find(':');
        if (colon != std::string::npos && fnmatch(f.substr(colon + 1).c_str(), name.c_str(), 0) == 0)
            kind = f.substr(0, colon);
    }
    if (kind == "slow") {
        // a quarter of a second of CPU, then the document as usual: a long-lived worker's CPU limit
        // must be the input's, not the sum of every input it served
        struct timespec start, now;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
        do {
            for (volatile int i = 0; i < 100000; i++) {
            }
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
        } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 250000000L);
    } else if (kind == "crash") {
        raise(SIGSEGV);
    } else if (kind == "spin") {
        for (volatile unsigned long i = 0;; i++) {
        }
    } else if (kind == "hog") {
        std::vector<std::unique_ptr<char[]>> blocks;
        for (;;) {
            blocks.emplace_back(new char[1 << 20]);
            std::memset(blocks.back().get(), 1, 1 << 20);
        }
    }
}

// XHTML that libmagic takes for XML (an XML declaration first: the Debian handbook's pages): an html
// document type or root element before any other element.
bool xhtml(std::string_view head) {
    std::string lower(head);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (size_t pos = 0; (pos = lower.find('<', pos)) != std::string::npos; pos++) {
        std::string_view tag = std::string_view(lower).substr(pos + 1);
        if (tag.rfind("?", 0) == 0 || tag.rfind("!--", 0) == 0) continue;  // declarations, comments
        return tag.rfind("!doctype html", 0) == 0 || (tag.rfind("html", 0) == 0 && tag.size() > 4 &&
                                                       (tag[4] == '>' || std::isspace(static_cast<unsigned char>(tag[4]))));
    }
    return false;
}

// Mail that libmagic takes for text or HTML (an HTML alternative part inside outweighs its mail
// rules): an mbox starts with a "From " separator line followed by a header; a message with header
// lines ("Name: value", a From: among them) up to its first blank line.
std::string sniff_mail(std::string_view head) {
    auto header_line = [](std::string_view line) {
        size_t colon = line.find(':');
        if (colon == 0 || colon == std::string_view::npos || colon > 76) return false;
        for (size_t i = 0; i < colon; i++) {
            unsigned char c = static_cast<unsigned char>(line[i]);
            if (c <= 32 || c >= 127) return false;
        }
        return true;
    };
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos < head.size() && lines.size() < 64) {
        size_t nl = head.find('\n', pos);
        if (nl == std::string_view::npos) break;
        std::string_view line = head.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        pos = nl + 1;
    }
    if (lines.size() >= 2 && lines[0].substr(0, 5) == "From " && header_line(lines[1])) return "mbox";
    bool from = false;
    for (std::string_view line : lines) {
        if (line.empty()) return from ? "eml" : "";
        if (line[0] == ' ' || line[0] == '\t') continue;  // a folded header goes on
        if (!header_line(line)) return "";
        std::string name(line.substr(0, line.find(':')));
        for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        from = from || name == "from";
    }
    return "";
}

// A gzip stream whose first member inflates to a WARC version line: a .warc.gz.
bool gzipped_warc_head(std::string_view head) {
    if (head.size() < 2 || head[0] != '\x1f' || head[1] != '\x8b') return false;
    try {
        std::unique_ptr<ByteSource> src = gunzip_source(memory_source(head.substr(0, 1 << 16)));
        char buf[8];
        size_t n = 0, got;
        while (n < sizeof buf && (got = src->read(buf + n, sizeof buf - n)) > 0) n += got;
        return n == 8 && std::memcmp(buf, "WARC/1.", 7) == 0;
    } catch (const FormatError&) {
        return false;
    }
}

// The MIME type a WARC record declares for its payload (the HTTP response's Content-Type, else the
// record's), when it is HTML and the payload's head does not contradict it: then libmagic, which
// cost a fifth of a WARC's extraction time, is not asked. As browsers do (WHATWG MIME Sniffing: a
// resource served as text/html is not sniffed), with one check of ours: a head holding a binary
// data byte (that standard's definition: control characters other than tab, line feed, form feed,
// carriage return and escape) is sniffed all the same. "" when libmagic must decide.
std::string trusted_html_type(const std::string& declared, std::string_view data) {
    std::string type = declared.substr(0, declared.find(';'));
    while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.pop_back();
    while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.erase(0, 1);
    for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (type != "text/html" && type != "application/xhtml+xml") return "";
    for (unsigned char c : data.substr(0, 1024))
        if (c <= 0x08 || c == 0x0B || (c >= 0x0E && c <= 0x1A) || (c >= 0x1C && c <= 0x1F)) return "";
    return type;
}

}  // namespace

std::string format_of_mime(const std::string& mime) {
    static const std::pair<const char*, const char*> exact[] = {
        {"text/html", "html"},
        {"application/xhtml+xml", "html"},
        {"application/pdf", "pdf"},
        {"application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"},
        {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"},
        {"application/vnd.openxmlformats-officedocument.presentationml.presentation", "pptx"},
        {"application/vnd.oasis.opendocument.text", "odt"},
        {"application/vnd.oasis.opendocument.spreadsheet", "ods"},
        {"application/vnd.oasis.opendocument.presentation", "odp"},
        {"application/epub+zip", "epub"},
        {"application/zip", "archive"},
        {"application/x-tar", "archive"},
        {"application/gzip", "archive"},
        {"application/x-gzip", "archive"},
        {"application/x-bzip2", "archive"},
        {"application/x-xz", "archive"},
        {"application/zstd", "archive"},
        {"application/x-7z-compressed", "archive"},
        {"application/x-cpio", "archive"},
        {"application/warc", "warc"},
        {"message/rfc822", "eml"},
        {"message/news", "eml"},
        {"application/mbox", "mbox"},
        {"application/json", "text"},
        {"application/xml", "text"},
        {"application/javascript", "text"},
        {"application/x-empty", "text"},
        {"inode/x-empty", "text"},
        {"application/msword", "unsupported:legacy binary Word (.doc): no library in Debian reads it"},
        {"application/vnd.ms-excel", "unsupported:legacy binary Excel (.xls): no library in Debian reads it"},
        {"application/vnd.ms-powerpoint",
         "unsupported:legacy binary PowerPoint (.ppt): no library in Debian reads it"},
        {"application/CDFV2", "unsupported:an OLE2 compound file (legacy Office): no library in Debian reads it"},
    };
    for (const auto& [m, f] : exact)
        if (mime == m) return f;
    if (mime.rfind("text/", 0) == 0) return "text";
    return "unsupported:no text to extract from " + mime;
}

std::string hash_of(std::string_view data) {
    XXH128_hash_t h = XXH3_128bits(data.data(), data.size());
    return hash_hex(h.high64, h.low64);
}

std::string archive_name_of_mime(const std::string& mime) {
    std::string sub = mime.substr(mime.find('/') + 1);
    if (sub.rfind("x-", 0) == 0) sub = sub.substr(2);
    if (sub == "7z-compressed") sub = "7z";
    return sub;
}

std::string member_path(const std::optional<std::string>& outer, const std::string& inner) {
    return outer ? *outer + "!/" + inner : inner;
}

std::string uncompressed_name(const std::string& name) {
    std::string base = name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1);
    for (const char* suffix : {".gz", ".bz2", ".xz", ".zst", ".lz", ".lzma", ".Z"}) {
        size_t n = std::strlen(suffix);
        if (base.size() > n && base.compare(base.size() - n, n, suffix) == 0) return base.substr(0, base.size() - n);
    }
    return base.empty() ? "data" : base;
}

std::string Extractor::mime_of(std::string_view data) {
    const char* m = magic_buffer(magic_, data.data(), std::min(data.size(), kMagicBytes));
    return m ? m : "application/octet-stream";
}

void Extractor::emit(const Document& doc) {
    std::string frame;
    frame_document(doc, frame);
    write_all(out_fd_, frame);
}

bool Extractor::starting(const std::string& member) {
    if (skip_.count(member)) return false;
    std::string frame;
    frame_starting(member, frame);
    write_all(out_fd_, frame);
    return true;
}

int64_t Extractor::members(archive* a, const std::optional<std::string>& member, const std::string& name, int depth,
                           JsonObject& meta) {
    int64_t count = 0;
    archive_entry* entry;
    int r;
    while ((r = archive_read_next_header(a, &entry)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        if (archive_entry_filetype(entry) != AE_IFREG) continue;
        const char* p = archive_entry_pathname_utf8(entry);
        if (!p) p = archive_entry_pathname(entry);
        std::string inner = (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_RAW
                                ? uncompressed_name(name)
                                : clean_utf8(p ? p : "?");
        std::string path = member_path(member, inner);
        std::optional<std::string> modified;
        if (archive_entry_mtime_is_set(entry)) modified = iso_time(archive_entry_mtime(entry), archive_entry_mtime_nsec(entry));
        count++;
        if (!starting(path)) continue;
        std::string data;
        char buf[65536];
        la_ssize_t n;
        bool too_large = false;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0) {
            if (data.size() + static_cast<size_t>(n) > limits_.max_size) {
                too_large = true;
                break;
            }
            data.append(buf, static_cast<size_t>(n));
        }
        if (too_large || n < 0) {
            Document doc;
            doc.member = path;
            doc.modified = modified;
            if (archive_entry_size_is_set(entry)) doc.size = archive_entry_size(entry);
            doc.error = too_large ? "the member inflates past " + std::to_string(limits_.max_size) +
                                        " bytes (--max-size); it was not read"
                                  : std::string("libarchive cannot read the member: ") + archive_error_string(a);
            emit(doc);
            if (n < 0) {
                meta.add("error_after_members", count);
                return count;  // the rest of a damaged stream cannot be trusted
            }
            continue;
        }
        document(data, path, modified, inner, depth + 1);
    }
    if (r != ARCHIVE_EOF) {
        const char* e = archive_error_string(a);
        meta.add("damaged", std::string(e ? e : "unreadable"));
    }
    return count;
}

void Extractor::document(std::string_view data, const std::optional<std::string>& member,
                         const std::optional<std::string>& modified, const std::string& name, int depth,
                         const JsonObject* extra, const std::optional<std::string>& uri,
                         const std::string& declared_type) {
    Document doc;
    doc.member = member;
    doc.uri = uri;
    doc.modified = modified;
    doc.size = static_cast<int64_t>(data.size());
    doc.hash = hash_of(data);
    JsonObject meta;
    try {
        injected_fault(name);
        std::string mime = trusted_html_type(declared_type, data);
        if (mime.empty()) mime = mime_of(data);
        meta.add("mime", mime);
        if (extra) meta.merge(*extra);
        std::string format = format_of_mime(mime);
        bool gzipped_warc = format == "archive" && gzipped_warc_head(data);
        if (gzipped_warc) format = "warc";
        if ((mime == "text/xml" || mime == "application/xml") && xhtml(data.substr(0, 4096))) format = "html";
        if (format == "text" || format == "html") {
            std::string mail = sniff_mail(data.substr(0, 1 << 16));
            if (!mail.empty()) format = mail;
        }
        if (format == "archive" && mime == "application/zip") {
            std::string kind = office_kind_of_zip(data);
            if (!kind.empty()) format = kind;
        }
        if (format.rfind("unsupported:", 0) == 0) {
            doc.format = "unsupported";
            doc.error = "unsupported format: " + format.substr(12);
        } else if (format == "archive") {
            doc.format = archive_name_of_mime(mime);
            if (depth >= limits_.max_depth)
                throw FormatError("archives nested deeper than " + std::to_string(limits_.max_depth) + " (--max-depth)");
            Archive a = new_reader();
            if (archive_read_open_memory(a.get(), data.data(), data.size()) != ARCHIVE_OK)
                throw FormatError(std::string("libarchive cannot open it: ") + archive_error_string(a.get()));
            int64_t n = members(a.get(), member, name, depth, meta);
            doc.format = format_name_of(a.get());
            meta.add("members", n);
        } else {
            doc.format = format;
            if (format == "text") extract_text(data, doc, meta);
            else if (format == "html") extract_html(data, doc, meta);
            else if (format == "pdf") extract_pdf(data, doc, meta);
            else if (format == "eml" || format == "mbox") mail(data, doc, meta, format == "mbox", depth);
            else if (format == "warc") {
                std::unique_ptr<ByteSource> src = memory_source(data);
                if (gzipped_warc) src = gunzip_source(std::move(src));
                warc(*src, doc, meta, depth);
            }
            else extract_office(data, format, doc, meta, limits_.max_size);
        }
    } catch (const FormatError& e) {
        doc.error = e.what();
    } catch (const std::bad_alloc&) {
        doc.error = "out of memory (--memory) while extracting";
    }
    doc.meta = meta.str();
    emit(doc);
}

bool Extractor::input(int fd, const std::string& name, const struct stat& st) {
    std::string modified = iso_time(st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    // The head tells the format; an archive is read as a stream (a 2 GB tar of small files is fine),
    // anything else whole, within --max-size.
    std::string head(std::min<size_t>(kMagicBytes, st.st_size > 0 ? static_cast<size_t>(st.st_size) : kMagicBytes), '\0');
    ssize_t got = pread(fd, head.data(), head.size(), 0);
    if (got < 0) throw std::runtime_error(std::string("cannot read: ") + std::strerror(errno));
    head.resize(static_cast<size_t>(got));
    std::string head_format = format_of_mime(mime_of(head));
    bool warc_gz = head_format == "archive" && gzipped_warc_head(head);
    bool is_warc = warc_gz || head_format == "warc";
    if (is_warc && parts_ == 0 && split_into_ > 1 && static_cast<uint64_t>(st.st_size) >= kSplitBytes) return false;
    if (parts_ > 0 && !is_warc) {
        // asked for a part of what is no WARC (the file changed meanwhile): part 0 takes it all
        if (part_ > 0) return true;
        parts_ = 0;
    }
    bool stream = parts_ > 0 ||
                  ((head_format == "archive" || head_format == "warc") && static_cast<uint64_t>(st.st_size) > limits_.max_size);
    if (!stream) {
        if (static_cast<uint64_t>(st.st_size) > limits_.max_size) {
            Document doc;
            doc.size = st.st_size;
            doc.modified = modified;
            std::string mime = mime_of(head), format = format_of_mime(mime);
            if (format == "archive") doc.format = archive_name_of_mime(mime);
            else if (format.rfind("unsupported:", 0) != 0) doc.format = format;
            doc.meta = JsonObject().add("mime", mime).str();
            doc.error = "the file is larger than " + std::to_string(limits_.max_size) + " bytes (--max-size); it was not read";
            emit(doc);
            return true;
        }
        std::string data;
        data.reserve(static_cast<size_t>(st.st_size));
        char buf[65536];
        ssize_t n;
        off_t off = 0;
        while ((n = pread(fd, buf, sizeof buf, off)) > 0 && data.size() + static_cast<size_t>(n) <= limits_.max_size) {
            data.append(buf, static_cast<size_t>(n));
            off += n;
        }
        if (n < 0) throw std::runtime_error(std::string("cannot read: ") + std::strerror(errno));
        document(data, std::nullopt, modified, name, 0);
        return true;
    }
    // a large archive, or a part of a WARC: its hash by one pass (the part that writes the input's
    // row only), its members by another
    Document doc;
    doc.size = st.st_size;
    doc.modified = modified;
    if (part_ == 0) {
        XXH3_state_t* state = XXH3_createState();
        XXH3_128bits_reset(state);
        char buf[1 << 16];
        ssize_t n;
        off_t off = 0;
        while ((n = pread(fd, buf, sizeof buf, off)) > 0) {
            XXH3_128bits_update(state, buf, static_cast<size_t>(n));
            off += n;
        }
        XXH128_hash_t h = XXH3_128bits_digest(state);
        XXH3_freeState(state);
        doc.hash = hash_hex(h.high64, h.low64);
    }
    JsonObject meta;
    meta.add("mime", mime_of(head));
    if (warc_gz || head_format == "warc") {
        doc.format = "warc";
        std::unique_ptr<ByteSource> src = fd_source(fd);
        if (warc_gz) src = gunzip_source(std::move(src));
        try {
            warc(*src, doc, meta, 0);
        } catch (const FormatError& e) {
            doc.error = e.what();
        }
        doc.meta = meta.str();
        if (part_ == 0) emit(doc);  // every part reads the whole stream: part 0 says what it holds
        return true;
    }
    Archive a = new_reader();
    lseek(fd, 0, SEEK_SET);
    if (archive_read_open_fd(a.get(), fd, 1 << 16) != ARCHIVE_OK) {
        doc.error = std::string("libarchive cannot open it: ") + archive_error_string(a.get());
    } else {
        int64_t count = members(a.get(), std::nullopt, name, 0, meta);
        doc.format = format_name_of(a.get());
        meta.add("members", count);
    }
    doc.meta = meta.str();
    emit(doc);
    return true;
}

void extract_text(std::string_view raw, Document& doc, JsonObject& meta) {
    Decoded d = to_utf8(raw);
    meta.add("encoding", d.encoding);
    doc.text = std::move(d.text);
}

}  // namespace ndd_load

namespace ndd_load {

void Extractor::warc(ByteSource& in, Document& doc, JsonObject& meta, int depth) {
    int64_t records = 0, others = 0;
    // response and resource records hold documents, conversion records (WET) their text; request,
    // metadata, revisit and warcinfo records describe the crawl
    auto holds_document = [](const std::string& type) {
        return type == "response" || type == "resource" || type == "conversion";
    };
    // of an input extracted in parts, this worker's records: every parts_-th from part_ (records
    // of every size mixed alike in every part); the others' blocks are passed over unread
    uint32_t parts = depth == 0 ? parts_ : 0;
    auto keep = [&](const WarcRecord& rec) {
        return holds_document(rec.header("WARC-Type")) && (parts == 0 || static_cast<uint64_t>(records) % parts == part_);
    };
    try {
        read_warc(in, limits_.max_size, [&](WarcRecord& rec) {
            std::string type = rec.header("WARC-Type");
            if (!holds_document(type)) {
                others++;
                return;
            }
            records++;
            if (rec.skipped) return;
            std::string uri = rec.header("WARC-Target-URI");
            if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>') uri = uri.substr(1, uri.size() - 2);
            std::string member = member_path(doc.member, uri.empty() ? "record-" + std::to_string(records) : uri);
            if (!starting(member)) return;
            JsonObject extra;
            extra.add("warc_type", type);
            for (const char* h : {"WARC-Target-URI", "WARC-Date", "WARC-Record-ID", "WARC-Refers-To"}) {
                std::string v = rec.header(h);
                if (!v.empty()) extra.add(h, v);
            }
            std::string date = warc_date(rec.header("WARC-Date"));
            std::optional<std::string> modified = date.empty() ? std::nullopt : std::optional<std::string>(date);
            if (rec.too_large) {
                Document big;
                big.member = member;
                if (!uri.empty()) big.uri = uri;
                big.modified = modified;
                big.size = static_cast<int64_t>(rec.length);
                big.meta = extra.str();
                big.error = "the record is larger than " + std::to_string(limits_.max_size) +
                            " bytes (--max-size); it was not read";
                emit(big);
                return;
            }
            std::string_view payload = rec.block;
            std::string declared_type = rec.header("Content-Type");
            HttpResponse http;
            if (type == "response" && parse_http_response(rec.block, limits_.max_size, http)) {
                declared_type = http.header("Content-Type");
                extra.add("http_status", static_cast<int64_t>(http.status));
                JsonObject headers;
                for (const auto& [k, v] : http.headers) headers.add(k, v);
                extra.add_raw("http_headers", headers.str());
                payload = http.body;
            } else {
                std::string ct = rec.header("Content-Type");
                if (!ct.empty()) extra.add("content_type", ct);
            }
            document(payload, member, modified, uri, depth + 1, &extra,
                     uri.empty() ? std::nullopt : std::optional<std::string>(uri), declared_type);
        }, keep);
    } catch (const FormatError& e) {
        meta.add("records", records);
        throw;
    }
    meta.add("records", records);
    meta.add("other_records", others);
}

}  // namespace ndd_load
