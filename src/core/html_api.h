/*
 * html_api.h
 *    C entry points of the HTML text extraction of the core (html_blocks.hpp, html_content.hpp):
 *    ndd_html_text and ndd_html_content.
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

#ifdef __cplusplus
}
#endif

#endif							/* NDD_HTML_API_H */
