// tokenizer_units.cpp
//    How the 'unicode' tokenizer should cut ideographs, kana and Hangul (doc/tokenizers.md), measured
//    on the real documents of test/data/scripts.jsonl and their 2 % edited copies
//    (scripts.edits.jsonl): for each language and each candidate, the Jaccard resemblance of word
//    4-shingles between a document and its copy, how often simhash (words; 4-shingles) stays within
//    3 bits, and how many pairs that are NOT a document and its copy reach J >= 0.8 (false
//    positives). Candidates: 'words' (today), and 'unicode' with single characters (Unicode), with
//    overlapping bigrams (UnicodeBigrams) and with ICU's dictionary words (UnicodeDictionary).
//    Also: tokenizing speed of each, and what caching ICU's BreakIterator saves.
//
//    bench/tokenizer_units.sh builds and runs it.
#include <unicode/ubrk.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "../test/unit/corpus_reader.hpp"
#include "popcount.h"
#include "simhash.hpp"
#include "similarity.hpp"
#include "tokenize.hpp"
#include "word_breaks.hpp"

namespace {

struct Candidate {
    const char* name;
    ndd::Tokenizer tokenizer;
};

const Candidate kCandidates[] = {
    {"words", ndd::Tokenizer::Words},
    {"unicode: single characters", ndd::Tokenizer::Unicode},
    {"unicode: bigrams", ndd::Tokenizer::UnicodeBigrams},
    {"unicode: ICU dictionary words", ndd::Tokenizer::UnicodeDictionary},
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir = argc > 1 ? argv[1] : "test/data";
    auto docs = ndd_test::read_docs(dir + "/scripts.jsonl");
    auto copies = ndd_test::read_docs(dir + "/scripts.edits.jsonl");
    std::map<std::string, std::vector<std::pair<const ndd_test::Doc*, const ndd_test::Doc*>>> by_lang;
    auto index = ndd_test::index_by_id(docs);
    for (const auto& c : copies) {
        std::string of = c.id.substr(0, c.id.size() - 5);  // "<id>~copy"
        by_lang[of.substr(0, 2)].push_back({&docs[index.at(of)], &c});
    }
    ndd::InterruptPoller poller(nullptr);
    std::printf("%-4s %-30s %5s %8s %8s %8s %8s %8s %10s\n", "lang", "tokenizer", "docs", "tok/doc", "meanJ",
                "J>=0.8", "sh1<=3", "sh4<=3", "false J>=.8");
    for (const auto& [lang, pairs] : by_lang) {
        for (const auto& cand : kCandidates) {
            // every document and copy of the language, tokenized once
            std::vector<ndd::TokenStream> streams(2 * pairs.size());
            std::vector<uint64_t> sh1(streams.size()), sh4(streams.size());
            size_t tokens = 0;
            for (size_t i = 0; i < pairs.size(); i++) {
                const ndd_test::Doc* d[2] = {pairs[i].first, pairs[i].second};
                for (int k = 0; k < 2; k++) {
                    streams[2 * i + k].tokenize(d[k]->text.data(), d[k]->text.size(), poller, cand.tokenizer);
                    sh1[2 * i + k] = ndd::simhash_shingles(streams[2 * i + k], 1, poller);
                    sh4[2 * i + k] = ndd::simhash_shingles(streams[2 * i + k], 4, poller);
                }
                tokens += streams[2 * i].size();
            }
            double sumj = 0;
            int high = 0, near1 = 0, near4 = 0, false_high = 0;
            for (size_t i = 0; i < streams.size(); i++) {
                for (size_t j = i + 1; j < streams.size(); j++) {
                    double jac = ndd::jaccard_of(ndd::shingle_overlap(streams[i], streams[j], 4, poller));
                    bool copy = i % 2 == 0 && j == i + 1;
                    if (copy) {
                        sumj += jac;
                        high += jac >= 0.8;
                        near1 += ndd_popcount64(sh1[i] ^ sh1[j]) <= 3;
                        near4 += ndd_popcount64(sh4[i] ^ sh4[j]) <= 3;
                    } else if (jac >= 0.8) {
                        false_high++;
                    }
                }
            }
            double n = static_cast<double>(pairs.size());
            std::printf("%-4s %-30s %5zu %8.0f %8.3f %7.0f%% %7.0f%% %7.0f%% %10d\n", lang.c_str(), cand.name,
                        pairs.size(), tokens / n, sumj / n, 100 * high / n, 100 * near1 / n, 100 * near4 / n,
                        false_high);
        }
    }

    // Speed: MB/s of tokenizing every document, median of 5 runs.
    std::printf("\ntokenizing speed (every document of a language, median of 5 runs, MB/s)\n");
    for (const auto& [lang, pairs] : by_lang) {
        size_t bytes = 0;
        for (const auto& p : pairs) bytes += p.first->text.size();
        std::printf("%-4s", lang.c_str());
        for (const auto& cand : kCandidates) {
            std::vector<double> rates;
            for (int r = 0; r < 5; r++) {
                auto t0 = std::chrono::steady_clock::now();
                for (int rep = 0; rep < 5; rep++)
                    for (const auto& p : pairs) {
                        ndd::TokenStream ts;
                        ts.tokenize(p.first->text.data(), p.first->text.size(), poller, cand.tokenizer);
                    }
                rates.push_back(5 * bytes / 1e6 / seconds_since(t0));
            }
            std::sort(rates.begin(), rates.end());
            std::printf("  %s %.1f", cand.name, rates[2]);
        }
        std::printf("\n");
    }

    // What the per-thread iterator cache saves: opening a word BreakIterator for each short text
    // against taking the cached one.
    const char* text = "hello world";
    const int n = 2000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) {
        UErrorCode st = U_ZERO_ERROR;
        UBreakIterator* it = ubrk_open(UBRK_WORD, "", nullptr, 0, &st);
        UText* ut = utext_openUTF8(nullptr, text, 11, &st);
        ubrk_setUText(it, ut, &st);
        while (ubrk_next(it) != UBRK_DONE) {
        }
        ubrk_close(it);
        utext_close(ut);
    }
    double open_us = seconds_since(t0) / n * 1e6;
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) {
        ndd::WordBreaks wb(text, 11);
        while (wb.next() != SIZE_MAX) {
        }
    }
    double cached_us = seconds_since(t0) / n * 1e6;
    std::printf("\nword BreakIterator for an 11-byte text: opened each time %.1f us, cached per thread %.2f us "
                "(%.0fx); iterators created by the cache: %zu\n",
                open_us, cached_us, open_us / cached_us, ndd::word_break_iterators_created());
    return 0;
}
