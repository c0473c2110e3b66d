/*
 * AMD occupancy: fixed vectors derived by hand from the published rules (docs/amd.md), and the
 * expectations of LLVM's own test llvm/test/CodeGen/AMDGPU/occupancy-levels.ll.  The thousands-of-kernels
 * comparison with LLVM 19 itself is the `amd` suite (tests/amd/corpus.py).
 */
#include "common.h"

/* One AMD kernel: arch VGPRs, AGPRs, SGPRs, static LDS, flat workgroup maximum (0 = threads). */
static gpuocc_kernel amd_kernel(int32_t threads, int32_t vgprs, int32_t agprs, int32_t sgprs, int64_t lds,
                                int32_t flat_max)
{
    gpuocc_kernel k = test_kernel(threads, vgprs, lds, 0);
    k.agprs = agprs;
    k.sgprs = sgprs;
    k.max_threads_per_block = flat_max;
    return k;
}

static int32_t llvm_waves(const char *target, int32_t wave, int32_t cu_mode, gpuocc_kernel k)
{
    gpuocc_device d = test_device(target);
    k.wave_size = wave;
    k.cu_mode = cu_mode;
    k.model = GPUOCC_MODEL_COMPILER;
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.model, GPUOCC_MODEL_COMPILER);
    return r.waves_per_simd;
}

static gpuocc_result hip(const char *target, int32_t rocm, gpuocc_kernel k)
{
    gpuocc_device d = test_device(target);
    k.model = GPUOCC_MODEL_RUNTIME;
    k.rocm_version = rocm;
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.model, GPUOCC_MODEL_RUNTIME);
    return r;
}

/* LLVM occupancy-levels.ll: flat workgroup size 1..32 unless said, one CHECK per case. */
Test(amd, llvm_occupancy_levels)
{
    cr_expect_eq(llvm_waves("gfx900", 0, 0, amd_kernel(32, 28, 0, 0, 0, 32)), 9);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, amd_kernel(32, 36, 0, 0, 0, 32)), 7);
    cr_expect_eq(llvm_waves("gfx950", 0, 0, amd_kernel(32, 72, 0, 0, 0, 32)), 7);
    cr_expect_eq(llvm_waves("gfx1030", 32, 0, amd_kernel(32, 72, 0, 0, 0, 32)), 12);
    cr_expect_eq(llvm_waves("gfx1030", 64, 0, amd_kernel(32, 84, 0, 0, 0, 32)), 5);
    cr_expect_eq(llvm_waves("gfx1100", 32, 0, amd_kernel(32, 100, 0, 0, 0, 32)), 12);
    cr_expect_eq(llvm_waves("gfx1100", 64, 0, amd_kernel(32, 80, 0, 0, 0, 32)), 9);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, amd_kernel(32, 1, 0, 88, 0, 32)), 9);
    /* LDS 8252 bytes with flat maxima 64, 256, 1024 */
    cr_expect_eq(llvm_waves("gfx900", 0, 0, amd_kernel(64, 1, 0, 0, 8252, 64)), 2);
    cr_expect_eq(llvm_waves("gfx950", 0, 0, amd_kernel(64, 1, 0, 0, 8252, 64)), 5);
    cr_expect_eq(llvm_waves("gfx1030", 32, 0, amd_kernel(64, 1, 0, 0, 8252, 64)), 8);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, amd_kernel(256, 1, 0, 0, 8252, 256)), 7);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, amd_kernel(1024, 1, 0, 0, 8252, 1024)), 8);
    /* an empty kernel: the wave slots alone */
    cr_expect_eq(llvm_waves("gfx906", 0, 0, amd_kernel(32, 0, 0, 0, 0, 32)), 10);
    cr_expect_eq(llvm_waves("gfx950", 0, 0, amd_kernel(32, 0, 0, 0, 0, 32)), 8);
    cr_expect_eq(llvm_waves("gfx1030", 32, 0, amd_kernel(32, 0, 0, 0, 0, 32)), 16);
    cr_expect_eq(llvm_waves("gfx1100", 32, 0, amd_kernel(32, 0, 0, 0, 0, 32)), 16);
}

