/*
 * ndd_status.h
 *    The conventions every C-callable entry point of the C++ core follows.
 *
 * The core (src/core/) is pure C++17 with no PostgreSQL headers. PostgreSQL reaches it only through
 * the *_api.h headers, which are plain C. Across that boundary:
 *   - no C++ exception escapes: each entry point catches everything and returns an NddStatus;
 *   - the caller raises the PostgreSQL error after the call has returned, when no C++ object is
 *     alive any more (ereport is a longjmp and would skip destructors);
 *   - long loops poll an NddInterruptFn and return NDD_CANCELLED when it answers nonzero, so the
 *     caller can then run CHECK_FOR_INTERRUPTS() outside the C++ frames;
 *   - output whose size is not known in advance is allocated through an NddAllocFn, which must
 *     return NULL on failure instead of jumping (palloc_extended(..., MCXT_ALLOC_NO_OOM)).
 */
#ifndef NDD_STATUS_H
#define NDD_STATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum NddStatus
{
	NDD_OK = 0,
	NDD_CANCELLED,				/* the interrupt callback asked us to stop */
	NDD_OUT_OF_MEMORY,			/* an allocation failed */
	NDD_INVALID_ARGUMENT,		/* a parameter the caller should have validated */
	NDD_INTERNAL				/* anything else; a bug */
} NddStatus;

/* Returns nonzero when the caller wants the computation abandoned. May be NULL. */
typedef int (*NddInterruptFn) (void);

/* Returns size bytes of memory owned by the caller, or NULL; never throws or jumps. */
typedef void *(*NddAllocFn) (size_t size);

/* Exported symbols of the shared library; everything else stays hidden. */
#define NDD_API __attribute__((visibility("default")))

#ifdef __cplusplus
}
#endif

#endif							/* NDD_STATUS_H */
