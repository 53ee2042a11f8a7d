#!/usr/bin/env bash
# Script test: kill -9 of the postmaster during inserts into an ndd-indexed table, restart (WAL
# replay), then ndd_index_check and agreement with a sequential scan. One writer inserts exact
# copies of one fingerprint, so the crash also hits a long chain of one key in every table. Needs
# the throwaway cluster's NDD_PGDATA, NDD_PGBIN, NDD_PGOPTS, NDD_PGLOG (scripts/test.sh) besides
# the PG* variables.
set -euo pipefail
: "${NDD_PGDATA:?needs NDD_PGDATA}" "${NDD_PGBIN:?needs NDD_PGBIN}"
source "$(dirname "$0")/../../scripts/lib.sh"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
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
echo "the crash, during inserts:"
ndd_crash_kill || { echo "FAIL: the crash"; exit 1; }
wait || true
ndd_crash_restart || { echo "FAIL: the server does not restart after the crash"; exit 1; }
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
ndd_index_equals_seqscan "crash recovery: radius 3 around every 300th row and a copy" cr_fp \
	"SELECT q.id AS qid, d.id FROM cr q, LATERAL (SELECT id FROM cr WHERE fp <~> q.fp <= 3) d WHERE q.id % 300 = 0
		OR q.id = (SELECT min(id) FROM cr WHERE fp::bigint = ('x' || md5('copy'))::bit(64)::bigint)" || exit 1
# the index keeps working: more inserts, and the check still passes
$PSQL -c "INSERT INTO cr (fp) SELECT ('x' || md5('after' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 5000) g"
$PSQL -c "SELECT ndd_index_check('cr_fp')" >/dev/null || { echo "FAIL: check after further inserts"; exit 1; }
echo "ok   crash recovery: index consistent with the heap and with a sequential scan"
$PSQL -c "DROP TABLE cr"
