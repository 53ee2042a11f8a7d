#!/usr/bin/env bash
# bench/jaccard_scale.sh: ndd_jaccard_pairs at scale, and the per-document lookup through the band
# keys, on synthetic collections of ~1.2 KB pieces of the dev corpus' text, each with one copy at a
# known word edit rate of 1-20 % (bench/jaccard_synth.cpp, the C++ twin of bench/jaccard_synth.py, seed 1).
#   For each size in NDD_JACCARD_SIZES (default "100000 300000 1000000"):
#     - ndd_jaccard_pairs(t = 0.8) at the default maintenance_work_mem (64MB: the disk path), and,
#       for sizes up to NDD_JACCARD_MEM_MAX (default 300000), at 4GB (in memory): wall time, the
#       backend's CPU time, peak backend memory (VmHWM), the temporary files written, pairs, recall
#       on the planted pairs whose exact jaccard() is >= 0.8, and the two runs' pairs compared;
#     - precision: every reported pair (NDD_JACCARD_CHECK=all, the default) or a sample of 2000
#       (NDD_JACCARD_CHECK=sample) recomputed by jaccard() in SQL, counting those below 0.8 or with
#       another value;
#     - at the largest size, unless NDD_JACCARD_LOOKUP=0: a GIN index on
#       ndd_jaccard_bands(shingle_minhash(body, 4, 128), 0.8) and the lookup "stored documents with
#       J >= 0.8 with this text" for NDD_JACCARD_QUERIES (default 200) random stored texts: median
#       and p95 of the server-side time of each query.
#   NDD_SYNTH_DIR: take synth_N.tsv / planted_N.tsv from there instead of generating them (else
#     the generator's output is streamed into the table, never written to a file).
#   NDD_JACCARD_STREAM=1: no table of documents at all: ndd_jaccard_pairs reads a file_fdw foreign
#     table whose program is the generator, so the documents are generated during the call (on the
#     other core) and the disk holds only the call's temporary files (at 10M the table would be
#     13.5 GB beside them). The checks then run the generator once more, as pairs (base, copy) side
#     by side (its lines come in planted pairs, ids 2b and 2b + 1), keeping the exact jaccard() of
#     every planted pair and the texts of the documents in reported pairs only. Not with the lookup.
#   NDD_JACCARD_GEN=python: the Python generator (bench/jaccard_synth.py) instead of its C++ twin
#     (bench/jaccard_synth.cpp, the default: same bytes, bench/jaccard_synth_check.sh, and about
#     8 times less CPU, so that at 10M the generation is not what the call waits for).
#   NDD_JACCARD_MIN_FREE_GB (default 15): before each size, stop if the free space of the cluster's
#     file system less what the size needs (computed below) would fall under this; during the run a
#     watcher cancels the backends and stops the script if it does fall under it.
#   NDD_NO_INSTALL=1: use the installed extension as it is.
# The table is created and filled in one transaction with COPY FREEZE at wal_level = minimal: no
# WAL for the text, no VACUUM rewriting hint bits. Its text is not compressed: the toaster only
# looks at rows over 2 KB (TOAST_TUPLE_THRESHOLD, which toast_tuple_target does not lower), and
# these are ~1.2 KB.
# The scaling run of issue 30 (1M -> 3M -> 10M, the target: 10M in at most 10 minutes on 2 cores),
# on a quiet machine, with about 50 GB of free disk (15 of them the floor): in stream mode there is
# no table, and the disk path's temporary files (about 33 GB alive at once at 10M) hold 16 bytes per
# distinct shingle of each document plus a 16-byte header (27.8 GB at 10M) and 16 per band key
# (4.3 GB, on disk once, bench/README.md "Disk at 10M" and "10M documents"):
#   NDD_JACCARD_STREAM=1 NDD_JACCARD_SIZES="1000000 3000000 10000000" NDD_JACCARD_MEM_MAX=0 \
#     NDD_JACCARD_LOOKUP=0 NDD_CORPUS_DIR=… bash bench/jaccard_scale.sh 2>&1 | tee -a bench/results/jaccard_scale_10M.txt
set -euo pipefail
source "$(dirname "$0")/lib.sh"
CORPUS=$(ndd_corpus_dir)
stream=${NDD_JACCARD_STREAM:-0}
[ "$stream" = 1 ] && NDD_JACCARD_LOOKUP=0
# log_temp_files = 0: the server log lists every temporary file and its size when it is deleted
ndd_bench_cluster "max_parallel_workers_per_gather=0" "wal_level=minimal" "max_wal_senders=0" "log_temp_files=0"
psql -X -q -d postgres -c "CREATE EXTENSION ndd"
work=$(mktemp -d /tmp/ndd-jaccard-scale.XXXXXX)
chmod 755 "$work"
# the server (user postgres when we are root) writes the planted pairs there in stream mode
[ "$(id -u)" -eq 0 ] && chown postgres: "$work"
if [ "$stream" = 1 ]; then
	psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "CREATE EXTENSION file_fdw" -c "CREATE SERVER synth_gen FOREIGN DATA WRAPPER file_fdw"
