/*
 * NVIDIA's rule, the one every query computes through: how many blocks per SM each resource allows, their
 * minimum, which resources tie at it, and when the launch cannot run, the input over a limit
 * (gpuocc_nv_occupancy).  The per-resource functions and the inverse queries use the same parts.  The rules
 * and their sources are in docs/model.md; the numbers they use all come from the device description.
 */
#include "nvidia.h"

static int64_t warps_per_block(const gpuocc_device *d, int64_t threads)
{
    /* threads >= 1 */
    return gpuocc_div_unit(threads - 1, d->warp_size) + 1;
}

static inline int32_t warps_limit(const gpuocc_device *d, int64_t threads, int64_t warps)
{
    if (threads > d->max_threads_per_block)
        return 0;
    /* both are at most 2^20 once the block fits */
    return (int32_t)((uint32_t)gpuocc_div_unit(d->max_threads_per_sm, d->warp_size) / (uint32_t)warps);
}

int32_t gpuocc_rule_warps(const gpuocc_device *d, int64_t threads)
{
    return warps_limit(d, threads, warps_per_block(d, threads));
}

int64_t gpuocc_rule_regs_per_warp(const gpuocc_device *d, int64_t regs)
{
    return gpuocc_round_up_unit(regs * d->warp_size, d->reg_alloc_unit);
}

/* Whether a block of `warps` warps at `per_warp` registers each can be given its registers when the file
   is split into `parts` sub-partitions, and if so how many such blocks fit (0 = none). */
static inline int32_t register_blocks(const gpuocc_device *d, int64_t warps, int64_t per_warp, int64_t parts)
{
    /* The per-block check assumes every sub-partition is given registers at once, so the block's
       warps are rounded up to a multiple of the sub-partition count (hardware check); the plain
       product, never larger, must fit too (software check).  per_warp < 2^31, warps < 2^31 + 64. */
    if (per_warp * gpuocc_round_up_unit(warps, parts) > d->regs_per_block)
        return 0;
    if (per_warp == 0)
        return GPUOCC_NO_LIMIT;
    /* Each sub-partition has its own slice of the register file: a warp cannot straddle two.  The
       warps that fit are at most regs_per_sm < 2^31, so the division is a 32-bit one. */
    uint32_t warps_per_part = (uint32_t)gpuocc_div_unit(d->regs_per_sm, parts) / (uint32_t)per_warp;
    return (int32_t)(warps_per_part * (uint32_t)parts / (uint64_t)warps);
}

static inline int32_t registers_limit(const gpuocc_device *d, int64_t regs, int64_t warps, int64_t per_warp)
{
    if (regs > d->regs_per_thread_max)
        return 0;
    int32_t blocks = register_blocks(d, warps, per_warp, d->sub_partitions);
    /* GP100 runs only what its GP10x siblings could run (family forward compatibility). */
    if (blocks != 0 && d->reg_compat_sub_partitions > 0 &&
        register_blocks(d, warps, per_warp, d->reg_compat_sub_partitions) == 0)
        return 0;
    return blocks;
}

int32_t gpuocc_rule_registers(const gpuocc_device *d, int64_t threads, int64_t regs)
{
    if (regs > d->regs_per_thread_max)
        return 0;
    return registers_limit(d, regs, warps_per_block(d, threads), gpuocc_rule_regs_per_warp(d, regs));
}

static inline int64_t smem_alloc(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic)
{
    int64_t used = gpuocc_sat_add(gpuocc_sat_add(smem_static, smem_dynamic), d->smem_reserved_per_block_bytes);
    return gpuocc_round_up_unit(used, d->smem_alloc_unit_bytes);
}

/* Dynamic shared memory the kernel may use at most, and whether the opt-in per-block limit applies. */
static int64_t dynamic_max(const gpuocc_device *d, const gpuocc_kernel *k)
{
    if (k->smem_dynamic_max_bytes >= 0)
        return k->smem_dynamic_max_bytes;
    return d->smem_per_block_optin_bytes - k->smem_static_bytes;
}

