/* NVIDIA's rules and data: what the files of lib/nvidia/ share, and the table the API calls
   (gpuocc_nvidia_vendor).  Uses the ground layer only. */
#ifndef GPUOCC_NVIDIA_H
#define GPUOCC_NVIDIA_H

#include "../core/core.h"

int32_t gpuocc_rule_warps(const gpuocc_device *d, int64_t threads);
int32_t gpuocc_rule_registers(const gpuocc_device *d, int64_t threads, int64_t regs);
int32_t gpuocc_rule_smem(const gpuocc_device *d, const gpuocc_kernel *k);
int32_t gpuocc_rule_barriers(const gpuocc_device *d, int64_t barriers);
/* Virtual resources (cc 10.x-12.x): floor(per SM / per block), GPUOCC_NO_LIMIT when either is 0. */
static inline int32_t gpuocc_rule_virtual(const gpuocc_device *d, int64_t virtual_resources)
{
    if (d->virtual_resources_per_sm == 0 || virtual_resources == 0)
        return GPUOCC_NO_LIMIT;
    /* per SM <= 2^20 and virtual_resources >= 1 */
    return (int32_t)(d->virtual_resources_per_sm / virtual_resources);
}
/* The resources whose limit ties at `blocks` (GPUOCC_LIMIT_* bits) among NVIDIA's six, each as the caller
   holds it (signed or unsigned: equality is the same either way). */
static inline uint32_t gpuocc_nv_limiters(uint32_t blocks, uint32_t warps, uint32_t regs, uint32_t smem,
                                          uint32_t slots, uint32_t barriers, uint32_t virtual_)
{
    return (uint32_t)(warps == blocks) << GPUOCC_RESOURCE_WARPS | (uint32_t)(regs == blocks) << GPUOCC_RESOURCE_REGISTERS |
           (uint32_t)(smem == blocks) << GPUOCC_RESOURCE_SMEM | (uint32_t)(slots == blocks) << GPUOCC_RESOURCE_BLOCKS |
           (uint32_t)(barriers == blocks) << GPUOCC_RESOURCE_BARRIERS |
           (uint32_t)(virtual_ == blocks) << GPUOCC_RESOURCE_VIRTUAL;
}
int64_t gpuocc_rule_smem_alloc(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic);
int64_t gpuocc_rule_carveout(const gpuocc_device *d, const gpuocc_kernel *k);
/* The same two with the block's allocation (gpuocc_rule_smem_alloc) and the carveout already known. */
int64_t gpuocc_rule_carveout_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc);
int32_t gpuocc_rule_smem_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc, int64_t carveout);
int64_t gpuocc_rule_regs_per_warp(const gpuocc_device *d, int64_t regs);

/* The rule (lib/nvidia/rule.c), in two parts the API runs in turn (gpuocc_rule): the launches no limit count
   applies to (another vendor's field, tensor memory the device lacks, a per-block maximum passed: the
   status, the input in *input and its limit in *limit), then every field
   of `r` but size and reserved, on checked copies: the blocks, each limit, the limiters, the allocations, and
   for a launch that fits no block the input over a limit (exceeded, exceeded_limit). */
int32_t gpuocc_nv_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
void gpuocc_nv_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);

/* The shared memory per SM a kernel's carveout preference asks for (GPUOCC_CARVEOUT_DEFAULT: all of it;
   else that percentage of it, rounded down), on a checked NVIDIA device and kernel.  Without a branch:
   the default reads as 100 %. */
static inline int64_t gpuocc_nv_preferred_bytes(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int64_t percent = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT ? 100 : k->carveout_percent;
    return percent * d->smem_per_sm_bytes / 100;
}

/* The smallest of `count` carveouts (`kib`: a device's carveouts_kib, checked, or bounded as a prepared one is:
   any order, count 0 .. 16) of at least `bytes` (>= 0); -1 when none is that large. */
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
#elif GPUOCC_VECTORS
    /* Entries are ascending and the unused ones zero: the entries below `bytes` are the first
       `below` used ones plus, when bytes > 0, every unused one. */
    int64_t need_kib = (bytes >> 10) + ((bytes & 1023) != 0);
    if (need_kib > INT32_MAX)
        return -1;
    gpuocc_i32x4 need = {0, 0, 0, 0};
    need += (int32_t)need_kib;
    gpuocc_i32x4 below = need > gpuocc_load_i32x4(&kib[0]);
    below += need > gpuocc_load_i32x4(&kib[4]);
    below += need > gpuocc_load_i32x4(&kib[8]);
    below += need > gpuocc_load_i32x4(&kib[12]);
    int32_t index = -(below[0] + below[1] + below[2] + below[3]);
    if (need_kib > 0)
        index -= GPUOCC_MAX_CARVEOUTS - count;
    return index < count ? (int64_t)kib[index] * 1024 : -1;
#else
    for (int32_t i = 0; i < count; i++)
        if ((int64_t)kib[i] * 1024 >= bytes)
            return (int64_t)kib[i] * 1024;
    return -1;
#endif
}

/* The same on a checked NVIDIA device's carveouts. */
static inline int64_t gpuocc_nv_carveout_at_least(const gpuocc_device *d, int64_t bytes)
{
    return gpuocc_nv_carveout_in(d->carveouts_kib, d->carveout_count, bytes);
}

