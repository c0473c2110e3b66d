/*
 * NVIDIA's rules for many launches on one device: the prepared device (a checked copy plus tables: the
 * carveout each KiB count gets, the occupancy of each warp count) and the loop over a batch.  Launches take
 * the fast evaluation of lib/nvidia/fast.h with what the batch shares computed once; devices whose units
 * are not powers of two, and launches outside the fast path's ranges, take gpuocc_rule_all itself.  Every
 * answer equals gpuocc_rule_all's.
 */
#include "fast.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define KIB_MAX GPUOCC_NV_KIB_MAX
#define NO_CARVEOUT GPUOCC_MAX_CARVEOUTS
#define SLOTS_MAX GPUOCC_NV_SLOTS_MAX
/* Batches this long or longer read the tables, and check the whole state's sum first (amortized over the
   launches); shorter ones read only the tagged words, as a single call. */
#define LONG_BATCH 64

_Static_assert(sizeof(struct gpuocc_nv_prepared) <= sizeof(((gpuocc_prepared *)0)->opaque), "prepared state fits");
_Static_assert(sizeof(struct gpuocc_nv_prepared) % sizeof(uint64_t) == 0, "prepared state is whole words");

static uint64_t state_sum(const gpuocc_nv_state *p)
{
    return gpuocc_state_sum(p, sizeof *p, offsetof(struct gpuocc_nv_prepared, check));
}

void gpuocc_nv_prepare(const gpuocc_device *d, uint64_t *opaque)
{
    struct gpuocc_nv_prepared p;
    memset(&p, 0, sizeof p);
    p.device = *d;
    struct gpuocc_nv_fast f;
    if (gpuocc_nv_device_fast_ok(&p.device) && gpuocc_nv_fast_init(&f, &p.device)) {
        struct gpuocc_nv_single *s = &p.single;
        s->params = f.params;
        s->params.fast = 1;
        memcpy(s->carveouts_kib, p.device.carveouts_kib, sizeof s->carveouts_kib);
    }
    p.quick_tag = gpuocc_nv_quick_tag(&p);
    p.tag = gpuocc_nv_state_tag(&p);
    int32_t slots = (int32_t)gpuocc_div_unit(d->max_threads_per_sm, d->warp_size);
    if (slots <= SLOTS_MAX)
        for (int32_t w = 0; w <= slots; w++)
            p.occupancy[w] = (double)w / (double)slots;
    for (int32_t kib = 0; kib <= KIB_MAX; kib++) {
        int32_t i = 0;
        while (i < d->carveout_count && d->carveouts_kib[i] < kib)
            i++;
        p.carveout_index[kib] = (uint8_t)(i < d->carveout_count ? i : NO_CARVEOUT);
    }
    p.check = state_sum(&p);
    memcpy(opaque, &p, sizeof p);
}

const gpuocc_device *gpuocc_nv_prepared_device(const uint64_t *opaque)
{
    const gpuocc_nv_state *p = (const gpuocc_nv_state *)(const void *)opaque;
    return p->device.size == sizeof p->device && p->tag == gpuocc_nv_state_tag(p) ? &p->device : NULL;
}

/* What every launch of one batch shares. */
struct context {
    const gpuocc_nv_state *p;
    const gpuocc_kernel *k;
    struct gpuocc_nv_fast f;
    bool fast;             /* the fast evaluation applies to the device */
    bool carveout_table;   /* the carveout table covers the device's carveouts */
    bool occupancy_table;  /* and the occupancy table its warp slots */
    int64_t preferred_kib; /* the carveout preference, KiB rounded up */
    int64_t carveout_bytes[GPUOCC_MAX_CARVEOUTS + 1]; /* by carveout_index; the last: smem_per_sm_bytes */
    int32_t barrier_blocks;
    int32_t virtual_blocks; /* the base kernel's virtual resources (no column carries them) */
};

/* One launch on the fast path: threads 1 .. thread_cap, regs >= 0, byte counts 0 .. GPUOCC_FAST_BYTES. */
static inline void launch(const struct context *c, uint32_t threads, int64_t regs, int64_t smem_static,
                          int64_t smem_dynamic, gpuocc_result *r)
{
    const gpuocc_device *d = &c->p->device;
    const gpuocc_kernel *k = c->k;
    struct gpuocc_nv_answer a;
    gpuocc_nv_fast_threads_regs(&c->f, threads, regs, &a);
    if (c->carveout_table) {
        /* gpuocc_nv_fast_smem with the carveout looked up: the one holding the larger of the preference
           and the block */
        int64_t used = smem_static + smem_dynamic + d->smem_reserved_per_block_bytes;
        int64_t alloc = (used + d->smem_alloc_unit_bytes - 1) & -(int64_t)d->smem_alloc_unit_bytes;
        int64_t kib = (alloc + 1023) >> 10;
        kib = kib > c->preferred_kib ? kib : c->preferred_kib;
        int64_t carveout = c->carveout_bytes[c->p->carveout_index[kib < KIB_MAX ? kib : KIB_MAX]];
        a.alloc = alloc;
        a.carveout = carveout;
        gpuocc_nv_fast_smem_blocks(&c->f, k, smem_static, smem_dynamic, &a);
    } else {
        gpuocc_nv_fast_smem(&c->f, k, smem_static, smem_dynamic, &a);
    }
    a.barrier_blocks = c->barrier_blocks;
    a.virtual_blocks = c->virtual_blocks;
    gpuocc_nv_fast_result(&c->f, &a, r);
}

