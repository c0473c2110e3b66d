/*
 * The NVIDIA-shaped queries on AMD devices: per-resource limits, granularity helpers, inverse queries, next
 * step, block-size searches, sweeps and batches.  Fixed values are derived by hand from the rules in
 * docs/amd.md for named products; property tests check each query against its definition through
 * gpuocc_occupancy on random AMD launches (every model).
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
    cr_expect_eq(bytes, 12288); /* the compiler model's granule on gfx11: 512 bytes (LLVM's), 24 of them */

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

/* ---- random AMD launches (every model, LLVM's compiler inputs) ---- */

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
    static const int32_t models[] = {GPUOCC_MODEL_DEFAULT, GPUOCC_MODEL_COMPILER, GPUOCC_MODEL_RUNTIME,
                                     GPUOCC_MODEL_LLVM19};
    k->model = models[pick(state, 0, 3)];
    static const int32_t releases[] = {0, 603, 604, 700};
    /* a ROCm release names the runtime model's rules only; the library refuses it with another model */
    k->rocm_version = k->model == GPUOCC_MODEL_RUNTIME ? releases[pick(state, 0, 3)] : 0;
    /* LLVM's compiler inputs: the trap handler, a waves-per-EU request, a flat range around the launch */
    k->trap_handler = (int32_t)pick(state, -1, 1);
    if (pick(state, 0, 2) == 0) {
        k->waves_per_eu_min = (int32_t)pick(state, 0, 12);
        k->waves_per_eu_max = (int32_t)pick(state, 0, 21);
        if (k->waves_per_eu_max != 0 && k->waves_per_eu_min > k->waves_per_eu_max) /* refused: clang's too */
            k->waves_per_eu_min = k->waves_per_eu_max;
    }
    if (k->threads_per_block <= 1024 && pick(state, 0, 1)) {
        k->max_threads_per_block = (int32_t)pick(state, k->threads_per_block, 1024);
        k->flat_workgroup_size_min = (int32_t)(pick(state, 0, 1) ? pick(state, 1, k->threads_per_block) : 0);
    }
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
        cr_assert_eq(gpuocc_limit_blocks(&d, &blocks), GPUOCC_OK);
        cr_expect_eq(blocks, r.limit_blocks);
        if (!defaults)
            continue;
        /* the LDS a workgroup is charged: the compiler model's, in its granules */
        cr_assert_eq(gpuocc_smem_per_block(&d, k.smem_static_bytes, k.smem_dynamic_bytes, &bytes), GPUOCC_OK);
        cr_expect_eq(bytes, r.smem_per_block_bytes, "trial %d", trial);
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

/* ---- inverse queries, next step, best block size, sweeps: by hand ---- */

static int32_t regs_for(const char *product, gpuocc_kernel k, int32_t blocks)
{
    gpuocc_device d = test_device(product);
    int32_t regs = -7;
    int32_t rc = gpuocc_regs_max_for_blocks(&d, &k, blocks, &regs);
    return rc == GPUOCC_OK ? regs : rc;
}

