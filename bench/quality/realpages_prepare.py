#!/usr/bin/env python3
"""bench/quality/realpages_prepare.py: the real pages of the two public development sets, unpacked from
../shared/webdev (see its README.md) into DATA (default /work/webdev-data), made ready for every
extractor alike (Python 3 standard library only).

    python3 bench/quality/realpages_prepare.py [DATA]
    python3 bench/quality/realpages_prepare.py --html-to-text DIR   (peers' outputs, below)

Writes DATA/prepared/:
  traf/<id>.html        trafilatura's evaluation pages (tests/eval, tests/cache; <id> = the file name
                        without .html), decoded to UTF-8
  traf.json             {id: {"url", "with", "without"}}: the snippets of tests/evaldata.json
  read/<id>.html        Mozilla Readability's test pages (test/test-pages/<id>/source.html), UTF-8
  read/<id>.expected.txt  the text of expected.html (Readability's own output, NOT ground truth)

Decoding: every extractor gets the same Unicode text, decoded as trafilatura's evaluation decodes its
inputs (utf-8 when the bytes are valid UTF-8, else the charset the page declares, else cp1252);
NUL characters are dropped (a PostgreSQL text value cannot hold them). 27 of the 990 trafilatura
pages are not UTF-8. Unpacks the tarballs first when DATA does not hold them yet.

The pages used are listed in test/data/webdev_pages.tsv (set, id, SHA-256 of the page as the archive
holds it, URL for trafilatura's): the preparation checks every page against it and stops on a
difference (--list writes the list anew).

--html-to-text DIR: every DIR/<id>.content.html (the article HTML a peer returns: readability-lxml,
Readability.js) becomes DIR/<id>.content.txt, its text taken exactly as the text of expected.html is.
"""
import glob
import gzip
import hashlib
import json
import os
import re
import sys
import tarfile
from html.parser import HTMLParser

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "webdev")
LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "data", "webdev_pages.tsv")
TRAF = "trafilatura-eval-e90b0ef5"
READ = "readability-test-pages-ab4027a"


def decode(raw):
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
        m = re.search(rb"""charset\s*=\s*["']?([A-Za-z0-9_:.-]+)""", raw[:16384], re.I)
        if m:
            try:
                text = raw.decode(m.group(1).decode("ascii"))
            except (LookupError, UnicodeDecodeError):
                text = None
        if text is None:
            text = raw.decode("cp1252", errors="replace")
    return text.replace("\x00", "")


BLOCKS = {"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
          "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
          "section", "table", "td", "th", "tr", "ul"}


class TextOf(HTMLParser):
    """The visible text of an HTML fragment, a line break at every block element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.skip += 1
        elif tag in BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.skip = max(0, self.skip - 1)
        elif tag in BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def html_text(html):
    p = TextOf()
    p.feed(html)
    p.close()
    lines = (re.sub(r"\s+", " ", l).strip() for l in "".join(p.parts).split("\n"))
    return "\n".join(l for l in lines if l)


def main():
    if sys.argv[1:2] == ["--html-to-text"]:
        for f in glob.glob(os.path.join(sys.argv[2], "*.content.html")):
            with open(f, encoding="utf-8") as i, open(f[: -len(".html")] + ".txt", "w", encoding="utf-8") as o:
                o.write(html_text(i.read()))
        return
    write_list = "--list" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "--list"]
    data = args[0] if args else "/work/webdev-data"
    listing = []
    for name in (TRAF, READ):
        if not os.path.isdir(os.path.join(data, name)):
            with tarfile.open(os.path.join(SHARED, name + ".tar.gz")) as t:
                t.extractall(data)
    out = os.path.join(data, "prepared")
    os.makedirs(os.path.join(out, "traf"), exist_ok=True)
    os.makedirs(os.path.join(out, "read"), exist_ok=True)

    tests = os.path.join(data, TRAF, "tests")
    evaldata = json.load(open(os.path.join(tests, "evaldata.json"), encoding="utf-8"))
    meta = {}
    for url, item in sorted(evaldata.items()):
        src = next(p for p in (os.path.join(tests, d, item["file"]) for d in ("cache", "eval")) if os.path.isfile(p))
        pid = item["file"][: -len(".html")]
        with open(src, "rb") as f:
            raw = f.read()
        text = decode(raw)
        listing.append(("traf", pid, hashlib.sha256(raw).hexdigest(), url))
        with open(os.path.join(out, "traf", pid + ".html"), "w", encoding="utf-8") as f:
            f.write(text)
        meta[pid] = {"url": url, "with": item["with"], "without": item["without"]}
    with open(os.path.join(out, "traf.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=0, sort_keys=True)

    pages = sorted(glob.glob(os.path.join(data, READ, "test", "test-pages", "*", "source.html")))
    for src in pages:
        pid = os.path.basename(os.path.dirname(src))
        with open(src, "rb") as f:
            raw = f.read()
        text = decode(raw)
        listing.append(("read", pid, hashlib.sha256(raw).hexdigest(), ""))
        with open(os.path.join(out, "read", pid + ".html"), "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(os.path.dirname(src), "expected.html"), "rb") as f:
            expected = html_text(decode(f.read()))
        with open(os.path.join(out, "read", pid + ".expected.txt"), "w", encoding="utf-8") as f:
            f.write(expected)
    lines = ["set\tid\tsha256\turl\n"] + ["\t".join(r) + "\n" for r in listing]
    if write_list:
        with open(LIST, "w", encoding="utf-8") as f:
            f.writelines(lines)
    elif open(LIST, encoding="utf-8").readlines() != lines:
        raise SystemExit(f"the pages differ from {LIST}: another version of the archives? (--list to accept them)")
    print(f"prepared {len(meta)} trafilatura pages and {len(pages)} readability pages in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