/* Any launch: its own checks, then the single-launch rules; the status (an invalid launch: zeros in r). */
static int32_t launch_plain(const struct context *c, int64_t threads, int64_t regs, int64_t smem_static,
                            int64_t smem_dynamic, gpuocc_result *r)
{
    const gpuocc_device *d = &c->p->device;
    int32_t bad = gpuocc_batch_values_status(threads, regs, smem_static, smem_dynamic);
    /* static shared memory above the static limit: a launch that cannot run (gpuocc_nv_check_launch) */
    if (!bad && smem_static > d->smem_per_block_bytes)
        bad = GPUOCC_ERR_SMEM;
    /* a saturated allocation is not reported, as in gpuocc_occupancy */
    if (!bad && (smem_static | smem_dynamic) >> 40 &&
        gpuocc_rule_smem_alloc(d, smem_static, smem_dynamic) >= GPUOCC_BYTES_HUGE)
        bad = GPUOCC_ERR_OVERFLOW;
    if (bad) {
        memset(r, 0, sizeof *r);
        return bad;
    }
    gpuocc_kernel k = *c->k;
    k.threads_per_block = (int32_t)threads;
    k.regs_per_thread = (int32_t)regs;
    k.smem_static_bytes = smem_static;
    k.smem_dynamic_bytes = smem_dynamic;
    gpuocc_nv_compute(d, &k, r); /* every field, as gpuocc_occupancy fills it */
    return GPUOCC_OK;
}

/* Launch i: the fast evaluation for threads 1 .. cap, regs >= 0 and both byte counts 0 .. GPUOCC_FAST_BYTES - 1,
   else the checks and the plain rules. */
static inline void launch_one(const struct context *c, uint64_t cap, int64_t t, int64_t r, int64_t st, int64_t dy,
                              const gpuocc_batch *b, size_t i)
{
    gpuocc_result result;
    int32_t status = GPUOCC_OK;
    if (((uint64_t)(t - 1) < cap) & (r >= 0) & ((uint64_t)(st | dy) < (uint64_t)GPUOCC_FAST_BYTES) &
        ((uint64_t)st <= GPUOCC_NV_SMEM_STATIC_MAX))
        launch(c, (uint32_t)t, r, st, dy, &result);
    else
        status = launch_plain(c, t, r, st, dy, &result);
    gpuocc_batch_put(b, i, status, &result);
}

/* Element i of a shared-memory column (int32_t or int64_t elements), or the base value. */
static inline int64_t smem_at(const void *column, int32_t width, size_t i, int64_t base)
{
    if (!column)
        return base;
    return width == 4 ? ((const int32_t *)column)[i] : ((const int64_t *)column)[i];
}

/* Launch i of a batch through launch_one: the values its columns give, else the base kernel's. */
static inline void launch_at(const struct context *c, uint64_t cap, const gpuocc_batch *b, size_t i)
{
    const gpuocc_kernel *k = c->k;
    launch_one(c, cap, b->threads_per_block ? b->threads_per_block[i] : k->threads_per_block,
               b->regs_per_thread ? b->regs_per_thread[i] : k->regs_per_thread,
               smem_at(b->smem_static_bytes, b->smem_width, i, k->smem_static_bytes),
               smem_at(b->smem_dynamic_bytes, b->smem_width, i, k->smem_dynamic_bytes), b, i);
}

/*
 * Eight launches at a time (GCC and Clang vector extensions; one AVX2 register, two SSE2 ones): the same
 * rules in 32-bit lanes, divisions as single-precision divisions of integers below 2^22 (exact: the
 * quotient of a < 2^22 by b rounds to an integer only when it is one, as (q + 1) b <= a + b < 2^24), small
 * products in single precision, the carveout as a comparison with each candidate.  Used when the device
 * and the base kernel keep every quantity in those ranges (checked once per batch) and all eight launches
 * do (checked per group); else the scalar launch.
 */
/* x86-64 with GCC or Clang: an AVX2 build of the loop as well, taken when the processor has it
   (GPUOCC_NO_DISPATCH: the baseline build alone; the sanitized test build uses it, so both are tested). */
#if GPUOCC_VECTORS && (defined(__clang__) || __GNUC__ >= 9) && defined(__x86_64__) && !defined(__AVX2__) &&   \
    !defined(GPUOCC_NO_DISPATCH)
#define BATCH_AVX2 1
#else
#define BATCH_AVX2 0
#endif

#if GPUOCC_VECTORS && (defined(__clang__) || __GNUC__ >= 9)
#define BATCH_VECTORS 1
/* 32-byte vectors: a target without them splits each into halves; every function taking or returning one
   is static and inlined, so no call passes one (GCC's and Clang's note on the ABI of such a call does not
   apply; both read this pragma) */
