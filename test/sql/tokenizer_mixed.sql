-- Tokenizer 'unicode' through SQL: mixed scripts, the tokenizer argument of every function that
-- tokenizes (positional and named), the existing call forms (which must still resolve), bad
-- names, generated columns and index expressions, and the recorded tokenizer versions.
SET extra_float_digits = 0;

-- mixed scripts in one text
SELECT ndd_tokens('ndd 是一个 PostgreSQL 扩展：近似重复文档检测。東京タワー 서울 ภาษาไทย snake_case x86_64', 'unicode');
SELECT ndd_tokens('ndd 是一个 PostgreSQL 扩展：近似重复文档检测。東京タワー 서울 ภาษาไทย snake_case x86_64');
-- on ASCII text the two tokenizers agree
SELECT ndd_tokens('The quick brown fox, don''t x86_64 3.14', 'unicode') = ndd_tokens('The quick brown fox, don''t x86_64 3.14') AS same;

-- every function that tokenizes, with 'words' spelled out: the same as the defaults
WITH d(a, b) AS (VALUES ('東京は日本の首都です。北京は中国の首都です。', '東京は日本の首都です。北京は中国の都です。'))
SELECT simhash(a) = simhash(a, 'words') AS simhash,
       simhash(a, 4) = simhash(a, 4, 'words') AS simhash4,
       simhash_chars(a) = simhash_chars(a, 4, 'words') AS chars,
       shingle_minhash(a) = shingle_minhash(a, 4, 84, 'words') AS minhash,
       word_list_fingerprints(a) = word_list_fingerprints(a, 4, 'words') AS lists,
       content_hash(a) = content_hash(a, 'words') AS content,
       jaccard(a, b) = jaccard(a, b, 4, 'words') AS jaccard,
       containment(a, b) = containment(a, b, 4, 'words') AS containment,
       word_edit_distance(a, b) = word_edit_distance(a, b, 1, 'words') AS edits,
       ndd_tokens(a) = ndd_tokens(a, 'words') AS tokens,
       ndd_filter(a) = ndd_filter(a, true, NULL, 'words') AS filter
FROM d;

-- and with 'unicode', in named notation
WITH d(a, b) AS (VALUES ('東京は日本の首都です。北京は中国の首都です。', '東京は日本の首都です。北京は中国の都です。'))
SELECT simhash(a, tokenizer => 'unicode') <> simhash(a) AS simhash,
       simhash(a, 4, tokenizer => 'unicode') <~> simhash(b, 4, tokenizer => 'unicode') AS simhash4_bits,
       simhash_chars(a, tokenizer => 'unicode') = simhash_chars(a, 4, 'unicode') AS chars,
       cardinality(shingle_minhash(a, hashes => 16, tokenizer => 'unicode')) AS minhash,
       cardinality(word_list_fingerprints(a, lists => 8, tokenizer => 'unicode')) AS lists,
       content_hash(a, tokenizer => 'unicode') = content_hash('東京 は日本の首都です北京は中国の首都です', tokenizer => 'unicode') AS content,
       round(jaccard(a, b, tokenizer => 'unicode')::numeric, 3) AS jaccard,
       round(jaccard(a, b)::numeric, 3) AS jaccard_words,
       round(containment(a, b, shingle => 2, tokenizer => 'unicode')::numeric, 3) AS containment,
       word_edit_distance(a, b, tokenizer => 'unicode') AS edits,
       word_edit_distance(a, b) AS edits_words,
       ndd_filter(a, tokenizer => 'unicode') AS filter
FROM d;

-- the call forms of 0.1 still resolve to one function each
SELECT simhash('a b c') = simhash('a b c'::text) AS literal, simhash('a b c', 2) <> simhash('a b c') AS shingles,
       simhash(ARRAY['a', 'b']) IS NOT NULL AS features, simhash(to_tsvector('simple', 'a b')) IS NOT NULL AS tsvector;
SELECT shingle_minhash('a b c', 2) = shingle_minhash('a b c', 2, 84) AS minhash, jaccard('a b', 'a b', 1) AS j1,
       ndd_filter('a 1 b', false) AS filter_numbers, ndd_filter('the fox', true, 'english') AS filter_stopwords;

-- unknown tokenizers: 22023, naming the tokenizer
\set VERBOSITY default
SELECT simhash('a', 'Unicode');
SELECT jaccard('a', 'b', tokenizer => 'icu');
SELECT ndd_tokens('a', '');
SELECT * FROM ndd_jaccard_pairs('SELECT 1, ''a''', 0.8, tokenizer => 'chars');
SELECT ndd_tokenizer_version('nope');
-- NULL: strict functions return NULL, ndd_filter reads it as 'words'
SELECT simhash('a b', NULL::text) IS NULL AS strict_null, ndd_filter('A b', true, NULL, NULL) AS filter_null;

-- IMMUTABLE: in generated columns and index expressions
CREATE TEMP TABLE docs (id int PRIMARY KEY, body text,
                        fp simhash64 GENERATED ALWAYS AS (simhash(body, tokenizer => 'unicode')) STORED,
                        sketch bigint[] GENERATED ALWAYS AS (shingle_minhash(body, 4, 128, 'unicode')) STORED);
INSERT INTO docs (id, body) VALUES
  (1, '北京大学是中国最古老的大学之一，成立于1898年，位于北京市海淀区，校园里有未名湖和博雅塔。'),
  (2, '北京大学是中国最古老的大学之一，成立于1898年，位于北京市海淀區，校园里有未名湖和博雅塔。'),
  (3, '東京は日本の首都です。コンピューターのディレクトリを一覧表示します。');
