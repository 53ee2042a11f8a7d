#!/usr/bin/env bash
# Issue 8, points 2 and 3, as an attacker would try them (each step fails on ndd 0.1):
#  1. The extension installed into a schema that is not on search_path: every workflow, trigger
#     and document-frequency function works, called schema-qualified; the extension cannot be
#     moved (not relocatable: its bodies name its schema).
#  2. CVE-2018-1058 class: a role that may CREATE in public defines better-matching
#     public.ndd_nearest_cluster / ndd_nearest_cluster_sql / <~> / <= / = (bigint, the id columns'
#     comparison); a superuser then inserts
#     into a labelled table (with public first on its search_path, and with the extension itself
#     in public). The attacker must still not be superuser and its functions must never have run.
#  3. The labelling lock: another role holding pg_advisory_lock(7234660, <table oid>) (0.1's
#     key) no longer stalls labelled inserts, and a role without INSERT cannot take the new lock
#     (42501, at once, while a labelling transaction holds it). A role that may insert into a
#     partition but not read the partitioned table gets a clear 42501 naming the table.
#  4. ndd_index_check by a role without rights on the table: refused (42501) without taking a
#     lock: it does not wait behind a session holding ACCESS EXCLUSIVE on the table.
#  5. Issue 20: every function of the extension that is not C (listed from the catalog; each needs
#     a call here) is called by a superuser while a role that may CREATE in public has defined
#     exact-typed shadows of what such bodies call (cardinality, unnest, format, array_agg, count,
#     float8 / int4, int4 - float8, text || int, oid = regclass, ...), with the extension in its
#     own schema and in public (the shadows exist before CREATE EXTENSION, so the install script
#     is tried too). No shadow may run. ndd 0.2.0 before issue 20 fails it (ndd_verify,
#     ndd_cluster_worst_pairs, ndd_df_collect).
# Waiting is detected with lock_timeout (an error, 55P03, if a statement waits), not with timings.
# Runs against the cluster of scripts/test.sh (PGHOST, PGPORT, PGUSER, PGDATABASE).
set -euo pipefail
db=ndd_security
roles="regress_ndd_attacker regress_ndd_nobody"
cleanup() {
	wait
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	for r in $roles; do psql -X -q -d postgres -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
cleanup
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db" \
	-c "CREATE ROLE regress_ndd_attacker LOGIN" -c "CREATE ROLE regress_ndd_nobody LOGIN"
q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d $db "$@"; }
fail() { echo "FAILED: $*"; exit 1; }

# ---- 1. a schema off the path ----
q <<'SQL'
CREATE SCHEMA ndd_ext;
CREATE EXTENSION ndd SCHEMA ndd_ext;
GRANT USAGE ON SCHEMA ndd_ext TO PUBLIC;
CREATE TABLE docs (id bigserial PRIMARY KEY, body text,
                   fp ndd_ext.simhash64 GENERATED ALWAYS AS (ndd_ext.simhash(body, 2)) STORED,
                   cluster_id bigint);
CREATE INDEX ON docs USING ndd (fp);
CREATE TRIGGER label BEFORE INSERT ON docs FOR EACH ROW EXECUTE FUNCTION ndd_ext.ndd_assign_cluster_trigger('fp');
INSERT INTO docs (body) VALUES ('one two three four five six seven eight nine ten eleven twelve'),
                               ('one two three four five six seven eight nine ten eleven twelve'),
                               ('alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu');
