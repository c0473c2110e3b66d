/* The ptxas report reader, on real ptxas output captured under tests/data (CUDA 13.0, from
   tests/cuda/kernels.cu) and on hand-written older and Windows forms. */
#include "compiled.h"

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

/* A captured log, parsed; every test below starts from one. */
static void parse_fixture(const char *name, struct kernels *ks)
{
    read_log(fixture_path(name), ks);
}

Test(ptxas, cuda13_sm90)
{
    struct kernels log;
    parse_fixture("ptxas_sm90.log", &log);
    cr_expect_eq(log.count, 7);
    /* "Used 64 registers, used 0 barriers" with "56 bytes stack frame, 52 bytes spill stores, 56 bytes spill loads" */
    const gpuocc_compiled_kernel *k = find_kernel(&log, "spilling", 0);
    cr_expect_eq(k->cc, 90);
    cr_expect_eq(k->registers, 64);
    cr_expect_eq(k->barriers, 0);
    cr_expect_eq(k->stack_frame_bytes, 56);
    cr_expect_eq(k->spill_store_bytes, 52);
    cr_expect_eq(k->spill_load_bytes, 56);
    cr_expect_eq(k->name_length, strlen("_Z8spillingPfPKfii"));
    cr_expect_eq(k->cmem_bytes, -1); /* CUDA 13 prints no cmem for sm_90 */
    k = find_kernel(&log, "smem_heavy", 0);
    cr_expect_eq(k->smem_bytes, 32768);
    cr_expect_eq(k->barriers, 1);
    k = find_kernel(&log, "named_barriers", 0);
    cr_expect_eq(k->barriers, 4);
    cr_expect_eq(k->smem_bytes, 1024);
    k = find_kernel(&log, "plain_copy", 0); /* extern "C": the name is its own short name */
    cr_expect_eq(k->registers, 10);
    cr_expect_eq(k->name_offset, k->short_offset);
    free(log.data);
}

/* The target's variant: the letter ending ptxas's "for 'sm_90a'".  tests/data/ptxas_variants.log is ptxas's own
   report (CUDA 13.0, V13.0.88), four compiles of one kernel, k.cu =
     __global__ void axpy(float a, const float *x, float *y, int n)
     { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }
   by `nvcc -arch sm_90 -Xptxas -v -c k.cu`, then -arch sm_90a, sm_100a and sm_100f, their stderr one after the
   other ("Compile time" lines as printed). */

Test(ptxas, arch_variant)
{
    struct kernels report;
    parse_fixture("ptxas_variants.log", &report);
    cr_assert_eq(report.count, 4);
    const gpuocc_compiled_kernel *k = report.k;
    static const struct {
        int32_t cc;
        uint32_t variant;
    } want[] = {{90, 0}, {90, 'a'}, {100, 'a'}, {100, 'f'}};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(k[i].cc, want[i].cc, "record %d", i);
        cr_expect_eq(k[i].arch_variant, want[i].variant, "record %d: %u", i, k[i].arch_variant);
        cr_expect_eq(k[i].registers, 10);
    }
    free(report.data);
    /* the captured logs: every kernel of nvcc -arch=sm_90a's and of ptxas -arch=sm_100a's is 'a', of plain
       sm_90's none (tests/cuda/capture.sh) */
    static const struct {
        const char *file;
        int32_t kernels;
        uint32_t variant;
    } logs[] = {{"ptxas_setmaxnreg.log", 4, 'a'}, {"ptxas_tcgen05.log", 4, 'a'}, {"ptxas_sm90.log", 7, 0}};
    for (size_t f = 0; f < sizeof logs / sizeof logs[0]; f++) {
        struct kernels log;
        parse_fixture(logs[f].file, &log);
        cr_expect_eq(log.count, logs[f].kernels, "%s", logs[f].file);
        for (int32_t i = 0; i < log.count; i++)
            cr_expect_eq(log.k[i].arch_variant, logs[f].variant, "%s: record %d", logs[f].file, i);
        free(log.data);
    }
    /* only a last 'a' or 'f' is a variant: a name without digits, another letter, a letter before the end */
    static const char *const odd[] = {"sm_a", "sm_90b", "sm_90af", "sm_9a0", "sm_90a "};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        char text[160];
        int n = snprintf(text, sizeof text, "ptxas info    : Compiling entry function 'k' for '%s'\n"
                                            "ptxas info    : Used 8 registers, used 0 barriers\n", odd[i]);
        gpuocc_compiled_kernel one;
        int32_t count = 0, line = -1;
        cr_assert_eq(gpuocc_ptxas_parse(text, (size_t)n, &one, 1, &count, &line), GPUOCC_OK, "%s", odd[i]);
        cr_expect_eq(one.arch_variant, 0, "%s", odd[i]);
    }
}

