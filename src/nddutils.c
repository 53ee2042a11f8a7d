/*-------------------------------------------------------------------------
 *
 * nddutils.c
 *	  The ndd access method's handler, options, metapage cache, page format helpers, cost
 *	  estimate and operator class validation.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include <math.h>

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "access/reloptions.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "commands/progress.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/spccache.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(ndd_handler);

static relopt_kind ndd_relopt_kind;
static bool ndd_relopts_ready = false;

/* Registers the reloptions of ndd indexes (once per backend, before the first amoptions call). */
void
ndd_init_reloptions(void)
{
	if (ndd_relopts_ready)
		return;
	ndd_relopt_kind = add_reloption_kind();
	add_int_reloption(ndd_relopt_kind, "k",
					  "Largest Hamming radius the tables answer by exact key match (the layout radius)",
					  -1, -1, NDD_LAYOUT_MAX_BLOCKS - 1, AccessExclusiveLock);
	add_int_reloption(ndd_relopt_kind, "blocks",
					  "Number of blocks the fingerprint is cut into (0: k + 1, the fewest tables)",
					  0, 0, NDD_LAYOUT_MAX_BLOCKS, AccessExclusiveLock);
	add_int_reloption(ndd_relopt_kind, "fillfactor",
					  "Target fill of the primary bucket pages at build, in percent",
					  NDD_DEFAULT_FILLFACTOR, 10, 100, AccessExclusiveLock);
	/*
	 * rows preallocates segment 0's primaries (about 1.5 GB per 10^8 rows and table); past 10^9
	 * the preallocation dwarfs any table one would size that way, and the growth step serves
	 * larger tables anyway.
	 */
	add_real_reloption(ndd_relopt_kind, "rows",
					   "Rows to size the buckets for (0: the rows present at build)",
					   0, 0, NDD_MAX_ROWS_OPTION, AccessExclusiveLock);
	ndd_relopts_ready = true;
}

/* Returns C(n, k), saturating far above any table limit. */
static double
binomial(int n, int k)
{
	double		r = 1;
	int			i;

	if (k < 0 || k > n)
		return 0;
	for (i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

/* amoptions: parses WITH (...) and checks what can be checked without knowing the column type. */
bytea *
ndd_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		{"k", RELOPT_TYPE_INT, offsetof(NddOptions, k)},
		{"blocks", RELOPT_TYPE_INT, offsetof(NddOptions, blocks)},
		{"fillfactor", RELOPT_TYPE_INT, offsetof(NddOptions, fillfactor)},
		{"rows", RELOPT_TYPE_REAL, offsetof(NddOptions, rows)},
	};
	NddOptions *opts;

	ndd_init_reloptions();
	opts = (NddOptions *) build_reloptions(reloptions, validate, ndd_relopt_kind,
										   sizeof(NddOptions), tab, lengthof(tab));
	if (opts && validate && opts->blocks > 0)
	{
		int			k = opts->k;

		if (k >= 0 && opts->blocks <= k)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for parameter \"blocks\": %d", opts->blocks),
					 errdetail("The pigeonhole argument needs more blocks than the radius k = %d.", k)));
		if (k >= 0 && binomial(opts->blocks, k) > NDD_LAYOUT_MAX_TABLES)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("an ndd index with blocks = %d and k = %d would need %.0f tables",
							opts->blocks, k, binomial(opts->blocks, k)),
					 errdetail("At most %d tables are supported.", NDD_LAYOUT_MAX_TABLES)));
	}
	return (bytea *) opts;
}

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

/* Block number of table t's primary page p (of the segment meta describes: ndd_segment_view). */
BlockNumber
ndd_primary_block(const NddMetaPageData *meta, int table, uint32 page)
{
	return meta->table_start[table] + page;
}

/*
 * *view = meta as seen from segment s: its npages, delta_bits and table_start, so that the page
 * map and the entry format of that segment work unchanged on the view.
 */