/* The inverse queries on checked structs, in closed form (lib/nvidia/limits.c): the answer, or
   GPUOCC_ERR_UNSATISFIABLE (output untouched). */
int32_t gpuocc_nv_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t *bytes);
int32_t gpuocc_nv_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs);
/* The top granule boundary: any byte count above it gives a block larger than any limit allows. */
int64_t gpuocc_nv_smem_search_top(const gpuocc_device *d);
/* The carveout a kernel prefers: the smallest holding its share of smem_per_sm_bytes (all of it by default),
   smem_per_sm_bytes on a device without carveouts. */
int64_t gpuocc_nv_preferred_carveout(const gpuocc_device *d, const gpuocc_kernel *k);
/* The opt-in attribute's dynamic shared memory limit, and the per-block limit on the allocation. */
int64_t gpuocc_nv_dynamic_max(const gpuocc_device *d, const gpuocc_kernel *k);
int64_t gpuocc_nv_smem_block_limit(const gpuocc_device *d, const gpuocc_kernel *k);
/* The block-size search on checked structs (lib/nvidia/search.c): the best block size and its blocks per
   SM (0 and 0 when none runs), or the rule's error as gpuocc_best_block_table / _callback document it. */
int32_t gpuocc_nv_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                             int32_t *threads, int32_t *blocks);
/* NVIDIA's device checks (lib/nvidia/device.c): the status naming the first bad field, and the same answer
   (valid or not) in one branch-free pass for a device in the current layout. */
int32_t gpuocc_nv_check_device(const gpuocc_device *d);
/* A prepared NVIDIA device as the rule reads it: `stored` (a caller's struct gpuocc_prepare filled, perhaps
   changed since) copied into `d` with every field the rule reads bounded to the range the device checks
   give it, so that no stored value reaches the rule out of its range (an index, a shift, a divisor, a
   product).  A changed state answers as some device within those ranges: never a read outside the
   struct, never undefined behaviour. */
void gpuocc_nv_device_bound(const gpuocc_device *stored, gpuocc_device *d);
bool gpuocc_nv_device_fine(const gpuocc_device *d);

/* Named barriers a block may use when the device does not say (PTX ISA, "bar, barrier": ids 0..15). */
#define GPUOCC_NV_BARRIERS_PER_BLOCK 16
int32_t gpuocc_nv_barriers_per_block_max(const gpuocc_device *d); /* the field, or 16 for 0 */

/* The values NVIDIA's rule reads (gpuocc_prepared_nvidia), derived from a checked NVIDIA device: what
   gpuocc_prepare stores and every other query derives on its own device. */
static inline int32_t gpuocc_nv_shift_of(int32_t unit)
{
    return unit > 0 && (unit & (unit - 1)) == 0 ? gpuocc_log2_exact((uint64_t)unit) : -1;
}
static inline void gpuocc_nv_derive(const gpuocc_device *d, gpuocc_prepared_nvidia *v)
{
    v->warp_size = d->warp_size;
    v->warp_shift = gpuocc_nv_shift_of(d->warp_size);
    v->reg_alloc_unit = d->reg_alloc_unit;
    v->reg_alloc_shift = gpuocc_nv_shift_of(d->reg_alloc_unit);
    v->sub_partitions = d->sub_partitions;
    v->sub_partition_shift = gpuocc_nv_shift_of(d->sub_partitions);
    v->reg_compat_sub_partitions = d->reg_compat_sub_partitions;
    v->reg_compat_shift = gpuocc_nv_shift_of(d->reg_compat_sub_partitions);
    v->smem_alloc_unit_bytes = d->smem_alloc_unit_bytes;
    v->smem_alloc_shift = gpuocc_nv_shift_of(d->smem_alloc_unit_bytes);
    v->max_threads_per_block = d->max_threads_per_block;
    v->max_warps_per_sm = (int32_t)gpuocc_div_unit(d->max_threads_per_sm, d->warp_size);
    v->max_blocks_per_sm = d->max_blocks_per_sm;
    v->regs_per_thread_max = d->regs_per_thread_max;
    v->regs_per_block = d->regs_per_block;
    v->regs_per_sub_partition = (int32_t)gpuocc_div_unit(d->regs_per_sm, d->sub_partitions);
    v->regs_per_compat_sub_partition =
        d->reg_compat_sub_partitions > 0 ? (int32_t)gpuocc_div_unit(d->regs_per_sm, d->reg_compat_sub_partitions) : 0;
    v->barriers_per_sm = d->barriers_per_sm;
    v->barriers_per_block_max = d->barriers_per_block_max > 0 ? d->barriers_per_block_max : GPUOCC_NV_BARRIERS_PER_BLOCK;
    v->virtual_resources_per_sm = d->virtual_resources_per_sm;
    v->tmem_columns_per_sm = d->tmem_columns_per_sm;
    v->carveout_count = d->carveout_count;
    memcpy(v->carveouts_kib, d->carveouts_kib, sizeof v->carveouts_kib);
    v->smem_per_sm_bytes = d->smem_per_sm_bytes;
    v->smem_per_block_bytes = d->smem_per_block_bytes;
    v->smem_per_block_optin_bytes = d->smem_per_block_optin_bytes;
    v->smem_reserved_per_block_bytes = d->smem_reserved_per_block_bytes;
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
