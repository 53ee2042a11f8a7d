-- The duplicate-heavy stream of bench/index_stream.sh and bench/index_dup_floor.sh: a table
-- stream(i, fpb) of :N rows. Row i (i >= 1) is new (i % 10 < 6), an exact copy (6..8) or a near
-- copy (9, 1..3 bits flipped) of an earlier new row j, drawn by a hash of i among the rows before
-- it (a multiple of 10, so a new row). Until 2026-11 j was 1 + (7919 i mod (i - 1)), which is 7920
-- for every i > 7920: every copy was a copy of that one row (one chain of 300,000 identical
-- entries per table), not of earlier rows in general; figures measured before say which
-- generator they used.
--
--   psql -v N=1000000 -f bench/index_stream_table.sql
CREATE FUNCTION base(j bigint) RETURNS bigint IMMUTABLE LANGUAGE sql AS $$ SELECT ('x' || md5(j::text))::bit(64)::bigint $$;
CREATE TABLE stream AS
SELECT i, CASE WHEN i % 10 < 6 OR i < 10 THEN base(i)
               WHEN i % 10 < 9 THEN base(j)
               ELSE base(j) # (1::bigint << (i % 64)::int) # CASE WHEN i % 3 >= 1 THEN 1::bigint << ((i * 7 + 3) % 64)::int ELSE 0 END
                            # CASE WHEN i % 3 = 2 THEN 1::bigint << ((i * 13 + 5) % 64)::int ELSE 0 END END AS fpb
FROM (SELECT i, h - h % 10 AS j
      FROM (SELECT i, 1 + abs(hashint8(i * 7919)) % greatest(i - 1, 1) AS h FROM generate_series(1::bigint, :N) i) r) s;
