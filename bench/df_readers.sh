#!/usr/bin/env bash
# bench/df_readers.sh: does another role's readers list slow a role's reads of ndd_df (issue 31,
# finding 6)? A role reads its own small collection (SELECT count(*) FROM ndd_df, 5 runs in one
# session after a first, untimed one) while another role's collection holds no reader, then the
# longest readers list the schema accepts: 2,000,000 entries (the owner's own UPDATE of
# ndd_collection.readers), or, if that is refused, 100 (the bound of 0.2.0); then C more
# collections of that role with 100 readers each (inserted directly, then ANALYZE). Prints
# every run's milliseconds and the medians.
# A benchmark: no thresholds.
#
#   bench/df_readers.sh [readers [C]]   default 2000000 readers, 200000 collections
#   NDD_NO_INSTALL=1                    use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
R=${1:-2000000}
C=${2:-200000}
ndd_bench_install
ndd_start_cluster
trap ndd_stop_cluster EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
psql -X -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE EXTENSION ndd;
CREATE ROLE bench_reader LOGIN;
CREATE ROLE bench_owner LOGIN;
GRANT INSERT, UPDATE, DELETE ON ndd_collection, ndd_df TO bench_reader, bench_owner;
SET ROLE bench_reader;
SELECT ndd_df_add('mine', 'a few words of my own') \g /dev/null
SET ROLE bench_owner;
SELECT ndd_df_add('theirs', 'other words') \g /dev/null
SQL
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# reads LABEL: 5 timed reads in one session, after a first, untimed one
reads() {
	local all sql="SELECT count(*) FROM ndd_df \\g /dev/null"$'\n' r
	for r in 1 2 3 4 5; do
		sql+="SELECT clock_timestamp() AS t0 \\gset"$'\n'"SELECT count(*) FROM ndd_df \\g /dev/null"$'\n'
		sql+="SELECT round(extract(epoch FROM clock_timestamp() - :'t0')::numeric * 1000, 2);"$'\n'
	done
	all=$(psql -X -q -At -U bench_reader <<<"$sql" | tr '\n' ' ')
	echo "$1: runs ${all}ms, median $(tr ' ' '\n' <<<"$all" | grep . | median) ms"
}
reads "no readers on the other collection"
n=$R
if ! psql -X -q -U bench_owner -c "UPDATE ndd_collection SET readers = (SELECT array_agg(g::oid::regrole) FROM generate_series(100000, 100000 + $R - 1) g) WHERE name = 'theirs'" 2>/tmp/ndd-df-readers.err; then
	echo "a list of $R readers is refused: $(head -1 /tmp/ndd-df-readers.err)"
	n=100
	psql -X -q -v ON_ERROR_STOP=1 -U bench_owner -c "UPDATE ndd_collection SET readers = (SELECT array_agg(g::oid::regrole) FROM generate_series(100000, 100000 + $n - 1) g) WHERE name = 'theirs'"
fi
rm -f /tmp/ndd-df-readers.err
reads "$n readers on the other collection"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
INSERT INTO ndd_collection (name, owner, readers)
  SELECT 'theirs' || g, 'bench_owner', (SELECT array_agg(x::oid::regrole) FROM generate_series(100000, 100099) x)
  FROM generate_series(1, $C) g;
ANALYZE ndd_collection;
SQL
reads "$C more collections of the other role, 100 readers each"
