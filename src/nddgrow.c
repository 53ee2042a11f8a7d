/*-------------------------------------------------------------------------
 *
 * nddgrow.c
 *	  How an ndd index grows: the map expands by about a quarter when a tenth of its chains have
 *	  overflowed, and inserts then migrate the previous map's pages into it one at a time, from
 *	  the last down, moving each page in place where both maps have it (README.index.md,
 *	  "Growth"). So the index stays one well-filled map whatever the number of rows, as a fresh
 *	  build would make it, with no REINDEX and no step that rewrites the whole index at once.
 *
 * Locking: one backend at a time expands or migrates, holding a heavyweight lock on the index's
 * block 0 that inserts take conditionally (a backend that does not get it leaves the work to the
 * one that has it); VACUUM takes it too, and ndd_index_check in share mode, so neither sees a
 * migration under way. A migration locks the previous map's page (its bucket lock) before the
 * current map's pages it moves the entries to, and the metapage after both; nobody else holds two
 * primary pages at once, so there is no deadlock. Scans and inserts never wait for the heavyweight
 * lock: they find a moved page by what it says (NDD_PAGE_MOVED) and go to the current map.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/rel.h"

/*
 * An expansion is due when a tenth of the map's chains have linked an overflow page; it adds a
 * quarter of the map's pages (ndd_expanded_npages).
 */
#define NDD_OVERFLOW_SHARE	10

/*
 * The lock only growers, VACUUM and ndd_index_check take (see the file's header): without wait,
 * returns false at once when another backend holds it.
 */
bool
ndd_growth_lock(Relation index, LOCKMODE mode, bool wait)
{
	if (!wait)
		return ConditionalLockPage(index, NDD_METAPAGE_BLKNO, mode);
	LockPage(index, NDD_METAPAGE_BLKNO, mode);
	return true;
}

void
ndd_growth_unlock(Relation index, LOCKMODE mode)
{
	UnlockPage(index, NDD_METAPAGE_BLKNO, mode);
}

/*
 * The metapage, exclusively locked and registered in a new generic WAL record, for one update:
 * meta_finish logs it and releases the lock. Taken after any other page lock the caller holds.
 */
static NddMetaPage
meta_begin(Relation index, Buffer *mbuf, GenericXLogState **state)
{
	*mbuf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
	LockBuffer(*mbuf, BUFFER_LOCK_EXCLUSIVE);
	*state = GenericXLogStart(index);
	return NddPageGetMeta(GenericXLogRegisterBuffer(*state, *mbuf, 0));
}

static void
meta_finish(Buffer mbuf, GenericXLogState *state)
{
	GenericXLogFinish(state);
	UnlockReleaseBuffer(mbuf);
}

/*
 * Is an expansion due (README.index.md, "Growth")? A state of the metapage, not an event: when
 * the count passes the threshold during a migration (or while VACUUM holds the growth lock), the
 * expansion comes with the first insert after it, even if no chain overflows any more by then.
 */
bool
ndd_expansion_due(const NddMetaPageData *meta)
{
	return meta->old_npages == 0 && meta->nextents < NDD_MAX_EXTENTS &&
		(uint64) meta->overflowed * NDD_OVERFLOW_SHARE >=
		(uint64) meta->npages * meta->layout.ntables;
}

/*
 * Counts, in the metapage, `chains` chains of the map of this generation that an insert made
 * overflow (linked their first overflow page). Returns whether an expansion is due. Counting
 * chains rather than pages keeps a stream of copies of a few fingerprints, whose chains grow
 * long in any map, from expanding the map for nothing.
 */
bool
ndd_count_overflow(Relation index, uint32 generation, int chains)
{
	Buffer		mbuf;
	GenericXLogState *state;
	NddMetaPage meta = meta_begin(index, &mbuf, &state);
	bool		due;

	if (meta->generation != generation)
	{
		/* the map expanded meanwhile: these chains belong to the previous one */
		GenericXLogAbort(state);
		UnlockReleaseBuffer(mbuf);
		return false;
	}
	meta->overflowed += chains;
	due = ndd_expansion_due(meta);
	meta_finish(mbuf, state);
	return due;
}

