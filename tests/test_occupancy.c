/* The combined result: every field, the tie set, and the struct-versioning contract. */
#include "common.h"

#include <string.h>

Test(occupancy, fields_of_a_register_bound_kernel)
{
    /* H100, 256 threads, 72 regs (2304 per warp), 16 KiB static.
       regs: floor(16384 / 2304) = 7 per sub-partition -> 28 warps -> 3 blocks
       smem: 16384 + 1024 = 17408 -> 233472 / 17408 = 13; warps 8; blocks 32; barriers 64 */
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(256, 72, 16384, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 3);
    cr_expect_eq(r.warps_per_sm, 24);
    cr_expect_eq(r.max_warps_per_sm, 64);
    cr_expect_eq(r.warps_per_block, 8);
    cr_expect_float_eq(r.occupancy, 0.375, 1e-12);
    cr_expect_eq(r.limit_warps, 8);
    cr_expect_eq(r.limit_regs, 3);
    cr_expect_eq(r.limit_smem, 13);
    cr_expect_eq(r.limit_blocks, 32);
    cr_expect_eq(r.limit_barriers, 64);
    cr_expect_eq(r.regs_per_block, 8 * 2304);
    cr_expect_eq(r.smem_per_block_bytes, 17408);
    cr_expect_eq(r.smem_per_sm_bytes, 233472);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
}

Test(occupancy, barrier_limit_reports_no_stale_flags)
{
    /* H100, 256 threads at 32 regs: warps and registers give 8 blocks; 16 barriers per block (the most a
       block may use) give 64 / 16 = 4.  Only the barriers limit the result. */
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(256, 32, 0, 0);
    k.barriers = 16;
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_BARRIERS);
}

Test(occupancy, block_too_large_is_zero_limited_by_warps)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(2048, 32, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.warps_per_sm, 0);
    cr_expect_float_eq(r.occupancy, 0.0, 1e-12);
    cr_expect(r.limiters & GPUOCC_LIMIT_WARPS);
}

Test(occupancy, zero_blocks_ties_every_zero_limit)
{
    /* too many registers and too much shared memory at once: both are reported */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 300, 0, 1 << 20);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS | GPUOCC_LIMIT_SMEM);
}

Test(occupancy, unlimited_resources)
{
    gpuocc_device d = test_device("V100");
    gpuocc_kernel k = test_kernel(64, 0, 0, 0);
    k.barriers = 0;
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.limit_regs, GPUOCC_UNLIMITED);
    cr_expect_eq(r.limit_smem, GPUOCC_UNLIMITED);
    cr_expect_eq(r.limit_barriers, GPUOCC_UNLIMITED);
    cr_expect_eq(r.blocks_per_sm, 32);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_BLOCKS); /* 64 warps / 2 = 32 = block cap */
}

Test(occupancy, future_device_described_by_hand)
{
    /* A made-up GPU: 96 warps, 40 blocks, 128 K registers, 300 KiB shared memory with two carveouts. */
    gpuocc_device d;
    gpuocc_device_init(&d);
    d.cc_major = 99;
    d.warp_size = 32;
    d.max_threads_per_block = 1024;
    d.max_threads_per_sm = 3072;
    d.max_blocks_per_sm = 40;
    d.regs_per_sm = 131072;
    d.regs_per_block = 65536;
    d.regs_per_thread_max = 255;
    d.reg_alloc_unit = 256;
    d.sub_partitions = 4;
    d.smem_per_sm_bytes = 300 * 1024;
    d.smem_per_block_bytes = 48 * 1024;
    d.smem_per_block_optin_bytes = 299 * 1024;
    d.smem_reserved_per_block_bytes = 1024;
    d.smem_alloc_unit_bytes = 128;
    d.carveout_count = 2;
    d.carveouts_kib[0] = 100;
    d.carveouts_kib[1] = 300;
    cr_assert_eq(gpuocc_device_validate(&d), GPUOCC_OK);
    /* 256 threads, 64 regs: 32768 regs per sub-partition / 2048 = 16 warps -> 64 -> 8 blocks;
       warps 96 / 8 = 12; smem 1024 -> 300 blocks; blocks 40 */
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 8);
    cr_expect_float_eq(r.occupancy, 64.0 / 96.0, 1e-12);
}

