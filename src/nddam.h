/*-------------------------------------------------------------------------
 *
 * nddam.h
 *	  The ndd index access method: Manku's permuted-block tables for exact Hamming-radius search
 *	  over simhash64 and fp128 columns.
 *
 * On-disk format, locking and invariants: src/README.index.md. The table layout (blocks, keys,
 * pigeonhole) and the page map come from the core (src/core/layout_api.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef NDDAM_H
#define NDDAM_H

#include "ndd.h"

#include "access/amapi.h"
#include "access/generic_xlog.h"
#include "access/itup.h"
#include "access/relscan.h"
#include "nodes/pathnodes.h"
#include "storage/buf.h"
#include "storage/bufpage.h"
#include "storage/lockdefs.h"

#include "layout_api.h"

/* ---- on-disk constants ---- */

#define NDD_MAGIC			0x4E444431	/* "NDD1" */
#define NDD_VERSION			6		/* 3: insert_at on the first page of every chain;
										 * 4: the growth step's reserved range (pending);
										 * 5: each segment's shape only in seg[];
										 * 6: one map that expands in place (extents,
										 * migration cursor, generations, free list) */
#define NDD_METAPAGE_BLKNO	0

/* page kinds, in the special space of every page */
#define NDD_PAGE_META		1
#define NDD_PAGE_PRIMARY	2		/* first page of a bucket: its block number is computable */
#define NDD_PAGE_OVERFLOW	3		/* a later page of a bucket's chain */
#define NDD_PAGE_NULLS		4		/* a page of the chain of NULL rows */
#define NDD_PAGE_MOVED		5		/* a primary page of the previous map whose entries an
										 * expansion has migrated (README.index.md, "Growth") */

/* Strategy numbers of the operator classes. */
#define NDD_STRATEGY_WITHIN		1	/* fp <@ hamming_ball */
#define NDD_STRATEGY_DISTANCE	2	/* fp <~> q, ORDER BY */
#define NDD_NSTRATEGIES			2

/* Build-phase numbers reported in pg_stat_progress_create_index.subphase... */
#define NDD_BUILD_PHASE_SCAN	2
#define NDD_BUILD_PHASE_WRITE	3

/*
 * The special space of every page. A bucket's pages form a chain through next. The entry format is
 * per page: pages created later may need wider heap block or offset fields than the build chose.
 */
typedef struct NddPageOpaqueData
{
	BlockNumber next;			/* next page of the chain, or InvalidBlockNumber */
	BlockNumber insert_at;		/* on a chain's first page (primary or NULL head): the page where
								 * inserts start looking for room, InvalidBlockNumber for the first
								 * page itself; unused on other pages (README.index.md, "Inserts") */
	uint8		kind;			/* NDD_PAGE_* */
	uint8		entry_bytes;	/* size of one entry on this page */
	uint8		block_bits;		/* width of the heap block field */
	uint8		offset_bits;	/* width of the heap offset field */
	uint16		generation;		/* primary and moved pages: the generation of the map the page
								 * belongs to (README.index.md, "Growth"); 0 on other pages. At
								 * most NDD_MAX_EXTENTS: each expansion adds one extent */
	uint16		sorted;			/* data pages: the first `sorted` entries are in increasing head
								 * order (README.index.md, "Sorted pages"); 0 on other pages and
								 * on every page of an index built before (this half of what was
								 * a uint32 generation was always 0) */
} NddPageOpaqueData;

typedef NddPageOpaqueData *NddPageOpaque;

#define NddPageGetOpaque(page) ((NddPageOpaque) PageGetSpecialPointer(page))

/* Is page an initialized ndd page (its special space, and so its opaque data, is there)? */
static inline bool
ndd_page_initialized(Page page)
{
	return !PageIsNew(page) && PageGetSpecialSize(page) == MAXALIGN(sizeof(NddPageOpaqueData));
}

/* Bytes of a page that hold entries. */
#define NDD_PAGE_CAPACITY_BYTES \
	(BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - MAXALIGN(sizeof(NddPageOpaqueData)))

