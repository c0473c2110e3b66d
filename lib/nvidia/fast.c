/*
 * The single call's fast path: conservative checks of the device and the kernel in a few vector
 * instructions (shared with the batch and the sweeps), then NVIDIA's rules straight through for one device
 * shape (every NVIDIA GPU's), with 32-bit divisions and no branch on the launch's values.  Anything it
 * does not accept goes to the plain path, which checks field by field and names the error.
 */
#include "fast.h"


/* Bounds of gpuocc_nv_check_device (lib/nvidia/device.c). */
#define SMALL_MAX (1u << 20)
#define CARVEOUT_KIB_MAX (1u << 30)

/* The single calls' device shape (their checks hold a device to it; any other takes the API's path): 32-thread
   warps, 256-register allocation units, at most 512 registers a thread (every allocation step of 32 of them
   in the reciprocals' table), at most 2^25 bytes of shared memory an SM, per-block limits and reserved
   bytes below 2^31, carveouts below 2^22 KiB; at most 64 warps a block. */
#define SHAPE_WARP_SHIFT 5
#define SHAPE_UNIT_SHIFT 8
#define SHAPE_REGS_MAX ((GPUOCC_FAST_STEPS << SHAPE_UNIT_SHIFT) >> SHAPE_WARP_SHIFT)
#define SHAPE_SMEM_MAX ((int64_t)1 << 25)
#define SHAPE_CARVEOUT_KIB_MAX (((int32_t)1 << 22) - 1)
#define SHAPE_THREADS_MAX (GPUOCC_FAST_STEPS << SHAPE_WARP_SHIFT)

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
_Static_assert(offsetof(gpuocc_kernel, max_threads_per_block) == 4 * 12 &&
                   offsetof(gpuocc_kernel, sub_group) == 4 * 22 && offsetof(gpuocc_kernel, virtual_resources) == 4 * 24 &&
                   offsetof(gpuocc_kernel, tmem_columns) == 4 * 26 && sizeof(gpuocc_kernel) == 4 * 28,
                "the kernel's checks cover it whole: three rows of bounds, then the words 12 .. 27");
_Static_assert(GPUOCC_DEVICE_SIZE_INTEL % 16 == 0 && offsetof(gpuocc_device, reserved) == 224 &&
                   offsetof(gpuocc_device, virtual_resources_per_sm) == GPUOCC_DEVICE_SIZE_INTEL &&
                   sizeof(gpuocc_device) == GPUOCC_DEVICE_SIZE_INTEL + 16,
               "the device's zero tail is whole vectors from word 56, then the virtual resources, the barrier "
               "limit, the tensor-memory columns and a reserved word");

/* Eight lanes a row: one instruction an operation where the caller is compiled for AVX2 (the single calls'
   clones), two otherwise.  Passed by pointer (a 32-byte vector by value changes the calling convention
   where AVX is off). */
typedef gpuocc_i32x8 i32x8;
typedef gpuocc_u32x8 u32x8;
#define ROW8(a, b, c, d, e, f, g, h)                                                                             \
    {{LO a, LO b, LO c, LO d, LO e, LO f, LO g, LO h}, {SPAN a, SPAN b, SPAN c, SPAN d, SPAN e, SPAN f, SPAN g, SPAN h}}
#define SMALL (0, SMALL_MAX)
#define SMALL1 (1, SMALL_MAX)
#define DEVICE_SIZE ((uint32_t)sizeof(gpuocc_device), (uint32_t)sizeof(gpuocc_device))
#define NV (GPUOCC_VENDOR_NVIDIA, GPUOCC_VENDOR_NVIDIA)

_Static_assert(offsetof(gpuocc_device, carveouts_kib) == 4 * 26 && GPUOCC_DEVICE_SIZE_INTEL == 4 * 96 &&
                   offsetof(gpuocc_device, virtual_resources_per_sm) == 4 * 96 &&
                   offsetof(gpuocc_device, barriers_per_block_max) == 4 * 97 &&
                   offsetof(gpuocc_device, tmem_columns_per_sm) == 4 * 98 &&
                   offsetof(gpuocc_device, reserved2) == 4 * 99 && sizeof(gpuocc_device) == 4 * 100,
               "the device's rows: words 0 .. 47 bounded, 48 .. 95 zero, 96 .. 99 bounded");

/* Words 0 .. 47 of a device (through the carveouts, the AMD fields and the words past them, zero; the zero
   words go on to word 95: the reserved words, Intel's fields) and words 96 .. 99 (the virtual resources
   per SM (any count the device check allows), the barrier limit (zero here: a device that records one
   takes the plain checks), the tensor-memory columns and reserved2).  Two sets of rows: [0] for any
   caller, [1] for the single calls: the current layout's size (their entries compare it before any row
   reads the struct whole) and the one shape single_eval is compiled for (SHAPE_*): 32-thread warps, at
   least one an SM, 256-register allocation units, at most 512 registers a thread (every allocation step
   in the reciprocals' table), at most 2^25 bytes of shared memory an SM (32 MiB, 140 times the most so
   far: a percentage of it fits 32 bits), a per-block limit of at least the static one, the opt-in limit
   and the reserved bytes below 2^31, carveouts below 2^22 KiB (a block that fits and any carveout are then
   below 2^32: smem_blocks_of's division); another device takes the API's path, which answers the same. */