fi
ndd_bench_machine
if [ "${NDD_JACCARD_GEN:-cpp}" = python ]; then
	synth="python3 bench/jaccard_synth.py"
else
	bash "$NDD_ROOT/bench/jaccard_synth_build.sh"
	synth="build/jaccard_synth"
fi
echo "generator: $synth"
echo "maintenance_work_mem default: $(psql -X -d postgres -tAc 'SHOW maintenance_work_mem')"

source "$NDD_ROOT/bench/jaccard_timed.sh"

# Free space of the cluster's file system, in GB.
free_gb() { df -P -BG "$NDD_PGDATA" | awk 'NR == 2 { sub("G", "", $4); print $4 }'; }
min_free=${NDD_JACCARD_MIN_FREE_GB:-15}
echo "free disk at the start: $(free_gb) GB (stop under $min_free GB)"
# The watcher: every 5 s, the lowest free space seen and the largest size of the cluster's temporary
# files (printed per size), and below min_free the backends are cancelled and the script stopped.
watch_file=$work/min_free
tmp_peak_file=$work/tmp_peak
(
	while sleep 5; do
		f=$(free_gb)
		[ ! -s "$watch_file" ] || [ "$f" -lt "$(cat "$watch_file")" ] && echo "$f" > "$watch_file"
		# (du fails when a file goes while it counts: not an error here)
		t=$(du -sb "$NDD_PGDATA/base/pgsql_tmp" 2>/dev/null | cut -f1) || true
		t=${t:-0}
		[ ! -s "$tmp_peak_file" ] || [ "$t" -gt "$(cat "$tmp_peak_file")" ] && echo "$t" > "$tmp_peak_file"
		if [ "$f" -lt "$min_free" ]; then
			echo "ABORT: $f GB free, under $min_free GB: cancelling the run" >&2
			psql -X -q -d postgres -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()" >/dev/null
			kill -TERM $$
			exit 1
		fi
	done
) &
watcher=$!
trap 'kill $watcher 2>/dev/null || true; ndd_stop_cluster; rm -rf "$work"' EXIT

