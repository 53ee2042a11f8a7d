#!/usr/bin/env bash
# bench/jaccard_ab.sh N [ROUNDS]: ndd_jaccard_pairs(…, 0.8) on the disk path (maintenance_work_mem
# 64MB) with two builds of the library, alternated in one run (before, after, after, before, …), on
# N synthetic documents (build/jaccard_synth, seed 1) stored once in a table: wall and backend CPU
# time, peak memory, temporary bytes written (pg_stat_database) and an md5 of the pairs (a, b,
# jaccard ordered by a, b), per call; medians per build.
#   NDD_AB_BEFORE, NDD_AB_AFTER: the two ndd.so files. Each is installed (atomically, by install)
#   into NDD_PGBIN's library directory before its call, so NDD_PGBIN must be a private tree that
#   nothing else uses meanwhile (/work/tools/private_pg.sh), with the extension's SQL files installed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
n=${1:-300000}
rounds=${2:-2}
CORPUS=$(ndd_corpus_dir)
[ -n "$CORPUS" ] || { echo "no corpus: set NDD_CORPUS_DIR" >&2; exit 1; }
lib=$("$NDD_PGBIN/pg_config" --pkglibdir)
NDD_NO_INSTALL=1 ndd_bench_cluster "max_parallel_workers_per_gather=0" "wal_level=minimal" "max_wal_senders=0"
ndd_bench_machine "$n documents, $rounds rounds"
echo "before: $NDD_AB_BEFORE ($(md5sum < "$NDD_AB_BEFORE" | cut -c1-8)), after: $NDD_AB_AFTER ($(md5sum < "$NDD_AB_AFTER" | cut -c1-8))"
bash "$NDD_ROOT/bench/jaccard_synth_build.sh"
install -m 755 "$NDD_AB_AFTER" "$lib/ndd.so"
psql -X -q -d postgres -c "CREATE EXTENSION ndd"
PLANTED=/dev/null build/jaccard_synth "$n" 1 "$CORPUS"/dev/*.jsonl.gz |
	psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "BEGIN; CREATE TABLE synth (id bigint, body text)" \
		-c "\\copy synth FROM pstdin WITH (FREEZE)" -c "COMMIT" -c "ANALYZE synth"
source "$NDD_ROOT/bench/jaccard_timed.sh"
results=$(mktemp)
trap 'rm -f "$results"; ndd_stop_cluster' EXIT
order=()
for ((r = 0; r < rounds; r++)); do
	if ((r % 2 == 0)); then order+=(before after); else order+=(after before); fi
done
for which in "${order[@]}"; do
	if [ "$which" = before ]; then so=$NDD_AB_BEFORE; else so=$NDD_AB_AFTER; fi
	install -m 755 "$so" "$lib/ndd.so"
	psql -X -q -d postgres -c "DROP TABLE IF EXISTS pairs"
	temp_before=$(psql -X -d postgres -tAc "SELECT temp_bytes FROM pg_stat_database WHERE datname = 'postgres'")
	out=$(timed "$which" "SET maintenance_work_mem = '64MB'; SET client_min_messages = warning; CREATE TABLE pairs AS SELECT * FROM ndd_jaccard_pairs('SELECT id, body FROM synth', 0.8)")
	sleep 1
	temp=$(psql -X -d postgres -tAc "SELECT temp_bytes - $temp_before FROM pg_stat_database WHERE datname = 'postgres'")
	sum=$(psql -X -d postgres -tAc "SELECT count(*) || ' pairs, md5 ' || md5(string_agg(a || ' ' || b || ' ' || jaccard, E'\\n' ORDER BY a, b)) FROM pairs")
	secs=$(echo "$out" | sed -n 's/.*: \([0-9.]*\) s$/\1/p' | head -1)
	cpu=$(echo "$out" | sed -n 's/.*backend CPU time: \([0-9.]*\) s/\1/p')
	hwm=$(echo "$out" | sed -n 's/.*VmHWM:[^0-9]*\([0-9]*\) kB/\1/p')
	printf '  %-6s wall %6.1f s  CPU %6.1f s  peak %4d MB  temporary %5d MB  %s  (load %s)\n' "$which" "$secs" "$cpu" \
		$((hwm / 1024)) $((temp >> 20)) "$sum" "$(cut -d' ' -f1 /proc/loadavg)"
	echo "$which $secs $cpu $temp" >> "$results"
done
echo "medians (wall s, CPU s, temporary MB):"
for which in before after; do
	awk -v w="$which" '$1 == w { s[++n] = $2; c[n] = $3; t[n] = $4 }
		function med(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { printf "  %-6s %6.1f %6.1f %6d\n", w, med(s, n), med(c, n), med(t, n) / 2^20 }' "$results"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
