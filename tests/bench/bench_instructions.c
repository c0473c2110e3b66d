/*
 * Instructions per call, counted by callgrind (deterministic, unlike a timing): a fixed set of launches on
 * five NVIDIA architectures through gpuocc_occupancy (one device at a time, and the devices mixed),
 * gpuocc_occupancy_prepared (the same two ways), a batch of one launch, a batch of 1,000 per device (per
 * launch), and three queries that share the single calls' device check (gpuocc_smem_dynamic_available, a
 * 32-point threads sweep, a 17-point barriers sweep).  Each query's loop runs between
 * callgrind client requests (zero the counts, dump them under the query's name); tests/bench/
 * callgrind_check.py runs this program under `valgrind --tool=callgrind`, divides each dump's total by
 * LAUNCHES and compares with the baseline stored in tests/bench/instructions.txt.
 * With NVIDIA's cuda_occupancy.h (the speed reference of tests/bench/bench.c) the same launches are counted
 * through the header too (queries header and header_mixed): the reference the check prints each count
 * against, never a baseline of its own.
 * Run alone (not under valgrind) it prints what it would measure and exits 77 (skipped).
 */
#include "gpuocc.h"

#include <stdio.h>
#include <string.h>

#ifdef GPUOCC_HAVE_CUDA_OCCUPANCY
#include "../oracle/bridge.h"
#endif

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define HAVE_CALLGRIND 0
#endif

#if defined(__GNUC__)
#define GPUOCC_NOINLINE_BENCH __attribute__((noinline))
#else
#define GPUOCC_NOINLINE_BENCH
#endif

#define DEVICES 5
#define LAUNCHES 5000 /* per query: the devices in turn, 1,000 launches each */

static const char *const archs[DEVICES] = {"sm_60", "sm_75", "sm_80", "sm_90", "sm_120"};
static gpuocc_device devices[DEVICES];
static gpuocc_prepared prepared[DEVICES];
static gpuocc_kernel kernels[LAUNCHES];
static unsigned char which[LAUNCHES], mixed[LAUNCHES]; /* by launch: the device, in turn or drawn */
static volatile long sink;

/* xorshift64*: the same launches on every platform */
static uint64_t state = 0x9E3779B97F4A7C15u;
static uint64_t draw(uint64_t n)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (state * 2685821657736338717u) % n;
}

/* launches of the kind tests/bench/bench.c times: mostly valid, some past the device's limits */
static void launch_for(const gpuocc_device *d, gpuocc_kernel *k)
{
    gpuocc_kernel_init(k);
    k->threads_per_block = (int32_t)(draw(4) == 0 ? 32 * (1 + draw(32)) : 1 + draw(1100));
    k->regs_per_thread = (int32_t)draw(258);
    k->smem_static_bytes = draw(3) == 0 ? 0 : (int64_t)draw(draw(2) ? 4096 : 49152);
    k->smem_dynamic_bytes = draw(3) == 0 ? 0 : (int64_t)draw((uint64_t)d->smem_per_block_optin_bytes / 4);
    k->carveout_percent = (int32_t)(draw(3) == 0 ? -1 : (int64_t)draw(101));
    k->smem_optin = (int32_t)draw(2);
    k->smem_dynamic_max_bytes = k->smem_optin && draw(3) == 0 ? (int64_t)draw(16384) : -1;
    k->barriers = (int32_t)(draw(3) == 0 ? draw(17) : 1);
    /* virtual resources as tests/oracle/bridge.h draws them for the timed benchmark: none in a quarter of
       the launches, a few, up to the 128 an SM of cc 10.x-12.x has, or past it */
    uint64_t kind = draw(4);
    k->virtual_resources = (int32_t)(kind == 0 ? 0 : kind == 1 ? 1 + draw(8) : kind == 2 ? 1 + draw(128) : draw(201));
}

