/* Inverse and search queries, on cases derived by hand, and properties on random devices. */
#include "common.h"
#include <stdio.h>
#include <string.h>

Test(search, best_block_prefers_the_largest_full_size)
{
    /* A100 at 64 regs: 8 warps per sub-partition = 32 warps whatever the block size; every multiple of
       32 up to 1024 reaches 1024 resident threads, and the largest wins the tie.  min grid 1 x 108. */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(1, 64, 0, 0);
    int32_t threads = 0, grid = 0;
    cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 0, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 1024);
    cr_expect_eq(grid, 108);
}

Test(search, best_block_respects_launch_bounds)
{
    /* max 200 threads: candidates 200, 192, 160, ...; at 16 regs 200 threads (7 warps) gives 9 blocks =
       1800 threads; 192 (6 warps) gives 10 blocks = 1920; 128 gives 16 = 2048, the first to fill the SM */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(1, 16, 0, 0);
    k.max_threads_per_block = 200;
    int32_t threads = 0, grid = 0;
    gpuocc_best_block_affine(&d, &k, 0, 0, &threads, &grid);
    cr_expect_eq(threads, 128);
    cr_expect_eq(grid, 16 * 108);
}

static int64_t eight_bytes_per_thread(int32_t threads, void *user)
{
    (void)user;
    return 8 * (int64_t)threads;
}

Test(search, best_block_variable_shared_memory_three_ways)
{
    /* T4 (64 KiB, 16 blocks, 32 warps), 32 regs, 64 B per thread of dynamic smem:
       1024 threads need 64 KiB -> 1 block = 1024; 512 need 32 KiB -> 2 blocks = 1024; the largest wins */
    gpuocc_device d = test_device("T4");
    gpuocc_kernel k = test_kernel(1, 32, 0, 0);
    k.smem_optin = 1; /* more than 48 KiB of dynamic shared memory needs the opt-in */
    int32_t t1 = 0, t2 = 0, t3 = 0, grid = 0;
    gpuocc_best_block_affine(&d, &k, 0, 64, &t1, &grid);
    cr_expect_eq(t1, 1024);
    cr_expect_eq(grid, 40);
    /* with 1 KiB fixed on top, 1024 threads no longer fit (65 KiB); 992 neither (63 KiB: 1 block = 992);
       512 -> 33 KiB -> 1 block; 480 -> 31 KiB -> 2 blocks = 960; the best is 992 */
    gpuocc_best_block_affine(&d, &k, 1024, 64, &t1, &grid);
    cr_expect_eq(t1, 992);

    int64_t table[1025];
    for (int t = 0; t <= 1024; t++)
        table[t] = 8 * (int64_t)t;
    gpuocc_best_block_table(&d, &k, table, 1025, &t2, &grid);
    gpuocc_best_block_callback(&d, &k, eight_bytes_per_thread, NULL, &t3, &grid);
    gpuocc_best_block_affine(&d, &k, 0, 8, &t1, &grid);
    cr_expect_eq(t1, 1024);
    cr_expect_eq(t2, t1);
    cr_expect_eq(t3, t1);
    cr_expect_eq(gpuocc_best_block_table(&d, &k, table, 1000, &t2, &grid), GPUOCC_ERR_BUFFER);
}

Test(search, best_block_nothing_fits)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(1, 300, 0, 0);
    int32_t threads = -1, grid = -1;
    cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 0, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 0);
    cr_expect_eq(grid, 0);
}