#pragma GCC diagnostic ignored "-Wpsabi"
#define LANES 8
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef int64_t i64x4 __attribute__((vector_size(32)));
typedef int32_t i32x4h __attribute__((vector_size(16)));
typedef uint64_t u64x2h __attribute__((vector_size(16)));
typedef int64_t i64x2h __attribute__((vector_size(16)));
typedef float f32x4h __attribute__((vector_size(16)));
typedef double f64x2h __attribute__((vector_size(16)));
typedef double f64x4 __attribute__((vector_size(32)));
typedef int64_t i64x8 __attribute__((vector_size(64)));
typedef double f64x8 __attribute__((vector_size(64)));

/* Launch values the vector lanes take: threads 1 .. thread_cap (a power of two), registers 0 .. 1023, byte
   counts 0 .. 2^28 - 1 (static ones at most GPUOCC_NV_SMEM_STATIC_MAX). */
#define REGS_LANE_MASK (~(int32_t)1023)
#define BYTES_LANE_MAX ((int64_t)1 << 28)
#define UNITS_LANE_MAX ((int64_t)1 << 22)

/* The per-batch values the lanes use, each in every lane (a vector in memory is an operand; a scalar is
   broadcast again at every group, the stores to the columns possibly aliasing it). */
struct lanes {
    i32x8 one, cap_mask, bytes_mask, static_max, max_threads, regs_max, unit_round, unit_mask, parts_round, parts_mask;
    i32x8 compat_round, compat_mask, smem_round, smem_mask, reserved, per_block, optin, dynamic_max, no_limit;
    i32x8 smem_per_sm;
    i32x8 fixed;      /* the least of the limits no column changes: the block slots', barriers', virtual resources' */
    i32x8 fixed_bits; /* the limiters among those three that equal it */
    i32x8 warps_bit, regs_bit, smem_bit, public_barriers, slot_blocks, unlimited;
    f32x8 slots, part_units, compat_units, block_units; /* floor(regs_per_block / reg_alloc_unit), at most 2^14 */
    f64x4 inverse_slots; /* 1 / warp slots when that is exact (a power of two): the occupancy as a product */
    f64x4 slots_d;       /* else the quotient by the slots, as gpuocc_rule_all divides */
    /* the carveouts a launch may get (at least the preference), the last first: the one chosen is the
       first of the device's list that holds the block, as the scalar lookup takes */
    i32x8 carveout[GPUOCC_MAX_CARVEOUTS];
    int32_t carveouts;
    int32_t warp_shift, unit_shift, part_shift, compat_shift, smem_shift;
    bool compat, smem_optin, dynamic_given, inverse;
};

static GPUOCC_ALWAYS_INLINE i32x8 splat8(int32_t v)
{
    return (i32x8){v, v, v, v, v, v, v, v};
}

static GPUOCC_ALWAYS_INLINE f32x8 splat8f(float v)
{
    return (f32x8){v, v, v, v, v, v, v, v};
}

static GPUOCC_ALWAYS_INLINE i32x8 select8(i32x8 mask, i32x8 yes, i32x8 no)
{
    return (mask & yes) | (~mask & no);
}

/*
 * `halves`: the target has 16-byte vectors only (the baseline build of the loop, but for -mavx2 and
 * above).  GCC lowers most operations on a 32-byte vector to two on its halves there, but a comparison,
 * a 32-bit product and a shuffle lane by lane; those below take the halves themselves then.  The flag is
 * a constant wherever the functions are inlined.
 */
static GPUOCC_ALWAYS_INLINE void split8(i32x8 v, i32x4h *lo, i32x4h *hi)
{
    memcpy(lo, &v, sizeof *lo);
    memcpy(hi, (const char *)&v + sizeof *lo, sizeof *hi);
}

static GPUOCC_ALWAYS_INLINE i32x8 join8(i32x4h lo, i32x4h hi)
{
    i32x8 v;
    memcpy(&v, &lo, sizeof lo);
    memcpy((char *)&v + sizeof lo, &hi, sizeof hi);
    return v;
}

/* a > b, a mask */
static GPUOCC_ALWAYS_INLINE i32x8 gt8(i32x8 a, i32x8 b, bool halves)
{
    if (!halves)
        return a > b;
    i32x4h a0, a1, b0, b1;
    split8(a, &a0, &a1);
    split8(b, &b0, &b1);
    return join8(a0 > b0, a1 > b1);
}

static GPUOCC_ALWAYS_INLINE i32x8 eq8(i32x8 a, i32x8 b, bool halves)
{
    if (!halves)
        return a == b;
    i32x4h a0, a1, b0, b1;
    split8(a, &a0, &a1);
    split8(b, &b0, &b1);
    return join8(a0 == b0, a1 == b1);
}

static GPUOCC_ALWAYS_INLINE i32x8 fgt8(f32x8 a, f32x8 b, bool halves)
{
    if (!halves)
        return a > b;
    f32x4h a0, a1, b0, b1;
    memcpy(&a0, &a, sizeof a0);
    memcpy(&a1, (const char *)&a + sizeof a0, sizeof a1);
    memcpy(&b0, &b, sizeof b0);
    memcpy(&b1, (const char *)&b + sizeof b0, sizeof b1);
    return join8(a0 > b0, a1 > b1);
}

static GPUOCC_ALWAYS_INLINE i32x8 min8(i32x8 a, i32x8 b, bool halves)
{
    return select8(gt8(b, a, halves), a, b);
}