#define WARP ((uint32_t)1 << SHAPE_WARP_SHIFT, (uint32_t)1 << SHAPE_WARP_SHIFT)
#define UNIT ((uint32_t)1 << SHAPE_UNIT_SHIFT, (uint32_t)1 << SHAPE_UNIT_SHIFT)
#define KIB_SINGLE (0, SHAPE_CARVEOUT_KIB_MAX)
static const i32x8 device_rows[2][6][2] = {
    {
        /* size, vendor, arch major, minor, sm_count, warp_size, max_threads_per_block, max_threads_per_sm
           (>= warp_size: device_ok_for) */
        ROW8(ANY, NV, (0, 1000), (0, 1000), SMALL, (1, 1024), SMALL1, SMALL1),
        /* max_blocks_per_sm, regs_per_sm, regs_per_block, regs_per_thread_max, reg_alloc_unit,
           sub_partitions, reg_compat_sub_partitions, barriers_per_sm */
        ROW8(SMALL1, (1, INT32_MAX), (1, INT32_MAX), SMALL1, SMALL1, (1, 64), (0, 64), SMALL),
        /* the four int64 byte counts, low word then high word */
        ROW8(ANY, BYTES_HIGH, ANY, BYTES_HIGH, ANY, BYTES_HIGH, ANY, BYTES_HIGH),
        /* smem_alloc_unit_bytes, carveout_count, carveouts_kib[0 .. 5] */
        ROW8(SMALL1, (0, GPUOCC_MAX_CARVEOUTS), KIB, KIB, KIB, KIB, KIB, KIB),
        ROW8(KIB, KIB, KIB, KIB, KIB, KIB, KIB, KIB),
        /* carveouts_kib[14], [15], then simds_per_cu, waves_per_simd and the words past them: zero */
        ROW8(KIB, KIB, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO),
    },
    {
        ROW8(DEVICE_SIZE, NV, (0, 1000), (0, 1000), SMALL, WARP, SMALL1, ((uint32_t)1 << SHAPE_WARP_SHIFT, SMALL_MAX)),
        ROW8(SMALL1, (1, INT32_MAX), (1, INT32_MAX), (1, SHAPE_REGS_MAX), UNIT, (1, 64), (0, 64), SMALL),
        /* smem_per_sm_bytes, smem_per_block_bytes (>= the static limit), the opt-in limit, the reserved
           bytes */
        ROW8((0, SHAPE_SMEM_MAX), ZERO, (GPUOCC_NV_SMEM_STATIC_MAX, INT32_MAX), ZERO, (0, INT32_MAX), ZERO,
             (0, INT32_MAX), ZERO),
        ROW8(SMALL1, (0, GPUOCC_MAX_CARVEOUTS), KIB_SINGLE, KIB_SINGLE, KIB_SINGLE, KIB_SINGLE, KIB_SINGLE,
             KIB_SINGLE),
        ROW8(KIB_SINGLE, KIB_SINGLE, KIB_SINGLE, KIB_SINGLE, KIB_SINGLE, KIB_SINGLE, KIB_SINGLE, KIB_SINGLE),
        ROW8(KIB_SINGLE, KIB_SINGLE, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO),
    },
};
static const i32x4 device_tail[2] = ROW(SMALL, ZERO, SMALL, ZERO);

/* A kernel's 28 words: rows of words 0 .. 7, 8 .. 15, 20 .. 27 (words 16 .. 23 are zero); size any or the
   current layout's, the virtual resources any count >= 0 (every caller applies their limit).
   Words 12 .. 27: the sign of max_threads_per_block (any count >= 0) and the other vendors' fields (agprs,
   sgprs, wave_size; cu_mode, model, rocm_version, the reserved words and Intel's sub_group and grf, loaded
   whole: zero on the fast path, a kernel that sets one takes the plain path, which checks it and ignores
   it), the tensor-memory columns and AMD's dynamic VGPRs zero. */
#define KERNEL_SIZE ((uint32_t)sizeof(gpuocc_kernel), (uint32_t)sizeof(gpuocc_kernel))
/* size, threads_per_block, regs_per_thread, barriers (a launch above the limits that cannot run takes the
   plain path, which refuses it: gpuocc_nv_check_launch); smem_static_bytes (at most the static limit the
   device shape below has), smem_dynamic_bytes; twice: any size and threads, or the single calls' (the
   current layout's size, at most 64 warps of 32 threads: the reciprocals' table) */
static const i32x8 kernel_row0[2][2] = {
    ROW8(ANY, (1, INT32_MAX), (0, INT32_MAX), (0, GPUOCC_NV_BARRIERS_PER_BLOCK), (0, GPUOCC_NV_SMEM_STATIC_MAX), ZERO, ANY,
         BYTES_HIGH),
    ROW8(KERNEL_SIZE, (1, SHAPE_THREADS_MAX), (0, INT32_MAX), (0, GPUOCC_NV_BARRIERS_PER_BLOCK),
         (0, GPUOCC_NV_SMEM_STATIC_MAX), ZERO, ANY, BYTES_HIGH),
};
/* carveout_percent, smem_optin, smem_dynamic_max_bytes (checked apart), max_threads_per_block, agprs, sgprs,
   wave_size */
static const i32x8 kernel_row1[2] = ROW8((-1, 100), (0, 1), ANY, ANY, (0, INT32_MAX), ZERO, ZERO, ZERO);
static const i32x8 kernel_row3[2] = ROW8(ZERO, ZERO, ZERO, ZERO, (0, INT32_MAX), ZERO, ZERO, ZERO);

static GPUOCC_ALWAYS_INLINE void load8(i32x8 *v, const void *p)
{
    memcpy(v, p, sizeof *v);
}

#if GPUOCC_NV_AVX2 || defined(__AVX2__)
#include <immintrin.h>
/* one vptest (inlined into the AVX2 clones, which alone call it; not always_inline: the baseline copies
   keep a call to it in a branch they never take where the compiler does not fold the branch away) */
GPUOCC_NV_AVX2_TARGET static inline bool none8_tested(const i32x8 *v)
{
    __m256i x;
    memcpy(&x, v, sizeof x);
    return _mm256_testz_si256(x, x) != 0;
}
#endif

/* No lane set: only where the caller is an AVX2 clone (`wide`). */
static GPUOCC_ALWAYS_INLINE bool none8(const i32x8 *v)
{
#if GPUOCC_NV_AVX2 || defined(__AVX2__)
    return none8_tested(v);
#elif defined(__clang__) || __GNUC__ >= 12
    /* the halves in registers (a copy through memory wants a 32-byte aligned stack slot: a realigned frame) */
    i32x4 low = __builtin_shufflevector(*v, *v, 0, 1, 2, 3), high = __builtin_shufflevector(*v, *v, 4, 5, 6, 7);
    i32x4 both = low | high;
    uint64_t lanes[2];
    memcpy(lanes, &both, sizeof lanes);
    return (lanes[0] | lanes[1]) == 0;
#else
    uint64_t lanes[4];
    memcpy(lanes, v, sizeof lanes);
    return ((lanes[0] | lanes[1]) | (lanes[2] | lanes[3])) == 0;
#endif
}

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

/* What the rows found out of bounds.  `wide`: the caller is an AVX2 clone, where one operation on a row's
   eight lanes is one instruction (the lanes in `w`); elsewhere (the baseline copies, which the sweeps and the
   searches call too) a row is two halves of four lanes, OR'd into `h`: GCC compiling for SSE2 alone compares
   a 32-byte vector one lane at a time through general registers, four times the instructions. */
struct bad_lanes {
    i32x8 w;
    i32x4 h;
};

/* a row's half (0 or 1) of four lanes */
static GPUOCC_ALWAYS_INLINE i32x4 half_of(const i32x8 *row, int half)
{
    i32x4 v;
    memcpy(&v, (const unsigned char *)row + half * sizeof v, sizeof v);
    return v;
}

