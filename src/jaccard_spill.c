/*
 * jaccard_spill.c
 *    The disk path of ndd_jaccard_pairs() and ndd_containment_pairs() (jaccard_pairs.c), taken
 *    once the documents' shingle sets outgrow maintenance_work_mem: the method of the core's
 *    in-memory pass (jaccard_pairs_api.h), its candidate rule and its verification, with every
 *    structure that grows with the collection in a temporary file or an external sort.
 */
#include "jaccard_pairs.h"

#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/buffile.h"
#include "utils/memutils.h"

#include "jaccard_extsort.h"
#include "query_reader.h"

/*
 * The disk path, taken once the documents' shingle sets outgrow maintenance_work_mem. Same method
 * and same candidates as the core's in-memory pass (jaccard_pairs_api.h), with every structure that
 * grows with the collection on disk, so that its memory is bounded by maintenance_work_mem whatever
 * the number of documents:
 *   - each document is written once, in reading order, to a temporary BufFile: a 16-byte header
 *     (its id and its number of hashes) and its sorted shingle-hash set. Records are multiples of
 *     16 bytes, and a document is named by its record's position in 16-byte units (40 bits: 16 TB
 *     of sets); nothing is kept in memory per document;
 *   - the (band key, band, position, band-0 key) entries, or for containment (hash, in prefix,
 *     position), 16 bytes each, go through an external sort (jaccard_extsort.c); runs of equal
 *     keys give the candidates. A pair sharing several bands would be a candidate in each (a
 *     cluster of k copies gives 27 * k^2 / 2 at t = 0.8): those that share band 0 are taken there
 *     only, which the band-0 keys in the entries decide, and the other repeats are dropped after
 *     the candidates' sort. A resemblance entry holds 39 bits of each key (entry_put says why that
 *     is exact);
 *   - candidates go through a second external sort ordered by (window of x, y, x), duplicates
 *     dropped: a window is a power-of-two span of the file, at most half the budget, and holds the
 *     documents whose records start in it. Verification loads one window's records (one sequential
 *     read), then reads each y's record in increasing file order, so the file is read once per
 *     window, forward, touching only the candidates' records. The windows' start positions are the
 *     only array kept (8 bytes per window: a 4,096th of the file at least);
 *   - ids go through a third external sort, which finds a duplicate id.
 * The core job accumulates a batch of documents (half the budget) and is emptied into the disk
 * structures each time it fills, so the core's memory stays bounded too. The entries' and the
 * candidates' sorts get a quarter of the budget each for their records (and an eighth for their
 * files' buffers), the ids' sort a 64th (its 16-byte records are few next to the entries).
 */
#define SPILL_POS_BITS 40		/* a record's position, in 16-byte units */
#define SPILL_WINDOW_BITS 24	/* a window's number */

/* A document's record in the sets file: this header, then nset (h1, h2) hashes. */
typedef struct SpillHeader
{
	int64		id;
	uint32		nset;
	uint32		zero;
} SpillHeader;

struct JaccardSpill
{
	int			measure;
	BufFile    *sets;
	uint64		written;		/* bytes written to sets (its logical size) */
	size_t		ndocs;			/* documents written */
	int			window_shift;	/* a window spans 1 << window_shift 16-byte units */
	uint64	   *window_start;	/* byte position of the first record starting in each window */
	size_t		nwindows;
	size_t		window_cap;
	size_t		flush_bytes;	/* empty the core job into the spill when it holds more */
	size_t		sort_bytes;		/* memory of each external sort's records */
	uint32	   *df;				/* containment: count-min sketch of hash frequencies, DF_ROWS rows */
	int			df_bits;		/* log2 of its counters per row */
	JaccardExtSort *entries;	/* resemblance: entry_put's; containment: (hash, tag << 40 | position) */
	JaccardExtSort *idsort;		/* (id, 0) */
	MemoryContext cxt;
};

