#!/usr/bin/env bash
# Script test: what scripts/demo.sh's last two parts rest on, checked on their data rather than on
# the demo's printed output (the demo itself is not run: it builds and starts a cluster of its own).
#   1. the crawl of test/data/make_crawl.py states canonical links as its header says (the sites, the
#      mirror, the URL variants and aliases and the syndicated "magazine" copies name the original's
#      canonical link, the "portal" copies their own URL, the other copies none), and doc/web.md's page
#      key, coalesce(canonical link, normalized URL), joins more than normalization and never two
#      different pages;
#   2. the folder of documents (test/data/documents/folder) through ndd-load: every file loaded with
#      its format found from its content, and ndd_clusters over ndd_jaccard_pairs(text, 0.8) gives
#      exactly one group per document (the near-duplicates in their originals', README.md there).
# Against the cluster of scripts/test.sh (PG*).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
db=ndd_demo_parts_test
fail=0
check() { # check NAME EXPECTED ACTUAL
	if [ "$2" != "$3" ]; then echo "FAIL $1: expected '$2', got '$3'"; fail=1; else echo "ok $1"; fi
}
make -s -C "$ROOT/loader" ndd-load >/dev/null || { echo "FAIL: ndd-load does not build (make -C loader)"; exit 1; }
work=$(mktemp -d /tmp/ndd-demo-parts.XXXXXX)
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; rm -rf "$work"' EXIT
export PGDATABASE=$db
$PSQL -c "CREATE EXTENSION ndd" || exit 1

# ---- 1. the crawl's canonical links ----
python3 "$ROOT/test/data/make_crawl.py" >"$work/crawl.copy" 2>/dev/null || { echo "FAIL: make_crawl.py"; exit 1; }
$PSQL <<SQL || { echo "FAIL: loading the crawl"; exit 1; }
CREATE TABLE pages (id bigserial PRIMARY KEY, url text NOT NULL, site text, page text, template text, html text NOT NULL);
\copy pages (url, site, page, template, html) FROM '$work/crawl.copy'
ALTER TABLE pages
  ADD COLUMN url_key text GENERATED ALWAYS AS (ndd_url_normalize(url, false)) STORED,
  ADD COLUMN canonical text GENERATED ALWAYS AS (ndd_url_normalize(ndd_html_meta(html)->>'canonical', false)) STORED;
CREATE TABLE original AS SELECT page, canonical FROM pages WHERE template = 'original';
SQL
check "the crawl: every page's canonical link as make_crawl.py's header says, by template" \
	"forum:0|magazine:0|mirror:0|original:0|portal:0|tables:0|variant:0" \
	"$($PSQL -c "SELECT string_agg(template || ':' || bad, '|' ORDER BY template) FROM (
		SELECT p.template, count(*) FILTER (WHERE CASE
			WHEN p.template IN ('original', 'mirror', 'variant', 'magazine') THEN p.canonical IS DISTINCT FROM o.canonical OR p.canonical IS NULL
			WHEN p.template = 'portal' THEN p.canonical IS DISTINCT FROM p.url_key
			ELSE p.canonical IS NOT NULL END) AS bad
		FROM pages p JOIN original o USING (page) GROUP BY p.template) t")"
check "the crawl: a Python page names its /3/ URL, a handbook page itself" "171|127" \
	"$($PSQL -F '|' -c "SELECT count(*) FILTER (WHERE site = 'docs.python.example' AND canonical = replace(url_key, '/3.11/', '/3/')),
		count(*) FILTER (WHERE site = 'debian-handbook.example' AND canonical = url_key) FROM pages WHERE template = 'original'")"
check "the crawl: aliases normalization keeps apart (/3/, ?highlight=), joined by the canonical link" "32|32" \
	"$($PSQL -F '|' -c "SELECT count(*) FILTER (WHERE p.url_key <> o.url_key), count(*) FILTER (WHERE p.canonical = o.canonical)
		FROM pages p JOIN pages o ON o.page = p.page AND o.template = 'original'
		WHERE p.template = 'variant' AND (p.url ~ '/3/' OR p.url ~ 'highlight=')")"
check "the crawl: page keys (canonical link, else normalized URL) fewer than normalized URLs, none joining two pages" "t|0" \
	"$($PSQL -F '|' -c "SELECT (SELECT count(DISTINCT coalesce(canonical, url_key)) FROM pages) < (SELECT count(DISTINCT url_key) FROM pages),
		(SELECT count(*) FROM (SELECT 1 FROM pages GROUP BY coalesce(canonical, url_key) HAVING count(DISTINCT page) > 1) k)")"
python3 "$ROOT/test/data/make_crawl.py" 2>/dev/null | cmp -s - "$work/crawl.copy"
check "the crawl: deterministic (a second run, byte for byte)" "0" "$?"

# ---- 2. the folder of documents ----
"$ROOT/loader/ndd-load" -q -t folder "$ROOT/test/data/documents/folder"
check "ndd-load: the folder loaded without error" "0" "$?"
check "the folder: 33 files, each format found from its content as its extension names it" "33|0" \
	"$($PSQL -F '|' -c "SELECT count(*), count(*) FILTER (WHERE error IS NOT NULL OR
		format <> CASE substring(source from '\.([a-z]+)$') WHEN 'txt' THEN 'text' ELSE substring(source from '\.([a-z]+)$') END)
		FROM folder")"
# the truth: a document is a file's name without its extension, a near-duplicate counted with its
# original (test/data/documents/README.md)
check "the folder: ndd_clusters over ndd_jaccard_pairs(text, 0.8): one group per document, each whole" \
	"6|Apache-2.0:7|Artistic:6|CC0-1.0:1|GFDL-1.3:7|GPL-2:6|MPL-2.0:6" \
	"$($PSQL -c "WITH d AS (
		SELECT id, coalesce(v.original, doc) AS doc FROM (SELECT id, substring(source from '([^/]*)\.[a-z]+$') AS doc FROM folder) f
		LEFT JOIN (VALUES ('GFDL-1.2', 'GFDL-1.3'), ('Apache-2.0-edited', 'Apache-2.0')) AS v(variant, original) ON v.variant = f.doc),
	g AS (SELECT * FROM ndd_clusters(\$\$SELECT a, b FROM ndd_jaccard_pairs('SELECT id, text FROM folder', 0.8)\$\$,
	                                 order_sql => 'SELECT id FROM folder ORDER BY id'))
	SELECT (SELECT count(DISTINCT cluster_id) FROM g) || '|' || string_agg(doc || ':' || n, '|' ORDER BY doc)
	FROM (SELECT d.doc, count(*) AS n  -- a document in one group, that group holding no other document
	      FROM d JOIN g USING (id) GROUP BY d.doc HAVING count(DISTINCT g.cluster_id) = 1
	        AND bool_and((SELECT count(DISTINCT d2.doc) FROM g g2 JOIN d d2 USING (id) WHERE g2.cluster_id = g.cluster_id) = 1)) x")"

exit $fail
