#!/usr/bin/env bash
# bench/ndd_filter.sh: ndd_filter on a 25 MB text (1.75M words) against the SQL body it replaced in
# 0.2.0 (unnest(ndd_tokens(doc)), a DISTINCT and a string_agg, kept here as ref_filter): same md5,
# the backend's peak resident memory growth (VmHWM) and the wall time, two runs each. A benchmark:
# no thresholds.
#
#   bench/ndd_filter.sh                 starts its own throwaway cluster
#   NDD_NO_INSTALL=1                    use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ndd_bench_cluster
ndd_bench_machine
P="psql -X -q -At -v ON_ERROR_STOP=1"
$P <<'SQL'
CREATE EXTENSION ndd;
CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql AS
  $$ SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*([0-9]+)')::bigint $$;
CREATE FUNCTION ref_filter(doc text, numbers boolean, stopwords regconfig) RETURNS text
LANGUAGE sql IMMUTABLE BEGIN ATOMIC
    WITH tok AS (SELECT u.t, u.i FROM unnest(ndd_tokens(doc)) WITH ORDINALITY AS u(t, i)),
         stop AS (SELECT d.t FROM (SELECT DISTINCT tok.t FROM tok) AS d
                  WHERE stopwords IS NOT NULL AND to_tsvector(stopwords, d.t) = ''::tsvector)
    SELECT CASE WHEN doc IS NULL THEN NULL ELSE
        coalesce((SELECT string_agg(tok.t, ' ' ORDER BY tok.i) FROM tok
                  WHERE NOT (coalesce(numbers, false) AND tok.t ~ '^[0-9]+$')
                    AND tok.t NOT IN (SELECT stop.t FROM stop)), '') END;
END;
CREATE TABLE vocab AS
  SELECT row_number() OVER (ORDER BY w) AS i, w FROM (SELECT DISTINCT proname::text AS w FROM pg_proc) s;
CREATE TABLE docs (name text PRIMARY KEY, body text);
ALTER TABLE docs ALTER body SET STORAGE EXTERNAL;
INSERT INTO docs SELECT 'a', string_agg(v.w, ' ' ORDER BY g)
  FROM generate_series(1, 1750000) g JOIN vocab v ON v.i = 1 + abs(hashint4(g)) % (SELECT count(*) FROM vocab);
SQL
$P -c "SELECT octet_length(body)/1048576 || ' MB text' FROM docs"
for f in ndd_filter ref_filter; do
  for i in 1 2; do
  $P -F ' ' <<SQL
SET work_mem = '4MB';
SELECT peak_kb() AS before \gset
SELECT '$f', md5($f(body, true, 'english')), (peak_kb() - :before) / 1024 || ' MB peak growth',
       (SELECT round(extract(epoch FROM clock_timestamp() - now())::numeric, 2)) || ' s' FROM docs;
SQL
  done
done
