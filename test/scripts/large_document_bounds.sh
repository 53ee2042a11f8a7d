#!/usr/bin/env bash
# Script test (issue 20): one very large document does not take the pair and verification functions
# beyond their memory settings. Two 90 MB documents took ndd_jaccard_pairs to 529 MB and
# ndd_containment_pairs to 593 MB above their start at maintenance_work_mem = 64MB, and ndd_verify
# to 1.6 GB: a document's own working memory was not counted, and ndd_verify read each text once
# per measure. Here two texts of NDD_LARGE_DOC_WORDS words (default 2,000,000, about 30 MB each)
# that differ in a few words:
#   1. at maintenance_work_mem = 16MB, ndd_jaccard_pairs and ndd_containment_pairs either answer or
#      refuse with 53200 naming maintenance_work_mem, and the backend's peak resident memory
#      (VmHWM of /proc/self/status, read in the same session) grows by less than twice the texts
#      (the detoasted copy of one and the shared buffers its fetch touches) plus the setting plus
#      NDD_MEMORY_SLACK_MB (default 48 MB);
#   2. at maintenance_work_mem = 2GB they answer, the pair's measure exactly jaccard() / containment();
#   3. ndd_verify at work_mem = 4MB refuses with 53200 naming work_mem (its word edit distance needs
#      more), within the same kind of bound; at work_mem = 2GB it answers what jaccard(),
#      containment() and word_edit_distance() answer, and its peak stays below the setting and the
#      texts' copies.
# The bounds are on memory and on answers, never on time.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -uo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
SLACK_MB=${NDD_MEMORY_SLACK_MB:-48}
WORDS=${NDD_LARGE_DOC_WORDS:-2000000}
db=ndd_large_document
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT

# Real words (PostgreSQL's function names) in a pseudo-random order; b is a with every 200,000th
# word replaced: near-duplicates, so the word edit distance is small and quick.
$PSQL -d "$db" -v words="$WORDS" <<'SQL' || exit 1
CREATE EXTENSION ndd;
CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql AS
  $$ SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint $$;
CREATE TABLE vocab AS
  SELECT row_number() OVER (ORDER BY w) AS i, w FROM (SELECT DISTINCT proname::text AS w FROM pg_proc) s;
CREATE TABLE docs (id bigint PRIMARY KEY, body text);
ALTER TABLE docs ALTER body SET STORAGE EXTERNAL;
INSERT INTO docs SELECT 1, string_agg(v.w, ' ' ORDER BY g)
  FROM generate_series(1, :words) g JOIN vocab v ON v.i = 1 + abs(hashint4(g)) % (SELECT count(*) FROM vocab);
INSERT INTO docs SELECT 2, string_agg(CASE WHEN g % 200000 = 0 THEN 'changed' ELSE v.w END, ' ' ORDER BY g)
  FROM generate_series(1, :words) g JOIN vocab v ON v.i = 1 + abs(hashint4(g)) % (SELECT count(*) FROM vocab);
SQL
inputs_kb=$($PSQL -d "$db" -c "SELECT sum(octet_length(body)) / 1024 FROM docs") || exit 1
fail=0
# measure SETTINGS QUERY: runs QUERY in a fresh session after SETTINGS; prints "<result> <peak growth
# kB>" or "ERROR <sqlstate> <message> <peak growth kB>" when it fails.
measure() {
	psql -X -q -At -d "$db" -F ' ' -v VERBOSITY=verbose 2>&1 <<SQL | grep -v '^LOCATION\|^HINT\|^DETAIL'
SET client_min_messages = warning;
$1
SELECT peak_kb() AS before \gset
\set ON_ERROR_STOP 0
$2
SELECT 'PEAK', peak_kb() - :before;
SQL
}
# check NAME SETTING_KB SETTINGS QUERY WANT: WANT is the answer, or "53200 setting" for a refusal
# naming that setting
check() {
	local what=$1 setting_kb=$2 settings=$3 query=$4 want=$5 out got grown bound
	out=$(measure "$settings" "$query")
	grown=$(sed -n 's/^PEAK //p' <<<"$out")
	got=$(grep -v '^PEAK ' <<<"$out" | head -1)
	bound=$((2 * inputs_kb + setting_kb + SLACK_MB * 1024))
	echo "$what: ${got:0:160}; peak grew by $((${grown:-0} / 1024)) MB (bound $((bound / 1024)) MB: twice the $((inputs_kb / 1024)) MB of texts + the setting + $SLACK_MB MB)"
	case "$want" in
	53200*)
		grep -q "ERROR:  53200: .*${want#53200 }" <<<"$got" || { echo "FAIL: $what: want a 53200 error naming ${want#53200 }"; fail=1; } ;;
	*)
		[ "$got" = "$want" ] || { echo "FAIL: $what answered $got, want $want"; fail=1; } ;;
	esac
	[ -n "$grown" ] && [ "$grown" -lt "$bound" ] || { echo "FAIL: $what grew the backend by $((${grown:-0} / 1024)) MB"; fail=1; }
}
ref=$($PSQL -d "$db" -c "SET work_mem = '2GB'" -c "SELECT round(jaccard(a.body, b.body)::numeric, 6) || ' ' || round(containment(a.body, b.body)::numeric, 6)
                                                       || ' ' || word_edit_distance(a.body, b.body) FROM docs a, docs b WHERE a.id = 1 AND b.id = 2") || exit 1
read -r ref_j ref_c ref_d <<<"$ref"
echo "reference (jaccard(), containment(), word_edit_distance() at work_mem 2GB): $ref"

for fn in ndd_jaccard_pairs ndd_containment_pairs; do
	check "$fn at maintenance_work_mem 16MB" $((16 * 1024)) "SET maintenance_work_mem = '16MB';" \
		"SELECT count(*) FROM $fn('SELECT id, body FROM docs', 0.5);" "53200 maintenance_work_mem"
	col=$([ $fn = ndd_jaccard_pairs ] && echo jaccard || echo containment)
	want=$([ $fn = ndd_jaccard_pairs ] && echo "1 2 $ref_j" || echo "1 2 $ref_c")
	check "$fn at maintenance_work_mem 2GB" $((2048 * 1024)) "SET maintenance_work_mem = '2GB';" \
		"SELECT a || ' ' || b || ' ' || round($col::numeric, 6) FROM $fn('SELECT id, body FROM docs', 0.5) WHERE a = 1;" "$want"
done
check "ndd_verify at work_mem 4MB" $((4 * 1024)) "SET work_mem = '4MB';" \
	"SELECT count(*) FROM ndd_verify('VALUES (1, 2)', 'SELECT id, body FROM docs');" "53200 work_mem"
check "ndd_verify at work_mem 2GB" $((2048 * 1024)) "SET work_mem = '2GB';" \
	"SELECT round(jaccard::numeric, 6) || ' ' || round(a_in_b::numeric, 6) || ' ' || word_edit_distance FROM ndd_verify('VALUES (1, 2)', 'SELECT id, body FROM docs');" \
	"$ref_j $ref_c $ref_d"

[ $fail = 0 ] && echo "large_document_bounds: OK"
exit $fail
