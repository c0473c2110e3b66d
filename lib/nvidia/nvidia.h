/* NVIDIA's rules and data: what the files of lib/nvidia/ share, and the table the API calls
   (gpuocc_nvidia_vendor).  Uses the ground layer only. */
#ifndef GPUOCC_NVIDIA_H
#define GPUOCC_NVIDIA_H

#include "../core/core.h"

/* The values NVIDIA's rule reads: the public gpuocc_prepared_nvidia (include/gpuocc.h), derived once from a
   checked device by gpuocc_nv_derive (below). */
typedef gpuocc_prepared_nvidia gpuocc_nv_values;

/* Bounded reads of the values.  A prepared state is the caller's memory: every value the rule uses as a
   shift, a divisor, an index or a factor is read through one of these, so that a changed value gives some
   answer and never undefined behaviour.  Each bound holds every value a checked device can give (the
   ranges of gpuocc_nv_check_device), so for such a device they change nothing. */
#define GPUOCC_NV_SMALL 0x1fffff                            /* counts up to 2^20 (the device checks' bound) */
#define GPUOCC_NV_BYTES ((((int64_t)1) << 41) - 1)          /* byte counts up to 2^40 */
static inline int64_t gpuocc_nv_small(int32_t x)
{
    return (int64_t)((uint32_t)x & GPUOCC_NV_SMALL);
}
static inline int64_t gpuocc_nv_int31(int32_t x)
{
    return (int64_t)((uint32_t)x & INT32_MAX);
}
static inline int64_t gpuocc_nv_bytes(int64_t x)
{
    return x & GPUOCC_NV_BYTES;
}
/* a unit or divisor: at least 1 */
static inline int64_t gpuocc_nv_unit(int32_t x)
{
    int64_t u = gpuocc_nv_small(x);
    return u | (u == 0);
}
/* sub-partition counts (1 .. 64) */
static inline int64_t gpuocc_nv_parts(int32_t x)
{
    int64_t p = (int64_t)((uint32_t)x & 127);
    return p | (p == 0);
}
static inline int32_t gpuocc_nv_compat(const gpuocc_nv_values *v)
{
    return (int32_t)((uint32_t)v->reg_compat_sub_partitions & 127);
}
static inline int32_t gpuocc_nv_carveout_count(const gpuocc_nv_values *v)
{
    uint32_t n = (uint32_t)v->carveout_count;
    return n > GPUOCC_MAX_CARVEOUTS ? GPUOCC_MAX_CARVEOUTS : (int32_t)n;
}

/* A unit as the rule divides by it: 2^shift where it has a shift, else the unit (at least 1). */
static inline int64_t gpuocc_nv_unit_of(int32_t unit, int32_t shift)
{
    return shift >= 0 ? (int64_t)1 << (shift & 31) : gpuocc_nv_unit(unit);
}

/* floor(x / unit) for 0 <= x < 2^62, the unit given with its shift (gpuocc_nv_values): a shift where the
   unit is a power of two (every NVIDIA GPU; a branch on the device alone), else a division. */
static inline int64_t gpuocc_nv_div_unit(int64_t x, int32_t unit, int32_t shift)
{
    if (GPUOCC_LIKELY(shift >= 0))
        return x >> (shift & 31);
    return (int64_t)((uint64_t)x / (uint64_t)gpuocc_nv_unit(unit));
}
/* x rounded down to a multiple of the unit, 0 <= x < 2^62. */
static inline int64_t gpuocc_nv_round_down(int64_t x, int32_t unit, int32_t shift)
{
    if (GPUOCC_LIKELY(shift >= 0))
        return x >> (shift & 31) << (shift & 31);
    uint64_t u = (uint64_t)gpuocc_nv_unit(unit);
    return (int64_t)((uint64_t)x / u * u);
}

/* x rounded up to a multiple of the unit, 0 <= x < 2^62. */
static inline int64_t gpuocc_nv_round_up(int64_t x, int32_t unit, int32_t shift)
{
    if (GPUOCC_LIKELY(shift >= 0)) {
        int64_t mask = ((int64_t)1 << (shift & 31)) - 1;
        return (x + mask) & ~mask;
    }
    uint64_t u = (uint64_t)gpuocc_nv_unit(unit);
    return (int64_t)(((uint64_t)x + u - 1) / u * u); /* in unsigned arithmetic: a changed state's x wraps */
}

