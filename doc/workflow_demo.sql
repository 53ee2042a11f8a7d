-- doc/workflow_demo.sql: the main job end to end on real documents. Expects
-- corpus_docs(id text, corpus text, source text, path text, body text) loaded with
-- ../shared/corpus/tools/to_copy_tsv.py; prints the near-duplicate clusters found, each with its
-- worst pair's exact similarity, worst first.
\set ON_ERROR_STOP on
ALTER TABLE corpus_docs ADD COLUMN IF NOT EXISTS n bigserial;
CREATE UNIQUE INDEX IF NOT EXISTS corpus_docs_n ON corpus_docs (n);

-- 1. fingerprints (simhash of the words, the recommended default: see the quality table)
CREATE TEMP TABLE demo_fp AS SELECT n AS id, simhash(body) AS fp FROM corpus_docs;

-- 2. all near-duplicate pairs in one call (Manku's batch mode), then conservative clusters in
--    document order: every member is a near-duplicate of its cluster's representative
CREATE TEMP TABLE demo_clusters AS
  SELECT * FROM ndd_clusters($$SELECT a, b FROM ndd_pairs('SELECT id, fp FROM demo_fp', DEMO_K)$$,
                             conservative => true, order_sql => 'SELECT n FROM corpus_docs ORDER BY n');

-- 3. how sure are we? each cluster's worst pair, by exact Jaccard and word edit distance
\echo
\echo Near-duplicate clusters (conservative, simhash words, k = DEMO_K), worst pair first:
SELECT w.size AS members, r.title AS representative, round(w.jaccard::numeric, 3) AS worst_jaccard,
       round(w.edit_similarity::numeric, 3) AS worst_edit_similarity, x.id AS worst_a, y.id AS worst_b
FROM ndd_cluster_worst_pairs('SELECT id, cluster_id FROM demo_clusters',
                             'SELECT n, body FROM corpus_docs') AS w
JOIN corpus_docs x ON x.n = w.a JOIN corpus_docs y ON y.n = w.b
CROSS JOIN LATERAL (SELECT left(c.path, 60) AS title FROM corpus_docs c WHERE c.n = w.cluster_id) AS r
ORDER BY w.jaccard, w.size DESC
LIMIT 25;

SELECT count(*) AS documents, count(*) FILTER (WHERE representative) AS after_hiding_near_duplicates,
       count(*) FILTER (WHERE NOT representative) AS hidden
FROM demo_clusters;
