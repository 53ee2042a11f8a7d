// corpus_reader.cpp
//    Reads the shipped sample and the evaluation corpus for the unit tests: gzip through the gzip program (no zlib needed),
//    and just enough JSON to take the "id" and "text" strings of each flat object line.
#include "corpus_reader.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ndd_test {

namespace {

bool is_dir(const std::string& p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Directory of the running test binary (build/ of the repository).
std::string exe_dir() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return ".";
    std::string p(buf, static_cast<size_t>(n));
    return p.substr(0, p.rfind('/'));
}

// Whole content of a file, gunzipped when its name ends in .gz.
std::string slurp(const std::string& path) {
    bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
    std::string cmd = (gz ? "gzip -dc < '" : "cat < '") + path + "'";
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) throw std::runtime_error("cannot read " + path);
    std::string out;
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    if (pclose(f) != 0) throw std::runtime_error("cannot read " + path);
    return out;
}

// Appends code point cp as UTF-8.
void put_utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (cp >> 18));
        s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Minimal JSON reader over one line.
struct Json {
    const std::string& s;
    size_t i;
    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    }
    void expect(char c) {
        ws();
        if (i >= s.size() || s[i] != c) throw std::runtime_error("bad JSON");
        i++;
    }
    unsigned hex4() {
        if (i + 4 > s.size()) throw std::runtime_error("bad JSON escape");
        unsigned v = static_cast<unsigned>(std::stoul(s.substr(i, 4), nullptr, 16));
        i += 4;
        return v;
    }
    std::string str() {
        expect('"');
        std::string out;
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c != '\\') {
                out += c;
                continue;
            }
            char e = s[i++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    unsigned cp = hex4();
                    if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
                        i += 2;
                        unsigned lo = hex4();
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    put_utf8(out, cp);
                    break;
                }
                default: out += e;
            }
        }
        i++;
        return out;
    }
    // Skips any value that is not a string.
    void skip() {
        ws();
        int depth = 0;
        while (i < s.size()) {
            char c = s[i];
            if (c == '"') {
                str();
                if (depth == 0) return;
                continue;
            }
            if (c == '{' || c == '[') depth++;
            if (c == '}' || c == ']') {
                if (depth == 0) return;
                depth--;
            }
            if (c == ',' && depth == 0) return;
            i++;
        }
    }
};

// Splits s at sep.
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
        if (p == std::string::npos) return out;
        start = p + 1;
    }
}

}  // namespace

std::string sample_file(const std::string& name) {
    std::string p = exe_dir() + "/../test/data/" + name;
    struct stat st;
    if (stat(p.c_str(), &st) != 0) throw std::runtime_error("shipped sample file missing: " + p);
    return p;
}

bool corpus_available() {
    const char* env = std::getenv("NDD_CORPUS_DIR");
    if (!env || !*env) return false;
    if (!is_dir(env)) throw std::runtime_error(std::string("NDD_CORPUS_DIR is not a directory: ") + env);
    return true;
}

std::string corpus_file(const std::string& relpath) {
    if (!corpus_available()) throw std::runtime_error("evaluation corpus not present: set NDD_CORPUS_DIR");
    return std::string(std::getenv("NDD_CORPUS_DIR")) + "/" + relpath;
}

std::vector<Doc> read_docs(const std::string& path) {
    std::string all = slurp(path);
    std::vector<Doc> docs;
    std::istringstream in(all);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        Json j{line, 0};
        Doc d;
        j.expect('{');
        for (;;) {
            j.ws();
            if (line[j.i] == '}') break;
            std::string key = j.str();
            j.expect(':');
            j.ws();
            if (line[j.i] == '"') {
                std::string v = j.str();
                if (key == "id") d.id = v;
                if (key == "text") d.text = v;
            } else {
                j.skip();
            }
            j.ws();
            if (line[j.i] == ',') j.i++;
        }
        docs.push_back(std::move(d));
    }
    return docs;
}

std::vector<TruthPair> read_pairs(const std::string& path) {
    std::string all = slurp(path);
    std::vector<TruthPair> pairs;
    std::istringstream in(all);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::vector<std::string> f = split(line, '\t');
        if (f.size() < 10) throw std::runtime_error("bad ground-truth line: " + line);
        TruthPair p{f[0], f[1], f[2], std::stol(f[3]), std::stol(f[4]), std::stol(f[5]),
                    std::stol(f[6]), std::stol(f[7]), f[8].empty() ? -1 : std::stol(f[8])};
        pairs.push_back(std::move(p));
    }
    return pairs;
}

std::map<std::string, size_t> index_by_id(const std::vector<Doc>& docs) {
    std::map<std::string, size_t> m;
    for (size_t i = 0; i < docs.size(); i++) m[docs[i].id] = i;
    return m;
}

}  // namespace ndd_test
