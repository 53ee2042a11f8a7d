/*-------------------------------------------------------------------------
 *
 * nddbuild.c
 *	  Building an ndd index.
 *
 * The build never holds more than maintenance_work_mem of pages, whatever the table's size:
 *
 *  1. One scan of the heap spools (heap TID, fingerprint) pairs to a temporary file (NULL rows
 *     to a second one), counting rows and the widest heap block and offset seen.
 *  2. The shape follows from the row count (or the `rows` option): the number of primary pages
 *     per table so that pages start about fillfactor full, hence the entry format.
 *  3. One pass over the spool counts the entries of every bucket of every table (a batch of rows
 *     at a time, table after table, each table's counters in cache). The counts fix
 *     every chain's length, hence every page's block number: [meta][t0 primaries][t0 overflow
 *     pages][t1 primaries]...[NULL chain], a bucket's overflow pages consecutive, in bucket order.
 *  4. For each table, cut into chunks of consecutive buckets whose pages fit in
 *     maintenance_work_mem as page images, one pass over the spool fills the first chunk and
 *     appends every later chunk's entries, permuted, to a temporary file of its own (its run, in
 *     spool order), which then fills that chunk; the chunk's entries are gathered in batches, each
 *     sorted by bucket (stably: a chain gets its entries in spool order whatever the batches) and
 *     appended to the chains in that order, so the images are filled page after page rather than
 *     at a random page per entry (a cache and TLB miss each). Primary
 *     pages go straight to the relation in block order, overflow pages to a temporary file, which
 *     is appended after the table's primaries. A bucket too large for memory on its own (heavily
 *     skewed data) is streamed: its chain is written page by page as pages fill.
 *  5. The NULL chain, after the last table.
 *
 * Pages are written with smgrextend, bypassing shared buffers, and WAL-logged as full page images
 * when the relation needs WAL, then synced, as nbtree's sorted build does.
 *
 * Parallel build (max_parallel_maintenance_workers, planned as for nbtree): the leader and its
 * workers scan the heap in parallel, each spooling its share (step 1); each counts the buckets of
 * its own share (3); the leader places the tables, writes the metapage and extends the relation to
 * its final size, then each participant writes whole tables, in turn, straight into the relation
 * at their placed blocks (4), reading every participant's spool merged by heap block, while the
 * leader first writes the NULL chain (5). The phases are described at NDD_PHASE_SCAN. Both builds scan the heap in block order from block 0
 * (no synchronized scan), and a heap block's rows are spooled by one participant in the serial
 * scan's order, so the merged spools are the serial spool entry for entry: the index is the
 * serial build's, page for page (test/scripts/index_build_parallel.sh compares them).
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "optimizer/optimizer.h"
#include "optimizer/plancat.h"

#include <math.h>

#include "access/parallel.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/buffile.h"
#include "storage/condition_variable.h"
#include "storage/bufmgr.h"
#include "storage/sharedfileset.h"
#include "storage/spin.h"
#include "tcop/tcopprot.h"
#include "storage/smgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "portability/instr_time.h"
#include "utils/snapmgr.h"

/* One spooled row: the heap TID and the fingerprint's words (words[1] only for fp128). */
typedef struct NddSpoolItem
{
	uint64		words[2];
	BlockNumber block;
	OffsetNumber offset;
} NddSpoolItem;

/*
 * The spool as the passes read it: one file per participant of the scan, each in heap block order,
 * merged by heap block (a block's rows are all in one file, consecutive). One file for a serial
 * build.
 */
typedef struct NddSpoolReader
{
	int			nfiles;
	int			bits;
	BufFile   **files;
	NddSpoolItem *heads;		/* each file's next item */
	bool	   *valid;			/* heads[i] holds an item */
	char	  **buf;			/* each file's items read ahead, NDD_SPOOL_READ_AHEAD */
	int		   *len;			/* bytes in buf[i] */
	int		   *pos;			/* the next item's in buf[i] */
	int			cur;			/* file of the last item returned, -1 before the first */
} NddSpoolReader;

typedef struct NddBuildState
{
	int			bits;
	BufFile    *spool;			/* written by the scan: this process's share of the rows */
	BufFile    *nulls;
	NddSpoolReader rows;		/* read by the passes: every participant's share */
	NddSpoolReader nullrows;
	int64		nrows;
	int64		nnulls;
	BlockNumber max_block;
	OffsetNumber max_offset;
	double		heap_tuples;
	int			mem_kb;			/* page images in memory at once: maintenance_work_mem, shared
								 * among a parallel build's participants */
	MemoryContext tmpcxt;
} NddBuildState;

/*
 * Writes pages of one fork in block order (or writes a block below nwritten: a parallel build's
 * participants write their tables into a relation the leader has extended to its final size, see
 * ndd_extend_to).
 */
typedef struct NddWriter
{
	Relation	index;
	ForkNumber	fork;
	bool		use_wal;
	BlockNumber nwritten;		/* the relation's size as this writer knows it */
} NddWriter;

/* Writes page as block blkno: appends when blkno is the next block, rewrites an earlier one. */
static void
ndd_write_page(NddWriter *w, Page page, BlockNumber blkno)
{
	Assert(blkno <= w->nwritten);
	if (w->use_wal)
		log_newpage(&NddRelationFileLocator(w->index), w->fork, blkno, page, true);
	PageSetChecksumInplace(page, blkno);
	if (blkno == w->nwritten)
	{
		smgrextend(RelationGetSmgr(w->index), w->fork, blkno, (char *) page, true);
		w->nwritten++;
	}
	else
		smgrwrite(RelationGetSmgr(w->index), w->fork, blkno, (char *) page, true);
}

/*
 * Extends the relation to nblocks blocks by writing a zero page as its last one, without WAL: the
 * blocks between are left unwritten (a hole in the file) for a parallel build's participants, who
 * each write (smgrwrite, which needs the block within the relation, its segment files all present)
 * and WAL-log every one of them. Several processes writing into the same file at blocks they own
 * never extend it, so they never race on its size or its segments.
 */
static void
ndd_extend_to(NddWriter *w, BlockNumber nblocks)
{
	PGAlignedBlock zero;

	if (nblocks <= w->nwritten)
		return;
	memset(zero.data, 0, BLCKSZ);
	smgrextend(RelationGetSmgr(w->index), w->fork, nblocks - 1, zero.data, true);
	w->nwritten = nblocks;
}

/*
 * A spooled row on file: heap block, offset, then the fingerprint's words, packed (14 or 22 bytes),
 * moved in one BufFile call each way: the passes read every row once per table.
 */
#define SPOOL_ITEM_BYTES(bits) (sizeof(BlockNumber) + sizeof(OffsetNumber) + ((bits) / 64) * sizeof(uint64))

static void
spool_write(BufFile *f, int bits, const NddSpoolItem *it)
{
	char		buf[sizeof(BlockNumber) + sizeof(OffsetNumber) + 2 * sizeof(uint64)];

	memcpy(buf, &it->block, sizeof(BlockNumber));
	memcpy(buf + sizeof(BlockNumber), &it->offset, sizeof(OffsetNumber));
	memcpy(buf + sizeof(BlockNumber) + sizeof(OffsetNumber), it->words, (bits / 64) * sizeof(uint64));
	BufFileWrite(f, buf, SPOOL_ITEM_BYTES(bits));
}

/* Unpacks a spooled row from buf. */
static inline void
spool_unpack(const char *buf, int bits, NddSpoolItem *it)
{
	memcpy(&it->block, buf, sizeof(BlockNumber));
	memcpy(&it->offset, buf + sizeof(BlockNumber), sizeof(OffsetNumber));
	memcpy(it->words, buf + sizeof(BlockNumber) + sizeof(OffsetNumber), (bits / 64) * sizeof(uint64));
	if (bits == 64)
		it->words[1] = 0;
}

/* Reads the next spool item; false at the end of the file. */
static bool
spool_read(BufFile *f, int bits, NddSpoolItem *it)
{
	char		buf[sizeof(BlockNumber) + sizeof(OffsetNumber) + 2 * sizeof(uint64)];
	size_t		n = BufFileRead(f, buf, SPOOL_ITEM_BYTES(bits));

	if (n == 0)
		return false;
	if (n != SPOOL_ITEM_BYTES(bits))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the ndd build spool")));
	spool_unpack(buf, bits, it);
	return true;
}

/* Items a spool reader reads ahead of each file at once (7 or 11 kB): one BufFile call for them. */
#define NDD_SPOOL_READ_AHEAD 512