Test(amd_queries, regs_max_by_hand)
{
    gpuocc_kernel k = amd_kernel(256, 0, 0, 0);
    /* MI300X, 4 waves per workgroup on 4 SIMDs: N blocks need N waves per SIMD of 512 VGPRs, granule 8 */
    cr_expect_eq(regs_for("MI300X", k, 4), 128);
    cr_expect_eq(regs_for("MI300X", k, 2), 256); /* 512 / 2, capped at the 256 a lane addresses */
    cr_expect_eq(regs_for("MI300X", k, 3), 168); /* 512 / 3 = 170 -> 168 */
    cr_expect_eq(regs_for("MI300X", k, 8), 64);
    cr_expect_eq(regs_for("MI300X", k, 9), GPUOCC_ERR_UNSATISFIABLE); /* 8 slots per SIMD */
    k.agprs = 64; /* unified: round_up(V, 4) + 64 <= 128 */
    cr_expect_eq(regs_for("MI250X", k, 4), 64);
    cr_expect_eq(regs_for("MI100", k, 4), 64); /* separate: max(V, 64) <= 64 */
    cr_expect_eq(regs_for("MI100", k, 2), 128);
    cr_expect_eq(regs_for("MI100", k, 10), GPUOCC_ERR_UNSATISFIABLE); /* 25 VGPRs at most, AGPRs 64 */
    k.agprs = 0;
    cr_expect_eq(regs_for("MI100", k, 10), 24); /* 256 / 10 = 25 -> granule 4 */
    /* RX 7900 XTX, wave32, WGP: 8 waves per workgroup on 4 SIMDs, 1536 VGPRs, granule 24 */
    cr_expect_eq(regs_for("RX 7900 XTX", k, 8), 96);
    cr_expect_eq(regs_for("RX 7900 XTX", k, 5), 144); /* 10 waves: 153 -> 144 */
    cr_expect_eq(regs_for("RX 7900 XTX", k, 3), 240); /* 6 waves: 256 is not a multiple of 24: 240 */
    k.wave_size = 64; /* 4 waves; 768 VGPRs, granule 12: 8 waves per SIMD -> 96 */
    cr_expect_eq(regs_for("RX 7900 XTX", k, 8), 96);
    /* gfx906 SGPRs: 100 round to 112, + the trap handler's 16 = 128: 800 / 128 = 6 waves per SIMD whatever the
       VGPRs, 24 one-wave blocks at 256 / 6 = 42 -> 40 VGPRs; LLVM 19's table gave 100 SGPRs 8 waves */
    k = amd_kernel(64, 0, 0, 0);
    k.sgprs = 100;
    cr_expect_eq(regs_for("MI50", k, 24), 40);
    cr_expect_eq(regs_for("MI50", k, 25), GPUOCC_ERR_UNSATISFIABLE);
    k.model = GPUOCC_MODEL_LLVM19;
    cr_expect_eq(regs_for("MI50", k, 32), 32);
    cr_expect_eq(regs_for("MI50", k, 33), GPUOCC_ERR_UNSATISFIABLE);
    k.model = GPUOCC_MODEL_DEFAULT;
    k.sgprs = 0;
    cr_expect_eq(regs_for("MI50", k, 40), 24);
    /* the runtime's cap is 8 waves per SIMD on gfx9 */
    k.model = GPUOCC_MODEL_RUNTIME;
    cr_expect_eq(regs_for("MI50", k, 32), 32);
    cr_expect_eq(regs_for("MI50", k, 33), GPUOCC_ERR_UNSATISFIABLE);
}

static int64_t lds_for(const char *product, gpuocc_kernel k, int32_t blocks)
{
    gpuocc_device d = test_device(product);
    int64_t bytes = -7;
    int32_t rc = gpuocc_smem_dynamic_available(&d, &k, blocks, &bytes);
    return rc == GPUOCC_OK ? bytes : rc;
}

Test(amd_queries, lds_available_by_hand)
{
    /* today's compiler model charges LDS in granules of 512 bytes: 3 workgroups of 65536 / 3 = 21845 bytes
       hold 42 granules, 21504 bytes (LLVM 19 divided the bytes: 21845) */
    gpuocc_kernel k = amd_kernel(256, 32, 0, 0);
    cr_expect_eq(lds_for("MI300X", k, 2), 32768);
    cr_expect_eq(lds_for("MI300X", k, 3), 21504);
    cr_expect_eq(lds_for("MI300X", k, 9), GPUOCC_ERR_UNSATISFIABLE);
    k.smem_static_bytes = 1000;
    cr_expect_eq(lds_for("MI300X", k, 3), 20504);
    cr_expect_eq(lds_for("MI300X", k, 1), 64536); /* one workgroup's limit less the static LDS */
    k.model = GPUOCC_MODEL_LLVM19;
    cr_expect_eq(lds_for("MI300X", k, 3), 20845);
    k.model = GPUOCC_MODEL_DEFAULT;
    k.smem_static_bytes = 0;
    cr_expect_eq(lds_for("RX 7900 XTX", k, 3), 43520); /* the WGP's 128 KiB: 131072 / 3 -> 85 granules of 512 */
    cr_expect_eq(lds_for("RX 7900 XTX", k, 1), 65536); /* a workgroup may use 64 KiB */
    k.cu_mode = 1;
    cr_expect_eq(lds_for("RX 7900 XTX", k, 2), 32768);
    k.cu_mode = 0;
    k.model = GPUOCC_MODEL_RUNTIME;
    k.rocm_version = 604; /* HIP's budget: one workgroup's 64 KiB */
    cr_expect_eq(lds_for("RX 7900 XTX", k, 2), 32768);
    k.model = GPUOCC_MODEL_COMPILER;
    k.rocm_version = 0; /* a ROCm release without the runtime model is refused */
    cr_expect_eq(lds_for("MI355X", k, 1), 163840);
    cr_expect_eq(lds_for("MI355X", k, 2), 81920);
}

