#!/usr/bin/env bash
# Script test: an index built with 2 parallel workers, whose participants each write and WAL-log
# their own tables' pages, is rebuilt whole by WAL replay. After the build commits (no checkpoint
# since the one before it), the postmaster is killed with SIGKILL and the index's files are deleted,
# as if none of its writes had reached the disk; the restarted server's recovery must recreate
# every page from the WAL: the same pages (bytes 11 on: past the LSN and checksum, where
# pageinspect is installed), ndd_index_check ok, and the index's answers equal a sequential scan's.
# Needs the throwaway cluster's NDD_PGDATA, NDD_PGBIN, NDD_PGOPTS, NDD_PGLOG (scripts/test.sh)
# besides the PG* variables.
set -euo pipefail
: "${NDD_PGDATA:?needs NDD_PGDATA}" "${NDD_PGBIN:?needs NDD_PGBIN}"
source "$(dirname "$0")/../../scripts/lib.sh"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
DROP TABLE IF EXISTS pcr;
CREATE TABLE pcr (id int, fp simhash64) WITH (parallel_workers = 2, autovacuum_enabled = off);
-- NULLs (the leader's NULL chain) and exact duplicates (overflow pages) besides distinct rows
INSERT INTO pcr SELECT g, CASE WHEN g % 501 = 0 THEN NULL
	WHEN g % 10 = 0 THEN ('x' || md5('dup'))::bit(64)::bigint::simhash64  -- 20,000 copies
	ELSE ('x' || md5((g % 150000)::text))::bit(64)::bigint::simhash64 END
FROM generate_series(1, 200000) g;
VACUUM pcr;
CHECKPOINT;
SQL
has_pageinspect=$($PSQL -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'pageinspect'")
[ "$has_pageinspect" = 1 ] && $PSQL -c "CREATE EXTENSION IF NOT EXISTS pageinspect"
digest() {
	if [ "$has_pageinspect" = 1 ]; then
		$PSQL -c "SELECT md5(string_agg(md5(substr(get_raw_page('pcr_fp', b::int), 11)), '' ORDER BY b))
			FROM generate_series(0, pg_relation_size('pcr_fp') / current_setting('block_size')::int - 1) b"
	else
		$PSQL -c "SELECT pg_relation_size('pcr_fp')"
	fi
}
redo_before=$($PSQL -c "SELECT redo_lsn FROM pg_control_checkpoint()")
workers=$($PSQL 2>&1 <<'SQL' | sed -n 's/.*": \([0-9]*\) parallel workers.*/\1/p'
SET max_parallel_maintenance_workers = 2;
SET min_parallel_table_scan_size = 0;
SET client_min_messages = debug1;
CREATE INDEX pcr_fp ON pcr USING ndd (fp);
SQL
)
if [ "$workers" != 2 ]; then echo "FAIL: the build used '${workers:-no}' parallel workers, expected 2"; exit 1; fi
before=$(digest)
files=$($PSQL -c "SELECT current_setting('data_directory') || '/' || pg_relation_filepath('pcr_fp')")
redo_after=$($PSQL -c "SELECT redo_lsn FROM pg_control_checkpoint()")
if [ "$redo_before" != "$redo_after" ]; then
	# a checkpoint after the build moves the replay's start past its WAL: nothing to test
	echo "FAIL: a checkpoint ran during the build ($redo_before, then $redo_after): the test checks nothing"; exit 1
fi
echo "the crash, after a parallel build, then the index's files deleted:"
ndd_crash_kill || { echo "FAIL: the crash"; exit 1; }
rm -f "$files" "$files".[0-9]*
ndd_crash_restart || { echo "FAIL: the server does not restart after the crash"; exit 1; }
[ -f "$files" ] || { echo "FAIL: recovery did not recreate the index's file"; exit 1; }
after=$(digest)
if [ "$before" != "$after" ]; then
	echo "FAIL: the replayed index differs from the one built: $before before the crash, $after after"; exit 1
fi
check=$($PSQL -c "SELECT ndd_index_check('pcr_fp')") || { echo "FAIL: ndd_index_check after recovery"; exit 1; }
echo "$check"
ndd_index_equals_seqscan "after recovery: radius 3 around every 1000th row" pcr_fp \
	"SELECT q.id AS qid, d.id FROM pcr q, LATERAL (SELECT id FROM pcr WHERE fp <~> q.fp <= 3) d WHERE q.id % 1000 = 1" || exit 1
echo "ok   a parallel build replayed from WAL alone: the same pages ($after), checks ok, answers equal a scan's"
$PSQL -c "DROP TABLE pcr"
