/*
 * NVIDIA's rules for many launches on one device: the prepared device (a checked copy plus the warps the
 * register file gives at each allocation step) and the loop over a batch.  Every answer equals
 * gpuocc_rule_all's; devices whose units are not powers of two, or whose tables would not fit, take
 * gpuocc_rule_all itself per launch.
 */
#include "../core/internal.h"

/* Allocation steps per warp the tables cover (64 x 256 registers > 255 registers x 32 lanes), and warps
   per block the reciprocal table covers (64 x 32 threads > 1024). */
#define STEPS 64
#define WARPS_MAX 64
/* Shared memory per SM in KiB the carveout table covers (every NVIDIA carveout so far is <= 228 KiB). */
#define KIB_MAX 256
#define NO_CARVEOUT GPUOCC_MAX_CARVEOUTS

struct nv_prepared {
    gpuocc_device device;
    uint64_t check;                        /* state_sum: a guard against stray writes */
    int32_t regs_warps[STEPS + 1];         /* by step g (g x reg_alloc_unit registers per warp): warps per SM */
    int32_t regs_warps_compat[STEPS + 1];  /* the same split into reg_compat_sub_partitions parts */
    /* by KiB needed (the last entry: KIB_MAX or more): the index of the smallest carveout that large,
       NO_CARVEOUT when none is (or the device has none) */
    uint8_t carveout_index[KIB_MAX + 1];
};
_Static_assert(sizeof(struct nv_prepared) <= sizeof(((gpuocc_prepared *)0)->opaque), "prepared state fits");
_Static_assert(sizeof(struct nv_prepared) % sizeof(uint64_t) == 0, "prepared state is whole words");

/* ceil(2^32 / w): floor(x / w) == (x * reciprocal[w]) >> 32 whenever x * w < 2^32. */
#define R(w) ((((uint64_t)1 << 32) + (w) - 1) / (w))
#define R4(w) R(w), R(w + 1), R(w + 2), R(w + 3)
#define R16(w) R4(w), R4(w + 4), R4(w + 8), R4(w + 12)
static const uint64_t reciprocal[WARPS_MAX + 1] = {0, R16(1), R16(17), R16(33), R16(49)};
#undef R16
#undef R4
#undef R

static bool power_of_two(int64_t x)
{
    return x > 0 && (x & (x - 1)) == 0;
}

/* The per-batch constants, from the stored device and the base kernel. */
struct context {
    const gpuocc_device *d;
    const struct nv_prepared *p;
    const gpuocc_kernel *k;
    bool regular;
    int warp_shift, unit_shift, part_shift, compat_shift, smem_shift;
    uint32_t slots;
    int64_t preferred_kib;
    int64_t carveout_bytes[GPUOCC_MAX_CARVEOUTS + 1]; /* by carveout_index; the last: smem_per_sm_bytes */
    int32_t barrier_blocks;
};

static bool regular_device(const gpuocc_device *d)
{
    return power_of_two(d->warp_size) && power_of_two(d->reg_alloc_unit) && power_of_two(d->sub_partitions) &&
           (d->reg_compat_sub_partitions == 0 || power_of_two(d->reg_compat_sub_partitions)) &&
           power_of_two(d->smem_alloc_unit_bytes) &&
           (int64_t)d->max_threads_per_block <= (int64_t)WARPS_MAX * d->warp_size &&
           (int64_t)d->regs_per_thread_max * d->warp_size <= (int64_t)STEPS * d->reg_alloc_unit &&
           d->regs_per_sm / d->reg_alloc_unit < ((int64_t)1 << 26) &&
           /* shared memory in allocation units fits 32 bits */
           d->smem_per_sm_bytes / d->smem_alloc_unit_bytes <= UINT32_MAX &&
           (d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes) / d->smem_alloc_unit_bytes <= UINT32_MAX &&
           (d->carveout_count == 0 || d->carveouts_kib[d->carveout_count - 1] < KIB_MAX);
}

/* A weighted sum of every word but the check itself: odd weights make any single flipped bit change it. */
static uint64_t state_sum(const struct nv_prepared *p)
{
    uint64_t words[sizeof *p / sizeof(uint64_t)];
    memcpy(words, p, sizeof words);
    uint64_t sum = 0;
    size_t skip = offsetof(struct nv_prepared, check) / sizeof(uint64_t);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        sum += i == skip ? 0 : words[i] * (2 * i + 1);
    return sum;
}

/* Warps per SM the register file gives at `per_warp` registers per warp, split into `parts`. */
static int32_t file_warps(const gpuocc_device *d, int64_t per_warp, int32_t parts)
{
    if (parts == 0 || per_warp == 0)
        return 0;
    return (int32_t)(d->regs_per_sm / parts / per_warp * parts);
}

