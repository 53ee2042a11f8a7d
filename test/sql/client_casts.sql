-- Casts for client drivers (src/fingerprint_casts.c): bytea both ways for simhash64 and fp128,
-- numeric both ways for simhash64 (unsigned 0 .. 2^64-1).

-- bytea: the binary wire form, most significant byte first
SELECT 'ffffffffffffffff'::simhash64::bytea, '0102030405060708'::simhash64::bytea,
       '\x0102030405060708'::bytea::simhash64, '\x8000000000000000'::bytea::simhash64;
SELECT '0123456789abcdeffedcba9876543210'::fp128::bytea,
       '\x0123456789abcdeffedcba9876543210'::bytea::fp128;
-- the same bytes as the binary send function and the uuid cast
SELECT simhash64_send(fp) = fp::bytea FROM (VALUES ('0'::simhash64), ('8000000000000001'), ('ffffffffffffffff')) v(fp);
SELECT fp128_send(fp) = fp::bytea, uuid_send(fp::uuid) = fp::bytea
FROM (VALUES ('0'::fp128), ('80000000000000000000000000000001'), ('ffffffffffffffffffffffffffffffff')) v(fp);
-- round trips
SELECT fp::bytea::simhash64 = fp FROM (SELECT simhash(x) AS fp FROM (VALUES ('a b c'), ('d e f g')) v(x)) s;
SELECT fp::bytea::fp128 = fp FROM (SELECT bitflip_fp(x) AS fp FROM (VALUES ('a b c'), ('d e f g')) v(x)) s;
-- other lengths: 22026, like the bit casts
SELECT ''::bytea::simhash64;
SELECT '\x01020304050607'::bytea::simhash64;
SELECT '\x010203040506070809'::bytea::simhash64;
SELECT '\x0102030405060708'::bytea::fp128;
SELECT '\x0123456789abcdeffedcba987654321000'::bytea::fp128;
-- assignment casts: a bytea value goes into a fingerprint column and back without a cast
CREATE TEMP TABLE fps (s simhash64, f fp128, b bytea);
INSERT INTO fps (s, f) VALUES ('\x00000000000004d2'::bytea, '\x000102030405060708090a0b0c0d0e0f'::bytea);
UPDATE fps SET b = s;
SELECT s, f, b FROM fps;
-- but no implicit cast: bytea is not silently compared as a fingerprint
SELECT s <~> '\x00000000000004d2'::bytea FROM fps;
SELECT s <~> '\x00000000000004d3'::bytea::simhash64 AS distance FROM fps;
-- NULL in, NULL out
SELECT NULL::bytea::simhash64, NULL::simhash64::bytea, NULL::bytea::fp128, NULL::numeric::simhash64;

-- numeric: the unsigned value, lossless over 0 .. 2^64-1
SELECT 0::numeric::simhash64, 1234::numeric::simhash64, 9223372036854775807::simhash64,
       9223372036854775808::simhash64, 18446744073709551615::simhash64;
SELECT '0000000000000000'::simhash64::numeric, '7fffffffffffffff'::simhash64::numeric,
       '8000000000000000'::simhash64::numeric, 'ffffffffffffffff'::simhash64::numeric;
SELECT n, n::simhash64::numeric = n AS round_trip, n::simhash64::bigint AS signed_bits
FROM (VALUES (0::numeric), (1), (9223372036854775807), (9223372036854775808),
             (12345678901234567890), (18446744073709551614), (18446744073709551615)) v(n);
-- the numeric and bigint casts agree on the bits (unsigned = signed mod 2^64)
SELECT count(*) FILTER (WHERE fp::numeric::simhash64 <> fp
                          OR fp::numeric <> (fp::bigint::numeric + 18446744073709551616) % 18446744073709551616)
FROM (SELECT simhash(g::text) AS fp FROM generate_series(1, 1000) g) s;
-- a scale that is zero after the point is an integer
SELECT 42.000::simhash64;
-- outside 0 .. 2^64-1 or not an integer: an error, never a rounded or wrapped fingerprint
SELECT 18446744073709551616::simhash64;
SELECT (-1)::numeric::simhash64;
SELECT 1.5::simhash64;
SELECT 18446744073709551615.5::simhash64;
SELECT 'NaN'::numeric::simhash64;
SELECT 'Infinity'::numeric::simhash64;
SELECT '-Infinity'::numeric::simhash64;
-- explicit only: a number is not taken as a fingerprint by assignment
INSERT INTO fps (s) VALUES (1234::numeric);
-- the SQLSTATEs: 22026 wrong length, 22003 out of range, 22023 not an integer
\set VERBOSITY sqlstate
SELECT '\x01'::bytea::simhash64;
SELECT '\x01'::bytea::fp128;
SELECT 18446744073709551616::simhash64;
SELECT 'NaN'::numeric::simhash64;
SELECT 0.5::simhash64;
\set VERBOSITY default