/* The reader's next item of file i; false at its end. */
static inline bool
spool_reader_read(NddSpoolReader *r, int i, NddSpoolItem *it)
{
	int			size = SPOOL_ITEM_BYTES(r->bits);

	if (r->pos[i] >= r->len[i])
	{
		size_t		n = BufFileRead(r->files[i], r->buf[i], (size_t) size * NDD_SPOOL_READ_AHEAD);

		if (n % size != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read the ndd build spool")));
		r->len[i] = (int) n;
		r->pos[i] = 0;
		if (n == 0)
			return false;
	}
	spool_unpack(r->buf[i] + r->pos[i], r->bits, it);
	r->pos[i] += size;
	return true;
}

/* Starts a reader over files (palloc'd, nfiles of them); spool_reader_rewind before reading. */
static void
spool_reader_init(NddSpoolReader *r, int bits, BufFile **files, int nfiles)
{
	int			i;

	r->nfiles = nfiles;
	r->bits = bits;
	r->files = files;
	r->heads = palloc(sizeof(NddSpoolItem) * nfiles);
	r->valid = palloc0(sizeof(bool) * nfiles);
	r->buf = palloc(sizeof(char *) * nfiles);
	r->len = palloc0(sizeof(int) * nfiles);
	r->pos = palloc0(sizeof(int) * nfiles);
	for (i = 0; i < nfiles; i++)
		r->buf[i] = palloc(SPOOL_ITEM_BYTES(bits) * NDD_SPOOL_READ_AHEAD);
	r->cur = -1;
}

/* Positions the reader at the first item, for another pass. */
static void
spool_reader_rewind(NddSpoolReader *r)
{
	int			i;

	for (i = 0; i < r->nfiles; i++)
	{
		if (BufFileSeek(r->files[i], 0, 0, SEEK_SET) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not rewind the ndd build spool")));
		r->len[i] = r->pos[i] = 0;
		r->valid[i] = spool_reader_read(r, i, &r->heads[i]);
	}
	r->cur = -1;
}

/*
 * The next item in heap block order; false at the end. Every file is in block order and a block's
 * rows are in one file, consecutive: the reader stays on a file while it continues the block it
 * returned last, else takes the file whose next block is lowest.
 */
static bool
spool_reader_next(NddSpoolReader *r, NddSpoolItem *it)
{
	int			best = r->cur;
	int			i;

	if (best < 0 || !r->valid[best] || r->heads[best].block != it->block)
	{
		best = -1;
		for (i = 0; i < r->nfiles; i++)
			if (r->valid[i] && (best < 0 || r->heads[i].block < r->heads[best].block))
				best = i;
		if (best < 0)
			return false;
	}
	*it = r->heads[best];
	r->valid[best] = spool_reader_read(r, best, &r->heads[best]);
	r->cur = best;
	return true;
}

/* Closes the reader's files. */
static void
spool_reader_close(NddSpoolReader *r)
{
	int			i;

	for (i = 0; i < r->nfiles; i++)
		BufFileClose(r->files[i]);
	r->nfiles = 0;
}

/* table_index_build_scan callback: spools one heap row. */
static void
ndd_build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
				   bool tupleIsAlive, void *state)
{
	NddBuildState *bs = (NddBuildState *) state;
	NddSpoolItem it;

	it.block = ItemPointerGetBlockNumber(tid);
	it.offset = ItemPointerGetOffsetNumber(tid);
	bs->max_block = Max(bs->max_block, it.block);
	bs->max_offset = Max(bs->max_offset, it.offset);
	if (isnull[0])
	{
		it.words[0] = it.words[1] = 0;
		spool_write(bs->nulls, 64, &it);
		bs->nnulls++;
		return;
	}
	ndd_fingerprint_words(values[0], bs->bits, it.words);
	spool_write(bs->spool, bs->bits, &it);
	bs->nrows++;
}

/*
 * The heap block the build sizes entries' block field for (it leaves room for one more doubling):
 * the table's last block, or, when the `rows` option promises more rows than the table has, the
 * block the table will reach holding them, estimated from its rows per block (from the rows it
 * has, or from the width the planner estimates for its rows when it is empty). Without that, an
 * index made with `rows` on an empty table gave every chain pages too narrow for the heap blocks
 * to come, and a new page each time the heap doubled.
 */
static BlockNumber
heap_blocks_for_rows(Relation heap, Relation index, int64 nrows, BlockNumber max_block)
{
	NddOptions *opts = (NddOptions *) index->rd_options;
	double		target = opts ? opts->rows : 0;
	double		per_block;

	if (target <= (double) nrows)
		return max_block;
	if (nrows > 0 && max_block > 0)
		per_block = (double) nrows / (max_block + 1);
	else
	{
		/* a heap tuple: header, the estimated data width, a line pointer */
		int32		width = get_relation_data_width(RelationGetRelid(heap), NULL);

		per_block = (double) (BLCKSZ - SizeOfPageHeaderData) /
			(MAXALIGN(SizeofHeapTupleHeader + width) + sizeof(ItemIdData));
	}
	per_block = Max(per_block, 1.0);
	return (BlockNumber) Min(Max((double) max_block, target / per_block), (double) MaxBlockNumber);
}

/* The width of a layout's shortest table key, at most 64 bits. */
static int
shortest_key(const NddLayout *l)
{
	int			shortest = 64;
	int			t;

	for (t = 0; t < l->ntables; t++)
		shortest = Min(shortest, (int) l->key_bits[t]);
	return shortest;
}

/*
 * The blocks of the layout a radius-k index of npages primary pages per table is built with when
 * the user gives no `blocks`: k + 1 (the fewest tables) while each key of that layout spans at most
 * one page per table, else the fewest blocks whose shortest key does (Manku's tables grow with N
 * for this reason: with a key spanning several pages, a radius-k query reads and checks a number
 * of entries that grows with the table). k + 1 when no layout within NDD_LAYOUT_MAX_TABLES keeps
 * one page per key. Every index of up to about 45M 64-bit rows keeps the k + 1 blocks of old.
 */
int
ndd_layout_blocks_for(int bits, int k, uint32 npages)
{
	int			need = ndd_bits_for((uint64) Max(npages, 1) - 1);
	int			b;

	for (b = k + 1; b <= NDD_LAYOUT_MAX_BLOCKS; b++)
	{
		NddLayout	l;

		if (ndd_layout_check(bits, k, b) != NDD_LAYOUT_OK)
			break;				/* more blocks only mean more tables */
		if (ndd_layout_make(bits, k, b, &l) != NDD_OK)
			break;
		if (shortest_key(&l) >= need)
			return b;
	}
	return k + 1;
}

/*
 * A NOTICE when the user's `blocks` gives keys that span more than one primary page per table
 * (every probe then reads npages / 2^key_bits pages): the layout stays as asked (fewer tables
 * cost less size and build time), the notice says which one the default would have chosen.
 */
static void
ndd_notice_short_keys(Relation index, const NddMetaPageData *meta)
{
	const NddLayout *l = &meta->layout;
	int			own = shortest_key(l);
	int			b = ndd_layout_blocks_for(l->bits, l->radius, meta->npages);
	NddLayout	wider;

	if (own >= ndd_bits_for((uint64) meta->npages - 1) || b <= l->nblocks ||
		ndd_layout_make(l->bits, l->radius, b, &wider) != NDD_OK)
		return;
	ereport(NOTICE,
			(errmsg("ndd index \"%s\": each key of its layout spans about %.1f pages per table",
					RelationGetRelationName(index),
					meta->npages / pow(2.0, (double) own)),
			 errdetail("The %u primary pages of each table outnumber the values of its %d-bit keys (k = %d, blocks = %d), so a radius-%d query reads and checks a number of entries that grows with the table.",
					   meta->npages, own, l->radius, l->nblocks, l->radius),
			 errhint("Without the blocks option the index would have blocks = %d, which keeps one page per key: %d tables instead of %d, so about %.1f times the size and build time.",
					 b, wider.ntables, l->ntables, (double) wider.ntables / l->ntables)));
}

/*
 * Primary pages per table of a map holding target rows at fillfactor percent, in meta's layout,
 * block and offset widths. The page count sets the delta width, which sets the entry size, which
 * sets the page count: a few rounds settle it (fewer pages only ever widen entries by a bit).
 */
static uint32
primary_pages(const NddMetaPageData *meta, double target, int fillfactor)
{
	double		npages = 1;
	int			i;

	for (i = 0; i < 4; i++)
	{
		NddFormat	f;
		double		cap;

		ndd_format_for(ndd_page_delta_bits((uint32) npages), meta->layout.bits == 128,
					   meta->block_bits, meta->offset_bits, &f);
		cap = ndd_format_capacity(&f) * (fillfactor / 100.0);
		npages = ceil(target / Max(cap, 1.0));
		/* every table's primaries must stay addressable */
		npages = Min(npages, (double) (MaxBlockNumber / 2) / meta->layout.ntables);
		npages = Max(npages, 1.0);
	}
	return (uint32) npages;
}

/*
 * The layout and shape of a new index, from its options and the rows it must hold; notice: name
 * the layout (DEBUG1) and say when the user's `blocks` gives keys too short for the map (once per
 * build: ambuild, not the init fork's ambuildempty).
 */
static void
ndd_plan_shape(Relation index, int bits, double rows, BlockNumber max_block,
			   OffsetNumber max_offset, bool notice, NddMetaPageData *meta)
{
	NddOptions *opts = (NddOptions *) index->rd_options;
	int			k = opts ? opts->k : -1;
	int			blocks = opts ? opts->blocks : 0;
	int			fillfactor = opts ? opts->fillfactor : NDD_DEFAULT_FILLFACTOR;
	double		target = Max(rows, opts ? opts->rows : 0);
	uint32		npages;
	NddStatus	st;

	if (k < 0)
		k = bits == 64 ? NDD_DEFAULT_K64 : NDD_DEFAULT_K128;
	memset(meta, 0, sizeof(*meta));
	if (ndd_layout_check(bits, k, blocks) != NDD_LAYOUT_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid ndd index layout: k = %d, blocks = %d for %d-bit fingerprints",
						k, blocks, bits),
				 errdetail("blocks must exceed k, be at most %d, and C(blocks, k) must be at most %d tables.",
						   NDD_LAYOUT_MAX_BLOCKS, NDD_LAYOUT_MAX_TABLES)));
	st = ndd_layout_make(bits, k, blocks, &meta->layout);
	ndd_raise_status(st, "the ndd index layout");

	meta->magic = NDD_MAGIC;
	meta->version = NDD_VERSION;
	meta->opt_fillfactor = fillfactor;
	meta->opt_rows = opts ? opts->rows : 0;
	/* room for the heap to double before new pages need wider block fields */
	meta->block_bits = Min(32, Max(8, ndd_bits_for(max_block) + 1));
	meta->offset_bits = Max(ndd_bits_for(max_offset), ndd_bits_for(MaxHeapTuplesPerPage));
	npages = primary_pages(meta, target, fillfactor);

	/*
	 * Without `blocks`, the layout follows from the rows: more tables of longer keys once the
	 * k + 1 blocks' keys would span several pages (the page count per table does not depend on
	 * the layout, bar the addressability clamp, recomputed).
	 */
	if (blocks == 0 && (blocks = ndd_layout_blocks_for(bits, k, npages)) != k + 1)
	{
		st = ndd_layout_make(bits, k, blocks, &meta->layout);
		ndd_raise_status(st, "the ndd index layout");
		npages = primary_pages(meta, target, fillfactor);
	}
	if (notice)
		ereport(DEBUG1,
				(errmsg_internal("ndd index \"%s\": k = %d, blocks = %d, %d tables, shortest key %d bits, %u primary pages per table for %.0f rows",
								 RelationGetRelationName(index), k, meta->layout.nblocks,
								 meta->layout.ntables, shortest_key(&meta->layout), npages, target)));

	/*
	 * The build makes the map's first generation, one extent; ndd_place_tables places its tables
	 * (table_start).
	 */
	meta->generation = 1;
	meta->npages = npages;
	meta->old_npages = meta->cursor = meta->overflowed = 0;
	meta->nextents = 1;
	meta->ext[0].first = 0;
	meta->ext[0].count = npages;
	meta->ext[0].start = 0;
	meta->free_head = InvalidBlockNumber;
	meta->nfree = 0;
	if (notice && opts && opts->blocks != 0)
		ndd_notice_short_keys(index, meta);
}

