#!/usr/bin/env bash
# Script test: a parallel ndd build (max_parallel_maintenance_workers = 2, the table's
# parallel_workers = 2, min_parallel_table_scan_size = 0) makes the index the serial build makes
# (max_parallel_maintenance_workers = 0): the same ndd_index_check report, the same answers to
# radius and KNN queries (compared as ordered lists, so an order within a bucket would show), and,
# where pageinspect is installed, the same pages (bytes 11 on: the page LSN, and the checksum over it, differ between any two
# builds). Rows: simhash64 with exact duplicates (long overflow chains), NULLs, deleted rows and
# HOT-updated rows (the scan indexes a HOT chain under its root's TID, out of offset order), and
# fp128; plain and CONCURRENTLY builds, with 1 MB of maintenance_work_mem (tables written in
# chunks, a bucket larger than memory streamed). A broken HOT chain (no VACUUM first) sets
# pg_index.indcheckxmin in both builds alike; no build leaves a temporary file; a serial build with
# 64 MB (one chunk per table, no run files) writes the pages of the one with 1 MB (many chunks,
# their entries sent to run files). Then a parallel build, cancelled once its workers hold the
# locks nbtree's workers take, and another cancelled while writing its tables, fail with 57014,
# leave no worker and no temporary file behind, and the next build succeeds.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -uo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
db=ndd_build_parallel
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
fail=0
$PSQL -d "$db" <<'SQL' || exit 1
CREATE EXTENSION ndd;
-- no autovacuum: VACUUM moves chains' insert_at, which would make two builds' pages differ
CREATE TABLE p64 (id int, fp simhash64) WITH (fillfactor = 70, autovacuum_enabled = off);
INSERT INTO p64 SELECT g, CASE WHEN g % 997 = 0 THEN NULL
	ELSE ('x' || md5((g % 150000)::text))::bit(64)::bigint::simhash64 END  -- ids past 150k duplicate
