/*
 * fingerprint_casts.c
 *    Casts that let client drivers pass fingerprints in the forms they have: bytes (bytea) and
 *    unsigned 64-bit integers (numeric).
 *
 * Every driver binds a byte string as bytea, and bytes are what a program that computes or stores
 * fingerprints outside the database holds. The bytes are the type's binary wire form (big-endian,
 * most significant bit first, fp128 as hi then lo, the same 16 bytes as its uuid cast), so a value
 * read with binary I/O, as bytea or as bytes from a driver goes back in unchanged.
 *
 * bigint <-> simhash64 already exists, but it is signed: a fingerprint whose top bit is set is a
 * negative bigint, which languages with unsigned 64-bit integers (Python int, JavaScript BigInt,
 * Rust u64) cannot pass as they hold it. numeric holds 0 .. 2^64-1 exactly and every driver binds
 * big integers as numeric (or as text that numeric reads), so the numeric casts are the lossless
 * path for unsigned values. Anything else (negative, fractional, NaN, infinity, >= 2^64) is an
 * error, never a rounded or wrapped fingerprint.
 */
#include "ndd.h"

#include "utils/builtins.h"
#include "utils/numeric.h"

PG_FUNCTION_INFO_V1(simhash64_to_bytea);
PG_FUNCTION_INFO_V1(bytea_to_simhash64);
PG_FUNCTION_INFO_V1(fp128_to_bytea);
PG_FUNCTION_INFO_V1(bytea_to_fp128);
PG_FUNCTION_INFO_V1(simhash64_to_numeric);
PG_FUNCTION_INFO_V1(numeric_to_simhash64);

/* Writes nwords words big-endian into a new bytea. */
static bytea *
words_to_bytea(const uint64 *words, int nwords)
{
	bytea	   *result = (bytea *) palloc(VARHDRSZ + 8 * nwords);
	unsigned char *r = (unsigned char *) VARDATA(result);
	int			i,
				b;

	SET_VARSIZE(result, VARHDRSZ + 8 * nwords);
	for (i = 0; i < nwords; i++)
		for (b = 0; b < 8; b++)
			r[i * 8 + b] = (unsigned char) (words[i] >> (56 - 8 * b));
	return result;
}

/* Reads exactly 8*nwords big-endian bytes into words; 22026 on any other length. */
static void
bytea_to_words(bytea *v, uint64 *words, int nwords, const char *typname)
{
	const unsigned char *r = (const unsigned char *) VARDATA_ANY(v);
	int			len = VARSIZE_ANY_EXHDR(v);
	int			i,
				b;

	if (len != 8 * nwords)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("bytea length %d does not match type %s", len, typname),
				 errdetail("Type %s takes exactly %d bytes, most significant first.", typname, 8 * nwords)));
	for (i = 0; i < nwords; i++)
	{
		words[i] = 0;
		for (b = 0; b < 8; b++)
			words[i] = (words[i] << 8) | r[i * 8 + b];
	}
}

Datum
simhash64_to_bytea(PG_FUNCTION_ARGS)
{
	uint64		w = PG_GETARG_SIMHASH64(0);

	PG_RETURN_BYTEA_P(words_to_bytea(&w, 1));
}

Datum
bytea_to_simhash64(PG_FUNCTION_ARGS)
{
	uint64		w;

	bytea_to_words(PG_GETARG_BYTEA_PP(0), &w, 1, "simhash64");
	PG_RETURN_SIMHASH64(w);
}

Datum
fp128_to_bytea(PG_FUNCTION_ARGS)
{
	Fp128	   *f = PG_GETARG_FP128_P(0);
	uint64		words[2] = {f->hi, f->lo};

	PG_RETURN_BYTEA_P(words_to_bytea(words, 2));
}

Datum
bytea_to_fp128(PG_FUNCTION_ARGS)
{
	uint64		words[2];
	Fp128	   *result = (Fp128 *) palloc(sizeof(Fp128));

	bytea_to_words(PG_GETARG_BYTEA_PP(0), words, 2, "fp128");
	result->hi = words[0];
	result->lo = words[1];
	PG_RETURN_FP128_P(result);
}

static int
numeric_compare(Numeric a, Numeric b)
{
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, NumericGetDatum(a), NumericGetDatum(b)));
}

/* 2^64 as a numeric, the offset between a simhash64's signed (bigint) and unsigned readings. */
static Numeric
two_to_the_64(void)
{
	return DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum("18446744073709551616"),
											   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
}

Datum
simhash64_to_numeric(PG_FUNCTION_ARGS)
{
	uint64		w = PG_GETARG_SIMHASH64(0);
	Numeric		n = int64_to_numeric((int64) w);

	/* the top bit set reads as a negative bigint: add 2^64 to get the unsigned value */
	if ((int64) w < 0)
		n = DatumGetNumeric(DirectFunctionCall2(numeric_add, NumericGetDatum(n),
												NumericGetDatum(two_to_the_64())));
	PG_RETURN_NUMERIC(n);
}

Datum
numeric_to_simhash64(PG_FUNCTION_ARGS)
{
	Numeric		n = PG_GETARG_NUMERIC(0);
	Numeric		whole;
	Numeric		limit = two_to_the_64();

	if (numeric_is_nan(n) || numeric_is_inf(n))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("cannot convert %s to simhash64",
						DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(n)))),
				 errdetail("A simhash64 given as a number is an integer from 0 to 18446744073709551615.")));

	whole = DatumGetNumeric(DirectFunctionCall2(numeric_trunc, NumericGetDatum(n), Int32GetDatum(0)));
	if (numeric_compare(n, whole) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot convert %s to simhash64: not an integer",
						DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(n)))),
				 errdetail("A simhash64 given as a number is an integer from 0 to 18446744073709551615.")));
	if (numeric_compare(n, int64_to_numeric(0)) < 0 || numeric_compare(n, limit) >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("simhash64 out of range: %s",
						DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(n)))),
				 errdetail("A simhash64 given as a number is an integer from 0 to 18446744073709551615."),
				 errhint("A signed 64-bit value (bigint) converts with ::bigint::simhash64.")));

	/* 2^63 .. 2^64-1: subtract 2^64 to get the bigint with the same bits */
	if (numeric_compare(n, int64_to_numeric(PG_INT64_MAX)) > 0)
		n = DatumGetNumeric(DirectFunctionCall2(numeric_sub, NumericGetDatum(n), NumericGetDatum(limit)));
	PG_RETURN_SIMHASH64((uint64) DatumGetInt64(DirectFunctionCall1(numeric_int8, NumericGetDatum(n))));
}
