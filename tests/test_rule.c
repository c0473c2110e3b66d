/*
 * One rule per vendor: every query answers as gpuocc_occupancy does for the same launch.  A seeded random
 * differential over every catalog device and every kernel field (other vendors' fields, virtual resources,
 * tensor memory and barriers over their limits included): the prepared call, a batch of one, a batch whose
 * columns carry the launch's own values, a sweep point, the per-resource functions; and the cases that
 * showed the paths disagreeing, each by hand.
 */
#include "common.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

static uint64_t seed = 0x9e3779b97f4a7c15u;
static int64_t draw(int64_t n) /* 0 .. n - 1 */
{
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((seed >> 33) % (uint64_t)n);
}

/* A launch with every field drawn, mostly in range, sometimes over a limit or another vendor's. */
static void random_kernel(gpuocc_kernel *k)
{
    gpuocc_kernel_init(k);
    k->threads_per_block = (int32_t)(draw(8) == 0 ? draw(3000) : 32 * (1 + draw(32))) + (int32_t)draw(2);
    k->regs_per_thread = (int32_t)draw(300);
    k->smem_static_bytes = draw(4) == 0 ? draw(70000) : draw(16) * 1024;
    k->smem_dynamic_bytes = draw(3) == 0 ? draw(300000) : draw(64) * 1024;
    k->barriers = (int32_t)draw(20);
    k->carveout_percent = (int32_t)draw(102) - 1;
    k->smem_optin = (int32_t)draw(2);
    k->smem_dynamic_max_bytes = draw(4) == 0 ? draw(200000) : -1;
    k->virtual_resources = draw(3) == 0 ? (int32_t)draw(140) : 0;
    k->tmem_columns = draw(6) == 0 ? 32 << draw(5) : 0;
    k->max_threads_per_block = draw(6) == 0 ? (int32_t)draw(1100) : 0;
    switch (draw(12)) { /* now and then a field of one vendor or another */
    case 0: k->agprs = (int32_t)draw(64); break;
    case 1: k->sgprs = (int32_t)draw(110); break;
    case 2: k->wave_size = draw(2) ? 32 : 64; break;
    case 3: k->sub_group = 8 << draw(3); break;
    case 4: k->grf = draw(2) ? 128 : 256; break;
    case 5: k->dvgpr = draw(2) ? 16 : 32; break;
    default: break;
    }
}

/* The fields of two results every path fills, compared byte by byte (size and reserved words aside). */
static void expect_same(const gpuocc_result *a, const gpuocc_result *b, const char *what, const char *dev, int n)
{
    cr_assert(a->blocks_per_sm == b->blocks_per_sm && a->warps_per_sm == b->warps_per_sm &&
                  a->limiters == b->limiters && a->occupancy == b->occupancy && a->limit_warps == b->limit_warps &&
                  a->limit_regs == b->limit_regs && a->limit_smem == b->limit_smem &&
                  a->limit_blocks == b->limit_blocks && a->limit_barriers == b->limit_barriers &&
                  a->regs_per_block == b->regs_per_block && a->smem_per_block_bytes == b->smem_per_block_bytes &&
                  a->smem_per_sm_bytes == b->smem_per_sm_bytes && a->waves_per_simd == b->waves_per_simd &&
                  a->limit_sgprs == b->limit_sgprs && a->limit_virtual_resources == b->limit_virtual_resources &&
                  a->exceeded == b->exceeded && a->exceeded_limit == b->exceeded_limit,
              "%s on %s, launch %d: %d blocks, single call %d", what, dev, n, a->blocks_per_sm, b->blocks_per_sm);
}

