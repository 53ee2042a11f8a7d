/*
 * html_api.h
 *    C entry points of the HTML text extraction of the core (html_blocks.hpp, html_content.hpp):
 *    ndd_html_text and ndd_html_content; and of the page's metadata (html_meta.hpp): ndd_html_meta.
 *
 * Plain C, includable from the SQL layer; follows ndd_status.h. The page is any bytes (UTF-8
 * expected; invalid sequences become U+FFFD). The text out is valid UTF-8, written `header` bytes
 * into one allocation of the caller's allocator (room for a varlena header), *out_len bytes long.
 */
#ifndef NDD_HTML_API_H
#define NDD_HTML_API_H

#include <stddef.h>

#include "ndd_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum NddHtmlMode
{
	NDD_HTML_TEXT = 0,			/* all visible text */
	NDD_HTML_CONTENT = 1		/* the main content, or all the text when there is none */
} NddHtmlMode;

NDD_API NddStatus ndd_html_extract(const char *html, size_t len, NddHtmlMode mode, size_t header,
								   NddAllocFn alloc, char **out, size_t *out_len,
								   NddInterruptFn interrupt);

/* The fields of ndd_html_meta, in this order (html_meta.hpp says where each comes from). */
typedef enum NddHtmlMetaField
{
	NDD_HTML_META_TITLE = 0,
	NDD_HTML_META_CANONICAL,
	NDD_HTML_META_OG_URL,
	NDD_HTML_META_LANGUAGE,
	NDD_HTML_META_DESCRIPTION,
	NDD_HTML_META_PUBLISHED,
	NDD_HTML_META_FIELDS
} NddHtmlMetaField;

/*
 * The page's metadata: the fields, each valid UTF-8 and NUL-terminated, one after the other in
 * one allocation of the caller's allocator (*out); len[i] is field i's length, 0 when the page
 * does not state it.
 */
NDD_API NddStatus ndd_html_extract_meta(const char *html, size_t len, NddAllocFn alloc, char **out,
								size_t len_out[NDD_HTML_META_FIELDS], NddInterruptFn interrupt);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_HTML_API_H */
