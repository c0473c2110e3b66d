/*
 * AMD's inverse and search queries: registers allowed for N workgroups, LDS available, next step, best
 * workgroup size, and where a sweep's answer can change.  Each is defined through gpuocc_amd_limits, the
 * terms gpuocc_occupancy takes its minimum over (lib/amd/occupancy.c), so the answers agree with it for
 * either model.  Along each demand (VGPRs, LDS, SGPRs, threads) every term is non-increasing (LDS, VGPR and
 * SGPR terms fall as the demand grows; the wave-slot, VGPR, SGPR and barrier terms fall as a workgroup
 * gains waves), so "the largest value that still allows N" is found by bisection, never by a walk.
 */
#include "amd.h"

/* The demands a query can move. */
enum amd_demand { AMD_VGPRS, AMD_LDS_DYNAMIC, AMD_LDS_TOTAL, AMD_THREADS, AMD_SGPRS, AMD_BARRIERS };

static void amd_set(gpuocc_kernel *k, enum amd_demand demand, int64_t v)
{
    switch (demand) {
    case AMD_VGPRS: k->regs_per_thread = (int32_t)v; break;
    case AMD_LDS_DYNAMIC: k->smem_dynamic_bytes = v; break;
    case AMD_LDS_TOTAL:
        /* the static LDS is kept while it fits, as on NVIDIA */
        k->smem_static_bytes = k->smem_static_bytes < v ? k->smem_static_bytes : v;
        k->smem_dynamic_bytes = v - k->smem_static_bytes;
        break;
    case AMD_THREADS: k->threads_per_block = (int32_t)v; break;
    case AMD_SGPRS: k->sgprs = (int32_t)v; break;
    case AMD_BARRIERS: k->barriers = (int32_t)v; break;
    }
}

static int32_t amd_min_limit(const int32_t limits[GPUOCC_AMD_LIMITS])
{
    int32_t blocks = GPUOCC_NO_LIMIT;
    for (int32_t i = 0; i < GPUOCC_AMD_LIMITS; i++)
        blocks = limits[i] < blocks ? limits[i] : blocks;
    return blocks;
}

/* Blocks at `v`: all resources (resource < 0) or one resource's own term. */
static int32_t amd_at(const gpuocc_device *d, gpuocc_kernel k, enum amd_demand demand, int64_t v, int32_t resource)
{
    int32_t limits[GPUOCC_AMD_LIMITS];
    amd_set(&k, demand, v);
    gpuocc_amd_limits(d, &k, limits);
    return resource < 0 ? amd_min_limit(limits) : limits[resource];
}

/* The largest v in [lo, hi] at which at least `want` blocks fit (non-increasing in v); -1 if none. */
static int64_t amd_largest(const gpuocc_device *d, const gpuocc_kernel *k, enum amd_demand demand, int32_t resource,
                           int64_t lo, int64_t hi, int32_t want)
{
    if (hi < lo || amd_at(d, *k, demand, lo, resource) < want)
        return -1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2 + 1;
        if (amd_at(d, *k, demand, mid, resource) >= want)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int32_t amd_found(int64_t found, int64_t *out)
{
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *out = found;
    return GPUOCC_OK;
}

int32_t gpuocc_amd_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs)
{
    int64_t found;
    int32_t rc = amd_found(amd_largest(d, k, AMD_VGPRS, -1, 0, d->regs_per_thread_max, want), &found);
    if (!rc)
        *regs = (int32_t)found;
    return rc;
}

int32_t gpuocc_amd_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t *bytes)
{
    int64_t hi = d->smem_per_block_optin_bytes - k->smem_static_bytes;
    return amd_found(amd_largest(d, k, AMD_LDS_DYNAMIC, -1, 0, hi, want), bytes);
}

