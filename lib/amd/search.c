/*
 * AMD's inverse and search queries: the generic ones over its limit vector (lib/core/bisect.c), the terms
 * gpuocc_occupancy takes its minimum over (lib/amd/occupancy.c), so they agree with it in every model; and
 * the inputs a next step may change.
 */
#include "amd.h"

/* The table's operations carry no vector: each vendor hands its own to the generic searches. */
int32_t gpuocc_amd_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs)
{
    return gpuocc_vector_regs_max_for_blocks(gpuocc_amd_vector(), d, k, want, regs);
}

int32_t gpuocc_amd_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t *bytes)
{
    return gpuocc_vector_smem_dynamic_available(gpuocc_amd_vector(), d, k, want, bytes);
}

int32_t gpuocc_amd_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                             int64_t *shed)
{
    return gpuocc_vector_next_step(gpuocc_amd_vector(), d, k, resource, new_value, shed);
}

int32_t gpuocc_amd_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                              int32_t *threads, int32_t *min_grid)
{
    return gpuocc_vector_best_block(gpuocc_amd_vector(), d, k, rule, threads, min_grid);
}

int64_t gpuocc_amd_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to,
                              int32_t bmax)
{
    (void)bmax; /* the thresholds are found by bisection on the rules */
    return gpuocc_vector_sweep_next(gpuocc_amd_vector(), d, k, axis, v, to);
}

void gpuocc_amd_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from, int64_t *to,
                            int64_t *step)
{
    gpuocc_vector_sweep_range(gpuocc_amd_vector(), d, k, axis, from, to, step);
}

int32_t gpuocc_amd_step_levers(const gpuocc_device *d, const gpuocc_kernel *k, struct gpuocc_lever *levers)
{
    int32_t n = 0;
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_WARPS, 1, d->max_threads_per_block};
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_REGISTERS, 1, d->regs_per_thread_max};
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_SMEM, 1, INT64_MAX};
    /* neither model lets a barrier count lift LLVM's cap: no barriers step */
    if (d->sgprs_per_simd > 0 && k->sgprs > 0) /* SGPRs limit waves on gfx6-9 only */
        levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_SGPRS, 1, INT64_MAX};
    /* AGPRs count in the register file; on a separate file (gfx908) MFMA results must live there, on a
       unified one (gfx90a+) VGPRs can hold them, so the AGPRs can go */
    if (d->agpr_file != GPUOCC_AGPR_NONE)
        levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_AGPRS, d->agpr_file == GPUOCC_AGPR_SEPARATE ? 1 : 0,
                                            INT64_MAX};
    return n;
}
