#!/usr/bin/env bash
# test/scripts/corpus_jaccard.sh: the exact similarity functions against ground truth computed
# independently in Python, through SQL, for EVERY ground-truth pair: of the sample shipped in
# test/data (always), and of the evaluation corpus when NDD_CORPUS_DIR names it.
#
# Loads each collection into a fresh database and checks,
# per pair and shingle size (k = 4, and 3 where the corpus has it):
#   - token counts: cardinality(ndd_tokens(doc)) = ntok_a, ntok_b;
#   - shingle sets, computed independently in SQL from ndd_tokens (window frames of k tokens):
#     distinct counts = size_a, size_b and the intersection = inter;
#   - jaccard(a, b, k) = inter / (size_a + size_b - inter) exactly, and rounds to the 6-digit truth;
#   - containment(a, b, k) = inter / size_a and containment(b, a, k) = inter / size_b exactly;
#   - word_edit_distance(a, b, 2) = edit_dist where the truth has one (the insert/delete distance),
#     and 1 - edit_dist / (ntok_a + ntok_b) rounds to edit_sim.
# Prints one line per corpus and k, then PASS or FAIL; exits non-zero on any mismatch.
#
# Needs PGHOST/PGPORT/PGUSER/PGDATABASE of a cluster with ndd installed (scripts/test.sh gives
# them). With NDD_CORPUS_DIR, also its corpora: NDD_JACCARD_CORPORA (default "dev/labelled
# labelled-cs dev/legal"; the larger dev/web and dev/man work too, in minutes).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
collections=$root/test/data/sample
if [ -n "${NDD_CORPUS_DIR:-}" ]; then
	[ -d "$NDD_CORPUS_DIR" ] || { echo "FAIL: NDD_CORPUS_DIR is not a directory: $NDD_CORPUS_DIR"; exit 1; }
	for c in ${NDD_JACCARD_CORPORA:-dev/labelled labelled-cs dev/legal}; do collections+=" $NDD_CORPUS_DIR/$c"; done
else
	echo "evaluation corpus not present (set NDD_CORPUS_DIR to add it): checking the shipped sample only"
fi

db=ndd_corpus_jaccard_$$
work=$(mktemp -d /tmp/ndd-corpus-jaccard.XXXXXX)
cleanup() {
	psql -X -q -d "${PGDATABASE:-postgres}" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"

psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" -c "CREATE DATABASE $db" >/dev/null
run() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
run -c "CREATE EXTENSION ndd" -c "
	CREATE TABLE docs (id text PRIMARY KEY, corpus text, source text, path text, body text);
	CREATE TABLE truth (a text, b text, jaccard float8, size_a int, size_b int, inter int,
	                    ntok_a int, ntok_b int, edit_dist int, edit_sim float8, k int, file text);"

for c in $collections; do
	docs=$c.jsonl.gz
	[ -f "$docs" ] || docs=$c.jsonl
	[ -f "$docs" ] || { echo "FAIL: no documents $c.jsonl[.gz]"; exit 1; }
	python3 "$root/test/data/to_copy_tsv.py" "$docs" >"$work/docs.tsv"
	run -c "\\copy docs FROM '$work/docs.tsv'"
	found=0
	for k in 3 4; do
		for f in "$c.pairs.k$k.tsv.gz" "$c.pairs.k$k.tsv"; do
			[ -f "$f" ] || continue
			found=1
			case "$f" in *.gz) gzip -dc <"$f" ;; *) cat "$f" ;; esac >"$work/pairs.tsv"
			run -c "CREATE TEMP TABLE p (a text, b text, jaccard float8, size_a int, size_b int, inter int,
			                             ntok_a int, ntok_b int, edit_dist int, edit_sim float8)" \
				-c "\\copy p FROM '$work/pairs.tsv' WITH (FORMAT csv, DELIMITER E'\\t', HEADER true)" \
				-c "INSERT INTO truth SELECT p.*, $k, '$(basename "$f")' FROM p"
		done
	done
	[ "$found" = 1 ] || { echo "FAIL: no ground truth for $c"; exit 1; }
done

