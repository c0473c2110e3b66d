/* NVIDIA fatbinaries: a container of cubins (fatbin.c). */
#ifndef GPUOCC_READERS_FATBIN_H
#define GPUOCC_READERS_FATBIN_H

#include "entries.h"

#include <stdbool.h>

/* Whether `p` opens with a fatbinary's magic. */
bool gpuocc_is_fatbin(const uint8_t *p, size_t n);
/* Fatbinaries one after another (zero padding between them: a .nv_fatbin section, or a whole file: section
   0), from the one at offset `from` and its entry at `first`; `index` is the next entry's ordinal. */
int32_t gpuocc_fatbins_walk(const uint8_t *p, size_t n, uint32_t section, uint64_t from, uint64_t first,
                            int32_t *index, gpuocc_entry_visit visit, void *ctx, struct gpuocc_walk_counts *counts);
/* Whether a fatbinary that a scan found at `p` (n bytes to the end of its section) is one: version 1, every
   entry header consistent (version 0x0101, a kind, its size inside the fatbinary) and the last one ending
   where the fatbinary does.  *size is its length, header included. */
bool gpuocc_fatbin_check(const uint8_t *p, size_t n, size_t *size);

#endif