/* Entries of the NULL chain: just the heap TID, in the same encoding with no fingerprint. */
#define NDD_NULL_ENTRY_BYTES	8
#define NDD_NULL_BLOCK_BITS		32
#define NDD_NULL_OFFSET_BITS	16

/* Options as given in WITH (...); frozen into the metapage at build. */
typedef struct NddOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			k;				/* layout radius; -1: 3 for simhash64, 7 for fp128 */
	int			blocks;			/* blocks of the layout; 0: k + 1 */
	int			fillfactor;		/* target fill of primary pages at build, percent */
	double		rows;			/* rows to size the buckets for; 0: the rows found at build */
} NddOptions;

#define NDD_DEFAULT_K64			3
#define NDD_DEFAULT_K128		7
#define NDD_DEFAULT_FILLFACTOR	85
#define NDD_MAX_ROWS_OPTION		1e9

/*
 * The map: every table has npages primary pages, page q holding the heads h with
 * ndd_page_of(h, npages) = q. Where page q of table t lives is given by the extent holding q: the
 * build's extent 0 (pages [0, count)) puts table t's page q at table_start[t] + q, with each
 * table's overflow pages after its primaries; every later extent, reserved by an expansion for the
 * pages it adds, holds all tables' pages [first, first + count) contiguously: table t's page q is
 * block start + t * count + (q - first). An expansion makes the map about a quarter larger and
 * migrates the previous map's pages into it one at a time, from the last down; a page q of the
 * new map that the previous map also had lives in the same block (README.index.md, "Growth").
 */
typedef struct NddExtent
{
	uint32		first;			/* the extent holds pages [first, first + count) of every table */
	uint32		count;
	BlockNumber start;			/* extent 0: 0 (its tables are at table_start) */
} NddExtent;

/* Extents an index can have: one per expansion, each about a quarter of the map. */
#define NDD_MAX_EXTENTS		128

/* A page's generation (NddPageOpaqueData) is at most the map's, which is at most the extents. */
StaticAssertDecl(NDD_MAX_EXTENTS < PG_UINT16_MAX, "a map generation must fit a page's uint16");

/* The pages per table of the map an expansion makes of a map of n: a quarter more, at least one. */
static inline uint32
ndd_expanded_npages(uint32 n)
{
	return n + Max(1, n / 4);
}

/*
 * The metapage (block 0). The build writes it; afterwards inserts change it (counting the chains
 * that overflow, expanding the map, advancing a migration, the free list), always under its
 * exclusive lock, taken after any other page lock, and through generic WAL. Backends re-read it at
 * every scan and insert.
 *
 * Each fact is stored once: the fingerprint width, the radius k, the block count and the number
 * of tables are the layout's (layout.bits, .radius, .nblocks, .ntables); the map's shape is
 * npages and the extents (the code reads it through NddMapView, never through the metapage).
 * magic and version stay the first two fields in every version: they are read before anything
 * else, to refuse an index of another version (test/t/003_old_version.pl rewrites version).
 */
