/*
 * fingerprint_types.c
 *    The simhash64 and fp128 types: text and binary I/O, casts, ordering and hashing.
 *
 * Both are plain bit strings. Their text form is lowercase hex, most significant digit first, zero
 * padded to full width (16 and 32 digits); input takes 1 to 16 (32) hex digits in any case, an
 * optional 0x prefix and surrounding white space. Ordering is unsigned, i.e. the order of the
 * full-width text form, so that sorting and btree indexes agree with what users see.
 */
#include "ndd.h"

#include "access/hash.h"
#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/uuid.h"
#include "utils/varbit.h"

PG_FUNCTION_INFO_V1(simhash64_in);
PG_FUNCTION_INFO_V1(simhash64_out);
PG_FUNCTION_INFO_V1(simhash64_recv);
PG_FUNCTION_INFO_V1(simhash64_send);
PG_FUNCTION_INFO_V1(simhash64_to_bit);
PG_FUNCTION_INFO_V1(bit_to_simhash64);
PG_FUNCTION_INFO_V1(simhash64_cmp);
PG_FUNCTION_INFO_V1(simhash64_lt);
PG_FUNCTION_INFO_V1(simhash64_le);
PG_FUNCTION_INFO_V1(simhash64_eq);
PG_FUNCTION_INFO_V1(simhash64_ne);
PG_FUNCTION_INFO_V1(simhash64_ge);
PG_FUNCTION_INFO_V1(simhash64_gt);
PG_FUNCTION_INFO_V1(fp128_in);
PG_FUNCTION_INFO_V1(fp128_out);
PG_FUNCTION_INFO_V1(fp128_recv);
PG_FUNCTION_INFO_V1(fp128_send);
PG_FUNCTION_INFO_V1(fp128_to_bit);
PG_FUNCTION_INFO_V1(bit_to_fp128);
PG_FUNCTION_INFO_V1(fp128_to_uuid);
PG_FUNCTION_INFO_V1(uuid_to_fp128);
PG_FUNCTION_INFO_V1(fp128_cmp);
PG_FUNCTION_INFO_V1(fp128_lt);
PG_FUNCTION_INFO_V1(fp128_le);
PG_FUNCTION_INFO_V1(fp128_eq);
PG_FUNCTION_INFO_V1(fp128_ne);
PG_FUNCTION_INFO_V1(fp128_ge);
PG_FUNCTION_INFO_V1(fp128_gt);
PG_FUNCTION_INFO_V1(fp128_hash);
PG_FUNCTION_INFO_V1(fp128_hash_extended);

static const char hexdigits[] = "0123456789abcdef";

/* Value of a hex digit, or -1. */
static inline int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Parses the text form of a fingerprint of nwords 64-bit words into words[] (most significant
 * first). Raises 22P02 naming typname on anything but 1..16*nwords hex digits with an optional 0x
 * prefix and surrounding white space.
 */
void
ndd_parse_hex_fingerprint(const char *str, int nwords, uint64 *words, const char *typname)
{
	const char *p = str;
	const char *digits;
	int			ndigits = 0;
	int			i;

	while (isspace((unsigned char) *p))
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	digits = p;
	while (hex_value(*p) >= 0)
		p++, ndigits++;
	while (isspace((unsigned char) *p))
		p++;

	if (*p != '\0' || ndigits == 0 || ndigits > 16 * nwords)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s: \"%s\"", typname, str),
				 errdetail("A %s is 1 to %d hexadecimal digits, optionally prefixed with 0x.",
						   typname, 16 * nwords)));

	for (i = 0; i < nwords; i++)
		words[i] = 0;
	/* the last digit is the least significant bit group of the last word */
	for (i = 0; i < ndigits; i++)
	{
		int			pos = ndigits - 1 - i;	/* nibble index from the right */
		uint64		v = (uint64) hex_value(digits[i]);

		words[nwords - 1 - pos / 16] |= v << (4 * (pos % 16));
	}
}

