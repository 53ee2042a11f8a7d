-- ndd install script, part 90: the comment of every object the extension creates, in one place, so
-- that \dx+ ndd, \df+, \do+ and \dT+ explain each one (test/sql/comments.sql checks that none is
-- missing). Grouped as the parts that create the objects. Families of objects that differ only in
-- a type or a direction (comparisons, I/O functions) are commented by loops over their names, so
-- that each sentence is written once.

---------------------------------------------------------------------------------------------------
-- part 10: types, their I/O, casts, ordering and hashing
---------------------------------------------------------------------------------------------------

COMMENT ON TYPE simhash64 IS '64-bit similarity fingerprint (Charikar simhash); compare with <~>';
COMMENT ON TYPE fp128 IS '128-bit fingerprint (bit-flip fingerprint, content hash); compare with <~>';
COMMENT ON TYPE hamming_distance IS 'number of differing bits, the result of <~>; behaves as an integer';
COMMENT ON TYPE hamming_ball IS 'all fingerprints within a radius of a center: fp <@ hamming_ball(q, k)';

DO $$
DECLARE
	t text;
	form text;
BEGIN
	FOREACH t IN ARRAY ARRAY['simhash64', 'fp128', 'hamming_distance', 'hamming_ball'] LOOP
		form := CASE t WHEN 'simhash64' THEN '16 hexadecimal digits'
					   WHEN 'fp128' THEN '32 hexadecimal digits'
					   WHEN 'hamming_distance' THEN 'a decimal integer, as int4'
					   ELSE '(center,radius)' END;
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(cstring) IS %L', t || '_in',
					   pg_catalog.format('text input of %s: %s', t, form));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I) IS %L', t || '_out', t,
					   pg_catalog.format('text output of %s: %s', t, form));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(internal) IS %L', t || '_recv',
					   pg_catalog.format('binary input of %s', t));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I) IS %L', t || '_send', t,
					   pg_catalog.format('binary output of %s', t));
	END LOOP;
	-- the ordering and hashing support of simhash64, fp128 and hamming_distance
	FOREACH t IN ARRAY ARRAY['simhash64', 'fp128', 'hamming_distance'] LOOP
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %1$I(%2$I, %2$I) IS %3$L', t || '_cmp', t,
					   pg_catalog.format('btree comparison of %s: -1, 0 or 1', t));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I) IS %L', t || '_hash', t,
					   pg_catalog.format('hash of %s for hash indexes and hash joins', t));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(%I, bigint) IS %L', t || '_hash_extended', t,
					   pg_catalog.format('seeded 64-bit hash of %s for hash partitioning', t));
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR CLASS %I USING btree IS %L', t || '_ops',
					   CASE t WHEN 'hamming_distance' THEN 'integer order of Hamming distances'
					   ELSE pg_catalog.format('unsigned order of %s (the order of its hex text)', t) END);
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR FAMILY %I USING btree IS %L', t || '_ops',
					   pg_catalog.format('btree operators of %s', t));
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR CLASS %I USING hash IS %L', t || '_ops',
					   pg_catalog.format('equality of %s for hash indexes and hash joins', t));
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR FAMILY %I USING hash IS %L', t || '_ops',
					   pg_catalog.format('hash operators of %s', t));
	END LOOP;
	-- the six comparisons of simhash64 and fp128: unsigned, i.e. the order of the hex text
	FOREACH t IN ARRAY ARRAY['simhash64', 'fp128'] LOOP
		FOR form IN SELECT pg_catalog.unnest(ARRAY['lt', 'le', 'eq', 'ne', 'ge', 'gt']) LOOP
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION %1$I(%2$I, %2$I) IS %3$L', t || '_' || form, t,
						   pg_catalog.format('implementation of %s %s %s (unsigned order)', t,
								  CASE form WHEN 'lt' THEN '<' WHEN 'le' THEN '<=' WHEN 'eq' THEN '='
											WHEN 'ne' THEN '<>' WHEN 'ge' THEN '>=' ELSE '>' END, t));
		END LOOP;
	END LOOP;
	FOR form IN SELECT pg_catalog.unnest(ARRAY['<', '<=', '=', '<>', '>=', '>']) LOOP
		FOREACH t IN ARRAY ARRAY['simhash64', 'fp128'] LOOP
			EXECUTE pg_catalog.format('COMMENT ON OPERATOR %1$s (%2$I, %2$I) IS %3$L', form, t,
						   pg_catalog.format('%s %s: unsigned order (the order of the hex text), not similarity', t, form));
		END LOOP;
	END LOOP;
