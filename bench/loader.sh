#!/usr/bin/env bash
# bench/loader.sh: ndd-load's speed and memory (issue 27), each against its reference in the same run:
#   1. WARC.gz to table: ndd-load on a WARC.gz of the demo's web sample (test/data/make_crawl.py's
#      pages as HTTP responses, a gzip member per record) against `zcat pages.copy.gz | psql -c
#      "COPY ..."` of the same payload bytes (the pages' HTML, one row each), into a table as a user
#      makes it and into one with lz4 compression as ndd-load makes its own;
#   2. PDF text: ndd-load on N PDF files against `pdftotext` on the same files (one process each,
#      as a shell loop runs it);
#   3. CPU per file and peak memory (GNU time's maximum resident set size, the main process or a
#      worker, whichever is larger) on many small text files, on a 2 GB WARC.gz read to its end, and
#      on a 2 GB file (refused by size).
# Against the cluster of the PG* environment (e.g. scripts/lib.sh's ndd_start_cluster); prints
# figures, asserts nothing. Options (environment): NDD_BENCH_PDFS (default 300), NDD_BENCH_SMALL
# (default 20000 small files; the issue's million scaled down on a shared machine), NDD_BENCH_JOBS
# (ndd-load's -j on the WARC, default the number of cores: its records are shared among them),
# NDD_BENCH_BEFORE (another ndd-load binary, e.g. an older commit's, timed on the WARC in each round),
# NDD_BENCH_ROUNDS (rounds of the WARC part, default 3; medians printed after them), NDD_BENCH_ONLY=warc
# (the WARC part alone).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOAD=$ROOT/loader/ndd-load
PDFS=${NDD_BENCH_PDFS:-300}
SMALL=${NDD_BENCH_SMALL:-20000}
JOBS=${NDD_BENCH_JOBS:-$(nproc)}
ROUNDS=${NDD_BENCH_ROUNDS:-3}
make -s -C "$ROOT/loader" ndd-load
work=$(mktemp -d /tmp/ndd-bench-loader.XXXXXX)
db=ndd_bench_loader
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; rm -rf "$work"' EXIT
export PGDATABASE=$db
echo "command: bash bench/loader.sh (NDD_BENCH_PDFS=$PDFS NDD_BENCH_SMALL=$SMALL NDD_BENCH_ROUNDS=$ROUNDS${NDD_BENCH_ONLY:+ NDD_BENCH_ONLY=$NDD_BENCH_ONLY})"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  commit: $(git -C "$ROOT" rev-parse --short HEAD)  machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
seconds() { # seconds COMMAND...: wall-clock seconds of COMMAND (its output discarded)
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l | xargs printf '%.2f'
}
ratio() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# ---- 1. WARC.gz against zcat | psql COPY ----
python3 "$ROOT/test/data/make_crawl.py" 2>/dev/null >"$work/crawl.copy"
python3 - "$work/crawl.copy" "$work/web.warc.gz" "$work/pages.copy.gz" <<'PY'
import gzip, re, sys
ESC = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
unescape = lambda s: re.sub(r"\\(.)", lambda m: ESC.get(m.group(1), m.group(1)), s)
warc, copy = open(sys.argv[2], "wb"), gzip.open(sys.argv[3], "wt", encoding="utf-8")
for line in open(sys.argv[1], encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    body = unescape(f[4]).encode("utf-8")
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    rec = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + f[0].encode() +
           b"\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(http) +
           http + b"\r\n\r\n")
    warc.write(gzip.compress(rec))
    copy.write(f[4] + "\n")  # the same payload, as COPY text
PY
# the reference's table as a user makes it (pglz, PostgreSQL's default), and with lz4 as ndd-load
# makes its own where the server has it (doc/loader.md, "The table"): the second is the fair match
psql -X -q -c "CREATE TABLE copied (html text)" -c "CREATE TABLE copied_lz4 (html text COMPRESSION lz4)"
echo "WARC.gz: $(wc -l <"$work/crawl.copy") records, $(du -m "$work/web.warc.gz" | cut -f1) MB compressed; ndd-load -j $JOBS"
all_copy=() all_lz4=() all_load=() all_before=()
for round in $(seq 1 "$ROUNDS"); do
	psql -X -q -c "TRUNCATE copied, copied_lz4" -c "DROP TABLE IF EXISTS warc"
	t_copy=$(seconds bash -c "zcat '$work/pages.copy.gz' | psql -X -q -c 'COPY copied (html) FROM STDIN'")
	t_load=$(seconds "$LOAD" -t warc -j "$JOBS" -q "$work/web.warc.gz")
	t_lz4=$(seconds bash -c "zcat '$work/pages.copy.gz' | psql -X -q -c 'COPY copied_lz4 (html) FROM STDIN'")
	all_copy+=("$t_copy") all_lz4+=("$t_lz4") all_load+=("$t_load")
	echo "round $round: zcat | psql COPY ${t_copy} s (lz4 table: ${t_lz4} s), ndd-load ${t_load} s: ndd-load at $(ratio "$t_copy" "$t_load")x COPY's speed ($(ratio "$t_lz4" "$t_load")x against the lz4 table)"
	if [ -n "${NDD_BENCH_BEFORE:-}" ]; then
		psql -X -q -c "DROP TABLE IF EXISTS warc_before"
		t_before=$(seconds "$NDD_BENCH_BEFORE" -t warc_before -j "$JOBS" -q "$work/web.warc.gz")
		all_before+=("$t_before")
		echo "  the ndd-load before ($NDD_BENCH_BEFORE): ${t_before} s: at $(ratio "$t_copy" "$t_before")x COPY's speed"
	fi
