-- The ndd index: radius search through every spelling, KNN, and agreement with a sequential scan.
SET client_min_messages = warning;

CREATE TABLE docs (id int PRIMARY KEY, fp simhash64);
-- 20,000 uniform fingerprints (md5 bits), plus near-duplicates of the first 300 at 1..3 bits
INSERT INTO docs SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
INSERT INTO docs
SELECT 100000 * f + id,
       (fp::bigint # (1::bigint << (id % 64)) # CASE WHEN f >= 2 THEN 1::bigint << ((id + 17) % 64) ELSE 0 END
                   # CASE WHEN f >= 3 THEN 1::bigint << ((id + 40) % 64) ELSE 0 END)::simhash64
FROM docs, generate_series(1, 3) f WHERE id <= 300;
INSERT INTO docs VALUES (-1, NULL), (-2, NULL);
CREATE INDEX docs_fp_ndd ON docs USING ndd (fp);
ANALYZE docs;
SELECT ndd_index_check('docs_fp_ndd') LIKE '%: ok' AS check_ok;

-- the query fingerprints: 40 planted originals and 40 arbitrary ones
CREATE TABLE q AS
SELECT id AS qid, fp FROM docs WHERE id BETWEEN 1 AND 40
UNION ALL
SELECT 1000 + g, ('x' || md5('query' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 40) g;

-- every spelling uses the index
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <@ hamming_ball('0123456789abcdef'::simhash64, 3);
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <~> '0123456789abcdef' <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <~> '0123456789abcdef' < 4;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE 3 >= fp <~> '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE '0123456789abcdef' <~> fp <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <~> '0123456789abcdef' BETWEEN 0 AND 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE ndd_within(fp, '0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE hamming(fp, '0123456789abcdef') <= 3::bigint;
-- a join: parameterized nested loop probing the index
SET enable_hashjoin = off; SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT q.qid, d.id FROM q JOIN docs d ON d.fp <~> q.fp <= 3;
RESET enable_hashjoin; RESET enable_mergejoin;
-- k = 30 on 64 bits matches a third of the table: a sequential scan is cheaper
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <~> '0123456789abcdef' <= 30;

-- results of each spelling through the index, then the same with index scans disabled
CREATE TEMP TABLE via_index AS
SELECT 'ball' AS how, k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <@ hamming_ball(q.fp, k)) d
UNION ALL SELECT 'le', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <~> q.fp <= k) d
UNION ALL SELECT 'lt', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <~> q.fp < k + 1) d
UNION ALL SELECT 'ge', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE k >= fp <~> q.fp) d
UNION ALL SELECT 'rev', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE q.fp <~> fp <= k) d
UNION ALL SELECT 'between', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <~> q.fp BETWEEN 0 AND k) d
UNION ALL SELECT 'join', 3, q.qid, d.id FROM q JOIN docs d ON d.fp <~> q.fp <= 3;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE via_seq AS
SELECT 'ball' AS how, k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <@ hamming_ball(q.fp, k)) d
UNION ALL SELECT 'le', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <~> q.fp <= k) d
UNION ALL SELECT 'lt', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <~> q.fp < k + 1) d
UNION ALL SELECT 'ge', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE k >= fp <~> q.fp) d
UNION ALL SELECT 'rev', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE q.fp <~> fp <= k) d
UNION ALL SELECT 'between', k, q.qid, d.id FROM q, generate_series(0, 8) k, LATERAL (SELECT id FROM docs WHERE fp <~> q.fp BETWEEN 0 AND k) d
UNION ALL SELECT 'join', 3, q.qid, d.id FROM q JOIN docs d ON d.fp <~> q.fp <= 3;
RESET enable_indexscan; RESET enable_bitmapscan;
SELECT how, count(*) AS rows_found FROM via_seq GROUP BY how ORDER BY how;
(SELECT * FROM via_index EXCEPT ALL SELECT * FROM via_seq) UNION ALL (SELECT * FROM via_seq EXCEPT ALL SELECT * FROM via_index);
-- the planted duplicates are found at their distances
SELECT k, count(*) FROM via_seq WHERE how = 'ball' AND qid <= 40 GROUP BY k ORDER BY k;

