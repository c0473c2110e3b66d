/* Each allocation rule, on cases derived by hand (docs/model.md gives the rules and their sources). */
#include "common.h"

#include <limits.h>

Test(limits, warp_slots)
{
    gpuocc_device d = test_device("A100");
    int32_t b = -1;
    cr_expect_eq(gpuocc_limit_warps(&d, 256, &b), GPUOCC_OK);
    cr_expect_eq(b, 8); /* 64 warps / 8 */
    gpuocc_limit_warps(&d, 33, &b);
    cr_expect_eq(b, 32); /* 33 threads = 2 warps */
    gpuocc_limit_warps(&d, 1024, &b);
    cr_expect_eq(b, 2);
    gpuocc_limit_warps(&d, 1025, &b);
    cr_expect_eq(b, 0); /* above the device maximum: 0 blocks, not an error */
    gpuocc_limit_warps(&d, INT32_MAX, &b);
    cr_expect_eq(b, 0);
    gpuocc_device t4 = test_device("T4");
    gpuocc_limit_warps(&t4, 1024, &b);
    cr_expect_eq(b, 1); /* Turing: 32 warp slots */
    gpuocc_device l4 = test_device("L4");
    gpuocc_limit_warps(&l4, 640, &b);
    cr_expect_eq(b, 2); /* 48 warps / 20 */
}

Test(limits, register_allocation_unit)
{
    gpuocc_device d = test_device("sm_80");
    int32_t per_warp = 0;
    gpuocc_regs_per_warp(&d, 37, &per_warp);
    cr_expect_eq(per_warp, 1280); /* 37 x 32 = 1184, rounded up to 5 x 256 */
    gpuocc_regs_per_warp(&d, 0, &per_warp);
    cr_expect_eq(per_warp, 0);
    int64_t per_block = 0;
    gpuocc_regs_per_block(&d, 100, 37, &per_block);
    cr_expect_eq(per_block, 4 * 1280); /* 100 threads = 4 warps */
}

Test(limits, register_sub_partition_split)
{
    /* 200 regs: 6400 per warp.  Each of 4 sub-partitions holds floor(16384 / 6400) = 2 warps -> 8 warps,
       not the floor(65536 / 6400) = 10 a whole-file division would give. */
    gpuocc_device d = test_device("A100");
    int32_t b = -1;
    gpuocc_limit_registers(&d, 32, 200, &b);
    cr_expect_eq(b, 8);
}

Test(limits, register_per_block_hardware_check)
{
    /* 800 threads = 25 warps at 80 regs (2560 per warp): 25 x 2560 = 64000 fits the 65536 per block,
       but the hardware check rounds warps up to 28 (a multiple of 4 sub-partitions): 71680 > 65536. */
    gpuocc_device d = test_device("A100");
    int32_t b = -1;
    gpuocc_limit_registers(&d, 800, 80, &b);
    cr_expect_eq(b, 0);
    gpuocc_limit_registers(&d, 800, 64, &b); /* 2048 x 28 = 57344 fits; 32 warps / 25 = 1 */
    cr_expect_eq(b, 1);
}

Test(limits, register_per_thread_cap)
{
    gpuocc_device volta = test_device("sm_70");
    gpuocc_device pascal = test_device("sm_61");
    int32_t b = -1;
    gpuocc_limit_registers(&volta, 32, 255, &b);
    cr_expect_eq(b, 8); /* 8160 -> 8192 per warp, 2 per sub-partition */
    gpuocc_limit_registers(&pascal, 32, 256, &b);
    cr_expect_eq(b, 0); /* above 255 on cc 6.x */
    gpuocc_limit_registers(&volta, 32, INT32_MAX, &b);
    cr_expect_eq(b, 0);
    gpuocc_limit_registers(&volta, 32, 0, &b);
    cr_expect_eq(b, GPUOCC_UNLIMITED);
}

