// test_warc.cpp
//    The WARC framing and the HTTP responses inside (warc.hpp): records, a lying Content-Length, cut
//    streams, chunked and gzip-coded bodies, a .warc.gz of one gzip member per record.
#include <gtest/gtest.h>
#include <zlib.h>

#include "formats.hpp"
#include "warc.hpp"

using namespace ndd_load;

namespace {

std::string record(const std::string& type, const std::string& uri, const std::string& block,
                   const std::string& length = "") {
    return "WARC/1.0\r\nWARC-Type: " + type + "\r\nWARC-Target-URI: " + uri +
           "\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nContent-Length: " +
           (length.empty() ? std::to_string(block.size()) : length) + "\r\n\r\n" + block + "\r\n\r\n";
}

std::string gzip(const std::string& data) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, data.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::vector<WarcRecord> read_all(const std::string& data, bool gz, size_t max = 1 << 20) {
    std::unique_ptr<ByteSource> src = memory_source(data);
    if (gz) src = gunzip_source(std::move(src));
    std::vector<WarcRecord> out;
    read_warc(*src, max, [&](WarcRecord& r) { out.push_back(r); });
    return out;
}

const std::string kHttp = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hello</p>";

}  // namespace

TEST(Warc, RecordsPlainAndGzippedPerRecord) {
    std::string a = record("warcinfo", "", "software: test"), b = record("response", "http://x/", kHttp);
    for (bool gz : {false, true}) {
        std::vector<WarcRecord> recs = read_all(gz ? gzip(a) + gzip(b) : a + b, gz);
        ASSERT_EQ(recs.size(), 2u);
        EXPECT_EQ(recs[1].header("warc-target-uri"), "http://x/");
        EXPECT_EQ(recs[1].block, kHttp);
    }
}

TEST(Warc, LyingLengthAndCutStreamsAreErrors) {
    std::string good = record("resource", "u", "0123456789");
    EXPECT_THROW(read_all(record("resource", "u", "0123456789", "5"), false), FormatError);
    EXPECT_THROW(read_all(record("resource", "u", "0123456789", "15"), false), FormatError);
    EXPECT_THROW(read_all(record("resource", "u", "x", "-1"), false), FormatError);
    EXPECT_THROW(read_all(record("resource", "u", "x", "99999999999999999999"), false), FormatError);
    EXPECT_THROW(read_all("GET / HTTP/1.1\r\n\r\n", false), FormatError);
    // every cut of a record is an error, never a crash nor a record of the wrong length
    for (size_t cut = 1; cut + 4 < good.size(); cut++) EXPECT_THROW(read_all(good.substr(0, cut), false), FormatError) << cut;
    std::string gz = gzip(good);
    EXPECT_THROW(read_all(gz.substr(0, gz.size() / 2), true), FormatError);
    EXPECT_EQ(read_all(good + "\r\n", false).size(), 1u);  // blank lines between records are tolerated
}

TEST(Warc, LargeBlocksAreSkippedNotKept) {
    std::vector<WarcRecord> recs = read_all(record("resource", "big", std::string(5000, 'x')) + record("resource", "s", "y"), false, 1000);
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_TRUE(recs[0].too_large);
    EXPECT_TRUE(recs[0].block.empty());
    EXPECT_EQ(recs[1].block, "y");
}

TEST(Http, ChunkedAndGzipBodies) {
    HttpResponse r;
    ASSERT_TRUE(parse_http_response(kHttp, 1 << 20, r));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-type"), "text/html");
    EXPECT_EQ(r.body, "<p>hello</p>");
    HttpResponse c;
    ASSERT_TRUE(parse_http_response("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
                                    1 << 20, c));
    EXPECT_EQ(c.status, 404);
    EXPECT_EQ(c.body, "hello world");
    HttpResponse g;
    ASSERT_TRUE(parse_http_response("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzip("zipped body"), 1 << 20, g));
    EXPECT_EQ(g.body, "zipped body");
    HttpResponse bomb;
    EXPECT_THROW(parse_http_response("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzip(std::string(1 << 20, 'a')), 1000, bomb),
                 FormatError);
    HttpResponse not_http;
    EXPECT_FALSE(parse_http_response("just some bytes", 1 << 20, not_http));
}

TEST(Warc, Dates) {
    EXPECT_EQ(warc_date("2024-01-02T03:04:05Z"), "2024-01-02 03:04:05+00");
    EXPECT_EQ(warc_date("2024-01-02T03:04:05.123Z"), "2024-01-02 03:04:05.123+00");
    EXPECT_EQ(warc_date("yesterday"), "");
    EXPECT_EQ(warc_date("2024-01-02T03:04:05Zx"), "");
}

// keep() decides from a record's headers whether its block is read: a block passed over is not
// kept, but its framing is checked all the same and the records after it are read.
TEST(Warc, KeepPassesOverBlocks) {
    std::string data = record("request", "http://x/", "GET / HTTP/1.1\r\n\r\n") + record("response", "http://x/", kHttp) +
                       record("response", "http://y/", kHttp);
    for (bool gz : {false, true}) {
        std::string bytes = gz ? gzip(data) : data;  // memory_source reads it in place
        std::unique_ptr<ByteSource> src = memory_source(bytes);
        if (gz) src = gunzip_source(std::move(src));
        std::vector<WarcRecord> recs;
        read_warc(*src, 1 << 20, [&](WarcRecord& r) { recs.push_back(r); },
                  [](const WarcRecord& r) { return r.header("WARC-Target-URI") == "http://y/"; });
        ASSERT_EQ(recs.size(), 3u);
        EXPECT_TRUE(recs[0].skipped && recs[0].block.empty());
        EXPECT_TRUE(recs[1].skipped && recs[1].block.empty());
        EXPECT_FALSE(recs[2].skipped);
        EXPECT_EQ(recs[2].block, kHttp);
    }
    // a lying Content-Length is found in a block passed over too
    std::string lying = record("resource", "u", "0123456789", "5");
    std::unique_ptr<ByteSource> src = memory_source(lying);
    EXPECT_THROW(read_warc(*src, 1 << 20, [](WarcRecord&) {}, [](const WarcRecord&) { return false; }), FormatError);
}
