// core_throughput.cpp
//    Throughput of the fingerprint functions in the C++ core alone (through the same C entry points
//    the SQL layer calls), over the documents of a corpus file: MB of text per second on one core,
//    the median of several runs.
//
//    build/core_throughput [docs.jsonl.gz relative to the corpus dir] [runs]
//    (bench/fingerprint_throughput.sh builds and runs it; NDD_CORPUS_DIR as for the unit tests.)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "corpus_reader.hpp"
#include "fingerprint_api.h"

namespace {

// Runs f over every document `runs` times; prints and returns the median MB/s.
double measure(const char* name, const std::vector<ndd_test::Doc>& docs, int runs,
               const std::function<NddStatus(const std::string&)>& f) {
    size_t bytes = 0;
    for (const auto& d : docs) bytes += d.text.size();
    std::vector<double> rates;
    for (int r = 0; r < runs; r++) {
        auto t0 = std::chrono::steady_clock::now();
        for (const auto& d : docs) {
            if (f(d.text) != NDD_OK) {
                std::fprintf(stderr, "%s failed\n", name);
                std::exit(1);
            }
        }
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        rates.push_back(bytes / 1e6 / s);
    }
    std::sort(rates.begin(), rates.end());
    double med = rates[rates.size() / 2];
    std::printf("%-34s %8.1f MB/s   (median of %d runs; min %.1f, max %.1f)\n", name, med, runs, rates.front(),
                rates.back());
    std::fflush(stdout);
    return med;
}

void* plain_alloc(size_t n) { return std::malloc(n); }

}  // namespace

int main(int argc, char** argv) {
    std::string file = argc > 1 ? argv[1] : "dev/web.jsonl.gz";
    int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    std::vector<ndd_test::Doc> docs = ndd_test::read_docs(ndd_test::corpus_file(file));
    size_t bytes = 0;
    for (const auto& d : docs) bytes += d.text.size();
    std::printf("core throughput over %s: %zu documents, %.1f MB\n", file.c_str(), docs.size(), bytes / 1e6);

    uint64_t h;
    int64_t sketch[NDD_MAX_MINHASHES];
    NddFp128 fp;
    measure("tokens (ndd_tokens)", docs, runs, [&](const std::string& s) {
        NddTokens t;
        NddStatus st = ndd_fp_tokens(s.data(), s.size(), plain_alloc, &t, NDD_TOKENIZER_WORDS, nullptr);
        std::free(t.text);
        std::free(t.starts);
        return st;
    });
    measure("simhash(doc)", docs, runs,
            [&](const std::string& s) { return ndd_fp_simhash_text(s.data(), s.size(), 1, &h, NDD_TOKENIZER_WORDS, nullptr); });
    measure("simhash(doc, 4)", docs, runs,
            [&](const std::string& s) { return ndd_fp_simhash_text(s.data(), s.size(), 4, &h, NDD_TOKENIZER_WORDS, nullptr); });
    measure("simhash_chars(doc, 4)", docs, runs,
            [&](const std::string& s) { return ndd_fp_simhash_chars(s.data(), s.size(), 4, &h, NDD_TOKENIZER_WORDS, nullptr); });
    measure("shingle_minhash(doc, 4, 84)", docs, runs, [&](const std::string& s) {
        return ndd_fp_shingle_minhash(s.data(), s.size(), 4, 84, sketch, NDD_TOKENIZER_WORDS, nullptr);
    });
    measure("bitflip_fp(doc, 64, 128)", docs, runs,
            [&](const std::string& s) { return ndd_fp_bitflip_fp(s.data(), s.size(), 64, 128, &fp, nullptr); });
    measure("word_list_fingerprints(doc, 4)", docs, runs, [&](const std::string& s) {
        int32_t n;
        return ndd_fp_word_list_fingerprints(s.data(), s.size(), 4, sketch, &n, NDD_TOKENIZER_WORDS, nullptr);
    });
    measure("content_hash(doc)", docs, runs,
            [&](const std::string& s) { return ndd_fp_content_hash(s.data(), s.size(), &fp, NDD_TOKENIZER_WORDS, nullptr); });
    return 0;
}
