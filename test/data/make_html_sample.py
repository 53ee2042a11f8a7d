#!/usr/bin/env python3
"""test/data/make_html_sample.py: rebuilds test/data/html/pages.jsonl.gz, the web sample, from the
HTML documentation of two Debian 12 packages (run on a machine that has them installed):

  debian-handbook  /usr/share/doc/debian-handbook/html/en-US/*.html   GPL-2+ or CC-BY-SA-3.0
  python3.11-doc   /usr/share/doc/python3.11/html/{tutorial,howto,faq,using,extending,reference}/*.html
                   and the library/*.html pages under 60 kB, the first 100 by name      PSF licence

One JSON object a line: {"site", "path", "licence", "html"} with the page as the package ships it.
Deterministic: the same packages give the same file (gzip mtime 0)."""
import glob, gzip, json, os, sys

HANDBOOK = "/usr/share/doc/debian-handbook/html/en-US"
PYDOC = "/usr/share/doc/python3.11/html"

def pages():
    for f in sorted(glob.glob(HANDBOOK + "/*.html")):
        yield "debian-handbook", os.path.relpath(f, HANDBOOK), "GPL-2+ or CC-BY-SA-3.0", f
    for d in ["tutorial", "howto", "faq", "using", "extending", "reference"]:
        for f in sorted(glob.glob(f"{PYDOC}/{d}/*.html")):
            yield "python-docs", os.path.relpath(f, PYDOC), "PSF-2.0", f
    lib = [f for f in sorted(glob.glob(PYDOC + "/library/*.html")) if os.path.getsize(f) < 60000]
    for f in lib[:100]:
        yield "python-docs", os.path.relpath(f, PYDOC), "PSF-2.0", f

def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "html", "pages.jsonl.gz")
    n = 0
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as gz:
        for site, path, licence, f in pages():
            with open(f, encoding="utf-8") as fh:
                html = fh.read()
            gz.write((json.dumps({"site": site, "path": path, "licence": licence, "html": html},
                                 ensure_ascii=False) + "\n").encode())
            n += 1
    print(f"{n} pages -> {out} ({os.path.getsize(out)} bytes)", file=sys.stderr)

if __name__ == "__main__":
    main()
