-- ndd install script, part 20: fingerprint functions, sketches and exact similarity.
--
-- Normalization (every word-level function): lowercase as Python's str.lower(), tokens = maximal
-- runs of Unicode letters and digits (underscore and everything else separate), word shingles =
-- contiguous runs of k tokens joined by single spaces; fewer than k tokens make one shingle, no
-- tokens none. That is the tokenizer 'words'; every function that tokenizes takes a last argument
-- `tokenizer text DEFAULT 'words'`, and 'unicode' also cuts at UAX #29 word boundaries (ICU) and
-- makes each ideograph, kana and Hangul syllable a token (doc/tokenizers.md). All hashing is XXH3 with fixed seeds. Details: src/core/*.hpp.
-- Text-processing functions cost like to_tsvector (100); the exact edit distance is quadratic at
-- worst (1000).

---------------------------------------------------------------------------------------------------
-- simhash (Charikar)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION simhash(doc text, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION simhash(doc text, shingle int, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_text_shingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION simhash(doc tsvector) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_tsvector'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION simhash(doc tsvector, shingle int) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_tsvector_shingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

-- Not strict: a NULL weights array means every feature weighs 1.
CREATE FUNCTION simhash(features text[], weights float8[] DEFAULT NULL) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_features'
	LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE COST 100;

CREATE FUNCTION simhash_chars(doc text, n int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_chars'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

---------------------------------------------------------------------------------------------------
-- shingles, minhash sketches and supershingles (Broder)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION shingle_minhash(doc text, shingle int DEFAULT 4, hashes int DEFAULT 84,
                                tokenizer text DEFAULT 'words') RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_shingle_minhash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION minhash_similarity(a bigint[], b bigint[]) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_minhash_similarity'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION supershingles(sketch bigint[], groups int DEFAULT 6) RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_supershingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION features_shared(a bigint[], b bigint[]) RETURNS int
	AS 'MODULE_PATHNAME', 'ndd_features_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------------------------------
-- bit-flip fingerprint (patent 7,707,157), word-list fingerprints (Pugh), exact duplicates
---------------------------------------------------------------------------------------------------

CREATE FUNCTION bitflip_fp(doc text, "window" int DEFAULT 64, samples int DEFAULT 128) RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_bitflip_fp'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION word_list_fingerprints(doc text, lists int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_word_list_fingerprints'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION content_hash(doc text, tokenizer text DEFAULT 'words') RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_content_hash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

---------------------------------------------------------------------------------------------------
-- exact similarity and the token stream
---------------------------------------------------------------------------------------------------

CREATE FUNCTION jaccard(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_jaccard'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION containment(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_containment'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

CREATE FUNCTION word_edit_distance(a text, b text, substitution_cost int DEFAULT 1, tokenizer text DEFAULT 'words')
RETURNS int
	AS 'MODULE_PATHNAME', 'ndd_word_edit_distance'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;

CREATE FUNCTION ndd_tokens(doc text, tokenizer text DEFAULT 'words') RETURNS text[]
	AS 'MODULE_PATHNAME', 'ndd_tokens'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