static GPUOCC_ALWAYS_INLINE f32x8 float8(i32x8 v)
{
    return __builtin_convertvector(v, f32x8);
}

/* floor(a / b) of lanes below 2^22, b >= 1 */
static GPUOCC_ALWAYS_INLINE i32x8 quotient8(f32x8 a, f32x8 b)
{
    return __builtin_convertvector(a / b, i32x8);
}

static GPUOCC_ALWAYS_INLINE i32x8 load8(const void *p)
{
    i32x8 v;
    memcpy(&v, p, sizeof v);
    return v;
}

#if defined(__clang__) || __GNUC__ >= 12
#define SHUFFLE(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define SHUFFLE(a, b, ...) __builtin_shuffle(a, b, (__typeof__(a)){__VA_ARGS__})
#endif

/* The low words of eight 64-bit counts; their high bits past 2^28 are or-ed into *high. */
static GPUOCC_ALWAYS_INLINE i32x8 narrow8(const int64_t *p, i64x4 *high, bool halves)
{
    i64x4 a, b;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + 4, sizeof b);
    *high |= a | b;
    if (!halves)
        return SHUFFLE((i32x8)a, (i32x8)b, 0, 2, 4, 6, 8, 10, 12, 14);
    i32x4h a0, a1, b0, b1;
    split8((i32x8)a, &a0, &a1);
    split8((i32x8)b, &b0, &b1);
    return join8(SHUFFLE(a0, a1, 0, 2, 4, 6), SHUFFLE(b0, b1, 0, 2, 4, 6));
}

/* a x b for lanes whose product is below 2^24: a single-precision product where 32-bit lanes have none
   (SSE2) */
static GPUOCC_ALWAYS_INLINE i32x8 mul8(i32x8 a, i32x8 b, bool halves)
{
    if (!halves)
        return a * b;
    return __builtin_convertvector(__builtin_convertvector(a, f32x8) * __builtin_convertvector(b, f32x8), i32x8);
}

/* Whether any lane is nonzero (the halves or-ed first: one 128-bit value to test) */
static GPUOCC_ALWAYS_INLINE bool any8(i32x8 v)
{
    i32x4h lo, hi;
    memcpy(&lo, &v, sizeof lo);
    memcpy(&hi, (const char *)&v + sizeof lo, sizeof hi);
    u64x2h w = (u64x2h)(lo | hi);
    return (w[0] | w[1]) != 0;
}

/* Eight 32-bit lanes into 64-bit elements at p: one conversion of the whole vector (GCC widens a 128-bit
   half lane by lane), stored in halves taken element by element (GCC copies a 64-byte vector through the
   stack) */
static GPUOCC_ALWAYS_INLINE void store_wide8(int64_t *p, i32x8 v, bool halves)
{
    if (!halves) {
        i64x8 w = __builtin_convertvector(v, i64x8);
        i64x4 lo = {w[0], w[1], w[2], w[3]}, hi = {w[4], w[5], w[6], w[7]};
        memcpy(p, &lo, sizeof lo);
        memcpy(p + 4, &hi, sizeof hi);
        return;
    }
    /* each lane beside its sign */
    i32x4h h[2];
    split8(v, &h[0], &h[1]);
    for (int j = 0; j < 2; j++) {
        i32x4h sign = h[j] >> 31;
        i64x2h lo = (i64x2h)SHUFFLE(h[j], sign, 0, 4, 1, 5), hi = (i64x2h)SHUFFLE(h[j], sign, 2, 6, 3, 7);
        memcpy(p + 4 * j, &lo, sizeof lo);
        memcpy(p + 4 * j + 2, &hi, sizeof hi);
    }
}


/* A base byte count as a lane value (-1: out of the lanes' range, which every group then refuses) */
static int32_t lane_bytes(int64_t v)
{
    return (uint64_t)v < (uint64_t)BYTES_LANE_MAX ? (int32_t)v : -1;
}

