/*
 * jaccard_pairs_api.h
 *    Every pair of documents whose word-shingle sets have Jaccard resemblance >= t (or containment
 *    a_in_b >= t), answered exactly, and the LSH band keys that find them.
 *
 * Bands. A minhash sketch of h positions is cut into b bands of r rows (b * r <= h). Two documents
 * of resemblance s agree on one band with probability s^r, so they share at least one band key with
 * probability P(s) = 1 - (1 - s^r)^b. ndd_jaccard_choose_bands picks, among all (b, r) with
 * b * r <= h whose miss probability at the threshold (1 - t^r)^b is at most max_miss, the one with
 * the least false-candidate area, the integral of P(s) over [0, t] (datasketch's criterion); for
 * each r the smallest such b is the best, so the search is over r only.
 *
 * Candidates and verification (ndd_jaccard_job_*). Each document is tokenized and shingled once;
 * the job keeps its distinct shingles as sorted 128-bit hashes (two independent XXH3 hashes) and
 * its b band keys. For each band in turn, (key, document) entries are sorted and documents inside a
 * run of equal keys are candidates; a pair is verified only in the first band whose keys it shares
 * (decided by comparing the two documents' earlier keys), so each pair is verified and reported
 * once. Verification merges the two sorted hash sets: the exact |A n B| unless two different
 * shingles of the collection share a 128-bit hash (probability below N^2 / 2^129 for N distinct
 * shingles: 1.5e-21 for a billion), so the value equals jaccard()/containment() in SQL.
 *
 * Containment (a_in_b = |A n B| / |A| >= t) is not symmetric and minhash bands on resemblance do
 * not bound it (a small A inside a large B has a tiny resemblance). It is answered by prefix
 * filtering instead, which is exact: if |A n B| >= m then any p = |A| - m + 1 elements of A include
 * one of B. Every document's shingle hashes are indexed; for each A the first p of its sorted
 * hashes are looked up and every document holding one of them is verified.
 *
 * Memory: 16 bytes per distinct shingle per document, 8 * b bytes of band keys per document, and
 * during the pass 16 bytes per document (one band's entries) for resemblance, or 12 bytes per
 * distinct shingle per document (the index) for containment. ndd_jaccard_job_bytes reports the
 * total so the caller can stop at its memory limit. Results are handed out in batches of the
 * caller's size, so the caller can store them and check for interrupts between batches.
 *
 * Beyond its memory limit the caller runs the same method on disk with the pieces below (the core
 * does no I/O): it takes each document the job holds (ndd_jaccard_job_doc: set, band keys, and for
 * containment the prefix length p: any p of A's hashes find every B, the caller picks which) and
 * frees them (ndd_jaccard_job_clear), sorts the (band key, band, document) or (hash, in prefix,
 * document) entries externally, takes the candidates from runs of equal keys, and verifies each
 * with ndd_jaccard_verify, the verification of the in-memory pass. For resemblance the candidates
 * are exactly those of the in-memory pass (documents sharing a key of the same band); for
 * containment they may differ (another choice of prefix) but both include every qualifying pair;
 * so the pairs are the same.
 */
#ifndef NDD_JACCARD_PAIRS_API_H
#define NDD_JACCARD_PAIRS_API_H

#include "ndd_status.h"
#include "tokenizer_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest supported sketch for banding (the minhash limit). */
#define NDD_JACCARD_MAX_HASHES 1024

/* Default bound on the probability of missing a pair exactly at the threshold. */
#define NDD_JACCARD_DEFAULT_MISS 1e-6

typedef enum NddJaccardMeasure
{
	NDD_MEASURE_JACCARD = 0,	/* |A n B| / |A u B|, pairs (a, b) with a < b */
	NDD_MEASURE_CONTAINMENT = 1 /* |A n B| / |A|, ordered pairs (a, b), a != b */
} NddJaccardMeasure;

/* One reported pair and its exact measure. */
typedef struct NddJaccardResult
{
	int64_t		a;
	int64_t		b;
	double		value;
} NddJaccardResult;

/*
 * The bands (*bands, *rows) for threshold t in (0, 1] and a sketch of `hashes` positions, with
 * miss probability at t at most max_miss (in (0, 1)); *miss receives the probability. Returns
 * NDD_INVALID_ARGUMENT when no banding reaches max_miss with this many hashes (t too low).
 */
NDD_API NddStatus ndd_jaccard_choose_bands(double threshold, int hashes, double max_miss,
										   int *bands, int *rows, double *miss);

/*
 * keys[0..bands) = the band keys of a sketch: key j = XXH3 of positions j*rows .. (j+1)*rows - 1
 * (8 little-endian bytes each), seeded with the band number and the row count, so that keys of
 * different bands or bandings never meet. bands * rows <= hashes.
 */
