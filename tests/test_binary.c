/*
 * The entry-by-entry reader (gpuocc_binary_scan, gpuocc_binary_read_entry) on binaries compiled here
 * (tests/cuda/capture.sh): compressed entries (zstd, LZ4, CUDA 13's default -rdc objects) give the records
 * of the same compile without compression, which ptxas's report confirms; a damaged entry fails alone and
 * is counted in the summary; hostile inputs fail with a status.
 */
#include "compiled.h"

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

static uint8_t *load(const char *name, size_t *n)
{
    return load_file(fixture_path(name), n);
}

static gpuocc_binary_summary scan(const uint8_t *p, size_t n)
{
    gpuocc_binary_summary s = {.size = sizeof s};
    cr_assert_eq(gpuocc_binary_scan(p, n, &s), GPUOCC_OK);
    return s;
}

Test(binary, scan_counts_entries_and_sizes_the_workspace)
{
    static const struct {
        const char *file;
        int32_t entries, compressed;
    } cases[] = {
        {"kernels_sm90.cubin", 1, 0},  {"units.fatbin", 3, 0},      {"units_host.o", 3, 0},
        {"units_rdc.o", 3, 0},         {"units_zstd.fatbin", 1, 1}, {"units_lz4.fatbin", 1, 1},
        {"units_rdc_zstd.o", 3, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n;
        uint8_t *p = load(cases[i].file, &n);
        gpuocc_binary_summary s = scan(p, n);
        cr_expect_eq(s.entries, cases[i].entries, "%s", cases[i].file);
        cr_expect_eq(s.compressed_entries, cases[i].compressed, "%s", cases[i].file);
        cr_expect_eq(s.entries_read, 0);
        cr_expect_eq(s.entries_failed, 0);
        cr_expect_eq(s.first_failed_entry, -1);
        /* nothing to decode, no workspace; else at least the largest entry */
        if (cases[i].compressed == 0)
            cr_expect_eq(s.workspace_bytes, 0, "%s", cases[i].file);
        else
            cr_expect_gt(s.workspace_bytes, s.largest_entry_bytes, "%s", cases[i].file);
        free(p);
    }
}

/* CUDA 13's default -rdc object is zstd-compressed: its records are those of the -no-compress build of
   the same source and targets, and those agree with ptxas's report of that compile. */
Test(binary, compressed_rdc_object_matches_uncompressed_and_ptxas)
{
    size_t nz, np;
    uint8_t *z = load("units_rdc_zstd.o", &nz), *p = load("units_rdc.o", &np);
    struct kernels from_zstd, from_plain, log;
    gpuocc_binary_summary sz, sp;
    read_entries(z, nz, &from_zstd, &sz);
    read_entries(p, np, &from_plain, &sp);
    cr_assert_eq(sz.entries_read, 3);
    cr_assert_eq(sz.entries_failed, 0);
    cr_assert_eq(sp.entries_read, 3);
    cr_assert_eq(from_zstd.count, 6);
    expect_same_records(&from_zstd, &from_plain, "rdc zstd vs -no-compress");
    read_log(fixture_path("ptxas_units_rdc.log"), &log);
    expect_agreement(&log, &from_zstd, "units_rdc_zstd.o");
    /* the old reader still refuses compressed code */
    gpuocc_compiled_kernel k[8];
    int32_t count;
    cr_expect_eq(gpuocc_cubin_read(z, nz, k, 8, &count), GPUOCC_ERR_COMPRESSED);
    free(z);
    free(p);
    free(from_zstd.data);
    free(from_plain.data);
    free(log.data);
}

/* The same sm_80 compile stored with zstd (-compress-mode=size) and LZ4 (-compress-mode=speed
   -Xfatbin=-compress-all) reads the same; names of decoded entries point into the workspace. */
Test(binary, zstd_and_lz4_entries_read_alike)
{
    size_t nz, nl;
    uint8_t *z = load("units_zstd.fatbin", &nz), *l = load("units_lz4.fatbin", &nl);
    struct kernels a, b;
    gpuocc_binary_summary sa, sb;
    read_entries(z, nz, &a, &sa);
    read_entries(l, nl, &b, &sb);
    cr_assert_eq(sa.entries_read, 1);
    cr_assert_eq(sb.entries_read, 1);
    cr_assert_eq(a.count, 2);
    expect_same_records(&a, &b, "zstd vs lz4");
    cr_expect_eq(find_kernel(&a, "unit_add", 80)->registers, find_kernel(&b, "unit_add", 80)->registers);

    gpuocc_binary_summary s = scan(z, nz);
    uint8_t *ws = malloc(s.workspace_bytes);
    gpuocc_binary_kernel k[4];
    gpuocc_binary_kernel_init(&k[0]);
    int32_t count;
    cr_assert_eq(gpuocc_binary_read_entry(z, nz, 0, ws, s.workspace_bytes, k, 4, &count, NULL), GPUOCC_OK);
    cr_assert_eq(k[0].name_buffer, GPUOCC_BINARY_NAME_WORKSPACE);
    cr_assert_eq(k[0].vendor, GPUOCC_VENDOR_NVIDIA);
    cr_assert_leq(k[0].name_offset + k[0].name_length, s.workspace_bytes);
    cr_assert_eq(k[1].size, sizeof k[1]);
    free(ws);
    free(z);
    free(l);
    free(a.data);
    free(b.data);
}

/* A damaged compressed entry fails alone: the others are read and the summary names the first failure. */
Test(binary, damaged_entry_fails_alone)
{
    size_t n;
    uint8_t *p = load("units_rdc_zstd.o", &n);
    /* the second zstd frame of the file: flip a byte in its middle */
    size_t frames = 0, at = 0;
    for (size_t i = 0; i + 4 <= n; i++)
        if (p[i] == 0x28 && p[i + 1] == 0xb5 && p[i + 2] == 0x2f && p[i + 3] == 0xfd && ++frames == 2) {
            at = i;
            break;
        }
    cr_assert_gt(at, 0);
    p[at + 40] ^= 0x5a;
    struct kernels ks;
    gpuocc_binary_summary s;
    read_entries(p, n, &ks, &s);
    cr_expect_eq(s.entries, 3);
    cr_expect_eq(s.entries_read, 2);
    cr_expect_eq(s.entries_failed, 1);
    cr_expect_eq(s.first_failed_entry, 1);
    cr_expect_eq(s.first_failure, GPUOCC_ERR_FORMAT);
    cr_expect_eq(ks.count, 4, "the two readable entries' kernels");
    free(ks.data);
    free(p);
}

/* Only zero padding may follow a zstd frame in its payload. */
Test(binary, non_zero_padding_is_refused)
{
    size_t n;
    uint8_t *p = load("units_zstd.fatbin", &n);
    gpuocc_binary_summary s = scan(p, n);
    uint8_t *ws = malloc(s.workspace_bytes);
    gpuocc_binary_kernel k[4];
    gpuocc_binary_kernel_init(&k[0]);
    int32_t count = -7;
    /* the ELF entry is the first one; its payload is padded to 8 bytes (1251 bytes of frame, 1256 stored) */
    size_t header = p[6] | (size_t)p[7] << 8, eh = p[header + 4] | (size_t)p[header + 5] << 8;
    size_t payload = header + eh, stored = p[header + 8] | (size_t)p[header + 9] << 8;
    size_t frame = p[header + 0x10] | (size_t)p[header + 0x11] << 8;
    cr_assert_lt(frame, stored);
    p[payload + stored - 1] = 1;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes, k, 4, &count, &s), GPUOCC_ERR_FORMAT);
    cr_expect_eq(count, -7);
    cr_expect_eq(s.entries_failed, 1);
    free(ws);
    free(p);
}

