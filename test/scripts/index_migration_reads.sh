#!/usr/bin/env bash
# Script test: searches stay exact while the map expands and migrates under them (README.index.md,
# "Growth"). 2,000 stable rows are indexed by an index made on the empty table: 500 base
# fingerprints, each with three near copies 3 bits away whose bits differ in three of the four
# 16-bit blocks, so that each copy is found through one table only (a page a search misses would
# lose it, where rows found through several tables would hide the miss). One session then streams
# 60,000 more rows in small batches (the small map expands a dozen times, and every insert made
# during a migration moves one page, so pages move all the time), while four pgbench clients
# search the stable rows the three ways a scan reads the index (radius through an index scan,
# radius through a bitmap scan, KNN: the second nearest row's distance) and compare each answer
# with the one a sequential scan gave before the stream. A wrong answer divides by zero, which
# ends the client and fails pgbench. Afterwards: ndd_index_check, and the map must have expanded
# during the stream.
set -euo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
DROP TABLE IF EXISTS mr, mr_expect;
CREATE TABLE mr (id int, fp simhash64);
CREATE INDEX mr_fp ON mr USING ndd (fp);
-- stable rows: base b (id 4b) and its copies c = 1..3 (id 4b + c), which keep block (b + c) % 4
-- and flip one bit in each other block
WITH base AS (SELECT b, ('x' || md5(b::text))::bit(64)::bigint AS f FROM generate_series(1, 500) b)
INSERT INTO mr SELECT 4 * b + c, (f # (SELECT coalesce(bit_or(1::bigint << (16 * blk + (7 * b + 3 * c) % 16)), 0)
	FROM generate_series(0, 3) blk WHERE c > 0 AND blk <> (b + c) % 4))::simhash64
	FROM base, generate_series(0, 3) c;
-- what each search must answer, from a sequential scan
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE mr_expect AS SELECT q.id, q.fp,
	(SELECT count(*) FROM mr WHERE fp <~> q.fp <= 3) AS n3,
	(SELECT fp <~> q.fp FROM mr ORDER BY 1 LIMIT 1 OFFSET 1) AS d2
	FROM mr q;
ALTER TABLE mr_expect ADD PRIMARY KEY (id);
SQL
before=$($PSQL -c "SELECT ndd_index_check('mr_fp')")
echo "before the stream: $before"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# the stream: random fingerprints, never within 3 bits of a stable row in practice (and the
# searches count only stable rows anyway)
( for b in $(seq 0 199); do
	$PSQL -c "INSERT INTO mr SELECT 100000 + $b * 300 + g, ('x' || md5('stream' || ($b * 300 + g)))::bit(64)::bigint::simhash64 FROM generate_series(1, 300) g"
  done; touch "$d/done" ) &
stream=$!
cat >"$d/radius.sql" <<'SQL'
\set i random(4, 2003)
SELECT 1 / (e.n3 = (SELECT count(*) FROM mr WHERE fp <~> e.fp <= 3 AND mr.id < 100000))::int FROM mr_expect e WHERE e.id = :i;
SQL
cat >"$d/knn.sql" <<'SQL'
\set i random(4, 2003)
SELECT 1 / (e.d2 = (SELECT fp <~> e.fp FROM mr WHERE mr.id < 100000 ORDER BY fp <~> e.fp LIMIT 1 OFFSET 1))::int FROM mr_expect e WHERE e.id = :i;
SQL
# readers run until the stream is done (pgbench -T a little past its expected length, then the
# loop starts another round while it is not); JIT off: each search is a fraction of a millisecond
round=0
while [ ! -e "$d/done" ]; do
	round=$((round + 1))
	PGOPTIONS="-c jit=off -c enable_seqscan=off -c enable_bitmapscan=off" pgbench -n -c 2 -j 1 -T 5 -f "$d/radius.sql" >"$d/index.out" 2>&1 &
	a=$!
	PGOPTIONS="-c jit=off -c enable_seqscan=off -c enable_indexscan=off" pgbench -n -c 1 -j 1 -T 5 -f "$d/radius.sql" >"$d/bitmap.out" 2>&1 &
	b=$!
	PGOPTIONS="-c jit=off -c enable_seqscan=off -c enable_bitmapscan=off" pgbench -n -c 1 -j 1 -T 5 -f "$d/knn.sql" >"$d/knn.out" 2>&1 &
	c=$!
	for p in "$a:index" "$b:bitmap" "$c:knn"; do
		if ! wait "${p%%:*}" || grep -q "aborted\|division by zero" "$d/${p#*:}.out"; then
			cat "$d/${p#*:}.out"
			echo "FAIL: a ${p#*:} search during the stream gave a wrong answer (round $round)"
			kill "$stream" 2>/dev/null || true
			exit 1
		fi
	done
	echo "round $round: $(grep -h 'number of transactions actually processed' "$d/index.out" "$d/bitmap.out" "$d/knn.out" | awk '{s += $NF} END {print s}') searches, all exact"
done
wait "$stream"
after=$($PSQL -c "SELECT ndd_index_check('mr_fp')") || { echo "FAIL: ndd_index_check after the stream"; exit 1; }
echo "after the stream: $after"
g0=$(sed -n 's/.*map generation \([0-9]*\).*/\1/p' <<<"$before"); g0=${g0:-1}
g1=$(sed -n 's/.*map generation \([0-9]*\).*/\1/p' <<<"$after")
if [ -z "$g1" ] || [ "$g1" -le "$((g0 + 3))" ]; then
	echo "FAIL: the map did not expand several times during the stream (generation $g0 -> ${g1:-1})"
	exit 1
fi
echo "ok   searches exact through $((g1 - g0)) expansions and their migrations (index, bitmap and KNN scans)"
$PSQL -c "DROP TABLE mr, mr_expect"