Test(ptxas, cmem_on_turing)
{
    struct kernels log;
    parse_fixture("ptxas_sm75.log", &log);
    const gpuocc_compiled_kernel *k = find_kernel(&log, "dynamic_smem", 0);
    cr_expect_eq(k->cc, 75);
    cr_expect_eq(k->registers, 10); /* "Used 10 registers, used 1 barriers, 360 bytes cmem[0]" */
    cr_expect_eq(k->cmem_bytes, 360);
    free(log.data);
}

Test(ptxas, several_targets)
{
    struct kernels log;
    parse_fixture("ptxas_multi.log", &log);
    cr_expect_eq(log.count, 13); /* 7 kernels for sm_90, 6 for sm_80 (the cluster kernel needs sm_90) */
    int at80 = 0, at90 = 0;
    for (int32_t i = 0; i < log.count; i++)
        at80 += log.k[i].cc == 80, at90 += log.k[i].cc == 90;
    cr_expect_eq(at80, 6);
    cr_expect_eq(at90, 7);
    /* too small an array: the count still comes back */
    gpuocc_compiled_kernel three[3];
    int32_t count = 0, line = -1;
    cr_expect_eq(gpuocc_ptxas_parse((const char *)log.data, log.n, three, 3, &count, &line), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 13);
    free(log.data);
}

Test(ptxas, older_forms_and_demangling)
{
    struct kernels log;
    parse_fixture("ptxas_old.log", &log);
    const char *text = (const char *)log.data;
    const gpuocc_compiled_kernel *ks = log.k;
    cr_assert_eq(log.count, 2);
    cr_expect_eq(ks[0].short_length, strlen("softmax_forward_kernel7"));
    cr_expect_eq(memcmp(text + ks[0].short_offset, "softmax_forward_kernel7", ks[0].short_length), 0);
    cr_expect_eq(ks[0].registers, 64);
    cr_expect_eq(ks[0].smem_bytes, 16384);
    cr_expect_eq(ks[0].cmem_bytes, 380);
    cr_expect_eq(ks[0].barriers, -1);
    cr_expect_eq(ks[0].spill_store_bytes, 40);
    cr_expect_eq(ks[0].cc, 70);
    cr_expect_eq(ks[1].smem_bytes, 24); /* "8+16 bytes smem" */
    cr_expect_eq(ks[1].lmem_bytes, 24);
    cr_expect_eq(ks[1].cmem_bytes, 88);
    cr_expect_eq(ks[1].line, 8);
    /* what a log does not print is unknown (-1), not zero: 'legacy' has no properties line, the
       softmax kernel no lmem; ptxas never reports launch bounds */
    cr_expect_eq(ks[1].stack_frame_bytes, -1);
    cr_expect_eq(ks[1].spill_store_bytes, -1);
    cr_expect_eq(ks[1].spill_load_bytes, -1);
    cr_expect_eq(ks[0].lmem_bytes, -1);
    cr_expect_eq(ks[0].max_regs_per_thread, -1);
    cr_expect_eq(ks[0].max_threads_per_block, 0);
    free(log.data);
}

Test(ptxas, windows_line_endings)
{
    struct kernels log;
    parse_fixture("ptxas_crlf.log", &log);
    cr_assert_eq(log.count, 1);
    cr_expect_eq(log.k[0].registers, 255);
    cr_expect_eq(log.k[0].barriers, 16);
    cr_expect_eq(log.k[0].stack_frame_bytes, 8);
    cr_expect_eq(log.k[0].name_length, 3);
    free(log.data);
}

