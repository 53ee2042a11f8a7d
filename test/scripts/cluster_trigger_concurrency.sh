#!/usr/bin/env bash
# ndd_assign_cluster_trigger under concurrent inserts: near-duplicates inserted by concurrent
# transactions must not both become representatives.
#  1. Two sessions: A inserts a row and holds its transaction open; B inserts a near-duplicate
#     meanwhile. B must wait for A (the table's labelling lock, ndd_labelling_lock) and then join A's cluster.
#  1b. The same under SERIALIZABLE: the second transaction aborts (40001) or joins the cluster.
#  2. Four sessions insert 150 rows each, all within 1 bit of one base fingerprint (so all are
#     within 2 bits of each other, k = 3): exactly one representative must result, and every row
#     must be in its cluster. The lookups go through an ndd index on the fingerprint.
#  3. The same four writers on a partitioned table, each into its own partition: the lock and the
#     search are the partition root's, so still exactly one representative.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -euo pipefail
db=ndd_trigger_concurrency
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'wait; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS '$db'" >/dev/null 2>&1 || true' EXIT
q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $db "$@"; }

q <<'SQL'
CREATE EXTENSION ndd;
CREATE TABLE docs (id bigserial PRIMARY KEY, fp simhash64, cluster_id bigint);
CREATE TRIGGER label BEFORE INSERT ON docs FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
CREATE INDEX ON docs USING ndd (fp);
SQL

# 1. the two-session race
q -c "BEGIN; INSERT INTO docs (fp) VALUES ('00000000ffffffff'); SELECT pg_sleep(2); COMMIT;" &
sleep 0.7
start=$(date +%s.%N)
q -c "INSERT INTO docs (fp) VALUES ('00000000fffffffe')"
waited=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
wait
result=$(q -c "SELECT string_agg(id || ':' || cluster_id, ' ' ORDER BY id) FROM docs")
echo "two sessions: rows $result; the second insert waited ${waited}s"
if [ "$result" != "1:1 2:1" ]; then
	echo "FAILED: the concurrent near-duplicate did not join the first row's cluster"
	exit 1
fi

# 1b. the same race under SERIALIZABLE: the second transaction's snapshot predates the first's
# commit, so it cannot see the first row; serializable snapshot isolation must then abort it
# (40001, to be retried) rather than let it commit a second representative.
q -c "TRUNCATE docs RESTART IDENTITY"
q -c "BEGIN ISOLATION LEVEL SERIALIZABLE; INSERT INTO docs (fp) VALUES ('00000000ffffffff'); SELECT pg_sleep(2); COMMIT;" &
sleep 0.7
second=$(psql -X -q -A -t -d $db -c "BEGIN ISOLATION LEVEL SERIALIZABLE" \
	-c "INSERT INTO docs (fp) VALUES ('00000000fffffffe')" -c "COMMIT" 2>&1 || true)
wait
result=$(q -c "SELECT string_agg(id || ':' || cluster_id, ' ' ORDER BY id) FROM docs")
echo "serializable: rows $result; second session: $(echo "$second" | grep -o 'could not serialize[^.]*' || echo committed)"
if [ "$result" != "1:1" ] && [ "$result" != "1:1 2:1" ]; then
	echo "FAILED: under SERIALIZABLE a concurrent near-duplicate became a second representative"
	exit 1
fi

# 2. four writers, one family of near-duplicates
q -c "TRUNCATE docs RESTART IDENTITY"
for w in 1 2 3 4; do
	(
		for i in $(seq 1 150); do
			bit=$(((w * 150 + i) % 64))
			echo "INSERT INTO docs (fp) VALUES (('x0123456789abcdef'::bit(64)::bigint # (1::bigint << $bit))::simhash64);"
		done | q >/dev/null
	) &
done
wait
read -r rows reps clusters < <(q -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE cluster_id = id), count(DISTINCT cluster_id) FROM docs")
echo "four writers: $rows rows, $reps representatives, $clusters clusters"
if [ "$rows" != 600 ] || [ "$reps" != 1 ] || [ "$clusters" != 1 ]; then
	echo "FAILED: concurrent near-duplicates split into several clusters"
	exit 1
fi
# 3. four writers, four partitions, one family
q <<'SQL'
CREATE TABLE pdocs (id bigint, fp simhash64, cluster_id bigint) PARTITION BY LIST ((id % 4));
CREATE TABLE pdocs_0 PARTITION OF pdocs FOR VALUES IN (0);
CREATE TABLE pdocs_1 PARTITION OF pdocs FOR VALUES IN (1);
CREATE TABLE pdocs_2 PARTITION OF pdocs FOR VALUES IN (2);
CREATE TABLE pdocs_3 PARTITION OF pdocs FOR VALUES IN (3);
CREATE INDEX ON pdocs USING ndd (fp);
CREATE TRIGGER label BEFORE INSERT ON pdocs FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
SQL
for w in 0 1 2 3; do
	(
		for i in $(seq 1 100); do
			bit=$(((w * 100 + i) % 64))
			echo "INSERT INTO pdocs_$w (id, fp) VALUES ($((i * 4 + w)), ('x0123456789abcdef'::bit(64)::bigint # (1::bigint << $bit))::simhash64);"
		done | q >/dev/null
	) &
done
wait
read -r rows reps clusters parts < <(q -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE cluster_id = id), count(DISTINCT cluster_id), count(DISTINCT tableoid) FROM pdocs")
echo "four writers into four partitions: $rows rows in $parts partitions, $reps representatives, $clusters clusters"
if [ "$rows" != 400 ] || [ "$parts" != 4 ] || [ "$reps" != 1 ] || [ "$clusters" != 1 ]; then
	echo "FAILED: concurrent near-duplicates in different partitions split into several clusters"
	exit 1
fi
echo "cluster_trigger_concurrency: ok"
