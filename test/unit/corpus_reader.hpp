// corpus_reader.hpp
//    Test helper: reads documents (.jsonl[.gz]) and ground-truth pairs (.pairs.k*.tsv[.gz]) of the
//    sample shipped in test/data/ (always there: the tests that need real text use it) and of the
//    optional evaluation corpus in $NDD_CORPUS_DIR (extra cases; skipped with a message without it).
#ifndef NDD_TEST_CORPUS_READER_HPP
#define NDD_TEST_CORPUS_READER_HPP

#include <map>
#include <string>
#include <vector>

namespace ndd_test {

struct Doc {
    std::string id;
    std::string text;
};

// One ground-truth line: a b jaccard size_a size_b inter ntok_a ntok_b edit_dist edit_sim.
struct TruthPair {
    std::string a, b;
    std::string jaccard;  // as printed, 6 decimals
    long size_a, size_b, inter, ntok_a, ntok_b;
    long edit_dist;  // -1 when absent (pairs under 0.8)
};

// Path of a file of the shipped sample (test/data/ of the repository, found from the test binary).
std::string sample_file(const std::string& name);

// Whether $NDD_CORPUS_DIR names the evaluation corpus; throws std::runtime_error when it is set
// but is not a directory (asked for and missing is an error, not a skip).
bool corpus_available();

// Path of a file of the evaluation corpus (relative to $NDD_CORPUS_DIR).
std::string corpus_file(const std::string& relpath);

// Documents of a .jsonl or .jsonl.gz file.
std::vector<Doc> read_docs(const std::string& path);

// Ground truth of a .tsv or .tsv.gz file (the columns of TruthPair, one header line).
std::vector<TruthPair> read_pairs(const std::string& path);

// id -> index into docs.
std::map<std::string, size_t> index_by_id(const std::vector<Doc>& docs);

}  // namespace ndd_test

// First statement of a test that needs the evaluation corpus: without it the test is skipped,
// and the skip says why (gtest prints the message). Used by the gtest files only, which include gtest.
#define NDD_REQUIRE_CORPUS()                                                                     \
    do {                                                                                         \
        if (!ndd_test::corpus_available())                                                       \
            GTEST_SKIP() << "evaluation corpus not present (set NDD_CORPUS_DIR to run this test)"; \
    } while (0)

#endif  // NDD_TEST_CORPUS_READER_HPP
