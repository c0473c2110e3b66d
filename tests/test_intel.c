/*
 * Intel's rules by hand.  Every expected value below is derived from the published rules, never from the
 * library's output; the derivation is in the comment beside it.
 *
 * Calculator (docs/intel.md; oneAPI-samples Tools/GPU-Occupancy-Calculator/index.html, compute_ss_occupancy,
 * after "fixed MTL thread count"):
 *   threads per WG  = ceil(WG / SG)
 *   thread budget   = XVEs x threads per XVE, halved with large GRF (> 128 registers)
 *   WGs             = min(floor(budget / threads per WG),
 *                         floor(SLM per Xe-core / SLM rounded up to TG_SLM_Sizes)  (no limit for 0 SLM),
 *                         Max_Num_Of_Workgroups, or Max_Num_Of_Barrier_Registers with barriers)
 *   occupancy       = threads per WG x WGs / (XVEs x threads per XVE)   (the full count, large GRF too)
 * Device constants (the calculator's table): Gen9/Gen11 8 x 7, 64 KB, WG 256, 56 WGs, 32 barriers;
 * Xe-LP (TGL, DG1) 16 x 7, 64 KB, WG 512, 112 WGs, 64 barriers; Xe-HPG (DG2), Xe HP (ATS-M), Xe-LPG (MTL)
 * 16 x 8, 128 KB per Xe-core, 64 KB per WG, sizes 0,1,2,4,...,64, 128 WGs, 128 barriers; Xe-HPC (PVC),
 * Xe2 (LNL, BMG) 8 x 8, 128 KB, sizes 0,1,2,4,8,16,24,32,48,64,96,128, 64 WGs, 64 barriers.
 *
 * Runtime (intel/compute-runtime, KernelHelper::getMaxWorkGroupCount with calculateAvailableThreadCount,
 * alignThreadGroupCountToDssSize, alignSlmSizePerThreadGroup; the theoretical count, before
 * adjustMaxWorkGroupCount):
 *   threads per EU  = up to Xe2: 8, 4 at 256 GRF; Xe3: 10 (<= 96 GRF), 8 (<= 128), 6 (<= 160), 5 (<= 192),
 *                     4 (<= 256); never more than the hardware's NumThreadsPerEu
 *   GPU count       = min(EUs x threads per EU / threads per WG,
 *                         floor(threads per DSS / threads per WG) x DSSs,
 *                         DSSs x floor(32 barrier registers / barrier count)   (barrier count > 0),
 *                         DSSs x maxProgrammableSlmSize / aligned SLM)          (SLM > 0)
 *   per Xe-core     = the same terms for one DSS.
 */
#include "common.h"

static gpuocc_kernel intel_kernel(int32_t wg, int32_t sg, int64_t slm, int32_t grf, int32_t barriers)
{
    gpuocc_kernel k = test_kernel(wg, 0, slm, 0);
    k.sub_group = sg;
    k.grf = grf;
    k.barriers = barriers;
    return k;
}

static gpuocc_result calc(const char *arch, int32_t wg, int32_t sg, int64_t slm, int32_t grf, int32_t barriers)
{
    gpuocc_device d = test_device(arch);
    cr_assert_eq(d.vendor, GPUOCC_VENDOR_INTEL, "%s", arch);
    gpuocc_kernel k = intel_kernel(wg, sg, slm, grf, barriers);
    return test_occupancy(&d, &k);
}

static gpuocc_result runtime(const gpuocc_device *d, int32_t wg, int32_t sg, int64_t slm, int32_t grf,
                             int32_t barriers)
{
    gpuocc_kernel k = intel_kernel(wg, sg, slm, grf, barriers);
    k.model = GPUOCC_MODEL_INTEL_RUNTIME;
    return test_occupancy(d, &k);
}

#define KIB 1024
#define NEAR(a, b) cr_expect_float_eq((a), (b), 1e-12)

/* ---- the calculator, architecture by architecture ---- */

