/*
 * Speed, as ratios against a reference run in the same process on the same inputs:
 *  - gpuocc_occupancy against cudaOccMaxActiveBlocksPerMultiprocessor from the CUDA toolkit's
 *    cuda_occupancy.h (when it is installed), on the same random launches for several architectures;
 *  - the ptxas and cubin readers against one memchr pass over the same bytes (the cost of merely
 *    looking at every byte once).
 * Run with `meson test --benchmark` (or `ninja benchmark`); it prints, it does not judge.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "load.h"
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

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* gpuocc's side and the reference's, interleaved rep by rep (so both see the same machine), each the median
   of its `reps` timings in seconds; returns the median of the reps' ratios (ours / theirs), which a busy
   machine slowing both sides of a pair alike leaves alone. */
#define REPS_MAX 31
static double median_pair(void (*ours)(void *), void (*theirs)(void *), void *arg, int reps, double *t_ours,
                          double *t_theirs)
{
    double a[REPS_MAX], b[REPS_MAX], ratio[REPS_MAX];
    ours(arg); /* warm-up: first touches of the outputs (page faults), caches, branch predictors */
    theirs(arg);
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        ours(arg);
        double t1 = now_s();
        theirs(arg);
        a[r] = t1 - t0;
        b[r] = now_s() - t1;
        ratio[r] = a[r] / b[r];
    }
    qsort(a, (size_t)reps, sizeof a[0], by_value);
    qsort(b, (size_t)reps, sizeof b[0], by_value);
    qsort(ratio, (size_t)reps, sizeof ratio[0], by_value);
    *t_ours = a[reps / 2];
    *t_theirs = b[reps / 2];
    return ratio[reps / 2];
}

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
    gpuocc_result r = {.size = sizeof r}; /* one result for every call, as a caller reuses it: the call writes every field */
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_occupancy(&o->dev, &o->kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

static void run_nvidia(void *p)
{
    struct occupancy_run *o = p;
    long total = 0;
    cudaOccResult r = {0}; /* one result for every call, as a caller reuses it: the call writes every field */
    for (int i = 0; i < LAUNCHES; i++) {
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &o->prop, &o->attrs[i], &o->states[i],
                                                o->kernels[i].threads_per_block,
                                                (size_t)o->kernels[i].smem_dynamic_bytes);
        total += r.activeBlocksPerMultiprocessor;
    }
    sink = total;
}

