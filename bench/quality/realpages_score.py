#!/usr/bin/env python3
"""bench/quality/realpages_score.py: scores main-content extractors on the two public development sets
prepared by realpages_prepare.py (Python 3 standard library only).

    python3 realpages_score.py --prepared DIR --tool build/html_extract [--csv-dir DIR] NAME=OUTDIR ...

Each OUTDIR holds, per set (traf/, read/), <id>.content.txt (the extractor's text of page <id>; a
missing file counts as an empty result and as an error) and pages.tsv, one line per page:
`id  html_bytes  cpu_seconds  [...  fallback]` (bench/html_extract's output has fallback in column 8:
1 when ndd's content is its whole text; peers have no such column). An OUTDIR/cpu_mbs file, when
present, gives the CPU MB/s measured as a whole (ndd through SQL: html_realpages.sh).

(a) trafilatura's set, trafilatura's own metric (its tests/evaluate.py and eval_common.py): per page,
    the "with" snippets found in the whitespace-normalized result are true positives, the missing ones
    false negatives, the "without" snippets found false positives, the absent ones true negatives;
    summed over the corpus: precision, recall, accuracy, F1.
(b) Readability's set: token 4-shingle matching against the text of expected.html, as the article
    extraction benchmark of Zyte/Scrapinghub scores (tokens = \\w+ runs; shingles counted with
    multiplicity; per page TP/FP/FN normalized to sum 1 so that long pages do not weigh more; then
    precision, recall, F1 of the sums). expected.html is READABILITY'S OWN OUTPUT, not hand-made
    truth: agreement with it favours extractors that behave like Readability. Also the share of
    pages whose simhash(result, 4) is within 3 bits of simhash(expected text, 4), computed by the ndd
    core itself (`html_extract -s`, the function SQL's simhash(text, 4) calls).

Per-page CSV files (CSV_DIR/<name>.<set>.csv) and a summary table on stdout.
"""
import argparse
import collections
import csv
import json
import os
import re
import statistics
import subprocess
import sys


def norm(text):
    """eval_common.norm: whitespace-normalized, so whitespace variants do not cost recall."""
    return re.sub(r"\s+", " ", text).strip()


TOKEN = re.compile(r"\w+", re.UNICODE)


def shingles(text, n=4):
    tokens = TOKEN.findall(text or "")
    return collections.Counter(" ".join(tokens[i:i + n]) for i in range(max(1, len(tokens) - n + 1))
                               if tokens[i:i + n])


def shingle_match(true, pred):
    """Normalized (tp, fp, fn) of one page's 4-shingles."""
    t, p = shingles(true), shingles(pred)
    tp = fp = fn = 0
    for k in t.keys() | p.keys():
        a, b = t.get(k, 0), p.get(k, 0)
        tp += min(a, b)
        fp += max(0, b - a)
        fn += max(0, a - b)
    s = tp + fp + fn
    return (tp / s, fp / s, fn / s) if s else (0.0, 0.0, 0.0)


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def simhashes(tool, paths):
    """{path: 64-bit int} through `html_extract -s` (the ndd core), in batches."""
    out = {}
    for i in range(0, len(paths), 400):
        batch = paths[i:i + 400]
        res = subprocess.run([tool, "-s", *batch], check=True, capture_output=True, text=True).stdout.splitlines()
        for path, line in zip(batch, res):
            out[path] = int(line.split("\t")[1], 16)
    return out


def read_pages_tsv(path):
    rows = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 3:
                rows[f[0]] = {"bytes": int(f[1]), "cpu": float(f[2]), "fallback": int(f[7]) if len(f) >= 8 else None}
    return rows


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def score_traf(prepared, outdir, csv_path):
    meta = json.load(open(os.path.join(prepared, "traf.json"), encoding="utf-8"))
    pages = read_pages_tsv(os.path.join(outdir, "traf", "pages.tsv"))
    tot = [0, 0, 0, 0]
    errors = fallbacks = 0
    rows = []
    for pid, item in sorted(meta.items()):
        res = read_text(os.path.join(outdir, "traf", pid + ".content.txt"))
        if res is None:
            errors += 1
        resn = norm(res or "")
        tp = sum(1 for w in item["with"] if norm(w) in resn)
        fp = sum(1 for w in item["without"] if norm(w) in resn)
        fn, tn = len(item["with"]) - tp, len(item["without"]) - fp
        for i, v in enumerate((tp, fp, fn, tn)):
            tot[i] += v
        fb = pages.get(pid, {}).get("fallback")
        fallbacks += fb or 0
        missed = [w for w in item["with"] if norm(w) not in resn]
        leaked = [w for w in item["without"] if norm(w) in resn]
        rows.append([pid, item["url"], tp, fp, fn, tn, len(resn), "" if fb is None else fb,
                     " | ".join(m[:60] for m in missed), " | ".join(l[:60] for l in leaked)])
    if csv_path:
        with open(csv_path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["id", "url", "tp", "fp", "fn", "tn", "chars", "fallback", "missed_with", "found_without"])
            w.writerows(rows)
    tp, fp, fn, tn = tot
    p, r, f1 = prf(tp, fp, fn)
    return {"pages": len(meta), "precision": p, "recall": r, "f1": f1, "accuracy": (tp + tn) / sum(tot),
            "errors": errors, "fallbacks": fallbacks if any(v.get("fallback") is not None for v in pages.values()) else None,
            "tsv": pages}


