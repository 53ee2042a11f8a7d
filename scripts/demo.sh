#!/usr/bin/env bash
# scripts/demo.sh: the main job, end to end, on a Debian 12 machine as root from a bare checkout.
# Installs what is missing, builds and installs ndd, starts a throwaway PostgreSQL cluster, and:
#   1. texts: loads the sample shipped in test/data (295 real licence documents with real
#      near-duplicates; see test/data/README.md: lic-<name> is a licence text, par-<name>-<n> one of
#      its paragraphs, edit-<name>-<rate> a copy with seeded word edits at that rate, case-<name> a
#      copy upper-cased and re-wrapped), fingerprints them, finds exact duplicates, near-duplicates
#      through the index and in one batch, beside the exact path (ndd_jaccard_pairs), each scored
#      against the ground truth, prints which method to use when (the precision and recall of each
#      on the sample, with a one-line recommendation), clusters them and prints each cluster with
#      its worst pair;
#   2. the web: builds a crawl from the real HTML pages of test/data/html (test/data/make_crawl.py:
#      two documentation sites, a mirror, copies under four other sites' templates, a partial copy,
#      URL variants and aliases, canonical links as real sites state them) and finds the
#      near-duplicate pages through ndd_html_content that the raw HTML misses, the URL spellings that
#      normalize to one, the same page under many URLs by its normalized URL, its canonical link
#      (ndd_html_meta) and its content fingerprint together (doc/web.md), and the mirrored sites
#      (ndd_mirrors);
#   3. a folder of documents: loads test/data/documents/folder (licence texts in six formats, made
#      by pandoc and LibreOffice, with two near-duplicates and an unrelated file) with ndd-load,
#      and groups the files into near-duplicates across formats (ndd_jaccard_pairs, ndd_clusters).
# The throwaway PostgreSQL cluster is removed on exit. The output is the same on every machine.
#
#   NDD_DEMO_K=3         the simhash radius (bits)
#   NDD_DEMO_MACHINE=1   also load the package copyright files this machine has
#                        (/usr/share/doc/*/copyright: the figures then depend on what is installed)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$NDD_ROOT"
K=${NDD_DEMO_K:-3}

ndd_install_deps
export NDD_LOADER=required  # the folder of documents needs ndd-load: a missing library is an error
ndd_build_install
ndd_start_cluster
trap ndd_stop_cluster EXIT

psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
section() { printf '\n== %s\n' "$*"; }

section "loading the sample: test/data/sample.jsonl${NDD_DEMO_MACHINE:+ and /usr/share/doc/*/copyright}"
psql <<'SQL'
CREATE EXTENSION ndd;
CREATE TABLE docs (id bigserial PRIMARY KEY, name text NOT NULL, body text NOT NULL);
SQL
python3 test/data/to_copy_tsv.py test/data/sample.jsonl |
	psql -c "CREATE TEMP TABLE sample (name text, corpus text, source text, path text, body text)" \
		-c "\copy sample FROM STDIN" -c "INSERT INTO docs (name, body) SELECT name, body FROM sample"
if [ "${NDD_DEMO_MACHINE:-0}" = 1 ]; then
	# the licence texts are in the sample already: only the package copyright files
	python3 scripts/debian_docs_tsv.py | grep -v '^/usr/share/common-licenses/' |
		psql -c "\copy docs (name, body) FROM STDIN"
fi
psql -c "SELECT count(*) AS documents, pg_size_pretty(sum(octet_length(body))) AS text FROM docs"

section "fingerprints: simhash over word 4-shingles (the measured default: k = 3 gives precision 0.95 at J >= 0.8), the bit-flip fingerprint, the exact-duplicate key"
psql <<'SQL'
ALTER TABLE docs ADD COLUMN fp simhash64, ADD COLUMN bitflip fp128, ADD COLUMN exact fp128;
UPDATE docs SET fp = simhash(body, 4), bitflip = bitflip_fp(body), exact = content_hash(body);
SELECT id, name, fp, bitflip, exact FROM docs
WHERE name IN ('lic-GPL-2', 'case-GPL-2', 'edit-GPL-2-0.01', 'lic-GFDL-1.2', 'lic-GFDL-1.3') ORDER BY id;
SQL