/*
 * The most entries the page phase sorts at once (twice 32 MB with the sort's scratch): enough for
 * dozens of entries per page between two sweeps of a table's pages at 100M rows.
 */
#define NDD_BUILD_BATCH ((Size) 1 << 20)

/* Pages a bucket of cnt entries occupies: its primary and ceil(cnt / cap) - 1 overflow pages. */
static uint32
chain_pages(uint32 cnt, int cap)
{
	return cnt <= (uint32) cap ? 1 : (cnt + cap - 1) / cap;
}

/* Rows the count reads at a time, then counts table after table (128 kB of fingerprints). */
#define NDD_COUNT_BATCH 8192

/*
 * One pass over the spool: counts[t * npages + p] = entries of table t's bucket p of the map. The
 * rows are taken a batch at a time and counted one table after the other, so that the increments
 * hit one table's counters at a time (577 kB at 100M rows, within a core's cache) rather than
 * every table's (5.8 MB with the 10 tables of 100M rows: a cache miss per increment).
 */
static uint32 *
ndd_count_buckets(NddBuildState *bs, const NddMapView *mv)
{
	const NddLayout *layout = &mv->meta->layout;
	uint32	   *counts;
	uint64	   *words;
	uint64	   *perm;
	NddSpoolItem it;
	NddPermutation pm[NDD_LAYOUT_MAX_TABLES];
	int			t;
	bool		more = true;

	/* each table's permutation once, not once per row */
	for (t = 0; t < layout->ntables; t++)
		ndd_layout_permutation(layout, t, &pm[t]);
	counts = MemoryContextAllocHuge(CurrentMemoryContext,
									sizeof(uint32) * (Size) layout->ntables * mv->npages);
	memset(counts, 0, sizeof(uint32) * (Size) layout->ntables * mv->npages);
	words = palloc(sizeof(uint64) * 2 * NDD_COUNT_BATCH);
	perm = palloc(sizeof(uint64) * 2 * NDD_COUNT_BATCH);
	spool_reader_rewind(&bs->rows);
	while (more)
	{
		int			n = 0;
		int			i;

		while (n < NDD_COUNT_BATCH && (more = spool_reader_next(&bs->rows, &it)))
		{
			words[2 * n] = it.words[0];
			words[2 * n + 1] = it.words[1];
			n++;
		}
		CHECK_FOR_INTERRUPTS();
		for (t = 0; t < layout->ntables; t++)
		{
			uint32	   *tc = counts + (Size) t * mv->npages;

			ndd_permutation_apply_n(&pm[t], words, n, perm);
			for (i = 0; i < n; i++)
				tc[ndd_page_of(perm[2 * i], mv->npages)]++;
		}
	}
	pfree(words);
	pfree(perm);
	return counts;
}

/* Copies the overflow pages of a table from their temporary file to the relation. */
static void
ndd_flush_overflow(NddWriter *w, BufFile *ovf, BlockNumber first, BlockNumber n)
{
	PGAlignedBlock buf;
	BlockNumber i;

	if (n == 0)
		return;
	if (BufFileSeek(ovf, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rewind the ndd overflow file")));
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (BufFileRead(ovf, buf.data, BLCKSZ) != BLCKSZ)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read the ndd overflow file")));
		ndd_write_page(w, (Page) buf.data, first + i);
	}
}

/* Rewinds the spool for another pass. */
static void
spool_rewind(NddBuildState *bs)
{
	spool_reader_rewind(&bs->rows);
}

/*
 * A chunk of buckets [p0, p1) of a table being filled, in bucket order. In memory: the page
 * images of every chain of the chunk, first[b] the image of bucket p0 + b's primary page, fill[b]
 * the page of its chain being filled, entries gathered in batch and placed a batch at a time.
 * Streamed (one bucket larger than memory on its own, heavily skewed data): its chain is written
 * page by page as pages fill.
 */
typedef struct NddChunk
{
	/* the table */
	const NddMapView *mv;
	const NddFormat *f;
	const uint32 *counts;		/* the table's bucket sizes, from bucket 0 */
	int			cap;
	int			t;
	BufFile    *ovf;			/* the table's overflow pages, in block order */
	BlockNumber ovf_first;		/* block of the chunk's first overflow page */
	/* the chunk */
	uint32		p0;
	uint32		p1;
	bool		streamed;
	/* in memory */
	char	   *images;
	uint32	   *first;
	uint32	   *fill;
	NddBuildEntry *batch;		/* the table's batch and the sort's scratch */
	NddBuildEntry *sortbuf;
	Size		batch_cap;
	Size		nbatch;
	/* streamed */
	PGAlignedBlock primary;
	PGAlignedBlock over;
	Page		cur;
	uint32		j;				/* cur's position in the chain */
	int64	   *entries_done;
} NddChunk;

/*
 * Appends a batch of entries to their chains' pages in the chunk's images: sorted by bucket first
 * (stably, so each chain still gets its entries in spool order), the pages are filled one after the
 * other, each while it is in cache, instead of one random page of the images per entry.
 */
static void
place_batch(NddChunk *c)
{
	NddBuildEntry *sorted;
	uint32		cur = PG_UINT32_MAX;
	uint64		low = 0;
	Page		page = NULL;
	size_t		i;

	ndd_raise_status(ndd_build_entries_sort(c->batch, c->sortbuf, c->nbatch,
											ndd_bits_for(c->p1 - c->p0 - 1), &sorted,
											ndd_interrupt_pending),
					 "the ndd build's batch sort");
	for (i = 0; i < c->nbatch; i++)
	{
		const NddBuildEntry *e = &sorted[i];
		uint32		b = e->bucket;

		if (b != cur)
		{
			/* a new run: its bucket's page being filled, the lowest head of its range */
			cur = b;
			low = ndd_page_low(c->p0 + b, c->mv->npages);
			page = (Page) (c->images + (Size) (c->first[b] + c->fill[b]) * BLCKSZ);
		}
		if (!ndd_page_has_room(page, c->f))
		{
			c->fill[b]++;
			if (c->fill[b] >= chain_pages(c->counts[c->p0 + b], c->cap))
				elog(ERROR, "ndd build: bucket %u of table %d grew during the build", c->p0 + b, c->t);
			page = (Page) (c->images + (Size) (c->first[b] + c->fill[b]) * BLCKSZ);
		}
		ndd_page_append(page, c->f, e->perm[0] - low, e->perm[1], e->block, e->offset);
	}
	*c->entries_done += c->nbatch;
	c->nbatch = 0;
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, *c->entries_done);
}

