/*
 * clusters_api.h
 *    Clusters of near-duplicates from a list of near-duplicate pairs, the two ways the research
 *    report compares (Wang and Gemmell, "Clean Living", section 3.2):
 *
 *    - fully transitive: the connected components of the pair graph (union-find, as in Pugh's
 *      talk). Independent of order, but a chain A-B-C-...-G puts A and G together however far
 *      apart they are.
 *    - conservative: documents are taken in a given order; a document joins the cluster of the
 *      earliest representative it is a near-duplicate of, or else becomes a representative
 *      itself. A document that joined a cluster never recruits anyone, so every member is a
 *      near-duplicate of its representative.
 *
 * In both, a cluster's id is the id of its representative, the cluster's earliest document in the
 * order (for transitive clusters too, so the two are comparable row by row).
 */
#ifndef NDD_CLUSTERS_API_H
#define NDD_CLUSTERS_API_H

#include "ndd_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One document's cluster. */
typedef struct NddClusterRow
{
	int64_t		id;
	int64_t		cluster_id;		/* the id of the cluster's representative */
	int32_t		representative;	/* 1 when id == cluster_id */
	int32_t		pad;
} NddClusterRow;

/* Why the input was refused (NDD_OK is still returned; *nrows is then 0). */
typedef enum NddClusterProblem
{
	NDD_CLUSTER_OK = 0,
	NDD_CLUSTER_DUPLICATE_ORDER_ID,	/* an id occurs twice in the order */
	NDD_CLUSTER_UNORDERED_PAIR_ID	/* a pair names an id the order does not contain */
} NddClusterProblem;

/*
 * Clusters the documents of `order` (n distinct ids, earliest first) using the npairs pairs
 * (pairs[2i], pairs[2i + 1]); pairs of an id with itself are ignored. With order NULL, the
 * documents are the distinct ids of the pairs in ascending order. conservative selects the
 * conservative method, otherwise fully transitive. On NDD_OK, *rows has one row per document in
 * order (caller memory from alloc), unless *problem is set, in which case *problem_id names the
 * offending id.
 */
NDD_API NddStatus ndd_cluster_pairs(const int64_t *order, size_t n, const int64_t *pairs, size_t npairs,
							   int conservative, NddInterruptFn interrupt, NddAllocFn alloc,
							   NddClusterRow **rows, size_t *nrows, NddClusterProblem *problem,
							   int64_t *problem_id);

/*
 * Bytes ndd_cluster_pairs allocates at most (its working arrays and the rows it returns) for
 * ndocs documents (n, or 2 * npairs without an order) and npairs pairs.
 */
NDD_API size_t ndd_cluster_memory(size_t ndocs, size_t npairs);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_CLUSTERS_API_H */
