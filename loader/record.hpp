// record.hpp
//    What an extraction produces and how it travels: a Document (one row of the table), its framing on
//    the pipe from a worker process to the loader's main process, and the COPY text the main process
//    sends to the server. Pure C++17, no library: unit-tested in test/test_record.cpp.
#ifndef NDD_LOAD_RECORD_HPP
#define NDD_LOAD_RECORD_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ndd_load {

// One row of the table, without its source (the main process knows which input a worker read).
// A field left empty (std::nullopt) is SQL NULL.
struct Document {
    std::optional<std::string> member;    // path inside an archive ("!/" between nested archives); NULL: the input itself
    std::optional<std::string> format;    // "text", "html", "pdf", "docx", "zip", ... (doc/loader.md, "Formats")
    std::optional<int64_t> size;          // bytes of the raw document
    std::optional<std::string> hash;      // XXH3-128 of the raw bytes, 32 hex digits (as xxh128sum prints it)
    std::optional<std::string> modified;  // ISO 8601 timestamp, UTC
    std::optional<std::string> title;
    std::optional<std::string> text;
    std::optional<std::string> html;
    std::optional<std::string> meta;      // a JSON object (JsonObject)
    std::optional<std::string> error;
    std::optional<std::string> uri;       // a WARC record's target URI
};

// The frames a worker writes. A "starting" frame names the member a worker begins to extract, so that
// the main process can say which member a crashed or killed worker was reading.
enum class FrameKind : uint8_t { Document = 'D', Starting = 'S' };

// Appends the frame of doc (or of a "starting" note for member) to out.
void frame_document(const Document& doc, std::string& out);
void frame_starting(std::string_view member, std::string& out);

// Reads the frames of buf in order, one document at a time (a worker's output may be larger than
// memory: buf is a mapped file). A worker that died mid-write leaves a truncated last frame: it is
// dropped and reported by truncated(). Anything malformed (an unknown kind, a length past the end)
// ends the reading the same way: the bytes come from a process that may have been subverted.
// The output of a worker still writing is read as it grows: extend() gives the reader the longer
// buffer, and it goes on from the start of the frame it could not finish.
class FrameReader {
public:
    FrameReader(std::string_view buf, size_t max_field) : buf_(buf), max_field_(max_field) {}
    // The same output, grown (a new mapping of it): the reading goes on where it stopped.
    void extend(std::string_view buf, size_t max_field) {
        buf_ = buf;
        max_field_ = max_field;
        truncated_ = false;
    }
    // The next document, false at the end (or at a damaged frame).
    bool next(Document& doc);
    bool truncated() const { return truncated_; }
    // Bytes of whole frames read: a truncated frame is read again from there after extend().
    size_t position() const { return pos_; }
    // Documents read so far.
    size_t documents() const { return documents_; }
    // The innermost member begun (a "starting" frame) and not finished (its document): what a worker
    // that died was reading. Members nest (an archive's members start and end inside it): a
    // document ends the innermost member when it is that member's.
    std::optional<std::string> unfinished() const {
        return started_.empty() ? std::nullopt : std::optional<std::string>(started_.back().first);
    }
    // How many documents came before the unfinished member began (0 when none): an extraction that
    // leaves that member out writes those same documents first, then goes on past the member.
    size_t documents_before_unfinished() const { return started_.empty() ? 0 : started_.back().second; }

private:
    bool damaged(size_t frame_start) {
        pos_ = frame_start;
        truncated_ = true;
        return false;
    }
    std::string_view buf_;
    size_t max_field_;
    size_t pos_ = 0, documents_ = 0;
    bool truncated_ = false;
    std::vector<std::pair<std::string, size_t>> started_;  // member, documents before it
};

// s with every invalid UTF-8 sequence replaced by U+FFFD and every NUL removed: what a text column
// accepts (a COPY with one bad byte fails the whole batch).
std::string clean_utf8(std::string_view s);
bool valid_utf8(std::string_view s);

// Appends s escaped for COPY's text format (backslash, newline, carriage return, tab), or \N for NULL.
void copy_field(const std::optional<std::string>& s, std::string& out);
// The same for a text that is there (not NULL).
void copy_text(std::string_view s, std::string& out);

// A JSON object built key by key; values are escaped (and cleaned to UTF-8 without NUL, which jsonb
// refuses).
class JsonObject {
public:
    JsonObject& add(std::string_view key, std::string_view value);
    JsonObject& add(std::string_view key, int64_t value);
    JsonObject& add(std::string_view key, bool value);
    // without it a C string would convert to bool, not to string_view
    JsonObject& add(std::string_view key, const char* value) { return add(key, std::string_view(value)); }
    JsonObject& add_raw(std::string_view key, std::string_view json);  // json must be valid JSON
    JsonObject& merge(const JsonObject& other) {
        if (!other.body_.empty()) body_ += (body_.empty() ? "" : ", ") + other.body_;
        return *this;
    }
    bool empty() const { return body_.empty(); }
    std::string str() const { return "{" + body_ + "}"; }

private:
    void key(std::string_view k);
    std::string body_;
};
std::string json_string(std::string_view s);

// Hex of the 128-bit XXH3 of data, high half first (xxh128sum's output).
std::string hash_hex(uint64_t high, uint64_t low);

// "2026-11-28 00:32:35.123456+00" for a Unix time in seconds and nanoseconds (microseconds kept,
// timestamptz's precision, so that a resumed run compares equal).
std::string iso_time(int64_t seconds, long nanoseconds);

}  // namespace ndd_load

#endif  // NDD_LOAD_RECORD_HPP
