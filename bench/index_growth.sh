#!/usr/bin/env bash
# bench/index_growth.sh: an ndd index made on an empty table and then loaded (its map expands and
# migrates as the rows arrive) against one built on the loaded table, on the same rows in the same
# run: load time, map generation, size, and radius-3 latency (pgbench -M prepared, one client,
# median), then the grown
# index after REINDEX. A benchmark: no thresholds.
#
#   bench/index_growth.sh [rows]        default 1000000; starts its own throwaway cluster
#   NDD_NO_INSTALL=1                    use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-1000000}
ndd_bench_cluster "shared_buffers=1GB" "max_wal_size=4GB"
ndd_bench_machine

seconds() { # SQL: prints its wall time in seconds
	local t0 t1
	t0=$(date +%s.%N); $PSQL -c "$1" >/dev/null; t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
median_ms() { # table: median radius-3 latency of queries for random stored fingerprints
	local f d
	f=$(mktemp); d=$(mktemp -d)
	printf '\\set i random(1, %d)\nSELECT id FROM %s WHERE fp <~> (SELECT fp FROM %s WHERE id = :i) <= 3;\n' "$N" "$1" "$1" >"$f"
	(cd "$d" && pgbench -n -M prepared -f "$f" -T 2 >/dev/null 2>&1)
	(cd "$d" && pgbench -n -M prepared -f "$f" -T 10 -l --log-prefix=lat >/dev/null 2>&1)
	cat "$d"/lat* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int(NR*0.5)+1]}'
	rm -rf "$f" "$d"
}

$PSQL -c "CREATE EXTENSION ndd" -c "CREATE TABLE src AS SELECT g AS id, ('x' || md5(g::text))::bit(64)::bigint::simhash64 AS fp
	FROM generate_series(1, $N) g"
$PSQL -c "CREATE TABLE grown (id int PRIMARY KEY, fp simhash64)" -c "CREATE INDEX grown_fp ON grown USING ndd (fp)"
$PSQL -c "CREATE TABLE built (id int PRIMARY KEY, fp simhash64)"
load_grown=$(seconds "INSERT INTO grown SELECT * FROM src")
load_built=$(seconds "INSERT INTO built SELECT * FROM src")
build=$(seconds "CREATE INDEX built_fp ON built USING ndd (fp)")
$PSQL -c "VACUUM ANALYZE grown" -c "VACUUM ANALYZE built"

printf '%-44s %10s  %-26s %10s\n' "$N rows, k = 3" "load (s)" "index" "median ms"
printf '%-44s %10s  %-26s %10s\n' "index made empty, then INSERT (grows)" "$load_grown" "$(ndd_index_shape grown_fp)" "$(median_ms grown)"
printf '%-44s %10s  %-26s %10s\n' "INSERT, then CREATE INDEX ($build s)" "$load_built" "$(ndd_index_shape built_fp)" "$(median_ms built)"
reindex=$(seconds "REINDEX INDEX grown_fp")
printf '%-44s %10s  %-26s %10s\n' "the grown index after REINDEX ($reindex s)" "" "$(ndd_index_shape grown_fp)" "$(median_ms grown)"
