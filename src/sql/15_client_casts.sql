-- ndd install script, part 15: casts for client drivers (fingerprint_casts.c explains the forms).
--
-- bytea: the fingerprint's bytes, most significant first (its binary wire form). Assignment casts
-- both ways, so INSERT/UPDATE take bytes as they come from a driver and a bytea column takes a
-- fingerprint; in an expression write $1::simhash64 (bytea is a byte string, not a fingerprint,
-- so an implicit cast would make operators such as = ambiguous).
-- numeric: the unsigned 64-bit value, 0 .. 2^64-1, explicit like the bigint casts (a fingerprint
-- is not a number).

CREATE FUNCTION simhash64_to_bytea(simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_simhash64(bytea) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (simhash64 AS bytea) WITH FUNCTION simhash64_to_bytea(simhash64) AS ASSIGNMENT;
CREATE CAST (bytea AS simhash64) WITH FUNCTION bytea_to_simhash64(bytea) AS ASSIGNMENT;

CREATE FUNCTION fp128_to_bytea(fp128) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_fp128(bytea) RETURNS fp128
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (fp128 AS bytea) WITH FUNCTION fp128_to_bytea(fp128) AS ASSIGNMENT;
CREATE CAST (bytea AS fp128) WITH FUNCTION bytea_to_fp128(bytea) AS ASSIGNMENT;

CREATE FUNCTION simhash64_to_numeric(simhash64) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION numeric_to_simhash64(numeric) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (simhash64 AS numeric) WITH FUNCTION simhash64_to_numeric(simhash64);
CREATE CAST (numeric AS simhash64) WITH FUNCTION numeric_to_simhash64(numeric);
