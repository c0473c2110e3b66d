/*
 * The steps of a sweep on NVIDIA's rules: along one axis only one or two limits move, each a non-increasing
 * function of the axis value whose thresholds (the first value allowing fewer than b blocks) have closed
 * forms; the answer can change only at those thresholds.  And the range a sweep covers by default.
 */
#include "nvidia.h"

/* PTX's bar/barrier instructions name barriers 0..15: at most 16 per block (PTX ISA, "bar, barrier"). */
#define BARRIERS_PER_BLOCK_MAX 16
/* ptxas allocates at most 255 registers per thread (CUDA C++ Programming Guide, compute capabilities). */
#define COMPILER_REGS_MAX 255

/*
 * A family of thresholds t(b), b = 1..bmax: t(b) is the first axis value at which the moving limit allows
 * fewer than b blocks.  Limits are non-increasing along the axis, so t is non-increasing in b.  Only
 * b <= (the smallest limit that does not move) + 1 can change the answer or its limiters.
 */
struct stepper {
    const gpuocc_device *d;
    const gpuocc_kernel *k;
    int32_t axis;
    int32_t bmax;
    int64_t warps;   /* regs: warps per block */
    int64_t offset;  /* smem: static + reserved bytes, what the allocation adds to the dynamic bytes */
};

/* The first dynamic byte count whose allocation is at least `alloc` (-1 when every count is). */
static int64_t dynamic_for_alloc(const struct stepper *s, int64_t alloc)
{
    if (alloc <= 0)
        return -1;
    int64_t unit = s->d->smem_alloc_unit_bytes;
    return ((alloc - 1) / unit) * unit + 1 - s->offset;
}

/* The first register count whose per-warp allocation is at least `per_warp`. */
static int64_t regs_for_per_warp(const struct stepper *s, int64_t per_warp)
{
    if (per_warp <= 0)
        return -1;
    int64_t unit = s->d->reg_alloc_unit;
    return ((per_warp - 1) / unit) * unit / s->d->warp_size + 1;
}

/* Registers: blocks >= b on `parts` sub-partitions needs floor(regs_per_sm / parts / per_warp) warps per
   sub-partition >= ceil(b x warps / parts), i.e. per_warp <= floor(regs_per_part / that). */
static int64_t regs_threshold(const struct stepper *s, int64_t parts, int64_t b)
{
    int64_t per_part = s->d->regs_per_sm / parts;
    int64_t warps_needed = gpuocc_div_up(b * s->warps, parts);
    return regs_for_per_warp(s, per_part / warps_needed + 1);
}

/* Shared memory with carveout `c` per SM: blocks >= b needs alloc <= floor(c / b). */
static int64_t smem_threshold(const struct stepper *s, int64_t c, int64_t b)
{
    return dynamic_for_alloc(s, c / b + 1);
}

/* Barriers: barriers_per_sm / n >= b needs n <= floor(barriers_per_sm / b). */
static int64_t barriers_threshold(const struct stepper *s, int64_t b)
{
    return s->d->barriers_per_sm / b + 1;
}

/* The smallest member > v of a non-increasing family t(1..bmax), or INT64_MAX: binary search on b. */
static int64_t smallest_above(const struct stepper *s, int64_t (*t)(const struct stepper *, int64_t, int64_t),
                              int64_t param, int64_t v)
{
    if (t(s, param, 1) <= v)
        return INT64_MAX;
    int64_t lo = 1, hi = s->bmax; /* t(lo) > v */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (t(s, param, mid) > v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return t(s, param, lo);
}

static int64_t barriers_family(const struct stepper *s, int64_t unused, int64_t b)
{
    (void)unused;
    return barriers_threshold(s, b);
}

static void consider(int64_t *best, int64_t candidate, int64_t v)
{
    if (candidate > v && candidate < *best)
        *best = candidate;
}

/* Threads: every rule sees the block as whole warps, so the answer can change only where a warp starts. */
static int64_t next_threads(const struct stepper *s, int64_t v)
{
    const gpuocc_device *d = s->d;
    if (v <= d->max_threads_per_block) {
        int64_t next_warp = (v / d->warp_size + 1) * d->warp_size + 1;
        if (v % d->warp_size == 0)
            next_warp = v + 1;
        return next_warp < d->max_threads_per_block + 1 ? next_warp : d->max_threads_per_block + 1;
    }
    /* Past the device's largest block nothing runs; only the register rule's reaching 0 (monotone in the
       block's warps) can still change the limiters.  Binary search for the first warp count where it does. */
    int64_t w = gpuocc_div_up(v, d->warp_size);
    int64_t regs = s->k->regs_per_thread;
    if (gpuocc_rule_registers(d, w * d->warp_size, regs) == 0)
        return INT64_MAX;
    int64_t lo = w, hi = gpuocc_div_up(INT32_MAX, d->warp_size) + 1; /* rule(lo) > 0; hi: sentinel */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (gpuocc_rule_registers(d, mid * d->warp_size, regs) == 0)
            hi = mid;
        else
            lo = mid;
    }
    return hi * d->warp_size - d->warp_size + 1;
}

