-- ndd upgrade script 0.1 -> 0.2.0 (ALTER EXTENSION ndd UPDATE). Grouped by area, in the order of
-- the install script's parts (src/sql/NN_*.sql); each group says what changed and why.
-- test/scripts/upgrade.sh checks that an upgraded 0.1 describes exactly like a fresh 0.2.0 install.

\echo Use "ALTER EXTENSION ndd UPDATE TO '0.2.0'" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- Types (src/sql/10_types.sql): a hamming_ball's radius is never negative (hamming_ball(), text
-- input and binary receive refuse one with 22023; 0.1 accepted it and matched nothing, silently);
-- the index condition of `fp <~> q <= k` for a k known at run time uses ndd_within_ball, NULL for
-- k < 0. (A 0.1 table storing a ball of negative radius can no longer be dumped and restored as is.)
---------------------------------------------------------------------------------------------------

-- The index condition the planner builds for ndd_within(fp, q, k) when k is known only at run time:
-- hamming_ball(q, k), or NULL (matches nothing) when k < 0, since a ball's radius is never negative.
CREATE FUNCTION ndd_within_ball(simhash64, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'ndd_within_ball_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ndd_within_ball(fp128, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'ndd_within_ball_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------------------------------
-- Client casts (new in 0.2.0, src/sql/15_client_casts.sql): bytea both ways for simhash64 and
-- fp128, numeric both ways for simhash64 (unsigned 0 .. 2^64-1).
---------------------------------------------------------------------------------------------------

CREATE FUNCTION simhash64_to_bytea(simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_simhash64(bytea) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (simhash64 AS bytea) WITH FUNCTION simhash64_to_bytea(simhash64) AS ASSIGNMENT;
CREATE CAST (bytea AS simhash64) WITH FUNCTION bytea_to_simhash64(bytea) AS ASSIGNMENT;

CREATE FUNCTION fp128_to_bytea(fp128) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_fp128(bytea) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (fp128 AS bytea) WITH FUNCTION fp128_to_bytea(fp128) AS ASSIGNMENT;
CREATE CAST (bytea AS fp128) WITH FUNCTION bytea_to_fp128(bytea) AS ASSIGNMENT;

CREATE FUNCTION simhash64_to_numeric(simhash64) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION numeric_to_simhash64(numeric) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (simhash64 AS numeric) WITH FUNCTION simhash64_to_numeric(simhash64);
CREATE CAST (numeric AS simhash64) WITH FUNCTION numeric_to_simhash64(numeric);

---------------------------------------------------------------------------------------------------
-- The ndd index's on-disk format is version 6 in 0.2.0 (a per-chain insert hint, one map that
-- expands in place with a free list, primary pages that carry their map's generation): the library
-- refuses an index of an older format, so every ndd index of this database is
-- rebuilt here, in the update's transaction (ACCESS EXCLUSIVE on each index while it is rebuilt).
-- Other databases rebuild theirs when they run ALTER EXTENSION ndd UPDATE.
---------------------------------------------------------------------------------------------------

DO $$
DECLARE
    idx regclass;
BEGIN
    FOR idx IN
        SELECT c.oid::regclass FROM pg_catalog.pg_class AS c
        JOIN pg_catalog.pg_am AS am ON am.oid = c.relam
        WHERE am.amname = 'ndd' AND c.relkind = 'i'
        ORDER BY c.oid
    LOOP
        RAISE NOTICE 'rebuilding ndd index % for the on-disk format of 0.2.0', idx;
        EXECUTE pg_catalog.format('REINDEX INDEX %s', idx);
    END LOOP;
END
$$;

---------------------------------------------------------------------------------------------------
-- The index check (src/sql/30_index.sql): like contrib/amcheck, not executable by PUBLIC (a
-- superuser grants it; the grantee must also own or be able to read the table).
---------------------------------------------------------------------------------------------------

REVOKE ALL ON FUNCTION ndd_index_check(regclass) FROM PUBLIC;

---------------------------------------------------------------------------------------------------
-- Workflows (src/sql/40_workflows.sql): every reference to the extension's own objects is
-- qualified with its schema and the functions that run dynamic SQL pin search_path, so a caller's
-- search_path cannot capture them (0.2.0 is not relocatable); the labelling trigger evaluates a
-- generated fingerprint column itself, searches and locks a partitioned table at its root, and
-- serialises with ndd_labelling_lock instead of an advisory lock any role could take. It is C
-- now (src/cluster_trigger.c), with its per-table work cached: CREATE OR REPLACE changes its
-- language and drops 0.1's SET search_path.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION ndd_labelling_lock(tbl regclass) RETURNS regclass
AS 'MODULE_PATHNAME', 'ndd_labelling_lock'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

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

CREATE OR REPLACE FUNCTION ndd_nearest_cluster(tbl regclass, fp_column name, fp anyelement, k int,
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

CREATE OR REPLACE FUNCTION ndd_assign_cluster_trigger()
RETURNS trigger
AS 'MODULE_PATHNAME', 'ndd_assign_cluster_trigger'
LANGUAGE C VOLATILE;

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

-- Exact measures of each pair of pairs_sql (a, b, ...) over the texts of docs_sql (id, doc):
-- Jaccard resemblance and containment of word shingle sets (both directions), the word edit
-- distance, and edit_similarity = 1 - distance / (tokens of a + tokens of b) (the corpus ground
-- truth's definition). A pair whose document is missing gets NULL measures. docs_sql is read once
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
-- ndd_verify (0.1): its new definition, with a tokenizer argument, is taken in place in the
-- "Tokenizers" part below

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
-- ndd_cluster_worst_pairs (0.1): its new definition, with a tokenizer argument, is taken in place in the
-- "Tokenizers" part below

-- ndd_df_collect and ndd_df_add take into_other_owner (issue 31: building into another role's
-- collection must be asked for); 0.1's two-argument functions are replaced, and calls with two
-- arguments still resolve to them
DROP FUNCTION ndd_df_collect(text, text);
DROP FUNCTION ndd_df_add(text, text);
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

-- ndd_filter: 0.1's SQL body held the whole token array and more (about ten times the text); the
-- C function reads the tokens one at a time (same results)
CREATE OR REPLACE FUNCTION ndd_filter(doc text, numbers boolean DEFAULT true, stopwords regconfig DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'ndd_filter'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

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

CREATE OR REPLACE FUNCTION ndd_filter_low_idf(doc text, collection text, min_idf float8)
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


---------------------------------------------------------------------------------------------------
-- Document-frequency tables: 0.1's foreign key from ndd_df to ndd_collection kept (its rows cannot
-- outlive their collection, TRUNCATE included: issue 31), tokens and names of at most 1000 bytes (a
-- btree key holds about 2.7 kB; 0.2.0 never counts longer tokens, so any 0.1 counted are removed);
-- ndd_df readable only by the roles its collection's owner allows, by row-level security (issue 20:
-- 0.1 let every role read every collected word), at most 100 readers per collection. 0.1 recorded
-- no owner, so every existing collection is carried over as the property of the role running
-- ALTER EXTENSION ndd UPDATE (a superuser or the extension's owner), readable by nobody else until
-- it shares it (ndd_collection_grant); a notice says how many.
---------------------------------------------------------------------------------------------------

-- 0.1 allowed collection names up to the btree limit (about 2.7 kB). A longer name than 1000 bytes
-- would fail the new CHECK and abort the whole update, so such a collection is renamed (with a
-- warning naming both) to its first 960 bytes (whole characters) followed by " ~" and the md5 of
-- its full name: short enough, distinct, and its frequencies kept (the foreign key cascades the
-- rename to ndd_df).
DO $$
DECLARE
    long_name text;
    short_name text;
    n int;
BEGIN
    FOR long_name IN SELECT c.name FROM @extschema@.ndd_collection AS c WHERE octet_length(c.name) > 1000 LOOP
        n := 960;
        WHILE octet_length(left(long_name, n)) > 960 LOOP
            n := n - 1;
        END LOOP;
        short_name := left(long_name, n) || ' ~' || md5(long_name);
        RAISE WARNING 'ndd 0.2.0 allows collection names of at most 1000 bytes: collection "%" (% bytes) is renamed to "%"',
            long_name, octet_length(long_name), short_name;
        UPDATE @extschema@.ndd_collection AS c SET name = short_name WHERE c.name = long_name;
    END LOOP;
END
$$;
DELETE FROM ndd_df WHERE octet_length(token) > 1000;
ALTER TABLE ndd_df ADD CONSTRAINT ndd_df_token_check CHECK (octet_length(token) <= 1000);
ALTER TABLE ndd_collection ADD CONSTRAINT ndd_collection_name_check CHECK (octet_length(name) <= 1000);
GRANT SELECT ON ndd_collection, ndd_df TO PUBLIC;

ALTER TABLE ndd_collection ADD COLUMN owner regrole NOT NULL DEFAULT pg_catalog.quote_ident(CURRENT_USER)::regrole;
ALTER TABLE ndd_collection ADD COLUMN readers regrole[] NOT NULL DEFAULT '{}' CONSTRAINT ndd_collection_readers_limit CHECK (cardinality(readers) <= 100);
DO $$
DECLARE
    n bigint;
BEGIN
    SELECT pg_catalog.count(*) INTO n FROM @extschema@.ndd_collection;
    IF n OPERATOR(pg_catalog.>) 0 THEN
        RAISE WARNING 'ndd 0.2.0: the % existing document-frequency collections now belong to role % and are readable by its members only',
            n, CURRENT_USER
            USING HINT = 'Share one with SELECT ndd_collection_grant(name, role) (role ''public'': every role), or give it to another owner with UPDATE ndd_collection SET owner = ...';
    END IF;
END
$$;

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
CREATE FUNCTION ndd_collection_grant(collection text, reader text) RETURNS regrole[]
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
RETURN @extschema@.ndd_collection_set_reader(collection, reader, true);
CREATE FUNCTION ndd_collection_revoke(collection text, reader text) RETURNS regrole[]
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
RETURN @extschema@.ndd_collection_set_reader(collection, reader, false);


---------------------------------------------------------------------------------------------------
-- Exact Jaccard and containment pairs, and LSH band keys for a GIN index (new in 0.2.0,
-- src/sql/50_jaccard.sql).
---------------------------------------------------------------------------------------------------

-- Every pair (a < b) of documents with jaccard(a.body, b.body, shingle, tokenizer) >= threshold. docs_sql
-- returns (id, body) with an integer id and a text body; rows with a NULL body have no pairs. A
-- third column, when present, holds stored sketches (shingle_minhash(body, shingle, hashes, tokenizer)) to
-- take the band keys from. hashes is the sketch size the LSH bands are cut from (more hashes:
-- fewer false candidates).
CREATE FUNCTION ndd_jaccard_pairs(docs_sql text, threshold float8, shingle int DEFAULT 4,
                                  hashes int DEFAULT 128, tokenizer text DEFAULT 'words',
                                  OUT a bigint, OUT b bigint, OUT jaccard float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_jaccard_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;

-- Every ordered pair (a, b), a <> b, with containment(a.body, b.body, shingle) >= threshold:
-- how much of a is in b. Exact by prefix filtering (no sketch).
CREATE FUNCTION ndd_containment_pairs(docs_sql text, threshold float8, shingle int DEFAULT 4,
                                      tokenizer text DEFAULT 'words',
                                      OUT a bigint, OUT b bigint, OUT containment float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_containment_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;

-- The LSH band keys of a minhash sketch for a resemblance threshold.
CREATE FUNCTION ndd_jaccard_bands(sketch bigint[], threshold float8) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'ndd_jaccard_bands'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The banding chosen for a threshold and a sketch size.
CREATE FUNCTION ndd_jaccard_banding(threshold float8, hashes int DEFAULT 128,
                                    OUT bands int, OUT rows int, OUT miss_probability float8)
AS 'MODULE_PATHNAME', 'ndd_jaccard_banding'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------------------------------
-- The batch mode split by layout table and key (new in 0.2.0, src/sql/60_distributed.sql): the
-- two-set batch, and the distributed batch jobs on Citus. Copied verbatim from the install part.
---------------------------------------------------------------------------------------------------

-- 60_distributed.sql: the batch mode split by the layout's tables and keys, for two sets of
-- fingerprints (the crawler's daily job: new against stored) and for Citus, where each table's
-- rows are grouped by key on the workers and every group finds its pairs where it is stored.
--
-- The split (one definition, ndd_layout_parts): for each table of the layout (blocks = 0 means
-- k + 1 blocks, the fewest tables, so the fewest copies of each row), a row's part is a hash of
-- (table, the row's key in that table) modulo `parts`. Two fingerprints within k bits share the key
-- of at least one table (pigeonhole), so they meet in that table's group of that part; each group
-- reports only the pairs whose first shared key is its table's (ndd_layout_table_pairs), so every
-- pair comes out once and no global de-duplication is needed.

-- Every pair (new, stored) of a row of new_sql and a row of stored_sql within k bits, in one batch:
-- both sets sorted together per table, only pairs across the sets compared.
CREATE FUNCTION ndd_pairs_between(new_sql text, stored_sql text, k int, blocks int DEFAULT 0,
                                  OUT new_id bigint, OUT stored_id bigint, OUT distance int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_pairs_between'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;

-- The part of fp's key in each table of the layout (array element t + 1 for table t).
CREATE FUNCTION ndd_layout_parts(fp simhash64, k int, blocks int DEFAULT 0, parts int DEFAULT 4096)
RETURNS int[]
AS 'MODULE_PATHNAME', 'ndd_layout_parts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ndd_layout_parts(fp fp128, k int, blocks int DEFAULT 0, parts int DEFAULT 4096)
RETURNS int[]
AS 'MODULE_PATHNAME', 'ndd_layout_parts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- One table's share of the pairs of a group of rows given as arrays (the first n_new rows new,
-- the others stored, when n_new > 0): the pairs whose first shared key is that table's.
CREATE FUNCTION ndd_layout_table_pairs(layout_table int, k int, blocks int, ids bigint[], fps simhash64[],
                                       n_new int DEFAULT 0,
                                       OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_layout_table_pairs'
LANGUAGE C STRICT STABLE PARALLEL SAFE ROWS 10;

CREATE FUNCTION ndd_layout_table_pairs(layout_table int, k int, blocks int, ids bigint[], fps fp128[],
                                       n_new int DEFAULT 0,
                                       OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_layout_table_pairs'
LANGUAGE C STRICT STABLE PARALLEL SAFE ROWS 10;

-- The distributed batch job behind ndd_distributed_pairs and ndd_distributed_pairs_between
-- (stored_sql NULL: all pairs of new_sql). A work table distributed by part receives one row per
-- (row, layout table) through INSERT .. SELECT, which Citus runs on the workers and repartitions
-- there; the pairs are then found by one pushed-down query grouped by part, so each group is
-- handled on the worker that stores it, in parallel; the work table is dropped at the end (or
-- with the transaction on error). Ids are checked unique per set, as ndd_pairs does. search_path
-- is pinned; the caller's queries, and the work table's schema (the caller's current schema),
-- resolve under caller_search_path, the caller's (its callers are SQL-standard bodies that pass it,
-- see ndd_verify_job in 40_workflows.sql), in statements that name every schema, operators too
-- (OPERATOR(pg_catalog.x)): an operator that is not an exact match in pg_catalog (text || int,
-- oid = regclass, regtype <> regtype) would otherwise resolve to a better-matching one that anyone
-- who may create in a schema on the caller's search_path can define, and run with the caller's
-- rights.
CREATE FUNCTION ndd_distributed_job(new_sql text, stored_sql text, k int, blocks int, parts int,
                                    caller_search_path text,
                                    OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
LANGUAGE plpgsql CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    work text;
    work_schema name;
    fptype regtype;
    dup bigint;
    null_id boolean;
    two_sets boolean := stored_sql IS NOT NULL;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'citus') THEN
        RAISE EXCEPTION 'the distributed batch mode needs the Citus extension'
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'On one server use ndd_pairs or ndd_pairs_between: same pairs, same core.';
    END IF;
    IF new_sql IS NULL OR k IS NULL OR blocks IS NULL OR parts IS NULL OR caller_search_path IS NULL THEN
        RAISE EXCEPTION 'only stored_sql may be null' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF k OPERATOR(pg_catalog.<) 0 OR k OPERATOR(pg_catalog.>) 31 THEN
        RAISE EXCEPTION 'k must be between 0 and 31' USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('k is %s.', k);
    END IF;
    IF blocks OPERATOR(pg_catalog.=) 0 THEN
        blocks := k OPERATOR(pg_catalog.+) 1;
    END IF;
    -- The work table goes in the caller's current schema, as any table the caller creates: the
    -- extension's schema need not be writable by the roles that use the extension.
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    work_schema := pg_catalog.current_schema();
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    IF work_schema IS NULL THEN
        RAISE EXCEPTION 'no schema to create the work table in'
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Put a schema where you may create tables first on search_path.';
    END IF;
    work := pg_catalog.format('%I.%I', work_schema,
                   pg_catalog.format('ndd_distributed_work_%s_%s', pg_catalog.pg_backend_pid(),
                                     pg_catalog.substr(pg_catalog.md5(pg_catalog.random()::text), 1, 8)));
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    EXECUTE pg_catalog.format('CREATE UNLOGGED TABLE %s AS SELECT s.id::bigint AS id, s.fp, 0 AS layout_table, 0 AS part,
                        true AS is_new FROM (%s) AS s(id, fp) WITH NO DATA', work, new_sql);
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    SELECT atttypid::regtype INTO fptype FROM pg_catalog.pg_attribute
        WHERE attrelid OPERATOR(pg_catalog.=) work::regclass AND attname OPERATOR(pg_catalog.=) 'fp';
    IF fptype OPERATOR(pg_catalog.<>) '@extschema@.simhash64'::regtype
       AND fptype OPERATOR(pg_catalog.<>) '@extschema@.fp128'::regtype THEN
        RAISE EXCEPTION 'column 2 of new_sql must be a fingerprint of type simhash64 or fp128'
            USING ERRCODE = 'datatype_mismatch', DETAIL = pg_catalog.format('It has type %s.', fptype);
    END IF;
    PERFORM pg_catalog.create_distributed_table(work::regclass, 'part');
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    FOR i IN 0 .. CASE WHEN two_sets THEN 1 ELSE 0 END LOOP
        EXECUTE pg_catalog.format('INSERT INTO %s (id, fp, layout_table, part, is_new)
                        SELECT s.id, s.fp, u.t OPERATOR(pg_catalog.-) 1, u.part, %s
                        FROM (%s) AS s(id, fp)
                        CROSS JOIN LATERAL pg_catalog.unnest(@extschema@.ndd_layout_parts(s.fp, $1, $2, $3)) WITH ORDINALITY AS u(part, t)
                        WHERE s.fp IS NOT NULL',
                       work, (i OPERATOR(pg_catalog.=) 0)::text, CASE WHEN i OPERATOR(pg_catalog.=) 0 THEN new_sql ELSE stored_sql END)
            USING k, blocks, parts;
    END LOOP;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    -- a null id is refused as ndd_pairs refuses it, naming the caller's query (not the arrays the
    -- workers would see)
    EXECUTE pg_catalog.format('SELECT true FROM %s WHERE id IS NULL LIMIT 1', work) INTO null_id;
    IF null_id THEN
        RAISE EXCEPTION '% returned a null id', CASE WHEN two_sets THEN 'new_sql or stored_sql' ELSE 'docs_sql' END
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    -- a row is in table 0 once: an id there twice (in one set) is an id given twice
    EXECUTE pg_catalog.format('SELECT id FROM %s WHERE layout_table OPERATOR(pg_catalog.=) 0 GROUP BY id, is_new
                               HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1 LIMIT 1', work)
        INTO dup;
    IF dup IS NOT NULL THEN
        RAISE EXCEPTION '% returned the id % more than once',
            CASE WHEN two_sets THEN 'new_sql or stored_sql' ELSE 'docs_sql' END, dup
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Each row is one document: make the ids unique.';
    END IF;
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT p.a, p.b, p.distance
         FROM (SELECT part, layout_table,
                      pg_catalog.array_agg(id ORDER BY is_new DESC, id) AS ids, pg_catalog.array_agg(fp ORDER BY is_new DESC, id) AS fps,
                      pg_catalog.count(*) FILTER (WHERE is_new) AS n_new
               FROM %s GROUP BY part, layout_table %s) AS g
         CROSS JOIN LATERAL @extschema@.ndd_layout_table_pairs(g.layout_table, $1, $2, g.ids, g.fps,
                                                              CASE WHEN $3 THEN g.n_new::int ELSE 0 END) AS p',
        work, CASE WHEN two_sets THEN 'HAVING pg_catalog.bool_or(is_new) AND NOT pg_catalog.bool_and(is_new)' ELSE '' END)
        USING k, blocks, two_sets;
    EXECUTE pg_catalog.format('DROP TABLE %s', work);
END
$$;

-- All pairs within k bits of a distributed collection, found on the workers: exactly ndd_pairs's.
CREATE FUNCTION ndd_distributed_pairs(docs_sql text, k int, blocks int DEFAULT 0, parts int DEFAULT 4096,
                                      OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.distance FROM @extschema@.ndd_distributed_job(docs_sql, NULL, k, blocks, parts,
                                                                    pg_catalog.current_setting('search_path')) AS j;
END;

-- The two-set batch on the workers: exactly ndd_pairs_between's pairs.
CREATE FUNCTION ndd_distributed_pairs_between(new_sql text, stored_sql text, k int, blocks int DEFAULT 0,
                                              parts int DEFAULT 4096,
                                              OUT new_id bigint, OUT stored_id bigint, OUT distance int)
RETURNS SETOF record
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.distance FROM @extschema@.ndd_distributed_job(new_sql, stored_sql, k, blocks, parts,
                                                                    pg_catalog.current_setting('search_path')) AS j;
END;

-- Every pair sharing at least min_shared distinct features of a distributed collection, on the
-- workers: the same pairs and counts as ndd_feature_pairs (features held by more than max_df
-- documents skipped, with the same notice). The shape differs from the Hamming batch: a pair's
-- count adds up over features that live on different shards, so the features are repartitioned
-- (one row per distinct (feature, document), distributed by feature), each shard pairs the
-- documents of its features by a co-located self-join, and Citus' repartitioned aggregation sums
-- each pair's shared features.
CREATE FUNCTION ndd_distributed_feature_pairs_job(docs_sql text, min_shared int, max_df int, caller_search_path text,
                                                  OUT a bigint, OUT b bigint, OUT shared int)
RETURNS SETOF record
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    work text;
    work_schema name;
    idtype regtype;
    ftype regtype;
    message text;
    null_id boolean;
    dup bigint;
    skipped bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'citus') THEN
        RAISE EXCEPTION 'the distributed batch mode needs the Citus extension'
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'On one server use ndd_feature_pairs: same pairs.';
    END IF;
    IF min_shared OPERATOR(pg_catalog.<) 1 THEN
        RAISE EXCEPTION 'min_shared must be at least 1' USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('min_shared is %s.', min_shared);
    END IF;
    IF max_df OPERATOR(pg_catalog.<) 2 THEN
        RAISE EXCEPTION 'max_df must be at least 2' USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('max_df is %s.', max_df);
    END IF;
    -- The work table goes in the caller's current schema, as any table the caller creates: the
    -- extension's schema need not be writable by the roles that use the extension.
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    work_schema := pg_catalog.current_schema();
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    IF work_schema IS NULL THEN
        RAISE EXCEPTION 'no schema to create the work table in'
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Put a schema where you may create tables first on search_path.';
    END IF;
    work := pg_catalog.format('%I.%I', work_schema,
                   pg_catalog.format('ndd_distributed_work_%s_%s', pg_catalog.pg_backend_pid(),
                                     pg_catalog.substr(pg_catalog.md5(pg_catalog.random()::text), 1, 8)));
    -- docs_sql's columns, without running it (WITH NO DATA), refused as ndd_feature_pairs refuses
    -- them, with the same errors
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    BEGIN
        EXECUTE pg_catalog.format('CREATE UNLOGGED TABLE %s AS SELECT docs_sql.id, docs_sql.features
                                   FROM (%s) AS docs_sql(id, features) WITH NO DATA', work, docs_sql);
    EXCEPTION WHEN invalid_column_reference THEN
        GET STACKED DIAGNOSTICS message = MESSAGE_TEXT;
        IF message LIKE 'table "docs_sql" has % columns available but 2 columns specified' THEN
            RAISE EXCEPTION 'docs_sql must return at least 2 columns' USING ERRCODE = 'invalid_parameter_value',
                DETAIL = pg_catalog.format('It returns %s.', pg_catalog.substring(message, '"docs_sql" has ([0-9]+)'));
        END IF;
        RAISE;
    END;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    SELECT atttypid::regtype INTO idtype FROM pg_catalog.pg_attribute
        WHERE attrelid OPERATOR(pg_catalog.=) work::regclass AND attname OPERATOR(pg_catalog.=) 'id';
    SELECT atttypid::regtype INTO ftype FROM pg_catalog.pg_attribute
        WHERE attrelid OPERATOR(pg_catalog.=) work::regclass AND attname OPERATOR(pg_catalog.=) 'features';
    EXECUTE pg_catalog.format('DROP TABLE %s', work);
    IF idtype::oid OPERATOR(pg_catalog.<>) ALL (ARRAY['bigint'::regtype, 'integer'::regtype, 'smallint'::regtype]::oid[]) THEN
        RAISE EXCEPTION 'column 1 of docs_sql must be the document id of type bigint, integer or smallint'
            USING ERRCODE = 'datatype_mismatch', DETAIL = pg_catalog.format('It has type %s.', idtype);
    END IF;
    IF ftype::oid OPERATOR(pg_catalog.<>) 'bigint[]'::regtype::oid THEN
        RAISE EXCEPTION 'column 2 of docs_sql must be the features, of type bigint[]'
            USING ERRCODE = 'datatype_mismatch', DETAIL = pg_catalog.format('It has type %s.', ftype);
    END IF;
    -- One reading of docs_sql (a volatile query gives consistent pairs): per document, a row per
    -- distinct feature, and one row marked first (the group of the array's first element, or a row
    -- of its own, feature NULL, for a null or empty array) whose id is checked not null and unique,
    -- as ndd_feature_pairs checks it. ROWS FROM (unnest(features), unnest(ARRAY[true])) marks the first; Citus
    -- pushes the whole INSERT .. SELECT down to the workers (a UNION inside it it cannot). DISTINCT ON,
    -- not GROUP BY: Citus 14 on PostgreSQL 18 deparses a GROUP BY in a LATERAL subquery without its
    -- FROM entry ("missing FROM-clause entry"), PostgreSQL 18's grouping step being a range entry of its own.
    EXECUTE pg_catalog.format('CREATE UNLOGGED TABLE %s (id bigint, feature bigint NOT NULL, is_feature boolean NOT NULL,
                                                         first boolean NOT NULL, has_features boolean NOT NULL)', work);
    PERFORM pg_catalog.create_distributed_table(work::regclass, 'feature');
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    EXECUTE pg_catalog.format('INSERT INTO %s (id, feature, is_feature, first, has_features)
                    SELECT s.id, COALESCE(f.feature, s.id::bigint, 0::bigint), f.feature IS NOT NULL,
                           f.first, s.features IS NOT NULL
                    FROM (%s) AS s(id, features)
                    CROSS JOIN LATERAL (SELECT DISTINCT ON (u.feature) u.feature, u.first IS NOT NULL
                                        FROM ROWS FROM (pg_catalog.unnest(s.features), pg_catalog.unnest(ARRAY[true])) AS u(feature, first)
                                        ORDER BY u.feature, u.first IS NULL) AS f(feature, first)
                    WHERE f.feature IS NOT NULL OR f.first',
                   work, docs_sql);
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    EXECUTE pg_catalog.format('SELECT true FROM %s WHERE first AND id IS NULL LIMIT 1', work) INTO null_id;
    IF null_id THEN
        RAISE EXCEPTION 'docs_sql returned a null id' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    EXECUTE pg_catalog.format('SELECT id FROM %s WHERE first AND has_features GROUP BY id
                               HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1 LIMIT 1', work)
        INTO dup;
    IF dup IS NOT NULL THEN
        RAISE EXCEPTION 'docs_sql returned the id % more than once', dup
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Each row is one document: make the ids unique.';
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM (SELECT feature FROM %s WHERE is_feature GROUP BY feature
                               HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) $1) x', work)
        INTO skipped USING max_df;
    IF skipped OPERATOR(pg_catalog.>) 0 THEN
        RAISE NOTICE 'ndd_distributed_feature_pairs ignored % features held by more than % documents each', skipped, max_df
            USING HINT = 'Raise max_df to count them; exact duplicates are best removed first (content_hash).';
    END IF;
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT c.a, c.b, pg_catalog.count(*)::int
         FROM (SELECT x.id AS a, y.id AS b
               FROM %1$s x JOIN %1$s y ON x.feature OPERATOR(pg_catalog.=) y.feature AND x.id OPERATOR(pg_catalog.<) y.id
               WHERE x.is_feature AND y.is_feature
                 AND x.feature OPERATOR(pg_catalog.=) ANY (SELECT feature FROM %1$s WHERE is_feature GROUP BY feature
                                                          HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>=) 2
                                                             AND pg_catalog.count(*) OPERATOR(pg_catalog.<=) $1)) AS c
         GROUP BY c.a, c.b HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>=) $2', work)
        USING max_df, min_shared;
    EXECUTE pg_catalog.format('DROP TABLE %s', work);
END
$$;
CREATE FUNCTION ndd_distributed_feature_pairs(docs_sql text, min_shared int DEFAULT 2, max_df int DEFAULT 1000,
                                              OUT a bigint, OUT b bigint, OUT shared int)
RETURNS SETOF record
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.shared
    FROM @extschema@.ndd_distributed_feature_pairs_job(docs_sql, min_shared, max_df,
                                                       pg_catalog.current_setting('search_path')) AS j;
END;

---------------------------------------------------------------------------------------------------
-- Tokenizers (new in 0.2.0, doc/tokenizers.md): every function that tokenizes takes a last
-- argument `tokenizer text DEFAULT 'words'` ('unicode': UAX #29 word boundaries through ICU), and
-- the tokenizers' versions are recorded (src/sql/22_tokenizers.sql).
--
-- The functions of 0.1 keep their oids and change signature in place. DROP FUNCTION and CREATE
-- would fail whenever a generated column, an index expression, a view or a constraint calls the
-- function (simhash(body) GENERATED ALWAYS is the documented way to store fingerprints), and
-- keeping the old signature beside the new one would make every call that leaves tokenizer out
-- ambiguous (after defaults both match). So each new definition is created under a temporary
-- name, its catalog row (arguments, names, defaults, body and properties) is copied onto the 0.1
-- function's row, and the temporary function is dropped. Dependent objects keep pointing at the
-- same oid; an expression stored under 0.1 holds the old number of arguments, to which the planner
-- adds the missing default from the catalog (expand_function_arguments), and the C functions read a
-- missing tokenizer as 'words' as well. 'words' is 0.1's normalization: stored values stay valid.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION ndd_upgrade_take_definition(old regprocedure, new regprocedure) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    UPDATE pg_catalog.pg_proc AS o
    SET pronargs = n.pronargs, pronargdefaults = n.pronargdefaults, proargtypes = n.proargtypes,
        proallargtypes = n.proallargtypes, proargmodes = n.proargmodes, proargnames = n.proargnames,
        proargdefaults = n.proargdefaults, prorettype = n.prorettype, proretset = n.proretset,
        prokind = n.prokind, prolang = n.prolang, prosrc = n.prosrc, probin = n.probin,
        provolatile = n.provolatile, proisstrict = n.proisstrict, proparallel = n.proparallel,
        proleakproof = n.proleakproof, prosecdef = n.prosecdef, procost = n.procost,
        prorows = n.prorows, prosupport = n.prosupport, proconfig = n.proconfig, prosqlbody = n.prosqlbody
    FROM pg_catalog.pg_proc AS n
    WHERE o.oid OPERATOR(pg_catalog.=) old AND n.oid OPERATOR(pg_catalog.=) new;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ndd upgrade: % or % is missing', old, new;
    END IF;
    -- what the body depends on (its language, the functions a BEGIN ATOMIC body calls) is now the
    -- new body's; the membership in the extension stays the old function's
    DELETE FROM pg_catalog.pg_depend
    WHERE classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      AND objid OPERATOR(pg_catalog.=) old AND deptype OPERATOR(pg_catalog.=) 'n';
    UPDATE pg_catalog.pg_depend SET objid = old
    WHERE classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      AND objid OPERATOR(pg_catalog.=) new AND deptype OPERATOR(pg_catalog.=) 'n';
    EXECUTE pg_catalog.format('DROP FUNCTION %s', new);
END
$$;

CREATE FUNCTION ndd_upgrade_new(doc text, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('simhash(text)', 'ndd_upgrade_new(text, text)');

CREATE FUNCTION ndd_upgrade_new(doc text, shingle int, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_text_shingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('simhash(text, int)', 'ndd_upgrade_new(text, int, text)');

CREATE FUNCTION ndd_upgrade_new(doc text, n int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_chars'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('simhash_chars(text, int)', 'ndd_upgrade_new(text, int, text)');

CREATE FUNCTION ndd_upgrade_new(doc text, shingle int DEFAULT 4, hashes int DEFAULT 84,
                                tokenizer text DEFAULT 'words') RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_shingle_minhash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('shingle_minhash(text, int, int)', 'ndd_upgrade_new(text, int, int, text)');

CREATE FUNCTION ndd_upgrade_new(doc text, lists int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_word_list_fingerprints'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('word_list_fingerprints(text, int)', 'ndd_upgrade_new(text, int, text)');

CREATE FUNCTION ndd_upgrade_new(doc text, tokenizer text DEFAULT 'words') RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_content_hash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('content_hash(text)', 'ndd_upgrade_new(text, text)');

CREATE FUNCTION ndd_upgrade_new(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_jaccard'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('jaccard(text, text, int)', 'ndd_upgrade_new(text, text, int, text)');

CREATE FUNCTION ndd_upgrade_new(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_containment'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('containment(text, text, int)', 'ndd_upgrade_new(text, text, int, text)');

CREATE FUNCTION ndd_upgrade_new(a text, b text, substitution_cost int DEFAULT 1, tokenizer text DEFAULT 'words')
RETURNS int
	AS 'MODULE_PATHNAME', 'ndd_word_edit_distance'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
SELECT ndd_upgrade_take_definition('word_edit_distance(text, text, int)', 'ndd_upgrade_new(text, text, int, text)');

CREATE FUNCTION ndd_upgrade_new(doc text, tokenizer text DEFAULT 'words') RETURNS text[]
	AS 'MODULE_PATHNAME', 'ndd_tokens'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
SELECT ndd_upgrade_take_definition('ndd_tokens(text)', 'ndd_upgrade_new(text, text)');

CREATE FUNCTION ndd_upgrade_new(doc text, numbers boolean DEFAULT true, stopwords regconfig DEFAULT NULL,
                                tokenizer text DEFAULT 'words')
RETURNS text
AS 'MODULE_PATHNAME', 'ndd_filter'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
SELECT ndd_upgrade_take_definition('ndd_filter(text, boolean, regconfig)', 'ndd_upgrade_new(text, boolean, regconfig, text)');

CREATE FUNCTION ndd_upgrade_new(pairs_sql text, docs_sql text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words')
RETURNS TABLE(a bigint, b bigint, jaccard float8, a_in_b float8, b_in_a float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.jaccard, j.a_in_b, j.b_in_a, j.word_edit_distance, j.edit_similarity
    FROM @extschema@.ndd_verify_job(pairs_sql, docs_sql, shingle, tokenizer, pg_catalog.current_setting('search_path')) AS j;
END;
SELECT ndd_upgrade_take_definition('ndd_verify(text, text, int)', 'ndd_upgrade_new(text, text, int, text)');

CREATE FUNCTION ndd_upgrade_new(clusters_sql text, docs_sql text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words')
RETURNS TABLE(cluster_id bigint, size bigint, a bigint, b bigint, jaccard float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.cluster_id, j.size, j.a, j.b, j.jaccard, j.word_edit_distance, j.edit_similarity
    FROM @extschema@.ndd_cluster_worst_pairs_job(clusters_sql, docs_sql, shingle, tokenizer,
                                                   pg_catalog.current_setting('search_path')) AS j;
END;
SELECT ndd_upgrade_take_definition('ndd_cluster_worst_pairs(text, text, int)', 'ndd_upgrade_new(text, text, int, text)');

DROP FUNCTION ndd_upgrade_take_definition(regprocedure, regprocedure);

-- The version of a tokenizer in this server. STABLE, not IMMUTABLE: an ICU upgrade changes it.
CREATE FUNCTION ndd_tokenizer_version(tokenizer text) RETURNS text
	AS 'MODULE_PATHNAME', 'ndd_tokenizer_version_sql'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- The version each tokenizer had when what is stored was computed (the extension's creation, or
-- the last ndd_tokenizer_refresh_version).
CREATE TABLE ndd_tokenizer_versions (
	tokenizer text PRIMARY KEY,
	version text NOT NULL
);
INSERT INTO ndd_tokenizer_versions
SELECT v.t, @extschema@.ndd_tokenizer_version(v.t) FROM (VALUES ('words'), ('unicode')) AS v(t);
GRANT SELECT ON ndd_tokenizer_versions TO PUBLIC;

-- Each tokenizer's recorded and current versions; a WARNING for each that differs.
CREATE FUNCTION ndd_tokenizer_check(OUT tokenizer text, OUT recorded_version text, OUT current_version text)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    FOR tokenizer, recorded_version IN
        SELECT v.tokenizer, v.version FROM @extschema@.ndd_tokenizer_versions AS v ORDER BY v.tokenizer
    LOOP
        current_version := @extschema@.ndd_tokenizer_version(tokenizer);
        IF current_version OPERATOR(pg_catalog.<>) recorded_version THEN
            RAISE WARNING 'tokenizer "%" has version %, but what is stored was computed with version %',
                tokenizer, current_version, recorded_version
                USING HINT = pg_catalog.format('Recompute the fingerprints made with tokenizer => %L (UPDATE stored '
                    'columns, REINDEX indexes over them), then run SELECT ndd_tokenizer_refresh_version(%L).',
                    tokenizer, tokenizer);
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;

-- Records the tokenizer's current version as the one what is stored was computed with (after
-- recomputing it); returns that version.
CREATE FUNCTION ndd_tokenizer_refresh_version(tokenizer text) RETURNS text
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v text := @extschema@.ndd_tokenizer_version(tokenizer);
BEGIN
    UPDATE @extschema@.ndd_tokenizer_versions AS t SET version = v
    WHERE t.tokenizer OPERATOR(pg_catalog.=) ndd_tokenizer_refresh_version.tokenizer;
    RETURN v;
END
$$;

---------------------------------------------------------------------------------------------------
-- Comments (0.1 had 23; 0.2.0 comments every object, each beside its CREATE in src/sql). COMMENT ON
-- replaces, so the whole set is applied: the 0.1 comments are rewritten with the same text.
---------------------------------------------------------------------------------------------------

-- ~~ part 10: types, their I/O, casts, ordering and hashing

COMMENT ON TYPE simhash64 IS '64-bit similarity fingerprint (Charikar simhash); compare with <~>';
COMMENT ON TYPE fp128 IS '128-bit fingerprint (bit-flip fingerprint, content hash); compare with <~>';
COMMENT ON TYPE hamming_distance IS 'number of differing bits, the result of <~>; behaves as an integer';
COMMENT ON TYPE hamming_ball IS 'all fingerprints within a radius of a center: fp <@ hamming_ball(q, k)';

DO $$
DECLARE
	t text;
	form text;
BEGIN
	FOREACH t IN ARRAY ARRAY['simhash64', 'fp128', 'hamming_distance', 'hamming_ball'] LOOP
		form := CASE t WHEN 'simhash64' THEN '16 hexadecimal digits'
					   WHEN 'fp128' THEN '32 hexadecimal digits'
					   WHEN 'hamming_distance' THEN 'a decimal integer, as int4'
					   ELSE '(center,radius)' END;
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(cstring) IS %L', t || '_in',
					   pg_catalog.format('text input of %s: %s', t, form));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I) IS %L', t || '_out', t,
					   pg_catalog.format('text output of %s: %s', t, form));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(internal) IS %L', t || '_recv',
					   pg_catalog.format('binary input of %s', t));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I) IS %L', t || '_send', t,
					   pg_catalog.format('binary output of %s', t));
	END LOOP;
	-- the ordering and hashing support of simhash64, fp128 and hamming_distance
	FOREACH t IN ARRAY ARRAY['simhash64', 'fp128', 'hamming_distance'] LOOP
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %1$I(%2$I, %2$I) IS %3$L', t || '_cmp', t,
					   pg_catalog.format('btree comparison of %s: -1, 0 or 1', t));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I) IS %L', t || '_hash', t,
					   pg_catalog.format('hash of %s for hash indexes and hash joins', t));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I, bigint) IS %L', t || '_hash_extended', t,
					   pg_catalog.format('seeded 64-bit hash of %s for hash partitioning', t));
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR CLASS %I USING btree IS %L', t || '_ops',
					   CASE t WHEN 'hamming_distance' THEN 'integer order of Hamming distances'
					   ELSE pg_catalog.format('unsigned order of %s (the order of its hex text)', t) END);
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR FAMILY %I USING btree IS %L', t || '_ops',
					   pg_catalog.format('btree operators of %s', t));
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR CLASS %I USING hash IS %L', t || '_ops',
					   pg_catalog.format('equality of %s for hash indexes and hash joins', t));
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR FAMILY %I USING hash IS %L', t || '_ops',
					   pg_catalog.format('hash operators of %s', t));
	END LOOP;
	-- the six comparisons of simhash64 and fp128: unsigned, i.e. the order of the hex text
	FOREACH t IN ARRAY ARRAY['simhash64', 'fp128'] LOOP
		FOR form IN SELECT pg_catalog.unnest(ARRAY['lt', 'le', 'eq', 'ne', 'ge', 'gt']) LOOP
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION %1$I(%2$I, %2$I) IS %3$L', t || '_' || form, t,
						   pg_catalog.format('implementation of %s %s %s (unsigned order)', t,
								  CASE form WHEN 'lt' THEN '<' WHEN 'le' THEN '<=' WHEN 'eq' THEN '='
											WHEN 'ne' THEN '<>' WHEN 'ge' THEN '>=' ELSE '>' END, t));
		END LOOP;
	END LOOP;
	FOR form IN SELECT pg_catalog.unnest(ARRAY['<', '<=', '=', '<>', '>=', '>']) LOOP
		FOREACH t IN ARRAY ARRAY['simhash64', 'fp128'] LOOP
			EXECUTE pg_catalog.format('COMMENT ON OPERATOR %1$s (%2$I, %2$I) IS %3$L', form, t,
						   pg_catalog.format('%s %s: unsigned order (the order of the hex text), not similarity', t, form));
		END LOOP;
	END LOOP;
END
$$;

COMMENT ON FUNCTION simhash64_to_bit(simhash64) IS 'the 64 bits as bit(64), most significant first';
COMMENT ON FUNCTION bit_to_simhash64(bit) IS 'a bit(64) as simhash64; other lengths are an error';
COMMENT ON FUNCTION fp128_to_bit(fp128) IS 'the 128 bits as bit(128), most significant first';
COMMENT ON FUNCTION bit_to_fp128(bit) IS 'a bit(128) as fp128; other lengths are an error';
COMMENT ON FUNCTION fp128_to_uuid(fp128) IS 'the 128 bits as a uuid (same 16 bytes)';
COMMENT ON FUNCTION uuid_to_fp128(uuid) IS 'a uuid''s 16 bytes as fp128';
COMMENT ON CAST (simhash64 AS bigint) IS 'the same 64 bits as a signed bigint (top bit set = negative)';
COMMENT ON CAST (bigint AS simhash64) IS 'a signed bigint''s 64 bits as simhash64 (for unsigned values use numeric)';
COMMENT ON CAST (simhash64 AS bit) IS 'the 64 bits as bit(64)';
COMMENT ON CAST (bit AS simhash64) IS 'a bit(64) as simhash64';
COMMENT ON CAST (fp128 AS bit) IS 'the 128 bits as bit(128)';
COMMENT ON CAST (bit AS fp128) IS 'a bit(128) as fp128';
COMMENT ON CAST (fp128 AS uuid) IS 'the 128 bits as a uuid';
COMMENT ON CAST (uuid AS fp128) IS 'a uuid as fp128';

-- hamming_distance: an int4 in all but name
COMMENT ON CAST (hamming_distance AS integer) IS 'implicit: a Hamming distance works wherever an integer does';
COMMENT ON CAST (integer AS hamming_distance) IS 'assignment: store an integer in a hamming_distance column';
COMMENT ON CAST (hamming_distance AS bigint) IS 'a Hamming distance as bigint';
COMMENT ON CAST (hamming_distance AS smallint) IS 'a Hamming distance as smallint';
COMMENT ON CAST (hamming_distance AS double precision) IS 'a Hamming distance as double precision';
COMMENT ON CAST (hamming_distance AS numeric) IS 'a Hamming distance as numeric';
COMMENT ON FUNCTION hamming_distance_to_int8(hamming_distance) IS 'the cast of a Hamming distance to bigint';
COMMENT ON FUNCTION hamming_distance_to_int2(hamming_distance) IS 'the cast of a Hamming distance to smallint';
COMMENT ON FUNCTION hamming_distance_to_float8(hamming_distance) IS 'the cast of a Hamming distance to double precision';
COMMENT ON FUNCTION hamming_distance_to_numeric(hamming_distance) IS 'the cast of a Hamming distance to numeric';

-- The comparisons of hamming_distance with itself and smallint, integer, bigint (both ways round)
-- and their planner support: `fp <~> q <= k` and its variants become `fp <@ hamming_ball(q, k)`,
-- which an ndd index serves.
DO $$
DECLARE
	o record;
	names text[] := ARRAY['<', 'lt', '<=', 'le', '=', 'eq', '>=', 'ge', '>', 'gt'];
	i int;
	indexable text;
BEGIN
	FOR o IN
		SELECT p.oprname, p.oprleft::regtype AS l, p.oprright::regtype AS r, p.oprcode::regproc AS fn
		FROM pg_catalog.pg_operator AS p
		WHERE (p.oprleft OPERATOR(pg_catalog.=) 'hamming_distance'::regtype OR p.oprright OPERATOR(pg_catalog.=) 'hamming_distance'::regtype)
		  AND p.oprname IN ('<', '<=', '=', '<>', '>=', '>')
	LOOP
		indexable := CASE WHEN o.oprname = '<>' THEN ''
			ELSE '; with fp <~> q on one side an ndd index serves it' END;
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR %s (%s, %s) IS %L', o.oprname, o.l, o.r,
					   pg_catalog.format('%s %s %s, as integers%s', o.l, o.oprname, o.r, indexable));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s(%s, %s) IS %L', o.fn, o.l, o.r,
					   pg_catalog.format('implementation of %s %s %s', o.l, o.oprname, o.r));
	END LOOP;
	FOR i IN 0 .. 4 LOOP
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(internal) IS %L', 'hamming_' || names[2 * i + 2] || '_support',
					   pg_catalog.format('planner support of the %s comparisons of a Hamming distance: makes fp <~> q %s k indexable',
							  names[2 * i + 1], names[2 * i + 1]));
	END LOOP;
END
$$;

-- <~> and hamming()
COMMENT ON FUNCTION hamming(simhash64, simhash64) IS 'number of differing bits; the same as <~>';
COMMENT ON FUNCTION hamming(fp128, fp128) IS 'number of differing bits; the same as <~>';
COMMENT ON OPERATOR <~> (simhash64, simhash64) IS
	'Hamming distance (number of differing bits); WHERE fp <~> q <= k and ORDER BY fp <~> q use an ndd index';
COMMENT ON OPERATOR <~> (fp128, fp128) IS
	'Hamming distance (number of differing bits); WHERE fp <~> q <= k and ORDER BY fp <~> q use an ndd index';

-- hamming_ball and <@, @>
COMMENT ON FUNCTION hamming_ball(simhash64, integer) IS 'the ball of every simhash64 within k bits of a center';
COMMENT ON FUNCTION hamming_ball(fp128, integer) IS 'the ball of every fp128 within k bits of a center';
COMMENT ON FUNCTION ndd_within_ball(simhash64, integer) IS 'the index condition of ndd_within(fp, q, k) for a k known at run time: hamming_ball(q, k), NULL (nothing) for k < 0';
COMMENT ON FUNCTION ndd_within_ball(fp128, integer) IS 'the index condition of ndd_within(fp, q, k) for a k known at run time: hamming_ball(q, k), NULL (nothing) for k < 0';
COMMENT ON FUNCTION hamming_ball_sel(internal, oid, internal, integer) IS
	'selectivity estimate of fp <@ hamming_ball(q, k) from the radius and the fingerprint width';
COMMENT ON FUNCTION hamming_ball_joinsel(internal, oid, internal, smallint, internal) IS
	'join selectivity estimate of fp <@ hamming_ball(q, k), as the restriction estimate';
COMMENT ON FUNCTION simhash64_in_ball(simhash64, hamming_ball) IS 'implementation of simhash64 <@ hamming_ball';
COMMENT ON FUNCTION fp128_in_ball(fp128, hamming_ball) IS 'implementation of fp128 <@ hamming_ball';
COMMENT ON FUNCTION ball_contains_simhash64(hamming_ball, simhash64) IS 'implementation of hamming_ball @> simhash64';
COMMENT ON FUNCTION ball_contains_fp128(hamming_ball, fp128) IS 'implementation of hamming_ball @> fp128';
COMMENT ON OPERATOR <@ (simhash64, hamming_ball) IS 'fingerprint within the ball''s radius of its center; served by an ndd index';
COMMENT ON OPERATOR <@ (fp128, hamming_ball) IS 'fingerprint within the ball''s radius of its center; served by an ndd index';
COMMENT ON OPERATOR @> (hamming_ball, simhash64) IS 'ball contains the fingerprint (commutator of <@)';
COMMENT ON OPERATOR @> (hamming_ball, fp128) IS 'ball contains the fingerprint (commutator of <@)';

-- ndd_within
COMMENT ON FUNCTION ndd_within(simhash64, simhash64, integer) IS 'a <~> b <= k; indexable on either argument';
COMMENT ON FUNCTION ndd_within(fp128, fp128, integer) IS 'a <~> b <= k; indexable on either argument';
COMMENT ON FUNCTION ndd_within_support(internal) IS 'planner support of ndd_within(): makes it indexable';
COMMENT ON FUNCTION ndd_radius_bound(bigint, bool) IS 'internal: the inclusive radius of "<= k" (or "< k" when true)';

-- ~~ part 15: casts for client drivers

COMMENT ON FUNCTION simhash64_to_bytea(simhash64) IS 'the 8 bytes of a simhash64, most significant first';
COMMENT ON FUNCTION bytea_to_simhash64(bytea) IS 'exactly 8 bytes, most significant first, as simhash64';
COMMENT ON FUNCTION fp128_to_bytea(fp128) IS 'the 16 bytes of an fp128, most significant first';
COMMENT ON FUNCTION bytea_to_fp128(bytea) IS 'exactly 16 bytes, most significant first, as fp128';
COMMENT ON FUNCTION simhash64_to_numeric(simhash64) IS 'the unsigned value of a simhash64, 0 to 2^64-1';
COMMENT ON FUNCTION numeric_to_simhash64(numeric) IS 'an integer from 0 to 2^64-1 as simhash64; anything else is an error';
COMMENT ON CAST (simhash64 AS bytea) IS 'the 8 bytes, most significant first (the binary wire form)';
COMMENT ON CAST (bytea AS simhash64) IS 'exactly 8 bytes as simhash64, e.g. bytes bound by a driver';
COMMENT ON CAST (fp128 AS bytea) IS 'the 16 bytes, most significant first (the binary wire form)';
COMMENT ON CAST (bytea AS fp128) IS 'exactly 16 bytes as fp128, e.g. bytes bound by a driver';
COMMENT ON CAST (simhash64 AS numeric) IS 'the unsigned 64-bit value, 0 to 18446744073709551615';
COMMENT ON CAST (numeric AS simhash64) IS 'an unsigned 64-bit value (0 to 18446744073709551615), lossless';

-- ~~ part 20: fingerprints, sketches, exact similarity

COMMENT ON FUNCTION simhash(text, text) IS
	'64-bit simhash of the words of doc, each distinct word weighted by its number of occurrences';
COMMENT ON FUNCTION simhash(text, int, text) IS
	'64-bit simhash of the word shingles of that size (1 to 256) of doc, each weighted by its number of occurrences';
COMMENT ON FUNCTION simhash(tsvector) IS
	'64-bit simhash of the lexemes of doc, each weighted by its number of positions (1 when stripped)';
COMMENT ON FUNCTION simhash(tsvector, int) IS
	'64-bit simhash of the shingles of lexemes in document order (lexeme order when stripped)';
COMMENT ON FUNCTION simhash(text[], float8[]) IS
	'64-bit simhash of explicit features (hashed as given), weighted by the finite weights at the same positions, or 1 each';
COMMENT ON FUNCTION simhash_chars(text, int, text) IS
	'64-bit simhash of the character n-grams (n 1 to 256) of the normalized token stream (tokens joined by single spaces)';
COMMENT ON FUNCTION shingle_minhash(text, int, int, text) IS
	'minhash sketch: the minima of hashes (1 to 1024) independent permutations over the distinct word shingles of doc; -1 everywhere for a text without words';
COMMENT ON FUNCTION minhash_similarity(bigint[], bigint[]) IS
	'share of positions where two minhash sketches of the same length agree: an estimate of the Jaccard resemblance';
COMMENT ON FUNCTION supershingles(bigint[], int) IS
	'Broder supershingles: the sketch split into groups of equal size, each hashed to one feature';
COMMENT ON FUNCTION features_shared(bigint[], bigint[]) IS
	'number of distinct values present in both arrays (e.g. supershingles or word-list fingerprints in common)';
COMMENT ON FUNCTION bitflip_fp(text, int, int) IS
	'128-bit bit-flip fingerprint: a window of window bytes slides over the raw text (wrapping, NUL-padded when shorter), the smallest samples distinct checksums each flip one bit';
COMMENT ON FUNCTION word_list_fingerprints(text, int, text) IS
	'Pugh word-list fingerprints: distinct words hashed into lists (1 to 256), one order-insensitive fingerprint per non-empty list, its list number in the low 8 bits';
COMMENT ON FUNCTION content_hash(text, text) IS
	'128-bit hash of the normalized token stream: equal for texts that differ only in case, punctuation and spacing';
COMMENT ON FUNCTION jaccard(text, text, int, text) IS
	'exact Jaccard resemblance of the sets of word shingles of a and b (1 when neither has a word)';
COMMENT ON FUNCTION containment(text, text, int, text) IS
	'exact share of the word shingles of a that are also in b (1 when a has no word)';
COMMENT ON FUNCTION word_edit_distance(text, text, int, text) IS
	'edit distance between the token sequences: Levenshtein with substitution_cost 1, the insert/delete distance with 2';
COMMENT ON FUNCTION ndd_tokens(text, text) IS
	'the tokens every word-level fingerprint sees: lowercased maximal runs of letters and digits (tokenizer ''words''), also cut at UAX #29 word boundaries with each ideograph, kana and Hangul syllable a token (''unicode'')';
-- ~~ part 22: the tokenizers' versions

COMMENT ON FUNCTION ndd_tokenizer_version(text) IS
	'the version of a tokenizer in this server: ''words'' its compiled Unicode tables, ''unicode'' also ICU''s library and Unicode versions (its word-break rules and dictionaries)';
COMMENT ON TABLE ndd_tokenizer_versions IS
	'the version each tokenizer had when stored fingerprints were computed (extension creation or ndd_tokenizer_refresh_version)';
COMMENT ON FUNCTION ndd_tokenizer_check() IS
	'each tokenizer''s recorded and current versions, with a warning for each that differs (an ICU upgrade changes ''unicode'' tokens: recompute what was stored)';
COMMENT ON FUNCTION ndd_tokenizer_refresh_version(text) IS
	'records the tokenizer''s current version as the one stored fingerprints were computed with; run it after recomputing them';

-- ~~ part 30: the ndd index

COMMENT ON ACCESS METHOD ndd IS 'exact Hamming-radius search and KNN over fingerprints (Manku''s permuted-block tables)';
COMMENT ON FUNCTION ndd_handler(internal) IS 'handler of the ndd index access method';
COMMENT ON OPERATOR CLASS simhash64_ndd_ops USING ndd IS
	'ndd index on simhash64: fp <~> q <= k (as fp <@ hamming_ball(q, k)) and ORDER BY fp <~> q';
COMMENT ON OPERATOR FAMILY simhash64_ndd_ops USING ndd IS 'ndd index operators of simhash64';
COMMENT ON OPERATOR CLASS fp128_ndd_ops USING ndd IS
	'ndd index on fp128: fp <~> q <= k (as fp <@ hamming_ball(q, k)) and ORDER BY fp <~> q';
COMMENT ON OPERATOR FAMILY fp128_ndd_ops USING ndd IS 'ndd index operators of fp128';
COMMENT ON FUNCTION ndd_index_check(regclass) IS
	'checks an ndd index against its table (amcheck style); raises an error on corruption';

-- ~~ part 40: workflows over a collection (40_workflows.sql describes each in more detail)

COMMENT ON FUNCTION ndd_pairs(text, int, int) IS
	'every pair (a, b, distance) of documents of docs_sql (id, fp) whose fingerprints are within k bits, in one call';
COMMENT ON FUNCTION ndd_feature_pairs(text, int, int) IS
	'every pair (a, b, shared) of documents of docs_sql (id, bigint[]) sharing at least min_shared features; features in more than max_df documents are skipped';
COMMENT ON FUNCTION ndd_clusters(text, boolean, text) IS
	'clusters (id, cluster_id, representative) from the pairs of pairs_sql; transitive, or conservative (join a representative only)';
COMMENT ON FUNCTION ndd_nearest_cluster(regclass, name, anyelement, int, name, name, boolean) IS
	'the cluster of an existing row within k bits of fp (through the index on fp_column when there is one), or NULL';
COMMENT ON FUNCTION ndd_assign_cluster_trigger() IS
	'BEFORE INSERT row trigger: sets the new row''s cluster column to an existing near-duplicate''s cluster, or to its own id';
COMMENT ON FUNCTION ndd_verify(text, text, int, text) IS
	'exact Jaccard, containment both ways, word edit distance and edit similarity of each pair of pairs_sql over the texts of docs_sql';
COMMENT ON FUNCTION ndd_verify_pair(text, text, int, text) IS
	'jaccard, containment both ways, word edit distance and edit similarity of two texts from one copy of each, within work_mem (53200 beyond it); the measures of ndd_verify';
COMMENT ON FUNCTION ndd_verify_job(text, text, int, text, text) IS
	'the work of ndd_verify, search_path pinned: the caller''s queries run under caller_search_path';
COMMENT ON FUNCTION ndd_cluster_worst_pairs_job(text, text, int, text, text) IS
	'the work of ndd_cluster_worst_pairs, search_path pinned: the caller''s queries run under caller_search_path';
COMMENT ON FUNCTION ndd_cluster_worst_pairs(text, text, int, text) IS
	'for each cluster of two or more, its least similar pair by exact Jaccard, with edit distance and similarity';
COMMENT ON FUNCTION ndd_filter(text, boolean, regconfig, text) IS
	'the document''s tokens without numbers and, given a text search configuration, without its stop words';
COMMENT ON TABLE ndd_collection IS 'named collections with their number of documents, for the low-IDF filter';
COMMENT ON TABLE ndd_df IS 'per collection and token: the number of documents containing the token';
COMMENT ON FUNCTION ndd_collections_readable() IS
	'the collections whose document frequencies the current role may read: a member of the owner or of one of the readers (0 = PUBLIC); the rule of ndd_df''s row-level security';
COMMENT ON FUNCTION ndd_collections_writable() IS
	'the collections whose document frequencies the current role may change: a member of the owner; the rule of ndd_df''s row-level security';
COMMENT ON FUNCTION ndd_collection_set_reader(text, text, boolean) IS
	'adds (shared) or removes a reader of a collection''s document frequencies; the work of ndd_collection_grant and ndd_collection_revoke';
COMMENT ON FUNCTION ndd_collection_grant(text, text) IS
	'lets a role (or ''public'') read a collection''s document frequencies; only for members of its owner; returns its readers';
COMMENT ON FUNCTION ndd_collection_revoke(text, text) IS
	'stops a role (or ''public'') reading a collection''s document frequencies; only for members of its owner; returns its readers';
COMMENT ON FUNCTION ndd_collection_readable_ndocs(text) IS
	'the document count of a collection the current role may read; 22023 when it does not exist, 42501 when it may not read it';
COMMENT ON FUNCTION ndd_filter_low_idf(text, text, float8) IS
	'the document''s tokens whose IDF ln(ndocs / df) in the collection is at least min_idf (unseen tokens are kept)';

-- ~~ objects new or changed in 0.2.0 beyond the client casts

COMMENT ON FUNCTION ndd_index_check(regclass) IS
	'checks an ndd index (each leaf of a partitioned one) against its table like amcheck''s heapallindexed, under AccessShareLock; raises an error on corruption; revoked from PUBLIC';
COMMENT ON FUNCTION ndd_nearest_cluster_sql(regclass, name, name, name, boolean) IS
	'the lookup query of ndd_nearest_cluster and ndd_assign_cluster_trigger ($1 the fingerprint, $2 k), built in one place';
COMMENT ON FUNCTION ndd_labelling_lock(regclass) IS
	'takes the transaction-scoped lock that serialises ndd_assign_cluster_trigger on a table''s partition root; only for roles that may INSERT into the table';
COMMENT ON FUNCTION ndd_jaccard_pairs(text, float8, int, int, text) IS
	'every pair (a < b) of the (id, body[, sketch]) rows of docs_sql whose word-shingle Jaccard resemblance is at least threshold, exactly as jaccard() computes it: LSH band candidates (miss probability at most 1e-6 at the threshold; from the stored shingle_minhash sketches of an optional third column) verified on each document''s shingle set; continues on disk beyond maintenance_work_mem';
COMMENT ON FUNCTION ndd_containment_pairs(text, float8, int, text) IS
	'every ordered pair (a, b) of the (id, body) rows of docs_sql with containment(a.body, b.body) at least threshold, exact (prefix filtering and verification); continues on disk beyond maintenance_work_mem';
COMMENT ON FUNCTION ndd_jaccard_bands(bigint[], float8) IS
	'LSH band keys of a minhash sketch for a Jaccard threshold: index them with GIN and search with && to find documents with resemblance >= threshold, then recheck with jaccard()';
COMMENT ON FUNCTION ndd_jaccard_banding(float8, int) IS
	'the bands and rows ndd_jaccard_pairs and ndd_jaccard_bands cut a sketch of hashes positions into for threshold, and the probability of missing a pair exactly at the threshold';

---------------------------------------------------------------------------------------------------
-- part 60: the batch mode split by table and key: two sets, Citus (60_distributed.sql)
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION ndd_pairs_between(text, text, int, int) IS
	'every pair (new_id, stored_id, distance) of a row of new_sql and a row of stored_sql (id, fp) within k bits, in one batch (the crawler''s daily job)';
COMMENT ON FUNCTION ndd_layout_parts(simhash64, int, int, int) IS
	'for each table of the layout (blocks = 0: k + 1), the part in [0, parts) of fp''s key: distribute rows by it to co-locate keys, or route a radius query to at most one part per table';
COMMENT ON FUNCTION ndd_layout_parts(fp128, int, int, int) IS
	'for each table of the layout (blocks = 0: k + 1), the part in [0, parts) of fp''s key: distribute rows by it to co-locate keys, or route a radius query to at most one part per table';
COMMENT ON FUNCTION ndd_layout_table_pairs(int, int, int, bigint[], simhash64[], int) IS
	'one layout table''s share of the pairs within k bits of a group of rows (all pairs, or new against stored when n_new > 0): the pairs whose first shared key is that table''s';
COMMENT ON FUNCTION ndd_layout_table_pairs(int, int, int, bigint[], fp128[], int) IS
	'one layout table''s share of the pairs within k bits of a group of rows (all pairs, or new against stored when n_new > 0): the pairs whose first shared key is that table''s';
COMMENT ON FUNCTION ndd_distributed_job(text, text, int, int, int, text) IS
	'the distributed batch job of ndd_distributed_pairs (stored_sql NULL) and ndd_distributed_pairs_between, on Citus';
COMMENT ON FUNCTION ndd_distributed_pairs(text, int, int, int) IS
	'every pair (a, b, distance) within k bits of the rows of docs_sql, found on the Citus workers; the same pairs as ndd_pairs';
COMMENT ON FUNCTION ndd_distributed_pairs_between(text, text, int, int, int) IS
	'every pair (new_id, stored_id, distance) within k bits of new_sql against stored_sql, found on the Citus workers; the same pairs as ndd_pairs_between';
COMMENT ON FUNCTION ndd_distributed_feature_pairs_job(text, int, int, text) IS
	'the work of ndd_distributed_feature_pairs, search_path pinned: the caller''s query runs under caller_search_path';
COMMENT ON FUNCTION ndd_distributed_feature_pairs(text, int, int) IS
	'every pair (a, b, shared) of documents of docs_sql (id, bigint[]) sharing at least min_shared features, found on the Citus workers; the same pairs as ndd_feature_pairs';

---------------------------------------------------------------------------------------------------
-- The web (new in 0.2.0, src/sql/70_html.sql): HTML pages in, text out.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION ndd_html_text(html text) RETURNS text
	AS 'MODULE_PATHNAME', 'ndd_html_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 400;

CREATE FUNCTION ndd_html_content(html text) RETURNS text
	AS 'MODULE_PATHNAME', 'ndd_html_content'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 400;

COMMENT ON FUNCTION ndd_html_text(text) IS
	'all visible text of an HTML page in document order, one block (paragraph, heading, list item, cell...) a line, whitespace collapsed, character references decoded; script, style, template, noscript, head, hidden elements and comments dropped';
COMMENT ON FUNCTION ndd_html_content(text) IS
	'the main content of an HTML page: the element holding the most prose (paragraphs weighed by length and commas, link density, the page''s own <article>/<main>/articleBody and class/id tokens as signals), its blocks classified by length, link density and neighbours (Readability and jusText families); navigation, teasers, comments, sidebars and footers left out; the whole text when the page has no prose';

---------------------------------------------------------------------------------------------------
-- URLs and mirrored sites (new in 0.2.0, src/sql/75_urls.sql). Copied verbatim from the install
-- part, with their comments.
---------------------------------------------------------------------------------------------------

-- 75_urls.sql: URLs and mirrored sites. The canonical form of a URL and its SURT sort key (rules:
-- src/core/url.hpp, doc/web.md), and the pairs of sites (or directories) that mirror each other,
-- found from the fingerprints of their pages.

-- The canonical form of url: RFC 3986 syntax normalization (uriparser), default ports, fragment,
-- tracking and session parameters removed, query parameters sorted by name, host names in their
-- IDNA ASCII form (libidn2), one host whatever its spelling (a delimiter spelled full-width or
-- percent-encoded in a host makes the URL invalid). Idempotent. An invalid URL raises 22P02
-- (54000 beyond 65536 bytes), or gives NULL when strict is false.
CREATE FUNCTION ndd_url_normalize(url text, strict boolean DEFAULT true) RETURNS text
AS 'MODULE_PATHNAME', 'ndd_url_normalize_sql'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The SURT key of url's canonical form (com,example,www)/a?b=1): a domain and its subdomains are
-- one btree range.
CREATE FUNCTION ndd_url_surt(url text, strict boolean DEFAULT true) RETURNS text
AS 'MODULE_PATHNAME', 'ndd_url_surt_sql'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Whether ndd_url_normalize accepts url: WHERE ndd_url_is_valid(url) skips the bad rows of a crawl.
CREATE FUNCTION ndd_url_is_valid(url text) RETURNS boolean
AS 'MODULE_PATHNAME', 'ndd_url_is_valid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Mirrored sites: pages_sql returns (url text, fp simhash64 | fp128). For every pair of pages
-- within k bits, the longest common suffix p of their normalized paths made of whole segments
-- (the query belongs to the last one, p not empty) is a path both prefixes serve; a prefix pair
-- (a < b, bytewise) is reported when at least min_shared distinct p are shared and they are at least
-- min_fraction of the pages under a and of those under b. Pages whose fingerprint more than
-- max_hosts_per_fingerprint hosts, or pages, serve (parking, error, login pages) are left out of
-- the pairs, with a notice (issue 31: they made billions of pairs); they still count under their
-- prefixes.
CREATE FUNCTION ndd_mirrors(pages_sql text, k int DEFAULT 0, min_shared int DEFAULT 10,
                            min_fraction float8 DEFAULT 0.5, max_hosts_per_fingerprint int DEFAULT 1000,
                            OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                            OUT pages_b bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_mirrors'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 100;

-- Mirrors from pairs of pages found elsewhere (the distributed batch, a Jaccard join, any
-- similarity): pages_sql returns (id, url), pairs_sql returns (a, b, ...) page ids. The same
-- definition and answer as ndd_mirrors over the same pairs.
CREATE FUNCTION ndd_mirrors_from_pairs(pages_sql text, pairs_sql text, min_shared int DEFAULT 10,
                                       min_fraction float8 DEFAULT 0.5,
                                       OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                                       OUT pages_b bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_mirrors_from_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 100;

-- ndd_mirrors on Citus: the pairs of pages within k bits are found on the workers
-- (ndd_distributed_pairs), the prefixes are counted on the coordinator. pages_sql returns
-- (id, url, fp) with unique integer ids; the answer is ndd_mirrors's over (url, fp), with the same
-- max_hosts_per_fingerprint bound: the hot fingerprints are found first (one aggregate over
-- pages_sql) and their pages are not sent to the workers, with ndd_mirrors's notice. The work is a
-- *_job function (PL/pgSQL for the notice; search_path pinned as explained above ndd_verify_job):
-- the caller's queries run under the caller's search_path, every name in them qualified.
CREATE FUNCTION ndd_distributed_mirrors_job(pages_sql text, k int, min_shared int, min_fraction float8,
                                            max_hosts_per_fingerprint int, parts int, caller_search_path text,
                                            OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                                            OUT pages_b bigint)
RETURNS SETOF record
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    hot pg_catalog.text[];
    hot_pages pg_catalog.int8;
    fp_filter pg_catalog.text := '';
BEGIN
    IF max_hosts_per_fingerprint OPERATOR(pg_catalog.<) 1 THEN
        RAISE EXCEPTION 'max_hosts_per_fingerprint must be at least 1'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('max_hosts_per_fingerprint is %s.', max_hosts_per_fingerprint);
    END IF;
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    -- the fingerprints of more than max_hosts_per_fingerprint hosts (scheme://authority of the
    -- normalized URL) or pages, as ndd_mirrors's skip_hot_fingerprints counts them
    EXECUTE pg_catalog.format($q$
        SELECT pg_catalog.array_agg(h.fp), pg_catalog.sum(h.n)::pg_catalog.int8 FROM (
          SELECT p.fp::pg_catalog.text AS fp, pg_catalog.count(*) AS n FROM (%s) AS p(id, url, fp)
          WHERE p.url IS NOT NULL AND p.fp IS NOT NULL GROUP BY p.fp::pg_catalog.text
          HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) $1
              OR pg_catalog.count(DISTINCT pg_catalog.substring(@extschema@.ndd_url_normalize(p.url::pg_catalog.text),
                                                                '^[^:/?#]+://[^/?#]*')) OPERATOR(pg_catalog.>) $1) AS h $q$,
        pages_sql) INTO hot, hot_pages USING max_hosts_per_fingerprint::pg_catalog.int8;
    IF hot IS NOT NULL THEN
        RAISE NOTICE 'ndd_distributed_mirrors: % fingerprints served by more than % hosts or pages each left out (% pages)',
                pg_catalog.cardinality(hot), max_hosts_per_fingerprint, hot_pages
            USING DETAIL = 'A page that many sites serve alike (a parking, error or login page) is no evidence of a mirror, and every pair of its hosts would be compared.',
                  HINT = 'Raise max_hosts_per_fingerprint to count them.';
        fp_filter := pg_catalog.format(' AND p.fp::pg_catalog.text OPERATOR(pg_catalog.<>) ALL (%L::pg_catalog.text[])', hot);
    END IF;
    RETURN QUERY
    SELECT m.a, m.b, m.shared, m.pages_a, m.pages_b
    FROM @extschema@.ndd_mirrors_from_pairs(
        pg_catalog.format('SELECT p.id, p.url FROM (%s) AS p(id, url, fp) WHERE p.fp IS NOT NULL', pages_sql),
        pg_catalog.format('SELECT j.a, j.b FROM @extschema@.ndd_distributed_pairs(%L, %s, 0, %s) AS j',
                          pg_catalog.format('SELECT p.id, p.fp FROM (%s) AS p(id, url, fp) WHERE p.url IS NOT NULL%s',
                                            pages_sql, fp_filter),
                          k, parts),
        min_shared, min_fraction) AS m;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$fn$;
COMMENT ON FUNCTION ndd_distributed_mirrors_job(text, int, int, float8, int, int, text) IS
	'the work of ndd_distributed_mirrors, search_path pinned: the caller''s queries run under caller_search_path';
CREATE FUNCTION ndd_distributed_mirrors(pages_sql text, k int DEFAULT 0, min_shared int DEFAULT 10,
                                        min_fraction float8 DEFAULT 0.5, max_hosts_per_fingerprint int DEFAULT 1000,
                                        parts int DEFAULT 4096,
                                        OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                                        OUT pages_b bigint)
RETURNS SETOF record
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.shared, j.pages_a, j.pages_b
    FROM @extschema@.ndd_distributed_mirrors_job(pages_sql, k, min_shared, min_fraction, max_hosts_per_fingerprint,
                                                 parts, pg_catalog.current_setting('search_path')) AS j;
END;
COMMENT ON FUNCTION ndd_distributed_mirrors(text, int, int, float8, int, int) IS
	'ndd_mirrors on Citus: pairs of pages within k bits found on the workers, prefixes counted on the coordinator; pages_sql returns (id, url, fp); fingerprints of more than max_hosts_per_fingerprint hosts or pages left out';
COMMENT ON FUNCTION ndd_url_normalize(text, boolean) IS
	'the canonical form of a URL: RFC 3986 normalization, default port, fragment and tracking/session parameters removed, query sorted by name, IDNA host; invalid: error 22P02, or NULL when strict is false';
COMMENT ON FUNCTION ndd_url_surt(text, boolean) IS
	'the SURT sort key of a URL''s canonical form (https://www.Example.com/a?b=1 -> com,example,www)/a?b=1): a domain and its subdomains are one btree range';
COMMENT ON FUNCTION ndd_url_is_valid(text) IS
	'whether ndd_url_normalize accepts the URL: filter a crawl''s rows with it to skip bad URLs without aborting';
COMMENT ON FUNCTION ndd_mirrors(text, int, int, float8, int) IS
	'pairs of URL prefixes (a < b) serving the same paths with pages within k bits: shared distinct paths >= min_shared and >= min_fraction of the pages under each prefix; pages_sql returns (url, fp); fingerprints of more than max_hosts_per_fingerprint hosts or pages left out';
COMMENT ON FUNCTION ndd_mirrors_from_pairs(text, text, int, float8) IS
	'ndd_mirrors over pairs of pages found elsewhere: pages_sql returns (id, url), pairs_sql returns (a, b) page ids';

-- ---------------------------------------------------------------------------------------------
-- distances (issue 28): character edit distance (src/sql/55_distances.sql)
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION edit_distance(a text, b text, max int DEFAULT NULL, substitution_cost int DEFAULT 1)
RETURNS int
	AS 'MODULE_PATHNAME', 'ndd_edit_distance_text'
	LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION edit_distance(text, text, int, int) IS
	'character edit distance over code points (Levenshtein; substitution_cost 2: insert/delete distance), bit-parallel; with max, max + 1 as soon as it exceeds max';

CREATE FUNCTION edit_similarity(a text, b text, substitution_cost int DEFAULT 1) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_edit_similarity_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION edit_similarity(text, text, int) IS
	'1 - edit_distance / max(character lengths) (substitution_cost 1), 1 - distance / (sum of lengths) (cost 2); 1 for two empty texts';

-- ---------------------------------------------------------------------------------------------
-- distances (issue 28): Charikar's cosine estimate from two simhashes (src/sql/55_distances.sql)
-- ---------------------------------------------------------------------------------------------

-- Each simhash bit is the side of a random hyperplane; vectors at angle theta differ in a bit with
-- probability theta / pi, so d differing bits of f estimate cos(theta) as cos(pi d / f) (standard
-- deviation of the angle: pi sqrt(p (1 - p) / f) with p = theta / pi; doc/reference.md).
CREATE FUNCTION simhash_cosine(a simhash64, b simhash64) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_simhash_cosine64'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_cosine(simhash64, simhash64) IS
	'Charikar''s estimate of the cosine of the vectors behind two simhashes: cos(pi * hamming distance / 64)';

CREATE FUNCTION simhash_cosine(a fp128, b fp128) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_simhash_cosine128'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_cosine(fp128, fp128) IS
	'Charikar''s estimate of the cosine of the vectors behind two 128-bit simhashes: cos(pi * hamming distance / 128)';

-- ---------------------------------------------------------------------------------------------
-- distances (issue 28): the exact cosine of term-frequency vectors (src/sql/55_distances.sql)
-- ---------------------------------------------------------------------------------------------

CREATE FUNCTION cosine(a text, b text, shingle int DEFAULT 1, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_cosine_text_tf'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION cosine(text, text, int, text) IS
	'exact cosine of the term-frequency vectors of the word shingles of a and b (jaccard''s tokens, repeats counted); 1 when neither has a word';

-- ---------------------------------------------------------------------------------------------
-- distances (issue 28): the cosine weighted by inverse document frequency (src/sql/55_distances.sql)
-- ---------------------------------------------------------------------------------------------

-- The cosine of a's and b's word-count vectors weighted by IDF: each word w weighs
-- tf(w) * (1 + ln((1 + ndocs) / (1 + df(w)))) (the smoothed IDF: positive, finite, and a word the
-- collection has not seen, df 0, weighs most), so words common in the collection count less.
-- 1 when neither text has a word, 0 when one has none. The document frequencies are read with the
-- caller's privileges and ndd_filter_low_idf's checks (ndd_collection_readable_ndocs, doc/security.md): 22023 for a
-- collection that does not exist, 42501 for one the caller may not read.
CREATE FUNCTION cosine_idf(a text, b text, collection text)
RETURNS float8
LANGUAGE plpgsql STRICT STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n bigint;
    result float8;
BEGIN
    n := @extschema@.ndd_collection_readable_ndocs(collection);
    WITH ta AS (SELECT t.w, pg_catalog.count(*) AS tf FROM pg_catalog.unnest(@extschema@.ndd_tokens(a)) AS t(w) GROUP BY t.w),
         tb AS (SELECT t.w, pg_catalog.count(*) AS tf FROM pg_catalog.unnest(@extschema@.ndd_tokens(b)) AS t(w) GROUP BY t.w),
         v AS (SELECT coalesce(ta.w, tb.w) AS w, coalesce(ta.tf, 0)::float8 AS fa, coalesce(tb.tf, 0)::float8 AS fb
               FROM ta FULL JOIN tb ON ta.w OPERATOR(pg_catalog.=) tb.w),
         weighted AS (
             SELECT v.fa OPERATOR(pg_catalog.*) i.idf AS wa, v.fb OPERATOR(pg_catalog.*) i.idf AS wb
             FROM v LEFT JOIN @extschema@.ndd_df AS f
                  ON f.collection OPERATOR(pg_catalog.=) cosine_idf.collection AND f.token OPERATOR(pg_catalog.=) v.w,
             LATERAL (SELECT 1 OPERATOR(pg_catalog.+) pg_catalog.ln((1 OPERATOR(pg_catalog.+) n)::float8
                             OPERATOR(pg_catalog./) (1 OPERATOR(pg_catalog.+) coalesce(f.df, 0))::float8) AS idf) AS i),
         s AS (SELECT pg_catalog.sum(wa OPERATOR(pg_catalog.*) wb) AS dot,
                      pg_catalog.sum(wa OPERATOR(pg_catalog.*) wa) AS na, pg_catalog.sum(wb OPERATOR(pg_catalog.*) wb) AS nb
               FROM weighted)
    SELECT CASE WHEN coalesce(s.na, 0) OPERATOR(pg_catalog.=) 0 AND coalesce(s.nb, 0) OPERATOR(pg_catalog.=) 0 THEN 1
                WHEN s.na OPERATOR(pg_catalog.=) 0 OR s.nb OPERATOR(pg_catalog.=) 0 THEN 0
                ELSE LEAST(1, s.dot OPERATOR(pg_catalog./) (pg_catalog.sqrt(s.na) OPERATOR(pg_catalog.*) pg_catalog.sqrt(s.nb)))
           END INTO result
    FROM s;
    RETURN result;
END
$$;
COMMENT ON FUNCTION cosine_idf(text, text, text) IS
	'cosine of the word-count vectors of a and b weighted by the smoothed IDF 1 + ln((1 + ndocs) / (1 + df)) of a document-frequency collection (its read privileges apply)';

-- ---------------------------------------------------------------------------------------------
-- distances (issue 28): simhash of vectors (src/sql/55_distances.sql)
-- ---------------------------------------------------------------------------------------------

-- Charikar's random-hyperplane simhash of an embedding, fixed +-1 hyperplanes from the seed
-- "ndd.vect" (reproducible on every machine; doc/reference.md). pgvector: simhash(embedding::real[]).
CREATE FUNCTION simhash(v real[]) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_vector_simhash64'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(real[]) IS
	'64-bit random-hyperplane simhash of a vector (1 to 16000 finite components): Hamming distance d estimates the angle as pi d / 64';
CREATE FUNCTION simhash(v float8[]) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_vector_simhash64'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(float8[]) IS
	'64-bit random-hyperplane simhash of a vector (1 to 16000 finite components); equal to simhash(v::real[]) when the values are reals';
CREATE FUNCTION simhash128(v real[]) RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_vector_simhash128'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash128(real[]) IS
	'128-bit random-hyperplane simhash of a vector (its first 64 bits are simhash(v)): Hamming distance d estimates the angle as pi d / 128';
CREATE FUNCTION simhash128(v float8[]) RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_vector_simhash128'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash128(float8[]) IS
	'128-bit random-hyperplane simhash of a vector (its first 64 bits are simhash(v))';
CREATE FUNCTION cosine(a real[], b real[]) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_vector_cosine'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cosine(real[], real[]) IS
	'exact cosine of two vectors of the same dimensions (NULL when one is zero): re-ranks what simhash finds';
CREATE FUNCTION cosine(a float8[], b float8[]) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_vector_cosine'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cosine(float8[], float8[]) IS
	'exact cosine of two vectors of the same dimensions (NULL when one is zero)';

---------------------------------------------------------------------------------------------------
-- A page's metadata (new in 0.2.0, issue 29, src/sql/70_html.sql): title, canonical link, og:url,
-- language, description, publication date. Copied verbatim from the install part.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION ndd_html_meta(html text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'ndd_html_meta'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 400;

COMMENT ON FUNCTION ndd_html_meta(text) IS
	'what an HTML page says about itself, as jsonb: title, canonical (<link rel=canonical>), og_url, language (<html lang>), description and published (article:published_time, itemprop datePublished, JSON-LD datePublished, <time datetime> in <article>), each a string as written or null';
