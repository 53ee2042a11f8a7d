#!/usr/bin/env bash
# Script test: the web functions' golden outputs, frozen at the release of 0.2.0.
#
# Users store what ndd_html_text, ndd_html_content and ndd_url_normalize return, and the fingerprints
# computed from them, and compare them with values that later releases compute: an extraction or a
# normalization that changed under them would silently split their duplicates, as a changed
# fingerprint would (test/sql/golden_fingerprints.sql says the same of the fingerprints). So each
# row of the demo's crawl (test/data/make_crawl.py: 1,269 real documentation pages, mirrors, copies
# under four site templates and URL variants) has its outputs recorded in
# test/expected/golden_web.tsv:
#
#   url  md5(ndd_html_text)[:8]  md5(ndd_html_content)[:8]  simhash(ndd_html_content, 4)
#        md5(canonical link of ndd_html_meta)[:8]  md5(ndd_url_normalize || ndd_url_surt)[:8]
#
# THE EXPECTED FILE IS FROZEN. If an extraction must improve, the improvement gets a new name or a
# version parameter and this test gains its own rows; the released names keep their outputs. Never
# regenerate test/expected/golden_web.tsv to make a change pass. NDD_GOLDEN_WEB_NEW=<file> writes
# this run's outputs to <file> (never over the expected file), for adding a new version's rows.
#
# Needs PGHOST/PGPORT/PGUSER of a throwaway cluster with ndd installed (not yet created in it), and
# python3 (the crawl generator).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
expected=$here/test/expected/golden_web.tsv
db=ndd_golden_web
got=$(mktemp /tmp/ndd-golden-web.XXXXXX.tsv)
trap 'rm -f "$got"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" \
	-c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
psql -X -q -v ON_ERROR_STOP=1 -d $db -c "CREATE EXTENSION ndd" \
	-c "CREATE TABLE crawl (url text PRIMARY KEY, site text, page text, template text, html text)"
python3 "$here/test/data/make_crawl.py" |
	psql -X -q -v ON_ERROR_STOP=1 -d $db -c "COPY crawl FROM STDIN"

# The session's search_path is pg_catalog only: every ndd name is qualified by the extension's schema.
schema=$(psql -X -At -d $db -c "SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'ndd'")
psql -X -q -At -F $'\t' -v ON_ERROR_STOP=1 -d $db -o "$got" <<SQL
SET search_path = pg_catalog;
SELECT url,
       left(md5($schema.ndd_html_text(html)), 8),
       left(md5($schema.ndd_html_content(html)), 8),
       $schema.simhash($schema.ndd_html_content(html), 4)::text,
       left(md5(coalesce($schema.ndd_html_meta(html) ->> 'canonical', '')), 8),
       left(md5($schema.ndd_url_normalize(url) || ' ' || $schema.ndd_url_surt(url)), 8)
  FROM public.crawl
 ORDER BY url COLLATE "C";
SQL
psql -X -q -d postgres -c "DROP DATABASE $db"

if [ -n "${NDD_GOLDEN_WEB_NEW:-}" ]; then
	[ "$(realpath -m "$NDD_GOLDEN_WEB_NEW")" != "$(realpath "$expected")" ] ||
		{ echo "FAIL: NDD_GOLDEN_WEB_NEW must not name the frozen $expected"; exit 1; }
	cp "$got" "$NDD_GOLDEN_WEB_NEW"
	echo "wrote $(wc -l <"$got") rows to $NDD_GOLDEN_WEB_NEW"
fi
if [ ! -s "$expected" ]; then
	echo "FAIL: $expected is missing"
	exit 1
fi
rows=$(wc -l <"$got")
if ! cmp -s "$expected" "$got"; then
	changed=$(diff "$expected" "$got" | grep -c '^>' || true)
	echo "FAIL: $changed of $rows rows differ from the outputs frozen at 0.2.0 (url, text, content, simhash, canonical, URL); first differences:"
	diff "$expected" "$got" | head -12
	echo "a released output may not change: give the new behaviour a new name or a version parameter (see the header of $0)"
	exit 1
fi
echo "ok: the web functions' outputs on $rows crawl rows equal those frozen at 0.2.0"
