/*
 * AMD's rules: the compiler's answer (LLVM's AMDGPU occupancy, waves per SIMD, as today's LLVM computes it or
 * as LLVM 19 did) and the runtime's (HIP's hipOccupancyMaxActiveBlocksPerMultiprocessor, workgroups per CU as
 * HIP counts CUs), both from the device description alone.  The rules, their sources and what each is exact
 * against: docs/amd.md.
 */
#include "amd.h"

/* The trap handler's SGPRs a gfx6-9 wave holds when it is on (LLVM's TRAP_NUM_SGPRS). */
#define AMD_TRAP_SGPRS 16

/* A kernel's view of the device: wave size, the SIMDs and LDS its workgroup may use, what it is charged. */
struct amd_view {
    int64_t wave;          /* 32 or 64 */
    int64_t scale;         /* 2 for wave32 (VGPR numbers are stored for wave64), else 1 */
    int64_t simds;         /* SIMDs of the CU, or of the WGP in WGP mode */
    int64_t cus;           /* CUs the workgroup's CU or WGP spans */
    int64_t waves_per_wg;  /* of the launch */
    int64_t vgprs;         /* VGPRs per lane one wave is charged as the kernel's model counts them (unified
                              total on gfx90a+; the compiler models: at least LLVM's minimum for the
                              waves-per-EU bound) */
    int64_t sgprs;         /* SGPRs per wave the same way (0: unknown, no limit) */
    int64_t llvm_vgprs;    /* the same as the compiler counts them, for its waves per SIMD */
    int64_t llvm_sgprs;
    int64_t lds;           /* static + dynamic LDS of one workgroup */
    int64_t lds_charged;   /* the same rounded up to the LDS granule (today's compiler model), else lds */
    int64_t dvgpr;         /* gfx12 dynamic-VGPR block size (16 or 32), 0 = off (the compiler's model only) */
    bool llvm19;           /* LLVM 19's rules for the compiler's figures, else today's */
    bool trap;             /* the trap handler's SGPRs are held (the target default: on) */
};

/* x (>= 0) rounded up to the unit (<= 2^20); saturating: a count past 2^60 (bytes no device holds) rounds as
   2^60 does, never past INT64_MAX. */
static int64_t amd_round_up(int64_t x, int64_t unit)
{
    return gpuocc_round_up(x < GPUOCC_BYTES_HUGE ? x : GPUOCC_BYTES_HUGE, unit);
}

/* The SGPR allocation granule and the SGPRs a kernel may address (LLVM's IsaInfo): 8 and 104 on gfx6-7, whose
   SIMD has 512 SGPRs, 16 and 102 on gfx8-9 (800). */
static int64_t amd_sgpr_granule(const gpuocc_device *d)
{
    return d->cc_major < 8 ? 8 : 16;
}

static int64_t amd_sgprs_addressable(const gpuocc_device *d)
{
    return d->cc_major < 8 ? 104 : 102;
}