/* The same launches through the prepared single call. */
static gpuocc_prepared single_prepared;
static void run_prepared(void *p)
{
    struct occupancy_run *o = p;
    long total = 0;
    gpuocc_result r = {.size = sizeof r}; /* one result for every call, as a caller reuses it: the call writes every field */
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_occupancy_prepared(&single_prepared, &o->kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

/* Each launch as a batch of one (the batch's per-call part). */
static void run_batch_of_one(void *p)
{
    struct occupancy_run *o = p;
    long total = 0;
    int32_t status, blocks;
    /* one column struct for every call, as a caller reuses it */
    gpuocc_batch cols = {.size = sizeof cols, .smem_width = 8, .status = &status, .blocks_per_sm = &blocks};
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_occupancy_batch(&single_prepared, &o->kernels[i], &cols, 1);
        total += blocks;
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

/* ---- fast: one evaluation and the prepared batch, against the header's one evaluation ---- */
struct occupancy_pair {
    struct occupancy_run *o;
    struct batch_run *b;
};

static void run_pair_single(void *p)
{
    run_gpuocc(((struct occupancy_pair *)p)->o);
}

static void run_pair_batch(void *p)
{
    run_batch(((struct occupancy_pair *)p)->b);
}

static void run_pair_nvidia(void *p)
{
    run_nvidia(((struct occupancy_pair *)p)->o);
}

static void run_pair_prepared(void *p)
{
    run_prepared(((struct occupancy_pair *)p)->o);
}

static void run_pair_batch_of_one(void *p)
{
    run_batch_of_one(((struct occupancy_pair *)p)->o);
}

/* One row of the single-call table: times per call in seconds, the ratio (a median of ratios), the target;
   returns 1 when missed. */
static int occupancy_row(const char *arch, const char *what, double ours, double theirs, const char *reference,
                         double ratio, double target)
{
    bool met = ratio <= target;
    printf("%-8s %-34s %7.2f ns %7.2f ns (%s) %6.3fx  target <= %.2fx  %-7s  load %.2f\n", arch, what, 1e9 * ours,
           1e9 * theirs, reference, ratio, target, met ? "met" : "NOT met", bench_load());
    return !met;
}

/* Per architecture: the same random launches through gpuocc_occupancy, through the batch call on a
   prepared device, through the prepared single call, and through the header; each against the header in
   interleaved repetitions, medians. */
static int bench_occupancy(void)
{
    static struct occupancy_run o;
    static struct batch_run b;
    struct occupancy_pair pair = {&o, &b};
    const char *archs[] = {"sm_52", "sm_60", "sm_61", "sm_75", "sm_80", "sm_90", "sm_120"};
    int missed = 0;
    printf("%-8s %-34s %10s %10s %14s %7s   (medians of 31 interleaved repetitions, %d random launches; ratio:\n"
           "the median of the repetitions' ratios)\n", "arch", "query", "gpuocc", "reference", "", "ratio",
           LAUNCHES);
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
        single_prepared = (gpuocc_prepared){.size = sizeof single_prepared};
        gpuocc_prepare(&o.dev, &single_prepared);
        double ours, theirs, batch, theirs_b, prep, theirs_p, one, theirs_one;
        double single_ratio = median_pair(run_pair_single, run_pair_nvidia, &pair, 31, &ours, &theirs);
        double batch_ratio = median_pair(run_pair_batch, run_pair_nvidia, &pair, 31, &batch, &theirs_b);
        double prepared_ratio = median_pair(run_pair_prepared, run_pair_nvidia, &pair, 31, &prep, &theirs_p);
        /* a batch of one against the prepared single call */
        double one_ratio = median_pair(run_pair_batch_of_one, run_pair_prepared, &pair, 31, &one, &theirs_one);
        /* the header's own path is short before cc 7.0 (no carveouts): looser targets there */
        bool early = o.dev.cc_major < 7;
        missed += occupancy_row(archs[a], "gpuocc_occupancy", ours / LAUNCHES, theirs / LAUNCHES, "header",
                                single_ratio, early ? 1.3 : 1.2);
        missed += occupancy_row(archs[a], "gpuocc_occupancy_prepared", prep / LAUNCHES, theirs_p / LAUNCHES,
                                "header", prepared_ratio, early ? 0.9 : 0.75);
        missed += occupancy_row(archs[a], "batch, per launch", batch / LAUNCHES, theirs_b / LAUNCHES, "header",
                                batch_ratio, 0.15);
        missed += occupancy_row(archs[a], "batch of one", one / LAUNCHES, theirs_one / LAUNCHES, "prepared",
                                one_ratio, 2.0);
    }
    return missed;
}

/* Devices mixed: each launch on one of the five architectures, drawn at random (the same draws for every
   side), through gpuocc_occupancy, the prepared single call (one prepared device per architecture) and the
   header. */
#define MIXED_DEVICES 5
struct mixed_run {
    gpuocc_device dev[MIXED_DEVICES];
    cudaOccDeviceProp prop[MIXED_DEVICES];
    gpuocc_prepared prepared[MIXED_DEVICES];
    uint8_t which[LAUNCHES];
    gpuocc_kernel kernels[LAUNCHES];
    cudaOccFuncAttributes attrs[LAUNCHES];
    cudaOccDeviceState states[LAUNCHES];
};

static void run_mixed_gpuocc(void *p)
{
    struct mixed_run *m = p;
    long total = 0;
    gpuocc_result r = {.size = sizeof r}; /* one result for every call, as a caller reuses it: the call writes every field */
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_occupancy(&m->dev[m->which[i]], &m->kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

static void run_mixed_prepared(void *p)
{
    struct mixed_run *m = p;
    long total = 0;
    gpuocc_result r = {.size = sizeof r}; /* one result for every call, as a caller reuses it: the call writes every field */
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_occupancy_prepared(&m->prepared[m->which[i]], &m->kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

static void run_mixed_nvidia(void *p)
{
    struct mixed_run *m = p;
    long total = 0;
    cudaOccResult r = {0}; /* one result for every call, as a caller reuses it: the call writes every field */
    for (int i = 0; i < LAUNCHES; i++) {
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &m->prop[m->which[i]], &m->attrs[i], &m->states[i],
                                                m->kernels[i].threads_per_block,
                                                (size_t)m->kernels[i].smem_dynamic_bytes);
        total += r.activeBlocksPerMultiprocessor;
    }
    sink = total;
}

static int bench_occupancy_mixed(void)
{
    static struct mixed_run m;
    const char *archs[MIXED_DEVICES] = {"sm_60", "sm_75", "sm_80", "sm_90", "sm_120"};
    for (int j = 0; j < MIXED_DEVICES; j++) {
        m.dev[j] = (gpuocc_device){.size = sizeof m.dev[j]};
        gpuocc_device_lookup(archs[j], &m.dev[j]);
        m.prop[j] = oracle_device(&m.dev[j]);
        m.prepared[j] = (gpuocc_prepared){.size = sizeof m.prepared[j]};
        gpuocc_prepare(&m.dev[j], &m.prepared[j]);
    }
    for (int i = 0; i < LAUNCHES; i++) {
        m.which[i] = (uint8_t)(rnd() % MIXED_DEVICES);
        random_kernel(&m.dev[m.which[i]], &m.kernels[i]);
        oracle_kernel(&m.dev[m.which[i]], &m.kernels[i], &m.attrs[i], &m.states[i]);
    }
    double ours, theirs, prep, theirs_p;
    double single_ratio = median_pair(run_mixed_gpuocc, run_mixed_nvidia, &m, 31, &ours, &theirs);
    double prepared_ratio = median_pair(run_mixed_prepared, run_mixed_nvidia, &m, 31, &prep, &theirs_p);
    int missed = occupancy_row("mixed", "gpuocc_occupancy", ours / LAUNCHES, theirs / LAUNCHES, "header",
                               single_ratio, 1.0);
    missed += occupancy_row("mixed", "gpuocc_occupancy_prepared", prep / LAUNCHES, theirs_p / LAUNCHES, "header",
                            prepared_ratio, 0.75);
    return missed;
}

/* Searches against the header's: best block size (constant, affine, table), dynamic shared memory for N
   blocks (the header's cudaOccAvailableDynamicSMemPerBlock, other semantics: speed reference only), and
   registers for N blocks (against one header evaluation: the header has no such query). */
#define SEARCHES 400
struct search_run {
    gpuocc_device dev;
    gpuocc_kernel kernels[SEARCHES];
    int32_t want[SEARCHES];
    int64_t per_thread[SEARCHES];
    cudaOccDeviceProp prop;
    cudaOccFuncAttributes attrs[SEARCHES];
    cudaOccDeviceState states[SEARCHES];
    int form; /* 0 constant, 1 affine, 2 table */
};
static int64_t table[1025];
static int64_t table_per_thread;
static size_t header_smem_of(int threads)
{
    return (size_t)(table_per_thread * threads);
}

static void run_best_gpuocc(void *p)
{
    struct search_run *s = p;
    long total = 0;
    for (int i = 0; i < SEARCHES; i++) {
        int32_t threads = 0, grid = 0;
        if (s->form == 0)
            gpuocc_best_block_affine(&s->dev, &s->kernels[i], 1024, 0, &threads, &grid);
        else if (s->form == 1)
            gpuocc_best_block_affine(&s->dev, &s->kernels[i], 0, table_per_thread, &threads, &grid);
        else
            gpuocc_best_block_table(&s->dev, &s->kernels[i], table, 1025, &threads, &grid);
        total += threads;
    }
    sink = total;
}

static void run_best_nvidia(void *p)
{
    struct search_run *s = p;
    long total = 0;
    for (int i = 0; i < SEARCHES; i++) {
        int grid = 0, block = 0;
        if (s->form == 0)
            cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &s->prop, &s->attrs[i], &s->states[i], NULL, 1024);
        else
            cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &s->prop, &s->attrs[i], &s->states[i],
                                                  header_smem_of, 0);
        total += block;
    }
    sink = total;
}

static void run_smem_gpuocc(void *p)
{
    struct search_run *s = p;
    long total = 0;
    for (int i = 0; i < SEARCHES; i++) {
        int64_t bytes = 0;
        gpuocc_smem_dynamic_available(&s->dev, &s->kernels[i], s->want[i], &bytes);
        total += bytes;
    }
    sink = total;
}

static void run_smem_nvidia(void *p)
{
    struct search_run *s = p;
    long total = 0;
    for (int i = 0; i < SEARCHES; i++) {
        size_t bytes = 0;
        cudaOccAvailableDynamicSMemPerBlock(&bytes, &s->prop, &s->attrs[i], &s->states[i], s->want[i],
                                            s->kernels[i].threads_per_block);
        total += (long)bytes;
    }
    sink = total;
}

static void run_regs_gpuocc(void *p)
{
    struct search_run *s = p;
    long total = 0;
    for (int i = 0; i < SEARCHES; i++) {
        int32_t regs = 0;
        gpuocc_regs_max_for_blocks(&s->dev, &s->kernels[i], s->want[i], &regs);
        total += regs;
    }
    sink = total;
}

static void run_one_nvidia(void *p)
{
    struct search_run *s = p;
    long total = 0;
    for (int i = 0; i < SEARCHES; i++) {
        cudaOccResult r = {0};
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &s->prop, &s->attrs[i], &s->states[i],
                                                s->kernels[i].threads_per_block,
                                                (size_t)s->kernels[i].smem_dynamic_bytes);
        total += r.activeBlocksPerMultiprocessor;
    }
    sink = total;
}

/* One row: what, gpuocc's time, the reference's, the ratio against the target and the load; returns 1
   when missed.  `blocked`: the target belongs to an issue that ended blocked on it (the row prints so and
   is not counted: the run's status tells whether the targets in force hold; the `instructions` benchmark
   still holds those queries to their instruction counts). */
static int verdict_of(const char *what, double ours, double theirs, double target, const char *blocked)
{
    double ratio = ours / theirs;
    bool met = ratio <= target;
    printf("%-44s %10.1f ns %10.1f ns %8.3fx  target <= %.2fx  %s  load %.2f%s%s\n", what, 1e9 * ours, 1e9 * theirs,
           ratio, target, met ? "met" : "NOT met", bench_load(), met || !blocked ? "" : "  not counted: ",
           met || !blocked ? "" : blocked);
    return met || blocked ? 0 : 1;
}

static int verdict(const char *what, double ours, double theirs, double target)
{
    return verdict_of(what, ours, theirs, target, NULL);
}

static int bench_searches(void)
{
    static struct search_run s;
    const char *archs[] = {"sm_75", "sm_80", "sm_90", "sm_120"};
    double t[5][2] = {{0}};
    int missed = 0;
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        s.dev = (gpuocc_device){.size = sizeof s.dev};
        gpuocc_device_lookup(archs[a], &s.dev);
        s.dev.sm_count = 100;
        s.prop = oracle_device(&s.dev);
        for (int i = 0; i < SEARCHES; i++) {
            random_kernel(&s.dev, &s.kernels[i]);
            s.kernels[i].threads_per_block = (int32_t)(32 * rnd_range(1, 32));
            s.kernels[i].smem_dynamic_bytes = 0;
            s.want[i] = (int32_t)rnd_range(1, 8);
            oracle_kernel(&s.dev, &s.kernels[i], &s.attrs[i], &s.states[i]);
        }
        table_per_thread = rnd_range(1, 96);
        for (int i = 0; i <= 1024; i++)
            table[i] = table_per_thread * i;
        /* each pair interleaved, medians of 31 repetitions (as the single call's rows): a busy moment slows
           both sides of a repetition, not one side's best of a few */
        double ours, theirs;
        for (s.form = 0; s.form < 3; s.form++) {
            median_pair(run_best_gpuocc, run_best_nvidia, &s, 31, &ours, &theirs);
            t[s.form][0] += ours / SEARCHES, t[s.form][1] += theirs / SEARCHES;
        }
        median_pair(run_smem_gpuocc, run_smem_nvidia, &s, 31, &ours, &theirs);
        t[3][0] += ours / SEARCHES, t[3][1] += theirs / SEARCHES;
        median_pair(run_regs_gpuocc, run_one_nvidia, &s, 31, &ours, &theirs);
        t[4][0] += ours / SEARCHES, t[4][1] += theirs / SEARCHES;
    }
    double n = (double)(sizeof archs / sizeof archs[0]);
    printf("\n%-44s %13s %13s %9s (mean over sm_75, sm_80, sm_90, sm_120 of each side's median of 31 "
           "interleaved repetitions)\n", "search", "gpuocc", "header", "ratio");
    missed += verdict("best block size, constant smem", t[0][0] / n, t[0][1] / n, 0.2);
    missed += verdict("best block size, affine smem", t[1][0] / n, t[1][1] / n, 0.2);
    missed += verdict("best block size, table (header: callback)", t[2][0] / n, t[2][1] / n, 0.2);
    missed += verdict("smem_dynamic_available vs AvailableDynamicSMem", t[3][0] / n, t[3][1] / n, 1.0);
    missed += verdict("regs_max_for_blocks vs one header evaluation", t[4][0] / n, t[4][1] / n, 2.0);
    return missed;
}

/* ---- fast: sweeps, each point against the header evaluating that launch ---- */
#define SWEEP_KERNELS 24
#define SWEEP_POINTS_MAX 4096
struct sweep_run {
    gpuocc_device dev;
    cudaOccDeviceProp prop;
    int32_t axis;
    gpuocc_kernel kernels[SWEEP_KERNELS];
    cudaOccFuncAttributes attrs[SWEEP_KERNELS];
    cudaOccDeviceState states[SWEEP_KERNELS];
    int64_t from[SWEEP_KERNELS], to[SWEEP_KERNELS], step[SWEEP_KERNELS];
    long points;
    gpuocc_sweep_point out[SWEEP_POINTS_MAX];
};

static void run_sweep_gpuocc(void *p)
{
    struct sweep_run *s = p;
    long total = 0;
    for (int i = 0; i < SWEEP_KERNELS; i++) {
        int32_t n = 0;
        gpuocc_sweep(&s->dev, &s->kernels[i], s->axis, s->from[i], s->to[i], s->step[i], s->out, SWEEP_POINTS_MAX, &n);
        total += n + s->out[n - 1].blocks_per_sm;
    }
    sink = total;
}

static void run_sweep_nvidia(void *p)
{
    struct sweep_run *s = p;
    long total = 0;
    for (int i = 0; i < SWEEP_KERNELS; i++) {
        cudaOccFuncAttributes a = s->attrs[i];
        int threads = s->kernels[i].threads_per_block;
        size_t dynamic = (size_t)s->kernels[i].smem_dynamic_bytes;
        for (int64_t v = s->from[i]; v <= s->to[i]; v += s->step[i]) {
            if (s->axis == GPUOCC_AXIS_THREADS)
                threads = (int)v;
            else if (s->axis == GPUOCC_AXIS_REGS)
                a.numRegs = (int)v;
            else if (s->axis == GPUOCC_AXIS_SMEM)
                dynamic = (size_t)v;
            else
                a.numBlockBarriers = (int)v;
            cudaOccResult r = {0};
            cudaOccMaxActiveBlocksPerMultiprocessor(&r, &s->prop, &a, &s->states[i], threads, dynamic);
            total += r.activeBlocksPerMultiprocessor;
        }
    }
    sink = total;
}

/* Every axis over its whole range (gpuocc_sweep_range) for random kernels on each architecture; the
   target is per point and per axis. */
static int bench_sweeps(void)
{
    static struct sweep_run s;
    const char *archs[] = {"sm_60", "sm_75", "sm_80", "sm_90", "sm_120"};
    const char *axes[] = {"threads", "registers", "dynamic smem", "barriers"};
    double t[GPUOCC_AXIS_COUNT][2] = {{0}};
    long points[GPUOCC_AXIS_COUNT] = {0};
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
        s.dev = (gpuocc_device){.size = sizeof s.dev};
        gpuocc_device_lookup(archs[i], &s.dev);
        s.prop = oracle_device(&s.dev);
        for (s.axis = 0; s.axis < GPUOCC_AXIS_COUNT; s.axis++) {
            s.points = 0;
            for (int j = 0; j < SWEEP_KERNELS; j++) {
                /* a launch the header accepts at every point: block sizes a multiple of the warp, barriers
                   fitting the block's warps */
                do {
                    random_kernel(&s.dev, &s.kernels[j]);
                    s.kernels[j].threads_per_block = (int32_t)(32 * rnd_range(1, 32));
                    s.kernels[j].barriers = 1;
                    gpuocc_sweep_range(&s.dev, &s.kernels[j], s.axis, &s.from[j], &s.to[j], &s.step[j]);
                } while ((s.to[j] - s.from[j]) / s.step[j] + 1 > SWEEP_POINTS_MAX);
                oracle_kernel(&s.dev, &s.kernels[j], &s.attrs[j], &s.states[j]);
                s.points += (s.to[j] - s.from[j]) / s.step[j] + 1;
            }
            double ours, theirs;
            double ratio = median_pair(run_sweep_gpuocc, run_sweep_nvidia, &s, 31, &ours, &theirs);
            /* the header's median time spread by the median ratio: the ratio survives a busy machine */
            t[s.axis][0] += ratio * theirs, t[s.axis][1] += theirs;
            points[s.axis] += s.points;
        }
    }
    printf("\n%-44s %13s %13s %9s (whole ranges, %d random launches x 5 architectures; header: median time,\n"
           "gpuocc: that times the median ratio of 31 interleaved repetitions)\n",
           "sweep, per point", "gpuocc", "header", "ratio", SWEEP_KERNELS);
    int missed = 0;
    for (int32_t axis = 0; axis < GPUOCC_AXIS_COUNT; axis++) {
        char what[64];
        snprintf(what, sizeof what, "sweep %s (%ld points)", axes[axis], points[axis]);
        /* a sweep is the batch with the swept input as its one column: a quarter of a call per point */
        missed += verdict(what, t[axis][0] / (double)points[axis], t[axis][1] / (double)points[axis], 0.25);
    }
    return missed;
}
#else
static int bench_searches(void)
{
    return 0;
}

