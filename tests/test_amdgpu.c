/*
 * AMDGPU code objects and HIP offload bundles through gpuocc_binary_scan / gpuocc_binary_read_entry, on
 * fixtures compiled with LLVM 19 (tests/data/amdgpu_gfx90a.o: clang-19 -target amdgcn-amd-amdhsa
 * -mcpu=gfx90a -nogpulib -O2 -c of the two OpenCL kernels quoted below; hip_bundle.o and hip_ccob.o:
 * clang++-19 -x hip --offload-arch=gfx90a --offload-arch=gfx1100 -nogpulib -nogpuinc -O2 -c, the second
 * with --offload-compress).  Expected values are those llvm-readelf-19 --notes prints for the same files
 * (transcribed below), and the bundle layouts are written by hand from clang's ClangOffloadBundler
 * documentation: a bundle around the bare code object, malformed bundles, CCOB headers of versions 1, 2 and
 * 3, a zlib method, an unknown version, LLVM bitcode.
 */
#include "compiled.h"

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

static uint8_t *load(const char *name, size_t *n)
{
    return load_file(fixture_path(name), n);
}

/* What llvm-readelf-19 --notes says of one kernel. */
struct expect {
    const char *name, *target;
    int32_t vgprs, agprs, sgprs, wave, mfws, vgpr_spills, sgpr_spills, dynamic_stack, wgp;
    int64_t lds, scratch;
};

/* tests/data/amdgpu_gfx90a.o, from
     __kernel void small(__global float *a) { a[get_global_id(0)] *= 2.0f; }
     __kernel __attribute__((reqd_work_group_size(64,1,1))) void lds(__global float *a) { __local float t[1024]; ... } */
static const struct expect gfx90a_kernels[] = {
    {"small", "amdgcn-amd-amdhsa--gfx90a", 32, 0, 42, 64, 256, 0, 0, 1, -1, 0, 0},
    {"lds", "amdgcn-amd-amdhsa--gfx90a", 46, 0, 50, 64, 64, 0, 0, 1, -1, 4096, 0},
};
/* hip_bundle.o / hip_ccob.o: the gfx1100 code object comes first in the bundle, then gfx90a's */
static const struct expect hip_kernels[] = {
    {"_Z5scalePff", "amdgcn-amd-amdhsa--gfx1100", 2, -1, 4, 32, 1024, 0, 0, 0, 1, 0, 0},
    {"_Z4tilePf", "amdgcn-amd-amdhsa--gfx1100", 3, -1, 2, 32, 1024, 0, 0, 0, 1, 1024, 0},
    {"_Z5scalePff", "amdgcn-amd-amdhsa--gfx90a", 2, 0, 10, 64, 1024, 0, 0, 0, -1, 0, 0},
    {"_Z4tilePf", "amdgcn-amd-amdhsa--gfx90a", 3, 0, 10, 64, 1024, 0, 0, 0, -1, 1024, 0},
};

static void check_kernel(const gpuocc_binary_kernel *k, const char *origin, const struct expect *e)
{
    cr_assert_eq(k->vendor, GPUOCC_VENDOR_AMD);
    cr_assert_eq(k->size, sizeof *k);
    cr_expect_eq(k->name_length, strlen(e->name));
    cr_expect_eq(memcmp(origin + k->name_offset, e->name, strlen(e->name)), 0, "%s", e->name);
    cr_expect_eq(k->target_length, strlen(e->target), "%s", e->name);
    cr_expect_eq(memcmp(origin + k->target_offset, e->target, strlen(e->target)), 0, "%s", e->name);
    cr_expect_eq(k->vgprs, e->vgprs, "%s vgprs", e->name);
    cr_expect_eq(k->agprs, e->agprs, "%s agprs", e->name);
    cr_expect_eq(k->sgprs, e->sgprs, "%s sgprs", e->name);
    cr_expect_eq(k->wave_size, e->wave, "%s", e->name);
    cr_expect_eq(k->max_flat_workgroup_size, e->mfws, "%s", e->name);
    cr_expect_eq(k->vgpr_spill_count, e->vgpr_spills, "%s", e->name);
    cr_expect_eq(k->sgpr_spill_count, e->sgpr_spills, "%s", e->name);
    cr_expect_eq(k->uses_dynamic_stack, e->dynamic_stack, "%s", e->name);
    cr_expect_eq(k->workgroup_processor_mode, e->wgp, "%s", e->name);
    cr_expect_eq(k->lds_bytes, e->lds, "%s", e->name);
    cr_expect_eq(k->scratch_bytes, e->scratch, "%s", e->name);
    cr_expect_eq(k->code_object_version, 5, "LLVM 19 writes code object v5 (EI_ABIVERSION 3)");
    /* the vendor-neutral view of the same figures */
    cr_expect_eq(k->registers, e->vgprs);
    cr_expect_eq(k->smem_bytes, e->lds);
    cr_expect_eq(k->stack_frame_bytes, e->scratch);
    cr_expect_eq(k->max_threads_per_block, e->mfws);
    cr_expect_eq(k->barriers, -1);
    cr_expect_eq(k->cmem_bytes, -1);
    cr_expect_eq(k->cc, 0);
    for (size_t i = 0; i < sizeof k->reserved / sizeof k->reserved[0]; i++)
        cr_expect_eq(k->reserved[i], 0);
    cr_expect_eq(k->reserved1, 0);
}

