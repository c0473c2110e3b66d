/* Sweeps and the staircase's steps: hand derivations from the allocation rules, the seeds' staircase, and
   agreement with single gpuocc_occupancy calls and with a value-by-value scan. */
#include "common.h"

#include <string.h>

#define MAX_POINTS 4096

static gpuocc_sweep_point points[MAX_POINTS];

/* the steps of one sweep, asserted to succeed */
static int32_t steps_of(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t from, int64_t to)
{
    int32_t n = -1;
    cr_assert_eq(gpuocc_sweep_steps(d, k, axis, from, to, points, MAX_POINTS, &n), GPUOCC_OK);
    return n;
}

static gpuocc_kernel with_axis(gpuocc_kernel k, int32_t axis, int64_t v)
{
    switch (axis) {
    case GPUOCC_AXIS_THREADS: k.threads_per_block = (int32_t)v; break;
    case GPUOCC_AXIS_REGS: k.regs_per_thread = (int32_t)v; break;
    case GPUOCC_AXIS_SMEM: k.smem_dynamic_bytes = v; break;
    default: k.barriers = (int32_t)v; break;
    }
    return k;
}

/*
 * The seeds' register staircase on A100 (worked examples 1, 4, 6), derived from the allocation rules:
 * 256 threads = 8 warps per block; the warp slots allow 64 / 8 = 8 blocks; registers go to a warp in units
 * of 256 (per warp: ceil(32 r / 256) x 256), and each of the 4 sub-partitions has 65536 / 4 = 16384, so
 * register blocks = floor(floor(16384 / per_warp) x 4 / 8).  No shared memory: 1 KiB reserved -> 164 blocks.
 *   r  1..16: 512 per warp  -> 32 per part -> 16 blocks; 8 (warps) binds.               100 %
 *   r 17..24: 768           -> 21          -> 10 blocks; 8 (warps).
 *   r 25..32: 1024          -> 16          ->  8 blocks: ties with the warps (limiters warps|registers)
 *   r 33..40: 1280          -> 12          ->  6                                         75 %
 *   r 41..48: 1536          -> 10          ->  5                                         62.5 %
 *   r 49..64: 1792, 2048    ->  9, 8       ->  4                                         50 %  (seed: 64 -> 50 %)
 *   r 65..80: 2304, 2560    ->  7, 6       ->  3                                         37.5 %
 *   r 81..128: 2816..4096   ->  5, 5, 4, 4, 4, 4 -> 2                                    25 %  (seed: 128 -> 25 %)
 *   r 129..256: 4352..8192  ->  3 .. 2     ->  1; 8192 x 8 = 65536 = the per-block limit  12.5 %
 *   r 257: above the runtime's 256 per thread -> 0 blocks.
 * r = 0 allocates nothing (no register limit): warps alone, the same answer as r = 1..24.
 */
Test(sweep, seed_register_staircase_on_a100)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 0, 0, 0);
    int32_t n = steps_of(&d, &k, GPUOCC_AXIS_REGS, 0, 257);
    const int64_t at[] = {0, 25, 33, 41, 49, 65, 81, 129, 257};
    const int32_t blocks[] = {8, 8, 6, 5, 4, 3, 2, 1, 0};
    const uint32_t lim[] = {GPUOCC_LIMIT_WARPS, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_REGISTERS};
    cr_assert_eq(n, 9);
    for (int i = 0; i < n; i++) {
        cr_expect_eq(points[i].value, at[i], "step %d at %lld, derived %lld", i, (long long)points[i].value,
                     (long long)at[i]);
        cr_expect_eq(points[i].blocks_per_sm, blocks[i], "step %d", i);
        cr_expect_eq(points[i].warps_per_sm, blocks[i] * 8);
        cr_expect_eq(points[i].limiters, i < 2 ? lim[i] : GPUOCC_LIMIT_REGISTERS, "step %d", i);
    }
    /* the seeds' three points lie on the curve */
    const struct { int32_t regs; double occ; } seed[] = {{16, 1.0}, {64, 0.5}, {128, 0.25}};
    for (int i = 0; i < 3; i++) {
        int32_t c = 0;
        cr_assert_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, seed[i].regs, seed[i].regs, 1, points, 1, &c), GPUOCC_OK);
        cr_expect_eq(c, 1);
        cr_expect_eq(points[0].occupancy, seed[i].occ, "%d regs", seed[i].regs);
    }
}

