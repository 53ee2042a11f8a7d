#!/usr/bin/env bash
# bench/index_knn.sh: KNN (ORDER BY fp <~> q LIMIT 10) and radii (simhash64 <= 3 (the layout's), <= 8 and <= 16,
# fp128 <= 18) through USING ndd against a sequential scan (+ sort), on the same rows in the same
# run, for random queries (no near neighbour) and planted ones (an original whose 1..3-bit copies
# are in the table). Prints the median server execution time (EXPLAIN ANALYZE, TIMING OFF) over
# the queries and the ratio. Both sides are measured in memory: the table and its index are loaded
# into shared buffers (pg_prewarm) before each group of queries, since every random query reads
# other index pages and a cold page costs a read from the OS either way. A benchmark: no thresholds.
#
#   bench/index_knn.sh [rows]           default 1000000; starts its own throwaway cluster
#   NDD_NO_INSTALL=1                    use the installed extension as it is
#   NDD_KNN_QUERIES=n                   queries of each kind (default 20)
#   NDD_KNN_BEFORE=path/ndd.so          also time every index query with that build of the library
#                                       (same on-disk format: another commit's `make` output),
#                                       alternating with the installed one on the same rows: each
#                                       psql call is a new backend, which loads the file in place
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-1000000}
Q=${NDD_KNN_QUERIES:-20}
BEFORE=${NDD_KNN_BEFORE:-}
ndd_bench_cluster "shared_buffers=4GB" "max_wal_size=4GB" "maintenance_work_mem=512MB" "max_parallel_workers_per_gather=0"
ndd_bench_machine "$N rows, $Q queries of each kind"

