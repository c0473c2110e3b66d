/*
 * The cubin reader, on cubins, a fatbinary and a host object compiled here (tests/cuda/capture.sh,
 * CUDA 13.0).  The expected values are ptxas's own report of the same compile (tests/data/ptxas_*.log)
 * and the kernels' source (launch bounds, cluster dimensions); hostile inputs are derived from the real
 * files by truncating and patching them.
 */
#include "compiled.h"

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

static uint8_t *load(const char *name, size_t *n)
{
    return load_file(fixture_path(name), n);
}

static void read_cubin(const char *name, struct kernels *out)
{
    read_binary(fixture_path(name), out);
}

static const gpuocc_compiled_kernel *find(const struct kernels *ks, const char *short_name, int32_t cc)
{
    return find_kernel(ks, short_name, cc);
}

static void expect_files_agree(const char *log_name, const char *binary_name)
{
    struct kernels log, bin;
    read_log(fixture_path(log_name), &log);
    read_cubin(binary_name, &bin);
    expect_agreement(&log, &bin, binary_name);
    free(log.data);
    free(bin.data);
}

Test(cubin, agrees_with_ptxas_sm75)
{
    expect_files_agree("ptxas_sm75.log", "kernels_sm75.cubin");
}

Test(cubin, agrees_with_ptxas_sm80)
{
    expect_files_agree("ptxas_sm80.log", "kernels_sm80.cubin");
}

Test(cubin, agrees_with_ptxas_sm90)
{
    expect_files_agree("ptxas_sm90.log", "kernels_sm90.cubin");
}

Test(cubin, agrees_with_ptxas_sm120)
{
    expect_files_agree("ptxas_sm120.log", "kernels_sm120.cubin");
}

Test(cubin, fatbinary_with_three_targets)
{
    expect_files_agree("ptxas_units.log", "units.fatbin");
}

Test(cubin, host_object_embedding_a_fatbinary)
{
    expect_files_agree("ptxas_units.log", "units_host.o");
}

Test(cubin, relocatable_object_from_rdc)
{
    /* -rdc=true: __nv_relfatbin, relocatable cubins without the reserved window in their shared sections */
    expect_files_agree("ptxas_units_rdc.log", "units_rdc.o");
}

/* Arch-specific targets: the log's "for 'sm_90a'" and the cubin's note (-arch sm_90a, sm_100a) name one variant */
Test(cubin, agrees_with_ptxas_arch_specific)
{
    expect_files_agree("ptxas_setmaxnreg.log", "setmaxnreg_sm90a.cubin");
    expect_files_agree("ptxas_tcgen05.log", "tcgen05_sm100a.cubin");
}

/* The variant of each record, as the entry-by-entry reader gives it (tests/test_binary.c): the fatbinary entry's
   flags (units_variants.fatbin: code=sm_90a, sm_100f, sm_120f; units_sm90a_sm90.fatbin: its first entry's
   flags 0x100011, sm_90a, its second's 0x11, plain sm_90, both cc 90, two kernels each), a bare cubin's
   .note.nv.tkinfo (-arch=sm_100a, sm_100f), none for plain targets. */
Test(cubin, arch_variant)
{
    struct kernels ks;
    read_cubin("units_variants.fatbin", &ks);
    cr_assert_eq(ks.count, 6);
    for (int32_t i = 0; i < ks.count; i++)
        cr_expect_eq(ks.k[i].arch_variant, ks.k[i].cc == 90 ? 'a' : 'f', "sm_%d: %u", ks.k[i].cc, ks.k[i].arch_variant);
    free(ks.data);
    read_cubin("units_sm90a_sm90.fatbin", &ks);
    cr_assert_eq(ks.count, 4);
    for (int32_t i = 0; i < ks.count; i++) {
        cr_expect_eq(ks.k[i].cc, 90);
        cr_expect_eq(ks.k[i].arch_variant, i < 2 ? 'a' : 0, "record %d: %u", i, ks.k[i].arch_variant);
    }
    free(ks.data);
    static const struct {
        const char *file;
        uint32_t variant;
    } one[] = {{"units_sm100a.cubin", 'a'}, {"units_sm100f.cubin", 'f'}, {"kernels_sm90.cubin", 0},
               {"units.fatbin", 0}, {"units_host.o", 0}};
    for (size_t f = 0; f < sizeof one / sizeof one[0]; f++) {
        read_cubin(one[f].file, &ks);
        cr_assert_gt(ks.count, 0);
        for (int32_t i = 0; i < ks.count; i++)
            cr_expect_eq(ks.k[i].arch_variant, one[f].variant, "%s: record %d", one[f].file, i);
        free(ks.data);
    }
}

