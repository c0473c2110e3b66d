/*
 * NVIDIA's rule (lib/nvidia/rule.c) for eight launches at a time with AVX2: the batch's one hand-written loop
 * for this instruction set, chosen at run time (gpuocc_nv_batch_lanes) where the processor has AVX2, the
 * device's values fit the lanes and the simd option left it on.  It answers the launches it calls regular
 * exactly as the scalar rule does (tests/test_simd.c holds them equal on random launches over every catalog
 * device, tests/fuzz/fuzz_rule.c too); every other launch (a refusal, a field outside the lanes' ranges, a
 * launch that fits no block when the batch asks which input is over its limit) it leaves to the scalar rule,
 * row by row.
 *
 * The lanes are 32-bit: a regular launch has at most 2^20 threads and registers per thread and less than 2^29
 * bytes of static and of dynamic shared memory, and an eligible device's capacities are below 2^24, so every
 * quotient is a single-precision division whose dividend is below 2^24, which is exact once truncated (the
 * error of the rounded quotient a / b is below 1 / b, its distance to the next integer); the occupancy is the
 * scalar rule's double division.
 */
#include "nvidia.h"

#if GPUOCC_NV_AVX2

#include <immintrin.h>

#define TARGET __attribute__((target("avx2")))

/* What a batch's launches share, as the lanes read it. */
struct lanes {
    __m256i max_threads, max_warps, slots, regs_max, barriers_max;
    __m128i warp_shift, unit_shift, part_shift, compat_shift, smem_shift;
    __m256i unit_mask, part_mask, compat_mask, smem_mask, parts, compat_parts;
    __m256i per_part, compat_per_part, regs_per_block_lo, smem_reserved, per_block, optin_bytes, per_sm;
    __m256i preferred, carveouts_lo, carveouts_hi, carveout_count, barriers_per_sm, virtual_per_sm;
    __m256i dynamic_max; /* the base kernel's attribute, or -1 (then opt-in - static, per launch) */
    __m256d max_warps_pd;
    int compat, carveouts, barriers, virtual_, optin, attribute, tmem;
};

static inline TARGET __m256i lanes_load_i32(const int32_t *column, size_t i, int32_t base)
{
    return column ? _mm256_loadu_si256((const __m256i *)(const void *)(column + i)) : _mm256_set1_epi32(base);
}

/* Eight byte counts (int32_t or int64_t elements), and in *bad the lanes outside [0, 2^29). */
static inline TARGET __m256i lanes_load_bytes(const void *column, int32_t width, size_t i, int64_t base, __m256i *bad)
{
    const __m256i low_words = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    __m256i v;
    if (!column) {
        int ok = base >= 0 && base < ((int64_t)1 << 29);
        *bad = _mm256_or_si256(*bad, _mm256_set1_epi32(ok ? 0 : -1));
        return _mm256_set1_epi32(ok ? (int32_t)base : 0);
    }
    if (width == 4) {
        v = _mm256_loadu_si256((const __m256i *)(const void *)((const int32_t *)column + i));
    } else {
        const int64_t *p = (const int64_t *)column + i;
        __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p), low_words);
        __m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p + 4)), low_words);
        /* the low words of the eight, then the high words, which must be zero */
        v = _mm256_permute2x128_si256(a, b, 0x20);
        __m256i high = _mm256_permute2x128_si256(a, b, 0x31);
        *bad = _mm256_or_si256(*bad, _mm256_xor_si256(_mm256_cmpeq_epi32(high, _mm256_setzero_si256()),
                                                      _mm256_set1_epi32(-1)));
    }
    *bad = _mm256_or_si256(*bad, _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(v, 29), _mm256_setzero_si256()),
                                                  _mm256_set1_epi32(-1)));
    return v;
}

/* floor(a / b) for 0 <= a < 2^24 and b >= 1 (b past 2^24 rounds, and the quotient is 0 either way). */
static inline TARGET __m256i lanes_quotient(__m256i a, __m256i b)
{
    return _mm256_cvttps_epi32(_mm256_div_ps(_mm256_cvtepi32_ps(a), _mm256_cvtepi32_ps(b)));
}

