/*
 * gpuocc_sweep on the fast path.  Along one axis only one part of the rules moves, and it moves in runs:
 * a point is evaluated where its run starts (with the parts that do not move computed once), together with
 * the last axis value the run reaches; the rest of the run copies that point and sets its value (and, on
 * the shared-memory axis, the block's allocation, which grows with every unit).  Every point equals
 * gpuocc_rule_all's answer for its launch.
 */
#include "fast.h"

/* A point as its nine 8-byte words (little-endian packing of gpuocc_sweep_point, checked below), built
   in registers: the copies of a run's first point then never read back what was just stored. */
struct words {
    uint64_t w[9];
};
#define PAIR(lo, hi) ((uint64_t)(uint32_t)(lo) | (uint64_t)(uint32_t)(hi) << 32)

static inline struct words point_words(const struct gpuocc_nv_fast *f, struct gpuocc_nv_answer *a, int64_t value)
{
    uint32_t limiters;
    gpuocc_nv_fast_combine(f->d, a, &limiters);
    int32_t warps = a->blocks * (int32_t)a->warps_per_block; /* at most the warp slots */
    double occupancy = (double)warps / (double)f->slots;
    struct words p;
    p.w[0] = (uint64_t)value;
    p.w[1] = PAIR(a->blocks, warps);
    memcpy(&p.w[2], &occupancy, sizeof occupancy);
    p.w[3] = PAIR(limiters, a->warps_blocks);
    p.w[4] = PAIR(gpuocc_public_limit(a->regs_blocks), gpuocc_public_limit(a->smem_blocks));
    p.w[5] = PAIR(f->d->max_blocks_per_sm, gpuocc_public_limit(a->barrier_blocks));
    p.w[6] = PAIR(gpuocc_nv_fast_regs_per_block(a), 0);
    p.w[7] = (uint64_t)a->alloc;
    p.w[8] = (uint64_t)a->carveout;
    return p;
}

_Static_assert(sizeof(gpuocc_sweep_point) == 72 && offsetof(gpuocc_sweep_point, occupancy) == 16 &&
                   offsetof(gpuocc_sweep_point, limiters) == 24 && offsetof(gpuocc_sweep_point, limit_regs) == 32 &&
                   offsetof(gpuocc_sweep_point, limit_blocks) == 40 &&
                   offsetof(gpuocc_sweep_point, regs_per_block) == 48 &&
                   offsetof(gpuocc_sweep_point, smem_per_block_bytes) == 56,
               "the words of a point");

/* m points of one run at values v, v + step, ...; when `moves` (the shared-memory axis, where a block's
   allocation grows with every unit), smem_per_block_bytes = (bytes + value) & mask. */