/*
 * Reserves `total` contiguous new blocks at the end of the index and returns the first. Only the
 * last one is written here (an empty page, WAL-logged so that a standby's file has the same
 * length); the file system fills the blocks before it with zeros, which read as new pages, as
 * hash indexes allocate a split point. The extension lock is held for this one write.
 */
static BlockNumber
reserve_blocks(Relation index, uint32 total, const NddFormat *f)
{
	PGAlignedBlock zero;
	BlockNumber first;
	BlockNumber last;

	LockRelationForExtension(index, ExclusiveLock);
	first = RelationGetNumberOfBlocks(index);
	last = first + total - 1;
	ndd_page_init((Page) zero.data, NDD_PAGE_PRIMARY, f);
	if (RelationNeedsWAL(index))
		log_newpage(&NddRelationFileLocator(index), MAIN_FORKNUM, last, (Page) zero.data, true);
	PageSetChecksumInplace((Page) zero.data, last);
	smgrextend(RelationGetSmgr(index), MAIN_FORKNUM, last, zero.data, false);
	UnlockRelationForExtension(index, ExclusiveLock);
	return first;
}

/*
 * Expands the map of meta (a fresh copy; no migration under way): reserves an extent for the
 * pages it adds (written later, by the migration, before anything can reach them) and publishes
 * the new map with one metapage record, its cursor at the previous map's end: nothing has moved
 * yet, so every head is still read in the previous map.
 */
static void
expand(Relation index, const NddMetaPageData *cur, BlockNumber heap_block)
{
	uint32		n = cur->npages;
	uint32		add = ndd_expanded_npages(n) - n;
	int			ntables = cur->layout.ntables;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);
	BlockNumber start;
	NddFormat	f;
	Buffer		mbuf;
	GenericXLogState *state;
	NddMetaPage meta;

	/* every primary must stay addressable */
	if ((uint64) nblocks + (uint64) add * ntables >= MaxBlockNumber / 2 ||
		(uint64) n + add >= PG_UINT32_MAX / 2)
		return;
	ndd_data_page_format(cur, ndd_page_delta_bits(n + add), heap_block, 0, &f);
	start = reserve_blocks(index, add * (uint32) ntables, &f);

	meta = meta_begin(index, &mbuf, &state);
	meta->ext[meta->nextents].first = n;
	meta->ext[meta->nextents].count = add;
	meta->ext[meta->nextents].start = start;
	meta->nextents++;
	meta->old_npages = n;
	meta->npages = n + add;
	meta->cursor = n;
	meta->generation++;
	meta->overflowed = 0;
	meta_finish(mbuf, state);
}

/*
 * Makes table t's page q of the current map (view nv) a primary page of its generation if it is
 * not one yet: a page the previous map had and a migration has moved, or a page of the new
 * extent (zeros, or the reservation's last page). Anything else is damage.
 */
