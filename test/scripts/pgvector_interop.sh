#!/usr/bin/env bash
# Script test: pgvector's vector and halfvec columns through the documented casts (doc/reference.md,
# "Simhash of vectors"): simhash(v::real[]) and simhash128(...) of a vector(96) and a halfvec(96)
# column, ndd indexes on those expressions, and their radius and KNN answers equal to a sequential
# scan's (distances in order; the rows strictly nearer than the n-th), for planted near-duplicates
# (every 50th row is the previous one plus a little noise) and for rows without one; the halfvec
# casts ::real[] and ::vector::real[] give the same fingerprint; the exact cosine re-ranks.
# pgvector is optional (nothing of ndd needs it): the test installs it into the PostgreSQL under
# test from its source tarball when it is missing (ndd_pgvector_install in scripts/lib.sh), and
# exits 77 with the reason when it can do neither.
# Needs PGHOST/PGPORT/PGUSER/PGDATABASE of a throwaway cluster with ndd installed.
set -euo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
source "$(dirname "$0")/../../scripts/lib.sh"
if ! why=$(ndd_pgvector_install); then
	echo "skipped: $why"
	exit 77
fi
fail=0
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
CREATE EXTENSION IF NOT EXISTS vector;
SET client_min_messages = warning;
DROP TABLE IF EXISTS pvi, pvq CASCADE;
-- 5,000 rows of 96 components from a hash (seeded by the row), every 50th a near-duplicate of
-- the one before (noise of a tenth: cosine about 0.99)
CREATE TABLE pvi (id int PRIMARY KEY, v vector(96), h halfvec(96));
INSERT INTO pvi (id, v)
SELECT i, ARRAY(SELECT ((hashint8extended(j, base) & 65535)::float8 / 32768 - 1)
                       + CASE WHEN base = i THEN 0 ELSE 0.1 * ((hashint8extended(j, -i) & 65535)::float8 / 32768 - 1) END
                FROM generate_series(0, 95) j)::vector
FROM (SELECT i, CASE WHEN i % 50 = 0 THEN i - 1 ELSE i END AS base FROM generate_series(1, 5000) i) r;
UPDATE pvi SET h = v::halfvec;
INSERT INTO pvi VALUES (-1, NULL, NULL);
CREATE INDEX pvi_v64 ON pvi USING ndd (simhash(v::real[]));
CREATE INDEX pvi_v128 ON pvi USING ndd (simhash128(v::real[]));
CREATE INDEX pvi_h64 ON pvi USING ndd (simhash(h::real[]));
CREATE INDEX pvi_h128 ON pvi USING ndd (simhash128(h::vector::real[]));
ANALYZE pvi;
-- queries: 8 rows with a planted partner, 4 without
CREATE TABLE pvq AS SELECT id AS qid, v, h FROM pvi WHERE id IN (49, 99, 149, 199, 999, 2499, 3999, 4999, 3, 777, 2001, 4321);
SQL

# $1 SQL of one lateral subquery over q.v / q.h, $2 index that must answer it, $3 label: the index's
# answer against a sequential scan's, as (qid, column...) multisets
compare() { ndd_index_equals_seqscan "$3" "$2" "SELECT q.qid, d.* FROM pvq q, LATERAL ($1) d" || fail=1; }

for e in "pvi_v64 simhash(v::real[]) simhash(q.v::real[]) 8 20" "pvi_v128 simhash128(v::real[]) simhash128(q.v::real[]) 16 40" \
	"pvi_h64 simhash(h::real[]) simhash(q.h::real[]) 8 20" "pvi_h128 simhash128(h::vector::real[]) simhash128(q.h::vector::real[]) 16 40"; do
	read -r idx col qv r1 r2 <<<"$e"
	for r in $r1 $r2; do
		compare "SELECT id FROM pvi WHERE $col <~> $qv <= $r" "$idx" "$idx radius $r"
	done
	for n in 10 100; do
		compare "SELECT row_number() OVER () AS rank, dist FROM (SELECT $col <~> $qv AS dist FROM pvi ORDER BY $col <~> $qv LIMIT $n) s" "$idx" "$idx KNN LIMIT $n distances"
		compare "SELECT id FROM (SELECT id, d, max(d) OVER () AS m FROM (SELECT id, $col <~> $qv AS d FROM pvi ORDER BY $col <~> $qv LIMIT $n) s) t WHERE d < m" "$idx" "$idx KNN LIMIT $n rows"
	done
done

# the halfvec casts agree; every planted partner is found within 12 bits and re-ranked first by the
# exact cosine (of the vector and of the halfvec)
out=$($PSQL <<'SQL'
SELECT count(*) FILTER (WHERE simhash128(h::real[]) IS DISTINCT FROM simhash128(h::vector::real[]))
       || ' ' || count(*) FILTER (WHERE simhash(h::real[]) IS DISTINCT FROM simhash(h::vector::real[]::float8[]))
FROM pvi;
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE best = qid + 1) || ' ' || count(*) FILTER (WHERE best_h = qid + 1) || ' ' || count(*)
FROM (SELECT q.qid,
             (SELECT i.id FROM pvi i WHERE simhash(i.v::real[]) <~> simhash(q.v::real[]) <= 12 AND i.id <> q.qid
              ORDER BY cosine(i.v::real[], q.v::real[]) DESC LIMIT 1) AS best,
             (SELECT i.id FROM pvi i WHERE simhash(i.h::real[]) <~> simhash(q.h::real[]) <= 12 AND i.id <> q.qid
              ORDER BY cosine(i.h::real[], q.h::real[]) DESC LIMIT 1) AS best_h
      FROM pvq q WHERE q.qid % 50 = 49) s;
SQL
)
read -r d128 d64 found found_h planted <<<"$(echo $out)"
if [ "$d128" = 0 ] && [ "$d64" = 0 ]; then echo "ok   halfvec: h::real[] and h::vector::real[] give the same simhash and simhash128"
else echo "FAIL halfvec casts differ: $d128 (simhash128), $d64 (simhash)"; fail=1; fi
if [ "$found" = "$planted" ] && [ "$found_h" = "$planted" ] && [ "$planted" -gt 0 ]; then echo "ok   re-rank: $found of $planted planted partners first by exact cosine (vector and halfvec)"
else echo "FAIL re-rank: $found (vector), $found_h (halfvec) of $planted planted partners first"; fail=1; fi
$PSQL -c "DROP TABLE pvi, pvq"
exit $fail
