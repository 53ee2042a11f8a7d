/*-------------------------------------------------------------------------
 *
 * nddcheck.c
 *	  ndd_index_check(index): verifies an ndd index against its table, the way contrib/amcheck's
 *	  bt_index_check(index, heapallindexed => true) verifies a btree.
 *
 * Who may run it (doc/reference.md, "Who may do what"): EXECUTE is revoked from PUBLIC by the install
 * script, as amcheck's are; a role granted EXECUTE must in addition own the table or have SELECT
 * on it (what the check reveals is what SELECT count(*) reveals). That privilege is checked on the
 * catalog before any lock is taken, so a role without it can neither read nor block anything.
 *
 * Locks: AccessShareLock on the table and the index (what amcheck's bt_index_check takes, what a
 * SELECT takes): writers and VACUUM keep running. Index expressions are evaluated as the table's
 * owner in a security-restricted context (as amcheck and VACUUM do), so checking a table does not
 * run its owner's code with the caller's rights.
 *
 * What is checked, raising ERRCODE_INDEX_CORRUPTED on the first failure:
 *  - the metapage (magic, version; the layout and the map: ndd_meta_problem, which every
 *    metapage read applies), every page of every chain of the map (of both maps while an
 *    expansion migrates): its kind, its entry format, pd_lower (which every chain walk checks:
 *    NddChain), and the free list: no block reached twice (no cycles, no cross-linked chains, no
 *    free page in use);
 *  - every entry sits in the right bucket (its permuted head lies in its primary page's range)
 *    and names a heap TID that can exist (a block of the heap, an offset a heap page can have);
 *  - every page's sorted prefix holds (README.index.md, "Sorted pages"): it counts at most the
 *    page's entries (none on the NULL chain) and its heads do not decrease, since a probe
 *    binary-searches it and would miss an entry out of order;
 *  - the heap against the index, through one MVCC snapshot registered before the index is read
 *    (amcheck's heapallindexed): every row visible to it has exactly one entry with its
 *    fingerprint in every table, or one entry in the NULL chain when its
 *    fingerprint is NULL, under its HOT chain's root TID; and no entry under that TID says
 *    anything else. Entries whose TID holds no row the snapshot sees belong to rows deleted and
 *    not yet vacuumed (also after a VACUUM that skipped index cleanup), to aborted inserts or to
 *    rows inserted after the snapshot: they are counted and reported, not errors.
 * Why that invariant holds under concurrent writers: a row visible to the snapshot was inserted
 * (index entries included) before the snapshot and cannot be removed while the snapshot is
 * registered; a TID is reused only after VACUUM removed every entry of its former row, so an
 * entry found under the TID of a visible row belongs to that row (README.index.md, "Locking").
 *
 * The comparison sorts (TID, fingerprint, table) records of both sides with tuplesort, so memory
 * is bounded by maintenance_work_mem and larger checks spill to disk.
 *
 * A partitioned index is checked leaf by leaf; the result has one line per leaf index.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "access/htup_details.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_operator_d.h"
#include "commands/defrem.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/tuplesort.h"

PG_FUNCTION_INFO_V1(ndd_index_check);

/*
 * The records sorted: (tid, isnull, w0, w1, source). source is HEAP_SOURCE for a row visible to
 * the snapshot, the table number for an entry of a table, NULL_SOURCE for an entry of the NULL
 * chain. Sorted on all five columns, everything about one TID is adjacent.
 */
#define CHECK_NATTS		5
#define HEAP_SOURCE		(-1)
#define NULL_SOURCE		1000

typedef struct NddCheckState
{
	Relation	index;
	int			bits;
	Tuplesortstate *sort;
	TupleTableSlot *slot;
	int64		heap_rows;		/* visible rows with a fingerprint */
	int64		heap_nulls;		/* visible rows whose fingerprint is NULL */
	bool	   *seen;			/* index blocks visited */
	int64		leftovers;		/* copies an interrupted migration left (check_chain) */
	BlockNumber seen_size;
} NddCheckState;

