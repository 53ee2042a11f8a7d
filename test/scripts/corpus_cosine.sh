#!/usr/bin/env bash
# test/scripts/corpus_cosine.sh: cosine(a, b, k) against the term-frequency cosine computed another
# way, in Python (test/data/ground_truth.py's tokens: str.lower() and runs of isalnum(); shingles
# counted with collections.Counter; the dot product and norms in exact integers), on the shipped
# sample (test/data/sample.jsonl): every ground-truth pair of sample.pairs.k3.tsv and every document
# with the next one, for k = 1, 2 and 3. Fails when any pair differs by more than 1e-12.
# Needs PGHOST/PGPORT/PGUSER/PGDATABASE of a cluster with ndd installed and Debian's python3-psycopg.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
/usr/bin/python3 -c 'import psycopg' 2>/dev/null || { echo "corpus_cosine: python3-psycopg is not installed" >&2; exit 1; }
db=ndd_corpus_cosine_$$
psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" -c "CREATE DATABASE $db" >/dev/null
trap 'psql -X -q -d "${PGDATABASE:-postgres}" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
NDD_DB=$db NDD_ROOT=$root /usr/bin/python3 - <<'PY'
import collections, json, math, os, sys

import psycopg

root = os.environ["NDD_ROOT"]
sys.path.insert(0, os.path.join(root, "test", "data"))
from ground_truth import tokens  # noqa: E402


def counts(toks, k):
    if not toks:
        return collections.Counter()
    if len(toks) < k:
        return collections.Counter([tuple(toks)])
    return collections.Counter(tuple(toks[i:i + k]) for i in range(len(toks) - k + 1))


def reference(ca, cb):
    if not ca and not cb:
        return 1.0
    if not ca or not cb:
        return 0.0
    dot = sum(c * cb[s] for s, c in ca.items() if s in cb)
    na = sum(c * c for c in ca.values())
    nb = sum(c * c for c in cb.values())
    return min(1.0, dot / math.sqrt(na * nb))  # integers: na * nb is exact, one rounding in sqrt


docs = {}
with open(os.path.join(root, "test", "data", "sample.jsonl"), encoding="utf-8") as f:
    for line in f:
        d = json.loads(line)
        docs[d["id"]] = d["text"]
ids = list(docs)
pairs = list(zip(ids, ids[1:]))
with open(os.path.join(root, "test", "data", "sample.pairs.k3.tsv"), encoding="utf-8") as f:
    next(f)
    pairs += [tuple(line.split("\t")[:2]) for line in f]
toks = {i: tokens(t) for i, t in docs.items()}

with psycopg.connect(dbname=os.environ["NDD_DB"], autocommit=True) as c:
    c.execute("CREATE EXTENSION ndd")
    c.execute("CREATE TABLE docs (id text PRIMARY KEY, body text)")
    with c.cursor().copy("COPY docs (id, body) FROM STDIN") as cp:
        for i, t in docs.items():
            cp.write_row((i, t))
    worst, failed, checked, nontrivial = 0.0, 0, 0, 0
    for k in (1, 2, 3):
        got = dict(((a, b), v) for a, b, v in c.execute(
            "SELECT x.id, y.id, cosine(x.body, y.body, %s) FROM unnest(%s::text[], %s::text[]) AS p(a, b) "
            "JOIN docs x ON x.id = p.a JOIN docs y ON y.id = p.b",
            (k, [a for a, _ in pairs], [b for _, b in pairs])).fetchall())
        for a, b in pairs:
            want = reference(counts(toks[a], k), counts(toks[b], k))
            diff = abs(got[(a, b)] - want)
            worst = max(worst, diff)
            checked += 1
            nontrivial += 0.0 < want < 1.0
            if diff > 1e-12:
                failed += 1
                print(f"FAIL k={k} {a} {b}: cosine {got[(a, b)]!r}, Python {want!r}")
    print(f"{checked} pair and k cases ({nontrivial} strictly between 0 and 1), largest difference {worst:.3g}")
    if failed or nontrivial < checked // 2:
        print("FAIL")
        sys.exit(1)
print("PASS")
PY
