/*
 * The NVIDIA-shaped queries on AMD devices: per-resource limits, granularity helpers, inverse queries, next
 * step, block-size searches, sweeps and batches.  Fixed values are derived by hand from the rules in
 * docs/amd.md for named products; property tests check each query against its definition through
 * gpuocc_occupancy on random AMD launches (both models).
 */
#include "common.h"

static gpuocc_kernel amd_kernel(int32_t threads, int32_t vgprs, int64_t lds_static, int64_t lds_dynamic)
{
    return test_kernel(threads, vgprs, lds_static, lds_dynamic);
}

/* ---- per-resource limits and granules, by hand ---- */

Test(amd_queries, limits_by_hand)
{
    int32_t blocks = 0;
    gpuocc_device mi300x = test_device("MI300X"); /* gfx942: 4 SIMDs x 8 slots, 512 VGPRs granule 8 */
    cr_expect_eq(gpuocc_limit_warps(&mi300x, 256, &blocks), GPUOCC_OK);
    cr_expect_eq(blocks, 8); /* 32 slots / 4 waves */
    gpuocc_limit_warps(&mi300x, 1, &blocks);
    cr_expect_eq(blocks, 32);
    gpuocc_limit_warps(&mi300x, 1025, &blocks);
    cr_expect_eq(blocks, 0);
    gpuocc_limit_registers(&mi300x, 256, 128, &blocks);
    cr_expect_eq(blocks, 4); /* 512 / 128 = 4 waves x 4 SIMDs / 4 */
    gpuocc_limit_registers(&mi300x, 256, 129, &blocks);
    cr_expect_eq(blocks, 3); /* 136: 512 / 136 = 3 -> 12 / 4 */
    gpuocc_limit_registers(&mi300x, 256, 7, &blocks);
    cr_expect_eq(blocks, 8); /* below one granule: the slots */
    gpuocc_limit_registers(&mi300x, 256, 0, &blocks);
    cr_expect_eq(blocks, GPUOCC_UNLIMITED);
    gpuocc_limit_registers(&mi300x, 64, 257, &blocks);
    cr_expect_eq(blocks, 0); /* more than a lane addresses */
    cr_expect_eq(gpuocc_limit_blocks(&mi300x, &blocks), GPUOCC_OK);
    cr_expect_eq(blocks, GPUOCC_UNLIMITED);
    gpuocc_limit_barriers(&mi300x, 1, &blocks);
    cr_expect_eq(blocks, 16);
    gpuocc_limit_barriers(&mi300x, 0, &blocks);
    cr_expect_eq(blocks, GPUOCC_UNLIMITED);

    gpuocc_device mi100 = test_device("MI100"); /* gfx908: 10 slots, 256 VGPRs granule 4 */
    gpuocc_limit_registers(&mi100, 64, 100, &blocks);
    cr_expect_eq(blocks, 8); /* 256 / 100 = 2 waves x 4 SIMDs */
    gpuocc_limit_warps(&mi100, 64, &blocks);
    cr_expect_eq(blocks, 40);

    gpuocc_device mi50 = test_device("MI50"); /* gfx906 */
    gpuocc_limit_registers(&mi50, 64, 84, &blocks);
    cr_expect_eq(blocks, 12); /* 256 / 84 = 3 x 4 */

    gpuocc_device xtx = test_device("RX 7900 XTX"); /* gfx1100 wave32, WGP: 4 SIMDs x 16, 1536 / 24 */
    gpuocc_limit_warps(&xtx, 256, &blocks);
    cr_expect_eq(blocks, 8); /* 64 slots / 8 waves */
    gpuocc_limit_warps(&xtx, 1024, &blocks);
    cr_expect_eq(blocks, 2);
    gpuocc_limit_registers(&xtx, 256, 88, &blocks);
    cr_expect_eq(blocks, 8); /* 96: 1536 / 96 = 16 x 4 / 8 */
    gpuocc_limit_registers(&xtx, 256, 200, &blocks);
    cr_expect_eq(blocks, 3); /* 216: 1536 / 216 = 7 x 4 = 28 / 8 */
    gpuocc_limit_barriers(&xtx, 2, &blocks);
    cr_expect_eq(blocks, 32); /* 16 per CU, 2 CUs per WGP */
}

