/*
 * NVIDIA's rule, the one every query computes through: how many blocks per SM each resource allows, their
 * minimum, which resources tie at it, and when the launch cannot run, the input over a limit.  It reads
 * the values derived once from a checked device (gpuocc_nv_values: units and their shifts, per-SM
 * capacities; gpuocc_nv_derive), which gpuocc_prepare stores and every other query derives on its own
 * device.  The per-resource functions, the inverse queries and the searches use the same parts.  The rules
 * and their sources are in docs/model.md.
 *
 * Every value is read through a bound (gpuocc_nv_small and the others in nvidia.h): a value a caller changed
 * in a prepared state gives some answer, never a shift, a division or a product out of range.  A checked
 * device's values are within the bounds, so they change nothing for it.
 */
#include "nvidia.h"

/* ---- the parts ----
   A value the rule only compares is read as it is (any value is safe there); shifts, indices, divisors, the
   byte counts that sums and products take, and the numerators of the counts it reports are bounded (a changed
   state answers wrongly, never with a negative count). */

static GPUOCC_ALWAYS_INLINE int64_t warps_per_block(const gpuocc_nv_values *v, int64_t threads)
{
    /* threads >= 1 */
    return gpuocc_nv_div_unit(threads - 1, v->warp_size, v->warp_shift) + 1;
}

int64_t gpuocc_nv_warps_per_block(const gpuocc_nv_values *v, int64_t threads)
{
    return warps_per_block(v, threads);
}

static GPUOCC_ALWAYS_INLINE int32_t warps_limit(const gpuocc_nv_values *v, int64_t threads, int64_t warps,
                                                int64_t max_threads)
{
    /* warps >= 1, and at most 2^31 (threads < 2^31) */
    uint32_t blocks = (uint32_t)gpuocc_nv_small(v->max_warps_per_sm) / (uint32_t)warps;
    GPUOCC_KEEP(blocks);
    return gpuocc_select_i32(threads > max_threads, 0, (int32_t)blocks);
}

static GPUOCC_ALWAYS_INLINE int64_t regs_per_warp(const gpuocc_nv_values *v, int64_t regs)
{
    /* regs < 2^31 and |warp_size| < 2^31: the product's magnitude is below 2^62 */
    return gpuocc_nv_round_up(regs * v->warp_size, v->reg_alloc_unit, v->reg_alloc_shift);
}

int64_t gpuocc_nv_regs_per_warp(const gpuocc_nv_values *v, int64_t regs)
{
    return regs_per_warp(v, regs);
}

/* Whether a block of `warps` warps at `per_warp` registers each can be given its registers when the file
   is split into `parts` sub-partitions of `per_part` registers, and if so how many such blocks fit (0 =
   none). */
static GPUOCC_ALWAYS_INLINE int32_t register_blocks(const gpuocc_nv_values *v, int64_t warps, int64_t per_warp,
                                                    int32_t parts, int32_t shift, int32_t per_part)
{
    /* The per-block check assumes every sub-partition is given registers at once, so the block's warps are
       rounded up to a multiple of the sub-partition count (hardware check); the plain product, never
       larger, must fit too (software check).  On a checked device per_warp < 2^32 and warps < 2^31 + 64:
       the product is exact; on a changed state it wraps, never overflows. */
    uint64_t need = (uint64_t)per_warp * (uint64_t)gpuocc_nv_round_up(warps, parts, shift);
    /* Each sub-partition has its own slice of the register file: a warp cannot straddle two.  Where the block
       fits, per_warp <= regs_per_block < 2^31 and the warps the file holds are at most regs_per_sm < 2^31:
       32-bit divisions, their operands bounded for any other case (whose answer the selects drop). */
    uint32_t divisor = (uint32_t)per_warp;
    uint32_t warps_per_part = (uint32_t)per_part / (divisor | (divisor == 0));
    uint64_t file = (uint64_t)warps_per_part * (uint32_t)parts;
    /* a count, never negative: at most INT32_MAX (a changed state's sub-partition count can exceed it) */
    uint32_t blocks = (file > INT32_MAX ? (uint32_t)INT32_MAX : (uint32_t)file) / (uint32_t)warps;
    GPUOCC_KEEP(blocks);
    int32_t limit = gpuocc_select_i32(per_warp == 0, GPUOCC_NO_LIMIT, (int32_t)blocks);
    return gpuocc_select_i32(need > (uint64_t)(int64_t)v->regs_per_block, 0, limit);
}

