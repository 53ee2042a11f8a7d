#!/bin/sh
# The batch all-pairs mode in the core alone, without PostgreSQL: seconds per block count, for each
# bit count in the same run: the package's build (no -mpopcnt, POPCNT chosen at run time), its
# fallback for CPUs without POPCNT, and a build with -mpopcnt (the compiler's own instruction; the
# way ndd was built before the run-time choice).
#   bench/batch_pairs_core.sh [n ...]     (default: 1000000 10000000)
set -e
cd "$(dirname "$0")/.."
mkdir -p build
build() { # output, extra flags
	out=$1; shift
	g++ -std=c++17 -O2 "$@" -Isrc/core -o "$out" bench/batch_pairs_core.cpp src/core/*.cpp -lxxhash
}
build build/batch_pairs_core
rm -f build/batch_pairs_core_mpopcnt
if grep -qw popcnt /proc/cpuinfo; then build build/batch_pairs_core_mpopcnt -mpopcnt; fi
[ $# -gt 0 ] || set -- 1000000 10000000
for n in "$@"; do
	build/batch_pairs_core "$n"
	NDD_BENCH_PORTABLE=1 build/batch_pairs_core "$n"
	if [ -x build/batch_pairs_core_mpopcnt ]; then build/batch_pairs_core_mpopcnt "$n"; fi
done
