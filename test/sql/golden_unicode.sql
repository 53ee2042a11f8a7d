-- Golden vectors of the tokenizer 'unicode': the exact output of every function that tokenizes,
-- with tokenizer => 'unicode', on fixed inputs in the scripts it exists for.
--
-- THE EXPECTED OUTPUTS OF THIS TEST ARE FROZEN, like those of golden_fingerprints.sql ('words'):
-- never edit test/expected/golden_unicode.out to make a change pass. They are the outputs with
-- ICU 72.1 (Unicode 15.0, Debian 12), printed first: a word-break rule or dictionary of another
-- ICU can cut Thai, Lao, Khmer or Myanmar differently, which is what ndd_tokenizer_check() warns
-- about (doc/tokenizers.md). Ideographs, kana and Hangul are single-character tokens, which no
-- ICU dictionary decides.
SET extra_float_digits = 1;

SELECT ndd_tokenizer_version('unicode');

CREATE TEMP TABLE golden (name text PRIMARY KEY, doc text NOT NULL);
INSERT INTO golden VALUES
  ('chinese',   '我们今天去北京大学参观。北京大学是中国最古老的大学之一，成立于1898年。'),
  ('japanese',  '東京は日本の首都です。コンピューターのディレクトリを一覧表示します（ls コマンド）。'),
  ('korean',    '각 설명서 페이지에는 페이지 안에 간단한 설명이 있습니다. apropos은 검색어처럼 설명을 검색합니다.'),
  ('thai',      'ภาษาไทยง่ายนิดเดียว แพกเกจนี้ยังไม่ได้ติดตั้ง กำลังจะถูกติดตั้งแล้ว'),
  ('lao_khmer', 'ພາສາລາວ ភាសាខ្មែរ မြန်မာဘာသာ'),
  ('latin',     'Ærøskøbing: STRASSE und Straße, ÉCOLE naïve café; İstanbul, ΣΊΣΥΦΟΣ ΟΔΟΣ x² 3.14 don''t'),
  ('mixed',     'ndd 是一个 PostgreSQL 扩展：近似重复文档检测。東京タワー 서울 ภาษาไทย snake_case'),
  ('empty',     ''),
  ('long',      (SELECT string_agg(substr('我们今天去北京大学参观東京は日本の首都ですภาษาไทย한국어', 1 + g % 29, 1 + g % 5)
                                   || CASE WHEN g % 11 = 0 THEN '。' ELSE '' END, '' ORDER BY g)
                 FROM generate_series(1, 20000) g));

SELECT name, octet_length(doc) AS bytes, md5(doc) FROM golden ORDER BY name;

-- tokens
SELECT name, CASE WHEN cardinality(ndd_tokens(doc, 'unicode')) <= 40 THEN ndd_tokens(doc, 'unicode')::text
                  ELSE cardinality(ndd_tokens(doc, 'unicode')) || ' tokens, md5 '
                       || md5(ndd_tokens(doc, 'unicode')::text) END AS tokens
FROM golden ORDER BY name;

-- simhash: words, word shingles 1, 4 and 256; character n-grams 2 and 4
SELECT name, simhash(doc, 'unicode') AS words, simhash(doc, 1, 'unicode') AS s1, simhash(doc, 4, 'unicode') AS s4,
       simhash(doc, 256, 'unicode') AS s256, simhash_chars(doc, 2, 'unicode') AS c2, simhash_chars(doc, tokenizer => 'unicode') AS c4
FROM golden ORDER BY name;

-- minhash sketches (md5 of the text form) and supershingles of the default sketch
SELECT name, md5(shingle_minhash(doc, tokenizer => 'unicode')::text) AS default_sketch,
       md5(shingle_minhash(doc, 1, 16, 'unicode')::text) AS k1_16,
       supershingles(shingle_minhash(doc, tokenizer => 'unicode'))::text AS supershingles
FROM golden ORDER BY name;

-- word lists, content hash, the filter
SELECT name, word_list_fingerprints(doc, tokenizer => 'unicode')::text AS lists4,
       content_hash(doc, 'unicode') AS content_hash,
       md5(ndd_filter(doc, true, NULL, 'unicode')) AS filtered
FROM golden ORDER BY name;

-- exact similarity between each input and the next one (and itself)
SELECT a.name, b.name AS other,
       jaccard(a.doc, b.doc, tokenizer => 'unicode') AS j4, jaccard(a.doc, b.doc, 1, 'unicode') AS j1,
       containment(a.doc, b.doc, tokenizer => 'unicode') AS c4,
       word_edit_distance(a.doc, b.doc, tokenizer => 'unicode') AS d1,
       word_edit_distance(a.doc, b.doc, 2, 'unicode') AS d2
FROM golden a JOIN golden b ON b.name = (SELECT min(name) FROM golden WHERE name > a.name) OR b.name = a.name
ORDER BY 1, 2;
