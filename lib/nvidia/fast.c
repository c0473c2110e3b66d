/*
 * The single call's fast path: conservative checks of the device and the kernel in a few vector
 * instructions (shared with the batch and the sweeps), then NVIDIA's rules straight through for the common
 * device shape, without a division by an integer or a branch on the launch's values.  Anything it does not
 * accept goes to the plain path, which checks field by field and names the error.
 */
#include "fast.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bounds of gpuocc_device_validate (lib/core/structs.c). */
#define SMALL_MAX (1u << 20)
#define CARVEOUT_KIB_MAX (1u << 30)

#if GPUOCC_VECTORS
/* A word's bounds as two constants: it is outside [lo, lo + span] when ((v - lo) ^ 2^31) > (span ^ 2^31)
   as signed integers (the unsigned comparison SSE2 does not have). */
#define SIGN 0x80000000u
/* (lo, hi) pairs, four to a row: the row's lows and its spans as two vectors */
#define LO(lo, hi) (int32_t)(uint32_t)(lo)
#define SPAN(lo, hi) (int32_t)(((uint32_t)(hi) - (uint32_t)(lo)) ^ SIGN)
#define ROW(a, b, c, d) {{LO a, LO b, LO c, LO d}, {SPAN a, SPAN b, SPAN c, SPAN d}}
#define ANY (0, UINT32_MAX)
#define ZERO (0, 0)
/* the high word of an int64 byte count below GPUOCC_FAST_BYTES */
#define BYTES_HIGH (0, (GPUOCC_FAST_BYTES >> 32) - 1)
#define KIB (0, CARVEOUT_KIB_MAX)

typedef gpuocc_i32x4 i32x4;

_Static_assert(offsetof(gpuocc_device, simds_per_cu) + 8 == 4 * 44, "the bounds end two words into the AMD fields");
_Static_assert(offsetof(gpuocc_kernel, reserved) + 8 == sizeof(gpuocc_kernel) && sizeof(gpuocc_kernel) == 4 * 22,
               "the kernel's bounds cover it whole");

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
/* Words 0 .. 21 of a kernel; the last row overlaps the one before (words 18 .. 21). */
static const i32x4 kernel_bounds[6][2] = {
    /* size, threads_per_block, regs_per_thread, barriers */
    ROW(ANY, (1, INT32_MAX), (0, INT32_MAX), (0, INT32_MAX)),
    /* smem_static_bytes, smem_dynamic_bytes */
    ROW(ANY, BYTES_HIGH, ANY, BYTES_HIGH),
    /* carveout_percent, smem_optin, smem_dynamic_max_bytes (checked apart) */
    ROW((-1, 100), (0, 1), ANY, ANY),
    /* max_threads_per_block, agprs, sgprs, wave_size (0, 32 or 64: a multiple of 32, below) */
    ROW((0, INT32_MAX), (0, INT32_MAX), (0, INT32_MAX), (0, 64)),
    /* cu_mode, model, rocm_version, reserved0 */
    ROW((0, 1), (GPUOCC_MODEL_DEFAULT, GPUOCC_MODEL_RUNTIME), (0, 100000), ZERO),
    /* rocm_version, reserved0, reserved[0] */
    ROW((0, 100000), ZERO, ZERO, ZERO),
};

static inline i32x4 load(const void *p)
{
    return gpuocc_load_i32x4(p);
}

/* Lanes of the 4 words at `p` outside the bounds `b`. */
static inline i32x4 out_of_bounds(const unsigned char *p, const i32x4 b[2])
{
    /* the subtraction wraps: unsigned lanes (signed lanes would overflow, undefined behaviour) */
    const gpuocc_u32x4 sign = {SIGN, SIGN, SIGN, SIGN};
    return (i32x4)(((gpuocc_u32x4)load(p) - (gpuocc_u32x4)b[0]) ^ sign) > b[1];
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
    /* the AMD fields and reserved words past them: zero */
    bad |= load(b + 176) | load(b + 192) | load(b + 208) | load(b + sizeof *d - 16);
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
    return none(bad) & (d->max_threads_per_sm >= d->warp_size) &
           (d->smem_per_block_optin_bytes >= d->smem_per_block_bytes) & carveouts_ok;
}

static inline bool kernel_ok(const gpuocc_kernel *k)
{
    const unsigned char *b = (const unsigned char *)k;
    i32x4 bad = out_of_bounds(b, kernel_bounds[0]) | out_of_bounds(b + 16, kernel_bounds[1]) |
                out_of_bounds(b + 32, kernel_bounds[2]) | out_of_bounds(b + 48, kernel_bounds[3]) |
                out_of_bounds(b + 64, kernel_bounds[4]) | out_of_bounds(b + 72, kernel_bounds[5]);
    /* -1 .. GPUOCC_FAST_BYTES - 1 */
    bool dynamic_max_ok = (uint64_t)k->smem_dynamic_max_bytes + 1 <= (uint64_t)GPUOCC_FAST_BYTES;
    return none(bad) & dynamic_max_ok & ((k->wave_size & 31) == 0);
}
#else
static inline bool device_ok(const gpuocc_device *d)
{
    return gpuocc_device_fine(d) && d->smem_per_sm_bytes < GPUOCC_FAST_BYTES &&
           d->smem_per_block_optin_bytes < GPUOCC_FAST_BYTES && d->smem_reserved_per_block_bytes < GPUOCC_FAST_BYTES;
}

