/*
 * Intel's rules, per Xe-core, in two models (docs/intel.md has them with their sources):
 *
 * The calculator (GPUOCC_MODEL_CALCULATOR, the default): Intel's GPU Occupancy Calculator.  A work-group
 * of W work-items in sub-groups of S runs ceil(W / S) hardware threads; an Xe-core holds
 * xves_per_xecore x threads_per_xve of them, half as many in large-GRF mode (more than 128 registers);
 * its SLM is divided among work-groups whose SLM is rounded up to the allowed sizes; it caps the
 * work-groups (max_blocks_per_sm), or, when the kernel uses barriers, the barrier registers
 * (barriers_per_sm).  Occupancy counts the threads of the resident work-groups over all the Xe-core's
 * threads, in large-GRF mode too.
 *
 * The runtime (GPUOCC_MODEL_INTEL_RUNTIME): the compute runtime's KernelHelper::getMaxWorkGroupCount,
 * the count a cooperative launch may use.  Threads per XVE from its GRF table (grf_table), at most the
 * hardware's; the SLM per Xe-core it programs (smem_per_block_bytes) over the SLM rounded up to its own
 * sizes; its barrier registers (runtime_barriers_per_xecore) over the kernel's barrier count; no
 * work-group cap.  Its GPU-wide answer divides the whole GPU's SLM, not each Xe-core's
 * (workgroups_per_gpu).
 */
#include "intel.h"

#define KIB 1024

/* What a kernel asks of an Xe-core. */
struct intel_view {
    bool runtime;
    int64_t sub_group;
    int64_t grf;
    int64_t threads_per_wg;  /* hardware threads of one work-group: ceil(work-items / sub-group) */
    int64_t slm;             /* static + dynamic SLM, bytes */
    int64_t slm_rounded;     /* rounded up to an allowed size; -1 when none holds it */
    int64_t threads_per_xve; /* in the kernel's GRF mode, as the model counts them */
};

/* The kernel's sub-group size: its own, or the device's default. */
static int64_t intel_sub_group(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return k->sub_group ? k->sub_group : d->warp_size;
}

/* The smallest allowed size that holds `bytes` (0 stays 0); -1 when none does. */
static int64_t intel_round_slm(const int32_t sizes_kib[GPUOCC_MAX_SLM_SIZES], int64_t bytes)
{
    if (bytes == 0)
        return 0;
    for (int32_t i = 0; i < GPUOCC_MAX_SLM_SIZES && sizes_kib[i] > 0; i++)
        if (bytes <= (int64_t)sizes_kib[i] * KIB)
            return (int64_t)sizes_kib[i] * KIB;
    return -1;
}

/* Threads per XVE the runtime counts at a GRF count (calculateAvailableThreadCount), at most the hardware's. */
static int64_t runtime_threads_per_xve(const gpuocc_device *d, int64_t grf)
{
    int64_t t;
    if (d->grf_table == GPUOCC_GRF_TABLE_XE3)
        t = grf <= 96 ? 10 : grf <= 128 ? 8 : grf <= 160 ? 6 : grf <= 192 ? 5 : grf <= 256 ? 4 : 1;
    else /* the base table: 4 at the large GRF's 256 registers exactly, else 8 (GrfConfig::largeGrfNumber) */
        t = grf == 256 ? 4 : 8;
    return t < d->threads_per_xve ? t : d->threads_per_xve;
}

static struct intel_view intel_view_of(const gpuocc_device *d, const gpuocc_kernel *k)
{
    struct intel_view v;
    v.runtime = k->model == GPUOCC_MODEL_INTEL_RUNTIME;
    v.sub_group = intel_sub_group(d, k);
    v.grf = k->grf ? k->grf : GPUOCC_INTEL_GRF_DEFAULT;
    v.threads_per_wg = gpuocc_div_up(k->threads_per_block, v.sub_group);
    v.slm = gpuocc_sat_add(k->smem_static_bytes, k->smem_dynamic_bytes);
    v.slm_rounded = intel_round_slm(v.runtime ? d->runtime_slm_sizes_kib : d->slm_sizes_kib, v.slm);
    if (v.runtime)
        v.threads_per_xve = runtime_threads_per_xve(d, v.grf);
    else /* large-GRF mode halves the Xe-core's threads */
        v.threads_per_xve = v.grf > 128 ? d->threads_per_xve / 2 : d->threads_per_xve;
    return v;
}

