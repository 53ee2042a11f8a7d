// jaccard_pairs.cpp
//    Exact all-pairs resemblance and containment: LSH bands for candidates (resemblance), prefix
//    filtering (containment), and merge verification on 128-bit shingle hashes. See
//    jaccard_pairs_api.h for the method and its guarantees.
#include "jaccard_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "hashing.hpp"
#include "minhash.hpp"
#include "similarity.hpp"
#include "tokenize.hpp"

namespace ndd {

double band_miss_probability(double s, int bands, int rows) {
    double sr = std::pow(s, rows);
    if (sr >= 1.0) return 0.0;
    // (1 - s^r)^b through log1p: s^r can be far below the double epsilon of 1 - s^r.
    return std::exp(static_cast<double>(bands) * std::log1p(-sr));
}

namespace {

// Candidates verified per call of next() at most, so that the caller regains control (to store
// results, check interrupts, report progress) every few milliseconds even when few qualify.
constexpr size_t kCandidatesPerCall = size_t(1) << 16;

// Integral over [0, t] of the candidate probability 1 - (1 - s^r)^b (Simpson's rule; the
// integrand is smooth, 400 intervals are far more precise than the comparison needs).
double false_candidate_area(double t, int bands, int rows) {
    constexpr int kSteps = 400;
    double h = t / kSteps, sum = 0;
    for (int i = 0; i <= kSteps; i++) {
        double f = 1.0 - band_miss_probability(h * i, bands, rows);
        sum += f * (i == 0 || i == kSteps ? 1 : (i % 2 ? 4 : 2));
    }
    return sum * h / 3;
}

}  // namespace

Banding choose_bands(double threshold, int hashes, double max_miss) {
    if (!(threshold > 0 && threshold <= 1)) throw InvalidArgument("threshold out of range");
    if (hashes < 1 || hashes > NDD_JACCARD_MAX_HASHES) throw InvalidArgument("hashes out of range");
    if (!(max_miss > 0 && max_miss < 1)) throw InvalidArgument("miss bound out of range");
    Banding best{0, 0, 1.0, std::numeric_limits<double>::infinity()};
    for (int r = 1; r <= hashes; r++) {
        double tr = std::pow(threshold, r);
        int b;
        if (tr >= 1.0) {
            b = 1;  // t = 1: pairs at the threshold have equal sketches, so equal keys in every band
        } else {
            double l = std::log1p(-tr);
            if (l == 0) break;  // t^r below double precision: more rows only get worse
            double need = std::ceil(std::log(max_miss) / l);
            if (need > hashes / r) continue;  // this r cannot reach the bound with its bands
            b = std::max(1, static_cast<int>(need));
        }
        double miss = band_miss_probability(threshold, b, r);
        // the ceiling can land a hair above the bound in floating point: take one band more
        while (miss > max_miss && (b + 1) * r <= hashes) miss = band_miss_probability(threshold, ++b, r);
        if (miss > max_miss) continue;
        double area = false_candidate_area(threshold, b, r);
        if (area < best.fp_area) best = Banding{b, r, miss, area};
    }
    if (best.bands == 0) throw InvalidArgument("no banding reaches the miss bound");
    return best;
}

void band_keys(const uint64_t* sketch, int bands, int rows, uint64_t* keys) {
    unsigned char buf[8 * NDD_JACCARD_MAX_HASHES];
    for (int j = 0; j < bands; j++) {
        for (int i = 0; i < rows; i++) store_le64(sketch[j * rows + i], buf + 8 * i);
        keys[j] = XXH3_64bits_withSeed(buf, 8 * static_cast<size_t>(rows),
                                       kBandSeed + (static_cast<uint64_t>(rows) << 16) + static_cast<uint64_t>(j));
    }
}

size_t sorted_intersection(const ShingleHash* a, size_t na, const ShingleHash* b, size_t nb, size_t need) {
    size_t i = 0, j = 0, inter = 0;
    while (i < na && j < nb) {
        if (inter + std::min(na - i, nb - j) < need) return inter;  // cannot reach need any more
        if (a[i] < b[j])
            i++;
        else if (b[j] < a[i])
            j++;
        else {
            inter++;
            i++;
            j++;
        }
    }
    return inter;
}

JaccardJob::JaccardJob(int measure, double threshold, int shingle, int hashes, double max_miss, Tokenizer tokenizer)
    : measure_(measure), threshold_(threshold), shingle_(shingle), tokenizer_(tokenizer), hashes_(hashes) {
    if (measure != NDD_MEASURE_JACCARD && measure != NDD_MEASURE_CONTAINMENT) throw InvalidArgument("measure");
    if (!(threshold > 0 && threshold <= 1)) throw InvalidArgument("threshold out of range");
    if (shingle < 1) throw InvalidArgument("shingle size must be at least 1");
    if (measure == NDD_MEASURE_JACCARD) banding_ = choose_bands(threshold, hashes, max_miss);
}

void JaccardJob::add(int64_t id, const char* text, size_t len, const uint64_t* given, InterruptPoller& poller) {
    if (started_) throw InvalidArgument("documents must be added before the pass");
    if (ids_.size() >= std::numeric_limits<uint32_t>::max() - 1) throw InvalidArgument("too many documents");
    TokenStream ts;
    ts.tokenize(text, len, poller, tokenizer_);
    size_t base = sets_.size();
    for_each_shingle(ts, shingle_, poller, [&](std::string_view s) {
        sets_.push_back(ShingleHash{hash64(s, kFeatureSeed), hash64(s, kVerifySeed)});
    });
    std::sort(sets_.begin() + base, sets_.end());
    sets_.erase(std::unique(sets_.begin() + base, sets_.end()), sets_.end());
    if (measure_ == NDD_MEASURE_JACCARD) {
        // The sketch is shingle_minhash(text, shingle, hashes) exactly (same feature hashes), so
        // these keys equal ndd_jaccard_bands() of the stored sketch. A sketch given by the caller
        // only chooses candidates: verification is from the text either way.
        std::vector<uint64_t> sketch;
        if (!given) {
            // A minimum over a multiset is the minimum over its distinct values, and the band keys
            // read positions below bands * rows only: so the permutations fold the document's
            // distinct feature hashes (the set's h1, sorted, repeats skipped) into the positions
            // the keys use, the same values as the full sketch's there, for a fraction of the work
            // (the minhash was 29 % of the instructions of a 20,000-document call).
            distinct_h1_.clear();
            for (size_t i = base; i < sets_.size(); i++)
                if (i == base || sets_[i].h1 != sets_[i - 1].h1) distinct_h1_.push_back(sets_[i].h1);
            size_t used = static_cast<size_t>(banding_.bands) * static_cast<size_t>(banding_.rows);
            sketch.resize(used);
            minhash_of_hashes(distinct_h1_.data(), distinct_h1_.size(), used, sketch.data(), poller);
            given = sketch.data();
        }
        size_t at = keys_.size();
        keys_.resize(at + banding_.bands);
        band_keys(given, banding_.bands, banding_.rows, keys_.data() + at);
    }
    offsets_.push_back(sets_.size());
    ids_.push_back(id);
}

size_t JaccardJob::bytes() const {
    size_t held = ids_.capacity() * sizeof(int64_t) + offsets_.capacity() * sizeof(uint64_t) +
                  sets_.capacity() * sizeof(ShingleHash) + keys_.capacity() * sizeof(uint64_t);
    size_t pass = measure_ == NDD_MEASURE_JACCARD ? ids_.size() * sizeof(Entry)
                                                  : sets_.size() * sizeof(Entry) + ids_.size() * 8;
    return held + pass;
}

NddJaccardDoc JaccardJob::doc(size_t d) const {
    if (d >= ids_.size()) throw InvalidArgument("no such document");
    NddJaccardDoc out{};
    out.id = ids_[d];
    out.set = reinterpret_cast<const uint64_t*>(set_of(static_cast<uint32_t>(d)));
    out.nset = set_size(static_cast<uint32_t>(d));
    if (measure_ == NDD_MEASURE_JACCARD) {
        out.keys = keys_.data() + d * banding_.bands;
        out.nkeys = banding_.bands;
    } else {
        out.prefix = out.nset == 0 ? 0 : out.nset - min_intersection(out.nset) + 1;
    }
    return out;
}

void JaccardJob::clear() {
    if (started_) throw InvalidArgument("documents must be cleared before the pass");
    std::vector<int64_t>().swap(ids_);
    std::vector<uint64_t>{0}.swap(offsets_);
    std::vector<ShingleHash>().swap(sets_);
    std::vector<uint64_t>().swap(keys_);
}

bool JaccardJob::band_candidate(uint32_t x, uint32_t y, int band) const {
    const uint64_t* kx = keys_.data() + static_cast<size_t>(x) * banding_.bands;
    const uint64_t* ky = keys_.data() + static_cast<size_t>(y) * banding_.bands;
    return ndd_jaccard_band_candidate(x, y, band, kx, ky, band) != 0;
}

bool JaccardJob::verify_sets(int64_t idx, const ShingleHash* x, size_t sx, int64_t idy, const ShingleHash* y,
                             size_t sy, NddJaccardResult* out) const {
    // Size filters, exact in floating point: J <= min/max and a_in_b <= |B|/|A|, and division
    // rounds monotonically, so a rounded bound below t implies a rounded measure below t.
    if (measure_ == NDD_MEASURE_JACCARD) {
        size_t lo = std::min(sx, sy), hi = std::max(sx, sy);
        if (hi > 0 && static_cast<double>(lo) / static_cast<double>(hi) < threshold_) return false;
    } else if (sy < sx && static_cast<double>(sy) / static_cast<double>(sx) < threshold_) {
        return false;
    }
    // Only the pairs that reach the threshold need their exact count: the merge stops once the
    // shingles left cannot lift the intersection to the least one that qualifies.
    size_t need = measure_ == NDD_MEASURE_JACCARD ? min_jaccard_intersection(sx, sy) : min_intersection(sx);
    if (need == SIZE_MAX) return false;
    ShingleOverlap o{sx, sy, sorted_intersection(x, sx, y, sy, need)};
    if (measure_ == NDD_MEASURE_JACCARD) {
        double v = jaccard_of(o);
        if (v < threshold_) return false;
        *out = NddJaccardResult{std::min(idx, idy), std::max(idx, idy), v};
    } else {
        double v = containment_of(o);
        if (v < threshold_) return false;
        *out = NddJaccardResult{idx, idy, v};
    }
    return true;
}

size_t JaccardJob::min_intersection(size_t size_a) const {
    // the least m with m / |A| >= t as the double comparison containment() makes
    double a = static_cast<double>(size_a);
    size_t m = static_cast<size_t>(std::ceil(threshold_ * a));
    while (m > 1 && static_cast<double>(m - 1) / a >= threshold_) m--;
    while (m < size_a && static_cast<double>(m) / a < threshold_) m++;
    return std::max<size_t>(m, 1);
}

size_t JaccardJob::min_jaccard_intersection(size_t sa, size_t sb) const {
    // J(I) = I / (sa + sb - I) grows with I, and so does its rounded value: start from the real
    // solution of I / (sa + sb - I) = t and step to the least I that jaccard_of() accepts
    size_t lo = std::min(sa, sb);
    if (sa + sb == 0) return 0;  // two empty sets: J = 1
    auto ok = [&](size_t i) { return jaccard_of(ShingleOverlap{sa, sb, i}) >= threshold_; };
    size_t i = static_cast<size_t>(std::ceil(threshold_ * static_cast<double>(sa + sb) / (1 + threshold_)));
    i = std::min(i, lo);
    while (i > 0 && ok(i - 1)) i--;
    while (i <= lo && !ok(i)) i++;
    return i <= lo ? i : SIZE_MAX;
}

size_t JaccardJob::next(NddJaccardResult* out, size_t cap, bool& done, InterruptPoller& poller) {
    done = false;
    if (cap == 0) throw InvalidArgument("empty batch");
    return measure_ == NDD_MEASURE_JACCARD ? next_jaccard(out, cap, done, poller)
                                           : next_containment(out, cap, done, poller);
}

size_t JaccardJob::next_jaccard(NddJaccardResult* out, size_t cap, bool& done, InterruptPoller& poller) {
    const size_t bands = static_cast<size_t>(banding_.bands);
    const size_t ndocs = ids_.size();
    auto load_band = [&] {
        entries_.resize(ndocs);
        for (size_t d = 0; d < ndocs; d++) entries_[d] = Entry{keys_[d * bands + band_], static_cast<uint32_t>(d)};
        poller.check();
        std::sort(entries_.begin(), entries_.end(),
                  [](const Entry& p, const Entry& q) { return p.key != q.key ? p.key < q.key : p.doc < q.doc; });
        run_begin_ = run_end_ = 0;
    };
    if (!started_) {
        started_ = true;
        band_ = 0;
        if (band_ < bands) load_band();
    }
    size_t n = 0, work = 0;
    while (band_ < bands) {
        while (run_begin_ < entries_.size()) {
            if (run_end_ <= run_begin_) {
                run_end_ = run_begin_ + 1;
                while (run_end_ < entries_.size() && entries_[run_end_].key == entries_[run_begin_].key) run_end_++;
                x_ = run_begin_;
                y_ = x_ + 1;
            }
            while (x_ < run_end_) {
                while (y_ < run_end_) {
                    if (n == cap || ++work > kCandidatesPerCall) return n;
                    poller.tick();
                    uint32_t dx = entries_[x_].doc, dy = entries_[y_].doc;
                    y_++;
                    if (band_candidate(dx, dy, static_cast<int>(band_)) && verify(dx, dy, out + n)) n++;
                }
                x_++;
                y_ = x_ + 1;
            }
            run_begin_ = run_end_;
        }
        band_++;
        if (band_ < bands) load_band();
    }
    entries_.clear();
    entries_.shrink_to_fit();
    done = true;
    return n;
}

size_t JaccardJob::next_containment(NddJaccardResult* out, size_t cap, bool& done, InterruptPoller& poller) {
    const size_t ndocs = ids_.size();
    if (!started_) {
        started_ = true;
        entries_.resize(sets_.size());
        for (size_t d = 0; d < ndocs; d++)
            for (uint64_t i = offsets_[d]; i < offsets_[d + 1]; i++)
                entries_[i] = Entry{sets_[i].h1, static_cast<uint32_t>(d)};
        poller.check();
        std::sort(entries_.begin(), entries_.end(),
                  [](const Entry& p, const Entry& q) { return p.key != q.key ? p.key < q.key : p.doc < q.doc; });
        index_docs_.assign(ndocs, 0);  // stamp: last A (plus one) that took this document as candidate
        doc_ = 0;
        cands_ready_ = false;
        empty_pos_ = 0;
    }
    size_t n = 0, work = 0;
    while (doc_ < ndocs) {
        uint32_t a = static_cast<uint32_t>(doc_);
        size_t sa = set_size(a);
        if (sa == 0) {
            // the empty set is contained in every set: containment() is 1 for every other document
            while (empty_pos_ < ndocs) {
                if (n == cap) return n;
                size_t b = empty_pos_++;
                if (b != a) out[n++] = NddJaccardResult{ids_[a], ids_[b], 1.0};
            }
            empty_pos_ = 0;
            doc_++;
            continue;
        }
        if (!cands_ready_) {
            // Any p elements of A will do; the rarest (fewest documents in the index) give the
            // fewest candidates, so boilerplate shingles shared by thousands of documents are
            // looked at only when A has little else (AllPairs' document-frequency order).
            size_t p = sa - min_intersection(sa) + 1;
            const ShingleHash* set = set_of(a);
            postings_.clear();
            for (size_t i = 0; i < sa; i++) {
                poller.tick();
                auto range = std::equal_range(entries_.begin(), entries_.end(), Entry{set[i].h1, 0},
                                              [](const Entry& e, const Entry& f) { return e.key < f.key; });
                postings_.push_back({static_cast<size_t>(range.first - entries_.begin()),
                                     static_cast<size_t>(range.second - range.first)});
            }
            auto rarer = [](const Posting& u, const Posting& v) { return u.count < v.count; };
            if (p < postings_.size()) std::nth_element(postings_.begin(), postings_.begin() + (p - 1), postings_.end(), rarer);
            cands_.clear();
            for (size_t i = 0; i < p; i++) {
                for (size_t e = postings_[i].begin; e < postings_[i].begin + postings_[i].count; e++) {
                    poller.tick();
                    uint32_t d = entries_[e].doc;
                    if (!ndd_containment_candidate(a, 1, d) || index_docs_[d] == a + 1) continue;
                    index_docs_[d] = a + 1;
                    cands_.push_back(d);
                }
            }
            cand_pos_ = 0;
            cands_ready_ = true;
        }
        while (cand_pos_ < cands_.size()) {
            if (n == cap || ++work > kCandidatesPerCall) return n;
            poller.tick();
            if (verify(a, cands_[cand_pos_++], out + n)) n++;
        }
        cands_ready_ = false;
        doc_++;
    }
    entries_.clear();
    entries_.shrink_to_fit();
    done = true;
    return n;
}

// The disk path's records, by (hi, lo).
NddStatus sort_by_hi_lo(NddJaccardRecord* records, size_t n) {
    return guarded([&] {
        std::sort(records, records + n, [](const NddJaccardRecord& p, const NddJaccardRecord& q) {
            return p.hi != q.hi ? p.hi < q.hi : p.lo < q.lo;
        });
    });
}

}  // namespace ndd

