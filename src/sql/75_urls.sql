-- 75_urls.sql: URLs and mirrored sites. The canonical form of a URL and its SURT sort key (rules:
-- src/core/url.hpp, doc/web.md), and the pairs of sites (or directories) that mirror each other,
-- found from the fingerprints of their pages. Each object with its COMMENT.

-- The canonical form of url: RFC 3986 syntax normalization (uriparser), default ports, fragment,
-- tracking and session parameters removed, query parameters sorted by name, host names in their
-- IDNA ASCII form (libidn2), one host whatever its spelling (a delimiter spelled full-width or
-- percent-encoded in a host makes the URL invalid). Idempotent. An invalid URL raises 22P02
-- (54000 beyond 65536 bytes), or gives NULL when strict is false.
CREATE FUNCTION ndd_url_normalize(url text, strict boolean DEFAULT true) RETURNS text
AS 'MODULE_PATHNAME', 'ndd_url_normalize_sql'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_url_normalize(text, boolean) IS
	'the canonical form of a URL: RFC 3986 normalization, default port, fragment and tracking/session parameters removed, query sorted by name, IDNA host; invalid: error 22P02, or NULL when strict is false';

-- The SURT key of url's canonical form (com,example,www)/a?b=1): a domain and its subdomains are
-- one btree range.
CREATE FUNCTION ndd_url_surt(url text, strict boolean DEFAULT true) RETURNS text
AS 'MODULE_PATHNAME', 'ndd_url_surt_sql'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_url_surt(text, boolean) IS
	'the SURT sort key of a URL''s canonical form (https://www.Example.com/a?b=1 -> com,example,www)/a?b=1): a domain and its subdomains are one btree range';

-- Whether ndd_url_normalize accepts url: WHERE ndd_url_is_valid(url) skips the bad rows of a crawl.
CREATE FUNCTION ndd_url_is_valid(url text) RETURNS boolean
AS 'MODULE_PATHNAME', 'ndd_url_is_valid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ndd_url_is_valid(text) IS
	'whether ndd_url_normalize accepts the URL: filter a crawl''s rows with it to skip bad URLs without aborting';

