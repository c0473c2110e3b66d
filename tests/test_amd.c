/*
 * AMD occupancy: fixed vectors derived by hand from the published rules (docs/amd.md), and the
 * expectations of LLVM's own test llvm/test/CodeGen/AMDGPU/occupancy-levels.ll.  The thousands-of-kernels
 * comparison with LLVM 19 itself is the `amd` suite (tests/amd/corpus.py).
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

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

/* `lds_granule` (bytes, 0 = the catalog's): a device whose LDS allocation granule differs from the catalog's. */
static int32_t device_waves(const char *target, int32_t lds_granule, int32_t wave, int32_t cu_mode, int32_t model,
                            gpuocc_kernel k)
{
    gpuocc_device d = test_device(target);
    if (lds_granule)
        d.smem_alloc_unit_bytes = lds_granule;
    k.wave_size = wave;
    k.cu_mode = cu_mode;
    k.model = model;
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.model, model);
    return r.waves_per_simd;
}

static int32_t model_waves(const char *target, int32_t wave, int32_t cu_mode, int32_t model, gpuocc_kernel k)
{
    return device_waves(target, 0, wave, cu_mode, model, k);
}

/* LLVM 19's occupancy (GPUOCC_MODEL_LLVM19, what llc-19 prints) and today's LLVM's (the compiler model). */
static int32_t llvm_waves(const char *target, int32_t wave, int32_t cu_mode, gpuocc_kernel k)
{
    return model_waves(target, wave, cu_mode, GPUOCC_MODEL_LLVM19, k);
}

static int32_t today_waves(const char *target, int32_t wave, int32_t cu_mode, gpuocc_kernel k)
{
    return model_waves(target, wave, cu_mode, GPUOCC_MODEL_COMPILER, k);
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

/* One row of tests/data/llvm/ against the model it names: the kernel as the row describes it, launched at
   its flat maximum; false (and the row printed) when the occupancy differs. */
static bool llvm_row_matches(const char *line, const char *model_name, int32_t model)
{
    char target[32], name[96];
    int wave, cu_mode, trap, lo, hi, wmin, wmax, lds, vgprs, agprs, sgprs, expected;
    if (sscanf(line, "%*s %31s %d %d %d %d %d %d %d %d %d %d %d %d %95s", target, &wave, &cu_mode, &trap, &lo, &hi,
               &wmin, &wmax, &lds, &vgprs, &agprs, &sgprs, &expected, name) != 14) {
        cr_log_error("unreadable row: %s", line);
        return false;
    }
    gpuocc_kernel k = amd_kernel(hi, vgprs, agprs, sgprs, lds, hi);
    k.flat_workgroup_size_min = lo;
    k.trap_handler = trap;
    k.waves_per_eu_min = wmin;
    k.waves_per_eu_max = wmax;
    int32_t got = model_waves(target, wave, cu_mode, model, k);
    if (got != expected)
        cr_log_error("%s %s wave%d trap %d %s: LLVM's test %d, gpuocc %d", model_name, target, wave, trap, name,
                     expected, got);
    return got == expected;
}

/* Every row of a file of LLVM's tests (tests/data/llvm/): `compiler` rows against today's rules, `llvm19`
   against LLVM 19's, `both` against both.  Returns the rows compared. */
static int llvm_test_file(const char *file)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/llvm/%s", DATA_DIR, file);
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s", path);
    int rows = 0, failed = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        bool today = !strncmp(line, "compiler ", 9) || !strncmp(line, "both ", 5);
        bool old = !strncmp(line, "llvm19 ", 7) || !strncmp(line, "both ", 5);
        cr_expect(today || old, "unknown model: %s", line);
        if (today)
            rows++, failed += !llvm_row_matches(line, "compiler", GPUOCC_MODEL_COMPILER);
        if (old)
            rows++, failed += !llvm_row_matches(line, "llvm19", GPUOCC_MODEL_LLVM19);
    }
    fclose(f);
    cr_expect_eq(failed, 0, "%s: %d of %d rows differ", file, failed, rows);
    return rows;
}

