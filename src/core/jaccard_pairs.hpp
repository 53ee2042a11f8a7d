// jaccard_pairs.hpp
//    The core of ndd_jaccard_pairs / ndd_containment_pairs (see jaccard_pairs_api.h for the method):
//    band selection, band keys, per-document shingle-hash sets, and the resumable pass that hands
//    out verified pairs in batches.
#ifndef NDD_JACCARD_PAIRS_HPP
#define NDD_JACCARD_PAIRS_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "guard.hpp"
#include "jaccard_pairs_api.h"
#include "tokenize.hpp"

namespace ndd {

struct Banding {
    int bands;
    int rows;
    double miss;      // (1 - t^rows)^bands
    double fp_area;   // integral over [0, t] of 1 - (1 - s^rows)^bands
};

// Probability that two documents of resemblance s share no band key.
double band_miss_probability(double s, int bands, int rows);

// The banding of jaccard_pairs_api.h; throws InvalidArgument when none reaches max_miss.
Banding choose_bands(double threshold, int hashes, double max_miss);

// keys[0..bands) of a sketch.
void band_keys(const uint64_t* sketch, int bands, int rows, uint64_t* keys);

// A 128-bit shingle hash: (feature hash, verification hash), ordered lexicographically.
struct ShingleHash {
    uint64_t h1;
    uint64_t h2;
    bool operator<(const ShingleHash& o) const { return h1 != o.h1 ? h1 < o.h1 : h2 < o.h2; }
    bool operator==(const ShingleHash& o) const { return h1 == o.h1 && h2 == o.h2; }
};

// |A n B| of two sorted, duplicate-free hash sets, by merging; stops early, returning some value
// below need, as soon as the elements left cannot bring the count to need (0: always exact).
size_t sorted_intersection(const ShingleHash* a, size_t na, const ShingleHash* b, size_t nb, size_t need = 0);

class JaccardJob {
public:
    JaccardJob(int measure, double threshold, int shingle, int hashes, double max_miss,
               Tokenizer tokenizer = Tokenizer::Words);

    // sketch: hashes_ minhash values given by the caller (a stored shingle_minhash), or null to
    // compute them from the text.
    void add(int64_t id, const char* text, size_t len, const uint64_t* sketch, InterruptPoller& poller);
    size_t bytes() const;
    size_t count() const { return ids_.size(); }
    // Document d as held: its id, set, band keys (resemblance) and prefix length (containment).
    NddJaccardDoc doc(size_t d) const;
    // Drops every document held and frees their memory (the caller has spilled them).
    void clear();
    // verify() on sets held by the caller; x's measure in containment.
    bool verify_sets(int64_t idx, const ShingleHash* x, size_t sx, int64_t idy, const ShingleHash* y, size_t sy,
                     NddJaccardResult* out) const;
    // Fills out[0..cap); returns the count; sets done when every pair has been handed out.
    size_t next(NddJaccardResult* out, size_t cap, bool& done, InterruptPoller& poller);
    size_t progress() const { return measure_ == NDD_MEASURE_JACCARD ? band_ : doc_; }
    size_t total() const { return measure_ == NDD_MEASURE_JACCARD ? banding_.bands : ids_.size(); }
    const Banding& banding() const { return banding_; }

private:
    size_t set_size(uint32_t d) const { return offsets_[d + 1] - offsets_[d]; }
    const ShingleHash* set_of(uint32_t d) const { return sets_.data() + offsets_[d]; }
    bool band_candidate(uint32_t x, uint32_t y, int band) const;  // ndd_jaccard_band_candidate
    // Verifies one candidate and appends it to out when it qualifies; x's measure in containment.
    bool verify(uint32_t x, uint32_t y, NddJaccardResult* out) const {
        return verify_sets(ids_[x], set_of(x), set_size(x), ids_[y], set_of(y), set_size(y), out);
    }
    size_t next_jaccard(NddJaccardResult* out, size_t cap, bool& done, InterruptPoller& poller);
    size_t next_containment(NddJaccardResult* out, size_t cap, bool& done, InterruptPoller& poller);
    size_t min_intersection(size_t size_a) const;
    // The least |A n B| with jaccard_of() >= threshold for these set sizes, or SIZE_MAX if none.
    size_t min_jaccard_intersection(size_t sa, size_t sb) const;

    int measure_;
    double threshold_;
    int shingle_;
    Tokenizer tokenizer_;
    int hashes_;
    Banding banding_{};

    std::vector<int64_t> ids_;
    std::vector<uint64_t> offsets_{0};   // document d's set is sets_[offsets_[d] .. offsets_[d+1])
    std::vector<ShingleHash> sets_;
    std::vector<uint64_t> keys_;         // document d's band keys at keys_[d * bands ..]
    std::vector<uint64_t> distinct_h1_;  // add(): the document's distinct feature hashes (reused)

    // Resumable state of the pass.
    bool started_ = false;
    struct Entry {
        uint64_t key;
        uint32_t doc;
    };
    std::vector<Entry> entries_;   // resemblance: one band's (key, doc), sorted
    size_t band_ = 0;              // current band
    size_t run_begin_ = 0, run_end_ = 0, x_ = 0, y_ = 0;
    // containment: entries_ holds the index of all (h1, doc), sorted; index_docs_ stamps the
    // documents already taken as candidates of the current one
    std::vector<uint32_t> index_docs_;
    size_t doc_ = 0;
    std::vector<uint32_t> cands_;
    struct Posting {
        size_t begin;  // first entry of the shingle in entries_
        size_t count;  // its document frequency (entries with its feature hash)
    };
    std::vector<Posting> postings_;  // the current document's shingles in the index
    size_t cand_pos_ = 0;
    bool cands_ready_ = false;
    size_t empty_pos_ = 0;
};

}  // namespace ndd

#endif  // NDD_JACCARD_PAIRS_HPP
