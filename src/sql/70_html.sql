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

COMMENT ON FUNCTION ndd_html_text(text) IS
	'all visible text of an HTML page in document order, one block (paragraph, heading, list item, cell...) a line, whitespace collapsed, character references decoded; script, style, template, noscript, head, hidden elements and comments dropped';
COMMENT ON FUNCTION ndd_html_content(text) IS
	'the main content of an HTML page: its text blocks scored by length, link density, tag and class/id context and neighbours (jusText family), navigation, headers, footers, sidebars, link lists, ads and cookie banners left out; the whole text when no block qualifies';
