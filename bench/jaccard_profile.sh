#!/usr/bin/env bash
# bench/jaccard_profile.sh: where ndd_jaccard_pairs spends its instructions, counted by callgrind
# (valgrind; `perf stat -e instructions` is not supported on this virtual machine), which a loaded
# machine does not disturb. A single-user backend (postgres --single) on a fresh data directory
# holding the first N documents of the synthetic collection (bench/jaccard_synth.py, seed 1) runs
# ndd_jaccard_pairs('SELECT id, body FROM synth', 0.8) at maintenance_work_mem = MWM, under
# callgrind; prints the pairs' count and checksum, then the functions by inclusive instructions.
#   bash bench/jaccard_profile.sh [N (20000)] [MWM (1MB: the disk path, with the memory per document
#   that 64MB leaves 1.3M documents)]
#   NDD_SYNTH_DIR: take synth_N.tsv from there instead of generating it.
# Under valgrind the CPU reports no AVX-512, so the minhash runs its AVX2 kernel: on a CPU with
# AVX-512 its share is smaller than counted here.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
n=${1:-20000} mwm=${2:-1MB}
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)"; exit 1; }
ndd_bench_install
work=$(mktemp -d /tmp/ndd-jaccard-profile.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
if [ -n "${NDD_SYNTH_DIR:-}" ]; then
	head -n "$n" "$NDD_SYNTH_DIR/synth_$n.tsv" > "$work/synth.tsv"
else
	PLANTED=/dev/null python3 bench/jaccard_synth.py "$n" 1 "$(ndd_corpus_dir)"/dev/*.jsonl.gz > "$work/synth.tsv"
fi
chmod 644 "$work/synth.tsv"
[ "$(id -u)" -eq 0 ] && chown postgres: "$work"
ndd_as_owner "$NDD_PGBIN/initdb" -D "$work/data" -A trust -U postgres -E UTF8 --no-locale >/dev/null
single() { ndd_as_owner "$NDD_PGBIN/postgres" --single -D "$work/data" postgres; }
printf "CREATE EXTENSION ndd;\nCREATE TABLE synth (id bigint, body text);\nCOPY synth FROM '%s';\nVACUUM ANALYZE synth;\n" \
	"$work/synth.tsv" | single >/dev/null 2>&1
ndd_bench_machine "$n documents, maintenance_work_mem = $mwm"
printf "SET maintenance_work_mem = '%s';\nSELECT count(*) AS pairs, sum(jaccard) AS jaccard_sum FROM ndd_jaccard_pairs('SELECT id, body FROM synth', 0.8);\n" \
	"$mwm" | ndd_as_owner valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
	"$NDD_PGBIN/postgres" --single -D "$work/data" postgres 2>&1 | grep -E '^\s+[0-9]: (pairs|jaccard_sum) = |I\s+refs'
callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null | sed -n '/file:function/,/^$/p' | head -60 | cut -c1-200