/* LLVM's own tests, every row: occupancy-levels.ll (non-trap and trap-handler RUN lines, waves per EU, LDS and
   the flat workgroup range), agpr-register-count.ll and resource-optimization-remarks.ll. */
Test(amd, llvm_test_rows)
{
    cr_expect_eq(llvm_test_file("occupancy_levels.txt"), 892);
    cr_expect_eq(llvm_test_file("related.txt"), 23);
}

/* LLVM 19's occupancy-levels.ll (what llc-19 prints): flat workgroup size 1..32 unless said, one CHECK per
   case. */
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

/* Today's LLVM by hand from the rules in docs/amd.md ("Compiler (today's LLVM)"). */
Test(amd, today_rules_by_hand)
{
    /* SGPRs (gfx9): 800 / (round_up(S, 16) + 16 with the trap handler): 80 -> 96 -> 8, without it 80 -> 10;
       81 without the trap handler rounds to 96 -> 8 where LLVM 19's table said 9 */
    gpuocc_kernel k = amd_kernel(64, 1, 0, 80, 0, 64);
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 8);
    k.trap_handler = -1;
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 10);
    k.sgprs = 81;
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 8);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 9);
    k.trap_handler = 1; /* on, as the default: 81 -> 96 + 16 = 112 -> 7 */
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 7);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 9); /* LLVM 19 ignores it */
    /* LDS rounded to 512 bytes: 6500 -> 6656: 65536 / 6656 = 9 workgroups of 3 waves (192 threads, the flat
       range 192..192) = 27 waves -> 7 per SIMD; LLVM 19 divides by 6500: 10 x 3 = 30 -> 8 */
    k = amd_kernel(192, 1, 0, 0, 6500, 192);
    k.flat_workgroup_size_min = 192;
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 7);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 8);
    /* today's LLVM charges LDS in 512 bytes on gfx10.3 and later as on gfx10.1 (its granule for 64 KiB of
       LDS): occupancy-levels.ll's 8252 bytes take 8704, 131072 / 8704 = 15 workgroups per WGP; 1..128 in
       wave32 (4 waves each): 60 waves -> 15 per SIMD; 1..96 in wave64 (2 waves): 30 -> 8 */
    k = amd_kernel(128, 1, 0, 0, 8252, 128);
    k.trap_handler = -1;
    cr_expect_eq(today_waves("gfx1030", 32, 0, k), 15);
    cr_expect_eq(today_waves("gfx1100", 32, 0, k), 15);
    cr_expect_eq(today_waves("gfx1010", 32, 0, k), 15);
    /* a device with the hardware's 1024-byte granule (Mesa): 9216 bytes, 131072 / 9216 = 14 x 4 = 56 -> 14 */
    cr_expect_eq(device_waves("gfx1030", 1024, 32, 0, GPUOCC_MODEL_COMPILER, k), 14);
    k = amd_kernel(96, 1, 0, 0, 8252, 96);
    cr_expect_eq(today_waves("gfx1030", 64, 0, k), 8);
    cr_expect_eq(device_waves("gfx1030", 1024, 64, 0, GPUOCC_MODEL_COMPILER, k), 7);
    /* the flat range 1..1024 without LDS: 1-wave workgroups fill the 40 slots (10 per SIMD); LLVM 19 counted
       only 1024-thread ones, 2 x 16 waves = 32 -> 8 */
    k = amd_kernel(1024, 1, 0, 0, 0, 1024);
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 10);
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 8);
    /* ... but the launch of 1024 threads holds 2 workgroups: 32 of 40 waves */
    gpuocc_device d = test_device("gfx900");
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.blocks_per_sm, 2);
    cr_expect_eq(r.waves_per_simd, 10);
    /* without a flat maximum the launch is the range: 1024..1024 */
    k.max_threads_per_block = 0;
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 8);
}

