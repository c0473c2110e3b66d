/*
 * The single call's fast path: conservative checks of the device and the kernel in a few vector
 * instructions (shared with the batch and the sweeps), then NVIDIA's rules straight through for the common
 * device shape, without a 64-bit division or a branch on the launch's values.  Anything it does not
 * accept goes to the plain path, which checks field by field and names the error.
 */
#include "fast.h"


/* Bounds of gpuocc_nv_check_device (lib/nvidia/device.c). */
#define SMALL_MAX (1u << 20)
#define CARVEOUT_KIB_MAX (1u << 30)

#if GPUOCC_VECTORS
/* A word's bounds as two constants: it is outside [lo, lo + span] when ((v - lo) ^ 2^31) > (span ^ 2^31)
   as signed integers (the unsigned comparison SSE2 does not have). */
#define SIGN 0x80000000u
/* (lo, hi) pairs, four to a row: the row's lows and its spans as two vectors.  The lows carry the sign
   flip too: v - (lo ^ 2^31) = (v - lo) ^ 2^31 modulo 2^32, one instruction fewer per row. */
#define LO(lo, hi) (int32_t)((uint32_t)(lo) ^ SIGN)
#define SPAN(lo, hi) (int32_t)(((uint32_t)(hi) - (uint32_t)(lo)) ^ SIGN)
#define ROW(a, b, c, d) {{LO a, LO b, LO c, LO d}, {SPAN a, SPAN b, SPAN c, SPAN d}}
#define ANY (0, UINT32_MAX)
#define ZERO (0, 0)
/* the high word of an int64 byte count below GPUOCC_FAST_BYTES */
#define BYTES_HIGH (0, (GPUOCC_FAST_BYTES >> 32) - 1)
#define KIB (0, CARVEOUT_KIB_MAX)

typedef gpuocc_i32x4 i32x4;

_Static_assert(offsetof(gpuocc_device, simds_per_cu) + 8 == 4 * 44, "the bounds end two words into the AMD fields");
_Static_assert(offsetof(gpuocc_kernel, sub_group) + 8 == 4 * 24 && sizeof(gpuocc_kernel) == 4 * 28,
               "the kernel's bounds cover it whole, with the zero vectors at words 22 and 24");
_Static_assert(GPUOCC_DEVICE_SIZE_INTEL % 16 == 0 && offsetof(gpuocc_device, reserved) == 224 &&
                   offsetof(gpuocc_device, virtual_resources_per_sm) == GPUOCC_DEVICE_SIZE_INTEL &&
                   sizeof(gpuocc_device) == GPUOCC_DEVICE_SIZE_INTEL + 16,
               "the device's zero tail is whole vectors from word 56, then the virtual resources, the barrier "
               "limit, the tensor-memory columns and a reserved word");