-- prepared statements under both plan cache modes, and PL/pgSQL variables
PREPARE near(simhash64, int) AS SELECT id FROM docs WHERE fp <~> $1 <= $2 ORDER BY id;
SET plan_cache_mode = force_custom_plan;
EXPLAIN (COSTS OFF) EXECUTE near('0123456789abcdef', 3);
EXECUTE near('8f14e45fceea167a', 3);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE near('0123456789abcdef', 3);
EXECUTE near('8f14e45fceea167a', 3);
RESET plan_cache_mode;
SET client_min_messages = notice;
DO $$
DECLARE
	q simhash64;
	k int := 3;
	n int;
	plan text;
BEGIN
	SELECT fp INTO q FROM docs WHERE id = 9;
	SELECT count(*) INTO n FROM docs WHERE fp <~> q <= k;
	RAISE NOTICE 'plpgsql: % rows within % bits', n, k;
	-- the same statement as PL/pgSQL prepares it (a generic plan keeps q and k as parameters)
	EXECUTE 'PREPARE plq(simhash64, int) AS SELECT id FROM docs WHERE fp <~> $1 <= $2';
	SET LOCAL plan_cache_mode = force_generic_plan;
	FOR plan IN EXECUTE format('EXPLAIN (COSTS OFF) EXECUTE plq(%L, %s)', q, k) LOOP
		RAISE NOTICE '%', plan;
	END LOOP;
	DEALLOCATE plq;
END
$$;
SET client_min_messages = warning;

-- KNN: ORDER BY fp <~> q LIMIT n through the index gives the distances a sort gives
EXPLAIN (COSTS OFF) SELECT id FROM docs ORDER BY fp <~> '0123456789abcdef' LIMIT 10;
CREATE TEMP TABLE knn_index AS
SELECT q.qid, d.rank, d.dist FROM q, LATERAL (
	SELECT row_number() OVER () AS rank, dist FROM (SELECT fp <~> q.fp AS dist FROM docs ORDER BY fp <~> q.fp LIMIT 25) s) d;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE knn_seq AS
SELECT q.qid, d.rank, d.dist FROM q, LATERAL (
	SELECT row_number() OVER () AS rank, dist FROM (SELECT fp <~> q.fp AS dist FROM docs ORDER BY fp <~> q.fp LIMIT 25) s) d;
RESET enable_indexscan; RESET enable_bitmapscan;
SELECT count(*) AS knn_rows FROM knn_index;
(SELECT * FROM knn_index EXCEPT ALL SELECT * FROM knn_seq) UNION ALL (SELECT * FROM knn_seq EXCEPT ALL SELECT * FROM knn_index);
-- a planted original: itself, then its three near-duplicates
SELECT id, fp <~> (SELECT fp FROM docs WHERE id = 5) AS dist FROM docs ORDER BY fp <~> (SELECT fp FROM docs WHERE id = 5), id LIMIT 4;
-- a full KNN scan returns every row once, the NULL ones last
SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE fp IS NULL) AS nulls
FROM (SELECT id, fp FROM docs ORDER BY fp <~> '0123456789abcdef') s;
SELECT id FROM (SELECT id, fp FROM docs ORDER BY fp <~> '0123456789abcdef') s OFFSET 20898;
-- radius and order together
SELECT id, fp <~> '5555555555555555' AS dist FROM docs WHERE fp <~> (SELECT fp FROM docs WHERE id = 5) <= 3
ORDER BY fp <~> '5555555555555555', id;
-- two ORDER BY distances: the second orders the ties of the first
SELECT id FROM docs ORDER BY fp <~> (SELECT fp FROM docs WHERE id = 5), fp <~> (SELECT fp FROM docs WHERE id = 100005) LIMIT 4;

-- radii the tables do not answer directly still come out exact, and silly radii behave
SELECT count(*) FROM docs WHERE fp <~> '0123456789abcdef'::simhash64 <= -1;
SELECT count(*) FROM docs WHERE fp <@ hamming_ball('0123456789abcdef'::simhash64, 64);
SELECT count(*) FROM docs WHERE fp <@ hamming_ball('0123456789abcdef'::simhash64, 1000);
SELECT count(*) FROM docs WHERE fp <@ NULL::hamming_ball;
SET enable_seqscan = off;
SELECT count(*) FROM docs WHERE fp <@ hamming_ball('0123456789abcdef'::simhash64, 64);
SELECT count(*) FROM docs WHERE fp <@ hamming_ball('0123456789abcdef'::simhash64, 20) AND fp <@ hamming_ball('fedcba9876543210'::simhash64, 40);
RESET enable_seqscan;
SELECT count(*) FROM docs WHERE fp <@ hamming_ball('0123456789abcdef'::simhash64, 20) AND fp <@ hamming_ball('fedcba9876543210'::simhash64, 40);
-- a ball of the wrong width is an error, as it is without the index
SELECT count(*) FROM docs WHERE fp <@ hamming_ball('0123456789abcdef0123456789abcdef'::fp128, 3);
-- plain equality on the column is not claimed by the index (and still works)
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp = '0123456789abcdef';
SELECT id FROM docs WHERE fp = (SELECT fp FROM docs WHERE id = 11);

