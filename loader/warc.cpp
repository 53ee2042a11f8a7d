// warc.cpp
//    WARC records and the HTTP responses inside them (warc.hpp).
#include "warc.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "formats.hpp"

namespace ndd_load {

namespace {

constexpr size_t kMaxHeaderLine = 64 << 10;
constexpr size_t kMaxHeaders = 1000;

class MemorySource : public ByteSource {
public:
    explicit MemorySource(std::string_view d) : d_(d) {}
    size_t read(char* buf, size_t n) override {
        n = std::min(n, d_.size() - pos_);
        std::memcpy(buf, d_.data() + pos_, n);
        pos_ += n;
        return n;
    }

private:
    std::string_view d_;
    size_t pos_ = 0;
};

class FdSource : public ByteSource {
public:
    explicit FdSource(int fd) : fd_(fd) {}
    size_t read(char* buf, size_t n) override {
        for (;;) {
            ssize_t got = pread(fd_, buf, n, off_);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) throw FormatError(std::string("read error: ") + std::strerror(errno));
            off_ += got;
            return static_cast<size_t>(got);
        }
    }

private:
    int fd_;
    off_t off_ = 0;
};

class GunzipSource : public ByteSource {
public:
    explicit GunzipSource(std::unique_ptr<ByteSource> in) : in_(std::move(in)), buf_(1 << 16) {
        std::memset(&z_, 0, sizeof z_);
        if (inflateInit2(&z_, 15 + 32) != Z_OK) throw FormatError("zlib cannot start");
    }
    ~GunzipSource() override { inflateEnd(&z_); }
    size_t read(char* out, size_t n) override {
        z_.next_out = reinterpret_cast<Bytef*>(out);
        z_.avail_out = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
        while (z_.avail_out == n && !done_) {
            if (z_.avail_in == 0) {
                size_t got = in_->read(buf_.data(), buf_.size());
                if (got == 0) {
                    if (in_member_) throw FormatError("the gzip stream is cut short");
                    done_ = true;
                    break;
                }
                z_.next_in = reinterpret_cast<Bytef*>(buf_.data());
                z_.avail_in = static_cast<uInt>(got);
            }
            in_member_ = true;
            int r = inflate(&z_, Z_NO_FLUSH);
            if (r == Z_STREAM_END) {
                // the next gzip member (a .warc.gz has one per record) starts where this one ends
                in_member_ = false;
                if (inflateReset(&z_) != Z_OK) throw FormatError("zlib cannot go on");
            } else if (r != Z_OK && r != Z_BUF_ERROR) {
                throw FormatError(std::string("the gzip stream is damaged: ") + (z_.msg ? z_.msg : "inflate failed"));
            }
        }
        return n - z_.avail_out;
    }

private:
    std::unique_ptr<ByteSource> in_;
    std::vector<char> buf_;
    z_stream z_;
    bool done_ = false, in_member_ = false;
};

// Buffered reading of lines and blocks over a ByteSource.
class Reader {
public:
    explicit Reader(ByteSource& in) : in_(in), buf_(1 << 16) {}
    // A line without its CRLF or LF; false at the end of the stream (nothing read).
    bool line(std::string& out) {
        out.clear();
        for (;;) {
            if (pos_ == len_ && !fill()) return !out.empty();
            char* start = buf_.data() + pos_;
            char* nl = static_cast<char*>(std::memchr(start, '\n', len_ - pos_));
            size_t take = nl ? static_cast<size_t>(nl - start) : len_ - pos_;
            if (out.size() + take > kMaxHeaderLine) throw FormatError("a header line longer than 64 kB");
            out.append(start, take);
            pos_ += take;
            if (nl) {
                pos_++;
                if (!out.empty() && out.back() == '\r') out.pop_back();
                return true;
            }
        }
    }
    // n bytes into out (when keep) or skipped; false when the stream ends first.
    bool block(uint64_t n, bool keep, std::string& out) {
        while (n > 0) {
            if (pos_ == len_ && !fill()) return false;
            size_t take = static_cast<size_t>(std::min<uint64_t>(n, len_ - pos_));
            if (keep) out.append(buf_.data() + pos_, take);
            pos_ += take;
            n -= take;
        }
        return true;
    }

private:
    bool fill() {
        pos_ = 0;
        len_ = in_.read(buf_.data(), buf_.size());
        return len_ > 0;
    }
    ByteSource& in_;
    std::vector<char> buf_;
    size_t pos_ = 0, len_ = 0;
};

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return std::string(s);
}

std::string find_header(const std::vector<std::pair<std::string, std::string>>& headers, const std::string& name) {
    for (const auto& [k, v] : headers)
        if (iequals(k, name)) return v;
    return "";
}

// Header lines "Name: value" (a line starting with a space or tab goes on the previous one).
bool add_header(const std::string& line, std::vector<std::pair<std::string, std::string>>& headers) {
    if (!line.empty() && (line[0] == ' ' || line[0] == '\t') && !headers.empty()) {
        headers.back().second += " " + trim(line);
        return true;
    }
    size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0) return false;
    headers.emplace_back(trim(std::string_view(line).substr(0, colon)), trim(std::string_view(line).substr(colon + 1)));
    return true;
}

