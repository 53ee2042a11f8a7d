#!/usr/bin/env python3
"""bench/jaccard_synth.py N SEED < corpus.jsonl(.gz...) > docs.tsv, planted.tsv written beside.

A synthetic collection from real text for ndd_jaccard_pairs at scale: the corpus texts (read from
the .jsonl.gz files given as arguments after N and SEED) are cut into ~1 KB pieces of 170 words;
N/2 pieces are bases and each base gets one copy with a known share of its words replaced by other
corpus words (rates cycle through 1, 2, 5, 10 and 20 %). Writes "id<TAB>body" lines to stdout and
the planted pairs "base<TAB>copy<TAB>rate" to the file named by $PLANTED.
"""
import gzip
import json
import os
import random
import sys

n = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]))
pieces, vocab = [], []
for path in sys.argv[3:]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            words = json.loads(line)["text"].split()
            vocab.extend(words[:200])
            for i in range(0, len(words) - 170, 170):
                pieces.append(words[i:i + 170])
rates = [0.01, 0.02, 0.05, 0.10, 0.20]
out = sys.stdout
with open(os.environ["PLANTED"], "w") as planted:
    for b in range(n // 2):
        words = pieces[b % len(pieces)]
        if b >= len(pieces):  # more bases than pieces: make the reuse a different text
            words = [rng.choice(vocab) if rng.random() < 0.5 else w for w in words]
        rate = rates[b % len(rates)]
        copy = [rng.choice(vocab) if rng.random() < rate else w for w in words]
        clean = lambda ws: " ".join(ws).replace("\\", " ").replace("\t", " ").replace("\n", " ")
        out.write("%d\t%s\n" % (2 * b, clean(words)))
        out.write("%d\t%s\n" % (2 * b + 1, clean(copy)))
        planted.write("%d\t%d\t%s\n" % (2 * b, 2 * b + 1, rate))
