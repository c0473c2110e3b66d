/*
 * The next step on NVIDIA's rules: the largest value of one resource at which one more block fits.  It
 * evaluates the forward rules for a candidate value and walks the candidates from the largest down, so its
 * answers agree with gpuocc_occupancy by construction, including on devices whose limits are not monotone.
 */
#include "nvidia.h"

/* Blocks per SM when one of the kernel's demands is set to `value`; `whole` = all resources, else
   only the named resource's own limit. */
typedef int32_t (*blocks_at_fn)(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole);

static int32_t total_blocks(const gpuocc_device *d, const gpuocc_kernel *k)
{
    gpuocc_result r;
    gpuocc_nv_compute(d, k, &r);
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
    return whole ? total_blocks(d, &k) : gpuocc_rule_warps(d, value);
}

static int32_t blocks_at_barriers(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole)
{
    k.barriers = (int32_t)value;
    return whole ? total_blocks(d, &k) : gpuocc_rule_barriers(d, value);
}

/*
 * The largest value in [lo, hi], visited from hi down in steps of `step` (then lo itself), at which
 * at least `target` blocks fit.  -1 if none.  Steps make the walk cover every distinct allocation
 * without visiting every byte.
 */
static int64_t largest_meeting(const gpuocc_device *d, const gpuocc_kernel *k, blocks_at_fn at, bool whole,
                               int64_t lo, int64_t hi, int64_t step, int32_t target)
{
    for (int64_t v = hi; v >= lo; v = (v - step >= lo || v == lo) ? v - step : lo)
        if (at(d, *k, v, whole) >= target)
            return v;
    return -1;
}

/*
 * Walk a byte range from `hi` down one allocation unit at a time: every allocation granule below `hi` is
 * visited once, and values inside a granule all give the same allocation.  The answer is then lifted to
 * the top of its granule (not past `hi`).  `offset` is what the allocation adds to the value.
 */
static int64_t largest_bytes_meeting(const gpuocc_device *d, const gpuocc_kernel *k, blocks_at_fn at, bool whole,
                                     int64_t offset, int64_t hi, int32_t target)
{
    int64_t unit = d->smem_alloc_unit_bytes;
    int64_t found = largest_meeting(d, k, at, whole, 0, hi, unit, target);
    if (found < 0)
        return -1;
    int64_t top = gpuocc_round_up(found + offset, unit) - offset;
    if (top > hi)
        top = hi;
    return (top > found && at(d, *k, top, whole) >= target) ? top : found;
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
        hi = current < gpuocc_nv_smem_search_top(d) ? current : gpuocc_nv_smem_search_top(d);
        break;
    case GPUOCC_RESOURCE_WARPS:
        at = blocks_at_threads, current = k->threads_per_block, lo = 1;
        hi = current < d->max_threads_per_block ? current : d->max_threads_per_block;
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
    int64_t found = resource == GPUOCC_RESOURCE_SMEM
                        ? largest_bytes_meeting(d, k, at, false, d->smem_reserved_per_block_bytes, hi, target)
                        : largest_meeting(d, k, at, false, lo, hi, 1, target);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *new_value = found;
    *shed = current - found;
    return GPUOCC_OK;
}
