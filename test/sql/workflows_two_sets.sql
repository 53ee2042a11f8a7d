-- ndd_pairs_between (new fingerprints against stored ones in one batch), the layout split behind the
-- distributed batch mode (ndd_layout_parts, ndd_layout_table_pairs), and the distributed functions'
-- error without Citus.
CREATE TABLE ts_stored (id bigint, fp simhash64, f128 fp128);
INSERT INTO ts_stored
SELECT g, hashint8extended(g, 5)::bigint::simhash64, uuid_in(md5(g::text)::cstring)::fp128
FROM generate_series(1, 3000) g;
-- new rows: near copies (1-3 bits) of every 10th stored row, an exact copy, random ones, a NULL,
-- and an id that is also a stored id (two rows, still a pair when close)
CREATE TABLE ts_new (id bigint, fp simhash64, f128 fp128);
INSERT INTO ts_new
SELECT 100000 + id,
       (fp::bigint # (1::bigint << (id % 64)::int) # CASE WHEN id % 20 = 0 THEN 1::bigint << ((id / 7) % 64)::int ELSE 0 END
                   # CASE WHEN id % 30 = 0 THEN 1::bigint << ((id / 3) % 64)::int ELSE 0 END)::simhash64,
       uuid_in(md5(id::text)::cstring)::fp128
FROM ts_stored WHERE id % 10 = 0;
INSERT INTO ts_new VALUES (200001, (SELECT fp FROM ts_stored WHERE id = 7), NULL), (200002, NULL, NULL),
                          (5, (SELECT fp FROM ts_stored WHERE id = 5), NULL);
INSERT INTO ts_new SELECT 300000 + g, hashint8extended(g, 77)::bigint::simhash64, NULL FROM generate_series(1, 500) g;

-- exact against a brute-force join, for every k and a few block counts
SELECT k, blocks,
       (SELECT count(*) FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', k, blocks)) AS pairs,
       (SELECT count(*) FROM (
          SELECT new_id, stored_id, distance FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', k, blocks)
          EXCEPT
          SELECT n.id, s.id, (n.fp <~> s.fp)::int FROM ts_new n JOIN ts_stored s ON n.fp <~> s.fp <= k) x) AS extra,
       (SELECT count(*) FROM (
          SELECT n.id, s.id, (n.fp <~> s.fp)::int FROM ts_new n JOIN ts_stored s ON n.fp <~> s.fp <= k
          EXCEPT
          SELECT new_id, stored_id, distance FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', k, blocks)) x) AS missing
FROM (VALUES (0, 0), (1, 0), (3, 0), (3, 4), (3, 6), (5, 0)) v(k, blocks)
ORDER BY 1, 2;
-- the shared id 5 pairs with itself: a new row and a stored row
SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', 0) WHERE new_id < 100000 ORDER BY 1, 2;
-- fp128
SELECT count(*) AS pairs, count(*) = (SELECT count(*) FROM ts_new n JOIN ts_stored s ON n.f128 <~> s.f128 <= 12) AS fp128_exact
FROM ndd_pairs_between('SELECT id, f128 FROM ts_new', 'SELECT id, f128 FROM ts_stored', 12);
-- empty sides
SELECT count(*) FROM ndd_pairs_between('SELECT id, fp FROM ts_new WHERE false', 'SELECT id, fp FROM ts_stored', 3);
SELECT count(*) FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored WHERE false', 3);
-- errors
SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, f128 FROM ts_stored', 3);
SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new UNION ALL SELECT 5, fp FROM ts_new WHERE id = 200001', 'SELECT id, fp FROM ts_stored', 3);
SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored UNION ALL SELECT 5, fp FROM ts_stored WHERE id = 6', 3);
SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', 32);
SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', 3, 3);
SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, id::text FROM ts_stored', 3);

-- The layout split: group each table's rows by part, run each group apart; the union is exactly
-- ndd_pairs (every pair once), for one set and for two, on simhash64 and fp128.
CREATE TABLE ts_work AS
SELECT s.id, s.fp, s.f128, (u.t - 1)::int AS layout_table, u.part, true AS is_new
FROM ts_new s CROSS JOIN LATERAL unnest(ndd_layout_parts(s.fp, 3, 0, 64)) WITH ORDINALITY u(part, t)
WHERE s.fp IS NOT NULL
UNION ALL
SELECT s.id, s.fp, s.f128, (u.t - 1)::int, u.part, false
FROM ts_stored s CROSS JOIN LATERAL unnest(ndd_layout_parts(s.fp, 3, 0, 64)) WITH ORDINALITY u(part, t);
SELECT count(DISTINCT layout_table) AS tables, count(DISTINCT part) AS parts, min(part) >= 0 AND max(part) < 64 AS in_range FROM ts_work;
CREATE TABLE ts_all AS SELECT id, fp FROM ts_new WHERE id >= 100000 UNION ALL SELECT id, fp FROM ts_stored;
SELECT (SELECT count(*) FROM (
          SELECT p.* FROM (SELECT part, layout_table, array_agg(id ORDER BY id) ids, array_agg(fp ORDER BY id) fps
                           FROM ts_work WHERE NOT is_new OR id >= 100000 GROUP BY part, layout_table) g
          CROSS JOIN LATERAL ndd_layout_table_pairs(g.layout_table, 3, 0, g.ids, g.fps) p) x) AS split_pairs,
       (SELECT count(*) FROM (
          SELECT p.* FROM (SELECT part, layout_table, array_agg(id ORDER BY id) ids, array_agg(fp ORDER BY id) fps
                           FROM ts_work WHERE NOT is_new OR id >= 100000 GROUP BY part, layout_table) g
          CROSS JOIN LATERAL ndd_layout_table_pairs(g.layout_table, 3, 0, g.ids, g.fps) p
          EXCEPT SELECT * FROM ndd_pairs('SELECT id, fp FROM ts_all', 3)) x) AS extra,
       (SELECT count(*) FROM ndd_pairs('SELECT id, fp FROM ts_all', 3)) AS ndd_pairs;
SELECT (SELECT count(*) FROM (
          SELECT p.* FROM (SELECT part, layout_table, array_agg(id ORDER BY is_new DESC, id) ids,
                                  array_agg(fp ORDER BY is_new DESC, id) fps, count(*) FILTER (WHERE is_new) AS n_new
                           FROM ts_work GROUP BY part, layout_table HAVING bool_or(is_new) AND NOT bool_and(is_new)) g
          CROSS JOIN LATERAL ndd_layout_table_pairs(g.layout_table, 3, 0, g.ids, g.fps, g.n_new::int) p
          EXCEPT SELECT * FROM ndd_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', 3)) x) AS two_set_extra,
       (SELECT count(*) FROM (
          SELECT p.* FROM (SELECT part, layout_table, array_agg(id ORDER BY is_new DESC, id) ids,
                                  array_agg(fp ORDER BY is_new DESC, id) fps, count(*) FILTER (WHERE is_new) AS n_new
                           FROM ts_work GROUP BY part, layout_table HAVING bool_or(is_new) AND NOT bool_and(is_new)) g
          CROSS JOIN LATERAL ndd_layout_table_pairs(g.layout_table, 3, 0, g.ids, g.fps, g.n_new::int) p) x) AS two_set_pairs;
-- one part per table of the layout (fp128, k = 2: 3 blocks, 3 tables), all 0 when parts = 1
SELECT cardinality(ndd_layout_parts(f128, 2, 0, 1000)) AS fp128_tables FROM ts_stored WHERE id = 1;
SELECT ndd_layout_parts(fp, 3, 4, 1) AS one_part FROM ts_stored WHERE id = 1;
-- errors
SELECT ndd_layout_parts(fp, 3, 3, 64) FROM ts_stored WHERE id = 1;
SELECT ndd_layout_parts(fp, 3, 0, 0) FROM ts_stored WHERE id = 1;
SELECT * FROM ndd_layout_table_pairs(4, 3, 0, '{1,2}', ARRAY[1::bigint::simhash64, 2::bigint::simhash64]);
SELECT * FROM ndd_layout_table_pairs(0, 3, 0, '{1,2,3}', ARRAY[1::bigint::simhash64, 2::bigint::simhash64]);
SELECT * FROM ndd_layout_table_pairs(0, 3, 0, '{1,1}', ARRAY[1::bigint::simhash64, 2::bigint::simhash64]);
SELECT * FROM ndd_layout_table_pairs(0, 3, 0, '{1,NULL}', ARRAY[1::bigint::simhash64, 2::bigint::simhash64]);
SELECT * FROM ndd_layout_table_pairs(0, 3, 0, '{1,2}', ARRAY[1::bigint::simhash64, 2::bigint::simhash64], 3);
SELECT * FROM ndd_layout_table_pairs(0, 3, 0, '{1,2}', ARRAY[1::bigint::simhash64, 2::bigint::simhash64], 1);
SELECT * FROM ndd_layout_table_pairs(0, 3, 0, '{1,2}', ARRAY[1::bigint::simhash64, NULL]);

-- the distributed functions without Citus: a clear 0A000
\set VERBOSITY sqlstate
SELECT * FROM ndd_distributed_pairs('SELECT id, fp FROM ts_stored', 3);
SELECT * FROM ndd_distributed_pairs_between('SELECT id, fp FROM ts_new', 'SELECT id, fp FROM ts_stored', 3);
\set VERBOSITY default
SELECT * FROM ndd_distributed_pairs('SELECT id, fp FROM ts_stored', 3);
DROP TABLE ts_stored, ts_new, ts_work, ts_all;
