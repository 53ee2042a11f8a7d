#!/usr/bin/env bash
# Script test: the ndd index returns exactly what a sequential scan returns on 200k+ rows with
# planted near-duplicates, random and clustered fingerprints, k = 0..6, simhash64 and fp128; each
# both as built by CREATE INDEX on the full table and as grown by inserting every row into an
# index made on the empty table (many expansions and migrations of its map, README.index.md
# "Growth"); and on exact copies (200 fingerprints with 200 copies each, one with 20,000: chains
# of many pages holding one key in every table), after VACUUM removed a third of the copies from
# those chains and inserts refilled them. And on the same 64-bit rows with k = 7 (8-bit keys), whose
# layout the build grows from the table's size (36 tables instead of k + 1 = 8: README.index.md
# "Layout from N"), as simhash64's default k = 3 grows past about 45M rows. And on an index whose
# sorted pages (README.index.md, "Sorted pages": a probe searches each page's sorted prefix
# for its keys) got unsorted tails from inserts after the build, then lost entries of both to
# DELETE and VACUUM (whose compaction shortens the prefix) and got more inserts: with rows that
# differ from a query in one bit of each of three blocks, which a radius-3 probe finds in one
# table only (the one keyed by the fourth block), so that a search that skips an entry of the
# prefix or of the tail loses a row instead of finding it in another table.
# Needs PGHOST/PGPORT/PGUSER/PGDATABASE of a throwaway cluster with ndd installed.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
fail=0
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
SET client_min_messages = warning;
DROP TABLE IF EXISTS ex64, ex128, ex64g, ex128g, exdup, exdupg, ex64w, exins CASCADE;
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
-- sorted pages and their tails: four fifths of ex64 and rows 3 bits from them (one bit in each
-- block but the (id / 40 % 4)-th) built, sized for all so that no expansion moves them; then the
-- other fifth and more such rows inserted into the built pages, a seventh deleted and vacuumed,
-- and more inserted after that
CREATE TABLE exins (LIKE ex64);
CREATE FUNCTION pg_temp.three_off(id int, fp simhash64) RETURNS simhash64 IMMUTABLE LANGUAGE sql AS $$
	SELECT (fp::bigint # (SELECT bit_or(1::bigint << (16 * b + (id * 7 + b) % 16))
	                     FROM generate_series(0, 3) b WHERE b <> id / 40 % 4))::simhash64 $$;
INSERT INTO exins SELECT * FROM ex64 WHERE id % 5 <> 0;
INSERT INTO exins SELECT 800000 + id, pg_temp.three_off(id, fp) FROM ex64 WHERE id % 40 = 1 AND id <= 200000;
-- rows at the first or the last head of a key (block g / 40 % 4 random, the others all 0 or all
-- 1), and queries 3 bits from them that find them only there: the ends of a binary search
INSERT INTO exins SELECT 900000 + g, (CASE WHEN g % 2 = 0 THEN k << b ELSE (k << b) | ~(65535::bigint << b) END)::simhash64
FROM (SELECT g, 16 * (g / 40 % 4) AS b, ('x' || substr(md5('k' || g), 1, 4))::bit(16)::int::bigint AS k
      FROM generate_series(1, 400) g) s;
INSERT INTO exins SELECT id + 50000, pg_temp.three_off(id - 900000, fp) FROM exins WHERE id > 900000;
CREATE INDEX exins_fp ON exins USING ndd (fp) WITH (rows = 300000);
INSERT INTO exins SELECT * FROM ex64 WHERE id % 5 = 0;
INSERT INTO exins SELECT 800000 + id, pg_temp.three_off(id, fp) FROM ex64 WHERE id % 40 = 21 AND id <= 200000;
DELETE FROM exins WHERE id % 7 = 0;
VACUUM exins;
INSERT INTO exins SELECT 800000 + id, pg_temp.three_off(id, fp) FROM ex64 WHERE id % 40 = 11 AND id <= 200000;
ANALYZE ex64; ANALYZE ex128; ANALYZE ex64g; ANALYZE ex128g; ANALYZE exdup; ANALYZE exdupg; ANALYZE ex64w; ANALYZE exins;
SQL
[ "$($PSQL -c "SELECT ndd_index_check('ex64w_fp')" | grep -o '[0-9]* tables')" = "36 tables" ] ||
	{ echo "FAIL ex64w: the build did not grow the layout to 36 tables"; fail=1; }
for tab in ex64 ex64g ex128 ex128g exdup exdupg ex64w exins; do
	$PSQL -c "SELECT ndd_index_check('${tab}_fp')"
	case $tab in
	exins) specs=("uniform:q.id % 4000 = 0 AND q.id <= 150000" "planted:q.id > 300000 AND q.id < 800000 AND q.id % 100 = 0"
		"3 bits in 3 blocks, built:q.id > 800000 AND q.id < 900000 AND q.id % 40 = 1 AND q.id % 10000 < 200"
		"3 bits in 3 blocks, inserted after the build:q.id > 800000 AND q.id < 900000 AND q.id % 40 = 21 AND q.id % 10000 < 200"
		"3 bits in 3 blocks, inserted after VACUUM:q.id > 800000 AND q.id < 900000 AND q.id % 40 = 11 AND q.id % 10000 < 200"
		"3 bits from a key's first or last head:q.id > 950000 AND q.id % 5 = 0") ;;
	ex64*) specs=("uniform:q.id % 4000 = 0 AND q.id <= 150000" "clustered:q.id > 150000 AND q.id <= 200000 AND q.id % 2500 = 0" "planted:q.id > 300000 AND q.id % 100 = 0") ;;
	ex128*) specs=("uniform:q.id % 4000 = 0 AND q.id <= 150000" "planted:q.id > 300000 AND q.id % 100 = 0") ;;
	exdup*) specs=("uniform:q.id % 2000 = 0 AND q.id <= 20000" "copies:q.id > 400000 AND q.id <= 440000 AND q.id % 4000 = 1"
		"one fingerprint 20,000 times:q.id = 500002" "copied after VACUUM:q.id IN (600001, 700001)") ;;
	esac
	for spec in "${specs[@]}"; do
		name=${spec%%:*}; cond=${spec#*:}
		ndd_index_equals_seqscan "$tab $name: (query, k, row) answers for k = 0..6" "${tab}_fp" \
			"SELECT k, q.id AS qid, d.id FROM $tab q, generate_series(0, 6) k,
				LATERAL (SELECT id FROM $tab WHERE fp <~> q.fp <= k) d WHERE $cond" || fail=1
	done
	# KNN: the first 20 distances equal a sort's
	ndd_index_equals_seqscan "$tab KNN: the first 20 distances" "${tab}_fp" \
		"SELECT q.id AS qid, d.n, d.dist FROM $tab q, LATERAL (SELECT row_number() OVER () n, dist FROM
			(SELECT fp <~> q.fp AS dist FROM $tab ORDER BY fp <~> q.fp LIMIT 20) s) d WHERE q.id % 20000 = 7" || fail=1
done
$PSQL -c "DROP TABLE ex64, ex128, ex64g, ex128g, exdup, exdupg, ex64w, exins"
exit $fail
