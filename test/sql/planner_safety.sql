-- Planner safety: every spelling of a radius search, with every kind of operand, gives the same
-- answer through the ndd index as through a sequential scan, and only what is computable before
-- the scan becomes an index condition. The comparison value and k of an index condition are
-- evaluated once per scan: a Var of the scanned row (another column, the indexed column itself,
-- k from a column) or a volatile function must stay a filter; a constant, a Param, an initplan
-- (uncorrelated subquery), an outer reference (join, LATERAL, correlated subquery) may be a key.
SET client_min_messages = warning;

-- Rows come in groups of 4 whose fingerprints differ pairwise in 2 bits; g is the next row's
-- fingerprint (2 bits away inside a group, ~half the bits across groups); k cycles 0..3.
CREATE FUNCTION ps_fp64(i bigint) RETURNS simhash64 IMMUTABLE LANGUAGE sql AS
$$ SELECT ((hashint8(i / 4)::bigint << 32) # (hashint8(i / 4 + 100000)::bigint & 4294967295)
           # (1::bigint << ((i % 4) * 7)::int))::simhash64 $$;
CREATE FUNCTION ps_fp128(i bigint) RETURNS fp128 IMMUTABLE LANGUAGE sql AS
$$ SELECT (lpad(to_hex(ps_fp64(i)::bigint), 16, '0')
           || lpad(to_hex(ps_fp64(i / 4 * 4 + 1000000)::bigint), 16, '0'))::fp128 $$;

CREATE TABLE ps (id int, f64 simhash64, g64 simhash64, f128 fp128, g128 fp128, k int);
INSERT INTO ps SELECT i, ps_fp64(i), ps_fp64(i + 1), ps_fp128(i), ps_fp128(i + 1), i % 4
FROM generate_series(1, 400) i;
CREATE INDEX ps_f64 ON ps USING ndd (f64);
CREATE INDEX ps_f128 ON ps USING ndd (f128);
ANALYZE ps;
CREATE SEQUENCE ps_seq;

-- Every spelling: {F} is the indexed column, {Q} the other fingerprint, {K} the radius.
CREATE TABLE ps_spelling (sid int, cond text);
INSERT INTO ps_spelling VALUES
	(1, '{F} <~> {Q} <= {K}'),
	(2, '{F} <~> {Q} < {K}'),
	(3, '{K} >= {F} <~> {Q}'),
	(4, '{Q} <~> {F} <= {K}'),
	(5, '{F} <~> {Q} >= {K}'),
	(6, '{F} <~> {Q} > {K}'),
	(7, '{F} <~> {Q} BETWEEN 0 AND {K}'),
	(8, '{F} <~> {Q} = {K}'),
	(9, 'hamming({F}, {Q}) <= {K}'),
	(10, '{F} <~> {Q} <= ({K})::bigint'),
	(11, '{F} <~> {Q} < ({K})::smallint'),
	(12, 'ndd_within({F}, {Q}, {K})'),
	(13, 'ndd_within({Q}, {F}, {K})'),
	(14, '{F} <@ hamming_ball({Q}, {K})'),
	(15, 'hamming_ball({Q}, {K}) @> {F}');

-- Every kind of operand: the query's FROM, the id it returns, Q and K ({T} is 64 or 128).
CREATE TABLE ps_shape (shape text, q text);
INSERT INTO ps_shape VALUES
	('constant',        'SELECT y.id FROM ps y WHERE {C:y.f{T}|ps_fp{T}(77)|2}'),
	('same-row column', 'SELECT y.id FROM ps y WHERE {C:y.f{T}|y.g{T}|2}'),
	('indexed column',  'SELECT y.id FROM ps y WHERE {C:y.f{T}|y.f{T}|0}'),
	('k from a column', 'SELECT y.id FROM ps y WHERE {C:y.f{T}|ps_fp{T}(77)|y.k}'),
	('k and q columns', 'SELECT y.id FROM ps y WHERE {C:y.f{T}|y.g{T}|y.k}'),
	('volatile q',      'SELECT y.id FROM ps y WHERE {C:y.f{T}|ps_fp{T}(nextval(''ps_seq''))|0}'),
	('volatile k',      'SELECT y.id FROM ps y WHERE {C:y.f{T}|ps_fp{T}(77)|(nextval(''ps_seq'') % 4)::int}'),
	('uncorrelated subquery',
	                    'SELECT y.id FROM ps y WHERE {C:y.f{T}|(SELECT f{T} FROM ps WHERE id = 77)|(SELECT 2)}'),
	('subquery of the row',
	                    'SELECT y.id FROM ps y WHERE {C:y.f{T}|(SELECT y.g{T})|(SELECT y.k)}'),
	('join (outer reference)',
	                    'SELECT x.id * 10000 + y.id FROM ps x, ps y WHERE x.id <= 12 AND {C:y.f{T}|x.f{T}|2}'),
	('LATERAL',         'SELECT x.id * 10000 + y.id FROM ps x CROSS JOIN LATERAL '
	                    '(SELECT y.id FROM ps y WHERE {C:y.f{T}|x.g{T}|x.k} OFFSET 0) y WHERE x.id <= 12'),
	('correlated subquery',
	                    'SELECT x.id FROM ps x WHERE x.id <= 12 AND '
	                    '(SELECT count(*) FROM ps y WHERE {C:y.f{T}|x.f{T}|x.k}) >= 2');

-- Runs one query with the index preferred and with it forbidden; sequences restart before each
-- run, so a volatile operand gives the same per-row values to both plans. Reports whether the
-- index plan carried an index condition (or ndd ordering) and whether both answers agree.
CREATE FUNCTION ps_compare(q text, OUT n bigint, OUT plan text, OUT agrees bool) LANGUAGE plpgsql AS $$
DECLARE
	line text;
	a text;
	b text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	plan := 'filter';
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line LIKE '%Index Cond:%' OR line LIKE '%Order By:%' THEN plan := 'index'; END IF;
	END LOOP;
	PERFORM setval('ps_seq', 1, false);
	EXECUTE 'SELECT count(*), md5(string_agg(id::text, '','' ORDER BY id)) FROM (' || q || ') s(id)' INTO n, a;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	PERFORM setval('ps_seq', 1, false);
	EXECUTE 'SELECT md5(string_agg(id::text, '','' ORDER BY id)) FROM (' || q || ') s(id)' INTO b;
	agrees := a IS NOT DISTINCT FROM b;
END
$$;

-- Expands a shape for one type and spelling: {C:F|Q|K} becomes the spelling's condition.
CREATE FUNCTION ps_query(shape text, t text, cond text) RETURNS text LANGUAGE sql AS $$
	SELECT regexp_replace(replace(shape, '{T}', t), '\{C:([^|]*)\|(.*)\|([^}]*)\}',
		replace(replace(replace(cond, '{F}', '\1'), '{Q}', '\2'), '{K}', '\3'))
$$;

CREATE TEMP TABLE ps_result AS
SELECT t.t AS type, s.ctid AS pos, s.shape, p.sid, p.cond, c.n, c.plan, c.agrees
FROM (VALUES ('64'), ('128')) t(t), ps_shape s, ps_spelling p,
	LATERAL ps_compare(ps_query(s.q, t.t, p.cond)) c;
SELECT type, shape, sid, cond, n, plan, agrees FROM ps_result ORDER BY type DESC, pos, sid;
SELECT count(*) AS cases, count(*) FILTER (WHERE NOT agrees) AS disagreements FROM ps_result;

-- The plans themselves for the findings of issue 8.
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ps WHERE f64 <~> g64 <= 3;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ps WHERE ndd_within(f64, f64, 3);
EXPLAIN (COSTS OFF) SELECT count(*) FROM ps WHERE f64 <~> f64 <= 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ps WHERE f128 <~> '0' <= k;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ps WHERE f64 <~> ps_fp64(nextval('ps_seq')) <= 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ps WHERE f64 <~> ps_fp64((random() * 2000)::int) <= 0;
EXPLAIN (COSTS OFF) SELECT x.id, y.id FROM ps x CROSS JOIN LATERAL
	(SELECT id FROM ps y WHERE y.f128 <~> x.f128 <= 2 OFFSET 0) y WHERE x.id <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM ps WHERE f64 <~> (SELECT f64 FROM ps WHERE id = 5) <= 1;
-- KNN: the ordering value must be constant for the scan too (PostgreSQL checks it itself)
EXPLAIN (COSTS OFF) SELECT id FROM ps ORDER BY f64 <~> g64 LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM ps ORDER BY f64 <~> ps_fp64(nextval('ps_seq')) LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM ps ORDER BY f128 <~> ps_fp128(77) LIMIT 3;
RESET enable_seqscan;
-- and they run, with the answers of a sequential scan
SELECT count(*) FROM ps WHERE f64 <~> g64 <= 3;
SELECT count(*) FROM ps WHERE ndd_within(f64, f64, 3);
SELECT count(*) FROM ps WHERE f128 <~> f128 <= 0;
SELECT count(*) FROM ps WHERE f128 <~> '0' <= k;
SELECT setval('ps_seq', 1, false);
SELECT count(*) FROM ps WHERE f64 <~> ps_fp64(nextval('ps_seq')) <= 0;
SELECT id, f64 <~> g64 AS d FROM ps ORDER BY f64 <~> g64, id LIMIT 3;

-- A prepared statement's generic plan: $1 and $2 are Params, fine as index keys.
PREPARE ps_radius(simhash64, int) AS SELECT count(*) FROM ps WHERE f64 <~> $1 <= $2;
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) EXECUTE ps_radius(ps_fp64(77), 2);
EXECUTE ps_radius(ps_fp64(77), 2);
RESET enable_seqscan;
RESET plan_cache_mode;
DEALLOCATE ps_radius;

