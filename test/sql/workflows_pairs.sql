-- ndd_pairs and ndd_feature_pairs: all near-duplicate pairs of a collection in one call.
SET client_min_messages = notice;

CREATE TABLE wp_docs (id bigint, fp simhash64);
INSERT INTO wp_docs VALUES
  (1, 'ffff0000ffff0000'), (2, 'ffff0000ffff0001'), (3, 'ffff0000ffff0007'),
  (4, '0000000000000000'), (5, NULL), (6, '0000000000000003'), (7, 'ffff0000ffff0000');

-- hand-checked distances: 1-7 identical, 1-2 one bit, 2-3 two bits, 1-3 three bits, 4-6 two bits
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', 0) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', 1) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', 3) ORDER BY a, b;
-- explicit block counts give the same pairs; a bigint fingerprint and integer ids work too
SELECT * FROM ndd_pairs('SELECT id::int, fp::bigint FROM wp_docs', 3, 7) ORDER BY a, b;
-- column names do not matter, positions do; a view or a filter feeds it like a table
SELECT count(*) FROM ndd_pairs('SELECT id AS x, fp AS y FROM wp_docs WHERE id < 4', 3);

-- exactness against a brute-force self-join on planted data, both widths, k = 0..6
CREATE TABLE wp_planted AS
  SELECT i AS id,
         ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint::simhash64 AS fp,
         md5(i::text)::uuid::fp128 AS wide
  FROM generate_series(1, 1200) AS i;