Test(search, dynamic_smem_available)
{
    /* A100, 256 threads, 32 regs.  2 blocks in the 164 KiB carveout: 83968 each; minus 1024 reserved,
       on the 128-byte grid: 82944 with opt-in, the 48 KiB default limit without.
       3 blocks: floor(167936 / 3) = 55978 -> 55936 allocated -> 54912 dynamic. */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 32, 0, 0);
    int64_t bytes = 0;
    k.smem_optin = 0;
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 2, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 49152);
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 3, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 49152); /* 54912 would fit, but 48 KiB is the limit */
    k.smem_optin = 1;
    gpuocc_smem_dynamic_available(&d, &k, 2, &bytes);
    cr_expect_eq(bytes, 82944);
    gpuocc_smem_dynamic_available(&d, &k, 3, &bytes);
    cr_expect_eq(bytes, 54912);
    /* 1 block: the opt-in limit, 166912 */
    gpuocc_smem_dynamic_available(&d, &k, 1, &bytes);
    cr_expect_eq(bytes, 166912);
    /* static memory counts against it */
    k.smem_static_bytes = 10000;
    gpuocc_smem_dynamic_available(&d, &k, 3, &bytes);
    cr_expect_eq(bytes, 54912 - 10000);
    /* 9 blocks of 256 threads can never fit (8 by warps) */
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 9, &bytes), GPUOCC_ERR_UNSATISFIABLE);
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 0, &bytes), GPUOCC_ERR_ARGUMENT);
}

Test(search, registers_for_n_blocks)
{
    /* A100, 256 threads (2 warps per sub-partition per block).
       4 blocks = 8 warps per sub-partition: <= 2048 regs per warp -> 64 per thread.
       3 blocks = 6 per sub-partition: <= 2730 -> 2560 per warp -> 80 per thread.
       1 block: 8192 per warp -> 256, capped at the 255 ptxas can allocate. */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 100, 0, 0);
    int32_t regs = 0;
    gpuocc_regs_max_for_blocks(&d, &k, 4, &regs);
    cr_expect_eq(regs, 64);
    gpuocc_regs_max_for_blocks(&d, &k, 3, &regs);
    cr_expect_eq(regs, 80);
    gpuocc_regs_max_for_blocks(&d, &k, 1, &regs);
    cr_expect_eq(regs, 255);
    cr_expect_eq(gpuocc_regs_max_for_blocks(&d, &k, 9, &regs), GPUOCC_ERR_UNSATISFIABLE);
}

Test(search, next_step)
{
    gpuocc_device d = test_device("A100");
    int64_t value = 0, shed = 0;
    /* seeds' Example 1: 4 blocks at 64 regs; 5 blocks = 40 warps = 10 per sub-partition:
       <= 1638 -> 1536 per warp -> 48 regs: shed 16 */
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    cr_expect_eq(gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_REGISTERS, &value, &shed), GPUOCC_OK);
    cr_expect_eq(value, 48);
    cr_expect_eq(shed, 16);
    /* shared memory is not what limits it: nothing to shed */
    gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_SMEM, &value, &shed);
    cr_expect_eq(shed, 0);
    /* seeds' Example 2: 3 blocks of 48 KiB; 4 blocks need <= 41984 allocated -> 40960 requested: shed 8192 */
    gpuocc_kernel k2 = test_kernel(256, 32, 48 * 1024, 0);
    gpuocc_next_step(&d, &k2, GPUOCC_RESOURCE_SMEM, &value, &shed);
    cr_expect_eq(value, 40960);
    cr_expect_eq(shed, 8192);
    /* warps: 1024-thread blocks at 16 regs give 2 blocks; 3 need <= 21 warps -> 672 threads */
    gpuocc_kernel k3 = test_kernel(1024, 16, 0, 0);
    gpuocc_next_step(&d, &k3, GPUOCC_RESOURCE_WARPS, &value, &shed);
    cr_expect_eq(value, 672);
    cr_expect_eq(shed, 352);
    /* the block-slot cap cannot be shed */
    gpuocc_kernel k4 = test_kernel(32, 16, 0, 0);
    cr_expect_eq(gpuocc_next_step(&d, &k4, GPUOCC_RESOURCE_BLOCKS, &value, &shed), GPUOCC_ERR_UNSATISFIABLE);
    /* barriers on H100 (64 per SM): 256 threads x 32 regs -> 8 blocks by warps and by registers; 16 barriers
       (the most a block may use) give 4 blocks; 5 blocks need <= floor(64 / 5) = 12 barriers */
    gpuocc_device h = test_device("H100");
    gpuocc_kernel k5 = test_kernel(256, 32, 0, 0);
    k5.barriers = 16;
    gpuocc_next_step(&h, &k5, GPUOCC_RESOURCE_BARRIERS, &value, &shed);
    cr_expect_eq(value, 12);
    cr_expect_eq(shed, 4);
    cr_expect_eq(gpuocc_next_step(&d, &k, 99, &value, &shed), GPUOCC_ERR_RESOURCE);
}

