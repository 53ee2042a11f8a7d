#!/usr/bin/env python3
"""bench/quality/heldout_templates.py: real articles under site templates ndd_html_content was never
tuned on (issue 29: "the same page under unseen site templates within 3 bits for >= 95 %, different
pages of one site within 3 bits for <= 0.1 % of pairs"). Python 3 standard library only.

    python3 heldout_templates.py --tool build/html_extract [--data /work/webdev-data] [--keep DIR]

Articles (only those of at least 200 words count):
  read  the article HTML of Mozilla Readability's 130 test pages (expected.html: real news, blog and
        reference markup with its figures, lists, tables and quotes; real pages of their publishers,
        unpacked from ../shared/webdev, not in the repository)
  docs  the articles of the 298 documentation pages of test/data/html (as test/data/make_crawl.py
        cuts them: the Python docs' role="main" element, the handbook's chapter element)

Templates, five held out (written here, never used to tune anything) and the four of
test/data/make_crawl.py that ndd was tuned on (reference rows):
  newsroom   news site: mega-menu with section descriptions, breaking-news ticker, byline and share
             bar, "Read more" boxes between the article's paragraphs, a related-stories grid with
             teaser excerpts of other articles, a comment thread with long comments, a link-heavy footer
  blogroll   personal blog: sidebar widgets (about-me paragraph, recent posts with excerpts, archive,
             tag cloud, recent comments), author bio box, previous/next post, comments
  docsite    documentation site: version switcher, breadcrumbs, a long nested table of contents on
             the left (~80 links), "On this page" headings on the right, edit link, "Was this page
             helpful?" widget, previous/next, footer
  shop       e-commerce-like: the article as the "description" tab of a product page with price box,
             specifications table, customer reviews (long prose), "customers also bought" carousel
  divsoup    a client-rendered CMS: nothing but <div>s with hashed class names (css-modules style,
             no telling words), a consent dialog, a newsletter pop-up, and the next article's teaser
             (title and first paragraph) below, as infinite-scroll sites do

Reports, through simhash(ndd_html_content(html), 4) computed by the ndd core (bench/html_extract,
exactly what SQL computes):
  1. the same page under two templates within 3 bits: every pair of templates of one page, held-out
     pairs and tuned pairs apart
  2. each template against the bare article (the article alone in a minimal page) within 3 bits
  3. different pages of one site within 3 bits: every pair of distinct pages under one template
"""
import argparse
import glob
import html as htmlmod
import itertools
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "test", "data"))
sys.path.insert(0, HERE)
import make_crawl  # noqa: E402  (the four tuned templates and the docs articles)
from realpages_prepare import decode, html_text  # noqa: E402

WORD = re.compile(r"\w+")
esc = htmlmod.escape


def words(text, n):
    return " ".join(WORD.findall(text)[:n])


# ---- the reader comments and reviews every site reuses (per page, a seeded choice) ----
COMMENTS = [
    "I have been following this story for months and I have to say this is the most balanced piece I have read on it so far. "
    "What nobody seems to mention, though, is how much of this depends on decisions made years ago by people who are no longer "
    "in charge. We keep treating every new development as a surprise when the warning signs were all there.",
    "Great article, thanks.",
    "Not sure I agree with the conclusion. The numbers quoted in the middle section come from a single source and the author does "
    "not say how they were collected. I would like to see a follow-up that looks at the other side, because my own experience "
    "over the last ten years has been quite different from what is described here.",
    "Does anyone know whether this also applies to older versions? I tried the steps on my machine and got stuck halfway through.",
    "This is exactly why I stopped reading the mainstream coverage of the topic. Every outlet copies the same press release, adds "
    "a dramatic headline and moves on. Thank you for actually doing the work and talking to the people involved instead.",
    "Bookmarked. Sharing this with my team tomorrow morning.",
    "My grandfather used to tell me stories about exactly this kind of thing when I was a child, and I never really believed him "
    "until now. It is strange how history repeats itself, and how little we learn from it each time it comes around again.",
]

