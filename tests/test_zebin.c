/*
 * Intel zebins through gpuocc_binary_scan / gpuocc_binary_entry_info / gpuocc_binary_read_entry: the ocloc
 * fixtures of tests/data/zebin (kernels.cl for dg2; the values are the .ze_info text ocloc wrote, quoted
 * below), and zebins built here by hand (an ELF64 header, a .ze_info section of the text given, a
 * .note.intelgt.compat note, .shstrtab) for the YAML the reader must take (comments, quotes, indentless
 * sequences, CR line ends, unknown keys, the functions section) and what it must refuse with a specific
 * status (a kernel without simd_size or grf_count, a SIMD width of 12, a count past INT32_MAX, a tab, a
 * buffer without a size), and every prefix of a fixture (never a crash).  The launch bound comes from
 * execution_env.required_work_group_size, the zeinfo spec's int32x3 (IGC's zeinfo.md): its x*y*z, as ocloc
 * wrote it for reqd_work_group_size (tests/data/zebin/reqd.cl, quoted below), and the forms YAML allows.
 */
#include "compiled.h"

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v), put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v), put32(p + 4, (uint32_t)(v >> 32));
}

/* An EM_INTELGT ELF with sections .ze_info (`text`, or named `info_name`), .note.intelgt.compat (product
   family `family`) and .shstrtab; returns its size. */
static size_t build_named(uint8_t *out, size_t cap, const char *text, uint32_t family, const char *info_name)
{
    memset(out, 0, cap);
    char strtab[128];
    size_t strtab_len = 0, names[3];
    const char *parts[3] = {info_name, ".note.intelgt.compat", ".shstrtab"};
    strtab[strtab_len++] = 0;
    for (int i = 0; i < 3; i++) {
        names[i] = strtab_len;
        memcpy(strtab + strtab_len, parts[i], strlen(parts[i]) + 1);
        strtab_len += strlen(parts[i]) + 1;
    }
    size_t text_len = strlen(text), at = 64;
    size_t info_at = at;
    memcpy(out + at, text, text_len);
    at += text_len;
    at = (at + 3) & ~(size_t)3;
    size_t note_at = at; /* one note: namesz 8, descsz 4, type 1, "IntelGT\0", the family */
    put32(out + at, 8), put32(out + at + 4, 4), put32(out + at + 8, 1);
    memcpy(out + at + 12, "IntelGT", 8);
    put32(out + at + 20, family);
    at += 24;
    size_t str_at = at;
    memcpy(out + at, strtab, strtab_len);
    at += strtab_len;
    at = (at + 7) & ~(size_t)7;
    size_t shoff = at;
    cr_assert(shoff + 4 * 64 <= cap);
    memcpy(out, "\x7f" "ELF\x02\x01\x01", 7);
    put16(out + 16, 1);   /* ET_REL */
    put16(out + 18, 205); /* EM_INTELGT */
    put32(out + 20, 1);
    put64(out + 0x28, shoff);
    put16(out + 0x34, 64), put16(out + 0x3a, 64), put16(out + 0x3c, 4), put16(out + 0x3e, 3);
    const struct {
        size_t name, type, offset, size;
    } sh[3] = {{names[0], 0xff000011u, info_at, text_len}, {names[1], 7, note_at, 24},
               {names[2], 3, str_at, strtab_len}};
    for (int i = 0; i < 3; i++) {
        uint8_t *h = out + shoff + 64 * (size_t)(i + 1);
        put32(h, (uint32_t)sh[i].name), put32(h + 4, (uint32_t)sh[i].type);
        put64(h + 24, sh[i].offset), put64(h + 32, sh[i].size);
    }
    return shoff + 4 * 64;
}

static size_t build(uint8_t *out, size_t cap, const char *text)
{
    return build_named(out, cap, text, 1270, ".ze_info");
}

