/* The device-code entries a container walk visits: what the containers (fatbin.c, bundle.c) give the
   walk of a file (walk.c) and the dispatcher (binary.c). */
#ifndef GPUOCC_READERS_ENTRIES_H
#define GPUOCC_READERS_ENTRIES_H

#ifndef GPUOCC_EXPERIMENTAL
#define GPUOCC_EXPERIMENTAL /* the library defines the experimental part too */
#endif
#include "gpuocc.h"

#include <stddef.h>
#include <stdint.h>

/* Where an entry is: its ordinal, the host section (0 when the file itself holds the fatbinaries), the
   fatbinary's offset in that section (or file), and the entry's offset after the fatbinary's header. */
struct gpuocc_walk_pos {
    int32_t index;
    uint32_t section;
    uint64_t fatbin, entry;
};

/* One device-code entry of a container: a cubin, or a compressed payload (flags say how). */
struct gpuocc_entry {
    struct gpuocc_walk_pos at, next; /* this entry, and where the walk goes on after it */
    const uint8_t *p;
    size_t n;              /* the payload, zero padding included */
    uint64_t flags;        /* the fatbinary entry's flags; 0 for a bare cubin */
    uint64_t compressed;   /* the compressed data's size (entry header offset 0x10) */
    uint64_t uncompressed; /* the decompressed size (offset 0x38); 0 when not compressed */
    uint32_t container;    /* GPUOCC_CONTAINER_*: what the payload is */
    uint32_t sm;           /* a fatbinary entry's SM (entry header offset 0x1c); 0 for others */
};

#define GPUOCC_CONTAINER_CUBIN 0u  /* an NVIDIA cubin, perhaps compressed (flags) */
#define GPUOCC_CONTAINER_AMDGPU 1u /* one AMDGPU code object of an offload bundle, or the file itself */
#define GPUOCC_CONTAINER_CCOB 2u   /* a compressed offload bundle: `flags` is its method (GPUOCC_CCOB_*) */
#define GPUOCC_CONTAINER_ZEBIN 3u  /* an Intel zebin, the file itself */

/* The compression methods of a CCOB header (llvm::compression::Format). */
#define GPUOCC_CCOB_ZLIB 0u
#define GPUOCC_CCOB_ZSTD 1u

#define GPUOCC_ENTRY_LZ4 0x2000u
#define GPUOCC_ENTRY_ZSTD 0x8000u
#define GPUOCC_ENTRY_ARCH_SPECIFIC 0x100000u /* compiled for sm_XXa */
#define GPUOCC_ENTRY_FAMILY 0x200000u        /* compiled for sm_XXf */

/* What a reader found wrong, and where, beyond its status (gpuocc_binary_summary's fault fields): a
   GPUOCC_BINARY_FAULT_* (0: nothing to add), its figure, for a fatbinary entry's header the ordinal that
   entry would have (else -1), and the byte at fault (NULL: unknown). */
struct gpuocc_fault {
    int32_t kind, value, entry;
    const uint8_t *at;
};
#define GPUOCC_NO_FAULT {0, 0, -1, NULL}

/* What a whole walk met besides the entries: containers (fatbinaries, offload bundles) walked, candidates
   found by a scan for a container's magic whose headers did not validate (skipped, never walked),
   fatbinary entries that hold no compiled code (PTX, LTO IR), and the fault of a container's header that
   stopped it. */
struct gpuocc_walk_counts {
    int32_t containers, skipped, uncompiled;
    struct gpuocc_fault fault;
};

/* Called for each entry in file order: GPUOCC_OK to go on, 1 to stop (the walk returns 1), an error to
   stop with it. */
typedef int32_t (*gpuocc_entry_visit)(void *ctx, const struct gpuocc_entry *e);

#endif