Test(ptxas, manglings_that_are_not_plain_stay_whole)
{
    /* a length longer than the name, a huge length, a nested (N...E) name: the whole name is kept */
    const char *names[] = {"_Z9short", "_Z99999999999999999999999999999999k", "_ZN2ns6kernelEPf"};
    for (size_t i = 0; i < 3; i++) {
        char text[256];
        snprintf(text, sizeof text, "ptxas info    : Compiling entry function '%s' for 'sm_80'\n"
                                    "ptxas info    : Used 8 registers\n", names[i]);
        gpuocc_compiled_kernel k;
        int32_t count = 0, line = 0;
        cr_assert_eq(gpuocc_ptxas_parse(text, strlen(text), &k, 1, &count, &line), GPUOCC_OK);
        cr_expect_eq(k.short_offset, k.name_offset, "%s", names[i]);
        cr_expect_eq(k.short_length, strlen(names[i]), "%s", names[i]);
    }
}

Test(ptxas, template_instances_keep_their_whole_names)
{
    /* nvcc 13.0 -arch=sm_90 -Xptxas -v on `template <int N> __global__ void tmpl(float *)` instantiated for 3
       and 40 (the log as ptxas printed it, compile times dropped): "tmpl" alone would name both rows alike */
    const char *text = "ptxas info    : Compiling entry function '_Z4tmplILi40EEvPf' for 'sm_90'\n"
                       "ptxas info    : Function properties for _Z4tmplILi40EEvPf\n"
                       "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                       "ptxas info    : Used 32 registers, used 0 barriers\n"
                       "ptxas info    : Compiling entry function '_Z4tmplILi3EEvPf' for 'sm_90'\n"
                       "ptxas info    : Function properties for _Z4tmplILi3EEvPf\n"
                       "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                       "ptxas info    : Used 12 registers, used 0 barriers\n";
    gpuocc_compiled_kernel ks[2];
    int32_t count = 0, line = 0;
    cr_assert_eq(gpuocc_ptxas_parse(text, strlen(text), ks, 2, &count, &line), GPUOCC_OK);
    cr_assert_eq(count, 2);
    const char *names[] = {"_Z4tmplILi40EEvPf", "_Z4tmplILi3EEvPf"};
    for (int i = 0; i < 2; i++) {
        cr_expect_eq(ks[i].short_length, strlen(names[i]), "%s", names[i]);
        cr_expect_eq(memcmp(text + ks[i].short_offset, names[i], strlen(names[i])), 0, "%s", names[i]);
    }
    cr_expect_eq(ks[0].registers, 32);
    cr_expect_eq(ks[1].registers, 12);
}

Test(ptxas, errors_name_the_line)
{
    gpuocc_compiled_kernel ks[2];
    int32_t count = 77, line = -1;
    const char *truncated = "noise\nptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Function properties for k\n";
    cr_expect_eq(gpuocc_ptxas_parse(truncated, strlen(truncated), ks, 2, &count, &line), GPUOCC_ERR_TRUNCATED);
    cr_expect_eq(line, 2);
    cr_expect_eq(count, 77, "no count reported on failure");
    const char *bad = "ptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Used many registers\n";
    cr_expect_eq(gpuocc_ptxas_parse(bad, strlen(bad), ks, 2, &count, &line), GPUOCC_ERR_PARSE);
    cr_expect_eq(line, 2);
    const char *bad_props = "ptxas info    : Function properties for k\n    x bytes stack frame\n";
    cr_expect_eq(gpuocc_ptxas_parse(bad_props, strlen(bad_props), ks, 2, &count, &line), GPUOCC_ERR_PARSE);
    cr_expect_eq(line, 2);
    const char *huge = "ptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Used 99999999999999999999999 registers\n";
    cr_expect_eq(gpuocc_ptxas_parse(huge, strlen(huge), ks, 2, &count, &line), GPUOCC_ERR_PARSE);
    cr_expect_eq(gpuocc_ptxas_parse("", 0, ks, 2, &count, &line), GPUOCC_OK);
    cr_expect_eq(count, 0);
    cr_expect_eq(gpuocc_ptxas_parse(NULL, 0, ks, 2, &count, &line), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_ptxas_parse("x", 1, NULL, 2, &count, &line), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_ptxas_parse("x", 1, ks, -1, &count, &line), GPUOCC_ERR_ARGUMENT);
}

