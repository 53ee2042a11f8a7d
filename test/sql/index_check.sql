-- ndd_index_check (issue 8, point 2): amcheck's rules for privileges and locks, no false alarms
-- after DELETE / VACUUM without index cleanup / UPDATE / HOT, partitioned indexes, and a real
-- corruption still found. (That a role without rights takes no lock and blocks no writer is
-- shown by test/scripts/security.sh, which needs two sessions.)

CREATE TABLE ic (id int PRIMARY KEY, fp simhash64, note text) WITH (fillfactor = 50, autovacuum_enabled = false);
CREATE INDEX ic_fp ON ic USING ndd (fp);
INSERT INTO ic SELECT g, CASE WHEN g % 500 = 0 THEN NULL ELSE ('x' || md5(g::text))::bit(64)::bigint::simhash64 END, 'n'
  FROM generate_series(1, 3000) g;
SELECT ndd_index_check('ic_fp') ~ '4 tables x 2994 rows \+ 6 NULL rows .* 0 other entries' AS fresh;
-- a few deleted rows: plain VACUUM skips index cleanup (bypass), their entries stay: no alarm
DELETE FROM ic WHERE id IN (7, 8, 9);
VACUUM ic;
SELECT ndd_index_check('ic_fp') ~ '2991 rows \+ 6 NULL rows .*: ok$' AS after_delete_vacuum;
-- the same, index cleanup off explicitly, many rows
DELETE FROM ic WHERE id % 10 = 1;
VACUUM (INDEX_CLEANUP OFF) ic;
SELECT ndd_index_check('ic_fp') ~ '2691 rows \+ 6 NULL rows .* 1200 other entries' AS after_index_cleanup_off;
-- UPDATE of the fingerprint (a new row version, new entries) and HOT updates (same entries)
UPDATE ic SET fp = (fp::bigint # 1)::simhash64 WHERE id % 10 = 2;
BEGIN;
UPDATE ic SET note = 'hot' WHERE id % 10 = 3;
SELECT pg_stat_get_xact_tuples_hot_updated('ic'::regclass) AS hot_updates;
SELECT ndd_index_check('ic_fp') ~ '2691 rows \+ 6 NULL rows .*: ok$' AS during_hot_updates;
COMMIT;
UPDATE ic SET fp = NULL WHERE id = 4;
UPDATE ic SET fp = '0123456789abcdef' WHERE id = 500;
SELECT ndd_index_check('ic_fp') ~ '2691 rows \+ 6 NULL rows .*: ok$' AS after_updates;
VACUUM ic;
SELECT ndd_index_check('ic_fp') ~ '2691 rows \+ 6 NULL rows .* 0 other entries' AS after_vacuum;
-- uncommitted and aborted rows are entries the snapshot does not see, not corruption
BEGIN;
INSERT INTO ic VALUES (90001, '0000000000000001');
SELECT ndd_index_check('ic_fp') ~ '2692 rows' AS own_insert_seen;
ROLLBACK;
SELECT ndd_index_check('ic_fp') ~ '2691 rows \+ 6 NULL rows .* 4 other entries' AS aborted_insert;

-- a real corruption: rows inserted while the index was not maintained are missing from it
CREATE TABLE ic_bad (id int, fp simhash64);
CREATE INDEX ic_bad_fp ON ic_bad USING ndd (fp);
INSERT INTO ic_bad VALUES (1, '00000000000000ff');
UPDATE pg_index SET indisready = false WHERE indexrelid = 'ic_bad_fp'::regclass;
INSERT INTO ic_bad VALUES (2, '000000000000ff00'), (3, NULL);
SELECT ndd_index_check('ic_bad_fp');
UPDATE pg_index SET indisready = true WHERE indexrelid = 'ic_bad_fp'::regclass;
\set VERBOSITY terse
SELECT ndd_index_check('ic_bad_fp');
DELETE FROM ic_bad WHERE id = 2;
SELECT ndd_index_check('ic_bad_fp');
\set VERBOSITY default
DELETE FROM ic_bad WHERE id = 3;
SELECT ndd_index_check('ic_bad_fp') ~ '1 rows \+ 0 NULL rows' AS healthy_again;

-- a partitioned index: every leaf's index is checked and reported
CREATE TABLE icp (id int, fp simhash64) PARTITION BY RANGE (id);
CREATE TABLE icp_1 PARTITION OF icp FOR VALUES FROM (0) TO (1000);
CREATE TABLE icp_2 PARTITION OF icp FOR VALUES FROM (1000) TO (2000) PARTITION BY RANGE (id);
CREATE TABLE icp_2a PARTITION OF icp_2 FOR VALUES FROM (1000) TO (1500);
CREATE TABLE icp_2b PARTITION OF icp_2 FOR VALUES FROM (1500) TO (2000);
CREATE INDEX icp_fp ON icp USING ndd (fp);
INSERT INTO icp SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(0, 1999) g;
SELECT regexp_replace(ndd_index_check('icp_fp'), 'seen by.*', '', 'gn') AS partitioned;
SELECT regexp_replace(ndd_index_check('icp_2_fp_idx'), 'seen by.*', '', 'gn') AS sub_partitioned;

-- the check refuses what is not an ndd index
SELECT ndd_index_check('ic_pkey');
SELECT ndd_index_check('ic');

-- privileges: not executable by PUBLIC (amcheck's rule); a grantee must own the table or have
-- SELECT on it, checked before any lock
CREATE ROLE regress_ndd_checker;
SELECT has_function_privilege('public', 'ndd_index_check(regclass)', 'EXECUTE') AS public_may_execute;
SET ROLE regress_ndd_checker;
SELECT ndd_index_check('ic_fp');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
GRANT EXECUTE ON FUNCTION ndd_index_check(regclass) TO regress_ndd_checker;
SET ROLE regress_ndd_checker;
SELECT ndd_index_check('ic_fp');
\echo :LAST_ERROR_SQLSTATE
SELECT ndd_index_check('icp_fp');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
GRANT SELECT ON ic TO regress_ndd_checker;
SET ROLE regress_ndd_checker;
SELECT ndd_index_check('ic_fp') ~ ': ok$' AS with_select;
RESET ROLE;
-- under row-level security the row counts would tell how many rows the policies hide: owner only
ALTER TABLE ic ENABLE ROW LEVEL SECURITY;
CREATE POLICY ic_few ON ic FOR SELECT TO regress_ndd_checker USING (id < 10);
SET ROLE regress_ndd_checker;
SELECT count(*) AS rows_visible FROM ic;
SELECT ndd_index_check('ic_fp');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
SELECT ndd_index_check('ic_fp') ~ ': ok$' AS owner_checks_under_rls;
DROP POLICY ic_few ON ic;
ALTER TABLE ic DISABLE ROW LEVEL SECURITY;
-- index expressions are evaluated as the table's owner (security-restricted), not as the caller
CREATE FUNCTION ic_who(simhash64) RETURNS simhash64 LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF current_user <> 'regress_ndd_owner' THEN
        RAISE EXCEPTION 'index expression ran as %', current_user;
    END IF;
    RETURN $1;
END $$;
CREATE ROLE regress_ndd_owner;
GRANT CREATE ON SCHEMA public TO regress_ndd_owner;
CREATE TABLE ic_owned (id int, fp simhash64);
INSERT INTO ic_owned VALUES (1, '1'), (2, '2');
ALTER TABLE ic_owned OWNER TO regress_ndd_owner;
SET ROLE regress_ndd_owner;
CREATE INDEX ic_owned_fp ON ic_owned USING ndd (ic_who(fp));
RESET ROLE;
SELECT ndd_index_check('ic_owned_fp') ~ '2 rows' AS run_as_owner;
DROP TABLE ic_owned;
DROP FUNCTION ic_who(simhash64);
REVOKE ALL ON ic FROM regress_ndd_checker;
REVOKE ALL ON FUNCTION ndd_index_check(regclass) FROM regress_ndd_checker;
DROP ROLE regress_ndd_checker;
REVOKE CREATE ON SCHEMA public FROM regress_ndd_owner;
DROP ROLE regress_ndd_owner;
DROP TABLE ic, ic_bad, icp;