def score_read(prepared, outdir, tool, csv_path):
    ids = sorted(f[: -len(".expected.txt")] for f in os.listdir(os.path.join(prepared, "read")) if f.endswith(".expected.txt"))
    pages = read_pages_tsv(os.path.join(outdir, "read", "pages.tsv"))
    exp_paths = [os.path.join(prepared, "read", i + ".expected.txt") for i in ids]
    res_paths = [os.path.join(outdir, "read", i + ".content.txt") for i in ids]
    present = [p for p in res_paths if os.path.exists(p)]
    sh = simhashes(tool, exp_paths + present)
    sums = [0.0, 0.0, 0.0]
    bits, f1s, rows = [], [], []
    errors = fallbacks = 0
    for pid, ep, rp in zip(ids, exp_paths, res_paths):
        exp, res = read_text(ep), read_text(rp)
        if res is None:
            errors += 1
        tp, fp, fn = shingle_match(exp, res or "")
        for i, v in enumerate((tp, fp, fn)):
            sums[i] += v
        d = bin(sh[ep] ^ sh[rp]).count("1") if rp in sh else 64
        bits.append(d)
        pf = prf(tp, fp, fn)
        f1s.append(pf[2])
        fb = pages.get(pid, {}).get("fallback")
        fallbacks += fb or 0
        rows.append([pid, f"{pf[0]:.3f}", f"{pf[1]:.3f}", f"{pf[2]:.3f}", d, len(exp), len(res or ""),
                     "" if fb is None else fb])
    if csv_path:
        with open(csv_path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["id", "precision", "recall", "f1", "simhash_bits", "expected_chars", "chars", "fallback"])
            w.writerows(rows)
    p, r, f1 = prf(*sums)
    return {"pages": len(ids), "precision": p, "recall": r, "f1": f1, "within3": sum(b <= 3 for b in bits) / len(ids),
            "median_bits": statistics.median(bits), "median_f1": statistics.median(f1s), "errors": errors,
            "fallbacks": fallbacks if any(v.get("fallback") is not None for v in pages.values()) else None,
            "tsv": pages}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prepared", default="/work/webdev-data/prepared")
    ap.add_argument("--tool", default="build/html_extract", help="bench/html_extract.cpp, built (for simhash -s)")
    ap.add_argument("--csv-dir")
    ap.add_argument("extractors", nargs="+", metavar="NAME=OUTDIR")
    a = ap.parse_args()
    if a.csv_dir:
        os.makedirs(a.csv_dir, exist_ok=True)
    print("| extractor | traf. F1 | traf. precision | traf. recall | traf. accuracy | read. 4-shingle F1 | read. precision |"
          " read. recall | read. median page F1 | read. simhash <= 3 bits | read. median bits | fallbacks to whole text (traf./read.) |"
          " errors | CPU MB/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for spec in a.extractors:
        name, outdir = spec.split("=", 1)
        csvp = (lambda s: os.path.join(a.csv_dir, f"{name}.{s}.csv") if a.csv_dir else None)
        t = score_traf(a.prepared, outdir, csvp("traf"))
        r = score_read(a.prepared, outdir, a.tool, csvp("read"))
        rows = list(t["tsv"].values()) + list(r["tsv"].values())
        cpu = sum(x["cpu"] for x in rows)
        mbs = f"{sum(x['bytes'] for x in rows) / cpu / 1e6:.1f}" if cpu > 0 else "—"
        if os.path.exists(os.path.join(outdir, "cpu_mbs")):  # measured as a whole (ndd through SQL)
            mbs = open(os.path.join(outdir, "cpu_mbs")).read().strip()
        fb = f"{t['fallbacks']} / {r['fallbacks']}" if t["fallbacks"] is not None else "—"
        print(f"| {name} | {t['f1']:.3f} | {t['precision']:.3f} | {t['recall']:.3f} | {t['accuracy']:.3f} | {r['f1']:.3f} |"
              f" {r['precision']:.3f} | {r['recall']:.3f} | {r['median_f1']:.3f} | {100 * r['within3']:.0f} % |"
              f" {r['median_bits']:g} | {fb} | {t['errors'] + r['errors']} | {mbs} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
