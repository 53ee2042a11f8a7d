#!/usr/bin/env python3
"""bench/quality/run.py: precision and recall of every near-duplicate method of ndd on the dev
corpus, in the manner of Henzinger's and Manku's evaluations.

Loads ../shared/corpus/dev (web pages, man pages, licence texts, labelled strings; NDD_CORPUS_DIR
overrides) into a table, computes each fingerprint once, turns it into the pairs it reports with
ndd_pairs (Hamming fingerprints, k = 0..6 or several k for bitflip_fp) or ndd_feature_pairs
(supershingles, word-list fingerprints, minhash thresholds), and scores them with the corpus'
tools/eval_pairs.py against the exact word-4-shingle Jaccard of every pair, at J >= 0.9 and J >= 0.8.
Each sub-corpus has its own ground truth, so pairs are scored within each and the counts summed
(a pair across sub-corpora, e.g. an LLVM page in web and its man page, is not scored).
Prints one row per method and parameter: precision, recall, certain false positives (J < 0.5) and
seconds (fingerprints + pairs). Then, per method, the recommended setting: the highest recall at
J >= 0.8 among the settings whose precision at J >= 0.8 is at least 0.95.

Connects with the usual PG* environment variables to a database with ndd installed
(bench/quality/run.sh starts a throwaway cluster and sets them). Usage:
  bench/quality/run.py [--only WORD] [--markdown FILE]
"""
import argparse, gzip, json, math, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.environ.get("NDD_CORPUS_DIR") or os.path.join(ROOT, "..", "shared", "corpus")
PARTS = ["web", "man", "legal", "labelled"]


def psql(sql, *extra):
    """Runs sql with psql; returns stdout (unaligned, tuples only). Stops on the first error."""
    r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", *extra],
                       input=sql, text=True, capture_output=True)
    if r.returncode != 0:
        sys.exit("psql failed:\n" + sql[:2000] + "\n" + r.stderr)
    return r.stdout


def have_function(name):
    return psql("SELECT count(*) FROM pg_proc WHERE proname = '%s'" % name).strip() != "0"


def load_corpus(work):
    """Loads corpus_docs(id, corpus, source, path, body, n); returns (ground truth, id list) per part."""
    psql("DROP TABLE IF EXISTS corpus_docs; "
         "CREATE TABLE corpus_docs (id text PRIMARY KEY, corpus text, source text, path text, body text);")
    for part in PARTS:
        tsv = os.path.join(work, part + ".tsv")
        with open(tsv, "w") as out:
            subprocess.run([sys.executable, os.path.join(CORPUS, "tools", "to_copy_tsv.py"),
                            os.path.join(CORPUS, "dev", part + ".jsonl.gz")], stdout=out, check=True)
        psql("\\copy corpus_docs FROM '%s'" % tsv)
    psql("ALTER TABLE corpus_docs ADD COLUMN n bigserial; CREATE UNIQUE INDEX ON corpus_docs (n); "
         "ANALYZE corpus_docs;")
    # The ground truth is per sub-corpus, so each is scored on its own (pairs across sub-corpora
    # are not scored) and the counts are summed.
    parts = []
    for part in PARTS:
        ids = os.path.join(work, part + ".ids.jsonl")
        with open(ids, "w") as out:
            for line in psql("SELECT id FROM corpus_docs WHERE corpus = '%s' ORDER BY n" % part).split("\n"):
                if line:
                    out.write(json.dumps({"id": line}) + "\n")
        parts.append((os.path.join(CORPUS, "dev", part + ".pairs.k4.tsv.gz"), ids))
    return parts


def timed(sql):
    """Seconds the statement takes inside the server."""
    out = psql("SELECT extract(epoch FROM clock_timestamp()) AS t0 \\gset\n" + sql +
               "\nSELECT extract(epoch FROM clock_timestamp()) - :t0;")
    return float(out.strip().split("\n")[-1])