Test(occupancy, struct_versioning)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    gpuocc_result r = {.size = sizeof r};

    /* a larger, zero-padded struct from a newer caller is accepted */
    struct {
        gpuocc_kernel k;
        uint64_t future[2];
    } bigger;
    memset(&bigger, 0, sizeof bigger);
    bigger.k = k;
    bigger.k.size = sizeof bigger;
    cr_expect_eq(gpuocc_occupancy(&d, &bigger.k, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, 4);
    bigger.future[1] = 1;
    cr_expect_eq(gpuocc_occupancy(&d, &bigger.k, &r), GPUOCC_ERR_RESERVED);

    /* too small or absurd sizes are refused */
    k.size = 8;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_STRUCT_SIZE);
    k.size = UINT32_MAX;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_STRUCT_SIZE);
    k.size = sizeof k;
    k.reserved[0] = 5;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_RESERVED);
    k.reserved[0] = 0;

    /* results: the caller's size is kept, nothing is written past it */
    struct {
        gpuocc_result r;
        uint64_t canary;
    } out;
    memset(&out, 0xab, sizeof out);
    out.r.size = sizeof out.r;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &out.r), GPUOCC_OK);
    cr_expect_eq(out.r.size, sizeof out.r);
    cr_expect_eq(out.canary, 0xababababababababull);
    cr_expect_eq(out.r.reserved[1], 0);
}

Test(occupancy, invalid_inputs)
{
    gpuocc_device d = test_device("A100");
    gpuocc_result r = {.size = sizeof r};
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    cr_expect_eq(gpuocc_occupancy(NULL, &k, &r), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_occupancy(&d, NULL, &r), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_occupancy(&d, &k, NULL), GPUOCC_ERR_NULL);
    k.threads_per_block = 0;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_THREADS);
    k = test_kernel(256, -5, 0, 0);
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_REGISTERS);
    k = test_kernel(256, 5, -1, 0);
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_SMEM);
    k = test_kernel(256, 5, 0, INT64_MIN);
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_SMEM);
    k = test_kernel(256, 5, 0, 0);
    k.carveout_percent = 101;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_CARVEOUT);
    k.carveout_percent = -2;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_CARVEOUT);
    k = test_kernel(256, 5, 0, 0);
    k.barriers = -1;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_BARRIERS);
    k = test_kernel(256, 5, 0, 0);
    k.smem_optin = 2;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);

    k = test_kernel(256, 5, 0, 0);
    gpuocc_device bad = d;
    bad.vendor = 4;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_VENDOR);
    bad.vendor = GPUOCC_VENDOR_INTEL; /* nor a valid Intel one */
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad.vendor = GPUOCC_VENDOR_AMD; /* an NVIDIA description is not a valid AMD one */
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad = d;
    bad.warp_size = 0;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad = d;
    bad.carveouts_kib[2] = 1; /* not ascending */
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad = d;
    bad.carveout_count = 17;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad = d;
    bad.smem_per_sm_bytes = INT64_MAX;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad = d;
    bad.max_threads_per_sm = INT32_MIN;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
}

/* A block's shared memory that saturates at 2^60 bytes was reported as a real
   allocation.  The sum INT64_MAX + 1 does not fit: GPUOCC_ERR_OVERFLOW and the result is untouched.
   The huge part is the dynamic one: static shared memory above 48 KiB is a launch that cannot run
   (GPUOCC_ERR_SMEM, test_limits_of_launches.c), whatever the sum. */
Test(occupancy, saturated_smem_allocation_is_overflow)
{
    gpuocc_device d = test_device("H100");
    const int64_t pairs[][2] = {{1, INT64_MAX}, {48 * 1024, INT64_MAX}, {0, INT64_MAX},
                                {0, (int64_t)1 << 60}, {1024, ((int64_t)1 << 60) - 2048}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        gpuocc_kernel k = test_kernel(128, 32, pairs[i][0], pairs[i][1]);
        gpuocc_result r;
        memset(&r, 0xA5, sizeof r);
        r.size = sizeof r;
        gpuocc_result before = r;
        cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_OVERFLOW, "pair %zu", i);
        cr_expect_eq(memcmp(&r, &before, sizeof r), 0, "pair %zu", i);
        int64_t bytes = -3;
        cr_expect_eq(gpuocc_smem_per_block(&d, pairs[i][0], pairs[i][1], &bytes), GPUOCC_ERR_OVERFLOW);
        cr_expect_eq(bytes, -3);
    }
    /* 2^50 bytes is absurd but summed exactly: 0 blocks, by shared memory, and the true allocation
       (2^50 + 1 KiB reserved, already on the 128-byte grid) */
    gpuocc_kernel k = test_kernel(128, 32, 0, (int64_t)1 << 50);
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_SMEM);
    cr_expect_eq(r.smem_per_block_bytes, ((int64_t)1 << 50) + 1024);
}
