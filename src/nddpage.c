/*-------------------------------------------------------------------------
 *
 * nddpage.c
 *	  The primitives of the ndd access method's pages: the metapage (its backend cache, its
 *	  validity check, the map views made from it: NddMapView), page initialization, the entry
 *	  formats and appending one entry to a page.
 *
 * Nothing here walks or links a chain (nddchain.c does) or calls another index file: every
 * other index file may call this one.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "port/pg_bitutils.h"
#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* Width of the indexed fingerprint: its column's type's (ndd_fingerprint_bits). */
int
ndd_index_bits(Relation index)
{
	int			bits = ndd_fingerprint_bits(TupleDescAttr(RelationGetDescr(index), 0)->attlen);

	if (bits == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ndd indexes support only simhash64 and fp128 columns")));
	return bits;
}

/* Number of bits needed to write x (0 for 0). */
int
ndd_bits_for(uint64 x)
{
	/* called for every entry an insert or a migration writes (ndd_format_fits) */
	return x == 0 ? 0 : pg_leftmost_one_pos64(x) + 1;
}

/*
 * Returns the metapage contents, read afresh into a copy kept in rd_amcache: an expansion or a
 * migration step can change the map at any time (README.index.md, "Growth"), and a scan must
 * find every row its snapshot can see. Such a row was inserted before the snapshot, so it is in
 * one of the views of a metapage read afterwards (every scan and insert reads it then), or in a
 * page a migration has moved since, which says so. The caller copies what it needs before the
 * next call.
 */
NddMetaPage
ndd_get_meta(Relation index)
{
	return ndd_read_meta(index, true);
}

/* A block and the buffer it was last found in (NddMetaCache.recent). */
typedef struct NddRecentBuffer
{
	BlockNumber block;
	Buffer		buf;
} NddRecentBuffer;

/*
 * The backend's copy of an index's metapage (rd_amcache), and whether that exact copy passed
 * ndd_meta_problem: the check needs the relation's size (a system call), so it runs only when
 * the metapage changed since the last read, not at every scan.
 */
typedef struct NddMetaCache
{
	NddMetaPageData meta;		/* first: rd_amcache is used as an NddMetaPage */
	bool		checked;
	BlockNumber nblocks;		/* the relation's size when last read (it only grows) */
	/*
	 * The buffer chains' first pages were last found in, by block number modulo nrecent (0 or a
	 * power of two): ndd_read_first. In the same allocation, because the relcache frees
	 * rd_amcache alone when it reloads the index's entry.
	 */
	uint32		nrecent;
	NddRecentBuffer recent[FLEXIBLE_ARRAY_MEMBER];
} NddMetaCache;

/* 64 kB per index and backend: a slot per first page up to about 1.4M rows (4 tables) */
#define NDD_RECENT_BUFFERS_MAX 8192

/*
 * The cache, with a slot per chain of the map meta describes (both maps during a migration) up
 * to NDD_RECENT_BUFFERS_MAX: reallocated when the map has grown past its slots, so pointers
 * into the previous one (the metapage copies ndd_read_meta returned) are gone, as they are at
 * every read anyway.
 */
static NddMetaCache *
ndd_cache_fit(Relation index, NddMetaCache *cache)
{
	uint64		chains = (uint64) cache->meta.layout.ntables *
		(cache->meta.npages + cache->meta.old_npages) + 1;
	uint32		want = (uint32) Min(pg_nextpower2_64(chains), NDD_RECENT_BUFFERS_MAX);
	NddMetaCache *fit;

	if (cache->nrecent >= want)
		return cache;
	/* the new one first: an out-of-memory error leaves the old one in place */
	fit = MemoryContextAllocZero(index->rd_indexcxt,
								 offsetof(NddMetaCache, recent) + want * sizeof(NddRecentBuffer));
	memcpy(fit, cache, offsetof(NddMetaCache, recent));
	fit->nrecent = want;
	index->rd_amcache = fit;
	pfree(cache);
	return fit;
}

/*
 * ndd_get_meta, except that an index of another on-disk version, or one whose metapage describes
 * an impossible index, returns NULL instead of raising the error when current_only is false. The
 * planner uses that: an error there would make every query on the table fail, while only the
 * index's own scans need to.
 */
NddMetaPage
ndd_read_meta(Relation index, bool current_only)
{
	Buffer		buf;
	Page		page;
	NddMetaPage meta;
	NddMetaCache *cache;
	const char *problem;

	if (index->rd_amcache == NULL)
		index->rd_amcache = MemoryContextAllocZero(index->rd_indexcxt,
												   offsetof(NddMetaCache, recent));
	cache = (NddMetaCache *) index->rd_amcache;
	buf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	meta = NddPageGetMeta(page);
	if (!ndd_page_initialized(page) ||
		NddPageGetOpaque(page)->kind != NDD_PAGE_META || meta->magic != NDD_MAGIC)
	{
		UnlockReleaseBuffer(buf);
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not an ndd index", RelationGetRelationName(index))));
	}
	if (meta->version != NDD_VERSION)
	{
		uint32		version = meta->version;

		UnlockReleaseBuffer(buf);
		if (!current_only)
			return NULL;
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("ndd index \"%s\" has version %u, this library reads version %d",
						RelationGetRelationName(index), version, NDD_VERSION),
				 errhint("REINDEX the index.")));
	}
	if (cache->checked && ndd_meta_size(&cache->meta) == ndd_meta_size(meta) &&
		memcmp(&cache->meta, meta, ndd_meta_size(meta)) == 0)
	{
		UnlockReleaseBuffer(buf);
		return &cache->meta;
	}
	cache->checked = false;
	ndd_meta_copy(&cache->meta, meta);
	UnlockReleaseBuffer(buf);

	/*
	 * Everything that reads pages through the metapage (page maps, block arithmetic, the layout's
	 * permutations) may rely on it from here on. The relation's size is read after the copy: a
	 * map's blocks exist before the metapage names them (README.index.md, "Growth").
	 */
	cache->nblocks = RelationGetNumberOfBlocks(index);
	problem = ndd_meta_problem(index, &cache->meta, cache->nblocks);
	if (problem != NULL)
	{
		if (!current_only)
			return NULL;
		ndd_corrupt(index, problem, NDD_METAPAGE_BLKNO);
	}
	cache->checked = true;
	return &ndd_cache_fit(index, cache)->meta;
}

