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
 *    9.0 the shared section also spans the driver's reserved window in front of the kernel's data;
 *  - Blackwell's records, measured with ptxas 13.0 for sm_100a (tests/cuda/tcgen05.ptx, docs/inputs.md):
 *    0x4a (a byte value) the virtual resources a block uses, 128 where tcgen05 is used and 0 elsewhere;
 *    0x51 / 0x52 (no value) the kernel's tcgen05 instructions use cta_group::1 / ::2; 0x54 (no value) it
 *    uses setmaxnreg.
 */
#include "cubin.h"

#include "../core/core.h"
#include "names.h"

#include <stdio.h>
#include <stdlib.h>

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
    EIATTR_VIRTUAL_RESOURCES = 0x4a,
    EIATTR_TMEM_CTA_GROUP_1 = 0x51,
    EIATTR_TMEM_CTA_GROUP_2 = 0x52,
    EIATTR_SETMAXNREG = 0x54,
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
static int32_t read_kernel_info(const uint8_t *p, size_t n, gpuocc_compiled_kernel *k, struct gpuocc_cubin_records *x)
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
        case EIATTR_VIRTUAL_RESOURCES:
            x->virtual_resources = a.value;
            break;
        case EIATTR_TMEM_CTA_GROUP_1:
        case EIATTR_TMEM_CTA_GROUP_2:
            x->tmem_cta_group = a.code == EIATTR_TMEM_CTA_GROUP_2 ? 2 : 1;
            break;
        case EIATTR_SETMAXNREG:
            x->setmaxnreg = 1;
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

/* One kernel of the batch being read: what the passes over .nv.info and the sections found for it. */
struct slot {
    uint32_t symbol, text;
    uint32_t registers, frame; /* valid where has_registers / has_frame */
    uint32_t info, shared, constant; /* its .nv.info.<k>, .nv.shared.<k>, .nv.constant0.<k> sections; 0: none */
    uint8_t has_registers, has_frame, pad[2];
};

/* The index a batch of kernels is read with: its slots in symbol order, and (text section << 32 | slot)
   keys sorted, to find a section's kernels by its sh_info. */
struct batch {
    struct slot *slots;
    uint64_t *by_text;
    size_t capacity, count;
};

#define STACK_BATCH 128u /* kernels per pass without an index in the workspace */

static struct slot *slot_of_symbol(const struct batch *b, uint32_t symbol)
{
    size_t lo = 0, hi = b->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->slots[mid].symbol < symbol)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->count && b->slots[lo].symbol == symbol ? &b->slots[lo] : NULL;
}

/* The first key of by_text for section `text`, b->count if none. */
static size_t first_of_text(const struct batch *b, uint32_t text)
{
    size_t lo = 0, hi = b->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uint32_t)(b->by_text[mid] >> 32) < text)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->count && (uint32_t)(b->by_text[lo] >> 32) == text ? lo : b->count;
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One pass over the module-wide .nv.info: each {symbol, value} REGCOUNT or FRAME_SIZE to its kernel (the
   last record for a symbol wins). */
static int32_t index_attributes(const struct cubin *c, struct batch *b)
{
    size_t pos = 0;
    struct attribute a;
    int32_t rc;
    while ((rc = next_attribute(c->info, c->info_size, &pos, &a)) == 1) {
        if ((a.code != EIATTR_REGCOUNT && a.code != EIATTR_FRAME_SIZE) || a.format != EIFMT_SVAL || a.value < 8)
            continue;
        struct slot *k = slot_of_symbol(b, gpuocc_le32(a.data));
        if (!k)
            continue;
        if (a.code == EIATTR_REGCOUNT) {
            k->registers = gpuocc_le32(a.data + 4);
            k->has_registers = 1;
        } else {
            k->frame = gpuocc_le32(a.data + 4);
            k->has_frame = 1;
        }
    }
    return rc;
}

/* One pass over the sections: those whose sh_info names a batch kernel's text section are its own. */
static int32_t index_sections(const struct cubin *c, struct batch *b)
{
    for (size_t i = 0; i < b->count; i++)
        b->by_text[i] = (uint64_t)b->slots[i].text << 32 | i;
    qsort(b->by_text, b->count, sizeof *b->by_text, compare_keys);
    for (uint32_t i = 1; i < c->elf->shnum; i++) {
        struct gpuocc_section s;
        gpuocc_elf_section(c->elf, i, &s);
        size_t at = first_of_text(b, s.info);
        if (at == b->count || i == s.info)
            continue;
        const char *name;
        size_t length;
        int32_t rc = gpuocc_elf_section_name(c->elf, &s, &name, &length);
        if (rc != GPUOCC_OK)
            return rc;
        for (; at < b->count && (uint32_t)(b->by_text[at] >> 32) == s.info; at++) {
            struct slot *k = &b->slots[(uint32_t)b->by_text[at]];
            if (gpuocc_has_prefix(name, length, ".nv.info."))
                k->info = i;
            else if (gpuocc_has_prefix(name, length, ".nv.shared."))
                k->shared = i;
            else if (gpuocc_has_prefix(name, length, ".nv.constant0."))
                k->constant = i;
        }
    }
    return GPUOCC_OK;
}

