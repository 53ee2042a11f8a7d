-- 40_workflows.sql: the papers' workflows over a whole collection: all near-duplicate pairs in one
-- call (one set, or new against stored), clusters from pairs, labelling rows on insert, verification
-- with exact measures, and the low-IDF filter applied before fingerprinting (its document
-- frequencies); each object with its COMMENT.
--
-- The collection-level functions take the query that produces their input as text (docs_sql,
-- pairs_sql, order_sql), like pgRouting: any table, view, join or WHERE clause can feed them.
-- Columns are taken by position; their names do not matter.

-- ---------------------------------------------------------------------------------------------
-- All pairs (Manku's batch mode; Pugh's iceberg query)
-- ---------------------------------------------------------------------------------------------

-- Every pair of documents whose fingerprints are within k bits. docs_sql returns (id, fp) with an
-- integer id and a simhash64, fp128 or bigint fingerprint. blocks = 0 picks the table layout.
CREATE FUNCTION ndd_pairs(docs_sql text, k int, blocks int DEFAULT 0,
                          OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION ndd_pairs(text, int, int) IS
	'every pair (a, b, distance) of documents of docs_sql (id, fp) whose fingerprints are within k bits, in one call';

-- Every pair (new, stored) of a row of new_sql and a row of stored_sql within k bits, in one batch:
-- both sets sorted together per table, only pairs across the sets compared.
CREATE FUNCTION ndd_pairs_between(new_sql text, stored_sql text, k int, blocks int DEFAULT 0,
                                  OUT new_id bigint, OUT stored_id bigint, OUT distance int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_pairs_between'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION ndd_pairs_between(text, text, int, int) IS
	'every pair (new_id, stored_id, distance) of a row of new_sql and a row of stored_sql (id, fp) within k bits, in one batch (the crawler''s daily job)';

-- Every pair of documents sharing at least min_shared distinct features. docs_sql returns
-- (id, features bigint[]): supershingles, word_list_fingerprints, or any feature array.
CREATE FUNCTION ndd_feature_pairs(docs_sql text, min_shared int DEFAULT 2, max_df int DEFAULT 1000,
                                  OUT a bigint, OUT b bigint, OUT shared int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_feature_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION ndd_feature_pairs(text, int, int) IS
	'every pair (a, b, shared) of documents of docs_sql (id, bigint[]) sharing at least min_shared features; features in more than max_df documents are skipped';

-- ---------------------------------------------------------------------------------------------
-- Clusters
-- ---------------------------------------------------------------------------------------------

-- Clusters from near-duplicate pairs (pairs_sql returns (a, b, ...)). Fully transitive by default;
-- conservative: a document joins only the cluster of a representative it is a near-duplicate of,
-- representatives being taken earliest first. order_sql returns every document's id in that
-- order (use ORDER BY); without it the documents are the ids of the pairs, ascending.
CREATE FUNCTION ndd_clusters(pairs_sql text, conservative boolean DEFAULT false,
                             order_sql text DEFAULT NULL,
                             OUT id bigint, OUT cluster_id bigint, OUT representative boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_clusters'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION ndd_clusters(text, boolean, text) IS
	'clusters (id, cluster_id, representative) from the pairs of pairs_sql; transitive, or conservative (join a representative only)';

-- ---------------------------------------------------------------------------------------------
-- On insert: label a new row with the cluster of an existing near-duplicate
-- ---------------------------------------------------------------------------------------------

-- The query behind ndd_nearest_cluster and the labelling trigger, in one place: $1 is the
-- fingerprint, $2 is k. Its parameters have exact, non-polymorphic types, so no overload created
-- later in the extension's schema can be a better match for the trigger's call (a polymorphic
-- function loses to any exact-typed one); tbl prints schema-qualified under the pinned path.
-- Every operator names its schema, so the text means the same under any search_path (the trigger
-- prepares it once and keeps the plan): <~> and <= are the extension's (an unqualified <= would
-- resolve to pg_catalog's int4 comparison through a cast and the ndd index would not be used),
-- = is pg_catalog's (a caller's schema could hold a better-matching = for the id columns).
CREATE FUNCTION ndd_nearest_cluster_sql(tbl regclass, fp_column name, cluster_column name,
                                        id_column name, representatives_only boolean)
RETURNS text
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- a regclass is only an OID: a missing one would print as a number into the query (issue 31)
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) tbl::oid) THEN
        RAISE EXCEPTION 'relation with OID % does not exist', tbl::oid USING ERRCODE = 'undefined_table';
    END IF;
    RETURN CASE WHEN representatives_only
        THEN pg_catalog.format('SELECT %1$I FROM %2$s WHERE %3$I OPERATOR(@extschema@.<~>) $1 OPERATOR(@extschema@.<=) $2 AND %1$I OPERATOR(pg_catalog.=) %4$I ORDER BY %4$I LIMIT 1',
                    cluster_column, tbl, fp_column, id_column)
        ELSE pg_catalog.format('SELECT %1$I FROM %2$s WHERE %3$I OPERATOR(@extschema@.<~>) $1 OPERATOR(@extschema@.<=) $2 ORDER BY %3$I OPERATOR(@extschema@.<~>) $1, %4$I LIMIT 1',
                    cluster_column, tbl, fp_column, id_column)
        END;
END
$$;
COMMENT ON FUNCTION ndd_nearest_cluster_sql(regclass, name, name, name, boolean) IS
	'the lookup query of ndd_nearest_cluster and ndd_assign_cluster_trigger ($1 the fingerprint, $2 k), built in one place';

-- The cluster of an existing row of tbl whose fingerprint is within k bits of fp, found through
-- the table's index on fp_column when there is one; NULL when there is none. With
-- representatives_only (the conservative rule) only representatives (rows whose cluster is their
-- own id) count, and the earliest (lowest id) wins; otherwise the nearest row wins, then the
-- lowest id.
-- search_path is pinned (pg_catalog, pg_temp last) and everything of the extension's is
-- qualified with its schema: nothing it runs resolves through the caller's search_path, so a
-- schema earlier in that path cannot capture it.
CREATE FUNCTION ndd_nearest_cluster(tbl regclass, fp_column name, fp anyelement, k int,
                                    cluster_column name DEFAULT 'cluster_id',
                                    id_column name DEFAULT 'id',
                                    representatives_only boolean DEFAULT true)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    result bigint;
BEGIN
    IF tbl IS NULL OR fp_column IS NULL OR fp IS NULL OR k IS NULL OR cluster_column IS NULL
       OR id_column IS NULL OR representatives_only IS NULL THEN
        RETURN NULL;
    END IF;
    IF k < 0 THEN
        RAISE EXCEPTION 'k must not be negative' USING ERRCODE = '22023', DETAIL = pg_catalog.format('k is %s.', k);
    END IF;
    EXECUTE @extschema@.ndd_nearest_cluster_sql(tbl, fp_column, cluster_column, id_column, representatives_only)
        INTO result USING fp, k;
    RETURN result;
END
$$;
COMMENT ON FUNCTION ndd_nearest_cluster(regclass, name, anyelement, int, name, name, boolean) IS
	'the cluster of an existing row within k bits of fp (through the index on fp_column when there is one), or NULL';

-- The lock that serialises labelling of one table (src/workflow_locks.c): a transaction-scoped
-- lock on the table's partition root that only a role allowed to INSERT into tbl can take.
-- Returns the root.
CREATE FUNCTION ndd_labelling_lock(tbl regclass) RETURNS regclass
AS 'MODULE_PATHNAME', 'ndd_labelling_lock'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ndd_labelling_lock(regclass) IS
	'takes the transaction-scoped lock that serialises ndd_assign_cluster_trigger on a table''s partition root; only for roles that may INSERT into the table';

-- A BEFORE INSERT row trigger that sets the new row's cluster column: the cluster of an existing
-- near-duplicate (ndd_nearest_cluster), or the row's own id when it has none (a new
-- representative). Arguments: fingerprint column, cluster column (default cluster_id), k (default
-- 3), id column (default id), mode 'conservative' (default) or 'nearest'. A cluster value given in
-- the INSERT is kept.
--
-- A STORED GENERATED fingerprint column is computed only after BEFORE triggers, so NEW holds
-- NULL there: the trigger evaluates the column's generation expression on NEW itself (the
-- expression tree, as the executor evaluates it; no name is looked up again).
--
-- On a partitioned table (the trigger is cloned to every partition) the search and the lock are
-- the partition root's: near-duplicates in different partitions join one cluster.
--
-- Concurrency: two near-duplicates inserted by concurrent transactions would both look, see
-- neither the other (uncommitted) row, and both become representatives. Near-duplicates share no
-- single key to lock (simhash neighbours differ in unpredictable bits), so the trigger serialises
-- labelling per table with ndd_labelling_lock (a lock only inserters can take; an advisory lock
-- key would let any role stall the inserts): the second inserter waits until the first commits
-- or aborts, and under READ COMMITTED its lookup (a new statement, so a new snapshot) then sees
-- the first row. Inserts into one table are thereby serialised from the trigger to commit; keep
-- such transactions short. REPEATABLE READ is refused because its snapshot predates the lock;
-- SERIALIZABLE is safe (the conflict aborts one transaction).
--
-- Citus: a row trigger fires on the shard, which cannot see the other shards' rows, so the
-- trigger refuses (0A000) on a shard; distributed tables are labelled in batches instead.
--
-- In C (src/cluster_trigger.c), with what depends only on the table's definition (checked
-- arguments, column numbers, the fingerprint's expression, the partition root, the lookup's
-- prepared plan) cached per trigger and table and invalidated when the table changes. No SET
-- search_path (it would cost every row a GUC save and restore): it resolves no name through the
-- caller's search_path; the lookup from ndd_nearest_cluster_sql is parsed and run under that
-- function's pinned path.
CREATE FUNCTION ndd_assign_cluster_trigger()
RETURNS trigger
AS 'MODULE_PATHNAME', 'ndd_assign_cluster_trigger'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION ndd_assign_cluster_trigger() IS
	'BEFORE INSERT row trigger: sets the new row''s cluster column to an existing near-duplicate''s cluster, or to its own id';

