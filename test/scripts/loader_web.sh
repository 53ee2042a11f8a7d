#!/usr/bin/env bash
# Script test: the web sample through ndd-load (issue 27). The crawl of test/data/make_crawl.py (two
# documentation sites, a byte-for-byte mirror, copies under other sites' templates, a partial copy,
# URL variants: the demo's) is served by a loopback HTTP proxy (every host of the crawl answered from
# 127.0.0.1; https URLs served as http, no TLS), fetched by wget --warc-file, loaded by ndd-load, and
# ndd_mirrors over the loaded pages (uri, simhash of ndd_html_content) must find the planted mirrors:
# the same host pairs as the demo's query over the same pages loaded by COPY (scripts/demo.sh,
# "mirrored sites"), and not the partial copy. The same WARC loaded in parts by three workers gives
# the same rows (and with a crash inside one record, that record's error row). Against the cluster of
# scripts/test.sh (PG*).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/scripts/lib.sh"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
db=ndd_loader_web_test
K=3  # the demo's radius (NDD_DEMO_K)
fail=0
check() { # check NAME EXPECTED ACTUAL
	if [ "$2" != "$3" ]; then echo "FAIL $1: expected '$2', got '$3'"; fail=1; else echo "ok $1"; fi
}
command -v wget >/dev/null || { echo "FAIL: wget is missing"; exit 1; }
make -s -C "$ROOT/loader" ndd-load >/dev/null || { echo "FAIL: ndd-load does not build (make -C loader)"; exit 1; }

work=$(mktemp -d /tmp/ndd-loader-web.XXXXXX)
proxy_pid=
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '[ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null; [ "${NDD_KEEP_DB:-0}" = 1 ] || $PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; rm -rf "$work"' EXIT
export PGDATABASE=$db
$PSQL -c "CREATE EXTENSION ndd" || exit 1

python3 "$ROOT/test/data/make_crawl.py" >"$work/crawl.copy" 2>/dev/null || { echo "FAIL: make_crawl.py"; exit 1; }
# the URLs to fetch: as the crawl spells them, https served as http (the proxy has no TLS)
cut -f1 "$work/crawl.copy" | sed -E 's|^[Hh][Tt][Tt][Pp][Ss]://|http://|' >"$work/urls.txt"

# the proxy: answers GET http://HOST/PATH with the crawl's page at that URL (scheme, host case, a
# fragment, dot segments and the default port as wget sends them: compared normalized)
python3 - "$work/crawl.copy" >"$work/proxy.log" 2>&1 <<'PY' &
import http.server, posixpath, re, sys, urllib.parse
ESC = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
def unescape(s):  # COPY text format
    return re.sub(r"\\(.)", lambda m: ESC.get(m.group(1), m.group(1)), s)
def key(url):
    u = urllib.parse.urlsplit(url)
    host = (u.hostname or "").lower()
    port = u.port
    path = posixpath.normpath(u.path) if u.path else "/"
    if u.path.endswith("/") and not path.endswith("/"):
        path += "/"
    return (host, path, u.query)