Test(rule, every_path_answers_as_the_single_call)
{
    enum { LAUNCHES = 120 };
    for (int32_t i = 0; i < gpuocc_catalog_count(); i++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(i, &d), GPUOCC_OK);
        const char *name = gpuocc_catalog_name(i);
        gpuocc_prepared p = {.size = sizeof p};
        cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
        for (int n = 0; n < LAUNCHES; n++) {
            gpuocc_kernel k;
            random_kernel(&k);
            gpuocc_result want = {.size = sizeof want};
            int32_t rc = gpuocc_occupancy(&d, &k, &want);

            gpuocc_result got = {.size = sizeof got};
            cr_assert_eq(gpuocc_occupancy_prepared(&p, &k, &got), rc, "prepared on %s, launch %d", name, n);
            if (rc == GPUOCC_OK)
                expect_same(&got, &want, "prepared", name, n);
            else
                cr_assert(got.exceeded == want.exceeded && got.exceeded_limit == want.exceeded_limit);

            /* a batch of one, the launch as its base; and one whose columns carry the launch's own values
               over a base that has none of them */
            int32_t status[2], blocks[2], warps[2], lv[2], exceeded[2], limit_barriers[2];
            int64_t exceeded_limit[2];
            gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = status, .blocks_per_sm = blocks,
                              .warps_per_sm = warps, .limit_barriers = limit_barriers,
                              .limit_virtual_resources = lv, .exceeded = exceeded, .exceeded_limit = exceeded_limit};
            cr_assert_eq(gpuocc_occupancy_batch(&p, &k, &b, 1), GPUOCC_OK);
            gpuocc_kernel base = k;
            base.threads_per_block = 1, base.regs_per_thread = 0, base.smem_static_bytes = 0;
            base.smem_dynamic_bytes = 0, base.barriers = 0, base.virtual_resources = 0, base.tmem_columns = 0;
            int32_t threads = k.threads_per_block, regs = k.regs_per_thread, bars = k.barriers;
            int32_t virt = k.virtual_resources, tmem = k.tmem_columns;
            int64_t st = k.smem_static_bytes, dy = k.smem_dynamic_bytes;
            gpuocc_batch cols = b;
            cols.status = status + 1, cols.blocks_per_sm = blocks + 1, cols.warps_per_sm = warps + 1;
            cols.limit_barriers = limit_barriers + 1, cols.limit_virtual_resources = lv + 1;
            cols.exceeded = exceeded + 1, cols.exceeded_limit = exceeded_limit + 1;
            cols.threads_per_block = &threads, cols.regs_per_thread = &regs, cols.smem_static_bytes = &st;
            cols.smem_dynamic_bytes = &dy, cols.barriers = &bars, cols.virtual_resources = &virt;
            cols.tmem_columns = &tmem;
            cr_assert_eq(gpuocc_occupancy_batch(&p, &base, &cols, 1), GPUOCC_OK);
            for (int j = 0; j < 2; j++) {
                cr_assert_eq(status[j], rc, "batch %d on %s, launch %d: %s, single call %s", j, name, n,
                             gpuocc_status_name(status[j]), gpuocc_status_name(rc));
                cr_assert_eq(exceeded[j], want.exceeded, "batch %d on %s, launch %d", j, name, n);
                cr_assert_eq(exceeded_limit[j], want.exceeded_limit, "batch %d on %s, launch %d", j, name, n);
                if (rc == GPUOCC_OK)
                    cr_assert(blocks[j] == want.blocks_per_sm && warps[j] == want.warps_per_sm &&
                                  limit_barriers[j] == want.limit_barriers && lv[j] == want.limit_virtual_resources,
                              "batch %d on %s, launch %d", j, name, n);
            }

            /* a sweep of the one point; the per-resource functions the device's rules give alone */
            gpuocc_sweep_point pt;
            int32_t count = 0;
            int32_t sweep_rc = gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, k.regs_per_thread, k.regs_per_thread, 1, &pt,
                                            1, &count);
            if (rc == GPUOCC_OK) {
                cr_assert_eq(sweep_rc, GPUOCC_OK, "sweep on %s, launch %d: %s", name, n, gpuocc_status_name(sweep_rc));
                cr_assert(pt.blocks_per_sm == want.blocks_per_sm && pt.limiters == want.limiters &&
                              pt.occupancy == want.occupancy && pt.smem_per_sm_bytes == want.smem_per_sm_bytes,
                          "sweep on %s, launch %d", name, n);
            } else {
                cr_assert_eq(sweep_rc, rc, "sweep on %s, launch %d", name, n);
            }
            int32_t limit = -2;
            int32_t barriers_rc = gpuocc_limit_barriers(&d, k.barriers, &limit);
            if (d.vendor == GPUOCC_VENDOR_NVIDIA) {
                bool over = k.barriers > (d.barriers_per_block_max ? d.barriers_per_block_max : 16);
                cr_assert_eq(barriers_rc, over ? GPUOCC_ERR_EXCEEDED : GPUOCC_OK, "barriers %d on %s", k.barriers,
                             name);
                if (rc == GPUOCC_OK)
                    cr_assert_eq(limit, want.limit_barriers, "limit_barriers on %s, launch %d", name, n);
            }
            if (rc == GPUOCC_OK && d.vendor == GPUOCC_VENDOR_NVIDIA) {
                cr_assert_eq(gpuocc_limit_shared_memory(&d, &k, &limit), GPUOCC_OK);
                cr_assert_eq(limit, want.limit_smem, "limit_shared_memory on %s, launch %d", name, n);
                /* the per-resource function is given the threads alone: the kernel's own launch bound is the
                   combined call's (a launch over it has no warp slots there) */
                cr_assert_eq(gpuocc_limit_warps(&d, k.threads_per_block, &limit), GPUOCC_OK);
                if (k.max_threads_per_block == 0 || k.threads_per_block <= k.max_threads_per_block)
                    cr_assert_eq(limit, want.limit_warps, "limit_warps on %s, launch %d", name, n);
                else
                    cr_assert_eq(want.limit_warps, 0, "over the launch bound on %s, launch %d", name, n);
                cr_assert_eq(gpuocc_limit_registers(&d, k.threads_per_block, k.regs_per_thread, &limit), GPUOCC_OK);
                cr_assert_eq(limit, want.limit_regs, "limit_registers on %s, launch %d", name, n);
            }
        }
    }
}

