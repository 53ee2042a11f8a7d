-- Included by test/sql/tokenizer_<script>.sql, after they fill t (id, body) with a real paragraph
-- (1), a lightly edited copy of it (2) and another page (3): tokens, similarity and the exact pairs
-- under 'words' and 'unicode'.
SELECT tok, cardinality(ndd_tokens(body, tok)) AS tokens, id
FROM t, unnest(ARRAY['words', 'unicode']) AS tok ORDER BY tok, id;

-- the copy: unicode sees it as the near-duplicate it is; the other page stays apart
SELECT tok, round(jaccard(a.body, b.body, tokenizer => tok)::numeric, 3) AS j4,
       round(containment(a.body, b.body, 2, tok)::numeric, 3) AS c2,
       word_edit_distance(a.body, b.body, tokenizer => tok) AS edits,
       simhash(a.body, tok) <~> simhash(b.body, tok) AS words_bits,
       b.id AS other
FROM t a JOIN t b ON a.id = 1 AND b.id > 1, unnest(ARRAY['words', 'unicode']) AS tok
ORDER BY tok, b.id;

-- the exact pairs at J >= 0.8, with the tokenizer given by name
SELECT 'words' AS tok, * FROM ndd_jaccard_pairs('SELECT id, body FROM t', 0.8);
SELECT 'unicode' AS tok, a, b, round(jaccard::numeric, 3) FROM ndd_jaccard_pairs('SELECT id, body FROM t', 0.8, tokenizer => 'unicode');
SELECT 'unicode' AS tok, a, b, round(containment::numeric, 3) FROM ndd_containment_pairs('SELECT id, body FROM t', 0.8, tokenizer => 'unicode') ORDER BY a, b;
-- the same answer from stored sketches (the third column): the sketch must use the same tokenizer
SELECT a, b FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(body, 4, 128, ''unicode'') FROM t', 0.8, 4, 128, 'unicode');
