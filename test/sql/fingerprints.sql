-- The fingerprint functions: every name and signature, NULLs, every parameter error, empty and
-- large texts. Fixed hex values pin the seeds: a change there changes every stored fingerprint.

-- ndd_tokens: what the word-level functions see
SELECT ndd_tokens('Hello, World! foo_bar 42x can''t');
SELECT ndd_tokens('Straße ÉCOLE naïve İstanbul ΟΔΟΣ Α.Σ. x² ½ 日本語');
SELECT ndd_tokens(''), ndd_tokens(' -- _ -- '), ndd_tokens(NULL);
-- the array is written in place: the same bytes as an array built element by element
SELECT array_send(t) = array_send(ARRAY(SELECT unnest(t))) AS same_bytes,
       pg_column_size(t) = pg_column_size(ARRAY(SELECT unnest(t))) AS same_size, array_dims(t), t[3]
FROM (SELECT ndd_tokens('Straße ÉCOLE naïve ' || repeat('a bb ccc dddd eeeee ', 1000)) AS t) s;

-- simhash of words: fixed values, normalization, and the identities between the variants
SELECT simhash('The quick brown fox jumps over the lazy dog');
SELECT simhash('Hello!!') = simhash('hello') AS normalized,
       simhash('THE quick,  brown fox') = simhash('the quick brown fox') AS case_and_spacing,
       simhash('the quick brown fox') = simhash('the quick brown fox', 1) AS shingle_one,
       simhash('the quick brown fox') = simhash(ndd_tokens('The quick brown fox')) AS token_array,
       simhash('the quick brown fox the') = simhash(to_tsvector('simple', 'the quick brown fox the')) AS tsvector;
SELECT simhash(''), simhash('...'), simhash(NULL::text);

-- word shingles
SELECT simhash('the quick brown fox jumps over the lazy dog', 4) AS s4,
       simhash('the quick brown fox jumps over the lazy dog', 2) AS s2;
SELECT simhash('one two', 4) = simhash(ARRAY['one two']) AS short_text_is_one_shingle;
SELECT simhash('x', NULL::int), simhash(NULL::text, 3);
SELECT simhash('x', 0);
SELECT simhash('x', 257);
SELECT simhash('x', -1);

-- tsvector: lexemes weighted by their positions; shingles in document order
SELECT simhash('a fat cat sat on a mat'::tsvector) AS stripped_form,
       simhash(to_tsvector('simple', 'a fat cat sat on a mat')) AS positioned;
SELECT simhash(to_tsvector('simple', 'the quick brown fox'), 2) = simhash('the quick brown fox', 2) AS document_order,
       simhash(strip(to_tsvector('simple', 'b a c b')), 2) = simhash('a b c', 2) AS stripped_lexeme_order,
       simhash('b:2 a:1 c:3'::tsvector, 3) = simhash('a b c', 3) AS by_position,
       simhash('a:1,2,3 b:4'::tsvector) = simhash('a a a b') AS positions_are_counts;
SELECT simhash(to_tsvector('english', 'The cats were running quickly'));
SELECT simhash(''::tsvector), simhash(''::tsvector, 2), simhash(NULL::tsvector), simhash(NULL::tsvector, 2);
SELECT simhash('a b'::tsvector, 0);

-- feature arrays with optional weights
SELECT simhash(ARRAY['alpha', 'beta', 'gamma']) AS unweighted,
       simhash(ARRAY['alpha', 'beta', 'gamma'], ARRAY[1, 1, 1]::float8[]) AS unit_weights,
       simhash(ARRAY['alpha', 'beta', 'gamma'], NULL) AS null_weights;