/*
 * Dynamic shared memory on A100, 256 threads, 16 registers (16 register blocks, 8 warp blocks): the block
 * is given roundup(dynamic + 1 KiB reserved, 128); the default carveout is the largest, 164 KiB = 167936 B.
 * blocks >= b needs alloc <= floor(167936 / b) rounded down to 128, so dynamic <= that - 1024:
 *   b 9: 18659 -> 18560 -> 17536   (above: 8 smem blocks, a tie with the warps)
 *   b 8: 20992 -> 20992 -> 19968   b 7: 23990 -> 23936 -> 22912   b 6: 27989 -> 27904 -> 26880
 *   b 5: 33587 -> 33536 -> 32512   b 4: 41984 -> 41984 -> 40960   b 3: 55978 -> 55936 -> 54912
 *   b 2: 83968 -> 83968 -> 82944   b 1: 167936 -> 166912, also the opt-in limit of 163 KiB per block.
 * Each step is one past those.  The seeds' example 2 (48 KB, 37.5 %) lies in the 3-block run.
 */
Test(sweep, shared_memory_staircase_on_a100)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 16, 0, 0);
    k.smem_optin = 1; /* the kernel raised its limit */
    int64_t from, to, step;
    cr_assert_eq(gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_SMEM, &from, &to, &step), GPUOCC_OK);
    cr_expect_eq(from, 0);
    cr_expect_eq(to, 166912);
    cr_expect_eq(step, 128);
    int32_t n = steps_of(&d, &k, GPUOCC_AXIS_SMEM, 0, 300000);
    const int64_t at[] = {0, 17537, 19969, 22913, 26881, 32513, 40961, 54913, 82945, 166913};
    const int32_t blocks[] = {8, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    cr_assert_eq(n, 10);
    for (int i = 0; i < n; i++) {
        cr_expect_eq(points[i].value, at[i], "step %d at %lld, derived %lld", i, (long long)points[i].value,
                     (long long)at[i]);
        cr_expect_eq(points[i].blocks_per_sm, blocks[i], "step %d", i);
    }
    cr_expect_eq(points[0].limiters, GPUOCC_LIMIT_WARPS);
    cr_expect_eq(points[1].limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_SMEM);
    int32_t c = 0;
    cr_assert_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_SMEM, 49152, 49152, 1, points, 1, &c), GPUOCC_OK);
    cr_expect_eq(points[0].occupancy, 0.375);
}

/*
 * Barriers on H100 (64 per SM, applied from cc 9.0), 64-thread blocks, 16 registers: warps allow 64 / 2 =
 * 32 blocks, the block cap 32.  Barrier blocks = floor(64 / n): n 1 -> 64, 2 -> 32 (a tie: barriers join the
 * limiters), 3 -> 21, 4 -> 16, 5 -> 12, 6 -> 10, 7 -> 9, 8 -> 8, 9 -> 7, 10 -> 6, 11..12 -> 5, 13..16 -> 4.
 */
Test(sweep, barrier_staircase_on_h100)
{
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(64, 16, 0, 0);
    int32_t n = steps_of(&d, &k, GPUOCC_AXIS_BARRIERS, 0, 16);
    const int64_t at[] = {0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13};
    const int32_t blocks[] = {32, 32, 21, 16, 12, 10, 9, 8, 7, 6, 5, 4};
    cr_assert_eq(n, 12);
    for (int i = 0; i < n; i++) {
        cr_expect_eq(points[i].value, at[i], "step %d", i);
        cr_expect_eq(points[i].blocks_per_sm, blocks[i], "step %d", i);
    }
    cr_expect_eq(points[1].limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_BLOCKS | GPUOCC_LIMIT_BARRIERS);
}