static int bench_sweeps(void)
{
    return 0;
}

static int bench_occupancy(void)
{
    puts("occupancy: cuda_occupancy.h not found; no reference to compare against");
    return 0;
}

static int bench_occupancy_mixed(void)
{
    return 0;
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

/* A build log of at least 64 MB made of the ptxas fixtures given on the command line, repeated; parsed
   into a full record array, against one memchr pass over the same bytes (both from memory, the log far
   larger than the caches).  Returns 1 when the reader is slower than a tenth of the memchr pass. */
#define BIG_LOG ((size_t)64 << 20)
static int bench_big_log(int argc, char **argv)
{
    static char part[1 << 20];
    size_t part_n = 0;
    for (int i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]);
        if (n < 4 || strcmp(argv[i] + n - 4, ".log") != 0)
            continue;
        FILE *f = fopen(argv[i], "rb");
        if (!f)
            continue;
        part_n += fread(part + part_n, 1, sizeof part - part_n, f);
        fclose(f);
        if (part_n && part[part_n - 1] != '\n' && part_n < sizeof part)
            part[part_n++] = '\n';
    }
    if (part_n == 0)
        return 0;
    char *log = malloc(BIG_LOG + part_n);
    if (!log)
        return 0;
    size_t n = 0;
    while (n < BIG_LOG) {
        memcpy(log + n, part, part_n);
        n += part_n;
    }
    int32_t count = 0, line = 0;
    gpuocc_ptxas_parse(log, n, NULL, 0, &count, &line); /* the size query */
    gpuocc_compiled_kernel *kernels = malloc((size_t)count * sizeof *kernels);
    if (!kernels) {
        free(log);
        return 0;
    }
    double best_parse = 1e30, best_pass = 1e30, best_count = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now_s();
        int32_t got = 0, counted = 0;
        gpuocc_ptxas_parse(log, n, kernels, count, &got, &line);
        double t1 = now_s();
        long lines = 0;
        for (const char *p = log, *end = log + n; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
            lines++;
        double t2 = now_s();
        gpuocc_ptxas_parse(log, n, NULL, 0, &counted, &line);
        double t3 = now_s();
        sink = got + lines + counted;
        best_parse = t1 - t0 < best_parse ? t1 - t0 : best_parse;
        best_pass = t2 - t1 < best_pass ? t2 - t1 : best_pass;
        best_count = t3 - t2 < best_count ? t3 - t2 : best_count;
    }
    double mb = (double)n / 1e6, ratio = best_pass / best_parse;
    /* The records: the whole log read once to find any error (the outputs stay untouched on failure),
       then the records past the reader's 32-record stack stash filled by a second scan.  The size query
       (capacity 0) and any call for at most 32 records are one scan. */
    printf("\nptxas reader on a %.1f MB log (%d kernels, the fixtures repeated, from memory): every record %.1f "
           "MB/s; one memchr pass %.1f MB/s; reader/memchr %.3fx  target >= 0.10x  %s  load %.2f\n",
           mb, count, mb / best_parse, mb / best_pass, ratio, ratio >= 0.1 ? "met" : "NOT met", bench_load());
    printf("ptxas reader, the size query (one scan, no records) %.1f MB/s; reader/memchr %.3fx\n", mb / best_count,
           best_pass / best_count);
    free(kernels);
    free(log);
    return ratio >= 0.1 ? 0 : 1;
}

