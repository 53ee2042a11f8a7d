#!/usr/bin/env bash
# bench/mirrors_hot.sh: ndd_mirrors on the inputs of issue 31, finding 7, at a scale that does not
# fill a disk: what one call costs in time, temporary files and backend memory.
#   hot FxH   F fingerprints each served by H hosts at /parked{f}.html (parking or error pages), beside
#             200 hosts of 20 pages of their own: every pair of the H hosts is a candidate pair
#   long      91 pages of one fingerprint whose URLs are 64 kB long (4,095 pairs, each sort entry
#             about 64 kB)
# Each call runs in a fresh session with work_mem = 4MB and temp_file_limit = NDD_MIRRORS_TEMP_LIMIT
# (default 1GB, so that an unbounded run stops with PostgreSQL's error instead of filling the
# disk), and prints its seconds, the temporary bytes it wrote (pg_stat_database.temp_bytes), the
# growth of the backend's peak resident memory (VmHWM of /proc/self/status, read with
# pg_read_file), and any notice or error. The calls use only ndd_mirrors' first three arguments, so
# the script measures versions before and after max_hosts_per_fingerprint alike. A benchmark: no
# thresholds.
#
#   bench/mirrors_hot.sh [FxH ...]   default: 20x1000 20x2000
#   NDD_MIRRORS_TEMP_LIMIT=1GB       temp_file_limit of the calls
#   NDD_NO_INSTALL=1                 use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
[ $# -gt 0 ] || set -- 20x1000 20x2000
LIMIT=${NDD_MIRRORS_TEMP_LIMIT:-1GB}

ndd_bench_install
ndd_start_cluster "max_parallel_workers_per_gather=0"
trap ndd_stop_cluster EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "settings of each call: work_mem=4MB temp_file_limit=$LIMIT; ndd $(git log -1 --format=%h 2>/dev/null || echo '?')"
psql -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
psql -X -q -v ON_ERROR_STOP=1 -d bench <<'SQL'
CREATE EXTENSION ndd;
CREATE FUNCTION vmhwm_kb() RETURNS bigint LANGUAGE sql
  RETURN substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint;
CREATE TABLE longurls AS
  SELECT 'http://h' || h || '.example/' || repeat('a', 64000) || '/x.html' AS url, 42::bigint::simhash64 AS fp
  FROM generate_series(1, 91) h;
SQL

# measured TABLE MIN_SHARED: one call in a fresh session; prints seconds, temp bytes, VmHWM growth
measured() {
	psql -X -q -At -d bench 2>&1 <<SQL | grep -v '^$'
SELECT vmhwm_kb() AS h0, clock_timestamp() AS t0 \gset
SELECT temp_bytes AS b0 FROM pg_stat_database WHERE datname = current_database() \gset
SET work_mem = '4MB';
SET temp_file_limit = '$LIMIT';
SELECT 'mirror pairs: ' || count(*) FROM ndd_mirrors('SELECT url, fp FROM $1', 0, $2);
SELECT 'seconds: ' || round(extract(epoch FROM clock_timestamp() - :'t0')::numeric, 2);
SELECT 'VmHWM growth: ' || (vmhwm_kb() - :h0) || ' kB';
SELECT pg_stat_force_next_flush() \g /dev/null
SELECT 'temp bytes written: ' || (temp_bytes - :b0) FROM pg_stat_database WHERE datname = current_database();
SQL
}

for case in "$@"; do
	F=${case%x*}
	H=${case#*x}
	psql -X -q -v ON_ERROR_STOP=1 -d bench <<SQL
DROP TABLE IF EXISTS hot;
CREATE TABLE hot AS
  SELECT 'http://h' || h || '.example/parked' || f || '.html' AS url, (f * 7919)::bigint::simhash64 AS fp
  FROM generate_series(1, $F) f, generate_series(1, $H) h;
INSERT INTO hot
  SELECT 'http://h' || h || '.example/p' || g || '.html', hashint8(h * 1000 + g)::bigint::simhash64
  FROM generate_series(1, 200) h, generate_series(1, 20) g;
SQL
	echo
	echo "== hot $case: $F fingerprints x $H hosts ($((F * H)) pages) + 4000 pages of their own"
	measured hot 10
done
echo
echo "== long: 91 pages of 64 kB URLs, one fingerprint (min_shared 1)"
measured longurls 1
