---------------------------------------------------------------------------------------------------
-- distances: character edit distance (src/distances.c, src/core/edit_distance.cpp)
---------------------------------------------------------------------------------------------------

-- Not STRICT: a NULL max means "no bound" (NULL a, b or substitution_cost give NULL).
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

---------------------------------------------------------------------------------------------------
-- distances: Charikar's cosine estimate from two simhashes (src/distances.c)
---------------------------------------------------------------------------------------------------

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

---------------------------------------------------------------------------------------------------
-- distances: the exact cosine of term-frequency vectors (src/distances.c, src/core/cosine.cpp)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION cosine(a text, b text, shingle int DEFAULT 1, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_cosine_text_tf'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION cosine(text, text, int, text) IS
	'exact cosine of the term-frequency vectors of the word shingles of a and b (jaccard''s tokens, repeats counted); 1 when neither has a word';

---------------------------------------------------------------------------------------------------
-- distances: the cosine weighted by inverse document frequency (a collection of ndd_df)
---------------------------------------------------------------------------------------------------

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

---------------------------------------------------------------------------------------------------
-- distances: simhash of vectors (src/vector_simhash.c, src/core/vector_simhash.cpp)
---------------------------------------------------------------------------------------------------

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
