-- Issue 20: no function of the extension resolves a name through its caller's search_path.
-- Every member of the extension that is not written in C (or internal: an alias of a built-in C
-- function) must either pin search_path to exactly "pg_catalog, pg_temp" (proconfig), or be a
-- SQL-standard body (BEGIN ATOMIC / RETURN, prosqlbody), which PostgreSQL binds to its functions
-- and operators when it is created. Read from the catalog, so a function added later is checked
-- too. Lists the offenders: expects none.
WITH members AS (
    SELECT p.oid, p.prolang, p.proconfig, p.prosqlbody, p.prosecdef
    FROM pg_depend AS d JOIN pg_proc AS p ON p.oid = d.objid
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
      AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd'))
SELECT m.oid::regprocedure AS function_without_pinned_search_path, l.lanname, m.proconfig
FROM members AS m JOIN pg_language AS l ON l.oid = m.prolang
WHERE l.lanname NOT IN ('c', 'internal')
  AND m.prosqlbody IS NULL
  AND NOT coalesce(m.proconfig @> ARRAY['search_path=pg_catalog, pg_temp'], false)
ORDER BY 1::text;
-- A pinned search_path is exactly pg_catalog then pg_temp (pg_temp last: a temporary function or
-- operator can never be chosen, and a temporary table only when named pg_temp.x).
SELECT p.oid::regprocedure AS function_with_other_search_path, p.proconfig
FROM pg_depend AS d JOIN pg_proc AS p ON p.oid = d.objid
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd')
  AND EXISTS (SELECT 1 FROM unnest(p.proconfig) AS c WHERE c LIKE 'search_path=%' AND c <> 'search_path=pg_catalog, pg_temp')
ORDER BY 1::text;
-- Functions that run with their owner's rights (SECURITY DEFINER): none (the trigger that kept
-- ndd_df in step with ndd_collection gave way to a foreign key in issue 31). Every function runs
-- the caller's queries with the caller's rights.
SELECT p.oid::regprocedure AS security_definer_function, p.prorettype::regtype AS returns,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute
FROM pg_depend AS d JOIN pg_proc AS p ON p.oid = d.objid
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd') AND p.prosecdef
ORDER BY 1::text;
-- The check reaches each kind of function: how many of each language the extension has, and how
-- many of them are pinned or SQL-standard bodies (plpgsql and sql must be all of them).
SELECT l.lanname, count(*) > 0 AS has_functions,
       count(*) FILTER (WHERE p.proconfig @> ARRAY['search_path=pg_catalog, pg_temp'] OR p.prosqlbody IS NOT NULL)
           = count(*) AS all_pinned_or_bound
FROM pg_depend AS d JOIN pg_proc AS p ON p.oid = d.objid JOIN pg_language AS l ON l.oid = p.prolang
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd')
GROUP BY 1 ORDER BY 1;
