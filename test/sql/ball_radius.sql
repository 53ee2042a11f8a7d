-- Issue 20: a hamming_ball's radius is never negative. Every way a ball is made refuses a negative
-- radius with 22023 (0.2.0 before issue 20 accepted it and the ball matched nothing, silently),
-- while the comparison `fp <~> q <= k` with k < 0 stays a valid test that no row passes, through
-- the index too, with the bound a constant or a parameter of a generic plan.
\set VERBOSITY terse
SELECT hamming_ball('0000000000000001'::simhash64, -1);
\echo :LAST_ERROR_SQLSTATE
SELECT hamming_ball('00000000000000000000000000000001'::fp128, -2147483648);
\echo :LAST_ERROR_SQLSTATE
SELECT '(0000000000000001,-1)'::hamming_ball;
\echo :LAST_ERROR_SQLSTATE
SELECT '(00000000000000000000000000000001,-7)'::hamming_ball;
\echo :LAST_ERROR_SQLSTATE
-- binary receive: a COPY BINARY of one ball (64 bits, radius -1, center 1), then radius 2
CREATE TEMP TABLE balls (b hamming_ball);
COPY balls FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\20\0\0\0\100\377\377\377\377\0\0\0\0\0\0\0\1\377\377'$$ WITH (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
COPY balls FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\20\0\0\0\100\0\0\0\2\0\0\0\0\0\0\0\1\377\377'$$ WITH (FORMAT binary);
SELECT b FROM balls;
-- a radius of 0 holds the center only
SELECT '0000000000000001'::simhash64 <@ hamming_ball('0000000000000001'::simhash64, 0) AS center,
       '0000000000000003'::simhash64 <@ hamming_ball('0000000000000001'::simhash64, 0) AS one_bit_away;
-- negative bounds in comparisons: no row, no error, index or not
CREATE TEMP TABLE r AS SELECT g::bigint::simhash64 AS fp FROM generate_series(1, 2000) g;
CREATE INDEX ON r USING ndd (fp);
ANALYZE r;
SET enable_seqscan = off;
SELECT count(*) AS le_minus_one FROM r WHERE fp <~> '0000000000000001'::simhash64 <= -1;
SELECT count(*) AS lt_zero FROM r WHERE fp <~> '0000000000000001'::simhash64 < 0;
SELECT count(*) AS within_minus_three FROM r WHERE ndd_within(fp, '0000000000000001'::simhash64, -3);
SET plan_cache_mode = force_generic_plan;
PREPARE le(simhash64, int) AS SELECT count(*) FROM r WHERE fp <~> $1 <= $2;
PREPARE lt(simhash64, int) AS SELECT count(*) FROM r WHERE fp <~> $1 < $2;
EXPLAIN (COSTS OFF) EXECUTE le('0000000000000001', -1);
EXECUTE le('0000000000000001', -1);
EXECUTE le('0000000000000001', 2);
EXECUTE lt('0000000000000001', 0);
EXECUTE lt('0000000000000001', 3);
RESET plan_cache_mode;
RESET enable_seqscan;
SELECT count(*) AS scan_le_two FROM r WHERE fp <~> '0000000000000001'::simhash64 <= 2;
-- what the run-time index condition gives
SELECT ndd_within_ball('0000000000000001'::simhash64, -1) IS NULL AS negative_is_null,
       ndd_within_ball('00000000000000000000000000000001'::fp128, 2) AS fp128_ball;
