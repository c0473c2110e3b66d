/*
 * NVIDIA's rules on the common case, fast: shared by the single call (lib/nvidia/fast.c), the prepared
 * batch (lib/nvidia/batch.c) and the sweeps (lib/nvidia/sweep.c).  Everything here answers exactly as
 * gpuocc_rule_all; it only covers less: the checks below are conservative (what they accept,
 * gpuocc_device_validate and the kernel checks accept; what they refuse goes to the plain path, which names
 * the error or answers), and the evaluation needs power-of-two units and small values, so every division is
 * a shift, a multiplication by a tabled reciprocal, an exact floating-point quotient (shared memory; the
 * single calls in lib/nvidia/fast.c divide it in 32-bit integers) or, past the table (more than 64
 * barriers), one 32-bit divide.
 */
#ifndef GPUOCC_NV_FAST_H
#define GPUOCC_NV_FAST_H

#include "nvidia.h"

/* Run-time dispatch, one rule for the single calls (lib/nvidia/fast.c), the batch (batch.c) and the sweeps
   (sweep.c): on x86-64 with GCC 9+ or Clang and vector extensions, their hot functions are compiled for
   AVX2 and BMI2 as well (GPUOCC_NV_AVX2_TARGET) and taken when the processor has both
   (gpuocc_nv_has_avx2): the three-operand vector forms read unaligned words straight from memory and the
   BMI2 shifts take their counts from any register.  GPUOCC_NO_DISPATCH: the baseline build alone (the
   sanitized test build uses it, so both are tested). */
#if GPUOCC_VECTORS && (defined(__clang__) || __GNUC__ >= 9) && defined(__x86_64__) && !defined(__AVX2__) &&      \
    !defined(GPUOCC_NO_DISPATCH)
#define GPUOCC_NV_AVX2 1
#define GPUOCC_NV_AVX2_TARGET __attribute__((target("avx2,bmi,bmi2")))
static inline bool gpuocc_nv_has_avx2(void)
{
    return (__builtin_cpu_supports("avx2") != 0) & (__builtin_cpu_supports("bmi2") != 0);
}
#else
#define GPUOCC_NV_AVX2 0
#define GPUOCC_NV_AVX2_TARGET
static inline bool gpuocc_nv_has_avx2(void)
{
    return false;
}
#endif

/* Warps per block and register allocation steps per warp the reciprocal table covers (64 x 32 threads
   = 2048 > 1024; 64 x 256 registers > 255 registers x 32 lanes). */
#define GPUOCC_FAST_STEPS 64
/* ceil(2^32 / w) for w = 1 .. GPUOCC_FAST_STEPS: floor(x / w) == (x * r[w]) >> 32 whenever x * w < 2^32.
   Defined here, static: a copy per file that includes this header (520 bytes), and no exported data
   (the two-file amalgamation links two static copies of the library into one program). */
#define R(w) ((((uint64_t)1 << 32) + (w) - 1) / (w))
#define R4(w) R(w), R(w + 1), R(w + 2), R(w + 3)
#define R16(w) R4(w), R4(w + 4), R4(w + 8), R4(w + 12)
static const uint64_t gpuocc_fast_reciprocal[GPUOCC_FAST_STEPS + 1] = {0, R16(1), R16(17), R16(33), R16(49)};
#undef R16
#undef R4
#undef R

static inline uint32_t gpuocc_fast_div(uint32_t x, uint32_t w)
{
    return (uint32_t)(((uint64_t)x * gpuocc_fast_reciprocal[w]) >> 32);
}

static inline int32_t gpuocc_min32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

/* yes ? a : b by masks: no branch whatever the compiler makes of a conditional expression (GCC turns one
   that guards a division into a jump around it, which random launches mispredict). */
static inline int32_t gpuocc_select_i32(bool yes, int32_t a, int32_t b)
{
    uint32_t mask = -(uint32_t)yes;
    return (int32_t)(((uint32_t)a & mask) | ((uint32_t)b & ~mask));
}


/* A condition the launch decides, marked unpredictable: the compiler then makes conditional moves of the
   conditional expressions that test it rather than branches (which random launches mispredict). */
