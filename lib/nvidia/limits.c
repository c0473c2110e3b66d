/*
 * The per-resource rules: how many blocks per SM one resource allows.  The rules and their sources are in
 * docs/model.md; the numbers they use all come from the device description.
 */
#include "../core/internal.h"

static int64_t warps_per_block(const gpuocc_device *d, int64_t threads)
{
    return gpuocc_div_up(threads, d->warp_size);
}

int32_t gpuocc_rule_warps(const gpuocc_device *d, int64_t threads)
{
    if (threads > d->max_threads_per_block)
        return 0;
    int64_t warp_slots = d->max_threads_per_sm / d->warp_size;
    return gpuocc_clamp_i32(warp_slots / warps_per_block(d, threads));
}

int64_t gpuocc_rule_regs_per_warp(const gpuocc_device *d, int64_t regs)
{
    return gpuocc_round_up(regs * d->warp_size, d->reg_alloc_unit);
}

/* Blocks the register file allows when it is split into `parts` sub-partitions. */
static int32_t register_blocks(const gpuocc_device *d, int64_t warps, int64_t per_warp, int64_t parts)
{
    /* The per-block check assumes every sub-partition is given registers at once, so the block's
       warps are rounded up to a multiple of the sub-partition count (hardware check); the plain
       product must fit too (software check). */
    if (per_warp * gpuocc_round_up(warps, parts) > d->regs_per_block || per_warp * warps > d->regs_per_block)
        return 0;
    if (per_warp == 0)
        return GPUOCC_NO_LIMIT;
    /* Each sub-partition has its own slice of the register file: a warp cannot straddle two. */
    int64_t warps_per_part = (d->regs_per_sm / parts) / per_warp;
    return gpuocc_clamp_i32(warps_per_part * parts / warps);
}

int32_t gpuocc_rule_registers(const gpuocc_device *d, int64_t threads, int64_t regs)
{
    if (regs > d->regs_per_thread_max)
        return 0;
    int64_t warps = warps_per_block(d, threads);
    int64_t per_warp = gpuocc_rule_regs_per_warp(d, regs);
    int32_t blocks = register_blocks(d, warps, per_warp, d->sub_partitions);
    /* GP100 runs only what its GP10x siblings could run (family forward compatibility). */
    if (blocks != 0 && d->reg_compat_sub_partitions > 0 &&
        register_blocks(d, warps, per_warp, d->reg_compat_sub_partitions) == 0)
        return 0;
    return blocks;
}

int64_t gpuocc_rule_smem_alloc(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic)
{
    int64_t used = gpuocc_sat_add(gpuocc_sat_add(smem_static, smem_dynamic), d->smem_reserved_per_block_bytes);
    return gpuocc_round_up(used, d->smem_alloc_unit_bytes);
}

/* The smallest supported carveout of at least `bytes`; -1 when none is that large. */
static int64_t carveout_at_least(const gpuocc_device *d, int64_t bytes)
{
    for (int32_t i = 0; i < d->carveout_count; i++)
        if ((int64_t)d->carveouts_kib[i] * 1024 >= bytes)
            return (int64_t)d->carveouts_kib[i] * 1024;
    return -1;
}

/* Dynamic shared memory the kernel may use at most, and whether the opt-in per-block limit applies. */
static int64_t dynamic_max(const gpuocc_device *d, const gpuocc_kernel *k)
{
    if (k->smem_dynamic_max_bytes >= 0)
        return k->smem_dynamic_max_bytes;
    return d->smem_per_block_optin_bytes - k->smem_static_bytes;
}

static int64_t per_block_limit(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int64_t limit = d->smem_per_block_bytes;
    if (k->smem_optin) {
        /* the opt-in limit applies once the kernel's largest possible block exceeds the default */
        int64_t most = dynamic_max(d, k);
        int64_t largest = gpuocc_sat_add(gpuocc_sat_add(k->smem_static_bytes, d->smem_reserved_per_block_bytes),
                                         most > 0 ? most : 0);
        if (largest > d->smem_per_block_bytes)
            limit = d->smem_per_block_optin_bytes;
    }
    return limit + d->smem_reserved_per_block_bytes;
}

int64_t gpuocc_rule_carveout_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc)
{
    if (d->carveout_count == 0)
        return d->smem_per_sm_bytes;
    int64_t preferred = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT
                            ? d->smem_per_sm_bytes
                            : (int64_t)k->carveout_percent * d->smem_per_sm_bytes / 100;
    preferred = carveout_at_least(d, preferred);
    if (preferred >= alloc)
        return preferred;
    /* The preference is ignored when one block needs more: the driver picks a carveout that holds it. */
    int64_t needed = carveout_at_least(d, alloc);
    return needed >= 0 ? needed : d->smem_per_sm_bytes;
}

