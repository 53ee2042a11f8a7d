#!/usr/bin/env bash
# Script test: every ```sql block of doc/web.md's "URLs" and "Mirrors" sections runs, in order, in
# one psql session on a fresh database with ON_ERROR_STOP, so that the documented SQL (canonical
# URLs, URLs that serve the same page, mirrors) cannot drift from what the extension does; and the
# answers the text promises hold: the exact-copy groups, the near-copy groups, the mirror found and
# the partial copy not reported.
# Needs PGHOST/PGPORT/PGUSER of a throwaway cluster with ndd installed (not yet created in it).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
db=ndd_web_doc
script=$(mktemp /tmp/ndd-web-doc.XXXXXX.sql)
log=$(mktemp /tmp/ndd-web-doc.XXXXXX.log)
trap 'rm -f "$script" "$log"' EXIT

awk -v out="$script" '
	/^## / { mine = ($0 == "## URLs" || $0 == "## Mirrors") }
	/^```sql[ \t]*$/ && !inside { inside = 1; if (mine) { n++; print "\\echo doc/web.md block " n " (line " NR + 1 ")" > out }; next }
	/^```/ && inside { inside = 0; next }
	inside && mine { print > out }
	END { printf "%d sql blocks\n", n }' "$here/doc/web.md"

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" \
	-c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
psql -X -q -d $db -c "CREATE EXTENSION ndd"
if ! psql -X -v ON_ERROR_STOP=1 -d $db -f "$script" >"$log" 2>&1; then
	echo "FAIL: a doc/web.md SQL block does not run as written:"
	grep -n 'doc/web.md block\|ERROR\|LINE\|HINT\|DETAIL' "$log" | tail -8
	exit 1
fi
echo "every doc/web.md SQL block of URLs and Mirrors ran: $(grep -c '^doc/web.md block' "$log") blocks, no error"

# What the text says the blocks show.
check() {
	local got
	got=$(psql -X -At -d $db -c "$2")
	if [ "$got" != "$3" ]; then
		echo "FAIL: $1: got '$got', expected '$3'"
		exit 1
	fi
	echo "ok: $1"
}
check "row 6 is skipped, not fatal" "SELECT count(*) FILTER (WHERE canonical IS NULL), count(*) FROM crawl" "1|6"
check "rows 1 and 2 are one canonical URL" \
	"SELECT count(DISTINCT canonical) FROM crawl WHERE id IN (1, 2)" "1"
check "exact copies: rows 1-3 share a content hash" \
	"SELECT array_agg(DISTINCT canonical ORDER BY canonical) FROM crawl WHERE canonical IS NOT NULL GROUP BY content_hash(body) HAVING count(DISTINCT canonical) > 1" \
	"{http://www.example.com/guide/intro.html,https://example.com/guide/intro.html}"
check "near copies: rows 1-4 in one group" \
	"SELECT string_agg(p.url, ' ' ORDER BY p.url) FROM ndd_clusters('SELECT a, b FROM ndd_pairs(''SELECT id, fp FROM url_pages'', 3)') c JOIN url_pages p ON p.id = c.id GROUP BY c.cluster_id HAVING count(*) > 1" \
	"http://mirror.example.org/guide/intro.html http://www.example.com/guide/intro.html https://example.com/guide/intro.html"
check "the mirror is found, the partial copy is not" \
	"SELECT string_agg(a || ' ' || b || ' ' || shared || ' ' || pages_a || ' ' || pages_b, '; ') FROM ndd_mirrors('SELECT url, fp FROM site_pages')" \
	"http://docs.example.com/ https://mirror.example.net/pub/ 30 30 30"
psql -X -q -d postgres -c "DROP DATABASE $db"
