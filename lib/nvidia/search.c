/*
 * The block-size search under NVIDIA's rules: the candidate with the most resident threads (blocks per SM x
 * block size), the largest on ties.  Every limit but shared memory depends on the block size only through
 * its warps w, as w <= W ? floor(F / w) : 0 (F: the warps the slots and the register file hold; W: the most
 * warps the per-block register checks allow), and the block slots and barriers are a constant cap.  With a
 * constant amount of shared memory the answer is solved over the blocks per SM instead of walked; with a
 * variable amount the walk from the largest candidate stops once no smaller one can hold more threads.
 */
#include "nvidia.h"

/* What the search needs that does not depend on the block size. */
struct search {
    const gpuocc_device *d;
    gpuocc_nv_values v;      /* the rule's values, derived once */
    int64_t warp, limit;     /* warp size; the largest candidate */
    int64_t fit, most;       /* F and W above (most = 0: no block size runs) */
    int64_t cap;             /* block slots and barriers */
    /* shared memory: the kernel's fixed bytes, the most dynamic bytes a block may use (the opt-in
       attribute and the per-block limit), the preferred carveout, the granule (and whether it is a power
       of two) */
    int64_t fixed, dynamic_limit, preferred, unit;
    bool unit_pow2;
};

/* floor(capacity / parts) / per_warp warps in each of `parts` sub-partitions: the warps the file holds. */
static int64_t search_file_warps(const gpuocc_device *d, int64_t per_warp, int64_t parts)
{
    return gpuocc_div(gpuocc_div_unit(d->regs_per_sm, parts), per_warp) * parts;
}

/* The most warps per block with per_warp x (warps rounded up to the parts) <= regs_per_block. */
static int64_t search_block_warps(const gpuocc_device *d, int64_t per_warp, int64_t parts)
{
    return gpuocc_div_unit(gpuocc_div(d->regs_per_block, per_warp), parts) * parts;
}

static void search_init(struct search *s, const gpuocc_device *d, const gpuocc_kernel *k)
{
    s->d = d;
    gpuocc_nv_derive(d, &s->v);
    s->warp = d->warp_size;
    s->limit = d->max_threads_per_block;
    if (k->max_threads_per_block > 0 && k->max_threads_per_block < s->limit)
        s->limit = k->max_threads_per_block;
    int64_t slots = gpuocc_div_unit(d->max_threads_per_sm, d->warp_size);
    s->fit = slots;
    s->most = INT32_MAX;
    if (k->regs_per_thread > d->regs_per_thread_max) {
        s->most = 0;
    } else {
        int64_t per_warp = gpuocc_nv_regs_per_warp(&s->v, k->regs_per_thread);
        if (per_warp > 0) {
            /* gpuocc_rule_registers: the per-block check, the file's warps, and GP100's compatibility
               layout (which must hold one block of the block's warps) */
            int64_t file = search_file_warps(d, per_warp, d->sub_partitions);
            s->fit = file < slots ? file : slots;
            s->most = search_block_warps(d, per_warp, d->sub_partitions);
            if (d->reg_compat_sub_partitions > 0) {
                int64_t compat = search_block_warps(d, per_warp, d->reg_compat_sub_partitions);
                int64_t compat_file = search_file_warps(d, per_warp, d->reg_compat_sub_partitions);
                compat = compat_file < compat ? compat_file : compat;
                s->most = compat < s->most ? compat : s->most;
            }
            if (s->fit == 0)
                s->most = 0;
        }
    }
    int32_t barriers = gpuocc_nv_barriers_limit(&s->v, k->barriers);
    s->cap = barriers < d->max_blocks_per_sm ? barriers : d->max_blocks_per_sm;
    int32_t virtual_blocks = gpuocc_nv_virtual_limit(&s->v, k->virtual_resources); /* the same for every block size */
    s->cap = virtual_blocks < s->cap ? virtual_blocks : s->cap;
    s->fixed = gpuocc_sat_add(k->smem_static_bytes, d->smem_reserved_per_block_bytes);
    s->unit = d->smem_alloc_unit_bytes;
    s->unit_pow2 = (s->unit & (s->unit - 1)) == 0;
    /* the allocation, fixed + dynamic rounded up to the unit, fits the per-block limit exactly when fixed +
       dynamic fits the limit rounded down to the unit (a negative limit when fixed is saturated) */
    s->dynamic_limit = gpuocc_div_unit(gpuocc_nv_smem_block_limit(&s->v, k), s->unit) * s->unit - s->fixed;
    if (k->smem_optin) {
        int64_t attribute = gpuocc_nv_dynamic_max(&s->v, k);
        s->dynamic_limit = attribute < s->dynamic_limit ? attribute : s->dynamic_limit;
    }
    s->preferred = gpuocc_nv_preferred_carveout(&s->v, k);
}