# Shingle sets of every document in a pair, built in SQL from the tokens: the definition, written
# a second time independently of the C++ code. A shingle is the string_agg of a window frame of k
# tokens (a frame offset must be a constant, hence one statement per k); a text of fewer than k
# tokens makes one shingle of all of them.
run -c "CREATE TABLE shingles (id text, k int, shingle text)"
for k in $(run -At -c "SELECT DISTINCT k FROM truth ORDER BY k"); do
	run -c "
	INSERT INTO shingles
	SELECT DISTINCT id, $k, shingle FROM (
		SELECT d.id, u.i, count(*) OVER (PARTITION BY d.id) AS n,
		       string_agg(u.w, ' ') OVER (PARTITION BY d.id ORDER BY u.i
		                                  ROWS BETWEEN CURRENT ROW AND $((k - 1)) FOLLOWING) AS shingle
		FROM docs d
		CROSS JOIN LATERAL unnest(ndd_tokens(d.body)) WITH ORDINALITY AS u(w, i)
		WHERE d.id IN (SELECT a FROM truth WHERE k = $k UNION SELECT b FROM truth WHERE k = $k)) s
	WHERE i <= greatest(n - $k + 1, 1)"
done
run -c "CREATE INDEX ON shingles (id, k); ANALYZE shingles;"

report=$(run -At -F ' ' -c "
	WITH checked AS (
		SELECT t.*, da.body AS body_a, db.body AS body_b,
		       (SELECT count(*) FROM shingles s WHERE s.id = t.a AND s.k = t.k) AS sql_size_a,
		       (SELECT count(*) FROM shingles s WHERE s.id = t.b AND s.k = t.k) AS sql_size_b,
		       (SELECT count(*) FROM shingles s JOIN shingles r ON r.shingle = s.shingle AND r.k = s.k
		        WHERE s.id = t.a AND r.id = t.b AND s.k = t.k) AS sql_inter
		FROM truth t JOIN docs da ON da.id = t.a JOIN docs db ON db.id = t.b),
	verdicts AS (
		SELECT file, k,
		       cardinality(ndd_tokens(body_a)) = ntok_a AND cardinality(ndd_tokens(body_b)) = ntok_b AS tokens_ok,
		       sql_size_a = size_a AND sql_size_b = size_b AND sql_inter = inter AS sets_ok,
		       jaccard(body_a, body_b, k) = inter::float8 / (size_a + size_b - inter)
		           AND abs(jaccard(body_a, body_b, k) - jaccard) <= 0.0000005000001 AS jaccard_ok,
		       containment(body_a, body_b, k) = inter::float8 / size_a
		           AND containment(body_b, body_a, k) = inter::float8 / size_b AS containment_ok,
		       CASE WHEN edit_dist IS NULL THEN NULL
		            ELSE word_edit_distance(body_a, body_b, 2) = edit_dist
		                 AND abs(1 - edit_dist::float8 / (ntok_a + ntok_b) - edit_sim) <= 0.0000005000001 END AS edit_ok
		FROM checked)
	SELECT file, k, count(*),
	       count(*) FILTER (WHERE tokens_ok), count(*) FILTER (WHERE sets_ok),
	       count(*) FILTER (WHERE jaccard_ok), count(*) FILTER (WHERE containment_ok),
	       count(*) FILTER (WHERE edit_ok), count(edit_ok)
	FROM verdicts GROUP BY file, k ORDER BY file, k")

status=0
total=0
while read -r file k n tok sets jac con edit nedit; do
	printf '%-28s k=%s  pairs %6d  tokens %6d  shingle sets %6d  jaccard %6d  containment %6d  edit distance %d/%d\n' \
		"$file" "$k" "$n" "$tok" "$sets" "$jac" "$con" "$edit" "$nedit"
	total=$((total + n))
	if [ "$tok" != "$n" ] || [ "$sets" != "$n" ] || [ "$jac" != "$n" ] || [ "$con" != "$n" ] || [ "$edit" != "$nedit" ]; then
		status=1
	fi
done <<<"$report"

if [ "$total" -eq 0 ]; then
	echo "FAIL: no ground-truth pair was checked"
	exit 1
fi
if [ "$status" -ne 0 ]; then
	echo "FAIL: some of the $total ground-truth pairs disagree (columns count the pairs that agree)"
	exit 1
fi
echo "PASS: all $total ground-truth pairs agree"