// zlib inflate of a gzip or zlib/deflate body, at most max bytes.
std::string inflate_body(std::string_view in, bool raw_deflate, size_t max) {
    z_stream z;
    std::memset(&z, 0, sizeof z);
    if (inflateInit2(&z, raw_deflate ? -15 : 15 + 32) != Z_OK) throw FormatError("zlib cannot start");
    std::string out;
    std::vector<char> buf(1 << 16);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    int r;
    do {
        z.next_out = reinterpret_cast<Bytef*>(buf.data());
        z.avail_out = static_cast<uInt>(buf.size());
        r = inflate(&z, Z_NO_FLUSH);
        out.append(buf.data(), buf.size() - z.avail_out);
        if (out.size() > max) {
            inflateEnd(&z);
            throw FormatError("the HTTP body inflates past --max-size");
        }
    } while (r == Z_OK);
    inflateEnd(&z);
    if (r != Z_STREAM_END && r != Z_BUF_ERROR) throw FormatError("the HTTP body's compression is damaged");
    return out;
}

}  // namespace

std::unique_ptr<ByteSource> memory_source(std::string_view data) { return std::make_unique<MemorySource>(data); }
std::unique_ptr<ByteSource> fd_source(int fd) { return std::make_unique<FdSource>(fd); }
std::unique_ptr<ByteSource> gunzip_source(std::unique_ptr<ByteSource> in) {
    return std::make_unique<GunzipSource>(std::move(in));
}

std::string WarcRecord::header(const std::string& name) const { return find_header(headers, name); }
std::string HttpResponse::header(const std::string& name) const { return find_header(headers, name); }

void read_warc(ByteSource& in, size_t max_block, const std::function<void(WarcRecord&)>& each,
               const std::function<bool(const WarcRecord&)>& keep) {
    Reader r(in);
    std::string line;
    uint64_t count = 0;
    auto fail = [&](const std::string& what) {
        throw FormatError(what + " (after " + std::to_string(count) + " records)");
    };
    for (;;) {
        // records are apart by CRLF CRLF; tolerate extra blank lines between them
        do {
            if (!r.line(line)) return;
        } while (line.empty());
        if (line != "WARC/1.0" && line != "WARC/1.1") fail("not a WARC record: the version line is missing");
        WarcRecord rec;
        for (;;) {
            if (!r.line(line)) fail("the WARC record's headers are cut short");
            if (line.empty()) break;
            if (rec.headers.size() >= kMaxHeaders) fail("more than 1000 headers in a WARC record");
            if (!add_header(line, rec.headers)) fail("a WARC header line without a colon");
        }
        std::string length = rec.header("Content-Length");
        if (length.empty() || length.size() > 18 || length.find_first_not_of("0123456789") != std::string::npos)
            fail("a WARC record without a valid Content-Length");
        rec.length = std::stoull(length);
        rec.too_large = rec.length > max_block;
        rec.skipped = keep && !keep(rec);
        if (!r.block(rec.length, !rec.too_large && !rec.skipped, rec.block)) fail("a WARC record's block is cut short (Content-Length lies?)");
        // the block is followed by exactly CRLF CRLF: else its Content-Length lied
        std::string end;
        if (!r.block(4, true, end) || end != "\r\n\r\n") fail("a WARC record's block is not followed by CRLF CRLF (Content-Length lies?)");
        count++;
        each(rec);
    }
}

bool parse_http_response(std::string_view block, size_t max_body, HttpResponse& out) {
    MemorySource src(block);
    Reader r(src);
    std::string line;
    if (!r.line(line) || line.compare(0, 5, "HTTP/") != 0) return false;
    size_t sp = line.find(' ');
    if (sp == std::string::npos) return false;
    out.status = std::atoi(line.c_str() + sp + 1);
    for (;;) {
        if (!r.line(line)) return false;
        if (line.empty()) break;
        if (out.headers.size() >= kMaxHeaders || !add_header(line, out.headers)) return false;
    }
    std::string body;
    r.block(block.size(), true, body);  // the rest
    if (iequals(trim(out.header("Transfer-Encoding")), "chunked")) {
        MemorySource chunks(body);
        Reader c(chunks);
        std::string decoded;
        for (;;) {
            if (!c.line(line)) break;
            size_t size = 0;
            if (line.empty() || std::sscanf(line.c_str(), "%zx", &size) != 1) break;
            if (size == 0 || decoded.size() + size > max_body) break;
            if (!c.block(size, true, decoded)) break;
            c.line(line);  // the CRLF after the chunk
        }
        body = std::move(decoded);
    }
    std::string coding = trim(out.header("Content-Encoding"));
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) body = inflate_body(body, false, max_body);
    else if (iequals(coding, "deflate")) {
        try {
            body = inflate_body(body, false, max_body);
        } catch (const FormatError&) {
            body = inflate_body(body, true, max_body);  // servers send raw deflate as often as zlib
        }
    }
    out.body = std::move(body);
    return true;
}

std::string warc_date(const std::string& d) {
    // YYYY-MM-DDThh:mm:ss[.fraction]Z
    if (d.size() < 20 || d[4] != '-' || d[7] != '-' || d[10] != 'T' || d[13] != ':' || d[16] != ':' || d.back() != 'Z')
        return "";
    std::string out = d.substr(0, 10) + " " + d.substr(11, d.size() - 12) + "+00";
    return out.find_first_not_of("0123456789-:. +") == std::string::npos ? out : "";
}

}  // namespace ndd_load
