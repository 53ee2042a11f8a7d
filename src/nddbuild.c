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
 *  3. One pass over the spool counts the entries of every bucket of every table. The counts fix
 *     every chain's length, hence every page's block number: [meta][t0 primaries][t0 overflow
 *     pages][t1 primaries]...[NULL chain], a bucket's overflow pages consecutive, in bucket order.
 *  4. For each table, the spool is read once per chunk of consecutive buckets whose pages fit in
 *     maintenance_work_mem as page images; each entry is appended to its bucket's chain. Primary
 *     pages go straight to the relation in block order, overflow pages to a temporary file, which
 *     is appended after the table's primaries. A bucket too large for memory on its own (heavily
 *     skewed data) is streamed: its chain is written page by page as pages fill.
 *  5. The NULL chain, after the last table.
 *
 * Pages are written with smgrextend, bypassing shared buffers, and WAL-logged as full page images
 * when the relation needs WAL, then synced, as nbtree's sorted build does.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "optimizer/plancat.h"

#include <math.h>

#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/buffile.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* One spooled row: the heap TID and the fingerprint's words (words[1] only for fp128). */
typedef struct NddSpoolItem
{
	uint64		words[2];
	BlockNumber block;
	OffsetNumber offset;
} NddSpoolItem;

typedef struct NddBuildState
{
	int			bits;
	BufFile    *spool;
	BufFile    *nulls;
	int64		nrows;
	int64		nnulls;
	BlockNumber max_block;
	OffsetNumber max_offset;
	double		heap_tuples;
	MemoryContext tmpcxt;
} NddBuildState;

