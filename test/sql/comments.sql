-- Every object of the extension has a comment (src/sql/90_comments.sql), so that \dx+ ndd, \df+,
-- \do+ and \dT+ explain each one. Lists the members without one: expects none.
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS member_without_comment
FROM pg_depend AS d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd')
  AND obj_description(d.objid, d.classid::regclass::name) IS NULL
ORDER BY 1;
-- The check sees every kind of member: how many of each the extension has (a kind missing here
-- would be a kind the query above does not reach).
SELECT d.classid::regclass AS catalog, count(*) > 0 AS has_members,
       count(obj_description(d.objid, d.classid::regclass::name)) = count(*) AS all_commented
FROM pg_depend AS d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ndd')
GROUP BY 1 ORDER BY min(d.classid::regclass::text);
