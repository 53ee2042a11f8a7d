-- Labelling rows on insert: ndd_nearest_cluster and the ndd_assign_cluster_trigger trigger.

CREATE TABLE wi_docs (id bigserial PRIMARY KEY, fp simhash64, cluster_id bigint);
CREATE TRIGGER label BEFORE INSERT ON wi_docs
  FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
-- conservative (default): rows 2 and 3 are within 3 bits of representative 1; row 4 is within
-- 3 bits of 2 and 3 but 4 bits from 1, so it becomes a representative; a NULL fingerprint is a
-- cluster of its own; a cluster given by the inserter is kept.
INSERT INTO wi_docs (fp) VALUES ('ffff0000ffff0000'), ('ffff0000ffff0001'), ('ffff0000ffff0003'),
                                ('ffff0000ffff000f'), ('0000000000000000'), (NULL);
INSERT INTO wi_docs (fp, cluster_id) VALUES ('ffff0000ffff0000', 42);
SELECT * FROM wi_docs ORDER BY id;

-- the function alone: "is this new fingerprint a near-duplicate of a document I have?"
SELECT ndd_nearest_cluster('wi_docs', 'fp', 'ffff0000ffff0002'::simhash64, 1);
SELECT ndd_nearest_cluster('wi_docs', 'fp', 'ffff0000ffff001f'::simhash64, 1);
SELECT ndd_nearest_cluster('wi_docs', 'fp', 'ffff0000ffff001f'::simhash64, 1, representatives_only => false);
SELECT ndd_nearest_cluster('wi_docs', 'fp', '1234567812345678'::simhash64, 3);
SELECT ndd_nearest_cluster('wi_docs', 'fp', NULL::simhash64, 3);
SELECT ndd_nearest_cluster('wi_docs', 'fp', 'ffff0000ffff0002'::simhash64, -1);
SELECT ndd_nearest_cluster('wi_docs', 'nosuch', 'ffff0000ffff0002'::simhash64, 1);

-- other names, fp128, k = 2 and the 'nearest' mode, which follows chains like transitive clusters
CREATE TABLE wi_wide (key int PRIMARY KEY, f fp128, grp bigint);
CREATE TRIGGER label BEFORE INSERT ON wi_wide
  FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('f', 'grp', '2', 'key', 'nearest');
INSERT INTO wi_wide VALUES (1, '0'), (2, '1'), (3, '3'), (4, '7'), (5, 'f'), (6, 'ff00');
SELECT * FROM wi_wide ORDER BY key;

-- errors
CREATE TABLE wi_bad (id int, fp simhash64, cluster_id bigint);
CREATE TRIGGER bad BEFORE INSERT ON wi_bad FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger();
INSERT INTO wi_bad VALUES (1, '0');
DROP TRIGGER bad ON wi_bad;
CREATE TRIGGER bad BEFORE INSERT ON wi_bad FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp', 'cluster_id', 'three');
INSERT INTO wi_bad VALUES (1, '0');
DROP TRIGGER bad ON wi_bad;
CREATE TRIGGER bad BEFORE INSERT ON wi_bad FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp', 'cluster_id', '-1');
INSERT INTO wi_bad VALUES (1, '0');
DROP TRIGGER bad ON wi_bad;
CREATE TRIGGER bad BEFORE INSERT ON wi_bad FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp', 'cluster_id', '3', 'id', 'greedy');
INSERT INTO wi_bad VALUES (1, '0');
DROP TRIGGER bad ON wi_bad;
CREATE TRIGGER bad BEFORE INSERT ON wi_bad FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fingerprint');
INSERT INTO wi_bad VALUES (1, '0');
DROP TRIGGER bad ON wi_bad;
CREATE TRIGGER bad AFTER INSERT ON wi_bad FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
INSERT INTO wi_bad VALUES (1, '0');
DROP TRIGGER bad ON wi_bad;
-- REPEATABLE READ would hide concurrent near-duplicates: refused
BEGIN ISOLATION LEVEL REPEATABLE READ;
INSERT INTO wi_docs (fp) VALUES ('ffff0000ffff0000');
ROLLBACK;
BEGIN ISOLATION LEVEL SERIALIZABLE;
INSERT INTO wi_docs (fp) VALUES ('ffff0000ffff0000') RETURNING cluster_id;
ROLLBACK;

