/*
 * popcount.h
 *    The one bit count of ndd (Hamming distances everywhere: the <~> operators, index scans, the
 *    batch pairs), for the C layer and the core alike. Plain C, no PostgreSQL header.
 *
 * The library is built without -mpopcnt so that one binary runs on every x86-64 CPU: an
 * instruction chosen from the build machine's /proc/cpuinfo would be an illegal instruction
 * (SIGILL) on an older CPU that installs the same package. On x86-64 the POPCNT instruction is
 * therefore chosen at run time: ndd_cpu_has_popcnt is set once when the library is loaded
 * (popcount.cpp), and ndd_popcount64 tests it before issuing the instruction through inline
 * assembly. Inline assembly rather than a function pointer or a target("popcnt") function, because
 * it inlines into any caller: the hot loops keep a one-instruction bit count plus a load and a
 * branch that is always predicted, with no call. Where the compiler already targets the
 * instruction (-mpopcnt, -march=native, or another architecture's own bit count) the builtin is
 * used directly and nothing is dispatched.
 */
#ifndef NDD_POPCOUNT_H
#define NDD_POPCOUNT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
#define NDD_POPCOUNT_DISPATCH 1
/* Nonzero when the CPU running us has POPCNT (CPUID); 0 until the library's initializers ran. */
extern int ndd_cpu_has_popcnt __attribute__((visibility("hidden")));
#endif

/* Bit count without any instruction beyond the base ISA (the classic SWAR sum of bit fields). */
static inline int
ndd_popcount64_portable(uint64_t x)
{
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int) ((x * UINT64_C(0x0101010101010101)) >> 56);
}

#ifdef NDD_POPCOUNT_DISPATCH
/* The POPCNT instruction itself: only valid when ndd_cpu_has_popcnt is set. */
static inline int
ndd_popcount64_hw(uint64_t x)
{
#if defined(__x86_64__)
	uint64_t	r;

	__asm__("popcntq %1, %0" : "=r"(r) : "rm"(x) : "cc");
	return (int) r;
#else
	uint32_t	lo, hi;

	__asm__("popcntl %1, %0" : "=r"(lo) : "rm"((uint32_t) x) : "cc");
	__asm__("popcntl %1, %0" : "=r"(hi) : "rm"((uint32_t) (x >> 32)) : "cc");
	return (int) (lo + hi);
#endif
}
#endif

static inline int
ndd_popcount64(uint64_t x)
{
#ifdef NDD_POPCOUNT_DISPATCH
	if (__builtin_expect(ndd_cpu_has_popcnt, 1))
		return ndd_popcount64_hw(x);
	return ndd_popcount64_portable(x);
#else
	return __builtin_popcountll(x);
#endif
}

#ifdef __cplusplus
}
#endif

#endif							/* NDD_POPCOUNT_H */
