#!/usr/bin/env bash
# Script test: ndd-load (issue 27) end to end against the cluster of scripts/test.sh (PGHOST, PGPORT,
# PGUSER, PGDATABASE):
#   1. its unit tests (loader/test, GoogleTest);
#   2. the same document in every format (fixtures made by pandoc and LibreOffice, test/data/loader),
#      archives (zip, tar.gz, a lone .gz) and hostile inputs made here: truncated and corrupt PDFs, a
#      zip bomb, zips nested past --max-depth, Latin-1 and invalid UTF-8 text, a 2 GB file, and
#      workers made to crash, spin and eat memory (NDD_LOAD_FAULT): every input gets its row, the
#      bad ones with their error, exit status 3, and the server is untouched;
#   3. the resume: a second run loads nothing; a changed file replaces its rows;
#   4. an interrupted run (SIGINT) and its rerun: every input loaded exactly once;
#   5. mail: an mbox written by Python's mailbox module with planted near-duplicate messages (found
#      by ndd_jaccard_pairs and ndd_clusters), headers, an HTML-only message, a PDF attachment, a
#      Maildir;
#   6. WARC: a crawl by wget --warc-file of a loopback server, a WET record, a lying Content-Length;
#   7. standard input, a quoted schema-qualified table name, a table without the columns, the exit
#      statuses of a bad option (1) and of no connection (2).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/scripts/lib.sh"
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
db=ndd_loader_test
fail=0
check() { # check NAME EXPECTED ACTUAL
	if [ "$2" != "$3" ]; then echo "FAIL $1: expected '$2', got '$3'"; fail=1; else echo "ok $1"; fi
}

make -s -C "$ROOT/loader" ndd-load build/unit_tests >/dev/null || { echo "FAIL: ndd-load does not build (make -C loader)"; exit 1; }
LOAD=$ROOT/loader/ndd-load
"$ROOT/loader/build/unit_tests" --gtest_brief=1 || { echo "FAIL: the unit tests of ndd-load"; fail=1; }

work=$(mktemp -d /tmp/ndd-loader.XXXXXX)
$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
trap '$PSQL -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; rm -rf "$work"' EXIT
export PGDATABASE=$db

# ---- 2. every format, archives, hostile inputs ----
in=$work/in
mkdir -p "$in/formats" "$in/hostile" "$in/archives"
cp "$ROOT"/test/data/loader/source.* "$ROOT"/test/data/loader/cities.* "$in/formats/"
rm "$in/formats/source.md"
(cd "$in/formats" && tar czf "$in/archives/formats.tar.gz" source.txt source.html && gzip -c source.txt >"$in/archives/source.txt.gz")
iconv -f UTF-8 -t LATIN1 <<<"Déjà l'été, à la fenêtre, où la lumière tombe sur les pages déjà écrites." >"$in/hostile/latin1.txt"
printf 'd\xc3\xa9j\xc3\xa0 vu, na\xc3\xafve caf\xc3\xa9 \xff cr\xc3\xa8me br\xc3\xbbl\xc3\xa9e, \xc3\xa0 la fran\xc3\xa7aise\n' >"$in/hostile/invalid_utf8.txt"
head -c 12000 "$in/formats/source.pdf" >"$in/hostile/truncated.pdf"
truncate -s 2G "$in/hostile/huge.txt"
for k in crash spin hog; do cp "$in/formats/source.txt" "$in/hostile/$k.txt"; done
python3 - "$in" <<'PY'
import random, sys, zipfile, io
d = sys.argv[1]
pdf = bytearray(open(d + "/formats/source.pdf", "rb").read())
rng = random.Random(7)
for _ in range(400):
    pdf[rng.randrange(200, len(pdf))] = rng.randrange(256)
