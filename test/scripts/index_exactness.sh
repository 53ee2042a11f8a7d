#!/usr/bin/env bash
# Script test: the ndd index returns exactly what a sequential scan returns on 200k+ rows with
# planted near-duplicates, random and clustered fingerprints, k = 0..6, simhash64 and fp128; each
# both as built by CREATE INDEX on the full table and as grown by inserting every row into an
# index made on the empty table (many expansions and migrations of its map, README.index.md
# "Growth"); and on exact copies (200 fingerprints with 200 copies each, one with 20,000: chains
# of many pages holding one key in every table), after VACUUM removed a third of the copies from
# those chains and inserts refilled them. And on the same 64-bit rows with k = 7 (8-bit keys), whose
# layout the build grows from the table's size (36 tables instead of k + 1 = 8: README.index.md
# "Layout from N"), as simhash64's default k = 3 grows past about 45M rows.
# Needs PGHOST/PGPORT/PGUSER/PGDATABASE of a throwaway cluster with ndd installed.
set -euo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
fail=0
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
SET client_min_messages = warning;
DROP TABLE IF EXISTS ex64, ex128, ex64g, ex128g, exdup, exdupg, ex64w CASCADE;
-- 150k uniform + 50k clustered (20 centers, each member within 0..12 bits of its center) + planted
CREATE TABLE ex64 (id int, fp simhash64);
INSERT INTO ex64 SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 150000) g;
INSERT INTO ex64 SELECT 150000 + g,
	(('x' || md5('c' || (g % 20)))::bit(64)::bigint
	 # (('x' || md5('m' || g))::bit(64)::bigint & ('x' || md5('n' || g))::bit(64)::bigint
	    & ('x' || md5('o' || g))::bit(64)::bigint & ('x' || md5('p' || g))::bit(64)::bigint))::simhash64
