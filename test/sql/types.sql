-- The fingerprint types, the Hamming distance, hamming_ball and the planner rewrite.

-- simhash64 text input: 1 to 16 hex digits, 0x, any case, surrounding spaces
SELECT '0'::simhash64, 'F'::simhash64, '0x1f'::simhash64, '  ABCDEF0123456789  '::simhash64,
       'ffffffffffffffff'::simhash64;
SELECT ''::simhash64;
SELECT '0x'::simhash64;
SELECT '12345678901234567'::simhash64;
SELECT 'xyz'::simhash64;
SELECT '12 34'::simhash64;
SELECT '-1'::simhash64;

-- fp128 text input
SELECT '1'::fp128, '0xABCDEF'::fp128, ' 0123456789abcdef0123456789ABCDEF '::fp128;
SELECT '0123456789abcdef0123456789abcdef0'::fp128;
SELECT 'g'::fp128;

-- casts keep the bits
SELECT 'ffffffffffffffff'::simhash64::bigint, (-2)::bigint::simhash64,
       '8000000000000000'::simhash64::bigint;
SELECT 'f00000000000000f'::simhash64::bit(64);
SELECT B'1000000000000000000000000000000000000000000000000000000000000001'::simhash64;
SELECT B'101'::simhash64;
SELECT '0123456789abcdef0123456789abcdef'::fp128::uuid,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::fp128;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::fp128::uuid;
SELECT '80000000000000000000000000000001'::fp128::bit(128)::fp128;
SELECT B'1'::fp128;

-- binary I/O round trip through COPY (psql's \copy: the file is the client's, in its working
-- directory, a per-run directory under scripts/test.sh, so concurrent runs never share it)
CREATE TEMP TABLE io (s simhash64, f fp128, b hamming_ball, d hamming_distance);
INSERT INTO io VALUES ('0123456789abcdef', '0123456789abcdef0123456789abcdef',
                       '(00ff,3)', 7);
\copy io TO 'ndd_types_io.bin' WITH (FORMAT binary)
CREATE TEMP TABLE io2 (LIKE io);
\copy io2 FROM 'ndd_types_io.bin' WITH (FORMAT binary)
\! rm ndd_types_io.bin
SELECT * FROM io2;
SELECT (SELECT s FROM io) = s AND (SELECT f FROM io) = f AS same FROM io2;

-- ordering is unsigned (the text order), equality and hashing work for GROUP BY, DISTINCT, joins
SELECT x FROM (VALUES ('8000000000000000'::simhash64), ('1'), ('ffffffffffffffff'), ('7fffffffffffffff')) v(x)
ORDER BY x;
SELECT x FROM (VALUES ('80000000000000000000000000000000'::fp128), ('1'), ('ff'), ('1')) v(x)
GROUP BY x ORDER BY x;
SELECT count(DISTINCT x) FROM (VALUES ('1'::simhash64), ('01'), ('2')) v(x);
CREATE TEMP TABLE uniq (fp simhash64 UNIQUE, f fp128 UNIQUE);
INSERT INTO uniq VALUES ('1', '1');
INSERT INTO uniq VALUES ('0x1', '2');
INSERT INTO uniq VALUES ('2', '0x1');
CREATE INDEX ON uniq USING hash (fp);
CREATE INDEX ON uniq USING hash (f);
SET enable_mergejoin = off;
SET enable_nestloop = off;
-- PostgreSQL 18 removes a self-join on a unique column (self-join elimination): this one must stay
-- a join, the hash join on simhash64 equality it is here for
DO $$BEGIN IF current_setting('server_version_num')::int >= 180000 THEN SET enable_self_join_elimination = off; END IF; END$$;
EXPLAIN (COSTS OFF) SELECT * FROM uniq a JOIN uniq b ON a.fp = b.fp;
SELECT * FROM uniq a JOIN uniq b ON a.fp = b.fp AND a.f = b.f;
RESET enable_mergejoin;
RESET enable_nestloop;
DO $$BEGIN IF current_setting('server_version_num')::int >= 180000 THEN RESET enable_self_join_elimination; END IF; END$$;
SELECT '1'::simhash64 < '2', '2'::simhash64 <= '2', '1'::simhash64 <> '2', 'ff'::fp128 > '0f', 'ff'::fp128 >= 'ff';

-- <~> and hamming()
SELECT 'ffffffffffffffff'::simhash64 <~> '0', '0f'::simhash64 <~> 'f0', hamming('1'::simhash64, '3'),
       'ffffffffffffffffffffffffffffffff'::fp128 <~> '0', hamming('1'::fp128, '3');
SELECT NULL::simhash64 <~> '1', hamming(NULL::fp128, '1');

