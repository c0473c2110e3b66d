/*
 * Sweeps along one axis of a launch (threads, registers, dynamic shared memory, barriers), and the steps
 * of the staircase.  Every point is gpuocc_rule on the launch with the axis set, so it equals a single
 * gpuocc_occupancy call by construction: a sweep is a batch whose one column is the swept input.  The steps are found from the allocation rules: along one axis
 * only one or two limits move, each a non-increasing function of the axis value whose thresholds (the
 * first value allowing fewer than b blocks) have closed forms; the answer can change only at those
 * thresholds, where it is evaluated.  No axis value is visited in between.
 */
#include "api.h"

#include "../nvidia/nvidia.h" /* NVIDIA's rule values, for the batch loop */

_Static_assert(sizeof(gpuocc_sweep_point) == 72, "gpuocc_sweep_point layout 1.0");
_Static_assert(offsetof(gpuocc_sweep_point, occupancy) == 16, "gpuocc_sweep_point layout 1.0");
_Static_assert(offsetof(gpuocc_sweep_point, smem_per_block_bytes) == 56, "gpuocc_sweep_point layout 1.0");


static void set_axis(gpuocc_kernel *k, int32_t axis, int64_t v)
{
    switch (axis) {
    case GPUOCC_AXIS_THREADS: k->threads_per_block = (int32_t)v; break;
    case GPUOCC_AXIS_REGS: k->regs_per_thread = (int32_t)v; break;
    case GPUOCC_AXIS_SMEM: k->smem_dynamic_bytes = v; break;
    default: k->barriers = (int32_t)v; break;
    }
}

/* The smallest legal value of an axis, and the status naming it. */
static int64_t axis_min(int32_t axis)
{
    return axis == GPUOCC_AXIS_THREADS ? 1 : 0;
}
static int32_t axis_error(int32_t axis)
{
    static const int32_t errors[GPUOCC_AXIS_COUNT] = {GPUOCC_ERR_THREADS, GPUOCC_ERR_REGISTERS, GPUOCC_ERR_SMEM,
                                                      GPUOCC_ERR_BARRIERS};
    return errors[axis];
}

/*
 * Check the device and kernel; the kernel's own value on the swept axis is replaced by `from` before it is
 * checked, so it may be anything.  Then check the range.  *d is the caller's device itself when it holds the
 * current layout (else the checked copy in `scratch`); an NVIDIA device's rule values are derived into
 * `values` (once: the checks and the sweep read them).
 */
static int32_t sweep_load(const gpuocc_device **d, gpuocc_device *scratch, gpuocc_nv_values *values,
                          const gpuocc_device *dev, gpuocc_kernel *k, const gpuocc_kernel *kernel, int32_t axis,
                          int64_t from, int64_t to)
{
    int32_t rc;
    if (!(*d = gpuocc_device_view(dev, scratch, &rc)))
        return rc;
    gpuocc_kernel raw;
    if ((rc = gpuocc_struct_load(&raw, sizeof raw, kernel, GPUOCC_KERNEL_SIZE_MIN)))
        return rc;
    if (axis < 0 || axis >= GPUOCC_AXIS_COUNT)
        return GPUOCC_ERR_ARGUMENT;
    int64_t hi = axis == GPUOCC_AXIS_SMEM ? INT64_MAX : INT32_MAX;
    if (from < axis_min(axis) || to > hi)
        return axis_error(axis);
    if (to < from)
        return GPUOCC_ERR_ARGUMENT;
    set_axis(&raw, axis, from);
    if ((rc = gpuocc_kernel_check(&raw)))
        return rc;
    *k = raw;
    if ((*d)->vendor == GPUOCC_VENDOR_NVIDIA)
        gpuocc_nv_derive(*d, values);
    int32_t input;
    int64_t limit;
    if ((rc = (*d)->vendor == GPUOCC_VENDOR_NVIDIA ? gpuocc_nv_refusal_values(values, k, &input, &limit)
                                                   : gpuocc_pair_check(*d, k)) ||
        axis != GPUOCC_AXIS_BARRIERS)
        return rc;
    /* the barriers' other end: more than a block may use there is a launch that cannot run, the axis' error
       (shared memory's axis is the dynamic one, which that check does not bound; another vendor's field is the
       kernel's, passed at the first end) */
    gpuocc_kernel last = *k;
    set_axis(&last, axis, to);
    return (*d)->vendor == GPUOCC_VENDOR_NVIDIA ? gpuocc_nv_launch_refusal(values, &last, &input, &limit)
                                                : gpuocc_pair_check(*d, &last);
}

static void to_point(int64_t value, const gpuocc_result *r, gpuocc_sweep_point *p)
{
    memset(p, 0, sizeof *p);
    p->value = value;
    p->blocks_per_sm = r->blocks_per_sm;
    p->warps_per_sm = r->warps_per_sm;
    p->occupancy = r->occupancy;
    p->limiters = r->limiters;
    p->limit_warps = r->limit_warps;
    p->limit_regs = r->limit_regs;
    p->limit_smem = r->limit_smem;
    p->limit_blocks = r->limit_blocks;
    p->limit_barriers = r->limit_barriers;
    p->regs_per_block = r->regs_per_block;
    p->smem_per_block_bytes = r->smem_per_block_bytes;
    p->smem_per_sm_bytes = r->smem_per_sm_bytes;
}

