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

-- the owner renames and deletes; the frequencies follow (the cascade trigger runs as the
-- extension's owner, since the policies no longer tie the old name to alice)
SET ROLE regress_df_alice;
UPDATE ndd_collection SET name = 'secret2' WHERE name = 'secret';
SELECT collection, count(*) FROM ndd_df WHERE collection LIKE 'secret%' GROUP BY 1;
DELETE FROM ndd_collection WHERE name = 'secret2';
RESET ROLE;
SELECT collection, count(*) FROM ndd_df GROUP BY 1 ORDER BY 1;

-- the cascade trigger cannot be attached to another table, nor run from one
\set VERBOSITY sqlstate
CREATE TABLE df_decoy (name text);
GRANT ALL ON df_decoy TO regress_df_bob;
SET ROLE regress_df_bob;
CREATE TRIGGER decoy AFTER DELETE ON df_decoy FOR EACH ROW EXECUTE FUNCTION ndd_collection_cascade();
RESET ROLE;
CREATE TRIGGER decoy AFTER DELETE ON df_decoy FOR EACH ROW EXECUTE FUNCTION ndd_collection_cascade();
INSERT INTO df_decoy VALUES ('bobs');
DELETE FROM df_decoy;
\set VERBOSITY terse
SELECT collection, count(*) FROM ndd_df GROUP BY 1 ORDER BY 1;

DROP TABLE df_secret, df_decoy;
DELETE FROM ndd_collection;
REVOKE ALL ON ndd_collection, ndd_df FROM regress_df_alice, regress_df_bob;
DROP ROLE regress_df_alice, regress_df_bob, regress_df_carol, regress_df_team;
