/* The combined occupancy: every limit, the minimum, and every resource that ties at it. */
#include "internal.h"

static const char *const resource_names[GPUOCC_RESOURCE_COUNT] = {
    "warps", "registers", "shared_memory", "blocks", "barriers",
};

const char *gpuocc_resource_name(int32_t resource)
{
    if (resource < 0 || resource >= GPUOCC_RESOURCE_COUNT)
        return "";
    return resource_names[resource];
}

void gpuocc_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    int64_t smem_alloc = gpuocc_rule_smem_alloc(d, k->smem_static_bytes, k->smem_dynamic_bytes);
    int64_t carveout = gpuocc_rule_carveout_for(d, k, smem_alloc);
    int32_t limits[GPUOCC_RESOURCE_COUNT];
    limits[GPUOCC_RESOURCE_WARPS] = gpuocc_rule_warps(d, k->threads_per_block);
    limits[GPUOCC_RESOURCE_REGISTERS] = gpuocc_rule_registers(d, k->threads_per_block, k->regs_per_thread);
    limits[GPUOCC_RESOURCE_SMEM] = gpuocc_rule_smem_for(d, k, smem_alloc, carveout);
    limits[GPUOCC_RESOURCE_BLOCKS] = d->max_blocks_per_sm;
    limits[GPUOCC_RESOURCE_BARRIERS] = gpuocc_rule_barriers(d, k->barriers);

    int32_t blocks = GPUOCC_NO_LIMIT;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++)
        if (limits[i] < blocks)
            blocks = limits[i];
    uint32_t limiters = 0;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++)
        if (limits[i] == blocks)
            limiters |= 1u << i;

    int64_t warps_per_block = gpuocc_div_up(k->threads_per_block, d->warp_size);
    int64_t max_warps = d->max_threads_per_sm / d->warp_size;
    /* blocks is at most the block-slot cap, so this product is small */
    int64_t warps = (int64_t)blocks * warps_per_block;

    r->limiters = limiters;
    r->blocks_per_sm = blocks;
    r->warps_per_sm = gpuocc_clamp_i32(warps);
    r->max_warps_per_sm = (int32_t)max_warps;
    r->warps_per_block = gpuocc_clamp_i32(warps_per_block);
    r->occupancy = (double)warps / (double)max_warps;
    r->limit_warps = gpuocc_public_limit(limits[GPUOCC_RESOURCE_WARPS]);
    r->limit_regs = gpuocc_public_limit(limits[GPUOCC_RESOURCE_REGISTERS]);
    r->limit_smem = gpuocc_public_limit(limits[GPUOCC_RESOURCE_SMEM]);
    r->limit_blocks = limits[GPUOCC_RESOURCE_BLOCKS];
    r->limit_barriers = gpuocc_public_limit(limits[GPUOCC_RESOURCE_BARRIERS]);
    r->regs_per_block = gpuocc_clamp_i32(gpuocc_rule_regs_per_warp(d, k->regs_per_thread) * warps_per_block);
    r->smem_per_block_bytes = smem_alloc;
    r->smem_per_sm_bytes = carveout;
}

int32_t gpuocc_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc = gpuocc_pair_load(&d, dev, &k, kernel);
    if (rc)
        return rc;
    gpuocc_result r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    gpuocc_compute(&d, &k, &r);
    return gpuocc_struct_store(result, sizeof r, &r, sizeof r);
}