/* Every kernel of every entry, in order; returns the kernels read. */
static int32_t read_all(const uint8_t *p, size_t n, gpuocc_binary_kernel *ks, int32_t cap, uint8_t **workspace,
                        gpuocc_binary_summary *s)
{
    *s = (gpuocc_binary_summary){.size = sizeof *s};
    cr_assert_eq(gpuocc_binary_scan(p, n, s), GPUOCC_OK);
    *workspace = malloc(s->workspace_bytes ? (size_t)s->workspace_bytes : 1);
    int32_t total = 0;
    for (int32_t e = 0; e < s->entries; e++) {
        int32_t count = 0;
        gpuocc_binary_kernel_init(&ks[total]);
        cr_assert_eq(gpuocc_binary_read_entry(p, n, e, *workspace, (size_t)s->workspace_bytes, ks + total, cap - total,
                                              &count, s),
                     GPUOCC_OK, "entry %d", e);
        total += count;
    }
    return total;
}

Test(amdgpu, code_object_as_llvm_readelf_reads_it)
{
    size_t n;
    uint8_t *p = load("amdgpu_gfx90a.o", &n), *w;
    gpuocc_binary_kernel ks[8];
    gpuocc_binary_summary s;
    cr_assert_eq(read_all(p, n, ks, 8, &w, &s), 2);
    cr_expect_eq(s.entries, 1);
    cr_expect_eq(s.compressed_entries, 0);
    for (int i = 0; i < 2; i++) {
        check_kernel(&ks[i], (const char *)p, &gfx90a_kernels[i]);
        cr_expect_eq(ks[i].entry, 0);
        cr_expect_eq(ks[i].name_buffer, GPUOCC_BINARY_NAME_INPUT);
        cr_expect_eq(ks[i].amd_mach, 0x3f, "readelf: Flags 0x53F, gfx90a (EF_AMDGPU_MACH_AMDGCN_GFX90A)");
    }
    /* the NVIDIA-only reader does not take AMD code */
    gpuocc_compiled_kernel c[4];
    int32_t count = 0;
    cr_expect_eq(gpuocc_cubin_read(p, n, c, 4, &count), GPUOCC_ERR_FORMAT);
    free(w);
    free(p);
}

/* tests/data/amdgpu_attributes_gfx942.o (llc-19 of tests/amd/attributes.ll: amdgpu-waves-per-eu "2,4" with the
   flat range 64..256, the flat range 128..512, neither): llvm-readelf-19 --notes shows the flat maximum and no
   key for the flat minimum or waves per EU; .vgpr_count and .sgpr_count are the registers used (2 and 10), not
   the 97 VGPRs llc-19 gives the first kernel for its bound (docs/inputs.md). */