/* Words 0 .. 43 of a device (through the carveouts and the first two AMD fields). */
static const i32x4 device_bounds[11][2] = {
    ROW(ANY, (GPUOCC_VENDOR_NVIDIA, GPUOCC_VENDOR_NVIDIA), (0, 1000), (0, 1000)),
    /* sm_count, warp_size, max_threads_per_block, max_threads_per_sm (>= warp_size: below) */
    ROW((0, SMALL_MAX), (1, 1024), (1, SMALL_MAX), (1, SMALL_MAX)),
    /* max_blocks_per_sm, regs_per_sm, regs_per_block, regs_per_thread_max */
    ROW((1, SMALL_MAX), (1, INT32_MAX), (1, INT32_MAX), (1, SMALL_MAX)),
    /* reg_alloc_unit, sub_partitions, reg_compat_sub_partitions, barriers_per_sm */
    ROW((1, SMALL_MAX), (1, 64), (0, 64), (0, SMALL_MAX)),
    /* the four int64 byte counts, low word then high word */
    ROW(ANY, BYTES_HIGH, ANY, BYTES_HIGH),
    ROW(ANY, BYTES_HIGH, ANY, BYTES_HIGH),
    /* smem_alloc_unit_bytes, carveout_count, carveouts_kib[0 .. 15] */
    ROW((1, SMALL_MAX), (0, GPUOCC_MAX_CARVEOUTS), KIB, KIB),
    ROW(KIB, KIB, KIB, KIB),
    ROW(KIB, KIB, KIB, KIB),
    ROW(KIB, KIB, KIB, KIB),
    /* carveouts_kib[14], [15], simds_per_cu, waves_per_simd */
    ROW(KIB, KIB, ZERO, ZERO),
};
/* Words 0 .. 23 of a kernel; the row at word 18 overlaps the one before (words 18 .. 21). */
static const i32x4 kernel_bounds[7][2] = {
    /* size, threads_per_block, regs_per_thread, barriers (a launch above the limits that cannot run takes
       the plain path, which refuses it: gpuocc_nv_check_launch) */
    ROW(ANY, (1, INT32_MAX), (0, INT32_MAX), (0, GPUOCC_NV_BARRIERS_PER_BLOCK)),
    /* smem_static_bytes (at most the static limit the device shape below has), smem_dynamic_bytes */
    ROW((0, GPUOCC_NV_SMEM_STATIC_MAX), ZERO, ANY, BYTES_HIGH),
    /* carveout_percent, smem_optin, smem_dynamic_max_bytes (checked apart) */
    ROW((-1, 100), (0, 1), ANY, ANY),
    /* max_threads_per_block, agprs, sgprs, wave_size (0, 32 or 64: a multiple of 32, below) */
    ROW((0, INT32_MAX), (0, INT32_MAX), (0, INT32_MAX), (0, 64)),
    /* cu_mode, model, rocm_version, reserved0 */
    ROW((0, 1), (GPUOCC_MODEL_DEFAULT, GPUOCC_MODEL_RUNTIME), (0, 100000), ZERO),
    /* rocm_version, reserved0, reserved[0] */
    ROW((0, 100000), ZERO, ZERO, ZERO),
    /* reserved[0], Intel's sub_group and grf (zero on NVIDIA's fast path) */
    ROW(ZERO, ZERO, ZERO, ZERO),
};

static inline i32x4 load(const void *p)
{
    return gpuocc_load_i32x4(p);
}

/* Lanes of the 4 words at `p` outside the bounds `b`. */
static inline i32x4 out_of_bounds(const unsigned char *p, const i32x4 b[2])
{
    /* the subtraction wraps: unsigned lanes (signed lanes would overflow, undefined behaviour) */
    return (i32x4)((gpuocc_u32x4)load(p) - (gpuocc_u32x4)b[0]) > b[1];
}

static inline bool none(i32x4 v)
{
    uint64_t lanes[2];
    memcpy(lanes, &v, sizeof lanes);
    return (lanes[0] | lanes[1]) == 0;
}

/* Carveouts j .. j + 3 out of order: a used entry not above the one before it (lane 0 of the first group
   reads carveout_count and is not compared; that entry's bounds are >= 0), an unused entry not zero. */
static inline i32x4 carveouts_wrong(const gpuocc_device *d, int32_t j, i32x4 count)
{
    const i32x4 zero = {0, 0, 0, 0};
    i32x4 c = load(&d->carveouts_kib[j]);
    i32x4 previous = load((const unsigned char *)&d->carveouts_kib[j] - sizeof(int32_t));
    i32x4 index = {j, j + 1, j + 2, j + 3};
    i32x4 used = index < count;
    i32x4 rising = (c > previous) | (index == zero);
    return (used & ~rising) | (~used & ~(c == zero));
}