END
$$;

COMMENT ON FUNCTION simhash64_to_bit(simhash64) IS 'the 64 bits as bit(64), most significant first';
COMMENT ON FUNCTION bit_to_simhash64(bit) IS 'a bit(64) as simhash64; other lengths are an error';
COMMENT ON FUNCTION fp128_to_bit(fp128) IS 'the 128 bits as bit(128), most significant first';
COMMENT ON FUNCTION bit_to_fp128(bit) IS 'a bit(128) as fp128; other lengths are an error';
COMMENT ON FUNCTION fp128_to_uuid(fp128) IS 'the 128 bits as a uuid (same 16 bytes)';
COMMENT ON FUNCTION uuid_to_fp128(uuid) IS 'a uuid''s 16 bytes as fp128';
COMMENT ON CAST (simhash64 AS bigint) IS 'the same 64 bits as a signed bigint (top bit set = negative)';
COMMENT ON CAST (bigint AS simhash64) IS 'a signed bigint''s 64 bits as simhash64 (for unsigned values use numeric)';
COMMENT ON CAST (simhash64 AS bit) IS 'the 64 bits as bit(64)';
COMMENT ON CAST (bit AS simhash64) IS 'a bit(64) as simhash64';
COMMENT ON CAST (fp128 AS bit) IS 'the 128 bits as bit(128)';
COMMENT ON CAST (bit AS fp128) IS 'a bit(128) as fp128';
COMMENT ON CAST (fp128 AS uuid) IS 'the 128 bits as a uuid';
COMMENT ON CAST (uuid AS fp128) IS 'a uuid as fp128';

-- hamming_distance: an int4 in all but name
COMMENT ON CAST (hamming_distance AS integer) IS 'implicit: a Hamming distance works wherever an integer does';
COMMENT ON CAST (integer AS hamming_distance) IS 'assignment: store an integer in a hamming_distance column';
COMMENT ON CAST (hamming_distance AS bigint) IS 'a Hamming distance as bigint';
COMMENT ON CAST (hamming_distance AS smallint) IS 'a Hamming distance as smallint';
COMMENT ON CAST (hamming_distance AS double precision) IS 'a Hamming distance as double precision';
COMMENT ON CAST (hamming_distance AS numeric) IS 'a Hamming distance as numeric';
COMMENT ON FUNCTION hamming_distance_to_int8(hamming_distance) IS 'the cast of a Hamming distance to bigint';
COMMENT ON FUNCTION hamming_distance_to_int2(hamming_distance) IS 'the cast of a Hamming distance to smallint';
COMMENT ON FUNCTION hamming_distance_to_float8(hamming_distance) IS 'the cast of a Hamming distance to double precision';
COMMENT ON FUNCTION hamming_distance_to_numeric(hamming_distance) IS 'the cast of a Hamming distance to numeric';

-- The comparisons of hamming_distance with itself and smallint, integer, bigint (both ways round)
-- and their planner support: `fp <~> q <= k` and its variants become `fp <@ hamming_ball(q, k)`,
-- which an ndd index serves.
DO $$
DECLARE
	o record;
	names text[] := ARRAY['<', 'lt', '<=', 'le', '=', 'eq', '>=', 'ge', '>', 'gt'];
	i int;
	indexable text;
BEGIN
	FOR o IN
		SELECT p.oprname, p.oprleft::regtype AS l, p.oprright::regtype AS r, p.oprcode::regproc AS fn
		FROM pg_catalog.pg_operator AS p
		WHERE (p.oprleft OPERATOR(pg_catalog.=) 'hamming_distance'::regtype OR p.oprright OPERATOR(pg_catalog.=) 'hamming_distance'::regtype)
		  AND p.oprname IN ('<', '<=', '=', '<>', '>=', '>')
	LOOP
		indexable := CASE WHEN o.oprname = '<>' THEN ''
			ELSE '; with fp <~> q on one side an ndd index serves it' END;
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR %s (%s, %s) IS %L', o.oprname, o.l, o.r,
					   pg_catalog.format('%s %s %s, as integers%s', o.l, o.oprname, o.r, indexable));
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s(%s, %s) IS %L', o.fn, o.l, o.r,
					   pg_catalog.format('implementation of %s %s %s', o.l, o.oprname, o.r));
	END LOOP;
	FOR i IN 0 .. 4 LOOP
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I(internal) IS %L', 'hamming_' || names[2 * i + 2] || '_support',
					   pg_catalog.format('planner support of the %s comparisons of a Hamming distance: makes fp <~> q %s k indexable',
							  names[2 * i + 1], names[2 * i + 1]));
	END LOOP;
