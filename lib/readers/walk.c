/*
 * Every device-code entry of a file: a fatbinary or an offload bundle of its own, a bare cubin or AMDGPU
 * code object (one entry), or a host ELF object, executable or shared library whose .nv_fatbin /
 * __nv_relfatbin sections hold fatbinaries (fatbin.c) and whose .hip_fatbin sections hold offload bundles
 * (bundle.c).
 */
#include "walk.h"

#include "bundle.h"
#include "elf.h"
#include "fatbin.h"

/* Host sections that hold fatbinaries: .nv_fatbin, and __nv_relfatbin in objects built with -rdc. */
static bool is_fatbin_section(const char *name, size_t length)
{
    return (length == 10 && memcmp(name, ".nv_fatbin", 10) == 0) ||
           (length == 14 && memcmp(name, "__nv_relfatbin", 14) == 0);
}

int32_t gpuocc_entries_walk(const uint8_t *p, size_t n, const struct gpuocc_walk_pos *from, gpuocc_entry_visit visit,
                            void *ctx)
{
    int32_t index = from ? from->index : 0;
    uint32_t section = from ? from->section : 0;
    uint64_t fatbin = from ? from->fatbin : 0, first = from ? from->entry : 0;
    if (gpuocc_is_fatbin(p, n))
        return section == 0 ? gpuocc_fatbins_walk(p, n, 0, fatbin, first, &index, visit, ctx) : GPUOCC_ERR_FORMAT;
    if (gpuocc_is_bundle(p, n)) /* a HIP offload bundle of its own */
        return section == 0 ? gpuocc_bundles_walk(p, n, 0, fatbin, first, &index, visit, ctx) : GPUOCC_ERR_FORMAT;
    struct gpuocc_elf elf;
    int32_t rc = gpuocc_elf_open(p, n, &elf);
    if (rc != GPUOCC_OK)
        return rc;
    if (elf.machine == GPUOCC_EM_CUDA || elf.machine == GPUOCC_EM_AMDGPU) {
        if (index > 0) /* a cubin or code object is one entry, already visited */
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
            (rc = nvidia ? gpuocc_fatbins_walk(data, (size_t)s.size, i, at, from_entry, &index, visit, ctx)
                         : gpuocc_bundles_walk(data, (size_t)s.size, i, at, from_entry, &index, visit, ctx)) !=
                GPUOCC_OK)
            return rc;
        found = true;
    }
    return found ? GPUOCC_OK : GPUOCC_ERR_FORMAT; /* a host binary without device code */
}
