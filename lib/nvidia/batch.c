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
        gpuocc_nv_quick_fill(&f, &p.quick, &p.quick_tables);
        memcpy(s->carveouts_kib, p.device.carveouts_kib, sizeof s->carveouts_kib);
    }
    p.quick_tag = gpuocc_nv_quick_tag(&p);
    p.tag = gpuocc_nv_state_tag(&p);
    int32_t slots = (int32_t)gpuocc_div_unit(d->max_threads_per_sm, d->warp_size);
    if (slots <= SLOTS_MAX)
        for (int32_t w = 0; w <= slots; w++)
            p.occupancy[w] = (double)w / (double)slots;
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
        /* the prepared single call's table (the state's check covers it in a long batch) */
        uint32_t chosen = c->p->quick_tables.carveout_by_kib[kib < KIB_MAX ? kib : KIB_MAX] & 0xffff;
        int64_t carveout = chosen == 0xffff ? d->smem_per_sm_bytes : (int64_t)chosen << 10;
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
/* An AVX2 build of the loop as well where the processor has it (lib/nvidia/fast.h's dispatch). */

#if GPUOCC_VECTORS && (defined(__clang__) || __GNUC__ >= 9)
#define BATCH_VECTORS 1
#define LANES 8
typedef gpuocc_i32x8 i32x8;
typedef gpuocc_u32x8 u32x8;
typedef gpuocc_f32x8 f32x8;
typedef gpuocc_i64x4 i64x4;
typedef gpuocc_i32x4 i32x4;
typedef gpuocc_u64x2 u64x2;
typedef gpuocc_i64x2 i64x2;
typedef gpuocc_f32x4 f32x4;
typedef gpuocc_f64x2 f64x2;
typedef gpuocc_f64x4 f64x4;
/* eight 64-bit lanes: the batch's alone */
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
    /* the same in every lane: AVX2 shifts by a vector in memory, without moving the count to a register */
    i32x8 warp_shift_v, unit_shift_v, part_shift_v, compat_shift_v, smem_shift_v, regs_mask;
    bool compat, smem_optin, dynamic_given, inverse;
};

/*
 * The operations on eight lanes.  No function takes or returns a 32-byte vector (where AVX is off that
 * changes the calling convention, and GCC and Clang say so): the ones that would are macros, the others
 * take pointers.
 *
 * `halves`: the target has 16-byte vectors only (the baseline build of the loop, but for -mavx2 and above;
 * a constant wherever the code is inlined).  GCC lowers most operations on a 32-byte vector to two on its
 * halves there, but a comparison lane by lane (as scalar compares and moves); there a comparison is the
 * sign of a difference instead: exact for the operands it is used on (lanes below 2^30 in magnitude, or
 * both non-negative, or of a group the range check refuses anyway), and for floats the sign of the exact
 * difference of integers below 2^24 (never -0: x - x is +0).  A 32-bit product (SSE2 has none, and GCC
 * makes one lane by lane) is a single-precision one there, of factors whose product is below 2^24.
 */
#define V8_SPLATF(x) ((f32x8){0} + (float)(x))
#define V8_SELECT(mask, yes, no) (((mask) & (yes)) | (~(mask) & (no)))
#define V8_FLOAT(v) __builtin_convertvector((v), f32x8)
/* floor(a / b) of float lanes below 2^22, b >= 1 */
#define V8_QUOTIENT(a, b) __builtin_convertvector((a) / (b), i32x8)
/* masks: a > b, a == b (see above for the operands) */
#define V8_GT(a, b, halves) ((halves) ? (i32x8)((u32x8)(b) - (u32x8)(a)) >> 31 : (a) > (b))
#define V8_FGT(a, b, halves) ((halves) ? (i32x8)((b) - (a)) >> 31 : (a) > (b))
#define V8_NE_HALVES(x) ((i32x8)((u32x8)(x) | -(u32x8)(x)) >> 31)
#define V8_EQ(a, b, halves) ((halves) ? ~V8_NE_HALVES((a) ^ (b)) : (a) == (b))
#define V8_MIN(a, b, halves) V8_SELECT(V8_GT(b, a, halves), a, b)
#define V8_MUL(a, b, halves) ((halves) ? __builtin_convertvector(V8_FLOAT(a) * V8_FLOAT(b), i32x8) : (a) * (b))
/* v shifted right (left) by the lanes' count s: by the vector sv where shifts take one (AVX2, a memory
   operand: no count to move to a register), else by the scalar (SSE2 has no shift by a vector) */