section "exact duplicates: equal content_hash (same tokens: other case, spacing or punctuation), the largest groups"
psql <<'SQL'
SELECT count(*) AS copies, string_agg(name, ', ' ORDER BY id) AS documents
FROM docs GROUP BY exact HAVING count(*) > 1 ORDER BY count(*) DESC, min(id) LIMIT 8;
SELECT count(*) AS groups, sum(n) AS documents FROM (SELECT count(*) AS n FROM docs GROUP BY exact HAVING count(*) > 1) g;
SQL

section "the index: CREATE INDEX ... USING ndd, then 'within $K bits of the GFDL 1.3' and its nearest neighbours"
psql -v k="$K" <<'SQL'
CREATE INDEX docs_fp_idx ON docs USING ndd (fp);
ANALYZE docs;
SET enable_seqscan = off;  -- a few hundred rows: show the index plan the planner picks at scale
EXPLAIN (COSTS OFF)
SELECT id, name FROM docs WHERE fp <~> (SELECT fp FROM docs WHERE name = 'lic-GFDL-1.3') <= :k;
-- exact Jaccard of word 4-shingles beside each hit: the hits are real near-duplicates
SELECT d.name, d.fp <~> q.fp AS bits, round(jaccard(d.body, q.body)::numeric, 3) AS jaccard
FROM docs d, (SELECT fp, body FROM docs WHERE name = 'lic-GFDL-1.3') q
WHERE d.fp <~> q.fp <= :k ORDER BY bits, d.name;
EXPLAIN (COSTS OFF)
SELECT name FROM docs ORDER BY fp <~> (SELECT fp FROM docs WHERE name = 'lic-GFDL-1.3') LIMIT 5;
SELECT d.name, d.fp <~> q.fp AS bits, round(jaccard(d.body, q.body)::numeric, 3) AS jaccard
FROM docs d, (SELECT fp, body FROM docs WHERE name = 'lic-GFDL-1.3') q
ORDER BY d.fp <~> q.fp, d.name LIMIT 5;
RESET enable_seqscan;
SQL

section "all near-duplicate pairs within $K bits in one batch call: the near (not exact) ones"
psql -v k="$K" <<'SQL'
CREATE TABLE pairs AS SELECT * FROM ndd_pairs('SELECT id, fp FROM docs', :k);
SELECT count(*) AS pairs, count(*) FILTER (WHERE a.exact <> b.exact) AS near_not_exact
FROM pairs p JOIN docs a ON a.id = p.a JOIN docs b ON b.id = p.b;
SELECT a.name, b.name AS other, p.distance AS bits, round(jaccard(a.body, b.body)::numeric, 3) AS jaccard
FROM pairs p JOIN docs a ON a.id = p.a JOIN docs b ON b.id = p.b
WHERE a.exact <> b.exact ORDER BY jaccard, a.name, b.name;
SQL

section "the exact path beside the fingerprints: ndd_jaccard_pairs (every pair with word 4-shingle Jaccard >= 0.8, exactly), both scored against the sample's ground truth (test/data/sample.pairs.k4.tsv)"
psql -v k="$K" <<'SQL'
CREATE TEMP TABLE truth (a text, b text, jaccard float8, size_a int, size_b int, inter int, ntok_a int, ntok_b int,
                         edit_dist int, edit_sim float8);
\copy truth FROM 'test/data/sample.pairs.k4.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true)
CREATE TABLE truth_ids AS   -- the ground-truth pairs with J >= 0.8, as (lower id, higher id); kept for the next section
SELECT least(x.id, y.id) AS a, greatest(x.id, y.id) AS b, t.a AS name_a, t.b AS name_b
FROM truth t JOIN docs x ON x.name = t.a JOIN docs y ON y.name = t.b WHERE t.jaccard >= 0.8;
CREATE TABLE exact_pairs AS SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM docs', 0.8);
SELECT 'simhash(body, 4) within ' || :k || ' bits (ndd_pairs)' AS method,
       format('found %s of %s ground-truth pairs', count(p.a), count(*)) AS recall,
       format('%s of %s full licences'' 1%%-edit copies', count(p.a) FILTER (WHERE t.name_b LIKE 'edit-%-0.01' AND t.name_a LIKE 'lic-%'),
              count(*) FILTER (WHERE t.name_b LIKE 'edit-%-0.01' AND t.name_a LIKE 'lic-%')) AS edits_1pct