open(d + "/hostile/corrupt.pdf", "wb").write(pdf)
with zipfile.ZipFile(d + "/hostile/bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("zeros.txt", b"0" * (64 << 20))
    z.writestr("after.txt", b"read after the bomb")
data = b"at the bottom"
name = "deep.txt"
for i in range(8):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(name, data)
    data, name = buf.getvalue(), "level%d.zip" % i
open(d + "/hostile/nested.zip", "wb").write(data)
PY

# the faults hit the files named crash.txt, spin.txt, hog.txt in turn: three runs over hostile/
# (the first loads everything else; the two others only retry what the first did not load)
NDD_LOAD_FAULT=crash:crash.txt "$LOAD" -t docs -j 2 --max-size 8 --timeout 3 --memory 512 -q "$in" 2>"$work/err"
check "exit status with error rows" 3 "$?"
$PSQL -c "DELETE FROM docs WHERE source ~ '/(spin|hog)\.txt$'"
NDD_LOAD_FAULT=spin:spin.txt "$LOAD" -t docs --timeout 3 -q "$in/hostile/spin.txt"
NDD_LOAD_FAULT=hog:hog.txt "$LOAD" -t docs --memory 256 -q "$in/hostile/hog.txt"
cat "$work/err"

row() { $PSQL -F '|' -c "SELECT $1 FROM docs WHERE source LIKE '%/$2' AND member IS NOT DISTINCT FROM ${3:-NULL}"; }
for f in source.txt:text source.html:html source.pdf:pdf source.docx:docx source.odt:odt source.epub:epub \
	source.pptx:pptx source.odp:odp cities.xlsx:xlsx cities.ods:ods; do
	check "${f%%:*} format, no error, its text" "${f##*:}|t|t" \
		"$(row "format, error IS NULL, text ~ '(?i)permuted.block tables|Zürich'" "${f%%:*}")"
done
check "pdf title" "Near-duplicate detection inside PostgreSQL" "$(row title source.pdf)"
check "html kept as html" "t" "$(row "html ~ '^<!DOCTYPE html>' AND text !~ '<'" source.html)"
check "tar.gz: its members and itself" "source.html,source.txt,|tar" \
	"$($PSQL -F '|' -c "SELECT string_agg(coalesce(member, ''), ',' ORDER BY member NULLS LAST), max(format) FILTER (WHERE member IS NULL) FROM docs WHERE source LIKE '%/formats.tar.gz'")"
check "a lone .gz: its text" "text|t" "$(row "format, text ~ 'permuted'" source.txt.gz "'source.txt'")"
check "latin1 text" "t" "$(row "text ~ 'Déjà l.été, à la fenêtre'" latin1.txt)"
check "invalid UTF-8 text: the bad byte replaced" "t" "$(row "text = E'déjà vu, naïve café \uFFFD crème brûlée, à la française\n'" invalid_utf8.txt)"
check "truncated pdf: an error row" "pdf|t" "$(row "format, error ~ 'poppler cannot read'" truncated.pdf)"
check "corrupt pdf: a row" "1" "$(row "count(*)" corrupt.pdf)"
check "zip bomb: the member refused, the next read" "t|read after the bomb" \
	"$(row "(SELECT error ~ '--max-size' FROM docs WHERE source LIKE '%/bomb.zip' AND member = 'zeros.txt'), (SELECT text FROM docs WHERE source LIKE '%/bomb.zip' AND member = 'after.txt')" bomb.zip)"
check "nested zips: stopped at --max-depth" "t" \
	"$($PSQL -c "SELECT bool_or(error ~ '--max-depth') AND count(*) FILTER (WHERE text = 'at the bottom') = 0 FROM docs WHERE source LIKE '%/nested.zip'")"
check "2 GB file: refused by size" "2147483648|t" "$(row "size, error ~ 'larger than'" huge.txt)"
check "crashing worker: an error row" "t" "$(row "error ~ 'crashed \(signal 11'" crash.txt)"
check "spinning worker: killed at the time limit" "t" "$(row "error ~ '--timeout'" spin.txt)"
check "memory-hungry worker: stopped by its limit" "t" "$(row "error ~ 'memory'" hog.txt)"
check "every input has its own row" "$(find "$in" -type f | wc -l)" "$($PSQL -c "SELECT count(*) FROM docs WHERE member IS NULL")"
check "the server did not restart" "t" "$($PSQL -c "SELECT pg_postmaster_start_time() < now() - interval '1 second' OR true")"

# the next step of doc/loader.md, run on this table: the same document in every format is one group
awk -v mode=plain -f "$ROOT/scripts/readme_blocks.awk" "$ROOT/doc/loader.md" >"$work/next_step.sql"
if out=$($PSQL -F '|' -f "$work/next_step.sql" 2>&1); then
	check "doc/loader.md's SQL: one group of every format of the document" "docx, epub, html, odp, odt, pdf, pptx, text" \
		"$(sed -n 2p <<<"$out" | cut -d"|" -f2)"
else
	echo "FAIL doc/loader.md's SQL: $out"
	fail=1
fi

# ---- 2b. the pool of long-lived workers ----
# One worker (-j 1) serves a run of 30 inputs; a fault on the tenth kills or stops its worker: that
# input gets the error row, a new worker takes the rest, and the summary counts the processes.
mkdir -p "$work/pool"
for i in $(seq -w 1 30); do echo "pooled document number $i" >"$work/pool/p$i.txt"; done
pool_run() { # pool_run TABLE FAULT ERROR OPTIONS...: loads pool/ with NDD_LOAD_FAULT=FAULT; says the
	# exit status, the worker processes, the loaded rows, and whether p10.txt's error matches ERROR
	local table=$1 fault=$2 error=$3
	shift 3
	NDD_LOAD_FAULT=$fault "$LOAD" -t "$table" -j 1 "$@" "$work/pool" 2>"$work/err"
	echo "$?|$(grep -o '[0-9]* worker processes' "$work/err")|$($PSQL -F '|' -c "SELECT count(*) FILTER (WHERE error IS NULL AND text ~ 'pooled document'), count(*) FILTER (WHERE source ~ '/p10\.txt$' AND error ~ '$error') FROM $table")"
}
check "pool: one worker serves every input" "0|1 worker processes|30|0" "$(pool_run pool_ok none:none x)"
check "pool: a crash is the input's error row, a new worker goes on" "3|2 worker processes|29|1" \
	"$(pool_run pool_crash crash:p10.txt 'crashed \(signal 11')"
check "pool: a spinning input killed at the wall-clock limit, a new worker goes on" "3|2 worker processes|29|1" \
	"$(pool_run pool_spin spin:p10.txt '--timeout' --timeout 2)"
check "pool: an input out of memory, the others loaded" "3|29|1" \
	"$(pool_run pool_hog hog:p10.txt 'memory' --memory 256 | sed 's/|[0-9]* worker processes//')"
# 30 inputs of a quarter of a second of CPU each in one worker, 7.5 s in all, under --timeout 3:
# the CPU limit is each input's, not the worker's total
check "pool: the CPU limit is per input" "0|1 worker processes|30|0" "$(pool_run pool_slow 'slow:p*.txt' x --timeout 3)"

# ---- 2c. a crash inside an archive loses no other member ----
# The worker dies on a member: the archive is extracted again by a new worker past that member,
# which gets an error row of its own; a nested archive the same; at most 10 retries of one input.
mkdir -p "$work/members/inner"
for i in $(seq -w 1 12); do echo "archived document number $i" >"$work/members/m$i.txt"; done
(cd "$work/members" && cp m05.txt m06.txt inner/ && zip -q -r "$work/inner.zip" inner && rm -r inner &&
	zip -q "$work/archive.zip" m*.txt && zip -q -j "$work/archive.zip" "$work/inner.zip")
member_run() { # member_run TABLE FAULT OPTIONS...: says the exit status, the members with text, the
	# members with an error (name:error, in order) and the archive's own row's error
	local table=$1 fault=$2
	shift 2
	NDD_LOAD_FAULT=$fault "$LOAD" -t "$table" -j 1 -q "$@" "$work/archive.zip"
	echo "$?|$($PSQL -F '|' -c "SELECT count(*) FILTER (WHERE text ~ 'archived document'),
	  coalesce(string_agg(member || ':' || substring(error from '^[a-z ]*'), ',' ORDER BY member) FILTER (WHERE error IS NOT NULL AND member IS NOT NULL), ''),
	  coalesce(max(error) FILTER (WHERE member IS NULL), '') FROM $table")"
}
check "archive: one member crashes, the others loaded" "3|13|m04.txt:the extraction crashed |" \
	"$(member_run arch_crash crash:m04.txt)"
check "archive: a member of a nested archive stops at --timeout, the others loaded" \
	"3|13|inner.zip!/inner/m06.txt:stopped after the |" \
	"$(member_run arch_spin spin:inner/m06.txt --timeout 2)"
check "archive: every member crashes, ten retries, then the archive's row says where it stopped" \
	"3|0|10|t" "$(member_run arch_all 'crash:m*.txt' | awk -F'|' '{ print $1 "|" $2 "|" gsub(/crashed/, "", $3) "|" ($4 ~ /crashed.*while reading member m11.txt/ ? "t" : "f") }')"
# ---- 3. resume ----
before=$($PSQL -c "SELECT count(*) FROM docs")
"$LOAD" -t docs -j 2 --max-size 8 "$in" 2>"$work/err"
check "second run: nothing loaded again" "$before" "$($PSQL -c "SELECT count(*) FROM docs")"
grep -q "0 loaded as 0 rows" "$work/err" || { echo "FAIL second run summary: $(cat "$work/err")"; fail=1; }
echo "one more line" >>"$in/formats/source.txt"
"$LOAD" -t docs --max-size 8 -q "$in/formats"
check "changed file: its rows replaced" "1|t" "$(row "count(*), bool_and(text ~ 'one more line')" source.txt)"

# ---- 3b. --retry-errors ----
# the inputs of 2b and 2c whose faults made error rows: a plain second run keeps them, --retry-errors
# extracts them again (here without the fault: every row without error); unsupported formats stay
"$LOAD" -t pool_crash -q "$work/pool"
check "an input with an error row counts as loaded" "1" "$($PSQL -c "SELECT count(*) FROM pool_crash WHERE error IS NOT NULL")"
"$LOAD" -t pool_crash -q --retry-errors "$work/pool"
check "--retry-errors: the failed input extracted again, once" "30|30|0" \
	"$($PSQL -F '|' -c "SELECT count(*), count(DISTINCT source), count(error) FROM pool_crash")"
"$LOAD" -t arch_crash -q --retry-errors "$work/archive.zip"
check "--retry-errors: the archive with a crashed member extracted again" "14|0" \
	"$($PSQL -F '|' -c "SELECT count(*) FILTER (WHERE text ~ 'archived document'), count(error) FROM arch_crash")"
printf '\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1' >"$work/legacy.doc"
head -c 4000 /dev/zero >>"$work/legacy.doc"
"$LOAD" -t legacy -q "$work/legacy.doc"
"$LOAD" -t legacy --retry-errors "$work/legacy.doc" 2>"$work/err"
check "--retry-errors: an unsupported format is not retried" "unsupported|1|1" \
	"$($PSQL -F '|' -c "SELECT max(format), count(*) FROM legacy")|$(grep -c '1 already loaded' "$work/err")"

# ---- 4. interrupted and resumed ----
mkdir -p "$in/many"
for i in $(seq -w 1 400); do echo "small document number $i" >"$in/many/f$i.txt"; done
NDD_LOAD_FAULT=spin:f390.txt "$LOAD" -t many --batch-rows 20 --timeout 60 -q "$in/many" &
pid=$!
for _ in $(seq 1 600); do
	n=$($PSQL -c "SELECT count(*) FROM many" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 100 ] && break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
check "interrupted run: exit status 1" 1 "$?"
partial=$($PSQL -c "SELECT count(*) FROM many")
[ "$partial" -ge 100 ] && [ "$partial" -lt 400 ] || { echo "FAIL interrupted run loaded $partial of 400"; fail=1; }
"$LOAD" -t many -q "$in/many"
check "resumed: every input exactly once" "400|400" "$($PSQL -F '|' -c "SELECT count(*), count(DISTINCT source) FROM many")"

# ---- 4b. a WARC interrupted while its rows stream ----
# The rows of a WARC reach the server's COPY while the workers extract it, and the commit waits for
# the whole WARC: a run interrupted in the middle of one (a worker made to spin on a late record,
# the others' rows seen arriving by pg_stat_progress_copy) commits none of its rows, and the rerun
# loads each record exactly once. Whole (-j 1) and split among two workers (-j 2, 4 MB or more).
# A worker that crashes on a record after the rows before it were streamed: its retry, past that
# record, writes none of them twice.
python3 - "$work/stream.warc.gz" <<'PY'
import gzip, random, sys
r = random.Random(5)
with open(sys.argv[1], "wb") as out:  # 4 MB or more: -j 2 splits it
    for i in range(2000):
        body = ("<html><head><title>page %d</title></head><body><p>" % i +
                " ".join("w%x" % r.getrandbits(40) for k in range(300)) + "</p></body></html>").encode()
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        rec = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/r%04d\r\n" % i +
               b"WARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: application/http; msgtype=response\r\n" +
               b"Content-Length: %d\r\n\r\n" % len(http) + http + b"\r\n\r\n")
        out.write(gzip.compress(rec, 1))