static int64_t per_block_limit(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int64_t limit = d->smem_per_block_bytes;
    if (k->smem_optin) {
        /* the opt-in limit applies once the kernel's largest possible block exceeds the default */
        int64_t most = dynamic_max(d, k);
        int64_t largest = gpuocc_sat_add(gpuocc_sat_add(k->smem_static_bytes, d->smem_reserved_per_block_bytes),
                                         most > 0 ? most : 0);
        if (largest > d->smem_per_block_bytes)
            limit = d->smem_per_block_optin_bytes;
    }
    return limit + d->smem_reserved_per_block_bytes;
}

int64_t gpuocc_nv_preferred_carveout(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int32_t n = d->carveout_count;
    if (n == 0)
        return d->smem_per_sm_bytes;
    int64_t bytes = gpuocc_nv_preferred_bytes(d, k);
    /* the largest carveout holds smem_per_sm_bytes (a device check): the answer, unless the one below it
       is large enough too */
    if (n == 1 || (int64_t)d->carveouts_kib[n - 2] * 1024 < bytes)
        return (int64_t)d->carveouts_kib[n - 1] * 1024;
    return gpuocc_nv_carveout_at_least(d, bytes);
}

int64_t gpuocc_nv_dynamic_max(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return dynamic_max(d, k);
}

int64_t gpuocc_nv_smem_block_limit(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return per_block_limit(d, k);
}

static inline int64_t carveout_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc)
{
    if (d->carveout_count == 0)
        return d->smem_per_sm_bytes;
    int64_t preferred = gpuocc_nv_preferred_bytes(d, k);
    /* The preferred carveout (there is always one: the largest holds smem_per_sm_bytes), unless one
       block needs more: then the driver picks the smallest that holds the block.  Both are the smallest
       carveout holding the larger of the two sizes. */
    int64_t chosen = gpuocc_nv_carveout_at_least(d, preferred > alloc ? preferred : alloc);
    return chosen >= 0 ? chosen : d->smem_per_sm_bytes;
}
int64_t gpuocc_rule_smem_alloc(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic)
{
    return smem_alloc(d, smem_static, smem_dynamic);
}

int64_t gpuocc_rule_carveout_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc)
{
    return carveout_for(d, k, alloc);
}

int64_t gpuocc_rule_carveout(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return gpuocc_rule_carveout_for(d, k, gpuocc_rule_smem_alloc(d, k->smem_static_bytes, k->smem_dynamic_bytes));
}

static inline int32_t smem_limit(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc, int64_t carveout)
{
    if (k->smem_optin && k->smem_dynamic_bytes > dynamic_max(d, k))
        return 0;
    if (alloc > per_block_limit(d, k))
        return 0;
    if (alloc == 0)
        return GPUOCC_NO_LIMIT;
    /* alloc fits the per-block limit here, and carveouts are below 2^41 */
    return gpuocc_clamp_i32(gpuocc_div(carveout, alloc));
}

int32_t gpuocc_rule_smem_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc, int64_t carveout)
{
    return smem_limit(d, k, alloc, carveout);
}

int32_t gpuocc_rule_smem(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int64_t alloc = gpuocc_rule_smem_alloc(d, k->smem_static_bytes, k->smem_dynamic_bytes);
    return gpuocc_rule_smem_for(d, k, alloc, gpuocc_rule_carveout_for(d, k, alloc));
}

static inline int32_t barriers_limit(const gpuocc_device *d, int64_t barriers)
{
    if (d->barriers_per_sm == 0 || barriers == 0)
        return GPUOCC_NO_LIMIT;
    return gpuocc_clamp_i32(gpuocc_div(d->barriers_per_sm, barriers));
}

int32_t gpuocc_rule_barriers(const gpuocc_device *d, int64_t barriers)
{
    return barriers_limit(d, barriers);
}

/* n x m <= limit for n, m, limit >= 0, without overflow: the product itself where it fits. */
static inline bool product_at_most(int64_t n, int64_t m, int64_t limit)
{
    if (((uint64_t)n | (uint64_t)m) < ((uint64_t)1 << 31))
        return n * m <= limit;
    return m == 0 || n <= limit / m;
}