Test(intel, pvc_calculator)
{
    /* thread-bound: 1024 / 16 = 64 threads; 64 / 64 = 1 WG; 64 / 64 = 100 % */
    gpuocc_result r = calc("pvc", 1024, 16, 0, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 1);
    cr_expect_eq(r.warps_per_block, 64);
    cr_expect_eq(r.max_warps_per_sm, 64);
    NEAR(r.occupancy, 1.0);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS);
    cr_expect_eq(r.model, GPUOCC_MODEL_CALCULATOR);
    /* large GRF: budget 64 / 2 = 32 < 64 threads: 0 WGs */
    r = calc("pvc", 1024, 16, 0, 256, 0);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.limit_regs, 0);
    cr_expect_eq(r.limit_warps, 1);
    /* large GRF: 512 / 16 = 32 threads, budget 32: 1 WG; occupancy 32 / 64 (the unhalved count) = 50 % */
    r = calc("pvc", 512, 16, 0, 256, 0);
    cr_expect_eq(r.blocks_per_sm, 1);
    NEAR(r.occupancy, 0.5);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
    cr_expect_eq(r.limit_warps, 2); /* 64 / 32 */
    /* SLM-bound with rounding: 128 / 32 = 4 threads (16 WGs by threads); 40 KB rounds to 48 KB;
       128 / 48 = 2 WGs; occupancy 4 x 2 / 64 = 12.5 % */
    r = calc("pvc", 128, 32, 40 * KIB, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 2);
    cr_expect_eq(r.limit_warps, 16);
    cr_expect_eq(r.limit_smem, 2);
    cr_expect_eq(r.smem_per_block_bytes, 48 * KIB);
    cr_expect_eq(r.smem_per_sm_bytes, 128 * KIB);
    NEAR(r.occupancy, 0.125);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_SMEM);
    /* barrier cap: 16 / 16 = 1 thread, 64 by threads; barriers: 64 registers; WG cap 64: all three tie */
    r = calc("pvc", 16, 16, 0, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 64);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_BLOCKS | GPUOCC_LIMIT_BARRIERS);
    NEAR(r.occupancy, 1.0);
    /* 1 KB exactly stays 1 KB; 1 byte more rounds to 2 KB: 128 and 64 WGs by SLM */
    cr_expect_eq(calc("pvc", 16, 16, 1 * KIB, 0, 0).limit_smem, 128);
    cr_expect_eq(calc("pvc", 16, 16, 1 * KIB + 1, 0, 0).limit_smem, 64);
    /* more than 128 KB per WG never runs */
    cr_expect_eq(calc("pvc", 16, 16, 128 * KIB + 1, 0, 0).limit_smem, 0);
}

Test(intel, dg2_calculator)
{
    /* 256 / 16 = 16 threads; 128 / 16 = 8 WGs; 100 % */
    gpuocc_result r = calc("dg2", 256, 16, 0, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 8);
    NEAR(r.occupancy, 1.0);
    /* 20 KB rounds to 32 KB (the calculator's sizes have no 24); 128 / 32 = 4 WGs; 64 / 128 = 50 % */
    r = calc("dg2", 256, 16, 20 * KIB, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect_eq(r.smem_per_block_bytes, 32 * KIB);
    NEAR(r.occupancy, 0.5);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_SMEM);
    /* 65 KB is more than the 64 KB one WG may have */
    cr_expect_eq(calc("dg2", 256, 16, 65 * KIB, 0, 0).blocks_per_sm, 0);
    /* large GRF: budget 128 / 2 = 64; 64 / 16 = 4 WGs; 64 / 128 = 50 % */
    r = calc("dg2", 256, 16, 0, 256, 0);
    cr_expect_eq(r.blocks_per_sm, 4);
    NEAR(r.occupancy, 0.5);
    /* 24 / 16 = 1.5 rounds up to 2 threads (the ceil of PR #2352); 128 / 2 = 64 WGs; 128 / 128 = 100 % */
    r = calc("dg2", 24, 16, 0, 0, 0);
    cr_expect_eq(r.warps_per_block, 2);
    cr_expect_eq(r.blocks_per_sm, 64);
    NEAR(r.occupancy, 1.0);
    /* barrier-bound: 16 / 16 = 1 thread, 128 by threads, 128 barrier registers, 128 WGs: all tie */
    r = calc("dg2", 16, 16, 0, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 128);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_BLOCKS | GPUOCC_LIMIT_BARRIERS);
    /* the same on ATS-M (Flex): 1024 / 8 = 128 threads, 1 WG, 100 % */
    r = calc("ats-m150", 1024, 8, 0, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 1);
    NEAR(r.occupancy, 1.0);
}

