-- ndd_mirrors: pairs of URL prefixes that serve the same paths with the same (or near) pages.
-- Each condition of the definition (doc/web.md "Mirrors") on planted sites: min_shared,
-- min_fraction on either side, the same host on both sides, k > 0, fp128, each pair once with
-- a < b, empty suffixes excluded, URLs normalized first; then errors and memory bounds.

-- a page's fingerprint from a content name
CREATE FUNCTION mir_fp(content text) RETURNS simhash64 LANGUAGE sql IMMUTABLE
  RETURN ('x' || substr(md5(content), 1, 16))::bit(64)::bigint::simhash64;

CREATE TABLE mir_pages (url text, fp simhash64);
-- a full mirror: 20 pages of a.example/docs/ under mirror.example/a/docs/
INSERT INTO mir_pages SELECT 'http://a.example/docs/p' || i || '.html', mir_fp('doc' || i) FROM generate_series(1, 20) i;
INSERT INTO mir_pages SELECT 'https://mirror.example/a/docs/p' || i || '.html', mir_fp('doc' || i) FROM generate_series(1, 20) i;
-- a partial copy: 6 of those pages at the root of c.example, beside 30 pages of its own
INSERT INTO mir_pages SELECT 'http://c.example/p' || i || '.html', mir_fp('doc' || i) FROM generate_series(1, 6) i;
INSERT INTO mir_pages SELECT 'http://c.example/own/' || i, mir_fp('c' || i) FROM generate_series(1, 30) i;
-- min_shared: s1 and s2 share 9 paths; s2's URLs are written unnormalized, s1 lists one page twice
INSERT INTO mir_pages SELECT 'http://s1.example/x/p' || i || '.html', mir_fp('s' || i) FROM generate_series(1, 9) i;
INSERT INTO mir_pages VALUES ('http://s1.example/x/p1.html?utm_source=feed', mir_fp('s1'));
INSERT INTO mir_pages SELECT 'HTTP://S2.Example:80/x/./p' || i || '.html#top', mir_fp('s' || i) FROM generate_series(1, 9) i;
-- min_fraction on each side: 10 shared pages against 10 + 15 on the other side, the larger side
-- first (f2) and second (f3) in byte order
INSERT INTO mir_pages SELECT 'http://f2a.example/g' || i, mir_fp('f2-' || i) FROM generate_series(1, 10) i;
INSERT INTO mir_pages SELECT 'http://f2a.example/own' || i, mir_fp('f2own' || i) FROM generate_series(1, 15) i;
INSERT INTO mir_pages SELECT 'http://f2b.example/g' || i, mir_fp('f2-' || i) FROM generate_series(1, 10) i;
INSERT INTO mir_pages SELECT 'http://f3a.example/g' || i, mir_fp('f3-' || i) FROM generate_series(1, 10) i;
INSERT INTO mir_pages SELECT 'http://f3b.example/g' || i, mir_fp('f3-' || i) FROM generate_series(1, 10) i;
INSERT INTO mir_pages SELECT 'http://f3b.example/own' || i, mir_fp('f3own' || i) FROM generate_series(1, 15) i;
-- the same host on both sides: two versions of a manual, the newer with 2 more pages
INSERT INTO mir_pages SELECT 'http://py.example/docs/3.10/lib/' || i || '.html', mir_fp('py' || i) FROM generate_series(1, 12) i;
INSERT INTO mir_pages SELECT 'http://py.example/docs/3.11/lib/' || i || '.html', mir_fp('py' || i) FROM generate_series(1, 14) i;
-- empty suffixes: directory pages whose last segment is empty but whose names differ, and root
-- pages, identical across e1 and e2: no common path, no mirror
INSERT INTO mir_pages SELECT 'http://e1.example/d' || i || '/', mir_fp('e' || i) FROM generate_series(1, 12) i;
INSERT INTO mir_pages SELECT 'http://e2.example/other' || i || '/', mir_fp('e' || i) FROM generate_series(1, 12) i;
INSERT INTO mir_pages VALUES ('http://e1.example/', mir_fp('parked')), ('http://e2.example/', mir_fp('parked'));
-- rows without a URL or a fingerprint are skipped
INSERT INTO mir_pages VALUES (NULL, mir_fp('doc1')), ('http://a.example/docs/p1.html', NULL);