/*
 * Starts filling chunk [p0, p1) of npg pages (in memory when streamed is false: its images
 * allocated in cxt, every page initialized and linked to its successor).
 */
static void
chunk_begin(NddChunk *c, uint32 p0, uint32 p1, uint32 npg, bool streamed, MemoryContext cxt)
{
	uint32		n;

	c->p0 = p0;
	c->p1 = p1;
	c->streamed = streamed;
	c->nbatch = 0;
	if (streamed)
	{
		Assert(p1 == p0 + 1);
		n = chain_pages(c->counts[p0], c->cap);
		c->cur = (Page) c->primary.data;
		c->j = 0;
		ndd_primary_init(c->cur, c->mv->meta->generation, c->f);
		if (n > 1)
			NddPageGetOpaque(c->cur)->next = c->ovf_first;
	}
	else
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(cxt);
		BlockNumber ovf = c->ovf_first;
		uint32		img = 0;
		uint32		p;

		c->images = palloc_extended((Size) npg * BLCKSZ, MCXT_ALLOC_HUGE);
		c->first = palloc(sizeof(uint32) * (p1 - p0));
		c->fill = palloc0(sizeof(uint32) * (p1 - p0));
		MemoryContextSwitchTo(oldcxt);
		for (p = p0; p < p1; p++)
		{
			uint32		j;

			n = chain_pages(c->counts[p], c->cap);
			c->first[p - p0] = img;
			for (j = 0; j < n; j++)
			{
				Page		page = (Page) (c->images + (Size) (img + j) * BLCKSZ);

				if (j == 0)
					ndd_primary_init(page, c->mv->meta->generation, c->f);
				else
					ndd_page_init(page, NDD_PAGE_OVERFLOW, c->f);
				if (j + 1 < n)
					NddPageGetOpaque(page)->next = ovf + j;
			}
			img += n;
			ovf += n - 1;
		}
	}
}

/*
 * Adds an entry to the chunk: perm is the row's permuted fingerprint in the table, bucket its
 * bucket (in the chunk), entries added in spool order.
 */
static inline void
chunk_add(NddChunk *c, const uint64 perm[2], uint32 bucket, BlockNumber block, OffsetNumber offset)
{
	if (!c->streamed)
	{
		NddBuildEntry *e = &c->batch[c->nbatch++];

		e->perm[0] = perm[0];
		e->perm[1] = perm[1];
		e->bucket = bucket - c->p0;
		e->block = block;
		e->offset = offset;
		if (c->nbatch == c->batch_cap)
			place_batch(c);
		return;
	}
	if (!ndd_page_has_room(c->cur, c->f))
	{
		uint32		n = chain_pages(c->counts[c->p0], c->cap);

		ndd_page_sort(c->cur, c->f);
		if (c->j > 0)
			BufFileWrite(c->ovf, c->cur, BLCKSZ);
		c->j++;
		if (c->j >= n)
			elog(ERROR, "ndd build: bucket %u of table %d grew during the build", c->p0, c->t);
		c->cur = (Page) c->over.data;
		ndd_page_init(c->cur, NDD_PAGE_OVERFLOW, c->f);
		if (c->j + 1 < n)
			NddPageGetOpaque(c->cur)->next = c->ovf_first + c->j;
	}
	ndd_page_append(c->cur, c->f, perm[0] - ndd_page_low(c->p0, c->mv->npages), perm[1],
					block, offset);
	(*c->entries_done)++;
}

/*
 * Ends the chunk: its primaries go to the relation (in block order from start + p0), its overflow
 * pages to the table's overflow file, every page in head order (README.index.md, "Sorted pages");
 * the chunk's memory is freed with cxt.
 */
static void
chunk_finish(NddChunk *c, NddWriter *w, BlockNumber start, MemoryContext cxt)
{
	uint32		p;

	if (c->streamed)
	{
		uint32		n = chain_pages(c->counts[c->p0], c->cap);

		ndd_page_sort(c->cur, c->f);
		if (c->j > 0)
			BufFileWrite(c->ovf, c->cur, BLCKSZ);
		/* chains are written whole: pages the counts promised but the pass did not fill */
		while (++c->j < n)
		{
			ndd_page_init(c->over.data, NDD_PAGE_OVERFLOW, c->f);
			if (c->j + 1 < n)
				NddPageGetOpaque((Page) c->over.data)->next = c->ovf_first + c->j;
			BufFileWrite(c->ovf, c->over.data, BLCKSZ);
		}
		ndd_write_page(w, (Page) c->primary.data, start + c->p0);
		c->ovf_first += n - 1;
	}
	else
	{
		if (c->nbatch > 0)
			place_batch(c);
		for (p = c->p0; p < c->p1; p++)
		{
			uint32		n = chain_pages(c->counts[p], c->cap);
			uint32		j;

			for (j = 0; j < n; j++)
				ndd_page_sort((Page) (c->images + (Size) (c->first[p - c->p0] + j) * BLCKSZ), c->f);
			ndd_write_page(w, (Page) (c->images + (Size) c->first[p - c->p0] * BLCKSZ), start + p);
			for (j = 1; j < n; j++)
				BufFileWrite(c->ovf, c->images + (Size) (c->first[p - c->p0] + j) * BLCKSZ, BLCKSZ);
			c->ovf_first += n - 1;
		}
	}
	MemoryContextReset(cxt);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, *c->entries_done);
}

/*
 * The most chunks of a table one pass over the spool distributes (NDD_BUILD_RUN_BYTES of memory
 * each, a temporary file's buffer): with the table's pages in memory a quarter of a table at a time,
 * one pass for any table below 64 times maintenance_work_mem.
 */
#define NDD_BUILD_MAX_RUNS 256
#define NDD_BUILD_RUN_BYTES (BLCKSZ + 1024)

/* Rows a table's pass over the spool permutes at once. */
#define NDD_PASS_BATCH 1024

/*
 * Writes table t, whose bucket sizes are counts[0..npages-1]: its primaries, then its overflow
 * pages. Every chain's length and position is known from the counts, so each page is written
 * complete, with its successor's block number, exactly once.
 *
 * The table is cut into chunks of consecutive buckets whose pages fit in memory. One pass over the
 * spool permutes every row and fills the first chunk in memory while it appends the entries of
 * each later chunk to that chunk's own temporary file (its run, in spool order); each run is then
 * read back to fill its chunk. So the spool is read once per table, not once per chunk (at 100M
 * rows with 1 GB shared by 3 participants, 4 chunks per table: the page phase read 4 spools of
 * 1.4 GB per table), and a run holds only its chunk's entries, already permuted.
 */
