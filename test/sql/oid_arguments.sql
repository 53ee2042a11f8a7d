-- Issue 31, finding 8: every function argument of an OID-like type (regclass, regconfig, regproc,
-- ...; any number casts to one: 12345::oid::regconfig) is checked before it is used: a missing
-- object is a clear error (42P01 for a relation, 42704 for another object), never XX000 ("cache
-- lookup failed"). The functions are listed from the catalog (members of the extension with an
-- argument of a reg* type or oid), so a function added later is called too; an argument type
-- without a sample value below fails the test until one is added. Functions with an argument of
-- type internal (the planner's selectivity estimators) cannot be called from SQL and are left out.
\set VERBOSITY terse
SELECT ndd_filter('a', true, 12345::oid::regconfig, 'words');

CREATE TEMP TABLE oid_calls (fn regprocedure, sqlstate text, message text);
DO $$
DECLARE
    f record;
    args text[];
    t oid;
    sample text;
BEGIN
    FOR f IN
        SELECT p.oid, p.proargtypes::oid[] AS types
        FROM pg_proc AS p
        JOIN pg_depend AS d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
        JOIN pg_extension AS e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
        WHERE e.extname = 'ndd' AND p.prokind = 'f'
          AND EXISTS (SELECT FROM unnest(p.proargtypes::oid[]) AS a(t) JOIN pg_type AS y ON y.oid = a.t
                      WHERE y.typnamespace = 'pg_catalog'::regnamespace AND (y.typname LIKE 'reg%' OR y.typname = 'oid'))
          AND NOT 'internal'::regtype::oid = ANY (p.proargtypes::oid[])
        ORDER BY p.oid::regprocedure::text
    LOOP
        args := '{}';
        FOREACH t IN ARRAY f.types LOOP
            SELECT CASE
                WHEN y.typname LIKE 'reg%' OR y.typname = 'oid' THEN format('12345::oid::%s', t::regtype)
                WHEN t = 'text'::regtype OR t = 'name'::regtype THEN format('%L::%s', 'fp', t::regtype)
                WHEN t = 'boolean'::regtype THEN 'true'
                WHEN t = 'integer'::regtype OR t = 'bigint'::regtype THEN '1'
                WHEN t = 'anyelement'::regtype THEN '0::bigint'
                END INTO sample
            FROM pg_type AS y WHERE y.oid = t;
            IF sample IS NULL THEN
                RAISE EXCEPTION 'no sample value for an argument of type % of %: add one to test/sql/oid_arguments.sql',
                    t::regtype, f.oid::regprocedure;
            END IF;
            args := args || sample;
        END LOOP;
        BEGIN
            EXECUTE format('SELECT %s(%s)', f.oid::regproc, array_to_string(args, ', '));
            INSERT INTO oid_calls VALUES (f.oid, '00000', 'no error');
        EXCEPTION WHEN OTHERS THEN
            INSERT INTO oid_calls VALUES (f.oid, SQLSTATE, SQLERRM);
        END;
    END LOOP;
END
$$;
-- every call fails with a proper error naming the missing object; none with XX000
SELECT fn, sqlstate, message FROM oid_calls ORDER BY fn::text;
SELECT count(*) AS functions, count(*) FILTER (WHERE sqlstate = 'XX000') AS internal_errors,
       count(*) FILTER (WHERE sqlstate = '00000') AS accepted_a_missing_object
FROM oid_calls;
