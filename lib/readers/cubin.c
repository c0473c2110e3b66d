/*
 * The kernels of one NVIDIA cubin.  Layout facts (docs/sources.md, "cubin"), each checked against
 * ptxas -v output for the same compile (tests/test_cubin.c):
 *  - the target is in e_flags: bits 8-15 from ELF ABI version 8 (ELFABIVERSION_CUDA_V2), the low byte
 *    before (LLVM BinaryFormat/ELF.h, EF_CUDA_SM_MASK / EF_CUDA_SM);
 *  - a kernel is a function symbol marked STO_CUDA_ENTRY (0x10) in st_other; its code is .text.<name>;
 *  - .nv.info holds module-wide attributes keyed by symbol (registers, frame size), .nv.info.<name> the
 *    kernel's own; both are streams of {format, attribute, u16 value-or-size} records (EIFMT / EIATTR);
 *  - older cubins keep registers in the .text section's sh_info bits 24-31 and barriers in its sh_flags
 *    bits 20-24 (SHI_REGISTERS, SHF_BARRIERS), read when the attributes are absent;
 *  - .nv.shared.<name> and .nv.constant0.<name> give static shared memory and constant bank 0; from cc
 *    9.0 the shared section also spans the driver's reserved window in front of the kernel's data.
 */
#include "cubin.h"

#include "../core/core.h"
#include "names.h"

#include <stdio.h>

#define STT_FUNC 2u
#define STO_CUDA_ENTRY 0x10u
#define SYM_SIZE 24u

enum { EIFMT_NVAL = 1, EIFMT_BVAL = 2, EIFMT_HVAL = 3, EIFMT_SVAL = 4 };
enum {
    EIATTR_MAX_THREADS = 0x05,
    EIATTR_REQNTID = 0x10,
    EIATTR_FRAME_SIZE = 0x11,
    EIATTR_MAXREG_COUNT = 0x1b,
    EIATTR_REGCOUNT = 0x2f,
    EIATTR_CTA_PER_CLUSTER = 0x3d,
    EIATTR_MAX_CLUSTER_RANK = 0x3f,
    EIATTR_NUM_BARRIERS = 0x4c,
};

struct attribute {
    uint8_t format, code;
    uint16_t value;
    const uint8_t *data; /* EIFMT_SVAL: `value` bytes */
};

/* The record at *pos of an attribute stream: 1 and *pos advanced, 0 at the end, or an error. */
static int32_t next_attribute(const uint8_t *p, size_t n, size_t *pos, struct attribute *a)
{
    if (*pos >= n)
        return 0;
    if (n - *pos < 4)
        return GPUOCC_ERR_FORMAT;
    a->format = p[*pos];
    a->code = p[*pos + 1];
    a->value = gpuocc_le16(p + *pos + 2);
    a->data = NULL;
    *pos += 4;
    if (a->format == EIFMT_SVAL) {
        if (a->value > n - *pos)
            return GPUOCC_ERR_FORMAT;
        a->data = p + *pos;
        *pos += a->value;
    } else if (a->format < EIFMT_NVAL || a->format > EIFMT_HVAL) {
        return GPUOCC_ERR_FORMAT;
    }
    return 1;
}

struct cubin {
    const uint8_t *origin;
    const struct gpuocc_elf *elf;
    int32_t cc;
    struct gpuocc_section symtab;
    const uint8_t *symbols;
    uint64_t symbol_count;
    const uint8_t *info; /* the module-wide .nv.info, NULL if none */
    size_t info_size;
    int64_t reserved_window; /* bytes of the driver's window at the start of each .nv.shared.<name> */
    gpuocc_device device;
    bool have_device;
};

/* A module-wide attribute {symbol, u32 value} for `symbol`; false if none. */
static int32_t symbol_attribute(const struct cubin *c, uint8_t code, uint32_t symbol, bool *found, uint32_t *value)
{
    *found = false;
    size_t pos = 0;
    struct attribute a;
    int32_t rc;
    while ((rc = next_attribute(c->info, c->info_size, &pos, &a)) == 1) {
        if (a.code != code || a.format != EIFMT_SVAL || a.value < 8 || gpuocc_le32(a.data) != symbol)
            continue;
        *found = true;
        *value = gpuocc_le32(a.data + 4);
    }
    return rc;
}

/* x * y * z of a {u32, u32, u32} attribute, which must fit an int32_t. */
static int32_t product3(const struct attribute *a, int32_t *out)
{
    if (a->format != EIFMT_SVAL || a->value < 12)
        return GPUOCC_ERR_FORMAT;
    uint64_t v = 1;
    for (int i = 0; i < 3; i++) {
        uint64_t d = gpuocc_le32(a->data + 4 * i);
        if (d > INT32_MAX || (v *= d) > INT32_MAX)
            return GPUOCC_ERR_FORMAT;
    }
    *out = (int32_t)v;
    return GPUOCC_OK;
}