/* Static shared memory near INT64_MAX (which the kernel checks accept) plus the
   reserved bytes overflowed int64 (UBSan aborted).  Such a launch cannot run at all: static shared memory
   above the static limit is GPUOCC_ERR_EXCEEDED, before any sum. */
Test(search, dynamic_available_static_near_int64_max)
{
    gpuocc_device d = test_device("A100");
    const int64_t statics[] = {INT64_MAX, INT64_MAX - 1023, INT64_MAX - 1024, (int64_t)1 << 62};
    for (size_t i = 0; i < sizeof statics / sizeof statics[0]; i++) {
        gpuocc_kernel k = test_kernel(256, 32, statics[i], 0);
        for (int32_t optin = 0; optin <= 1; optin++) {
            k.smem_optin = optin;
            int64_t bytes = -12345;
            cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 1, &bytes), GPUOCC_ERR_EXCEEDED,
                         "static %lld optin %d", (long long)statics[i], optin);
            cr_expect_eq(bytes, -12345);
        }
    }
}

/* A shared-memory total that saturates (2^60) was reported as a real number of bytes
   to shed.  Static + dynamic = 2^63 - 1 + 1 does not fit int64: GPUOCC_ERR_OVERFLOW, outputs kept. */
Test(search, next_step_smem_saturated_total_is_overflow)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 32, 1, INT64_MAX); /* static within its limit: the sum overflows */
    int64_t value = -7, shed = -7;
    cr_expect_eq(gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_SMEM, &value, &shed), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(value, -7);
    cr_expect_eq(shed, -7);
    /* 2^59 + 2^59 = 2^60 exactly fits int64 but reaches the saturation point: still an overflow */
    k = test_kernel(256, 32, 1024, ((int64_t)1 << 60) - 1024);
    cr_expect_eq(gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_SMEM, &value, &shed), GPUOCC_ERR_OVERFLOW);
    /* 2^41 is an honest total: 4 blocks need <= 41984 allocated -> 40960, shed the rest */
    k = test_kernel(256, 32, 1024, ((int64_t)1 << 41) - 1024);
    cr_expect_eq(gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_SMEM, &value, &shed), GPUOCC_OK);
    cr_expect_eq(value + shed, (int64_t)1 << 41);
}

/* ---- properties on random devices, against the definitions walked with gpuocc_occupancy ----
   Devices far from the catalog's: units that are not powers of two, carveouts that more than double (so
   that a larger block can get a larger carveout and more blocks), GP100's compatibility layout, few slots. */

static uint64_t prop_rng = 0x9E3779B97F4A7C15u;
static int64_t prop_pick(int64_t lo, int64_t hi) /* inclusive, xorshift64 */
{
    prop_rng ^= prop_rng << 13, prop_rng ^= prop_rng >> 7, prop_rng ^= prop_rng << 17;
    return lo + (int64_t)(prop_rng % (uint64_t)(hi - lo + 1));
}

