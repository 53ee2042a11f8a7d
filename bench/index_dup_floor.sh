#!/usr/bin/env bash
# bench/index_dup_floor.sh: where the time of duplicate inserts goes in an ndd index, and the
# floor a duplicate-run (posting-list) format could reach (issue 30, "Duplicates"):
#  1. 80,000 identical fingerprints inserted into a table of 1M random ones: no index, and ndd
#     indexes of 4 tables (the default, k = 3), 2 tables (k = 1, blocks = 2) and 1 table (k = 0,
#     blocks = 1), the methods alternating, R rounds (each round adds 80,000 more copies, so round
#     r inserts into 1M + 80,000 (r - 1) rows): per method the wall seconds, the backend's CPU
#     seconds (the first field of its /proc/PID/schedstat, nanoseconds on a CPU: robust to the
#     other work on the machine) and
#     the WAL bytes per row. Whatever a copy stores, it is at least one TID on one page under one
#     WAL record: the 1-table index is that floor.
#  2. the duplicate-heavy stream (bench/index_stream_table.sql: N rows, 30 % exact copies) into no
#     index and into ndd made on the empty table, 10 batches, and the same stream without its
#     exact copies: if a copy cost the index nothing, the stream would cost ndd's time without
#     the copies plus the copies' heap time, so
#       bound = t_none(all) / (t_ndd(no copies) + t_none(all) - t_none(no copies))
#     is the best throughput against no index that free copies could give.
# A benchmark: no thresholds.
#
#   bench/index_dup_floor.sh [rows [rounds]]   default 1000000 and 3; its own throwaway cluster
#   NDD_NO_INSTALL=1                           use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-1000000}
R=${2:-3}
ndd_bench_cluster "shared_buffers=1GB" "max_wal_size=4GB"
ndd_bench_machine "$(git log -1 --format='commit %h')"

# timed SQL [checkpoint]: runs it in a session of its own, right after a checkpoint unless the
# second argument is "no" (every method starts after one, as in bench/index_stream.sh), and prints "wall cpu wal_bytes" (seconds, backend CPU seconds,
# WAL bytes the statement wrote)
timed() {
	local pid c0 c1 t0 t1 wal
	[ "${2:-yes}" = no ] || $PSQL -c "CHECKPOINT"
	coproc SESSION { $PSQL 2>&1; }
	echo "SELECT pg_backend_pid();" >&"${SESSION[1]}"
	read -r -u "${SESSION[0]}" pid
	echo "SELECT pg_current_wal_insert_lsn() AS lsn0 \\gset" >&"${SESSION[1]}"
	c0=$(cut -d' ' -f1 "/proc/$pid/schedstat")
	t0=$(date +%s.%N)
	printf '%s;\nSELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), :%s)::bigint;\n' "$1" "'lsn0'" >&"${SESSION[1]}"
	read -r -u "${SESSION[0]}" wal
	t1=$(date +%s.%N)
	c1=$(cut -d' ' -f1 "/proc/$pid/schedstat")
	echo '\q' >&"${SESSION[1]}"
	wait "$SESSION_PID" 2>/dev/null || true
	awk -v a="$t0" -v b="$t1" -v c="$((c1 - c0))" -v w="$wal" \
		'BEGIN { printf "%.3f %.3f %d\n", b - a, c / 1e9, w }'
}

$PSQL -c "CREATE EXTENSION ndd"

echo "== 80,000 identical fingerprints into a table of $N random ones, $R rounds"
$PSQL -c "CREATE TABLE rnd AS SELECT g AS id, ('x' || md5(g::text))::bit(64)::bigint::simhash64 AS fp FROM generate_series(1, $N) g"
methods="none ndd4 ndd2 ndd1"
declare -A opts=([ndd4]="k = 3, blocks = 4" [ndd2]="k = 1, blocks = 2" [ndd1]="k = 0, blocks = 1")
for m in $methods; do
	$PSQL -c "CREATE TABLE same_$m AS TABLE rnd"
	[ "$m" != none ] && $PSQL -c "CREATE INDEX ON same_$m USING ndd (fp) WITH (${opts[$m]})"
done
printf '%-6s %6s %8s %8s %10s\n' method round wall_s cpu_s wal_B/row
for r in $(seq 1 "$R"); do
	for m in $methods; do
		read -r wall cpu wal < <(timed "INSERT INTO same_$m SELECT g, '0123456789abcdef'::simhash64 FROM generate_series(1, 80000) g")
		printf '%-6s %6d %8s %8s %10d\n' "$m" "$r" "$wall" "$cpu" "$((wal / 80000))"
	done
done

echo "== duplicate-heavy stream: $N rows (30 % exact, 10 % near copies), 10 batches, index made on the empty table; 'nocopy': without the exact copies"
$PSQL -v N="$N" -f bench/index_stream_table.sql
# the exact copies: rows 6..8 of every ten after the first ten (the generator's CASE)
nocopy="NOT (i % 10 BETWEEN 6 AND 8 AND i >= 10)"
printf '%-12s %8s %8s %8s\n' method rows wall_s cpu_s
for r in $(seq 1 "$R"); do
	declare -A w=() c=()
	for m in none ndd none_nocopy ndd_nocopy; do
		$PSQL -c "SET client_min_messages = warning; DROP TABLE IF EXISTS s_$m; CREATE TABLE s_$m (i bigint, fp simhash64)"
		case $m in ndd*) $PSQL -c "CREATE INDEX ON s_$m USING ndd (fp)";; esac
		where="true"; case $m in *_nocopy) where=$nocopy;; esac
		wsum=0; csum=0
		for b in $(seq 0 9); do
			read -r wall cpu wal < <(timed "INSERT INTO s_$m SELECT i, fpb::simhash64 FROM stream
				WHERE i > $b * $N / 10 AND i <= ($b + 1) * $N / 10 AND $where ORDER BY i" "$([ "$b" = 0 ] && echo yes || echo no)")
			wsum=$(awk -v a="$wsum" -v b="$wall" 'BEGIN { print a + b }')
			csum=$(awk -v a="$csum" -v b="$cpu" 'BEGIN { print a + b }')
		done
		w[$m]=$wsum; c[$m]=$csum
		printf '%-12s %8s %8.2f %8.3f\n' "$m" "$($PSQL -c "SELECT count(*) FROM s_$m")" "$wsum" "$csum"
	done
	awk -v n="${w[none]}" -v d="${w[ndd]}" -v nn="${w[none_nocopy]}" -v dn="${w[ndd_nocopy]}" \
		-v cn="${c[none]}" -v cd="${c[ndd]}" -v cnn="${c[none_nocopy]}" -v cdn="${c[ndd_nocopy]}" \
		'BEGIN { printf "round %d: ndd/none throughput %.2f (CPU %.2f); with free copies at best %.2f (CPU %.2f)\n",
			'"$r"', n / d, cn / nz(cd), n / (dn + n - nn), cn / nz(cdn + cn - cnn) }
		function nz(x) { return x > 0.01 ? x : 0.01 }  # no division by zero'
done
