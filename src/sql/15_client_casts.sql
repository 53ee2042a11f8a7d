-- ndd install script, part 15: casts for client drivers (fingerprint_casts.c explains the forms),
-- each with its COMMENT.
--
-- bytea: the fingerprint's bytes, most significant first (its binary wire form). Assignment casts
-- both ways, so INSERT/UPDATE take bytes as they come from a driver and a bytea column takes a
-- fingerprint; in an expression write $1::simhash64 (bytea is a byte string, not a fingerprint,
-- so an implicit cast would make operators such as = ambiguous).
-- numeric: the unsigned 64-bit value, 0 .. 2^64-1, explicit like the bigint casts (a fingerprint
-- is not a number).

CREATE FUNCTION simhash64_to_bytea(simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_to_bytea(simhash64) IS 'the 8 bytes of a simhash64, most significant first';
CREATE FUNCTION bytea_to_simhash64(bytea) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bytea_to_simhash64(bytea) IS 'exactly 8 bytes, most significant first, as simhash64';
CREATE CAST (simhash64 AS bytea) WITH FUNCTION simhash64_to_bytea(simhash64) AS ASSIGNMENT;
COMMENT ON CAST (simhash64 AS bytea) IS 'the 8 bytes, most significant first (the binary wire form)';
CREATE CAST (bytea AS simhash64) WITH FUNCTION bytea_to_simhash64(bytea) AS ASSIGNMENT;
COMMENT ON CAST (bytea AS simhash64) IS 'exactly 8 bytes as simhash64, e.g. bytes bound by a driver';

CREATE FUNCTION fp128_to_bytea(fp128) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fp128_to_bytea(fp128) IS 'the 16 bytes of an fp128, most significant first';
CREATE FUNCTION bytea_to_fp128(bytea) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bytea_to_fp128(bytea) IS 'exactly 16 bytes, most significant first, as fp128';
CREATE CAST (fp128 AS bytea) WITH FUNCTION fp128_to_bytea(fp128) AS ASSIGNMENT;
COMMENT ON CAST (fp128 AS bytea) IS 'the 16 bytes, most significant first (the binary wire form)';
CREATE CAST (bytea AS fp128) WITH FUNCTION bytea_to_fp128(bytea) AS ASSIGNMENT;
COMMENT ON CAST (bytea AS fp128) IS 'exactly 16 bytes as fp128, e.g. bytes bound by a driver';

CREATE FUNCTION simhash64_to_numeric(simhash64) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_to_numeric(simhash64) IS 'the unsigned value of a simhash64, 0 to 2^64-1';
CREATE FUNCTION numeric_to_simhash64(numeric) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION numeric_to_simhash64(numeric) IS 'an integer from 0 to 2^64-1 as simhash64; anything else is an error';
CREATE CAST (simhash64 AS numeric) WITH FUNCTION simhash64_to_numeric(simhash64);
COMMENT ON CAST (simhash64 AS numeric) IS 'the unsigned 64-bit value, 0 to 18446744073709551615';
CREATE CAST (numeric AS simhash64) WITH FUNCTION numeric_to_simhash64(numeric);
COMMENT ON CAST (numeric AS simhash64) IS 'an unsigned 64-bit value (0 to 18446744073709551615), lossless';