END
$$;

-- <~> and hamming()
COMMENT ON FUNCTION hamming(simhash64, simhash64) IS 'number of differing bits; the same as <~>';
COMMENT ON FUNCTION hamming(fp128, fp128) IS 'number of differing bits; the same as <~>';
COMMENT ON OPERATOR <~> (simhash64, simhash64) IS
	'Hamming distance (number of differing bits); WHERE fp <~> q <= k and ORDER BY fp <~> q use an ndd index';
COMMENT ON OPERATOR <~> (fp128, fp128) IS
	'Hamming distance (number of differing bits); WHERE fp <~> q <= k and ORDER BY fp <~> q use an ndd index';

-- hamming_ball and <@, @>
COMMENT ON FUNCTION hamming_ball(simhash64, integer) IS 'the ball of every simhash64 within k bits of a center';
COMMENT ON FUNCTION hamming_ball(fp128, integer) IS 'the ball of every fp128 within k bits of a center';
COMMENT ON FUNCTION ndd_within_ball(simhash64, integer) IS 'the index condition of ndd_within(fp, q, k) for a k known at run time: hamming_ball(q, k), NULL (nothing) for k < 0';
COMMENT ON FUNCTION ndd_within_ball(fp128, integer) IS 'the index condition of ndd_within(fp, q, k) for a k known at run time: hamming_ball(q, k), NULL (nothing) for k < 0';
COMMENT ON FUNCTION hamming_ball_sel(internal, oid, internal, integer) IS
	'selectivity estimate of fp <@ hamming_ball(q, k) from the radius and the fingerprint width';
COMMENT ON FUNCTION hamming_ball_joinsel(internal, oid, internal, smallint, internal) IS
	'join selectivity estimate of fp <@ hamming_ball(q, k), as the restriction estimate';
COMMENT ON FUNCTION simhash64_in_ball(simhash64, hamming_ball) IS 'implementation of simhash64 <@ hamming_ball';
COMMENT ON FUNCTION fp128_in_ball(fp128, hamming_ball) IS 'implementation of fp128 <@ hamming_ball';
COMMENT ON FUNCTION ball_contains_simhash64(hamming_ball, simhash64) IS 'implementation of hamming_ball @> simhash64';
COMMENT ON FUNCTION ball_contains_fp128(hamming_ball, fp128) IS 'implementation of hamming_ball @> fp128';
COMMENT ON OPERATOR <@ (simhash64, hamming_ball) IS 'fingerprint within the ball''s radius of its center; served by an ndd index';
COMMENT ON OPERATOR <@ (fp128, hamming_ball) IS 'fingerprint within the ball''s radius of its center; served by an ndd index';
COMMENT ON OPERATOR @> (hamming_ball, simhash64) IS 'ball contains the fingerprint (commutator of <@)';
COMMENT ON OPERATOR @> (hamming_ball, fp128) IS 'ball contains the fingerprint (commutator of <@)';

-- ndd_within
COMMENT ON FUNCTION ndd_within(simhash64, simhash64, integer) IS 'a <~> b <= k; indexable on either argument';
COMMENT ON FUNCTION ndd_within(fp128, fp128, integer) IS 'a <~> b <= k; indexable on either argument';
COMMENT ON FUNCTION ndd_within_support(internal) IS 'planner support of ndd_within(): makes it indexable';
COMMENT ON FUNCTION ndd_radius_bound(bigint, bool) IS 'internal: the inclusive radius of "<= k" (or "< k" when true)';