static void
ndd_write_table(NddWriter *w, NddBuildState *bs, const NddMapView *mv, int t,
				const uint32 *counts, int64 *entries_done)
{
	NddPermutation pm;
	NddFormat	f;
	NddChunk   *c = palloc0(sizeof(NddChunk));	/* two page images: not on the stack */
	BlockNumber start = ndd_primary_block(mv, t, 0);
	Size		mem = (Size) bs->mem_kb * 1024;
	Size		batch_cap;
	uint32		budget;
	uint32	   *bounds;			/* chunk i: buckets [bounds[i], bounds[i + 1]) */
	uint32		nchunks = 0;
	uint32		maxruns;
	uint32		c0;
	uint32		p;
	BufFile   **runs;
	NddSpoolItem *items = palloc(sizeof(NddSpoolItem) * NDD_PASS_BATCH);
	uint64	   *words = palloc(sizeof(uint64) * 2 * NDD_PASS_BATCH);
	uint64	   *perm = palloc(sizeof(uint64) * 2 * NDD_PASS_BATCH);

	ndd_layout_permutation(&mv->meta->layout, t, &pm);
	ndd_format_for(mv->delta_bits, mv->wide, mv->meta->block_bits, mv->meta->offset_bits, &f);
	c->mv = mv;
	c->f = &f;
	c->counts = counts;
	c->cap = ndd_format_capacity(&f);
	c->t = t;
	c->ovf = BufFileCreateTemp(false);
	c->ovf_first = start + mv->npages;
	c->entries_done = entries_done;

	/*
	 * An eighth of the memory (up to NDD_BUILD_BATCH entries) holds a batch of entries and the
	 * sort's scratch, a sixteenth (up to NDD_BUILD_MAX_RUNS) the runs' buffers, the rest the
	 * chunk's page images.
	 */
	batch_cap = Min(mem / 8 / (2 * sizeof(NddBuildEntry)), NDD_BUILD_BATCH);
	batch_cap = Max(batch_cap, 64);
	c->batch_cap = batch_cap;
	c->batch = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(NddBuildEntry) * batch_cap);
	c->sortbuf = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(NddBuildEntry) * batch_cap);
	maxruns = (uint32) Min(Max(mem / 16 / NDD_BUILD_RUN_BYTES, 1), NDD_BUILD_MAX_RUNS);
	budget = (uint32) Max(16, ((int64) mem - (int64) (2 * sizeof(NddBuildEntry) * batch_cap) -
							   (int64) maxruns * NDD_BUILD_RUN_BYTES) / BLCKSZ);

	/* the chunks: the largest runs of buckets whose pages fit in the budget (one bucket at least) */
	bounds = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint32) * ((Size) mv->npages + 1));
	for (p = 0; p < mv->npages;)
	{
		uint32		npg = 0;

		bounds[nchunks++] = p;
		while (p < mv->npages &&
			   (npg == 0 || npg + chain_pages(counts[p], c->cap) <= budget))
			npg += chain_pages(counts[p++], c->cap);
	}
	bounds[nchunks] = mv->npages;
	runs = palloc0(sizeof(BufFile *) * (maxruns + 1));

	/* a pass over the spool per 1 + maxruns chunks: chunk c0 in memory, the others to runs */
	for (c0 = 0; c0 < nchunks;)
	{
		uint32		c1 = Min(nchunks, c0 + 1 + maxruns);
		uint32		lo = bounds[c0];
		uint32		hi = bounds[c1];
		uint32		mid = bounds[c0 + 1];	/* chunk c0 ends here */
		uint32		i;
		NddSpoolItem it;

		for (i = c0 + 1; i < c1; i++)
			runs[i - c0] = BufFileCreateTemp(false);
		for (i = c0; i < c1; i++)
		{
			uint32		npg = 0;

			for (p = bounds[i]; p < bounds[i + 1]; p++)
				npg += chain_pages(counts[p], c->cap);
			if (i == c0)
			{
				chunk_begin(c, bounds[i], bounds[i + 1], npg, npg > budget, bs->tmpcxt);
				spool_rewind(bs);
				for (;;)
				{
					int			n = 0;
					int			k;

					/* a batch of rows, permuted in one call */
					while (n < NDD_PASS_BATCH && spool_reader_next(&bs->rows, &it))
					{
						items[n] = it;
						words[2 * n] = it.words[0];
						words[2 * n + 1] = it.words[1];
						n++;
					}
					if (n == 0)
						break;
					CHECK_FOR_INTERRUPTS();
					ndd_permutation_apply_n(&pm, words, n, perm);
					for (k = 0; k < n; k++)
					{
						uint32		bucket = ndd_page_of(perm[2 * k], mv->npages);

						if (bucket < lo || bucket >= hi)
							continue;
						if (bucket < mid)
							chunk_add(c, perm + 2 * k, bucket, items[k].block, items[k].offset);
						else
						{
							/* its chunk: the last whose first bucket is at most bucket */
							uint32		a = c0 + 1;
							uint32		b = c1 - 1;
							NddSpoolItem run;

							while (a < b)
							{
								uint32		m = (a + b + 1) / 2;

								if (bounds[m] <= bucket)
									a = m;
								else
									b = m - 1;
							}
							run.words[0] = perm[2 * k];
							run.words[1] = perm[2 * k + 1];
							run.block = items[k].block;
							run.offset = items[k].offset;
							spool_write(runs[a - c0], bs->bits, &run);
						}
					}
					if (n < NDD_PASS_BATCH)
						break;
				}
			}
			else
			{
				BufFile    *run = runs[i - c0];

				chunk_begin(c, bounds[i], bounds[i + 1], npg, npg > budget, bs->tmpcxt);
				if (BufFileSeek(run, 0, 0, SEEK_SET) != 0)
					ereport(ERROR,
							(errcode_for_file_access(),
							 errmsg("could not rewind an ndd build run")));
				while (spool_read(run, bs->bits, &it))
				{
					CHECK_FOR_INTERRUPTS();
					chunk_add(c, it.words, ndd_page_of(it.words[0], mv->npages), it.block, it.offset);
				}
				BufFileClose(run);
				runs[i - c0] = NULL;
			}
			chunk_finish(c, w, start, bs->tmpcxt);
		}
		c0 = c1;
	}

	ndd_flush_overflow(w, c->ovf, start + mv->npages, c->ovf_first - (start + mv->npages));
	BufFileClose(c->ovf);
	pfree(runs);
	pfree(bounds);
	pfree(items);
	pfree(words);
	pfree(perm);
	pfree(c->batch);
	pfree(c->sortbuf);
	pfree(c);
}

/* The pages of the NULL chain of nnulls rows (one, empty, for none). */
static BlockNumber
null_chain_pages(int64 nnulls)
{
	NddFormat	f = {NDD_NULL_ENTRY_BYTES, NDD_NULL_BLOCK_BITS, NDD_NULL_OFFSET_BITS, 0, false};

	if (nnulls > (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many NULL rows for an ndd index")));
	return (BlockNumber) chain_pages((uint32) nnulls, ndd_format_capacity(&f));
}

/* Writes the NULL chain from its spool: full pages of TIDs, consecutive blocks from start. */
static BlockNumber
ndd_write_nulls(NddWriter *w, NddBuildState *bs, BlockNumber start)
{
	NddFormat	f = {NDD_NULL_ENTRY_BYTES, NDD_NULL_BLOCK_BITS, NDD_NULL_OFFSET_BITS, 0, false};
	BlockNumber n = null_chain_pages(bs->nnulls);
	BlockNumber j = 0;
	PGAlignedBlock buf;
	Page		page = (Page) buf.data;
	NddSpoolItem it;

	ndd_page_init(page, NDD_PAGE_NULLS, &f);
	spool_reader_rewind(&bs->nullrows);
	while (spool_reader_next(&bs->nullrows, &it))
	{
		CHECK_FOR_INTERRUPTS();
		if (!ndd_page_has_room(page, &f))
		{
			NddPageGetOpaque(page)->next = start + j + 1;
			ndd_write_page(w, page, start + j);
			j++;
			ndd_page_init(page, NDD_PAGE_NULLS, &f);
		}
		ndd_page_append(page, &f, 0, 0, it.block, it.offset);
	}
	ndd_write_page(w, page, start + j);
	Assert(j + 1 == n);
	return n;
}

/* Writes the metapage image of meta as block 0 (appending or rewriting it). */
static void
ndd_write_meta(NddWriter *w, const NddMetaPageData *meta)
{
	PGAlignedBlock buf;
	Page		page = (Page) buf.data;

	ndd_page_init(page, NDD_PAGE_META, NULL);
	memcpy(NddPageGetMeta(page), meta, sizeof(NddMetaPageData));
	((PageHeader) page)->pd_lower = ((char *) NddPageGetMeta(page) + sizeof(NddMetaPageData)) - (char *) page;
	ndd_write_page(w, page, NDD_METAPAGE_BLKNO);
}

/*
 * Lays out the map's tables (extent 0) after the metapage from the bucket counts (NULL when every bucket
 * is empty): fills table_start and null_start, returns the overflow pages of each table in novf.
 */
static void
ndd_place_tables(NddMetaPageData *meta, const uint32 *counts, BlockNumber *novf)
{
	NddMapView	mv;
	NddFormat	f;
	int			cap;
	BlockNumber next = NDD_METAPAGE_BLKNO + 1;
	int			t;

	ndd_map_view(meta, false, &mv);
	ndd_format_for(mv.delta_bits, mv.wide, meta->block_bits, meta->offset_bits, &f);
	cap = ndd_format_capacity(&f);
	for (t = 0; t < meta->layout.ntables; t++)
	{
		uint64		n = 0;
		uint32		p;

		if (counts)
			for (p = 0; p < mv.npages; p++)
				n += chain_pages(counts[(Size) t * mv.npages + p], cap) - 1;
		if (n + next + mv.npages >= MaxBlockNumber)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("ndd index would exceed the maximum relation size")));
		novf[t] = (BlockNumber) n;
		meta->table_start[t] = next;
		next += mv.npages + (BlockNumber) n;
	}
	meta->null_start = next;
}

/* ---- parallel build ---- */

/* Keys of the parallel build's entries in its DSM segment's table of contents. */
#define NDD_PARALLEL_KEY_SHARED		UINT64CONST(0xDD00000000000001)
#define NDD_PARALLEL_KEY_QUERY_TEXT	UINT64CONST(0xDD00000000000002)
#define NDD_PARALLEL_KEY_WAL_USAGE	UINT64CONST(0xDD00000000000003)
#define NDD_PARALLEL_KEY_BUFFER_USAGE UINT64CONST(0xDD00000000000004)

/*
 * The phases of a parallel build, each run by every participant (the leader and its workers); the
 * leader starts the next one when all have finished the current one:
 *  1. scan: each spools its share of the heap to its files "rows.N" and "nulls.N";
 *  2. count (the leader has planned the shape): each counts the buckets of every table over its
 *     own spool, to "counts.N"; the leader sums them and places the tables;
 *  3. write (the leader has written the metapage and extended the relation to its final size):
 *     each takes tables in turn and writes each one's pages (reading every spool, merged by heap
 *     block) straight into the relation at the blocks the leader placed them at, WAL-logged, as
 *     the serial build writes them; the leader writes the NULL chain first.
 * Then the leader syncs the relation (its fsync covers every participant's writes to the files).
 */
