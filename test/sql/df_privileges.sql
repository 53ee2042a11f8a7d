-- Issue 20, finding 2: the document-frequency tables follow the documents' privileges. ndd_df holds
-- every distinct word of the collected documents verbatim; a role reads a collection's words only
-- if it is a member of the collection's owner (the role that created it) or of a role the owner
-- shared it with (ndd_collection_grant); ndd_filter_low_idf refuses others with 42501.
-- (ndd 0.2.0 before issue 20 granted SELECT on both tables to PUBLIC: every role read them all.)
\set VERBOSITY terse
CREATE ROLE regress_df_alice;
CREATE ROLE regress_df_bob;
CREATE ROLE regress_df_carol;
CREATE ROLE regress_df_team;
GRANT regress_df_team TO regress_df_carol;
GRANT INSERT, UPDATE, DELETE ON ndd_collection, ndd_df TO regress_df_alice, regress_df_bob;
CREATE TABLE df_secret (id int, body text);
INSERT INTO df_secret VALUES (1, 'hunter2 password alpha'), (2, 'alpha beta 078-05-1120'), (3, 'alpha gamma');
GRANT SELECT ON df_secret TO regress_df_alice;

-- alice collects a table only she can read
SET ROLE regress_df_alice;
SELECT ndd_df_collect('secret', 'SELECT id, body FROM df_secret') AS ndocs;
SELECT string_agg(token, ' ' ORDER BY token) AS alice_reads FROM ndd_df WHERE collection = 'secret';
SELECT ndd_filter_low_idf('alpha hunter2 new', 'secret', 0.5) AS alice_filters;
RESET ROLE;

-- bob reads none of its words; he sees that the collection exists, whose it is and its size
-- (like pg_class: names, not contents)
SET ROLE regress_df_bob;
SELECT count(*) AS bob_reads_words FROM ndd_df;
SELECT count(*) AS bob_reads_hunter2 FROM ndd_df WHERE token = 'hunter2';
SELECT name, ndocs, owner, readers FROM ndd_collection;
\set VERBOSITY sqlstate
SELECT ndd_filter_low_idf('alpha hunter2 new', 'secret', 0.5);
-- nor may he change them, by the functions or directly
SELECT ndd_df_add('secret', 'poison');
SELECT ndd_df_collect('secret', 'SELECT 1, ''poison''');
SELECT ndd_collection_grant('secret', 'regress_df_bob');
INSERT INTO ndd_df VALUES ('secret', 'poison', 1);
\set VERBOSITY terse
UPDATE ndd_df SET df = 100;
DELETE FROM ndd_df;
UPDATE ndd_collection SET ndocs = 0, readers = '{regress_df_bob}';
DELETE FROM ndd_collection;
-- an existing name cannot be taken over
\set VERBOSITY sqlstate
INSERT INTO ndd_collection (name, owner) VALUES ('secret', 'regress_df_bob');
INSERT INTO ndd_collection (name, owner) VALUES ('bobs', 'regress_df_alice');
\set VERBOSITY terse
-- his own collection is his
SELECT ndd_df_add('bobs', 'bob words') AS bob_adds;
SELECT string_agg(collection || ':' || token, ' ' ORDER BY collection, token) AS bob_reads FROM ndd_df;
RESET ROLE;

-- alice shares with bob, and with a group carol is a member of
SET ROLE regress_df_alice;
SELECT ndd_collection_grant('secret', 'regress_df_bob') AS readers;
SELECT ndd_collection_grant('secret', 'regress_df_team') AS readers;
SELECT ndd_collection_grant('secret', 'regress_df_bob') AS granted_twice;
RESET ROLE;
SET ROLE regress_df_bob;
SELECT count(*) AS bob_reads_words FROM ndd_df WHERE collection = 'secret';
SELECT ndd_filter_low_idf('alpha hunter2 new', 'secret', 0.5) AS bob_filters;
RESET ROLE;
SET ROLE regress_df_carol;
SELECT count(*) AS carol_reads_words FROM ndd_df WHERE collection = 'secret';
RESET ROLE;
-- revoked: bob reads nothing again
SET ROLE regress_df_alice;
SELECT ndd_collection_revoke('secret', 'regress_df_bob') AS readers;
RESET ROLE;
SET ROLE regress_df_bob;
SELECT count(*) AS bob_reads_words FROM ndd_df WHERE collection = 'secret';
RESET ROLE;
-- shared with every role ('public')
SET ROLE regress_df_alice;
SELECT ndd_collection_grant('secret', 'public') AS readers;
RESET ROLE;
SET ROLE regress_df_bob;
SELECT count(*) AS bob_reads_words FROM ndd_df WHERE collection = 'secret';
RESET ROLE;