/*
 * The index's size in blocks, as last read, or read again when blkno lies beyond it (inserts
 * extend the index): the system call is made only when a link points past the size last seen.
 */
BlockNumber
ndd_known_nblocks(Relation index, BlockNumber blkno)
{
	NddMetaCache *cache = (NddMetaCache *) index->rd_amcache;
	BlockNumber nblocks;

	if (cache != NULL && blkno < cache->nblocks)
		return cache->nblocks;
	nblocks = RelationGetNumberOfBlocks(index);
	if (cache != NULL)
		cache->nblocks = nblocks;
	return nblocks;
}

/*
 * ReadBuffer for a chain's first page, without the shared buffer table's lookup when the page is
 * still in the buffer this backend last found it in (ReadRecentBuffer checks that under the
 * buffer header's lock). The lookup is a few cache misses in a table as large as shared buffers,
 * once per table of the map at every insert and probe. The slots live in the backend's copy of
 * the metapage (NddMetaCache, sized by ndd_cache_fit).
 */
Buffer
ndd_read_first(Relation index, BlockNumber blkno)
{
	NddMetaCache *cache = (NddMetaCache *) index->rd_amcache;
	NddRecentBuffer *r;
	Buffer		buf;

	if (cache == NULL || cache->nrecent == 0 || RelationUsesLocalBuffers(index))
		return ReadBuffer(index, blkno);
	r = &cache->recent[blkno & (cache->nrecent - 1)];
	if (r->block == blkno && BufferIsValid(r->buf) &&
		ReadRecentBuffer(NddRelationFileLocator(index), MAIN_FORKNUM, blkno, r->buf))
	{
		/* as ReadBuffer counts it (pg_statio_*_indexes) */
		pgstat_count_buffer_read(index);
		pgstat_count_buffer_hit(index);
		return r->buf;
	}
	buf = ReadBuffer(index, blkno);
	r->block = blkno;
	r->buf = buf;
	return buf;
}