/* The kernels of a one-entry file, or the status. */
static int32_t read_all(const uint8_t *p, size_t n, gpuocc_binary_kernel *k, int32_t cap, int32_t *count)
{
    gpuocc_binary_summary s = {.size = sizeof s};
    int32_t rc = gpuocc_binary_scan(p, n, &s);
    if (rc != GPUOCC_OK)
        return rc;
    cr_assert_eq(s.entries, 1);
    gpuocc_binary_kernel_init(&k[0]);
    return gpuocc_binary_read_entry(p, n, 0, NULL, 0, k, cap, count, &s);
}

static const char *name_of(const uint8_t *p, const gpuocc_binary_kernel *k, char *buf, size_t cap)
{
    size_t n = k->name_length < cap - 1 ? (size_t)k->name_length : cap - 1;
    memcpy(buf, p + k->name_offset, n);
    buf[n] = 0;
    return buf;
}

/* tests/data/zebin/kernels_dg2.bin's .ze_info (ocloc 22.43, -device dg2), in part:
     - name: copy     execution_env: grf_count 128, simd_size 32
     - name: reduce   user_attributes: intel_reqd_sub_group_size 16
                      execution_env: barrier_count 1, grf_count 128, simd_size 16, slm_size 4096
   and .note.intelgt.compat: NT_INTELGT_PRODUCT_FAMILY 0x4f6 = 1270 (IGFX_DG2). */
Test(zebin, ocloc_fixture)
{
    size_t n;
    uint8_t *p = load_file(fixture_path("zebin/kernels_dg2.bin"), &n);
    gpuocc_binary_entry info = {.size = sizeof info};
    cr_assert_eq(gpuocc_binary_entry_info(p, n, 0, &info, NULL), GPUOCC_OK);
    cr_expect_eq(info.container, GPUOCC_BINARY_ENTRY_ZEBIN);
    cr_expect_eq(info.stored_bytes, n);
    cr_expect_eq(info.workspace_bytes, 0);
    gpuocc_binary_kernel k[2];
    int32_t count = 0;
    cr_assert_eq(read_all(p, n, k, 2, &count), GPUOCC_OK);
    cr_assert_eq(count, 2);
    char buf[64];
    cr_expect_str_eq(name_of(p, &k[0], buf, sizeof buf), "copy");
    cr_expect_eq(k[0].vendor, GPUOCC_VENDOR_INTEL);
    cr_expect_eq(k[0].sub_group, 32);
    cr_expect_eq(k[0].grf, 128);
    cr_expect_eq(k[0].slm_bytes, 0);
    cr_expect_eq(k[0].barriers, 0);
    cr_expect_eq(k[0].spill_bytes, -1);
    cr_expect_eq(k[0].product_family, 1270);
    cr_expect_eq(k[0].registers, -1);
    cr_expect_str_eq(name_of(p, &k[1], buf, sizeof buf), "reduce");
    cr_expect_eq(k[1].sub_group, 16);
    cr_expect_eq(k[1].slm_bytes, 4096);
    cr_expect_eq(k[1].smem_bytes, 4096);
    cr_expect_eq(k[1].barriers, 1);
    cr_expect_eq(k[0].max_threads_per_block, 0, "no required_work_group_size: no bound");
    cr_expect_eq(k[1].max_threads_per_block, 0);
    /* the record's development layouts (240 bytes, 248 with `linked` and `arch_variant`) are refused */
    static uint64_t old[2 * sizeof(gpuocc_binary_kernel) / 8];
    gpuocc_binary_kernel *first = (gpuocc_binary_kernel *)(void *)old;
    first->size = 240;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, NULL, 0, first, 2, &count, NULL), GPUOCC_ERR_STRUCT_SIZE);
    first->size = 248;
    cr_expect_eq(gpuocc_binary_read_entry(p, n, 0, NULL, 0, first, 2, &count, NULL), GPUOCC_ERR_STRUCT_SIZE);
    free(p);
}

