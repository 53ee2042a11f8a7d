/*
 * jaccard_spill.c
 *    The disk path of ndd_jaccard_pairs() and ndd_containment_pairs() (jaccard_pairs.c), taken
 *    once the documents' shingle sets outgrow maintenance_work_mem: the method of the core's
 *    in-memory pass (jaccard_pairs_api.h), its candidate rule and its verification, with every
 *    structure that grows with the collection in a temporary file or an external sort.
 */
#include "jaccard_pairs.h"

#include "miscadmin.h"
#include "storage/buffile.h"
#include "utils/memutils.h"

#include "jaccard_extsort.h"
#include "query_reader.h"

/*
 * The disk path, taken once the documents' shingle sets outgrow maintenance_work_mem. Same method
 * and same candidates as the core's in-memory pass (jaccard_pairs_api.h), with every structure that
 * grows with the collection on disk:
 *   - each document's sorted shingle-hash set is written once, in reading order, to a temporary
 *     BufFile; only its position, size and (resemblance) band-0 key stay in memory: 20 bytes per
 *     document, 28 with the id every path keeps (28 MB per million documents);
 *   - the (band key, band, document) entries, or for containment (hash, in prefix, document), go
 *     through an external sort (jaccard_extsort.c); runs of equal keys give the candidates. A pair sharing several bands
 *     would be a candidate in each (a cluster of k copies gives 27 * k^2 / 2 at t = 0.8); those
 *     that share band 0 are taken there only, which the band-0 keys in memory decide, and the
 *     other repeats are dropped after the candidates' sort;
 *   - candidates go through a second external sort ordered by (chunk of x, y, x), duplicates dropped: a
 *     chunk is a run of consecutive documents whose sets fill half the budget. Verification loads
 *     one chunk's sets (one sequential read), then reads each y's set in increasing file order, so
 *     the sets file is read once per chunk, forward, touching only the candidates' sets.
 * The core job accumulates a batch of documents (half the budget) and is emptied into the disk
 * structures each time it fills, so the core's memory stays bounded too. Both sorts get a quarter
 * of the budget each for their records (and an eighth for their files' buffers).
 */
struct JaccardSpill
{
	int			measure;
	BufFile    *sets;
	uint64	   *pos;			/* document's set in sets: fileno << 32 | offset */
	uint32	   *nset;			/* its number of 16-byte hashes */
	uint64	   *key0;			/* resemblance: its key of band 0 (see spill_pass) */
	size_t		cap;			/* elements allocated in pos and nset */
	size_t		ndocs;			/* documents written */
	size_t		flush_bytes;	/* empty the core job into the spill when it holds more */
	size_t		sort_bytes;		/* memory of each external sort's records */
	size_t		chunk_bytes;	/* sets held in memory during verification */
	uint32	   *df;				/* containment: count-min sketch of hash frequencies, DF_ROWS rows */
	int			df_bits;		/* log2 of its counters per row */
	JaccardExtSort *entries;	/* (key, tag << 32 | document) */
	MemoryContext cxt;
};

/* An entry of the first sort: ordered by (key, tag, document), as the runs need. */
static inline void
entry_put(JaccardSpill *sp, uint64 key, uint32 tag, uint32 doc)
{
	ndd_extsort_put(sp->entries, key, ((uint64) tag << 32) | doc);
}

/*
 * Containment on disk: which p hashes of A form its prefix. Any p of them are exact; the rarest
 * give the fewest candidates (a boilerplate shingle in the prefix of many documents makes every
 * pair of them a candidate). The in-memory pass knows every frequency; on disk a count-min sketch
 * of the frequencies seen so far estimates them (each batch is counted before its prefixes are
 * chosen, so the first batch, the size of the budget, sees its own boilerplate).
 */
#define DF_ROWS 4

static inline size_t
df_slot(const JaccardSpill *sp, uint64 h, int row)
{
	static const uint64 mult[DF_ROWS] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL,
	0x165667B19E3779F9ULL, 0xD6E8FEB86659FD93ULL};

	return ((size_t) row << sp->df_bits) + (size_t) ((h * mult[row]) >> (64 - sp->df_bits));
}

