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
        gpuocc_nv_quick_fill(&f, &p.quick, &p.quick_tables);
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

/*
 * Four launches at a time (GCC and Clang vector extensions): the same rules in 32-bit lanes, divisions as
 * single-precision divisions of integers below 2^22 (exact: the quotient of a < 2^22 by b rounds to an
 * integer only when it is one, as (q + 1) b <= a + b < 2^24), small products in single precision too, and
 * the tables gathered lane by lane.  Used when the device and the base kernel keep every quantity in those
 * ranges (checked once per batch) and all four launches do (checked per group); else the scalar launch.
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
typedef gpuocc_i32x4 i32x4;
typedef gpuocc_u32x4 u32x4;
typedef gpuocc_f32x4 f32x4;
typedef double f64x2 __attribute__((vector_size(16)));

/* Launch values the vector lanes take: threads 1 .. thread_cap, registers 0 .. REGS_LANE_MAX, byte counts
   0 .. BYTES_LANE_MAX - 1. */
#define REGS_LANE_MAX 1024
#define BYTES_LANE_MAX ((int64_t)1 << 28)
#define UNITS_LANE_MAX ((int64_t)1 << 22)

/* The per-batch values the lanes use, as vectors. */
struct lanes {
    int32_t max_threads, regs_max, warp_shift, unit_shift, smem_shift;
    int32_t unit, parts, compat_parts, smem_unit, reserved, preferred_kib;
    int32_t dynamic_max;      /* the base kernel's, or -1: smem_per_block_optin_bytes - static */
    int32_t optin, per_block, optin_limit;
    bool smem_optin;
    float block_units;        /* floor(regs_per_block / reg_alloc_unit), at most 2^14 */
    int32_t slot_blocks, barrier_blocks, virtual_blocks;
    i32x4 max_threads_v, slots_v, regs_max_v; /* the same, in every lane */
    /* and the values launch4 reads in every lane, splatted once per batch (a vector in memory is an
       operand; a scalar is broadcast again at every group, the stores to the columns possibly aliasing it) */
    u32x4 cap_v;
    i32x4 unit_round_v, unit_mask_v, parts_round_v, parts_mask_v, compat_round_v, compat_mask_v;
    i32x4 smem_round_v, smem_mask_v, reserved_v, preferred_kib_v, smem_per_sm_v;
    i32x4 per_block_v, optin_v, dynamic_max_v, slot_blocks_v, barrier_blocks_v, virtual_blocks_v;
    f32x4 block_units_v;
    /* 1 / warp slots in both lanes when that is exact (a power of two): the occupancy as a product, equal
       to the table's quotient; 0 (the table) otherwise */
    f64x2 inverse_slots_v;
    bool carveouts;           /* the device has carveouts (else every block gets smem_per_sm_bytes) */
    int32_t smem_per_sm;
    /* by allocation step: warps per SM (0 for step 0), and in the high half the same in the GP10x layout
       (both below 2^16: lanes_init checks) */
    int32_t step_warps[GPUOCC_FAST_STEPS + 1];
    int32_t carveout_bytes[KIB_MAX + 1];         /* by KiB needed: the carveout */
};

static inline i32x4 gather(const int32_t *table, i32x4 index)
{
    return (i32x4){table[index[0]], table[index[1]], table[index[2]], table[index[3]]};
}

/* v where mask is clear, 0 where it is set */
static inline i32x4 zero_where(i32x4 mask, i32x4 v)
{
    return ~mask & v;
}

static inline i32x4 min4(i32x4 a, i32x4 b)
{
    return gpuocc_select4(a < b, a, b);
}

/* Four byte counts as lanes: those out of the lanes' range read -1. */
static GPUOCC_ALWAYS_INLINE i32x4 to_lanes(const int64_t *v)
{
#if defined(__SSE2__)
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)v);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(v + 2));
    /* the low words of the four counts, and the bits of each at 2^28 and above */
    __m128i low = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
    __m128i high = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(_mm_srli_epi64(a, 28)),
                                                   _mm_castsi128_ps(_mm_srli_epi64(b, 28)), _MM_SHUFFLE(2, 0, 2, 0)));
    __m128i top = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(3, 1, 3, 1)));
    __m128i zero = _mm_setzero_si128();
    __m128i bad = _mm_andnot_si128(_mm_and_si128(_mm_cmpeq_epi32(high, zero), _mm_cmpeq_epi32(top, zero)),
                                   _mm_set1_epi32(-1));
    i32x4 out;
    _mm_storeu_si128((__m128i *)(void *)&out, _mm_or_si128(low, bad));
    return out;