Test(intel, xe_lp_calculator)
{
    /* 64 / 8 = 8 threads; 112 / 8 = 14 WGs; barriers 64, WG cap 112: 14; 8 x 14 / 112 = 100 % */
    gpuocc_result r = calc("tgllp", 64, 8, 0, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 14);
    NEAR(r.occupancy, 1.0);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS);
    /* barrier-bound: 8 / 8 = 1 thread, 112 by threads and by the WG cap, 64 barrier registers: 64 WGs,
       64 / 112 */
    r = calc("tgllp", 8, 8, 0, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 64);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_BARRIERS);
    NEAR(r.occupancy, 64.0 / 112.0);
    /* without barriers: 112, threads and the WG cap tie */
    r = calc("tgllp", 8, 8, 0, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 112);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_BLOCKS);
    /* WG 1024 is above Xe-LP's 512; 256 GRF is more than Xe-LP has (no large-GRF mode) */
    cr_expect_eq(calc("tgllp", 1024, 16, 0, 0, 0).limit_warps, 0);
    r = calc("tgllp", 64, 16, 0, 256, 0);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.limit_regs, 0);
    /* DG1: 512 / 16 = 32 threads; 112 / 32 = 3 WGs; 96 / 112 */
    r = calc("dg1", 512, 16, 0, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 3);
    NEAR(r.occupancy, 96.0 / 112.0);
}

Test(intel, gen9_gen11_calculator)
{
    /* 32 / 32 = 1 thread; 56 by threads; 32 barrier registers: 32 WGs; 32 / 56 = 57.14 % */
    gpuocc_result r = calc("skl", 32, 32, 0, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 32);
    NEAR(r.occupancy, 32.0 / 56.0);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_BARRIERS);
    /* SLM: 64 / 16 = 4 threads, 14 by threads; 5 KB rounds to 8 KB, 64 / 8 = 8 WGs; 32 / 56 */
    r = calc("gen9", 64, 16, 5 * KIB, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 8);
    cr_expect_eq(r.limit_warps, 14);
    NEAR(r.occupancy, 32.0 / 56.0);
    /* Gen11: 256 / 8 = 32 threads; 56 / 32 = 1 WG; 32 / 56 */
    r = calc("icllp", 256, 8, 0, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 1);
    NEAR(r.occupancy, 32.0 / 56.0);
}

Test(intel, mtl_xe2_calculator)
{
    /* MTL (16 x 8 = 128 after "fixed MTL thread count"): 1024 / 32 = 32 threads, 4 WGs; 16 KB: 128 / 16 = 8 */
    gpuocc_result r = calc("mtl", 1024, 32, 16 * KIB, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 4);
    NEAR(r.occupancy, 1.0);
    /* 48 KB rounds to 64 KB on MTL (powers of two): 128 / 64 = 2 WGs; 64 / 128 = 50 % */
    r = calc("mtl", 1024, 32, 48 * KIB, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 2);
    NEAR(r.occupancy, 0.5);
    /* LNL (8 x 8 = 64): 512 / 16 = 32 threads, 2 WGs; 40 KB -> 48 KB, 128 / 48 = 2: they tie; 100 % */
    r = calc("lnl", 512, 16, 40 * KIB, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 2);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS | GPUOCC_LIMIT_SMEM);
    NEAR(r.occupancy, 1.0);
    /* BMG: 64 / 16 = 4 threads, 16 by threads; 100 KB -> 128 KB, 1 WG; 4 / 64 = 6.25 % */
    r = calc("bmg", 64, 16, 100 * KIB, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 1);
    NEAR(r.occupancy, 4.0 / 64.0);
    /* Xe2 has no sub-group 8 */
    gpuocc_device d = test_device("bmg");
    gpuocc_kernel k = intel_kernel(64, 8, 0, 0, 0);
    gpuocc_result out = {.size = sizeof out};
    cr_expect_eq(gpuocc_occupancy(&d, &k, &out), GPUOCC_ERR_ARGUMENT);
}