/*
 * A resemblance entry of the first sort, 16 bytes: the band key's top 39 bits, the band (10 bits:
 * at most NDD_JACCARD_MAX_HASHES bands), the document's position (40 bits) and its band-0 key's top
 * 39 bits, in that order of significance, so that the order is (key, band, position) as the runs
 * need. 24 bytes with whole keys were 6.5 GB of temporary files at 10M documents (27 entries each),
 * 16 are 4.3 GB.
 *
 * Why 39 bits of each key are exact: a run is now the documents whose keys of one band agree in
 * those bits, a superset of those whose whole keys agree, so every candidate of the whole keys is
 * still one, and verification decides each exactly (at 10M documents, about 90 pairs more per band
 * agree in 39 bits by chance, 2^-39 per pair: verified and rejected). The band-0 test ("shared band
 * 0, so a candidate there already") reads the same 39 bits that band 0's runs are made of, so a pair
 * it skips in a later band was a candidate in band 0. A pair at or above the threshold that no
 * whole band key finds (the miss the banding bounds) can be found through a chance agreement: the
 * answer then holds one true pair more, never a wrong one.
 */
#define ENTRY_KEY_BITS 39
#define ENTRY_TAG_BITS 10
#define ENTRY_POS_LO_BITS (64 - ENTRY_KEY_BITS)	/* position bits in lo (25), the rest in hi */
#define ENTRY_KEY_MASK (((uint64) 1 << ENTRY_KEY_BITS) - 1)

StaticAssertDecl(NDD_JACCARD_MAX_HASHES <= (1 << ENTRY_TAG_BITS),
				 "a band number fits an entry's tag");
StaticAssertDecl(ENTRY_KEY_BITS + ENTRY_TAG_BITS + SPILL_POS_BITS - ENTRY_POS_LO_BITS == 64,
				 "an entry's hi is full");

static inline void
entry_put(JaccardSpill *sp, uint64 key, uint32 tag, uint64 pos, uint64 key0)
{
	if (sp->measure != NDD_MEASURE_JACCARD)
	{
		ndd_extsort_put(sp->entries, key, ((uint64) tag << SPILL_POS_BITS) | pos);
		return;
	}
	ndd_extsort_put(sp->entries,
					(key >> (64 - ENTRY_KEY_BITS)) << (64 - ENTRY_KEY_BITS) |
					(uint64) tag << (SPILL_POS_BITS - ENTRY_POS_LO_BITS) | pos >> ENTRY_POS_LO_BITS,
					pos << ENTRY_KEY_BITS | key0 >> (64 - ENTRY_KEY_BITS));
}

/* The fields of an entry of the first sort (key and key0 truncated for resemblance, entry_put). */
static inline void
entry_get(const JaccardSpill *sp, const NddJaccardRecord *rec, uint64 *key, uint32 *tag, uint64 *pos,
		  uint64 *key0)
{
	if (sp->measure != NDD_MEASURE_JACCARD)
	{
		*key = rec->hi;
		*tag = (uint32) (rec->lo >> SPILL_POS_BITS);
		*pos = rec->lo & (((uint64) 1 << SPILL_POS_BITS) - 1);
		*key0 = 0;
		return;
	}
	*key = rec->hi >> (64 - ENTRY_KEY_BITS);
	*tag = (uint32) (rec->hi >> (SPILL_POS_BITS - ENTRY_POS_LO_BITS)) & ((1U << ENTRY_TAG_BITS) - 1);
	*pos = (rec->hi & (((uint64) 1 << (SPILL_POS_BITS - ENTRY_POS_LO_BITS)) - 1)) << ENTRY_POS_LO_BITS |
		rec->lo >> ENTRY_KEY_BITS;
	*key0 = rec->lo & ENTRY_KEY_MASK;
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
	size_t		window = 64 * 1024;

	sp->cxt = cxt;
	sp->measure = measure;
	sp->sets = BufFileCreateTemp(false);
	sp->flush_bytes = budget / 2;
	sp->sort_bytes = Max(budget / 4, 64 * 1024);
	/* windows of the largest power of two within half the budget (64 kB at least) */
	while (window * 2 <= budget / 2)
		window *= 2;
	sp->window_shift = pg_leftmost_one_pos64(window / 16);
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
	sp->idsort = ndd_extsort_begin(cxt, Max(budget / 64, 16 * 1024));
	return sp;
}

