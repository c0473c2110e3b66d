/*
 * Tensor memory holders, the setmaxnreg register pool, launch bounds checked.  Every count is
 * derived by hand from the rules docs/model.md cites (the PTX ISA's tcgen05.alloc and setmaxnreg, the
 * register and shared-memory allocation rules), in the comments.
 */
#include "common.h"

#include <string.h>

/* ---- tensor memory ---- */

Test(tmem, catalog)
{
    /* 512 columns per SM on the tcgen05 targets (sm_100, sm_101 = Thor before CUDA 13, sm_103, sm_110) */
    const char *with[] = {"sm_100", "sm_101", "sm_103", "sm_110", "B200", "Jetson AGX Thor"};
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++)
        cr_expect_eq(test_device(with[i]).tmem_columns_per_sm, 512, "%s", with[i]);
    /* none on Hopper nor on the sm_12x parts (GeForce Blackwell, GB10) */
    const char *without[] = {"sm_80", "sm_90", "H100", "sm_120", "sm_121", "RTX 5090"};
    for (size_t i = 0; i < sizeof without / sizeof without[0]; i++)
        cr_expect_eq(test_device(without[i]).tmem_columns_per_sm, 0, "%s", without[i]);
}

Test(tmem, holders)
{
    gpuocc_device d = test_device("sm_100");
    int32_t h = 99;
    /* floor(512 / columns) for every power of two from 32 to 512 */
    const int32_t columns[] = {32, 64, 128, 256, 512}, want[] = {16, 8, 4, 2, 1};
    for (size_t i = 0; i < 5; i++) {
        cr_assert_eq(gpuocc_tmem_holders(&d, columns[i], &h), GPUOCC_OK);
        cr_expect_eq(h, want[i], "%d columns", columns[i]);
    }
    cr_assert_eq(gpuocc_tmem_holders(&d, 0, &h), GPUOCC_OK);
    cr_expect_eq(h, GPUOCC_UNLIMITED);
    /* not a power of two from 32 to 512: refused, the output untouched */
    const int32_t bad[] = {-32, 16, 48, 96, 1024};
    for (size_t i = 0; i < 5; i++) {
        h = 7;
        cr_expect_eq(gpuocc_tmem_holders(&d, bad[i], &h), GPUOCC_ERR_ARGUMENT, "%d", bad[i]);
        cr_expect_eq(h, 7);
    }
    cr_expect_eq(gpuocc_tmem_holders(NULL, 32, &h), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_tmem_holders(&d, 32, NULL), GPUOCC_ERR_NULL);
}

Test(tmem, refused_without_tensor_memory)
{
    int32_t h = 7;
    const char *without[] = {"sm_90", "sm_120", "gfx942", "gfx1200"};
    for (size_t i = 0; i < sizeof without / sizeof without[0]; i++) {
        gpuocc_device d = test_device(without[i]);
        cr_expect_eq(gpuocc_tmem_holders(&d, 128, &h), GPUOCC_ERR_TMEM, "%s", without[i]);
        gpuocc_kernel k = test_kernel(128, 32, 0, 0);
        k.tmem_columns = 128;
        gpuocc_result r = {.size = sizeof r};
        r.blocks_per_sm = 77;
        cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_TMEM, "%s", without[i]);
        cr_expect_eq(r.blocks_per_sm, 77);
        /* and none asked: no error */
        cr_expect_eq(gpuocc_tmem_holders(&d, 0, &h), GPUOCC_OK);
    }
    cr_expect_eq(h, GPUOCC_UNLIMITED);
    /* a device described by hand without the field (zero) has none either */
    gpuocc_device d = test_device("sm_100");
    d.tmem_columns_per_sm = 0;
    cr_expect_eq(gpuocc_tmem_holders(&d, 32, &h), GPUOCC_ERR_TMEM);
    d.tmem_columns_per_sm = -1;
    cr_expect_eq(gpuocc_tmem_holders(&d, 32, &h), GPUOCC_ERR_DEVICE);
    d.tmem_columns_per_sm = 512;
    d.reserved2 = 1; /* the word after it */
    cr_expect_eq(gpuocc_tmem_holders(&d, 32, &h), GPUOCC_ERR_RESERVED);
    gpuocc_kernel k = test_kernel(128, 32, 0, 0);
    gpuocc_result r = {.size = sizeof r};
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_RESERVED);
}