/* `gpuocc batch` and the C batch ignored a kernel's virtual resources: sm_110 (128 virtual resources per
   SM, CUDA 13's cuda_occupancy.h), 160 threads, 123 registers, 109 virtual resources a block: 128 / 109 = 1
   block, where the registers alone allow 3 (123 x 32 = 3936 -> 4096 registers a warp, 16384 / 4096 = 4
   warps per sub-partition, 16 warps / 5 a block = 3). */
Test(rule, batch_applies_virtual_resources)
{
    gpuocc_device d = test_device("sm_110");
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    gpuocc_kernel k = test_kernel(160, 123, 0, 0);
    int32_t virt[2] = {109, 0}, status[2], blocks[2], lv[2];
    uint32_t limiters[2];
    gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .virtual_resources = virt, .status = status,
                      .blocks_per_sm = blocks, .limiters = limiters, .limit_virtual_resources = lv};
    cr_assert_eq(gpuocc_occupancy_batch(&p, &k, &b, 2), GPUOCC_OK);
    cr_expect_eq(blocks[0], 1);
    cr_expect_eq(limiters[0], GPUOCC_LIMIT_VIRTUAL);
    cr_expect_eq(lv[0], 1);
    cr_expect_eq(blocks[1], 3);
    cr_expect_eq(limiters[1], GPUOCC_LIMIT_REGISTERS);
    cr_expect_eq(lv[1], GPUOCC_UNLIMITED);
    /* the base kernel's own value applies to every launch without a column */
    k.virtual_resources = 109;
    b.virtual_resources = NULL;
    cr_assert_eq(gpuocc_occupancy_batch(&p, &k, &b, 1), GPUOCC_OK);
    cr_expect_eq(blocks[0], 1);
}

/* NVIDIA's kernel launch bound (max_threads_per_block, __launch_bounds__): A100 (sm_80), 32 registers.  256
   threads under a bound of 256: 2048 / 256 = 8 blocks by the warp slots, 65536 / (32 x 256) = 8 by the
   registers.  512 threads over it: the launch fails, 0 blocks, the threads over the bound of 256.  Every path
   says so: the single call, the prepared call, the batch (the base kernel's bound on each row, AVX2 lanes and
   scalar rows alike), the inverse queries. */
Test(rule, nvidia_launch_bound)
{
    gpuocc_device d = test_device("sm_80");
    gpuocc_kernel k = test_kernel(256, 32, 0, 0);
    k.max_threads_per_block = 256;
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, 8);
    cr_expect_eq(r.exceeded, GPUOCC_INPUT_NONE);
    k.threads_per_block = 512;
    cr_assert_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.limit_warps, 0);
    cr_expect_eq(r.exceeded, GPUOCC_INPUT_THREADS);
    cr_expect_eq(r.exceeded_limit, 256);
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    gpuocc_result rp = {.size = sizeof rp};
    cr_assert_eq(gpuocc_occupancy_prepared(&p, &k, &rp), GPUOCC_OK);
    cr_expect_eq(rp.blocks_per_sm, 0);
    cr_expect_eq(rp.exceeded_limit, 256);
    /* 16 rows (two groups of eight lanes): 256 and 512 threads alternating */
    int32_t threads[16], status[16], blocks[16], exceeded[16];
    int64_t limit[16];
    for (int i = 0; i < 16; i++)
        threads[i] = i % 2 ? 512 : 256;
    gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .threads_per_block = threads, .status = status,
                      .blocks_per_sm = blocks, .exceeded = exceeded, .exceeded_limit = limit};
    cr_assert_eq(gpuocc_occupancy_batch(&p, &k, &b, 16), GPUOCC_OK);
    for (int i = 0; i < 16; i++) {
        cr_expect_eq(status[i], GPUOCC_OK, "row %d", i);
        cr_expect_eq(blocks[i], i % 2 ? 0 : 8, "row %d", i);
        cr_expect_eq(exceeded[i], i % 2 ? GPUOCC_INPUT_THREADS : GPUOCC_INPUT_NONE, "row %d", i);
        cr_expect_eq(limit[i], i % 2 ? 256 : 0, "row %d", i);
    }
    int64_t bytes = -1;
    int32_t regs = -1;
    cr_expect_eq(gpuocc_smem_dynamic_available(&d, &k, 1, &bytes), GPUOCC_ERR_UNSATISFIABLE);
    cr_expect_eq(gpuocc_regs_max_for_blocks(&d, &k, 1, &regs), GPUOCC_ERR_UNSATISFIABLE);
}

