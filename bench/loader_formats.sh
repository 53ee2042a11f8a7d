#!/usr/bin/env bash
# bench/loader_formats.sh: the same document in every format, over many documents (issue 27's target:
# the simhash of the text ndd-load extracts within 3 bits of the plain text's for >= 90 % of the
# documents, word 4-shingle Jaccard >= 0.9 for >= 95 %).
#
# The documents: the first N (default 50, by path) README and text files of Debian's documentation
# in /usr/share/doc (redistributable: each package's own), 300 to 8,000 words, valid UTF-8, no two
# the same. Each is
# read by pandoc as Markdown and written by pandoc as plain text (the reference), HTML, DOCX, ODT and
# EPUB, and by LibreOffice headless from the ODT as PDF, as test/data/loader's fixtures are made.
# ndd-load loads them all; per format, the share of documents whose text is within 3 bits (simhash)
# and at Jaccard >= 0.9 (jaccard, word 4-shingles) of the plain text's, and the furthest ones.
# Against the cluster of the PG* environment with ndd installed (scripts/lib.sh's ndd_start_cluster);
# prints figures, asserts nothing. Skips with a message when pandoc or LibreOffice is missing
# (apt-get install pandoc libreoffice-writer). Usage: bash bench/loader_formats.sh [N]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOAD=$ROOT/loader/ndd-load
N=${1:-50}
for tool in pandoc soffice; do
	command -v "$tool" >/dev/null || { echo "skipped: $tool is missing (apt-get install pandoc libreoffice-writer)"; exit 0; }
done
make -s -C "$ROOT/loader" ndd-load
work=$(mktemp -d /tmp/ndd-bench-formats.XXXXXX)
db=ndd_bench_formats
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; rm -rf "$work"' EXIT
export PGDATABASE=$db
echo "command: bash bench/loader_formats.sh $N"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  commit: $(git -C "$ROOT" rev-parse --short HEAD)  pandoc $(pandoc --version | head -1 | cut -d' ' -f2), $(soffice --version 2>/dev/null | head -1 | cut -d' ' -f1-2)"

mkdir -p "$work/md" "$work/out"
python3 - "$work/md" "$N" <<'PY'
import glob, gzip, os, sys
out, n = sys.argv[1], int(sys.argv[2])
paths = sorted(set(glob.glob("/usr/share/doc/*/README*") + glob.glob("/usr/share/doc/*/*.md") +
                   glob.glob("/usr/share/doc/*/*.txt") + glob.glob("/usr/share/doc/*/*.txt.gz")))
k, seen = 0, set()
for p in paths:
    if k == n:
        break
    if not os.path.isfile(p) or p.endswith((".html", ".pdf", ".Debian", ".Debian.gz")):
        continue
    try:
        raw = gzip.open(p).read() if p.endswith(".gz") else open(p, "rb").read()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        continue
    if not 300 <= len(text.split()) <= 8000 or text in seen:  # one of each (GCC's packages share files)
        continue
    seen.add(text)
    k += 1
    open("%s/d%03d.md" % (out, k), "w", encoding="utf-8").write(text)
    print("d%03d %s" % (k, p))
PY
made=0
for md in "$work"/md/*.md; do
	d=$(basename "$md" .md)
	# a document pandoc cannot read is left out (and says so)
	if pandoc -f markdown -t plain "$md" -o "$work/out/$d.txt" 2>/dev/null &&
		pandoc -f markdown -s --metadata title="$d" "$md" -o "$work/out/$d.html" 2>/dev/null &&
		pandoc -f markdown "$md" -o "$work/out/$d.docx" 2>/dev/null &&
		pandoc -f markdown "$md" -o "$work/out/$d.odt" 2>/dev/null &&
		pandoc -f markdown --metadata title="$d" "$md" -o "$work/out/$d.epub" 2>/dev/null; then
		made=$((made + 1))
	else
		echo "left out: $d (pandoc refused it)"
		rm -f "$work/out/$d".*
	fi
done
(cd "$work/out" && soffice --headless --convert-to pdf ./*.odt >/dev/null 2>&1) || true
echo "documents: $made, files: $(ls "$work/out" | wc -l) (PDF: $(ls "$work/out"/*.pdf 2>/dev/null | wc -l))"

t0=$(date +%s.%N)
"$LOAD" -t docs -q -j "$(nproc)" "$work/out" || echo "ndd-load exit status $?"
echo "ndd-load: $(echo "$(date +%s.%N) - $t0" | bc -l | xargs printf '%.1f') s"
psql -X -q -c "CREATE EXTENSION IF NOT EXISTS ndd"
psql -X -q <<'SQL'
CREATE TABLE pairs AS
WITH d AS (
  SELECT substring(source from '/(d[0-9]+)\.[a-z]+$') AS doc, substring(source from '\.([a-z]+)$') AS ext,
         format, error, coalesce(text, '') AS text
  FROM docs WHERE member IS NULL)
SELECT d.doc, d.ext, d.format, d.error, simhash(d.text) <~> simhash(p.text) AS bits,
       jaccard(d.text, p.text, 4) AS j
FROM d JOIN d p ON p.doc = d.doc AND p.ext = 'txt'
WHERE d.ext <> 'txt';
SQL
echo
echo "per format: documents, simhash within 3 bits of the plain text's (target >= 90 %), word 4-shingle Jaccard >= 0.9 (target >= 95 %), median Jaccard, errors"
psql -X -q -P footer=off -c "
SELECT coalesce(ext, 'all') AS format, count(*) AS documents,
       round(100.0 * count(*) FILTER (WHERE bits <= 3) / count(*), 1) AS \"% within 3 bits\",
       round(100.0 * count(*) FILTER (WHERE j >= 0.9) / count(*), 1) AS \"% Jaccard >= 0.9\",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY j)::numeric, 3) AS \"median Jaccard\",
       count(error) AS errors
FROM pairs GROUP BY ROLLUP (ext) ORDER BY ext NULLS LAST"
echo "the furthest from the plain text, per format (3 each):"
psql -X -q -P footer=off -c "
SELECT ext, doc, bits, round(j::numeric, 3) AS jaccard, left(error, 60) AS error FROM (
  SELECT *, row_number() OVER (PARTITION BY ext ORDER BY j, bits DESC) AS r FROM pairs) s
WHERE r <= 3 ORDER BY ext, r"