#if defined(__clang__)
#define GPUOCC_EITHER(c) __builtin_unpredictable(c)
#elif defined(__GNUC__) && __GNUC__ >= 9
#define GPUOCC_EITHER(c) __builtin_expect_with_probability(!!(c), 1, 0.5)
#else
#define GPUOCC_EITHER(c) (c)
#endif

/* The value as computed, to the compiler opaque: what a conditional expression then picks between is in
   registers already, so the compiler makes a conditional move of it rather than branching around the
   computation (GCC does for a product or a quotient).  No instruction. */
#if defined(__GNUC__) || defined(__clang__)
#define GPUOCC_KEEP(x) __asm__("" : "+r"(x))
#else
#define GPUOCC_KEEP(x) ((void)0)
#endif

/* The checks gpuocc_nv_device_fast_ok and gpuocc_nv_kernel_fast_virtual_ok (lib/nvidia/nvidia.h) accept byte
   counts below GPUOCC_FAST_BYTES only. */

/* What every launch on one device shares: shifts for its power-of-two units, the register file in
   allocation units per sub-partition, and the device fields the evaluation reads (copied: the prepared
   single call reads them in place from its short tagged block, struct gpuocc_nv_single; on a device at
   hand the compiler reads them from the device itself).  One list of fields for both: struct
   gpuocc_nv_params, which struct gpuocc_nv_fast holds as anonymous members (the sweeps name them
   directly) and as `params` (the prepared state keeps it whole: struct gpuocc_nv_single). */
#define GPUOCC_NV_PARAMS_FIELDS                                                                                \
    uint32_t warp_shift, unit_shift, part_shift, compat_shift, smem_shift;                                     \
    uint32_t slots;                    /* warp slots per SM */                                                 \
    uint32_t part_units, compat_units; /* allocation units per sub-partition (and per compat part) */         \
    uint32_t thread_cap;               /* threads per block the fast evaluation covers */                     \
    int32_t max_threads_per_block, regs_per_thread_max, regs_per_block, compat_parts, max_blocks_per_sm;      \
    int32_t barriers_per_sm, carveout_count;                                                                   \
    int32_t virtual_per_sm;            /* virtual resources per SM (0: none, no limit) */                     \
    uint32_t fast;                     /* the prepared block's: 1 when the device passed the fast checks */   \
    int64_t smem_per_sm, smem_reserved, smem_optin, smem_per_block;

struct gpuocc_nv_params {
    GPUOCC_NV_PARAMS_FIELDS
};

struct gpuocc_nv_fast {
    const gpuocc_device *d;              /* the device (the sweeps and the batch read more of it) */
    const int32_t *carveouts_kib;        /* its carveouts_kib, or the prepared block's copy */
    union {
        struct {
            GPUOCC_NV_PARAMS_FIELDS
        };
        struct gpuocc_nv_params params;
    };
};

/* Fill `f` from a checked device whose warp size and register allocation unit are 2^warp_shift and
   2^unit_shift (given as constants, they fold into the rules inlined after it); false when its other units
   are not powers of two or its register file is too large for the reciprocal table (the plain rules then). */
static inline bool gpuocc_nv_fast_init_shifts(struct gpuocc_nv_fast *f, const gpuocc_device *d, uint32_t warp_shift,
                                              uint32_t unit_shift)
{
    uint32_t parts = (uint32_t)d->sub_partitions, compat = (uint32_t)d->reg_compat_sub_partitions;
    uint32_t smem_unit = (uint32_t)d->smem_alloc_unit_bytes;
    /* every field filled either way (what a caller that knows the answer reads is set) */
    bool powers = ((parts & (parts - 1)) | (compat & (compat - 1)) | (smem_unit & (smem_unit - 1))) == 0;
    f->d = d;
    f->carveouts_kib = d->carveouts_kib;
    f->max_threads_per_block = d->max_threads_per_block;
    f->regs_per_thread_max = d->regs_per_thread_max;
    f->regs_per_block = d->regs_per_block;
    f->compat_parts = d->reg_compat_sub_partitions;
    f->max_blocks_per_sm = d->max_blocks_per_sm;
    f->barriers_per_sm = d->barriers_per_sm;
    f->carveout_count = d->carveout_count;
    f->virtual_per_sm = d->virtual_resources_per_sm;
    f->smem_per_sm = d->smem_per_sm_bytes;
    f->smem_reserved = d->smem_reserved_per_block_bytes;
    f->smem_optin = d->smem_per_block_optin_bytes;
    f->smem_per_block = d->smem_per_block_bytes;
    f->warp_shift = warp_shift;
    f->unit_shift = unit_shift;
    f->part_shift = (uint32_t)gpuocc_log2_exact(parts);
    f->compat_shift = compat ? (uint32_t)gpuocc_log2_exact(compat) : 0;
    f->smem_shift = (uint32_t)gpuocc_log2_exact(smem_unit);
    f->slots = (uint32_t)d->max_threads_per_sm >> f->warp_shift;
    f->part_units = ((uint32_t)d->regs_per_sm >> f->part_shift) >> f->unit_shift;
    f->compat_units = ((uint32_t)d->regs_per_sm >> f->compat_shift) >> f->unit_shift;
    f->thread_cap = (uint32_t)GPUOCC_FAST_STEPS << f->warp_shift;
    /* every allocation step of an allowed register count is in the table, and the file in units times
       64 stays below 2^32 (the reciprocals' exact range) */
    uint64_t top_step = (((uint64_t)d->regs_per_thread_max << warp_shift) + ((uint64_t)1 << unit_shift) - 1) >>
                        unit_shift;
    return powers & (top_step <= GPUOCC_FAST_STEPS) & (((uint32_t)d->regs_per_sm >> unit_shift) < ((uint32_t)1 << 26));
}