/* A base kernel the single call refuses is refused row by row, with the single call's status and input:
   tensor memory on H100 (none: sm_100, sm_103 and sm_110 have it), AMD's dynamic VGPRs on NVIDIA, Intel's
   sub-group on AMD, NVIDIA's virtual resources on Intel. */
Test(rule, batch_refuses_what_the_single_call_refuses)
{
    struct {
        const char *device;
        int32_t field; /* GPUOCC_INPUT_* set to a nonzero value */
        int32_t status;
    } cases[] = {{"H100", GPUOCC_INPUT_TMEM_COLUMNS, GPUOCC_ERR_TMEM},
                 {"H100", GPUOCC_INPUT_DVGPR, GPUOCC_ERR_ARGUMENT},
                 {"H100", GPUOCC_INPUT_SUB_GROUP, GPUOCC_ERR_ARGUMENT},
                 {"H100", GPUOCC_INPUT_AGPRS, GPUOCC_ERR_ARGUMENT},
                 {"MI300X", GPUOCC_INPUT_SUB_GROUP, GPUOCC_ERR_ARGUMENT},
                 {"MI300X", GPUOCC_INPUT_GRF, GPUOCC_ERR_ARGUMENT},
                 {"MI300X", GPUOCC_INPUT_VIRTUAL_RESOURCES, GPUOCC_ERR_ARGUMENT},
                 {"B580", GPUOCC_INPUT_VIRTUAL_RESOURCES, GPUOCC_ERR_ARGUMENT},
                 {"B580", GPUOCC_INPUT_SGPRS, GPUOCC_ERR_ARGUMENT},
                 {"B580", GPUOCC_INPUT_ROCM, GPUOCC_ERR_ARGUMENT}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpuocc_device d = test_device(cases[i].device);
        gpuocc_kernel k = test_kernel(256, 32, 0, 0);
        switch (cases[i].field) {
        case GPUOCC_INPUT_TMEM_COLUMNS: k.tmem_columns = 128; break;
        case GPUOCC_INPUT_DVGPR: k.dvgpr = 16; break;
        case GPUOCC_INPUT_SUB_GROUP: k.sub_group = 16; break;
        case GPUOCC_INPUT_AGPRS: k.agprs = 8; break;
        case GPUOCC_INPUT_GRF: k.grf = 128; break;
        case GPUOCC_INPUT_VIRTUAL_RESOURCES: k.virtual_resources = 8; break;
        case GPUOCC_INPUT_SGPRS: k.sgprs = 40; break;
        default: k.rocm_version = 602; break;
        }
        const char *what = gpuocc_input_name(cases[i].field);
        gpuocc_result r = {.size = sizeof r};
        cr_expect_eq(gpuocc_occupancy(&d, &k, &r), cases[i].status, "%s on %s", what, cases[i].device);
        cr_expect_eq(r.exceeded, cases[i].field, "%s on %s", what, cases[i].device);
        cr_expect_eq(r.blocks_per_sm, 0, "%s on %s: nothing but the input written", what, cases[i].device);
        gpuocc_prepared p = {.size = sizeof p};
        cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
        int32_t status = 1, blocks = 7, exceeded = -1;
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = &status, .blocks_per_sm = &blocks,
                          .exceeded = &exceeded};
        cr_expect_eq(gpuocc_occupancy_batch(&p, &k, &b, 1), GPUOCC_OK);
        cr_expect_eq(status, cases[i].status, "batch: %s on %s", what, cases[i].device);
        cr_expect_eq(exceeded, cases[i].field, "batch: %s on %s", what, cases[i].device);
        cr_expect_eq(blocks, 0, "batch: %s on %s", what, cases[i].device);
    }
}

/* What every interface refuses, the library refuses on every path: on AMD and Intel NVIDIA's carveout, opt-in
   and opt-in maximum away from gpuocc_kernel_init's (-1, 1, -1; no input names them: GPUOCC_INPUT_NONE),
   and on AMD a ROCm release without the runtime model (it picks the release of HIP's rules) and
   amdgpu_waves_per_eu(MIN, MAX) with MIN above MAX (clang rejects it; its limit: MAX). */