FROM generate_series(1, 200000) g;
DELETE FROM p64 WHERE id % 13 = 0;
UPDATE p64 SET id = -id WHERE id % 17 = 0;  -- HOT (no index yet): new versions beside their roots
-- long chains: buckets of 40,000 and 8 x 5,000 equal fingerprints (overflow pages; with the
-- builds' 1 MB of maintenance_work_mem, the bucket larger than that streamed, the rest in chunks)
INSERT INTO p64 SELECT 300000 + g,
	('x' || md5(CASE WHEN g <= 40000 THEN 'd0' ELSE 'd' || (g % 8 + 1) END))::bit(64)::bigint::simhash64
FROM generate_series(1, 80000) g;
-- removes the deleted rows and prunes the HOT chains to their live version (a build that finds
-- dead chain members sets indcheckxmin, and ndd_index_check must then wait for a newer snapshot)
VACUUM p64;
CREATE TABLE p128 (id int, fp fp128) WITH (autovacuum_enabled = off);
INSERT INTO p128 SELECT g, ('x' || md5(g::text) || md5('b' || g))::bit(128)::fp128 FROM generate_series(1, 100000) g;
ALTER TABLE p64 SET (parallel_workers = 2);
ALTER TABLE p128 SET (parallel_workers = 2);
CREATE TABLE queries (tab text, qid int, q64 simhash64, q128 fp128);
INSERT INTO queries SELECT 'p64', id, fp, NULL FROM p64 WHERE id % 1000 = 1 AND fp IS NOT NULL;
INSERT INTO queries SELECT 'p128', id, NULL, fp FROM p128 WHERE id % 1000 = 1;
CREATE TABLE answers (build text, tab text, qid int, k int, ids int[]);
CREATE TABLE pages (build text, blkno int, digest text);
SQL
has_pageinspect=$($PSQL -d "$db" -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'pageinspect'")
[ "$has_pageinspect" = 1 ] && $PSQL -d "$db" -c "CREATE EXTENSION pageinspect"

# build NAME TABLE WORKERS [CONCURRENTLY]: builds TABLE's index, records the workers the scan used,
# the check's report, every query's answers and the pages' digest, then drops the index
build() {
	local name=$1 tab=$2 workers=$3 conc=${4:-} log
	log=$($PSQL -d "$db" 2>&1 <<SQL
SET max_parallel_maintenance_workers = $workers;
SET min_parallel_table_scan_size = 0;
SET maintenance_work_mem = '$build_mem';
SET client_min_messages = debug1;
CREATE INDEX $conc ${tab}_fp ON $tab USING ndd (fp);
SQL
) || { echo "FAIL: build $name: $log"; fail=1; return; }
	used=$(sed -n 's/.*": \([0-9]*\) parallel workers.*/\1/p' <<<"$log")
	echo "${used:-0}" >"$tmp/$name.workers"
	$PSQL -d "$db" -c "SELECT regexp_replace(ndd_index_check('${tab}_fp'), '^ndd index \"[^\"]*\"', '')" >"$tmp/$name.check" || fail=1
	local q=q64
	[ "$tab" = p128 ] && q=q128
	$PSQL -d "$db" <<SQL || fail=1
SET enable_seqscan = off; SET enable_bitmapscan = off;
INSERT INTO answers SELECT '$name', '$tab', qid, k, ARRAY(SELECT id FROM $tab WHERE fp <~> q.$q <= k)
FROM queries q, generate_series(0, 8) k WHERE q.tab = '$tab';
INSERT INTO answers SELECT '$name', '$tab', qid, -1, ARRAY(SELECT id FROM $tab ORDER BY fp <~> q.$q LIMIT 10)
FROM queries q WHERE q.tab = '$tab';
SQL
	if [ "$has_pageinspect" = 1 ]; then
		$PSQL -d "$db" -c "INSERT INTO pages SELECT '$name', b, md5(substr(get_raw_page('${tab}_fp', b::int), 11))
			FROM generate_series(0, pg_relation_size('${tab}_fp') / current_setting('block_size')::int - 1) b" || fail=1
	fi
	$PSQL -d "$db" -c "DROP INDEX ${tab}_fp"
}
build_mem=1MB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; $PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT

for tab in p64 p128; do
	for conc in "" CONCURRENTLY; do
		s=$tab${conc:+_conc}_serial p=$tab${conc:+_conc}_parallel
		build "$s" $tab 0 $conc
		build "$p" $tab 2 $conc
		if [ "$(cat "$tmp/$s.workers")" != 0 ] || [ "$(cat "$tmp/$p.workers")" -lt 1 ]; then
			echo "FAIL $tab $conc: the serial build used $(cat "$tmp/$s.workers") workers, the parallel one $(cat "$tmp/$p.workers")"
			fail=1; continue
		fi
		if cmp -s "$tmp/$s.check" "$tmp/$p.check" && grep -q ': ok$' "$tmp/$p.check"; then
			echo "ok   $tab ${conc:-plain}: ndd_index_check equal ($(cat "$tmp/$p.check")) with $(cat "$tmp/$p.workers") workers"
		else
			echo "FAIL $tab ${conc:-plain}: ndd_index_check differs: serial $(cat "$tmp/$s.check"); parallel $(cat "$tmp/$p.check")"; fail=1
		fi
		read -r n diff < <($PSQL -d "$db" -F ' ' -c "
			SELECT count(*), count(*) FILTER (WHERE a.ids IS DISTINCT FROM b.ids)
			FROM answers a FULL JOIN answers b ON (b.tab, b.qid, b.k) = (a.tab, a.qid, a.k) AND b.build = '$p'
			WHERE a.build = '$s'")
		nonempty=$($PSQL -d "$db" -c "SELECT count(*) FROM answers WHERE build = '$s' AND cardinality(ids) > 1")
		if [ "$diff" = 0 ] && [ "$n" -gt 0 ] && [ "$nonempty" -gt 0 ]; then
			echo "ok   $tab ${conc:-plain}: $n radius and KNN answers ($nonempty with several rows) equal, in order"
		else
			echo "FAIL $tab ${conc:-plain}: $diff of $n answers differ"; fail=1
		fi
		if [ "$has_pageinspect" = 1 ]; then
			read -r n diff first < <($PSQL -d "$db" -F ' ' -c "
				SELECT count(*), count(*) FILTER (WHERE a.digest IS DISTINCT FROM b.digest),
				       coalesce(min(coalesce(a.blkno, b.blkno)) FILTER (WHERE a.digest IS DISTINCT FROM b.digest), -1)
				FROM (SELECT * FROM pages WHERE build = '$s') a FULL JOIN (SELECT * FROM pages WHERE build = '$p') b USING (blkno)")
			if [ "$diff" = 0 ] && [ "$n" -gt 0 ]; then echo "ok   $tab ${conc:-plain}: the same $n pages"
			else echo "FAIL $tab ${conc:-plain}: $diff of $n pages differ, the first block $first"; fail=1; fi
		fi
	done
done
[ "$has_pageinspect" = 1 ] || echo "note: pageinspect is not installed: pages not compared"

# Chunks and runs: with 1 MB a table is written in many chunks, several passes over the spool each
# filling one chunk in memory and sending the next ones' entries to their own temporary files
# (runs); with 64 MB in one chunk, no run. The pages must not depend on it.
build_mem=64MB
build p64_serial_64MB p64 0
build_mem=1MB
if [ "$has_pageinspect" = 1 ]; then
	read -r n diff < <($PSQL -d "$db" -F ' ' -c "
		SELECT count(*), count(*) FILTER (WHERE a.digest IS DISTINCT FROM b.digest)
		FROM (SELECT * FROM pages WHERE build = 'p64_serial') a
		FULL JOIN (SELECT * FROM pages WHERE build = 'p64_serial_64MB') b USING (blkno)")
	if [ "$diff" = 0 ] && [ "$n" -gt 0 ]; then echo "ok   p64: the same $n pages built in chunks and runs (1 MB) as in one chunk (64 MB)"
	else echo "FAIL p64: $diff of $n pages differ between the builds with 1 MB and 64 MB"; fail=1; fi
fi

# The temporary files of the builds (the spools and a parallel build's shared file set) as the
# server's temporary directory lists them: none may be left behind by a build, finished or not.
tmpfiles() {
	$PSQL -d "$db" -c "SELECT coalesce(string_agg(f, ' ' ORDER BY f), '') FROM pg_ls_dir('base/pgsql_tmp', true, false) f"
}
tmp_before=$(tmpfiles)
# ok when the directory lists what it listed before the builds; $1 names the builds since
check_tmpfiles() {
	local now
	now=$(tmpfiles)
	if [ "$now" = "$tmp_before" ]; then echo "ok   no temporary file left by $1 (base/pgsql_tmp: '$now')"
	else echo "FAIL temporary files left by $1: before '$tmp_before', after '$now'"; fail=1; fi
}
# The parallel workers still running in the test database, after up to 10 s: workers end as they
# see the leader's error, so give them a moment.
workers_left() {
	local n
	for _ in $(seq 1 100); do
		n=$($PSQL -d "$db" -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'parallel worker' AND datname = current_database()")
		[ "$n" = 0 ] && break
		sleep 0.1
	done
	echo "$n"
}

# A broken HOT chain, without a VACUUM first (as PostgreSQL's own tests make one): rows updated
# HOT (no index on fp yet) to another fingerprint while an older snapshot still sees the old
# version, so the build finds a recently dead chain member whose key differs from the live one's
# and must set pg_index.indcheckxmin (nbtree's brokenhotchain): serially and in parallel alike.
# Once the old snapshot is gone, the old versions are dead and neither build sets it.
$PSQL -d "$db" <<'SQL' || exit 1
CREATE TABLE hot (id int, fp simhash64) WITH (fillfactor = 50, autovacuum_enabled = off, parallel_workers = 2);
INSERT INTO hot SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
SQL
mkfifo "$tmp/hold"
PGAPPNAME=ndd_hot_hold $PSQL -d "$db" <"$tmp/hold" >/dev/null 2>&1 &
holder=$!
exec 7>"$tmp/hold"
echo "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM hot;" >&7
for _ in $(seq 1 300); do
	[ "$($PSQL -d "$db" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'ndd_hot_hold' AND state = 'idle in transaction' AND backend_xmin IS NOT NULL")" = 1 ] && break
	sleep 0.1
done
hot=$($PSQL -d "$db" -c "UPDATE hot SET fp = ('x' || md5('u' || id))::bit(64)::bigint::simhash64 WHERE id % 10 = 0" 	-c "SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'hot'" -c "SELECT pg_stat_force_next_flush()" 2>/dev/null | tail -1)
# checkxmin NAME WORKERS: builds index NAME with WORKERS and prints the workers it used and its
# pg_index.indcheckxmin (the indexes are dropped after the old snapshot's transaction ends: its
# lock on the table would block DROP INDEX)
checkxmin() {
	$PSQL -d "$db" -F ' ' <<SQL 2>&1 | sed -n 's/.*": \([0-9]*\) parallel workers.*/workers \1/p; /^[tf]$/p' | tr '\n' ' '
SET max_parallel_maintenance_workers = $2;
SET min_parallel_table_scan_size = 0;
SET client_min_messages = debug1;
CREATE INDEX $1 ON hot USING ndd (fp);
RESET client_min_messages;
SELECT indcheckxmin FROM pg_index WHERE indexrelid = '$1'::regclass;
SQL
}
serial=$(checkxmin hot_serial 0)
parallel=$(checkxmin hot_parallel 2)
echo "COMMIT;" >&7
exec 7>&-
wait $holder
$PSQL -d "$db" -c "DROP INDEX hot_serial, hot_parallel"
after_serial=$(checkxmin hot_serial 0)
after_parallel=$(checkxmin hot_parallel 2)
hot_updates=$($PSQL -d "$db" -c "SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'hot'")
if [ "$serial" = "t " ] && [ "$parallel" = "workers 2 t " ] && [ "$after_serial" = "f " ] &&
	[ "$after_parallel" = "workers 2 f " ] && [ "$hot_updates" -gt 0 ]; then
	echo "ok   a broken HOT chain ($hot_updates HOT updates under an older snapshot) sets indcheckxmin in the serial and the parallel build alike, and neither once the snapshot is gone"
else
	echo "FAIL broken HOT chain: indcheckxmin serial '$serial', parallel '$parallel'; after the snapshot: serial '$after_serial', parallel '$after_parallel'; HOT updates $hot_updates ($hot)"; fail=1
fi
check_tmpfiles "the builds"

# Cancel: a parallel build over 1.5M rows, cancelled as soon as its workers are seen scanning.
$PSQL -d "$db" <<'SQL' || exit 1
CREATE TABLE big (id int, fp simhash64);
INSERT INTO big SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 1500000) g;
ALTER TABLE big SET (parallel_workers = 2);
VACUUM ANALYZE big;
SQL
PGAPPNAME=ndd_par_cancel PGOPTIONS="-c max_parallel_maintenance_workers=2 -c min_parallel_table_scan_size=0" \
	$PSQL -d "$db" -c "CREATE INDEX big_fp ON big USING ndd (fp)" >"$tmp/cancel.out" 2>&1 &
builder=$!
cancelled=f
locks=
for _ in $(seq 1 3000); do
	# the workers' locks on the table and on the new index (the one the leader holds exclusively):
	# nbtree's workers take ShareLock and RowExclusiveLock (ShareUpdateExclusiveLock for both when
	# CONCURRENTLY)
	locks=$($PSQL -d "$db" -c "
		SELECT coalesce(string_agg(DISTINCT CASE WHEN l.relation = 'big'::regclass THEN 'table ' ELSE 'index ' END || l.mode, ', '), '')
		FROM pg_stat_activity a JOIN pg_stat_activity w ON w.leader_pid = a.pid AND w.backend_type = 'parallel worker'
		JOIN pg_locks l ON l.pid = w.pid AND l.locktype = 'relation' AND l.granted
		WHERE a.application_name = 'ndd_par_cancel' AND a.backend_type = 'client backend'
		  AND (l.relation = 'big'::regclass OR EXISTS (SELECT FROM pg_locks x WHERE x.pid = a.pid
		       AND x.locktype = 'relation' AND x.relation = l.relation AND x.mode = 'AccessExclusiveLock'))")
	if [ "$locks" != "index RowExclusiveLock, table ShareLock" ]; then
		kill -0 $builder 2>/dev/null || break
		continue
	fi
	cancelled=$($PSQL -d "$db" -c "
		SELECT coalesce(bool_or(pg_cancel_backend(a.pid)), false) FROM pg_stat_activity a
		WHERE a.application_name = 'ndd_par_cancel' AND a.backend_type = 'client backend'
		  AND EXISTS (SELECT FROM pg_stat_activity w WHERE w.leader_pid = a.pid AND w.backend_type = 'parallel worker')")
	[ "$cancelled" = t ] && break
	kill -0 $builder 2>/dev/null || break
	sleep 0.01
done
wait $builder
rc=$?
left=$(workers_left)
if [ "$cancelled" = t ] && [ $rc != 0 ] && grep -q "canceling statement due to user request" "$tmp/cancel.out" && [ "$left" = 0 ]; then
	echo "ok   a parallel build cancelled while its workers scan stops with 57014, no worker left"
else
	echo "FAIL cancel: cancel sent: $cancelled, psql exit $rc, output: $(cat "$tmp/cancel.out"), workers left: $left"; fail=1
fi
if [ "$locks" = "index RowExclusiveLock, table ShareLock" ]; then
	echo "ok   the workers held the locks nbtree's take: $locks"
else
	echo "FAIL the workers' locks: '$locks', expected index RowExclusiveLock, table ShareLock"; fail=1
fi
check_tmpfiles "the cancelled build"
# Cancel while the tables are written (1 MB: the participants' runs in use): stops with 57014 and
# leaves no temporary file.
PGAPPNAME=ndd_par_cancel_write PGOPTIONS="-c max_parallel_maintenance_workers=2 -c min_parallel_table_scan_size=0 -c maintenance_work_mem=1MB" \
	$PSQL -d "$db" -c "CREATE INDEX big_fp ON big USING ndd (fp)" >"$tmp/cancel_write.out" 2>&1 &
builder=$!
cancelled=f
for _ in $(seq 1 3000); do
	cancelled=$($PSQL -d "$db" -c "
		SELECT coalesce(bool_or(pg_cancel_backend(a.pid)), false) FROM pg_stat_activity a
		JOIN pg_stat_progress_create_index p ON p.pid = a.pid
		WHERE a.application_name = 'ndd_par_cancel_write' AND p.phase = 'building index: writing tables'
		  AND p.tuples_done > 0")
	[ "$cancelled" = t ] && break
	kill -0 $builder 2>/dev/null || break
	sleep 0.01
done
wait $builder
rc=$?
left=$(workers_left)
tmp_after=$(tmpfiles)
if [ "$cancelled" = t ] && [ $rc != 0 ] && grep -q "canceling statement due to user request" "$tmp/cancel_write.out" &&
	[ "$left" = 0 ] && [ "$tmp_after" = "$tmp_before" ]; then
	echo "ok   a parallel build cancelled while writing its tables stops with 57014, no worker and no temporary file left"
else
	echo "FAIL cancel while writing: cancel sent: $cancelled, psql exit $rc, output: $(cat "$tmp/cancel_write.out"), workers left: $left, temporary files before '$tmp_before', after '$tmp_after'"; fail=1
fi
out=$($PSQL -d "$db" -c "SET max_parallel_maintenance_workers = 2" -c "SET min_parallel_table_scan_size = 0" \
	-c "CREATE INDEX big_fp ON big USING ndd (fp)" -c "SELECT ndd_index_check('big_fp') LIKE '%: ok'" 2>&1)
if [ "$out" = t ]; then echo "ok   the next parallel build succeeds and checks ok"
else echo "FAIL the build after the cancel: $out"; fail=1; fi

exit $fail