static int64_t step_for(const char *product, gpuocc_kernel k, int32_t resource, int64_t *shed)
{
    gpuocc_device d = test_device(product);
    int64_t value = -7;
    int32_t rc = gpuocc_next_step(&d, &k, resource, &value, shed);
    return rc == GPUOCC_OK ? value : rc;
}

Test(amd_queries, next_step_by_hand)
{
    int64_t shed = -7;
    /* MI300X 256 threads, 129 VGPRs: 3 blocks; 4 need 128 */
    cr_expect_eq(step_for("MI300X", amd_kernel(256, 129, 0, 0), GPUOCC_RESOURCE_REGISTERS, &shed), 128);
    cr_expect_eq(shed, 1);
    /* 32 KiB of LDS: 2 blocks; 3 need 21504 bytes in all (42 granules of 512) */
    cr_expect_eq(step_for("MI300X", amd_kernel(256, 32, 24576, 8192), GPUOCC_RESOURCE_SMEM, &shed), 21504);
    cr_expect_eq(shed, 32768 - 21504);
    /* 1024 threads: 2 blocks of 16 waves in 32 slots; 3 need at most 10 waves */
    cr_expect_eq(step_for("MI300X", amd_kernel(1024, 0, 0, 0), GPUOCC_RESOURCE_WARPS, &shed), 640);
    cr_expect_eq(shed, 384);
    /* a resource that already allows one more: no change */
    cr_expect_eq(step_for("MI300X", amd_kernel(1024, 0, 0, 0), GPUOCC_RESOURCE_REGISTERS, &shed), 0);
    cr_expect_eq(shed, 0);
    /* gfx906, 100 SGPRs with the trap handler: 800 / (112 + 16) = 6 waves per SIMD = 24 one-wave blocks; 25
       need 7 waves: 800 / 7 = 114 >= round_up(S, 16) + 16, so 96 SGPRs.  LLVM 19's table: 8 waves, 32 blocks;
       33 need 9 waves: 88 SGPRs */
    gpuocc_kernel k = amd_kernel(64, 16, 0, 0);
    k.sgprs = 100;
    cr_expect_eq(step_for("MI50", k, GPUOCC_RESOURCE_SGPRS, &shed), 96);
    cr_expect_eq(shed, 4);
    k.model = GPUOCC_MODEL_LLVM19;
    cr_expect_eq(step_for("MI50", k, GPUOCC_RESOURCE_SGPRS, &shed), 88);
    cr_expect_eq(shed, 12);
    /* two-wave workgroups on MI300X: 16 blocks, the slots and LLVM's barrier cap tie; no barrier count
       lifts the cap */
    cr_expect_eq(step_for("MI300X", amd_kernel(128, 0, 0, 0), GPUOCC_RESOURCE_BARRIERS, &shed),
                 GPUOCC_ERR_UNSATISFIABLE);
    cr_expect_eq(step_for("MI300X", amd_kernel(128, 0, 0, 0), GPUOCC_RESOURCE_BLOCKS, &shed), GPUOCC_UNLIMITED);
    cr_expect_eq(shed, 0);
    /* RX 7900 XTX, the runtime's granule 24 (wave32): 100 -> 120, 1536 / 120 = 12 waves per SIMD = 6 blocks;
       7 need 14 waves: 109 -> 96 */
    k = amd_kernel(256, 100, 0, 0);
    k.model = GPUOCC_MODEL_RUNTIME;
    cr_expect_eq(step_for("RX 7900 XTX", k, GPUOCC_RESOURCE_REGISTERS, &shed), 96);
    cr_expect_eq(shed, 4);
    /* SGPRs are a resource of AMD only */
    cr_expect_eq(step_for("A100", test_kernel(256, 32, 0, 0), GPUOCC_RESOURCE_SGPRS, &shed), GPUOCC_ERR_RESOURCE);
}

