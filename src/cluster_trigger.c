/*-------------------------------------------------------------------------
 *
 * cluster_trigger.c
 *	  ndd_assign_cluster_trigger: the BEFORE INSERT row trigger that labels a new row with the
 *	  cluster of an existing near-duplicate, or with its own id (src/sql/40_workflows.sql has its
 *	  contract: arguments, modes, locking, what it refuses).
 *
 * Why C: the trigger runs once per inserted row, and what it does per row is small (read three
 * columns, one index lookup, one lock); in PL/pgSQL most of its cost was catalog lookups and
 * dynamic SQL parsed and planned afresh for every row. Here everything that depends only on the
 * table's definition is worked out once per trigger and table and kept in a backend-local cache
 * (LabelCache, keyed by trigger oid and table oid):
 *	- the arguments, checked, and the column numbers;
 *	- the fingerprint as an expression over NEW: the column itself, or, for a STORED GENERATED
 *	  column (computed only after BEFORE triggers), its generation expression, as the executor's
 *	  ExecInitStoredGenerated builds it;
 *	- the row's own id as an expression (the id column cast to bigint, then assigned to the
 *	  cluster column's type, as the PL/pgSQL version's ::bigint and jsonb_populate_record did);
 *	- the table's partition root, where labelling searches and locks;
 *	- Citus' shard test, looked up by oid when Citus is there;
 *	- the nearest-cluster query, prepared once (SPI_keepplan): the plan cache revalidates it when
 *	  the table or its indexes change, and the executor checks the caller's privileges at every
 *	  execution.
 * The cache is invalidated by relcache callbacks on the table and its root (ALTER TABLE, DROP
 * COLUMN, CREATE OR REPLACE TRIGGER, ATTACH/DETACH PARTITION) and by any pg_proc change (a
 * generation expression's functions may be replaced: the old body must not keep computing
 * fingerprints), and rebuilt on the next insert.
 *
 * search_path: the trigger runs with the inserting role's search_path, which a hostile schema may
 * lead (the CVE-2018-1058 class). No name the trigger uses resolves through it: the query text
 * comes from ndd_nearest_cluster_sql (the one place it is built; every operator in it names its
 * schema, the table prints schema-qualified), found by oid in the trigger function's own schema,
 * and the query is parsed and executed under a pinned path (pg_catalog, then pg_temp for
 * relations only), the one ndd_nearest_cluster_sql itself runs under. Pinning at execution also
 * keeps the plan cache from re-parsing the query whenever the caller's search_path differs from
 * the one it was parsed under.
 *
 *-------------------------------------------------------------------------
 */
#include "ndd.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_func.h"
#include "rewrite/rewriteHandler.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "workflow_locks.h"

PG_FUNCTION_INFO_V1(ndd_assign_cluster_trigger);

#define TRIGGER_NAME "ndd_assign_cluster_trigger"

/* What one trigger on one table needs per row, worked out from the table's definition. */
typedef struct LabelCache
{
	MemoryContext cxt;			/* holds this struct and everything below but the plan */
	bool		valid;			/* false once the table, its root or a function changed */
	int			refcount;		/* calls using it now (a generation expression may recurse) */
	Oid			relid;			/* the table the trigger fires on */
	Oid			root;			/* its partition root (relid when it is no partition) */

	NameData	fp_column;		/* the trigger's arguments */
	NameData	cluster_column;
	NameData	id_column;
	int32		k;
	bool		conservative;

	AttrNumber	cluster_att;	/* in relid */
	AttrNumber	root_atts[3];	/* fingerprint, cluster and id columns in root */
	Oid			fp_type;
	int16		cluster_typlen;
	bool		cluster_typbyval;

	TupleTableSlot *slot;		/* NEW, for the expressions below */
	ExprContext *econtext;		/* its per-tuple memory is reset per row */
	ExprState  *fp_state;		/* the fingerprint of NEW */
	ExprState  *own_id_state;	/* NEW's id, as a value of the cluster column */

	bool		has_shard_fn;	/* Citus' relation_is_a_known_shard, when Citus is there */
	FmgrInfo	shard_fn;

	SPIPlanPtr	plan;			/* the nearest-cluster query: $1 fingerprint, $2 k */
} LabelCache;

