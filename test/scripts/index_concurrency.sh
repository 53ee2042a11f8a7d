#!/usr/bin/env bash
# Script test: several sessions insert, update, delete and search an ndd-indexed table at once
# (pgbench), with VACUUM running meanwhile; afterwards the index agrees with the heap and with a
# sequential scan. Every transaction also inserts ten exact copies of one of 5 rows, so the writers
# and VACUUM meet on long chains of one key in every table.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
DROP TABLE IF EXISTS cc;
CREATE TABLE cc (id serial PRIMARY KEY, fp simhash64);
-- made on the empty table, so the writers below also expand and migrate its map while others search
CREATE INDEX cc_fp ON cc USING ndd (fp);
INSERT INTO cc (fp) SELECT ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
SQL
d=$(mktemp -d)
cat >"$d/write.sql" <<'SQL'
\set r random(1, 1000000000)
INSERT INTO cc (fp) VALUES (('x' || md5(:r::text))::bit(64)::bigint::simhash64);
INSERT INTO cc (fp) SELECT (fp::bigint # 3)::simhash64 FROM cc WHERE id = :r % 20000 + 1;
INSERT INTO cc (fp) SELECT ('x' || md5((:r % 5 + 1)::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 10);
UPDATE cc SET fp = (fp::bigint # 16)::simhash64 WHERE id = :r % 25000 + 1;
DELETE FROM cc WHERE id = (:r / 7) % 25000 + 1;
SELECT count(*) FROM cc WHERE fp <~> ('x' || md5((:r % 20000)::text))::bit(64)::bigint::simhash64 <= 3;
SQL
before=$($PSQL -c "SELECT ndd_index_check('cc_fp')")
echo "before the writers: $before"
( for i in 1 2 3; do sleep 3; $PSQL -c "VACUUM cc"; done ) &
pgbench -n -c 4 -j 2 -T 12 -f "$d/write.sql" >"$d/out" 2>&1 || { cat "$d/out"; echo "FAIL: pgbench"; exit 1; }
wait
grep -E "number of transactions actually processed|number of failed" "$d/out" || true
rm -rf "$d"
$PSQL -c "VACUUM cc"
check=$($PSQL -c "SELECT ndd_index_check('cc_fp')") || { echo "FAIL: ndd_index_check after concurrent writers"; exit 1; }
echo "$check"
ndd_index_equals_seqscan "after concurrent writers: radius 4 around every 200th row and the copied ones" cc_fp \
	"SELECT q.id AS qid, d.id FROM cc q, LATERAL (SELECT id FROM cc WHERE fp <~> q.fp <= 4) d WHERE q.id % 200 = 0 OR q.id <= 5" || exit 1
echo "ok   concurrent writers: index consistent with the heap and with a sequential scan"
$PSQL -c "DROP TABLE cc"
