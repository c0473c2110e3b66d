/*
 * The seeds' worked examples (shared/seeds: "Occupancy and latency hiding: worked examples" on A100,
 * and "Occupancy" for the H100 register figures), with the seeds' numbers.
 */
#include "common.h"

Test(seeds, example1_registers_bite_first)
{
    /* 64 regs x 32 = 2048 per warp; 65536 / 2048 = 32 warps = 50 % */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.warps_per_sm, 32);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect_float_eq(r.occupancy, 0.5, 1e-12);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
    cr_expect_eq(r.regs_per_block, 8 * 2048); /* register file exactly full: 4 x 16384 = 65536 */
}

Test(seeds, example2_shared_memory_bites_first)
{
    /* 48 KB per block: floor(164 KB / 48 KB) = 3 blocks = 24 warps = 37.5 %.
       With the driver's 1 KiB per block: floor(167936 / 50176) = 3, the same. */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 32, 48 * 1024, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 3);
    cr_expect_eq(r.warps_per_sm, 24);
    cr_expect_float_eq(r.occupancy, 0.375, 1e-12);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_SMEM);
    cr_expect_eq(r.limit_regs, 8); /* 64 warps of registers */
}

Test(seeds, example3_block_cap_bites)
{
    /* 32-thread blocks, 16 regs: registers allow 128 warps, the 32-block cap gives 32 warps = 50 % */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(32, 16, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 32);
    cr_expect_eq(r.warps_per_sm, 32);
    cr_expect_float_eq(r.occupancy, 0.5, 1e-12);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_BLOCKS);
    cr_expect_eq(r.limit_regs, 128);
}

Test(seeds, example4_nothing_limits)
{
    /* 16 regs, 0 smem, 128 threads: min(128, inf, 128, 64) = 64 warps = 100 %, the warp slots bind */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(128, 16, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.warps_per_sm, 64);
    cr_expect_float_eq(r.occupancy, 1.0, 1e-12);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS);
}

Test(seeds, example5_one_thread_per_block)
{
    /* 1 thread = 1 warp per block; the block cap gives 32 warps = 50 % */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(1, 16, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.warps_per_sm, 32);
    cr_expect_float_eq(r.occupancy, 0.5, 1e-12);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_BLOCKS);
}

Test(seeds, example6_register_limit)
{
    /* 128 regs: 4096 per warp, 16 warps = 4 blocks of 4 warps = 25 % */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(128, 128, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.warps_per_sm, 16);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect_float_eq(r.occupancy, 0.25, 1e-12);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
}

Test(seeds, example6_tie_when_block_cap_matches)
{
    /* The seed's Cell F: with a block cap of 4, registers and blocks both give 4 blocks: both reported. */
    gpuocc_device d = test_device("A100");
    d.max_blocks_per_sm = 4;
    gpuocc_kernel k = test_kernel(128, 128, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS | GPUOCC_LIMIT_BLOCKS);
}

Test(seeds, example8_occupancy_before_and_after_cap)
{
    /* 128 regs -> 16 warps = 25 %, 64 regs -> 32 warps = 50 % (whole-warp blocks of 128 threads) */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(128, 128, 0, 0);
    cr_expect_eq(test_occupancy(&d, &k).warps_per_sm, 16);
    k.regs_per_thread = 64;
    cr_expect_eq(test_occupancy(&d, &k).warps_per_sm, 32);
}

Test(seeds, h100_register_figures)
{
    /* "Occupancy" seed on H100: R=32 -> 64 warps (100 %), R=64 -> 32 warps (50 %), R=128 -> 25 % */
    gpuocc_device d = test_device("H100");
    const int32_t regs[] = {32, 64, 128};
    const double want[] = {1.0, 0.5, 0.25};
    for (int i = 0; i < 3; i++) {
        gpuocc_kernel k = test_kernel(256, regs[i], 0, 0);
        cr_expect_float_eq(test_occupancy(&d, &k).occupancy, want[i], 1e-12, "R=%d", regs[i]);
    }
    /* tiny blocks (1 warp) hit the 32-block cap at 32 warps = 50 % */
    gpuocc_kernel k = test_kernel(32, 16, 0, 0);
    cr_expect_float_eq(test_occupancy(&d, &k).occupancy, 0.5, 1e-12);
}
