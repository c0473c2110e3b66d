/*
 * The per-resource functions and the granularity helpers: argument checks, then the rules of the device's
 * vendor (its table's struct gpuocc_vendor_rules: lib/nvidia/rule.c, lib/amd/limits.c, lib/intel/limits.c).
 */
#include "api.h"

/* The checked device, then the output pointer: the order every wrapper reports errors in. */
static const struct gpuocc_vendor_rules *device_and_output(gpuocc_device *d, const gpuocc_device *dev,
                                                           const void *out, int32_t *rc)
{
    *rc = gpuocc_device_load(d, dev);
    if (!*rc && !out)
        *rc = GPUOCC_ERR_NULL;
    return *rc ? NULL : gpuocc_vendor_of(d->vendor)->rules();
}

/* The checked pair (the kernel's AMD fields against its device included), then the output pointer. */
static const struct gpuocc_vendor_rules *pair_and_output(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k,
                                                         const gpuocc_kernel *kernel, const void *out, int32_t *rc)
{
    *rc = gpuocc_pair_load(d, dev, k, kernel);
    if (!*rc && !out)
        *rc = GPUOCC_ERR_NULL;
    return *rc ? NULL : gpuocc_vendor_of(d->vendor)->rules();
}

int32_t gpuocc_limit_warps(const gpuocc_device *dev, int32_t threads_per_block, int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = device_and_output(&d, dev, blocks, &rc);
    if (!rules)
        return rc;
    if (threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    *blocks = gpuocc_public_limit(rules->limit_warps(&d, threads_per_block));
    return GPUOCC_OK;
}

int32_t gpuocc_limit_registers(const gpuocc_device *dev, int32_t threads_per_block, int32_t regs_per_thread,
                               int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = device_and_output(&d, dev, blocks, &rc);
    if (!rules)
        return rc;
    if (threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    if (regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    *blocks = gpuocc_public_limit(rules->limit_registers(&d, threads_per_block, regs_per_thread));
    return GPUOCC_OK;
}

int32_t gpuocc_limit_shared_memory(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t *blocks)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = pair_and_output(&d, dev, &k, kernel, blocks, &rc);
    if (!rules)
        return rc;
    *blocks = gpuocc_public_limit(rules->limit_smem(&d, &k));
    return GPUOCC_OK;
}

int32_t gpuocc_limit_blocks(const gpuocc_device *dev, int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = device_and_output(&d, dev, blocks, &rc);
    if (!rules)
        return rc;
    *blocks = gpuocc_public_limit(rules->limit_blocks(&d));
    return GPUOCC_OK;
}

int32_t gpuocc_limit_barriers(const gpuocc_device *dev, int32_t barriers_per_block, int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = device_and_output(&d, dev, blocks, &rc);
    if (!rules)
        return rc;
    if (barriers_per_block < 0)
        return GPUOCC_ERR_BARRIERS;
    /* refused as gpuocc_occupancy refuses a kernel with these barriers (more than a block may use) */
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.barriers = barriers_per_block;
    if ((rc = gpuocc_pair_check(&d, &k)))
        return rc;
    *blocks = gpuocc_public_limit(rules->limit_barriers(&d, barriers_per_block));
    return GPUOCC_OK;
}

int32_t gpuocc_regs_per_warp(const gpuocc_device *dev, int32_t regs_per_thread, int32_t *regs)
{
    gpuocc_device d;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = device_and_output(&d, dev, regs, &rc);
    if (!rules)
        return rc;
    if (regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    int64_t per_warp = rules->regs_per_warp(&d, regs_per_thread);
    if (per_warp > INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    *regs = (int32_t)per_warp;
    return GPUOCC_OK;
}

int32_t gpuocc_regs_per_block(const gpuocc_device *dev, int32_t threads_per_block, int32_t regs_per_thread,
                              int64_t *regs)
{
    gpuocc_device d;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = device_and_output(&d, dev, regs, &rc);
    if (!rules)
        return rc;
    if (threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    if (regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    *regs = rules->regs_per_block(&d, threads_per_block, regs_per_thread);
    return GPUOCC_OK;
}

int32_t gpuocc_smem_per_block(const gpuocc_device *dev, int64_t smem_static_bytes, int64_t smem_dynamic_bytes,
                              int64_t *bytes)
{
    gpuocc_device d;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = device_and_output(&d, dev, bytes, &rc);
    if (!rules)
        return rc;
    if (smem_static_bytes < 0 || smem_dynamic_bytes < 0)
        return GPUOCC_ERR_SMEM;
    int64_t alloc = rules->smem_per_block(&d, smem_static_bytes, smem_dynamic_bytes);
    if (alloc >= GPUOCC_BYTES_HUGE)
        return GPUOCC_ERR_OVERFLOW;
    *bytes = alloc;
    return GPUOCC_OK;
}

int32_t gpuocc_smem_carveout(const gpuocc_device *dev, const gpuocc_kernel *kernel, int64_t *bytes)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc;
    const struct gpuocc_vendor_rules *rules = pair_and_output(&d, dev, &k, kernel, bytes, &rc);
    if (!rules)
        return rc;
    *bytes = rules->smem_per_sm(&d, &k);
    return GPUOCC_OK;
}