/* The resources whose limit ties at `blocks` (GPUOCC_LIMIT_* bits) among NVIDIA's six, each as the caller
   holds it (signed or unsigned: equality is the same either way). */
static inline uint32_t gpuocc_nv_limiters(uint32_t blocks, uint32_t warps, uint32_t regs, uint32_t smem,
                                          uint32_t slots, uint32_t barriers, uint32_t virtual_)
{
#if defined(__SSE2__)
    /* the first four resources are bits 0 .. 3: one compare of four lanes */
    __m128i tie = _mm_cmpeq_epi32(_mm_setr_epi32((int32_t)warps, (int32_t)regs, (int32_t)smem, (int32_t)slots),
                                  _mm_set1_epi32((int32_t)blocks));
    return (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(tie)) | (uint32_t)(barriers == blocks) << GPUOCC_RESOURCE_BARRIERS |
           (uint32_t)(virtual_ == blocks) << GPUOCC_RESOURCE_VIRTUAL;
#else
    return (uint32_t)(warps == blocks) << GPUOCC_RESOURCE_WARPS | (uint32_t)(regs == blocks) << GPUOCC_RESOURCE_REGISTERS |
           (uint32_t)(smem == blocks) << GPUOCC_RESOURCE_SMEM | (uint32_t)(slots == blocks) << GPUOCC_RESOURCE_BLOCKS |
           (uint32_t)(barriers == blocks) << GPUOCC_RESOURCE_BARRIERS |
           (uint32_t)(virtual_ == blocks) << GPUOCC_RESOURCE_VIRTUAL;
#endif
}

/* The most threads a block of a checked kernel may have: the device's maximum, or the kernel's own launch
   bound (max_threads_per_block: __launch_bounds__, cudaFuncAttributes::maxThreadsPerBlock; a larger block
   fails to launch) when lower. */
static inline int64_t gpuocc_nv_threads_max(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    return gpuocc_bounded(gpuocc_nv_small(v->max_threads_per_block), k->max_threads_per_block);
}

/* The shared memory per SM a kernel's carveout preference asks for (GPUOCC_CARVEOUT_DEFAULT: all of it;
   else that percentage of it, rounded down), for a checked kernel.  Without a branch: the default reads as
   100 %. */
static inline int64_t gpuocc_nv_preferred_bytes(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    int64_t percent = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT ? 100 : k->carveout_percent;
    return percent * gpuocc_nv_bytes(v->smem_per_sm_bytes) / 100;
}

/* The smallest of `count` carveouts (`kib`, ascending, the unused entries zero; count 0 .. 16, any order
   read safely) of at least `bytes` (>= 0); -1 when none is that large. */
static inline int64_t gpuocc_nv_carveout_in(const int32_t *kib, int32_t count, int64_t bytes)
{
#if defined(__SSE2__)
    /* Entries are ascending and the unused ones zero: the used entries below the KiB needed are a prefix
       of the mask `below`, and the answer the first used entry past it.  Past every carveout (<= 2^30 KiB)
       either way when the KiB needed pass INT32_MAX. */
    int64_t need_kib = (bytes >> 10) + ((bytes & 1023) != 0);
    __m128i need = _mm_set1_epi32((int32_t)(need_kib < INT32_MAX ? need_kib : INT32_MAX));
    const __m128i *c = (const __m128i *)(const void *)kib;
    __m128i low = _mm_packs_epi32(_mm_cmpgt_epi32(need, _mm_loadu_si128(c)),
                                  _mm_cmpgt_epi32(need, _mm_loadu_si128(c + 1)));
    __m128i high = _mm_packs_epi32(_mm_cmpgt_epi32(need, _mm_loadu_si128(c + 2)),
                                   _mm_cmpgt_epi32(need, _mm_loadu_si128(c + 3)));
    uint32_t below = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(low, high));
    uint32_t used = ((uint32_t)1 << count) - 1;
    uint32_t index = (uint32_t)gpuocc_log2_exact(~(below & used)); /* <= carveout_count */
    /* read whatever the answer (an entry of the 16, a conditional move then, not a branch on the launch) */
    int64_t found = (int64_t)kib[index & (GPUOCC_MAX_CARVEOUTS - 1)] * 1024;
    return index < (uint32_t)count ? found : -1;