Test(binary, rejects_bad_arguments)
{
    size_t n;
    uint8_t *p = load("units_zstd.fatbin", &n);
    gpuocc_binary_summary s = scan(p, n);
    uint8_t *ws = malloc(s.workspace_bytes);
    gpuocc_binary_kernel k[4];
    gpuocc_binary_kernel_init(&k[0]);
    int32_t count = -7;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 1, ws, s.workspace_bytes, k, 4, &count, &s), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_binary_read_entry(p, n, -1, ws, s.workspace_bytes, k, 4, &count, &s), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes - 1, k, 4, &count, &s), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, NULL, 0, k, 4, &count, &s), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes, NULL, 4, &count, &s), GPUOCC_ERR_NULL);
    cr_expect_eq(s.entries_failed, 0, "caller errors are not entry failures");
    k[0].size = 8;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes, k, 4, &count, &s), GPUOCC_ERR_STRUCT_SIZE);
    gpuocc_binary_kernel_init(&k[0]);
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes, k, 1, &count, &s), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 2);
    count = 0;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes, NULL, 0, &count, &s), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 2, "a count query");
    gpuocc_binary_summary bad = {.size = 4};
    cr_expect_eq(gpuocc_binary_scan(p, n, &bad), GPUOCC_ERR_STRUCT_SIZE);
    cr_expect_eq(gpuocc_binary_scan(NULL, n, &s), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_binary_kernel_init(NULL), GPUOCC_ERR_NULL);
    /* a larger (future) record: the tail past what this version knows is zeroed, the stride followed */
    uint8_t big[2][sizeof(gpuocc_binary_kernel) + 16];
    memset(big, 0xee, sizeof big);
    gpuocc_binary_kernel_init((gpuocc_binary_kernel *)(void *)big[0]);
    ((gpuocc_binary_kernel *)(void *)big[0])->size = sizeof big[0];
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes, (gpuocc_binary_kernel *)(void *)big[0], 2,
                                          &count, NULL),
                 GPUOCC_OK);
    for (size_t i = sizeof(gpuocc_binary_kernel); i < sizeof big[1]; i++)
        cr_expect_eq(big[1][i], 0);
    cr_expect_eq(((gpuocc_binary_kernel *)(void *)big[1])->size, sizeof big[1]);
    free(ws);
    free(p);
}