FROM truth_ids t LEFT JOIN pairs p ON p.a = t.a AND p.b = t.b
UNION ALL
SELECT 'ndd_jaccard_pairs(..., 0.8), exact',
       format('found %s of %s ground-truth pairs', count(p.a), count(*)),
       format('%s of %s full licences'' 1%%-edit copies', count(p.a) FILTER (WHERE t.name_b LIKE 'edit-%-0.01' AND t.name_a LIKE 'lic-%'),
              count(*) FILTER (WHERE t.name_b LIKE 'edit-%-0.01' AND t.name_a LIKE 'lic-%'))
FROM truth_ids t LEFT JOIN exact_pairs p ON p.a = t.a AND p.b = t.b;
SELECT count(*) AS exact_path_pairs_not_in_truth FROM exact_pairs p
WHERE NOT EXISTS (SELECT 1 FROM truth_ids t WHERE t.a = p.a AND t.b = p.b);
SQL
echo "(simhash within $K bits keeps precision high and misses the long documents' edited copies: one word"
echo " edit in a hundred moves many 4-shingles; the exact path verifies every candidate on the shingle sets)"

section "which method when: precision and recall of each on the sample (the ground truth: pairs with word 4-shingle Jaccard >= 0.8), at the settings doc/reference.md recommends"
psql -v k="$K" <<'SQL'
CREATE TEMP TABLE sketches AS SELECT id, shingle_minhash(body, 4, 84) AS sketch FROM docs;
CREATE TEMP TABLE methods (n int, method text, use_it text);
INSERT INTO methods VALUES
 (1, 'equal content_hash(body)', 'exact copies only (other case, spacing, punctuation): a plain b-tree or GROUP BY, never a wrong pair'),
 (2, 'simhash(body, 4) within ' || :k || ' bits', 'one 64-bit column and the ndd index: "is this new document already here?" online, at any size'),
 (3, 'bitflip_fp(body) within 31 bits', 'online lookups through the index on the raw characters, no word tokens (any script, markup, code)'),
 (4, 'supershingles, 2 of 6 shared', 'cheap batch candidates over a whole table (ndd_feature_pairs), no index needed'),
 (5, 'minhash_similarity >= 0.85 (84 hashes)', 'the best single estimate of Jaccard, when comparing sketches pairwise or in batches'),
 (6, 'minhash >= 0.70, then exact jaccard >= 0.8', 'before hiding or deleting anything: candidates from sketches, every pair verified'),
 (7, 'ndd_jaccard_pairs(..., 0.8), exact', 'the exact answer in one call, for a batch you can afford to compare in full');
CREATE TEMP TABLE found (n int, a bigint, b bigint);
INSERT INTO found SELECT 1, x.id, y.id FROM docs x JOIN docs y ON x.exact = y.exact AND x.id < y.id;
INSERT INTO found SELECT 2, a, b FROM pairs;
INSERT INTO found SELECT 3, a, b FROM ndd_pairs('SELECT id, bitflip FROM docs', 31);
INSERT INTO found SELECT 4, a, b FROM ndd_feature_pairs('SELECT id, supershingles(sketch) FROM sketches', 2);
INSERT INTO found SELECT 5, x.id, y.id FROM sketches x JOIN sketches y ON x.id < y.id
WHERE minhash_similarity(x.sketch, y.sketch) >= 0.85;
INSERT INTO found SELECT 6, x.id, y.id FROM sketches x JOIN sketches y ON x.id < y.id
JOIN docs dx ON dx.id = x.id JOIN docs dy ON dy.id = y.id
WHERE minhash_similarity(x.sketch, y.sketch) >= 0.70 AND jaccard(dx.body, dy.body) >= 0.8;
INSERT INTO found SELECT 7, a, b FROM exact_pairs;
\pset format unaligned
\pset tuples_only on
SELECT format('%-44s %4s pairs, precision %s, recall %s', m.method, count(f.a),
              coalesce(round(count(t.a)::numeric / nullif(count(f.a), 0), 3)::text, '-'),
              round(count(t.a)::numeric / (SELECT count(*) FROM truth_ids), 3))
       || E'\n    use it for: ' || m.use_it