void
ndd_segment_view(const NddMetaPageData *meta, int s, NddMetaPageData *view)
{
	int			t;

	Assert(s >= 0 && s < meta->nsegments);
	memcpy(view, meta, sizeof(NddMetaPageData));
	if (s == 0)
		return;
	view->npages = meta->seg[s].npages;
	view->delta_bits = meta->seg[s].delta_bits;
	for (t = 0; t < meta->ntables; t++)
		view->table_start[t] = meta->seg[s].start + (BlockNumber) t * meta->seg[s].npages;
}

/* The entry format of a data page with the given heap field widths. */
void
ndd_format_for(const NddMetaPageData *meta, int block_bits, int offset_bits, NddFormat *f)
{
	int			nbits = offset_bits + block_bits + meta->delta_bits;
	int			bytes = (nbits + 7) / 8;

	if (bytes < 8)
		bytes = 8;
	f->block_bits = block_bits;
	f->offset_bits = offset_bits;
	f->delta_bits = meta->delta_bits;
	f->wide = meta->bits == 128;
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

/* Reads the entry format of a page (delta_bits and wide come from the metapage). */
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

/* Names of the build phases, for pg_stat_progress_create_index. */
char *
ndd_buildphasename(int64 phasenum)
{
	switch (phasenum)
	{
		case PROGRESS_CREATEIDX_SUBPHASE_INITIALIZE:
			return "initializing";
		case NDD_BUILD_PHASE_SCAN:
			return "scanning table";
		case NDD_BUILD_PHASE_WRITE:
			return "writing tables";
		default:
			return NULL;
	}
}

/* ---- cost estimate ---- */

/* The radius of a `fp <@ ball` index qual when the planner can see it, else -2. */
static int
qual_radius(PlannerInfo *root, Node *clause)
{
	Node	   *ball;

	if (IsA(clause, RestrictInfo))
		clause = (Node *) ((RestrictInfo *) clause)->clause;
	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return -2;
	ball = lsecond(((OpExpr *) clause)->args);
	ball = estimate_expression_value(root, ball);
	if (IsA(ball, Const))
	{
		if (((Const *) ball)->constisnull)
			return -1;
		return DatumGetHammingBallP(((Const *) ball)->constvalue)->radius;
	}
	if (IsA(ball, FuncExpr) && list_length(((FuncExpr *) ball)->args) == 2)
	{
		Node	   *k = estimate_expression_value(root, lsecond(((FuncExpr *) ball)->args));

		if (IsA(k, Const) && !((Const *) k)->constisnull)
			return DatumGetInt32(((Const *) k)->constvalue);
	}
	return -2;
}

/*
 * amcostestimate. An ndd scan reads, for each table, the primary pages of the probed buckets and
 * their overflow pages, and checks every entry on them; or, when the probes would read more than
 * one whole table, reads one table entirely (every row is in every table). Heap visits are the
 * planner's business (it multiplies the selectivity of the operator's estimator by the rows).
 */
void
ndd_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				 Cost *indexStartupCost, Cost *indexTotalCost,
				 Selectivity *indexSelectivity, double *indexCorrelation,
				 double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	Relation	rel;
	NddMetaPageData meta;
	List	   *quals = get_quals_from_indexclauses(path->indexclauses);
	ListCell   *lc;
	int			radius = INT_MAX;
	double		tuples = Max(index->rel->tuples, 1.0);
	double		table_pages;
	double		primaries;
	int			s;
	double		per_page;
	double		pages;
	double		entries;
	double		spc_random,
				spc_seq;
	/* each entry visited costs what a btree charges per index tuple it checks against a qual */
	Cost		cpu_entry = cpu_index_tuple_cost + cpu_operator_cost;
	Cost		startup = 0,
				total;

	rel = index_open(index->indexoid, NoLock);
	meta = *ndd_get_meta(rel);
	index_close(rel, NoLock);

	get_tablespace_page_costs(index->reltablespace, &spc_random, &spc_seq);

	/* pages of one table (over all segments): the primaries plus their share of the overflow pages */
	primaries = 0;
	for (s = 0; s < meta.nsegments; s++)
		primaries += meta.seg[s].npages;
	table_pages = Max((double) index->pages - 1, (double) meta.ntables) / meta.ntables;
	table_pages = Max(table_pages, primaries);
	per_page = tuples / table_pages;

	foreach(lc, quals)
	{
		int			r = qual_radius(root, (Node *) lfirst(lc));

		if (r == -2)
			r = meta.layout.radius;	/* unseen radius (generic plan): assume the layout's */
		radius = Min(radius, r);
	}

	*indexSelectivity = quals ? clauselist_selectivity(root, quals, index->rel->relid,
													   JOIN_INNER, NULL) : 1.0;

	if (quals == NIL || radius >= meta.bits)
	{
		/* a full pass over table 0 */
		pages = table_pages;
		entries = tuples;
		total = pages * spc_seq + entries * cpu_entry;
	}
	else if (radius < 0)
	{
		pages = 0;
		entries = 0;
		total = 0;
	}
	else
	{
		int			e = ndd_layout_key_radius(&meta.layout, radius);
		double		probes = 0;
		double		overflow = table_pages / primaries;	/* average chain length */

		/* every segment is probed: the same buckets, its own page count */
		for (s = 0; s < meta.nsegments; s++)
		{
			double		npages = meta.seg[s].npages;
			int			w = ndd_bits_for((uint64) npages) + 1;
			int			t;

			if (e == 0)
			{
				probes += meta.ntables * overflow;
				continue;
			}
			for (t = 0; t < meta.ntables; t++)
			{
				int			width = Min(Min(meta.layout.key_bits[t], 64), w);

				probes += (double) ndd_ball_volume(width, e) * overflow *
					Max(1.0, npages / pow(2.0, width));
			}
		}
		if (probes >= table_pages)
		{
			pages = table_pages;
			entries = tuples;
			total = pages * spc_seq + entries * cpu_entry;
		}
		else
		{
			pages = probes;
			entries = probes * per_page;
			total = pages * spc_random + entries * cpu_entry;
		}
	}

	/* returning TIDs: one index-tuple cost each */
	total += *indexSelectivity * tuples * cpu_index_tuple_cost;

	if (path->indexorderbys != NIL)
	{
		/*
		 * KNN (README.index.md, "Scans"). With a WHERE ball, the ball's probes come before the
		 * first row. Without one, the probe stages widen the radius until the rows found outnumber
		 * what a pass keeps or their pages would exceed one pass over table 0 (every segment),
		 * which then follows: the first rows cost at most the probes plus that pass, the usual
		 * near-duplicate query only the first stage's probes. Returning every row takes one more
		 * pass for each eight-fold growth of what a pass keeps (from 128 keys).
		 */
		double		full = table_pages * spc_seq + tuples * cpu_entry;
		double		first_stage = 0;
		double		passes = 1 + ceil(log(Max(tuples / 128.0, 1.0)) / log(8.0));

		for (s = 0; s < meta.nsegments; s++)
			first_stage += meta.ntables * (table_pages / primaries) * spc_random +
				meta.ntables * (tuples / primaries) * cpu_entry * ((double) meta.seg[s].npages / primaries);
		if (quals == NIL)
		{
			startup = Min(first_stage, full) + full;
			total = startup + (passes - 1) * full +
				2.0 * cpu_operator_cost * tuples * log2(Max(tuples, 2.0)) / 8;
		}
		else
			startup = total;
	}

	*indexStartupCost = startup;
	*indexTotalCost = Max(total, startup);
	*indexCorrelation = 0;
	*indexPages = pages;
}