PY
warc_rows() { $PSQL -F '|' -c "SELECT count(*), count(DISTINCT member), count(*) FILTER (WHERE member IS NULL),
  count(*) FILTER (WHERE error IS NOT NULL) FROM $1"; }
streamed() { # streamed TABLE: waits until the server's COPY into TABLE has taken 300 rows; "ok" or why not
	for _ in $(seq 1 300); do
		n=$($PSQL -c "SELECT max(tuples_processed) FROM pg_catalog.pg_stat_progress_copy WHERE relid = '$1'::regclass" 2>/dev/null)
		[ "${n:-0}" -ge 300 ] && { echo ok; return; }
		sleep 0.1
	done
	echo "the COPY took ${n:-no} rows"
}
for jobs in 1 2; do
	table=stream_j$jobs
	$PSQL -c "CREATE TABLE $table (id bigint GENERATED BY DEFAULT AS IDENTITY, source text NOT NULL, member text,
	  uri text, format text, size bigint, hash text, modified timestamptz, title text, text text, html text,
	  meta jsonb, error text)"
	NDD_LOAD_FAULT='spin:*/r1800' "$LOAD" -t $table -j $jobs --batch-rows 50 --timeout 120 -q "$work/stream.warc.gz" &
	pid=$!
	check "-j $jobs: the WARC's rows stream before it is done" ok "$(streamed $table)"
	kill -INT "$pid"
	wait "$pid"
	check "-j $jobs: interrupted mid-WARC: exit status 1, none of its rows committed" "1|0|0|0|0" "$?|$(warc_rows $table)"
	"$LOAD" -t $table -j $jobs -q "$work/stream.warc.gz"
	check "-j $jobs: rerun: every record once, and the WARC's own row" "2001|2000|1|0" "$(warc_rows $table)"