/* The inverse queries ask "do `want` (>= 1) blocks fit?" of each resource they do not solve for: a limit
   floor(capacity / demand) >= want is want x demand <= capacity, a product instead of a division. */

/* The warp slots, the block slots, the virtual resources and the barriers. */
static inline bool slots_fit(const gpuocc_device *d, const gpuocc_kernel *k, int64_t warps, int64_t want)
{
    /* want > floor(per SM / per block) is want x per block > per SM (no division; want <= 2^20 once the
       block slots pass it, per block < 2^31) */
    int64_t virtual_resources = k->virtual_resources, virtual_per_sm = d->virtual_resources_per_sm;
    if (k->threads_per_block > d->max_threads_per_block || want > d->max_blocks_per_sm ||
        (virtual_per_sm != 0 && want * virtual_resources > virtual_per_sm))
        return false;
    /* want <= max_blocks_per_sm <= 2^20 from here: the products are small */
    if (want * warps > gpuocc_div_unit(d->max_threads_per_sm, d->warp_size))
        return false;
    return d->barriers_per_sm == 0 || k->barriers == 0 || want * k->barriers <= d->barriers_per_sm;
}

/* register_blocks(d, warps, per_warp, parts) >= want: floor(floor(regs_per_sm / parts) / per_warp) x parts
   >= want x warps, i.e. per_warp x ceil(want x warps / parts) <= regs_per_sm / parts. */
static inline bool register_blocks_fit(const gpuocc_device *d, int64_t warps, int64_t per_warp, int64_t parts,
                                       int64_t want)
{
    /* per_warp < 2^32 (regs <= regs_per_thread_max) and warps < 2^21: the product fits */
    if (per_warp * gpuocc_round_up_unit(warps, parts) > d->regs_per_block)
        return false;
    if (per_warp == 0)
        return true;
    /* per_warp <= regs_per_block < 2^31 here, and m <= per_part < 2^31 below */
    int64_t per_part = gpuocc_div_unit(d->regs_per_sm, parts);
    int64_t m = gpuocc_div_unit(want * warps + parts - 1, parts);
    return m <= per_part && per_warp * m <= per_part;
}

static inline bool registers_fit(const gpuocc_device *d, const gpuocc_kernel *k, int64_t warps, int64_t want)
{
    int64_t regs = k->regs_per_thread;
    if (regs > d->regs_per_thread_max)
        return false;
    int64_t per_warp = gpuocc_rule_regs_per_warp(d, regs);
    /* registers_limit: GP100's compatibility layout must hold one block */
    return register_blocks_fit(d, warps, per_warp, d->sub_partitions, want) &&
           (d->reg_compat_sub_partitions == 0 ||
            register_blocks_fit(d, warps, per_warp, d->reg_compat_sub_partitions, 1));
}

static inline bool smem_fits(const gpuocc_device *d, const gpuocc_kernel *k, int64_t want)
{
    if (k->smem_optin && k->smem_dynamic_bytes > dynamic_max(d, k))
        return false;
    int64_t alloc = smem_alloc(d, k->smem_static_bytes, k->smem_dynamic_bytes);
    if (alloc > per_block_limit(d, k))
        return false;
    return alloc == 0 || product_at_most(want, alloc, carveout_for(d, k, alloc));
}

/*
 * The most registers per thread, at most `hi` (<= regs_per_thread_max), with which the register file holds
 * `want` blocks of `warps` warps; 0 when none but zero registers do.  The register limit falls as the
 * per-warp allocation step g (g x reg_alloc_unit registers) grows: each of its conditions is "g at most
 * something", so the answer is the largest count in the largest step that meets them all.
 */
