/*
 * The next step on NVIDIA's rules: the largest value of one resource at which one more block fits.  It
 * evaluates the forward rules at candidate values (a bisection where the rule falls along the value; the
 * bounds of the rule's conditions for shared memory, whose blocks can rise with the bytes), so its answers
 * agree with gpuocc_occupancy by construction, in a few dozen evaluations whatever the byte counts.
 */
#include "nvidia.h"

/* Blocks per SM when one of the kernel's demands is set to `value`; `whole` = all resources, else
   only the named resource's own limit. */
typedef int32_t (*blocks_at_fn)(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole);

static int32_t total_blocks(const gpuocc_device *d, const gpuocc_kernel *k)
{
    gpuocc_result r;
    gpuocc_nv_compute_device(d, k, &r);
    return r.blocks_per_sm;
}

static int32_t blocks_at_regs(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole)
{
    k.regs_per_thread = (int32_t)value;
    return whole ? total_blocks(d, &k) : gpuocc_rule_registers(d, k.threads_per_block, value);
}

/* Shared memory per block (static + dynamic) for the next-step query: static is kept while it fits. */
static int32_t blocks_at_smem_total(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole)
{
    if (k.smem_static_bytes > value)
        k.smem_static_bytes = value;
    k.smem_dynamic_bytes = value - k.smem_static_bytes;
    return whole ? total_blocks(d, &k) : gpuocc_rule_smem(d, &k);
}

static int32_t blocks_at_threads(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole)
{
    k.threads_per_block = (int32_t)value;
    if (whole)
        return total_blocks(d, &k);
    /* the warps' limit as the rule gives it: 0 past the kernel's own launch bound too */
    gpuocc_result r;
    gpuocc_nv_compute_device(d, &k, &r);
    return r.limit_warps;
}

static int32_t blocks_at_barriers(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole)
{
    k.barriers = (int32_t)value;
    return whole ? total_blocks(d, &k) : gpuocc_rule_barriers(d, value);
}

/*
 * The largest value in [lo, hi] at which at least `target` blocks fit, for a rule that does not rise
 * along the value (registers, threads, barriers): a bisection.  -1 if none.
 */