-- a STORED GENERATED fingerprint (the README's form) is computed after BEFORE triggers: the
-- trigger evaluates the generation expression itself, so near-duplicates join one cluster
CREATE TABLE wi_gen (id bigserial PRIMARY KEY, body text,
                     fp simhash64 GENERATED ALWAYS AS (simhash(lower(body), 2)) STORED, cluster_id bigint);
CREATE INDEX ON wi_gen USING ndd (fp);
CREATE TRIGGER label BEFORE INSERT ON wi_gen FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
INSERT INTO wi_gen (body) VALUES ('the quick brown fox jumps over the lazy dog near the river bank today');
INSERT INTO wi_gen (body) VALUES ('The quick brown fox jumps over the lazy dog near the river bank today');
INSERT INTO wi_gen (body) VALUES ('an entirely different sentence about databases and indexes and locks');
INSERT INTO wi_gen (body) VALUES (NULL);
SELECT id, cluster_id, fp IS NULL AS fp_null FROM wi_gen ORDER BY id;

-- a partitioned table: the trigger searches and serialises across the whole partitioned table,
-- so identical fingerprints in three partitions make one cluster
CREATE TABLE wi_part (id bigint, fp simhash64, cluster_id bigint) PARTITION BY RANGE (id);
CREATE TABLE wi_part_1 PARTITION OF wi_part FOR VALUES FROM (0) TO (100);
CREATE TABLE wi_part_2 PARTITION OF wi_part FOR VALUES FROM (100) TO (200);
CREATE TABLE wi_part_3 PARTITION OF wi_part FOR VALUES FROM (200) TO (300) PARTITION BY RANGE (id);
CREATE TABLE wi_part_3a PARTITION OF wi_part_3 FOR VALUES FROM (200) TO (300);
CREATE INDEX ON wi_part USING ndd (fp);
CREATE TRIGGER label BEFORE INSERT ON wi_part FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
INSERT INTO wi_part (id, fp) VALUES (150, '00000000000000ff');
INSERT INTO wi_part (id, fp) VALUES (50, '00000000000000ff');
INSERT INTO wi_part_3a (id, fp) VALUES (250, '00000000000000fe');   -- straight into a leaf
INSERT INTO wi_part (id, fp) VALUES (20, '0fff000000000000');
SELECT tableoid::regclass AS part, id, cluster_id FROM wi_part ORDER BY id;
-- the labelling lock is the root's, and only for roles that may insert
BEGIN;
SELECT ndd_labelling_lock('wi_part_3a');
SELECT count(*) AS root_locked FROM pg_locks
 WHERE locktype = 'object' AND classid = 'pg_class'::regclass AND objid = 'wi_part'::regclass
   AND mode = 'ExclusiveLock' AND pid = pg_backend_pid();
ROLLBACK;
CREATE ROLE regress_ndd_reader;
GRANT SELECT ON wi_part TO regress_ndd_reader;
SET ROLE regress_ndd_reader;
SELECT ndd_labelling_lock('wi_part');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
REVOKE ALL ON wi_part FROM regress_ndd_reader;
DROP ROLE regress_ndd_reader;
DROP TABLE wi_gen, wi_part;

-- the lookup the trigger and ndd_nearest_cluster run, planned under their pinned search_path
-- (pg_catalog, pg_temp): both operators are the extension's, so the ndd index serves it
CREATE FUNCTION wi_plan(q text) RETURNS SETOF text LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp SET enable_seqscan = off AS $$
BEGIN
    RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || q USING '0123456789abcdef'::public.simhash64, 3;
END $$;
CREATE INDEX wi_docs_fp ON wi_docs USING ndd (fp);
SELECT wi_plan(ndd_nearest_cluster_sql('wi_docs', 'fp', 'cluster_id', 'id', true));
SELECT wi_plan(ndd_nearest_cluster_sql('wi_docs', 'fp', 'cluster_id', 'id', false));
DROP FUNCTION wi_plan(text);