static GPUOCC_ALWAYS_INLINE int32_t registers_limit(const gpuocc_nv_values *v, int64_t regs, int64_t warps,
                                                    int64_t per_warp)
{
    int32_t blocks =
        register_blocks(v, warps, per_warp, v->sub_partitions, v->sub_partition_shift, v->regs_per_sub_partition);
    /* GP100 runs only what its GP10x siblings could run (family forward compatibility). */
    if (v->reg_compat_sub_partitions != 0) {
        int32_t compat = register_blocks(v, warps, per_warp, v->reg_compat_sub_partitions, v->reg_compat_shift,
                                         v->regs_per_compat_sub_partition);
        blocks = gpuocc_select_i32(compat == 0, 0, blocks);
    }
    return gpuocc_select_i32(regs > v->regs_per_thread_max, 0, blocks);
}

int32_t gpuocc_nv_registers_limit(const gpuocc_nv_values *v, int64_t threads, int64_t regs)
{
    return registers_limit(v, regs, warps_per_block(v, threads), regs_per_warp(v, regs));
}

static GPUOCC_ALWAYS_INLINE int64_t smem_alloc(const gpuocc_nv_values *v, int64_t smem_static, int64_t smem_dynamic)
{
    int64_t used = gpuocc_sat_sum3(smem_static, smem_dynamic, gpuocc_nv_bytes(v->smem_reserved_per_block_bytes));
    return gpuocc_nv_round_up(used, v->smem_alloc_unit_bytes, v->smem_alloc_shift);
}

int64_t gpuocc_nv_smem_alloc(const gpuocc_nv_values *v, int64_t smem_static, int64_t smem_dynamic)
{
    return smem_alloc(v, smem_static, smem_dynamic);
}

/* Dynamic shared memory the kernel may use at most, and whether the opt-in per-block limit applies. */
static GPUOCC_ALWAYS_INLINE int64_t dynamic_max(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    int64_t attribute = k->smem_dynamic_max_bytes, rest = gpuocc_nv_bytes(v->smem_per_block_optin_bytes) - k->smem_static_bytes;
    return attribute >= 0 ? attribute : rest;
}

int64_t gpuocc_nv_dynamic_max(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    return dynamic_max(v, k);
}

static GPUOCC_ALWAYS_INLINE int64_t per_block_limit(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    int64_t per_block = gpuocc_nv_bytes(v->smem_per_block_bytes), reserved = gpuocc_nv_bytes(v->smem_reserved_per_block_bytes);
    int64_t optin = gpuocc_nv_bytes(v->smem_per_block_optin_bytes);
    /* the opt-in limit applies once the kernel's largest possible block exceeds the default (computed
       whether or not the kernel opted in: no branch on a launch's field) */
    int64_t most = dynamic_max(v, k);
    int64_t largest = gpuocc_sat_sum3(k->smem_static_bytes, most > 0 ? most : 0, reserved);
    int optin_applies = (k->smem_optin != 0) & (largest > per_block);
    GPUOCC_KEEP(optin_applies); /* a conditional move below, not a branch on the launch */
    int64_t limit = optin_applies ? optin : per_block;
    return limit + reserved;
}

int64_t gpuocc_nv_smem_block_limit(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    return per_block_limit(v, k);
}

int64_t gpuocc_nv_preferred_carveout(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    int32_t n = gpuocc_nv_carveout_count(v);
    if (n == 0)
        return gpuocc_nv_bytes(v->smem_per_sm_bytes);
    int64_t bytes = gpuocc_nv_preferred_bytes(v, k);
    /* the largest carveout holds smem_per_sm_bytes (a device check): the answer, unless the one below it
       is large enough too */
    if (n == 1 || (int64_t)v->carveouts_kib[n - 2] * 1024 < bytes)
        return (int64_t)v->carveouts_kib[n - 1] * 1024;
    return gpuocc_nv_carveout_at_least(v, bytes);
}

static GPUOCC_ALWAYS_INLINE int64_t carveout_for(const gpuocc_nv_values *v, const gpuocc_kernel *k, int64_t alloc)
{
    if (gpuocc_nv_carveout_count(v) == 0)
        return gpuocc_nv_bytes(v->smem_per_sm_bytes);
    int64_t preferred = gpuocc_nv_preferred_bytes(v, k);
    /* The preferred carveout (there is always one: the largest holds smem_per_sm_bytes), unless one
       block needs more: then the driver picks the smallest that holds the block.  Both are the smallest
       carveout holding the larger of the two sizes. */
    int64_t chosen = gpuocc_nv_carveout_at_least(v, preferred > alloc ? preferred : alloc);
    return chosen >= 0 ? chosen : gpuocc_nv_bytes(v->smem_per_sm_bytes);
}

int64_t gpuocc_nv_carveout_for(const gpuocc_nv_values *v, const gpuocc_kernel *k, int64_t alloc)
{
    return carveout_for(v, k, alloc);
}