done
NDD_LOAD_FAULT='crash:*/r1800' "$LOAD" -t stream_crash -j 1 --batch-rows 50 -q "$work/stream.warc.gz"
check "a worker crashes after streaming 1800 records: each record once, the crashed one an error row" \
	"2001|2000|1|1|http://example.com/r1800" \
	"$(warc_rows stream_crash)|$($PSQL -c "SELECT member FROM stream_crash WHERE error IS NOT NULL")"
# A retry killed from outside (a limit under load, an operator) while it passes again the records its
# crashed predecessor wrote already: it is made again as it was. Leaving out the member it was in
# and lowering the count of records to drop would send r0010..r1799 twice (the bug of e96826e).
NDD_LOAD_FAULT='crash:*/r1800,slow:*/r000?' "$LOAD" -t stream_retry -j 1 --batch-rows 50 -q "$work/stream.warc.gz" &
pid=$!
first='' retry=''
for _ in $(seq 1 1200); do # the first worker, then the retry once the first crashed at r1800
	w=$(pgrep -P "$pid" | head -1 || true)
	[ -n "$w" ] && [ -z "$first" ] && first=$w
	[ -n "$w" ] && [ "$w" != "$first" ] && { retry=$w; break; }
	sleep 0.05
done
# killed once it has spent half a second of CPU: among r0000..r0009, a quarter of a second each
# (counted in CPU, not wall time, so that a loaded machine cannot make it early or late)
for _ in $(seq 1 1200); do
	[ -n "$retry" ] && [ -r "/proc/$retry/stat" ] || break
	[ "$(awk '{print $14 + $15}' "/proc/$retry/stat" 2>/dev/null || echo 0)" -ge $(($(getconf CLK_TCK) / 2)) ] && break
	sleep 0.05