#else
    i32x4 out;
    for (int j = 0; j < 4; j++)
        out[j] = (uint64_t)v[j] < (uint64_t)BYTES_LANE_MAX ? (int32_t)v[j] : -1;
    return out;
#endif
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
        ((uint32_t)d->regs_per_sm >> f->unit_shift) >= (1 << 15))
        return false;
    *l = (struct lanes){.max_threads = d->max_threads_per_block,
                        .regs_max = d->regs_per_thread_max,
                        .warp_shift = (int32_t)f->warp_shift,
                        .unit_shift = (int32_t)f->unit_shift,
                        .smem_shift = (int32_t)f->smem_shift,
                        .unit = d->reg_alloc_unit,
                        .parts = d->sub_partitions,
                        .compat_parts = d->reg_compat_sub_partitions,
                        .smem_unit = d->smem_alloc_unit_bytes,
                        .reserved = (int32_t)d->smem_reserved_per_block_bytes,
                        .preferred_kib = (int32_t)(c->preferred_kib < KIB_MAX ? c->preferred_kib : KIB_MAX),
                        .dynamic_max = (int32_t)k->smem_dynamic_max_bytes,
                        .optin = (int32_t)d->smem_per_block_optin_bytes,
                        .per_block = (int32_t)d->smem_per_block_bytes,
                        .smem_optin = k->smem_optin != 0,
                        .slot_blocks = d->max_blocks_per_sm,
                        .barrier_blocks = c->barrier_blocks,
                        .virtual_blocks = c->virtual_blocks,
                        .carveouts = d->carveout_count > 0,
                        .smem_per_sm = (int32_t)d->smem_per_sm_bytes};
    l->max_threads_v = gpuocc_splat4(l->max_threads);
    l->slots_v = gpuocc_splat4((int32_t)f->slots);
    l->regs_max_v = gpuocc_splat4(l->regs_max);
    l->cap_v = (u32x4)gpuocc_splat4((int32_t)f->thread_cap);
    l->unit_round_v = gpuocc_splat4(l->unit - 1), l->unit_mask_v = gpuocc_splat4(-l->unit);
    l->parts_round_v = gpuocc_splat4(l->parts - 1), l->parts_mask_v = gpuocc_splat4(-l->parts);
    l->compat_round_v = gpuocc_splat4(l->compat_parts - 1), l->compat_mask_v = gpuocc_splat4(-l->compat_parts);
    l->smem_round_v = gpuocc_splat4(l->smem_unit - 1), l->smem_mask_v = gpuocc_splat4(-l->smem_unit);
    l->reserved_v = gpuocc_splat4(l->reserved), l->preferred_kib_v = gpuocc_splat4(l->preferred_kib);
    l->smem_per_sm_v = gpuocc_splat4(l->smem_per_sm);
    l->per_block_v = gpuocc_splat4(l->per_block), l->optin_v = gpuocc_splat4(l->optin);
    l->dynamic_max_v = gpuocc_splat4(l->dynamic_max);
    l->slot_blocks_v = gpuocc_splat4(l->slot_blocks), l->barrier_blocks_v = gpuocc_splat4(l->barrier_blocks);
    l->virtual_blocks_v = gpuocc_splat4(l->virtual_blocks);
    double inverse = (f->slots & (f->slots - 1)) == 0 ? 1.0 / (double)f->slots : 0;
    l->inverse_slots_v = (f64x2){inverse, inverse};
    int64_t block_units = d->regs_per_block >> f->unit_shift;
    l->block_units = (float)(block_units < (1 << 14) ? block_units : (1 << 14));
    l->block_units_v = (f32x4){l->block_units, l->block_units, l->block_units, l->block_units};
    for (uint32_t g = 1; g <= GPUOCC_FAST_STEPS; g++)
        l->step_warps[g] = (int32_t)(gpuocc_fast_div(f->part_units, g) << f->part_shift |
                                     gpuocc_fast_div(f->compat_units, g) << f->compat_shift << 16);
    for (int32_t kib = 0; kib <= KIB_MAX; kib++)
        l->carveout_bytes[kib] = (int32_t)c->carveout_bytes[c->p->carveout_index[kib]];
    return true;
}

