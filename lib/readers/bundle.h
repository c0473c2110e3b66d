/* HIP offload bundles, plain and compressed (CCOB): a container of code objects (bundle.c). */
#ifndef GPUOCC_READERS_BUNDLE_H
#define GPUOCC_READERS_BUNDLE_H

#include "entries.h"

#include <stdbool.h>

/* Offload bundles (bundle.c): the entries of the bundles one after another (zero padding between them)
   in `p` (a .hip_fatbin section, or a whole file: section 0), from the bundle at offset `from` and its
   entry `first`; `index` is the next entry's ordinal. */
int32_t gpuocc_bundles_walk(const uint8_t *p, size_t n, uint32_t section, uint64_t from, uint64_t first,
                            int32_t *index, gpuocc_entry_visit visit, void *ctx, struct gpuocc_walk_counts *counts);
/* Whether a bundle that a scan found at `p` (n bytes to the end of its section) is one: a plain bundle
   whose every descriptor lies inside it, or a compressed one of version 1-3 with consistent sizes.
   *size is its length. */
bool gpuocc_bundle_check(const uint8_t *p, size_t n, size_t *size);
/* Whether `p` opens with an offload bundle's magic, uncompressed or compressed. */
bool gpuocc_is_bundle(const uint8_t *p, size_t n);
/* Each AMDGPU code object of the uncompressed bundle at `p` (a decoded CCOB), given to `each` in order;
   the first status other than GPUOCC_OK ends the walk and is returned. */
int32_t gpuocc_bundle_code_objects(const uint8_t *p, size_t n,
                                   int32_t (*each)(void *ctx, const uint8_t *object, size_t n), void *ctx);

#endif