Test(limits, gp100_must_fit_gp10x)
{
    /* 288 threads = 9 warps at 192 regs (6144 per warp).  GP100 (2 sub-partitions): 6144 x 10 = 61440
       fits a block and 32768 / 6144 = 5 warps per half -> 10 warps -> 1 block.  GP10x (4): 6144 x 12
       = 73728 does not fit, and the runtime refuses on GP100 what GP10x could not run. */
    gpuocc_device d = test_device("sm_60");
    int32_t b = -1;
    gpuocc_limit_registers(&d, 288, 192, &b);
    cr_expect_eq(b, 0);
    d.reg_compat_sub_partitions = 0;
    gpuocc_limit_registers(&d, 288, 192, &b);
    cr_expect_eq(b, 1);
}

Test(limits, shared_memory_granularity_and_reserved)
{
    gpuocc_device a100 = test_device("A100");
    gpuocc_device v100 = test_device("V100");
    int64_t bytes = 0;
    gpuocc_smem_per_block(&a100, 1000, 0, &bytes);
    cr_expect_eq(bytes, 2048); /* 1000 + 1024 reserved = 2024 -> 16 x 128 */
    gpuocc_smem_per_block(&a100, 0, 0, &bytes);
    cr_expect_eq(bytes, 1024); /* even an empty block costs the reserved 1 KiB from cc 8.0 */
    gpuocc_smem_per_block(&v100, 1000, 0, &bytes);
    cr_expect_eq(bytes, 1024); /* 256-byte unit, nothing reserved */
    gpuocc_smem_per_block(&v100, 0, 0, &bytes);
    cr_expect_eq(bytes, 0);
}

Test(limits, shared_memory_carveout)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 32, 0, 20 * 1024);
    int32_t b = -1;
    int64_t carveout = 0;
    /* default: the largest carveout, 164 KiB; 167936 / 21504 = 7 */
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 7);
    /* 50 %: 83968 rounds up to the 100 KiB carveout; 102400 / 21504 = 4 */
    k.carveout_percent = 50;
    gpuocc_smem_carveout(&d, &k, &carveout);
    cr_expect_eq(carveout, 100 * 1024);
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 4);
    /* 0 %: the 0 carveout cannot hold one block, so the driver takes the smallest that does (32 KiB) */
    k.carveout_percent = 0;
    gpuocc_smem_carveout(&d, &k, &carveout);
    cr_expect_eq(carveout, 32 * 1024);
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 1);
    /* Turing has only 32 and 64 KiB: 0 % still means 32 KiB */
    gpuocc_device t4 = test_device("T4");
    gpuocc_kernel small = test_kernel(256, 32, 4096, 0);
    small.carveout_percent = 0;
    gpuocc_smem_carveout(&t4, &small, &carveout);
    cr_expect_eq(carveout, 32 * 1024);
    gpuocc_limit_shared_memory(&t4, &small, &b);
    cr_expect_eq(b, 8);
    /* Pascal has dedicated shared memory: the carveout preference has no effect */
    gpuocc_device p = test_device("sm_61");
    gpuocc_smem_carveout(&p, &small, &carveout);
    cr_expect_eq(carveout, 98304);
}

Test(limits, shared_memory_default_versus_optin)
{
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(256, 32, 0, 100 * 1024);
    int32_t b = -1;
    k.smem_optin = 0;
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 0); /* 100 KiB dynamic without opt-in exceeds 48 KiB */
    k.smem_optin = 1;
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 2); /* 102400 + 1024 = 103424; 233472 / 103424 = 2 */
    k.smem_dynamic_bytes = 232448;
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 1); /* exactly the opt-in maximum, 227 KiB */
    k.smem_dynamic_bytes = 232449;
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 0);
    /* 48 KiB exactly is allowed without opt-in: 49152 + 1024 = the 50176 per-block limit */
    gpuocc_kernel at_limit = test_kernel(256, 32, 48 * 1024, 0);
    at_limit.smem_optin = 0;
    gpuocc_limit_shared_memory(&d, &at_limit, &b);
    cr_expect_eq(b, 4); /* 233472 / 50176 */
    /* the attribute caps the dynamic size */
    k.smem_dynamic_bytes = 64 * 1024;
    k.smem_dynamic_max_bytes = 60 * 1024;
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 0);
}

