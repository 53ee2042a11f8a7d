#!/usr/bin/env bash
# bench/mirrors.sh: ndd_mirrors on a synthetic crawl of N pages over N/100 hosts with planted
# mirrors and partial copies; is every planted mirror found, is any partial copy reported, how long
# does it take and how much memory does the backend hold at its peak; beside it, in the same run on
# the same rows, ndd_pairs alone (the pairs of pages the mirror search starts from).
#
#   bench/mirrors.sh [N ...]        default: 100000 300000 1000000
#   NDD_MIRRORS_K=3                 k of both calls (near mirrors need k >= 2)
#   NDD_NO_INSTALL=1                use the installed extension as it is
#
# The crawl: hosts h0..h{N/100-1}.example, 100 pages each at /s{j%7}/p{j}.html with random
# fingerprints, in groups of 50 hosts where hosts 0-5 are sources and 6-11 their copies:
#   6: full mirror of 0 at the root            7: full mirror of 1 under /mirror/, URLs written
#   8: near mirror of 2 (1-2 bits per page)       unnormalized (HTTP://H7.EXAMPLE:80/...?utm_source=)
#   9: 80 of 3's pages + 20 of its own (a mirror at min_fraction = 0.5)
#  10: 30 of 4's pages + 70 of its own (a partial copy: below min_fraction, must not be reported)
#  11: 45 of 5's pages + 55 of its own (a partial copy just below min_fraction)
# and one host in 100 serves the same /404.html (a page shared by many hosts, no mirror).
# Peak memory: the largest RssAnon of the backend, sampled every 50 ms during the call (private
# memory; shared buffers are not in it), and its RssAnon before the call.
# A benchmark: no thresholds.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
[ $# -gt 0 ] || set -- 100000 300000 1000000
K=${NDD_MIRRORS_K:-3}

ndd_bench_install
ndd_start_cluster "maintenance_work_mem=512MB" "work_mem=4MB" "max_parallel_workers_per_gather=0" \
	"checkpoint_timeout=30min" "max_wal_size=20GB"
trap ndd_stop_cluster EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "settings: maintenance_work_mem=512MB work_mem=4MB k=$K min_shared=10 min_fraction=0.5"

# Runs SQL in its own session and prints "seconds peak_rss_anon_kB base_rss_anon_kB".
measured() {
	local sql=$1 pidfile out
	pidfile=$(mktemp /tmp/ndd-mirrors-pid.XXXXXX)
	out=$(mktemp /tmp/ndd-mirrors-out.XXXXXX)
	: >"$pidfile"
	psql -X -q -At -v ON_ERROR_STOP=1 -d bench >"$out" <<SQL &
SELECT pg_backend_pid() \g $pidfile
SELECT extract(epoch FROM clock_timestamp()) AS t0 \gset
$sql;
SELECT round((extract(epoch FROM clock_timestamp()) - :t0)::numeric, 2);
SQL
	local psql_pid=$! pid="" base=0 peak=0 v
	while [ -z "$pid" ] && kill -0 $psql_pid 2>/dev/null; do
		pid=$(head -1 "$pidfile" 2>/dev/null || true)
		sleep 0.01
	done
	[ -n "$pid" ] && base=$(awk '/^RssAnon/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
	while kill -0 $psql_pid 2>/dev/null; do
		v=$(awk '/^RssAnon/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
		[ "${v:-0}" -gt "$peak" ] && peak=$v
		sleep 0.05
	done
	wait $psql_pid
	echo "$(tail -1 "$out") $peak $base"
	rm -f "$pidfile" "$out"
}

for N in "$@"; do
	H=$((N / 100))
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
	gen_start=$(date +%s.%N)
	psql -X -q -v ON_ERROR_STOP=1 -d bench <<SQL
CREATE EXTENSION ndd;
CREATE FUNCTION page_fp(host int, page int) RETURNS bigint LANGUAGE sql IMMUTABLE
  RETURN ('x' || substr(md5(host || ':' || page), 1, 16))::bit(64)::bigint;
CREATE TABLE hosts AS SELECT i AS host, i % 50 AS role, i - i % 50 + (i % 50 - 6) AS source FROM generate_series(0, $H - 1) i;
CREATE TABLE pages (id bigserial, url text, fp simhash64);
INSERT INTO pages (url, fp)
  SELECT CASE WHEN h.role = 7 THEN 'HTTP://H' || h.host || '.EXAMPLE:80/mirror/s' || (j % 7) || '/p' || j || '.html?utm_source=feed'
              ELSE 'http://h' || h.host || '.example/s' || (j % 7) || '/p' || j || '.html' END,
         CASE WHEN h.role < 6 OR h.role >= 12 THEN page_fp(h.host, j)
              WHEN h.role = 8 THEN page_fp(h.source, j) # (1::bigint << (j % 64)) # (CASE WHEN j % 2 = 0 THEN 1::bigint << ((j * 7 + 3) % 64) ELSE 0 END)
              WHEN h.role = 9 AND j >= 80 THEN page_fp(h.host, j)
              WHEN h.role = 10 AND j >= 30 THEN page_fp(h.host, j)
              WHEN h.role = 11 AND j >= 45 THEN page_fp(h.host, j)
              ELSE page_fp(h.source, j) END::simhash64
  FROM hosts h CROSS JOIN generate_series(0, 99) j;
INSERT INTO pages (url, fp) SELECT 'http://h' || host || '.example/404.html', page_fp(-1, 404)::simhash64 FROM hosts WHERE host % 100 = 17;
VACUUM ANALYZE pages;
-- what was planted, as ndd_mirrors would name it (prefixes in byte order)
CREATE TABLE planted AS
  SELECT kind, least(pa COLLATE "C", pb COLLATE "C") AS a, greatest(pa COLLATE "C", pb COLLATE "C") AS b FROM (
    SELECT CASE role WHEN 6 THEN 'full mirror' WHEN 7 THEN 'full mirror, other prefix' WHEN 8 THEN 'near mirror'
                     WHEN 9 THEN '80% mirror' WHEN 10 THEN 'partial copy 30%' ELSE 'partial copy 45%' END AS kind,
           'http://h' || source || '.example/' AS pa,
           'http://h' || host || '.example/' || CASE WHEN role = 7 THEN 'mirror/' ELSE '' END AS pb
    FROM hosts WHERE role BETWEEN 6 AND 11) s;
SQL
	gen_end=$(date +%s.%N)
	pages=$(psql -X -At -d bench -c "SELECT count(*) FROM pages")
	echo
	echo "== N = $N: $pages pages over $H hosts (generated in $(echo "$gen_end - $gen_start" | bc) s)"
	psql -X -At -d bench -c "SELECT kind || ': ' || count(*) FROM planted GROUP BY kind ORDER BY kind"

	read -r t_pairs peak_pairs base_pairs < <(measured "SELECT count(*) FROM ndd_pairs('SELECT id, fp FROM pages', $K)")
	read -r t_mir peak_mir base_mir < <(measured "CREATE TABLE found AS SELECT * FROM ndd_mirrors('SELECT url, fp FROM pages', $K)")
	read -r t_len _ _ < <(measured "SELECT count(length(url)) FROM pages")
	read -r t_norm _ _ < <(measured "SELECT count(ndd_url_normalize(url)) FROM pages")
	pairs=$(psql -X -At -d bench -c "SELECT count(*) FROM ndd_pairs('SELECT id, fp FROM pages', $K)")
	echo "ndd_pairs (baseline, the pairs of pages within $K bits): $pairs pairs, ${t_pairs} s, peak RssAnon $((peak_pairs / 1024)) MB (before $((base_pairs / 1024)) MB)"
	echo "ndd_url_normalize over the $pages URLs: ${t_norm} s (length(url) over them: ${t_len} s)"
	echo "ndd_mirrors: ${t_mir} s, peak RssAnon $((peak_mir / 1024)) MB (before $((base_mir / 1024)) MB); ratio to ndd_pairs $(echo "scale=2; $t_mir / $t_pairs" | bc)x"
	psql -X -At -d bench <<'SQL'
SELECT 'reported: ' || count(*) || ' prefix pairs' FROM found;
SELECT kind || ': ' || count(f.a) || ' of ' || count(*) || ' reported' FROM planted p
  LEFT JOIN found f ON f.a = p.a AND f.b = p.b GROUP BY kind ORDER BY kind;
SELECT 'reported but not planted: ' || count(*) FROM found f WHERE NOT EXISTS (SELECT FROM planted p WHERE p.a = f.a AND p.b = f.b);
SELECT 'shared/pages_a/pages_b of the planted mirrors: ' || string_agg(DISTINCT shared || '/' || pages_a || '/' || pages_b, ' ') FROM found;
SELECT 'temporary files of the database so far (sorts spilled beyond work_mem): ' || pg_size_pretty(temp_bytes) FROM pg_stat_database WHERE datname = 'bench';
SQL
done
