#!/usr/bin/env bash
# Script test: the per-value text functions keep their memory within work_mem on huge texts, give
# the same answers as the in-memory comparison, and can be cancelled (issue 8, point 5).
#   1. jaccard and containment of two ~25 MB texts (about 1.7M word shingles each) at work_mem = 2MB
#      equal the in-memory comparison (work_mem = 2GB), and the backend's peak resident memory
#      (VmHWM of /proc/self/status, read in the same session) grows by less than twice the inputs
#      (the detoasted copy plus the shared buffers the TOAST fetch touches) plus NDD_MEMORY_SLACK_MB
#      (default 48 MB). The old code held 16 bytes per shingle and a copy of each token stream in
#      C++ heap memory: about six times the inputs, above the bound;
#      ndd_filter of one of them keeps within the same bound (0.1's SQL body: ten times the text);
#   2. on small texts with repeats, Unicode, fewer tokens than the shingle size and empty texts, the
#      spilling comparison (work_mem = 64kB) equals a reference computed in SQL from ndd_tokens();
#   3. statement_timeout cancels word_edit_distance on two huge texts (O(n*m) time).
# The bounds are on memory and on answers, never on time.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -uo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
SLACK_MB=${NDD_MEMORY_SLACK_MB:-48}
db=ndd_huge_text
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT

# Two texts of real words (PostgreSQL's function names, pseudo-randomly ordered) sharing half of
# their words in the same order, so they share about a third of their shingles.
$PSQL -d "$db" <<'SQL' || exit 1
CREATE EXTENSION ndd;
CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql AS
  $$ SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint $$;
CREATE TABLE vocab AS
  SELECT row_number() OVER (ORDER BY w) AS i, w FROM (SELECT DISTINCT proname::text AS w FROM pg_proc) s;
CREATE TABLE docs (name text PRIMARY KEY, body text);
ALTER TABLE docs ALTER body SET STORAGE EXTERNAL;
INSERT INTO docs SELECT 'a', string_agg(v.w, ' ' ORDER BY g)
  FROM generate_series(1, 1750000) g JOIN vocab v ON v.i = 1 + abs(hashint4(g)) % (SELECT count(*) FROM vocab);
INSERT INTO docs SELECT 'b', string_agg(v.w, ' ' ORDER BY g)
  FROM generate_series(875000, 2625000) g JOIN vocab v ON v.i = 1 + abs(hashint4(g)) % (SELECT count(*) FROM vocab);
SQL

fail=0
# Runs expr over docs a and b in a fresh session at work_mem $1; prints "<result> <peak growth kB>".
measure() {
	$PSQL -d "$db" -F ' ' <<SQL
SET work_mem = '$1';
SELECT peak_kb() AS before \gset
SELECT ($2), peak_kb() - :before FROM docs a, docs b WHERE a.name = 'a' AND b.name = 'b';
SQL
}
inputs_kb=$($PSQL -d "$db" -c "SELECT sum(octet_length(body)) / 1024 FROM docs") || exit 1
bound_kb=$((2 * inputs_kb + SLACK_MB * 1024))
check() {
	local what=$1 expr=$2 got grown want grown_in_memory
	read -r want grown_in_memory < <(measure 2GB "$expr") || { echo "FAIL: $what in memory: the query failed"; fail=1; return; }
	read -r got grown < <(measure 2MB "$expr") || { echo "FAIL: $what at 2MB: the query failed"; fail=1; return; }
	echo "$what: $got at work_mem 2MB, $want in memory; peak grew by $((grown / 1024)) MB" \
		"(bound $((bound_kb / 1024)) MB: twice the $((inputs_kb / 1024)) MB of input + $SLACK_MB MB;" \
		"$((${grown_in_memory:-0} / 1024)) MB in memory at 2GB)"
	[ -n "$got" ] && [ "$got" = "$want" ] || { echo "FAIL: $what gave $got at 2MB, $want in memory"; fail=1; }
	[ "${grown:-$bound_kb}" -lt "$bound_kb" ] || { echo "FAIL: $what grew the backend by $((grown / 1024)) MB"; fail=1; }
}
check "jaccard of two 25 MB texts" "jaccard(a.body, b.body)"
check "containment of two 25 MB texts, shingle 2" "containment(b.body, a.body, 2)"
# ndd_filter reads its tokens one at a time and caches stop words within work_mem (its SQL body
# of 0.1 took about ten times its text)
check "ndd_filter of a 25 MB text, english stop words" "md5(ndd_filter(a.body, true, 'english'))"

