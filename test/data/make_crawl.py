#!/usr/bin/env python3
"""test/data/make_crawl.py: a small web crawl built from the real pages of test/data/html/pages.jsonl.gz
(Debian handbook and Python documentation pages, see test/data/README.md), written to stdout as
PostgreSQL COPY text rows:

    url  site  page  template  html

`page` names the source page ("python-docs/library/os.html"): rows with the same page carry the same
article (the ground truth of the demo and of bench/html_quality.sh); `template` says how the row was
made. Deterministic: the same sample gives the same crawl, byte for byte.

The default crawl (scripts/demo.sh):
  https://docs.python.example/3.11/<path>            the Python pages as shipped            original
  https://debian-handbook.example/browse/stable/<path> the handbook pages as shipped        original
  http://mirror.example.net/pub/python/3.11/<path>   every Python page, byte for byte       mirror
  https://www.handbook-mirror.example/debian-handbook/<path>  every handbook page's article under
                                                     the "portal" template                  portal
  https://learn.example.com/python/<path>            every Python page's article under the
                                                     "magazine" template                    magazine
  http://www.docs-copies.example/copies/<site>/<path>  every page under the "tables" template tables
  https://planet.example.org/articles/<slug>.html    every third page under the "forum" template
                                                     (a partial copy)                       forum
  URL variants of 24 Python pages: the same bytes under other spellings of the original's URL
  (host case, default port, dot segments, fragment, tracking and session parameters, parameter
  order), and under aliases no URL normalization joins: a search result's link
  <path>?highlight=<word>, and for 8 of them the version alias
  https://docs.python.example/3/<path>                                                      variant

The canonical links (<link rel="canonical">, what ndd_html_meta reads; the demo's "same page under
many URLs"), as real sites state them: the shipped pages' own links (file:///usr/share/doc/python3.11/
html/<path> from Debian's build, https://debian-handbook.info/browse/stable/<path>) name the crawl's
hosts instead, as the sites serve them: a Python page names its version-independent URL
https://docs.python.example/3/<path> (as docs.python.org's pages name /3/), a handbook page its own
URL. The mirror and the URL variants are the same bytes, so they state the original's canonical
link; the "magazine" copies are syndicated: they name the original's canonical link too; the
"portal" copies name their own URL (a CMS's default); the "tables" and "forum" copies state none.
With --every-template the pages are as shipped and the templates state no canonical link.

  --every-template   instead: each page as shipped, its bare article (template "article": the
                     reference for its length) and the article under each of the four templates
                     (bench/html_quality.sh)

The article of a page is its main element as the source marks it: the element with role="main" in
the Python pages, the chapter or section element (the first div of the body with a lang attribute)
in the handbook. The four templates are unrelated site designs with navigation, an ad block, a
footer, a cookie banner or a sidebar of their own; "tables" uses no semantic tags or telling class
names at all (a layout table of the late 1990s), so only text length and link density can tell its
boilerplate from the article.
"""
import gzip
import html as htmlmod
import json
import os
import random
import re
import sys
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))


class ArticleFinder(HTMLParser):
    """Finds the source range [start, end) of the page's article element and the title."""

    def __init__(self, site, text):
        super().__init__(convert_charrefs=True)
        self.site, self.text = site, text
        self.line_offsets = [0]
        for line in text.splitlines(keepends=True):
            self.line_offsets.append(self.line_offsets[-1] + len(line))
        self.start = self.end = None
        self.depth = 0  # open divs inside the article
        self.outer_divs = 0  # open divs before it
        self.body = False
        self.in_title = False
        self.title = ""

    def source_offset(self):
        line, col = self.getpos()
        return self.line_offsets[line - 1] + col

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "title":
            self.in_title = True
        if tag == "body":
            self.body = True
        if self.end is not None:
            return
        if self.start is not None:
            if tag == "div":
                self.depth += 1
            return
        if tag == "div" and ((self.site == "python-docs" and a.get("role") == "main") or
                             (self.site == "debian-handbook" and self.outer_divs == 0 and a.get("id") != "banner")):
            self.start = self.source_offset() + len(self.get_starttag_text())
            self.depth = 1
        elif tag == "div":
            self.outer_divs += 1

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if self.start is None and tag == "div":
            self.outer_divs -= 1
        if self.start is not None and self.end is None and tag == "div":
            self.depth -= 1
            if self.depth == 0:
                self.end = self.source_offset()

    def handle_data(self, data):
        if self.in_title:
            self.title += data


