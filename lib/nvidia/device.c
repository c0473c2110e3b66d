/* NVIDIA's device checks: every field within the bounds that keep the rules' products inside int64 and
   their counts inside int32, the AMD fields zero. */
#include "nvidia.h"

/* Bounds keep every product in the rules inside int64 and every count inside int32. */
#define SMALL_MAX (1 << 20)
#define SMEM_MAX ((int64_t)1 << 40)

/* int, not bool: combined with `&` below, and clang warns on `&` of bools. */
static int in_range(int64_t v, int64_t lo, int64_t hi)
{
    return (v >= lo) & (v <= hi);
}

int32_t gpuocc_nv_check_device(const gpuocc_device *d)
{
    if (d->simds_per_cu || d->waves_per_simd || d->runtime_waves_per_simd || d->vgprs_per_simd ||
        d->vgpr_granule || d->runtime_vgpr_granule || d->runtime_vgprs_legacy ||
        d->runtime_vgpr_granule_legacy || d->agpr_file || d->sgprs_per_simd || d->cus_per_wgp || d->wave_sizes ||
        !gpuocc_device_zero_between(d, offsetof(gpuocc_device, xves_per_xecore), GPUOCC_DEVICE_INTEL_END))
        return GPUOCC_ERR_DEVICE;
    bool ok = in_range(d->cc_major, 0, 1000) && in_range(d->cc_minor, 0, 1000) &&
              in_range(d->sm_count, 0, SMALL_MAX) && in_range(d->warp_size, 1, 1024) &&
              in_range(d->max_threads_per_block, 1, SMALL_MAX) &&
              in_range(d->max_threads_per_sm, d->warp_size, SMALL_MAX) &&
              in_range(d->max_blocks_per_sm, 1, SMALL_MAX) && in_range(d->regs_per_sm, 1, INT32_MAX) &&
              in_range(d->regs_per_block, 1, INT32_MAX) && in_range(d->regs_per_thread_max, 1, SMALL_MAX) &&
              in_range(d->reg_alloc_unit, 1, SMALL_MAX) && in_range(d->sub_partitions, 1, 64) &&
              in_range(d->reg_compat_sub_partitions, 0, 64) && in_range(d->barriers_per_sm, 0, SMALL_MAX) &&
              in_range(d->smem_per_sm_bytes, 0, SMEM_MAX) && in_range(d->smem_per_block_bytes, 0, SMEM_MAX) &&
              in_range(d->smem_per_block_optin_bytes, d->smem_per_block_bytes, SMEM_MAX) &&
              in_range(d->smem_reserved_per_block_bytes, 0, SMEM_MAX) &&
              in_range(d->smem_alloc_unit_bytes, 1, SMALL_MAX) &&
              in_range(d->carveout_count, 0, GPUOCC_MAX_CARVEOUTS) &&
              in_range(d->virtual_resources_per_sm, 0, SMALL_MAX) && in_range(d->barriers_per_block_max, 0, SMALL_MAX) &&
              in_range(d->tmem_columns_per_sm, 0, SMALL_MAX) && d->reserved2 == 0;
    if (!ok)
        return GPUOCC_ERR_DEVICE;
    for (int32_t i = 0; i < d->carveout_count; i++) {
        int32_t c = d->carveouts_kib[i];
        if (!in_range(c, 0, SMEM_MAX / 1024) || (i > 0 && c <= d->carveouts_kib[i - 1]))
            return GPUOCC_ERR_DEVICE;
    }
    for (int32_t i = d->carveout_count; i < GPUOCC_MAX_CARVEOUTS; i++)
        if (d->carveouts_kib[i] != 0)
            return GPUOCC_ERR_DEVICE;
    if (d->carveout_count > 0) {
        /* the largest carveout must hold the whole per-SM capacity and the largest block */
        int64_t top = (int64_t)d->carveouts_kib[d->carveout_count - 1] * 1024;
        if (top < d->smem_per_sm_bytes ||
            top < d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes)
            return GPUOCC_ERR_DEVICE;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_nv_barriers_per_block_max(const gpuocc_device *d)
{
    return d->barriers_per_block_max ? d->barriers_per_block_max : GPUOCC_NV_BARRIERS_PER_BLOCK;
}

/* gpuocc_nv_check_device's answer (valid or not) in one branch-free pass, the vendor and the reserved
   words included; the first failing check is named by the checks themselves when this says no.  With GCC or Clang the checks run four fields at a time. */
#if GPUOCC_VECTORS
typedef gpuocc_u32x4 u32x4;
typedef gpuocc_i32x4 i32x4;

static inline u32x4 load4(const void *p)
{
    return (u32x4)gpuocc_load_i32x4(p);
}

/* Lanes of v outside [lo, hi] (unsigned wrap-around turns both bounds into one compare). */
static inline i32x4 outside(u32x4 v, u32x4 lo, u32x4 hi)
{
    return (i32x4)(v - lo > hi - lo);
}

bool gpuocc_nv_device_fine(const gpuocc_device *d)
{
    const unsigned char *b = (const unsigned char *)d;
    /* size, vendor, cc_major, cc_minor / sm_count, warp_size, max_threads_per_block, max_threads_per_sm /
       max_blocks_per_sm, regs_per_sm, regs_per_block, regs_per_thread_max / reg_alloc_unit,
       sub_partitions, reg_compat_sub_partitions, barriers_per_sm */
    i32x4 bad = outside(load4(b), (u32x4){0, GPUOCC_VENDOR_NVIDIA, 0, 0},
                        (u32x4){UINT32_MAX, GPUOCC_VENDOR_NVIDIA, 1000, 1000});
    bad |= outside(load4(b + 16), (u32x4){0, 1, 1, 1}, (u32x4){SMALL_MAX, 1024, SMALL_MAX, SMALL_MAX});
    bad |= outside(load4(b + 32), (u32x4){1, 1, 1, 1}, (u32x4){SMALL_MAX, INT32_MAX, INT32_MAX, SMALL_MAX});
    bad |= outside(load4(b + 48), (u32x4){1, 1, 0, 0}, (u32x4){SMALL_MAX, 64, 64, SMALL_MAX});
    /* carveouts: used entries strictly ascending within [0, SMEM_MAX / 1024], unused ones zero */
    const i32x4 count = {d->carveout_count, d->carveout_count, d->carveout_count, d->carveout_count};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
    for (int32_t j = 0; j < GPUOCC_MAX_CARVEOUTS; j += 4) {
        u32x4 c = load4(&d->carveouts_kib[j]);
        /* the entry before each lane (for lane 0 of the first group, carveout_count: masked below) */
        i32x4 previous = (i32x4)load4((const unsigned char *)&d->carveouts_kib[j] - sizeof(int32_t));
        i32x4 index = {j, j + 1, j + 2, j + 3};
        i32x4 used = index < count;
        i32x4 wrong_used = (i32x4)(c > (u32x4){0, 0, 0, 0} + (uint32_t)(SMEM_MAX / 1024)) |
                           (((i32x4)c <= previous) & (index > 0));
        bad |= (used & wrong_used) | (~used & (i32x4)(c != (u32x4){0, 0, 0, 0}));
    }
    /* the AMD fields, the reserved words (the 0.1 tail) and Intel's fields: all zero for NVIDIA; then
       NVIDIA's virtual resources per SM (bounded below) and the barrier limit, zero on this path (a device
       that records its barrier limit takes the field-by-field checks) */
    const unsigned char *tail = (const unsigned char *)&d->simds_per_cu;
    _Static_assert((GPUOCC_DEVICE_INTEL_END - offsetof(gpuocc_device, simds_per_cu)) % 16 == 8,
                   "the tail is whole vectors but its last word");
    u32x4 reserved = load4((const unsigned char *)d + GPUOCC_DEVICE_INTEL_END - 16);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
    for (size_t at = 0; at + 16 <= GPUOCC_DEVICE_INTEL_END - offsetof(gpuocc_device, simds_per_cu); at += 16)
        reserved |= load4(tail + at);
    reserved |= (u32x4){(uint32_t)d->barriers_per_block_max, 0, 0, 0};
    bad |= (i32x4)(reserved != (u32x4){0, 0, 0, 0});
    uint64_t lanes[2];
    memcpy(lanes, &bad, sizeof lanes);
    bool ok = ((lanes[0] | lanes[1]) == 0) & (d->max_threads_per_sm >= d->warp_size) &
              ((uint64_t)d->smem_per_sm_bytes <= SMEM_MAX) & ((uint64_t)d->smem_per_block_bytes <= SMEM_MAX) &
              ((uint64_t)d->smem_per_block_optin_bytes <= SMEM_MAX) &
              (d->smem_per_block_optin_bytes >= d->smem_per_block_bytes) &
              ((uint64_t)d->smem_reserved_per_block_bytes <= SMEM_MAX) &
              ((uint32_t)d->smem_alloc_unit_bytes - 1 < SMALL_MAX) &
              ((uint32_t)d->carveout_count <= GPUOCC_MAX_CARVEOUTS) &
              ((uint32_t)d->virtual_resources_per_sm <= SMALL_MAX) &
              ((uint32_t)d->tmem_columns_per_sm <= SMALL_MAX) & (d->reserved2 == 0);
    if (!ok)
        return false;
#else
bool gpuocc_nv_device_fine(const gpuocc_device *d)
{
    /* the AMD fields and the reserved words (the 0.1 tail): all zero for NVIDIA */
    unsigned reserved = 0;
    const unsigned char *tail = (const unsigned char *)&d->simds_per_cu;
    for (size_t i = 0; i < GPUOCC_DEVICE_INTEL_END - offsetof(gpuocc_device, simds_per_cu); i++)
        reserved |= tail[i];
    reserved |= (unsigned)(d->barriers_per_block_max != 0);
    bool ok = (reserved == 0) & in_range(d->virtual_resources_per_sm, 0, SMALL_MAX) &
              in_range(d->tmem_columns_per_sm, 0, SMALL_MAX) & (d->reserved2 == 0) & (d->vendor == GPUOCC_VENDOR_NVIDIA) & in_range(d->cc_major, 0, 1000) &
              in_range(d->cc_minor, 0, 1000) & in_range(d->sm_count, 0, SMALL_MAX) &
              in_range(d->warp_size, 1, 1024) & in_range(d->max_threads_per_block, 1, SMALL_MAX) &
              in_range(d->max_threads_per_sm, d->warp_size, SMALL_MAX) &
              in_range(d->max_blocks_per_sm, 1, SMALL_MAX) & in_range(d->regs_per_sm, 1, INT32_MAX) &
              in_range(d->regs_per_block, 1, INT32_MAX) & in_range(d->regs_per_thread_max, 1, SMALL_MAX) &
              in_range(d->reg_alloc_unit, 1, SMALL_MAX) & in_range(d->sub_partitions, 1, 64) &
              in_range(d->reg_compat_sub_partitions, 0, 64) & in_range(d->barriers_per_sm, 0, SMALL_MAX) &
              in_range(d->smem_per_sm_bytes, 0, SMEM_MAX) & in_range(d->smem_per_block_bytes, 0, SMEM_MAX) &
              in_range(d->smem_per_block_optin_bytes, d->smem_per_block_bytes, SMEM_MAX) &
              in_range(d->smem_reserved_per_block_bytes, 0, SMEM_MAX) &
              in_range(d->smem_alloc_unit_bytes, 1, SMALL_MAX) &
              in_range(d->carveout_count, 0, GPUOCC_MAX_CARVEOUTS);
    if (!ok)
        return false;
    /* used entries ascending and in range, the rest zero */
    int64_t previous = -1;
    bool bad = false;
    for (int32_t i = 0; i < GPUOCC_MAX_CARVEOUTS; i++) {
        int64_t c = d->carveouts_kib[i];
        bad |= i < d->carveout_count ? (c <= previous) | (c > SMEM_MAX / 1024) : c != 0;
        previous = c;
    }
    if (bad)
        return false;
#endif
    if (d->carveout_count > 0) {
        int64_t top = (int64_t)d->carveouts_kib[d->carveout_count - 1] * 1024;
        return top >= d->smem_per_sm_bytes && top >= d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes;
    }
    return true;
}
