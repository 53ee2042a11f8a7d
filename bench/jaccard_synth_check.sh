#!/usr/bin/env bash
# bench/jaccard_synth_check.sh [N [SEED]]: the C++ generator (bench/jaccard_synth.cpp) against the
# Python one (bench/jaccard_synth.py) on the dev corpus: both documents and planted pairs must be the
# same bytes. The default N, 200,000, makes every one of the corpus' 78,554 pieces a base once and
# then reuses pieces (the path that redraws half the words), so every text and both random paths are
# compared; prints the sizes, each generator's time and the result.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
n=${1:-200000}
seed=${2:-1}
CORPUS=$(ndd_corpus_dir)
[ -n "$CORPUS" ] || { echo "no corpus: set NDD_CORPUS_DIR" >&2; exit 1; }
bash bench/jaccard_synth_build.sh
work=$(mktemp -d /tmp/ndd-synth-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
t0=$(date +%s.%N)
PLANTED="$work/planted.py" python3 bench/jaccard_synth.py "$n" "$seed" "$CORPUS"/dev/*.jsonl.gz > "$work/docs.py"
t1=$(date +%s.%N)
PLANTED="$work/planted.cpp" build/jaccard_synth "$n" "$seed" "$CORPUS"/dev/*.jsonl.gz > "$work/docs.cpp"
t2=$(date +%s.%N)
printf 'N = %s, seed %s: %s document lines, %s bytes; python %.1f s, c++ %.1f s (wall)\n' "$n" "$seed" \
	"$(wc -l < "$work/docs.py")" "$(stat -c %s "$work/docs.py")" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
sha256sum "$work"/docs.* "$work"/planted.* | sed "s|$work/||"
if cmp "$work/docs.py" "$work/docs.cpp" && cmp "$work/planted.py" "$work/planted.cpp"; then
	echo "same bytes: documents and planted pairs"
else
	echo "DIFFERENT"
	exit 1
fi