def evaluate(parts, pred, pos):
    """Precision, recall, certain false positives (J < 0.5) and scored pairs, summed over parts."""
    reported = tp = positives = strict = 0
    for gt, ids in parts:
        r = subprocess.run([sys.executable, os.path.join(CORPUS, "tools", "eval_pairs.py"), "--gt", gt,
                            "--docs", ids, "--pred", pred, "--pos", str(pos)],
                           capture_output=True, text=True, check=True)
        j = json.loads(r.stdout)
        reported += j["reported_pairs"]
        tp += j["true_positives"]
        positives += next(v for k, v in j.items() if k.startswith("positives"))
        strict += next(v for k, v in j.items() if k.startswith("strict_false_positives"))
    return (round(tp / reported, 4) if reported else None, round(tp / positives, 4) if positives else None,
            strict, reported)


# Each method: (name, function it needs, fingerprint expression over body, kind, settings, verified).
# kind "hamming": settings are k for ndd_pairs; "features": (min_shared, label) for ndd_feature_pairs.
# verified: settings whose pairs are also filtered by the exact Jaccard (jaccard(a, b) >= 0.8 and
# >= 0.9), the candidate-then-verify pipeline: fingerprints find candidates, exact Jaccard decides.
def methods():
    # one supershingle per minimum: each value tagged with its position, so m shared features are
    # m equal positions and min_shared = ceil(84 t) is the minhash_similarity threshold t itself
    sketch_t = "supershingles(shingle_minhash(body, 4, 84), 84)"
    thresholds = [(math.ceil(t * 84 - 1e-9), "t=%.2f" % t) for t in (0.5, 0.7, 0.8, 0.85, 0.9)]
    return [
        ("simhash words", "simhash", "simhash(body)", "hamming", list(range(0, 7)), [6]),
        ("simhash 2-shingles", "simhash", "simhash(body, 2)", "hamming", list(range(0, 7)), []),
        ("simhash 4-shingles", "simhash", "simhash(body, 4)", "hamming", list(range(0, 7)), []),
        ("simhash tsvector (english)", "simhash", "simhash(to_tsvector('english', body))", "hamming",
         list(range(0, 7)), []),
        ("simhash char 4-grams", "simhash_chars", "simhash_chars(body, 4)", "hamming", list(range(0, 7)), []),
        ("simhash words, numbers and english stop words filtered", "ndd_filter",
         "simhash(ndd_filter(body, true, 'english'))", "hamming", [0, 1, 2, 3], []),
        ("simhash words, low-IDF words filtered (IDF < 2)", "ndd_filter_low_idf",
         "simhash(ndd_filter_low_idf(body, 'quality', 2.0))", "hamming", [0, 1, 2, 3], []),
        ("supershingles 84 hashes / 6 groups", "supershingles",
         "supershingles(shingle_minhash(body, 4, 84), 6)", "features", [(1, "r=1"), (2, "r=2"), (3, "r=3")],
         [(1, "r=1")]),
        ("bitflip_fp", "bitflip_fp", "bitflip_fp(body)", "hamming", [4, 8, 12, 18, 24, 28, 31], []),
        ("word_list_fingerprints 4 lists", "word_list_fingerprints", "word_list_fingerprints(body, 4)",
         "features", [(1, "r=1 (any shared)"), (2, "r=2"), (3, "r=3"), (4, "r=4")], []),
        ("word_list_fingerprints 8 lists", "word_list_fingerprints", "word_list_fingerprints(body, 8)",
         "features", [(2, "r=2"), (4, "r=4"), (6, "r=6")], []),
        ("minhash_similarity (84 hashes)", "minhash_similarity", sketch_t, "features", thresholds,
         [(59, "t=0.70")]),
    ]