#else
    for (int32_t i = 0; i < count; i++)
        if ((int64_t)kib[i] * 1024 >= bytes)
            return (int64_t)kib[i] * 1024;
    return -1;
#endif
}

/* The same on the values' carveouts. */
static inline int64_t gpuocc_nv_carveout_at_least(const gpuocc_nv_values *v, int64_t bytes)
{
    return gpuocc_nv_carveout_in(v->carveouts_kib, gpuocc_nv_carveout_count(v), bytes);
}

/* The rule (lib/nvidia/rule.c), on the values, in two parts every query runs in turn: the launches no limit
   count applies to (another vendor's field set, tensor memory the device lacks, a per-block maximum passed,
   a block's shared memory that saturated: the status, the input in *input and its limit in *limit, 0 and 0
   when none), then every field of `r` but size, for a launch the first part accepted: the blocks, each
   limit, the limiters, the allocations, and for a launch that fits no block the input over a limit
   (exceeded, exceeded_limit).  The kernel's fields are checked.  The first part is also split: another
   vendor's field (the kernel alone), then the rest (gpuocc_nv_launch_refusal). */
int32_t gpuocc_nv_refusal_values(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
int32_t gpuocc_nv_foreign_input(const gpuocc_kernel *k);
int32_t gpuocc_nv_launch_refusal(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
void gpuocc_nv_compute(const gpuocc_nv_values *v, const gpuocc_kernel *k, gpuocc_result *r);
/* The single call on the values (lib/nvidia/rule.c).  Its common case, a kernel and a result of the current
   layout whose fields pass in one pass (gpuocc_nv_kernel_plain): the refusals, then the rule writing the
   caller's result (a refusal writes exceeded and exceeded_limit only).  Any other call is `checked`'s, with
   the same arguments: the API's checks that name the status (passed in, the API being the layer above; a
   call in tail position, so the API's entry points need no frame of their own). */
typedef int32_t (*gpuocc_nv_single_fn)(const gpuocc_nv_values *v, const gpuocc_kernel *kernel, gpuocc_result *result);
int32_t gpuocc_nv_occupancy(const gpuocc_nv_values *v, const gpuocc_kernel *kernel, gpuocc_result *result,
                            gpuocc_nv_single_fn checked);

/* Whether a kernel sets no field of another vendor and no reserved word: the words that must be zero on NVIDIA
   (bytes 52 .. 96: AMD's fields, reserved0, reserved, Intel's; reserved2 at 100; 108 .. 128: dvgpr, AMD's
   compiler inputs), in one pass. */
_Static_assert(offsetof(gpuocc_kernel, agprs) == 52 && offsetof(gpuocc_kernel, virtual_resources) == 96 &&
                   offsetof(gpuocc_kernel, reserved2) == 100 && offsetof(gpuocc_kernel, tmem_columns) == 104 &&
                   offsetof(gpuocc_kernel, dvgpr) == 108 && offsetof(gpuocc_kernel, flat_workgroup_size_min) == 124 &&
                   sizeof(gpuocc_kernel) == 128,
               "the words the one-pass test reads as zero are another vendor's fields and the reserved ones");
static inline bool gpuocc_nv_kernel_foreign_zero(const gpuocc_kernel *k)
{
#if defined(__SSE2__)
    const unsigned char *p = (const unsigned char *)k;
    __m128i zero = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + 48)),
                                 _mm_setr_epi32(0, -1, -1, -1));
    zero = _mm_or_si128(zero, _mm_loadu_si128((const __m128i *)(const void *)(p + 64)));
    zero = _mm_or_si128(zero, _mm_loadu_si128((const __m128i *)(const void *)(p + 80)));
    zero = _mm_or_si128(zero, _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + 96)),
                                            _mm_setr_epi32(0, -1, 0, -1)));
    zero = _mm_or_si128(zero, _mm_loadu_si128((const __m128i *)(const void *)(p + 112)));
    return _mm_movemask_epi8(_mm_cmpeq_epi32(zero, _mm_setzero_si128())) == 0xffff;