static inline bool kernel_ok(const gpuocc_kernel *k)
{
    int32_t rc;
    gpuocc_kernel scratch;
    return gpuocc_kernel_view(k, &scratch, &rc) == k && k->smem_static_bytes < GPUOCC_FAST_BYTES &&
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

/* The index of the smallest carveout of at least `kib` KiB (entries ascending, unused ones zero): the
   used entries below it form a prefix of the bit mask `below`. */
static inline uint32_t carveout_index(const gpuocc_device *d, int32_t kib)
{
#if defined(__SSE2__)
    __m128i need = _mm_set1_epi32(kib);
    const __m128i *c = (const __m128i *)(const void *)d->carveouts_kib;
    __m128i low = _mm_packs_epi32(_mm_cmpgt_epi32(need, _mm_loadu_si128(c)),
                                  _mm_cmpgt_epi32(need, _mm_loadu_si128(c + 1)));
    __m128i high = _mm_packs_epi32(_mm_cmpgt_epi32(need, _mm_loadu_si128(c + 2)),
                                   _mm_cmpgt_epi32(need, _mm_loadu_si128(c + 3)));
    uint32_t below = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(low, high));
#else
    uint32_t below = 0;
    for (int32_t i = 0; i < GPUOCC_MAX_CARVEOUTS; i++)
        below |= (uint32_t)(d->carveouts_kib[i] < kib) << i;
#endif
    uint32_t used = ((uint32_t)1 << d->carveout_count) - 1;
    return (uint32_t)gpuocc_log2_exact(~(below & used)); /* <= carveout_count */
}

/*
 * One launch, straight through, on a device with 32-thread warps and 256-register allocation units (the
 * bounds above: every NVIDIA GPU): the units are constants, the small divisions tabled reciprocals, the
 * shared memory one floating-point divide, and no branch depends on the launch's values (a stream of
 * random launches mispredicts none).  False (the plain path then) for a device whose sub-partition
 * counts or shared-memory unit are not powers of two, more than 64 warps per block or barriers.
 */
