-- ndd_clusters: fully transitive and conservative clusters from near-duplicate pairs.

-- The research report's chain: A-B and B-C are near-duplicates, A-C are not.
CREATE TABLE wc_pairs (a bigint, b bigint);
INSERT INTO wc_pairs VALUES (1, 2), (2, 3);
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', conservative => true);
-- the order decides the representatives: B first recruits both A and C
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', true, 'VALUES (2), (1), (3)');

-- A longer chain in insertion order A..G (ids 1..7) plus a lone document 8, given by order_sql
CREATE TABLE wc_docs (id bigint, inserted timestamptz);
INSERT INTO wc_docs SELECT i, '2026-01-01'::timestamptz + i * interval '1 hour' FROM generate_series(1, 8) AS i;
TRUNCATE wc_pairs;
INSERT INTO wc_pairs VALUES (1, 2), (2, 3), (1, 3), (3, 4), (4, 5), (5, 6), (6, 7), (3, 5);
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', false, 'SELECT id FROM wc_docs ORDER BY inserted');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', true, 'SELECT id FROM wc_docs ORDER BY inserted');
-- cluster counts, as in the report's table
SELECT conservative, count(*) FILTER (WHERE representative) AS clusters, count(*) AS documents
FROM (VALUES (false), (true)) AS m(conservative),
     LATERAL ndd_clusters('SELECT a, b FROM wc_pairs', m.conservative, 'SELECT id FROM wc_docs ORDER BY inserted') AS c
GROUP BY conservative ORDER BY conservative;

-- straight from ndd_pairs; extra columns of pairs_sql are ignored, self pairs and NULLs too
CREATE TABLE wc_fp (id int, fp simhash64);
INSERT INTO wc_fp VALUES (10, '00000000000000ff'), (11, '00000000000000fe'), (12, '00000000000000fc'),
                         (13, 'ff00000000000000'), (14, NULL);
SELECT * FROM ndd_clusters('SELECT * FROM ndd_pairs(''SELECT id, fp FROM wc_fp'', 1)', true,
                           'SELECT id FROM wc_fp ORDER BY id');
SELECT * FROM ndd_clusters('VALUES (5, 5), (6, NULL), (7::smallint, 8)');

-- errors and edge cases
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', NULL);
SELECT * FROM ndd_clusters(NULL);
SELECT * FROM ndd_clusters('SELECT a FROM wc_pairs');
SELECT * FROM ndd_clusters('SELECT a::text, b FROM wc_pairs');
SELECT * FROM ndd_clusters('SELECT a, b::numeric FROM wc_pairs');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', true, 'SELECT id FROM wc_docs WHERE id < 5');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', true, 'SELECT 1 FROM wc_docs');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', true, 'SELECT NULL::int');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs', true, 'SELECT inserted FROM wc_docs');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs WHERE false');
SELECT * FROM ndd_clusters('SELECT a, b FROM wc_pairs WHERE false', true, 'SELECT 3 UNION ALL SELECT 1');

-- memory: the pairs and ids a clustering holds are bounded by maintenance_work_mem; beyond it a
-- clear error (SQLSTATE 53200) naming the setting and the size needed
SET maintenance_work_mem = '1MB';
SELECT count(*) FROM ndd_clusters('SELECT g, g + 1 FROM generate_series(1, 10000) g');
DO $$ BEGIN
  PERFORM count(*) FROM ndd_clusters('SELECT g, g + 1 FROM generate_series(1, 10000) g', true);
EXCEPTION WHEN out_of_memory THEN RAISE NOTICE 'ndd_clusters: out_of_memory (53200)';
END $$;
SELECT count(*), count(DISTINCT cluster_id) FROM ndd_clusters('SELECT g, g + 1 FROM generate_series(1, 1000) g');
RESET maintenance_work_mem;
