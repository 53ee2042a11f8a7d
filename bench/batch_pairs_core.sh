#!/bin/sh
# The batch all-pairs mode in the core alone, without PostgreSQL: seconds per block count.
#   bench/batch_pairs_core.sh [n ...]     (default: 1000000 10000000)
set -e
cd "$(dirname "$0")/.."
mkdir -p build
g++ -std=c++17 -O2 $(grep -qw popcnt /proc/cpuinfo && echo -mpopcnt) -Isrc/core \
    -o build/batch_pairs_core bench/batch_pairs_core.cpp src/core/*.cpp -lxxhash
[ $# -gt 0 ] || set -- 1000000 10000000
exec build/batch_pairs_core "$@"
