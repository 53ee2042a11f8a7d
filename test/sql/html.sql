-- ndd_html_text and ndd_html_content (issue 22, point 1): each rule of doc/web.md on a small page,
-- the boilerplate families, the no-main-content fallback, broken and hostile HTML. The outputs are
-- frozen: a change in them changes stored texts and fingerprints (a new function name, not an edit).

-- dropped: script, style, template, noscript, head (title), comments, hidden elements
SELECT ndd_html_text('<html><head><title>Title</title><style>p {}</style><script>var x;</script></head>'
  || '<body><p>kept</p><script>alert(1)</script><!-- a comment --><template>tpl</template>'
  || '<noscript>enable js</noscript><div hidden>hidden</div><span aria-hidden="true">icon</span>'
  || '<iframe>frame</iframe><p>also kept</p></body></html>');
-- character references: named, numeric, hex; invalid numeric ones dropped; unknown named kept
SELECT ndd_html_text('<p>&amp; &lt;tag&gt; &quot;q&quot; &eacute;t&eacute; &#233;&#xE9; &euro;&nbsp;5 &#0;&#xD800;&#x110000;|&bogus; &copy;</p>');
-- blocks separate words and lines; inline elements do not
SELECT ndd_html_text('<div>one</div><div>two<br>three</div><p>fo<b>u</b>r <i>five</i></p><ul><li>six<li>seven</ul>'
  || '<table><tr><td>c1</td><td>c2</td></tr><tr><th>h</th></tr></table><h1>head</h1>tail');
-- whitespace collapsed (spaces, tabs, newlines, no-break spaces), no empty lines
SELECT ndd_html_text(E'<p>  a \t\n b&nbsp;&nbsp;c  </p>\n\n<p>   </p><div> <span> d </span> </div>');
-- a <meta charset> is ignored: the text was decoded when it entered the database
SELECT ndd_html_text('<meta charset="iso-8859-1"><p>naïve café 日本語</p>');
-- empty and text-only input, NULL
SELECT ndd_html_text('') AS empty, ndd_html_text('plain text') AS plain, ndd_html_text(NULL) IS NULL AS null_in;