static inline bool device_ok(const gpuocc_device *d)
{
    const unsigned char *b = (const unsigned char *)d;
    i32x4 bad = out_of_bounds(b, device_bounds[0]) | out_of_bounds(b + 16, device_bounds[1]) |
                out_of_bounds(b + 32, device_bounds[2]) | out_of_bounds(b + 48, device_bounds[3]) |
                out_of_bounds(b + 64, device_bounds[4]) | out_of_bounds(b + 80, device_bounds[5]) |
                out_of_bounds(b + 96, device_bounds[6]) | out_of_bounds(b + 112, device_bounds[7]) |
                out_of_bounds(b + 128, device_bounds[8]) | out_of_bounds(b + 144, device_bounds[9]) |
                out_of_bounds(b + 160, device_bounds[10]);
    /* the AMD fields, the reserved words, Intel's fields and barriers_per_block_max past them: zero (0: the
       architecture's 16 barriers a block may use) */
    bad |= load(b + 176) | load(b + 192) | load(b + 208);
    for (size_t at = 224; at < GPUOCC_DEVICE_SIZE_INTEL; at += 16)
        bad |= load(b + at);
    /* the virtual resources per SM (any count the device check allows) and the barrier limit (zero here: a device that records one takes the plain checks) */
    bool tail_ok = ((uint32_t)d->virtual_resources_per_sm <= SMALL_MAX) & (d->barriers_per_block_max == 0) &
                   ((uint32_t)d->tmem_columns_per_sm <= SMALL_MAX) & (d->reserved2 == 0);
    const i32x4 count = {d->carveout_count, d->carveout_count, d->carveout_count, d->carveout_count};
    bad |= carveouts_wrong(d, 0, count) | carveouts_wrong(d, 4, count) | carveouts_wrong(d, 8, count) |
           carveouts_wrong(d, 12, count);
    /* the largest carveout holds the whole SM's shared memory and the largest block */
    int64_t top = (int64_t)d->carveouts_kib[((uint32_t)d->carveout_count - 1) & (GPUOCC_MAX_CARVEOUTS - 1)] * 1024;
    bool carveouts_ok = (d->carveout_count == 0) |
                        ((top >= d->smem_per_sm_bytes) &
                         /* unsigned: the sum of two unchecked fields must not overflow */
                         ((uint64_t)top >= (uint64_t)d->smem_per_block_optin_bytes +
                                               (uint64_t)d->smem_reserved_per_block_bytes));
    /* the kernels' static shared memory bound holds for every launch the device allows */
    return none(bad) & (d->max_threads_per_sm >= d->warp_size) &
           (d->smem_per_block_optin_bytes >= d->smem_per_block_bytes) &
           (d->smem_per_block_bytes >= GPUOCC_NV_SMEM_STATIC_MAX) & carveouts_ok & tail_ok;
}

static inline bool kernel_ok(const gpuocc_kernel *k)
{
    const unsigned char *b = (const unsigned char *)k;
    i32x4 bad = out_of_bounds(b, kernel_bounds[0]) | out_of_bounds(b + 16, kernel_bounds[1]) |
                out_of_bounds(b + 32, kernel_bounds[2]) | out_of_bounds(b + 48, kernel_bounds[3]) |
                out_of_bounds(b + 64, kernel_bounds[4]) | out_of_bounds(b + 72, kernel_bounds[5]) |
                out_of_bounds(b + 80, kernel_bounds[6]);
    /* Intel's sub_group and grf, NVIDIA's virtual resources, reserved2, the tensor-memory columns and AMD's
       dynamic VGPRs (a kernel that uses them takes the plain path): zero; the two loads overlap (96 .. 103) */
    bad |= load(b + 88) | load(b + 96);
    /* -1 .. GPUOCC_FAST_BYTES - 1 */
    bool dynamic_max_ok = (uint64_t)k->smem_dynamic_max_bytes + 1 <= (uint64_t)GPUOCC_FAST_BYTES;
    return none(bad) & dynamic_max_ok & ((k->wave_size & 31) == 0);
}
#else
static inline bool device_ok(const gpuocc_device *d)
{
    return gpuocc_nv_device_fine(d) && d->smem_per_sm_bytes < GPUOCC_FAST_BYTES &&
           d->smem_per_block_optin_bytes < GPUOCC_FAST_BYTES && d->smem_reserved_per_block_bytes < GPUOCC_FAST_BYTES &&
           d->smem_per_block_bytes >= GPUOCC_NV_SMEM_STATIC_MAX;
}