-- The evaluation count of a volatile operand is that of the written comparison: once per row.
SELECT setval('ps_seq', 1, false);
SELECT count(*) FROM ps WHERE f64 <~> ps_fp64(nextval('ps_seq')) <= 0;
SELECT currval('ps_seq') AS evaluations;

DROP TABLE ps, ps_spelling, ps_shape, ps_result;
DROP FUNCTION ps_compare(text), ps_query(text, text, text), ps_fp128(bigint), ps_fp64(bigint);
DROP SEQUENCE ps_seq;

-- The extension in a schema that is not on search_path: the rewrite finds its own functions in
-- the extension's schema (never through search_path), so every spelling written with the
-- extension's operators keeps the index, and a function of the same name earlier on the path is
-- not called.
\set regress_db :DBNAME
CREATE DATABASE ndd_planner_safety_ext;
\c ndd_planner_safety_ext
SET client_min_messages = warning;
CREATE SCHEMA ext;
CREATE EXTENSION ndd SCHEMA ext;
CREATE TABLE t (id int, fp ext.simhash64);
INSERT INTO t SELECT g, g::bigint::ext.simhash64 FROM generate_series(1, 1000) g;
CREATE INDEX ON t USING ndd (fp ext.simhash64_ndd_ops);
ANALYZE t;
-- a shadowing ndd_within and hamming_ball on the path: never what the rewrite calls
CREATE FUNCTION public.ndd_within(ext.simhash64, ext.simhash64, int) RETURNS bool
	LANGUAGE sql AS 'SELECT true';