-- the defaults (k = 0, min_shared = 10, min_fraction = 0.5): the full mirror, the manual versions
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages') ORDER BY a, b;
-- min_shared: 9 shared paths pass at 9; the pages listed twice (one normalized away) count once
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 9) ORDER BY a, b;
-- min_fraction: 10 shared of 25 pages fails 0.5 on either side and passes 0.4; the partial copy
-- (6 of 20 and 6 of 36) needs both min_shared <= 6 and min_fraction <= 6/36
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 9, 0.4) ORDER BY a, b;
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 6, 0.3) WHERE b LIKE 'http://c.%' ORDER BY a, b;
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 6, 6.0 / 36) WHERE b LIKE 'http://c.%' ORDER BY a, b;
-- empty suffixes never count: e1 and e2 share no path even at min_shared = 1
SELECT count(*) AS e_pairs FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 1, 0)
WHERE a LIKE 'http://e_.example/%' AND b LIKE 'http://e_.example/%';
-- each pair once, a < b in byte order, at every setting
SELECT count(*) AS pairs, count(DISTINCT (a, b)) AS distinct_pairs, count(*) FILTER (WHERE a COLLATE "C" >= b) AS not_ordered
FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 1, 0);

-- k > 0: a copy whose pages each differ by 2 bits (a changed footer) is found within k = 2 only
CREATE TABLE mir_near AS SELECT url, fp FROM mir_pages WHERE url LIKE 'http://a.example/%';
INSERT INTO mir_near SELECT 'http://near.example/docs/p' || i || '.html',
  (mir_fp('doc' || i)::bigint # (3::bigint << (i % 60)))::simhash64 FROM generate_series(1, 20) i;
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_near', 0) ORDER BY a, b;
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_near', 1) ORDER BY a, b;
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_near', 2) ORDER BY a, b;

-- fp128 fingerprints (and a varchar URL column) give the same mirrors
SELECT * FROM ndd_mirrors($$SELECT url::varchar, md5(fp::text)::uuid::fp128 FROM mir_pages$$) ORDER BY a, b;

-- ndd_mirrors_from_pairs: the same answer from the same pairs found by another call; pairs naming
-- ids pages_sql does not return are ignored
CREATE TABLE mir_ids AS SELECT row_number() OVER (ORDER BY url, fp::text) AS id, url, fp FROM mir_pages
  WHERE url IS NOT NULL AND fp IS NOT NULL;
SELECT (SELECT array_agg(m::text ORDER BY m::text) FROM ndd_mirrors('SELECT url, fp FROM mir_ids', 0, 1, 0) m)
     = (SELECT array_agg(m::text ORDER BY m::text)
        FROM ndd_mirrors_from_pairs('SELECT id, url FROM mir_ids',
                                    'SELECT a, b FROM ndd_pairs(''SELECT id, fp FROM mir_ids'', 0) UNION ALL VALUES (-5, 1), (1, NULL)',
                                    1, 0) m) AS same_as_ndd_mirrors;
SELECT * FROM ndd_mirrors_from_pairs('SELECT id, url FROM mir_ids', 'SELECT a, b FROM ndd_pairs(''SELECT id, fp FROM mir_ids'', 0)') ORDER BY a, b;
\set VERBOSITY default
SELECT * FROM ndd_mirrors_from_pairs('SELECT 1, url FROM mir_ids', 'SELECT 1, 2');
SELECT * FROM ndd_mirrors_from_pairs('SELECT NULL::int, url FROM mir_ids', 'SELECT 1, 2');
SELECT * FROM ndd_mirrors_from_pairs('SELECT id, url FROM mir_ids', 'SELECT 1, ''x''');
SELECT * FROM ndd_mirrors_from_pairs('SELECT id, url FROM mir_ids', 'SELECT 1, 2', 10, -0.1);
-- the distributed variant needs Citus
\set VERBOSITY terse
SELECT * FROM ndd_distributed_mirrors('SELECT id, url, fp FROM mir_ids');
\set VERBOSITY default
DROP TABLE mir_ids;

-- errors
\set VERBOSITY default
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', -1);
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 32);
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 0);
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 10, 1.5);
SELECT * FROM ndd_mirrors('SELECT url, fp FROM mir_pages', 0, 10, 'NaN');
SELECT * FROM ndd_mirrors('SELECT 1, fp FROM mir_pages');
SELECT * FROM ndd_mirrors('SELECT url, 1 FROM mir_pages');
SELECT * FROM ndd_mirrors('SELECT url FROM mir_pages');
SELECT * FROM ndd_mirrors($$SELECT 'not a url', fp FROM mir_pages$$);
SELECT * FROM ndd_mirrors($$SELECT 'mailto:x@example.com', fp FROM mir_pages$$);
-- the documented way to skip bad URLs
SELECT * FROM ndd_mirrors($$SELECT u, fp FROM (SELECT url, fp FROM mir_pages UNION ALL VALUES ('not a url', NULL), ('http://', mir_fp('doc1'))) AS t(u, fp) WHERE ndd_url_is_valid(u)$$) ORDER BY a, b;

