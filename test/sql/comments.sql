-- Every object of the extension has a comment (beside its CREATE in src/sql/*.sql), so that
-- \dx+ ndd, \df+, \do+ and \dT+ explain each one. Lists the members without one: expects none.
-- Since PostgreSQL 17 the types PostgreSQL makes by itself beside an object, the array type of a
-- type and the row type of a table, are members too; they are described by that object's comment
-- (and \dT+ does not list them), so the check leaves them out on every major.
CREATE TEMP VIEW ndd_members AS
SELECT d.classid, d.objid, d.objsubid
FROM pg_depend AS d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd')
  AND NOT (d.classid = 'pg_type'::regclass AND EXISTS (
        SELECT 1 FROM pg_type AS t
        WHERE t.oid = d.objid
          AND (EXISTS (SELECT 1 FROM pg_type AS e WHERE e.typarray = t.oid)
               OR EXISTS (SELECT 1 FROM pg_class AS c WHERE c.oid = t.typrelid AND c.relkind <> 'c'))));
SELECT pg_describe_object(classid, objid, objsubid) AS member_without_comment
FROM ndd_members
WHERE obj_description(objid, classid::regclass::name) IS NULL
ORDER BY 1;
-- The check sees every kind of member: how many of each the extension has (a kind missing here
-- would be a kind the query above does not reach).
SELECT classid::regclass AS catalog, count(*) > 0 AS has_members,
       count(obj_description(objid, classid::regclass::name)) = count(*) AS all_commented
FROM ndd_members
GROUP BY 1 ORDER BY min(classid::regclass::text);