/* bad |= the lanes of the 8 words at `p` outside the bounds `b` */
static GPUOCC_ALWAYS_INLINE void out_of_bounds8(struct bad_lanes *bad, const unsigned char *p, const i32x8 b[2],
                                                bool wide)
{
    /* the subtraction wraps: unsigned lanes (signed lanes would overflow, undefined behaviour) */
    if (wide) {
        i32x8 v;
        load8(&v, p);
        bad->w |= (i32x8)((u32x8)v - (u32x8)b[0]) > b[1];
        return;
    }
    for (int half = 0; half < 2; half++) {
        gpuocc_u32x4 moved = (gpuocc_u32x4)load(p + 16 * half) - (gpuocc_u32x4)half_of(&b[0], half);
        bad->h |= (i32x4)moved > half_of(&b[1], half);
    }
}

static GPUOCC_ALWAYS_INLINE void nonzero8(struct bad_lanes *bad, const unsigned char *p, bool wide)
{
    if (wide) {
        i32x8 v;
        load8(&v, p);
        bad->w |= v;
    } else {
        bad->h |= load(p) | load(p + 16);
    }
}

static GPUOCC_ALWAYS_INLINE bool none_bad(const struct bad_lanes *bad, bool wide)
{
    return wide ? none8(&bad->w) : none(bad->h);
}

/* bad |= carveouts j .. j + 7 (j + 3 in four lanes) out of order: a used entry not above the one before it,
   an unused one not zero.  One comparison a lane (the rows bound every entry to >= 0): a used entry against
   the one before it, an unused one against 0, the answer flipped on the used lanes; entry 0 has none before
   it (lane 0 of the first group reads carveout_count): against -1 when used. */
static GPUOCC_ALWAYS_INLINE void carveouts_wrong4(struct bad_lanes *bad, const gpuocc_device *d, int32_t j,
                                                  int32_t count)
{
    const i32x4 zero = {0, 0, 0, 0};
    i32x4 c = load(&d->carveouts_kib[j]);
    i32x4 previous = load((const unsigned char *)&d->carveouts_kib[j] - sizeof(int32_t));
    i32x4 index = {j, j + 1, j + 2, j + 3};
    i32x4 used = index < zero + count;
    i32x4 below = (previous | (index == zero)) & used;
    bad->h |= (c > below) ^ used;
}

static GPUOCC_ALWAYS_INLINE void carveouts_wrong8(struct bad_lanes *bad, const gpuocc_device *d, int32_t j,
                                                  int32_t count, bool wide)
{
    if (!wide) {
        carveouts_wrong4(bad, d, j, count);
        carveouts_wrong4(bad, d, j + 4, count);
        return;
    }
    const i32x8 zero = {0, 0, 0, 0, 0, 0, 0, 0};
    i32x8 c, previous;
    load8(&c, &d->carveouts_kib[j]);
    load8(&previous, (const unsigned char *)&d->carveouts_kib[j] - sizeof(int32_t));
    i32x8 index = {j, j + 1, j + 2, j + 3, j + 4, j + 5, j + 6, j + 7};
    i32x8 used = index < zero + count;
    i32x8 below = (previous | (index == zero)) & used;
    bad->w |= (c > below) ^ used;
}

/* `single`: the single calls' rows (the current layout's size and their device shape) */
static GPUOCC_ALWAYS_INLINE bool device_ok_for(const gpuocc_device *d, bool single, bool wide)
{
    const unsigned char *b = (const unsigned char *)d;
    struct bad_lanes bad = {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0}};
#pragma GCC unroll 8
    for (size_t row = 0; row < 6; row++)
        out_of_bounds8(&bad, b + 32 * row, device_rows[single][row], wide);
#pragma GCC unroll 8
    for (size_t at = 192; at < GPUOCC_DEVICE_SIZE_INTEL; at += 32)
        nonzero8(&bad, b + at, wide);
    i32x4 bad_tail = out_of_bounds(b + GPUOCC_DEVICE_SIZE_INTEL, device_tail);
    carveouts_wrong8(&bad, d, 0, d->carveout_count, wide);
    carveouts_wrong8(&bad, d, 8, d->carveout_count, wide);
    /* the largest carveout holds the whole SM's shared memory and the largest block */
    int64_t top = (int64_t)d->carveouts_kib[((uint32_t)d->carveout_count - 1) & (GPUOCC_MAX_CARVEOUTS - 1)] * 1024;
    bool carveouts_ok = (d->carveout_count == 0) |
                        ((top >= d->smem_per_sm_bytes) &
                         /* unsigned: the sum of two unchecked fields must not overflow */
                         ((uint64_t)top >= (uint64_t)d->smem_per_block_optin_bytes +
                                               (uint64_t)d->smem_reserved_per_block_bytes));
    bool rows_ok = none_bad(&bad, wide), tail_ok = none(bad_tail);
    bool ok = rows_ok & tail_ok & (d->smem_per_block_optin_bytes >= d->smem_per_block_bytes) & carveouts_ok;
    /* at least a warp an SM; the kernels' static shared memory bound holds for every launch the device
       allows (both in the single calls' rows) */
    if (!single)
        ok &= (d->max_threads_per_sm >= d->warp_size) & (d->smem_per_block_bytes >= GPUOCC_NV_SMEM_STATIC_MAX);
    return ok;
}

static GPUOCC_ALWAYS_INLINE bool device_ok_body(const gpuocc_device *d)
{
    return device_ok_for(d, false, false);
}

static GPUOCC_NOINLINE bool device_ok(const gpuocc_device *d)
{
    return device_ok_body(d);
}

static GPUOCC_ALWAYS_INLINE bool kernel_ok_for(const gpuocc_kernel *k, bool single, bool wide)
{
    const unsigned char *b = (const unsigned char *)k;
    struct bad_lanes bad = {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0}};
    out_of_bounds8(&bad, b, kernel_row0[single], wide);
    out_of_bounds8(&bad, b + 32, kernel_row1, wide);
    nonzero8(&bad, b + 64, wide);
    out_of_bounds8(&bad, b + 80, kernel_row3, wide);
    /* -1 .. GPUOCC_FAST_BYTES - 1 */
    bool dynamic_max_ok = (uint64_t)k->smem_dynamic_max_bytes + 1 <= (uint64_t)GPUOCC_FAST_BYTES;
    return none_bad(&bad, wide) & dynamic_max_ok;
}

static GPUOCC_ALWAYS_INLINE bool kernel_ok(const gpuocc_kernel *k)
{
    return kernel_ok_for(k, false, false);
}
#else
static inline bool device_ok_body(const gpuocc_device *d)
{
    return gpuocc_nv_device_fine(d) && d->smem_per_sm_bytes < GPUOCC_FAST_BYTES &&
           d->smem_per_block_optin_bytes < GPUOCC_FAST_BYTES && d->smem_reserved_per_block_bytes < GPUOCC_FAST_BYTES &&
           d->smem_per_block_bytes >= GPUOCC_NV_SMEM_STATIC_MAX;
}

