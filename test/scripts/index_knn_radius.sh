#!/usr/bin/env bash
# Script test: KNN (ORDER BY fp <~> q LIMIT n) and large radii (fp <~> q <= r well above the
# layout radius) through the ndd index equal a sequential scan (+ sort) exactly, for random queries
# (no near neighbour: the widening probe stages and the final pass over table 0 answer them) and
# planted ones (near-duplicates exist: the first stage answers), simhash64 and fp128, on indexes
# built on the full table and grown by inserts into an index made on the empty table.
# 200k rows: enough primary pages per table that KNN goes through several probe stages before
# its pass over table 0 (README.index.md, "Scans").
# Needs PGHOST/PGPORT/PGUSER/PGDATABASE of a throwaway cluster with ndd installed.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
fail=0
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
SET client_min_messages = warning;
DROP TABLE IF EXISTS kr64, kr128, kr64g, kr128g, krq64, krq128 CASCADE;
CREATE TABLE kr64 (id int, fp simhash64);
INSERT INTO kr64 SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 200000) g;
-- planted: 1..2-bit copies of every 1000th row
INSERT INTO kr64 SELECT 300000 + id, (fp::bigint # (1::bigint << (id % 64)) # (1::bigint << ((id * 5) % 64)))::simhash64
FROM kr64 WHERE id % 1000 = 0;
INSERT INTO kr64 SELECT -g, NULL FROM generate_series(1, 5) g;
CREATE TABLE kr128 (id int, fp fp128);
INSERT INTO kr128 SELECT g, ('x' || md5(g::text) || md5('b' || g))::bit(128)::fp128 FROM generate_series(1, 200000) g;
INSERT INTO kr128 SELECT 300000 + id,
	(fp::bit(128) # ('x' || lpad(to_hex(1::bigint << (id % 60)), 16, '0') || lpad(to_hex(1::bigint << ((id * 7) % 60)), 16, '0'))::bit(128))::fp128
FROM kr128 WHERE id % 1000 = 0;
CREATE INDEX kr64_fp ON kr64 USING ndd (fp);
CREATE INDEX kr128_fp ON kr128 USING ndd (fp);
CREATE TABLE kr64g (LIKE kr64);
CREATE INDEX kr64g_fp ON kr64g USING ndd (fp);
INSERT INTO kr64g SELECT * FROM kr64 ORDER BY id;
CREATE TABLE kr128g (LIKE kr128);
CREATE INDEX kr128g_fp ON kr128g USING ndd (fp);
INSERT INTO kr128g SELECT * FROM kr128 ORDER BY id;
-- queries: 6 random fingerprints not in the table, 6 planted originals
CREATE TABLE krq64 (qid int, kind text, q simhash64);
INSERT INTO krq64 SELECT g, 'random', ('x' || md5('q' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 6) g;
INSERT INTO krq64 SELECT 100 + id / 1000, 'planted', fp FROM kr64 WHERE id % 1000 = 0 AND id <= 6000;
CREATE TABLE krq128 (qid int, kind text, q fp128);
INSERT INTO krq128 SELECT g, 'random', ('x' || md5('q' || g) || md5('r' || g))::bit(128)::fp128 FROM generate_series(1, 6) g;
INSERT INTO krq128 SELECT 100 + id / 1000, 'planted', fp FROM kr128 WHERE id % 1000 = 0 AND id <= 6000;
ANALYZE kr64; ANALYZE kr128; ANALYZE kr64g; ANALYZE kr128g;
SQL

# $1 table, $2 query table, $3 SQL of one lateral subquery over q.q, $4 label: the index's answer
# against a sequential scan's, as (qid, column...) multisets
compare() { ndd_index_equals_seqscan "$4" "${1}_fp" "SELECT q.qid, d.* FROM $2 q, LATERAL ($3) d" || fail=1; }

for tab in kr64 kr64g kr128 kr128g; do
	qt=krq${tab:2:3}; qt=${qt%g}
	[ "${tab#kr128}" != "$tab" ] && radii="12 18 24" || radii="8 12 16"
	$PSQL -c "SELECT ndd_index_check('${tab}_fp')" >/dev/null
	for n in 10 100 3000; do
		# distances in order, and the rows strictly nearer than the n-th (ties at the n-th are arbitrary)
		compare "$tab" "$qt" "SELECT row_number() OVER () AS rank, dist FROM (SELECT fp <~> q.q AS dist FROM $tab ORDER BY fp <~> q.q LIMIT $n) s" "$tab KNN LIMIT $n distances"
		compare "$tab" "$qt" "SELECT id FROM (SELECT id, fp <~> q.q AS dist, max(fp <~> q.q) OVER () AS m FROM
			(SELECT id, fp FROM $tab ORDER BY fp <~> q.q LIMIT $n) s) t WHERE dist < m" "$tab KNN LIMIT $n rows"
	done
	for r in $radii; do
		compare "$tab" "$qt" "SELECT id FROM $tab WHERE fp <~> q.q <= $r" "$tab radius $r"
	done
done
# a KNN scan read to the end returns every row once, NULL rows last (several passes, every stage)
bad=$($PSQL -c "SET enable_seqscan = off; SELECT count(*) - count(DISTINCT id) + abs(count(*) - (SELECT count(*) FROM kr64g))
	+ count(*) FILTER (WHERE fp IS NULL AND n <= (SELECT count(fp) FROM kr64g))
	FROM (SELECT row_number() OVER () n, id, fp FROM (SELECT id, fp FROM kr64g ORDER BY fp <~> (SELECT q FROM krq64 WHERE qid = 1)) s) t")
if [ "$bad" = 0 ]; then echo "ok   kr64g KNN to the end: every row once, NULL rows last"; else echo "FAIL kr64g KNN to the end: $bad"; fail=1; fi
$PSQL -c "DROP TABLE kr64, kr128, kr64g, kr128g, krq64, krq128"
exit $fail