/* ---- inverse queries on a described device with 2^40 bytes of shared memory ----
   Each query against one gpuocc_occupancy call on the same device and kernel, interleaved in the same
   process: a query that walked the bytes (2^40 of them, or 2^32 allocation units of 256 B) would be
   millions of times one call; a bisection or a closed form is a few dozen.  Target: at most 100x. */
#define HUGE_KERNELS 64
enum huge_query {
    HQ_OCCUPANCY, HQ_SMEM_AVAILABLE, HQ_REGS_MAX, HQ_BEST_CONSTANT, HQ_BEST_AFFINE, HQ_BEST_TABLE,
    HQ_NEXT_REGS, HQ_NEXT_SMEM, HQ_NEXT_WARPS, HQ_NEXT_BARRIERS, HQ_NEXT_STEPS, HQ_TRADEOFF, HQ_COUNT
};
static const char *const huge_names[HQ_COUNT] = {
    "occupancy (the reference)", "smem_dynamic_available", "regs_max_for_blocks", "best_block_affine, constant",
    "best_block_affine, per thread", "best_block_table", "next_step registers", "next_step shared memory",
    "next_step warps", "next_step barriers", "next_steps", "tradeoff (the staircase)"};
struct huge_run {
    gpuocc_device dev;
    gpuocc_kernel kernels[HUGE_KERNELS];
    int32_t want[HUGE_KERNELS];
    enum huge_query q;
    long steps;
};
static int64_t huge_table[1025];

