#!/usr/bin/env python3
"""Near-duplicate copies of test/data/scripts.jsonl with their ground truth, made without ndd.

Each document gets one copy in which a share `rate` (default 0.02) of its letters of its main
script is substituted: each chosen character is replaced by another character of the same script
drawn from the same document (so a copy stays plausible text). English documents get `rate` of
their words substituted by other words of the document instead (a light edit in English is counted
in words). Random choices are seeded by the document id and the rate, so the output is
reproducible.

Writes OUT.jsonl (id, lang, of, rate, changed, text: one copy per line) and, with --truth, the
ground truth TRUTH.tsv: every pair of the collection (documents and copies) that is a
near-duplicate, `a b why`: a document and its copy (why = copy), and, since some real pages are
translations of the same text (pgrep and pkill share a page), the documents whose texts are at
least 90 % the same characters in order (difflib's ratio, why = same-text) with each other's copies.
Usage: make_scripts_edits.py [--rate R] [--truth TRUTH.tsv] IN.jsonl OUT.jsonl
"""
import argparse
import difflib
import itertools
import json
import random
import re

SCRIPTS = {
    "ja": [(0x3040, 0x30FF), (0x4E00, 0x9FFF)],  # kana, ideographs
    "zh": [(0x4E00, 0x9FFF)],
    "ko": [(0xAC00, 0xD7A3)],  # Hangul syllables
    "th": [(0x0E01, 0x0E5B)],
}


def in_script(c, ranges):
    return any(lo <= ord(c) <= hi for lo, hi in ranges)


def edit_chars(text, ranges, rate, rng):
    chars = list(text)
    positions = [i for i, c in enumerate(chars) if in_script(c, ranges)]
    pool = sorted(set(chars[i] for i in positions))
    n = max(1, round(rate * len(positions)))
    for i in rng.sample(positions, min(n, len(positions))):
        choices = [c for c in pool if c != chars[i]]
        if choices:
            chars[i] = rng.choice(choices)
    return "".join(chars), n


def edit_words(text, rate, rng):
    words = list(re.finditer(r"[A-Za-z]+", text))
    pool = sorted(set(m.group(0) for m in words))
    n = max(1, round(rate * len(words)))
    chosen = sorted(rng.sample(range(len(words)), min(n, len(words))))
    out, last = [], 0
    for k in chosen:
        m = words[k]
        out.append(text[last:m.start()])
        out.append(rng.choice([w for w in pool if w != m.group(0)] or [m.group(0)]))
        last = m.end()
    out.append(text[last:])
    return "".join(out), n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=float, default=0.02)
    ap.add_argument("--truth")
    ap.add_argument("input")
    ap.add_argument("output")
    a = ap.parse_args()
    docs = []
    with open(a.input, encoding="utf-8") as f, open(a.output, "w", encoding="utf-8") as out:
        for line in f:
            d = json.loads(line)
            docs.append(d)
            rng = random.Random(f"{d['id']}/{a.rate}")
            if d["lang"] == "en":
                text, n = edit_words(d["text"], a.rate, rng)
            else:
                text, n = edit_chars(d["text"], SCRIPTS[d["lang"]], a.rate, rng)
            out.write(json.dumps({"id": d["id"] + "~copy", "lang": d["lang"], "of": d["id"], "rate": a.rate,
                                  "changed": n, "text": text}, ensure_ascii=False) + "\n")


    if a.truth:
        write_truth(docs, a.truth)


def write_truth(docs, path):
    pairs = [(d["id"], d["id"] + "~copy", "copy") for d in docs]
    for x, y in itertools.combinations(docs, 2):
        if x["lang"] != y["lang"]:
            continue
        m = difflib.SequenceMatcher(None, x["text"], y["text"], autojunk=False)
        if m.real_quick_ratio() >= 0.9 and m.quick_ratio() >= 0.9 and m.ratio() >= 0.9:
            a, b = x["id"], y["id"]
            for p, q in ((a, b), (a, b + "~copy"), (a + "~copy", b), (a + "~copy", b + "~copy")):
                pairs.append((p, q, "same-text"))
    with open(path, "w", encoding="utf-8") as f:
        f.write("a\tb\twhy\n")
        for p in sorted(pairs):
            f.write("\t".join(p) + "\n")


if __name__ == "__main__":
    main()
