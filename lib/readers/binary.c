/*
 * The dispatcher: binaries entry by entry (gpuocc_binary_scan, gpuocc_binary_read_entry) and whole
 * (gpuocc_cubin_read), each entry found by walk.c and read by its format's reader.  Compressed entries are decoded
 * into the caller's workspace (lib/decode/), laid out as [zstd scratch | the decompressed entry].  A zstd
 * payload is one frame followed by zero padding to the payload size; an LZ4 payload is one block of the
 * entry's compressed size, zero padding after it.
 */
#include "../api/api.h"
#include "../decode/decode.h"
#include "amdgpu.h"
#include "bundle.h"
#include "cubin.h"
#include "walk.h"
#include "zebin.h"

#include <stddef.h>

_Static_assert(sizeof(gpuocc_binary_kernel) == 360, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, virtual_resources) == 312 &&
                   offsetof(gpuocc_binary_kernel, launch_threads) == 336 &&
                   offsetof(gpuocc_binary_kernel, metadata_offset) == 344,
               "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, linked) == 240, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, sub_group) == 248 && offsetof(gpuocc_binary_kernel, spill_bytes) == 288,
               "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, name_offset) == 16, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, cc) == 48, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, smem_bytes) == 64, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, min_blocks_per_sm) == 88, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, target_offset) == 112, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, vgprs) == 128, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, lds_bytes) == 144, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, max_flat_workgroup_size) == 160, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, amd_mach) == 176, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, workgroup_processor_mode) == 184, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_kernel, reserved) == 192, "gpuocc_binary_kernel layout 1.0 is frozen");
_Static_assert(sizeof(gpuocc_binary_summary) == 112, "gpuocc_binary_summary layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_summary, containers) == 80 && offsetof(gpuocc_binary_summary, fault) == 96,
               "gpuocc_binary_summary layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_summary, fault_offset) == 104, "gpuocc_binary_summary layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_summary, workspace_bytes) == 32, "gpuocc_binary_summary layout 1.0 is frozen");
_Static_assert(offsetof(gpuocc_binary_summary, cursor) == 48, "gpuocc_binary_summary layout 1.0 is frozen");

int32_t gpuocc_binary_kernel_init(gpuocc_binary_kernel *kernel)
{
    if (!kernel)
        return GPUOCC_ERR_NULL;
    memset(kernel, 0, sizeof *kernel);
    kernel->size = (uint32_t)sizeof *kernel;
    kernel->vendor = GPUOCC_VENDOR_NVIDIA;
    return GPUOCC_OK;
}

int32_t gpuocc_binary_kernel_registers(const gpuocc_device *device, const gpuocc_binary_kernel *kernel,
                                       int32_t *regs_per_thread, int32_t *agprs)
{
    if (!device || !kernel || !regs_per_thread || !agprs)
        return GPUOCC_ERR_NULL;
    if (!gpuocc_struct_size_ok(kernel->size, sizeof *kernel, sizeof *kernel))
        return GPUOCC_ERR_STRUCT_SIZE;
    if (kernel->vendor != device->vendor)
        return GPUOCC_ERR_ARGUMENT;
    if (kernel->vendor != GPUOCC_VENDOR_AMD) {
        if (kernel->registers < 0)
            return GPUOCC_ERR_ARGUMENT;
        *regs_per_thread = kernel->registers;
        *agprs = 0;
        return GPUOCC_OK;
    }
    int32_t v = kernel->vgprs, a = kernel->agprs < 0 ? 0 : kernel->agprs;
    if (v < 0 || kernel->agprs < -1)
        return GPUOCC_ERR_ARGUMENT;
    if (device->agpr_file == GPUOCC_AGPR_UNIFIED) {
        if (a > v)
            return GPUOCC_ERR_ARGUMENT;
        v -= a; /* .vgpr_count = arch VGPRs rounded up to 4 + AGPRs: v - a is that rounded count */
    }
    *regs_per_thread = v;
    *agprs = a;
    return GPUOCC_OK;
}

static bool is_compressed(const struct gpuocc_entry *e)
{
    return e->container == GPUOCC_CONTAINER_CCOB || (e->flags & (GPUOCC_ENTRY_LZ4 | GPUOCC_ENTRY_ZSTD)) ||
           e->uncompressed != 0;
}