/* Every cut of a compressed object and every flipped bit of its first frame: a status, never a crash (the
   ASan build checks the reads). */
Test(binary, hostile_input_fails_cleanly, .timeout = 300)
{
    size_t n;
    uint8_t *p = load("units_rdc_zstd.o", &n);
    gpuocc_binary_summary s = scan(p, n);
    uint8_t *ws = malloc(s.workspace_bytes);
    gpuocc_binary_kernel k[8];
    gpuocc_binary_kernel_init(&k[0]);
    for (size_t cut = 0; cut < n; cut += 7) {
        uint8_t *copy = malloc(cut + 1);
        memcpy(copy, p, cut);
        gpuocc_binary_summary c = {.size = sizeof c};
        if (gpuocc_binary_scan(copy, cut, &c) == GPUOCC_OK)
            for (int32_t e = 0; e < c.entries; e++) {
                int32_t count;
                int32_t rc = gpuocc_binary_read_entry(copy, cut, e, ws, s.workspace_bytes, k, 8, &count, &c);
                cr_assert(rc == GPUOCC_OK || (rc <= GPUOCC_ERR_TRUNCATED && rc >= GPUOCC_ERR_COMPRESSED) ||
                          rc == GPUOCC_ERR_ARGUMENT, "cut %zu entry %d: %d", cut, e, rc);
            }
        free(copy);
    }
    size_t at = 0;
    for (size_t i = 0; i + 4 <= n && !at; i++)
        if (p[i] == 0x28 && p[i + 1] == 0xb5 && p[i + 2] == 0x2f && p[i + 3] == 0xfd)
            at = i;
    for (size_t bit = 0; bit < 8 * 600; bit++) {
        p[at + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        int32_t count;
        int32_t rc = gpuocc_binary_read_entry(p, n, 0, ws, s.workspace_bytes, k, 8, &count, NULL);
        cr_assert(rc == GPUOCC_OK || rc == GPUOCC_ERR_FORMAT || rc == GPUOCC_ERR_TRUNCATED ||
                  rc == GPUOCC_ERR_UNSUPPORTED || rc == GPUOCC_ERR_BUFFER, "bit %zu: %d", bit, rc);
        p[at + bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    free(ws);
    free(p);
}

/* Entries read in any order give the same kernels as in order: the cursor the summary keeps for in-order
   reading is only a shortcut. */
Test(binary, entries_read_in_any_order)
{
    size_t n;
    uint8_t *p = load("units_rdc_zstd.o", &n);
    gpuocc_binary_summary s = scan(p, n);
    uint8_t *ws = malloc(s.workspace_bytes);
    gpuocc_binary_kernel k[4];
    int32_t in_order[3][2], count;
    for (int32_t e = 0; e < 3; e++) {
        gpuocc_binary_kernel_init(&k[0]);
        cr_assert_eq(gpuocc_binary_read_entry(p, n, e, ws, s.workspace_bytes, k, 4, &count, &s), GPUOCC_OK);
        in_order[e][0] = k[0].cc;
        in_order[e][1] = count;
    }
    static const int32_t order[] = {2, 0, 1, 1, 2};
    gpuocc_binary_summary t = scan(p, n);
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        gpuocc_binary_kernel_init(&k[0]);
        cr_assert_eq(gpuocc_binary_read_entry(p, n, order[i], ws, s.workspace_bytes, k, 4, &count, &t), GPUOCC_OK);
        cr_expect_eq(k[0].cc, in_order[order[i]][0], "entry %d", order[i]);
        cr_expect_eq(count, in_order[order[i]][1]);
        cr_expect_eq(k[0].entry, order[i]);
    }
    cr_expect_eq(in_order[0][0], 75);
    cr_expect_eq(in_order[1][0], 90);
    cr_expect_eq(in_order[2][0], 120);
    free(ws);
    free(p);
}

/* Every record of a file (uncompressed entries only: names stay in the file). */
struct records {
    uint8_t *p;
    size_t n;
    gpuocc_binary_kernel k[64];
    int32_t count;
};

static void read_records(const char *name, struct records *r)
{
    r->p = load(name, &r->n);
    gpuocc_binary_summary s = scan(r->p, r->n);
    cr_assert_eq(s.compressed_entries, 0, "%s", name);
    r->count = 0;
    for (int32_t e = 0; e < s.entries; e++) {
        int32_t count;
        gpuocc_binary_kernel_init(&r->k[r->count]);
        cr_assert_eq(gpuocc_binary_read_entry(r->p, r->n, e, NULL, 0, &r->k[r->count], 64 - r->count, &count, &s),
                     GPUOCC_OK, "%s entry %d", name, e);
        r->count += count;
    }
}

static bool named(const struct records *r, const gpuocc_binary_kernel *k, const char *short_name)
{
    return k->short_length == strlen(short_name) && !memcmp(r->p + k->short_offset, short_name, k->short_length);
}

/* tests/cuda/linked.cu built -rdc=true and linked (capture.sh): static_smem declares 256 bytes of __shared__,
   dynamic_smem and no_smem none.  Each kernel is there 6 times (sm_80, sm_90, sm_120; relocatable and
   linked): every copy must say 256, 0, 0.  The linked sm_90 and sm_120 cubins have no .nv.shared.reserved.*
   section, yet their shared sections are 1024 + 256 and 1024 bytes (readelf -S): the window is there. */
Test(binary, linked_sm90_cubins_without_a_reserved_section_exclude_the_window)
{
    struct records r;
    read_records("linked_app", &r);
    cr_assert_eq(r.count, 18);
    int seen[3] = {0, 0, 0};
    for (int32_t i = 0; i < r.count; i++) {
        const gpuocc_binary_kernel *k = &r.k[i];
        int64_t expected = named(&r, k, "static_smem") ? 256 : 0;
        cr_expect_eq(k->smem_bytes, expected, "%.*s sm_%d: %lld bytes", (int)k->short_length,
                     (const char *)r.p + k->short_offset, k->cc, (long long)k->smem_bytes);
        seen[k->cc == 80 ? 0 : k->cc == 90 ? 1 : 2]++;
    }
    cr_expect(seen[0] == 6 && seen[1] == 6 && seen[2] == 6);
    free(r.p);
}

/* Which copy a record is (ELF type of its cubin: readelf -hW says EXEC for the 9 cubins of .nv_fatbin, REL for
   the 9 of __nv_relfatbin), and the arch variant: from the fatbinary entry header (units_variants.fatbin:
   code=sm_90a, sm_100f, sm_120f) or a bare cubin's .note.nv.tkinfo (units_sm100a.cubin, -arch=sm_100a). */
Test(binary, linked_and_arch_variant)
{
    struct records r;
    read_records("linked_app", &r);
    int linked = 0, relocatable = 0;
    for (int32_t i = 0; i < r.count; i++) {
        linked += r.k[i].linked == 1;
        relocatable += r.k[i].linked == 0;
        cr_expect_eq(r.k[i].arch_variant, 0);
    }
    cr_expect(linked == 9 && relocatable == 9, "%d linked, %d relocatable", linked, relocatable);
    free(r.p);
    read_records("units_variants.fatbin", &r);
    cr_assert_eq(r.count, 6);
    for (int32_t i = 0; i < r.count; i++) {
        uint32_t want = r.k[i].cc == 90 ? 'a' : 'f';
        cr_expect_eq(r.k[i].arch_variant, want, "sm_%d: %u", r.k[i].cc, r.k[i].arch_variant);
        cr_expect_eq(r.k[i].linked, 1);
    }
    free(r.p);
    static const struct {
        const char *file;
        uint32_t variant;
    } bare[] = {{"units_sm100a.cubin", 'a'}, {"units_sm100f.cubin", 'f'}, {"kernels_sm90.cubin", 0}};
    for (size_t f = 0; f < sizeof bare / sizeof bare[0]; f++) {
        read_records(bare[f].file, &r);
        for (int32_t i = 0; i < r.count; i++)
            cr_expect_eq(r.k[i].arch_variant, bare[f].variant, "%s", bare[f].file);
        free(r.p);
    }
}

/* Entry 0 of `file` read into records of an older layout (`old` bytes each, at most `capacity`), the buffer filled
   with 0xee first so that a write past the last record shows; its status, the count in *count. */
static int32_t read_old_layout(const char *file, size_t old, int32_t capacity, uint8_t *records, size_t records_size,
                               int32_t *count)
{
    size_t n;
    uint8_t *p = load(file, &n);
    gpuocc_binary_summary s = scan(p, n);
    memset(records, 0xee, records_size);
    gpuocc_binary_kernel first;
    gpuocc_binary_kernel_init(&first);
    first.size = (uint32_t)old;
    memcpy(records, &first, old);
    *count = 0;
    int32_t rc = gpuocc_binary_read_entry(p, n, 0, NULL, 0, (gpuocc_binary_kernel *)(void *)records, capacity, count,
                                          &s);
    free(p);
    return rc;
}

/* One record layout: the sizes the record had during development (240 bytes, before `linked`; 312, before
   `virtual_resources`) and any size short of this layout are refused, nothing written. */
Test(binary, development_layouts_refused)
{
    static uint8_t records[8 * 312 + 16];
    int32_t count;
    const size_t sizes[] = {240, 312, sizeof(gpuocc_binary_kernel) - 8};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cr_expect_eq(read_old_layout("linked_app", sizes[i], 8, records, sizeof records, &count),
                     GPUOCC_ERR_STRUCT_SIZE, "%zu bytes", sizes[i]);
        cr_expect_eq(records[sizes[i]], 0xee, "nothing written for %zu bytes", sizes[i]);
    }
}

/* Little-endian fields of a fatbinary, read and written by the test itself (docs/inputs.md's layout: the
   fatbinary header is 16 bytes, u16 header size at 6 and u64 entries' size at 8; an entry header holds its
   u32 header size at 4 and u64 payload size at 8). */
static uint64_t le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

/* gpuocc_binary_scan of a damaged copy of `p`: the status, and the summary it leaves (every field set to a
   sentinel before, so that what it writes shows). */
static int32_t scan_damaged(const uint8_t *c, size_t n, gpuocc_binary_summary *s)
{
    memset(s, 0x5a, sizeof *s);
    s->size = sizeof *s;
    return gpuocc_binary_scan(c, n, s);
}

/* A fatbinary whose entry header is damaged is named to the entry and the byte: the scan fails as before
   (FORMAT), and says which entry, where its header is and what is wrong with it; nothing else is written. */
Test(binary, damaged_fatbinary_headers_say_where)
{
    size_t n;
    uint8_t *p = load("units.fatbin", &n);
    uint8_t *c = malloc(n);
    cr_assert_eq(le(p, 4), 0xBA55ED50u);
    uint64_t header = le(p + 6, 2), total = le(p + 8, 8);
    uint64_t first = header, second = first + le(p + first + 4, 4) + le(p + first + 8, 8);
    cr_assert_eq(le(p + first, 2), 2, "the first entry is compiled code (kind 2)");
    cr_assert_eq(le(p + second, 2), 2, "so is the second");
    gpuocc_binary_summary s;
    const int32_t sentinel = 0x5a5a5a5a;

    /* entry 0: a header size of 8 bytes */
    memcpy(c, p, n);
    put_le(c + first + 4, 8, 4);
    cr_expect_eq(scan_damaged(c, n, &s), GPUOCC_ERR_FORMAT);
    cr_expect_eq(s.first_failed_entry, 0);
    cr_expect_eq(s.first_failure, GPUOCC_ERR_FORMAT);
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_ENTRY_HEADER);
    cr_expect_eq(s.fault_value, 8);
    cr_expect_eq(s.fault_offset, (int64_t)first);
    cr_expect_eq(s.entries, sentinel, "nothing else written");
    cr_expect_eq(s.workspace_bytes, 0x5a5a5a5a5a5a5a5aull);

    /* entry 1, after a sound entry 0: its header at its own offset */
    memcpy(c, p, n);
    put_le(c + second + 4, 3, 4);
    cr_expect_eq(scan_damaged(c, n, &s), GPUOCC_ERR_FORMAT);
    cr_expect_eq(s.first_failed_entry, 1);
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_ENTRY_HEADER);
    cr_expect_eq(s.fault_value, 3);
    cr_expect_eq(s.fault_offset, (int64_t)second);

    /* entry 0's payload past the fatbinary's end: the bytes left from its header are all the entries' */
    memcpy(c, p, n);
    put_le(c + first + 8, 1000000000, 8);
    cr_expect_eq(scan_damaged(c, n, &s), GPUOCC_ERR_FORMAT);
    cr_expect_eq(s.first_failed_entry, 0);
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_ENTRY_SIZE);
    cr_expect_eq(s.fault_value, (int32_t)total);
    cr_expect_eq(s.fault_offset, (int64_t)first);

    /* the fatbinary's own header: a header size of 8, then entries larger than the file */
    memcpy(c, p, n);
    put_le(c + 6, 8, 2);
    cr_expect_eq(scan_damaged(c, n, &s), GPUOCC_ERR_FORMAT);
    cr_expect_eq(s.first_failed_entry, -1, "no entry's fault");
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_FATBIN_HEADER);
    cr_expect_eq(s.fault_value, 8);
    cr_expect_eq(s.fault_offset, 0);
    memcpy(c, p, n);
    put_le(c + 8, n, 8);
    cr_expect_eq(scan_damaged(c, n, &s), GPUOCC_ERR_TRUNCATED);
    cr_expect_eq(s.first_failure, GPUOCC_ERR_TRUNCATED);
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_FATBIN_SIZE);
    cr_expect_eq(s.fault_value, (int32_t)n);

    /* a summary of a development layout (80 or 96 bytes) is refused, nothing written */
    memcpy(c, p, n);
    put_le(c + first + 4, 8, 4);
    const uint32_t sizes[] = {80, 96};
    for (size_t i = 0; i < 2; i++) {
        gpuocc_binary_summary old;
        memset(&old, 0x5a, sizeof old);
        old.size = sizes[i];
        cr_expect_eq(gpuocc_binary_scan(c, n, &old), GPUOCC_ERR_STRUCT_SIZE);
        cr_expect_eq(old.first_failure, (int32_t)0x5a5a5a5a, "untouched");
    }
    free(c);
    free(p);
}