typedef struct NddMetaPageData
{
	uint32		magic;
	uint32		version;
	int32		block_bits;		/* heap block field width chosen at build (new pages may widen) */
	int32		offset_bits;	/* heap offset field width chosen at build */
	BlockNumber null_start;		/* first page of the NULL chain */
	/*
	 * Reserved: what the build was given and found, written by every build and read by no code
	 * (the reloptions can change afterwards with ALTER INDEX SET, and the map's npages is what
	 * they produced; ndd_index_check reports the rows it sees, not these). They stay so that
	 * version 6 stays as it is, on disk and in the offsets test/t/004_index_meta_check.pl
	 * damages; the next format version drops them with its bump (doc/architecture.md, "Change
	 * the index format").
	 */
	int32		opt_fillfactor;
	double		opt_rows;
	int64		build_rows;		/* non-NULL rows indexed by the build */
	int64		build_nulls;	/* NULL rows indexed by the build */
	NddLayout	layout;			/* made by ndd_layout_make from (bits, k, blocks), stored verbatim:
								 * it says how the entries were permuted */
	BlockNumber table_start[NDD_LAYOUT_MAX_TABLES];	/* extent 0: block of table t's page 0 */
	/* the map (README.index.md, "Growth") */
	uint32		generation;		/* of the map; its primary pages carry it (>= 1) */
	uint32		npages;			/* primary pages per table */
	uint32		old_npages;		/* while an expansion migrates: the previous map's npages (its
								 * generation is generation - 1); 0 otherwise */
	uint32		cursor;			/* while migrating: the previous map's pages >= cursor have been
								 * migrated into this one */
	uint32		overflowed;		/* chains of this map that have linked an overflow page: what
								 * makes the next expansion due */
	BlockNumber free_head;		/* the first free page (overflow pages of migrated chains, linked
								 * by next), InvalidBlockNumber when none */
	uint32		nfree;			/* pages in that list */
	int32		nextents;
	NddExtent	ext[NDD_MAX_EXTENTS];	/* last: only ext[0..nextents) is read or copied
										 * (ndd_meta_size) */
} NddMetaPageData;

/*
 * Bytes of a metapage copy that hold its contents: the extents in use, not all NDD_MAX_EXTENTS.
 * Every insert and scan copies the metapage, so this is what they copy and compare.
 */
static inline Size
ndd_meta_size(const NddMetaPageData *meta)
{
	int			n = meta->nextents < 0 ? 0 : Min(meta->nextents, NDD_MAX_EXTENTS);

	return offsetof(NddMetaPageData, ext) + n * sizeof(NddExtent);
}

/* *dst = *src, the bytes that hold its contents only. */
static inline void
ndd_meta_copy(NddMetaPageData *dst, const NddMetaPageData *src)
{
	memcpy(dst, src, ndd_meta_size(src));
}

typedef NddMetaPageData *NddMetaPage;

#define NddPageGetMeta(page) ((NddMetaPage) PageGetContents(page))

/*
 * One map of the index as the code that reads or writes its pages sees it (ndd_map_views): the
 * current map, or while an expansion migrates, the previous map for the heads below the cursor
 * and the current one for the rest. A view covers the heads [lo, hi] (pages first_page to
 * last_page of its map); its page map (npages; ndd_primary_block), the generation its primary
 * pages carry and its entry format (delta_bits, wide). In memory only, made from a copy of the
 * metapage that must outlive the view (the layout, null_start and the build's heap field widths
 * are read through meta).
 */
typedef struct NddMapView
{
	const NddMetaPageData *meta;	/* the metapage copy the view was made from */
	uint32		generation;		/* of the map: its primary pages carry it */
	uint32		npages;			/* primary pages per table of the map */
	int			delta_bits;		/* width of an entry's head - page_low field: from npages */
	bool		wide;			/* 128-bit fingerprints (meta->layout.bits == 128) */
	uint64		lo;				/* the heads this view covers */
	uint64		hi;
	uint32		first_page;		/* ndd_page_of(lo), ndd_page_of(hi) */
	uint32		last_page;
} NddMapView;

/* Primary pages per table a view covers. */
static inline uint32
ndd_view_pages(const NddMapView *mv)
{
	return mv->last_page - mv->first_page + 1;
}

/* The views of one metapage copy: at most two (NddMapView). */
typedef struct NddViews
{
	int			n;
	NddMapView	v[2];
} NddViews;

/* The format of the entries of one page. */
typedef struct NddFormat
{
	int			entry_bytes;
	int			block_bits;
	int			offset_bits;
	int			delta_bits;		/* 0 on NULL pages */
	bool		wide;			/* 128-bit fingerprints: the low word follows as 8 bytes */
} NddFormat;

/*
 * A fingerprint of a table in the index's terms: its permuted form (ndd_layout_permute), whose head
 * (first 64 bits) picks the primary page, and the heap TID.
 */