typedef struct LabelKey
{
	Oid			tgoid;
	Oid			relid;
} LabelKey;

typedef struct LabelEntry
{
	LabelKey	key;
	LabelCache *cache;
} LabelEntry;

static HTAB *label_caches = NULL;
static bool label_caches_stale = false;	/* some entry is invalid: sweep before the next use */
static List *orphans = NIL;		/* invalid caches replaced while a call was using them */
static uint64 invalidations = 0;	/* callbacks so far, to notice one during a build */

/*
 * The search_path the lookup is parsed and executed under: pg_catalog, and the session's temp
 * schema (searched for relations only, never for functions or operators). The same as the pinned
 * "pg_catalog, pg_temp" of ndd_nearest_cluster_sql, so that a temp table it prints unqualified
 * resolves to the same table.
 *
 * Set as a GUC at a new nesting level, as a function's SET clause does, and restored by
 * unpin_search_path (or by the (sub)transaction's abort when an error comes first). This works on
 * every major; PushOverrideSearchPath, used before, is gone in PostgreSQL 17.
 */
static int
pin_search_path(void)
{
	int			nest_level = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nest_level;
}

static void
unpin_search_path(int nest_level)
{
	AtEOXact_GUC(true, nest_level);
}

/* Marks the entries of a table (or all, relid = InvalidOid) invalid; nothing is freed here. */
static void
label_caches_invalidate_rel(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS status;
	LabelEntry *entry;

	invalidations++;
	hash_seq_init(&status, label_caches);
	while ((entry = hash_seq_search(&status)) != NULL)
	{
		if (!OidIsValid(relid) || entry->cache->relid == relid || entry->cache->root == relid)
		{
			entry->cache->valid = false;
			label_caches_stale = true;
		}
	}
}

/* A function was created, replaced or dropped: a generation expression may have changed. */
static void
label_caches_invalidate_proc(Datum arg, int cacheid, uint32 hashvalue)
{
	label_caches_invalidate_rel(arg, InvalidOid);
}

static void
label_cache_free(LabelCache *cache)
{
	if (cache->plan)
		SPI_freeplan(cache->plan);
	MemoryContextDelete(cache->cxt);
}

/* Frees the invalid caches no call is using. */
static void
label_caches_sweep(void)
{
	HASH_SEQ_STATUS status;
	LabelEntry *entry;
	ListCell   *lc;
	List	   *kept = NIL;
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

	foreach(lc, orphans)
	{
		LabelCache *cache = lfirst(lc);

		if (cache->refcount > 0)
			kept = lappend(kept, cache);
		else
			label_cache_free(cache);
	}
	list_free(orphans);
	orphans = kept;
	MemoryContextSwitchTo(old);

	label_caches_stale = orphans != NIL;
	hash_seq_init(&status, label_caches);
	while ((entry = hash_seq_search(&status)) != NULL)
	{
		if (entry->cache->valid)
			continue;
		if (entry->cache->refcount > 0)
			label_caches_stale = true;
		else
		{
			label_cache_free(entry->cache);
			hash_search(label_caches, &entry->key, HASH_REMOVE, NULL);
		}
	}
}

/* k, the third argument, read as integer input reads it (int4in): "k must be an integer" otherwise */
static int32
parse_k(const char *arg)
{
	const char *p = arg;
	char	   *end;
	long		v = 0;
	bool		ok;

	while (isspace((unsigned char) *p))
		p++;
	/* an optional sign and digits, with spaces around: strtol alone would take more */
	ok = isdigit((unsigned char) p[(*p == '+' || *p == '-') ? 1 : 0]);
	if (ok)
	{
		errno = 0;
		v = strtol(p, &end, 10);
		while (isspace((unsigned char) *end))
			end++;
		ok = *end == '\0' && errno != ERANGE && v >= PG_INT32_MIN && v <= PG_INT32_MAX;
	}
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be an integer"),
				 errdetail("The trigger's third argument is \"%s\".", arg)));
	return (int32) v;
}

/* The column's number in rel, or a 42703 error naming the trigger's arguments. */
static AttrNumber
label_column(Relation rel, Name column)
{
	AttrNumber	att = get_attnum(RelationGetRelid(rel), NameStr(*column));

	if (att <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						NameStr(*column), RelationGetRelationName(rel)),
				 errhint("The trigger's arguments are: fingerprint column, cluster column (cluster_id), k (3), id column (id), mode (conservative).")));
	return att;
}

