#!/usr/bin/env bash
# bench/index_bench.sh: radius-3 lookups over random 64-bit fingerprints, side by side:
# sequential scan (bit_count), Manku's scheme emulated with stock btrees (4 blocks of 16 bits; 10
# tables of 2 of 5 blocks), and USING ndd. Prints build time, size, median and p95 latency
# (pgbench -M prepared, client and server pinned to one CPU: what an application sees), the median
# and p95 execution time inside the server (EXPLAIN ANALYZE of each query, no planning, no round
# trip: the work of the method itself) and recall against brute force.
# Not a test: it asserts nothing.
#
#   bench/index_bench.sh [rows]        default 1000000; needs a running server (PG* variables)
#                                      with ndd installed, or NDD_BENCH_CLUSTER=1 to start one
#                                      (which installs the extension first, unless NDD_NO_INSTALL=1)
#   NDD_BENCH_METHODS="..."            the indexed methods (default: btree_4block btree_10table ndd)
#   NDD_BENCH_RECALL_QUERIES=n         recall over n of the queries, half planted (default: all);
#                                      the brute-force answers cost one scan per query
#   NDD_BENCH_SEQ_QUERIES=n            sequential-scan queries timed inside the server (default 20)
#   NDD_BENCH_NDD_WITH="blocks = 4"    storage parameters of the ndd index (default: none)
#   NDD_BENCH_REUSE=1                  keep the table and plain btree of an earlier run on the same
#                                      server and database when they have [rows] rows (at 100M rows
#                                      their generation takes most of an hour); rebuild the indexes
#   NDD_BENCH_DATA_ONLY=1              stop after the data and the plain btree (for NDD_BENCH_REUSE)
set -euo pipefail
ROWS=${1:-1000000}
QUERIES=1000
CLIENT_SECONDS=${NDD_BENCH_SECONDS:-20}
METHODS=${NDD_BENCH_METHODS:-btree_4block btree_10table ndd}
RECALL_QUERIES=${NDD_BENCH_RECALL_QUERIES:-$QUERIES}
SEQ_QUERIES=${NDD_BENCH_SEQ_QUERIES:-20}
has() { [[ " $METHODS " == *" $1 "* ]]; }
source "$(dirname "$0")/lib.sh"
if [ "${NDD_BENCH_CLUSTER:-0}" = 1 ]; then
	ndd_bench_cluster "shared_buffers=4GB" "max_wal_size=8GB" "maintenance_work_mem=1GB" "work_mem=64MB"
fi
ndd_bench_machine
# its own psql: aligned output, unlike bench/lib.sh's
PSQL="psql -X -q -v ON_ERROR_STOP=1"
CPU=${NDD_BENCH_CPU:-1}

ndd_log "data: $ROWS rows, 1% planted near-duplicates, $QUERIES queries"
NBASE=$((ROWS * 99 / 100)) NPLANT=$((ROWS / 100))
reuse=0
# (the rows are the table's comment: ANALYZE leaves reltuples an estimate)
if [ "${NDD_BENCH_REUSE:-0}" = 1 ] && [ "$($PSQL -Atc "SELECT obj_description(to_regclass('bench'), 'pg_class')")" = "$ROWS" ] &&
	[ -n "$($PSQL -Atc "SELECT obj_description('bench_plain'::regclass)" 2>/dev/null)" ]; then
	reuse=1; ndd_log "reusing the table bench and its plain btree of an earlier run"