typedef struct NddEntry
{
	uint64		head;			/* first 64 bits of the permuted fingerprint */
	uint64		tail;			/* last 64 bits (fp128), 0 for simhash64 */
	BlockNumber block;
	OffsetNumber offset;
} NddEntry;

/*
 * A walk of one chain (a bucket's, or the NULL chain) with the lock sequence of README.index.md,
 * "Locking", in one place: the chain's first page is locked for the whole walk (it is the bucket's
 * lock), the other pages one at a time, in chain order, in the same mode. cur is the page being
 * looked at (== first on the first page); callers that change a page register cur (or first)
 * in their generic WAL record.
 *
 * The walk trusts nothing it reads (README.index.md, "Damaged pages"): before it locks a page it
 * refuses a link to the metapage or to the first page of any chain (locking one could wait
 * forever on this walk's own bucket lock or on another walker's) and detects a chain that loops
 * back on itself; after it locks a page it checks the page's kind, entry format and entry area.
 * Any of these raises ERRCODE_INDEX_CORRUPTED, so a damaged index gives an error, never a crash,
 * a hang or a read outside the page.
 */
typedef struct NddChain
{
	Relation	index;
	const NddMapView *mv;		/* the map view (its page map, delta width and metapage copy) */
	BufferAccessStrategy strategy;	/* NULL: the default */
	int			mode;			/* BUFFER_LOCK_SHARE or BUFFER_LOCK_EXCLUSIVE */
	bool		nulls;			/* the NULL chain (its first page is the metapage's null_start) */
	Buffer		first;			/* the chain's first page: the bucket lock */
	Buffer		cur;			/* the current page, InvalidBuffer past the end */
	NddFormat	f;				/* the entry format of cur, checked */
	int			gone;			/* why ndd_chain_begin returned NULL: NDD_GONE_* */
	/* Brent's cycle detection over the blocks visited: a loop is found within two laps */
	BlockNumber mark;
	uint32		power;
	uint32		steps;
} NddChain;

/* Why a primary page is not the one the walk's map view expected (NddChain.gone). */
#define NDD_GONE_NONE		0
#define NDD_GONE_MOVED		1	/* a page of the previous map whose entries a migration has
								 * moved to the current map (ndd_moved_pages says where) */
#define NDD_GONE_STALE		2	/* anything else: the metapage copy is out of date, or the page
								 * is damaged (ndd_stale_or_corrupt) */

/* ---- nddhandler.c ---- */
extern void ndd_init_reloptions(void);
extern bytea *ndd_options(Datum reloptions, bool validate);
extern char *ndd_buildphasename(int64 phasenum);

/* ---- nddpage.c: the metapage, its cache and map views; pages and entry formats ---- */
extern NddMetaPage ndd_get_meta(Relation index);
extern NddMetaPage ndd_read_meta(Relation index, bool current_only);
extern const char *ndd_meta_problem(Relation index, const NddMetaPageData *meta,
									BlockNumber nblocks);
extern BlockNumber ndd_known_nblocks(Relation index, BlockNumber blkno);
extern Buffer ndd_read_first(Relation index, BlockNumber blkno);
pg_noreturn extern void ndd_corrupt(Relation index, const char *what, BlockNumber blkno);
extern void ndd_stale_or_corrupt(Relation index, const NddMetaPageData *was, BlockNumber blkno);
extern int	ndd_index_bits(Relation index);
extern int	ndd_bits_for(uint64 x);
extern void ndd_format_for(int delta_bits, bool wide, int block_bits, int offset_bits,
						   NddFormat *f);
extern int	ndd_format_capacity(const NddFormat *f);
extern void ndd_page_init(Page page, uint8 kind, const NddFormat *f);
extern int	ndd_page_nentries(Page page, const NddFormat *f);
extern bool ndd_page_has_room(Page page, const NddFormat *f);
extern bool ndd_format_fits(const NddFormat *f, BlockNumber block, OffsetNumber offset);
extern bool ndd_entry_fits(Page page, const NddFormat *f, const NddEntry *e);
extern void ndd_page_append(Page page, const NddFormat *f, uint64 delta, uint64 tail,
							BlockNumber block, OffsetNumber offset);