Test(tmem, never_lowers_blocks)
{
    /* B200, 128 threads at 32 registers: 16 blocks (warps 64 / 4, registers 64 warps / 4); with 256 columns
       per block the same 16 are resident, 2 hold tensor memory and 14 wait at tcgen05.alloc */
    gpuocc_device d = test_device("B200");
    gpuocc_kernel k = test_kernel(128, 32, 0, 0);
    gpuocc_result r0 = test_occupancy(&d, &k);
    k.tmem_columns = 256;
    gpuocc_result r1 = test_occupancy(&d, &k);
    cr_expect_eq(r0.blocks_per_sm, 16);
    cr_expect_eq(r1.blocks_per_sm, 16);
    cr_expect_eq(r1.limiters, r0.limiters);
    int32_t h;
    cr_assert_eq(gpuocc_tmem_holders(&d, k.tmem_columns, &h), GPUOCC_OK);
    cr_expect_eq(h, 2);
    /* a column count off the rule is the kernel's domain error, on every device */
    k.tmem_columns = 100;
    gpuocc_result r = {.size = sizeof r};
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
}

Test(tmem, older_device_layout)
{
    /* the 0.1.0 device layout (232 bytes) holds no tensor-memory field: a kernel that asks for columns is
       refused; a size between it and this layout is no layout */
    unsigned char buf[sizeof(gpuocc_device)];
    memset(buf, 0, sizeof buf);
    gpuocc_device *d = (gpuocc_device *)buf;
    d->size = 392;
    cr_expect_eq(gpuocc_device_lookup("sm_100", d), GPUOCC_ERR_STRUCT_SIZE);
    d->size = 232;
    cr_assert_eq(gpuocc_device_lookup("sm_100", d), GPUOCC_OK);
    cr_expect_eq(d->tmem_columns_per_sm, 0);
    int32_t h;
    cr_expect_eq(gpuocc_tmem_holders(d, 0, &h), GPUOCC_OK);
    cr_expect_eq(gpuocc_tmem_holders(d, 64, &h), GPUOCC_ERR_TMEM);
}

/* ---- setmaxnreg ---- */

static gpuocc_setmaxnreg_result setmaxnreg(const char *dev, int32_t threads, int32_t regs, const int32_t *t,
                                           int32_t n, int32_t fixed, int32_t *rc)
{
    gpuocc_device d = test_device(dev);
    gpuocc_kernel k = test_kernel(threads, regs, 0, 0);
    gpuocc_setmaxnreg_result r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    *rc = gpuocc_setmaxnreg_check(&d, &k, t, n, fixed, &r);
    return r;
}

Test(setmaxnreg, golden_producer_consumers)
{
    /* H100, 384 threads (3 warpgroups) launched at 168 registers: the pool is 168 x 384 = 64512; a producer
       at 40 and two consumers at 232 ask (40 + 232 + 232) x 128 = 64512, mean 168: it fits exactly.  The
       occupancy is the launch's: 168 x 32 = 5376 registers per warp (21 units of 256), 16384 / 5376 = 3
       warps per sub-partition, 12 per SM: one block of 12 warps */
    const int32_t t[] = {40, 232, 232};
    int32_t rc;
    gpuocc_setmaxnreg_result r = setmaxnreg("H100", 384, 168, t, 3, 1, &rc);
    cr_assert_eq(rc, GPUOCC_OK);
    cr_expect_eq(r.fits, 1);
    cr_expect_eq(r.pool_regs, 64512);
    cr_expect_eq(r.requested_regs, 64512);
    cr_expect(r.mean_regs_per_thread == 168.0);
    cr_expect_eq(r.blocks_per_sm, 1);
    cr_expect_eq(r.warnings, 0u);
    cr_expect_eq(r.warpgroups, 3);
    /* the same kernel recording no fixed register count: ptxas would drop setmaxnreg */
    r = setmaxnreg("H100", 384, 168, t, 3, 0, &rc);
    cr_assert_eq(rc, GPUOCC_OK);
    cr_expect_eq(r.warnings, GPUOCC_SETMAXNREG_UNFIXED);
    /* consumers at 240: (40 + 240 + 232) x 128 = 65536 > 64512, the second increase never completes */
    const int32_t over[] = {40, 240, 232};
    r = setmaxnreg("H100", 384, 168, over, 3, 1, &rc);
    cr_assert_eq(rc, GPUOCC_OK);
    cr_expect_eq(r.fits, 0);
    cr_expect_eq(r.requested_regs, 65536);
    /* launched at 160: pool 61440 < 64512 */
    r = setmaxnreg("sm_100", 384, 160, t, 3, 1, &rc);
    cr_assert_eq(rc, GPUOCC_OK);
    cr_expect_eq(r.fits, 0);
    cr_expect_eq(r.pool_regs, 61440);
}