Test(rule, every_path_refuses_what_the_interfaces_refuse)
{
    enum { CARVEOUT, NO_OPTIN, DYNAMIC_MAX, ROCM, WAVES, CARVEOUT_AND_VIRTUAL };
    struct {
        const char *device;
        int what;
        int32_t value, model, input;
        int64_t limit;
    } cases[] = {
        {"MI300X", CARVEOUT, 50, 0, GPUOCC_INPUT_NONE, 0},
        {"MI300X", CARVEOUT, 0, 0, GPUOCC_INPUT_NONE, 0}, /* NVIDIA's 0 % is a value, not the default */
        {"MI300X", NO_OPTIN, 0, 0, GPUOCC_INPUT_NONE, 0},
        {"MI300X", DYNAMIC_MAX, 4096, 0, GPUOCC_INPUT_NONE, 0},
        {"gfx1100", DYNAMIC_MAX, 0, 0, GPUOCC_INPUT_NONE, 0},
        {"B580", CARVEOUT, 100, 0, GPUOCC_INPUT_NONE, 0},
        {"B580", NO_OPTIN, 0, 0, GPUOCC_INPUT_NONE, 0},
        {"pvc", DYNAMIC_MAX, 65536, 0, GPUOCC_INPUT_NONE, 0},
        {"MI300X", ROCM, 602, GPUOCC_MODEL_DEFAULT, GPUOCC_INPUT_ROCM, 0},
        {"MI300X", ROCM, 700, GPUOCC_MODEL_COMPILER, GPUOCC_INPUT_ROCM, 0},
        {"gfx1100", ROCM, 602, GPUOCC_MODEL_LLVM19, GPUOCC_INPUT_ROCM, 0},
        {"MI300X", WAVES, 4, 0, GPUOCC_INPUT_WAVES_PER_EU, 2}, /* (4, 2) */
        {"gfx1100", WAVES, 9, 0, GPUOCC_INPUT_WAVES_PER_EU, 8}, /* (9, 8) */
        /* an input the refusal names wins over one it cannot name */
        {"MI300X", CARVEOUT_AND_VIRTUAL, 50, 0, GPUOCC_INPUT_VIRTUAL_RESOURCES, 0},
    };
    /* a kernel zero-filled in C (no gpuocc_kernel_init): carveout 0, opt-in 0, opt-in maximum 0 read as unset,
       as 1.0.0 read them: 256 threads on MI300X (the compiler's model, 4 SIMDs x 8 wave slots / 4 waves a
       workgroup on one CU = 8 workgroups by the wave slots; 0 VGPRs and no LDS: no other limit) */
    gpuocc_device mi300x = test_device("MI300X");
    gpuocc_kernel zeroed = {.size = sizeof zeroed, .threads_per_block = 256};
    gpuocc_result zr = {.size = sizeof zr};
    cr_expect_eq(gpuocc_occupancy(&mi300x, &zeroed, &zr), GPUOCC_OK, "a zero-filled kernel on MI300X");
    cr_expect_eq(zr.blocks_per_sm, 8, "a zero-filled kernel on MI300X");
    gpuocc_device b580 = test_device("B580");
    cr_expect_eq(gpuocc_occupancy(&b580, &zeroed, &zr), GPUOCC_OK, "a zero-filled kernel on B580");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpuocc_device d = test_device(cases[i].device);
        gpuocc_kernel k = test_kernel(256, 32, 0, 0);
        k.model = cases[i].model;
        switch (cases[i].what) {
        case CARVEOUT: k.carveout_percent = cases[i].value; break;
        case NO_OPTIN: k.smem_optin = 0; break;
        case DYNAMIC_MAX: k.smem_dynamic_max_bytes = cases[i].value; break;
        case ROCM: k.rocm_version = cases[i].value; break;
        case WAVES: k.waves_per_eu_min = cases[i].value, k.waves_per_eu_max = (int32_t)cases[i].limit; break;
        default: k.carveout_percent = cases[i].value, k.virtual_resources = 8; break;
        }
        gpuocc_result r = {.size = sizeof r};
        cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT, "case %zu on %s", i, cases[i].device);
        cr_expect_eq(r.exceeded, cases[i].input, "case %zu", i);
        cr_expect_eq(r.exceeded_limit, cases[i].limit, "case %zu", i);
        cr_expect_eq(r.blocks_per_sm, 0, "case %zu", i);
        gpuocc_prepared p = {.size = sizeof p};
        cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
        gpuocc_result rp = {.size = sizeof rp};
        cr_expect_eq(gpuocc_occupancy_prepared(&p, &k, &rp), GPUOCC_ERR_ARGUMENT, "prepared: case %zu", i);
        cr_expect_eq(rp.exceeded, cases[i].input, "prepared: case %zu", i);
        /* the batch, row by row: the base kernel's refusal on each row, with the rows' own threads */
        int32_t threads[2] = {64, 512}, status[2] = {1, 1}, blocks[2] = {7, 7}, exceeded[2] = {-1, -1};
        int64_t limits[2] = {-1, -1};
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .threads_per_block = threads, .status = status,
                          .blocks_per_sm = blocks, .exceeded = exceeded, .exceeded_limit = limits};
        cr_expect_eq(gpuocc_occupancy_batch(&p, &k, &b, 2), GPUOCC_OK);
        for (int row = 0; row < 2; row++) {
            cr_expect_eq(status[row], GPUOCC_ERR_ARGUMENT, "batch row %d: case %zu", row, i);
            cr_expect_eq(exceeded[row], cases[i].input, "batch row %d: case %zu", row, i);
            cr_expect_eq(limits[row], cases[i].limit, "batch row %d: case %zu", row, i);
            cr_expect_eq(blocks[row], 0, "batch row %d: case %zu", row, i);
        }
        /* a sweep, a search and an inverse query: the same status, nothing written */
        gpuocc_sweep_point points[4];
        int32_t count = -1, threads_best = -1, grid = -1, regs = -1;
        cr_expect_eq(gpuocc_sweep(&d, &k, GPUOCC_AXIS_THREADS, 64, 256, 64, points, 4, &count), GPUOCC_ERR_ARGUMENT,
                     "sweep: case %zu", i);
        cr_expect_eq(count, -1, "sweep: case %zu", i);
        cr_expect_eq(gpuocc_best_block_affine(&d, &k, 0, 0, &threads_best, &grid), GPUOCC_ERR_ARGUMENT,
                     "best_block: case %zu", i);
        cr_expect_eq(gpuocc_regs_max_for_blocks(&d, &k, 1, &regs), GPUOCC_ERR_ARGUMENT, "regs_max: case %zu", i);
        cr_expect_eq(regs, -1, "regs_max: case %zu", i);
    }
}

