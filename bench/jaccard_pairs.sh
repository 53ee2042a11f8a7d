#!/usr/bin/env bash
# bench/jaccard_pairs.sh: ndd_jaccard_pairs against the README's recipe (supershingles(sketch, 84)
# + ndd_feature_pairs(..., 59, 100000) + jaccard() in SQL), in the same run.
#   1. the dev corpus (NDD_CORPUS_DIR or ../shared/corpus), all sub-corpora in one table: time of
#      each method, and precision/recall at J >= 0.8 and >= 0.9 per sub-corpus with the corpus'
#      tools/eval_pairs.py;
#   (synthetic collections at scale: bench/jaccard_scale.sh)
#   NDD_NO_INSTALL=1   use the installed extension as it is
#   NDD_JACCARD_CORPUS=0   skip part 1
set -euo pipefail
source "$(dirname "$0")/lib.sh"
CORPUS=$(ndd_corpus_dir)
[ -d "$CORPUS/dev" ] || { echo "no corpus at $CORPUS (set NDD_CORPUS_DIR)"; exit 1; }
ndd_bench_cluster "work_mem=256MB" "maintenance_work_mem=4GB" "max_parallel_workers_per_gather=0"
psql -X -q -d postgres -c "CREATE EXTENSION ndd"
work=$(mktemp -d /tmp/ndd-jaccard-bench.XXXXXX)
chmod 755 "$work"
ndd_bench_machine

source "$NDD_ROOT/bench/jaccard_timed.sh"

parts="web man legal labelled"
psql -X -q -d postgres -c "CREATE TABLE corpus_docs (id text PRIMARY KEY, corpus text, source text, path text, body text)"
for p in $parts; do
	python3 "$CORPUS/tools/to_copy_tsv.py" "$CORPUS/dev/$p.jsonl.gz" > "$work/$p.tsv"
	psql -X -q -d postgres -c "\\copy corpus_docs FROM '$work/$p.tsv'"
done
psql -X -q -d postgres -c "ALTER TABLE corpus_docs ADD COLUMN n bigserial; CREATE UNIQUE INDEX ON corpus_docs (n); ANALYZE corpus_docs"
psql -X -q -d postgres -tAc "SELECT count(*) || ' documents, ' || pg_size_pretty(sum(octet_length(body))) FROM corpus_docs"

if [ "${NDD_JACCARD_CORPUS:-1}" = 1 ]; then
echo "== dev corpus, same run"
timed "README recipe (supershingles 84 + ndd_feature_pairs 59 + jaccard >= 0.8)" "
CREATE TABLE recipe AS SELECT p.a, p.b, jaccard(x.body, y.body) AS j
FROM ndd_feature_pairs('SELECT n, supershingles(shingle_minhash(body, 4, 84), 84) FROM corpus_docs', 59, 100000) p
JOIN corpus_docs x ON x.n = p.a JOIN corpus_docs y ON y.n = p.b
WHERE jaccard(x.body, y.body) >= 0.8"
timed "ndd_jaccard_pairs(t = 0.8)" "CREATE TABLE new08 AS SELECT * FROM ndd_jaccard_pairs('SELECT n, body FROM corpus_docs', 0.8)"
timed "ndd_jaccard_pairs(t = 0.9)" "CREATE TABLE new09 AS SELECT * FROM ndd_jaccard_pairs('SELECT n, body FROM corpus_docs', 0.9)"
timed "ndd_containment_pairs(t = 0.9)" "CREATE TABLE cont09 AS SELECT * FROM ndd_containment_pairs('SELECT n, body FROM corpus_docs', 0.9)"
psql -X -q -d postgres -tAc "SELECT 'pairs: recipe ' || (SELECT count(*) FROM recipe) || ', new 0.8 ' || (SELECT count(*) FROM new08)
  || ', new 0.9 ' || (SELECT count(*) FROM new09) || ', containment 0.9 ' || (SELECT count(*) FROM cont09)
  || '; in recipe not new: ' || (SELECT count(*) FROM (SELECT a, b FROM recipe EXCEPT SELECT a, b FROM new08) d)
  || ', in new not recipe: ' || (SELECT count(*) FROM (SELECT a, b FROM new08 EXCEPT SELECT a, b FROM recipe) d)"
for p in $parts; do
	for t in 0.8 0.9; do
		for m in recipe new; do
			src=$m; [ $m = new ] && src=new${t/./}
			psql -X -q -d postgres -tA -F $'\t' -c "SELECT x.id, y.id FROM $src q JOIN corpus_docs x ON x.n = q.a
				JOIN corpus_docs y ON y.n = q.b WHERE x.corpus = '$p' AND y.corpus = '$p' AND q.$([ $m = recipe ] && echo j || echo jaccard) >= $t" > "$work/pred.tsv"
			printf '%s t=%s %-6s ' "$p" "$t" "$m"
			python3 "$CORPUS/tools/eval_pairs.py" --gt "$CORPUS/dev/$p.pairs.k4.tsv.gz" --docs "$CORPUS/dev/$p.jsonl.gz" \
				--pred "$work/pred.tsv" --pos "$t" | grep -iE "precision|recall" | head -2 | tr '\n' ' '
			echo
		done
	done
done

fi

rm -rf "$work"