Test(amd_queries, best_block_by_hand)
{
    int32_t threads = 0, grid = 0;
    /* MI300X, 96 VGPRs: 5 waves per SIMD, 20 per CU; 640 threads (10 waves) fit twice: 1280 threads, the
       most any candidate reaches, and the largest that does */
    gpuocc_device d = test_device("MI300X");
    gpuocc_kernel k = amd_kernel(256, 96, 0, 0);
    cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 0, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 640);
    cr_expect_eq(grid, 2 * 304);
    /* RX 7900 XTX, wave32, flat maximum 256, 200 VGPRs -> 216: 7 waves per SIMD, 28 per WGP; 224 threads
       (7 waves) fit 4 times: 896 */
    d = test_device("RX 7900 XTX");
    k = amd_kernel(256, 200, 0, 0);
    k.max_threads_per_block = 256;
    cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 0, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 224);
    cr_expect_eq(grid, 4 * 48);
    /* 256 bytes of LDS per thread: 131072 / (256 T) blocks, and 28 waves of VGPRs: T = 256 fits 2 (512
       threads), 224: 2 (448), 192: 2, 160: 3 (480), 128: 4 (512), 96: 5 (480), 64: 8, 32: 16 (512 each) */
    cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 256, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 256);
    cr_expect_eq(grid, 2 * 48);
    /* 310 bytes per thread, in granules of 512 (gfx11, LLVM's): 256 needs 79360, more than a workgroup may
       use; 224: 69440 too; 192: 59520 -> 59904 -> 2 (384); 160: 49600 -> 49664 -> 2 (320); 128: 39680 -> 39936
       -> 3 (384); 96: 29760 -> 30208 -> 4 (384); 64: 19840 -> 19968 -> 6 (384); 32: 9920 -> 10240 -> 12 (384):
       the largest of the ties (LLVM 19's unrounded LDS: 32 threads, 131072 / 9920 -> 13) */
    cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 310, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 192);
    cr_expect_eq(grid, 2 * 48);
    gpuocc_kernel k19 = k;
    k19.model = GPUOCC_MODEL_LLVM19;
    cr_expect_eq(gpuocc_best_block_affine(&d, &k19, 0, 310, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 32);
    cr_expect_eq(grid, 13 * 48);
    /* a table must cover the largest candidate */
    int64_t table[256] = {0};
    cr_expect_eq(gpuocc_best_block_table(&d, &k, table, 256, &threads, &grid), GPUOCC_ERR_BUFFER);
}

/* MI300X, 256 threads, VGPRs 0 .. 300: the staircase by hand (512 / round_up(V, 8) waves per SIMD). */
Test(amd_queries, sweep_steps_by_hand)
{
    gpuocc_device d = test_device("MI300X");
    gpuocc_kernel k = amd_kernel(256, 0, 0, 0);
    gpuocc_sweep_point steps[16];
    int32_t count = 0;
    cr_assert_eq(gpuocc_sweep_steps(&d, &k, GPUOCC_AXIS_REGS, 0, 300, steps, 16, &count), GPUOCC_OK);
    const int64_t values[] = {0, 1, 65, 73, 81, 97, 129, 169, 257};
    const int32_t blocks[] = {8, 8, 7, 6, 5, 4, 3, 2, 0};
    cr_assert_eq(count, 9);
    for (int32_t i = 0; i < count; i++) {
        cr_expect_eq(steps[i].value, values[i], "step %d", i);
        cr_expect_eq(steps[i].blocks_per_sm, blocks[i], "step %d", i);
    }
    cr_expect_eq(steps[0].limiters, GPUOCC_LIMIT_WARPS);
    cr_expect_eq(steps[1].limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_REGISTERS);
    int64_t from = 0, to = 0, step = 0;
    cr_assert_eq(gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_REGS, &from, &to, &step), GPUOCC_OK);
    cr_expect_eq(to, 256);
    d = test_device("RX 7900 XTX");
    k.wave_size = 64;
    cr_assert_eq(gpuocc_sweep_range(&d, &k, GPUOCC_AXIS_THREADS, &from, &to, &step), GPUOCC_OK);
    cr_expect_eq(from, 64);
    cr_expect_eq(step, 64);
}

/* ---- properties on random launches ---- */

