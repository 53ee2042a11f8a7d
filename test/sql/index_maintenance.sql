-- The ndd index under writes: INSERT, UPDATE, DELETE, VACUUM, REINDEX keep it exact; fp128;
-- options and their errors; empty and unlogged tables.
SET client_min_messages = warning;

-- built on an empty table, then filled by inserts (the chains grow overflow pages)
CREATE TABLE t (id int PRIMARY KEY, fp simhash64);
CREATE INDEX t_fp ON t USING ndd (fp);
SELECT ndd_index_check('t_fp') LIKE '%: ok' AS empty_ok;
SELECT count(*) FROM t WHERE fp <~> '0123456789abcdef' <= 3;
INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 5000) g;
INSERT INTO t SELECT 10000 + g, (('x' || md5(g::text))::bit(64)::bigint # 5)::simhash64 FROM generate_series(1, 200) g;
INSERT INTO t VALUES (-1, NULL);
SELECT ndd_index_check('t_fp') LIKE '%: ok' AS after_inserts_ok;

-- the exactness check, run after each change: index answers minus seq-scan answers, both ways
CREATE FUNCTION mismatches() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	CREATE TEMP TABLE a AS SELECT k, q.id AS qid, d.id FROM t q, generate_series(0, 5) k,
		LATERAL (SELECT id FROM t WHERE fp <~> q.fp <= k) d WHERE q.id % 50 = 0;
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_bitmapscan = off;
	CREATE TEMP TABLE b AS SELECT k, q.id AS qid, d.id FROM t q, generate_series(0, 5) k,
		LATERAL (SELECT id FROM t WHERE fp <~> q.fp <= k) d WHERE q.id % 50 = 0;
	SELECT count(*) INTO n FROM ((SELECT * FROM a EXCEPT ALL SELECT * FROM b) UNION ALL (SELECT * FROM b EXCEPT ALL SELECT * FROM a)) x;
	DROP TABLE a, b;
	RETURN n;
END
$$;
SET enable_seqscan = off;
SELECT mismatches();
SELECT count(*) FROM t WHERE fp <~> (SELECT fp FROM t WHERE id = 11) <= 3;

UPDATE t SET fp = (fp::bigint # 1)::simhash64 WHERE id % 7 = 0;
SELECT mismatches();
DELETE FROM t WHERE id % 5 = 0;
SELECT mismatches();
-- dead entries stay in the index until VACUUM: not corruption, the check counts them
SELECT ndd_index_check('t_fp') ~ '4160 rows \+ 1 NULL rows .*: ok$' AS dead_entries_ok;
VACUUM t;
SELECT ndd_index_check('t_fp') LIKE '%: ok' AS after_vacuum_ok;
SELECT mismatches();
-- emptied pages are refilled
INSERT INTO t SELECT 20000 + g, ('x' || md5('again' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 2000) g;
SELECT mismatches();
REINDEX INDEX t_fp;
SELECT ndd_index_check('t_fp') LIKE '%: ok' AS after_reindex_ok;
SELECT mismatches();
-- a heap TID whose block needs a wider field than the build chose: the entry goes to a wider page
INSERT INTO t SELECT 50000 + g, ('x' || md5('wide' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 30000) g;
SELECT ndd_index_check('t_fp') LIKE '%: ok' AS after_growth_ok;
SELECT mismatches();
RESET enable_seqscan;
SELECT count(*) FROM t WHERE fp IS NULL;

-- fp128: the same, with the default layout k = 7 (8 tables)
CREATE TABLE w (id int PRIMARY KEY, fp fp128);
INSERT INTO w SELECT g, ('x' || md5(g::text) || md5('2' || g::text))::bit(128)::fp128 FROM generate_series(1, 5000) g;
INSERT INTO w SELECT 10000 + g, (('x' || md5(g::text) || md5('2' || g::text))::bit(128) # ('x' || '80000000000000000000000000000041')::bit(128))::fp128
FROM generate_series(1, 300) g;
CREATE INDEX w_fp ON w USING ndd (fp);
SELECT ndd_index_check('w_fp') ~ '8 tables x 5300 rows' AS fp128_ok;
EXPLAIN (COSTS OFF) SELECT id FROM w WHERE fp <~> (SELECT fp FROM w WHERE id = 1) <= 3;
SELECT id FROM w WHERE fp <~> (SELECT fp FROM w WHERE id = 1) <= 3 ORDER BY id;
SELECT id, fp <~> (SELECT fp FROM w WHERE id = 2) AS dist FROM w ORDER BY fp <~> (SELECT fp FROM w WHERE id = 2) LIMIT 3;
CREATE TEMP TABLE wa AS SELECT k, q.id AS qid, d.id FROM w q, (VALUES (0), (3), (7), (12), (18)) v(k),
	LATERAL (SELECT id FROM w WHERE fp <~> q.fp <= k) d WHERE q.id % 100 = 0 OR q.id > 10290;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE wb AS SELECT k, q.id AS qid, d.id FROM w q, (VALUES (0), (3), (7), (12), (18)) v(k),
	LATERAL (SELECT id FROM w WHERE fp <~> q.fp <= k) d WHERE q.id % 100 = 0 OR q.id > 10290;
RESET enable_indexscan; RESET enable_bitmapscan;
SELECT count(*) AS fp128_rows FROM wb;
(SELECT * FROM wa EXCEPT ALL SELECT * FROM wb) UNION ALL (SELECT * FROM wb EXCEPT ALL SELECT * FROM wa);
DELETE FROM w WHERE id % 3 = 0;
VACUUM w;
SELECT ndd_index_check('w_fp') LIKE '%: ok' AS fp128_vacuum_ok;

-- options
CREATE INDEX t_fp_10 ON t USING ndd (fp) WITH (k = 3, blocks = 5);
SELECT ndd_index_check('t_fp_10') ~ '^ndd index "t_fp_10" on "t": 10 tables' AS manku_10_tables;
CREATE INDEX t_fp_k1 ON t USING ndd (fp) WITH (k = 1, fillfactor = 50, rows = 100000);
SELECT ndd_index_check('t_fp_k1') ~ '2 tables' AS k1_two_tables;
SET enable_seqscan = off;
SELECT count(*) FROM t WHERE fp <~> (SELECT fp FROM t WHERE id = 11) <= 3;
DROP INDEX t_fp, t_fp_10;
SELECT count(*) FROM t WHERE fp <~> (SELECT fp FROM t WHERE id = 11) <= 3;
RESET enable_seqscan;
SELECT reloptions FROM pg_class WHERE relname = 't_fp_k1';
-- bad options
CREATE INDEX ON t USING ndd (fp) WITH (k = 3, blocks = 3);
CREATE INDEX ON t USING ndd (fp) WITH (k = 6, blocks = 12);
CREATE INDEX ON t USING ndd (fp) WITH (k = -2);
CREATE INDEX ON t USING ndd (fp) WITH (fillfactor = 5);
CREATE INDEX ON t USING ndd (fp) WITH (rows = -1);
CREATE INDEX ON t USING ndd (fp) WITH (colour = 1);
CREATE INDEX ON w USING ndd (fp) WITH (k = 40);
CREATE INDEX ON w USING ndd (fp) WITH (blocks = 4);
-- what the index cannot do
CREATE UNIQUE INDEX ON t USING ndd (fp);
CREATE INDEX ON t USING ndd (id, fp);
CREATE INDEX ON t USING ndd (id);

-- an unlogged table and an expression index
CREATE UNLOGGED TABLE u (body text);
CREATE INDEX u_fp ON u USING ndd ((('x' || md5(body))::bit(64)::bigint::simhash64));
INSERT INTO u SELECT 'doc ' || g FROM generate_series(1, 1000) g;
SELECT body FROM u WHERE ('x' || md5(body))::bit(64)::bigint::simhash64 <~> ('x' || md5('doc 77'))::bit(64)::bigint::simhash64 <= 2;
SELECT ndd_index_check('u_fp') LIKE '%: ok' AS unlogged_ok;
-- the check refuses what is not an ndd index
SELECT ndd_index_check('t_pkey');
SELECT ndd_index_check('t');

-- growth: an index made on an empty table expands its map and migrates it as rows arrive
-- (README.index.md, "Growth"), and stays exact across that: radius queries, KNN, NULLs, VACUUM,
-- REINDEX
CREATE TABLE gr (id int, fp simhash64);
-- VACUUM holds the growth lock, pausing migration: no autovacuum, so that the map printed below
-- is the same in every run
ALTER TABLE gr SET (autovacuum_enabled = off);
CREATE INDEX gr_fp ON gr USING ndd (fp);
INSERT INTO gr SELECT g, CASE WHEN g % 1000 = 0 THEN NULL ELSE ('x' || md5(g::text))::bit(64)::bigint::simhash64 END
  FROM generate_series(1, 20000) g;
INSERT INTO gr SELECT 100000 + id, (fp::bigint # (1::bigint << (id % 64)))::simhash64 FROM gr WHERE id % 10 = 1;
SELECT ndd_index_check('gr_fp');
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM gr WHERE fp <~> '0123456789abcdef' <= 3;
CREATE TEMP TABLE gr_idx AS
  SELECT q.id AS qid, k, d.id FROM gr q, generate_series(0, 5) k, LATERAL (SELECT id FROM gr WHERE fp <~> q.fp <= k) d
  WHERE q.id % 397 = 0;
CREATE TEMP TABLE gr_knn AS
  SELECT q.id AS qid, n, dist FROM gr q, LATERAL (SELECT row_number() OVER () AS n, dist
    FROM (SELECT fp <~> q.fp AS dist FROM gr ORDER BY fp <~> q.fp LIMIT 25) s) d
  WHERE q.id % 1999 = 0;
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT (SELECT count(*) FROM gr_idx) AS answers,
       (SELECT count(*) FROM (
          (SELECT * FROM gr_idx EXCEPT ALL
           SELECT q.id, k, d.id FROM gr q, generate_series(0, 5) k, LATERAL (SELECT id FROM gr WHERE fp <~> q.fp <= k) d
           WHERE q.id % 397 = 0)
          UNION ALL
          (SELECT q.id, k, d.id FROM gr q, generate_series(0, 5) k, LATERAL (SELECT id FROM gr WHERE fp <~> q.fp <= k) d
           WHERE q.id % 397 = 0
           EXCEPT ALL SELECT * FROM gr_idx)) x) AS differences,
       (SELECT count(*) FROM (
          (SELECT * FROM gr_knn EXCEPT ALL
           SELECT q.id, n, dist FROM gr q, LATERAL (SELECT row_number() OVER () AS n, dist
             FROM (SELECT fp <~> q.fp AS dist FROM gr ORDER BY fp <~> q.fp LIMIT 25) s) d WHERE q.id % 1999 = 0)
          UNION ALL
          (SELECT q.id, n, dist FROM gr q, LATERAL (SELECT row_number() OVER () AS n, dist
             FROM (SELECT fp <~> q.fp AS dist FROM gr ORDER BY fp <~> q.fp LIMIT 25) s) d WHERE q.id % 1999 = 0
           EXCEPT ALL SELECT * FROM gr_knn)) y) AS knn_differences;
RESET enable_indexscan;
RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT count(*) AS null_rows FROM gr WHERE fp IS NULL;
DELETE FROM gr WHERE id % 7 = 0;
VACUUM gr;
SELECT ndd_index_check('gr_fp');
SELECT count(*) FROM gr WHERE fp <~> (SELECT fp FROM gr WHERE id = 100011) <= 1;
REINDEX INDEX gr_fp;
SELECT ndd_index_check('gr_fp');
SELECT count(*) FROM gr WHERE fp <~> (SELECT fp FROM gr WHERE id = 100011) <= 1;
-- and without blocking writers
INSERT INTO gr SELECT 200000 + g, ('x' || md5('more' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 30000) g;
SELECT ndd_index_check('gr_fp') ~ 'map generation' AS grew_again;
REINDEX INDEX CONCURRENTLY gr_fp;
SELECT ndd_index_check('gr_fp');
SELECT count(*) FROM gr WHERE fp <~> (SELECT fp FROM gr WHERE id = 100011) <= 1;
RESET enable_seqscan;
-- an index sized with rows on an empty table holds those rows in its map's first pages: no
-- expansion, and no overflow page for heap blocks beyond what the empty table had (the build sizes
-- entries for the heap the rows will need)
CREATE TABLE sized (id int, fp simhash64);
ALTER TABLE sized SET (autovacuum_enabled = off);
CREATE INDEX sized_fp ON sized USING ndd (fp) WITH (rows = 150000);
INSERT INTO sized SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 100000) g;
SELECT pg_relation_size('sized') / 8192 > 256 AS heap_past_the_empty_tables_width,
       ndd_index_check('sized_fp') ~ ' 0 overflow pages' AS no_overflow,
       ndd_index_check('sized_fp') !~ 'map generation' AS not_expanded;
DROP TABLE sized;
-- the layout follows from the rows when blocks is not given (as simhash64's k = 3 does past about
-- 45M rows: blocks = 5, 10 tables). k = 7 over 64 bits has 8-bit keys: sized for 150,000 rows the
-- map has 217 primary pages per table and keeps k + 1 = 8 blocks; for 200,000 rows it has 289,
-- more than a key has values, and the build chooses blocks = 9 (36 tables of 14-bit keys, one page
-- per key); an explicit blocks = 8 keeps the 8 tables and the build says what their keys span
CREATE TABLE shortkeys (id int, fp simhash64);
SET client_min_messages = notice;
CREATE INDEX shortkeys_fp ON shortkeys USING ndd (fp) WITH (k = 7, rows = 150000);
SELECT substring(ndd_index_check('shortkeys_fp') from '\d+ tables') AS small;
DROP INDEX shortkeys_fp;
CREATE INDEX shortkeys_fp ON shortkeys USING ndd (fp) WITH (k = 7, rows = 200000);
SELECT substring(ndd_index_check('shortkeys_fp') from '\d+ tables') AS grown;
DROP INDEX shortkeys_fp;
CREATE INDEX shortkeys_fp ON shortkeys USING ndd (fp) WITH (k = 7, blocks = 8, rows = 200000);
SELECT substring(ndd_index_check('shortkeys_fp') from '\d+ tables') AS asked;
DROP INDEX shortkeys_fp;
-- an index that outgrows the layout it was built with: the check says REINDEX would choose more
-- tables, and REINDEX does
CREATE INDEX shortkeys_fp ON shortkeys USING ndd (fp) WITH (k = 7);
INSERT INTO shortkeys SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 200000) g;
SELECT substring(ndd_index_check('shortkeys_fp') from '\d+ tables') AS outgrown;
REINDEX INDEX shortkeys_fp;
SELECT substring(ndd_index_check('shortkeys_fp') from '\d+ tables') AS reindexed;
SET client_min_messages = warning;
DROP TABLE shortkeys;
-- the rows option is bounded (it preallocates the map's primary pages)
CREATE INDEX ON t USING ndd (fp) WITH (rows = 1e12);
-- one fingerprint inserted many times: every copy lands on its chain's last page (insert_at), the
-- index stays exact, and the space VACUUM frees on the chain is refilled before any new page
CREATE TABLE same (id int, fp simhash64);
CREATE INDEX same_fp ON same USING ndd (fp);
INSERT INTO same SELECT g, '0123456789abcdef' FROM generate_series(1, 10000) g;
INSERT INTO same SELECT g, '0123456789abcdef' FROM generate_series(10001, 20000) g;
INSERT INTO same SELECT g, '0123456789abcdef' FROM generate_series(20001, 30000) g;
SELECT ndd_index_check('same_fp') ~ ': ok$' AS ok;
SET enable_seqscan = off;
SELECT count(*) FROM same WHERE fp <~> '0123456789abcdef' <= 0;
SELECT count(*) FROM same WHERE fp <~> '0123456789abcdee' <= 1;
DELETE FROM same WHERE id > 25000;
VACUUM same;
SELECT pg_relation_size('same_fp') AS size_before \gset
INSERT INTO same SELECT g, '0123456789abcdef' FROM generate_series(25001, 30000) g;
SELECT pg_relation_size('same_fp') = :size_before AS freed_space_reused;
SELECT ndd_index_check('same_fp') ~ ': ok$' AS ok;
SELECT count(*) FROM same WHERE fp <~> '0123456789abcdef' <= 0;
-- ndd scans count in pg_stat_user_indexes.idx_scan
SELECT pg_stat_force_next_flush();
SELECT idx_scan AS scans_before FROM pg_stat_user_indexes WHERE indexrelname = 'same_fp' \gset
SELECT count(*) FROM same WHERE fp <~> '0123456789abcdef' <= 2;
SELECT fp <~> '0123456789abcdef' AS nearest FROM same ORDER BY fp <~> '0123456789abcdef' LIMIT 1;
SELECT pg_stat_force_next_flush();
SELECT idx_scan - :scans_before AS ndd_scans_counted FROM pg_stat_user_indexes WHERE indexrelname = 'same_fp';
-- pg_statio_user_indexes counts the pages a scan reads alike whether the backend finds a chain's
-- first page through its cache of recent buffers (the second probe) or not (the first, in a new
-- session, whose cache is empty)
\c
SET enable_seqscan = off;
SELECT pg_stat_force_next_flush();
SELECT idx_blks_read + idx_blks_hit AS blks0 FROM pg_statio_user_indexes WHERE indexrelname = 'same_fp' \gset
SELECT count(*) FROM same WHERE fp <~> '0123456789abcdef' <= 1;
SELECT pg_stat_force_next_flush();
SELECT idx_blks_read + idx_blks_hit AS blks1 FROM pg_statio_user_indexes WHERE indexrelname = 'same_fp' \gset
SELECT count(*) FROM same WHERE fp <~> '0123456789abcdef' <= 1;
SELECT pg_stat_force_next_flush();
SELECT idx_blks_read + idx_blks_hit AS blks2 FROM pg_statio_user_indexes WHERE indexrelname = 'same_fp' \gset
SELECT :blks1 - :blks0 > 4 AS first_probe_counted, :blks2 - :blks1 = :blks1 - :blks0 AS second_probe_counted_alike;
-- an index-only scan that needs no column (PostgreSQL plans one for any amgettuple index)
EXPLAIN (COSTS OFF) SELECT count(*) FROM same;
SELECT count(*) FROM same;
RESET enable_seqscan;
DROP TABLE same;

-- sorted pages (src/README.index.md, "Sorted pages"): a probe binary-searches each page's sorted
-- prefix for its keys and checks the unsorted tail that inserts after the build append. Rows 3
-- bits from a base row in three blocks are found by one table only at radius 3 (a skipped entry
-- is a lost row): built, inserted into the built pages, after DELETE and VACUUM shortened the
-- prefixes, and inserted after that; every answer equals a sequential scan's.
CREATE TABLE srt (id int, fp simhash64);
CREATE FUNCTION pg_temp.near3(g int) RETURNS simhash64 IMMUTABLE LANGUAGE sql AS $$
	SELECT (('x' || md5(g::text))::bit(64)::bigint # CASE WHEN g % 4 = 1
		THEN (1::bigint << (g % 16)) | (1::bigint << (16 + g % 16)) | (1::bigint << (32 + g % 16))
		ELSE (1::bigint << (16 + g % 16)) | (1::bigint << (32 + g % 16)) | (1::bigint << (48 + g % 15)) END)::simhash64 $$;
INSERT INTO srt SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
INSERT INTO srt SELECT 100000 + g, pg_temp.near3(g) FROM generate_series(1, 20000, 10) g;
CREATE INDEX srt_fp ON srt USING ndd (fp) WITH (rows = 60000);
INSERT INTO srt SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(20001, 30000) g;
INSERT INTO srt SELECT 100000 + g, pg_temp.near3(g) FROM generate_series(20001, 30000, 10) g;
DELETE FROM srt WHERE id % 7 = 0;
VACUUM srt;
INSERT INTO srt SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(30001, 35000) g;
INSERT INTO srt SELECT 100000 + g, pg_temp.near3(g) FROM generate_series(30001, 35000, 10) g;
SELECT ndd_index_check('srt_fp') ~ ': ok$' AS sorted_ok;
SET enable_seqscan = off;
CREATE TEMP TABLE sa AS SELECT q.id AS qid, d.id FROM srt q,
	LATERAL (SELECT id FROM srt WHERE fp <~> q.fp <= 3) d WHERE q.id > 100000 AND q.id % 13 = 0;
RESET enable_seqscan;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE sb AS SELECT q.id AS qid, d.id FROM srt q,
	LATERAL (SELECT id FROM srt WHERE fp <~> q.fp <= 3) d WHERE q.id > 100000 AND q.id % 13 = 0;
RESET enable_indexscan; RESET enable_bitmapscan;
SELECT (SELECT count(*) FROM sb) AS answers, (SELECT count(*) FROM sb WHERE qid <> id) AS near_answers,
	(SELECT count(*) FROM ((SELECT * FROM sa EXCEPT ALL SELECT * FROM sb) UNION ALL (SELECT * FROM sb EXCEPT ALL SELECT * FROM sa)) x) AS mismatches;
DROP TABLE srt, sa, sb;