-- Mirrored sites: pages_sql returns (url text, fp simhash64 | fp128). For every pair of pages
-- within k bits, the longest common suffix p of their normalized paths made of whole segments
-- (the query belongs to the last one, p not empty) is a path both prefixes serve; a prefix pair
-- (a < b, bytewise) is reported when at least min_shared distinct p are shared and they are at least
-- min_fraction of the pages under a and of those under b. Pages whose fingerprint more than
-- max_hosts_per_fingerprint hosts, or pages, serve (parking, error, login pages) are left out of
-- the pairs, with a notice (issue 31: they made billions of pairs); they still count under their
-- prefixes.
CREATE FUNCTION ndd_mirrors(pages_sql text, k int DEFAULT 0, min_shared int DEFAULT 10,
                            min_fraction float8 DEFAULT 0.5, max_hosts_per_fingerprint int DEFAULT 1000,
                            OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                            OUT pages_b bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_mirrors'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 100;
COMMENT ON FUNCTION ndd_mirrors(text, int, int, float8, int) IS
	'pairs of URL prefixes (a < b) serving the same paths with pages within k bits: shared distinct paths >= min_shared and >= min_fraction of the pages under each prefix; pages_sql returns (url, fp); fingerprints of more than max_hosts_per_fingerprint hosts or pages left out';

-- Mirrors from pairs of pages found elsewhere (the distributed batch, a Jaccard join, any
-- similarity): pages_sql returns (id, url), pairs_sql returns (a, b, ...) page ids. The same
-- definition and answer as ndd_mirrors over the same pairs.
CREATE FUNCTION ndd_mirrors_from_pairs(pages_sql text, pairs_sql text, min_shared int DEFAULT 10,
                                       min_fraction float8 DEFAULT 0.5,
                                       OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                                       OUT pages_b bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ndd_mirrors_from_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE ROWS 100;
COMMENT ON FUNCTION ndd_mirrors_from_pairs(text, text, int, float8) IS
	'ndd_mirrors over pairs of pages found elsewhere: pages_sql returns (id, url), pairs_sql returns (a, b) page ids';

-- ndd_mirrors on Citus: the pairs of pages within k bits are found on the workers
-- (ndd_distributed_pairs), the prefixes are counted on the coordinator. pages_sql returns
-- (id, url, fp) with unique integer ids; the answer is ndd_mirrors's over (url, fp), with the same
-- max_hosts_per_fingerprint bound: the hot fingerprints are found first (one aggregate over
-- pages_sql) and their pages are not sent to the workers, with ndd_mirrors's notice. The work is a
-- *_job function (PL/pgSQL for the notice; search_path pinned as explained above ndd_verify_job):
-- the caller's queries run under the caller's search_path, every name in them qualified.
CREATE FUNCTION ndd_distributed_mirrors_job(pages_sql text, k int, min_shared int, min_fraction float8,
                                            max_hosts_per_fingerprint int, parts int, caller_search_path text,
                                            OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                                            OUT pages_b bigint)
RETURNS SETOF record
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    hot pg_catalog.text[];
    hot_pages pg_catalog.int8;
    fp_filter pg_catalog.text := '';
BEGIN
    IF max_hosts_per_fingerprint OPERATOR(pg_catalog.<) 1 THEN
        RAISE EXCEPTION 'max_hosts_per_fingerprint must be at least 1'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('max_hosts_per_fingerprint is %s.', max_hosts_per_fingerprint);
    END IF;
    PERFORM pg_catalog.set_config('search_path', caller_search_path, true);
    -- the fingerprints of more than max_hosts_per_fingerprint hosts (scheme://authority of the
    -- normalized URL) or pages, as ndd_mirrors's skip_hot_fingerprints counts them
    EXECUTE pg_catalog.format($q$
        SELECT pg_catalog.array_agg(h.fp), pg_catalog.sum(h.n)::pg_catalog.int8 FROM (
          SELECT p.fp::pg_catalog.text AS fp, pg_catalog.count(*) AS n FROM (%s) AS p(id, url, fp)
          WHERE p.url IS NOT NULL AND p.fp IS NOT NULL GROUP BY p.fp::pg_catalog.text
          HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) $1
              OR pg_catalog.count(DISTINCT pg_catalog.substring(@extschema@.ndd_url_normalize(p.url::pg_catalog.text),
                                                                '^[^:/?#]+://[^/?#]*')) OPERATOR(pg_catalog.>) $1) AS h $q$,
        pages_sql) INTO hot, hot_pages USING max_hosts_per_fingerprint::pg_catalog.int8;
    IF hot IS NOT NULL THEN
        RAISE NOTICE 'ndd_distributed_mirrors: % fingerprints served by more than % hosts or pages each left out (% pages)',
                pg_catalog.cardinality(hot), max_hosts_per_fingerprint, hot_pages
            USING DETAIL = 'A page that many sites serve alike (a parking, error or login page) is no evidence of a mirror, and every pair of its hosts would be compared.',
                  HINT = 'Raise max_hosts_per_fingerprint to count them.';
        fp_filter := pg_catalog.format(' AND p.fp::pg_catalog.text OPERATOR(pg_catalog.<>) ALL (%L::pg_catalog.text[])', hot);
    END IF;
    RETURN QUERY
    SELECT m.a, m.b, m.shared, m.pages_a, m.pages_b
    FROM @extschema@.ndd_mirrors_from_pairs(
        pg_catalog.format('SELECT p.id, p.url FROM (%s) AS p(id, url, fp) WHERE p.fp IS NOT NULL', pages_sql),
        pg_catalog.format('SELECT j.a, j.b FROM @extschema@.ndd_distributed_pairs(%L, %s, 0, %s) AS j',
                          pg_catalog.format('SELECT p.id, p.fp FROM (%s) AS p(id, url, fp) WHERE p.url IS NOT NULL%s',
                                            pages_sql, fp_filter),
                          k, parts),
        min_shared, min_fraction) AS m;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$fn$;
COMMENT ON FUNCTION ndd_distributed_mirrors_job(text, int, int, float8, int, int, text) IS
	'the work of ndd_distributed_mirrors, search_path pinned: the caller''s queries run under caller_search_path';
CREATE FUNCTION ndd_distributed_mirrors(pages_sql text, k int DEFAULT 0, min_shared int DEFAULT 10,
                                        min_fraction float8 DEFAULT 0.5, max_hosts_per_fingerprint int DEFAULT 1000,
                                        parts int DEFAULT 4096,
                                        OUT a text, OUT b text, OUT shared bigint, OUT pages_a bigint,
                                        OUT pages_b bigint)
RETURNS SETOF record
LANGUAGE sql STRICT VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT j.a, j.b, j.shared, j.pages_a, j.pages_b
    FROM @extschema@.ndd_distributed_mirrors_job(pages_sql, k, min_shared, min_fraction, max_hosts_per_fingerprint,
                                                 parts, pg_catalog.current_setting('search_path')) AS j;
END;
COMMENT ON FUNCTION ndd_distributed_mirrors(text, int, int, float8, int, int) IS
	'ndd_mirrors on Citus: pairs of pages within k bits found on the workers, prefixes counted on the coordinator; pages_sql returns (id, url, fp); fingerprints of more than max_hosts_per_fingerprint hosts or pages left out';
