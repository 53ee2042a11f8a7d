#!/usr/bin/env bash
# bench/quality/run.sh: builds and installs ndd, starts a throwaway cluster and runs
# bench/quality/run.py (precision/recall of every method on the dev corpus) against it.
#   bench/quality/run.sh [--only WORD] [--markdown FILE]
#   NDD_NO_INSTALL=1   use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$NDD_ROOT"
ndd_bench_install
ndd_start_cluster "work_mem=256MB" "max_parallel_workers_per_gather=0"
trap ndd_stop_cluster EXIT
psql -X -q -d postgres -c "CREATE EXTENSION ndd"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
python3 bench/quality/run.py "$@"
