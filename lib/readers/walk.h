/* Every device-code entry of a file, whatever holds it (walk.c). */
#ifndef GPUOCC_READERS_WALK_H
#define GPUOCC_READERS_WALK_H

#include "entries.h"

/* Every device-code entry of a cubin, fatbinary or host ELF, from the start or from `from` (an entry's
   `next`, NULL for the start).  Container errors are returned as they are met (entries before them have
   been visited).  Every offset of `from` is checked like the file's own, so a wrong one cannot lead
   outside the buffer.  `counts` (may be NULL) receives what a walk of a host ELF met besides the entries;
   it is meaningful for a walk from the start. */
int32_t gpuocc_entries_walk(const uint8_t *p, size_t n, const struct gpuocc_walk_pos *from, gpuocc_entry_visit visit,
                            void *ctx, struct gpuocc_walk_counts *counts);

#endif