/* The same for any checked device: false also when its warp size or allocation unit is not a power of two. */
static inline bool gpuocc_nv_fast_init(struct gpuocc_nv_fast *f, const gpuocc_device *d)
{
    uint32_t ws = (uint32_t)d->warp_size, unit = (uint32_t)d->reg_alloc_unit;
    if (((ws & (ws - 1)) | (unit & (unit - 1))) != 0)
        return false;
    return gpuocc_nv_fast_init_shifts(f, d, (uint32_t)gpuocc_log2_exact(ws), (uint32_t)gpuocc_log2_exact(unit));
}

/* One launch's answer: gpuocc_result's fields in internal form (GPUOCC_NO_LIMIT for unlimited). */
struct gpuocc_nv_answer {
    int32_t blocks, warps_blocks, regs_blocks, smem_blocks, barrier_blocks;
    int32_t virtual_blocks; /* the sweeps fold it into their fixed limits */
    uint32_t warps_per_block;
    int64_t per_warp;      /* registers per warp */
    int64_t alloc;         /* shared memory per block */
    int64_t carveout;      /* shared memory per SM */
};

/* What a register count decides before the block size is known. */
struct gpuocc_nv_regs {
    int64_t per_warp;       /* registers per warp (regs x warp_size < 2^41, rounded up) */
    uint64_t step_regs;     /* the same, 0 past the per-thread maximum */
    bool over;              /* past the per-thread maximum: no block runs */
    uint32_t file_warps;    /* warps per SM the register file gives at that allocation */
    uint32_t compat_warps;  /* the same split as GP10x (reg_compat_sub_partitions) */
};

/* Branch-free where the launch decides (masks and conditional moves): a stream of random launches then
   mispredicts nothing.  Branches below depend on the device alone. */

static GPUOCC_ALWAYS_INLINE void gpuocc_nv_fast_regs(const struct gpuocc_nv_fast *f, int64_t regs,
                                                     struct gpuocc_nv_regs *r)
{
    int64_t unit_mask = ((int64_t)1 << f->unit_shift) - 1;
    int64_t per_warp = ((regs << f->warp_shift) + unit_mask) & ~unit_mask;
    r->per_warp = per_warp;
    r->over = regs > f->regs_per_thread_max;
    uint32_t g = (uint32_t)(per_warp >> f->unit_shift) & -(uint32_t)!r->over; /* <= GPUOCC_FAST_STEPS */
    r->step_regs = (uint64_t)g << f->unit_shift;
    r->file_warps = gpuocc_fast_div(f->part_units, g) << f->part_shift;
    r->compat_warps = gpuocc_fast_div(f->compat_units, g) << f->compat_shift;
}

