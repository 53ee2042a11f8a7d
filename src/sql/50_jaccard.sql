-- 50_jaccard.sql: every pair at or above a word-shingle Jaccard resemblance (or containment), exact,
-- in one call; and the LSH band keys that answer the same question for one document through a GIN
-- index. Method and guarantees: src/core/jaccard_pairs_api.h. Each object with its COMMENT.

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
COMMENT ON FUNCTION ndd_jaccard_pairs(text, float8, int, int, text) IS
	'every pair (a < b) of the (id, body[, sketch]) rows of docs_sql whose word-shingle Jaccard resemblance is at least threshold, exactly as jaccard() computes it: LSH band candidates (miss probability at most 1e-6 at the threshold; from the stored shingle_minhash sketches of an optional third column) verified on each document''s shingle set; continues on disk beyond maintenance_work_mem';

-- Every ordered pair (a, b), a <> b, with containment(a.body, b.body, shingle) >= threshold:
-- how much of a is in b. Exact by prefix filtering (no sketch).
CREATE FUNCTION ndd_containment_pairs(docs_sql text, threshold float8, shingle int DEFAULT 4,
                                      tokenizer text DEFAULT 'words',
                                      OUT a bigint, OUT b bigint, OUT containment float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_containment_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION ndd_containment_pairs(text, float8, int, text) IS
	'every ordered pair (a, b) of the (id, body) rows of docs_sql with containment(a.body, b.body) at least threshold, exact (prefix filtering and verification); continues on disk beyond maintenance_work_mem';

-- The LSH band keys of a minhash sketch for a resemblance threshold.
CREATE FUNCTION ndd_jaccard_bands(sketch bigint[], threshold float8) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'ndd_jaccard_bands'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_jaccard_bands(bigint[], float8) IS
	'LSH band keys of a minhash sketch for a Jaccard threshold: index them with GIN and search with && to find documents with resemblance >= threshold, then recheck with jaccard()';

-- The banding chosen for a threshold and a sketch size.
CREATE FUNCTION ndd_jaccard_banding(threshold float8, hashes int DEFAULT 128,
                                    OUT bands int, OUT rows int, OUT miss_probability float8)
AS 'MODULE_PATHNAME', 'ndd_jaccard_banding'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_jaccard_banding(float8, int) IS
	'the bands and rows ndd_jaccard_pairs and ndd_jaccard_bands cut a sketch of hashes positions into for threshold, and the probability of missing a pair exactly at the threshold';
