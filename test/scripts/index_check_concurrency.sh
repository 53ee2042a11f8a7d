#!/usr/bin/env bash
# ndd_index_check under concurrent writers (issue 8, point 2): it takes only AccessShareLock, so
# inserts, fingerprint updates, HOT updates, deletes, aborted inserts and VACUUM run while it
# checks; none of them may make it report corruption (ndd 0.1's check, which compared counts under
# ShareLock, called every not-yet-vacuumed row corruption). Every check must end in ": ok".
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -euo pipefail
db=ndd_check_concurrency
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'wait; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS '$db'" >/dev/null 2>&1 || true' EXIT
q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $db "$@"; }

q <<'SQL'
CREATE EXTENSION ndd;
CREATE TABLE t (id int PRIMARY KEY, fp simhash64, note text) WITH (fillfactor = 70);
INSERT INTO t SELECT g, CASE WHEN g % 100 = 0 THEN NULL ELSE ('x' || md5(g::text))::bit(64)::bigint::simhash64 END, ''
  FROM generate_series(1, 20000) g;
CREATE INDEX t_fp ON t USING ndd (fp);
SQL

writer() {  # $1: writer number; a fixed amount of mixed writes
	for i in $(seq 1 60); do
		base=$(( ($1 * 1000 + i) * 37 % 20000 ))
		echo "INSERT INTO t SELECT 100000 * $1 + $i * 100 + g, ('x' || md5(($i * g)::text))::bit(64)::bigint::simhash64, 'new' FROM generate_series(1, 50) g;"
		echo "UPDATE t SET fp = (fp::bigint # 1)::simhash64 WHERE id BETWEEN $base AND $base + 20;"
		echo "UPDATE t SET note = note || 'h' WHERE id BETWEEN $base + 30 AND $base + 60;"
		echo "DELETE FROM t WHERE id BETWEEN $base + 70 AND $base + 80;"
		echo "BEGIN; INSERT INTO t VALUES (-($1 * 1000 + $i), '0123456789abcdef', 'aborted'); ROLLBACK;"
	done | q >/dev/null
}
vacuumer() {
	for i in $(seq 1 8); do
		q -c "VACUUM t" >/dev/null
		q -c "VACUUM (INDEX_CLEANUP OFF) t" >/dev/null
	done
}
writer 1 & writer 2 & vacuumer &
checks=0
bad=0
while [ -n "$(jobs -r)" ] || [ $checks -lt 3 ]; do
	r=$(q -c "SELECT ndd_index_check('t_fp')" 2>&1 || true)
	checks=$((checks + 1))
	if [[ "$r" != *": ok" ]]; then
		echo "check $checks: $r"
		bad=$((bad + 1))
	fi
done
wait
final=$(q -c "SELECT ndd_index_check('t_fp')")
echo "$checks checks during concurrent writes and VACUUM, $bad failed; after: $final"
if [ $bad -ne 0 ] || [[ "$final" != *": ok" ]]; then
	echo "FAILED: ndd_index_check reported corruption of a healthy index under concurrent writers"
	exit 1
fi
echo "index_check_concurrency: ok"