/* Whether the device and the base kernel keep the lanes' quantities in range; fills `l`. */
static bool lanes_init(const struct context *c, struct lanes *l)
{
    const gpuocc_device *d = &c->p->device;
    const gpuocc_kernel *k = c->k;
    const struct gpuocc_nv_fast *f = &c->f;
    int64_t smem_top = d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes;
    if (!c->fast || !c->carveout_table || !c->occupancy_table || smem_top >= BYTES_LANE_MAX ||
        d->smem_per_sm_bytes >= BYTES_LANE_MAX || (smem_top >> f->smem_shift) >= UNITS_LANE_MAX ||
        (d->smem_per_sm_bytes >> f->smem_shift) >= UNITS_LANE_MAX || k->smem_dynamic_max_bytes >= BYTES_LANE_MAX ||
        ((uint32_t)d->regs_per_sm >> f->unit_shift) >= (1 << 15) || f->warp_shift > 10)
        return false;
    memset(l, 0, sizeof *l);
    int32_t unit = d->reg_alloc_unit, parts = d->sub_partitions, compat = d->reg_compat_sub_partitions;
    int32_t smem_unit = d->smem_alloc_unit_bytes, reserved = (int32_t)d->smem_reserved_per_block_bytes;
    l->one = splat8(1);
    l->cap_mask = splat8(~(int32_t)(f->thread_cap - 1));
    l->bytes_mask = splat8(~(int32_t)(BYTES_LANE_MAX - 1));
    l->static_max = splat8(GPUOCC_NV_SMEM_STATIC_MAX);
    l->max_threads = splat8(d->max_threads_per_block);
    l->regs_max = splat8(d->regs_per_thread_max);
    l->unit_round = splat8(unit - 1), l->unit_mask = splat8(-unit);
    l->parts_round = splat8(parts - 1), l->parts_mask = splat8(-parts);
    l->compat = compat > 0;
    if (l->compat)
        l->compat_round = splat8(compat - 1), l->compat_mask = splat8(-compat);
    /* the reserved bytes and the rounding in one addition */
    l->smem_round = splat8(reserved + smem_unit - 1), l->smem_mask = splat8(-smem_unit);
    l->reserved = splat8(reserved);
    l->per_block = splat8((int32_t)d->smem_per_block_bytes), l->optin = splat8((int32_t)d->smem_per_block_optin_bytes);
    l->smem_optin = k->smem_optin != 0;
    l->dynamic_given = k->smem_dynamic_max_bytes >= 0;
    l->dynamic_max = splat8((int32_t)k->smem_dynamic_max_bytes);
    l->no_limit = splat8(GPUOCC_NO_LIMIT);
    l->unlimited = splat8(GPUOCC_UNLIMITED);
    l->smem_per_sm = splat8((int32_t)d->smem_per_sm_bytes);
    int32_t slot_blocks = d->max_blocks_per_sm;
    int32_t fixed = gpuocc_min32(slot_blocks, gpuocc_min32(c->barrier_blocks, c->virtual_blocks));
    l->fixed = splat8(fixed);
    l->fixed_bits = splat8((int32_t)((uint32_t)(slot_blocks == fixed) << GPUOCC_RESOURCE_BLOCKS |
                                     (uint32_t)(c->barrier_blocks == fixed) << GPUOCC_RESOURCE_BARRIERS |
                                     (uint32_t)(c->virtual_blocks == fixed) << GPUOCC_RESOURCE_VIRTUAL));
    l->warps_bit = splat8(1 << GPUOCC_RESOURCE_WARPS);
    l->regs_bit = splat8(1 << GPUOCC_RESOURCE_REGISTERS);
    l->smem_bit = splat8(1 << GPUOCC_RESOURCE_SMEM);
    l->public_barriers = splat8(gpuocc_public_limit(c->barrier_blocks));
    l->slot_blocks = splat8(slot_blocks);
    l->slots = splat8f((float)f->slots);
    l->part_units = splat8f((float)f->part_units);
    l->compat_units = splat8f((float)f->compat_units);
    int64_t block_units = d->regs_per_block >> f->unit_shift;
    l->block_units = splat8f((float)(block_units < (1 << 14) ? block_units : (1 << 14)));
    l->inverse = (f->slots & (f->slots - 1)) == 0;
    double inverse = 1.0 / (double)f->slots, slots_d = (double)f->slots;
    l->inverse_slots = (f64x4){inverse, inverse, inverse, inverse};
    l->slots_d = (f64x4){slots_d, slots_d, slots_d, slots_d};
    l->warp_shift = (int32_t)f->warp_shift;
    l->unit_shift = (int32_t)f->unit_shift;
    l->part_shift = (int32_t)f->part_shift;
    l->compat_shift = (int32_t)f->compat_shift;
    l->smem_shift = (int32_t)f->smem_shift;
    /* the carveouts of at least the preference (KiB, capped as the table's index is), the last first */
    int64_t preferred_kib = c->preferred_kib < KIB_MAX ? c->preferred_kib : KIB_MAX;
    for (int32_t i = d->carveout_count - 1; i >= 0; i--) {
        if (d->carveouts_kib[i] >= KIB_MAX)
            return false; /* the table's cap would matter (carveout_table rules it out: never so far) */
        if (d->carveouts_kib[i] >= preferred_kib)
            l->carveout[l->carveouts++] = splat8(d->carveouts_kib[i] * 1024);
    }
    return true;
}

/* Launches i .. i + 7 in lanes from their values t, r, st, dy; false (nothing written) when one of them is
   out of the lanes' ranges (`high`: the high bits of 64-bit byte counts). */