static inline bool device_ok(const gpuocc_device *d)
{
    return device_ok_body(d);
}

static inline bool device_ok_for(const gpuocc_device *d, bool single, bool wide)
{
    (void)wide;
    /* the single calls' shape (SHAPE_*, the rows above), once the device is checked */
    return (!single || d->size == sizeof *d) && device_ok_body(d) &&
           (!single || (d->warp_size == 1 << SHAPE_WARP_SHIFT && d->reg_alloc_unit == 1 << SHAPE_UNIT_SHIFT &&
                       d->regs_per_thread_max <= SHAPE_REGS_MAX && d->smem_per_sm_bytes <= SHAPE_SMEM_MAX &&
                       d->smem_per_block_optin_bytes <= INT32_MAX && d->smem_reserved_per_block_bytes <= INT32_MAX &&
                       (d->carveout_count == 0 || d->carveouts_kib[d->carveout_count - 1] <= SHAPE_CARVEOUT_KIB_MAX)));
}

static inline bool kernel_ok(const gpuocc_kernel *k)
{
    int32_t rc;
    gpuocc_kernel scratch;
    /* a launch that cannot run takes the plain path */
    return gpuocc_kernel_view(k, &scratch, &rc) == k && k->tmem_columns == 0 && k->dvgpr == 0 &&
           k->smem_static_bytes <= GPUOCC_NV_SMEM_STATIC_MAX && k->barriers <= GPUOCC_NV_BARRIERS_PER_BLOCK &&
           k->smem_dynamic_bytes < GPUOCC_FAST_BYTES && k->smem_dynamic_max_bytes < GPUOCC_FAST_BYTES;
}

static inline bool kernel_ok_for(const gpuocc_kernel *k, bool single, bool wide)
{
    (void)wide;
    return (!single || (k->size == sizeof *k && k->threads_per_block <= SHAPE_THREADS_MAX)) && kernel_ok(k);
}
#endif

bool gpuocc_nv_kernel_fast_virtual_ok(const gpuocc_kernel *k)
{
    return kernel_ok(k);
}

/*
 * One launch on a device the fast evaluation covers: the rules of lib/nvidia/fast.h (the batch's and the
 * sweeps' copy), written for the single calls: the parameters read in place (the device's fields, or the
 * prepared block's), every limit in its public form from the start (GPUOCC_UNLIMITED, all ones, is the
 * largest unsigned value: the minimum is taken unsigned, and no limit is converted afterwards), branches
 * on the device alone (no carveouts, no barrier limit, no virtual resources, the GP10x layout), and the
 * limits stored as they are combined.
 */
#define UNLIMITED GPUOCC_UNLIMITED

static inline uint32_t umin32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* The single calls' limits, shared by the plain device's evaluation (single_eval) and the prepared one's
   (quick_eval).  Conditional expressions over values kept in registers (GPUOCC_KEEP): conditional moves,
   no branch on the launch. */

/* Blocks `carveout` bytes (below 2^32) hold of `alloc` each (none when `alloc` is 0, 0 when too much);
   `wide`: the carveout may pass 2^31 (the quotient capped: a count of INT32_MAX is none, as
   gpuocc_rule_all says).  One 32-bit integer division: on the processors this is tuned on, a third of the
   latency of the same quotient in doubles (the two conversions included), which was the call's longest
   path; one instruction on 32-bit targets too, and on older x86 cores quicker than a 64-bit one.  Exact
   wherever it counts: a block that is not too much is at most a per-block limit with the reserved part,
   below 2^32 (the single calls' shape; the prepared call's tables hold less); a larger one's quotient is
   not used (its low word, made at least 1, only keeps the division defined). */
static GPUOCC_ALWAYS_INLINE uint32_t smem_blocks_of(int64_t carveout, int64_t alloc, bool too_much, bool wide)
{
    uint32_t divisor = (uint32_t)alloc;
    divisor += divisor == 0;
    uint32_t count = (uint32_t)carveout / divisor;
    if (wide)
        count = count < INT32_MAX ? count : (uint32_t)INT32_MAX;
    GPUOCC_KEEP(count);
    uint32_t none = (uint32_t)(alloc == 0);
    if (wide)
        none |= (uint32_t)(count == INT32_MAX);
    GPUOCC_KEEP(none);
    uint32_t blocks = GPUOCC_EITHER(none) ? (uint32_t)UNLIMITED : count;
    blocks = GPUOCC_EITHER(too_much) ? 0 : blocks;
    GPUOCC_KEEP(blocks); /* nor a branch around its later uses */
    return blocks;
}

/* Blocks the barriers allow: barriers 0 .. 16 after the kernel checks (masked for the table); none on a
   device without the limit (a branch on the device alone). */
static GPUOCC_ALWAYS_INLINE uint32_t barrier_blocks_of(uint32_t barriers_per_sm, int32_t barriers)
{
    if (barriers_per_sm == 0)
        return (uint32_t)UNLIMITED;
    uint32_t blocks = (uint32_t)(((uint64_t)barriers_per_sm * gpuocc_fast_reciprocal[(uint32_t)barriers & 31]) >> 32);
    GPUOCC_KEEP(blocks);
    blocks = GPUOCC_EITHER(barriers == 0) ? (uint32_t)UNLIMITED : blocks;
    GPUOCC_KEEP(blocks);
    return blocks;
}

/* Blocks the virtual resources allow (gpuocc_nv_fast_virtual_of): a branch on the device alone. */
static GPUOCC_ALWAYS_INLINE uint32_t virtual_blocks_of(int32_t per_sm, int64_t virtual_resources)
{
    if (per_sm == 0)
        return (uint32_t)UNLIMITED;
    /* per_sm <= 2^20, virtual_resources 0 .. INT32_MAX after the checks */
    uint32_t count = (uint32_t)per_sm / (uint32_t)(virtual_resources + (virtual_resources == 0));
    GPUOCC_KEEP(count);
    count = GPUOCC_EITHER(virtual_resources == 0) ? (uint32_t)UNLIMITED : count;
    GPUOCC_KEEP(count);
    return count;
}

/* The six limits combined and the result written (every field but size): the minimum taken unsigned
   (GPUOCC_UNLIMITED is above every limit; warps_blocks is at most the slots, so blocks never equals it)
   and the resources that tie at it. */