/* Warps and registers for `threads` (1 .. thread_cap) with the register count's part `r`. */
static GPUOCC_ALWAYS_INLINE void gpuocc_nv_fast_threads(const struct gpuocc_nv_fast *f, uint32_t threads,
                                                        const struct gpuocc_nv_regs *r, struct gpuocc_nv_answer *a)
{
    uint32_t wpb = ((threads - 1) >> f->warp_shift) + 1; /* <= GPUOCC_FAST_STEPS */
    a->warps_per_block = wpb;
    a->per_warp = r->per_warp;
    bool fits_block = threads <= (uint32_t)f->max_threads_per_block;
    a->warps_blocks = (int32_t)gpuocc_fast_div(f->slots, wpb) & -(int32_t)fits_block;
    uint64_t parts = (uint64_t)1 << f->part_shift, block_regs = (uint64_t)f->regs_per_block;
    bool fits = r->step_regs * ((wpb + parts - 1) & -parts) <= block_regs;
    if (f->compat_parts > 0) {
        /* GP100: the block must also fit its GP10x siblings' layout */
        uint64_t compat = (uint64_t)1 << f->compat_shift;
        fits &= (r->step_regs * ((wpb + compat - 1) & -compat) <= block_regs) & (r->compat_warps >= wpb);
    }
    int32_t regs_blocks = (int32_t)gpuocc_fast_div(r->file_warps, wpb) & -(int32_t)fits;
    regs_blocks = r->step_regs == 0 ? GPUOCC_NO_LIMIT : regs_blocks;
    a->regs_blocks = regs_blocks & -(int32_t)!r->over;
}

/* Warps and registers for `threads` (1 .. thread_cap) and `regs` (>= 0). */
static GPUOCC_ALWAYS_INLINE void gpuocc_nv_fast_threads_regs(const struct gpuocc_nv_fast *f, uint32_t threads,
                                                             int64_t regs, struct gpuocc_nv_answer *a)
{
    struct gpuocc_nv_regs r;
    gpuocc_nv_fast_regs(f, regs, &r);
    gpuocc_nv_fast_threads(f, threads, &r, a);
}

/* Whether a block's `alloc` bytes (static + dynamic + reserved, rounded) are more than kernel `k` may have:
   its dynamic bytes over the opt-in attribute (`optin_bytes` less the static bytes by default), or the
   block over the per-block limit (`optin_total` or `block_total`, the reserved part included: the opt-in
   one once the largest block the kernel may launch passes `block_own`, the default limit less the
   reserved part).  Conditional expressions over values kept in registers: conditional moves. */
static GPUOCC_ALWAYS_INLINE bool gpuocc_nv_smem_too_much(const gpuocc_kernel *k, int64_t smem_static, int64_t smem_dynamic,
                                                        int64_t alloc, int64_t optin_bytes, int64_t optin_total,
                                                        int64_t block_total, int64_t block_own)
{
    int64_t dynamic_max = k->smem_dynamic_max_bytes, dynamic_default = optin_bytes - smem_static;
    GPUOCC_KEEP(dynamic_default);
    dynamic_max = GPUOCC_EITHER(dynamic_max < 0) ? dynamic_default : dynamic_max;
    bool optin = k->smem_optin != 0;
    bool large = smem_static + (GPUOCC_EITHER(dynamic_max > 0) ? dynamic_max : 0) > block_own;
    uint32_t use_optin = (uint32_t)optin & (uint32_t)large;
    GPUOCC_KEEP(use_optin);
    GPUOCC_KEEP(optin_total);
    int64_t limit = GPUOCC_EITHER(use_optin) ? optin_total : block_total;
    return (optin & (smem_dynamic > dynamic_max)) | (alloc > limit);
}

/* The same with the device's values from `q`. */
static GPUOCC_ALWAYS_INLINE bool gpuocc_nv_fast_smem_too_much(const struct gpuocc_nv_params *q, const gpuocc_kernel *k,
                                                             int64_t smem_static, int64_t smem_dynamic, int64_t alloc)
{
    int64_t reserved = q->smem_reserved, optin_bytes = q->smem_optin, block_bytes = q->smem_per_block;
    return gpuocc_nv_smem_too_much(k, smem_static, smem_dynamic, alloc, optin_bytes, optin_bytes + reserved,
                                   block_bytes + reserved, block_bytes - reserved);
}

/* Blocks the shared memory allows, from a->alloc and a->carveout already chosen: the per-block limit
   (opt-in, the dynamic maximum) and how many allocations the carveout holds. */