static void
put_record(NddCheckState *cs, BlockNumber block, OffsetNumber offset, bool isnull, uint64 w0,
		   uint64 w1, int source)
{
	TupleTableSlot *slot = cs->slot;

	ExecClearTuple(slot);
	slot->tts_values[0] = Int64GetDatum(((int64) block << 16) | offset);
	slot->tts_values[1] = Int64GetDatum(isnull ? 1 : 0);
	slot->tts_values[2] = Int64GetDatum((int64) w0);
	slot->tts_values[3] = Int64GetDatum((int64) w1);
	slot->tts_values[4] = Int64GetDatum(source);
	memset(slot->tts_isnull, 0, sizeof(bool) * CHECK_NATTS);
	ExecStoreVirtualTuple(slot);
	tuplesort_puttupleslot(cs->sort, slot);
}

/* table_index_build_scan's callback: one row visible to the snapshot, by its HOT chain's root */
static void
heap_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			  bool tupleIsAlive, void *state)
{
	NddCheckState *cs = (NddCheckState *) state;

	if (isnull[0])
	{
		cs->heap_nulls++;
		put_record(cs, ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid), true, 0, 0,
				   HEAP_SOURCE);
	}
	else
	{
		uint64		w[2];

		ndd_fingerprint_words(values[0], cs->bits, w);
		cs->heap_rows++;
		put_record(cs, ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid), false, w[0],
				   cs->bits == 128 ? w[1] : 0, HEAP_SOURCE);
	}
}

/*
 * Marks blkno visited; an index block reached twice means a cycle or cross-linked chains. Blocks
 * past the end known so far are looked up again: concurrent inserts extend the index.
 */
static void
visit_block(NddCheckState *cs, BlockNumber blkno)
{
	if (blkno >= cs->seen_size)
	{
		BlockNumber nblocks = RelationGetNumberOfBlocks(cs->index);

		if (blkno >= nblocks)
			ndd_corrupt(cs->index, "a chain links past the end of the index", blkno);
		cs->seen = repalloc_huge(cs->seen, sizeof(bool) * (Size) nblocks);
		memset(cs->seen + cs->seen_size, 0, sizeof(bool) * (Size) (nblocks - cs->seen_size));
		cs->seen_size = nblocks;
	}
	if (cs->seen[blkno])
		ndd_corrupt(cs->index, "a page is reached twice", blkno);
	cs->seen[blkno] = true;
}

/*
 * Walks one chain (map view mv's table t's bucket p; t < 0: the NULL chain), checking its pages
 * and sorting its entries. The primary page stays share-locked for the whole walk: it is the
 * bucket's lock (README.index.md, "Locking"), so the chain is seen as of one moment. Entries
 * whose heads the view does not hold are copies an interrupted migration left (the next attempt
 * removes them): counted in cs->leftovers, not sorted. Returns its page count.
 */