/* The smaller of n (<= 2^20) and the blocks per SM shared memory allows with `dynamic` bytes
   (gpuocc_rule_smem with the kernel's constants hoisted): the preferred carveout, unless the block needs a
   larger one; a division only where shared memory is the smaller. */
static int64_t search_smem_cap(const struct search *s, int64_t dynamic, int64_t n)
{
    if (dynamic > s->dynamic_limit)
        return 0;
    /* fixed + dynamic <= the per-block limit < 2^42 here */
    int64_t used = s->fixed + dynamic;
    int64_t alloc = s->unit_pow2 ? (used + s->unit - 1) & -s->unit : gpuocc_round_up_unit(used, s->unit);
    if (alloc == 0)
        return n;
    int64_t carveout = alloc <= s->preferred ? s->preferred : gpuocc_nv_carveout_at_least(&s->v, alloc);
    if (carveout < 0)
        carveout = s->d->smem_per_sm_bytes;
    return n * alloc <= carveout ? n : gpuocc_div(carveout, alloc);
}

/* Blocks per SM at w warps per block by everything but shared memory. */
static inline int64_t search_blocks(const struct search *s, int64_t w)
{
    if (w > s->most)
        return 0;
    /* fit <= 2^20 slots, w >= 1 */
    uint32_t b = (uint32_t)s->fit / (uint32_t)w;
    return b < s->cap ? b : s->cap;
}

/*
 * Constant shared memory: blocks(w) = min(B, floor(F / w)) for w <= W.  The block size with the most
 * resident threads among the multiples of the warp is, for some block count b, the largest w with
 * blocks(w) >= b, namely min(W, floor(F / b)): try b upwards (w falls), until no larger b can do better.
 * The top candidate (the limit, perhaps not a multiple of the warp) is evaluated on its own and wins ties.
 */
static void best_constant(const struct search *s, int64_t smem_blocks, int32_t *threads, int32_t *blocks)
{
    int64_t cap = smem_blocks;
    int64_t w0 = gpuocc_div_unit(s->limit - 1, s->warp) + 1;
    int64_t b0 = search_blocks(s, w0);
    b0 = b0 < cap ? b0 : cap;
    int64_t best_w = 0, best_b = 0, best = 0; /* among the multiples of the warp, in warps x blocks */
    int64_t top = w0 - 1 < s->most ? w0 - 1 : s->most;
    if (top >= 1 && cap >= 1) {
        if (gpuocc_div(s->fit, top) >= cap) {
            best_w = top, best_b = cap, best = top * cap;
        } else {
            for (int64_t b = s->fit / top > 1 ? s->fit / top : 1; b <= cap; b++) {
                int64_t w = s->fit / b;
                w = w < top ? w : top;
                if (w < 1)
                    break;
                int64_t n = s->fit / w;
                n = n < cap ? n : cap;
                if (w * n > best)
                    best_w = w, best_b = n, best = w * n;
                /* larger b: w <= F / (b + 1) and at most `cap` blocks; never more than F warps */
                if (best == s->fit || s->fit / (b + 1) * cap <= best)
                    break;
            }
        }
    }
    if (b0 * s->limit >= best * s->warp) {
        *threads = b0 > 0 ? (int32_t)s->limit : 0;
        *blocks = (int32_t)b0;
    } else {
        *threads = (int32_t)(best_w * s->warp);
        *blocks = (int32_t)best_b;
    }
}

/* The dynamic shared memory of a candidate; GPUOCC_ERR_SMEM for a negative one. */
static inline int32_t search_dynamic(const struct gpuocc_smem_rule *rule, enum gpuocc_smem_source source,
                                     int64_t threads, int64_t *bytes)
{
    if (source != GPUOCC_SMEM_CALLBACK) {
        if (source == GPUOCC_SMEM_TABLE) {
            *bytes = rule->table[threads]; /* checked before the walk */
            return GPUOCC_OK;
        }
        /* base + per_thread x threads, saturating: both are >= 0 and threads <= 2^20 (no division unless
           per_thread is near 2^40) */
        int64_t per = rule->per_thread <= GPUOCC_BYTES_HUGE >> 20 || rule->per_thread <= GPUOCC_BYTES_HUGE / threads
                          ? rule->per_thread * threads
                          : GPUOCC_BYTES_HUGE;
        *bytes = gpuocc_sat_add(rule->base, per);
        return GPUOCC_OK;
    }
    *bytes = rule->fn((int32_t)threads, rule->user_data);
    return *bytes < 0 ? GPUOCC_ERR_SMEM : GPUOCC_OK;
}

/* The most blocks any allocation above the preferred carveout gets: 1 where every larger carveout is
   less than twice the smallest allocation it serves (every NVIDIA GPU so far), else no bound below the cap. */
