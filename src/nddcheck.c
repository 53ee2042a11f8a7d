/*-------------------------------------------------------------------------
 *
 * nddcheck.c
 *	  ndd_index_check(index): verifies an ndd index against its table, amcheck style.
 *
 * Checks, raising ERRCODE_INDEX_CORRUPTED on the first failure:
 *  - the metapage (magic, version, shape) and every page of every chain: its kind, its entry
 *    format, pd_lower, no block reached twice (no cycles or cross-linked chains);
 *  - every entry sits in the right bucket: its permuted head lies in its primary page's range;
 *  - every table holds the same multiset of (heap TID, fingerprint) as a fresh build would, i.e.
 *    as table_index_build_scan() reports the heap (live and recently dead rows, HOT chains by
 *    their root), compared through a count and an order-independent 64-bit digest; the same for
 *    the NULL chain.
 * The heap is locked in ShareLock (writers wait). Entries of rows that died after the last
 * VACUUM and that a build would skip make the comparison fail: run VACUUM first (README.index.md).
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

PG_FUNCTION_INFO_V1(ndd_index_check);

/* A well-mixed 64-bit hash (splitmix64's finalizer). */
static inline uint64
mix64(uint64 x)
{
	x ^= x >> 30;
	x *= UINT64CONST(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64CONST(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

/* The digest term of one (TID, fingerprint). */
static inline uint64
entry_hash(BlockNumber block, OffsetNumber offset, uint64 w0, uint64 w1)
{
	return mix64(mix64(((uint64) block << 16) | offset) ^ mix64(w0 + UINT64CONST(0x9e3779b97f4a7c15)) ^
				 mix64(w1 ^ UINT64CONST(0x632be59bd9b4e019)));
}

typedef struct NddDigest
{
	int64		count;
	uint64		sum;
} NddDigest;

typedef struct NddCheckState
{
	int			bits;
	NddDigest	rows;
	NddDigest	nulls;
} NddCheckState;

static void
check_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			   bool tupleIsAlive, void *state)
{
	NddCheckState *cs = (NddCheckState *) state;
	BlockNumber block = ItemPointerGetBlockNumber(tid);
	OffsetNumber offset = ItemPointerGetOffsetNumber(tid);

	if (isnull[0])
	{
		cs->nulls.count++;
		cs->nulls.sum += entry_hash(block, offset, 0, 0);
	}
	else
	{
		uint64		w[2];

		ndd_fingerprint_words(values[0], cs->bits, w);
		cs->rows.count++;
		cs->rows.sum += entry_hash(block, offset, w[0], w[1]);
	}
}

/* Raises the corruption error. */
static void
corrupt(Relation index, const char *what, BlockNumber blkno)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("ndd index \"%s\" is corrupted: %s (block %u)",
					RelationGetRelationName(index), what, blkno)));
}

/*
 * Walks one chain (table t's bucket p; t < 0: the NULL chain), checking its pages and adding its
 * entries to the digest. seen marks the blocks visited so far. Returns the chain's page count.
 */