int64_t gpuocc_rule_carveout(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return gpuocc_rule_carveout_for(d, k, gpuocc_rule_smem_alloc(d, k->smem_static_bytes, k->smem_dynamic_bytes));
}

int32_t gpuocc_rule_smem_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc, int64_t carveout)
{
    if (k->smem_optin && k->smem_dynamic_bytes > dynamic_max(d, k))
        return 0;
    if (alloc > per_block_limit(d, k))
        return 0;
    if (alloc == 0)
        return GPUOCC_NO_LIMIT;
    return gpuocc_clamp_i32(carveout / alloc);
}

int32_t gpuocc_rule_smem(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int64_t alloc = gpuocc_rule_smem_alloc(d, k->smem_static_bytes, k->smem_dynamic_bytes);
    return gpuocc_rule_smem_for(d, k, alloc, gpuocc_rule_carveout_for(d, k, alloc));
}

int32_t gpuocc_rule_barriers(const gpuocc_device *d, int64_t barriers)
{
    if (d->barriers_per_sm == 0 || barriers == 0)
        return GPUOCC_NO_LIMIT;
    return gpuocc_clamp_i32(d->barriers_per_sm / barriers);
}

/* ---- public wrappers ---- */

int32_t gpuocc_limit_warps(const gpuocc_device *dev, int32_t threads_per_block, int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    if (!blocks)
        return GPUOCC_ERR_NULL;
    if (threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    *blocks = gpuocc_rule_warps(&d, threads_per_block);
    return GPUOCC_OK;
}

int32_t gpuocc_limit_registers(const gpuocc_device *dev, int32_t threads_per_block, int32_t regs_per_thread,
                               int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    if (!blocks)
        return GPUOCC_ERR_NULL;
    if (threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    if (regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    *blocks = gpuocc_public_limit(gpuocc_rule_registers(&d, threads_per_block, regs_per_thread));
    return GPUOCC_OK;
}

int32_t gpuocc_limit_shared_memory(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t *blocks)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc = gpuocc_pair_load(&d, dev, &k, kernel);
    if (rc)
        return rc;
    if (!blocks)
        return GPUOCC_ERR_NULL;
    *blocks = gpuocc_public_limit(gpuocc_rule_smem(&d, &k));
    return GPUOCC_OK;
}

int32_t gpuocc_limit_blocks(const gpuocc_device *dev, int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    if (!blocks)
        return GPUOCC_ERR_NULL;
    *blocks = d.max_blocks_per_sm;
    return GPUOCC_OK;
}

int32_t gpuocc_limit_barriers(const gpuocc_device *dev, int32_t barriers_per_block, int32_t *blocks)
{
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    if (!blocks)
        return GPUOCC_ERR_NULL;
    if (barriers_per_block < 0)
        return GPUOCC_ERR_BARRIERS;
    *blocks = gpuocc_public_limit(gpuocc_rule_barriers(&d, barriers_per_block));
    return GPUOCC_OK;
}

int32_t gpuocc_regs_per_warp(const gpuocc_device *dev, int32_t regs_per_thread, int32_t *regs)
{
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    if (!regs)
        return GPUOCC_ERR_NULL;
    if (regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    int64_t per_warp = gpuocc_rule_regs_per_warp(&d, regs_per_thread);
    if (per_warp > INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    *regs = (int32_t)per_warp;
    return GPUOCC_OK;
}

int32_t gpuocc_regs_per_block(const gpuocc_device *dev, int32_t threads_per_block, int32_t regs_per_thread,
                              int64_t *regs)
{
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    if (!regs)
        return GPUOCC_ERR_NULL;
    if (threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    if (regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    *regs = gpuocc_rule_regs_per_warp(&d, regs_per_thread) * warps_per_block(&d, threads_per_block);
    return GPUOCC_OK;
}

int32_t gpuocc_smem_per_block(const gpuocc_device *dev, int64_t smem_static_bytes, int64_t smem_dynamic_bytes,
                              int64_t *bytes)
{
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    if (!bytes)
        return GPUOCC_ERR_NULL;
    if (smem_static_bytes < 0 || smem_dynamic_bytes < 0)
        return GPUOCC_ERR_SMEM;
    int64_t alloc = gpuocc_rule_smem_alloc(&d, smem_static_bytes, smem_dynamic_bytes);
    if (alloc >= GPUOCC_BYTES_HUGE)
        return GPUOCC_ERR_OVERFLOW;
    *bytes = alloc;
    return GPUOCC_OK;
}

int32_t gpuocc_smem_carveout(const gpuocc_device *dev, const gpuocc_kernel *kernel, int64_t *bytes)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc = gpuocc_pair_load(&d, dev, &k, kernel);
    if (rc)
        return rc;
    if (!bytes)
        return GPUOCC_ERR_NULL;
    *bytes = gpuocc_rule_carveout(&d, &k);
    return GPUOCC_OK;
}
