-- Filters before fingerprinting: numbers, stop words (text search configurations), low IDF.

SELECT ndd_filter('The 3 quick brown foxes, in 2024, jumped over 12 lazy dogs! B52 x86_64');
SELECT ndd_filter('The 3 quick brown foxes, in 2024, jumped over 12 lazy dogs! B52 x86_64', numbers => false);
SELECT ndd_filter('The 3 quick brown foxes, in 2024, jumped over 12 lazy dogs! B52 x86_64', true, 'english');
SELECT ndd_filter('The 3 quick brown foxes, in 2024, jumped over 12 lazy dogs!', false, 'simple');
SELECT ndd_filter('Der schnelle braune Fuchs springt über den faulen Hund', true, 'german');
SELECT ndd_filter('2024 12 7') AS only_numbers, ndd_filter('') AS empty, ndd_filter(NULL) IS NULL AS null_in_null_out;
SELECT ndd_filter('the and of', true, NULL) AS no_stopword_config, ndd_filter('the and of', true, 'english') AS all_stop_words;
-- fingerprints of the filtered text see exactly the kept tokens
SELECT simhash(ndd_filter('In 2024 the fox ran, and in 2025 the fox ran again', true, 'english'))
     = simhash('fox ran fox ran') AS same_fingerprint;
SELECT ndd_filter('some text', true, 'no_such_config');

