#!/usr/bin/env bash
# bench/df_privileges.sh: what row-level security on the document-frequency tables (issue 20) costs.
# The same calls, in the same run, by a superuser (row-level security does not apply to it: the
# baseline) and by a plain role with the grants (every ndd_df row it writes or reads passes the
# policies' ndd_collection_writable / ndd_collection_readable):
#   ndd_df_collect over N documents of 200 words (about 3,000 distinct tokens, a fresh collection);
#   ndd_filter_low_idf of 2,000 of them against that collection;
# alternating superuser, plain, superuser, ... RUNS times each, printing every run's seconds, the
# medians and the ratio plain / superuser. A benchmark: no thresholds.
#
#   bench/df_privileges.sh [documents] [runs]   default 20000 documents, 5 runs; own throwaway cluster
#   NDD_NO_INSTALL=1                            use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
N=${1:-20000}
RUNS=${2:-5}
ndd_bench_install
ndd_start_cluster
trap ndd_stop_cluster EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "$N documents of 200 words, ndd_filter_low_idf of 2000, $RUNS runs each, alternating"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION ndd;
CREATE TABLE vocab AS SELECT row_number() OVER (ORDER BY w) AS i, w FROM (SELECT DISTINCT proname::text AS w FROM pg_proc) s;
CREATE TABLE docs AS
  SELECT d AS id, (SELECT string_agg(v.w, ' ') FROM generate_series(1, 200) g
                   JOIN vocab v ON v.i = 1 + abs(hashint4(d * 1000 + g)) % (SELECT count(*) FROM vocab)) AS body
  FROM generate_series(1, $N) d;
CREATE ROLE bench_plain LOGIN;
GRANT INSERT, UPDATE, DELETE ON ndd_collection, ndd_df TO bench_plain;
GRANT SELECT ON docs TO bench_plain;
SQL
# seconds ROLE SQL: the statement's time in seconds, in a fresh session of ROLE
seconds() {
	psql -X -q -At -U "$1" -v ON_ERROR_STOP=1 <<SQL
SELECT clock_timestamp() AS t0 \gset
$2
SELECT round(extract(epoch FROM clock_timestamp() - :'t0')::numeric, 3);
SQL
}
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
declare -A t
for ((r = 1; r <= RUNS; r++)); do
	for role in postgres bench_plain; do
		c=$(seconds $role "SELECT ndd_df_collect('c_$role', 'SELECT id, body FROM docs') \g /dev/null" | tail -1)
		f=$(seconds $role "SELECT count(ndd_filter_low_idf(body, 'c_$role', 4)) FROM docs WHERE id <= 2000 \g /dev/null" | tail -1)
		echo "run $r $role: ndd_df_collect $c s, ndd_filter_low_idf x2000 $f s"
		t[collect_$role]+="$c "
		t[filter_$role]+="$f "
	done
done
for what in collect filter; do
	su=$(tr ' ' '\n' <<<"${t[${what}_postgres]}" | grep . | median)
	pl=$(tr ' ' '\n' <<<"${t[${what}_bench_plain]}" | grep . | median)
	echo "median $what: superuser (no row-level security) $su s, plain role (policies) $pl s, ratio $(awk -v a="$pl" -v b="$su" 'BEGIN {printf "%.2f", a / b}')"
done
rows=$(psql -X -q -At -c "SELECT count(*) FROM ndd_df WHERE collection = 'c_bench_plain'")
echo "ndd_df rows per collection: $rows"
psql -X -q -c "DROP TABLE docs, vocab" -c "DELETE FROM ndd_collection" -c "DROP OWNED BY bench_plain" -c "DROP ROLE bench_plain"