/*
 * What is impossible about the metapage meta of an index of nblocks blocks, or NULL: the layout
 * must be the one its width, k and blocks make, for the column's width; the heap field widths
 * new pages start from must be ones an entry can hold; the map must be a possible one (a
 * generation, pages, a migration cursor within the previous map, extents that cover the map's
 * pages in order, every one of them in the relation); the NULL chain's first page and the free
 * list's must lie in the relation. Used by every metapage read and by ndd_index_check.
 */
const char *
ndd_meta_problem(Relation index, const NddMetaPageData *meta, BlockNumber nblocks)
{
	const NddLayout *layout = &meta->layout;
	NddLayout	expect;
	uint32		covered = 0;
	int			e;
	int			t;

	memset(&expect, 0, sizeof(expect));
	if (layout->bits != ndd_index_bits(index) ||
		ndd_layout_make(layout->bits, layout->radius, layout->nblocks, &expect) != NDD_OK ||
		memcmp(&expect, layout, sizeof(expect)) != 0 ||
		meta->null_start < 1 || meta->null_start >= nblocks ||
		meta->block_bits < 1 || meta->block_bits > 32 ||
		meta->offset_bits < 1 || meta->offset_bits > 16)
		return "the metapage describes an impossible shape";
	/* a migration is of the map one expansion made, and has a page left (cursor 0 ends it) */
	if (meta->generation < 1 || meta->npages < 1 ||
		(meta->old_npages != 0 &&
		 (meta->generation < 2 || meta->npages != ndd_expanded_npages(meta->old_npages) ||
		  meta->cursor < 1 || meta->cursor > meta->old_npages)))
		return "the metapage describes an impossible map";
	if (meta->nextents < 1 || meta->nextents > NDD_MAX_EXTENTS)
		return "the metapage has an impossible number of extents";
	/* the build makes generation 1 and extent 0, every expansion one more of each */
	if (meta->generation != (uint32) meta->nextents)
		return "the metapage describes an impossible map";
	for (e = 0; e < meta->nextents; e++)
	{
		const NddExtent *ext = &meta->ext[e];
		bool		ok = ext->count >= 1 && ext->first == covered;

		if (e == 0)
		{
			ok &= ext->start == 0;
			for (t = 0; t < layout->ntables; t++)
				ok &= meta->table_start[t] >= 1 &&
					(uint64) meta->table_start[t] + ext->count <= nblocks;
		}
		else
			ok &= ext->start >= 1 &&
				(uint64) ext->start + (uint64) layout->ntables * ext->count <= nblocks;
		if (!ok)
			return psprintf("the metapage describes an impossible extent %d", e);
		covered += ext->count;
	}
	if (covered != meta->npages)
		return "the metapage's extents do not cover its map";
	if (meta->free_head != InvalidBlockNumber &&
		(meta->free_head < 1 || meta->free_head >= nblocks))
		return "the metapage's free list starts outside the index";
	return NULL;
}

/* Raises the error for a damaged index: what is wrong, and at which block. */
void
ndd_corrupt(Relation index, const char *what, BlockNumber blkno)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("ndd index \"%s\" is corrupted: %s (block %u)",
					RelationGetRelationName(index), what, blkno),
			 errhint("REINDEX the index; ndd_index_check tells what else is damaged.")));
}

/*
 * *view = the map of the index whose metapage copy is meta (which must outlive the view), or
 * with previous, the map an expansion is migrating from: each with the heads it holds now (the
 * previous map's pages below the cursor, the current map's pages from there on), its page map
 * and entry format. A view may cover no head at all (lo > hi).
 */
void
ndd_map_view(const NddMetaPageData *meta, bool previous, NddMapView *view)
{
	/* the first head the current map holds: the previous map's page at the cursor */
	uint64		boundary = 0;

	if (meta->old_npages != 0)
		boundary = meta->cursor >= meta->old_npages ? PG_UINT64_MAX :
			ndd_page_low(meta->cursor, meta->old_npages);
	view->meta = meta;
	view->wide = meta->layout.bits == 128;
	if (previous)
	{
		Assert(meta->old_npages != 0);
		view->generation = meta->generation - 1;
		view->npages = meta->old_npages;
		view->lo = 0;
		/* cursor = 0: every page migrated, the view is empty */
		view->hi = meta->cursor == 0 ? 0 : (meta->cursor >= meta->old_npages ? PG_UINT64_MAX : boundary - 1);
		if (meta->cursor == 0)
			view->lo = 1;
	}
	else
	{
		view->generation = meta->generation;
		view->npages = meta->npages;
		view->lo = boundary;
		view->hi = PG_UINT64_MAX;
		/* no page migrated yet: the current map holds nothing (its new pages are not written) */
		if (meta->old_npages != 0 && meta->cursor >= meta->old_npages)
		{
			view->lo = 1;
			view->hi = 0;
		}
	}
	view->delta_bits = ndd_page_delta_bits(view->npages);
	view->first_page = ndd_page_of(view->lo, view->npages);
	view->last_page = ndd_page_of(view->hi, view->npages);
}