/*
 * Threads on A100 at 64 registers (2048 per warp, 8 warps per sub-partition, 32 warps per SM): the answer
 * changes at every warp boundary (warps per block move); from 33 threads every block size holds 32 warps
 * when 32 divides by its warps, e.g. 4 warps -> 8 blocks, 5 warps -> floor(32 / 5) = 6 blocks (30 warps).
 */
Test(sweep, threads_change_only_where_a_warp_starts)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(1, 64, 0, 0);
    int32_t n = steps_of(&d, &k, GPUOCC_AXIS_THREADS, 1, 1024);
    for (int i = 1; i < n; i++)
        cr_expect_eq(points[i].value % 32, 1, "step at %lld", (long long)points[i].value);
    int32_t c = 0;
    cr_assert_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_THREADS, 128, 160, 32, points, 2, &c), GPUOCC_OK);
    cr_expect_eq(points[0].blocks_per_sm, 8);
    cr_expect_eq(points[1].blocks_per_sm, 6);
    cr_expect_eq(points[1].warps_per_sm, 30);
}

static void expect_point_equals_single_call(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis,
                                            const gpuocc_sweep_point *p)
{
    gpuocc_kernel one = with_axis(*k, axis, p->value);
    gpuocc_result r = test_occupancy(d, &one);
    cr_expect_eq(p->blocks_per_sm, r.blocks_per_sm);
    cr_expect_eq(p->warps_per_sm, r.warps_per_sm);
    cr_expect_eq(p->occupancy, r.occupancy);
    cr_expect_eq(p->limiters, r.limiters);
    cr_expect_eq(p->limit_warps, r.limit_warps);
    cr_expect_eq(p->limit_regs, r.limit_regs);
    cr_expect_eq(p->limit_smem, r.limit_smem);
    cr_expect_eq(p->limit_blocks, r.limit_blocks);
    cr_expect_eq(p->limit_barriers, r.limit_barriers);
    cr_expect_eq(p->regs_per_block, r.regs_per_block);
    cr_expect_eq(p->smem_per_block_bytes, r.smem_per_block_bytes);
    cr_expect_eq(p->smem_per_sm_bytes, r.smem_per_sm_bytes);
    cr_expect_eq(p->reserved0, 0);
}

/* a few launches per device that put different resources at the edge */
static gpuocc_kernel launch(int i)
{
    static const struct { int32_t t, r, bar, carve, optin; int64_t st, dy; } l[] = {
        {256, 32, 1, -1, 1, 0, 0},        {128, 64, 1, -1, 1, 4096, 20000}, {96, 40, 3, 25, 1, 100, 3000},
        {1024, 24, 2, 0, 0, 8192, 0},     {32, 128, 1, 50, 1, 0, 70000},    {640, 255, 16, -1, 1, 12345, 999},
    };
    gpuocc_kernel k = test_kernel(l[i].t, l[i].r, l[i].st, l[i].dy);
    k.barriers = l[i].bar;
    k.carveout_percent = l[i].carve;
    k.smem_optin = l[i].optin;
    return k;
}
#define LAUNCHES 6

Test(sweep, every_point_equals_a_single_occupancy_call)
{
    for (int32_t e = 0; e < gpuocc_catalog_count(); e++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(e, &d), GPUOCC_OK);
        if (d.vendor != GPUOCC_VENDOR_NVIDIA) /* AMD: tests/test_amd.c */
            continue;
        for (int i = 0; i < LAUNCHES; i++) {
            gpuocc_kernel k = launch(i);
            for (int32_t axis = 0; axis < GPUOCC_AXIS_COUNT; axis++) {
                int64_t from, to, step;
                cr_assert_eq(gpuocc_sweep_range(&d, &k, axis, &from, &to, &step), GPUOCC_OK);
                int32_t n = 0;
                cr_assert_eq(gpuocc_sweep(&d, &k, axis, from, to, step, points, MAX_POINTS, &n), GPUOCC_OK);
                cr_assert_eq(n, (to - from) / step + 1);
                for (int32_t p = 0; p < n; p++) {
                    cr_assert_eq(points[p].value, from + p * step);
                    expect_point_equals_single_call(&d, &k, axis, &points[p]);
                }
            }
        }
    }
}

