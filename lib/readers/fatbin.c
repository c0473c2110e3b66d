/*
 * Containers of cubins: a fatbinary, and a host ELF object, executable or shared library whose
 * .nv_fatbin section holds one fatbinary per translation unit (__nv_relfatbin in objects compiled with
 * -rdc, whose cubins are relocatable ELF); and through bundle.c the HIP offload bundles of .hip_fatbin
 * sections and of files of their own, and bare AMDGPU code objects.  Fatbinary layout, measured on
 * CUDA 13 output and described in docs/inputs.md:
 *   header  u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size of the entries that follow;
 *   entry   u16 kind (1 PTX, 2 ELF), u16 version, u32 header size, u64 payload size (padded to 8),
 *           u32 compressed size at 0x10, u32 SM at 0x1c, u64 flags at 0x28 (0x2000 LZ4, 0x8000 zstd),
 *           u64 uncompressed size at 0x38.
 */
#include "binary.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_HEADER_MIN 16u
#define ENTRY_HEADER_MIN 64u
#define ENTRY_KIND_ELF 2u

struct walk {
    gpuocc_entry_visit visit;
    void *ctx;
    int32_t index; /* the next entry's ordinal */
};

/* One fatbinary at p (offset `at` of its section), its entries from offset `first`; *used is its size. */
static int32_t walk_fatbin(struct walk *w, const uint8_t *p, size_t n, uint32_t section, uint64_t at, uint64_t first,
                           size_t *used)
{
    if (n < FATBIN_HEADER_MIN)
        return GPUOCC_ERR_TRUNCATED;
    if (gpuocc_le32(p) != FATBIN_MAGIC)
        return GPUOCC_ERR_FORMAT;
    uint64_t header = gpuocc_le16(p + 6), size = gpuocc_le64(p + 8);
    if (header < FATBIN_HEADER_MIN)
        return GPUOCC_ERR_FORMAT;
    if (!gpuocc_fits(n, header, size))
        return GPUOCC_ERR_TRUNCATED;
    const uint8_t *entries = p + header;
    for (uint64_t pos = first; pos < size;) {
        const uint8_t *e = entries + pos;
        if (size - pos < ENTRY_HEADER_MIN)
            return GPUOCC_ERR_FORMAT;
        uint32_t kind = gpuocc_le16(e), entry_header = gpuocc_le32(e + 4);
        uint64_t payload = gpuocc_le64(e + 8);
        if (entry_header < ENTRY_HEADER_MIN || !gpuocc_fits((size_t)(size - pos), entry_header, payload))
            return GPUOCC_ERR_FORMAT;
        uint64_t next = pos + entry_header + payload;
        if (kind == ENTRY_KIND_ELF) {
            if (w->index == INT32_MAX)
                return GPUOCC_ERR_OVERFLOW;
            struct gpuocc_entry entry = {{w->index, section, at, pos}, {w->index + 1, section, at, next},
                                         e + entry_header, (size_t)payload, gpuocc_le64(e + 0x28),
                                         gpuocc_le32(e + 0x10), gpuocc_le64(e + 0x38), GPUOCC_CONTAINER_CUBIN};
            w->index++;
            int32_t rc = w->visit(w->ctx, &entry);
            if (rc != GPUOCC_OK)
                return rc;
        }
        pos = next;
    }
    *used = (size_t)(header + size);
    return GPUOCC_OK;
}

/* Fatbinaries one after another from offset `from`, zero padding between them (a .nv_fatbin section);
   the first one's entries from `first`. */
static int32_t walk_fatbins(struct walk *w, const uint8_t *p, size_t n, uint32_t section, uint64_t from,
                            uint64_t first)
{
    for (uint64_t pos = from; pos < n;) {
        if (p[pos] == 0) {
            pos++;
            first = 0;
            continue;
        }
        size_t used;
        int32_t rc = walk_fatbin(w, p + pos, (size_t)(n - pos), section, pos, first, &used);
        if (rc != GPUOCC_OK)
            return rc;
        pos += used;
        first = 0;
    }
    return GPUOCC_OK;
}

/* Host sections that hold fatbinaries: .nv_fatbin, and __nv_relfatbin in objects built with -rdc. */
static bool is_fatbin_section(const char *name, size_t length)
{
    return (length == 10 && memcmp(name, ".nv_fatbin", 10) == 0) ||
           (length == 14 && memcmp(name, "__nv_relfatbin", 14) == 0);
}

