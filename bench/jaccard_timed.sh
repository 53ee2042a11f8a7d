# bench/jaccard_timed.sh (sourced by the jaccard benchmarks): timed LABEL SQL runs SQL in a fresh
# session and prints its wall time (s), the backend's CPU time (user + system, less sensitive to a
# loaded machine than the wall time) and its peak resident memory (VmHWM, which also counts the
# shared buffers the session touched and the mapped libraries).
timed() {
	local label=$1 sql=$2
	psql -X -q -d postgres -v ON_ERROR_STOP=1 <<SQL
SELECT pg_backend_pid() AS pid \gset
\setenv NDD_PID :pid
SELECT clock_timestamp() AS t0 \gset
$sql;
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 1) AS secs \gset
\echo $label: :secs s
\! awk '{printf "  backend CPU time: %.1f s\\n", (\$14 + \$15) / 100}' /proc/\$NDD_PID/stat
\! printf '  peak backend memory: '; grep VmHWM /proc/\$NDD_PID/status | tr -s ' '
SQL
}
