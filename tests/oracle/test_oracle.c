/*
 * Differential test against NVIDIA's cuda_occupancy.h, included from the CUDA toolkit when present (it is
 * never copied into this project).  Random configurations per compute capability; every field compared.
 * Exit 77 (skipped) when the header is absent.
 *
 * Known, deliberate difference: when the barrier limit is the smallest, cuda_occupancy.h keeps the flags
 * it set before applying it (stale limiters).  gpuocc reports exactly the resources that tie at the final
 * count, so limiters are compared with the set derived from the oracle's own per-resource limits, and the
 * stale cases are counted and printed.
 */
#include "gpuocc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef GPUOCC_HAVE_CUDA_OCCUPANCY
int main(void)
{
    puts("oracle: cuda_occupancy.h not found; skipped");
    return 77;
}
#else
#include "bridge.h"

#define CONFIGS_PER_ARCH 100000
#define SEARCHES_PER_ARCH 1000

static long failures, checks;

#define EXPECT_EQ(what, ours, theirs, ctx)                                                                        \
    do {                                                                                                           \
        checks++;                                                                                                  \
        if ((long long)(ours) != (long long)(theirs)) {                                                            \
            if (failures++ < 20)                                                                                   \
                printf("MISMATCH %s: gpuocc %lld, cuda_occupancy.h %lld (%s)\n", what, (long long)(ours),         \
                       (long long)(theirs), ctx);                                                                  \
        }                                                                                                          \
    } while (0)

static int32_t public_limit(int v)
{
    return v == INT_MAX ? GPUOCC_UNLIMITED : v;
}

static void compare_occupancy(const char *arch, const gpuocc_device *d, const gpuocc_prepared *prepared, long *stale)
{
    gpuocc_kernel k;
    random_kernel(d, &k);
    cudaOccDeviceProp p = oracle_device(d);
    cudaOccFuncAttributes a;
    cudaOccDeviceState s;
    oracle_kernel(d, &k, &a, &s);
    cudaOccResult theirs;
    memset(&theirs, 0, sizeof theirs);
    cudaOccError err = cudaOccMaxActiveBlocksPerMultiprocessor(&theirs, &p, &a, &s, k.threads_per_block,
                                                               (size_t)k.smem_dynamic_bytes);
    gpuocc_result ours = {.size = sizeof ours};
    int32_t rc = gpuocc_occupancy(d, &k, &ours);
    char ctx[256];
    snprintf(ctx, sizeof ctx,
             "%s threads=%d regs=%d static=%lld dyn=%lld carveout=%d optin=%d dynmax=%lld bar=%d virtual=%d", arch,
             k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes, (long long)k.smem_dynamic_bytes,
             k.carveout_percent, k.smem_optin, (long long)k.smem_dynamic_max_bytes, k.barriers, k.virtual_resources);
    EXPECT_EQ("status", rc, err == CUDA_OCC_SUCCESS ? GPUOCC_OK : -100 - (int)err, ctx);
    /* the prepared single call (its own tables) answers the same, field by field */
    gpuocc_result from_prepared = {.size = sizeof from_prepared};
    EXPECT_EQ("prepared status", gpuocc_occupancy_prepared(prepared, &k, &from_prepared), rc, ctx);
    EXPECT_EQ("prepared result", memcmp(&from_prepared, &ours, sizeof ours) == 0 || rc != GPUOCC_OK, 1, ctx);
    if (rc != GPUOCC_OK || err != CUDA_OCC_SUCCESS)
        return;
    EXPECT_EQ("blocks", ours.blocks_per_sm, theirs.activeBlocksPerMultiprocessor, ctx);
    EXPECT_EQ("limit_warps", ours.limit_warps, public_limit(theirs.blockLimitWarps), ctx);
    EXPECT_EQ("limit_regs", ours.limit_regs, public_limit(theirs.blockLimitRegs), ctx);
    EXPECT_EQ("limit_smem", ours.limit_smem, public_limit(theirs.blockLimitSharedMem), ctx);
    EXPECT_EQ("limit_blocks", ours.limit_blocks, public_limit(theirs.blockLimitBlocks), ctx);
    EXPECT_EQ("limit_barriers", ours.limit_barriers, public_limit(theirs.blockLimitBarriers), ctx);
    EXPECT_EQ("limit_virtual_resources", ours.limit_virtual_resources, public_limit(theirs.blockLimitVirtual), ctx);
    EXPECT_EQ("regs_per_block", ours.regs_per_block, theirs.allocatedRegistersPerBlock, ctx);
    EXPECT_EQ("smem_per_block", ours.smem_per_block_bytes, (long long)theirs.allocatedSharedMemPerBlock, ctx);

    /* the tie set implied by the oracle's own limits */
    int limits[5] = {theirs.blockLimitWarps, theirs.blockLimitRegs, theirs.blockLimitSharedMem,
                     theirs.blockLimitBlocks, theirs.blockLimitBarriers};
    uint32_t ties = 0;
    for (int i = 0; i < 5; i++)
        if (limits[i] == theirs.activeBlocksPerMultiprocessor)
            ties |= 1u << i;
    if (theirs.blockLimitVirtual == theirs.activeBlocksPerMultiprocessor)
        ties |= GPUOCC_LIMIT_VIRTUAL;
    /* the first five in GPUOCC_LIMIT_*'s bit order; the header's virtual-resources flag at GPUOCC_LIMIT_VIRTUAL */
    uint32_t flags = (theirs.limitingFactors & 0x1f) |
                     ((theirs.limitingFactors & OCC_LIMIT_VIRTUAL_RESOURCES) ? GPUOCC_LIMIT_VIRTUAL : 0);
    if (flags != ties)
        (*stale)++;
    EXPECT_EQ("limiters", ours.limiters, ties, ctx);
    int warps_per_block = (k.threads_per_block + 31) / 32;
    EXPECT_EQ("warps_per_sm", ours.warps_per_sm, theirs.activeBlocksPerMultiprocessor * warps_per_block, ctx);
}