#define V8_SHR(v, s, sv, halves) ((halves) ? (v) >> (s) : (v) >> (sv))
#define V8_SHL(v, s, sv, halves) ((halves) ? (v) << (s) : (v) << (sv))

/* The low words of eight 64-bit counts into *v; their high bits past 2^28 are or-ed into *high. */
static GPUOCC_ALWAYS_INLINE void v8_narrow(i32x8 *v, const int64_t *p, i64x4 *high, bool halves)
{
    i64x4 a, b;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + 4, sizeof b);
    *high |= a | b;
    if (!halves) {
        *v = GPUOCC_SHUFFLE((i32x8)a, (i32x8)b, 0, 2, 4, 6, 8, 10, 12, 14);
        return;
    }
    /* a shuffle of 32-byte vectors, lane by lane too: of the four halves */
    i32x4 h[4];
    memcpy(h, &a, sizeof a);
    memcpy(h + 2, &b, sizeof b);
    i32x4 lo = GPUOCC_SHUFFLE(h[0], h[1], 0, 2, 4, 6), hi = GPUOCC_SHUFFLE(h[2], h[3], 0, 2, 4, 6);
    memcpy(v, &lo, sizeof lo);
    memcpy((char *)v + sizeof lo, &hi, sizeof hi);
}

/* Whether any lane is nonzero (the halves or-ed first: one 128-bit value to test) */
static GPUOCC_ALWAYS_INLINE bool v8_any(const i32x8 *v)
{
    i32x4 h[2];
    memcpy(h, v, sizeof h);
    u64x2 w = (u64x2)(h[0] | h[1]);
    return (w[0] | w[1]) != 0;
}

