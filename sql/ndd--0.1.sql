-- ndd install script, part 10: the fingerprint types, the Hamming distance and its planner support.

\echo Use "CREATE EXTENSION ndd" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- simhash64: 64 bits, text form 16 lowercase hex digits
---------------------------------------------------------------------------------------------------

CREATE TYPE simhash64;

CREATE FUNCTION simhash64_in(cstring) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_out(simhash64) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_recv(internal) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_send(simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE simhash64 (
	INPUT = simhash64_in, OUTPUT = simhash64_out,
	RECEIVE = simhash64_recv, SEND = simhash64_send,
	INTERNALLENGTH = 8, PASSEDBYVALUE, ALIGNMENT = double, STORAGE = plain
);
COMMENT ON TYPE simhash64 IS '64-bit similarity fingerprint (Charikar simhash); compare with <~>';

-- The same 64 bits as a bigint, both ways; explicit, since a fingerprint is not a number.
CREATE CAST (simhash64 AS bigint) WITHOUT FUNCTION;
CREATE CAST (bigint AS simhash64) WITHOUT FUNCTION;

CREATE FUNCTION simhash64_to_bit(simhash64) RETURNS bit
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bit_to_simhash64(bit) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (simhash64 AS bit) WITH FUNCTION simhash64_to_bit(simhash64);
CREATE CAST (bit AS simhash64) WITH FUNCTION bit_to_simhash64(bit);

CREATE FUNCTION simhash64_cmp(simhash64, simhash64) RETURNS int
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_lt(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_le(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_eq(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_ne(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_ge(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_gt(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- hashing reuses bigint's: the same 64 bits
CREATE FUNCTION simhash64_hash(simhash64) RETURNS int
	AS 'hashint8' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_hash_extended(simhash64, bigint) RETURNS bigint
	AS 'hashint8extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR < (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR = (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR >= (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR > (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);

CREATE OPERATOR CLASS simhash64_ops DEFAULT FOR TYPE simhash64 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 simhash64_cmp(simhash64, simhash64);
CREATE OPERATOR CLASS simhash64_ops DEFAULT FOR TYPE simhash64 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 simhash64_hash(simhash64),
	FUNCTION 2 simhash64_hash_extended(simhash64, bigint);

---------------------------------------------------------------------------------------------------
-- fp128: 128 bits, text form 32 lowercase hex digits
---------------------------------------------------------------------------------------------------

CREATE TYPE fp128;

CREATE FUNCTION fp128_in(cstring) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fp128_out(fp128) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fp128_recv(internal) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fp128_send(fp128) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE fp128 (
	INPUT = fp128_in, OUTPUT = fp128_out,
	RECEIVE = fp128_recv, SEND = fp128_send,
	INTERNALLENGTH = 16, ALIGNMENT = double, STORAGE = plain
);
COMMENT ON TYPE fp128 IS '128-bit fingerprint (bit-flip fingerprint, content hash); compare with <~>';

CREATE FUNCTION fp128_to_bit(fp128) RETURNS bit
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bit_to_fp128(bit) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fp128_to_uuid(fp128) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_to_fp128(uuid) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (fp128 AS bit) WITH FUNCTION fp128_to_bit(fp128);
CREATE CAST (bit AS fp128) WITH FUNCTION bit_to_fp128(bit);
CREATE CAST (fp128 AS uuid) WITH FUNCTION fp128_to_uuid(fp128);
CREATE CAST (uuid AS fp128) WITH FUNCTION uuid_to_fp128(uuid);

CREATE FUNCTION fp128_cmp(fp128, fp128) RETURNS int
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fp128_lt(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fp128_le(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fp128_eq(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fp128_ne(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fp128_ge(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fp128_gt(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION fp128_hash(fp128) RETURNS int
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fp128_hash_extended(fp128, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR < (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR = (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR >= (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR > (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);

CREATE OPERATOR CLASS fp128_ops DEFAULT FOR TYPE fp128 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 fp128_cmp(fp128, fp128);
CREATE OPERATOR CLASS fp128_ops DEFAULT FOR TYPE fp128 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 fp128_hash(fp128),
	FUNCTION 2 fp128_hash_extended(fp128, bigint);

---------------------------------------------------------------------------------------------------
-- hamming_distance: what <~> returns. An int4 in all but name (same binary form, int4's I/O and
-- comparison code, an implicit cast to int4), so it works wherever an integer does; a type of its
-- own only so that its comparisons can carry the planner support that makes them indexable.
---------------------------------------------------------------------------------------------------

CREATE TYPE hamming_distance;

CREATE FUNCTION hamming_distance_in(cstring) RETURNS hamming_distance
	AS 'int4in' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_out(hamming_distance) RETURNS cstring
	AS 'int4out' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_recv(internal) RETURNS hamming_distance
	AS 'int4recv' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_send(hamming_distance) RETURNS bytea
	AS 'int4send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE hamming_distance (
	INPUT = hamming_distance_in, OUTPUT = hamming_distance_out,
	RECEIVE = hamming_distance_recv, SEND = hamming_distance_send,
	INTERNALLENGTH = 4, PASSEDBYVALUE, ALIGNMENT = int4, STORAGE = plain,
	CATEGORY = 'N'
);
COMMENT ON TYPE hamming_distance IS 'number of differing bits, the result of <~>; behaves as an integer';

-- Implicit to int4 only: one implicit path keeps arithmetic and aggregates unambiguous.
CREATE CAST (hamming_distance AS integer) WITHOUT FUNCTION AS IMPLICIT;
CREATE CAST (integer AS hamming_distance) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE FUNCTION hamming_distance_to_int8(hamming_distance) RETURNS bigint
	AS 'int48' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_to_int2(hamming_distance) RETURNS smallint
	AS 'i4toi2' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_to_float8(hamming_distance) RETURNS double precision
	AS 'i4tod' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_to_numeric(hamming_distance) RETURNS numeric
	AS 'int4_numeric' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (hamming_distance AS bigint) WITH FUNCTION hamming_distance_to_int8(hamming_distance) AS ASSIGNMENT;
CREATE CAST (hamming_distance AS smallint) WITH FUNCTION hamming_distance_to_int2(hamming_distance) AS ASSIGNMENT;
CREATE CAST (hamming_distance AS double precision) WITH FUNCTION hamming_distance_to_float8(hamming_distance) AS ASSIGNMENT;
CREATE CAST (hamming_distance AS numeric) WITH FUNCTION hamming_distance_to_numeric(hamming_distance) AS ASSIGNMENT;

-- The planner support functions of the comparisons (hamming.c explains the rewrite).
CREATE FUNCTION hamming_lt_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_le_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_eq_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ge_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_gt_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Comparisons between hamming_distance and itself, smallint, integer and bigint, both ways round,
-- each with the support function of its direction. The bodies are int4's, int2's and int8's own
-- comparison functions: hamming_distance has int4's binary form. One table drives them all.
DO $$
DECLARE
	-- other type, its suffix in the built-in names (int4 vs X: int4<suffix>lt; X vs int4: int<rev>lt)
	others text[][] := ARRAY[
		['hamming_distance', 'int4', 'int4'],
		['integer', 'int4', 'int4'],
		['smallint', 'int42', 'int24'],
		['bigint', 'int48', 'int84']];
	ops text[][] := ARRAY[
		['<', 'lt', '>', '>=', 'scalarltsel', 'scalarltjoinsel'],
		['<=', 'le', '>=', '>', 'scalarlesel', 'scalarlejoinsel'],
		['=', 'eq', '=', '<>', 'eqsel', 'eqjoinsel'],
		['<>', 'ne', '<>', '=', 'neqsel', 'neqjoinsel'],
		['>=', 'ge', '<=', '<', 'scalargesel', 'scalargejoinsel'],
		['>', 'gt', '<', '<=', 'scalargtsel', 'scalargtjoinsel']];
	o int;
	p int;
	support text;
	fn text;
BEGIN
	FOR o IN 1 .. array_length(others, 1) LOOP
		FOR p IN 1 .. array_length(ops, 1) LOOP
			support := CASE ops[p][2] WHEN 'ne' THEN '' ELSE
				format(' SUPPORT hamming_%s_support', ops[p][2]) END;
			-- hamming_distance OP other
			fn := format('hamming_%s_%s', ops[p][2], replace(others[o][1], ' ', '_'));
			EXECUTE format('CREATE FUNCTION %I(hamming_distance, %s) RETURNS bool AS %L '
						   'LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF%s',
						   fn, others[o][1], others[o][2] || ops[p][2], support);
			EXECUTE format('CREATE OPERATOR %s (LEFTARG = hamming_distance, RIGHTARG = %s, '
						   'FUNCTION = %I, COMMUTATOR = %s, NEGATOR = %s, RESTRICT = %s, JOIN = %s%s)',
						   ops[p][1], others[o][1], fn, ops[p][3], ops[p][4], ops[p][5], ops[p][6],
						   CASE WHEN ops[p][2] = 'eq' AND o = 1 THEN ', HASHES, MERGES' ELSE '' END);
			CONTINUE WHEN o = 1;
			-- other OP hamming_distance
			fn := format('%s_%s_hamming', replace(others[o][1], ' ', '_'), ops[p][2]);
			EXECUTE format('CREATE FUNCTION %I(%s, hamming_distance) RETURNS bool AS %L '
						   'LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF%s',
						   fn, others[o][1], others[o][3] || ops[p][2], support);
			EXECUTE format('CREATE OPERATOR %s (LEFTARG = %s, RIGHTARG = hamming_distance, '
						   'FUNCTION = %I, COMMUTATOR = %s, NEGATOR = %s, RESTRICT = %s, JOIN = %s)',
						   ops[p][1], others[o][1], fn, ops[p][3], ops[p][4], ops[p][5], ops[p][6]);
		END LOOP;
	END LOOP;
END
$$;

CREATE FUNCTION hamming_distance_cmp(hamming_distance, hamming_distance) RETURNS int
	AS 'btint4cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_hash(hamming_distance) RETURNS int
	AS 'hashint4' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_distance_hash_extended(hamming_distance, bigint) RETURNS bigint
	AS 'hashint4extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS hamming_distance_ops DEFAULT FOR TYPE hamming_distance USING btree AS
	OPERATOR 1 < (hamming_distance, hamming_distance),
	OPERATOR 2 <= (hamming_distance, hamming_distance),
	OPERATOR 3 = (hamming_distance, hamming_distance),
	OPERATOR 4 >= (hamming_distance, hamming_distance),
	OPERATOR 5 > (hamming_distance, hamming_distance),
	FUNCTION 1 hamming_distance_cmp(hamming_distance, hamming_distance);
CREATE OPERATOR CLASS hamming_distance_ops DEFAULT FOR TYPE hamming_distance USING hash AS
	OPERATOR 1 = (hamming_distance, hamming_distance),
	FUNCTION 1 hamming_distance_hash(hamming_distance),
	FUNCTION 2 hamming_distance_hash_extended(hamming_distance, bigint);

---------------------------------------------------------------------------------------------------
-- <~> and hamming()
---------------------------------------------------------------------------------------------------

CREATE FUNCTION hamming(simhash64, simhash64) RETURNS hamming_distance
	AS 'MODULE_PATHNAME', 'ndd_simhash64_hamming' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hamming(fp128, fp128) RETURNS hamming_distance
	AS 'MODULE_PATHNAME', 'ndd_fp128_hamming' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming(simhash64, simhash64) IS 'number of differing bits; the same as <~>';
COMMENT ON FUNCTION hamming(fp128, fp128) IS 'number of differing bits; the same as <~>';

CREATE OPERATOR <~> (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = hamming, COMMUTATOR = <~>);
CREATE OPERATOR <~> (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = hamming, COMMUTATOR = <~>);

---------------------------------------------------------------------------------------------------
-- hamming_ball and <@: "within k bits of q", the operator the ndd index serves
---------------------------------------------------------------------------------------------------

CREATE TYPE hamming_ball;

CREATE FUNCTION hamming_ball_in(cstring) RETURNS hamming_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_out(hamming_ball) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_recv(internal) RETURNS hamming_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_send(hamming_ball) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE hamming_ball (
	INPUT = hamming_ball_in, OUTPUT = hamming_ball_out,
	RECEIVE = hamming_ball_recv, SEND = hamming_ball_send,
	INTERNALLENGTH = 24, ALIGNMENT = double, STORAGE = plain
);
COMMENT ON TYPE hamming_ball IS 'all fingerprints within a radius of a center: fp <@ hamming_ball(q, k)';

CREATE FUNCTION hamming_ball(simhash64, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'hamming_ball_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball(fp128, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'hamming_ball_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION hamming_ball_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_joinsel(internal, oid, internal, smallint, internal) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION simhash64_in_ball(simhash64, hamming_ball) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fp128_in_ball(fp128, hamming_ball) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ball_contains_simhash64(hamming_ball, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ball_contains_fp128(hamming_ball, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR <@ (LEFTARG = simhash64, RIGHTARG = hamming_ball, FUNCTION = simhash64_in_ball,
	COMMUTATOR = @>, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);
CREATE OPERATOR <@ (LEFTARG = fp128, RIGHTARG = hamming_ball, FUNCTION = fp128_in_ball,
	COMMUTATOR = @>, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);
CREATE OPERATOR @> (LEFTARG = hamming_ball, RIGHTARG = simhash64, FUNCTION = ball_contains_simhash64,
	COMMUTATOR = <@, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);
CREATE OPERATOR @> (LEFTARG = hamming_ball, RIGHTARG = fp128, FUNCTION = ball_contains_fp128,
	COMMUTATOR = <@, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);

---------------------------------------------------------------------------------------------------
-- ndd_within(a, b, k): the boolean long form of a <~> b <= k, and the target of the rewrite
---------------------------------------------------------------------------------------------------

CREATE FUNCTION ndd_within_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ndd_within(simhash64, simhash64, integer) RETURNS bool
	AS 'MODULE_PATHNAME', 'ndd_within_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT ndd_within_support;
CREATE FUNCTION ndd_within(fp128, fp128, integer) RETURNS bool
	AS 'MODULE_PATHNAME', 'ndd_within_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT ndd_within_support;
COMMENT ON FUNCTION ndd_within(simhash64, simhash64, integer) IS 'a <~> b <= k; indexable on either argument';
COMMENT ON FUNCTION ndd_within(fp128, fp128, integer) IS 'a <~> b <= k; indexable on either argument';

CREATE FUNCTION ndd_radius_bound(bigint, bool) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_radius_bound(bigint, bool) IS 'internal: the inclusive radius of "<= k" (or "< k" when true)';
-- ndd install script, part 20: fingerprint functions, sketches and exact similarity.
--
-- Normalization (every word-level function): lowercase as Python's str.lower(), tokens = maximal
-- runs of Unicode letters and digits (underscore and everything else separate), word shingles =
-- contiguous runs of k tokens joined by single spaces; fewer than k tokens make one shingle, no
-- tokens none. All hashing is XXH3 with fixed seeds. Details: src/core/*.hpp.
-- Text-processing functions cost like to_tsvector (100); the exact edit distance is quadratic at
-- worst (1000).

---------------------------------------------------------------------------------------------------
-- simhash (Charikar)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION simhash(doc text) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(text) IS
	'64-bit simhash of the words of doc, each distinct word weighted by its number of occurrences';

CREATE FUNCTION simhash(doc text, shingle int) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_text_shingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash(text, int) IS
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

CREATE FUNCTION simhash_chars(doc text, n int DEFAULT 4) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'ndd_simhash_chars'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION simhash_chars(text, int) IS
	'64-bit simhash of the character n-grams (n 1 to 256) of the normalized token stream (tokens joined by single spaces)';

---------------------------------------------------------------------------------------------------
-- shingles, minhash sketches and supershingles (Broder)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION shingle_minhash(doc text, shingle int DEFAULT 4, hashes int DEFAULT 84) RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_shingle_minhash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION shingle_minhash(text, int, int) IS
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

CREATE FUNCTION word_list_fingerprints(doc text, lists int DEFAULT 4) RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'ndd_word_list_fingerprints'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION word_list_fingerprints(text, int) IS
	'Pugh word-list fingerprints: distinct words hashed into lists (1 to 256), one order-insensitive fingerprint per non-empty list, its list number in the low 8 bits';

CREATE FUNCTION content_hash(doc text) RETURNS fp128
	AS 'MODULE_PATHNAME', 'ndd_content_hash'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION content_hash(text) IS
	'128-bit hash of the normalized token stream: equal for texts that differ only in case, punctuation and spacing';

---------------------------------------------------------------------------------------------------
-- exact similarity and the token stream
---------------------------------------------------------------------------------------------------

CREATE FUNCTION jaccard(a text, b text, shingle int DEFAULT 4) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_jaccard'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION jaccard(text, text, int) IS
	'exact Jaccard resemblance of the sets of word shingles of a and b (1 when neither has a word)';

CREATE FUNCTION containment(a text, b text, shingle int DEFAULT 4) RETURNS float8
	AS 'MODULE_PATHNAME', 'ndd_containment'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION containment(text, text, int) IS
	'exact share of the word shingles of a that are also in b (1 when a has no word)';

CREATE FUNCTION word_edit_distance(a text, b text, substitution_cost int DEFAULT 1) RETURNS int
	AS 'MODULE_PATHNAME', 'ndd_word_edit_distance'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION word_edit_distance(text, text, int) IS
	'edit distance between the token sequences: Levenshtein with substitution_cost 1, the insert/delete distance with 2';

CREATE FUNCTION ndd_tokens(doc text) RETURNS text[]
	AS 'MODULE_PATHNAME', 'ndd_tokens'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION ndd_tokens(text) IS
	'the tokens every word-level fingerprint sees: lowercased maximal runs of letters and digits';
-- ndd install script, part 30: the ndd index access method (Manku's permuted-block tables).
-- Design, on-disk format and invariants: src/README.index.md.

CREATE FUNCTION ndd_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE ACCESS METHOD ndd TYPE INDEX HANDLER ndd_handler;
COMMENT ON ACCESS METHOD ndd IS 'exact Hamming-radius search and KNN over fingerprints (Manku''s permuted-block tables)';

-- Strategy 1: fp <@ hamming_ball(q, k), which the planner support of <~> comparisons and
-- ndd_within() produces from `fp <~> q <= k`. Strategy 2: ORDER BY fp <~> q.
-- Nothing else: an operator class must never claim an operator the index cannot serve.
CREATE OPERATOR CLASS simhash64_ndd_ops DEFAULT FOR TYPE simhash64 USING ndd AS
	OPERATOR 1 <@ (simhash64, hamming_ball),
	OPERATOR 2 <~> (simhash64, simhash64) FOR ORDER BY hamming_distance_ops;

CREATE OPERATOR CLASS fp128_ndd_ops DEFAULT FOR TYPE fp128 USING ndd AS
	OPERATOR 1 <@ (fp128, hamming_ball),
	OPERATOR 2 <~> (fp128, fp128) FOR ORDER BY hamming_distance_ops;

CREATE FUNCTION ndd_index_check(index regclass) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ndd_index_check(regclass) IS
	'checks an ndd index against its table (amcheck style); raises an error on corruption';
-- 40_workflows.sql: the papers' workflows over a whole collection: all near-duplicate pairs in one
-- call, clusters from pairs, labelling rows on insert, verification with exact measures, and the
-- filters applied before fingerprinting.
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

-- Every pair of documents sharing at least min_shared distinct features. docs_sql returns
-- (id, features bigint[]): supershingles, word_list_fingerprints, or any feature array.
CREATE FUNCTION ndd_feature_pairs(docs_sql text, min_shared int DEFAULT 2, max_df int DEFAULT 1000,
                                  OUT a bigint, OUT b bigint, OUT shared int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_feature_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 1000;

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

-- ---------------------------------------------------------------------------------------------
-- On insert: label a new row with the cluster of an existing near-duplicate
-- ---------------------------------------------------------------------------------------------

-- The cluster of an existing row of tbl whose fingerprint is within k bits of fp, found through
-- the table's index on fp_column when there is one; NULL when there is none. With
-- representatives_only (the conservative rule) only representatives (rows whose cluster is their
-- own id) count, and the earliest (lowest id) wins; otherwise the nearest row wins, then the
-- lowest id.
CREATE FUNCTION ndd_nearest_cluster(tbl regclass, fp_column name, fp anyelement, k int,
                                    cluster_column name DEFAULT 'cluster_id',
                                    id_column name DEFAULT 'id',
                                    representatives_only boolean DEFAULT true)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
    result bigint;
BEGIN
    IF tbl IS NULL OR fp_column IS NULL OR fp IS NULL OR k IS NULL OR cluster_column IS NULL
       OR id_column IS NULL OR representatives_only IS NULL THEN
        RETURN NULL;
    END IF;
    IF k < 0 THEN
        RAISE EXCEPTION 'k must not be negative' USING ERRCODE = '22023', DETAIL = format('k is %s.', k);
    END IF;
    IF representatives_only THEN
        EXECUTE format('SELECT %1$I FROM %2$s WHERE %3$I <~> $1 <= $2 AND %1$I = %4$I ORDER BY %4$I LIMIT 1',
                       cluster_column, tbl, fp_column, id_column)
            INTO result USING fp, k;
    ELSE
        EXECUTE format('SELECT %1$I FROM %2$s WHERE %3$I <~> $1 <= $2 ORDER BY %3$I <~> $1, %4$I LIMIT 1',
                       cluster_column, tbl, fp_column, id_column)
            INTO result USING fp, k;
    END IF;
    RETURN result;
END
$$;

-- A BEFORE INSERT row trigger that sets the new row's cluster column: the cluster of an existing
-- near-duplicate (ndd_nearest_cluster), or the row's own id when it has none (a new
-- representative). Arguments: fingerprint column, cluster column (default cluster_id), k (default
-- 3), id column (default id), mode 'conservative' (default) or 'nearest'. A cluster value given in
-- the INSERT is kept.
--
-- Concurrency: two near-duplicates inserted by concurrent transactions would both look, see
-- neither the other (uncommitted) row, and both become representatives. Near-duplicates share no
-- single key to lock (simhash neighbours differ in unpredictable bits), so the trigger serialises
-- labelling per table with a transaction-scoped advisory lock: the second inserter waits until the
-- first commits or aborts, and under READ COMMITTED its lookup (a new statement, so a new
-- snapshot) then sees the first row. Inserts into one table are thereby serialised from the
-- trigger to commit; keep such transactions short. REPEATABLE READ is refused because its
-- snapshot predates the lock; SERIALIZABLE is safe (the conflict aborts one transaction).
CREATE FUNCTION ndd_assign_cluster_trigger()
RETURNS trigger
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    fp_column name;
    cluster_column name := 'cluster_id';
    k int := 3;
    id_column name := 'id';
    mode text := 'conservative';
    given bigint;
    own_id bigint;
    found_cluster bigint;
    column_name name;
BEGIN
    IF TG_WHEN <> 'BEFORE' OR TG_LEVEL <> 'ROW' OR TG_OP <> 'INSERT' THEN
        RAISE EXCEPTION 'ndd_assign_cluster_trigger must be a BEFORE INSERT ... FOR EACH ROW trigger'
            USING ERRCODE = '39P01';
    END IF;
    IF TG_NARGS < 1 THEN
        RAISE EXCEPTION 'ndd_assign_cluster_trigger needs the fingerprint column as its first argument'
            USING ERRCODE = '22023',
                  HINT = 'EXECUTE FUNCTION ndd_assign_cluster_trigger(''fp'', ''cluster_id'', ''3'').';
    END IF;
    fp_column := TG_ARGV[0];
    IF TG_NARGS >= 2 THEN cluster_column := TG_ARGV[1]; END IF;
    IF TG_NARGS >= 3 THEN
        BEGIN
            k := TG_ARGV[2]::int;
        EXCEPTION WHEN invalid_text_representation OR numeric_value_out_of_range THEN
            RAISE EXCEPTION 'k must be an integer' USING ERRCODE = '22023',
                  DETAIL = format('The trigger''s third argument is "%s".', TG_ARGV[2]);
        END;
        IF k < 0 THEN
            RAISE EXCEPTION 'k must not be negative' USING ERRCODE = '22023';
        END IF;
    END IF;
    IF TG_NARGS >= 4 THEN id_column := TG_ARGV[3]; END IF;
    IF TG_NARGS >= 5 THEN mode := TG_ARGV[4]; END IF;
    IF mode NOT IN ('conservative', 'nearest') THEN
        RAISE EXCEPTION 'mode must be conservative or nearest' USING ERRCODE = '22023',
              DETAIL = format('The trigger''s fifth argument is "%s".', mode);
    END IF;

    FOR i IN 1..3 LOOP
        column_name := (ARRAY[fp_column, cluster_column, id_column])[i];
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_attribute
                       WHERE attrelid = TG_RELID AND attname = column_name AND attnum > 0
                         AND NOT attisdropped) THEN
            RAISE EXCEPTION 'column "%" of relation "%" does not exist', column_name, TG_TABLE_NAME
                USING ERRCODE = '42703',
                      HINT = 'The trigger''s arguments are: fingerprint column, cluster column (cluster_id), k (3), id column (id), mode (conservative).';
        END IF;
    END LOOP;

    EXECUTE format('SELECT ($1).%I::bigint, ($1).%I::bigint', cluster_column, id_column)
        INTO given, own_id USING NEW;
    IF given IS NOT NULL THEN
        RETURN NEW;             -- labelled by the inserter
    END IF;
    IF current_setting('transaction_isolation') = 'repeatable read' THEN
        RAISE EXCEPTION 'ndd_assign_cluster_trigger cannot label rows under REPEATABLE READ'
            USING ERRCODE = '0A000',
                  DETAIL = 'The transaction''s snapshot would hide near-duplicates committed while it waited for the labelling lock.',
                  HINT = 'Insert under READ COMMITTED or SERIALIZABLE.';
    END IF;

    -- One lock per table: the first key is ndd's ('ndd' in ASCII), the second the table's oid.
    PERFORM pg_advisory_xact_lock(7234660, TG_RELID::int);

    EXECUTE format('SELECT ndd_nearest_cluster($2, %L, ($1).%I, $3, %L, %L, $4)',
                   fp_column, fp_column, cluster_column, id_column)
        INTO found_cluster USING NEW, TG_RELID::regclass, k, mode = 'conservative';
    NEW := jsonb_populate_record(NEW, jsonb_build_object(cluster_column, coalesce(found_cluster, own_id)));
    RETURN NEW;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Verification: exact measures for pairs and clusters
-- ---------------------------------------------------------------------------------------------

-- Exact measures of each pair of pairs_sql (a, b, ...) over the texts of docs_sql (id, doc):
-- Jaccard resemblance and containment of word shingle sets (both directions), the word edit
-- distance, and edit_similarity = 1 - distance / (tokens of a + tokens of b) (the corpus ground
-- truth's definition). A pair whose document is missing gets NULL measures.
CREATE FUNCTION ndd_verify(pairs_sql text, docs_sql text, shingle int DEFAULT 4)
RETURNS TABLE(a bigint, b bigint, jaccard float8, a_in_b float8, b_in_a float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
AS $$
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT p.a::bigint, p.b::bigint,
               jaccard(x.doc, y.doc, $1), containment(x.doc, y.doc, $1), containment(y.doc, x.doc, $1),
               w.d, 1 - w.d::float8 / nullif(cardinality(ndd_tokens(x.doc)) + cardinality(ndd_tokens(y.doc)), 0)
        FROM (%s) AS p(a, b)
        LEFT JOIN (%s) AS x(id, doc) ON x.id = p.a
        LEFT JOIN (%s) AS y(id, doc) ON y.id = p.b
        CROSS JOIN LATERAL (SELECT word_edit_distance(x.doc, y.doc) AS d) AS w
        ORDER BY 1, 2 $q$, pairs_sql, docs_sql, docs_sql) USING shingle;
END
$$;

-- For every cluster of clusters_sql (id, cluster_id, ...) with two members or more, its worst
-- pair: the two members with the lowest exact Jaccard resemblance (all member pairs are compared,
-- so a cluster of s members costs s(s-1)/2 comparisons), with that pair's word edit distance and
-- edit similarity. Shows what hiding a cluster behind its representative would hide.
CREATE FUNCTION ndd_cluster_worst_pairs(clusters_sql text, docs_sql text, shingle int DEFAULT 4)
RETURNS TABLE(cluster_id bigint, size bigint, a bigint, b bigint, jaccard float8,
              word_edit_distance int, edit_similarity float8)
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
AS $$
BEGIN
    RETURN QUERY EXECUTE format($q$
        WITH m AS (
            SELECT c.id::bigint AS id, c.cluster_id::bigint AS cluster_id, d.doc,
                   count(*) OVER (PARTITION BY c.cluster_id) AS size
            FROM (%s) AS c(id, cluster_id) JOIN (%s) AS d(id, doc) ON d.id = c.id),
        worst AS (
            SELECT DISTINCT ON (x.cluster_id) x.cluster_id, x.size, x.id AS a, y.id AS b,
                   jaccard(x.doc, y.doc, $1) AS j, x.doc AS da, y.doc AS db
            FROM m x JOIN m y ON y.cluster_id = x.cluster_id AND y.id > x.id
            ORDER BY x.cluster_id, 5, x.id, y.id)
        SELECT w.cluster_id, w.size, w.a, w.b, w.j, e.d,
               1 - e.d::float8 / nullif(cardinality(ndd_tokens(w.da)) + cardinality(ndd_tokens(w.db)), 0)
        FROM worst w CROSS JOIN LATERAL (SELECT word_edit_distance(w.da, w.db) AS d) e
        ORDER BY w.j, w.cluster_id $q$, clusters_sql, docs_sql) USING shingle;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Filters before fingerprinting (the research report's number, stop-word and low-IDF filters)
-- ---------------------------------------------------------------------------------------------

-- The document's tokens (ndd_tokens: lowercase runs of letters and digits) joined by single
-- spaces, without numbers (tokens made only of the digits 0-9) when numbers is true, and without
-- the stop words of a text search configuration when stopwords is given: a token is a stop word
-- when to_tsvector(stopwords, token) is empty, i.e. the configuration's dictionaries discard it.
-- Fingerprints of the result see exactly the kept tokens. Immutable like to_tsvector(regconfig,
-- text): changing a configuration's dictionaries does not recompute stored results.
CREATE FUNCTION ndd_filter(doc text, numbers boolean DEFAULT true, stopwords regconfig DEFAULT NULL)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
-- A standard SQL body is bound when the function is created, not looked up through search_path
-- at each call, so ndd_filter works in index expressions and generated columns, also while
-- pg_dump's output is restored (with an empty search_path).
BEGIN ATOMIC
    WITH tok AS (SELECT u.t, u.i FROM unnest(ndd_tokens(doc)) WITH ORDINALITY AS u(t, i)),
         stop AS (SELECT d.t FROM (SELECT DISTINCT tok.t FROM tok) AS d
                  WHERE stopwords IS NOT NULL AND to_tsvector(stopwords, d.t) = ''::tsvector)
    SELECT CASE WHEN doc IS NULL THEN NULL ELSE
        coalesce((SELECT string_agg(tok.t, ' ' ORDER BY tok.i) FROM tok
                  WHERE NOT (coalesce(numbers, false) AND tok.t ~ '^[0-9]+$')
                    AND tok.t NOT IN (SELECT stop.t FROM stop)), '') END;
END;

-- Document frequencies kept by the extension, per named collection: how many documents a
-- collection has, and in how many of them each token occurs. Dumped by pg_dump.
CREATE TABLE ndd_collection (
    name text PRIMARY KEY,
    ndocs bigint NOT NULL DEFAULT 0 CHECK (ndocs >= 0),
    built_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ndd_df (
    collection text NOT NULL REFERENCES ndd_collection (name) ON DELETE CASCADE ON UPDATE CASCADE,
    token text NOT NULL,
    df bigint NOT NULL CHECK (df > 0),
    PRIMARY KEY (collection, token)
);
SELECT pg_catalog.pg_extension_config_dump('ndd_collection', '');
SELECT pg_catalog.pg_extension_config_dump('ndd_df', '');

-- (Re)builds the document frequencies of a collection from docs_sql (id, doc): every distinct
-- token of every document, as ndd_tokens sees it. Returns the number of documents.
CREATE FUNCTION ndd_df_collect(collection text, docs_sql text)
RETURNS bigint
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
    n bigint;
BEGIN
    DELETE FROM ndd_collection WHERE name = collection;
    INSERT INTO ndd_collection (name, ndocs) VALUES (collection, 0);
    EXECUTE format($q$
        WITH docs AS MATERIALIZED (SELECT d.doc FROM (%s) AS d(id, doc) WHERE d.doc IS NOT NULL),
             counted AS (UPDATE ndd_collection SET ndocs = (SELECT count(*) FROM docs), built_at = now()
                         WHERE name = $1 RETURNING ndocs)
        INSERT INTO ndd_df (collection, token, df)
        SELECT $1, t.token, count(*)
        FROM docs CROSS JOIN LATERAL (SELECT DISTINCT u AS token FROM unnest(ndd_tokens(docs.doc)) AS u) AS t
        GROUP BY t.token $q$, docs_sql) USING collection;
    SELECT ndocs INTO n FROM ndd_collection WHERE name = collection;
    RETURN n;
END
$$;

-- Adds one document to a collection's frequencies (e.g. from an insert trigger); creates the
-- collection when it does not exist. Returns the collection's new document count.
CREATE FUNCTION ndd_df_add(collection text, doc text)
RETURNS bigint
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
    n bigint;
BEGIN
    INSERT INTO ndd_collection AS c (name, ndocs) VALUES (collection, 1)
        ON CONFLICT (name) DO UPDATE SET ndocs = c.ndocs + 1
        RETURNING c.ndocs INTO n;
    INSERT INTO ndd_df AS f (collection, token, df)
        SELECT collection, t, 1 FROM (SELECT DISTINCT u AS t FROM unnest(ndd_tokens(doc)) AS u) AS d
        ON CONFLICT ON CONSTRAINT ndd_df_pkey DO UPDATE SET df = f.df + 1;
    RETURN n;
END
$$;

-- The document's tokens joined by single spaces, keeping only those whose inverse document
-- frequency in the collection, ln(ndocs / df), is at least min_idf. Tokens the collection has
-- never seen have an infinite IDF and are kept. (The research report tried thresholds 4 and 5.)
CREATE FUNCTION ndd_filter_low_idf(doc text, collection text, min_idf float8)
RETURNS text
LANGUAGE plpgsql STRICT STABLE PARALLEL SAFE
AS $$
DECLARE
    n bigint;
BEGIN
    SELECT c.ndocs INTO n FROM ndd_collection AS c WHERE c.name = collection;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'collection "%" has no document frequencies', collection
            USING ERRCODE = '22023', HINT = 'Build them with ndd_df_collect() or ndd_df_add().';
    END IF;
    RETURN coalesce((
        SELECT string_agg(u.t, ' ' ORDER BY u.i)
        FROM unnest(ndd_tokens(doc)) WITH ORDINALITY AS u(t, i)
        LEFT JOIN ndd_df AS f ON f.collection = ndd_filter_low_idf.collection AND f.token = u.t
        WHERE f.df IS NULL OR ln(n::float8 / f.df) >= min_idf), '');
END
$$;