---------------------------------------------------------------------------------------------------
-- part 15: casts for client drivers
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION simhash64_to_bytea(simhash64) IS 'the 8 bytes of a simhash64, most significant first';
COMMENT ON FUNCTION bytea_to_simhash64(bytea) IS 'exactly 8 bytes, most significant first, as simhash64';
COMMENT ON FUNCTION fp128_to_bytea(fp128) IS 'the 16 bytes of an fp128, most significant first';
COMMENT ON FUNCTION bytea_to_fp128(bytea) IS 'exactly 16 bytes, most significant first, as fp128';
COMMENT ON FUNCTION simhash64_to_numeric(simhash64) IS 'the unsigned value of a simhash64, 0 to 2^64-1';
COMMENT ON FUNCTION numeric_to_simhash64(numeric) IS 'an integer from 0 to 2^64-1 as simhash64; anything else is an error';
COMMENT ON CAST (simhash64 AS bytea) IS 'the 8 bytes, most significant first (the binary wire form)';
COMMENT ON CAST (bytea AS simhash64) IS 'exactly 8 bytes as simhash64, e.g. bytes bound by a driver';
COMMENT ON CAST (fp128 AS bytea) IS 'the 16 bytes, most significant first (the binary wire form)';
COMMENT ON CAST (bytea AS fp128) IS 'exactly 16 bytes as fp128, e.g. bytes bound by a driver';
COMMENT ON CAST (simhash64 AS numeric) IS 'the unsigned 64-bit value, 0 to 18446744073709551615';
COMMENT ON CAST (numeric AS simhash64) IS 'an unsigned 64-bit value (0 to 18446744073709551615), lossless';

---------------------------------------------------------------------------------------------------
-- part 20: fingerprints, sketches, exact similarity
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION simhash(text, text) IS
	'64-bit simhash of the words of doc, each distinct word weighted by its number of occurrences';
COMMENT ON FUNCTION simhash(text, int, text) IS
	'64-bit simhash of the word shingles of that size (1 to 256) of doc, each weighted by its number of occurrences';
COMMENT ON FUNCTION simhash(tsvector) IS
	'64-bit simhash of the lexemes of doc, each weighted by its number of positions (1 when stripped)';
COMMENT ON FUNCTION simhash(tsvector, int) IS
	'64-bit simhash of the shingles of lexemes in document order (lexeme order when stripped)';
COMMENT ON FUNCTION simhash(text[], float8[]) IS
	'64-bit simhash of explicit features (hashed as given), weighted by the finite weights at the same positions, or 1 each';
COMMENT ON FUNCTION simhash_chars(text, int, text) IS
	'64-bit simhash of the character n-grams (n 1 to 256) of the normalized token stream (tokens joined by single spaces)';
COMMENT ON FUNCTION shingle_minhash(text, int, int, text) IS
	'minhash sketch: the minima of hashes (1 to 1024) independent permutations over the distinct word shingles of doc; -1 everywhere for a text without words';
COMMENT ON FUNCTION minhash_similarity(bigint[], bigint[]) IS
	'share of positions where two minhash sketches of the same length agree: an estimate of the Jaccard resemblance';
COMMENT ON FUNCTION supershingles(bigint[], int) IS
	'Broder supershingles: the sketch split into groups of equal size, each hashed to one feature';
COMMENT ON FUNCTION features_shared(bigint[], bigint[]) IS
	'number of distinct values present in both arrays (e.g. supershingles or word-list fingerprints in common)';
COMMENT ON FUNCTION bitflip_fp(text, int, int) IS
	'128-bit bit-flip fingerprint: a window of window bytes slides over the raw text (wrapping, NUL-padded when shorter), the smallest samples distinct checksums each flip one bit';
COMMENT ON FUNCTION word_list_fingerprints(text, int, text) IS
	'Pugh word-list fingerprints: distinct words hashed into lists (1 to 256), one order-insensitive fingerprint per non-empty list, its list number in the low 8 bits';
COMMENT ON FUNCTION content_hash(text, text) IS
	'128-bit hash of the normalized token stream: equal for texts that differ only in case, punctuation and spacing';
COMMENT ON FUNCTION jaccard(text, text, int, text) IS
	'exact Jaccard resemblance of the sets of word shingles of a and b (1 when neither has a word)';
COMMENT ON FUNCTION containment(text, text, int, text) IS
	'exact share of the word shingles of a that are also in b (1 when a has no word)';
COMMENT ON FUNCTION word_edit_distance(text, text, int, text) IS
	'edit distance between the token sequences: Levenshtein with substitution_cost 1, the insert/delete distance with 2';
