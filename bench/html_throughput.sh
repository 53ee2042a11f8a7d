#!/usr/bin/env bash
# bench/html_throughput.sh: ndd_html_content and ndd_html_text through SQL on one core, on the real
# pages of test/data/html (298 pages, 11.8 MB, repeated NDD_REPEAT times), beside the parser's own
# speed (libxml2's SAX push parser collecting the text, bench/html_parsers.cpp) and a baseline
# query that only reads the pages (sum of length(html): detoasting and counting characters). Each
# query runs three times; the medians of CPU time (the backend's /proc/self/stat) and wall time
# are reported as MB/s of HTML in. Raw output: bench/results/html_throughput.txt.
#   NDD_REPEAT=8   copies of the sample (8: 95 MB)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
REPEAT=${NDD_REPEAT:-8}
ndd_bench_install
ndd_start_cluster "max_parallel_workers_per_gather=0" "jit=off"
trap ndd_stop_cluster EXIT
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
tool=$(mktemp -d /tmp/ndd-html-tp.XXXXXX)
out=bench/results/html_throughput.txt
{
echo "# bash bench/html_throughput.sh   ($(date -u +%F), NDD_REPEAT=$REPEAT, one core: max_parallel_workers_per_gather=0)"
psql -c "CREATE EXTENSION ndd" -c "CREATE TABLE pages (url text, site text, page text, template text, html text)"
python3 test/data/make_crawl.py --every-template 2>/dev/null | awk -F'\t' '$4 == "original"' |
	psql -c "\copy pages FROM STDIN"
psql -c "INSERT INTO pages SELECT p.* FROM pages p, generate_series(2, $REPEAT)" -c "VACUUM ANALYZE pages"
bytes=$(psql -At -c "SELECT sum(octet_length(html)) FROM pages")
echo "pages: $(psql -At -c "SELECT count(*) FROM pages"), $bytes bytes of HTML"
median3() { sort -n | sed -n 2p; }
# CPU seconds of this backend (utime + stime of /proc/self/stat, in clock ticks): the machine may be
# shared, so the figure is CPU time, with the wall time beside it.
hz=$(getconf CLK_TCK)
sqlf=$(mktemp /tmp/ndd-html-tp.XXXXXX.sql)
for expr in "length(html)" "octet_length(ndd_html_text(html))" "octet_length(ndd_html_content(html))" "simhash(ndd_html_content(html), 4)::bigint % 2"; do
	cat >"$sqlf" <<SQL
SELECT 'ticks ' || (split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint) FROM pg_read_file('/proc/self/stat') s;
\\timing on
SELECT sum($expr) FROM pages;
\\timing off
SELECT 'ticks ' || (split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint) FROM pg_read_file('/proc/self/stat') s;
SQL
	# one line per run: "<wall ms> <cpu ms>"
	runs=$(for i in 1 2 3; do
		psql -At -f "$sqlf" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p; s/^ticks \([0-9]*\)$/\1/p' |
			awk -v hz="$hz" 'NR == 1 {t0 = $1} NR == 2 {w = $1} NR == 3 {printf "%s %.0f\n", w, ($1 - t0) * 1000 / hz}'
	done)
	w=$(awk '{print $1}' <<<"$runs" | sort -n | sed -n 2p)
	c=$(awk '{print $2}' <<<"$runs" | sort -n | sed -n 2p)
	awk -v e="$expr" -v b="$bytes" -v w="$w" -v c="$c" 'BEGIN {
		if (c < 10) c = 10
		printf "SQL  sum(%s): CPU %.0f ms = %.1f MB/s;  wall %.0f ms = %.1f MB/s   (medians of 3)\n", e, c, b / c / 1000, w, b / w / 1000 }'
done
rm -f "$sqlf"
# the parser alone, outside PostgreSQL, on the same pages (one copy each)
g++ -O2 -std=c++17 -o "$tool/html_parsers" bench/html_parsers.cpp $(xml2-config --cflags) -lgumbo $(xml2-config --libs) 2>/dev/null &&
python3 - "$tool" <<'PY'
import gzip, json, sys
for i, l in enumerate(gzip.open('test/data/html/pages.jsonl.gz', 'rt')):
    open(f'{sys.argv[1]}/real{i:03d}.html', 'w').write(json.loads(l)['html'])
PY
for p in libxml2 gumbo; do
	(cd "$tool" && ./html_parsers $p real*.html) | awk -v p=$p '{b+=$3; t+=$4} END {printf "parser alone (%s, no SQL, text of every element): CPU %.1f MB/s\n", p, b/t/1e6}'
done
} 2>&1 | tee "$out"
rm -rf "$tool"