static uint32
df_estimate(const JaccardSpill *sp, uint64 h)
{
	uint32		est = PG_UINT32_MAX;

	for (int r = 0; r < DF_ROWS; r++)
		est = Min(est, sp->df[df_slot(sp, h, r)]);
	return est;
}

typedef struct DfRank
{
	uint32		df;
	uint32		i;
} DfRank;

static int
df_rank_cmp(const void *a, const void *b)
{
	const DfRank *x = a,
			   *y = b;

	if (x->df != y->df)
		return x->df < y->df ? -1 : 1;
	return x->i < y->i ? -1 : (x->i > y->i ? 1 : 0);
}

JaccardSpill *
ndd_jaccard_spill_begin(MemoryContext cxt, int measure)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	JaccardSpill *sp = palloc0(sizeof(JaccardSpill));
	size_t		budget = ndd_input_budget();

	sp->cxt = cxt;
	sp->measure = measure;
	sp->sets = BufFileCreateTemp(false);
	sp->flush_bytes = budget / 2;
	sp->chunk_bytes = Max(budget / 2, 64 * 1024);
	sp->sort_bytes = Max(budget / 4, 64 * 1024);
	if (measure == NDD_MEASURE_CONTAINMENT)
	{
		/* an eighth of the budget for the frequency sketch */
		sp->df_bits = 10;
		while (sp->df_bits < 28 && ((size_t) DF_ROWS * sizeof(uint32) << (sp->df_bits + 1)) <= budget / 8)
			sp->df_bits++;
		sp->df = MemoryContextAllocExtended(cxt, (size_t) DF_ROWS * sizeof(uint32) << sp->df_bits,
										   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	}
	MemoryContextSwitchTo(old);
	sp->entries = ndd_extsort_begin(cxt, sp->sort_bytes);
	return sp;
}

/* Moves every document the core job holds into the spill, and empties the job. */
void
ndd_jaccard_spill_flush(JaccardSpill *sp, NddJaccardJob *job, const char *fname)
{
	size_t		count = ndd_jaccard_job_count(job);
	DfRank	   *rank = NULL;
	size_t		rank_cap = 0;

	if (sp->measure == NDD_MEASURE_CONTAINMENT)
	{
		/* count the batch's hashes first, so that its prefixes see its own frequencies */
		for (size_t d = 0; d < count; d++)
		{
			NddJaccardDoc doc;

			CHECK_FOR_INTERRUPTS();
			ndd_raise_status(ndd_jaccard_job_doc(job, d, &doc), fname);
			for (size_t i = 0; i < doc.nset; i++)
				for (int r = 0; r < DF_ROWS; r++)
				{
					uint32	   *c = &sp->df[df_slot(sp, doc.set[2 * i], r)];

					if (*c < PG_UINT32_MAX)
						(*c)++;
				}
		}
	}
	for (size_t d = 0; d < count; d++)
	{
		NddJaccardDoc doc;
		int			fileno;
		off_t		offset;
		int32		g;

		CHECK_FOR_INTERRUPTS();
		ndd_raise_status(ndd_jaccard_job_doc(job, d, &doc), fname);
		if (sp->ndocs >= (size_t) PG_INT32_MAX || doc.nset > PG_UINT32_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s supports at most %d documents of at most %u distinct shingles each",
							fname, PG_INT32_MAX, PG_UINT32_MAX)));
		if (sp->ndocs == sp->cap)
		{
			size_t		cap = Max(1024, sp->cap * 2);

			sp->pos = sp->pos ? repalloc_huge(sp->pos, cap * sizeof(uint64))
				: MemoryContextAllocHuge(sp->cxt, cap * sizeof(uint64));
			sp->nset = sp->nset ? repalloc_huge(sp->nset, cap * sizeof(uint32))
				: MemoryContextAllocHuge(sp->cxt, cap * sizeof(uint32));
			sp->key0 = sp->key0 ? repalloc_huge(sp->key0, cap * sizeof(uint64))
				: MemoryContextAllocHuge(sp->cxt, cap * sizeof(uint64));
			sp->cap = cap;
		}
		g = (int32) sp->ndocs++;
		BufFileTell(sp->sets, &fileno, &offset);
		sp->pos[g] = ((uint64) fileno << 32) | (uint64) offset;
		sp->nset[g] = (uint32) doc.nset;
		if (doc.nset > 0)
			BufFileWrite(sp->sets, (void *) doc.set, doc.nset * 2 * sizeof(uint64));
		if (sp->measure == NDD_MEASURE_JACCARD)
		{
			sp->key0[g] = doc.keys[0];
			for (int j = 0; j < doc.nkeys; j++)
				entry_put(sp, doc.keys[j], (uint32) j, (uint32) g);
		}
		else
		{
			/* every hash, tagged 1 when it is one of the prefix that finds the pairs of g */
			if (doc.nset > rank_cap)
			{
				rank_cap = Max(doc.nset, 2 * rank_cap);
				if (rank)
					pfree(rank);
				rank = MemoryContextAllocHuge(sp->cxt, rank_cap * sizeof(DfRank));
			}
			for (size_t i = 0; i < doc.nset; i++)
				rank[i] = (DfRank) {df_estimate(sp, doc.set[2 * i]), (uint32) i};
			if (doc.prefix < doc.nset)
				qsort(rank, doc.nset, sizeof(DfRank), df_rank_cmp);
			for (size_t k = 0; k < doc.nset; k++)
				entry_put(sp, doc.set[2 * rank[k].i], k < doc.prefix ? 1 : 0, (uint32) g);
		}
	}
	if (rank)
		pfree(rank);
	ndd_raise_status(ndd_jaccard_job_clear(job), fname);
}

