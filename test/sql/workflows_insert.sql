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
-- (pg_catalog, pg_temp): both operators are the extension's, so the ndd index serves it. Only the
-- scan and its conditions are printed: above it, PostgreSQL 15 sorts the rows the index returns and
-- 17 on adds an incremental sort over the index's own distance order.
CREATE FUNCTION wi_plan(q text) RETURNS SETOF text LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp SET enable_seqscan = off AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q USING '0123456789abcdef'::public.simhash64, 3 LOOP
        IF line ~ '(Scan|Index Cond|Filter)' THEN
            RETURN NEXT ltrim(line, ' ->');
        END IF;
    END LOOP;
END $$;
CREATE INDEX wi_docs_fp ON wi_docs USING ndd (fp);
SELECT wi_plan(ndd_nearest_cluster_sql('wi_docs', 'fp', 'cluster_id', 'id', true));
SELECT wi_plan(ndd_nearest_cluster_sql('wi_docs', 'fp', 'cluster_id', 'id', false));
DROP FUNCTION wi_plan(text);

-- The trigger keeps, per trigger and table, its checked arguments, column numbers, expressions
-- and the lookup's prepared plan across statements and transactions; each change below must be
-- seen by the next insert of the same session.
CREATE TABLE wi_cache (junk int, id bigserial PRIMARY KEY, fp simhash64, cluster_id bigint);
CREATE TRIGGER label BEFORE INSERT ON wi_cache FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
INSERT INTO wi_cache (fp) VALUES ('00000000000000ff');
INSERT INTO wi_cache (fp) VALUES ('00000000000000fe');                  -- joins 1 (cached plan)
-- a dropped column and a new one: the columns move in the row, not in the table's catalog order
ALTER TABLE wi_cache DROP COLUMN junk;
INSERT INTO wi_cache (fp) VALUES ('00000000000000fc');                  -- joins 1
ALTER TABLE wi_cache ADD COLUMN note text DEFAULT 'added';
INSERT INTO wi_cache (fp) VALUES ('f0000000000000ff');                  -- a new cluster
-- the cluster column changes type (by value to by reference): the own id and the found cluster
-- are numerics now
ALTER TABLE wi_cache ALTER COLUMN cluster_id TYPE numeric;
INSERT INTO wi_cache (fp) VALUES ('f0000000000000fe');                  -- joins 4
INSERT INTO wi_cache (fp) VALUES ('0f0f0f0f0f0f0f0f');                  -- a new cluster
-- the index dropped (a scan), then made again (the index)
CREATE INDEX wi_cache_fp ON wi_cache USING ndd (fp);
INSERT INTO wi_cache (fp) VALUES ('0f0f0f0f0f0f0f0e');                  -- joins 6
DROP INDEX wi_cache_fp;
INSERT INTO wi_cache (fp) VALUES ('0f0f0f0f0f0f0f0c');                  -- joins 6
CREATE INDEX wi_cache_fp ON wi_cache USING ndd (fp);
INSERT INTO wi_cache (fp) VALUES ('0f0f0f0f0f0f0f08');                  -- joins 6
-- the trigger replaced in place (same trigger, new arguments): k = 0, then a column that is gone
CREATE OR REPLACE TRIGGER label BEFORE INSERT ON wi_cache FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp', 'cluster_id', '0');
INSERT INTO wi_cache (fp) VALUES ('0f0f0f0f0f0f0f09');                  -- 1 bit from 7..9: a new cluster
INSERT INTO wi_cache (fp) VALUES ('0f0f0f0f0f0f0f09');                  -- joins 10
ALTER TABLE wi_cache RENAME COLUMN fp TO fingerprint;
INSERT INTO wi_cache (fingerprint) VALUES ('0f0f0f0f0f0f0f09');
ALTER TABLE wi_cache RENAME COLUMN fingerprint TO fp;
-- a whole transaction rolled back leaves the cache usable
BEGIN;
INSERT INTO wi_cache (fp) VALUES ('0f0f0f0f0f0f0f09');
ROLLBACK;
INSERT INTO wi_cache (fp, note) VALUES ('0f0f0f0f0f0f0f09', 'after rollback');
SELECT id, fp, cluster_id, note FROM wi_cache ORDER BY id;
DROP TABLE wi_cache;

-- a generated fingerprint whose function is replaced: the trigger computes what the stored column
-- holds, with the function's new body, not the one it first saw
CREATE FUNCTION wi_norm(t text) RETURNS text LANGUAGE sql IMMUTABLE RETURN lower(t);
CREATE TABLE wi_gen2 (id bigserial PRIMARY KEY, body text,
                      fp simhash64 GENERATED ALWAYS AS (simhash(wi_norm(body), 2)) STORED, cluster_id bigint);
CREATE TRIGGER label BEFORE INSERT ON wi_gen2 FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
INSERT INTO wi_gen2 (body) VALUES ('ALPHA BETA GAMMA DELTA EPSILON ZETA ETA THETA');
CREATE OR REPLACE FUNCTION wi_norm(t text) RETURNS text LANGUAGE sql IMMUTABLE RETURN 'one and the same text for every row';
INSERT INTO wi_gen2 (body) VALUES ('iota kappa lambda');
INSERT INTO wi_gen2 (body) VALUES ('mu nu xi omicron pi');             -- the same fp as row 2: joins it
SELECT id, cluster_id, fp = simhash('one and the same text for every row', 2) AS new_body FROM wi_gen2 ORDER BY id;
DROP TABLE wi_gen2;
DROP FUNCTION wi_norm(text);