/* Var of NEW's column att, with its type */
static Expr *
new_column(Relation rel, AttrNumber att)
{
	Form_pg_attribute a = TupleDescAttr(RelationGetDescr(rel), att - 1);

	return (Expr *) makeVar(1, att, a->atttypid, a->atttypmod, a->attcollation, 0);
}

/* expr cast to type as ctx allows (NULL when no cast exists) */
static Expr *
cast_to(Expr *expr, Oid type, int32 typmod, CoercionContext ctx)
{
	return (Expr *) coerce_to_target_type(NULL, (Node *) expr, exprType((Node *) expr),
										  type, typmod, ctx, COERCE_EXPLICIT_CAST, -1);
}

/*
 * NEW's id as a value of the cluster column: id::bigint, then assigned to the cluster column's
 * type, the conversions of the PL/pgSQL version (a ::bigint cast, then jsonb_populate_record).
 */
static Expr *
own_id_expr(Relation rel, AttrNumber id_att, AttrNumber cluster_att)
{
	Form_pg_attribute id = TupleDescAttr(RelationGetDescr(rel), id_att - 1);
	Form_pg_attribute cl = TupleDescAttr(RelationGetDescr(rel), cluster_att - 1);
	Expr	   *e = cast_to(new_column(rel, id_att), INT8OID, -1, COERCION_EXPLICIT);

	if (e == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CANNOT_COERCE),
				 errmsg("cannot cast type %s to bigint", format_type_be(id->atttypid)),
				 errdetail("The id column \"%s\" of relation \"%s\" gives new rows their own cluster.",
						   NameStr(id->attname), RelationGetRelationName(rel))));
	e = cast_to(e, cl->atttypid, cl->atttypmod, COERCION_ASSIGNMENT);
	if (e == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" is of type %s but a cluster is a bigint",
						NameStr(cl->attname), format_type_be(cl->atttypid)),
				 errdetail("The cluster column of relation \"%s\" receives ids cast to bigint.",
						   RelationGetRelationName(rel))));
	return e;
}

/* an executable state of expr over NEW (planned: constants folded, SQL functions inlined) */
static ExprState *
prepare_expr(Expr *expr)
{
	return ExecInitExpr(expression_planner(expr), NULL);
}

/*
 * Builds the cache of trigger trig on rel: checks the arguments (the errors the PL/pgSQL version
 * raised on every row, raised here until the definition is right), and prepares the expressions
 * and the query. builder_nsp is the extension's schema, where ndd_nearest_cluster_sql is.
 */
