// popcount.cpp
//    Chooses the bit count instruction once, when the library is loaded (see popcount.h).
#include "popcount.h"

#ifdef NDD_POPCOUNT_DISPATCH
namespace {

int detect_popcnt() {
    // CPUID through libgcc; __builtin_cpu_init makes it safe however early this initializer runs.
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") ? 1 : 0;
}

}  // namespace

// A dynamic initializer of the shared library: it runs at dlopen, before _PG_init and any call.
// (C linkage and hidden visibility come from the declaration in popcount.h.)
int ndd_cpu_has_popcnt = detect_popcnt();
#endif
