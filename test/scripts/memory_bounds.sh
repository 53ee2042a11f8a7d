#!/usr/bin/env bash
# Script test: the all-pairs functions keep their memory within the settings whatever the size of
# their answer (issue 8, point 5). At work_mem = 1MB:
#   - ndd_pairs over 5,000 identical fingerprints returns all 12,497,500 pairs;
#   - ndd_feature_pairs over 5,000 documents holding the same feature returns them too;
# and the backend's peak resident memory (VmHWM of /proc/self/status, read through pg_read_file in
# the same session) grows by less than NDD_MEMORY_BOUND_MB (default 100 MB) over the call. The old
# code held every pair in a vector: 12.5M pairs x 24 bytes, twice, is well above the bound. The
# bound is on memory, not time.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -uo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
BOUND_MB=${NDD_MEMORY_BOUND_MB:-100}
db=ndd_memory_bounds
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
$PSQL -d "$db" <<'SQL' || exit 1
CREATE EXTENSION ndd;
CREATE TABLE same_fp AS SELECT g::bigint AS id, '0123456789abcdef'::simhash64 AS fp FROM generate_series(1, 5000) g;
CREATE TABLE same_feature AS SELECT g::bigint AS id, ARRAY[42]::bigint[] AS features FROM generate_series(1, 5000) g;
CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql AS
  $$ SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint $$;
SQL

fail=0
# Runs one query in a fresh session at work_mem = 1MB; prints "<result> <peak growth in kB>".
measure() {
	$PSQL -d "$db" -F ' ' <<SQL
SET work_mem = '1MB';
SELECT peak_kb() AS before \gset
SELECT ($1), peak_kb() - :before;
SQL
}
check() {
	local what=$1 want=$2 query=$3 got grown
	read -r got grown < <(measure "$query") || { echo "FAIL: $what: the query failed"; fail=1; return; }
	echo "$what: $got (want $want), peak grew by $((grown / 1024)) MB (bound $BOUND_MB MB)"
	[ "$got" = "$want" ] || { echo "FAIL: $what returned $got, not $want"; fail=1; }
	[ "$grown" -lt $((BOUND_MB * 1024)) ] || { echo "FAIL: $what grew the backend by $((grown / 1024)) MB"; fail=1; }
}
check "ndd_pairs, 5,000 identical fingerprints" 12497500 \
	"SELECT count(*) FROM ndd_pairs('SELECT id, fp FROM same_fp', 3)"
check "ndd_feature_pairs, 5,000 documents with one shared feature" 12497500 \
	"SELECT count(*) FROM ndd_feature_pairs('SELECT id, features FROM same_feature', 1, 10000)"
[ $fail = 0 ] && echo "memory_bounds: OK"
exit $fail