Test(cubin, hand_checked_values_sm90)
{
    struct kernels ks;
    read_cubin("kernels_sm90.cubin", &ks);
    cr_assert_eq(ks.count, 7);
    /* "Used 64 registers, used 0 barriers, 56 bytes cumulative stack size", "56 bytes stack frame" */
    const gpuocc_compiled_kernel *k = find(&ks, "spilling", 90);
    cr_expect_eq(k->registers, 64);
    cr_expect_eq(k->stack_frame_bytes, 56);
    cr_expect_eq(k->max_regs_per_thread, 64); /* -maxrregcount=64 */
    cr_expect_eq(k->max_threads_per_block, 0);
    cr_expect_eq(k->min_blocks_per_sm, 0);
    /* 32768 bytes of __shared__ (8192 floats); the section is 33792 with sm_90's 1 KiB window */
    k = find(&ks, "smem_heavy", 90);
    cr_expect_eq(k->smem_bytes, 32768);
    cr_expect_eq(k->barriers, 1);
    k = find(&ks, "named_barriers", 90);
    cr_expect_eq(k->barriers, 4);
    cr_expect_eq(k->smem_bytes, 1024);
    /* __launch_bounds__(256, 2): ptxas "Overriding global maxrregcount 64 with entry-specific value 128"
       = 65536 / (256 x 2); 128 registers at 256 threads guarantee exactly 2 blocks */
    k = find(&ks, "register_heavy", 90);
    cr_expect_eq(k->max_threads_per_block, 256);
    cr_expect_eq(k->max_regs_per_thread, 128);
    cr_expect_eq(k->min_blocks_per_sm, 2);
    cr_expect_eq(k->registers, 43);
    /* __cluster_dims__(2, 1, 1) */
    k = find(&ks, "cluster_kernel", 90);
    cr_expect_eq(k->cluster_x, 2);
    cr_expect_eq(k->cluster_y, 1);
    cr_expect_eq(k->cluster_z, 1);
    cr_expect_eq(k->max_blocks_per_cluster, 0);
    k = find(&ks, "plain_copy", 90);
    cr_expect_eq(k->short_length, k->name_length, "extern \"C\": the name is already plain");
    cr_expect_eq(k->cluster_x, 0);
    cr_expect_eq(k->cc, 90);
    free(ks.data);
}

Test(cubin, launch_bounds_four_blocks)
{
    /* __launch_bounds__(128, 4): 65536 / (128 x 4) = 128 registers cap, which guarantees 4 blocks */
    struct kernels ks;
    read_cubin("units.fatbin", &ks);
    int32_t targets[] = {75, 90, 120};
    for (int i = 0; i < 3; i++) {
        const gpuocc_compiled_kernel *k = find(&ks, "unit_bounded", targets[i]);
        cr_expect_eq(k->max_threads_per_block, 128);
        cr_expect_eq(k->max_regs_per_thread, 128);
        cr_expect_eq(k->min_blocks_per_sm, 4, "sm_%d", targets[i]);
        k = find(&ks, "unit_add", targets[i]);
        cr_expect_eq(k->max_threads_per_block, 0);
        cr_expect_eq(k->max_regs_per_thread, 255, "no bounds, no -maxrregcount");
    }
    free(ks.data);
}

