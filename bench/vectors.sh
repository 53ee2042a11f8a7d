#!/usr/bin/env bash
# bench/vectors.sh: near-duplicate embeddings found through the ndd index on a simhash of the vector
# (128 and 64 bits, radius chosen for a recall, then the exact cosine) against pgvector 0.8.6's HNSW
# on the vector (kNN by cosine distance, then a cosine filter) and on binary_quantize(v)::bit(768)
# (kNN by Hamming distance, then the exact cosine), same data, same cluster, same run (issue 28).
#
# Data: N synthetic unit vectors in 768 dimensions, deterministic (hashint8extended of the component
# seeded by the row, Box-Muller normals, normalized; seeding by row * 1024 + component instead gave
# pairs of rows 8 standard deviations apart). Planted pairs: row i with i % 100 = 0 is row i - 1
# plus t times a fresh normal vector, t = sqrt(1/c^2 - 1) for a target cosine c uniform in
# [0.95, 1); row i with i % 100 = 50 the same with c in [0.90, 0.95) (the boundary). The actual
# cosine of each pair differs from c by about 0.01; the ground truth is the exact cosine of every
# planted pair (>= 0.95: the pairs to find), and a brute-force check that no other pair comes near
# (random vectors in 768 dimensions have cosines of standard deviation 1/sqrt(768) = 0.036): the
# largest cosine between NDD_VECTORS_SAMPLE sampled rows and every other row that is not their
# planted partner is printed.
# Queries: from the first row of every planted pair (both kinds; each must return its partner
# when their cosine is >= 0.95) and from NDD_VECTORS_RANDOM rows without a partner. Recall = planted
# pairs at cosine >= 0.95 whose partner the query returned / such pairs. Time per query: the
# median wall time of the query in the server (planning included, same for every method).
# Radius: the smallest k with P(Binomial(f, acos(0.95)/pi) <= k) >= NDD_VECTORS_RECALL (default
# 0.99), i.e. a pair at exactly cosine 0.95 falls within k bits with that probability (Charikar:
# each of the f hyperplanes separates two vectors at angle theta with probability theta/pi); pairs
# closer than 0.95 are found more often.
#
#   bench/vectors.sh [N]          default 100000; starts its own throwaway cluster
#   NDD_NO_INSTALL=1              use the installed extension as it is
#   NDD_PGVECTOR_TARBALL=path     pgvector's source (default ../shared/vendor/pgvector-0.8.6.tar.gz);
#                                 built and installed into the PostgreSQL of NDD_PGBIN when that has
#                                 no pgvector; without either, the benchmark is skipped
#   NDD_VECTORS_KNN=k             LIMIT of the pgvector kNN queries (default 10)
#   NDD_VECTORS_EF_SEARCH="a b"   hnsw.ef_search values the pgvector queries run with (default "40 200":
#                                 pgvector's default, and a wider search for more recall at more time)
#   NDD_VECTORS_RANDOM=n, NDD_VECTORS_SAMPLE=n   queries without partner (200), rows of the check (100)
# pgvector's builds run without parallel workers (max_parallel_maintenance_workers = 0), like
# ndd's. A benchmark: no thresholds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N=${1:-100000}
KNN=${NDD_VECTORS_KNN:-10}
EF_SEARCH=${NDD_VECTORS_EF_SEARCH:-40 200}
RANDOM_Q=${NDD_VECTORS_RANDOM:-200}
SAMPLE=${NDD_VECTORS_SAMPLE:-100}
RECALL=${NDD_VECTORS_RECALL:-0.99}

# pgvector, into the PostgreSQL under test only (never committed, never elsewhere)
if ! why=$(ndd_pgvector_install); then
	echo "skipped: $why"
	exit 0
fi

ndd_bench_cluster "shared_buffers=${NDD_VECTORS_SHARED_BUFFERS:-2GB}" "maintenance_work_mem=2GB" "max_wal_size=8GB" \
	"max_parallel_maintenance_workers=0" "max_parallel_workers_per_gather=0" "jit=off"
ndd_bench_machine "N = $N vectors of 768 dimensions"
$PSQL -c "CREATE EXTENSION ndd; CREATE EXTENSION vector; CREATE EXTENSION pg_prewarm"
echo "pgvector $($PSQL -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'")"

secs() { date +%s.%N; }
timed() { # label, SQL: runs it, prints the wall time
	local t0 t1
	t0=$(secs)
	$PSQL <<<"$2"
	t1=$(secs)
	printf '%-46s %8.1f s\n' "$1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')"
}

# a normal deviate from row r, component j (Box-Muller over the two halves of one 64-bit hash)
G="(sqrt(-2 * ln(((h >> 32) + 2147483649)::float8 / 4294967296)) * cos(2 * pi() * ((h & 4294967295)::float8 / 4294967296)))"
timed "data: $N vectors" "
CREATE TABLE items (id int PRIMARY KEY, embedding vector(768) NOT NULL);
CREATE TABLE planted (a int, b int, target float8);
INSERT INTO planted SELECT i - 1, i, CASE WHEN i % 100 = 0 THEN 0.95 ELSE 0.90 END
                                  + 0.05 * ((hashint8extended(i, 7) & 1048575)::float8 / 1048576)
