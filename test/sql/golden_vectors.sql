-- Golden outputs of the vector simhash (issue 28): stored fingerprints, so these values may never
-- change (a changed algorithm gets a new name). The inputs are exact decimal fractions (no libm).
SET client_min_messages = warning;
SELECT simhash('{1,-2,0.5,3.25}'::real[]) AS s64, simhash128('{1,-2,0.5,3.25}'::real[]) AS s128,
       simhash('{1,-2,0.5,3.25}'::float8[]) = simhash('{1,-2,0.5,3.25}'::real[]) AS float8_same;
SELECT d, simhash(v) AS s64, simhash128(v) AS s128
FROM (SELECT d, ARRAY(SELECT ((g * 7919 + d) % 1001 - 500)::real / 64 FROM generate_series(1, d) g) AS v
      FROM (VALUES (1), (2), (3), (64), (768), (1536), (16000)) AS t(d)) s
ORDER BY d;
-- the zero vector is on no side of any hyperplane; negation flips every bit of a generic vector
SELECT simhash('{0,0,0}'::real[]) AS zero,
       (SELECT (simhash(v) <~> simhash(ARRAY(SELECT -x FROM unnest(v) x)))::int FROM
          (SELECT ARRAY(SELECT ((g * 7919) % 1001 - 500)::real / 64 FROM generate_series(1, 768) g) AS v) s) AS negated_distance;

-- bad input
\set VERBOSITY sqlstate
SELECT simhash('{1,NULL,2}'::real[]);
SELECT simhash('{1,NaN}'::real[]);
SELECT simhash128('{1,Infinity}'::float8[]);
SELECT simhash('{}'::real[]);
SELECT simhash(array_fill(1::real, ARRAY[16001]));
SELECT cosine('{1,2}'::real[], '{1,2,3}'::real[]);
\set VERBOSITY default
SELECT simhash(NULL::real[]) IS NULL AS null_in, cosine('{0,0}'::real[], '{1,1}'::real[]) IS NULL AS zero_vector,
       cosine('{1,0}'::real[], '{1,1}'::real[]) AS c45, cosine('{1,2}'::float8[], '{-1,-2}'::float8[]) AS opposite,
       cosine('a b', 'a') AS text_still_text;

-- the ndd index answers radius and k-nearest queries on simhash(embedding); re-ranked by cosine
-- groups of four: a base vector and three near-duplicates (a small change to each component)
CREATE TABLE vec_docs (id int PRIMARY KEY, v real[]);
INSERT INTO vec_docs
SELECT i, ARRAY(SELECT ((hashint4(g * 100003 + i / 4) % 1000) + (i % 4) * (hashint4(g + i) % 50))::real / 64
                FROM generate_series(1, 96) g)
FROM generate_series(0, 1999) i;
CREATE INDEX vec_docs_sh ON vec_docs USING ndd (simhash(v));
CREATE TEMP TABLE q AS SELECT v FROM vec_docs WHERE id = 41;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM vec_docs d WHERE simhash(d.v) <~> '0'::simhash64 <= 12;
-- radius: the candidates within 12 bits, re-ranked by the exact cosine
SELECT id, simhash(d.v) <~> simhash(q.v) AS bits, round(cosine(d.v, q.v)::numeric, 4) AS cosine
FROM vec_docs d, q WHERE simhash(d.v) <~> simhash(q.v) <= 12 ORDER BY cosine(d.v, q.v) DESC, id;
-- k nearest by Hamming distance, then the exact cosine
SELECT id, round(cosine(d.v, q.v)::numeric, 4) AS cosine
FROM (SELECT d.id, d.v FROM vec_docs d, q ORDER BY simhash(d.v) <~> simhash(q.v), d.id LIMIT 4) d, q
ORDER BY cosine(d.v, q.v) DESC, id;
RESET enable_seqscan;
-- the same answer without the index
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT array_agg(id ORDER BY id) AS seq_scan FROM vec_docs d, q WHERE simhash(d.v) <~> simhash(q.v) <= 12;
RESET enable_indexscan;
RESET enable_bitmapscan;
DROP TABLE vec_docs;
