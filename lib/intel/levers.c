/*
 * Intel's inputs a next step may change (struct gpuocc_vendor's step_levers); its searches are the generic
 * ones over its limit vector (GPUOCC_VECTOR_SEARCHES in lib/intel/vendor.c, lib/core/bisect.c).
 */
#include "intel.h"

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