static inline void store_run(gpuocc_sweep_point *p, int64_t m, const struct words *w, int64_t v, int64_t step,
                             bool moves, int64_t bytes, int64_t mask)
{
    gpuocc_sweep_point *end = p + m;
#if GPUOCC_VECTORS && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* 16-byte words held in registers; the value and the allocation put in per point */
    typedef uint64_t u64x2 __attribute__((vector_size(16)));
    uint64_t w1 = w->w[1], w6 = w->w[6], w7 = w->w[7], w8 = w->w[8];
    u64x2 second = {w->w[2], w->w[3]}, third = {w->w[4], w->w[5]};
    /* unsigned: v steps once past the last point, where it may leave int64_t */
    for (; p < end; p++, v = (int64_t)((uint64_t)v + (uint64_t)step)) {
        u64x2 first = {(uint64_t)v, w1};
        u64x2 fourth = {w6, moves ? (uint64_t)((bytes + v) & mask) : w7};
        unsigned char *q = (unsigned char *)p;
        memcpy(q, &first, 16);
        memcpy(q + 16, &second, 16);
        memcpy(q + 32, &third, 16);
        memcpy(q + 48, &fourth, 16);
        memcpy(q + 64, &w8, 8);
    }
#else
    for (; p < end; p++, v = (int64_t)((uint64_t)v + (uint64_t)step)) {
        *p = (gpuocc_sweep_point){.value = v, .blocks_per_sm = (int32_t)w->w[1], .warps_per_sm = (int32_t)(w->w[1] >> 32),
                                  .limiters = (uint32_t)w->w[3], .limit_warps = (int32_t)(w->w[3] >> 32),
                                  .limit_regs = (int32_t)w->w[4], .limit_smem = (int32_t)(w->w[4] >> 32),
                                  .limit_blocks = (int32_t)w->w[5], .limit_barriers = (int32_t)(w->w[5] >> 32),
                                  .regs_per_block = (int32_t)w->w[6], .reserved0 = 0,
                                  .smem_per_block_bytes = moves ? (bytes + v) & mask : (int64_t)w->w[7],
                                  .smem_per_sm_bytes = (int64_t)w->w[8]};
        memcpy(&p->occupancy, &w->w[2], sizeof p->occupancy);
    }
#endif
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* The largest dynamic byte count, from `dynamic` on, over which the shared-memory answer `a` (at
   `dynamic`) holds: the same carveout, and the same blocks as long as floor(carveout / allocation) stays. */
static int64_t smem_run_end(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k, int64_t dynamic,
                            const struct gpuocc_nv_answer *a)
{
    const gpuocc_device *d = f->d;
    /* the carveout holding max(preference, allocation) stays until the allocation outgrows it; when none
       holds it, none ever will */
    int64_t alloc_end = d->carveout_count > 0 && a->carveout >= a->alloc ? a->carveout : INT64_MAX;
    int64_t end = INT64_MAX;
    if (a->smem_blocks == GPUOCC_NO_LIMIT) {
        alloc_end = 0; /* nothing allocated: the next byte allocates */
    } else if (a->smem_blocks > 0) {
        /* 0 blocks (over a per-block limit, or the opt-in attribute) stays 0 as the block grows */
        int64_t dynamic_max = k->smem_dynamic_max_bytes >= 0 ? k->smem_dynamic_max_bytes
                                                             : d->smem_per_block_optin_bytes - k->smem_static_bytes;
        int64_t limit = d->smem_per_block_bytes;
        if (k->smem_optin) {
            int64_t largest = k->smem_static_bytes + d->smem_reserved_per_block_bytes + (dynamic_max > 0 ? dynamic_max : 0);
            limit = largest > limit ? d->smem_per_block_optin_bytes : limit;
            end = dynamic_max;
        }
        limit += d->smem_reserved_per_block_bytes;
        alloc_end = min64(min64(alloc_end, limit), gpuocc_div(a->carveout, a->smem_blocks));
    }
    if (alloc_end < INT64_MAX) {
        /* the last dynamic byte count whose allocation is at most alloc_end */
        int64_t unit_floor = alloc_end & -(int64_t)d->smem_alloc_unit_bytes;
        end = min64(end, unit_floor - k->smem_static_bytes - d->smem_reserved_per_block_bytes);
    }
    return end < dynamic ? dynamic : end;
}

bool gpuocc_nv_sweep_fill(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t from, int64_t step,
                          int64_t n, gpuocc_sweep_point *points)
{
    struct gpuocc_nv_fast f;
    if (!gpuocc_nv_fast_init(&f, d))
        return false;
    int64_t last = from + (n - 1) * step;
    int64_t threads_top = axis == GPUOCC_AXIS_THREADS ? last : k->threads_per_block;
    if (threads_top > (int64_t)f.thread_cap || (axis == GPUOCC_AXIS_SMEM && last >= GPUOCC_FAST_BYTES))
        return false;
    /* the parts of the rules the axis does not move */
    struct gpuocc_nv_answer a = {0};
    struct gpuocc_nv_regs regs;
    gpuocc_nv_fast_regs(&f, k->regs_per_thread, &regs);
    if (axis != GPUOCC_AXIS_THREADS && axis != GPUOCC_AXIS_REGS)
        gpuocc_nv_fast_threads(&f, (uint32_t)k->threads_per_block, &regs, &a);
    if (axis != GPUOCC_AXIS_SMEM)
        gpuocc_nv_fast_smem(&f, k, k->smem_static_bytes, k->smem_dynamic_bytes, &a);
    if (axis != GPUOCC_AXIS_BARRIERS)
        a.barrier_blocks = gpuocc_nv_fast_barriers(d, k->barriers);

    int64_t fixed = k->smem_static_bytes + d->smem_reserved_per_block_bytes + d->smem_alloc_unit_bytes - 1;
    int64_t unit_mask = -(int64_t)d->smem_alloc_unit_bytes;
    for (int64_t i = 0; i < n;) {
        int64_t v = from + i * step;
        int64_t run_end; /* the answer at v holds for axis values up to this */
        switch (axis) {
        case GPUOCC_AXIS_THREADS: {
            gpuocc_nv_fast_threads(&f, (uint32_t)v, &regs, &a);
            /* the same warps per block, on the same side of the device's largest block */
            int64_t warp_end = (int64_t)a.warps_per_block << f.warp_shift;
            run_end = v <= d->max_threads_per_block ? min64(warp_end, d->max_threads_per_block) : warp_end;
            break;
        }
        case GPUOCC_AXIS_REGS:
            gpuocc_nv_fast_threads_regs(&f, (uint32_t)k->threads_per_block, v, &a);
            /* the same allocation per warp, on the same side of the per-thread maximum */
            run_end = a.per_warp >> f.warp_shift;
            run_end = v <= d->regs_per_thread_max ? min64(run_end, d->regs_per_thread_max) : run_end;
            break;
        case GPUOCC_AXIS_SMEM:
            gpuocc_nv_fast_smem(&f, k, k->smem_static_bytes, v, &a);
            run_end = smem_run_end(&f, k, v, &a);
            break;
        default:
            a.barrier_blocks = gpuocc_nv_fast_barriers(d, v);
            /* floor(barriers_per_sm / b) stays q up to floor(barriers_per_sm / q) */
            run_end = d->barriers_per_sm == 0 || (v > 0 && a.barrier_blocks == 0) ? INT64_MAX
                      : v == 0                                                   ? 0
                                                                                 : d->barriers_per_sm / a.barrier_blocks;
            break;
        }
        struct words run = point_words(&f, &a, v);
        int64_t m = run_end >= last ? n - i : run_end - v < step ? 1 : gpuocc_div(run_end - v, step) + 1;
        if (axis == GPUOCC_AXIS_SMEM)
            store_run(points + i, m, &run, v, step, true, fixed, unit_mask);
        else
            store_run(points + i, m, &run, v, step, false, 0, 0);
        i += m;
    }
    return true;
}