static LabelCache *
label_cache_build(Relation rel, Trigger *trig, Oid builder_nsp)
{
	MemoryContext cxt,
				old;
	LabelCache *c;
	const char *mode = "conservative";
	AttrNumber	fp_att,
				id_att;
	Form_pg_attribute fp;
	Name		names[3];
	Oid			builder_args[5] = {REGCLASSOID, NAMEOID, NAMEOID, NAMEOID, BOOLOID};
	Oid			builder;
	Oid			query_args[2];
	char	   *sql;
	FuncCandidateList shard_fn;
	int			pinned;

	if (trig->tgnargs < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg(TRIGGER_NAME " needs the fingerprint column as its first argument"),
				 errhint("EXECUTE FUNCTION " TRIGGER_NAME "('fp', 'cluster_id', '3').")));

	/*
	 * Built in a context of the caller's, so that an error leaves nothing behind; moved under
	 * CacheMemoryContext once complete.
	 */
	cxt = AllocSetContextCreate(CurrentMemoryContext, "ndd_assign_cluster_trigger cache",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	c = palloc0(sizeof(LabelCache));
	c->cxt = cxt;
	c->relid = RelationGetRelid(rel);

	/* the arguments, as the PL/pgSQL version read them into name variables (truncated alike) */
	namestrcpy(&c->cluster_column, "cluster_id");
	namestrcpy(&c->id_column, "id");
	c->k = 3;
	c->fp_column = *DatumGetName(DirectFunctionCall1(namein, CStringGetDatum(trig->tgargs[0])));
	if (trig->tgnargs >= 2)
		c->cluster_column = *DatumGetName(DirectFunctionCall1(namein, CStringGetDatum(trig->tgargs[1])));
	if (trig->tgnargs >= 3)
	{
		c->k = parse_k(trig->tgargs[2]);
		if (c->k < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("k must not be negative")));
	}
	if (trig->tgnargs >= 4)
		c->id_column = *DatumGetName(DirectFunctionCall1(namein, CStringGetDatum(trig->tgargs[3])));
	if (trig->tgnargs >= 5)
		mode = trig->tgargs[4];
	if (strcmp(mode, "conservative") != 0 && strcmp(mode, "nearest") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("mode must be conservative or nearest"),
				 errdetail("The trigger's fifth argument is \"%s\".", mode)));
	c->conservative = strcmp(mode, "conservative") == 0;

	fp_att = label_column(rel, &c->fp_column);
	c->cluster_att = label_column(rel, &c->cluster_column);
	id_att = label_column(rel, &c->id_column);

	/* the root has the same columns (a partition's columns are its parent's), numbered its way */
	c->root = ndd_partition_root(c->relid);
	names[0] = &c->fp_column;
	names[1] = &c->cluster_column;
	names[2] = &c->id_column;
	for (int i = 0; i < 3; i++)
	{
		c->root_atts[i] = get_attnum(c->root, NameStr(*names[i]));
		if (c->root_atts[i] <= 0)
			elog(ERROR, "column \"%s\" of partition root %u not found", NameStr(*names[i]), c->root);
	}

	fp = TupleDescAttr(RelationGetDescr(rel), fp_att - 1);
	c->fp_type = fp->atttypid;
	get_typlenbyval(TupleDescAttr(RelationGetDescr(rel), c->cluster_att - 1)->atttypid,
					&c->cluster_typlen, &c->cluster_typbyval);

	/* NEW and the two expressions over it */
	c->slot = MakeSingleTupleTableSlot(CreateTupleDescCopy(RelationGetDescr(rel)), &TTSOpsHeapTuple);
	c->econtext = CreateStandaloneExprContext();
	if (fp->attgenerated == ATTRIBUTE_GENERATED_STORED)
	{
		Expr	   *gen = (Expr *) build_column_default(rel, fp_att);

		if (gen == NULL)
			elog(ERROR, "no generation expression found for column \"%s\" of relation \"%s\"",
				 NameStr(fp->attname), RelationGetRelationName(rel));
		c->fp_state = prepare_expr(gen);
	}
	else
		c->fp_state = prepare_expr(new_column(rel, fp_att));
	c->own_id_state = prepare_expr(own_id_expr(rel, id_att, c->cluster_att));

	/*
	 * Citus: with citus.enable_unsafe_triggers the trigger fires on each shard, which sees only
	 * its own rows. Its test is looked up, not called by name, so this runs without Citus too.
	 */
	shard_fn = FuncnameGetCandidates(list_make2(makeString("pg_catalog"),
												makeString("relation_is_a_known_shard")),
									 -1, NIL, false, false, false, true);
	if (shard_fn != NULL && shard_fn->next == NULL)
	{
		fmgr_info_cxt(shard_fn->oid, &c->shard_fn, cxt);
		c->has_shard_fn = true;
	}

	/* the query, from its one builder, found in the extension's schema by its exact signature */
	builder = LookupFuncName(list_make2(makeString(get_namespace_name(builder_nsp)),
										makeString("ndd_nearest_cluster_sql")),
							 5, builder_args, false);
	sql = TextDatumGetCString(OidFunctionCall5(builder, ObjectIdGetDatum(c->root),
											   NameGetDatum(&c->fp_column),
											   NameGetDatum(&c->cluster_column),
											   NameGetDatum(&c->id_column),
											   BoolGetDatum(c->conservative)));
	query_args[0] = c->fp_type;
	query_args[1] = INT4OID;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pinned = pin_search_path();

	/*
	 * A generic plan: the query is the same for every row but $1, and a custom plan would be
	 * planned again for each row. The planner support of <~> turns "fp <~> $1 <= $2" into an
	 * index condition with parameters.
	 */
	c->plan = SPI_prepare_cursor(sql, 2, query_args, CURSOR_OPT_GENERIC_PLAN);
	unpin_search_path(pinned);
	if (c->plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql, SPI_result_code_string(SPI_result));
	SPI_keepplan(c->plan);
	SPI_finish();

	MemoryContextSwitchTo(old);
	MemoryContextSetParent(cxt, CacheMemoryContext);
	c->valid = true;
	return c;
}