/* The steps equal the changes a value-by-value scan of single calls finds, on every architecture and axis,
   over the legal range and past it (products share their architecture's rules). */
Test(sweep, steps_equal_a_scan_of_every_value)
{
    for (int32_t e = 0; e < gpuocc_catalog_count(); e++) {
        if (gpuocc_catalog_kind(e) != GPUOCC_CATALOG_ARCH)
            continue;
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(e, &d), GPUOCC_OK);
        if (d.vendor != GPUOCC_VENDOR_NVIDIA) /* AMD: tests/test_amd.c */
            continue;
        for (int i = 0; i < LAUNCHES; i++) {
            gpuocc_kernel k = launch(i);
            for (int32_t axis = 0; axis < GPUOCC_AXIS_COUNT; axis++) {
                if (axis == GPUOCC_AXIS_SMEM && (i == 1 || i == 5)) /* byte scans are long: a subset */
                    continue;
                int64_t from, to, step;
                gpuocc_sweep_range(&d, &k, axis, &from, &to, &step);
                /* past the range, but barriers: above 16 a launch cannot run (an error, tested apart) */
                to = axis == GPUOCC_AXIS_SMEM ? d.smem_per_sm_bytes + 4096 : axis == GPUOCC_AXIS_BARRIERS ? to : to + 70;
                if (i == 2)
                    from += 5; /* a range that does not start at the axis' origin */
                int32_t n = steps_of(&d, &k, axis, from, to);
                int32_t s = 0;
                gpuocc_result prev = {.size = sizeof prev};
                for (int64_t v = from; v <= to; v++) {
                    gpuocc_kernel one = with_axis(k, axis, v);
                    gpuocc_result r = test_occupancy(&d, &one);
                    bool change = v == from || r.blocks_per_sm != prev.blocks_per_sm ||
                                  r.warps_per_sm != prev.warps_per_sm || r.limiters != prev.limiters;
                    if (change) {
                        cr_assert_lt(s, n, "%s launch %d axis %d: a change at %lld is missing", gpuocc_catalog_name(e),
                                     i, axis, (long long)v);
                        cr_assert_eq(points[s].value, v, "%s launch %d axis %d: step %d at %lld, scan %lld",
                                     gpuocc_catalog_name(e), i, axis, s, (long long)points[s].value, (long long)v);
                        expect_point_equals_single_call(&d, &k, axis, &points[s]);
                        s++;
                    }
                    prev = r;
                }
                cr_assert_eq(s, n, "%s launch %d axis %d: %d steps, scan %d", gpuocc_catalog_name(e), i, axis, n, s);
            }
        }
    }
}

Test(sweep, size_query_and_small_buffers_leave_outputs_alone)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 0, 0, 0);
    int32_t n = -1;
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 255, 1, NULL, 0, &n), GPUOCC_ERR_BUFFER);
    cr_expect_eq(n, 256);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 255, 10, NULL, 0, &n), GPUOCC_ERR_BUFFER);
    cr_expect_eq(n, 26); /* 0, 10, ..., 250 */
    gpuocc_sweep_point few[3];
    memset(few, 0xAB, sizeof few);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 255, 1, few, 3, &n), GPUOCC_ERR_BUFFER);
    cr_expect_eq(few[0].value, (int64_t)0xABABABABABABABABull);
    cr_expect_eq(gpuocc_sweep_steps(&d, &k, GPUOCC_AXIS_REGS, 0, 257, NULL, 0, &n), GPUOCC_ERR_BUFFER);
    cr_expect_eq(n, 9);
    cr_expect_eq(gpuocc_sweep_steps(&d, &k, GPUOCC_AXIS_REGS, 0, 257, few, 3, &n), GPUOCC_ERR_BUFFER);
    cr_expect_eq(few[2].value, (int64_t)0xABABABABABABABABull);
}

