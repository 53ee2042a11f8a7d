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
 * ndd_get_meta, except that an index of another on-disk version returns NULL instead of raising
 * the REINDEX error when current_only is false. The planner uses that: an error there would make
 * every query on the table fail, while only the index's own scans need to.
 */
NddMetaPage
ndd_read_meta(Relation index, bool current_only)
{
	Buffer		buf;
	Page		page;
	NddMetaPage meta;

	if (index->rd_amcache == NULL)
		index->rd_amcache = MemoryContextAlloc(index->rd_indexcxt, sizeof(NddMetaPageData));
	buf = ReadBuffer(index, NDD_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	meta = NddPageGetMeta(page);
	if (PageIsNew(page) || NddPageGetOpaque(page)->kind != NDD_PAGE_META ||
		meta->magic != NDD_MAGIC)
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
	memcpy(index->rd_amcache, meta, sizeof(NddMetaPageData));
	UnlockReleaseBuffer(buf);
	return (NddMetaPage) index->rd_amcache;
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

/* Reads the entry format of a page (delta_bits and wide come from its segment: NddSegView). */
void
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

/* Locks the chain's first page (the bucket lock) and returns it as the current page. */
Page
ndd_chain_begin(NddChain *c, Relation index, BlockNumber first, int mode,
				BufferAccessStrategy strategy)
{
	c->index = index;
	c->strategy = strategy;
	c->mode = mode;
	c->first = ReadBufferExtended(index, MAIN_FORKNUM, first, RBM_NORMAL, strategy);
	LockBuffer(c->first, mode);
	c->cur = c->first;
	return BufferGetPage(c->first);
}

/*
 * Moves to page blkno of the chain (the next page, or the page an insert hint names), releasing
 * the current page unless it is the first, whose lock is kept to the end of the walk.
 */
Page
ndd_chain_goto(NddChain *c, BlockNumber blkno)
{
	if (BufferIsValid(c->cur) && c->cur != c->first)
		UnlockReleaseBuffer(c->cur);
	c->cur = ReadBufferExtended(c->index, MAIN_FORKNUM, blkno, RBM_NORMAL, c->strategy);
	LockBuffer(c->cur, c->mode);
	return BufferGetPage(c->cur);
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