/* The same fields at the values every interface accepts are answers: the defaults given explicitly, a ROCm
   release with the runtime model, waves per EU with MIN = MAX or a minimum alone, and Intel's barriers (a
   barrier in use: Intel reads them, the CLI's --barriers takes them). */
Test(rule, the_accepted_values_answer)
{
    const char *devices[] = {"MI300X", "gfx1100", "B580", "pvc"};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        gpuocc_device d = test_device(devices[i]);
        gpuocc_kernel k = test_kernel(256, 32, 0, 0);
        k.carveout_percent = -1, k.smem_optin = 1, k.smem_dynamic_max_bytes = -1;
        gpuocc_result r = {.size = sizeof r};
        cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_OK, "%s", devices[i]);
        if (d.vendor == GPUOCC_VENDOR_INTEL) {
            k.barriers = 2;
            cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_OK, "%s: barriers 2", devices[i]);
            continue;
        }
        gpuocc_kernel a = k;
        a.model = GPUOCC_MODEL_RUNTIME, a.rocm_version = 602;
        cr_expect_eq(gpuocc_occupancy(&d, &a, &r), GPUOCC_OK, "%s: rocm 6.2, runtime", devices[i]);
        a = k;
        a.waves_per_eu_min = 2, a.waves_per_eu_max = 2;
        cr_expect_eq(gpuocc_occupancy(&d, &a, &r), GPUOCC_OK, "%s: waves per EU (2, 2)", devices[i]);
        a.waves_per_eu_min = 3, a.waves_per_eu_max = 0; /* a minimum alone: up to the most waves */
        cr_expect_eq(gpuocc_occupancy(&d, &a, &r), GPUOCC_OK, "%s: waves per EU (3)", devices[i]);
    }
}

/* A caller built against 0.1.0 gets the same answers through the same path: the 88-byte kernel and the
   104-byte result (before the GPU-wide count and the input over a limit), written up to its size; a size
   between 0.1.0's and this layout is refused. */
Test(rule, older_layouts_answer_alike)
{
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(1024, 100, 0, 0);
    gpuocc_result now = test_occupancy(&d, &k);
    cr_expect_eq(now.blocks_per_sm, 0);
    cr_expect_eq(now.exceeded, GPUOCC_INPUT_REGS);
    cr_expect_eq(now.exceeded_limit, 64); /* 65536 / (32 warps x 256) = 8 units of 256: 64 a thread */
    struct {
        gpuocc_kernel k;
        unsigned char tail[16];
    } older;
    memset(&older, 0, sizeof older);
    memcpy(&older.k, &k, 88);
    older.k.size = 88;
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    struct {
        gpuocc_result r;
        unsigned char tail[16];
    } small;
    memset(&small, 0xA5, sizeof small);
    small.r.size = 104;
    cr_assert_eq(gpuocc_occupancy_prepared(&p, &older.k, &small.r), GPUOCC_OK);
    cr_expect_eq(small.r.blocks_per_sm, now.blocks_per_sm);
    cr_expect_eq(small.r.limiters, now.limiters);
    cr_expect_eq(small.r.limit_regs, now.limit_regs);
    unsigned char untouched[16];
    memset(untouched, 0xA5, sizeof untouched);
    cr_expect_eq(memcmp((unsigned char *)&small + 104, untouched, 16), 0, "nothing written past the 104 bytes");
    small.r.size = 120;
    cr_expect_eq(gpuocc_occupancy_prepared(&p, &older.k, &small.r), GPUOCC_ERR_STRUCT_SIZE);
    small.r.size = sizeof small.r;
    older.k.size = 104;
    cr_expect_eq(gpuocc_occupancy_prepared(&p, &older.k, &small.r), GPUOCC_ERR_STRUCT_SIZE);
}

