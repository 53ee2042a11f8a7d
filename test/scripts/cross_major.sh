#!/usr/bin/env bash
# Moving from PostgreSQL 15 to 18 (issue 23, point 3), both ways a user moves:
#  1. pg_upgrade: it copies every relation file as it is, so 18's ndd reads an index file that 15's
#     ndd wrote. The same heap is made on a 15 and an 18 cluster (same rows, same order: same
#     TIDs, checked), the 15 index file is copied over the 18 one with both servers stopped, and the
#     18 WAL position is moved past the 15 cluster's with pg_resetwal -l (what pg_upgrade does, so
#     that the copied pages' LSNs are in the past). Then every radius and KNN answer through the
#     copied index equals a sequential scan, ndd_index_check passes, and inserts, deletes and
#     VACUUM work on it afterwards (the same again). (pg_upgrade itself cannot run here: Debian's
#     15 stamps every column with an attribute option upstream 18 rejects.)
#  2. pg_dump of 15, restored into 18: ndd columns, ndd indexes, the labelling trigger and the
#     document-frequency tables (ndd_collection, ndd_df) arrive whole; the restored index answers as
#     a scan does and the trigger labels new rows as 15's does. Dumped with 18's pg_dump, as the
#     PostgreSQL documentation advises for an upgrade; the "ALTER ... SET (pg_attver=...)" lines of
#     Debian's 15 are removed first.
#
# Needs PostgreSQL 15 and 18 (lib.sh, ndd_find_pg). It runs in the suite of 18, once; in the suite
# of 15, and where 18 is missing, it exits 77 with the reason.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"

if [ "${NDD_PG_MAJOR:-$(ndd_pg_major)}" != 18 ]; then
	echo "skipped: cross_major runs once, in the suite of PostgreSQL 18"
	exit 77
fi
bin18=$NDD_PGBIN
if ! bin15=$(ndd_find_pg 15) || [ "$(ndd_pg_major "$bin15")" != 15 ]; then
	echo "skipped: no PostgreSQL 15: $bin15"
	exit 77
fi
# ndd in both trees (the suite of 18 installed it there; 15's may be from an earlier run or none)
ndd_build_install "$bin15" || { echo "FAILED: ndd does not build for PostgreSQL 15"; exit 1; }

