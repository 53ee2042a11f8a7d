#!/usr/bin/env bash
# bench/index_sorted.sh: sorted pages (README.index.md, "Sorted pages") before and after, on the
# rows and queries of bench/index_bench.sh: for each build of the library in turn, alternated
# (before, after, before, after), CREATE INDEX USING ndd, then radius-3 and radius-8 lookups of
# the 1000 queries: client latency (pgbench -M prepared, client and server pinned to one CPU, as
# index_bench.sh), server execution time (EXPLAIN ANALYZE, TIMING OFF), the rows found over all
# queries (the two builds must agree), and the index pages read and entries checked per query as
# the scan reports them (DEBUG2 at its end; a build without that report prints "—").
# Not a test: it asserts nothing.
#
#   NDD_SORTED_BEFORE=path/ndd.so bench/index_sorted.sh [rows]
#       needs a running server (PG* variables, NDD_PGDATA to pin it) with the extension installed
#       (the "after" build: the pkglibdir's ndd.so) and the table of
#       `NDD_BENCH_DATA_ONLY=1 bench/index_bench.sh [rows]`; NDD_SORTED_WITH="blocks = 5" gives the
#       index's storage parameters, NDD_SORTED_ROUNDS (default 2) the alternations,
#       NDD_BENCH_SECONDS (default 10) each pgbench run's length
set -euo pipefail
ROWS=${1:-10000000}
QUERIES=1000
SECS=${NDD_BENCH_SECONDS:-10}
ROUNDS=${NDD_SORTED_ROUNDS:-2}
source "$(dirname "$0")/lib.sh"
BEFORE=${NDD_SORTED_BEFORE:?the "before" build of ndd.so}
CPU=${NDD_BENCH_CPU:-1}
[ "$($PSQL -c "SELECT obj_description(to_regclass('bench'), 'pg_class')")" = "$ROWS" ] ||
	{ echo "no table bench of $ROWS rows: run NDD_BENCH_DATA_ONLY=1 bench/index_bench.sh $ROWS first" >&2; exit 1; }
LIBDIR=$("$NDD_PGBIN/pg_config" --pkglibdir)
AFTER=$(mktemp -d)/ndd.so
cp "$LIBDIR/ndd.so" "$AFTER"
# the file a new backend loads: replaced whole (a rename), never rewritten under a reader
use_lib() { cp "$1" "$LIBDIR/ndd.so.new" && mv "$LIBDIR/ndd.so.new" "$LIBDIR/ndd.so"; }
trap 'use_lib "$AFTER"' EXIT
ndd_bench_machine
echo "before: $BEFORE ($(md5sum <"$BEFORE" | cut -c1-8)), after: the installed build ($(md5sum <"$AFTER" | cut -c1-8)); rows $ROWS, index WITH (${NDD_SORTED_WITH:-})"
ndd_bench_server_ms_function
[ -n "${NDD_PGDATA:-}" ] && taskset -a -p -c "$CPU" "$(head -1 "$NDD_PGDATA/postmaster.pid")" >/dev/null
printf '%-6s %-7s %8s %8s %10s %8s %11s %11s %8s %10s %10s\n' round build build_s size_MB radius answers client_med client_p95 srv_med pages/q entries/q
for round in $(seq 1 "$ROUNDS"); do
	for which in before after; do
		lib=$BEFORE; [ $which = after ] && lib=$AFTER
		use_lib "$lib"
		$PSQL -c "DROP INDEX IF EXISTS bench_ndd"
		t0=$(date +%s.%N)
		$PSQL -c "CREATE INDEX bench_ndd ON bench USING ndd (fp)${NDD_SORTED_WITH:+ WITH ($NDD_SORTED_WITH)}"
		build_s=$(echo "$(date +%s.%N) - $t0" | bc)
		size=$($PSQL -c "SELECT pg_relation_size('bench_ndd') / 1048576")
		$PSQL -c "ANALYZE bench"
		for r in 3 8; do
			q="SELECT id FROM bench WHERE fp <~> (SELECT q FROM queries WHERE qid = :i)::simhash64 <= $r"
			# every query once, with the scan's report: rows found, pages and entries per query
			read -r answers pages entries < <(ndd_bench_scan_report "$q" $QUERIES)
			read -r med p95 < <(ndd_bench_client_ms "$q" $QUERIES "$SECS" "$CPU")
			smed=$(taskset -c "$CPU" $PSQL -c "SELECT round(med::numeric, 3) FROM bench_server_ms(\$q\$$q\$q\$, $QUERIES)")
			printf '%-6s %-7s %8.1f %8s %10s %8s %11s %11s %8s %10s %10s\n' "$round" "$which" "$build_s" "$size" "$r" "$answers" "$med" "$p95" "$smed" "$pages" "$entries"
		done
	done
done
[ -n "${NDD_PGDATA:-}" ] && taskset -a -p -c 0-$(($(nproc) - 1)) "$(head -1 "$NDD_PGDATA/postmaster.pid")" >/dev/null
$PSQL -c "DROP INDEX IF EXISTS bench_ndd"