-- a hamming_distance behaves as an integer
SELECT ('ff'::simhash64 <~> '0') + 1 AS plus, ('ff'::simhash64 <~> '0') * 2 AS times, ('ff'::simhash64 <~> '0')::numeric / 64 AS ratio,
       ('ff'::simhash64 <~> '0')::bigint AS big, ('ff'::simhash64 <~> '0')::float8 AS dbl,
       ('ff'::simhash64 <~> '0') = 8 AS eq8, ('ff'::simhash64 <~> '0') < 9::smallint AS lt9,
       10::bigint > ('ff'::simhash64 <~> '0') AS gt, pg_typeof('ff'::simhash64 <~> '0');
SELECT sum(d), avg(d), max(d), min(d) FROM (VALUES (1::hamming_distance), (4), (7)) v(d);
SELECT d FROM (VALUES (3::hamming_distance), (1), (2)) v(d) ORDER BY d DESC;
SELECT 2::hamming_distance UNION SELECT 5 ORDER BY 1;
CREATE TEMP TABLE dist (i int, b bigint);
INSERT INTO dist SELECT '0f'::simhash64 <~> '0', '0f'::simhash64 <~> '0';
SELECT * FROM dist;
SELECT 'x'::hamming_distance;

-- hamming_ball and <@
SELECT hamming_ball('ff'::simhash64, 3), hamming_ball('ff'::fp128, 18), '(0x1F, 2)'::hamming_ball;
SELECT '(ff,3'::hamming_ball;
SELECT '(ff,x)'::hamming_ball;
SELECT 'ff,3'::hamming_ball;
SELECT 'f'::simhash64 <@ hamming_ball('0'::simhash64, 4), 'f'::simhash64 <@ hamming_ball('0'::simhash64, 3),
       hamming_ball('0'::simhash64, 4) @> 'f'::simhash64,
       'f'::fp128 <@ hamming_ball('0'::fp128, 4), 'f'::fp128 <@ hamming_ball('0'::fp128, 0);
SELECT '1'::simhash64 <@ hamming_ball('1'::fp128, 3);

-- ndd_within, NULLs and extreme radii
SELECT ndd_within('f'::simhash64, '0', 4), ndd_within('f'::simhash64, '0', 3), ndd_within('f'::fp128, '0', 4),
       ndd_within('f'::simhash64, '0', NULL), ndd_within('f'::simhash64, '0', -5),
       ndd_within('ffffffffffffffff'::simhash64, '0', 2147483647);

-- the planner rewrites every spelling of "within k bits" into ndd_within, the indexable form
CREATE TEMP TABLE t (id int, fp simhash64);
INSERT INTO t SELECT g, (g * 2654435761)::bigint::simhash64 FROM generate_series(1, 2000) g;
INSERT INTO t SELECT 10000 + g, ((g * 2654435761)::bigint # 5)::simhash64 FROM generate_series(1, 50) g;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> '00ff' <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> '00ff' < 4;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE 3 >= fp <~> '00ff';
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE 4 > fp <~> '00ff';
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE '00ff' <~> fp <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> '00ff' BETWEEN 0 AND 3;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> '00ff' = 2;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE hamming(fp, '00ff') <= 3::bigint;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> '00ff' >= 3;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> '00ff' <= 99999999999;
PREPARE typed(simhash64, int) AS SELECT count(*) FROM t WHERE fp <~> $1 <= $2;
PREPARE untyped AS SELECT count(*) FROM t WHERE fp <~> $1 < $2;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE typed('00ff', 3);
EXPLAIN (COSTS OFF) EXECUTE untyped('00ff', 4);
RESET plan_cache_mode;

-- and the rewritten forms return what the plain comparison returns
SELECT count(*) FROM t a JOIN t b ON a.fp <~> b.fp <= 3 AND a.id < b.id;
SELECT count(*) FROM t a JOIN t b ON ndd_within(a.fp, b.fp, 3) AND a.id < b.id;
SELECT count(*) FROM t a JOIN t b ON (a.fp <~> b.fp)::int <= 3 AND a.id < b.id;
SELECT count(*) FROM t a JOIN t b ON a.fp <@ hamming_ball(b.fp, 3) AND a.id < b.id;
SELECT count(*) FILTER (WHERE fp <~> q < 20) AS lt, count(*) FILTER (WHERE (fp <~> q)::int < 20) AS lt_int,
       count(*) FILTER (WHERE 20 >= fp <~> q) AS ge, count(*) FILTER (WHERE 20 >= (fp <~> q)::int) AS ge_int,
       count(*) FILTER (WHERE fp <~> q = 20) AS eq, count(*) FILTER (WHERE (fp <~> q)::int = 20) AS eq_int
FROM t, (VALUES ('0123456789abcdef'::simhash64)) v(q);
EXECUTE typed('0123456789abcdef', 25);
EXECUTE untyped('0123456789abcdef', 26);
SELECT count(*) FROM t WHERE (fp <~> '0123456789abcdef')::int <= 25;
DO $$
DECLARE q simhash64 := '0123456789abcdef'; k int := 25; n bigint;
BEGIN
	SELECT count(*) INTO n FROM t WHERE fp <~> q <= k;
	RAISE NOTICE 'plpgsql count %', n;
END $$;