/* ---- operator class validation ---- */

/*
 * amvalidate: an ndd operator class has exactly strategy 1, a boolean search operator
 * (opcintype, hamming_ball), and strategy 2, an ordering operator (opcintype, opcintype), and no
 * support functions. The indexed type must be 8 or 16 bytes wide.
 */
bool
ndd_validate(Oid opclassoid)
{
	bool		result = true;
	HeapTuple	classtup;
	Form_pg_opclass classform;
	Oid			opfamilyoid;
	Oid			opcintype;
	char	   *opclassname;
	CatCList   *oprlist;
	CatCList   *proclist;
	int			i;
	bool		seen[NDD_NSTRATEGIES + 1] = {false};

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opfamilyoid = classform->opcfamily;
	opcintype = classform->opcintype;
	opclassname = NameStr(classform->opcname);

	if (get_typlen(opcintype) != 8 && get_typlen(opcintype) != 16)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("ndd operator class \"%s\" indexes a type that is neither 8 nor 16 bytes wide",
						opclassname)));
		result = false;
	}

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamilyoid));
	for (i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop oprform = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		if (oprform->amoplefttype != opcintype)
			continue;			/* another class of the family */
		if (oprform->amopstrategy == NDD_STRATEGY_WITHIN &&
			oprform->amoppurpose == AMOP_SEARCH &&
			get_typlen(oprform->amoprighttype) == sizeof(HammingBall) &&
			check_amop_signature(oprform->amopopr, BOOLOID, oprform->amoplefttype,
								 oprform->amoprighttype))
			seen[NDD_STRATEGY_WITHIN] = true;
		else if (oprform->amopstrategy == NDD_STRATEGY_DISTANCE &&
				 oprform->amoppurpose == AMOP_ORDER &&
				 oprform->amoprighttype == opcintype &&
				 OidIsValid(oprform->amopsortfamily))
			seen[NDD_STRATEGY_DISTANCE] = true;
		else
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("ndd operator class \"%s\" contains operator %s with strategy %d, which ndd cannot serve",
							opclassname, format_operator(oprform->amopopr), oprform->amopstrategy)));
			result = false;
		}
	}
	ReleaseSysCacheList(oprlist);

	for (i = 1; i <= NDD_NSTRATEGIES; i++)
	{
		if (!seen[i])
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("ndd operator class \"%s\" is missing strategy %d", opclassname, i)));
			result = false;
		}
	}

	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamilyoid));
	if (proclist->n_members > 0)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("ndd operator family of \"%s\" has support functions, which ndd does not use",
						opclassname)));
		result = false;
	}
	ReleaseSysCacheList(proclist);

	ReleaseSysCache(classtup);
	return result;
}