/* The kernel's own .nv.info.<name> stream. */
static int32_t read_kernel_info(const uint8_t *p, size_t n, gpuocc_compiled_kernel *k)
{
    size_t pos = 0;
    struct attribute a;
    int32_t more;
    while ((more = next_attribute(p, n, &pos, &a)) == 1) {
        int32_t rc = GPUOCC_OK;
        switch (a.code) {
        case EIATTR_MAX_THREADS:
        case EIATTR_REQNTID:
            rc = product3(&a, &k->max_threads_per_block);
            break;
        case EIATTR_MAXREG_COUNT:
            k->max_regs_per_thread = a.value;
            break;
        case EIATTR_NUM_BARRIERS:
            k->barriers = a.value & 0xff;
            break;
        case EIATTR_MAX_CLUSTER_RANK:
            if (a.format != EIFMT_SVAL || a.value < 4 || gpuocc_le32(a.data) > INT32_MAX)
                return GPUOCC_ERR_FORMAT;
            k->max_blocks_per_cluster = (int32_t)gpuocc_le32(a.data);
            break;
        case EIATTR_CTA_PER_CLUSTER: {
            int32_t total;
            if ((rc = product3(&a, &total)) == GPUOCC_OK) {
                k->cluster_x = (int32_t)gpuocc_le32(a.data);
                k->cluster_y = (int32_t)gpuocc_le32(a.data + 4);
                k->cluster_z = (int32_t)gpuocc_le32(a.data + 8);
            }
            break;
        }
        default:
            break;
        }
        if (rc != GPUOCC_OK)
            return rc;
    }
    return more;
}

static int32_t checked_size(uint64_t size, int64_t *out)
{
    if (size > (uint64_t)GPUOCC_BYTES_HUGE)
        return GPUOCC_ERR_FORMAT;
    *out = (int64_t)size;
    return GPUOCC_OK;
}

/* Sections that belong to the kernel whose code is section `text` (their sh_info names it). */
static int32_t read_kernel_sections(const struct cubin *c, uint32_t text, gpuocc_compiled_kernel *k)
{
    for (uint32_t i = 1; i < c->elf->shnum; i++) {
        struct gpuocc_section s;
        gpuocc_elf_section(c->elf, i, &s);
        if (s.info != text || i == text)
            continue;
        const char *name;
        size_t length;
        int32_t rc = gpuocc_elf_section_name(c->elf, &s, &name, &length);
        if (rc == GPUOCC_OK && gpuocc_has_prefix(name, length, ".nv.info.")) {
            const uint8_t *data;
            if ((rc = gpuocc_elf_data(c->elf, &s, &data)) == GPUOCC_OK)
                rc = read_kernel_info(data, (size_t)s.size, k);
        } else if (rc == GPUOCC_OK && gpuocc_has_prefix(name, length, ".nv.shared.")) {
            int64_t size;
            if ((rc = checked_size(s.size, &size)) == GPUOCC_OK)
                k->smem_bytes = size > c->reserved_window ? size - c->reserved_window : 0;
        } else if (rc == GPUOCC_OK && gpuocc_has_prefix(name, length, ".nv.constant0.")) {
            rc = checked_size(s.size, &k->cmem_bytes);
        }
        if (rc != GPUOCC_OK)
            return rc;
    }
    return GPUOCC_OK;
}

static int32_t read_kernel(const struct cubin *c, uint32_t index, const uint8_t *sym, gpuocc_compiled_kernel *k)
{
    memset(k, 0, sizeof *k);
    const char *name;
    size_t length, start, short_length;
    int32_t rc = gpuocc_elf_string(c->elf, c->symtab.link, gpuocc_le32(sym), &name, &length);
    if (rc != GPUOCC_OK)
        return rc;
    gpuocc_short_name(name, length, &start, &short_length);
    k->name_offset = (uint64_t)((const uint8_t *)name - c->origin);
    k->name_length = length;
    k->short_offset = k->name_offset + start;
    k->short_length = short_length;
    k->cc = c->cc;
    k->max_regs_per_thread = -1;
    k->stack_frame_bytes = k->spill_store_bytes = k->spill_load_bytes = k->lmem_bytes = -1;

    uint32_t text = gpuocc_le16(sym + 6);
    if (text == 0 || text >= c->elf->shnum)
        return GPUOCC_ERR_FORMAT;
    struct gpuocc_section code;
    gpuocc_elf_section(c->elf, text, &code);
    k->registers = (int32_t)(code.info >> 24);
    k->barriers = (int32_t)((code.flags >> 20) & 0x1f);

    bool found;
    uint32_t value;
    if ((rc = symbol_attribute(c, EIATTR_REGCOUNT, index, &found, &value)) != GPUOCC_OK)
        return rc;
    if (found && value > INT32_MAX)
        return GPUOCC_ERR_FORMAT;
    if (found)
        k->registers = (int32_t)value;
    if ((rc = symbol_attribute(c, EIATTR_FRAME_SIZE, index, &found, &value)) != GPUOCC_OK)
        return rc;
    if (found)
        k->stack_frame_bytes = value;
    if ((rc = read_kernel_sections(c, text, k)) != GPUOCC_OK)
        return rc;

    /* __launch_bounds__'s minimum survives only as the register cap; invert it with the register rule. */
    int32_t blocks;
    if (c->have_device && k->max_threads_per_block > 0 && k->max_regs_per_thread > 0 &&
        gpuocc_limit_registers(&c->device, k->max_threads_per_block, k->max_regs_per_thread, &blocks) == GPUOCC_OK &&
        blocks > 0)
        k->min_blocks_per_sm = blocks;
    return GPUOCC_OK;
}