REVIEWS = [
    "I bought this for my daughter and she has been using it every day for three months now. The quality is much better than I "
    "expected for the price, the instructions were clear, and customer service answered my question within a day. Would buy again.",
    "Arrived two days late and the box was damaged, but the product itself works fine. Four stars because of the delivery.",
    "Honestly the best purchase I made this year. I compared it with two more expensive alternatives in a shop before ordering and "
    "could not tell the difference, except that this one is lighter and comes with a longer warranty. Highly recommended.",
    "Does what it says. Nothing more, nothing less.",
]


def teaser(ctx, rng, n):
    return rng.sample(ctx, min(n, len(ctx)))


def split_blocks(body):
    """The article's top-level paragraphs, to put boxes between them (as newsrooms do): splits after
    every third closing </p> that is followed by an opening <p, a naive cut that keeps the markup valid
    because it only cuts between sibling paragraphs."""
    parts = re.split(r"(?<=</p>)(\s*)(?=<p[ >])", body)
    chunks, cur, n = [], "", 0
    for p in parts:
        cur += p
        if p.rstrip().endswith("</p>"):
            n += 1
            if n % 3 == 0:
                chunks.append(cur)
                cur = ""
    chunks.append(cur)
    return [c for c in chunks if c]


def newsroom(title, body, ctx, rng):
    sections = ["World", "Politics", "Business", "Technology", "Science", "Health", "Sport", "Culture", "Opinion", "Travel"]
    mega = "".join(
        f'<li class="mega-item"><a href="/{s.lower()}">{s}</a><div class="mega-panel"><p class="mega-desc">'
        f'The latest {s.lower()} news, analysis and comment from our correspondents around the globe.</p><ul>'
        + "".join(f'<li><a href="/{s.lower()}/{j}">{esc(t)}</a></li>' for j, (t, _) in enumerate(teaser(ctx, rng, 4)))
        + "</ul></div></li>" for s in sections)
    ticker = " &bull; ".join(f'<a href="/live/{i}">{esc(t)}</a>' for i, (t, _) in enumerate(teaser(ctx, rng, 5)))
    boxes = []
    for i, (t, ex) in enumerate(teaser(ctx, rng, 3)):
        boxes.append(f'<aside class="inline-related"><span class="label">Read more</span> '
                     f'<a href="/story/{i}"><strong>{esc(t)}</strong></a></aside>')
    chunks = split_blocks(body)
    mixed = "".join(c + (boxes[i] if i < len(boxes) and i < len(chunks) - 1 else "") for i, c in enumerate(chunks))
    grid = "".join(f'<div class="story-card"><a href="/story/r{i}"><img src="/img/r{i}.jpg" alt=""><h3>{esc(t)}</h3></a>'
                   f'<p class="standfirst">{esc(ex)}</p><span class="time">{i + 2} hours ago</span></div>'
                   for i, (t, ex) in enumerate(teaser(ctx, rng, 6)))
    comments = "".join(f'<li class="comment"><div class="comment-author">reader{rng.randrange(1000)}</div>'
                       f'<div class="comment-body"><p>{esc(c)}</p></div><div class="comment-actions"><a href="#">Reply</a> '
                       f'<a href="#">Report</a> {rng.randrange(40)} likes</div></li>' for c in rng.sample(COMMENTS, 4))
    foot = "".join(f'<div class="foot-col"><h4>{s}</h4><ul>' + "".join(
        f'<li><a href="/{s.lower()}/{k}">{w}</a></li>' for k, w in enumerate(["Latest", "Analysis", "Video", "Podcasts", "Newsletters"]))
        + "</ul></div>" for s in sections)
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)} | The Daily Courier</title>
<meta property="og:title" content="{esc(title)}"><script>window.__INITIAL_STATE__={{"user":null,"edition":"intl","flags":{{"paywall":true}}}};</script>
<script src="/assets/app.4f9c2.js" defer></script><link rel="stylesheet" href="/assets/app.4f9c2.css"></head>
<body class="article-page">
<header class="masthead"><div class="top-strip"><a href="/subscribe">Subscribe from $1 a week</a> <a href="/login">Sign in</a> <span class="edition">International edition</span></div>
<a class="brand" href="/">The Daily Courier</a>
<nav class="mega-menu" aria-label="Sections"><ul>{mega}</ul></nav>
<div class="ticker"><span class="ticker-label">Breaking</span> {ticker}</div></header>
<main id="content"><article class="story">
<header class="story-header"><p class="kicker"><a href="/world">World</a></p><h1 class="headline">{esc(title)}</h1>
<p class="byline">By <a href="/profile/staff">Staff Reporter</a> and <a href="/profile/agency">News Agency</a> &middot; <time>Updated 14:32 GMT</time></p>
<div class="share-bar"><a href="#">Share on Facebook</a> <a href="#">Share on X</a> <a href="#">Email</a> <a href="#">Copy link</a> <span>{rng.randrange(50, 900)} comments</span></div></header>
<div class="story-body">{mixed}</div>
<footer class="story-footer"><p class="corrections">We strive for accuracy and fairness. If you see something that doesn't look right, contact our standards editor.</p>
<div class="topics">Topics: <a href="/t/1">Government</a> <a href="/t/2">Economy</a> <a href="/t/3">Society</a></div></footer>
</article>
<section class="related-stories"><h2>More from The Daily Courier</h2><div class="story-grid">{grid}</div></section>
<section class="comments" id="comments"><h2>Comments</h2><p class="comments-policy">Comments are moderated. Please keep the discussion civil and on topic.</p><ol>{comments}</ol><a class="load-more" href="#">Load more comments</a></section>
</main>
<footer class="site-footer">{foot}<p class="legal">&copy; 2025 The Daily Courier Media Group. All rights reserved. Registered in England and Wales. Use of this site constitutes acceptance of our terms of service and privacy policy. Our journalism is funded by readers like you.</p></footer>
</body></html>"""


def blogroll(title, body, ctx, rng):
    recent = "".join(f'<li><a href="/{2024 - i % 3}/{i:02d}/post-{i}/">{esc(t)}</a><p class="excerpt">{esc(words(ex, 25))}&hellip;</p></li>'
                     for i, (t, ex) in enumerate(teaser(ctx, rng, 5)))
    archive = "".join(f'<li><a href="/{y}/{m:02d}/">{["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][m - 1]} {y}</a> ({rng.randrange(1, 9)})</li>'
                      for y in (2024, 2023) for m in range(12, 0, -1))
    tags = " ".join(f'<a href="/tag/{t}" style="font-size:{rng.randrange(9, 22)}px">{t}</a>' for t in
                    ["travel", "cooking", "books", "photography", "family", "garden", "music", "diy", "running", "coffee", "life", "thoughts"])
    recent_comments = "".join(f'<li><span class="who">{n}</span> on <a href="/p/{i}">{esc(t)}</a>: &ldquo;{esc(words(c, 18))}&hellip;&rdquo;</li>'
                              for i, ((t, _), c, n) in enumerate(zip(teaser(ctx, rng, 3), rng.sample(COMMENTS, 3), ["Maria", "Tom", "anon"])))
    comments = "".join(f'<div class="comment" id="c{i}"><img class="avatar" src="/av/{i}.png"><b>{n}</b> <small>said on March {i + 3}, 2024 at {i + 9}:1{i} am</small><p>{esc(c)}</p><a class="reply" href="#">Reply</a></div>'
                       for i, (c, n) in enumerate(zip(rng.sample(COMMENTS, 3), ["Jenny", "Marc D.", "Oliver"])))
    (pt, _), (nt, _) = teaser(ctx, rng, 2)
    return f"""<html><head><meta charset="utf-8"><title>{esc(title)} &#8211; Notes from the Lake House</title>