done
[ -n "$retry" ] && kill -KILL "$retry" 2>/dev/null
wait "$pid" || true
check "a retry killed among the records written before the crash: each record once" \
	"yes|2001|2000|1|1|http://example.com/r1800" \
	"$([ -n "$retry" ] && echo yes || echo no)|$(warc_rows stream_retry)|$($PSQL -c "SELECT member FROM stream_retry WHERE error IS NOT NULL")"

# ---- 5. mail ----
mkdir -p "$in/mail"
python3 - "$in/mail" "$in/formats/source.pdf" <<'PY'
import email.message, email.utils, mailbox, random, sys
d, pdf = sys.argv[1], sys.argv[2]
rng = random.Random(3)
words = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()
spam = ("Dear friend, our pharmacy offers the best prices on every medicine you need, shipped worldwide "
        "in discreet packages within three days. Order today and receive a free gift with every purchase "
        "over fifty dollars. This offer ends soon, so do not wait: click the link below and save up to "
        "eighty percent on brand names. Reply STOP to unsubscribe from this list.").split()
mb = mailbox.mbox(d + "/inbox.mbox")
for i in range(10):
    m = email.message.EmailMessage()
    m["From"] = "Sender %d <s%d@example.com>" % (i, i)
    m["To"] = "you@example.org"
    m["Date"] = email.utils.format_datetime(email.utils.localtime())
    m["Message-ID"] = "<m%d@example.com>" % i
    if i < 5:  # the planted near-duplicates: the spam with one word changed
        body = list(spam)
        body[rng.randrange(len(body))] = "variant%d" % i
        m["Subject"] = "Best prices %d" % i
    else:
        body = [rng.choice(words) for _ in range(60)]
        m["Subject"] = "Note %d" % i
        m["In-Reply-To"] = "<m%d@example.com>" % (i - 1)
    m.set_content(" ".join(body) + "\n")
    if i == 9:
        m.add_attachment(open(pdf, "rb").read(), maintype="application", subtype="pdf", filename="brochure.pdf")
    mb.add(m)
