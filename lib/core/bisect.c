/*
 * The inverse and search queries of a vendor whose rule is the least of its per-resource limits (struct
 * gpuocc_limit_vector): registers allowed for N blocks, shared memory available, next step, best block
 * size, where a sweep's answer can change.  Each is defined through the vendor's limits, the terms its rule
 * takes the minimum over, so the answers agree with the rule in every model.  Along each demand (threads,
 * registers, shared memory, SGPRs, barriers) every term is non-increasing, so "the largest value that still
 * allows N" is found by bisection, never by a walk.
 */
#include "structs.h"
#include "vendor.h"

/* The demands a query can move: the inputs of a next step (their GPUOCC_RESOURCE_* codes; registers per
   thread is also the sweep's register axis), the GRF, and dynamic shared memory alone. */
enum demand { DEMAND_THREADS = GPUOCC_RESOURCE_WARPS, DEMAND_REGS_PER_THREAD = GPUOCC_RESOURCE_REGISTERS,
              DEMAND_SMEM_TOTAL = GPUOCC_RESOURCE_SMEM, DEMAND_BARRIERS = GPUOCC_RESOURCE_BARRIERS,
              DEMAND_SGPRS = GPUOCC_RESOURCE_SGPRS, DEMAND_GRF = GPUOCC_RESOURCE_VIRTUAL + 1, DEMAND_SMEM_DYNAMIC };

static void demand_set(gpuocc_kernel *k, enum demand demand, int64_t value)
{
    if (demand == DEMAND_GRF)
        k->grf = (int32_t)value;
    else if (demand == DEMAND_SMEM_DYNAMIC)
        k->smem_dynamic_bytes = value;
    else
        gpuocc_kernel_set_input(k, (int32_t)demand, value);
}

/* The register demand the register queries move (struct gpuocc_limit_vector). */
static enum demand registers_demand(const struct gpuocc_limit_vector *v)
{
    return v->grf_default > 0 ? DEMAND_GRF : DEMAND_REGS_PER_THREAD;
}

/* The register demand: the kernel's value as the rule reads it, and the least and most a query gives it. */
static void registers_range(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                            int64_t *now, int64_t *least, int64_t *most)
{
    if (v->grf_default > 0) {
        *now = k->grf ? k->grf : v->grf_default;
        *least = 1, *most = d->grf_max;
    } else {
        *now = k->regs_per_thread;
        *least = 0, *most = d->regs_per_thread_max;
    }
}

static int32_t least_limit(const struct gpuocc_limit_vector *v, const int32_t *limits)
{
    int32_t blocks = GPUOCC_NO_LIMIT;
    for (int32_t i = 0; i < v->count; i++)
        blocks = limits[i] < blocks ? limits[i] : blocks;
    return blocks;
}

int32_t gpuocc_vector_answer(const struct gpuocc_limit_vector *v, const int32_t *limits, int64_t per_block,
                             int64_t per_sm, gpuocc_result *r)
{
    int32_t blocks = least_limit(v, limits);
    uint32_t limiters = 0;
    for (int32_t i = 0; i < v->count; i++)
        if (limits[i] == blocks)
            limiters |= 1u << i;
    /* blocks x per_block fit the SM unless a limit is 0 (then the product is 0) */
    int64_t warps = (int64_t)blocks * per_block;
    r->limiters = limiters;
    r->blocks_per_sm = blocks;
    r->warps_per_sm = gpuocc_clamp_i32(warps);
    r->max_warps_per_sm = gpuocc_clamp_i32(per_sm);
    r->warps_per_block = gpuocc_clamp_i32(per_block);
    r->occupancy = (double)warps / (double)per_sm;
    r->limit_warps = gpuocc_public_limit(limits[GPUOCC_RESOURCE_WARPS]);
    r->limit_regs = gpuocc_public_limit(limits[GPUOCC_RESOURCE_REGISTERS]);
    r->limit_smem = gpuocc_public_limit(limits[GPUOCC_RESOURCE_SMEM]);
    r->limit_blocks = gpuocc_public_limit(limits[GPUOCC_RESOURCE_BLOCKS]);
    r->limit_barriers = gpuocc_public_limit(limits[GPUOCC_RESOURCE_BARRIERS]);
    r->limit_sgprs = v->count > GPUOCC_RESOURCE_SGPRS ? gpuocc_public_limit(limits[GPUOCC_RESOURCE_SGPRS])
                                                      : GPUOCC_UNLIMITED;
    return blocks;
}

