-- ndd_jaccard_pairs / ndd_containment_pairs: exactly the pairs a brute-force join with jaccard() /
-- containment() finds, on generated documents with planted near-duplicates at known edit rates;
-- the band keys through a GIN index, and a BEFORE INSERT trigger built on them; edge cases and
-- errors.

-- 50 base documents of 30 to 150 words from a skewed 300-word vocabulary; each copied exactly, with
-- 2, 5, 10 and 20 % of its words replaced, and cut to its first 70 % (contained in the original).
SELECT setseed(0.31);
CREATE TABLE jp_words AS
SELECT d, pos, 'w' || floor(300 * power(random(), 2))::int AS w
FROM generate_series(1, 50) d, LATERAL generate_series(1, 30 + (d * 37) % 121) pos;
-- The random draws are taken in a fixed order first: drawn inside string_agg(... ORDER BY pos), they
-- came in another order from PostgreSQL 16 on (it sorts an aggregate's input below it), and so did
-- the documents.
CREATE TEMP TABLE jp_edits AS
SELECT d, pos, w, v, rate, random() AS r, random() AS x
FROM (SELECT * FROM jp_words
      JOIN (VALUES (0, 0.0), (1, 0.0), (2, 0.02), (3, 0.05), (4, 0.10), (5, 0.20)) e(v, rate) ON true
      ORDER BY d, v, pos) o;
CREATE TABLE jp_docs (id bigint, body text);
INSERT INTO jp_docs
SELECT d * 10 + v, string_agg(CASE WHEN r < rate THEN 'x' || floor(300 * x)::int ELSE w END, ' ' ORDER BY pos)
FROM jp_edits
GROUP BY d, v;
INSERT INTO jp_docs
SELECT d * 10 + 6, string_agg(w, ' ' ORDER BY pos)
FROM jp_words w1
WHERE pos <= 0.7 * (SELECT max(pos) FROM jp_words w2 WHERE w2.d = w1.d)
GROUP BY d;
-- edge rows: NULL bodies (no pairs), texts without words (resemblance 1 with each other)
INSERT INTO jp_docs VALUES (1, NULL), (2, ''), (3, ' ... '), (4, 'a few words'), (5, 'A few, words!');
SELECT count(*) AS docs FROM jp_docs;

CREATE TABLE jp_truth AS
SELECT x.id AS a, y.id AS b, jaccard(x.body, y.body) AS j, containment(x.body, y.body) AS c
FROM jp_docs x JOIN jp_docs y ON x.id <> y.id
WHERE x.body IS NOT NULL AND y.body IS NOT NULL;

-- resemblance: same pairs, same values (0 missing, 0 extra), each pair once with a < b
SELECT t,
       (SELECT count(*) FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', t)) AS found,
       (SELECT count(*) FROM jp_truth WHERE a < b AND j >= t) AS truth,
       (SELECT count(*) FROM (SELECT a, b, j FROM jp_truth WHERE a < b AND j >= t
                              EXCEPT SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', t)) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', t)
                              EXCEPT SELECT a, b, j FROM jp_truth WHERE a < b AND j >= t) x) AS extra
FROM (VALUES (0.5::float8), (0.8), (0.9), (1.0)) v(t);

-- other shingle sizes and sketch sizes
SELECT s, h,
       (SELECT count(*) FROM (SELECT x.id, y.id, jaccard(x.body, y.body, s) FROM jp_docs x JOIN jp_docs y ON x.id < y.id
                              WHERE jaccard(x.body, y.body, s) >= 0.7
                              EXCEPT SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.7, s, h)) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.7, s, h)
                              EXCEPT SELECT x.id, y.id, jaccard(x.body, y.body, s) FROM jp_docs x JOIN jp_docs y ON x.id < y.id
                              WHERE jaccard(x.body, y.body, s) >= 0.7) x) AS extra
FROM (VALUES (1, 84), (3, 256), (8, 128)) v(s, h);