Test(amdgpu, attributes_recorded)
{
    static const struct expect kernels[] = {
        {"waves_per_eu", "amdgcn-amd-amdhsa--gfx942", 2, 0, 10, 64, 256, 0, 0, 0, -1, 0, 0},
        {"flat_range", "amdgcn-amd-amdhsa--gfx942", 2, 0, 10, 64, 512, 0, 0, 0, -1, 0, 0},
        {"plain", "amdgcn-amd-amdhsa--gfx942", 2, 0, 10, 64, 1024, 0, 0, 0, -1, 0, 0},
    };
    size_t n;
    uint8_t *p = load("amdgpu_attributes_gfx942.o", &n), *w;
    gpuocc_binary_kernel ks[8];
    gpuocc_binary_summary s;
    cr_assert_eq(read_all(p, n, ks, 8, &w, &s), 3);
    for (int i = 0; i < 3; i++) {
        check_kernel(&ks[i], (const char *)p, &kernels[i]);
        cr_expect_eq(ks[i].amd_mach, 0x4c, "readelf: Flags 0x54C, gfx942 (EF_AMDGPU_MACH_AMDGCN_GFX942)");
        cr_expect_eq(ks[i].max_threads_per_block, kernels[i].mfws);
        /* not recorded in the code object */
        cr_expect_eq(ks[i].waves_per_eu_min, 0);
        cr_expect_eq(ks[i].waves_per_eu_max, 0);
        cr_expect_eq(ks[i].flat_workgroup_size_min, 0);
    }
    free(w);
    free(p);
}

Test(amdgpu, hip_object_bundle_in_hip_fatbin)
{
    size_t n;
    uint8_t *p = load("hip_bundle.o", &n), *w;
    gpuocc_binary_kernel ks[8];
    gpuocc_binary_summary s;
    cr_assert_eq(read_all(p, n, ks, 8, &w, &s), 4);
    cr_expect_eq(s.entries, 2, "the host entry of the bundle is not device code");
    cr_expect_eq(s.entries_read, 2);
    for (int i = 0; i < 4; i++) {
        check_kernel(&ks[i], (const char *)p, &hip_kernels[i]);
        cr_expect_eq(ks[i].entry, i / 2);
        cr_expect_eq(ks[i].short_length, i % 2 ? 4 : 5, "the identifier of the _Z mangling");
    }
    cr_expect_eq(ks[0].amd_mach, 0x41, "gfx1100");
    free(w);
    free(p);
}

Test(amdgpu, compressed_bundle_equals_uncompressed)
{
    size_t n;
    uint8_t *p = load("hip_ccob.o", &n), *w;
    gpuocc_binary_kernel ks[8];
    gpuocc_binary_summary s;
    cr_assert_eq(read_all(p, n, ks, 8, &w, &s), 4);
    cr_expect_eq(s.entries, 1, "a compressed bundle is one entry");
    cr_expect_eq(s.compressed_entries, 1);
    cr_expect_gt(s.workspace_bytes, 0x4370, "the bundle decoded: 0x4370 bytes (its CCOB header) and scratch");
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(ks[i].name_buffer, GPUOCC_BINARY_NAME_WORKSPACE);
        check_kernel(&ks[i], (const char *)w, &hip_kernels[i]);
    }
    free(w);
    free(p);
}

/* ------------------------------------------------------------------------------------------------ */
/* Bundles written by hand                                                                           */

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A bundle of `count` entries with the given triples, each entry's bytes from `payloads` (NULL: empty),
   payloads aligned to 8 after the descriptors.  Returns its size. */
static size_t make_bundle(uint8_t *out, size_t cap, int count, const char *const *triples, const uint8_t *const *payloads,
                          const size_t *sizes)
{
    memcpy(out, "__CLANG_OFFLOAD_BUNDLE__", 24);
    put64(out + 24, (uint64_t)count);
    size_t pos = 32, data = 32;
    for (int i = 0; i < count; i++)
        data += 24 + strlen(triples[i]);
    data = (data + 7) & ~(size_t)7;
    for (int i = 0; i < count; i++) {
        size_t t = strlen(triples[i]);
        put64(out + pos, data);
        put64(out + pos + 8, sizes[i]);
        put64(out + pos + 16, t);
        memcpy(out + pos + 24, triples[i], t);
        pos += 24 + t;
        cr_assert_leq(data + sizes[i], cap);
        if (sizes[i])
            memcpy(out + data, payloads[i], sizes[i]);
        data += (sizes[i] + 7) & ~(size_t)7;
    }
    memset(out + pos, 0, 0);
    return data;
}