void gpuocc_nv_prepare(const gpuocc_device *d, uint64_t *opaque)
{
    struct nv_prepared p;
    memset(&p, 0, sizeof p);
    p.device = *d;
    if (regular_device(d))
        for (int32_t g = 1; g <= STEPS; g++) {
            int64_t per_warp = (int64_t)g * d->reg_alloc_unit;
            p.regs_warps[g] = file_warps(d, per_warp, d->sub_partitions);
            p.regs_warps_compat[g] = file_warps(d, per_warp, d->reg_compat_sub_partitions);
        }
    for (int32_t kib = 0; kib <= KIB_MAX; kib++) {
        int32_t i = 0;
        while (i < d->carveout_count && d->carveouts_kib[i] < kib)
            i++;
        p.carveout_index[kib] = (uint8_t)(i < d->carveout_count ? i : NO_CARVEOUT);
    }
    p.check = state_sum(&p);
    memcpy(opaque, &p, sizeof p);
}

struct out {
    int32_t status, blocks, warps;
    uint32_t limiters;
    double occupancy;
    int32_t limit_warps, limit_regs, limit_smem, limit_blocks, limit_barriers, regs_per_block;
    int64_t smem_per_block, smem_per_sm;
};

static inline int32_t min32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

#define CHUNK 64

/* Column-wise copies of a chunk of results. */
struct chunk {
    int32_t status[CHUNK], blocks[CHUNK], warps[CHUNK];
    uint32_t limiters[CHUNK];
    double occupancy[CHUNK];
    int32_t limit_warps[CHUNK], limit_regs[CHUNK], limit_smem[CHUNK], limit_blocks[CHUNK], limit_barriers[CHUNK];
    int32_t regs_per_block[CHUNK];
    int64_t smem_per_block[CHUNK], smem_per_sm[CHUNK];
};

static void put(struct chunk *ch, size_t j, const struct out *o)
{
    ch->status[j] = o->status, ch->blocks[j] = o->blocks, ch->warps[j] = o->warps;
    ch->limiters[j] = o->limiters, ch->occupancy[j] = o->occupancy;
    ch->limit_warps[j] = o->limit_warps, ch->limit_regs[j] = o->limit_regs, ch->limit_smem[j] = o->limit_smem;
    ch->limit_blocks[j] = o->limit_blocks, ch->limit_barriers[j] = o->limit_barriers;
    ch->regs_per_block[j] = o->regs_per_block;
    ch->smem_per_block[j] = o->smem_per_block, ch->smem_per_sm[j] = o->smem_per_sm;
}

/* One valid launch of at most WARPS_MAX warps on a regular device.  Written to compile to conditional moves rather than branches: the
   launches of a batch are often random, and a mispredicted branch costs more than both arms. */
