#!/usr/bin/env bash
# bench/html_realpages.sh: ndd_html_content on real pages nobody here wrote, beside the extractors
# people use, scored on two public development sets (issue 29): trafilatura's evaluation corpus
# (990 annotated pages, trafilatura's own snippet metric) and Mozilla Readability's 130 test pages
# (token 4-shingle F1 and simhash agreement with Readability's own output). The pages are not in the
# repository: ../shared/webdev holds them, unpacked into NDD_WEBDEV_DATA (default /work/webdev-data).
#
#   bash bench/html_realpages.sh quick   ndd's core alone (bench/html_extract.cpp, no PostgreSQL),
#                                        scored beside the peers' last outputs: seconds, for
#                                        iterating on src/core/html_content.cpp. Another checkout's
#                                        core beside main's last run:
#                                        NDD_REALPAGES_SRC=/work/wt/content NDD_REALPAGES_NAME=content
#                                        bash bench/html_realpages.sh quick   (quick, heldout modes)
#   bash bench/html_realpages.sh sql     the core and the SQL path alone, scored
#   bash bench/html_realpages.sh heldout the held-out template test alone (bench/quality/heldout_templates.py)
#   bash bench/html_realpages.sh peers   the peers alone, rerun and scored (minutes)
#   bash bench/html_realpages.sh articles
#                                        the 181 real news and blog pages of issue 29's own table
#                                        (scrapinghub/article-extraction-benchmark, hand-made
#                                        articleBody, its evaluate.py's token-shingle metric),
#                                        ndd's core beside the published outputs of trafilatura,
#                                        Readability.js, readability-lxml, boilerpipe and jusText;
#                                        by halves, with simhash agreement and the worst pages
#                                        (NDD_REALPAGES_WORST, default 15). The benchmark is cloned
#                                        at a pinned commit into NDD_WEBDEV_DATA (skipped with a
#                                        message when it cannot be; NDD_ARTICLES_REPO: another
#                                        clone to take it from); quick and heldout modes too
#                                        take NDD_REALPAGES_SRC
#   bash bench/html_realpages.sh         everything: the core, the same pages through SQL
#                                        (ndd_html_content in a throwaway cluster: the figures, and
#                                        the throughput in MB of HTML per CPU second), the peers
#                                        rerun, the held-out template test
#                                        (bench/quality/heldout_templates.py); writes
#                                        bench/results/html_realpages.txt
#
# Peers (each skipped with a message when it cannot run): readability-lxml (Debian
# python3-readability), boilerpipe 1.2 ArticleExtractor (Debian libboilerpipe-java, headless JRE and
# JDK for the single-file Java launcher), Readability.js (npm @mozilla/readability + jsdom, installed
# under NDD_WEBDEV_TOOLS, default /work/webdev-tools, never in the repository). trafilatura itself
# is not installable here (no PyPI): its published figures are in ../shared/docs/ANCHORS.md.
#
# Outputs: NDD_WEBDEV_DATA/out/<extractor>/{traf,read}/<id>.content.txt and pages.tsv (per page:
# id, bytes, CPU seconds), per-page CSV files in NDD_WEBDEV_DATA/out/csv/<extractor>.<set>.csv.
# Environment: NDD_PGBIN (the PostgreSQL to install into), NDD_NO_INSTALL=1 (ndd already installed),
# NDD_REALPAGES_PEERS=reuse (score the peers' outputs of the last `peers` run instead of rerunning
# them: they take about 20 minutes, mostly Readability.js).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
MODE=${1:-all}
DATA=${NDD_WEBDEV_DATA:-/work/webdev-data}
TOOLS=${NDD_WEBDEV_TOOLS:-/work/webdev-tools}
P=$DATA/prepared
OUT=$DATA/out
# quick and heldout modes: the core of another checkout (e.g. a branch under work), its outputs and
# scores under another name, beside main's last `ndd` outputs
SRC=${NDD_REALPAGES_SRC:-$NDD_ROOT}
NAME=${NDD_REALPAGES_NAME:-ndd}
DRIVER=build/html_extract
[ "$NAME" = ndd ] || DRIVER=build/html_extract-$NAME
if [ "$SRC" != "$NDD_ROOT" ] && [ "$MODE" != quick ] && [ "$MODE" != heldout ] && [ "$MODE" != articles ]; then
	echo "NDD_REALPAGES_SRC serves the quick, heldout and articles modes only (the SQL path runs this checkout's extension)" >&2
	exit 2