-- the operator classes validate
SELECT opcname, amvalidate(oid) FROM pg_opclass WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'ndd') ORDER BY 1;

-- more results than work_mem holds: the scan keeps the smallest keys, passes over its source again
-- for the rest (several passes here), and stays exact, in both plain and KNN order
CREATE TABLE ws AS
  SELECT g AS id, ('x' || md5(g::text))::bit(64)::bigint::simhash64 AS fp FROM generate_series(1, 20000) g;
CREATE INDEX ws_fp ON ws USING ndd (fp);
ANALYZE ws;
SET work_mem = '64kB';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ws WHERE fp <~> '0123456789abcdef' <= 36;
-- the reference: bit_count over bigint, which no index serves
WITH idx AS (SELECT id FROM ws WHERE fp <~> '0123456789abcdef' <= 36),
     ref AS (SELECT id FROM ws WHERE bit_count((fp::bigint # x'0123456789abcdef'::bigint)::bit(64)) <= 36)
SELECT (SELECT count(*) FROM idx) AS rows, (SELECT count(*) FROM ref) AS reference,
       (SELECT count(*) FROM (SELECT * FROM idx EXCEPT SELECT * FROM ref) d) AS extra,
       (SELECT count(*) FROM (SELECT * FROM ref EXCEPT SELECT * FROM idx) m) AS missing;
EXPLAIN (COSTS OFF) SELECT id FROM ws ORDER BY fp <~> '0123456789abcdef' LIMIT 15000;
WITH idx AS (SELECT row_number() OVER () AS n, d
             FROM (SELECT fp <~> '0123456789abcdef' AS d FROM ws ORDER BY fp <~> '0123456789abcdef' LIMIT 15000) x),
     ref AS (SELECT row_number() OVER (ORDER BY d) AS n, d
             FROM (SELECT bit_count((fp::bigint # x'0123456789abcdef'::bigint)::bit(64)) AS d FROM ws) y)
SELECT count(*) AS rows, count(*) FILTER (WHERE idx.d <> ref.d) AS out_of_order
FROM idx JOIN ref USING (n);
RESET work_mem;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- EXPLAIN ANALYZE counts the index's searches: one per scan that reads it, one per rescan of the
-- inner side of a nested loop, for plain, bitmap and KNN scans. PostgreSQL 18 prints them as
-- "Index Searches" (earlier majors print no such line: there the check is only that none appears).
CREATE FUNCTION ws_searches(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    found text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Index Searches' THEN
            found := concat_ws('; ', found, substring(line from 'Index Searches: (\d+)'));
        END IF;
    END LOOP;
    RETURN coalesce(found, 'none');
END $$;
SET enable_seqscan = off;
SELECT kind, ws_searches(q) = CASE WHEN current_setting('server_version_num')::int >= 180000 THEN expected ELSE 'none' END AS counted
FROM (VALUES
  ('radius', 'SELECT id FROM ws WHERE fp <~> ''0123456789abcdef'' <= 3', '1'),
  ('knn', 'SELECT id FROM ws ORDER BY fp <~> ''0123456789abcdef'' LIMIT 5', '1'),
  ('nested loop', 'SELECT s.id FROM (VALUES (''0123456789abcdef''::simhash64), (''1''), (''2'')) v(q)
                   CROSS JOIN LATERAL (SELECT id FROM ws WHERE fp <~> v.q <= 2 OFFSET 0) s', '3')) t(kind, q, expected);
SET enable_indexscan = off;
SELECT ws_searches('SELECT id FROM ws WHERE fp <~> ''0123456789abcdef'' <= 3') =
       CASE WHEN current_setting('server_version_num')::int >= 180000 THEN '1' ELSE 'none' END AS bitmap_counted;
RESET enable_indexscan;
RESET enable_seqscan;
DROP FUNCTION ws_searches(text);