static int64_t regs_top(const gpuocc_device *d, int64_t warps, int32_t want, int64_t hi)
{
    int64_t unit = d->reg_alloc_unit;
    int64_t g = gpuocc_div_unit(hi * d->warp_size + unit - 1, unit);
    int32_t parts_list[2] = {d->sub_partitions, d->reg_compat_sub_partitions};
    for (int32_t i = 0; i < 2 && parts_list[i] > 0; i++) {
        int64_t parts = parts_list[i];
        /* the per-block check: g x unit x warps rounded up to the parts <= regs_per_block */
        int64_t by_block = gpuocc_div(d->regs_per_block, unit * gpuocc_round_up_unit(warps, parts));
        /* the file: floor(floor(regs_per_sm / parts) / (g unit)) x parts / warps >= need (need = want, or
           1 for the compatibility layout) <=> floor(per_part / (g unit)) >= ceil(need x warps / parts) = m,
           i.e. g <= floor(per_part / (m unit)) */
        int64_t per_part = gpuocc_div_unit(d->regs_per_sm, parts);
        int64_t m = gpuocc_div_unit((i == 0 ? want : 1) * warps + parts - 1, parts);
        int64_t by_file = m > per_part ? 0 : gpuocc_div(per_part, m * unit);
        g = by_block < g ? by_block : g;
        g = by_file < g ? by_file : g;
    }
    if (g <= 0)
        return 0; /* no registers: no register limit */
    int64_t regs = gpuocc_div_unit(g * unit, d->warp_size);
    return regs < hi ? regs : hi;
}

/* The same with `want` blocks of the kernel fitting every other resource too; -1 if they never do. */
static int64_t regs_max(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t hi)
{
    int64_t warps = warps_per_block(d, k->threads_per_block);
    if (!slots_fit(d, k, warps, want) || !smem_fits(d, k, want))
        return -1; /* no registers at all would not do either */
    return regs_top(d, warps, want, hi);
}

/*
 * The most dynamic shared memory with which `want` blocks fit.  The shared-memory limit is
 * floor(carveout / allocation): within one carveout it falls as the allocation grows, so each carveout the
 * driver may pick gives one candidate (the largest allocation it holds `want` times), and the answer is the
 * best candidate, not a walk over the bytes.
 */
int32_t gpuocc_nv_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t *bytes)
{
    int64_t warps = warps_per_block(d, k->threads_per_block);
    if (!slots_fit(d, k, warps, want) || !registers_fit(d, k, warps, want))
        return GPUOCC_ERR_UNSATISFIABLE;
    int64_t unit = d->smem_alloc_unit_bytes;
    /* saturating: a static size near INT64_MAX leaves no room, it does not wrap */
    int64_t fixed = gpuocc_sat_add(k->smem_static_bytes, d->smem_reserved_per_block_bytes);
    /* the per-block limits: the allocation's own limit (no larger block fits anywhere), and the opt-in
       attribute */
    int64_t most = gpuocc_div_unit(per_block_limit(d, k), unit) * unit - fixed;
    if (k->smem_optin) {
        int64_t attribute = dynamic_max(d, k);
        most = attribute < most ? attribute : most;
    }
    if (most < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    /* fixed + most <= the per-block limit: no saturation */
    int64_t alloc_top = gpuocc_round_up_unit(fixed + most, unit);
    int64_t alloc_least = gpuocc_round_up_unit(fixed, unit);
    int64_t best = 0; /* alloc_top == 0: nothing allocated at all, no shared-memory limit */
    if (alloc_top > 0) {
        int64_t preferred = gpuocc_nv_preferred_carveout(d, k);
        /* Candidates: the largest multiple of the unit <= min(carveout / want, alloc_top) within the
           allocations that get that carveout: (previous carveout, carveout] above the preferred one, and
           (0, preferred] for the preferred one itself.  They grow with the carveout: the first that exists,
           from the largest carveout down, is the answer. */
        best = -1;
        for (int32_t i = d->carveout_count - 1; i >= 0 && (int64_t)d->carveouts_kib[i] * 1024 > preferred; i--) {
            int64_t carveout = (int64_t)d->carveouts_kib[i] * 1024;
            int64_t floor_ = i > 0 ? (int64_t)d->carveouts_kib[i - 1] * 1024 : 0;
            floor_ = preferred > floor_ ? preferred : floor_;
            /* allocations up to alloc_top only; carveout / want must pass the segment's floor */
            if (floor_ >= alloc_top || !product_at_most(want, floor_ + 1, carveout))
                continue;
            int64_t top = gpuocc_div(carveout, want);
            top = gpuocc_div_unit(alloc_top < top ? alloc_top : top, unit) * unit;
            if (top > floor_ && top >= alloc_least) {
                best = top;
                break;
            }
        }
        if (best < 0) {
            int64_t top = gpuocc_div(preferred, want);
            top = gpuocc_div_unit(alloc_top < top ? alloc_top : top, unit) * unit;
            if (top > 0 && top >= alloc_least)
                best = top;
            else if (alloc_least == 0)
                best = 0; /* only an empty block would fit: no allocation, no limit */
            else
                return GPUOCC_ERR_UNSATISFIABLE;
        }
    }
    int64_t found = best - fixed;
    *bytes = found < most ? found : most;
    return GPUOCC_OK;
}

int64_t gpuocc_nv_smem_search_top(const gpuocc_device *d)
{
    int64_t top = d->smem_per_block_optin_bytes > d->smem_per_sm_bytes ? d->smem_per_block_optin_bytes
                                                                       : d->smem_per_sm_bytes;
    return gpuocc_round_up_unit(top + d->smem_reserved_per_block_bytes, d->smem_alloc_unit_bytes);
}

/* ptxas allocates at most 255 registers per thread (CUDA C++ Programming Guide, compute capabilities). */
#define COMPILER_REGS_MAX 255

int32_t gpuocc_nv_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs)
{
    int64_t hi = d->regs_per_thread_max < COMPILER_REGS_MAX ? d->regs_per_thread_max : COMPILER_REGS_MAX;
    int64_t found = regs_max(d, k, want, hi);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *regs = (int32_t)found;
    return GPUOCC_OK;
}