/* In a host object the offset is the file's: the .nv_fatbin section's fatbinary found by its magic here. */
Test(binary, damaged_fatbinary_in_a_host_object_says_where)
{
    size_t n;
    uint8_t *p = load("units_host.o", &n);
    size_t at = 0;
    while (at + 4 <= n && le(p + at, 4) != 0xBA55ED50u)
        at++;
    cr_assert(at + 16 <= n, "a fatbinary in the object");
    uint64_t first = at + le(p + at + 6, 2);
    put_le(p + first + 4, 16, 4);
    gpuocc_binary_summary s;
    cr_expect_eq(scan_damaged(p, n, &s), GPUOCC_ERR_FORMAT);
    cr_expect_eq(s.first_failed_entry, 0);
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_ENTRY_HEADER);
    cr_expect_eq(s.fault_value, 16);
    cr_expect_eq(s.fault_offset, (int64_t)first);
    free(p);
}

/* Blackwell's records (tests/cuda/tcgen05.ptx through ptxas 13.0 for sm_100a; the attribute values read from the
   cubin's .nv.info sections with a separate dump of the EIATTR stream): 0x4a = 128 where tcgen05 is used and 0
   elsewhere, 0x51 on the cta_group::1 kernel, 0x52 on the cta_group::2 one, 0x54 on the setmaxnreg one. */
