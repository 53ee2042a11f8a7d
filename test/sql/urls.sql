-- ndd_url_normalize, ndd_url_surt, ndd_url_is_valid: each rule of the canonical form (rules:
-- src/core/url.hpp, doc/web.md), the SURT key, and the errors. Outputs are frozen: a stored
-- normalized URL must never change under its user.

-- one row per rule: input, canonical form
SELECT u AS input, ndd_url_normalize(u) AS normalized FROM (VALUES
  ('HTTP://WWW.Example.COM/a'),                         -- scheme and host lower case
  ('http://h/%7euser/%3a%2f'),                          -- unreserved decoded, hex upper case
  ('http://%65xample.com/'),                            -- decoding in the host too
  ('http://h/a/./b/../c/./'),                           -- dot segments removed
  ('http://h/../../x'),
  ('http://h'),                                         -- empty path -> /
  ('http://h:80/'),                                     -- default ports removed
  ('https://h:443/x'),
  ('https://h:0443/x'),
  ('http://h:443/'),                                    -- not http's default: kept
  ('http://h:/'),                                       -- empty port removed
  ('http://h:08080/'),                                  -- leading zeros dropped
  ('http://h/a#top'),                                   -- fragment removed
  ('http://h/a?'),                                      -- empty query removed
  ('http://h/a?&&'),
  ('http://h/a?b=2&a=1&a=0&c'),                         -- sorted by name, stable
  ('http://h/a?a=1&&b=2&'),                             -- empty parameters dropped
  ('http://h/?utm_source=x&UTM_Medium=y&id=3'),         -- tracking parameters, any case
  ('http://h/?gclid=1&fbclid=2&msclkid=3&dclid=4&gbraid=5&wbraid=6&yclid=7&mc_cid=8&mc_eid=9&x=0'),
  ('http://h/?JSESSIONID=1&phpsessid=2&sid=3&SessionId=4'),  -- session parameters
  ('http://h/?sidebar=1&usid=2&utm=3'),                 -- only whole names
  ('http://h/a.jsp;jsessionid=0A1B?x=1'),               -- the ;jsessionid= path parameter
  ('http://h/a.jsp;JSessionID=0A1B;v=2'),
  ('http://bücher.de/ü?q=é'),                           -- IDNA host, other bytes percent-encoded
  ('http://BÜCHER.de/'),
  ('http://XN--BCHER-KVA.de/'),
  ('http://[0:0:0:0:0:0:0:1]:8080/a'),                  -- IPv6, RFC 5952 form
  ('http://[FE80::A]/'),
  ('http://User:Pw@Example.com/'),                      -- userinfo kept
  ('mailto:Joe@Example.COM'),                           -- other schemes: syntax only
  ('http://h/'), ('https://h/'),                        -- not folded: scheme,
  ('http://www.h/'),                                    -- www.,
  ('http://h/a/'), ('http://h/a')                       -- trailing slash
) AS t(u);

-- the canonical form is a fixed point
SELECT count(*) AS not_fixed FROM (VALUES
  ('HTTP://www.Example.COM:80/a/./b/../c/%7euser/%3a?b=2&a=1&utm_source=x#f'),
  ('http://bücher.de/ü?q=1'), ('http://[::FFFF:1.2.3.4]/'), ('http://h/a.jsp;jsessionid=1;x=2?&z&y')) AS t(u)
WHERE ndd_url_normalize(ndd_url_normalize(u)) <> ndd_url_normalize(u);

-- SURT keys: a domain and its subdomains are one range
SELECT u AS input, ndd_url_surt(u) AS surt FROM (VALUES
  ('https://www.Example.com/a?b=1'),
  ('http://example.com'),
  ('http://example.com./a#x'),
  ('http://h:8080/a?utm_source=1&z=1&a=2'),
  ('http://user@a.b.c/'),
  ('http://10.1.2.3/x'),
  ('http://[::1]/x'),
  ('ftp://ftp.Debian.org/pub/'),
  ('mailto:joe@example.com')
) AS t(u);
SELECT ndd_url_surt(u) AS surt FROM (VALUES ('http://docs.example.com/x'), ('http://example.com/'),
  ('http://example.org/'), ('http://www.example.com/'), ('http://examples.com/')) AS t(u)
ORDER BY ndd_url_surt(u) COLLATE "C";

-- errors: 22P02 naming the value and why, 54000 beyond 65536 bytes
\set VERBOSITY default
SELECT ndd_url_normalize('example.com/a');
SELECT ndd_url_normalize('http:///a');
SELECT ndd_url_normalize('http://h/a b');
SELECT ndd_url_normalize('http://h/%zz');
SELECT ndd_url_normalize('http://h/%');
SELECT ndd_url_normalize('http://h:65536/');
SELECT ndd_url_normalize('http://[::1/');
SELECT ndd_url_normalize('http://%C3%28.de/');
SELECT ndd_url_normalize('http://h%00x/');
SELECT ndd_url_surt('');
\set VERBOSITY sqlstate
SELECT ndd_url_normalize('http://h/' || repeat('a', 65536));
\set VERBOSITY default
SELECT length(ndd_url_normalize('http://h/' || repeat('a', 65527)));
-- a long bad value is shown cut
SELECT ndd_url_normalize(repeat('x', 300));