/* The rule at one point (the pair was checked at both ends of the range: every point passes it). */
static void evaluate(const gpuocc_device *d, gpuocc_kernel k, int32_t axis, int64_t v, gpuocc_result *r)
{
    set_axis(&k, axis, v);
    r->size = sizeof *r;
    if (gpuocc_rule(d, &k, r) != GPUOCC_OK)
        r->smem_per_block_bytes = GPUOCC_BYTES_HUGE; /* only a saturated size is refused between the ends */
}

int32_t gpuocc_sweep(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis, int64_t from, int64_t to,
                     int64_t step, gpuocc_sweep_point *points, int32_t capacity, int32_t *count)
{
    gpuocc_device scratch;
    const gpuocc_device *d;
    gpuocc_kernel k;
    gpuocc_nv_values values;
    int32_t rc = sweep_load(&d, &scratch, &values, dev, &k, kernel, axis, from, to);
    if (rc)
        return rc;
    if (!count || (capacity > 0 && !points))
        return GPUOCC_ERR_NULL;
    if (step < 1 || capacity < 0)
        return GPUOCC_ERR_ARGUMENT;
    /* to - from cannot overflow: from >= 0 */
    int64_t intervals = (to - from) / step;
    if (intervals >= INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    int64_t n = intervals + 1;
    if (n > capacity) {
        *count = (int32_t)n;
        return GPUOCC_ERR_BUFFER;
    }
    /* A block's shared memory only grows along the sweep: when the last point's allocation saturates
       (2^60 bytes) it cannot be reported, and nothing is written.  (Every point passes the other refusals:
       the pair was checked at both ends.) */
    const gpuocc_nv_values *v = NULL;
    if (d->vendor == GPUOCC_VENDOR_NVIDIA) {
        v = &values;
        gpuocc_kernel at = k;
        set_axis(&at, axis, from + intervals * step);
        int32_t input;
        int64_t limit;
        if (gpuocc_nv_launch_refusal(v, &at, &input, &limit) == GPUOCC_ERR_OVERFLOW)
            return GPUOCC_ERR_OVERFLOW;
    } else {
        gpuocc_result last;
        evaluate(d, k, axis, from + intervals * step, &last);
        if (last.smem_per_block_bytes >= GPUOCC_BYTES_HUGE)
            return GPUOCC_ERR_OVERFLOW;
    }
    /* The batch with the swept input as its one column, a chunk of points at a time. */
    enum { CHUNK = 256 };
    int32_t in32[CHUNK], status[CHUNK], blocks[CHUNK], warps[CHUNK], limit_warps[CHUNK], limit_regs[CHUNK];
    int32_t limit_smem[CHUNK], limit_blocks[CHUNK], limit_barriers[CHUNK], regs_per_block[CHUNK];
    uint32_t limiters[CHUNK];
    int64_t in64[CHUNK], smem_block[CHUNK], smem_sm[CHUNK];
    double occupancy[CHUNK];
    gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = status, .blocks_per_sm = blocks,
                      .warps_per_sm = warps, .occupancy = occupancy, .limiters = limiters,
                      .limit_warps = limit_warps, .limit_regs = limit_regs, .limit_smem = limit_smem,
                      .limit_blocks = limit_blocks, .limit_barriers = limit_barriers,
                      .regs_per_block = regs_per_block, .smem_per_block_bytes = smem_block,
                      .smem_per_sm_bytes = smem_sm};
    switch (axis) {
    case GPUOCC_AXIS_THREADS: b.threads_per_block = in32; break;
    case GPUOCC_AXIS_REGS: b.regs_per_thread = in32; break;
    case GPUOCC_AXIS_SMEM: b.smem_dynamic_bytes = in64; break;
    default: b.barriers = in32; break;
    }
    for (int64_t at = 0; at < n; at += CHUNK) {
        size_t rows = (size_t)(n - at < (int64_t)CHUNK ? n - at : (int64_t)CHUNK);
        /* the rows up to the next multiple of eight repeat the last value: the vector loop takes them too */
        size_t room = (rows + 7) / 8 * 8;
        for (size_t i = 0; i < rows; i++) {
            int64_t value = from + (at + (int64_t)i) * step;
            in64[i] = value;
            in32[i] = (int32_t)value; /* an int32_t axis: to <= INT32_MAX */
        }
        for (size_t i = rows; i < room; i++)
            in64[i] = in64[rows - 1], in32[i] = in32[rows - 1];
        gpuocc_batch_rows(d, v, &k, &b, rows, room);
        for (size_t i = 0; i < rows; i++) {
            gpuocc_sweep_point *p = &points[at + (int64_t)i];
            p->value = in64[i];
            p->blocks_per_sm = blocks[i];
            p->warps_per_sm = warps[i];
            p->occupancy = occupancy[i];
            p->limiters = limiters[i];
            p->limit_warps = limit_warps[i];
            p->limit_regs = limit_regs[i];
            p->limit_smem = limit_smem[i];
            p->limit_blocks = limit_blocks[i];
            p->limit_barriers = limit_barriers[i];
            p->regs_per_block = regs_per_block[i];
            p->reserved0 = 0;
            p->smem_per_block_bytes = smem_block[i];
            p->smem_per_sm_bytes = smem_sm[i];
        }
    }
    *count = (int32_t)n;
    return GPUOCC_OK;
}


