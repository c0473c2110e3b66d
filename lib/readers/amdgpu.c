/*
 * AMDGPU code objects (ELF64, e_machine EM_AMDGPU = 224, e_ident[EI_OSABI] ELFOSABI_AMDGPU_HSA = 64): each
 * kernel's resources from the NT_AMDGPU_METADATA note (owner "AMDGPU", type 32) of code object v3 to v6,
 * a MessagePack map (LLVM's AMDGPUUsage, "Code Object V3 to V6 Metadata"):
 *   amdhsa.version [major, minor], amdhsa.target (v4+, the target ID), amdhsa.kernels [ {kernel}... ]
 * with per kernel .name, .symbol, .vgpr_count, .agpr_count (targets with AGPRs), .sgpr_count,
 * .group_segment_fixed_size, .private_segment_fixed_size, .wavefront_size, .max_flat_workgroup_size,
 * .vgpr_spill_count, .sgpr_spill_count, .uses_dynamic_stack, .workgroup_processor_mode (v5).  Other keys
 * are skipped.  The code object
 * version is EI_ABIVERSION + 2 (ELFABIVERSION_AMDGPU_HSA_V3 = 1 ... V6 = 4); the processor is
 * e_flags & EF_AMDGPU_MACH (0xff).  Note records are 4-byte aligned (name and desc padded to 4).
 */
#include "amdgpu.h"

#include "../core/core.h"
#include "names.h"
#include "msgpack.h"

#define ELFOSABI_AMDGPU_HSA 64u
#define NT_AMDGPU_METADATA 32u
#define EF_AMDGPU_MACH 0xffu

struct metadata {
    const uint8_t *desc;
    size_t length;
};

/* The first NT_AMDGPU_METADATA note of one SHT_NOTE section (a gpuocc_note_walk): *out 1 and its desc in the
   struct metadata at ctx, or *out 0 when the section has none. */
static int32_t metadata_note(const uint8_t *d, uint64_t size, void *ctx, uint64_t *out)
{
    *out = 0;
    uint64_t pos = 0;
    struct gpuocc_note note;
    int32_t more;
    while ((more = gpuocc_note_next(d, size, &pos, &note)) == 1)
        if (note.type == NT_AMDGPU_METADATA && note.namesz == 7 && memcmp(note.name, "AMDGPU", 7) == 0) {
            *(struct metadata *)ctx = (struct metadata){note.desc, (size_t)note.descsz};
            *out = 1;
            return GPUOCC_OK;
        }
    if (more < 0)
        return more;
    return GPUOCC_OK;
}

/* The desc of the first NT_AMDGPU_METADATA note of any SHT_NOTE section (each note range walked once: the
   headers naming a range walked before have none there). */
static int32_t find_metadata(const struct gpuocc_elf *elf, const uint8_t **desc, size_t *length)
{
    struct gpuocc_note_memo notes = {.count = 0};
    struct metadata found = {NULL, 0};
    for (uint32_t i = 1; i < elf->shnum; i++) {
        struct gpuocc_section s;
        gpuocc_elf_section(elf, i, &s);
        if (s.type != GPUOCC_SHT_NOTE)
            continue;
        uint64_t any;
        int32_t rc = gpuocc_note_once(&notes, elf, &s, metadata_note, &found, &any);
        if (rc != GPUOCC_OK)
            return rc;
        if (any) {
            *desc = found.desc;
            *length = found.length;
            return GPUOCC_OK;
        }
    }
    return GPUOCC_ERR_UNSUPPORTED;
}

/* An integer value in [0, max]; GPUOCC_ERR_FORMAT for another type or a value out of range. */
static int32_t read_count(struct gpuocc_mp *r, int64_t max, int64_t *out)
{
    struct gpuocc_mp_value v;
    int32_t rc = gpuocc_mp_read(r, &v);
    if (rc != GPUOCC_OK)
        return rc;
    int64_t x;
    if (!gpuocc_mp_int64(&v, &x) || x < 0 || x > max)
        return GPUOCC_ERR_FORMAT;
    *out = x;
    return GPUOCC_OK;
}

static int32_t read_int32(struct gpuocc_mp *r, int32_t *out)
{
    int64_t x;
    int32_t rc = read_count(r, INT32_MAX, &x);
    if (rc == GPUOCC_OK)
        *out = (int32_t)x;
    return rc;
}

