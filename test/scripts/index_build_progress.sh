#!/usr/bin/env bash
# Script test: CREATE INDEX ... USING ndd reports its progress in pg_stat_progress_create_index.
# One session builds an index on 3M rows; another samples the view every few milliseconds from a
# procedure that commits between samples (a transaction keeps one snapshot of the backends'
# status, so sampling inside one transaction would see the same row over and over). Checks that
# both ndd phases were seen with their names, that the table scan counted blocks, and that the
# writing phase counted entries up to rows x tables; serially, then with 2 parallel workers (the
# leader reports the parallel scan's blocks and every participant's entries).
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
db=ndd_build_progress
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
$PSQL -d "$db" <<'SQL' || exit 1
CREATE EXTENSION ndd;
CREATE TABLE big (id int, fp simhash64);
INSERT INTO big SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 3000000) g;
ALTER TABLE big SET (parallel_workers = 2);
VACUUM ANALYZE big;
CREATE TABLE samples (phase text, blocks_total bigint, blocks_done bigint, tuples_total bigint, tuples_done bigint);
CREATE TABLE build_done (done bool);
CREATE PROCEDURE sample_progress() LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..20000 LOOP
		INSERT INTO samples SELECT phase, blocks_total, blocks_done, tuples_total, tuples_done
			FROM pg_stat_progress_create_index WHERE relid = 'big'::regclass;
		COMMIT;
		EXIT WHEN EXISTS (SELECT FROM build_done);
		PERFORM pg_sleep(0.002);
	END LOOP;
END $$;
SQL

for workers in 0 2; do
	label=serial
	[ "$workers" = 0 ] || label="$workers parallel workers"
	$PSQL -d "$db" -c "TRUNCATE samples, build_done" -c "DROP INDEX IF EXISTS big_fp" || exit 1
	$PSQL -d "$db" -c "CALL sample_progress()" &
	sampler=$!
	sleep 0.5
	$PSQL -d "$db" -c "SET max_parallel_maintenance_workers = $workers" -c "SET min_parallel_table_scan_size = 0" \
		-c "CREATE INDEX big_fp ON big USING ndd (fp)" -c "INSERT INTO build_done VALUES (true)" || exit 1
	wait $sampler || { echo "FAIL: the sampling session failed"; exit 1; }

	read -r nsamples scan_seen blocks_ok write_seen tuples_ok < <($PSQL -d "$db" -F ' ' -c "
		SELECT count(*),
		       count(*) FILTER (WHERE phase = 'building index: scanning table') > 0,
		       count(*) FILTER (WHERE phase = 'building index: scanning table' AND blocks_total > 0
		                        AND blocks_done BETWEEN 0 AND blocks_total) > 0,
		       count(*) FILTER (WHERE phase = 'building index: writing tables') > 0,
		       bool_and(tuples_done <= tuples_total) FILTER (WHERE phase = 'building index: writing tables')
		           AND max(tuples_total) FILTER (WHERE phase = 'building index: writing tables')
		               = 3000000 * 4  -- rows x tables of the default layout (k = 3: 4 tables)
		FROM samples")
	echo "$label: samples: $nsamples; scanning phase seen: $scan_seen (blocks counted: $blocks_ok); writing phase seen: $write_seen (entries counted up to rows x tables: $tuples_ok)"
	$PSQL -d "$db" -c "SELECT phase, count(*), max(blocks_done), max(tuples_done) FROM samples GROUP BY phase ORDER BY min(ctid)"
	if [ "$scan_seen" != t ] || [ "$blocks_ok" != t ] || [ "$write_seen" != t ] || [ "$tuples_ok" != t ]; then
		echo "FAIL: pg_stat_progress_create_index did not show the ndd build ($label) as expected"
		exit 1
	fi
	echo "ok   index build progress is reported ($label)"
done
