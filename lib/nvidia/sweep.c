/*
 * gpuocc_sweep on the fast path, one loop per axis, with the parts of the rules the axis does not move
 * computed once per call.
 *  - threads: every point is evaluated where it lies (a step of a warp changes the warps per block), in
 *    a few instructions: warps per block by a shift, the warp and register limits by the tabled
 *    reciprocals, the register rule's per-block checks folded into one bound on the warps per block;
 *  - barriers: every point evaluated (floor(barriers_per_sm / b) moves at almost every b); one run on a
 *    device without the limit;
 *  - registers and dynamic shared memory: the axis moves one limit in runs (the same register allocation
 *    step; the same carveout and floor(carveout / allocation)): a run's first point is evaluated, the
 *    others are copies with their own value (and, on the shared-memory axis, their own allocation).
 * The limits no axis moves (the block slots, and the virtual resources of cc 10.x-12.x) join the fixed
 * part.  Every point equals gpuocc_rule_all's answer for its launch.
 * gpuocc_nv_sweep_or is gpuocc_sweep's whole common call (the arguments, both structs' fast checks, the
 * count, the points) in one frame; the short sweeps (threads, barriers) on the common device have their
 * own functions with the device's shifts as constants.  Everything is compiled for AVX2 as well where
 * the processor has it: eight lanes a quantity, each point's chunks built in registers and stored 32 bytes
 * at a time.
 */
#include "fast.h"

/* The short sweeps compiled for AVX2 and BMI2 as well where the processor has them (lib/nvidia/fast.h's
   dispatch, as the single calls'). */

/* A point as its nine 8-byte words (little-endian packing of gpuocc_sweep_point, checked below), built
   in registers: the copies of a run's first point then never read back what was just stored. */
struct words {
    uint64_t w[9];
};
#define PAIR(lo, hi) ((uint64_t)(uint32_t)(lo) | (uint64_t)(uint32_t)(hi) << 32)

_Static_assert(sizeof(gpuocc_sweep_point) == 72 && offsetof(gpuocc_sweep_point, occupancy) == 16 &&
                   offsetof(gpuocc_sweep_point, limiters) == 24 && offsetof(gpuocc_sweep_point, limit_regs) == 32 &&
                   offsetof(gpuocc_sweep_point, limit_blocks) == 40 &&
                   offsetof(gpuocc_sweep_point, regs_per_block) == 48 &&
                   offsetof(gpuocc_sweep_point, smem_per_block_bytes) == 56,
               "the words of a point");

/* Stores of 16 bytes where the compiler has vectors and the words are little-endian. */
#if GPUOCC_VECTORS && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WIDE_STORES 1
typedef gpuocc_u64x2 u64x2;
typedef gpuocc_u64x4 u64x4;
#else
#define WIDE_STORES 0
#endif

