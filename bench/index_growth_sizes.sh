#!/usr/bin/env bash
# bench/index_growth_sizes.sh: how the size of an ndd index that grows compares with a built one
# at every point of its growth, not only at one row count. Random rows are inserted in equal
# batches into a table whose index was made empty; after each batch an index is built on a copy of
# the same rows (CREATE INDEX, default fillfactor) and both sizes are printed, with the grown map's
# generation and whether a migration is under way. The ratio moves with the expansion cycle (a
# map a quarter larger after each expansion, filled again by the rows that follow): the table
# shows its whole range. A benchmark: no thresholds.
#
#   bench/index_growth_sizes.sh [rows [batches]]   default 1000000 rows in 20 batches; starts its
#                                                  own throwaway cluster
#   NDD_NO_INSTALL=1                               use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-1000000}
B=${2:-20}
ndd_bench_cluster "shared_buffers=1GB" "max_wal_size=4GB"
ndd_bench_machine

$PSQL -c "CREATE EXTENSION ndd" \
	-c "CREATE TABLE grown (id int, fp simhash64)" -c "ALTER TABLE grown SET (autovacuum_enabled = off)" \
	-c "CREATE INDEX grown_fp ON grown USING ndd (fp)"
printf '%10s  %12s  %12s  %6s  %s\n' rows "grown (kB)" "built (kB)" ratio "grown map"
lo=0
min=""; max=""
for i in $(seq 1 "$B"); do
	hi=$((N * i / B))
	$PSQL -c "INSERT INTO grown SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series($((lo + 1)), $hi) g"
	lo=$hi
	grown=$($PSQL -c "SELECT pg_relation_size('grown_fp') / 1024")
	built=$($PSQL -c "DROP TABLE IF EXISTS built" -c "CREATE TABLE built AS SELECT * FROM grown" \
		-c "CREATE INDEX built_fp ON built USING ndd (fp)" -c "SELECT pg_relation_size('built_fp') / 1024")
	map=$($PSQL -c "SELECT substring(ndd_index_check('grown_fp') from '\\((map generation [^)]*)\\)')")
	ratio=$(awk -v a="$grown" -v b="$built" 'BEGIN { printf "%.2f", a / b }')
	printf '%10d  %12d  %12d  %6s  %s\n' "$hi" "$grown" "$built" "$ratio" "$map"
	min=$(awk -v a="$ratio" -v m="${min:-$ratio}" 'BEGIN { print (a < m ? a : m) }')
	max=$(awk -v a="$ratio" -v m="${max:-$ratio}" 'BEGIN { print (a > m ? a : m) }')
done
echo "grown / built size over the run: from $min to $max"