fi
[ $reuse = 1 ] || $PSQL <<SQL
DROP TABLE IF EXISTS bench, queries CASCADE;
CREATE EXTENSION IF NOT EXISTS ndd;
-- row g's fingerprint is the first 64 bits of md5(g); written once, in one pass (no UPDATE and no
-- VACUUM FULL: at 100M rows those would rewrite the table twice)
CREATE FUNCTION pg_temp.fpof(g bigint) RETURNS bigint IMMUTABLE LANGUAGE sql AS \$\$ SELECT ('x' || md5(g::text))::bit(64)::bigint \$\$;
CREATE TABLE bench (id bigint, fpb bigint, fp simhash64);
INSERT INTO bench SELECT g, h, h::simhash64
FROM (SELECT g, pg_temp.fpof(g) AS h FROM generate_series(1::bigint, $NBASE) g) s;
-- 1% planted: copies of random rows with 1..3 flipped bits
INSERT INTO bench SELECT $NBASE + g, h, h::simhash64
FROM (SELECT g, fpb # (1::bigint << (g % 64)::int) # CASE WHEN g % 3 >= 1 THEN 1::bigint << ((g * 7 + 3) % 64)::int ELSE 0 END
	    # CASE WHEN g % 3 = 2 THEN 1::bigint << ((g * 13 + 5) % 64)::int ELSE 0 END AS h
      FROM (SELECT g, pg_temp.fpof(1 + (g * 7919) % ($NBASE)) AS fpb
            FROM generate_series(1::bigint, $NPLANT) g) s) t;
-- half the queries are planted originals (their near-duplicates exist), half random
CREATE TABLE queries (qid int PRIMARY KEY, q bigint);
INSERT INTO queries SELECT g, pg_temp.fpof(1 + (g * 7919) % ($NBASE)) FROM generate_series(1, $QUERIES / 2) g;
INSERT INTO queries SELECT $QUERIES / 2 + g, ('x' || md5('q' || g))::bit(64)::bigint FROM generate_series(1, $QUERIES / 2) g;
VACUUM ANALYZE bench; VACUUM ANALYZE queries;
COMMENT ON TABLE bench IS '$ROWS';
SQL

# the 10-table emulation: 5 blocks (13,13,13,13,12 bits), one expression per pair of blocks
blk() { # block i of fpb as an SQL expression
	local start=(0 13 26 39 52) len=(13 13 13 13 12)
	echo "((fpb >> $((64 - ${start[$1]} - ${len[$1]}))) & $(((1 << ${len[$1]}) - 1)))"
}
pairs=() ; for a in 0 1 2 3 4; do for b in 0 1 2 3 4; do [ $a -lt $b ] && pairs+=("$a$b"); done; done
pair_expr() { local a=${1:0:1} b=${1:1:1} lb=$([ "${1:1:1}" = 4 ] && echo 12 || echo 13); echo "(($(blk $a) << $lb) | $(blk $b))"; }

timed() { # label, SQL: prints seconds
	local t0 t1
	t0=$(date +%s.%N); $PSQL -c "$2" >/dev/null; t1=$(date +%s.%N)
	printf '%.2f\n' "$(echo "$t1 - $t0" | bc)"
}
declare -A build size
if [ $reuse = 1 ]; then
	$PSQL -c "SET client_min_messages = warning; DROP INDEX IF EXISTS bench_ndd; $(for i in 0 1 2 3; do echo "DROP INDEX IF EXISTS bench_b4_$i;"; done)
		$(for p in "${pairs[@]}"; do echo "DROP INDEX IF EXISTS bench_b10_$p;"; done)"
	build[btree_bigint]=$($PSQL -Atc "SELECT obj_description('bench_plain'::regclass)")
else
	build[btree_bigint]=$(timed btree "CREATE INDEX bench_plain ON bench (fpb)")
	$PSQL -c "COMMENT ON INDEX bench_plain IS '${build[btree_bigint]}'"
