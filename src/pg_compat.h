/*
 * pg_compat.h
 *    Every difference between the PostgreSQL majors ndd builds against (15 to 18), in one place.
 *
 * Included right after postgres.h by the headers every C file of the SQL layer starts with (ndd.h,
 * query_reader.h, workflow_locks.h). The code is written once; where an API changed between
 * majors, the call site uses a name defined here and each guard below names the PostgreSQL change
 * behind it. Tested on 15 and 18 (scripts/test.sh); the 16 and 17 branches follow the documented
 * API of those releases (their release notes and the headers' history) and are expected to build.
 */
#ifndef NDD_PG_COMPAT_H
#define NDD_PG_COMPAT_H

/*
 * PostgreSQL 16 moved the varlena macros (VARDATA, VARSIZE_ANY_EXHDR, SET_VARSIZE, ...) out of
 * postgres.h into varatt.h. Without it, code using them still compiles, with
 * implicit declarations, and the library then fails to load.
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * PostgreSQL 18 removed pg_attribute_noreturn() (a suffix) for pg_noreturn (a prefix, C11
 * _Noreturn where available). Declarations are written "pg_noreturn extern void f(...);", and on
 * older majors the prefix is the GCC attribute, which is valid in that position too.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * PostgreSQL 18: the module's magic block can carry its name and version (PG_MODULE_MAGIC_EXT),
 * shown by pg_get_loaded_modules(). NDD_EXTVERSION comes from the Makefile (EXTVERSION).
 */
#if PG_VERSION_NUM >= 180000
#define NDD_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "ndd", .version = NDD_EXTVERSION)
#else
#define NDD_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*
 * PostgreSQL 16 renamed RelFileNode to RelFileLocator, and Relation's rd_node to rd_locator.
 * log_newpage and ReadRecentBuffer take the new type on 16 and the old one before: the same
 * field under its name of the major.
 */
#if PG_VERSION_NUM >= 160000
#define NddRelationFileLocator(rel) ((rel)->rd_locator)
#else
#define NddRelationFileLocator(rel) ((rel)->rd_node)
#endif

/*
 * PostgreSQL 16 replaced the per-catalog ownership checks (pg_class_ownercheck, ...) by
 * object_ownercheck(classid, objectid, roleid).
 */
#if PG_VERSION_NUM >= 160000
#define pg_class_ownercheck(relid, roleid) object_ownercheck(RelationRelationId, (relid), (roleid))
#endif

/*
 * PostgreSQL 16 gave tuplesort_getdatum a "copy" argument. Before, a
 * pass-by-reference Datum was always copied into the caller's context; copy = true keeps that.
 * (A macro, not an inline function, so that only the files using it need utils/tuplesort.h.)
 */
#if PG_VERSION_NUM >= 160000
#define ndd_tuplesort_getdatum(state, forward, val, isnull) \
	tuplesort_getdatum((state), (forward), true, (val), (isnull), NULL)
#else
#define ndd_tuplesort_getdatum(state, forward, val, isnull) \
	tuplesort_getdatum((state), (forward), (val), (isnull), NULL)
#endif

/*
 * PostgreSQL 18 gave vacuum_delay_point an is_analyze argument (for the ANALYZE cost limit);
 * ndd calls it from VACUUM only.
 */
#if PG_VERSION_NUM >= 180000
#define ndd_vacuum_delay_point() vacuum_delay_point(false)
#else
#define ndd_vacuum_delay_point() vacuum_delay_point()
#endif

/*
 * One search of the index by a scan: pg_stat_user_indexes.idx_scan on every major, and on
 * PostgreSQL 18 also the scan's instrumentation, which EXPLAIN ANALYZE prints as "Index
 * Searches: N" (IndexScanInstrumentation; without it every ndd scan shows 0).
 */
#if PG_VERSION_NUM >= 180000
#define ndd_count_index_search(scan) \
	do { \
		pgstat_count_index_scan((scan)->indexRelation); \
		if ((scan)->instrument) \
			(scan)->instrument->nsearches++; \
	} while (0)
#else
#define ndd_count_index_search(scan) pgstat_count_index_scan((scan)->indexRelation)
#endif

/*
 * The workers a parallel index build asks for. PostgreSQL 17 added amcanbuildparallel: index_build
 * then plans them for any access method that sets it (plan_create_index_workers, which honours
 * max_parallel_maintenance_workers, the table's parallel_workers and min_parallel_table_scan_size)
 * and passes the count in ii_ParallelWorkers. Before 17 it did so for btree only: the build
 * plans them itself, as pgvector does (needs optimizer/optimizer.h).
 */
#if PG_VERSION_NUM >= 170000
#define ndd_build_workers(heap, index, indexInfo) ((indexInfo)->ii_ParallelWorkers)
#else
#define ndd_build_workers(heap, index, indexInfo) \
	(IsNormalProcessingMode() ? \
	 plan_create_index_workers(RelationGetRelid(heap), RelationGetRelid(index)) : 0)
#endif

#endif							/* NDD_PG_COMPAT_H */