Test(sweep, errors)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 32, 0, 0);
    int32_t n = 7;
    int64_t a = 1, b = 2, c = 3;
    cr_expect_eq(gpuocc_sweep(&d, &k, 4, 0, 1, 1, points, 8, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_sweep(&d, &k, -1, 0, 1, 1, points, 8, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_THREADS, 0, 32, 1, points, 8, &n), GPUOCC_ERR_THREADS);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, -1, 32, 1, points, 8, &n), GPUOCC_ERR_REGISTERS);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, (int64_t)INT32_MAX + 1, 1, points, 8, &n),
                 GPUOCC_ERR_REGISTERS);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_SMEM, -5, 32, 1, points, 8, &n), GPUOCC_ERR_SMEM);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_BARRIERS, -5, 32, 1, points, 8, &n), GPUOCC_ERR_BARRIERS);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 5, 4, 1, points, 8, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 4, 0, points, 8, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 4, 1, points, -1, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 4, 1, NULL, 8, &n), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 4, 1, points, 8, NULL), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_SMEM, 0, INT64_MAX, 1, points, 8, &n), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_sweep(NULL, &k, GPUOCC_AXIS_REGS, 0, 4, 1, points, 8, &n), GPUOCC_ERR_NULL);
    cr_expect_eq(n, 7);
    /* another field of the kernel still counts */
    gpuocc_kernel bad = k;
    bad.carveout_percent = 101;
    cr_expect_eq(gpuocc_sweep(&d, &bad, GPUOCC_AXIS_REGS, 0, 4, 1, points, 8, &n), GPUOCC_ERR_CARVEOUT);
    cr_expect_eq(gpuocc_sweep_steps(&d, &bad, GPUOCC_AXIS_REGS, 0, 4, points, 8, &n), GPUOCC_ERR_CARVEOUT);
    /* the swept field itself is ignored, even when invalid */
    gpuocc_kernel swept = k;
    swept.threads_per_block = 0;
    cr_expect_eq(gpuocc_sweep(&d, &swept, GPUOCC_AXIS_THREADS, 32, 64, 32, points, 8, &n), GPUOCC_OK);
    cr_expect_eq(n, 2);
    cr_expect_eq(gpuocc_sweep_range(&d, &k, 9, &a, &b, &c), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_REGS, NULL, &b, &c), GPUOCC_ERR_NULL);
    cr_expect_eq(a, 1);
    cr_expect_eq(gpuocc_sweep_steps(&d, &k, GPUOCC_AXIS_SMEM, 0, (int64_t)1 << 59, points, MAX_POINTS, &n), GPUOCC_OK);
    cr_expect_eq(points[n - 1].blocks_per_sm, 0); /* past every limit: nothing fits, and no step after */
    /* a range reaching a block of 2^60 bytes (1024 reserved on A100) is refused as gpuocc_sweep and
       gpuocc_occupancy refuse it, though no step lies there */
    int64_t huge = (int64_t)1 << 60;
    cr_expect_eq(gpuocc_sweep_steps(&d, &k, GPUOCC_AXIS_SMEM, 0, INT64_MAX, points, MAX_POINTS, &n), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_sweep_steps(&d, &k, GPUOCC_AXIS_SMEM, huge - 4096, huge, points, MAX_POINTS, &n),
                 GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_SMEM, huge - 4096, huge, 1024, points, 8, &n), GPUOCC_ERR_OVERFLOW);
    gpuocc_result r = {.size = sizeof r};
    k.smem_dynamic_bytes = huge;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_OVERFLOW);
}

/* The steps of an axis cost their thresholds, not the range: past the largest block every limit is 0 and the
   answer never changes again, so a range to INT32_MAX threads has the steps of one that ends where the last
   limit reaches 0 (on AMD and Intel, whose steps are bisected on their limits, as on NVIDIA).  MI300X, 32
   VGPRs: 512 / 32 = 16 waves a SIMD, 64 a CU: past 4096 threads the registers fit none either; pvc, 128 GRF: 64
   hardware threads an Xe-core, 1024 work-items in sub-groups of 16. */
