/*
 * vector_simhash.c
 *    Charikar's simhash of a real vector (real[] or float8[], e.g. pgvector's vector::real[]):
 *    simhash(v) -> simhash64 and simhash128(v) -> fp128 (core: src/core/vector_simhash.cpp), and
 *    the exact cosine of two such vectors, cosine(a, b), to re-rank what the index finds.
 */
#include "ndd.h"

#include <math.h>

#include "catalog/pg_type_d.h"
#include "utils/array.h"

#include "distance_api.h"

PG_FUNCTION_INFO_V1(ndd_vector_simhash64);
PG_FUNCTION_INFO_V1(ndd_vector_simhash128);
PG_FUNCTION_INFO_V1(ndd_vector_cosine);

/*
 * The components of a real[] or float8[] (any dimensions, in storage order) as doubles: a real
 * converts exactly. Raises 22004 for a NULL element, 22023 for an empty array or a NaN or infinite
 * component, 54000 beyond NDD_MAX_VECTOR_DIMENSIONS.
 */
static double *
vector_values(ArrayType *arr, const char *what, int *count)
{
	int			n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	double	   *out;
	int			i;

	if (array_contains_nulls(arr))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s of a vector with a NULL component", what)));
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s of an empty vector", what)));
	if (n > NDD_MAX_VECTOR_DIMENSIONS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s of a vector of %d dimensions, more than %d", what, n, NDD_MAX_VECTOR_DIMENSIONS)));
	out = palloc(sizeof(double) * n);
	/* without a null bitmap, the elements are stored back to back */
	if (ARR_ELEMTYPE(arr) == FLOAT4OID)
	{
		const float4 *p = (const float4 *) ARR_DATA_PTR(arr);

		for (i = 0; i < n; i++)
			out[i] = (double) p[i];
	}
	else if (ARR_ELEMTYPE(arr) == FLOAT8OID)
		memcpy(out, ARR_DATA_PTR(arr), sizeof(double) * n);
	else
		elog(ERROR, "%s takes a real[] or a float8[]", what);
	for (i = 0; i < n; i++)
		if (isnan(out[i]) || isinf(out[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s of a vector whose component %d is %s", what, i + 1,
							isnan(out[i]) ? "NaN" : "infinite")));
	*count = n;
	return out;
}

/* The simhash of the first argument in `words` 64-bit words. */
static void
vector_simhash_arg(FunctionCallInfo fcinfo, int words, uint64 *out, const char *what)
{
	int			n;
	double	   *v = vector_values(PG_GETARG_ARRAYTYPE_P(0), what, &n);

	ndd_raise_status(ndd_vector_simhash(v, (size_t) n, words, out, ndd_interrupt_pending), what);
	pfree(v);
}

/* simhash(v real[] | float8[]) -> simhash64 */
Datum
ndd_vector_simhash64(PG_FUNCTION_ARGS)
{
	uint64		out[2];

	vector_simhash_arg(fcinfo, 1, out, "simhash");
	PG_RETURN_SIMHASH64(out[0]);
}

/* simhash128(v real[] | float8[]) -> fp128 */
Datum
ndd_vector_simhash128(PG_FUNCTION_ARGS)
{
	uint64		out[2];
	Fp128	   *fp = palloc(sizeof(Fp128));

	vector_simhash_arg(fcinfo, 2, out, "simhash128");
	fp->hi = out[0];
	fp->lo = out[1];
	PG_RETURN_FP128_P(fp);
}

/*
 * cosine(a real[] | float8[], b ...) -> float8: sum a_i b_i / (|a| |b|) in double, components in
 * order; 22023 for vectors of different dimensions; NULL when one is the zero vector (no angle).
 */
Datum
ndd_vector_cosine(PG_FUNCTION_ARGS)
{
	int			n,
				m,
				i;
	double	   *a = vector_values(PG_GETARG_ARRAYTYPE_P(0), "cosine", &n);
	double	   *b = vector_values(PG_GETARG_ARRAYTYPE_P(1), "cosine", &m);
	double		dot = 0,
				na = 0,
				nb = 0,
				c;

	if (n != m)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cosine of vectors of different dimensions, %d and %d", n, m)));
	for (i = 0; i < n; i++)
	{
		dot += a[i] * b[i];
		na += a[i] * a[i];
		nb += b[i] * b[i];
	}
	if (na == 0 || nb == 0)
		PG_RETURN_NULL();
	c = dot / (sqrt(na) * sqrt(nb));
	PG_RETURN_FLOAT8(Max(-1.0, Min(1.0, c)));
}