static int32_t intel_limit_of(int64_t blocks)
{
    return gpuocc_clamp_i32(blocks);
}

static int64_t intel_slm_budget(const gpuocc_device *d, const struct intel_view *v)
{
    /* the runtime programs maxProgrammableSlmSize per Xe-core; the calculator counts the Xe-core's SLM */
    return v->runtime ? d->smem_per_block_bytes : d->smem_per_sm_bytes;
}

/* The most threads a work-group of the kernel may have: the device's, or the kernel's own maximum
   (max_work_group_size) when smaller. */
static int64_t intel_threads_max(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return gpuocc_bounded(d->max_threads_per_block, k->max_threads_per_block);
}

static void intel_limits_of(const gpuocc_device *d, const gpuocc_kernel *k, const struct intel_view *v,
                            int32_t limits[GPUOCC_INTEL_LIMITS])
{
    int64_t all_threads = (int64_t)d->xves_per_xecore * d->threads_per_xve;
    limits[GPUOCC_RESOURCE_WARPS] = intel_limit_of(all_threads / v->threads_per_wg);
    /* the GRF mode limits only where it takes threads away */
    limits[GPUOCC_RESOURCE_REGISTERS] =
        v->threads_per_xve < d->threads_per_xve
            ? intel_limit_of((int64_t)d->xves_per_xecore * v->threads_per_xve / v->threads_per_wg)
            : GPUOCC_NO_LIMIT;
    if (v->slm == 0)
        limits[GPUOCC_RESOURCE_SMEM] = GPUOCC_NO_LIMIT;
    else if (v->slm_rounded < 0 || v->slm > d->smem_per_block_bytes)
        limits[GPUOCC_RESOURCE_SMEM] = 0; /* more than one work-group may have */
    else
        limits[GPUOCC_RESOURCE_SMEM] = intel_limit_of(intel_slm_budget(d, v) / v->slm_rounded);
    if (v->runtime) {
        limits[GPUOCC_RESOURCE_BLOCKS] = GPUOCC_NO_LIMIT;
        limits[GPUOCC_RESOURCE_BARRIERS] =
            k->barriers > 0 ? intel_limit_of(d->runtime_barriers_per_xecore / k->barriers) : GPUOCC_NO_LIMIT;
    } else {
        limits[GPUOCC_RESOURCE_BLOCKS] = d->max_blocks_per_sm;
        limits[GPUOCC_RESOURCE_BARRIERS] = k->barriers > 0 ? d->barriers_per_sm : GPUOCC_NO_LIMIT;
    }
    /* a work-group larger than the device or the kernel allows, or a GRF count it does not have, never runs */
    if (k->threads_per_block > intel_threads_max(d, k))
        limits[GPUOCC_RESOURCE_WARPS] = 0;
    if (v->grf > d->grf_max)
        limits[GPUOCC_RESOURCE_REGISTERS] = 0;
}

static void intel_limits(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *limits)
{
    struct intel_view v = intel_view_of(d, k);
    intel_limits_of(d, k, &v, limits);
}

_Static_assert(GPUOCC_INTEL_LIMITS <= GPUOCC_VECTOR_LIMITS_MAX, "the searches hold every limit");
const struct gpuocc_limit_vector *gpuocc_intel_vector(void)
{
    static const struct gpuocc_limit_vector vector = {
        .count = GPUOCC_INTEL_LIMITS, .limits = intel_limits, .unit = intel_sub_group, .grf_default = GPUOCC_INTEL_GRF_DEFAULT};
    return &vector;
}