fi
[ "${NDD_BENCH_DATA_ONLY:-0}" = 1 ] && exit 0
size[btree_bigint]=$($PSQL -Atc "SELECT pg_relation_size('bench_plain')")
s4=""; for i in 0 1 2 3; do s4+="CREATE INDEX bench_b4_$i ON bench (((fpb >> $((48 - 16 * i))) & 65535));"; done
has btree_4block && build[btree_4block]=$(timed b4 "$s4") &&
size[btree_4block]=$($PSQL -Atc "SELECT sum(pg_relation_size(oid)) FROM pg_class WHERE relname LIKE 'bench_b4_%'")
s10=""; for p in "${pairs[@]}"; do s10+="CREATE INDEX bench_b10_$p ON bench ($(pair_expr $p));"; done
has btree_10table && build[btree_10table]=$(timed b10 "$s10") &&
size[btree_10table]=$($PSQL -Atc "SELECT sum(pg_relation_size(oid)) FROM pg_class WHERE relname LIKE 'bench_b10_%'")
# the layout the build chose (its DEBUG1 line: blocks, tables, primary pages per table)
msgs=$(mktemp)
has ndd && build[ndd]=$(timed ndd "SET client_min_messages = debug1; CREATE INDEX bench_ndd ON bench USING ndd (fp)${NDD_BENCH_NDD_WITH:+ WITH ($NDD_BENCH_NDD_WITH)}" 2>"$msgs") &&
layout=$(grep -o 'ndd index "bench_ndd": k = .*' "$msgs") && echo "layout: $layout" &&
size[ndd]=$($PSQL -Atc "SELECT pg_relation_size('bench_ndd')")
$PSQL -c "ANALYZE bench"

# the queries, each reading its fingerprint by qid (the same btree lookup for every method)
Q='(SELECT q FROM queries WHERE qid = :i)'
declare -A sql
sql[seqscan]="SELECT id FROM bench WHERE bit_count((fpb # $Q)::bit(64)) <= 3"
w4=""; for i in 0 1 2 3; do e="((fpb >> $((48 - 16 * i))) & 65535)"; w4+="${w4:+ OR }$e = ((q >> $((48 - 16 * i))) & 65535)"; done
sql[btree_4block]="SELECT id FROM bench, (SELECT q FROM queries WHERE qid = :i) s WHERE ($w4) AND bit_count((fpb # q)::bit(64)) <= 3"
w10=""; for p in "${pairs[@]}"; do e=$(pair_expr $p); w10+="${w10:+ OR }$e = ${e//fpb/q}"; done
sql[btree_10table]="SELECT id FROM bench, (SELECT q FROM queries WHERE qid = :i) s WHERE ($w10) AND bit_count((fpb # q)::bit(64)) <= 3"
sql[ndd]="SELECT id FROM bench WHERE fp <~> $Q::simhash64 <= 3"

# brute force answers, then each method's answers for the same queries (every one, or
# RECALL_QUERIES of them spread evenly over planted and random ones): recall
RQ="(SELECT * FROM queries WHERE qid % ($QUERIES / $RECALL_QUERIES) = 0)"
$PSQL -c "DROP TABLE IF EXISTS truth; CREATE TABLE truth AS SELECT qid, id FROM $RQ qq, bench WHERE bit_count((fpb # q)::bit(64)) <= 3"
declare -A recall plan
for m in $METHODS; do
	one=${sql[$m]//:i/qq.qid}
	recall[$m]=$($PSQL -Atc "SET enable_seqscan = off; WITH got AS (SELECT qq.qid, r.id FROM $RQ qq, LATERAL ($one) r)
		SELECT round((SELECT count(*) FROM got JOIN truth USING (qid, id))::numeric / greatest(1, (SELECT count(*) FROM truth)), 4)
		       || CASE WHEN EXISTS (SELECT * FROM got EXCEPT SELECT * FROM truth) THEN ' (false positives!)' ELSE '' END")
done
recall[seqscan]=1

# latency: pgbench -M prepared, one client, pinned with the server to one CPU: new backends inherit
# the postmaster's CPU affinity, so pin the postmaster (needs its data directory, NDD_PGDATA)
if [ -n "${NDD_PGDATA:-}" ] && [ -f "$NDD_PGDATA/postmaster.pid" ]; then
	taskset -a -p -c "$CPU" "$(head -1 "$NDD_PGDATA/postmaster.pid")" >/dev/null
else
	ndd_log "NDD_PGDATA not set: the server is not pinned, latencies include cross-CPU round trips"
fi
# server-side execution time of query i of a method, from EXPLAIN ANALYZE (TIMING OFF: no per-node
# clock reads); the sequential scan runs on the first 20 queries only
ndd_bench_server_ms_function
printf '%-14s %10s %12s %12s %10s %10s %12s %12s %8s\n' method build_s size_MB size_vs_bt median_ms p95_ms server_med server_p95 recall
for m in seqscan $METHODS; do
	f=$(mktemp); printf '\\set i random(1, %d)\n%s;\n' "$QUERIES" "${sql[$m]}" >"$f"
	secs=$CLIENT_SECONDS; [ $m = seqscan ] && secs=$((CLIENT_SECONDS / 2 + 1))
	d=$(mktemp -d)
	# warm up, then measure
	( cd "$d" && taskset -c "$CPU" pgbench -n -M prepared -f "$f" -T 3 >/dev/null 2>&1 )
	( cd "$d" && taskset -c "$CPU" pgbench -n -M prepared -f "$f" -T "$secs" -l --log-prefix=lat >/dev/null 2>&1 )
	read -r med p95 < <(cat "$d"/lat* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.5)+1], a[int(NR*0.95)+1]}')
	n=$QUERIES; [ $m = seqscan ] && n=$SEQ_QUERIES
	IFS='|' read -r smed sp95 < <(taskset -c "$CPU" $PSQL -At \
		-c "SELECT round(med::numeric, 3), round(p95::numeric, 3) FROM bench_server_ms(\$q\$${sql[$m]}\$q\$, $n)")
	bsz=${size[$m]:-0}
	printf '%-14s %10s %12s %12s %10s %10s %12s %12s %8s\n' "$m" "${build[$m]:-—}" "$(( bsz / 1048576 ))" \
		"$( [ "$bsz" -gt 0 ] && echo "scale=2; $bsz / ${size[btree_bigint]}" | bc || echo —)" "$med" "$p95" "$smed" "$sp95" "${recall[$m]}"
	rm -rf "$d" "$f"