FROM generate_series(1, $N) i WHERE i % 100 IN (0, 50);
INSERT INTO items
SELECT i, l2_normalize(ARRAY(
	SELECT (SELECT $G FROM (SELECT hashint8extended(j, base) AS h) s)
	       + CASE WHEN t = 0 THEN 0 ELSE t * (SELECT $G FROM (SELECT hashint8extended(j, -i) AS h) s) END
	FROM generate_series(0, 767) j)::vector)
FROM (SELECT i, coalesce(p.a, i) AS base, coalesce(sqrt(1 / (p.target * p.target) - 1), 0) AS t
      FROM generate_series(1, $N) i LEFT JOIN planted p ON p.b = i) r;
ALTER TABLE planted ADD COLUMN cos float8;
UPDATE planted p SET cos = cosine(x.embedding::real[], y.embedding::real[]) FROM items x, items y WHERE x.id = p.a AND y.id = p.b;
VACUUM ANALYZE items; VACUUM ANALYZE planted;"
$PSQL <<SQL
SELECT 'planted pairs: ' || count(*) FILTER (WHERE cos >= 0.95) || ' at cosine >= 0.95 (the pairs to find), '
       || count(*) FILTER (WHERE cos < 0.95) || ' below (' || round(min(cos)::numeric, 4) || ' to ' || round(max(cos)::numeric, 4) || ' overall)'
FROM planted;
SELECT 'ground truth check: largest cosine between ' || count(DISTINCT s.id) || ' sampled rows and any other row but their planted partner: '
       || round(max(1 - (s.embedding <=> o.embedding))::numeric, 4)
FROM (SELECT id, embedding FROM items WHERE id % 100 NOT IN (0, 50, 49, 99) ORDER BY hashint4(id) LIMIT $SAMPLE) s, items o
WHERE o.id <> s.id;
SQL

# radius for the recall at cosine 0.95: binomial tail, pmf(k+1) = pmf(k) (f - k)/(k + 1) p/(1 - p)
radius() {
	$PSQL -c "WITH RECURSIVE p AS (SELECT acos(0.95) / pi() AS p),
		b(k, pmf, cdf) AS (SELECT 0, power(1 - p.p, $1), power(1 - p.p, $1) FROM p
			UNION ALL SELECT k + 1, pmf * ($1 - k) / (k + 1) * p.p / (1 - p.p), cdf + pmf * ($1 - k) / (k + 1) * p.p / (1 - p.p)
			FROM b, p WHERE cdf < $RECALL)
		SELECT k || ' ' || round(cdf::numeric, 5) || ' ' || round(($1 * p.p)::numeric, 2) FROM b, p ORDER BY k DESC LIMIT 1"
}
read -r R128 C128 E128 <<<"$(radius 128)"
read -r R64 C64 E64 <<<"$(radius 64)"
echo "radius: theta = acos(0.95) = 0.3176 rad, p = theta/pi = 0.1011; 128 bits: expected d = $E128, radius $R128 (P(d <= $R128) = $C128); 64 bits: expected d = $E64, radius $R64 (P = $C64)"

timed "build: ndd on simhash128(embedding::real[])" "CREATE INDEX items_sh128 ON items USING ndd (simhash128(embedding::real[]))"
timed "build: ndd on simhash(embedding::real[])" "CREATE INDEX items_sh64 ON items USING ndd (simhash(embedding::real[]))"
timed "build: hnsw on vector (vector_cosine_ops)" "CREATE INDEX items_hnsw ON items USING hnsw (embedding vector_cosine_ops)"
timed "build: hnsw on binary_quantize(embedding)::bit(768)" "CREATE INDEX items_hnsw_bit ON items USING hnsw ((binary_quantize(embedding)::bit(768)) bit_hamming_ops)"
$PSQL -c "SELECT 'index size: ' || string_agg(c || ' ' || pg_size_pretty(pg_relation_size(c)), ', ' ORDER BY c) || '; table ' || pg_size_pretty(pg_total_relation_size('items'::regclass) - pg_indexes_size('items'::regclass))
          FROM unnest(ARRAY['items_sh128', 'items_sh64', 'items_hnsw', 'items_hnsw_bit']) c"

# One method: for every query row, the rows it returns (its own excluded) and its wall time.
$PSQL <<SQL
CREATE TABLE queries AS
	SELECT a AS id, b AS partner, cos FROM planted
	UNION ALL (SELECT id, NULL, NULL FROM items WHERE id % 100 NOT IN (0, 50, 49, 99) ORDER BY hashint4(id + 1) LIMIT $RANDOM_Q);