static int64_t amd_min(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t amd_clamp(int64_t x, int64_t lo, int64_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The VGPRs a wave is charged: gfx90a+ allocate the AGPRs after the arch VGPRs rounded to 4 (A5). */
static int64_t amd_total_vgprs(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int64_t v = k->regs_per_thread, a = k->agprs;
    if (d->agpr_file == GPUOCC_AGPR_UNIFIED && a > 0)
        return amd_round_up(v, 4) + a;
    return v > a ? v : a;
}

/* ---- the compiler (LLVM: AMDGPUSubtarget, GCNSubtarget, AMDGPUBaseInfo IsaInfo; A2, A14) ---- */

/* Waves per SIMD the VGPRs allow; below one granule nothing is charged. */
static int64_t llvm_vgpr_waves(const gpuocc_device *d, const struct amd_view *v, int64_t vgprs)
{
    /* dynamic VGPRs: a wave asks for its blocks as it runs, so the VGPRs set no static limit (A13) */
    if (v->dvgpr)
        return d->waves_per_simd;
    int64_t granule = d->vgpr_granule * v->scale, total = d->vgprs_per_simd * v->scale;
    if (vgprs < granule)
        return d->waves_per_simd;
    return amd_clamp(total / amd_round_up(vgprs, granule), 1, d->waves_per_simd);
}

/* LLVM 19's SGPR steps (GCNSubtarget's tables; not the SGPR file over the granule): the most SGPRs for each
   number of waves, then the waves above the last step.  Volcanic Islands and later (gfx8-9), and Southern and
   Sea Islands (gfx6-7). */
struct sgpr_step {
    int32_t sgprs, waves;
};
static const struct sgpr_step sgpr_steps_vi[] = {{80, 10}, {88, 9}, {100, 8}, {0, 7}};
static const struct sgpr_step sgpr_steps_si[] = {{48, 10}, {56, 9}, {64, 8}, {72, 7}, {80, 6}, {0, 5}};

/* Waves per SIMD the SGPRs allow (gfx6-9; 0 SGPRs: unknown).  LLVM 19: its tables, no trap handler.  Today
   (llvm/llvm-project#201342, 2026, every target before gfx10): the inverse of the per-wave budget, the SGPR file
   (800; 512 on gfx6-7) over the SGPRs rounded up to the granule (16; 8) plus the trap handler's 16 when it is
   on. */
static int64_t llvm_sgpr_waves(const gpuocc_device *d, const struct amd_view *v, int64_t sgprs)
{
    if (d->sgprs_per_simd == 0 || sgprs == 0)
        return d->waves_per_simd;
    if (!v->llvm19) {
        int64_t per_wave = amd_round_up(sgprs, amd_sgpr_granule(d)) + (v->trap ? AMD_TRAP_SGPRS : 0);
        return amd_clamp(d->sgprs_per_simd / per_wave, 1, d->waves_per_simd);
    }
    const struct sgpr_step *step = d->cc_major < 8 ? sgpr_steps_si : sgpr_steps_vi;
    while (step->sgprs != 0 && sgprs > step->sgprs)
        step++;
    return step->waves < d->waves_per_simd ? step->waves : d->waves_per_simd;
}

/* Workgroups of `waves_per_wg` waves per CU (or WGP) the wave slots and the barriers allow
   (getMaxWorkGroupsPerCU). */
static int64_t llvm_workgroups(const gpuocc_device *d, const struct amd_view *v, int64_t waves_per_wg)
{
    int64_t slots = d->waves_per_simd * v->simds;
    if (waves_per_wg == 1)
        return slots; /* a single-wave workgroup needs no barrier */
    int64_t barriers = (int64_t)d->barriers_per_sm * v->cus;
    return slots / waves_per_wg < barriers ? slots / waves_per_wg : barriers;
}

/* The VGPRs a lane may address (the unified file on gfx90a+), which LLVM's minimum never passes. */
static int64_t llvm_vgprs_addressable(const gpuocc_device *d)
{
    return d->agpr_file == GPUOCC_AGPR_UNIFIED ? d->vgprs_per_simd : d->regs_per_thread_max;
}

/* The most VGPRs at which `waves` waves per SIMD fit, rounded down to the granule (getMaxNumVGPRs's budget). */
static int64_t llvm_vgpr_budget(const gpuocc_device *d, const struct amd_view *v, int64_t waves)
{
    int64_t granule = d->vgpr_granule * v->scale;
    return (d->vgprs_per_simd * v->scale / waves) / granule * granule;
}

/* LLVM's getMinNumVGPRs: the fewest VGPRs a wave is given so that at most `waves` waves fit per SIMD; 0 when
   no VGPR count gives exactly that many (the budget equals the full occupancy's), the floor for the fewest
   waves the addressable VGPRs allow below those. */
static int64_t llvm_min_vgprs(const gpuocc_device *d, const struct amd_view *v, int64_t waves)
{
    int64_t max_waves = d->waves_per_simd, granule = d->vgpr_granule * v->scale;
    if (waves >= max_waves || v->dvgpr)
        return 0;
    int64_t budget = llvm_vgpr_budget(d, v, waves);
    if (budget == llvm_vgpr_budget(d, v, max_waves))
        return 0;
    int64_t addressable = llvm_vgprs_addressable(d);
    int64_t fewest = llvm_vgpr_waves(d, v, addressable);
    if (waves < fewest)
        return llvm_min_vgprs(d, v, fewest);
    int64_t next = llvm_vgpr_budget(d, v, waves + 1);
    return amd_min(1 + amd_min(budget - granule, next), addressable);
}

/* LLVM's getMinNumSGPRs (gfx6-9): the fewest SGPRs for at most `waves` waves, the trap handler's taken out
   of the budget; 0 from gfx10 on, where SGPRs never limit. */
static int64_t llvm_min_sgprs(const gpuocc_device *d, const struct amd_view *v, int64_t waves)
{
    if (d->sgprs_per_simd == 0 || waves >= d->waves_per_simd)
        return 0;
    int64_t budget = d->sgprs_per_simd / (waves + 1), granule = amd_sgpr_granule(d);
    budget -= v->trap ? amd_min(budget, AMD_TRAP_SGPRS) : 0;
    return amd_min(budget / granule * granule + 1, amd_sgprs_addressable(d));
}

/* The flat workgroup size range LLVM compiled for: the maximum (max_threads_per_block, else the launch's
   block) and the minimum (flat_workgroup_size_min, else 1 with a maximum given, else the launch's block). */
static void llvm_flat_range(const gpuocc_kernel *k, int64_t *lo, int64_t *hi)
{
    *hi = k->max_threads_per_block > 0 ? k->max_threads_per_block : k->threads_per_block;
    *lo = k->max_threads_per_block == 0 ? k->threads_per_block
          : k->flat_workgroup_size_min > 0 ? k->flat_workgroup_size_min
                                            : 1;
}

/* LLVM 19's occupancy from LDS and the flat maximum (getOccupancyWithLocalMemSize): the static LDS
   unrounded. */
static int64_t llvm19_lds_waves(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v,
                                int64_t flat_max)
{
    int64_t waves_per_wg = gpuocc_div_up(flat_max, v->wave);
    int64_t lds = k->smem_static_bytes > 0 ? k->smem_static_bytes : 1;
    int64_t groups = d->smem_per_sm_bytes * v->cus / lds;
    if (groups == 0)
        return 1;
    groups = amd_min(groups, llvm_workgroups(d, v, waves_per_wg));
    return amd_min(gpuocc_div_up(groups * waves_per_wg, v->simds), d->waves_per_simd);
}

/* Today's occupancy from LDS and the flat range (LLVM 20 and later, getOccupancyWithWorkGroupSizes): the
   best case over every workgroup size of [lo, hi], the static LDS rounded up to its granule. */
static int64_t llvm_range_waves(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v,
                                int64_t lo, int64_t hi)
{
    int64_t lds = amd_round_up(k->smem_static_bytes > 0 ? k->smem_static_bytes : 1, d->smem_alloc_unit_bytes);
    int64_t lds_groups = d->smem_per_sm_bytes * v->cus / lds;
    if (lds_groups == 0)
        return 1;
    int64_t slots = d->waves_per_simd * v->simds;
    /* the smallest workgroups: most of them, fewest waves each; the largest: the reverse */
    int64_t min_waves_per_wg = gpuocc_div_up(lo, v->wave), max_waves_per_wg = gpuocc_div_up(hi, v->wave);
    int64_t max_groups = amd_min(llvm_workgroups(d, v, min_waves_per_wg), lds_groups);
    int64_t min_groups = amd_min(llvm_workgroups(d, v, max_waves_per_wg), lds_groups);
    int64_t most = max_groups * min_waves_per_wg, fewest = min_groups * max_waves_per_wg;
    if (fewest >= most) {
        most = fewest;
    } else if (max_groups > 0) {
        /* a workgroup size between the two may hold as many workgroups with more waves each */
        int64_t left_per_wg = (slots - max_groups * min_waves_per_wg) / max_groups;
        most += max_groups * amd_min(left_per_wg, max_waves_per_wg - min_waves_per_wg);
    }
    return amd_clamp(gpuocc_div_up(most, v->simds), 1, d->waves_per_simd);
}

/* Waves per SIMD the LDS and the flat workgroup sizes allow, as the kernel's LLVM counts them. */
static int64_t llvm_workgroup_waves(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v)
{
    int64_t lo, hi;
    llvm_flat_range(k, &lo, &hi);
    return v->llvm19 ? llvm19_lds_waves(d, k, v, hi) : llvm_range_waves(d, k, v, lo, hi);
}

/* The waves per SIMD amdgpu-waves-per-eu bounds the compiler to (getEffectiveWavesPerEU's maximum), 0 when
   none is asked or LLVM refuses the request.  Refused: a minimum below one workgroup of the flat maximum
   spread over the SIMDs, a maximum above the most waves, a minimum above the maximum (today's LLVM also: a
   minimum above what LDS and the flat workgroup sizes allow, `workgroup_waves`, which also caps the maximum).
   LLVM's default bound (no request) never changes an answer and is not applied: docs/amd.md. */
static int64_t llvm_waves_per_eu_max(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v,
                                     int64_t workgroup_waves)
{
    if (k->waves_per_eu_min == 0 && k->waves_per_eu_max == 0)
        return 0;
    int64_t lo, hi, most = d->waves_per_simd;
    llvm_flat_range(k, &lo, &hi);
    int64_t implied = gpuocc_div_up(gpuocc_div_up(hi, v->wave), v->simds);
    /* a maximum alone reads as amdgpu_waves_per_eu(1, MAX); a minimum alone asks for up to the most waves */
    int64_t want_min = k->waves_per_eu_min > 0 ? k->waves_per_eu_min : 1;
    int64_t want_max = k->waves_per_eu_max > 0 ? k->waves_per_eu_max : most;
    if (!v->llvm19)
        implied = amd_min(implied, workgroup_waves);
    bool refused = want_min > want_max || want_max > most || want_min < implied ||
                   (!v->llvm19 && want_min > workgroup_waves);
    if (refused)
        return 0;
    return v->llvm19 ? want_max : amd_min(want_max, workgroup_waves);
}

/* LLVM's "Occupancy [waves/SIMD]": LDS and the flat workgroup sizes, then the VGPRs and SGPRs each wave is
   given (at least LLVM's minimum for the waves-per-EU bound). */
static int32_t llvm_waves_per_simd(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v)
{
    int64_t waves = llvm_workgroup_waves(d, k, v);
    int64_t limits[] = {d->waves_per_simd, llvm_vgpr_waves(d, v, v->llvm_vgprs),
                        llvm_sgpr_waves(d, v, v->llvm_sgprs)};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        waves = limits[i] < waves ? limits[i] : waves;
    return (int32_t)waves;
}

/* The kernel's view: its wave size and the SIMDs, CUs and LDS its workgroup spans; the registers each model
   charges (the compiler's raised to LLVM's minimum for the waves-per-EU bound, HIP's as the code object
   records them). */
static struct amd_view amd_view_of(const gpuocc_device *d, const gpuocc_kernel *k)
{
    struct amd_view v;
    v.wave = k->wave_size ? k->wave_size : d->warp_size;
    v.scale = v.wave == 32 ? 2 : 1;
    v.cus = (d->cus_per_wgp > 1 && !k->cu_mode) ? d->cus_per_wgp : 1;
    v.simds = d->simds_per_cu * v.cus;
    v.waves_per_wg = gpuocc_div_up(k->threads_per_block, v.wave);
    v.lds = gpuocc_sat_add(k->smem_static_bytes, k->smem_dynamic_bytes);
    v.dvgpr = k->model == GPUOCC_MODEL_RUNTIME ? 0 : k->dvgpr;
    v.llvm19 = k->model == GPUOCC_MODEL_LLVM19;
    v.trap = k->trap_handler >= 0;
    /* the compiler's figures: at least the registers LLVM gives a wave for the waves-per-EU bound */
    int64_t bound = 0;
    if (k->waves_per_eu_min | k->waves_per_eu_max)
        bound = llvm_waves_per_eu_max(d, k, &v, v.llvm19 ? d->waves_per_simd : llvm_workgroup_waves(d, k, &v));
    int64_t vgprs = amd_total_vgprs(d, k), vgpr_floor = bound ? llvm_min_vgprs(d, &v, bound) : 0;
    int64_t sgpr_floor = bound ? llvm_min_sgprs(d, &v, bound) : 0;
    v.llvm_vgprs = vgprs > vgpr_floor ? vgprs : vgpr_floor;
    v.llvm_sgprs = k->sgprs > sgpr_floor ? k->sgprs : sgpr_floor;
    bool runtime = k->model == GPUOCC_MODEL_RUNTIME;
    v.vgprs = runtime ? vgprs : v.llvm_vgprs;
    v.sgprs = runtime ? k->sgprs : v.llvm_sgprs;
    /* today's compiler model charges LDS in whole allocation granules; LLVM 19 and HIP as asked */
    v.lds_charged = k->model == GPUOCC_MODEL_COMPILER || k->model == GPUOCC_MODEL_DEFAULT
                        ? amd_round_up(v.lds, d->smem_alloc_unit_bytes)
                        : v.lds;
    return v;
}

/* ---- the runtime (HIP, ihipOccupancyMaxActiveBlocksPerMultiprocessor; A3, A10, A11) ---- */

/*
 * HIP's rules by ROCm release (major * 100 + minor).  0 is the newest source read (rocm-systems with the
 * 2026 LDS fixes, A10, A11); releases from 7.0 use comgr's VGPR table (A6); older ones the hard-coded
 * switch and one workgroup's LDS limit as the budget (A3, A4).  Which release first ships the LDS fixes is
 * not known from the sources, so only 0 applies them (docs/amd.md).
 */
struct hip_rules {
    bool comgr_vgprs;    /* VGPR file and granule from comgr's table, not the old switch */
    bool lds_per_cu;     /* LDS budget localMemSizePerCU_, not one workgroup's limit (A10) */
    bool gfx11_wgp_lds;  /* gfx11 in WGP mode counts the WGP's LDS (A11); a workgroup still may use 64 KiB */
    bool trap_sgprs;     /* a wave's SGPRs include the trap handler's 16 when it is on (A15) */
};

#define ROCM_COMGR_VGPRS 700

static struct hip_rules hip_rules_for(int32_t rocm)
{
    struct hip_rules r;
    r.comgr_vgprs = rocm == 0 || rocm >= ROCM_COMGR_VGPRS;
    r.lds_per_cu = rocm == 0;
    r.gfx11_wgp_lds = rocm == 0;
    /* rocm-systems#10618 (merged August 2026): no release shipping it could be confirmed (docs/amd.md) */
    r.trap_sgprs = rocm == 0;
    return r;
}

/* Waves per SIMD HIP allows for the registers; 0 when it cannot place one. */
static int64_t hip_register_waves(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v,
                                  const struct hip_rules *rules, int64_t *sgpr_waves)
{
    int64_t total = rules->comgr_vgprs ? d->vgprs_per_simd : d->runtime_vgprs_legacy;
    int64_t granule = rules->comgr_vgprs ? d->runtime_vgpr_granule : d->runtime_vgpr_granule_legacy;
    total *= v->scale, granule *= v->scale;
    int64_t trap = rules->trap_sgprs && v->trap ? AMD_TRAP_SGPRS : 0;
    *sgpr_waves = (k->sgprs > 0 && d->sgprs_per_simd > 0)
                      ? d->sgprs_per_simd / (amd_round_up(k->sgprs, amd_sgpr_granule(d)) + trap)
                      : -1;
    if (v->vgprs == 0)
        return -1;
    return granule > 0 ? total / amd_round_up(v->vgprs, granule) : 0;
}

static int64_t hip_lds_budget(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v,
                              const struct hip_rules *rules)
{
    int64_t budget = rules->lds_per_cu ? d->smem_per_sm_bytes : d->smem_per_block_bytes;
    if (rules->gfx11_wgp_lds && d->cc_major == 11 && !k->cu_mode)
        budget *= v->cus;
    return budget;
}

/* ---- both ---- */

static int32_t amd_limit_of(int64_t blocks)
{
    return blocks < 0 ? GPUOCC_NO_LIMIT : gpuocc_clamp_i32(blocks);
}

/* Blocks that `waves` waves per SIMD hold; -1 (no limit) stays. */
static int64_t blocks_of_waves(int64_t waves, const struct amd_view *v)
{
    return waves < 0 ? -1 : waves * v->simds / v->waves_per_wg;
}

/* The LDS per CU (or WGP) the model divides among workgroups. */
static int64_t amd_lds_budget(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v)
{
    if (k->model == GPUOCC_MODEL_RUNTIME) {
        struct hip_rules rules = hip_rules_for(k->rocm_version);
        return hip_lds_budget(d, k, v, &rules);
    }
    return d->smem_per_sm_bytes * v->cus;
}

/* Workgroups with barriers per CU (or WGP): LLVM's cap, which HIP does not apply. */
static int32_t amd_barrier_cap(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v)
{
    if (k->model == GPUOCC_MODEL_RUNTIME)
        return GPUOCC_NO_LIMIT;
    return amd_limit_of((int64_t)d->barriers_per_sm * v->cus);
}

/* The most threads a workgroup of the kernel may have: the device's, or the flat workgroup maximum the
   kernel was compiled for when smaller. */
static int64_t amd_threads_max(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return gpuocc_bounded(d->max_threads_per_block, k->max_threads_per_block);
}

/* Every resource's limit in blocks (GPUOCC_NO_LIMIT where it cannot limit), indexed GPUOCC_RESOURCE_*. */
static void amd_limits_of(const gpuocc_device *d, const gpuocc_kernel *k, const struct amd_view *v,
                          int32_t limits[GPUOCC_AMD_LIMITS], int64_t *slots)
{
    if (k->model == GPUOCC_MODEL_RUNTIME) {
        struct hip_rules rules = hip_rules_for(k->rocm_version);
        int64_t sgpr_waves, vgpr_waves = hip_register_waves(d, k, v, &rules, &sgpr_waves);
        /* HIP counts threads: waves x wave size over the block rounded up to whole waves */
        *slots = d->runtime_waves_per_simd;
        limits[GPUOCC_RESOURCE_WARPS] = amd_limit_of(blocks_of_waves(*slots, v));
        limits[GPUOCC_RESOURCE_REGISTERS] = amd_limit_of(blocks_of_waves(vgpr_waves, v));
        limits[GPUOCC_RESOURCE_SGPRS] = amd_limit_of(blocks_of_waves(sgpr_waves, v));
        limits[GPUOCC_RESOURCE_SMEM] = v->lds ? amd_limit_of(hip_lds_budget(d, k, v, &rules) / v->lds) : GPUOCC_NO_LIMIT;
        limits[GPUOCC_RESOURCE_BARRIERS] = GPUOCC_NO_LIMIT;
    } else {
        *slots = d->waves_per_simd;
        limits[GPUOCC_RESOURCE_WARPS] = amd_limit_of(blocks_of_waves(*slots, v));
        /* dynamic VGPRs: no static limit (A13) */
        limits[GPUOCC_RESOURCE_REGISTERS] = v->vgprs && !v->dvgpr
                                                ? amd_limit_of(blocks_of_waves(llvm_vgpr_waves(d, v, v->vgprs), v))
                                                : GPUOCC_NO_LIMIT;
        limits[GPUOCC_RESOURCE_SGPRS] = (v->sgprs && d->sgprs_per_simd)
                                            ? amd_limit_of(blocks_of_waves(llvm_sgpr_waves(d, v, v->sgprs), v))
                                            : GPUOCC_NO_LIMIT;
        limits[GPUOCC_RESOURCE_SMEM] = v->lds ? amd_limit_of(d->smem_per_sm_bytes * v->cus / v->lds_charged)
                                              : GPUOCC_NO_LIMIT;
        limits[GPUOCC_RESOURCE_BARRIERS] = v->waves_per_wg > 1 ? amd_barrier_cap(d, k, v) : GPUOCC_NO_LIMIT;
    }
    limits[GPUOCC_RESOURCE_BLOCKS] = GPUOCC_NO_LIMIT;
    /* a block larger than the device allows or than the flat workgroup maximum the kernel was compiled for
       (HIP refuses the launch), or with more VGPRs than a lane can address, never runs */
    if (k->threads_per_block > amd_threads_max(d, k))
        limits[GPUOCC_RESOURCE_WARPS] = 0;
    /* nor does one with more LDS (static + dynamic) than one workgroup may use, in every model: LLVM's
       addressable LDS; HIP's localMemSize_, the quotient's numerator in every HIP source read, whose launch
       refuses more, so that a larger budget (the WGP's 128 KiB on gfx11) never lets a larger workgroup in
       (docs/amd.md) */
    if (v->lds > d->smem_per_block_bytes)
        limits[GPUOCC_RESOURCE_SMEM] = 0;
    if (k->regs_per_thread > d->regs_per_thread_max || k->agprs > d->regs_per_thread_max)
        limits[GPUOCC_RESOURCE_REGISTERS] = 0;
    /* dynamic VGPRs: at most 8 blocks are addressable, 128 or 256 VGPRs (A13) */
    if (v->dvgpr && v->vgprs > GPUOCC_AMD_DVGPR_BLOCKS * v->dvgpr)
        limits[GPUOCC_RESOURCE_REGISTERS] = 0;
}

static void amd_limits(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *limits)
{
    struct amd_view v = amd_view_of(d, k);
    int64_t slots;
    amd_limits_of(d, k, &v, limits, &slots);
}

_Static_assert(GPUOCC_AMD_LIMITS <= GPUOCC_VECTOR_LIMITS_MAX, "the searches hold every limit");
const struct gpuocc_limit_vector *gpuocc_amd_vector(void)
{
    static const struct gpuocc_limit_vector vector = {
        .count = GPUOCC_AMD_LIMITS, .limits = amd_limits, .unit = gpuocc_amd_wave_size, .grf_default = 0};
    return &vector;
}

int64_t gpuocc_amd_lds_per_cu(const gpuocc_device *d, const gpuocc_kernel *k)
{
    struct amd_view v = amd_view_of(d, k);
    return amd_lds_budget(d, k, &v);
}

int32_t gpuocc_amd_barrier_cap(const gpuocc_device *d, const gpuocc_kernel *k)
{
    struct amd_view v = amd_view_of(d, k);
    return amd_barrier_cap(d, k, &v);
}

int64_t gpuocc_amd_wave_size(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return k->wave_size ? k->wave_size : d->warp_size;
}

/* VGPRs one lane is given: `charged` rounded up to LLVM's granule (wave32 doubles it); < 2^33. */
static int64_t amd_vgprs_allocated(const gpuocc_device *d, const struct amd_view *v, int64_t charged)
{
    /* in dynamic-VGPR mode the granule is the block size (A13) */
    return amd_round_up(charged, v->dvgpr ? v->dvgpr : d->vgpr_granule * v->scale);
}

int64_t gpuocc_amd_regs_per_wave(const gpuocc_device *d, const gpuocc_kernel *k)
{
    struct amd_view v = amd_view_of(d, k);
    return amd_vgprs_allocated(d, &v, v.vgprs) * v.wave;
}

/* The input over a limit of a launch that fits no workgroup (limits: its limits; NULL when it fits one):
   threads over the largest workgroup (the device's, or the kernel's flat maximum), VGPRs (or AGPRs, when the
   larger) over the most per lane with which one workgroup gets its registers (what a lane addresses, and
   what the SIMDs' files give the workgroup's waves: the register limit itself, bisected), LDS over what one
   workgroup may use, SGPRs over what one SIMD gives one wave. */
static void amd_exceeded(const gpuocc_device *d, const gpuocc_kernel *k, const int32_t *limits, gpuocc_result *r)
{
    int32_t input = GPUOCC_INPUT_NONE;
    int64_t limit = 0;
    if (!limits) {
    } else if (limits[GPUOCC_RESOURCE_WARPS] == 0) {
        input = GPUOCC_INPUT_THREADS;
        limit = amd_threads_max(d, k);
    } else if (limits[GPUOCC_RESOURCE_REGISTERS] == 0) {
        bool agprs = k->regs_per_thread < k->agprs;
        input = agprs ? GPUOCC_INPUT_AGPRS : GPUOCC_INPUT_REGS;
        int64_t room = gpuocc_vector_room(gpuocc_amd_vector(), d, k,
                                          agprs ? GPUOCC_RESOURCE_AGPRS : GPUOCC_RESOURCE_REGISTERS,
                                          GPUOCC_RESOURCE_REGISTERS, d->regs_per_thread_max);
        limit = room > 0 ? room : 0;
    } else if (limits[GPUOCC_RESOURCE_SMEM] == 0) {
        gpuocc_vector_smem_exceeded(d, k, &input, &limit);
    } else if (limits[GPUOCC_RESOURCE_SGPRS] == 0) {
        input = GPUOCC_INPUT_SGPRS;
        limit = d->sgprs_per_simd;
    }
    r->exceeded = input;
    r->reserved3 = 0;
    r->exceeded_limit = limit;
}

void gpuocc_amd_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    struct amd_view v = amd_view_of(d, k);
    bool runtime = k->model == GPUOCC_MODEL_RUNTIME;
    int32_t limits[GPUOCC_AMD_LIMITS];
    int64_t slots;
    amd_limits_of(d, k, &v, limits, &slots);

    int32_t blocks = gpuocc_vector_answer(gpuocc_amd_vector(), limits, v.waves_per_wg, slots * v.simds, r);
    /* bounded: at most 2^20 VGPRs x 64 lanes x 2^26 waves */
    int64_t charged = v.vgprs < (1 << 20) ? v.vgprs : (1 << 20);
    r->regs_per_block = gpuocc_clamp_i32(amd_vgprs_allocated(d, &v, charged) * v.wave * v.waves_per_wg);
    r->smem_per_block_bytes = v.lds_charged;
    r->smem_per_sm_bytes = amd_lds_budget(d, k, &v);
    r->model = runtime ? GPUOCC_MODEL_RUNTIME : v.llvm19 ? GPUOCC_MODEL_LLVM19 : GPUOCC_MODEL_COMPILER;
    r->waves_per_simd = llvm_waves_per_simd(d, k, &v);
    r->workgroups_per_gpu = 0;
    r->limit_virtual_resources = GPUOCC_UNLIMITED; /* NVIDIA's */
    r->reserved2 = 0;
    amd_exceeded(d, k, blocks == 0 ? limits : NULL, r);
}

/* ---- checks ---- */

#define SMALL_MAX (1 << 20)

static bool amd_in_range(int64_t v, int64_t lo, int64_t hi)
{
    return v >= lo && v <= hi;
}

static bool amd_wave_ok(int32_t wave_sizes, int64_t wave)
{
    return (wave == 32 || wave == 64) && (wave_sizes & wave) != 0;
}

int32_t gpuocc_amd_check_device(const gpuocc_device *d)
{
    bool legacy_ok = (d->runtime_vgprs_legacy == 0 && d->runtime_vgpr_granule_legacy == 0) ||
                     (amd_in_range(d->runtime_vgprs_legacy, 1, 65536) &&
                      amd_in_range(d->runtime_vgpr_granule_legacy, 1, d->runtime_vgprs_legacy));
    /* The NVIDIA-only fields the shared searches read must be neutral: no reserved bytes, no carveouts. */
    bool ok = amd_in_range(d->cc_major, 0, 1000) && amd_in_range(d->cc_minor, 0, 0xff) &&
              amd_in_range(d->sm_count, 0, SMALL_MAX) &&
              (d->wave_sizes == 64 || d->wave_sizes == 32 || d->wave_sizes == (32 | 64)) &&
              amd_wave_ok(d->wave_sizes, d->warp_size) && amd_in_range(d->max_threads_per_block, 1, SMALL_MAX) &&
              amd_in_range(d->simds_per_cu, 1, 64) && amd_in_range(d->waves_per_simd, 1, 64) &&
              amd_in_range(d->runtime_waves_per_simd, 1, 64) && amd_in_range(d->vgprs_per_simd, 1, 65536) &&
              amd_in_range(d->vgpr_granule, 1, d->vgprs_per_simd) &&
              amd_in_range(d->runtime_vgpr_granule, 1, d->vgprs_per_simd) && legacy_ok &&
              amd_in_range(d->agpr_file, GPUOCC_AGPR_NONE, GPUOCC_AGPR_UNIFIED) &&
              amd_in_range(d->sgprs_per_simd, 0, 65536) && amd_in_range(d->cus_per_wgp, 1, 8) &&
              amd_in_range(d->regs_per_thread_max, 1, 65536) && amd_in_range(d->barriers_per_sm, 1, SMALL_MAX) &&
              amd_in_range(d->smem_per_sm_bytes, 0, (int64_t)1 << 40) &&
              amd_in_range(d->smem_per_block_bytes, 0, d->smem_per_sm_bytes) &&
              amd_in_range(d->smem_per_block_optin_bytes, d->smem_per_block_bytes, (int64_t)1 << 40) &&
              d->smem_reserved_per_block_bytes == 0 && amd_in_range(d->smem_alloc_unit_bytes, 1, SMALL_MAX) &&
              d->carveout_count == 0 && gpuocc_device_zero_from(d, offsetof(gpuocc_device, xves_per_xecore));
    for (int32_t i = 0; ok && i < GPUOCC_MAX_CARVEOUTS; i++)
        ok = d->carveouts_kib[i] == 0;
    return ok ? GPUOCC_OK : GPUOCC_ERR_DEVICE;
}

int32_t gpuocc_amd_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    *limit = 0;
    if (k->wave_size != 0 && !amd_wave_ok(d->wave_sizes, k->wave_size))
        return *input = GPUOCC_INPUT_WAVE_SIZE, GPUOCC_ERR_ARGUMENT;
    if (k->agprs > 0 && d->agpr_file == GPUOCC_AGPR_NONE)
        return *input = GPUOCC_INPUT_AGPRS, GPUOCC_ERR_ARGUMENT;
    /* Intel's models would be read as the compiler's */
    if (k->model > GPUOCC_MODEL_RUNTIME && k->model != GPUOCC_MODEL_LLVM19)
        return *input = GPUOCC_INPUT_MODEL, GPUOCC_ERR_ARGUMENT;
    /* a ROCm release picks the release of HIP's rules: the runtime model's input only */
    if (k->rocm_version != 0 && k->model != GPUOCC_MODEL_RUNTIME)
        return *input = GPUOCC_INPUT_ROCM, GPUOCC_ERR_ARGUMENT;
    /* amdgpu_waves_per_eu(MIN, MAX) with MIN above MAX is no kernel's (clang rejects the attribute); its
       limit: the maximum */
    if (k->waves_per_eu_max != 0 && k->waves_per_eu_min > k->waves_per_eu_max)
        return *limit = k->waves_per_eu_max, *input = GPUOCC_INPUT_WAVES_PER_EU, GPUOCC_ERR_ARGUMENT;
    /* a flat workgroup minimum needs the maximum it bounds, and may not pass it (LLVM would drop the range) */
    if (k->flat_workgroup_size_min > 0 &&
        (k->max_threads_per_block == 0 || k->flat_workgroup_size_min > k->max_threads_per_block))
        return *limit = k->max_threads_per_block, *input = GPUOCC_INPUT_FLAT_WORKGROUP_SIZE, GPUOCC_ERR_ARGUMENT;
    /* the other vendors' fields: NVIDIA's virtual resources and tensor memory (the device has none),
       Intel's sub-group and GRF */
    if (k->virtual_resources != 0)
        return *input = GPUOCC_INPUT_VIRTUAL_RESOURCES, GPUOCC_ERR_ARGUMENT;
    if (k->tmem_columns != 0)
        return *input = GPUOCC_INPUT_TMEM_COLUMNS, GPUOCC_ERR_TMEM;
    if (k->sub_group != 0)
        return *input = GPUOCC_INPUT_SUB_GROUP, GPUOCC_ERR_ARGUMENT;
    if (k->grf != 0)
        return *input = GPUOCC_INPUT_GRF, GPUOCC_ERR_ARGUMENT;
    /* dynamic VGPRs: gfx12, wave32, today's compiler model (LLVM's amdgpu-dynamic-vgpr-block-size, which
       LLVM 19 did not have; A13) */
    if (k->dvgpr != 0 && (d->cc_major != GPUOCC_AMD_DVGPR_GFX || gpuocc_amd_wave_size(d, k) != 32 ||
                          k->model == GPUOCC_MODEL_RUNTIME || k->model == GPUOCC_MODEL_LLVM19))
        return *input = GPUOCC_INPUT_DVGPR, GPUOCC_ERR_ARGUMENT;
    /* NVIDIA's carveout, opt-in and opt-in maximum away from gpuocc_kernel_init's values: no input names
       them, so they come after every refusal that names one */
    *input = GPUOCC_INPUT_NONE;
    return gpuocc_carveout_inputs_unset(k) ? GPUOCC_OK : GPUOCC_ERR_ARGUMENT;
}
