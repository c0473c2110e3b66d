/*
 * Every device-code entry of a file: a fatbinary or an offload bundle of its own, a bare cubin, AMDGPU
 * code object or Intel zebin (one entry), or a host ELF object, executable or shared library.  In a host ELF the
 * .nv_fatbin / __nv_relfatbin sections hold fatbinaries one after another (fatbin.c) and .hip_fatbin
 * sections offload bundles (bundle.c), walked strictly; every other section with file contents is scanned
 * for their magics (libraries such as cuFFT keep thousands of fatbinaries in .ldata or .rodata), and each
 * candidate is walked only once its headers validate; one that does not is skipped and counted.
 */
#include "walk.h"

#include "bundle.h"
#include "elf.h"
#include "fatbin.h"

#define FATBIN_MAGIC_FIRST 0x50 /* 0xBA55ED50, little-endian */

/* Host sections that hold fatbinaries: .nv_fatbin, and __nv_relfatbin in objects built with -rdc. */
static bool is_fatbin_section(const char *name, size_t length)
{
    return (length == 10 && memcmp(name, ".nv_fatbin", 10) == 0) ||
           (length == 14 && memcmp(name, "__nv_relfatbin", 14) == 0);
}

/* The first offset >= from of `p` holding one of `bytes` (up to three, NUL-terminated), n if none: memchr
   for each, so that the scan runs at memchr's speed. */
#define UNKNOWN SIZE_MAX
struct finder {
    const uint8_t *p;
    size_t n;
    size_t next[3]; /* the next occurrence of each byte at or after the last `from`, n when none */
    const char *bytes;
};

static size_t find_from(struct finder *f, size_t from)
{
    size_t best = f->n;
    for (int i = 0; f->bytes[i]; i++) {
        if (f->next[i] == UNKNOWN || f->next[i] < from) {
            const uint8_t *q = from < f->n ? (const uint8_t *)memchr(f->p + from, f->bytes[i], f->n - from) : NULL;
            f->next[i] = q ? (size_t)(q - f->p) : f->n;
        }
        if (f->next[i] < best)
            best = f->next[i];
    }
    return best;
}

/* A section that is not a named container section: every validated fatbinary and offload bundle in it,
   in offset order, from the one at `from` (its entries from `first`). */
static int32_t scan_section(const uint8_t *p, size_t n, uint32_t section, uint64_t from, uint64_t first, int32_t *index,
                            gpuocc_entry_visit visit, void *ctx, struct gpuocc_walk_counts *counts)
{
    static const char bytes[] = {FATBIN_MAGIC_FIRST, '_', 'C', 0};
    struct finder f = {p, n, {UNKNOWN, UNKNOWN, UNKNOWN}, bytes};
    bool resumed = from > 0 || first > 0;
    for (size_t pos = find_from(&f, (size_t)from); pos < n; pos = find_from(&f, pos)) {
        size_t size = 0;
        bool fatbin = p[pos] == FATBIN_MAGIC_FIRST && gpuocc_is_fatbin(p + pos, n - pos);
        bool bundle = !fatbin && gpuocc_is_bundle(p + pos, n - pos);
        if (!fatbin && !bundle) {
            pos++;
            continue;
        }
        if (!(fatbin ? gpuocc_fatbin_check(p + pos, n - pos, &size) : gpuocc_bundle_check(p + pos, n - pos, &size))) {
            if (counts && counts->skipped < INT32_MAX)
                counts->skipped++;
            pos++;
            continue;
        }
        uint64_t entry = resumed && pos == from ? first : 0;
        int32_t rc = fatbin ? gpuocc_fatbins_walk(p, pos + size, section, pos, entry, index, visit, ctx, counts)
                            : gpuocc_bundles_walk(p, pos + size, section, pos, entry, index, visit, ctx, counts);
        if (rc != GPUOCC_OK)
            return rc;
        pos += size;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_entries_walk(const uint8_t *p, size_t n, const struct gpuocc_walk_pos *from, gpuocc_entry_visit visit,
                            void *ctx, struct gpuocc_walk_counts *counts)
{
    int32_t index = from ? from->index : 0;
    uint32_t section = from ? from->section : 0;
    uint64_t fatbin = from ? from->fatbin : 0, first = from ? from->entry : 0;
    if (gpuocc_is_fatbin(p, n))
        return section == 0 ? gpuocc_fatbins_walk(p, n, 0, fatbin, first, &index, visit, ctx, counts)
                            : GPUOCC_ERR_FORMAT;
    if (gpuocc_is_bundle(p, n)) /* a HIP offload bundle of its own */
        return section == 0 ? gpuocc_bundles_walk(p, n, 0, fatbin, first, &index, visit, ctx, counts)
                            : GPUOCC_ERR_FORMAT;
    struct gpuocc_elf elf;
    int32_t rc = gpuocc_elf_open(p, n, &elf);
    if (rc != GPUOCC_OK)
        return rc;
    if (elf.machine == GPUOCC_EM_CUDA || elf.machine == GPUOCC_EM_AMDGPU || elf.machine == GPUOCC_EM_INTELGT) {
        if (index > 0) /* a cubin or code object is one entry, already visited */
            return GPUOCC_OK;
        struct gpuocc_entry entry = {{0, 0, 0, 0}, {1, 0, 0, n}, p, n, 0, n, 0,
                                     elf.machine == GPUOCC_EM_CUDA     ? GPUOCC_CONTAINER_CUBIN
                                     : elf.machine == GPUOCC_EM_AMDGPU ? GPUOCC_CONTAINER_AMDGPU
                                                                       : GPUOCC_CONTAINER_ZEBIN,
                                     0};
        return visit(ctx, &entry);
    }
    struct gpuocc_walk_counts seen = {0, 0, 0, GPUOCC_NO_FAULT};
    bool named = false; /* a container section, even one holding only padding, says the file has device code */
    for (uint32_t i = section > 1 ? section : 1; i < elf.shnum; i++) {
        struct gpuocc_section s;
        gpuocc_elf_section(&elf, i, &s);
        const char *name;
        size_t length;
        const uint8_t *data;
        if (s.type == GPUOCC_SHT_NOBITS || s.size == 0 || gpuocc_elf_section_name(&elf, &s, &name, &length) != GPUOCC_OK)
            continue;
        bool nvidia = is_fatbin_section(name, length), hip = length == 11 && memcmp(name, ".hip_fatbin", 11) == 0;
        uint64_t at = i == section ? fatbin : 0, from_entry = i == section ? first : 0;
        if ((rc = gpuocc_elf_data(&elf, &s, &data)) != GPUOCC_OK) {
            if (nvidia || hip)
                return rc;
            continue; /* a section past the file's end holds nothing to scan */
        }
        if (nvidia)
            rc = gpuocc_fatbins_walk(data, (size_t)s.size, i, at, from_entry, &index, visit, ctx, &seen);
        else if (hip)
            rc = gpuocc_bundles_walk(data, (size_t)s.size, i, at, from_entry, &index, visit, ctx, &seen);
        else
            rc = scan_section(data, (size_t)s.size, i, at, from_entry, &index, visit, ctx, &seen);
        if (rc != GPUOCC_OK)
            break;
        named |= nvidia || hip;
    }
    bool found = from != NULL || named || seen.containers > 0;
    if (counts)
        *counts = seen;
    if (rc != GPUOCC_OK)
        return rc;
    return found ? GPUOCC_OK : GPUOCC_ERR_FORMAT; /* a host binary without device code */
}
