#!/usr/bin/env bash
# scripts/demo.sh: the main job, end to end, on a Debian 12 machine as root from a bare checkout.
# Installs what is missing, builds and installs ndd into the system PostgreSQL 15, starts a
# throwaway cluster, loads the licence texts and package copyright files that every Debian machine
# carries, fingerprints them, finds near-duplicates through the index and in one batch, clusters
# them and prints each cluster with its worst pair, then removes the cluster.
#
#   NDD_DEMO_K=3   the simhash radius (bits)
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

section "loading the sample: /usr/share/common-licenses/* and /usr/share/doc/*/copyright"
psql <<'SQL'
CREATE EXTENSION ndd;
CREATE TABLE docs (id bigserial PRIMARY KEY, path text NOT NULL, body text NOT NULL);
SQL
python3 scripts/debian_docs_tsv.py | psql -c "\copy docs (path, body) FROM STDIN"
psql -c "SELECT count(*) AS documents, pg_size_pretty(sum(octet_length(body))) AS text FROM docs"

section "fingerprints: simhash over word 4-shingles (the measured default: k = 3 gives precision 0.95 at J >= 0.8), the bit-flip fingerprint, the exact-duplicate key"
psql <<'SQL'
ALTER TABLE docs ADD COLUMN fp simhash64, ADD COLUMN bitflip fp128, ADD COLUMN exact fp128;
\timing on
UPDATE docs SET fp = simhash(body, 4), bitflip = bitflip_fp(body), exact = content_hash(body);
\timing off
SELECT id, path, fp, bitflip, exact FROM docs ORDER BY id LIMIT 5;
SQL

section "exact duplicates: equal content_hash (same token stream), the largest groups"
psql <<'SQL'
SELECT count(*) AS copies, min(path) AS example
FROM docs GROUP BY exact HAVING count(*) > 1 ORDER BY count(*) DESC, example LIMIT 8;
SQL

section "the index: CREATE INDEX ... USING ndd, then 'within $K bits of the GPL-3 text'"
psql -v k="$K" <<'SQL'
CREATE INDEX docs_fp_idx ON docs USING ndd (fp);
ANALYZE docs;
SET enable_seqscan = off;  -- a few hundred rows: show the index plan the planner picks at scale
EXPLAIN (COSTS OFF)
SELECT id, path FROM docs WHERE fp <~> (SELECT fp FROM docs WHERE path = '/usr/share/common-licenses/GPL-3') <= :k;
SELECT d.id, d.path, d.fp <~> q.fp AS bits
FROM docs d, (SELECT fp FROM docs WHERE path = '/usr/share/common-licenses/GPL-3') q
WHERE d.fp <~> q.fp <= :k ORDER BY bits, d.path LIMIT 10;
RESET enable_seqscan;
SELECT d.path, d.fp <~> q.fp AS bits
FROM docs d, (SELECT fp FROM docs WHERE path = '/usr/share/common-licenses/Apache-2.0') q
ORDER BY d.fp <~> q.fp LIMIT 5;
SQL

section "all near-duplicate pairs within $K bits in one batch call, then conservative clusters"
psql -v k="$K" <<'SQL'
CREATE TABLE pairs AS SELECT * FROM ndd_pairs('SELECT id, fp FROM docs', :k);
SELECT count(*) AS pairs FROM pairs;
CREATE TABLE clusters AS
SELECT * FROM ndd_clusters('SELECT a, b FROM pairs', conservative => true,
                           order_sql => 'SELECT id FROM docs ORDER BY id');
-- verify every member against its representative: exact Jaccard of word 4-shingles, word edit distance
CREATE TABLE checked AS
SELECT * FROM ndd_verify(
  'SELECT r.id, m.id FROM clusters m JOIN clusters r ON r.cluster_id = m.cluster_id AND r.representative
   WHERE NOT m.representative',
  'SELECT id, body FROM docs');
SELECT c.cluster_id, count(*) + 1 AS members,
       (SELECT path FROM docs WHERE id = c.cluster_id) AS representative,
       round(min(v.jaccard)::numeric, 3) AS worst_jaccard,
       round(min(v.edit_similarity)::numeric, 3) AS worst_edit_similarity
FROM clusters c JOIN checked v ON v.b = c.id
GROUP BY c.cluster_id ORDER BY members DESC, c.cluster_id LIMIT 15;
-- the near (not exact) duplicates: clusters whose members are not all identical
SELECT c.cluster_id, count(*) + 1 AS members,
       (SELECT path FROM docs WHERE id = c.cluster_id) AS representative,
       round(min(v.jaccard)::numeric, 3) AS worst_jaccard,
       round(min(v.edit_similarity)::numeric, 3) AS worst_edit_similarity
FROM clusters c JOIN checked v ON v.b = c.id
GROUP BY c.cluster_id HAVING min(v.jaccard) < 1 ORDER BY members DESC, c.cluster_id LIMIT 10;
SELECT count(*) AS clusters_with_duplicates, sum(members) AS documents_in_them,
       round(min(worst)::numeric, 3) AS worst_jaccard_overall
FROM (SELECT c.cluster_id, count(*) + 1 AS members, min(v.jaccard) AS worst
      FROM clusters c JOIN checked v ON v.b = c.id GROUP BY c.cluster_id) s;
SQL
printf '\ndemo finished; the cluster is removed on exit\n'
