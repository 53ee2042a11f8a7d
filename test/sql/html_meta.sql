-- ndd_html_meta (issue 29): what a page says about itself, each source of each field, the order
-- among sources, and pages that state nothing.
SELECT jsonb_pretty(ndd_html_meta($$<!DOCTYPE html><html lang="de-AT"><head>
<title>  Die   Brücke
 wird geschlossen </title>
<link rel="stylesheet" href="/s.css"><link rel="Canonical alternate" href="https://example.org/a/b?x=1">
<meta property="og:url" content="https://example.org/a/b">
<meta name="description" content="Der Gemeinderat &amp; die Brücke.">
<meta property="og:description" content="not this one: description comes first">
<meta property="article:published_time" content="2024-03-05T10:00:00+01:00">
<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2020-01-01"}</script>
</head><body><article><time datetime="2019-01-01">1. Jänner</time><p>Text.</p></article></body></html>$$));

-- published: itemprop datePublished (content, datetime or text), then JSON-LD, then <time> in <article>
SELECT ndd_html_meta('<div itemprop="datePublished" content="2021-02-03">3 Feb</div>')->>'published' AS itemprop_content,
       ndd_html_meta('<span itemprop="dateCreated datePublished">  May 4,
 2021 </span>')->>'published' AS itemprop_text,
       ndd_html_meta('<script type="application/ld+json">{"headline": "x", "datePublished" : "2022-06-07T08:09:10Z"}</script><article><time datetime="2000-01-01">x</time></article>')->>'published' AS json_ld,
       ndd_html_meta('<time datetime="1999-01-01">outside</time><article><p>x</p><time datetime="2023-10-11">in</time></article>')->>'published' AS time_in_article;

-- title from og:title when there is no <title>; language from content-language without lang
SELECT ndd_html_meta('<meta property="og:title" content="OG title"><meta http-equiv="Content-Language" content="fr">') AS og_fallbacks;

-- nothing stated: every key, each null; an empty page; NULL in, NULL out
SELECT ndd_html_meta('<p>just text</p>') AS nothing, ndd_html_meta('') AS empty, ndd_html_meta(NULL) IS NULL AS null_in;

-- the first of each kind wins; invalid UTF-8 cannot reach the database, but a 300 kB title is cut
-- to 2048 bytes at a character boundary
SELECT ndd_html_meta('<link rel=canonical href="/first"><link rel=canonical href="/second">')->>'canonical' AS first_canonical,
       octet_length(ndd_html_meta('<title>' || repeat('é', 150000) || '</title>')->>'title') AS title_bytes;

-- the same page under many URLs: the canonical link, normalized, names it (doc/web.md)
SELECT ndd_url_normalize(ndd_html_meta('<link rel="canonical" href="HTTPS://Example.ORG:443/a/b?utm_source=x&y=1#top">')->>'canonical') AS canonical_normalized;