static void run_huge(void *p)
{
    struct huge_run *s = p;
    long total = 0;
    for (int i = 0; i < HUGE_KERNELS; i++) {
        const gpuocc_kernel *k = &s->kernels[i];
        int64_t v = 0, shed = 0;
        int32_t a = 0, b = 0;
        gpuocc_result r = {.size = sizeof r};
        gpuocc_step steps[GPUOCC_STEPS_MAX];
        gpuocc_tradeoff_step trade[64];
        switch (s->q) {
        case HQ_OCCUPANCY: gpuocc_occupancy(&s->dev, k, &r), v = r.blocks_per_sm; break;
        case HQ_SMEM_AVAILABLE: gpuocc_smem_dynamic_available(&s->dev, k, s->want[i], &v); break;
        case HQ_REGS_MAX: gpuocc_regs_max_for_blocks(&s->dev, k, s->want[i], &a); break;
        case HQ_BEST_CONSTANT: gpuocc_best_block_affine(&s->dev, k, (int64_t)1 << 36, 0, &a, &b); break;
        case HQ_BEST_AFFINE: gpuocc_best_block_affine(&s->dev, k, 4096, (int64_t)1 << 28, &a, &b); break;
        case HQ_BEST_TABLE: gpuocc_best_block_table(&s->dev, k, huge_table, 1025, &a, &b); break;
        case HQ_NEXT_REGS: gpuocc_next_step(&s->dev, k, GPUOCC_RESOURCE_REGISTERS, &v, &shed); break;
        case HQ_NEXT_SMEM: gpuocc_next_step(&s->dev, k, GPUOCC_RESOURCE_SMEM, &v, &shed); break;
        case HQ_NEXT_WARPS: gpuocc_next_step(&s->dev, k, GPUOCC_RESOURCE_WARPS, &v, &shed); break;
        case HQ_NEXT_BARRIERS: gpuocc_next_step(&s->dev, k, GPUOCC_RESOURCE_BARRIERS, &v, &shed); break;
        case HQ_NEXT_STEPS: gpuocc_next_steps(&s->dev, k, steps, GPUOCC_STEPS_MAX, &a); break;
        case HQ_TRADEOFF: gpuocc_tradeoff(&s->dev, k, 1000, 1, 300, trade, 64, &a); break;
        case HQ_COUNT: break;
        }
        total += v + shed + a + b;
    }
    sink = total;
}