static void rule_all(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    int64_t threads = k->threads_per_block, regs = k->regs_per_thread;
    int64_t warps_per_block_ = warps_per_block(d, threads);
    /* regs x warp_size < 2^41: the allocation per warp is computed once for the limit and the result */
    int64_t per_warp = gpuocc_rule_regs_per_warp(d, regs);
    int64_t alloc = smem_alloc(d, k->smem_static_bytes, k->smem_dynamic_bytes);
    int64_t carveout = carveout_for(d, k, alloc);
    int32_t warps_blocks = warps_limit(d, threads, warps_per_block_);
    int32_t regs_blocks = registers_limit(d, regs, warps_per_block_, per_warp);
    int32_t smem_blocks = smem_limit(d, k, alloc, carveout);
    int32_t slot_blocks = d->max_blocks_per_sm;
    int32_t barrier_blocks = barriers_limit(d, k->barriers);
    int32_t virtual_blocks = gpuocc_rule_virtual(d, k->virtual_resources);

    int32_t blocks = warps_blocks < regs_blocks ? warps_blocks : regs_blocks;
    blocks = smem_blocks < blocks ? smem_blocks : blocks;
    blocks = slot_blocks < blocks ? slot_blocks : blocks;
    blocks = barrier_blocks < blocks ? barrier_blocks : blocks;
    blocks = virtual_blocks < blocks ? virtual_blocks : blocks;
    uint32_t limiters = gpuocc_nv_limiters((uint32_t)blocks, (uint32_t)warps_blocks, (uint32_t)regs_blocks,
                                           (uint32_t)smem_blocks, (uint32_t)slot_blocks, (uint32_t)barrier_blocks,
                                           (uint32_t)virtual_blocks);

    int32_t max_warps = (int32_t)gpuocc_div_unit(d->max_threads_per_sm, d->warp_size);
    /* blocks is at most the block-slot cap (< 2^21), so this product is small */
    int64_t warps = (int64_t)blocks * warps_per_block_;

    r->limiters = limiters;
    r->blocks_per_sm = blocks;
    r->warps_per_sm = gpuocc_clamp_i32(warps);
    r->max_warps_per_sm = max_warps;
    r->warps_per_block = gpuocc_clamp_i32(warps_per_block_);
    r->occupancy = (double)warps / (double)max_warps;
    r->limit_warps = warps_blocks; /* never unlimited */
    r->limit_regs = gpuocc_public_limit(regs_blocks);
    r->limit_smem = gpuocc_public_limit(smem_blocks);
    r->limit_blocks = slot_blocks;
    r->limit_barriers = gpuocc_public_limit(barrier_blocks);
    /* per_warp < 2^42 and warps per block < 2^31: saturate rather than overflow */
    r->regs_per_block = per_warp > INT32_MAX ? INT32_MAX : gpuocc_clamp_i32(per_warp * warps_per_block_);
    r->smem_per_block_bytes = alloc;
    r->smem_per_sm_bytes = carveout;
    r->limit_virtual_resources = gpuocc_public_limit(virtual_blocks);
    r->reserved2 = 0;
    /* NVIDIA has no waves per SIMD, no SGPR limit and no GPU-wide count */
    r->model = 0;
    r->waves_per_simd = 0;
    r->limit_sgprs = GPUOCC_UNLIMITED;
    r->reserved0 = 0;
    r->workgroups_per_gpu = 0;
}

