#!/usr/bin/env bash
# bench/html_quality.sh: the same page under other sites' boilerplate, and different pages of one
# site, through simhash(x, 4) of three texts of each page: the raw HTML, ndd_html_text(html) and
# ndd_html_content(html) (issue 22's quality target: >= 95 % of copies within 3 bits of their
# original, <= 0.1 % of pairs of different pages of one site within 3 bits).
#
# Data: test/data/make_crawl.py --every-template: the 298 real pages of test/data/html as shipped
# (two sites with their own templates: the Debian handbook, the Python docs) and each page's
# article under four unrelated templates (portal, magazine, tables, forum). Only pages whose
# article has at least 200 words count in the first table (the article's words:
# ndd_tokens(ndd_html_text(article))). Raw output: bench/results/html_quality.txt.
#   NDD_K=3   the radius in bits
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
K=${NDD_K:-3}
ndd_bench_install
ndd_start_cluster "work_mem=64MB"
trap ndd_stop_cluster EXIT
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
out=bench/results/html_quality.txt
{
echo "# bash bench/html_quality.sh   ($(date -u +%F), k = $K, simhash(x, 4) of word 4-shingles)"
psql -c "CREATE EXTENSION ndd" -c "CREATE TABLE crawl (url text, site text, page text, template text, html text)"
python3 test/data/make_crawl.py --every-template | psql -c "\copy crawl FROM STDIN"
psql -v k="$K" <<'SQL'
CREATE TABLE fp AS
SELECT page, template, split_part(page, '/', 1) AS site,
       simhash(html, 4) AS raw, simhash(ndd_html_text(html), 4) AS text, simhash(ndd_html_content(html), 4) AS content
FROM crawl WHERE template <> 'article';
CREATE TABLE article_words AS
SELECT page, cardinality(ndd_tokens(ndd_html_text(html))) AS words FROM crawl WHERE template = 'article';
\echo '## the same page under another site''s template: copies within :k bits of the original (pages with >= 200 words of article)'
WITH d AS (
  SELECT c.template, o.raw <~> c.raw AS raw, o.text <~> c.text AS text, o.content <~> c.content AS content
  FROM fp o JOIN fp c ON c.page = o.page AND o.template = 'original' AND c.template <> 'original'
  JOIN article_words w ON w.page = o.page WHERE w.words >= 200)
SELECT coalesce(template, 'all') AS template, count(*) AS copies,
       round(100.0 * avg((raw <= :k)::int), 1) AS raw_pct, percentile_disc(0.5) WITHIN GROUP (ORDER BY raw) AS raw_median,
       round(100.0 * avg((text <= :k)::int), 1) AS text_pct, percentile_disc(0.5) WITHIN GROUP (ORDER BY text) AS text_median,
       round(100.0 * avg((content <= :k)::int), 1) AS content_pct, percentile_disc(0.5) WITHIN GROUP (ORDER BY content) AS content_median
FROM d GROUP BY ROLLUP (template) ORDER BY template NULLS LAST;
\echo '## different pages of one site within :k bits (every pair of distinct pages; a site = one template: the two originals and the four template copies)'
WITH s AS (SELECT CASE WHEN template = 'original' THEN site ELSE template END AS s, * FROM fp),
d AS (SELECT a.s, a.raw <~> b.raw AS raw, a.text <~> b.text AS text, a.content <~> b.content AS content
      FROM s a JOIN s b ON a.s = b.s AND a.page < b.page)
SELECT coalesce(s, 'all') AS site, count(*) AS pairs,
       sum((raw <= :k)::int) AS raw_n, round(100.0 * avg((raw <= :k)::int), 3) AS raw_pct,
       sum((text <= :k)::int) AS text_n, round(100.0 * avg((text <= :k)::int), 3) AS text_pct,
       sum((content <= :k)::int) AS content_n, round(100.0 * avg((content <= :k)::int), 3) AS content_pct
FROM d GROUP BY ROLLUP (s) ORDER BY s NULLS LAST;
\echo '## the copies furthest from their original through ndd_html_content (pages with >= 200 words)'
SELECT o.page, c.template, o.content <~> c.content AS bits, w.words
FROM fp o JOIN fp c ON c.page = o.page AND o.template = 'original' AND c.template <> 'original'
JOIN article_words w ON w.page = o.page WHERE w.words >= 200
ORDER BY bits DESC, o.page, c.template LIMIT 10;
SELECT count(*) FILTER (WHERE words >= 200) AS pages_200_words, count(*) AS pages FROM article_words;
SQL
} 2>&1 | tee "$out"