/* By hand from the rules in docs/amd.md. */
Test(amd, llvm_rules_by_hand)
{
    /* 25 VGPRs round to 28: 256 / 28 = 9 */
    cr_expect_eq(llvm_waves("gfx906", 0, 0, amd_kernel(256, 25, 0, 0, 0, 256)), 9);
    /* unified file: 70 arch VGPRs round to 72, + 64 AGPRs = 136 -> granule 8: 136; 512 / 136 = 3 */
    cr_expect_eq(llvm_waves("gfx90a", 0, 0, amd_kernel(256, 70, 64, 0, 0, 256)), 3);
    /* separate files: max(70, 64) = 70 -> 72; 256 / 72 = 3 */
    cr_expect_eq(llvm_waves("gfx908", 0, 0, amd_kernel(256, 70, 64, 0, 0, 256)), 3);
    /* 2 arch VGPRs + 1 AGPR on gfx90a: 4 + 1 = 5 < granule 8: no VGPR limit */
    cr_expect_eq(llvm_waves("gfx90a", 0, 0, amd_kernel(64, 2, 1, 0, 0, 64)), 8);
    /* LDS 16 KiB: 4 workgroups of 4 waves on 4 SIMDs */
    cr_expect_eq(llvm_waves("gfx942", 0, 0, amd_kernel(256, 32, 0, 0, 16384, 256)), 4);
    /* two-wave workgroups: at most 16 with barriers per CU -> 32 waves / 4 SIMDs */
    cr_expect_eq(llvm_waves("gfx906", 0, 0, amd_kernel(128, 1, 0, 0, 0, 128)), 8);
    /* single-wave workgroups need no barrier: 40 of them */
    cr_expect_eq(llvm_waves("gfx906", 0, 0, amd_kernel(64, 1, 0, 0, 0, 64)), 10);
    /* CU mode: 2 SIMDs, 64 KiB; 72 VGPRs round to 80: 1024 / 80 = 12 */
    cr_expect_eq(llvm_waves("gfx1030", 32, 1, amd_kernel(128, 72, 0, 0, 0, 128)), 12);
    /* SGPRs 100 -> 8 waves; 101 -> 7 */
    cr_expect_eq(llvm_waves("gfx906", 0, 0, amd_kernel(64, 32, 0, 100, 0, 64)), 8);
    cr_expect_eq(llvm_waves("gfx906", 0, 0, amd_kernel(64, 1, 0, 101, 0, 64)), 7);
    /* gfx10+: SGPRs never limit */
    cr_expect_eq(llvm_waves("gfx1100", 32, 0, amd_kernel(64, 1, 0, 106, 0, 64)), 16);
    /* llvm-calc-occupancy's documented example: gfx90a, 512 threads, 50 VGPRs, 30 SGPRs -> 8 */
    cr_expect_eq(llvm_waves("gfx90a", 0, 0, amd_kernel(512, 50, 0, 30, 0, 512)), 8);
    /* more LDS than the CU has: LLVM assumes the worst, 1 */
    cr_expect_eq(llvm_waves("gfx900", 0, 0, amd_kernel(64, 1, 0, 0, 65537, 64)), 1);
}