static int
check_chain(NddCheckState *cs, const NddMapView *mv, int t, uint32 p)
{
	Relation	index = cs->index;
	const NddMetaPageData *meta = mv->meta;
	BlockNumber blkno = t < 0 ? meta->null_start : ndd_primary_block(mv, t, p);
	uint64		low = t < 0 ? 0 : ndd_page_low(p, mv->npages);
	bool		last_page = t < 0 || p + 1 == mv->npages;
	uint64		high = last_page ? PG_UINT64_MAX : ndd_page_low(p + 1, mv->npages) - 1;
	int			npages = 0;
	NddChain	chain;
	BlockNumber first = blkno;
	BlockNumber hint = InvalidBlockNumber;	/* the first page's insert_at */
	bool		hint_found = false;

	while (blkno != InvalidBlockNumber)
	{
		Page		page;
		NddFormat	f;
		int			n;
		int			i;
		int			sorted;
		uint64		prev_head = 0;

		CHECK_FOR_INTERRUPTS();
		visit_block(cs, blkno);

		/*
		 * visit_block has vetted blkno (in the relation, not seen before) before it is read; the
		 * walk checks the page's kind, entry format and entry area (NddChain).
		 */
		page = npages == 0 ? ndd_chain_begin(&chain, index, mv, blkno, BUFFER_LOCK_SHARE, NULL) :
			ndd_chain_goto(&chain, blkno);
		if (page == NULL)
			ndd_corrupt(index, "a primary page belongs to another map than the metapage says", blkno);
		if (npages == 0)
			hint = NddPageGetOpaque(page)->insert_at;
		hint_found |= blkno == hint;
		f = chain.f;
		n = ndd_page_nentries(page, &f);
		sorted = NddPageGetOpaque(page)->sorted;
		if (sorted > n || (t < 0 && sorted != 0))
			ndd_corrupt(index, "a page's sorted prefix counts more entries than it has", blkno);
		for (i = 0; i < n; i++)
		{
			NddEntry	e;

			ndd_entry_decode((char *) page + MAXALIGN(SizeOfPageHeaderData) + i * f.entry_bytes,
							 &f, low, &e);
			if (e.offset == InvalidOffsetNumber || e.offset > MaxHeapTuplesPerPage)
				ndd_corrupt(index, "an entry has an invalid heap TID", blkno);
			if (t < 0)
				put_record(cs, e.block, e.offset, true, 0, 0, NULL_SOURCE);
			else
			{
				uint64		perm[2] = {e.head, e.tail};
				uint64		fp[2];

				if (e.head < low || e.head > high)
					ndd_corrupt(index, "an entry is in the wrong bucket", blkno);
				if (i > 0 && i < sorted && e.head < prev_head)
					ndd_corrupt(index, "a page's sorted prefix is out of order", blkno);
				prev_head = e.head;
				if (e.head < mv->lo)
				{
					cs->leftovers++;
					continue;
				}
				ndd_layout_unpermute(&meta->layout, t, perm, fp);
				put_record(cs, e.block, e.offset, false, fp[0], mv->wide ? fp[1] : 0, t);
			}
		}
		blkno = NddPageGetOpaque(page)->next;
		npages++;
	}
	ndd_chain_end(&chain);
	/* inserts start at the hint: one naming a page of another chain would send entries there */
	if (hint != InvalidBlockNumber && !hint_found)
		ndd_corrupt(index, "a chain's insert hint names a page outside the chain", first);
	return npages;
}

typedef struct CheckRecord
{
	int64		tid;
	bool		isnull;
	uint64		w0;
	uint64		w1;
	int			source;
} CheckRecord;

typedef struct CheckResult
{
	int64		rows;			/* visible rows with a fingerprint */
	int64		nulls;			/* visible rows with a NULL fingerprint */
	int64		other_entries;	/* entries of TIDs holding no row the snapshot sees */
} CheckResult;

static void
entry_error(Relation index, int64 tid, const char *what, const CheckRecord *heap)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("ndd index \"%s\" is corrupted: %s",
					RelationGetRelationName(index), what),
			 heap && !heap->isnull ?
			 errdetail("Heap TID (%u,%u), whose fingerprint's first word is %016llx.",
					   (BlockNumber) (tid >> 16), (unsigned) (tid & 0xffff),
					   (unsigned long long) heap->w0) :
			 errdetail("Heap TID (%u,%u).", (BlockNumber) (tid >> 16), (unsigned) (tid & 0xffff)),
			 errhint("REINDEX the index.")));
}