static int32_t blocks_of(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return test_occupancy(d, k).blocks_per_sm;
}

Test(amd_queries, inverse_queries_satisfy_and_are_largest)
{
    uint64_t state = 0x243F6A8885A308D3ULL;
    for (int trial = 0; trial < TRIALS; trial++) {
        gpuocc_device d;
        gpuocc_kernel k;
        random_launch(&state, &d, &k, false);
        gpuocc_kernel base = k;
        base.regs_per_thread = 0;
        int32_t most = blocks_of(&d, &base);
        int32_t want = (int32_t)pick(&state, 1, (most < 64 ? most : 64) + 1);
        int32_t regs = -7;
        int32_t rc = gpuocc_regs_max_for_blocks(&d, &k, want, &regs);
        if (most < want) {
            cr_expect_eq(rc, GPUOCC_ERR_UNSATISFIABLE, "trial %d", trial);
        } else {
            cr_assert_eq(rc, GPUOCC_OK, "trial %d", trial);
            gpuocc_kernel at = k;
            at.regs_per_thread = regs;
            cr_expect_geq(blocks_of(&d, &at), want, "trial %d", trial);
            at.regs_per_thread = regs + 1;
            if (regs < d.regs_per_thread_max)
                cr_expect_lt(blocks_of(&d, &at), want, "trial %d: %d VGPRs", trial, regs + 1);
        }

        base = k;
        base.smem_dynamic_bytes = 0;
        most = blocks_of(&d, &base);
        int64_t bytes = -7, hi = d.smem_per_block_bytes - k.smem_static_bytes;
        rc = gpuocc_smem_dynamic_available(&d, &k, want, &bytes);
        if (most < want || hi < 0) {
            cr_expect_eq(rc, GPUOCC_ERR_UNSATISFIABLE, "trial %d", trial);
        } else {
            cr_assert_eq(rc, GPUOCC_OK, "trial %d", trial);
            gpuocc_kernel at = k;
            at.smem_dynamic_bytes = bytes;
            cr_expect_geq(blocks_of(&d, &at), want, "trial %d", trial);
            at.smem_dynamic_bytes = bytes + 1;
            if (bytes < hi)
                cr_expect_lt(blocks_of(&d, &at), want, "trial %d", trial);
        }
        /* the query stops at what one workgroup may use because the rule does: one byte more fits no
           workgroup, in every model (HIP's newest rules on gfx11 in WGP mode included) */
        if (hi >= 0) {
            gpuocc_kernel past = k;
            past.smem_dynamic_bytes = hi + 1;
            cr_expect_eq(blocks_of(&d, &past), 0, "trial %d: %lld B", trial, (long long)(hi + 1));
        }
    }
}

/* The resource's own term at a value of its demand, through gpuocc_occupancy. */
static int32_t term_at(const gpuocc_device *d, gpuocc_kernel k, int32_t resource, int64_t v)
{
    switch (resource) {
    case GPUOCC_RESOURCE_REGISTERS: k.regs_per_thread = (int32_t)v; break;
    case GPUOCC_RESOURCE_SGPRS: k.sgprs = (int32_t)v; break;
    case GPUOCC_RESOURCE_WARPS: k.threads_per_block = (int32_t)v; break;
    default:
        k.smem_static_bytes = k.smem_static_bytes < v ? k.smem_static_bytes : v;
        k.smem_dynamic_bytes = v - k.smem_static_bytes;
    }
    gpuocc_result r = test_occupancy(d, &k);
    int32_t limit = resource == GPUOCC_RESOURCE_REGISTERS ? r.limit_regs
                    : resource == GPUOCC_RESOURCE_SGPRS   ? r.limit_sgprs
                    : resource == GPUOCC_RESOURCE_WARPS   ? r.limit_warps
                                                          : r.limit_smem;
    return limit == GPUOCC_UNLIMITED ? INT32_MAX : limit;
}