/* Writes pages of one fork in block order (or rewrites an already written block). */
typedef struct NddWriter
{
	Relation	index;
	ForkNumber	fork;
	bool		use_wal;
	BlockNumber nwritten;
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

static void
spool_write(BufFile *f, int bits, const NddSpoolItem *it)
{
	BufFileWrite(f, (void *) &it->block, sizeof(BlockNumber));
	BufFileWrite(f, (void *) &it->offset, sizeof(OffsetNumber));
	BufFileWrite(f, (void *) it->words, (bits / 64) * sizeof(uint64));
}

/* Reads the next spool item; false at the end of the file. */
static bool
spool_read(BufFile *f, int bits, NddSpoolItem *it)
{
	size_t		n = BufFileRead(f, &it->block, sizeof(BlockNumber));

	if (n == 0)
		return false;
	if (n != sizeof(BlockNumber) ||
		BufFileRead(f, &it->offset, sizeof(OffsetNumber)) != sizeof(OffsetNumber) ||
		BufFileRead(f, it->words, (bits / 64) * sizeof(uint64)) != (bits / 64) * sizeof(uint64))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the ndd build spool")));
	if (bits == 64)
		it->words[1] = 0;
	return true;
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

/*
 * A NOTICE when the map has more primary pages per table than the shortest key has values: every
 * key then spans npages / 2^key_bits pages, all read by a probe, and a radius-k query's candidates
 * grow with the table (Manku's tables grow with N for this reason). The layout is the user's choice
 * (more tables cost size and build time linearly), so the build says which one keeps one page per
 * key rather than choosing it silently; only when `blocks` was left to its default.
 */
static void
ndd_notice_short_keys(Relation index, const NddMetaPageData *meta)
{
	const NddLayout *l = &meta->layout;
	int			shortest = 64;
	int			own;
	int			need = ndd_bits_for((uint64) meta->npages - 1);
	int			t;
	int			b;

	for (t = 0; t < l->ntables; t++)
		shortest = Min(shortest, (int) l->key_bits[t]);
	if (shortest >= need)
		return;
	own = shortest;
	for (b = l->nblocks + 1; b <= NDD_LAYOUT_MAX_BLOCKS; b++)
	{
		NddLayout	wider;

		if (ndd_layout_check(l->bits, l->radius, b) != NDD_LAYOUT_OK)
			break;				/* more blocks only mean more tables */
		if (ndd_layout_make(l->bits, l->radius, b, &wider) != NDD_OK)
			break;
		shortest = 64;
		for (t = 0; t < wider.ntables; t++)
			shortest = Min(shortest, (int) wider.key_bits[t]);
		if (shortest >= need)
		{
			ereport(NOTICE,
					(errmsg("ndd index \"%s\": each key of its layout spans about %.1f pages per table",
							RelationGetRelationName(index),
							meta->npages / pow(2.0, (double) own)),
					 errdetail("The %u primary pages of each table outnumber the values of its %d-bit keys (k = %d, blocks = %d), so a radius-%d query reads and checks a number of entries that grows with the table.",
							   meta->npages, own, l->radius, l->nblocks, l->radius),
					 errhint("WITH (blocks = %d) keeps one page per key: %d tables instead of %d, so about %.1f times the size and build time.",
							 b, wider.ntables, l->ntables, (double) wider.ntables / l->ntables)));
			return;
		}
	}
}

/*
 * The layout and shape of a new index, from its options and the rows it must hold; notice: say
 * when the default layout's keys are too short for the map (once per build: ambuild, not the
 * init fork's ambuildempty).
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
	NddFormat	f;
	double		npages = 1;
	int			i;
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

	/*
	 * The page count sets the delta width, which sets the entry size, which sets the page count:
	 * a few rounds settle it (fewer pages only ever widen entries by a bit).
	 */
	for (i = 0; i < 4; i++)
	{
		double		cap;

		ndd_format_for(ndd_page_delta_bits((uint32) npages), bits == 128, meta->block_bits,
					   meta->offset_bits, &f);
		cap = ndd_format_capacity(&f) * (fillfactor / 100.0);
		npages = ceil(target / Max(cap, 1.0));
		/* every table's primaries must stay addressable */
		npages = Min(npages, (double) (MaxBlockNumber / 2) / meta->layout.ntables);
		npages = Max(npages, 1.0);
	}
	/*
	 * The build makes the map's first generation, one extent; ndd_place_tables places its tables
	 * (table_start).
	 */
	meta->generation = 1;
	meta->npages = (uint32) npages;
	meta->old_npages = meta->cursor = meta->overflowed = 0;
	meta->nextents = 1;
	meta->ext[0].first = 0;
	meta->ext[0].count = (uint32) npages;
	meta->ext[0].start = 0;
	meta->free_head = InvalidBlockNumber;
	meta->nfree = 0;
	if (notice && blocks == 0)
		ndd_notice_short_keys(index, meta);
}

/* Pages a bucket of cnt entries occupies: its primary and ceil(cnt / cap) - 1 overflow pages. */
static uint32
chain_pages(uint32 cnt, int cap)
{
	return cnt <= (uint32) cap ? 1 : (cnt + cap - 1) / cap;
}

/* One pass over the spool: counts[t * npages + p] = entries of table t's bucket p of the map. */
static uint32 *
ndd_count_buckets(NddBuildState *bs, const NddMapView *mv)
{
	const NddLayout *layout = &mv->meta->layout;
	uint32	   *counts;
	NddSpoolItem it;

	counts = MemoryContextAllocHuge(CurrentMemoryContext,
									sizeof(uint32) * (Size) layout->ntables * mv->npages);
	memset(counts, 0, sizeof(uint32) * (Size) layout->ntables * mv->npages);
	if (BufFileSeek(bs->spool, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rewind the ndd build spool")));
	while (spool_read(bs->spool, bs->bits, &it))
	{
		int			t;

		CHECK_FOR_INTERRUPTS();
		for (t = 0; t < layout->ntables; t++)
		{
			uint64		perm[2];

			ndd_layout_permute(layout, t, it.words, perm);
			counts[(Size) t * mv->npages + ndd_page_of(perm[0], mv->npages)]++;
		}
	}
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
	if (BufFileSeek(bs->spool, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rewind the ndd build spool")));
}

/* Appends a spooled row to page (the caller knows it has room). */
static inline void
append_item(Page page, const NddFormat *f, const NddMapView *mv, uint32 bucket,
			const uint64 perm[2], const NddSpoolItem *it)
{
	ndd_page_append(page, f, perm[0] - ndd_page_low(bucket, mv->npages), perm[1],
					it->block, it->offset);
}

/*
 * Writes table t, whose bucket sizes are counts[0..npages-1]: its primaries, then its overflow
 * pages. Every chain's length and position is known from the counts, so each page is written
 * complete, with its successor's block number, exactly once.
 */
static void
ndd_write_table(NddWriter *w, NddBuildState *bs, const NddMapView *mv, int t,
				const uint32 *counts, int64 *entries_done)
{
	const NddLayout *layout = &mv->meta->layout;
	NddFormat	f;
	int			cap;
	uint32		budget;
	BlockNumber start = ndd_primary_block(mv, t, 0);
	BlockNumber ovf_base = start + mv->npages;
	BlockNumber novf = 0;		/* overflow pages numbered so far */
	BufFile    *ovf = BufFileCreateTemp(false);
	uint32		p0 = 0;
	MemoryContext oldcxt;

	ndd_format_for(mv->delta_bits, mv->wide, mv->meta->block_bits, mv->meta->offset_bits, &f);
	cap = ndd_format_capacity(&f);
	budget = (uint32) Max(16, (int64) maintenance_work_mem * 1024L / BLCKSZ);

	while (p0 < mv->npages)
	{
		uint32		p1 = p0;
		uint32		npg = 0;
		NddSpoolItem it;

		/* the largest run of buckets whose pages fit in the budget (at least one bucket) */
		while (p1 < mv->npages &&
			   (p1 == p0 || npg + chain_pages(counts[p1], cap) <= budget))
			npg += chain_pages(counts[p1++], cap);

		oldcxt = MemoryContextSwitchTo(bs->tmpcxt);
		if (npg <= budget)
		{
			/* in memory: every page of every chain of the chunk */
			char	   *images = palloc_extended((Size) npg * BLCKSZ, MCXT_ALLOC_HUGE);
			uint32	   *first = palloc(sizeof(uint32) * (p1 - p0));	/* image of the primary */
			uint32	   *fill = palloc0(sizeof(uint32) * (p1 - p0));	/* page being filled */
			uint32		img = 0;
			uint32		p;

			MemoryContextSwitchTo(oldcxt);
			for (p = p0; p < p1; p++)
			{
				uint32		n = chain_pages(counts[p], cap);
				uint32		j;

				first[p - p0] = img;
				for (j = 0; j < n; j++)
				{
					Page		page = (Page) (images + (Size) (img + j) * BLCKSZ);

					if (j == 0)
						ndd_primary_init(page, mv->meta->generation, &f);
					else
						ndd_page_init(page, NDD_PAGE_OVERFLOW, &f);
					if (j + 1 < n)
						NddPageGetOpaque(page)->next = ovf_base + novf + j;
				}
				img += n;
				novf += n - 1;
			}

			spool_rewind(bs);
			while (spool_read(bs->spool, bs->bits, &it))
			{
				uint64		perm[2];
				uint32		bucket;
				Page		page;

				CHECK_FOR_INTERRUPTS();
				ndd_layout_permute(layout, t, it.words, perm);
				bucket = ndd_page_of(perm[0], mv->npages);
				if (bucket < p0 || bucket >= p1)
					continue;
				page = (Page) (images + (Size) (first[bucket - p0] + fill[bucket - p0]) * BLCKSZ);
				if (!ndd_page_has_room(page, &f))
				{
					fill[bucket - p0]++;
					if (fill[bucket - p0] >= chain_pages(counts[bucket], cap))
						elog(ERROR, "ndd build: bucket %u of table %d grew during the build", bucket, t);
					page = (Page) (images + (Size) (first[bucket - p0] + fill[bucket - p0]) * BLCKSZ);
				}
				append_item(page, &f, mv, bucket, perm, &it);
				(*entries_done)++;
			}

			for (p = p0; p < p1; p++)
			{
				uint32		n = chain_pages(counts[p], cap);
				uint32		j;

				ndd_write_page(w, (Page) (images + (Size) first[p - p0] * BLCKSZ), start + p);
				for (j = 1; j < n; j++)
					BufFileWrite(ovf, images + (Size) (first[p - p0] + j) * BLCKSZ, BLCKSZ);
			}
		}
		else
		{
			/* one bucket larger than memory: stream its chain, writing each page once full */
			PGAlignedBlock primary;
			PGAlignedBlock over;
			Page		cur = (Page) primary.data;
			uint32		n = chain_pages(counts[p0], cap);
			uint32		j = 0;

			MemoryContextSwitchTo(oldcxt);
			Assert(p1 == p0 + 1);
			ndd_primary_init(cur, mv->meta->generation, &f);
			if (n > 1)
				NddPageGetOpaque(cur)->next = ovf_base + novf;
			spool_rewind(bs);
			while (spool_read(bs->spool, bs->bits, &it))
			{
				uint64		perm[2];

				CHECK_FOR_INTERRUPTS();
				ndd_layout_permute(layout, t, it.words, perm);
				if (ndd_page_of(perm[0], mv->npages) != p0)
					continue;
				if (!ndd_page_has_room(cur, &f))
				{
					if (j > 0)
						BufFileWrite(ovf, cur, BLCKSZ);
					j++;
					if (j >= n)
						elog(ERROR, "ndd build: bucket %u of table %d grew during the build", p0, t);
					cur = (Page) over.data;
					ndd_page_init(cur, NDD_PAGE_OVERFLOW, &f);
					if (j + 1 < n)
						NddPageGetOpaque(cur)->next = ovf_base + novf + j;
				}
				append_item(cur, &f, mv, p0, perm, &it);
				(*entries_done)++;
			}
			if (j > 0)
				BufFileWrite(ovf, cur, BLCKSZ);
			/* chains are written whole: pages the counts promised but the pass did not fill */
			while (++j < n)
			{
				ndd_page_init(over.data, NDD_PAGE_OVERFLOW, &f);
				if (j + 1 < n)
					NddPageGetOpaque((Page) over.data)->next = ovf_base + novf + j;
				BufFileWrite(ovf, over.data, BLCKSZ);
			}
			ndd_write_page(w, (Page) primary.data, start + p0);
			novf += n - 1;
		}
		MemoryContextReset(bs->tmpcxt);
		pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, *entries_done);
		p0 = p1;
	}

	ndd_flush_overflow(w, ovf, ovf_base, novf);
	BufFileClose(ovf);
}

/* Writes the NULL chain from its spool: full pages of TIDs, consecutive blocks from start. */
static BlockNumber
ndd_write_nulls(NddWriter *w, NddBuildState *bs, BlockNumber start)
{
	NddFormat	f = {NDD_NULL_ENTRY_BYTES, NDD_NULL_BLOCK_BITS, NDD_NULL_OFFSET_BITS, 0, false};
	int			cap = ndd_format_capacity(&f);
	BlockNumber n = (BlockNumber) chain_pages((uint32) bs->nnulls, cap);
	BlockNumber j = 0;
	PGAlignedBlock buf;
	Page		page = (Page) buf.data;
	NddSpoolItem it;

	if (bs->nnulls > (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many NULL rows for an ndd index")));
	ndd_page_init(page, NDD_PAGE_NULLS, &f);
	if (BufFileSeek(bs->nulls, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rewind the ndd build spool")));
	while (spool_read(bs->nulls, 64, &it))
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

/* ambuild: builds a new ndd index from the heap's rows. */
IndexBuildResult *
ndd_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	NddBuildState bs;
	NddMetaPageData meta;
	NddMapView	view;
	NddWriter	w;
	uint32	   *counts;
	BlockNumber novf[NDD_LAYOUT_MAX_TABLES];
	int64		done = 0;
	int			t;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data", RelationGetRelationName(index));

	memset(&bs, 0, sizeof(bs));
	bs.bits = ndd_index_bits(index);
	bs.tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "ndd build", ALLOCSET_DEFAULT_SIZES);
	bs.spool = BufFileCreateTemp(false);
	bs.nulls = BufFileCreateTemp(false);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, NDD_BUILD_PHASE_SCAN);
	bs.heap_tuples = table_index_build_scan(heap, index, indexInfo, true, true,
											ndd_build_callback, (void *) &bs, NULL);

	ndd_plan_shape(index, bs.bits, (double) bs.nrows, heap_blocks_for_rows(heap, index, bs.nrows, bs.max_block),
				   bs.max_offset, true, &meta);
	meta.build_rows = bs.nrows;
	meta.build_nulls = bs.nnulls;
	ndd_map_view(&meta, false, &view);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, NDD_BUILD_PHASE_WRITE);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_TOTAL, bs.nrows * meta.layout.ntables);
	counts = ndd_count_buckets(&bs, &view);
	ndd_place_tables(&meta, counts, novf);

	w.index = index;
	w.fork = MAIN_FORKNUM;
	w.use_wal = RelationNeedsWAL(index);
	w.nwritten = 0;

	/* the counts fixed every block number, so the metapage is final before the tables are written */
	ndd_write_meta(&w, &meta);
	for (t = 0; t < meta.layout.ntables; t++)
	{
		BlockNumber end = ndd_primary_block(&view, t, 0) + view.npages + novf[t];

		ndd_write_table(&w, &bs, &view, t, counts + (Size) t * view.npages, &done);
		if (w.nwritten != end)
			elog(ERROR, "ndd build wrote %u blocks for table %d, expected %u", w.nwritten, t, end);
	}
	ndd_write_nulls(&w, &bs, meta.null_start);

	/* the pages bypassed shared buffers: make them durable before commit, as nbtree does */
	if (RelationNeedsWAL(index))
		smgrimmedsync(RelationGetSmgr(index), MAIN_FORKNUM);

	BufFileClose(bs.spool);
	BufFileClose(bs.nulls);
	pfree(counts);
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