Test(intel, calculator_gpu_wide)
{
    /* Arc A770: 32 Xe-cores x 8 WGs (256 / 16 = 16 threads, 128 / 16) = 256 */
    gpuocc_device d = test_device("Arc A770");
    cr_expect_eq(d.sm_count, 32);
    gpuocc_kernel k = intel_kernel(256, 16, 0, 0, 0);
    cr_expect_eq(test_occupancy(&d, &k).workgroups_per_gpu, 256);
    /* a bare architecture has no Xe-core count */
    d = test_device("dg2");
    cr_expect_eq(test_occupancy(&d, &k).workgroups_per_gpu, 0);
}

/* ---- the runtime ---- */

Test(intel, runtime_pvc)
{
    gpuocc_device max1550 = test_device("Max 1550");
    cr_expect_eq(max1550.sm_count, 128);
    /* 256 / 16 = 16 threads; per Xe-core 8 x 8 / 16 = 4; GPU min(1024 x 8 / 16 = 512, 4 x 128 = 512,
       barriers 128 x (32 / 1) = 4096) = 512 */
    gpuocc_result r = runtime(&max1550, 256, 16, 0, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect_eq(r.workgroups_per_gpu, 512);
    cr_expect_eq(r.limit_blocks, GPUOCC_UNLIMITED); /* the runtime has no WG cap */
    cr_expect_eq(r.limit_barriers, 32);
    cr_expect_eq(r.model, GPUOCC_MODEL_INTEL_RUNTIME);
    /* 48 KB: per Xe-core 128 / 48 = 2; the GPU's SLM, 128 x 128 KB / 48 KB = 341.3 -> 341 (more than 2 x 128) */
    r = runtime(&max1550, 256, 16, 48 * KIB, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 2);
    cr_expect_eq(r.workgroups_per_gpu, 341);
    /* large GRF: 4 threads per EU, 32 per Xe-core; 512 / 16 = 32 threads: 1 per Xe-core, 128 on the GPU */
    r = runtime(&max1550, 512, 16, 0, 256, 0);
    cr_expect_eq(r.blocks_per_sm, 1);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
    cr_expect_eq(r.workgroups_per_gpu, 128);
    NEAR(r.occupancy, 0.5);
    /* the barrier count divides: 16 / 16 = 1 thread, 64 by threads; 32 / 2 = 16 per Xe-core;
       Max 1100 (56 Xe-cores): min(448 x 8 = 3584, 64 x 56 = 3584, 56 x 16 = 896) = 896 */
    gpuocc_device max1100 = test_device("Max 1100");
    r = runtime(&max1100, 16, 16, 0, 0, 2);
    cr_expect_eq(r.blocks_per_sm, 16);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_BARRIERS);
    cr_expect_eq(r.workgroups_per_gpu, 896);
}

/* A launch that fits no work-group names the input over a limit and the most of it with which one fits
   (every zero limit, not only the work-group size, SLM and a GRF past grf_max).  By hand: pvc, 8 XVEs of 8
   threads; 1024 work-items in sub-groups of 16 are 64 hardware threads, and the large GRF (256) leaves 4 a
   XVE, 32: none fit, 128 GRF (8 a XVE, 64) does; 64 work-items (4 threads) fit with 256, the largest mode,
   not with 512.  The runtime's 32 barriers per Xe-core (runtime_pvc above): 33 a work-group fit none. */
Test(intel, every_zero_limit_names_its_input)
{
    gpuocc_device pvc = test_device("pvc"), max1550 = test_device("Max 1550");
    struct {
        const gpuocc_device *d;
        gpuocc_kernel k;
        int32_t input;
        int64_t limit;
    } cases[] = {
        {&pvc, intel_kernel(1024, 16, 0, 256, 0), GPUOCC_INPUT_GRF, 128},
        {&pvc, intel_kernel(64, 16, 0, 512, 0), GPUOCC_INPUT_GRF, 256},
        {&max1550, intel_kernel(16, 16, 0, 0, 33), GPUOCC_INPUT_BARRIERS, 32},
    };
    cases[2].k.model = GPUOCC_MODEL_INTEL_RUNTIME;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpuocc_kernel k = cases[i].k;
        gpuocc_result r = {.size = sizeof r};
        cr_assert_eq(gpuocc_occupancy(cases[i].d, &k, &r), GPUOCC_OK, "case %zu", i);
        cr_expect_eq(r.blocks_per_sm, 0, "case %zu", i);
        cr_expect_eq(r.exceeded, cases[i].input, "case %zu: %d", i, r.exceeded);
        cr_expect_eq(r.exceeded_limit, cases[i].limit, "case %zu: %lld", i, (long long)r.exceeded_limit);
        /* at the limit one work-group fits */
        if (cases[i].input == GPUOCC_INPUT_GRF)
            k.grf = (int32_t)cases[i].limit;
        else
            k.barriers = (int32_t)cases[i].limit;
        cr_expect_geq(test_occupancy(cases[i].d, &k).blocks_per_sm, 1, "case %zu at the limit", i);
    }
}