static int64_t per_thread_bytes; /* for the oracle's block-size callback */
static size_t oracle_smem_of(int threads)
{
    return (size_t)(per_thread_bytes * threads);
}
static int64_t table[1025];

static void compare_search(const char *arch, const gpuocc_device *d)
{
    gpuocc_kernel k;
    random_kernel(d, &k);
    k.max_threads_per_block = rnd() % 4 == 0 ? (int32_t)rnd_range(1, 1024) : 0;
    k.smem_dynamic_bytes = 0;
    cudaOccDeviceProp p = oracle_device(d);
    cudaOccFuncAttributes a;
    cudaOccDeviceState s;
    oracle_kernel(d, &k, &a, &s);
    char ctx[160];
    snprintf(ctx, sizeof ctx, "%s best block: regs=%d static=%lld maxthreads=%d", arch, k.regs_per_thread,
             (long long)k.smem_static_bytes, k.max_threads_per_block);

    /* constant dynamic shared memory */
    int64_t base = rnd() % 2 ? 0 : rnd_range(0, 16384);
    int grid_t = 0, block_t = 0;
    cudaOccError err = cudaOccMaxPotentialOccupancyBlockSize(&grid_t, &block_t, &p, &a, &s, NULL, (size_t)base);
    int32_t threads = -1, grid = -1;
    int32_t rc = gpuocc_best_block_affine(d, &k, base, 0, &threads, &grid);
    if (err == CUDA_OCC_SUCCESS && rc == GPUOCC_OK) {
        EXPECT_EQ("best threads (constant)", threads, block_t, ctx);
        EXPECT_EQ("min grid (constant)", grid, d->sm_count > 0 ? grid_t : 0, ctx);
    } else {
        EXPECT_EQ("best status", rc, -100 - (int)err, ctx);
    }

    /* per-thread dynamic shared memory: the affine form, the table form and the oracle's callback */
    per_thread_bytes = rnd_range(0, 200);
    err = cudaOccMaxPotentialOccupancyBlockSize(&grid_t, &block_t, &p, &a, &s, oracle_smem_of, 0);
    rc = gpuocc_best_block_affine(d, &k, 0, per_thread_bytes, &threads, &grid);
    if (err == CUDA_OCC_SUCCESS && rc == GPUOCC_OK)
        EXPECT_EQ("best threads (affine)", threads, block_t, ctx);
    for (int t = 0; t <= 1024; t++)
        table[t] = per_thread_bytes * t;
    rc = gpuocc_best_block_table(d, &k, table, 1025, &threads, &grid);
    if (err == CUDA_OCC_SUCCESS && rc == GPUOCC_OK)
        EXPECT_EQ("best threads (table)", threads, block_t, ctx);

    /* inverse queries, checked against the oracle's forward calculation */
    k.threads_per_block = (int32_t)(32 * rnd_range(1, d->max_threads_per_block / 32));
    oracle_kernel(d, &k, &a, &s);
    int32_t want = (int32_t)rnd_range(1, 8);
    int64_t avail = -1;
    cudaOccResult r;
    rc = gpuocc_smem_dynamic_available(d, &k, want, &avail);
    /* A block larger than the kernel's own launch bound fails to launch (CUDA Runtime API,
       cudaFuncAttributes::maxThreadsPerBlock): no amount of either resource lets it run.  The header's
       single call does not read the bound, so these launches are checked by that rule alone. */
    if (k.max_threads_per_block > 0 && k.threads_per_block > k.max_threads_per_block) {
        int32_t regs = -1;
        EXPECT_EQ("available smem over the launch bound", rc, GPUOCC_ERR_UNSATISFIABLE, ctx);
        EXPECT_EQ("max regs over the launch bound", gpuocc_regs_max_for_blocks(d, &k, want, &regs),
                  GPUOCC_ERR_UNSATISFIABLE, ctx);
        return;
    }
    if (rc == GPUOCC_OK) {
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, k.threads_per_block, (size_t)avail);
        EXPECT_EQ("available smem fits", r.activeBlocksPerMultiprocessor >= want, 1, ctx);
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, k.threads_per_block, (size_t)avail + 1);
        EXPECT_EQ("available smem is the most", r.activeBlocksPerMultiprocessor < want, 1, ctx);
    } else {
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, k.threads_per_block, 0);
        EXPECT_EQ("available smem unsatisfiable", r.activeBlocksPerMultiprocessor < want, 1, ctx);
    }
    int32_t regs = -1;
    rc = gpuocc_regs_max_for_blocks(d, &k, want, &regs);
    if (rc == GPUOCC_OK) {
        a.numRegs = regs;
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, k.threads_per_block, (size_t)k.smem_dynamic_bytes);
        EXPECT_EQ("max regs fits", r.activeBlocksPerMultiprocessor >= want, 1, ctx);
        if (regs < 255) {
            a.numRegs = regs + 1;
            cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, k.threads_per_block,
                                                    (size_t)k.smem_dynamic_bytes);
            EXPECT_EQ("max regs is the most", r.activeBlocksPerMultiprocessor < want, 1, ctx);
        }
    } else {
        a.numRegs = 0;
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, k.threads_per_block, (size_t)k.smem_dynamic_bytes);
        EXPECT_EQ("max regs unsatisfiable", r.activeBlocksPerMultiprocessor < want, 1, ctx);
    }
}