<link rel="stylesheet" href="/wp-content/themes/lakehouse/style.css"><style>.widget{{margin:1em}}</style></head>
<body class="post-template-default single single-post">
<div id="wrapper"><div id="header"><h1 id="blog-title"><a href="/">Notes from the Lake House</a></h1><div id="blog-description">Slow living, good food and the occasional rant</div>
<div id="access"><ul class="menu"><li><a href="/">Home</a></li><li><a href="/about/">About me</a></li><li><a href="/recipes/">Recipes</a></li><li><a href="/travel/">Travel</a></li><li><a href="/contact/">Contact</a></li></ul></div></div>
<div id="container"><div id="content"><div class="post hentry">
<h2 class="entry-title">{esc(title)}</h2><div class="entry-date">Posted on March 2, 2024 by Anna &middot; <a href="#comments">3 comments</a></div>
<div class="entry-content">{body}</div>
<div class="entry-utility">This entry was posted in <a href="/c/life">Life</a> and tagged <a href="/tag/thoughts">thoughts</a>. Bookmark the <a href="#">permalink</a>.</div>
<div class="author-info"><img src="/me.jpg" alt=""><h3>About Anna</h3><p>Anna writes about food, books and everything in between from a small house by a lake. She has been blogging since 2009, when her first daughter was born, and still answers every comment herself. When she is not writing she is probably in the garden or on a long walk with the dog.</p></div>
<div class="navigation"><div class="nav-previous"><a href="/prev/">&larr; {esc(pt)}</a></div><div class="nav-next"><a href="/next/">{esc(nt)} &rarr;</a></div></div>
<div id="comments"><h3>3 Responses to &ldquo;{esc(title)}&rdquo;</h3>{comments}<div id="respond"><h3>Leave a Reply</h3><form><textarea></textarea><input type="submit" value="Post Comment"></form></div></div>
</div></div>
<div id="primary" class="widget-area"><ul class="xoxo">
<li class="widget"><h3 class="widget-title">Hello!</h3><p>I am Anna, a former teacher turned full-time writer. This little corner of the internet is where I share recipes I love, books that moved me and stories from our travels around Europe with two kids and a very patient husband. Grab a coffee and stay a while.</p></li>
<li class="widget"><h3 class="widget-title">Recent Posts</h3><ul>{recent}</ul></li>
<li class="widget"><h3 class="widget-title">Recent Comments</h3><ul>{recent_comments}</ul></li>
<li class="widget"><h3 class="widget-title">Archives</h3><ul>{archive}</ul></li>
<li class="widget"><h3 class="widget-title">Tags</h3><div class="tagcloud">{tags}</div></li>
<li class="widget"><h3 class="widget-title">Follow by email</h3><form><input type="email" placeholder="Your email"><button>Follow</button></form></li></ul></div>
<div id="footer"><p>&copy; 2024 Notes from the Lake House &middot; Proudly powered by WordPress &middot; Theme: Lakehouse by Example Themes.</p></div></div>
<script src="/wp-includes/js/wp-embed.min.js"></script></body></html>"""


def docsite(title, body, ctx, rng):
    groups = ["Getting started", "Installation", "Configuration", "User guide", "Administration", "API reference", "Tutorials", "FAQ"]
    toc = "".join(f'<li class="toctree-l1"><a class="reference internal" href="/{g.lower().replace(" ", "-")}/">{g}</a><ul>'
                  + "".join(f'<li class="toctree-l2"><a class="reference internal" href="/{g.lower().replace(" ", "-")}/{j}.html">{esc(t)}</a></li>'
                            for j, (t, _) in enumerate(teaser(ctx, rng, 9)))
                  + "</ul></li>" for g in groups)
    heads = re.findall(r"<h[23][^>]*>(.*?)</h[23]>", body, re.S)
    onpage = "".join(f'<li><a href="#s{i}">{esc(html_text(h))[:80]}</a></li>' for i, h in enumerate(heads[:15])) or f'<li><a href="#top">{esc(title)}</a></li>'
    (pt, _), (nt, _) = teaser(ctx, rng, 2)
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{esc(title)} &mdash; Project Handbook 4.2 documentation</title>
<link rel="stylesheet" href="/_static/theme.css"><script src="/_static/searchtools.js"></script><script>var DOCUMENTATION_OPTIONS={{VERSION:'4.2',LANGUAGE:'en'}};</script></head>
<body class="wy-body-for-nav"><div class="wy-grid-for-nav">
<nav data-toggle="wy-nav-shift" class="wy-nav-side"><div class="wy-side-scroll"><div class="wy-side-nav-search"><a href="/">Project Handbook</a>
<div class="version-switch"><select><option>4.2 (stable)</option><option>4.1</option><option>4.0</option><option>3.9</option><option>latest</option></select></div>
<form id="rtd-search-form" action="/search.html"><input type="text" name="q" placeholder="Search docs"></form></div>
<div class="wy-menu wy-menu-vertical" role="navigation" aria-label="Navigation menu"><p class="caption"><span class="caption-text">Contents</span></p><ul>{toc}</ul></div></div></nav>
<section class="wy-nav-content-wrap"><div class="wy-nav-content"><div class="rst-content">
<div role="navigation" aria-label="Page navigation"><ul class="wy-breadcrumbs"><li><a href="/">Docs</a> &raquo;</li><li><a href="/user-guide/">User guide</a> &raquo;</li><li>{esc(title)}</li>
<li class="wy-breadcrumbs-aside"><a href="https://git.example.org/handbook/edit/main/docs/page.rst">Edit on GitLab</a></li></ul><hr></div>
<div class="document"><div itemprop="articleBody">{body}</div></div>
<div class="page-feedback"><p>Was this page helpful?</p><button>Yes</button><button>No</button><p class="small">Thank you for your feedback! Help us improve this page by telling us what was missing or unclear, or open an issue in the tracker.</p></div>
<footer><div class="rst-footer-buttons"><a href="/prev.html" class="btn btn-neutral float-left" rel="prev">&larr; {esc(pt)}</a><a href="/next.html" class="btn btn-neutral float-right" rel="next">{esc(nt)} &rarr;</a></div>
<hr><p>&copy; Copyright 2014-2025, the Project Handbook contributors. Revision <code>a1b2c3d</code>. Built with a documentation generator using a theme provided by Example Docs.</p></footer>
</div></div></section>
<aside class="on-this-page"><p class="caption">On this page</p><ul>{onpage}</ul></aside>
</div></body></html>"""