Test(amd_queries, next_step_is_the_smallest_change)
{
    static const int32_t resources[] = {GPUOCC_RESOURCE_REGISTERS, GPUOCC_RESOURCE_SMEM, GPUOCC_RESOURCE_WARPS,
                                        GPUOCC_RESOURCE_SGPRS};
    uint64_t state = 0x13198A2E03707344ULL;
    for (int trial = 0; trial < TRIALS; trial++) {
        gpuocc_device d;
        gpuocc_kernel k;
        random_launch(&state, &d, &k, false);
        int32_t resource = resources[pick(&state, 0, 3)];
        gpuocc_result now = test_occupancy(&d, &k);
        int64_t current = resource == GPUOCC_RESOURCE_REGISTERS ? k.regs_per_thread
                          : resource == GPUOCC_RESOURCE_SGPRS   ? k.sgprs
                          : resource == GPUOCC_RESOURCE_WARPS   ? k.threads_per_block
                                                                : k.smem_static_bytes + k.smem_dynamic_bytes;
        int64_t value = -7, shed = -7;
        int32_t rc = gpuocc_next_step(&d, &k, resource, &value, &shed);
        int32_t target = now.blocks_per_sm + 1;
        /* the definition: the largest value <= current whose own term allows target blocks */
        int64_t lo = resource == GPUOCC_RESOURCE_WARPS ? 1 : 0, expected = -1;
        int64_t top = resource == GPUOCC_RESOURCE_REGISTERS && current > d.regs_per_thread_max ? d.regs_per_thread_max
                      : resource == GPUOCC_RESOURCE_WARPS && current > d.max_threads_per_block ? d.max_threads_per_block
                                                                                               : current;
        if (term_at(&d, k, resource, current) >= target)
            expected = current;
        else
            for (int64_t v = top; v >= lo && expected < 0; v--) /* threads <= 1100, LDS <= 100 KiB */
                if (term_at(&d, k, resource, v) >= target)
                    expected = v;
        if (expected < 0) {
            cr_expect_eq(rc, GPUOCC_ERR_UNSATISFIABLE, "trial %d resource %d", trial, resource);
            continue;
        }
        cr_assert_eq(rc, GPUOCC_OK, "trial %d resource %d", trial, resource);
        cr_expect_eq(value, expected, "trial %d resource %d", trial, resource);
        cr_expect_eq(shed, current - expected);
        /* the sole limiter shed this far really gives more blocks, and one unit less shed does not */
        if (now.limiters == (1u << resource) && shed > 0 && resource != GPUOCC_RESOURCE_WARPS) {
            gpuocc_kernel at = k;
            int32_t before = now.blocks_per_sm;
            if (resource == GPUOCC_RESOURCE_REGISTERS)
                at.regs_per_thread = (int32_t)value;
            else if (resource == GPUOCC_RESOURCE_SGPRS)
                at.sgprs = (int32_t)value;
            else
                at.smem_static_bytes = at.smem_static_bytes < value ? at.smem_static_bytes : value,
                at.smem_dynamic_bytes = value - at.smem_static_bytes;
            gpuocc_result after = test_occupancy(&d, &at);
            cr_expect_gt(after.blocks_per_sm, before, "trial %d", trial);
            cr_expect_gt(after.occupancy, now.occupancy, "trial %d", trial);
            cr_expect_lt(term_at(&d, k, resource, value + 1), target, "trial %d", trial);
        }
    }
}

Test(amd_queries, best_block_is_brute_force)
{
    uint64_t state = 0xA4093822299F31D0ULL;
    for (int trial = 0; trial < TRIALS / 3; trial++) {
        gpuocc_device d;
        gpuocc_kernel k;
        random_launch(&state, &d, &k, false);
        if (pick(&state, 0, 1))
            k.max_threads_per_block = (int32_t)pick(&state, 1, 1024);
        if (k.flat_workgroup_size_min > k.max_threads_per_block)
            k.flat_workgroup_size_min = 0;
        int64_t base = pick(&state, 0, 1) ? pick(&state, 0, 8192) : 0;
        int64_t per_thread = pick(&state, 0, 1) ? pick(&state, 0, 128) : 0;
        int32_t threads = -7, grid = -7;
        cr_assert_eq(gpuocc_best_block_affine(&d, &k, base, per_thread, &threads, &grid), GPUOCC_OK);
        /* every candidate through gpuocc_occupancy: the wave size's multiples below the largest allowed */
        int64_t limit = d.max_threads_per_block;
        if (k.max_threads_per_block > 0 && k.max_threads_per_block < limit)
            limit = k.max_threads_per_block;
        int64_t wave = k.wave_size ? k.wave_size : d.warp_size;
        int64_t best = 0, best_resident = 0, best_blocks = 0;
        for (int64_t t = k.flat_workgroup_size_min > 1 ? k.flat_workgroup_size_min : 1; t <= limit; t++) {
            if (t != limit && t % wave != 0)
                continue;
            gpuocc_kernel at = k;
            at.threads_per_block = (int32_t)t;
            at.smem_dynamic_bytes = base + per_thread * t;
            int32_t b = blocks_of(&d, &at);
            if ((int64_t)b * t >= best_resident && b > 0)
                best = t, best_resident = (int64_t)b * t, best_blocks = b;
        }
        cr_expect_eq(threads, best, "trial %d", trial);
        cr_expect_eq(grid, best_blocks * d.sm_count, "trial %d", trial);
    }
}

