/*
 * ndd.h
 *    Definitions shared by the SQL layer and the access method: how each SQL type of the extension
 *    is laid out in a Datum, and the bridge to the C++ core.
 *
 * Only C files of the SQL layer include this header (it pulls in postgres.h). The core never does.
 */
#ifndef NDD_H
#define NDD_H

#include "postgres.h"
#include "fmgr.h"

#include "pg_compat.h"

#include "ndd_status.h"
#include "popcount.h"

/*
 * simhash64: 64 bits, passed by value as an int64 Datum. The text form prints the bits as 16 hex
 * digits, most significant first; the cast to bigint keeps the same 64 bits.
 */
#define DatumGetSimhash64(d)	((uint64) DatumGetInt64(d))
#define Simhash64GetDatum(x)	Int64GetDatum((int64) (x))
#define PG_GETARG_SIMHASH64(n)	DatumGetSimhash64(PG_GETARG_DATUM(n))
#define PG_RETURN_SIMHASH64(x)	return Simhash64GetDatum(x)

/*
 * fp128: 128 bits passed by reference. hi holds the first 64 bits of the text form (and of the
 * uuid and bit(128) casts), lo the last 64.
 */
typedef struct Fp128
{
	uint64		hi;
	uint64		lo;
} Fp128;

#define DatumGetFp128P(d)		((Fp128 *) DatumGetPointer(d))
#define Fp128PGetDatum(p)		PointerGetDatum(p)
#define PG_GETARG_FP128_P(n)	DatumGetFp128P(PG_GETARG_DATUM(n))
#define PG_RETURN_FP128_P(p)	return Fp128PGetDatum(p)

/*
 * hamming_distance: the result of <~>, an int32 passed by value (0..128 for real distances). It is
 * a type of its own, not int4, so that comparisons on it can carry the planner support function
 * that rewrites `fp <~> q <= k` into an indexable clause (see hamming.c).
 */
#define DatumGetHammingDistance(d)	DatumGetInt32(d)
#define HammingDistanceGetDatum(x)	Int32GetDatum(x)

/*
 * hamming_ball: "every fingerprint within radius bits of center", the right operand of the
 * indexable operator `fp <@ hamming_ball(q, k)`. A fixed 24-byte value passed by reference. words[0]
 * is a simhash64 or an fp128's hi, words[1] an fp128's lo (0 for simhash64); bits is 64 or 128.
 */
typedef struct HammingBall
{
	uint64		words[2];
	int32		radius;
	int32		bits;
} HammingBall;

#define DatumGetHammingBallP(d)		((HammingBall *) DatumGetPointer(d))
#define PG_GETARG_HAMMING_BALL_P(n)	DatumGetHammingBallP(PG_GETARG_DATUM(n))

/*
 * The width in bits of a fingerprint type whose values are typlen bytes long: 64 for simhash64 (and
 * a bigint standing for one), 128 for fp128, 0 for any other length. The one place that ties a
 * fingerprint type to its width: the index (its column's attlen), the planner's estimates and the
 * workflows (get_typlen) all ask here.
 */
static inline int
ndd_fingerprint_bits(int typlen)
{
	return typlen == 8 ? 64 : typlen == 16 ? 128 : 0;
}

/*
 * The 64-bit words of a fingerprint value of `bits` bits, in the two-word form of HammingBall:
 * a simhash64 (or bigint) by value in words[0], words[1] = 0; an fp128 by reference, hi then lo.
 */
static inline void
ndd_fingerprint_words(Datum value, int bits, uint64 words[2])
{
	if (bits == 64)
	{
		words[0] = DatumGetSimhash64(value);
		words[1] = 0;
	}
	else
	{
		const Fp128 *fp = DatumGetFp128P(value);

		words[0] = fp->hi;
		words[1] = fp->lo;
	}
}

/*
 * Raises the error of `fp <@ ball` for a ball of another width than the fingerprint's (hamming.c's
 * operators and the index's scan keys).
 */
extern void ndd_check_ball_width(const HammingBall *ball, int bits);

/* Hamming distance between two fingerprints in the two-word form of HammingBall. */
static inline int
ndd_hamming_words(const uint64 *a, const uint64 *b)
{
	return ndd_popcount64(a[0] ^ b[0]) + ndd_popcount64(a[1] ^ b[1]);
}

/* Text form of fingerprints (fingerprint_types.c): parse 1..16*nwords hex digits, print 16 per word. */
extern void ndd_parse_hex_fingerprint(const char *str, int nwords, uint64 *words, const char *typname);
extern void ndd_word_to_hex(uint64 w, char *out);

/* ---- bridge to the C++ core (ndd.c) ---- */

/* The NddInterruptFn handed to the core: nonzero once a cancel or terminate is pending. */
extern int	ndd_interrupt_pending(void);

/* The NddAllocFn handed to the core: palloc in CurrentMemoryContext, NULL instead of an error. */
extern void *ndd_alloc_noerror(size_t size);

/*
 * Turns a core status into PostgreSQL's answer: nothing for NDD_OK, the pending interrupt for
 * NDD_CANCELLED, an out-of-memory or internal error otherwise. what names the computation in the
 * message. Call it only after the core call has returned.
 */
extern void ndd_raise_status(NddStatus status, const char *what);

/*
 * Checks of OID-like arguments (regclass, regconfig): any number casts to them
 * (12345::oid::regclass), so a C function validates one before using it; without the check
 * PostgreSQL's caches fail with XX000 ("cache lookup failed"). 42P01 for a relation, 42704 for a
 * text search configuration, as PostgreSQL's own functions. test/sql/oid_arguments.sql calls every
 * function of the extension with such an argument on a missing OID.
 */
extern void ndd_check_relation_oid(Oid relid);
extern void ndd_check_ts_config_oid(Oid cfg);

/*
 * A handle of the C++ core (an iterator, a job, a cursor) owned by a memory context: release(handle)
 * runs when the context is reset or deleted, whether the function ends normally or an error or a
 * cancel unwinds through it. The core's memory is C++ heap memory PostgreSQL does not see, so this
 * is the one way the SQL layer ties it to a context (ndd.c). The struct must live in cxt (or
 * longer): allocate it there, or embed it in something that is. Set handle once the core returned
 * it; ndd_core_handle_release frees it early (then the callback finds NULL).
 */
typedef struct NddCoreHandle
{
	void	   *handle;			/* NULL: nothing to release */
	void		(*release) (void *handle);
	MemoryContextCallback callback;
} NddCoreHandle;

extern void ndd_core_handle_tie(NddCoreHandle *h, MemoryContext cxt, void (*release) (void *handle));
extern void ndd_core_handle_release(NddCoreHandle *h);

#endif							/* NDD_H */
