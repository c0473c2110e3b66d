/*
 * Intel's per-resource rules, one resource at a time: what the public per-resource functions answer for an
 * Intel device.  Each is a term gpuocc_intel_compute takes its minimum over (lib/intel/occupancy.c).  The
 * functions given only a block size or a register count describe a kernel with gpuocc_kernel_init's
 * defaults (the calculator, the device's default sub-group, one barrier); a register count is a GRF count
 * (registers per hardware thread).
 */
#include "intel.h"

/* Wave slots, registers and shared memory: the generic limits over the vendor's vector. */
GPUOCC_VECTOR_LIMITS(intel, gpuocc_intel_vector)

/* The calculator's work-group cap per Xe-core. */
static int32_t intel_limit_blocks(const gpuocc_device *d)
{
    return d->max_blocks_per_sm;
}

/* The calculator's barrier registers per Xe-core, for a kernel with barriers. */
static int32_t intel_limit_barriers(const gpuocc_device *d, int64_t barriers)
{
    return barriers > 0 ? d->barriers_per_sm : GPUOCC_NO_LIMIT;
}

/* GRF registers one hardware thread is given. */
static int64_t intel_regs_per_thread(const gpuocc_device *d, int64_t grf)
{
    (void)d;
    return grf > 0 ? grf : GPUOCC_INTEL_GRF_DEFAULT;
}

static int64_t intel_regs_per_workgroup(const gpuocc_device *d, int64_t threads, int64_t grf)
{
    return intel_regs_per_thread(d, grf) * gpuocc_div_up(threads, d->warp_size);
}

/* The calculator's rounding to the allowed sizes (the sum itself where none holds it). */
static int64_t intel_slm_per_workgroup(const gpuocc_device *d, int64_t slm_static, int64_t slm_dynamic)
{
    gpuocc_kernel k = gpuocc_vector_kernel(gpuocc_intel_vector(), 1, 0);
    k.smem_static_bytes = slm_static;
    k.smem_dynamic_bytes = slm_dynamic;
    return gpuocc_intel_slm_per_workgroup(d, &k);
}

/* The table every vendor fills alike (struct gpuocc_vendor_rules), with Intel's rules. */
const struct gpuocc_vendor_rules *gpuocc_intel_vendor_rules(void)
{
    static const struct gpuocc_vendor_rules rules = {
        .limit_warps = intel_limit_warps,
        .limit_registers = intel_limit_registers,
        .limit_smem = intel_limit_smem,
        .limit_blocks = intel_limit_blocks,
        .limit_barriers = intel_limit_barriers,
        .regs_per_warp = intel_regs_per_thread,
        .regs_per_block = intel_regs_per_workgroup,
        .smem_per_block = intel_slm_per_workgroup,
        .smem_per_sm = gpuocc_intel_slm_per_xecore,
    };
    return &rules;
}