COMMENT ON FUNCTION ndd_tokens(text, text) IS
	'the tokens every word-level fingerprint sees: lowercased maximal runs of letters and digits (tokenizer ''words''), also cut at UAX #29 word boundaries with each ideograph, kana and Hangul syllable a token (''unicode'')';

---------------------------------------------------------------------------------------------------
-- part 22: the tokenizers' versions
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION ndd_tokenizer_version(text) IS
	'the version of a tokenizer in this server: ''words'' its compiled Unicode tables, ''unicode'' also ICU''s library and Unicode versions (its word-break rules and dictionaries)';
COMMENT ON TABLE ndd_tokenizer_versions IS
	'the version each tokenizer had when stored fingerprints were computed (extension creation or ndd_tokenizer_refresh_version)';
COMMENT ON FUNCTION ndd_tokenizer_check() IS
	'each tokenizer''s recorded and current versions, with a warning for each that differs (an ICU upgrade changes ''unicode'' tokens: recompute what was stored)';
COMMENT ON FUNCTION ndd_tokenizer_refresh_version(text) IS
	'records the tokenizer''s current version as the one stored fingerprints were computed with; run it after recomputing them';

---------------------------------------------------------------------------------------------------
-- part 30: the ndd index
---------------------------------------------------------------------------------------------------

COMMENT ON ACCESS METHOD ndd IS 'exact Hamming-radius search and KNN over fingerprints (Manku''s permuted-block tables)';
COMMENT ON FUNCTION ndd_handler(internal) IS 'handler of the ndd index access method';
COMMENT ON OPERATOR CLASS simhash64_ndd_ops USING ndd IS
	'ndd index on simhash64: fp <~> q <= k (as fp <@ hamming_ball(q, k)) and ORDER BY fp <~> q';
COMMENT ON OPERATOR FAMILY simhash64_ndd_ops USING ndd IS 'ndd index operators of simhash64';
COMMENT ON OPERATOR CLASS fp128_ndd_ops USING ndd IS
	'ndd index on fp128: fp <~> q <= k (as fp <@ hamming_ball(q, k)) and ORDER BY fp <~> q';
COMMENT ON OPERATOR FAMILY fp128_ndd_ops USING ndd IS 'ndd index operators of fp128';
COMMENT ON FUNCTION ndd_index_check(regclass) IS
	'checks an ndd index (each leaf of a partitioned one) against its table like amcheck''s heapallindexed, under AccessShareLock; raises an error on corruption; revoked from PUBLIC';

---------------------------------------------------------------------------------------------------
-- part 40: workflows over a collection (40_workflows.sql describes each in more detail)
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION ndd_pairs(text, int, int) IS
	'every pair (a, b, distance) of documents of docs_sql (id, fp) whose fingerprints are within k bits, in one call';
COMMENT ON FUNCTION ndd_feature_pairs(text, int, int) IS
	'every pair (a, b, shared) of documents of docs_sql (id, bigint[]) sharing at least min_shared features; features in more than max_df documents are skipped';
COMMENT ON FUNCTION ndd_clusters(text, boolean, text) IS
	'clusters (id, cluster_id, representative) from the pairs of pairs_sql; transitive, or conservative (join a representative only)';
COMMENT ON FUNCTION ndd_nearest_cluster(regclass, name, anyelement, int, name, name, boolean) IS
	'the cluster of an existing row within k bits of fp (through the index on fp_column when there is one), or NULL';
COMMENT ON FUNCTION ndd_assign_cluster_trigger() IS
	'BEFORE INSERT row trigger: sets the new row''s cluster column to an existing near-duplicate''s cluster, or to its own id';
COMMENT ON FUNCTION ndd_verify(text, text, int, text) IS
	'exact Jaccard, containment both ways, word edit distance and edit similarity of each pair of pairs_sql over the texts of docs_sql';
COMMENT ON FUNCTION ndd_verify_pair(text, text, int, text) IS
	'jaccard, containment both ways, word edit distance and edit similarity of two texts from one copy of each, within work_mem (53200 beyond it); the measures of ndd_verify';
COMMENT ON FUNCTION ndd_verify_job(text, text, int, text, text) IS
	'the work of ndd_verify, search_path pinned: the caller''s queries run under caller_search_path';