/* A candidate of the second sort: ordered by (chunk of x, y, x), as verification reads them. */
static inline void
cand_put(JaccardExtSort *cands, int32 c, uint32 y, uint32 x)
{
	ndd_extsort_put(cands, ((uint64) c << 32) | y, x);
}

/* Reads document d's set (nset[d] * 16 bytes) from the sets file into buf. */
static void
spill_read_set(JaccardSpill *sp, size_t d, void *buf)
{
	size_t		bytes = (size_t) sp->nset[d] * 2 * sizeof(uint64);

	if (bytes == 0)
		return;
	if (BufFileSeek(sp->sets, (int) (sp->pos[d] >> 32), (off_t) (sp->pos[d] & PG_UINT32_MAX), SEEK_SET) != 0 ||
		BufFileRead(sp->sets, buf, bytes) != bytes)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the shingle set of a document from a temporary file: %m")));
}

/* The chunk of document d: the last chunk starting at or before it. */
static int32
chunk_of(const uint32 *chunk_first, int32 nchunks, uint32 d)
{
	int32		lo = 0,
				hi = nchunks - 1;

	while (lo < hi)
	{
		int32		mid = lo + (hi - lo + 1) / 2;

		if (chunk_first[mid] <= d)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * The pass of the disk path: candidates from the sorted entries, then verification chunk by chunk.
 * Returns the number of pairs stored.
 */
uint64
ndd_jaccard_spill_pass(JaccardSpill *sp, NddJaccardJob *job, const int64 *ids, ReturnSetInfo *rsinfo, const char *fname,
		   TimestampTz *last)
{
	size_t		ndocs = sp->ndocs;
	uint32	   *chunk_first = NULL;
	int32		nchunks = 0;
	size_t		acc = 0;
	JaccardExtSort *cands;
	NddJaccardRecord rec;
	uint32	   *run = NULL;
	bool	   *run_flag = NULL;
	size_t		run_n = 0,
				run_cap = 0;
	uint64		run_key = 0;
	uint32		run_tag = 0;
	uint64		key;
	uint32		tag,
				doc,
				y,
				x;
	int32		c;
	uint64		nentries = 0,
				ncands = 0,
				npairs = 0;
	bool		more;
	char	   *chunk_buf = NULL;
	size_t	   *chunk_off = NULL;
	int32		loaded = -1;
	char	   *ybuf = NULL;
	size_t		ybuf_size = 0;
	int64		prev_c = -1;
	int64		prev_y = -1,
				prev_x = -1;
	const char *ys = NULL;

	/* chunks: consecutive documents whose sets fill chunk_bytes (at least one document each) */
	/* (counted first: an array per chunk, not per document) */
	for (int pass = 0; pass < 2; pass++)
	{
		if (pass == 1)
			chunk_first = MemoryContextAllocHuge(sp->cxt, ((size_t) nchunks + 1) * sizeof(uint32));
		nchunks = 0;
		acc = 0;
		for (size_t d = 0; d < ndocs; d++)
		{
			size_t		bytes = (size_t) sp->nset[d] * 16;

			if (d == 0 || acc + bytes > sp->chunk_bytes)
			{
				if (pass == 1)
					chunk_first[nchunks] = (uint32) d;
				nchunks++;
				acc = 0;
			}
			acc += bytes;
		}
	}
	chunk_first[nchunks] = (uint32) ndocs;

	/* candidates: every pair in a run of equal entries, through the second sort */
	ereport(DEBUG1, (errmsg("%s: %zu documents on disk, sorting their entries", fname, ndocs)));
	ndd_extsort_performsort(sp->entries);
	cands = ndd_extsort_begin(sp->cxt, sp->sort_bytes);
	do
	{
		bool		same;

		more = ndd_extsort_next(sp->entries, &rec);
		key = rec.hi;
		tag = (uint32) (rec.lo >> 32);
		doc = (uint32) rec.lo;
		/* resemblance: a run is one (key, band); containment: one hash, whatever the tags */
		same = more && run_n > 0 && key == run_key &&
			(sp->measure != NDD_MEASURE_JACCARD || tag == run_tag);
		if (!same && run_n > 1)
		{
			for (size_t i = 0; i < run_n; i++)
			{
				for (size_t j = sp->measure == NDD_MEASURE_JACCARD ? i + 1 : 0; j < run_n; j++)
				{
					/*
					 * The core's rule. Resemblance: only band 0's keys are in memory, so a pair
					 * sharing band 0 is taken there only, and its repeats from later bands it
					 * shares are dropped after the candidates' sort.
					 */
					if (sp->measure == NDD_MEASURE_JACCARD ?
						!ndd_jaccard_band_candidate(run[i], run[j], run_tag, &sp->key0[run[i]],
													&sp->key0[run[j]], 1) :
						!ndd_containment_candidate(run[i], run_flag[i], run[j]))
						continue;
					cand_put(cands, chunk_of(chunk_first, nchunks, run[i]), run[j], run[i]);
					if ((++ncands & 0xFFFF) == 0)
					{
						CHECK_FOR_INTERRUPTS();
						ndd_jaccard_progress(last, fname, "candidates: entry", nentries, 0, 0);
					}
				}
			}
		}
		if (!same)
			run_n = 0;
		if (!more)
			break;
		if (run_n == run_cap)
		{
			run_cap = Max(64, run_cap * 2);
			run = run ? repalloc_huge(run, run_cap * sizeof(uint32))
				: MemoryContextAllocHuge(sp->cxt, run_cap * sizeof(uint32));
			run_flag = run_flag ? repalloc_huge(run_flag, run_cap * sizeof(bool))
				: MemoryContextAllocHuge(sp->cxt, run_cap * sizeof(bool));
		}
		run_key = key;
		run_tag = tag;
		run[run_n] = doc;
		run_flag[run_n++] = tag != 0;
		if ((++nentries & 0xFFFF) == 0)
		{
			CHECK_FOR_INTERRUPTS();
			ndd_jaccard_progress(last, fname, "candidates: entry", nentries, 0, 0);
		}
	} while (true);
	ndd_extsort_end(sp->entries);
	sp->entries = NULL;

	/* verification: (chunk of x, y, x) in order; x's chunk in memory, y read forward */
	ereport(DEBUG1, (errmsg("%s: " UINT64_FORMAT " candidates in %d chunks", fname, ncands, nchunks)));
	ndd_extsort_performsort(cands);
	while (ndd_extsort_next(cands, &rec))
	{
		const char *xs;
		NddJaccardResult r;
		int			ok;

		c = (int32) (rec.hi >> 32);
		y = (uint32) rec.hi;
		x = (uint32) rec.lo;

		if (c == prev_c && y == prev_y && x == prev_x)
			continue;			/* the same candidate from another band or hash */
		if (c != loaded)
		{
			size_t		first = chunk_first[c],
						end = chunk_first[c + 1],
						bytes = 0;

			CHECK_FOR_INTERRUPTS();
			ndd_jaccard_progress(last, fname, "verifying: chunk", (size_t) c + 1, (size_t) nchunks, npairs);
			if (chunk_buf)
				pfree(chunk_buf);
			if (chunk_off)
				pfree(chunk_off);
			chunk_off = MemoryContextAllocHuge(sp->cxt, (end - first + 1) * sizeof(size_t));
			for (size_t d = first; d < end; d++)
			{
				chunk_off[d - first] = bytes;
				bytes += (size_t) sp->nset[d] * 16;
			}
			chunk_off[end - first] = bytes;
			chunk_buf = MemoryContextAllocHuge(sp->cxt, Max(bytes, 16));
			/* the chunk's sets are consecutive in the file: one read */
			if (bytes > 0)
			{
				if (BufFileSeek(sp->sets, (int) (sp->pos[first] >> 32),
								(off_t) (sp->pos[first] & PG_UINT32_MAX), SEEK_SET) != 0 ||
					BufFileRead(sp->sets, chunk_buf, bytes) != bytes)
					ereport(ERROR,
							(errcode_for_file_access(),
							 errmsg("could not read shingle sets from a temporary file: %m")));
			}
			loaded = c;
			prev_y = -1;
		}
		if (y != prev_y)
		{
			if ((uint32) y >= chunk_first[c] && (uint32) y < chunk_first[c + 1])
				ys = chunk_buf + chunk_off[y - chunk_first[c]];
			else
			{
				size_t		bytes = (size_t) sp->nset[y] * 16;

				if (bytes > ybuf_size)
				{
					ybuf_size = Max(bytes, 2 * ybuf_size);
					if (ybuf)
						pfree(ybuf);
					ybuf = MemoryContextAllocHuge(sp->cxt, ybuf_size);
				}
				spill_read_set(sp, y, ybuf);
				ys = ybuf;
			}
		}
		prev_c = c;
		prev_y = y;
		prev_x = x;
		xs = chunk_buf + chunk_off[x - chunk_first[c]];
		ndd_raise_status(ndd_jaccard_verify(job, ids[x], (const uint64_t *) xs, sp->nset[x], ids[y],
											(const uint64_t *) ys, sp->nset[y], &r, &ok),
						 fname);
		if (ok)
		{
			ndd_jaccard_put_pair(rsinfo, &r);
			npairs++;
		}
		if ((++nentries & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	ndd_extsort_end(cands);

	/* containment of an empty set is 1 in every other document (as the in-memory pass says) */
	if (sp->measure == NDD_MEASURE_CONTAINMENT)
	{
		for (size_t a = 0; a < ndocs; a++)
		{
			if (sp->nset[a] != 0)
				continue;
			for (size_t b = 0; b < ndocs; b++)
			{
				NddJaccardResult r = {ids[a], ids[b], 1.0};

				if (b == a)
					continue;
				ndd_jaccard_put_pair(rsinfo, &r);
				npairs++;
				if ((npairs & 0xFFFF) == 0)
					CHECK_FOR_INTERRUPTS();
			}
		}
	}
	BufFileClose(sp->sets);
	sp->sets = NULL;
	return npairs;
}

size_t
ndd_jaccard_spill_flush_bytes(const JaccardSpill *sp)
{
	return sp->flush_bytes;
}
