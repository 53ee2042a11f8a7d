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