COMMENT ON FUNCTION ndd_cluster_worst_pairs_job(text, text, int, text, text) IS
	'the work of ndd_cluster_worst_pairs, search_path pinned: the caller''s queries run under caller_search_path';
COMMENT ON FUNCTION ndd_cluster_worst_pairs(text, text, int, text) IS
	'for each cluster of two or more, its least similar pair by exact Jaccard, with edit distance and similarity';
COMMENT ON FUNCTION ndd_filter(text, boolean, regconfig, text) IS
	'the document''s tokens without numbers and, given a text search configuration, without its stop words';
COMMENT ON TABLE ndd_collection IS 'named collections with their number of documents, for the low-IDF filter';
COMMENT ON TABLE ndd_df IS 'per collection and token: the number of documents containing the token';
COMMENT ON FUNCTION ndd_df_collect(text, text) IS
	'(re)builds a collection''s document frequencies from docs_sql (id, doc); returns the number of documents';
COMMENT ON FUNCTION ndd_collections_readable() IS
	'the collections whose document frequencies the current role may read: a member of the owner or of one of the readers (0 = PUBLIC); the rule of ndd_df''s row-level security';
COMMENT ON FUNCTION ndd_collections_writable() IS
	'the collections whose document frequencies the current role may change: a member of the owner; the rule of ndd_df''s row-level security';
COMMENT ON FUNCTION ndd_collection_check_owner(text) IS
	'raises 42501 when the collection exists and the current role is not a member of its owner';
COMMENT ON FUNCTION ndd_collection_set_reader(text, text, boolean) IS
	'adds (shared) or removes a reader of a collection''s document frequencies; the work of ndd_collection_grant and ndd_collection_revoke';
COMMENT ON FUNCTION ndd_collection_grant(text, text) IS
	'lets a role (or ''public'') read a collection''s document frequencies; only for members of its owner; returns its readers';
COMMENT ON FUNCTION ndd_collection_revoke(text, text) IS
	'stops a role (or ''public'') reading a collection''s document frequencies; only for members of its owner; returns its readers';
COMMENT ON FUNCTION ndd_df_collect_job(text, text, text) IS
	'the work of ndd_df_collect, search_path pinned: the caller''s query runs under caller_search_path';
COMMENT ON FUNCTION ndd_df_add(text, text) IS
	'adds one document to a collection''s document frequencies; returns the new document count';
COMMENT ON FUNCTION ndd_filter_low_idf(text, text, float8) IS
	'the document''s tokens whose IDF ln(ndocs / df) in the collection is at least min_idf (unseen tokens are kept)';
COMMENT ON FUNCTION ndd_labelling_lock(regclass) IS
	'takes the transaction-scoped lock that serialises ndd_assign_cluster_trigger on a table''s partition root; only for roles that may INSERT into the table';
COMMENT ON FUNCTION ndd_collection_cascade() IS
	'trigger of ndd_collection: deleting or renaming a collection deletes or renames its rows of ndd_df (no foreign key, so that pg_restore -j is complete)';
COMMENT ON FUNCTION ndd_nearest_cluster_sql(regclass, name, name, name, boolean) IS
	'the lookup query of ndd_nearest_cluster and ndd_assign_cluster_trigger ($1 the fingerprint, $2 k), built in one place';

---------------------------------------------------------------------------------------------------
-- part 50: exact Jaccard and containment pairs
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION ndd_jaccard_pairs(text, float8, int, int, text) IS
	'every pair (a < b) of the (id, body[, sketch]) rows of docs_sql whose word-shingle Jaccard resemblance is at least threshold, exactly as jaccard() computes it: LSH band candidates (miss probability at most 1e-6 at the threshold; from the stored shingle_minhash sketches of an optional third column) verified on each document''s shingle set; continues on disk beyond maintenance_work_mem';
COMMENT ON FUNCTION ndd_containment_pairs(text, float8, int, text) IS
	'every ordered pair (a, b) of the (id, body) rows of docs_sql with containment(a.body, b.body) at least threshold, exact (prefix filtering and verification); continues on disk beyond maintenance_work_mem';
COMMENT ON FUNCTION ndd_jaccard_bands(bigint[], float8) IS
	'LSH band keys of a minhash sketch for a Jaccard threshold: index them with GIN and search with && to find documents with resemblance >= threshold, then recheck with jaccard()';
