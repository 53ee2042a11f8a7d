#!/usr/bin/env bash
# Distributed tables on Citus (coordinator + 2 workers on this machine): every planner spelling of a
# radius query, KNN, prepared statements (custom and generic plans), joins with a reference table
# and ndd_pairs answer exactly what the same rows answer in one ordinary table, and each shard
# answers from its own ndd index. The distributed batch mode (ndd_distributed_pairs, the two-set
# ndd_distributed_pairs_between, ndd_distributed_feature_pairs, ndd_distributed_mirrors, with and without hot fingerprints), clusters from its pairs and radius queries routed by block key
# (ndd_layout_parts) answer exactly what single-node ndd answers; the labelling trigger refuses
# to run on a shard.
#
# Needs Citus: installed, or built from NDD_CITUS_TARBALL / ../shared/vendor (scripts/citus.sh).
# Without either it exits 77 with the reason (scripts/test.sh reports it as skipped).
set -uo pipefail
source "$(dirname "$0")/../../scripts/citus.sh"

if ! reason=$(ndd_citus_install 2>&1 >/dev/null); then
	echo "skipped: Citus is not available: ${reason##*$'\n'}"
	exit 77
fi
ndd_citus_start || { echo "could not start the Citus nodes"; exit 1; }
trap ndd_citus_stop EXIT

coord() { psql -X -q -At -h 127.0.0.1 -p "$NDD_CITUS_COORD" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }
fail=0
check() { # check NAME DISTRIBUTED_SQL LOCAL_SQL: both must print the same
	local d l
	d=$(coord -c "$2" 2>&1) l=$(coord -c "$3" 2>&1)
	if [ "$d" == "$l" ] && [ -n "$d" ]; then
		echo "ok   $1"
	else
		echo "FAIL $1"; echo "  distributed: ${d:0:300}"; echo "  local:       ${l:0:300}"; fail=1
	fi
}