done
# ndd's work per query: the buffers its Bitmap Index Scan node reads (EXPLAIN (ANALYZE, BUFFERS),
# mean over the queries; a bitmap scan, so that no heap page counts), of which 4 are metapage reads
# every scan makes whatever its layout (5 buffers for one table at radius 0, 14 for ten); and the
# index pages read and entries checked (distance computed: the scan's candidates) as the scan
# itself reports them. Pages are sorted (README.index.md, "Sorted pages"): a probe checks only the
# run of entries its key prefix selects, far fewer than the page holds.
if has ndd; then
	read -r _ spages sentries < <(ndd_bench_scan_report "${sql[ndd]}" $QUERIES)
	$PSQL -At <<SQL
CREATE OR REPLACE FUNCTION pg_temp.index_pages(q text, n int) RETURNS float8 LANGUAGE plpgsql SET enable_indexscan = off AS \$\$
DECLARE plan jsonb; node jsonb; total float8 := 0;
BEGIN
	FOR i IN 1..n LOOP
		EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || replace(q, ':i', i::text) INTO plan;
		node := jsonb_path_query_first(plan, 'strict \$.**? (@."Index Name" == "bench_ndd")');
		total := total + (node->>'Shared Hit Blocks')::float8 + (node->>'Shared Read Blocks')::float8;
	END LOOP;
	RETURN total / n;
END \$\$;
SELECT format('ndd: %s index buffers read per query (mean over %s queries), so %s pages besides the metapage; the scan reports %s index pages read and %s entries checked per query (%s entries per primary page)',
	round(p::numeric, 2), $QUERIES, round((p - 4)::numeric, 2), '$spages', '$sentries', round(e::numeric))
FROM (SELECT pg_temp.index_pages(\$q\$${sql[ndd]}\$q\$, $QUERIES) AS p) a,
     (SELECT $ROWS::float8 / $(sed 's/.* \([0-9]*\) primary pages per table.*/\1/' <<<"$layout") AS e) b;
SQL
fi
[ -n "${NDD_PGDATA:-}" ] && taskset -a -p -c 0-$(($(nproc) - 1)) "$(head -1 "$NDD_PGDATA/postmaster.pid")" >/dev/null
echo "plain btree on the bigint column: $(( ${size[btree_bigint]} / 1048576 )) MB, built in ${build[btree_bigint]} s"