/* An exact-size copy, so that ASan sees any read past the end. */
static int32_t scan_exact(const uint8_t *p, size_t n, gpuocc_binary_summary *s)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, p, n);
    *s = (gpuocc_binary_summary){.size = sizeof *s};
    int32_t rc = gpuocc_binary_scan(copy, n, s);
    free(copy);
    return rc;
}

Test(amdgpu, hand_made_bundle_around_the_code_object)
{
    size_t n;
    uint8_t *co = load("amdgpu_gfx90a.o", &n);
    static uint8_t bundle[1 << 16];
    const char *triples[] = {"host-x86_64-unknown-linux-gnu-", "hipv4-amdgcn-amd-amdhsa--gfx90a", "hip-nvptx64-nvidia-cuda-sm_90"};
    const uint8_t *payloads[] = {NULL, co, co};
    size_t sizes[] = {0, n, n};
    size_t len = make_bundle(bundle, sizeof bundle, 3, triples, payloads, sizes);
    uint8_t *w;
    gpuocc_binary_kernel ks[8];
    gpuocc_binary_summary s;
    cr_assert_eq(read_all(bundle, len, ks, 8, &w, &s), 2, "one AMDGPU entry; host and nvptx entries are not");
    cr_expect_eq(s.entries, 1);
    for (int i = 0; i < 2; i++)
        check_kernel(&ks[i], (const char *)bundle, &gfx90a_kernels[i]);
    free(w);
    /* two bundles with zero padding between them, as in a linked .hip_fatbin: two entries */
    static uint8_t two[1 << 17];
    memcpy(two, bundle, len);
    memset(two + len, 0, 4096);
    memcpy(two + len + 4096, bundle, len);
    cr_assert_eq(read_all(two, 2 * len + 4096, ks, 8, &w, &s), 4);
    cr_expect_eq(s.entries, 2);
    free(w);
    /* every proper prefix fails with a status, never a crash (the ASan build) */
    for (size_t cut = 0; cut < len; cut += cut < 256 ? 1 : 97) {
        int32_t rc = scan_exact(bundle, cut, &s);
        cr_expect(rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_FORMAT, "cut %zu: %d", cut, rc);
    }
    free(co);
}

Test(amdgpu, malformed_bundles)
{
    uint8_t b[256];
    gpuocc_binary_summary s;
    const char *triples[] = {"hipv4-amdgcn-amd-amdhsa--gfx90a"};
    const uint8_t payload[8] = {0x7f, 'E', 'L', 'F'};
    const uint8_t *payloads[] = {payload};
    size_t sizes[] = {8};
    size_t len = make_bundle(b, sizeof b, 1, triples, payloads, sizes);
    cr_assert_eq(scan_exact(b, len, &s), GPUOCC_OK);
    /* the entry count claims more descriptors than bytes remain */
    uint8_t c[256];
    memcpy(c, b, len);
    put64(c + 24, UINT64_MAX / 2);
    cr_expect_eq(scan_exact(c, len, &s), GPUOCC_ERR_TRUNCATED);
    /* the entry's bytes end past the bundle */
    memcpy(c, b, len);
    put64(c + 32 + 8, len);
    cr_expect_eq(scan_exact(c, len, &s), GPUOCC_ERR_FORMAT);
    memcpy(c, b, len);
    put64(c + 32, UINT64_MAX - 4); /* an offset that would wrap around */
    cr_expect_eq(scan_exact(c, len, &s), GPUOCC_ERR_FORMAT);
    /* the triple runs past the end */
    memcpy(c, b, len);
    put64(c + 32 + 16, 1000);
    cr_expect_eq(scan_exact(c, len, &s), GPUOCC_ERR_TRUNCATED);
    /* bytes after the bundle that are neither padding nor a bundle */
    memcpy(c, b, len);
    c[len] = 'x';
    cr_expect_eq(scan_exact(c, len + 1, &s), GPUOCC_ERR_FORMAT);
    /* an entry that is not an ELF: scanned, then its read fails alone */
    memcpy(c, b, len);
    int32_t count = 0;
    gpuocc_binary_kernel k;
    gpuocc_binary_kernel_init(&k);
    s = (gpuocc_binary_summary){.size = sizeof s};
    cr_assert_eq(gpuocc_binary_scan(c, len, &s), GPUOCC_OK);
    cr_expect_eq(gpuocc_binary_read_entry(c, len, 0, NULL, 0, &k, 1, &count, &s), GPUOCC_ERR_TRUNCATED,
                 "8 bytes of an ELF header");
    cr_expect_eq(s.entries_failed, 1);
    /* LLVM bitcode (-fgpu-rdc objects) is valid device code this version does not read */
    static const uint8_t bitcode[8] = {'B', 'C', 0xc0, 0xde, 0x35, 0x14, 0, 0};
    const uint8_t *bc[] = {bitcode};
    len = make_bundle(c, sizeof c, 1, triples, bc, sizes);
    s = (gpuocc_binary_summary){.size = sizeof s};
    cr_assert_eq(gpuocc_binary_scan(c, len, &s), GPUOCC_OK);
    cr_expect_eq(gpuocc_binary_read_entry(c, len, 0, NULL, 0, &k, 1, &count, &s), GPUOCC_ERR_UNSUPPORTED);
}

