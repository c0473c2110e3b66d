/* The interface between the vendors and the API: the table of operations each vendor gives, its
   per-resource rules and catalog part, and the helpers every vendor's batch and limits use.  The ground
   layer defines it; it names no vendor. */
#ifndef GPUOCC_CORE_VENDOR_H
#define GPUOCC_CORE_VENDOR_H

#include "arith.h"

#include <stdbool.h>

/* Rules on checked, local copies (no validation, no struct handling).  Limits use INT32_MAX for
   "unlimited" internally; the public API turns that into GPUOCC_UNLIMITED. */
#define GPUOCC_NO_LIMIT INT32_MAX

static inline int32_t gpuocc_public_limit(int32_t limit)
{
    /* GPUOCC_UNLIMITED is -1: all ones where the limit is none, without a branch (compilers make one of
       the conditional expression, which random launches mispredict) */
    _Static_assert(GPUOCC_UNLIMITED == -1, "GPUOCC_UNLIMITED is all ones");
    return limit | -(int32_t)(limit == GPUOCC_NO_LIMIT);
}


/* How the block-size search gets each candidate's dynamic shared memory. */
enum gpuocc_smem_source { GPUOCC_SMEM_AFFINE, GPUOCC_SMEM_TABLE, GPUOCC_SMEM_CALLBACK };
struct gpuocc_smem_rule {
    enum gpuocc_smem_source source;
    int64_t base, per_thread;      /* affine: base + per_thread x threads, both >= 0 */
    const int64_t *table;          /* table: table[threads], count entries */
    int32_t count;
    gpuocc_smem_fn fn;             /* callback */
    void *user_data;
};

/* A block-size candidate's dynamic shared memory as the rule gives it (threads >= 1): GPUOCC_ERR_BUFFER past
   a table, GPUOCC_ERR_SMEM when negative; an affine rule saturates at GPUOCC_BYTES_HUGE. */
static inline int32_t gpuocc_smem_rule_bytes(const struct gpuocc_smem_rule *rule, int32_t threads, int64_t *bytes)
{
    switch (rule->source) {
    case GPUOCC_SMEM_AFFINE: {
        /* both are >= 0 and threads <= 2^20 */
        int64_t per = rule->per_thread > GPUOCC_BYTES_HUGE / threads ? GPUOCC_BYTES_HUGE : rule->per_thread * threads;
        *bytes = gpuocc_sat_add(rule->base, per);
        return GPUOCC_OK;
    }
    case GPUOCC_SMEM_TABLE:
        if (threads >= rule->count)
            return GPUOCC_ERR_BUFFER;
        *bytes = rule->table[threads];
        break;
    case GPUOCC_SMEM_CALLBACK:
        *bytes = rule->fn(threads, rule->user_data);
        break;
    }
    return *bytes < 0 ? GPUOCC_ERR_SMEM : GPUOCC_OK;
}

/* A batch launch's own values (threads, registers, byte counts as its columns gave them): GPUOCC_OK or the
   status naming the first bad one, the same order for every vendor; each adds its own check of a block's
   bytes that saturate. */
static inline int32_t gpuocc_batch_values_status(int64_t threads, int64_t regs, int64_t smem_static,
                                                 int64_t smem_dynamic)
{
    return threads < 1                             ? GPUOCC_ERR_THREADS
           : regs < 0                              ? GPUOCC_ERR_REGISTERS
           : (smem_static < 0 || smem_dynamic < 0) ? GPUOCC_ERR_SMEM
                                                   : GPUOCC_OK;
}

/* Row i of a batch's outputs: its status, and in each column the caller gave the field of `r` (for a status
   other than GPUOCC_OK, `r` holds zeros). */
static inline void gpuocc_batch_put(const gpuocc_batch *b, size_t i, int32_t status, const gpuocc_result *r)
{
    b->status[i] = status;
#define GPUOCC_PUT(field)                                                                                          \
    if (b->field)                                                                                                  \
    b->field[i] = r->field
    GPUOCC_PUT(blocks_per_sm);
    GPUOCC_PUT(warps_per_sm);
    GPUOCC_PUT(occupancy);
    GPUOCC_PUT(limiters);
    GPUOCC_PUT(limit_warps);
    GPUOCC_PUT(limit_regs);
    GPUOCC_PUT(limit_smem);
    GPUOCC_PUT(limit_blocks);
    GPUOCC_PUT(limit_barriers);
    GPUOCC_PUT(regs_per_block);
    GPUOCC_PUT(smem_per_block_bytes);
    GPUOCC_PUT(smem_per_sm_bytes);
    GPUOCC_PUT(waves_per_simd);
    GPUOCC_PUT(limit_sgprs);
#undef GPUOCC_PUT
}

/* Rows 0 .. count - 1 of a batch on a checked device and kernel, each launch through `compute` (the
   vendor's) and stored with gpuocc_batch_put (lib/core/rows.c): the batch loop of a vendor without a fast
   one of its own. */