CREATE INDEX docs_hash ON docs (content_hash(body, 'unicode'));
CREATE INDEX docs_bands ON docs USING gin (ndd_jaccard_bands(sketch, 0.8));
SELECT a.id, b.id, a.fp <~> b.fp AS bits FROM docs a JOIN docs b ON a.id < b.id ORDER BY 1, 2;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE content_hash(body, 'unicode') = content_hash('x', 'unicode');
SELECT id FROM docs WHERE content_hash(body, 'unicode') = content_hash('北京大学是中国最古老的大学之一 成立于1898年 位于北京市海淀区 校园里有未名湖和博雅塔', 'unicode');
-- the band keys of the index lookup: near-duplicates of a new text through the GIN index, then the exact check
SELECT id, round(jaccard(body, '北京大学是中国最古老的大学之一、成立于1898年、位于北京市海淀区、校园里有未名湖和博雅塔。', tokenizer => 'unicode')::numeric, 3) AS j
FROM docs
WHERE ndd_jaccard_bands(sketch, 0.8) && ndd_jaccard_bands(shingle_minhash('北京大学是中国最古老的大学之一、成立于1898年、位于北京市海淀区、校园里有未名湖和博雅塔。', 4, 128, 'unicode'), 0.8)
  AND jaccard(body, '北京大学是中国最古老的大学之一、成立于1898年、位于北京市海淀区、校园里有未名湖和博雅塔。', tokenizer => 'unicode') >= 0.8
ORDER BY id;
RESET enable_seqscan;

-- verification of pairs and clusters with the tokenizer
SELECT a, b, round(jaccard::numeric, 3) AS jaccard, round(a_in_b::numeric, 3) AS a_in_b, word_edit_distance,
       round(edit_similarity::numeric, 3) AS edit_similarity
FROM ndd_verify('VALUES (1, 2), (1, 3)', 'SELECT id, body FROM docs', tokenizer => 'unicode');
SELECT a, b, round(jaccard::numeric, 3) AS jaccard, word_edit_distance FROM ndd_verify('VALUES (1, 2), (1, 3)', 'SELECT id, body FROM docs');
SELECT cluster_id, size, a, b, round(jaccard::numeric, 3) AS jaccard, word_edit_distance
FROM ndd_cluster_worst_pairs('VALUES (1, 1), (2, 1), (3, 1)', 'SELECT id, body FROM docs', 2, 'unicode');
SELECT * FROM ndd_verify('VALUES (1, 2)', 'SELECT id, body FROM docs', tokenizer => 'nope');

-- every function with a tokenizer argument takes it last, named tokenizer, default 'words', and is
-- immutable unless it runs queries
SELECT p.oid::regprocedure AS function, p.provolatile,
       (p.proargnames)[p.pronargs] = 'tokenizer' AND pg_get_function_arguments(p.oid) LIKE '%tokenizer text DEFAULT ''words''::text%' AS last_argument
FROM pg_proc p
WHERE p.pronamespace = 'public'::regnamespace AND 'tokenizer' = ANY (p.proargnames) AND p.proname NOT LIKE 'ndd\_tokenizer\_%' AND p.proname NOT LIKE '%\_job'
ORDER BY 1::text;

-- tokenizer versions: recorded at CREATE EXTENSION; a mismatch warns until refreshed
SELECT tokenizer, recorded_version = current_version AS same FROM ndd_tokenizer_check();
SELECT ndd_tokenizer_version('words') NOT LIKE '%icu%' AS words_without_icu, ndd_tokenizer_version('unicode') LIKE '%/icu-%/unicode-%' AS unicode_with_icu;
UPDATE ndd_tokenizer_versions SET version = 'ndd-1/unicode-14.0.0/icu-71.1/unicode-14.0' WHERE tokenizer = 'unicode';
SELECT tokenizer, recorded_version, recorded_version = current_version AS same FROM ndd_tokenizer_check();
-- and the first use of 'unicode' in a session warns by itself, once
\c
SELECT ndd_tokens('ภาษาไทย', 'unicode');
SELECT ndd_tokens('ภาษาไทย', tokenizer => 'unicode');
SELECT ndd_tokenizer_refresh_version('unicode') = ndd_tokenizer_version('unicode') AS refreshed;
SELECT tokenizer, recorded_version = current_version AS same FROM ndd_tokenizer_check();

-- the labelling trigger tokenizes nothing itself: it evaluates the fingerprint column's generation
-- expression, so the tokenizer is chosen there, and labelling follows it
CREATE TABLE tm_labelled (id bigserial PRIMARY KEY, body text,
                          fp simhash64 GENERATED ALWAYS AS (simhash(body, tokenizer => 'unicode')) STORED,
                          cluster_id bigint);
CREATE INDEX ON tm_labelled USING ndd (fp);
CREATE TRIGGER label BEFORE INSERT ON tm_labelled FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp', 'cluster_id', '4');
INSERT INTO tm_labelled (body) VALUES
  ('北京大学是中国最古老的大学之一，成立于1898年，位于北京市海淀区，校园里有未名湖和博雅塔。'),
  ('東京は日本の首都です。コンピューターのディレクトリを一覧表示します。'),
  ('北京大学是中国最古老的大学之一，成立于1898年，位于北京市海淀區，校园里有未名湖和博雅塔。');
SELECT id, cluster_id, simhash(body) <~> (SELECT simhash(body) FROM tm_labelled WHERE id = 1) AS words_bits_from_1
FROM tm_labelled ORDER BY id;
DROP TABLE tm_labelled;