# 100,000 rows: random fingerprints, 2 % planted near-duplicates (1-4 bits from an earlier row), and
# an fp128 column; the same rows in a distributed table (32 shards) and in an ordinary one.
coord <<'SQL' || exit 1
CREATE TABLE local_docs (id bigint PRIMARY KEY, fp simhash64, f128 fp128);
INSERT INTO local_docs
SELECT g, (hashint8extended(g, 1) # (hashint8extended(g, 2) << 32))::simhash64,
       uuid_in(md5(g::text)::cstring)::fp128
FROM generate_series(1, 100000) g;
-- planted: row g copies row g - 1001 (not planted itself) with a few bits flipped
UPDATE local_docs d SET fp = ((s.fp::bigint) # (1::bigint << (d.id % 64)::int)
                                          # (CASE WHEN d.id % 3 = 0 THEN 1::bigint << ((d.id / 64) % 64)::int ELSE 0 END))::simhash64
FROM local_docs s WHERE d.id % 50 = 0 AND s.id = d.id - 1001;
-- planted fp128: row g (g % 50 = 0) is row g - 1001's value with one hex digit replaced (0-4 bits)
UPDATE local_docs SET f128 = uuid_in(overlay(md5((id - 1001)::text) placing substr('0f3c', (id % 4)::int + 1, 1)
                                             from (id % 32)::int + 1 for 1)::cstring)::fp128
WHERE id % 50 = 0 AND id > 1000;
CREATE TABLE docs (LIKE local_docs INCLUDING ALL);
SELECT create_distributed_table('docs', 'id');
INSERT INTO docs SELECT * FROM local_docs;
CREATE INDEX ON docs USING ndd (fp);
CREATE INDEX ON docs USING ndd (f128);
CREATE INDEX ON local_docs USING ndd (fp);
CREATE INDEX ON local_docs USING ndd (f128);
-- queries: planted originals, their near-duplicates and random fingerprints
CREATE TABLE queries (qid int PRIMARY KEY, fp simhash64, f128 fp128);
SELECT create_reference_table('queries');
INSERT INTO queries SELECT row_number() OVER (), fp, f128 FROM local_docs WHERE id % 50 = 0 AND id <= 10000;
INSERT INTO queries SELECT 1000 + g, (hashint8extended(g, 7))::simhash64, uuid_in(md5('q' || g)::cstring)::fp128
FROM generate_series(1, 40) g;
ANALYZE docs; ANALYZE local_docs; ANALYZE queries;
SQL
echo "loaded: $(coord -c 'SELECT count(*) FROM docs') distributed rows, $(coord -c "SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'docs'::regclass") shards"

# One answer per query and spelling, as a text the two tables must agree on: the distributed table
# joined with the reference table of queries (Citus pushes the join down to every shard).
per_query() { # per_query TABLE PREDICATE(using q.fp / q.f128)
	echo "SELECT string_agg(qid || ':' || ids, ' ' ORDER BY qid) FROM (
	  SELECT q.qid, string_agg(d.id::text, ',' ORDER BY d.id) AS ids FROM queries q JOIN $1 d ON $2 GROUP BY q.qid) r"
}
for k in 0 3 6; do
	for spelling in "d.fp <~> q.fp <= $k" "d.fp <~> q.fp < $((k + 1))" "$k >= d.fp <~> q.fp" "q.fp <~> d.fp <= $k" \
		"d.fp <~> q.fp BETWEEN 0 AND $k" "ndd_within(d.fp, q.fp, $k)" "d.fp <@ hamming_ball(q.fp, $k)"; do
		check "radius k=$k: $spelling" "$(per_query docs "$spelling")" "$(per_query local_docs "$spelling")"
	done
done
# The same spellings with a literal query value (a Const, where the join above passes a parameter).
for qid in 1 1001; do
	lit=$(coord -c "SELECT fp FROM queries WHERE qid = $qid")
	for spelling in "fp <~> '$lit' <= 3" "'$lit' <~> fp < 4" "3 >= fp <~> '$lit'" "ndd_within(fp, '$lit', 3)" "fp <@ hamming_ball('$lit'::simhash64, 3)"; do
		check "literal query $qid: $spelling" "SELECT coalesce(string_agg(id::text, ',' ORDER BY id), 'none') FROM docs WHERE $spelling" \
			"SELECT coalesce(string_agg(id::text, ',' ORDER BY id), 'none') FROM local_docs WHERE $spelling"
	done
done
check "fp128 radius 18" "$(per_query docs 'd.f128 <~> q.f128 <= 18')" "$(per_query local_docs 'd.f128 <~> q.f128 <= 18')"

# A literal query on the distributed table goes to every shard, and each shard uses its ndd index.
q=$(coord -c "SELECT fp FROM queries WHERE qid = 1")
plan=$(coord -c "EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <~> '$q' <= 3")
if grep -q "Index Cond: (fp <@ hamming_ball" <<<"$plan" && grep -qE "Task Count: [0-9]+" <<<"$plan"; then
	echo "ok   the shards answer from their ndd index ($(grep -oE 'Task Count: [0-9]+' <<<"$plan"))"
else
	echo "FAIL the shards do not use their ndd index:"; echo "$plan"; fail=1
fi

# KNN: the 10 smallest distances (a set that does not depend on how ties are broken).
for qid in 1 5 1001 1002; do
	lit=$(coord -c "SELECT fp FROM queries WHERE qid = $qid")
	check "KNN LIMIT 10, literal query $qid" \
		"SELECT string_agg(d::text, ',' ORDER BY d) FROM (SELECT fp <~> '$lit' AS d FROM docs ORDER BY fp <~> '$lit' LIMIT 10) x" \
		"SELECT string_agg(d::text, ',' ORDER BY d) FROM (SELECT fp <~> '$lit' AS d FROM local_docs ORDER BY fp <~> '$lit' LIMIT 10) x"
done
plan=$(coord -c "EXPLAIN (COSTS OFF) SELECT id FROM docs ORDER BY fp <~> '$q' LIMIT 10")
if grep -q "Order By: (fp <~>" <<<"$plan"; then echo "ok   KNN is pushed to the shards' ndd indexes"; else
	echo "FAIL KNN does not use the shards' ndd indexes:"; echo "$plan"; fail=1; fi

# Prepared statements: the first five executions get custom plans, later ones a generic plan.
prep() {
	local t=$1 out=""
	out=$(coord <<SQL
PREPARE r(simhash64, int) AS SELECT count(*) FROM $t WHERE fp <~> \$1 <= \$2;
PREPARE n(simhash64) AS SELECT string_agg(d::text, ',' ORDER BY d) FROM (SELECT fp <~> \$1 AS d FROM $t ORDER BY fp <~> \$1 LIMIT 5) x;
$(for i in 1 2 3 4 5 6 7 8; do echo "EXECUTE r('$q', $((i % 4 + 2))); EXECUTE n('$q');"; done)
SQL
)
	echo "$out"
}
check "prepared radius and KNN, custom then generic plans" "SELECT \$x\$$(prep docs)\$x\$" "SELECT \$x\$$(prep local_docs)\$x\$"

# Joins: every (query, row) pair within 3 bits, the distributed table joined with a reference table.
check "join with a reference table" \
	"SELECT count(*) || ' ' || sum(d.id * q.qid) FROM queries q JOIN docs d ON d.fp <~> q.fp <= 3" \
	"SELECT count(*) || ' ' || sum(d.id * q.qid) FROM queries q JOIN local_docs d ON d.fp <~> q.fp <= 3"

# Batch all-pairs over the distributed table (read through the coordinator).
check "ndd_pairs over a distributed table" \
	"SELECT count(*) || ' ' || sum(a * 3 + b) FROM ndd_pairs('SELECT id, fp FROM docs', 3)" \
	"SELECT count(*) || ' ' || sum(a * 3 + b) FROM ndd_pairs('SELECT id, fp FROM local_docs', 3)"

# ---- the distributed batch mode: pairs found on the workers, exactly the single-node pairs ----
digest() { # digest FROM_CLAUSE (columns a, b, distance)
	echo "SELECT count(*) || ' ' || md5(coalesce(string_agg(a || ',' || b || ',' || distance, ' ' ORDER BY a, b), '')) FROM $1"
}
check "ndd_distributed_pairs = ndd_pairs, simhash64 k=3 ($(coord -c "SELECT count(*) FROM ndd_pairs('SELECT id, fp FROM local_docs', 3)") pairs)" \
	"$(digest "ndd_distributed_pairs('SELECT id, fp FROM docs', 3)")" \
	"$(digest "ndd_pairs('SELECT id, fp FROM local_docs', 3)")"
check "ndd_distributed_pairs = ndd_pairs, simhash64 k=4, 6 blocks, 64 parts, 30k rows" \
	"$(digest "ndd_distributed_pairs('SELECT id, fp FROM docs WHERE id <= 30000', 4, 6, 64)")" \
	"$(digest "ndd_pairs('SELECT id, fp FROM local_docs WHERE id <= 30000', 4)")"
check "ndd_distributed_pairs = ndd_pairs, fp128 k=4, 30k rows ($(coord -c "SELECT count(*) FROM ndd_pairs('SELECT id, f128 FROM local_docs WHERE id <= 30000', 4)") pairs)" \
	"$(digest "ndd_distributed_pairs('SELECT id, f128 FROM docs WHERE id <= 30000', 4)")" \
	"$(digest "ndd_pairs('SELECT id, f128 FROM local_docs WHERE id <= 30000', 4)")"
# two sets: the last 10,000 rows are new, the others stored (planted pairs cross the sets)
check "ndd_pairs_between = a brute-force join (new vs stored, k=3)" \
	"$(digest "ndd_pairs_between('SELECT id, fp FROM local_docs WHERE id > 90000', 'SELECT id, fp FROM local_docs WHERE id <= 90000', 3) AS p(a, b, distance)")" \
	"$(digest "(SELECT n.id, s.id, (n.fp <~> s.fp)::int FROM local_docs n JOIN local_docs s ON n.fp <~> s.fp <= 3 WHERE n.id > 90000 AND s.id <= 90000) AS p(a, b, distance)")"
check "ndd_distributed_pairs_between = ndd_pairs_between (k=3)" \
	"$(digest "ndd_distributed_pairs_between('SELECT id, fp FROM docs WHERE id > 90000', 'SELECT id, fp FROM docs WHERE id <= 90000', 3) AS p(a, b, distance)")" \
	"$(digest "ndd_pairs_between('SELECT id, fp FROM local_docs WHERE id > 90000', 'SELECT id, fp FROM local_docs WHERE id <= 90000', 3) AS p(a, b, distance)")"
# feature arrays: 5,000 documents, groups of three share most features, small features are common
coord >/dev/null <<'SQL' || exit 1
CREATE TABLE local_fdocs (id bigint PRIMARY KEY, feats bigint[]);
INSERT INTO local_fdocs
SELECT g, ARRAY(SELECT hashint8extended(g / 3 * 10 + i, 1) % 5000 FROM generate_series(1, 6 + (g % 4)) i) || ARRAY[g % 7, NULL]
FROM generate_series(1, 5000) g;
CREATE TABLE fdocs (LIKE local_fdocs INCLUDING ALL);
SELECT create_distributed_table('fdocs', 'id');
INSERT INTO fdocs SELECT * FROM local_fdocs;
SQL
fdigest() { echo "SELECT count(*) || ' ' || md5(string_agg(a || ',' || b || ',' || shared, ' ' ORDER BY a, b)) FROM $1"; }
# (the notices name their own function: compared apart)
PGOPTIONS="-c client_min_messages=warning" \
check "ndd_distributed_feature_pairs = ndd_feature_pairs (min_shared 2, max_df 100; $(coord -c "SELECT count(*) FROM ndd_feature_pairs('SELECT id, feats FROM local_fdocs', 2, 100)" 2>/dev/null) pairs)" \
	"$(fdigest "ndd_distributed_feature_pairs('SELECT id, feats FROM fdocs', 2, 100)")" \
	"$(fdigest "ndd_feature_pairs('SELECT id, feats FROM local_fdocs', 2, 100)")"
notice=$(coord -c "SELECT count(*) FROM ndd_distributed_feature_pairs('SELECT id, feats FROM fdocs', 2, 100)" 2>&1)
if grep -q "NOTICE:  ndd_distributed_feature_pairs ignored 7 features held by more than 100 documents each" <<<"$notice"; then
	echo "ok   ndd_distributed_feature_pairs says which features it ignored, as ndd_feature_pairs does"
else
	echo "FAIL ndd_distributed_feature_pairs' notice: $notice"; fail=1
fi
# ---- mirrors: pairs of pages on the workers, prefixes on the coordinator: ndd_mirrors's answer ----
coord >/dev/null <<'SQL' || exit 1
CREATE TABLE local_pages AS
  SELECT id, 'http://h' || (id % 100) || '.example/d/' || (id / 100) || '.html' AS url, fp FROM local_docs WHERE id <= 50000;
-- hosts m0..m19 copy h0..h19 under /copy/, each page 1 bit away
INSERT INTO local_pages
  SELECT 100000 + id, 'http://m' || (id % 100) || '.example/copy/d/' || (id / 100) || '.html',
         (fp::bigint # (1::bigint << (id % 64)::int))::simhash64
  FROM local_docs WHERE id <= 50000 AND id % 100 < 20;
CREATE TABLE pages (LIKE local_pages);
SELECT create_distributed_table('pages', 'id');
INSERT INTO pages SELECT * FROM local_pages;
SQL
mdigest() { echo "SELECT count(*) || ' ' || md5(coalesce(string_agg(a || ',' || b || ',' || shared || ',' || pages_a || ',' || pages_b, ' ' ORDER BY a, b), '')) FROM $1"; }
check "ndd_distributed_mirrors = ndd_mirrors, k=1 ($(coord -c "SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM local_pages', 1)") mirror pairs)" \
	"$(mdigest "ndd_distributed_mirrors('SELECT id, url, fp FROM pages', 1)")" \
	"$(mdigest "ndd_mirrors('SELECT url, fp FROM local_pages', 1)")"
# a crawl with hot fingerprints: a parking page at 11 paths of 40 hosts (every pair of them would
# be a mirror) and one host's soft 404 page at 30 paths: max_hosts_per_fingerprint = 20 leaves
# both out in the two functions alike, with the same notice; raised, both count them alike
coord >/dev/null <<'SQL' || exit 1
CREATE TABLE local_hot AS
  SELECT id, url, fp FROM local_pages WHERE id <= 20000 OR id BETWEEN 100000 AND 120000
  UNION ALL SELECT 200000 + h * 100 + p, 'http://park' || h || '.example/p' || p || '.html', '00000000000000aa'::simhash64
  FROM generate_series(1, 40) h, generate_series(1, 11) p
  UNION ALL SELECT 300000 + p, 'http://h1.example/missing/' || p || '.html', '00000000000000bb'::simhash64
  FROM generate_series(1, 30) p;
CREATE TABLE hot (LIKE local_hot);
SELECT create_distributed_table('hot', 'id');
INSERT INTO hot SELECT * FROM local_hot;
SQL
quiet="SET client_min_messages = warning;"  # the notices differ by the function's name: compared below
hot_d="$quiet $(mdigest "ndd_distributed_mirrors('SELECT id, url, fp FROM hot', 1, max_hosts_per_fingerprint => 20)")"
hot_l="$quiet $(mdigest "ndd_mirrors('SELECT url, fp FROM local_hot', 1, max_hosts_per_fingerprint => 20)")"
check "ndd_distributed_mirrors = ndd_mirrors with hot fingerprints left out ($(coord -c "SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM local_hot', 1, max_hosts_per_fingerprint => 20)" 2>/dev/null) pairs)" \
	"$hot_d" "$hot_l"
check "ndd_distributed_mirrors = ndd_mirrors with hot fingerprints counted ($(coord -c "SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM local_hot', 1, max_hosts_per_fingerprint => 1000)") pairs)" \
	"$(mdigest "ndd_distributed_mirrors('SELECT id, url, fp FROM hot', 1, max_hosts_per_fingerprint => 1000)")" \
	"$(mdigest "ndd_mirrors('SELECT url, fp FROM local_hot', 1, max_hosts_per_fingerprint => 1000)")"
notice_d=$(coord -c "SELECT count(*) FROM ndd_distributed_mirrors('SELECT id, url, fp FROM hot', 1, max_hosts_per_fingerprint => 20)" 2>&1 >/dev/null)
notice_l=$(coord -c "SELECT count(*) FROM ndd_mirrors('SELECT url, fp FROM local_hot', 1, max_hosts_per_fingerprint => 20)" 2>&1 >/dev/null)
if grep -q "ndd_distributed_mirrors: 2 fingerprints served by more than 20 hosts or pages each left out (470 pages)" <<<"$notice_d" &&
	grep -q "ndd_mirrors: 2 fingerprints served by more than 20 hosts or pages each left out (470 pages)" <<<"$notice_l" &&
	[ "$(coord -c "$hot_l")" != "$(coord -c "$(mdigest "ndd_mirrors('SELECT url, fp FROM local_hot', 1, max_hosts_per_fingerprint => 1000)")")" ]; then
	echo "ok   the same notice from both, and the bound changes the answer"
else
	echo "FAIL hot fingerprints: notices: $notice_d / $notice_l"; fail=1
fi
err=$(coord -c "SELECT count(*) FROM ndd_distributed_pairs('SELECT id, fp FROM docs UNION ALL SELECT 5, fp FROM docs WHERE id = 6', 3)" 2>&1)
left=$(coord -c "SELECT count(*) FROM pg_class WHERE relname LIKE 'ndd_distributed_work%'")
if grep -q "docs_sql returned the id 5 more than once" <<<"$err" && [ "$left" = 0 ]; then
	echo "ok   a duplicate id is an error, and no work table is left behind"
else
	echo "FAIL duplicate id: $err (work tables left: $left)"; fail=1
fi
# issue 20: ndd_distributed_feature_pairs accepts and refuses exactly what ndd_feature_pairs does,
# with the same SQLSTATE and message (it cast int[] and text to bigint[], and a null id failed
# with 23502 naming its work table); each error leaves no work table behind
sqlstate() { coord -v VERBOSITY=sqlstate -c "SELECT count(*) FROM $1" 2>&1 | head -1; }
message() { coord -c "SELECT count(*) FROM $1" 2>&1 | grep -m1 ERROR; }
for q in "SELECT id, feats::int[] FROM fdocs" "SELECT id, feats::text FROM fdocs" "SELECT id::numeric, feats FROM fdocs" \
	"SELECT NULL::bigint AS id, feats FROM fdocs" "SELECT CASE WHEN id = 7 THEN NULL ELSE id END, feats FROM fdocs" \
	"SELECT id FROM fdocs" "SELECT 5::bigint, feats FROM fdocs WHERE id IN (5, 6)"; do
	local_q=${q//fdocs/local_fdocs}
	d=$(message "ndd_distributed_feature_pairs(\$\$$q\$\$, 2, 100)"); l=$(message "ndd_feature_pairs(\$\$$local_q\$\$, 2, 100)")
	ds=$(sqlstate "ndd_distributed_feature_pairs(\$\$$q\$\$, 2, 100)"); ls=$(sqlstate "ndd_feature_pairs(\$\$$local_q\$\$, 2, 100)")
	left=$(coord -c "SELECT count(*) FROM pg_class WHERE relname LIKE 'ndd_distributed_work%'")
	if [ -n "$d" ] && [ "$d" = "$l" ] && [ "$ds" = "$ls" ] && [ "$left" = 0 ]; then
		echo "ok   refused as ndd_feature_pairs refuses it ($ds): $q"
	else
		echo "FAIL $q: distributed '$d' ($ds), single node '$l' ($ls), work tables left $left"; fail=1
	fi
done
# what ndd_feature_pairs accepts: a multi-dimensional array (its elements), smallint ids
PGOPTIONS="-c client_min_messages=warning" \
check "ndd_distributed_feature_pairs = ndd_feature_pairs on two-dimensional feature arrays and smallint ids" \
	"$(fdigest "ndd_distributed_feature_pairs('SELECT id::smallint, ARRAY[feats[1:2], feats[3:4]] FROM fdocs WHERE id <= 3000', 2, 100)")" \
	"$(fdigest "ndd_feature_pairs('SELECT id::smallint, ARRAY[feats[1:2], feats[3:4]] FROM local_fdocs WHERE id <= 3000', 2, 100)")"
# docs_sql is read once: here its second reading (only) adds a row that gives id 5 a second set of
# features; read once, there is no such row and the pairs are those of ndd_feature_pairs (read
# twice, the id check saw the first reading and the pairs came from the second: wrong pairs, no error)
coord -c "CREATE SEQUENCE ndd_reads" >/dev/null
PGOPTIONS="-c client_min_messages=warning" \
check "ndd_distributed_feature_pairs reads docs_sql once (a volatile query gives the pairs of one reading)" \
	"$(fdigest "ndd_distributed_feature_pairs('SELECT id, feats FROM local_fdocs WHERE id <= 300 UNION ALL SELECT 5, feats FROM local_fdocs WHERE id = 6 AND nextval(''ndd_reads'') = 2', 2, 100)")" \
	"$(fdigest "ndd_feature_pairs('SELECT id, feats FROM local_fdocs WHERE id <= 300', 2, 100)")"
coord -c "DROP SEQUENCE ndd_reads" >/dev/null
err=$(coord -c "SELECT count(*) FROM ndd_distributed_pairs('SELECT NULLIF(id, 7), fp FROM docs', 3)" 2>&1)
if grep -q "docs_sql returned a null id" <<<"$err"; then
	echo "ok   a null id is an error naming docs_sql, as in ndd_pairs"
else
	echo "FAIL null id: $err"; fail=1
fi

# ---- clusters from the distributed pairs: the same clusters as from single-node pairs ----
clusters() { # clusters PAIRS_FUNCTION_CALL CONSERVATIVE
	echo "SELECT count(*) || ' ' || md5(string_agg(id || ':' || cluster_id || ':' || representative, ' ' ORDER BY id))
	      FROM ndd_clusters(\$p\$SELECT a, b FROM $1\$p\$, $2)"
}
for conservative in false true; do
	check "ndd_clusters over distributed pairs, conservative=$conservative" \
		"$(clusters "ndd_distributed_pairs('SELECT id, fp FROM docs', 3)" $conservative)" \
		"$(clusters "ndd_pairs('SELECT id, fp FROM local_docs', 3)" $conservative)"
done

# ---- routing by block key: a side table distributed by part, one row per (row, layout table) ----
coord <<'SQL' || exit 1
CREATE TABLE docs_by_key (id bigint, fp simhash64, part int);
SELECT create_distributed_table('docs_by_key', 'part', colocate_with => 'none');
INSERT INTO docs_by_key SELECT d.id, d.fp, u.part FROM docs d CROSS JOIN LATERAL unnest(ndd_layout_parts(d.fp, 3)) AS u(part);
CREATE INDEX ON docs_by_key USING ndd (fp);
ANALYZE docs_by_key;
SQL
routed_ids() { # routed_ids QUERY_FP K: the ids within K bits, through the shards of the query's parts only
	echo "SELECT DISTINCT id FROM docs_by_key WHERE part = ANY(ndd_layout_parts('$1'::simhash64, 3)) AND fp <~> '$1' <= $2"
}
routed() { echo "SELECT coalesce(string_agg(id::text, ',' ORDER BY id), 'none') FROM ($(routed_ids "$1" "$2")) r"; }
for qid in 1 2 3 7 1001 1002; do
	lit=$(coord -c "SELECT fp FROM queries WHERE qid = $qid")
	for k in 0 2 3; do
		check "routed radius, query $qid, k=$k" "$(routed "$lit" $k)" \
			"SELECT coalesce(string_agg(id::text, ',' ORDER BY id), 'none') FROM local_docs WHERE fp <~> '$lit' <= $k"
	done
done
lit=$(coord -c "SELECT fp FROM queries WHERE qid = 1")
plan=$(coord -c "EXPLAIN (COSTS OFF) $(routed_ids "$lit" 3)")
tasks=$(grep -oE 'Task Count: [0-9]+' <<<"$plan" | grep -oE '[0-9]+')
if [ -n "$tasks" ] && [ "$tasks" -le 4 ] && grep -q "Index Cond: (fp <@ hamming_ball" <<<"$plan"; then
	echo "ok   a routed radius query visits $tasks shards (at most the layout's 4 tables) of $(coord -c "SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'docs_by_key'::regclass"), each through its ndd index"
else
	echo "FAIL a routed radius query is not pruned to at most 4 shards:"; echo "$plan"; fail=1
fi

# ---- search_path capture: the batch jobs run with the caller's search_path (the caller's queries
# resolve as written), so an operator of theirs that is not an exact match in pg_catalog (text ||
# int, oid = regclass, regtype <> regtype) would resolve to a better match in a schema the caller
# searches, and run with the caller's rights. A role that may create in public defines those
# operators (each logs its caller, which a superuser would be); a superuser runs every job. (The
# digests here avoid || on integers: the hostile operator would capture them too.) ----
coord >/dev/null <<'SQL' || exit 1
CREATE ROLE ndd_capture LOGIN;
GRANT CREATE ON SCHEMA public TO ndd_capture;
SET ROLE ndd_capture;
CREATE TABLE public.ndd_captured (by_role name, op text);
GRANT INSERT ON public.ndd_captured TO PUBLIC;
CREATE FUNCTION public.capture_cat(text, int) RETURNS text LANGUAGE sql
    AS $$ INSERT INTO public.ndd_captured VALUES (current_user, '||'); SELECT $1 OPERATOR(pg_catalog.||) $2 $$;
CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = int, FUNCTION = public.capture_cat);
CREATE FUNCTION public.capture_eq(oid, regclass) RETURNS boolean LANGUAGE sql
    AS $$ INSERT INTO public.ndd_captured VALUES (current_user, '='); SELECT $1 OPERATOR(pg_catalog.=) $2 $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = public.capture_eq);
CREATE FUNCTION public.capture_ne(regtype, regtype) RETURNS boolean LANGUAGE sql
    AS $$ INSERT INTO public.ndd_captured VALUES (current_user, '<>'); SELECT $1 OPERATOR(pg_catalog.<>) $2 $$;
CREATE OPERATOR public.<> (LEFTARG = regtype, RIGHTARG = regtype, FUNCTION = public.capture_ne);
SQL
fmt_digest() { # as digest, without ||
	echo "SELECT pg_catalog.format('%s %s', count(*), md5(coalesce(string_agg(pg_catalog.format('%s,%s,%s', a, b, distance), ' ' ORDER BY a, b), ''))) FROM $1"
}
PGOPTIONS="-c client_min_messages=warning" \
check "ndd_distributed_pairs beside hostile operators in public: the same pairs" \
	"$(fmt_digest "ndd_distributed_pairs('SELECT id, fp FROM docs WHERE id <= 30000', 3)")" \
	"$(fmt_digest "ndd_pairs('SELECT id, fp FROM local_docs WHERE id <= 30000', 3)")"
out=$(PGOPTIONS="-c client_min_messages=warning" coord \
	-c "SELECT count(*) FROM ndd_distributed_pairs_between('SELECT id, fp FROM docs WHERE id > 90000', 'SELECT id, fp FROM docs WHERE id <= 90000', 3)" \
	-c "SELECT count(*) FROM ndd_distributed_feature_pairs('SELECT id, feats FROM fdocs', 2, 100)" 2>&1) ||
	{ echo "FAIL the distributed jobs beside hostile operators: $out"; fail=1; }
captured=$(coord -c "SELECT coalesce(string_agg(DISTINCT op, ' '), '') FROM public.ndd_captured")
if [ -z "$captured" ]; then
	echo "ok   no distributed job runs an operator that a role who may create in public defined"
else
	echo "FAIL a distributed job ran the operators ($captured) of a role that may create in public, with the caller's rights"; fail=1
fi
coord >/dev/null <<'SQL' || exit 1
DROP OWNED BY ndd_capture;
REVOKE CREATE ON SCHEMA public FROM ndd_capture;
DROP ROLE ndd_capture;
SQL

# ---- the labelling trigger: Citus refuses triggers on distributed tables; when they are allowed
# anyway, each shard would see only its own rows, so ndd's trigger refuses (0A000) ----
out=$(coord 2>&1 <<'SQL'
CREATE TABLE labelled (id bigint, fp simhash64, cluster_id bigint);
SELECT create_distributed_table('labelled', 'id');
SET citus.enable_unsafe_triggers = on;
CREATE TRIGGER label BEFORE INSERT ON labelled FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
\set VERBOSITY verbose
INSERT INTO labelled (id, fp) VALUES (1, '0000000000000005'), (2, '0000000000000007');
SQL
)
if grep -q "0A000: ndd_assign_cluster_trigger cannot label rows of a Citus distributed table" <<<"$out" &&
	[ "$(coord -c 'SELECT count(*) FROM labelled')" = 0 ]; then
	echo "ok   the labelling trigger refuses to run on a shard (0A000)"
else
	echo "FAIL the labelling trigger on a distributed table:"; echo "$out"; fail=1
fi

# ---- the documentation's blocks that need Citus (`<!-- readme-sql: citus -->` in doc/reference.md;
# test/scripts/readme_sql.sh runs the others), in order, as written, on a `docs` table like the
# README's first session (id, body, fp) in a schema of its own ----
script=$(mktemp /tmp/ndd-readme-citus.XXXXXX.sql)
{
	echo "CREATE SCHEMA readme; SET search_path = readme, public;"
	echo "CREATE TABLE docs (id bigserial PRIMARY KEY, body text NOT NULL, fp simhash64);"
	echo "INSERT INTO docs (body) SELECT 'document ' || g || ' of the readme blocks' FROM generate_series(1, 100) g;"
	echo "UPDATE docs SET fp = simhash(body, 4);"
	for doc in README.md doc/reference.md; do
		awk -v mode=citus -f "$(dirname "$0")/../../scripts/readme_blocks.awk" "$(dirname "$0")/../../$doc"
	done
} >"$script"
n=$(grep -c '^\\echo ' "$script" || true)
if out=$(coord -f "$script" 2>&1) && [ "$n" -gt 0 ]; then
	echo "ok   the documentation's $n SQL blocks that need Citus run as written"
else
	echo "FAIL the documentation's SQL blocks that need Citus ($n blocks):"; echo "${out:0:2000}"; fail=1
fi
rm -f "$script"

# ---- ndd-load (doc/loader.md) against the coordinator, unchanged: the table it creates, made a
# distributed table before anything is loaded; a load of the same document in every format (the
# fixtures of test/data/loader), a second run that loads nothing (its resume query joins the
# distributed table), a changed file whose rows are replaced (DELETE and COPY in one transaction),
# and doc/loader.md's next step (a generated fingerprint column, the ndd index, ndd_jaccard_pairs
# and ndd_clusters) on the distributed table: one group of every format ----
root=$NDD_ROOT
if make -s -C "$root/loader" ndd-load >/dev/null; then
	load() { PGHOST=127.0.0.1 PGPORT=$NDD_CITUS_COORD PGUSER=postgres PGDATABASE=postgres "$root/loader/ndd-load" -t loader.docs "$@"; }
	in=$(mktemp -d /tmp/ndd-citus-load.XXXXXX)
	mkdir "$in/empty" "$in/formats"
	cp "$root"/test/data/loader/source.* "$in/formats/"
	rm "$in/formats/source.md"   # markdown is plain text: the same format twice
	coord -c "CREATE SCHEMA loader" >/dev/null
	load -q "$in/empty"
	coord -c "SELECT create_distributed_table('loader.docs', 'id')" >/dev/null
	check "ndd-load's table made a distributed table" "SELECT count(*) || ' shards' FROM pg_dist_shard WHERE logicalrelid = 'loader.docs'::regclass" \
		"SELECT current_setting('citus.shard_count') || ' shards'"
	nfiles=$(ls "$in/formats" | wc -l)
	load -j 2 "$in/formats" 2>"$in/first.err"
	status=$?
	load -j 2 "$in/formats" 2>"$in/second.err"
	status2=$?
	echo "one more line" >>"$in/formats/source.txt"
	load -q "$in/formats"
	status3=$?
	spread=$(coord -c "SELECT count(DISTINCT get_shard_id_for_distribution_column('loader.docs', id)) FROM loader.docs")
	got=$(coord -F '|' -c "SELECT count(*), count(*) FILTER (WHERE error IS NULL), bool_and(text ~ 'one more line') FILTER (WHERE format = 'text') FROM loader.docs")
	if [ "$status$status2$status3" = 000 ] && [ "$got" = "$nfiles|$nfiles|t" ] && [ "$spread" -gt 1 ] &&
		grep -q "$nfiles loaded as $nfiles rows" "$in/first.err" && grep -q "0 loaded as 0 rows into loader.docs, $nfiles already loaded" "$in/second.err"; then
		echo "ok   ndd-load into a distributed table: $nfiles inputs in $spread shards, a second run loads nothing, a changed file replaced"
	else
		echo "FAIL ndd-load into a distributed table: exit statuses $status $status2 $status3, rows|without error|changed text: $got (expected $nfiles|$nfiles|t), shards used $spread"
		cat "$in/first.err" "$in/second.err"; fail=1
	fi
	{ echo "SET search_path = loader, public;"; awk -v mode=plain -f "$root/scripts/readme_blocks.awk" "$root/doc/loader.md"; } >"$in/next_step.sql"
	# its output: the \echo line, the groups (one: every format), the documents within 3 bits of the PDF
	out=$(PGOPTIONS="-c client_min_messages=warning" coord -F '|' -f "$in/next_step.sql" 2>&1)
	groups=$(sed -n 2p <<<"$out" | cut -d'|' -f2) near=$(($(wc -l <<<"$out") - 2))
	if [ "$groups" = "docx, epub, html, odp, odt, pdf, pptx, text" ] && [ "$near" = "$nfiles" ]; then
		echo "ok   doc/loader.md's next step on the distributed table: one group of every format ($groups), $near documents within 3 bits of the PDF"
	else
		echo "FAIL doc/loader.md's next step on the distributed table: ${out:0:1000}"; fail=1
	fi
	rm -rf "$in"
else
	echo "FAIL ndd-load does not build (make -C loader)"; fail=1
fi

exit $fail