int32_t gpuocc_entries_walk(const uint8_t *p, size_t n, const struct gpuocc_walk_pos *from, gpuocc_entry_visit visit,
                            void *ctx)
{
    struct walk w = {visit, ctx, from ? from->index : 0};
    uint32_t section = from ? from->section : 0;
    uint64_t fatbin = from ? from->fatbin : 0, first = from ? from->entry : 0;
    if (n >= 4 && gpuocc_le32(p) == FATBIN_MAGIC)
        return section == 0 ? walk_fatbins(&w, p, n, 0, fatbin, first) : GPUOCC_ERR_FORMAT;
    if (gpuocc_is_bundle(p, n)) /* a HIP offload bundle of its own */
        return section == 0 ? gpuocc_bundles_walk(p, n, 0, fatbin, first, &w.index, visit, ctx) : GPUOCC_ERR_FORMAT;
    struct gpuocc_elf elf;
    int32_t rc = gpuocc_elf_open(p, n, &elf);
    if (rc != GPUOCC_OK)
        return rc;
    if (elf.machine == GPUOCC_EM_CUDA || elf.machine == GPUOCC_EM_AMDGPU) {
        if (w.index > 0) /* a cubin or code object is one entry, already visited */
            return GPUOCC_OK;
        struct gpuocc_entry entry = {{0, 0, 0, 0}, {1, 0, 0, n}, p, n, 0, n, 0,
                                     elf.machine == GPUOCC_EM_CUDA ? GPUOCC_CONTAINER_CUBIN : GPUOCC_CONTAINER_AMDGPU};
        return visit(ctx, &entry);
    }
    bool found = from != NULL;
    for (uint32_t i = section > 1 ? section : 1; i < elf.shnum; i++) {
        struct gpuocc_section s;
        gpuocc_elf_section(&elf, i, &s);
        const char *name;
        size_t length;
        const uint8_t *data;
        if (gpuocc_elf_section_name(&elf, &s, &name, &length) != GPUOCC_OK)
            continue;
        bool nvidia = is_fatbin_section(name, length), hip = length == 11 && memcmp(name, ".hip_fatbin", 11) == 0;
        if (!nvidia && !hip)
            continue;
        uint64_t at = i == section ? fatbin : 0, from_entry = i == section ? first : 0;
        if ((rc = gpuocc_elf_data(&elf, &s, &data)) != GPUOCC_OK ||
            (rc = nvidia ? walk_fatbins(&w, data, (size_t)s.size, i, at, from_entry)
                         : gpuocc_bundles_walk(data, (size_t)s.size, i, at, from_entry, &w.index, visit, ctx)) !=
                GPUOCC_OK)
            return rc;
        found = true;
    }
    return found ? GPUOCC_OK : GPUOCC_ERR_FORMAT; /* a host binary without device code */
}

/* The old whole-file reader: every entry must be an uncompressed cubin. */
struct plain_read {
    const uint8_t *origin;
    struct gpuocc_kernel_sink *sink;
};

static int32_t read_plain_entry(void *ctx, const struct gpuocc_entry *e)
{
    const struct plain_read *r = (const struct plain_read *)ctx;
    if (e->container != GPUOCC_CONTAINER_CUBIN) /* AMD code is read by gpuocc_binary_read_entry */
        return GPUOCC_ERR_FORMAT;
    if ((e->flags & (GPUOCC_ENTRY_LZ4 | GPUOCC_ENTRY_ZSTD)) || e->uncompressed != 0)
        return GPUOCC_ERR_COMPRESSED;
    struct gpuocc_elf elf;
    int32_t rc = gpuocc_elf_open(e->p, e->n, &elf);
    if (rc != GPUOCC_OK)
        return rc;
    if (elf.machine != GPUOCC_EM_CUDA)
        return GPUOCC_ERR_FORMAT;
    return gpuocc_cubin_image(r->origin, &elf, r->sink);
}

int32_t gpuocc_cubin_read(const void *data, size_t length, gpuocc_compiled_kernel *kernels, int32_t capacity,
                          int32_t *count)
{
    if (!data || !count || (capacity > 0 && !kernels))
        return GPUOCC_ERR_NULL;
    if (capacity < 0)
        return GPUOCC_ERR_ARGUMENT;
    struct gpuocc_kernel_sink sink = {kernels, NULL, 0, 0, 0, capacity, 0};
    struct plain_read r = {(const uint8_t *)data, &sink};
    int32_t rc = gpuocc_entries_walk((const uint8_t *)data, length, NULL, read_plain_entry, &r);
    if (rc != GPUOCC_OK)
        return rc;
    *count = sink.count;
    return sink.count > capacity ? GPUOCC_ERR_BUFFER : GPUOCC_OK;
}