$PSQL <<SQL
CREATE EXTENSION ndd;
CREATE EXTENSION pg_prewarm;
CREATE TABLE k64 (id int, fp simhash64);
INSERT INTO k64 SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, ($N * 99) / 100) g;
-- planted: 1..2-bit copies of every 97th row
INSERT INTO k64 SELECT ($N * 99) / 100 + g, (fp::bigint # (1::bigint << (g % 64)) # CASE WHEN g % 3 >= 1 THEN 1::bigint << ((g * 7 + 3) % 64) ELSE 0 END)::simhash64
FROM (SELECT id / 97 AS g, fp FROM k64 WHERE id % 97 = 0 AND id <= 97 * ($N / 100)) s;
CREATE TABLE k128 (id int, fp fp128);
INSERT INTO k128 SELECT g, ('x' || md5(g::text) || md5('b' || g))::bit(128)::fp128 FROM generate_series(1, ($N * 99) / 100) g;
INSERT INTO k128 SELECT ($N * 99) / 100 + g,
	(fp::bit(128) # ('x' || lpad(to_hex(1::bigint << (g % 60)), 16, '0') || lpad(to_hex(1::bigint << ((g * 7) % 60)), 16, '0'))::bit(128))::fp128
FROM (SELECT id / 97 AS g, fp FROM k128 WHERE id % 97 = 0 AND id <= 97 * ($N / 100)) s;
CREATE INDEX k64_fp ON k64 USING ndd (fp);
CREATE INDEX k128_fp ON k128 USING ndd (fp);
VACUUM ANALYZE k64; VACUUM ANALYZE k128;
CREATE TABLE q64 (kind text, i int, q simhash64);
INSERT INTO q64 SELECT 'random', g, ('x' || md5('q' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, $Q) g;
INSERT INTO q64 SELECT 'planted', id / 97, fp FROM k64 WHERE id % 97 = 0 AND id <= 97 * $Q;
CREATE TABLE q128 (kind text, i int, q fp128);
INSERT INTO q128 SELECT 'random', g, ('x' || md5('q' || g) || md5('r' || g))::bit(128)::fp128 FROM generate_series(1, $Q) g;
INSERT INTO q128 SELECT 'planted', id / 97, fp FROM k128 WHERE id % 97 = 0 AND id <= 97 * $Q;
-- median execution time of a query over the queries of one kind; :q stands for the query value
CREATE FUNCTION med_ms(sql text, qtab text, qkind text, seq bool) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE plan json; times float8[] := '{}'; qv text;
BEGIN
	IF seq THEN SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;
	ELSE SET LOCAL enable_seqscan = off; END IF;
	FOR qv IN EXECUTE format('SELECT q::text FROM %I WHERE kind = %L ORDER BY i', qtab, qkind) LOOP
		EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || replace(sql, ':q', quote_literal(qv)) INTO plan;
		times := times || (plan->0->>'Execution Time')::float8;
	END LOOP;
	RETURN (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(times) t);
END \$\$;
SQL
echo "index: $($PSQL -c "SELECT pg_size_pretty(pg_relation_size('k64_fp')) || ' (simhash64), ' || pg_size_pretty(pg_relation_size('k128_fp')) || ' (fp128)'")"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", b / a }'; }
if [ -n "$BEFORE" ]; then
	LIBDIR=$("$NDD_PGBIN/pg_config" --pkglibdir)
	AFTER=$(mktemp -d)/ndd.so
	cp "$LIBDIR/ndd.so" "$AFTER"
	# the file a new backend loads: replaced whole (a rename), never rewritten under a reader
	use_lib() { cp "$1" "$LIBDIR/ndd.so.new" && mv "$LIBDIR/ndd.so.new" "$LIBDIR/ndd.so"; }
	trap 'use_lib "$AFTER"; ndd_stop_cluster' EXIT
	echo "before: $BEFORE ($(md5sum <"$BEFORE" | cut -c1-8)), after: the installed build ($(md5sum <"$AFTER" | cut -c1-8))"
	printf '%-34s %-8s %12s %12s %12s %8s %8s\n' query kind ndd_ms before_ms scan_ms ratio before
else
	printf '%-34s %-8s %12s %12s %8s\n' query kind ndd_ms scan_ms ratio
fi
run() { # label, table, query table, type, SQL with :q
	local kind i b s
	$PSQL -c "SELECT pg_prewarm('$2') + pg_prewarm('${2}_fp')" >/dev/null
	for kind in random planted; do
		i=$($PSQL -c "SELECT round(med_ms(\$s\$$5\$s\$, '$3', '$kind', false)::numeric, 3)")
		if [ -n "$BEFORE" ]; then
			use_lib "$BEFORE"
			b=$($PSQL -c "SELECT round(med_ms(\$s\$$5\$s\$, '$3', '$kind', false)::numeric, 3)")
			use_lib "$AFTER"
		fi
		s=$($PSQL -c "SELECT round(med_ms(\$s\$$5\$s\$, '$3', '$kind', true)::numeric, 3)")
		if [ -n "$BEFORE" ]; then
			printf '%-34s %-8s %12s %12s %12s %8s %8s\n' "$1" "$kind" "$i" "$b" "$s" "$(ratio "$i" "$s")" "$(ratio "$b" "$s")"
		else
			printf '%-34s %-8s %12s %12s %8s\n' "$1" "$kind" "$i" "$s" "$(ratio "$i" "$s")"
		fi
	done
}
run "simhash64 KNN LIMIT 10" k64 q64 simhash64 "SELECT id FROM k64 ORDER BY fp <~> :q::simhash64 LIMIT 10"
run "simhash64 radius 3" k64 q64 simhash64 "SELECT id FROM k64 WHERE fp <~> :q::simhash64 <= 3"
run "simhash64 radius 8" k64 q64 simhash64 "SELECT id FROM k64 WHERE fp <~> :q::simhash64 <= 8"
run "simhash64 radius 16" k64 q64 simhash64 "SELECT id FROM k64 WHERE fp <~> :q::simhash64 <= 16"
run "fp128 KNN LIMIT 10" k128 q128 fp128 "SELECT id FROM k128 ORDER BY fp <~> :q::fp128 LIMIT 10"
run "fp128 radius 18" k128 q128 fp128 "SELECT id FROM k128 WHERE fp <~> :q::fp128 <= 18"
echo "plans (default settings): $($PSQL -c "EXPLAIN (COSTS OFF) SELECT id FROM k64 ORDER BY fp <~> '0123456789abcdef' LIMIT 10" | tr '\n' ' ')"
echo "                          $($PSQL -c "EXPLAIN (COSTS OFF) SELECT id FROM k64 WHERE fp <~> '0123456789abcdef' <= 16" | tr '\n' ' ')"