SQL
out=$(q <<'SQL'
SET search_path = public;
SELECT 'clusters ' || string_agg(id || ':' || cluster_id, ' ' ORDER BY id) FROM docs;
SELECT 'nearest ' || ndd_ext.ndd_nearest_cluster('docs', 'fp', (SELECT fp FROM docs WHERE id = 2), 3);
SELECT 'pairs ' || count(*) FROM ndd_ext.ndd_pairs('SELECT id, fp FROM docs', 3);
SELECT 'feature_pairs ' || count(*) FROM ndd_ext.ndd_feature_pairs('SELECT id, ndd_ext.supershingles(ndd_ext.shingle_minhash(body)) FROM docs', 1);
SELECT 'ndd_clusters ' || count(*) FROM ndd_ext.ndd_clusters('SELECT a, b FROM ndd_ext.ndd_pairs(''SELECT id, fp FROM docs'', 3)');
SELECT 'verify ' || round(jaccard::numeric, 2) FROM ndd_ext.ndd_verify('VALUES (1, 2)', 'SELECT id, body FROM docs');
SELECT 'worst ' || count(*) FROM ndd_ext.ndd_cluster_worst_pairs('SELECT id, cluster_id FROM docs', 'SELECT id, body FROM docs');
SELECT 'filter ' || ndd_ext.ndd_filter('The 3 cats', true, 'english');
SELECT 'collect ' || ndd_ext.ndd_df_collect('c', 'SELECT id, body FROM docs');
SELECT 'add ' || ndd_ext.ndd_df_add('c', 'one more');
SELECT 'low_idf ' || ndd_ext.ndd_filter_low_idf('one alpha zzz', 'c', 0.5);
SELECT 'check ' || (ndd_ext.ndd_index_check('docs_fp_idx') ~ ': ok$');
SQL
)
echo "$out"
expect="clusters 1:1 2:1 3:3
nearest 1
pairs 1
feature_pairs 1
ndd_clusters 2
verify 1.00
worst 1
filter cats
collect 3
add 4
low_idf alpha zzz
check true"
[ "$out" = "$expect" ] || fail "functions of an extension installed off the search_path"
moved=$(q -c "ALTER EXTENSION ndd SET SCHEMA public" 2>&1 || true)
echo "$moved" | grep -q 'does not support SET SCHEMA' || fail "the extension can be moved: $moved"

