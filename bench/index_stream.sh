#!/usr/bin/env bash
# bench/index_stream.sh: inserts into an index made on the empty table, in the same run for every
# method on the same rows:
#  1. batches of 20,000 identical fingerprints (the commonest near-duplicate: an exact copy), four
#     batches one after the other: seconds per batch with no index and with ndd;
#  2. a duplicate-heavy stream of N rows (default 1M): 60 % new random fingerprints, 30 % exact
#     copies and 10 % near copies (1..3 bits flipped) of earlier rows, inserted in 10 batches in
#     stream order: rows/s with no index, with the 4-block btree emulation of Manku's scheme
#     (bench/index_bench.sh) and with ndd, and the first and last batch's seconds.
# A benchmark: no thresholds.
#
#   bench/index_stream.sh [rows]        default 1000000; starts its own throwaway cluster
#   NDD_NO_INSTALL=1                    use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-1000000}
ndd_bench_cluster "shared_buffers=1GB" "max_wal_size=4GB"
ndd_bench_machine

seconds() { # SQL: prints its wall time in seconds
	local t0 t1
	t0=$(date +%s.%N); $PSQL -c "$1" >/dev/null; t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

$PSQL -c "CREATE EXTENSION ndd"

echo "== 4 batches of 20,000 identical fingerprints (seconds per batch)"
# Every method starts right after a checkpoint: a checkpoint in the middle of one method's run
# (checkpoint_timeout, or max_wal_size reached by the methods before it) would make it write a
# full-page image of every page it touches afterwards, and which method that hits depends on
# timing alone.
for m in none ndd; do
	$PSQL -c "CREATE TABLE same_$m (id bigint, fp simhash64)"
	[ $m = ndd ] && $PSQL -c "CREATE INDEX ON same_$m USING ndd (fp)"
	$PSQL -c "CHECKPOINT"
	line=""
	for b in 1 2 3 4; do
		line+=" $(seconds "INSERT INTO same_$m SELECT g, '0123456789abcdef'::simhash64 FROM generate_series(1, 20000) g")"
	done
	printf '%-6s %s\n' "$m" "$line"
done

$PSQL -v N="$N" -f bench/index_stream_table.sql   # the stream: its header says how it is made
b4=""; for k in 0 1 2 3; do b4+="CREATE INDEX ON s_btree4 (((fpb >> $((48 - 16 * k))) & 65535));"; done
echo "== duplicate-heavy stream: $N rows (30 % exact, 10 % near copies), 10 batches, index made on the empty table"
printf '%-14s %10s %10s %12s %12s %10s\n' method seconds rows_per_s first_batch last_batch size_MB
for m in none btree4 ndd; do
	$PSQL -c "CREATE TABLE s_$m (i bigint, fpb bigint, fp simhash64)"
	[ $m = btree4 ] && $PSQL -c "$b4"
	[ $m = ndd ] && $PSQL -c "CREATE INDEX s_ndd_fp ON s_ndd USING ndd (fp)"
	$PSQL -c "CHECKPOINT"
	total=0; first=""; last=""
	for b in $(seq 0 9); do
		t=$(seconds "INSERT INTO s_$m SELECT i, fpb, fpb::simhash64 FROM stream
		             WHERE i > $b * $N / 10 AND i <= ($b + 1) * $N / 10 ORDER BY i")
		[ -z "$first" ] && first=$t
		last=$t
		total=$(awk -v a="$total" -v b="$t" 'BEGIN { printf "%.2f", a + b }')
	done
	size=$($PSQL -c "SELECT round(coalesce(sum(pg_relation_size(indexrelid)), 0) / 1048576.0, 1) FROM pg_index WHERE indrelid = 's_$m'::regclass")
	printf '%-14s %10s %10.0f %12s %12s %10s\n' "$m" "$total" "$(awk -v n="$N" -v t="$total" 'BEGIN { print n / t }')" "$first" "$last" "$size"
done
$PSQL -c "SELECT ndd_index_check('s_ndd_fp')"
