/*
 * Compiles tests/cuda/kernels.cu and a generated set of __launch_bounds__ kernels with the nvcc found at
 * configure time, for every target it supports among sm_75 .. sm_120, and checks that
 *  - the ptxas report and the fatbinary agree kernel by kernel (tests/compiled.h), and
 *  - the register cap ptxas derives from __launch_bounds__(T, B) equals gpuocc_regs_max_for_blocks(T, B)
 *    (ptxas's register allocation rule against the engine's), and the cubin reader turns the cap back
 *    into at least B blocks.
 * Every test is skipped when nvcc is absent.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, popen */
#include "compiled.h"

#include <stdlib.h>
#include <unistd.h>

#ifndef NVCC
static void cleanup(void)
{
}
#else
static const int32_t wanted_targets[] = {75, 80, 86, 89, 90, 100, 120};
/* (threads, min blocks) pairs; each fits every target above (at most 1024 threads and 16 blocks per SM). */
static const int32_t bounds[][2] = {{32, 1},  {32, 16},  {64, 8},  {64, 16}, {96, 5},  {128, 3}, {128, 6},
                                    {160, 4}, {192, 2},  {224, 3}, {256, 1}, {256, 3}, {288, 3}, {320, 2},
                                    {384, 2}, {480, 2},  {512, 2}, {640, 1}, {768, 1}, {1024, 1}};

struct workspace {
    char dir[256];
    char targets[512]; /* -gencode options */
    int32_t target_count;
    int32_t kernels_expected; /* in kernels.cu over those targets */
};

static void run(const char *command)
{
    int status = system(command);
    cr_assert_eq(status, 0, "failed (%d): %s", status, command);
}

static void prepare(struct workspace *w)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(w->dir, sizeof w->dir, "%s/gpuocc-nvcc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert(mkdtemp(w->dir), "mkdtemp %s", w->dir);
    /* the targets this nvcc can compile for */
    char command[1024], line[64];
    snprintf(command, sizeof command, "'%s' --list-gpu-code", NVCC);
    FILE *p = popen(command, "r");
    cr_assert(p, "%s", command);
    bool listed[sizeof wanted_targets / sizeof wanted_targets[0]] = {false};
    while (fgets(line, sizeof line, p))
        for (size_t i = 0; i < sizeof wanted_targets / sizeof wanted_targets[0]; i++) {
            char name[16];
            snprintf(name, sizeof name, "sm_%d\n", wanted_targets[i]);
            listed[i] |= strcmp(line, name) == 0;
        }
    pclose(p);
    w->targets[0] = '\0';
    w->target_count = w->kernels_expected = 0;
    for (size_t i = 0; i < sizeof wanted_targets / sizeof wanted_targets[0]; i++) {
        if (!listed[i])
            continue;
        size_t used = strlen(w->targets);
        snprintf(w->targets + used, sizeof w->targets - used, " -gencode arch=compute_%d,code=sm_%d",
                 wanted_targets[i], wanted_targets[i]);
        w->target_count++;
        w->kernels_expected += wanted_targets[i] >= 90 ? 7 : 6;
    }
    cr_assert(w->target_count > 0, "nvcc lists none of sm_75 .. sm_120");
}

static struct workspace workspace; /* one test at a time: Criterion runs each in its own process */

/* Criterion's .fini: runs after the test, failed or not. */
static void cleanup(void)
{
    if (!workspace.dir[0])
        return;
    char command[512];
    snprintf(command, sizeof command, "rm -rf '%s'", workspace.dir);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", workspace.dir);
}

/* nvcc `mode` ("-fatbin", "-c", or "" for an executable) for every target: `sources` (quoted paths) to
   <dir>/<out>, ptxas's report to <dir>/<out>.log. */
static void compile(const struct workspace *w, const char *mode, const char *sources, const char *extra, const char *out)
{
    char command[4096];
    int n = snprintf(command, sizeof command, "'%s' %s -no-compress %s %s -Xptxas -v %s -o '%s/%s' 2> '%s/%s.log'",
                     NVCC, mode, w->targets, extra, sources, w->dir, out, w->dir, out);
    cr_assert(n > 0 && (size_t)n < sizeof command);
    run(command);
}

