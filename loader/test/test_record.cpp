// test_record.cpp
//    Frames between processes, COPY text, UTF-8 cleaning, JSON (record.hpp).
#include <gtest/gtest.h>

#include <random>

#include "record.hpp"

using namespace ndd_load;

namespace {

Document sample() {
    Document d;
    d.member = "a.zip!/dir/b.txt";
    d.format = "text";
    d.size = 1234;
    d.hash = std::string(32, 'a');
    d.modified = "2026-01-02 03:04:05.000006+00";
    d.text = std::string("line\tone\nline \\ two\0nul", 23);
    d.meta = "{\"mime\": \"text/plain\"}";
    return d;
}

}  // namespace

TEST(Frames, RoundTrip) {
    std::string buf;
    frame_starting("a.zip!/dir/b.txt", buf);
    frame_document(sample(), buf);
    Document empty;
    frame_document(empty, buf);
    FrameReader reader(buf, buf.size());
    Document d;
    ASSERT_TRUE(reader.next(d));
    EXPECT_EQ(d.member, sample().member);
    EXPECT_EQ(d.size, 1234);
    EXPECT_EQ(d.text, sample().text);
    EXPECT_FALSE(d.title.has_value());
    EXPECT_FALSE(d.error.has_value());
    ASSERT_TRUE(reader.next(d));
    EXPECT_FALSE(d.member.has_value());
    EXPECT_FALSE(d.size.has_value());
    EXPECT_FALSE(reader.next(d));
    EXPECT_FALSE(reader.truncated());
    EXPECT_FALSE(reader.unfinished().has_value());
}

// A worker killed mid-write: every cut of the output keeps the whole frames before it, drops the
// rest, says so, and names the member being read.
TEST(Frames, EveryTruncationIsDetected) {
    std::string whole;
    frame_document(sample(), whole);
    size_t first = whole.size();
    frame_starting("second", whole);
    size_t second_start = whole.size();
    Document d2 = sample();
    d2.member = "second";
    frame_document(d2, whole);
    for (size_t cut = 0; cut < whole.size(); cut++) {
        FrameReader reader(std::string_view(whole).substr(0, cut), whole.size());
        Document d;
        int n = 0;
        while (reader.next(d)) n++;
        EXPECT_EQ(n, cut >= first ? 1 : 0) << cut;
        bool on_boundary = cut == 0 || cut == first || cut == second_start;
        EXPECT_EQ(reader.truncated(), !on_boundary) << cut;
        if (cut >= second_start) {
            EXPECT_EQ(reader.unfinished(), std::optional<std::string>("second")) << cut;
        }
    }
}

// Members nest: a worker that dies inside an archive's member was reading that member; one that dies
// after the member, still inside the archive, was reading the archive.
TEST(Frames, UnfinishedMembersNest) {
    std::string out;
    auto doc = [&](const char* member) {
        Document d;
        d.member = member;
        frame_document(d, out);
    };
    auto unfinished_after = [&]() {
        FrameReader reader(out, out.size());
        Document d;
        while (reader.next(d)) {
        }
        return reader.unfinished();
    };
    frame_starting("a.zip", out);
    frame_starting("a.zip!/x.txt", out);
    doc("a.zip!/x.txt");
    EXPECT_EQ(unfinished_after(), std::optional<std::string>("a.zip"));
    frame_starting("a.zip!/y.pdf", out);
    EXPECT_EQ(unfinished_after(), std::optional<std::string>("a.zip!/y.pdf"));
    doc("a.zip!/y.pdf!/attachment");  // a document with no "starting" of its own ends nothing
    EXPECT_EQ(unfinished_after(), std::optional<std::string>("a.zip!/y.pdf"));
    doc("a.zip!/y.pdf");
    doc("a.zip");
    EXPECT_FALSE(unfinished_after().has_value());
}

// The output of a worker still writing, read as it grows (the main process streams it): read at any
// two cuts, then whole, every document comes once, in order, none lost; a frame cut short is read
// again from its start once the output has grown.
TEST(Frames, ReadAsTheOutputGrows) {
    std::string whole;
    std::vector<std::string> members;
    for (int i = 0; i < 5; i++) {
        members.push_back("m" + std::to_string(i));
        frame_starting(members.back(), whole);
        Document d = sample();
        d.member = members.back();
        frame_document(d, whole);
    }
    for (size_t a = 0; a <= whole.size(); a += 7) {
        for (size_t b = a; b <= whole.size(); b += 13) {
            FrameReader reader(std::string_view(whole).substr(0, a), a);
            std::vector<std::string> seen;
            Document d;
            for (size_t cut : {a, b, whole.size()}) {
                reader.extend(std::string_view(whole).substr(0, cut), cut);
                while (reader.next(d)) seen.push_back(*d.member);
                EXPECT_LE(reader.position(), cut);
            }
            EXPECT_EQ(seen, members) << a << " " << b;
            EXPECT_FALSE(reader.truncated());
            EXPECT_EQ(reader.documents(), members.size());
        }
    }
}

