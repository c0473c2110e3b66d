/*
 * Next steps that hold (gpuocc_next_steps): each candidate change is applied to a copy of the kernel and
 * kept only with the blocks per SM the occupancy gives it, so a step states what it gives by construction.
 * The vendor says which inputs a step may change and how far (struct gpuocc_lever); the construction here
 * knows no vendor.
 */
#include "api.h"

#include <string.h>

_Static_assert(sizeof(gpuocc_step_change) == 24, "gpuocc_step_change layout 1.0");
_Static_assert(sizeof(gpuocc_step) == 104, "gpuocc_step layout 1.0");
_Static_assert(offsetof(gpuocc_step, change) == 8, "gpuocc_step layout 1.0");
_Static_assert(offsetof(gpuocc_step, also) == 32, "gpuocc_step layout 1.0");

/* The kernel's value of the input a lever names. */
static int64_t lever_value(const gpuocc_kernel *k, int32_t resource)
{
    switch (resource) {
    case GPUOCC_RESOURCE_WARPS: return k->threads_per_block;
    case GPUOCC_RESOURCE_REGISTERS: return k->regs_per_thread;
    case GPUOCC_RESOURCE_SMEM: return gpuocc_sat_add(k->smem_static_bytes, k->smem_dynamic_bytes);
    case GPUOCC_RESOURCE_BARRIERS: return k->barriers;
    case GPUOCC_RESOURCE_SGPRS: return k->sgprs;
    default: return k->agprs;
    }
}

static int32_t blocks_with(const gpuocc_device *d, gpuocc_kernel k, int32_t resource, int64_t v)
{
    gpuocc_result r;
    gpuocc_kernel_set_input(&k, resource, v);
    (void)gpuocc_rule(d, &k, &r); /* a refused launch: 0 blocks */
    return r.blocks_per_sm;
}

/* The largest value of a lever below its current one (and within its bounds) that gives more than `now`
   blocks: a bisection on the occupancy itself, which does not rise with any input on the catalog's devices
   (on a described device where it does, the value found still gives what is stated).  -1 if none. */
static int64_t lever_step(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_lever *lever,
                          int32_t now)
{
    int64_t current = lever_value(k, lever->resource);
    int64_t hi = current - 1 < lever->most ? current - 1 : lever->most, lo = lever->floor;
    if (hi < lo || blocks_with(d, *k, lever->resource, lo) <= now)
        return -1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2 + 1;
        if (blocks_with(d, *k, lever->resource, mid) > now)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static const struct gpuocc_lever *find_lever(const struct gpuocc_lever *levers, int32_t n, int32_t resource)
{
    for (int32_t i = 0; i < n; i++)
        if (levers[i].resource == resource)
            return &levers[i];
    return NULL;
}

/*
 * The joint step where no single change gives a block more: each limiting resource's own next step
 * (the vendor's gpuocc_next_step), in resource order, each on the kernel with the earlier changes applied
 * (fewer threads can relieve the registers), skipping a resource that no longer limits; kept when all of
 * them together give more blocks.  False when a limiter cannot be changed within its lever's bounds.
 */
static bool joint_step(const struct gpuocc_vendor *v, const gpuocc_device *d, const gpuocc_kernel *k,
                       const struct gpuocc_lever *levers, int32_t nlevers, int32_t now, uint32_t limiters,
                       gpuocc_step *step)
{
    gpuocc_kernel at = *k;
    gpuocc_step_change changes[1 + GPUOCC_STEP_ALSO_MAX];
    int32_t n = 0;
    for (int32_t resource = 0; resource < GPUOCC_RESOURCE_AGPRS; resource++) {
        if (!(limiters & (1u << resource)))
            continue;
        const struct gpuocc_lever *lever = find_lever(levers, nlevers, resource);
        int64_t value, shed;
        if (!lever || v->next_step(d, &at, resource, &value, &shed) != GPUOCC_OK)
            return false;
        if (shed <= 0)
            continue; /* an earlier change relieved it */
        value = value < lever->most ? value : lever->most;
        if (value < lever->floor || n == 1 + GPUOCC_STEP_ALSO_MAX)
            return false;
        changes[n++] = (gpuocc_step_change){resource, 0, value, lever_value(k, resource) - value};
        gpuocc_kernel_set_input(&at, resource, value);
    }
    gpuocc_result r;
    (void)gpuocc_rule(d, &at, &r); /* a refused launch: 0 blocks */
    if (n < 2 || r.blocks_per_sm <= now)
        return false;
    memset(step, 0, sizeof *step);
    step->blocks_per_sm = r.blocks_per_sm;
    step->change = changes[0];
    step->also_count = n - 1;
    memcpy(step->also, changes + 1, (size_t)(n - 1) * sizeof changes[0]);
    return true;
}

/* Every step, into found[] (at most GPUOCC_STEPS_MAX); their count. */
static int32_t all_steps(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_step *found)
{
    const struct gpuocc_vendor *v = gpuocc_vendor_of(d->vendor);
    struct gpuocc_lever levers[GPUOCC_LEVERS_MAX];
    int32_t nlevers = v->step_levers(d, k, levers);
    gpuocc_result now;
    (void)gpuocc_rule(d, k, &now); /* a refused launch: 0 blocks */
    int32_t n = 0;
    for (int32_t i = 0; i < nlevers && n < GPUOCC_STEPS_MAX; i++) {
        int64_t value = lever_step(d, k, &levers[i], now.blocks_per_sm);
        if (value < 0)
            continue;
        memset(&found[n], 0, sizeof found[n]);
        found[n].blocks_per_sm = blocks_with(d, *k, levers[i].resource, value);
        found[n].change = (gpuocc_step_change){levers[i].resource, 0, value, lever_value(k, levers[i].resource) - value};
        n++;
    }
    if (n == 0 && joint_step(v, d, k, levers, nlevers, now.blocks_per_sm, now.limiters, &found[0]))
        n = 1;
    return n;
}

int32_t gpuocc_next_steps(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_step *steps,
                          int32_t capacity, int32_t *count)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc = gpuocc_pair_load(&d, dev, &k, kernel);
    if (rc)
        return rc;
    if (!count || capacity < 0)
        return !count ? GPUOCC_ERR_NULL : GPUOCC_ERR_ARGUMENT;
    if (capacity > 0 && !steps)
        return GPUOCC_ERR_NULL;
    /* as gpuocc_occupancy: a block whose shared memory saturates has no exact answer */
    if (gpuocc_vendor_of(d.vendor)->rules()->smem_per_block(&d, k.smem_static_bytes, k.smem_dynamic_bytes) >=
        GPUOCC_BYTES_HUGE)
        return GPUOCC_ERR_OVERFLOW;
    gpuocc_step found[GPUOCC_STEPS_MAX];
    int32_t n = all_steps(&d, &k, found);
    if (n > capacity) {
        *count = n;
        return GPUOCC_ERR_BUFFER;
    }
    if (n > 0)
        memcpy(steps, found, (size_t)n * sizeof found[0]);
    *count = n;
    return GPUOCC_OK;
}
