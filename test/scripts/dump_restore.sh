#!/usr/bin/env bash
# Issue 8, point 6: the extension's tables (ndd_collection, ndd_df: configuration tables, dumped by
# pg_dump) survive pg_dump -Fd / pg_restore -j 4 intact, every time. ndd_df references
# ndd_collection (issue 31: its rows cannot outlive their collection); pg_dump orders the data of
# configuration tables by their foreign keys, so ndd_df's data is restored after the collections'
# (issue 8 had found rows lost by a parallel restore with 0.1's same foreign key: this test is what
# says whether that holds).
# Also: a plain role (no privilege beyond those documented in doc/reference.md, "Who may do what") uses
# the documented functions, labels rows in its own table, reads the frequencies and, once granted,
# builds a collection.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -euo pipefail
src=ndd_dump_src
dst=ndd_dump_dst
dir=$(mktemp -d /tmp/ndd-dump.XXXXXX)
chmod 777 "$dir"
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $src" -c "DROP DATABASE IF EXISTS $dst" >/dev/null 2>&1 || true
	psql -X -q -d postgres -c "DROP ROLE IF EXISTS regress_ndd_plain" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
cleanup
dir=$(mktemp -d /tmp/ndd-dump.XXXXXX)
chmod 777 "$dir"
fail() { echo "FAILED: $*"; exit 1; }
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $src" -c "CREATE ROLE regress_ndd_plain LOGIN"

# real rows: several collections of thousands of generated documents, a labelled table
psql -X -q -o /dev/null -v ON_ERROR_STOP=1 -d $src <<'SQL'
CREATE EXTENSION ndd;
CREATE TABLE docs (id bigint PRIMARY KEY, body text);
INSERT INTO docs
SELECT g, string_agg(md5((g * 7 + w % (3 + g % 11))::text), ' ' ORDER BY w)
FROM generate_series(1, 3000) g, generate_series(1, 12) w GROUP BY g;
SELECT ndd_df_collect('all', 'SELECT id, body FROM docs');
SELECT ndd_df_collect('even', 'SELECT id, body FROM docs WHERE id % 2 = 0');
SELECT ndd_df_collect('small', 'SELECT id, body FROM docs WHERE id <= 300');
SELECT count(ndd_df_add('incremental', body)) FROM docs WHERE id % 7 = 0;
SQL
snapshot() {  # the extension tables' contents, in a fixed order
	psql -X -q -A -t -d "$1" -c "SELECT name, ndocs, built_at FROM ndd_collection ORDER BY name" \
		-c "SELECT collection, token, df FROM ndd_df ORDER BY collection, token" | md5sum
}
counts() { psql -X -q -A -t -d "$1" -c "SELECT (SELECT count(*) FROM ndd_collection) || ' collections, ' || (SELECT count(*) FROM ndd_df) || ' df rows'"; }
echo "source: $(counts $src)"
want=$(snapshot $src)
pg_dump -Fd -f "$dir/dump" $src
for run in 1 2 3 4; do
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $dst" -c "CREATE DATABASE $dst"
	pg_restore -j 4 -d $dst "$dir/dump" 2>"$dir/restore.err" || fail "pg_restore -j 4 (run $run): $(head -5 "$dir/restore.err")"
	got=$(snapshot $dst)
	echo "restore $run (pg_restore -j 4): $(counts $dst)"
	[ "$got" = "$want" ] || fail "restore $run differs from the source"
done

# a plain role: what doc/reference.md says it may use, nothing more granted than that
# (the role's own table, and reading the documents table, which is the user's, not the extension's)
psql -X -q -v ON_ERROR_STOP=1 -d $dst -c "GRANT CREATE ON SCHEMA public TO regress_ndd_plain" -c "GRANT SELECT ON docs TO regress_ndd_plain"
# the collections' words are their owner's (issue 20): the plain role reads them once shared
denied=$(psql -X -q -A -t -d $dst -U regress_ndd_plain -c "SELECT ndd_filter_low_idf('x', 'all', 5)" 2>&1 || true)
echo "$denied" | grep -q 'permission denied for the document frequencies of collection "all"' ||
	fail "a plain role read the restored collection's frequencies before it was shared: $denied"
psql -X -q -A -t -v ON_ERROR_STOP=1 -d $dst \
	-c "SELECT ndd_collection_grant('all', 'regress_ndd_plain'), ndd_collection_grant('small', 'regress_ndd_plain')" >/dev/null
out=$(psql -X -q -A -t -v ON_ERROR_STOP=1 -d $dst -U regress_ndd_plain <<'SQL'
CREATE TABLE mine (id bigserial PRIMARY KEY, body text, fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED, cluster_id bigint);
CREATE INDEX ON mine USING ndd (fp);
CREATE TRIGGER label BEFORE INSERT ON mine FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
INSERT INTO mine (body) SELECT body FROM (VALUES ('a b c d e f g h i j k l m n'), ('a b c d e f g h i j k l m n'), ('z y x w v u t s r q p o')) v(body);
SELECT 'labels ' || string_agg(id || ':' || cluster_id, ' ' ORDER BY id) FROM mine;
SELECT 'pairs ' || count(*) FROM ndd_pairs('SELECT id, fp FROM mine', 3);
SELECT 'low_idf ' || length(ndd_filter_low_idf((SELECT body FROM docs WHERE id = 1), 'all', 5));
SELECT 'df rows readable ' || (count(*) > 0) FROM ndd_df WHERE collection = 'small';
SQL
) || fail "a plain role could not use the documented functions"
echo "$out"
denied=$(psql -X -q -A -t -d $dst -U regress_ndd_plain -c "SELECT ndd_df_add('all', 'vandal')" 2>&1 || true)
echo "plain role writes a collection without a grant: $denied"
echo "$denied" | grep -q 'permission denied' || fail "a plain role could change a collection without a grant"
psql -X -q -d $dst -c "GRANT INSERT, UPDATE, DELETE ON ndd_collection, ndd_df TO regress_ndd_plain"
built=$(psql -X -q -A -t -v ON_ERROR_STOP=1 -d $dst -U regress_ndd_plain -c "SELECT ndd_df_collect('mine', 'SELECT id, body FROM mine')") \
	|| fail "a granted role could not build a collection"
echo "granted plain role builds a collection of $built documents"
[ "$built" = 3 ] || fail "ndd_df_collect by a granted role"
psql -X -q -d $dst -c "DROP OWNED BY regress_ndd_plain"
echo "dump_restore: ok"