/* Sweeps: every point of a random launch's sweep along each axis equals the header's answer for that launch,
   and at every step the header's answer differs from the one a unit before. */
#define SWEEPS_PER_ARCH 40
static gpuocc_sweep_point sweep_points[4096];

static int oracle_blocks(const gpuocc_device *d, const gpuocc_kernel *k, cudaOccResult *r)
{
    cudaOccDeviceProp p = oracle_device(d);
    cudaOccFuncAttributes a;
    cudaOccDeviceState s;
    oracle_kernel(d, k, &a, &s);
    memset(r, 0, sizeof *r);
    return (int)cudaOccMaxActiveBlocksPerMultiprocessor(r, &p, &a, &s, k->threads_per_block,
                                                         (size_t)k->smem_dynamic_bytes);
}

static gpuocc_kernel kernel_at(gpuocc_kernel k, int32_t axis, int64_t v)
{
    if (axis == GPUOCC_AXIS_THREADS)
        k.threads_per_block = (int32_t)v;
    else if (axis == GPUOCC_AXIS_REGS)
        k.regs_per_thread = (int32_t)v;
    else if (axis == GPUOCC_AXIS_SMEM)
        k.smem_dynamic_bytes = v;
    else
        k.barriers = (int32_t)v;
    return k;
}

