-- ndd install script, part 90: the comment of every object the extension creates, in one place, so
-- that \dx+ ndd, \df+, \do+ and \dT+ explain each one (a test checks that none is missing).

COMMENT ON FUNCTION ndd_labelling_lock(regclass) IS
	'takes the transaction-scoped lock that serialises ndd_assign_cluster_trigger on a table''s partition root; only for roles that may INSERT into the table';
COMMENT ON FUNCTION ndd_collection_cascade() IS
	'trigger of ndd_collection: deleting or renaming a collection deletes or renames its rows of ndd_df (no foreign key, so that pg_restore -j is complete)';
COMMENT ON FUNCTION ndd_nearest_cluster_sql(regclass, name, name, name, boolean) IS
	'the lookup query of ndd_nearest_cluster and ndd_assign_cluster_trigger ($1 the fingerprint, $2 k), built in one place';
