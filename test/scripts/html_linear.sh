#!/usr/bin/env bash
# Script test: the hostile page families of issue 31 take linear time and are cancelled within
# about a second (property test). Each family is generated at scales x1, x4 and x16 (x16 is the
# page of the issue) and at x64 for the cancellation:
#   attributes  one start tag with 12,500 x k attributes (libxml2 compares each with all earlier ones)
#   stray       187,500 x k <b> then 18,750 x k stray </x> (each scans the stack of open elements)
#   restarts    20,000 x k "</" (libxml2 ended the document at each; the parser was restarted)
#   scripts     script elements holding "</div>" and "</b" between paragraphs
#   paragraphs  "<p>a" x 62,500 x k (one block per 4 bytes)
# Every family goes through every HTML function of the extension (those named ndd_html_* taking
# one text, read from the catalog: a new one is tested without a line here).
# Time is the backend's CPU time (utime + stime of /proc/self/stat, so a busy shared machine
# matters less than for wall time), and the checks are generous ratios, not thresholds: a linear
# family takes about 4x from one scale to the next, a quadratic one 16x; the test asks
# t(x16) < 10 t(x4) + 2 s and t(x16) < 40 t(x1) + 2 s. Cancellation: with statement_timeout = 1s,
# the x64 page returns (its answer or 57014) within 10 s of wall time (before: 30 s to minutes).
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -uo pipefail
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
db=ndd_html_linear
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
fail=0

$PSQL -d "$db" <<'SQL' || { echo "setup failed"; exit 1; }
CREATE EXTENSION ndd;
CREATE TABLE hostile (family text, scale int, html text);
ALTER TABLE hostile ALTER html SET STORAGE EXTERNAL;
CREATE FUNCTION cpu_ms() RETURNS bigint LANGUAGE sql AS $$
  SELECT (split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint) * 10
  FROM pg_read_file('/proc/self/stat') s $$;
INSERT INTO hostile
SELECT 'attributes', k,
       (SELECT '<p ' || string_agg('a' || i || '=1 ', '') || '>x' FROM generate_series(1, 12500 * k) i)
FROM unnest(ARRAY[1, 4, 16, 64]) k;
INSERT INTO hostile SELECT 'stray', k, repeat('<b>', 187500 * k) || repeat('</x>', 18750 * k)
FROM unnest(ARRAY[1, 4, 16, 64]) k;
INSERT INTO hostile SELECT 'restarts', k, repeat('</', 20000 * k) FROM unnest(ARRAY[1, 4, 16, 64]) k;
INSERT INTO hostile SELECT 'scripts', k,
       repeat('<div><p>Some text of the page.</p><script>var s = ''<div class="x"></div>''; if (a</b) z();</script>', 3000 * k)
FROM unnest(ARRAY[1, 4, 16, 64]) k;
INSERT INTO hostile SELECT 'paragraphs', k, repeat('<p>a', 62500 * k) FROM unnest(ARRAY[1, 4, 16, 64]) k;
SQL
[ "$(getconf CLK_TCK)" = 100 ] || { echo "skipped: clock ticks are not 1/100 s"; exit 0; }

# CPU milliseconds of one call on one page (a fresh backend each time)
cpu() {
	$PSQL -d "$db" -c "SELECT cpu_ms()" \
		-c "SELECT length($3(html)::text) FROM hostile WHERE family = '$1' AND scale = $2" -c "SELECT cpu_ms()" |
		awk 'NR == 1 {a = $1} NR == 3 {print $1 - a}'
}
fns=$($PSQL -d "$db" <<'SQL'
SELECT p.proname FROM pg_catalog.pg_proc AS p
JOIN pg_catalog.pg_depend AS d ON d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_catalog.pg_extension AS e ON e.oid = d.refobjid AND e.extname = 'ndd'
WHERE p.proname LIKE 'ndd\_html\_%' AND p.pronargs = 1 AND p.proargtypes[0] = 'pg_catalog.text'::pg_catalog.regtype
ORDER BY 1
SQL
)
echo "HTML functions: $(echo $fns)"
[ "$(wc -w <<<"$fns")" -ge 3 ] || { echo "expected at least ndd_html_text, ndd_html_content, ndd_html_meta"; exit 1; }
for fn in $fns; do
for family in attributes stray restarts scripts paragraphs; do
	t1=$(cpu $family 1 "$fn")
	t4=$(cpu $family 4 "$fn")
	t16=$(cpu $family 16 "$fn")
	bytes=$($PSQL -d "$db" -c "SELECT octet_length(html) FROM hostile WHERE family = '$family' AND scale = 16")
	if [ -z "$t1" ] || [ -z "$t4" ] || [ -z "$t16" ]; then
		echo "$fn, $family: a call failed"
		fail=1
		continue
	fi
	# cancellation of the x64 page
	start=$(date +%s%N)
	err=$($PSQL -d "$db" -c "SET statement_timeout = '1s'" \
		-c "SELECT length($fn(html)::text) FROM hostile WHERE family = '$family' AND scale = 64" 2>&1 >/dev/null)
	wall=$((($(date +%s%N) - start) / 1000000))
	echo "$fn, $family: CPU ms x1 $t1, x4 $t4, x16 $t16 ($bytes bytes); x64 under statement_timeout 1s returned after $wall ms${err:+ ($err)}"
	[ "$t16" -lt $((10 * t4 + 2000)) ] && [ "$t16" -lt $((40 * t1 + 2000)) ] ||
		{ echo "$fn, $family: superlinear growth"; fail=1; }
	[ "$wall" -lt 10000 ] || { echo "$fn, $family: not cancelled within 10 s"; fail=1; }
	[ -z "$err" ] || grep -q "canceling statement due to statement timeout" <<<"$err" ||
		{ echo "$family: unexpected error: $err"; fail=1; }
done
done
$PSQL -d "$db" -c "SELECT 1" >/dev/null || { echo "server gone"; fail=1; }
exit $fail