def article(site, text):
    f = ArticleFinder(site, text)
    f.feed(text)
    f.close()
    if f.start is None or f.end is None:
        raise SystemExit(f"no article found in a {site} page")
    return f.title.strip(), text[f.start:f.end]


# ---- four unrelated site templates ----

def links(rng, items, n):
    return rng.sample(items, min(n, len(items)))


def canonical_link(url):
    return f'<link rel="canonical" href="{htmlmod.escape(url)}">'


def restate_canonical(html, url):
    """The page with its one canonical link naming url instead of what the shipped page names."""
    new, n = re.subn(r'(<link\b[^>]*\brel="canonical"[^>]*\bhref=")[^"]*(")',
                     lambda m: m.group(1) + htmlmod.escape(url) + m.group(2), html)
    if n != 1:
        raise SystemExit(f"{n} canonical links in a page (expected one)")
    return new


def portal(title, body, ctx, rng, head=""):
    nav = "".join(f'<li><a href="/section/{i}">{w}</a></li>' for i, w in enumerate(
        ["Home", "News", "Guides", "Downloads", "Community", "Events", "Jobs", "Shop", "About", "Contact"]))
    popular = "".join(f'<li><a href="/read/{i}">{htmlmod.escape(t)}</a></li>' for i, t in enumerate(links(rng, ctx, 8)))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{htmlmod.escape(title)} | OpenDocs Portal</title>{head}
<link rel="stylesheet" href="/static/portal.css"><script src="/static/tracker.js"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){{dataLayer.push(arguments);}} gtag('config', 'UA-000000-1');</script>
</head><body>
<div class="cookie-banner" id="cookie-consent"><p>We use cookies and similar technologies to give you the best experience on our website, to analyse our traffic and to show you personalised advertising. By clicking "Accept all" you agree to the storing of cookies on your device. You can change your preferences at any time in the privacy settings.</p>
<button>Accept all</button> <button>Reject</button> <a href="/privacy">Privacy policy</a></div>
<header class="site-header"><a class="logo" href="/">OpenDocs Portal</a><nav class="main-nav"><ul>{nav}</ul></nav>
<form class="search" action="/search"><input name="q" placeholder="Search the portal"><button>Search</button></form></header>
<div class="layout"><main><article><div class="article-body">{body}</div></article></main>
<aside class="sidebar"><h3>Popular this week</h3><ul>{popular}</ul>
<div class="ad-slot"><span class="ad-label">Advertisement</span><p><a href="https://ads.example/click?id=42">Upgrade your servers today: enterprise hosting with 99.99 % uptime, free migration and round-the-clock support. Try it free for 30 days!</a></p></div>
<div class="newsletter"><h3>Stay informed</h3><p>Get the best guides in your inbox every week.</p><form><input type="email"><button>Subscribe</button></form></div></aside></div>
<footer class="site-footer"><p>OpenDocs Portal republishes free documentation under its original licences. All trademarks are the property of their respective owners. The views expressed in the articles are those of their authors and do not necessarily reflect the views of the portal, its editors or its sponsors. Copyright 2024 OpenDocs Media Ltd.</p>
<ul><li><a href="/terms">Terms of use</a></li><li><a href="/privacy">Privacy</a></li><li><a href="/imprint">Imprint</a></li><li><a href="/contact">Contact</a></li></ul></footer>
</body></html>
"""


def magazine(title, body, ctx, rng, head=""):
    recent = "".join(f'<li><a href="/posts/{i}/">{htmlmod.escape(t)}</a></li>' for i, t in enumerate(links(rng, ctx, 6)))
    tags = " ".join(f'<a href="/tag/{w}" class="tag-cloud-link">{w}</a>' for w in
                    ["linux", "python", "tutorial", "sysadmin", "networking", "security", "cloud", "devops", "tips"])
    return f"""<html><head><title>{htmlmod.escape(title)} - Learn with Example</title>{head}
