-- Verification: exact Jaccard, containment and word edit distance of pairs and of clusters.

CREATE TABLE wv_docs (id bigint, body text);
INSERT INTO wv_docs VALUES
  (1, 'The quick brown fox jumps over the lazy dog'),
  (2, 'the quick brown fox jumps over the lazy cat'),
  (3, 'the quick brown fox leaps over the lazy cat'),
  (4, 'Completely different text about databases and indexes'),
  (5, 'The quick brown fox jumps over the lazy dog and then runs far away into the woods'),
  (6, '');

-- 1-2: one word replaced at the end: 5 of 7 distinct 4-shingles shared, edit distance 1
-- 1-5: 5 contains 1 entirely; 1-99: 99 is not a document, so the measures are NULL
SELECT a, b, round(jaccard::numeric, 4) AS jaccard, round(a_in_b::numeric, 4) AS a_in_b,
       round(b_in_a::numeric, 4) AS b_in_a, word_edit_distance, round(edit_similarity::numeric, 4) AS edit_similarity
FROM ndd_verify('VALUES (1, 2), (2, 3), (1, 3), (1, 4), (1, 5), (1, 6), (1, 99)', 'SELECT id, body FROM wv_docs');
-- shingles of 2 words; pairs straight from another function (extra columns ignored)
SELECT a, b, round(jaccard::numeric, 4) AS jaccard
FROM ndd_verify('SELECT 1, 2, ''extra''', 'SELECT id, body FROM wv_docs', 2);

-- each cluster's worst pair, worst clusters first; clusters of one are left out
SELECT cluster_id, size, a, b, round(jaccard::numeric, 4) AS jaccard, word_edit_distance,
       round(edit_similarity::numeric, 4) AS edit_similarity
FROM ndd_cluster_worst_pairs('VALUES (1, 1), (2, 1), (3, 1), (5, 1), (4, 4), (6, 6)', 'SELECT id, body FROM wv_docs');
-- straight from ndd_clusters over a pair list
SELECT cluster_id, size, a, b
FROM ndd_cluster_worst_pairs(
  $$SELECT id, cluster_id FROM ndd_clusters('VALUES (1, 2), (2, 3)', true)$$, 'SELECT id, body FROM wv_docs');

-- errors
SELECT * FROM ndd_verify('VALUES (1)', 'SELECT id, body FROM wv_docs');
SELECT * FROM ndd_verify('VALUES (1, 2)', 'SELECT id FROM wv_docs');
SELECT * FROM ndd_verify('VALUES (1, 2)', 'SELECT id, id FROM wv_docs');
SELECT * FROM ndd_verify('VALUES (1, 2)', 'SELECT id, body FROM wv_docs', 0);
SELECT * FROM ndd_verify(NULL, 'SELECT id, body FROM wv_docs');
SELECT * FROM ndd_cluster_worst_pairs('SELECT 1', 'SELECT id, body FROM wv_docs');

-- docs_sql is read once (issue 20): a volatile query gives each document one text, so a document
-- paired with itself is identical to itself (jaccard 1, distance 0) and is there or missing on both
-- sides; reading docs_sql once per side compared two different readings. Seeded, so deterministic.
SELECT setseed(0.42);
SELECT count(*) AS pairs, count(*) FILTER (WHERE jaccard <> 1 OR word_edit_distance <> 0) AS inconsistent
FROM ndd_verify('SELECT id, id FROM wv_docs WHERE id < 6',
                $$SELECT id, body || CASE WHEN random() < 0.5 THEN ' zebra yak xenon' ELSE '' END FROM wv_docs$$);