-- ---------------------------------------------------------------------------------------------
-- Verification: exact measures for pairs and clusters
-- ---------------------------------------------------------------------------------------------

-- How the functions below that run a caller's query text keep search_path from capturing them:
-- each is a SQL-standard body (BEGIN ATOMIC: bound to its functions and operators when created, so
-- no search_path can redirect it) that hands the caller's search_path, read in the caller's
-- context, to a *_job function that pins search_path = pg_catalog, pg_temp. The job switches to the
-- caller's search_path only for the statements that embed the caller's query (which must resolve
-- as the caller wrote it) and names every schema in them, operators too (OPERATOR(pg_catalog.=);
-- no NULLIF or IN, which look = up by name): PostgreSQL's cardinality, unnest, format, array_agg
-- and float8 / int4 are polymorphic, variadic or need a cast, so an exact-typed one in any schema
-- on that path would otherwise win, and run with the caller's rights (issue 20).

-- Every measure of ndd_verify for one pair of texts, from one copy of each (the separate functions
-- would each read both): jaccard and containment both ways as jaccard() and containment() give
-- them (within work_mem), the word edit distance (refused with 53200 beyond work_mem), and
-- edit_similarity = 1 - distance / (tokens of a + tokens of b), NULL when neither has a token.
CREATE FUNCTION ndd_verify_pair(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words',
                                OUT jaccard float8, OUT a_in_b float8, OUT b_in_a float8,
                                OUT word_edit_distance int, OUT edit_similarity float8)