Test(binary, blackwell_records)
{
    struct records r;
    read_records("tcgen05_sm100a.cubin", &r);
    cr_assert_eq(r.count, 4);
    static const struct {
        const char *name;
        int32_t virtual_resources, tmem_cta_group, setmaxnreg;
    } want[] = {{"tm_one", 128, 1, 0}, {"tm_two", 128, 2, 0}, {"plain", 0, 0, 0}, {"smr", 0, 0, 1}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const gpuocc_binary_kernel *k = NULL;
        for (int32_t i = 0; i < r.count; i++)
            if (named(&r, &r.k[i], want[w].name))
                k = &r.k[i];
        cr_assert(k, "%s not read", want[w].name);
        cr_expect_eq(k->virtual_resources, want[w].virtual_resources, "%s", want[w].name);
        cr_expect_eq(k->tmem_cta_group, want[w].tmem_cta_group, "%s", want[w].name);
        cr_expect_eq(k->setmaxnreg, want[w].setmaxnreg, "%s", want[w].name);
        cr_expect_eq(k->cc, 100);
        cr_expect_eq(k->arch_variant, 'a');
        /* the readers never fill what a launch's metadata gives */
        cr_expect(k->launch_threads == 0 && k->tmem_columns == 0 && k->metadata_length == 0 &&
                  k->waves_per_eu_min == 0 && k->waves_per_eu_max == 0 && k->flat_workgroup_size_min == 0);
    }
    /* as ptxas -v reported them (tests/data/ptxas_tcgen05.log): registers, and smr's .maxnreg 128 cap */
    for (int32_t i = 0; i < r.count; i++) {
        if (named(&r, &r.k[i], "smr"))
            cr_expect(r.k[i].registers == 128 && r.k[i].max_regs_per_thread == 128);
        if (named(&r, &r.k[i], "tm_two"))
            cr_expect(r.k[i].registers == 16 && r.k[i].cluster_x == 2 && r.k[i].smem_bytes == 4);
    }
    free(r.p);
}