static inline TARGET __m256i lanes_round_up(__m256i x, __m256i mask)
{
    return _mm256_andnot_si256(mask, _mm256_add_epi32(x, mask));
}

static inline TARGET __m256i lanes_select(__m256i yes, __m256i a, __m256i b)
{
    return _mm256_blendv_epi8(b, a, yes);
}

static inline TARGET __m256i lanes_at_least_one(__m256i x)
{
    return _mm256_max_epi32(x, _mm256_set1_epi32(1));
}

/* Lanes where per_warp x rounded > limit, in 64 bits (both factors below 2^32). */
static inline TARGET __m256i lanes_product_over(__m256i per_warp, __m256i rounded, __m256i limit_lo)
{
    __m256i even = _mm256_mul_epu32(per_warp, rounded);
    __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(per_warp, 32), _mm256_srli_epi64(rounded, 32));
    __m256i over_even = _mm256_cmpgt_epi64(even, limit_lo);
    __m256i over_odd = _mm256_cmpgt_epi64(odd, limit_lo);
    return _mm256_blend_epi32(over_even, over_odd, 0xaa);
}

/* register_blocks of the scalar rule, in lanes. */
static inline TARGET __m256i lanes_register_blocks(const struct lanes *c, __m256i warps, __m256i per_warp, __m256i part_mask,
                                             __m256i parts, __m256i per_part)
{
    __m256i over = lanes_product_over(per_warp, lanes_round_up(warps, part_mask), c->regs_per_block_lo);
    __m256i per_part_warps = lanes_quotient(per_part, lanes_at_least_one(per_warp));
    __m256i blocks = lanes_quotient(_mm256_mullo_epi32(per_part_warps, parts), warps);
    blocks = lanes_select(_mm256_cmpeq_epi32(per_warp, _mm256_setzero_si256()), _mm256_set1_epi32(GPUOCC_NO_LIMIT), blocks);
    return _mm256_andnot_si256(over, blocks);
}

static inline TARGET __m256i lanes_public_limit(__m256i limit)
{
    return _mm256_or_si256(limit, _mm256_cmpeq_epi32(limit, _mm256_set1_epi32(GPUOCC_NO_LIMIT)));
}

static inline TARGET void lanes_store_i32(int32_t *column, size_t i, __m256i v)
{
    if (column)
        _mm256_storeu_si256((__m256i *)(void *)(column + i), v);
}

static inline TARGET void lanes_store_i64(int64_t *column, size_t i, __m256i v)
{
    if (column) {
        _mm256_storeu_si256((__m256i *)(void *)(column + i), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)));
        _mm256_storeu_si256((__m256i *)(void *)(column + i + 4), _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
    }
}