static void compare_sweep(const char *arch, const gpuocc_device *d)
{
    gpuocc_kernel k;
    random_kernel(d, &k);
    for (int32_t axis = 0; axis < GPUOCC_AXIS_COUNT; axis++) {
        int64_t from, to, step;
        int32_t n = 0;
        char ctx[200];
        snprintf(ctx, sizeof ctx, "%s sweep axis %d: threads=%d regs=%d static=%lld dyn=%lld carveout=%d optin=%d",
                 arch, axis, k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes,
                 (long long)k.smem_dynamic_bytes, k.carveout_percent, k.smem_optin);
        EXPECT_EQ("sweep range", gpuocc_sweep_range(d, &k, axis, &from, &to, &step), GPUOCC_OK, ctx);
        EXPECT_EQ("sweep", gpuocc_sweep(d, &k, axis, from, to, step, sweep_points, 4096, &n), GPUOCC_OK, ctx);
        for (int32_t i = 0; i < n; i++) {
            gpuocc_kernel one = kernel_at(k, axis, sweep_points[i].value);
            /* the point equals the single call on its launch, every field */
            gpuocc_result single = {.size = sizeof single};
            EXPECT_EQ("sweep point status", gpuocc_occupancy(d, &one, &single), GPUOCC_OK, ctx);
            const gpuocc_sweep_point *pt = &sweep_points[i];
            EXPECT_EQ("sweep = single call", pt->blocks_per_sm == single.blocks_per_sm &&
                                                 pt->warps_per_sm == single.warps_per_sm &&
                                                 pt->occupancy == single.occupancy && pt->limiters == single.limiters &&
                                                 pt->limit_warps == single.limit_warps &&
                                                 pt->limit_regs == single.limit_regs &&
                                                 pt->limit_smem == single.limit_smem &&
                                                 pt->limit_blocks == single.limit_blocks &&
                                                 pt->limit_barriers == single.limit_barriers &&
                                                 pt->regs_per_block == single.regs_per_block &&
                                                 pt->smem_per_block_bytes == single.smem_per_block_bytes &&
                                                 pt->smem_per_sm_bytes == single.smem_per_sm_bytes,
                      1, ctx);
            cudaOccResult r;
            if (oracle_blocks(d, &one, &r) != CUDA_OCC_SUCCESS)
                continue; /* the header refuses some launches gpuocc answers with 0 blocks; compared above */
            EXPECT_EQ("sweep blocks", sweep_points[i].blocks_per_sm, r.activeBlocksPerMultiprocessor, ctx);
            EXPECT_EQ("sweep limit_regs", sweep_points[i].limit_regs, public_limit(r.blockLimitRegs), ctx);
            EXPECT_EQ("sweep limit_smem", sweep_points[i].limit_smem, public_limit(r.blockLimitSharedMem), ctx);
            EXPECT_EQ("sweep virtual limiter", (sweep_points[i].limiters & GPUOCC_LIMIT_VIRTUAL) != 0,
                      r.blockLimitVirtual == r.activeBlocksPerMultiprocessor, ctx);
            EXPECT_EQ("sweep smem_per_block", sweep_points[i].smem_per_block_bytes,
                      (long long)r.allocatedSharedMemPerBlock, ctx);
        }
        /* steps, one unit past the legal range so the last drop shows; but barriers: past 16 a launch cannot
           run (an error, docs/model.md), so that range ends at the block's limit */
        int64_t past = axis == GPUOCC_AXIS_BARRIERS ? to : to + 1;
        EXPECT_EQ("sweep steps", gpuocc_sweep_steps(d, &k, axis, from, past, sweep_points, 4096, &n), GPUOCC_OK, ctx);
        for (int32_t i = 1; i < n; i++) {
            gpuocc_kernel at = kernel_at(k, axis, sweep_points[i].value);
            gpuocc_kernel before = kernel_at(k, axis, sweep_points[i].value - 1);
            cudaOccResult ra, rb;
            if (oracle_blocks(d, &at, &ra) != CUDA_OCC_SUCCESS || oracle_blocks(d, &before, &rb) != CUDA_OCC_SUCCESS)
                continue;
            int la[5] = {ra.blockLimitWarps, ra.blockLimitRegs, ra.blockLimitSharedMem, ra.blockLimitBlocks,
                         ra.blockLimitBarriers};
            int lb[5] = {rb.blockLimitWarps, rb.blockLimitRegs, rb.blockLimitSharedMem, rb.blockLimitBlocks,
                         rb.blockLimitBarriers};
            bool differs = ra.activeBlocksPerMultiprocessor != rb.activeBlocksPerMultiprocessor ||
                           (at.threads_per_block + 31) / 32 != (before.threads_per_block + 31) / 32;
            for (int j = 0; j < 5; j++)
                differs |= (la[j] == ra.activeBlocksPerMultiprocessor) != (lb[j] == rb.activeBlocksPerMultiprocessor);
            differs |= (ra.blockLimitVirtual == ra.activeBlocksPerMultiprocessor) !=
                       (rb.blockLimitVirtual == rb.activeBlocksPerMultiprocessor);
            EXPECT_EQ("sweep step is a change", differs, 1, ctx);
        }
    }
}