/* Judges everything sorted under one TID: recs[0..n). */
static void
judge_tid(Relation index, int ntables, BlockNumber heap_blocks, CheckRecord *recs, int n,
		  CheckResult *res)
{
	CheckRecord *heap = NULL;
	uint64		tables = 0;
	bool		null_entry = false;
	int			i;

	for (i = 0; i < n; i++)
		if (recs[i].source == HEAP_SOURCE)
		{
			if (heap != NULL)
				elog(ERROR, "two rows visible under one HOT chain root");
			heap = &recs[i];
		}
	if (heap == NULL)
	{
		/* a row deleted and not yet vacuumed, an aborted insert, a row newer than the snapshot */
		if ((BlockNumber) (recs[0].tid >> 16) >= heap_blocks)
			entry_error(index, recs[0].tid, "an entry points past the end of the table", NULL);
		res->other_entries += n;
		return;
	}
	for (i = 0; i < n; i++)
	{
		CheckRecord *r = &recs[i];

		if (r == heap)
			continue;
		if (r->isnull != heap->isnull || r->w0 != heap->w0 || r->w1 != heap->w1)
			entry_error(index, r->tid, heap->isnull ?
						"a row whose fingerprint is NULL has an entry with a fingerprint" :
						r->isnull ? "a row with a fingerprint has an entry in the NULL chain" :
						"an entry's fingerprint differs from its row's", heap);
		if (r->source == NULL_SOURCE)
		{
			if (null_entry)
				entry_error(index, r->tid, "a row has two entries in the NULL chain", heap);
			null_entry = true;
		}
		else
		{
			if (tables & (UINT64CONST(1) << r->source))
				entry_error(index, r->tid, "a row has two entries in one table", heap);
			tables |= UINT64CONST(1) << r->source;
		}
	}
	if (heap->isnull)
	{
		if (!null_entry)
			entry_error(index, heap->tid, "a row whose fingerprint is NULL is missing from the NULL chain", heap);
		res->nulls++;
	}
	else
	{
		uint64		all = ntables == 64 ? ~UINT64CONST(0) : (UINT64CONST(1) << ntables) - 1;

		if (tables != all)
		{
			int			t = 0;

			while (tables & (UINT64CONST(1) << t))
				t++;
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("ndd index \"%s\" is corrupted: table %d lacks a row",
							RelationGetRelationName(index), t),
					 errdetail("Heap TID (%u,%u), whose fingerprint's first word is %016llx, is visible but has no entry in table %d.",
							   (BlockNumber) (heap->tid >> 16), (unsigned) (heap->tid & 0xffff),
							   (unsigned long long) heap->w0, t),
					 errhint("REINDEX the index.")));
		}
		res->rows++;
	}
}

/*
 * Walks the free list (README.index.md, "Growth"): each page once, reached by no chain, as many
 * as the metapage counts. Inserts take pages off the list while the check runs (a page taken off
 * is linked into a chain only after the metapage record that took it), so the list is read from
 * the metapage as it is now, holding its share lock, which keeps them from taking more: a page
 * the chains' walk met is no longer on it. Returns the count.
 */
static int64
check_free_list(NddCheckState *cs)
{
	Buffer		mbuf = ReadBuffer(cs->index, NDD_METAPAGE_BLKNO);
	NddMetaPage meta;
	BlockNumber blkno;
	uint32		nfree;
	int64		n = 0;

	LockBuffer(mbuf, BUFFER_LOCK_SHARE);
	meta = NddPageGetMeta(BufferGetPage(mbuf));
	blkno = meta->free_head;
	nfree = meta->nfree;

	while (blkno != InvalidBlockNumber)
	{
		Buffer		buf;
		Page		page;

		CHECK_FOR_INTERRUPTS();
		visit_block(cs, blkno);
		buf = ReadBuffer(cs->index, blkno);
		ndd_lock_buffer(cs->index, buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!ndd_page_initialized(page) || NddPageGetOpaque(page)->kind != NDD_PAGE_OVERFLOW)
		{
			UnlockReleaseBuffer(buf);
			ndd_corrupt(cs->index, "a page of the free list is not a freed overflow page", blkno);
		}
		blkno = NddPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		n++;
	}
	UnlockReleaseBuffer(mbuf);
	if (n != nfree)
		ndd_corrupt(cs->index, psprintf("the free list has " INT64_FORMAT " pages, the metapage says %u",
										n, nfree), NDD_METAPAGE_BLKNO);
	return n;
}

/* What the check's line says of the map: its generation, a migration under way. */
static const char *
map_state(const NddMetaPageData *meta, int64 leftovers)
{
	if (meta->old_npages == 0)
		return meta->generation > 1 ? psprintf(" (map generation %u)", meta->generation) : "";
	return psprintf(" (map generation %u, migrating from %u pages: %u to go%s)",
					meta->generation, meta->old_npages, meta->cursor,
					leftovers > 0 ? psprintf(", " INT64_FORMAT " copies an interrupted step left", leftovers) : "");
}