struct NddJaccardJob {
    ndd::JaccardJob job;
};

extern "C" {

int ndd_jaccard_band_candidate(uint32_t x, uint32_t y, int band, const uint64_t* keys_x, const uint64_t* keys_y,
                               int known) {
    if (x == y) return 0;
    int earlier = band < known ? band : known;
    for (int j = 0; j < earlier; j++)
        if (keys_x[j] == keys_y[j]) return 0;
    return 1;
}

int ndd_containment_candidate(uint32_t a, int in_prefix, uint32_t b) { return in_prefix && a != b ? 1 : 0; }

NddStatus ndd_jaccard_choose_bands(double threshold, int hashes, double max_miss, int* bands, int* rows,
                                   double* miss) {
    return ndd::guarded([&] {
        ndd::Banding b = ndd::choose_bands(threshold, hashes, max_miss);
        *bands = b.bands;
        *rows = b.rows;
        *miss = b.miss;
    });
}

NddStatus ndd_jaccard_band_keys(const uint64_t* sketch, int hashes, int bands, int rows, uint64_t* keys) {
    return ndd::guarded([&] {
        if (bands < 1 || rows < 1 || hashes > NDD_JACCARD_MAX_HASHES ||
            static_cast<long>(bands) * rows > hashes)
            throw ndd::InvalidArgument("bands * rows exceeds the sketch");
        ndd::band_keys(sketch, bands, rows, keys);
    });
}

NddStatus ndd_jaccard_job_create(int measure, double threshold, int shingle, int hashes, double max_miss,
                                 int32_t tokenizer, NddJaccardJob** job) {
    *job = nullptr;
    return ndd::guarded([&] {
        *job = new NddJaccardJob{
            ndd::JaccardJob(measure, threshold, shingle, hashes, max_miss, ndd::tokenizer_of(tokenizer))};
    });
}

void ndd_jaccard_job_free(NddJaccardJob* job) { delete job; }

NddStatus ndd_jaccard_job_add(NddJaccardJob* job, int64_t id, const char* text, size_t len,
                              const uint64_t* sketch, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        ndd::InterruptPoller poller(interrupt);
        job->job.add(id, text, len, sketch, poller);
    });
}

