/*
 * Virtual resources (CUDA 13's fifth block limit, cc 10.x-12.x): hand-derived counts through every query.
 * An SM of cc 10.x, 11.x or 12.x has 128; a block that uses V of them allows floor(128 / V) blocks, none
 * when V is 0 or the device has none (every cc before 10.0).  The oracle suite checks the same against
 * cuda_occupancy.h on random launches.
 */
#include "common.h"

#include <string.h>

static gpuocc_kernel virtual_kernel(int32_t threads, int32_t regs, int32_t v)
{
    gpuocc_kernel k = test_kernel(threads, regs, 0, 0);
    k.virtual_resources = v;
    return k;
}

Test(virtual, catalog)
{
    /* 128 from cc 10.0 through 12.x, products included; none before */
    const char *with[] = {"sm_100", "sm_101", "sm_103", "sm_110", "sm_120", "sm_121", "B200", "RTX 5090"};
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++)
        cr_expect_eq(test_device(with[i]).virtual_resources_per_sm, 128, "%s", with[i]);
    const char *without[] = {"sm_50", "sm_80", "sm_89", "sm_90", "H100"};
    for (size_t i = 0; i < sizeof without / sizeof without[0]; i++)
        cr_expect_eq(test_device(without[i]).virtual_resources_per_sm, 0, "%s", without[i]);
}

Test(virtual, limit_and_limiters)
{
    /* B200 (sm_100), 128 threads = 4 warps at 32 registers: warps 64 / 4 = 16, registers 1024 per warp,
       16384 per sub-partition / 1024 = 16 warps x 4 = 64 warps / 4 = 16, block slots 32, barriers 64 / 1 */
    gpuocc_device d = test_device("sm_100");
    gpuocc_kernel k = virtual_kernel(128, 32, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 16);
    cr_expect_eq(r.limit_virtual_resources, GPUOCC_UNLIMITED);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_REGISTERS);
    /* V = 40: floor(128 / 40) = 3 blocks, the virtual resources alone limit */
    k.virtual_resources = 40;
    r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 3);
    cr_expect_eq(r.warps_per_sm, 12);
    cr_expect_eq(r.limit_virtual_resources, 3);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_VIRTUAL);
    cr_expect_eq(r.limit_warps, 16); /* the other limits are unchanged */
    cr_expect_eq(r.limit_regs, 16);
    /* V = 8: 128 / 8 = 16 ties with the warps and the registers */
    k.virtual_resources = 8;
    r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 16);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_REGISTERS | GPUOCC_LIMIT_VIRTUAL);
    /* V = 128: one block; V = 129: none */
    k.virtual_resources = 128;
    cr_expect_eq(test_occupancy(&d, &k).blocks_per_sm, 1);
    k.virtual_resources = 129;
    r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.limit_virtual_resources, 0);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_VIRTUAL);
    /* RTX 5090 (sm_120, 48 warps): V = 8 allows 16, the warps 48 / 4 = 12 */
    gpuocc_device rtx = test_device("RTX 5090");
    k.virtual_resources = 8;
    r = test_occupancy(&rtx, &k);
    cr_expect_eq(r.blocks_per_sm, 12);
    cr_expect_eq(r.limit_virtual_resources, 16);
    cr_expect_eq(r.limiters & GPUOCC_LIMIT_VIRTUAL, 0u);
    /* H100 (cc 9.0) has none: the same kernel runs 16 */
    gpuocc_device h100 = test_device("H100");
    k.virtual_resources = 40;
    r = test_occupancy(&h100, &k);
    cr_expect_eq(r.blocks_per_sm, 16);
    cr_expect_eq(r.limit_virtual_resources, GPUOCC_UNLIMITED);
    cr_expect_str_eq(gpuocc_resource_name(GPUOCC_RESOURCE_VIRTUAL), "virtual_resources");
    cr_expect_eq(GPUOCC_LIMIT_VIRTUAL, 1u << 7);
}