#define NDD_PHASE_SCAN		1
#define NDD_PHASE_COUNT		2
#define NDD_PHASE_WRITE		3

/*
 * What the leader and its workers share, in the DSM segment; the parallel heap scan's descriptor
 * follows it (NddParallelScan).
 */
typedef struct NddBuildShared
{
	/* set by the leader before the workers start */
	Oid			heaprelid;
	Oid			indexrelid;
	bool		isconcurrent;
	bool		use_wal;		/* the leader's RelationNeedsWAL(index): a worker's relcache
								 * does not know the index is new in this transaction, which
								 * spares it WAL under wal_level = minimal */
	int			bits;
	int			mem_kb;			/* each participant's share of maintenance_work_mem */
	SharedFileSet fileset;		/* the spools and counts (see the phases) */
	ConditionVariable cv;		/* signalled when a participant ends a phase or one starts */

	/* under mutex */
	slock_t		mutex;
	int			phase;			/* NDD_PHASE_* the participants may run */
	int			nparticipants;	/* set when the count phase starts */
	int			ndone;			/* participants done with the phase */
	int			next_table;		/* the write phase's next table to take */
	int64		entries_done;	/* entries of the tables written, for the progress report */
	/* what the participants' scans found, summed as each finishes */
	double		heap_tuples;
	int64		nrows;
	int64		nnulls;
	BlockNumber max_block;
	OffsetNumber max_offset;
	bool		brokenhotchain;	/* a scan found a broken HOT chain: index_build sets
								 * indcheckxmin from the caller's IndexInfo (as nbtree's
								 * btshared->brokenhotchain) */

	/*
	 * set by the leader when it starts the count phase (the shape), then the write phase (placed;
	 * nblocks: the relation's size, extended to it)
	 */
	NddMetaPageData meta;
	BlockNumber nblocks;
} NddBuildShared;

#define NddParallelScan(shared) \
	((ParallelTableScanDesc) ((char *) (shared) + BUFFERALIGN(sizeof(NddBuildShared))))

/* The leader's handle on its workers. */
typedef struct NddLeader
{
	ParallelContext *pcxt;
	NddBuildShared *shared;
	Snapshot	snapshot;
	int			nparticipants;	/* the launched workers and the leader */
	WalUsage   *walusage;
	BufferUsage *bufferusage;
} NddLeader;

PGDLLEXPORT void ndd_parallel_build_main(dsm_segment *seg, shm_toc *toc);

static void
shared_file_name(char *name, size_t size, const char *what, int n)
{
	snprintf(name, size, "%s.%d", what, n);
}

static BufFile *
shared_file_open(NddBuildShared *shared, const char *what, int n)
{
	char		name[MAXPGPATH];

	shared_file_name(name, sizeof(name), what, n);
	return BufFileOpenFileSet(&shared->fileset.fs, name, O_RDONLY, false);
}

static BufFile *
shared_file_create(NddBuildShared *shared, const char *what, int n)
{
	char		name[MAXPGPATH];

	shared_file_name(name, sizeof(name), what, n);
	return BufFileCreateFileSet(&shared->fileset.fs, name);
}

/* A participant has finished the current phase. */
static void
ndd_phase_done(NddBuildShared *shared)
{
	SpinLockAcquire(&shared->mutex);
	shared->ndone++;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->cv);
}

/* A worker waits for the leader to start phase (cancellable: the sleep checks for interrupts). */
static void
ndd_wait_phase(NddBuildShared *shared, int phase)
{
	for (;;)
	{
		int			cur;

		SpinLockAcquire(&shared->mutex);
		cur = shared->phase;
		SpinLockRelease(&shared->mutex);
		if (cur >= phase)
			break;
		ConditionVariableSleep(&shared->cv, WAIT_EVENT_PARALLEL_CREATE_INDEX_SCAN);
	}
	ConditionVariableCancelSleep();
}

/* The leader waits for every participant to finish the current phase, then starts next. */
static void
ndd_next_phase(NddLeader *leader, int next)
{
	NddBuildShared *shared = leader->shared;

	for (;;)
	{
		int			ndone;

		SpinLockAcquire(&shared->mutex);
		ndone = shared->ndone;
		SpinLockRelease(&shared->mutex);
		if (ndone >= leader->nparticipants)
			break;
		ConditionVariableSleep(&shared->cv, WAIT_EVENT_PARALLEL_CREATE_INDEX_SCAN);
	}
	ConditionVariableCancelSleep();
	if (next == 0)
		return;
	SpinLockAcquire(&shared->mutex);
	shared->ndone = 0;
	shared->phase = next;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->cv);
}

/*
 * Phase 1, one participant's share: scans the heap blocks the parallel scan hands it, spooling
 * them to its own files, then adds what it found to the shared totals. The leader reports the
 * scan's progress (its blocks done are the parallel scan's position).
 */
static void
ndd_parallel_scan_share(NddBuildShared *shared, Relation heap, Relation index, int participant,
						bool progress)
{
	NddBuildState bs;
	IndexInfo  *indexInfo;
	TableScanDesc scan;

	memset(&bs, 0, sizeof(bs));
	bs.bits = shared->bits;
	bs.spool = shared_file_create(shared, "rows", participant);
	bs.nulls = shared_file_create(shared, "nulls", participant);

	indexInfo = BuildIndexInfo(index);
	indexInfo->ii_Concurrent = shared->isconcurrent;
	scan = table_beginscan_parallel(heap, NddParallelScan(shared));
	bs.heap_tuples = table_index_build_scan(heap, index, indexInfo, true, progress,
											ndd_build_callback, (void *) &bs, scan);
	/* the others open the files by name: flush and close them */
	BufFileClose(bs.spool);
	BufFileClose(bs.nulls);

	SpinLockAcquire(&shared->mutex);
	shared->heap_tuples += bs.heap_tuples;
	shared->nrows += bs.nrows;
	shared->nnulls += bs.nnulls;
	shared->max_block = Max(shared->max_block, bs.max_block);
	shared->max_offset = Max(shared->max_offset, bs.max_offset);
	shared->brokenhotchain |= indexInfo->ii_BrokenHotChain;
	SpinLockRelease(&shared->mutex);
	ndd_phase_done(shared);
}

/* Phase 2, one participant's share: the bucket counts of its own spool, every table. */
static void
ndd_parallel_count_share(NddBuildShared *shared, int participant)
{
	NddBuildState bs;
	NddMetaPageData meta = shared->meta;
	NddMapView	view;
	BufFile    *files[1];
	BufFile    *out;
	uint32	   *counts;

	memset(&bs, 0, sizeof(bs));
	bs.bits = shared->bits;
	files[0] = shared_file_open(shared, "rows", participant);
	spool_reader_init(&bs.rows, bs.bits, files, 1);
	ndd_map_view(&meta, false, &view);
	counts = ndd_count_buckets(&bs, &view);
	spool_reader_close(&bs.rows);

	out = shared_file_create(shared, "counts", participant);
	BufFileWrite(out, counts, sizeof(uint32) * (Size) meta.layout.ntables * view.npages);
	BufFileClose(out);
	pfree(counts);
	ndd_phase_done(shared);
}

/* Reads n counts from file, closing it. */
static void
read_counts(BufFile *file, uint32 *counts, Size n)
{
	if (BufFileRead(file, counts, sizeof(uint32) * n) != sizeof(uint32) * n)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the ndd build's bucket counts")));
	BufFileClose(file);
}

/*
 * Phase 3, one participant's share: takes tables in turn and writes each one's pages into the
 * relation, at the blocks the leader placed it at (the relation already has them: ndd_extend_to).
 */
static void
ndd_parallel_write_share(NddBuildShared *shared, Relation index, bool leader)
{
	NddBuildState bs;
	NddMetaPageData meta = shared->meta;
	NddMapView	view;
	BufFile   **files = palloc(sizeof(BufFile *) * shared->nparticipants);
	uint32	   *counts;
	Size		ncounts;
	int			i;

	memset(&bs, 0, sizeof(bs));
	bs.bits = shared->bits;
	bs.mem_kb = shared->mem_kb;
	bs.tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "ndd build", ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < shared->nparticipants; i++)
		files[i] = shared_file_open(shared, "rows", i);
	spool_reader_init(&bs.rows, bs.bits, files, shared->nparticipants);
	ndd_map_view(&meta, false, &view);
	ncounts = (Size) meta.layout.ntables * view.npages;
	counts = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint32) * ncounts);
	read_counts(shared_file_open(shared, "counts", shared->nparticipants), counts, ncounts);

	for (;;)
	{
		NddWriter	w;
		int64		done = 0;
		int64		before;
		int			t;

		SpinLockAcquire(&shared->mutex);
		t = shared->next_table++;
		before = shared->entries_done;
		SpinLockRelease(&shared->mutex);
		if (t >= meta.layout.ntables)
			break;
		/* the leader's progress counts every participant's tables done, then its own entries */
		if (leader)
			done = before;
		w.index = index;
		w.fork = MAIN_FORKNUM;
		w.use_wal = shared->use_wal;
		w.nwritten = shared->nblocks;
		ndd_write_table(&w, &bs, &view, t, counts + (Size) t * view.npages, &done);
		SpinLockAcquire(&shared->mutex);
		shared->entries_done += done - (leader ? before : 0);
		SpinLockRelease(&shared->mutex);
	}
	spool_reader_close(&bs.rows);
	pfree(counts);
	MemoryContextDelete(bs.tmpcxt);
	ndd_phase_done(shared);
}

