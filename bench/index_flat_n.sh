#!/usr/bin/env bash
# bench/index_flat_n.sh: radius 3 at several table sizes, alternated in one run (issue 30, "radius 3
# flat in N"): for each round, for each database in turn (each holding the table bench, its queries
# and the index bench_ndd of `bench/index_bench.sh [rows]`), the radius-3 lookups of its 1000
# queries: client latency (pgbench -M prepared, client and server pinned to one CPU, as
# index_bench.sh), server execution time (EXPLAIN ANALYZE, TIMING OFF), the rows found over all
# queries, and the index pages read and entries checked per query as the scan reports them.
# Nothing is built: the indexes are the ones the databases hold. With NDD_FLAT_BEFORE, each round
# runs that build of the library ("before") and then the installed one ("after") on every database
# (the scan's code changes, the index does not). Not a test: it asserts nothing.
#
#   NDD_FLAT_DATABASES="b10m b100m" [NDD_FLAT_BEFORE=path/ndd.so] bench/index_flat_n.sh
#       needs a running server (PG* variables but PGDATABASE, NDD_PGDATA to pin it) with the
#       extension installed; NDD_FLAT_ROUNDS (default 2) the alternations, NDD_BENCH_SECONDS
#       (default 10) each pgbench run's length, NDD_FLAT_RADIUS (default 3) the queries' radius
set -euo pipefail
QUERIES=1000
SECS=${NDD_BENCH_SECONDS:-10}
ROUNDS=${NDD_FLAT_ROUNDS:-2}
DATABASES=${NDD_FLAT_DATABASES:?the databases to alternate}
source "$(dirname "$0")/lib.sh"
CPU=${NDD_BENCH_CPU:-1}
RADIUS=${NDD_FLAT_RADIUS:-3}
Q="SELECT id FROM bench WHERE fp <~> (SELECT q FROM queries WHERE qid = :i)::simhash64 <= $RADIUS"
LIBDIR=$("$NDD_PGBIN/pg_config" --pkglibdir)
BUILDS=installed
if [ -n "${NDD_FLAT_BEFORE:-}" ]; then
	BUILDS="before after"
	AFTER=$(mktemp -d)/ndd.so
	cp "$LIBDIR/ndd.so" "$AFTER"
	trap 'use_lib "$AFTER"' EXIT
fi
# the file a new backend loads: replaced whole (a rename), never rewritten under a reader
use_lib() { cp "$1" "$LIBDIR/ndd.so.new" && mv "$LIBDIR/ndd.so.new" "$LIBDIR/ndd.so"; }
ndd_bench_machine "radius $RADIUS"
[ -n "${NDD_FLAT_BEFORE:-}" ] && echo "before: $NDD_FLAT_BEFORE ($(md5sum <"$NDD_FLAT_BEFORE" | cut -c1-8)), after: the installed build ($(md5sum <"$AFTER" | cut -c1-8))"
for db in $DATABASES; do
	export PGDATABASE=$db
	ndd_bench_server_ms_function
	echo "$db: $($PSQL -c "SELECT obj_description('bench'::regclass, 'pg_class')") rows, index bench_ndd $($PSQL -c "SELECT pg_size_pretty(pg_relation_size('bench_ndd'))") (the layout: index_bench.sh's line)"
done
[ -n "${NDD_PGDATA:-}" ] && taskset -a -p -c "$CPU" "$(head -1 "$NDD_PGDATA/postmaster.pid")" >/dev/null
printf '%-6s %-9s %-10s %9s %11s %11s %9s %9s %9s %10s\n' round build database answers client_med client_p95 srv_med srv_p95 pages/q entries/q
for round in $(seq 1 "$ROUNDS"); do
	for build in $BUILDS; do
		case $build in before) use_lib "$NDD_FLAT_BEFORE" ;; after) use_lib "$AFTER" ;; esac
		for db in $DATABASES; do
			export PGDATABASE=$db
			read -r answers pages entries < <(ndd_bench_scan_report "$Q" $QUERIES)
			read -r med p95 < <(ndd_bench_client_ms "$Q" $QUERIES "$SECS" "$CPU")
			IFS='|' read -r smed sp95 < <(taskset -c "$CPU" $PSQL -c "SELECT round(med::numeric, 3), round(p95::numeric, 3) FROM bench_server_ms(\$q\$$Q\$q\$, $QUERIES)")
			printf '%-6s %-9s %-10s %9s %11s %11s %9s %9s %9s %10s\n' "$round" "$build" "$db" "$answers" "$med" "$p95" "$smed" "$sp95" "$pages" "$entries"
		done
	done
done
[ -n "${NDD_PGDATA:-}" ] && taskset -a -p -c 0-$(($(nproc) - 1)) "$(head -1 "$NDD_PGDATA/postmaster.pid")" >/dev/null