def pairs_call(kind, s):
    """The pairs function call for one setting, and the setting's label."""
    if kind == "hamming":
        return "ndd_pairs('SELECT id, fp FROM fp', %d)" % s, "k=%d" % s
    return "ndd_feature_pairs('SELECT id, fp FROM fp', %d, 100000)" % s[0], s[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="run only methods whose name contains this word")
    ap.add_argument("--markdown", help="also write the table to this file")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="ndd-quality.")
    parts = load_corpus(work)
    ndocs = psql("SELECT count(*) || ' documents, ' || round(sum(octet_length(body)) / 1e6, 1) || ' MB' "
                 "FROM corpus_docs").strip()
    rows = []
    header = "| method | setting | P@0.9 | R@0.9 | P@0.8 | R@0.8 | certain FP (J<0.5) | pairs | seconds |"
    print("dev corpus: %s; positives: word 4-shingle Jaccard >= 0.9 / >= 0.8; pairs scored within "
          "each sub-corpus (web, man, legal, labelled), whose ground truth lists every pair" % ndocs)
    print(header)
    print("|---|---|---|---|---|---|---|---|---|")
    psql("SELECT ndd_df_collect('quality', 'SELECT n, body FROM corpus_docs')")
    pred = os.path.join(work, "pred.tsv")

    def score(name, label, seconds, select_pairs):
        psql("\\copy (SELECT x.id, y.id FROM (%s) p JOIN corpus_docs x ON x.n = p.a "
             "JOIN corpus_docs y ON y.n = p.b) TO '%s'" % (select_pairs, pred))
        p9, r9, fp9, npairs = evaluate(parts, pred, 0.9)
        p8, r8, _, _ = evaluate(parts, pred, 0.8)
        row = (name, label, p9, r9, p8, r8, fp9, npairs, seconds)
        rows.append(row)
        print("| %s | %s | %s | %s | %s | %s | %d | %d | %.1f |" % row, flush=True)

    for name, needs, expr, kind, settings, verified in methods():
        if a.only and a.only not in name:
            continue
        if not have_function(needs):
            print("| %s | skipped: function %s is missing | | | | | | | |" % (name, needs))
            continue
        fp_s = timed("DROP TABLE IF EXISTS fp; CREATE TABLE fp AS SELECT n AS id, %s AS fp FROM corpus_docs;"
                     % expr)
        for s in settings:
            call, label = pairs_call(kind, s)
            pairs_s = timed("DROP TABLE IF EXISTS pairs; CREATE TABLE pairs AS SELECT * FROM %s;" % call)
            score(name, label, fp_s + pairs_s, "SELECT a, b FROM pairs")
        for s in verified:
            call, label = pairs_call(kind, s)
            pairs_s = timed("DROP TABLE IF EXISTS pairs; CREATE TABLE pairs AS SELECT * FROM %s;" % call)
            for t in (0.8, 0.9):
                v_s = timed("DROP TABLE IF EXISTS vpairs; CREATE TABLE vpairs AS SELECT p.a, p.b FROM pairs p "
                            "JOIN corpus_docs x ON x.n = p.a JOIN corpus_docs y ON y.n = p.b "
                            "WHERE jaccard(x.body, y.body) >= %s;" % t)
                score(name + ", then exact Jaccard", "%s, J>=%s" % (label, t), fp_s + pairs_s + v_s,
                      "SELECT a, b FROM vpairs")
    print()
    print("Recommended (highest recall at J >= 0.8 with precision >= 0.95 at J >= 0.8):")
    best = {}
    for row in rows:
        if row[4] is not None and row[4] >= 0.95 and (row[0] not in best or row[5] > best[row[0]][5]):
            best[row[0]] = row
    for name in dict.fromkeys(r[0] for r in rows):
        if name in best:
            b = best[name]
            print("  %s: %s  (P@0.8 %.3f, R@0.8 %.3f, P@0.9 %.3f, R@0.9 %.3f)" % (name, b[1], b[4], b[5], b[2], b[3]))
        else:
            print("  %s: no setting reaches precision 0.95 at J >= 0.8" % name)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(header + "\n|---|---|---|---|---|---|---|---|---|\n")
            for row in rows:
                f.write("| %s | %s | %s | %s | %s | %s | %d | %d | %.1f |\n" % row)


if __name__ == "__main__":
    main()