#else
    uint32_t zero = (uint32_t)(k->agprs | k->sgprs | k->wave_size | k->cu_mode | k->model | k->rocm_version |
                               k->reserved0 | k->reserved2 | k->dvgpr | k->sub_group | k->grf | k->trap_handler |
                               k->waves_per_eu_min | k->waves_per_eu_max | k->flat_workgroup_size_min) |
                    (uint32_t)(k->reserved[0] != 0);
    return zero == 0;
#endif
}

/* Whether a kernel of the current layout passes every field check (gpuocc_kernel_check) and sets no field of
   another vendor (the refusal's first part), in one pass without a branch per field: the common case.  False
   says only "take the checks that name the status". */
static inline bool gpuocc_nv_kernel_plain(const gpuocc_kernel *k)
{
#if defined(__SSE2__)
    /* threads >= 1, registers >= 0, barriers >= 0 (bytes 4 .. 16) */
    __m128i low = _mm_cmpgt_epi32(_mm_loadu_si128((const __m128i *)(const void *)k), _mm_setr_epi32(INT32_MIN, 0, -1, -1));
    int fine = (int)((_mm_movemask_epi8(low) & 0xfff0) == 0xfff0);
#else
    int fine = (k->threads_per_block >= 1) & (k->regs_per_thread >= 0) & (k->barriers >= 0);
#endif
    /* the other fields whose domain starts at 0 (the attribute at -1): one sign */
    int64_t sign = k->smem_static_bytes | k->smem_dynamic_bytes | (int64_t)((uint64_t)k->smem_dynamic_max_bytes + 1) |
                   k->max_threads_per_block | k->virtual_resources;
    return (int)gpuocc_nv_kernel_foreign_zero(k) & fine & (sign >= 0) & ((uint32_t)k->carveout_percent + 1 <= 101) &
           ((uint32_t)k->smem_optin <= 1) & gpuocc_tmem_columns_ok(k->tmem_columns);
}

/* The rule's parts, on the values (lib/nvidia/rule.c), for the queries that use them one at a time: warps
   per block, registers per warp, a block's shared memory and the carveout it gets, and each resource's limit
   (GPUOCC_NO_LIMIT where none). */
int64_t gpuocc_nv_warps_per_block(const gpuocc_nv_values *v, int64_t threads);
int64_t gpuocc_nv_regs_per_warp(const gpuocc_nv_values *v, int64_t regs);
int64_t gpuocc_nv_smem_alloc(const gpuocc_nv_values *v, int64_t smem_static, int64_t smem_dynamic);
int64_t gpuocc_nv_carveout_for(const gpuocc_nv_values *v, const gpuocc_kernel *k, int64_t alloc);
int32_t gpuocc_nv_registers_limit(const gpuocc_nv_values *v, int64_t threads, int64_t regs);
int32_t gpuocc_nv_smem_limit(const gpuocc_nv_values *v, const gpuocc_kernel *k);
int32_t gpuocc_nv_barriers_limit(const gpuocc_nv_values *v, int64_t barriers);
int32_t gpuocc_nv_virtual_limit(const gpuocc_nv_values *v, int64_t virtual_resources);
/* The opt-in attribute's dynamic shared memory limit, and the per-block limit on the allocation. */
int64_t gpuocc_nv_dynamic_max(const gpuocc_nv_values *v, const gpuocc_kernel *k);
int64_t gpuocc_nv_smem_block_limit(const gpuocc_nv_values *v, const gpuocc_kernel *k);
/* The carveout a kernel prefers: the smallest holding its share of smem_per_sm_bytes (all of it by default),
   smem_per_sm_bytes on a device without carveouts. */
int64_t gpuocc_nv_preferred_carveout(const gpuocc_nv_values *v, const gpuocc_kernel *k);
/* The top granule boundary: any byte count above it gives a block larger than any limit allows. */
int64_t gpuocc_nv_smem_search_top(const gpuocc_nv_values *v);
/* The inverse queries, in closed form: the answer, or GPUOCC_ERR_UNSATISFIABLE (output untouched). */
int32_t gpuocc_nv_smem_dynamic_available(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t want,
                                         int64_t *bytes);
int32_t gpuocc_nv_regs_max_for_blocks(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t want, int32_t *regs);