int32_t gpuocc_amd_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                             int64_t *shed)
{
    int32_t limits[GPUOCC_AMD_LIMITS];
    gpuocc_amd_limits(d, k, limits);
    int64_t target = (int64_t)amd_min_limit(limits) + 1;
    enum amd_demand demand;
    int64_t current, lo = 0, hi;
    switch (resource) {
    case GPUOCC_RESOURCE_REGISTERS:
        demand = AMD_VGPRS, current = k->regs_per_thread;
        hi = current < d->regs_per_thread_max ? current : d->regs_per_thread_max;
        break;
    case GPUOCC_RESOURCE_SMEM:
        demand = AMD_LDS_TOTAL, current = gpuocc_sat_add(k->smem_static_bytes, k->smem_dynamic_bytes), hi = current;
        if (current >= GPUOCC_BYTES_HUGE)
            return GPUOCC_ERR_OVERFLOW; /* a saturated total would give a made-up amount to shed */
        break;
    case GPUOCC_RESOURCE_WARPS:
        demand = AMD_THREADS, current = k->threads_per_block, lo = 1;
        hi = current < d->max_threads_per_block ? current : d->max_threads_per_block;
        break;
    case GPUOCC_RESOURCE_SGPRS:
        demand = AMD_SGPRS, current = k->sgprs, hi = current;
        break;
    case GPUOCC_RESOURCE_BARRIERS:
        /* LLVM's cap counts workgroups of more than one wave whatever their barriers: no count lifts it */
        if (limits[GPUOCC_RESOURCE_BARRIERS] < target)
            return GPUOCC_ERR_UNSATISFIABLE;
        *new_value = k->barriers, *shed = 0;
        return GPUOCC_OK;
    case GPUOCC_RESOURCE_BLOCKS:
        *new_value = GPUOCC_UNLIMITED, *shed = 0; /* no workgroup-slot cap */
        return GPUOCC_OK;
    default:
        return GPUOCC_ERR_RESOURCE;
    }
    if (limits[resource] >= target) {
        *new_value = current, *shed = 0;
        return GPUOCC_OK;
    }
    int64_t found = target > GPUOCC_NO_LIMIT ? -1 : amd_largest(d, k, demand, resource, lo, hi, (int32_t)target);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *new_value = found;
    *shed = current - found;
    return GPUOCC_OK;
}

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

int32_t gpuocc_amd_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                              int32_t *threads, int32_t *min_grid)
{
    int64_t limit = d->max_threads_per_block;
    if (k->max_threads_per_block > 0 && k->max_threads_per_block < limit)
        limit = k->max_threads_per_block;
    int64_t wave = gpuocc_amd_wave_size(d, k);
    int32_t best_threads = 0, best_blocks = 0;
    int64_t best_resident = 0;
    /* at most 1024 / 32 candidates: each is evaluated, so a callback is asked for every one, and a table's
       errors are met in the order of the walk */
    /* no candidate below the flat workgroup minimum the kernel was compiled for */
    for (int64_t aligned = gpuocc_round_up(limit, wave); aligned > 0; aligned -= wave) {
        int32_t candidate = (int32_t)(aligned < limit ? aligned : limit);
        if (candidate < k->flat_workgroup_size_min)
            break;
        int64_t smem = 0;
        int32_t rc = gpuocc_smem_rule_bytes(rule, candidate, &smem);
        if (rc)
            return rc;
        gpuocc_kernel at = *k;
        at.threads_per_block = candidate;
        at.smem_dynamic_bytes = smem;
        int32_t limits[GPUOCC_AMD_LIMITS];
        gpuocc_amd_limits(d, &at, limits);
        int32_t blocks = amd_min_limit(limits);
        int64_t resident = (int64_t)blocks * candidate;
        if (resident > best_resident) {
            best_resident = resident;
            best_threads = candidate;
            best_blocks = blocks;
        }
    }
    *threads = best_threads;
    *min_grid = gpuocc_clamp_i32((int64_t)best_blocks * d->sm_count);
    return GPUOCC_OK;
}

/* ---- sweeps ---- */

