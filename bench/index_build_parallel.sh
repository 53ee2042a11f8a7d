#!/usr/bin/env bash
# bench/index_build_parallel.sh: build time of USING ndd serially and with 2 parallel workers,
# against the plain btree on the same bigint (serially and with 2 workers), alternated in rounds
# on the same rows (random 64-bit fingerprints, first 64 bits of md5), medians per method. Each
# ndd build prints its phases (DEBUG1: scan and spool, counts, pages). Not a test: asserts nothing.
#
#   bench/index_build_parallel.sh [rows] [rounds]   default 10000000 rows, 3 rounds; needs a running
#                                      server (PG* variables) with ndd installed, or
#                                      NDD_BENCH_CLUSTER=1 to start one (maintenance_work_mem 1GB,
#                                      as bench/index_bench.sh)
#   NDD_BENCH_KEEP_TABLE=1             reuse the table bench_build if it has the rows already
#   NDD_BUILD_BEFORE=path/ndd.so       also time the ndd builds of that build of the library
#                                      (another commit's `make` output, same on-disk format),
#                                      alternating with the installed one in every round
#                                      ("before_" methods); each psql call is a new backend, which
#                                      loads the file in place
#   NDD_BENCH_METHODS="..."            the methods to run, of ndd_serial ndd_2workers
#                                      before_serial before_2workers btree_serial btree_2workers
set -euo pipefail
ROWS=${1:-10000000}
ROUNDS=${2:-3}
BEFORE=${NDD_BUILD_BEFORE:-}
source "$(dirname "$0")/lib.sh"
if [ "${NDD_BENCH_CLUSTER:-0}" = 1 ]; then
	ndd_bench_cluster "shared_buffers=1GB" "max_wal_size=8GB" "maintenance_work_mem=1GB"
fi
ndd_bench_machine "$ROWS rows, $ROUNDS rounds"
$PSQL -c "CREATE EXTENSION IF NOT EXISTS ndd"
have=$($PSQL -c "SELECT count(*) FROM pg_class WHERE relname = 'bench_build'")
if [ "${NDD_BENCH_KEEP_TABLE:-0}" != 1 ] || [ "$have" = 0 ] ||
	[ "$($PSQL -c "SELECT count(*) FROM bench_build")" != "$ROWS" ]; then
	ndd_log "data: $ROWS rows"
	$PSQL <<SQL
DROP TABLE IF EXISTS bench_build;
CREATE TABLE bench_build (id bigint, fpb bigint, fp simhash64);
INSERT INTO bench_build SELECT g, h, h::simhash64
FROM (SELECT g, ('x' || md5(g::text))::bit(64)::bigint AS h FROM generate_series(1::bigint, $ROWS) g) s;
VACUUM ANALYZE bench_build;
SQL
fi
$PSQL -c "ALTER TABLE bench_build SET (parallel_workers = 2)"
echo "table: $($PSQL -c "SELECT pg_size_pretty(pg_relation_size('bench_build'))"); $($PSQL -c "SHOW maintenance_work_mem") of maintenance_work_mem"

# one build: prints "method seconds size" and, for ndd, its phases
build() {
	local method=$1 workers=$2 using=$3 col=$4 out secs
	out=$(psql -X -q -v ON_ERROR_STOP=1 2>&1 <<SQL
SET max_parallel_maintenance_workers = $workers;
SET min_parallel_table_scan_size = 0;
SET client_min_messages = debug1;
\timing on
CREATE INDEX bench_build_idx ON bench_build USING $using ($col);
SQL
)
	# a failed build says why (its index is then missing below)
	grep '^ERROR' <<<"$out" | sed "s/^/    $method: /" >&2 || true
	secs=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' <<<"$out" | tail -1)
	secs=$(awk -v ms="$secs" 'BEGIN { printf "%.2f", ms / 1000 }')
	echo "$method $secs $($PSQL -c "SELECT pg_relation_size('bench_build_idx')")"
	# with a build to compare: the digest of the index's pages past their LSN and checksum (the
	# two builds must write the same pages)
	if [ -n "$BEFORE" ] && [ "$using" = ndd ]; then
		echo "    pages digest $($PSQL -c "CREATE EXTENSION IF NOT EXISTS pageinspect" -c "
			SELECT md5(string_agg(md5(substr(get_raw_page('bench_build_idx', b::int), 11)), '' ORDER BY b))
			FROM generate_series(0, pg_relation_size('bench_build_idx') / current_setting('block_size')::int - 1) b")"
	fi
	grep -o 'ndd build of .*' <<<"$out" | sed 's/^/    /' || true
	grep -o 'building index .* with request for .*' <<<"$out" | sed 's/^/    /' || true
	$PSQL -c "DROP INDEX bench_build_idx; CHECKPOINT"
}

results=$(mktemp)
LIBDIR=$("${NDD_PGBIN:+$NDD_PGBIN/}pg_config" --pkglibdir)
AFTER=$(mktemp -d)/ndd.so  # a new file keeps the library's mode (mktemp's own file is 0600)
cp "$LIBDIR/ndd.so" "$AFTER"
# the file a new backend loads: replaced whole (a rename), never rewritten under a reader
use_lib() { cp "$1" "$LIBDIR/ndd.so.new" && mv "$LIBDIR/ndd.so.new" "$LIBDIR/ndd.so"; }
trap 'use_lib "$AFTER"; rm -rf "$results" "$(dirname "$AFTER")"; [ "${NDD_BENCH_CLUSTER:-0}" = 1 ] && ndd_stop_cluster' EXIT
methods=${NDD_BENCH_METHODS:-ndd_serial ndd_2workers btree_serial btree_2workers}
if [ -n "$BEFORE" ]; then
	echo "before: $BEFORE ($(md5sum <"$BEFORE" | cut -c1-8)), after: the installed build ($(md5sum <"$AFTER" | cut -c1-8))"
	methods=${NDD_BENCH_METHODS:-before_serial ndd_serial before_2workers ndd_2workers btree_serial btree_2workers}
fi
for r in $(seq 1 "$ROUNDS"); do
	echo "round $r (load $(cut -d' ' -f1-3 /proc/loadavg))"
	for name in $methods; do
		case $name in
			ndd_serial | before_serial) m="$name 0 ndd fp" ;;
			ndd_2workers | before_2workers) m="$name 2 ndd fp" ;;
			btree_serial) m="$name 0 btree fpb" ;;
			btree_2workers) m="$name 2 btree fpb" ;;
			*) echo "unknown method $name" >&2; exit 1 ;;
		esac
		case $name in before_*) use_lib "$BEFORE" ;; *) use_lib "$AFTER" ;; esac
		# shellcheck disable=SC2086
		line=$(build $m)
		echo "  $line"
		head -1 <<<"$line" >>"$results"
	done
done
echo "medians over $ROUNDS rounds (seconds, index MB):"
for m in $(cut -d' ' -f1 "$results" | sort -u); do
	times=$(awk -v m="$m" '$1 == m { print $2 }' "$results" | sort -n)
	n=$(wc -l <<<"$times")
	med=$(awk -v n="$n" '{ v[NR] = $1 } END { print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' <<<"$times")
	mb=$(awk -v m="$m" '$1 == m { x = $3 } END { printf "%.0f", x / 1048576 }' "$results")
	printf "  %-15s %8s s  %6s MB  (%s)\n" "$m" "$med" "$mb" "$(awk -v m="$m" '$1 == m { printf "%s ", $2 }' "$results")"
done