/* The CCOB of hip_ccob.o's .hip_fatbin (clang 19 writes version 2: a 24-byte header, then the frame). */
static uint8_t *ccob_v2(size_t *n)
{
    size_t size;
    uint8_t *o = load("hip_ccob.o", &size);
    const uint8_t *at = NULL;
    for (size_t i = 0; i + 4 <= size && !at; i++)
        if (memcmp(o + i, "CCOB", 4) == 0)
            at = o + i;
    cr_assert(at, "hip_ccob.o holds a CCOB");
    cr_assert_eq(at[4] | at[5] << 8, 2, "version 2");
    cr_assert_eq(at[6] | at[7] << 8, 1, "method 1: zstd");
    uint32_t total = (uint32_t)(at[8] | at[9] << 8 | at[10] << 16 | (uint32_t)at[11] << 24);
    uint8_t *c = malloc(total);
    memcpy(c, at, total);
    free(o);
    *n = total;
    return c;
}

static int32_t kernels_of(const uint8_t *p, size_t n, int32_t *count)
{
    gpuocc_binary_summary s = {.size = sizeof s};
    int32_t rc = gpuocc_binary_scan(p, n, &s);
    if (rc != GPUOCC_OK)
        return rc;
    cr_assert_eq(s.entries, 1);
    uint8_t *w = malloc((size_t)s.workspace_bytes);
    gpuocc_binary_kernel ks[8];
    gpuocc_binary_kernel_init(&ks[0]);
    rc = gpuocc_binary_read_entry(p, n, 0, w, (size_t)s.workspace_bytes, ks, 8, count, &s);
    for (int32_t i = 0; rc == GPUOCC_OK && i < *count; i++)
        check_kernel(&ks[i], (const char *)w, &hip_kernels[i]);
    free(w);
    return rc;
}

