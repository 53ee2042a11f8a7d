#!/usr/bin/env bash
# ndd_jaccard_pairs streams its pairs: 5,000 identical documents give 12,497,500 pairs (300 MB as
# 24-byte pairs in memory) and the call completes at work_mem = 1MB with every pair counted, the
# backend's peak resident memory staying far below what holding the pairs would take (the result
# tuplestore spills, the core hands out batches of 8,192). Its input is bounded too: beyond
# maintenance_work_mem the call continues on disk with the same pairs. And it is cancellable, in
# memory and on disk: a call that would run for minutes stops at statement_timeout with 57014, and
# the same session then works.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -euo pipefail
db=ndd_jaccard_bounds
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -X -q -d postgres -c "DROP DATABASE IF EXISTS '$db'" >/dev/null 2>&1 || true' EXIT

out=$(psql -X -v ON_ERROR_STOP=1 -d $db -tA <<'SQL'
\set QUIET on
CREATE EXTENSION ndd;
SET work_mem = '1MB';
SELECT count(*) FROM ndd_jaccard_pairs(
  'SELECT g, ''the same short text of a dozen words for every single row here'' FROM generate_series(1, 5000) g', 0.9);
SELECT pg_backend_pid();
SQL
)
count=$(echo "$out" | sed -n 1p)
pid=$(echo "$out" | sed -n 2p)
echo "pairs: $count"
[ "$count" = 12497500 ] || { echo "FAIL: expected 12497500 pairs"; exit 1; }

# peak memory of a backend running the same call (read while the session is still open)
peak=$(psql -X -v ON_ERROR_STOP=1 -d $db -tA <<'SQL'
\set QUIET on
SET work_mem = '1MB';
SELECT pg_backend_pid() AS pid \gset
\setenv NDD_PID :pid
SELECT count(*) FROM ndd_jaccard_pairs(
  'SELECT g, ''the same short text of a dozen words for every single row here'' FROM generate_series(1, 5000) g', 0.9) \g /dev/null
\! awk '/VmHWM/ {print $2}' /proc/$NDD_PID/status
SQL
)
echo "peak backend memory: $peak kB"
[ "$peak" -lt 200000 ] || { echo "FAIL: the pairs were held in memory ($peak kB peak)"; exit 1; }