/* Entry point of a parallel build's worker (CreateParallelContext names it). */
void
ndd_parallel_build_main(dsm_segment *seg, shm_toc *toc)
{
	NddBuildShared *shared = shm_toc_lookup(toc, NDD_PARALLEL_KEY_SHARED, false);
	char	   *sharedquery = shm_toc_lookup(toc, NDD_PARALLEL_KEY_QUERY_TEXT, true);
	WalUsage   *walusage;
	BufferUsage *bufferusage;
	LOCKMODE	heaplock;
	LOCKMODE	indexlock;
	Relation	heap;
	Relation	index;
	int			participant = ParallelWorkerNumber + 1;

	/* the leader's query, for pg_stat_activity */
	debug_query_string = sharedquery;
	pgstat_report_activity(STATE_RUNNING, debug_query_string);

	/* the locks the leader holds (group locking lets the worker take them too), as nbtree */
	if (shared->isconcurrent)
		heaplock = indexlock = ShareUpdateExclusiveLock;
	else
	{
		heaplock = ShareLock;
		indexlock = RowExclusiveLock;
	}
	heap = table_open(shared->heaprelid, heaplock);
	index = index_open(shared->indexrelid, indexlock);
	SharedFileSetAttach(&shared->fileset, seg);

	InstrStartParallelQuery();
	ndd_parallel_scan_share(shared, heap, index, participant, false);
	ndd_wait_phase(shared, NDD_PHASE_COUNT);
	ndd_parallel_count_share(shared, participant);
	ndd_wait_phase(shared, NDD_PHASE_WRITE);
	ndd_parallel_write_share(shared, index, false);
	walusage = shm_toc_lookup(toc, NDD_PARALLEL_KEY_WAL_USAGE, false);
	bufferusage = shm_toc_lookup(toc, NDD_PARALLEL_KEY_BUFFER_USAGE, false);
	InstrEndParallelQuery(&bufferusage[ParallelWorkerNumber], &walusage[ParallelWorkerNumber]);

	index_close(index, indexlock);
	table_close(heap, heaplock);
}

/*
 * Starts nworkers workers on a parallel scan of heap; false (nothing started) when none could be
 * launched, and the build is then serial.
 */
static bool
ndd_begin_parallel(NddLeader *leader, Relation heap, Relation index, bool isconcurrent,
				   int nworkers)
{
	ParallelContext *pcxt;
	Snapshot	snapshot;
	Size		estshared;
	NddBuildShared *shared;
	char	   *sharedquery;
	int			querylen = 0;

	EnterParallelMode();
	pcxt = CreateParallelContext("ndd", "ndd_parallel_build_main", nworkers);

	/* as nbtree: every row version for a plain build, an MVCC snapshot for CONCURRENTLY */
	snapshot = isconcurrent ? RegisterSnapshot(GetTransactionSnapshot()) : SnapshotAny;

	estshared = add_size(BUFFERALIGN(sizeof(NddBuildShared)),
						 table_parallelscan_estimate(heap, snapshot));
	shm_toc_estimate_chunk(&pcxt->estimator, estshared);
	shm_toc_estimate_chunk(&pcxt->estimator, mul_size(sizeof(WalUsage), pcxt->nworkers));
	shm_toc_estimate_chunk(&pcxt->estimator, mul_size(sizeof(BufferUsage), pcxt->nworkers));
	shm_toc_estimate_keys(&pcxt->estimator, 3);
	if (debug_query_string)
	{
		querylen = strlen(debug_query_string);
		shm_toc_estimate_chunk(&pcxt->estimator, querylen + 1);
		shm_toc_estimate_keys(&pcxt->estimator, 1);
	}

	InitializeParallelDSM(pcxt);
	if (pcxt->seg == NULL)
	{
		/* no DSM segment could be made: serial */
		if (IsMVCCSnapshot(snapshot))
			UnregisterSnapshot(snapshot);
		DestroyParallelContext(pcxt);
		ExitParallelMode();
		return false;
	}

	shared = (NddBuildShared *) shm_toc_allocate(pcxt->toc, estshared);
	memset(shared, 0, sizeof(NddBuildShared));
	shared->heaprelid = RelationGetRelid(heap);
	shared->indexrelid = RelationGetRelid(index);
	shared->isconcurrent = isconcurrent;
	shared->use_wal = RelationNeedsWAL(index);
	shared->bits = ndd_index_bits(index);
	/* as nbtree shares it among its sorts: the participants' pages together fit in it */
	shared->mem_kb = Max(64, maintenance_work_mem / (pcxt->nworkers + 1));
	shared->phase = NDD_PHASE_SCAN;
	SpinLockInit(&shared->mutex);
	ConditionVariableInit(&shared->cv);
	SharedFileSetInit(&shared->fileset, pcxt->seg);
	table_parallelscan_initialize(heap, NddParallelScan(shared), snapshot);

	/*
	 * No synchronized scan: the heap is read from block 0 up, as the serial build reads it, so that
	 * the merged spools are the serial spool (see the file's header).
	 */
	NddParallelScan(shared)->phs_syncscan = false;
	shm_toc_insert(pcxt->toc, NDD_PARALLEL_KEY_SHARED, shared);

	leader->walusage = shm_toc_allocate(pcxt->toc, mul_size(sizeof(WalUsage), pcxt->nworkers));
	shm_toc_insert(pcxt->toc, NDD_PARALLEL_KEY_WAL_USAGE, leader->walusage);
	leader->bufferusage = shm_toc_allocate(pcxt->toc, mul_size(sizeof(BufferUsage), pcxt->nworkers));
	shm_toc_insert(pcxt->toc, NDD_PARALLEL_KEY_BUFFER_USAGE, leader->bufferusage);
	if (debug_query_string)
	{
		sharedquery = (char *) shm_toc_allocate(pcxt->toc, querylen + 1);
		memcpy(sharedquery, debug_query_string, querylen + 1);
		shm_toc_insert(pcxt->toc, NDD_PARALLEL_KEY_QUERY_TEXT, sharedquery);
	}

	LaunchParallelWorkers(pcxt);
	if (pcxt->nworkers_launched == 0)
	{
		if (IsMVCCSnapshot(snapshot))
			UnregisterSnapshot(snapshot);
		DestroyParallelContext(pcxt);
		ExitParallelMode();
		return false;
	}

	/*
	 * The leader waits on the workers at each phase's end: a worker that failed to start must
	 * raise an error here rather than leave it waiting forever (as nbtree).
	 */
	WaitForParallelWorkersToAttach(pcxt);
	leader->pcxt = pcxt;
	leader->shared = shared;
	leader->snapshot = snapshot;
	leader->nparticipants = pcxt->nworkers_launched + 1;
	return true;
}

/* Phase 1 in the leader: its share of the scan, then the totals of every participant's. */
static void
ndd_parallel_scan(NddLeader *leader, NddBuildState *bs, Relation heap, Relation index,
				  IndexInfo *indexInfo)
{
	NddBuildShared *shared = leader->shared;
	BufFile   **nulls = palloc(sizeof(BufFile *) * leader->nparticipants);
	int			i;

	ndd_parallel_scan_share(shared, heap, index, 0, true);
	ndd_next_phase(leader, 0);
	bs->heap_tuples = shared->heap_tuples;
	bs->nrows = shared->nrows;
	bs->nnulls = shared->nnulls;
	bs->max_block = shared->max_block;
	bs->max_offset = shared->max_offset;
	if (shared->brokenhotchain)
		indexInfo->ii_BrokenHotChain = true;
	for (i = 0; i < leader->nparticipants; i++)
		nulls[i] = shared_file_open(shared, "nulls", i);
	spool_reader_init(&bs->nullrows, 64, nulls, leader->nparticipants);
}

/*
 * Phase 2 in the leader, meta holding the shape: places the tables from every participant's counts
 * (filling meta and novf).
 */
static void
ndd_parallel_place(NddLeader *leader, NddMetaPageData *meta, BlockNumber *novf)
{
	NddBuildShared *shared = leader->shared;
	NddMapView	view;
	uint32	   *counts;
	uint32	   *part;
	Size		ncounts;
	BufFile    *out;
	int			i;

	ndd_map_view(meta, false, &view);
	ncounts = (Size) meta->layout.ntables * view.npages;
	shared->meta = *meta;
	shared->nparticipants = leader->nparticipants;
	ndd_next_phase(leader, NDD_PHASE_COUNT);
	ndd_parallel_count_share(shared, 0);
	ndd_next_phase(leader, 0);

	counts = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint32) * ncounts);
	part = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint32) * ncounts);
	memset(counts, 0, sizeof(uint32) * ncounts);
	for (i = 0; i < leader->nparticipants; i++)
	{
		Size		j;

		read_counts(shared_file_open(shared, "counts", i), part, ncounts);
		for (j = 0; j < ncounts; j++)
			counts[j] += part[j];
	}
	ndd_place_tables(meta, counts, novf);
	/* the sums, as counts.<nparticipants> */
	out = shared_file_create(shared, "counts", leader->nparticipants);
	BufFileWrite(out, counts, sizeof(uint32) * ncounts);
	BufFileClose(out);
	pfree(part);
	pfree(counts);
}