dir=$(mktemp -d /tmp/ndd-cross.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
fail() { echo "FAILED: $*"; exit 1; }

# node NAME BIN [initdb options]: a new cluster NAME of the PostgreSQL in BIN, not started
declare -A node_bin=() node_port=()
nodes=0
node_init() {
	local name=$1 bin=$2 port=$((51000 + ($$ + 10 * nodes) % 9000))
	nodes=$((nodes + 1))
	shift 2
	ndd_as_owner "$bin/initdb" -D "$dir/$name" -A trust -U postgres -E UTF8 --no-locale "$@" >/dev/null || fail "initdb $name"
	while ss -ltn 2>/dev/null | grep -q ":$port\b"; do port=$((port + 1)); done
	node_bin[$name]=$bin node_port[$name]=$port
}
node_start() {
	local name=$1
	(
		# the server must not inherit the open files of the test runner (its pipes and locks)
		for fd in /proc/$BASHPID/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
		ndd_as_owner "${node_bin[$name]}/pg_ctl" -D "$dir/$name" -l "$dir/$name.log" -w -t 120 \
			-o "-p ${node_port[$name]} -k $dir -c listen_addresses=''" start >/dev/null
	) || { tail -20 "$dir/$name.log"; fail "start $name"; }
}
node_stop() { ndd_as_owner "${node_bin[$1]}/pg_ctl" -D "$dir/$1" -m fast -w stop >/dev/null 2>&1; }
# sql NAME [DB] [psql args]: psql of the node's own major on the node
sql() {
	local name=$1 db=${2:-postgres}
	shift 2
	"${node_bin[$name]}/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$dir" -p "${node_port[$name]}" -U postgres -d "$db" "$@"
}
cleanup() {
	local n
	for n in "${!node_bin[@]}"; do node_stop "$n"; done
	if [ "${NDD_KEEP_CLUSTER:-0}" = 1 ]; then echo "kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT

# The same heap on both: generated, not random, so that both majors write the same rows in the
# same order. 60,000 fingerprints of both types, 1 in 50 a 1- or 2-bit copy of an earlier row, a
# few exact copies and NULLs. No data checksums on 18 (its initdb default): pg_upgrade needs the
# setting of the old cluster, and 15's default is off.
heap_sql="
CREATE EXTENSION ndd;
CREATE TABLE t (id int, fp simhash64, f128 fp128);
INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64,
	('x' || md5(g::text) || md5('b' || g))::bit(128)::fp128
FROM generate_series(1, 60000) g;
INSERT INTO t SELECT 100000 + id, (fp::bigint # (1::bigint << (id % 64)) # (1::bigint << ((id * 5) % 64)))::simhash64,
	(f128::bit(128) # ('x' || lpad(to_hex(1::bigint << (id % 60)), 16, '0') || lpad(to_hex(1::bigint << ((id * 7) % 60)), 16, '0'))::bit(128))::fp128
FROM t WHERE id % 50 = 0;
INSERT INTO t SELECT 200000 + id, fp, f128 FROM t WHERE id % 5000 = 0;
INSERT INTO t SELECT -g, NULL, NULL FROM generate_series(1, 5) g;
CREATE INDEX t_fp ON t USING ndd (fp);
CREATE INDEX t_f128 ON t USING ndd (f128);
CHECKPOINT;
"
node_init old "$bin15"
node_init new "$bin18" --no-data-checksums
node_start old
node_start new
sql old postgres -c "$heap_sql" >/dev/null || fail "the heap on 15"
sql new postgres -c "$heap_sql" >/dev/null || fail "the heap on 18"
tids="SELECT md5(string_agg(ctid::text || ' ' || id, ',' ORDER BY ctid)) FROM t"
[ "$(sql old postgres -c "$tids")" = "$(sql new postgres -c "$tids")" ] ||
	fail "the two heaps differ (the test needs the same TIDs on both majors)"
echo "same heap on 15 and 18: $(sql new postgres -c "SELECT count(*) || ' rows, ' || pg_size_pretty(pg_relation_size('t')) FROM t")"
declare -A path_old path_new
for ix in t_fp t_f128; do
	path_old[$ix]=$(sql old postgres -c "SELECT pg_relation_filepath('$ix')")
	path_new[$ix]=$(sql new postgres -c "SELECT pg_relation_filepath('$ix')")
done
node_stop old
node_stop new

# What pg_upgrade does to the new cluster: its WAL starts past the old cluster's (pg_resetwal -l),
# then the old relation files are copied in (here the two index files, every fork and segment).
next_wal() { # the WAL file after the later of the two clusters' checkpoints
	local a b n
	a=$(ndd_as_owner "$bin15/pg_controldata" "$dir/old" | sed -n "s/^Latest checkpoint's REDO WAL file: *//p")
	b=$(ndd_as_owner "$bin18/pg_controldata" "$dir/new" | sed -n "s/^Latest checkpoint's REDO WAL file: *//p")
	[[ "$a" > "$b" ]] || a=$b
	n=$((16#${a:8:8} * 256 + 16#${a:16:8} + 2))
	printf '%s%08X%08X\n' "${a:0:8}" $((n / 256)) $((n % 256))
}
ndd_as_owner "$bin18/pg_resetwal" -l "$(next_wal)" "$dir/new" >/dev/null || fail "pg_resetwal -l"
for ix in t_fp t_f128; do
	rm -f "$dir/new/${path_new[$ix]}" "$dir/new/${path_new[$ix]}".* "$dir/new/${path_new[$ix]}"_*
	for f in "$dir/old/${path_old[$ix]}" "$dir/old/${path_old[$ix]}".* "$dir/old/${path_old[$ix]}"_*; do
		[ -e "$f" ] || continue
		cp -p "$f" "$dir/new/${path_new[$ix]}${f#"$dir/old/${path_old[$ix]}"}"
	done
done
node_start new
echo "15's index files copied over 18's: $(sql new postgres -c "SELECT string_agg(c || ' ' || pg_size_pretty(pg_relation_size(c)), ', ') FROM unnest(ARRAY['t_fp', 't_f128']::regclass[]) c")"

# Every radius 0..5 and KNN (10 nearest) answer through the index equals the sequential scan's, for
# 40 queries per type: planted originals (near-duplicates exist), random ones, an exact copy.
compare() { # compare LABEL: the index's and the scan's answers on the new cluster
	local out
	out=$(sql new postgres <<'SQL'
SET client_min_messages = warning;
DROP TABLE IF EXISTS q64, q128, a_index, a_scan;
CREATE TABLE q64 AS SELECT id AS qid, fp AS q FROM t WHERE id % 1500 = 0 AND id < 100000
	UNION ALL SELECT -g, ('x' || md5('q' || g))::bit(64)::bigint::simhash64 FROM generate_series(1, 5) g;
CREATE TABLE q128 AS SELECT id AS qid, f128 AS q FROM t WHERE id % 1500 = 0 AND id < 100000
	UNION ALL SELECT -g, ('x' || md5('q' || g) || md5('r' || g))::bit(128)::fp128 FROM generate_series(1, 5) g;
CREATE FUNCTION answers() RETURNS TABLE (kind text, qid int, r int, ids int[]) LANGUAGE sql AS $$
	SELECT 'radius64', qid, r, (SELECT array_agg(id ORDER BY id) FROM t WHERE t.fp <~> q <= r) FROM q64, generate_series(0, 5) r
	UNION ALL
	SELECT 'radius128', qid, r, (SELECT array_agg(id ORDER BY id) FROM t WHERE t.f128 <~> q <= r) FROM q128, generate_series(0, 5) r
	UNION ALL
	SELECT 'knn64', qid, 10, (SELECT array_agg(d) FROM (SELECT (t.fp <~> q)::int AS d FROM t ORDER BY t.fp <~> q LIMIT 10) k) FROM q64
	UNION ALL
	SELECT 'knn128', qid, 10, (SELECT array_agg(d) FROM (SELECT (t.f128 <~> q)::int AS d FROM t ORDER BY t.f128 <~> q LIMIT 10) k) FROM q128
$$;
SET enable_seqscan = off;
CREATE TABLE a_index AS SELECT * FROM answers();
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TABLE a_scan AS SELECT * FROM answers();
RESET enable_indexscan;
RESET enable_bitmapscan;
DROP FUNCTION answers();
SELECT count(*) || ' answers, ' || sum(coalesce(cardinality(s.ids), 0)) || ' rows in them, '
	|| count(*) FILTER (WHERE i.ids IS DISTINCT FROM s.ids) || ' differ'
FROM a_index i FULL JOIN a_scan s USING (kind, qid, r);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> (SELECT q FROM q64 LIMIT 1) <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM t ORDER BY f128 <~> (SELECT q FROM q128 LIMIT 1) LIMIT 10;
SELECT ndd_index_check('t_fp');
SELECT ndd_index_check('t_f128');
SQL
	) || fail "$1: the queries failed: $out"
	echo "$1: $(head -1 <<<"$out")"
	grep -q ' 0 differ$' <<<"$(head -1 <<<"$out")" || fail "$1: answers through the index differ from a scan"
	grep -q 'Index Scan using t_fp\|Bitmap Index Scan on t_fp' <<<"$out" || fail "$1: the radius query does not use t_fp: $out"
	grep -q 'Index Scan using t_f128' <<<"$out" || fail "$1: KNN does not use t_f128: $out"
	echo "$1: ndd_index_check: $(tail -2 <<<"$out" | tr '\n' ' ')"
}
compare "15's index read by 18"

# Writes through the copied index: inserts (new rows and near-duplicates of old ones), deletes and
# VACUUM; the same comparison again.
sql new postgres >/dev/null <<'SQL' || fail "inserts, deletes or VACUUM on the copied index"
INSERT INTO t SELECT 300000 + g, ('x' || md5('new' || g))::bit(64)::bigint::simhash64,
	('x' || md5('new' || g) || md5('c' || g))::bit(128)::fp128 FROM generate_series(1, 20000) g;
INSERT INTO t SELECT 400000 + id, (fp::bigint # (1::bigint << ((id * 3) % 64)))::simhash64,
	(f128::bit(128) # ('x' || lpad(to_hex(1::bigint << ((id * 3) % 60)), 16, '0') || repeat('0', 16))::bit(128))::fp128
FROM t WHERE id % 300 = 0 AND id < 100000;
DELETE FROM t WHERE id % 7 = 3;
VACUUM t;
SQL
compare "after inserts, deletes and VACUUM on 18"

# ---- 2. a dump of a 15 database restored into 18 ----
node_start old
sql old postgres -c "CREATE DATABASE src" >/dev/null || fail "CREATE DATABASE src"
sql old src >/dev/null <<'SQL' || fail "the 15 database"
CREATE EXTENSION ndd;
CREATE TABLE docs (id bigserial PRIMARY KEY, body text,
	fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED, f128 fp128, cluster_id bigint);
CREATE INDEX docs_fp ON docs USING ndd (fp);
CREATE INDEX docs_f128 ON docs USING ndd (f128) WITH (k = 4);
CREATE TRIGGER label BEFORE INSERT ON docs FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
-- 2,000 documents, every 10th a copy of an earlier one with one word changed (a near-duplicate)
INSERT INTO docs (body, f128)
SELECT CASE WHEN g % 10 = 0 THEN b || ' changed' ELSE b END, ('x' || md5(b))::bit(128)::fp128
FROM (SELECT g, (SELECT string_agg(md5(((CASE WHEN g % 10 = 0 THEN g - 7 ELSE g END) * 31 + w)::text), ' ')
	FROM generate_series(1, 40) w) AS b FROM generate_series(1, 2000) g) s
ORDER BY g;
SELECT ndd_df_collect('all', 'SELECT id, body FROM docs');
SELECT ndd_df_collect('first', 'SELECT id, body FROM docs WHERE id <= 500');
SQL
# 18's pg_dump, as PostgreSQL's upgrade documentation advises; Debian's 15 stamps columns with an
# attribute option that 18 does not know: those lines go (see the header)
"$bin18/pg_dump" -h "$dir" -p "${node_port[old]}" -U postgres -d src -f "$dir/src.sql" || fail "pg_dump"
stamps=$(grep -c 'SET (pg_attver=' "$dir/src.sql")
sed -i '/SET (pg_attver=/d' "$dir/src.sql"
echo "dumped with 18's pg_dump: $(wc -l <"$dir/src.sql") lines ($stamps pg_attver lines removed)"
sql new postgres -c "CREATE DATABASE dst" >/dev/null || fail "CREATE DATABASE dst"
if ! sql new dst -f "$dir/src.sql" >"$dir/restore.log" 2>&1; then
	tail -20 "$dir/restore.log"
	fail "the dump of 15 does not restore into 18"
fi
state="SELECT md5(string_agg(id || ' ' || body || ' ' || fp || ' ' || f128 || ' ' || coalesce(cluster_id, -1), ',' ORDER BY id)) FROM docs;
SELECT md5(string_agg(name || ' ' || ndocs, ',' ORDER BY name)) FROM ndd_collection;
SELECT md5(string_agg(collection || ' ' || token || ' ' || df, ',' ORDER BY collection, token)) FROM ndd_df;
SELECT count(DISTINCT cluster_id) || ' clusters of ' || count(*) || ' rows, ' || (SELECT count(*) FROM ndd_df) || ' df rows' FROM docs;"
[ "$(sql old src -c "$state")" = "$(sql new dst -c "$state")" ] ||
	fail "rows, labels or document frequencies differ after the restore"
echo "restored into 18: $(sql new dst -c "$state" | tail -1), the same as on 15"
# the restored index answers as a scan does; the trigger labels a new near-duplicate on both alike
probe="SET enable_seqscan = off;
SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE fp <~> (SELECT fp FROM docs WHERE id = 10) <= 6;
SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE f128 <~> (SELECT f128 FROM docs WHERE id = 10) <= 4;
RESET enable_seqscan;
SET enable_indexscan = off; SET enable_bitmapscan = off;
SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE fp <~> (SELECT fp FROM docs WHERE id = 10) <= 6;
SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE f128 <~> (SELECT f128 FROM docs WHERE id = 10) <= 4;
RESET enable_indexscan; RESET enable_bitmapscan;
INSERT INTO docs (body, f128) SELECT body, f128 FROM docs WHERE id = 11 RETURNING cluster_id;
SELECT ndd_index_check('docs_fp') IS NOT NULL AND ndd_index_check('docs_f128') IS NOT NULL;"
p_old=$(sql old src -c "$probe") || fail "queries on 15: $p_old"
p_new=$(sql new dst -c "$probe") || fail "queries on the restored 18 database: $p_new"
mapfile -t a <<<"$p_new"
[ "${a[0]}" = "${a[2]}" ] && [ "${a[1]}" = "${a[3]}" ] || fail "the restored index answers differ from a scan: $p_new"
[ "$p_old" = "$p_new" ] || fail "15 and the restored 18 answer differently: 15: $p_old; 18: $p_new"
echo "restored index answers as a scan (radius 6: ids ${a[0]}); the trigger labels a new copy of row 11 with cluster ${a[4]} on both"
[ "${a[4]}" = "$(sql new dst -c "SELECT cluster_id FROM docs WHERE id = 11")" ] ||
	fail "the trigger did not give a copy of row 11 row 11's cluster"
echo "cross_major: ok"