<style>body {{ font-family: Georgia, serif; }} #primary {{ width: 70%; }}</style></head>
<body class="single-post">
<div id="page"><div id="masthead"><h1 class="site-title"><a href="/">Learn with Example</a></h1>
<p class="site-description">Tutorials, notes and references for working programmers</p>
<ul id="menu-primary"><li><a href="/">Home</a></li><li><a href="/python/">Python</a></li><li><a href="/linux/">Linux</a></li><li><a href="/about/">About</a></li></ul></div>
<div id="primary"><div class="post">
<div class="entry-meta">Posted in <a href="/python/">Tutorials</a> on March 3, 2024 by <a href="/author/editor/">editor</a></div>
<div class="entry-content">{body}</div>
<div class="share-buttons"><a href="https://twitter.example/share">Tweet</a> <a href="https://facebook.example/share">Share</a> <a href="mailto:?subject=article">Email</a></div></div>
<div id="comments"><h3>2 Responses</h3><ol class="commentlist"><li>Thanks, this was exactly what I was looking for. Bookmarked for later!</li><li>Could you write a follow-up about the advanced options? The defaults do not work for my setup.</li></ol></div></div>
<div id="secondary"><div class="widget"><h3>About this blog</h3><p>Learn with Example is written by a small team of engineers who have been running Linux servers and writing Python for twenty years. We collect the references we keep coming back to and publish them here for everyone. Questions and corrections are always welcome.</p></div>
<div class="widget"><h3>Recent posts</h3><ul>{recent}</ul></div>
<div class="widget"><h3>Tags</h3><p>{tags}</p></div></div>
<div id="colophon"><p>Proudly powered by a static site generator. Theme by Example Themes. Content licensed under the terms of its original authors.</p></div></div>
<script src="/js/analytics.js"></script></body></html>
"""


def tables(title, body, ctx, rng):
    """No semantic tags, no telling class names: boilerplate known only by length and links."""
    top = " | ".join(f'<a href="/copies/{i}">{w}</a>' for i, w in enumerate(["HOME", "ALL DOCS", "NEW", "TOP 100", "LINKS", "GUESTBOOK"]))
    left = "<br>".join(f'<a href="/copies/doc{i}">{htmlmod.escape(t)}</a>' for i, t in enumerate(links(rng, ctx, 12)))
    return f"""<HTML><HEAD><TITLE>{htmlmod.escape(title)} -- Docs Copies Archive</TITLE></HEAD>
<BODY BGCOLOR="#FFFFFF"><TABLE WIDTH="100%" CLASS="t0"><TR><TD COLSPAN=2 CLASS="c1"><FONT SIZE=5><B>Docs Copies Archive</B></FONT><BR>{top}</TD></TR>
<TR><TD WIDTH="20%" VALIGN=TOP CLASS="c2"><B>More documents:</B><BR>{left}<BR><BR>
<FONT SIZE=1><A HREF="http://www.banner-exchange.example/">Click here for cheap domain names and web hosting!!!</A><BR><A HREF="http://www.banner-exchange.example/2">Win a free laptop</A></FONT></TD>
<TD VALIGN=TOP CLASS="c3">{body}</TD></TR>
<TR><TD COLSPAN=2 CLASS="c4"><FONT SIZE=1>This page is an unofficial copy kept for archival purposes. The archive makes no claim to the documents it keeps; write to the webmaster to have a document removed. Best viewed with any browser at 800x600. You are visitor number 004217 since 1999.</FONT></TD></TR></TABLE></BODY></HTML>
"""


def forum(title, body, ctx, rng):
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{htmlmod.escape(title)} :: Planet Docs</title>
<script async src="https://ads.example/loader.js"></script></head><body>
<div class="topbar"><a href="/">Planet Docs</a> <a href="/login">Log in</a> <a href="/register">Register</a></div>
<div class="breadcrumbs"><a href="/">Planet</a> &raquo; <a href="/articles/">Articles</a> &raquo; {htmlmod.escape(title)}</div>
<div class="adsbygoogle" id="ad-top">Sponsored links: <a href="https://ads.example/1">Cheap flights</a> <a href="https://ads.example/2">Online degree</a> <a href="https://ads.example/3">Car insurance</a></div>
<div class="thread"><div class="post-header">Shared by <a href="/u/aggregator-bot">aggregator-bot</a> &middot; 3 points</div>
<div class="post-body">{body}</div>
<div class="post-footer"><a href="#">Reply</a> <a href="#">Quote</a> <a href="#">Report</a></div></div>
<div class="modal" id="signup-modal" style="display:none"><p>Join Planet Docs to follow your favourite topics, save articles for later and take part in the discussions. It only takes a minute and it is free forever.</p><a href="/register">Create an account</a></div>
<div class="footer-links"><a href="/rules">Rules</a> &middot; <a href="/faq">FAQ</a> &middot; <a href="/privacy">Privacy</a> &middot; &copy; Planet Docs 2024</div>
</body></html>
"""