/* ---- the prepared state: the caller's memory, trusted but bounded where it is used ---- */

static bool known_status(int32_t rc)
{
    return rc <= 0 && strcmp(gpuocc_status_name(rc), "unknown") != 0;
}

/* Every prepared call on a state: a known status, and an answer a caller can use (a changed state may answer
   wrongly, but never reads outside the state, divides by zero or shifts out of range: the sanitized build
   aborts on those; nor does it report negative blocks or warps, or an occupancy that is not a finite number
   as OK: a block-slot count, a barrier count or a virtual-resource count of the state with its sign bit set
   once gave -2147483616 blocks). */
static void expect_bounded(const gpuocc_prepared *p, const char *what, size_t at)
{
    static const int32_t threads[] = {1, 96, 256, 1024, INT32_MAX}; /* the last: the most warps a block may have */
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        gpuocc_kernel k = test_kernel(threads[i], 64, 1024 * (int64_t)i, 4096);
        k.barriers = 2;
        gpuocc_result r = {.size = sizeof r};
        int32_t rc = gpuocc_occupancy_prepared(p, &k, &r);
        cr_assert(known_status(rc), "%s at %zu: status %d", what, at, rc);
        if (rc == GPUOCC_OK)
            cr_assert(r.blocks_per_sm >= 0 && r.warps_per_sm >= 0 && r.max_warps_per_sm >= 1 &&
                          isfinite(r.occupancy) && r.occupancy >= 0 && r.regs_per_block >= 0,
                      "%s at %zu: %d blocks, %d of %d warps, occupancy %g, %d registers per block", what, at,
                      r.blocks_per_sm, r.warps_per_sm, r.max_warps_per_sm, r.occupancy, r.regs_per_block);
        int32_t status[2], blocks[2], regs[2] = {32, 255};
        double occupancy[2];
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .regs_per_thread = regs, .status = status,
                          .blocks_per_sm = blocks, .occupancy = occupancy};
        rc = gpuocc_occupancy_batch(p, &k, &b, 2);
        cr_assert(known_status(rc), "%s at %zu: batch status %d", what, at, rc);
        for (int j = 0; rc == GPUOCC_OK && j < 2; j++) {
            cr_assert(known_status(status[j]), "%s at %zu: row %d", what, at, j);
            if (status[j] == GPUOCC_OK)
                cr_assert(blocks[j] >= 0 && isfinite(occupancy[j]) && occupancy[j] >= 0,
                          "%s at %zu: row %d, %d blocks, occupancy %g", what, at, j, blocks[j], occupancy[j]);
        }
    }
}

/* The states the checksum of an earlier design let through, for a device of each vendor and one described
   by hand (an H100 with another SM count, opt-in limit and block slots): every single bit flipped (one gave
   25 blocks where 24 is right, past the check); every pair of sign bits of its 32-bit words flipped together
   (two cancelled in its tag and reached a signed overflow); every 32- and 64-bit word forged to an extreme
   value, the magic word kept (a forged state shifted by out-of-range amounts). */