/* Notes that a record starts at byte pos: the windows up to its own start there or later. */
static void
window_note(JaccardSpill *sp, uint64 pos)
{
	size_t		w = (size_t) (pos >> (sp->window_shift + 4));

	while (sp->nwindows <= w)
	{
		if (sp->nwindows + 1 >= sp->window_cap)
		{
			size_t		cap = Max(64, sp->window_cap * 2);

			sp->window_start = sp->window_start ? repalloc_huge(sp->window_start, cap * sizeof(uint64))
				: MemoryContextAllocHuge(sp->cxt, cap * sizeof(uint64));
			sp->window_cap = cap;
		}
		sp->window_start[sp->nwindows++] = pos;
	}
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
		SpillHeader head;
		uint64		pos = sp->written / 16;

		CHECK_FOR_INTERRUPTS();
		ndd_raise_status(ndd_jaccard_job_doc(job, d, &doc), fname);
		if (doc.nset > PG_UINT32_MAX || pos >= ((uint64) 1 << SPILL_POS_BITS) ||
			(pos >> sp->window_shift) >= ((uint64) 1 << SPILL_WINDOW_BITS))
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s supports at most %u distinct shingles per document and " UINT64_FORMAT " GB of shingle sets on disk",
							fname, PG_UINT32_MAX,
							Min((uint64) 1 << (SPILL_POS_BITS + 4), (uint64) 1 << (SPILL_WINDOW_BITS + sp->window_shift + 4)) >> 30),
					 errhint("Raise maintenance_work_mem.")));
		window_note(sp, sp->written);
		head.id = doc.id;
		head.nset = (uint32) doc.nset;
		head.zero = 0;
		BufFileWrite(sp->sets, &head, sizeof(head));
		if (doc.nset > 0)
			BufFileWrite(sp->sets, (void *) doc.set, doc.nset * 2 * sizeof(uint64));
		sp->written += sizeof(head) + (uint64) doc.nset * 16;
		sp->ndocs++;
		ndd_extsort_put(sp->idsort, (uint64) doc.id, 0);
		if (sp->measure == NDD_MEASURE_JACCARD)
		{
			for (int j = 0; j < doc.nkeys; j++)
				entry_put(sp, doc.keys[j], (uint32) j, pos, doc.keys[0]);
		}
		else
		{
			/* every hash, tagged 1 when it is one of the prefix that finds the pairs of d */
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
				entry_put(sp, doc.set[2 * rank[k].i], k < doc.prefix ? 1 : 0, pos, 0);
		}
	}
	if (rank)
		pfree(rank);
	ndd_raise_status(ndd_jaccard_job_clear(job), fname);
}

/* A candidate of the second sort: ordered by (window of x, y, x), as verification reads them. */
static inline void
cand_put(const JaccardSpill *sp, JaccardExtSort *cands, uint64 y, uint64 x)
{
	ndd_extsort_put(cands, ((x >> sp->window_shift) << SPILL_POS_BITS) | y, x);
}

/* Reads bytes of the sets file at byte position pos into buf. */
static void
spill_read(JaccardSpill *sp, uint64 pos, void *buf, size_t bytes)
{
	if (bytes == 0)
		return;
	/* a block lies within one of the BufFile's segments: seek to it, then within it */
	if (BufFileSeekBlock(sp->sets, (long) (pos / BLCKSZ)) != 0 ||
		BufFileSeek(sp->sets, 0, (off_t) (pos % BLCKSZ), SEEK_CUR) != 0 ||
		BufFileRead(sp->sets, buf, bytes) != bytes)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read shingle sets from a temporary file: %m")));
}