-- skipping bad rows without aborting: strict => false gives NULL; ndd_url_is_valid filters
CREATE TABLE url_crawl (id int, url text);
INSERT INTO url_crawl VALUES (1, 'http://A.com/x?utm_source=1'), (2, 'not a url'), (3, NULL),
  (4, 'http://a.com/x'), (5, 'http://'), (6, 'https://b.com:443/');
SELECT id, ndd_url_normalize(url, strict => false) FROM url_crawl ORDER BY id;
SELECT id, ndd_url_is_valid(url) FROM url_crawl ORDER BY id;
SELECT ndd_url_normalize(url), count(*) FROM url_crawl WHERE ndd_url_is_valid(url) GROUP BY 1 ORDER BY 1;
SELECT ndd_url_surt('nope', false) IS NULL AS surt_null;

-- IMMUTABLE and PARALLEL SAFE: usable in generated columns and indexes
CREATE TABLE url_keys (url text, key text GENERATED ALWAYS AS (ndd_url_surt(url, false)) STORED);
INSERT INTO url_keys(url) VALUES ('http://www.example.com/a'), ('http://docs.example.com/b'),
  ('http://example.org/'), ('bad url');
CREATE INDEX ON url_keys (key COLLATE "C");
SELECT url FROM url_keys WHERE key COLLATE "C" >= 'com,example' AND key COLLATE "C" < 'com,example-' ORDER BY 1;
SELECT provolatile, proparallel FROM pg_proc WHERE proname IN ('ndd_url_normalize', 'ndd_url_surt', 'ndd_url_is_valid') ORDER BY proname;

DROP TABLE url_crawl, url_keys;

-- issue 31: one host whatever its spelling. A delimiter spelled full-width, small, or
-- percent-encoded inside a host is rejected (22P02 naming the value, NULL with strict => false),
-- never read as a delimiter after IDNA mapping
SELECT ndd_url_normalize('http://evil.com／x.example.com/');
SELECT ndd_url_surt('http://evil.com／x.example.com/');
SELECT ndd_url_normalize('http://example.com＠evil.com/');
SELECT ndd_url_normalize('http://exa％mple.com/');
SELECT ndd_url_normalize('http://evil.com%2Fx.example.com/');
SELECT u AS input, ndd_url_normalize(u, strict => false) AS normalized, ndd_url_surt(u, false) AS surt
FROM (VALUES ('http://evil.com／x.example.com/'), ('http://example.com＠evil.com/'), ('http://exa％mple.com/'),
  ('http://a.com：80/'), ('http://a.com﹫b.com/'), ('http://a,b.com/'),        -- rejected
  ('http://evil.com。x.example.com/'), ('http://ｅｘａｍｐｌｅ.ＣＯＭ/'),         -- dots and letters: the same host
  ('http://a_b.com/'), ('http://r3---sn-x.googlevideo.com/'),                    -- real ASCII names stay
  ('http://127.1/'), ('http://0x7f.0.0.1/'), ('http://2130706433/'), ('http://１２７.０.０.１/'),  -- one IPv4 host
  ('http://a.123/')) AS t(u);

-- the dot-segment rule: dot segments go last, after encodings and tracking parameters, so one
-- normalization is enough; `..;v=1` is not a dot segment
SELECT u AS input, ndd_url_normalize(u) AS normalized,
       ndd_url_normalize(ndd_url_normalize(u)) = ndd_url_normalize(u) AS fixed
FROM (VALUES ('http://a.com/x/..;jsessionid=1/y'), ('http://a.com/x/%2e%2E/y'), ('http://a.com/x/.;sid=1/y'),
  ('http://a.com/x/..;v=1/y'), ('foo:/.//evil.com/x')) AS t(u);

-- properties over generated URLs (the core's unit tests run 40,000): for every accepted u,
-- normalize(normalize(u)) = normalize(u) and surt(u) = surt(normalize(u))
WITH hosts(h) AS (VALUES ('a.com'), ('A.COM'), ('bücher.de'), ('ｅｘ.com'), ('ex％a.com'), ('ex／a.com'),
       ('ex＠a.com'), ('ex%2Fa.com'), ('ex%2ea.com'), ('u@h.org:80'), ('h:0443'), ('[0::1]'), ('0x7f.1'),
       ('１.２.３.４'), ('a。b'), ('xn--zz'), ('a_b')),
     paths(p) AS (VALUES (''), ('/'), ('/x/..;jsessionid=1/y'), ('/x/.%2e/y'), ('/a/./b/../c'), ('/..;v=1/z'),
       ('/%7e?b=2&a=1&utm_source=x#f'), ('/a;sid=1/..'), ('/／/..'), ('/a\b')),
     urls(u) AS (SELECT s || '://' || h || p FROM hosts, paths, (VALUES ('http'), ('https'), ('ftp')) AS sc(s))
SELECT count(*) AS generated, count(*) FILTER (WHERE ndd_url_is_valid(u)) AS accepted,
       count(*) FILTER (WHERE ndd_url_is_valid(u)
                        AND ndd_url_normalize(ndd_url_normalize(u)) <> ndd_url_normalize(u)) AS not_idempotent,
       count(*) FILTER (WHERE ndd_url_is_valid(u) AND ndd_url_surt(u) <> ndd_url_surt(ndd_url_normalize(u))) AS surt_differs,
       count(*) FILTER (WHERE ndd_url_is_valid(u) <> (ndd_url_surt(u, false) IS NOT NULL)) AS surt_validity_differs
FROM urls;