Test(sweep, threads_steps_past_every_limit_cost_nothing, .timeout = 20)
{
    const char *devices[] = {"MI300X", "gfx1032", "pvc", "H100"};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        gpuocc_device d = test_device(devices[i]);
        gpuocc_kernel k = test_kernel(256, d.vendor == GPUOCC_VENDOR_INTEL ? 0 : 32, 0, 0);
        int32_t near = steps_of(&d, &k, GPUOCC_AXIS_THREADS, 1, 8192);
        int32_t far = steps_of(&d, &k, GPUOCC_AXIS_THREADS, 1, INT32_MAX);
        cr_expect_eq(far, near, "%s: %d steps to INT32_MAX, %d to 8192", devices[i], far, near);
        cr_expect_eq(points[far - 1].blocks_per_sm, 0, "%s", devices[i]);
    }
}

/* Ranges: the legal range of each axis at its natural granularity. */
Test(sweep, default_ranges)
{
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(256, 32, 1000, 0);
    k.smem_optin = 1;
    int64_t from, to, step;
    cr_assert_eq(gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_THREADS, &from, &to, &step), GPUOCC_OK);
    cr_expect(from == 32 && to == 1024 && step == 32);
    k.max_threads_per_block = 200; /* __launch_bounds__(200) */
    gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_THREADS, &from, &to, &step);
    cr_expect(from == 32 && to == 200 && step == 32);
    gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_REGS, &from, &to, &step);
    cr_expect(from == 0 && to == 255 && step == 1);
    /* H100: 227 KiB = 232448 per block with opt-in, less 1000 static */
    gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_SMEM, &from, &to, &step);
    cr_expect(from == 0 && to == 231448 && step == 128);
    k.smem_optin = 0; /* 48 KiB without */
    gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_SMEM, &from, &to, &step);
    cr_expect(from == 0 && to == 49152 - 1000 && step == 128);
    gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_BARRIERS, &from, &to, &step);
    cr_expect(from == 0 && to == 16 && step == 1);
}

/* ---- virtual resources (cc 10.x-12.x): a limit no axis moves ---- */

/* One point of a sweep of `k` on `d`, asserted to succeed. */
static gpuocc_sweep_point point_at(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v)
{
    int32_t n = 0;
    gpuocc_sweep_point p[1];
    cr_assert_eq(gpuocc_sweep(d, k, axis, v, v, 1, p, 1, &n), GPUOCC_OK);
    cr_assert_eq(n, 1);
    return p[0];
}

/*
 * sm_120 (128 virtual resources per SM, 48 warp slots, 24 block slots, 24 barriers, 100 KiB carveout with
 * 1 KiB reserved a block, 128-byte units), a block of V = 40: floor(128 / 40) = 3 blocks at every point of
 * every axis unless another limit is lower.  128 threads = 4 warps at 32 registers (1024 a warp, 16384 / 1024
 * = 16 warps a sub-partition, 64 an SM) unless the axis moves them:
 *   threads: w warps give floor(48 / w) and floor(64 / w): 3 through w = 16 (512 threads, where the warps
 *            tie: 48 warps, 100 %), 2 from w = 17 (544), 1 at w = 32 (1024);
 *   registers: R registers give floor(16384 / (ceil(32 R / 256) x 256)) blocks: 4 at R = 128 (4096), 3 from
 *            R = 129 (4352: a tie), 2 from R = 169 (5632);
 *   dynamic bytes: the allocation (bytes + 1024 rounded up to 128) gives floor(102400 / allocation): 24000
 *            -> 25088 -> 4, 25000 -> 26112 -> 3 (a tie), 34000 -> 35072 -> 2;
 *   barriers: floor(24 / B): 8 -> 3 (a tie), 9 -> 2; none -> no limit.
 * V = 129 is more than an SM has: no block, the virtual resources alone the limiter.
 */