/* Module-wide facts: the symbol table, .nv.info, and the reserved shared-memory window. */
static int32_t read_module(struct cubin *c)
{
    const struct gpuocc_elf *e = c->elf;
    bool have_symtab = false, have_reserved_section = false;
    for (uint32_t i = 1; i < e->shnum; i++) {
        struct gpuocc_section s;
        gpuocc_elf_section(e, i, &s);
        const char *name;
        size_t length;
        int32_t rc = gpuocc_elf_section_name(e, &s, &name, &length);
        if (rc != GPUOCC_OK)
            return rc;
        if (s.type == GPUOCC_SHT_SYMTAB && !have_symtab) {
            if (s.entsize != SYM_SIZE || (rc = gpuocc_elf_data(e, &s, &c->symbols)) != GPUOCC_OK)
                return rc != GPUOCC_OK ? rc : GPUOCC_ERR_FORMAT;
            c->symtab = s;
            c->symbol_count = s.size / SYM_SIZE;
            have_symtab = true;
        } else if (length == 8 && memcmp(name, ".nv.info", 8) == 0 && !c->info) {
            if ((rc = gpuocc_elf_data(e, &s, &c->info)) != GPUOCC_OK)
                return rc;
            c->info_size = (size_t)s.size;
        } else if (gpuocc_has_prefix(name, length, ".nv.shared.reserved.")) {
            have_reserved_section = true;
        }
    }
    /* Only linked cubins lay the window out in front of each kernel's shared section, and they mark it
       with a .nv.shared.reserved.* section (relocatable -rdc cubins have neither).  Its size is the
       .nv.reservedSmem.cap symbol where the compiler writes one, else the architecture's reserved shared
       memory per block (measured: 1 KiB on sm_90, sm_100 and sm_120). */
    if (!have_reserved_section)
        return GPUOCC_OK;
    if (c->have_device)
        c->reserved_window = c->device.smem_reserved_per_block_bytes;
    for (uint64_t i = 0; i < c->symbol_count; i++) {
        const uint8_t *sym = c->symbols + i * SYM_SIZE;
        const char *name;
        size_t length;
        if (gpuocc_elf_string(e, c->symtab.link, gpuocc_le32(sym), &name, &length) == GPUOCC_OK &&
            length == 20 && memcmp(name, ".nv.reservedSmem.cap", 20) == 0) {
            int32_t rc = checked_size(gpuocc_le64(sym + 8), &c->reserved_window);
            if (rc != GPUOCC_OK)
                return rc;
        }
    }
    return GPUOCC_OK;
}

int32_t gpuocc_cubin_image(const uint8_t *origin, const struct gpuocc_elf *image, struct gpuocc_kernel_sink *sink)
{
    struct cubin c;
    memset(&c, 0, sizeof c);
    c.origin = origin;
    c.elf = image;
    c.cc = (int32_t)(image->abi_version >= 8 ? (image->flags >> 8) & 0xff : image->flags & 0xff);
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", (int)c.cc);
    c.device.size = sizeof c.device;
    c.have_device = c.cc > 0 && gpuocc_device_lookup(arch, &c.device) == GPUOCC_OK;
    int32_t rc = read_module(&c);
    if (rc != GPUOCC_OK)
        return rc;
    for (uint64_t i = 1; i < c.symbol_count; i++) {
        const uint8_t *sym = c.symbols + i * SYM_SIZE;
        if ((sym[4] & 0xf) != STT_FUNC || !(sym[5] & STO_CUDA_ENTRY))
            continue;
        if (i > UINT32_MAX)
            return GPUOCC_ERR_FORMAT;
        gpuocc_compiled_kernel k;
        if ((rc = read_kernel(&c, (uint32_t)i, sym, &k)) != GPUOCC_OK)
            return rc;
        if ((rc = gpuocc_sink_put(sink, &k)) != GPUOCC_OK)
            return rc;
    }
    return GPUOCC_OK;
}
