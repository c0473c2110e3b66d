/* AMD's table of operations: what the API calls for a device whose vendor is GPUOCC_VENDOR_AMD.
   (Every vendor's table has this shape: the same operations, struct gpuocc_vendor, each vendor's own.) */
#include "amd.h"

/* the searches: the generic ones over the vendor's limit vector (lib/core/bisect.c) */
GPUOCC_VECTOR_SEARCHES(amd, gpuocc_amd_vector)

const struct gpuocc_vendor *gpuocc_amd_vendor(void)
{
    static const struct gpuocc_vendor vendor = {
        .name = "amd",
        .check_device = gpuocc_amd_check_device,
        .refusal = gpuocc_amd_refusal,
        .compute = gpuocc_amd_compute,
        .rules = gpuocc_amd_vendor_rules,
        .catalog = gpuocc_amd_catalog,
        .best_block = amd_best_block,
        .smem_dynamic_available = amd_smem_dynamic_available,
        .regs_max_for_blocks = amd_regs_max_for_blocks,
        .next_step = amd_next_step,
        .step_levers = gpuocc_amd_step_levers,
        .sweep_next = amd_sweep_next,
        .sweep_range = amd_sweep_range,
        /* clusters are not modelled (AMD's MI450 rule is not reconciled: docs/model.md) */
        .cluster_size_max = gpuocc_no_cluster_size_max,
        .gpc_layout = gpuocc_no_gpc_layout,
    };
    return &vendor;
}
