#!/usr/bin/env python3
"""Exact ground truth for test/data/sample.jsonl, written independently of ndd's C++ (Python 3,
standard library only), in the format of the evaluation corpus:

    python3 test/data/ground_truth.py             rewrites test/data/sample.pairs.k3.tsv and .k4.tsv
    python3 test/data/ground_truth.py --check     exit 1 if the checked-in files differ from a fresh run

Definitions (the README's normalisation):
  tokens    the text lowercased by str.lower(), cut into maximal runs of characters for which
            str.isalnum() holds (underscore and everything else separate)
  shingles  contiguous word k-grams as exact tuples (no hashing); fewer than k tokens make one
            shingle of all of them, no token makes none
  jaccard   |A & B| / |A | B| of the distinct shingle sets
  edit      word insert/delete distance (a substitution costs 2) = ntok_a + ntok_b - 2 * LCS,
            edit_sim = 1 - edit_dist / (ntok_a + ntok_b); only for pairs with jaccard >= 0.8
Every pair with jaccard >= 0.5 is listed, one per line, a < b by id order of the file:
  a b jaccard size_a size_b inter ntok_a ntok_b edit_dist edit_sim
"""
import json
import os
import random
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
WORD = re.compile(r"[^\W_]+")  # \w is isalnum() or "_"; this is isalnum() alone


def tokens(text):
    return WORD.findall(text.lower())


def shingles(toks, k):
    if not toks:
        return set()
    if len(toks) < k:
        return {tuple(toks)}
    return {tuple(toks[i:i + k]) for i in range(len(toks) - k + 1)}


def lcs_length(a, b):
    """Length of a longest common subsequence, bit-parallel over b (Hyyro 2004): O(len(a) * len(b) / w)."""
    if not a or not b:
        return 0
    masks = defaultdict(int)
    for j, w in enumerate(b):
        masks[w] |= 1 << j
    full = (1 << len(b)) - 1
    v = full
    for w in a:
        u = v & masks.get(w, 0)
        v = ((v + u) | (v - u)) & full
    return len(b) - bin(v).count("1")


def lcs_dp(a, b):
    """The plain dynamic program, to check lcs_length."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def self_check():
    rng = random.Random(7)
    for _ in range(300):
        a = [rng.randrange(4) for _ in range(rng.randrange(0, 40))]
        b = [rng.randrange(4) for _ in range(rng.randrange(0, 40))]
        assert lcs_length(a, b) == lcs_dp(a, b), (a, b)


def pairs_for(docs, toks, k):
    sets = [shingles(t, k) for t in toks]
    postings = defaultdict(list)
    for i, s in enumerate(sets):
        for sh in s:
            postings[sh].append(i)
    inter = defaultdict(int)
    for ids in postings.values():
        for x in range(len(ids)):
            for y in range(x + 1, len(ids)):
                inter[(ids[x], ids[y])] += 1
    lines = []
    for (i, j), n in sorted(inter.items()):
        jac = n / (len(sets[i]) + len(sets[j]) - n)
        if jac < 0.5:
            continue
        ed = es = ""
        if jac >= 0.8:
            d = len(toks[i]) + len(toks[j]) - 2 * lcs_length(toks[i], toks[j])
            ed = str(d)
            es = "%.6f" % (1 - d / (len(toks[i]) + len(toks[j])))
        lines.append("\t".join([docs[i]["id"], docs[j]["id"], "%.6f" % jac, str(len(sets[i])), str(len(sets[j])),
                                str(n), str(len(toks[i])), str(len(toks[j])), ed, es]))
    header = "a\tb\tjaccard\tsize_a\tsize_b\tinter\tntok_a\tntok_b\tedit_dist\tedit_sim"
    return "\n".join([header] + lines) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    self_check()
    with open(os.path.join(HERE, "sample.jsonl"), encoding="utf-8") as f:
        docs = [json.loads(line) for line in f if line.strip()]
    toks = [tokens(d["text"]) for d in docs]
    status = 0
    for k in (3, 4):
        out = pairs_for(docs, toks, k)
        path = os.path.join(HERE, f"sample.pairs.k{k}.tsv")
        if check:
            with open(path, encoding="utf-8") as f:
                same = f.read() == out
            print(f"{os.path.basename(path)}: {'matches' if same else 'DIFFERS from'} a fresh computation")
            status |= not same
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(out)
            print(f"{os.path.basename(path)}: {out.count(chr(10)) - 1} pairs", file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
