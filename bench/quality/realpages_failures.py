#!/usr/bin/env python3
"""bench/quality/realpages_failures.py: the worst pages of an extractor on the two development sets,
each with a one-line diagnosis, as Markdown (the input of whoever tunes ndd_html_content). Python 3
standard library only; reads what html_realpages.sh wrote.

    python3 realpages_failures.py [--data /work/webdev-data] [--extractor ndd] [--n 30] > FAILURES.md

The diagnosis is mechanical, from the page's HTML parsed again here (html.parser, an approximate
tree) and the extractor's output:
  fallback          the content is the page's whole text (ndd: no main content found)
  boilerplate hint  the article's text sits in a boilerplate context as html_blocks.cpp computes it
                    (its class/id word roots, roles, tags and the nearest-hinted-ancestor rule,
                    reproduced here): the element and word that veto it
  script leak       the output holds text that sits inside a <script> or <style> of the page
  won: PATH         the output's largest block comes from elsewhere than the article: PATH is
                    its element (tag.class#id of it and two ancestors) and a guess of what it is
                    (comments, teaser list, navigation, footer, ...) from the words of the path
  leaked: PATH      (trafilatura's set) a "without" snippet found, and where it sits
  short article     the article's paragraphs are short (median under 200 characters: the
                    "good" threshold is never reached)
"""
import argparse
import collections
import csv
import json
import os
import re
import statistics
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param", "keygen"}
# html_blocks.cpp's boilerplate roots and words, its boilerplate tags and roles (for the diagnosis only)
ROOTS = ["nav", "menu", "footer", "header", "sidebar", "banner", "cookie", "consent", "advert", "sponsor", "promo",
         "breadcrumb", "pagination", "pager", "share", "sharing", "social", "related", "comment", "widget", "popup",
         "modal", "newsletter", "subscribe", "signup", "login", "toolbar", "masthead", "disclaimer", "copyright", "skiplink"]
WORDS = {"ad", "ads", "adbox", "gdpr", "tags", "skip"}
BOIL_TAGS = {"aside", "button", "dialog", "footer", "form", "menu", "nav"}
BOIL_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar", "dialog", "alertdialog"}
KINDS = [("comment", "comments"), ("related", "related stories"), ("teaser", "teaser list"), ("recommend", "recommendations"),
         ("more", "more-stories list"), ("sidebar", "sidebar"), ("aside", "sidebar"), ("widget", "sidebar widget"),
         ("nav", "navigation"), ("menu", "menu"), ("footer", "footer"), ("header", "header"), ("cookie", "cookie banner"),
         ("consent", "consent banner"), ("caption", "caption"), ("video", "video block"), ("newsletter", "newsletter box"),
         ("bio", "author bio"), ("author", "author box"), ("disclaimer", "disclaimer"), ("legal", "legal notice"),
         ("breadcrumb", "breadcrumbs"), ("tag", "tag list"), ("share", "share bar"), ("ad", "ad"), ("promo", "promo")]


CONTENT_WORDS = {"content", "main", "article", "post", "entry", "story", "body", "text", "prose", "document"}


def class_hint(value, max_words=0):
    """html_class_hint: (-1, word) when a word names boilerplate, (1, word) content, (0, None)."""
    ws = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", (value or "")[:256])]
    if max_words and len(ws) > max_words:
        return 0, None
    hint, hw = 0, None
    for w in ws:
        if w in WORDS or any(w.startswith(r) or w.endswith(r) for r in ROOTS):
            return -1, w
        if w in CONTENT_WORDS:
            hint, hw = 1, w
    return hint, hw


def context_of(path):
    """The context html_blocks.cpp gives a text under path (its Frame::context rule) and the element
    that set it when it is boilerplate: (context, "`element` ('word')")."""
    ctx, why = 0, None
    for tag, cls, i, role in path:
        hint, what = 0, None
        if tag not in ("html", "body"):
            for value, mw in ((cls, 0), (i, 2)):
                h, w = class_hint(value, mw)
                if h < 0 or (h > 0 and ctx >= 0 and hint == 0):
                    hint, what = h, w
        if role:
            h = {"main": 1, "article": 1}.get(role, -1 if role in BOIL_ROLES else 0)
            if h < 0 or (h > 0 and hint >= 0):
                hint, what = h, f"role={role}"
        if tag in BOIL_TAGS:
            hint, what = -1, f"<{tag}>"
        elif tag == "header" and ctx <= 0:
            hint, what = -1, "<header>"
        elif tag in ("main", "article") and hint == 0:
            hint = 1
        if hint:
            ctx = hint
            why = f"`{fmt((tag, cls, i, role))}` ('{what}')" if hint < 0 else None
    return ctx, why