-- memory: the pages are bounded by maintenance_work_mem (53200 naming it); the sort of the pairs
-- spills beyond work_mem with the same answer
CREATE TABLE mir_big AS SELECT 'http://big.example/' || i AS url, mir_fp('big' || i) AS fp FROM generate_series(1, 20000) i;
SET maintenance_work_mem = '1MB';
\set VERBOSITY sqlstate
SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM mir_big');
\set VERBOSITY default
SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM mir_big');
RESET maintenance_work_mem;
-- 20 hosts serving the same 300 pages: 57,000 pairs of pages, 190 mirror pairs
CREATE TABLE mir_many AS SELECT 'http://m' || (i % 20) || '.example/dir/page' || (i / 20) || '.html' AS url,
  mir_fp('many' || (i / 20)) AS fp FROM generate_series(0, 5999) i;
SET work_mem = '64kB';
SELECT count(*), min(shared), max(shared), min(pages_a), max(pages_b) FROM ndd_mirrors('SELECT url, fp FROM mir_many', 0, 100, 0.5);
RESET work_mem;
SELECT count(*), min(shared), max(shared), min(pages_a), max(pages_b) FROM ndd_mirrors('SELECT url, fp FROM mir_many', 0, 100, 0.5);

-- Issue 31, finding 7: fingerprints served by many hosts (parking, error pages) are left out of
-- the pairs, with a notice; 12 fingerprints of 40 hosts each, one host's "not found" page at 40
-- paths (as many pages of one fingerprint), and the 20 mirrors of mir_many
CREATE TABLE mir_hot AS SELECT 'http://park' || h || '.example/index.html' AS url, mir_fp('parked' || f) AS fp
  FROM generate_series(1, 12) f, generate_series(1, 40) h;
INSERT INTO mir_hot SELECT 'http://soft.example/d' || i || '/index.html', mir_fp('not found') FROM generate_series(1, 40) i;
INSERT INTO mir_hot SELECT url, fp FROM mir_many;
-- the bound at 30: the parking and "not found" pages are left out (each of the 300 shared pages
-- has 20 hosts and 20 pages)
SELECT count(*), max(shared) FROM ndd_mirrors('SELECT url, fp FROM mir_hot', 0, 1, 0, max_hosts_per_fingerprint => 30);
-- at 19 the mirrors' pages go too; at the default (1000) nothing is left out, the parking hosts
-- pair up (each pair shares index.html) and so do the "not found" directories
SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM mir_hot', 0, 1, 0, max_hosts_per_fingerprint => 19);
SELECT count(*) FILTER (WHERE a LIKE 'http://park%') AS parking_pairs,
       count(*) FILTER (WHERE a LIKE 'http://soft%') AS not_found_pairs
FROM ndd_mirrors('SELECT url, fp FROM mir_hot', 0, 1, 0);
\set VERBOSITY sqlstate
SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM mir_hot', 0, 1, 0, max_hosts_per_fingerprint => 0);
-- ndd_distributed_mirrors takes the same bound (checked before it needs Citus; the answers are
-- compared on Citus by test/scripts/citus_distributed.sh)
SELECT count(*) FROM ndd_distributed_mirrors('SELECT 1, url, fp FROM mir_hot', 0, 1, 0, max_hosts_per_fingerprint => 0);
\set VERBOSITY default
-- the sort's temporary files are within temp_file_limit: PostgreSQL's own error, 53400 (its
-- message quotes the setting's name from PostgreSQL 17 on, so the SQLSTATE is what is shown)
SET work_mem = '64kB';
SET temp_file_limit = '1MB';
DO $$
BEGIN
    PERFORM count(*) FROM ndd_mirrors('SELECT url, fp FROM mir_many', 0, 100, 0.5);
    RAISE NOTICE 'no error';
EXCEPTION WHEN configuration_limit_exceeded THEN
    RAISE NOTICE 'temp_file_limit stopped it: %', SQLSTATE;
END
$$;
RESET temp_file_limit;
RESET work_mem;
-- long URLs: 91 pages of 64 kB URLs with one fingerprint make 4,095 entries of about 64 kB each;
-- they went into the sort one batch at a time, all held (a 270 MB peak at work_mem 4MB). Now each
-- is freed once the sort has its copy: the backend's peak (VmHWM, in a fresh session) grows by
-- less than 64 MB.
CREATE TABLE mir_long AS SELECT 'http://l' || h || '.example/' || repeat('a', 64000) || '/x.html' AS url, mir_fp('long') AS fp
  FROM generate_series(1, 91) h;
\c
SET work_mem = '4MB';
SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint AS hwm0 \gset
SELECT count(*), min(shared), max(pages_a) FROM ndd_mirrors('SELECT url, fp FROM mir_long', 0, 1);
SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint - :hwm0 < 64 * 1024 AS peak_growth_under_64mb;
RESET work_mem;
DROP TABLE mir_hot, mir_long;

DROP TABLE mir_pages, mir_near, mir_big, mir_many;
DROP FUNCTION mir_fp(text);