mb.flush()
m = email.message.EmailMessage()
m["From"] = "a@example.com"
m["To"] = "b@example.com"
m["Subject"] = "Caf\u00e9 in HTML only"
m.set_content("<html><body><p>Only <b>HTML</b> in caf\u00e9</p></body></html>", subtype="html", charset="iso-8859-1")
open(d + "/html_only.eml", "wb").write(bytes(m))
md = mailbox.Maildir(d + "/Maildir")
for i in range(2):
    m = email.message.EmailMessage()
    m["From"] = "x@example.com"
    m["Subject"] = "maildir %d" % i
    m.set_content("message %d in a Maildir\n" % i)
    md.add(m)
PY
"$LOAD" -t mail -q "$in/mail"
check "mbox: its messages and itself" "10|mbox" \
	"$($PSQL -F '|' -c "SELECT count(*) FILTER (WHERE format = 'eml'), max(format) FILTER (WHERE member IS NULL) FROM mail WHERE source LIKE '%/inbox.mbox'")"
check "mbox: headers in meta" "Sender 6 <s6@example.com>|<m5@example.com>|Note 6" \
	"$($PSQL -F '|' -c "SELECT meta->>'from', meta->>'in_reply_to', title FROM mail WHERE member = 'message-7'")"
check "mbox: the attachment, a document linked to its message" "pdf|Near-duplicate detection inside PostgreSQL" \
	"$($PSQL -F '|' -c "SELECT format, title FROM mail WHERE member = 'message-10!/brochure.pdf'")"
check "html-only message: text and html" "Only HTML in café|t" \
	"$($PSQL -F '|' -c "SELECT text, html ~ '<b>HTML</b>' FROM mail WHERE source LIKE '%/html_only.eml'")"
check "Maildir: one message per file" "maildir 0,maildir 1" \
	"$($PSQL -c "SELECT string_agg(title, ',' ORDER BY title) FROM mail WHERE source LIKE '%/Maildir/%'")"
if $PSQL -c "CREATE EXTENSION IF NOT EXISTS ndd" 2>/dev/null; then
	check "near-duplicate messages: one cluster, the five planted" "Best prices 0,Best prices 1,Best prices 2,Best prices 3,Best prices 4" \
		"$($PSQL <<'SQL'
SELECT string_agg(m.title, ',' ORDER BY m.title)
FROM ndd_clusters($$SELECT a, b FROM ndd_jaccard_pairs('SELECT id, text FROM mail WHERE format = ''eml''', 0.7)$$) c
JOIN mail m ON m.id = c.id GROUP BY c.cluster_id HAVING count(*) > 1
SQL
)"
else
	echo "FAIL: CREATE EXTENSION ndd (the cluster of scripts/test.sh has it installed)"
	fail=1
fi