Test(amd, compiler_blocks_per_cu)
{
    gpuocc_device d = test_device("MI300X");
    cr_expect_eq(d.vendor, GPUOCC_VENDOR_AMD);
    cr_expect_eq(d.sm_count, 304);
    gpuocc_kernel k = amd_kernel(256, 128, 0, 32, 32768, 0);
    gpuocc_result r = test_occupancy(&d, &k);
    /* 128 VGPRs: 512 / 128 = 4 waves per SIMD x 4 SIMDs = 16 waves = 4 blocks of 4 waves;
       LDS 64 KiB / 32 KiB = 2 blocks: LDS limits */
    cr_expect_eq(r.limit_regs, 4);
    cr_expect_eq(r.limit_smem, 2);
    cr_expect_eq(r.limit_warps, 8);
    cr_expect_eq(r.limit_barriers, 16);
    cr_expect_eq(r.limit_sgprs, 8); /* 32 SGPRs: 10 waves, capped at 8 */
    cr_expect_eq(r.blocks_per_sm, 2);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_SMEM);
    cr_expect_eq(r.warps_per_sm, 8);
    cr_expect_eq(r.max_warps_per_sm, 32);
    cr_expect_float_eq(r.occupancy, 0.25, 1e-12);
    cr_expect_eq(r.waves_per_simd, 2); /* LLVM: 2 workgroups x 4 waves / 4 SIMDs */
    cr_expect_str_eq(gpuocc_resource_name(GPUOCC_RESOURCE_SGPRS), "sgprs");

    /* RX 7900 XTX: 48 WGPs as HIP counts them; WGP mode puts 4 SIMDs and 128 KiB behind a workgroup */
    d = test_device("RX 7900 XTX");
    cr_expect_eq(d.sm_count, 48);
    k = amd_kernel(256, 88, 0, 0, 40000, 0);
    r = test_occupancy(&d, &k);
    /* wave32: 88 -> 96 of 1536: 16 waves x 4 SIMDs = 64 = 8 blocks; LDS 131072 / 40000 = 3 */
    cr_expect_eq(r.limit_regs, 8);
    cr_expect_eq(r.limit_smem, 3);
    cr_expect_eq(r.blocks_per_sm, 3);
    cr_expect_eq(r.limit_barriers, 32);
    k.cu_mode = 1; /* 2 SIMDs, 64 KiB: LDS 1 block */
    r = test_occupancy(&d, &k);
    cr_expect_eq(r.limit_smem, 1);
    cr_expect_eq(r.limit_regs, 4);

    /* a block above 1024 threads never runs; more LDS than a workgroup may use neither */
    k = amd_kernel(1025, 1, 0, 0, 0, 0);
    cr_expect_eq(test_occupancy(&d, &k).blocks_per_sm, 0);
    k = amd_kernel(64, 1, 0, 0, 65537, 0);
    cr_expect_eq(test_occupancy(&d, &k).blocks_per_sm, 0);
}