/* The staircase equals the answer at every unit step (gpuocc_sweep with step 1). */
Test(amd_queries, sweep_steps_are_the_staircase)
{
    static gpuocc_sweep_point points[70000];
    gpuocc_sweep_point steps[4096];
    uint64_t state = 0x082EFA98EC4E6C89ULL;
    for (int trial = 0; trial < 120; trial++) {
        gpuocc_device d;
        gpuocc_kernel k;
        random_launch(&state, &d, &k, false);
        int32_t axis = (int32_t)pick(&state, 0, GPUOCC_AXIS_COUNT - 1);
        int64_t from = axis == GPUOCC_AXIS_THREADS ? pick(&state, 1, 100) : pick(&state, 0, 50);
        int64_t to = axis == GPUOCC_AXIS_SMEM ? from + pick(&state, 0, 69000) : from + pick(&state, 0, 1100);
        int32_t n = 0, count = 0;
        cr_assert_eq(gpuocc_sweep(&d, &k, axis, from, to, 1, points, 70000, &n), GPUOCC_OK, "trial %d", trial);
        cr_assert_eq(gpuocc_sweep_steps(&d, &k, axis, from, to, steps, 4096, &count), GPUOCC_OK, "trial %d", trial);
        int32_t s = 0;
        for (int32_t i = 0; i < n; i++) {
            bool change = i == 0 || points[i].blocks_per_sm != points[i - 1].blocks_per_sm ||
                          points[i].warps_per_sm != points[i - 1].warps_per_sm ||
                          points[i].limiters != points[i - 1].limiters;
            if (!change)
                continue;
            cr_assert_lt(s, count, "trial %d axis %d: a change at %ld not reported", trial, axis, (long)points[i].value);
            cr_expect_eq(steps[s].value, points[i].value, "trial %d axis %d step %d", trial, axis, s);
            cr_expect_eq(steps[s].blocks_per_sm, points[i].blocks_per_sm, "trial %d", trial);
            s++;
        }
        cr_expect_eq(s, count, "trial %d axis %d", trial, axis);
    }
}