static int64_t above_preferred(const struct search *s)
{
    const gpuocc_device *d = s->d;
    for (int32_t i = d->carveout_count - 1; i >= 0 && (int64_t)d->carveouts_kib[i] * 1024 > s->preferred; i--) {
        int64_t below = i > 0 ? (int64_t)d->carveouts_kib[i - 1] * 1024 : 0;
        below = s->preferred > below ? s->preferred : below;
        int64_t least = (gpuocc_div_unit(below, s->unit) + 1) * s->unit;
        if ((int64_t)d->carveouts_kib[i] * 1024 >= 2 * least)
            return s->cap;
    }
    return 1;
}

/*
 * Variable shared memory: walk the candidates from the largest down.  A candidate's resident threads are
 * at most t x min(cap, floor(F / w)), so shared memory is evaluated only where that beats the best so far;
 * the walk stops once no smaller candidate t' can beat it: t' x cap, F warps, and for the affine form t' x
 * the blocks shared memory allows (floor(preferred / (fixed + base + per_thread x t')) at most within the
 * preferred carveout, above_preferred() above it).  The callback is asked for every candidate regardless.
 */
static inline int32_t best_variable(const struct search *s, const struct gpuocc_smem_rule *rule,
                                    enum gpuocc_smem_source source, int32_t *threads, int32_t *blocks)
{
    bool walk_all = source == GPUOCC_SMEM_CALLBACK;
    bool affine = source == GPUOCC_SMEM_AFFINE;
    int64_t warp = s->warp;
    int64_t w = gpuocc_div_unit(s->limit - 1, warp) + 1; /* the largest candidate's warps */
    if (!walk_all && w > s->most)
        w = s->most; /* larger blocks get no registers */
    int64_t best = 0, best_t = 0, best_b = 0, above = -1;
    for (; w > 0; w--) {
        int64_t t = w * warp < s->limit ? w * warp : s->limit;
        int64_t dynamic = 0;
        int32_t rc = search_dynamic(rule, source, t, &dynamic);
        if (rc)
            return rc;
        int64_t n = search_blocks(s, w);
        if (n * t > best) {
            n = search_smem_cap(s, dynamic, n);
            if (n * t > best)
                best = n * t, best_t = t, best_b = n;
        }
        if (walk_all)
            continue;
        int64_t next = (w - 1) * warp; /* the next candidate */
        if (best >= next * s->cap || best >= s->fit * warp)
            break;
        if (affine && rule->per_thread > 0 && next > 0) {
            if (above < 0)
                above = above_preferred(s);
            /* t x floor(preferred / alloc(t)) <= next x preferred / (fixed + dynamic(next)) for every t <= next:
               t / (fixed + base + per_thread x t) grows with t */
            int64_t least = 0;
            search_dynamic(rule, GPUOCC_SMEM_AFFINE, next, &least);
            least = gpuocc_sat_add(s->fixed, least);
            /* next <= 2^20 and preferred < 2^41: the product fits */
            int64_t within = gpuocc_div(next * s->preferred, least);
            if (best >= within && best >= next * above)
                break;
        }
    }
    *threads = (int32_t)best_t;
    *blocks = (int32_t)best_b;
    return GPUOCC_OK;
}

int32_t gpuocc_nv_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                             int32_t *threads, int32_t *blocks)
{
    struct search s;
    search_init(&s, d, k);
    if (rule->source == GPUOCC_SMEM_TABLE) {
        /* a table's errors come first, as a full walk would meet them: an entry past the table (only the
           largest candidate can be), then a negative entry at any candidate */
        if (s.limit >= rule->count)
            return GPUOCC_ERR_BUFFER;
        int64_t sign = rule->table[s.limit], t = s.warp;
        /* four candidates a step (one sign for them all), then the rest */
        for (; t + 3 * s.warp < s.limit; t += 4 * s.warp)
            sign |= rule->table[t] | rule->table[t + s.warp] | rule->table[t + 2 * s.warp] | rule->table[t + 3 * s.warp];
        for (; t < s.limit; t += s.warp)
            sign |= rule->table[t];
        if (sign < 0)
            return GPUOCC_ERR_SMEM;
        return best_variable(&s, rule, GPUOCC_SMEM_TABLE, threads, blocks);
    }
    if (rule->source == GPUOCC_SMEM_CALLBACK)
        return best_variable(&s, rule, GPUOCC_SMEM_CALLBACK, threads, blocks);
    if (rule->per_thread == 0) {
        best_constant(&s, search_smem_cap(&s, rule->base, s.cap), threads, blocks);
        return GPUOCC_OK;
    }
    return best_variable(&s, rule, GPUOCC_SMEM_AFFINE, threads, blocks);
}

int32_t gpuocc_nv_best_block_grid(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                                  int32_t *threads, int32_t *min_grid)
{
    int32_t best_threads = 0, best_blocks = 0;
    int32_t rc = gpuocc_nv_best_block(d, k, rule, &best_threads, &best_blocks);
    if (rc)
        return rc;
    *threads = best_threads;
    *min_grid = gpuocc_clamp_i32((int64_t)best_blocks * d->sm_count);
    return GPUOCC_OK;
}