-- containment: ordered pairs, same values
SELECT t,
       (SELECT count(*) FROM ndd_containment_pairs('SELECT id, body FROM jp_docs', t)) AS found,
       (SELECT count(*) FROM jp_truth WHERE c >= t) AS truth,
       (SELECT count(*) FROM (SELECT a, b, c FROM jp_truth WHERE c >= t
                              EXCEPT SELECT * FROM ndd_containment_pairs('SELECT id, body FROM jp_docs', t)) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM ndd_containment_pairs('SELECT id, body FROM jp_docs', t)
                              EXCEPT SELECT a, b, c FROM jp_truth WHERE c >= t) x) AS extra
FROM (VALUES (0.5::float8), (0.8), (0.9), (1.0)) v(t);

-- the texts without words, and the short ones
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs WHERE id < 10', 0.9) ORDER BY a, b;
SELECT * FROM ndd_containment_pairs('SELECT id, body FROM jp_docs WHERE id < 10', 0.9) ORDER BY a, b;
SELECT count(*) FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs WHERE false', 0.9);
-- integer ids, varchar bodies
SELECT * FROM ndd_jaccard_pairs('SELECT id::int, body::varchar FROM jp_docs WHERE id < 10', 1) ORDER BY a, b;

-- the banding, and the band keys
SELECT t, h, (ndd_jaccard_banding(t, h)).*
FROM (VALUES (0.8::float8), (0.9)) v(t), (VALUES (84), (128), (256)) w(h) ORDER BY t, h;
SELECT array_length(ndd_jaccard_bands(shingle_minhash('a b c d e', 4, 128), 0.9), 1) AS keys,
       ndd_jaccard_bands(shingle_minhash('a b c d e', 4, 128), 0.9)
         = ndd_jaccard_bands(shingle_minhash('A, B; C. D! E', 4, 128), 0.9) AS equal_texts_equal_keys,
       ndd_jaccard_bands(shingle_minhash('a b c d e', 4, 128), 0.9)
         && ndd_jaccard_bands(shingle_minhash('v w x y z', 4, 128), 0.9) AS unrelated_share;

-- per document through a GIN index on the band keys, with the exact recheck: the same neighbours
-- as the batch call
CREATE TABLE jp_store (id bigint PRIMARY KEY, body text, bands bigint[]);
INSERT INTO jp_store SELECT id, body, ndd_jaccard_bands(shingle_minhash(body, 4, 128), 0.9)
FROM jp_docs WHERE body IS NOT NULL;
CREATE INDEX jp_store_bands ON jp_store USING gin (bands);
ANALYZE jp_store;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT s.id FROM jp_store s
WHERE s.bands && ndd_jaccard_bands(shingle_minhash('w1 w2 w3 w4 w5', 4, 128), 0.9)
  AND jaccard(s.body, 'w1 w2 w3 w4 w5') >= 0.9;
CREATE TABLE jp_index_pairs AS
SELECT q.id AS a, s.id AS b, jaccard(s.body, q.body) AS j
FROM jp_store q, LATERAL (SELECT id, body FROM jp_store s
                          WHERE s.bands && ndd_jaccard_bands(shingle_minhash(q.body, 4, 128), 0.9)
                            AND jaccard(s.body, q.body) >= 0.9 AND s.id > q.id) s;
RESET enable_seqscan;
SELECT (SELECT count(*) FROM jp_index_pairs) AS through_index,
       (SELECT count(*) FROM (SELECT * FROM jp_index_pairs
                              EXCEPT SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.9)) x) AS extra,
       (SELECT count(*) FROM (SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.9)
                              EXCEPT SELECT * FROM jp_index_pairs) m) AS missing;

-- "insert unless a stored document has J >= 0.9", in a BEFORE INSERT trigger (it computes the
-- keys itself: a generated column is not yet computed when BEFORE triggers run)
CREATE TABLE jp_unique (id bigint PRIMARY KEY, body text, bands bigint[]);
CREATE INDEX ON jp_unique USING gin (bands);
CREATE FUNCTION jp_unique_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.bands := ndd_jaccard_bands(shingle_minhash(NEW.body, 4, 128), 0.9);
    IF EXISTS (SELECT 1 FROM jp_unique s WHERE s.bands && NEW.bands AND jaccard(s.body, NEW.body) >= 0.9) THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER jp_unique_insert BEFORE INSERT ON jp_unique FOR EACH ROW EXECUTE FUNCTION jp_unique_insert();
