// bench/html_extract.cpp: ndd_html_content and ndd_html_text of the C++ core on HTML files, without
// PostgreSQL, through the same C entry point the SQL functions call (html_api.h), with the
// simhash(text, 4) of each result as the SQL function computes it (ndd_fp_simhash_text, tokenizer
// 'words'). The development loop of main-content extraction: bench/quality/realpages.sh runs it on
// the real pages of /work/webdev-data in seconds and scores the outputs (realpages_score.py).
//
// Build (from the repository root; bench/quality/realpages.sh does it, recompiling only what changed):
//   mkdir -p build && g++ -O2 -std=c++17 -Isrc/core $(xml2-config --cflags) -o build/html_extract \
//       bench/html_extract.cpp src/core/*.cpp -lxxhash -licuuc -lxml2 -luriparser -lidn2
//
// Usage:
//   html_extract [-o DIR] [-r RUNS] FILE...
//       For each FILE (HTML, UTF-8): its main content and its whole text; with -o, written to
//       DIR/<name>.content.txt and DIR/<name>.text.txt (<name>: the file's name without directory
//       and without its last extension). One TSV line per file on stdout:
//         name  html_bytes  content_cpu_s  content_bytes  content_simhash  text_bytes  text_simhash  fallback
//       content_cpu_s is the CPU time of ndd_html_content alone (the minimum over RUNS runs, default 1);
//       fallback is 1 when the content is the whole text (no main content found). Simhashes are
//       16 hex digits, as simhash64 prints in SQL.
//   html_extract -s FILE...
//       simhash(text, 4) of each file read as plain text: "name  simhash" lines (the reference
//       texts and the peers' outputs, hashed exactly as the extension hashes).
#include <time.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fingerprint_api.h"
#include "html_api.h"
#include "tokenizer_api.h"

namespace {

std::string slurp(const char* path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "html_extract: cannot read %s\n", path);
        std::exit(2);
    }
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string name_of(const std::string& path) {
    size_t slash = path.find_last_of('/');
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    size_t dot = base.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

double cpu_now() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

void* plain_alloc(size_t n) { return std::malloc(n); }

std::string extract(const std::string& html, NddHtmlMode mode, const char* file) {
    char* buf = nullptr;
    size_t len = 0;
    NddStatus st = ndd_html_extract(html.data(), html.size(), mode, 0, plain_alloc, &buf, &len, nullptr);
    if (st != NDD_OK) {
        std::fprintf(stderr, "html_extract: %s: ndd_html_extract failed with status %d\n", file, static_cast<int>(st));
        std::exit(1);
    }
    std::string out(buf, len);
    std::free(buf);
    return out;
}

std::string simhash_hex(const std::string& text, const char* file) {
    uint64_t fp = 0;
    if (ndd_fp_simhash_text(text.data(), text.size(), 4, &fp, NDD_TOKENIZER_WORDS, nullptr) != NDD_OK) {
        std::fprintf(stderr, "html_extract: %s: simhash failed\n", file);
        std::exit(1);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016" PRIx64, fp);
    return hex;
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) {
        std::fprintf(stderr, "html_extract: cannot write %s\n", path.c_str());
        std::exit(2);
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string outdir;
    int runs = 1;
    bool simhash_only = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!std::strcmp(argv[i], "-o") && i + 1 < argc) {
            outdir = argv[++i];
        } else if (!std::strcmp(argv[i], "-r") && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "-s")) {
            simhash_only = true;
        } else {
            std::fprintf(stderr, "usage: html_extract [-o DIR] [-r RUNS] FILE... | html_extract -s FILE...\n");
            return 2;
        }
    }
    for (; i < argc; i++) {
        const char* file = argv[i];
        std::string html = slurp(file), name = name_of(file);
        if (simhash_only) {
            std::printf("%s\t%s\n", name.c_str(), simhash_hex(html, file).c_str());
            continue;
        }
        std::string content;
        double best = 1e30;
        for (int r = 0; r < runs; r++) {
            double t0 = cpu_now();
            content = extract(html, NDD_HTML_CONTENT, file);
            best = std::min(best, cpu_now() - t0);
        }
        std::string text = extract(html, NDD_HTML_TEXT, file);
        if (!outdir.empty()) {
            write_file(outdir + "/" + name + ".content.txt", content);
            write_file(outdir + "/" + name + ".text.txt", text);
        }
        std::printf("%s\t%zu\t%.6f\t%zu\t%s\t%zu\t%s\t%d\n", name.c_str(), html.size(), best, content.size(),
                    simhash_hex(content, file).c_str(), text.size(), simhash_hex(text, file).c_str(),
                    content == text ? 1 : 0);
    }
    return 0;
}