/* What one entry needs of the workspace. */
static uint64_t entry_workspace(const struct gpuocc_entry *e)
{
    if (!is_compressed(e))
        return 0;
    uint64_t scratch = gpuocc_zstd_workspace_bytes();
    return e->uncompressed > UINT64_MAX - scratch ? UINT64_MAX : scratch + e->uncompressed;
}

static bool summary_size_ok(const gpuocc_binary_summary *s)
{
    return gpuocc_struct_size_ok(s->size, sizeof *s, sizeof *s);
}

/* The fault fields of a summary that has them; `offset` the byte at fault from the start of the input, or -1. */
static void put_fault(gpuocc_binary_summary *s, const struct gpuocc_fault *f, int64_t offset)
{
    if (s->size < sizeof *s)
        return;
    s->fault = f->kind;
    s->fault_value = f->kind ? f->value : 0;
    s->fault_offset = f->kind ? offset : 0;
}

struct scan {
    int32_t entries, compressed;
    uint64_t workspace, largest;
};

static int32_t scan_entry(void *ctx, const struct gpuocc_entry *e)
{
    struct scan *s = (struct scan *)ctx;
    if (s->entries == INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    s->entries++;
    uint64_t size = is_compressed(e) ? e->uncompressed : e->n;
    if (size > s->largest)
        s->largest = size;
    if (is_compressed(e)) {
        s->compressed++;
        uint64_t need = entry_workspace(e);
        if (need > s->workspace)
            s->workspace = need;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_binary_scan(const void *data, size_t length, gpuocc_binary_summary *summary)
{
    if (!data || !summary)
        return GPUOCC_ERR_NULL;
    if (!summary_size_ok(summary))
        return GPUOCC_ERR_STRUCT_SIZE;
    struct scan s = {0, 0, 0, 0};
    struct gpuocc_walk_counts counts = {0, 0, 0, GPUOCC_NO_FAULT};
    int32_t rc = gpuocc_entries_walk((const uint8_t *)data, length, NULL, scan_entry, &s, &counts);
    if (rc != GPUOCC_OK) { /* which entry, and what was wrong there (the header names these outputs) */
        const struct gpuocc_fault *f = &counts.fault;
        summary->first_failed_entry = f->kind ? f->entry : -1;
        summary->first_failure = rc;
        put_fault(summary, f, f->at ? (int64_t)(f->at - (const uint8_t *)data) : -1);
        return rc;
    }
    uint32_t size = summary->size;
    memset(summary, 0, size);
    summary->size = size;
    summary->entries = s.entries;
    summary->compressed_entries = s.compressed;
    summary->first_failed_entry = -1;
    summary->workspace_bytes = s.workspace;
    summary->largest_entry_bytes = s.largest;
    if (size >= sizeof *summary) {
        summary->containers = counts.containers;
        summary->skipped_candidates = counts.skipped;
        summary->uncompiled_entries = counts.uncompiled;
    }
    return GPUOCC_OK;
}

/* Decode a compressed entry into `image` (e->uncompressed bytes). */
static int32_t decompress(const struct gpuocc_entry *e, uint8_t *scratch, size_t scratch_len, uint8_t *image)
{
    size_t out = 0, used = 0;
    int32_t rc;
    bool zstd = e->flags & GPUOCC_ENTRY_ZSTD, lz4 = e->flags & GPUOCC_ENTRY_LZ4;
    if (zstd == lz4) /* neither (an unknown method) or both */
        return zstd ? GPUOCC_ERR_FORMAT : GPUOCC_ERR_UNSUPPORTED;
    if (zstd) {
        rc = gpuocc_zstd_decompress(e->p, e->n, image, (size_t)e->uncompressed, scratch, scratch_len, &out, &used);
    } else {
        if (e->compressed > e->n)
            return GPUOCC_ERR_FORMAT;
        used = (size_t)e->compressed;
        rc = gpuocc_lz4_block_decompress(e->p, used, image, (size_t)e->uncompressed, &out);
    }
    if (rc == GPUOCC_ERR_BUFFER) /* more data than the header declares */
        return GPUOCC_ERR_FORMAT;
    if (rc != GPUOCC_OK)
        return rc;
    if (out != e->uncompressed)
        return GPUOCC_ERR_FORMAT;
    for (size_t i = used; i < e->n; i++) /* only zero padding may follow the compressed data */
        if (e->p[i] != 0)
            return GPUOCC_ERR_FORMAT;
    return GPUOCC_OK;
}

struct entry_read {
    int32_t target;
    struct gpuocc_walk_pos at; /* the entry read */
    const uint8_t *data;
    uint8_t *workspace;
    size_t workspace_len;
    gpuocc_binary_kernel *kernels;
    int32_t capacity, count;
    int32_t status;
    struct gpuocc_fault fault; /* what a failed read met, where the reader says */
    int64_t fault_offset;      /* its byte from the start of the input, -1 in a decoded image */
};

/* How the kernels of one image are read into a sink; `index` is spare workspace a reader may use. */
typedef int32_t (*image_reader)(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink,
                                void *index, size_t index_len);

static int32_t cubin_reader(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink,
                            void *index, size_t index_len)
{
    struct gpuocc_elf elf;
    int32_t rc = gpuocc_elf_open(p, n, &elf);
    if (rc != GPUOCC_OK)
        return rc;
    if (elf.machine != GPUOCC_EM_CUDA)
        return GPUOCC_ERR_FORMAT;
    return gpuocc_cubin_image(origin, &elf, sink, index, index_len);
}

static int32_t zebin_reader(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink,
                            void *index, size_t index_len)
{
    (void)index;
    (void)index_len;
    return gpuocc_zebin_read(origin, p, n, sink);
}

static int32_t amdgpu_reader(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink,
                             void *index, size_t index_len)
{
    (void)index;
    (void)index_len;
    return gpuocc_amdgpu_read(origin, p, n, sink);
}

/* The kernels of one image: counted and checked first, then written, so that a failure leaves the
   caller's records untouched. */
static int32_t read_image(struct entry_read *r, image_reader reader, const uint8_t *image, size_t n,
                          const uint8_t *origin, int32_t name_buffer, void *index, size_t index_len, uint32_t variant)
{
    struct gpuocc_kernel_sink probe = {NULL, NULL, 0, r->target, name_buffer, 0, 0, variant, 0, GPUOCC_NO_FAULT};
    int32_t rc = reader(origin, image, n, &probe, index, index_len);
    if (rc != GPUOCC_OK) {
        r->fault = probe.fault;
        /* an image of the input counts its bytes from the input's start; a decoded one has no file offset */
        r->fault_offset = probe.fault.at && name_buffer == GPUOCC_BINARY_NAME_INPUT ? (int64_t)(probe.fault.at - origin)
                                                                                    : -1;
        return rc;
    }
    if (r->capacity > 0) {
        struct gpuocc_kernel_sink sink = {NULL, (uint8_t *)r->kernels, r->kernels->size, r->target, name_buffer,
                                          r->capacity, 0, variant, 0, GPUOCC_NO_FAULT};
        if ((rc = reader(origin, image, n, &sink, index, index_len)) != GPUOCC_OK)
            return rc;
    }
    r->count = probe.count;
    return probe.count > r->capacity ? GPUOCC_ERR_BUFFER : GPUOCC_OK;
}

/* The code objects of an uncompressed offload bundle (a decoded CCOB), each read as an AMDGPU image. */
struct bundle_read {
    const uint8_t *origin;
    struct gpuocc_kernel_sink *sink;
};

static int32_t bundle_object(void *ctx, const uint8_t *object, size_t n)
{
    const struct bundle_read *r = (const struct bundle_read *)ctx;
    return gpuocc_amdgpu_read(r->origin, object, n, r->sink);
}

static int32_t bundle_reader(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink,
                             void *index, size_t index_len)
{
    (void)index;
    (void)index_len;
    struct bundle_read r = {origin, sink};
    return gpuocc_bundle_code_objects(p, n, bundle_object, &r);
}

/* A compressed offload bundle: zstd only (zlib is not decoded here), into `image`; only zero padding may
   follow the frame inside the bundle's recorded size. */
static int32_t decompress_bundle(const struct gpuocc_entry *e, uint8_t *scratch, size_t scratch_len, uint8_t *image)
{
    if (e->flags == GPUOCC_CCOB_ZLIB)
        return GPUOCC_ERR_COMPRESSED;
    if (e->flags != GPUOCC_CCOB_ZSTD)
        return GPUOCC_ERR_FORMAT;
    size_t out = 0, used = 0;
    int32_t rc = gpuocc_zstd_decompress(e->p, e->n, image, (size_t)e->uncompressed, scratch, scratch_len, &out, &used);
    if (rc == GPUOCC_ERR_BUFFER)
        return GPUOCC_ERR_FORMAT;
    if (rc != GPUOCC_OK)
        return rc;
    if (out != e->uncompressed)
        return GPUOCC_ERR_FORMAT;
    for (size_t i = used; i < e->n; i++)
        if (e->p[i] != 0)
            return GPUOCC_ERR_FORMAT;
    return GPUOCC_OK;
}

/* The arch variant a fatbinary entry's flags name (measured, CUDA 13: 0x100000 for sm_90a / sm_100a, 0x200000
   for sm_100f / sm_120f; docs/inputs.md): 'a', 'f', or 0, where a bare cubin's own note may still say. */
static uint32_t entry_variant(const struct gpuocc_entry *e)
{
    return e->container != GPUOCC_CONTAINER_CUBIN ? 0
           : (e->flags & GPUOCC_ENTRY_ARCH_SPECIFIC) ? 'a'
           : (e->flags & GPUOCC_ENTRY_FAMILY) ? 'f' : 0;
}

static int32_t read_one_entry(void *ctx, const struct gpuocc_entry *e)
{
    struct entry_read *r = (struct entry_read *)ctx;
    if (e->at.index != r->target)
        return GPUOCC_OK;
    r->at = e->at;
    image_reader reader = e->container == GPUOCC_CONTAINER_CUBIN   ? cubin_reader
                          : e->container == GPUOCC_CONTAINER_ZEBIN ? zebin_reader
                                                                   : amdgpu_reader;
    uint32_t variant = entry_variant(e);
    if (!is_compressed(e)) {
        r->status = read_image(r, reader, e->p, e->n, r->data, GPUOCC_BINARY_NAME_INPUT, r->workspace,
                               r->workspace ? r->workspace_len : 0, variant);
        return 1;
    }
    uint64_t need = entry_workspace(e);
    if (!r->workspace || need > r->workspace_len) {
        r->status = GPUOCC_ERR_ARGUMENT;
        return 1;
    }
    size_t scratch = gpuocc_zstd_workspace_bytes();
    uint8_t *image = r->workspace + scratch;
    if (e->container == GPUOCC_CONTAINER_CCOB) {
        r->status = decompress_bundle(e, r->workspace, scratch, image);
        reader = bundle_reader;
    } else {
        r->status = decompress(e, r->workspace, scratch, image);
    }
    if (r->status == GPUOCC_OK)
        r->status = read_image(r, reader, image, (size_t)e->uncompressed, r->workspace, GPUOCC_BINARY_NAME_WORKSPACE,
                               image + e->uncompressed, r->workspace_len - (size_t)need, variant);
    return 1;
}

/* Entries asked for in order with one summary continue from the last one visited (the same entry may be
   asked for again: its info, then its kernels, or again after GPUOCC_ERR_BUFFER). */
static const struct gpuocc_walk_pos *cursor_start(const gpuocc_binary_summary *s, int32_t entry,
                                                  struct gpuocc_walk_pos *from)
{
    uint64_t last = s ? s->cursor[0] >> 32 : 0; /* the last entry's ordinal + 1; 0: none */
    if (last == 0 || last - 1 > (uint64_t)entry)
        return NULL;
    from->index = (int32_t)(last - 1);
    from->section = (uint32_t)s->cursor[0];
    from->fatbin = s->cursor[1];
    from->entry = s->cursor[2];
    return from;
}

static void cursor_keep(gpuocc_binary_summary *s, const struct gpuocc_walk_pos *at)
{
    if (!s)
        return;
    s->cursor[0] = ((uint64_t)at->index + 1) << 32 | at->section;
    s->cursor[1] = at->fatbin;
    s->cursor[2] = at->entry;
}

static void count_result(gpuocc_binary_summary *s, int32_t entry, int32_t rc, const struct entry_read *r)
{
    if (rc == GPUOCC_ERR_BUFFER) /* the caller asks again with room */
        return;
    const struct gpuocc_fault none = GPUOCC_NO_FAULT;
    put_fault(s, rc == GPUOCC_OK ? &none : &r->fault, r->fault_offset);
    if (rc == GPUOCC_OK) {
        if (s->entries_read < INT32_MAX)
            s->entries_read++;
        return;
    }
    if (s->entries_failed < INT32_MAX)
        s->entries_failed++;
    if (s->first_failed_entry < 0) {
        s->first_failed_entry = entry;
        s->first_failure = rc;
    }
}

int32_t gpuocc_binary_read_entry(const void *data, size_t length, int32_t entry, void *workspace,
                                 size_t workspace_len, gpuocc_binary_kernel *kernels, int32_t capacity,
                                 int32_t *count, gpuocc_binary_summary *summary)
{
    if (!data || !count || (capacity > 0 && !kernels))
        return GPUOCC_ERR_NULL;
    if (capacity < 0 || entry < 0)
        return GPUOCC_ERR_ARGUMENT;
    if (capacity > 0 && !gpuocc_struct_size_ok(kernels->size, sizeof *kernels, sizeof *kernels))
        return GPUOCC_ERR_STRUCT_SIZE;
    if (summary && !summary_size_ok(summary))
        return GPUOCC_ERR_STRUCT_SIZE;
    struct entry_read r = {entry, {0, 0, 0, 0}, (const uint8_t *)data, (uint8_t *)workspace, workspace_len, kernels, capacity, 0, GPUOCC_OK,
                           GPUOCC_NO_FAULT, -1};
    struct gpuocc_walk_pos from;
    int32_t rc = gpuocc_entries_walk((const uint8_t *)data, length, cursor_start(summary, entry, &from),
                                     read_one_entry, &r, NULL);
    if (rc == 1)
        cursor_keep(summary, &r.at);
    if (rc == 1)
        rc = r.status;
    else if (rc == GPUOCC_OK)
        rc = GPUOCC_ERR_ARGUMENT; /* no such entry */
    if (summary && rc != GPUOCC_ERR_ARGUMENT)
        count_result(summary, entry, rc, &r);
    if (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER)
        *count = r.count;
    return rc;
}

struct entry_info {
    int32_t target;
    const uint8_t *data;
    size_t length;
    gpuocc_binary_entry *info;
    struct gpuocc_walk_pos at;
};

static uint32_t compression_of(const struct gpuocc_entry *e)
{
    if (e->container == GPUOCC_CONTAINER_CCOB)
        return e->flags == GPUOCC_CCOB_ZSTD   ? GPUOCC_BINARY_COMPRESSION_ZSTD
               : e->flags == GPUOCC_CCOB_ZLIB ? GPUOCC_BINARY_COMPRESSION_ZLIB
                                              : GPUOCC_BINARY_COMPRESSION_UNKNOWN;
    if (!is_compressed(e))
        return GPUOCC_BINARY_COMPRESSION_NONE;
    bool zstd = e->flags & GPUOCC_ENTRY_ZSTD, lz4 = e->flags & GPUOCC_ENTRY_LZ4;
    return zstd == lz4 ? GPUOCC_BINARY_COMPRESSION_UNKNOWN
           : zstd      ? GPUOCC_BINARY_COMPRESSION_ZSTD
                       : GPUOCC_BINARY_COMPRESSION_LZ4;
}

/* The workspace that lets a cubin be read in one pass over its attributes and sections: room for an index
   of as many kernels as it has symbols (uncompressed), or as a cubin of its decompressed size can hold
   at 256 bytes a kernel (a kernel takes three section headers and a symbol at least); more kernels than
   that are still read, a batch per pass. */
static uint64_t fast_workspace(const struct gpuocc_entry *e, uint64_t workspace)
{
    if (e->container != GPUOCC_CONTAINER_CUBIN)
        return workspace;
    uint64_t kernels = 0;
    struct gpuocc_elf elf;
    if (is_compressed(e)) {
        kernels = e->uncompressed / 256;
    } else if (gpuocc_elf_open(e->p, e->n, &elf) == GPUOCC_OK) {
        for (uint32_t i = 1; i < elf.shnum && kernels == 0; i++) {
            struct gpuocc_section s;
            gpuocc_elf_section(&elf, i, &s);
            if (s.type == GPUOCC_SHT_SYMTAB)
                kernels = s.size / 24;
        }
    }
    size_t index = gpuocc_cubin_index_bytes(kernels);
    return workspace > UINT64_MAX - index ? UINT64_MAX : workspace + index;
}

static int32_t info_entry(void *ctx, const struct gpuocc_entry *e)
{
    struct entry_info *r = (struct entry_info *)ctx;
    if (e->at.index != r->target)
        return GPUOCC_OK;
    r->at = e->at;
    gpuocc_binary_entry *out = r->info;
    uint32_t size = out->size;
    memset(out, 0, size);
    out->size = size;
    out->container = e->container == GPUOCC_CONTAINER_CUBIN    ? GPUOCC_BINARY_ENTRY_CUBIN
                     : e->container == GPUOCC_CONTAINER_AMDGPU ? GPUOCC_BINARY_ENTRY_AMDGPU
                     : e->container == GPUOCC_CONTAINER_ZEBIN  ? GPUOCC_BINARY_ENTRY_ZEBIN
                                                               : GPUOCC_BINARY_ENTRY_CCOB;
    out->entry = e->at.index;
    out->sm = e->sm <= INT32_MAX ? (int32_t)e->sm : 0;
    out->compression = compression_of(e);
    out->section = e->at.section;
    out->container_offset = e->at.fatbin;
    struct gpuocc_elf elf;
    struct gpuocc_section s;
    const char *name;
    size_t name_length;
    if (e->at.section != 0 && gpuocc_elf_open(r->data, r->length, &elf) == GPUOCC_OK && e->at.section < elf.shnum) {
        gpuocc_elf_section(&elf, e->at.section, &s);
        out->container_offset += s.offset; /* the walk read the section, so this lies inside the file */
        if (gpuocc_elf_section_name(&elf, &s, &name, &name_length) == GPUOCC_OK) {
            out->section_name_offset = (uint64_t)((const uint8_t *)name - r->data);
            out->section_name_length = name_length;
        }
    }
    out->offset = (uint64_t)(e->p - r->data);
    out->stored_bytes = e->n;
    out->image_bytes = is_compressed(e) ? e->uncompressed : e->n;
    out->workspace_bytes = entry_workspace(e);
    out->fast_workspace_bytes = fast_workspace(e, out->workspace_bytes);
    return 1;
}

int32_t gpuocc_binary_entry_info(const void *data, size_t length, int32_t entry, gpuocc_binary_entry *info,
                                 gpuocc_binary_summary *summary)
{
    if (!data || !info)
        return GPUOCC_ERR_NULL;
    if (info->size < sizeof *info || info->size > GPUOCC_STRUCT_SIZE_MAX || (summary && !summary_size_ok(summary)))
        return GPUOCC_ERR_STRUCT_SIZE;
    if (entry < 0)
        return GPUOCC_ERR_ARGUMENT;
    gpuocc_binary_entry out;
    out.size = sizeof out;
    struct entry_info r = {entry, (const uint8_t *)data, length, &out, {0, 0, 0, 0}};
    struct gpuocc_walk_pos from;
    int32_t rc = gpuocc_entries_walk((const uint8_t *)data, length, cursor_start(summary, entry, &from), info_entry,
                                     &r, NULL);
    if (rc == GPUOCC_OK)
        return GPUOCC_ERR_ARGUMENT; /* no such entry */
    if (rc != 1)
        return rc;
    cursor_keep(summary, &r.at);
    uint32_t size = info->size;
    memset(info, 0, size);
    memcpy(info, &out, sizeof out);
    info->size = size;
    return GPUOCC_OK;
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
    r->sink->variant = entry_variant(e); /* each entry its own, as gpuocc_binary_read_entry reads them */
    return gpuocc_cubin_image(r->origin, &elf, r->sink, NULL, 0);
}

int32_t gpuocc_cubin_read(const void *data, size_t length, gpuocc_compiled_kernel *kernels, int32_t capacity,
                          int32_t *count)
{
    if (!data || !count || (capacity > 0 && !kernels))
        return GPUOCC_ERR_NULL;
    if (capacity < 0)
        return GPUOCC_ERR_ARGUMENT;
    struct gpuocc_kernel_sink sink = {kernels, NULL, 0, 0, 0, capacity, 0, 0, 0, GPUOCC_NO_FAULT};
    struct plain_read r = {(const uint8_t *)data, &sink};
    int32_t rc = gpuocc_entries_walk((const uint8_t *)data, length, NULL, read_plain_entry, &r, NULL);
    if (rc != GPUOCC_OK)
        return rc;
    *count = sink.count;
    return sink.count > capacity ? GPUOCC_ERR_BUFFER : GPUOCC_OK;
}