static inline uint64_t double_bits(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* The virtual resources' limit (gpuocc_rule_virtual), which no axis moves. */
static inline int32_t virtual_blocks(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k)
{
    return gpuocc_nv_fast_virtual_of(f->virtual_per_sm, k->virtual_resources);
}

static inline struct words point_words(const struct gpuocc_nv_fast *f, struct gpuocc_nv_answer *a, int64_t value)
{
    uint32_t limiters = gpuocc_nv_fast_combine(f, a);
    int32_t warps = a->blocks * (int32_t)a->warps_per_block; /* at most the warp slots */
    struct words p;
    p.w[0] = (uint64_t)value;
    p.w[1] = PAIR(a->blocks, warps);
    p.w[2] = double_bits((double)warps / (double)f->slots);
    p.w[3] = PAIR(limiters, a->warps_blocks);
    p.w[4] = PAIR(gpuocc_public_limit(a->regs_blocks), gpuocc_public_limit(a->smem_blocks));
    p.w[5] = PAIR(f->d->max_blocks_per_sm, gpuocc_public_limit(a->barrier_blocks));
    p.w[6] = PAIR(gpuocc_nv_fast_regs_per_block(a), 0);
    p.w[7] = (uint64_t)a->alloc;
    p.w[8] = (uint64_t)a->carveout;
    return p;
}

/* One point from its words. */
static inline void put_point(gpuocc_sweep_point *p, const struct words *w)
{
#if WIDE_STORES
    unsigned char *q = (unsigned char *)p;
    u64x2 a = {w->w[0], w->w[1]}, b = {w->w[2], w->w[3]}, c = {w->w[4], w->w[5]}, e = {w->w[6], w->w[7]};
    memcpy(q, &a, 16);
    memcpy(q + 16, &b, 16);
    memcpy(q + 32, &c, 16);
    memcpy(q + 48, &e, 16);
    memcpy(q + 64, &w->w[8], 8);
#else
    *p = (gpuocc_sweep_point){.value = (int64_t)w->w[0], .blocks_per_sm = (int32_t)w->w[1],
                              .warps_per_sm = (int32_t)(w->w[1] >> 32), .limiters = (uint32_t)w->w[3],
                              .limit_warps = (int32_t)(w->w[3] >> 32), .limit_regs = (int32_t)w->w[4],
                              .limit_smem = (int32_t)(w->w[4] >> 32), .limit_blocks = (int32_t)w->w[5],
                              .limit_barriers = (int32_t)(w->w[5] >> 32), .regs_per_block = (int32_t)w->w[6],
                              .reserved0 = 0, .smem_per_block_bytes = (int64_t)w->w[7],
                              .smem_per_sm_bytes = (int64_t)w->w[8]};
    memcpy(&p->occupancy, &w->w[2], sizeof p->occupancy);
#endif
}

/* m points of one run at values v, v + step, ... with the words of the first; smem_per_block_bytes grows
   by `grow` a point (the shared-memory axis with a step of whole allocation units; 0 elsewhere). */
static inline void store_run(gpuocc_sweep_point *p, int64_t m, const struct words *w, int64_t v, int64_t step,
                             int64_t grow)
{
    gpuocc_sweep_point *end = p + m;
    /* unsigned: the value and the allocation step once past the last point, where they may leave int64_t */
    uint64_t u = (uint64_t)v, s = (uint64_t)step, g = (uint64_t)grow, alloc = w->w[7];
#if WIDE_STORES
    const u64x2 second = {w->w[2], w->w[3]}, third = {w->w[4], w->w[5]};
    if (p < end && ((uintptr_t)p & 15) != 0) {
        /* one point alone, so that the pairs below start on 16 bytes (points are 8-byte aligned) */
        unsigned char *q = (unsigned char *)p;
        u64x2 first = {u, w->w[1]}, fourth = {w->w[6], alloc};
        memcpy(q, &first, 16);
        memcpy(q + 16, &second, 16);
        memcpy(q + 32, &third, 16);
        memcpy(q + 48, &fourth, 16);
        memcpy(q + 64, &w->w[8], 8);
        p++, u += s, alloc += g;
    }
    /* two points (144 bytes) in nine aligned 16-byte stores, the second point's words one word off */
    u64x2 first = {u, w->w[1]}, fourth = {w->w[6], alloc}, fifth = {w->w[8], u + s};
    const u64x2 sixth = {w->w[1], w->w[2]}, seventh = {w->w[3], w->w[4]}, eighth = {w->w[5], w->w[6]};
    u64x2 ninth = {alloc + g, w->w[8]};
    const u64x2 next = {2 * s, 0}, next_high = {0, 2 * s}, more = {0, 2 * g}, more_low = {2 * g, 0};
    for (; end - p >= 2; p += 2) {
        unsigned char *q = (unsigned char *)p;
        memcpy(q, &first, 16);
        memcpy(q + 16, &second, 16);
        memcpy(q + 32, &third, 16);
        memcpy(q + 48, &fourth, 16);
        memcpy(q + 64, &fifth, 16);
        memcpy(q + 80, &sixth, 16);
        memcpy(q + 96, &seventh, 16);
        memcpy(q + 112, &eighth, 16);
        memcpy(q + 128, &ninth, 16);
        first += next, fourth += more, fifth += next_high, ninth += more_low;
    }
    if (p < end) {
        unsigned char *q = (unsigned char *)p;
        memcpy(q, &first, 16);
        memcpy(q + 16, &second, 16);
        memcpy(q + 32, &third, 16);
        memcpy(q + 48, &fourth, 16);
        memcpy(q + 64, &w->w[8], 8);
    }
#else
    struct words x = *w;
    for (; p < end; p++, u += s, alloc += g) {
        x.w[0] = u;
        x.w[7] = alloc;
        put_point(p, &x);
    }
#endif
}

#if WIDE_STORES && (defined(__clang__) || __GNUC__ >= 12)
#define RUN_LANES8 1
/* A vector kept whole in its register (GCC otherwise stores a constant one as its scalar words; Clang
   keeps it, and refuses the constraint outside an AVX function).  Optimizing builds only: there the
   baseline build's copy, never called, is removed before the constraint is checked; without optimization
   it stays, where a 32-byte register is no operand. */
#if !defined(__clang__) && defined(__OPTIMIZE__) && (defined(__x86_64__) || defined(__i386__))
#define KEEP_VECTOR(v) __asm__("" : "+x"(v))
#else
#define KEEP_VECTOR(v) ((void)0)
#endif
/* store_run with no growth in 32-byte stores (the AVX2 build): four points (36 words) in nine registers,
   the values' words advanced by four steps a round.  Inline: a function of its own read the caller's
   words back in 32-byte loads of 8-byte stores (no store forwarding), which cost more than the stores
   saved. */
static GPUOCC_ALWAYS_INLINE void store_run8(gpuocc_sweep_point *p, int64_t m, const struct words *w, int64_t v,
                                            int64_t step)
{
    gpuocc_sweep_point *end = p + m;
    uint64_t u = (uint64_t)v, s = (uint64_t)step;
    const uint64_t *x = w->w;
    if (m >= 4) {
        u64x4 r0 = {u, x[1], x[2], x[3]}, r1 = {x[4], x[5], x[6], x[7]}, r2 = {x[8], u + s, x[1], x[2]};
        u64x4 r3 = {x[3], x[4], x[5], x[6]}, r4 = {x[7], x[8], u + 2 * s, x[1]}, r5 = {x[2], x[3], x[4], x[5]};
        u64x4 r6 = {x[6], x[7], x[8], u + 3 * s}, r7 = {x[1], x[2], x[3], x[4]}, r8 = {x[5], x[6], x[7], x[8]};
        uint64_t f = 4 * s;
        const u64x4 a0 = {f, 0, 0, 0}, a2 = {0, f, 0, 0}, a4 = {0, 0, f, 0}, a6 = {0, 0, 0, f};
        KEEP_VECTOR(r1);
        KEEP_VECTOR(r3);
        KEEP_VECTOR(r5);
        KEEP_VECTOR(r7);
        KEEP_VECTOR(r8);
        for (; end - p >= 4; p += 4, u += f) {
            unsigned char *q = (unsigned char *)p;
            memcpy(q, &r0, 32);
            memcpy(q + 32, &r1, 32);
            memcpy(q + 64, &r2, 32);
            memcpy(q + 96, &r3, 32);
            memcpy(q + 128, &r4, 32);
            memcpy(q + 160, &r5, 32);
            memcpy(q + 192, &r6, 32);
            memcpy(q + 224, &r7, 32);
            memcpy(q + 256, &r8, 32);
            r0 += a0, r2 += a2, r4 += a4, r6 += a6;
        }
    }
    struct words y = *w;
    for (; p < end; p++, u += s) {
        y.w[0] = u;
        put_point(p, &y);
    }
}
#else
#define RUN_LANES8 0
#endif

static inline int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* The axis step: its shift when a power of two (every step sweep_range gives), else -1. */
static inline int32_t step_shift(int64_t step)
{
    return (step & (step - 1)) == 0 ? gpuocc_log2_exact((uint64_t)step) : -1;
}

/* Points in the run from v (the i-th of n) to the last axis value `end` the run reaches. */
static inline int64_t run_points(int64_t v, int64_t end, int64_t i, int64_t n, int64_t step, int32_t shift)
{
    int64_t rest = n - i;
    if (end - v >= step * (rest - 1)) /* end >= v: no overflow; the last point is v + step (rest - 1) */
        return rest;
    return (shift >= 0 ? (end - v) >> shift : gpuocc_div(end - v, step)) + 1;
}

/* ---- threads ---- */

/*
 * The register rule in terms of the warps per block w, for one register count: gpuocc_nv_fast_threads
 * gives 0 blocks when the allocation, w rounded up to the sub-partitions (and to GP10x's compat parts), is
 * over regs_per_block, when the compat split holds fewer than w warps, or past the per-thread maximum;
 * each grows with w.  The largest w that passes them all (0 when none does): step x round_up(w, P) <=
 * regs_per_block exactly when w <= floor(floor(regs_per_block / step) / P) x P.
 */
static uint32_t regs_warps_max(const struct gpuocc_nv_fast *f, const struct gpuocc_nv_regs *r)
{
    const gpuocc_device *d = f->d;
    if (r->over)
        return 0;
    if (r->step_regs == 0)
        return GPUOCC_FAST_STEPS;
    /* regs_per_block <= INT32_MAX, step >= 1 allocation unit */
    uint32_t units = (uint32_t)d->regs_per_block / (uint32_t)r->step_regs; /* step < 2^26 */
    uint32_t top = units >> f->part_shift << f->part_shift;
    if (f->compat_parts > 0) {
        uint32_t compat = units >> f->compat_shift << f->compat_shift;
        top = compat < top ? compat : top;
        top = r->compat_warps < top ? r->compat_warps : top;
    }
    return top;
}

/*
 * Four points of the threads axis at a time (GCC 9+ and Clang vector extensions): the same rule in 32-bit
 * lanes, the quotients as single-precision divisions of integers below 2^22 (exact there, as in
 * lib/nvidia/batch.c: the quotient of a < 2^22 by b rounds to an integer only when it is one), the warps
 * (at most the slots) as a single-precision product, then the points' words interleaved for the stores.
 */
#if WIDE_STORES && (defined(__clang__) || __GNUC__ >= 9)
#define THREAD_LANES 1
typedef gpuocc_i32x4 i32x4;
typedef gpuocc_f32x4 f32x4;
typedef gpuocc_f64x2 f64x2;
typedef double alias_f64 __attribute__((may_alias, aligned(4))); /* points are 4-byte aligned at least */

/* What the lanes need of a threads sweep, computed once. */
struct thread_lanes {
    i32x4 threads_max, warps_max, regs_unlimited, fixed, fixed_limiters;
    f32x4 slots_f, file_warps_f, per_warp_f; /* per_warp x 64 below 2^24 */
    i32x4 smem;                              /* the shared memory's public limit */
    i32x4 fifth, alloc;                      /* the fixed words 5 and 7, in both halves */
    uint64_t carveout;
    f64x2 slots_d; /* the warp slots (or their exact inverse) in both lanes */
};

/* Lanes picked from two vectors (indexes 0 .. n - 1 the first's, n .. 2n - 1 the second's). */
#define PICK GPUOCC_SHUFFLE

/* The 64-bit words PAIR(a[j], b[j]): lanes 0 and 1 in *low, 2 and 3 in *high. */
static inline void lanes_pairs(i32x4 a, i32x4 b, u64x2 *low, u64x2 *high)
{
    *low = (u64x2)PICK(a, b, 0, 4, 1, 5);
    *high = (u64x2)PICK(a, b, 2, 6, 3, 7);
}

/* Word `word` of four points 72 bytes apart from two vectors of two (points 0, 1 in `low`, 2, 3 in `high`):
   four 8-byte stores from the vector registers (movlpd / movhpd; GCC still pairs some neighbouring words
   into one 16-byte store where that is cheaper). */
static inline void put_word4(unsigned char *q, int word, u64x2 low, u64x2 high)
{
    /* as doubles through a may_alias type: the lanes' halves stored where they are */
    f64x2 l = (f64x2)low, h = (f64x2)high;
    *(alias_f64 *)(void *)(q + 8 * word) = l[0];
    *(alias_f64 *)(void *)(q + 72 + 8 * word) = l[1];
    *(alias_f64 *)(void *)(q + 144 + 8 * word) = h[0];
    *(alias_f64 *)(void *)(q + 216 + 8 * word) = h[1];
}

/* The same word, shared by the four points. */
static inline void put_shared4(unsigned char *q, int word, uint64_t w)
{
    memcpy(q + 8 * word, &w, 8);
    memcpy(q + 72 + 8 * word, &w, 8);
    memcpy(q + 144 + 8 * word, &w, 8);
    memcpy(q + 216 + 8 * word, &w, 8);
}

/* Two adjacent words `word`, `word` + 1 the four points share: one 16-byte store a point. */
static inline void put_shared_pair4(unsigned char *q, int word, u64x2 w)
{
    memcpy(q + 8 * word, &w, 16);
    memcpy(q + 72 + 8 * word, &w, 16);
    memcpy(q + 144 + 8 * word, &w, 16);
    memcpy(q + 216 + 8 * word, &w, 16);
}

/* The occupancy of four warp counts (below 2^22): each divided by the slots, as the scalar rule divides
   (two divisions of two lanes, no branch on the device in the loop). */
static inline void occupancy4(i32x4 warps, f64x2 slots, u64x2 *low, u64x2 *high)
{
    f64x2 a = {(double)warps[0], (double)warps[1]}, b = {(double)warps[2], (double)warps[3]};
    *low = (u64x2)(a / slots);
    *high = (u64x2)(b / slots);
}

/* 16 bytes at q. */
static inline void put16(unsigned char *q, i32x4 v)
{
    memcpy(q, &v, 16);
}

/* The 64-bit lanes of two vectors, interleaved: the first's (second's) low lanes in *low, high in *high. */
static inline void pairs64(i32x4 a, i32x4 b, i32x4 *low, i32x4 *high)
{
    u64x2 x = (u64x2)a, y = (u64x2)b;
    *low = (i32x4)(u64x2)PICK(x, y, 0, 2);
    *high = (i32x4)(u64x2)PICK(x, y, 1, 3);
}

/* Points t, t + step, t + 2 step, t + 3 step (each at most thread_cap): the lanes computed, then each
   point's 16-byte chunks built from them (interleaving shuffles, the constants' halves among them) and
   stored whole.  `inverse`: the occupancy as a product by the slots' exact inverse (a power of two), else
   the quotient. */
static GPUOCC_ALWAYS_INLINE void threads4(const struct thread_lanes *l, uint32_t shift, int32_t t0, int32_t step,
                                          gpuocc_sweep_point *p, bool inverse)
{
    const i32x4 zero = gpuocc_splat4(0), one = gpuocc_splat4(1);
    i32x4 t = gpuocc_splat4(t0) + (i32x4){0, step, 2 * step, 3 * step};
    i32x4 wpb = ((t - one) >> (int32_t)shift) + one; /* 1 .. 64 */
    f32x4 wpb_f = __builtin_convertvector(wpb, f32x4);
    i32x4 warps_blocks = ~(t > l->threads_max) & __builtin_convertvector(l->slots_f / wpb_f, i32x4);
    i32x4 regs_blocks =
        ~(wpb > l->warps_max) & (__builtin_convertvector(l->file_warps_f / wpb_f, i32x4) | l->regs_unlimited);
    i32x4 blocks = gpuocc_select4(warps_blocks < regs_blocks, warps_blocks, regs_blocks);
    blocks = gpuocc_select4(blocks < l->fixed, blocks, l->fixed);
    i32x4 limiters = ((warps_blocks == blocks) & gpuocc_splat4(1 << GPUOCC_RESOURCE_WARPS)) |
                     ((regs_blocks == blocks) & gpuocc_splat4(1 << GPUOCC_RESOURCE_REGISTERS)) |
                     ((blocks == l->fixed) & l->fixed_limiters);
    /* at most the warp slots, below 2^22: exact in single precision; so is the registers per block,
       per_warp x 64 < 2^24 (checked once) */
    i32x4 warps = __builtin_convertvector(__builtin_convertvector(blocks, f32x4) * wpb_f, i32x4);
    i32x4 regs_per_block = __builtin_convertvector(l->per_warp_f * wpb_f, i32x4);
    i32x4 public_regs = regs_blocks | (regs_blocks == gpuocc_splat4(GPUOCC_NO_LIMIT)); /* all ones: unlimited */
    f64x2 warps_low = {(double)warps[0], (double)warps[1]}, warps_high = {(double)warps[2], (double)warps[3]};
    i32x4 occ_low, occ_high;
    if (inverse) {
        occ_low = (i32x4)(warps_low * l->slots_d), occ_high = (i32x4)(warps_high * l->slots_d);
    } else {
        occ_low = (i32x4)(warps_low / l->slots_d), occ_high = (i32x4)(warps_high / l->slots_d);
    }
    unsigned char *q = (unsigned char *)p;
    /* bytes 0 .. 15: value, blocks, warps */
    i32x4 tb_low = PICK(t, blocks, 0, 4, 1, 5), tb_high = PICK(t, blocks, 2, 6, 3, 7);
    i32x4 zw_low = PICK(zero, warps, 0, 4, 1, 5), zw_high = PICK(zero, warps, 2, 6, 3, 7);
    put16(q, PICK(tb_low, zw_low, 0, 4, 1, 5));
    put16(q + 72, PICK(tb_low, zw_low, 2, 6, 3, 7));
    put16(q + 144, PICK(tb_high, zw_high, 0, 4, 1, 5));
    put16(q + 216, PICK(tb_high, zw_high, 2, 6, 3, 7));
    /* 16 .. 31: occupancy, limiters, warp slots' limit */
    i32x4 lw_low = PICK(limiters, warps_blocks, 0, 4, 1, 5), lw_high = PICK(limiters, warps_blocks, 2, 6, 3, 7);
    i32x4 a, b;
    pairs64(occ_low, lw_low, &a, &b);
    put16(q + 16, a);
    put16(q + 88, b);
    pairs64(occ_high, lw_high, &a, &b);
    put16(q + 160, a);
    put16(q + 232, b);
    /* 32 .. 47: registers' and shared memory's limits, the block slots', the barriers' (those three fixed) */
    i32x4 rs_low = PICK(public_regs, l->smem, 0, 4, 1, 5), rs_high = PICK(public_regs, l->smem, 2, 6, 3, 7);
    pairs64(rs_low, l->fifth, &a, &b);
    put16(q + 32, a);
    put16(q + 104, b);
    pairs64(rs_high, l->fifth, &a, &b);
    put16(q + 176, a);
    put16(q + 248, b);
    /* 48 .. 63: registers per block, the reserved word, the block's shared memory (fixed) */
    i32x4 rz_low = PICK(regs_per_block, zero, 0, 4, 1, 5), rz_high = PICK(regs_per_block, zero, 2, 6, 3, 7);
    pairs64(rz_low, l->alloc, &a, &b);
    put16(q + 48, a);
    put16(q + 120, b);
    pairs64(rz_high, l->alloc, &a, &b);
    put16(q + 192, a);
    put16(q + 264, b);
    /* 64 .. 71: the carveout (fixed) */
    memcpy(q + 64, &l->carveout, 8);
    memcpy(q + 136, &l->carveout, 8);
    memcpy(q + 208, &l->carveout, 8);
    memcpy(q + 280, &l->carveout, 8);
}

#if defined(__clang__) || __GNUC__ >= 12
#define THREAD_LANES8 1
/* Eight points at a time in one AVX2 register a quantity (the AVX2 build alone): threads4's rule and
   chunks, each shuffle and computation on eight lanes; a chunk's register holds point j in its low half
   and point j + 4 in its high half. */
typedef gpuocc_i32x8 i32x8;
typedef gpuocc_f32x8 f32x8;
typedef gpuocc_f64x4 f64x4;
/* within each 128-bit half: the low (high) 32-bit lanes of a and b interleaved */
#define LOW32(a, b) PICK(a, b, 0, 8, 1, 9, 4, 12, 5, 13)
#define HIGH32(a, b) PICK(a, b, 2, 10, 3, 11, 6, 14, 7, 15)

struct thread_lanes8 {
    i32x8 threads_max, warps_max, regs_unlimited, fixed, fixed_limiters, per_warp, smem, fifth, alloc;
    f32x8 slots_f, file_warps_f;
    f64x4 slots_d;
    uint64_t carveout;
};

/* (macros: a function returning a 32-byte vector has another ABI without AVX, which GCC warns of) */
/* the same from a value in four lanes (GCC builds a broadcast of eight lanes element by element) */
#define WIDEN8(v4) PICK((v4), (v4), 0, 1, 2, 3, 0, 1, 2, 3)
#define MIN8(a, b) (((a) < (b)) & (a)) | (~((a) < (b)) & (b))

/* A 32-byte register's halves at q (low) and q + at (high; GCC stores it by vextracti128). */
#define PUT_HALVES(q, at, v)                                                                                    \
    do {                                                                                                       \
        i32x8 halves_ = (v);                                                                                   \
        memcpy((q), &halves_, 16);                                                                             \
        memcpy((q) + (at), (const unsigned char *)&halves_ + 16, 16);                                          \
    } while (0)

/* Two adjacent 16-byte chunks of points j (low halves) and j + 4 (high halves): each point's pair in one
   32-byte store. */
#define PUT_AB8(q, a, b)                                                                                        \
    do {                                                                                                       \
        i32x8 a_ = (a), b_ = (b);                                                                              \
        i32x8 first_ = PICK(a_, b_, 0, 1, 2, 3, 8, 9, 10, 11), second_ = PICK(a_, b_, 4, 5, 6, 7, 12, 13, 14, 15); \
        memcpy((q), &first_, 32);                                                                              \
        memcpy((q) + 288, &second_, 32);                                                                       \
    } while (0)

/* The 64-bit lanes of a and b interleaved within each half, then each chunk's halves stored: point j at q,
   point j + 4 at q + 4 x 72 (and the second chunk one point further). */
#define PUT_PAIRS8(q, a, b)                                                                                     \
    do {                                                                                                       \
        u64x4 x_ = (u64x4)(a), y_ = (u64x4)(b);                                                                \
        PUT_HALVES((q), 288, (i32x8)PICK(x_, y_, 0, 4, 2, 6));                                               \
        PUT_HALVES((q) + 72, 288, (i32x8)PICK(x_, y_, 1, 5, 3, 7));                                          \
    } while (0)

static GPUOCC_ALWAYS_INLINE void threads8(const struct thread_lanes8 *l, uint32_t shift, int32_t t0, int32_t step,
                                          gpuocc_sweep_point *p, bool inverse)
{
    const i32x8 zero = GPUOCC_SPLAT8(0), one = GPUOCC_SPLAT8(1);
    i32x8 t = GPUOCC_SPLAT8(t0) + (i32x8){0, step, 2 * step, 3 * step, 4 * step, 5 * step, 6 * step, 7 * step};
    i32x8 wpb = ((t - one) >> (int32_t)shift) + one; /* 1 .. 64 */
    f32x8 wpb_f = __builtin_convertvector(wpb, f32x8);
    i32x8 warps_blocks = ~(t > l->threads_max) & __builtin_convertvector(l->slots_f / wpb_f, i32x8);
    i32x8 regs_blocks =
        ~(wpb > l->warps_max) & (__builtin_convertvector(l->file_warps_f / wpb_f, i32x8) | l->regs_unlimited);
    i32x8 low = MIN8(warps_blocks, regs_blocks);
    i32x8 blocks = MIN8(low, l->fixed);
    i32x8 limiters = ((warps_blocks == blocks) & GPUOCC_SPLAT8(1 << GPUOCC_RESOURCE_WARPS)) |
                     ((regs_blocks == blocks) & GPUOCC_SPLAT8(1 << GPUOCC_RESOURCE_REGISTERS)) |
                     ((blocks == l->fixed) & l->fixed_limiters);
    i32x8 warps = blocks * wpb, regs_per_block = l->per_warp * wpb; /* below 2^22, 2^24 */
    i32x8 public_regs = regs_blocks | (regs_blocks == GPUOCC_SPLAT8(GPUOCC_NO_LIMIT));
    /* the occupancy of points 0, 1, 4, 5 and of 2, 3, 6, 7: the halves the chunks pair them with */
    i32x8 w = (i32x8)PICK((u64x4)warps, (u64x4)warps, 0, 2, 1, 3);
    f64x4 warps_a = __builtin_convertvector(PICK(w, w, 0, 1, 2, 3), f64x4);
    f64x4 warps_b = __builtin_convertvector(PICK(w, w, 4, 5, 6, 7), f64x4);
    i32x8 occ_a, occ_b;
    if (inverse)
        occ_a = (i32x8)(warps_a * l->slots_d), occ_b = (i32x8)(warps_b * l->slots_d);
    else
        occ_a = (i32x8)(warps_a / l->slots_d), occ_b = (i32x8)(warps_b / l->slots_d);
    unsigned char *q = (unsigned char *)p;
    /* chunk A (bytes 0 .. 15: value, blocks, warps) and B (16 .. 31: occupancy, limiters, warp slots' limit)
       of points j and j + 4 in one register each; then A and B of one point side by side, one 32-byte store
       (C, 32 .. 47: the registers', shared memory's, block slots' and barriers' limits, and D, 48 .. 63:
       registers per block, the reserved word, the block's shared memory, the same way) */
    i32x8 tb_low = LOW32(t, blocks), tb_high = HIGH32(t, blocks);
    i32x8 zw_low = LOW32(zero, warps), zw_high = HIGH32(zero, warps);
    u64x4 lw_low = (u64x4)LOW32(limiters, warps_blocks), lw_high = (u64x4)HIGH32(limiters, warps_blocks);
    u64x4 oa = (u64x4)occ_a, ob = (u64x4)occ_b;
    PUT_AB8(q, LOW32(tb_low, zw_low), (i32x8)PICK(oa, lw_low, 0, 4, 2, 6));
    PUT_AB8(q + 72, HIGH32(tb_low, zw_low), (i32x8)PICK(oa, lw_low, 1, 5, 3, 7));
    PUT_AB8(q + 144, LOW32(tb_high, zw_high), (i32x8)PICK(ob, lw_high, 0, 4, 2, 6));
    PUT_AB8(q + 216, HIGH32(tb_high, zw_high), (i32x8)PICK(ob, lw_high, 1, 5, 3, 7));
    u64x4 rs_low = (u64x4)LOW32(public_regs, l->smem), rs_high = (u64x4)HIGH32(public_regs, l->smem);
    u64x4 rz_low = (u64x4)LOW32(regs_per_block, zero), rz_high = (u64x4)HIGH32(regs_per_block, zero);
    u64x4 fifth = (u64x4)l->fifth, alloc = (u64x4)l->alloc;
    PUT_AB8(q + 32, (i32x8)PICK(rs_low, fifth, 0, 4, 2, 6), (i32x8)PICK(rz_low, alloc, 0, 4, 2, 6));
    PUT_AB8(q + 104, (i32x8)PICK(rs_low, fifth, 1, 5, 3, 7), (i32x8)PICK(rz_low, alloc, 1, 5, 3, 7));
    PUT_AB8(q + 176, (i32x8)PICK(rs_high, fifth, 0, 4, 2, 6), (i32x8)PICK(rz_high, alloc, 0, 4, 2, 6));
    PUT_AB8(q + 248, (i32x8)PICK(rs_high, fifth, 1, 5, 3, 7), (i32x8)PICK(rz_high, alloc, 1, 5, 3, 7));
    /* 64 .. 71: the carveout */
    memcpy(q + 64, &l->carveout, 8);
    memcpy(q + 136, &l->carveout, 8);
    memcpy(q + 208, &l->carveout, 8);
    memcpy(q + 280, &l->carveout, 8);
    memcpy(q + 352, &l->carveout, 8);
    memcpy(q + 424, &l->carveout, 8);
    memcpy(q + 496, &l->carveout, 8);
    memcpy(q + 568, &l->carveout, 8);
}
#else
#define THREAD_LANES8 0
#endif
#else
#define THREAD_LANES 0
#endif

static GPUOCC_ALWAYS_INLINE void sweep_threads(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k,
                                               int64_t from, int64_t step, int64_t n, gpuocc_sweep_point *points,
                                               bool wide)
{
    (void)wide; /* read only where the eight lanes are built (THREAD_LANES8) */
    const gpuocc_device *d = f->d;
    struct gpuocc_nv_regs regs;
    struct gpuocc_nv_answer a;
    gpuocc_nv_fast_regs(f, k->regs_per_thread, &regs);
    gpuocc_nv_fast_smem(f, k, k->smem_static_bytes, k->smem_dynamic_bytes, &a);
    a.barrier_blocks = gpuocc_nv_fast_barriers(d, k->barriers);
    a.virtual_blocks = virtual_blocks(f, k);
    /* the limits that do not move: their minimum, and which of them tie at it (they tie with the answer
       exactly when the answer is that minimum) */
    int32_t fixed = gpuocc_min32(gpuocc_min32(a.smem_blocks, d->max_blocks_per_sm),
                                 gpuocc_min32(a.barrier_blocks, a.virtual_blocks));
    uint32_t fixed_limiters = (uint32_t)(a.smem_blocks == fixed) << GPUOCC_RESOURCE_SMEM |
                              (uint32_t)(d->max_blocks_per_sm == fixed) << GPUOCC_RESOURCE_BLOCKS |
                              (uint32_t)(a.barrier_blocks == fixed) << GPUOCC_RESOURCE_BARRIERS |
                              (uint32_t)(a.virtual_blocks == fixed) << GPUOCC_RESOURCE_VIRTUAL;
    uint32_t warps_max = regs_warps_max(f, &regs);
    /* no registers: no limit (GPUOCC_NO_LIMIT is INT32_MAX, above any tabled quotient) */
    uint32_t regs_unlimited = regs.step_regs == 0 ? (uint32_t)GPUOCC_NO_LIMIT : 0;
    uint64_t file_warps = regs.file_warps, slots = f->slots;
    uint32_t threads_max = (uint32_t)d->max_threads_per_block, shift = f->warp_shift;
    uint64_t per_warp = (uint64_t)regs.per_warp; /* < 2^42: x 64 warps fits */
    double slots_d = (double)f->slots;
    uint64_t smem_limit = (uint64_t)PAIR(0, gpuocc_public_limit(a.smem_blocks));
    uint64_t w5 = PAIR(d->max_blocks_per_sm, gpuocc_public_limit(a.barrier_blocks)), carveout = (uint64_t)a.carveout;
#if WIDE_STORES
    const u64x2 tail = {(uint64_t)a.alloc, carveout};
#endif
    uint32_t t = (uint32_t)from; /* every point is at most thread_cap */
    gpuocc_sweep_point *p = points, *end = points + n;
#if THREAD_LANES
    /* the lanes' ranges: quotients of integers below 2^22, products below 2^24 */
    if (n >= 4 && slots < ((uint64_t)1 << 22) && file_warps < ((uint64_t)1 << 22) &&
        per_warp * GPUOCC_FAST_STEPS < ((uint64_t)1 << 24)) {
        bool inverse = (slots & (slots - 1)) == 0; /* 1 / slots exact */
        double slots_lane = inverse ? 1.0 / slots_d : slots_d;
        int32_t warps_top = (int32_t)(warps_max < GPUOCC_FAST_STEPS ? warps_max : GPUOCC_FAST_STEPS);
#if THREAD_LANES8
        if (wide) {
            /* eight points at a time; the last few (at most seven) below */
            struct thread_lanes8 l8;
            l8.threads_max = WIDEN8(gpuocc_splat4((int32_t)threads_max));
            l8.warps_max = WIDEN8(gpuocc_splat4(warps_top));
            l8.regs_unlimited = WIDEN8(gpuocc_splat4((int32_t)regs_unlimited));
            l8.fixed = WIDEN8(gpuocc_splat4(fixed));
            l8.fixed_limiters = WIDEN8(gpuocc_splat4((int32_t)fixed_limiters));
            l8.per_warp = WIDEN8(gpuocc_splat4((int32_t)per_warp));
            l8.smem = WIDEN8(gpuocc_splat4(gpuocc_public_limit(a.smem_blocks)));
            i32x4 fifth = (i32x4)(u64x2){w5, w5}, alloc = (i32x4)(u64x2){(uint64_t)a.alloc, (uint64_t)a.alloc};
            l8.fifth = WIDEN8(fifth);
            l8.alloc = WIDEN8(alloc);
            l8.slots_f = __builtin_convertvector(WIDEN8(gpuocc_splat4((int32_t)slots)), f32x8);
            l8.file_warps_f = __builtin_convertvector(WIDEN8(gpuocc_splat4((int32_t)file_warps)), f32x8);
            l8.slots_d = (f64x4){slots_lane, slots_lane, slots_lane, slots_lane};
            l8.carveout = carveout;
            if (inverse) {
                for (; end - p >= 8; p += 8, t += 8 * (uint32_t)step)
                    threads8(&l8, shift, (int32_t)t, (int32_t)step, p, true);
            } else {
                for (; end - p >= 8; p += 8, t += 8 * (uint32_t)step)
                    threads8(&l8, shift, (int32_t)t, (int32_t)step, p, false);
            }
        } else
#endif
        {
            struct thread_lanes l = {.threads_max = gpuocc_splat4((int32_t)threads_max),
                                     .warps_max = gpuocc_splat4(warps_top),
                                     .regs_unlimited = gpuocc_splat4((int32_t)regs_unlimited),
                                     .fixed = gpuocc_splat4(fixed),
                                     .fixed_limiters = gpuocc_splat4((int32_t)fixed_limiters),
                                     .slots_f = {(float)slots, (float)slots, (float)slots, (float)slots},
                                     .file_warps_f = {(float)file_warps, (float)file_warps, (float)file_warps,
                                                      (float)file_warps},
                                     .per_warp_f = {(float)per_warp, (float)per_warp, (float)per_warp,
                                                    (float)per_warp},
                                     .smem = gpuocc_splat4(gpuocc_public_limit(a.smem_blocks)),
                                     .fifth = (i32x4)(u64x2){w5, w5},
                                     .alloc = (i32x4)(u64x2){(uint64_t)a.alloc, (uint64_t)a.alloc},
                                     .carveout = carveout,
                                     .slots_d = {slots_lane, slots_lane}};
            if (inverse) {
                for (; end - p >= 4; p += 4, t += 4 * (uint32_t)step)
                    threads4(&l, shift, (int32_t)t, (int32_t)step, p, true);
            } else {
                for (; end - p >= 4; p += 4, t += 4 * (uint32_t)step)
                    threads4(&l, shift, (int32_t)t, (int32_t)step, p, false);
            }
        }
    }
#else
    (void)wide;
#endif
    for (; p < end; p++, t += (uint32_t)step) {
        uint32_t wpb = ((t - 1) >> shift) + 1; /* <= GPUOCC_FAST_STEPS */
        uint64_t r = gpuocc_fast_reciprocal[wpb];
        int32_t warps_blocks = t > threads_max ? 0 : (int32_t)((slots * r) >> 32);
        int32_t regs_blocks = wpb > warps_max ? 0 : (int32_t)((uint32_t)((file_warps * r) >> 32) | regs_unlimited);
        int32_t blocks = gpuocc_min32(gpuocc_min32(warps_blocks, regs_blocks), fixed);
        uint32_t limiters = (uint32_t)(warps_blocks == blocks) << GPUOCC_RESOURCE_WARPS |
                            (uint32_t)(regs_blocks == blocks) << GPUOCC_RESOURCE_REGISTERS |
                            (blocks == fixed ? fixed_limiters : 0);
        int32_t warps = blocks * (int32_t)wpb;
        uint64_t regs_per_block = per_warp * wpb;
        regs_per_block = regs_per_block > INT32_MAX ? INT32_MAX : regs_per_block;
        uint64_t w0 = t, w1 = PAIR(blocks, warps), w2 = double_bits((double)warps / slots_d);
        uint64_t w3 = PAIR(limiters, warps_blocks), w4 = PAIR(gpuocc_public_limit(regs_blocks), 0) | smem_limit;
#if WIDE_STORES
        /* the words that move stored as they are computed, the two that do not in one store */
        unsigned char *q = (unsigned char *)p;
        memcpy(q, &w0, 8);
        memcpy(q + 8, &w1, 8);
        memcpy(q + 16, &w2, 8);
        memcpy(q + 24, &w3, 8);
        memcpy(q + 32, &w4, 8);
        memcpy(q + 40, &w5, 8);
        memcpy(q + 48, &regs_per_block, 8);
        memcpy(q + 56, &tail, 16);
#else
        struct words w = {{w0, w1, w2, w3, w4, w5, regs_per_block, (uint64_t)a.alloc, carveout}};
        put_point(p, &w);
#endif
    }
}

/* ---- one moving limit: registers, shared memory, barriers ---- */

/* What an axis that moves one limit does not move: the point's words with the moving limit's field 0,
   the smallest of the other five limits (the virtual resources' among them: no axis moves those) and which
   of them tie at it (they tie with the answer exactly when the answer is that minimum). */
struct still {
    struct words w;
    int32_t min;
    uint32_t limiters;
    int32_t warps_per_block;
    double slots;
};

/* Where the moving limit's public value goes: w[still_word(resource)] << still_shift(resource). */
static inline uint32_t still_word(uint32_t resource)
{
    return resource == GPUOCC_RESOURCE_BARRIERS ? 5 : 4;
}
static inline uint32_t still_shift(uint32_t resource)
{
    return resource == GPUOCC_RESOURCE_REGISTERS ? 0 : 32;
}

/* `a` holds the five limits that do not move (virtual_blocks included); the moving one's is ignored. */
static GPUOCC_ALWAYS_INLINE void still_init(const struct gpuocc_nv_fast *f, struct gpuocc_nv_answer *a, uint32_t resource,
                                            struct still *s)
{
    int32_t *moving = resource == GPUOCC_RESOURCE_REGISTERS ? &a->regs_blocks
                      : resource == GPUOCC_RESOURCE_SMEM    ? &a->smem_blocks
                                                            : &a->barrier_blocks;
    *moving = GPUOCC_NO_LIMIT; /* above the block slots: never the minimum */
    s->w = point_words(f, a, 0);
    s->min = a->blocks;
    s->limiters = (uint32_t)s->w.w[3];
    s->w.w[still_word(resource)] &= ~((uint64_t)UINT32_MAX << still_shift(resource));
    s->warps_per_block = (int32_t)a->warps_per_block;
    s->slots = (double)f->slots;
}

/* A point's words at axis value v where the moving limit (`resource`, a constant) allows `moving` blocks. */
static inline void still_point(const struct still *s, uint32_t resource, int32_t moving, int64_t v, struct words *w)
{
    int32_t blocks = gpuocc_min32(s->min, moving);
    uint32_t limiters = (uint32_t)(moving == blocks) << resource | (blocks == s->min ? s->limiters : 0);
    int32_t warps = blocks * s->warps_per_block; /* at most the warp slots */
    w->w[0] = (uint64_t)v;
    w->w[1] = PAIR(blocks, warps);
    w->w[2] = double_bits((double)warps / s->slots);
    w->w[3] = (s->w.w[3] & ~(uint64_t)UINT32_MAX) | limiters;
    w->w[4] = s->w.w[4];
    w->w[5] = s->w.w[5];
    w->w[still_word(resource)] |= (uint64_t)(uint32_t)gpuocc_public_limit(moving) << still_shift(resource);
}

/* ---- barriers ---- */

#if THREAD_LANES
/* What the lanes need of a barriers sweep, computed once (the words of the other limits' answer). */
struct barrier_lanes {
    i32x4 barriers_per_sm, fixed, fixed_limiters, warps_per_block, warps_blocks, slot_blocks;
    uint64_t w4;
    u64x2 w67;
    uint64_t w8;
    f64x2 slots;
};

/* Points v, v + step, v + 2 step, v + 3 step (each below 2^22). */
static inline void barriers4(const struct barrier_lanes *l, int32_t v0, int32_t step, gpuocc_sweep_point *p)
{
    const i32x4 zero = gpuocc_splat4(0);
    i32x4 v = gpuocc_splat4(v0) + (i32x4){0, step, 2 * step, 3 * step};
    i32x4 none = v == zero; /* no barriers: no limit */
    i32x4 barrier_blocks =
        gpuocc_select4(none, gpuocc_splat4(GPUOCC_NO_LIMIT), gpuocc_quotient4(l->barriers_per_sm, v - none));
    i32x4 blocks = gpuocc_select4(barrier_blocks < l->fixed, barrier_blocks, l->fixed);
    i32x4 limiters = ((barrier_blocks == blocks) & gpuocc_splat4(1 << GPUOCC_RESOURCE_BARRIERS)) |
                     ((blocks == l->fixed) & l->fixed_limiters);
    /* at most the warp slots, below 2^22: exact in single precision */
    i32x4 warps = __builtin_convertvector(__builtin_convertvector(blocks, f32x4) *
                                              __builtin_convertvector(l->warps_per_block, f32x4),
                                          i32x4);
    i32x4 public_barriers = gpuocc_select4(none, gpuocc_splat4(GPUOCC_UNLIMITED), barrier_blocks);
    u64x2 w0[2], w1[2], w2[2], w3[2], w5[2];
    occupancy4(warps, l->slots, &w2[0], &w2[1]);
    lanes_pairs(v, zero, &w0[0], &w0[1]);
    lanes_pairs(blocks, warps, &w1[0], &w1[1]);
    lanes_pairs(limiters, l->warps_blocks, &w3[0], &w3[1]);
    lanes_pairs(l->slot_blocks, public_barriers, &w5[0], &w5[1]);
    unsigned char *q = (unsigned char *)p;
    put_word4(q, 0, w0[0], w0[1]);
    put_word4(q, 1, w1[0], w1[1]);
    put_word4(q, 2, w2[0], w2[1]);
    put_word4(q, 3, w3[0], w3[1]);
    put_shared4(q, 4, l->w4);
    put_word4(q, 5, w5[0], w5[1]);
    put_shared_pair4(q, 6, l->w67);
    put_shared4(q, 8, l->w8);
}
#endif


#if THREAD_LANES && THREAD_LANES8
/* Eight points of the barriers axis at a time (the AVX2 build): barriers4's rule, threads8's chunks. */
struct barrier_lanes8 {
    i32x8 barriers_per_sm, fixed, fixed_limiters, warps_per_block, warps_blocks, slot_blocks, w4, w67;
    f64x4 slots; /* the warp slots, or their exact inverse */
    uint64_t w8;
};

static GPUOCC_ALWAYS_INLINE void barriers8(const struct barrier_lanes8 *l, int32_t v0, int32_t step,
                                           gpuocc_sweep_point *p, bool inverse)
{
    const i32x8 zero = GPUOCC_SPLAT8(0);
    i32x8 v = GPUOCC_SPLAT8(v0) + (i32x8){0, step, 2 * step, 3 * step, 4 * step, 5 * step, 6 * step, 7 * step};
    i32x8 none = v == zero; /* no barriers: no limit */
    f32x8 per_sm = __builtin_convertvector(l->barriers_per_sm, f32x8);
    i32x8 quotient = __builtin_convertvector(per_sm / __builtin_convertvector(v - none, f32x8), i32x8);
    i32x8 barrier_blocks = (none & GPUOCC_SPLAT8(GPUOCC_NO_LIMIT)) | (~none & quotient);
    i32x8 blocks = MIN8(barrier_blocks, l->fixed);
    i32x8 limiters = ((barrier_blocks == blocks) & GPUOCC_SPLAT8(1 << GPUOCC_RESOURCE_BARRIERS)) |
                     ((blocks == l->fixed) & l->fixed_limiters);
    i32x8 warps = blocks * l->warps_per_block; /* at most the warp slots */
    i32x8 public_barriers = barrier_blocks | none; /* all ones: unlimited */
    i32x8 w = (i32x8)PICK((u64x4)warps, (u64x4)warps, 0, 2, 1, 3);
    f64x4 warps_a = __builtin_convertvector(PICK(w, w, 0, 1, 2, 3), f64x4);
    f64x4 warps_b = __builtin_convertvector(PICK(w, w, 4, 5, 6, 7), f64x4);
    i32x8 occ_a, occ_b;
    if (inverse)
        occ_a = (i32x8)(warps_a * l->slots), occ_b = (i32x8)(warps_b * l->slots);
    else
        occ_a = (i32x8)(warps_a / l->slots), occ_b = (i32x8)(warps_b / l->slots);
    unsigned char *q = (unsigned char *)p;
    /* bytes 0 .. 15: value, blocks, warps */
    i32x8 vb_low = LOW32(v, blocks), vb_high = HIGH32(v, blocks);
    i32x8 zw_low = LOW32(zero, warps), zw_high = HIGH32(zero, warps);
    PUT_HALVES(q, 288, LOW32(vb_low, zw_low));
    PUT_HALVES(q + 72, 288, HIGH32(vb_low, zw_low));
    PUT_HALVES(q + 144, 288, LOW32(vb_high, zw_high));
    PUT_HALVES(q + 216, 288, HIGH32(vb_high, zw_high));
    /* 16 .. 31: occupancy, limiters, warp slots' limit */
    PUT_PAIRS8(q + 16, occ_a, LOW32(limiters, l->warps_blocks));
    PUT_PAIRS8(q + 160, occ_b, HIGH32(limiters, l->warps_blocks));
    /* 32 .. 47: registers' and shared memory's limits (fixed), the block slots', the barriers' */
    PUT_PAIRS8(q + 32, l->w4, LOW32(l->slot_blocks, public_barriers));
    PUT_PAIRS8(q + 176, l->w4, HIGH32(l->slot_blocks, public_barriers));
    /* 48 .. 71: fixed */
    for (int j = 0; j < 8; j += 2) {
        PUT_HALVES(q + 48 + 72 * j, 72, l->w67);
        memcpy(q + 64 + 72 * j, &l->w8, 8);
        memcpy(q + 136 + 72 * j, &l->w8, 8);
    }
}
#endif

static GPUOCC_ALWAYS_INLINE void sweep_barriers(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k,
                                                int64_t from, int64_t step, int64_t n, gpuocc_sweep_point *points,
                                                bool wide)
{
    const gpuocc_device *d = f->d;
    struct gpuocc_nv_answer a;
    gpuocc_nv_fast_threads_regs(f, (uint32_t)k->threads_per_block, k->regs_per_thread, &a);
    gpuocc_nv_fast_smem(f, k, k->smem_static_bytes, k->smem_dynamic_bytes, &a);
    a.virtual_blocks = virtual_blocks(f, k);
    struct still s;
    still_init(f, &a, GPUOCC_RESOURCE_BARRIERS, &s);
    struct words w = s.w;
    if (d->barriers_per_sm == 0) {
        still_point(&s, GPUOCC_RESOURCE_BARRIERS, GPUOCC_NO_LIMIT, from, &w);
        /* no limit at any count */
#if RUN_LANES8
        if (wide) {
            store_run8(points, n, &w, from, step);
            return;
        }
#endif
        store_run(points, n, &w, from, step, 0);
        return;
    }
    int64_t v = from; /* at most INT32_MAX */
    gpuocc_sweep_point *p = points, *end = points + n;
#if THREAD_LANES && THREAD_LANES8
    if (wide && n >= 8 && from + (n - 1) * step < ((int64_t)1 << 22) && f->slots < (1u << 22)) {
        bool inverse = (f->slots & (f->slots - 1)) == 0; /* 1 / slots exact */
        double slots_lane = inverse ? 1.0 / s.slots : s.slots;
        struct barrier_lanes8 l8;
        l8.barriers_per_sm = WIDEN8(gpuocc_splat4(d->barriers_per_sm));
        l8.fixed = WIDEN8(gpuocc_splat4(s.min));
        l8.fixed_limiters = WIDEN8(gpuocc_splat4((int32_t)s.limiters));
        l8.warps_per_block = WIDEN8(gpuocc_splat4(s.warps_per_block));
        l8.warps_blocks = WIDEN8(gpuocc_splat4((int32_t)(w.w[3] >> 32)));
        l8.slot_blocks = WIDEN8(gpuocc_splat4(d->max_blocks_per_sm));
        i32x4 w4 = (i32x4)(u64x2){w.w[4], w.w[4]}, w67 = (i32x4)(u64x2){w.w[6], w.w[7]};
        l8.w4 = WIDEN8(w4);
        l8.w67 = WIDEN8(w67);
        l8.slots = (f64x4){slots_lane, slots_lane, slots_lane, slots_lane};
        l8.w8 = w.w[8];
        if (inverse) {
            for (; end - p >= 8; p += 8, v += 8 * step)
                barriers8(&l8, (int32_t)v, (int32_t)step, p, true);
        } else {
            for (; end - p >= 8; p += 8, v += 8 * step)
                barriers8(&l8, (int32_t)v, (int32_t)step, p, false);
        }
    }
#else
    (void)wide;
#endif
#if THREAD_LANES
    /* the lanes' ranges: quotients of integers below 2^22 (the eight lanes' build: the last few below) */
    if (!(wide && THREAD_LANES8) && n >= 4 && from + (n - 1) * step < ((int64_t)1 << 22) &&
        f->slots < (1u << 22)) {
        struct barrier_lanes l = {.barriers_per_sm = gpuocc_splat4(d->barriers_per_sm),
                                  .fixed = gpuocc_splat4(s.min),
                                  .fixed_limiters = gpuocc_splat4((int32_t)s.limiters),
                                  .warps_per_block = gpuocc_splat4(s.warps_per_block),
                                  .warps_blocks = gpuocc_splat4((int32_t)(w.w[3] >> 32)),
                                  .slot_blocks = gpuocc_splat4(d->max_blocks_per_sm),
                                  .w4 = w.w[4],
                                  .w67 = {w.w[6], w.w[7]},
                                  .w8 = w.w[8],
                                  .slots = {s.slots, s.slots}};
        for (; end - p >= 4; p += 4, v += 4 * step)
            barriers4(&l, (int32_t)v, (int32_t)step, p);
    }
#endif
    /* unsigned: v steps once past the last point, where it may leave int64_t */
    for (; p < end; p++, v = (int64_t)((uint64_t)v + (uint64_t)step)) {
        still_point(&s, GPUOCC_RESOURCE_BARRIERS, gpuocc_nv_fast_barriers(d, v), v, &w);
        put_point(p, &w);
    }
}

/* ---- registers ---- */

/*
 * The register limit along the registers axis, for a block of w warps: gpuocc_nv_fast_threads's rule with
 * the block's parts computed once.  g = the allocation steps per warp of r registers (0 past the
 * per-thread maximum); the limit is 0 past the maximum, none for g = 0 below it, 0 when g steps times the
 * block's warps rounded up to the sub-partitions (and GP10x's compat parts) exceed regs_per_block or the
 * compat split holds fewer than w warps, else floor(floor(part_units / g) x parts / w).
 */
struct regs_axis {
    uint32_t warps, g_max;     /* g above g_max: over regs_per_block */
    bool compat;
};

static void regs_axis_init(const struct gpuocc_nv_fast *f, uint32_t warps, struct regs_axis *x)
{
    const gpuocc_device *d = f->d;
    x->warps = warps;
    /* step x round_up(w, P) > regs_per_block exactly when g > floor(regs_per_block / (round_up(w, P) x unit)) */
    uint32_t rounded = ((warps - 1) >> f->part_shift << f->part_shift) + (1u << f->part_shift);
    x->g_max = (uint32_t)d->regs_per_block / (rounded << f->unit_shift); /* < 64 x 2^20 */
    x->compat = d->reg_compat_sub_partitions > 0;
    if (x->compat) {
        uint32_t compat = ((warps - 1) >> f->compat_shift << f->compat_shift) + (1u << f->compat_shift);
        uint32_t g_max = (uint32_t)d->regs_per_block / (compat << f->unit_shift);
        x->g_max = g_max < x->g_max ? g_max : x->g_max;
    }
}

static inline int32_t regs_axis_blocks(const struct gpuocc_nv_fast *f, const struct regs_axis *x, uint32_t g, bool over)
{
    if (g == 0)
        return over ? 0 : GPUOCC_NO_LIMIT;
    if (g > x->g_max)
        return 0;
    if (x->compat && (gpuocc_fast_div(f->compat_units, g) << f->compat_shift) < x->warps)
        return 0;
    return (int32_t)gpuocc_fast_div(gpuocc_fast_div(f->part_units, g) << f->part_shift, x->warps);
}

static void sweep_regs(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k, int64_t from, int64_t step, int64_t n,
                       gpuocc_sweep_point *points)
{
    const gpuocc_device *d = f->d;
    struct gpuocc_nv_answer a;
    gpuocc_nv_fast_threads_regs(f, (uint32_t)k->threads_per_block, 0, &a);
    gpuocc_nv_fast_smem(f, k, k->smem_static_bytes, k->smem_dynamic_bytes, &a);
    a.barrier_blocks = gpuocc_nv_fast_barriers(d, k->barriers);
    a.virtual_blocks = virtual_blocks(f, k);
    struct still s;
    still_init(f, &a, GPUOCC_RESOURCE_REGISTERS, &s);
    struct regs_axis x;
    regs_axis_init(f, a.warps_per_block, &x);
    int32_t shift = step_shift(step);
    int64_t unit = d->reg_alloc_unit, top = d->regs_per_thread_max;
    struct words w = s.w;
    for (int64_t i = 0; i < n;) {
        int64_t v = from + i * step; /* at most INT32_MAX */
        int64_t per_warp = ((v << f->warp_shift) + unit - 1) & -unit;
        bool over = v > top;
        uint32_t g = over ? 0 : (uint32_t)(per_warp >> f->unit_shift); /* <= GPUOCC_FAST_STEPS */
        still_point(&s, GPUOCC_RESOURCE_REGISTERS, regs_axis_blocks(f, &x, g, over), v, &w);
        /* per_warp < 2^42, warps per block <= 64: the product fits */
        uint64_t regs_per_block = (uint64_t)per_warp * x.warps;
        w.w[6] = regs_per_block > INT32_MAX ? INT32_MAX : regs_per_block;
        /* the same allocation per warp, on the same side of the per-thread maximum */
        int64_t end = per_warp >> f->warp_shift;
        end = over ? end : min64(end, top);
        int64_t m = run_points(v, end, i, n, step, shift);
        store_run(points + i, m, &w, v, step, 0);
        i += m;
    }
}

/* ---- dynamic shared memory ---- */

/*
 * gpuocc_nv_fast_smem's rule along the dynamic bytes, with what stays computed once: the per-block limit
 * on the allocation (opt-in included), the opt-in attribute's dynamic limit (INT64_MAX without opt-in),
 * what the allocation adds to the dynamic bytes, the preferred carveout.  The allocation only grows along
 * the axis, so the carveout holding max(preference, allocation) is looked up again only when the
 * allocation outgrows it (none holds it: smem_per_sm_bytes, from then on).
 */
struct smem_axis {
    int64_t limit, dynamic_max, offset, round, unit;
    int64_t preferred;
    int64_t carveout, covers;   /* the carveout chosen and the largest allocation it serves */
    int64_t step, short_runs;   /* the axis step; allocations below short_runs: runs of a point or two */
};

static void smem_axis_init(const gpuocc_device *d, const gpuocc_kernel *k, int64_t step, struct smem_axis *x)
{
    int64_t dynamic_max = k->smem_dynamic_max_bytes >= 0 ? k->smem_dynamic_max_bytes
                                                         : d->smem_per_block_optin_bytes - k->smem_static_bytes;
    x->offset = k->smem_static_bytes + d->smem_reserved_per_block_bytes;
    x->unit = d->smem_alloc_unit_bytes;
    x->round = x->offset + x->unit - 1;
    x->limit = d->smem_per_block_bytes;
    x->dynamic_max = INT64_MAX;
    if (k->smem_optin) {
        int64_t largest = x->offset + (dynamic_max > 0 ? dynamic_max : 0);
        x->limit = largest > x->limit ? d->smem_per_block_optin_bytes : x->limit;
        x->dynamic_max = dynamic_max;
    }
    x->limit += d->smem_reserved_per_block_bytes;
    x->carveout = d->smem_per_sm_bytes;
    x->covers = d->carveout_count > 0 ? -1 : INT64_MAX; /* no carveouts: one for every allocation */
    x->step = step;
    x->short_runs = (int64_t)sqrt(2.0 * (double)x->carveout * (double)step);
    x->preferred = gpuocc_nv_preferred_bytes(d, k);
}

/* The shared-memory blocks at dynamic bytes v (allocation *alloc, carveout x->carveout). */
static inline int32_t smem_axis_at(const gpuocc_device *d, struct smem_axis *x, int64_t v, int64_t *alloc)
{
    int64_t a = (x->round + v) & -x->unit;
    *alloc = a;
    if (a > x->covers) {
        int64_t chosen = gpuocc_nv_carveout_at_least(d, x->preferred > a ? x->preferred : a);
        x->carveout = chosen >= 0 ? chosen : d->smem_per_sm_bytes;
        x->covers = chosen >= 0 ? chosen : INT64_MAX;
        /* below about sqrt(2 carveout step) bytes, floor(carveout / allocation) changes within two steps */
        x->short_runs = (int64_t)sqrt(2.0 * (double)x->carveout * (double)x->step);
    }
    if (v > x->dynamic_max || a > x->limit)
        return 0; /* over a per-block limit (or the opt-in attribute) */
    return a == 0 ? GPUOCC_NO_LIMIT : gpuocc_clamp_i32(gpuocc_div(x->carveout, a));
}

/* The largest dynamic byte count, from v on, over which the answer at v (allocation a, `blocks`) holds:
   the same carveout, and the same blocks as long as floor(carveout / allocation) stays. */
static inline int64_t smem_axis_end(const gpuocc_device *d, const struct smem_axis *x, int64_t v, int64_t a,
                                    int32_t blocks)
{
    int64_t c = x->carveout;
    /* the carveout stays until the allocation outgrows it; when none holds it, none ever will */
    int64_t alloc_end = d->carveout_count > 0 && c >= a ? c : INT64_MAX;
    int64_t last = INT64_MAX;
    if (blocks == GPUOCC_NO_LIMIT) {
        alloc_end = 0; /* nothing allocated: the next byte allocates */
    } else if (blocks > 0) {
        /* 0 (over a per-block limit, or a carveout smaller than the block) stays 0 as the block grows */
        last = x->dynamic_max;
        alloc_end = min64(min64(alloc_end, x->limit), gpuocc_div(c, blocks));
    }
    if (alloc_end < INT64_MAX) /* the last dynamic byte count whose allocation is at most alloc_end */
        last = min64(last, (alloc_end & -x->unit) - x->offset);
    return last < v ? v : last;
}

static void sweep_smem(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k, int64_t from, int64_t step, int64_t n,
                       gpuocc_sweep_point *points)
{
    const gpuocc_device *d = f->d;
    struct gpuocc_nv_answer a;
    gpuocc_nv_fast_threads_regs(f, (uint32_t)k->threads_per_block, k->regs_per_thread, &a);
    a.barrier_blocks = gpuocc_nv_fast_barriers(d, k->barriers);
    a.alloc = a.carveout = 0;
    a.virtual_blocks = virtual_blocks(f, k);
    struct still s;
    still_init(f, &a, GPUOCC_RESOURCE_SMEM, &s);
    struct smem_axis x;
    smem_axis_init(d, k, step, &x);
    /* a step of whole units adds itself to the allocation; any other step, the allocation point by point */
    int64_t grow = (step & (x.unit - 1)) == 0 ? step : -1;
    int32_t shift = step_shift(step);
    struct words w = s.w;
    for (int64_t i = 0; i < n;) {
        int64_t v = from + i * step, alloc;
        int32_t blocks = smem_axis_at(d, &x, v, &alloc);
        still_point(&s, GPUOCC_RESOURCE_SMEM, blocks, v, &w);
        w.w[7] = (uint64_t)alloc;
        w.w[8] = (uint64_t)x.carveout;
        if (alloc < x.short_runs) {
            /* runs of a point or two: each point on its own, with no run end to wait for */
            put_point(points + i, &w);
            i++;
            continue;
        }
        int64_t m = run_points(v, smem_axis_end(d, &x, v, alloc, blocks), i, n, step, shift);
        if (grow >= 0) {
            store_run(points + i, m, &w, v, step, grow);
        } else {
            for (int64_t j = 0; j < m; j++, v = (int64_t)((uint64_t)v + (uint64_t)step)) {
                w.w[0] = (uint64_t)v;
                w.w[7] = (uint64_t)((x.round + v) & -x.unit);
                put_point(points + i + j, &w);
            }
        }
        i += m;
    }
}

/* The common device (as lib/nvidia/fast.c's single call has it: 32-thread warps, 256-register units, four
   sub-partitions, no GP10x layout) whose fast evaluation gpuocc_nv_fast_init_shifts(.., 5, 8) accepts: its
   shifts as constants.  The short sweeps' own functions, each with its struct gpuocc_nv_fast in registers
   (a function that hands it to another keeps every field on the stack). */
static GPUOCC_ALWAYS_INLINE bool common_device(const gpuocc_device *d)
{
    /* gpuocc_nv_fast_init_shifts(.., 5, 8)'s answer on that shape, without its stores */
    uint32_t smem_unit = (uint32_t)d->smem_alloc_unit_bytes;
    uint64_t top_step = (((uint64_t)d->regs_per_thread_max << 5) + 255) >> 8;
    return (d->warp_size == 32) & (d->reg_alloc_unit == 256) & (d->sub_partitions == 4) &
           (d->reg_compat_sub_partitions == 0) & ((smem_unit & (smem_unit - 1)) == 0) &
           (top_step <= GPUOCC_FAST_STEPS) & (((uint32_t)d->regs_per_sm >> 8) < ((uint32_t)1 << 26));
}

/* What gpuocc_nv_fast_init_shifts(f, d, 5, 8) fills on such a device, the sub-partitions' shifts as
   constants too (as lib/nvidia/fast.c's single call sets them). */
static GPUOCC_ALWAYS_INLINE void common_init(struct gpuocc_nv_fast *f, const gpuocc_device *d)
{
    (void)gpuocc_nv_fast_init_shifts(f, d, 5, 8); /* true: common_device(d) */
    f->part_shift = 2, f->compat_shift = 0, f->compat_parts = 0;
    f->fast = 0;
}

static GPUOCC_ALWAYS_INLINE void threads_common(const gpuocc_device *d, const gpuocc_kernel *k, int64_t from,
                                                int64_t step, int64_t n, gpuocc_sweep_point *points, bool wide)
{
    struct gpuocc_nv_fast f;
    common_init(&f, d);
    sweep_threads(&f, k, from, step, n, points, wide);
}

static GPUOCC_ALWAYS_INLINE void barriers_common(const gpuocc_device *d, const gpuocc_kernel *k, int64_t from,
                                                 int64_t step, int64_t n, gpuocc_sweep_point *points, bool wide)
{
    struct gpuocc_nv_fast f;
    common_init(&f, d);
    sweep_barriers(&f, k, from, step, n, points, wide);
}


static GPUOCC_NOINLINE void threads_baseline(const gpuocc_device *d, const gpuocc_kernel *k, int64_t from,
                                             int64_t step, int64_t n, gpuocc_sweep_point *points)
{
    threads_common(d, k, from, step, n, points, false);
}

static GPUOCC_NOINLINE void barriers_baseline(const gpuocc_device *d, const gpuocc_kernel *k, int64_t from,
                                              int64_t step, int64_t n, gpuocc_sweep_point *points)
{
    barriers_common(d, k, from, step, n, points, false);
}

#if GPUOCC_NV_AVX2
GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE void threads_avx2(const gpuocc_device *d, const gpuocc_kernel *k,
                                                           int64_t from, int64_t step, int64_t n,
                                                           gpuocc_sweep_point *points)
{
    threads_common(d, k, from, step, n, points, true);
}

GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE void barriers_avx2(const gpuocc_device *d, const gpuocc_kernel *k,
                                                            int64_t from, int64_t step, int64_t n,
                                                            gpuocc_sweep_point *points)
{
    barriers_common(d, k, from, step, n, points, true);
}
#else
#define threads_avx2 threads_baseline
#define barriers_avx2 barriers_baseline
#endif

static GPUOCC_ALWAYS_INLINE bool fill_any(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t from,
                                          int64_t step, int64_t n, gpuocc_sweep_point *points, bool wide)
{
    struct gpuocc_nv_fast f;
    if (!gpuocc_nv_fast_init(&f, d))
        return false;
    int64_t last = from + (n - 1) * step;
    int64_t threads_top = axis == GPUOCC_AXIS_THREADS ? last : k->threads_per_block;
    if (threads_top > (int64_t)f.thread_cap || (axis == GPUOCC_AXIS_SMEM && last >= GPUOCC_FAST_BYTES))
        return false;
    switch (axis) {
    case GPUOCC_AXIS_THREADS: sweep_threads(&f, k, from, step, n, points, wide); break;
    case GPUOCC_AXIS_REGS: sweep_regs(&f, k, from, step, n, points); break;
    case GPUOCC_AXIS_SMEM: sweep_smem(&f, k, from, step, n, points); break;
    default: sweep_barriers(&f, k, from, step, n, points, wide); break;
    }
    return true;
}

static GPUOCC_NOINLINE bool fill_other(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t from,
                                       int64_t step, int64_t n, gpuocc_sweep_point *points)
{
    return fill_any(d, k, axis, from, step, n, points, false);
}

#if GPUOCC_NV_AVX2
GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE bool fill_other_avx2(const gpuocc_device *d, const gpuocc_kernel *k,
                                                              int32_t axis, int64_t from, int64_t step, int64_t n,
                                                              gpuocc_sweep_point *points)
{
    return fill_any(d, k, axis, from, step, n, points, true);
}
#else
#define fill_other_avx2 fill_other
#endif

bool gpuocc_nv_sweep_fill(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t from, int64_t step,
                          int64_t n, gpuocc_sweep_point *points)
{
    return fill_other(d, k, axis, from, step, n, points);
}

/* gpuocc_nv_sweep_or whole, but the structs' own checks (calls into lib/nvidia/fast.c): the arguments as
   lib/api/sweep.c's plain path checks them, the count, the fill.  The short sweeps on the common device
   inline (one frame with the checks). */
static GPUOCC_ALWAYS_INLINE int32_t sweep_or(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis,
                                             int64_t from, int64_t to, int64_t step, gpuocc_sweep_point *points,
                                             int32_t capacity, int32_t *count, gpuocc_nv_sweep_other other,
                                             bool wide)
{
    /* the axis' bounds: from >= its smallest value, to within int32_t but on the bytes axis */
    bool args = (uint32_t)axis < GPUOCC_AXIS_COUNT && from >= (axis == GPUOCC_AXIS_THREADS) && to >= from &&
                (axis == GPUOCC_AXIS_SMEM || to <= INT32_MAX) && step >= 1 && capacity >= 0 && count &&
                (points || capacity == 0) && dev && kernel;
    if (!args || dev->size != sizeof *dev || kernel->size != sizeof *kernel ||
        (axis == GPUOCC_AXIS_BARRIERS && to > GPUOCC_NV_BARRIERS_PER_BLOCK) || !gpuocc_nv_device_fast_ok(dev) ||
        !gpuocc_nv_kernel_fast_virtual_ok(kernel))
        return other(dev, kernel, axis, from, to, step, points, capacity, count);
    /* to - from cannot overflow: from >= 0; a step of a power of two (every step sweep_range gives) shifts */
    uint64_t span = (uint64_t)(to - from);
    int64_t intervals = (step & (step - 1)) == 0 ? (int64_t)(span >> gpuocc_log2_exact((uint64_t)step))
                                                 : gpuocc_div((int64_t)span, step);
    if (intervals >= capacity) {
        /* too many points for the buffer, or at all */
        if (intervals >= INT32_MAX)
            return GPUOCC_ERR_OVERFLOW;
        *count = (int32_t)intervals + 1;
        return GPUOCC_ERR_BUFFER;
    }
    int64_t n = intervals + 1;
    if (axis == GPUOCC_AXIS_THREADS && common_device(dev) && from + intervals * step <= (GPUOCC_FAST_STEPS << 5))
        (wide ? threads_avx2 : threads_baseline)(dev, kernel, from, step, n, points);
    else if (axis == GPUOCC_AXIS_BARRIERS && common_device(dev) &&
             kernel->threads_per_block <= (GPUOCC_FAST_STEPS << 5))
        (wide ? barriers_avx2 : barriers_baseline)(dev, kernel, from, step, n, points);
    else if (!(wide ? fill_other_avx2 : fill_other)(dev, kernel, axis, from, step, n, points))
        return other(dev, kernel, axis, from, to, step, points, capacity, count);
    *count = (int32_t)n;
    return GPUOCC_OK;
}

static GPUOCC_NOINLINE int32_t sweep_or_baseline(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis,
                                                 int64_t from, int64_t to, int64_t step, gpuocc_sweep_point *points,
                                                 int32_t capacity, int32_t *count, gpuocc_nv_sweep_other other)
{
    return sweep_or(dev, kernel, axis, from, to, step, points, capacity, count, other, false);
}

#if GPUOCC_NV_AVX2
GPUOCC_NV_AVX2_TARGET static GPUOCC_NOINLINE int32_t sweep_or_avx2(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                                               int32_t axis, int64_t from, int64_t to, int64_t step,
                                                               gpuocc_sweep_point *points, int32_t capacity,
                                                               int32_t *count, gpuocc_nv_sweep_other other)
{
    return sweep_or(dev, kernel, axis, from, to, step, points, capacity, count, other, true);
}
#else
#define sweep_or_avx2 sweep_or_baseline
#endif

int32_t gpuocc_nv_sweep_or(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis, int64_t from,
                           int64_t to, int64_t step, gpuocc_sweep_point *points, int32_t capacity, int32_t *count,
                           gpuocc_nv_sweep_other other)
{
    return (gpuocc_nv_has_avx2() ? sweep_or_avx2 : sweep_or_baseline)(dev, kernel, axis, from, to, step, points, capacity,
                                                                  count, other);
}
