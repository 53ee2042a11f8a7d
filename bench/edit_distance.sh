#!/usr/bin/env bash
# bench/edit_distance.sh: edit_distance against fuzzystrmatch's levenshtein on 255-character pairs
# (fuzzystrmatch's limit; the answers compared pair by pair), and on pairs of 100,000-character
# documents a few hundred edits apart with max => 1000 (fuzzystrmatch refuses them). Times are the
# server's (clock_timestamp around each query), median of 5 runs; then the core alone in CPU time
# (bench/edit_distance_core.cpp), less inflated by a shared machine. A benchmark: no thresholds.
#
#   bench/edit_distance.sh [pairs]      pairs of 255 characters (default 5000); starts its own cluster
#   NDD_NO_INSTALL=1                    use the installed extension as it is
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-5000}
ndd_bench_cluster
ndd_bench_machine "PostgreSQL $($PSQL -d postgres -c 'SHOW server_version_num')"
P="$PSQL -F |"
$P <<SQL
CREATE EXTENSION ndd;
CREATE EXTENSION fuzzystrmatch;
-- the milliseconds a query takes, median of runs
CREATE FUNCTION timed(q text, runs int DEFAULT 5) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE t timestamptz; ms float8[] := '{}';
BEGIN
    FOR i IN 1..runs LOOP
        t := clock_timestamp();
        EXECUTE q;
        ms := ms || extract(epoch FROM clock_timestamp() - t) * 1000;
    END LOOP;
    RETURN (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ms) x);
END \$\$;
-- doc with edits random single-character edits (substitute, insert, delete), from setseed's sequence
CREATE FUNCTION mutate(doc text, edits int) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE p int; c text;
BEGIN
    FOR i IN 1..edits LOOP
        p := 1 + floor(random() * greatest(length(doc), 1))::int;
        c := chr(97 + floor(random() * 26)::int);
        CASE floor(random() * 3)::int
            WHEN 0 THEN doc := overlay(doc PLACING c FROM p FOR 1);
            WHEN 1 THEN doc := overlay(doc PLACING c FROM p FOR 0);
            ELSE doc := overlay(doc PLACING '' FROM p FOR 1);
        END CASE;
    END LOOP;
    RETURN left(doc, 255 * (1 + (length(doc) > 1000)::int * 100000));
END \$\$;
-- random text of n characters over an alphabet (letters, a space, and a few non-ASCII letters)
CREATE FUNCTION rnd(n int) RETURNS text LANGUAGE sql AS \$\$
    SELECT string_agg(substr('abcdefghijklmnopqrstuvwxyz   éüßж日', 1 + floor(random() * 34)::int, 1), '')
    FROM generate_series(1, n) \$\$;
SELECT setseed(0.28);
-- half near-duplicates (1 to 60 edits), half unrelated texts
CREATE TABLE short_pairs AS
    SELECT i, a, CASE WHEN i % 2 = 0 THEN mutate(a, 1 + i % 60) ELSE rnd(255) END AS b
    FROM (SELECT i, rnd(255) AS a FROM generate_series(1, $PAIRS) i) s;
UPDATE short_pairs SET b = left(b, 255);
CREATE TABLE long_pairs AS
    SELECT i, a, mutate(a, 300 + 30 * i) AS b
    FROM (SELECT i, rnd(100000) AS a FROM generate_series(1, 10) i) s;
SQL
echo "== 255-character pairs: $($P -c "SELECT count(*) || ' pairs, lengths ' || min(length(a)) || '..' || max(length(b)) FROM short_pairs")"
echo "answers differing from levenshtein (cost 1): $($P -c "SELECT count(*) FROM short_pairs WHERE edit_distance(a, b) <> levenshtein(a, b)")"
echo "answers differing from levenshtein(a, b, 1, 1, 2) (cost 2): $($P -c "SELECT count(*) FROM short_pairs WHERE edit_distance(a, b, substitution_cost => 2) <> levenshtein(a, b, 1, 1, 2)")"
echo "with max => 20, pairs not equal to least(levenshtein, 21): $($P -c "SELECT count(*) FROM short_pairs WHERE edit_distance(a, b, 20) <> least(levenshtein(a, b), 21)")"
$P <<'SQL'
SELECT 'levenshtein(a, b)              ' || round(timed('SELECT sum(levenshtein(a, b)) FROM short_pairs')::numeric, 1) || ' ms';
SELECT 'edit_distance(a, b)            ' || round(timed('SELECT sum(edit_distance(a, b)) FROM short_pairs')::numeric, 1) || ' ms';
SELECT 'levenshtein(a, b, 1, 1, 2)     ' || round(timed('SELECT sum(levenshtein(a, b, 1, 1, 2)) FROM short_pairs')::numeric, 1) || ' ms';
SELECT 'edit_distance(a, b, NULL, 2)   ' || round(timed('SELECT sum(edit_distance(a, b, NULL, 2)) FROM short_pairs')::numeric, 1) || ' ms';
SELECT 'levenshtein_less_equal(a,b,20) ' || round(timed('SELECT sum(levenshtein_less_equal(a, b, 20)) FROM short_pairs')::numeric, 1) || ' ms';
SELECT 'edit_distance(a, b, 20)        ' || round(timed('SELECT sum(edit_distance(a, b, 20)) FROM short_pairs')::numeric, 1) || ' ms';
SELECT 'empty query (reading the rows) ' || round(timed('SELECT sum(length(a) + length(b)) FROM short_pairs')::numeric, 1) || ' ms';
SQL
echo "== 100,000-character pairs (each pair alone, median of 5)"
$P <<'SQL'
SELECT 'pair ' || i || ': ' || length(a) || ' / ' || length(b) || ' characters, distance ' || edit_distance(a, b)
       || ', with max 1000: ' || edit_distance(a, b, 1000)
       || ' in ' || round(timed(format('SELECT edit_distance(a, b, 1000) FROM long_pairs WHERE i = %s', i))::numeric, 2) || ' ms'
       || '; no max: ' || round(timed(format('SELECT edit_distance(a, b) FROM long_pairs WHERE i = %s', i))::numeric, 2) || ' ms'
       || '; cost 2, max 2000: ' || round(timed(format('SELECT edit_distance(a, b, 2000, 2) FROM long_pairs WHERE i = %s', i))::numeric, 2) || ' ms'
       || '; reading the pair: ' || round(timed(format('SELECT length(a) + length(b) FROM long_pairs WHERE i = %s', i))::numeric, 2) || ' ms'
FROM long_pairs ORDER BY i;
SELECT 'unrelated 100,000-character texts, max 1000: ' || edit_distance(x.a, y.a, 1000) || ' in '
       || round(timed('SELECT edit_distance(x.a, y.a, 1000) FROM long_pairs x, long_pairs y WHERE x.i = 1 AND y.i = 2')::numeric, 2) || ' ms'
FROM long_pairs x, long_pairs y WHERE x.i = 1 AND y.i = 2;
SQL
echo "== the core alone (bench/edit_distance_core.cpp, g++ -O2, CPU time)"
mkdir -p build
g++ -std=c++17 -O2 -Isrc/core $(xml2-config --cflags) -o build/edit_distance_core bench/edit_distance_core.cpp \
	src/core/*.cpp -lxxhash -licuuc -lxml2 -luriparser -lidn2
build/edit_distance_core