/* The views that hold every head of the index now: the current map's, and the previous one's while an expansion migrates. */
void
ndd_map_views(const NddMetaPageData *meta, NddViews *views)
{
	views->n = 0;
	if (meta->old_npages != 0)
	{
		ndd_map_view(meta, true, &views->v[views->n]);
		if (views->v[views->n].lo <= views->v[views->n].hi)
			views->n++;
	}
	ndd_map_view(meta, false, &views->v[views->n]);
	if (views->v[views->n].lo <= views->v[views->n].hi)
		views->n++;
	Assert(views->n >= 1);
}

/* The view holding head. */
const NddMapView *
ndd_view_of(const NddViews *views, uint64 head)
{
	return views->n > 1 && head <= views->v[0].hi ? &views->v[0] : &views->v[views->n - 1];
}

/* Do two metapage copies describe the same maps (the same views)? */
bool
ndd_views_equal(const NddMetaPageData *a, const NddMetaPageData *b)
{
	return a->generation == b->generation && a->npages == b->npages &&
		a->old_npages == b->old_npages && a->cursor == b->cursor;
}

/*
 * Block number of table t's primary page p of the map mv shows: the extent holding p says where
 * (NddExtent). A page both maps have lives in one block, whichever map the view is of.
 */
BlockNumber
ndd_primary_block(const NddMapView *mv, int table, uint32 page)
{
	const NddMetaPageData *meta = mv->meta;
	int			lo = 0;
	int			hi = meta->nextents - 1;

	/* the last extent whose first page is <= page (extents are in page order) */
	while (lo < hi)
	{
		int			mid = (lo + hi + 1) / 2;

		if (meta->ext[mid].first <= page)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (lo == 0)
		return meta->table_start[table] + page;
	return meta->ext[lo].start + (BlockNumber) table * meta->ext[lo].count + (page - meta->ext[lo].first);
}

/*
 * The heads [*lo, *hi] of the previous map's page old_page, and the current map's pages *first to
 * *last that hold them once the page is migrated.
 */
void
ndd_moved_pages(const NddMetaPageData *meta, uint32 old_page, uint64 *lo, uint64 *hi,
				uint32 *first, uint32 *last)
{
	Assert(meta->old_npages != 0 && old_page < meta->old_npages);
	*lo = ndd_page_low(old_page, meta->old_npages);
	*hi = old_page + 1 >= meta->old_npages ? PG_UINT64_MAX :
		ndd_page_low(old_page + 1, meta->old_npages) - 1;
	*first = ndd_page_of(*lo, meta->npages);
	*last = ndd_page_of(*hi, meta->npages);
}


/*
 * A scan or insert found a primary page that does not belong to the map its metapage copy says
 * (moved by a migration, or a page of a later map): the metapage must have changed since;
 * if it did not, the page is damaged. The caller reads the metapage again and starts over.
 */
void
ndd_stale_or_corrupt(Relation index, const NddMetaPageData *was, BlockNumber blkno)
{
	if (ndd_views_equal(was, ndd_get_meta(index)))
		ndd_corrupt(index, "a primary page belongs to another map than the metapage says", blkno);
}

/* The entry format of a data page with the given heap field widths, in a map of delta_bits. */
void
ndd_format_for(int delta_bits, bool wide, int block_bits, int offset_bits, NddFormat *f)
{
	int			nbits = offset_bits + block_bits + delta_bits;
	int			bytes = (nbits + 7) / 8;

	if (bytes < 8)
		bytes = 8;
	f->block_bits = block_bits;
	f->offset_bits = offset_bits;
	f->delta_bits = delta_bits;
	f->wide = wide;
	f->entry_bytes = bytes + (f->wide ? 8 : 0);
}

/* Entries of format f that fit on one page. */
int
ndd_format_capacity(const NddFormat *f)
{
	return NDD_PAGE_CAPACITY_BYTES / f->entry_bytes;
}

/* Initializes an empty page of the given kind whose entries have format f. */
void
ndd_page_init(Page page, uint8 kind, const NddFormat *f)
{
	NddPageOpaque opaque;

	PageInit(page, BLCKSZ, sizeof(NddPageOpaqueData));
	opaque = NddPageGetOpaque(page);
	opaque->next = InvalidBlockNumber;
	opaque->insert_at = InvalidBlockNumber;
	opaque->kind = kind;
	opaque->entry_bytes = f ? f->entry_bytes : 0;
	opaque->block_bits = f ? f->block_bits : 0;
	opaque->offset_bits = f ? f->offset_bits : 0;
	opaque->generation = 0;
	opaque->sorted = 0;
	/* entries start right after the header; pd_lower marks their end */
	((PageHeader) page)->pd_lower = MAXALIGN(SizeOfPageHeaderData);
}

/* Initializes an empty primary page of the map of this generation. */
void
ndd_primary_init(Page page, uint32 generation, const NddFormat *f)
{
	ndd_page_init(page, NDD_PAGE_PRIMARY, f);
	NddPageGetOpaque(page)->generation = (uint16) generation;
}

/* An entry's place on a page and its sort key (head delta), for ndd_page_sort. */
typedef struct NddSortSlot
{
	uint64		delta;
	uint16		at;
} NddSortSlot;

/* by delta, then by place: a stable order, so that every build writes the same pages */
#define ST_SORT sort_slots
#define ST_ELEMENT_TYPE NddSortSlot
#define ST_COMPARE(a, b) ((a)->delta != (b)->delta ? ((a)->delta < (b)->delta ? -1 : 1) : \
						  ((a)->at < (b)->at ? -1 : (a)->at > (b)->at))
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

