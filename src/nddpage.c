/*-------------------------------------------------------------------------
 *
 * nddpage.c
 *	  Page and entry-format helpers of the ndd access method, its metapage cache, the view of
 *	  one segment (NddSegView) and the fingerprint words of an indexed value.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* Width of the indexed fingerprint: 64 (simhash64, 8 bytes) or 128 (fp128, 16 bytes). */
int
ndd_index_bits(Relation index)
{
	int			attlen = TupleDescAttr(RelationGetDescr(index), 0)->attlen;

	if (attlen == 8)
		return 64;
	if (attlen == 16)
		return 128;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("ndd indexes support only simhash64 and fp128 columns")));
	return 0;					/* keep compiler quiet */
}

/* The two words of an indexed value (simhash64 by value, fp128 by reference). */
void
ndd_fingerprint_words(Datum value, int bits, uint64 words[2])
{
	if (bits == 64)
	{
		words[0] = DatumGetSimhash64(value);
		words[1] = 0;
	}
	else
	{
		Fp128	   *fp = DatumGetFp128P(value);

		words[0] = fp->hi;
		words[1] = fp->lo;
	}
}

/* Number of bits needed to write x (0 for 0). */
int
ndd_bits_for(uint64 x)
{
	int			n = 0;

	while (n < 64 && (x >> n) != 0)
		n++;
	return n;
}

/* Raises the error the <@ operator raises for a ball of the wrong width. */
void
ndd_check_ball_width(const HammingBall *ball, int bits)
{
	if (ball->bits != bits)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot test a %d-bit fingerprint against a %d-bit hamming_ball", bits, ball->bits),
				 errhint("Build the ball from a %s: hamming_ball(q, k).", bits == 64 ? "simhash64" : "fp128")));
}

/*
 * Returns the metapage contents, read afresh into a copy kept in rd_amcache: the growth step can
 * append a segment at any time (README.index.md), and a scan must see every segment that holds a
 * row its snapshot can see. A segment is appended before any row goes into it, so reading the
 * metapage after the snapshot is taken (every scan and insert does) is enough. The caller copies
 * what it needs before the next call.
 */
