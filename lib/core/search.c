/*
 * Inverse and search queries.  The block-size searches and the inverse queries check their arguments and
 * hand the checked structs to the device's vendor once (lib/nvidia/search.c and limits.c solve them in
 * closed form, lib/amd/search.c on AMD's rules).  The next-step query evaluates the forward rules for a
 * candidate value and walks the candidates from the largest down, so its answers agree with
 * gpuocc_occupancy by construction, including on devices whose limits are not monotone.
 */
#include "internal.h"
#include "../nvidia/fast.h" /* the conservative checks of gpuocc_occupancy's fast path */

/* ---- block-size search ---- */

/* The conservative fast checks of gpuocc_occupancy: an NVIDIA device and a kernel in the current layout,
   used in place. */
static inline bool search_fast(const gpuocc_device *dev, const gpuocc_kernel *kernel)
{
    return dev && kernel && dev->size == sizeof *dev && kernel->size == sizeof *kernel &&
           gpuocc_nv_device_fast_ok(dev) && gpuocc_nv_kernel_fast_ok(kernel);
}

/* The plain checks, which name the error, where the fast ones refuse: the checked structs (in place, or
   zero-extended copies in the scratch), or NULL with *rc set. */
static const gpuocc_device *search_plain(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_device *d_scratch,
                                         gpuocc_kernel *k_scratch, const gpuocc_kernel **k, int32_t *rc)
{
    const gpuocc_device *d = gpuocc_device_view(dev, d_scratch, rc);
    if (!d)
        return NULL;
    *k = gpuocc_kernel_view(kernel, k_scratch, rc);
    if (*k && (*rc = gpuocc_pair_check(d, *k)))
        return NULL; /* an AMD kernel's wave size and AGPRs against its device */
    return *k ? d : NULL;
}

/* The checked device and kernel of a search, in *d and *k; false (and *rc) when a check fails. */
static inline bool search_structs(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_device *d_scratch,
                                  gpuocc_kernel *k_scratch, const gpuocc_device **d, const gpuocc_kernel **k,
                                  int32_t *rc)
{
    if (search_fast(dev, kernel)) {
        *d = dev, *k = kernel;
        return true;
    }
    *d = search_plain(dev, kernel, d_scratch, k_scratch, k, rc);
    return *d != NULL;
}

static int32_t best_block(const gpuocc_device *dev, const gpuocc_kernel *kernel, const struct gpuocc_smem_rule *rule,
                          int32_t *threads, int32_t *min_grid)
{
    gpuocc_device d_scratch;
    gpuocc_kernel k_scratch;
    const gpuocc_device *d;
    const gpuocc_kernel *k;
    int32_t rc = GPUOCC_OK;
    if (!search_structs(dev, kernel, &d_scratch, &k_scratch, &d, &k, &rc))
        return rc;
    if (!threads || !min_grid)
        return GPUOCC_ERR_NULL;
    if (d->vendor == GPUOCC_VENDOR_AMD)
        return gpuocc_amd_best_block(d, k, rule, threads, min_grid);
    int32_t best_threads = 0, best_blocks = 0;
    rc = gpuocc_nv_best_block(d, k, rule, &best_threads, &best_blocks);
    if (rc)
        return rc;
    *threads = best_threads;
    *min_grid = gpuocc_clamp_i32((int64_t)best_blocks * d->sm_count);
    return GPUOCC_OK;
}

int32_t gpuocc_best_block_affine(const gpuocc_device *dev, const gpuocc_kernel *kernel, int64_t smem_base_bytes,
                                 int64_t smem_per_thread_bytes, int32_t *threads, int32_t *min_grid)
{
    if (smem_base_bytes < 0 || smem_per_thread_bytes < 0)
        return GPUOCC_ERR_SMEM;
    struct gpuocc_smem_rule rule = {.source = GPUOCC_SMEM_AFFINE, .base = smem_base_bytes, .per_thread = smem_per_thread_bytes};
    return best_block(dev, kernel, &rule, threads, min_grid);
}

int32_t gpuocc_best_block_table(const gpuocc_device *dev, const gpuocc_kernel *kernel, const int64_t *smem_by_threads,
                                int32_t count, int32_t *threads, int32_t *min_grid)
{
    if (!smem_by_threads)
        return GPUOCC_ERR_NULL;
    if (count < 1)
        return GPUOCC_ERR_ARGUMENT;
    struct gpuocc_smem_rule rule = {.source = GPUOCC_SMEM_TABLE, .table = smem_by_threads, .count = count};
    return best_block(dev, kernel, &rule, threads, min_grid);
}

int32_t gpuocc_best_block_callback(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_smem_fn fn,
                                   void *user_data, int32_t *threads, int32_t *min_grid)
{
    if (!fn)
        return GPUOCC_ERR_NULL;
    struct gpuocc_smem_rule rule = {.source = GPUOCC_SMEM_CALLBACK, .fn = fn, .user_data = user_data};
    return best_block(dev, kernel, &rule, threads, min_grid);
}