static GPUOCC_NOINLINE_BENCH void measure_occupancy(const unsigned char *dev_of)
{
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_result r = {.size = sizeof r};
        gpuocc_occupancy(&devices[dev_of[i]], &kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

static GPUOCC_NOINLINE_BENCH void measure_prepared(const unsigned char *dev_of)
{
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        gpuocc_result r = {.size = sizeof r};
        gpuocc_occupancy_prepared(&prepared[dev_of[i]], &kernels[i], &r);
        total += r.blocks_per_sm;
    }
    sink = total;
}

#ifdef GPUOCC_HAVE_CUDA_OCCUPANCY
static cudaOccDeviceProp props[DEVICES];
static cudaOccFuncAttributes attrs[DEVICES][LAUNCHES];
static cudaOccDeviceState states[DEVICES][LAUNCHES];

/* The same launches through the header (its inputs converted once, before counting). */
static GPUOCC_NOINLINE_BENCH void measure_header(const unsigned char *dev_of)
{
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        cudaOccResult r = {0};
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props[dev_of[i]], &attrs[dev_of[i]][i], &states[dev_of[i]][i],
                                                kernels[i].threads_per_block, (size_t)kernels[i].smem_dynamic_bytes);
        total += r.activeBlocksPerMultiprocessor;
    }
    sink = total;
}
#endif

static GPUOCC_NOINLINE_BENCH void measure_batch_of_one(const unsigned char *dev_of)
{
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        int32_t status, blocks;
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = &status, .blocks_per_sm = &blocks};
        gpuocc_occupancy_batch(&prepared[dev_of[i]], &kernels[i], &b, 1);
        total += blocks;
    }
    sink = total;
}

/* The prepared batch (tests/bench/bench.c's batch row): each device's launches as one batch of columns
   (threads, registers, both byte counts in, the status, blocks, warps, occupancy and limiters out), per
   launch.  Its loop is the vector lanes' (lib/nvidia/batch.c). */
#define PER_DEVICE (LAUNCHES / DEVICES)
static int32_t batch_threads[LAUNCHES], batch_regs[LAUNCHES], batch_status[LAUNCHES], batch_blocks[LAUNCHES];
static int32_t batch_warps[LAUNCHES];
static int64_t batch_static[LAUNCHES], batch_dynamic[LAUNCHES];
static double batch_occupancy[LAUNCHES];
static uint32_t batch_limiters[LAUNCHES];

static GPUOCC_NOINLINE_BENCH void measure_batch(const unsigned char *dev_of)
{
    gpuocc_kernel base;
    gpuocc_kernel_init(&base);
    long total = 0;
    for (int j = 0; j < DEVICES; j++) {
        size_t at = (size_t)j * PER_DEVICE;
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .threads_per_block = batch_threads + at,
                          .regs_per_thread = batch_regs + at, .smem_static_bytes = batch_static + at,
                          .smem_dynamic_bytes = batch_dynamic + at, .status = batch_status + at,
                          .blocks_per_sm = batch_blocks + at, .warps_per_sm = batch_warps + at,
                          .occupancy = batch_occupancy + at, .limiters = batch_limiters + at};
        gpuocc_occupancy_batch(&prepared[dev_of[at]], &base, &b, PER_DEVICE);
        total += batch_blocks[at + PER_DEVICE - 1];
    }
    sink = total;
}

/* The queries beside the single calls that share their device check (lib/nvidia/fast.c): the dynamic
   shared memory two blocks leave, and a sweep of the threads axis (32-thread steps, 1,024 at most: the
   benchmark's short sweep), per launch. */
static GPUOCC_NOINLINE_BENCH void measure_smem_available(const unsigned char *dev_of)
{
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        int64_t bytes = 0;
        gpuocc_smem_dynamic_available(&devices[dev_of[i]], &kernels[i], 2, &bytes);
        total += bytes;
    }
    sink = total;
}

static gpuocc_sweep_point points[32];

/* Sweeps of one axis over [from, to] by step, one a launch. */
static void sweep_loop(const unsigned char *dev_of, int32_t axis, int64_t from, int64_t to, int64_t step)
{
    long total = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        int32_t n = 0;
        gpuocc_sweep(&devices[dev_of[i]], &kernels[i], axis, from, to, step, points, 32, &n);
        total += n;
    }
    sink = total;
}