/*
 * Phase 3 in the leader, the tables placed in meta, the metapage written and the relation extended
 * to nblocks (w): the participants write the tables into it, the leader the NULL chain first.
 */
static void
ndd_parallel_write(NddLeader *leader, NddBuildState *bs, Relation index,
				   const NddMetaPageData *meta, NddWriter *w)
{
	NddBuildShared *shared = leader->shared;
	int			i;

	shared->meta = *meta;
	shared->nblocks = w->nwritten;
	ndd_next_phase(leader, NDD_PHASE_WRITE);
	ndd_write_nulls(w, bs, meta->null_start);
	ndd_parallel_write_share(shared, index, true);
	ndd_next_phase(leader, 0);
	WaitForParallelWorkersToFinish(leader->pcxt);
	for (i = 0; i < leader->pcxt->nworkers_launched; i++)
		InstrAccumParallelQuery(&leader->bufferusage[i], &leader->walusage[i]);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, shared->entries_done);
}

/* Ends the parallel context: its shared files go with it. */
static void
ndd_end_parallel(NddLeader *leader)
{
	if (IsMVCCSnapshot(leader->snapshot))
		UnregisterSnapshot(leader->snapshot);
	DestroyParallelContext(leader->pcxt);
	ExitParallelMode();
}

/* ambuild: builds a new ndd index from the heap's rows. */
IndexBuildResult *
ndd_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	NddBuildState bs;
	NddMetaPageData meta;
	NddMapView	view;
	NddWriter	w;
	NddLeader	leader;
	bool		parallel = false;
	uint32	   *counts;
	BlockNumber novf[NDD_LAYOUT_MAX_TABLES];
	int64		done = 0;
	int			nworkers;
	int			t;
	instr_time	t0,
				t1,
				t2,
				t3,
				t4;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data", RelationGetRelationName(index));

	memset(&bs, 0, sizeof(bs));
	memset(&leader, 0, sizeof(leader));
	bs.bits = ndd_index_bits(index);
	bs.mem_kb = maintenance_work_mem;
	bs.tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "ndd build", ALLOCSET_DEFAULT_SIZES);

	INSTR_TIME_SET_CURRENT(t0);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, NDD_BUILD_PHASE_SCAN);
	nworkers = ndd_build_workers(heap, index, indexInfo);
	if (nworkers > 0)
		parallel = ndd_begin_parallel(&leader, heap, index, indexInfo->ii_Concurrent, nworkers);
	if (parallel)
	{
		ereport(DEBUG1,
				(errmsg_internal("ndd build of \"%s\": %d parallel workers",
								 RelationGetRelationName(index), leader.nparticipants - 1)));
		ndd_parallel_scan(&leader, &bs, heap, index, indexInfo);
	}
	else
	{
		BufFile   **files = palloc(sizeof(BufFile *) * 2);

		files[0] = bs.spool = BufFileCreateTemp(false);
		files[1] = bs.nulls = BufFileCreateTemp(false);
		/* no synchronized scan: block order from block 0, as a parallel build reads it */
		bs.heap_tuples = table_index_build_scan(heap, index, indexInfo, false, true,
												ndd_build_callback, (void *) &bs, NULL);
		spool_reader_init(&bs.rows, bs.bits, files, 1);
		spool_reader_init(&bs.nullrows, 64, files + 1, 1);
	}

	INSTR_TIME_SET_CURRENT(t1);
	ndd_plan_shape(index, bs.bits, (double) bs.nrows, heap_blocks_for_rows(heap, index, bs.nrows, bs.max_block),
				   bs.max_offset, true, &meta);
	meta.build_rows = bs.nrows;
	meta.build_nulls = bs.nnulls;
	ndd_map_view(&meta, false, &view);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, NDD_BUILD_PHASE_WRITE);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_TOTAL, bs.nrows * meta.layout.ntables);
	w.index = index;
	w.fork = MAIN_FORKNUM;
	w.use_wal = RelationNeedsWAL(index);
	w.nwritten = 0;
	if (parallel)
	{
		/*
		 * The participants count; the leader places the tables, writes the metapage and gives
		 * the relation its final size; then the participants write the tables into it, the
		 * leader the NULL chain.
		 */
		ndd_parallel_place(&leader, &meta, novf);
		INSTR_TIME_SET_CURRENT(t2);
		ndd_write_meta(&w, &meta);
		ndd_extend_to(&w, meta.null_start + null_chain_pages(bs.nnulls));
		ndd_parallel_write(&leader, &bs, index, &meta, &w);
	}
	else
	{
		counts = ndd_count_buckets(&bs, &view);
		ndd_place_tables(&meta, counts, novf);
		INSTR_TIME_SET_CURRENT(t2);

		/* the counts fixed every block number: the metapage is final before the tables are written */
		ndd_write_meta(&w, &meta);
		for (t = 0; t < meta.layout.ntables; t++)
		{
			BlockNumber end = ndd_primary_block(&view, t, 0) + view.npages + novf[t];

			ndd_write_table(&w, &bs, &view, t, counts + (Size) t * view.npages, &done);
			if (w.nwritten != end)
				elog(ERROR, "ndd build wrote %u blocks for table %d, expected %u", w.nwritten, t, end);
		}
		pfree(counts);
		ndd_write_nulls(&w, &bs, meta.null_start);
	}
	INSTR_TIME_SET_CURRENT(t3);

	/*
	 * The pages bypassed shared buffers: make them durable before commit, as nbtree does (an
	 * fsync covers the file's pages whichever process wrote them).
	 */
	if (RelationNeedsWAL(index))
		smgrimmedsync(RelationGetSmgr(index), MAIN_FORKNUM);
	INSTR_TIME_SET_CURRENT(t4);
	/* where the time went, for profiling builds (bench/README.md, "Parallel build") */
	INSTR_TIME_SUBTRACT(t4, t3);
	INSTR_TIME_SUBTRACT(t3, t2);
	INSTR_TIME_SUBTRACT(t2, t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	ereport(DEBUG1,
			(errmsg_internal("ndd build of \"%s\": scan and spool %.3f s, %s %.3f s, %s %.3f s, sync %.3f s",
							 RelationGetRelationName(index), INSTR_TIME_GET_DOUBLE(t1),
							 parallel ? "participants' bucket counts" : "bucket counts",
							 INSTR_TIME_GET_DOUBLE(t2),
							 parallel ? "participants' pages" : "pages",
							 INSTR_TIME_GET_DOUBLE(t3), INSTR_TIME_GET_DOUBLE(t4))));

	spool_reader_close(&bs.rows);
	spool_reader_close(&bs.nullrows);
	if (parallel)
		ndd_end_parallel(&leader);
	MemoryContextDelete(bs.tmpcxt);

	result = (IndexBuildResult *) palloc(sizeof(IndexBuildResult));
	result->heap_tuples = bs.heap_tuples;
	result->index_tuples = (double) (bs.nrows + bs.nnulls);
	return result;
}

/*
 * ambuildempty: the init fork of an unlogged index: the metapage, empty primary pages sized by the
 * `rows` option, and an empty NULL chain.
 */
void
ndd_buildempty(Relation index)
{
	NddMetaPageData meta;
	NddMapView	view;
	NddWriter	w;
	BlockNumber novf[NDD_LAYOUT_MAX_TABLES];
	NddFormat	f;
	NddFormat	nf = {NDD_NULL_ENTRY_BYTES, NDD_NULL_BLOCK_BITS, NDD_NULL_OFFSET_BITS, 0, false};
	PGAlignedBlock buf;
	int			t;
	uint32		p;

	ndd_plan_shape(index, ndd_index_bits(index), 0, 0, 0, false, &meta);
	ndd_place_tables(&meta, NULL, novf);
	ndd_map_view(&meta, false, &view);
	ndd_format_for(view.delta_bits, view.wide, meta.block_bits, meta.offset_bits, &f);

	w.index = index;
	w.fork = INIT_FORKNUM;
	w.use_wal = true;			/* the init fork is always WAL-logged */
	w.nwritten = 0;
	ndd_write_meta(&w, &meta);
	for (t = 0; t < meta.layout.ntables; t++)
		for (p = 0; p < view.npages; p++)
		{
			ndd_primary_init((Page) buf.data, meta.generation, &f);
			ndd_write_page(&w, (Page) buf.data, ndd_primary_block(&view, t, p));
		}
	ndd_page_init((Page) buf.data, NDD_PAGE_NULLS, &nf);
	ndd_write_page(&w, (Page) buf.data, meta.null_start);
	smgrimmedsync(RelationGetSmgr(index), INIT_FORKNUM);
}
