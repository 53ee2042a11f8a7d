/*
 * sketches.c
 *    SQL functions over minhash sketches and feature sets: minhash_similarity(), supershingles() and
 *    features_shared(). Sketches are bigint[] as shingle_minhash() returns them; any dimensions are
 *    read in storage order, and null elements are errors (22004).
 */
#include "ndd.h"

#include "utils/array.h"

#include "fingerprint_api.h"
#include "fingerprint_args.h"

PG_FUNCTION_INFO_V1(ndd_minhash_similarity);
PG_FUNCTION_INFO_V1(ndd_supershingles);
PG_FUNCTION_INFO_V1(ndd_features_shared);

/*
 * minhash_similarity(a bigint[], b bigint[]) -> float8: the share of positions where the two
 * sketches agree, Broder's estimate of the Jaccard resemblance of the shingle sets.
 */
Datum
ndd_minhash_similarity(PG_FUNCTION_ARGS)
{
	int			na,
				nb;
	const int64 *a = ndd_int8_array_values(PG_GETARG_ARRAYTYPE_P(0), "a", &na);
	const int64 *b = ndd_int8_array_values(PG_GETARG_ARRAYTYPE_P(1), "b", &nb);
	double		result = 0;

	if (na != nb)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("minhash sketches must have the same length"),
				 errdetail("The first has %d values, the second %d.", na, nb),
				 errhint("Compare sketches made with the same number of hashes.")));
	if (na == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("minhash sketches must not be empty")));
	ndd_raise_status(ndd_fp_minhash_similarity(a, b, na, &result), "minhash_similarity");
	PG_RETURN_FLOAT8(result);
}

/*
 * supershingles(sketch bigint[], groups int DEFAULT 6) -> bigint[]: the sketch cut into `groups`
 * groups of equal size, each hashed to one feature (XXH3 of the group's values as little-endian
 * bytes, seed "ndd.supr" plus the group number).
 */
Datum
ndd_supershingles(PG_FUNCTION_ARGS)
{
	int			n;
	const int64 *sketch = ndd_int8_array_values(PG_GETARG_ARRAYTYPE_P(0), "sketch", &n);
	int32		groups = PG_GETARG_INT32(1);
	int64	   *features;

	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter \"sketch\" must not be empty")));
	ndd_check_param("groups", groups, 1, n);
	if (n % groups != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parameter \"groups\" must divide the sketch length"),
				 errdetail("The sketch has %d values, which %d groups cannot share equally.", n, groups)));
	features = palloc(sizeof(int64) * groups);
	ndd_raise_status(ndd_fp_supershingles(sketch, n, groups, features), "supershingles");
	PG_RETURN_ARRAYTYPE_P(ndd_int8_array(features, groups));
}

/*
 * features_shared(a bigint[], b bigint[]) -> int: the number of distinct values present in both,
 * e.g. supershingles or word-list fingerprints in common.
 */
Datum
ndd_features_shared(PG_FUNCTION_ARGS)
{
	int			na,
				nb;
	const int64 *a = ndd_int8_array_values(PG_GETARG_ARRAYTYPE_P(0), "a", &na);
	const int64 *b = ndd_int8_array_values(PG_GETARG_ARRAYTYPE_P(1), "b", &nb);
	int32		shared = 0;

	ndd_raise_status(ndd_fp_features_shared(a, na, b, nb, &shared, ndd_interrupt_pending), "features_shared");
	PG_RETURN_INT32(shared);
}