-- ndd_html_content: the boilerplate families. One page, its article between navigation, a cookie
-- banner, an ad block, a sidebar of links, a footer; every family is left out.
CREATE TABLE html_pages (name text PRIMARY KEY, html text NOT NULL);
INSERT INTO html_pages VALUES ('semantic', $$<html><body>
<div class="cookie-banner"><p>We use cookies to improve your experience and to show you personalised advertising. By continuing to browse you agree to our use of cookies and to our privacy policy.</p><button>OK</button></div>
<header><a href="/">Site</a> <nav><a href="/a">News</a> <a href="/b">Sport</a> <a href="/c">Weather</a></nav></header>
<main><h1>The article title</h1>
<p>The first paragraph of the article is long enough to count as content on its own: it has well over two hundred characters of running text with only <a href="/ref">one link</a> in it, as an article paragraph would have.</p>
<p>Short line.</p>
<p>The second paragraph goes on with more running text, again long enough to be content by its length alone, and it ends the article. Nothing after it belongs to the article, so everything after it should go.</p></main>
<aside><h3>Popular</h3><ul><li><a href="/1">First popular story of the week</a></li><li><a href="/2">Second popular story</a></li></ul>
<div class="ad-slot">Sponsored: <a href="https://ads.example/">buy the best servers now with free shipping</a></div></aside>
<footer><p>Copyright 2024 Example Media. All rights reserved. Terms of use, privacy policy and the imprint apply to every page of this site and to every article published on it.</p></footer>
</body></html>$$);
-- the same article in a layout of tables without one telling tag or class: length and link density
INSERT INTO html_pages VALUES ('tables', $$<table><tr><td><a href="/">HOME</a> | <a href="/x">ALL</a> | <a href="/y">NEW</a></td></tr>
<tr><td><a href="/1">First popular story of the week</a><br><a href="/2">Second popular story</a><br><a href="/3">Third story</a></td>
<td><h1>The article title</h1>
<p>The first paragraph of the article is long enough to count as content on its own: it has well over two hundred characters of running text with only <a href="/ref">one link</a> in it, as an article paragraph would have.</p>
<p>Short line.</p>
<p>The second paragraph goes on with more running text, again long enough to be content by its length alone, and it ends the article. Nothing after it belongs to the article, so everything after it should go.</p></td></tr>
<tr><td><a href="/t">Terms</a> | <a href="/p">Privacy</a> | <a href="/c">Contact</a></td></tr></table>$$);
-- class and id words, and ARIA roles, name boilerplate without semantic tags
INSERT INTO html_pages VALUES ('classes', $$<div id="sidebar"><p>A sidebar paragraph that is long and has no links at all, so only its id tells that it is not part of the article: it describes the site and its authors in many words.</p></div>
<div class="post-content"><p>The only paragraph of this article is long enough to count as content on its own: it has well over two hundred characters of running text with only <a href="/ref">one link</a> in it, as an article paragraph would have. It ends here.</p></div>
<div role="contentinfo"><p>A contentinfo landmark paragraph that is long and has no links at all, so only its role tells that it is the page footer and not part of the article at all.</p></div>
<div class="newsletter-signup"><p>Subscribe to our newsletter to get the best articles every week in your inbox, free of charge and without any advertising, cancel at any time.</p></div>$$);
-- no identifiable main content (only short lines and links): the whole text, not nothing
INSERT INTO html_pages VALUES ('no_content', '<ul><li><a href="/a">Home</a></li><li><a href="/b">About</a></li></ul><p>Hello.</p>');
INSERT INTO html_pages VALUES ('empty', '');
SELECT name, ndd_html_content(html) FROM html_pages ORDER BY name;
-- the content is a subset of the text, in the same order
SELECT name, position(ndd_html_content(html) IN ndd_html_text(html)) > 0 OR ndd_html_content(html) = '' AS in_text
FROM html_pages WHERE name IN ('no_content', 'empty') ORDER BY name;
-- the same article under two unrelated templates: the same content, the same fingerprint
SELECT a.ndd_html_content = b.ndd_html_content AS same_content,
       simhash(a.ndd_html_content, 4) <~> simhash(b.ndd_html_content, 4) AS content_bits,
       simhash(a.html, 4) <~> simhash(b.html, 4) AS raw_html_bits
FROM (SELECT html, ndd_html_content(html) FROM html_pages WHERE name = 'semantic') a,
     (SELECT html, ndd_html_content(html) FROM html_pages WHERE name = 'tables') b;
-- frozen fingerprints of the content
SELECT name, simhash(ndd_html_content(html), 4) AS content_fp, simhash(ndd_html_text(html), 4) AS text_fp
FROM html_pages ORDER BY name;

-- usable everywhere a text is: a generated column (IMMUTABLE), an expression index, the batch pairs
CREATE TABLE html_docs (id bigint PRIMARY KEY, html text,
  content text GENERATED ALWAYS AS (ndd_html_content(html)) STORED);
INSERT INTO html_docs (id, html) SELECT row_number() OVER (ORDER BY name), html FROM html_pages;
CREATE INDEX ON html_docs USING ndd (simhash(ndd_html_content(html), 4));
SELECT id, left(content, 30) AS content FROM html_docs ORDER BY id;
SELECT * FROM ndd_jaccard_pairs('SELECT id, ndd_html_content(html) FROM html_docs', 0.8) ORDER BY a, b;
SELECT provolatile, proparallel, proisstrict FROM pg_proc WHERE proname IN ('ndd_html_text', 'ndd_html_content');