static inline void launch(const struct context *c, int64_t threads, int64_t regs, int64_t smem_static,
                          int64_t smem_dynamic, struct chunk *ch, size_t j)
{
    const gpuocc_device *d = c->d;
    const gpuocc_kernel *k = c->k;
    uint32_t warps_per_block = ((uint32_t)(threads - 1) >> c->warp_shift) + 1;
    int32_t warps_fit = (int32_t)(((uint64_t)c->slots * reciprocal[warps_per_block]) >> 32);
    int32_t warps_blocks = threads > d->max_threads_per_block ? 0 : warps_fit;

    /* registers: per-warp allocation (64-bit: regs x warp_size < 2^41), its step g in the table */
    int64_t per_warp = ((regs * d->warp_size + d->reg_alloc_unit - 1) >> c->unit_shift) << c->unit_shift;
    bool over = regs > d->regs_per_thread_max;
    int64_t g = over ? 0 : per_warp >> c->unit_shift; /* <= STEPS on a regular device */
    uint64_t step_regs = (uint64_t)g << c->unit_shift;
    uint64_t rounded = (((uint64_t)warps_per_block + (uint64_t)d->sub_partitions - 1) >> c->part_shift)
                       << c->part_shift;
    uint32_t x = (uint32_t)c->p->regs_warps[g];
    int32_t regs_fit = (int32_t)((x * reciprocal[warps_per_block]) >> 32);
    if (d->reg_compat_sub_partitions > 0) {
        uint64_t parts = (uint64_t)d->reg_compat_sub_partitions;
        uint64_t compat = (((uint64_t)warps_per_block + parts - 1) >> c->compat_shift) << c->compat_shift;
        bool compat_fails = step_regs * compat > (uint64_t)d->regs_per_block ||
                            (uint32_t)c->p->regs_warps_compat[g] < warps_per_block;
        regs_fit = compat_fails ? 0 : regs_fit;
    }
    int32_t regs_blocks = g == 0 ? GPUOCC_NO_LIMIT : regs_fit;
    regs_blocks = over || step_regs * rounded > (uint64_t)d->regs_per_block ? 0 : regs_blocks;

    /* shared memory */
    int64_t used = gpuocc_sat_add(gpuocc_sat_add(smem_static, smem_dynamic), d->smem_reserved_per_block_bytes);
    int64_t alloc = ((used + d->smem_alloc_unit_bytes - 1) >> c->smem_shift) << c->smem_shift;
    /* the carveout holding the larger of the preference and the block (see carveout_for) */
    int64_t kib = (alloc + 1023) >> 10;
    kib = kib > c->preferred_kib ? kib : c->preferred_kib;
    int64_t carveout = c->carveout_bytes[c->p->carveout_index[kib < KIB_MAX ? kib : KIB_MAX]];
    int64_t dynamic_max = k->smem_dynamic_max_bytes >= 0 ? k->smem_dynamic_max_bytes
                                                         : d->smem_per_block_optin_bytes - smem_static;
    int64_t limit = d->smem_per_block_bytes;
    bool too_much = false;
    if (k->smem_optin) {
        int64_t largest = gpuocc_sat_add(gpuocc_sat_add(smem_static, d->smem_reserved_per_block_bytes),
                                         dynamic_max > 0 ? dynamic_max : 0);
        limit = largest > d->smem_per_block_bytes ? d->smem_per_block_optin_bytes : limit;
        too_much = smem_dynamic > dynamic_max;
    }
    limit += d->smem_reserved_per_block_bytes;
    /* floor(C / (a u)) = floor(floor(C / u) / a); both fit 32 bits on a regular device */
    uint32_t alloc_units = (uint32_t)(alloc >> c->smem_shift);
    uint32_t fit = (uint32_t)(carveout >> c->smem_shift) / (alloc_units | (alloc_units == 0));
    int32_t smem_blocks = alloc == 0 ? GPUOCC_NO_LIMIT : (int32_t)fit;
    smem_blocks = too_much || alloc > limit ? 0 : smem_blocks;

    int32_t slot_blocks = d->max_blocks_per_sm;
    int32_t blocks = min32(min32(min32(warps_blocks, regs_blocks), min32(smem_blocks, slot_blocks)),
                           c->barrier_blocks);
    int64_t warps = (int64_t)blocks * warps_per_block;
    ch->status[j] = GPUOCC_OK;
    ch->blocks[j] = blocks;
    ch->warps[j] = (int32_t)warps; /* at most the warp slots */
    ch->limiters[j] = (uint32_t)(warps_blocks == blocks) << GPUOCC_RESOURCE_WARPS |
                      (uint32_t)(regs_blocks == blocks) << GPUOCC_RESOURCE_REGISTERS |
                      (uint32_t)(smem_blocks == blocks) << GPUOCC_RESOURCE_SMEM |
                      (uint32_t)(slot_blocks == blocks) << GPUOCC_RESOURCE_BLOCKS |
                      (uint32_t)(c->barrier_blocks == blocks) << GPUOCC_RESOURCE_BARRIERS;
    ch->occupancy[j] = (double)warps / (double)c->slots;
    ch->limit_warps[j] = warps_blocks;
    ch->limit_regs[j] = gpuocc_public_limit(regs_blocks);
    ch->limit_smem[j] = gpuocc_public_limit(smem_blocks);
    ch->limit_blocks[j] = slot_blocks;
    ch->limit_barriers[j] = gpuocc_public_limit(c->barrier_blocks);
    /* per_warp < 2^42 and warps_per_block < 2^31: the product wraps (unsigned) only when it is not used */
    uint64_t regs_per_block = (uint64_t)per_warp * warps_per_block;
    ch->regs_per_block[j] = per_warp > INT32_MAX || regs_per_block > INT32_MAX ? INT32_MAX : (int32_t)regs_per_block;
    ch->smem_per_block[j] = alloc;
    ch->smem_per_sm[j] = carveout;
}

/* Any valid launch on any device: the single-launch rules. */
static void launch_plain(const struct context *c, int64_t threads, int64_t regs, int64_t smem_static,
                         int64_t smem_dynamic, struct out *o)
{
    gpuocc_kernel k = *c->k;
    k.threads_per_block = (int32_t)threads;
    k.regs_per_thread = (int32_t)regs;
    k.smem_static_bytes = smem_static;
    k.smem_dynamic_bytes = smem_dynamic;
    gpuocc_result r;
    gpuocc_rule_all(c->d, &k, &r);
    *o = (struct out){GPUOCC_OK,      r.blocks_per_sm, r.warps_per_sm,   r.limiters,        r.occupancy,
                      r.limit_warps,  r.limit_regs,    r.limit_smem,     r.limit_blocks,    r.limit_barriers,
                      r.regs_per_block, r.smem_per_block_bytes, r.smem_per_sm_bytes};
}

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

