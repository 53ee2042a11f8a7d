#!/usr/bin/env python3
"""bench/quality/realpages_halves.py: the development sets' scores on two halves of their pages, so
that a change tuned on the pages is confirmed on pages it was not looked at for (issue 29).

    python3 bench/quality/realpages_halves.py [CSV_DIR] [EXTRACTOR]

Reads the per-page CSV files bench/html_realpages.sh writes (CSV_DIR, default
/work/webdev-data/out/csv; EXTRACTOR default ndd, e.g. the NDD_REALPAGES_NAME of another checkout).
A page is in half A when the first byte of md5(its id) is even, else in half B. trafilatura's set:
snippet precision, recall and F1 summed over the half's pages (as its evaluate.py counts); Readability's:
mean per-page 4-shingle precision and recall, their F1, and the share of pages within 3 bits.
"""
import csv
import hashlib
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "/work/webdev-data/out/csv"
name = sys.argv[2] if len(sys.argv) > 2 else "ndd"


def half(i):
    return "A" if hashlib.md5(i.encode()).digest()[0] % 2 == 0 else "B"


for h in "AB":
    rows = [r for r in csv.DictReader(open(f"{d}/{name}.traf.csv")) if half(r["id"]) == h]
    tp = sum(int(r["tp"]) for r in rows)
    fp = sum(int(r["fp"]) for r in rows)
    fn = sum(int(r["fn"]) for r in rows)
    P, R = tp / (tp + fp), tp / (tp + fn)
    rr = [r for r in csv.DictReader(open(f"{d}/{name}.read.csv")) if half(r["id"]) == h]
    p = sum(float(r["precision"]) for r in rr) / len(rr)
    q = sum(float(r["recall"]) for r in rr) / len(rr)
    sh = sum(1 for r in rr if int(r["simhash_bits"]) <= 3) / len(rr)
    print(f"half {h}: traf n={len(rows)} P={P:.3f} R={R:.3f} F1={2*P*R/(P+R):.3f} | "
          f"read n={len(rr)} P={p:.3f} R={q:.3f} F1={2*p*q/(p+q):.3f} simhash<=3 {sh:.0%}")