/* The kernel's own sections, found by index_sections. */
static int32_t read_kernel_sections(const struct cubin *c, const struct slot *slot, gpuocc_compiled_kernel *k,
                                    struct gpuocc_cubin_records *x)
{
    struct gpuocc_section s;
    int32_t rc = GPUOCC_OK;
    if (slot->info) {
        const uint8_t *data;
        gpuocc_elf_section(c->elf, slot->info, &s);
        if ((rc = gpuocc_elf_data(c->elf, &s, &data)) == GPUOCC_OK)
            rc = read_kernel_info(data, (size_t)s.size, k, x);
    }
    if (rc == GPUOCC_OK && slot->shared) {
        int64_t size;
        gpuocc_elf_section(c->elf, slot->shared, &s);
        if ((rc = checked_size(s.size, &size)) == GPUOCC_OK)
            k->smem_bytes = size > c->reserved_window ? size - c->reserved_window : 0;
    }
    if (rc == GPUOCC_OK && slot->constant) {
        gpuocc_elf_section(c->elf, slot->constant, &s);
        rc = checked_size(s.size, &k->cmem_bytes);
    }
    return rc;
}

static int32_t read_kernel(const struct cubin *c, const struct slot *slot, gpuocc_compiled_kernel *k,
                           struct gpuocc_cubin_records *x)
{
    const uint8_t *sym = c->symbols + (uint64_t)slot->symbol * SYM_SIZE;
    memset(k, 0, sizeof *k);
    memset(x, 0, sizeof *x);
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

    struct gpuocc_section code;
    gpuocc_elf_section(c->elf, slot->text, &code);
    k->registers = (int32_t)(code.info >> 24);
    k->barriers = (int32_t)((code.flags >> 20) & 0x1f);
    if (slot->has_registers && slot->registers > INT32_MAX)
        return GPUOCC_ERR_FORMAT;
    if (slot->has_registers)
        k->registers = (int32_t)slot->registers;
    if (slot->has_frame)
        k->stack_frame_bytes = slot->frame;
    if ((rc = read_kernel_sections(c, slot, k, x)) != GPUOCC_OK)
        return rc;

    /* __launch_bounds__'s minimum survives only as the register cap; invert it with the register rule. */
    int32_t blocks;
    if (c->have_device && k->max_threads_per_block > 0 && k->max_regs_per_thread > 0 &&
        gpuocc_limit_registers(&c->device, k->max_threads_per_block, k->max_regs_per_thread, &blocks) == GPUOCC_OK &&
        blocks > 0)
        k->min_blocks_per_sm = blocks;
    return GPUOCC_OK;
}

/* The arch variant in a .note.nv.tkinfo note (NVIDIA's toolkit information; measured, CUDA 13: one note of
   type 2000 whose descriptor is six u32, the sixth the offset of the tool's options among the strings that
   follow, "-arch sm_90a -m 64 "): 'a' or 'f' after "sm_" and digits, else 0.  Bounded by the note. */
static uint32_t tkinfo_variant(const uint8_t *p, size_t n)
{
    if (n < 12)
        return 0;
    uint32_t namesz = gpuocc_le32(p), descsz = gpuocc_le32(p + 4), type = gpuocc_le32(p + 8);
    uint64_t desc = 12 + (((uint64_t)namesz + 3) & ~(uint64_t)3);
    if (type != 2000 || desc > n || descsz > n - desc || descsz < 24)
        return 0;
    const uint8_t *d = p + desc;
    uint32_t options = gpuocc_le32(d + 20);
    if (options >= descsz - 24)
        return 0;
    const uint8_t *s = d + 24 + options, *end = d + descsz;
    for (; s + 3 < end && *s; s++) {
        if (s[0] != 's' || s[1] != 'm' || s[2] != '_')
            continue;
        const uint8_t *q = s + 3;
        while (q < end && *q >= '0' && *q <= '9')
            q++;
        if (q > s + 3 && q < end && (*q == 'a' || *q == 'f') && (q + 1 == end || q[1] == ' ' || q[1] == 0))
            return *q;
    }
    return 0;
}

/* tkinfo_variant as a gpuocc_note_walk. */
static int32_t tkinfo_walk(const uint8_t *p, uint64_t n, void *ctx, uint64_t *variant)
{
    (void)ctx;
    *variant = tkinfo_variant(p, (size_t)n);
    return GPUOCC_OK;
}

