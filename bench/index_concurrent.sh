#!/usr/bin/env bash
# bench/index_concurrent.sh: concurrent streaming into an ndd index made on the empty table. Four
# pgbench clients each run "is there a near-duplicate (radius 3)? if not, insert" for random
# fingerprints (one statement: INSERT ... WHERE NOT EXISTS), so the index's map expands several
# times during the run. A watcher session records when an expansion or migration step is under way
# (the backend doing it holds a page lock on the index's metapage block, visible in pg_locks),
# polling every 10 ms.
# Prints throughput, and the median and p99 latency of the transactions overall, of those that
# overlapped a growth step, and of the others. Then the same stream into an index sized up front
# (WITH (rows = ...): no growth step at all), as the baseline of the same cluster and load.
# A benchmark: no thresholds.
#
#   bench/index_concurrent.sh [seconds [rows]]  default 60 s per run; starts its own cluster
#                                           rows: the second run's WITH (rows = ...), default 1000000 (more than a run inserts)
#   NDD_NO_INSTALL=1                        use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
T=${1:-60}
SIZED=${2:-1000000}
ndd_bench_cluster "shared_buffers=1GB" "max_wal_size=4GB"
work=$(mktemp -d)
trap 'ndd_stop_cluster; rm -rf "$work"' EXIT
ndd_bench_machine

$PSQL -c "CREATE EXTENSION ndd"
# the table starts empty: keep the planner on the index whatever its statistics say
export PGOPTIONS="-c enable_seqscan=off -c enable_bitmapscan=off"

# run <label> <index options>: one streaming run into a new table and index
run() {
	local label=$1 with=$2 watcher
	$PSQL -c "DROP TABLE IF EXISTS stream" -c "CREATE TABLE stream (id bigserial PRIMARY KEY, fp simhash64 NOT NULL)" \
		-c "CREATE INDEX stream_fp ON stream USING ndd (fp) $with" -c "CHECKPOINT"
	# a fingerprint from a random key: keys repeat (exact duplicates, which the check rejects)
	cat >"$work/stream.sql" <<'SQL'
\set i random(1, 2000000000)
INSERT INTO stream (fp) SELECT f FROM (SELECT ('x' || md5(:i::text))::bit(64)::bigint::simhash64 AS f) q
  WHERE NOT EXISTS (SELECT 1 FROM stream s WHERE s.fp <~> q.f <= 3);
SQL
	# the watcher: prints "start <epoch>" / "end <epoch>" when the growth lock appears / disappears
	$PSQL >"$work/watch.out" 2>&1 <<SQL &
DO \$\$
DECLARE
	growing bool := false;
	now_growing bool;
	stop timestamptz := clock_timestamp() + interval '$((T + 5)) seconds';
BEGIN
	WHILE clock_timestamp() < stop LOOP
		SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'page'
			AND relation = 'stream_fp'::regclass AND page = 0) INTO now_growing;
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
	rm -f "$work"/lat*
	(cd "$work" && pgbench -n -M prepared -c 4 -j 2 -T "$T" -f stream.sql -l --log-prefix=lat >"$work/pgbench.out" 2>&1)
	wait "$watcher" || true

	echo
	echo "== $label"
	grep -E '^tps' "$work/pgbench.out" | sed 's/ (without initial connection time)//'
	echo "rows inserted: $($PSQL -c "SELECT count(*) FROM stream"); index: $(ndd_index_shape stream_fp)"
	# growth windows, then every transaction (log: client, no, latency us, script, end epoch s, end us)
	sed -n 's/.*NOTICE:  \(start\|end\) \([0-9.]*\)/\1 \2/p' "$work/watch.out" >"$work/windows"
	echo "growth steps seen by the watcher: $(grep -c '^start' "$work/windows" || true) ($(awk '$1 == "start" { s = $2 } $1 == "end" && s { printf "%s%.0f ms", sep, ($2 - s) * 1000; sep = ", "; s = 0 }' "$work/windows"))"
	cat "$work"/lat* | awk -v wf="$work/windows" '
		BEGIN { while ((getline l < wf) > 0) { split(l, a, " "); if (a[1] == "start") s = a[2]; else if (s) { n++; ws[n] = s; we[n] = a[2]; s = 0 } } }
		{
			end = $5 + $6 / 1e6; lat = $3 / 1000; start = end - lat / 1000; in_growth = 0
			for (i = 1; i <= n; i++) if (start <= we[i] && end >= ws[i]) { in_growth = 1; break }
			print lat, in_growth
		}' >"$work/classified"
	printf '%-34s %8s\n' "transactions" "count"
	report "all" '1'
	report "overlapping a growth step" '$2 == 1'
	report "not overlapping one" '$2 == 0'
}
report() { # label, awk filter on "latency in_growth"
	awk "$2" "$work/classified" | sort -n | awk -v label="$1" '{ a[NR] = $1 }
		END { if (NR == 0) { printf "%-34s %8s\n", label, "none"; exit }
			printf "%-34s %8d  median %7.3f ms  p99 %7.3f ms  max %8.3f ms\n", label, NR, a[int(NR * 0.5) + 1], a[int(NR * 0.99) + 1], a[NR] }'
}

run "index made on the empty table (grows)" ""
run "index sized up front, WITH (rows = $SIZED) (never grows)" "WITH (rows = $SIZED)"