Test(setmaxnreg, refusals)
{
    const int32_t t[] = {40, 232, 232};
    int32_t rc;
    /* targets off the rule: a multiple of 8 from 24 to 256 */
    const int32_t bad[][3] = {{16, 232, 232}, {40, 230, 232}, {40, 232, 264}};
    for (size_t i = 0; i < 3; i++) {
        setmaxnreg("H100", 384, 168, bad[i], 3, 1, &rc);
        cr_expect_eq(rc, GPUOCC_ERR_ARGUMENT, "%zu", i);
    }
    const int32_t edges[] = {24, 256, 24};
    setmaxnreg("H100", 384, 256, edges, 3, 1, &rc);
    cr_expect_eq(rc, GPUOCC_OK);
    /* whole warpgroups of 128 threads, one target each */
    setmaxnreg("H100", 320, 168, t, 3, 1, &rc);
    cr_expect_eq(rc, GPUOCC_ERR_THREADS);
    setmaxnreg("H100", 256, 168, t, 3, 1, &rc);
    cr_expect_eq(rc, GPUOCC_ERR_ARGUMENT);
    setmaxnreg("H100", 384, 168, t, 3, 2, &rc);
    cr_expect_eq(rc, GPUOCC_ERR_ARGUMENT);
    /* before cc 9.0, and other vendors */
    setmaxnreg("A100", 384, 168, t, 3, 1, &rc);
    cr_expect_eq(rc, GPUOCC_ERR_SETMAXNREG);
    setmaxnreg("gfx942", 384, 64, t, 3, 1, &rc);
    cr_expect_eq(rc, GPUOCC_ERR_VENDOR);
    /* the struct's size, and the outputs untouched on failure */
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(384, 168, 0, 0);
    gpuocc_setmaxnreg_result r;
    memset(&r, 0, sizeof r);
    r.size = 4;
    cr_expect_eq(gpuocc_setmaxnreg_check(&d, &k, t, 3, 1, &r), GPUOCC_ERR_STRUCT_SIZE);
    r.size = sizeof r;
    cr_expect_eq(gpuocc_setmaxnreg_check(&d, &k, bad[0], 3, 1, &r), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(r.pool_regs, 0);
    cr_expect_eq(gpuocc_setmaxnreg_check(&d, &k, NULL, 3, 1, &r), GPUOCC_ERR_NULL);
}

/* ---- launch bounds checked ---- */

Test(launch_bounds, min_blocks)
{
    /* __launch_bounds__(256, 4) on H100: ptxas caps registers at 65536 / (256 x 4) = 64.  64 x 32 = 2048
       registers per warp, 16384 / 2048 = 8 warps per sub-partition, 32 per SM: 4 blocks of 8 warps; warps
       64 / 8 = 8; no shared memory: 4 reached */
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    int32_t blocks = -1;
    uint32_t preventing = 99;
    cr_assert_eq(gpuocc_min_blocks_check(&d, &k, 4, &blocks, &preventing), GPUOCC_OK);
    cr_expect_eq(blocks, 4);
    cr_expect_eq(preventing, 0u);
    /* 60000 B dynamic shared memory: 60000 + 1024 reserved = 61024, rounded to 128 B: 61056; the 228 KiB
       carveout (233472 B) holds 3: the shared memory prevents the 4 asked for */
    k.smem_dynamic_bytes = 60000;
    cr_assert_eq(gpuocc_min_blocks_check(&d, &k, 4, &blocks, &preventing), GPUOCC_OK);
    cr_expect_eq(blocks, 3);
    cr_expect_eq(preventing, GPUOCC_LIMIT_SMEM);
    /* asking for 5 too: the registers (4) prevent it as well */
    cr_assert_eq(gpuocc_min_blocks_check(&d, &k, 5, &blocks, &preventing), GPUOCC_OK);
    cr_expect_eq(preventing, GPUOCC_LIMIT_SMEM | GPUOCC_LIMIT_REGISTERS);
    cr_expect_eq(gpuocc_min_blocks_check(&d, &k, 0, &blocks, &preventing), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_min_blocks_check(&d, &k, 1, NULL, &preventing), GPUOCC_ERR_NULL);
}

/* ---- AMD gfx12 dynamic VGPRs (the compiler's model) ---- */

static gpuocc_result dvgpr_launch(int32_t threads, int32_t vgprs, int32_t dvgpr)
{
    gpuocc_device d = test_device("gfx1200");
    gpuocc_kernel k = test_kernel(threads, vgprs, 0, 0);
    k.dvgpr = dvgpr;
    return test_occupancy(&d, &k);
}

Test(dvgpr, no_static_vgpr_limit)
{
    /* gfx1200 wave32, a 256-thread workgroup (8 waves) on a WGP of 4 SIMDs: static VGPRs are 1536 per lane
       at a granule of 24 (LLVM's gfx12 wave32 figures); 128 VGPRs round to 144: 1536 / 144 = 10 waves per
       SIMD, 10 x 4 / 8 = 5 workgroups.  In dynamic mode the VGPRs set no limit: the 16 wave slots give
       16 x 4 / 8 = 8, and LLVM's occupancy is 16 waves per SIMD */
    gpuocc_result s = dvgpr_launch(256, 128, 0);
    cr_expect_eq(s.blocks_per_sm, 5);
    cr_expect_eq(s.waves_per_simd, 10);
    gpuocc_result r = dvgpr_launch(256, 128, 16);
    cr_expect_eq(r.blocks_per_sm, 8);
    cr_expect_eq(r.waves_per_simd, 16);
    cr_expect_eq(r.limit_regs, GPUOCC_UNLIMITED);
    cr_expect_eq(r.limiters, GPUOCC_LIMIT_WARPS);
    /* the allocation granule is the block: 100 VGPRs are 112 in blocks of 16 (7 blocks), 128 in blocks of
       32; x 32 lanes x 8 waves */
    cr_expect_eq(dvgpr_launch(256, 100, 16).regs_per_block, 112 * 32 * 8);
    cr_expect_eq(dvgpr_launch(256, 100, 32).regs_per_block, 128 * 32 * 8);
    cr_expect_eq(dvgpr_launch(256, 100, 0).regs_per_block, 120 * 32 * 8);
}

Test(dvgpr, absolute_limits)
{
    /* LLVM's TestOccupancyAbsoluteLimits (gfx1200, wave32, a one-wave workgroup): occupancy 1 to 16 waves
       per EU in every mode; at most 256 VGPRs static, 128 with blocks of 16, 256 with blocks of 32 (8 blocks
       at most).  One wave of 32 threads on a WGP: 16 x 4 = 64 workgroups of one wave */
    const int32_t block[] = {16, 32}, most[] = {128, 256};
    for (int i = 0; i < 2; i++) {
        gpuocc_result r = dvgpr_launch(32, most[i], block[i]);
        cr_expect_eq(r.waves_per_simd, 16, "dvgpr %d", block[i]);
        cr_expect_eq(r.blocks_per_sm, 64, "dvgpr %d", block[i]);
        r = dvgpr_launch(32, most[i] + 1, block[i]);
        cr_expect_eq(r.blocks_per_sm, 0, "dvgpr %d", block[i]);
        cr_expect_eq(r.limit_regs, 0);
        cr_expect_eq(r.limiters, GPUOCC_LIMIT_REGISTERS);
    }
    /* static mode: 256 addressable (264 allocated: 1536 / 264 = 5 waves per SIMD), 257 cannot run */
    cr_expect_eq(dvgpr_launch(32, 256, 0).waves_per_simd, 5);
    cr_expect_eq(dvgpr_launch(32, 257, 0).blocks_per_sm, 0);
}

Test(dvgpr, refusals)
{
    gpuocc_result r = {.size = sizeof r};
    /* not a block size */
    gpuocc_device d = test_device("gfx1200");
    gpuocc_kernel k = test_kernel(256, 64, 0, 0);
    k.dvgpr = 8;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    /* wave64, HIP's runtime model, a target before gfx12, NVIDIA, Intel */
    k.dvgpr = 16;
    k.wave_size = 64;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    k.wave_size = 0;
    k.model = GPUOCC_MODEL_RUNTIME;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_ERR_ARGUMENT);
    k.model = GPUOCC_MODEL_DEFAULT;
    cr_expect_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_OK);
    const char *others[] = {"gfx1100", "gfx942", "H100", "B200"};
    for (size_t i = 0; i < 4; i++) {
        gpuocc_device o = test_device(others[i]);
        cr_expect_eq(gpuocc_occupancy(&o, &k, &r), GPUOCC_ERR_ARGUMENT, "%s", others[i]);
    }
}