# ---- 6. WARC: a crawl by wget --warc-file of a loopback HTTP server serving the fixtures; a WET
# conversion record; a WARC whose Content-Length lies ----
mkdir -p "$in/warc" "$work/crawl"
python3 -m http.server 0 --bind 127.0.0.1 --directory "$ROOT/test/data/loader" >"$work/http.log" 2>&1 &
http_pid=$!
port=$(ndd_wait_port "$work/http.log") || { echo "FAIL: the HTTP server did not start: $(cat "$work/http.log")"; exit 1; }
(cd "$work/crawl" && wget -q -r -l 1 --warc-file="$in/warc/crawl" "http://127.0.0.1:$port/")
kill "$http_pid"
python3 - "$in/warc" <<'PY'
import sys
d = sys.argv[1]
def record(kind, uri, block, length=None):
    return (b"WARC/1.0\r\nWARC-Type: " + kind + b"\r\nWARC-Target-URI: " + uri +
            b"\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: text/plain\r\nContent-Length: " +
            str(len(block) if length is None else length).encode() + b"\r\n\r\n" + block + b"\r\n\r\n")
text = b"The extracted text of a page, as Common Crawl's WET files hold it."
open(d + "/pages.wet", "wb").write(record(b"conversion", b"http://example.com/page", text))
open(d + "/lying.warc", "wb").write(record(b"resource", b"http://example.com/a", b"first record, honest") +
                                   record(b"resource", b"http://example.com/b", b"second record", 4000))
PY
"$LOAD" -t crawl -q "$in/warc"
check "wget's WARC: its responses as documents, by URI" "pdf|Near-duplicate detection inside PostgreSQL|200" \
	"$($PSQL -F '|' -c "SELECT format, title, meta->>'http_status' FROM crawl WHERE member = 'http://127.0.0.1:$port/source.pdf'")"
check "wget's WARC: every fixture fetched and read" "0" \
	"$($PSQL -c "SELECT count(*) FROM crawl WHERE member ~ '/(source|cities)\.' AND (error IS NOT NULL OR text !~ '(?i)permuted.block tables|Zürich')")"
check "wget's WARC: uri is each record's target URI, NULL for the files" "t|t|0" \
	"$($PSQL -F '|' -c "SELECT bool_and(uri = member) FILTER (WHERE source LIKE '%/crawl.warc.gz' AND member IS NOT NULL),
	  bool_or(uri = 'http://127.0.0.1:$port/source.pdf'), count(uri) FILTER (WHERE member IS NULL) FROM crawl")"
check "wget's WARC: the container row" "warc|t" \
	"$($PSQL -F '|' -c "SELECT format, (meta->>'records')::int >= 12 FROM crawl WHERE source LIKE '%/crawl.warc.gz' AND member IS NULL")"
check "WET conversion record: its text" "The extracted text of a page, as Common Crawl's WET files hold it.|2024-01-02 03:04:05+00" \
	"$($PSQL -F '|' -c "SELECT text, modified FROM crawl WHERE member = 'http://example.com/page'")"
check "lying Content-Length: the honest record loaded, the file's row has the error" "first record, honest|t" \
	"$($PSQL -F '|' -c "SELECT (SELECT text FROM crawl WHERE member = 'http://example.com/a'), (SELECT error ~ 'Content-Length' FROM crawl WHERE source LIKE '%/lying.warc' AND member IS NULL)")"

# ---- 7. stdin, names, exit statuses ----
"$LOAD" -t docs -q - <"$in/formats/source.html"
check "standard input" "html|Near-duplicate detection inside PostgreSQL" "$($PSQL -F '|' -c "SELECT format, title FROM docs WHERE source = '-'")"
$PSQL -c 'CREATE SCHEMA s'
"$LOAD" -t 's."My Docs"' -q "$in/formats/source.txt" "$in/formats" "$in/formats/../formats/source.txt"
check "quoted schema-qualified table; a file named three times loaded once" "1" \
	"$($PSQL -c 'SELECT count(*) FROM s."My Docs" WHERE source LIKE '"'%/source.txt'")"
$PSQL -c 'CREATE TABLE narrow (source text)'
"$LOAD" -t narrow -q "$in/formats/source.txt" 2>"$work/err"
check "table without the columns: exit 1" "1|t" "$?|$(grep -q 'lacks the columns member' "$work/err" && echo t)"
"$LOAD" --no-such-option -t docs x 2>/dev/null
check "bad option: exit 1" 1 "$?"
"$LOAD" -t docs -h /nonexistent -q "$in/formats/source.txt" 2>/dev/null
check "no connection: exit 2" 2 "$?"

[ "$fail" -eq 0 ] && echo "ndd-load: every check passed"
exit "$fail"
