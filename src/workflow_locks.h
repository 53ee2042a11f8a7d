/*
 * workflow_locks.h
 *	  The labelling lock of ndd_assign_cluster_trigger (workflow_locks.c), for the SQL function
 *	  ndd_labelling_lock and for the trigger (cluster_trigger.c), which calls it directly.
 */
#ifndef WORKFLOW_LOCKS_H
#define WORKFLOW_LOCKS_H

#include "postgres.h"

#include "pg_compat.h"

extern Oid	ndd_partition_root(Oid relid);
extern Oid	ndd_take_labelling_lock(Oid relid, Oid root);

#endif							/* WORKFLOW_LOCKS_H */
