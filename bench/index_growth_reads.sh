#!/usr/bin/env bash
# bench/index_growth_reads.sh: do scans wait for a growth step? One session loads N random rows
# (batches of 20,000) into a table whose ndd index was made empty, so the index's map expands and
# migrates many times; meanwhile two pgbench clients run radius-3 queries for random fingerprints
# against it. A watcher session records when an expansion or migration step is under way (the
# backend doing it holds a page lock on the index's block 0, visible in pg_locks; polled every
# 10 ms). Prints the
# queries' median, p99 and max latency overall, while a step was under way, and otherwise.
# A library whose growth step blocks scans shows it as a max near the longest step.
# A benchmark: no thresholds.
#
#   bench/index_growth_reads.sh [rows [seconds]]  default 400000 rows, readers for 200 s (must
#                                           outlast the load); starts its own throwaway cluster
#   NDD_NO_INSTALL=1                        use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-400000}
R=${2:-200}
ndd_bench_cluster "shared_buffers=1GB" "max_wal_size=4GB"
work=$(mktemp -d)
trap 'ndd_stop_cluster; rm -rf "$work"' EXIT
ndd_bench_machine

$PSQL -c "CREATE EXTENSION ndd" -c "CREATE TABLE t (id bigint, fp simhash64)" \
	-c "CREATE INDEX t_fp ON t USING ndd (fp)" -c "CREATE TABLE load_done ()" \
	-c "INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 1000) g"
cat >"$work/read.sql" <<'SQL'
\set i random(1, 2000000000)
SELECT count(*) FROM t WHERE fp <~> ('x' || md5(:i::text))::bit(64)::bigint::simhash64 <= 3;
SQL
export PGOPTIONS="-c enable_seqscan=off -c enable_bitmapscan=off"
$PSQL >"$work/watch.out" 2>&1 <<SQL &
DO \$\$
DECLARE
	growing bool := false;
	now_growing bool;
BEGIN
	-- each statement takes a new snapshot: the loader's row ends the loop
	WHILE NOT EXISTS (SELECT FROM load_done) LOOP
		SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'page'
			AND relation = 't_fp'::regclass AND page = 0) INTO now_growing;
		IF now_growing <> growing THEN
			RAISE NOTICE '% %', CASE WHEN now_growing THEN 'start' ELSE 'end' END,
				extract(epoch FROM clock_timestamp());
			growing := now_growing;
		END IF;
		PERFORM pg_sleep(0.01);
	END LOOP;
END
\$\$;
SQL
watcher=$!
# the readers run for R seconds, longer than the load (pgbench writes its logs only when it ends)
(cd "$work" && exec pgbench -n -M prepared -c 2 -j 2 -T "$R" -f read.sql -l --log-prefix=lat >"$work/pgbench.out" 2>&1) &
readers=$!
t0=$(date +%s.%N)
for ((b = 1000; b < N; b += 20000)); do
	$PSQL -c "INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series($b + 1, $((b + 20000))) g"
done
t1=$(date +%s.%N)
# tell the watcher to stop, then wait for the readers
$PSQL -c "INSERT INTO load_done DEFAULT VALUES"
wait "$watcher" || true
wait "$readers" || true

echo "load: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s for $N rows; index: $(ndd_index_shape t_fp)"
sed -n 's/.*NOTICE:  \(start\|end\) \([0-9.]*\)/\1 \2/p' "$work/watch.out" >"$work/windows"
echo "growth steps seen by the watcher: $(grep -c '^start' "$work/windows" || true) ($(awk '$1 == "start" { s = $2 } $1 == "end" && s { printf "%s%.0f ms", sep, ($2 - s) * 1000; sep = ", "; s = 0 }' "$work/windows"))"
cat "$work"/lat* | awk -v wf="$work/windows" -v t0="$t0" -v t1="$t1" '
	BEGIN { while ((getline l < wf) > 0) { split(l, a, " "); if (a[1] == "start") s = a[2]; else if (s) { n++; ws[n] = s; we[n] = a[2]; s = 0 } } }
	{
		end = $5 + $6 / 1e6; lat = $3 / 1000; start = end - lat / 1000; in_growth = 0
		if (start < t0 || end > t1) next			# only the queries during the load
		for (i = 1; i <= n; i++) if (start <= we[i] && end >= ws[i]) { in_growth = 1; break }
		print lat, in_growth
	}' >"$work/classified"
report() { # label, awk filter on "latency in_growth"
	awk "$2" "$work/classified" | sort -n | awk -v label="$1" '{ a[NR] = $1 }
		END { if (NR == 0) { printf "%-34s %8s\n", label, "none"; exit }
			printf "%-34s %8d  median %7.3f ms  p99 %7.3f ms  max %8.3f ms\n", label, NR, a[int(NR * 0.5) + 1], a[int(NR * 0.99) + 1], a[NR] }'
}
printf '%-34s %8s\n' "radius-3 queries during the load" "count"
report "all" '1'
report "overlapping a growth step" '$2 == 1'
report "not overlapping one" '$2 == 0'