static bool random_device(gpuocc_device *d)
{
    static const char *bases[] = {"sm_60", "sm_75", "sm_80", "sm_86", "sm_90", "sm_120"};
    *d = test_device(bases[prop_pick(0, 5)]);
    if (prop_pick(0, 2) == 0) {
        static const int32_t warps[] = {32, 16, 24, 8, 64};
        d->warp_size = warps[prop_pick(0, 4)];
        d->max_threads_per_sm = d->warp_size * (int32_t)prop_pick(4, 64);
        d->max_threads_per_block = (int32_t)prop_pick(d->warp_size, 1024);
    }
    if (prop_pick(0, 2) == 0) {
        static const int32_t units[] = {256, 128, 96, 512, 8};
        d->reg_alloc_unit = units[prop_pick(0, 4)];
        d->sub_partitions = (int32_t)prop_pick(1, 4);
        d->reg_compat_sub_partitions = prop_pick(0, 2) ? 0 : (int32_t)prop_pick(1, 4);
        d->regs_per_block = (int32_t)prop_pick(8192, 65536);
    }
    d->max_blocks_per_sm = prop_pick(0, 2) ? d->max_blocks_per_sm : (int32_t)prop_pick(1, 40);
    d->barriers_per_sm = prop_pick(0, 2) ? d->barriers_per_sm : (int32_t)prop_pick(0, 20);
    if (prop_pick(0, 1)) {
        static const int32_t units[] = {128, 256, 384, 1000, 32};
        d->smem_alloc_unit_bytes = units[prop_pick(0, 4)];
        d->smem_reserved_per_block_bytes = prop_pick(0, 1) ? 0 : prop_pick(0, 2048);
        /* ascending carveouts, some gaps far more than doubling */
        int32_t n = (int32_t)prop_pick(0, GPUOCC_MAX_CARVEOUTS), kib = (int32_t)prop_pick(0, 4);
        memset(d->carveouts_kib, 0, sizeof d->carveouts_kib);
        for (int32_t i = 0; i < n; i++) {
            d->carveouts_kib[i] = kib;
            kib += (int32_t)(prop_pick(0, 3) ? prop_pick(1, 24) : prop_pick(1, 4) * kib + 1);
        }
        d->carveout_count = n;
        d->smem_per_sm_bytes = n ? (int64_t)d->carveouts_kib[n - 1] * 1024 - prop_pick(0, 1) * 512 : prop_pick(0, 200000);
        if (d->smem_per_sm_bytes < 0)
            d->smem_per_sm_bytes = 0;
        d->smem_per_block_bytes = prop_pick(0, d->smem_per_sm_bytes);
        int64_t room = d->smem_per_sm_bytes - d->smem_reserved_per_block_bytes;
        d->smem_per_block_optin_bytes = room > d->smem_per_block_bytes ? prop_pick(d->smem_per_block_bytes, room)
                                                                       : d->smem_per_block_bytes;
    }
    return gpuocc_device_validate(d) == GPUOCC_OK;
}

static void random_search_kernel(const gpuocc_device *d, gpuocc_kernel *k)
{
    gpuocc_kernel_init(k);
    k->threads_per_block = (int32_t)prop_pick(1, d->max_threads_per_block);
    k->regs_per_thread = (int32_t)(prop_pick(0, 3) ? prop_pick(0, 128) : prop_pick(0, 300));
    /* within the static limit: above it a launch cannot run (an error, tested apart) */
    k->smem_static_bytes = prop_pick(0, 2) ? 0 : prop_pick(0, d->smem_per_block_bytes);
    k->smem_dynamic_bytes = prop_pick(0, 20000);
    k->carveout_percent = (int32_t)(prop_pick(0, 2) == 0 ? -1 : prop_pick(0, 100));
    k->smem_optin = (int32_t)prop_pick(0, 1);
    k->smem_dynamic_max_bytes = k->smem_optin && prop_pick(0, 1) ? prop_pick(0, d->smem_per_block_optin_bytes) : -1;
    k->barriers = (int32_t)prop_pick(0, 4);
    k->max_threads_per_block = prop_pick(0, 2) ? 0 : (int32_t)prop_pick(1, 1100);
}

static int32_t blocks_with(const gpuocc_device *d, gpuocc_kernel k, int32_t threads, int64_t dynamic)
{
    k.threads_per_block = threads;
    k.smem_dynamic_bytes = dynamic;
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(d, &k, &r), GPUOCC_OK);
    return r.blocks_per_sm;
}

/* The best block size by its definition: candidates min(device, kernel) maximum, then every multiple of
   the warp below it; most resident threads, the largest on ties; 0 when none runs. */
static void best_by_definition(const gpuocc_device *d, const gpuocc_kernel *k, const int64_t *smem,
                               int32_t *threads, int32_t *grid)
{
    int32_t limit = d->max_threads_per_block;
    if (k->max_threads_per_block > 0 && k->max_threads_per_block < limit)
        limit = k->max_threads_per_block;
    int64_t best = 0;
    *threads = 0, *grid = 0;
    for (int32_t t = limit; t >= 1; t = (t % d->warp_size ? t / d->warp_size * d->warp_size : t - d->warp_size)) {
        int32_t b = blocks_with(d, *k, t, smem[t]);
        if ((int64_t)b * t > best)
            best = (int64_t)b * t, *threads = t, *grid = b * d->sm_count;
    }
}