void gpuocc_batch_rows(const gpuocc_device *d, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count,
                       void (*compute)(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r));

/* The guard of a vendor's prepared state: a weighted sum of its 64-bit words but the one at `check_offset`
   (the guard itself); odd weights make any single flipped bit change it. */
static inline uint64_t gpuocc_state_sum(const void *state, size_t bytes, size_t check_offset)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < bytes / sizeof(uint64_t); i++) {
        uint64_t word;
        memcpy(&word, (const unsigned char *)state + i * sizeof word, sizeof word);
        sum += i == check_offset / sizeof word ? 0 : word * (2 * i + 1);
    }
    return sum;
}

/* Prepared states are read in place from the caller's gpuocc_prepared (its opaque words): their struct
   types may alias them. */
#if defined(__GNUC__)
#define GPUOCC_MAY_ALIAS __attribute__((may_alias))
#else
#define GPUOCC_MAY_ALIAS
#endif

/* The tag of the words a prepared call reads (gpuocc_occupancy_prepared, a short batch): a Fletcher sum of
   its 64-bit words (the sum, and the sum of the running sums, which sees where a word sits) in two lanes,
   plus a seed.  Any one changed word changes it (adding is one-to-one), swapped words almost always, and
   zeros do not give the zero a state never prepared holds.  Additions only, without a multiplication, so
   that it costs a few cycles and out-of-order execution overlaps it with the call's own work. */
#define GPUOCC_TAG_SEED 0x9e3779b97f4a7c15u
static inline uint64_t gpuocc_state_tag(const void *state, size_t words)
{
    const unsigned char *p = (const unsigned char *)state;
#if GPUOCC_VECTORS
    gpuocc_u64x2 sum = {GPUOCC_TAG_SEED, 0}, sums = {0, 0};
    size_t i = 0;
    for (; i + 2 <= words; i += 2) {
        gpuocc_u64x2 v;
        memcpy(&v, p + i * sizeof(uint64_t), sizeof v);
        sum += v;
        sums += sum;
    }
    uint64_t last = 0;
    if (i < words)
        memcpy(&last, p + i * sizeof last, sizeof last);
    /* odd weights on the sums, even on the running sums: a word changed by d changes the tag by an odd
       multiple of d, never zero */
    return sum[0] + 3 * sum[1] + 2 * sums[0] + 6 * sums[1] + 11 * last;
#else
    uint64_t sum = GPUOCC_TAG_SEED, sums = 0;
    for (size_t i = 0; i < words; i++) {
        uint64_t word;
        memcpy(&word, p + i * sizeof word, sizeof word);
        sum += word;
        sums += sum;
    }
    return sum + 2 * sums; /* an odd multiple of any one word's change, as above */
#endif
}

/* A vendor's part of the built-in table: its architecture rows then its product rows, indexed from 0
   (valid indexes only).  The API's catalog (lib/api/catalog.c) puts the parts one after another in the
   order of lib/api/vendors.c.  find takes a normalized key (gpuocc_key_normalize) and gives an index in the
   part, or -1. */
struct gpuocc_catalog_part {
    int32_t arch_count, product_count;
    int32_t (*find)(const char *key);
    const char *(*name)(int32_t index);
    const char *(*source)(int32_t index);
    void (*fill)(int32_t index, gpuocc_device *d);
};

/* One vendor's per-resource rules on checked, local copies (gpuocc_limit_warps and the other public
   per-resource functions call them).  Limits are in blocks, GPUOCC_NO_LIMIT where the resource cannot limit. */
struct gpuocc_vendor_rules {
    int32_t (*limit_warps)(const gpuocc_device *d, int64_t threads);
    int32_t (*limit_registers)(const gpuocc_device *d, int64_t threads, int64_t regs);
    int32_t (*limit_smem)(const gpuocc_device *d, const gpuocc_kernel *k);
    int32_t (*limit_blocks)(const gpuocc_device *d);
    int32_t (*limit_barriers)(const gpuocc_device *d, int64_t barriers);
    int64_t (*regs_per_warp)(const gpuocc_device *d, int64_t regs);
    int64_t (*regs_per_block)(const gpuocc_device *d, int64_t threads, int64_t regs);
    int64_t (*smem_per_block)(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic);
    int64_t (*smem_per_sm)(const gpuocc_device *d, const gpuocc_kernel *k);
};

/* An input a next step may change (lib/api/steps.c): the resource it feeds (GPUOCC_RESOURCE_*, the
   input as gpuocc_next_steps names it), the least value a step may give it (a step never takes away what
   the kernel needs) and the most (the compiler's largest; INT64_MAX where none). */
struct gpuocc_lever {
    int32_t resource;
    int64_t floor, most;
};
#define GPUOCC_LEVERS_MAX 6