# ---- 2. shadowing functions and operators (CVE-2018-1058 class) ----
attack() {  # $1: the extension's schema
	local ext=$1
	q <<SQL
GRANT CREATE ON SCHEMA public TO regress_ndd_attacker;
CREATE TABLE public.attack_log (what text);
GRANT INSERT ON public.attack_log TO regress_ndd_attacker;
SET ROLE regress_ndd_attacker;
CREATE FUNCTION public.ndd_nearest_cluster(regclass, name, $ext.simhash64, int, name, name, boolean)
RETURNS bigint LANGUAGE plpgsql AS \$\$
BEGIN
    INSERT INTO public.attack_log VALUES ('ndd_nearest_cluster ran as ' || current_user);
    EXECUTE 'ALTER ROLE regress_ndd_attacker SUPERUSER';
    RETURN NULL;
END \$\$;
CREATE FUNCTION public.ndd_nearest_cluster(regclass, text, $ext.simhash64, int, text, text, boolean)
RETURNS bigint LANGUAGE sql AS \$\$ INSERT INTO public.attack_log VALUES ('text overload ran'); SELECT NULL::bigint \$\$;
CREATE FUNCTION public.ndd_nearest_cluster_sql(regclass, text, text, text, boolean)
RETURNS text LANGUAGE sql AS \$\$ INSERT INTO public.attack_log VALUES ('sql builder ran'); SELECT 'SELECT 1'::text \$\$;
CREATE FUNCTION public.ndd_labelling_lock(oid) RETURNS regclass LANGUAGE sql
AS \$\$ INSERT INTO public.attack_log VALUES ('lock ran'); SELECT NULL::regclass \$\$;
CREATE FUNCTION public.evil_dist($ext.simhash64, text) RETURNS int LANGUAGE sql
AS \$\$ INSERT INTO public.attack_log VALUES ('operator <~> ran'); SELECT 0 \$\$;
CREATE OPERATOR public.<~> (LEFTARG = $ext.simhash64, RIGHTARG = text, FUNCTION = public.evil_dist);
CREATE FUNCTION public.evil_le(int, bigint) RETURNS boolean LANGUAGE sql
AS \$\$ INSERT INTO public.attack_log VALUES ('operator <= ran'); SELECT true \$\$;
CREATE OPERATOR public.<= (LEFTARG = int, RIGHTARG = bigint, FUNCTION = public.evil_le);
CREATE FUNCTION public.evil_eq(bigint, bigint) RETURNS boolean LANGUAGE sql
AS \$\$ INSERT INTO public.attack_log VALUES ('operator = ran'); SELECT true \$\$;
CREATE OPERATOR public.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = public.evil_eq);
CREATE FUNCTION public.jsonb_populate_record(anyelement, jsonb) RETURNS anyelement LANGUAGE sql
AS \$\$ INSERT INTO public.attack_log VALUES ('jsonb_populate_record ran'); SELECT \$1 \$\$;
RESET ROLE;
CREATE TABLE public.victim (id bigserial PRIMARY KEY, fp $ext.simhash64, cluster_id bigint);
CREATE TRIGGER label BEFORE INSERT ON public.victim FOR EACH ROW EXECUTE FUNCTION $ext.ndd_assign_cluster_trigger('fp');
SET search_path = public, $ext, pg_catalog;
INSERT INTO public.victim (fp) VALUES ('00000000000000ff');
INSERT INTO public.victim (fp) VALUES ('00000000000000fe');
RESET search_path;
SQL
	local state
	state=$(q -c "SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_ndd_attacker')
	                || ' ' || (SELECT count(*) FROM public.attack_log)
	                || ' ' || (SELECT string_agg(id || ':' || cluster_id, ' ' ORDER BY id) FROM public.victim)")
	echo "extension in $ext: attacker superuser, attack functions run, victim rows: $state"
	[ "$state" = "false 0 1:1 2:1" ] || fail "the trigger was captured (extension in $ext): $(q -c 'SELECT string_agg(what, \$\$; \$\$) FROM public.attack_log')"
	q <<SQL
DROP TABLE public.victim, public.attack_log;
DROP OWNED BY regress_ndd_attacker;
REVOKE CREATE ON SCHEMA public FROM regress_ndd_attacker;
ALTER ROLE regress_ndd_attacker NOSUPERUSER;
SQL
}
attack ndd_ext
# the same with the extension in public itself, where the attacker may create
q -c "DROP TABLE docs" -c "DROP EXTENSION ndd" -c "CREATE EXTENSION ndd SCHEMA public"
attack public

# ---- 3. the labelling lock ----
q <<'SQL'
CREATE TABLE labelled (id bigserial PRIMARY KEY, fp simhash64, cluster_id bigint);
CREATE TRIGGER label BEFORE INSERT ON labelled FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
GRANT SELECT ON labelled TO regress_ndd_nobody;
SQL
oid=$(q -c "SELECT 'labelled'::regclass::oid")
# held ROLE SQL PROBE_ROLE PROBE: ROLE runs SQL in an open transaction and keeps it open while
# PROBE_ROLE runs PROBE with lock_timeout; prints the probe's first line (55P03 if it waited).
held() {
	psql -X -q -d $db -U "$1" -v ON_ERROR_STOP=1 -c "SET application_name = 'ndd_holder'" -c "BEGIN" \
		-c "$2" -c "SELECT pg_sleep(120)" -c "COMMIT" >/dev/null 2>&1 &
	local holder=$!
	until [ "$(q -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'ndd_holder' AND query LIKE '%pg_sleep(120)%'")" = 1 ]; do
		sleep 0.1
	done
	psql -X -q -A -t -d $db -U "$3" -v VERBOSITY=verbose -c "SET lock_timeout = '2s'" -c "$4" 2>&1 | head -1 || true
	q -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'ndd_holder'" >/dev/null
	wait $holder || true
}
# another role holds 0.1's advisory key while a labelled insert runs
ins=$(held regress_ndd_nobody "SELECT pg_advisory_xact_lock(7234660, $oid::int)" postgres "INSERT INTO labelled (fp) VALUES ('1') RETURNING cluster_id")
echo "insert while another role holds the old advisory key: $ins"
[ "$ins" = "1" ] || fail "another role's advisory lock stalled a labelled insert: $ins"
# a role without INSERT cannot take the new lock, and is refused at once while an insert holds it
took=$(held postgres "INSERT INTO labelled (fp) VALUES ('3')" regress_ndd_nobody "SELECT ndd_labelling_lock('labelled')")
echo "a role without INSERT asks for the labelling lock: $took"
echo "$took" | grep -q '42501' || fail "a role without INSERT could take (or wait for) the labelling lock: $took"

