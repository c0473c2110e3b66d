/* Matching names as the catalog spells them. */
#include "names.h"

#include <ctype.h>
#include <string.h>

bool gpuocc_key_normalize(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in; in++) {
        unsigned char c = (unsigned char)*in;
        if (c == ' ' || c == '-' || c == '_' || c == '\t')
            continue;
        if (n + 1 >= cap)
            return false;
        out[n++] = (char)tolower(c);
    }
    out[n] = '\0';
    return true;
}

bool gpuocc_alias_matches(const char *aliases, const char *key)
{
    size_t len = strlen(key);
    for (const char *p = aliases; *p;) {
        const char *end = strchr(p, ' ');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, key, n) == 0)
            return true;
        p += n + (end != NULL);
    }
    return false;
}

const char *gpuocc_strip_brands(const char *key, const char *const *brands, size_t count)
{
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < count; i++) {
            size_t n = strlen(brands[i]);
            if (strncmp(key, brands[i], n) == 0 && key[n] != '\0') {
                key += n;
                again = true;
            }
        }
    }
    return key;
}