-- the C function against the definition it replaced (0.1's SQL body over ndd_tokens), on texts with
-- numbers, stop words of several configurations, Unicode, punctuation only, repeats and empty ones,
-- for every numbers setting (NULL counts as false) and configuration (NULL: no stop words)
CREATE FUNCTION ref_filter(doc text, numbers boolean, stopwords regconfig) RETURNS text
LANGUAGE sql IMMUTABLE BEGIN ATOMIC
    WITH tok AS (SELECT u.t, u.i FROM unnest(ndd_tokens(doc)) WITH ORDINALITY AS u(t, i)),
         stop AS (SELECT d.t FROM (SELECT DISTINCT tok.t FROM tok) AS d
                  WHERE stopwords IS NOT NULL AND to_tsvector(stopwords, d.t) = ''::tsvector)
    SELECT CASE WHEN doc IS NULL THEN NULL ELSE
        coalesce((SELECT string_agg(tok.t, ' ' ORDER BY tok.i) FROM tok
                  WHERE NOT (coalesce(numbers, false) AND tok.t ~ '^[0-9]+$')
                    AND tok.t NOT IN (SELECT stop.t FROM stop)), '') END;
END;
WITH texts(doc) AS (VALUES
    (NULL), (''), ('!!! ...'), ('The 3 quick brown foxes, in 2024, jumped over 12 lazy dogs! B52 x86_64 007'),
    ('Der schnelle braune Fuchs springt über den faulen Hund, und der Hund schläft 1000 Jahre'),
    ('ΣΊΣΥΦΟΣ İstanbul δέλτα 42 ٣ ² and the of a an'),
    (repeat('to be or not to be 2 ', 500)),
    ((SELECT string_agg(proname::text, ' ' ORDER BY oid) FROM pg_proc WHERE oid < 2000))),
  settings(numbers, cfg) AS (
    SELECT n, c FROM (VALUES (true), (false), (NULL)) AS n(n),
                     (VALUES (NULL::regconfig), ('english'), ('german'), ('simple')) AS c(c))
SELECT count(*) AS cases,
       count(*) FILTER (WHERE ndd_filter(doc, numbers, cfg) IS DISTINCT FROM ref_filter(doc, numbers, cfg)) AS differ
FROM texts, settings;
-- the stop-word cache is bounded by work_mem and starts over when full: same answers at 64kB
SET work_mem = '64kB';
SELECT ndd_filter(d, true, 'english') = ref_filter(d, true, 'english') AS same_at_64kb
FROM (SELECT string_agg(proname::text || ' the ' || oid, ' ' ORDER BY oid) AS d FROM pg_proc) s;
RESET work_mem;
DROP FUNCTION ref_filter(text, boolean, regconfig);

-- document frequencies of a collection, and the low-IDF filter
SELECT ndd_df_collect('tiny', $$VALUES (1, 'a b c'), (2, 'A b d b'), (3, 'a e f'), (4, NULL)$$) AS ndocs;
SELECT name, ndocs FROM ndd_collection;
SELECT token, df FROM ndd_df WHERE collection = 'tiny' ORDER BY token;
-- idf: a = ln(3/3) = 0, b = ln(3/2) = 0.41, c = d = e = f = ln(3) = 1.10; z unseen, kept
SELECT ndd_filter_low_idf('a b c z', 'tiny', 0.5);
SELECT ndd_filter_low_idf('a b c z', 'tiny', 0.0);
SELECT ndd_filter_low_idf('a b c z', 'tiny', 2.0);
SELECT ndd_filter_low_idf('', 'tiny', 1.0) AS empty, ndd_filter_low_idf(NULL, 'tiny', 1.0) IS NULL AS null_in_null_out;
-- adding a document updates the counts; collecting again replaces them
SELECT ndd_df_add('tiny', 'c c g') AS ndocs;
SELECT token, df FROM ndd_df WHERE collection = 'tiny' AND token IN ('c', 'g') ORDER BY token;
SELECT ndd_df_add('other', 'x y') AS ndocs;
SELECT ndd_df_collect('tiny', $$VALUES (1, 'q')$$) AS ndocs;
SELECT collection, token, df FROM ndd_df ORDER BY collection, token;
SELECT ndd_filter_low_idf('a b', 'missing', 1.0);
SELECT ndd_df_collect('tiny', 'SELECT 1');

-- a token longer than a btree key allows (~2.7 kB) must not abort the collection: tokens over
-- 1000 bytes are not counted, alike in ndd_df_collect and ndd_df_add, and ndd_filter_low_idf
-- keeps them (unseen, infinite IDF)
SELECT ndd_df_collect('long', format($$VALUES (1, 'a %s b'), (2, 'a c'), (3, 'a %s')$$, repeat('x', 5000), repeat('y', 1001))) AS ndocs;
SELECT ndd_df_add('long', 'a ' || repeat('z', 3000)) AS ndocs;
SELECT token, df FROM ndd_df WHERE collection = 'long' ORDER BY token;
SELECT length(ndd_filter_low_idf('a b ' || repeat('x', 5000), 'long', 0.1)) AS kept_length;
-- deleting or renaming a collection takes its rows along (the foreign key's actions)
UPDATE ndd_collection SET name = 'long2' WHERE name = 'long';
SELECT collection, count(*) FROM ndd_df WHERE collection LIKE 'long%' GROUP BY 1;
DELETE FROM ndd_collection WHERE name = 'long2';
SELECT count(*) AS orphans FROM ndd_df WHERE collection NOT IN (SELECT name FROM ndd_collection);
-- who may use the tables: every role reads them; writing needs granted privileges
SELECT has_table_privilege('public', 'ndd_df', 'SELECT') AS public_reads_df,
       has_table_privilege('public', 'ndd_collection', 'SELECT') AS public_reads_collections,
       has_table_privilege('public', 'ndd_df', 'INSERT') AS public_writes_df;

-- ndd_filter resolves no name at run time (a C function), so it works in generated columns and index
-- expressions even with an empty search_path (as while pg_dump's output is restored)
CREATE TABLE wf_gen (body text, fp simhash64 GENERATED ALWAYS AS (simhash(ndd_filter(body, true, 'english'))) STORED);
SET search_path = '';
INSERT INTO public.wf_gen VALUES ('The 3 quick foxes'), ('The 4 quick foxes'), ('Other words entirely');
RESET search_path;
SELECT count(*) AS rows, count(DISTINCT fp) AS distinct_fingerprints FROM wf_gen;
