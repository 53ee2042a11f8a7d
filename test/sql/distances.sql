-- distances: the character edit distance (edit_distance, edit_similarity)
SET client_min_messages = warning;

-- Levenshtein and the insert/delete distance, over code points
SELECT edit_distance('kitten', 'sitting') AS levenshtein,
       edit_distance('kitten', 'sitting', substitution_cost => 2) AS insert_delete,
       edit_distance('', 'abc') AS from_empty, edit_distance('abc', '') AS to_empty,
       edit_distance('', '') AS both_empty, edit_distance('same', 'same') AS equal;
-- characters, not bytes: é is one character of two bytes, 語 one of three, 😀 one of four
SELECT edit_distance('café', 'cafe') AS accent, edit_distance('日本', '日本語') AS kanji,
       edit_distance('😀😀', '😀😁') AS emoji, edit_distance('aé', 'éa', NULL, 2) AS swap_indel;
-- case and punctuation count (no normalization, unlike the word measures)
SELECT edit_distance('The cat.', 'the cat') AS raw;

-- max: the distance when it is at most max, max + 1 otherwise
SELECT edit_distance('kitten', 'sitting', 3) AS at_max, edit_distance('kitten', 'sitting', 2) AS above_max,
       edit_distance('kitten', 'sitting', 0) AS zero_max, edit_distance('abc', 'abcdefgh', 4) AS by_lengths,
       edit_distance('kitten', 'sitting', 2147483647) AS huge_max;
-- every max against the exact distance, both costs
SELECT cost, bool_and(edit_distance(a, b, mx, cost) = least(edit_distance(a, b, NULL, cost), mx + 1)) AS all_agree
FROM (VALUES ('intention', 'execution'), ('a man a plan a canal', 'panama canal plans'), ('', 'xyz'),
             ('ααβγ', 'αβγδ')) AS p(a, b),
     generate_series(0, 25) AS mx, (VALUES (1), (2)) AS c(cost)
GROUP BY cost ORDER BY cost;

-- NULLs: a NULL text or cost gives NULL; a NULL max means no bound
SELECT edit_distance(NULL, 'x') IS NULL AS null_a, edit_distance('x', NULL) IS NULL AS null_b,
       edit_distance('x', 'y', 0, NULL) IS NULL AS null_cost, edit_distance('kitten', 'sitting', NULL) AS null_max;
SELECT edit_similarity(NULL, 'x') IS NULL AS null_a;

-- bad arguments
SELECT edit_distance('x', 'y', -1);
SELECT edit_distance('x', 'y', NULL, 0);
SELECT edit_distance('x', 'y', NULL, 3);
SELECT edit_similarity('x', 'y', 3);

-- edit_similarity: 1 - d / max(lengths) (cost 1), 1 - d / (sum of lengths) (cost 2)
SELECT round(edit_similarity('kitten', 'sitting')::numeric, 6) AS cost1,
       round(edit_similarity('kitten', 'sitting', 2)::numeric, 6) AS cost2,
       edit_similarity('', '') AS empty, edit_similarity('abc', 'xyz') AS nothing_shared,
       edit_similarity('é', 'é') AS equal;

-- long texts (no length limit): 100,000 characters, ten edits apart
CREATE TEMP TABLE long_pair AS
    SELECT a, overlay(overlay(a PLACING 'XY' FROM 5000 FOR 2) PLACING '' FROM 60000 FOR 8) AS b
    FROM (SELECT string_agg(md5(g::text), ' ') AS a FROM generate_series(1, 3031) g) s;
SELECT length(a) AS len_a, length(b) AS len_b, edit_distance(a, b) AS exact, edit_distance(a, b, 10) AS within,
       edit_distance(a, b, 5) AS above, edit_distance(a, b, NULL, 2) AS indel,
       edit_distance(a, reverse(a), 50) AS unrelated_capped
FROM long_pair;
-- beyond work_mem: refused before the work starts
SET work_mem = '64kB';
SELECT edit_distance(a, b) FROM long_pair;
-- long work answers a cancel: two unrelated texts of 400,000 characters without max would take
-- seconds (O(n m / 64)); with max the band stops at the first column past it
SET work_mem = '32MB';
SET statement_timeout = '300ms';
SELECT edit_distance(repeat('abc ', 100000), repeat('xyz ', 100000));
RESET statement_timeout;
SELECT edit_distance(repeat('abc ', 100000), repeat('xyz ', 100000), 1000) AS capped;
RESET work_mem;

-- simhash_cosine: Charikar's estimate cos(pi d / f) from the Hamming distance d of f-bit simhashes
SELECT simhash_cosine('0'::simhash64, '0'::simhash64) AS same,
       simhash_cosine('0'::simhash64, 'ffffffff'::simhash64) AS orthogonal,
       simhash_cosine('0'::simhash64, 'ffffffffffffffff'::simhash64) AS opposite,
       round(simhash_cosine('0'::simhash64, '7'::simhash64)::numeric, 12) AS three_bits,
       round(cos(pi() * 3 / 64)::numeric, 12) AS cos_3pi_64;
SELECT simhash_cosine('0'::fp128, '0'::fp128) AS same,
       simhash_cosine('0'::fp128, 'ffffffffffffffff'::fp128) AS orthogonal,
       simhash_cosine('0'::fp128, 'ffffffffffffffffffffffffffffffff'::fp128) AS opposite,
       round(simhash_cosine('0'::fp128, '7'::fp128)::numeric, 12) AS three_bits,
       round(cos(pi() * 3 / 128)::numeric, 12) AS cos_3pi_128,
       simhash_cosine(NULL::fp128, '0'::fp128) IS NULL AS null_in;