Test(search, properties_on_random_devices)
{
    static int64_t table[1025];
    int devices = 0;
    long fits = 0, searches = 0;
    while (devices < 150) {
        gpuocc_device d;
        if (!random_device(&d))
            continue;
        devices++;
        d.sm_count = (int32_t)prop_pick(0, 3);
        for (int n = 0; n < 12; n++) {
            gpuocc_kernel k;
            random_search_kernel(&d, &k);
            int32_t want = (int32_t)prop_pick(1, 12);
            char ctx[200];
            snprintf(ctx, sizeof ctx, "warp %d unit %d parts %d/%d smem unit %lld carveouts %d; threads %d regs %d "
                     "static %lld want %d", d.warp_size, d.reg_alloc_unit, d.sub_partitions,
                     d.reg_compat_sub_partitions, (long long)d.smem_alloc_unit_bytes, d.carveout_count,
                     k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes, want);

            /* registers: want blocks fit at the answer, not at one more register (up to 255), and every
               smaller count fits too; unsatisfiable = not even 0 registers fit */
            int32_t regs = -1, hi = d.regs_per_thread_max < 255 ? d.regs_per_thread_max : 255;
            int32_t rc = gpuocc_regs_max_for_blocks(&d, &k, want, &regs);
            gpuocc_kernel t = k;
            if (rc == GPUOCC_OK) {
                t.regs_per_thread = regs;
                cr_assert_geq(blocks_with(&d, t, t.threads_per_block, t.smem_dynamic_bytes), want, "%s", ctx);
                for (int32_t v = regs + 1; v <= hi; v++) {
                    t.regs_per_thread = v;
                    cr_assert_lt(blocks_with(&d, t, t.threads_per_block, t.smem_dynamic_bytes), want,
                                 "%s: %d regs fit, answer %d", ctx, v, regs);
                }
                fits++;
            } else {
                cr_assert_eq(rc, GPUOCC_ERR_UNSATISFIABLE, "%s", ctx);
                t.regs_per_thread = 0;
                cr_assert_lt(blocks_with(&d, t, t.threads_per_block, t.smem_dynamic_bytes), want, "%s", ctx);
            }

            /* dynamic shared memory: want blocks fit at the answer, at no byte count above it (each
               allocation granule above it at its smallest byte count, which covers every byte) */
            int64_t bytes = -1;
            rc = gpuocc_smem_dynamic_available(&d, &k, want, &bytes);
            if (rc == GPUOCC_OK) {
                cr_assert_geq(blocks_with(&d, k, k.threads_per_block, bytes), want, "%s: %lld bytes", ctx,
                              (long long)bytes);
                int64_t unit = d.smem_alloc_unit_bytes, fixed = k.smem_static_bytes + d.smem_reserved_per_block_bytes;
                int64_t top = (d.smem_per_block_optin_bytes > d.smem_per_sm_bytes ? d.smem_per_block_optin_bytes
                                                                                  : d.smem_per_sm_bytes) + fixed;
                for (int64_t v = bytes + 1; v <= top + unit; v = ((v + fixed - 1) / unit + 1) * unit - fixed + 1)
                    cr_assert_lt(blocks_with(&d, k, k.threads_per_block, v), want, "%s: %lld bytes fit, answer %lld",
                                 ctx, (long long)v, (long long)bytes);
                fits++;
            } else {
                cr_assert_eq(rc, GPUOCC_ERR_UNSATISFIABLE, "%s", ctx);
                cr_assert_lt(blocks_with(&d, k, k.threads_per_block, 0), want, "%s", ctx);
            }

            /* best block size: constant, affine and a random (not monotone) table, against the walk */
            int64_t base = prop_pick(0, 1) ? 0 : prop_pick(0, 40000), per = prop_pick(0, 2) ? 0 : prop_pick(0, 300);
            for (int form = 0; form < 3; form++) {
                for (int32_t i = 0; i <= 1024; i++)
                    table[i] = form == 0 ? base : form == 1 ? base + per * i : prop_pick(0, 5) ? prop_pick(0, 60000) : 0;
                int32_t expect_t = -1, expect_g = -1, got_t = -2, got_g = -2;
                best_by_definition(&d, &k, table, &expect_t, &expect_g);
                rc = form == 2 ? gpuocc_best_block_table(&d, &k, table, 1025, &got_t, &got_g)
                               : gpuocc_best_block_affine(&d, &k, base, form ? per : 0, &got_t, &got_g);
                cr_assert_eq(rc, GPUOCC_OK, "%s", ctx);
                cr_assert(got_t == expect_t && got_g == expect_g, "%s form %d base %lld per %lld: %d/%d, walk %d/%d",
                          ctx, form, (long long)base, (long long)per, got_t, got_g, expect_t, expect_g);
                searches++;
            }
        }
    }
    cr_expect_gt(fits, 500);
    cr_expect_gt(searches, 3000);
}

