#!/usr/bin/env bash
# Batch all-pairs is exact at scale: on 1M random simhash64 rows with planted near-duplicates
# (1% of rows copy an earlier row with 1-3 flipped bits, some in chains), ndd_pairs(k = 3) returns
# exactly the pairs, with their distances, that an independent method finds: a self-join on each of
# the four 16-bit blocks with a bit_count recheck, which by pigeonhole (3 differing bits leave one
# of four blocks equal) finds every pair within 3 bits, using nothing of ndd but the cast to bigint.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -euo pipefail
N=${NDD_BATCH_ROWS:-1000000}
db=ndd_batch_exact
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -X -q -d postgres -c "DROP DATABASE IF EXISTS '$db'" >/dev/null 2>&1 || true' EXIT

psql -X -v ON_ERROR_STOP=1 -d $db <<SQL
\set QUIET on
CREATE EXTENSION ndd;
SET work_mem = '256MB';
SET max_parallel_workers_per_gather = 0;
CREATE TABLE docs (id bigint, fp simhash64);
INSERT INTO docs
  SELECT i, ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint::simhash64
  FROM generate_series(1, $N * 99 / 100) AS i;
-- planted near-duplicates: 0.7% copies of random original rows, then 0.3% copies of those copies
-- (chains), each with 1 to 3 flipped bits
SELECT setseed(0.42) \gset
CREATE FUNCTION flip(fp simhash64) RETURNS simhash64 LANGUAGE sql VOLATILE AS \$\$
  SELECT (fp::bigint
          # (1::bigint << (floor(random() * 64))::int)
          # (CASE WHEN random() < 0.6 THEN 1::bigint << (floor(random() * 64))::int ELSE 0 END)
          # (CASE WHEN random() < 0.3 THEN 1::bigint << (floor(random() * 64))::int ELSE 0 END))::simhash64
\$\$;
CREATE TABLE plant AS
  SELECT $N * 99 / 100 + j AS id, 1 + floor(random() * ($N * 99 / 100))::bigint AS src
  FROM generate_series(1, $N * 7 / 1000) AS j;
INSERT INTO docs SELECT p.id, flip(d.fp) FROM plant p JOIN docs d ON d.id = p.src;
CREATE TABLE plant2 AS
  SELECT $N * 99 / 100 + $N * 7 / 1000 + j AS id, $N * 99 / 100 + 1 + floor(random() * ($N * 7 / 1000))::bigint AS src
  FROM generate_series(1, $N - $N * 99 / 100 - $N * 7 / 1000) AS j;
INSERT INTO docs SELECT p.id, flip(d.fp) FROM plant2 p JOIN docs d ON d.id = p.src;
CREATE INDEX ON docs (id);
ANALYZE docs;
\set QUIET off
\timing on
CREATE TABLE batch AS SELECT a, b, distance FROM ndd_pairs('SELECT id, fp FROM docs', 3);
\timing off
CREATE TABLE blocks AS
  SELECT id, fp::bigint::bit(64) AS bits,
         (fp::bigint >> 48) & 65535 AS b0, (fp::bigint >> 32) & 65535 AS b1,
         (fp::bigint >> 16) & 65535 AS b2, fp::bigint & 65535 AS b3
  FROM docs;
\timing on
CREATE TABLE brute AS
  SELECT x.id AS a, y.id AS b, bit_count(x.bits # y.bits)::int AS distance FROM blocks x JOIN blocks y ON x.b0 = y.b0
    WHERE x.id < y.id AND bit_count(x.bits # y.bits) <= 3
  UNION
  SELECT x.id, y.id, bit_count(x.bits # y.bits)::int FROM blocks x JOIN blocks y ON x.b1 = y.b1
    WHERE x.id < y.id AND bit_count(x.bits # y.bits) <= 3
  UNION
  SELECT x.id, y.id, bit_count(x.bits # y.bits)::int FROM blocks x JOIN blocks y ON x.b2 = y.b2
    WHERE x.id < y.id AND bit_count(x.bits # y.bits) <= 3
  UNION
  SELECT x.id, y.id, bit_count(x.bits # y.bits)::int FROM blocks x JOIN blocks y ON x.b3 = y.b3
    WHERE x.id < y.id AND bit_count(x.bits # y.bits) <= 3;
\timing off
SELECT (SELECT count(*) FROM docs) AS rows, (SELECT count(*) FROM batch) AS batch_pairs,
       (SELECT count(*) FROM brute) AS brute_force_pairs,
       (SELECT count(*) FROM (SELECT * FROM batch EXCEPT ALL SELECT * FROM brute) d) AS only_batch,
       (SELECT count(*) FROM (SELECT * FROM brute EXCEPT ALL SELECT * FROM batch) d) AS only_brute
\gset
\echo rows :rows, ndd_pairs :batch_pairs, brute force :brute_force_pairs, only in ndd_pairs :only_batch, only in brute force :only_brute
SELECT :only_batch = 0 AND :only_brute = 0 AND :batch_pairs >= $N / 100 AS exact \gset
\if :exact
\echo batch_pairs_exact: ok
\else
\echo batch_pairs_exact: MISMATCH
SELECT 'only in ndd_pairs' AS side, * FROM (SELECT * FROM batch EXCEPT ALL SELECT * FROM brute) d LIMIT 10;
SELECT 'only in brute force' AS side, * FROM (SELECT * FROM brute EXCEPT ALL SELECT * FROM batch) d LIMIT 10;
\quit 1
\endif
SQL
