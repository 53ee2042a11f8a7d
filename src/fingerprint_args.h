/*
 * fingerprint_args.h
 *    Argument handling shared by the SQL functions of the fingerprint area: text as UTF-8,
 *    parameter range checks with proper errors, bigint[] arguments as plain int64 arrays.
 */
#ifndef NDD_FINGERPRINT_ARGS_H
#define NDD_FINGERPRINT_ARGS_H

#include "ndd.h"

#include "utils/array.h"
#include "utils/palloc.h"

#include "fingerprint_api.h"

/*
 * The bytes of a text value in UTF-8, what the core reads: the value itself when the database
 * encoding is UTF8 (or SQL_ASCII, whose bytes are taken as they are: invalid sequences act as
 * separators), else a converted copy. So a document gets the same fingerprints in databases of any
 * encoding. The result is not NUL-terminated.
 */
extern const char *ndd_utf8_bytes(const char *data, int len, size_t *outlen);

/* ndd_utf8_bytes() of a detoasted text. */
extern const char *ndd_text_utf8(text *t, size_t *outlen);

/* A server-encoding text value made from UTF-8 bytes (the inverse conversion, for output). */
extern text *ndd_text_from_utf8(const char *data, size_t len);

/*
 * The tokenizer (tokenizer_api.h) named by the text argument argno, the trailing `tokenizer text
 * DEFAULT 'words'` of every function that tokenizes: 'words' when the call has fewer arguments (an
 * expression stored by ndd 0.1, before the argument existed, calls the function without it) or the
 * argument is NULL (non-strict functions only); 22023 for an unknown name.
 */
extern int32 ndd_tokenizer_arg(FunctionCallInfo fcinfo, int argno);

/* Raises 22023 naming the parameter unless lo <= value <= hi. */
extern void ndd_check_param(const char *name, int32 value, int32 lo, int32 hi);

/*
 * The elements of a bigint[] argument as a C array (any dimensions, read in storage order) and
 * their number; raises 22004 naming the parameter if an element is NULL. Points into the array.
 */
extern const int64 *ndd_int8_array_values(ArrayType *arr, const char *name, int *count);

/* A one-dimensional bigint[] of n values (an empty array when n is 0). */
extern ArrayType *ndd_int8_array(const int64 *values, int n);

/*
 * The core's shingle cursor (ndd_shingle_cursor_open) owned by the current memory context
 * (NddCoreHandle): the context's reset callback closes it if an error or a cancel leaves it open.
 * doc must stay valid until the cursor is closed.
 */
typedef struct NddCursorGuard
{
	NddCoreHandle core;			/* the NddShingleCursor */
	const char *what;			/* names the computation in errors */
} NddCursorGuard;

extern NddCursorGuard *ndd_cursor_open(const char *doc, size_t len, int32 shingle, int32 tokenizer,
									   const char *what);

/* The next shingle (*text, *len valid until the next call) and its hash; false after the last. */
extern bool ndd_cursor_next(NddCursorGuard *g, const char **text, size_t *len, uint64 *hash);

/* Closes the cursor now (the guard itself is freed with its context). */
extern void ndd_cursor_close(NddCursorGuard *g);

#endif							/* NDD_FINGERPRINT_ARGS_H */
