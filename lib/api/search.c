/*
 * Inverse and search queries.  Each checks its arguments and hands the checked structs to the device's
 * vendor once, through its table (lib/nvidia/search.c, rule.c and next_step.c; AMD's and Intel's are the
 * generic searches over their limit vectors, lib/core/bisect.c).
 */
#include "api.h"

/* ---- block-size search ---- */

/* The checks, which name the error: the checked structs (in place, or zero-extended copies in the scratch),
   or NULL with *rc set. */
static const gpuocc_device *search_plain(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_device *d_scratch,
                                         gpuocc_kernel *k_scratch, const gpuocc_kernel **k, int32_t *rc)
{
    const gpuocc_device *d = gpuocc_device_view(dev, d_scratch, rc);
    if (!d)
        return NULL;
    *k = gpuocc_kernel_view_api(kernel, k_scratch, rc);
    if (*k && (*rc = gpuocc_pair_check(d, *k)))
        return NULL; /* an AMD kernel's wave size and AGPRs against its device */
    return *k ? d : NULL;
}

/* The checked device and kernel of a search, in *d and *k; false (and *rc) when a check fails. */
static inline bool search_structs(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_device *d_scratch,
                                  gpuocc_kernel *k_scratch, const gpuocc_device **d, const gpuocc_kernel **k,
                                  int32_t *rc)
{
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
    return gpuocc_vendor_of(d->vendor)->best_block(d, k, rule, threads, min_grid);
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

/* An inverse query's checks, in the order each reports its errors: the structs, the output pointer, the block
   count; the checked device (*k the kernel), or NULL with *rc set. */
static const gpuocc_device *inverse_structs(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                            gpuocc_device *d_scratch, gpuocc_kernel *k_scratch,
                                            const gpuocc_kernel **k, const void *out, int32_t blocks, int32_t *rc)
{
    const gpuocc_device *d;
    if (!search_structs(dev, kernel, d_scratch, k_scratch, &d, k, rc))
        return NULL;
    *rc = !out ? GPUOCC_ERR_NULL : blocks < 1 ? GPUOCC_ERR_ARGUMENT : GPUOCC_OK;
    return *rc ? NULL : d;
}

int32_t gpuocc_smem_dynamic_available(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t blocks,
                                      int64_t *bytes)
{
    gpuocc_device d_scratch;
    gpuocc_kernel k_scratch;
    const gpuocc_kernel *k;
    int32_t rc = GPUOCC_OK;
    const gpuocc_device *d = inverse_structs(dev, kernel, &d_scratch, &k_scratch, &k, bytes, blocks, &rc);
    return d ? gpuocc_vendor_of(d->vendor)->smem_dynamic_available(d, k, blocks, bytes) : rc;
}

int32_t gpuocc_regs_max_for_blocks(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t blocks,
                                   int32_t *regs_per_thread)
{
    gpuocc_device d_scratch;
    gpuocc_kernel k_scratch;
    const gpuocc_kernel *k;
    int32_t rc = GPUOCC_OK;
    const gpuocc_device *d = inverse_structs(dev, kernel, &d_scratch, &k_scratch, &k, regs_per_thread, blocks, &rc);
    return d ? gpuocc_vendor_of(d->vendor)->regs_max_for_blocks(d, k, blocks, regs_per_thread) : rc;
}

/* ---- pipeline stages ---- */

/* Whether `want` blocks fit with base + s x stage bytes of dynamic shared memory (the rule itself), and the
   carveout the driver picks for that launch (*carveout; 0 when the rule refuses it). */
static bool stages_fit(const gpuocc_device *d, gpuocc_kernel *k, int64_t base, int64_t stage, int64_t s, int32_t want,
                       int64_t *carveout)
{
    gpuocc_result r;
    k->smem_dynamic_bytes = base + s * stage; /* at most the bound below: no overflow */
    int32_t rc = gpuocc_rule(d, k, &r);
    *carveout = rc == GPUOCC_OK ? r.smem_per_sm_bytes : 0;
    return rc == GPUOCC_OK && r.blocks_per_sm >= want;
}

/*
 * The most stages s <= hi with which `want` blocks fit, or -1.  The carveout the driver picks never shrinks
 * as the shared memory grows, and while it stays the same the blocks never rise: within one carveout "fits"
 * holds up to some s and not above.  So the stages are taken one carveout at a time from the top: the
 * lowest s of hi's carveout by bisection on the carveout, then the highest that fits in [lo, hi] by
 * bisection on the rule.  On every catalog device the first check at hi already fits (blocks fall as shared
 * memory grows); the walk is for a described device whose carveouts more than double, where they may rise.
 */
static int64_t stages_top(const gpuocc_device *d, gpuocc_kernel *k, int64_t base, int64_t stage, int64_t hi,
                          int32_t want)
{
    int64_t carveout, c;
    while (hi >= 0) {
        if (stages_fit(d, k, base, stage, hi, want, &carveout))
            return hi;
        int64_t lo = 0, top = hi; /* the lowest s in [0, hi] whose carveout is hi's */
        while (lo < top) {
            int64_t mid = lo + (top - lo) / 2;
            stages_fit(d, k, base, stage, mid, want, &c);
            if (c >= carveout)
                top = mid;
            else
                lo = mid + 1;
        }
        if (stages_fit(d, k, base, stage, lo, want, &c)) {
            int64_t good = lo, bad = hi; /* fits at good, not at bad */
            while (bad - good > 1) {
                int64_t mid = good + (bad - good) / 2;
                if (stages_fit(d, k, base, stage, mid, want, &c))
                    good = mid;
                else
                    bad = mid;
            }
            return good;
        }
        hi = lo - 1;
    }
    return -1;
}

int32_t gpuocc_max_stages(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t blocks, int64_t base_bytes,
                          int64_t stage_bytes, int64_t *stages)
{
    gpuocc_device d_scratch;
    gpuocc_kernel k_scratch;
    const gpuocc_kernel *k;
    int32_t rc = GPUOCC_OK;
    const gpuocc_device *d = inverse_structs(dev, kernel, &d_scratch, &k_scratch, &k, stages, blocks, &rc);
    if (!d)
        return rc;
    if (stage_bytes < 1)
        return GPUOCC_ERR_ARGUMENT;
    if (base_bytes < 0)
        return GPUOCC_ERR_SMEM;
    /* no launch above the most dynamic shared memory that holds the blocks fits them: the stages' bound */
    int64_t most;
    if ((rc = gpuocc_vendor_of(d->vendor)->smem_dynamic_available(d, k, blocks, &most)))
        return rc;
    if (most < base_bytes)
        return GPUOCC_ERR_UNSATISFIABLE;
    gpuocc_kernel launch = *k;
    int64_t found = stages_top(d, &launch, base_bytes, stage_bytes, (most - base_bytes) / stage_bytes, blocks);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *stages = found;
    return GPUOCC_OK;
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
    return gpuocc_vendor_of(d.vendor)->next_step(&d, &k, resource, new_value, shed);
}