/*
 * A NOTICE when the map has grown past what the index's layout was chosen for: its keys now span
 * several primary pages per table, and a build would choose more tables (ndd_layout_blocks_for).
 * Only for a layout left to the build: the user's `blocks` is the user's trade.
 */
static void
hint_wider_layout(Relation index, const NddMetaPageData *meta)
{
	NddOptions *opts = (NddOptions *) index->rd_options;
	const NddLayout *l = &meta->layout;
	int			b;

	if (opts && opts->blocks != 0)
		return;
	b = ndd_layout_blocks_for(l->bits, l->radius, meta->npages);
	if (b > l->nblocks)
		ereport(NOTICE,
				(errmsg("ndd index \"%s\" has outgrown its layout", RelationGetRelationName(index)),
				 errdetail("Its %u primary pages per table outnumber the values of the keys of its %d tables (k = %d, blocks = %d), so a radius-%d query reads and checks a number of entries that grows with the table.",
						   meta->npages, l->ntables, l->radius, l->nblocks, l->radius),
				 errhint("REINDEX builds it with blocks = %d, which keeps one page per key.", b)));
}

/* Checks one ndd index of a table both already locked; returns the line that says what was checked. */
static char *
check_one_index(Relation heap, Relation index)
{
	NddMetaPageData meta;
	NddMetaPageData settled;
	NddViews	views;
	NddCheckState cs;
	CheckResult res = {0, 0, 0};
	IndexInfo  *indexInfo;
	TableScanDesc scan;
	Snapshot	snapshot;
	TupleDesc	desc;
	AttrNumber	attnums[CHECK_NATTS];
	Oid			ops[CHECK_NATTS];
	Oid			colls[CHECK_NATTS];
	bool		nullsfirst[CHECK_NATTS];
	BlockNumber heap_blocks;
	int64		chain_pages = 0;
	int64		primaries = 0;
	int64		free_pages;
	CheckRecord *recs;
	int			nrecs = 0;
	int			maxrecs = 64;
	int			ntables;
	int			v;
	int			t;
	uint32		p;
	int			i;

	if (index->rd_rel->relam != get_index_am_oid("ndd", false))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an ndd index", RelationGetRelationName(index))));
	if (!index->rd_index->indisvalid || !index->rd_index->indisready)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("ndd index \"%s\" is not valid", RelationGetRelationName(index))));
	if (RELATION_IS_OTHER_TEMP(index))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot check temporary indexes of other sessions")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ndd_index_check cannot run during recovery"),
				 errdetail("A standby replays the expansions and migrations of the index's map, which the check cannot hold off while it reads the index."),
				 errhint("Run it on the primary.")));

	/*
	 * The snapshot first, then the index: every row it sees had its entries inserted before it.
	 * An index built by CREATE INDEX CONCURRENTLY (indcheckxmin) may lack rows of broken HOT chains
	 * that older snapshots see: refuse those snapshots, as amcheck does.
	 */
	snapshot = RegisterSnapshot(GetTransactionSnapshot());
	if (index->rd_index->indcheckxmin &&
		!TransactionIdPrecedes(HeapTupleHeaderGetXmin(index->rd_indextuple->t_data), snapshot->xmin))
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("ndd index \"%s\" cannot be checked with this transaction's snapshot",
						RelationGetRelationName(index)),
				 errdetail("The index is newer than the snapshot."),
				 errhint("Check it again in a new transaction.")));

	memset(&cs, 0, sizeof(cs));
	cs.index = index;

	desc = CreateTemplateTupleDesc(CHECK_NATTS);
	for (i = 0; i < CHECK_NATTS; i++)
	{
		TupleDescInitBuiltinEntry(desc, (AttrNumber) (i + 1), "k", INT8OID, -1, 0);
		attnums[i] = (AttrNumber) (i + 1);
		ops[i] = Int8LessOperator;
		colls[i] = InvalidOid;
		nullsfirst[i] = false;
	}
	cs.slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	cs.sort = tuplesort_begin_heap(desc, CHECK_NATTS, attnums, ops, colls, nullsfirst,
								   maintenance_work_mem, NULL, TUPLESORT_NONE);

	/*
	 * No expansion or migration changes the map while the index is read (inserts go on). The
	 * growth lock is a page lock: nothing in between takes another heavyweight lock (the sort
	 * above looked up its operators already). The read checks the metapage (ndd_meta_problem)
	 * against the relation's size.
	 */
	ndd_growth_lock(index, ShareLock, true);
	meta = *ndd_get_meta(index);
	ntables = meta.layout.ntables;
	cs.bits = meta.layout.bits;
	cs.seen_size = RelationGetNumberOfBlocks(index);
	cs.seen = palloc_extended(sizeof(bool) * (Size) cs.seen_size, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	cs.seen[NDD_METAPAGE_BLKNO] = true;

	/* the index's side: every table of the map (both maps while migrating), the NULL chain */
	for (t = 0; t < ntables; t++)
	{
		ndd_settle_table(index, &meta, t, &settled);
		ndd_map_views(&settled, &views);
		for (v = 0; v < views.n; v++)
		{
			for (p = views.v[v].first_page; p <= views.v[v].last_page; p++)
				chain_pages += check_chain(&cs, &views.v[v], t, p);
			primaries += ndd_view_pages(&views.v[v]);
		}
	}
	chain_pages += check_chain(&cs, &views.v[0], -1, 0);	/* bare TIDs: any view reads them */
	free_pages = check_free_list(&cs);
	ndd_growth_unlock(index, ShareLock);

	/* the heap's side: the rows the snapshot sees, under their HOT chains' roots */
	indexInfo = BuildIndexInfo(index);
	indexInfo->ii_Concurrent = true;	/* an MVCC snapshot, not SnapshotAny */
	scan = table_beginscan_strat(heap, snapshot, 0, NULL, true, false);
	table_index_build_scan(heap, index, indexInfo, true, false, heap_callback, (void *) &cs, scan);
	/* the heap cannot shrink while we hold our lock, and every entry read was made before now */
	heap_blocks = RelationGetNumberOfBlocks(heap);

	tuplesort_performsort(cs.sort);
	recs = palloc(sizeof(CheckRecord) * maxrecs);
	for (;;)
	{
		bool		more = tuplesort_gettupleslot(cs.sort, true, false, cs.slot, NULL);
		CheckRecord r;

		if (more)
		{
			slot_getallattrs(cs.slot);
			r.tid = DatumGetInt64(cs.slot->tts_values[0]);
			r.isnull = DatumGetInt64(cs.slot->tts_values[1]) != 0;
			r.w0 = (uint64) DatumGetInt64(cs.slot->tts_values[2]);
			r.w1 = (uint64) DatumGetInt64(cs.slot->tts_values[3]);
			r.source = (int) DatumGetInt64(cs.slot->tts_values[4]);
		}
		if (nrecs > 0 && (!more || r.tid != recs[0].tid))
		{
			CHECK_FOR_INTERRUPTS();
			judge_tid(index, ntables, heap_blocks, recs, nrecs, &res);
			nrecs = 0;
		}
		if (!more)
			break;
		if (nrecs == maxrecs)
		{
			maxrecs *= 2;
			recs = repalloc_huge(recs, sizeof(CheckRecord) * maxrecs);
		}
		recs[nrecs++] = r;
	}
	tuplesort_end(cs.sort);
	ExecDropSingleTupleTableSlot(cs.slot);
	UnregisterSnapshot(snapshot);
	hint_wider_layout(index, &meta);

	return psprintf("ndd index \"%s\" on \"%s\": %d tables x " INT64_FORMAT " rows + " INT64_FORMAT
					" NULL rows seen by the check's snapshot, each indexed; " INT64_FORMAT
					" other entries (rows dead, aborted or newer); " INT64_FORMAT
					" primary pages per table%s, " INT64_FORMAT " overflow pages, " INT64_FORMAT
					" free pages, %u blocks: ok",
					RelationGetRelationName(index), RelationGetRelationName(heap), ntables,
					res.rows, res.nulls, res.other_entries, primaries / ntables,
					map_state(&meta, cs.leftovers),
					chain_pages - primaries - 1, free_pages, cs.seen_size);
}