/* gfx6 to gfx8 against what clang-19 / llc-19 print (kernel-resource-usage remarks, triple amdgcn-amd-amdhsa;
   SGPRs as LLVM reports them, its VCC, XNACK and init-bug SGPRs included), and today's rules by hand. */
Test(amd, gfx6_to_gfx8)
{
    /* SGPRs on gfx6-7 (LLVM 19's Southern/Sea Islands table): 40 -> 10, 60 -> 8, 90 -> 5, 94 -> 5; gfx8 (the
       Volcanic Islands table): 64 -> 10, 94 -> 8; gfx802 reports 96 for every kernel -> 8 */
    gpuocc_kernel k = amd_kernel(256, 3, 0, 40, 0, 256);
    cr_expect_eq(llvm_waves("gfx600", 0, 0, k), 10);
    k.sgprs = 60;
    cr_expect_eq(llvm_waves("gfx600", 0, 0, k), 8);
    cr_expect_eq(llvm_waves("gfx700", 0, 0, k), 8);
    k.sgprs = 90;
    cr_expect_eq(llvm_waves("gfx600", 0, 0, k), 5);
    k.sgprs = 94;
    cr_expect_eq(llvm_waves("gfx601", 0, 0, k), 5);
    cr_expect_eq(llvm_waves("gfx810", 0, 0, k), 8);
    k.sgprs = 64;
    cr_expect_eq(llvm_waves("gfx801", 0, 0, k), 10);
    k.sgprs = 96;
    cr_expect_eq(llvm_waves("gfx802", 0, 0, k), 8);
    /* today (the inverse of the budget): gfx6-7 512 / (round_up(S, 8) + 16 with the trap handler): 60 -> 64:
       8 without, 512 / 80 = 6 with; 90 -> 96: 5, 4; gfx8 800 / (round_up(S, 16) + 16): 96 -> 8, 7 */
    k.sgprs = 60;
    k.trap_handler = -1;
    cr_expect_eq(today_waves("gfx600", 0, 0, k), 8);
    k.trap_handler = 1;
    cr_expect_eq(today_waves("gfx600", 0, 0, k), 6);
    k.sgprs = 90;
    cr_expect_eq(today_waves("gfx700", 0, 0, k), 4);
    k.trap_handler = -1;
    cr_expect_eq(today_waves("gfx700", 0, 0, k), 5);
    k.sgprs = 96;
    cr_expect_eq(today_waves("gfx802", 0, 0, k), 8);
    k.trap_handler = 0; /* the target's default: on */
    cr_expect_eq(today_waves("gfx802", 0, 0, k), 7);
    /* LDS: gfx6's CU is counted as 32 KiB (what a workgroup may address): 12000 bytes, 1..256 -> 2 workgroups
       of 4 waves -> 2 per SIMD; 28000 bytes, 1..1024 -> 1 x 16 waves -> 4.  gfx7 (64 KiB): 5 and 8 */
    k = amd_kernel(256, 5, 0, 8, 12000, 256);
    cr_expect_eq(llvm_waves("gfx600", 0, 0, k), 2);
    cr_expect_eq(llvm_waves("gfx700", 0, 0, k), 5);
    k = amd_kernel(1024, 6, 0, 8, 28000, 1024);
    cr_expect_eq(llvm_waves("gfx600", 0, 0, k), 4);
    cr_expect_eq(llvm_waves("gfx700", 0, 0, k), 8);
    /* a workgroup may use at most 32 KiB on gfx6: 32769 bytes fit none */
    gpuocc_device d = test_device("gfx600");
    cr_expect_eq(d.smem_per_block_bytes, 32768);
    cr_expect_eq(d.smem_per_sm_bytes, 32768);
    cr_expect_eq(d.sgprs_per_simd, 512);
    k = amd_kernel(64, 1, 0, 0, 32769, 64);
    cr_expect_eq(test_occupancy(&d, &k).blocks_per_sm, 0);
    /* amdgpu-waves-per-eu "1,4", flat 1..256: llc-19 gives a wave 49 VGPRs and 97 SGPRs on gfx600 (81 with the
       trap handler), 102 on gfx803; occupancy 4 in every case */
    k = amd_kernel(256, 1, 0, 0, 0, 256);
    k.waves_per_eu_min = 1;
    k.waves_per_eu_max = 4;
    cr_expect_eq(llvm_waves("gfx600", 0, 0, k), 4);
    cr_expect_eq(llvm_waves("gfx803", 0, 0, k), 4);
    k.trap_handler = -1;
    cr_expect_eq(today_waves("gfx600", 0, 0, k), 4); /* 512 / round_up(97, 8) = 4 */
    cr_expect_eq(today_waves("gfx803", 0, 0, k), 4);
    /* LLVM's processor names, as llc-19 -mcpu=NAME writes amdhsa.target: fiji and polaris11 gfx803, hawaii gfx701,
       tahiti gfx600, stoney gfx810 */
    static const struct { const char *name; int32_t major, minor; } names[] = {
        {"fiji", 8, 0x03}, {"Polaris11", 8, 0x03}, {"hawaii", 7, 0x01}, {"AMD Tahiti", 6, 0x00}, {"stoney", 8, 0x10},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        gpuocc_device n = {.size = sizeof n};
        cr_expect_eq(gpuocc_device_lookup(names[i].name, &n), GPUOCC_OK, "%s", names[i].name);
        cr_expect(n.cc_major == names[i].major && n.cc_minor == names[i].minor, "%s", names[i].name);
    }
}

