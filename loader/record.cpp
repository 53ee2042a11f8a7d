// record.cpp
//    Documents, their frames between processes, COPY text and JSON (record.hpp).
#include "record.hpp"

#include <cstdio>
#include <cstring>
#include <ctime>

namespace ndd_load {

namespace {

// The fields of a document in frame order.
constexpr int kFields = 11;

void put_u64(uint64_t v, std::string& out) {
    for (int i = 0; i < 8; i++) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

bool get_u64(std::string_view buf, size_t& pos, uint64_t& v) {
    if (buf.size() - pos < 8) return false;
    v = 0;
    for (int i = 0; i < 8; i++) v |= static_cast<uint64_t>(static_cast<unsigned char>(buf[pos + i])) << (8 * i);
    pos += 8;
    return true;
}

void put_field(const std::optional<std::string>& f, std::string& out) {
    out.push_back(f ? 1 : 0);
    if (f) {
        put_u64(f->size(), out);
        out += *f;
    }
}

// Reads one optional field; false when the frame is cut short or malformed.
bool get_field(std::string_view buf, size_t& pos, size_t max_field, std::optional<std::string>& f) {
    if (pos >= buf.size()) return false;
    unsigned char present = static_cast<unsigned char>(buf[pos++]);
    if (present > 1) return false;
    if (!present) {
        f.reset();
        return true;
    }
    uint64_t len;
    if (!get_u64(buf, pos, len) || len > max_field || len > buf.size() - pos) return false;
    f = std::string(buf.substr(pos, len));
    pos += len;
    return true;
}

// Length of the UTF-8 sequence at s[i], 0 if invalid (overlong forms, surrogates and values past
// U+10FFFF are invalid, as PostgreSQL's verifier says).
size_t utf8_sequence(std::string_view s, size_t i) {
    auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    unsigned char c = b(0);
    if (c < 0x80) return 1;
    size_t n = s.size() - i;
    auto cont = [&](size_t k) { return k < n && (b(k) & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
        if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
        if (c == 0xF4 && b(1) >= 0x90) return 0;  // past U+10FFFF
        return 4;
    }
    return 0;
}

}  // namespace

void frame_document(const Document& doc, std::string& out) {
    out.push_back(static_cast<char>(FrameKind::Document));
    std::optional<std::string> size;
    if (doc.size) size = std::to_string(*doc.size);
    const std::optional<std::string>* fields[kFields] = {&doc.member, &doc.format, &size,     &doc.hash,
                                                         &doc.modified, &doc.title, &doc.text, &doc.html,
                                                         &doc.meta,   &doc.error,  &doc.uri};
    for (auto* f : fields) put_field(*f, out);
}

void frame_starting(std::string_view member, std::string& out) {
    out.push_back(static_cast<char>(FrameKind::Starting));
    put_field(std::string(member), out);
}

bool FrameReader::next(Document& doc) {
    while (pos_ < buf_.size() && !truncated_) {
        size_t start = pos_;
        char kind = buf_[pos_++];
        if (kind == static_cast<char>(FrameKind::Starting)) {
            std::optional<std::string> member;
            if (!get_field(buf_, pos_, max_field_, member) || !member) return damaged(start);
            started_.emplace_back(std::move(*member), documents_);
        } else if (kind == static_cast<char>(FrameKind::Document)) {
            doc = Document();
            std::optional<std::string> size;
            std::optional<std::string>* fields[kFields] = {&doc.member, &doc.format, &size,     &doc.hash,
                                                           &doc.modified, &doc.title, &doc.text, &doc.html,
                                                           &doc.meta,   &doc.error,  &doc.uri};
            bool ok = true;
            for (auto* f : fields) ok = ok && get_field(buf_, pos_, max_field_, *f);
            if (ok && size) {
                char* end = nullptr;
                long long v = std::strtoll(size->c_str(), &end, 10);
                ok = !size->empty() && *end == '\0' && v >= 0;
                doc.size = v;
            }
            if (!ok) return damaged(start);
            if (!started_.empty() && doc.member == started_.back().first) started_.pop_back();
            documents_++;
            return true;
        } else {
            return damaged(start);
        }
    }
    return false;
}

bool valid_utf8(std::string_view s) {
    const size_t n = s.size();
    size_t i = 0;
    while (i < n) {
        // ASCII without NUL, the bulk of most pages, eight bytes at a time: no high bit, no zero byte
        while (i + 8 <= n) {
            uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            if ((w & 0x8080808080808080ULL) || ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL)) break;
            i += 8;
        }
        if (i >= n) break;
        size_t k = utf8_sequence(s, i);
        if (k == 0 || s[i] == '\0') return false;
        i += k;
    }
    return true;
}

std::string clean_utf8(std::string_view s) {
    if (valid_utf8(s)) return std::string(s);
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8_sequence(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            i++;
        } else {
            if (s[i] != '\0') out.append(s.data() + i, n);
            i += n;
        }
    }
    return out;
}

void copy_text(std::string_view s, std::string& out) {
    // the runs between characters to escape are appended whole
    size_t start = 0;
    for (size_t i = 0; i < s.size(); i++) {
        const char* escaped;
        switch (s[i]) {
            case '\\': escaped = "\\\\"; break;
            case '\n': escaped = "\\n"; break;
            case '\r': escaped = "\\r"; break;
            case '\t': escaped = "\\t"; break;
            default: continue;
        }
        out.append(s.data() + start, i - start);
        out.append(escaped, 2);
        start = i + 1;
    }
    out.append(s.data() + start, s.size() - start);
}

void copy_field(const std::optional<std::string>& s, std::string& out) {
    if (!s) {
        out += "\\N";
        return;
    }
    copy_text(*s, out);
}

std::string json_string(std::string_view raw) {
    std::string s = clean_utf8(raw);
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out.push_back(static_cast<char>(c));
                }
        }
    }
    out += '"';
    return out;
}

void JsonObject::key(std::string_view k) {
    if (!body_.empty()) body_ += ", ";
    body_ += json_string(k);
    body_ += ": ";
}

JsonObject& JsonObject::add(std::string_view k, std::string_view value) {
    key(k);
    body_ += json_string(value);
    return *this;
}

JsonObject& JsonObject::add(std::string_view k, int64_t value) {
    key(k);
    body_ += std::to_string(value);
    return *this;
}

JsonObject& JsonObject::add(std::string_view k, bool value) {
    key(k);
    body_ += value ? "true" : "false";
    return *this;
}

JsonObject& JsonObject::add_raw(std::string_view k, std::string_view json) {
    key(k);
    body_ += json;
    return *this;
}

std::string hash_hex(uint64_t high, uint64_t low) {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(high),
                  static_cast<unsigned long long>(low));
    return buf;
}

std::string iso_time(int64_t seconds, long nanoseconds) {
    time_t t = static_cast<time_t>(seconds);
    struct tm tm;
    if (!gmtime_r(&t, &tm)) return "1970-01-01 00:00:00+00";
    char buf[64];
    size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%06ld+00", nanoseconds / 1000);
    return buf;
}

}  // namespace ndd_load
