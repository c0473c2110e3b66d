/* Kernel names as compilers write them. */
#ifndef GPUOCC_READERS_NAMES_H
#define GPUOCC_READERS_NAMES_H

#include <stddef.h>

/* The identifier of a plain _Z mangling within `name` (the whole name otherwise). */
void gpuocc_short_name(const char *name, size_t length, size_t *start, size_t *short_length);

#endif