Test(amdgpu, compressed_bundle_versions)
{
    size_t n;
    uint8_t *v2 = ccob_v2(&n);
    int32_t count = 0;
    cr_assert_eq(kernels_of(v2, n, &count), GPUOCC_OK);
    cr_expect_eq(count, 4);
    size_t frame = n - 24;
    uint32_t uncompressed = (uint32_t)(v2[12] | v2[13] << 8 | v2[14] << 16 | (uint32_t)v2[15] << 24);
    uint8_t *c = malloc(n + 64);
    /* version 3: u64 total, u64 uncompressed, u64 hash (32 bytes) */
    memcpy(c, "CCOB\x03\x00\x01\x00", 8);
    put64(c + 8, frame + 32);
    put64(c + 16, uncompressed);
    memcpy(c + 24, v2 + 16, 8);
    memcpy(c + 32, v2 + 24, frame);
    count = 0;
    cr_expect_eq(kernels_of(c, frame + 32, &count), GPUOCC_OK, "version 3");
    cr_expect_eq(count, 4);
    /* version 1: u32 uncompressed, u64 hash (20 bytes), the end not recorded */
    memcpy(c, "CCOB\x01\x00\x01\x00", 8);
    memcpy(c + 8, v2 + 12, 4);
    memcpy(c + 12, v2 + 16, 8);
    memcpy(c + 20, v2 + 24, frame);
    count = 0;
    cr_expect_eq(kernels_of(c, frame + 20, &count), GPUOCC_OK, "version 1");
    cr_expect_eq(count, 4);
    /* zlib is reported as compressed device code this version cannot decode */
    memcpy(c, v2, n);
    c[6] = 0;
    cr_expect_eq(kernels_of(c, n, &count), GPUOCC_ERR_COMPRESSED);
    c[6] = 7;
    cr_expect_eq(kernels_of(c, n, &count), GPUOCC_ERR_FORMAT, "an unknown method");
    /* an unknown version, a total size past the end or below the header, no uncompressed size */
    memcpy(c, v2, n);
    c[4] = 4;
    cr_expect_eq(kernels_of(c, n, &count), GPUOCC_ERR_UNSUPPORTED);
    memcpy(c, v2, n);
    cr_expect_eq(kernels_of(c, n - 1, &count), GPUOCC_ERR_TRUNCATED);
    c[8] = 3, c[9] = c[10] = c[11] = 0;
    cr_expect_eq(kernels_of(c, n, &count), GPUOCC_ERR_FORMAT);
    memcpy(c, v2, n);
    memset(c + 12, 0, 4);
    cr_expect_eq(kernels_of(c, n, &count), GPUOCC_ERR_FORMAT);
    /* an uncompressed size that disagrees with the frame */
    memcpy(c, v2, n);
    c[12] ^= 1;
    cr_expect_eq(kernels_of(c, n, &count), GPUOCC_ERR_FORMAT);
    /* a damaged frame fails with a status */
    memcpy(c, v2, n);
    c[24 + frame / 2] ^= 0x55;
    int32_t rc = kernels_of(c, n, &count);
    cr_expect(rc == GPUOCC_ERR_FORMAT || rc == GPUOCC_ERR_TRUNCATED, "%d", rc);
    free(c);
    free(v2);
}

/* The code object with parts of it damaged: a status, never a crash. */
Test(amdgpu, damaged_code_objects)
{
    size_t n;
    uint8_t *p = load("amdgpu_gfx90a.o", &n);
    uint8_t *c = malloc(n);
    gpuocc_binary_kernel k[4];
    gpuocc_binary_kernel_init(&k[0]);
    int32_t count;
    /* EI_OSABI other than AMDGPU_HSA (PAL = 65) */
    memcpy(c, p, n);
    c[7] = 65;
    cr_expect_eq(gpuocc_binary_read_entry(c, n, 0, NULL, 0, k, 4, &count, NULL), GPUOCC_ERR_UNSUPPORTED);
    /* code object v2 (EI_ABIVERSION 0: its metadata was YAML in an "AMD" note) */
    memcpy(c, p, n);
    c[8] = 0;
    cr_expect_eq(gpuocc_binary_read_entry(c, n, 0, NULL, 0, k, 4, &count, NULL), GPUOCC_ERR_UNSUPPORTED);
    /* the note's type changed: no metadata */
    const uint8_t *note = NULL;
    for (size_t i = 0; i + 20 <= n && !note; i++)
        if (memcmp(p + i + 12, "AMDGPU\0", 7) == 0 && p[i] == 7 && p[i + 8] == 32)
            note = p + i;
    cr_assert(note, "the NT_AMDGPU_METADATA note");
    size_t at = (size_t)(note - p);
    memcpy(c, p, n);
    c[at + 8] = 33;
    cr_expect_eq(gpuocc_binary_read_entry(c, n, 0, NULL, 0, k, 4, &count, NULL), GPUOCC_ERR_UNSUPPORTED);
    /* the desc one byte shorter: the MessagePack document is cut */
    memcpy(c, p, n);
    c[at + 4]--;
    cr_expect_eq(gpuocc_binary_read_entry(c, n, 0, NULL, 0, k, 4, &count, NULL), GPUOCC_ERR_FORMAT);
    /* the desc larger than its section */
    memcpy(c, p, n);
    c[at + 6] = 0x7f;
    cr_expect_eq(gpuocc_binary_read_entry(c, n, 0, NULL, 0, k, 4, &count, NULL), GPUOCC_ERR_TRUNCATED);
    /* every byte of the metadata flipped in turn: a status, and records only on success */
    uint32_t descsz = (uint32_t)(note[4] | note[5] << 8);
    for (uint32_t i = 0; i < descsz; i++) {
        memcpy(c, p, n);
        c[at + 20 + i] ^= 0xa5;
        count = 0;
        int32_t rc = gpuocc_binary_read_entry(c, n, 0, NULL, 0, k, 4, &count, NULL);
        cr_assert(rc == GPUOCC_OK || rc == GPUOCC_ERR_FORMAT || rc == GPUOCC_ERR_TRUNCATED ||
                      rc == GPUOCC_ERR_UNSUPPORTED || rc == GPUOCC_ERR_BUFFER,
                  "byte %u: %d", i, rc);
    }
    free(c);
    free(p);
}