FROM methods m LEFT JOIN found f ON f.n = m.n LEFT JOIN truth_ids t ON t.a = f.a AND t.b = f.b
GROUP BY m.n, m.method, m.use_it ORDER BY m.n;
SQL
echo "(precision: the share of the pairs found that are true; recall: the share of the true pairs found."
echo " On the whole dev corpus: doc/reference.md, \"Which fingerprint, which threshold: measured quality\")"

section "conservative clusters (every member within $K bits of every other), each with its worst pair"
psql <<'SQL'
CREATE TABLE clusters AS
SELECT * FROM ndd_clusters('SELECT a, b FROM pairs', conservative => true,
                           order_sql => 'SELECT id FROM docs ORDER BY id');
-- each cluster's worst pair: the two members with the lowest exact Jaccard of word 4-shingles
CREATE TABLE worst AS
SELECT * FROM ndd_cluster_worst_pairs('SELECT id, cluster_id FROM clusters', 'SELECT id, body FROM docs');
-- the clusters of near (not only exact) duplicates
SELECT w.size AS members, r.name AS representative, a.name || ' / ' || b.name AS worst_pair,
       round(w.jaccard::numeric, 3) AS worst_jaccard, round(w.edit_similarity::numeric, 3) AS worst_edit_similarity
FROM worst w JOIN docs r ON r.id = w.cluster_id JOIN docs a ON a.id = w.a JOIN docs b ON b.id = w.b
WHERE w.jaccard < 1 ORDER BY w.jaccard, r.name;
SELECT count(*) AS clusters, sum(size) AS documents, count(*) FILTER (WHERE jaccard < 1) AS with_near_duplicates,
       round(min(jaccard)::numeric, 3) AS worst_jaccard_overall
FROM worst;
SQL
section "the web: a crawl built from the real HTML pages of test/data/html (test/data/make_crawl.py): two documentation sites, a byte-for-byte mirror, copies under four other sites' templates, a partial copy, URL variants and aliases, canonical links as the sites state them"
psql <<'SQL'
CREATE TABLE pages (id bigserial PRIMARY KEY, url text NOT NULL, site text, page text, template text, html text NOT NULL);
SQL
python3 test/data/make_crawl.py 2>/dev/null | psql -c "\copy pages (url, site, page, template, html) FROM STDIN"
psql <<'SQL'
SELECT site, template, count(*) AS pages, pg_size_pretty(sum(octet_length(html))) AS html
FROM pages GROUP BY site, template ORDER BY min(id);
SQL

section "the same page under other sites' boilerplate: simhash of the raw HTML against simhash of ndd_html_content (word 4-shingles, within $K bits)"
psql -v k="$K" <<'SQL'
ALTER TABLE pages ADD COLUMN fp_html simhash64, ADD COLUMN fp_content simhash64;
UPDATE pages SET fp_html = simhash(html, 4), fp_content = simhash(ndd_html_content(html), 4);
-- one page and its copies
SELECT p.url, p.template, p.fp_html <~> o.fp_html AS html_bits, p.fp_content <~> o.fp_content AS content_bits
FROM pages p JOIN pages o ON o.page = p.page AND o.template = 'original'
WHERE p.page = 'debian-handbook/sect.apt-get.html' ORDER BY p.id;
SELECT left(ndd_html_content(html), 300) AS "ndd_html_content of the portal copy, first 300 characters"
FROM pages WHERE page = 'debian-handbook/sect.apt-get.html' AND template = 'portal';
-- the ground truth: two rows of the same source page with different HTML (a copy under another
-- template, not a byte-for-byte mirror or URL variant)
CREATE TEMP TABLE web_truth AS
SELECT x.id AS a, y.id AS b FROM pages x JOIN pages y ON x.page = y.page AND x.id < y.id WHERE x.html <> y.html;
CREATE TEMP TABLE pairs_html AS SELECT * FROM ndd_pairs('SELECT id, fp_html FROM pages', :k);
CREATE TEMP TABLE pairs_content AS SELECT * FROM ndd_pairs('SELECT id, fp_content FROM pages', :k);
SELECT 'simhash(html, 4)' AS fingerprint,
       format('found %s of %s ground-truth pairs', (SELECT count(*) FROM web_truth t JOIN pairs_html p USING (a, b)),
              (SELECT count(*) FROM web_truth)) AS recall,
       (SELECT count(*) FROM pairs_html p JOIN pages x ON x.id = p.a JOIN pages y ON y.id = p.b WHERE x.page <> y.page) AS pairs_of_different_pages