fi
PY=/usr/bin/python3 # Debian's: python3-readability lives there (a pyenv python3 would not see it)

# ---- the pages, decoded once for everyone ----
[ -f "$P/traf.json" ] || $PY bench/quality/realpages_prepare.py "$DATA"

# ---- the driver: recompiles only the core files that changed ----
build_driver() {
	local objs=build/html_extract.objs-$NAME o src
	mkdir -p "$objs"
	for src in "$SRC"/src/core/*.cpp bench/html_extract.cpp; do
		o=$objs/$(basename "$src" .cpp).o
		if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find "$SRC/src/core" -name '*.h*' -newer "$o" | head -1)" ]; then
			g++ -O2 -std=c++17 -I"$SRC/src/core" $(xml2-config --cflags) -c -o "$o" "$src"
		fi
	done
	g++ -o "$DRIVER" "$objs"/*.o -lxxhash -licuuc -lxml2 -luriparser -lidn2
}
build_driver

run_ndd_core() {
	local s
	rm -rf "${OUT:?}/$NAME" "$OUT/$NAME-text"
	for s in traf read; do
		mkdir -p "$OUT/$NAME/$s" "$OUT/$NAME-text/$s"
		"$DRIVER" -o "$OUT/$NAME/$s" "$P/$s/"*.html >"$OUT/$NAME/$s/pages.tsv"
		# the whole text (ndd_html_text) as an extractor of its own: the floor of precision
		(cd "$OUT/$NAME/$s" && for f in *.text.txt; do mv "$f" "../../$NAME-text/$s/${f%.text.txt}.content.txt"; done)
		# (no time of its own: the driver times ndd_html_content only)
		awk -F'\t' -v OFS='\t' '{print $1, $2, 0}' "$OUT/$NAME/$s/pages.tsv" >"$OUT/$NAME-text/$s/pages.tsv"
	done
}

# ---- peers ----
peer_dirs() { rm -rf "$OUT/$1"; mkdir -p "$OUT/$1/traf" "$OUT/$1/read"; }
run_peers() {
	local s
	if NDD_PACKAGES="python3-readability" ndd_install_deps && $PY -c 'import readability' 2>/dev/null; then
		peer_dirs readability-lxml
		for s in traf read; do
			nice $PY bench/quality/peers/readability_lxml.py "$OUT/readability-lxml/$s" "$P/$s/"*.html 2>"$OUT/readability-lxml/$s/errors.log"
			$PY bench/quality/realpages_prepare.py --html-to-text "$OUT/readability-lxml/$s"
		done
	else
		echo "readability-lxml: skipped (Debian python3-readability is not installed and cannot be)" >&2
	fi
	local cp=/usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar
	if NDD_PACKAGES="libboilerpipe-java openjdk-17-jdk-headless" ndd_install_deps && [ -f /usr/share/java/boilerpipe.jar ]; then
		peer_dirs boilerpipe
		for s in traf read; do
			nice java -Xmx2g -cp "$cp" bench/quality/peers/BoilerpipeDriver.java "$OUT/boilerpipe/$s" "$P/$s/"*.html 2>"$OUT/boilerpipe/$s/errors.log"
		done
	else
		echo "boilerpipe: skipped (Debian libboilerpipe-java or a JDK is not installed and cannot be)" >&2
	fi
	if [ ! -d "$TOOLS/node_modules/@mozilla/readability" ] || [ ! -d "$TOOLS/node_modules/jsdom" ]; then
		command -v npm >/dev/null && mkdir -p "$TOOLS" && (cd "$TOOLS" && npm install --no-audit --no-fund @mozilla/readability jsdom >/dev/null 2>&1) || true
	fi
	if [ -d "$TOOLS/node_modules/@mozilla/readability" ] && [ -d "$TOOLS/node_modules/jsdom" ]; then
		peer_dirs readability-js
		for s in traf read; do
			NDD_WEBDEV_TOOLS=$TOOLS nice node --max-old-space-size=4096 bench/quality/peers/readability_js.mjs "$OUT/readability-js/$s" "$P/$s/"*.html 2>"$OUT/readability-js/$s/errors.log"
			$PY bench/quality/realpages_prepare.py --html-to-text "$OUT/readability-js/$s"
		done
	else
		echo "Readability.js: skipped (npm could not install @mozilla/readability and jsdom into $TOOLS)" >&2
	fi
}

# ---- ndd through SQL: the same pages in a throwaway cluster ----
run_ndd_sql() {
	ndd_bench_cluster "max_parallel_workers_per_gather=0" "jit=off"
	local s hz sqlf runs c bytes
	ndd_realpages_table "$P"
	rm -rf "$OUT/ndd-sql"
	for s in traf read; do
		mkdir -p "$OUT/ndd-sql/$s"
		$PSQL -c "\copy (SELECT id, ndd_html_content(html), simhash(ndd_html_content(html), 4)::text FROM pages WHERE set = '$s' ORDER BY id) TO STDOUT WITH (FORMAT csv)" |
			$PY -c '
import csv, os, sys
d = sys.argv[1]
csv.field_size_limit(1 << 30)
with open(os.path.join(d, "simhash.tsv"), "w") as sh:
    for pid, content, h in csv.reader(sys.stdin):
        open(os.path.join(d, pid + ".content.txt"), "w", encoding="utf-8").write(content)
        sh.write(f"{pid}\t{h}\n")' "$OUT/ndd-sql/$s"
		cp "$OUT/ndd/$s/pages.tsv" "$OUT/ndd-sql/$s/pages.tsv"
		echo "SQL and core agree ($s): $(
			cd "$OUT/ndd-sql/$s" && n=0 same=0
			for f in *.content.txt; do n=$((n + 1)); cmp -s "$f" "$OUT/ndd/$s/$f" && same=$((same + 1)); done
			echo "$same of $n contents byte for byte"), $(
			join -t $'\t' <(sort "$OUT/ndd-sql/$s/simhash.tsv") <(cut -f1,5 "$OUT/ndd/$s/pages.tsv" | sort) |
				awk -F'\t' '{n++; s += ($2 == $3)} END {printf "%d of %d simhash(ndd_html_content(html), 4) equal to the driver'"'"'s", s, n}')"
	done
	bytes=$($PSQL -c "SELECT sum(octet_length(html)) FROM pages")
	echo "pages: $($PSQL -c "SELECT count(*) FROM pages"), $bytes bytes of HTML"
	# CPU seconds of the backend (utime + stime of /proc/self/stat), medians of 3 runs, as
	# bench/html_throughput.sh measures
	hz=$(getconf CLK_TCK)
	sqlf=$(mktemp /tmp/ndd-realpages.XXXXXX.sql)
	for expr in "length(html)" "octet_length(ndd_html_text(html))" "octet_length(ndd_html_content(html))"; do
		cat >"$sqlf" <<SQL
SELECT 'ticks ' || (split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint) FROM pg_read_file('/proc/self/stat') s;
SELECT sum($expr) FROM pages;
SELECT 'ticks ' || (split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint) FROM pg_read_file('/proc/self/stat') s;
SQL
		runs=$(for i in 1 2 3; do
			$PSQL -f "$sqlf" | sed -n 's/^ticks \([0-9]*\)$/\1/p' | awk -v hz="$hz" 'NR == 1 {t0 = $1} NR == 2 {printf "%.0f\n", ($1 - t0) * 1000 / hz}'
		done)
		c=$(sort -n <<<"$runs" | sed -n 2p)
		awk -v e="$expr" -v b="$bytes" -v c="$c" 'BEGIN { if (c < 10) c = 10
			printf "SQL  sum(%s): CPU %.0f ms = %.1f MB/s of HTML (median of 3)\n", e, c, b / c / 1000 }'
		# the extractor's figure in the table: ndd_html_content through SQL
		[ "$expr" = "octet_length(ndd_html_content(html))" ] && awk -v b="$bytes" -v c="$c" 'BEGIN {printf "%.1f\n", b / c / 1000}' >"$OUT/ndd-sql/cpu_mbs"
	done
	rm -f "$sqlf"
	ndd_stop_cluster
	trap - EXIT
}

# ---- issue 29's own benchmark: 181 pages with hand-made article text ----
ARTICLES=$DATA/articlebench
ARTICLES_REPO=${NDD_ARTICLES_REPO:-https://github.com/scrapinghub/article-extraction-benchmark}
ARTICLES_COMMIT=4a3bc979f76c0df73cb95fe272e2fc1b96f9f010
run_articles() {
	if [ ! -f "$ARTICLES/ground-truth.json" ]; then
		local src=$DATA/article-extraction-benchmark
		# only the files scored: the pages, the truth, the metric and the peers' outputs
		rm -rf "$src"
		if ! git clone -q --no-checkout "$ARTICLES_REPO" "$src" ||
			! git -C "$src" checkout -q "$ARTICLES_COMMIT" -- html ground-truth.json evaluate.py LICENSE \
				output/{trafilatura,readability_js,readability,boilerpipe,justext}.json; then
			echo "articles: skipped (cannot clone $ARTICLES_REPO at $ARTICLES_COMMIT)" >&2
			return 0
		fi
		$PY bench/quality/articlebench.py prepare "$src" "$ARTICLES"
	fi
	local out=$ARTICLES/out/$NAME specs=()
	rm -rf "$out"
	mkdir -p "$out"
	"$DRIVER" -o "$out" "$ARTICLES"/pages/*.html >"$out/pages.tsv"
	specs=("$NAME=$out")
	[ "$NAME" != ndd ] && [ -f "$ARTICLES/out/ndd/pages.tsv" ] && specs+=("ndd (main's last)=$ARTICLES/out/ndd")
	echo "## issue 29's benchmark: $(ls "$ARTICLES"/pages/*.html | wc -l) pages of $ARTICLES_REPO at ${ARTICLES_COMMIT:0:7}, its own metric"
	$PY bench/quality/articlebench.py score "$ARTICLES" "${specs[@]}" --tool "$DRIVER" --worst "${NDD_REALPAGES_WORST:-15}"
}

score() {
	local specs=() e
	for e in "$@"; do [ -f "$OUT/$e/traf/pages.tsv" ] && [ -f "$OUT/$e/read/pages.tsv" ] && specs+=("$e=$OUT/$e"); done
	python3 bench/quality/realpages_score.py --prepared "$P" --tool "$DRIVER" --csv-dir "$OUT/csv" "${specs[@]}"
}

case $MODE in
quick)
	run_ndd_core
	if [ "$NAME" = ndd ]; then score ndd ndd-text readability-lxml readability-js boilerpipe
	else score "$NAME" ndd readability-lxml readability-js boilerpipe; fi
	exit 0 ;;
sql)
	run_ndd_core
	run_ndd_sql
	score ndd-sql ndd
	exit 0 ;;
heldout)
	python3 bench/quality/heldout_templates.py --tool "$DRIVER" --data "$DATA"
	exit 0 ;;
articles)
	run_articles
	exit 0 ;;
peers)
	run_peers
	score readability-lxml readability-js boilerpipe
	exit 0 ;;
esac

out=bench/results/html_realpages.txt
{
	echo "# bash bench/html_realpages.sh   ($(date -u +%F); $(ndd_bench_machine))"
	echo "# ndd: $(git log -1 --format='%h %s' | cut -c1-100)"
	run_ndd_core
	if [ "${NDD_REALPAGES_PEERS:-run}" = reuse ]; then
		echo "peers: not rerun (NDD_REALPAGES_PEERS=reuse): their outputs of $(date -u -r "$OUT/readability-js/read/pages.tsv" '+%F %H:%M' 2>/dev/null || echo never) UTC"
	else
		run_peers
	fi
	run_ndd_sql
	echo "## quality (traf.: trafilatura's corpus, $(ls "$P"/traf/*.html | wc -l) pages, its snippet metric; read.: Readability's $(ls "$P"/read/*.html | wc -l) test pages against Readability's own output); CPU MB/s: the extractor's own CPU time on every page, outside any database"
	score ndd-sql ndd ndd-text readability-lxml readability-js boilerpipe
	echo "(ndd-sql: ndd_html_content through SQL; ndd: the same core through bench/html_extract, which must agree byte for byte; ndd-text: ndd_html_text, the whole text)"
	echo "peer versions: readability-lxml $(dpkg-query -W -f='${Version}' python3-readability 2>/dev/null), boilerpipe $(dpkg-query -W -f='${Version}' libboilerpipe-java 2>/dev/null), @mozilla/readability $(node -p "require('$TOOLS/node_modules/@mozilla/readability/package.json').version" 2>/dev/null), jsdom $(node -p "require('$TOOLS/node_modules/jsdom/package.json').version" 2>/dev/null), java $(java -version 2>&1 | head -1)"
	run_articles
	echo "## held-out templates"
	python3 bench/quality/heldout_templates.py --tool "$DRIVER" --data "$DATA"
} 2>&1 | tee "$out"
