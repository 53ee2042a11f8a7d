#!/usr/bin/env bash
# bench/html_core_ab.sh: the core's CPU throughput of ndd_html_content (bench/html_extract.cpp, no
# PostgreSQL) for two builds on the same real pages, alternated round by round in one run, so that
# the load of a shared machine weighs on both alike; the pages that hold a
# <script type="application/ld+json"> and those that do not, apart (branch jsonld, issue 29).
#
#   bash bench/html_core_ab.sh BEFORE_DRIVER AFTER_DRIVER [ROUNDS]
#
# The drivers are those bench/html_realpages.sh quick builds (build/html_extract-NAME, e.g. with
# NDD_REALPAGES_SRC=<a checkout of main> NDD_REALPAGES_NAME=mainref). Each round runs each driver
# over every page of both development sets with -r 3 (each page's CPU time the minimum of three);
# MB/s = HTML bytes / summed CPU seconds.
set -euo pipefail
BEFORE=${1:?before driver} AFTER=${2:?after driver} ROUNDS=${3:-3}
DATA=${NDD_WEBDEV_DATA:-/work/webdev-data}
pages=("$DATA"/prepared/traf/*.html "$DATA"/prepared/read/*.html)
ld=$(mktemp)
out=$(mktemp)
trap 'rm -f "$ld" "$out"' EXIT
grep -il 'application/ld+json' "${pages[@]}" | sed 's|.*/||; s|\.html$||' | sort -u >"$ld"
echo "pages: ${#pages[@]}, of which $(wc -l <"$ld") hold a <script type=\"application/ld+json\">"
for r in $(seq "$ROUNDS"); do
	for d in "$BEFORE" "$AFTER"; do
		"$d" -r 3 "${pages[@]}" >"$out"
		awk -F'\t' -v OFS='\t' -v r="$r" -v d="$(basename "$d")" 'NR == FNR { ld[$1] = 1; next }
			{ k = ($1 in ld) ? "ld" : "no"; b[k] += $2; c[k] += $3; b["all"] += $2; c["all"] += $3 }
			END { printf "round %s %-28s all %6.1f MB/s   with JSON-LD %6.1f MB/s (%.1f MB)   without %6.1f MB/s (%.1f MB)\n",
				r, d, b["all"] / c["all"] / 1e6, b["ld"] / c["ld"] / 1e6, b["ld"] / 1e6, b["no"] / c["no"] / 1e6, b["no"] / 1e6 }' "$ld" "$out"
	done
done