/* ---- the handler ---- */

/* The access method handler: what ndd indexes can do and where their code is. */
Datum
ndd_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *amroutine = makeNode(IndexAmRoutine);

	ndd_init_reloptions();

	amroutine->amstrategies = NDD_NSTRATEGIES;
	amroutine->amsupport = 0;
	amroutine->amoptsprocnum = 0;
	amroutine->amcanorder = false;
	amroutine->amcanorderbyop = true;
	amroutine->amcanbackward = false;
	amroutine->amcanunique = false;
	amroutine->amcanmulticol = false;
	amroutine->amoptionalkey = true;	/* KNN needs scans without a WHERE key; NULLs are indexed */
	amroutine->amsearcharray = false;
	amroutine->amsearchnulls = false;
	amroutine->amstorage = false;
	amroutine->amclusterable = false;
	amroutine->ampredlocks = false;
	amroutine->amcanparallel = false;
	amroutine->amcaninclude = false;
	amroutine->amusemaintenanceworkmem = false;
	amroutine->amparallelvacuumoptions = VACUUM_OPTION_NO_PARALLEL;
	amroutine->amkeytype = InvalidOid;

	amroutine->ambuild = ndd_build;
	amroutine->ambuildempty = ndd_buildempty;
	amroutine->aminsert = ndd_insert;
	amroutine->ambulkdelete = ndd_bulkdelete;
	amroutine->amvacuumcleanup = ndd_vacuumcleanup;
	amroutine->amcanreturn = NULL;
	amroutine->amcostestimate = ndd_costestimate;
	amroutine->amoptions = ndd_options;
	amroutine->amproperty = NULL;
	amroutine->ambuildphasename = ndd_buildphasename;
	amroutine->amvalidate = ndd_validate;
	amroutine->amadjustmembers = NULL;
	amroutine->ambeginscan = ndd_beginscan;
	amroutine->amrescan = ndd_rescan;
	amroutine->amgettuple = ndd_gettuple;
	amroutine->amgetbitmap = ndd_getbitmap;
	amroutine->amendscan = ndd_endscan;
	amroutine->ammarkpos = NULL;
	amroutine->amrestrpos = NULL;
	amroutine->amestimateparallelscan = NULL;
	amroutine->aminitparallelscan = NULL;
	amroutine->amparallelrescan = NULL;

	PG_RETURN_POINTER(amroutine);
}
