/*-------------------------------------------------------------------------
 *
 * nddinsert.c
 *	  Inserting one heap row into an ndd index: one entry in every table of the map (or one in
 *	  the NULL chain), each appended to its bucket's chain (nddchain.c), the entries of several
 *	  tables in one WAL record when each goes on the page where its chain's appends start.
 *
 * Locking: the bucket's primary page is exclusively locked for the whole append, which makes it
 * the bucket's lock (README.index.md): chain pages are then locked in chain order, and a new page
 * is locked before it is reachable (nddchain.c). Expansions and migrations run after the appends,
 * holding no page lock (nddgrow.c).
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/xloginsert.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"


/*
 * An entry of one table waiting, with its chain's pages locked, to go into the WAL record that
 * ndd_insert writes for several tables (flush_staged).
 */
typedef struct NddStaged
{
	NddChain	chain;			/* the bucket and the page the entry goes on (chain.cur) */
	NddEntry	e;
	uint64		low;			/* the smallest head of the chain's map page */
} NddStaged;

/*
 * Opens the chain of table t's page `pageno` of map view mv for entry e (ndd_chain_open). When e
 * can go on the page where appends start as it is, with room and a format that fits its TID
 * (nearly always), keeps the chain locked in *s and returns NDD_APPEND_STAGED; otherwise
 * releases it and returns NDD_APPEND_GONE (*gone: NddChain.gone) or NDD_APPEND_WALK, when the
 * append must walk on or link a page (ndd_chain_append).
 */
#define NDD_APPEND_STAGED	(-1)
#define NDD_APPEND_WALK		(-2)
static int
ndd_chain_stage(Relation index, const NddMapView *mv, int t, uint32 pageno, const NddEntry *e,
				NddStaged *s, int *gone)
{
	Page		page = ndd_chain_open(&s->chain, index, mv, ndd_primary_block(mv, t, pageno));

	if (page == NULL)
	{
		*gone = s->chain.gone;
		return NDD_APPEND_GONE;
	}
	if (ndd_entry_fits(page, &s->chain.f, e))
	{
		s->e = *e;
		s->low = ndd_page_low(pageno, mv->npages);
		return NDD_APPEND_STAGED;
	}
	ndd_chain_end(&s->chain);
	return NDD_APPEND_WALK;
}

/* Appends the staged entries s[0..*n) in one WAL record and releases their chains. */
static void
flush_staged(Relation index, NddStaged *s, int *n)
{
	NddAppendPart parts[MAX_GENERIC_XLOG_PAGES];
	int			i;

	if (*n == 0)
		return;
	for (i = 0; i < *n; i++)
	{
		NddAppendPart part = {s[i].chain.cur, InvalidBuffer, s[i].chain.f, s[i].low, &s[i].e, 1, 0};

		parts[i] = part;
	}
	ndd_appends_logged(index, parts, *n);
	for (i = 0; i < *n; i++)
		ndd_chain_end(&s[i].chain);
	*n = 0;
}

/*
 * aminsert: adds the row's entry to every table of the map (or its TID to the NULL chain), then
 * lets nddgrow.c expand the map or advance a migration when that is due.
 *
 * The entries of up to MAX_GENERIC_XLOG_PAGES tables go into one WAL record: their chains are
 * locked one table after the other, in table order, and released together after the record (a
 * chain that needs more than its insert_at page first releases the ones held). Every other
 * holder of several bucket locks holds them within one table (a migration; README.index.md,
 * "Locking"), so the table order adds no deadlock; on a standby, redo locks the record's pages in
 * table order, one page per table, while a reader holds pages of one chain only.
 */
bool
ndd_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	NddMetaPageData meta;
	NddViews	views;
	NddEntry	e;
	NddStaged	staged[MAX_GENERIC_XLOG_PAGES];
	int			nstaged = 0;
	uint64		words[2];
	int			t;
	int			overflowed = 0;
	int			gone;
	bool		due = false;

	/* a copy: the cached one is overwritten by the next read */
	ndd_meta_copy(&meta, ndd_get_meta(index));
	ndd_map_views(&meta, &views);
	e.block = ItemPointerGetBlockNumber(ht_ctid);
	e.offset = ItemPointerGetOffsetNumber(ht_ctid);
	e.head = e.tail = 0;
	if (isnull[0])
	{
		ndd_chain_append(index, &views.v[0], -1, 0, &e, 1, &gone);
		return false;
	}

	ndd_fingerprint_words(values[0], meta.layout.bits, words);
	for (t = 0; t < meta.layout.ntables;)
	{
		uint64		perm[2];
		const NddMapView *mv;
		NddMapView	cur;
		uint32		page;
		int			r;

		ndd_layout_permute(&meta.layout, t, words, perm);
		e.head = perm[0];
		e.tail = perm[1];
		mv = ndd_view_of(&views, e.head);
		page = ndd_page_of(e.head, mv->npages);
		r = ndd_chain_stage(index, mv, t, page, &e, &staged[nstaged], &gone);
		if (r == NDD_APPEND_STAGED)
		{
			if (++nstaged == MAX_GENERIC_XLOG_PAGES)
				flush_staged(index, staged, &nstaged);
			t++;
			continue;
		}
		/* the cases below take other locks (the metapage, new pages): hold no chain of another table */
		flush_staged(index, staged, &nstaged);
		if (r == NDD_APPEND_WALK)
			r = ndd_chain_append(index, mv, t, page, &e, 1, &gone);
		if (r == NDD_APPEND_GONE && gone == NDD_GONE_MOVED)
		{
			/* migrated since the metapage was read: the head's page of the current map */
			ndd_map_view(&meta, false, &cur);
			page = ndd_page_of(e.head, cur.npages);
			r = ndd_chain_append(index, &cur, t, page, &e, 1, &gone);
			mv = &cur;
		}
		if (r == NDD_APPEND_GONE)
		{
			/* the map changed since the metapage was read (or the page is damaged): again */
			ndd_stale_or_corrupt(index, &meta, ndd_primary_block(mv, t, page));
			ndd_meta_copy(&meta, ndd_get_meta(index));
			ndd_map_views(&meta, &views);
			continue;
		}
		if (r == NDD_APPEND_OVERFLOWED && mv->generation == meta.generation)
			overflowed++;
		t++;
	}
	flush_staged(index, staged, &nstaged);
	if (overflowed > 0)
		due = ndd_count_overflow(index, meta.generation, overflowed);
	if (due || meta.old_npages != 0 || ndd_expansion_due(&meta))
		ndd_grow_work(index, heapRel, e.block);
	return false;
}