int64_t gpuocc_intel_slm_per_workgroup(const gpuocc_device *d, const gpuocc_kernel *k)
{
    struct intel_view v = intel_view_of(d, k);
    return v.slm_rounded < 0 ? v.slm : v.slm_rounded;
}

int64_t gpuocc_intel_slm_per_xecore(const gpuocc_device *d, const gpuocc_kernel *k)
{
    struct intel_view v = intel_view_of(d, k);
    return intel_slm_budget(d, &v);
}

/* The runtime's GPU-wide count (getMaxWorkGroupCount, before the engine's adjustment): every Xe-core's
   threads at the GRF mode over a work-group's, no more than the Xe-cores times what one holds; the
   Xe-cores times the barrier registers over the barrier count; the whole GPU's SLM over the work-group's. */
static int64_t runtime_workgroups_per_gpu(const gpuocc_device *d, const gpuocc_kernel *k, const struct intel_view *v,
                                          const int32_t limits[GPUOCC_INTEL_LIMITS])
{
    if (limits[GPUOCC_RESOURCE_WARPS] == 0 || limits[GPUOCC_RESOURCE_REGISTERS] == 0 ||
        limits[GPUOCC_RESOURCE_SMEM] == 0)
        return 0;
    int64_t xecores = d->sm_count;
    int64_t threads_per_xecore = (int64_t)d->xves_per_xecore * v->threads_per_xve;
    int64_t count = xecores * threads_per_xecore / v->threads_per_wg;
    int64_t aligned = threads_per_xecore / v->threads_per_wg * xecores;
    count = aligned < count ? aligned : count;
    if (k->barriers > 0) {
        int64_t barrier = xecores * (d->runtime_barriers_per_xecore / k->barriers);
        count = barrier < count ? barrier : count;
    }
    if (v->slm > 0) {
        int64_t slm = xecores * d->smem_per_block_bytes / v->slm_rounded;
        count = slm < count ? slm : count;
    }
    return count;
}

void gpuocc_intel_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    struct intel_view v = intel_view_of(d, k);
    int32_t limits[GPUOCC_INTEL_LIMITS];
    intel_limits_of(d, k, &v, limits);
    int64_t all_threads = (int64_t)d->xves_per_xecore * d->threads_per_xve;
    int32_t blocks = gpuocc_vector_answer(gpuocc_intel_vector(), limits, v.threads_per_wg, all_threads, r);
    /* GRF registers of the work-group's threads (grf <= 1024, threads per work-group <= 2^20) */
    r->regs_per_block = gpuocc_clamp_i32(v.grf * v.threads_per_wg);
    r->smem_per_block_bytes = v.slm_rounded < 0 ? v.slm : v.slm_rounded;
    r->smem_per_sm_bytes = intel_slm_budget(d, &v);
    r->model = v.runtime ? GPUOCC_MODEL_INTEL_RUNTIME : GPUOCC_MODEL_CALCULATOR;
    r->waves_per_simd = 0;
    r->reserved0 = 0;
    r->workgroups_per_gpu = v.runtime ? runtime_workgroups_per_gpu(d, k, &v, limits) : (int64_t)blocks * d->sm_count;
    r->limit_virtual_resources = GPUOCC_UNLIMITED; /* NVIDIA's */
    r->reserved2 = 0;
    /* a launch that fits no work-group (docs/intel.md): the first input, in the order of GPUOCC_INPUT_*, whose
       own limit fits none, and the most of it with which one would: threads past the largest work-group (the
       device's or the kernel's) or past what an Xe-core's hardware threads hold, the GRF (past grf_max, or a
       mode whose fewer threads hold no work-group), SLM one work-group may have (the dynamic bytes named when
       there are any: what is left for them after the static), barriers (the runtime's per Xe-core) */
    int32_t input = GPUOCC_INPUT_NONE;
    int64_t limit = 0;
    if (blocks == 0) {
        const struct gpuocc_limit_vector *vector = gpuocc_intel_vector();
        if (limits[GPUOCC_RESOURCE_WARPS] == 0) {
            input = GPUOCC_INPUT_THREADS;
            limit = k->threads_per_block > intel_threads_max(d, k)
                        ? intel_threads_max(d, k)
                        : gpuocc_vector_room(vector, d, k, GPUOCC_RESOURCE_WARPS, GPUOCC_RESOURCE_WARPS,
                                             intel_threads_max(d, k));
        } else if (limits[GPUOCC_RESOURCE_REGISTERS] == 0) {
            input = GPUOCC_INPUT_GRF;
            limit = gpuocc_vector_room(vector, d, k, GPUOCC_RESOURCE_REGISTERS, GPUOCC_RESOURCE_REGISTERS, d->grf_max);
        } else if (limits[GPUOCC_RESOURCE_SMEM] == 0) {
            gpuocc_vector_smem_exceeded(d, k, &input, &limit);
        } else if (limits[GPUOCC_RESOURCE_BARRIERS] == 0) {
            input = GPUOCC_INPUT_BARRIERS;
            limit = gpuocc_vector_room(vector, d, k, GPUOCC_RESOURCE_BARRIERS, GPUOCC_RESOURCE_BARRIERS, INT32_MAX);
        }
        limit = limit > 0 ? limit : 0;
    }
    r->exceeded = input;
    r->reserved3 = 0;
    r->exceeded_limit = limit;
}

