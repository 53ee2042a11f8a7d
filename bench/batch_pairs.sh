#!/usr/bin/env bash
# bench/batch_pairs.sh: all near-duplicate pairs of a collection (k = 3) in one ndd_pairs() call
# versus one index probe per row, on N random simhash64 rows with 1% planted near-duplicates
# (copies of random rows with 1-3 flipped bits), in one run on the same data.
#
#   bench/batch_pairs.sh [N ...]          default: 1000000 10000000
#   NDD_PROBE_SAMPLE=100000               rows probed one by one (all rows when N is smaller);
#                                         the per-row time is extrapolated to N and said so
#   NDD_NO_INSTALL=1                      use the installed extension as it is
#
# The per-row probe uses the ndd index when the access method exists (USING ndd, k = 3), and
# Manku's 4-block emulation on stock btrees otherwise (an expression index per 16-bit block, an OR
# of equalities, a bit_count recheck). Prints seconds and the ratio. A benchmark: no thresholds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || set -- 1000000 10000000
SAMPLE=${NDD_PROBE_SAMPLE:-100000}

ndd_bench_cluster "work_mem=256MB" "maintenance_work_mem=1GB" "max_parallel_workers_per_gather=0" \
	"checkpoint_timeout=30min" "max_wal_size=20GB"
ndd_bench_machine

for N in "$@"; do
	S=$((N < SAMPLE ? N : SAMPLE))
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
	psql -X -q -v ON_ERROR_STOP=1 -d bench <<SQL
CREATE EXTENSION ndd;
CREATE TABLE docs (id bigint, fp simhash64);
INSERT INTO docs
  SELECT i, ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint::simhash64
  FROM generate_series(1, $N * 99 / 100) AS i;
SELECT setseed(0.17) \gset
INSERT INTO docs
  SELECT $N * 99 / 100 + j, (d.fp::bigint
          # (1::bigint << (floor(random() * 64))::int)
          # (CASE WHEN random() < 0.6 THEN 1::bigint << (floor(random() * 64))::int ELSE 0 END)
          # (CASE WHEN random() < 0.3 THEN 1::bigint << (floor(random() * 64))::int ELSE 0 END))::simhash64
  FROM (SELECT j, 1 + floor(random() * ($N * 99 / 100))::bigint AS src
        FROM generate_series(1, $N - $N * 99 / 100) AS j) p
  JOIN docs d ON d.id = p.src;
VACUUM ANALYZE docs;
SQL
	have_ndd=$(psql -X -A -t -d bench -c "SELECT count(*) FROM pg_am WHERE amname = 'ndd'")
	if [ "$have_ndd" = 1 ]; then
		method="ndd index (USING ndd)"
		index_sql="CREATE INDEX docs_fp_ndd ON docs USING ndd (fp);"
		probe_sql="SELECT y.id FROM docs y WHERE y.fp <~> s.fp <= 3 AND y.id <> s.id"
	else
		method="4-block btree emulation"
		index_sql="CREATE INDEX ON docs (((fp::bigint >> 48) & 65535));
CREATE INDEX ON docs (((fp::bigint >> 32) & 65535));
CREATE INDEX ON docs (((fp::bigint >> 16) & 65535));
CREATE INDEX ON docs ((fp::bigint & 65535));"
		probe_sql="SELECT y.id FROM docs y
  WHERE (((y.fp::bigint >> 48) & 65535) = ((s.fp::bigint >> 48) & 65535)
      OR ((y.fp::bigint >> 32) & 65535) = ((s.fp::bigint >> 32) & 65535)
      OR ((y.fp::bigint >> 16) & 65535) = ((s.fp::bigint >> 16) & 65535)
      OR (y.fp::bigint & 65535) = (s.fp::bigint & 65535))
    AND bit_count((y.fp::bigint # s.fp::bigint)::bit(64)) <= 3 AND y.id <> s.id"
	fi
	out=$(psql -X -q -A -t -v ON_ERROR_STOP=1 -d bench <<SQL
$index_sql
ANALYZE docs;
CREATE TABLE sample AS SELECT id, fp FROM docs WHERE id % ($N / $S) = 0 LIMIT $S;
ANALYZE sample;
-- warm the cache for both contenders
SELECT count(*) FROM docs \gset warm_
CREATE FUNCTION now_s() RETURNS float8 LANGUAGE sql VOLATILE AS 'SELECT extract(epoch FROM clock_timestamp())';
SELECT now_s() AS t0 \gset
SELECT count(*) AS batch_pairs FROM ndd_pairs('SELECT id, fp FROM docs', 3) \gset
SELECT now_s() - :t0 AS batch_s \gset
SELECT now_s() AS t0 \gset
SELECT count(*) / 2 + count(*) % 2 AS probe_hits, count(DISTINCT s.id) AS probed
  FROM sample s CROSS JOIN LATERAL ($probe_sql) p \gset
SELECT now_s() - :t0 AS probe_s \gset
SELECT (SELECT count(*) FROM sample) AS sampled \gset
SELECT format('%s|%s|%s|%s|%s', :batch_pairs, round(:batch_s::numeric, 2), :sampled,
              round(:probe_s::numeric, 2), round((:probe_s * $N / :sampled)::numeric, 1));
SQL
)
	IFS='|' read -r pairs batch_s sampled probe_s probe_all_s <<<"$(tail -1 <<<"$out")"
	ratio=$(python3 -c "print(round($probe_all_s / $batch_s, 1))")
	note="measured"
	[ "$sampled" -lt "$N" ] && note="extrapolated from $sampled probed rows (${probe_s} s)"
	printf 'rows %s: ndd_pairs(k=3) %s s, %s pairs | one probe per row, %s: %s s (%s) | ratio %sx\n' \
		"$N" "$batch_s" "$pairs" "$method" "$probe_all_s" "$note" "$ratio"
done
