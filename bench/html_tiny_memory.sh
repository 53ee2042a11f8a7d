#!/usr/bin/env bash
# bench/html_tiny_memory.sh: the backend's peak memory growth (VmHWM) of ndd_html_content and
# ndd_html_text on pages of tiny blocks, `<p>a` repeated (one block per 4 bytes of page: the worst
# case of the block model, issue 31 finding 4), against the documented bound, 5x the page + 48 MB
# (doc/web.md). Each call runs in a new session, the page made by repeat() inside the query (so
# that the page itself counts, as it does for a caller), as the issue measured it:
#
#   bash bench/html_tiny_memory.sh [MB ...]      default: 25 100 300
#
# Environment: NDD_PGBIN (the PostgreSQL to install into), NDD_NO_INSTALL=1 (ndd already installed),
# NDD_TINY_UNIT (the markup repeated, default `<p>a`; `<p>a<br>a` is a region per two blocks).
# Prints one line per page and function: size, result length, growth in MB, the bound in MB.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(25 100 300)
ndd_bench_cluster "max_parallel_workers_per_gather=0" "jit=off"
$PSQL -c "CREATE EXTENSION ndd" \
	-c "CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql AS \$\$ SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint \$\$"
ndd_bench_machine "$(git rev-parse --short HEAD)"
unit=${NDD_TINY_UNIT:-<p>a}
for mb in "${sizes[@]}"; do
	n=$((mb * 1000000 / ${#unit}))
	for f in ndd_html_content ndd_html_text; do
		res=$($PSQL -c "SELECT peak_kb()" -c "SELECT length($f(repeat('$unit', $n)))" -c "SELECT peak_kb()" | tr '\n' ' ')
		read -r before len after <<<"$res"
		echo "page $mb MB ($n x $unit): $f $len chars, VmHWM growth $(((after - before) / 1024)) MB, bound $((5 * mb * 1000000 / 1048576 + 48)) MB"
	done
done