/* Four launches in lanes; false (nothing written) when one of them is out of the lanes' ranges. */
static GPUOCC_ALWAYS_INLINE bool launch4(const struct context *c, const struct lanes *l, i32x4 t, i32x4 r,
                                        i32x4 st, i32x4 dy, const gpuocc_batch *b, size_t i)
{
    const i32x4 zero = gpuocc_splat4(0), no_limit = gpuocc_splat4(GPUOCC_NO_LIMIT);
    const u32x4 one = {1, 1, 1, 1}, cap = l->cap_v, regs_top = one * REGS_LANE_MAX;
    /* static shared memory above the static limit (or negative) takes the scalar launch, which refuses it */
    i32x4 bad = (i32x4)(((u32x4)t - one) >= cap) | (i32x4)((u32x4)r > regs_top) |
                (i32x4)((u32x4)st > one * GPUOCC_NV_SMEM_STATIC_MAX) | (dy < zero);
    uint64_t any[2];
    memcpy(any, &bad, sizeof any);
    if (any[0] | any[1])
        return false;

    /* warps */
    i32x4 wpb = ((t - 1) >> l->warp_shift) + 1;
    f32x4 wpb_f = __builtin_convertvector(wpb, f32x4);
    i32x4 warps_blocks = zero_where(t > l->max_threads_v, gpuocc_quotient4(l->slots_v, wpb));

    /* registers */
    i32x4 per_warp = ((r << l->warp_shift) + l->unit_round_v) & l->unit_mask_v;
    i32x4 over = r > l->regs_max_v;
    i32x4 g = zero_where(over, per_warp >> l->unit_shift); /* 0 .. 64 */
    f32x4 g_f = __builtin_convertvector(g, f32x4);
    i32x4 rounded = (wpb + l->parts_round_v) & l->parts_mask_v;
    /* the per-block check in allocation units: g x rounded <= floor(regs_per_block / unit) (both below 2^14) */
    i32x4 block_fails = (i32x4)(g_f * __builtin_convertvector(rounded, f32x4) > l->block_units_v);
    i32x4 step_warps = gather(l->step_warps, g);
    i32x4 regs_blocks = gpuocc_quotient4(step_warps & 0xffff, wpb);
    if (l->compat_parts > 0) {
        i32x4 compat = (wpb + l->compat_round_v) & l->compat_mask_v;
        i32x4 compat_fails = (i32x4)(g_f * __builtin_convertvector(compat, f32x4) > l->block_units_v) |
                             ((step_warps >> 16) < wpb);
        regs_blocks = zero_where(compat_fails, regs_blocks);
    }
    regs_blocks = gpuocc_select4(g == zero, no_limit, regs_blocks);
    regs_blocks = zero_where(over | block_fails, regs_blocks);

    /* shared memory */
    i32x4 used = st + dy + l->reserved_v;
    i32x4 alloc = (used + l->smem_round_v) & l->smem_mask_v;
    i32x4 kib = (alloc + 1023) >> 10;
    kib = gpuocc_select4(kib > l->preferred_kib_v, kib, l->preferred_kib_v);
    kib = gpuocc_select4(kib < gpuocc_splat4(KIB_MAX), kib, gpuocc_splat4(KIB_MAX));
    i32x4 carveout = l->carveouts ? gather(l->carveout_bytes, kib) : l->smem_per_sm_v;
    i32x4 carveout_units = carveout >> l->smem_shift;
    i32x4 limit = l->per_block_v, too_much = zero;
    if (l->smem_optin) {
        i32x4 dynamic_max = l->dynamic_max >= 0 ? l->dynamic_max_v : l->optin_v - st;
        i32x4 largest = st + l->reserved_v + gpuocc_select4(dynamic_max > zero, dynamic_max, zero);
        limit = gpuocc_select4(largest > l->per_block_v, l->optin_v, limit);
        too_much = dy > dynamic_max;
    }
    limit += l->reserved_v;
    i32x4 alloc_units = alloc >> l->smem_shift;
    /* 0 / 1 when nothing is allocated */
    i32x4 fits = gpuocc_quotient4(carveout_units, alloc_units - (alloc_units == zero));
    i32x4 smem_blocks = gpuocc_select4(alloc == zero, no_limit, fits);
    smem_blocks = zero_where(too_much | (alloc > limit), smem_blocks);

    /* the answer */
    i32x4 slot_blocks = l->slot_blocks_v, barrier_blocks = l->barrier_blocks_v;
    i32x4 virtual_blocks = l->virtual_blocks_v;
    i32x4 blocks = min4(min4(min4(warps_blocks, regs_blocks), min4(smem_blocks, slot_blocks)),
                        min4(barrier_blocks, virtual_blocks));
    i32x4 limiters = ((warps_blocks == blocks) & (1 << GPUOCC_RESOURCE_WARPS)) |
                     ((regs_blocks == blocks) & (1 << GPUOCC_RESOURCE_REGISTERS)) |
                     ((smem_blocks == blocks) & (1 << GPUOCC_RESOURCE_SMEM)) |
                     ((slot_blocks == blocks) & (1 << GPUOCC_RESOURCE_BLOCKS)) |
                     ((barrier_blocks == blocks) & (1 << GPUOCC_RESOURCE_BARRIERS)) |
                     ((virtual_blocks == blocks) & (1 << GPUOCC_RESOURCE_VIRTUAL));
    /* at most the warp slots (below 2^17): exact in single precision */
    i32x4 warps = __builtin_convertvector(__builtin_convertvector(blocks, f32x4) * wpb_f, i32x4);
    i32x4 public_regs = gpuocc_select4(regs_blocks == no_limit, gpuocc_splat4(GPUOCC_UNLIMITED), regs_blocks);
    i32x4 public_smem = gpuocc_select4(smem_blocks == no_limit, gpuocc_splat4(GPUOCC_UNLIMITED), smem_blocks);

    memset(b->status + i, 0, 4 * sizeof b->status[0]);
#define PUT4(field, v)                                                                                              \
    if (b->field)                                                                                                  \
    memcpy(b->field + i, &(v), 16)
    PUT4(blocks_per_sm, blocks);
    PUT4(warps_per_sm, warps);
    PUT4(limiters, limiters);
    PUT4(limit_warps, warps_blocks);
    PUT4(limit_regs, public_regs);
    PUT4(limit_smem, public_smem);
    PUT4(limit_blocks, slot_blocks);
    /* AMD's columns, as gpuocc_occupancy fills those fields for NVIDIA: no waves per SIMD, no SGPR limit */
    const i32x4 no_waves = zero, no_sgpr_limit = gpuocc_splat4(GPUOCC_UNLIMITED);
    PUT4(waves_per_simd, no_waves);
    PUT4(limit_sgprs, no_sgpr_limit);
#undef PUT4
    if (b->limit_barriers) {
        i32x4 public_barriers = gpuocc_splat4(gpuocc_public_limit(l->barrier_blocks));
        memcpy(b->limit_barriers + i, &public_barriers, 16);
    }
    if (b->occupancy && l->inverse_slots_v[0] != 0) {
        /* warps <= slots < 2^22: exact in doubles, and so is the product by a power of two's inverse */
        f64x2 low = {(double)warps[0], (double)warps[1]}, high = {(double)warps[2], (double)warps[3]};
        low *= l->inverse_slots_v;
        high *= l->inverse_slots_v;
        memcpy(b->occupancy + i, &low, 16);
        memcpy(b->occupancy + i + 2, &high, 16);
    } else if (b->occupancy) {
        const double *occupancy = c->p->occupancy;
        b->occupancy[i] = occupancy[warps[0]];
        b->occupancy[i + 1] = occupancy[warps[1]];
        b->occupancy[i + 2] = occupancy[warps[2]];
        b->occupancy[i + 3] = occupancy[warps[3]];
    }
    if (b->regs_per_block) /* per_warp < 2^21 and at most 64 warps: below 2^27 */
        for (int j = 0; j < 4; j++)
            b->regs_per_block[i + j] = per_warp[j] * wpb[j];
    if (b->smem_per_block_bytes)
        for (int j = 0; j < 4; j++)
            b->smem_per_block_bytes[i + j] = alloc[j];
    if (b->smem_per_sm_bytes)
        for (int j = 0; j < 4; j++)
            b->smem_per_sm_bytes[i + j] = carveout[j];
    return true;
}
#else
#define BATCH_VECTORS 0
struct lanes;
#endif