INSERT INTO wp_planted
  SELECT 10000 + id,
         (fp::bigint # (1::bigint << (id % 64)) # (CASE WHEN id % 3 = 0 THEN 1::bigint << ((id * 7) % 64) ELSE 0 END))::simhash64,
         (wide::bit(128) # (B'1'::bit(128) >> (id::int % 128)) # (B'1'::bit(128) >> ((id::int * 5) % 128)))::fp128
  FROM wp_planted WHERE id % 4 = 0;
-- a family of fingerprints close to each other, so runs of equal keys are long
INSERT INTO wp_planted
  SELECT 20000 + i, ((x'5555555555555555'::bigint) # (i * 2654435761 % 4096))::simhash64,
         (x'0123456789abcdef0123456789abcdef'::bit(128) # (i::bit(128)))::fp128
  FROM generate_series(1, 300) AS i;

CREATE FUNCTION wp_mismatches(k int, col text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  EXECUTE format($q$
    WITH batch AS (SELECT a, b, distance FROM ndd_pairs('SELECT id, %1$I FROM wp_planted', %2$s)),
         brute AS (SELECT x.id AS a, y.id AS b, (x.%1$I <~> y.%1$I)::int AS distance
                   FROM wp_planted x JOIN wp_planted y ON x.id < y.id
                   WHERE x.%1$I <~> y.%1$I <= %2$s)
    SELECT (SELECT count(*) FROM (SELECT * FROM batch EXCEPT ALL SELECT * FROM brute) d)
         + (SELECT count(*) FROM (SELECT * FROM brute EXCEPT ALL SELECT * FROM batch) d) $q$, col, k)
  INTO n;
  RETURN n;
END $$;
SELECT k, wp_mismatches(k, 'fp') AS simhash64_mismatches, wp_mismatches(k, 'wide') AS fp128_mismatches,
       (SELECT count(*) FROM ndd_pairs('SELECT id, fp FROM wp_planted', k)) AS simhash64_pairs,
       (SELECT count(*) FROM ndd_pairs('SELECT id, wide FROM wp_planted', k)) AS fp128_pairs
FROM generate_series(0, 6) AS k;
-- a large radius on 128 bits (bitflip_fp's default threshold)
SELECT wp_mismatches(18, 'wide') AS fp128_k18_mismatches;

-- errors and edge cases
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', -1) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', 32) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', 3, -1) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', 3, 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', 5, 10) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT fp, id FROM wp_docs', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp::text FROM wp_docs', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id FROM wp_docs', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELEC id, fp FROM wp_docs', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM no_such_table', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT 1; SELECT 2', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('DELETE FROM wp_docs', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT 1::bigint, fp FROM wp_docs', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT NULL::bigint, fp FROM wp_docs', 3) ORDER BY a, b;
SELECT * FROM ndd_pairs(NULL, 3) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs', NULL) ORDER BY a, b;
SELECT * FROM ndd_pairs('SELECT id, fp FROM wp_docs WHERE false', 3) ORDER BY a, b;

-- ndd_feature_pairs: documents sharing at least min_shared distinct features
CREATE TABLE wp_features (id bigint, f bigint[]);
INSERT INTO wp_features VALUES
  (10, '{1,2,3}'), (20, '{1,2,4}'), (30, '{2,5,6}'), (40, '{}'), (50, '{7,7,7}'), (60, '{7,NULL}'),
  (70, NULL);
SELECT * FROM ndd_feature_pairs('SELECT id, f FROM wp_features') ORDER BY a, b;
SELECT * FROM ndd_feature_pairs('SELECT id, f FROM wp_features', 1) ORDER BY a, b;
SELECT * FROM ndd_feature_pairs('SELECT id, f FROM wp_features', 3) ORDER BY a, b;
-- a feature held by more than max_df documents is ignored, with a notice
SELECT * FROM ndd_feature_pairs('SELECT id, f FROM wp_features', 1, 2) ORDER BY a, b;

-- exactness against brute force on random six-feature documents drawn from a small pool
CREATE TABLE wp_random AS
  SELECT i AS id, ARRAY(SELECT (abs(hashint4(i * 10 + g)) % 40)::bigint FROM generate_series(1, 6) AS g) AS f
  FROM generate_series(1, 400) AS i;
SELECT r,
  (SELECT count(*) FROM (
     (SELECT a, b, shared FROM ndd_feature_pairs('SELECT id, f FROM wp_random', r, 100000)
      EXCEPT ALL
      SELECT x.id, y.id, s FROM wp_random x JOIN wp_random y ON x.id < y.id
        CROSS JOIN LATERAL (SELECT count(*)::int AS s FROM (SELECT unnest(x.f) INTERSECT SELECT unnest(y.f)) i) c
      WHERE s >= r)
     UNION ALL
     (SELECT x.id, y.id, s FROM wp_random x JOIN wp_random y ON x.id < y.id
        CROSS JOIN LATERAL (SELECT count(*)::int AS s FROM (SELECT unnest(x.f) INTERSECT SELECT unnest(y.f)) i) c
      WHERE s >= r
      EXCEPT ALL
      SELECT a, b, shared FROM ndd_feature_pairs('SELECT id, f FROM wp_random', r, 100000))) d) AS mismatches,
  (SELECT count(*) FROM ndd_feature_pairs('SELECT id, f FROM wp_random', r, 100000)) AS pairs
FROM generate_series(1, 3) AS r;

-- minhash thresholds exactly: supershingles with one value per group tag each minimum with its
-- position, so two sketches share m such features iff they agree in m positions, and
-- ndd_feature_pairs(..., m) returns exactly the pairs with minhash_similarity >= m / hashes
CREATE TABLE wp_texts AS
  SELECT i AS id, (SELECT string_agg('w' || (abs(hashint4((i % 20) * 100 + j + CASE WHEN i > 20 AND j % 9 = i % 9 THEN 7000 ELSE 0 END)) % 400), ' ')
                   FROM generate_series(1, 40) AS j) AS body
  FROM generate_series(1, 40) AS i;
CREATE TABLE wp_sketches AS SELECT id, shingle_minhash(body, 2, 16) AS sk FROM wp_texts;
SELECT m,
  (SELECT count(*) FROM ndd_feature_pairs('SELECT id, supershingles(sk, 16) FROM wp_sketches', m, 100000)) AS pairs,
  (SELECT count(*) FROM (
     (SELECT a, b, shared FROM ndd_feature_pairs('SELECT id, supershingles(sk, 16) FROM wp_sketches', m, 100000)
      EXCEPT
      SELECT x.id, y.id, round(minhash_similarity(x.sk, y.sk) * 16)::int FROM wp_sketches x JOIN wp_sketches y ON x.id < y.id
      WHERE minhash_similarity(x.sk, y.sk) * 16 >= m - 0.001)
     UNION ALL
     (SELECT x.id, y.id, round(minhash_similarity(x.sk, y.sk) * 16)::int FROM wp_sketches x JOIN wp_sketches y ON x.id < y.id
      WHERE minhash_similarity(x.sk, y.sk) * 16 >= m - 0.001
      EXCEPT
      SELECT a, b, shared FROM ndd_feature_pairs('SELECT id, supershingles(sk, 16) FROM wp_sketches', m, 100000))) d) AS mismatches
FROM unnest(ARRAY[4, 8, 12, 16]) AS m;

SELECT * FROM ndd_feature_pairs('SELECT id, f FROM wp_features', 0) ORDER BY a, b;
SELECT * FROM ndd_feature_pairs('SELECT id, f FROM wp_features', 2, 1) ORDER BY a, b;
SELECT * FROM ndd_feature_pairs('SELECT id, f::int[] FROM wp_features') ORDER BY a, b;
SELECT * FROM ndd_feature_pairs('SELECT id::text, f FROM wp_features') ORDER BY a, b;
SELECT * FROM ndd_feature_pairs('SELECT 10::bigint, f FROM wp_features') ORDER BY a, b;
SELECT * FROM ndd_feature_pairs(NULL) ORDER BY a, b;

-- long runs respond to cancel: 32768 fingerprints agree on their first 16-bit block (one run of
-- 32768 in that table, 5e8 comparisons) but are pairwise at least 6 bits apart
SET statement_timeout = '100ms';
SELECT count(*) FROM ndd_pairs($$SELECT i, ((i::bigint << 32) | (i::bigint << 16) | i)::simhash64
  FROM generate_series(1, 65535) AS i WHERE bit_count(i::bit(16)) % 2 = 0$$, 3);
RESET statement_timeout;
SELECT count(*) AS still_alive FROM ndd_pairs('SELECT id, fp FROM wp_docs', 3);

-- memory: the rows held (ids, fingerprints or features, and the core's arrays over them) are
-- bounded by maintenance_work_mem; beyond it a clear error, SQLSTATE 53200 (out_of_memory),
-- naming the setting and the size needed, instead of growing without bound
SET maintenance_work_mem = '1MB';
SELECT count(*) FROM ndd_pairs('SELECT g, g::bigint FROM generate_series(1, 30000) g', 3);
SELECT count(*) FROM ndd_feature_pairs('SELECT g, ARRAY[g, g + 1]::bigint[] FROM generate_series(1, 30000) g', 1);
DO $$ BEGIN
  PERFORM count(*) FROM ndd_pairs('SELECT g, g::bigint FROM generate_series(1, 30000) g', 3);
EXCEPTION WHEN out_of_memory THEN RAISE NOTICE 'ndd_pairs: out_of_memory (53200)';
END $$;
-- within the setting it works, and the answer itself is not held: it streams into the result
SELECT count(*), sum(distance) FROM ndd_pairs('SELECT g, 0::bigint FROM generate_series(1, 2000) g', 0);
SELECT count(*), sum(shared) FROM ndd_feature_pairs('SELECT g, ARRAY[1, 2, g]::bigint[] FROM generate_series(1, 2000) g', 2, 100000);
RESET maintenance_work_mem;