/* The first of another vendor's kernel fields that is set (GPUOCC_INPUT_*), or GPUOCC_INPUT_NONE. */
static int32_t foreign_input(const gpuocc_kernel *k)
{
    if ((k->agprs | k->sgprs | k->wave_size | k->cu_mode | k->model | k->rocm_version | k->dvgpr | k->sub_group |
         k->grf | k->trap_handler | k->waves_per_eu_min | k->waves_per_eu_max | k->flat_workgroup_size_min) == 0)
        return GPUOCC_INPUT_NONE;
    return k->agprs          ? GPUOCC_INPUT_AGPRS
           : k->sgprs        ? GPUOCC_INPUT_SGPRS
           : k->wave_size    ? GPUOCC_INPUT_WAVE_SIZE
           : k->cu_mode      ? GPUOCC_INPUT_CU_MODE
           : k->model        ? GPUOCC_INPUT_MODEL
           : k->rocm_version ? GPUOCC_INPUT_ROCM
           : k->dvgpr        ? GPUOCC_INPUT_DVGPR
           : k->trap_handler ? GPUOCC_INPUT_TRAP_HANDLER
           : (k->waves_per_eu_min | k->waves_per_eu_max) ? GPUOCC_INPUT_WAVES_PER_EU
           : k->flat_workgroup_size_min ? GPUOCC_INPUT_FLAT_WORKGROUP_SIZE
           : k->sub_group    ? GPUOCC_INPUT_SUB_GROUP
                             : GPUOCC_INPUT_GRF;
}

int32_t gpuocc_nv_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    *input = GPUOCC_INPUT_NONE;
    *limit = 0;
    if ((*input = foreign_input(k)) != GPUOCC_INPUT_NONE)
        return GPUOCC_ERR_ARGUMENT;
    /* tensor memory on a device without it (the kernel's check has kept the column count in its domain) */
    if (k->tmem_columns > 0 && d->tmem_columns_per_sm == 0) {
        *input = GPUOCC_INPUT_TMEM_COLUMNS;
        return GPUOCC_ERR_TMEM;
    }
    /* docs/model.md, "Launches that cannot run": more named barriers than a block may use (PTX ISA, "bar,
       barrier": ids 0..15), static shared memory above smem_per_block_bytes (CUDA C++ Programming Guide:
       static __shared__ at most 48 KiB per block) */
    int32_t most = gpuocc_nv_barriers_per_block_max(d);
    if (k->barriers > most) {
        *input = GPUOCC_INPUT_BARRIERS;
        *limit = most;
        return GPUOCC_ERR_EXCEEDED;
    }
    if (k->smem_static_bytes > d->smem_per_block_bytes) {
        *input = GPUOCC_INPUT_SMEM_STATIC;
        *limit = d->smem_per_block_bytes;
        return GPUOCC_ERR_EXCEEDED;
    }
    return GPUOCC_OK;
}