/* amdgpu-waves-per-eu, against what llc-19 prints for the same attributes on gfx900 (NumVGPRsForWavesPerEU,
   NumSGPRsForWavesPerEU, Occupancy; -mattr=-xnack, triple amdgcn and amdgcn-amd-amdhsa). */
Test(amd, waves_per_eu)
{
    gpuocc_device d = test_device("gfx900");
    /* flat 1..256, "1,3": LLVM gives a wave 65 VGPRs (68 allocated) and reports 3 */
    gpuocc_kernel k = amd_kernel(256, 1, 0, 0, 0, 256);
    k.waves_per_eu_min = 1;
    k.waves_per_eu_max = 3;
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 3);
    cr_expect_eq(today_waves("gfx900", 0, 0, k), 3);
    k.model = GPUOCC_MODEL_LLVM19;
    gpuocc_result r = test_occupancy(&d, &k);
    cr_expect_eq(r.regs_per_block, 68 * 64 * 4);
    cr_expect_eq(r.limit_regs, 3); /* 256 / 68 = 3 waves x 4 SIMDs / 4 waves */
    /* "2,3" with the default flat range 1..1024 is refused: one 1024-thread workgroup needs 4 waves per SIMD */
    k = amd_kernel(1024, 1, 0, 0, 0, 1024);
    k.waves_per_eu_min = 2;
    k.waves_per_eu_max = 3;
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 8);
    /* flat 1..32, "9,9": 25 VGPRs (28 allocated: 256 / 28 = 9); SGPRs 81, or 65 with the trap handler */
    k = amd_kernel(32, 1, 0, 0, 0, 32);
    k.waves_per_eu_min = 9;
    k.waves_per_eu_max = 9;
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 9);
    k.model = GPUOCC_MODEL_LLVM19;
    cr_expect_eq(test_occupancy(&d, &k).regs_per_block, 28 * 64);
    /* "5,4" (minimum above maximum): llc ignores the IR attribute, but clang rejects
       amdgpu_waves_per_eu(5, 4), and every interface refuses it: GPUOCC_ERR_ARGUMENT, its limit the maximum */
    k.waves_per_eu_min = 5;
    k.waves_per_eu_max = 4;
    gpuocc_result refused = {.size = sizeof refused};
    cr_expect_eq(gpuocc_occupancy(&d, &k, &refused), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(refused.exceeded, GPUOCC_INPUT_WAVES_PER_EU);
    cr_expect_eq(refused.exceeded_limit, 4);
    /* "2,11" (above the 10 slots) is ignored, as LLVM ignores it: 10 */
    k.waves_per_eu_min = 2;
    k.waves_per_eu_max = 11;
    cr_expect_eq(llvm_waves("gfx900", 0, 0, k), 10);
}