static GPUOCC_ALWAYS_INLINE bool launch8(const struct lanes *l, i32x8 t, i32x8 r, i32x8 st, i32x8 dy, i64x4 high,
                                        const gpuocc_batch *o, bool extras, size_t i, bool halves)
{
    const i32x8 zero = {0};
    int32_t warp_shift = l->warp_shift, unit_shift = l->unit_shift, smem_shift = l->smem_shift;
    /* threads - 1 past the cap (a power of two), registers past 1023, byte counts past 2^28, static bytes
       past the static limit: the scalar launch, which refuses or answers them */
    i32x8 bad = ((t - l->one) & l->cap_mask) | (r & REGS_LANE_MASK) | ((st | dy) & l->bytes_mask) |
                gt8(st, l->static_max, halves) | (i32x8)(high & ~(int64_t)(BYTES_LANE_MAX - 1));
    if (any8(bad))
        return false;

    /* warps */
    i32x8 wpb = ((t - l->one) >> warp_shift) + l->one;
    f32x8 wpb_f = float8(wpb);
    i32x8 warps_blocks = ~gt8(t, l->max_threads, halves) & quotient8(l->slots, wpb_f);

    /* registers */
    i32x8 per_warp = ((r << warp_shift) + l->unit_round) & l->unit_mask;
    i32x8 over = gt8(r, l->regs_max, halves);
    i32x8 g = ~over & (per_warp >> unit_shift); /* 0 .. 64 */
    i32x8 no_steps = eq8(g, zero, halves);
    f32x8 g_f = float8(g), g_divisor = float8(g - no_steps); /* 1 for none */
    i32x8 rounded = (wpb + l->parts_round) & l->parts_mask;
    /* the per-block check in allocation units: g x rounded <= floor(regs_per_block / unit) (both below 2^14) */
    i32x8 fails = over | fgt8(g_f * float8(rounded), l->block_units, halves);
    /* warps per SM the register file gives at that allocation (below 2^15) */
    i32x8 file_warps = quotient8(l->part_units, g_divisor) << l->part_shift;
    i32x8 regs_blocks = quotient8(float8(file_warps), wpb_f);
    if (l->compat) {
        /* GP100: the block must also fit its GP10x siblings' layout (no allocation passes either way) */
        i32x8 compat = (wpb + l->compat_round) & l->compat_mask;
        i32x8 compat_warps = quotient8(l->compat_units, g_divisor) << l->compat_shift;
        regs_blocks &= ~(fgt8(g_f * float8(compat), l->block_units, halves) | gt8(wpb, compat_warps, halves));
    }
    regs_blocks = ~fails & select8(no_steps, l->no_limit, regs_blocks);

    /* shared memory */
    i32x8 alloc = (st + dy + l->smem_round) & l->smem_mask;
    /* the first carveout of the device's list holding the block, of those holding the preference */
    i32x8 carveout = l->smem_per_sm;
    for (int32_t j = 0; j < l->carveouts; j++)
        carveout = select8(gt8(alloc, l->carveout[j], halves), carveout, l->carveout[j]);
    i32x8 limit = l->per_block, too_much = zero;
    if (l->smem_optin) {
        i32x8 dynamic_max = l->dynamic_given ? l->dynamic_max : l->optin - st;
        i32x8 largest = st + l->reserved + (~gt8(zero, dynamic_max, halves) & dynamic_max);
        limit = select8(gt8(largest, l->per_block, halves), l->optin, limit);
        too_much = gt8(dy, dynamic_max, halves);
    }
    limit += l->reserved;
    i32x8 alloc_units = alloc >> smem_shift;
    i32x8 nothing = eq8(alloc_units, zero, halves);
    /* 0 / 1 when nothing is allocated */
    i32x8 fits = quotient8(float8(carveout >> smem_shift), float8(alloc_units - nothing));
    i32x8 smem_blocks = ~(too_much | gt8(alloc, limit, halves)) & select8(nothing, l->no_limit, fits);

    /* the answer */
    i32x8 blocks = min8(min8(warps_blocks, regs_blocks, halves), min8(smem_blocks, l->fixed, halves), halves);
    i32x8 limiters = (eq8(warps_blocks, blocks, halves) & l->warps_bit) | (eq8(regs_blocks, blocks, halves) & l->regs_bit) |
                     (eq8(smem_blocks, blocks, halves) & l->smem_bit) | (eq8(l->fixed, blocks, halves) & l->fixed_bits);
    i32x8 warps = mul8(blocks, wpb, halves); /* at most the warp slots */

    memcpy(o->status + i, &zero, sizeof zero);
    if (o->blocks_per_sm)
        memcpy(o->blocks_per_sm + i, &blocks, sizeof blocks);
    if (o->warps_per_sm)
        memcpy(o->warps_per_sm + i, &warps, sizeof warps);
    if (o->limiters)
        memcpy(o->limiters + i, &limiters, sizeof limiters);
    if (o->occupancy) {
        /* warps <= slots < 2^22: exact in doubles, and so is the product by a power of two's inverse; else
           the correctly rounded quotient, gpuocc_rule_all's */
        if (!halves) {
            f64x8 w = __builtin_convertvector(warps, f64x8);
            f64x4 lo = {w[0], w[1], w[2], w[3]}, hi = {w[4], w[5], w[6], w[7]};
            if (l->inverse)
                lo *= l->inverse_slots, hi *= l->inverse_slots;
            else
                lo /= l->slots_d, hi /= l->slots_d;
            memcpy(o->occupancy + i, &lo, sizeof lo);
            memcpy(o->occupancy + i + 4, &hi, sizeof hi);
        } else {
            f64x2h by;
            memcpy(&by, l->inverse ? &l->inverse_slots : &l->slots_d, sizeof by);
            i32x4h h[2];
            split8(warps, &h[0], &h[1]);
            for (int j = 0; j < 4; j++) {
                i32x4h x = h[j / 2];
                f64x2h q = {(double)x[2 * (j % 2)], (double)x[2 * (j % 2) + 1]};
                q = l->inverse ? q * by : q / by;
                memcpy(o->occupancy + i + 2 * j, &q, sizeof q);
            }
        }
    }
    if (!extras)
        return true;
#define PUT8(field, v)                                                                                             \
    if (o->field) {                                                                                                \
        i32x8 put = (v);                                                                                           \
        memcpy(o->field + i, &put, sizeof put);                                                                    \
    }
    PUT8(limit_warps, warps_blocks);
    PUT8(limit_regs, regs_blocks | eq8(regs_blocks, l->no_limit, halves));
    PUT8(limit_smem, smem_blocks | eq8(smem_blocks, l->no_limit, halves));
    PUT8(limit_blocks, l->slot_blocks);
    PUT8(limit_barriers, l->public_barriers);
    /* per_warp < 2^21 and at most 64 warps: below 2^27 */
    PUT8(regs_per_block, mul8(per_warp, wpb, halves));
    /* AMD's columns, as gpuocc_occupancy fills those fields for NVIDIA: no waves per SIMD, no SGPR limit */
    PUT8(waves_per_simd, zero);
    PUT8(limit_sgprs, l->unlimited);
#undef PUT8
    if (o->smem_per_block_bytes)
        store_wide8(o->smem_per_block_bytes + i, alloc, halves);
    if (o->smem_per_sm_bytes)
        store_wide8(o->smem_per_sm_bytes + i, carveout, halves);
    return true;
}