static GPUOCC_ALWAYS_INLINE void gpuocc_nv_fast_smem_blocks(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k,
                                                           int64_t smem_static, int64_t smem_dynamic,
                                                           struct gpuocc_nv_answer *a)
{
    int64_t alloc = a->alloc;
    bool too_much = gpuocc_nv_fast_smem_too_much(&f->params, k, smem_static, smem_dynamic, alloc);
    /* carveout <= 2^40 and alloc < 2^42: exact in doubles, and so is the quotient's floor (its rounding
       error is below 1 / alloc, the least distance from a non-integer quotient to the next integer) */
    double quotient = (double)a->carveout / (double)(alloc + (alloc == 0));
    double capped = quotient < (double)INT32_MAX ? quotient : (double)INT32_MAX; /* minsd */
    int32_t smem_blocks = gpuocc_select_i32(alloc == 0, GPUOCC_NO_LIMIT, (int32_t)capped);
    a->smem_blocks = smem_blocks & -(int32_t)!too_much;
}

/* Shared memory for static and dynamic bytes (both 0 .. GPUOCC_FAST_BYTES) of kernel `k`. */
static GPUOCC_ALWAYS_INLINE void gpuocc_nv_fast_smem(const struct gpuocc_nv_fast *f, const gpuocc_kernel *k,
                                                     int64_t smem_static, int64_t smem_dynamic,
                                                     struct gpuocc_nv_answer *a)
{
    int64_t unit_mask = ((int64_t)1 << f->smem_shift) - 1;
    int64_t alloc = (smem_static + smem_dynamic + f->smem_reserved + unit_mask) & ~unit_mask;
    a->alloc = alloc;
    int64_t carveout = f->smem_per_sm;
    if (f->carveout_count > 0) {
        /* the carveout holding both the preference and the block (gpuocc_nv_preferred_bytes) */
        int64_t percent = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT ? 100 : k->carveout_percent;
        int64_t preferred = percent * f->smem_per_sm / 100;
        int64_t chosen = gpuocc_nv_carveout_in(f->carveouts_kib, f->carveout_count, preferred > alloc ? preferred : alloc);
        carveout = chosen >= 0 ? chosen : carveout;
    }
    a->carveout = carveout;
    gpuocc_nv_fast_smem_blocks(f, k, smem_static, smem_dynamic, a);
}

static inline int32_t gpuocc_nv_fast_barriers_of(int32_t barriers_per_sm, int64_t barriers)
{
    /* barriers >= 0, barriers_per_sm < 2^20; a divide only past the table (no block names more than 16) */
    uint32_t per_sm = (uint32_t)barriers_per_sm;
    int32_t blocks = barriers <= GPUOCC_FAST_STEPS ? (int32_t)gpuocc_fast_div(per_sm, (uint32_t)barriers)
                                                   : (int32_t)(per_sm / (uint64_t)barriers);
    return ((per_sm == 0) | (barriers == 0)) ? GPUOCC_NO_LIMIT : blocks;
}

/* The same for barriers 0 .. 31 (the single calls' kernel check allows 16; the mask keeps the table's
   index in bounds whatever the caller checked), from the table alone and without a branch. */
static inline int32_t gpuocc_nv_fast_barriers_small(int32_t barriers_per_sm, int64_t barriers)
{
    uint32_t per_sm = (uint32_t)barriers_per_sm;
    int32_t blocks = (int32_t)gpuocc_fast_div(per_sm, (uint32_t)barriers & 31);
    return gpuocc_select_i32((per_sm == 0) | (barriers == 0), GPUOCC_NO_LIMIT, blocks);
}

static inline int32_t gpuocc_nv_fast_barriers(const gpuocc_device *d, int64_t barriers)
{
    return gpuocc_nv_fast_barriers_of(d->barriers_per_sm, barriers);
}

/* Blocks the virtual resources allow (gpuocc_rule_virtual): floor(per SM / per block), GPUOCC_NO_LIMIT when
   either is 0.  Without a branch on the launch: per_sm < 2^21 and virtual_resources < 2^31, so the rounded
   double quotient floors exactly (a quotient short of an integer n < 2^21 by at least 1 / virtual_resources
   >= 2^-31 stays short of it after rounding, half an ulp there being at most 2^-33). */
