/*
 * Resources of Hopper- and Blackwell-era kernels beside occupancy: tensor memory holders, the
 * setmaxnreg register pool, and whether a launch reaches its launch bounds' minimum of blocks.  Each uses
 * the public occupancy and the device's fields; the rules and their sources are in docs/model.md.
 */
#include "../core/core.h"

/* The caller's device in the current layout, checked. */
static int32_t load_device(const gpuocc_device *dev, gpuocc_device *local)
{
    int32_t rc = gpuocc_struct_load(local, sizeof *local, dev, GPUOCC_DEVICE_SIZE_MIN);
    return rc ? rc : gpuocc_device_validate(local);
}

int32_t gpuocc_tmem_holders(const gpuocc_device *dev, int32_t tmem_columns, int32_t *holders)
{
    if (!dev || !holders)
        return GPUOCC_ERR_NULL;
    gpuocc_device d;
    int32_t rc = load_device(dev, &d);
    if (rc)
        return rc;
    if (!gpuocc_tmem_columns_ok(tmem_columns))
        return GPUOCC_ERR_ARGUMENT;
    if (tmem_columns == 0) {
        *holders = GPUOCC_UNLIMITED;
        return GPUOCC_OK;
    }
    /* AMD's and Intel's devices have no such field: it is zero there */
    if (d.vendor != GPUOCC_VENDOR_NVIDIA || d.tmem_columns_per_sm == 0)
        return GPUOCC_ERR_TMEM;
    *holders = d.tmem_columns_per_sm / tmem_columns;
    return GPUOCC_OK;
}

/* PTX ISA, setmaxnreg: a count from 24 to 256 in steps of 8, for whole warpgroups of 4 warps. */
#define SETMAXNREG_MIN 24
#define SETMAXNREG_MAX 256
#define SETMAXNREG_STEP 8
#define WARPGROUP_THREADS 128

int32_t gpuocc_setmaxnreg_check(const gpuocc_device *dev, const gpuocc_kernel *kernel, const int32_t *targets,
                                int32_t warpgroups, int32_t regs_fixed, gpuocc_setmaxnreg_result *out)
{
    if (!dev || !kernel || !targets || !out)
        return GPUOCC_ERR_NULL;
    gpuocc_device d;
    int32_t rc = load_device(dev, &d);
    if (rc)
        return rc;
    gpuocc_kernel k;
    if ((rc = gpuocc_kernel_load(&k, kernel)))
        return rc;
    gpuocc_setmaxnreg_result r;
    if (d.vendor != GPUOCC_VENDOR_NVIDIA)
        return GPUOCC_ERR_VENDOR;
    if (d.cc_major < 9)
        return GPUOCC_ERR_SETMAXNREG;
    if (k.threads_per_block % WARPGROUP_THREADS != 0)
        return GPUOCC_ERR_THREADS;
    if (warpgroups != k.threads_per_block / WARPGROUP_THREADS || (regs_fixed != 0 && regs_fixed != 1))
        return GPUOCC_ERR_ARGUMENT;
    /* warpgroups <= INT32_MAX / 128: the sum below stays far inside int64 */
    int64_t requested = 0;
    for (int32_t i = 0; i < warpgroups; i++) {
        int32_t t = targets[i];
        if (t < SETMAXNREG_MIN || t > SETMAXNREG_MAX || t % SETMAXNREG_STEP != 0)
            return GPUOCC_ERR_ARGUMENT;
        requested += (int64_t)t * WARPGROUP_THREADS;
    }
    gpuocc_result occ = {.size = sizeof occ};
    if ((rc = gpuocc_occupancy(dev, kernel, &occ)))
        return rc;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.pool_regs = (int64_t)k.regs_per_thread * k.threads_per_block;
    r.requested_regs = requested;
    r.fits = requested <= r.pool_regs;
    r.mean_regs_per_thread = (double)requested / (double)k.threads_per_block;
    r.blocks_per_sm = occ.blocks_per_sm;
    r.warnings = regs_fixed ? 0u : GPUOCC_SETMAXNREG_UNFIXED;
    r.warpgroups = warpgroups;
    return gpuocc_struct_store(out, sizeof r, &r, sizeof r);
}

int32_t gpuocc_min_blocks_check(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t min_blocks,
                                int32_t *blocks, uint32_t *preventing)
{
    if (!dev || !kernel || !blocks || !preventing)
        return GPUOCC_ERR_NULL;
    if (min_blocks < 1)
        return GPUOCC_ERR_ARGUMENT;
    gpuocc_result r = {.size = sizeof r};
    int32_t rc = gpuocc_occupancy(dev, kernel, &r);
    if (rc)
        return rc;
    const int32_t limits[] = {r.limit_warps, r.limit_regs, r.limit_smem, r.limit_blocks, r.limit_barriers,
                              r.limit_sgprs, r.limit_virtual_resources};
    const int32_t resources[] = {GPUOCC_RESOURCE_WARPS, GPUOCC_RESOURCE_REGISTERS, GPUOCC_RESOURCE_SMEM,
                                 GPUOCC_RESOURCE_BLOCKS, GPUOCC_RESOURCE_BARRIERS, GPUOCC_RESOURCE_SGPRS,
                                 GPUOCC_RESOURCE_VIRTUAL};
    uint32_t mask = 0;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i] != GPUOCC_UNLIMITED && limits[i] < min_blocks)
            mask |= 1u << resources[i];
    /* a limit without a field of its own (AMD's AGPRs) is named by the limiters */
    if (r.blocks_per_sm < min_blocks && mask == 0)
        mask = r.limiters;
    *blocks = r.blocks_per_sm;
    *preventing = mask;
    return GPUOCC_OK;
}