INSERT INTO jp_unique (id, body) SELECT id, body FROM jp_docs WHERE body IS NOT NULL AND id >= 10 ORDER BY id;
-- no two kept documents have J >= 0.9, and every dropped one has a kept one with J >= 0.9
SELECT (SELECT count(*) FROM jp_unique) AS kept,
       (SELECT count(*) FROM jp_unique x JOIN jp_unique y ON x.id < y.id WHERE jaccard(x.body, y.body) >= 0.9) AS kept_near_pairs,
       (SELECT count(*) FROM jp_docs d WHERE d.id >= 10 AND NOT EXISTS (SELECT 1 FROM jp_unique u WHERE u.id = d.id)
          AND NOT EXISTS (SELECT 1 FROM jp_unique u WHERE u.id < d.id AND jaccard(u.body, d.body) >= 0.9)) AS dropped_without_reason;

-- errors
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', -0.5);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 1.5);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 'NaN');
SELECT * FROM ndd_containment_pairs('SELECT id, body FROM jp_docs', 0);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.05);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.8, 0);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.8, 4, 0);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', 0.8, 4, 2000);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs UNION ALL SELECT 10, ''x''', 0.8);
SELECT * FROM ndd_jaccard_pairs('SELECT NULL::bigint, body FROM jp_docs', 0.8);
SELECT * FROM ndd_jaccard_pairs('SELECT body, id FROM jp_docs', 0.8);
SELECT * FROM ndd_jaccard_pairs('SELECT id, 42 FROM jp_docs', 0.8);
SELECT * FROM ndd_jaccard_pairs('SELECT id FROM jp_docs', 0.8);
SELECT * FROM ndd_jaccard_pairs('not sql', 0.8);
SELECT ndd_jaccard_bands('{}', 0.9);
SELECT ndd_jaccard_bands('{1,2,NULL}', 0.9);
SELECT ndd_jaccard_bands('{1,2,3}', 0.9);
SELECT ndd_jaccard_banding(0.9, 0);
SELECT * FROM ndd_jaccard_pairs(NULL, 0.8);
-- stored sketches as a third column: the same pairs (they only choose candidates); a NULL sketch
-- is computed from the text
SELECT t,
       (SELECT count(*) FROM (SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', t)
                              EXCEPT SELECT * FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(body, 4, 128) FROM jp_docs', t)) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM ndd_jaccard_pairs('SELECT id, body, CASE WHEN id % 2 = 0 THEN shingle_minhash(body, 4, 128) END FROM jp_docs', t)
                              EXCEPT SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_docs', t)) x) AS extra
FROM (VALUES (0.8::float8), (0.9)) v(t);
SELECT count(*) FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(body, 3, 256) FROM jp_docs', 0.8, 3, 256);
-- a sketch that is not the text's still gives exact values: only the candidates change
SELECT count(*) AS wrong_values FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(''same'', 4, 128) FROM jp_docs', 0.5) p
JOIN jp_docs x ON x.id = p.a JOIN jp_docs y ON y.id = p.b WHERE p.jaccard <> jaccard(x.body, y.body);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(body, 4, 64) FROM jp_docs', 0.8);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body, 42 FROM jp_docs', 0.8);
SELECT * FROM ndd_jaccard_pairs('SELECT id, body, ARRAY[1, NULL]::bigint[] FROM jp_docs', 0.8);

-- beyond maintenance_work_mem the call continues on disk: 60 documents of 3,000 words (about 3 MB
-- of shingle sets, three times 1MB) give the same pairs and values as in memory and as the brute
-- force, for resemblance and containment
SELECT setseed(0.57);
CREATE TABLE jp_big (id bigint, body text);
CREATE TEMP TABLE jp_big_words AS
SELECT d, pos, 'v' || floor(20000 * random())::int AS w FROM generate_series(1, 10) d, generate_series(1, 3000) pos;
CREATE TEMP TABLE jp_big_edits AS
SELECT d, pos, w, v, rate, random() AS r, random() AS x
FROM (SELECT * FROM jp_big_words JOIN (VALUES (0, 0.0), (1, 0.0), (2, 0.01), (3, 0.03), (4, 0.10)) e(v, rate) ON true
      ORDER BY d, v, pos) o;
INSERT INTO jp_big
SELECT d * 10 + v, string_agg(CASE WHEN r < rate THEN 'x' || floor(20000 * x)::int ELSE w END, ' ' ORDER BY pos)
FROM jp_big_edits
GROUP BY d, v;
INSERT INTO jp_big SELECT d * 10 + 5, string_agg(w, ' ' ORDER BY pos) FROM jp_big_words WHERE pos <= 2700 GROUP BY d;
CREATE TABLE jp_big_truth AS
SELECT x.id AS a, y.id AS b, jaccard(x.body, y.body) AS j, containment(x.body, y.body) AS c
FROM jp_big x JOIN jp_big y ON x.id <> y.id;
SET maintenance_work_mem = '64MB';
CREATE TABLE jp_big_mem AS SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_big', 0.8);
CREATE TABLE jp_big_cmem AS SELECT * FROM ndd_containment_pairs('SELECT id, body FROM jp_big', 0.8);
SET maintenance_work_mem = '1MB';
SET client_min_messages = debug1;  -- shows that the disk path was taken
CREATE TABLE jp_big_disk AS SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_big', 0.8);
CREATE TABLE jp_big_cdisk AS SELECT * FROM ndd_containment_pairs('SELECT id, body FROM jp_big', 0.8);
RESET client_min_messages;
SELECT (SELECT count(*) FROM jp_big_disk) AS found,
       (SELECT count(*) FROM jp_big_truth WHERE a < b AND j >= 0.8) AS truth,
       (SELECT count(*) FROM (SELECT a, b, j FROM jp_big_truth WHERE a < b AND j >= 0.8 EXCEPT SELECT * FROM jp_big_disk) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM jp_big_disk EXCEPT SELECT a, b, j FROM jp_big_truth WHERE a < b AND j >= 0.8) x) AS extra,
       (SELECT count(*) FROM ((SELECT * FROM jp_big_disk EXCEPT SELECT * FROM jp_big_mem)
                              UNION ALL (SELECT * FROM jp_big_mem EXCEPT SELECT * FROM jp_big_disk)) d) AS differ_from_memory;