-- the same as the formula at every distance (x: the d low bits set)
SELECT bool_and(abs(simhash_cosine('0'::simhash64, x) - cos(pi() * (x <~> '0'::simhash64)::int / 64)) < 1e-15) AS formula,
       count(DISTINCT (x <~> '0'::simhash64)::int) AS distances
FROM (SELECT ((1::bigint << d) - 1)::simhash64 AS x FROM generate_series(0, 62) d
      UNION ALL SELECT (-1)::bigint::simhash64) s;
-- text simhashes of near-duplicates estimate a cosine near 1
SELECT simhash_cosine(simhash('a b c d e f g h'), simhash('a b c d e f g x')) > 0.5 AS near_texts_near;

-- cosine: the exact cosine of term-frequency vectors (jaccard's tokens and shingles, repeats counted)
SELECT cosine('a a b', 'a b b') AS tf, jaccard('a a b', 'a b b', 1) AS jaccard_sets,
       cosine('The cat sat.', 'the CAT sat') AS normalized, cosine('x y', 'z w') AS disjoint,
       cosine('a b c', 'a b d', 2) AS bigrams, cosine('a b', 'a b', 5) AS short_texts,
       cosine('', '!!') AS no_words, cosine('', 'word') AS one_empty;
SELECT round(cosine('日本語のテキスト', '日本語の文章', tokenizer => 'unicode')::numeric, 12) AS unicode_tokens,
       cosine('日本語のテキスト', '日本語の文章') AS words_tokens;
SELECT cosine(NULL, 'x') IS NULL AS null_in, cosine('x', 'y', NULL) IS NULL AS null_shingle;
SELECT cosine('x', 'y', 0);
SELECT cosine('x', 'y', 257);
SELECT cosine('x', 'y', 1, 'nope');
-- long texts with many distinct words, beyond work_mem: refused before the work starts
SET work_mem = '64kB';
SELECT cosine(string_agg(g::text, ' '), string_agg(g::text, ' ')) FROM generate_series(1, 20000) g;
RESET work_mem;
SELECT cosine(string_agg(g::text, ' '), string_agg((g % 1000)::text, ' ')) > 0 AS large_texts FROM generate_series(1, 20000) g;

-- cosine_idf: words weighted by the smoothed IDF 1 + ln((1 + ndocs) / (1 + df)) of a collection,
-- read with the caller's privileges (the checks of ndd_filter_low_idf)
CREATE ROLE regress_cos_owner;
CREATE ROLE regress_cos_other;
GRANT INSERT, UPDATE, DELETE ON ndd_collection, ndd_df TO regress_cos_owner;
SET ROLE regress_cos_owner;
SELECT ndd_df_collect('cos', $$VALUES (1, 'the cat sat'), (2, 'the dog sat'), (3, 'the end')$$) AS ndocs;
-- the same as the formula written out: the (3 docs) and sat (2) weigh less than cat and dog (1)
SELECT round(cosine_idf('the cat sat', 'the dog sat', 'cos')::numeric, 12) AS idf_weighted,
       round(((1 + ln(4.0 / 4)) ^ 2 + (1 + ln(4.0 / 3)) ^ 2)
             / (2 * (1 + ln(4.0 / 2)) ^ 2 + 2 * (1 + ln(4.0 / 3)) ^ 2 + 2 * (1 + ln(4.0 / 4)) ^ 2) * 2, 12) AS by_hand,
       round(cosine('the cat sat', 'the dog sat')::numeric, 12) AS unweighted;
SELECT cosine_idf('', '!', 'cos') AS no_words, cosine_idf('cat', '', 'cos') AS one_empty,
       cosine_idf('unseen words', 'UNSEEN, words', 'cos') AS unseen_equal, cosine_idf(NULL, 'x', 'cos') IS NULL AS null_in;
RESET ROLE;
SET ROLE regress_cos_other;
\set VERBOSITY sqlstate
SELECT cosine_idf('the cat', 'the dog', 'cos');
SELECT cosine_idf('the cat', 'the dog', 'no such collection');
\set VERBOSITY default
RESET ROLE;
SET ROLE regress_cos_owner;
SELECT ndd_collection_grant('cos', 'regress_cos_other');
RESET ROLE;
SET ROLE regress_cos_other;
SELECT round(cosine_idf('the cat sat', 'the dog sat', 'cos')::numeric, 12) AS after_grant;
RESET ROLE;
DELETE FROM ndd_df WHERE collection = 'cos';
DELETE FROM ndd_collection WHERE name = 'cos';
REVOKE ALL ON ndd_collection, ndd_df FROM regress_cos_owner;
DROP ROLE regress_cos_owner;
DROP ROLE regress_cos_other;

-- catalog: immutable (cosine_idf: stable, it reads a table), parallel safe, documented; edit_distance is
-- not strict (NULL max = no bound)
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel, p.proisstrict,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS documented
FROM pg_proc p
WHERE p.proname IN ('edit_distance', 'edit_similarity', 'simhash_cosine', 'cosine', 'cosine_idf')
ORDER BY p.oid::regprocedure::text;