extern void ndd_primary_init(Page page, uint32 generation, const NddFormat *f);
extern void ndd_page_sort(Page page, const NddFormat *f);
extern int	ndd_page_sorted(Page page, int n);
extern void ndd_map_view(const NddMetaPageData *meta, bool previous, NddMapView *view);
extern void ndd_map_views(const NddMetaPageData *meta, NddViews *views);
extern const NddMapView *ndd_view_of(const NddViews *views, uint64 head);
extern bool ndd_views_equal(const NddMetaPageData *a, const NddMetaPageData *b);
extern BlockNumber ndd_primary_block(const NddMapView *mv, int table, uint32 page);
extern void ndd_moved_pages(const NddMetaPageData *meta, uint32 old_page, uint64 *lo, uint64 *hi,
							uint32 *first, uint32 *last);

/* ---- nddchain.c: walking, appending to and removing from a chain; new pages ---- */
extern void ndd_lock_buffer(Relation index, Buffer buf, int mode);
extern Page ndd_chain_begin(NddChain *c, Relation index, const NddMapView *mv, BlockNumber first,
							int mode, BufferAccessStrategy strategy);
extern Page ndd_chain_goto(NddChain *c, BlockNumber blkno);
extern Page ndd_chain_next(NddChain *c);
extern void ndd_chain_end(NddChain *c);
extern void ndd_settle_table(Relation index, const NddMetaPageData *meta, int t,
							 NddMetaPageData *out);
extern Buffer ndd_new_buffer(Relation index);
/* Which entries ndd_chain_remove removes: the entry's bytes, its page's format and smallest head. */
typedef bool (*NddEntryFilter) (const char *entry, const NddFormat *f, uint64 low, void *arg);
extern int	ndd_chain_remove(Relation index, NddChain *c, uint64 low, NddEntryFilter drop, void *arg);

/*
 * One page's part of an append record (ndd_appends_logged): entries appended to the page of cur
 * and, when hint is valid (the chain's first page), that page's insert_at set to cur.
 */
typedef struct NddAppendPart
{
	Buffer		cur;			/* the page the entries go to, exclusively locked */
	Buffer		hint;			/* the chain's first page, exclusively locked, or InvalidBuffer */
	NddFormat	f;				/* cur's entry format */
	uint64		low;			/* the smallest head of the chain's map page */
	const NddEntry *e;			/* the entries: as many as have room on cur and fit its format,
								 * at least e[0] */
	int			n;
	int			done;			/* out: how many were appended */
} NddAppendPart;

/* what ndd_chain_append did */
#define NDD_APPEND_DONE			0
#define NDD_APPEND_GONE			1	/* the primary page is not of the view's map (NddChain.gone
										 * in *gone): nothing appended */
#define NDD_APPEND_OVERFLOWED	2	/* appended, and linked the chain's first overflow page */
extern void ndd_data_page_format(const NddMetaPageData *meta, int delta_bits, BlockNumber block,
								 OffsetNumber offset, NddFormat *f);
extern int	ndd_append_fitting(Page page, const NddFormat *f, uint64 low, const NddEntry *e, int n);
extern void ndd_appends_logged(Relation index, NddAppendPart *parts, int nparts);
extern Page ndd_chain_open(NddChain *c, Relation index, const NddMapView *mv, BlockNumber primary);
extern int	ndd_chain_append(Relation index, const NddMapView *mv, int table, uint32 page,
							 const NddEntry *entries, int n, int *gone);

/* ---- nddcost.c ---- */
extern void ndd_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
							 Cost *indexStartupCost, Cost *indexTotalCost,
							 Selectivity *indexSelectivity, double *indexCorrelation,
							 double *indexPages);