static GPUOCC_ALWAYS_INLINE int32_t smem_limit(const gpuocc_nv_values *v, const gpuocc_kernel *k, int64_t alloc, int64_t carveout)
{
    /* alloc fits the per-block limit where the quotient counts, and carveouts are below 2^41 */
    int64_t quotient = gpuocc_div(carveout, alloc | (alloc == 0));
    GPUOCC_KEEP(quotient);
    int32_t blocks = gpuocc_select_i32(alloc == 0, GPUOCC_NO_LIMIT, gpuocc_clamp_i32(quotient));
    int over = (k->smem_optin != 0) & (k->smem_dynamic_bytes > dynamic_max(v, k));
    return gpuocc_select_i32(over | (alloc > per_block_limit(v, k)), 0, blocks);
}

int32_t gpuocc_nv_smem_limit(const gpuocc_nv_values *v, const gpuocc_kernel *k)
{
    int64_t alloc = smem_alloc(v, k->smem_static_bytes, k->smem_dynamic_bytes);
    return smem_limit(v, k, alloc, carveout_for(v, k, alloc));
}

/* A count the SM holds and each block takes some of (barriers; virtual resources on cc 10.x-12.x):
   floor(per SM / per block), GPUOCC_NO_LIMIT when either is 0. */
static GPUOCC_ALWAYS_INLINE int32_t count_limit(int32_t stored_per_sm, int64_t per_block)
{
    uint32_t per_sm = (uint32_t)gpuocc_nv_small(stored_per_sm);
    if (per_sm == 0)
        return GPUOCC_NO_LIMIT;
    /* per_block < 2^31 (a launch's) */
    uint32_t blocks = per_sm / ((uint32_t)per_block | (per_block == 0));
    GPUOCC_KEEP(blocks);
    return gpuocc_select_i32(per_block == 0, GPUOCC_NO_LIMIT, (int32_t)blocks);
}

static GPUOCC_ALWAYS_INLINE int32_t barriers_limit(const gpuocc_nv_values *v, int64_t barriers)
{
    return count_limit(v->barriers_per_sm, barriers);
}

int32_t gpuocc_nv_barriers_limit(const gpuocc_nv_values *v, int64_t barriers)
{
    return barriers_limit(v, barriers);
}

static GPUOCC_ALWAYS_INLINE int32_t virtual_limit(const gpuocc_nv_values *v, int64_t virtual_resources)
{
    return count_limit(v->virtual_resources_per_sm, virtual_resources);
}

