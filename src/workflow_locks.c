/*-------------------------------------------------------------------------
 *
 * workflow_locks.c
 *	  ndd_labelling_lock(table): the lock that serialises ndd_assign_cluster_trigger's labelling
 *	  of one (partitioned) table. The trigger (cluster_trigger.c) takes it through
 *	  ndd_take_labelling_lock directly, with the partition root it caches.
 *
 * Why not an advisory lock: any role may take any advisory lock key, so a role with no right on
 * the table could hold the key and stall every labelled insert. This lock is a transaction-scoped
 * lock on the table's partition root as a database object (LOCKTAG_OBJECT, pg_class, root oid):
 * no SQL command takes such a lock on a table, and this function takes it only for a caller who
 * may INSERT into the table the trigger fires on, i.e. who could insert a labelled row anyway.
 * Partitions share their root's lock, so near-duplicates landing in different partitions are
 * serialised too.
 *
 *-------------------------------------------------------------------------
 */
#include "ndd.h"

#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"

#include "workflow_locks.h"

PG_FUNCTION_INFO_V1(ndd_labelling_lock);

/* The partition root of relid (the topmost ancestor), or relid itself when it is no partition. */
Oid
ndd_partition_root(Oid relid)
{
	if (get_rel_relispartition(relid))
		return llast_oid(get_partition_ancestors(relid));
	return relid;
}

/*
 * Takes the labelling lock for a caller who inserts into relid, and returns the partition root it
 * locked. root is relid's partition root when the caller knows it (the trigger caches it), else
 * InvalidOid. Errors when relid is not a table or the caller may not INSERT into it.
 */
Oid
ndd_take_labelling_lock(Oid relid, Oid root)
{
	char		relkind;

	ndd_check_relation_oid(relid);
	relkind = get_rel_relkind(relid);
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("relation with OID %u is not a table", relid)));
	/* the right first, from the catalog: a caller without it takes no lock at all */
	if (pg_class_aclcheck(relid, GetUserId(), ACL_INSERT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to take the labelling lock of table \"%s\"",
						get_rel_name(relid)),
				 errdetail("The lock is for roles that may INSERT into the table.")));
	if (!OidIsValid(root))
		root = ndd_partition_root(relid);
	LockDatabaseObject(RelationRelationId, root, 0, ExclusiveLock);
	return root;
}

/* ndd_labelling_lock(tbl regclass) → regclass: takes the lock, returns the partition root */
Datum
ndd_labelling_lock(PG_FUNCTION_ARGS)
{
	PG_RETURN_OID(ndd_take_labelling_lock(PG_GETARG_OID(0), InvalidOid));
}