/*
 * Refuses (42501) a caller who neither owns the table nor may SELECT from it. Reads only the
 * catalog: no lock is taken on behalf of a caller without that right.
 */
static void
check_privilege(Oid heapoid)
{
	if (!pg_class_ownercheck(heapoid, GetUserId()) &&
		pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to check the indexes of table \"%s\"",
						get_rel_name(heapoid) ? get_rel_name(heapoid) : "?"),
				 errdetail("Checking an index needs ownership of its table or SELECT on it.")));

	/*
	 * The check counts every row of the table, so under row-level security it would tell a role
	 * how many rows its policies hide: then only the owner (or a role that bypasses RLS) may run it.
	 */
	if (!pg_class_ownercheck(heapoid, GetUserId()) &&
		check_enable_rls(heapoid, InvalidOid, true) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to check the indexes of table \"%s\"",
						get_rel_name(heapoid) ? get_rel_name(heapoid) : "?"),
				 errdetail("The table has row-level security for this role; the check counts every row, so only its owner or a role that bypasses row-level security may run it.")));
}

/* Locks and checks one leaf index (table first, then index, as amcheck does); returns its line. */
static char *
check_leaf(Oid indexoid, Oid heapoid)
{
	Relation	heap;
	Relation	index;
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
	char	   *line;

	/* either may have been dropped since the catalog lookups: say so, not "could not open" */
	heap = try_relation_open(heapoid, AccessShareLock);
	index = heap ? try_relation_open(indexoid, AccessShareLock) : NULL;
	if (heap == NULL || index == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("index with OID %u or its table was dropped while being checked", indexoid)));
	if (IndexGetRelation(indexoid, true) != heapoid)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("could not open the table of index \"%s\"", RelationGetRelationName(index))));

	/* index expressions run as the table's owner, restricted, with GUC changes kept local */
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(heap->rd_rel->relowner, save_sec_context | SECURITY_RESTRICTED_OPERATION);
	save_nestlevel = NewGUCNestLevel();

	line = check_one_index(heap, index);

	AtEOXact_GUC(false, save_nestlevel);
	SetUserIdAndSecContext(save_userid, save_sec_context);
	index_close(index, AccessShareLock);
	table_close(heap, AccessShareLock);
	return line;
}