# beyond maintenance_work_mem, on disk: 20,000 documents of 150 distinct words (about 45 MB of
# shingle sets) complete at maintenance_work_mem = 1MB with the pairs planted (every tenth document
# is a copy of the one before), and the backend's peak stays far below that of the same call in
# memory (VmHWM also counts the mapped libraries and shared buffers, so the two are compared)
run_big() {
	psql -X -v ON_ERROR_STOP=1 -d $db -tA <<SQL
\set QUIET on
SET maintenance_work_mem = '$1';
SELECT pg_backend_pid() AS pid \gset
\setenv NDD_PID :pid
SELECT count(*) FROM ndd_jaccard_pairs(
  'SELECT g, (SELECT string_agg(md5((g - CASE WHEN g % 10 = 0 THEN 1 ELSE 0 END) || ''.'' || i), '' '') FROM generate_series(1, 150) i)
   FROM generate_series(1, 20000) g', 0.9);
\! awk '/VmHWM/ {print \$2}' /proc/\$NDD_PID/status
SQL
}
disk=$(run_big 1MB)
mem=$(run_big 1GB)
echo "on disk: pairs $(echo "$disk" | sed -n 1p), peak $(echo "$disk" | sed -n 2p) kB; in memory: pairs $(echo "$mem" | sed -n 1p), peak $(echo "$mem" | sed -n 2p) kB"
[ "$(echo "$disk" | sed -n 1p)" = 2000 ] && [ "$(echo "$mem" | sed -n 1p)" = 2000 ] || { echo "FAIL: expected 2000 pairs"; exit 1; }
[ $(( $(echo "$disk" | sed -n 2p) + 30000 )) -lt "$(echo "$mem" | sed -n 2p)" ] \
	|| { echo "FAIL: the disk path held about as much as the in-memory one"; exit 1; }

# on disk, nothing is held per document: at maintenance_work_mem = 1MB the backend's peak is about
# the same for 50,000 and 400,000 short distinct documents (before, 28 bytes per document in arrays
# that doubled added 11 MB between the two, a ratio of 1.38; VmHWM also counts the mapped
# libraries, about 25 MB, hence a ratio with a margin rather than a difference)
peak_of() {
	psql -X -v ON_ERROR_STOP=1 -d $db -tA <<SQL
\set QUIET on
SET maintenance_work_mem = '1MB';
SELECT pg_backend_pid() AS pid \gset
\setenv NDD_PID :pid
SELECT count(*) FROM ndd_jaccard_pairs('SELECT g, g || '' x y z'' FROM generate_series(1, $1) g', 0.8) \g /dev/null
\! awk '/VmHWM/ {print \$2}' /proc/\$NDD_PID/status
SQL
}
small=$(peak_of 50000)
large=$(peak_of 400000)
echo "peak backend memory on disk at 1MB: $small kB for 50,000 documents, $large kB for 400,000"
[ $((large * 100)) -lt $((small * 125)) ] \
	|| { echo "FAIL: the disk path's memory grows with the number of documents"; exit 1; }

# on disk, copies of one text: every band key is the same for all of them, so the external sort's
# parts hold equal keys and are split on the documents' numbers (jaccard_extsort.c, several levels
# at 1MB); 1,500 copies give every pair, and none twice
same=$(psql -X -v ON_ERROR_STOP=1 -d $db -tA <<'SQL'
\set QUIET on
SET maintenance_work_mem = '1MB';
SELECT count(*) || ' ' || count(DISTINCT (a, b)) || ' ' || min(jaccard) FROM ndd_jaccard_pairs(
  'SELECT g, (SELECT string_agg(md5(i::text), '' '') FROM generate_series(1, 100) i) FROM generate_series(1, 1500) g', 0.9);
SQL
)
echo "1,500 copies on disk: pairs, distinct pairs, least jaccard: $same"
[ "$same" = "1124250 1124250 1" ] || { echo "FAIL: expected 1124250 distinct pairs of jaccard 1"; exit 1; }

# cancellation
err=$(psql -X -d $db -tA 2>&1 <<'SQL' || true
SET statement_timeout = '1s';
SET maintenance_work_mem = '1GB';   -- room for the input, so only the timeout can stop the call
SELECT count(*) FROM ndd_jaccard_pairs(
  'SELECT g, ''the same short text of a dozen words for every single row here'' FROM generate_series(1, 200000) g', 0.9);
SQL
)
echo "$err" | grep -q "canceling statement due to statement timeout" || { echo "FAIL: not cancelled: $err"; exit 1; }
# and on disk: 20,000 identical texts at 1MB are read and moved to disk in a second or two, then
# make 200 million candidates; the timeout lands in the disk phase (DEBUG1 shows the switch)
err=$(psql -X -d $db -tA 2>&1 <<'SQL' || true
SET statement_timeout = '5s';
SET maintenance_work_mem = '1MB';
SET client_min_messages = debug1;
SELECT count(*) FROM ndd_jaccard_pairs(
  'SELECT g, ''the same short text of a dozen words for every single row here'' FROM generate_series(1, 20000) g', 0.9);
SQL
)
echo "$err" | grep -q "continuing on disk" || { echo "FAIL: the disk path was not taken: $err"; exit 1; }
echo "$err" | grep -q "canceling statement due to statement timeout" || { echo "FAIL: not cancelled on disk: $err"; exit 1; }
psql -X -q -d $db -tAc "SELECT count(*) FROM ndd_jaccard_pairs('SELECT 1, ''a b c d'' UNION ALL SELECT 2, ''a b c d''', 1)" | grep -qx 1 \
	|| { echo "FAIL: server not usable after the cancel"; exit 1; }
echo "ok"
