/*
 * Intel's inverse and search queries: the GRF allowed for N work-groups, SLM available, next step, best
 * work-group size, and where a sweep's answer can change.  Each is defined through gpuocc_intel_limits,
 * the terms gpuocc_occupancy takes its minimum over, so the answers agree with it in either model.  Every
 * term is non-increasing along each demand (work-items, GRF, SLM, barriers), so "the largest value that
 * still allows N" is a bisection on the rules.
 */
#include "intel.h"

enum intel_demand { INTEL_GRF, INTEL_SLM_DYNAMIC, INTEL_SLM_TOTAL, INTEL_THREADS, INTEL_BARRIERS, INTEL_NONE };

static void intel_set(gpuocc_kernel *k, enum intel_demand demand, int64_t v)
{
    switch (demand) {
    case INTEL_GRF: k->grf = (int32_t)v; break;
    case INTEL_SLM_DYNAMIC: k->smem_dynamic_bytes = v; break;
    case INTEL_SLM_TOTAL:
        /* the static SLM is kept while it fits */
        k->smem_static_bytes = k->smem_static_bytes < v ? k->smem_static_bytes : v;
        k->smem_dynamic_bytes = v - k->smem_static_bytes;
        break;
    case INTEL_THREADS: k->threads_per_block = (int32_t)v; break;
    case INTEL_BARRIERS: k->barriers = (int32_t)v; break;
    case INTEL_NONE: break;
    }
}

/* Work-groups at `v`: every resource (resource < 0) or one resource's own term. */
static int32_t intel_at(const gpuocc_device *d, gpuocc_kernel k, enum intel_demand demand, int64_t v, int32_t resource)
{
    int32_t limits[GPUOCC_INTEL_LIMITS];
    intel_set(&k, demand, v);
    gpuocc_intel_limits(d, &k, limits);
    return resource < 0 ? gpuocc_intel_min_limit(limits) : limits[resource];
}

/* The largest v in [lo, hi] at which at least `want` work-groups fit; -1 if none. */
static int64_t intel_largest(const gpuocc_device *d, const gpuocc_kernel *k, enum intel_demand demand,
                             int32_t resource, int64_t lo, int64_t hi, int64_t want)
{
    if (hi < lo || intel_at(d, *k, demand, lo, resource) < want)
        return -1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2 + 1;
        if (intel_at(d, *k, demand, mid, resource) >= want)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int32_t gpuocc_intel_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs)
{
    int64_t found = intel_largest(d, k, INTEL_GRF, -1, 1, d->grf_max, want);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *regs = (int32_t)found;
    return GPUOCC_OK;
}

int32_t gpuocc_intel_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,
                                            int64_t *bytes)
{
    int64_t found = intel_largest(d, k, INTEL_SLM_DYNAMIC, -1, 0, d->smem_per_block_bytes - k->smem_static_bytes, want);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *bytes = found;
    return GPUOCC_OK;
}

int32_t gpuocc_intel_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                               int64_t *shed)
{
    int32_t limits[GPUOCC_INTEL_LIMITS];
    gpuocc_intel_limits(d, k, limits);
    int64_t target = (int64_t)gpuocc_intel_min_limit(limits) + 1;
    enum intel_demand demand;
    int64_t current, lo = 0, hi;
    switch (resource) {
    case GPUOCC_RESOURCE_REGISTERS:
        demand = INTEL_GRF, current = gpuocc_intel_grf(k), lo = 1;
        hi = current < d->grf_max ? current : d->grf_max;
        break;
    case GPUOCC_RESOURCE_SMEM:
        demand = INTEL_SLM_TOTAL, current = gpuocc_sat_add(k->smem_static_bytes, k->smem_dynamic_bytes), hi = current;
        if (current >= GPUOCC_BYTES_HUGE)
            return GPUOCC_ERR_OVERFLOW;
        break;
    case GPUOCC_RESOURCE_WARPS:
        demand = INTEL_THREADS, current = k->threads_per_block, lo = 1;
        hi = current < d->max_threads_per_block ? current : d->max_threads_per_block;
        break;
    case GPUOCC_RESOURCE_BARRIERS:
        demand = INTEL_BARRIERS, current = k->barriers, hi = current;
        break;
    case GPUOCC_RESOURCE_BLOCKS:
        if (k->model == GPUOCC_MODEL_INTEL_RUNTIME) {
            *new_value = GPUOCC_UNLIMITED, *shed = 0; /* the runtime has no work-group cap */
            return GPUOCC_OK;
        }
        /* the calculator's cap is the hardware's: nothing to shed lifts it */
        if (limits[GPUOCC_RESOURCE_BLOCKS] < target)
            return GPUOCC_ERR_UNSATISFIABLE;
        *new_value = GPUOCC_UNLIMITED, *shed = 0;
        return GPUOCC_OK;
    default:
        return GPUOCC_ERR_RESOURCE;
    }
    if (limits[resource] >= target) {
        *new_value = current, *shed = 0;
        return GPUOCC_OK;
    }
    int64_t found = target > GPUOCC_NO_LIMIT ? -1 : intel_largest(d, k, demand, resource, lo, hi, target);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *new_value = found;
    *shed = current - found;
    return GPUOCC_OK;
}

