/*
 * tokenizer_api.h
 *    The tokenizers every word-level function can use, by name, and their versions.
 *
 *    'words'   (NDD_TOKENIZER_WORDS): maximal runs of letters and digits, lowercased as Python's
 *              str.lower() (src/core/tokenize.hpp). Its tables are generated into the source, so
 *              its output depends on nothing installed on the machine.
 *    'unicode' (NDD_TOKENIZER_UNICODE): the same lowercasing and the same letters and digits, cut
 *              further at the word boundaries of Unicode's UAX #29 as ICU computes them (with ICU's
 *              dictionaries for Thai, Lao, Khmer and Myanmar); combining marks stay inside their
 *              word; each ideograph, kana and Hangul syllable is a token of its own. ICU's rules
 *              and dictionaries change between ICU releases, so its version is part of the
 *              tokenizer's (doc/tokenizers.md).
 */
#ifndef NDD_TOKENIZER_API_H
#define NDD_TOKENIZER_API_H

#include <stddef.h>
#include <stdint.h>

#include "ndd_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NDD_TOKENIZER_WORDS			0
#define NDD_TOKENIZER_UNICODE		1

/* *out = the tokenizer named name (len bytes, not NUL-terminated); NDD_INVALID_ARGUMENT when no
 * tokenizer has that name. */
NDD_API NddStatus ndd_tokenizer_from_name(const char *name, size_t len, int32_t *out);

/* The version of a tokenizer as a NUL-terminated string: what a stored fingerprint made with it
 * depends on ('words': the Unicode version of the generated tables; 'unicode': that and ICU's
 * library and Unicode versions). Writes at most cap bytes. */
NDD_API NddStatus ndd_tokenizer_version(int32_t tokenizer, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif							/* NDD_TOKENIZER_API_H */