Test(amd_queries, granules_by_hand)
{
    int32_t regs = 0;
    int64_t bytes = 0;
    gpuocc_device mi300x = test_device("MI300X");
    cr_expect_eq(gpuocc_regs_per_warp(&mi300x, 100, &regs), GPUOCC_OK);
    cr_expect_eq(regs, 104 * 64);
    cr_expect_eq(gpuocc_regs_per_block(&mi300x, 256, 100, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 104 * 64 * 4);
    gpuocc_device mi100 = test_device("MI100");
    gpuocc_regs_per_warp(&mi100, 101, &regs);
    cr_expect_eq(regs, 104 * 64); /* granule 4 */
    gpuocc_device xtx = test_device("RX 7900 XTX");
    gpuocc_regs_per_warp(&xtx, 100, &regs);
    cr_expect_eq(regs, 120 * 32); /* wave32 granule 24 */
    gpuocc_regs_per_block(&xtx, 100, 100, &bytes);
    cr_expect_eq(bytes, 120 * 32 * 4); /* 100 threads: 4 waves of 32 */
    cr_expect_eq(gpuocc_smem_per_block(&xtx, 8192, 4095, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 12287); /* no LDS granule in either model */

    gpuocc_kernel k = amd_kernel(256, 32, 1024, 0);
    cr_expect_eq(gpuocc_smem_carveout(&mi300x, &k, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 65536);
    gpuocc_smem_carveout(&xtx, &k, &bytes);
    cr_expect_eq(bytes, 131072); /* WGP mode: two CUs' LDS */
    k.cu_mode = 1;
    gpuocc_smem_carveout(&xtx, &k, &bytes);
    cr_expect_eq(bytes, 65536);
    k.cu_mode = 0;
    k.model = GPUOCC_MODEL_RUNTIME;
    k.rocm_version = 604; /* HIP before the LDS fixes: one workgroup's limit */
    gpuocc_smem_carveout(&xtx, &k, &bytes);
    cr_expect_eq(bytes, 65536);
    k.rocm_version = 0; /* newest: the WGP's LDS on gfx11 */
    gpuocc_smem_carveout(&xtx, &k, &bytes);
    cr_expect_eq(bytes, 131072);
    gpuocc_device mi355x = test_device("MI355X");
    gpuocc_smem_carveout(&mi355x, &k, &bytes);
    cr_expect_eq(bytes, 163840);
}

Test(amd_queries, lds_limit_by_hand)
{
    int32_t blocks = 0;
    gpuocc_device mi300x = test_device("MI300X");
    gpuocc_kernel k = amd_kernel(256, 32, 16384, 8192);
    cr_expect_eq(gpuocc_limit_shared_memory(&mi300x, &k, &blocks), GPUOCC_OK);
    cr_expect_eq(blocks, 2); /* 65536 / 24576 */
    k.smem_dynamic_bytes = 65536 - 16384 + 1;
    gpuocc_limit_shared_memory(&mi300x, &k, &blocks);
    cr_expect_eq(blocks, 0); /* more than one workgroup may use */
    gpuocc_device xtx = test_device("RX 7900 XTX");
    k = amd_kernel(256, 32, 40000, 0);
    gpuocc_limit_shared_memory(&xtx, &k, &blocks);
    cr_expect_eq(blocks, 3); /* 131072 / 40000 */
    k.cu_mode = 1;
    gpuocc_limit_shared_memory(&xtx, &k, &blocks);
    cr_expect_eq(blocks, 1);
    k.cu_mode = 0;
    k.model = GPUOCC_MODEL_RUNTIME;
    k.rocm_version = 604;
    gpuocc_limit_shared_memory(&xtx, &k, &blocks);
    cr_expect_eq(blocks, 1); /* 65536 / 40000 */
    k = amd_kernel(256, 32, 0, 0);
    gpuocc_limit_shared_memory(&xtx, &k, &blocks);
    cr_expect_eq(blocks, GPUOCC_UNLIMITED);
    /* the kernel's AMD fields are checked against the device */
    gpuocc_device mi50 = test_device("MI50");
    k.wave_size = 32;
    blocks = -7;
    cr_expect_eq(gpuocc_limit_shared_memory(&mi50, &k, &blocks), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(blocks, -7);
}

/* ---- random AMD launches (both models) ---- */

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64* */
    uint64_t x = *state;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static int64_t pick(uint64_t *state, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(next_random(state) % (uint64_t)(hi - lo + 1));
}

static const char *const amd_products[] = {"MI50", "MI100", "MI250X", "MI300X", "MI355X", "RX 6900 XT",
                                           "RX 7900 XTX", "RX 7600", "RX 9070 XT", "Strix Halo", "gfx900"};
#define PRODUCTS (sizeof amd_products / sizeof amd_products[0])

/* A random valid launch on a random AMD product; `defaults` keeps gpuocc_kernel_init's AMD fields. */
static void random_launch(uint64_t *state, gpuocc_device *d, gpuocc_kernel *k, bool defaults)
{
    *d = test_device(amd_products[pick(state, 0, PRODUCTS - 1)]);
    int64_t lds_max = d->smem_per_block_bytes;
    *k = amd_kernel((int32_t)(pick(state, 0, 3) ? pick(state, 1, 1024) : pick(state, 1, 1100)),
                    (int32_t)(pick(state, 0, 5) ? pick(state, 0, 256) : pick(state, 0, 300)),
                    pick(state, 0, 2) ? pick(state, 0, lds_max / 2) : 0,
                    pick(state, 0, 2) ? pick(state, 0, lds_max / 2 + 100) : 0);
    if (defaults)
        return;
    if (d->agpr_file != GPUOCC_AGPR_NONE && pick(state, 0, 2) == 0)
        k->agprs = (int32_t)pick(state, 1, 256);
    if (d->sgprs_per_simd && pick(state, 0, 1))
        k->sgprs = (int32_t)pick(state, 1, 106);
    if (d->wave_sizes == 96)
        k->wave_size = (int32_t)(pick(state, 0, 1) ? 64 : 0);
    k->cu_mode = d->cus_per_wgp > 1 ? (int32_t)pick(state, 0, 1) : 0;
    k->model = (int32_t)pick(state, 0, 2);
    static const int32_t releases[] = {0, 603, 604, 700};
    k->rocm_version = releases[pick(state, 0, 3)];
}

#define TRIALS 3000

Test(amd_queries, limits_equal_occupancy)
{
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    for (int trial = 0; trial < TRIALS; trial++) {
        gpuocc_device d;
        gpuocc_kernel k;
        bool defaults = trial % 2 == 0;
        random_launch(&state, &d, &k, defaults);
        gpuocc_result r = test_occupancy(&d, &k);
        int32_t blocks = 0;
        int64_t bytes = 0;
        cr_assert_eq(gpuocc_limit_shared_memory(&d, &k, &blocks), GPUOCC_OK);
        cr_expect_eq(blocks, r.limit_smem, "trial %d", trial);
        cr_assert_eq(gpuocc_smem_carveout(&d, &k, &bytes), GPUOCC_OK);
        cr_expect_eq(bytes, r.smem_per_sm_bytes, "trial %d", trial);
        cr_assert_eq(gpuocc_smem_per_block(&d, k.smem_static_bytes, k.smem_dynamic_bytes, &bytes), GPUOCC_OK);
        cr_expect_eq(bytes, r.smem_per_block_bytes, "trial %d", trial);
        cr_assert_eq(gpuocc_limit_blocks(&d, &blocks), GPUOCC_OK);
        cr_expect_eq(blocks, r.limit_blocks);
        if (!defaults)
            continue;
        /* the functions without a kernel describe gpuocc_kernel_init's AMD fields */
        cr_assert_eq(gpuocc_limit_warps(&d, k.threads_per_block, &blocks), GPUOCC_OK);
        cr_expect_eq(blocks, r.limit_warps, "trial %d", trial);
        cr_assert_eq(gpuocc_limit_registers(&d, k.threads_per_block, k.regs_per_thread, &blocks), GPUOCC_OK);
        cr_expect_eq(blocks, r.limit_regs, "trial %d", trial);
        cr_assert_eq(gpuocc_regs_per_block(&d, k.threads_per_block, k.regs_per_thread, &bytes), GPUOCC_OK);
        cr_expect_eq(bytes, r.regs_per_block, "trial %d", trial);
        int32_t per_wave = 0;
        cr_assert_eq(gpuocc_regs_per_warp(&d, k.regs_per_thread, &per_wave), GPUOCC_OK);
        cr_expect_eq((int64_t)per_wave * r.warps_per_block, r.regs_per_block, "trial %d", trial);
        cr_assert_eq(gpuocc_limit_barriers(&d, 1, &blocks), GPUOCC_OK);
        if (r.warps_per_block > 1)
            cr_expect_eq(blocks, r.limit_barriers, "trial %d", trial);
        else
            cr_expect_eq(r.limit_barriers, GPUOCC_UNLIMITED);
    }
}