Test(rule, a_modified_prepared_state_is_bounded)
{
    gpuocc_device devices[4];
    const char *names[] = {"H100", "MI300X", "B580", "H100"};
    for (int i = 0; i < 4; i++)
        devices[i] = test_device(names[i]);
    devices[3].sm_count = 100;
    devices[3].smem_per_block_optin_bytes = 200 * 1024;
    devices[3].max_blocks_per_sm = 24;
    for (int i = 0; i < 4; i++) {
        gpuocc_prepared p = {.size = sizeof p};
        cr_assert_eq(gpuocc_prepare(&devices[i], &p), GPUOCC_OK, "%s", names[i]);
        unsigned char *bytes = (unsigned char *)&p;
        for (size_t bit = 8 * sizeof p.size; bit < 8 * sizeof p; bit++) {
            bytes[bit / 8] ^= (unsigned char)(1u << bit % 8);
            expect_bounded(&p, "bit", bit);
            bytes[bit / 8] ^= (unsigned char)(1u << bit % 8);
        }
        size_t words = sizeof p / 4;
        for (size_t a = 1; a < words; a++)
            for (size_t c = a + 1; c < words; c++) {
                bytes[4 * a + 3] ^= 0x80, bytes[4 * c + 3] ^= 0x80;
                expect_bounded(&p, "sign bits", a * 1000 + c);
                bytes[4 * a + 3] ^= 0x80, bytes[4 * c + 3] ^= 0x80;
            }
        const gpuocc_prepared kept = p;
        static const int32_t extremes32[] = {INT32_MIN, INT32_MAX, -1, 0, 1 << 30};
        for (size_t w = 2; w < words; w++) /* past size and magic */
            for (size_t e = 0; e < sizeof extremes32 / sizeof extremes32[0]; e++) {
                memcpy(bytes + 4 * w, &extremes32[e], 4);
                expect_bounded(&p, "forged word", w);
                p = kept;
            }
        static const int64_t extremes64[] = {INT64_MIN, INT64_MAX, (int64_t)1 << 62};
        for (size_t w = 1; w < sizeof p / 8; w++)
            for (size_t e = 0; e < sizeof extremes64 / sizeof extremes64[0]; e++) {
                memcpy(bytes + 8 * w, &extremes64[e], 8);
                expect_bounded(&p, "forged 64-bit word", w);
                p = kept;
            }
    }
}

/* The extreme values of a slot of the state: its 32-bit words and its 64-bit byte counts take their own. */
static const int32_t extremes32[] = {INT32_MIN, INT32_MAX, -1, 0};
static const int64_t extremes64[] = {INT64_MIN, INT64_MAX, -1};
static size_t extremes_of(size_t size)
{
    return size == 4 ? sizeof extremes32 / sizeof extremes32[0] : sizeof extremes64 / sizeof extremes64[0];
}
static void forge(unsigned char *slot, size_t size, size_t which)
{
    memcpy(slot, size == 4 ? (const void *)&extremes32[which] : (const void *)&extremes64[which], size);
}

/* Every pair of NVIDIA's derived values forged together to extremes (one word at a time cannot reach what two
   do: a negative warp size with the warp shift at 0 and a block of 2^31 - 1 threads once made the registers
   per block a signed overflow, which the sanitized build aborts on, and a negative count elsewhere). */
Test(rule, pairs_of_forged_values_are_bounded)
{
    gpuocc_device d = test_device("H100");
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    const gpuocc_prepared kept = p;
    unsigned char *values = (unsigned char *)&p.nvidia;
    /* the slots: each 32-bit word before the byte counts, then each byte count */
    struct { size_t at, size; } slots[64];
    size_t n = 0;
    for (size_t at = 0; at < offsetof(gpuocc_prepared_nvidia, smem_per_sm_bytes); at += 4)
        slots[n].at = at, slots[n++].size = 4;
    for (size_t at = offsetof(gpuocc_prepared_nvidia, smem_per_sm_bytes); at < offsetof(gpuocc_prepared_nvidia, reserved); at += 8)
        slots[n].at = at, slots[n++].size = 8;
    cr_assert(n <= sizeof slots / sizeof slots[0]);
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            for (size_t ea = 0; ea < extremes_of(slots[a].size); ea++)
                for (size_t eb = 0; eb < extremes_of(slots[b].size); eb++) {
                    forge(values + slots[a].at, slots[a].size, ea);
                    forge(values + slots[b].at, slots[b].size, eb);
                    expect_bounded(&p, "forged pair", a * 1000 + b);
                    p = kept;
                }
}

/* Only the exact size the library writes is accepted, and another is refused without reading past the size
   word: a state of 4 bytes saying 4096 (a raised size word once made the check read 96 bytes past the
   object; the sanitized build would report a read past these 4 bytes). */
Test(rule, a_prepared_state_of_another_size_is_not_read)
{
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    static const uint32_t sizes[] = {4096, 0, 4, sizeof(gpuocc_prepared) - 8, sizeof(gpuocc_prepared) + 8, UINT32_MAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t *word = malloc(sizeof *word);
        cr_assert_not_null(word);
        *word = sizes[i];
        gpuocc_result r = {.size = sizeof r};
        cr_expect_eq(gpuocc_occupancy_prepared((const gpuocc_prepared *)(void *)word, &k, &r), GPUOCC_ERR_STRUCT_SIZE,
                     "size %u", sizes[i]);
        int32_t status = 77;
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = &status};
        cr_expect_eq(gpuocc_occupancy_batch((const gpuocc_prepared *)(void *)word, &k, &b, 1), GPUOCC_ERR_STRUCT_SIZE,
                     "size %u", sizes[i]);
        cr_expect_eq(status, 77, "nothing written");
        free(word);
    }
}