#define CHUNK 256

/* n shared-memory sizes from `start` of a column of int32_t or int64_t elements, or the base value */
static void load_smem(int64_t *to, const void *column, int32_t width, size_t start, size_t n, int64_t base)
{
    if (!column)
        for (size_t j = 0; j < n; j++)
            to[j] = base;
    else if (width == 4)
        for (size_t j = 0; j < n; j++)
            to[j] = ((const int32_t *)column)[start + j];
    else
        memcpy(to, (const int64_t *)column + start, n * sizeof *to);
}

/* The batch's columns, in chunks: four launches at a time in vector lanes where `vectors` (l filled), the
   rest one by one. */
static GPUOCC_ALWAYS_INLINE void run_columns(const struct context *c, const struct lanes *l, bool vectors,
                                            const gpuocc_batch *b, size_t count)
{
    const gpuocc_kernel *k = c->k;
    /* a column not given reads the base kernel's value at stride 0 */
    const int32_t *threads = b->threads_per_block ? b->threads_per_block : &k->threads_per_block;
    const int32_t *regs = b->regs_per_thread ? b->regs_per_thread : &k->regs_per_thread;
    size_t threads_step = b->threads_per_block != NULL, regs_step = b->regs_per_thread != NULL;
    uint64_t cap = c->fast ? c->f.thread_cap : 0;
    int64_t smem_static[CHUNK], smem_dynamic[CHUNK];
#if BATCH_VECTORS
    int32_t lane_static[CHUNK], lane_dynamic[CHUNK];
#else
    (void)l;
    (void)vectors;
#endif
    for (size_t start = 0; start < count; start += CHUNK) {
        size_t n = count - start < CHUNK ? count - start : CHUNK;
        load_smem(smem_static, b->smem_static_bytes, b->smem_width, start, n, k->smem_static_bytes);
        load_smem(smem_dynamic, b->smem_dynamic_bytes, b->smem_width, start, n, k->smem_dynamic_bytes);
        size_t j = 0;
#if BATCH_VECTORS
        if (vectors) {
            /* byte counts out of the lanes' range read as -1: that group takes the scalar launches */
            size_t q = 0;
            for (; q + 4 <= n; q += 4) {
                i32x4 st = to_lanes(smem_static + q), dy = to_lanes(smem_dynamic + q);
                memcpy(lane_static + q, &st, 16);
                memcpy(lane_dynamic + q, &dy, 16);
            }
            for (; q < n; q++) {
                lane_static[q] = (uint64_t)smem_static[q] < (uint64_t)BYTES_LANE_MAX ? (int32_t)smem_static[q] : -1;
                lane_dynamic[q] = (uint64_t)smem_dynamic[q] < (uint64_t)BYTES_LANE_MAX ? (int32_t)smem_dynamic[q] : -1;
            }
        }
        for (; vectors && j + 4 <= n; j += 4) {
            size_t i = start + j;
            i32x4 t = threads_step ? gpuocc_load_i32x4(threads + i) : gpuocc_splat4(*threads);
            i32x4 r = regs_step ? gpuocc_load_i32x4(regs + i) : gpuocc_splat4(*regs);
            i32x4 st = gpuocc_load_i32x4(lane_static + j), dy = gpuocc_load_i32x4(lane_dynamic + j);
            if (!launch4(c, l, t, r, st, dy, b, i))
                for (size_t q = 0; q < 4; q++)
                    launch_one(c, cap, threads[(i + q) * threads_step], regs[(i + q) * regs_step],
                               smem_static[j + q], smem_dynamic[j + q], b, i + q);
        }
#endif
        for (; j < n; j++)
            launch_one(c, cap, threads[(start + j) * threads_step], regs[(start + j) * regs_step], smem_static[j],
                       smem_dynamic[j], b, start + j);
    }
}

#if BATCH_AVX2
/* The same loop compiled for AVX2 (chosen at run time): the four-lane code gets the wider instruction
   set's blends, minima and three-operand forms. */
__attribute__((target("avx2"))) static void run_avx2(const struct context *c, const struct lanes *l,
                                                     const gpuocc_batch *b, size_t count)
{
    run_columns(c, l, true, b, count);
}
#endif

/* Element i of a shared-memory column (int32_t or int64_t elements), or the base value. */
static inline int64_t smem_at(const void *column, int32_t width, size_t i, int64_t base)
{
    if (!column)
        return base;
    return width == 4 ? ((const int32_t *)column)[i] : ((const int64_t *)column)[i];
}

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
    run_columns(&c, &l, vectors, b, count);
#else
    run_columns(&c, NULL, false, b, count);
#endif
    return GPUOCC_OK;
}