/* The batch call on a prepared device: a base launch (carveout, opt-in, barriers) with random columns of
   threads, registers and shared memory; every row equals the header's answer and the single call's. */
#define BATCHES_PER_ARCH 20
#define BATCH_ROWS 2000
static void compare_batch(const char *arch, const gpuocc_device *d)
{
    static int32_t threads[BATCH_ROWS], regs[BATCH_ROWS], status[BATCH_ROWS], blocks[BATCH_ROWS];
    static int32_t warps[BATCH_ROWS], limit_regs[BATCH_ROWS], limit_smem[BATCH_ROWS], regs_per_block[BATCH_ROWS];
    static int32_t limit_warps[BATCH_ROWS], limit_blocks[BATCH_ROWS], limit_barriers[BATCH_ROWS];
    static int32_t static32[BATCH_ROWS], dynamic32[BATCH_ROWS];
    static int64_t smem_static[BATCH_ROWS], smem_dynamic[BATCH_ROWS], smem_per_block[BATCH_ROWS];
    static int64_t smem_per_sm[BATCH_ROWS];
    static double occupancy[BATCH_ROWS];
    static uint32_t limiters[BATCH_ROWS];
    static int round;
    round++;
    gpuocc_prepared prepared = {.size = sizeof prepared};
    EXPECT_EQ("prepare", gpuocc_prepare(d, &prepared), GPUOCC_OK, arch);
    gpuocc_kernel base, k;
    random_kernel(d, &base);
    for (int i = 0; i < BATCH_ROWS; i++) {
        random_kernel(d, &k);
        threads[i] = k.threads_per_block, regs[i] = k.regs_per_thread;
        smem_static[i] = k.smem_static_bytes, smem_dynamic[i] = k.smem_dynamic_bytes;
        static32[i] = (int32_t)smem_static[i], dynamic32[i] = (int32_t)smem_dynamic[i];
    }
    /* every output column; the shared-memory columns as int64_t or int32_t elements, and now and then a
       column left to the base kernel */
    bool narrow = round % 2 == 0, no_threads = round % 5 == 0, no_dynamic = round % 7 == 0;
    gpuocc_batch b = {.size = sizeof b, .smem_width = narrow ? 4 : 8,
                      .threads_per_block = no_threads ? NULL : threads, .regs_per_thread = regs,
                      .smem_static_bytes = narrow ? (const void *)static32 : smem_static,
                      .smem_dynamic_bytes = no_dynamic ? NULL : narrow ? (const void *)dynamic32 : smem_dynamic,
                      .status = status, .blocks_per_sm = blocks, .warps_per_sm = warps, .occupancy = occupancy,
                      .limiters = limiters, .limit_warps = limit_warps, .limit_regs = limit_regs,
                      .limit_smem = limit_smem, .limit_blocks = limit_blocks, .limit_barriers = limit_barriers,
                      .regs_per_block = regs_per_block, .smem_per_block_bytes = smem_per_block,
                      .smem_per_sm_bytes = smem_per_sm};
    EXPECT_EQ("batch", gpuocc_occupancy_batch(&prepared, &base, &b, BATCH_ROWS), GPUOCC_OK, arch);
    for (int i = 0; i < BATCH_ROWS; i++) {
        k = base;
        k.threads_per_block = no_threads ? base.threads_per_block : threads[i], k.regs_per_thread = regs[i];
        k.smem_static_bytes = smem_static[i], k.smem_dynamic_bytes = no_dynamic ? base.smem_dynamic_bytes : smem_dynamic[i];
        char ctx[200];
        snprintf(ctx, sizeof ctx, "%s batch row %d: threads=%d regs=%d static=%lld dyn=%lld carveout=%d optin=%d",
                 arch, i, k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes,
                 (long long)k.smem_dynamic_bytes, k.carveout_percent, k.smem_optin);
        gpuocc_result single = {.size = sizeof single};
        EXPECT_EQ("batch status", status[i], gpuocc_occupancy(d, &k, &single), ctx);
        EXPECT_EQ("batch = single call", blocks[i], single.blocks_per_sm, ctx);
        EXPECT_EQ("batch limiters = single call", limiters[i], single.limiters, ctx);
        if (status[i] == GPUOCC_OK)
            EXPECT_EQ("batch = single call, every field",
                      warps[i] == single.warps_per_sm && occupancy[i] == single.occupancy &&
                          limit_warps[i] == single.limit_warps && limit_regs[i] == single.limit_regs &&
                          limit_smem[i] == single.limit_smem && limit_blocks[i] == single.limit_blocks &&
                          limit_barriers[i] == single.limit_barriers && regs_per_block[i] == single.regs_per_block &&
                          smem_per_block[i] == single.smem_per_block_bytes && smem_per_sm[i] == single.smem_per_sm_bytes,
                      1, ctx);
        cudaOccResult r;
        if (status[i] != GPUOCC_OK || oracle_blocks(d, &k, &r) != CUDA_OCC_SUCCESS)
            continue;
        EXPECT_EQ("batch blocks", blocks[i], r.activeBlocksPerMultiprocessor, ctx);
        EXPECT_EQ("batch warps", warps[i], r.activeBlocksPerMultiprocessor * ((k.threads_per_block + 31) / 32), ctx);
        EXPECT_EQ("batch limit_regs", limit_regs[i], public_limit(r.blockLimitRegs), ctx);
        EXPECT_EQ("batch limit_smem", limit_smem[i], public_limit(r.blockLimitSharedMem), ctx);
        EXPECT_EQ("batch regs_per_block", regs_per_block[i], r.allocatedRegistersPerBlock, ctx);
        EXPECT_EQ("batch smem_per_block", smem_per_block[i], (long long)r.allocatedSharedMemPerBlock, ctx);
    }
}