// What a retry leaves out: the documents before the member a worker stopped in (it writes those
// again first, that member skipped), not the ones inside that member (the retry does not write them).
TEST(Frames, DocumentsBeforeTheUnfinishedMember) {
    std::string out;
    auto doc = [&](const char* member) {
        Document d;
        d.member = member;
        frame_document(d, out);
    };
    auto before_unfinished = [&]() {
        FrameReader reader(out, out.size());
        Document d;
        while (reader.next(d)) {
        }
        return reader.documents_before_unfinished();
    };
    EXPECT_EQ(before_unfinished(), 0u);
    frame_starting("r1", out);
    doc("r1");
    frame_starting("r2", out);
    doc("r2");
    frame_starting("a.zip", out);
    EXPECT_EQ(before_unfinished(), 2u);
    frame_starting("a.zip!/x.txt", out);
    doc("a.zip!/x.txt");
    EXPECT_EQ(before_unfinished(), 2u);  // inside a.zip, after its member x.txt
    frame_starting("a.zip!/y.txt", out);
    EXPECT_EQ(before_unfinished(), 3u);  // inside a.zip's y.txt
}

// Random bytes (a subverted worker) never make the reader read past the buffer or loop.
TEST(Frames, GarbageIsRefused) {
    std::mt19937 rng(42);
    for (int round = 0; round < 2000; round++) {
        std::string buf;
        frame_document(sample(), buf);
        for (int k = 0; k < 3; k++) buf[rng() % buf.size()] = static_cast<char>(rng());
        FrameReader reader(buf, 1 << 20);
        Document d;
        int n = 0;
        while (reader.next(d)) n++;
        EXPECT_LE(n, 1);
    }
    std::string huge = "D";
    huge += '\1';
    huge += std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8);  // a length of 2^63
    FrameReader reader(huge, 1 << 20);
    Document d;
    EXPECT_FALSE(reader.next(d));
    EXPECT_TRUE(reader.truncated());
}

TEST(Utf8, CleanReplacesInvalidAndDropsNul) {
    EXPECT_TRUE(valid_utf8("caf\xc3\xa9"));
    EXPECT_FALSE(valid_utf8("caf\xe9"));
    EXPECT_FALSE(valid_utf8(std::string("a\0b", 3)));
    EXPECT_EQ(clean_utf8("caf\xe9!"), "caf\xef\xbf\xbd!");
    EXPECT_EQ(clean_utf8(std::string("a\0b", 3)), "ab");
    EXPECT_EQ(clean_utf8("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");          // overlong
    EXPECT_EQ(clean_utf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // surrogate
    std::string fffd = "\xef\xbf\xbd";
    EXPECT_EQ(clean_utf8("\xf4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
    EXPECT_EQ(clean_utf8("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");  // cut short at the end
}

// Whatever the bytes, the cleaned string is valid UTF-8 and keeps every valid character.
TEST(Utf8, CleanIsAlwaysValid) {
    std::mt19937 rng(7);
    for (int round = 0; round < 5000; round++) {
        std::string s(rng() % 40, '\0');
        for (auto& c : s) c = static_cast<char>(rng());
        std::string c = clean_utf8(s);
        EXPECT_TRUE(valid_utf8(c));
        EXPECT_EQ(clean_utf8(c), c);
    }
}

TEST(Copy, Escapes) {
    std::string out;
    copy_field(std::string("a\\b\tc\nd\re"), out);
    EXPECT_EQ(out, "a\\\\b\\tc\\nd\\re");
    out.clear();
    copy_field(std::nullopt, out);
    EXPECT_EQ(out, "\\N");
    out.clear();
    copy_field(std::string("\\N"), out);  // the text \N, not NULL
    EXPECT_EQ(out, "\\\\N");
}

TEST(Json, EscapesAndCleans) {
    JsonObject o;
    o.add("a\"b", std::string_view("x\ny\x01\xe9")).add("n", int64_t(-5)).add("t", true);
    EXPECT_EQ(o.str(), "{\"a\\\"b\": \"x\\ny\\u0001\xef\xbf\xbd\", \"n\": -5, \"t\": true}");
    EXPECT_EQ(JsonObject().str(), "{}");
    const char* id = "<x@y>";
    EXPECT_EQ(JsonObject().add("id", id).str(), "{\"id\": \"<x@y>\"}");
}

TEST(Time, IsoTimeKeepsMicroseconds) {
    EXPECT_EQ(iso_time(0, 0), "1970-01-01 00:00:00.000000+00");
    EXPECT_EQ(iso_time(1700000000, 123456789), "2023-11-14 22:13:20.123456+00");
    EXPECT_EQ(hash_hex(1, 0xabcdef), "00000000000000010000000000abcdef");
}