/* The batch's vector loop (lib/nvidia/rule_avx2.c), where the processor, the compiler and the build have one:
   the rule for eight launches at a time.  gpuocc_nv_batch_lanes gives the loop for this processor and these
   values and base kernel (one with no field of another vendor), or NULL: the scalar rule then.  The loop fills
   every requested column of rows [0, count rounded down to a multiple of 8) and returns that count; for each
   launch of those it does not answer itself (a refusal, a field outside its lanes' ranges) it calls
   row(context, i), the scalar rule's row, after writing its own.  GPUOCC_SIMD=0 (meson's simd option
   disabled) builds none. */
#if !defined(GPUOCC_SIMD)
#define GPUOCC_SIMD 1
#endif
#if GPUOCC_SIMD && defined(__x86_64__) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9))
#define GPUOCC_NV_AVX2 1
#else
#define GPUOCC_NV_AVX2 0
#endif
typedef void (*gpuocc_nv_row_fn)(void *context, size_t i);
typedef size_t (*gpuocc_nv_lanes_fn)(const gpuocc_nv_values *v, const gpuocc_kernel *k, const gpuocc_batch *b,
                                     size_t count, gpuocc_nv_row_fn row, void *context);
gpuocc_nv_lanes_fn gpuocc_nv_batch_lanes(const gpuocc_nv_values *v, const gpuocc_kernel *k);

/* The same on a checked device (the values derived first): the vendor table's entries, the per-resource
   functions' and next steps'. */
int32_t gpuocc_nv_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
void gpuocc_nv_compute_device(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);
int32_t gpuocc_rule_warps(const gpuocc_device *d, int64_t threads);
int32_t gpuocc_rule_registers(const gpuocc_device *d, int64_t threads, int64_t regs);
int32_t gpuocc_rule_smem(const gpuocc_device *d, const gpuocc_kernel *k);
int32_t gpuocc_rule_barriers(const gpuocc_device *d, int64_t barriers);
int64_t gpuocc_rule_regs_per_warp(const gpuocc_device *d, int64_t regs);
int64_t gpuocc_rule_smem_alloc(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic);
int64_t gpuocc_rule_carveout(const gpuocc_device *d, const gpuocc_kernel *k);
int32_t gpuocc_nv_smem_dynamic_available_device(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,
                                                int64_t *bytes);
int32_t gpuocc_nv_regs_max_for_blocks_device(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,
                                             int32_t *regs);

/* The block-size search on checked structs (lib/nvidia/search.c): the best block size and its blocks per
   SM (0 and 0 when none runs), or the rule's error as gpuocc_best_block_table / _callback document it. */
int32_t gpuocc_nv_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                             int32_t *threads, int32_t *blocks);
/* NVIDIA's device checks (lib/nvidia/device.c): the status naming the first bad field, and the same answer
   (valid or not) in one branch-free pass for a device in the current layout. */
int32_t gpuocc_nv_check_device(const gpuocc_device *d);
/* gpuocc_nv_check_device's answer (valid or not) in one pass, for a device of the current layout. */
bool gpuocc_nv_device_fine(const gpuocc_device *d);

/* Named barriers a block may use when the device does not say (PTX ISA, "bar, barrier": ids 0..15). */
#define GPUOCC_NV_BARRIERS_PER_BLOCK 16
int32_t gpuocc_nv_barriers_per_block_max(const gpuocc_device *d); /* the field, or 16 for 0 */

/* The values NVIDIA's rule reads (gpuocc_prepared_nvidia), derived from a checked NVIDIA device: what
   gpuocc_prepare stores and every other query derives on its own device. */
static inline int32_t gpuocc_nv_shift_of(int32_t unit)
{
    /* unit >= 1 on a checked device: the lowest set bit's position when it is the only one */
    return (unit & (unit - 1)) == 0 ? gpuocc_log2_exact((uint64_t)(uint32_t)unit) : -1;
}
/* x / unit on a checked device (x >= 0, unit >= 1), the unit's shift given */
static inline int32_t gpuocc_nv_derive_div(int32_t x, int32_t unit, int32_t shift)
{
    return shift >= 0 ? x >> shift : x / unit;
}
/* The part of the values the refusals read (gpuocc_nv_launch_refusal): all a query that only checks a launch
   against the device needs derived. */