/* Eight 32-bit lanes into 64-bit elements at p */
static GPUOCC_ALWAYS_INLINE void v8_store_wide(int64_t *p, const i32x8 *v, bool halves)
{
    if (!halves) {
        /* one conversion of the whole vector (GCC widens a 128-bit half lane by lane), stored in halves
           taken element by element (GCC copies a 64-byte vector through the stack) */
        i64x8 w = __builtin_convertvector(*v, i64x8);
        i64x4 lo = {w[0], w[1], w[2], w[3]}, hi = {w[4], w[5], w[6], w[7]};
        memcpy(p, &lo, sizeof lo);
        memcpy(p + 4, &hi, sizeof hi);
        return;
    }
    /* each lane beside its sign */
    i32x4 h[2];
    memcpy(h, v, sizeof h);
    for (int j = 0; j < 2; j++) {
        i32x4 sign = h[j] >> 31;
        i64x2 lo = (i64x2)GPUOCC_SHUFFLE(h[j], sign, 0, 4, 1, 5), hi = (i64x2)GPUOCC_SHUFFLE(h[j], sign, 2, 6, 3, 7);
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
    l->one = GPUOCC_SPLAT8(1);
    l->cap_mask = GPUOCC_SPLAT8(~(int32_t)(f->thread_cap - 1));
    l->bytes_mask = GPUOCC_SPLAT8(~(int32_t)(BYTES_LANE_MAX - 1));
    l->static_max = GPUOCC_SPLAT8(GPUOCC_NV_SMEM_STATIC_MAX);
    l->max_threads = GPUOCC_SPLAT8(d->max_threads_per_block);
    l->regs_max = GPUOCC_SPLAT8(d->regs_per_thread_max);
    l->unit_round = GPUOCC_SPLAT8(unit - 1), l->unit_mask = GPUOCC_SPLAT8(-unit);
    l->parts_round = GPUOCC_SPLAT8(parts - 1), l->parts_mask = GPUOCC_SPLAT8(-parts);
    l->compat = compat > 0;
    if (l->compat)
        l->compat_round = GPUOCC_SPLAT8(compat - 1), l->compat_mask = GPUOCC_SPLAT8(-compat);
    /* the reserved bytes and the rounding in one addition */
    l->smem_round = GPUOCC_SPLAT8(reserved + smem_unit - 1), l->smem_mask = GPUOCC_SPLAT8(-smem_unit);
    l->reserved = GPUOCC_SPLAT8(reserved);
    l->per_block = GPUOCC_SPLAT8((int32_t)d->smem_per_block_bytes);
    l->optin = GPUOCC_SPLAT8((int32_t)d->smem_per_block_optin_bytes);
    l->smem_optin = k->smem_optin != 0;
    l->dynamic_given = k->smem_dynamic_max_bytes >= 0;
    l->dynamic_max = GPUOCC_SPLAT8((int32_t)k->smem_dynamic_max_bytes);
    l->no_limit = GPUOCC_SPLAT8(GPUOCC_NO_LIMIT);
    l->unlimited = GPUOCC_SPLAT8(GPUOCC_UNLIMITED);
    l->smem_per_sm = GPUOCC_SPLAT8((int32_t)d->smem_per_sm_bytes);
    int32_t slot_blocks = d->max_blocks_per_sm;
    int32_t fixed = gpuocc_min32(slot_blocks, gpuocc_min32(c->barrier_blocks, c->virtual_blocks));
    l->fixed = GPUOCC_SPLAT8(fixed);
    l->fixed_bits = GPUOCC_SPLAT8((int32_t)((uint32_t)(slot_blocks == fixed) << GPUOCC_RESOURCE_BLOCKS |
                                     (uint32_t)(c->barrier_blocks == fixed) << GPUOCC_RESOURCE_BARRIERS |
                                     (uint32_t)(c->virtual_blocks == fixed) << GPUOCC_RESOURCE_VIRTUAL));
    l->warps_bit = GPUOCC_SPLAT8(1 << GPUOCC_RESOURCE_WARPS);
    l->regs_bit = GPUOCC_SPLAT8(1 << GPUOCC_RESOURCE_REGISTERS);
    l->smem_bit = GPUOCC_SPLAT8(1 << GPUOCC_RESOURCE_SMEM);
    l->public_barriers = GPUOCC_SPLAT8(gpuocc_public_limit(c->barrier_blocks));
    l->slot_blocks = GPUOCC_SPLAT8(slot_blocks);
    l->slots = V8_SPLATF((float)f->slots);
    l->part_units = V8_SPLATF((float)f->part_units);
    l->compat_units = V8_SPLATF((float)f->compat_units);
    int64_t block_units = d->regs_per_block >> f->unit_shift;
    l->block_units = V8_SPLATF((float)(block_units < (1 << 14) ? block_units : (1 << 14)));
    l->inverse = (f->slots & (f->slots - 1)) == 0;
    double inverse = 1.0 / (double)f->slots, slots_d = (double)f->slots;
    l->inverse_slots = (f64x4){inverse, inverse, inverse, inverse};
    l->slots_d = (f64x4){slots_d, slots_d, slots_d, slots_d};
    l->warp_shift = (int32_t)f->warp_shift;
    l->unit_shift = (int32_t)f->unit_shift;
    l->part_shift = (int32_t)f->part_shift;
    l->compat_shift = (int32_t)f->compat_shift;
    l->smem_shift = (int32_t)f->smem_shift;
    l->warp_shift_v = GPUOCC_SPLAT8(l->warp_shift), l->unit_shift_v = GPUOCC_SPLAT8(l->unit_shift);
    l->part_shift_v = GPUOCC_SPLAT8(l->part_shift), l->compat_shift_v = GPUOCC_SPLAT8(l->compat_shift);
    l->smem_shift_v = GPUOCC_SPLAT8(l->smem_shift);
    l->regs_mask = GPUOCC_SPLAT8(REGS_LANE_MASK);
    /* the carveouts of at least the preference (KiB, capped as the table's index is), the last first */
    int64_t preferred_kib = c->preferred_kib < KIB_MAX ? c->preferred_kib : KIB_MAX;
    for (int32_t i = d->carveout_count - 1; i >= 0; i--) {
        if (d->carveouts_kib[i] >= KIB_MAX)
            return false; /* the table's cap would matter (carveout_table rules it out: never so far) */
        if (d->carveouts_kib[i] >= preferred_kib)
            l->carveout[l->carveouts++] = GPUOCC_SPLAT8(d->carveouts_kib[i] * 1024);
    }
    return true;
}

/* Launches i .. i + 7 in lanes from their threads, registers, static and dynamic bytes; false (nothing
   written) when one of them is out of the lanes' ranges (`high`: the high bits of 64-bit byte counts). */
static GPUOCC_ALWAYS_INLINE bool launch8(const struct lanes *l, const i32x8 *threads, const i32x8 *regs,
                                        const i32x8 *smem_static, const i32x8 *smem_dynamic, const i64x4 *high,
                                        const gpuocc_batch *o, bool extras, size_t i, bool halves)
{
    const i32x8 zero = {0};
    i32x8 t = *threads, r = *regs, st = *smem_static, dy = *smem_dynamic;
    int32_t warp_shift = l->warp_shift, unit_shift = l->unit_shift, smem_shift = l->smem_shift;
    i32x8 warp_shift_v = l->warp_shift_v, unit_shift_v = l->unit_shift_v, smem_shift_v = l->smem_shift_v;
    /* threads - 1 past the cap (a power of two), registers past 1023, byte counts past 2^28, static bytes
       past the static limit: the scalar launch, which refuses or answers them */
    i32x8 bad = ((t - l->one) & l->cap_mask) | (r & l->regs_mask) | ((st | dy) & l->bytes_mask) |
                V8_GT(st, l->static_max, halves) | (i32x8)(*high & ~(int64_t)(BYTES_LANE_MAX - 1));
    if (v8_any(&bad))
        return false;

    /* warps */
    i32x8 wpb = V8_SHR(t - l->one, warp_shift, warp_shift_v, halves) + l->one;
    f32x8 wpb_f = V8_FLOAT(wpb);
    i32x8 warps_blocks = ~V8_GT(t, l->max_threads, halves) & V8_QUOTIENT(l->slots, wpb_f);

    /* registers */
    i32x8 per_warp = (V8_SHL(r, warp_shift, warp_shift_v, halves) + l->unit_round) & l->unit_mask;
    i32x8 over = V8_GT(r, l->regs_max, halves);
    i32x8 g = ~over & V8_SHR(per_warp, unit_shift, unit_shift_v, halves); /* 0 .. 64 */
    i32x8 no_steps = V8_EQ(g, zero, halves);
    f32x8 g_f = V8_FLOAT(g), g_divisor = V8_FLOAT(g - no_steps); /* 1 for none */
    i32x8 rounded = (wpb + l->parts_round) & l->parts_mask;
    /* the per-block check in allocation units: g x rounded <= floor(regs_per_block / unit) (both below 2^14) */
    i32x8 fails = over | V8_FGT(g_f * V8_FLOAT(rounded), l->block_units, halves);
    /* warps per SM the register file gives at that allocation (below 2^15) */
    i32x8 file_warps = V8_SHL(V8_QUOTIENT(l->part_units, g_divisor), l->part_shift, l->part_shift_v, halves);
    i32x8 regs_blocks = V8_QUOTIENT(V8_FLOAT(file_warps), wpb_f);
    if (l->compat) {
        /* GP100: the block must also fit its GP10x siblings' layout (no allocation passes either way) */
        i32x8 compat = (wpb + l->compat_round) & l->compat_mask;
        i32x8 compat_quotient = V8_QUOTIENT(l->compat_units, g_divisor);
        i32x8 compat_warps = V8_SHL(compat_quotient, l->compat_shift, l->compat_shift_v, halves);
        regs_blocks &= ~(V8_FGT(g_f * V8_FLOAT(compat), l->block_units, halves) | V8_GT(wpb, compat_warps, halves));
    }
    regs_blocks = ~fails & V8_SELECT(no_steps, l->no_limit, regs_blocks);

    /* shared memory */
    i32x8 alloc = (st + dy + l->smem_round) & l->smem_mask;
    /* the first carveout of the device's list holding the block, of those holding the preference */
    i32x8 carveout = l->smem_per_sm;
    for (int32_t j = 0; j < l->carveouts; j++)
        carveout = V8_SELECT(V8_GT(alloc, l->carveout[j], halves), carveout, l->carveout[j]);
    i32x8 limit = l->per_block, too_much = zero;
    if (l->smem_optin) {
        i32x8 dynamic_max = l->dynamic_given ? l->dynamic_max : l->optin - st;
        i32x8 largest = st + l->reserved + (~V8_GT(zero, dynamic_max, halves) & dynamic_max);
        limit = V8_SELECT(V8_GT(largest, l->per_block, halves), l->optin, limit);
        too_much = V8_GT(dy, dynamic_max, halves);
    }
    limit += l->reserved;
    i32x8 alloc_units = V8_SHR(alloc, smem_shift, smem_shift_v, halves);
    i32x8 nothing = V8_EQ(alloc_units, zero, halves);
    /* 0 / 1 when nothing is allocated */
    i32x8 carveout_units = V8_SHR(carveout, smem_shift, smem_shift_v, halves);
    i32x8 fits = V8_QUOTIENT(V8_FLOAT(carveout_units), V8_FLOAT(alloc_units - nothing));
    i32x8 smem_blocks = ~(too_much | V8_GT(alloc, limit, halves)) & V8_SELECT(nothing, l->no_limit, fits);

    /* the answer */
    i32x8 blocks = V8_MIN(V8_MIN(warps_blocks, regs_blocks, halves), V8_MIN(smem_blocks, l->fixed, halves), halves);
    i32x8 limiters = (V8_EQ(warps_blocks, blocks, halves) & l->warps_bit) |
                     (V8_EQ(regs_blocks, blocks, halves) & l->regs_bit) |
                     (V8_EQ(smem_blocks, blocks, halves) & l->smem_bit) |
                     (V8_EQ(l->fixed, blocks, halves) & l->fixed_bits);
    i32x8 warps = V8_MUL(blocks, wpb, halves); /* at most the warp slots */

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
            f64x2 by;
            memcpy(&by, l->inverse ? &l->inverse_slots : &l->slots_d, sizeof by);
            i32x4 h[2];
            memcpy(h, &warps, sizeof h);
            for (int j = 0; j < 4; j++) {
                i32x4 x = h[j / 2];
                f64x2 q = {(double)x[2 * (j % 2)], (double)x[2 * (j % 2) + 1]};
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
    PUT8(limit_regs, regs_blocks | V8_EQ(regs_blocks, l->no_limit, halves));
    PUT8(limit_smem, smem_blocks | V8_EQ(smem_blocks, l->no_limit, halves));
    PUT8(limit_blocks, l->slot_blocks);
    PUT8(limit_barriers, l->public_barriers);
    /* per_warp < 2^21 and at most 64 warps: below 2^27 */
    PUT8(regs_per_block, V8_MUL(per_warp, wpb, halves));
    /* AMD's columns, as gpuocc_occupancy fills those fields for NVIDIA: no waves per SIMD, no SGPR limit */
    PUT8(waves_per_simd, zero);
    PUT8(limit_sgprs, l->unlimited);
#undef PUT8
    if (o->smem_per_block_bytes)
        v8_store_wide(o->smem_per_block_bytes + i, &alloc, halves);
    if (o->smem_per_sm_bytes)
        v8_store_wide(o->smem_per_sm_bytes + i, &carveout, halves);
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
    /* the base kernel's values where no column gives them */
    i32x8 t = GPUOCC_SPLAT8(k->threads_per_block), r = GPUOCC_SPLAT8(k->regs_per_thread);
    i32x8 st = GPUOCC_SPLAT8(lane_bytes(k->smem_static_bytes)), dy = GPUOCC_SPLAT8(lane_bytes(k->smem_dynamic_bytes));
    const int64_t *static64 = (const int64_t *)o.smem_static_bytes, *dynamic64 = (const int64_t *)o.smem_dynamic_bytes;
    const int32_t *static32 = (const int32_t *)o.smem_static_bytes, *dynamic32 = (const int32_t *)o.smem_dynamic_bytes;
    size_t i = 0;
    for (; i + LANES <= count; i += LANES) {
        if (o.threads_per_block)
            memcpy(&t, o.threads_per_block + i, sizeof t);
        if (o.regs_per_thread)
            memcpy(&r, o.regs_per_thread + i, sizeof r);
        i64x4 high = {0};
        if (o.smem_static_bytes && wide)
            v8_narrow(&st, static64 + i, &high, halves);
        else if (o.smem_static_bytes)
            memcpy(&st, static32 + i, sizeof st);
        if (o.smem_dynamic_bytes && wide)
            v8_narrow(&dy, dynamic64 + i, &high, halves);
        else if (o.smem_dynamic_bytes)
            memcpy(&dy, dynamic32 + i, sizeof dy);
        if (!launch8(l, &t, &r, &st, &dy, &high, &o, extras, i, halves))
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

#if GPUOCC_NV_AVX2
/* The same loop compiled for AVX2 (chosen at run time): the eight-lane code in one register each, with
   the wider instruction set's blends, minima and three-operand forms. */
GPUOCC_NV_AVX2_TARGET static void run_avx2(const struct context *c, const struct lanes *l, const gpuocc_batch *b,
                                           size_t count)
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
    /* (one launch of the base kernel came through the prepared single call first: lib/api/batch.c) */
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

#if BATCH_VECTORS
    struct lanes l;
    bool vectors = long_batch && lanes_init(&c, &l);
#if GPUOCC_NV_AVX2
    if (vectors && gpuocc_nv_has_avx2()) {
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