static void run_huge_reference(void *p)
{
    struct huge_run *s = p;
    long total = 0;
    for (int i = 0; i < HUGE_KERNELS; i++) {
        gpuocc_result r = {.size = sizeof r};
        gpuocc_occupancy(&s->dev, &s->kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

/* `name`'s rules with shared memory of 2^40 bytes per SM and per block (opt-in); on NVIDIA the largest
   carveout 2^40 B, allocation units of `unit` bytes and registers per thread up to `regs_max`; AMD: 2^40 B
   of LDS per CU and per workgroup.  0 if the device checks refuse it. */
static int huge_device(gpuocc_device *d, const char *name, int32_t unit, int32_t regs_max)
{
    *d = (gpuocc_device){.size = sizeof *d};
    if (gpuocc_device_lookup(name, d))
        return 0;
    int64_t big = (int64_t)1 << 40;
    if (d->vendor == GPUOCC_VENDOR_AMD) {
        d->smem_per_sm_bytes = d->smem_per_block_bytes = d->smem_per_block_optin_bytes = big;
        return gpuocc_device_validate(d) == GPUOCC_OK;
    }
    d->smem_per_sm_bytes = big;
    d->smem_per_block_optin_bytes = big - d->smem_reserved_per_block_bytes;
    d->carveouts_kib[d->carveout_count - 1] = (int32_t)(big / 1024);
    d->smem_alloc_unit_bytes = unit;
    d->regs_per_thread_max = regs_max;
    return gpuocc_device_validate(d) == GPUOCC_OK;
}

static int bench_huge_smem(void)
{
    static struct huge_run s;
    int missed = 0;
    const struct {
        const char *name;
        int32_t unit, regs_max;
    } devices[] = {{"H100", 256, 255}, {"H100", 1, 255}, {"H100", 1, 1 << 20}, {"MI300X", 0, 0}, {"gfx1100", 0, 0}};
    for (int i = 0; i <= 1024; i++)
        huge_table[i] = ((int64_t)1 << 30) * i;
    for (size_t dv = 0; dv < sizeof devices / sizeof devices[0]; dv++) {
        if (!huge_device(&s.dev, devices[dv].name, devices[dv].unit, devices[dv].regs_max)) {
            printf("\ninverse queries, 2^40-byte %s (unit %d B): the device checks refuse it  NOT met\n",
                   devices[dv].name, devices[dv].unit);
            missed++;
            continue;
        }
        srand(22);
        for (int i = 0; i < HUGE_KERNELS; i++) {
            gpuocc_kernel *k = &s.kernels[i];
            gpuocc_kernel_init(k);
            bool amd = s.dev.vendor == GPUOCC_VENDOR_AMD;
            k->threads_per_block = (amd ? 64 : 32) * (1 + rand() % (amd ? 16 : 32));
            k->regs_per_thread = devices[dv].regs_max > 255 ? (1 << 20) - rand() % 1000 : 16 + rand() % 240;
            k->smem_static_bytes = rand() % 2 ? 1024 * (rand() % 48) : 0;
            k->smem_dynamic_bytes = ((int64_t)1 << (20 + rand() % 20)) + rand();
            k->barriers = amd ? 1 : rand() % 17;
            s.want[i] = 1 + rand() % 8;
        }
        if (s.dev.vendor == GPUOCC_VENDOR_AMD)
            printf("\ninverse queries on a 2^40-byte LDS device (%s's rules), %d launches; ratio: median of 31 "
                   "interleaved repetitions' ratios\n", devices[dv].name, HUGE_KERNELS);
        else
            printf("\ninverse queries on a 2^40-byte shared-memory device (%s's rules, allocation unit %d B, "
                   "registers per thread up to %d), %d launches; ratio: median of 31 interleaved repetitions' "
                   "ratios\n", devices[dv].name, devices[dv].unit, devices[dv].regs_max, HUGE_KERNELS);
        for (int q = HQ_SMEM_AVAILABLE; q < HQ_COUNT; q++) {
            s.q = (enum huge_query)q;
            double ours, theirs;
            double ratio = median_pair(run_huge, run_huge_reference, &s, 31, &ours, &theirs);
            double target = 100.0;
            printf("%-34s %10.1f ns %10.1f ns (one occupancy) %8.2fx  target <= %.0fx  %s  load %.2f\n", huge_names[q],
                   1e9 * ours / HUGE_KERNELS, 1e9 * theirs / HUGE_KERNELS, ratio, target,
                   ratio <= target ? "met" : "NOT met", bench_load());
            missed += ratio <= target ? 0 : 1;
        }
    }
    return missed;
}

static void print_load(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    char text[128] = "unknown";
    if (f) {
        if (!fgets(text, sizeof text, f))
            strcpy(text, "unknown");
        fclose(f);
    }
    printf("load average: %s", text);
}

int main(int argc, char **argv)
{
    print_load();
    /* GPUOCC_BENCH=inverse: the inverse queries on the 2^40-byte device alone */
    const char *alone = getenv("GPUOCC_BENCH");
    if (alone && strcmp(alone, "inverse") == 0) {
        int missed_inverse = bench_huge_smem();
        print_load();
        return missed_inverse ? 1 : 0;
    }
    int missed = bench_occupancy();
    missed += bench_occupancy_mixed();
    /* GPUOCC_BENCH=occupancy: the single-call rows alone (for quick comparisons) */
    const char *only = getenv("GPUOCC_BENCH");
    if (only && strcmp(only, "occupancy") == 0) {
        print_load();
        return missed ? 1 : 0;
    }
    missed += bench_searches();
    missed += bench_sweeps();
    for (int i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]);
        bench_reader(argv[i], n < 4 || strcmp(argv[i] + n - 4, ".log") != 0);
    }
    missed += bench_big_log(argc, argv);
    missed += bench_huge_smem();
    print_load();
    return missed ? 1 : 0;
}
