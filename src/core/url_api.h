/*
 * url_api.h
 *    C entry points of the URL functions of the core: the canonical form of a URL
 *    (ndd_url_normalize), its SURT sort key (ndd_url_surt), and the path arithmetic of mirror
 *    detection (ndd_url_common_suffix). The rules are documented once, in url.hpp.
 *
 * Plain C, includable from the SQL layer; follows ndd_status.h (no exception escapes, output
 * through the caller's NddAllocFn). A URL the rules reject is not an error of the call: the call
 * returns NDD_OK with *valid = 0 and a reason in `why` (a NUL-terminated sentence without the
 * value, which the caller prints with its own quoting).
 */
#ifndef NDD_URL_API_H
#define NDD_URL_API_H

#include <stddef.h>
#include <stdint.h>

#include "ndd_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest URL accepted, in bytes (longer ones are rejected with *valid = NDD_URL_TOO_LONG). */
#define NDD_URL_MAX_BYTES 65536

/* Room for the reason of a rejection, NUL included. */
#define NDD_URL_WHY_BYTES 160

/* What *valid holds after a call. */
#define NDD_URL_INVALID		0	/* not a URL the rules accept (syntax, host, IDNA) */
#define NDD_URL_OK			1
#define NDD_URL_TOO_LONG	2	/* longer than NDD_URL_MAX_BYTES */

/*
 * A normalized URL (or SURT key): len bytes at data (from the caller's allocator, not
 * NUL-terminated). path_start is the offset of the path (its leading '/') when the URL has an
 * authority (scheme://host...), 0 otherwise.
 */
typedef struct NddUrl
{
	char	   *data;
	size_t		len;
	size_t		path_start;
} NddUrl;

/* The canonical form of the len bytes at url (url.hpp: ndd::url_normalize). */
NDD_API NddStatus ndd_url_normalize(const char *url, size_t len, NddAllocFn alloc, NddUrl *out,
									int *valid, char *why);

/* The SURT key of the URL's canonical form (url.hpp: ndd::url_surt). out->path_start is 0. */
NDD_API NddStatus ndd_url_surt(const char *url, size_t len, NddAllocFn alloc, NddUrl *out,
							   int *valid, char *why);

/*
 * For two normalized URLs with an authority (path_start > 0, as ndd_url_normalize reports): the
 * length of the longest common suffix p of their paths made of whole segments (the query belongs
 * to the last segment; a '/' inside the query separates nothing), 0 when there is none or it is
 * empty. What precedes p on each side (the prefix, ending in '/') is a[0 .. alen - p) and
 * b[0 .. blen - p). Never fails.
 */
NDD_API size_t ndd_url_common_suffix(const char *a, size_t alen, size_t a_path,
									 const char *b, size_t blen, size_t b_path);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_URL_API_H */