static GPUOCC_ALWAYS_INLINE void single_store(uint32_t slot_blocks, uint32_t slots, uint32_t wpb, uint32_t warps_blocks,
                                              uint32_t regs_blocks, uint32_t smem_blocks, uint32_t barrier_blocks,
                                              uint32_t virtual_blocks, int64_t per_warp, int64_t alloc,
                                              int64_t carveout, gpuocc_result *r)
{
    uint32_t blocks = umin32(umin32(umin32(warps_blocks, regs_blocks), umin32(smem_blocks, slot_blocks)),
                             umin32(barrier_blocks, virtual_blocks));
#if GPUOCC_VECTORS
    gpuocc_u32x4 limits = {warps_blocks, regs_blocks, smem_blocks, slot_blocks};
    gpuocc_u32x4 others = {barrier_blocks, (uint32_t)UNLIMITED, (uint32_t)UNLIMITED, virtual_blocks};
    gpuocc_u32x4 at = {blocks, blocks, blocks, blocks};
    gpuocc_i32x4 ties = (gpuocc_i32x4)(limits == at), other_ties = (gpuocc_i32x4)(others == at);
#if defined(__SSE2__)
    uint32_t limiters = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps((__m128i)ties)) |
                        (uint32_t)_mm_movemask_ps(_mm_castsi128_ps((__m128i)other_ties)) << 4;
#else
    const gpuocc_i32x4 bits = {1, 2, 4, 8};
    gpuocc_i32x4 m = (ties & bits) | ((other_ties & bits) << 4);
    uint32_t limiters = (uint32_t)(m[0] | m[1] | m[2] | m[3]);
#endif
#else
    uint32_t limiters = gpuocc_nv_limiters(blocks, warps_blocks, regs_blocks, smem_blocks, slot_blocks,
                                           barrier_blocks, virtual_blocks);
#endif
    _Static_assert(GPUOCC_RESOURCE_WARPS == 0 && GPUOCC_RESOURCE_REGISTERS == 1 && GPUOCC_RESOURCE_SMEM == 2 &&
                       GPUOCC_RESOURCE_BLOCKS == 3 && GPUOCC_RESOURCE_BARRIERS == 4 && GPUOCC_RESOURCE_VIRTUAL == 7,
                   "the limits' lanes are the resources' bits");
    int32_t warps = (int32_t)(blocks * wpb); /* at most the warp slots */
    /* per_warp < 2^37, warps per block <= 64: the product fits */
    uint64_t block_regs_used = (uint64_t)per_warp * wpb;
    r->limiters = limiters;
    r->blocks_per_sm = (int32_t)blocks;
    r->warps_per_sm = warps;
    r->max_warps_per_sm = (int32_t)slots;
    r->warps_per_block = (int32_t)wpb;
    r->occupancy = (double)warps / (double)slots;
#if GPUOCC_VECTORS
    _Static_assert(offsetof(gpuocc_result, limit_regs) == offsetof(gpuocc_result, limit_warps) + 4 &&
                       offsetof(gpuocc_result, limit_smem) == offsetof(gpuocc_result, limit_warps) + 8 &&
                       offsetof(gpuocc_result, limit_blocks) == offsetof(gpuocc_result, limit_warps) + 12,
                   "four limits, one vector");
    memcpy(&r->limit_warps, &limits, sizeof limits);
#else
    r->limit_warps = (int32_t)warps_blocks;
    r->limit_regs = (int32_t)regs_blocks;
    r->limit_smem = (int32_t)smem_blocks;
    r->limit_blocks = (int32_t)slot_blocks;
#endif
    r->limit_barriers = (int32_t)barrier_blocks;
    r->regs_per_block = block_regs_used > INT32_MAX ? INT32_MAX : (int32_t)block_regs_used;
    r->smem_per_block_bytes = alloc;
    r->smem_per_sm_bytes = carveout;
    r->limit_virtual_resources = (int32_t)virtual_blocks;
    gpuocc_nv_result_rest(r);
}

/* Whether the units of a checked device of the single calls' shape are powers of two (then single_eval
   covers it). */
static GPUOCC_ALWAYS_INLINE bool single_powers(const gpuocc_device *d)
{
    uint32_t parts = (uint32_t)d->sub_partitions, compat = (uint32_t)d->reg_compat_sub_partitions;
    uint32_t smem_unit = (uint32_t)d->smem_alloc_unit_bytes;
    return ((parts & (parts - 1)) | (compat & (compat - 1)) | (smem_unit & (smem_unit - 1))) == 0;
}

/* The rules on a checked device of the single calls' shape with power-of-two units (`compat`: the device
   has the GP10x register layout, reg_compat_sub_partitions; without it, constants fold).  Every device
   field read in place, where it is used, and what follows from one (shifts, warp slots, the register file
   in allocation units) computed there: values made up front are held in registers, then spilled (two
   dozen stores and loads a call). */