pages = {}
for line in open(sys.argv[1], encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    pages.setdefault(key(f[0]), unescape(f[4]).encode("utf-8"))
class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        body = pages.get(key(self.path))
        status = 200 if body is not None else 404
        body = body if body is not None else b"not in the crawl\n"
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
print("port", s.server_address[1], flush=True)
s.serve_forever()
PY
proxy_pid=$!
port=$(ndd_wait_port "$work/proxy.log") || { echo "FAIL: the proxy did not start: $(cat "$work/proxy.log")"; exit 1; }
(cd "$work" && http_proxy=http://127.0.0.1:$port/ no_proxy= wget -q -e robots=off -e use_proxy=yes \
	--tries=1 --delete-after -i urls.txt --warc-file="$work/web" 2>"$work/wget.err")
[ -s "$work/web.warc.gz" ] || { echo "FAIL: wget wrote no WARC: $(tail -3 "$work/wget.err")"; exit 1; }
kill "$proxy_pid"
proxy_pid=

"$ROOT/loader/ndd-load" -t web -q "$work/web.warc.gz"
check "ndd-load: the WARC loaded without error" "0" "$?"
check "every page fetched and loaded with its uri, as HTML" "t" \
	"$($PSQL -c "SELECT count(*) >= 1200 AND bool_and(format = 'html' AND (meta->>'http_status')::int = 200) FROM web WHERE uri LIKE 'http://%'")"

# The same WARC (4 MB or more) extracted in parts by three workers (doc/loader.md, "Parallel
# extraction"): the same rows as one worker's. Then with a crash inside one record of one part: that
# record's row says so, every other record is loaded as before.
columns="member, uri, format, size, hash, modified, title, text, html, meta, error"
same_rows() { # same_rows TABLE [MEMBER]: rows of web missing from TABLE, rows of TABLE not in web (MEMBER left out), own rows of TABLE
	$PSQL -F '|' -c "SELECT (SELECT count(*) FROM (SELECT $columns FROM web WHERE member IS DISTINCT FROM '${2:-}' EXCEPT SELECT $columns FROM $1) a),
		(SELECT count(*) FROM (SELECT $columns FROM $1 WHERE member IS DISTINCT FROM '${2:-}' EXCEPT SELECT $columns FROM web) b),
		(SELECT count(*) FROM $1 WHERE member IS NULL)"
}
[ "$(stat -c %s "$work/web.warc.gz")" -ge $((4 << 20)) ] || echo "FAIL: the WARC is smaller than the size that is split (4 MB)"
"$ROOT/loader/ndd-load" -t web_parts -j 3 -q "$work/web.warc.gz"
check "ndd-load -j 3: the WARC in three parts loads the rows one worker loads" "0|0|1" "$(same_rows web_parts)"
rows=$($PSQL -c "SELECT count(*) FROM web_parts")
"$ROOT/loader/ndd-load" -t web_parts -j 3 -q "$work/web.warc.gz"
check "ndd-load -j 3 again: the WARC is loaded already, nothing twice" "0|$rows" "$?|$($PSQL -c "SELECT count(*) FROM web_parts")"
victim=$($PSQL -c "SELECT member FROM web WHERE uri IS NOT NULL ORDER BY member OFFSET 100 LIMIT 1")
NDD_LOAD_FAULT="crash:$victim" "$ROOT/loader/ndd-load" -t web_crash -j 2 -q "$work/web.warc.gz"
check "ndd-load -j 2, a record crashing its part: exit status 3" "3" "$?"
check "ndd-load -j 2, a record crashing its part: its row says so, the others as one worker loads them" "t|0|0|1" \
	"$($PSQL -c "SELECT error ~ 'crashed' FROM web_crash WHERE member = '$victim'")|$(same_rows web_crash "$victim")"

# the demo's pages, loaded by COPY, its query over them; the same query over the loaded WARC
$PSQL <<SQL || fail=1
CREATE TABLE pages (id bigserial PRIMARY KEY, url text NOT NULL, site text, page text, template text, html text NOT NULL);
\\copy pages (url, site, page, template, html) FROM '$work/crawl.copy'
ALTER TABLE pages ADD COLUMN fp_content simhash64;
UPDATE pages SET fp_content = simhash(ndd_html_content(html), 4);
ALTER TABLE web ADD COLUMN fp_content simhash64;
UPDATE web SET fp_content = simhash(ndd_html_content(html), 4) WHERE uri IS NOT NULL;
CREATE TABLE planted AS
SELECT DISTINCT least(x.site, y.site) AS site_a, greatest(x.site, y.site) AS site_b
FROM pages x JOIN pages y ON x.page = y.page AND x.site <> y.site
WHERE x.template NOT IN ('forum', 'variant') AND y.template NOT IN ('forum', 'variant');
CREATE FUNCTION host_pairs(q text) RETURNS TABLE (site_a text, site_b text) LANGUAGE sql AS \$\$
  SELECT DISTINCT least(sa, sb), greatest(sa, sb) FROM (
    SELECT lower(substring(a from '://([^/:]+)')) AS sa, lower(substring(b from '://([^/:]+)')) AS sb
    FROM ndd_mirrors(q, $K)) s \$\$;
CREATE TABLE found_demo AS SELECT * FROM host_pairs('SELECT url, fp_content FROM pages');
CREATE TABLE found_warc AS SELECT * FROM host_pairs('SELECT uri, fp_content FROM web WHERE uri IS NOT NULL');
SQL
echo "planted: $($PSQL -c "SELECT string_agg(site_a || ' = ' || site_b, '; ' ORDER BY 1, 2) FROM planted")"
echo "found from the WARC: $($PSQL -c "SELECT string_agg(site_a || ' = ' || site_b, '; ' ORDER BY 1, 2) FROM found_warc")"
planted=$($PSQL -c "SELECT count(*) FROM planted")
by_demo=$($PSQL -c "SELECT count(*) FROM planted JOIN found_demo USING (site_a, site_b)")
# (the demo finds 8 of the 9: two copies of the handbook under two different templates are not one
# mirror's pages within $K bits)
check "the WARC's pages: the planted mirrors, as many as the demo finds ($by_demo of $planted)" "$by_demo" \
	"$($PSQL -c "SELECT count(*) FROM planted JOIN found_warc USING (site_a, site_b)")"
check "the WARC's pages: no pair of sites that is not planted" "0" \
	"$($PSQL -c "SELECT count(*) FROM found_warc LEFT JOIN planted USING (site_a, site_b) WHERE planted.site_a IS NULL")"
check "the WARC's pages: the partial copy not reported" "0" \
	"$($PSQL -c "SELECT count(*) FROM found_warc WHERE 'planet.example.org' IN (site_a, site_b)")"
check "the WARC's pages find what the demo finds from the same data" "0|0" \
	"$($PSQL -F '|' -c "SELECT (SELECT count(*) FROM (TABLE found_demo EXCEPT TABLE found_warc) d), (SELECT count(*) FROM (TABLE found_warc EXCEPT TABLE found_demo) w)")"

[ "$fail" = 0 ] && echo "loader_web: every check passed"
exit "$fail"