/* The cache of trig on rel, built or rebuilt when missing or invalid. */
static LabelCache *
label_cache_get(Relation rel, Trigger *trig, Oid builder_nsp)
{
	LabelKey	key;
	LabelEntry *entry;
	bool		found;
	uint64		start;
	LabelCache *cache;

	if (label_caches == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(LabelKey);
		ctl.entrysize = sizeof(LabelEntry);
		ctl.hcxt = CacheMemoryContext;
		label_caches = hash_create("ndd_assign_cluster_trigger caches", 16, &ctl,
								   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterRelcacheCallback(label_caches_invalidate_rel, (Datum) 0);
		CacheRegisterSyscacheCallback(PROCOID, label_caches_invalidate_proc, (Datum) 0);
	}
	if (label_caches_stale)
		label_caches_sweep();

	memset(&key, 0, sizeof(key));
	key.tgoid = trig->tgoid;
	key.relid = RelationGetRelid(rel);
	entry = hash_search(label_caches, &key, HASH_FIND, &found);
	if (found && entry->cache->valid)
		return entry->cache;
	if (found)
	{
		/* invalid but in use by a call further up (else the sweep freed it): freed after it */
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		orphans = lappend(orphans, entry->cache);
		MemoryContextSwitchTo(old);
		hash_search(label_caches, &key, HASH_REMOVE, NULL);
	}

	/* built before it enters the table, so that an error leaves no entry */
	start = invalidations;
	cache = label_cache_build(rel, trig, builder_nsp);
	entry = hash_search(label_caches, &key, HASH_ENTER, &found);
	entry->cache = cache;
	if (invalidations != start)
	{
		/* something changed while it was built: good for this row, rebuilt for the next */
		cache->valid = false;
		label_caches_stale = true;
	}
	return cache;
}

/* regclass text of relid as the pinned path prints it: qualified unless in pg_catalog or pg_temp */
static char *
pinned_regclass(Oid relid)
{
	char	   *s;
	int			pinned = pin_search_path();

	s = DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(relid)));
	unpin_search_path(pinned);
	return s;
}

/*
 * Labelling searches the whole (partitioned) table, so the inserting role must be able to read
 * its three columns there, also when it inserts straight into a partition; without this check it
 * gets "permission denied" from inside the search, naming a table it never wrote.
 */
static void
check_search_rights(LabelCache *c, Relation rel)
{
	Oid			user = GetUserId();
	char	   *root;

	if (pg_class_aclcheck(c->root, user, ACL_SELECT) == ACLCHECK_OK)
		return;
	for (int i = 0; i < 3; i++)
	{
		if (pg_attribute_aclcheck(c->root, c->root_atts[i], user, ACL_SELECT) == ACLCHECK_OK)
			continue;
		root = pinned_regclass(c->root);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to label rows of table \"%s\": labelling searches table %s",
						RelationGetRelationName(rel), root),
				 errdetail("The inserting role needs SELECT on the columns %s, %s and %s of %s.",
						   quote_identifier(NameStr(c->fp_column)),
						   quote_identifier(NameStr(c->cluster_column)),
						   quote_identifier(NameStr(c->id_column)), root),
				 errhint("GRANT SELECT ON %s TO %s;", root,
						 quote_identifier(GetUserNameFromId(user, false)))));
	}
}

/*
 * The cluster of an existing row within k bits of fp, through the prepared query; false when
 * there is none. *cluster is allocated in the caller's memory context.
 */