/* tests/data/zebin/reqd_pvc.bin's .ze_info (ocloc 22.43, -device pvc, reqd.cl), in part:
     - name: fixed    user_attributes: reqd_work_group_size: [ 128, 1, 1 ]
                      execution_env: required_work_group_size: [ 128, 1, 1 ], simd_size 32
     - name: tile     user_attributes: reqd_work_group_size: [ 8, 4, 2 ]
                      execution_env: required_work_group_size: [ 8, 4, 2 ], simd_size 32
     - name: hinted   user_attributes: work_group_size_hint: [ 256, 1, 1 ]
                      execution_env: simd_size 32 (no required_work_group_size)
   The bound is x*y*z: 128, 8 x 4 x 2 = 64; a hint is no bound. */
Test(zebin, required_work_group_size_fixture)
{
    size_t n;
    uint8_t *p = load_file(fixture_path("zebin/reqd_pvc.bin"), &n);
    gpuocc_binary_kernel k[3];
    int32_t count = 0;
    cr_assert_eq(read_all(p, n, k, 3, &count), GPUOCC_OK);
    cr_assert_eq(count, 3);
    char buf[16];
    static const char *const names[3] = {"fixed", "tile", "hinted"};
    static const int32_t bounds[3] = {128, 64, 0};
    for (int i = 0; i < 3; i++) {
        cr_expect_str_eq(name_of(p, &k[i], buf, sizeof buf), names[i]);
        cr_expect_eq(k[i].max_threads_per_block, bounds[i], "%s", names[i]);
        cr_expect_eq(k[i].sub_group, 32);
        cr_expect_eq(k[i].product_family, 1271);
    }
    free(p);
}

/* The bound of one kernel whose execution_env holds `env` (lines indented by 6), or the status. */
static int32_t bound_of(const char *env)
{
    static uint8_t buf[4096];
    char text[1024];
    snprintf(text, sizeof text, "kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n"
                                "      grf_count: 128\n%s", env);
    size_t n = build(buf, sizeof buf, text);
    gpuocc_binary_kernel k[2];
    int32_t count = 0, rc = read_all(buf, n, k, 2, &count);
    if (rc != GPUOCC_OK)
        return rc;
    cr_assert_eq(count, 1);
    return k[0].max_threads_per_block;
}

/* required_work_group_size: int32x3, default [0, 0, 0] (zeinfo.md); three sizes exactly, as the compute
   runtime's decoder requires ("wrong size of collection"), all of them positive or all zero (the runtime
   takes x = 0 as none and stops on a zero y or z beside a positive x). */
