#!/usr/bin/env bash
# bench/html_sql_ab.sh: ndd_html_content and ndd_html_text through SQL for two builds of the
# extension's library on the same real pages (both development sets of bench/html_realpages.sh),
# alternated round by round in one cluster, so that the load of a shared machine weighs on both
# alike (issue 29: MB of HTML per backend CPU second).
#
#   bash bench/html_sql_ab.sh BEFORE_SO AFTER_SO [ROUNDS]
#
# BEFORE_SO and AFTER_SO are ndd.so files built from two checkouts with the same SQL objects (e.g.
# `make PG_CONFIG=...` in an export of main, and this checkout's). The extension is installed as
# usual (NDD_NO_INSTALL=1: as it is); each round copies one library over the installed ndd.so (a
# new session loads it) and measures, in a new session per function, the backend's CPU time
# (utime + stime of /proc/self/stat) of sum(octet_length(f(html))) over every page; the installed
# library is put back at the end. MB/s = HTML bytes / CPU seconds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BEFORE=${1:?before ndd.so} AFTER=${2:?after ndd.so} ROUNDS=${3:-3}
DATA=${NDD_WEBDEV_DATA:-/work/webdev-data}
P=$DATA/prepared
PY=/usr/bin/python3
[ -f "$P/traf.json" ] || $PY bench/quality/realpages_prepare.py "$DATA"

ndd_bench_cluster "max_parallel_workers_per_gather=0" "jit=off"
installed=$("$NDD_PGBIN/pg_config" --pkglibdir)/ndd.so
saved=$(mktemp /tmp/ndd-sql-ab.XXXXXX.so)
sqlf=$(mktemp /tmp/ndd-sql-ab.XXXXXX.sql)
cp "$installed" "$saved"
trap 'cp "$saved" "$installed"; rm -f "$saved" "$sqlf"; ndd_stop_cluster' EXIT

ndd_realpages_table "$P"
bytes=$($PSQL -c "SELECT sum(octet_length(html)) FROM pages")
echo "pages: $($PSQL -c "SELECT count(*) FROM pages"), $bytes bytes of HTML"
# both libraries give the same contents (the digest of every page's content, in page order)
for so in "$BEFORE" "$AFTER"; do
	cp "$so" "$installed"
	echo "$(basename "$(dirname "$so")")/$(basename "$so"): md5 of all contents $($PSQL -c "SELECT md5(string_agg(ndd_html_content(html), E'\x01' ORDER BY set, id)) FROM pages"), of all texts $($PSQL -c "SELECT md5(string_agg(ndd_html_text(html), E'\x01' ORDER BY set, id)) FROM pages")"
done
hz=$(getconf CLK_TCK)
for r in $(seq "$ROUNDS"); do
	for so in "$BEFORE" "$AFTER"; do
		cp "$so" "$installed"
		line="round $r $(basename "$(dirname "$so")")/$(basename "$so"):"
		for f in ndd_html_content ndd_html_text; do
			cat >"$sqlf" <<SQL
SELECT 'ticks ' || (split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint) FROM pg_read_file('/proc/self/stat') s;
SELECT sum(octet_length($f(html))) FROM pages;
SELECT 'ticks ' || (split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint) FROM pg_read_file('/proc/self/stat') s;
SQL
			c=$($PSQL -f "$sqlf" | sed -n 's/^ticks \([0-9]*\)$/\1/p' | awk -v hz="$hz" 'NR == 1 {t0 = $1} NR == 2 {printf "%.0f\n", ($1 - t0) * 1000 / hz}')
			line+=$(awk -v f="$f" -v b="$bytes" -v c="$c" 'BEGIN { if (c < 10) c = 10; printf "   %s %.1f MB/s (%.0f ms)", f, b / c / 1000, c }')
		done
		echo "$line"
	done
done