static void
ensure_primary(Relation index, const NddMapView *nv, int t, uint32 q, BlockNumber heap_block)
{
	BlockNumber blkno = ndd_primary_block(nv, t, q);
	Buffer		buf = ReadBuffer(index, blkno);
	Page		page;
	NddPageOpaque o;
	GenericXLogState *state;
	NddFormat	f;

	ndd_lock_buffer(index, buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	o = NddPageGetOpaque(page);
	if (ndd_page_initialized(page) && o->kind == NDD_PAGE_PRIMARY && o->generation == nv->generation)
	{
		UnlockReleaseBuffer(buf);
		return;
	}
	if (!PageIsNew(page) &&
		!(ndd_page_initialized(page) &&
		  ((o->kind == NDD_PAGE_MOVED && o->generation + 1 == nv->generation) ||
		   (o->kind == NDD_PAGE_PRIMARY && o->generation == 0 && q >= nv->meta->old_npages))))
	{
		UnlockReleaseBuffer(buf);
		ndd_corrupt(index, "a page the map's expansion writes holds something else", blkno);
	}
	ndd_data_page_format(nv->meta, nv->delta_bits, heap_block, 0, &f);
	state = GenericXLogStart(index);
	ndd_primary_init(GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE), nv->generation, &f);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/*
 * Removes from table t's chain of page q of the current map (view nv) the entries whose heads lie
 * in [lo, hi]: copies an earlier migration of the previous map's page holding those heads made
 * before it was interrupted (an error or a crash). Nothing else can put such heads there: until
 * that page is moved, inserts of those heads go to it. So migrating a page is idempotent.
 */
typedef struct HeadRange
{
	uint64		lo;
	uint64		hi;
} HeadRange;

static bool
head_in_range(const char *entry, const NddFormat *f, uint64 low, void *arg)
{
	const HeadRange *r = (const HeadRange *) arg;
	uint64		head = ndd_entry_head(ndd_entry_bits(entry), f, low);

	return head >= r->lo && head <= r->hi;
}

static void
delete_heads(Relation index, const NddMapView *nv, int t, uint32 q, uint64 lo, uint64 hi)
{
	BlockNumber blkno = ndd_primary_block(nv, t, q);
	HeadRange	range = {lo, hi};
	NddChain	chain;
	Page		page;

	page = ndd_chain_begin(&chain, index, nv, blkno, BUFFER_LOCK_EXCLUSIVE, NULL);
	if (page == NULL)
		ndd_corrupt(index, "a page the map's expansion wrote is not of its map", blkno);
	for (; page != NULL; page = ndd_chain_next(&chain))
		ndd_chain_remove(index, &chain, ndd_page_low(q, nv->npages), head_in_range, &range);
	ndd_chain_end(&chain);
}

/*
 * The chain a migration builds for the current map's page that lives in the block of the page
 * it is moving (the in-place case: both maps have a page of that number, and the new one holds
 * some of the old one's heads): its pages are new, reachable by nobody until the old page is
 * rewritten as the new one, linked to them. Each page is filled in a buffer of its own, then
 * written as a full image once its successor is known.
 */
typedef struct FreshChain
{
	Relation	index;
	const NddMapView *nv;
	uint64		low;			/* the page's smallest head */
	BlockNumber first;			/* InvalidBlockNumber: no page yet */
	BlockNumber last;			/* the last page written */
	Buffer		buf;			/* the page being filled, locked */
	PGAlignedBlock data;		/* its contents */
	NddFormat	f;
} FreshChain;

/* Writes the page being filled, linked to next, and releases it. */
static void
fresh_flush(FreshChain *fc, BlockNumber next)
{
	GenericXLogState *state = GenericXLogStart(fc->index);
	Page		page = GenericXLogRegisterBuffer(state, fc->buf, GENERIC_XLOG_FULL_IMAGE);

	memcpy(page, fc->data.data, BLCKSZ);
	NddPageGetOpaque(page)->next = next;
	GenericXLogFinish(state);
	fc->last = BufferGetBlockNumber(fc->buf);
	UnlockReleaseBuffer(fc->buf);
	fc->buf = InvalidBuffer;
}

/* Appends entries e[0..n) to the chain being built, on new pages as the last one fills. */
static void
fresh_append(FreshChain *fc, const NddEntry *e, int n)
{
	while (n > 0)
	{
		int			k = 0;
		Buffer		nbuf;

		if (BufferIsValid(fc->buf))
			k = ndd_append_fitting((Page) fc->data.data, &fc->f, fc->low, e, n);
		if (k > 0)
		{
			e += k;
			n -= k;
			continue;
		}
		/* the first page, or the one after a full page (or one too narrow for e's TID) */
		nbuf = ndd_new_buffer(fc->index);
		if (BufferIsValid(fc->buf))
			fresh_flush(fc, BufferGetBlockNumber(nbuf));
		else
			fc->first = BufferGetBlockNumber(nbuf);
		fc->buf = nbuf;
		ndd_data_page_format(fc->nv->meta, fc->nv->delta_bits, e[0].block, e[0].offset, &fc->f);
		ndd_page_init((Page) fc->data.data, NDD_PAGE_OVERFLOW, &fc->f);
	}
}

/*
 * Migrates the previous map's page p = cursor - 1 of every table into the current map, then
 * moves the cursor to p. For each table, holding the old page's bucket lock throughout: the
 * current map's pages that will hold its heads are made primary pages of the new generation and
 * cleared of an interrupted attempt's copies; the old chain's entries are appended to them; then
 * one WAL record rewrites the old primary page, as NDD_PAGE_MOVED (or, in place, as the current
 * map's page of the same number, linked to the chain built for it) and puts the old chain's
 * overflow pages on the free list. A reader that finds the moved page goes to the current map's
 * pages, which hold every entry by then (records replay in this order on a standby too); a table
 * whose page is already moved (an interrupted migration) is skipped.
 */
static void
migrate_page(Relation index, const NddMetaPageData *meta, BlockNumber heap_block)
{
	NddMapView	ov;
	NddMapView	nv;
	uint32		p = meta->cursor - 1;
	uint64		lo;
	uint64		hi;
	uint32		q0;
	uint32		q1;
	int			nq;
	int			cap = NDD_PAGE_CAPACITY_BYTES / 8;
	NddEntry   *groups;
	int		   *counts;
	uint64		olow;
	int			t;
	int			overflowed = 0;
	Buffer		mbuf;
	GenericXLogState *state;
	NddMetaPage m;

	ndd_map_view(meta, true, &ov);
	ndd_map_view(meta, false, &nv);
	ndd_moved_pages(meta, p, &lo, &hi, &q0, &q1);
	olow = lo;
	nq = (int) (q1 - q0 + 1);
	groups = palloc(sizeof(NddEntry) * cap * nq);
	counts = palloc0(sizeof(int) * nq);

	for (t = 0; t < meta->layout.ntables; t++)
	{
		BlockNumber oblk = ndd_primary_block(&ov, t, p);
		NddChain	chain;
		Page		page;
		BlockNumber freed_first = InvalidBlockNumber;
		BlockNumber freed_last = InvalidBlockNumber;
		uint32		nfreed = 0;
		FreshChain	fc;
		uint32		q;
		int			g;
		Page		ppage;
		Buffer		lbuf = InvalidBuffer;

		page = ndd_chain_begin(&chain, index, &ov, oblk, BUFFER_LOCK_EXCLUSIVE, NULL);
		if (page == NULL)
		{
			if (chain.gone == NDD_GONE_MOVED)
				continue;		/* an interrupted migration moved this table's page already */
			ndd_corrupt(index, "a page of the map being migrated is not of that map", oblk);
		}
		for (q = q0; q <= q1; q++)
			if (q != p)
			{
				ensure_primary(index, &nv, t, q, heap_block);
				delete_heads(index, &nv, t, q, lo, hi);
			}
		memset(&fc, 0, sizeof(fc));
		fc.index = index;
		fc.nv = &nv;
		fc.low = ndd_page_low(p, nv.npages);
		fc.first = fc.last = InvalidBlockNumber;
		fc.buf = InvalidBuffer;

		for (; page != NULL; page = ndd_chain_next(&chain))
		{
			const NddFormat f = chain.f;
			const char *ptr = (const char *) page + MAXALIGN(SizeOfPageHeaderData);
			int			n = ndd_page_nentries(page, &f);
			int			i;

			if (chain.cur != chain.first)
			{
				/* an overflow page of the old chain: free once the chain is gone */
				if (freed_first == InvalidBlockNumber)
					freed_first = BufferGetBlockNumber(chain.cur);
				freed_last = BufferGetBlockNumber(chain.cur);
				nfreed++;
			}
			for (i = 0; i < n; i++, ptr += f.entry_bytes)
			{
				NddEntry	e;
				uint32		qe;

				ndd_entry_decode(ptr, &f, olow, &e);
				qe = ndd_page_of(e.head, nv.npages);
				if (qe < q0 || qe > q1)
					ndd_corrupt(index, "an entry lies outside its page's heads", BufferGetBlockNumber(chain.cur));
				groups[(qe - q0) * cap + counts[qe - q0]++] = e;
			}
			for (g = 0; g < nq; g++)
			{
				int			gone;

				if (counts[g] == 0)
					continue;
				if (q0 + g == p)
					fresh_append(&fc, &groups[g * cap], counts[g]);
				else
				{
					int			r = ndd_chain_append(index, &nv, t, q0 + g, &groups[g * cap], counts[g], &gone);

					if (r == NDD_APPEND_GONE)
						ndd_corrupt(index, "a page the map's expansion wrote is not of its map",
									ndd_primary_block(&nv, t, q0 + g));
					if (r == NDD_APPEND_OVERFLOWED)
						overflowed++;
				}
				counts[g] = 0;
			}
		}
		if (BufferIsValid(fc.buf))
			fresh_flush(&fc, InvalidBlockNumber);

		/* one record: the old primary rewritten, its overflow pages onto the free list */
		state = GenericXLogStart(index);
		ppage = GenericXLogRegisterBuffer(state, chain.first, GENERIC_XLOG_FULL_IMAGE);
		if (q0 <= p && p <= q1)
		{
			NddFormat	f;

			ndd_data_page_format(meta, nv.delta_bits, heap_block, 0, &f);
			ndd_primary_init(ppage, nv.generation, &f);
			NddPageGetOpaque(ppage)->next = fc.first;
		}
		else
		{
			ndd_page_init(ppage, NDD_PAGE_MOVED, NULL);
			NddPageGetOpaque(ppage)->generation = ov.generation;
		}
		mbuf = InvalidBuffer;
		if (nfreed > 0)
		{
			Page		lpage;

			/* reachable only through the old primary, whose lock this backend holds */
			lbuf = ReadBuffer(index, freed_last);
			ndd_lock_buffer(index, lbuf, BUFFER_LOCK_EXCLUSIVE);
			lpage = GenericXLogRegisterBuffer(state, lbuf, 0);
			mbuf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
			LockBuffer(mbuf, BUFFER_LOCK_EXCLUSIVE);
			m = NddPageGetMeta(GenericXLogRegisterBuffer(state, mbuf, 0));
			NddPageGetOpaque(lpage)->next = m->free_head;
			m->free_head = freed_first;
			m->nfree += nfreed;
		}
		GenericXLogFinish(state);
		if (BufferIsValid(lbuf))
			UnlockReleaseBuffer(lbuf);
		if (BufferIsValid(mbuf))
			UnlockReleaseBuffer(mbuf);
		ndd_chain_end(&chain);
	}
	pfree(groups);
	pfree(counts);

	/* every table's page p is in the current map: move the cursor (the last page: done) */
	m = meta_begin(index, &mbuf, &state);
	Assert(m->generation == meta->generation && m->cursor == p + 1);
	m->cursor = p;
	if (p == 0)
		m->old_npages = 0;
	m->overflowed += overflowed;
	meta_finish(mbuf, state);
}

/*
 * After an insert: expands the map when that is due and migrates one page of the previous map
 * when a migration is under way, unless another backend is doing that work (README.index.md,
 * "Growth"). New primary pages get an entry format for every heap block the table has (with room
 * for it to double), not only for the inserted row's: moved entries can name any of them, and a
 * page too narrow for them would overflow at once and make the next expansion due for nothing.
 */
void
ndd_grow_work(Relation index, Relation heap, BlockNumber heap_block)
{
	NddMetaPageData meta;

	if (!ndd_growth_lock(index, ExclusiveLock, false))
		return;
	heap_block = Max(heap_block, RelationGetNumberOfBlocks(heap));
	meta = *ndd_get_meta(index);
	if (ndd_expansion_due(&meta))
	{
		expand(index, &meta, heap_block);
		meta = *ndd_get_meta(index);
	}
	if (meta.old_npages != 0)
		migrate_page(index, &meta, heap_block);
	ndd_growth_unlock(index, ExclusiveLock);
}