static inline int32_t gpuocc_nv_fast_virtual_of(int32_t per_sm, int64_t virtual_resources)
{
    double quotient = (double)per_sm / (double)(virtual_resources + (virtual_resources == 0));
    return gpuocc_select_i32((per_sm == 0) | (virtual_resources == 0), GPUOCC_NO_LIMIT, (int32_t)quotient);
}

/* The minimum over the six limits (the warp slots', the registers', the shared memory's, the blocks', the
   barriers' and the virtual resources') into a->blocks, and the resources that tie at it. */
static GPUOCC_ALWAYS_INLINE uint32_t gpuocc_nv_fast_combine(const struct gpuocc_nv_fast *f, struct gpuocc_nv_answer *a)
{
    int32_t slot_blocks = f->max_blocks_per_sm;
    int32_t blocks = gpuocc_min32(gpuocc_min32(gpuocc_min32(a->warps_blocks, a->regs_blocks),
                                               gpuocc_min32(a->smem_blocks, slot_blocks)),
                                  gpuocc_min32(a->barrier_blocks, a->virtual_blocks));
    a->blocks = blocks;
    return gpuocc_nv_limiters((uint32_t)blocks, (uint32_t)a->warps_blocks, (uint32_t)a->regs_blocks,
                              (uint32_t)a->smem_blocks, (uint32_t)slot_blocks, (uint32_t)a->barrier_blocks,
                              (uint32_t)a->virtual_blocks);
}

/* regs_per_block as gpuocc_rule_all reports it (saturated at INT32_MAX). */
static inline int32_t gpuocc_nv_fast_regs_per_block(const struct gpuocc_nv_answer *a)
{
    /* per_warp < 2^42, warps per block <= 64: the product fits */
    uint64_t regs = (uint64_t)a->per_warp * a->warps_per_block;
    return regs > INT32_MAX ? INT32_MAX : (int32_t)regs;
}

/* The fields of a result NVIDIA's rules do not fill: the other vendors' (no model, no waves per SIMD, no
   SGPR limit, no GPU-wide count) and the reserved words. */
static GPUOCC_ALWAYS_INLINE void gpuocc_nv_result_rest(gpuocc_result *r)
{
    r->model = 0;
    r->waves_per_simd = 0;
    r->limit_sgprs = GPUOCC_UNLIMITED;
    r->reserved0 = 0;
    r->reserved[0] = 0;
    r->reserved[1] = 0;
    r->workgroups_per_gpu = 0;
    r->reserved2 = 0;
}

/* The answer `a` (its six limits filled, the virtual resources' included) combined, as gpuocc_rule_all
   reports it: every field of `r` but size.  Field by field: a compound literal is zeroed first, by `rep stos`
   with some compilers (slow to start). */
static GPUOCC_ALWAYS_INLINE void gpuocc_nv_fast_result(const struct gpuocc_nv_fast *f, struct gpuocc_nv_answer *a,
                                                       gpuocc_result *r)
{
    uint32_t limiters = gpuocc_nv_fast_combine(f, a);
    int32_t warps = a->blocks * (int32_t)a->warps_per_block; /* at most the warp slots */
    r->limiters = limiters;
    r->blocks_per_sm = a->blocks;
    r->warps_per_sm = warps;
    r->max_warps_per_sm = (int32_t)f->slots;
    r->warps_per_block = (int32_t)a->warps_per_block;
    r->occupancy = (double)warps / (double)f->slots;
    r->limit_warps = a->warps_blocks;
    r->limit_regs = gpuocc_public_limit(a->regs_blocks);
    r->limit_smem = gpuocc_public_limit(a->smem_blocks);
    r->limit_blocks = f->max_blocks_per_sm;
    r->limit_barriers = gpuocc_public_limit(a->barrier_blocks);
    r->regs_per_block = gpuocc_nv_fast_regs_per_block(a);
    r->smem_per_block_bytes = a->alloc;
    r->smem_per_sm_bytes = a->carveout;
    r->limit_virtual_resources = gpuocc_public_limit(a->virtual_blocks);
    gpuocc_nv_result_rest(r);
}

/* ---- The prepared state (gpuocc_prepare): lib/nvidia/batch.c fills it and runs batches on it,
   lib/nvidia/fast.c answers single calls from it. ---- */