Test(cubin, compressed_fatbinary_is_refused)
{
    size_t n;
    uint8_t *data = load("units_zstd.fatbin", &n);
    gpuocc_compiled_kernel k[4];
    int32_t count = -1;
    cr_expect_eq(gpuocc_cubin_read(data, n, k, 4, &count), GPUOCC_ERR_COMPRESSED);
    /* the entry-by-entry reader decodes the same file: the text blames the reader, not the format */
    gpuocc_binary_summary s = {.size = sizeof s};
    cr_assert_eq(gpuocc_binary_scan(data, n, &s), GPUOCC_OK);
    cr_assert_gt(s.compressed_entries, 0);
    void *workspace = malloc((size_t)s.workspace_bytes);
    gpuocc_binary_kernel bk[8];
    bk[0].size = sizeof bk[0];
    cr_expect_eq(gpuocc_binary_read_entry(data, n, 0, workspace, (size_t)s.workspace_bytes, bk, 8, &count, &s),
                 GPUOCC_OK);
    free(workspace);
    cr_expect_str_eq(gpuocc_strerror(GPUOCC_ERR_COMPRESSED), "compressed device code this reader does not decode");
    free(data);
}

Test(cubin, buffer_and_arguments)
{
    size_t n;
    uint8_t *data = load("kernels_sm90.cubin", &n);
    gpuocc_compiled_kernel k[3];
    int32_t count = 0;
    cr_expect_eq(gpuocc_cubin_read(data, n, NULL, 0, &count), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 7);
    cr_expect_eq(gpuocc_cubin_read(data, n, k, 3, &count), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 7);
    cr_expect_eq(gpuocc_cubin_read(NULL, n, k, 3, &count), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_cubin_read(data, n, k, 3, NULL), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_cubin_read(data, n, NULL, 3, &count), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_cubin_read(data, n, k, -1, &count), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_cubin_read(data, 0, k, 3, &count), GPUOCC_ERR_FORMAT);
    free(data);
}

/* A copy of a fixture with `size` bytes at `offset` replaced by `value` (little-endian). */
static int32_t read_patched(const uint8_t *data, size_t n, size_t offset, int size, uint64_t value)
{
    uint8_t *copy = malloc(n);
    memcpy(copy, data, n);
    for (int i = 0; i < size; i++)
        copy[offset + (size_t)i] = (uint8_t)(value >> (8 * i));
    gpuocc_compiled_kernel k[MAX_KERNELS];
    int32_t count;
    int32_t rc = gpuocc_cubin_read(copy, n, k, MAX_KERNELS, &count);
    free(copy);
    return rc;
}