/* The batch in groups of eight launches; returns where the groups stop (the rest: one by one). */
static GPUOCC_ALWAYS_INLINE size_t run_lanes(const struct context *c, const struct lanes *l, const gpuocc_batch *b,
                                            size_t count, bool halves)
{
    const gpuocc_kernel *k = c->k;
    const gpuocc_batch o = *b; /* the columns in locals: no store to them changes them */
    uint64_t cap = c->f.thread_cap;
    bool extras = o.limit_warps || o.limit_regs || o.limit_smem || o.limit_blocks || o.limit_barriers ||
                  o.regs_per_block || o.smem_per_block_bytes || o.smem_per_sm_bytes || o.waves_per_simd ||
                  o.limit_sgprs;
    bool wide = o.smem_width != 4;
    i32x8 t = splat8(k->threads_per_block), r = splat8(k->regs_per_thread);
    i32x8 st = splat8(lane_bytes(k->smem_static_bytes)), dy = splat8(lane_bytes(k->smem_dynamic_bytes));
    size_t i = 0;
    for (; i + LANES <= count; i += LANES) {
        if (o.threads_per_block)
            t = load8(o.threads_per_block + i);
        if (o.regs_per_thread)
            r = load8(o.regs_per_thread + i);
        i64x4 high = {0};
        if (o.smem_static_bytes)
            st = wide ? narrow8((const int64_t *)o.smem_static_bytes + i, &high, halves)
                      : load8((const int32_t *)o.smem_static_bytes + i);
        if (o.smem_dynamic_bytes)
            dy = wide ? narrow8((const int64_t *)o.smem_dynamic_bytes + i, &high, halves)
                      : load8((const int32_t *)o.smem_dynamic_bytes + i);
        if (!launch8(l, t, r, st, dy, high, &o, extras, i, halves))
            for (size_t q = 0; q < LANES; q++)
                launch_at(c, cap, b, i + q);
    }
    return i;
}
#else
#define BATCH_VECTORS 0
struct lanes;
#endif

/* The batch's launches: eight at a time in vector lanes where `vectors` (l filled; `halves`: in 16-byte
   vectors), the rest one by one. */
static GPUOCC_ALWAYS_INLINE void run_columns(const struct context *c, const struct lanes *l, bool vectors,
                                            bool halves, const gpuocc_batch *b, size_t count)
{
    uint64_t cap = c->fast ? c->f.thread_cap : 0;
    size_t i = 0;
#if BATCH_VECTORS
    if (vectors)
        i = run_lanes(c, l, b, count, halves);
#else
    (void)l;
    (void)vectors;
    (void)halves;
#endif
    for (; i < count; i++)
        launch_at(c, cap, b, i);
}

#if BATCH_AVX2
/* The same loop compiled for AVX2 (chosen at run time): the eight-lane code in one register each, with
   the wider instruction set's blends, minima and three-operand forms. */
__attribute__((target("avx2"))) static void run_avx2(const struct context *c, const struct lanes *l,
                                                     const gpuocc_batch *b, size_t count)
{
    run_columns(c, l, true, false, b, count);
}
#endif

/* The baseline build's vectors: 32 bytes with AVX2 (a build for it), else 16 */
#if defined(__AVX2__)
#define BASELINE_HALVES false
#else
#define BASELINE_HALVES true
#endif


/*
 * A short batch as the prepared single call reads it: on a device the fast evaluation covers, with a base
 * kernel the single call's checks accept and every launch in the fast ranges (launch_one's), each launch is
 * answered from the state's short block under its own tag (the stored device and the tables are not read,
 * nor the state's whole tag summed).  False, nothing written, for anything else: the general loop then.
 */
