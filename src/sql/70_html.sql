-- ndd install script, part 70: the web: HTML pages in, text out (doc/web.md), each object with its
-- COMMENT.
--
-- Parsed by libxml2's HTML parser (chosen by measurement against Gumbo: bench/html_parsers.sh);
-- the rules are in doc/web.md and src/core/html_blocks.hpp, html_content.hpp. Deterministic: the
-- same page gives the same text on every machine, so both can feed generated columns, indexes and
-- the fingerprints. The cost is a parse, about four times a tokenization.

CREATE FUNCTION ndd_html_text(html text) RETURNS text
	AS 'MODULE_PATHNAME', 'ndd_html_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 400;

CREATE FUNCTION ndd_html_content(html text) RETURNS text
	AS 'MODULE_PATHNAME', 'ndd_html_content'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 400;

CREATE FUNCTION ndd_html_meta(html text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'ndd_html_meta'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 400;

COMMENT ON FUNCTION ndd_html_text(text) IS
	'all visible text of an HTML page in document order, one block (paragraph, heading, list item, cell...) a line, whitespace collapsed, character references decoded; script, style, template, noscript, head, hidden elements and comments dropped';
COMMENT ON FUNCTION ndd_html_content(text) IS
	'the main content of an HTML page: the element holding the most prose (paragraphs weighed by length and commas, link density, the page''s own <article>/<main>/articleBody and class/id tokens as signals), its blocks classified by length, link density and neighbours (Readability and jusText families); navigation, teasers, comments, sidebars and footers left out; the whole text when the page has no prose';
COMMENT ON FUNCTION ndd_html_meta(text) IS
	'what an HTML page says about itself, as jsonb: title, canonical (<link rel=canonical>), og_url, language (<html lang>), description and published (article:published_time, itemprop datePublished, JSON-LD datePublished, <time datetime> in <article>), each a string as written or null';
