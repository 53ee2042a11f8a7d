/*
 * jaccard_extsort.c
 *    The external sort of the disk path of the Jaccard pairs (jaccard_extsort.h): a most-significant-
 *    bits radix partitioning on temporary files, each part sorted in memory by the core once it fits.
 *
 * Why not tuplesort: the disk path sorts 27 (band key, band, document) entries per document at
 * t = 0.8 and then its candidates; as heap tuples through tuplesort these were 36 % of the
 * instructions of a call (forming, copying and comparing tuples, merging runs), more than the
 * minhash. Records here are two uint64 written as they are. While they fit the sort's memory they
 * are sorted there (ndd_jaccard_sort_records, std::sort in the core). Beyond it they go to a temporary
 * file; to read them back in order, a part that does not fit is read once and split into F parts by
 * its leading differing bits (the bits above them are equal in the whole part, so every record of
 * part i precedes every record of part i + 1), F chosen so that the parts fit (at most the number
 * of file buffers that mem / 2 holds); the parts are then read in order. Keys are hashes, so one
 * split usually suffices: the data is written twice and read twice, linear in its size, where a
 * merge sort also compares. The input is written to a sequence of files (chunks) rather than one, and
 * the first split closes, so deletes, each chunk once it has read it: the records are on disk once,
 * plus a chunk, not twice, at the peak of the split (at 10M documents, 6.5 GB of entries less). Thousands of copies of one text share every band key: their entries
 * differ in the document's number only, and the split goes on in lo's bits. A part larger than memory
 * whose records are all equal is handed out as it is, a buffer at a time (the disk path never makes
 * one: an entry is unique and a candidate repeats once per band at most, fewer than the 1,024
 * records memory holds at least; it keeps the sort bounded on any input).
 */
#include "jaccard_extsort.h"

#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/buffile.h"
#include "utils/memutils.h"

/* A part of the records: in a temporary file, with what the split needs to know of them. */
typedef struct ExtPart
{
	BufFile    *file;
	bool		chunked;		/* the input: its records are in the sort's chunks, file is NULL */
	uint64		n;				/* records */
	uint64		hi_and,			/* AND and OR of their fields: the bits where they differ */
				hi_or,
				lo_and,
				lo_or;
} ExtPart;

/*
 * Records sorted in memory at once at most: the core's sort cannot be interrupted, and 4M records
 * (64 MB) take a few tenths of a second; a larger budget only makes fewer, larger parts.
 */
#define EXTSORT_MAX_RECORDS ((size_t) 4 * 1024 * 1024)

/*
 * The input's chunks: the first ones of 16 times the sort's memory, twice as large after every 64
 * (a chunk costs a file buffer in memory, so their number stays small: 64 per doubling).
 */
#define EXTSORT_CHUNK_FACTOR 16
#define EXTSORT_CHUNKS_PER_SIZE 64

struct JaccardExtSort
{
	MemoryContext cxt;
	NddJaccardRecord *buf;		/* cap records: the input's next piece, or the part being read */
	size_t		cap;
	size_t		nbuf;			/* records in buf */
	size_t		pos;			/* next one to hand out */
	int			max_fanout;		/* parts of one split (each a file buffer of BLCKSZ) */
	ExtPart		input;			/* the records put; file (the chunk being written) NULL while they
								 * fit in buf or a chunk has just been completed */
	uint64		chunk_records;	/* records per chunk */
	uint64		in_chunk;		/* records in the chunk being written */
	BufFile   **chunks;			/* the input's completed chunks, in order; NULL once read */
	int			nchunks;
	int			chunk_cap;
	int			next_chunk;		/* the first not yet read */
	bool		sorted;			/* performsort was called */
	ExtPart    *stack;			/* parts still to read, the next on top */
	int			nstack;
	int			stack_cap;
	ExtPart		equal;			/* a part of equal records handed out as read; file NULL if none */
};

static void
part_init(ExtPart *p)
{
	memset(p, 0, sizeof(ExtPart));
	p->hi_and = p->lo_and = PG_UINT64_MAX;
}

static inline void
part_note(ExtPart *p, uint64 hi, uint64 lo)
{
	p->n++;
	p->hi_and &= hi;
	p->hi_or |= hi;
	p->lo_and &= lo;
	p->lo_or |= lo;
}

static BufFile *
new_file(JaccardExtSort *es)
{
	MemoryContext old = MemoryContextSwitchTo(es->cxt);
	BufFile    *f = BufFileCreateTemp(false);

	MemoryContextSwitchTo(old);
	return f;
}