Test(ptxas, feeds_the_engine)
{
    /* spilling on H100 at 256 threads: 64 regs -> 2048 per warp -> 8 per sub-partition -> 4 blocks */
    struct kernels log;
    parse_fixture("ptxas_sm90.log", &log);
    const gpuocc_compiled_kernel *k = find_kernel(&log, "spilling", 90);
    gpuocc_device d = test_device("sm_90");
    gpuocc_kernel kern = test_kernel(256, k->registers, k->smem_bytes, 0);
    cr_expect_eq(test_occupancy(&d, &kern).blocks_per_sm, 4);
    free(log.data);
}

/* A build log longer than the reader's stack stash (32 records): the fixture repeated.  Record 7r+j is
   record j of the fixture, its offsets moved by r copies and its line by r times the fixture's lines. */
#define REPEATS 10
static char *repeated_log(const char *name, size_t *n, size_t *one, int32_t *lines)
{
    size_t size;
    uint8_t *part = load_file(fixture_path(name), &size);
    char *log = malloc(size * REPEATS + 256); /* room for a tail */
    cr_assert(log);
    for (int r = 0; r < REPEATS; r++)
        memcpy(log + (size_t)r * size, part, size);
    *lines = 0;
    for (size_t i = 0; i < size; i++)
        *lines += part[i] == '\n';
    free(part);
    *n = size * REPEATS, *one = size;
    return log;
}

Test(ptxas, long_logs_past_the_stash)
{
    struct kernels single;
    parse_fixture("ptxas_sm90.log", &single);
    cr_assert_eq(single.count, 7);
    size_t n, one;
    int32_t lines;
    char *log = repeated_log("ptxas_sm90.log", &n, &one, &lines);
    static gpuocc_compiled_kernel ks[7 * REPEATS + 5];
    int32_t count = -1, line = -1;
    for (int32_t capacity = 0; capacity <= 7 * REPEATS + 5; capacity += capacity < 40 ? 1 : 7) {
        memset(ks, 0xA5, sizeof ks);
        int32_t rc = gpuocc_ptxas_parse(log, n, ks, capacity, &count, &line);
        cr_assert_eq(rc, capacity >= 7 * REPEATS ? GPUOCC_OK : GPUOCC_ERR_BUFFER, "capacity %d", capacity);
        cr_assert_eq(count, 7 * REPEATS);
        for (int32_t i = 0; i < 7 * REPEATS + 5; i++) {
            if (i >= capacity || i >= count) {
                const unsigned char *b = (const unsigned char *)&ks[i];
                for (size_t j = 0; j < sizeof ks[i]; j++)
                    cr_assert_eq(b[j], 0xA5, "capacity %d: record %d written", capacity, i);
                continue;
            }
            gpuocc_compiled_kernel want = single.k[i % 7];
            uint64_t shift = (uint64_t)(i / 7) * one;
            want.name_offset += shift, want.short_offset += shift;
            want.line += (i / 7) * lines;
            cr_assert_eq(memcmp(&ks[i], &want, sizeof want), 0, "capacity %d: record %d", capacity, i);
        }
    }
    /* by hand from the log: the spilling kernel's report, in its ninth copy (record 59) */
    cr_expect_eq(ks[59].registers, 64);
    cr_expect_eq(ks[59].stack_frame_bytes, 56);
    cr_expect_eq(ks[59].spill_store_bytes, 52);
    cr_expect_eq(ks[59].spill_load_bytes, 56);
    cr_expect_eq(ks[59].name_length, strlen("_Z8spillingPfPKfii"));
    cr_expect_eq(memcmp(log + ks[59].name_offset, "_Z8spillingPfPKfii", ks[59].name_length), 0);
    free(log);
    free(single.data);
}