/*
 * Sorts slots[0..n) as sort_slots does (by delta, then by place), faster for a page's entries,
 * whose deltas are spread over their range: a stable radix sort by the top 16 bits of the widest
 * delta (two passes of 8 bits, tmp as scratch) leaves the slots sorted but for the few that share
 * those bits, which an insertion sort then orders; equal deltas keep their places' order, which
 * the stable passes kept. Entries crowded in a narrow range (skewed data) could make the insertion
 * sort quadratic: past 8 moves per entry it gives up and sort_slots sorts the whole (so a page
 * costs at most a few times the comparison sort).
 */
static void
sort_page_slots(NddSortSlot *slots, NddSortSlot *tmp, int n)
{
	uint32		lo[257] = {0};
	uint32		hi[257] = {0};
	uint64		all = 0;
	int			shift = 0;
	long		moves = 0;
	int			i;

	for (i = 0; i < n; i++)
		all |= slots[i].delta;
	while (shift < 48 && (all >> shift) >= ((uint64) 1 << 16))
		shift++;
	for (i = 0; i < n; i++)
	{
		uint32		k = (uint32) (slots[i].delta >> shift) & 0xFFFF;

		lo[(k & 0xFF) + 1]++;
		hi[(k >> 8) + 1]++;
	}
	for (i = 1; i < 257; i++)
	{
		lo[i] += lo[i - 1];
		hi[i] += hi[i - 1];
	}
	for (i = 0; i < n; i++)
		tmp[lo[(slots[i].delta >> shift) & 0xFF]++] = slots[i];
	for (i = 0; i < n; i++)
		slots[hi[((tmp[i].delta >> shift) >> 8) & 0xFF]++] = tmp[i];
	for (i = 1; i < n; i++)
	{
		NddSortSlot x = slots[i];
		int			j = i;

		while (j > 0 && (slots[j - 1].delta > x.delta ||
						 (slots[j - 1].delta == x.delta && slots[j - 1].at > x.at)))
		{
			slots[j] = slots[j - 1];
			j--;
			moves++;
		}
		slots[j] = x;
		if (moves > 8L * n)
		{
			sort_slots(slots, n);
			return;
		}
	}
}

/*
 * Orders the entries of a data page (format f) by head and records them all as its sorted prefix
 * (README.index.md, "Sorted pages"): the build does it to every page before writing it, so that a
 * probe binary-searches its key range instead of checking every entry of the page. Heads of one
 * page differ only in their delta field, so that is the key; equal heads keep their order.
 */