Test(limits, huge_requests_do_not_wrap)
{
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(256, 32, 0, (int64_t)4 << 30);
    k.smem_optin = 1;
    int32_t b = -1;
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 0);
    k.smem_static_bytes = INT64_MAX;
    k.smem_dynamic_bytes = INT64_MAX;
    gpuocc_limit_shared_memory(&d, &k, &b);
    cr_expect_eq(b, 0);
    int64_t bytes = 0;
    cr_expect_eq(gpuocc_smem_per_block(&d, INT64_MAX, INT64_MAX, &bytes), GPUOCC_ERR_OVERFLOW);
}

Test(limits, barriers_from_hopper)
{
    gpuocc_device h100 = test_device("H100");
    gpuocc_device rtx5090 = test_device("RTX 5090");
    gpuocc_device a100 = test_device("A100");
    int32_t b = -1;
    gpuocc_limit_barriers(&h100, 4, &b);
    cr_expect_eq(b, 16); /* 2 x 32 = 64 barriers / 4 */
    gpuocc_limit_barriers(&rtx5090, 2, &b);
    cr_expect_eq(b, 12); /* 1 x 24 = 24 / 2 */
    gpuocc_limit_barriers(&h100, 0, &b);
    cr_expect_eq(b, GPUOCC_UNLIMITED);
    gpuocc_limit_barriers(&a100, 16, &b);
    cr_expect_eq(b, GPUOCC_UNLIMITED); /* the runtime applies the limit from cc 9.0 only */
    /* more named barriers than a block may use (PTX ids 0..15): refused as gpuocc_occupancy refuses the
       launch, nothing written */
    const int32_t over[] = {17, INT32_MAX};
    for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
        b = -7;
        cr_expect_eq(gpuocc_limit_barriers(&h100, over[i], &b), GPUOCC_ERR_EXCEEDED);
        cr_expect_eq(b, -7);
        gpuocc_kernel k = test_kernel(256, 32, 0, 0);
        k.barriers = over[i];
        gpuocc_result r = {.size = sizeof r};
        cr_expect_eq(gpuocc_occupancy(&h100, &k, &r), GPUOCC_ERR_EXCEEDED);
        cr_expect_eq(r.exceeded, GPUOCC_INPUT_BARRIERS);
        cr_expect_eq(r.exceeded_limit, 16);
    }
    cr_expect_eq(gpuocc_limit_barriers(&h100, 16, &b), GPUOCC_OK);
    cr_expect_eq(b, 4); /* 64 barriers / 16 */
}

Test(limits, block_slots)
{
    const char *names[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_110", "sm_120"};
    const int32_t want[] = {16, 32, 16, 24, 32, 24, 24};
    for (int i = 0; i < 7; i++) {
        gpuocc_device d = test_device(names[i]);
        int32_t b = -1;
        gpuocc_limit_blocks(&d, &b);
        cr_expect_eq(b, want[i], "%s", names[i]);
    }
}

Test(limits, bad_arguments)
{
    gpuocc_device d = test_device("A100");
    int32_t b = 7;
    cr_expect_eq(gpuocc_limit_warps(&d, 0, &b), GPUOCC_ERR_THREADS);
    cr_expect_eq(gpuocc_limit_warps(&d, INT32_MIN, &b), GPUOCC_ERR_THREADS);
    cr_expect_eq(gpuocc_limit_registers(&d, 32, -1, &b), GPUOCC_ERR_REGISTERS);
    cr_expect_eq(gpuocc_limit_barriers(&d, -1, &b), GPUOCC_ERR_BARRIERS);
    cr_expect_eq(gpuocc_limit_warps(NULL, 32, &b), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_limit_warps(&d, 32, NULL), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_smem_per_block(&d, -1, 0, (int64_t *)NULL), GPUOCC_ERR_NULL);
    int64_t bytes;
    cr_expect_eq(gpuocc_smem_per_block(&d, -1, 0, &bytes), GPUOCC_ERR_SMEM);
    cr_expect_eq(b, 7, "outputs are untouched on failure");
}
