#!/usr/bin/env bash
# bench/trigger_insert.sh: what ndd_assign_cluster_trigger costs per insert. Two tables of the same
# N random simhash64 rows with an ndd index, one with the labelling trigger; pgbench inserts one
# random fingerprint per transaction into each (one client, -c 1, 10 s per run) and prints the
# median latency of each run, then the median of the runs and the ratio labelled / plain.
# The runs alternate plain, labelled, plain, ... so that both see the same machine load.
# The sessions run with synchronous_commit = off (PGOPTIONS), so that a single-row insert's
# latency is the insert and the trigger, not the commit's WAL fsync (which costs the same with or
# without the trigger and would hide its cost). A benchmark: no thresholds.
#
#   bench/trigger_insert.sh [rows] [runs]   default 200000 rows, 3 runs; starts its own throwaway cluster
#   NDD_NO_INSTALL=1                        use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-200000}
RUNS=${2:-3}
ndd_bench_cluster "shared_buffers=1GB"
ndd_bench_machine
echo "pgbench -c 1 -T 10, PGOPTIONS='-c synchronous_commit=off', $RUNS runs per table"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION ndd;
CREATE TABLE labelled (id bigserial PRIMARY KEY, fp simhash64, cluster_id bigint);
INSERT INTO labelled (fp, cluster_id)
  SELECT ('x' || md5(g::text))::bit(64)::bigint::simhash64, g FROM generate_series(1, $N) g;
CREATE INDEX ON labelled USING ndd (fp);
-- the copy shares labelled's id sequence (LIKE ... INCLUDING ALL copies the default)
CREATE TABLE plain (LIKE labelled INCLUDING ALL);
INSERT INTO plain SELECT * FROM labelled;
SELECT setval('labelled_id_seq', $N) \\g /dev/null
CREATE TRIGGER label BEFORE INSERT ON labelled
  FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp', 'cluster_id', '3');
VACUUM ANALYZE labelled;
VACUUM ANALYZE plain;
SQL
# run TABLE: one pgbench run; prints its median latency in ms and its number of inserts
run() {
	local f d
	f=$(mktemp); d=$(mktemp -d)
	printf '\\set r random(1, 1000000000)\nINSERT INTO %s (fp) VALUES ((:r::bigint * 2654435761)::simhash64);\n' "$1" >"$f"
	(cd "$d" && PGOPTIONS='-c synchronous_commit=off' pgbench -n -c 1 -f "$f" -T 10 -l --log-prefix=lat >/dev/null 2>&1)
	echo "$(cat "$d"/lat* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int(NR*0.5)+1]}') $(cat "$d"/lat* | wc -l)"
	rm -rf "$f" "$d"
}
declare -A medians
for r in $(seq 1 "$RUNS"); do
	for t in plain labelled; do
		read -r med n < <(run $t)
		medians[$t]+="$med "
		printf 'run %d  %-9s %d rows: median %s ms per single-row insert (%s inserts)\n' "$r" "$t" "$N" "$med" "$n"
	done
done
median_of() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }
p=$(median_of "${medians[plain]}"); l=$(median_of "${medians[labelled]}")
printf 'median of %d runs: plain %s ms, labelled %s ms, labelled / plain = %s\n' "$RUNS" "$p" "$l" \
	"$(awk -v a="$l" -v b="$p" 'BEGIN {printf "%.2f", a / b}')"