static bool
nearest_cluster(LabelCache *c, Datum fp, Datum *cluster)
{
	MemoryContext outer = CurrentMemoryContext;
	Datum		args[2];
	bool		found = false;
	int			rc;
	int			pinned;

	args[0] = fp;
	args[1] = Int32GetDatum(c->k);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pinned = pin_search_path();

	/*
	 * Not read-only: a new snapshot, taken after the labelling lock was granted, so that under
	 * READ COMMITTED the rows of the transaction that held the lock are seen.
	 */
	rc = SPI_execute_plan(c->plan, args, NULL, false, 1);
	unpin_search_path(pinned);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "the nearest-cluster query failed: %s", SPI_result_code_string(rc));
	if (SPI_processed > 0)
	{
		bool		isnull;
		Datum		v = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		if (!isnull)
		{
			MemoryContext spi = MemoryContextSwitchTo(outer);

			*cluster = datumCopy(v, c->cluster_typbyval, c->cluster_typlen);
			MemoryContextSwitchTo(spi);
			found = true;
		}
	}
	SPI_finish();
	return found;
}

/* The row's label: what the trigger does once the cache is there. */
static HeapTuple
label_row(LabelCache *c, TriggerData *td)
{
	Relation	rel = td->tg_relation;
	HeapTuple	row = td->tg_trigtuple;
	TupleDesc	desc = RelationGetDescr(rel);
	bool		isnull;
	Datum		fp;
	bool		fp_null;
	Datum		label;
	bool		label_null;
	int			cluster_col = c->cluster_att;

	(void) heap_getattr(row, c->cluster_att, desc, &isnull);
	if (!isnull)
		return row;				/* labelled by the inserter */

	if (c->has_shard_fn)
	{
		LOCAL_FCINFO(call, 1);
		Datum		is_shard;

		InitFunctionCallInfoData(*call, &c->shard_fn, 1, InvalidOid, NULL, NULL);
		call->args[0].value = ObjectIdGetDatum(c->relid);
		call->args[0].isnull = false;
		is_shard = FunctionCallInvoke(call);
		if (!call->isnull && DatumGetBool(is_shard))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg(TRIGGER_NAME " cannot label rows of a Citus distributed table"),
					 errdetail("\"%s\" is a shard: it sees only its own rows, not their near-duplicates on other shards.",
							   RelationGetRelationName(rel)),
					 errhint("Label in batches instead: ndd_clusters over ndd_distributed_pairs, or ndd_distributed_pairs_between for the new rows against the stored ones.")));
	}
	if (XactIsoLevel == XACT_REPEATABLE_READ)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg(TRIGGER_NAME " cannot label rows under REPEATABLE READ"),
				 errdetail("The transaction's snapshot would hide near-duplicates committed while it waited for the labelling lock."),
				 errhint("Insert under READ COMMITTED or SERIALIZABLE.")));

	/* the fingerprint and the row's own id, evaluated on NEW */
	ResetExprContext(c->econtext);
	ExecStoreHeapTuple(row, c->slot, false);
	c->econtext->ecxt_scantuple = c->slot;
	fp = ExecEvalExprSwitchContext(c->fp_state, c->econtext, &fp_null);
	label = ExecEvalExprSwitchContext(c->own_id_state, c->econtext, &label_null);

	check_search_rights(c, rel);
	(void) ndd_take_labelling_lock(c->relid, c->root);
	if (!fp_null && nearest_cluster(c, fp, &label))
		label_null = false;
	ExecClearTuple(c->slot);

	if (label_null)
		return row;				/* no id either: the cluster stays NULL */
	row = heap_modify_tuple_by_cols(row, desc, 1, &cluster_col, &label, &label_null);
	ResetExprContext(c->econtext);
	return row;
}

/*
 * ndd_assign_cluster_trigger() RETURNS trigger: BEFORE INSERT ... FOR EACH ROW. Arguments:
 * fingerprint column, cluster column (cluster_id), k (3), id column (id), mode (conservative).
 */
Datum
ndd_assign_cluster_trigger(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	LabelCache *cache;
	HeapTuple	volatile result = NULL;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("trigger functions can only be called as triggers")));
	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		!TRIGGER_FIRED_BY_INSERT(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg(TRIGGER_NAME " must be a BEFORE INSERT ... FOR EACH ROW trigger")));

	cache = label_cache_get(td->tg_relation, td->tg_trigger,
							get_func_namespace(fcinfo->flinfo->fn_oid));
	cache->refcount++;
	PG_TRY();
	{
		result = label_row(cache, td);
	}
	PG_FINALLY();
	{
		cache->refcount--;
		if (!cache->valid)
			label_caches_stale = true;
	}
	PG_END_TRY();
	return PointerGetDatum(result);
}