static uint64_t le(const uint8_t *p, int size)
{
    uint64_t v = 0;
    for (int i = size - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

Test(cubin, hostile_headers)
{
    size_t n;
    uint8_t *d = load("kernels_sm90.cubin", &n);
    uint64_t shoff = le(d + 40, 8);
    cr_expect_eq(read_patched(d, n, 0, 1, 0x7e), GPUOCC_ERR_FORMAT, "bad magic");
    cr_expect_eq(read_patched(d, n, 4, 1, 1), GPUOCC_ERR_UNSUPPORTED, "ELF32");
    cr_expect_eq(read_patched(d, n, 5, 1, 2), GPUOCC_ERR_UNSUPPORTED, "big-endian");
    cr_expect_eq(read_patched(d, n, 4, 1, 9), GPUOCC_ERR_FORMAT, "no such class");
    cr_expect_eq(read_patched(d, n, 18, 2, 62), GPUOCC_ERR_FORMAT, "x86-64 without .nv_fatbin");
    cr_expect_eq(read_patched(d, n, 40, 8, n), GPUOCC_ERR_TRUNCATED, "section table at the end");
    cr_expect_eq(read_patched(d, n, 40, 8, UINT64_MAX - 8), GPUOCC_ERR_TRUNCATED, "section table past 2^64");
    cr_expect_eq(read_patched(d, n, 60, 2, 0xfffe), GPUOCC_ERR_TRUNCATED, "huge section count");
    cr_expect_eq(read_patched(d, n, 58, 2, 40), GPUOCC_ERR_FORMAT, "section header size");
    cr_expect_eq(read_patched(d, n, 62, 2, 999), GPUOCC_ERR_FORMAT, "string table index");
    /* section 3 is .symtab: move its data outside the file, then give it an absurd size */
    size_t symtab = (size_t)shoff + 3 * 64;
    cr_expect_eq(read_patched(d, n, symtab + 24, 8, n + 1), GPUOCC_ERR_TRUNCATED, "symtab offset");
    cr_expect_eq(read_patched(d, n, symtab + 32, 8, UINT64_MAX), GPUOCC_ERR_TRUNCATED, "symtab size");
    cr_expect_eq(read_patched(d, n, symtab + 56, 8, 16), GPUOCC_ERR_FORMAT, "symbol size");
    /* section 1 is .shstrtab: shrink it so names fall outside */
    cr_expect_eq(read_patched(d, n, (size_t)shoff + 64 + 32, 8, 4), GPUOCC_ERR_FORMAT, "names outside");
    free(d);
}

Test(cubin, hostile_fatbinary)
{
    size_t n;
    uint8_t *d = load("units.fatbin", &n);
    cr_expect_eq(read_patched(d, n, 8, 8, n), GPUOCC_ERR_TRUNCATED, "entries past the end");
    cr_expect_eq(read_patched(d, n, 6, 2, 4), GPUOCC_ERR_FORMAT, "header size");
    cr_expect_eq(read_patched(d, n, 16 + 8, 8, UINT64_MAX), GPUOCC_ERR_FORMAT, "entry past its fatbinary");
    cr_expect_eq(read_patched(d, n, 16 + 4, 4, 8), GPUOCC_ERR_FORMAT, "entry header size");
    cr_expect_eq(read_patched(d, n, 16 + 0x28, 8, 0x2011), GPUOCC_ERR_COMPRESSED, "older compression flag");
    free(d);
}

/* Every prefix is refused or read exactly as the whole (the bytes past the section table are not needed). */
static void expect_prefixes(const char *name)
{
    struct kernels whole;
    read_cubin(name, &whole);
    gpuocc_compiled_kernel k[MAX_KERNELS];
    for (size_t len = 0; len < whole.n; len++) {
        uint8_t *copy = malloc(len ? len : 1); /* its own allocation, so a read past `len` is caught */
        memcpy(copy, whole.data, len);
        int32_t count = 0;
        int32_t rc = gpuocc_cubin_read(copy, len, k, MAX_KERNELS, &count);
        free(copy);
        if (rc == GPUOCC_OK) {
            cr_assert_eq(count, whole.count, "%s[0..%zu)", name, len);
            cr_assert_eq(memcmp(k, whole.k, sizeof k[0] * (size_t)count), 0, "%s[0..%zu)", name, len);
        } else {
            cr_assert(rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_FORMAT, "%s[0..%zu): %d", name, len, rc);
        }
    }
    free(whole.data);
}

Test(cubin, every_prefix_of_a_cubin, .timeout = 120)
{
    expect_prefixes("kernels_sm90.cubin");
}

Test(cubin, every_prefix_of_a_fatbinary, .timeout = 120)
{
    expect_prefixes("units.fatbin");
}

Test(cubin, single_bit_flips, .timeout = 120)
{
    /* Every bit of the header and section table, one at a time: any status, never a bad read. */
    size_t n;
    uint8_t *d = load("kernels_sm90.cubin", &n);
    size_t shoff = (size_t)le(d + 40, 8), end = shoff + 64 * (size_t)le(d + 60, 2);
    gpuocc_compiled_kernel k[MAX_KERNELS];
    for (size_t at = 0; at < end; at = at == 63 ? shoff : at + 1) {
        for (int bit = 0; bit < 8; bit++) {
            d[at] ^= (uint8_t)(1u << bit);
            int32_t count = 0;
            int32_t rc = gpuocc_cubin_read(d, n, k, MAX_KERNELS, &count);
            cr_assert(rc <= 0 && rc >= GPUOCC_ERR_COMPRESSED, "byte %zu bit %d: %d", at, bit, rc);
            d[at] ^= (uint8_t)(1u << bit);
        }
    }
    free(d);
}