/* ---- checks ---- */

#define SMALL_MAX (1 << 20)

static bool intel_in_range(int64_t v, int64_t lo, int64_t hi)
{
    return v >= lo && v <= hi;
}

static bool intel_sub_group_ok(int32_t sizes, int64_t s)
{
    return (s == 8 || s == 16 || s == 32) && (sizes & s) != 0;
}

/* Ascending positive sizes, then zeros; at least one. */
static bool intel_sizes_ok(const int32_t sizes_kib[GPUOCC_MAX_SLM_SIZES])
{
    bool ended = false;
    for (int32_t i = 0; i < GPUOCC_MAX_SLM_SIZES; i++) {
        int32_t s = sizes_kib[i];
        if (ended || s == 0) {
            if (s != 0 || i == 0)
                return false;
            ended = true;
        } else if (!intel_in_range(s, 1, 1 << 20) || (i > 0 && s <= sizes_kib[i - 1])) {
            return false;
        }
    }
    return true;
}

int32_t gpuocc_intel_check_device(const gpuocc_device *d)
{
    /* another vendor's fields: zero (AMD's, NVIDIA's register file, carveouts and reserved bytes) */
    bool others_zero = !d->simds_per_cu && !d->waves_per_simd && !d->runtime_waves_per_simd && !d->vgprs_per_simd &&
                       !d->vgpr_granule && !d->runtime_vgpr_granule && !d->runtime_vgprs_legacy &&
                       !d->runtime_vgpr_granule_legacy && !d->agpr_file && !d->sgprs_per_simd && !d->cus_per_wgp &&
                       !d->wave_sizes && !d->regs_per_sm && !d->regs_per_block && !d->regs_per_thread_max &&
                       !d->reg_alloc_unit && !d->sub_partitions && !d->reg_compat_sub_partitions &&
                       !d->smem_reserved_per_block_bytes && !d->carveout_count && !d->barriers_per_block_max;
    for (int32_t i = 0; others_zero && i < GPUOCC_MAX_CARVEOUTS; i++)
        others_zero = d->carveouts_kib[i] == 0;
    bool ok = others_zero && intel_in_range(d->cc_major, 0, 1000) && intel_in_range(d->cc_minor, 0, 1000) &&
              intel_in_range(d->sm_count, 0, SMALL_MAX) && (d->sub_group_sizes & ~(8 | 16 | 32)) == 0 &&
              intel_sub_group_ok(d->sub_group_sizes, d->warp_size) &&
              intel_in_range(d->max_threads_per_block, 1, SMALL_MAX) && intel_in_range(d->xves_per_xecore, 1, 64) &&
              intel_in_range(d->threads_per_xve, 1, 64) &&
              d->max_threads_per_sm == d->xves_per_xecore * d->threads_per_xve &&
              intel_in_range(d->max_blocks_per_sm, 1, SMALL_MAX) &&
              intel_in_range(d->barriers_per_sm, 1, d->max_blocks_per_sm) &&
              intel_in_range(d->runtime_barriers_per_xecore, 1, SMALL_MAX) &&
              intel_in_range(d->grf_max, 128, GPUOCC_GRF_MAX) &&
              intel_in_range(d->grf_table, GPUOCC_GRF_TABLE_TWO_MODES, GPUOCC_GRF_TABLE_XE3) &&
              intel_in_range(d->smem_per_sm_bytes, 0, (int64_t)1 << 40) &&
              intel_in_range(d->smem_per_block_bytes, 0, d->smem_per_sm_bytes) &&
              d->smem_per_block_optin_bytes == d->smem_per_block_bytes && d->smem_alloc_unit_bytes == KIB &&
              intel_sizes_ok(d->slm_sizes_kib) && intel_sizes_ok(d->runtime_slm_sizes_kib) &&
              gpuocc_device_zero_from(d, offsetof(gpuocc_device, virtual_resources_per_sm));
    return ok ? GPUOCC_OK : GPUOCC_ERR_DEVICE;
}