static TARGET size_t lanes_batch_avx2(const gpuocc_nv_values *v, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count,
                                gpuocc_nv_row_fn row, void *context)
{
    struct lanes c;
    c.max_threads = _mm256_set1_epi32((int32_t)gpuocc_nv_threads_max(v, k));
    c.max_warps = _mm256_set1_epi32(v->max_warps_per_sm);
    c.max_warps_pd = _mm256_set1_pd((double)v->max_warps_per_sm);
    c.slots = _mm256_set1_epi32(v->max_blocks_per_sm);
    c.regs_max = _mm256_set1_epi32(v->regs_per_thread_max);
    c.barriers_max = _mm256_set1_epi32(v->barriers_per_block_max);
    c.warp_shift = _mm_cvtsi32_si128(v->warp_shift);
    c.unit_mask = _mm256_set1_epi32((1 << v->reg_alloc_shift) - 1);
    c.part_mask = _mm256_set1_epi32((1 << v->sub_partition_shift) - 1);
    c.smem_mask = _mm256_set1_epi32((1 << v->smem_alloc_shift) - 1);
    c.parts = _mm256_set1_epi32(v->sub_partitions);
    c.per_part = _mm256_set1_epi32(v->regs_per_sub_partition);
    c.compat = v->reg_compat_sub_partitions != 0;
    c.compat_mask = _mm256_set1_epi32(c.compat ? (1 << v->reg_compat_shift) - 1 : 0);
    c.compat_parts = _mm256_set1_epi32(v->reg_compat_sub_partitions);
    c.compat_per_part = _mm256_set1_epi32(v->regs_per_compat_sub_partition);
    c.regs_per_block_lo = _mm256_set1_epi64x(v->regs_per_block);
    int64_t reserved = v->smem_reserved_per_block_bytes;
    c.smem_reserved = _mm256_set1_epi32((int32_t)reserved);
    c.per_block = _mm256_set1_epi32((int32_t)v->smem_per_block_bytes);
    c.optin_bytes = _mm256_set1_epi32((int32_t)v->smem_per_block_optin_bytes);
    c.per_sm = _mm256_set1_epi32((int32_t)v->smem_per_sm_bytes);
    c.preferred = _mm256_set1_epi32((int32_t)gpuocc_nv_preferred_bytes(v, k));
    c.carveouts = v->carveout_count;
    c.carveouts_lo = _mm256_loadu_si256((const __m256i *)(const void *)&v->carveouts_kib[0]);
    c.carveouts_hi = _mm256_loadu_si256((const __m256i *)(const void *)&v->carveouts_kib[8]);
    c.carveout_count = _mm256_set1_epi32(v->carveout_count);
    c.barriers = v->barriers_per_sm != 0;
    c.barriers_per_sm = _mm256_set1_epi32(v->barriers_per_sm);
    c.virtual_ = v->virtual_resources_per_sm != 0;
    c.virtual_per_sm = _mm256_set1_epi32(v->virtual_resources_per_sm);
    c.tmem = v->tmem_columns_per_sm != 0;
    c.optin = k->smem_optin != 0;
    c.attribute = k->smem_dynamic_max_bytes >= 0;
    c.dynamic_max = _mm256_set1_epi32((int32_t)k->smem_dynamic_max_bytes);
    int exceeded_wanted = b->exceeded || b->exceeded_limit;
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi32(-1);
    const __m256i no_limit = _mm256_set1_epi32(GPUOCC_NO_LIMIT);
    size_t whole = count - count % 8;
    for (size_t i = 0; i < whole; i += 8) {
        __m256i bad = zero;
        __m256i threads = lanes_load_i32(b->threads_per_block, i, k->threads_per_block);
        __m256i regs = lanes_load_i32(b->regs_per_thread, i, k->regs_per_thread);
        __m256i smem_static = lanes_load_bytes(b->smem_static_bytes, b->smem_width, i, k->smem_static_bytes, &bad);
        __m256i smem_dynamic = lanes_load_bytes(b->smem_dynamic_bytes, b->smem_width, i, k->smem_dynamic_bytes, &bad);
        __m256i barriers = lanes_load_i32(b->barriers, i, k->barriers);
        __m256i virtual_resources = lanes_load_i32(b->virtual_resources, i, k->virtual_resources);
        __m256i tmem = lanes_load_i32(b->tmem_columns, i, k->tmem_columns);
        /* the lanes the scalar rule takes: fields outside the lanes' ranges or their domain (threads 1 ..
           2^20, registers 0 .. 2^20, virtual resources 0 .. 2^24), the refusals (barriers over the block's
           maximum, static shared memory over the per-block limit, tensor memory the device lacks or outside
           its domain) */
        __m256i threads_less_one = _mm256_sub_epi32(threads, _mm256_set1_epi32(1));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(
                                       _mm256_cmpeq_epi32(_mm256_srli_epi32(threads_less_one, 20), zero), ones));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(regs, _mm256_set1_epi32(1 << 20)));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(zero, regs));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(zero, barriers));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(barriers, c.barriers_max));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(
                                       _mm256_cmpeq_epi32(_mm256_srli_epi32(virtual_resources, 24), zero), ones));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(smem_static, c.per_block));
        __m256i tmem_none = _mm256_cmpeq_epi32(tmem, zero);
        if (_mm256_movemask_epi8(tmem_none) != -1) {
            /* a power of two from 32 to 512, on a device with tensor memory */
            __m256i power = _mm256_cmpeq_epi32(_mm256_and_si256(tmem, _mm256_sub_epi32(tmem, _mm256_set1_epi32(1))), zero);
            __m256i in_range = _mm256_cmpeq_epi32(_mm256_min_epu32(_mm256_sub_epi32(tmem, _mm256_set1_epi32(32)),
                                                                   _mm256_set1_epi32(480)),
                                                  _mm256_sub_epi32(tmem, _mm256_set1_epi32(32)));
            __m256i fine = c.tmem ? _mm256_and_si256(power, in_range) : zero;
            bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_or_si256(tmem_none, fine), ones));
        }

        /* warps */
        __m256i warps_per_block = _mm256_add_epi32(_mm256_srl_epi32(threads_less_one, c.warp_shift), _mm256_set1_epi32(1));
        __m256i warps_blocks = _mm256_andnot_si256(_mm256_cmpgt_epi32(threads, c.max_threads),
                                                   lanes_quotient(c.max_warps, warps_per_block));
        /* registers */
        __m256i per_warp = lanes_round_up(_mm256_sll_epi32(regs, c.warp_shift), c.unit_mask);
        __m256i regs_blocks = lanes_register_blocks(&c, warps_per_block, per_warp, c.part_mask, c.parts, c.per_part);
        if (c.compat) {
            __m256i compat = lanes_register_blocks(&c, warps_per_block, per_warp, c.compat_mask, c.compat_parts,
                                             c.compat_per_part);
            regs_blocks = _mm256_andnot_si256(_mm256_cmpeq_epi32(compat, zero), regs_blocks);
        }
        regs_blocks = _mm256_andnot_si256(_mm256_cmpgt_epi32(regs, c.regs_max), regs_blocks);
        /* shared memory: the allocation, the per-block limit (the opt-in one once the kernel's largest block
           passes the default), the carveout */
        __m256i alloc = lanes_round_up(_mm256_add_epi32(_mm256_add_epi32(smem_static, smem_dynamic), c.smem_reserved),
                                 c.smem_mask);
        __m256i most = c.attribute ? c.dynamic_max : _mm256_sub_epi32(c.optin_bytes, smem_static);
        __m256i limit = c.per_block, over = zero;
        if (c.optin) {
            __m256i largest = _mm256_add_epi32(_mm256_add_epi32(smem_static, _mm256_max_epi32(most, zero)), c.smem_reserved);
            limit = lanes_select(_mm256_cmpgt_epi32(largest, c.per_block), c.optin_bytes, c.per_block);
            over = _mm256_cmpgt_epi32(smem_dynamic, most);
        }
        limit = _mm256_add_epi32(limit, c.smem_reserved);
        __m256i carveout = c.per_sm;
        if (c.carveouts) {
            __m256i need = _mm256_max_epi32(c.preferred, alloc);
            __m256i need_kib = _mm256_srli_epi32(_mm256_add_epi32(need, _mm256_set1_epi32(1023)), 10);
            /* the carveouts below the KiB needed are a prefix: their count is the index of the answer */
            __m256i index = zero;
            for (int32_t j = 0; j < c.carveouts; j++)
                index = _mm256_sub_epi32(index, _mm256_cmpgt_epi32(need_kib, _mm256_set1_epi32(v->carveouts_kib[j])));
            __m256i low = _mm256_permutevar8x32_epi32(c.carveouts_lo, index);
            __m256i high = _mm256_permutevar8x32_epi32(c.carveouts_hi, index);
            __m256i kib = lanes_select(_mm256_cmpgt_epi32(_mm256_set1_epi32(8), index), low, high);
            carveout = lanes_select(_mm256_cmpgt_epi32(c.carveout_count, index), _mm256_slli_epi32(kib, 10), c.per_sm);
        }
        __m256i smem_blocks = lanes_select(_mm256_cmpeq_epi32(alloc, zero), no_limit, lanes_quotient(carveout, lanes_at_least_one(alloc)));
        smem_blocks = _mm256_andnot_si256(_mm256_or_si256(over, _mm256_cmpgt_epi32(alloc, limit)), smem_blocks);
        /* barriers and virtual resources */
        __m256i barrier_blocks = no_limit, virtual_blocks = no_limit;
        if (c.barriers)
            barrier_blocks = lanes_select(_mm256_cmpeq_epi32(barriers, zero), no_limit,
                                    lanes_quotient(c.barriers_per_sm, lanes_at_least_one(barriers)));
        if (c.virtual_)
            virtual_blocks = lanes_select(_mm256_cmpeq_epi32(virtual_resources, zero), no_limit,
                                    lanes_quotient(c.virtual_per_sm, lanes_at_least_one(virtual_resources)));

        __m256i blocks = _mm256_min_epi32(_mm256_min_epi32(warps_blocks, regs_blocks), smem_blocks);
        blocks = _mm256_min_epi32(_mm256_min_epi32(blocks, c.slots), _mm256_min_epi32(barrier_blocks, virtual_blocks));
        if (exceeded_wanted)
            bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(blocks, zero));
        __m256i warps = _mm256_mullo_epi32(blocks, warps_per_block);

        lanes_store_i32(b->status, i, zero);
        lanes_store_i32(b->blocks_per_sm, i, blocks);
        lanes_store_i32(b->warps_per_sm, i, warps);
        if (b->occupancy) {
            __m256d low = _mm256_div_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(warps)), c.max_warps_pd);
            __m256d high = _mm256_div_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(warps, 1)), c.max_warps_pd);
            _mm256_storeu_pd(b->occupancy + i, low);
            _mm256_storeu_pd(b->occupancy + i + 4, high);
        }
        if (b->limiters) {
            __m256i bits = _mm256_and_si256(_mm256_cmpeq_epi32(warps_blocks, blocks), _mm256_set1_epi32(GPUOCC_LIMIT_WARPS));
            bits = _mm256_or_si256(bits, _mm256_and_si256(_mm256_cmpeq_epi32(regs_blocks, blocks),
                                                          _mm256_set1_epi32(GPUOCC_LIMIT_REGISTERS)));
            bits = _mm256_or_si256(bits, _mm256_and_si256(_mm256_cmpeq_epi32(smem_blocks, blocks),
                                                          _mm256_set1_epi32(GPUOCC_LIMIT_SMEM)));
            bits = _mm256_or_si256(bits, _mm256_and_si256(_mm256_cmpeq_epi32(c.slots, blocks),
                                                          _mm256_set1_epi32(GPUOCC_LIMIT_BLOCKS)));
            bits = _mm256_or_si256(bits, _mm256_and_si256(_mm256_cmpeq_epi32(barrier_blocks, blocks),
                                                          _mm256_set1_epi32(GPUOCC_LIMIT_BARRIERS)));
            bits = _mm256_or_si256(bits, _mm256_and_si256(_mm256_cmpeq_epi32(virtual_blocks, blocks),
                                                          _mm256_set1_epi32((int32_t)GPUOCC_LIMIT_VIRTUAL)));
            lanes_store_i32((int32_t *)(void *)b->limiters, i, bits);
        }
        lanes_store_i32(b->limit_warps, i, warps_blocks);
        lanes_store_i32(b->limit_regs, i, lanes_public_limit(regs_blocks));
        lanes_store_i32(b->limit_smem, i, lanes_public_limit(smem_blocks));
        lanes_store_i32(b->limit_blocks, i, c.slots);
        lanes_store_i32(b->limit_barriers, i, lanes_public_limit(barrier_blocks));
        if (b->regs_per_block) {
            /* per_warp x warps per block, both below 2^32, at most INT32_MAX */
            __m256i even = _mm256_mul_epu32(per_warp, warps_per_block);
            __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(per_warp, 32), _mm256_srli_epi64(warps_per_block, 32));
            __m256i cap = _mm256_set1_epi64x(INT32_MAX);
            even = lanes_select(_mm256_cmpgt_epi64(even, cap), cap, even);
            odd = lanes_select(_mm256_cmpgt_epi64(odd, cap), cap, odd);
            lanes_store_i32(b->regs_per_block, i, _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xaa));
        }
        lanes_store_i64(b->smem_per_block_bytes, i, alloc);
        lanes_store_i64(b->smem_per_sm_bytes, i, carveout);
        lanes_store_i32(b->waves_per_simd, i, zero);
        lanes_store_i32(b->limit_sgprs, i, ones);
        lanes_store_i32(b->limit_virtual_resources, i, lanes_public_limit(virtual_blocks));
        lanes_store_i32(b->exceeded, i, zero);
        lanes_store_i64(b->exceeded_limit, i, zero);
        /* the other launches: the scalar rule, row by row, over what the lanes wrote */
        uint32_t left = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bad));
        while (left) {
            row(context, i + (size_t)gpuocc_log2_exact(left));
            left &= left - 1;
        }
    }
    return whole;
}

