#!/usr/bin/env python3
"""Builds test/data/sample.jsonl, the small real corpus shipped with ndd's tests, from the licence
texts in Debian's /usr/share/common-licenses (package base-files). Run once by a maintainer; the output
is checked in, so tests and the demo never depend on what a machine has installed.

    python3 test/data/make_sample.py [/usr/share/common-licenses] > test/data/sample.jsonl

Documents (ids are stable; see test/data/README.md for the licences):
  lic-<name>              each licence text as shipped (real near-duplicates between versions and
                          families: GPL-2 / LGPL-2 / LGPL-2.1, GFDL-1.2 / GFDL-1.3, GPL-3 / LGPL-3 ...)
  par-<name>-<nnn>        the paragraphs of the GPL and LGPL texts of 40 words or more (the same terms
                          reappear, verbatim or reworded, across the versions)
  edit-<name>-<rate>      a licence text with seeded word edits at a known rate (per word: with
                          probability rate, one of substitute / delete / insert, equally likely; new
                          words are drawn from the same text). Rates 0.01, 0.03 and 0.10.
  case-<name>             a licence text upper-cased and re-wrapped at 60 columns: an exact duplicate
                          of lic-<name> once normalised (same tokens), different bytes.
The random generator is seeded per document (random.Random(f"{name}/{rate}")), so the output is the
same on every run of a given Python 3 version; the checked-in file is the reference anyway.
"""
import hashlib
import json
import os
import random
import re
import sys
import textwrap

SRC = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/common-licenses"
# Real files only (GPL, LGPL and GFDL are symlinks to the newest version).
LICENCES = ["Apache-2.0", "Artistic", "BSD", "CC0-1.0", "GFDL-1.2", "GFDL-1.3", "GPL-1", "GPL-2",
            "GPL-3", "LGPL-2", "LGPL-2.1", "LGPL-3", "MPL-1.1", "MPL-2.0"]
PARAGRAPH_SOURCES = ["GPL-1", "GPL-2", "GPL-3", "LGPL-2", "LGPL-2.1", "LGPL-3"]
EDIT_RATES = ["0.01", "0.03", "0.10"]
CASE_COPIES = ["GPL-2", "Apache-2.0", "BSD"]


def doc(id_, source, path, title, text):
    data = text.encode("utf-8")
    return {"id": id_, "corpus": "sample", "source": source, "path": path, "bytes": len(data),
            "sha1": hashlib.sha1(data).hexdigest(), "title": title, "text": text}


def edited(text, rate, rng):
    """Word edits at `rate` per word of the whitespace-separated text (punctuation stays attached)."""
    words = text.split()
    vocab = sorted(set(words))
    out = []
    for w in words:
        if rng.random() < rate:
            op = rng.randrange(3)
            if op == 0:
                out.append(rng.choice(vocab))  # substitute
            elif op == 1:
                continue  # delete
            else:
                out.extend([w, rng.choice(vocab)])  # insert after
        else:
            out.append(w)
    return textwrap.fill(" ".join(out), 72) + "\n"


def main():
    docs = []
    texts = {}
    for name in LICENCES:
        path = os.path.join(SRC, name)
        with open(path, encoding="utf-8") as f:
            texts[name] = f.read()
        docs.append(doc(f"lic-{name}", "common-licenses", path, name, texts[name]))
    for name in PARAGRAPH_SOURCES:
        paragraphs = [p for p in re.split(r"\n\s*\n", texts[name]) if len(p.split()) >= 40]
        for i, p in enumerate(paragraphs, 1):
            docs.append(doc(f"par-{name}-{i:03d}", "common-licenses paragraph", f"{SRC}/{name}#{i}",
                            f"{name} paragraph {i}", p.strip() + "\n"))
    for name in LICENCES:
        for rate in EDIT_RATES:
            rng = random.Random(f"{name}/{rate}")
            docs.append(doc(f"edit-{name}-{rate}", "seeded word edits", f"{SRC}/{name}",
                            f"{name} with word edits at rate {rate}", edited(texts[name], float(rate), rng)))
    for name in CASE_COPIES:
        docs.append(doc(f"case-{name}", "upper-cased and re-wrapped", f"{SRC}/{name}",
                        f"{name} upper-cased", textwrap.fill(" ".join(texts[name].split()).upper(), 60) + "\n"))
    for d in docs:
        sys.stdout.write(json.dumps(d, ensure_ascii=False, sort_keys=False) + "\n")


if __name__ == "__main__":
    main()