-- broken and hostile HTML: an answer, never a crash
SELECT ndd_html_text('<p>one<p>two<li>three<table><tr><td>four<td>five<b><i>six</b>seven</i><div>eight');
SELECT ndd_html_text('</p></div></body></html>text after the end</html><p>more');
SELECT ndd_html_text('<scr<script>ipt>x</script><p>a<!-- unclosed comment <p>b');
SELECT ndd_html_text('<a href="x>broken attribute</a><p>after');
-- 100,000 nested elements, closed and unclosed: no recursion, no stack overflow
SELECT ndd_html_text(repeat('<div>', 100000) || 'deep' || repeat('</div>', 100000)) AS closed,
       ndd_html_content(repeat('<div><span>', 100000) || 'deep unclosed') AS unclosed;
-- a huge attribute (10 MB) and a long page (10 MB)
SELECT ndd_html_text('<div class="' || repeat('a', 10000000) || '">x</div>') AS huge_attribute;
SELECT length(ndd_html_text(repeat('<p>word &amp; <a href="/x">link</a></p>', 300000))) AS long_page_chars;

-- raw-text elements end only at their own end tag, as in HTML5 (issue 29): script text never leaks
SELECT ndd_html_text('<div><p>before</p><script>var x=''<a><div class="a"></div></a>''; var y=1;</script><p>after</p></div>') AS script_with_tags;
SELECT ndd_html_text('<div><script>if (a</b) z();</script><p>after</p></div>') AS script_with_less_than;
SELECT ndd_html_text('<style>p::after{content:''</p>''}</style><script type="text/template"><div class="modal">Cookie</div></script><p>article</p>') AS style_and_template;
SELECT ndd_html_text('<p>x</p><textarea>a <b>bold</b> &amp; </div> z</textarea><xmp><i>as written</i> &amp;</xmp><title>t</title x><p>y') AS escapable_and_raw;
SELECT ndd_html_content('<article><p>' || repeat('Words of the article in a paragraph. ', 10) || '</p><script>var s = ''<div class="x"></div>'' + ''' || repeat('j', 500) || ''';</script></article>') = rtrim(repeat('Words of the article in a paragraph. ', 10)) AS content_without_script;
-- hostile pages of issue 31, small: bounded attributes, stray end tags against a deep stack,
-- parser restarts (html_linear.sh scales them and checks linear time and cancellation)
SELECT length(ndd_html_text('<p ' || string_agg('a' || i || '=1 ', '') || '>x')) AS many_attributes FROM generate_series(1, 20000) i;
SELECT ndd_html_text(repeat('<b>', 30000) || repeat('</x>', 3000) || 'y') AS stray_end_tags;
SELECT ndd_html_text(repeat('</', 32000) || 'z') AS restarts;
SELECT ndd_html_text('a<p>b' || chr(1) || '</html>c</body><p>d') AS after_the_end;
-- a start tag left open inside an element whose content is dropped hides nothing after that element
-- (parcoabruzzo.it in trafilatura's test set gave '' for a 69 kB page: <noscript><div ...></noscript>)
SELECT ndd_html_text('<html><body><noscript><div id="x"></noscript><div><p>visible text</p></div></body></html>') AS noscript_open_div;
SELECT ndd_html_text('<p>before</p><template><div><table><tr><td>x</template><p>after</p>') AS template_open_table,
       ndd_html_text('<p>before</p><span hidden><div>x<p>y</span><p>after</p>') AS hidden_open_div,
       ndd_html_text('<p>before</p><span aria-hidden="true"><ul><li>x</span><p>after</p>') AS aria_hidden_open_list,
       ndd_html_text('<p>before</p><iframe><div></iframe><p>after</p>') AS iframe_open_div;
-- issue 29, real pages (branch realpages3): a list of items (three or more sibling elements of one
-- tag and first class: reviews, comments, teaser cards) beside the article is not the article's;
-- the page's title above a byline, outside the article's element, is not the article's text; a
-- page that is the article alone keeps its every section
SELECT ndd_html_content($$<html><body><header><a href="/">Lamp Shop</a> <a href="/cart">Cart</a></header><div class="tabs"><div class="panel"><p>The lamp is made of brushed steel, with a linen shade, and it gives a warm, even light over a desk or a reading chair.</p><p>Its arm turns in two joints, so that the light falls where it is needed, and the base is heavy enough to stay put.</p><p>A switch on the cable, a two-metre cord and a bulb are included; the shade can be washed by hand.</p></div><div class="panel"><h2>Customer reviews</h2><div class="review"><div>5 stars</div><p>Bought it for my study, three months ago, and it still works well.</p></div><div class="review"><div>4 stars</div><p>Bought it for my study, three months ago, and it still works well.</p></div><div class="review"><div>5 stars</div><p>Bought it for my study, three months ago, and it still works well.</p></div></div><div class="panel"><table><tr><th>Weight</th><td>2 kg</td></tr><tr><th>Colour</th><td>Black</td></tr></table></div></div><footer><a href="/help">Help</a> <a href="/terms">Terms</a></footer></body></html>$$) AS description_without_reviews;
SELECT ndd_html_content($$<html><body><div class="post"><h2>The lamp on my desk</h2><div>Posted on March 2 by Anna</div><div class="text"><p>The lamp is made of brushed steel, with a linen shade, and it gives a warm, even light over a desk or a reading chair.</p><p>Its arm turns in two joints, so that the light falls where it is needed, and the base is heavy enough to stay put.</p><p>A switch on the cable, a two-metre cord and a bulb are included; the shade can be washed by hand.</p></div></div></body></html>$$) AS article_without_page_title;
SELECT ndd_html_content($$<html><body><div><div><h2>A lamp for reading</h2><p>It came in a flat box.</p></div><div><p>The lamp is made of brushed steel, with a linen shade, and it gives a warm, even light over a desk or a reading chair.</p><p>Its arm turns in two joints, so that the light falls where it is needed, and the base is heavy enough to stay put.</p><p>A switch on the cable, a two-metre cord and a bulb are included; the shade can be washed by hand.</p></div><div><p>A switch on the cable, a two-metre cord and a bulb are included; the shade can be washed by hand.</p><p>It is the best lamp I have had.</p></div></div></body></html>$$) AS bare_article_every_section;
-- issue 29, JSON-LD (branch jsonld): the page's own articleBody is evidence, not output. With a
-- full statement the caption, the "read also" line and the author box (no word of it) go; a
-- statement cut at its first characters says nothing of what follows its end; escaped HTML in it
-- reads as the same text; a statement that is no article (Organization), invalid JSON, hostile
-- nesting and a script of another type change nothing
CREATE TEMP TABLE jsonld_page AS SELECT $$<html><head>LD</head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>The river rose overnight</h1><p>The river rose by two metres overnight, flooding the lower town and cutting the road to the coast, officials said on Tuesday morning.</p><div class="pic"><img src="a.jpg"><div>Photograph by the agency, used with permission of its owners</div></div><p>Residents were moved to the school on the hill, where volunteers served soup and blankets through the night, the mayor said.</p><p>Read also: how the last flood changed the town forever and what was learned</p><p>Engineers will inspect the bridge when the water falls, which may take until the end of the week, according to the regional office.</p><p>The forecast promises dry weather from Thursday, and the schools of the lower town stay closed until further notice from the council.</p><div class="writer-bio"><p>Jane Doe writes about weather, rivers and the people who live beside them for the paper since long ago.</p></div></article></body></html>$$ AS page,
  'The river rose by two metres overnight, flooding the lower town and cutting the road to the coast, officials said on Tuesday morning. Residents were moved to the school on the hill, where volunteers served soup and blankets through the night, the mayor said. Engineers will inspect the bridge when the water falls, which may take until the end of the week, according to the regional office. ' AS three,
  'The forecast promises dry weather from Thursday, and the schools of the lower town stay closed until further notice from the council.' AS fourth;
SELECT ndd_html_content(replace(page, 'LD', '')) AS without_json_ld FROM jsonld_page;
SELECT ndd_html_content(replace(page, 'LD', '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":"NewsArticle","headline":"The river","articleBody":"' || three || fourth || '"}]}</script>')) AS full_article_body FROM jsonld_page;
SELECT ndd_html_content(replace(page, 'LD', '<script type="application/ld+json">{"@type":"Article","articleBody":"' || three || 'The forecast promises dry"}</script>')) AS cut_article_body FROM jsonld_page;
SELECT ndd_html_content(replace(page, 'LD', '<script type="application/ld+json">{"@type":"Article","articleBody":"' || three || fourth || '"}</script>'))
     = ndd_html_content(replace(page, 'LD', '<script type="application/ld+json">{"@type":"Article","articleBody":"&lt;p&gt;' || replace(three, '. ', '.&lt;/p&gt;&lt;p&gt;') || fourth || '&lt;/p&gt;"}</script>')) AS escaped_html_reads_the_same
FROM jsonld_page;
SELECT ndd_html_content(replace(page, 'LD', s)) = ndd_html_content(replace(page, 'LD', '')) AS no_change
FROM jsonld_page, LATERAL (VALUES ('<script type="application/ld+json">{"@type":"Organization","articleBody":"' || three || fourth || '"}</script>'),
                          ('<script type="application/ld+json">{"@type":"Article","articleBody":"' || three || fourth || '"</script>'),
                          ('<script type="application/ld+json">{"@type":"Article","articleBody":"' || three || fourth || '","x":' || repeat('[', 100000) || '</script>'),
                          ('<script type="application/json">{"@type":"Article","articleBody":"' || three || fourth || '"}</script>')) AS v(s);
-- issue 29, index pages (branch docindex): a documentation index (a heading, an intro, then the
-- chapter's table of contents as a long list of links) gives its heading and intro whatever the
-- template: the list is the intro's own, so neither reviews beside it, nor an author box around
-- it, nor the share of the page its links take (the intro is under 5 % of this page's text) wins
-- over the intro; the list's links stay out of the content, as every link list's do
CREATE TEMP TABLE index_pages (template text, html text);
INSERT INTO index_pages
SELECT t.template, replace(t.html, '{body}', '<section><h1>Program Frameworks</h1><p>The modules described in this chapter are frameworks that will largely dictate the structure of your program, oriented toward writing command-line interfaces.</p><p>The full list of modules described in this chapter is:</p><ul>'
       || (SELECT string_agg(format('<li><a href="m%s.html">module%s: a module of this chapter</a></li>', i, i), '') FROM generate_series(1, 120) i)
       || '</ul></section>')
FROM (VALUES
  ('bare', '<html><body>{body}</body></html>'),
  ('shop', '<html><body><div class="product"><div class="buy"><h1>Gift set</h1><p>$49.99, in stock</p></div><div class="tabs"><div class="tab-panel">{body}</div><div class="tab-panel"><h2>Customer reviews</h2>'
           || repeat('<div class="review"><div>5 stars</div><p>I bought this for my daughter and she has been using it every day for three months now. The quality is much better than I expected for the price, the instructions were clear, and customer service answered within a day.</p></div>', 3)
           || '</div></div></div></body></html>'),
  ('blog', '<html><body><div id="main"><div class="post"><h2>Program Frameworks</h2><div>Posted on March 2, 2024 by Anna</div><div class="entry-text">{body}</div><div class="author-info"><h3>About Anna</h3><p>Anna writes about food, books and everything in between from a small house by a lake. She has been blogging since 2009, when her first daughter was born, and still answers every comment herself.</p></div></div></div></body></html>')
) t(template, html);
SELECT template, ndd_html_content(html) FROM index_pages ORDER BY template;
SELECT count(DISTINCT ndd_html_content(html)) AS distinct_contents,
       bool_and(ndd_html_content(html) NOT LIKE '%module1:%') AS list_links_left_out
FROM index_pages;
-- issue 29 (branch realpages4): a list item's name is its outermost element that carries a class:
-- <li><div class="opinion"> repeated is a list of opinions, not of class-less <li>s
SELECT ndd_html_content($$<html><body><header><a href="/">Lamp Shop</a> <a href="/cart">Cart</a></header><div class="tabs"><div class="panel"><p>The lamp is made of brushed steel, with a linen shade, and it gives a warm, even light over a desk or a reading chair.</p><p>Its arm turns in two joints, so that the light falls where it is needed, and the base is heavy enough to stay put.</p><p>A switch on the cable, a two-metre cord and a bulb are included; the shade can be washed by hand.</p></div><div class="panel"><h2>Customer opinions</h2><ul><li><div class="opinion"><div>5 stars</div><p>Bought it for my study, three months ago, and it still works well.</p></div></li><li><div class="opinion"><div>4 stars</div><p>Bought it for my study, three months ago, and it still works well.</p></div></li><li><div class="opinion"><div>5 stars</div><p>Bought it for my study, three months ago, and it still works well.</p></div></li></ul></div><div class="panel"><table><tr><th>Weight</th><td>2 kg</td></tr><tr><th>Colour</th><td>Black</td></tr></table></div></div><footer><a href="/help">Help</a> <a href="/terms">Terms</a></footer></body></html>$$) AS description_without_wrapped_items;
-- one comment among several of a thread (no comment holding half of the thread's text) is not
-- the article, however long beside a short-paragraph story; the lead paragraph in the article's
-- header, outside its body, is the article's
SELECT ndd_html_content($$<html><body><div class="story"><h1>The bridge reopens</h1><p>The old bridge over the river opened again on Monday.</p><p>Repairs took two years and cost the town four million.</p><p>Cyclists and walkers may cross it from seven in the morning.</p><p>Cars will follow in the spring.</p><p>The ferry stops running at the end of the month.</p></div><ol class="thread"><li class="comment"><div class="comment-author">Reader 1</div><div class="comment-body"><p>I remember when the bridge closed, the detour took us twenty minutes each way, every day, past the quarry, and over the crossing.</p><p>The children were late, the buses were late, and everyone, the drivers too, was cross, so this is good news.</p></div></li><li class="comment"><div class="comment-author">Reader 2</div><div class="comment-body"><p>I remember when the bridge closed, the detour took us twenty minutes each way, every day, past the quarry, and over the crossing.</p><p>The children were late, the buses were late, and everyone, the drivers too, was cross, so this is good news.</p></div></li><li class="comment"><div class="comment-author">Reader 3</div><div class="comment-body"><p>I remember when the bridge closed, the detour took us twenty minutes each way, every day, past the quarry, and over the crossing.</p><p>The children were late, the buses were late, and everyone, the drivers too, was cross, so this is good news.</p></div></li><li class="comment"><div class="comment-author">Reader 4</div><div class="comment-body"><p>I remember when the bridge closed, the detour took us twenty minutes each way, every day, past the quarry, and over the crossing.</p><p>The children were late, the buses were late, and everyone, the drivers too, was cross, so this is good news.</p></div></li></ol></body></html>$$) AS story_without_thread;
SELECT ndd_html_content($$<html><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav><div class="story"><div class="top"><h1>The bridge reopens</h1><p>After two years of repairs the old bridge over the river is open again, to walkers and cyclists first and to cars in the spring.</p><div>By Anna Berg</div><div>2 March</div></div><div class="body"><p>The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks.</p><p>Repairs took two years and cost the town four million, a third of it from the region, for new steel, new stone and a new deck.</p><p>Cyclists and walkers may cross it from seven in the morning until ten at night, and the ferry stops running at the end of the month.</p><p>The ferry, which carried people across for two years, will be sold, and its crew, three men from the town, will work on the new bus line.</p><p>Shops on the north bank, which lost half their trade, hope that the walkers, the cyclists and, in the spring, the cars will bring it back.</p><p>The council will hold a fair on the bridge in June, with music, food and a market, to thank the people of both banks for their patience.</p></div></div><footer><a href="/about">About</a> <a href="/terms">Terms</a></footer></body></html>$$) AS story_with_lead;
-- issue 29 (branch realpages5): a heading heads what follows it; a short one closing the article
-- above links or teasers that are not content ("See also", "More from the section") is not
-- content either, while section titles over the article's paragraphs stay
SELECT ndd_html_content($$<html><body><div class="story"><h1>The bridge reopens</h1><p>The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks.</p><h2>What it cost</h2><p>Repairs took two years and cost the town four million, a third of it from the region, for new steel, new stone and a new deck.</p><h2>More from the town</h2><ul><li><a href="/a">The market moves to the square</a></li><li><a href="/b">A new bus line</a></li><li><a href="/c">The school's new roof</a></li></ul></div></body></html>$$) AS story_without_closing_heading;
-- issue 29 (branch docheld): a reference chapter in elements that say nothing of themselves (a
-- bare page): a title, an intro, entries of one kind and a subsection holding one long entry of
-- that kind are one article, taken whole; and a long heading outside the article that repeats the
-- page's <title> is the page's title, not a standfirst
SELECT ndd_html_content(h) = ndd_html_text(h) AS chapter_whole
FROM (VALUES ($$<html><body><section><h1>lamp — Lamps and their parts</h1><p>This module describes lamps, their arms, their bases and the bulbs they hold, as a catalogue would.</p><dl class="api function"><dt>lamp.on(room)</dt><dd><p>Turns the lamp on, in the given room, and returns the light it gives.</p></dd></dl><dl class="api function"><dt>lamp.off(room)</dt><dd><p>Turns the lamp off, in the given room, and returns nothing at all.</p></dd></dl><dl class="api function"><dt>lamp.dim(room, level)</dt><dd><p>Dims the lamp, in the given room, to a level between zero and one.</p></dd></dl><section><h2>The Lamp class</h2><dl class="api class"><dt>class lamp.Lamp(arm, base)</dt><dd><p>A lamp with an arm that turns in two joints, so that the light falls where it is needed, and a base heavy enough to stay put, even on a desk that shakes.</p><p>The arm, the base and the bulb are parts of their own, each with a type, a weight and a colour, and each can be replaced without the others.</p><p>A lamp is made, sold and repaired by people, not by machines, and this class, like the rest, keeps the names of the people who made it.</p></dd></dl></section></section></body></html>$$)) v(h);
SELECT ndd_html_content('<html><head><title>The lamp on my desk, its arm, its base and its bulb: a year of light at work - Notes</title></head><body><div class="post"><h2>The lamp on my desk, its arm, its base and its bulb: a year of light at work</h2><div>Posted on March 2 by Anna</div><div class="text"><p>A lamp with an arm that turns in two joints, so that the light falls where it is needed, and a base heavy enough to stay put, even on a desk that shakes.</p><p>The arm, the base and the bulb are parts of their own, each with a type, a weight and a colour, and each can be replaced without the others.</p></div></div></body></html>') AS post_without_title;
-- issue 29: the heading that opens the content and repeats the page's <title> is the page's title,
-- not the article's text (Readability drops such a header; the benchmarks' hand-made texts have none)
SELECT ndd_html_content($$<html><head><title>The bridge reopens - Town News</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>The bridge reopens</h1><p>The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks.</p><p>Repairs took two years and cost the town four million, a third of it from the region, for new steel, new stone and a new deck.</p></article></body></html>$$) AS headline_is_the_title;
-- issue 29 (branch deks): a headline near the page's title (a dash for a hyphen, the site's name;
-- or the og:title) and a summary line that is the page's description, opening the content outside
-- the article's paragraphs, are the page's statements of itself, not the article's text; the
-- article's first paragraph, which the description repeats, stays
SELECT ndd_html_content($$<html><head><title>The bridge reopens - after two years | Town News</title><meta name="description" content="Walkers first, cars in the spring."></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>The bridge reopens – after two years</h1><h2>Walkers first, cars in the spring.</h2><div class="body"><p>The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks.</p><p>Repairs took two years and cost the town four million, a third of it from the region, for new steel, new stone and a new deck.</p></div></article></body></html>$$) AS headline_and_summary_left_out,
       ndd_html_content($$<html><head><title>Town News</title><meta property="og:title" content="The bridge reopens"><meta property="og:description" content="The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks."></head><body><article><div>The bridge reopens</div><p>The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks.</p><p>Repairs took two years and cost the town four million, a third of it from the region, for new steel, new stone and a new deck.</p></article></body></html>$$) AS first_paragraph_kept;
-- issue 29 (branch embeds): an embedded post inside the article's paragraphs (a tweet's text with
-- its link, its attribution line whose date is a link) is the article's, as Readability keeps every
-- paragraph of the article; a paragraph that is mostly one link (a related story) is not
SELECT ndd_html_content($$<html><body><div class="story"><p>The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks.</p><blockquote class="twitter-tweet"><p>Finally walked across the bridge this morning, what a view! <a href="https://t.co/abc">pic.twitter.com/abc</a></p>&mdash; A Walker (@awalker) <a href="https://twitter.com/awalker/status/1">March 2, 2024</a></blockquote><p>Repairs took two years and cost the town four million, a third of it from the region, for new steel, new stone and a new deck.</p><p>Read: <a href="/ferry">The ferry that carried the town for two years</a></p><p>Cyclists and walkers may cross it from seven in the morning until ten at night, and the ferry stops running at the end of the month.</p></div></body></html>$$) AS story_with_embedded_post;
-- issue 29 (branch embeds): a label heading a list of teaser titles (linked headings) heads no
-- content, though the article's paragraphs go on after the list
SELECT ndd_html_content($$<html><body><div class="story"><p>The old bridge over the river opened again on Monday morning, with the mayor, a brass band and a few hundred people from both banks.</p><h4>More:</h4><ul><li><h4><a href="/a">The market moves to the square</a></h4></li></ul><ul><li><h4><a href="/b">A new bus line for the north bank</a></h4></li></ul><p>Repairs took two years and cost the town four million, a third of it from the region, for new steel, new stone and a new deck.</p></div></body></html>$$) AS story_without_label_over_teasers;
-- issue 29 (branch bylines): the article's metadata, a byline, a date, a picture's caption and
-- credit in markup that names it (class or id byline, author, date, timestamp, caption, credit;
-- <time>, rel="author", itemprop="datePublished"), is no line of the content even between the
-- article's paragraphs, in any script; the same lines unmarked stay (the neighbours decide), and
-- ndd_html_meta still reads the page's date
SELECT ndd_html_content(h) AS content, ndd_html_meta(h)->>'published' AS published
FROM (VALUES ($$<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article><div class="byline-section"><span class="author">Anna Berg</span> <div class="publish-date">Published 11:11 PM Nov 19, 2019</div></div><div class="asset"><img src="a.jpg"><div class="image-caption">The old bridge at dawn</div><div class="image-credit">Jan Holm, Town News</div></div><p>The council voted on Tuesday to close the old bridge, citing safety concerns.</p><p>Repairs are expected to take at least two years, officials said.</p><p><time datetime="2019-11-19">Nov. 19, 2019</time></p><p>Residents will have to use a ferry, which runs every twenty minutes.</p><p><a rel="author" href="/anna">Anna Berg</a></p></article></body></html>$$),
             ($$<html><body><article><div class="byline">记者 王小明</div><span itemprop="datePublished">2019-11-19</span><p>市议会周二投票决定关闭这座老桥，理由是安全问题，居民们对此议论纷纷，意见不一。</p><p>官员们说，维修工作预计至少需要两年时间，费用由市里和省里共同承担。</p></article></body></html>$$),
             ($$<html><body><article><p>The council voted on Tuesday to close the old bridge, citing safety concerns.</p><div>Anna Berg, columnist</div><p>Repairs are expected to take at least two years, officials said.</p></article></body></html>$$)) v(h);