int32_t gpuocc_nv_virtual_limit(const gpuocc_nv_values *v, int64_t virtual_resources)
{
    return virtual_limit(v, virtual_resources);
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
static inline bool slots_fit(const gpuocc_nv_values *v, const gpuocc_kernel *k, int64_t warps, int64_t want)
{
    /* want > floor(per SM / per block) is want x per block > per SM (no division; want <= 2^21 once the
       block slots pass it, per block < 2^31) */
    int64_t virtual_resources = k->virtual_resources, virtual_per_sm = gpuocc_nv_small(v->virtual_resources_per_sm);
    if (k->threads_per_block > gpuocc_nv_threads_max(v, k) || want > gpuocc_nv_small(v->max_blocks_per_sm) ||
        (virtual_per_sm != 0 && want * virtual_resources > virtual_per_sm))
        return false;
    /* want <= max_blocks_per_sm < 2^21 from here: the products are small */
    if (want * warps > gpuocc_nv_small(v->max_warps_per_sm))
        return false;
    int64_t barriers_per_sm = gpuocc_nv_small(v->barriers_per_sm);
    return barriers_per_sm == 0 || k->barriers == 0 || want * k->barriers <= barriers_per_sm;
}

/* register_blocks(warps, per_warp, parts) >= want: floor(per_part / per_warp) x parts >= want x warps, i.e.
   per_warp x ceil(want x warps / parts) <= per_part. */
static inline bool register_blocks_fit(const gpuocc_nv_values *v, int64_t warps, int64_t per_warp, int32_t parts,
                                       int32_t shift, int32_t per_part, int64_t want)
{
    /* per_warp < 2^32 (regs <= regs_per_thread_max) and warps < 2^21: the product fits */
    if ((uint64_t)per_warp * (uint64_t)gpuocc_nv_round_up(warps, parts, shift) > (uint64_t)gpuocc_nv_int31(v->regs_per_block))
        return false;
    if (per_warp == 0)
        return true;
    /* per_warp <= regs_per_block < 2^31 here, and m <= per_part < 2^31 below */
    int64_t m = gpuocc_nv_div_unit(want * warps + gpuocc_nv_parts(parts) - 1, parts, shift);
    int64_t room = gpuocc_nv_int31(per_part);
    return m <= room && per_warp * m <= room;
}

static inline bool registers_fit(const gpuocc_nv_values *v, const gpuocc_kernel *k, int64_t warps, int64_t want)
{
    int64_t regs = k->regs_per_thread;
    if (regs > gpuocc_nv_small(v->regs_per_thread_max))
        return false;
    int64_t per_warp = regs_per_warp(v, regs);
    /* registers_limit: GP100's compatibility layout must hold one block */
    return register_blocks_fit(v, warps, per_warp, v->sub_partitions, v->sub_partition_shift,
                               v->regs_per_sub_partition, want) &&
           (gpuocc_nv_compat(v) == 0 ||
            register_blocks_fit(v, warps, per_warp, v->reg_compat_sub_partitions, v->reg_compat_shift,
                                v->regs_per_compat_sub_partition, 1));
}

static inline bool smem_fits(const gpuocc_nv_values *v, const gpuocc_kernel *k, int64_t want)
{
    if (k->smem_optin && k->smem_dynamic_bytes > dynamic_max(v, k))
        return false;
    int64_t alloc = smem_alloc(v, k->smem_static_bytes, k->smem_dynamic_bytes);
    if (alloc > per_block_limit(v, k))
        return false;
    return alloc == 0 || product_at_most(want, alloc, carveout_for(v, k, alloc));
}

/* The largest per-warp allocation step, at most `g`, with which `need` (>= 1) blocks of `warps` (>= 1) warps
   get their registers from one layout of the file (`parts_` sub-partitions of `per_part_` registers each).
   The per-block check: g x unit x warps rounded up to the parts <= regs_per_block, i.e. g <= floor(block_units
   / (parts x c)) = floor(floor(block_units / parts) / c) with c = ceil(warps / parts) >= 1.  The file:
   floor(per_part / (g unit)) x parts / warps >= need <=> floor(per_part / (g unit)) >= ceil(need x warps /
   parts) = m, i.e. g <= floor(floor(per_part / unit) / m).  For one block m = c: one division then. */
static GPUOCC_ALWAYS_INLINE int64_t layout_steps(const gpuocc_nv_values *v, int64_t g, int64_t warps, int64_t need,
                                                 int32_t parts_, int32_t shift, int32_t per_part_)
{
    int64_t parts = gpuocc_nv_unit_of(parts_, shift);
    int64_t c = gpuocc_nv_div_unit(warps + parts - 1, parts_, shift);
    int64_t block_units = gpuocc_nv_div_unit(gpuocc_nv_int31(v->regs_per_block), v->reg_alloc_unit, v->reg_alloc_shift);
    int64_t block_top = gpuocc_nv_div_unit(block_units, parts_, shift);
    int64_t file_top = gpuocc_nv_div_unit(gpuocc_nv_int31(per_part_), v->reg_alloc_unit, v->reg_alloc_shift);
    int64_t by;
    if (need == 1) {
        by = gpuocc_div(block_top < file_top ? block_top : file_top, c);
    } else {
        int64_t m = gpuocc_nv_div_unit(need * warps + parts - 1, parts_, shift);
        /* m at least 1 (a changed state's shift may make it 0) */
        int64_t by_block = gpuocc_div(block_top, c), by_file = gpuocc_div(file_top, m | (m == 0));
        by = by_block < by_file ? by_block : by_file;
    }
    return by < g ? by : g;
}

/*
 * The most registers per thread, at most `hi` (<= regs_per_thread_max), with which the register file holds
 * `want` blocks of `warps` warps; 0 when none but zero registers do.  The register limit falls as the
 * per-warp allocation step g (g x reg_alloc_unit registers) grows: each of its conditions is "g at most
 * something", so the answer is the largest count in the largest step that meets them all.
 */
static GPUOCC_ALWAYS_INLINE int64_t regs_top(const gpuocc_nv_values *v, int64_t warps, int32_t want, int64_t hi)
{
    /* the units as the rule divides by them (a shift, else the unit), each at least 1 */
    int64_t unit = gpuocc_nv_unit_of(v->reg_alloc_unit, v->reg_alloc_shift);
    int64_t warp = gpuocc_nv_unit_of(v->warp_size, v->warp_shift);
    int64_t g = gpuocc_nv_div_unit(hi * warp + unit - 1, v->reg_alloc_unit, v->reg_alloc_shift);
    g = layout_steps(v, g, warps, want, v->sub_partitions, v->sub_partition_shift, v->regs_per_sub_partition);
    /* GP100's compatibility layout must hold one block (registers_limit) */
    if (gpuocc_nv_compat(v) != 0)
        g = layout_steps(v, g, warps, 1, gpuocc_nv_compat(v), v->reg_compat_shift, v->regs_per_compat_sub_partition);
    /* no registers: no register limit */
    int64_t regs = gpuocc_nv_div_unit((g > 0 ? g : 0) * unit, v->warp_size, v->warp_shift);
    return regs < hi ? regs : hi;
}

/* The same with `want` blocks of the kernel fitting every other resource too; -1 if they never do. */
static int64_t regs_max(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t want, int64_t hi)
{
    int64_t warps = warps_per_block(v, k->threads_per_block);
    if (!slots_fit(v, k, warps, want) || !smem_fits(v, k, want))
        return -1; /* no registers at all would not do either */
    return regs_top(v, warps, want, hi);
}

/*
 * The most dynamic shared memory with which `want` blocks fit.  The shared-memory limit is
 * floor(carveout / allocation): within one carveout it falls as the allocation grows, so each carveout the
 * driver may pick gives one candidate (the largest allocation it holds `want` times), and the answer is the
 * best candidate, not a walk over the bytes.
 */
int32_t gpuocc_nv_smem_dynamic_available(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t want,
                                         int64_t *bytes)
{
    int64_t warps = warps_per_block(v, k->threads_per_block);
    if (!slots_fit(v, k, warps, want) || !registers_fit(v, k, warps, want))
        return GPUOCC_ERR_UNSATISFIABLE;
    int64_t unit = gpuocc_nv_unit(v->smem_alloc_unit_bytes);
    /* saturating: a static size near INT64_MAX leaves no room, it does not wrap */
    int64_t fixed = gpuocc_sat_add(k->smem_static_bytes, gpuocc_nv_bytes(v->smem_reserved_per_block_bytes));
    /* the per-block limits: the allocation's own limit (no larger block fits anywhere), and the opt-in
       attribute */
    int64_t most = gpuocc_div(per_block_limit(v, k), unit) * unit - fixed;
    if (k->smem_optin) {
        int64_t attribute = dynamic_max(v, k);
        most = attribute < most ? attribute : most;
    }
    if (most < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    /* fixed + most <= the per-block limit: no saturation */
    int64_t alloc_top = gpuocc_round_up_unit(fixed + most, unit);
    int64_t alloc_least = gpuocc_round_up_unit(fixed, unit);
    int64_t best = 0; /* alloc_top == 0: nothing allocated at all, no shared-memory limit */
    if (alloc_top > 0) {
        int64_t preferred = gpuocc_nv_preferred_carveout(v, k);
        /* Candidates: the largest multiple of the unit <= min(carveout / want, alloc_top) within the
           allocations that get that carveout: (previous carveout, carveout] above the preferred one, and
           (0, preferred] for the preferred one itself.  They grow with the carveout: the first that exists,
           from the largest carveout down, is the answer. */
        best = -1;
        for (int32_t i = gpuocc_nv_carveout_count(v) - 1; i >= 0 && (int64_t)v->carveouts_kib[i] * 1024 > preferred;
             i--) {
            int64_t carveout = (int64_t)v->carveouts_kib[i] * 1024;
            int64_t floor_ = i > 0 ? (int64_t)v->carveouts_kib[i - 1] * 1024 : 0;
            floor_ = preferred > floor_ ? preferred : floor_;
            /* allocations up to alloc_top only; carveout / want must pass the segment's floor */
            if (floor_ >= alloc_top || !product_at_most(want, floor_ + 1, carveout))
                continue;
            int64_t top = gpuocc_div(carveout, want);
            top = gpuocc_div(alloc_top < top ? alloc_top : top, unit) * unit;
            if (top > floor_ && top >= alloc_least) {
                best = top;
                break;
            }
        }
        if (best < 0) {
            int64_t top = gpuocc_div(preferred, want);
            top = gpuocc_div(alloc_top < top ? alloc_top : top, unit) * unit;
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

int64_t gpuocc_nv_smem_search_top(const gpuocc_nv_values *v)
{
    int64_t optin = gpuocc_nv_bytes(v->smem_per_block_optin_bytes), per_sm = gpuocc_nv_bytes(v->smem_per_sm_bytes);
    int64_t top = optin > per_sm ? optin : per_sm;
    return gpuocc_nv_round_up(top + gpuocc_nv_bytes(v->smem_reserved_per_block_bytes), v->smem_alloc_unit_bytes,
                              v->smem_alloc_shift);
}

/* ptxas allocates at most 255 registers per thread (CUDA C++ Programming Guide, compute capabilities). */
#define COMPILER_REGS_MAX 255

int32_t gpuocc_nv_regs_max_for_blocks(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t want, int32_t *regs)
{
    int64_t most = gpuocc_nv_small(v->regs_per_thread_max);
    int64_t hi = most < COMPILER_REGS_MAX ? most : COMPILER_REGS_MAX;
    int64_t found = regs_max(v, k, want, hi);
    if (found < 0)
        return GPUOCC_ERR_UNSATISFIABLE;
    *regs = (int32_t)found;
    return GPUOCC_OK;
}

/* ---- the rule: every field of a launch's result ---- */

/* The input over a limit of a launch that fits no block (r: its answer): the first input, in the order of
   GPUOCC_INPUT_*, whose limit fits no block, and that limit (only its own computed). */
static GPUOCC_NOINLINE void exceeded(const gpuocc_nv_values *v, const gpuocc_kernel *k, const gpuocc_result *r,
                                     int64_t warps, int32_t *input, int64_t *limit)
{
    if (r->limit_warps == 0) {
        /* the block's own maximum (the device's, or the kernel's launch bound), else the SM's warp slots in
           threads */
        int64_t max_threads = gpuocc_nv_threads_max(v, k);
        *input = GPUOCC_INPUT_THREADS;
        *limit = k->threads_per_block > max_threads ? max_threads
                                                    : gpuocc_nv_small(v->max_warps_per_sm) * gpuocc_nv_small(v->warp_size);
        return;
    }
    if (r->limit_regs == 0) {
        /* the most per thread with which one block fits (at most the per-thread maximum) */
        *input = GPUOCC_INPUT_REGS;
        *limit = regs_top(v, warps, 1, gpuocc_nv_small(v->regs_per_thread_max));
        return;
    }
    if (r->limit_smem == 0) {
        /* the opt-in attribute, else the most a block's allocation may be (the per-block limit, or a device's
           one shared-memory size when smaller), what is left of it for the dynamic bytes */
        int64_t attribute = dynamic_max(v, k);
        if (k->smem_optin != 0 && k->smem_dynamic_bytes > attribute) {
            *input = GPUOCC_INPUT_SMEM_DYNAMIC;
            *limit = attribute > 0 ? attribute : 0;
            return;
        }
        int64_t cap = per_block_limit(v, k), per_sm = gpuocc_nv_bytes(v->smem_per_sm_bytes);
        cap = gpuocc_nv_carveout_count(v) == 0 && per_sm < cap ? per_sm : cap;
        int64_t room = gpuocc_nv_round_down(cap, v->smem_alloc_unit_bytes, v->smem_alloc_shift) -
                       gpuocc_nv_bytes(v->smem_reserved_per_block_bytes);
        int64_t left = room - k->smem_static_bytes;
        *input = left >= 0 ? GPUOCC_INPUT_SMEM_DYNAMIC : GPUOCC_INPUT_SMEM_STATIC;
        *limit = left >= 0 ? left : room > 0 ? room : 0;
        return;
    }
    bool barriers = r->limit_barriers == 0;
    *input = barriers ? GPUOCC_INPUT_BARRIERS : GPUOCC_INPUT_VIRTUAL_RESOURCES;
    *limit = gpuocc_nv_small(barriers ? v->barriers_per_sm : v->virtual_resources_per_sm);
}

static GPUOCC_ALWAYS_INLINE void compute(const gpuocc_nv_values *v, const gpuocc_kernel *k, gpuocc_result *r)
{
    int64_t threads = k->threads_per_block, regs = k->regs_per_thread;
    int64_t warps_per_block_ = warps_per_block(v, threads);
    /* regs x warp_size < 2^52: the allocation per warp is computed once for the limit and the result */
    int64_t per_warp = regs_per_warp(v, regs);
    int64_t alloc = smem_alloc(v, k->smem_static_bytes, k->smem_dynamic_bytes);
    int64_t carveout = carveout_for(v, k, alloc);
    int32_t warps_blocks = warps_limit(v, threads, warps_per_block_, gpuocc_nv_threads_max(v, k));
    int32_t regs_blocks = registers_limit(v, regs, warps_per_block_, per_warp);
    int32_t smem_blocks = smem_limit(v, k, alloc, carveout);
    int32_t slot_blocks = (int32_t)gpuocc_nv_small(v->max_blocks_per_sm);
    int32_t barrier_blocks = barriers_limit(v, k->barriers);
    int32_t virtual_blocks = virtual_limit(v, k->virtual_resources);

    int32_t blocks = warps_blocks < regs_blocks ? warps_blocks : regs_blocks;
    blocks = smem_blocks < blocks ? smem_blocks : blocks;
    blocks = slot_blocks < blocks ? slot_blocks : blocks;
    blocks = barrier_blocks < blocks ? barrier_blocks : blocks;
    blocks = virtual_blocks < blocks ? virtual_blocks : blocks;
    uint32_t limiters = gpuocc_nv_limiters((uint32_t)blocks, (uint32_t)warps_blocks, (uint32_t)regs_blocks,
                                           (uint32_t)smem_blocks, (uint32_t)slot_blocks, (uint32_t)barrier_blocks,
                                           (uint32_t)virtual_blocks);

    int32_t max_warps = (int32_t)gpuocc_nv_unit(v->max_warps_per_sm); /* a divisor: at least 1 */
    /* blocks is at most the warp slots' limit, floor(max_warps_per_sm / warps per block) with the warp slots
       bounded below 2^21, so this product is too (and warps per block are at most the threads, < 2^31) */
    int64_t warps = (int64_t)blocks * warps_per_block_;

    r->limiters = limiters;
    r->blocks_per_sm = blocks;
    r->warps_per_sm = (int32_t)warps;
    r->max_warps_per_sm = max_warps;
    r->warps_per_block = (int32_t)warps_per_block_;
    r->occupancy = (double)warps / (double)max_warps;
    r->limit_warps = warps_blocks; /* never unlimited */
    r->limit_regs = gpuocc_public_limit(regs_blocks);
    r->limit_smem = gpuocc_public_limit(smem_blocks);
    r->limit_blocks = slot_blocks;
    r->limit_barriers = gpuocc_public_limit(barrier_blocks);
    /* saturating: the allocation per warp read as at most 2^31 (a changed state's negative one too), times
       warps per block < 2^31, is below 2^62 */
    uint64_t capped = (uint64_t)per_warp < ((uint64_t)1 << 31) ? (uint64_t)per_warp : (uint64_t)1 << 31;
    r->regs_per_block = gpuocc_clamp_i32((int64_t)(capped * (uint64_t)warps_per_block_));
    r->smem_per_block_bytes = alloc;
    r->smem_per_sm_bytes = carveout;
    r->limit_virtual_resources = gpuocc_public_limit(virtual_blocks);
    /* NVIDIA has no waves per SIMD, no SGPR limit and no GPU-wide count */
    r->model = 0;
    r->waves_per_simd = 0;
    r->limit_sgprs = GPUOCC_UNLIMITED;
    r->workgroups_per_gpu = 0;
    r->reserved0 = 0, r->reserved2 = 0, r->reserved3 = 0;
    r->reserved[0] = 0, r->reserved[1] = 0;
    int32_t input = GPUOCC_INPUT_NONE;
    int64_t limit = 0;
    if (blocks == 0)
        exceeded(v, k, r, warps_per_block_, &input, &limit);
    r->exceeded = input;
    r->exceeded_limit = limit;
}

void gpuocc_nv_compute(const gpuocc_nv_values *v, const gpuocc_kernel *k, gpuocc_result *r)
{
    compute(v, k, r);
}

/* The first of another vendor's kernel fields that is set (GPUOCC_INPUT_*), or GPUOCC_INPUT_NONE (a checked
   kernel's reserved words are zero: the one-pass test of the kernel's words first). */
int32_t gpuocc_nv_foreign_input(const gpuocc_kernel *k)
{
    if (gpuocc_nv_kernel_foreign_zero(k) ||
        (k->agprs | k->sgprs | k->wave_size | k->cu_mode | k->model | k->rocm_version | k->dvgpr | k->sub_group |
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

static GPUOCC_ALWAYS_INLINE int32_t launch_refusal(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t *input,
                                                   int64_t *limit)
{
    /* tensor memory on a device without it (the kernel's check has kept the column count in its domain) */
    if (k->tmem_columns > 0 && v->tmem_columns_per_sm == 0) {
        *input = GPUOCC_INPUT_TMEM_COLUMNS;
        *limit = 0;
        return GPUOCC_ERR_TMEM;
    }
    /* docs/model.md, "Launches that cannot run": more named barriers than a block may use (PTX ISA, "bar,
       barrier": ids 0..15), static shared memory above smem_per_block_bytes (CUDA C++ Programming Guide:
       static __shared__ at most 48 KiB per block) */
    int64_t most = v->barriers_per_block_max;
    if (k->barriers > most) {
        *input = GPUOCC_INPUT_BARRIERS;
        *limit = most;
        return GPUOCC_ERR_EXCEEDED;
    }
    int64_t per_block = gpuocc_nv_bytes(v->smem_per_block_bytes);
    if (k->smem_static_bytes > per_block) {
        *input = GPUOCC_INPUT_SMEM_STATIC;
        *limit = per_block;
        return GPUOCC_ERR_EXCEEDED;
    }
    /* a block's shared memory that saturated (static + dynamic >= 2^60 would be reported as a made-up
       number; sizes below 2^40 each, every real case, cannot get there, so the sum is skipped then) */
    if (((k->smem_static_bytes | k->smem_dynamic_bytes) >> 40) &&
        smem_alloc(v, k->smem_static_bytes, k->smem_dynamic_bytes) >= GPUOCC_BYTES_HUGE) {
        *input = GPUOCC_INPUT_NONE;
        *limit = 0;
        return GPUOCC_ERR_OVERFLOW;
    }
    *input = GPUOCC_INPUT_NONE;
    *limit = 0;
    return GPUOCC_OK;
}

int32_t gpuocc_nv_launch_refusal(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    return launch_refusal(v, k, input, limit);
}

int32_t gpuocc_nv_occupancy(const gpuocc_nv_values *v, const gpuocc_kernel *kernel, gpuocc_result *result,
                            gpuocc_nv_single_fn checked)
{
    if (!kernel || !result || kernel->size != sizeof *kernel || result->size != sizeof *result ||
        !gpuocc_nv_kernel_plain(kernel))
        return checked(v, kernel, result);
    int32_t input;
    int64_t limit;
    int32_t rc = launch_refusal(v, kernel, &input, &limit);
    if (GPUOCC_LIKELY(rc == GPUOCC_OK)) {
        compute(v, kernel, result);
        return GPUOCC_OK;
    }
    if (input != GPUOCC_INPUT_NONE) {
        result->exceeded = input;
        result->exceeded_limit = limit;
    }
    return rc;
}

int32_t gpuocc_nv_refusal_values(const gpuocc_nv_values *v, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    if ((*input = gpuocc_nv_foreign_input(k)) != GPUOCC_INPUT_NONE) {
        *limit = 0;
        return GPUOCC_ERR_ARGUMENT;
    }
    return gpuocc_nv_launch_refusal(v, k, input, limit);
}

/* ---- on a checked device: the values derived, then the same parts (the vendor table, the per-resource
   functions, next steps) ---- */

int32_t gpuocc_nv_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    /* only the values the refusals read: the queries that check a launch this way then derive the values
       themselves, and deriving them twice cost the inverse queries and the searches a tenth of their time */
    gpuocc_nv_values v;
    gpuocc_nv_derive_refusal(d, &v);
    return gpuocc_nv_refusal_values(&v, k, input, limit);
}

void gpuocc_nv_compute_device(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    gpuocc_nv_compute(&v, k, r);
}

int32_t gpuocc_rule_warps(const gpuocc_device *d, int64_t threads)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return warps_limit(&v, threads, warps_per_block(&v, threads), v.max_threads_per_block);
}

int32_t gpuocc_rule_registers(const gpuocc_device *d, int64_t threads, int64_t regs)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return gpuocc_nv_registers_limit(&v, threads, regs);
}

int32_t gpuocc_rule_smem(const gpuocc_device *d, const gpuocc_kernel *k)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return gpuocc_nv_smem_limit(&v, k);
}

int32_t gpuocc_rule_barriers(const gpuocc_device *d, int64_t barriers)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return barriers_limit(&v, barriers);
}

int64_t gpuocc_rule_regs_per_warp(const gpuocc_device *d, int64_t regs)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return regs_per_warp(&v, regs);
}

int64_t gpuocc_rule_smem_alloc(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return smem_alloc(&v, smem_static, smem_dynamic);
}

int64_t gpuocc_rule_carveout(const gpuocc_device *d, const gpuocc_kernel *k)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return carveout_for(&v, k, smem_alloc(&v, k->smem_static_bytes, k->smem_dynamic_bytes));
}

static int32_t nv_limit_blocks(const gpuocc_device *d)
{
    return d->max_blocks_per_sm;
}

static int64_t nv_regs_per_block(const gpuocc_device *d, int64_t threads, int64_t regs)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return regs_per_warp(&v, regs) * warps_per_block(&v, threads);
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

/* The vendor table's inverse queries, on a checked device. */
int32_t gpuocc_nv_smem_dynamic_available_device(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,
                                                int64_t *bytes)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return gpuocc_nv_smem_dynamic_available(&v, k, want, bytes);
}

int32_t gpuocc_nv_regs_max_for_blocks_device(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,
                                             int32_t *regs)
{
    gpuocc_nv_values v;
    gpuocc_nv_derive(d, &v);
    return gpuocc_nv_regs_max_for_blocks(&v, k, want, regs);
}