/* A new file in the workspace; *path gets its quoted path. */
static FILE *create(const struct workspace *w, const char *name, char *quoted, size_t cap)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", w->dir, name);
    snprintf(quoted, cap, "'%s'", path);
    FILE *f = fopen(path, "w");
    cr_assert(f, "create %s", path);
    return f;
}

/* <dir>/<out>.log and <dir>/<out>, which must agree. */
static void read_and_compare(const struct workspace *w, const char *out, struct kernels *log, struct kernels *bin)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.log", w->dir, out);
    read_log(path, log);
    snprintf(path, sizeof path, "%s/%s", w->dir, out);
    read_binary(path, bin);
    expect_agreement(log, bin, out);
}

/* compile(), then read_and_compare() and expect `kernels` kernels in the binary. */
static void expect_compiled_agree(const struct workspace *w, const char *mode, const char *sources, const char *extra,
                                  const char *out, int32_t kernels)
{
    compile(w, mode, sources, extra, out);
    struct kernels log, bin;
    read_and_compare(w, out, &log, &bin);
    cr_expect_eq(bin.count, kernels, "%s: %d kernels, expected %d", out, bin.count, kernels);
    free(log.data);
    free(bin.data);
}
#endif

Test(nvcc, corpus_kernels_agree, .timeout = 600, .fini = cleanup)
{
#ifndef NVCC
    cr_skip_test("nvcc not found at configure time");
#else
    struct workspace *w = &workspace;
    prepare(w);
    /* 7 kernels per target, 6 below sm_90 (no cluster kernel) */
    expect_compiled_agree(w, "-fatbin", "'" KERNELS_CU "'", "-maxrregcount=64", "kernels.fatbin", w->kernels_expected);
#endif
}

Test(nvcc, host_executable_of_two_units, .timeout = 600, .fini = cleanup)
{
#ifndef NVCC
    cr_skip_test("nvcc not found at configure time");
#else
    /* an executable embeds one fatbinary per translation unit in .nv_fatbin */
    struct workspace *w = &workspace;
    prepare(w);
    char main_cu[1100], sources[2048];
    FILE *f = create(w, "main.cu", main_cu, sizeof main_cu);
    fprintf(f, "extern \"C\" __global__ void second_unit(float *o) { o[threadIdx.x] = 7.0f; }\n"
               "int main(void) { return 0; }\n");
    fclose(f);
    snprintf(sources, sizeof sources, "'%s' %s", UNITS_CU, main_cu);
    /* unit_add, unit_bounded and second_unit per target */
    expect_compiled_agree(w, "", sources, "", "exe", 3 * w->target_count);
#endif
}

Test(nvcc, relocatable_device_code_object, .timeout = 600, .fini = cleanup)
{
#ifndef NVCC
    cr_skip_test("nvcc not found at configure time");
#else
    /* -rdc=true objects keep relocatable cubins in __nv_relfatbin */
    struct workspace *w = &workspace;
    prepare(w);
    expect_compiled_agree(w, "-rdc=true -c", "'" KERNELS_CU "'", "", "rdc.o", w->kernels_expected);
#endif
}