static enum amd_demand amd_axis_demand(int32_t axis)
{
    return axis == GPUOCC_AXIS_THREADS ? AMD_THREADS
           : axis == GPUOCC_AXIS_REGS  ? AMD_VGPRS
           : axis == GPUOCC_AXIS_SMEM  ? AMD_LDS_DYNAMIC
                                       : AMD_BARRIERS;
}

/* What decides the answer at `v` along the axis: every term capped at `cap` (one above the blocks at the
   sweep's current point: the blocks only fall along an axis, so larger values never decide), and the
   workgroup's waves.  Each component is monotone along every axis. */
struct amd_signature {
    int32_t limits[GPUOCC_AMD_LIMITS];
    int64_t waves;
};

static struct amd_signature amd_signature_at(const gpuocc_device *d, gpuocc_kernel k, enum amd_demand demand,
                                             int64_t v, int32_t cap)
{
    struct amd_signature s;
    amd_set(&k, demand, v);
    gpuocc_amd_limits(d, &k, s.limits);
    for (int32_t i = 0; i < GPUOCC_AMD_LIMITS; i++)
        s.limits[i] = s.limits[i] < cap ? s.limits[i] : cap;
    s.waves = gpuocc_div_up(k.threads_per_block, gpuocc_amd_wave_size(d, &k));
    return s;
}

static bool amd_same(const struct amd_signature *a, const struct amd_signature *b)
{
    for (int32_t i = 0; i < GPUOCC_AMD_LIMITS; i++)
        if (a->limits[i] != b->limits[i])
            return false;
    return a->waves == b->waves;
}

int64_t gpuocc_amd_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to,
                              int32_t bmax)
{
    (void)bmax;
    enum amd_demand demand = amd_axis_demand(axis);
    if (demand == AMD_BARRIERS || v >= to)
        return INT64_MAX; /* neither model counts barriers */
    int32_t blocks = amd_at(d, *k, demand, v, -1);
    int32_t cap = blocks < GPUOCC_NO_LIMIT ? blocks + 1 : GPUOCC_NO_LIMIT;
    struct amd_signature now = amd_signature_at(d, *k, demand, v, cap);
    /* the signature differs from now's on a suffix of (v, to]: gallop to a differing point, then bisect */
    int64_t same = v, step = 1, differs;
    for (;;) {
        int64_t probe = step > to - same ? to : same + step;
        struct amd_signature s = amd_signature_at(d, *k, demand, probe, cap);
        if (!amd_same(&s, &now)) {
            differs = probe;
            break;
        }
        if (probe == to)
            return INT64_MAX;
        same = probe;
        step = step < INT64_MAX / 2 ? step * 2 : step;
    }
    while (differs - same > 1) {
        int64_t mid = same + (differs - same) / 2;
        struct amd_signature s = amd_signature_at(d, *k, demand, mid, cap);
        if (amd_same(&s, &now))
            same = mid;
        else
            differs = mid;
    }
    return differs;
}

void gpuocc_amd_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from, int64_t *to,
                            int64_t *step)
{
    int64_t lo = 0, hi, unit = 1;
    switch (axis) {
    case GPUOCC_AXIS_THREADS:
        hi = d->max_threads_per_block;
        if (k->max_threads_per_block > 0 && k->max_threads_per_block < hi)
            hi = k->max_threads_per_block;
        unit = gpuocc_amd_wave_size(d, k);
        lo = hi < unit ? hi : unit;
        break;
    case GPUOCC_AXIS_REGS:
        hi = d->regs_per_thread_max; /* v0 .. v255 */
        break;
    case GPUOCC_AXIS_SMEM:
        hi = d->smem_per_block_optin_bytes - k->smem_static_bytes;
        hi = hi > 0 ? hi : 0;
        unit = d->smem_alloc_unit_bytes;
        break;
    default:
        hi = 16; /* as NVIDIA's range; neither AMD model counts barriers */
        break;
    }
    *from = lo, *to = hi, *step = unit;
}