UNION ALL
SELECT 'simhash(ndd_html_content(html), 4)',
       format('found %s of %s ground-truth pairs', (SELECT count(*) FROM web_truth t JOIN pairs_content p USING (a, b)),
              (SELECT count(*) FROM web_truth)),
       (SELECT count(*) FROM pairs_content p JOIN pages x ON x.id = p.a JOIN pages y ON y.id = p.b WHERE x.page <> y.page);
-- the exact path on the extracted content, as for plain texts
SELECT format('found %s of %s ground-truth pairs', count(*) FILTER (WHERE t.a IS NOT NULL), (SELECT count(*) FROM web_truth))
       AS "exact path: ndd_jaccard_pairs over ndd_html_content, J >= 0.8"
FROM ndd_jaccard_pairs('SELECT id, ndd_html_content(html) FROM pages', 0.8) j LEFT JOIN web_truth t ON t.a = j.a AND t.b = j.b;
SELECT x.template, count(*) AS copies, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM pairs_html p WHERE p.a = t.a AND p.b = t.b)) AS found_by_html,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM pairs_content p WHERE p.a = t.a AND p.b = t.b)) AS found_by_content
FROM web_truth t JOIN pages o ON o.id = t.a AND o.template = 'original' JOIN pages x ON x.id = t.b
GROUP BY x.template ORDER BY x.template;
SQL
echo "(the \"tables\" template has no semantic tags or telling class names: its footer text stays in the"
echo " content of short pages; see doc/web.md)"

section "URLs: the crawl's spellings of one URL normalize to one (ndd_url_normalize: case, default port, dot segments, fragment, tracking and session parameters, parameter order)"
psql <<'SQL'
SELECT ndd_url_normalize(url) AS canonical, count(*) AS spellings, string_agg(url, E'\n' ORDER BY id) AS as_crawled
FROM pages WHERE ndd_url_normalize(url) IN
  (SELECT ndd_url_normalize(url) FROM pages GROUP BY 1 HAVING count(*) > 2 ORDER BY 1 LIMIT 2)
GROUP BY 1 ORDER BY 1;
SQL

section "the same page under many URLs: the normalized URL, the page's canonical link (ndd_html_meta) and the content fingerprint, combined as doc/web.md (\"The same page under many URLs\") shows"
psql -v k="$K" <<'SQL'
-- doc/web.md's three signals (fp_content, the third, is computed above)
ALTER TABLE pages
  ADD COLUMN url_key text GENERATED ALWAYS AS (ndd_url_normalize(url, false)) STORED,
  ADD COLUMN canonical text GENERATED ALWAYS AS (ndd_url_normalize(ndd_html_meta(html)->>'canonical', false)) STORED;
-- who states a canonical link (make_crawl.py: the sites and the mirror name the original, the
-- syndicated "magazine" copies too, the "portal" copies their own URL, the scrapers none)
SELECT template, count(*) AS pages, count(canonical) AS with_canonical_link,
       count(*) FILTER (WHERE canonical <> url_key) AS naming_another_url
FROM pages GROUP BY template ORDER BY min(id);
-- one page's nine rows: the canonical link joins what normalization cannot (/3/, ?highlight=)
SELECT url, template, canonical FROM pages WHERE page = 'python-docs/tutorial/appendix.html' ORDER BY id;
-- the pages as the crawl has them, then one key per page by each signal in turn; the last: rows
-- whose keys are equal or whose content fingerprints are within :k bits, joined transitively
CREATE TEMP TABLE same_page AS
SELECT * FROM ndd_clusters($$SELECT min(id) OVER (PARTITION BY coalesce(canonical, url_key)), id FROM pages
                             UNION ALL SELECT a, b FROM ndd_pairs('SELECT id, fp_content FROM pages', $$ || :k || $$)$$,
                           order_sql => 'SELECT id FROM pages ORDER BY id');