int32_t gpuocc_intel_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                                int32_t *threads, int32_t *min_grid)
{
    int64_t limit = d->max_threads_per_block;
    if (k->max_threads_per_block > 0 && k->max_threads_per_block < limit)
        limit = k->max_threads_per_block;
    int64_t sub_group = gpuocc_intel_sub_group(d, k);
    int32_t best_threads = 0, best_blocks = 0;
    int64_t best_resident = 0;
    /* the largest allowed size, then every multiple of the sub-group below it (at most 1024 / 8 of them) */
    for (int64_t aligned = gpuocc_round_up(limit, sub_group); aligned > 0; aligned -= sub_group) {
        int32_t candidate = (int32_t)(aligned < limit ? aligned : limit);
        int64_t slm = 0;
        int32_t rc = gpuocc_smem_rule_bytes(rule, candidate, &slm);
        if (rc)
            return rc;
        gpuocc_kernel at = *k;
        at.threads_per_block = candidate;
        at.smem_dynamic_bytes = slm;
        int32_t blocks = intel_at(d, at, INTEL_NONE, 0, -1);
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

static enum intel_demand intel_axis_demand(int32_t axis)
{
    return axis == GPUOCC_AXIS_THREADS ? INTEL_THREADS
           : axis == GPUOCC_AXIS_SMEM  ? INTEL_SLM_DYNAMIC
           : axis == GPUOCC_AXIS_BARRIERS ? INTEL_BARRIERS
                                          : INTEL_NONE; /* registers per thread: Intel counts the GRF instead */
}

/* What decides the answer at a point: every term capped one above the work-groups at the sweep's current
   point (they only fall along an axis), and the work-group's hardware threads. */
struct intel_signature {
    int32_t limits[GPUOCC_INTEL_LIMITS];
    int64_t threads;
};

static struct intel_signature intel_signature_at(const gpuocc_device *d, gpuocc_kernel k, enum intel_demand demand,
                                                 int64_t v, int32_t cap)
{
    struct intel_signature s;
    intel_set(&k, demand, v);
    gpuocc_intel_limits(d, &k, s.limits);
    for (int32_t i = 0; i < GPUOCC_INTEL_LIMITS; i++)
        s.limits[i] = s.limits[i] < cap ? s.limits[i] : cap;
    s.threads = gpuocc_div_up(k.threads_per_block, gpuocc_intel_sub_group(d, &k));
    return s;
}

static bool intel_same(const struct intel_signature *a, const struct intel_signature *b)
{
    for (int32_t i = 0; i < GPUOCC_INTEL_LIMITS; i++)
        if (a->limits[i] != b->limits[i])
            return false;
    return a->threads == b->threads;
}

int64_t gpuocc_intel_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to,
                                int32_t bmax)
{
    (void)bmax;
    enum intel_demand demand = intel_axis_demand(axis);
    if (demand == INTEL_NONE || v >= to)
        return INT64_MAX;
    int32_t blocks = intel_at(d, *k, demand, v, -1);
    int32_t cap = blocks < GPUOCC_NO_LIMIT ? blocks + 1 : GPUOCC_NO_LIMIT;
    struct intel_signature now = intel_signature_at(d, *k, demand, v, cap);
    /* the signature differs from now's on a suffix of (v, to]: double the step to a differing point, then
       halve the interval */
    int64_t same = v, step = 1, differs;
    for (;;) {
        int64_t probe = step > to - same ? to : same + step;
        struct intel_signature s = intel_signature_at(d, *k, demand, probe, cap);
        if (!intel_same(&s, &now)) {
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
        struct intel_signature s = intel_signature_at(d, *k, demand, mid, cap);
        if (intel_same(&s, &now))
            same = mid;
        else
            differs = mid;
    }
    return differs;
}

void gpuocc_intel_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from,
                              int64_t *to, int64_t *step)
{
    int64_t lo = 0, hi, unit = 1;
    switch (axis) {
    case GPUOCC_AXIS_THREADS:
        hi = d->max_threads_per_block;
        if (k->max_threads_per_block > 0 && k->max_threads_per_block < hi)
            hi = k->max_threads_per_block;
        unit = gpuocc_intel_sub_group(d, k);
        lo = hi < unit ? hi : unit;
        break;
    case GPUOCC_AXIS_REGS:
        hi = 0; /* registers per thread do not apply: the GRF is the kernel's grf */
        break;
    case GPUOCC_AXIS_SMEM:
        hi = d->smem_per_block_bytes - k->smem_static_bytes;
        hi = hi > 0 ? hi : 0;
        unit = d->smem_alloc_unit_bytes;
        break;
    default:
        hi = 16; /* as the other vendors' range; a count above 1 matters to the runtime model only */
        break;
    }
    *from = lo, *to = hi, *step = unit;
}

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