SELECT simhash(ARRAY['alpha', 'beta'], ARRAY[1, 100]) = simhash(ARRAY['beta']) AS heavy_feature_wins,
       simhash(ARRAY['Alpha']) = simhash('alpha') AS features_are_not_normalized,
       simhash(ARRAY['a', 'a', 'b']) = simhash(ARRAY['a', 'b'], ARRAY[2, 1]) AS repeats_add_up,
       (simhash(ARRAY['a'], ARRAY[-1.5])::bigint # simhash('a')::bigint) = -1 AS negative_weight_inverts;
SELECT simhash('{}'::text[]), simhash(NULL::text[]), simhash(NULL::text[], ARRAY[1.0]);
SELECT simhash(ARRAY['a', NULL]);
SELECT simhash(ARRAY['a', 'b'], ARRAY[1.0]);
SELECT simhash(ARRAY['a'], ARRAY[NULL]::float8[]);
SELECT simhash(ARRAY['a'], ARRAY['NaN']::float8[]);
SELECT simhash(ARRAY['a', 'b'], ARRAY[1, '-Infinity']::float8[]);

-- character n-grams of the token stream
SELECT simhash_chars('The quick brown fox') AS n4, simhash_chars('The quick brown fox', 2) AS n2;
SELECT simhash_chars('abc') = simhash(ARRAY['abc']) AS short_text_is_one_gram,
       simhash_chars('ab, C', 2) = simhash(ARRAY['ab', 'b ', ' c']) AS grams_of_the_stream,
       simhash_chars('été', 3) = simhash(ARRAY['été']) AS n_counts_characters;
SELECT simhash_chars(''), simhash_chars(NULL), simhash_chars('x', NULL);
SELECT simhash_chars('x', 0);
SELECT simhash_chars('x', 257);

-- shingle minhash sketches
SELECT shingle_minhash('the quick brown fox jumps over the lazy dog', 2, 4);
SELECT cardinality(shingle_minhash('a b c d e')) AS default_84,
       cardinality(shingle_minhash('a b c d e', 4, 1024)) AS max_1024,
       shingle_minhash('a b c d e', 3, 8) = shingle_minhash('A. B. C. D. E.', 3, 8) AS normalized;
SELECT bool_and(v = -1) AS empty_is_all_ones, count(*) FROM unnest(shingle_minhash('')) v;
SELECT shingle_minhash(NULL), shingle_minhash('x', NULL), shingle_minhash('x', 4, NULL);
SELECT shingle_minhash('x', 0);
SELECT shingle_minhash('x', 4, 0);
SELECT shingle_minhash('x', 4, 1025);

-- minhash similarity estimates the exact Jaccard resemblance
WITH d(a, b) AS (
    SELECT string_agg('w' || i, ' ' ORDER BY i),
           string_agg(CASE WHEN i % 10 = 0 THEN 'x' || i ELSE 'w' || i END, ' ' ORDER BY i)
    FROM generate_series(1, 3000) i)
SELECT round(jaccard(a, b)::numeric, 3) AS exact,
       abs(minhash_similarity(shingle_minhash(a, 4, 1024), shingle_minhash(b, 4, 1024)) - jaccard(a, b)) < 0.05 AS estimate_close
FROM d;
SELECT minhash_similarity(shingle_minhash('same text here'), shingle_minhash('Same TEXT here!')) AS identical,
       minhash_similarity(shingle_minhash(''), shingle_minhash('')) AS both_empty,
       minhash_similarity(ARRAY[1, 2, 3, 4]::bigint[], ARRAY[1, 2, 0, 0]::bigint[]) AS half,
       minhash_similarity(ARRAY[[1, 2], [3, 4]]::bigint[], ARRAY[1, 2, 3, 5]::bigint[]) AS any_shape;
SELECT minhash_similarity(ARRAY[1, 2]::bigint[], NULL);
SELECT minhash_similarity(ARRAY[1, 2]::bigint[], ARRAY[1]::bigint[]);
SELECT minhash_similarity('{}'::bigint[], '{}'::bigint[]);
SELECT minhash_similarity(ARRAY[1, NULL]::bigint[], ARRAY[1, 2]::bigint[]);

-- supershingles and shared features
SELECT supershingles(ARRAY[1, 2, 3, 4, 5, 6]::bigint[], 3);
SELECT cardinality(supershingles(shingle_minhash('a b c d e f g'))) AS default_6,
       features_shared(supershingles(shingle_minhash(t || ' x')), supershingles(shingle_minhash(t || ' y'))) >= 2 AS near_duplicates_share,
       features_shared(supershingles(shingle_minhash(t)), supershingles(shingle_minhash('other words entirely'))) AS unrelated_share,
       features_shared(supershingles(shingle_minhash('')), supershingles(shingle_minhash(''))) AS empty_groups_stay_apart
FROM (SELECT string_agg('w' || i, ' ') AS t FROM generate_series(1, 2000) i) s;
SELECT supershingles(ARRAY[1, 2, 3]::bigint[], 2);
SELECT supershingles(ARRAY[1, 2, 3]::bigint[], 0);
SELECT supershingles(ARRAY[1, 2, 3]::bigint[], 4);
SELECT supershingles('{}'::bigint[], 1);
SELECT supershingles(ARRAY[1, NULL]::bigint[], 1);
SELECT supershingles(NULL, 6), supershingles(ARRAY[1]::bigint[], NULL);
SELECT features_shared(ARRAY[1, 2, 2, 3]::bigint[], ARRAY[3, 2, 9, 9]::bigint[]) AS two,
       features_shared('{}'::bigint[], ARRAY[1]::bigint[]) AS none,
       features_shared(NULL, ARRAY[1]::bigint[]) AS null_input;
SELECT features_shared(ARRAY[1]::bigint[], ARRAY[NULL]::bigint[]);

-- bit-flip fingerprint (raw bytes, wrapping windows, NUL padding)
SELECT bitflip_fp('Four score and seven years ago.', 4) AS patent_example,
       bitflip_fp('Four score and seven years ago.') AS padded_to_64;
SELECT bit_count(bitflip_fp('Four score and seven years ago.', 4, 1)::bit(128)) AS one_sample_one_bit,
       bit_count(bitflip_fp('')::bit(128)) AS empty_text_one_bit,
       bitflip_fp('abc', "window" => 8, samples => 128) = bitflip_fp('abc', 8) AS named_arguments,
       bitflip_fp('Hello') <> bitflip_fp('hello') AS raw_bytes_not_normalized;
SELECT bitflip_fp(t) <~> bitflip_fp(t || ' Really.') <= 18 AS near_duplicate,
       bitflip_fp(t) <~> bitflip_fp(upper(t)) > 18 AS different_bytes
FROM (SELECT string_agg('word' || (i * 7919 % 1000), ' ') AS t FROM generate_series(1, 2000) i) s;
SELECT bitflip_fp(NULL), bitflip_fp('x', NULL), bitflip_fp('x', 64, NULL);
SELECT bitflip_fp('x', 0);
SELECT bitflip_fp('x', 65537);
SELECT bitflip_fp('x', 64, 0);
SELECT bitflip_fp('x', 64, 65537);

-- Pugh's word-list fingerprints
SELECT word_list_fingerprints('the quick brown fox jumps over the lazy dog');
SELECT array(SELECT f & 255 FROM unnest(word_list_fingerprints(
           (SELECT string_agg('w' || i, ' ') FROM generate_series(1, 200) i), 8)) f) AS list_numbers,
       word_list_fingerprints('c b a a') = word_list_fingerprints('a b c') AS order_and_repeats_ignored,
       cardinality(word_list_fingerprints('solitary')) AS one_word_one_list,
       word_list_fingerprints('') AS empty;
SELECT word_list_fingerprints(NULL), word_list_fingerprints('x', NULL);
SELECT word_list_fingerprints('x', 0);
SELECT word_list_fingerprints('x', 257);

-- content hash of the normalized token stream
SELECT content_hash('Hello, World!'), content_hash('');
SELECT content_hash('Hello, World!') = content_hash('hello world') AS normalized,
       content_hash('hello world') <> content_hash('hello world again') AS distinct_texts,
       content_hash(NULL);

-- exact Jaccard resemblance and containment of shingle sets
SELECT jaccard('a b c d e', 'A B C D F') AS j, containment('a b c d e', 'a b c d f') AS c,
       jaccard('a b c d e', 'a b c d f', 1) AS j1, containment('p q r', 'p q r s t u', 2) AS c2,
       jaccard('p q r', 'p q r s t u', 2) AS j2;
SELECT jaccard('', '...') AS both_empty, jaccard('', 'words here') AS one_empty,
       containment('', 'words here') AS empty_contained, containment('words here', '') AS nothing_contains;
SELECT jaccard('x x x x', 'x x', 2) AS repeated_shingles_count_once;
SELECT jaccard(NULL, 'x'), containment('x', NULL), jaccard('x', 'x', NULL);
SELECT jaccard('x', 'y', 0);
SELECT containment('x', 'y', 300);

-- word edit distance
SELECT word_edit_distance('k i t t e n', 's i t t i n g') AS levenshtein,
       word_edit_distance('k i t t e n', 's i t t i n g', 2) AS insert_delete,
       word_edit_distance('The cat sat.', 'the CAT sat') AS normalized,
       word_edit_distance('', 'a b c') AS from_empty;
SELECT word_edit_distance(NULL, 'x'), word_edit_distance('x', 'y', NULL);
SELECT word_edit_distance('x', 'y', 0);
SELECT word_edit_distance('x', 'y', 3);

-- a large text: bounded results, consistent answers (6.9 MB, a million words); the word edit
-- distance of two such texts needs about 53 MB, more than the default work_mem (refused, 53200)
SET work_mem = '64MB';
CREATE TEMP TABLE big AS
    SELECT repeat('lorem ipsum dolor sit amet consectetur adipiscing elit ', 125000) AS doc;
SELECT length(doc) AS bytes, cardinality(ndd_tokens(doc)) AS tokens,
       simhash(doc) = simhash(ARRAY['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit']) AS simhash_of_counts,
       cardinality(shingle_minhash(doc)) AS sketch,
       bit_count(bitflip_fp(doc)::bit(128)) <= 128 AS bitflip_bounded,
       cardinality(word_list_fingerprints(doc, 16)) <= 16 AS lists_bounded,
       round(jaccard(doc, doc || ' extra')::numeric, 4) AS eight_of_nine_shingles,
       word_edit_distance(doc, doc || ' extra') AS one_insertion,
       content_hash(doc) = content_hash(upper(doc)) AS content_case_blind
FROM big;
RESET work_mem;
SELECT word_edit_distance(doc, doc || ' extra') FROM big;

-- past work_mem, jaccard and containment sort the shingles through tuplesorts (on disk at 64kB):
-- the same answers as the in-memory comparison
CREATE TEMP TABLE mid AS
    SELECT (SELECT string_agg((g % 997)::text, ' ' ORDER BY g) FROM generate_series(1, 30000) g) AS a,
           (SELECT string_agg((g % 1009)::text, ' ' ORDER BY g) FROM generate_series(1, 20000) g) AS b;
CREATE TEMP TABLE in_memory AS
    SELECT k, jaccard(a, b, k) AS j, containment(a, b, k) AS c, containment(b, a, k) AS cb,
           jaccard(a, a || ' tail', k) AS jt
    FROM mid, generate_series(1, 3) k;
SET work_mem = '64kB';
SELECT i.k, round(i.j::numeric, 6) AS jaccard, round(i.c::numeric, 6) AS containment,
       (i.j, i.c, i.cb, i.jt) = (jaccard(a, b, i.k), containment(a, b, i.k), containment(b, a, i.k),
                                 jaccard(a, a || ' tail', i.k)) AS same_when_spilled
FROM in_memory i, mid ORDER BY i.k;
RESET work_mem;

-- catalog: every function documented, immutable and parallel safe
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel, p.proisstrict,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS documented
FROM pg_proc p
WHERE p.proname IN ('simhash', 'simhash_chars', 'shingle_minhash', 'minhash_similarity', 'supershingles',
                    'features_shared', 'bitflip_fp', 'word_list_fingerprints', 'content_hash', 'jaccard',
                    'containment', 'word_edit_distance', 'ndd_tokens')
ORDER BY p.proname, p.oid::regprocedure::text;