/* Shared memory per SM in KiB the carveout table covers (every NVIDIA carveout so far is <= 228 KiB). */
#define GPUOCC_NV_KIB_MAX 256
/* Warp slots per SM the occupancy table covers (64 on every NVIDIA device so far). */
#define GPUOCC_NV_SLOTS_MAX 128

/* struct gpuocc_nv_fast without its pointers (params.fast: whether it applies to the device at all) and
   the carveouts: everything the prepared single call reads, under its own short tag (quick_tag). */
struct gpuocc_nv_single {
    struct gpuocc_nv_params params;
    int32_t carveouts_kib[GPUOCC_MAX_CARVEOUTS];
};
_Static_assert(sizeof(struct gpuocc_nv_single) % sizeof(uint64_t) == 0, "the block is whole words");

/* carveout_percent + 1: 0 (GPUOCC_CARVEOUT_DEFAULT) .. 101, and two entries of padding */
#define GPUOCC_NV_PERCENTS 104
/* A table entry of the prepared single call: the value in the low half, the value ^ a seal in the high
   half (GPUOCC_NV_SEAL for a 64-bit entry, its low 16 bits for a 32-bit one): a call XORs the halves of
   every entry it reads, and any byte changed in one of them changes that XOR. */
#define GPUOCC_NV_SEAL 0x5bd1e995u

static inline uint64_t gpuocc_nv_sealed(uint32_t value)
{
    return (uint64_t)value | (uint64_t)(value ^ GPUOCC_NV_SEAL) << 32;
}

static inline uint32_t gpuocc_nv_sealed16(uint16_t value)
{
    return (uint32_t)value | (uint32_t)(uint16_t)(value ^ GPUOCC_NV_SEAL) << 16;
}

/* What the prepared single call reads (gpuocc_nv_quick_fill): the few device fields it needs, under their
   own tag (and the state's), and tables where the rules would divide or search (struct
   gpuocc_nv_quick_tables), each entry sealed; every index is bounded where it is used by the kernel's
   checks or the tagged fields. */
struct gpuocc_nv_quick {
    uint32_t smem_shift, slots, carveout_count, reserved1; /* reserved1: zero */
    uint32_t max_threads_per_block, regs_per_thread_max, max_blocks_per_sm, virtual_per_sm, barriers_per_sm;
    /* shared memory, bytes (each below 2^30 where the tag matches): per SM, reserved per block, the opt-in
       limit, and the two limits on a block's allocation (opt-in or not, the reserved part included), and
       the default per-block limit less the reserved part (a block's own bytes past it need the opt-in) */
    uint32_t smem_per_sm, smem_reserved, smem_optin, optin_total, block_total;
    int32_t block_own, reserved2;
    /* gpuocc_nv_quick_sum of the words above; one more when the tables cannot hold the device exactly
       (then no call matches it, and every call takes the plain path) */
    uint64_t tag;
};

/* The prepared single call's tables (outside the state's tag, each entry sealed). */
struct gpuocc_nv_quick_tables {
    /* by register allocation step of a warp, 0 .. GPUOCC_FAST_STEPS, then one entry past the per-thread
       maximum (no block runs): the warps per SM the register file holds at that step (bits 0 .. 15), the
       most warps per block that fit (bits 16 .. 23), and 0xff in bits 24 .. 31 at step 0 (no registers, no
       limit) */
    uint64_t regs[GPUOCC_FAST_STEPS + 2];
    /* the smallest carveout, in KiB, holding the kernel's preference (by carveout_percent + 1) and holding
       a block of so many KiB (by KiB, the last entry: GPUOCC_NV_KIB_MAX or more); 0xffff where none does
       (then smem_per_sm, as on a device without carveouts).  The carveout holding both is the larger of the
       two. */
    uint32_t carveout_by_percent[GPUOCC_NV_PERCENTS];
    uint32_t carveout_by_kib[GPUOCC_NV_KIB_MAX + 2];
};
#define GPUOCC_NV_QUICK_WORDS (offsetof(struct gpuocc_nv_quick, tag) / sizeof(uint64_t))
_Static_assert(GPUOCC_NV_QUICK_WORDS == 8, "the tagged fields are eight words");

/* A plain sum of `words` 64-bit words at `p` from the seed, unrolled (`words` is a constant where it is
   inlined): any one word changed changes it (by the change itself), so does any byte.  The tag of the
   blocks a single call or a short batch reads; the state's whole tag weighs the words by position too. */