/* ---- nddvalidate.c ---- */
extern bool ndd_validate(Oid opclassoid);

/* ---- nddbuild.c ---- */
extern IndexBuildResult *ndd_build(Relation heap, Relation index, struct IndexInfo *indexInfo);
extern void ndd_buildempty(Relation index);
extern int	ndd_layout_blocks_for(int bits, int k, uint32 npages);

/* ---- nddgrow.c ---- */
extern bool ndd_count_overflow(Relation index, uint32 generation, int chains);
extern bool ndd_expansion_due(const NddMetaPageData *meta);
extern void ndd_grow_work(Relation index, Relation heap, BlockNumber heap_block);
extern bool ndd_growth_lock(Relation index, LOCKMODE mode, bool wait);
extern void ndd_growth_unlock(Relation index, LOCKMODE mode);

/* ---- nddinsert.c ---- */
extern bool ndd_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
					   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
					   struct IndexInfo *indexInfo);

/* ---- nddscan.c ---- */
extern IndexScanDesc ndd_beginscan(Relation index, int nkeys, int norderbys);
extern void ndd_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
					   ScanKey orderbys, int norderbys);
extern bool ndd_gettuple(IndexScanDesc scan, ScanDirection dir);
extern int64 ndd_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void ndd_endscan(IndexScanDesc scan);

/* ---- nddvacuum.c ---- */
extern IndexBulkDeleteResult *ndd_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
											 IndexBulkDeleteCallback callback, void *callback_state);
extern IndexBulkDeleteResult *ndd_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats);

/* ---- entry encoding (hot: inline) ----
 *
 * An entry is entry_bytes bytes. Its first bytes hold a little-endian bit string: the heap offset
 * (offset_bits), then the heap block (block_bits), then delta = head - ndd_page_low(page)
 * (delta_bits). For fp128 the last 8 bytes of the entry hold the permuted fingerprint's tail. The
 * bit string is at most 16 + 32 + 64 bits, so one unaligned 16-byte load reads it; pages keep at
 * least 16 readable bytes after every entry's start (entries are >= 8 bytes, the special space
 * follows them).
 */

/* Loads the bit string of the entry at p. */
static inline unsigned __int128
ndd_entry_bits(const char *p)
{
	unsigned __int128 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Mask of the low n bits (n <= 64). */
static inline uint64
ndd_mask(int n)
{
	return n >= 64 ? ~UINT64CONST(0) : ((UINT64CONST(1) << n) - 1);
}

/* The head of an entry whose bit string is v, on a page of format f whose heads start at low. */
static inline uint64
ndd_entry_head(unsigned __int128 v, const NddFormat *f, uint64 low)
{
	return low + ((uint64) (v >> (f->offset_bits + f->block_bits)) & ndd_mask(f->delta_bits));
}

/* The tail of the entry at p (fp128: its last 8 bytes), 0 for simhash64. */
static inline uint64
ndd_entry_tail(const char *p, const NddFormat *f)
{
	uint64		tail = 0;

	if (f->wide)
		memcpy(&tail, p + f->entry_bytes - 8, 8);
	return tail;
}

/* The heap TID of an entry whose bit string is v, on a page of format f. */
static inline void
ndd_entry_tid(unsigned __int128 v, const NddFormat *f, BlockNumber *block, OffsetNumber *offset)
{
	*offset = (OffsetNumber) ((uint64) v & ndd_mask(f->offset_bits));
	*block = (BlockNumber) ((uint64) (v >> f->offset_bits) & ndd_mask(f->block_bits));
}

/* Decodes the entry at p of a page whose entries have format f and whose heads start at low. */
static inline void
ndd_entry_decode(const char *p, const NddFormat *f, uint64 low, NddEntry *e)
{
	unsigned __int128 v = ndd_entry_bits(p);

	ndd_entry_tid(v, f, &e->block, &e->offset);
	e->head = ndd_entry_head(v, f, low);
	e->tail = ndd_entry_tail(p, f);
}

#endif							/* NDDAM_H */