/* ndd_index_check(index regclass) → text: checks the index against its table; see above. */
Datum
ndd_index_check(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	char		relkind;
	Oid			heapoid;
	StringInfoData out;

	ndd_check_relation_oid(indexoid);
	relkind = get_rel_relkind(indexoid);
	if (relkind != RELKIND_INDEX && relkind != RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", get_rel_name(indexoid) ? get_rel_name(indexoid) : "?")));
	heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(heapoid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("index with OID %u does not exist", indexoid)));
	check_privilege(heapoid);

	if (relkind == RELKIND_INDEX)
		PG_RETURN_TEXT_P(cstring_to_text(check_leaf(indexoid, heapoid)));

	/*
	 * A partitioned index has no storage: check each leaf's index. SELECT on the partitioned
	 * table reads every partition, so the right checked above covers them; each leaf is locked
	 * (AccessShareLock, table then index) only when its turn comes.
	 */
	{
		List	   *children = find_all_inheritors(indexoid, NoLock, NULL);
		ListCell   *lc;
		int			nleaves = 0;

		initStringInfo(&out);
		foreach(lc, children)
		{
			Oid			child = lfirst_oid(lc);

			Oid			childheap;

			if (get_rel_relkind(child) != RELKIND_INDEX)
				continue;
			childheap = IndexGetRelation(child, true);
			if (!OidIsValid(childheap))
				continue;		/* detached or dropped since the list was made */
			appendStringInfo(&out, "\n%s", check_leaf(child, childheap));
			nleaves++;
		}
		PG_RETURN_TEXT_P(cstring_to_text(psprintf("partitioned ndd index \"%s\": %d leaf indexes checked, all ok%s",
												  get_rel_name(indexoid), nleaves, out.data)));
	}
}
