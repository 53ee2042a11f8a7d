#!/usr/bin/env bash
# bench/fingerprint_throughput.sh: MB of text per second per core for the fingerprint functions,
# first in the C++ core alone (build/core_throughput), then through SQL on the same documents
# (`SELECT simhash(body) FROM docs` and friends, timed by the server with EXPLAIN ANALYZE).
#
#   bench/fingerprint_throughput.sh [corpus file] [runs]
#        corpus file relative to the corpus directory (default dev/web.jsonl.gz), runs default 5
#   NDD_NO_INSTALL=1     use the installed extension as it is
#
# SQL figures are the median of `runs` executions; each is also shown against a baseline query
# that reads and detoasts every body without fingerprinting (`sum(octet_length(body || ''))`), so
# the reader sees what the scan and detoasting themselves cost. A benchmark: no thresholds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
FILE=${1:-dev/web.jsonl.gz}
RUNS=${2:-5}
CORPUS=$(ndd_corpus_dir)
[ -n "$CORPUS" ] || { echo "this benchmark reads the evaluation corpus: set NDD_CORPUS_DIR" >&2; exit 1; }
export NDD_CORPUS_DIR=$CORPUS

ndd_bench_machine

# ---- the core alone ----
mkdir -p build
g++ -std=c++17 -O2 -Isrc/core -Itest/unit \
	-o build/core_throughput bench/core_throughput.cpp test/unit/corpus_reader.cpp src/core/*.cpp -lxxhash -licuuc
build/core_throughput "$FILE" "$RUNS"

# ---- through SQL ----
ndd_bench_cluster "max_parallel_workers_per_gather=0" "jit=off"
work=$(mktemp -d /tmp/ndd-throughput.XXXXXX)
chmod 755 "$work"
python3 "$CORPUS/tools/to_copy_tsv.py" "$CORPUS/$FILE" >"$work/docs.tsv"
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS bench_fp" -c "CREATE DATABASE bench_fp"
psql -X -q -v ON_ERROR_STOP=1 -d bench_fp \
	-c "CREATE EXTENSION ndd" \
	-c "CREATE TABLE docs (id text PRIMARY KEY, corpus text, source text, path text, body text)" \
	-c "\\copy docs FROM '$work/docs.tsv'" \
	-c "VACUUM ANALYZE docs"
rm -rf "$work"
mb=$(psql -X -A -t -d bench_fp -c "SELECT sum(octet_length(body)) / 1e6 FROM docs")
printf 'through SQL over %s: %s documents, %.1f MB (median of %d runs, server-side time)\n' \
	"$FILE" "$(psql -X -A -t -d bench_fp -c 'SELECT count(*) FROM docs')" "$mb" "$RUNS"

# Median execution time in ms of a query, from EXPLAIN ANALYZE (no per-row timing overhead).
median_ms() {
	local q=$1 i t times=()
	for ((i = 0; i < RUNS; i++)); do
		t=$(psql -X -A -t -d bench_fp -c "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) $q" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])')
		times+=("$t")
	done
	printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

base=$(median_ms "SELECT sum(octet_length(body || '')) FROM docs")
printf '%-40s %8.1f ms  (scan + detoast only)\n' "baseline: read every body" "$base"
sql_rate() {
	local name=$1 expr=$2 ms
	ms=$(median_ms "SELECT count($expr) FROM docs")
	awk -v n="$name" -v ms="$ms" -v mb="$mb" -v b="$base" \
		'BEGIN { printf "%-40s %8.1f MB/s   (%.0f ms; %.0f ms without the baseline)\n", n, mb / (ms / 1000), ms, ms - b }'
}
sql_rate "simhash(body)" "simhash(body)"
sql_rate "simhash(body, 4)" "simhash(body, 4)"
sql_rate "simhash_chars(body, 4)" "simhash_chars(body, 4)"
sql_rate "shingle_minhash(body, 4, 84)" "shingle_minhash(body, 4, 84)"
sql_rate "bitflip_fp(body)" "bitflip_fp(body)"
sql_rate "word_list_fingerprints(body, 4)" "word_list_fingerprints(body, 4)"
sql_rate "content_hash(body)" "content_hash(body)"