-- the owner renames and deletes; the frequencies follow (the foreign key's actions run as the
-- tables' owner, since the policies no longer tie the old name to alice)
SET ROLE regress_df_alice;
UPDATE ndd_collection SET name = 'secret2' WHERE name = 'secret';
SELECT collection, count(*) FROM ndd_df WHERE collection LIKE 'secret%' GROUP BY 1;
DELETE FROM ndd_collection WHERE name = 'secret2';
RESET ROLE;
SELECT collection, count(*) FROM ndd_df GROUP BY 1 ORDER BY 1;

-- Issue 31, finding 6: a squatted name. bob creates 'corpus'; a superuser who collects a table
-- bob may not read into that name is refused (it would give bob the words), unless it says so
CREATE TABLE df_admin_secret (id int, body text);
INSERT INTO df_admin_secret VALUES (1, 'topsecret launch codes');
SET ROLE regress_df_bob;
SELECT ndd_df_add('corpus', 'x') AS bob_squats;
RESET ROLE;
\set VERBOSITY sqlstate
SELECT ndd_df_collect('corpus', 'SELECT id, body FROM df_admin_secret');
\set VERBOSITY default
SELECT ndd_df_add('corpus', 'topsecret');
\set VERBOSITY terse
SET ROLE regress_df_bob;
SELECT string_agg(token, ' ' ORDER BY token) AS bob_reads FROM ndd_df WHERE collection = 'corpus';
RESET ROLE;
-- said explicitly: into_other_owner => true, or SET ROLE to the owner; the collection stays bob's
SELECT ndd_df_collect('corpus', 'SELECT 1, ''chosen words''', into_other_owner => true) AS explicit;
SELECT ndd_df_add('corpus', 'more', true) AS explicit_add;
SET ROLE regress_df_bob;
SELECT ndd_df_add('corpus', 'own') AS as_owner;
SELECT string_agg(token, ' ' ORDER BY token) AS bob_reads FROM ndd_df WHERE collection = 'corpus';
RESET ROLE;
SELECT owner FROM ndd_collection WHERE name = 'corpus';
-- a member of a group that owns a collection builds into it as the group (SET ROLE) or says so
GRANT INSERT, UPDATE, DELETE ON ndd_collection, ndd_df TO regress_df_team, regress_df_carol;
SET ROLE regress_df_team;
SELECT ndd_df_add('teams', 'shared words') AS team_builds;
SET ROLE regress_df_carol;
\set VERBOSITY sqlstate
SELECT ndd_df_add('teams', 'carol words');
\set VERBOSITY terse
SELECT ndd_df_add('teams', 'carol words', into_other_owner => true) AS carol_adds_for_team;
-- but a role that is no member of the owner is refused even when it says so
SET ROLE regress_df_bob;
\set VERBOSITY sqlstate
SELECT ndd_df_add('teams', 'bob words', into_other_owner => true);
\set VERBOSITY terse
RESET ROLE;

-- ndd_df rows cannot outlive their collection: no row without one, and TRUNCATE takes them along
-- (before issue 31, TRUNCATE ndd_collection left them for whoever next created the same name)
\set VERBOSITY sqlstate
INSERT INTO ndd_df VALUES ('nowhere', 'orphan', 1);
TRUNCATE ndd_collection;
\set VERBOSITY terse
TRUNCATE ndd_collection CASCADE;
SELECT count(*) AS df_rows_left FROM ndd_df;
SET ROLE regress_df_carol;
SELECT ndd_df_add('corpus', 'y') AS carol_takes_the_old_name;
SELECT string_agg(token, ' ' ORDER BY token) AS carol_reads FROM ndd_df;
RESET ROLE;

-- the readers list is bounded (100): a reader list of millions made every role's reads of ndd_df
-- slow (the policies tested each reader); a group role shares with any number
SET ROLE regress_df_carol;
\set VERBOSITY sqlstate
UPDATE ndd_collection SET readers = (SELECT array_agg(g::oid::regrole) FROM generate_series(100000, 100100) g) WHERE name = 'corpus';
\set VERBOSITY terse
UPDATE ndd_collection SET readers = (SELECT array_agg(g::oid::regrole) FROM generate_series(100000, 100099) g) WHERE name = 'corpus';
\set VERBOSITY default
SELECT ndd_collection_grant('corpus', 'regress_df_bob');
\set VERBOSITY terse
RESET ROLE;

-- nor can many collections: the policies find the current role's collections through the indexes
-- on owner and readers, so with 2,000 collections of another role (100 readers each) a read of
-- ndd_df fetches a few rows of ndd_collection, not all of them (work counted, not timed)
INSERT INTO ndd_collection (name, owner, readers)
  SELECT 'other' || g, 'regress_df_alice', (SELECT array_agg(x::oid::regrole) FROM generate_series(100000, 100099) x)
  FROM generate_series(1, 2000) g;
ANALYZE ndd_collection;
-- (the counters of this transaction only: the earlier ones flushed first)
SELECT pg_stat_force_next_flush();
SET ROLE regress_df_carol;
BEGIN;
SELECT count(*) AS carol_reads FROM ndd_df;
SELECT seq_tup_read + idx_tup_fetch < 20 AS few_collections_read
FROM pg_stat_xact_user_tables WHERE relid = 'ndd_collection'::regclass;
COMMIT;
RESET ROLE;
DELETE FROM ndd_collection WHERE name LIKE 'other%';

-- the policies' memberships (ndd_role_memberships, walked from the current role) are
-- pg_has_role(role, 'MEMBER')'s, for a role alone, a member of a group, a group, and the
-- database's owner (a member of pg_database_owner)
CREATE VIEW df_membership_check AS
    SELECT current_user AS role,
           (SELECT array_agg(r ORDER BY r) FROM unnest(ndd_role_memberships()) AS r)
           = (SELECT array_agg(oid ORDER BY oid) FROM pg_roles WHERE pg_has_role(oid, 'MEMBER')) AS same;
GRANT SELECT ON df_membership_check TO PUBLIC;
SET ROLE regress_df_alice;
SELECT * FROM df_membership_check;
SET ROLE regress_df_carol;
SELECT * FROM df_membership_check;
SET ROLE regress_df_team;
SELECT * FROM df_membership_check;
RESET ROLE;
CREATE ROLE regress_df_dba;
GRANT regress_df_carol TO regress_df_dba;
SELECT datdba::regrole AS dba FROM pg_database WHERE datname = current_database() \gset
ALTER DATABASE :"DBNAME" OWNER TO regress_df_dba;
SET ROLE regress_df_dba;
SELECT * FROM df_membership_check;
SELECT 'pg_database_owner'::regrole::oid = ANY (ndd_role_memberships()) AS dba_is_database_owner;
RESET ROLE;
ALTER DATABASE :"DBNAME" OWNER TO :"dba";

DROP VIEW df_membership_check;
DROP TABLE df_secret, df_admin_secret;
DELETE FROM ndd_collection;
REVOKE ALL ON ndd_collection, ndd_df FROM regress_df_alice, regress_df_bob, regress_df_carol, regress_df_team;
DROP ROLE regress_df_alice, regress_df_bob, regress_df_carol, regress_df_team, regress_df_dba;
