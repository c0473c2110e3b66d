/*
 * AMD's inputs a next step may change (struct gpuocc_vendor's step_levers); its searches are the generic ones
 * over its limit vector (GPUOCC_VECTOR_SEARCHES in lib/amd/vendor.c, lib/core/bisect.c).
 */
#include "amd.h"

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
