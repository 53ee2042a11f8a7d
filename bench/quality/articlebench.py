#!/usr/bin/env python3
"""The 181-page article extraction benchmark that issue 29's figures come from, scored with its own
metric.

scrapinghub/article-extraction-benchmark (MIT; the pages remain their publishers'): 181 real news
and blog pages, gzipped, with a hand-made `articleBody` for each in ground-truth.json, and the
published outputs of the extractors the issue's table names (trafilatura, Readability.js,
readability-lxml, boilerpipe, jusText). Its evaluate.py scores token 4-shingle precision and recall
per page and averages them over the pages; this script imports that file and calls its functions,
so the figures are the benchmark's own.

  articlebench.py prepare SRC DATA
      SRC: a checkout of the benchmark (bench/html_realpages.sh clones it at a pinned commit).
      Writes DATA/pages/<id>.html (UTF-8 as the benchmark reads them, NULs dropped: a PostgreSQL
      text value cannot hold them), DATA/truth/<id>.txt (the hand-made articleBody) and copies
      evaluate.py, ground-truth.json and the published outputs.
  articlebench.py score DATA NAME=DIR [NAME=DIR...] [--tool DRIVER] [--worst N]
      Each DIR holds <id>.content.txt and the driver's pages.tsv (bench/html_extract.cpp). Prints
      F1 / precision / recall over all pages and over each half (pages sorted by id: the first 90,
      the last 91; a change is kept only when it moves both), beside the published peers; with
      --tool, simhash(content, 4) within 3 bits of simhash(articleBody, 4) and the median distance
      (the truth hashed by the same driver, `html_extract -s`), and the pages whose content is the
      whole text (fallbacks); with --worst N, the N pages of lowest F1 of the first NAME.
"""
import glob
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys

PEERS = ["trafilatura", "readability_js", "readability", "boilerpipe", "justext"]


def prepare(src, data):
    os.makedirs(os.path.join(data, "pages"), exist_ok=True)
    os.makedirs(os.path.join(data, "truth"), exist_ok=True)
    os.makedirs(os.path.join(data, "output"), exist_ok=True)
    for f in ("evaluate.py", "ground-truth.json", "LICENSE"):
        shutil.copy(os.path.join(src, f), data)
    for p in PEERS:
        shutil.copy(os.path.join(src, "output", p + ".json"), os.path.join(data, "output"))
    truth = json.load(open(os.path.join(src, "ground-truth.json"), encoding="utf-8"))
    for key, item in truth.items():
        with gzip.open(os.path.join(src, "html", key + ".html.gz")) as f:
            html = f.read().decode("utf-8", errors="replace").replace("\0", "")
        with open(os.path.join(data, "pages", key + ".html"), "w", encoding="utf-8") as f:
            f.write(html)
        with open(os.path.join(data, "truth", key + ".txt"), "w", encoding="utf-8") as f:
            f.write(item.get("articleBody", ""))
    print(f"prepared {len(truth)} pages in {data}", file=sys.stderr)


def simhashes(tool, files):
    out = subprocess.run([tool, "-s", *files], check=True, capture_output=True, text=True).stdout
    return {line.split("\t")[0]: int(line.split("\t")[1], 16) for line in out.splitlines()}


def score(data, specs, tool, worst):
    sys.path.insert(0, data)
    import evaluate as ev  # the benchmark's own metric

    truth = json.load(open(os.path.join(data, "ground-truth.json"), encoding="utf-8"))
    keys = sorted(truth)
    halves = {"first half": keys[:90], "second half": keys[90:]}

    def figures(pred):
        per = {k: ev.string_shingle_matching(true=truth[k].get("articleBody", ""), pred=pred[k].get("articleBody", "")) for k in keys}
        cols = [ev.metrics_from_tp_fp_fns([per[k] for k in keys])]
        cols += [ev.metrics_from_tp_fp_fns([per[k] for k in half]) for half in halves.values()]
        return per, "  ".join(f"{m['f1']:.3f} {m['precision']:.3f} {m['recall']:.3f}" for m in cols)

    print(f"{'':<24} {'all: F1 P R':<20} {'first 90: F1 P R':<20} {'last 91: F1 P R':<20} {'<= 3 bits':<10} median fallbacks")
    truth_hash = simhashes(tool, [os.path.join(data, "truth", k + ".txt") for k in keys]) if tool else {}
    first = None
    for spec in specs:
        name, d = spec.split("=", 1)
        pred = {k: {"articleBody": open(os.path.join(d, k + ".content.txt"), encoding="utf-8").read()} for k in keys}
        per, line = figures(pred)
        extra = ""
        if tool:
            rows = {r.split("\t")[0]: r.rstrip("\n").split("\t") for r in open(os.path.join(d, "pages.tsv"), encoding="utf-8")}
            dist = [bin(int(rows[k][4], 16) ^ truth_hash[k]).count("1") for k in keys]
            near = sum(x <= 3 for x in dist)
            fallbacks = sum(rows[k][7] == "1" for k in keys)
            extra = f"{near / len(keys):>8.1%}   {statistics.median(dist):>4}  {fallbacks:>5}"
        print(f"{name:<24} {line}  {extra}")
        if first is None:
            first = (name, per)
    for peer in PEERS:
        path = os.path.join(data, "output", peer + ".json")
        if os.path.exists(path):
            pred, version = ev.load_prediction(__import__("pathlib").Path(path))
            print(f"{(peer + ' ' + version + ' (published)')[:24]:<24} {figures(pred)[1]}")
    if worst and first:
        name, per = first
        print(f"## the {worst} pages of lowest F1 ({name}): F1 P R, characters of truth / content, id, url")
        rows = []
        for k in keys:
            tp, fp, fn = per[k]
            p, r = ev.precision_score(tp, fp, fn), ev.recall_score(tp, fp, fn)
            rows.append((2 * p * r / (p + r) if p + r else 0.0, p, r, k))
        d = specs[0].split("=", 1)[1]
        for f1, p, r, k in sorted(rows)[:worst]:
            n = len(open(os.path.join(d, k + ".content.txt"), encoding="utf-8").read())
            print(f"{f1:.2f} {p:.2f} {r:.2f} {len(truth[k].get('articleBody', '')):6d} {n:6d} {k[:12]} {truth[k].get('url', '')[:80]}")


def main():
    if sys.argv[1:2] == ["prepare"] and len(sys.argv) == 4:
        prepare(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["score"] and len(sys.argv) >= 4:
        args = sys.argv[3:]
        tool = worst = None
        if "--tool" in args:
            i = args.index("--tool")
            tool = args[i + 1]
            del args[i:i + 2]
        if "--worst" in args:
            i = args.index("--worst")
            worst = int(args[i + 1])
            del args[i:i + 2]
        score(sys.argv[2], args, tool, worst)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
