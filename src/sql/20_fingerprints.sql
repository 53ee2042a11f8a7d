-- ndd install script, part 20: fingerprint functions, sketches, exact similarity and the token
-- filter ndd_filter, each with its COMMENT.
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
COMMENT ON FUNCTION simhash(text, text) IS
	'64-bit simhash of the words of doc, each distinct word weighted by its number of occurrences';

CREATE FUNCTION simhash(doc text, shingle int, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_text_shingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(text, int, text) IS
	'64-bit simhash of the word shingles of that size (1 to 256) of doc, each weighted by its number of occurrences';

CREATE FUNCTION simhash(doc tsvector) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_tsvector'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(tsvector) IS
	'64-bit simhash of the lexemes of doc, each weighted by its number of positions (1 when stripped)';

CREATE FUNCTION simhash(doc tsvector, shingle int) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_tsvector_shingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(tsvector, int) IS
	'64-bit simhash of the shingles of lexemes in document order (lexeme order when stripped)';

-- Not strict: a NULL weights array means every feature weighs 1.
CREATE FUNCTION simhash(features text[], weights float8[] DEFAULT NULL) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_features'
	LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(text[], float8[]) IS
	'64-bit simhash of explicit features (hashed as given), weighted by the finite weights at the same positions, or 1 each';

CREATE FUNCTION simhash_chars(doc text, n int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_chars'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash_chars(text, int, text) IS
	'64-bit simhash of the character n-grams (n 1 to 256) of the normalized token stream (tokens joined by single spaces)';

---------------------------------------------------------------------------------------------------
-- shingles, minhash sketches and supershingles (Broder)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION shingle_minhash(doc text, shingle int DEFAULT 4, hashes int DEFAULT 84,
                                tokenizer text DEFAULT 'words') RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_shingle_minhash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION shingle_minhash(text, int, int, text) IS
	'minhash sketch: the minima of hashes (1 to 1024) independent permutations over the distinct word shingles of doc; -1 everywhere for a text without words';

CREATE FUNCTION minhash_similarity(a bigint[], b bigint[]) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_minhash_similarity'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_similarity(bigint[], bigint[]) IS
	'share of positions where two minhash sketches of the same length agree: an estimate of the Jaccard resemblance';

CREATE FUNCTION supershingles(sketch bigint[], groups int DEFAULT 6) RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_supershingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION supershingles(bigint[], int) IS
	'Broder supershingles: the sketch split into groups of equal size, each hashed to one feature';

CREATE FUNCTION features_shared(a bigint[], b bigint[]) RETURNS int
	AS 'MODULE_PATHNAME', 'ndd_features_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION features_shared(bigint[], bigint[]) IS
	'number of distinct values present in both arrays (e.g. supershingles or word-list fingerprints in common)';

---------------------------------------------------------------------------------------------------
-- bit-flip fingerprint (patent 7,707,157), word-list fingerprints (Pugh), exact duplicates
---------------------------------------------------------------------------------------------------

CREATE FUNCTION bitflip_fp(doc text, "window" int DEFAULT 64, samples int DEFAULT 128) RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_bitflip_fp'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION bitflip_fp(text, int, int) IS
	'128-bit bit-flip fingerprint: a window of window bytes slides over the raw text (wrapping, NUL-padded when shorter), the smallest samples distinct checksums each flip one bit';

CREATE FUNCTION word_list_fingerprints(doc text, lists int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_word_list_fingerprints'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION word_list_fingerprints(text, int, text) IS
	'Pugh word-list fingerprints: distinct words hashed into lists (1 to 256), one order-insensitive fingerprint per non-empty list, its list number in the low 8 bits';

CREATE FUNCTION content_hash(doc text, tokenizer text DEFAULT 'words') RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_content_hash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION content_hash(text, text) IS
	'128-bit hash of the normalized token stream: equal for texts that differ only in case, punctuation and spacing';

---------------------------------------------------------------------------------------------------
-- exact similarity and the token stream
---------------------------------------------------------------------------------------------------

CREATE FUNCTION jaccard(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_jaccard'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION jaccard(text, text, int, text) IS
	'exact Jaccard resemblance of the sets of word shingles of a and b (1 when neither has a word)';

CREATE FUNCTION containment(a text, b text, shingle int DEFAULT 4, tokenizer text DEFAULT 'words') RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_containment'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION containment(text, text, int, text) IS
	'exact share of the word shingles of a that are also in b (1 when a has no word)';

CREATE FUNCTION word_edit_distance(a text, b text, substitution_cost int DEFAULT 1, tokenizer text DEFAULT 'words')
RETURNS int
	AS 'MODULE_PATHNAME', 'ndd_word_edit_distance'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION word_edit_distance(text, text, int, text) IS
	'edit distance between the token sequences: Levenshtein with substitution_cost 1, the insert/delete distance with 2';

CREATE FUNCTION ndd_tokens(doc text, tokenizer text DEFAULT 'words') RETURNS text[]
	AS 'MODULE_PATHNAME', 'ndd_tokens'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION ndd_tokens(text, text) IS
	'the tokens every word-level fingerprint sees: lowercased maximal runs of letters and digits (tokenizer ''words''), also cut at UAX #29 word boundaries with each ideograph, kana and Hangul syllable a token (''unicode'')';

-- The document's tokens (ndd_tokens: lowercase runs of letters and digits) joined by single
-- spaces, without numbers (tokens made only of the digits 0-9) when numbers is true, and without
-- the stop words of a text search configuration when stopwords is given: a token is a stop word
-- when to_tsvector(stopwords, token) is empty, i.e. the configuration's dictionaries discard it.
-- Fingerprints of the result see exactly the kept tokens. Immutable like to_tsvector(regconfig,
-- text): changing a configuration's dictionaries does not recompute stored results. The tokens
-- are those of the tokenizer (NULL: 'words'); fingerprint the result with the same tokenizer.
CREATE FUNCTION ndd_filter(doc text, numbers boolean DEFAULT true, stopwords regconfig DEFAULT NULL,
                           tokenizer text DEFAULT 'words')
RETURNS text
AS 'MODULE_PATHNAME', 'ndd_filter'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION ndd_filter(text, boolean, regconfig, text) IS
	'the document''s tokens without numbers and, given a text search configuration, without its stop words';
