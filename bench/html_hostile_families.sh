#!/usr/bin/env bash
# bench/html_hostile_families.sh: the hostile page families of issue 31 (and the script family of
# issue 29) at scales x1, x4, x16 through the core's HTML parse, built from two revisions: before
# (NDD_BASE, default the commit before the pre-pass) and after (the working tree). CPU seconds and
# peak RSS of a child process each, under a 120 s timeout (TIMEOUT: quadratic, not finished).
# The pages are those of test/scripts/html_linear.sh (paragraphs 6x larger: x16 is 25 MB).
# Raw output: bench/results/html_hostile_families.txt.
set -uo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
BASE=${NDD_BASE:-$(git log --format=%H -1 --grep='streaming pre-pass in front of libxml2')~1}
dir=$(mktemp -d /tmp/ndd-html-hostile.XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src_before"
git archive "$BASE" src/core | tar -x -C "$dir/src_before"
build() {  # build NAME CORE_DIR
	g++ -O2 -std=c++17 -I"$2" $(xml2-config --cflags) -o "$dir/$1" bench/html_hostile_families.cpp \
		$(ls "$2"/html_*.cpp | grep -v html_api) $(xml2-config --libs)
}
build before "$dir/src_before/src/core" && build after src/core || exit 1
out=bench/results/html_hostile_families.txt
{
	echo "# bash bench/html_hostile_families.sh   ($(date -u +%F), $(nproc) cores shared, before = $(git log --format='%h %s' -1 "$BASE" | cut -c1-60))"
	echo "# revision  family  scale  bytes  CPU seconds  peak RSS  output"
	for family in attributes stray restarts scripts paragraphs; do
		for k in 1 4 16; do
			for rev in before after; do
				printf '%s\t' $rev
				timeout 120 "$dir/$rev" $family $k || echo "$family	x$k	TIMEOUT (120 s) or killed"
			done
		done
	done
} | tee "$out"