void
ndd_page_sort(Page page, const NddFormat *f)
{
	int			n = ndd_page_nentries(page, f);
	char	   *base = (char *) page + MAXALIGN(SizeOfPageHeaderData);
	NddSortSlot slots[NDD_PAGE_CAPACITY_BYTES / 8 + 1];
	NddSortSlot tmp[NDD_PAGE_CAPACITY_BYTES / 8 + 1];
	PGAlignedBlock copy;
	bool		in_order = true;
	int			i;

	for (i = 0; i < n; i++)
	{
		slots[i].delta = ndd_entry_head(ndd_entry_bits(base + (Size) i * f->entry_bytes), f, 0);
		slots[i].at = (uint16) i;
		if (i > 0 && slots[i].delta < slots[i - 1].delta)
			in_order = false;
	}
	if (!in_order)
	{
		sort_page_slots(slots, tmp, n);
		memcpy(copy.data, base, (Size) n * f->entry_bytes);
		for (i = 0; i < n; i++)
			memcpy(base + (Size) i * f->entry_bytes, copy.data + (Size) slots[i].at * f->entry_bytes,
				   f->entry_bytes);
	}
	NddPageGetOpaque(page)->sorted = (uint16) n;
}

/*
 * The length of page's sorted prefix (format f, n entries): what its opaque data says, at most n
 * (a damaged count must not send a search past the entries; ndd_index_check reports it).
 */
int
ndd_page_sorted(Page page, int n)
{
	return Min((int) NddPageGetOpaque(page)->sorted, n);
}


/* Number of entries on a page. */
int
ndd_page_nentries(Page page, const NddFormat *f)
{
	int			used = ((PageHeader) page)->pd_lower - (int) MAXALIGN(SizeOfPageHeaderData);

	if (f->entry_bytes <= 0 || used <= 0)
		return 0;
	return used / f->entry_bytes;
}

/* Is there room for one more entry? */
bool
ndd_page_has_room(Page page, const NddFormat *f)
{
	return ((PageHeader) page)->pd_lower + f->entry_bytes <=
		BLCKSZ - MAXALIGN(sizeof(NddPageOpaqueData));
}

/* Can format f hold this heap TID? */
bool
ndd_format_fits(const NddFormat *f, BlockNumber block, OffsetNumber offset)
{
	return ndd_bits_for(block) <= f->block_bits && ndd_bits_for(offset) <= f->offset_bits;
}

/*
 * Can entry e go on page, of format f, as it is: room, and fields wide enough for its TID? Here
 * beside the two tests it combines, not inline in nddam.h: a header's inline helper that calls
 * this file's functions would tie every file that includes it to this one unseen.
 */
bool
ndd_entry_fits(Page page, const NddFormat *f, const NddEntry *e)
{
	return ndd_page_has_room(page, f) && ndd_format_fits(f, e->block, e->offset);
}

/* Appends one entry; the caller checked has_room and fits. */
void
ndd_page_append(Page page, const NddFormat *f, uint64 delta, uint64 tail,
				BlockNumber block, OffsetNumber offset)
{
	PageHeader	hdr = (PageHeader) page;
	char	   *p = (char *) page + hdr->pd_lower;
	unsigned __int128 v;
	int			strbytes = f->entry_bytes - (f->wide ? 8 : 0);

	v = (unsigned __int128) (delta & ndd_mask(f->delta_bits));
	v = (v << f->block_bits) | block;
	v = (v << f->offset_bits) | offset;
	/*
	 * v has no bit set past the entry's bit string, so a fixed 16-byte store (what the decoder
	 * loads) writes the entry and zeros after it, which the area past pd_lower holds anyway: no
	 * call for a variable-length copy per entry. Only at the very end of the page would it reach
	 * the special space.
	 */
	if (hdr->pd_lower + sizeof(v) <= BLCKSZ - MAXALIGN(sizeof(NddPageOpaqueData)))
		memcpy(p, &v, sizeof(v));
	else
		memcpy(p, &v, strbytes);
	if (f->wide)
		memcpy(p + strbytes, &tail, 8);
	hdr->pd_lower += f->entry_bytes;
}