/* The int32_t fields of a kernel map, by key. */
static int32_t *int32_field(gpuocc_binary_kernel *b, const struct gpuocc_mp_value *key)
{
    static const struct {
        const char *key;
        size_t offset;
    } fields[] = {
        {".vgpr_count", offsetof(gpuocc_binary_kernel, vgprs)},
        {".agpr_count", offsetof(gpuocc_binary_kernel, agprs)},
        {".sgpr_count", offsetof(gpuocc_binary_kernel, sgprs)},
        {".wavefront_size", offsetof(gpuocc_binary_kernel, wave_size)},
        {".max_flat_workgroup_size", offsetof(gpuocc_binary_kernel, max_flat_workgroup_size)},
        {".vgpr_spill_count", offsetof(gpuocc_binary_kernel, vgpr_spill_count)},
        {".sgpr_spill_count", offsetof(gpuocc_binary_kernel, sgpr_spill_count)},
        {".workgroup_processor_mode", offsetof(gpuocc_binary_kernel, workgroup_processor_mode)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (gpuocc_mp_str_is(key, fields[i].key))
            return (int32_t *)(void *)((uint8_t *)b + fields[i].offset);
    return NULL;
}

/* One kernel map of amdhsa.kernels into `b` (its target fields already set). */
static int32_t read_kernel_map(const uint8_t *origin, struct gpuocc_mp *r, gpuocc_binary_kernel *b)
{
    struct gpuocc_mp_value v, key;
    int32_t rc = gpuocc_mp_read(r, &v);
    if (rc != GPUOCC_OK)
        return rc;
    if (v.type != GPUOCC_MP_MAP)
        return GPUOCC_ERR_FORMAT;
    const uint8_t *name = NULL, *symbol = NULL;
    uint32_t name_len = 0, symbol_len = 0;
    for (uint32_t pair = 0; pair < v.length; pair++) {
        if ((rc = gpuocc_mp_read(r, &key)) != GPUOCC_OK)
            return rc;
        if (key.type != GPUOCC_MP_STR) { /* only string keys are defined: skip the value */
            if ((rc = gpuocc_mp_skip(r)) != GPUOCC_OK)
                return rc;
            continue;
        }
        int32_t *field = int32_field(b, &key);
        int64_t x;
        if (field) {
            rc = read_int32(r, field);
        } else if (gpuocc_mp_str_is(&key, ".group_segment_fixed_size")) {
            if ((rc = read_count(r, INT64_MAX, &x)) == GPUOCC_OK)
                b->lds_bytes = x;
        } else if (gpuocc_mp_str_is(&key, ".private_segment_fixed_size")) {
            if ((rc = read_count(r, INT64_MAX, &x)) == GPUOCC_OK)
                b->scratch_bytes = x;
        } else if (gpuocc_mp_str_is(&key, ".uses_dynamic_stack")) {
            struct gpuocc_mp_value flag;
            if ((rc = gpuocc_mp_read(r, &flag)) == GPUOCC_OK) {
                if (flag.type == GPUOCC_MP_BOOL)
                    b->uses_dynamic_stack = flag.b;
                else if (gpuocc_mp_int64(&flag, &x) && (x == 0 || x == 1))
                    b->uses_dynamic_stack = (int32_t)x;
                else
                    rc = GPUOCC_ERR_FORMAT;
            }
        } else if (gpuocc_mp_str_is(&key, ".name") || gpuocc_mp_str_is(&key, ".symbol")) {
            bool is_name = key.length == 5;
            struct gpuocc_mp_value str;
            if ((rc = gpuocc_mp_read(r, &str)) == GPUOCC_OK && str.type != GPUOCC_MP_STR)
                rc = GPUOCC_ERR_FORMAT;
            if (rc == GPUOCC_OK && is_name)
                name = str.data, name_len = str.length;
            else if (rc == GPUOCC_OK)
                symbol = str.data, symbol_len = str.length;
        } else {
            rc = gpuocc_mp_skip(r);
        }
        if (rc != GPUOCC_OK)
            return rc;
    }
    if (!name && symbol) { /* the kernel descriptor's symbol is the name with ".kd" */
        name = symbol;
        name_len = symbol_len >= 3 && memcmp(symbol + symbol_len - 3, ".kd", 3) == 0 ? symbol_len - 3 : symbol_len;
    }
    if (!name || name_len == 0)
        return GPUOCC_ERR_FORMAT;
    if ((b->wave_size != -1 && b->wave_size != 32 && b->wave_size != 64) || b->workgroup_processor_mode > 1)
        return GPUOCC_ERR_FORMAT;
    size_t start, short_len;
    gpuocc_short_name((const char *)name, name_len, &start, &short_len);
    b->name_offset = (uint64_t)(name - origin);
    b->name_length = name_len;
    b->short_offset = b->name_offset + start;
    b->short_length = short_len;
    /* the vendor-neutral view */
    b->registers = b->vgprs;
    b->smem_bytes = b->lds_bytes;
    b->stack_frame_bytes = b->scratch_bytes;
    b->max_threads_per_block = b->max_flat_workgroup_size > 0 ? b->max_flat_workgroup_size : 0;
    return GPUOCC_OK;
}

/* A fresh AMD record: every metadata value unknown (-1) until read. */
static void amd_template(gpuocc_binary_kernel *b, const struct gpuocc_elf *elf)
{
    memset(b, 0, sizeof *b);
    b->size = (uint32_t)sizeof *b;
    b->vendor = GPUOCC_VENDOR_AMD;
    b->linked = 1; /* a code object is what the runtime loads (ET_DYN) */
    b->barriers = -1;
    b->cmem_bytes = -1;
    b->max_regs_per_thread = -1;
    b->vgprs = b->agprs = b->sgprs = b->wave_size = -1;
    b->lds_bytes = b->scratch_bytes = -1;
    b->max_flat_workgroup_size = b->vgpr_spill_count = b->sgpr_spill_count = b->uses_dynamic_stack = -1;
    b->workgroup_processor_mode = -1;
    b->amd_mach = elf->flags & EF_AMDGPU_MACH;
    b->code_object_version = elf->abi_version + 2;
}

int32_t gpuocc_amdgpu_image(const uint8_t *origin, const struct gpuocc_elf *elf, struct gpuocc_kernel_sink *sink)
{
    if (elf->p[7] != ELFOSABI_AMDGPU_HSA || elf->abi_version < 1) /* PAL, Mesa; code object v2 */
        return GPUOCC_ERR_UNSUPPORTED;
    const uint8_t *desc;
    size_t length;
    int32_t rc = find_metadata(elf, &desc, &length);
    if (rc != GPUOCC_OK)
        return rc;
    /* one well-formed value, nested at most GPUOCC_MP_DEPTH_MAX deep: then only types can be wrong */
    size_t at;
    if ((rc = gpuocc_mp_check_at(desc, length, 0, &at)) != GPUOCC_OK) {
        if (rc == GPUOCC_ERR_UNSUPPORTED) /* valid MessagePack, nested deeper than the reader follows */
            sink->fault = (struct gpuocc_fault){GPUOCC_BINARY_FAULT_NESTING, (int32_t)GPUOCC_MP_DEPTH_MAX, -1, desc + at};
        return rc == GPUOCC_ERR_TRUNCATED ? GPUOCC_ERR_FORMAT : rc;
    }
    gpuocc_binary_kernel b;
    amd_template(&b, elf);
    struct gpuocc_mp r = {desc, length, 0, 0};
    struct gpuocc_mp_value v, key;
    if ((rc = gpuocc_mp_read(&r, &v)) != GPUOCC_OK)
        return rc;
    if (v.type != GPUOCC_MP_MAP)
        return GPUOCC_ERR_FORMAT;
    size_t kernels_at = 0;
    bool have_kernels = false;
    for (uint32_t pair = 0; pair < v.length; pair++) {
        if ((rc = gpuocc_mp_read(&r, &key)) != GPUOCC_OK)
            return rc;
        if (gpuocc_mp_str_is(&key, "amdhsa.target")) {
            struct gpuocc_mp_value target;
            if ((rc = gpuocc_mp_read(&r, &target)) != GPUOCC_OK)
                return rc;
            if (target.type != GPUOCC_MP_STR)
                return GPUOCC_ERR_FORMAT;
            b.target_offset = (uint64_t)(target.data - origin);
            b.target_length = target.length;
            continue;
        }
        if (gpuocc_mp_str_is(&key, "amdhsa.kernels")) {
            kernels_at = r.pos; /* read once the target is known: keys come in any order */
            have_kernels = true;
        }
        if ((rc = gpuocc_mp_skip(&r)) != GPUOCC_OK)
            return rc;
    }
    if (!have_kernels)
        return GPUOCC_OK; /* a code object without kernels (device functions only) */
    r.pos = kernels_at;
    if ((rc = gpuocc_mp_read(&r, &v)) != GPUOCC_OK)
        return rc;
    if (v.type != GPUOCC_MP_ARRAY)
        return GPUOCC_ERR_FORMAT;
    for (uint32_t k = 0; k < v.length; k++) {
        gpuocc_binary_kernel kernel = b;
        if ((rc = read_kernel_map(origin, &r, &kernel)) != GPUOCC_OK ||
            (rc = gpuocc_sink_put_record(sink, &kernel)) != GPUOCC_OK)
            return rc;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_amdgpu_read(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink)
{
    static const uint8_t bitcode[4] = {'B', 'C', 0xc0, 0xde}; /* LLVM IR of -fgpu-rdc objects */
    if (n >= 4 && memcmp(p, bitcode, 4) == 0)
        return GPUOCC_ERR_UNSUPPORTED;
    struct gpuocc_elf elf;
    int32_t rc = gpuocc_elf_open(p, n, &elf);
    if (rc != GPUOCC_OK)
        return rc;
    if (elf.machine != GPUOCC_EM_AMDGPU)
        return GPUOCC_ERR_FORMAT;
    return gpuocc_amdgpu_image(origin, &elf, sink);
}
