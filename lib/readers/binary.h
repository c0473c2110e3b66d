/* Private to the binary readers (elf.c, cubin.c, fatbin.c): bounded little-endian reads and ELF64. */
#ifndef GPUOCC_BINARY_H
#define GPUOCC_BINARY_H

#include "../core/core.h"

/* Whether [offset, offset + size) lies inside a buffer of `length` bytes, without overflow. */
static inline bool gpuocc_fits(size_t length, uint64_t offset, uint64_t size)
{
    return offset <= length && size <= length - offset;
}

static inline uint16_t gpuocc_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t gpuocc_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t gpuocc_le64(const uint8_t *p)
{
    return (uint64_t)gpuocc_le32(p) | (uint64_t)gpuocc_le32(p + 4) << 32;
}

/* An ELF64 little-endian image whose section table has been checked to lie inside it. */
struct gpuocc_elf {
    const uint8_t *p;
    size_t n;
    uint16_t machine;
    uint8_t abi_version;
    uint32_t flags;
    uint64_t shoff;
    uint32_t shnum, shstrndx;
};

struct gpuocc_section {
    uint32_t name, type;
    uint64_t flags, offset, size;
    uint32_t link, info;
    uint64_t entsize;
};

#define GPUOCC_SHT_SYMTAB 2u
#define GPUOCC_SHT_NOBITS 8u

/* GPUOCC_ERR_FORMAT if `p` is not ELF, _UNSUPPORTED for ELF32 or big-endian, _TRUNCATED if the header or
   section table runs past `n`. */
int32_t gpuocc_elf_open(const uint8_t *p, size_t n, struct gpuocc_elf *elf);
/* Section `index` (< shnum) of an opened image. */
void gpuocc_elf_section(const struct gpuocc_elf *elf, uint32_t index, struct gpuocc_section *s);
/* The file bytes of a section; GPUOCC_ERR_TRUNCATED if they run past the image. */
int32_t gpuocc_elf_data(const struct gpuocc_elf *elf, const struct gpuocc_section *s, const uint8_t **data);
/* The NUL-terminated string at `offset` of string table `table`; GPUOCC_ERR_FORMAT if not inside it. */
int32_t gpuocc_elf_string(const struct gpuocc_elf *elf, uint32_t table, uint64_t offset, const char **str,
                          size_t *length);
/* A section's name. */
int32_t gpuocc_elf_section_name(const struct gpuocc_elf *elf, const struct gpuocc_section *s, const char **name,
                                size_t *length);

static inline bool gpuocc_has_prefix(const char *s, size_t length, const char *prefix)
{
    size_t n = strlen(prefix);
    return length >= n && memcmp(s, prefix, n) == 0;
}

/* Kernels go to the caller's array while it has room and are counted past it: gpuocc_compiled_kernel
   records (`kernels`), or, when `records` is set, gpuocc_binary_kernel records `stride` bytes apart that
   carry `entry` and `name_buffer`. */
struct gpuocc_kernel_sink {
    gpuocc_compiled_kernel *kernels;
    uint8_t *records;
    size_t stride;
    int32_t entry, name_buffer;
    int32_t capacity;
    int32_t count;
};

/* Store one kernel in the sink (if it has room) and count it. */
int32_t gpuocc_sink_put(struct gpuocc_kernel_sink *sink, const gpuocc_compiled_kernel *k);
/* The same for a whole gpuocc_binary_kernel record (its entry and name_buffer set from the sink); a sink
   of gpuocc_compiled_kernel records only counts it. */
int32_t gpuocc_sink_put_record(struct gpuocc_kernel_sink *sink, const gpuocc_binary_kernel *b);

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
};

#define GPUOCC_CONTAINER_CUBIN 0u  /* an NVIDIA cubin, perhaps compressed (flags) */
#define GPUOCC_CONTAINER_AMDGPU 1u /* one AMDGPU code object of an offload bundle, or the file itself */
#define GPUOCC_CONTAINER_CCOB 2u   /* a compressed offload bundle: `flags` is its method (GPUOCC_CCOB_*) */

/* The compression methods of a CCOB header (llvm::compression::Format). */
#define GPUOCC_CCOB_ZLIB 0u
#define GPUOCC_CCOB_ZSTD 1u

#define GPUOCC_ENTRY_LZ4 0x2000u
#define GPUOCC_ENTRY_ZSTD 0x8000u

/* Called for each entry in file order: GPUOCC_OK to go on, 1 to stop (the walk returns 1), an error to
   stop with it. */
typedef int32_t (*gpuocc_entry_visit)(void *ctx, const struct gpuocc_entry *e);

/* Every device-code entry of a cubin, fatbinary or host ELF, from the start or from `from` (an entry's
   `next`, NULL for the start).  Container errors are returned as they are met (entries before them have
   been visited).  Every offset of `from` is checked like the file's own, so a wrong one cannot lead
   outside the buffer. */
int32_t gpuocc_entries_walk(const uint8_t *p, size_t n, const struct gpuocc_walk_pos *from, gpuocc_entry_visit visit,
                            void *ctx);

#define GPUOCC_EM_CUDA 190u
#define GPUOCC_EM_AMDGPU 224u
#define GPUOCC_SHT_NOTE 7u

/* Offload bundles (bundle.c): the entries of the bundles one after another (zero padding between them)
   in `p` (a .hip_fatbin section, or a whole file: section 0), from the bundle at offset `from` and its
   entry `first`; `index` is the next entry's ordinal. */
int32_t gpuocc_bundles_walk(const uint8_t *p, size_t n, uint32_t section, uint64_t from, uint64_t first,
                            int32_t *index, gpuocc_entry_visit visit, void *ctx);
/* Whether `p` opens with an offload bundle's magic, uncompressed or compressed. */
bool gpuocc_is_bundle(const uint8_t *p, size_t n);
/* The kernels of every AMDGPU code object of the uncompressed bundle at `p` (a decoded CCOB). */
int32_t gpuocc_bundle_images(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink);

/* The kernels of one AMDGPU code object at `image` (an EM_AMDGPU ELF); names are offsets from `origin`.
   GPUOCC_ERR_UNSUPPORTED without an NT_AMDGPU_METADATA note (code object v2, PAL or Mesa objects). */
int32_t gpuocc_amdgpu_image(const uint8_t *origin, const struct gpuocc_elf *image, struct gpuocc_kernel_sink *sink);
/* The same for the bytes of a bundle entry: GPUOCC_ERR_UNSUPPORTED for LLVM bitcode, GPUOCC_ERR_FORMAT for
   anything but an EM_AMDGPU ELF. */
int32_t gpuocc_amdgpu_read(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink);

/* The kernels of one cubin at `image` (an EM_CUDA ELF); names are offsets from `origin`. */
int32_t gpuocc_cubin_image(const uint8_t *origin, const struct gpuocc_elf *image, struct gpuocc_kernel_sink *sink);

#endif
