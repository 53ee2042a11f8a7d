// warc.hpp
//    WARC (ISO 28500, 1.0 and 1.1) records, plain or gzip-compressed record by record (.warc.gz), read
//    as a stream. Debian 12 packages no WARC library (apt-cache search warc: none; libarchive's WARC
//    reader gives neither the WARC nor the HTTP headers), so the framing is ours and minimal: a
//    version line, header lines up to a blank line, Content-Length bytes of block, CRLF CRLF. zlib
//    inflates the gzip members. Every length is checked against hard limits, a Content-Length that
//    lies (the block not followed by CRLF CRLF) stops the reading with an error, and nothing is kept
//    in memory beyond one record (at most --max-size).
#ifndef NDD_LOAD_WARC_HPP
#define NDD_LOAD_WARC_HPP

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ndd_load {

// Bytes from somewhere: read() returns 0 at the end, throws FormatError on damage.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual size_t read(char* buf, size_t n) = 0;
};
std::unique_ptr<ByteSource> memory_source(std::string_view data);
std::unique_ptr<ByteSource> fd_source(int fd);  // reads from offset 0 by pread
// Inflates a gzip stream of one or more members (a .warc.gz has one per record).
std::unique_ptr<ByteSource> gunzip_source(std::unique_ptr<ByteSource> in);

struct WarcRecord {
    std::vector<std::pair<std::string, std::string>> headers;  // as written, in order
    std::string block;                                        // empty when skipped (too large, or not kept)
    uint64_t length = 0;                                      // Content-Length
    bool too_large = false;
    bool skipped = false;                                     // keep() said no: the block was not read
    std::string header(const std::string& name) const;        // case-insensitive, "" if absent
};

// Calls each(record) for every record of in; returns normally at the end of the stream, throws
// FormatError (with how many records were read) at damage: a bad version line, a header line past
// 64 kB, more than 1,000 headers, a missing or bad Content-Length, a block cut short or not followed
// by CRLF CRLF. keep, when given, is asked once a record's headers are read whether its block is
// wanted: when not, the block is passed over (its framing checked all the same) and each() gets the
// record with `skipped` set.
void read_warc(ByteSource& in, size_t max_block, const std::function<void(WarcRecord&)>& each,
               const std::function<bool(const WarcRecord&)>& keep = nullptr);

// An HTTP response (a WARC response record's block): the status, the headers and the body, with
// chunked transfer coding and gzip/deflate content coding undone (at most max_body bytes). false
// when the block is no HTTP response.
struct HttpResponse {
    int status = 0;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    std::string header(const std::string& name) const;
};
bool parse_http_response(std::string_view block, size_t max_body, HttpResponse& out);

// "2024-01-02T03:04:05Z" (WARC-Date) as iso_time's "2024-01-02 03:04:05+00"; "" if not of that form.
std::string warc_date(const std::string& date);

}  // namespace ndd_load

#endif  // NDD_LOAD_WARC_HPP
