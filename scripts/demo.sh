#!/usr/bin/env bash
# scripts/demo.sh: the main job, end to end, on a Debian 12 machine as root from a bare checkout.
# Installs what is missing, builds and installs ndd, starts a throwaway cluster, loads the sample
# shipped in test/data (295 real licence documents with real near-duplicates: licence versions,
# shared paragraphs, seeded edits; see test/data/README.md), fingerprints them, finds exact
# duplicates, near-duplicates through the index and in one batch, clusters them and prints each
# cluster with its worst pair, then removes the cluster. The output is the same on every machine.
#
#   NDD_DEMO_K=3         the simhash radius (bits)
#   NDD_DEMO_MACHINE=1   also load the package copyright files this machine has
#                        (/usr/share/doc/*/copyright: the figures then depend on what is installed)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$NDD_ROOT"
K=${NDD_DEMO_K:-3}

ndd_install_deps
ndd_build_install
ndd_start_cluster
trap ndd_stop_cluster EXIT

psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
section() { printf '\n== %s\n' "$*"; }

section "loading the sample: test/data/sample.jsonl${NDD_DEMO_MACHINE:+ and /usr/share/doc/*/copyright}"
psql <<'SQL'
CREATE EXTENSION ndd;
CREATE TABLE docs (id bigserial PRIMARY KEY, name text NOT NULL, body text NOT NULL);
SQL
python3 test/data/to_copy_tsv.py test/data/sample.jsonl |
	psql -c "CREATE TEMP TABLE sample (name text, corpus text, source text, path text, body text)" \
		-c "\copy sample FROM STDIN" -c "INSERT INTO docs (name, body) SELECT name, body FROM sample"
if [ "${NDD_DEMO_MACHINE:-0}" = 1 ]; then
	# the licence texts are in the sample already: only the package copyright files
	python3 scripts/debian_docs_tsv.py | grep -v '^/usr/share/common-licenses/' |
		psql -c "\copy docs (name, body) FROM STDIN"
fi
psql -c "SELECT count(*) AS documents, pg_size_pretty(sum(octet_length(body))) AS text FROM docs"

section "fingerprints: simhash over word 4-shingles (the measured default: k = 3 gives precision 0.95 at J >= 0.8), the bit-flip fingerprint, the exact-duplicate key"
psql <<'SQL'
ALTER TABLE docs ADD COLUMN fp simhash64, ADD COLUMN bitflip fp128, ADD COLUMN exact fp128;
UPDATE docs SET fp = simhash(body, 4), bitflip = bitflip_fp(body), exact = content_hash(body);
SELECT id, name, fp, bitflip, exact FROM docs
WHERE name IN ('lic-GPL-2', 'case-GPL-2', 'edit-GPL-2-0.01', 'lic-GFDL-1.2', 'lic-GFDL-1.3') ORDER BY id;
SQL

section "exact duplicates: equal content_hash (same tokens: other case, spacing or punctuation), the largest groups"
psql <<'SQL'
SELECT count(*) AS copies, string_agg(name, ', ' ORDER BY id) AS documents
FROM docs GROUP BY exact HAVING count(*) > 1 ORDER BY count(*) DESC, min(id) LIMIT 8;
SELECT count(*) AS groups, sum(n) AS documents FROM (SELECT count(*) AS n FROM docs GROUP BY exact HAVING count(*) > 1) g;
SQL

section "the index: CREATE INDEX ... USING ndd, then 'within $K bits of the GFDL 1.3' and its nearest neighbours"
psql -v k="$K" <<'SQL'
CREATE INDEX docs_fp_idx ON docs USING ndd (fp);
ANALYZE docs;
SET enable_seqscan = off;  -- a few hundred rows: show the index plan the planner picks at scale
EXPLAIN (COSTS OFF)
SELECT id, name FROM docs WHERE fp <~> (SELECT fp FROM docs WHERE name = 'lic-GFDL-1.3') <= :k;
-- exact Jaccard of word 4-shingles beside each hit: the hits are real near-duplicates
SELECT d.name, d.fp <~> q.fp AS bits, round(jaccard(d.body, q.body)::numeric, 3) AS jaccard
FROM docs d, (SELECT fp, body FROM docs WHERE name = 'lic-GFDL-1.3') q
WHERE d.fp <~> q.fp <= :k ORDER BY bits, d.name;
EXPLAIN (COSTS OFF)
SELECT name FROM docs ORDER BY fp <~> (SELECT fp FROM docs WHERE name = 'lic-GFDL-1.3') LIMIT 5;
SELECT d.name, d.fp <~> q.fp AS bits, round(jaccard(d.body, q.body)::numeric, 3) AS jaccard
FROM docs d, (SELECT fp, body FROM docs WHERE name = 'lic-GFDL-1.3') q
ORDER BY d.fp <~> q.fp, d.name LIMIT 5;
RESET enable_seqscan;
SQL

section "all near-duplicate pairs within $K bits in one batch call: the near (not exact) ones"
psql -v k="$K" <<'SQL'
CREATE TABLE pairs AS SELECT * FROM ndd_pairs('SELECT id, fp FROM docs', :k);
SELECT count(*) AS pairs, count(*) FILTER (WHERE a.exact <> b.exact) AS near_not_exact
FROM pairs p JOIN docs a ON a.id = p.a JOIN docs b ON b.id = p.b;
SELECT a.name, b.name AS other, p.distance AS bits, round(jaccard(a.body, b.body)::numeric, 3) AS jaccard
FROM pairs p JOIN docs a ON a.id = p.a JOIN docs b ON b.id = p.b
WHERE a.exact <> b.exact ORDER BY jaccard, a.name, b.name;
SQL

section "conservative clusters (every member within $K bits of every other), each with its worst pair"
psql <<'SQL'
CREATE TABLE clusters AS
SELECT * FROM ndd_clusters('SELECT a, b FROM pairs', conservative => true,
                           order_sql => 'SELECT id FROM docs ORDER BY id');
-- each cluster's worst pair: the two members with the lowest exact Jaccard of word 4-shingles
CREATE TABLE worst AS
SELECT * FROM ndd_cluster_worst_pairs('SELECT id, cluster_id FROM clusters', 'SELECT id, body FROM docs');
-- the clusters of near (not only exact) duplicates
SELECT w.size AS members, r.name AS representative, a.name || ' / ' || b.name AS worst_pair,
       round(w.jaccard::numeric, 3) AS worst_jaccard, round(w.edit_similarity::numeric, 3) AS worst_edit_similarity
FROM worst w JOIN docs r ON r.id = w.cluster_id JOIN docs a ON a.id = w.a JOIN docs b ON b.id = w.b
WHERE w.jaccard < 1 ORDER BY w.jaccard, r.name;
SELECT count(*) AS clusters, sum(size) AS documents, count(*) FILTER (WHERE jaccard < 1) AS with_near_duplicates,
       round(min(jaccard)::numeric, 3) AS worst_jaccard_overall
FROM worst;
SQL
printf '\ndemo finished; the cluster is removed on exit\n'