Test(zebin, required_work_group_size_forms)
{
    static const struct {
        const char *env;
        int32_t want; /* the bound, or a status */
    } cases[] = {
        {"      required_work_group_size: [ 128, 1, 1 ]\n", 128},
        {"      required_work_group_size: [8,4,2]\n", 64},
        {"      required_work_group_size: [ 16, 16, 1 ]   # a comment\n", 256},
        {"      required_work_group_size:\n        - 8\n        - 4\n        - 2\n", 64}, /* block style */
        {"      required_work_group_size:\n      - 8\n      - 4\n      - 2\n      slm_size: 0\n", 64}, /* indentless */
        {"      required_work_group_size: [ 0, 0, 0 ]\n", 0},                                  /* the default: none */
        {"      required_work_group_size: [ 1024, 2097151, 1 ]\n", 2147482624},             /* 1024 x (2^21 - 1) */
        {"      work_group_walk_order_dimensions: [ 0, 1, 2 ]\n", 0},                          /* an order, no bound */
        {"      required_work_group_size: [ 128, 1 ]\n", GPUOCC_ERR_FORMAT},                   /* too few */
        {"      required_work_group_size: [ 128, 1, 1, 1 ]\n", GPUOCC_ERR_FORMAT},             /* too many */
        {"      required_work_group_size: []\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: [ 128, 1, 1, ]\n", GPUOCC_ERR_FORMAT},               /* an empty fourth */
        {"      required_work_group_size: [ 128, , 1 ]\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: [ 128, 0, 1 ]\n", GPUOCC_ERR_FORMAT},                /* zero beside sizes */
        {"      required_work_group_size: [ 0, 1, 1 ]\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: [ 65536, 65536, 1 ]\n", GPUOCC_ERR_FORMAT},          /* 2^32 work-items */
        {"      required_work_group_size: [ 2147483647, 2147483647, 2147483647 ]\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: [ 2147483648, 1, 1 ]\n", GPUOCC_ERR_FORMAT},         /* not an int32 */
        {"      required_work_group_size: [ -128, 1, 1 ]\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: [ [ 128 ], 1, 1 ]\n", GPUOCC_ERR_FORMAT},            /* nested */
        {"      required_work_group_size: [ 128, 1, 1 ] ]\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: [ '128', 1, 1 ]\n", GPUOCC_ERR_FORMAT},              /* a string */
        {"      required_work_group_size: '[ 128, 1, 1 ]'\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: 128\n", GPUOCC_ERR_FORMAT},                          /* a scalar */
        {"      required_work_group_size: { x: 128 }\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size: [ 128,\n          1, 1 ]\n", GPUOCC_ERR_FORMAT},     /* over two lines */
        {"      required_work_group_size:\n", GPUOCC_ERR_FORMAT},                              /* no sizes */
        {"      required_work_group_size:\n        - 128\n        - 1\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        - 8\n        - 4\n        - 2\n        - 1\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        -\n        - 4\n        - 2\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        - - 8\n        - 4\n        - 2\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        - 8\n          - 4\n        - 2\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        - 8\n          4\n        - 2\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        x: 8\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        - x: 8\n", GPUOCC_ERR_FORMAT},
        {"      required_work_group_size:\n        - '8'\n        - 4\n        - 2\n", GPUOCC_ERR_FORMAT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(bound_of(cases[i].env), cases[i].want, "case %zu: %s", i, cases[i].env);
    /* the last of two is read, as for every key of the reader */
    cr_expect_eq(bound_of("      required_work_group_size: [ 0, 0, 0 ]\n      required_work_group_size: [ 4, 1, 1 ]\n"), 4);
    /* the functions' execution_env is no kernel's: its sizes are not read, whatever they are */
    static uint8_t buf[1024];
    size_t n = build(buf, sizeof buf, "functions:\n  - name: f\n    execution_env:\n      simd_size: 16\n"
                                      "      required_work_group_size: [ 64, 1, 1 ]\nkernels:\n");
    gpuocc_binary_kernel k[1];
    int32_t count = 0;
    cr_expect_eq(read_all(buf, n, k, 1, &count), GPUOCC_OK);
    cr_expect_eq(count, 0);
}

/* A note range's place in the notes area, and a zebin whose section headers name such ranges. */
struct range {
    uint64_t offset, size;
};

/* An EM_INTELGT ELF: .ze_info (one kernel "k", grf_count 128, simd_size 16), `notes` IntelGT notes of 24
   bytes (note i NT_INTELGT_PRODUCT_FAMILY = family[i], or of type 2 where family[i] is 0), `headers`
   SHT_NOTE section headers named .note.intelgt.compat, header i naming range[i] of the notes, and
   .shstrtab; *n its size. */
static uint8_t *build_notes(const uint32_t *family, uint32_t notes, const struct range *range, uint32_t headers,
                            size_t *n)
{
    static const char info[] = "kernels:\n  - name: k\n    execution_env:\n      grf_count: 128\n"
                               "      simd_size: 16\n";
    static const char strtab[] = "\0.ze_info\0.note.intelgt.compat\0.shstrtab"; /* names at 1, 10, 31 */
    size_t info_at = 64, notes_at = (info_at + sizeof info - 1 + 3) & ~(size_t)3;
    size_t str_at = notes_at + (size_t)notes * 24, shoff = (str_at + sizeof strtab + 7) & ~(size_t)7;
    uint32_t shnum = headers + 3;
    cr_assert(shnum < 0xff00, "no extended section numbering here");
    *n = shoff + (size_t)shnum * 64;
    uint8_t *out = calloc(*n, 1);
    cr_assert(out);
    memcpy(out, "\x7f" "ELF\x02\x01\x01", 7);
    put16(out + 16, 2);   /* ET_EXEC */
    put16(out + 18, 205); /* EM_INTELGT */
    put32(out + 20, 1);
    put64(out + 0x28, shoff);
    put16(out + 0x34, 64), put16(out + 0x3a, 64), put16(out + 0x3c, (uint16_t)shnum);
    put16(out + 0x3e, (uint16_t)(shnum - 1));
    memcpy(out + info_at, info, sizeof info - 1);
    for (uint32_t i = 0; i < notes; i++) {
        uint8_t *note = out + notes_at + (size_t)i * 24;
        put32(note, 8), put32(note + 4, 4), put32(note + 8, family[i] ? 1 : 2);
        memcpy(note + 12, "IntelGT", 8);
        put32(note + 20, family[i]);
    }
    memcpy(out + str_at, strtab, sizeof strtab);
    uint8_t *h = out + shoff + 64; /* section 1: .ze_info */
    put32(h, 1), put32(h + 4, 0xff000011u), put64(h + 24, info_at), put64(h + 32, sizeof info - 1);
    for (uint32_t i = 0; i < headers; i++) {
        h = out + shoff + 64 * ((size_t)i + 2);
        put32(h, 10), put32(h + 4, 7), put64(h + 24, notes_at + range[i].offset), put64(h + 32, range[i].size);
    }
    h = out + shoff + 64 * ((size_t)shnum - 1);
    put32(h, 31), put32(h + 4, 3), put64(h + 24, str_at), put64(h + 32, sizeof strtab);
    return out;
}

/* The product family a zebin's kernel is read with (a status when it is not read). */
static int64_t family_of(const uint32_t *family, uint32_t notes, const struct range *range, uint32_t headers)
{
    size_t n;
    uint8_t *p = build_notes(family, notes, range, headers, &n);
    gpuocc_binary_kernel k[1];
    int32_t count = 0, rc = read_all(p, n, k, 1, &count);
    char buf[8];
    if (rc == GPUOCC_OK) {
        cr_assert_eq(count, 1);
        cr_expect_str_eq(name_of(p, &k[0], buf, sizeof buf), "k");
        cr_expect_eq(k[0].grf, 128);
        cr_expect_eq(k[0].sub_group, 16);
    }
    free(p);
    return rc == GPUOCC_OK ? (int64_t)k[0].product_family : rc;
}

/* Section headers that all name one note range: read as one header would be, each note walked once.  The
   size is that of no reader that walks the range once per header: 65,000 headers over 400,000 notes (14 MB)
   are 2.6e10 note visits for such a reader, minutes where meson's 30 s timeout stops it, and 400,000 here.
   (The benchmark row `notes` states the speed: tests/bench/bench_notes.c.) */
Test(zebin, many_headers_one_note_range)
{
    enum { HEADERS = 65000, NOTES = 400000 };
    uint32_t *family = malloc(NOTES * sizeof *family);
    struct range *range = malloc(HEADERS * sizeof *range);
    cr_assert(family && range);
    for (uint32_t i = 0; i < NOTES; i++)
        family[i] = i + 1 < NOTES ? 7 : 1270; /* the last note says DG2 */
    for (uint32_t i = 0; i < HEADERS; i++)
        range[i] = (struct range){0, (uint64_t)NOTES * 24};
    cr_expect_eq(family_of(family, NOTES, range, HEADERS), 1270);
    /* headers that name overlapping ranges, each another: refused after bytes as many as the file holds */
    for (uint32_t i = 0; i < HEADERS; i++)
        range[i] = (struct range){(uint64_t)i * 24, (uint64_t)(NOTES - i) * 24};
    cr_expect_eq(family_of(family, NOTES, range, HEADERS), GPUOCC_ERR_FORMAT);
    free(family);
    free(range);
}

/* Which note section gives the product family when several do: the last one that has such a note, whether
   its range was walked before (remembered) or is walked again (forgotten: more than eight ranges since). */
Test(zebin, product_family_of_the_last_note_section)
{
    uint32_t family[12] = {7, 9, 0, 100, 101, 102, 103, 104, 105, 106, 107, 108};
    const struct range a = {0, 24}, c = {24, 24}, none = {48, 24};
    const struct range aca[] = {a, c, a}, cac[] = {c, a, c}, ac_none[] = {a, c, none}, none_a[] = {none, a};
    cr_expect_eq(family_of(family, 12, aca, 3), 7);
    cr_expect_eq(family_of(family, 12, cac, 3), 9);
    cr_expect_eq(family_of(family, 12, ac_none, 3), 9, "a range without the note leaves the family");
    cr_expect_eq(family_of(family, 12, none_a, 2), 7);
    struct range ten[11];
    for (int i = 0; i < 10; i++)
        ten[i] = (struct range){24 * (uint64_t)(i + 2), 24};
    ten[10] = ten[1]; /* a range forgotten since (ten others walked after it): walked again */
    cr_expect_eq(family_of(family, 12, ten, 11), 100);
    ten[10] = ten[9];
    cr_expect_eq(family_of(family, 12, ten, 11), 108);
}

/* Every prefix of a fixture is a status, never a crash (ASan in the sanitized build). */
Test(zebin, every_prefix)
{
    size_t n;
    uint8_t *p = load_file(fixture_path("zebin/kernels_pvc.bin"), &n);
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *q = malloc(cut ? cut : 1);
        memcpy(q, p, cut);
        gpuocc_binary_kernel k[4];
        int32_t count = 0;
        int32_t rc = read_all(q, cut, k, 4, &count);
        cr_expect(rc == GPUOCC_ERR_FORMAT || rc == GPUOCC_ERR_TRUNCATED, "cut %zu: %d", cut, rc);
        free(q);
    }
    free(p);
}

Test(zebin, yaml_subset)
{
    static uint8_t buf[8192];
    const char *text = "---\r\n"
                       "version: '1.20'   # a comment\r\n"
                       "functions:\r\n"
                       "  - name: helper\r\n"
                       "    execution_env:\r\n"
                       "      simd_size: 8\r\n"
                       "kernels:\r\n"
                       "- name: \"first\"\r\n"       /* an indentless sequence, a quoted name */
                       "  user_attributes:\r\n"
                       "    reqd_work_group_size: [64, 1, 1]\r\n"
                       "  execution_env:\r\n"
                       "    simd_size: 16 # SIMD16\r\n"
                       "    grf_count: 256\r\n"
                       "    slm_size: 65536\r\n"
                       "    spill_size: 128\r\n"
                       "    barrier_count: 2\r\n"
                       "    unknown_key: { a: 1 }\r\n"
                       "  per_thread_memory_buffers:\r\n"
                       "  - type: scratch\r\n"
                       "    usage: spill_fill_space\r\n"
                       "    size: 64\r\n"
                       "  - type: scratch\r\n"
                       "    usage: private_space\r\n"
                       "    size: 32\r\n"
                       "    slot: 1\r\n"
                       "  - type: global\r\n"
                       "    usage: private_space\r\n"
                       "    size: 16\r\n"
                       "    is_simt_thread: true\r\n"
                       "- name: second\r\n"
                       "  execution_env:\r\n"
                       "    grf_count: 128\r\n"
                       "    simd_size: 32\r\n"
                       "kernels_misc_info:\r\n"
                       "  - name: first\r\n"
                       "...\r\n";
    size_t n = build(buf, sizeof buf, text);
    gpuocc_binary_kernel k[3];
    int32_t count = 0;
    cr_assert_eq(read_all(buf, n, k, 3, &count), GPUOCC_OK);
    cr_assert_eq(count, 2, "the functions' entry and kernels_misc_info are not kernels");
    char name[32];
    cr_expect_str_eq(name_of(buf, &k[0], name, sizeof name), "first");
    cr_expect_eq(k[0].sub_group, 16);
    cr_expect_eq(k[0].grf, 256);
    cr_expect_eq(k[0].slm_bytes, 65536);
    cr_expect_eq(k[0].spill_bytes, 128);
    cr_expect_eq(k[0].barriers, 2);
    cr_expect_eq(k[0].scratch_per_thread_bytes, 96, "the two scratch buffers, summed");
    cr_expect_eq(k[0].private_bytes, 16);
    cr_expect_eq(k[0].private_per_work_item, 1);
    cr_expect_eq(k[0].max_threads_per_block, 0, "user_attributes' reqd_work_group_size is the source's "
                 "attribute; the runtime's bound is execution_env's");
    cr_expect_str_eq(name_of(buf, &k[1], name, sizeof name), "second");
    cr_expect_eq(k[1].sub_group, 32);
    cr_expect_eq(k[1].scratch_per_thread_bytes, 0);
    cr_expect_eq(k[1].product_family, 1270);
}

Test(zebin, refused)
{
    static uint8_t buf[4096];
    static const struct {
        const char *text;
        int32_t rc;
    } cases[] = {
        {"kernels:\n  - name: a\n    execution_env:\n      grf_count: 128\n", GPUOCC_ERR_FORMAT}, /* no simd_size */
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n", GPUOCC_ERR_FORMAT}, /* no grf_count */
        {"kernels:\n  - execution_env:\n      simd_size: 16\n      grf_count: 128\n", GPUOCC_ERR_FORMAT}, /* no name */
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 12\n      grf_count: 128\n", GPUOCC_ERR_FORMAT},
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 0\n", GPUOCC_ERR_FORMAT},
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "      slm_size: 2147483648\n", GPUOCC_ERR_FORMAT},
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: -16\n      grf_count: 128\n", GPUOCC_ERR_FORMAT},
        {"kernels:\n  - name: a\n    execution_env:\n\tsimd_size: 16\n", GPUOCC_ERR_FORMAT},
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "    per_thread_memory_buffers:\n      - type: scratch\n        usage: single_space\n", GPUOCC_ERR_FORMAT},
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "    per_thread_memory_buffers:\n      - type: texture\n        size: 4\n", GPUOCC_ERR_FORMAT},
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "    per_thread_memory_buffers:\n      - type: global\n        size: 4\n        is_simt_thread: yes\n",
         GPUOCC_ERR_FORMAT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = build(buf, sizeof buf, cases[i].text);
        gpuocc_binary_kernel k[2];
        int32_t count = 0;
        cr_expect_eq(read_all(buf, n, k, 2, &count), cases[i].rc, "case %zu", i);
    }
    /* a NUL inside the text */
    size_t n = build(buf, sizeof buf,
                     "kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n");
    buf[64 + 10] = 0;
    gpuocc_binary_kernel k[2];
    int32_t count = 0;
    cr_expect_eq(read_all(buf, n, k, 2, &count), GPUOCC_ERR_FORMAT);
    /* nesting deeper than the reader's stack */
    char deep[2048] = "kernels:\n";
    for (int d = 0; d < 40; d++) {
        size_t at = strlen(deep);
        snprintf(deep + at, sizeof deep - at, "%*sk%d:\n", 2 * d + 2, "", d);
    }
    n = build(buf, sizeof buf, deep);
    cr_expect_eq(read_all(buf, n, k, 2, &count), GPUOCC_ERR_FORMAT);
    /* an Intel ELF without .ze_info (the patch-token format): unsupported, not a format error */
    n = build_named(buf, sizeof buf, "kernels:\n", 1270, ".zz_info");
    cr_expect_eq(read_all(buf, n, k, 2, &count), GPUOCC_ERR_UNSUPPORTED);
    /* empty kernels: an entry with no kernel */
    n = build(buf, sizeof buf, "version: '1.20'\nkernels:\n");
    cr_expect_eq(read_all(buf, n, k, 2, &count), GPUOCC_OK);
    cr_expect_eq(count, 0);
}

