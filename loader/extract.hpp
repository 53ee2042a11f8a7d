// extract.hpp
//    What a worker process does with one input: read it, find each document's format from its content
//    (libmagic), unpack archives (libarchive), hand each document to its format (formats.hpp) and
//    write one frame per document (record.hpp) to its output file descriptor.
#ifndef NDD_LOAD_EXTRACT_HPP
#define NDD_LOAD_EXTRACT_HPP

#include <magic.h>
#include <sys/stat.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "record.hpp"

struct archive;        // libarchive's reader
struct _GMimeMessage;  // GMime's message

namespace ndd_load {

struct ExtractLimits {
    size_t max_size = 256u << 20;  // bytes of one document (a file, a member once inflated)
    int max_depth = 4;             // archives inside archives
};

class Extractor {
public:
    Extractor(magic_t magic, ExtractLimits limits, int out_fd) : magic_(magic), limits_(limits), out_fd_(out_fd) {}

    // Members not to extract (nor write a row of): those that crashed or stopped an earlier worker
    // on this input, which is extracted again past them (doc/loader.md, "Limits and isolation").
    void skip(std::set<std::string> members) { skip_ = std::move(members); }

    // Which part of the input to extract: part `part` of `parts` (a large WARC's records are shared
    // among the workers: record k is part k mod parts's; part 0 also writes the input's own row), or
    // all of it (parts 0), in which case a WARC of at least kSplitBytes is split when split_into > 1.
    void part(uint32_t part, uint32_t parts, uint32_t split_into) {
        part_ = part;
        parts_ = parts;
        split_into_ = split_into;
    }
    static constexpr uint64_t kSplitBytes = 4u << 20;

    // The input open at fd, named name (its rows' member names derive from it for raw compressed
    // files), with its stat: every document it holds (of its part), its own row last. False, with
    // nothing written, when the input is to be extracted in parts instead (part() above).
    bool input(int fd, const std::string& name, const struct stat& st);

    // One document's raw bytes (the input itself when member is empty); extra goes into its meta
    // (a WARC record's headers), uri into its uri (a WARC record's target URI); declared_type is the
    // MIME type a WARC record declares for it (trusted when it is HTML: extract.cpp says when).
    void document(std::string_view data, const std::optional<std::string>& member,
                  const std::optional<std::string>& modified, const std::string& name, int depth,
                  const JsonObject* extra = nullptr, const std::optional<std::string>& uri = std::nullopt,
                  const std::string& declared_type = "");

private:
    std::string mime_of(std::string_view data);
    // Reads every member of the open archive a: documents of their own, at depth + 1.
    int64_t members(::archive* a, const std::optional<std::string>& member, const std::string& name, int depth,
                    JsonObject& meta);
    // format_mail.cpp: a message or an mbox into doc and its members; one message's fields
    void mail(std::string_view data, Document& doc, JsonObject& meta, bool mbox, int depth);
    void message(_GMimeMessage* msg, Document& doc, JsonObject& meta, int depth);
    // the records of a WARC as documents of their own (warc.hpp)
    void warc(class ByteSource& in, Document& doc, JsonObject& meta, int depth);
    void emit(const Document& doc);
    // Writes the "starting" frame of member; false when member is to be skipped (no frame).
    bool starting(const std::string& member);

    magic_t magic_;
    ExtractLimits limits_;
    int out_fd_;
    std::set<std::string> skip_;
    uint32_t part_ = 0, parts_ = 0, split_into_ = 0;
};

// XXH3-128 of data in hex (record.hpp, hash_hex).
std::string hash_of(std::string_view data);

// The member name of a nested document: "a.zip!/b/c.txt" for c.txt in b/ of member a.zip.
std::string member_path(const std::optional<std::string>& outer, const std::string& inner);

// The format column of an archive libarchive has not opened yet: "zip", "tar", "gzip", "7z", ...
std::string archive_name_of_mime(const std::string& mime);

// For a raw compressed file (text.txt.gz), the name of what it holds (text.txt).
std::string uncompressed_name(const std::string& name);

}  // namespace ndd_load

#endif  // NDD_LOAD_EXTRACT_HPP
