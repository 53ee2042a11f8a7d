-- ndd install script, part 30: the ndd index access method (Manku's permuted-block tables), each
-- object with its COMMENT.
-- Design, on-disk format and invariants: src/README.index.md.

CREATE FUNCTION ndd_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME' LANGUAGE C;
COMMENT ON FUNCTION ndd_handler(internal) IS 'handler of the ndd index access method';

CREATE ACCESS METHOD ndd TYPE INDEX HANDLER ndd_handler;
COMMENT ON ACCESS METHOD ndd IS 'exact Hamming-radius search and KNN over fingerprints (Manku''s permuted-block tables)';

-- Strategy 1: fp <@ hamming_ball(q, k), which the planner support of <~> comparisons and
-- ndd_within() produces from `fp <~> q <= k`. Strategy 2: ORDER BY fp <~> q.
-- Nothing else: an operator class must never claim an operator the index cannot serve.
CREATE OPERATOR CLASS simhash64_ndd_ops DEFAULT FOR TYPE simhash64 USING ndd AS
	OPERATOR 1 <@ (simhash64, hamming_ball),
	OPERATOR 2 <~> (simhash64, simhash64) FOR ORDER BY hamming_distance_ops;
COMMENT ON OPERATOR CLASS simhash64_ndd_ops USING ndd IS
	'ndd index on simhash64: fp <~> q <= k (as fp <@ hamming_ball(q, k)) and ORDER BY fp <~> q';
COMMENT ON OPERATOR FAMILY simhash64_ndd_ops USING ndd IS 'ndd index operators of simhash64';

CREATE OPERATOR CLASS fp128_ndd_ops DEFAULT FOR TYPE fp128 USING ndd AS
	OPERATOR 1 <@ (fp128, hamming_ball),
	OPERATOR 2 <~> (fp128, fp128) FOR ORDER BY hamming_distance_ops;
COMMENT ON OPERATOR CLASS fp128_ndd_ops USING ndd IS
	'ndd index on fp128: fp <~> q <= k (as fp <@ hamming_ball(q, k)) and ORDER BY fp <~> q';
COMMENT ON OPERATOR FAMILY fp128_ndd_ops USING ndd IS 'ndd index operators of fp128';

-- Checks an ndd index (or each leaf of a partitioned one) against its table; see src/nddcheck.c.
-- Like contrib/amcheck's functions it is not for PUBLIC: a superuser grants EXECUTE, and the
-- grantee must in addition own the table or have SELECT on it.
CREATE FUNCTION ndd_index_check(index regclass) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION ndd_index_check(regclass) IS
	'checks an ndd index (each leaf of a partitioned one) against its table like amcheck''s heapallindexed, under AccessShareLock; raises an error on corruption; revoked from PUBLIC';
REVOKE ALL ON FUNCTION ndd_index_check(regclass) FROM PUBLIC;