/* ---- "largest value that still gives N blocks" ---- */

/* Blocks per SM when one of the kernel's demands is set to `value`; `whole` = all resources, else
   only the named resource's own limit. */
typedef int32_t (*blocks_at_fn)(const gpuocc_device *d, gpuocc_kernel k, int64_t value, bool whole);

static int32_t total_blocks(const gpuocc_device *d, const gpuocc_kernel *k)
{
    gpuocc_result r;
    gpuocc_compute(d, k, &r);
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

int32_t gpuocc_smem_dynamic_available(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t blocks,
                                      int64_t *bytes)
{
    gpuocc_device d_scratch;
    gpuocc_kernel k_scratch;
    const gpuocc_device *d;
    const gpuocc_kernel *k;
    int32_t rc = GPUOCC_OK;
    if (!search_structs(dev, kernel, &d_scratch, &k_scratch, &d, &k, &rc))
        return rc;
    if (!bytes)
        return GPUOCC_ERR_NULL;
    if (blocks < 1)
        return GPUOCC_ERR_ARGUMENT;
    if (d->vendor == GPUOCC_VENDOR_AMD)
        return gpuocc_amd_smem_dynamic_available(d, k, blocks, bytes);
    return gpuocc_nv_smem_dynamic_available(d, k, blocks, bytes);
}

int32_t gpuocc_regs_max_for_blocks(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t blocks,
                                   int32_t *regs_per_thread)
{
    gpuocc_device d_scratch;
    gpuocc_kernel k_scratch;
    const gpuocc_device *d;
    const gpuocc_kernel *k;
    int32_t rc = GPUOCC_OK;
    if (!search_structs(dev, kernel, &d_scratch, &k_scratch, &d, &k, &rc))
        return rc;
    if (!regs_per_thread)
        return GPUOCC_ERR_NULL;
    if (blocks < 1)
        return GPUOCC_ERR_ARGUMENT;
    if (d->vendor == GPUOCC_VENDOR_AMD)
        return gpuocc_amd_regs_max_for_blocks(d, k, blocks, regs_per_thread);
    return gpuocc_nv_regs_max_for_blocks(d, k, blocks, regs_per_thread);
}

int32_t gpuocc_next_step(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t resource,
                         int64_t *new_value, int64_t *shed)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc = gpuocc_pair_load(&d, dev, &k, kernel);
    if (rc)
        return rc;
    if (!new_value || !shed)
        return GPUOCC_ERR_NULL;
    if (d.vendor == GPUOCC_VENDOR_AMD)
        return gpuocc_amd_next_step(&d, &k, resource, new_value, shed);
    int32_t target = total_blocks(&d, &k) + 1;

    blocks_at_fn at;
    int64_t current, lo, hi;
    switch (resource) {
    case GPUOCC_RESOURCE_REGISTERS:
        at = blocks_at_regs, current = k.regs_per_thread, lo = 0;
        hi = current < d.regs_per_thread_max ? current : d.regs_per_thread_max;
        break;
    case GPUOCC_RESOURCE_SMEM:
        at = blocks_at_smem_total, current = gpuocc_sat_add(k.smem_static_bytes, k.smem_dynamic_bytes), lo = 0;
        if (current >= GPUOCC_BYTES_HUGE)
            return GPUOCC_ERR_OVERFLOW; /* a saturated total would give a made-up amount to shed */
        hi = current < gpuocc_nv_smem_search_top(&d) ? current : gpuocc_nv_smem_search_top(&d);
        break;
    case GPUOCC_RESOURCE_WARPS:
        at = blocks_at_threads, current = k.threads_per_block, lo = 1;
        hi = current < d.max_threads_per_block ? current : d.max_threads_per_block;
        break;
    case GPUOCC_RESOURCE_BARRIERS:
        at = blocks_at_barriers, current = k.barriers, lo = 0;
        hi = current < d.barriers_per_sm ? current : d.barriers_per_sm;
        break;
    case GPUOCC_RESOURCE_BLOCKS:
        if (d.max_blocks_per_sm >= target) {
            *new_value = d.max_blocks_per_sm, *shed = 0;
            return GPUOCC_OK;
        }
        return GPUOCC_ERR_UNSATISFIABLE;
    default:
        return GPUOCC_ERR_RESOURCE;
    }
    if (at(&d, k, current, false) >= target) {
        *new_value = current, *shed = 0;
        return GPUOCC_OK;
    }
    int64_t found = resource == GPUOCC_RESOURCE_SMEM
                        ? largest_bytes_meeting(&d, &k, at, false, d.smem_reserved_per_block_bytes, hi, target)
                        : largest_meeting(&d, &k, at, false, lo, hi, 1, target);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *new_value = found;
    *shed = current - found;
    return GPUOCC_OK;
}