int main(void)
{
    long total_configs = 0, total_stale = 0;
    for (int32_t i = 0; i < gpuocc_catalog_count(); i++) {
        if (gpuocc_catalog_kind(i) != GPUOCC_CATALOG_ARCH)
            continue;
        gpuocc_device d = {.size = sizeof d};
        if (gpuocc_catalog_device(i, &d) != GPUOCC_OK) {
            printf("MISMATCH: catalog entry %d does not load\n", i);
            failures++;
            continue;
        }
        if (d.vendor != GPUOCC_VENDOR_NVIDIA) /* cuda_occupancy.h knows NVIDIA only */
            continue;
        d.sm_count = (int32_t)(i + 10); /* a bare architecture gets an SM count so min grids compare */
        const char *arch = gpuocc_catalog_name(i);
        long before = failures, stale = 0;
        gpuocc_prepared prepared = {.size = sizeof prepared};
        EXPECT_EQ("prepare", gpuocc_prepare(&d, &prepared), GPUOCC_OK, arch);
        for (int n = 0; n < CONFIGS_PER_ARCH; n++)
            compare_occupancy(arch, &d, &prepared, &stale);
        for (int n = 0; n < SEARCHES_PER_ARCH; n++)
            compare_search(arch, &d);
        for (int n = 0; n < SWEEPS_PER_ARCH; n++)
            compare_sweep(arch, &d);
        for (int n = 0; n < BATCHES_PER_ARCH; n++)
            compare_batch(arch, &d);
        total_configs += CONFIGS_PER_ARCH;
        total_stale += stale;
        printf("%-7s %d occupancy configurations, %d searches, %d launches swept on 4 axes, %d batch rows: %ld "
               "mismatches (oracle stale limiter flags: %ld)\n",
               arch, CONFIGS_PER_ARCH, SEARCHES_PER_ARCH, SWEEPS_PER_ARCH, BATCHES_PER_ARCH * BATCH_ROWS,
               failures - before, stale);
    }
    printf("oracle: %ld configurations, %ld field comparisons, %ld mismatches\n", total_configs, checks, failures);
    printf("oracle: %ld passed, %ld failed\n", checks - failures, failures);
    (void)total_stale;
    return failures == 0 ? 0 : 1;
}
#endif