# Small texts, spilled (64kB) against SQL sets of shingles built from ndd_tokens().
out=$($PSQL -d "$db" <<'SQL'
CREATE FUNCTION shingles(doc text, k int) RETURNS SETOF text LANGUAGE sql AS $$
  WITH t AS (SELECT u.t, u.i, count(*) OVER () AS n FROM unnest(ndd_tokens(doc)) WITH ORDINALITY AS u(t, i)),
       w AS (SELECT i, n, string_agg(t, ' ') OVER (ORDER BY i ROWS BETWEEN CURRENT ROW AND k - 1 FOLLOWING) AS s
             FROM t)
  SELECT s FROM w WHERE i <= n - k + 1 OR (i = 1 AND n < k) $$;
CREATE FUNCTION ref_overlap(a text, b text, k int, OUT j float8, OUT c float8) LANGUAGE sql AS $$
  WITH sa AS (SELECT DISTINCT s FROM shingles(a, k) s), sb AS (SELECT DISTINCT s FROM shingles(b, k) s),
       n AS (SELECT (SELECT count(*) FROM sa) AS na, (SELECT count(*) FROM sb) AS nb,
                    (SELECT count(*) FROM sa JOIN sb USING (s)) AS ni)
  SELECT CASE WHEN na + nb - ni = 0 THEN 1 ELSE ni::float8 / (na + nb - ni) END,
         CASE WHEN na = 0 THEN 1 ELSE ni::float8 / na END FROM n $$;
CREATE TABLE small (id int, body text);
INSERT INTO small VALUES
  (1, ''), (2, '!!'), (3, 'Two words'), (4, repeat('x y z ', 2000)),
  (5, repeat('ΣΊΣΥΦΟΣ İstanbul δέλτα 42 ', 1000) || 'tail'),
  (6, (SELECT string_agg(w, ' ' ORDER BY i) FROM vocab WHERE i % 3 = 0)),
  (7, (SELECT string_agg(w, ' ' ORDER BY i) FROM vocab WHERE i % 2 = 0)),
  (8, (SELECT string_agg(upper(w), '. ' ORDER BY i) FROM vocab));
SET work_mem = '64kB';
SELECT count(*) FILTER (WHERE r.j IS DISTINCT FROM jaccard(x.body, y.body, k)
                          OR r.c IS DISTINCT FROM containment(x.body, y.body, k)),
       count(*)
FROM small x, small y, (VALUES (1), (2), (4)) AS ks(k), LATERAL ref_overlap(x.body, y.body, k) r;
SQL
) || { echo "FAIL: the small spilled comparisons failed"; fail=1; }
read -r wrong total <<<"${out//|/ }"
echo "small texts at work_mem 64kB: $wrong of $total jaccard/containment pairs differ from the SQL reference"
[ "${wrong:-1}" = 0 ] && [ "${total:-0}" -gt 0 ] || { echo "FAIL: spilled comparisons differ from the reference"; fail=1; }

# word_edit_distance is O(n*m) time: the timeout must end it (with 57014), not let it run for hours.
# (Its memory is bounded by work_mem since issue 20: 2GB lets it start on these texts.)
err=$(timeout 300 psql -X -q -At -d "$db" 2>&1 <<'SQL'
SET work_mem = '2GB';
SET statement_timeout = '3s';
SELECT word_edit_distance(a.body, b.body) FROM docs a, docs b WHERE a.name = 'a' AND b.name = 'b';
SQL
)
status=$?
echo "word_edit_distance of two 25 MB texts under statement_timeout = 3s: ${err:-no error} (exit $status)"
grep -q "canceling statement due to statement timeout" <<<"$err" ||
	{ echo "FAIL: statement_timeout did not cancel word_edit_distance"; fail=1; }

[ $fail = 0 ] && echo "huge_text_bounds: OK"
exit $fail