CREATE FUNCTION public.hamming_ball(ext.simhash64, int) RETURNS ext.hamming_ball
	LANGUAGE sql AS $$ SELECT '(0000000000000000,128)'::ext.hamming_ball $$;
SHOW search_path;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE fp OPERATOR(ext.<~>) '1'::ext.simhash64 OPERATOR(ext.<=) 3;
EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE 3 OPERATOR(ext.>) (fp OPERATOR(ext.<~>) '1'::ext.simhash64);
EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE ext.ndd_within(fp, '1'::ext.simhash64, 3);
EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE fp OPERATOR(ext.<@) ext.hamming_ball('1'::ext.simhash64, 3);
-- a bare <= is PostgreSQL's int4 comparison (hamming_distance casts to integer): no support
-- function of the extension is attached to it, so it is an exact filter, not an index condition
EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE fp OPERATOR(ext.<~>) '1'::ext.simhash64 <= 3;
RESET enable_seqscan;
SELECT count(*) FROM t WHERE fp OPERATOR(ext.<~>) '1'::ext.simhash64 OPERATOR(ext.<=) 3;
SELECT count(*) FROM t WHERE fp OPERATOR(ext.<~>) '1'::ext.simhash64 <= 3;
SELECT count(*) FROM t WHERE fp OPERATOR(ext.<~>) '1'::ext.simhash64 OPERATOR(ext.=) 2;
SELECT count(*) FROM t WHERE ext.ndd_within(fp, fp, 3);
SET search_path = ext, public;
EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE fp <~> '1' <= 3;
\c :regress_db
DROP DATABASE ndd_planner_safety_ext;
