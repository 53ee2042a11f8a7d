-- ndd install script, part 10: the fingerprint types, the Hamming distance and its planner support.
-- Each object's COMMENT follows its CREATE, in every part, so that \dx+ ndd, \df+, \do+ and \dT+
-- explain each one (test/sql/comments.sql checks that none is missing); the objects a DO block
-- creates are commented after that block.

\echo Use "CREATE EXTENSION ndd" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- simhash64: 64 bits, text form 16 lowercase hex digits
---------------------------------------------------------------------------------------------------

CREATE TYPE simhash64;

CREATE FUNCTION simhash64_in(cstring) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_in(cstring) IS 'text input of simhash64: 16 hexadecimal digits';
CREATE FUNCTION simhash64_out(simhash64) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_out(simhash64) IS 'text output of simhash64: 16 hexadecimal digits';
CREATE FUNCTION simhash64_recv(internal) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_recv(internal) IS 'binary input of simhash64';
CREATE FUNCTION simhash64_send(simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_send(simhash64) IS 'binary output of simhash64';

CREATE TYPE simhash64 (
	INPUT = simhash64_in, OUTPUT = simhash64_out,
	RECEIVE = simhash64_recv, SEND = simhash64_send,
	INTERNALLENGTH = 8, PASSEDBYVALUE, ALIGNMENT = double, STORAGE = plain
);
COMMENT ON TYPE simhash64 IS '64-bit similarity fingerprint (Charikar simhash); compare with <~>';

-- The same 64 bits as a bigint, both ways; explicit, since a fingerprint is not a number.
CREATE CAST (simhash64 AS bigint) WITHOUT FUNCTION;
COMMENT ON CAST (simhash64 AS bigint) IS 'the same 64 bits as a signed bigint (top bit set = negative)';
CREATE CAST (bigint AS simhash64) WITHOUT FUNCTION;
COMMENT ON CAST (bigint AS simhash64) IS 'a signed bigint''s 64 bits as simhash64 (for unsigned values use numeric)';

CREATE FUNCTION simhash64_to_bit(simhash64) RETURNS bit
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_to_bit(simhash64) IS 'the 64 bits as bit(64), most significant first';
CREATE FUNCTION bit_to_simhash64(bit) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bit_to_simhash64(bit) IS 'a bit(64) as simhash64; other lengths are an error';
CREATE CAST (simhash64 AS bit) WITH FUNCTION simhash64_to_bit(simhash64);
COMMENT ON CAST (simhash64 AS bit) IS 'the 64 bits as bit(64)';
CREATE CAST (bit AS simhash64) WITH FUNCTION bit_to_simhash64(bit);
COMMENT ON CAST (bit AS simhash64) IS 'a bit(64) as simhash64';

CREATE FUNCTION simhash64_cmp(simhash64, simhash64) RETURNS int
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_cmp(simhash64, simhash64) IS 'btree comparison of simhash64: -1, 0 or 1';
CREATE FUNCTION simhash64_lt(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash64_lt(simhash64, simhash64) IS 'implementation of simhash64 < simhash64 (unsigned order)';
CREATE FUNCTION simhash64_le(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash64_le(simhash64, simhash64) IS 'implementation of simhash64 <= simhash64 (unsigned order)';
CREATE FUNCTION simhash64_eq(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash64_eq(simhash64, simhash64) IS 'implementation of simhash64 = simhash64 (unsigned order)';
CREATE FUNCTION simhash64_ne(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash64_ne(simhash64, simhash64) IS 'implementation of simhash64 <> simhash64 (unsigned order)';
CREATE FUNCTION simhash64_ge(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash64_ge(simhash64, simhash64) IS 'implementation of simhash64 >= simhash64 (unsigned order)';
CREATE FUNCTION simhash64_gt(simhash64, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash64_gt(simhash64, simhash64) IS 'implementation of simhash64 > simhash64 (unsigned order)';
-- hashing reuses bigint's: the same 64 bits
CREATE FUNCTION simhash64_hash(simhash64) RETURNS int
	AS 'hashint8' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_hash(simhash64) IS 'hash of simhash64 for hash indexes and hash joins';
CREATE FUNCTION simhash64_hash_extended(simhash64, bigint) RETURNS bigint
	AS 'hashint8extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_hash_extended(simhash64, bigint) IS 'seeded 64-bit hash of simhash64 for hash partitioning';

CREATE OPERATOR < (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
COMMENT ON OPERATOR < (simhash64, simhash64) IS 'simhash64 <: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR <= (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
COMMENT ON OPERATOR <= (simhash64, simhash64) IS 'simhash64 <=: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR = (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
COMMENT ON OPERATOR = (simhash64, simhash64) IS 'simhash64 =: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR <> (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
COMMENT ON OPERATOR <> (simhash64, simhash64) IS 'simhash64 <>: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR >= (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
COMMENT ON OPERATOR >= (simhash64, simhash64) IS 'simhash64 >=: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR > (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
COMMENT ON OPERATOR > (simhash64, simhash64) IS 'simhash64 >: unsigned order (the order of the hex text), not similarity';

CREATE OPERATOR CLASS simhash64_ops DEFAULT FOR TYPE simhash64 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 simhash64_cmp(simhash64, simhash64);
COMMENT ON OPERATOR CLASS simhash64_ops USING btree IS 'unsigned order of simhash64 (the order of its hex text)';
COMMENT ON OPERATOR FAMILY simhash64_ops USING btree IS 'btree operators of simhash64';
CREATE OPERATOR CLASS simhash64_ops DEFAULT FOR TYPE simhash64 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 simhash64_hash(simhash64),
	FUNCTION 2 simhash64_hash_extended(simhash64, bigint);
COMMENT ON OPERATOR CLASS simhash64_ops USING hash IS 'equality of simhash64 for hash indexes and hash joins';
COMMENT ON OPERATOR FAMILY simhash64_ops USING hash IS 'hash operators of simhash64';

---------------------------------------------------------------------------------------------------
-- fp128: 128 bits, text form 32 lowercase hex digits
---------------------------------------------------------------------------------------------------

CREATE TYPE fp128;

CREATE FUNCTION fp128_in(cstring) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_in(cstring) IS 'text input of fp128: 32 hexadecimal digits';
CREATE FUNCTION fp128_out(fp128) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_out(fp128) IS 'text output of fp128: 32 hexadecimal digits';
CREATE FUNCTION fp128_recv(internal) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_recv(internal) IS 'binary input of fp128';
CREATE FUNCTION fp128_send(fp128) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_send(fp128) IS 'binary output of fp128';

CREATE TYPE fp128 (
	INPUT = fp128_in, OUTPUT = fp128_out,
	RECEIVE = fp128_recv, SEND = fp128_send,
	INTERNALLENGTH = 16, ALIGNMENT = double, STORAGE = plain
);
COMMENT ON TYPE fp128 IS '128-bit fingerprint (bit-flip fingerprint, content hash); compare with <~>';

CREATE FUNCTION fp128_to_bit(fp128) RETURNS bit
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_to_bit(fp128) IS 'the 128 bits as bit(128), most significant first';
CREATE FUNCTION bit_to_fp128(bit) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bit_to_fp128(bit) IS 'a bit(128) as fp128; other lengths are an error';
CREATE FUNCTION fp128_to_uuid(fp128) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_to_uuid(fp128) IS 'the 128 bits as a uuid (same 16 bytes)';
CREATE FUNCTION uuid_to_fp128(uuid) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_fp128(uuid) IS 'a uuid''s 16 bytes as fp128';
CREATE CAST (fp128 AS bit) WITH FUNCTION fp128_to_bit(fp128);
COMMENT ON CAST (fp128 AS bit) IS 'the 128 bits as bit(128)';
CREATE CAST (bit AS fp128) WITH FUNCTION bit_to_fp128(bit);
COMMENT ON CAST (bit AS fp128) IS 'a bit(128) as fp128';
CREATE CAST (fp128 AS uuid) WITH FUNCTION fp128_to_uuid(fp128);
COMMENT ON CAST (fp128 AS uuid) IS 'the 128 bits as a uuid';
CREATE CAST (uuid AS fp128) WITH FUNCTION uuid_to_fp128(uuid);
COMMENT ON CAST (uuid AS fp128) IS 'a uuid as fp128';

CREATE FUNCTION fp128_cmp(fp128, fp128) RETURNS int
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_cmp(fp128, fp128) IS 'btree comparison of fp128: -1, 0 or 1';
CREATE FUNCTION fp128_lt(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fp128_lt(fp128, fp128) IS 'implementation of fp128 < fp128 (unsigned order)';
CREATE FUNCTION fp128_le(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fp128_le(fp128, fp128) IS 'implementation of fp128 <= fp128 (unsigned order)';
CREATE FUNCTION fp128_eq(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fp128_eq(fp128, fp128) IS 'implementation of fp128 = fp128 (unsigned order)';
CREATE FUNCTION fp128_ne(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fp128_ne(fp128, fp128) IS 'implementation of fp128 <> fp128 (unsigned order)';
CREATE FUNCTION fp128_ge(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fp128_ge(fp128, fp128) IS 'implementation of fp128 >= fp128 (unsigned order)';
CREATE FUNCTION fp128_gt(fp128, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION fp128_gt(fp128, fp128) IS 'implementation of fp128 > fp128 (unsigned order)';
CREATE FUNCTION fp128_hash(fp128) RETURNS int
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_hash(fp128) IS 'hash of fp128 for hash indexes and hash joins';
CREATE FUNCTION fp128_hash_extended(fp128, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_hash_extended(fp128, bigint) IS 'seeded 64-bit hash of fp128 for hash partitioning';

CREATE OPERATOR < (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
COMMENT ON OPERATOR < (fp128, fp128) IS 'fp128 <: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR <= (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
COMMENT ON OPERATOR <= (fp128, fp128) IS 'fp128 <=: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR = (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
COMMENT ON OPERATOR = (fp128, fp128) IS 'fp128 =: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR <> (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
COMMENT ON OPERATOR <> (fp128, fp128) IS 'fp128 <>: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR >= (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
COMMENT ON OPERATOR >= (fp128, fp128) IS 'fp128 >=: unsigned order (the order of the hex text), not similarity';
CREATE OPERATOR > (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = fp128_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
COMMENT ON OPERATOR > (fp128, fp128) IS 'fp128 >: unsigned order (the order of the hex text), not similarity';

CREATE OPERATOR CLASS fp128_ops DEFAULT FOR TYPE fp128 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 fp128_cmp(fp128, fp128);
COMMENT ON OPERATOR CLASS fp128_ops USING btree IS 'unsigned order of fp128 (the order of its hex text)';
COMMENT ON OPERATOR FAMILY fp128_ops USING btree IS 'btree operators of fp128';
CREATE OPERATOR CLASS fp128_ops DEFAULT FOR TYPE fp128 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 fp128_hash(fp128),
	FUNCTION 2 fp128_hash_extended(fp128, bigint);
COMMENT ON OPERATOR CLASS fp128_ops USING hash IS 'equality of fp128 for hash indexes and hash joins';
COMMENT ON OPERATOR FAMILY fp128_ops USING hash IS 'hash operators of fp128';

---------------------------------------------------------------------------------------------------
-- hamming_distance: what <~> returns. An int4 in all but name (same binary form, int4's I/O and
-- comparison code, an implicit cast to int4), so it works wherever an integer does; a type of its
-- own only so that its comparisons can carry the planner support that makes them indexable.
---------------------------------------------------------------------------------------------------

CREATE TYPE hamming_distance;

CREATE FUNCTION hamming_distance_in(cstring) RETURNS hamming_distance
	AS 'int4in' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_in(cstring) IS 'text input of hamming_distance: a decimal integer, as int4';
CREATE FUNCTION hamming_distance_out(hamming_distance) RETURNS cstring
	AS 'int4out' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_out(hamming_distance) IS 'text output of hamming_distance: a decimal integer, as int4';
CREATE FUNCTION hamming_distance_recv(internal) RETURNS hamming_distance
	AS 'int4recv' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_recv(internal) IS 'binary input of hamming_distance';
CREATE FUNCTION hamming_distance_send(hamming_distance) RETURNS bytea
	AS 'int4send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_send(hamming_distance) IS 'binary output of hamming_distance';

CREATE TYPE hamming_distance (
	INPUT = hamming_distance_in, OUTPUT = hamming_distance_out,
	RECEIVE = hamming_distance_recv, SEND = hamming_distance_send,
	INTERNALLENGTH = 4, PASSEDBYVALUE, ALIGNMENT = int4, STORAGE = plain,
	CATEGORY = 'N'
);
COMMENT ON TYPE hamming_distance IS 'number of differing bits, the result of <~>; behaves as an integer';

-- Implicit to int4 only: one implicit path keeps arithmetic and aggregates unambiguous.
CREATE CAST (hamming_distance AS integer) WITHOUT FUNCTION AS IMPLICIT;
COMMENT ON CAST (hamming_distance AS integer) IS 'implicit: a Hamming distance works wherever an integer does';
CREATE CAST (integer AS hamming_distance) WITHOUT FUNCTION AS ASSIGNMENT;
COMMENT ON CAST (integer AS hamming_distance) IS 'assignment: store an integer in a hamming_distance column';
CREATE FUNCTION hamming_distance_to_int8(hamming_distance) RETURNS bigint
	AS 'int48' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_to_int8(hamming_distance) IS 'the cast of a Hamming distance to bigint';
CREATE FUNCTION hamming_distance_to_int2(hamming_distance) RETURNS smallint
	AS 'i4toi2' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_to_int2(hamming_distance) IS 'the cast of a Hamming distance to smallint';
CREATE FUNCTION hamming_distance_to_float8(hamming_distance) RETURNS double precision
	AS 'i4tod' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_to_float8(hamming_distance) IS 'the cast of a Hamming distance to double precision';
CREATE FUNCTION hamming_distance_to_numeric(hamming_distance) RETURNS numeric
	AS 'int4_numeric' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_to_numeric(hamming_distance) IS 'the cast of a Hamming distance to numeric';
CREATE CAST (hamming_distance AS bigint) WITH FUNCTION hamming_distance_to_int8(hamming_distance) AS ASSIGNMENT;
COMMENT ON CAST (hamming_distance AS bigint) IS 'a Hamming distance as bigint';
CREATE CAST (hamming_distance AS smallint) WITH FUNCTION hamming_distance_to_int2(hamming_distance) AS ASSIGNMENT;
COMMENT ON CAST (hamming_distance AS smallint) IS 'a Hamming distance as smallint';
CREATE CAST (hamming_distance AS double precision) WITH FUNCTION hamming_distance_to_float8(hamming_distance) AS ASSIGNMENT;
COMMENT ON CAST (hamming_distance AS double precision) IS 'a Hamming distance as double precision';
CREATE CAST (hamming_distance AS numeric) WITH FUNCTION hamming_distance_to_numeric(hamming_distance) AS ASSIGNMENT;
COMMENT ON CAST (hamming_distance AS numeric) IS 'a Hamming distance as numeric';

-- The planner support functions of the comparisons (hamming.c explains the rewrite).
CREATE FUNCTION hamming_lt_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_lt_support(internal) IS 'planner support of the < comparisons of a Hamming distance: makes fp <~> q < k indexable';
CREATE FUNCTION hamming_le_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_le_support(internal) IS 'planner support of the <= comparisons of a Hamming distance: makes fp <~> q <= k indexable';
CREATE FUNCTION hamming_eq_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_eq_support(internal) IS 'planner support of the = comparisons of a Hamming distance: makes fp <~> q = k indexable';
CREATE FUNCTION hamming_ge_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ge_support(internal) IS 'planner support of the >= comparisons of a Hamming distance: makes fp <~> q >= k indexable';
CREATE FUNCTION hamming_gt_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_gt_support(internal) IS 'planner support of the > comparisons of a Hamming distance: makes fp <~> q > k indexable';

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
	FOR o IN 1 .. pg_catalog.array_length(others, 1) LOOP
		FOR p IN 1 .. pg_catalog.array_length(ops, 1) LOOP
			support := CASE ops[p][2] WHEN 'ne' THEN '' ELSE
				pg_catalog.format(' SUPPORT hamming_%s_support', ops[p][2]) END;
			-- hamming_distance OP other
			fn := pg_catalog.format('hamming_%s_%s', ops[p][2], replace(others[o][1], ' ', '_'));
			EXECUTE pg_catalog.format('CREATE FUNCTION %I(hamming_distance, %s) RETURNS bool AS %L '
						   'LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF%s',
						   fn, others[o][1], others[o][2] || ops[p][2], support);
			EXECUTE pg_catalog.format('CREATE OPERATOR %s (LEFTARG = hamming_distance, RIGHTARG = %s, '
						   'FUNCTION = %I, COMMUTATOR = %s, NEGATOR = %s, RESTRICT = %s, JOIN = %s%s)',
						   ops[p][1], others[o][1], fn, ops[p][3], ops[p][4], ops[p][5], ops[p][6],
						   CASE WHEN ops[p][2] = 'eq' AND o = 1 THEN ', HASHES, MERGES' ELSE '' END);
			CONTINUE WHEN o = 1;
			-- other OP hamming_distance
			fn := pg_catalog.format('%s_%s_hamming', replace(others[o][1], ' ', '_'), ops[p][2]);
			EXECUTE pg_catalog.format('CREATE FUNCTION %I(%s, hamming_distance) RETURNS bool AS %L '
						   'LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF%s',
						   fn, others[o][1], others[o][3] || ops[p][2], support);
			EXECUTE pg_catalog.format('CREATE OPERATOR %s (LEFTARG = %s, RIGHTARG = hamming_distance, '
						   'FUNCTION = %I, COMMUTATOR = %s, NEGATOR = %s, RESTRICT = %s, JOIN = %s)',
						   ops[p][1], others[o][1], fn, ops[p][3], ops[p][4], ops[p][5], ops[p][6]);
		END LOOP;
	END LOOP;
END
$$;
-- the comments of the functions and operators the loop above creates, in its order
COMMENT ON OPERATOR < (hamming_distance, hamming_distance) IS 'hamming_distance < hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_lt_hamming_distance(hamming_distance, hamming_distance) IS 'implementation of hamming_distance < hamming_distance';
COMMENT ON OPERATOR <= (hamming_distance, hamming_distance) IS 'hamming_distance <= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_le_hamming_distance(hamming_distance, hamming_distance) IS 'implementation of hamming_distance <= hamming_distance';
COMMENT ON OPERATOR = (hamming_distance, hamming_distance) IS 'hamming_distance = hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_eq_hamming_distance(hamming_distance, hamming_distance) IS 'implementation of hamming_distance = hamming_distance';
COMMENT ON OPERATOR <> (hamming_distance, hamming_distance) IS 'hamming_distance <> hamming_distance, as integers';
COMMENT ON FUNCTION hamming_ne_hamming_distance(hamming_distance, hamming_distance) IS 'implementation of hamming_distance <> hamming_distance';
COMMENT ON OPERATOR >= (hamming_distance, hamming_distance) IS 'hamming_distance >= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_ge_hamming_distance(hamming_distance, hamming_distance) IS 'implementation of hamming_distance >= hamming_distance';
COMMENT ON OPERATOR > (hamming_distance, hamming_distance) IS 'hamming_distance > hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_gt_hamming_distance(hamming_distance, hamming_distance) IS 'implementation of hamming_distance > hamming_distance';
COMMENT ON OPERATOR < (hamming_distance, integer) IS 'hamming_distance < integer, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_lt_integer(hamming_distance, integer) IS 'implementation of hamming_distance < integer';
COMMENT ON OPERATOR < (integer, hamming_distance) IS 'integer < hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION integer_lt_hamming(integer, hamming_distance) IS 'implementation of integer < hamming_distance';
COMMENT ON OPERATOR <= (hamming_distance, integer) IS 'hamming_distance <= integer, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_le_integer(hamming_distance, integer) IS 'implementation of hamming_distance <= integer';
COMMENT ON OPERATOR <= (integer, hamming_distance) IS 'integer <= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION integer_le_hamming(integer, hamming_distance) IS 'implementation of integer <= hamming_distance';
COMMENT ON OPERATOR = (hamming_distance, integer) IS 'hamming_distance = integer, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_eq_integer(hamming_distance, integer) IS 'implementation of hamming_distance = integer';
COMMENT ON OPERATOR = (integer, hamming_distance) IS 'integer = hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION integer_eq_hamming(integer, hamming_distance) IS 'implementation of integer = hamming_distance';
COMMENT ON OPERATOR <> (hamming_distance, integer) IS 'hamming_distance <> integer, as integers';
COMMENT ON FUNCTION hamming_ne_integer(hamming_distance, integer) IS 'implementation of hamming_distance <> integer';
COMMENT ON OPERATOR <> (integer, hamming_distance) IS 'integer <> hamming_distance, as integers';
COMMENT ON FUNCTION integer_ne_hamming(integer, hamming_distance) IS 'implementation of integer <> hamming_distance';
COMMENT ON OPERATOR >= (hamming_distance, integer) IS 'hamming_distance >= integer, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_ge_integer(hamming_distance, integer) IS 'implementation of hamming_distance >= integer';
COMMENT ON OPERATOR >= (integer, hamming_distance) IS 'integer >= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION integer_ge_hamming(integer, hamming_distance) IS 'implementation of integer >= hamming_distance';
COMMENT ON OPERATOR > (hamming_distance, integer) IS 'hamming_distance > integer, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_gt_integer(hamming_distance, integer) IS 'implementation of hamming_distance > integer';
COMMENT ON OPERATOR > (integer, hamming_distance) IS 'integer > hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION integer_gt_hamming(integer, hamming_distance) IS 'implementation of integer > hamming_distance';
COMMENT ON OPERATOR < (hamming_distance, smallint) IS 'hamming_distance < smallint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_lt_smallint(hamming_distance, smallint) IS 'implementation of hamming_distance < smallint';
COMMENT ON OPERATOR < (smallint, hamming_distance) IS 'smallint < hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION smallint_lt_hamming(smallint, hamming_distance) IS 'implementation of smallint < hamming_distance';
COMMENT ON OPERATOR <= (hamming_distance, smallint) IS 'hamming_distance <= smallint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_le_smallint(hamming_distance, smallint) IS 'implementation of hamming_distance <= smallint';
COMMENT ON OPERATOR <= (smallint, hamming_distance) IS 'smallint <= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION smallint_le_hamming(smallint, hamming_distance) IS 'implementation of smallint <= hamming_distance';
COMMENT ON OPERATOR = (hamming_distance, smallint) IS 'hamming_distance = smallint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_eq_smallint(hamming_distance, smallint) IS 'implementation of hamming_distance = smallint';
COMMENT ON OPERATOR = (smallint, hamming_distance) IS 'smallint = hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION smallint_eq_hamming(smallint, hamming_distance) IS 'implementation of smallint = hamming_distance';
COMMENT ON OPERATOR <> (hamming_distance, smallint) IS 'hamming_distance <> smallint, as integers';
COMMENT ON FUNCTION hamming_ne_smallint(hamming_distance, smallint) IS 'implementation of hamming_distance <> smallint';
COMMENT ON OPERATOR <> (smallint, hamming_distance) IS 'smallint <> hamming_distance, as integers';
COMMENT ON FUNCTION smallint_ne_hamming(smallint, hamming_distance) IS 'implementation of smallint <> hamming_distance';
COMMENT ON OPERATOR >= (hamming_distance, smallint) IS 'hamming_distance >= smallint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_ge_smallint(hamming_distance, smallint) IS 'implementation of hamming_distance >= smallint';
COMMENT ON OPERATOR >= (smallint, hamming_distance) IS 'smallint >= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION smallint_ge_hamming(smallint, hamming_distance) IS 'implementation of smallint >= hamming_distance';
COMMENT ON OPERATOR > (hamming_distance, smallint) IS 'hamming_distance > smallint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_gt_smallint(hamming_distance, smallint) IS 'implementation of hamming_distance > smallint';
COMMENT ON OPERATOR > (smallint, hamming_distance) IS 'smallint > hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION smallint_gt_hamming(smallint, hamming_distance) IS 'implementation of smallint > hamming_distance';
COMMENT ON OPERATOR < (hamming_distance, bigint) IS 'hamming_distance < bigint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_lt_bigint(hamming_distance, bigint) IS 'implementation of hamming_distance < bigint';
COMMENT ON OPERATOR < (bigint, hamming_distance) IS 'bigint < hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION bigint_lt_hamming(bigint, hamming_distance) IS 'implementation of bigint < hamming_distance';
COMMENT ON OPERATOR <= (hamming_distance, bigint) IS 'hamming_distance <= bigint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_le_bigint(hamming_distance, bigint) IS 'implementation of hamming_distance <= bigint';
COMMENT ON OPERATOR <= (bigint, hamming_distance) IS 'bigint <= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION bigint_le_hamming(bigint, hamming_distance) IS 'implementation of bigint <= hamming_distance';
COMMENT ON OPERATOR = (hamming_distance, bigint) IS 'hamming_distance = bigint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_eq_bigint(hamming_distance, bigint) IS 'implementation of hamming_distance = bigint';
COMMENT ON OPERATOR = (bigint, hamming_distance) IS 'bigint = hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION bigint_eq_hamming(bigint, hamming_distance) IS 'implementation of bigint = hamming_distance';
COMMENT ON OPERATOR <> (hamming_distance, bigint) IS 'hamming_distance <> bigint, as integers';
COMMENT ON FUNCTION hamming_ne_bigint(hamming_distance, bigint) IS 'implementation of hamming_distance <> bigint';
COMMENT ON OPERATOR <> (bigint, hamming_distance) IS 'bigint <> hamming_distance, as integers';
COMMENT ON FUNCTION bigint_ne_hamming(bigint, hamming_distance) IS 'implementation of bigint <> hamming_distance';
COMMENT ON OPERATOR >= (hamming_distance, bigint) IS 'hamming_distance >= bigint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_ge_bigint(hamming_distance, bigint) IS 'implementation of hamming_distance >= bigint';
COMMENT ON OPERATOR >= (bigint, hamming_distance) IS 'bigint >= hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION bigint_ge_hamming(bigint, hamming_distance) IS 'implementation of bigint >= hamming_distance';
COMMENT ON OPERATOR > (hamming_distance, bigint) IS 'hamming_distance > bigint, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION hamming_gt_bigint(hamming_distance, bigint) IS 'implementation of hamming_distance > bigint';
COMMENT ON OPERATOR > (bigint, hamming_distance) IS 'bigint > hamming_distance, as integers; with fp <~> q on one side an ndd index serves it';
COMMENT ON FUNCTION bigint_gt_hamming(bigint, hamming_distance) IS 'implementation of bigint > hamming_distance';

CREATE FUNCTION hamming_distance_cmp(hamming_distance, hamming_distance) RETURNS int
	AS 'btint4cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_cmp(hamming_distance, hamming_distance) IS 'btree comparison of hamming_distance: -1, 0 or 1';
CREATE FUNCTION hamming_distance_hash(hamming_distance) RETURNS int
	AS 'hashint4' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_hash(hamming_distance) IS 'hash of hamming_distance for hash indexes and hash joins';
CREATE FUNCTION hamming_distance_hash_extended(hamming_distance, bigint) RETURNS bigint
	AS 'hashint4extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_distance_hash_extended(hamming_distance, bigint) IS 'seeded 64-bit hash of hamming_distance for hash partitioning';

CREATE OPERATOR CLASS hamming_distance_ops DEFAULT FOR TYPE hamming_distance USING btree AS
	OPERATOR 1 < (hamming_distance, hamming_distance),
	OPERATOR 2 <= (hamming_distance, hamming_distance),
	OPERATOR 3 = (hamming_distance, hamming_distance),
	OPERATOR 4 >= (hamming_distance, hamming_distance),
	OPERATOR 5 > (hamming_distance, hamming_distance),
	FUNCTION 1 hamming_distance_cmp(hamming_distance, hamming_distance);
COMMENT ON OPERATOR CLASS hamming_distance_ops USING btree IS 'integer order of Hamming distances';
COMMENT ON OPERATOR FAMILY hamming_distance_ops USING btree IS 'btree operators of hamming_distance';
CREATE OPERATOR CLASS hamming_distance_ops DEFAULT FOR TYPE hamming_distance USING hash AS
	OPERATOR 1 = (hamming_distance, hamming_distance),
	FUNCTION 1 hamming_distance_hash(hamming_distance),
	FUNCTION 2 hamming_distance_hash_extended(hamming_distance, bigint);
COMMENT ON OPERATOR CLASS hamming_distance_ops USING hash IS 'equality of hamming_distance for hash indexes and hash joins';
COMMENT ON OPERATOR FAMILY hamming_distance_ops USING hash IS 'hash operators of hamming_distance';

---------------------------------------------------------------------------------------------------
-- <~> and hamming()
---------------------------------------------------------------------------------------------------

CREATE FUNCTION hamming(simhash64, simhash64) RETURNS hamming_distance
	AS 'MODULE_PATHNAME', 'ndd_simhash64_hamming' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming(simhash64, simhash64) IS 'number of differing bits; the same as <~>';
CREATE FUNCTION hamming(fp128, fp128) RETURNS hamming_distance
	AS 'MODULE_PATHNAME', 'ndd_fp128_hamming' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming(fp128, fp128) IS 'number of differing bits; the same as <~>';

CREATE OPERATOR <~> (LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = hamming, COMMUTATOR = <~>);
COMMENT ON OPERATOR <~> (simhash64, simhash64) IS
	'Hamming distance (number of differing bits); WHERE fp <~> q <= k and ORDER BY fp <~> q use an ndd index';
CREATE OPERATOR <~> (LEFTARG = fp128, RIGHTARG = fp128, FUNCTION = hamming, COMMUTATOR = <~>);
COMMENT ON OPERATOR <~> (fp128, fp128) IS
	'Hamming distance (number of differing bits); WHERE fp <~> q <= k and ORDER BY fp <~> q use an ndd index';

---------------------------------------------------------------------------------------------------
-- hamming_ball and <@: "within k bits of q", the operator the ndd index serves
---------------------------------------------------------------------------------------------------

CREATE TYPE hamming_ball;

CREATE FUNCTION hamming_ball_in(cstring) RETURNS hamming_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball_in(cstring) IS 'text input of hamming_ball: (center,radius)';
CREATE FUNCTION hamming_ball_out(hamming_ball) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball_out(hamming_ball) IS 'text output of hamming_ball: (center,radius)';
CREATE FUNCTION hamming_ball_recv(internal) RETURNS hamming_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball_recv(internal) IS 'binary input of hamming_ball';
CREATE FUNCTION hamming_ball_send(hamming_ball) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball_send(hamming_ball) IS 'binary output of hamming_ball';

CREATE TYPE hamming_ball (
	INPUT = hamming_ball_in, OUTPUT = hamming_ball_out,
	RECEIVE = hamming_ball_recv, SEND = hamming_ball_send,
	INTERNALLENGTH = 24, ALIGNMENT = double, STORAGE = plain
);
COMMENT ON TYPE hamming_ball IS 'all fingerprints within a radius of a center: fp <@ hamming_ball(q, k)';

CREATE FUNCTION hamming_ball(simhash64, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'hamming_ball_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball(simhash64, integer) IS 'the ball of every simhash64 within k bits of a center';
CREATE FUNCTION hamming_ball(fp128, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'hamming_ball_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball(fp128, integer) IS 'the ball of every fp128 within k bits of a center';
-- The index condition the planner builds for ndd_within(fp, q, k) when k is known only at run time:
-- hamming_ball(q, k), or NULL (matches nothing) when k < 0, since a ball's radius is never negative.
CREATE FUNCTION ndd_within_ball(simhash64, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'ndd_within_ball_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_within_ball(simhash64, integer) IS 'the index condition of ndd_within(fp, q, k) for a k known at run time: hamming_ball(q, k), NULL (nothing) for k < 0';
CREATE FUNCTION ndd_within_ball(fp128, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'ndd_within_ball_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_within_ball(fp128, integer) IS 'the index condition of ndd_within(fp, q, k) for a k known at run time: hamming_ball(q, k), NULL (nothing) for k < 0';

CREATE FUNCTION hamming_ball_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball_sel(internal, oid, internal, integer) IS
	'selectivity estimate of fp <@ hamming_ball(q, k) from the radius and the fingerprint width';
CREATE FUNCTION hamming_ball_joinsel(internal, oid, internal, smallint, internal) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball_joinsel(internal, oid, internal, smallint, internal) IS
	'join selectivity estimate of fp <@ hamming_ball(q, k), as the restriction estimate';

CREATE FUNCTION simhash64_in_ball(simhash64, hamming_ball) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_in_ball(simhash64, hamming_ball) IS 'implementation of simhash64 <@ hamming_ball';
CREATE FUNCTION fp128_in_ball(fp128, hamming_ball) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_in_ball(fp128, hamming_ball) IS 'implementation of fp128 <@ hamming_ball';
CREATE FUNCTION ball_contains_simhash64(hamming_ball, simhash64) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ball_contains_simhash64(hamming_ball, simhash64) IS 'implementation of hamming_ball @> simhash64';
CREATE FUNCTION ball_contains_fp128(hamming_ball, fp128) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ball_contains_fp128(hamming_ball, fp128) IS 'implementation of hamming_ball @> fp128';

CREATE OPERATOR <@ (LEFTARG = simhash64, RIGHTARG = hamming_ball, FUNCTION = simhash64_in_ball,
	COMMUTATOR = @>, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);
COMMENT ON OPERATOR <@ (simhash64, hamming_ball) IS 'fingerprint within the ball''s radius of its center; served by an ndd index';
CREATE OPERATOR <@ (LEFTARG = fp128, RIGHTARG = hamming_ball, FUNCTION = fp128_in_ball,
	COMMUTATOR = @>, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);
COMMENT ON OPERATOR <@ (fp128, hamming_ball) IS 'fingerprint within the ball''s radius of its center; served by an ndd index';
CREATE OPERATOR @> (LEFTARG = hamming_ball, RIGHTARG = simhash64, FUNCTION = ball_contains_simhash64,
	COMMUTATOR = <@, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);
COMMENT ON OPERATOR @> (hamming_ball, simhash64) IS 'ball contains the fingerprint (commutator of <@)';
CREATE OPERATOR @> (LEFTARG = hamming_ball, RIGHTARG = fp128, FUNCTION = ball_contains_fp128,
	COMMUTATOR = <@, RESTRICT = hamming_ball_sel, JOIN = hamming_ball_joinsel);
COMMENT ON OPERATOR @> (hamming_ball, fp128) IS 'ball contains the fingerprint (commutator of <@)';

---------------------------------------------------------------------------------------------------
-- ndd_within(a, b, k): the boolean long form of a <~> b <= k, and the target of the rewrite
---------------------------------------------------------------------------------------------------

CREATE FUNCTION ndd_within_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_within_support(internal) IS 'planner support of ndd_within(): makes it indexable';
CREATE FUNCTION ndd_within(simhash64, simhash64, integer) RETURNS bool
	AS 'MODULE_PATHNAME', 'ndd_within_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT ndd_within_support;
COMMENT ON FUNCTION ndd_within(simhash64, simhash64, integer) IS 'a <~> b <= k; indexable on either argument';
CREATE FUNCTION ndd_within(fp128, fp128, integer) RETURNS bool
	AS 'MODULE_PATHNAME', 'ndd_within_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT ndd_within_support;
COMMENT ON FUNCTION ndd_within(fp128, fp128, integer) IS 'a <~> b <= k; indexable on either argument';

CREATE FUNCTION ndd_radius_bound(bigint, bool) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_radius_bound(bigint, bool) IS 'internal: the inclusive radius of "<= k" (or "< k" when true)';