CREATE TEMP TABLE page_keys AS
SELECT p.page, p.url AS url_string, p.url_key, coalesce(p.canonical, p.url_key) AS page_key, s.cluster_id::text AS with_content
FROM pages p JOIN same_page s ON s.id = p.id;
SELECT key AS "one key per page", count(*) AS keys, count(*) FILTER (WHERE pages > 1) AS keys_joining_two_different_pages
FROM (SELECT n, key, value, count(DISTINCT page) AS pages
      FROM page_keys, LATERAL (VALUES (1, 'the URL as crawled', url_string), (2, 'ndd_url_normalize(url)', url_key),
                                      (3, 'its canonical link, else the normalized URL', page_key),
                                      (4, '... and content fingerprints within ' || :k || ' bits', with_content),
                                      (5, 'the source pages (the ground truth)', page)) AS v(n, key, value)
      GROUP BY n, key, value) k
GROUP BY n, key ORDER BY n;
SQL
echo "(what the three signals leave apart: copies under another template whose extracted content is more"
echo " than $K bits away, most of them the \"tables\" template's: see \"the same page under other sites' boilerplate\")"

section "mirrored sites: ndd_mirrors (pairs of URL prefixes serving the same paths with pages within $K bits, at least 10 and half of each side's pages) over the raw HTML's fingerprints and over ndd_html_content's"
psql -v k="$K" <<'SQL'
-- the planted mirrors, by host: the copies of one documentation set (make_crawl.py) pair up; the
-- forum's partial copy (every third page) must not be reported
CREATE TEMP TABLE planted AS
SELECT DISTINCT least(x.site, y.site) AS site_a, greatest(x.site, y.site) AS site_b
FROM pages x JOIN pages y ON x.page = y.page AND x.site <> y.site
WHERE x.template NOT IN ('forum', 'variant') AND y.template NOT IN ('forum', 'variant');
CREATE TEMP TABLE mirrors_html AS SELECT * FROM ndd_mirrors('SELECT url, fp_html FROM pages', :k);
CREATE TEMP TABLE mirrors_content AS SELECT * FROM ndd_mirrors('SELECT url, fp_content FROM pages', :k);
SELECT a, b, shared, pages_a, pages_b FROM mirrors_content ORDER BY a, b;
SELECT f.fingerprint,
       format('found %s of %s planted mirrors', count(DISTINCT (m.site_a, m.site_b)) FILTER (WHERE p.site_a IS NOT NULL),
              (SELECT count(*) FROM planted)) AS mirrors,
       count(*) FILTER (WHERE m.site_a = 'planet.example.org' OR m.site_b = 'planet.example.org') AS partial_copy_reported
FROM (VALUES ('simhash(html, 4)', 'mirrors_html'), ('simhash(ndd_html_content(html), 4)', 'mirrors_content')) AS f(fingerprint, tab)
LEFT JOIN LATERAL (
  SELECT least(sa, sb) AS site_a, greatest(sa, sb) AS site_b FROM (
    SELECT substring(a from '://([^/:]+)') AS sa, substring(b from '://([^/:]+)') AS sb FROM mirrors_html WHERE f.tab = 'mirrors_html'
    UNION ALL
    SELECT substring(a from '://([^/:]+)'), substring(b from '://([^/:]+)') FROM mirrors_content WHERE f.tab = 'mirrors_content') s
) m ON true
LEFT JOIN planted p ON p.site_a = m.site_a AND p.site_b = m.site_b
GROUP BY f.fingerprint ORDER BY f.fingerprint;
SQL
echo "(the one planted mirror not reported: www.handbook-mirror.example/debian-handbook/ and"
echo " www.docs-copies.example/copies/debian-handbook/ end in the same directory name, so the longest common"
echo " path takes it in and the prefixes are www.handbook-mirror.example/ and .../copies/, under which the"
echo " Python copies are too: the handbook is less than half of its pages, below min_fraction; see doc/web.md)"

section "a folder of documents: ndd-load reads test/data/documents/folder (five licences in six formats each, made by pandoc and LibreOffice; two near-duplicates of them; one unrelated file) into a table, each file's format found from its content"
"$NDD_PGBIN/ndd-load" -q --table folder test/data/documents/folder
psql <<'SQL'
ALTER TABLE folder ADD COLUMN name text GENERATED ALWAYS AS (substring(source from '[^/]*$')) STORED;
SELECT format, count(*) AS files, pg_size_pretty(sum(size)) AS bytes, sum(length(text)) AS characters_of_text,
       count(error) AS errors