/* An error after many kernels: nothing written, whatever the capacity (the stash filled or not). */
Test(ptxas, long_logs_fail_untouched)
{
    size_t n, one;
    int32_t lines;
    char *log = repeated_log("ptxas_sm90.log", &n, &one, &lines);
    const char *tails[] = {
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Used many registers\n",
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\n",
        "ptxas info    : Function properties for k\n    x bytes stack frame\n",
    };
    const int32_t rcs[] = {GPUOCC_ERR_PARSE, GPUOCC_ERR_TRUNCATED, GPUOCC_ERR_PARSE};
    const int32_t at[] = {lines * REPEATS + 2, lines * REPEATS + 1, lines * REPEATS + 2};
    static gpuocc_compiled_kernel ks[100], before[100];
    for (int t = 0; t < 3; t++) {
        memcpy(log + n, tails[t], strlen(tails[t]));
        const int32_t capacities[] = {0, 5, 32, 33, 69, 100};
        for (int c = 0; c < 6; c++) {
            memset(ks, 0xA5, sizeof ks);
            memcpy(before, ks, sizeof ks);
            int32_t count = -7, line = -7;
            int32_t rc = gpuocc_ptxas_parse(log, n + strlen(tails[t]), ks, capacities[c], &count, &line);
            cr_expect_eq(rc, rcs[t], "tail %d capacity %d", t, capacities[c]);
            cr_expect_eq(line, at[t], "tail %d capacity %d", t, capacities[c]);
            cr_expect_eq(count, -7);
            cr_expect_eq(memcmp(ks, before, sizeof ks), 0, "tail %d capacity %d: records written", t, capacities[c]);
        }
    }
    free(log);
}

/* The Used and properties lines with other spacing than ptxas prints (tabs, several spaces, spaces before a
   comma, none after it): read as the plain form is.  Values by hand from the text. */
Test(ptxas, other_spacing_reads_the_same)
{
    const char *text = "ptxas info    : Compiling entry function 'GBG' for 'sm_86'\n"
                       "ptxas info    : Function properties for GBG\n"
                       "\t16 \tbytes stack frame ,  8  bytes spill stores\t,\t4 bytes spill loads\n"
                       "ptxas info    : Used 40\tregisters ,used 2  barriers,\t512 bytes smem ,  8+16  bytes cmem[0]\n"
                       "ptxas info    : Compiling entry function 'k2' for 'sm_86'\n"
                       "ptxas info    : Function properties for k2\n"
                       "    12 bytes stack frame, 34 bytes spill stores , 56 bytes spill loads\n"
                       "ptxas info    : Used 7 registers,  used 3 barriers, 9 bytes lmem \r\n";
    gpuocc_compiled_kernel k[2];
    int32_t count = 0, line = -1;
    cr_assert_eq(gpuocc_ptxas_parse(text, strlen(text), k, 2, &count, &line), GPUOCC_OK);
    cr_assert_eq(count, 2);
    cr_expect_eq(k[0].cc, 86);
    cr_expect_eq(k[0].name_offset, strlen("ptxas info    : Compiling entry function '"));
    cr_expect_eq(k[0].name_length, 3); /* "GBG": B and G are no phrase's first letter */
    cr_expect_eq(k[0].registers, 40);
    cr_expect_eq(k[0].barriers, 2);
    cr_expect_eq(k[0].smem_bytes, 512);
    cr_expect_eq(k[0].cmem_bytes, 24);
    cr_expect_eq(k[0].lmem_bytes, -1);
    cr_expect_eq(k[0].stack_frame_bytes, 16);
    cr_expect_eq(k[0].spill_store_bytes, 8);
    cr_expect_eq(k[0].spill_load_bytes, 4);
    cr_expect_eq(k[0].line, 4);
    cr_expect_eq(k[1].registers, 7);
    cr_expect_eq(k[1].barriers, 3);
    cr_expect_eq(k[1].smem_bytes, 0);
    cr_expect_eq(k[1].cmem_bytes, -1);
    cr_expect_eq(k[1].lmem_bytes, 9);
    cr_expect_eq(k[1].stack_frame_bytes, 12);
    cr_expect_eq(k[1].spill_store_bytes, 34);
    cr_expect_eq(k[1].spill_load_bytes, 56);
    cr_expect_eq(k[1].line, 8);
}