/* Writes the full-width lowercase hex of a word into out (16 chars, no terminator). */
void
ndd_word_to_hex(uint64 w, char *out)
{
	int			i;

	for (i = 15; i >= 0; i--)
	{
		out[i] = hexdigits[w & 0xF];
		w >>= 4;
	}
}

/* Builds a bit(nbits) value from words (most significant bit first). */
static VarBit *
words_to_bit(const uint64 *words, int nwords)
{
	int			nbits = 64 * nwords;
	VarBit	   *result = (VarBit *) palloc0(VARBITTOTALLEN(nbits));
	bits8	   *r = VARBITS(result);
	int			i,
				b;

	SET_VARSIZE(result, VARBITTOTALLEN(nbits));
	VARBITLEN(result) = nbits;
	for (i = 0; i < nwords; i++)
		for (b = 0; b < 8; b++)
			r[i * 8 + b] = (bits8) (words[i] >> (56 - 8 * b));
	return result;
}

/* Reads a bit string of exactly 64*nwords bits into words; 22026 on any other length. */
static void
bit_to_words(VarBit *v, uint64 *words, int nwords, const char *typname)
{
	bits8	   *r = VARBITS(v);
	int			i,
				b;

	if (VARBITLEN(v) != 64 * nwords)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("bit string length %d does not match type %s", VARBITLEN(v), typname),
				 errdetail("A %s is exactly %d bits.", typname, 64 * nwords)));
	for (i = 0; i < nwords; i++)
	{
		words[i] = 0;
		for (b = 0; b < 8; b++)
			words[i] = (words[i] << 8) | r[i * 8 + b];
	}
}

/* ---- simhash64 ---- */

Datum
simhash64_in(PG_FUNCTION_ARGS)
{
	uint64		w;

	ndd_parse_hex_fingerprint(PG_GETARG_CSTRING(0), 1, &w, "simhash64");
	PG_RETURN_SIMHASH64(w);
}

Datum
simhash64_out(PG_FUNCTION_ARGS)
{
	char	   *out = palloc(17);

	ndd_word_to_hex(PG_GETARG_SIMHASH64(0), out);
	out[16] = '\0';
	PG_RETURN_CSTRING(out);
}

Datum
simhash64_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);

	/* pq_getmsgint64 raises an error instead of reading past a short message */
	PG_RETURN_SIMHASH64((uint64) pq_getmsgint64(buf));
}

Datum
simhash64_send(PG_FUNCTION_ARGS)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) PG_GETARG_SIMHASH64(0));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum
simhash64_to_bit(PG_FUNCTION_ARGS)
{
	uint64		w = PG_GETARG_SIMHASH64(0);

	PG_RETURN_VARBIT_P(words_to_bit(&w, 1));
}

Datum
bit_to_simhash64(PG_FUNCTION_ARGS)
{
	uint64		w;

	bit_to_words(PG_GETARG_VARBIT_P(0), &w, 1, "simhash64");
	PG_RETURN_SIMHASH64(w);
}

/* Unsigned three-way comparison. */
static inline int
cmp_u64(uint64 a, uint64 b)
{
	return (a > b) - (a < b);
}

Datum
simhash64_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(cmp_u64(PG_GETARG_SIMHASH64(0), PG_GETARG_SIMHASH64(1)));
}

#define SIMHASH64_CMP_FN(name, op) \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(PG_GETARG_SIMHASH64(0) op PG_GETARG_SIMHASH64(1)); \
}

SIMHASH64_CMP_FN(simhash64_lt, <)
SIMHASH64_CMP_FN(simhash64_le, <=)
SIMHASH64_CMP_FN(simhash64_eq, ==)
SIMHASH64_CMP_FN(simhash64_ne, !=)
SIMHASH64_CMP_FN(simhash64_ge, >=)
SIMHASH64_CMP_FN(simhash64_gt, >)

/* ---- fp128 ---- */

