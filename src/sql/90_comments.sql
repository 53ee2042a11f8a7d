-- ndd install script, part 90: the comment of every object the extension creates, in one place, so
-- that \dx+ ndd, \df+, \do+ and \dT+ explain each one (a test checks that none is missing).

COMMENT ON FUNCTION ndd_jaccard_pairs(text, float8, int, int) IS
	'every pair (a < b) of the (id, body) rows of docs_sql whose word-shingle Jaccard resemblance is at least threshold, exactly as jaccard() computes it: LSH band candidates (miss probability at most 1e-6 at the threshold) verified on each document''s shingle set';
COMMENT ON FUNCTION ndd_containment_pairs(text, float8, int) IS
	'every ordered pair (a, b) of the (id, body) rows of docs_sql with containment(a.body, b.body) at least threshold, exact (prefix filtering and verification)';
COMMENT ON FUNCTION ndd_jaccard_bands(bigint[], float8) IS
	'LSH band keys of a minhash sketch for a Jaccard threshold: index them with GIN and search with && to find documents with resemblance >= threshold, then recheck with jaccard()';
COMMENT ON FUNCTION ndd_jaccard_banding(float8, int) IS
	'the bands and rows ndd_jaccard_pairs and ndd_jaccard_bands cut a sketch of hashes positions into for threshold, and the probability of missing a pair exactly at the threshold';