/* "a+b" sums: four terms of 2305843009213693949 (the largest a term may be: each digit is added while the
   value so far is at most (2^63 - 1) / 4 - 9, over ten) make 9223372036854775796 <= 2^63 - 1; a fifth passes
   INT64_MAX: a parse error, never a wrapped value. */
Test(ptxas, sums_past_int64_are_errors)
{
    const char *head = "ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Used 8 registers, ";
    const char *term = "2305843009213693949";
    char text[512];
    gpuocc_compiled_kernel k;
    for (int terms = 1; terms <= 5; terms++) {
        size_t n = (size_t)snprintf(text, sizeof text, "%s", head);
        for (int t = 0; t < terms; t++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", t ? "+" : "", term);
        n += (size_t)snprintf(text + n, sizeof text - n, " bytes smem\n");
        int32_t count = 0, line = -1;
        int32_t rc = gpuocc_ptxas_parse(text, n, &k, 1, &count, &line);
        if (terms < 5) {
            cr_assert_eq(rc, GPUOCC_OK, "%d terms", terms);
            cr_expect_eq(k.smem_bytes, 2305843009213693949LL * terms, "%d terms", terms);
        } else {
            cr_expect_eq(rc, GPUOCC_ERR_PARSE);
            cr_expect_eq(line, 2);
        }
    }
    /* a term of twenty digits is too large alone */
    snprintf(text, sizeof text, "%s23058430092136939490 bytes smem\n", head);
    int32_t count = 0, line = -1;
    cr_expect_eq(gpuocc_ptxas_parse(text, strlen(text), &k, 1, &count, &line), GPUOCC_ERR_PARSE);
}

/* The reader looks at the text sixty-four bytes at a time, the last few a byte at a time: the same kernel
   wherever its phrases fall against those blocks, after a noise line of 0 to 150 bytes, with and without a
   final line end.  Offsets and lines by hand: the name starts 42 bytes into its line. */
Test(ptxas, phrases_anywhere_against_the_blocks)
{
    const char *report = "ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90a'\n"
                         "ptxas info    : Function properties for _Z3fooPf\n"
                         "    24 bytes stack frame, 8 bytes spill stores, 16 bytes spill loads\n"
                         "ptxas info    : Used 33 registers, used 1 barriers, 4096 bytes smem";
    char text[512];
    for (size_t pad = 0; pad <= 150; pad++) {
        for (int end = 0; end < 2; end++) {
            memset(text, 'x', pad);
            text[pad] = '\n';
            size_t n = pad + 1 + (size_t)snprintf(text + pad + 1, sizeof text - pad - 1, "%s%s", report, end ? "\n" : "");
            gpuocc_compiled_kernel k;
            int32_t count = 0, line = -1;
            cr_assert_eq(gpuocc_ptxas_parse(text, n, &k, 1, &count, &line), GPUOCC_OK, "pad %zu", pad);
            cr_assert_eq(count, 1, "pad %zu", pad);
            cr_expect_eq(k.name_offset, pad + 1 + 42, "pad %zu", pad);
            cr_expect_eq(k.name_length, 8);
            cr_expect_eq(k.short_offset, pad + 1 + 42 + 3, "pad %zu", pad); /* "_Z3" (3 bytes), then "foo" */
            cr_expect_eq(k.short_length, 3);
            cr_expect_eq(k.cc, 90);
            cr_expect_eq(k.registers, 33, "pad %zu", pad);
            cr_expect_eq(k.barriers, 1);
            cr_expect_eq(k.smem_bytes, 4096, "pad %zu end %d", pad, end);
            cr_expect_eq(k.stack_frame_bytes, 24, "pad %zu", pad);
            cr_expect_eq(k.spill_store_bytes, 8);
            cr_expect_eq(k.spill_load_bytes, 16);
            cr_expect_eq(k.line, 5, "pad %zu", pad);
        }
    }
}