def shop(title, body, ctx, rng):
    cats = ["Electronics", "Home &amp; Garden", "Fashion", "Toys", "Sports", "Books", "Health", "Automotive"]
    catnav = "".join(f'<li><a href="/c/{i}">{c}</a></li>' for i, c in enumerate(cats))
    specs = "".join(f'<tr><th>{k}</th><td>{v}</td></tr>' for k, v in [
        ("Item number", f"{rng.randrange(10**7, 10**8)}"), ("Weight", f"{rng.randrange(1, 90) / 10} kg"),
        ("Dimensions", f"{rng.randrange(10, 60)} x {rng.randrange(10, 60)} x {rng.randrange(2, 20)} cm"),
        ("Colour", rng.choice(["Black", "White", "Blue", "Graphite"])), ("Warranty", "2 years"), ("In the box", "Product, manual, cable")])
    reviews = "".join(f'<div class="review"><div class="stars">{"&#9733;" * s}{"&#9734;" * (5 - s)}</div><div class="review-meta">Verified purchase &middot; {n}</div><p>{esc(r)}</p><div class="helpful">{rng.randrange(60)} people found this helpful</div></div>'
                      for (r, s, n) in zip(rng.sample(REVIEWS, 3), [5, 4, 5], ["Karen S.", "M. Ali", "peterk"]))
    also = "".join(f'<div class="product-tile"><a href="/p/{i}"><img src="/img/p{i}.jpg" alt=""><span class="product-name">{esc(t)}</span></a><span class="price">${rng.randrange(5, 300)}.99</span><button>Add to cart</button></div>'
                   for i, (t, _) in enumerate(teaser(ctx, rng, 8)))
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)} - Buy online | MegaMart</title>
<script type="application/ld+json">{{"@context":"https://schema.org","@type":"Product","name":"{esc(title)}","offers":{{"@type":"Offer","priceCurrency":"USD","price":"49.99"}}}}</script>
<script>(function(){{var s=document.createElement('script');s.src='/tag.js';document.head.appendChild(s)}})();</script></head>
<body><div class="promo-bar">Free shipping on orders over $35 &middot; 30-day returns &middot; <a href="/deals">Today's deals</a></div>
<header><a class="logo" href="/">MegaMart</a><form class="search"><select><option>All departments</option></select><input name="k"><button>Go</button></form>
<a href="/account">Account &amp; Lists</a> <a href="/orders">Returns &amp; Orders</a> <a href="/cart">Cart (0)</a><nav class="dept"><ul>{catnav}</ul></nav></header>
<div class="product-page"><div class="breadcrumb"><a href="/">Home</a> &rsaquo; <a href="/c/6">Books</a> &rsaquo; <a href="/c/6/1">Non-fiction</a></div>
<div class="product-top"><div class="gallery"><img src="/img/main.jpg" alt="{esc(title)}"></div>
<div class="buy-box"><h1 class="product-title">{esc(title)}</h1><div class="rating">&#9733;&#9733;&#9733;&#9733;&#9734; <a href="#reviews">{rng.randrange(20, 4000)} ratings</a></div>
<div class="price-box"><span class="price">$49.99</span> <span class="was">$69.99</span> <span class="save">Save 29%</span></div>
<p class="stock">In stock. Usually ships within 24 hours.</p><select><option>Qty: 1</option></select><button class="add-to-cart">Add to Cart</button><button>Buy Now</button>
<p class="small">Sold by MegaMart Retail and fulfilled by MegaMart. Returns are free within 30 days of delivery for most items.</p></div></div>
<div class="tabs"><ul class="tab-list"><li class="active"><a href="#description">Description</a></li><li><a href="#specs">Specifications</a></li><li><a href="#reviews">Reviews</a></li></ul>
<div id="description" class="tab-panel">{body}</div>
<div id="specs" class="tab-panel"><table class="spec-table">{specs}</table></div>
<div id="reviews" class="tab-panel"><h2>Customer reviews</h2>{reviews}<a href="#">See all reviews</a></div></div>
<div class="carousel"><h2>Customers who bought this item also bought</h2><div class="carousel-track">{also}</div></div></div>
<footer><div class="back-to-top"><a href="#">Back to top</a></div><ul class="foot-links"><li><a href="/careers">Careers</a></li><li><a href="/press">Press</a></li><li><a href="/sell">Sell on MegaMart</a></li><li><a href="/affiliate">Become an affiliate</a></li><li><a href="/help">Help</a></li><li><a href="/shipping">Shipping rates</a></li><li><a href="/returns">Returns</a></li></ul>
<p>&copy; 1999-2025 MegaMart.example, Inc. or its affiliates. Conditions of use. Privacy notice. Consumer health data privacy disclosure. Your ads privacy choices.</p></footer>
</body></html>"""


def divsoup(title, body, ctx, rng):
    def c():  # a css-modules class name: no words to go by
        return f"sc-{rng.randrange(16**6):06x} {''.join(rng.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(6))}"
    nav = "".join(f'<div class="{c()}"><a class="{c()}" href="/{w.lower()}">{w}</a></div>' for w in
                  ["Home", "Latest", "Trending", "Video", "Newsletters", "Podcasts", "Events", "Shop"])
    (nt, nex), = teaser(ctx, rng, 1)
    trending = "".join(f'<div class="{c()}"><div class="{c()}">{i + 1}</div><a class="{c()}" href="/t/{i}">{esc(t)}</a></div>'
                       for i, (t, _) in enumerate(teaser(ctx, rng, 5)))
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>{esc(title)}</title>
<script id="__NEXT_DATA__" type="application/json">{{"props":{{"pageProps":{{"slug":"story","ads":true}}}},"buildId":"x9Yz"}}</script>
<script>self.__next_f=self.__next_f||[];self.__next_f.push([1,"a:I[4707,[],\\"\\"]\\n"]);</script></head>
<body><div id="__next"><div class="{c()}"><div class="{c()}"><div class="{c()}"><a class="{c()}" href="/">PULSE</a></div><div class="{c()}">{nav}</div></div>
<div class="{c()}" role="dialog"><div class="{c()}"><div class="{c()}">We value your privacy</div><div class="{c()}">We and our 847 partners store and access information on your device, such as cookies, and process personal data, such as unique identifiers and browsing data, for personalised advertising and content, advertising and content measurement, audience research and services development.</div><div class="{c()}"><div class="{c()}">I accept</div><div class="{c()}">Show purposes</div></div></div></div>
<div class="{c()}"><div class="{c()}"><div class="{c()}"><div class="{c()}">{esc(title)}</div><div class="{c()}">By The Pulse Desk &middot; 6 min read</div></div>
<div class="{c()}">{body}</div>
<div class="{c()}"><div class="{c()}">Trending now</div>{trending}</div></div>
<div class="{c()}"><div class="{c()}">Get the Pulse newsletter</div><div class="{c()}">The stories everyone will be talking about tomorrow, in your inbox every morning before 7am. Free, and you can unsubscribe at any time with one click.</div><div class="{c()}"><input type="email"><div class="{c()}">Sign up</div></div></div>
<div class="{c()}"><div class="{c()}">Up next</div><div class="{c()}"><a class="{c()}" href="/next">{esc(nt)}</a></div><div class="{c()}">{esc(words(nex, 60))}</div><div class="{c()}">Continue reading</div></div></div>
<div class="{c()}"><div class="{c()}">&copy; 2025 Pulse Media. All rights reserved.</div><div class="{c()}"><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/ads">Ad choices</a></div></div></div></div>
<script src="/_next/static/chunks/main-3f2a.js" async></script></body></html>"""