/* tests/data/amdgpu_gfx90a.o with `notes` notes of another owner ("GNU", type 1) appended, named by `headers`
   SHT_NOTE section headers that come before the code object's own .note in a new section table (its header
   moved to the end, its old place one of those); `overlap`: header i names the range from note i on instead
   of all of them.  *n its size. */
static uint8_t *with_note_headers(uint32_t headers, uint32_t notes, bool overlap, size_t *n)
{
    size_t size;
    uint8_t *p = load("amdgpu_gfx90a.o", &size);
    uint64_t shoff = 0;
    for (int i = 0; i < 8; i++)
        shoff |= (uint64_t)p[0x28 + i] << (8 * i);
    uint32_t shnum = (uint32_t)(p[0x3c] | p[0x3d] << 8), note = 0;
    for (uint32_t i = 1; i < shnum && !note; i++)
        if (p[shoff + 64 * i + 4] == 7) /* SHT_NOTE */
            note = i;
    cr_assert(note, "the code object's .note");
    size_t junk = (size + 7) & ~(size_t)7, table = junk + (size_t)notes * 20;
    uint32_t total = shnum + headers;
    cr_assert(total < 0xff00);
    *n = table + (size_t)total * 64;
    uint8_t *out = calloc(*n, 1);
    cr_assert(out);
    memcpy(out, p, size);
    for (uint32_t i = 0; i < notes; i++) {
        uint8_t *q = out + junk + (size_t)i * 20;
        q[0] = 4, q[4] = 4, q[8] = 1;
        memcpy(q + 12, "GNU", 4);
    }
    uint8_t decoy[64];
    memcpy(decoy, p + shoff + 64 * (size_t)note, 64);
    memcpy(out + table, p + shoff, (size_t)shnum * 64);
    memcpy(out + table + 64 * ((size_t)total - 1), decoy, 64); /* the real .note, last */
    for (uint32_t i = 0; i <= headers; i++) {
        uint32_t at = i < headers ? shnum + i - 1 : note; /* the decoys, and the .note's old place */
        uint32_t from = overlap && i < notes ? i : 0;
        put64(decoy + 24, junk + (uint64_t)from * 20);
        put64(decoy + 32, (uint64_t)(notes - from) * 20);
        memcpy(out + table + 64 * (size_t)at, decoy, 64);
    }
    put64(out + 0x28, table);
    out[0x3c] = (uint8_t)total, out[0x3d] = (uint8_t)(total >> 8);
    free(p);
    return out;
}

/* SHT_NOTE headers that all name one range without the metadata, before the one that holds it: read as the
   fixture is, each note walked once.  65,000 headers over 400,000 notes (8 MB) are 2.6e10 note visits for a
   reader that walks the range once per header (minutes, where meson's 30 s timeout stops it). */
Test(amdgpu, many_note_headers)
{
    size_t n;
    uint8_t *p = with_note_headers(65000, 400000, false, &n);
    gpuocc_binary_kernel ks[4];
    gpuocc_binary_summary s;
    uint8_t *w;
    cr_assert_eq(read_all(p, n, ks, 4, &w, &s), 2);
    for (int i = 0; i < 2; i++)
        check_kernel(&ks[i], (const char *)p, &gfx90a_kernels[i]);
    free(w);
    free(p);
    /* headers each naming another, overlapping range: refused after bytes as many as the file holds */
    p = with_note_headers(65000, 400000, true, &n);
    gpuocc_binary_kernel_init(&ks[0]);
    int32_t count;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, NULL, 0, ks, 4, &count, NULL), GPUOCC_ERR_FORMAT);
    free(p);
}