#define COPY(field, member)                                                                                        \
    if (b->field)                                                                                                  \
    memcpy(b->field + start, ch->member, n * sizeof ch->member[0])

static void flush(const gpuocc_batch *b, const struct chunk *ch, size_t start, size_t n)
{
    COPY(status, status);
    COPY(blocks_per_sm, blocks);
    COPY(warps_per_sm, warps);
    COPY(occupancy, occupancy);
    COPY(limiters, limiters);
    COPY(limit_warps, limit_warps);
    COPY(limit_regs, limit_regs);
    COPY(limit_smem, limit_smem);
    COPY(limit_blocks, limit_blocks);
    COPY(limit_barriers, limit_barriers);
    COPY(regs_per_block, regs_per_block);
    COPY(smem_per_block_bytes, smem_per_block);
    COPY(smem_per_sm_bytes, smem_per_sm);
}
#undef COPY

int32_t gpuocc_nv_batch(const uint64_t *opaque, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count)
{
    struct nv_prepared p;
    memcpy(&p, opaque, sizeof p);
    if (p.device.size != sizeof p.device || !gpuocc_device_fine(&p.device) || p.check != state_sum(&p))
        return GPUOCC_ERR_DEVICE;
    const gpuocc_device *d = &p.device;
    struct context c = {.d = d, .p = &p, .k = k, .regular = regular_device(d)};
    if (c.regular) {
        c.warp_shift = gpuocc_log2_exact((uint64_t)d->warp_size);
        c.unit_shift = gpuocc_log2_exact((uint64_t)d->reg_alloc_unit);
        c.part_shift = gpuocc_log2_exact((uint64_t)d->sub_partitions);
        c.compat_shift = d->reg_compat_sub_partitions ? gpuocc_log2_exact((uint64_t)d->reg_compat_sub_partitions) : 0;
        c.smem_shift = gpuocc_log2_exact((uint64_t)d->smem_alloc_unit_bytes);
    }
    c.slots = (uint32_t)(d->max_threads_per_sm / d->warp_size);
    c.barrier_blocks = gpuocc_rule_barriers(d, k->barriers);
    int64_t preferred = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT
                            ? d->smem_per_sm_bytes
                            : (int64_t)k->carveout_percent * d->smem_per_sm_bytes / 100;
    c.preferred_kib = (preferred + 1023) >> 10;
    for (int32_t i = 0; i < d->carveout_count; i++)
        c.carveout_bytes[i] = (int64_t)d->carveouts_kib[i] * 1024;
    c.carveout_bytes[NO_CARVEOUT] = d->smem_per_sm_bytes;

    /* a column not given reads the base kernel's value at stride 0 */
    const int32_t *threads = b->threads_per_block ? b->threads_per_block : &k->threads_per_block;
    const int32_t *regs = b->regs_per_thread ? b->regs_per_thread : &k->regs_per_thread;
    size_t threads_step = b->threads_per_block != NULL, regs_step = b->regs_per_thread != NULL;
    struct chunk ch;
    int64_t smem_static[CHUNK], smem_dynamic[CHUNK];
    for (size_t start = 0; start < count; start += CHUNK) {
        size_t n = count - start < CHUNK ? count - start : CHUNK;
        load_smem(smem_static, b->smem_static_bytes, b->smem_width, start, n, k->smem_static_bytes);
        load_smem(smem_dynamic, b->smem_dynamic_bytes, b->smem_width, start, n, k->smem_dynamic_bytes);
        for (size_t j = 0; j < n; j++) {
            int64_t t = threads[(start + j) * threads_step], r = regs[(start + j) * regs_step];
            int64_t st = smem_static[j], dy = smem_dynamic[j];
            int32_t bad = t < 1 ? GPUOCC_ERR_THREADS
                          : r < 0 ? GPUOCC_ERR_REGISTERS
                          : (st < 0 || dy < 0) ? GPUOCC_ERR_SMEM
                          /* a saturated allocation is not reported, as in gpuocc_occupancy */
                          : ((st | dy) >> 40 && gpuocc_rule_smem_alloc(d, st, dy) >= GPUOCC_BYTES_HUGE)
                              ? GPUOCC_ERR_OVERFLOW
                              : GPUOCC_OK;
            if (!bad && c.regular && t <= (int64_t)WARPS_MAX << c.warp_shift) {
                launch(&c, t, r, st, dy, &ch, j);
            } else {
                struct out o = {.status = bad};
                if (!bad)
                    launch_plain(&c, t, r, st, dy, &o);
                put(&ch, j, &o);
            }
        }
        flush(b, &ch, start, n);
    }
    return GPUOCC_OK;
}
