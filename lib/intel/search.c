/*
 * Intel's inverse and search queries: the generic ones over its limit vector (lib/core/bisect.c), the terms
 * gpuocc_occupancy takes its minimum over (lib/intel/occupancy.c), so they agree with it in either model;
 * and the inputs a next step may change.
 */
#include "intel.h"

/* The table's operations carry no vector: each vendor hands its own to the generic searches. */
int32_t gpuocc_intel_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs)
{
    return gpuocc_vector_regs_max_for_blocks(gpuocc_intel_vector(), d, k, want, regs);
}

int32_t gpuocc_intel_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,
                                            int64_t *bytes)
{
    return gpuocc_vector_smem_dynamic_available(gpuocc_intel_vector(), d, k, want, bytes);
}

int32_t gpuocc_intel_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                               int64_t *shed)
{
    return gpuocc_vector_next_step(gpuocc_intel_vector(), d, k, resource, new_value, shed);
}

int32_t gpuocc_intel_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                                int32_t *threads, int32_t *min_grid)
{
    return gpuocc_vector_best_block(gpuocc_intel_vector(), d, k, rule, threads, min_grid);
}

int64_t gpuocc_intel_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to,
                                int32_t bmax)
{
    (void)bmax; /* the thresholds are found by bisection on the rules */
    return gpuocc_vector_sweep_next(gpuocc_intel_vector(), d, k, axis, v, to);
}

void gpuocc_intel_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from,
                              int64_t *to, int64_t *step)
{
    gpuocc_vector_sweep_range(gpuocc_intel_vector(), d, k, axis, from, to, step);
}

/* A step may change the work-group size and its SLM; the GRF mode is a compile-time choice of the kernel
   (grf), not an input the next steps lower, and barriers are a yes/no of the kernel. */
int32_t gpuocc_intel_step_levers(const gpuocc_device *d, const gpuocc_kernel *k, struct gpuocc_lever *levers)
{
    (void)k;
    int32_t n = 0;
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_WARPS, 1, d->max_threads_per_block};
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_SMEM, 1, INT64_MAX};
    return n;
}