Test(amdgpu, record_layout_and_init)
{
    gpuocc_binary_kernel k;
    memset(&k, 0xff, sizeof k);
    cr_assert_eq(gpuocc_binary_kernel_init(&k), GPUOCC_OK);
    cr_expect_eq(k.vendor, GPUOCC_VENDOR_NVIDIA);
    cr_expect_eq(k.vgprs, 0);
    cr_expect_eq(k.target_length, 0);
    cr_expect_eq(sizeof k, 360, "the AMD fields come from the reserved tail; linked, arch_variant, Intel's, then "
                                "the records beyond the resources (virtual_resources ...)");
    cr_expect_eq(offsetof(gpuocc_binary_kernel, linked), 240);
    cr_expect_eq(offsetof(gpuocc_binary_kernel, sub_group), 248);
    cr_expect_eq(offsetof(gpuocc_binary_kernel, target_offset), 112);
    cr_expect_eq(offsetof(gpuocc_binary_kernel, reserved), 192);
    /* a larger stride (a later layout): the records' unknown tail is zeroed, the size is the stride */
    size_t n;
    uint8_t *p = load("amdgpu_gfx90a.o", &n);
    enum { STRIDE = 368 }; /* a later layout than the 360-byte one */
    uint8_t records[2 * STRIDE];
    memset(records, 0xee, sizeof records);
    uint32_t stride = STRIDE;
    memcpy(records, &stride, sizeof stride);
    int32_t count = 0;
    cr_assert_eq(gpuocc_binary_read_entry(p, n, 0, NULL, 0, (gpuocc_binary_kernel *)(void *)records, 2, &count, NULL),
                 GPUOCC_OK);
    cr_expect_eq(count, 2);
    for (int i = 0; i < 2; i++) {
        gpuocc_binary_kernel r;
        memcpy(&r, records + i * STRIDE, sizeof r);
        cr_expect_eq(r.size, STRIDE);
        cr_expect_eq(r.vgprs, gfx90a_kernels[i].vgprs);
        for (size_t b = sizeof r; b < STRIDE; b++)
            cr_expect_eq(records[i * STRIDE + b], 0);
    }
    free(p);
}

/* Metadata nested deeper than the reader follows is named so, with the limit and the byte: the note's
   MessagePack replaced by arrays of one element nested as deep as its bytes allow (a valid document), and by
   one nested exactly 32 levels (the most msgpack.h's reader follows), which is read and refused only for not
   being a map. */
Test(amdgpu, metadata_nested_too_deep_says_so)
{
    size_t n;
    uint8_t *p = load("amdgpu_gfx90a.o", &n);
    const uint8_t *note = NULL;
    for (size_t i = 0; i + 20 <= n && !note; i++)
        if (memcmp(p + i + 12, "AMDGPU\0", 7) == 0 && p[i] == 7 && p[i + 8] == 32)
            note = p + i;
    cr_assert(note, "the NT_AMDGPU_METADATA note");
    size_t desc = (size_t)(note - p) + 20, descsz = (size_t)(note[4] | note[5] << 8);
    cr_assert_gt(descsz, 64);
    /* [[[...[nil]...]]]: descsz - 1 levels */
    memset(p + desc, 0x91, descsz - 1);
    p[desc + descsz - 1] = 0xc0;
    gpuocc_binary_summary s = {.size = sizeof s};
    cr_assert_eq(gpuocc_binary_scan(p, n, &s), GPUOCC_OK);
    gpuocc_binary_kernel k[4];
    gpuocc_binary_kernel_init(&k[0]);
    int32_t count = 0;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, NULL, 0, k, 4, &count, &s), GPUOCC_ERR_UNSUPPORTED);
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_NESTING);
    cr_expect_eq(s.fault_value, 32, "the most levels followed");
    cr_expect_eq(s.fault_offset, (int64_t)(desc + 32), "the array that opens the 33rd level");
    /* 31 arrays of one element, then an array 16 of nils filling the rest: 32 levels, read */
    memset(p + desc, 0x91, 31);
    size_t nils = descsz - 31 - 3;
    p[desc + 31] = 0xdc, p[desc + 32] = (uint8_t)(nils >> 8), p[desc + 33] = (uint8_t)nils;
    memset(p + desc + 34, 0xc0, nils);
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, NULL, 0, k, 4, &count, &s), GPUOCC_ERR_FORMAT, "not a map");
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_NONE);
    free(p);
}