static int64_t regs_family(const struct stepper *s, int64_t parts, int64_t b)
{
    return regs_threshold(s, parts, b);
}

static int64_t next_regs(const struct stepper *s, int64_t v)
{
    const gpuocc_device *d = s->d;
    int64_t best = INT64_MAX;
    consider(&best, 1, v);                          /* no registers: no limit */
    consider(&best, d->regs_per_thread_max + 1, v); /* the runtime's per-thread check */
    int64_t parts[2] = {d->sub_partitions, d->reg_compat_sub_partitions};
    for (int i = 0; i < 2; i++) {
        if (parts[i] <= 0)
            continue;
        /* the per-block check: per_warp x warps rounded up to the sub-partitions <= regs_per_block */
        consider(&best, regs_for_per_warp(s, d->regs_per_block / gpuocc_round_up(s->warps, parts[i]) + 1), v);
        consider(&best, smallest_above(s, regs_family, parts[i], v), v);
    }
    return best;
}

static int64_t smem_family(const struct stepper *s, int64_t carveout, int64_t b)
{
    return smem_threshold(s, carveout, b);
}

static int64_t next_smem(const struct stepper *s, int64_t v)
{
    const gpuocc_device *d = s->d;
    const gpuocc_kernel *k = s->k;
    int64_t best = INT64_MAX;
    consider(&best, dynamic_for_alloc(s, 1), v); /* a block with no shared memory at all is not limited */
    if (k->smem_optin) {
        int64_t most = k->smem_dynamic_max_bytes >= 0 ? k->smem_dynamic_max_bytes
                                                      : d->smem_per_block_optin_bytes - k->smem_static_bytes;
        if (most < INT64_MAX) /* INT64_MAX: no value above it to step to */
            consider(&best, most + 1, v);
    }
    /* the per-block limits: default and opt-in, each plus the reserved bytes */
    consider(&best, dynamic_for_alloc(s, d->smem_per_block_bytes + d->smem_reserved_per_block_bytes + 1), v);
    consider(&best, dynamic_for_alloc(s, d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes + 1), v);
    if (d->carveout_count == 0) {
        consider(&best, smallest_above(s, smem_family, d->smem_per_sm_bytes, v), v);
        return best;
    }
    /* the configured carveout moves with the allocation: each supported size is a regime of its own */
    for (int32_t i = 0; i < d->carveout_count; i++) {
        int64_t c = (int64_t)d->carveouts_kib[i] * 1024;
        consider(&best, dynamic_for_alloc(s, c + 1), v);
        consider(&best, smallest_above(s, smem_family, c, v), v);
    }
    consider(&best, smallest_above(s, smem_family, d->smem_per_sm_bytes, v), v);
    return best;
}

static int64_t next_barriers(const struct stepper *s, int64_t v)
{
    int64_t best = INT64_MAX;
    if (s->d->barriers_per_sm == 0)
        return best;
    consider(&best, 1, v); /* no barriers: no limit */
    consider(&best, smallest_above(s, barriers_family, 0, v), v);
    return best;
}

int64_t gpuocc_nv_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to,
                             int32_t bmax)
{
    (void)to; /* the thresholds past `to` are the caller's to skip */
    struct stepper s = {.d = d, .k = k, .axis = axis, .bmax = bmax};
    s.warps = gpuocc_div_up(k->threads_per_block, d->warp_size);
    s.offset = gpuocc_sat_add(k->smem_static_bytes, d->smem_reserved_per_block_bytes);
    return axis == GPUOCC_AXIS_THREADS ? next_threads(&s, v)
           : axis == GPUOCC_AXIS_REGS  ? next_regs(&s, v)
           : axis == GPUOCC_AXIS_SMEM  ? next_smem(&s, v)
                                       : next_barriers(&s, v);
}

void gpuocc_nv_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from, int64_t *to,
                           int64_t *step)
{
    int64_t lo = 0, hi = 0, unit = 1;
    switch (axis) {
    case GPUOCC_AXIS_THREADS: {
        hi = d->max_threads_per_block;
        if (k->max_threads_per_block > 0 && k->max_threads_per_block < hi)
            hi = k->max_threads_per_block;
        unit = d->warp_size;
        lo = hi < unit ? hi : unit;
        break;
    }
    case GPUOCC_AXIS_REGS:
        hi = d->regs_per_thread_max < COMPILER_REGS_MAX ? d->regs_per_thread_max : COMPILER_REGS_MAX;
        break;
    case GPUOCC_AXIS_SMEM: {
        int64_t most = k->smem_optin ? (k->smem_dynamic_max_bytes >= 0 ? k->smem_dynamic_max_bytes
                                                                      : d->smem_per_block_optin_bytes - k->smem_static_bytes)
                                    : d->smem_per_block_bytes - k->smem_static_bytes;
        hi = most > 0 ? most : 0;
        unit = d->smem_alloc_unit_bytes;
        break;
    }
    default:
        hi = BARRIERS_PER_BLOCK_MAX;
        break;
    }
    *from = lo;
    *to = hi;
    *step = unit;
}