Test(intel, runtime_dg2_and_xe_lp)
{
    /* A770 (32 Xe-cores): the runtime programs 64 KB per Xe-core and rounds 20 KB to 24 KB: per Xe-core
       64 / 24 = 2 (the calculator: 128 / 32 = 4); GPU 32 x 64 KB / 24 KB = 85.3 -> 85 (threads: 256 / 16 =
       16, 8 x 32 = 256; barriers 32 x 32 = 1024) */
    gpuocc_device a770 = test_device("A770");
    gpuocc_result r = runtime(&a770, 256, 16, 20 * KIB, 0, 1);
    cr_expect_eq(r.blocks_per_sm, 2);
    cr_expect_eq(r.smem_per_block_bytes, 24 * KIB);
    cr_expect_eq(r.smem_per_sm_bytes, 64 * KIB);
    cr_expect_eq(r.workgroups_per_gpu, 85);
    NEAR(r.occupancy, 32.0 / 128.0);
    /* Xe-LP has 7 threads per EU: min(7, 8) = 7, 112 per Xe-core; no GRF limit in the default mode;
       Iris Xe (6 Xe-cores) with 64 / 8 = 8 threads: 14 per Xe-core, 6 x 112 / 8 = 84 = 14 x 6 */
    gpuocc_device iris = test_device("Iris Xe");
    r = runtime(&iris, 64, 8, 0, 0, 0);
    cr_expect_eq(r.blocks_per_sm, 14);
    cr_expect_eq(r.limit_regs, GPUOCC_UNLIMITED);
    cr_expect_eq(r.workgroups_per_gpu, 84);
}

Test(intel, runtime_two_mode_table)
{
    /* I2: gfx_core_helper_base.inl calculateAvailableThreadCount up to Xe2: 4 threads per EU when the GRF count
       equals the large GRF's 256 (GrfConfig::largeGrfNumber), 8 otherwise -- a count between the two modes
       (200) is 8 threads, unlike the calculator's "more than 128: large GRF".  pvc: 8 XVEs; 256 work-items
       in sub-groups of 16 = 16 threads: 8 x 8 / 16 = 4 work-groups at 200 GRF, 8 x 4 / 16 = 2 at 256. */
    gpuocc_device pvc = test_device("pvc");
    cr_expect_eq(runtime(&pvc, 256, 16, 0, 200, 0).blocks_per_sm, 4);
    cr_expect_eq(runtime(&pvc, 256, 16, 0, 200, 0).limit_regs, GPUOCC_UNLIMITED);
    cr_expect_eq(runtime(&pvc, 256, 16, 0, 256, 0).blocks_per_sm, 2);
    /* the calculator halves the Xe-core's 64 threads above 128 GRF: 32 / 16 = 2 */
    gpuocc_kernel k = intel_kernel(256, 16, 0, 200, 0);
    cr_expect_eq(test_occupancy(&pvc, &k).blocks_per_sm, 2);
}

