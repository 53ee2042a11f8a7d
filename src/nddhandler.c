/*-------------------------------------------------------------------------
 *
 * nddhandler.c
 *	  The ndd access method's handler (what its indexes can do, where the code is), its
 *	  reloptions (WITH (...)) and build phase names.
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/reloptions.h"
#include "commands/progress.h"
#include "commands/vacuum.h"
#include "utils/rel.h"

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
					  "Number of blocks the fingerprint is cut into (0: from the rows, k + 1 while a key spans one page)",
					  0, 0, NDD_LAYOUT_MAX_BLOCKS, AccessExclusiveLock);
	add_int_reloption(ndd_relopt_kind, "fillfactor",
					  "Target fill of the primary bucket pages at build, in percent",
					  NDD_DEFAULT_FILLFACTOR, 10, 100, AccessExclusiveLock);
	/*
	 * rows preallocates the map's primaries (about 1.5 GB per 10^8 rows and table); past 10^9
	 * the preallocation dwarfs any table one would size that way, and the growth step serves
	 * larger tables anyway.
	 */
	add_real_reloption(ndd_relopt_kind, "rows",
					   "Rows to size the buckets for (0: the rows present at build)",
					   0, 0, NDD_MAX_ROWS_OPTION, AccessExclusiveLock);
	ndd_relopts_ready = true;
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
	/* the checks that hold for either width (the build checks the rest: ndd_plan_shape) */
	if (opts && validate && opts->blocks > 0 && opts->k >= 0)
	{
		int			k = opts->k;

		switch (ndd_layout_check(0, k, opts->blocks))
		{
			case NDD_LAYOUT_TOO_FEW_BLOCKS:
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid value for parameter \"blocks\": %d", opts->blocks),
						 errdetail("The pigeonhole argument needs more blocks than the radius k = %d.", k)));
				break;
			case NDD_LAYOUT_TOO_MANY_TABLES:
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("an ndd index with blocks = %d and k = %d would need " UINT64_FORMAT " tables",
								opts->blocks, k, ndd_layout_tables(opts->blocks, k)),
						 errdetail("At most %d tables are supported.", NDD_LAYOUT_MAX_TABLES)));
				break;
			default:
				/* blocks beyond NDD_LAYOUT_MAX_BLOCKS: the reloption's bounds refuse them */
				break;
		}
	}
	return (bytea *) opts;
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

	/*
	 * Fields of later majors, each set on purpose (src/README.index.md, "Across PostgreSQL
	 * majors", says what each means for ndd).
	 */
#if PG_VERSION_NUM >= 160000
	amroutine->amsummarizing = false;	/* not a summary (BRIN): an updated row needs its entry */
#endif
#if PG_VERSION_NUM >= 170000
	amroutine->amcanbuildparallel = true;	/* ndd_build scans the heap in parallel */
	amroutine->aminsertcleanup = NULL;	/* aminsert keeps no state across rows */
#endif
#if PG_VERSION_NUM >= 180000
	amroutine->amcanhash = false;	/* not a hash of equality: no hash joins or hashed grouping */
	amroutine->amconsistentequality = false;	/* no equality operator at all */
	amroutine->amconsistentordering = false;	/* no btree-like ordering operators */
	amroutine->amgettreeheight = NULL;	/* not a tree: no height for the planner's costs */
	amroutine->amtranslatestrategy = NULL;	/* strategies are ndd's own (<~>), no CompareType */
	amroutine->amtranslatecmptype = NULL;
#endif

	PG_RETURN_POINTER(amroutine);
}
