/* Matching names as the catalog spells them: normalized keys, alias lists, brand prefixes. */
#ifndef GPUOCC_CORE_NAMES_H
#define GPUOCC_CORE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* `in` lower-cased without spaces, tabs, '-' or '_' into `out` (`cap` bytes); false if it does not fit. */
bool gpuocc_key_normalize(const char *in, char *out, size_t cap);
/* Whether `key` is one of the space-separated `aliases`. */
bool gpuocc_alias_matches(const char *aliases, const char *key);
/* `key` past any of the `count` brand prefixes (repeatedly: "amdinstinctmi300x" -> "mi300x"), keeping
   at least one character. */
const char *gpuocc_strip_brands(const char *key, const char *const *brands, size_t count);

#endif