static GPUOCC_ALWAYS_INLINE uint64_t gpuocc_nv_word_sum(const void *p, size_t words)
{
    const unsigned char *b = (const unsigned char *)p;
#if GPUOCC_VECTORS
    gpuocc_u64x2 sum = {GPUOCC_TAG_SEED, 0};
#pragma GCC unroll 16
    for (size_t i = 0; i + 2 <= words; i += 2) {
        gpuocc_u64x2 v;
        memcpy(&v, b + i * sizeof(uint64_t), sizeof v);
        sum += v;
    }
    uint64_t last = 0;
    if (words % 2)
        memcpy(&last, b + (words - 1) * sizeof last, sizeof last);
    return sum[0] + sum[1] + last;
#else
    uint64_t sum = GPUOCC_TAG_SEED;
    for (size_t i = 0; i < words; i++) {
        uint64_t word;
        memcpy(&word, b + i * sizeof word, sizeof word);
        sum += word;
    }
    return sum;
#endif
}

static GPUOCC_ALWAYS_INLINE uint64_t gpuocc_nv_quick_sum(const struct gpuocc_nv_quick *q)
{
    return gpuocc_nv_word_sum(q, GPUOCC_NV_QUICK_WORDS);
}

struct GPUOCC_MAY_ALIAS gpuocc_nv_prepared {
    gpuocc_device device;          /* checked by gpuocc_prepare; first, as every vendor's state */
    struct gpuocc_nv_single single;
    uint64_t quick_tag; /* gpuocc_nv_quick_tag of `single` alone: what a short batch reads */
    struct gpuocc_nv_quick quick; /* what the prepared single call reads, its tables below */
    uint64_t tag;   /* gpuocc_state_tag of the words above: what a short batch and the plain path read */
    uint64_t check; /* gpuocc_state_sum of the whole state: a long batch reads the tables too */
    /* by warps per SM: warps / warp slots, computed as gpuocc_rule_all does (when slots <= SLOTS_MAX) */
    double occupancy[GPUOCC_NV_SLOTS_MAX + 1];
    /* the prepared single call's tables (the batch's scalar launches look their carveout up there too) */
    struct gpuocc_nv_quick_tables quick_tables;
};
_Static_assert(offsetof(struct gpuocc_nv_prepared, tag) % sizeof(uint64_t) == 0, "the tagged words are whole");
_Static_assert(offsetof(struct gpuocc_nv_prepared, quick_tag) ==
                   offsetof(struct gpuocc_nv_prepared, single) + sizeof(struct gpuocc_nv_single),
               "the quick tag follows its block");

/* Fill `q` for the device of `f` (gpuocc_nv_fast_init done), or with a tag no call matches when it is not
   of the common shape (32-thread warps, 256-register allocation units: the call's constants) or the tables
   cannot hold it exactly (more than GPUOCC_NV_SLOTS_MAX warp slots, a carveout of GPUOCC_NV_KIB_MAX KiB or
   more, 2^30 bytes of shared memory per SM or more, a register file of more than 65,535 warps). */
void gpuocc_nv_quick_fill(const struct gpuocc_nv_fast *f, struct gpuocc_nv_quick *q,
                          struct gpuocc_nv_quick_tables *t);

/* the state as read in place (GPUOCC_MAY_ALIAS) */
typedef struct gpuocc_nv_prepared gpuocc_nv_state;

static inline uint64_t gpuocc_nv_state_tag(const gpuocc_nv_state *p)
{
    return gpuocc_state_tag(p, offsetof(struct gpuocc_nv_prepared, tag) / sizeof(uint64_t));
}

/* The batch's block's own tag (gpuocc_nv_word_sum). */
static GPUOCC_ALWAYS_INLINE uint64_t gpuocc_nv_quick_tag(const gpuocc_nv_state *p)
{
    return gpuocc_nv_word_sum(&p->single, sizeof p->single / sizeof(uint64_t));
}

/* The shared part of the fast evaluation from the state's stored copy. */
static GPUOCC_ALWAYS_INLINE void gpuocc_nv_fast_from_state(struct gpuocc_nv_fast *f, const gpuocc_nv_state *p)
{
    f->d = &p->device;
    f->carveouts_kib = p->single.carveouts_kib;
    f->params = p->single.params;
}

#endif