static inline void gpuocc_nv_derive_refusal(const gpuocc_device *d, gpuocc_prepared_nvidia *v)
{
    v->smem_alloc_unit_bytes = d->smem_alloc_unit_bytes;
    v->smem_alloc_shift = gpuocc_nv_shift_of(d->smem_alloc_unit_bytes);
    v->barriers_per_block_max = d->barriers_per_block_max > 0 ? d->barriers_per_block_max : GPUOCC_NV_BARRIERS_PER_BLOCK;
    v->tmem_columns_per_sm = d->tmem_columns_per_sm;
    v->smem_per_block_bytes = d->smem_per_block_bytes;
    v->smem_reserved_per_block_bytes = d->smem_reserved_per_block_bytes;
}
static inline void gpuocc_nv_derive(const gpuocc_device *d, gpuocc_prepared_nvidia *v)
{
    gpuocc_nv_derive_refusal(d, v);
    int32_t warp_shift = gpuocc_nv_shift_of(d->warp_size), part_shift = gpuocc_nv_shift_of(d->sub_partitions);
    int32_t compat = d->reg_compat_sub_partitions;
    int32_t compat_shift = compat > 0 ? gpuocc_nv_shift_of(compat) : -1;
    v->warp_size = d->warp_size;
    v->warp_shift = warp_shift;
    v->reg_alloc_unit = d->reg_alloc_unit;
    v->reg_alloc_shift = gpuocc_nv_shift_of(d->reg_alloc_unit);
    v->sub_partitions = d->sub_partitions;
    v->sub_partition_shift = part_shift;
    v->reg_compat_sub_partitions = compat;
    v->reg_compat_shift = compat_shift;
    v->max_threads_per_block = d->max_threads_per_block;
    v->max_warps_per_sm = gpuocc_nv_derive_div(d->max_threads_per_sm, d->warp_size, warp_shift);
    v->max_blocks_per_sm = d->max_blocks_per_sm;
    v->regs_per_thread_max = d->regs_per_thread_max;
    v->regs_per_block = d->regs_per_block;
    v->regs_per_sub_partition = gpuocc_nv_derive_div(d->regs_per_sm, d->sub_partitions, part_shift);
    v->regs_per_compat_sub_partition = compat > 0 ? gpuocc_nv_derive_div(d->regs_per_sm, compat, compat_shift) : 0;
    v->barriers_per_sm = d->barriers_per_sm;
    v->virtual_resources_per_sm = d->virtual_resources_per_sm;
    v->carveout_count = d->carveout_count;
    memcpy(v->carveouts_kib, d->carveouts_kib, sizeof v->carveouts_kib);
    v->smem_per_sm_bytes = d->smem_per_sm_bytes;
    v->smem_per_block_optin_bytes = d->smem_per_block_optin_bytes;
    memset(v->reserved, 0, sizeof v->reserved);
}



/* The vendor table's searches (struct gpuocc_vendor): the block-size search with its minimum grid
   (lib/nvidia/search.c), the next step (lib/nvidia/next_step.c), the sweep's thresholds and range
   (lib/nvidia/steps.c). */
int32_t gpuocc_nv_best_block_grid(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                                  int32_t *threads, int32_t *min_grid);
int32_t gpuocc_nv_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                            int64_t *shed);
int32_t gpuocc_nv_step_levers(const gpuocc_device *d, const gpuocc_kernel *k, struct gpuocc_lever *levers);
int64_t gpuocc_nv_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to,
                             int32_t bmax);
void gpuocc_nv_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from, int64_t *to,
                           int64_t *step);

/* Thread-block clusters (lib/nvidia/clusters.c): the vendor table's cluster_size_max and gpc_layout. */
int32_t gpuocc_nv_cluster_size_max(const gpuocc_device *d, int32_t nonportable);
int32_t gpuocc_nv_gpc_layout(const char *key, gpuocc_gpc_layout *layout);

/* NVIDIA's catalog part (lib/nvidia/catalog.c), per-resource rules (lib/nvidia/limits.c) and the whole
   table (lib/nvidia/vendor.c). */
const struct gpuocc_catalog_part *gpuocc_nvidia_catalog(void);
const struct gpuocc_vendor_rules *gpuocc_nvidia_vendor_rules(void);
const struct gpuocc_vendor *gpuocc_nvidia_vendor(void);

#endif