AS 'MODULE_PATHNAME', 'ndd_verify_pair'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_verify_pair(text, text, int, text) IS
	'jaccard, containment both ways, word edit distance and edit similarity of two texts from one copy of each, within work_mem (53200 beyond it); the measures of ndd_verify';

-- Exact measures of each pair of pairs_sql (a, b, ...) over the texts of docs_sql (id, doc):
-- Jaccard resemblance and containment of word shingle sets (both directions), the word edit
-- distance, and edit_similarity = 1 - distance / (tokens of a + tokens of b) (the corpus ground
-- truth's definition), over the tokens of tokenizer. A pair whose document is missing gets NULL
-- measures. docs_sql is read once
-- (a materialized CTE, spilling beyond work_mem), so a volatile query gives consistent measures.
CREATE FUNCTION ndd_verify_job(pairs_sql text, docs_sql text, shingle int, tokenizer text,
                               caller_search_path text)
RETURNS TABLE(a bigint, b bigint, jaccard float8, a_in_b float8, b_in_a float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    RETURN QUERY EXECUTE pg_catalog.format($q$
        WITH docs AS MATERIALIZED (SELECT docs_sql.id::bigint AS id, docs_sql.doc FROM (%s) AS docs_sql(id, doc))
        SELECT p.a, p.b, m.jaccard, m.a_in_b, m.b_in_a, m.word_edit_distance, m.edit_similarity
        FROM (SELECT pairs_sql.a::bigint, pairs_sql.b::bigint FROM (%s) AS pairs_sql(a, b)) AS p(a, b)
        LEFT JOIN docs AS x ON x.id OPERATOR(pg_catalog.=) p.a
        LEFT JOIN docs AS y ON y.id OPERATOR(pg_catalog.=) p.b
        CROSS JOIN LATERAL @extschema@.ndd_verify_pair(x.doc, y.doc, $1, $2) AS m
        ORDER BY 1, 2 $q$, docs_sql, pairs_sql) USING shingle, tokenizer;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$$;
COMMENT ON FUNCTION ndd_verify_job(text, text, int, text, text) IS
	'the work of ndd_verify, search_path pinned: the caller''s queries run under caller_search_path';
CREATE FUNCTION ndd_verify(pairs_sql text, docs_sql text, shingle int DEFAULT 4,
                           tokenizer text DEFAULT 'words')
RETURNS TABLE(a bigint, b bigint, jaccard float8, a_in_b float8, b_in_a float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.jaccard, j.a_in_b, j.b_in_a, j.word_edit_distance, j.edit_similarity
    FROM @extschema@.ndd_verify_job(pairs_sql, docs_sql, shingle, tokenizer, pg_catalog.current_setting('search_path')) AS j;
END;
COMMENT ON FUNCTION ndd_verify(text, text, int, text) IS
	'exact Jaccard, containment both ways, word edit distance and edit similarity of each pair of pairs_sql over the texts of docs_sql';

-- For every cluster of clusters_sql (id, cluster_id, ...) with two members or more, its worst
-- pair: the two members with the lowest exact Jaccard resemblance (all member pairs are compared,
-- so a cluster of s members costs s(s-1)/2 comparisons), with that pair's word edit distance and
-- edit similarity. Shows what hiding a cluster behind its representative would hide.
CREATE FUNCTION ndd_cluster_worst_pairs_job(clusters_sql text, docs_sql text, shingle int, tokenizer text,
                                            caller_search_path text)
RETURNS TABLE(cluster_id bigint, size bigint, a bigint, b bigint, jaccard float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    RETURN QUERY EXECUTE pg_catalog.format($q$
        WITH m AS (
            SELECT c.id, c.cluster_id, d.doc, pg_catalog.count(*) OVER (PARTITION BY c.cluster_id) AS size
            FROM (SELECT clusters_sql.id::bigint, clusters_sql.cluster_id::bigint FROM (%s) AS clusters_sql(id, cluster_id)) AS c(id, cluster_id)
            JOIN (SELECT docs_sql.id::bigint, docs_sql.doc FROM (%s) AS docs_sql(id, doc)) AS d(id, doc) ON d.id OPERATOR(pg_catalog.=) c.id),
        worst AS (
            SELECT DISTINCT ON (x.cluster_id) x.cluster_id, x.size, x.id AS a, y.id AS b,
                   @extschema@.jaccard(x.doc, y.doc, $1, $2) AS j, x.doc AS da, y.doc AS db
            FROM m x JOIN m y ON y.cluster_id OPERATOR(pg_catalog.=) x.cluster_id AND y.id OPERATOR(pg_catalog.>) x.id
            ORDER BY x.cluster_id, 5, x.id, y.id)
        SELECT w.cluster_id, w.size, w.a, w.b, w.j, e.word_edit_distance, e.edit_similarity
        FROM worst w CROSS JOIN LATERAL @extschema@.ndd_verify_pair(w.da, w.db, $1, $2) AS e
        ORDER BY w.j, w.cluster_id $q$, clusters_sql, docs_sql) USING shingle, tokenizer;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$$;
COMMENT ON FUNCTION ndd_cluster_worst_pairs_job(text, text, int, text, text) IS
	'the work of ndd_cluster_worst_pairs, search_path pinned: the caller''s queries run under caller_search_path';
CREATE FUNCTION ndd_cluster_worst_pairs(clusters_sql text, docs_sql text, shingle int DEFAULT 4,
                                        tokenizer text DEFAULT 'words')
RETURNS TABLE(cluster_id bigint, size bigint, a bigint, b bigint, jaccard float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.cluster_id, j.size, j.a, j.b, j.jaccard, j.word_edit_distance, j.edit_similarity
    FROM @extschema@.ndd_cluster_worst_pairs_job(clusters_sql, docs_sql, shingle, tokenizer,
                                                   pg_catalog.current_setting('search_path')) AS j;
END;
COMMENT ON FUNCTION ndd_cluster_worst_pairs(text, text, int, text) IS
	'for each cluster of two or more, its least similar pair by exact Jaccard, with edit distance and similarity';

-- ---------------------------------------------------------------------------------------------
-- Filters before fingerprinting (the research report's number, stop-word and low-IDF filters)
-- ---------------------------------------------------------------------------------------------

-- Document frequencies kept by the extension, per named collection: how many documents a
-- collection has, and in how many of them each token occurs. Dumped by pg_dump (configuration
-- tables; pg_dump orders the data of configuration tables by their foreign keys, so the
-- collections are restored before their frequencies, pg_restore -j included: see
-- test/scripts/dump_restore.sh). ndd_df's rows cannot outlive their collection: a foreign key
-- deletes or renames them with it (its actions run as the tables' owner, past row-level
-- security), and TRUNCATE ndd_collection needs CASCADE (issue 31: a TRUNCATE used to leave them
-- behind for whoever next created a collection of the same name). Tokens longer than 1000 bytes
-- are not counted (a btree key holds about 2.7 kB): ndd_df_collect and ndd_df_add skip them
-- alike, and ndd_filter_low_idf treats them as unseen (infinite IDF, kept).
-- Privileges (doc/security.md): ndd_df holds every distinct word of the collected documents,
-- verbatim, so it follows the documents' privileges by row-level security (issue 20): a role reads
-- a collection's rows of ndd_df only if it is a member of the collection's owner (the role that
-- created it) or of a role in its readers (0, shown as "-", is PUBLIC), which the owner changes
-- with ndd_collection_grant / ndd_collection_revoke; only members of the owner write them. At most
-- 100 readers (share with a group role beyond that), so that no collection makes the policies
-- slow for every role (issue 31). Like pg_class, ndd_collection itself (names, owners, readers,
-- document counts; no words) is readable by every role. Writing (ndd_df_collect, ndd_df_add,
-- DELETE) also needs INSERT, UPDATE, DELETE granted on both tables, by a superuser.
CREATE TABLE ndd_collection (
    name text PRIMARY KEY CHECK (octet_length(name) <= 1000),
    ndocs bigint NOT NULL DEFAULT 0 CHECK (ndocs >= 0),
    built_at timestamptz NOT NULL DEFAULT now(),
    owner regrole NOT NULL DEFAULT pg_catalog.quote_ident(CURRENT_USER)::regrole,
    readers regrole[] NOT NULL DEFAULT '{}' CONSTRAINT ndd_collection_readers_limit CHECK (cardinality(readers) <= 100)
);
COMMENT ON TABLE ndd_collection IS 'named collections with their number of documents, for the low-IDF filter';
CREATE TABLE ndd_df (
    collection text NOT NULL REFERENCES ndd_collection (name) ON DELETE CASCADE ON UPDATE CASCADE,
    token text NOT NULL CHECK (octet_length(token) <= 1000),
    df bigint NOT NULL CHECK (df > 0),
    PRIMARY KEY (collection, token)
);
COMMENT ON TABLE ndd_df IS 'per collection and token: the number of documents containing the token';
SELECT pg_catalog.pg_extension_config_dump('ndd_collection', '');
SELECT pg_catalog.pg_extension_config_dump('ndd_df', '');
GRANT SELECT ON ndd_collection, ndd_df TO PUBLIC;

-- The indexes of the row-level security rule below (ndd_collections_readable/_writable): a
-- collection's owner and readers as OIDs, so that finding the current role's collections does not
-- read the others. The GIN index without its pending list (fastupdate), which a search reads
-- whole: a role that creates many collections must not make the others' searches long.
CREATE INDEX ndd_collection_owner_idx ON ndd_collection ((owner::oid));
COMMENT ON INDEX ndd_collection_owner_idx IS 'the collections of an owner, for the row-level security of ndd_df';
CREATE INDEX ndd_collection_readers_idx ON ndd_collection USING gin ((readers::oid[])) WITH (fastupdate = off);
COMMENT ON INDEX ndd_collection_readers_idx IS 'the collections shared with a role, for the row-level security of ndd_df';

-- The roles whose collections the current role reads and writes as its own: itself and every role
-- it is a member of, directly or through others (pg_has_role(role, 'MEMBER'), superusers aside:
-- they are handled by their callers), with pg_database_owner when one of them owns the database.
-- Walked from the current role through pg_auth_members, so its cost is the current role's own
-- memberships, never the number of roles or of readers anywhere else. test/sql/df_privileges.sql
-- checks it against pg_has_role for every role of the test.
CREATE FUNCTION ndd_role_memberships() RETURNS oid[]
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    WITH RECURSIVE m(r) AS (
        SELECT u.oid FROM pg_catalog.pg_roles AS u WHERE u.rolname OPERATOR(pg_catalog.=) CURRENT_USER
        UNION
        SELECT g.r FROM m CROSS JOIN LATERAL (
            SELECT a.roleid FROM pg_catalog.pg_auth_members AS a WHERE a.member OPERATOR(pg_catalog.=) m.r
            UNION ALL
            SELECT o.oid FROM pg_catalog.pg_database AS d, pg_catalog.pg_roles AS o
            WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database() AND d.datdba OPERATOR(pg_catalog.=) m.r
              AND o.rolname OPERATOR(pg_catalog.=) 'pg_database_owner') AS g(r))
    SELECT pg_catalog.array_agg(m.r) FROM m;
END;
COMMENT ON FUNCTION ndd_role_memberships() IS
	'the current role and every role it is a member of, directly or not (as pg_has_role(role, ''MEMBER''), superusers aside)';

-- The collections whose document frequencies the current role may read / write: the one rule,
-- used by the row-level security policies below (as an uncorrelated IN, which PostgreSQL hashes
-- once per statement, not a test per row: per row it made ndd_filter_low_idf 16 times slower) and
-- by the functions' clear errors. Superusers may read and write all (as pg_has_role says). The
-- current role's memberships are computed once per statement (scalar subqueries: initplans) and
-- looked up in the indexes on owner and readers above, one branch of a UNION each: the cost is
-- the current role's memberships and the collections it may read, never the number of other
-- collections or of their readers (issue 31: 200,000 collections of another role, 100 readers
-- each, made every read of ndd_df take 24 s; bench/df_readers.sh measures it). enable_seqscan is
-- off in them: the planner, which counts an && of two arrays as one operation whatever their
-- lengths, otherwise prefers reading every collection once there are a few thousand (20,000
-- collections of 100 readers: 105 ms instead of under 1 ms). SQL-standard bodies: bound when
-- created.
CREATE FUNCTION ndd_collections_readable() RETURNS SETOF text
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off
BEGIN ATOMIC
    SELECT c.name FROM @extschema@.ndd_collection AS c
    WHERE c.owner::oid OPERATOR(pg_catalog.=) ANY ((SELECT @extschema@.ndd_role_memberships())::oid[])
    UNION
    SELECT c.name FROM @extschema@.ndd_collection AS c
    WHERE c.readers::oid[] OPERATOR(pg_catalog.&&) (SELECT @extschema@.ndd_role_memberships() OPERATOR(pg_catalog.||) 0::oid)
    UNION
    SELECT c.name FROM @extschema@.ndd_collection AS c
    WHERE (SELECT u.rolsuper FROM pg_catalog.pg_roles AS u WHERE u.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
END;
COMMENT ON FUNCTION ndd_collections_readable() IS
	'the collections whose document frequencies the current role may read: a member of the owner or of one of the readers (0 = PUBLIC); the rule of ndd_df''s row-level security';
CREATE FUNCTION ndd_collections_writable() RETURNS SETOF text
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off
BEGIN ATOMIC
    SELECT c.name FROM @extschema@.ndd_collection AS c
    WHERE c.owner::oid OPERATOR(pg_catalog.=) ANY ((SELECT @extschema@.ndd_role_memberships())::oid[])
    UNION
    SELECT c.name FROM @extschema@.ndd_collection AS c
    WHERE (SELECT u.rolsuper FROM pg_catalog.pg_roles AS u WHERE u.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
END;
COMMENT ON FUNCTION ndd_collections_writable() IS
	'the collections whose document frequencies the current role may change: a member of the owner; the rule of ndd_df''s row-level security';

ALTER TABLE ndd_collection ENABLE ROW LEVEL SECURITY;
ALTER TABLE ndd_df ENABLE ROW LEVEL SECURITY;
CREATE POLICY ndd_collection_read ON ndd_collection FOR SELECT USING (true);
CREATE POLICY ndd_collection_insert ON ndd_collection FOR INSERT
    WITH CHECK (pg_catalog.pg_has_role(owner, 'MEMBER'));
CREATE POLICY ndd_collection_update ON ndd_collection FOR UPDATE
    USING (pg_catalog.pg_has_role(owner, 'MEMBER')) WITH CHECK (pg_catalog.pg_has_role(owner, 'MEMBER'));
CREATE POLICY ndd_collection_delete ON ndd_collection FOR DELETE USING (pg_catalog.pg_has_role(owner, 'MEMBER'));
CREATE POLICY ndd_df_read ON ndd_df FOR SELECT USING (collection IN (SELECT @extschema@.ndd_collections_readable()));
CREATE POLICY ndd_df_insert ON ndd_df FOR INSERT WITH CHECK (collection IN (SELECT @extschema@.ndd_collections_writable()));
CREATE POLICY ndd_df_update ON ndd_df FOR UPDATE
    USING (collection IN (SELECT @extschema@.ndd_collections_writable())) WITH CHECK (collection IN (SELECT @extschema@.ndd_collections_writable()));
CREATE POLICY ndd_df_delete ON ndd_df FOR DELETE USING (collection IN (SELECT @extschema@.ndd_collections_writable()));

-- Refuses (42501) to change a collection that exists and is not the current role's: with
-- own_only (building into it: ndd_df_collect, ndd_df_add), unless the current role is its owner
-- itself, superusers included; otherwise (sharing it), unless the current role is a member of
-- its owner. Building into another role's collection gives that role the words of what is
-- collected (issue 31: bob created 'corpus', a superuser collected a table bob may not read into
-- it, and bob read its words), so it must be asked for: SET ROLE to the owner, or pass
-- into_other_owner => true to ndd_df_collect / ndd_df_add (own_only false here), which then needs
-- membership in the owner as before.
CREATE FUNCTION ndd_collection_check_owner(collection text, own_only boolean) RETURNS void
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    o regrole;
BEGIN
    SELECT c.owner INTO o FROM @extschema@.ndd_collection AS c WHERE c.name = collection;
    IF NOT FOUND OR o::oid = (SELECT u.oid FROM pg_roles AS u WHERE u.rolname = CURRENT_USER) THEN
        RETURN;
    END IF;
    IF own_only THEN
        RAISE EXCEPTION 'permission denied for collection "%"', collection
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = format('It belongs to role %s: what is collected into it becomes readable by that role and whoever it shares it with.', o),
                  HINT = format('Choose another name, or, to build into it as that role, SET ROLE %s first or pass into_other_owner => true.', o);
    END IF;
    IF NOT pg_has_role(o, 'MEMBER') THEN
        RAISE EXCEPTION 'permission denied for collection "%"', collection
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = format('It belongs to role %s; only its members may change it.', o);
    END IF;
END
$$;
COMMENT ON FUNCTION ndd_collection_check_owner(text, boolean) IS
	'raises 42501 when the collection exists and the current role is not its owner (own_only, superusers included) or not a member of its owner';

-- Shares a collection's document frequencies with a role (reader 'public': every role), or stops
-- sharing them. Only members of the collection's owner may. Returns the collection's readers; at
-- most 100 (54000 beyond: a group role shares with any number of roles).
CREATE FUNCTION ndd_collection_set_reader(collection text, reader text, shared boolean) RETURNS regrole[]
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r regrole := CASE WHEN lower(reader) = 'public' THEN '-'::regrole ELSE reader::regrole END;
    result regrole[];
BEGIN
    PERFORM @extschema@.ndd_collection_check_owner(collection, false);
    UPDATE @extschema@.ndd_collection AS c
        SET readers = CASE WHEN NOT shared THEN array_remove(c.readers, r)
                           WHEN r = ANY (c.readers) THEN c.readers ELSE c.readers || r END
        WHERE c.name = collection RETURNING c.readers INTO result;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'collection "%" does not exist', collection USING ERRCODE = '22023';
    END IF;
    RETURN result;
EXCEPTION WHEN check_violation THEN
    RAISE EXCEPTION 'collection "%" has 100 readers already', collection
        USING ERRCODE = 'program_limit_exceeded',
              HINT = format('Share it with a group role instead: CREATE ROLE readers_group; GRANT readers_group TO %s; SELECT ndd_collection_grant(%L, ''readers_group'').',
                            r, collection);
END
$$;
COMMENT ON FUNCTION ndd_collection_set_reader(text, text, boolean) IS
	'adds (shared) or removes a reader of a collection''s document frequencies; the work of ndd_collection_grant and ndd_collection_revoke';
CREATE FUNCTION ndd_collection_grant(collection text, reader text) RETURNS regrole[]
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
RETURN @extschema@.ndd_collection_set_reader(collection, reader, true);
COMMENT ON FUNCTION ndd_collection_grant(text, text) IS
	'lets a role (or ''public'') read a collection''s document frequencies; only for members of its owner; returns its readers';
CREATE FUNCTION ndd_collection_revoke(collection text, reader text) RETURNS regrole[]
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
RETURN @extschema@.ndd_collection_set_reader(collection, reader, false);
COMMENT ON FUNCTION ndd_collection_revoke(text, text) IS
	'stops a role (or ''public'') reading a collection''s document frequencies; only for members of its owner; returns its readers';

-- (Re)builds the document frequencies of a collection from docs_sql (id, doc): every distinct
-- token of every document, as ndd_tokens sees it (but tokens over 1000 bytes, see above).
-- Returns the number of documents. A new collection belongs to the current role; an existing
-- one keeps its owner and readers, and only its owner may rebuild it, superusers included
-- (42501), unless into_other_owner (then members of its owner may; see
-- ndd_collection_check_owner). docs_sql is the caller's query and resolves through the caller's
-- search_path (see ndd_verify_job for how); everything else is schema-qualified.
CREATE FUNCTION ndd_df_collect_job(collection text, docs_sql text, into_other_owner boolean, caller_search_path text)
RETURNS bigint
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n bigint;
BEGIN
    PERFORM @extschema@.ndd_collection_check_owner(collection, NOT into_other_owner);
    INSERT INTO @extschema@.ndd_collection AS c (name, ndocs) VALUES (ndd_df_collect_job.collection, 0)
        ON CONFLICT (name) DO UPDATE SET ndocs = 0, built_at = now();
    DELETE FROM @extschema@.ndd_df AS f WHERE f.collection = ndd_df_collect_job.collection;
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    EXECUTE pg_catalog.format($q$
        WITH docs AS MATERIALIZED (SELECT d.doc FROM (%s) AS d(id, doc) WHERE d.doc IS NOT NULL),
             counted AS (UPDATE @extschema@.ndd_collection SET ndocs = (SELECT pg_catalog.count(*) FROM docs),
                                built_at = pg_catalog.now()
                         WHERE name OPERATOR(pg_catalog.=) $1 RETURNING ndocs)
        INSERT INTO @extschema@.ndd_df (collection, token, df)
        SELECT $1, t.token, pg_catalog.count(*)
        FROM docs CROSS JOIN LATERAL (SELECT DISTINCT u AS token FROM pg_catalog.unnest(@extschema@.ndd_tokens(docs.doc)) AS u
                                      WHERE pg_catalog.octet_length(u) OPERATOR(pg_catalog.<=) 1000) AS t
        GROUP BY t.token $q$, docs_sql) USING collection;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    SELECT c.ndocs INTO n FROM @extschema@.ndd_collection AS c WHERE c.name = ndd_df_collect_job.collection;
    RETURN n;
END
$$;
COMMENT ON FUNCTION ndd_df_collect_job(text, text, boolean, text) IS
	'the work of ndd_df_collect, search_path pinned: the caller''s query runs under caller_search_path';
CREATE FUNCTION ndd_df_collect(collection text, docs_sql text, into_other_owner boolean DEFAULT false)
RETURNS bigint
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT @extschema@.ndd_df_collect_job(collection, docs_sql, into_other_owner, pg_catalog.current_setting('search_path'));
END;
COMMENT ON FUNCTION ndd_df_collect(text, text, boolean) IS
	'(re)builds a collection''s document frequencies from docs_sql (id, doc); returns the number of documents; another role''s collection only with into_other_owner';

-- Adds one document to a collection's frequencies (e.g. from an insert trigger); creates the
-- collection, owned by the current role, when it does not exist; only the owner of an existing
-- collection may add to it, superusers included (42501), unless into_other_owner (then members of
-- its owner may). Returns the collection's new document count.
CREATE FUNCTION ndd_df_add(collection text, doc text, into_other_owner boolean DEFAULT false)
RETURNS bigint
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n bigint;
BEGIN
    PERFORM @extschema@.ndd_collection_check_owner(collection, NOT into_other_owner);
    INSERT INTO @extschema@.ndd_collection AS c (name, ndocs) VALUES (collection, 1)
        ON CONFLICT (name) DO UPDATE SET ndocs = c.ndocs + 1
        RETURNING c.ndocs INTO n;
    INSERT INTO @extschema@.ndd_df AS f (collection, token, df)
        SELECT collection, t, 1 FROM (SELECT DISTINCT u AS t FROM unnest(@extschema@.ndd_tokens(doc)) AS u
                                      WHERE octet_length(u) <= 1000) AS d
        ON CONFLICT ON CONSTRAINT ndd_df_pkey DO UPDATE SET df = f.df + 1;
    RETURN n;
END
$$;
COMMENT ON FUNCTION ndd_df_add(text, text, boolean) IS
	'adds one document to a collection''s document frequencies; returns the new document count; another role''s collection only with into_other_owner';

-- The number of documents of a collection whose frequencies the current role may read, or the
-- clear error: 22023 when it does not exist, 42501 (with the owner's way to share it) when the
-- current role may not read it (ndd_collections_readable). The one check of every function that
-- reads a collection's frequencies with the caller's privileges (ndd_filter_low_idf, cosine_idf):
-- without it they would read no rows of ndd_df and answer as if no word had been seen.
CREATE FUNCTION ndd_collection_readable_ndocs(collection text) RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n bigint;
    o regrole;
BEGIN
    SELECT c.ndocs, c.owner INTO n, o FROM @extschema@.ndd_collection AS c WHERE c.name = collection;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'collection "%" has no document frequencies', collection
            USING ERRCODE = '22023', HINT = 'Build them with ndd_df_collect() or ndd_df_add().';
    END IF;
    IF NOT collection IN (SELECT @extschema@.ndd_collections_readable()) THEN
        RAISE EXCEPTION 'permission denied for the document frequencies of collection "%"', collection
            USING ERRCODE = 'insufficient_privilege',
                  HINT = format('Its owner, role %s, can share them: SELECT ndd_collection_grant(%L, %L).',
                                o, collection, current_user);
    END IF;
    RETURN n;
END
$$;
COMMENT ON FUNCTION ndd_collection_readable_ndocs(text) IS
	'the document count of a collection the current role may read; 22023 when it does not exist, 42501 when it may not read it';

-- The document's tokens joined by single spaces, keeping only those whose inverse document
-- frequency in the collection, ln(ndocs / df), is at least min_idf. Tokens the collection has
-- never seen (also those over 1000 bytes, which are never counted) have an infinite IDF and are
-- kept. (The research report tried thresholds 4 and 5.) Only for roles that may read the
-- collection's frequencies (ndd_collections_readable); others get 42501, not a silently unfiltered
-- text.
CREATE FUNCTION ndd_filter_low_idf(doc text, collection text, min_idf float8)
RETURNS text
LANGUAGE plpgsql STRICT STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n bigint;
BEGIN
    n := @extschema@.ndd_collection_readable_ndocs(collection);
    RETURN coalesce((
        SELECT string_agg(u.t, ' ' ORDER BY u.i)
        FROM unnest(@extschema@.ndd_tokens(doc)) WITH ORDINALITY AS u(t, i)
        LEFT JOIN @extschema@.ndd_df AS f ON f.collection = ndd_filter_low_idf.collection AND f.token = u.t
        WHERE f.df IS NULL OR ln(n::float8 / f.df) >= min_idf), '');
END
$$;
COMMENT ON FUNCTION ndd_filter_low_idf(text, text, float8) IS
	'the document''s tokens whose IDF ln(ndocs / df) in the collection is at least min_idf (unseen tokens are kept)';