FROM folder GROUP BY format ORDER BY format;
SQL

section "the same document across formats: fingerprints of the text, near-duplicate pairs (word 4-shingle Jaccard >= 0.8, ndd_jaccard_pairs), clusters (ndd_clusters), each group with its members' formats"
psql -v k="$K" <<'SQL'
ALTER TABLE folder ADD COLUMN fp simhash64 GENERATED ALWAYS AS (simhash(text, 4)) STORED;
-- doc/workflows.md's clusters over the exact pairs; a group's first member: its plain text if any
CREATE TABLE folder_pairs AS SELECT * FROM ndd_jaccard_pairs('SELECT id, text FROM folder WHERE error IS NULL', 0.8);
CREATE TABLE folder_groups AS
SELECT * FROM ndd_clusters('SELECT a, b FROM folder_pairs', order_sql => 'SELECT id FROM folder ORDER BY format <> ''text'', name');
SELECT f.name AS first_member, count(*) AS files, string_agg(d.format, ', ' ORDER BY d.format, d.name) AS formats,
       round(min(jaccard(d.text, f.text))::numeric, 3) AS lowest_jaccard_to_first, max(d.fp <~> f.fp) AS most_bits_from_first
FROM folder_groups g JOIN folder d ON d.id = g.id JOIN folder f ON f.id = g.cluster_id
GROUP BY f.name ORDER BY count(*) DESC, f.name;
-- the members that are not a conversion of the first member's file
SELECT f.name AS first_member, d.name AS near_duplicate, d.format, round(jaccard(d.text, f.text)::numeric, 3) AS jaccard,
       d.fp <~> f.fp AS bits
FROM folder_groups g JOIN folder d ON d.id = g.id JOIN folder f ON f.id = g.cluster_id
WHERE substring(d.name from '^(.*)\.[a-z]+$') <> substring(f.name from '^(.*)\.[a-z]+$') ORDER BY f.name, d.name;
-- the fingerprint alone against the exact pairs. The truth: the files of one document (one name,
-- other extensions), and each near-duplicate with its original's files (README.md of the folder)
CREATE TEMP TABLE folder_truth AS
SELECT x.id AS a, y.id AS b, CASE WHEN x.doc = y.doc THEN 'same' ELSE 'near' END AS kind
FROM (SELECT id, substring(name from '^(.*)\.[a-z]+$') AS doc FROM folder) x
JOIN (SELECT id, substring(name from '^(.*)\.[a-z]+$') AS doc FROM folder) y ON x.id < y.id
LEFT JOIN (VALUES ('GFDL-1.2', 'GFDL-1.3'), ('Apache-2.0-edited', 'Apache-2.0')) AS v(variant, original)
  ON (x.doc, y.doc) IN ((v.variant, v.original), (v.original, v.variant))
WHERE x.doc = y.doc OR v.variant IS NOT NULL;
SELECT m.method,
       format('%s of %s', count(*) FILTER (WHERE t.kind = 'same'), (SELECT count(*) FROM folder_truth WHERE kind = 'same'))
         AS pairs_of_one_documents_files,
       format('%s of %s', count(*) FILTER (WHERE t.kind = 'near'), (SELECT count(*) FROM folder_truth WHERE kind = 'near'))
         AS near_duplicate_pairs,
       count(*) FILTER (WHERE t.a IS NULL) AS other_pairs
FROM (SELECT 1, 'ndd_jaccard_pairs(text, 0.8), exact', a, b FROM folder_pairs
      UNION ALL SELECT 2, 'simhash(text, 4) within ' || :k || ' bits', least(a, b), greatest(a, b)
      FROM ndd_pairs('SELECT id, fp FROM folder WHERE error IS NULL', :k)) AS m(n, method, a, b)
LEFT JOIN folder_truth t ON t.a = m.a AND t.b = m.b
GROUP BY m.n, m.method ORDER BY m.n;
SQL
echo "(every converter adds or drops a little: a title line, list numbers, a PDF's page breaks. The exact"
echo " path measures the shingle sets and finds every pair; simhash within $K bits misses the shorter texts'"
echo " conversions and both near-duplicates, as it misses the sample's edited copies above)"

printf '\ndemo finished; the throwaway PostgreSQL cluster is removed on exit\n'