SELECT (SELECT count(*) FROM jp_big_cdisk) AS found,
       (SELECT count(*) FROM jp_big_truth WHERE c >= 0.8) AS truth,
       (SELECT count(*) FROM (SELECT a, b, c FROM jp_big_truth WHERE c >= 0.8 EXCEPT SELECT * FROM jp_big_cdisk) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM jp_big_cdisk EXCEPT SELECT a, b, c FROM jp_big_truth WHERE c >= 0.8) x) AS extra,
       (SELECT count(*) FROM ((SELECT * FROM jp_big_cdisk EXCEPT SELECT * FROM jp_big_cmem)
                              UNION ALL (SELECT * FROM jp_big_cmem EXCEPT SELECT * FROM jp_big_cdisk)) d) AS differ_from_memory;
-- on disk: stored sketches, texts without words (containment 1 in every other), duplicate ids
SELECT count(*) AS differ FROM (
  (SELECT * FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(body, 4, 128) FROM jp_big', 0.8) EXCEPT SELECT * FROM jp_big_mem)
  UNION ALL (SELECT * FROM jp_big_mem EXCEPT SELECT * FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(body, 4, 128) FROM jp_big', 0.8))) d;
SELECT count(*), min(containment), max(containment)
FROM ndd_containment_pairs('SELECT id, body FROM jp_big UNION ALL SELECT 1, '''' UNION ALL SELECT 2, ''...''', 0.8) WHERE a < 10;
SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM jp_big UNION ALL SELECT 10, ''x''', 0.8);
RESET maintenance_work_mem;

DROP TABLE jp_words, jp_docs, jp_truth, jp_store, jp_index_pairs, jp_unique, jp_big, jp_big_truth, jp_big_mem,
  jp_big_cmem, jp_big_disk, jp_big_cdisk;
DROP FUNCTION jp_unique_insert();