static GPUOCC_ALWAYS_INLINE void single_eval(const gpuocc_device *d, bool compat_layout, const gpuocc_kernel *k,
                                             gpuocc_result *r)
{
    const uint32_t ws = SHAPE_WARP_SHIFT, us = SHAPE_UNIT_SHIFT;
    uint32_t ps = (uint32_t)gpuocc_log2_exact((uint32_t)d->sub_partitions);
    uint32_t cs = compat_layout ? (uint32_t)gpuocc_log2_exact((uint32_t)d->reg_compat_sub_partitions) : 0;
    uint32_t threads = (uint32_t)k->threads_per_block; /* 1 .. 64 warps */
    int64_t regs = k->regs_per_thread;                  /* >= 0 */
    /* shared memory (gpuocc_nv_fast_smem, gpuocc_nv_fast_smem_blocks), first: its quotient is the call's
       longest path; a device without carveouts keeps smem_per_sm (a branch on the device alone) */
    int64_t smem_static = k->smem_static_bytes, smem_dynamic = k->smem_dynamic_bytes;
    int64_t smem_mask = ((int64_t)1 << gpuocc_log2_exact((uint32_t)d->smem_alloc_unit_bytes)) - 1;
    int64_t reserved = d->smem_reserved_per_block_bytes;
    int64_t alloc = (smem_static + smem_dynamic + reserved + smem_mask) & ~smem_mask;
    int64_t carveout = d->smem_per_sm_bytes;
    if (d->carveout_count > 0) {
        /* smem_per_sm <= SHAPE_SMEM_MAX: its share fits 32 bits */
        uint32_t percent = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT ? 100 : (uint32_t)k->carveout_percent;
        int64_t preferred = (percent * (uint32_t)carveout) / 100;
        int64_t chosen = gpuocc_nv_carveout_in(d->carveouts_kib, d->carveout_count, preferred > alloc ? preferred : alloc);
        carveout = chosen >= 0 ? chosen : carveout;
    }
    int64_t optin = d->smem_per_block_optin_bytes, block = d->smem_per_block_bytes;
    bool too_much = gpuocc_nv_smem_too_much(k, smem_static, smem_dynamic, alloc, optin, optin + reserved,
                                            block + reserved, block - reserved);
    uint32_t smem_blocks = smem_blocks_of(carveout, alloc, too_much, true);
    /* warps */
    uint32_t wpb = ((threads - 1) >> ws) + 1; /* <= GPUOCC_FAST_STEPS */
    uint32_t slots = (uint32_t)d->max_threads_per_sm >> ws;
    uint32_t warps_blocks =
        gpuocc_fast_div(slots, wpb) & -(uint32_t)(threads <= (uint32_t)d->max_threads_per_block);
    /* registers (gpuocc_nv_fast_regs, gpuocc_nv_fast_threads) */
    int64_t unit_mask = ((int64_t)1 << us) - 1;
    int64_t per_warp = ((regs << ws) + unit_mask) & ~unit_mask;
    bool over = regs > d->regs_per_thread_max;
    uint32_t g = (uint32_t)(per_warp >> us) & -(uint32_t)!over; /* <= GPUOCC_FAST_STEPS */
    uint64_t step_regs = (uint64_t)g << us;
    uint32_t file_units = (uint32_t)d->regs_per_sm >> us;
    uint32_t file_warps = gpuocc_fast_div(file_units >> ps, g) << ps;
    /* the GP10x layout's checks on every device: without it (compat_shift 0, compat_units the whole file)
       they fail only where the sub-partitions' do, or where the whole file holds fewer warps than the
       block, and then file_warps (<= the whole file's warps) gives 0 blocks anyway */
    uint32_t compat_warps = gpuocc_fast_div(file_units >> cs, g) << cs;
    uint64_t parts = (uint64_t)1 << ps, compat = (uint64_t)1 << cs, block_regs = (uint64_t)d->regs_per_block;
    bool fits = (step_regs * ((wpb + parts - 1) & -parts) <= block_regs) &
                (step_regs * ((wpb + compat - 1) & -compat) <= block_regs) & (compat_warps >= wpb);
    uint32_t regs_blocks = gpuocc_fast_div(file_warps, wpb) & -(uint32_t)fits;
    regs_blocks = step_regs == 0 ? (uint32_t)UNLIMITED : regs_blocks;
    regs_blocks &= -(uint32_t)!over;
    uint32_t barrier_blocks = barrier_blocks_of((uint32_t)d->barriers_per_sm, k->barriers);
    uint32_t virtual_blocks = virtual_blocks_of(d->virtual_resources_per_sm, k->virtual_resources);
    single_store((uint32_t)d->max_blocks_per_sm, slots, wpb, warps_blocks, regs_blocks, smem_blocks,
                 barrier_blocks, virtual_blocks, per_warp, alloc, carveout, r);
}

/* ---- The prepared single call: its state (struct gpuocc_nv_quick) and its evaluation from it. ---- */

/* The prepared single call covers the single calls' shape of units (SHAPE_WARP_SHIFT, SHAPE_UNIT_SHIFT). */

void gpuocc_nv_quick_fill(const struct gpuocc_nv_fast *f, struct gpuocc_nv_quick *q, struct gpuocc_nv_quick_tables *t)
{
    const gpuocc_device *d = f->d;
    int32_t count = d->carveout_count;
    q->smem_shift = f->smem_shift, q->slots = f->slots;
    q->carveout_count = (uint32_t)count, q->reserved1 = 0, q->reserved2 = 0;
    q->max_threads_per_block = (uint32_t)f->max_threads_per_block;
    q->regs_per_thread_max = (uint32_t)f->regs_per_thread_max;
    q->max_blocks_per_sm = (uint32_t)f->max_blocks_per_sm;
    q->virtual_per_sm = (uint32_t)f->virtual_per_sm, q->barriers_per_sm = (uint32_t)f->barriers_per_sm;
    int64_t below = (int64_t)1 << 30;
    q->smem_per_sm = (uint32_t)f->smem_per_sm, q->smem_reserved = (uint32_t)f->smem_reserved;
    q->smem_optin = (uint32_t)f->smem_optin;
    q->optin_total = (uint32_t)(f->smem_optin + f->smem_reserved);
    q->block_total = (uint32_t)(f->smem_per_block + f->smem_reserved);
    q->block_own = (int32_t)(f->smem_per_block - f->smem_reserved);
    bool exact = f->warp_shift == SHAPE_WARP_SHIFT && f->unit_shift == SHAPE_UNIT_SHIFT && f->slots <= GPUOCC_NV_SLOTS_MAX && f->smem_per_sm < below && f->smem_optin + f->smem_reserved < below &&
                 f->smem_per_block + f->smem_reserved < below &&
                 (count == 0 || d->carveouts_kib[count - 1] < GPUOCC_NV_KIB_MAX);
    /* registers, by allocation step: the rules of gpuocc_nv_fast_threads with the step in place of the
       count (the answer depends on the count through its step alone); whether a block fits falls as its
       warps grow, so the warps that fit are those up to the most */
    uint64_t parts = (uint64_t)1 << f->part_shift, compat = (uint64_t)1 << f->compat_shift;
    t->regs[0] = gpuocc_nv_sealed(0xffu << 24);
    for (uint32_t g = 1; g <= GPUOCC_FAST_STEPS; g++) {
        uint64_t step_regs = (uint64_t)g << f->unit_shift;
        uint64_t file_warps = (uint64_t)(f->part_units / g) << f->part_shift;
        uint64_t compat_warps = (uint64_t)(f->compat_units / g) << f->compat_shift;
        exact &= file_warps <= 0xffff;
        uint32_t most = 0;
        for (uint64_t wpb = 1; wpb <= GPUOCC_FAST_STEPS; wpb++) {
            bool fits = step_regs * ((wpb + parts - 1) & -parts) <= (uint64_t)f->regs_per_block;
            if (f->compat_parts > 0)
                fits = fits && step_regs * ((wpb + compat - 1) & -compat) <= (uint64_t)f->regs_per_block &&
                       compat_warps >= wpb;
            if (!fits)
                break;
            most = (uint32_t)wpb;
        }
        t->regs[g] = gpuocc_nv_sealed((uint32_t)(file_warps & 0xffff) | most << 16);
    }
    t->regs[GPUOCC_FAST_STEPS + 1] = gpuocc_nv_sealed(0);
    /* the carveouts: the smallest holding so many bytes depends on their KiB, rounded up, alone */
    for (int32_t i = 0; i < GPUOCC_NV_PERCENTS; i++) {
        int64_t percent = i == 0 || i > 101 ? 100 : i - 1;
        int64_t chosen = gpuocc_nv_carveout_in(d->carveouts_kib, count, percent * d->smem_per_sm_bytes / 100);
        t->carveout_by_percent[i] = gpuocc_nv_sealed16((uint16_t)(chosen >= 0 ? chosen >> 10 : 0xffff));
    }
    for (int32_t kib = 0; kib < GPUOCC_NV_KIB_MAX + 2; kib++) {
        int64_t chosen = gpuocc_nv_carveout_in(d->carveouts_kib, count, (int64_t)kib * 1024);
        t->carveout_by_kib[kib] = gpuocc_nv_sealed16((uint16_t)(chosen >= 0 ? chosen >> 10 : 0xffff));
    }
    q->tag = gpuocc_nv_quick_sum(q) + !exact;
}

