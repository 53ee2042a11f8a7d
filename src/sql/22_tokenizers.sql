-- ndd install script, part 22: the tokenizers' versions (doc/tokenizers.md), each object with its
-- COMMENT.
--
-- A fingerprint made with tokenizer 'unicode' depends on ICU's word-break rules and dictionaries,
-- which change between ICU releases the way a collation's sort order does. PostgreSQL records a
-- collation's version and warns when the library's differs; ndd does the same for its
-- tokenizers: the versions in use when the extension was created are recorded here, and
-- ndd_tokenizer_check() (also run by the first use of 'unicode' in each session) warns when the
-- library now reports another one. 'words' depends only on tables compiled into ndd.

-- The version of a tokenizer in this server. STABLE, not IMMUTABLE: an ICU upgrade changes it.
CREATE FUNCTION ndd_tokenizer_version(tokenizer text) RETURNS text
	AS 'MODULE_PATHNAME', 'ndd_tokenizer_version_sql'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_tokenizer_version(text) IS
	'the version of a tokenizer in this server: ''words'' its compiled Unicode tables, ''unicode'' also ICU''s library and Unicode versions (its word-break rules and dictionaries)';

-- The version each tokenizer had when what is stored was computed (the extension's creation, or
-- the last ndd_tokenizer_refresh_version).
CREATE TABLE ndd_tokenizer_versions (
	tokenizer text PRIMARY KEY,
	version text NOT NULL
);
COMMENT ON TABLE ndd_tokenizer_versions IS
	'the version each tokenizer had when stored fingerprints were computed (extension creation or ndd_tokenizer_refresh_version)';
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
COMMENT ON FUNCTION ndd_tokenizer_check() IS
	'each tokenizer''s recorded and current versions, with a warning for each that differs (an ICU upgrade changes ''unicode'' tokens: recompute what was stored)';

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
COMMENT ON FUNCTION ndd_tokenizer_refresh_version(text) IS
	'records the tokenizer''s current version as the one stored fingerprints were computed with; run it after recomputing them';