static int64_t largest_meeting(const gpuocc_device *d, const gpuocc_kernel *k, blocks_at_fn at, bool whole,
                               int64_t lo, int64_t hi, int32_t target)
{
    if (hi < lo || at(d, *k, lo, whole) < target)
        return -1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2 + 1;
        if (at(d, *k, mid, whole) >= target)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The largest byte total <= hi whose allocation (total + reserved, rounded up to the unit) is at most
   `alloc`, or -1. */
static int64_t total_for_alloc(const gpuocc_device *d, int64_t alloc, int64_t hi)
{
    int64_t unit = d->smem_alloc_unit_bytes;
    if (alloc < 0)
        return -1;
    int64_t total = alloc / unit * unit - d->smem_reserved_per_block_bytes;
    return total < hi ? total : hi;
}

/*
 * Shared memory: the rule need not fall as the bytes grow (a larger block can be given a larger carveout),
 * so no bisection over the bytes.  But every condition of the rule is "the allocation at most X" (the
 * per-block limits, a carveout holding the block, target blocks of it in that carveout) or "the total at
 * most Y" (the opt-in attribute, where the static bytes give way): the totals meeting the target are
 * intervals, each ending at one of those bounds or at `hi`.  The answer is the largest candidate that
 * meets it: at most a few per carveout, evaluated through the rule itself.
 */
static int64_t largest_smem_meeting(const gpuocc_device *d, const gpuocc_kernel *k, int64_t hi, int32_t target)
{
    int64_t reserved = d->smem_reserved_per_block_bytes, s = k->smem_static_bytes;
    int64_t allocs[2 * GPUOCC_MAX_CARVEOUTS + 4], totals[6];
    int32_t na = 0, nt = 0;
    allocs[na++] = d->smem_per_block_bytes + reserved;
    allocs[na++] = d->smem_per_block_optin_bytes + reserved;
    allocs[na++] = d->smem_per_sm_bytes;
    allocs[na++] = d->smem_per_sm_bytes / target;
    for (int32_t i = 0; i < d->carveout_count; i++) {
        int64_t c = (int64_t)d->carveouts_kib[i] * 1024;
        allocs[na++] = c;
        allocs[na++] = c / target;
    }
    totals[nt++] = hi;
    totals[nt++] = 0;
    totals[nt++] = s;
    totals[nt++] = s - 1;
    int64_t most = k->smem_dynamic_max_bytes >= 0 ? k->smem_dynamic_max_bytes : d->smem_per_block_optin_bytes - s;
    totals[nt++] = gpuocc_sat_add(s, most > 0 ? most : 0);
    totals[nt++] = d->smem_per_block_bytes - reserved - (k->smem_dynamic_max_bytes > 0 ? k->smem_dynamic_max_bytes : 0);
    int64_t best = -1;
    for (int32_t i = 0; i < na + nt; i++) {
        int64_t v = i < na ? total_for_alloc(d, allocs[i], hi) : totals[i - na];
        v = v < hi ? v : hi;
        if (v > best && blocks_at_smem_total(d, *k, v, false) >= target)
            best = v;
    }
    return best;
}

int32_t gpuocc_nv_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                            int64_t *shed)
{
    int32_t target = total_blocks(d, k) + 1;

    blocks_at_fn at;
    int64_t current, lo, hi;
    switch (resource) {
    case GPUOCC_RESOURCE_REGISTERS:
        at = blocks_at_regs, current = k->regs_per_thread, lo = 0;
        hi = current < d->regs_per_thread_max ? current : d->regs_per_thread_max;
        break;
    case GPUOCC_RESOURCE_SMEM:
        at = blocks_at_smem_total, current = gpuocc_sat_add(k->smem_static_bytes, k->smem_dynamic_bytes), lo = 0;
        if (current >= GPUOCC_BYTES_HUGE)
            return GPUOCC_ERR_OVERFLOW; /* a saturated total would give a made-up amount to shed */
    {
        gpuocc_nv_values v;
        gpuocc_nv_derive(d, &v);
        int64_t top = gpuocc_nv_smem_search_top(&v);
        hi = current < top ? current : top;
        break;
    }
    case GPUOCC_RESOURCE_WARPS:
        at = blocks_at_threads, current = k->threads_per_block, lo = 1;
        hi = gpuocc_bounded(d->max_threads_per_block, k->max_threads_per_block); /* the kernel's bound too */
        hi = current < hi ? current : hi;
        break;
    case GPUOCC_RESOURCE_BARRIERS:
        at = blocks_at_barriers, current = k->barriers, lo = 0;
        hi = current < d->barriers_per_sm ? current : d->barriers_per_sm;
        break;
    case GPUOCC_RESOURCE_BLOCKS:
        if (d->max_blocks_per_sm >= target) {
            *new_value = d->max_blocks_per_sm, *shed = 0;
            return GPUOCC_OK;
        }
        return GPUOCC_ERR_UNSATISFIABLE;
    default:
        return GPUOCC_ERR_RESOURCE;
    }
    if (at(d, *k, current, false) >= target) {
        *new_value = current, *shed = 0;
        return GPUOCC_OK;
    }
    int64_t found = resource == GPUOCC_RESOURCE_SMEM ? largest_smem_meeting(d, k, hi, target)
                                                     : largest_meeting(d, k, at, false, lo, hi, target);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *new_value = found;
    *shed = current - found;
    return GPUOCC_OK;
}

/* ptxas allocates at most 255 registers per thread (CUDA C++ Programming Guide, "Technical Specifications
   per Compute Capability"), although from cc 7.0 the runtime's launch check accepts 256. */
#define NV_COMPILER_REGS_MAX 255

int32_t gpuocc_nv_step_levers(const gpuocc_device *d, const gpuocc_kernel *k, struct gpuocc_lever *levers)
{
    (void)k;
    int32_t n = 0;
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_WARPS, 1, d->max_threads_per_block};
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_REGISTERS, 1, NV_COMPILER_REGS_MAX};
    levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_SMEM, 1, INT64_MAX};
    if (d->barriers_per_sm > 0) /* else barriers never limit */
        levers[n++] = (struct gpuocc_lever){GPUOCC_RESOURCE_BARRIERS, 1, INT64_MAX};
    return n;
}