/* HIP's hipOccupancyMaxActiveBlocksPerMultiprocessor, by hand from its published source (docs/amd.md). */
Test(amd, hip_runtime)
{
    /* gfx90a 128 VGPRs, 32 SGPRs, 256 threads: 512/128 = 4 waves x 4 SIMDs / 4 waves = 4 */
    cr_expect_eq(hip("gfx90a", 0, amd_kernel(256, 128, 0, 32, 0, 0)).blocks_per_sm, 4);
    /* LDS 16 KiB: 65536 / 16384 = 4 */
    cr_expect_eq(hip("gfx90a", 0, amd_kernel(256, 64, 0, 20, 16384, 0)).blocks_per_sm, 4);
    /* gfx906: 8 waves per SIMD, not LLVM's 10 */
    cr_expect_eq(hip("gfx906", 0, amd_kernel(256, 32, 0, 48, 0, 0)).blocks_per_sm, 8);
    /* 84 VGPRs: 256/84 = 3; SGPRs 100 -> 800/112 = 7; 3 x 4 = 12 one-wave blocks */
    gpuocc_result r = hip("gfx906", 0, amd_kernel(64, 84, 0, 100, 0, 0));
    cr_expect_eq(r.blocks_per_sm, 12);
    cr_expect_eq(r.limit_sgprs, 28);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
    /* 81..95 SGPRs: HIP's 800 / 96 = 8, LLVM's table 9 */
    r = hip("gfx906", 0, amd_kernel(64, 1, 0, 88, 0, 0));
    cr_expect_eq(r.limit_sgprs, 32);
    cr_expect_eq(r.waves_per_simd, 9);
    /* gfx1100 WGP mode, wave32 88 VGPRs: 1536 / 96 = 16 x 4 SIMDs = 64 waves / 8 = 8 */
    gpuocc_kernel k = amd_kernel(256, 88, 0, 40, 0, 0);
    cr_expect_eq(hip("gfx1100", 0, k).blocks_per_sm, 8);
    k.wave_size = 64; /* 768 / 96 = 8 x 4 = 32 waves / 4 = 8 */
    cr_expect_eq(hip("gfx1100", 0, k).blocks_per_sm, 8);
    /* gfx1030 CU mode, 72 VGPRs, 128 threads: the old table (granule 16) 1024/80 = 12 -> 24 waves -> 6;
       comgr's (granule 8) 1024/72 = 14 -> 28 -> 7 */
    k = amd_kernel(128, 72, 0, 0, 0, 0);
    k.cu_mode = 1;
    cr_expect_eq(hip("gfx1030", 604, k).blocks_per_sm, 6);
    cr_expect_eq(hip("gfx1030", 0, k).blocks_per_sm, 7);
    /* gfx12 unknown to the old switch: its default 256/4 (wave32): 64 VGPRs -> 4 waves -> 16 per WGP / 2 */
    k = amd_kernel(64, 64, 0, 0, 0, 0);
    cr_expect_eq(hip("gfx1201", 603, k).blocks_per_sm, 8);
    cr_expect_eq(hip("gfx1201", 0, k).blocks_per_sm, 32); /* 1536/72 = 21 -> cap 16 x 4 / 2 */
    /* 65 threads on wave64 take 2 waves: 8 x 4 / 2 = 16 */
    cr_expect_eq(hip("gfx90a", 0, amd_kernel(65, 32, 0, 16, 0, 0)).blocks_per_sm, 16);
    /* static 8 KiB + dynamic 24 KiB: 65536 / 32768 = 2 */
    k = amd_kernel(128, 16, 0, 0, 8192, 0);
    k.smem_dynamic_bytes = 24576;
    cr_expect_eq(hip("gfx942", 0, k).blocks_per_sm, 2);
    /* above 1024 threads: 0 blocks */
    cr_expect_eq(hip("gfx90a", 0, amd_kernel(1025, 32, 0, 0, 0, 0)).blocks_per_sm, 0);
    /* gfx950's 160 KiB */
    cr_expect_eq(hip("gfx942", 0, amd_kernel(256, 32, 0, 0, 65536, 0)).blocks_per_sm, 1);
    cr_expect_eq(hip("gfx950", 0, amd_kernel(256, 32, 0, 0, 65536, 0)).blocks_per_sm, 2);
    /* .vgpr_count 128 = 124 arch + 4 AGPRs: 4 waves, 4 blocks */
    cr_expect_eq(hip("gfx90a", 0, amd_kernel(256, 124, 4, 80, 0, 0)).blocks_per_sm, 4);
    /* gfx11 WGP-mode LDS: before the fix 64 KiB, after it the WGP's 128 KiB */
    k = amd_kernel(256, 24, 0, 0, 32768, 0);
    cr_expect_eq(hip("gfx1100", 604, k).blocks_per_sm, 2);
    cr_expect_eq(hip("gfx1100", 0, k).blocks_per_sm, 4);
}

Test(amd, invalid)
{
    gpuocc_device d = test_device("gfx906");
    gpuocc_result r = {.size = sizeof r};
    gpuocc_kernel k = amd_kernel(64, 32, 0, 0, 0, 0);
    k.wave_size = 32; /* gfx9 runs wave64 only */
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    k = amd_kernel(64, 32, 4, 0, 0, 0); /* no AGPRs on gfx906 */
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_REGISTERS);
    k = amd_kernel(64, 32, 0, -1, 0, 0);
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_REGISTERS);
    k = amd_kernel(64, 32, 0, 0, 0, 0);
    k.model = 3;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    k.model = 0;
    gpuocc_device bad = d;
    bad.vgpr_granule = 0;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad = d;
    bad.warp_size = 32; /* not one of its wave sizes */
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    bad = d;
    bad.reserved1 = 1;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_RESERVED);
    /* an NVIDIA device with AMD fields set is refused */
    bad = test_device("A100");
    bad.simds_per_cu = 4;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    /* names: targets with features, products with brands */
    cr_expect_eq(test_device("gfx90a:sramecc+:xnack-").cc_minor, 0x0a);
    cr_expect_eq(test_device("AMD Instinct MI250X").sm_count, 110);
    cr_expect_eq(test_device("Radeon RX 9070 XT").sm_count, 32);
    gpuocc_device none = {.size = sizeof none};
    cr_expect_eq(gpuocc_device_lookup("gfx1010", &none), GPUOCC_ERR_UNKNOWN_DEVICE);
}