CREATE TABLE results (n serial, method text, id int, found int[], ms float8);
CREATE PROCEDURE run(method text, sql text) LANGUAGE plpgsql AS \$\$
DECLARE r record; q vector; f int[]; t0 timestamptz;
BEGIN
	SET LOCAL enable_seqscan = off;
	FOR r IN SELECT x.id FROM queries x ORDER BY x.id LOOP
		SELECT embedding INTO q FROM items WHERE items.id = r.id;
		t0 := clock_timestamp();
		EXECUTE 'SELECT array_agg(id) FROM (' || sql || ') s WHERE id <> \$2' INTO f USING q, r.id;
		INSERT INTO results (method, id, found, ms) VALUES (method, r.id, f, extract(epoch FROM clock_timestamp() - t0) * 1000);
	END LOOP;
END \$\$;
DO \$\$ BEGIN  -- the table, its TOAST table (the vectors) and the indexes in shared buffers: no method pays cold reads
	PERFORM pg_prewarm(c) FROM unnest(ARRAY['items', 'items_sh128', 'items_sh64', 'items_hnsw', 'items_hnsw_bit']::regclass[]
	                                  || (SELECT reltoastrelid::regclass FROM pg_class WHERE relname = 'items')) c;
END \$\$;
SQL
method() { # label, SQL over \$1 = the query vector giving column id[, hnsw.ef_search]
	local t0 t1
	t0=$(secs)
	PGOPTIONS="${3:+-c hnsw.ef_search=$3}" $PSQL -c "CALL run('$1', \$q\$$2\$q\$)"
	t1=$(secs)
	printf '%-46s %8.1f s for %s queries\n' "queries: $1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$($PSQL -c "SELECT count(*) FROM queries")"
}
method "ndd simhash128 r$R128 + cosine" "SELECT id FROM items WHERE simhash128(embedding::real[]) <~> simhash128(\$1::real[]) <= $R128 AND cosine(embedding::real[], \$1::real[]) >= 0.95"
method "ndd simhash64 r$R64 + cosine" "SELECT id FROM items WHERE simhash(embedding::real[]) <~> simhash(\$1::real[]) <= $R64 AND cosine(embedding::real[], \$1::real[]) >= 0.95"
for ef in $EF_SEARCH; do
	method "hnsw vector k$KNN ef$ef + cosine" "SELECT id FROM (SELECT id, embedding <=> \$1 AS d FROM items ORDER BY embedding <=> \$1 LIMIT $KNN) c WHERE 1 - d >= 0.95" "$ef"
	method "hnsw bit k$KNN ef$ef + cosine" "SELECT id FROM (SELECT id, embedding FROM items ORDER BY binary_quantize(embedding)::bit(768) <~> binary_quantize(\$1) LIMIT $KNN) c WHERE 1 - (embedding <=> \$1) >= 0.95" "$ef"
done

# the plans, once: each method must use its index
$PSQL -c "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT id FROM items WHERE simhash128(embedding::real[]) <~> simhash128((SELECT embedding FROM items WHERE id = 1)::real[]) <= $R128" | grep -q items_sh128 ||
	echo "WARNING: the ndd query does not use items_sh128"
printf '%-34s %8s %8s %10s %10s %12s\n' method recall found "false<.95" "median_ms" "p90_ms"
$PSQL -F ' ' <<SQL
SELECT rpad(r.method, 34), to_char(count(*) FILTER (WHERE q.cos >= 0.95 AND q.partner = ANY (r.found))::float8 / nullif(count(*) FILTER (WHERE q.cos >= 0.95), 0), '0.0000'),
       lpad(count(*) FILTER (WHERE q.cos >= 0.95 AND q.partner = ANY (r.found)) || '/' || count(*) FILTER (WHERE q.cos >= 0.95), 9),
       lpad((count(*) FILTER (WHERE q.cos < 0.95 AND q.partner = ANY (r.found)) + coalesce(sum(cardinality(r.found)) FILTER (WHERE q.partner IS NULL), 0))::text, 9),
       to_char(percentile_disc(0.5) WITHIN GROUP (ORDER BY r.ms), '99990.000'), to_char(percentile_disc(0.9) WITHIN GROUP (ORDER BY r.ms), '9999990.000')
FROM results r JOIN queries q USING (id) GROUP BY r.method ORDER BY min(r.n);
SQL
echo "(recall: planted pairs at cosine >= 0.95 whose partner was returned; false<.95: rows returned that are a planted partner below 0.95 or any row for a query without partner, which the cosine filter must keep at 0)"

# halfvec: the documented casts give the same fingerprint, and it is near the vector's own
$PSQL <<SQL
SELECT 'halfvec: ' || count(*) || ' rows, simhash128(h::real[]) = simhash128(h::vector::real[]) for ' || count(*) FILTER (WHERE a = b)
       || ', Hamming distance to simhash128 of the full-precision vector: mean ' || round(avg(a <~> c), 2) || ', max ' || max(a <~> c)
FROM (SELECT simhash128(h::real[]) a, simhash128(h::vector::real[]) b, simhash128(embedding::real[]) c
      FROM (SELECT embedding, embedding::halfvec(768) AS h FROM items WHERE id <= 1000) s) t;
SQL