Test(sweep, virtual_resources_hand_derived)
{
    gpuocc_device d = test_device("sm_120");
    cr_assert_eq(d.virtual_resources_per_sm, 128);
    gpuocc_kernel k = test_kernel(128, 32, 0, 0);
    k.virtual_resources = 40;
    const struct {
        int32_t axis;
        int64_t v;
        int32_t blocks;
        uint32_t limiters;
    } want[] = {
        {GPUOCC_AXIS_THREADS, 32, 3, GPUOCC_LIMIT_VIRTUAL},
        {GPUOCC_AXIS_THREADS, 128, 3, GPUOCC_LIMIT_VIRTUAL},
        {GPUOCC_AXIS_THREADS, 512, 3, GPUOCC_LIMIT_VIRTUAL | GPUOCC_LIMIT_WARPS},
        {GPUOCC_AXIS_THREADS, 544, 2, GPUOCC_LIMIT_WARPS},
        {GPUOCC_AXIS_THREADS, 1024, 1, GPUOCC_LIMIT_WARPS},
        {GPUOCC_AXIS_REGS, 0, 3, GPUOCC_LIMIT_VIRTUAL},
        {GPUOCC_AXIS_REGS, 128, 3, GPUOCC_LIMIT_VIRTUAL},
        {GPUOCC_AXIS_REGS, 129, 3, GPUOCC_LIMIT_VIRTUAL | GPUOCC_LIMIT_REGISTERS},
        {GPUOCC_AXIS_REGS, 169, 2, GPUOCC_LIMIT_REGISTERS},
        {GPUOCC_AXIS_SMEM, 0, 3, GPUOCC_LIMIT_VIRTUAL},
        {GPUOCC_AXIS_SMEM, 24000, 3, GPUOCC_LIMIT_VIRTUAL},
        {GPUOCC_AXIS_SMEM, 25000, 3, GPUOCC_LIMIT_VIRTUAL | GPUOCC_LIMIT_SMEM},
        {GPUOCC_AXIS_SMEM, 34000, 2, GPUOCC_LIMIT_SMEM},
        {GPUOCC_AXIS_BARRIERS, 0, 3, GPUOCC_LIMIT_VIRTUAL},
        {GPUOCC_AXIS_BARRIERS, 8, 3, GPUOCC_LIMIT_VIRTUAL | GPUOCC_LIMIT_BARRIERS},
        {GPUOCC_AXIS_BARRIERS, 9, 2, GPUOCC_LIMIT_BARRIERS},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gpuocc_sweep_point p = point_at(&d, &k, want[i].axis, want[i].v);
        cr_expect_eq(p.blocks_per_sm, want[i].blocks, "axis %d value %lld", want[i].axis, (long long)want[i].v);
        cr_expect_eq(p.limiters, want[i].limiters, "axis %d value %lld", want[i].axis, (long long)want[i].v);
    }
    gpuocc_sweep_point full = point_at(&d, &k, GPUOCC_AXIS_THREADS, 512);
    cr_expect_eq(full.warps_per_sm, 48);
    cr_expect_eq(full.occupancy, 1.0);
    /* the same points inside longer sweeps (the runs and the vector lanes), and V = 129 on every axis */
    int32_t n = 0;
    cr_assert_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_THREADS, 32, 1024, 32, points, MAX_POINTS, &n), GPUOCC_OK);
    cr_assert_eq(n, 32);
    for (int32_t i = 0; i < n; i++) {
        int32_t w = i + 1;
        int32_t blocks = w <= 16 ? 3 : 48 / w;
        cr_expect_eq(points[i].blocks_per_sm, blocks, "threads %lld", (long long)points[i].value);
        cr_expect_eq(points[i].warps_per_sm, blocks * w, "threads %lld", (long long)points[i].value);
        cr_expect_eq((points[i].limiters & GPUOCC_LIMIT_VIRTUAL) != 0, w <= 16, "threads %lld",
                     (long long)points[i].value);
    }
    cr_assert_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, 0, 255, 1, points, MAX_POINTS, &n), GPUOCC_OK);
    for (int32_t i = 0; i < n; i++)
        cr_expect_eq(points[i].blocks_per_sm, i <= 168 ? 3 : 2, "registers %d", i);
    k.virtual_resources = 129;
    for (int32_t axis = 0; axis < GPUOCC_AXIS_COUNT; axis++) {
        int64_t from, to, step;
        cr_assert_eq(gpuocc_sweep_range(&d, &k, axis, &from, &to, &step), GPUOCC_OK);
        cr_assert_eq(gpuocc_sweep(&d, &k, axis, from, to, step, points, MAX_POINTS, &n), GPUOCC_OK);
        for (int32_t i = 0; i < n; i++) {
            cr_expect_eq(points[i].blocks_per_sm, 0, "axis %d value %lld", axis, (long long)points[i].value);
            cr_expect_eq(points[i].warps_per_sm, 0, "axis %d value %lld", axis, (long long)points[i].value);
            cr_expect(points[i].limiters & GPUOCC_LIMIT_VIRTUAL, "axis %d value %lld", axis,
                      (long long)points[i].value);
        }
    }
}