static GPUOCC_NOINLINE_BENCH void measure_sweep_threads(const unsigned char *dev_of)
{
    sweep_loop(dev_of, GPUOCC_AXIS_THREADS, 32, 1024, 32);
}

/* A sweep of the barriers axis, 0 .. 16 (the benchmark's shortest sweep: 17 points), per launch. */
static GPUOCC_NOINLINE_BENCH void measure_sweep_barriers(const unsigned char *dev_of)
{
    sweep_loop(dev_of, GPUOCC_AXIS_BARRIERS, 0, 16, 1);
}

int main(void)
{
    for (int j = 0; j < DEVICES; j++) {
        devices[j] = (gpuocc_device){.size = sizeof devices[j]};
        prepared[j] = (gpuocc_prepared){.size = sizeof prepared[j]};
        if (gpuocc_device_lookup(archs[j], &devices[j]) != GPUOCC_OK ||
            gpuocc_prepare(&devices[j], &prepared[j]) != GPUOCC_OK) {
            printf("%s: not in the catalog\n", archs[j]);
            return 1;
        }
    }
    for (int i = 0; i < LAUNCHES; i++) {
        which[i] = (unsigned char)(i / (LAUNCHES / DEVICES));
        mixed[i] = (unsigned char)draw(DEVICES);
    }
    /* the launches of the devices in turn; the mixed rows reuse them on drawn devices (a launch drawn for
       one device is a launch on any other) */
    for (int i = 0; i < LAUNCHES; i++)
        launch_for(&devices[which[i]], &kernels[i]);
    for (int i = 0; i < LAUNCHES; i++) {
        batch_threads[i] = kernels[i].threads_per_block, batch_regs[i] = kernels[i].regs_per_thread;
        batch_static[i] = kernels[i].smem_static_bytes, batch_dynamic[i] = kernels[i].smem_dynamic_bytes;
    }
#ifdef GPUOCC_HAVE_CUDA_OCCUPANCY
    (void)random_kernel; /* the bridge's generator: the benchmark's, not used here */
    for (int j = 0; j < DEVICES; j++) {
        props[j] = oracle_device(&devices[j]);
        for (int i = 0; i < LAUNCHES; i++)
            oracle_kernel(&devices[j], &kernels[i], &attrs[j][i], &states[j][i]);
    }
#endif
#if HAVE_CALLGRIND
    if (!RUNNING_ON_VALGRIND) {
        printf("run under valgrind --tool=callgrind (tests/bench/callgrind_check.py): %d launches per query\n",
               LAUNCHES);
        return 77;
    }
    /* each query once before it is counted: first calls (lazy binding) are not what a call costs */
#define MEASURE(name, fn, dev_of)                                                                                 \
    do {                                                                                                       \
        fn(dev_of);                                                                                            \
        CALLGRIND_ZERO_STATS;                                                                                  \
        fn(dev_of);                                                                                            \
        CALLGRIND_DUMP_STATS_AT(name);                                                                         \
    } while (0)
    MEASURE("occupancy", measure_occupancy, which);
    MEASURE("occupancy_mixed", measure_occupancy, mixed);
    MEASURE("prepared", measure_prepared, which);
    MEASURE("prepared_mixed", measure_prepared, mixed);
    MEASURE("batch_of_one", measure_batch_of_one, which);
    MEASURE("batch", measure_batch, which);
    MEASURE("smem_dynamic_available", measure_smem_available, which);
    MEASURE("sweep_threads", measure_sweep_threads, which);
    MEASURE("sweep_barriers", measure_sweep_barriers, which);
#ifdef GPUOCC_HAVE_CUDA_OCCUPANCY
    MEASURE("header", measure_header, which);
    MEASURE("header_mixed", measure_header, mixed);
#endif
    printf("launches %d\n", LAUNCHES);
    return 0;
#else
    puts("valgrind/callgrind.h not found: nothing to count");
    return 77;
#endif
}