bool gpuocc_nv_occupancy_fast(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    uint32_t parts = (uint32_t)d->sub_partitions, compat = (uint32_t)d->reg_compat_sub_partitions;
    uint32_t smem_unit = (uint32_t)d->smem_alloc_unit_bytes;
    uint32_t threads = (uint32_t)k->threads_per_block, barriers = (uint32_t)k->barriers;
    uint32_t warps = (threads + 31) >> 5;
    if (!device_ok(d) || !kernel_ok(k) ||
        (((parts & (parts - 1)) | (compat & (compat - 1)) | (smem_unit & (smem_unit - 1))) != 0) |
            (d->warp_size != 32) | (d->reg_alloc_unit != 256) | (d->regs_per_thread_max > 512) |
            (warps > GPUOCC_FAST_STEPS) | (barriers > GPUOCC_FAST_STEPS))
        return false;

    /* warp slots */
    uint32_t slots = (uint32_t)d->max_threads_per_sm >> 5;
    uint32_t block_threads = (uint32_t)d->max_threads_per_block;
    int32_t warps_blocks = (int32_t)gpuocc_fast_div(slots, warps) & -(int32_t)(threads <= block_threads);

    /* registers: 8 per thread make one 256-register step per warp; each sub-partition's slice of the
       file holds floor(slice / step) warps */
    int64_t regs = k->regs_per_thread;
    bool over = regs > d->regs_per_thread_max;
    /* regs <= regs_per_thread_max <= 512: step <= 64 */
    uint32_t step = ((uint32_t)(regs + 7) >> 3) & -(uint32_t)!over;
    uint32_t part_shift = (uint32_t)gpuocc_log2_exact(parts);
    uint32_t file_units = (uint32_t)d->regs_per_sm >> 8;
    uint32_t part_warps = gpuocc_fast_div(file_units >> part_shift, step) << part_shift;
    int32_t regs_blocks = (int32_t)gpuocc_fast_div(part_warps, warps);
    /* the block's registers with its warps rounded up to the sub-partitions */
    uint32_t block_units = step * ((warps + parts - 1) & -parts); /* <= 64 x 127 */
    bool fits = (uint64_t)block_units << 8 <= (uint64_t)d->regs_per_block;
    if (compat) {
        /* GP100: the block must also fit its GP10x siblings' layout */
        uint32_t compat_shift = (uint32_t)gpuocc_log2_exact(compat);
        uint32_t compat_units = step * ((warps + compat - 1) & -compat);
        uint32_t compat_warps = gpuocc_fast_div(file_units >> compat_shift, step) << compat_shift;
        fits &= ((uint64_t)compat_units << 8 <= (uint64_t)d->regs_per_block) & (compat_warps >= warps);
    }
    regs_blocks = (step == 0 ? GPUOCC_NO_LIMIT : regs_blocks & -(int32_t)fits) & -(int32_t)!over;

    /* shared memory: the block's allocation; the smallest carveout holding both it and the preference */
    int64_t smem_static = k->smem_static_bytes, smem_dynamic = k->smem_dynamic_bytes;
    int64_t reserved = d->smem_reserved_per_block_bytes, smem_sm = d->smem_per_sm_bytes;
    int64_t alloc = (smem_static + smem_dynamic + reserved + smem_unit - 1) & -(int64_t)smem_unit;
    int64_t percent = k->carveout_percent < 0 ? 100 : k->carveout_percent; /* the default: all of it */
    int64_t preferred = percent * smem_sm / 100;
    int64_t need = preferred > alloc ? preferred : alloc;
    int64_t need_kib = (need + 1023) >> 10;
    /* past every carveout (<= 2^30 KiB, the bounds) either way */
    uint32_t index = carveout_index(d, (int32_t)(need_kib < INT32_MAX ? need_kib : INT32_MAX));
    int64_t carveout = index < (uint32_t)d->carveout_count ? (int64_t)d->carveouts_kib[index] * 1024 : smem_sm;
    /* the per-block limit: the opt-in one once the largest block the kernel may launch passes the default */
    int64_t optin_bytes = d->smem_per_block_optin_bytes, block_bytes = d->smem_per_block_bytes;
    int64_t dynamic_max = k->smem_dynamic_max_bytes, dynamic_default = optin_bytes - smem_static;
    dynamic_max = dynamic_max < 0 ? dynamic_default : dynamic_max;
    bool optin = k->smem_optin != 0;
    int64_t largest = smem_static + reserved + (dynamic_max > 0 ? dynamic_max : 0);
    int64_t limit = block_bytes + ((optin_bytes - block_bytes) & -(int64_t)(optin & (largest > block_bytes)));
    bool too_much = (optin & (smem_dynamic > dynamic_max)) | (alloc > limit + reserved);
    /* carveout < 2^40 and alloc < 2^42: exact in doubles, and so is the quotient's floor (its rounding
       error is below 1 / alloc, the least distance from a non-integer quotient to the next integer) */
    double quotient = (double)carveout / (double)(alloc + (alloc == 0));
    int32_t smem_blocks = (int32_t)(quotient < (double)INT32_MAX ? quotient : (double)INT32_MAX);
    smem_blocks = alloc == 0 ? GPUOCC_NO_LIMIT : smem_blocks;
    smem_blocks = too_much ? 0 : smem_blocks;

    /* barriers */
    int32_t barrier_blocks = (int32_t)gpuocc_fast_div((uint32_t)d->barriers_per_sm, barriers);
    barrier_blocks = ((d->barriers_per_sm == 0) | (barriers == 0)) ? GPUOCC_NO_LIMIT : barrier_blocks;

    int32_t slot_blocks = d->max_blocks_per_sm;
    int32_t blocks = gpuocc_min32(gpuocc_min32(gpuocc_min32(warps_blocks, regs_blocks),
                                               gpuocc_min32(smem_blocks, slot_blocks)),
                                  barrier_blocks);
    uint32_t limiters = (uint32_t)(warps_blocks == blocks) << GPUOCC_RESOURCE_WARPS |
                        (uint32_t)(regs_blocks == blocks) << GPUOCC_RESOURCE_REGISTERS |
                        (uint32_t)(smem_blocks == blocks) << GPUOCC_RESOURCE_SMEM |
                        (uint32_t)(slot_blocks == blocks) << GPUOCC_RESOURCE_BLOCKS |
                        (uint32_t)(barrier_blocks == blocks) << GPUOCC_RESOURCE_BARRIERS;
    int32_t warps_sm = blocks * (int32_t)warps; /* at most the warp slots */
    /* the registers per warp as allocated, for any count (< 2^28 x 256) */
    uint64_t block_regs = (((uint64_t)regs + 7) >> 3 << 8) * warps;
    /* field by field: a compound literal is zeroed first, by `rep stos` with some compilers (slow to start) */
    r->limiters = limiters;
    r->blocks_per_sm = blocks;
    r->warps_per_sm = warps_sm;
    r->max_warps_per_sm = (int32_t)slots;
    r->warps_per_block = (int32_t)warps;
    r->occupancy = (double)warps_sm / (double)slots;
    r->limit_warps = warps_blocks;
    r->limit_regs = gpuocc_public_limit(regs_blocks);
    r->limit_smem = gpuocc_public_limit(smem_blocks);
    r->limit_blocks = slot_blocks;
    r->limit_barriers = gpuocc_public_limit(barrier_blocks);
    r->regs_per_block = block_regs > INT32_MAX ? INT32_MAX : (int32_t)block_regs;
    r->smem_per_block_bytes = alloc;
    r->smem_per_sm_bytes = carveout;
    r->model = 0;
    r->waves_per_simd = 0;
    r->limit_sgprs = GPUOCC_UNLIMITED;
    r->reserved0 = 0;
    r->reserved[0] = 0;
    r->reserved[1] = 0;
    return true;
}
