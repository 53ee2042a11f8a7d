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

CREATE FUNCTION hamming_ball(simhash64, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'hamming_ball_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball(fp128, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'hamming_ball_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- The index condition the planner builds for ndd_within(fp, q, k) when k is known only at run time:
-- hamming_ball(q, k), or NULL (matches nothing) when k < 0, since a ball's radius is never negative.
CREATE FUNCTION ndd_within_ball(simhash64, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'ndd_within_ball_simhash64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ndd_within_ball(fp128, integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'ndd_within_ball_fp128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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

CREATE FUNCTION ndd_radius_bound(bigint, bool) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