/* The register input over its limit of a workgroup that gets no registers: the most per lane with which one
   workgroup fits, not what a lane can address.  By hand: MI300X (gfx942, wave64, 4 SIMDs a CU, 512 unified
   VGPRs a lane): 1024 threads are 16 waves, 4 per SIMD, so 512 / 4 = 128 registers a wave, AGPRs after the
   arch VGPRs (100, already a multiple of 4: 28 AGPRs); gfx1100 (wave32, WGP mode: 4 SIMDs, 1536 VGPRs a lane
   on gfx1100/gfx1101, granule 24): 1024 threads are 32 waves, 8 per SIMD, 1536 / 8 = 192 = 8 granules. */
Test(amd, register_input_over_its_limit)
{
    const struct {
        const char *target;
        int32_t vgprs, agprs, input;
        int64_t limit;
    } cases[] = {
        {"MI300X", 200, 0, GPUOCC_INPUT_REGS, 128},
        {"MI300X", 100, 120, GPUOCC_INPUT_AGPRS, 28},
        {"gfx1100", 200, 0, GPUOCC_INPUT_REGS, 192},
        {"MI300X", 300, 0, GPUOCC_INPUT_REGS, 128}, /* past what a lane addresses (256) too */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpuocc_device d = test_device(cases[i].target);
        gpuocc_kernel k = amd_kernel(1024, cases[i].vgprs, cases[i].agprs, 0, 0, 0);
        gpuocc_result r = test_occupancy(&d, &k);
        cr_expect_eq(r.blocks_per_sm, 0, "%s", cases[i].target);
        cr_expect_eq(r.exceeded, cases[i].input, "%s %d", cases[i].target, cases[i].vgprs);
        cr_expect_eq(r.exceeded_limit, cases[i].limit, "%s %d: %lld", cases[i].target, cases[i].vgprs,
                     (long long)r.exceeded_limit);
        /* the limit is the rule's: one workgroup at it, none above it */
        if (cases[i].input == GPUOCC_INPUT_REGS)
            k.regs_per_thread = (int32_t)cases[i].limit;
        else
            k.agprs = (int32_t)cases[i].limit;
        cr_expect_eq(test_occupancy(&d, &k).blocks_per_sm, 1, "%s at the limit", cases[i].target);
        if (cases[i].input == GPUOCC_INPUT_REGS)
            k.regs_per_thread++;
        else
            k.agprs++;
        cr_expect_eq(test_occupancy(&d, &k).limit_regs, 0, "%s past the limit", cases[i].target);
    }
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
    /* 84 VGPRs: 256/84 = 3; SGPRs 100 -> 800/112 = 7 (ROCm 6.4), with the trap handler's 16 (the newest
       rules, rocm-systems#10618) 800/128 = 6; 3 x 4 = 12 one-wave blocks */
    gpuocc_result r = hip("gfx906", 604, amd_kernel(64, 84, 0, 100, 0, 0));
    cr_expect_eq(r.blocks_per_sm, 12);
    cr_expect_eq(r.limit_sgprs, 28);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
    cr_expect_eq(hip("gfx906", 0, amd_kernel(64, 84, 0, 100, 0, 0)).limit_sgprs, 24);
    gpuocc_kernel no_trap = amd_kernel(64, 84, 0, 100, 0, 0);
    no_trap.trap_handler = -1;
    cr_expect_eq(hip("gfx906", 0, no_trap).limit_sgprs, 28);
    /* 81..95 SGPRs: HIP's 800 / 96 = 8 before the reserve, LLVM 19's table 9, today's LLVM with the trap
       handler 800 / 112 = 7 */
    r = hip("gfx906", 604, amd_kernel(64, 1, 0, 88, 0, 0));
    cr_expect_eq(r.limit_sgprs, 32);
    cr_expect_eq(r.waves_per_simd, 7);
    /* The ROCm measurement behind rocm-systems#10618: gfx942, 92 SGPRs, one-wave workgroups: the hardware
       held 28 per CU where the old rule said 32 (800 / 96 = 8 x 4 SIMDs; now 800 / 112 = 7 x 4) */
    gpuocc_kernel coop = amd_kernel(64, 16, 0, 92, 0, 0);
    cr_expect_eq(hip("gfx942", 0, coop).blocks_per_sm, 28);
    cr_expect_eq(hip("gfx942", 0, coop).limiters, GPUOCC_LIMIT_SGPRS);
    cr_expect_eq(hip("gfx942", 604, coop).blocks_per_sm, 32);
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

/*
 * HIP and a workgroup with more LDS than one workgroup may use, on gfx1100 (RX 7900 XTX) in WGP mode, where the
 * newest rules divide the WGP's 128 KiB (docs/amd.md, "Runtime (HIP)").  HIP's rule, as the ROCm source reads
 * (hipamd/src/hip_platform.cpp, ihipOccupancyMaxActiveBlocksPerMultiprocessor, clr f9f995c6d0ae and
 * rocm-systems projects/clr 0136004713e4): lds_occupancy_wgs = localMemSize_ / (usedLDSSize_ + dynamicSMemSize)
 * with localMemSize_ the HSA group segment, 65536 bytes: the most one workgroup may use (localMemSizePerCU_,
 * sharedMemPerBlock, the same 65536 on ROCm; HIP refuses to launch more).  Above it the quotient is 0:
 * maxBlocksPerCU = 0 with hipSuccess.  So, by hand, 256 threads (8 wave32 waves), 32 VGPRs (comgr's 1536 /
 * round_up(32, 24) = 32 -> 16 waves per SIMD x 4 SIMDs = 64 waves / 8 = 8 blocks), newest rules:
 *   - 65536 B dynamic: at the limit, 131072 / 65536 = 2 workgroups per WGP;
 *   - 65537 B, or 98304 B (three 32 KiB stages): over it, 0 (gpuocc said 131072 / 65537 = 1 before), the
 *     dynamic LDS exceeded with 65536 - 0 static = 65536 its limit; 16384 static + 65536 dynamic: 0, limit
 *     65536 - 16384 = 49152;
 *   - the inverse queries from the same rule: the most dynamic LDS for 1 workgroup is 65536, for 2 also 65536
 *     (131072 / 2), for 3 43690 (131072 / 3); the most 32 KiB stages for 1 workgroup 2, and the third stage
 *     (98304 B) fits none, by the forward rule too.
 * ROCm 6.4's rules (one workgroup's 64 KiB as the budget) answer the same 0 above the limit.
 */
Test(amd, hip_runtime_lds_over_workgroup_limit)
{
    gpuocc_device xtx = test_device("RX 7900 XTX");
    gpuocc_kernel k = amd_kernel(256, 32, 0, 0, 0, 0);
    k.smem_dynamic_bytes = 65536;
    cr_expect_eq(hip("gfx1100", 0, k).blocks_per_sm, 2);
    const int64_t over[] = {65537, 98304, 131072};
    for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
        k.smem_dynamic_bytes = over[i];
        for (int32_t rocm = 0; rocm <= 604; rocm += 604) {
            gpuocc_result r = hip("gfx1100", rocm, k);
            cr_expect_eq(r.blocks_per_sm, 0, "%lld B, ROCm %d", (long long)over[i], rocm);
            cr_expect_eq(r.limit_smem, 0, "%lld B, ROCm %d", (long long)over[i], rocm);
            cr_expect_eq(r.exceeded, GPUOCC_INPUT_SMEM_DYNAMIC, "%lld B, ROCm %d", (long long)over[i], rocm);
            cr_expect_eq(r.exceeded_limit, 65536, "%lld B, ROCm %d", (long long)over[i], rocm);
        }
    }
    k.smem_static_bytes = 16384;
    k.smem_dynamic_bytes = 65536;
    gpuocc_result r = hip("gfx1100", 0, k);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.exceeded, GPUOCC_INPUT_SMEM_DYNAMIC);
    cr_expect_eq(r.exceeded_limit, 49152);

    /* the inverse queries and the forward rule, on the same kernel */
    k = amd_kernel(256, 32, 0, 0, 0, 0);
    k.model = GPUOCC_MODEL_RUNTIME;
    int64_t bytes = -7, stages = -7;
    int32_t blocks = -7;
    cr_expect_eq(gpuocc_smem_dynamic_available(&xtx, &k, 1, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 65536);
    cr_expect_eq(gpuocc_smem_dynamic_available(&xtx, &k, 2, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 65536);
    cr_expect_eq(gpuocc_smem_dynamic_available(&xtx, &k, 3, &bytes), GPUOCC_OK);
    cr_expect_eq(bytes, 43690);
    cr_expect_eq(gpuocc_max_stages(&xtx, &k, 1, 0, 32768, &stages), GPUOCC_OK);
    cr_expect_eq(stages, 2);
    k.smem_dynamic_bytes = 65536 + 1;
    cr_expect_eq(gpuocc_limit_shared_memory(&xtx, &k, &blocks), GPUOCC_OK);
    cr_expect_eq(blocks, 0);
    k.smem_dynamic_bytes = 3 * 32768;
    cr_expect_eq(test_occupancy(&xtx, &k).blocks_per_sm, 0);
    /* one workgroup more from 98304 B: down to the limit, 65536 B (2 per WGP) */
    int64_t shed = -7;
    cr_expect_eq(gpuocc_next_step(&xtx, &k, GPUOCC_RESOURCE_SMEM, &bytes, &shed), GPUOCC_OK);
    cr_expect_eq(bytes, 65536);
    cr_expect_eq(shed, 32768);
}

Test(amd, invalid)
{
    gpuocc_device d = test_device("gfx906");
    gpuocc_result r = {.size = sizeof r};
    gpuocc_kernel k = amd_kernel(64, 32, 0, 0, 0, 0);
    k.wave_size = 32; /* gfx9 runs wave64 only */
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    k = amd_kernel(64, 32, 4, 0, 0, 0); /* no AGPRs on gfx906: a field the target does not have */
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
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
    /* a workgroup's LDS past 2^60 bytes: every query refuses it as the single call does (GPUOCC_ERR_OVERFLOW),
       the per-resource ones too, also where the waves-per-EU bound reads the static LDS (that rounding
       overflowed) */
    gpuocc_device mi300 = test_device("MI300X");
    k = amd_kernel(256, 32, 0, 0, INT64_MAX, 0);
    k.waves_per_eu_max = 4;
    cr_expect_eq(gpuocc_occupancy(&mi300, &k, &r), GPUOCC_ERR_OVERFLOW);
    int32_t blocks = -1;
    int64_t bytes = -1;
    cr_expect_eq(gpuocc_limit_shared_memory(&mi300, &k, &blocks), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_smem_carveout(&mi300, &k, &bytes), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(blocks, -1);
    cr_expect_eq(bytes, -1);
    /* an NVIDIA device with AMD fields set is refused */
    bad = test_device("A100");
    bad.simds_per_cu = 4;
    cr_expect_eq(gpuocc_occupancy(&bad, &k, &r), GPUOCC_ERR_DEVICE);
    /* names: targets with features, products with brands */
    cr_expect_eq(test_device("gfx90a:sramecc+:xnack-").cc_minor, 0x0a);
    cr_expect_eq(test_device("AMD Instinct MI250X").sm_count, 110);
    cr_expect_eq(test_device("Radeon RX 9070 XT").sm_count, 32);
    gpuocc_device none = {.size = sizeof none};
    cr_expect_eq(gpuocc_device_lookup("gfx999", &none), GPUOCC_ERR_UNKNOWN_DEVICE);
}