/* The input over a limit of a launch that fits no block (r: its answer), in the order of GPUOCC_INPUT_*. */
static void exceeded(const gpuocc_device *d, const gpuocc_kernel *k, const gpuocc_result *r, int32_t *input,
                     int64_t *limit)
{
    int64_t threads = k->threads_per_block;
    if (r->limit_warps == 0) {
        /* the block's own maximum, else the SM's warp slots in threads */
        *input = GPUOCC_INPUT_THREADS;
        *limit = threads > d->max_threads_per_block ? d->max_threads_per_block
                                                    : gpuocc_div_unit(d->max_threads_per_sm, d->warp_size) * d->warp_size;
    } else if (r->limit_regs == 0) {
        /* the most registers per thread with which one block fits (at most the per-thread maximum) */
        *input = GPUOCC_INPUT_REGS;
        *limit = regs_top(d, warps_per_block(d, threads), 1, d->regs_per_thread_max);
    } else if (r->limit_smem == 0) {
        /* the opt-in attribute, else the most a block's allocation may be: the per-block limit, or a
           device's one shared-memory size when smaller; what is left of it for the dynamic bytes */
        int64_t attribute = dynamic_max(d, k);
        if (k->smem_optin && k->smem_dynamic_bytes > attribute) {
            *input = GPUOCC_INPUT_SMEM_DYNAMIC;
            *limit = attribute > 0 ? attribute : 0;
            return;
        }
        int64_t cap = per_block_limit(d, k);
        if (d->carveout_count == 0 && d->smem_per_sm_bytes < cap)
            cap = d->smem_per_sm_bytes;
        int64_t room = gpuocc_div_unit(cap, d->smem_alloc_unit_bytes) * d->smem_alloc_unit_bytes -
                       d->smem_reserved_per_block_bytes;
        int64_t left = room - k->smem_static_bytes;
        *input = left >= 0 ? GPUOCC_INPUT_SMEM_DYNAMIC : GPUOCC_INPUT_SMEM_STATIC;
        *limit = left >= 0 ? left : room > 0 ? room : 0;
    } else if (r->limit_barriers == 0) {
        *input = GPUOCC_INPUT_BARRIERS;
        *limit = d->barriers_per_sm;
    } else {
        *input = GPUOCC_INPUT_VIRTUAL_RESOURCES;
        *limit = d->virtual_resources_per_sm;
    }
}

void gpuocc_nv_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    rule_all(d, k, r);
    int32_t input = GPUOCC_INPUT_NONE;
    int64_t limit = 0;
    if (r->blocks_per_sm == 0)
        exceeded(d, k, r, &input, &limit);
    r->exceeded = input;
    r->reserved3 = 0;
    r->exceeded_limit = limit;
}

/* ---- the table lib/api/limits.c's public wrappers dispatch to ---- */

static int32_t nv_limit_blocks(const gpuocc_device *d)
{
    return d->max_blocks_per_sm;
}

static int64_t nv_regs_per_block(const gpuocc_device *d, int64_t threads, int64_t regs)
{
    return gpuocc_rule_regs_per_warp(d, regs) * warps_per_block(d, threads);
}

const struct gpuocc_vendor_rules *gpuocc_nvidia_vendor_rules(void)
{
    static const struct gpuocc_vendor_rules rules = {
        .limit_warps = gpuocc_rule_warps,
        .limit_registers = gpuocc_rule_registers,
        .limit_smem = gpuocc_rule_smem,
        .limit_blocks = nv_limit_blocks,
        .limit_barriers = gpuocc_rule_barriers,
        .regs_per_warp = gpuocc_rule_regs_per_warp,
        .regs_per_block = nv_regs_per_block,
        .smem_per_block = gpuocc_rule_smem_alloc,
        .smem_per_sm = gpuocc_rule_carveout,
    };
    return &rules;
}