# a role that may insert into a partition but not read the partitioned table: labelling searches
# the whole table, so the insert fails with 42501 naming that table (it used to fail inside the
# search, "permission denied for table", in the context of an SQL statement the role never wrote)
q <<'SQL'
CREATE TABLE parted (id bigint PRIMARY KEY, fp simhash64, cluster_id bigint) PARTITION BY RANGE (id);
CREATE TABLE parted_low PARTITION OF parted FOR VALUES FROM (0) TO (100);
CREATE TRIGGER label BEFORE INSERT ON parted FOR EACH ROW EXECUTE FUNCTION ndd_assign_cluster_trigger('fp');
GRANT SELECT, INSERT ON parted_low TO regress_ndd_nobody;
SQL
part=$(psql -X -q -A -t -d $db -U regress_ndd_nobody -v VERBOSITY=verbose -c "INSERT INTO parted_low VALUES (1, '1')" 2>&1 | head -2 | tr '\n' ' ' || true)
echo "a role with INSERT on a partition only inserts there: $part"
echo "$part" | grep -q '42501: permission denied to label rows of table "parted_low": labelling searches table public.parted' ||
	fail "an insert into a partition by a role that cannot read the partitioned table did not fail clearly: $part"
# with SELECT on the partitioned table (column privileges suffice) the same insert labels its row
q -c "GRANT SELECT (id, fp, cluster_id) ON parted TO regress_ndd_nobody"
part=$(psql -X -q -A -t -d $db -U regress_ndd_nobody -v ON_ERROR_STOP=1 -c "INSERT INTO parted_low VALUES (2, '1') RETURNING cluster_id" 2>&1 || true)
echo "the same role with SELECT on the partitioned table: cluster $part"
[ "$part" = "2" ] || fail "a role with SELECT on the partitioned table could not label its row: $part"
q -c "DROP TABLE parted"

# ---- 4. ndd_index_check: no right, no lock ----
q -c "CREATE INDEX labelled_fp ON labelled USING ndd (fp)" -c "GRANT EXECUTE ON FUNCTION ndd_index_check(regclass) TO regress_ndd_nobody" \
	-c "REVOKE SELECT ON labelled FROM regress_ndd_nobody"