Test(intel, runtime_xe3_grf_table)
{
    /* Xe3 (PTL): 8 XVEs x 10 threads = 80; WG 160 / 16 = 10 threads; no barriers */
    gpuocc_device ptl = test_device("ptl");
    cr_expect_eq(ptl.max_threads_per_sm, 80);
    /* <= 96 GRF: 10 per EU, the hardware's: 80 / 10 = 8 WGs, no GRF limit; 100 % */
    gpuocc_result r = runtime(&ptl, 160, 16, 0, 96, 0);
    cr_expect_eq(r.blocks_per_sm, 8);
    cr_expect_eq(r.limit_regs, GPUOCC_UNLIMITED);
    NEAR(r.occupancy, 1.0);
    /* 128 GRF (and the default, 0): 8 per EU, 64 / 10 = 6 WGs; 60 / 80 = 75 % */
    r = runtime(&ptl, 160, 16, 0, 128, 0);
    cr_expect_eq(r.blocks_per_sm, 6);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
    NEAR(r.occupancy, 0.75);
    cr_expect_eq(runtime(&ptl, 160, 16, 0, 0, 0).blocks_per_sm, 6);
    /* 160: 6 per EU, 48 / 10 = 4; 192: 5, 40 / 10 = 4; 256: 4, 32 / 10 = 3; 97: 8, 6 */
    cr_expect_eq(runtime(&ptl, 160, 16, 0, 160, 0).blocks_per_sm, 4);
    cr_expect_eq(runtime(&ptl, 160, 16, 0, 192, 0).blocks_per_sm, 4);
    cr_expect_eq(runtime(&ptl, 160, 16, 0, 256, 0).blocks_per_sm, 3);
    cr_expect_eq(runtime(&ptl, 160, 16, 0, 97, 0).blocks_per_sm, 6);
    /* 1 thread per WG: 160 GRF gives 8 x 6 = 48, 161 (<= 192) 8 x 5 = 40 */
    cr_expect_eq(runtime(&ptl, 16, 16, 0, 160, 0).limit_regs, 48);
    cr_expect_eq(runtime(&ptl, 16, 16, 0, 161, 0).limit_regs, 40);
    /* 257 is more than the device has */
    cr_expect_eq(runtime(&ptl, 160, 16, 0, 257, 0).blocks_per_sm, 0);
    /* the GPU-wide alignment: 12 Xe-cores at 128 GRF: min(96 x 8 / 10 = 76, 6 x 12 = 72) = 72 */
    ptl.sm_count = 12;
    cr_expect_eq(runtime(&ptl, 160, 16, 0, 128, 0).workgroups_per_gpu, 72);
    /* the calculator has no Xe3 row: with Xe2's constants, 80 / 10 = 8 WGs at any GRF up to 128 */
    gpuocc_kernel k = intel_kernel(160, 16, 0, 128, 0);
    cr_expect_eq(test_occupancy(&ptl, &k).blocks_per_sm, 8);
}

/* ---- the other queries, by hand ---- */