/* Module-wide facts: the symbol table, .nv.info, and the reserved shared-memory window. */
static int32_t read_module(struct cubin *c, uint32_t *variant)
{
    const struct gpuocc_elf *e = c->elf;
    bool have_symtab = false;
    struct gpuocc_note_memo notes = {.count = 0}; /* each tkinfo range read once */
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
        } else if (s.type == GPUOCC_SHT_NOTE && *variant == 0 && length == 15 &&
                   memcmp(name, ".note.nv.tkinfo", 15) == 0) {
            uint64_t found;
            if (gpuocc_note_once(&notes, e, &s, tkinfo_walk, NULL, &found) == GPUOCC_OK)
                *variant = (uint32_t)found;
        }
    }
    /* The window is laid out in front of each kernel's shared section by the linker, from cc 9.0 on: every
       linked (ET_EXEC) sm_90+ cubin has it, whether or not it keeps a .nv.shared.reserved.* section (nvlink's
       device-linked cubins and those of older toolkits have none), and no relocatable (ET_REL) cubin has
       it, though some carry a .nv.shared.reserved.* section of their own (a hardware workaround's variables,
       libcudadevrt's sm_110 code).  Evidence: docs/shared-window.md.  Its size is the .nv.reservedSmem.cap
       symbol where the compiler writes one, else the architecture's reserved shared memory per block
       (1 KiB on every cc 9.0+ target, also where the target is not in the catalog). */
    if (e->type != GPUOCC_ET_EXEC || c->cc < 90)
        return GPUOCC_OK;
    c->reserved_window = c->have_device ? c->device.smem_reserved_per_block_bytes : 1024;
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

size_t gpuocc_cubin_index_bytes(uint64_t kernels)
{
    const uint64_t each = sizeof(struct slot) + sizeof(uint64_t);
    return kernels > SIZE_MAX / each - 8 ? SIZE_MAX : (size_t)(kernels * each + 8);
}

/* The next batch of kernels, from symbol *next on: up to b->capacity, in symbol order. */
static int32_t next_batch(const struct cubin *c, uint64_t *next, struct batch *b)
{
    b->count = 0;
    for (; *next < c->symbol_count && b->count < b->capacity; ++*next) {
        const uint8_t *sym = c->symbols + *next * SYM_SIZE;
        if ((sym[4] & 0xf) != STT_FUNC || !(sym[5] & STO_CUDA_ENTRY))
            continue;
        uint32_t text = gpuocc_le16(sym + 6);
        if (*next > UINT32_MAX || text == 0 || text >= c->elf->shnum)
            return GPUOCC_ERR_FORMAT;
        b->slots[b->count++] = (struct slot){.symbol = (uint32_t)*next, .text = text};
    }
    return GPUOCC_OK;
}

int32_t gpuocc_cubin_image(const uint8_t *origin, const struct gpuocc_elf *image, struct gpuocc_kernel_sink *sink,
                           void *index, size_t index_len)
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
    int32_t rc = read_module(&c, &sink->variant);
    sink->linked = image->type == GPUOCC_ET_EXEC;
    if (rc != GPUOCC_OK)
        return rc;
    /* the index: in the caller's memory where there is room for more than a stack batch (one pass over
       .nv.info and the sections for all the kernels: linear), else on the stack, one pass per batch */
    struct slot stack_slots[STACK_BATCH];
    uint64_t stack_keys[STACK_BATCH];
    struct batch b = {stack_slots, stack_keys, STACK_BATCH, 0};
    uintptr_t aligned = ((uintptr_t)index + 7) & ~(uintptr_t)7;
    size_t skip = (size_t)(aligned - (uintptr_t)index);
    if (index && index_len > skip) {
        size_t room = (index_len - skip) / (sizeof(struct slot) + sizeof(uint64_t));
        room = room > UINT32_MAX ? UINT32_MAX : room; /* a key keeps its slot in 32 bits */
        if (room > STACK_BATCH) {
            b.by_text = (uint64_t *)aligned;
            b.slots = (struct slot *)(b.by_text + room);
            b.capacity = room;
        }
    }
    for (uint64_t next = 1;;) {
        if ((rc = next_batch(&c, &next, &b)) != GPUOCC_OK)
            return rc;
        if (b.count == 0)
            return GPUOCC_OK;
        if ((rc = index_attributes(&c, &b)) != GPUOCC_OK || (rc = index_sections(&c, &b)) != GPUOCC_OK)
            return rc;
        for (size_t i = 0; i < b.count; i++) {
            gpuocc_compiled_kernel k;
            struct gpuocc_cubin_records x;
            if ((rc = read_kernel(&c, &b.slots[i], &k, &x)) != GPUOCC_OK)
                return rc;
            k.arch_variant = sink->variant; /* the container's, else the tkinfo note's (read_module) */
            if ((rc = gpuocc_sink_put(sink, &k, &x)) != GPUOCC_OK)
                return rc;
        }
    }
}