TEMPLATES = {"portal": portal, "magazine": magazine, "tables": tables, "forum": forum}


def esc(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r").replace("\x00", "")


def main():
    every = "--every-template" in sys.argv[1:]
    pages = [json.loads(l) for l in gzip.open(os.path.join(HERE, "html", "pages.jsonl.gz"), "rt", encoding="utf-8")]
    arts = {}
    for p in pages:
        arts[(p["site"], p["path"])] = article(p["site"], p["html"])
    titles = [t for t, _ in arts.values()]
    rows = []

    def emit(url, p, template, html):
        rows.append((url, url.split("/")[2].lower().split(":")[0], f'{p["site"]}/{p["path"]}', template, html))

    def original_url(p):
        if p["site"] == "python-docs":
            return f'https://docs.python.example/3.11/{p["path"]}'
        return f'https://debian-handbook.example/browse/stable/{p["path"]}'

    def canonical_url(p):
        if p["site"] == "python-docs":
            return f'https://docs.python.example/3/{p["path"]}'
        return original_url(p)

    served = {}  # each page as its site serves it: the canonical link naming the crawl's host
    for i, p in enumerate(pages):
        title, body = arts[(p["site"], p["path"])]
        rng = random.Random(f'{p["site"]}/{p["path"]}')  # per page: sidebars link other pages
        if every:
            emit(original_url(p), p, "original", p["html"])
            emit(f'https://article.example/{p["site"]}/{p["path"]}', p, "article", body)
            for name, t in TEMPLATES.items():
                emit(f'https://{name}.example/{p["site"]}/{p["path"]}', p, name, t(title, body, titles, rng))
            continue
        html = served[p["path"]] = restate_canonical(p["html"], canonical_url(p))
        emit(original_url(p), p, "original", html)
        py = p["site"] == "python-docs"
        if py:
            emit(f'http://mirror.example.net/pub/python/3.11/{p["path"]}', p, "mirror", html)
            emit(f'https://learn.example.com/python/{p["path"]}', p, "magazine",
                 magazine(title, body, titles, rng, head=canonical_link(canonical_url(p))))
        else:
            url = f'https://www.handbook-mirror.example/debian-handbook/{p["path"]}'
            emit(url, p, "portal", portal(title, body, titles, rng, head=canonical_link(url)))
        emit(f'http://www.docs-copies.example/copies/{p["site"]}/{p["path"]}', p, "tables", tables(title, body, titles, rng))
        if i % 3 == 0:
            slug = p["path"].replace("/", "-").rsplit(".", 1)[0]
            emit(f'https://planet.example.org/articles/{slug}.html', p, "forum", forum(title, body, titles, rng))

    if not every:
        py_pages = [p for p in pages if p["site"] == "python-docs"]
        for j, p in enumerate(py_pages[::7][:24]):
            path = p["path"]
            d, f = path.rsplit("/", 1)
            variants = [
                f"HTTPS://Docs.Python.EXAMPLE/3.11/{path}",
                f"https://docs.python.example:443/3.11/{path}#{f.split('.')[0]}",
                f"https://docs.python.example/3.11/{d}/../{d}/./{f}?utm_source=newsletter&utm_medium=email",
                f"https://docs.python.example/3.11/{path};jsessionid=0A1B2C3D{j:02d}?b=2&a=1&fbclid=IwAR{j}",
                f"https://docs.python.example/3.11/{d}/%7E/../{f}?sid={j}&a=1&b=2",
            ]
            # other URLs of the same page, which only its canonical link joins; the version alias
            # for a third of them only: fewer than ndd_mirrors' 10 shared paths, so that /3/ is not
            # a mirror of the variants' other prefixes (http://docs.python.example:443/ when
            # test/scripts/loader_web.sh serves the https URLs as http)
            aliases = [f"https://docs.python.example/3.11/{path}?highlight={f.split('.')[0].split('-')[0]}"]
            if j % 3 == 0:
                aliases.append(f"https://docs.python.example/3/{path}")
            for u in variants[j % 3: j % 3 + 3] + aliases:
                emit(u, p, "variant", served[p["path"]])

    out = sys.stdout
    for r in rows:
        out.write("\t".join(esc(x) for x in r) + "\n")
    print(f"{len(rows)} pages", file=sys.stderr)


if __name__ == "__main__":
    main()
