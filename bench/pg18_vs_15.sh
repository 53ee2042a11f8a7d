#!/usr/bin/env bash
# bench/pg18_vs_15.sh: ndd on PostgreSQL 18 against 15, on the same machine in the same run: radius-3
# latency at N rows (bench/index_bench.sh, ndd and the sequential scan), KNN and large radii at N
# rows (bench/index_knn.sh), the duplicate-heavy insert stream (bench/index_stream.sh) and the
# fingerprint throughput through SQL (bench/fingerprint_throughput.sh). Each benchmark runs on 15,
# then on 18, then the next one, so that a change in the machine's load between benchmarks hits
# both majors alike. A benchmark: it prints figures, no thresholds.
#
#   bench/pg18_vs_15.sh [rows] > bench/results/pg18_vs_15.txt     default 1000000
#   NDD_BENCHES="stream knn"    only these (of radius knn stream fingerprints)
#   NDD_NO_INSTALL=1            use the extension as installed in both (no apt-get, no make install)
#   PostgreSQL 15 is NDD_PGBIN (default Debian's), 18 as scripts/test.sh finds it (lib.sh, ndd_find_pg)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
N=${1:-1000000}
bin15=$(ndd_find_pg 15)
bin18=$(ndd_find_pg 18) || { echo "no PostgreSQL 18: $bin18" >&2; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${NDD_NO_INSTALL:-0}" != 1 ]; then
	ndd_install_deps
	for bin in "$bin15" "$bin18"; do flock /tmp/ndd-install.lock bash -c "source scripts/lib.sh; ndd_build_install '$bin'"; done
fi
run() { # run BIN COMMAND...: one benchmark on the PostgreSQL of BIN
	local bin=$1
	shift
	echo
	echo "### PostgreSQL $(ndd_pg_major "$bin") ($("$bin/pg_config" --version)): $* (load $(cut -d' ' -f1-3 /proc/loadavg))"
	# data checksums off on both: 15's default, and 18's initdb would turn them on (with them every
	# page write computes a checksum and hint-bit changes are WAL-logged: not the same server)
	(ndd_use_pg "$bin" && NDD_NO_INSTALL=1 NDD_INITDB_OPTS="$([ "$NDD_PG_MAJOR" -ge 18 ] && echo --no-data-checksums)" "$@") 2>&1 |
		grep -v '^==> building'
}
# NDD_BENCHES: which of them (default "radius knn stream fingerprints")
want() { [[ " ${NDD_BENCHES:-radius knn stream fingerprints} " == *" $1 "* ]]; }
if want radius; then
	for bin in "$bin15" "$bin18"; do
		run "$bin" env NDD_BENCH_CLUSTER=1 NDD_BENCH_METHODS=ndd NDD_BENCH_SECONDS=10 bash bench/index_bench.sh "$N"
	done
fi
if want knn; then
	for bin in "$bin15" "$bin18"; do run "$bin" bash bench/index_knn.sh "$N"; done
fi
if want stream; then
	for bin in "$bin15" "$bin18"; do run "$bin" bash bench/index_stream.sh "$N"; done
fi
if want fingerprints && [ -n "$(ndd_corpus_dir)" ]; then
	for bin in "$bin15" "$bin18"; do run "$bin" bash bench/fingerprint_throughput.sh dev/web.jsonl.gz 5; done
elif want fingerprints; then
	echo "fingerprint throughput: skipped (no evaluation corpus: set NDD_CORPUS_DIR)"
fi