Test(virtual, older_layouts)
{
    /* a 0.1.0 kernel (88 bytes, before the field) reads as V = 0; a 0.1.0 result (104 bytes) is written up
       to its size; the 0.2.0 development sizes between (96, 112) are no layout */
    gpuocc_device d = test_device("sm_100");
    gpuocc_kernel k = virtual_kernel(128, 32, 0);
    k.size = 88;
    unsigned char buf[sizeof(gpuocc_result) + 8];
    memset(buf, 0xa5, sizeof buf);
    gpuocc_result *r = (gpuocc_result *)(void *)buf;
    r->size = 104;
    cr_expect_eq(gpuocc_occupancy(&d, &k, r), GPUOCC_OK);
    cr_expect_eq(r->blocks_per_sm, 16);
    cr_expect_eq(buf[104], 0xa5); /* nothing past the caller's layout */
    k.size = 96;
    cr_expect_eq(gpuocc_occupancy(&d, &k, r), GPUOCC_ERR_STRUCT_SIZE);
    k.size = 88;
    r->size = 112;
    cr_expect_eq(gpuocc_occupancy(&d, &k, r), GPUOCC_ERR_STRUCT_SIZE);
    /* a 0.1.0 device (232 bytes, before the field) has no virtual resources; 384 bytes is no layout */
    gpuocc_device old = {.size = 384};
    cr_expect_eq(gpuocc_device_lookup("sm_100", &old), GPUOCC_ERR_STRUCT_SIZE);
    old.size = 232;
    cr_expect_eq(gpuocc_device_lookup("sm_100", &old), GPUOCC_OK);
    gpuocc_device whole = {.size = sizeof whole};
    gpuocc_device_lookup("sm_100", &whole);
    whole.virtual_resources_per_sm = 0;
    k.size = sizeof k;
    k.virtual_resources = 40;
    cr_expect_eq(test_occupancy(&whole, &k).blocks_per_sm, 16);
}

Test(virtual, checks)
{
    gpuocc_device d = test_device("sm_100");
    gpuocc_kernel k = virtual_kernel(128, 32, -1);
    gpuocc_result r = {.size = sizeof r};
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    k.virtual_resources = 0;
    k.tmem_columns = 1; /* the word after it: tensor-memory columns, 1 is off their domain */
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    k.tmem_columns = 0;
    /* the device's count: 0 .. 2^20 (the word after it is the barrier limit, checked in test_fastpath.c) */
    d.virtual_resources_per_sm = -1;
    cr_expect_eq(gpuocc_device_validate(&d), GPUOCC_ERR_DEVICE);
    d.virtual_resources_per_sm = 1 << 20;
    cr_expect_eq(gpuocc_device_validate(&d), GPUOCC_OK);
    d.virtual_resources_per_sm = (1 << 20) + 1;
    cr_expect_eq(gpuocc_device_validate(&d), GPUOCC_ERR_DEVICE);
    d.virtual_resources_per_sm = 128;
    /* AMD and Intel refuse the kernel field and the device field */
    const char *others[] = {"MI300X", "bmg"};
    for (size_t i = 0; i < 2; i++) {
        gpuocc_device o = test_device(others[i]);
        gpuocc_kernel ok = test_kernel(256, 32, 0, 0);
        cr_expect_eq(gpuocc_occupancy(&o, &ok, &r), GPUOCC_OK, "%s", others[i]);
        cr_expect_eq(r.limit_virtual_resources, GPUOCC_UNLIMITED, "%s", others[i]);
        ok.virtual_resources = 1;
        cr_expect_eq(gpuocc_occupancy(&o, &ok, &r), GPUOCC_ERR_ARGUMENT, "%s", others[i]);
        o.virtual_resources_per_sm = 128;
        cr_expect_eq(gpuocc_device_validate(&o), GPUOCC_ERR_DEVICE, "%s", others[i]);
    }
}