static bool short_batch(const gpuocc_nv_state *p, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count)
{
    /* one branch for the three (int, not bool: clang warns on `&` of a call's bool) */
    int tag_ok = gpuocc_nv_quick_tag(p) == p->quick_tag, kernel_fine = gpuocc_nv_kernel_fast_virtual_ok(k);
    if (!((p->single.params.fast != 0) & tag_ok & kernel_fine))
        return false;
    const int32_t *threads = b->threads_per_block, *regs = b->regs_per_thread;
    uint64_t cap = p->single.params.thread_cap;
    for (size_t i = 0; i < count; i++) {
        int64_t t = threads ? threads[i] : k->threads_per_block, r = regs ? regs[i] : k->regs_per_thread;
        int64_t st = smem_at(b->smem_static_bytes, b->smem_width, i, k->smem_static_bytes);
        int64_t dy = smem_at(b->smem_dynamic_bytes, b->smem_width, i, k->smem_dynamic_bytes);
        if (!(((uint64_t)(t - 1) < cap) & (r >= 0) & ((uint64_t)(st | dy) < (uint64_t)GPUOCC_FAST_BYTES) &
              ((uint64_t)st <= GPUOCC_NV_SMEM_STATIC_MAX)))
            return false;
    }
    struct gpuocc_nv_fast f;
    gpuocc_nv_fast_from_state(&f, p);
    /* the base kernel's barriers are at most 16 (its checks), the device's limit (its fast checks) */
    int32_t barrier_blocks = gpuocc_nv_fast_barriers_small(f.barriers_per_sm, k->barriers);
    int32_t virtual_blocks = gpuocc_nv_fast_virtual_of(f.virtual_per_sm, k->virtual_resources);
    for (size_t i = 0; i < count; i++) {
        int64_t st = smem_at(b->smem_static_bytes, b->smem_width, i, k->smem_static_bytes);
        int64_t dy = smem_at(b->smem_dynamic_bytes, b->smem_width, i, k->smem_dynamic_bytes);
        struct gpuocc_nv_answer a;
        gpuocc_nv_fast_threads_regs(&f, (uint32_t)(threads ? threads[i] : k->threads_per_block),
                                    regs ? regs[i] : k->regs_per_thread, &a);
        gpuocc_nv_fast_smem(&f, k, st, dy, &a);
        a.barrier_blocks = barrier_blocks;
        a.virtual_blocks = virtual_blocks;
        gpuocc_result result;
        gpuocc_nv_fast_result(&f, &a, &result);
        gpuocc_batch_put(b, i, GPUOCC_OK, &result);
    }
    return true;
}

int32_t gpuocc_nv_batch(const uint64_t *opaque, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count)
{
    const gpuocc_nv_state *p = (const gpuocc_nv_state *)(const void *)opaque;
    /* one launch of the base kernel (no input columns): the prepared single call's evaluation, which
       checks what short_batch checks (the block's tag, the device's and the kernel's fast ranges) */
    if (count == 1 && !b->threads_per_block && !b->regs_per_thread && !b->smem_static_bytes &&
        !b->smem_dynamic_bytes) {
        gpuocc_result result;
        if (gpuocc_nv_occupancy_prepared(opaque, k, &result)) {
            gpuocc_batch_put(b, 0, GPUOCC_OK, &result);
            return GPUOCC_OK;
        }
    }
    if (count < LONG_BATCH && short_batch(p, k, b, count))
        return GPUOCC_OK;
    const gpuocc_device *d = gpuocc_nv_prepared_device(opaque);
    bool long_batch = count >= LONG_BATCH;
    if (!d || (long_batch && p->check != state_sum(p)))
        return GPUOCC_ERR_DEVICE;
    /* the base kernel's barriers (no column carries them) against the block's limit: the whole batch */
    if (k->barriers > gpuocc_nv_barriers_per_block_max(d))
        return GPUOCC_ERR_BARRIERS;
    struct context c = {.p = p, .k = k};
    /* the fast evaluation wants the base kernel's shared memory settings in its ranges too */
    c.fast = p->single.params.fast && gpuocc_nv_kernel_fast_virtual_ok(k);
    if (c.fast)
        gpuocc_nv_fast_from_state(&c.f, p);
    /* a short batch reads none of the tables (the tag does not cover them) */
    c.carveout_table = long_batch && (d->carveout_count == 0 || d->carveouts_kib[d->carveout_count - 1] < KIB_MAX);
    c.occupancy_table = long_batch && gpuocc_div_unit(d->max_threads_per_sm, d->warp_size) <= SLOTS_MAX;
    c.barrier_blocks = gpuocc_rule_barriers(d, k->barriers);
    c.virtual_blocks = gpuocc_rule_virtual(d, k->virtual_resources);
    int64_t preferred = gpuocc_nv_preferred_bytes(d, k);
    c.preferred_kib = (preferred + 1023) >> 10;
    if (c.carveout_table) {
        for (int32_t i = 0; i < d->carveout_count; i++)
            c.carveout_bytes[i] = (int64_t)d->carveouts_kib[i] * 1024;
        c.carveout_bytes[NO_CARVEOUT] = d->smem_per_sm_bytes;
    }

#if BATCH_VECTORS
    struct lanes l;
    bool vectors = long_batch && lanes_init(&c, &l);
#if BATCH_AVX2
    if (vectors && __builtin_cpu_supports("avx2")) {
        run_avx2(&c, &l, b, count);
        return GPUOCC_OK;
    }
#endif
    run_columns(&c, &l, vectors, BASELINE_HALVES, b, count);
#else
    run_columns(&c, NULL, false, true, b, count);
#endif
    return GPUOCC_OK;
}