/*
 * What a vendor gives the API: one table per vendor (lib/nvidia/vendor.c, lib/amd/vendor.c), which the API
 * finds by the device's vendor field (lib/api/vendors.c) and calls.  Every operation takes checked
 * structs in the current layout: the device accepted by check_device, the kernel by the field checks of
 * gpuocc_kernel_load and then check_pair.  Functions, not data, so that the amalgamation can make them static.
 */
struct gpuocc_vendor {
    const char *name;
    /* the device's own fields (its reserved words are checked already): GPUOCC_OK or the status naming
       the first bad one */
    int32_t (*check_device)(const gpuocc_device *d);
    /* what only the pair can tell (an AMD kernel's wave size and AGPRs against its device) */
    int32_t (*check_pair)(const gpuocc_device *d, const gpuocc_kernel *k);
    /* every field of `r` but size and reserved, as gpuocc_occupancy documents them */
    void (*compute)(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);
    const struct gpuocc_vendor_rules *(*rules)(void);
    const struct gpuocc_catalog_part *(*catalog)(void);
    /* the prepared state (starting with the checked device) and a batch on it (which re-checks the state) */
    void (*prepare)(const gpuocc_device *d, uint64_t *opaque);
    int32_t (*batch)(const uint64_t *opaque, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count);
    /* The prepared single call (gpuocc_occupancy_prepared): the state's checked device, or NULL when the
       state's tag does not match (not this vendor's state, or changed since prepare); and the fast answer
       for a kernel and a result in the current layout, true when answered (every field of `r` but size),
       false (nothing written) when the API must check and compute on prepared_device's device. */
    const gpuocc_device *(*prepared_device)(const uint64_t *opaque);
    bool (*occupancy_prepared)(const uint64_t *opaque, const gpuocc_kernel *k, gpuocc_result *r);
    /* The searches and inverse queries, answering as the public functions of the same names
       (GPUOCC_ERR_UNSATISFIABLE when there is no answer; outputs written on success only). */
    int32_t (*best_block)(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                          int32_t *threads, int32_t *min_grid);
    int32_t (*smem_dynamic_available)(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t *bytes);
    int32_t (*regs_max_for_blocks)(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs);
    int32_t (*next_step)(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                         int64_t *shed);
    /* The inputs a next step may change for this kernel on this device, in resource order, into `levers`
       (at most GPUOCC_LEVERS_MAX); their count. */
    int32_t (*step_levers)(const gpuocc_device *d, const gpuocc_kernel *k, struct gpuocc_lever *levers);
    /* The first value in (v, to] of `axis` where the answer may differ from v's (INT64_MAX if none), for a
       kernel whose axis value is the sweep's start.  `bmax`: block counts above it cannot change the answer
       (the smallest limit that does not move along the axis, plus one). */
    int64_t (*sweep_next)(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to,
                          int32_t bmax);
    /* gpuocc_sweep_range's answer */
    void (*sweep_range)(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from, int64_t *to,
                        int64_t *step);
    /* Thread-block clusters: the most blocks per cluster the device accepts (0: no clusters modelled;
       GPUOCC_CLUSTER_MAX_UNKNOWN: not published), and the published GPC layout of a normalized name
       (GPUOCC_ERR_UNKNOWN_DEVICE when there is none; the layout is written in full on success). */
    int32_t (*cluster_size_max)(const gpuocc_device *d, int32_t nonportable);
    int32_t (*gpc_layout)(const char *key, gpuocc_gpc_layout *layout);
};

/* The cluster operations of a vendor whose clusters are not modelled. */
static inline int32_t gpuocc_no_cluster_size_max(const gpuocc_device *d, int32_t nonportable)
{
    (void)d, (void)nonportable;
    return 0;
}
static inline int32_t gpuocc_no_gpc_layout(const char *key, gpuocc_gpc_layout *layout)
{
    (void)key, (void)layout;
    return GPUOCC_ERR_UNKNOWN_DEVICE;
}

/* GPC layouts (lib/core/gpcs.c).  A caller's layout in the current struct: GPUOCC_OK or
   GPUOCC_ERR_ARGUMENT (out of its documented ranges); and its SMs in all. */
int32_t gpuocc_gpc_layout_check(const gpuocc_gpc_layout *l);
int64_t gpuocc_gpc_layout_sms(const gpuocc_gpc_layout *l);
/* Resident clusters of `cluster_blocks` blocks at `blocks_per_sm` (>= 0) on a checked layout: the sum over
   its GPCs of floor(SMs x blocks_per_sm / cluster_blocks), and for a die's shape (exact = 0) its least and
   most over every layout the shape and SM count allow. */
void gpuocc_gpc_clusters(const gpuocc_gpc_layout *l, int32_t blocks_per_sm, int32_t cluster_blocks,
                         int64_t *least, int64_t *most);

#endif