class Tree(HTMLParser):
    """Text nodes with their element path; script and style text apart."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.nodes, self.script = [], [], []
        self.raw = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "style"):
            self.raw += 1
        if tag in VOID:
            return
        self.stack.append((tag, a.get("class") or "", a.get("id") or "", a.get("role") or ""))

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.raw = max(0, self.raw - 1)
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if self.raw:
            if len(data.strip()) > 20:
                self.script.append(data)
        elif data.strip():
            self.nodes.append((data, tuple(self.stack)))


def fmt(el):
    tag, cls, i, role = el
    s = tag + ("." + ".".join(cls.split()[:2]) if cls.strip() else "") + ("#" + i if i else "")
    return s + (f"[role={role}]" if role else "")


def path_str(path, n=3):
    return " > ".join(fmt(e) for e in path[-n:])


def kind_of(path):
    words = " ".join(f"{t} {c} {i} {r}" for t, c, i, r in path).lower()
    for key, name in KINDS:
        if re.search(r"(^|[^a-z])" + key if key in ("ad", "tag", "more", "bio", "nav") else key, words):
            return name
    return None


def squash(s):
    return re.sub(r"\s+", " ", s).strip()


def find(tree, snippet):
    """The path of the text node that holds the start of snippet (whitespace-normalized)."""
    key = squash(snippet)[:40]
    if len(key) < 8:
        return None
    for data, path in tree.nodes:
        if key[:25] in squash(data):
            return path
    return None


def diagnose(html, content, whole, article_snips, leaked_snips):
    t = Tree()
    try:
        t.feed(html)
        t.close()
    except Exception:
        pass
    parts = []
    fallback = whole is not None and content == whole
    if fallback:
        parts.append("fallback to whole text")
    # script leak: a long line of the output that is script text of the page
    lines = [l for l in content.split("\n") if len(l) > 40]
    scripts = "\n".join(t.script)
    visible = squash(" ".join(d for d, _ in t.nodes))
    leak = [l for l in lines if squash(l)[:40] in squash(scripts) and squash(l)[:40] not in visible] if scripts else []
    if leak:
        parts.append(f"script leak ({sum(len(l) for l in leak)} chars of script/style text)")
    # where the article is and what vetoes it
    located = [(s, find(t, s)) for s in article_snips]
    apaths = [p for _, p in located if p is not None]
    if apaths:
        # only the article text the output lacks: a hint that vetoes nothing is no cause
        vetoed = [why for why in (context_of(p)[1] for s, p in located
                                  if p is not None and (fallback or squash(s)[:40] not in squash(content))) if why]
        if vetoed:
            parts.append("boilerplate hint on the article: " + ", ".join(sorted(set(vetoed))[:2]))
    # what won: the longest block of the output, when it is not article text
    if not fallback and lines:
        longest = max(lines, key=len)
        inart = any(squash(longest)[:30] in squash(s) or squash(s)[:30] in squash(longest) for s in article_snips)
        p = find(t, longest)
        if p is not None and not inart and not any(squash(a)[:40] in squash(content) for a in article_snips):
            k = kind_of(p)
            parts.append(f"won: `{path_str(p)}`" + (f" ({k})" if k else ""))
    for s in leaked_snips[:2]:
        p = find(t, s)
        k = kind_of(p) if p else None
        parts.append(f"leaked \"{squash(s)[:40]}\"" + (f" from `{path_str(p, 2)}`" + (f" ({k})" if k else "") if p else ""))
    return parts, apaths


def coverage(html, content, lines):
    """Which of the expected lines the output holds: 'lost the lead (first k of n lines)' etc., and
    where the first lost line sits in the page."""
    t = Tree()
    try:
        t.feed(html)
        t.close()
    except Exception:
        pass
    c = squash(content)
    have = [squash(l)[:40] in c for l in lines]
    n, k = len(lines), have.count(False)
    if not n or not k or k == n:
        return None
    lead = next((i for i, h in enumerate(have) if h), n)
    tail = next((i for i, h in enumerate(reversed(have)) if h), n)
    if lead >= 2 and lead >= k - 1:
        what = f"lost the lead (first {lead} of {n} lines)"
    elif tail >= 2 and tail >= k - 1:
        what = f"lost the end (last {tail} of {n} lines)"
    else:
        what = f"lost {k} of {n} lines here and there"
    first = lines[have.index(False)]
    p = find(t, first)
    if p is not None:
        ctx, why = context_of(p)
        what += f", e.g. in `{path_str(p, 2)}`" + (f", boilerplate by {why}" if why else "")
    return what


def paragraph_lengths(html):
    ps = re.findall(r"<p[ >].*?</p>", html, re.S | re.I)
    return [len(squash(re.sub(r"<[^>]+>", "", p))) for p in ps]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/work/webdev-data")
    ap.add_argument("--extractor", default="ndd")
    ap.add_argument("--n", type=int, default=30)
    a = ap.parse_args()
    P, O = os.path.join(a.data, "prepared"), os.path.join(a.data, "out", a.extractor)
    csvd = os.path.join(a.data, "out", "csv")

    def read(p):
        try:
            return open(p, encoding="utf-8", errors="replace").read()
        except FileNotFoundError:
            return None

    print(f"# The worst pages of `{a.extractor}` on the development sets\n")
    print("Made by `python3 bench/quality/realpages_failures.py` (branch webeval) from the outputs of "
          "`bash bench/html_realpages.sh quick` (rerun both after a change; another checkout's core: "
          "`NDD_REALPAGES_SRC=/work/wt/content NDD_REALPAGES_NAME=content bash bench/html_realpages.sh quick` then "
          "`--extractor content`). Diagnoses are mechanical "
          "(see the script's docstring): they name the element that won or the hint that vetoed the "
          "article; check the page before trusting one. Per-page scores: " + csvd + f"/{a.extractor}.{{traf,read}}.csv.\n")

    # ---- trafilatura's set ----
    meta = json.load(open(os.path.join(P, "traf.json"), encoding="utf-8"))
    rows = list(csv.DictReader(open(os.path.join(csvd, f"{a.extractor}.traf.csv"), encoding="utf-8")))
    for r in rows:
        tp, fp, fn = int(r["tp"]), int(r["fp"]), int(r["fn"])
        r["f1"] = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0
    rows.sort(key=lambda r: (r["f1"], -(int(r["fp"]) + int(r["fn"]))))
    traf_lines, traf_parts = [], []
    for r in [r for r in rows if r["f1"] < 1]:
        pid = r["id"]
        item = meta[pid]
        html = read(os.path.join(P, "traf", pid + ".html"))
        content = read(os.path.join(O, "traf", pid + ".content.txt")) or ""
        whole = read(os.path.join(O, "traf", pid + ".text.txt"))
        if whole is None:
            whole = read(os.path.join(a.data, "out", a.extractor + "-text", "traf", pid + ".content.txt"))
        leaked = [w for w in item["without"] if squash(w) in squash(content)]
        # snippets the whole text lacks too: no choice of blocks can find them
        nowhere = [w for w in item["with"] if whole is not None and squash(w) not in squash(whole)]
        reachable = [w for w in item["with"] if w not in nowhere]
        parts, apaths = diagnose(html, content, whole, reachable, leaked)
        if nowhere:
            t = Tree()
            t.feed(html)
            t.close()
            scripts = squash(" ".join(t.script))
            w0 = squash(nowhere[0])[:40]
            p0 = find(t, nowhere[0])
            if w0 in scripts:
                where = "only inside a <script> (a JS template or JSON state: the page renders its article by script)"
            elif p0 is not None:
                where = f"in the markup but not in ndd_html_text's output: `{path_str(p0, 3)}` (hidden? noscript?)"
            else:
                where = "not in the page's text (another version of the page was annotated, or words split by markup)"
            parts.insert(0, f"{len(nowhere)} of {len(item['with'])} 'with' snippets not in the whole text either: {where}")
        missed = [w for w in item["with"] if squash(w) not in squash(content)]
        if missed and not content.strip():
            parts.append("empty output")
        pl = paragraph_lengths(html)
        if missed and pl and "fallback to whole text" not in parts and statistics.median(pl) < 200 and not any(p.startswith("won") for p in parts):
            parts.append(f"short paragraphs (median <p> {statistics.median(pl):.0f} chars)")
        found = [w for w in item["with"] if squash(w) in squash(content)]
        if missed and found:
            parts.append("partial: " + coverage(html, content, item["with"]))
        if missed and not apaths:
            parts.append("article snippets not located in the page's text nodes (entities, split across elements?)")
        if not parts:
            parts.append(f"missed: \"{squash(missed[0])[:50]}\"" if missed else "")
        traf_parts.append(parts)
        traf_lines.append(f"| {pid} | {r['f1']:.2f} | {r['tp']}/{int(r['tp']) + int(r['fn'])} | {r['fp']}/{int(r['fp']) + int(r['tn'])} | {'; '.join(parts)} |")
    traf_total = len(rows)

    # ---- Readability's set ----
    rows = list(csv.DictReader(open(os.path.join(csvd, f"{a.extractor}.read.csv"), encoding="utf-8")))
    rows.sort(key=lambda r: (float(r["f1"]), -int(r["simhash_bits"])))
    read_lines, read_parts = [], []
    for r in [r for r in rows if float(r["f1"]) < 0.9 or int(r["simhash_bits"]) > 3]:
        pid = r["id"]
        html = read(os.path.join(P, "read", pid + ".html"))
        exp = read(os.path.join(P, "read", pid + ".expected.txt")) or ""
        content = read(os.path.join(O, "read", pid + ".content.txt")) or ""
        whole = read(os.path.join(O, "read", pid + ".text.txt"))
        if whole is None:
            whole = read(os.path.join(a.data, "out", a.extractor + "-text", "read", pid + ".content.txt"))
        # the article's landmarks: its three longest lines
        snips = sorted((l for l in exp.split("\n") if len(l) > 30), key=len, reverse=True)[:3]
        parts, apaths = diagnose(html, content, whole, snips, [])
        p, rc = float(r["precision"]), float(r["recall"])
        if "fallback to whole text" not in parts:
            cov = coverage(html, content, [l for l in exp.split("\n") if len(l) > 30])
            if cov and rc < 0.9:
                parts.append(cov)
        if not parts or parts[-1].startswith("lost"):
            if p < 0.7:
                parts.append(f"extra text beside the article ({len(content)} chars out, {len(exp)} expected)")
        if rc < 0.8 and "fallback to whole text" not in parts:
            pl = paragraph_lengths(html)
            if pl and statistics.median(pl) < 200:
                parts.append(f"short paragraphs (median <p> {statistics.median(pl):.0f} chars)")
        if len(exp) < 500:
            parts.append(f"expected text is short ({len(exp)} chars): a non-article page")
        read_parts.append(parts)
        read_lines.append(f"| {pid} | {float(r['f1']):.2f} | {p:.2f} | {rc:.2f} | {r['simhash_bits']} | {'; '.join(parts)} |")

    def tally(parts_list):
        c = collections.Counter()
        for parts in parts_list:
            keys = set()
            for x in parts:
                if x.startswith("won:"):
                    m = re.search(r"\(([^)]*)\)$", x)
                    keys.add("another block won" + (f" ({m.group(1)})" if m else " (unnamed)"))
                elif x.startswith("leaked"):
                    m = re.search(r"`\s*\(([^)]*)\)$", x)
                    keys.add("a 'without' snippet kept" + (f" ({m.group(1)})" if m else " (unnamed)"))
                elif x.startswith("leaked") or x.startswith("partial: "):
                    pass
                elif "not in the whole text either" in x:
                    keys.add("'with' snippets not in the whole text: " + (
                        "only inside a <script>" if "<script>" in x else
                        "in the markup, dropped by ndd_html_text" if "in the markup" in x else "not in the page's text"))
                elif not x.startswith("lost"):
                    keys.add(re.split(r"[:(,]", x)[0].strip())
                if "lost" in x:
                    keys.add("lost the lead" if "the lead" in x else "lost the end" if "the end" in x else "lost lines here and there")
            c.update(keys)
        return c

    print("## What goes wrong, counted\n")
    print(f"Each page counts once per cause; a page may have several. trafilatura's set: the {len(traf_lines)} of "
          f"{traf_total} pages with snippet F1 < 1; Readability's: the {len(read_lines)} of {len(rows)} pages with "
          "F1 < 0.9 or simhash more than 3 bits from the expected text's.\n")
    print("| cause | trafilatura's set | Readability's set |")
    print("|---|---|---|")
    ct, cr = tally(traf_parts), tally(read_parts)
    for k in sorted(set(ct) | set(cr), key=lambda k: -(ct[k] + cr[k])):
        if k:
            print(f"| {k} | {ct[k]} | {cr[k]} |")
    words = collections.Counter()
    for parts in traf_parts + read_parts:
        for x in parts:
            if x.startswith("boilerplate hint"):
                words.update(set(re.findall(r"\('([^']+)'\)", x)))
    print("\nThe words, roles and tags behind \"boilerplate hint on the article\" (pages of both sets): " +
          ", ".join(f"{w} {n}" for w, n in words.most_common(40)))
    print(f"\n## trafilatura's set: worst {a.n} of {traf_total} (snippet F1 per page)\n")
    print("| page | F1 | with found | without found | diagnosis |")
    print("|---|---|---|---|---|")
    print("\n".join(traf_lines[: a.n]))
    print(f"\n## Readability's set: worst {a.n} of {len(rows)} (token 4-shingle F1 against expected.html, Readability's own output)\n")
    print("| page | F1 | precision | recall | simhash bits | diagnosis |")
    print("|---|---|---|---|---|---|")
    print("\n".join(read_lines[: a.n]))


if __name__ == "__main__":
    main()
