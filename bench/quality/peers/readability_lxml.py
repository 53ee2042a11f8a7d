#!/usr/bin/env python3
"""bench/quality/peers/readability_lxml.py: the peer readability-lxml (Debian python3-readability) on
prepared pages: `readability_lxml.py OUTDIR FILE...` writes OUTDIR/<id>.content.html (the article
HTML of Document(html).summary(), as trafilatura's evaluate.py runs it) and OUTDIR/pages.tsv
(id, html_bytes, cpu_seconds of summary() alone). realpages.sh turns the HTML into text the way the
expected pages are (realpages_prepare.py --html-to-text)."""
import os
import sys
import time

from readability import Document


def main():
    out = sys.argv[1]
    with open(os.path.join(out, "pages.tsv"), "w", encoding="utf-8") as tsv:
        for path in sys.argv[2:]:
            pid = os.path.basename(path)[: -len(".html")]
            html = open(path, encoding="utf-8", newline="").read()
            t0 = time.process_time()
            try:
                summary = Document(html).summary()
            except Exception as e:  # a crash is a miss, as in evaluate.py
                print(f"readability-lxml: {pid}: {type(e).__name__}: {e}", file=sys.stderr)
                summary = None
            cpu = time.process_time() - t0
            if summary is not None:
                with open(os.path.join(out, pid + ".content.html"), "w", encoding="utf-8") as f:
                    f.write(summary)
            tsv.write(f"{pid}\t{len(html.encode('utf-8'))}\t{cpu:.6f}\n")


if __name__ == "__main__":
    main()