static inline bool kernel_ok(const gpuocc_kernel *k)
{
    int32_t rc;
    gpuocc_kernel scratch;
    /* a kernel that uses virtual resources, or a launch that cannot run, takes the plain path */
    return gpuocc_kernel_view(k, &scratch, &rc) == k && k->virtual_resources == 0 && k->tmem_columns == 0 &&
           k->dvgpr == 0 &&
           k->smem_static_bytes <= GPUOCC_NV_SMEM_STATIC_MAX && k->barriers <= GPUOCC_NV_BARRIERS_PER_BLOCK &&
           k->smem_dynamic_bytes < GPUOCC_FAST_BYTES && k->smem_dynamic_max_bytes < GPUOCC_FAST_BYTES;
}
#endif

bool gpuocc_nv_device_fast_ok(const gpuocc_device *d)
{
    return device_ok(d);
}

bool gpuocc_nv_kernel_fast_ok(const gpuocc_kernel *k)
{
    return kernel_ok(k);
}

/* One launch on a device the fast evaluation covers (f filled): the rules of lib/nvidia/fast.h. */
static GPUOCC_ALWAYS_INLINE void fast_single(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k, gpuocc_result *r)
{
    struct gpuocc_nv_answer a;
    gpuocc_nv_fast_threads_regs(f, (uint32_t)k->threads_per_block, k->regs_per_thread, &a);
    gpuocc_nv_fast_smem(f, k, k->smem_static_bytes, k->smem_dynamic_bytes, &a);
    a.barrier_blocks = gpuocc_nv_fast_barriers_of(f->barriers_per_sm, k->barriers);
    gpuocc_nv_fast_result(f, &a, r);
}

/*
 * The checks above, then the rules.  On the common device shape (32-thread warps, 256-register allocation
 * units: every NVIDIA GPU) the shared part is built with those units as constants, which fold into the
 * inlined rules; other devices with power-of-two units take the same rules with their shifts.  False (the
 * plain path then) for what the fast evaluation does not cover.
 */
bool gpuocc_nv_occupancy_fast(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    if (!device_ok(d) || !kernel_ok(k))
        return false;
    struct gpuocc_nv_fast f;
    if ((d->warp_size == 32) & (d->reg_alloc_unit == 256)) {
        if (!gpuocc_nv_fast_init_shifts(&f, d, 5, 8) || (uint32_t)k->threads_per_block > f.thread_cap)
            return false;
        fast_single(&f, k, r);
        return true;
    }
    if (!gpuocc_nv_fast_init(&f, d) || (uint32_t)k->threads_per_block > f.thread_cap)
        return false;
    fast_single(&f, k, r);
    return true;
}

/*
 * The prepared single call: the device was checked by gpuocc_prepare and everything the evaluation reads of
 * it stored in a short block (struct gpuocc_nv_single: 19 words), so a call checks that block's own tag and
 * the kernel, and evaluates from the block alone (the stored device is not read).  False (the API's plain
 * path then, which checks the whole state's tag) for a block whose tag does not match, a device or a launch
 * the fast evaluation does not cover.
 */
bool gpuocc_nv_occupancy_prepared(const uint64_t *opaque, const gpuocc_kernel *k, gpuocc_result *r)
{
    const gpuocc_nv_state *p = (const gpuocc_nv_state *)(const void *)opaque;
    const struct gpuocc_nv_single *s = &p->single;
    /* one branch for the four: the tag's sum overlaps the kernel's checks */
    bool tag_ok = gpuocc_nv_quick_tag(p) == p->quick_tag, fast = s->fast != 0, kernel_fine = kernel_ok(k);
    bool threads_fine = (uint32_t)k->threads_per_block <= s->thread_cap;
    if (!(tag_ok & fast & kernel_fine & threads_fine))
        return false;
    /* one copy of the rules for every device shape (the shifts read from the block): two copies, one with
       the common shape's units as constants, made the compiler load and spill the whole block before
       choosing */
    struct gpuocc_nv_fast f;
    gpuocc_nv_fast_from_state(&f, p);
    fast_single(&f, k, r);
    return true;
}
