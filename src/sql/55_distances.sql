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