NddMetaPage
ndd_get_meta(Relation index)
{
	return ndd_read_meta(index, true);
}

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
} NddMetaCache;

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
		index->rd_amcache = MemoryContextAllocZero(index->rd_indexcxt, sizeof(NddMetaCache));
	cache = (NddMetaCache *) index->rd_amcache;
	buf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	meta = NddPageGetMeta(page);
	if (PageIsNew(page) || PageGetSpecialSize(page) != MAXALIGN(sizeof(NddPageOpaqueData)) ||
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
	if (cache->checked && memcmp(&cache->meta, meta, sizeof(NddMetaPageData)) == 0)
	{
		UnlockReleaseBuffer(buf);
		return &cache->meta;
	}
	cache->checked = false;
	memcpy(&cache->meta, meta, sizeof(NddMetaPageData));
	UnlockReleaseBuffer(buf);

	/*
	 * Everything that reads pages through the metapage (page maps, block arithmetic, the layout's
	 * permutations) may rely on it from here on. The relation's size is read after the copy: a
	 * segment's blocks exist before the metapage names them (README.index.md, "Growth").
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
	return &cache->meta;
}

/*
 * What is impossible about the metapage meta of an index of nblocks blocks, or NULL: the layout
 * must be the one its width, k and blocks make, for the column's width; the heap field widths
 * new pages start from must be ones an entry can hold; the NULL chain's first page, every
 * segment (segment 0's tables included) and a growth step's reserved range must lie in the
 * relation. Used by every metapage read and by ndd_index_check.
 */
const char *
ndd_meta_problem(Relation index, const NddMetaPageData *meta, BlockNumber nblocks)
{
	const NddLayout *layout = &meta->layout;
	NddLayout	expect;
	int			s;
	int			t;

	memset(&expect, 0, sizeof(expect));
	if (layout->bits != ndd_index_bits(index) ||
		ndd_layout_make(layout->bits, layout->radius, layout->nblocks, &expect) != NDD_OK ||
		memcmp(&expect, layout, sizeof(expect)) != 0 ||
		meta->null_start < 1 || meta->null_start >= nblocks ||
		meta->block_bits < 1 || meta->block_bits > 32 ||
		meta->offset_bits < 1 || meta->offset_bits > 16)
		return "the metapage describes an impossible shape";
	if (meta->nsegments < 1 || meta->nsegments > NDD_MAX_SEGMENTS)
		return "the metapage has an impossible number of segments";
	for (s = 0; s < meta->nsegments; s++)
	{
		const NddSegment *seg = &meta->seg[s];
		bool		ok = seg->npages >= 1;

		if (s == 0)
		{
			ok &= seg->start == 0;
			for (t = 0; t < layout->ntables; t++)
				ok &= meta->table_start[t] >= 1 &&
					(uint64) meta->table_start[t] + seg->npages <= nblocks;
		}
		else
			ok &= seg->start >= 1 &&
				(uint64) seg->start + (uint64) layout->ntables * seg->npages <= nblocks;
		if (!ok)
			return psprintf("the metapage describes an impossible segment %d", s);
	}
	/* a growth step's reserved range lies within the relation (reserved before it is recorded) */
	if (meta->pending.npages > 0 &&
		(meta->pending.start < 1 ||
		 (uint64) meta->pending.start + (uint64) layout->ntables * meta->pending.npages > nblocks))
		return "the metapage describes an impossible reserved range";
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
 * *view = segment s of the index whose metapage copy is meta (which must outlive the view): its
 * page map and entry format, whatever segment it is.
 */
void
ndd_segment_view(const NddMetaPageData *meta, int s, NddSegView *view)
{
	Assert(s >= 0 && s < meta->nsegments);
	view->meta = meta;
	view->seg = s;
	view->npages = meta->seg[s].npages;
	view->delta_bits = ndd_page_delta_bits(view->npages);
	view->wide = meta->layout.bits == 128;
}

/*
 * Block number of table t's primary page p in the segment sv shows: segment 0's tables are where
 * the build placed them (table_start), a later segment's primaries are contiguous from its start.
 */
BlockNumber
ndd_primary_block(const NddSegView *sv, int table, uint32 page)
{
	if (sv->seg == 0)
		return sv->meta->table_start[table] + page;
	return sv->meta->seg[sv->seg].start + (BlockNumber) table * sv->npages + page;
}

/* The entry format of a data page with the given heap field widths, in a segment of delta_bits. */
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
	/* entries start right after the header; pd_lower marks their end */
	((PageHeader) page)->pd_lower = MAXALIGN(SizeOfPageHeaderData);
}

/*
 * Reads the entry format of a page (delta_bits and wide come from its segment: NddSegView).
 * Only chain walks read pages, and they check what this returns (ndd_chain_check_page).
 */
static void
ndd_page_format(Page page, int delta_bits, bool wide, NddFormat *f)
{
	NddPageOpaque opaque = NddPageGetOpaque(page);

	f->entry_bytes = opaque->entry_bytes;
	f->block_bits = opaque->block_bits;
	f->offset_bits = opaque->offset_bits;
	f->wide = opaque->kind == NDD_PAGE_NULLS ? false : wide;
	f->delta_bits = opaque->kind == NDD_PAGE_NULLS ? 0 : delta_bits;
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
	memcpy(p, &v, strbytes);
	if (f->wide)
		memcpy(p + strbytes, &tail, 8);
	hdr->pd_lower += f->entry_bytes;
}

/*
 * Allocates a new page at the end of the index, pinned and exclusively locked. Overflow pages are
 * never freed (an emptied page stays in its chain and is reused by later inserts), so there is no
 * free-space map to consult.
 */
Buffer
ndd_new_buffer(Relation index)
{
	Buffer		buf;

	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBuffer(index, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
}

/* ---- chain walks (NddChain, nddam.h) ---- */

/*
 * Is blkno the first page of a chain of the index whose metapage copy is meta: a primary page of
 * some segment, or the NULL chain's first page? Such a page is some walker's bucket lock, so no
 * chain may link to it (README.index.md, "Damaged pages").
 */
static bool
ndd_is_chain_start(const NddMetaPageData *meta, BlockNumber blkno)
{
	int			s;
	int			t;

	if (blkno == meta->null_start)
		return true;
	for (t = 0; t < meta->layout.ntables; t++)
		if (blkno >= meta->table_start[t] && blkno - meta->table_start[t] < meta->seg[0].npages)
			return true;
	for (s = 1; s < meta->nsegments; s++)
		if (blkno >= meta->seg[s].start &&
			blkno - meta->seg[s].start < (uint64) meta->layout.ntables * meta->seg[s].npages)
			return true;
	return false;
}

/*
 * The index's size in blocks, as last read, or read again when blkno lies beyond it (inserts
 * extend the index): the system call is made only when a link points past the size last seen.
 */
static BlockNumber
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
 * Checks the page the walk has just locked: initialized as an ndd page of the kind its place in
 * the chain calls for, with an entry format the decoder can read for this segment and an entry
 * area inside the page; sets c->f to its format. Entries are decoded with 16-byte loads and
 * shifts by the format's widths, so a width out of range or a pd_lower past the special space
 * would read outside the page or shift by more than the word: they are errors here instead.
 */
static Page
ndd_chain_check_page(NddChain *c)
{
	Page		page = BufferGetPage(c->cur);
	BlockNumber blkno = BufferGetBlockNumber(c->cur);
	NddPageOpaque opaque;
	NddFormat  *f = &c->f;
	uint8		want;
	int			used;

	if (PageIsNew(page) || PageGetSpecialSize(page) != MAXALIGN(sizeof(NddPageOpaqueData)))
		ndd_corrupt(c->index, "a chain page is not initialized", blkno);
	opaque = NddPageGetOpaque(page);
	want = c->nulls ? NDD_PAGE_NULLS : c->cur == c->first ? NDD_PAGE_PRIMARY : NDD_PAGE_OVERFLOW;
	if (opaque->kind != want)
		ndd_corrupt(c->index, "a chain page has the wrong kind", blkno);
	if (c->nulls)
	{
		ndd_page_format(page, 0, false, f);
		if (f->entry_bytes != NDD_NULL_ENTRY_BYTES || f->block_bits != NDD_NULL_BLOCK_BITS ||
			f->offset_bits != NDD_NULL_OFFSET_BITS)
			ndd_corrupt(c->index, "a NULL-chain page has the wrong entry size", blkno);
	}
	else
	{
		NddFormat	expect;

		ndd_page_format(page, c->sv->delta_bits, c->sv->wide, f);
		if (f->block_bits < 1 || f->block_bits > 32 || f->offset_bits < 1 || f->offset_bits > 16)
			ndd_corrupt(c->index, "a page has an invalid entry format", blkno);
		ndd_format_for(c->sv->delta_bits, c->sv->wide, f->block_bits, f->offset_bits, &expect);
		if (expect.entry_bytes != f->entry_bytes)
			ndd_corrupt(c->index, "a page has an invalid entry format", blkno);
	}
	used = (int) ((PageHeader) page)->pd_lower - (int) MAXALIGN(SizeOfPageHeaderData);
	if (used < 0 || ((PageHeader) page)->pd_lower > BLCKSZ - MAXALIGN(sizeof(NddPageOpaqueData)) ||
		used % f->entry_bytes != 0)
		ndd_corrupt(c->index, "a page's entry area is malformed", blkno);
	return page;
}

/*
 * Locks the chain's first page (the bucket lock) and returns it as the current page, checked.
 * sv is the segment whose page map placed the chain (any segment for the NULL chain).
 */
Page
ndd_chain_begin(NddChain *c, Relation index, const NddSegView *sv, BlockNumber first, int mode,
				BufferAccessStrategy strategy)
{
	c->index = index;
	c->sv = sv;
	c->strategy = strategy;
	c->mode = mode;
	c->nulls = first == sv->meta->null_start;
	c->mark = first;
	c->power = 1;
	c->steps = 0;
	c->first = ReadBufferExtended(index, MAIN_FORKNUM, first, RBM_NORMAL, strategy);
	LockBuffer(c->first, mode);
	c->cur = c->first;
	return ndd_chain_check_page(c);
}

/*
 * Moves to page blkno of the chain (the next page, or the page an insert hint names), releasing
 * the current page unless it is the first, whose lock is kept to the end of the walk. Refuses,
 * before locking anything, a link to the metapage or to any chain's first page and a link back
 * to a page this walk has passed.
 */
Page
ndd_chain_goto(NddChain *c, BlockNumber blkno)
{
	if (blkno == NDD_METAPAGE_BLKNO || ndd_is_chain_start(c->sv->meta, blkno))
		ndd_corrupt(c->index, "a chain links to the first page of a chain or to the metapage",
					BufferGetBlockNumber(c->cur));
	if (blkno == c->mark)
		ndd_corrupt(c->index, "a chain links back to one of its own pages",
					BufferGetBlockNumber(c->cur));
	if (blkno >= ndd_known_nblocks(c->index, blkno))
		ndd_corrupt(c->index, "a chain links past the end of the index",
					BufferGetBlockNumber(c->cur));
	/* Brent: the mark moves to the current block at every power of two */
	if (++c->steps == c->power)
	{
		c->mark = blkno;
		c->power *= 2;
		c->steps = 0;
	}
	if (BufferIsValid(c->cur) && c->cur != c->first)
		UnlockReleaseBuffer(c->cur);
	c->cur = ReadBufferExtended(c->index, MAIN_FORKNUM, blkno, RBM_NORMAL, c->strategy);
	LockBuffer(c->cur, c->mode);
	return ndd_chain_check_page(c);
}

/* Moves to the current page's successor; NULL at the chain's end. */
Page
ndd_chain_next(NddChain *c)
{
	BlockNumber next = NddPageGetOpaque(BufferGetPage(c->cur))->next;

	if (next != InvalidBlockNumber)
		return ndd_chain_goto(c, next);
	if (c->cur != c->first)
		UnlockReleaseBuffer(c->cur);
	c->cur = InvalidBuffer;
	return NULL;
}

/* Ends the walk wherever it is: releases the current page and the bucket lock. */
void
ndd_chain_end(NddChain *c)
{
	if (BufferIsValid(c->cur) && c->cur != c->first)
		UnlockReleaseBuffer(c->cur);
	UnlockReleaseBuffer(c->first);
	c->cur = c->first = InvalidBuffer;
}