chk=$(held postgres "LOCK TABLE labelled IN ACCESS EXCLUSIVE MODE" regress_ndd_nobody "SELECT ndd_index_check('labelled_fp')")
echo "a role without rights on the table checks its index: $chk"
echo "$chk" | grep -q '42501' || fail "ndd_index_check by a role without rights did not fail with 42501 at once: $chk"
# and a check by the owner does not block writers (AccessShareLock)
w=$(held postgres "SELECT ndd_index_check('labelled_fp')" postgres "INSERT INTO labelled (fp) VALUES ('7') RETURNING 'inserted'")
echo "insert while a check's transaction is open: $w"
[ "$w" = "inserted" ] || fail "ndd_index_check blocked a writer: $w"
q -c "REVOKE ALL ON FUNCTION ndd_index_check(regclass) FROM regress_ndd_nobody" -c "REVOKE ALL ON labelled FROM regress_ndd_nobody" -c "DROP TABLE labelled"
# ---- 5. every function that is not C, against shadowed functions and operators (issue 20) ----
# The list of functions comes from the catalog (every member of the extension whose language is
# not C or internal); each must have a call below, so a function added later without one fails
# the test. A role that may CREATE in public defines, there, exact-typed versions of what the
# bodies call where PostgreSQL's own is polymorphic, variadic or needs a cast (cardinality(text[]),
# unnest(text[]), format(text, ...), array_agg, count(bigint), float8 / int4, int4 - float8,
# text || int, oid = regclass, ...): each logs and makes the role superuser. A superuser then
# calls every function (search_path "$user", public), with the extension in its own schema and in
# public; created before CREATE EXTENSION, the shadows also try to capture the install script.
shadows() {
	q <<'SQL'
GRANT CREATE ON SCHEMA public TO regress_ndd_attacker;
CREATE TABLE public.attack_log (what text);
GRANT INSERT ON public.attack_log TO regress_ndd_attacker;
SET ROLE regress_ndd_attacker;
CREATE FUNCTION public.pwn(what text) RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
    INSERT INTO public.attack_log VALUES (what || ' ran as ' || current_user);
    BEGIN EXECUTE 'ALTER ROLE regress_ndd_attacker SUPERUSER'; EXCEPTION WHEN insufficient_privilege THEN NULL; END;
END $$;
DO $$
DECLARE
    f text[];
BEGIN
    -- functions: name, arguments, result, PostgreSQL's own with the same arguments
    FOREACH f SLICE 1 IN ARRAY ARRAY[
        ['cardinality', 'text[]', 'int', 'pg_catalog.cardinality($1)'],
        ['array_length', 'text[], int', 'int', 'pg_catalog.array_length($1, $2)'],
        ['format', 'text, text', 'text', 'pg_catalog.format($1, $2)'],
        ['format', 'text, text, text', 'text', 'pg_catalog.format($1, $2, $3)'],
        ['format', 'text, text, text, text', 'text', 'pg_catalog.format($1, $2, $3, $4)'],
        ['format', 'text, text, text, text, text', 'text', 'pg_catalog.format($1, $2, $3, $4, $5)'],
        ['format', 'text, text, int', 'text', 'pg_catalog.format($1, $2, $3)'],
        ['format', 'text, int', 'text', 'pg_catalog.format($1, $2)'],
        ['format', 'text, bigint', 'text', 'pg_catalog.format($1, $2)'],
        ['format', 'text, int, text', 'text', 'pg_catalog.format($1, $2, $3)'],
        ['format', 'text, name, text', 'text', 'pg_catalog.format($1, $2, $3)'],
        ['format', 'text, regclass', 'text', 'pg_catalog.format($1, $2)'],
        ['format', 'text, regtype', 'text', 'pg_catalog.format($1, $2)'],
        ['format', 'text, regclass, name, name, name', 'text', 'pg_catalog.format($1, $2, $3, $4, $5)'],
        ['format', 'text, name, regclass, name, name', 'text', 'pg_catalog.format($1, $2, $3, $4, $5)'],
        ['jsonb_populate_record', 'anyelement, jsonb', 'anyelement', 'pg_catalog.jsonb_populate_record($1, $2)']]
    LOOP
        EXECUTE pg_catalog.format('CREATE FUNCTION public.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
            f[1], f[2], f[3], pg_catalog.format('BEGIN PERFORM public.pwn(%L); RETURN %s; END', f[1] || '(' || f[2] || ')', f[4]));
    END LOOP;
    FOREACH f SLICE 1 IN ARRAY ARRAY[['text[]', 'text'], ['bigint[]', 'bigint'], ['int[]', 'int']] LOOP
        EXECUTE pg_catalog.format('CREATE FUNCTION public.unnest(%s) RETURNS SETOF %s LANGUAGE plpgsql AS %L', f[1], f[2],
            pg_catalog.format('BEGIN PERFORM public.pwn(%L); RETURN QUERY SELECT pg_catalog.unnest($1); END', 'unnest(' || f[1] || ')'));
        EXECUTE pg_catalog.format('CREATE FUNCTION public.pwn_append(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L', f[1], f[2], f[1],
            pg_catalog.format('BEGIN PERFORM public.pwn(%L); RETURN pg_catalog.array_append($1, $2); END', 'array_agg(' || f[2] || ')'));
        EXECUTE pg_catalog.format('CREATE AGGREGATE public.array_agg(%s) (SFUNC = public.pwn_append, STYPE = %s)', f[2], f[1]);
    END LOOP;
    FOREACH f SLICE 1 IN ARRAY ARRAY[['bigint'], ['text'], ['int']] LOOP
        EXECUTE pg_catalog.format('CREATE FUNCTION public.pwn_count(bigint, %s) RETURNS bigint LANGUAGE plpgsql AS %L', f[1],
            pg_catalog.format('BEGIN PERFORM public.pwn(%L); RETURN $1 + 1; END', 'count(' || f[1] || ')'));
        EXECUTE pg_catalog.format('CREATE AGGREGATE public.count(%s) (SFUNC = public.pwn_count, STYPE = bigint, INITCOND = 0)', f[1]);
    END LOOP;
    -- operators: symbol, left, right, result, PostgreSQL's own on the same operands
    FOREACH f SLICE 1 IN ARRAY ARRAY[
        ['/', 'float8', 'int4', 'float8', '$1 / $2::float8'], ['/', 'float8', 'int8', 'float8', '$1 / $2::float8'],
        ['/', 'int8', 'float8', 'float8', '$1::float8 / $2'], ['/', 'int4', 'float8', 'float8', '$1::float8 / $2'],
        ['-', 'int4', 'float8', 'float8', '$1::float8 - $2'], ['-', 'float8', 'int4', 'float8', '$1 - $2::float8'],
        ['+', 'int4', 'float8', 'float8', '$1::float8 + $2'], ['*', 'float8', 'int4', 'float8', '$1 * $2::float8'],
        ['>=', 'float8', 'numeric', 'boolean', '$1 >= $2::float8'], ['<', 'int8', 'numeric', 'boolean', '$1 < $2'],
        ['||', 'text', 'int4', 'text', '$1 || $2::text'], ['||', 'text', 'int8', 'text', '$1 || $2::text'],
        ['||', 'int4', 'text', 'text', '$1::text || $2'], ['||', 'text', 'name', 'text', '$1 || $2::text'],
        ['=', 'oid', 'regclass', 'boolean', '$1 = $2::oid'], ['=', 'regclass', 'oid', 'boolean', '$1::oid = $2'],
        ['=', 'oid', 'regtype', 'boolean', '$1 = $2::oid'], ['<>', 'regtype', 'regtype', 'boolean', '$1::oid <> $2::oid'],
        ['=', 'name', 'text', 'boolean', '$1::text = $2'], ['=', 'text', 'name', 'boolean', '$1 = $2::text'],
        ['<=', 'int4', 'int8', 'boolean', '$1 <= $2'], ['=', 'int8', 'int8', 'boolean', '$1 = $2']]
    LOOP
        EXECUTE pg_catalog.format('CREATE FUNCTION public.%I(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L',
            'pwn_op_' || pg_catalog.md5(f[1] || f[2] || f[3]), f[2], f[3], f[4],
            pg_catalog.format('BEGIN PERFORM public.pwn(%L); RETURN %s; END', f[2] || ' ' || f[1] || ' ' || f[3], f[5]));
        EXECUTE pg_catalog.format('CREATE OPERATOR public.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.%I)',
            f[1], f[2], f[3], 'pwn_op_' || pg_catalog.md5(f[1] || f[2] || f[3]));
    END LOOP;
END $$;
RESET ROLE;
SQL
}
# calls EXT: one line per function of the extension that is not C, "name(argument types)|statement"
calls() {
	cat <<SQL
ndd_nearest_cluster_sql(regclass, name, name, name, boolean)|SELECT $1.ndd_nearest_cluster_sql('public.sdocs', 'fp', 'cluster_id', 'id', false) IS NOT NULL
ndd_nearest_cluster(regclass, name, anyelement, integer, name, name, boolean)|SELECT $1.ndd_nearest_cluster('public.sdocs', 'fp', (SELECT fp FROM public.sdocs WHERE id = 2), 3)
ndd_verify(text, text, integer, text)|SELECT count(*) FROM $1.ndd_verify('VALUES (1, 2), (1, 3), (2, 9)', 'SELECT id, body FROM sdocs', tokenizer => 'unicode')
ndd_verify_job(text, text, integer, text, text)|SELECT count(*) FROM $1.ndd_verify_job('VALUES (1, 2)', 'SELECT id, body FROM sdocs', 4, 'words', '"\$user", public')
ndd_cluster_worst_pairs(text, text, integer, text)|SELECT count(*) FROM $1.ndd_cluster_worst_pairs('SELECT id, 1 FROM sdocs', 'SELECT id, body FROM sdocs', tokenizer => 'unicode')
ndd_cluster_worst_pairs_job(text, text, integer, text, text)|SELECT count(*) FROM $1.ndd_cluster_worst_pairs_job('SELECT id, 1 FROM sdocs', 'SELECT id, body FROM sdocs', 4, 'words', '"\$user", public')
ndd_tokenizer_check()|SELECT count(*) FROM $1.ndd_tokenizer_check()
ndd_tokenizer_refresh_version(text)|SELECT $1.ndd_tokenizer_refresh_version('unicode') IS NOT NULL
ndd_df_collect(text, text, boolean)|SELECT $1.ndd_df_collect('c', 'SELECT id, body FROM sdocs')
ndd_df_collect_job(text, text, boolean, text)|SELECT $1.ndd_df_collect_job('c2', 'SELECT id, body FROM sdocs', false, '"\$user", public')
ndd_df_add(text, text, boolean)|SELECT $1.ndd_df_add('c', 'one more document')
ndd_filter_low_idf(text, text, double precision)|SELECT $1.ndd_filter_low_idf('one alpha zzz', 'c', 0.5)
ndd_role_memberships()|SELECT cardinality($1.ndd_role_memberships())
cosine_idf(text, text, text)|SELECT $1.cosine_idf('one alpha zzz', 'alpha one', 'c') > 0
ndd_collections_readable()|SELECT count(*) FROM $1.ndd_collections_readable()
ndd_collections_writable()|SELECT count(*) FROM $1.ndd_collections_writable()
ndd_collection_check_owner(text, boolean)|SELECT $1.ndd_collection_check_owner('c', true)
ndd_collection_readable_ndocs(text)|SELECT $1.ndd_collection_readable_ndocs('c') > 0
ndd_collection_grant(text, text)|SELECT $1.ndd_collection_grant('c', 'regress_ndd_nobody')
ndd_collection_revoke(text, text)|SELECT $1.ndd_collection_revoke('c', 'regress_ndd_nobody')
ndd_collection_set_reader(text, text, boolean)|SELECT $1.ndd_collection_set_reader('c', 'public', true)
ndd_distributed_job(text, text, integer, integer, integer, text)|SELECT count(*) FROM $1.ndd_distributed_job('SELECT id, fp FROM sdocs', NULL, 3, 0, 64, '"\$user", public')
ndd_distributed_pairs(text, integer, integer, integer)|SELECT count(*) FROM $1.ndd_distributed_pairs('SELECT id, fp FROM sdocs', 3)
ndd_distributed_pairs_between(text, text, integer, integer, integer)|SELECT count(*) FROM $1.ndd_distributed_pairs_between('SELECT id, fp FROM sdocs', 'SELECT id, fp FROM sdocs', 3)
ndd_distributed_feature_pairs(text, integer, integer)|SELECT count(*) FROM $1.ndd_distributed_feature_pairs('SELECT id, ARRAY[id] FROM sdocs')
ndd_distributed_feature_pairs_job(text, integer, integer, text)|SELECT count(*) FROM $1.ndd_distributed_feature_pairs_job('SELECT id, ARRAY[id] FROM sdocs', 2, 1000, '"\$user", public')
ndd_distributed_mirrors(text, integer, integer, double precision, integer, integer)|SELECT count(*) FROM $1.ndd_distributed_mirrors('SELECT id, ''http://h/'' || id, fp FROM sdocs', 0, 1, 0)
ndd_distributed_mirrors_job(text, integer, integer, double precision, integer, integer, text)|SELECT count(*) FROM $1.ndd_distributed_mirrors_job('SELECT id, ''http://h/'' || id, fp FROM sdocs', 0, 1, 0, 1000, 4096, '"\$user", public')
SQL
}
capture_all() {  # $1: the extension's schema
	local ext=$1 fn stmt out log missing=""
	# the test's own queries run under a pinned search_path: the shadows would capture them too
	qp() { q -c "SET search_path = pg_catalog, pg_temp" "$@"; }
	q -c "DROP EXTENSION IF EXISTS ndd CASCADE" -c "DROP TABLE IF EXISTS public.sdocs"
	shadows
	q -c "CREATE SCHEMA IF NOT EXISTS $ext" -c "CREATE EXTENSION ndd SCHEMA $ext" -c "GRANT USAGE ON SCHEMA $ext TO PUBLIC"
	out=$(qp -c "SELECT string_agg(DISTINCT what, '; ') FROM public.attack_log")
	[ -z "$out" ] || fail "CREATE EXTENSION ndd SCHEMA $ext was captured: $out"
	q <<SQL
CREATE TABLE public.sdocs (id bigint PRIMARY KEY, body text, fp $ext.simhash64, cluster_id bigint);
INSERT INTO public.sdocs
SELECT i, b, $ext.simhash(b, 2), i FROM (VALUES (1, 'one two three four five six seven eight nine ten'),
    (2, 'one two three four five six seven eight nine eleven'), (3, 'alpha beta gamma delta epsilon zeta')) AS v(i, b);
SQL
	# every function of the catalog has a call
	while IFS= read -r fn; do
		calls "$ext" | grep -qF "$fn|" || missing+=" $fn"
	done < <(qp -c "SELECT p.proname || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')'
	               FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
	               WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e' AND l.lanname NOT IN ('c', 'internal')
	                 AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd') ORDER BY 1")
	[ -z "$missing" ] || fail "functions of the extension that are not C and have no call in security.sh:$missing"
	while IFS='|' read -r fn stmt; do
		# only functions of this version (the list also runs against older ones)
		[ "$(qp -c "SELECT count(*) FROM pg_proc WHERE proname || '(' || pg_catalog.oidvectortypes(proargtypes) || ')' = '$fn'
		           AND pronamespace = '$ext'::regnamespace")" = 1 ] || continue
		# errors allowed: Citus is missing (0A000) for the distributed ones
		out=$(psql -X -q -A -t -d $db -v VERBOSITY=verbose -c 'SET search_path = "$user", public' -c "$stmt" 2>&1 | head -1 || true)
		echo "  $ext.$fn: $out"
		log=$(qp -c "SELECT string_agg(DISTINCT what, '; ') FROM public.attack_log")
		[ -z "$log" ] || fail "$ext.$fn was captured: $log"
		case "$out" in ERROR:*) echo "$out" | grep -q '0A000' || fail "$fn failed: $out";; esac
	done < <(calls "$ext")
	local state
	state=$(qp -c "SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_ndd_attacker')
	                || ' ' || (SELECT count(*) FROM public.attack_log)")
	echo "extension in $ext, every function called by a superuser: attacker superuser, shadows run: $state"
	[ "$state" = "false 0" ] || fail "a function was captured (extension in $ext): $(qp -c 'SELECT string_agg(DISTINCT what, $$; $$) FROM public.attack_log')"
	q <<SQL
DROP TABLE public.sdocs, public.attack_log;
DROP EXTENSION ndd CASCADE;
DROP OWNED BY regress_ndd_attacker;
REVOKE CREATE ON SCHEMA public FROM regress_ndd_attacker;
ALTER ROLE regress_ndd_attacker NOSUPERUSER;
SQL
}
capture_all ndd_ext2
capture_all public
echo "security: ok"