/* A prepared AMD device answers each launch of a batch as gpuocc_occupancy does (both models). */
Test(amd_queries, batch_is_occupancy)
{
    enum { N = 64 };
    uint64_t state = 0xBE5466CF34E90C6CULL;
    for (int trial = 0; trial < 60; trial++) {
        gpuocc_device d;
        gpuocc_kernel base;
        random_launch(&state, &d, &base, false);
        gpuocc_prepared prepared = {.size = sizeof prepared};
        cr_assert_eq(gpuocc_prepare(&d, &prepared), GPUOCC_OK);
        int32_t threads[N], regs[N], status[N], blocks[N], warps[N], limit_regs[N], limit_smem[N], waves[N],
            limit_sgprs[N];
        int64_t smem_static[N], smem_dynamic[N], smem_sm[N];
        double occupancy[N];
        uint32_t limiters[N];
        for (int i = 0; i < N; i++) {
            gpuocc_device ignored;
            gpuocc_kernel k;
            random_launch(&state, &ignored, &k, true);
            threads[i] = k.threads_per_block, regs[i] = k.regs_per_thread;
            smem_static[i] = k.smem_static_bytes, smem_dynamic[i] = k.smem_dynamic_bytes;
        }
        threads[3] = 0, regs[5] = -1, smem_dynamic[7] = -2; /* invalid launches do not stop the others */
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .threads_per_block = threads, .regs_per_thread = regs,
                          .smem_static_bytes = smem_static, .smem_dynamic_bytes = smem_dynamic, .status = status,
                          .blocks_per_sm = blocks, .warps_per_sm = warps, .occupancy = occupancy,
                          .limiters = limiters, .limit_regs = limit_regs, .limit_smem = limit_smem,
                          .smem_per_sm_bytes = smem_sm, .waves_per_simd = waves, .limit_sgprs = limit_sgprs};
        cr_assert_eq(gpuocc_occupancy_batch(&prepared, &base, &b, N), GPUOCC_OK);
        cr_expect_eq(status[3], GPUOCC_ERR_THREADS);
        cr_expect_eq(waves[3] | limit_sgprs[3], 0); /* a failed launch's outputs are 0 */
        cr_expect_eq(status[5], GPUOCC_ERR_REGISTERS);
        cr_expect_eq(status[7], GPUOCC_ERR_SMEM);
        for (int i = 0; i < N; i++) {
            if (i == 3 || i == 5 || i == 7)
                continue;
            gpuocc_kernel k = base;
            k.threads_per_block = threads[i], k.regs_per_thread = regs[i];
            k.smem_static_bytes = smem_static[i], k.smem_dynamic_bytes = smem_dynamic[i];
            gpuocc_result r = test_occupancy(&d, &k);
            cr_expect_eq(status[i], GPUOCC_OK);
            cr_expect_eq(blocks[i], r.blocks_per_sm, "trial %d launch %d", trial, i);
            cr_expect_eq(warps[i], r.warps_per_sm);
            cr_expect_eq(occupancy[i], r.occupancy);
            cr_expect_eq(limiters[i], r.limiters);
            cr_expect_eq(limit_regs[i], r.limit_regs);
            cr_expect_eq(limit_smem[i], r.limit_smem);
            cr_expect_eq(smem_sm[i], r.smem_per_sm_bytes);
            cr_expect_eq(waves[i], r.waves_per_simd, "trial %d launch %d", trial, i);
            cr_expect_eq(limit_sgprs[i], r.limit_sgprs, "trial %d launch %d", trial, i);
        }
        /* a state gpuocc_prepare did not write (its magic word changed) is refused */
        prepared.magic ^= 1;
        cr_expect_eq(gpuocc_occupancy_batch(&prepared, &base, &b, N), GPUOCC_ERR_DEVICE);
    }
    /* the base kernel's AMD fields are checked against the device, as gpuocc_occupancy checks them: each
       launch is refused with its status */
    gpuocc_device mi50 = test_device("MI50");
    gpuocc_prepared prepared = {.size = sizeof prepared};
    cr_assert_eq(gpuocc_prepare(&mi50, &prepared), GPUOCC_OK);
    gpuocc_kernel k = amd_kernel(64, 32, 0, 0);
    k.wave_size = 32;
    int32_t status = 7;
    gpuocc_batch b = {.size = sizeof b, .smem_width = 4, .status = &status};
    cr_expect_eq(gpuocc_occupancy_batch(&prepared, &k, &b, 1), GPUOCC_OK);
    cr_expect_eq(status, GPUOCC_ERR_ARGUMENT);
    /* AMD's own columns, by hand (LLVM 19's gfx906 SGPR table, as tests/test_amd.c): 100 SGPRs allow 8 waves
       per SIMD, so 4 SIMDs hold 32 one-wave (64-thread) workgroups; 16 VGPRs alone would allow 10 waves (40) */
    k = amd_kernel(64, 16, 0, 0);
    k.sgprs = 100;
    k.model = GPUOCC_MODEL_LLVM19;
    int32_t waves = -1, limit_sgprs = -1, blocks = -1;
    b = (gpuocc_batch){.size = sizeof b, .smem_width = 4, .status = &status, .blocks_per_sm = &blocks,
                       .waves_per_simd = &waves, .limit_sgprs = &limit_sgprs};
    cr_assert_eq(gpuocc_occupancy_batch(&prepared, &k, &b, 1), GPUOCC_OK);
    cr_expect_eq(status, GPUOCC_OK);
    cr_expect_eq(waves, 8);
    cr_expect_eq(limit_sgprs, 32);
    cr_expect_eq(blocks, 32);
}