FROM generate_series(1, 50000) g;
INSERT INTO ex64 SELECT 300000 + id, (fp::bigint # (1::bigint << (id % 64)) # (1::bigint << ((id * 5) % 64)))::simhash64
FROM ex64 WHERE id % 50 = 0 AND id <= 150000;
INSERT INTO ex64 SELECT -g, NULL FROM generate_series(1, 10) g;
CREATE TABLE ex128 (id int, fp fp128);
INSERT INTO ex128 SELECT g, ('x' || md5(g::text) || md5('b' || g))::bit(128)::fp128 FROM generate_series(1, 200000) g;
INSERT INTO ex128 SELECT 300000 + id,
	(fp::bit(128) # ('x' || lpad(to_hex(1::bigint << (id % 60)), 16, '0') || lpad(to_hex(1::bigint << ((id * 7) % 60)), 16, '0'))::bit(128))::fp128
FROM ex128 WHERE id % 50 = 0;
CREATE INDEX ex64_fp ON ex64 USING ndd (fp);
CREATE INDEX ex128_fp ON ex128 USING ndd (fp);
-- the same rows through inserts, in batches, into indexes made empty
CREATE TABLE ex64g (LIKE ex64);
CREATE INDEX ex64g_fp ON ex64g USING ndd (fp);
INSERT INTO ex64g SELECT * FROM ex64 WHERE id % 3 = 0;
INSERT INTO ex64g SELECT * FROM ex64 WHERE id % 3 <> 0;
-- the layout grown from N: k = 7, 293 primary pages per table, more than an 8-bit key has values
CREATE TABLE ex64w (LIKE ex64);
INSERT INTO ex64w SELECT * FROM ex64;
CREATE INDEX ex64w_fp ON ex64w USING ndd (fp) WITH (k = 7);
CREATE TABLE ex128g (LIKE ex128);
CREATE INDEX ex128g_fp ON ex128g USING ndd (fp);
INSERT INTO ex128g SELECT * FROM ex128;
-- exact copies: rows 1..20000 random, 400001..440000 copies of rows 1..200, 500001..520000 copies
-- of row 7777; built, and grown from empty; then VACUUM removes a third of the copies from the
-- long chains and more copies are inserted after it (into the space it freed)
CREATE TABLE exdup (id int, fp simhash64);
INSERT INTO exdup SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
INSERT INTO exdup SELECT 400000 + g, ('x' || md5((g % 200 + 1)::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 40000) g;
INSERT INTO exdup SELECT 500000 + g, ('x' || md5('7777'))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
INSERT INTO exdup SELECT -g, NULL FROM generate_series(1, 10) g;
CREATE TABLE exdupg (LIKE exdup);
CREATE INDEX exdupg_fp ON exdupg USING ndd (fp);
INSERT INTO exdupg SELECT * FROM exdup ORDER BY id;
CREATE INDEX exdup_fp ON exdup USING ndd (fp);
DELETE FROM exdup WHERE id > 400000 AND id % 3 = 0;
DELETE FROM exdupg WHERE id > 400000 AND id % 3 = 0;
VACUUM exdup; VACUUM exdupg;
INSERT INTO exdup SELECT 600000 + g, ('x' || md5((g % 200 + 1)::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 5000) g;
INSERT INTO exdup SELECT 700000 + g, ('x' || md5('7777'))::bit(64)::bigint::simhash64 FROM generate_series(1, 5000) g;
INSERT INTO exdupg SELECT * FROM exdup WHERE id > 600000;
ANALYZE ex64; ANALYZE ex128; ANALYZE ex64g; ANALYZE ex128g; ANALYZE exdup; ANALYZE exdupg; ANALYZE ex64w;
SQL
[ "$($PSQL -c "SELECT ndd_index_check('ex64w_fp')" | grep -o '[0-9]* tables')" = "36 tables" ] ||
	{ echo "FAIL ex64w: the build did not grow the layout to 36 tables"; fail=1; }
for tab in ex64 ex64g ex128 ex128g exdup exdupg ex64w; do
	$PSQL -c "SELECT ndd_index_check('${tab}_fp')"
	case $tab in
	ex64*) specs=("uniform:q.id % 4000 = 0 AND q.id <= 150000" "clustered:q.id > 150000 AND q.id <= 200000 AND q.id % 2500 = 0" "planted:q.id > 300000 AND q.id % 100 = 0") ;;
	ex128*) specs=("uniform:q.id % 4000 = 0 AND q.id <= 150000" "planted:q.id > 300000 AND q.id % 100 = 0") ;;
	exdup*) specs=("uniform:q.id % 2000 = 0 AND q.id <= 20000" "copies:q.id > 400000 AND q.id <= 440000 AND q.id % 4000 = 1"
		"one fingerprint 20,000 times:q.id = 500002" "copied after VACUUM:q.id IN (600001, 700001)") ;;
	esac
	for spec in "${specs[@]}"; do
		name=${spec%%:*}; cond=${spec#*:}
		out=$($PSQL <<SQL
CREATE TEMP TABLE a AS SELECT k, q.id AS qid, d.id FROM $tab q, generate_series(0, 6) k,
	LATERAL (SELECT id FROM $tab WHERE fp <~> q.fp <= k) d WHERE $cond;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE b AS SELECT k, q.id AS qid, d.id FROM $tab q, generate_series(0, 6) k,
	LATERAL (SELECT id FROM $tab WHERE fp <~> q.fp <= k) d WHERE $cond;
SELECT (SELECT count(*) FROM b) || ' ' ||
	(SELECT count(*) FROM ((SELECT * FROM a EXCEPT ALL SELECT * FROM b) UNION ALL (SELECT * FROM b EXCEPT ALL SELECT * FROM a)) x);
SQL
)
		read -r rows bad <<<"$out"
		if [ "$bad" = 0 ] && [ "$rows" -gt 0 ]; then echo "ok   $tab $name: $rows (query, k, row) answers identical to a sequential scan"
		else echo "FAIL $tab $name: $bad differences among $rows answers"; fail=1; fi
	done
	# KNN: the first 20 distances equal a sort's
	bad=$($PSQL <<SQL
CREATE TEMP TABLE ka AS SELECT q.id AS qid, d.n, d.dist FROM $tab q, LATERAL (SELECT row_number() OVER () n, dist FROM
	(SELECT fp <~> q.fp AS dist FROM $tab ORDER BY fp <~> q.fp LIMIT 20) s) d WHERE q.id % 20000 = 7;
SET enable_indexscan = off;
CREATE TEMP TABLE kb AS SELECT q.id AS qid, d.n, d.dist FROM $tab q, LATERAL (SELECT row_number() OVER () n, dist FROM
	(SELECT fp <~> q.fp AS dist FROM $tab ORDER BY fp <~> q.fp LIMIT 20) s) d WHERE q.id % 20000 = 7;
SELECT count(*) FROM ((SELECT * FROM ka EXCEPT ALL SELECT * FROM kb) UNION ALL (SELECT * FROM kb EXCEPT ALL SELECT * FROM ka)) x;
SQL
)
	if [ "$bad" = 0 ]; then echo "ok   $tab KNN: distances equal a sort's"; else echo "FAIL $tab KNN: $bad differences"; fail=1; fi
done
$PSQL -c "DROP TABLE ex64, ex128, ex64g, ex128g, exdup, exdupg, ex64w"
exit $fail