/* An entry's two halves XORed: the seal in both when it is as filled. */
static GPUOCC_ALWAYS_INLINE uint64_t unsealed(uint64_t entry)
{
    return entry ^ (entry >> 32 | entry << 32);
}

static GPUOCC_ALWAYS_INLINE uint32_t unsealed16(uint32_t entry)
{
    return entry ^ (entry >> 16 | entry << 16);
}

/* One launch from the prepared state `q` (its tag checked, the kernel checked, threads at most 64 warps):
   single_eval's answer with the register file's, the barriers' and the carveouts' parts looked up; false
   when an entry read is not sealed as filled (r untouched). */
static GPUOCC_ALWAYS_INLINE bool quick_eval(const struct gpuocc_nv_quick *q, const struct gpuocc_nv_quick_tables *t,
                                            const gpuocc_kernel *k, gpuocc_result *r)
{
    /* Conditional expressions where the compiler makes conditional moves of them (GCC and Clang do for
       these: the asm has no branch on the launch). */
    const uint32_t ws = SHAPE_WARP_SHIFT, us = SHAPE_UNIT_SHIFT;
    uint32_t threads = (uint32_t)k->threads_per_block; /* 1 .. 64 warps */
    int64_t regs = k->regs_per_thread;                  /* >= 0 */
    /* warps */
    uint32_t wpb = ((threads - 1) >> ws) + 1;
    uint64_t reciprocal = gpuocc_fast_reciprocal[wpb];
    uint32_t warps_blocks = (uint32_t)(((uint64_t)q->slots * reciprocal) >> 32);
    GPUOCC_KEEP(warps_blocks);
    warps_blocks = GPUOCC_EITHER(threads <= q->max_threads_per_block) ? warps_blocks : 0;
    /* registers: the step's entry (past the maximum: the last, 0 blocks) */
    int64_t unit_mask = ((int64_t)1 << us) - 1;
    int64_t per_warp = ((regs << ws) + unit_mask) & ~unit_mask;
    /* (a step past the table only from a state whose tag was forged: the last entry too) */
    uint64_t step = (uint64_t)per_warp >> us;
    uint32_t past = (uint32_t)(regs > (int64_t)q->regs_per_thread_max) | (uint32_t)(step > GPUOCC_FAST_STEPS);
    GPUOCC_KEEP(past);
    step = GPUOCC_EITHER(past) ? GPUOCC_FAST_STEPS + 1 : step;
    uint64_t regs_entry = t->regs[step];
    uint32_t entry = (uint32_t)regs_entry;
    uint32_t file_warps = entry & 0xffff, most = (entry >> 16) & 0xff;
    uint32_t regs_blocks = (uint32_t)(((uint64_t)file_warps * reciprocal) >> 32);
    GPUOCC_KEEP(regs_blocks);
    regs_blocks = (GPUOCC_EITHER(wpb <= most) ? regs_blocks : 0) | (uint32_t)((int32_t)entry >> 24);
    /* shared memory: the carveout holding both the preference and the block, the larger of the two */
    int64_t smem_static = k->smem_static_bytes, smem_dynamic = k->smem_dynamic_bytes;
    int64_t smem_mask = ((int64_t)1 << (q->smem_shift & 31)) - 1;
    int64_t alloc = (smem_static + smem_dynamic + q->smem_reserved + smem_mask) & ~smem_mask;
    uint64_t kib = ((uint64_t)alloc + 1023) >> 10;
    kib = GPUOCC_EITHER(kib < GPUOCC_NV_KIB_MAX) ? kib : GPUOCC_NV_KIB_MAX;
    /* a device without carveouts keeps smem_per_sm (a branch on the device alone; the entries it then
       reads are the seal's own, which cancel) */
    uint32_t kib_entry = gpuocc_nv_sealed16(0xffff), percent_entry = kib_entry;
    if (q->carveout_count != 0)
        kib_entry = t->carveout_by_kib[kib], percent_entry = t->carveout_by_percent[k->carveout_percent + 1];
    uint32_t by_kib = kib_entry & 0xffff, by_percent = percent_entry & 0xffff;
    uint32_t chosen = GPUOCC_EITHER(by_kib > by_percent) ? by_kib : by_percent;
    int64_t chosen_bytes = (int64_t)chosen << 10, smem_per_sm = q->smem_per_sm;
    GPUOCC_KEEP(chosen_bytes);
    int64_t carveout = GPUOCC_EITHER(chosen == 0xffff) ? smem_per_sm : chosen_bytes;
    bool too_much = gpuocc_nv_smem_too_much(k, smem_static, smem_dynamic, alloc, q->smem_optin, q->optin_total,
                                            q->block_total, q->block_own);
    /* carveout < 2^30: the quotient is exact and below INT32_MAX */
    uint32_t smem_blocks = smem_blocks_of(carveout, alloc, too_much, false);
    uint32_t barrier_blocks = barrier_blocks_of(q->barriers_per_sm, k->barriers);
    uint32_t virtual_blocks = virtual_blocks_of((int32_t)q->virtual_per_sm, k->virtual_resources);
    /* the three entries as filled: the two 32-bit ones' seals cancel */
    uint64_t seal = (uint64_t)GPUOCC_NV_SEAL << 32 | GPUOCC_NV_SEAL;
    if (((unsealed(regs_entry) ^ seal) | (unsealed16(kib_entry) ^ unsealed16(percent_entry))) != 0)
        return false;
    single_store(q->max_blocks_per_sm, q->slots, wpb, warps_blocks, regs_blocks, smem_blocks, barrier_blocks,
                 virtual_blocks, per_warp, alloc, carveout, r);
    return true;
}

/*
 * The rules on a device and kernel the single calls' checks passed (false when a unit is not a power of
 * two: the API's path then).  GP100's second register layout apart, so that elsewhere its check folds
 * away.  In a function of its own, apart from the checks: the checks' vectors and the rules' values then
 * do not compete for registers (one frame held every value of both, a hundred spills).
 */
static GPUOCC_ALWAYS_INLINE bool eval_checked(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    /* the checks' shape: 32-thread warps, 256-register units, every step tabled, at most 64 warps */
    if (!single_powers(d))
        return false;
    /* GP100 apart: elsewhere the GP10x layout's check goes (the sub-partitions, four since Volta and two
       on GP100, stay a shift) */
    if (d->reg_compat_sub_partitions == 0)
        single_eval(d, false, k, r);
    else
        single_eval(d, true, k, r);
    return true;
}

