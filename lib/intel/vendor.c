/* Intel's table of operations: what the API calls for a device whose vendor is GPUOCC_VENDOR_INTEL.
   (Every vendor's table has this shape: the same operations, struct gpuocc_vendor, each vendor's own.) */
#include "intel.h"

/* the searches: the generic ones over the vendor's limit vector (lib/core/bisect.c) */
GPUOCC_VECTOR_SEARCHES(intel, gpuocc_intel_vector)

const struct gpuocc_vendor *gpuocc_intel_vendor(void)
{
    static const struct gpuocc_vendor vendor = {
        .name = "intel",
        .check_device = gpuocc_intel_check_device,
        .refusal = gpuocc_intel_refusal,
        .compute = gpuocc_intel_compute,
        .rules = gpuocc_intel_vendor_rules,
        .catalog = gpuocc_intel_catalog,
        .best_block = intel_best_block,
        .smem_dynamic_available = intel_smem_dynamic_available,
        .regs_max_for_blocks = intel_regs_max_for_blocks,
        .next_step = intel_next_step,
        .step_levers = gpuocc_intel_step_levers,
        .sweep_next = intel_sweep_next,
        .sweep_range = intel_sweep_range,
        .cluster_size_max = gpuocc_no_cluster_size_max,
        .gpc_layout = gpuocc_no_gpc_layout,
    };
    return &vendor;
}
