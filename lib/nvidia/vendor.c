/* NVIDIA's table of operations: what the API calls for a device whose vendor is GPUOCC_VENDOR_NVIDIA.
   (Every vendor's table has this shape: the same operations, struct gpuocc_vendor, each vendor's own.) */
#include "nvidia.h"

const struct gpuocc_vendor *gpuocc_nvidia_vendor(void)
{
    static const struct gpuocc_vendor vendor = {
        .name = "nvidia",
        .check_device = gpuocc_nv_check_device,
        .refusal = gpuocc_nv_refusal,
        .compute = gpuocc_nv_compute_device,
        .rules = gpuocc_nvidia_vendor_rules,
        .catalog = gpuocc_nvidia_catalog,
        .best_block = gpuocc_nv_best_block_grid,
        .smem_dynamic_available = gpuocc_nv_smem_dynamic_available_device,
        .regs_max_for_blocks = gpuocc_nv_regs_max_for_blocks_device,
        .next_step = gpuocc_nv_next_step,
        .step_levers = gpuocc_nv_step_levers,
        .sweep_next = gpuocc_nv_sweep_next,
        .sweep_range = gpuocc_nv_sweep_range,
        .cluster_size_max = gpuocc_nv_cluster_size_max,
        .gpc_layout = gpuocc_nv_gpc_layout,
    };
    return &vendor;
}