-- a trigger on one partition only still searches the whole partitioned table; a partition whose
-- columns are numbered differently from its root's (made apart, with a dropped column, then
-- attached) reads its own columns and searches the root's
CREATE TABLE wi_p (id bigint, fp simhash64, cluster_id bigint) PARTITION BY RANGE (id);
CREATE TABLE wi_p_1 PARTITION OF wi_p FOR VALUES FROM (0) TO (100);
CREATE TABLE wi_p_2 (junk text, cluster_id bigint, fp simhash64, id bigint);
ALTER TABLE wi_p_2 DROP COLUMN junk;
ALTER TABLE wi_p ATTACH PARTITION wi_p_2 FOR VALUES FROM (100) TO (200);
CREATE TRIGGER label BEFORE INSERT ON wi_p_2 FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
INSERT INTO wi_p (id, fp, cluster_id) VALUES (10, '00000000000000ff', 10);   -- no trigger on wi_p_1
INSERT INTO wi_p (id, fp) VALUES (110, '00000000000000fe');                  -- finds row 10 in wi_p_1
INSERT INTO wi_p_2 (id, fp) VALUES (120, 'ff00000000000000');                -- its own cluster
INSERT INTO wi_p (id, fp) VALUES (20, 'ff00000000000001');                   -- wi_p_1: not labelled
SELECT tableoid::regclass AS part, id, cluster_id FROM wi_p ORDER BY id;
-- detached, the partition is its own root: its rows only
ALTER TABLE wi_p DETACH PARTITION wi_p_2;
INSERT INTO wi_p_2 (id, fp) VALUES (130, '00000000000000fc');                -- row 10 is not its own
SELECT id, cluster_id FROM wi_p_2 ORDER BY id;
DROP TABLE wi_p, wi_p_2;

-- a hostile search_path at insert time: a schema ahead of pg_catalog with better-matching =, <~>
-- and <= operators (and a table named like the labelled one) captures nothing, whether the
-- trigger prepares its lookup under that path or has prepared it before
CREATE SCHEMA wi_evil;
CREATE FUNCTION wi_evil.eq(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS
  $$ BEGIN RAISE EXCEPTION 'captured: wi_evil.='; END $$;
CREATE OPERATOR wi_evil.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = wi_evil.eq);
CREATE FUNCTION wi_evil.dist(simhash64, simhash64) RETURNS int LANGUAGE plpgsql AS
  $$ BEGIN RAISE EXCEPTION 'captured: wi_evil.<~>'; END $$;
CREATE OPERATOR wi_evil.<~> (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = wi_evil.dist);
CREATE FUNCTION wi_evil.le(int, int) RETURNS boolean LANGUAGE plpgsql AS
  $$ BEGIN RAISE EXCEPTION 'captured: wi_evil.<='; END $$;
CREATE OPERATOR wi_evil.<= (LEFTARG = int, RIGHTARG = int, FUNCTION = wi_evil.le);
CREATE TABLE wi_evil.wi_hostile (id bigint, fp simhash64, cluster_id bigint);
CREATE TABLE wi_hostile (id bigserial PRIMARY KEY, fp simhash64, cluster_id bigint);
CREATE TRIGGER label BEFORE INSERT ON wi_hostile FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
SET search_path = wi_evil, pg_catalog, public;
INSERT INTO public.wi_hostile (fp) VALUES ('00000000000000ff');        -- prepared under this path
INSERT INTO public.wi_hostile (fp) VALUES ('00000000000000fe');
RESET search_path;
INSERT INTO wi_hostile (fp) VALUES ('00000000000000fc');               -- the same plan, another path
SET search_path = wi_evil, pg_catalog, public;
INSERT INTO public.wi_hostile (fp) VALUES ('00000000000000f8');
RESET search_path;
SELECT id, cluster_id FROM wi_hostile ORDER BY id;
SELECT count(*) AS rows_in_the_decoy FROM wi_evil.wi_hostile;
DROP TABLE wi_hostile;
DROP SCHEMA wi_evil CASCADE;

-- the lookup is prepared once and run with a generic plan: it must still use the ndd index
CREATE TABLE wi_generic (id bigserial PRIMARY KEY, fp simhash64, cluster_id bigint);
INSERT INTO wi_generic (fp, cluster_id) SELECT (g * 7919)::bigint::simhash64, g FROM generate_series(1, 5000) g;
CREATE INDEX wi_generic_fp ON wi_generic USING ndd (fp);
ANALYZE wi_generic;
PREPARE wi_lookup(simhash64, int) AS SELECT cluster_id FROM wi_generic
  WHERE fp OPERATOR(public.<~>) $1 OPERATOR(public.<=) $2 AND cluster_id OPERATOR(pg_catalog.=) id ORDER BY id LIMIT 1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE wi_lookup('0123456789abcdef', 3);
RESET plan_cache_mode;
DEALLOCATE wi_lookup;
DROP TABLE wi_generic;