/* Reads the record at 16-byte position pos into *buf (grown as needed); returns its header. */
static const SpillHeader *
spill_read_record(JaccardSpill *sp, uint64 pos, char **buf, size_t *size)
{
	SpillHeader head;
	size_t		bytes;

	spill_read(sp, pos * 16, &head, sizeof(head));
	bytes = sizeof(head) + (size_t) head.nset * 16;
	if (bytes > *size)
	{
		*size = Max(bytes, 2 * *size);
		if (*buf)
			pfree(*buf);
		*buf = MemoryContextAllocHuge(sp->cxt, *size);
	}
	memcpy(*buf, &head, sizeof(head));
	spill_read(sp, pos * 16 + sizeof(head), *buf + sizeof(head), bytes - sizeof(head));
	return (const SpillHeader *) *buf;
}

/* Raises the error of an id returned twice (one place for both paths). */
void
ndd_jaccard_duplicate_id(int64 id)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("docs_sql returned the id " INT64_FORMAT " more than once", id),
			 errhint("Each row is one document: make the ids unique.")));
}

/*
 * The pass of the disk path: ids checked, candidates from the sorted entries, then verification
 * window by window. Returns the number of pairs stored.
 */
uint64
ndd_jaccard_spill_pass(JaccardSpill *sp, NddJaccardJob *job, ReturnSetInfo *rsinfo, const char *fname,
					   TimestampTz *last)
{
	JaccardExtSort *cands;
	NddJaccardRecord rec;
	uint64	   *run = NULL;
	uint64	   *run_key0 = NULL;
	bool	   *run_flag = NULL;
	size_t		run_n = 0,
				run_cap = 0;
	uint64		run_key = 0;
	uint32		run_tag = 0;
	uint64		key,
				key0;
	uint32		tag;
	uint64		doc,
				y,
				x;
	uint64		nentries = 0,
				ncands = 0,
				npairs = 0;
	bool		more;
	char	   *chunk_buf = NULL;
	uint64		chunk_first = 0,
				chunk_end = 0;
	int64		loaded = -1;
	char	   *ybuf = NULL;
	size_t		ybuf_size = 0;
	uint64		prev_y = PG_UINT64_MAX,
				prev_x = PG_UINT64_MAX;
	const SpillHeader *ys = NULL;
	bool		have_prev = false;
	uint64		prev_id = 0;

	/* a duplicate id, from the ids' sort */
	ndd_extsort_performsort(sp->idsort);
	while (ndd_extsort_next(sp->idsort, &rec))
	{
		if (have_prev && rec.hi == prev_id)
			ndd_jaccard_duplicate_id((int64) rec.hi);
		prev_id = rec.hi;
		have_prev = true;
	}
	ndd_extsort_end(sp->idsort);
	sp->idsort = NULL;
	window_note(sp, sp->written);	/* (at least one window past the last) */
	sp->window_start[sp->nwindows] = sp->written;

	/* candidates: every pair in a run of equal entries, through the second sort */
	ereport(DEBUG1, (errmsg("%s: %zu documents on disk, sorting their entries", fname, sp->ndocs)));
	ndd_extsort_performsort(sp->entries);
	cands = ndd_extsort_begin(sp->cxt, sp->sort_bytes);
	do
	{
		bool		same;

		more = ndd_extsort_next(sp->entries, &rec);
		entry_get(sp, &rec, &key, &tag, &doc, &key0);
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
					 * The core's rule, on the run's indexes (a document has one entry per band or
					 * hash). Resemblance: only band 0's keys (39 bits, entry_put) are in the
					 * entries, so a pair sharing band 0 is taken there only, and its repeats from
					 * later bands it shares are dropped after the candidates' sort.
					 */
					if (sp->measure == NDD_MEASURE_JACCARD ?
						!ndd_jaccard_band_candidate((uint32) i, (uint32) j, run_tag, &run_key0[i],
													&run_key0[j], 1) :
						!ndd_containment_candidate((uint32) i, run_flag[i], (uint32) j))
						continue;
					cand_put(sp, cands, run[j], run[i]);
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
			run = run ? repalloc_huge(run, run_cap * sizeof(uint64))
				: MemoryContextAllocHuge(sp->cxt, run_cap * sizeof(uint64));
			run_flag = run_flag ? repalloc_huge(run_flag, run_cap * sizeof(bool))
				: MemoryContextAllocHuge(sp->cxt, run_cap * sizeof(bool));
			run_key0 = run_key0 ? repalloc_huge(run_key0, run_cap * sizeof(uint64))
				: MemoryContextAllocHuge(sp->cxt, run_cap * sizeof(uint64));
		}
		run_key = key;
		run_tag = tag;
		run[run_n] = doc;
		run_key0[run_n] = key0;
		run_flag[run_n++] = tag != 0;
		if ((++nentries & 0xFFFF) == 0)
		{
			CHECK_FOR_INTERRUPTS();
			ndd_jaccard_progress(last, fname, "candidates: entry", nentries, 0, 0);
		}
	} while (true);
	ndd_extsort_end(sp->entries);
	sp->entries = NULL;
	if (run)
	{
		pfree(run);
		pfree(run_flag);
		pfree(run_key0);
	}

	/* verification: (window of x, y, x) in order; x's window in memory, y read forward */
	ereport(DEBUG1, (errmsg("%s: " UINT64_FORMAT " candidates in %zu windows", fname, ncands, sp->nwindows)));
	ndd_extsort_performsort(cands);
	while (ndd_extsort_next(cands, &rec))
	{
		const SpillHeader *xs;
		int64		w = (int64) (rec.hi >> SPILL_POS_BITS);
		NddJaccardResult r;
		int			ok;

		y = rec.hi & (((uint64) 1 << SPILL_POS_BITS) - 1);
		x = rec.lo;
		if (w == loaded && y == prev_y && x == prev_x)
			continue;			/* the same candidate from another band or hash */
		if (w != loaded)
		{
			CHECK_FOR_INTERRUPTS();
			ndd_jaccard_progress(last, fname, "verifying: window", (size_t) w + 1, sp->nwindows, npairs);
			if (chunk_buf)
				pfree(chunk_buf);
			/* the window's records are consecutive in the file: one read */
			chunk_first = sp->window_start[w];
			chunk_end = sp->window_start[w + 1];
			chunk_buf = MemoryContextAllocHuge(sp->cxt, Max(chunk_end - chunk_first, 16));
			spill_read(sp, chunk_first, chunk_buf, chunk_end - chunk_first);
			loaded = w;
			prev_y = PG_UINT64_MAX;
		}
		if (y != prev_y)
		{
			if (y * 16 >= chunk_first && y * 16 < chunk_end)
				ys = (const SpillHeader *) (chunk_buf + (y * 16 - chunk_first));
			else
				ys = spill_read_record(sp, y, &ybuf, &ybuf_size);
		}
		prev_y = y;
		prev_x = x;
		xs = (const SpillHeader *) (chunk_buf + (x * 16 - chunk_first));
		ndd_raise_status(ndd_jaccard_verify(job, xs->id, (const uint64_t *) (xs + 1), xs->nset, ys->id,
											(const uint64_t *) (ys + 1), ys->nset, &r, &ok),
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
		SpillHeader a,
					b;

		for (uint64 pa = 0; pa < sp->written; pa += sizeof(a) + (uint64) a.nset * 16)
		{
			spill_read(sp, pa, &a, sizeof(a));
			if (a.nset != 0)
				continue;
			for (uint64 pb = 0; pb < sp->written; pb += sizeof(b) + (uint64) b.nset * 16)
			{
				NddJaccardResult r;

				spill_read(sp, pb, &b, sizeof(b));
				if (pb == pa)
					continue;
				r.a = a.id;
				r.b = b.id;
				r.value = 1.0;
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