/* On several architectures (with and without virtual resources) and every axis over its whole range: each
   point of a kernel with virtual resources equals a single gpuocc_occupancy call, and equals the same sweep
   through the per-point path (the device declared one layout larger: checked on a copy), byte for byte. */
Test(sweep, virtual_resources_equal_single_calls)
{
    static gpuocc_sweep_point plain[MAX_POINTS];
    const char *archs[] = {"sm_60", "sm_80", "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "RTX 5090"};
    const int32_t uses[] = {1, 3, 8, 31, 40, 64, 127, 128, 129, 1000};
    struct {
        gpuocc_device d;
        uint64_t tail;
    } big;
    long with_limit = 0;
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        gpuocc_device d = test_device(archs[a]);
        memset(&big, 0, sizeof big);
        big.d = d, big.d.size = sizeof big;
        for (int i = 0; i < LAUNCHES; i++) {
            gpuocc_kernel k = launch(i);
            k.virtual_resources = uses[(a + (size_t)i * 3) % (sizeof uses / sizeof uses[0])];
            for (int32_t axis = 0; axis < GPUOCC_AXIS_COUNT; axis++) {
                int64_t from, to, step;
                cr_assert_eq(gpuocc_sweep_range(&d, &k, axis, &from, &to, &step), GPUOCC_OK);
                int32_t n = 0, m = 0;
                cr_assert_eq(gpuocc_sweep(&d, &k, axis, from, to, step, points, MAX_POINTS, &n), GPUOCC_OK);
                cr_assert_eq(gpuocc_sweep(&big.d, &k, axis, from, to, step, plain, MAX_POINTS, &m), GPUOCC_OK);
                cr_assert_eq(n, m);
                cr_assert_eq(memcmp(points, plain, (size_t)n * sizeof points[0]), 0, "%s launch %d axis %d",
                             archs[a], i, axis);
                for (int32_t p = 0; p < n; p++) {
                    expect_point_equals_single_call(&d, &k, axis, &points[p]);
                    with_limit += (points[p].limiters & GPUOCC_LIMIT_VIRTUAL) != 0;
                }
            }
        }
    }
    cr_expect_gt(with_limit, 1000); /* the virtual resources do limit on the newer architectures */
}

/* The threads axis with register counts around and far past the per-thread maximum (the vector lanes take
   registers per warp x 64 below 2^24, the per-point loop the rest): every point equals a single call. */
Test(sweep, threads_axis_large_register_counts_equal_single_calls)
{
    static const char *const archs[] = {"sm_60", "sm_75", "sm_80", "sm_90", "sm_120"};
    static const int32_t regs[] = {0, 1, 255, 256, 300, 8191, 8192, 100000};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_device_lookup(archs[a], &d), GPUOCC_OK);
        for (size_t r = 0; r < sizeof regs / sizeof regs[0]; r++) {
            gpuocc_kernel k = test_kernel(256, regs[r], 0, 0);
            int32_t n = 0;
            /* 1 .. 1024 by 1 and 32 .. 1024 by 32: groups of four and a partial one at the end */
            for (int64_t step = 1; step <= 32; step += 31) {
                cr_assert_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_THREADS, step, 1024 - (step == 1), step, points,
                                          MAX_POINTS, &n),
                             GPUOCC_OK);
                for (int32_t p = 0; p < n; p++)
                    expect_point_equals_single_call(&d, &k, GPUOCC_AXIS_THREADS, &points[p]);
            }
        }
    }
}
