// corpus_reader.hpp
//    Test helper: reads the evaluation corpus (../shared/corpus beside the repository, or
//    $NDD_CORPUS_DIR): documents from .jsonl.gz and ground-truth pairs from .pairs.k*.tsv[.gz].
//    A missing corpus is a test failure, not a skip: CI always has it.
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

// The corpus directory; throws std::runtime_error when it cannot be found.
std::string corpus_dir();

// Documents of a .jsonl or .jsonl.gz file (path relative to corpus_dir()).
std::vector<Doc> read_docs(const std::string& relpath);

// Ground truth of a .tsv or .tsv.gz file (path relative to corpus_dir()).
std::vector<TruthPair> read_pairs(const std::string& relpath);

// id -> index into docs.
std::map<std::string, size_t> index_by_id(const std::vector<Doc>& docs);

}  // namespace ndd_test

#endif  // NDD_TEST_CORPUS_READER_HPP