/*
 * The prepared single call: the device was checked by gpuocc_prepare and what the evaluation reads of it
 * stored in struct gpuocc_nv_quick (eight tagged words and sealed tables), so a call checks that tag, the
 * kernel and the entries it reads, and evaluates from the block alone (the stored device is not read).
 * False (the API's plain path then, which checks the whole state's tag) for a state whose tag or entries
 * do not match, a device or a launch the fast evaluation does not cover.
 */
static GPUOCC_ALWAYS_INLINE bool prepared_eval(const uint64_t *opaque, const gpuocc_kernel *k, gpuocc_result *r,
                                               bool whole, bool wide)
{
    const gpuocc_nv_state *p = (const gpuocc_nv_state *)(const void *)opaque;
    const struct gpuocc_nv_quick *q = &p->quick;
    /* one branch for them all: the tag's sum overlaps the kernel's checks (the single calls': every caller
       gives a kernel of the current layout, and they hold it to 64 warps, the reciprocals' table).
       `whole`: the API's entry, which checked the structs' sizes but not the state's vendor (checked here
       with the rest) */
    bool tag_ok = gpuocc_nv_quick_sum(q) == q->tag, kernel_fine = kernel_ok_for(k, true, wide);
    bool fine = tag_ok & kernel_fine;
    if (whole)
        fine &= p->device.vendor == GPUOCC_VENDOR_NVIDIA;
    return fine && quick_eval(q, &p->quick_tables, k, r);
}

static GPUOCC_ALWAYS_INLINE bool occupancy_prepared(const uint64_t *opaque, const gpuocc_kernel *k, gpuocc_result *r,
                                                    bool wide)
{
    return prepared_eval(opaque, k, r, false, wide);
}

/* Both single calls' checks and rules compiled for AVX2 and BMI2 as well (GPUOCC_NV_AVX2_TARGET,
   lib/nvidia/fast.h): about a fifth fewer instructions. */

/* The evaluation, else the API's own path (a tail call either way from the checks). */
static GPUOCC_NOINLINE int32_t eval_or_baseline(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r,
                                                gpuocc_nv_occupancy_other other)
{
    return eval_checked(d, k, r) ? GPUOCC_OK : other(d, k, r);
}

GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE int32_t eval_or_avx2(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r,
                                                        gpuocc_nv_occupancy_other other)
{
    return eval_checked(d, k, r) ? GPUOCC_OK : other(d, k, r);
}

/* The API's entries: the fast path on the caller's structs (NULL pointers and sizes checked here), else a
   tail call of the API's own path. */
static GPUOCC_ALWAYS_INLINE int32_t occupancy_or(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r,
                                                 gpuocc_nv_occupancy_other other, bool wide)
{
    /* the sizes first: a struct of an older, shorter layout must not be read past its end (the vector rows
       read the current layout whole) */
    if (!(d && k && r) || d->size != sizeof *d || k->size != sizeof *k || r->size != sizeof *r ||
        !device_ok_for(d, true, wide) || !kernel_ok_for(k, true, wide))
        return other(d, k, r);
    return wide ? eval_or_avx2(d, k, r, other) : eval_or_baseline(d, k, r, other);
}

static GPUOCC_ALWAYS_INLINE int32_t prepared_or(const gpuocc_prepared *p, const gpuocc_kernel *k, gpuocc_result *r,
                                                gpuocc_nv_prepared_other other, bool wide)
{
    uint64_t head = 0; /* size and reserved0 */
    if (p)
        memcpy(&head, p, sizeof head);
    _Static_assert(offsetof(gpuocc_prepared, reserved0) == 4 && offsetof(gpuocc_prepared, opaque) == 8,
                   "size and reserved0: one word");
    if (!(k && r) || head != sizeof *p || k->size != sizeof *k || r->size != sizeof *r ||
        !prepared_eval(p->opaque, k, r, true, wide))
        return other(p, k, r);
    return GPUOCC_OK;
}

static GPUOCC_NOINLINE int32_t occupancy_or_baseline(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r,
                                                     gpuocc_nv_occupancy_other other)
{
    return occupancy_or(d, k, r, other, false);
}

GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE int32_t occupancy_or_avx2(const gpuocc_device *d, const gpuocc_kernel *k,
                                                             gpuocc_result *r, gpuocc_nv_occupancy_other other)
{
    return occupancy_or(d, k, r, other, true);
}

int32_t gpuocc_nv_occupancy_or(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r,
                               gpuocc_nv_occupancy_other other)
{
    return gpuocc_nv_has_avx2() ? occupancy_or_avx2(d, k, r, other) : occupancy_or_baseline(d, k, r, other);
}

static GPUOCC_NOINLINE int32_t prepared_or_baseline(const gpuocc_prepared *p, const gpuocc_kernel *k, gpuocc_result *r,
                                                    gpuocc_nv_prepared_other other)
{
    return prepared_or(p, k, r, other, false);
}

GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE int32_t prepared_or_avx2(const gpuocc_prepared *p, const gpuocc_kernel *k,
                                                            gpuocc_result *r, gpuocc_nv_prepared_other other)
{
    return prepared_or(p, k, r, other, true);
}

int32_t gpuocc_nv_occupancy_prepared_or(const gpuocc_prepared *p, const gpuocc_kernel *k, gpuocc_result *r,
                                        gpuocc_nv_prepared_other other)
{
    return gpuocc_nv_has_avx2() ? prepared_or_avx2(p, k, r, other) : prepared_or_baseline(p, k, r, other);
}

static GPUOCC_NOINLINE bool occupancy_prepared_baseline(const uint64_t *opaque, const gpuocc_kernel *k,
                                                        gpuocc_result *r)
{
    return occupancy_prepared(opaque, k, r, false);
}

GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE bool occupancy_prepared_avx2(const uint64_t *opaque, const gpuocc_kernel *k,
                                                                gpuocc_result *r)
{
    return occupancy_prepared(opaque, k, r, true);
}

bool gpuocc_nv_occupancy_prepared(const uint64_t *opaque, const gpuocc_kernel *k, gpuocc_result *r)
{
    return gpuocc_nv_has_avx2() ? occupancy_prepared_avx2(opaque, k, r) : occupancy_prepared_baseline(opaque, k, r);
}

/* The device check the sweeps, the searches and the batch make: the AVX2 clone where the processor has it. */
GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE bool device_ok_avx2(const gpuocc_device *d)
{
    return device_ok_for(d, false, true);
}

bool gpuocc_nv_device_fast_ok(const gpuocc_device *d)
{
    return gpuocc_nv_has_avx2() ? device_ok_avx2(d) : device_ok(d);
}