NDD_API NddStatus ndd_jaccard_band_keys(const uint64_t *sketch, int hashes, int bands, int rows,
										uint64_t *keys);

typedef struct NddJaccardJob NddJaccardJob;

/*
 * A job for one collection: measure, threshold in (0, 1], shingle size >= 1, sketch size (used for
 * resemblance only), miss bound and tokenizer (tokenizer_api.h). Fails with NDD_INVALID_ARGUMENT when no banding reaches the
 * bound.
 */
NDD_API NddStatus ndd_jaccard_job_create(int measure, double threshold, int shingle, int hashes,
										 double max_miss, int32_t tokenizer, NddJaccardJob **job);

/* Frees a job (NULL is allowed). Never fails. */
NDD_API void ndd_jaccard_job_free(NddJaccardJob *job);

/*
 * Adds one document (UTF-8 text). Documents are added before the first ndd_jaccard_job_next. sketch
 * (resemblance only; NULL to compute it) is the document's minhash sketch of the job's size, as
 * shingle_minhash stores it: it chooses the candidates only, verification is from the text.
 */
NDD_API NddStatus ndd_jaccard_job_add(NddJaccardJob *job, int64_t id, const char *text, size_t len,
									  const uint64_t *sketch, NddInterruptFn interrupt);

/* Number of documents the job holds. */
NDD_API size_t ndd_jaccard_job_count(const NddJaccardJob *job);

/* One document as the job holds it; the pointers stay valid until the job changes. */
typedef struct NddJaccardDoc
{
	int64_t		id;
	const uint64_t *set;		/* nset sorted distinct 128-bit shingle hashes, as (h1, h2) pairs */
	size_t		nset;
	const uint64_t *keys;		/* resemblance: the nkeys band keys, key j of band j */
	int			nkeys;
	size_t		prefix;			/* containment: how many of A's hashes (any of them) find every B */
} NddJaccardDoc;

NDD_API NddStatus ndd_jaccard_job_doc(const NddJaccardJob *job, size_t d, NddJaccardDoc *out);

/* Drops (and frees) every document held, before the pass. */
NDD_API NddStatus ndd_jaccard_job_clear(NddJaccardJob *job);

/*
 * Verifies one candidate given by its two sets (layout of NddJaccardDoc.set): *qualifies = 1 and
 * *out filled when its measure reaches the threshold (for containment, a's share in b).
 */
NDD_API NddStatus ndd_jaccard_verify(const NddJaccardJob *job, int64_t ida, const uint64_t *seta, size_t na,
									 int64_t idb, const uint64_t *setb, size_t nb, NddJaccardResult *out,
									 int *qualifies);

/*
 * The candidate rule of resemblance, in memory and on disk: documents x and y met in a run of equal
 * keys of band `band` are a candidate there when they are two documents and share no key of an
 * earlier band, where they were a candidate already; so each pair is verified in the first band
 * whose key it shares. keys_x and keys_y are the first `known` band keys of x and y: all of the
 * earlier ones (known >= band) in memory; a caller that keeps fewer (the disk path keeps band 0's)
 * meets a pair again in a later band and drops the repeats itself.
 */
NDD_API int ndd_jaccard_band_candidate(uint32_t x, uint32_t y, int band, const uint64_t *keys_x,
									   const uint64_t *keys_y, int known);

/*
 * The candidate rule of containment: an entry of document a's hash and an entry of document b's
 * same hash make (a, b) a candidate when a != b and a's entry is one of the prefix that finds a's
 * pairs (in_prefix; NddJaccardDoc.prefix).
 */
NDD_API int ndd_containment_candidate(uint32_t a, int in_prefix, uint32_t b);

/*
 * A record of the disk path's external sorts (the caller's jaccard_extsort.c): an entry (band key,
 * band, document and band-0 key packed, or hash; prefix tag << 40 | document) or a candidate
 * (window << 40 | y; x), a document named by its position in the caller's file.
 */
typedef struct NddJaccardRecord
{
	uint64_t	hi;
	uint64_t	lo;
} NddJaccardRecord;

/* Sorts records in memory by (hi, lo). */
NDD_API NddStatus ndd_jaccard_sort_records(NddJaccardRecord *records, size_t n);

/* Bytes the job holds now, and an estimate of what its pass will add. */
NDD_API size_t ndd_jaccard_job_bytes(const NddJaccardJob *job);

/*
 * Up to cap results into out (fewer, even none, when a slice of the work is done: call again);
 * *n receives their number and *done 1 once every pair has been
 * handed out. *progress and *total (may be NULL) say how far the pass is (bands or documents).
 */
NDD_API NddStatus ndd_jaccard_job_next(NddJaccardJob *job, NddJaccardResult *out, size_t cap,
									   size_t *n, int *done, size_t *progress, size_t *total,
									   NddInterruptFn interrupt);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_JACCARD_PAIRS_API_H */