COMMENT ON FUNCTION ndd_jaccard_banding(float8, int) IS
	'the bands and rows ndd_jaccard_pairs and ndd_jaccard_bands cut a sketch of hashes positions into for threshold, and the probability of missing a pair exactly at the threshold';

---------------------------------------------------------------------------------------------------
-- part 60: the batch mode split by table and key: two sets, Citus (60_distributed.sql)
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION ndd_pairs_between(text, text, int, int) IS
	'every pair (new_id, stored_id, distance) of a row of new_sql and a row of stored_sql (id, fp) within k bits, in one batch (the crawler''s daily job)';
COMMENT ON FUNCTION ndd_layout_parts(simhash64, int, int, int) IS
	'for each table of the layout (blocks = 0: k + 1), the part in [0, parts) of fp''s key: distribute rows by it to co-locate keys, or route a radius query to at most one part per table';
COMMENT ON FUNCTION ndd_layout_parts(fp128, int, int, int) IS
	'for each table of the layout (blocks = 0: k + 1), the part in [0, parts) of fp''s key: distribute rows by it to co-locate keys, or route a radius query to at most one part per table';
COMMENT ON FUNCTION ndd_layout_table_pairs(int, int, int, bigint[], simhash64[], int) IS
	'one layout table''s share of the pairs within k bits of a group of rows (all pairs, or new against stored when n_new > 0): the pairs whose first shared key is that table''s';
COMMENT ON FUNCTION ndd_layout_table_pairs(int, int, int, bigint[], fp128[], int) IS
	'one layout table''s share of the pairs within k bits of a group of rows (all pairs, or new against stored when n_new > 0): the pairs whose first shared key is that table''s';
COMMENT ON FUNCTION ndd_distributed_job(text, text, int, int, int, text) IS
	'the distributed batch job of ndd_distributed_pairs (stored_sql NULL) and ndd_distributed_pairs_between, on Citus';
COMMENT ON FUNCTION ndd_distributed_pairs(text, int, int, int) IS
	'every pair (a, b, distance) within k bits of the rows of docs_sql, found on the Citus workers; the same pairs as ndd_pairs';
COMMENT ON FUNCTION ndd_distributed_pairs_between(text, text, int, int, int) IS
	'every pair (new_id, stored_id, distance) within k bits of new_sql against stored_sql, found on the Citus workers; the same pairs as ndd_pairs_between';
COMMENT ON FUNCTION ndd_distributed_feature_pairs_job(text, int, int, text) IS
	'the work of ndd_distributed_feature_pairs, search_path pinned: the caller''s query runs under caller_search_path';
COMMENT ON FUNCTION ndd_distributed_feature_pairs(text, int, int) IS
	'every pair (a, b, shared) of documents of docs_sql (id, bigint[]) sharing at least min_shared features, found on the Citus workers; the same pairs as ndd_feature_pairs';

---------------------------------------------------------------------------------------------------
-- part 75: URLs and mirrored sites (75_urls.sql)
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION ndd_url_normalize(text, boolean) IS
	'the canonical form of a URL: RFC 3986 normalization, default port, fragment and tracking/session parameters removed, query sorted by name, IDNA host; invalid: error 22P02, or NULL when strict is false';
COMMENT ON FUNCTION ndd_url_surt(text, boolean) IS
	'the SURT sort key of a URL''s canonical form (https://www.Example.com/a?b=1 -> com,example,www)/a?b=1): a domain and its subdomains are one btree range';
COMMENT ON FUNCTION ndd_url_is_valid(text) IS
	'whether ndd_url_normalize accepts the URL: filter a crawl''s rows with it to skip bad URLs without aborting';
COMMENT ON FUNCTION ndd_mirrors(text, int, int, float8) IS
	'pairs of URL prefixes (a < b) serving the same paths with pages within k bits: shared distinct paths >= min_shared and >= min_fraction of the pages under each prefix; pages_sql returns (url, fp)';
COMMENT ON FUNCTION ndd_mirrors_from_pairs(text, text, int, float8) IS
	'ndd_mirrors over pairs of pages found elsewhere: pages_sql returns (id, url), pairs_sql returns (a, b) page ids';
COMMENT ON FUNCTION ndd_distributed_mirrors(text, int, int, float8, int) IS
	'ndd_mirrors on Citus: pairs of pages within k bits found on the workers, prefixes counted on the coordinator; pages_sql returns (id, url, fp)';
