#!/usr/bin/env bash
# Script test: kill -9 of the postmaster during inserts into an ndd-indexed table, restart (WAL
# replay), then ndd_index_check and agreement with a sequential scan. One writer inserts exact
# copies of one fingerprint, so the crash also hits a long chain of one key in every table. Needs
# the throwaway cluster's NDD_PGDATA, NDD_PGBIN, NDD_PGOPTS, NDD_PGLOG (scripts/test.sh) besides
# the PG* variables.
set -euo pipefail
: "${NDD_PGDATA:?needs NDD_PGDATA}" "${NDD_PGBIN:?needs NDD_PGBIN}"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
$PSQL <<'SQL'
CREATE EXTENSION IF NOT EXISTS ndd;
DROP TABLE IF EXISTS cr;
CREATE TABLE cr (id bigserial, fp simhash64);
-- small at build, so that the writers below make it expand its map and migrate it until the crash
INSERT INTO cr (fp) SELECT ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 2000) g;
CREATE INDEX cr_fp ON cr USING ndd (fp);
INSERT INTO cr (fp) SELECT ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(2001, 20000) g;
CHECKPOINT;
SQL
# writers: committed batches, and one long transaction that will never commit
for w in 1 2 3; do
	( for b in $(seq 1 1000); do
		$PSQL -c "INSERT INTO cr (fp) SELECT ('x' || md5('w$w-$b-' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 200) g;
		          DELETE FROM cr WHERE id % 97 = $b % 97 AND id < 5000;" 2>/dev/null || exit 0
	  done ) &
done
( for b in $(seq 1 1000); do
	$PSQL -c "INSERT INTO cr (fp) SELECT ('x' || md5('copy'))::bit(64)::bigint::simhash64 FROM generate_series(1, 200) g" 2>/dev/null || exit 0
  done ) &
$PSQL -c "BEGIN; INSERT INTO cr (fp) SELECT ('x' || md5('uncommitted' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 50000) g; SELECT pg_sleep(60); COMMIT;" >/dev/null 2>&1 &
# until some batches of both kinds committed (at most a minute): the crash must hit inserts under way
for _ in $(seq 1 600); do
	[ "$($PSQL -c "SELECT count(*) > 20000 AND count(*) FILTER (WHERE fp::bigint = ('x' || md5('copy'))::bit(64)::bigint) >= 200 FROM cr" 2>/dev/null)" = t ] && break
	sleep 0.1
done
sleep 1
pid=$(head -1 "$NDD_PGDATA/postmaster.pid")
echo "killing the postmaster ($pid) with SIGKILL during inserts"
kill -9 "$pid"
wait || true
# the orphaned backends notice the postmaster's death and exit; until then (and until the dead
# postmaster is reaped) a restart is refused, so retry for a while
started=0
for i in $(seq 1 30); do
	sleep 1
	if as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_PGDATA" -o "$NDD_PGOPTS" -l "$NDD_PGLOG" -w -t 300 start >/dev/null 2>&1; then
		started=1
		break
	fi
done
[ $started = 1 ] || { echo "FAIL: the server does not restart after the crash"; exit 1; }
read -r rows copies <<<"$($PSQL -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE fp::bigint = ('x' || md5('copy'))::bit(64)::bigint) FROM cr")"
echo "after recovery: $rows rows, $copies of them copies of one fingerprint"
# the crash must have hit inserts under way: committed batches past the 20,000 rows of the setup and
# a chain of copies, or the checks below would only check the index as it was built
if [ "$rows" -le 20000 ] || [ "$copies" -lt 200 ]; then
	echo "FAIL: no insert committed before the crash ($rows rows, $copies copies): the test checks nothing"; exit 1
fi
$PSQL -c "VACUUM cr"
check=$($PSQL -c "SELECT ndd_index_check('cr_fp')") || { echo "FAIL: ndd_index_check after crash recovery"; exit 1; }
echo "$check"
# the first answer must come from the index, the second from the heap
if ! $PSQL -c "EXPLAIN (COSTS OFF) SELECT q.id AS qid, d.id FROM cr q, LATERAL (SELECT id FROM cr WHERE fp <~> q.fp <= 3) d WHERE q.id % 300 = 0" | grep -q "Index Scan using cr_fp\|Bitmap Index Scan on cr_fp"; then
	echo "FAIL: the planner does not use cr_fp after recovery: the comparison below would compare two scans"; exit 1
fi
bad=$($PSQL <<'SQL'
CREATE TEMP TABLE a AS SELECT q.id AS qid, d.id FROM cr q, LATERAL (SELECT id FROM cr WHERE fp <~> q.fp <= 3) d WHERE q.id % 300 = 0
	OR q.id = (SELECT min(id) FROM cr WHERE fp::bigint = ('x' || md5('copy'))::bit(64)::bigint);
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE b AS SELECT q.id AS qid, d.id FROM cr q, LATERAL (SELECT id FROM cr WHERE fp <~> q.fp <= 3) d WHERE q.id % 300 = 0
	OR q.id = (SELECT min(id) FROM cr WHERE fp::bigint = ('x' || md5('copy'))::bit(64)::bigint);
SELECT count(*) FROM ((SELECT * FROM a EXCEPT ALL SELECT * FROM b) UNION ALL (SELECT * FROM b EXCEPT ALL SELECT * FROM a)) x;
SQL
)
if [ "$bad" != 0 ]; then echo "FAIL: $bad differences from a sequential scan after recovery"; exit 1; fi
# the index keeps working: more inserts, and a REINDEX agrees
$PSQL -c "INSERT INTO cr (fp) SELECT ('x' || md5('after' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 5000) g"
$PSQL -c "SELECT ndd_index_check('cr_fp')" >/dev/null || { echo "FAIL: check after further inserts"; exit 1; }
echo "ok   crash recovery: index consistent with the heap and with a sequential scan"
$PSQL -c "DROP TABLE cr"
