/*
 * Speed, as ratios against a reference run in the same process on the same inputs:
 *  - gpuocc_occupancy against cudaOccMaxActiveBlocksPerMultiprocessor from the CUDA toolkit's
 *    cuda_occupancy.h (when it is installed), on the same random launches for several architectures;
 *  - the ptxas and cubin readers against one memchr pass over the same bytes (the cost of merely
 *    looking at every byte once).
 * Run with `meson test --benchmark` (or `ninja benchmark`); it prints, it does not judge.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "gpuocc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef GPUOCC_HAVE_CUDA_OCCUPANCY
#include "../oracle/bridge.h"
#endif

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The best of a few timed repetitions of fn(arg), in seconds per repetition. */
static double best_time(void (*fn)(void *), void *arg, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        fn(arg);
        double t = now_s() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

static volatile long sink; /* keeps the work from being optimized away */

#ifdef GPUOCC_HAVE_CUDA_OCCUPANCY
#define LAUNCHES 20000

struct occupancy_run {
    gpuocc_device dev;
    gpuocc_kernel kernels[LAUNCHES];
    cudaOccDeviceProp prop;
    cudaOccFuncAttributes attrs[LAUNCHES];
    cudaOccDeviceState states[LAUNCHES];
};

static void run_gpuocc(void *p)
{
    struct occupancy_run *o = p;
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_result r = {.size = sizeof r};
        gpuocc_occupancy(&o->dev, &o->kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

static void run_nvidia(void *p)
{
    struct occupancy_run *o = p;
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        cudaOccResult r = {0};
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &o->prop, &o->attrs[i], &o->states[i],
                                                o->kernels[i].threads_per_block,
                                                (size_t)o->kernels[i].smem_dynamic_bytes);
        total += r.activeBlocksPerMultiprocessor;
    }
    sink = total;
}

/* The same launches as columns, for the batch call on a prepared device. */
struct batch_run {
    gpuocc_prepared prepared;
    gpuocc_kernel base;
    int32_t threads[LAUNCHES], regs[LAUNCHES], status[LAUNCHES], blocks[LAUNCHES], warps[LAUNCHES];
    int64_t smem_static[LAUNCHES], smem_dynamic[LAUNCHES];
    double occupancy[LAUNCHES];
    uint32_t limiters[LAUNCHES];
};

static void run_batch(void *p)
{
    struct batch_run *b = p;
    gpuocc_batch cols = {.size = sizeof cols, .smem_width = 8, .threads_per_block = b->threads,
                         .regs_per_thread = b->regs, .smem_static_bytes = b->smem_static,
                         .smem_dynamic_bytes = b->smem_dynamic, .status = b->status, .blocks_per_sm = b->blocks,
                         .warps_per_sm = b->warps, .occupancy = b->occupancy, .limiters = b->limiters};
    gpuocc_occupancy_batch(&b->prepared, &b->base, &cols, LAUNCHES);
    sink = b->blocks[LAUNCHES - 1];
}

static void bench_occupancy(void)
{
    static struct occupancy_run o;
    static struct batch_run b;
    const char *archs[] = {"sm_60", "sm_75", "sm_80", "sm_90", "sm_120"};
    printf("%-8s %14s %20s %8s\n", "arch", "gpuocc ns/call", "cuda_occupancy.h ns", "ratio");
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        o.dev = (gpuocc_device){.size = sizeof o.dev};
        gpuocc_device_lookup(archs[a], &o.dev);
        o.prop = oracle_device(&o.dev);
        for (int i = 0; i < LAUNCHES; i++) {
            random_kernel(&o.dev, &o.kernels[i]);
            oracle_kernel(&o.dev, &o.kernels[i], &o.attrs[i], &o.states[i]);
        }
        b.prepared = (gpuocc_prepared){.size = sizeof b.prepared};
        gpuocc_prepare(&o.dev, &b.prepared);
        gpuocc_kernel_init(&b.base);
        for (int i = 0; i < LAUNCHES; i++) {
            b.threads[i] = o.kernels[i].threads_per_block, b.regs[i] = o.kernels[i].regs_per_thread;
            b.smem_static[i] = o.kernels[i].smem_static_bytes, b.smem_dynamic[i] = o.kernels[i].smem_dynamic_bytes;
        }
        double ours = best_time(run_gpuocc, &o, 7) / LAUNCHES, theirs = best_time(run_nvidia, &o, 7) / LAUNCHES;
        double batch = best_time(run_batch, &b, 7) / LAUNCHES;
        printf("%-8s %14.1f %20.1f %7.2fx   batch %6.2f ns/launch %6.3fx\n", archs[a], 1e9 * ours, 1e9 * theirs,
               ours / theirs, 1e9 * batch, batch / theirs);
    }
}
#else
static void bench_occupancy(void)
{
    puts("occupancy: cuda_occupancy.h not found; no reference to compare against");
}
#endif

struct reader_run {
    const char *data;
    size_t n;
    gpuocc_compiled_kernel kernels[256];
    int repeat;
    int binary;
};

static void run_reader(void *p)
{
    struct reader_run *r = p;
    long total = 0;
    for (int i = 0; i < r->repeat; i++) {
        int32_t count = 0, line = 0;
        if (r->binary)
            gpuocc_cubin_read(r->data, r->n, r->kernels, 256, &count);
        else
            gpuocc_ptxas_parse(r->data, r->n, r->kernels, 256, &count, &line);
        total += count;
    }
    sink = total;
}

static void run_memchr(void *p)
{
    struct reader_run *r = p;
    long total = 0;
    for (int i = 0; i < r->repeat; i++)
        for (const char *s = r->data, *end = s + r->n; (s = memchr(s, '\n', (size_t)(end - s))) != NULL; s++)
            total++;
    sink = total;
}

static void bench_reader(const char *path, int binary)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("%s: cannot open\n", path);
        return;
    }
    static char buf[1 << 20];
    struct reader_run r = {.data = buf, .n = fread(buf, 1, sizeof buf, f), .repeat = 200, .binary = binary};
    fclose(f);
    double ours = best_time(run_reader, &r, 5), pass = best_time(run_memchr, &r, 5);
    double mb = (double)r.n * r.repeat / 1e6;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("%-22s %8zu bytes %9.1f MB/s %12.1f MB/s one memchr pass %7.2fx\n", name, r.n, mb / ours, mb / pass,
           ours / pass);
}

int main(int argc, char **argv)
{
    bench_occupancy();
    for (int i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]);
        bench_reader(argv[i], n < 4 || strcmp(argv[i] + n - 4, ".log") != 0);
    }
    return 0;
}
