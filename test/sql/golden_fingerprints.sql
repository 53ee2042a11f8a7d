-- Golden vectors: the exact output of every fingerprint and similarity function on fixed inputs.
--
-- THE EXPECTED OUTPUTS OF THIS TEST ARE FROZEN FOREVER. Users store fingerprints and compare them
-- with fingerprints computed by later releases; a fingerprint that changed under them would
-- silently stop matching (OpenSearch changed its minhash output across an upgrade and broke its
-- users' deduplication). If a fingerprint must ever change, it gets a new function name or a
-- version parameter, and this file gains its vectors; the old name keeps its old output. Never
-- edit test/expected/golden_fingerprints.out to make a change pass.
--
-- Inputs: ASCII, Latin with diacritics and case folding (including the special cases: German
-- sharp s, dotted capital I, final sigma), non-Latin scripts (Cyrillic, Greek, Arabic, Devanagari,
-- CJK), digits of other scripts, emoji, empty, whitespace-only, punctuation-only, one word, and a
-- long document generated in SQL. Every parameter at its edges. Outputs longer than a line are
-- recorded as md5 of their text form.
SET extra_float_digits = 1;

CREATE TEMP TABLE golden (name text PRIMARY KEY, doc text NOT NULL);
INSERT INTO golden VALUES
  ('ascii',       'The quick brown fox jumps over the lazy dog. The quick brown fox jumps again!'),
  ('ascii_edit',  'The quick brown fox jumped over the lazy dog. The quick brown fox jumps again!'),
  ('latin',       'Ærøskøbing: STRASSE und Straße, ÉCOLE naïve café; İstanbul, ΣΊΣΥΦΟΣ ΟΔΟΣ'),
  ('cyrillic',    'Съешь же ещё этих мягких французских булок, да выпей же чаю'),
  ('arabic',      'اللغة العربية جميلة جدا، والكتابة من اليمين إلى اليسار'),
  ('devanagari',  'नमस्ते दुनिया, यह एक परीक्षण है १२३'),
  ('cjk',         '東京は日本の首都です。北京は中国の首都です。서울은 한국의 수도입니다'),
  ('mixed',       'snake_case x86_64 v1.2.3 ٤٥٦ 😀 e-mail co-op 3.14159'),
  ('one_word',    'Word'),
  ('punctuation', '...!!! ??? --- ___ ***'),
  ('whitespace',  E' \t\n\r  \u00a0\u2003 '),
  ('empty',       ''),
  -- 60,000 words over a 4,096-word vocabulary in md5 order (not periodic), a sentence every 13
  ('long',        (SELECT string_agg('w' || substr(md5(g::text), 1, 3) || CASE WHEN g % 13 = 0 THEN '. ' ELSE ' ' END, '' ORDER BY g)
                   FROM generate_series(1, 60000) g));

-- the inputs themselves, so that a changed input is told apart from a changed fingerprint
SELECT name, octet_length(doc) AS bytes, md5(doc) FROM golden ORDER BY name;

-- tokens: the normalisation every word-level function starts from
SELECT name, CASE WHEN cardinality(ndd_tokens(doc)) <= 12 THEN ndd_tokens(doc)::text
                  ELSE cardinality(ndd_tokens(doc)) || ' tokens, md5 ' || md5(ndd_tokens(doc)::text) END AS tokens
FROM golden ORDER BY name;

-- simhash of text: default, and word shingles 1, 4 (the default), 256
SELECT name, simhash(doc) AS default, simhash(doc, 1) AS s1, simhash(doc, 4) AS s4, simhash(doc, 256) AS s256
FROM golden ORDER BY name;

-- simhash of a tsvector (lexemes, positions, weights)
SELECT name, simhash(to_tsvector('simple', doc)) AS simple, simhash(to_tsvector('simple', doc), 1) AS s1,
       simhash(to_tsvector('simple', doc), 256) AS s256
FROM golden ORDER BY name;
SELECT simhash('fox:1A quick:2B brown:3C,7 the:4,5D'::tsvector) AS weighted,
       simhash('fox quick brown the'::tsvector) AS no_positions,
       simhash(''::tsvector) AS empty;

-- simhash of features with weights
SELECT simhash(ARRAY['alpha', 'beta', 'gamma']) AS unweighted,
       simhash(ARRAY['alpha', 'beta', 'gamma'], NULL) AS null_weights,
       simhash(ARRAY['alpha', 'beta', 'gamma'], ARRAY[1, 2, 0.5]) AS weighted,
       simhash(ARRAY['alpha', 'beta', 'gamma'], ARRAY[-1, 0, 1e300]) AS extreme_weights,
       simhash(ARRAY['Ærø', '東京', '', 'alpha']) AS unicode_and_empty,
       simhash(ARRAY[]::text[]) AS no_features;
SELECT name, simhash(ndd_tokens(doc)) AS tokens_as_features FROM golden ORDER BY name;

-- character n-gram simhash: default (4), 1, 256
SELECT name, simhash_chars(doc) AS default, simhash_chars(doc, 1) AS n1, simhash_chars(doc, 256) AS n256
FROM golden ORDER BY name;

-- minhash sketches: default (4-shingles, 84 hashes), shingle 1 and 256, hashes 1 and 1024
SELECT name, md5(shingle_minhash(doc)::text) AS default, shingle_minhash(doc, 4, 1) AS h1,
       md5(shingle_minhash(doc, 1, 84)::text) AS s1, md5(shingle_minhash(doc, 256, 84)::text) AS s256,
       md5(shingle_minhash(doc, 4, 1024)::text) AS h1024
FROM golden ORDER BY name;
SELECT shingle_minhash('The quick brown fox jumps over the lazy dog', 4, 8) AS short_sketch;

-- supershingles: default (6 groups of 84), 1 group, every hash its own group, 1024 -> 8
SELECT name, supershingles(shingle_minhash(doc)) AS default, supershingles(shingle_minhash(doc), 1) AS g1,
       md5(supershingles(shingle_minhash(doc), 84)::text) AS g84,
       supershingles(shingle_minhash(doc, 4, 1024), 8) AS g8_of_1024
FROM golden ORDER BY name;

-- minhash similarity and shared features, between neighbours in name order and with themselves
SELECT a.name, b.name AS other,
       minhash_similarity(shingle_minhash(a.doc), shingle_minhash(b.doc)) AS h84,
       minhash_similarity(shingle_minhash(a.doc, 4, 1), shingle_minhash(b.doc, 4, 1)) AS h1,
       minhash_similarity(shingle_minhash(a.doc, 1, 1024), shingle_minhash(b.doc, 1, 1024)) AS h1024,
       features_shared(supershingles(shingle_minhash(a.doc)), supershingles(shingle_minhash(b.doc))) AS shared
FROM golden a JOIN golden b ON b.name = 'ascii' OR b.name = a.name
ORDER BY a.name, b.name;

-- the bit-flip fingerprint: default (window 64, 128 samples), window 1 and 65536, samples 1 and 65536
SELECT name, bitflip_fp(doc) AS default, bitflip_fp(doc, 1) AS w1, bitflip_fp(doc, 65536) AS w65536,
       bitflip_fp(doc, 64, 1) AS samples1, bitflip_fp(doc, 64, 65536) AS samples65536
FROM golden ORDER BY name;

-- word-list fingerprints: default (4 lists), 1 list, 256 lists
SELECT name, word_list_fingerprints(doc) AS default, word_list_fingerprints(doc, 1) AS l1,
       md5(word_list_fingerprints(doc, 256)::text) AS l256
FROM golden ORDER BY name;

-- the exact-duplicate key
SELECT name, content_hash(doc) FROM golden ORDER BY name;
SELECT content_hash('Hello,   WORLD!') = content_hash('hello world') AS normalised_equal;

-- exact similarity against the ASCII sentence and the long document: shingle 1, 4 (default), 256
SELECT a.name, b.name AS other,
       jaccard(a.doc, b.doc) AS j4, jaccard(a.doc, b.doc, 1) AS j1, jaccard(a.doc, b.doc, 256) AS j256,
       containment(a.doc, b.doc) AS c4, containment(a.doc, b.doc, 1) AS c1, containment(a.doc, b.doc, 256) AS c256
FROM golden a JOIN golden b ON b.name IN ('ascii', 'long')
ORDER BY a.name, b.name;

-- word edit distance: Levenshtein (substitution 1, the default) and insert/delete (substitution 2)
SELECT a.name, b.name AS other, word_edit_distance(a.doc, b.doc) AS lev,
       word_edit_distance(a.doc, b.doc, 1) AS sub1, word_edit_distance(a.doc, b.doc, 2) AS sub2
FROM golden a JOIN golden b ON b.name IN ('ascii', 'latin')
WHERE a.name <> 'long'
ORDER BY a.name, b.name;
-- the long document against itself with every "w123" replaced and every "wabc" removed
SELECT word_edit_distance(doc, edited) AS long_lev, word_edit_distance(doc, edited, 2) AS long_indel,
       jaccard(doc, edited) AS long_j4, containment(edited, doc) AS long_c4
FROM (SELECT doc, replace(replace(doc, 'w123 ', 'x123 '), 'wabc ', '') AS edited FROM golden WHERE name = 'long') s;

-- documents without tokens
SELECT jaccard('', '') AS j_empty, jaccard('...', '') AS j_no_tokens, containment('', '') AS c_empty,
       word_edit_distance('', '') AS e_empty, minhash_similarity(shingle_minhash(''), shingle_minhash('!')) AS m_no_tokens;