Test(nvcc, launch_bounds_caps_match_the_engine, .timeout = 600, .fini = cleanup)
{
#ifndef NVCC
    cr_skip_test("nvcc not found at configure time");
#else
    struct workspace *w = &workspace;
    prepare(w);
    char source[1100];
    FILE *f = create(w, "bounds.cu", source, sizeof source);
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        fprintf(f, "extern \"C\" __global__ void __launch_bounds__(%d, %d) bounds_%d_%d(float *o)\n"
                   "{ o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n",
                bounds[i][0], bounds[i][1], bounds[i][0], bounds[i][1]);
    fclose(f);
    compile(w, "-fatbin", source, "", "bounds.fatbin");
    struct kernels log, bin;
    read_and_compare(w, "bounds.fatbin", &log, &bin);
    cr_expect_eq(bin.count, (int32_t)(sizeof bounds / sizeof bounds[0]) * w->target_count);
    for (int32_t i = 0; i < bin.count; i++) {
        const gpuocc_compiled_kernel *k = &bin.k[i];
        int threads, blocks;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)k->name_length, (const char *)bin.data + k->name_offset);
        cr_assert_eq(sscanf(name, "bounds_%d_%d", &threads, &blocks), 2, "%s", name);
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d", k->cc);
        gpuocc_device d = test_device(arch);
        gpuocc_kernel kern = test_kernel(threads, 0, k->smem_bytes, 0);
        kern.barriers = k->barriers;
        int32_t regs = 0;
        cr_expect_eq(gpuocc_regs_max_for_blocks(&d, &kern, blocks, &regs), GPUOCC_OK, "%s %s", arch, name);
        cr_expect_eq(k->max_regs_per_thread, regs, "%s %s: ptxas capped at %d, the engine allows %d", arch, name,
                     k->max_regs_per_thread, regs);
        cr_expect_eq(k->max_threads_per_block, threads, "%s %s", arch, name);
        cr_expect_geq(k->min_blocks_per_sm, blocks, "%s %s", arch, name);
    }
    free(log.data);
    free(bin.data);
#endif
}

#ifdef NVCC
/* kernels.cu as a host object with `flags` (no -no-compress added), for three targets. */
static void compile_object(const struct workspace *w, const char *flags, const char *out)
{
    char command[4096];
    int n = snprintf(command, sizeof command,
                     "'%s' -c %s -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 "
                     "-gencode arch=compute_120,code=sm_120 -Xptxas -v '%s' -o '%s/%s' 2> '%s/%s.log'",
                     NVCC, flags, KERNELS_CU, w->dir, out, w->dir, out);
    cr_assert(n > 0 && (size_t)n < sizeof command);
    run(command);
}

static void read_object(const struct workspace *w, const char *out, struct kernels *k, gpuocc_binary_summary *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", w->dir, out);
    size_t n;
    uint8_t *file = load_file(path, &n);
    read_entries(file, n, k, s);
    free(file);
    cr_assert_eq(s->entries_failed, 0, "%s: %d entries failed (first: %d)", out, s->entries_failed, s->first_failure);
}

/* CUDA 13's compression modes (zstd by default for -rdc, =size, -compress-all; LZ4 with =speed and
   -compress-all) give the records of the -no-compress build, which equal ptxas's report. */
Test(nvcc, compressed_builds_read_like_uncompressed, .timeout = 1200, .fini = cleanup)
{
    prepare(&workspace);
    static const struct {
        const char *flags, *out, *reference;
        bool compressed;
    } builds[] = {
        {"-no-compress", "plain.o", NULL, false},
        {"", "default.o", "plain.o", false},
        {"--compress-mode=size", "size.o", "plain.o", true},
        {"-Xfatbin=-compress-all", "all.o", "plain.o", true},
        {"--compress-mode=speed -Xfatbin=-compress-all", "lz4.o", "plain.o", true},
        {"-rdc=true -no-compress", "rdc_plain.o", NULL, false},
        {"-rdc=true", "rdc.o", "rdc_plain.o", true},
    };
    struct kernels read[sizeof builds / sizeof builds[0]];
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
        compile_object(&workspace, builds[i].flags, builds[i].out);
        gpuocc_binary_summary s;
        read_object(&workspace, builds[i].out, &read[i], &s);
        cr_expect_eq(s.entries, 3, "%s", builds[i].out);
        if (builds[i].compressed)
            cr_expect_eq(s.compressed_entries, 3, "%s: compressed entries", builds[i].out);
        if (!builds[i].reference) {
            /* the uncompressed builds against ptxas's own report of the same compile */
            char path[1024];
            snprintf(path, sizeof path, "%s/%s.log", workspace.dir, builds[i].out);
            struct kernels log;
            read_log(path, &log);
            expect_agreement(&log, &read[i], builds[i].out);
            free(log.data);
            continue;
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(builds[j].out, builds[i].reference))
                expect_same_records(&read[i], &read[j], builds[i].out);
    }
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++)
        free(read[i].data);
}
#endif