HELDOUT = {"newsroom": newsroom, "blogroll": blogroll, "docsite": docsite, "shop": shop, "divsoup": divsoup}
TUNED = make_crawl.TEMPLATES  # portal, magazine, tables, forum: what ndd was tuned on


def articles(data):
    """[(set, id, title, article_html)] of both article sources."""
    out = []
    for ex in sorted(glob.glob(os.path.join(data, "readability-test-pages-*", "test", "test-pages", "*", "expected.html"))):
        pid = os.path.basename(os.path.dirname(ex))
        body = decode(open(ex, "rb").read())
        body = re.sub(r'^\s*<div id="readability-page-1" class="page">', "<div>", body)
        txt = html_text(body)
        m = re.search(r"<h[12][^>]*>(.*?)</h[12]>", body, re.S)
        title = html_text(m.group(1)) if m else words(txt, 8)
        out.append(("read", pid, title or pid, body))
    import gzip
    import json
    for line in gzip.open(os.path.join(ROOT, "test", "data", "html", "pages.jsonl.gz"), "rt", encoding="utf-8"):
        p = json.loads(line)
        title, body = make_crawl.article(p["site"], p["html"])
        out.append(("docs", f'{p["site"]}/{p["path"]}', title, body))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default="build/html_extract")
    ap.add_argument("--data", default="/work/webdev-data")
    ap.add_argument("--keep", help="write the generated pages here (else a temporary directory)")
    ap.add_argument("--k", type=int, default=3)
    a = ap.parse_args()
    arts = articles(a.data)
    work = a.keep or tempfile.mkdtemp(prefix="ndd-heldout.")
    os.makedirs(work, exist_ok=True)
    files, keys, nwords = [], [], {}
    for src in ("read", "docs"):
        group = [x for x in arts if x[0] == src]
        # teasers and menus of a page link the other pages of its set: title and first 40 words
        ctx_all = [(t, words(html_text(b), 40)) for _, _, t, b in group]
        for i, (_, pid, title, body) in enumerate(group):
            nwords[(src, pid)] = len(WORD.findall(html_text(body)))
            ctx = ctx_all[:i] + ctx_all[i + 1:]
            pages = {"bare": f"<html><head><title>{esc(title)}</title></head><body>{body}</body></html>"}
            for name, t in HELDOUT.items():
                pages[name] = t(title, body, ctx, random.Random(f"{src}/{pid}/{name}"))
            for name, t in TUNED.items():  # make_crawl's templates take the other pages' titles
                pages[name] = t(title, body, [x for x, _ in ctx], random.Random(f"{src}/{pid}/{name}"))
            for name, html in pages.items():
                f = os.path.join(work, f"{len(files):05d}.html")
                with open(f, "w", encoding="utf-8") as fh:
                    fh.write(html)
                files.append(f)
                keys.append((src, pid, name))
    sh, fallback = {}, {}
    for i in range(0, len(files), 500):
        res = subprocess.run([a.tool, *files[i:i + 500]], check=True, capture_output=True, text=True).stdout.splitlines()
        for key, line in zip(keys[i:i + 500], res):
            f = line.split("\t")
            sh[key], fallback[key] = int(f[4], 16), int(f[7])

    def d(x, y):
        return bin(sh[x] ^ sh[y]).count("1")

    k = a.k
    templates = list(HELDOUT) + list(TUNED)
    print(f"# python3 bench/quality/heldout_templates.py   (simhash(ndd_html_content(html), 4) through the ndd core; k = {k};"
          f" articles of >= 200 words: read = Readability's test pages' articles, docs = test/data/html)")
    for src in ("read", "docs"):
        pids = sorted(p for (s, p) in nwords if s == src and nwords[(s, p)] >= 200)
        print(f"\n## {src}: {len(pids)} articles of >= 200 words")
        print("| comparison | pairs | within k | median bits |")
        print("|---|---|---|---|")
        for label, pool in (("held-out x held-out", list(HELDOUT)), ("tuned x tuned", list(TUNED))):
            ds = [d((src, p, x), (src, p, y)) for p in pids for x, y in itertools.combinations(pool, 2)]
            print(f"| same page, two {label} templates | {len(ds)} | {100 * sum(v <= k for v in ds) / len(ds):.1f} % | {statistics.median(ds):g} |")
        print("\n| template | vs bare article: within k | median bits | falls back to whole text | different pages of the site within k |")
        print("|---|---|---|---|---|")
        for t in templates:
            ds = [d((src, p, "bare"), (src, p, t)) for p in pids]
            fb = sum(fallback[(src, p, t)] for p in pids)
            pairs = [d((src, p, t), (src, q, t)) for p, q in itertools.combinations(pids, 2)]
            close = sum(v <= k for v in pairs)
            print(f"| {t}{'' if t in HELDOUT else ' (tuned)'} | {100 * sum(v <= k for v in ds) / len(ds):.1f} % | {statistics.median(ds):g} |"
                  f" {fb} | {close} of {len(pairs)} ({100 * close / len(pairs):.2f} %) |")
        worst = sorted(((d((src, p, "bare"), (src, p, t)), p, t) for p in pids for t in HELDOUT), reverse=True)[:8]
        print("worst held-out copies (bits, page, template): " + "; ".join(f"{b} {p} {t}" for b, p, t in worst))
    if not a.keep:
        for f in files:
            os.remove(f)
        os.rmdir(work)


if __name__ == "__main__":
    main()