static void
write_records(BufFile *f, const NddJaccardRecord *r, size_t n)
{
	if (n > 0)
		BufFileWrite(f, (void *) r, n * sizeof(NddJaccardRecord));
}

/* Reads up to max records of f into buf; returns how many. */
static size_t
read_records(BufFile *f, NddJaccardRecord *buf, size_t max)
{
	size_t		size = sizeof(NddJaccardRecord);
	size_t		got = BufFileRead(f, buf, max * size);

	if (got % size != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read sorted entries from a temporary file: %m")));
	return got / size;
}

static void
sort_buf(JaccardExtSort *es)
{
	CHECK_FOR_INTERRUPTS();
	ndd_raise_status(ndd_jaccard_sort_records(es->buf, es->nbuf), "sorting entries");
	es->pos = 0;
}

static void
push(JaccardExtSort *es, const ExtPart *p)
{
	if (es->nstack == es->stack_cap)
	{
		es->stack_cap = Max(16, es->stack_cap * 2);
		es->stack = es->stack ? repalloc(es->stack, es->stack_cap * sizeof(ExtPart))
			: MemoryContextAlloc(es->cxt, es->stack_cap * sizeof(ExtPart));
	}
	es->stack[es->nstack++] = *p;
}

JaccardExtSort *
ndd_extsort_begin(MemoryContext cxt, size_t mem_bytes)
{
	JaccardExtSort *es = MemoryContextAllocZero(cxt, sizeof(JaccardExtSort));

	es->cxt = cxt;
	es->cap = Min(Max(mem_bytes / sizeof(NddJaccardRecord), 1024), EXTSORT_MAX_RECORDS);
	es->buf = MemoryContextAllocHuge(cxt, es->cap * sizeof(NddJaccardRecord));
	es->max_fanout = (int) Min(Max(mem_bytes / 2 / (BLCKSZ + 256), 2), 4096);
	es->chunk_records = (uint64) es->cap * EXTSORT_CHUNK_FACTOR;
	part_init(&es->input);
	part_init(&es->equal);
	return es;
}

/* Completes the chunk being written: the next records go to a new one. */
static void
end_chunk(JaccardExtSort *es)
{
	if (!es->input.file)
		return;
	if (BufFileSeek(es->input.file, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rewind a temporary file: %m")));
	if (es->nchunks == es->chunk_cap)
	{
		es->chunk_cap = Max(16, es->chunk_cap * 2);
		es->chunks = es->chunks ? repalloc(es->chunks, es->chunk_cap * sizeof(BufFile *))
			: MemoryContextAlloc(es->cxt, es->chunk_cap * sizeof(BufFile *));
	}
	es->chunks[es->nchunks++] = es->input.file;
	es->input.file = NULL;
	es->in_chunk = 0;
	if (es->nchunks % EXTSORT_CHUNKS_PER_SIZE == 0)
		es->chunk_records *= 2;
}

/*
 * Reads up to max records of part p into buf; returns how many (0 at its end). The input's chunks
 * are read in order, each closed (and its file deleted) once read.
 */
static size_t
read_part(JaccardExtSort *es, ExtPart *p, NddJaccardRecord *buf, size_t max)
{
	if (!p->chunked)
		return read_records(p->file, buf, max);
	while (es->next_chunk < es->nchunks)
	{
		size_t		got = read_records(es->chunks[es->next_chunk], buf, max);

		if (got > 0)
			return got;
		BufFileClose(es->chunks[es->next_chunk]);
		es->chunks[es->next_chunk++] = NULL;
	}
	return 0;
}

static inline bool
part_open(const ExtPart *p)
{
	return p->file != NULL || p->chunked;
}

void
ndd_extsort_put(JaccardExtSort *es, uint64 hi, uint64 lo)
{
	Assert(!es->sorted);
	if (es->nbuf == es->cap)
	{
		/* the input outgrows memory: it goes to a chunk, a buffer at a time */
		if (!es->input.file)
			es->input.file = new_file(es);
		write_records(es->input.file, es->buf, es->nbuf);
		es->in_chunk += es->nbuf;
		es->nbuf = 0;
		if (es->in_chunk >= es->chunk_records)
			end_chunk(es);
	}
	es->buf[es->nbuf].hi = hi;
	es->buf[es->nbuf++].lo = lo;
	part_note(&es->input, hi, lo);
}

void
ndd_extsort_performsort(JaccardExtSort *es)
{
	es->sorted = true;
	if (!es->input.file && es->nchunks == 0)
	{
		sort_buf(es);			/* all in memory */
		return;
	}
	if (es->nbuf > 0)
	{
		if (!es->input.file)
			es->input.file = new_file(es);
		write_records(es->input.file, es->buf, es->nbuf);
	}
	end_chunk(es);
	es->nbuf = es->pos = 0;
	es->input.chunked = true;
	push(es, &es->input);
}

/*
 * Splits part p (its file rewound) into parts by the leading bits where its records differ, and
 * pushes them so that the first part is read first.
 */
static void
split(JaccardExtSort *es, ExtPart *p)
{
	bool		on_hi = (p->hi_and ^ p->hi_or) != 0;
	uint64		diff = on_hi ? p->hi_and ^ p->hi_or : p->lo_and ^ p->lo_or;
	int			top = pg_leftmost_one_pos64(diff);	/* highest differing bit */
	uint64		want = (p->n + es->cap - 1) / es->cap * 2;	/* parts of half the memory */
	int			bits = 1;
	int			shift;
	ExtPart    *parts;
	size_t		got;

	while (bits < 12 && ((uint64) 1 << bits) < want && (1 << (bits + 1)) <= es->max_fanout)
		bits++;
	bits = Min(bits, top + 1);
	shift = top + 1 - bits;
	parts = palloc(sizeof(ExtPart) << bits);
	for (int i = 0; i < (1 << bits); i++)
		part_init(&parts[i]);
	while ((got = read_part(es, p, es->buf, es->cap)) > 0)
	{
		CHECK_FOR_INTERRUPTS();
		for (size_t i = 0; i < got; i++)
		{
			const NddJaccardRecord *r = &es->buf[i];
			int			b = (int) (((on_hi ? r->hi : r->lo) >> shift) & (((uint64) 1 << bits) - 1));

			if (!parts[b].file)
				parts[b].file = new_file(es);
			write_records(parts[b].file, r, 1);
			part_note(&parts[b], r->hi, r->lo);
		}
	}
	if (!p->chunked)
		BufFileClose(p->file);
	p->file = NULL;
	p->chunked = false;
	for (int i = (1 << bits) - 1; i >= 0; i--)
	{
		if (!parts[i].file)
			continue;
		if (BufFileSeek(parts[i].file, 0, 0, SEEK_SET) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not rewind a temporary file: %m")));
		push(es, &parts[i]);
	}
	pfree(parts);
}

bool
ndd_extsort_next(JaccardExtSort *es, NddJaccardRecord *out)
{
	Assert(es->sorted);
	for (;;)
	{
		ExtPart		p;

		if (es->pos < es->nbuf)
		{
			*out = es->buf[es->pos++];
			return true;
		}
		es->nbuf = es->pos = 0;
		if (part_open(&es->equal))
		{
			/* equal records: in order as they are */
			es->nbuf = read_part(es, &es->equal, es->buf, es->cap);
			if (es->nbuf == 0)
			{
				if (es->equal.file)
					BufFileClose(es->equal.file);
				es->equal.file = NULL;
				es->equal.chunked = false;
			}
			continue;
		}
		if (es->nstack == 0)
			return false;
		p = es->stack[--es->nstack];
		if (p.n <= es->cap && !p.chunked)
		{
			es->nbuf = read_records(p.file, es->buf, es->cap);
			BufFileClose(p.file);
			if (es->nbuf != p.n)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not read sorted entries from a temporary file: %m")));
			sort_buf(es);
		}
		else if (p.hi_and == p.hi_or && p.lo_and == p.lo_or)
			es->equal = p;
		else
			split(es, &p);
	}
}

void
ndd_extsort_end(JaccardExtSort *es)
{
	if (es->input.file)
		BufFileClose(es->input.file);
	if (es->equal.file)
		BufFileClose(es->equal.file);
	for (int i = 0; i < es->nstack; i++)
		if (es->stack[i].file)
			BufFileClose(es->stack[i].file);
	for (int i = es->next_chunk; i < es->nchunks; i++)
		if (es->chunks[i])
			BufFileClose(es->chunks[i]);
	if (es->chunks)
		pfree(es->chunks);
	if (es->stack)
		pfree(es->stack);
	pfree(es->buf);
	pfree(es);
}
