-- 60_distributed.sql: the batch mode split by the layout's tables and keys, for one set or two (new
-- against stored) on Citus, where each table's rows are grouped by key on the workers and every
-- group finds its pairs where it is stored (on one server ndd_pairs and ndd_pairs_between, in
-- 40_workflows.sql, find the same pairs); each object with its COMMENT.
--
-- The split (one definition, ndd_layout_parts): for each table of the layout (blocks = 0 means
-- k + 1 blocks, the fewest tables, so the fewest copies of each row), a row's part is a hash of
-- (table, the row's key in that table) modulo `parts`. Two fingerprints within k bits share the key
-- of at least one table (pigeonhole), so they meet in that table's group of that part; each group
-- reports only the pairs whose first shared key is its table's (ndd_layout_table_pairs), so every
-- pair comes out once and no global de-duplication is needed.

-- The part of fp's key in each table of the layout (array element t + 1 for table t).
CREATE FUNCTION ndd_layout_parts(fp simhash64, k int, blocks int DEFAULT 0, parts int DEFAULT 4096)
RETURNS int[]
AS 'MODULE_PATHNAME', 'ndd_layout_parts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_layout_parts(simhash64, int, int, int) IS
	'for each table of the layout (blocks = 0: k + 1), the part in [0, parts) of fp''s key: distribute rows by it to co-locate keys, or route a radius query to at most one part per table';

CREATE FUNCTION ndd_layout_parts(fp fp128, k int, blocks int DEFAULT 0, parts int DEFAULT 4096)
RETURNS int[]
AS 'MODULE_PATHNAME', 'ndd_layout_parts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_layout_parts(fp128, int, int, int) IS
	'for each table of the layout (blocks = 0: k + 1), the part in [0, parts) of fp''s key: distribute rows by it to co-locate keys, or route a radius query to at most one part per table';

-- One table's share of the pairs of a group of rows given as arrays (the first n_new rows new,
-- the others stored, when n_new > 0): the pairs whose first shared key is that table's.
CREATE FUNCTION ndd_layout_table_pairs(layout_table int, k int, blocks int, ids bigint[], fps simhash64[],
                                       n_new int DEFAULT 0,
                                       OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_layout_table_pairs'
LANGUAGE C STRICT STABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION ndd_layout_table_pairs(int, int, int, bigint[], simhash64[], int) IS
	'one layout table''s share of the pairs within k bits of a group of rows (all pairs, or new against stored when n_new > 0): the pairs whose first shared key is that table''s';

CREATE FUNCTION ndd_layout_table_pairs(layout_table int, k int, blocks int, ids bigint[], fps fp128[],
                                       n_new int DEFAULT 0,
                                       OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_layout_table_pairs'
LANGUAGE C STRICT STABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION ndd_layout_table_pairs(int, int, int, bigint[], fp128[], int) IS
	'one layout table''s share of the pairs within k bits of a group of rows (all pairs, or new against stored when n_new > 0): the pairs whose first shared key is that table''s';

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
COMMENT ON FUNCTION ndd_distributed_job(text, text, int, int, int, text) IS
	'the distributed batch job of ndd_distributed_pairs (stored_sql NULL) and ndd_distributed_pairs_between, on Citus';

-- All pairs within k bits of a distributed collection, found on the workers: exactly ndd_pairs's.
CREATE FUNCTION ndd_distributed_pairs(docs_sql text, k int, blocks int DEFAULT 0, parts int DEFAULT 4096,
                                      OUT a bigint, OUT b bigint, OUT distance int)
RETURNS SETOF record
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.distance FROM @extschema@.ndd_distributed_job(docs_sql, NULL, k, blocks, parts,
                                                                    pg_catalog.current_setting('search_path')) AS j;
END;
COMMENT ON FUNCTION ndd_distributed_pairs(text, int, int, int) IS
	'every pair (a, b, distance) within k bits of the rows of docs_sql, found on the Citus workers; the same pairs as ndd_pairs';

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
COMMENT ON FUNCTION ndd_distributed_pairs_between(text, text, int, int, int) IS
	'every pair (new_id, stored_id, distance) within k bits of new_sql against stored_sql, found on the Citus workers; the same pairs as ndd_pairs_between';

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
COMMENT ON FUNCTION ndd_distributed_feature_pairs_job(text, int, int, text) IS
	'the work of ndd_distributed_feature_pairs, search_path pinned: the caller''s query runs under caller_search_path';
CREATE FUNCTION ndd_distributed_feature_pairs(docs_sql text, min_shared int DEFAULT 2, max_df int DEFAULT 1000,
                                              OUT a bigint, OUT b bigint, OUT shared int)
RETURNS SETOF record
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.shared
    FROM @extschema@.ndd_distributed_feature_pairs_job(docs_sql, min_shared, max_df,
                                                       pg_catalog.current_setting('search_path')) AS j;
END;
COMMENT ON FUNCTION ndd_distributed_feature_pairs(text, int, int) IS
	'every pair (a, b, shared) of documents of docs_sql (id, bigint[]) sharing at least min_shared features, found on the Citus workers; the same pairs as ndd_feature_pairs';