/* The smallest of the limits that do not move along the axis. */
static int32_t fixed_min(const gpuocc_result *r, int32_t axis)
{
    const int32_t limits[GPUOCC_RESOURCE_COUNT] = {r->limit_warps, r->limit_regs, r->limit_smem, r->limit_blocks,
                                                   r->limit_barriers};
    /* virtual resources move along no axis */
    int32_t m = r->limit_virtual_resources != GPUOCC_UNLIMITED ? r->limit_virtual_resources : INT32_MAX;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++) {
        bool moves = (axis == GPUOCC_AXIS_THREADS && (i == GPUOCC_RESOURCE_WARPS || i == GPUOCC_RESOURCE_REGISTERS)) ||
                     (axis == GPUOCC_AXIS_REGS && i == GPUOCC_RESOURCE_REGISTERS) ||
                     (axis == GPUOCC_AXIS_SMEM && i == GPUOCC_RESOURCE_SMEM) ||
                     (axis == GPUOCC_AXIS_BARRIERS && i == GPUOCC_RESOURCE_BARRIERS);
        if (!moves && limits[i] != GPUOCC_UNLIMITED && limits[i] < m)
            m = limits[i];
    }
    return m;
}

static bool same_answer(const gpuocc_result *a, const gpuocc_result *b)
{
    return a->blocks_per_sm == b->blocks_per_sm && a->warps_per_sm == b->warps_per_sm && a->limiters == b->limiters;
}

int32_t gpuocc_sweep_steps(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis, int64_t from,
                           int64_t to, gpuocc_sweep_point *steps, int32_t capacity, int32_t *count)
{
    gpuocc_device scratch;
    const gpuocc_device *d;
    gpuocc_kernel k;
    gpuocc_nv_values values;
    int32_t rc = sweep_load(&d, &scratch, &values, dev, &k, kernel, axis, from, to);
    if (rc)
        return rc;
    if (!count || (capacity > 0 && !steps))
        return GPUOCC_ERR_NULL;
    if (capacity < 0)
        return GPUOCC_ERR_ARGUMENT;

    /* a saturated allocation cannot be reported: refused, as gpuocc_sweep refuses it, when the far end has one
       (a block's shared memory only grows along the axis) */
    gpuocc_result now, last;
    evaluate(d, k, axis, from, &now);
    evaluate(d, k, axis, to, &last);
    if (last.smem_per_block_bytes >= GPUOCC_BYTES_HUGE)
        return GPUOCC_ERR_OVERFLOW;
    int32_t fixed = fixed_min(&now, axis);
    int32_t bmax = fixed == INT32_MAX ? INT32_MAX : fixed + 1;
    const struct gpuocc_vendor *vendor = gpuocc_vendor_of(d->vendor);

    /* Two passes over the same thresholds: count, then (when they fit) write; outputs untouched otherwise. */
    int32_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && n > capacity)
            break;
        gpuocc_result prev = now;
        n = 0;
        if (pass == 1)
            to_point(from, &now, &steps[0]);
        n = 1;
        for (int64_t v = from;;) {
            int64_t next = vendor->sweep_next(d, &k, axis, v, to, bmax);
            if (next == INT64_MAX || next > to) /* INT64_MAX: no threshold left */
                break;
            gpuocc_result r;
            evaluate(d, k, axis, next, &r);
            if (!same_answer(&r, &prev)) {
                if (n == INT32_MAX || r.smem_per_block_bytes >= GPUOCC_BYTES_HUGE)
                    return GPUOCC_ERR_OVERFLOW;
                if (pass == 1)
                    to_point(next, &r, &steps[n]);
                n++;
                prev = r;
            }
            v = next;
        }
    }
    *count = n;
    return n > capacity ? GPUOCC_ERR_BUFFER : GPUOCC_OK;
}

int32_t gpuocc_sweep_range(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis, int64_t *from,
                           int64_t *to, int64_t *step)
{
    gpuocc_device scratch;
    const gpuocc_device *d;
    gpuocc_kernel k;
    if (axis < 0 || axis >= GPUOCC_AXIS_COUNT) {
        int32_t rc = gpuocc_device_load(&scratch, dev);
        return rc ? rc : GPUOCC_ERR_ARGUMENT;
    }
    gpuocc_nv_values values;
    int32_t rc = sweep_load(&d, &scratch, &values, dev, &k, kernel, axis, axis_min(axis), axis_min(axis));
    if (rc)
        return rc;
    if (!from || !to || !step)
        return GPUOCC_ERR_NULL;
    gpuocc_vendor_of(d->vendor)->sweep_range(d, &k, axis, from, to, step);
    return GPUOCC_OK;
}
