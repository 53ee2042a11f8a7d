-- ndd install script, part 30: the ndd index access method (Manku's permuted-block tables).
-- Design, on-disk format and invariants: src/README.index.md.

CREATE FUNCTION ndd_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE ACCESS METHOD ndd TYPE INDEX HANDLER ndd_handler;

-- Strategy 1: fp <@ hamming_ball(q, k), which the planner support of <~> comparisons and
-- ndd_within() produces from `fp <~> q <= k`. Strategy 2: ORDER BY fp <~> q.
-- Nothing else: an operator class must never claim an operator the index cannot serve.
CREATE OPERATOR CLASS simhash64_ndd_ops DEFAULT FOR TYPE simhash64 USING ndd AS
	OPERATOR 1 <@ (simhash64, hamming_ball),
	OPERATOR 2 <~> (simhash64, simhash64) FOR ORDER BY hamming_distance_ops;

CREATE OPERATOR CLASS fp128_ndd_ops DEFAULT FOR TYPE fp128 USING ndd AS
	OPERATOR 1 <@ (fp128, hamming_ball),
	OPERATOR 2 <~> (fp128, fp128) FOR ORDER BY hamming_distance_ops;

-- Checks an ndd index (or each leaf of a partitioned one) against its table; see src/nddcheck.c.
-- Like contrib/amcheck's functions it is not for PUBLIC: a superuser grants EXECUTE, and the
-- grantee must in addition own the table or have SELECT on it.
CREATE FUNCTION ndd_index_check(index regclass) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
REVOKE ALL ON FUNCTION ndd_index_check(regclass) FROM PUBLIC;