sizes=${NDD_JACCARD_SIZES:-100000 300000 1000000}
largest=$(echo $sizes | tr ' ' '\n' | sort -n | tail -1)
for size in $sizes; do
	echo "== $size documents"
	psql -X -q -d postgres -c "DROP TABLE IF EXISTS synth, planted, disk08, mem08, scan" -c "DROP FOREIGN TABLE IF EXISTS synth_stream, synth_pairs"
	# What this size needs at most, measured at 1M and 3M: a 1.35 KB table row (not in stream mode)
	# and 3.5 KB of temporary files alive at once per document (the shingle sets 2.8 KB, the
	# entries 0.43 KB, a chunk of them and the candidates).
	row=1350
	[ "$stream" = 1 ] && row=0
	need=$(( (size * (row + 3500) + (1 << 30) - 1) >> 30 ))
	echo "free disk: $(free_gb) GB, this size needs at most about $need GB"
	if [ $(( $(free_gb) - need )) -lt "$min_free" ]; then
		echo "ABORT: $size documents would leave less than $min_free GB free"
		break
	fi
	rm -f "$watch_file" "$tmp_peak_file"
	gen="cd '$NDD_ROOT' && PLANTED='$work/planted.tsv' $synth $size 1 $CORPUS/dev/*.jsonl.gz"
	create="BEGIN; CREATE TABLE synth (id bigint, body text);
		CREATE TABLE planted (a bigint, b bigint, rate float8);"
	t0=$(date +%s)
	if [ "$stream" = 1 ]; then
		psql -X -q -d postgres -v ON_ERROR_STOP=1 \
			-c "CREATE FOREIGN TABLE synth_stream (id bigint, body text) SERVER synth_gen OPTIONS (program \$\$$gen\$\$)" \
			-c "CREATE FOREIGN TABLE synth_pairs (a bigint, ba text, b bigint, bb text) SERVER synth_gen OPTIONS (program \$\$$gen | paste - -\$\$)" \

		docs="SELECT id, body FROM synth_stream"
		echo "  documents generated during the call (file_fdw, program $synth $size 1 …), no table"
	elif [ -n "${NDD_SYNTH_DIR:-}" ]; then
		psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "$create" \
			-c "\\copy synth FROM '$NDD_SYNTH_DIR/synth_$size.tsv' WITH (FREEZE)" \
			-c "\\copy planted FROM '$NDD_SYNTH_DIR/planted_$size.tsv' WITH (FREEZE)" -c "COMMIT"
	else
		(cd "$NDD_ROOT" && PLANTED="$work/planted.tsv" $synth "$size" 1 "$CORPUS"/dev/*.jsonl.gz) |
			psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "$create" -c "\\copy synth FROM pstdin WITH (FREEZE)" \
				-c "\\copy planted FROM '$work/planted.tsv' WITH (FREEZE)" -c "COMMIT"
		rm -f "$work/planted.tsv"
	fi
	if [ "$stream" != 1 ]; then
		docs="SELECT id, body FROM synth"
		psql -X -q -d postgres -c "ANALYZE synth"
		psql -X -q -d postgres -tAc "SELECT count(*) || ' documents, ' || pg_size_pretty(sum(octet_length(body))) || ' of text, table '
		  || pg_size_pretty(pg_table_size('synth')) || ', generated and loaded in $(( $(date +%s) - t0 )) s' FROM synth"
	fi
	log_before=$(wc -l < "$NDD_PGLOG")
	temp_before=$(psql -X -d postgres -tAc "SELECT temp_bytes FROM pg_stat_database WHERE datname = 'postgres'")
	timed "  ndd_jaccard_pairs(t = 0.8), default maintenance_work_mem (disk)" \
		"SET maintenance_work_mem = '64MB'; CREATE TABLE disk08 AS SELECT * FROM ndd_jaccard_pairs('$docs', 0.8)"
	sleep 1  # the statistics of the ended session
	psql -X -d postgres -tAc "SELECT '  temporary files written: ' || pg_size_pretty(temp_bytes - $temp_before) FROM pg_stat_database WHERE datname = 'postgres'"
	echo "  lowest free disk during the call: $(cat "$watch_file" 2>/dev/null || echo '?') GB"
	# the temporary files of the call, from the server log (log_temp_files = 0): a BufFile is files
	# of 1 GB at most, and only the shingle sets' file grows past a sort's chunk to whole gigabytes
	tail -n +"$((log_before + 1))" "$NDD_PGLOG" | grep -o 'temporary file: path "[^"]*", size [0-9]*' |
		awk '{ s = $NF; t += s; c++; if (s == 2^30) g++; else if (s > big) big = s }
			END { printf "  temporary files of the call (server log): %d files, %.2f GB, %d of them 1 GB segments (the shingle sets), the largest other %.0f MB\n",
				c, t / 2^30, g, big / 2^20 }'
	echo "  largest size of the temporary files at once (du every 5 s): $(numfmt --to=iec "$(cat "$tmp_peak_file" 2>/dev/null || echo 0)")B"
	# the answer's size and fingerprint (every pair and value, in order), to compare runs and branches
	psql -X -q -d postgres -tAc "SELECT '  pairs: ' || count(*) || ', md5 (a, b, jaccard ordered by a, b) ' || md5(string_agg(a || ' ' || b || ' ' || jaccard, E'\\n' ORDER BY a, b)) FROM disk08"
	if [ "$size" -le "${NDD_JACCARD_MEM_MAX:-300000}" ]; then
		timed "  ndd_jaccard_pairs(t = 0.8), maintenance_work_mem = 4GB (memory)" \
			"SET maintenance_work_mem = '4GB'; CREATE TABLE mem08 AS SELECT * FROM ndd_jaccard_pairs('$docs', 0.8)"
		psql -X -q -d postgres -tAc "SELECT '  pairs differing between disk and memory: ' || count(*) FROM
		  ((SELECT * FROM disk08 EXCEPT SELECT * FROM mem08) UNION ALL (SELECT * FROM mem08 EXCEPT SELECT * FROM disk08)) d"
	fi
	if [ "$stream" = 1 ]; then
		# one more run of the generator, as planted pairs side by side: the exact jaccard() of each,
		# and the texts of the documents some reported pair names; then synth holds those only
		t0=$(date +%s)
		# (work_mem: the hashed lookup of the needed ids; at the default 4MB the planner scans them
		# again for every pair)
		psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "SET work_mem = '1GB'; CREATE TEMP TABLE needed AS SELECT a AS id FROM disk08 UNION SELECT b FROM disk08;
		  ANALYZE needed;
		  CREATE TABLE scan AS SELECT p.a, p.b, jaccard(p.ba, p.bb) AS j,
		    CASE WHEN p.a IN (SELECT id FROM needed) THEN p.ba END AS ba, CASE WHEN p.b IN (SELECT id FROM needed) THEN p.bb END AS bb
		  FROM synth_pairs p;
		  CREATE TABLE synth AS SELECT a AS id, ba AS body FROM scan WHERE ba IS NOT NULL UNION ALL SELECT b, bb FROM scan WHERE bb IS NOT NULL;
		  CREATE TABLE scan_j AS SELECT a, b, j FROM scan; DROP TABLE scan; ALTER TABLE scan_j RENAME TO scan;"
		psql -X -q -d postgres -tAc "SELECT '  checks: generator run again, ' || count(*) || ' planted pairs, texts of ' || (SELECT count(*) FROM synth)
		  || ' documents kept (' || pg_size_pretty(pg_table_size('synth')) || '), $(( $(date +%s) - t0 )) s' FROM scan"
		truth="SELECT a, b FROM scan WHERE j >= 0.8"
	else
		truth="SELECT p.a, p.b FROM planted p JOIN synth x ON x.id = p.a JOIN synth y ON y.id = p.b
		    WHERE jaccard(x.body, y.body) >= 0.8"
	fi
	psql -X -q -d postgres -tAc "CREATE UNIQUE INDEX ON synth (id); ANALYZE synth;
	  CREATE TEMP TABLE truth AS $truth;
	  SELECT '  pairs found ' || (SELECT count(*) FROM disk08) || '; planted pairs with J >= 0.8: '
	    || (SELECT count(*) FROM truth) || ', found ' || (SELECT count(*) FROM truth JOIN disk08 USING (a, b))
	    || ' (recall ' || round((SELECT count(*) FROM truth JOIN disk08 USING (a, b))::numeric / greatest((SELECT count(*) FROM truth), 1), 4)
	    || ')'"
	if [ "${NDD_JACCARD_CHECK:-all}" = all ]; then checked="SELECT * FROM disk08"; else checked="SELECT * FROM disk08 LIMIT 2000"; fi
	psql -X -q -d postgres -tAc "SELECT '  precision check (${NDD_JACCARD_CHECK:-all}): ' || count(*) || ' reported pairs recomputed by jaccard(), '
	    || count(*) FILTER (WHERE j < 0.8) || ' below 0.8, ' || count(*) FILTER (WHERE j IS DISTINCT FROM s.jaccard) || ' with another value'
	  FROM ($checked) s JOIN synth x ON x.id = s.a JOIN synth y ON y.id = s.b, LATERAL (SELECT jaccard(x.body, y.body) AS j) v"
done
[ "${NDD_JACCARD_LOOKUP:-1}" = 0 ] && { echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; exit 0; }

echo "== lookup through the band-key index at $largest documents"
psql -X -q -d postgres -v ON_ERROR_STOP=1 <<'SQL'
SET maintenance_work_mem = '1GB';
\timing on
ALTER TABLE synth ADD COLUMN bands bigint[];
UPDATE synth SET bands = ndd_jaccard_bands(shingle_minhash(body, 4, 128), 0.8);
CREATE INDEX synth_bands ON synth USING gin (bands);
VACUUM ANALYZE synth;
\timing off
SELECT pg_size_pretty(pg_relation_size('synth_bands')) AS index_size;
EXPLAIN (COSTS OFF) SELECT id FROM synth WHERE bands && ndd_jaccard_bands(shingle_minhash('some text', 4, 128), 0.8)
  AND jaccard(body, 'some text') >= 0.8;
SQL
psql -X -q -d postgres -v ON_ERROR_STOP=1 -v nq="${NDD_JACCARD_QUERIES:-200}" <<'SQL'
SELECT setseed(0.5);
CREATE TEMP TABLE queries AS SELECT body FROM synth ORDER BY random() LIMIT :nq;
CREATE TEMP TABLE times (ms float8, found int);
DO $$
DECLARE q text; t0 timestamptz; n int;
BEGIN
  FOR q IN SELECT body FROM queries LOOP
    t0 := clock_timestamp();
    SELECT count(*) INTO n FROM synth
    WHERE bands && ndd_jaccard_bands(shingle_minhash(q, 4, 128), 0.8) AND jaccard(body, q) >= 0.8;
    INSERT INTO times VALUES (extract(epoch FROM clock_timestamp() - t0) * 1000, n);
  END LOOP;
END $$;
SELECT count(*) AS queries, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS median_ms,
       round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS p95_ms,
       round(max(ms)::numeric, 2) AS max_ms, round(avg(found), 2) AS avg_found FROM times;
SQL
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