/* Whether the lanes hold this device's values and the base kernel's: every shift a unit's, every capacity
   below 2^24 (the quotients exact in single precision), the byte counts in 32 bits. */
static bool lanes_fit(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    bool ok = ((uint32_t)v->warp_shift <= 10) & ((uint32_t)v->reg_alloc_shift <= 20) &
              ((uint32_t)v->smem_alloc_shift <= 20) & ((uint32_t)v->sub_partition_shift <= 6) &
              (v->sub_partitions == 1 << (v->sub_partition_shift & 7)) &
              (v->reg_compat_sub_partitions == 0 ||
               ((uint32_t)v->reg_compat_shift <= 6 && v->reg_compat_sub_partitions == 1 << (v->reg_compat_shift & 7))) &
              ((uint32_t)v->max_warps_per_sm - 1 < (1u << 20)) & ((uint32_t)v->max_blocks_per_sm - 1 < (1u << 20)) &
              (v->regs_per_block >= 1) &
              ((uint64_t)(uint32_t)v->regs_per_sub_partition * (uint32_t)v->sub_partitions < (1u << 24)) &
              ((uint64_t)(uint32_t)v->regs_per_compat_sub_partition * (uint32_t)v->reg_compat_sub_partitions < (1u << 24)) &
              ((uint32_t)v->barriers_per_sm <= (1u << 20)) & ((uint32_t)v->virtual_resources_per_sm <= (1u << 20)) &
              ((uint32_t)v->barriers_per_block_max <= (1u << 20)) & ((uint32_t)v->carveout_count <= GPUOCC_MAX_CARVEOUTS) &
              ((uint64_t)v->smem_per_sm_bytes < (1u << 24)) & ((uint64_t)v->smem_per_block_bytes <= (1u << 24)) &
              ((uint64_t)v->smem_per_block_optin_bytes <= (1u << 24)) &
              ((uint64_t)v->smem_reserved_per_block_bytes <= (1u << 20)) &
              (k->smem_dynamic_max_bytes >= -1) & (k->smem_dynamic_max_bytes < ((int64_t)1 << 29));
    if (!ok)
        return false;
    for (int32_t j = 0; j < v->carveout_count; j++)
        if ((uint32_t)v->carveouts_kib[j] >= (1u << 14) || (j > 0 && v->carveouts_kib[j] <= v->carveouts_kib[j - 1]))
            return false;
    return true;
}

gpuocc_nv_lanes_fn gpuocc_nv_batch_lanes(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    if (!__builtin_cpu_supports("avx2") || !lanes_fit(v, k))
        return NULL;
    return lanes_batch_avx2;
}

#else

gpuocc_nv_lanes_fn gpuocc_nv_batch_lanes(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    (void)v, (void)k;
    return NULL;
}

#endif