/* The first byte of line `line` (1-based) of `text`. */
static size_t line_start(const char *text, int line)
{
    size_t at = 0;
    for (int l = 1; l < line; l++)
        at += strcspn(text + at, "\n") + 1;
    return at;
}

/* A refused .ze_info names its line in the summary (GPUOCC_BINARY_FAULT_YAML): the line of the value that
   breaks the rules, or the line that opens the kernel or buffer that lacks a required key; fault_offset is
   that line's first byte in the file (build() puts the text at byte 64).  The lines are counted here by hand. */
Test(zebin, refused_names_the_line)
{
    static uint8_t buf[4096];
    static const struct {
        const char *text;
        int line;
    } cases[] = {
        {"kernels:\n  - name: a\n    execution_env:\n      grf_count: 128\n", 2},  /* the kernel lacks simd_size */
        {"version: '1.20'\nkernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n", 3}, /* grf_count */
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "      slm_size: 2147483648\n", 6},                                          /* over INT32_MAX */
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: -16\n      grf_count: 128\n", 4},
        {"kernels:\n  - name: a\n    execution_env:\n\tsimd_size: 16\n", 4},          /* a tab */
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "    per_thread_memory_buffers:\n      - type: scratch\n        usage: single_space\n", 7}, /* no size */
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "    per_thread_memory_buffers:\n      - type: global\n        size: 4\n        is_simt_thread: yes\n", 9},
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "  - name: b\n    execution_env:\n      grf_count: 128\n", 6},            /* the second kernel */
        {"kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n"
         "      required_work_group_size: [ 128, 1 ]\n", 6},                         /* two sizes */
        {"kernels:\n  - name: a\n    execution_env:\n      required_work_group_size:\n        - 8\n"
         "        - 4\n      simd_size: 16\n      grf_count: 128\n", 4},           /* the key of two items */
        {"kernels:\n  - name: a\n    execution_env:\n      required_work_group_size:\n        - 8\n"
         "        - 4\n        - 2\n        - 1\n", 8},                            /* the fourth item */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = build(buf, sizeof buf, cases[i].text);
        gpuocc_binary_summary s = {.size = sizeof s};
        cr_assert_eq(gpuocc_binary_scan(buf, n, &s), GPUOCC_OK);
        gpuocc_binary_kernel k[2];
        gpuocc_binary_kernel_init(&k[0]);
        int32_t count = 0;
        cr_expect_eq(gpuocc_binary_read_entry(buf, n, 0, NULL, 0, k, 2, &count, &s), GPUOCC_ERR_FORMAT, "case %zu", i);
        cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_YAML, "case %zu", i);
        cr_expect_eq(s.fault_value, cases[i].line, "case %zu", i);
        cr_expect_eq(s.fault_offset, (int64_t)(64 + line_start(cases[i].text, cases[i].line)), "case %zu", i);
        cr_expect_eq(s.first_failed_entry, 0);
    }
    /* a NUL inside line 3 */
    const char *text = "kernels:\n  - name: a\n    execution_env:\n      simd_size: 16\n      grf_count: 128\n";
    size_t n = build(buf, sizeof buf, text);
    buf[64 + line_start(text, 3) + 6] = 0;
    gpuocc_binary_summary s = {.size = sizeof s};
    cr_assert_eq(gpuocc_binary_scan(buf, n, &s), GPUOCC_OK);
    gpuocc_binary_kernel k[2];
    gpuocc_binary_kernel_init(&k[0]);
    int32_t count = 0;
    cr_expect_eq(gpuocc_binary_read_entry(buf, n, 0, NULL, 0, k, 2, &count, &s), GPUOCC_ERR_FORMAT);
    cr_expect_eq(s.fault_value, 3);
    /* the same summary after a read that succeeds: the fault fields say nothing */
    n = build(buf, sizeof buf, text);
    cr_expect_eq(gpuocc_binary_read_entry(buf, n, 0, NULL, 0, k, 2, &count, &s), GPUOCC_OK);
    cr_expect_eq(s.fault, GPUOCC_BINARY_FAULT_NONE);
    cr_expect_eq(s.fault_value, 0);
    cr_expect_eq(s.fault_offset, 0);
    cr_expect_eq(s.entries_failed, 1, "the failure still counted");
    cr_expect_eq(s.entries_read, 1);
}