Test(intel, queries)
{
    gpuocc_device dg2 = test_device("dg2");
    gpuocc_kernel k = intel_kernel(256, 16, 20 * KIB, 0, 0);
    /* 4 WGs at 20 KB (-> 32 KB); one more needs 128 / 5 = 25.6 KB, i.e. the 16 KB size: 16384, shed 4096 */
    int64_t value = 0, shed = 0;
    cr_expect_eq(gpuocc_next_step(&dg2, &k, GPUOCC_RESOURCE_SMEM, &value, &shed), GPUOCC_OK);
    cr_expect_eq(value, 16 * KIB);
    cr_expect_eq(shed, 4 * KIB);
    /* the most dynamic SLM for 4 WGs: 32 KB (128 / 4, an allowed size) */
    k.smem_static_bytes = 0;
    int64_t bytes = 0;
    cr_expect_eq(gpuocc_smem_dynamic_available(&dg2, &k, 4, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 32 * KIB);
    /* 5 WGs: 25.6 KB rounds down to the allowed 16 KB */
    cr_expect_eq(gpuocc_smem_dynamic_available(&dg2, &k, 5, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 16 * KIB);
    /* the GRF for 2 WGs of 512 / 16 = 32 threads on PVC: 128 (large GRF leaves 32 threads: 1) */
    gpuocc_device pvc = test_device("pvc");
    gpuocc_kernel w = intel_kernel(512, 16, 0, 0, 0);
    int32_t grf = 0;
    cr_expect_eq(gpuocc_regs_max_for_blocks(&pvc, &w, 2, &grf), GPUOCC_OK);
    cr_expect_eq(grf, 128);
    cr_expect_eq(gpuocc_regs_max_for_blocks(&pvc, &w, 1, &grf), GPUOCC_OK);
    cr_expect_eq(grf, 256);
    cr_expect_eq(gpuocc_regs_max_for_blocks(&pvc, &w, 3, &grf), GPUOCC_ERR_UNSATISFIABLE);
    /* best work-group on PVC with sub-group 16 and nothing else: 1024 (64 threads, 1 WG, all 64 threads
       resident; every multiple of 16 that divides the budget ties, the largest wins) */
    int32_t threads = 0, grid = 0;
    gpuocc_kernel b = intel_kernel(1, 16, 0, 0, 0);
    gpuocc_device max1550 = test_device("Max 1550");
    cr_expect_eq(gpuocc_best_block_affine(&max1550, &b, 0, 0, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 1024);
    cr_expect_eq(grid, 128);
    /* the calculator's WG cap is the hardware's: nothing lifts it */
    gpuocc_kernel tiny = intel_kernel(16, 16, 0, 0, 0);
    cr_expect_eq(gpuocc_next_step(&pvc, &tiny, GPUOCC_RESOURCE_BLOCKS, &value, &shed), GPUOCC_ERR_UNSATISFIABLE);
    /* the per-resource functions: 64 hardware threads / (256 / 16 = 16) = 4; large GRF: 32 / 16 = 2 */
    int32_t blocks = 0;
    cr_expect_eq(gpuocc_limit_warps(&pvc, 256, &blocks), GPUOCC_OK);
    cr_expect_eq(blocks, 4);
    cr_expect_eq(gpuocc_limit_registers(&pvc, 256, 256, &blocks), GPUOCC_OK);
    cr_expect_eq(blocks, 2);
    cr_expect_eq(gpuocc_limit_registers(&pvc, 256, 128, &blocks), GPUOCC_OK);
    cr_expect_eq(blocks, GPUOCC_UNLIMITED);
    cr_expect_eq(gpuocc_smem_per_block(&pvc, 0, 40 * KIB, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 48 * KIB);
}

/* The kernel's own largest work-group (CL_KERNEL_WORK_GROUP_SIZE, docs/sources.md I9): a larger one does not
   launch.  PVC, sub-group 16: 256 work-items = 16 threads, 64 / 16 = 4 work-groups under a maximum of 256 or
   none; under 128, 0 with threads exceeded at 128, in both models; the search stops at it: 128 work-items =
   8 threads, 64 / 8 = 8 work-groups, 64 threads resident, as many as 1024 gives, and the largest such. */
Test(intel, kernel_work_group_maximum)
{
    gpuocc_device pvc = test_device("pvc");
    for (int32_t model = 0; model < 2; model++) {
        gpuocc_kernel k = intel_kernel(256, 16, 0, 0, 0);
        k.model = model ? GPUOCC_MODEL_INTEL_RUNTIME : GPUOCC_MODEL_DEFAULT;
        k.max_threads_per_block = 256;
        gpuocc_result r = test_occupancy(&pvc, &k);
        cr_expect_eq(r.blocks_per_sm, 4, "model %d", model);
        cr_expect_eq(r.exceeded, GPUOCC_INPUT_NONE);
        k.max_threads_per_block = 128;
        r = test_occupancy(&pvc, &k);
        cr_expect_eq(r.blocks_per_sm, 0, "model %d", model);
        cr_expect_eq(r.limit_warps, 0);
        cr_expect_eq(r.exceeded, GPUOCC_INPUT_THREADS);
        cr_expect_eq(r.exceeded_limit, 128);
    }
    gpuocc_kernel b = intel_kernel(1, 16, 0, 0, 0);
    b.max_threads_per_block = 128;
    int32_t threads = 0, grid = 0;
    cr_expect_eq(gpuocc_best_block_affine(&pvc, &b, 0, 0, &threads, &grid), GPUOCC_OK);
    cr_expect_eq(threads, 128);
}

Test(intel, batch_matches_single)
{
    /* PVC: WG 1024, 512, 128 with sub-group 16: 64, 32, 8 threads; 1, 2, 8 WGs */
    gpuocc_device pvc = test_device("pvc");
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&pvc, &p), GPUOCC_OK);
    gpuocc_kernel base = intel_kernel(1, 16, 0, 0, 0);
    int32_t threads[3] = {1024, 512, 128}, status[3], blocks[3];
    gpuocc_batch b = {.size = sizeof b, .smem_width = 4, .threads_per_block = threads, .status = status,
                      .blocks_per_sm = blocks};
    cr_assert_eq(gpuocc_occupancy_batch(&p, &base, &b, 3), GPUOCC_OK);
    cr_expect_eq(blocks[0], 1);
    cr_expect_eq(blocks[1], 2);
    cr_expect_eq(blocks[2], 8);
}

/* ---- checks and layouts ---- */

Test(intel, refusals)
{
    gpuocc_device pvc = test_device("pvc");
    gpuocc_result r = {.size = sizeof r};
    gpuocc_kernel k = intel_kernel(256, 8, 0, 0, 0); /* PVC has no sub-group 8 */
    cr_expect_eq(gpuocc_occupancy(&pvc, &k, &r), GPUOCC_ERR_ARGUMENT);
    k = intel_kernel(256, 16, 0, 0, 0);
    k.model = GPUOCC_MODEL_RUNTIME; /* AMD's HIP model */
    cr_expect_eq(gpuocc_occupancy(&pvc, &k, &r), GPUOCC_ERR_ARGUMENT);
    k.model = GPUOCC_MODEL_COMPILER;
    cr_expect_eq(gpuocc_occupancy(&pvc, &k, &r), GPUOCC_ERR_ARGUMENT);
    k.model = 5;
    cr_expect_eq(gpuocc_occupancy(&pvc, &k, &r), GPUOCC_ERR_ARGUMENT);
    k = intel_kernel(256, 12, 0, 0, 0); /* not a sub-group size at all */
    cr_expect_eq(gpuocc_occupancy(&pvc, &k, &r), GPUOCC_ERR_ARGUMENT);
    /* Intel's models on AMD */
    gpuocc_device mi = test_device("MI300X");
    k = test_kernel(256, 32, 0, 0);
    k.model = GPUOCC_MODEL_CALCULATOR;
    cr_expect_eq(gpuocc_occupancy(&mi, &k, &r), GPUOCC_ERR_ARGUMENT);
    /* an Intel field set on an NVIDIA or AMD device makes it invalid */
    gpuocc_device h100 = test_device("H100");
    h100.xves_per_xecore = 8;
    cr_expect_eq(gpuocc_device_validate(&h100), GPUOCC_ERR_DEVICE);
    mi.grf_max = 256;
    cr_expect_eq(gpuocc_device_validate(&mi), GPUOCC_ERR_DEVICE);
    /* an Intel device with an NVIDIA field */
    pvc.regs_per_sm = 65536;
    cr_expect_eq(gpuocc_device_validate(&pvc), GPUOCC_ERR_DEVICE);
    pvc = test_device("pvc");
    pvc.max_threads_per_sm = 65; /* must be 8 x 8 */
    cr_expect_eq(gpuocc_device_validate(&pvc), GPUOCC_ERR_DEVICE);
}

Test(intel, older_layouts)
{
    /* the 0.1.0 layouts, before Intel's tail: device 232, kernel 88, result 104 bytes, zero-extended */
    gpuocc_device h100 = test_device("H100");
    h100.size = 232;
    gpuocc_kernel k = test_kernel(256, 32, 0, 0);
    k.size = 88;
    gpuocc_result r;
    memset(&r, 0xa5, sizeof r);
    r.size = 104;
    cr_expect_eq(gpuocc_occupancy(&h100, &k, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, 8); /* 2048 / 256 */
    cr_expect_eq(r.size, 104);
    unsigned char tail[8];
    memset(tail, 0xa5, sizeof tail);
    cr_expect(memcmp((unsigned char *)&r + 104, tail, sizeof tail) == 0, "nothing past the caller's size");
    /* an old-size device takes NVIDIA and AMD entries, not Intel's (its fields would be lost) */
    gpuocc_device old = {.size = 232};
    cr_expect_eq(gpuocc_device_lookup("MI300X", &old), GPUOCC_OK);
    cr_expect_eq(gpuocc_device_lookup("pvc", &old), GPUOCC_ERR_STRUCT_SIZE);
    /* the struct is prepared from an old-size NVIDIA device too */
    gpuocc_prepared p = {.size = sizeof p};
    cr_expect_eq(gpuocc_prepare(&h100, &p), GPUOCC_OK);
    gpuocc_device small = test_device("H100");
    small.size = 231;
    cr_expect_eq(gpuocc_device_validate(&small), GPUOCC_ERR_STRUCT_SIZE);
}