int32_t gpuocc_intel_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    *limit = 0;
    if (k->sub_group != 0 && !intel_sub_group_ok(d->sub_group_sizes, k->sub_group))
        return *input = GPUOCC_INPUT_SUB_GROUP, GPUOCC_ERR_ARGUMENT;
    /* AMD's models would be read as the calculator */
    if (k->model != GPUOCC_MODEL_DEFAULT && k->model != GPUOCC_MODEL_CALCULATOR &&
        k->model != GPUOCC_MODEL_INTEL_RUNTIME)
        return *input = GPUOCC_INPUT_MODEL, GPUOCC_ERR_ARGUMENT;
    /* the other vendors' fields: NVIDIA's virtual resources and tensor memory (the device has none), AMD's
       AGPRs, SGPRs, wave size, CU mode, ROCm release, dynamic VGPRs and compiler inputs */
    if (k->virtual_resources != 0)
        return *input = GPUOCC_INPUT_VIRTUAL_RESOURCES, GPUOCC_ERR_ARGUMENT;
    if (k->tmem_columns != 0)
        return *input = GPUOCC_INPUT_TMEM_COLUMNS, GPUOCC_ERR_TMEM;
    *input = k->agprs          ? GPUOCC_INPUT_AGPRS
             : k->sgprs        ? GPUOCC_INPUT_SGPRS
             : k->wave_size    ? GPUOCC_INPUT_WAVE_SIZE
             : k->cu_mode      ? GPUOCC_INPUT_CU_MODE
             : k->rocm_version ? GPUOCC_INPUT_ROCM
             : k->dvgpr        ? GPUOCC_INPUT_DVGPR
             : k->trap_handler ? GPUOCC_INPUT_TRAP_HANDLER
             : (k->waves_per_eu_min | k->waves_per_eu_max) ? GPUOCC_INPUT_WAVES_PER_EU
             : k->flat_workgroup_size_min ? GPUOCC_INPUT_FLAT_WORKGROUP_SIZE
                               : GPUOCC_INPUT_NONE;
    /* then NVIDIA's carveout, opt-in and opt-in maximum away from gpuocc_kernel_init's values (no input names
       them); barriers are Intel's too (a barrier in use) */
    return *input != GPUOCC_INPUT_NONE || !gpuocc_carveout_inputs_unset(k) ? GPUOCC_ERR_ARGUMENT : GPUOCC_OK;
}
