/*
 * AMD's per-resource rules, one resource at a time: what lib/api/limits.c's public functions answer for an
 * AMD device.  Each is the same term gpuocc_amd_compute takes its minimum over (lib/amd/occupancy.c), for
 * the kernel the arguments describe: the functions given only a block size or a register count describe a
 * kernel with gpuocc_kernel_init's defaults (the compiler's model, the device's default wave size, WGP mode
 * on gfx10+, no AGPRs, no SGPR limit); those given a kernel honour all of its fields (docs/amd.md).
 */
#include "amd.h"

/* Wave slots, registers and shared memory: the generic limits over the vendor's vector. */
GPUOCC_VECTOR_LIMITS(amd, gpuocc_amd_vector)

/* Neither LLVM nor HIP caps resident workgroups by a slot count of their own. */
static int32_t amd_limit_blocks(const gpuocc_device *d)
{
    (void)d;
    return GPUOCC_NO_LIMIT;
}

/* LLVM's cap on workgroups that synchronize (every workgroup of more than one wave), per CU or WGP. */
static int32_t amd_limit_barriers(const gpuocc_device *d, int64_t barriers)
{
    if (barriers == 0)
        return GPUOCC_NO_LIMIT;
    gpuocc_kernel k = gpuocc_vector_kernel(gpuocc_amd_vector(), 1, 0);
    return gpuocc_amd_barrier_cap(d, &k);
}

/* VGPRs one wave is given: the per-lane count rounded up to the granule, x the wave size. */
static int64_t amd_regs_per_wave(const gpuocc_device *d, int64_t regs)
{
    gpuocc_kernel k = gpuocc_vector_kernel(gpuocc_amd_vector(), 1, regs);
    return gpuocc_amd_regs_per_wave(d, &k);
}

static int64_t amd_regs_per_workgroup(const gpuocc_device *d, int64_t threads, int64_t regs)
{
    gpuocc_kernel k = gpuocc_vector_kernel(gpuocc_amd_vector(), threads, regs);
    return gpuocc_amd_regs_per_wave(d, &k) * gpuocc_div_up(threads, gpuocc_amd_wave_size(d, &k));
}

/* The LDS a workgroup is charged in the default (compiler) model: static + dynamic rounded up to the allocation
   granule (docs/amd.md); gpuocc_sat_add's ceiling stays (a multiple of every granule). */
static int64_t amd_lds_per_workgroup(const gpuocc_device *d, int64_t lds_static, int64_t lds_dynamic)
{
    int64_t bytes = gpuocc_sat_add(lds_static, lds_dynamic);
    return bytes >= GPUOCC_BYTES_HUGE ? bytes : gpuocc_round_up(bytes, d->smem_alloc_unit_bytes);
}

/* The table every vendor fills alike (struct gpuocc_vendor_rules), with AMD's rules. */
const struct gpuocc_vendor_rules *gpuocc_amd_vendor_rules(void)
{
    static const struct gpuocc_vendor_rules rules = {
        .limit_warps = amd_limit_warps,
        .limit_registers = amd_limit_registers,
        .limit_smem = amd_limit_smem,
        .limit_blocks = amd_limit_blocks,
        .limit_barriers = amd_limit_barriers,
        .regs_per_warp = amd_regs_per_wave,
        .regs_per_block = amd_regs_per_workgroup,
        .smem_per_block = amd_lds_per_workgroup,
        .smem_per_sm = gpuocc_amd_lds_per_cu,
    };
    return &rules;
}