/* Blocks with the demand at `value`: every resource's (resource < 0) or one resource's own term. */
static int32_t blocks_at(const struct gpuocc_limit_vector *v, const gpuocc_device *d, gpuocc_kernel k,
                         enum demand demand, int64_t value, int32_t resource)
{
    int32_t limits[GPUOCC_VECTOR_LIMITS_MAX];
    demand_set(&k, demand, value);
    v->limits(d, &k, limits);
    return resource < 0 ? least_limit(v, limits) : limits[resource];
}

/* The largest value in [lo, hi] at which at least `want` blocks fit (non-increasing in it); -1 if none. */
static int64_t largest(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                       enum demand demand, int32_t resource, int64_t lo, int64_t hi, int64_t want)
{
    if (hi < lo || blocks_at(v, d, *k, demand, lo, resource) < want)
        return -1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2 + 1;
        if (blocks_at(v, d, *k, demand, mid, resource) >= want)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

gpuocc_kernel gpuocc_vector_kernel(const struct gpuocc_limit_vector *v, int64_t threads, int64_t regs)
{
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.threads_per_block = (int32_t)threads;
    demand_set(&k, registers_demand(v), regs);
    return k;
}

int32_t gpuocc_vector_limit(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                            int32_t resource)
{
    int32_t limits[GPUOCC_VECTOR_LIMITS_MAX];
    v->limits(d, k, limits);
    return limits[resource];
}

int32_t gpuocc_vector_limit_of(const struct gpuocc_limit_vector *v, const gpuocc_device *d, int64_t threads,
                               int64_t regs, int32_t resource)
{
    gpuocc_kernel k = gpuocc_vector_kernel(v, threads, regs);
    return gpuocc_vector_limit(v, d, &k, resource);
}

int32_t gpuocc_vector_regs_max_for_blocks(const struct gpuocc_limit_vector *v, const gpuocc_device *d,
                                          const gpuocc_kernel *k, int32_t want, int32_t *regs)
{
    int64_t now, least, most;
    registers_range(v, d, k, &now, &least, &most);
    int64_t found = largest(v, d, k, registers_demand(v), -1, least, most, want);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *regs = (int32_t)found;
    return GPUOCC_OK;
}

int64_t gpuocc_vector_room(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                           int32_t input, int32_t resource, int64_t most)
{
    int64_t now, least = input == GPUOCC_RESOURCE_WARPS ? 1 : 0, top; /* a block has a thread at least */
    enum demand demand = (enum demand)input;
    if (input == GPUOCC_RESOURCE_REGISTERS) {
        demand = registers_demand(v);
        registers_range(v, d, k, &now, &least, &top);
    }
    return largest(v, d, k, demand, resource, least, most, 1);
}

void gpuocc_vector_smem_exceeded(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    int64_t left = d->smem_per_block_bytes - k->smem_static_bytes;
    bool dynamic = k->smem_dynamic_bytes > 0 && left >= 0;
    *input = dynamic ? GPUOCC_INPUT_SMEM_DYNAMIC : GPUOCC_INPUT_SMEM_STATIC;
    *limit = dynamic ? left : d->smem_per_block_bytes;
}

int32_t gpuocc_vector_smem_dynamic_available(const struct gpuocc_limit_vector *v, const gpuocc_device *d,
                                             const gpuocc_kernel *k, int32_t want, int64_t *bytes)
{
    int64_t found = largest(v, d, k, DEMAND_SMEM_DYNAMIC, -1, 0, d->smem_per_block_optin_bytes - k->smem_static_bytes,
                            want);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *bytes = found;
    return GPUOCC_OK;
}

/* The same cases as NVIDIA's next step (lib/nvidia/next_step.c), which finds its thresholds in closed form
   from its own rules instead of by bisection on a vector. */
int32_t gpuocc_vector_next_step(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                                int32_t resource, int64_t *new_value, int64_t *shed)
{
    int32_t limits[GPUOCC_VECTOR_LIMITS_MAX];
    v->limits(d, k, limits);
    int64_t target = (int64_t)least_limit(v, limits) + 1;
    enum demand demand;
    int64_t current, lo = 0, hi;
    switch (resource) {
    case GPUOCC_RESOURCE_REGISTERS:
        demand = registers_demand(v);
        registers_range(v, d, k, &current, &lo, &hi);
        hi = current < hi ? current : hi;
        break;
    case GPUOCC_RESOURCE_SMEM:
        demand = DEMAND_SMEM_TOTAL, current = gpuocc_sat_add(k->smem_static_bytes, k->smem_dynamic_bytes), hi = current;
        if (current >= GPUOCC_BYTES_HUGE)
            return GPUOCC_ERR_OVERFLOW; /* a saturated total would give a made-up amount to shed */
        break;
    case GPUOCC_RESOURCE_WARPS:
        demand = DEMAND_THREADS, current = k->threads_per_block, lo = 1;
        hi = current < d->max_threads_per_block ? current : d->max_threads_per_block;
        break;
    case GPUOCC_RESOURCE_BARRIERS:
        /* a cap that no barrier count lifts (one counting every block of more than one wave) leaves the
           count as it is, or no step */
        demand = DEMAND_BARRIERS, current = k->barriers, hi = current;
        break;
    case GPUOCC_RESOURCE_SGPRS:
        if (v->count <= GPUOCC_RESOURCE_SGPRS)
            return GPUOCC_ERR_RESOURCE;
        demand = DEMAND_SGPRS, current = k->sgprs, hi = current;
        break;
    case GPUOCC_RESOURCE_BLOCKS:
        /* a cap of the device's own, which nothing a kernel sheds lifts; none at all where it cannot limit */
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
    int64_t found = target > GPUOCC_NO_LIMIT ? -1 : largest(v, d, k, demand, resource, lo, hi, target);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *new_value = found;
    *shed = current - found;
    return GPUOCC_OK;
}

int32_t gpuocc_vector_best_block(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                                 const struct gpuocc_smem_rule *rule, int32_t *threads, int32_t *min_grid)
{
    int64_t limit = d->max_threads_per_block;
    if (k->max_threads_per_block > 0 && k->max_threads_per_block < limit)
        limit = k->max_threads_per_block;
    int64_t unit = v->unit(d, k);
    int32_t best_threads = 0, best_blocks = 0;
    int64_t best_resident = 0;
    /* the largest allowed size, then every multiple of the wave below it (at most 1024 / 8 of them), none
       below the flat workgroup minimum the kernel was compiled for: each is evaluated, so a callback is
       asked for every one, and a table's errors are met in the order of the walk */
    for (int64_t aligned = gpuocc_round_up(limit, unit); aligned > 0; aligned -= unit) {
        int32_t candidate = (int32_t)(aligned < limit ? aligned : limit);
        if (candidate < k->flat_workgroup_size_min)
            break;
        int64_t smem = 0;
        int32_t rc = gpuocc_smem_rule_bytes(rule, candidate, &smem);
        if (rc)
            return rc;
        gpuocc_kernel at = *k;
        at.smem_dynamic_bytes = smem;
        int32_t blocks = blocks_at(v, d, at, DEMAND_THREADS, candidate, -1);
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

static enum demand axis_demand(int32_t axis)
{
    return axis == GPUOCC_AXIS_THREADS ? DEMAND_THREADS
           : axis == GPUOCC_AXIS_REGS  ? DEMAND_REGS_PER_THREAD
           : axis == GPUOCC_AXIS_SMEM  ? DEMAND_SMEM_DYNAMIC
                                       : DEMAND_BARRIERS;
}

/* What decides the answer at a value along the axis: every term capped at `cap` (one above the blocks at
   the sweep's current point: the blocks only fall along an axis, so larger values never decide), and the
   block's waves.  Each component is monotone along every axis. */
struct signature {
    int32_t limits[GPUOCC_VECTOR_LIMITS_MAX];
    int64_t waves;
};

/* `waves`: whether the waves per block count (the answer's warps are blocks x waves: not once no block fits) */
static struct signature signature_at(const struct gpuocc_limit_vector *v, const gpuocc_device *d, gpuocc_kernel k,
                                     enum demand demand, int64_t value, int32_t cap, bool waves)
{
    struct signature s;
    demand_set(&k, demand, value);
    v->limits(d, &k, s.limits);
    for (int32_t i = 0; i < v->count; i++)
        s.limits[i] = s.limits[i] < cap ? s.limits[i] : cap;
    s.waves = waves ? gpuocc_div_up(k.threads_per_block, v->unit(d, &k)) : 0;
    return s;
}

static bool same_signature(const struct gpuocc_limit_vector *v, const struct signature *a, const struct signature *b)
{
    for (int32_t i = 0; i < v->count; i++)
        if (a->limits[i] != b->limits[i])
            return false;
    return a->waves == b->waves;
}

int64_t gpuocc_vector_sweep_next(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                                 int32_t axis, int64_t from, int64_t to)
{
    if (from >= to)
        return INT64_MAX;
    enum demand demand = axis_demand(axis);
    int32_t blocks = blocks_at(v, d, *k, demand, from, -1);
    int32_t cap = blocks < GPUOCC_NO_LIMIT ? blocks + 1 : GPUOCC_NO_LIMIT;
    /* once no block fits none does further on (every limit is non-increasing along the axis): the waves per
       block change nothing then, and counting them made the threads axis a walk, one wave at a time */
    bool waves = blocks != 0;
    struct signature now = signature_at(v, d, *k, demand, from, cap, waves);
    /* the signature differs from now's on a suffix of (from, to] (none along an input the rule does not
       read): gallop to a differing point, then bisect */
    int64_t same = from, step = 1, differs;
    for (;;) {
        int64_t probe = step > to - same ? to : same + step;
        struct signature s = signature_at(v, d, *k, demand, probe, cap, waves);
        if (!same_signature(v, &s, &now)) {
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
        struct signature s = signature_at(v, d, *k, demand, mid, cap, waves);
        if (same_signature(v, &s, &now))
            same = mid;
        else
            differs = mid;
    }
    return differs;
}

void gpuocc_vector_sweep_range(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                               int32_t axis, int64_t *from, int64_t *to, int64_t *step)
{
    int64_t lo = 0, hi, unit = 1;
    switch (axis) {
    case GPUOCC_AXIS_THREADS:
        hi = d->max_threads_per_block;
        if (k->max_threads_per_block > 0 && k->max_threads_per_block < hi)
            hi = k->max_threads_per_block;
        unit = v->unit(d, k);
        lo = hi < unit ? hi : unit;
        break;
    case GPUOCC_AXIS_REGS:
        /* registers per thread, which a vendor counting the GRF instead does not read */
        hi = v->grf_default > 0 ? 0 : d->regs_per_thread_max;
        break;
    case GPUOCC_AXIS_SMEM:
        hi = d->smem_per_block_optin_bytes - k->smem_static_bytes;
        hi = hi > 0 ? hi : 0;
        unit = d->smem_alloc_unit_bytes;
        break;
    default:
        hi = 16; /* the widest hardware's named barriers, 0..15 */
        break;
    }
    *from = lo, *to = hi, *step = unit;
}
