-- What a user does first with an installed ndd, run by test/scripts/package_deb.sh and
-- package_pgxn.sh in a fresh database of a cluster whose files came from the package alone (not a
-- script test itself: test.sh runs only *.sh). CREATE EXTENSION ndd, a table of near-duplicate
-- groups with an ndd index, then a radius and a KNN query: EXPLAIN must show the ndd index and the
-- answer must be the one of a sequential scan. Any difference raises an error (psql exits non-zero
-- under ON_ERROR_STOP); the last line printed is the installed version, which the caller compares.
\set ON_ERROR_STOP 1
\set QUIET 1
SET client_min_messages = warning;
CREATE EXTENSION ndd;

CREATE TABLE docs (id int PRIMARY KEY, body text, fp simhash64);
-- groups of three near-duplicates: 40 words in common, one of their own
INSERT INTO docs
SELECT g, b, simhash(b)
FROM generate_series(1, 3000) g,
     LATERAL (SELECT string_agg(left(md5((g / 3) || '.' || i), 6), ' ') || ' own' || g AS b
              FROM generate_series(1, 40) i) t;
CREATE INDEX docs_fp ON docs USING ndd (fp);
ANALYZE docs;

SET client_min_messages = notice;
DO $$
DECLARE
	q simhash64 := (SELECT fp FROM docs WHERE id = 100);
	radius text := format('SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <~> %L::simhash64 <= 8', q);
	knn text := format('SELECT array_agg(d ORDER BY d) FROM (SELECT fp <~> %L::simhash64 AS d FROM docs
	                    ORDER BY fp <~> %L::simhash64 LIMIT 20) s', q, q);
	query text;
	line text;
	plan text;
	by_index int[];
	by_scan int[];
BEGIN
	FOREACH query IN ARRAY ARRAY[radius, knn] LOOP
		SET LOCAL enable_seqscan = off;
		SET LOCAL enable_indexscan = on;
		SET LOCAL enable_bitmapscan = on;
		plan := '';
		FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
			plan := plan || line || E'\n';
		END LOOP;
		IF plan !~ 'Index Scan (using|on) docs_fp\M' THEN
			RAISE EXCEPTION 'the ndd index docs_fp is not used for %: %', query, plan;
		END IF;
		EXECUTE query INTO by_index;
		SET LOCAL enable_seqscan = on;
		SET LOCAL enable_indexscan = off;
		SET LOCAL enable_bitmapscan = off;
		EXECUTE query INTO by_scan;
		IF by_index IS DISTINCT FROM by_scan THEN
			RAISE EXCEPTION 'the index answers % and a sequential scan % for %', by_index, by_scan, query;
		END IF;
		-- the query's group of near-duplicates at least: an empty answer would prove nothing
		IF coalesce(cardinality(by_index), 0) < 3 THEN
			RAISE EXCEPTION 'only % for %', by_index, query;
		END IF;
		RAISE NOTICE 'through docs_fp, as a sequential scan: % (% values)', by_index, cardinality(by_index);
	END LOOP;
END
$$;
SELECT 'installed version ' || extversion FROM pg_extension WHERE extname = 'ndd';