Datum
fp128_in(PG_FUNCTION_ARGS)
{
	uint64		w[2];
	Fp128	   *result = palloc(sizeof(Fp128));

	ndd_parse_hex_fingerprint(PG_GETARG_CSTRING(0), 2, w, "fp128");
	result->hi = w[0];
	result->lo = w[1];
	PG_RETURN_FP128_P(result);
}

Datum
fp128_out(PG_FUNCTION_ARGS)
{
	Fp128	   *fp = PG_GETARG_FP128_P(0);
	char	   *out = palloc(33);

	ndd_word_to_hex(fp->hi, out);
	ndd_word_to_hex(fp->lo, out + 16);
	out[32] = '\0';
	PG_RETURN_CSTRING(out);
}

Datum
fp128_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	Fp128	   *result = palloc(sizeof(Fp128));

	result->hi = (uint64) pq_getmsgint64(buf);
	result->lo = (uint64) pq_getmsgint64(buf);
	PG_RETURN_FP128_P(result);
}

Datum
fp128_send(PG_FUNCTION_ARGS)
{
	Fp128	   *fp = PG_GETARG_FP128_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) fp->hi);
	pq_sendint64(&buf, (int64) fp->lo);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum
fp128_to_bit(PG_FUNCTION_ARGS)
{
	Fp128	   *fp = PG_GETARG_FP128_P(0);
	uint64		w[2] = {fp->hi, fp->lo};

	PG_RETURN_VARBIT_P(words_to_bit(w, 2));
}

Datum
bit_to_fp128(PG_FUNCTION_ARGS)
{
	uint64		w[2];
	Fp128	   *result = palloc(sizeof(Fp128));

	bit_to_words(PG_GETARG_VARBIT_P(0), w, 2, "fp128");
	result->hi = w[0];
	result->lo = w[1];
	PG_RETURN_FP128_P(result);
}

Datum
fp128_to_uuid(PG_FUNCTION_ARGS)
{
	Fp128	   *fp = PG_GETARG_FP128_P(0);
	pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));
	int			b;

	/* a uuid's bytes are its hex digits in order, so hi goes first, most significant byte first */
	for (b = 0; b < 8; b++)
	{
		u->data[b] = (unsigned char) (fp->hi >> (56 - 8 * b));
		u->data[8 + b] = (unsigned char) (fp->lo >> (56 - 8 * b));
	}
	PG_RETURN_UUID_P(u);
}

Datum
uuid_to_fp128(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	Fp128	   *result = palloc(sizeof(Fp128));
	int			b;

	result->hi = result->lo = 0;
	for (b = 0; b < 8; b++)
	{
		result->hi = (result->hi << 8) | u->data[b];
		result->lo = (result->lo << 8) | u->data[8 + b];
	}
	PG_RETURN_FP128_P(result);
}

/* Unsigned comparison of the 128-bit values. */
static inline int
fp128_cmp_internal(const Fp128 *a, const Fp128 *b)
{
	int			c = cmp_u64(a->hi, b->hi);

	return c != 0 ? c : cmp_u64(a->lo, b->lo);
}

Datum
fp128_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(fp128_cmp_internal(PG_GETARG_FP128_P(0), PG_GETARG_FP128_P(1)));
}

#define FP128_CMP_FN(name, op) \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(fp128_cmp_internal(PG_GETARG_FP128_P(0), PG_GETARG_FP128_P(1)) op 0); \
}

FP128_CMP_FN(fp128_lt, <)
FP128_CMP_FN(fp128_le, <=)
FP128_CMP_FN(fp128_eq, ==)
FP128_CMP_FN(fp128_ne, !=)
FP128_CMP_FN(fp128_ge, >=)
FP128_CMP_FN(fp128_gt, >)

Datum
fp128_hash(PG_FUNCTION_ARGS)
{
	return hash_any((const unsigned char *) PG_GETARG_FP128_P(0), sizeof(Fp128));
}

Datum
fp128_hash_extended(PG_FUNCTION_ARGS)
{
	return hash_any_extended((const unsigned char *) PG_GETARG_FP128_P(0), sizeof(Fp128),
							 PG_GETARG_INT64(1));
}
