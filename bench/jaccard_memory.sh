#!/usr/bin/env bash
# bench/jaccard_memory.sh: the peak memory of ndd_jaccard_pairs' disk path as the collection grows,
# and its pairs, on the synthetic collections of bench/jaccard_synth.py (seed 1).
#   For each size in NDD_JACCARD_SIZES (default "20000 100000 300000") and each maintenance_work_mem
#   in NDD_JACCARD_MWM (default "1MB 64MB"), plus 4GB (in memory) for sizes up to NDD_JACCARD_MEM_MAX
#   (default 100000): ndd_jaccard_pairs(t = 0.8) in a fresh session, its wall and CPU time, the
#   backend's peak resident memory (VmHWM; shared_buffers is 16MB so that the table's pages the
#   session touches count little), the number of pairs and the md5 of the pairs sorted by (a, b).
#   NDD_JACCARD_OUT: keep the sorted pairs there (pairs_SIZE_MWM.tsv), to compare two builds with cmp.
#   NDD_SYNTH_DIR: take synth_N.tsv from there instead of generating it.
#   NDD_NO_INSTALL=1: use the installed extension as it is.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
CORPUS=$(ndd_corpus_dir)
ndd_bench_cluster "max_parallel_workers_per_gather=0" "shared_buffers=16MB"
psql -X -q -d postgres -c "CREATE EXTENSION ndd"
work=$(mktemp -d /tmp/ndd-jaccard-memory.XXXXXX)
chmod 777 "$work"
out=${NDD_JACCARD_OUT:-$work}
ndd_bench_machine
source "$NDD_ROOT/bench/jaccard_timed.sh"
for size in ${NDD_JACCARD_SIZES:-20000 100000 300000}; do
	if [ -n "${NDD_SYNTH_DIR:-}" ]; then
		synth=$NDD_SYNTH_DIR/synth_$size.tsv
	else
		synth=$work/synth.tsv
		PLANTED=/dev/null python3 bench/jaccard_synth.py "$size" 1 "$CORPUS"/dev/*.jsonl.gz > "$synth"
	fi
	echo "== $size documents"
	psql -X -q -d postgres -c "DROP TABLE IF EXISTS synth" -c "CREATE TABLE synth (id bigint, body text)"
	psql -X -q -d postgres -c "\\copy synth FROM '$synth'" -c "VACUUM ANALYZE synth"
	mwms=${NDD_JACCARD_MWM:-1MB 64MB}
	[ "$size" -le "${NDD_JACCARD_MEM_MAX:-100000}" ] && mwms="$mwms 4GB"
	for mwm in $mwms; do
		f=$out/pairs_${size}_$mwm.tsv
		timed "maintenance_work_mem = $mwm" "SET maintenance_work_mem = '$mwm';
\\copy (SELECT a, b, jaccard FROM ndd_jaccard_pairs('SELECT id, body FROM synth', 0.8) ORDER BY a, b) TO '$f'"
		echo "  pairs: $(wc -l < "$f"), md5 $(md5sum < "$f" | cut -c1-32)"
	done
done
rm -rf "$work"