/* ---- pipeline stages (gpuocc_max_stages) ---- */

Test(search, max_stages_by_hand)
{
    /* A100, 2 blocks: the 164 KiB carveout / 2 = 82 KiB a block, 1 KiB of it reserved: 81 KiB dynamic.
       Stages of 16 KiB: 5 (80 KiB); after 8 KiB of base, 4 (72 KiB; 5 would be 88 KiB) */
    gpuocc_device a100 = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 32, 0, 0);
    int64_t stages = -1;
    cr_expect_eq(gpuocc_max_stages(&a100, &k, 2, 0, 16 * 1024, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 5);
    cr_expect_eq(gpuocc_max_stages(&a100, &k, 2, 8 * 1024, 16 * 1024, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 4);
    /* the base alone over 81 KiB: never 2 blocks; 0 stages when only the base fits */
    cr_expect_eq(gpuocc_max_stages(&a100, &k, 2, 82 * 1024, 1024, &stages), GPUOCC_ERR_UNSATISFIABLE);
    cr_expect_eq(gpuocc_max_stages(&a100, &k, 2, 80 * 1024, 16 * 1024, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 0);
    /* H100, 1 block: the opt-in limit, 227 KiB of dynamic shared memory: 7 stages of 32 KiB (224 KiB) */
    gpuocc_device h100 = test_device("H100");
    cr_expect_eq(gpuocc_max_stages(&h100, &k, 1, 0, 32 * 1024, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 7);
    /* without the opt-in, the 48 KiB default: 3 stages of 16 KiB */
    k.smem_optin = 0;
    cr_expect_eq(gpuocc_max_stages(&h100, &k, 1, 0, 16 * 1024, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 3);
    k.smem_optin = 1;
    /* 9 blocks of 256 threads need 72 warps, more than the 64 slots: no shared memory helps */
    cr_expect_eq(gpuocc_max_stages(&h100, &k, 9, 0, 1024, &stages), GPUOCC_ERR_UNSATISFIABLE);
    /* arguments */
    cr_expect_eq(gpuocc_max_stages(&h100, &k, 0, 0, 1024, &stages), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_max_stages(&h100, &k, 1, 0, 0, &stages), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_max_stages(&h100, &k, 1, -1, 1024, &stages), GPUOCC_ERR_SMEM);
    cr_expect_eq(gpuocc_max_stages(&h100, &k, 1, 0, 1024, NULL), GPUOCC_ERR_NULL);

    /* MI300X, 2 workgroups of 256 threads at 32 VGPRs: 64 KiB of LDS per CU / 2 = 32 KiB each; stages of
       4 KiB after 1 KiB: 7 (29 KiB; 8 would be 33 KiB) */
    gpuocc_device mi300x = test_device("MI300X");
    gpuocc_kernel amd = test_kernel(256, 32, 0, 0);
    cr_expect_eq(gpuocc_max_stages(&mi300x, &amd, 2, 1024, 4096, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 7);

    /* DG2, 4 work-groups of 256 work-items (sub-group 16): 128 KiB of SLM per Xe-core, a work-group's SLM
       rounded up to an allowed size: 32 KiB each.  Stages of 10 KiB: 3 (30 KiB -> 32 KiB); after 3 KiB of
       base, 2 (33 KiB would round up to 64 KiB: 2 work-groups) */
    gpuocc_device dg2 = test_device("dg2");
    gpuocc_kernel intel = test_kernel(256, 0, 0, 0);
    intel.sub_group = 16;
    cr_expect_eq(gpuocc_max_stages(&dg2, &intel, 4, 0, 10 * 1024, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 3);
    cr_expect_eq(gpuocc_max_stages(&dg2, &intel, 4, 3 * 1024, 10 * 1024, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 2);
}

Test(search, max_stages_when_blocks_rise)
{
    /* A described device whose carveouts jump from 8 KiB to 64 KiB: at carveout preference 0 a block of up to
       8 KiB gets 8 KiB, a larger one 64 KiB.  7 blocks of one warp: 8192 / 7 = 1170 -> 1152 B (granule 128)
       under the small carveout, 65536 / 7 = 9362 -> 9344 B above 8 KiB; nothing between fits 7. */
    gpuocc_device d = test_device("sm_80");
    memset(d.carveouts_kib, 0, sizeof d.carveouts_kib);
    d.carveouts_kib[0] = 8, d.carveouts_kib[1] = 64, d.carveout_count = 2;
    d.smem_per_sm_bytes = 64 * 1024, d.smem_per_block_bytes = 48 * 1024, d.smem_per_block_optin_bytes = 64 * 1024;
    d.smem_reserved_per_block_bytes = 0;
    cr_assert_eq(gpuocc_device_validate(&d), GPUOCC_OK);
    gpuocc_kernel k = test_kernel(32, 0, 0, 0);
    k.carveout_percent = 0;
    int64_t bytes = 0, stages = -1;
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 7, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 9344);
    /* 4608 B stages: 2 (9216 B, the large carveout) */
    cr_expect_eq(gpuocc_max_stages(&d, &k, 7, 0, 4608, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 2);
    /* 2048 B stages: 4 would be 8192 B, the small carveout's single block; 1..3 too; only 0 fits */
    cr_expect_eq(gpuocc_max_stages(&d, &k, 7, 0, 2048, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 0);
    /* 3000 B stages after 1000 B: 7000 and 4000 B get the small carveout; 1000 B (1024 allocated) fits */
    cr_expect_eq(gpuocc_max_stages(&d, &k, 7, 1000, 3000, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 0);
    /* 1000 B stages after 100 B: 9 (9100 B, 9216 allocated) */
    cr_expect_eq(gpuocc_max_stages(&d, &k, 7, 100, 1000, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 9);
    /* after 2000 B of base nothing fits 7 below 8 KiB, and 2000 + 3000 x 3 = 11000 B is over 9344 */
    cr_expect_eq(gpuocc_max_stages(&d, &k, 7, 2000, 3000, &stages), GPUOCC_ERR_UNSATISFIABLE);
}

/* The most stages by their definition: every s from 0 while the bytes stay within `top`, each asked of
   gpuocc_occupancy (not only until the first that does not fit: blocks may rise again); -1 when none fits. */
static long stages_rising; /* walks where the blocks fitted again after a stage that did not fit */
static int64_t stages_by_definition(const gpuocc_device *d, gpuocc_kernel k, int32_t want, int64_t base,
                                    int64_t stage, int64_t top)
{
    int64_t best = -1;
    bool gap = false;
    for (int64_t s = 0; base + s * stage <= top; s++) {
        k.smem_dynamic_bytes = base + s * stage;
        gpuocc_result r = {.size = sizeof r};
        if (gpuocc_occupancy(d, &k, &r) == GPUOCC_OK && r.blocks_per_sm >= want) {
            stages_rising += gap && best >= 0;
            gap = false;
            best = s;
        } else
            gap = true;
    }
    return best;
}

static void check_stages(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t base, int64_t stage,
                         const char *what, long *answers)
{
    /* no launch fits above the larger of the per-SM and per-block shared memory, reserve included */
    int64_t top = (d->smem_per_sm_bytes > d->smem_per_block_optin_bytes ? d->smem_per_sm_bytes
                                                                         : d->smem_per_block_optin_bytes) + 4096;
    int64_t expect = stages_by_definition(d, *k, want, base, stage, top), got = -2;
    int32_t rc = gpuocc_max_stages(d, k, want, base, stage, &got);
    (*answers)++;
    if (expect < 0) {
        cr_assert_eq(rc, GPUOCC_ERR_UNSATISFIABLE, "%s: %d blocks, base %lld, stage %lld: status %d, stages %lld",
                     what, want, (long long)base, (long long)stage, rc, (long long)got);
        return;
    }
    cr_assert_eq(rc, GPUOCC_OK, "%s: %d blocks, base %lld, stage %lld", what, want, (long long)base, (long long)stage);
    cr_assert_eq(got, expect, "%s: %d blocks, base %lld, stage %lld: %lld stages, walk %lld", what, want,
                 (long long)base, (long long)stage, (long long)got, (long long)expect);
}

Test(search, max_stages_on_every_catalog_device)
{
    /* every device of every vendor, against gpuocc_occupancy stage by stage */
    long answers = 0;
    for (int32_t i = 0; i < gpuocc_catalog_count(); i++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(i, &d), GPUOCC_OK);
        static const int32_t threads[] = {64, 256, 1024};
        static const int32_t carveouts[] = {GPUOCC_CARVEOUT_DEFAULT, 0, 30, 100};
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
            for (size_t c = 0; c < sizeof carveouts / sizeof carveouts[0]; c++) {
                gpuocc_kernel k = test_kernel(threads[t] <= d.max_threads_per_block ? threads[t] : d.warp_size, 32,
                                              t == 1 ? 2048 : 0, 0);
                if (d.vendor == GPUOCC_VENDOR_NVIDIA)
                    k.carveout_percent = carveouts[c];
                else if (c > 0)
                    break; /* a carveout is NVIDIA's */
                k.smem_optin = c != 2;
                for (int32_t want = 1; want <= 6; want++) {
                    check_stages(&d, &k, want, 0, 4096, gpuocc_catalog_name(i), &answers);
                    check_stages(&d, &k, want, 5000, 12345, gpuocc_catalog_name(i), &answers);
                    check_stages(&d, &k, want, 1024, 32768, gpuocc_catalog_name(i), &answers);
                }
                check_stages(&d, &k, 2, 100, 700, gpuocc_catalog_name(i), &answers);
            }
    }
    cr_expect_gt(answers, 3000);
    cr_expect_eq(stages_rising, 0, "blocks rose with shared memory on a catalog device");
}

Test(search, max_stages_on_random_devices)
{
    /* carveouts that more than double: blocks may rise with the shared memory, the walk by carveout */
    long answers = 0;
    int devices = 0;
    while (devices < 1000) {
        gpuocc_device d;
        if (!random_device(&d))
            continue;
        devices++;
        for (int n = 0; n < 4; n++) {
            gpuocc_kernel k;
            random_search_kernel(&d, &k);
            int32_t want = (int32_t)prop_pick(1, 6);
            int64_t base = prop_pick(0, 1) ? 0 : prop_pick(0, 20000), stage = prop_pick(64, 9000);
            char what[160];
            snprintf(what, sizeof what, "random device %d (carveouts %d, unit %d), threads %d regs %d static %lld "
                     "carveout %d optin %d max %lld", devices, d.carveout_count, d.smem_alloc_unit_bytes,
                     k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes, k.carveout_percent,
                     k.smem_optin, (long long)k.smem_dynamic_max_bytes);
            gpuocc_result r = {.size = sizeof r};
            if (gpuocc_occupancy(&d, &k, &r) != GPUOCC_OK)
                continue; /* a refused kernel: tested with the refusals */
            check_stages(&d, &k, want, base, stage, what, &answers);
        }
    }
    cr_expect_gt(answers, 3000);
    cr_expect_gt(stages_rising, 5, "rising %ld", stages_rising); /* the case the walk by carveout is for was met */
}