Test(virtual, searches_sweeps_batches)
{
    gpuocc_device d = test_device("sm_100");
    /* V = 64 caps at 2 blocks: the best block is 1024 threads (2 x 32 warps fill the 64 slots) */
    gpuocc_kernel k = virtual_kernel(128, 32, 64);
    int32_t threads = 0, grid = 0;
    cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 0, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 1024);
    /* inverse queries: 3 blocks of V = 40 fit, 4 never do */
    k.virtual_resources = 40;
    int64_t bytes = -1;
    int32_t regs = -1;
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 3, &bytes), GPUOCC_OK);
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 4, &bytes), GPUOCC_ERR_UNSATISFIABLE);
    cr_expect_eq(gpuocc_regs_max_for_blocks(&d, &k, 3, &regs), GPUOCC_OK);
    cr_expect_eq(gpuocc_regs_max_for_blocks(&d, &k, 4, &regs), GPUOCC_ERR_UNSATISFIABLE);
    /* a sweep equals the single call at every point, never above 3 */
    gpuocc_sweep_point pts[64];
    int32_t n = 0;
    cr_assert_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_THREADS, 32, 1024, 32, pts, 64, &n), GPUOCC_OK);
    cr_assert_eq(n, 32);
    for (int32_t i = 0; i < n; i++) {
        gpuocc_kernel at = k;
        at.threads_per_block = (int32_t)pts[i].value;
        gpuocc_result r = test_occupancy(&d, &at);
        cr_expect_eq(pts[i].blocks_per_sm, r.blocks_per_sm, "threads %d", at.threads_per_block);
        cr_expect_eq(pts[i].limiters, r.limiters, "threads %d", at.threads_per_block);
        cr_expect(pts[i].blocks_per_sm <= 3);
    }
    /* steps on the registers axis, 128 threads (4 warps, one per sub-partition): R registers give a warp
       ceil(32 R / 256) x 256 and a sub-partition floor(16384 / that) warps = blocks.  3 blocks of the
       virtual resources until the registers tie at 3 (4352 from R = 129: 3 warps), then 2 from R = 169
       (5632 > 16384 / 3); 1 would need R >= 257 */
    cr_assert_eq(gpuocc_sweep_steps(&d, &k, GPUOCC_AXIS_REGS, 0, 255, pts, 64, &n), GPUOCC_OK);
    cr_assert_eq(n, 3);
    cr_expect_eq(pts[0].value, 0);
    cr_expect_eq(pts[0].blocks_per_sm, 3);
    cr_expect_eq(pts[0].limiters, GPUOCC_LIMIT_VIRTUAL);
    cr_expect_eq(pts[1].value, 129);
    cr_expect_eq(pts[1].blocks_per_sm, 3);
    cr_expect_eq(pts[1].limiters, GPUOCC_LIMIT_VIRTUAL | GPUOCC_LIMIT_REGISTERS);
    cr_expect_eq(pts[2].value, 169);
    cr_expect_eq(pts[2].blocks_per_sm, 2);
    cr_expect_eq(pts[2].limiters, GPUOCC_LIMIT_REGISTERS);
    for (int32_t i = 1; i < n; i++) {
        cr_expect(pts[i].blocks_per_sm != pts[i - 1].blocks_per_sm || pts[i].limiters != pts[i - 1].limiters);
        gpuocc_kernel at = k;
        at.regs_per_thread = (int32_t)pts[i].value;
        cr_expect_eq(pts[i].blocks_per_sm, test_occupancy(&d, &at).blocks_per_sm);
    }
    /* a batch of the base kernel's V equals the single calls */
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    int32_t t[4] = {32, 128, 256, 1024}, rg[4] = {32, 64, 128, 255}, status[4], blocks[4];
    uint32_t limiters[4];
    gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .threads_per_block = t, .regs_per_thread = rg,
                      .status = status, .blocks_per_sm = blocks, .limiters = limiters};
    cr_assert_eq(gpuocc_occupancy_batch(&p, &k, &b, 4), GPUOCC_OK);
    for (int i = 0; i < 4; i++) {
        gpuocc_kernel at = k;
        at.threads_per_block = t[i], at.regs_per_thread = rg[i];
        gpuocc_result r = test_occupancy(&d, &at);
        cr_expect_eq(blocks[i], r.blocks_per_sm, "row %d", i);
        cr_expect_eq(limiters[i], r.limiters, "row %d", i);
        gpuocc_result pr = {.size = sizeof pr};
        cr_expect_eq(gpuocc_occupancy_prepared(&p, &at, &pr), GPUOCC_OK);
        cr_expect_eq(pr.blocks_per_sm, r.blocks_per_sm, "row %d", i);
        cr_expect_eq(pr.limit_virtual_resources, 3, "row %d", i);
    }
    cr_expect_eq(blocks[0], 3); /* 32 threads: only the virtual resources limit */
    cr_expect_eq(limiters[0], GPUOCC_LIMIT_VIRTUAL);
}
