# bench/lib.sh: the setup every benchmark shares. A benchmark sources it first thing:
#
#     source "$(dirname "$0")/lib.sh"
#
# It sources scripts/lib.sh (Debian packages, build and install, the throwaway cluster), moves to
# the repository's root, and defines:
#   ndd_bench_cluster [setting=value ...]  installs the extension (not with NDD_NO_INSTALL=1),
#                                          starts a throwaway cluster with these settings and
#                                          stops it when the script exits
#   ndd_bench_machine [text]               prints the line every raw output starts with: cores,
#                                          CPU model and load, then text
#   PSQL                                   psql: no psqlrc, quiet, unaligned, tuples only, stops
#                                          at the first error
#   ndd_bench_server_ms_function           creates bench_server_ms(q, n): median and p95 server time
#   ndd_bench_client_ms Q N SECS CPU       pgbench -M prepared of query Q (:i random in 1..N) on
#                                          CPU for SECS seconds after a 3 s warm-up: prints the
#                                          median and p95 latency in ms
#   ndd_bench_scan_report Q N              runs query Q for :i = 1..N once each and prints "rows
#                                          pages entries": the rows found over all runs, and the
#                                          index pages read and entries checked per query as ndd's
#                                          scans report them
#   ndd_realpages_table PREPARED_DIR       creates the extension and a table pages (set, id, html)
#                                          of the real pages of bench/html_realpages.sh
# A script with more to clean up at exit sets its own trap after ndd_bench_cluster, calling
# ndd_stop_cluster in it.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$NDD_ROOT"

PSQL="psql -X -q -At -v ON_ERROR_STOP=1"

ndd_bench_cluster() {
	ndd_bench_install
	ndd_start_cluster "$@"
	trap ndd_stop_cluster EXIT
}

ndd_bench_machine() {
	echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load: $(cut -d' ' -f1-3 /proc/loadavg)${1:+; $1}"
}

# The client's latency of query q, :i a random number in 1..n: one pgbench client (-M prepared)
# pinned to CPU cpu (pin the server there too: NDD_PGDATA's postmaster, whose new backends inherit
# its affinity), 3 s of warm-up, then secs seconds logged; prints "median p95" in ms.
ndd_bench_client_ms() {
	local q=$1 n=$2 secs=$3 cpu=$4 f d
	f=$(mktemp); printf '\\set i random(1, %d)\n%s;\n' "$n" "$q" >"$f"
	d=$(mktemp -d)
	( cd "$d" && taskset -c "$cpu" pgbench -n -M prepared -f "$f" -T 3 >/dev/null 2>&1 )
	( cd "$d" && taskset -c "$cpu" pgbench -n -M prepared -f "$f" -T "$secs" -l --log-prefix=lat >/dev/null 2>&1 )
	cat "$d"/lat* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.5)+1], a[int(NR*0.95)+1]}'
	rm -rf "$d" "$f"
}

# Runs query q (:i replaced by 1..n) once for each i with client_min_messages = debug2 and prints
# "rows pages entries": the sum of the first column of the answers (a count(*) wrapped around q),
# and the mean index pages read and entries checked (entries whose distance was computed) per
# query, from the DEBUG2 line every ndd scan ends with (nddscan.c, ndd_endscan); "—" for those
# when no scan reported (a build without the report, or a plan without the index).
ndd_bench_scan_report() {
	local q=$1 n=$2 i
	for i in $(seq 1 "$n"); do echo "SELECT count(*) FROM (${q//:i/$i}) s;"; done |
		psql -X -q -At -v ON_ERROR_STOP=1 -c "SET client_min_messages = debug2" -f - 2>&1 |
		awk '/entries checked/ { for (i = 1; i <= NF; i++) { if ($(i+1) == "index") p += $i; if ($(i+1) == "entries") e += $i }; k++ }
			/^[0-9]+$/ { a += $1 }
			END { if (k) printf "%d %.1f %.1f\n", a, p / k, e / k; else printf "%d — —\n", a }'
}

ndd_realpages_table() {
	$PSQL -c "CREATE EXTENSION ndd" -c "CREATE TABLE pages (set text, id text, html text)"
	/usr/bin/python3 - "$1" <<'PY' | $PSQL -c "\copy pages FROM STDIN WITH (FORMAT csv)"
import csv, glob, os, sys
w = csv.writer(sys.stdout)
for s in ("traf", "read"):
    for f in sorted(glob.glob(os.path.join(sys.argv[1], s, "*.html"))):
        w.writerow([s, os.path.basename(f)[:-5], open(f, encoding="utf-8", newline="").read()])
PY
	$PSQL -c "VACUUM ANALYZE pages"
}

# Creates bench_server_ms(q, n) in the bench database: the median and p95 of the server-side
# execution time of query q run n times (EXPLAIN ANALYZE, TIMING OFF: no per-node clock reads), with
# :i in q replaced by the run's number (1..n).
ndd_bench_server_ms_function() {
	$PSQL <<'SQL'
CREATE OR REPLACE FUNCTION bench_server_ms(q text, n int) RETURNS TABLE (med float8, p95 float8)
LANGUAGE plpgsql AS $$
DECLARE plan json; times float8[] := '{}';
BEGIN
	FOR i IN 1..n LOOP
		EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || replace(q, ':i', i::text) INTO plan;
		times := times || (plan->0->>'Execution Time')::float8;
	END LOOP;
	RETURN QUERY SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY t), percentile_disc(0.95) WITHIN GROUP (ORDER BY t)
		FROM unnest(times) t;
END $$;
SQL
}