static int
check_chain(Relation index, const NddMetaPageData *meta, int t, uint32 p, bool *seen,
			BlockNumber nblocks, NddDigest *digest)
{
	BlockNumber blkno = t < 0 ? meta->null_start : ndd_primary_block(meta, t, p);
	uint64		low = t < 0 ? 0 : ndd_page_low(p, meta->npages);
	bool		last_page = t < 0 || p + 1 == meta->npages;
	uint64		high = last_page ? PG_UINT64_MAX : ndd_page_low(p + 1, meta->npages) - 1;
	int			npages = 0;
	bool		first = true;

	while (blkno != InvalidBlockNumber)
	{
		Buffer		buf;
		Page		page;
		NddPageOpaque opaque;
		NddFormat	f;
		int			n;
		int			i;
		uint8		want = t < 0 ? NDD_PAGE_NULLS : (first ? NDD_PAGE_PRIMARY : NDD_PAGE_OVERFLOW);

		CHECK_FOR_INTERRUPTS();
		if (blkno >= nblocks)
			corrupt(index, "a chain links past the end of the index", blkno);
		if (seen[blkno])
			corrupt(index, "a page is reached twice", blkno);
		seen[blkno] = true;

		buf = ReadBuffer(index, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (PageIsNew(page) || PageGetSpecialSize(page) != MAXALIGN(sizeof(NddPageOpaqueData)))
			corrupt(index, "a chain page is not initialized", blkno);
		opaque = NddPageGetOpaque(page);
		if (opaque->kind != want)
			corrupt(index, "a chain page has the wrong kind", blkno);
		ndd_page_format(page, meta->delta_bits, meta->bits == 128, &f);
		if (t < 0)
		{
			if (f.entry_bytes != NDD_NULL_ENTRY_BYTES)
				corrupt(index, "a NULL-chain page has the wrong entry size", blkno);
		}
		else
		{
			NddFormat	expect;

			ndd_format_for(meta, f.block_bits, f.offset_bits, &expect);
			if (f.block_bits < 1 || f.block_bits > 32 || f.offset_bits < 1 || f.offset_bits > 16 ||
				expect.entry_bytes != f.entry_bytes)
				corrupt(index, "a page has an invalid entry format", blkno);
		}
		if (((PageHeader) page)->pd_lower < MAXALIGN(SizeOfPageHeaderData) ||
			((PageHeader) page)->pd_lower > BLCKSZ - MAXALIGN(sizeof(NddPageOpaqueData)) ||
			(((PageHeader) page)->pd_lower - MAXALIGN(SizeOfPageHeaderData)) % f.entry_bytes != 0)
			corrupt(index, "a page's entry area is malformed", blkno);
		n = ndd_page_nentries(page, &f);
		for (i = 0; i < n; i++)
		{
			NddEntry	e;

			ndd_entry_decode((char *) page + MAXALIGN(SizeOfPageHeaderData) + i * f.entry_bytes,
							 &f, low, &e);
			if (e.offset == InvalidOffsetNumber)
				corrupt(index, "an entry has an invalid heap TID", blkno);
			if (t < 0)
				digest->sum += entry_hash(e.block, e.offset, 0, 0);
			else
			{
				uint64		perm[2] = {e.head, e.tail};
				uint64		fp[2];

				if (e.head < low || e.head > high)
					corrupt(index, "an entry is in the wrong bucket", blkno);
				ndd_layout_unpermute(&meta->layout, t, perm, fp);
				digest->sum += entry_hash(e.block, e.offset, fp[0], meta->bits == 128 ? fp[1] : 0);
			}
			digest->count++;
		}
		blkno = opaque->next;
		UnlockReleaseBuffer(buf);
		first = false;
		npages++;
	}
	return npages;
}

/* ndd_index_check(index regclass) → text: checks the index against its table; see above. */
Datum
ndd_index_check(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Oid			heapoid;
	Relation	heap;
	Relation	index;
	IndexInfo  *indexInfo;
	NddMetaPageData meta;
	NddMetaPageData seg;
	NddCheckState cs;
	BlockNumber nblocks;
	bool	   *seen;
	int64		chain_pages = 0;
	int64		primaries = 0;
	int			s;
	int			t;
	uint32		p;
	NddDigest	nulls = {0, 0};
	char	   *report;

	heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(heapoid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", get_rel_name(indexoid) ? get_rel_name(indexoid) : "?")));
	heap = table_open(heapoid, ShareLock);
	index = index_open(indexoid, ShareLock);
	if (index->rd_rel->relam != get_index_am_oid("ndd", false))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an ndd index", RelationGetRelationName(index))));
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("ndd index \"%s\" is not valid", RelationGetRelationName(index))));

	meta = *ndd_get_meta(index);
	nblocks = RelationGetNumberOfBlocks(index);
	if (meta.bits != ndd_index_bits(index) || meta.ntables != meta.layout.ntables ||
		meta.ntables < 1 || meta.ntables > NDD_LAYOUT_MAX_TABLES || meta.npages < 1 ||
		meta.delta_bits != ndd_page_delta_bits(meta.npages) || meta.null_start >= nblocks)
		corrupt(index, "the metapage describes an impossible shape", NDD_METAPAGE_BLKNO);
	if (meta.nsegments < 1 || meta.nsegments > NDD_MAX_SEGMENTS)
		corrupt(index, "the metapage has an impossible number of segments", NDD_METAPAGE_BLKNO);
	for (s = 1; s < meta.nsegments; s++)
		if (meta.seg[s].npages < 1 || meta.seg[s].delta_bits != ndd_page_delta_bits(meta.seg[s].npages) ||
			meta.seg[s].start < 1 ||
			(uint64) meta.seg[s].start + (uint64) meta.ntables * meta.seg[s].npages > nblocks)
			corrupt(index, "the metapage describes an impossible segment", NDD_METAPAGE_BLKNO);

	seen = palloc_extended(sizeof(bool) * (Size) nblocks, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	seen[NDD_METAPAGE_BLKNO] = true;

	/* the heap's side: what a build would index */
	memset(&cs, 0, sizeof(cs));
	cs.bits = meta.bits;
	indexInfo = BuildIndexInfo(index);
	table_index_build_scan(heap, index, indexInfo, true, false, check_callback, (void *) &cs, NULL);

	for (t = 0; t < meta.ntables; t++)
	{
		NddDigest	d = {0, 0};

		/* table t over all segments holds every row once */
		for (s = 0; s < meta.nsegments; s++)
		{
			ndd_segment_view(&meta, s, &seg);
			for (p = 0; p < seg.npages; p++)
				chain_pages += check_chain(index, &seg, t, p, seen, nblocks, &d);
			primaries += seg.npages;
		}
		if (d.count != cs.rows.count || d.sum != cs.rows.sum)
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("ndd index \"%s\" is corrupted: table %d does not match the heap",
							RelationGetRelationName(index), t),
					 errdetail("Table %d holds " INT64_FORMAT " entries, the heap " INT64_FORMAT " rows with a fingerprint%s.",
							   t, d.count, cs.rows.count,
							   d.count == cs.rows.count ? ", but not the same ones" : ""),
					 errhint("Entries of rows deleted since the last VACUUM also count: VACUUM the table first.")));
	}
	chain_pages += check_chain(index, &meta, -1, 0, seen, nblocks, &nulls);
	if (nulls.count != cs.nulls.count || nulls.sum != cs.nulls.sum)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("ndd index \"%s\" is corrupted: its NULL rows do not match the heap",
						RelationGetRelationName(index)),
				 errdetail("The index holds " INT64_FORMAT " NULL rows, the heap " INT64_FORMAT ".",
						   nulls.count, cs.nulls.count),
				 errhint("Entries of rows deleted since the last VACUUM also count: VACUUM the table first.")));

	report = psprintf("ndd index \"%s\": %d tables x " INT64_FORMAT " rows, " INT64_FORMAT
					  " NULL rows, " INT64_FORMAT " primary pages per table%s, " INT64_FORMAT
					  " overflow pages, %u blocks: ok",
					  RelationGetRelationName(index), meta.ntables, cs.rows.count, cs.nulls.count,
					  primaries / meta.ntables,
					  meta.nsegments > 1 ? psprintf(" in %d segments", meta.nsegments) : "",
					  chain_pages - primaries - 1, nblocks);

	index_close(index, ShareLock);
	table_close(heap, ShareLock);
	PG_RETURN_TEXT_P(cstring_to_text(report));
}