done
m_copy=$(median "${all_copy[@]}") m_lz4=$(median "${all_lz4[@]}") m_load=$(median "${all_load[@]}")
echo "medians of $ROUNDS rounds: COPY $m_copy s (lz4 table: $m_lz4 s), ndd-load $m_load s: ndd-load at $(ratio "$m_copy" "$m_load")x COPY's speed ($(ratio "$m_lz4" "$m_load")x against the lz4 table)"
if [ -n "${NDD_BENCH_BEFORE:-}" ]; then
	m_before=$(median "${all_before[@]}")
	echo "  the ndd-load before: $m_before s: at $(ratio "$m_copy" "$m_before")x COPY's speed"
fi
echo "rows: COPY $(psql -X -At -c 'SELECT count(*) FROM copied'), ndd-load $(psql -X -At -c 'SELECT count(*) FROM warc WHERE uri IS NOT NULL') (+ the file's own row)"
[ "${NDD_BENCH_ONLY:-}" = warc ] && exit 0

# ---- 2. PDF against pdftotext ----
mkdir -p "$work/pdf"
for i in $(seq -w 1 "$PDFS"); do cp "$ROOT/test/data/loader/source.pdf" "$work/pdf/d$i.pdf"; done
for round in 1 2; do
	psql -X -q -c "DROP TABLE IF EXISTS pdfs"
	t_ref=$(seconds bash -c "for f in '$work'/pdf/*.pdf; do pdftotext \"\$f\" - >/dev/null; done")
	t_load=$(seconds "$LOAD" -t pdfs -q "$work/pdf")
	echo "round $round: $PDFS PDFs: pdftotext ${t_ref} s, ndd-load ${t_load} s: ndd-load at $(ratio "$t_ref" "$t_load")x pdftotext's speed"
done

# ---- 3. many small files, a 2 GB file: CPU and peak memory ----
mkdir -p "$work/small"
python3 - "$work/small" "$SMALL" <<'PY'
import random, sys
r = random.Random(1)
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
for i in range(int(sys.argv[2])):
    open("%s/f%06d.txt" % (sys.argv[1], i), "w").write(" ".join(r.choice(words) for _ in range(60)) + "\n")
PY
/usr/bin/time -f "%e s wall, %U s user, %S s system, peak %M kB" "$LOAD" -t small -q "$work/small" 2>"$work/time" || true
echo "$SMALL small files: $(tail -1 "$work/time")"
awk -v n="$SMALL" '{ printf "  CPU per file: %.2f ms\n", ($4 + $7) * 1000 / n }' <(tail -1 "$work/time")
/usr/bin/time -f "%e s wall, %U s user, %S s system, peak %M kB" file "$work"/small/f00* >/dev/null 2>"$work/time.file" || true
echo "  file(1) on the first $(ls "$work"/small/f00* | wc -l) of them: $(tail -1 "$work/time.file")"
# a 2 GB WARC read to its end, record by record (2,048 resource records of 1 MB of zero bytes, a
# gzip member each: 2 MB on disk): what a worker holds is one record, whatever the file's size
python3 - "$work/huge.warc.gz" <<'PY'
import gzip, sys
block = bytes(1 << 20)
with open(sys.argv[1], "wb") as out:
    for i in range(2048):
        head = ("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/zeros/%d\r\n"
                "WARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: application/octet-stream\r\n"
                "Content-Length: %d\r\n\r\n" % (i, len(block))).encode()
        out.write(gzip.compress(head + block + b"\r\n\r\n", 1))
PY
/usr/bin/time -f "%e s wall, %U s user, %S s system, peak %M kB" "$LOAD" -t hugewarc -q -j "$JOBS" "$work/huge.warc.gz" 2>"$work/time" || true
echo "a 2 GB WARC.gz ($(du -m "$work/huge.warc.gz" | cut -f1) MB on disk, 2,048 records of 1 MB, read to its end): $(tail -1 "$work/time"); rows $(psql -X -At -c 'SELECT count(*) FROM hugewarc')"
truncate -s 2G "$work/huge.txt"  # sparse: the size counts, not the disk
/usr/bin/time -f "%e s wall, %U s user, %S s system, peak %M kB" "$LOAD" -t huge -q "$work/huge.txt" 2>"$work/time" || true
echo "a 2 GB file (past --max-size: its row says so, nothing read): $(tail -1 "$work/time")"