size_t ndd_jaccard_job_count(const NddJaccardJob* job) { return job->job.count(); }

NddStatus ndd_jaccard_job_doc(const NddJaccardJob* job, size_t d, NddJaccardDoc* out) {
    return ndd::guarded([&] { *out = job->job.doc(d); });
}

NddStatus ndd_jaccard_job_clear(NddJaccardJob* job) {
    return ndd::guarded([&] { job->job.clear(); });
}

NddStatus ndd_jaccard_verify(const NddJaccardJob* job, int64_t ida, const uint64_t* seta, size_t na, int64_t idb,
                             const uint64_t* setb, size_t nb, NddJaccardResult* out, int* qualifies) {
    *qualifies = 0;
    return ndd::guarded([&] {
        // the sets are ndd_jaccard_job_doc()'s layout: (h1, h2) pairs, which is ShingleHash's
        static_assert(sizeof(ndd::ShingleHash) == 2 * sizeof(uint64_t), "ShingleHash is two words");
        *qualifies = job->job.verify_sets(ida, reinterpret_cast<const ndd::ShingleHash*>(seta), na, idb,
                                          reinterpret_cast<const ndd::ShingleHash*>(setb), nb, out)
                         ? 1 : 0;
    });
}

NddStatus ndd_jaccard_sort_records(NddJaccardRecord* records, size_t n) { return ndd::sort_by_hi_lo(records, n); }

size_t ndd_jaccard_job_bytes(const NddJaccardJob* job) { return job->job.bytes(); }

NddStatus ndd_jaccard_job_next(NddJaccardJob* job, NddJaccardResult* out, size_t cap, size_t* n, int* done,
                               size_t* progress, size_t* total, NddInterruptFn interrupt) {
    *n = 0;
    *done = 0;
    return ndd::guarded([&] {
        ndd::InterruptPoller poller(interrupt);
        bool finished = false;
        *n = job->job.next(out, cap, finished, poller);
        *done = finished ? 1 : 0;
        if (progress) *progress = job->job.progress();
        if (total) *total = job->job.total();
    });
}

}  // extern "C"
