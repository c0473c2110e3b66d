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
    /* GPUOCC_UNLIMITED is -1: all ones where the limit is none (limit + 1 reaches the top bit there alone; a
       limit is never negative), without a branch (compilers make one of the conditional expression, which
       random launches mispredict) */
    _Static_assert(GPUOCC_UNLIMITED == -1, "GPUOCC_UNLIMITED is all ones");
    return (int32_t)((uint32_t)limit | (0u - (((uint32_t)limit + 1u) >> 31)));
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
 * gpuocc_kernel_load (the pair is the refusal's to judge).  Functions, not data, so that the amalgamation can make them static.
 */
struct gpuocc_vendor {
    const char *name;
    /* the device's own fields (its reserved words are checked already): GPUOCC_OK or the status naming
       the first bad one */
    int32_t (*check_device)(const gpuocc_device *d);
    /* The rule, in two parts (gpuocc_rule runs them in turn).  First the launches no limit count applies to,
       what only the pair can tell: another vendor's field set, a per-block maximum passed, an AMD kernel's
       wave size against its device...: GPUOCC_OK, or the status with the input (GPUOCC_INPUT_*) in *input
       and the limit it passed in *limit (0 and 0 when the status names no input). */
    int32_t (*refusal)(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
    /* Then every field of `r` but size and reserved, as gpuocc_occupancy documents them, for a launch the
       first part accepted: exceeded and exceeded_limit included. */
    void (*compute)(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);
    const struct gpuocc_vendor_rules *(*rules)(void);
    const struct gpuocc_catalog_part *(*catalog)(void);
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

/*
 * A vendor whose rule is the least of its per-resource limits, each non-increasing as any demand of the
 * kernel grows (threads, registers, shared memory, SGPRs, barriers).  Its searches and inverse queries are
 * the generic ones over that vector (lib/core/bisect.c), a bisection on the limits themselves, so they
 * agree with its rule in every model.
 */
#define GPUOCC_VECTOR_LIMITS_MAX (GPUOCC_RESOURCE_SGPRS + 1)
struct gpuocc_limit_vector {
    int32_t count; /* limits, indexed GPUOCC_RESOURCE_* (at most GPUOCC_VECTOR_LIMITS_MAX) */
    /* every limit in blocks of a checked pair, GPUOCC_NO_LIMIT where the resource cannot limit */
    void (*limits)(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *limits);
    /* the threads of one wave (sub-group) of the kernel: block sizes are searched in its multiples */
    int64_t (*unit)(const gpuocc_device *d, const gpuocc_kernel *k);
    /* The register demand the register queries move: with grf_default > 0 the kernel's grf (registers per
       hardware thread, 1 .. the device's grf_max; a kernel's 0 reads as grf_default), else its registers per
       thread (0 .. regs_per_thread_max). */
    int32_t grf_default;
};

/* The answer the limits give (the rule's compute): blocks the least of them, every one that ties at it a
   limiter, the public limits (limit_sgprs GPUOCC_UNLIMITED where the vector has none), and warps (waves,
   hardware threads) as blocks x `per_block` of the SM's `per_sm`; the blocks. */
int32_t gpuocc_vector_answer(const struct gpuocc_limit_vector *v, const int32_t *limits, int64_t per_block,
                             int64_t per_sm, gpuocc_result *r);

/* The vendor operations of the same names (struct gpuocc_vendor), over `v`. */
int32_t gpuocc_vector_regs_max_for_blocks(const struct gpuocc_limit_vector *v, const gpuocc_device *d,
                                          const gpuocc_kernel *k, int32_t want, int32_t *regs);
int32_t gpuocc_vector_smem_dynamic_available(const struct gpuocc_limit_vector *v, const gpuocc_device *d,
                                             const gpuocc_kernel *k, int32_t want, int64_t *bytes);
int32_t gpuocc_vector_next_step(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                                int32_t resource, int64_t *new_value, int64_t *shed);
int32_t gpuocc_vector_best_block(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                                 const struct gpuocc_smem_rule *rule, int32_t *threads, int32_t *min_grid);
int64_t gpuocc_vector_sweep_next(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                                 int32_t axis, int64_t from, int64_t to);
void gpuocc_vector_sweep_range(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                               int32_t axis, int64_t *from, int64_t *to, int64_t *step);
/* The most of one input, from its least (0; the threads' and the GRF's 1) up to `most`, with which
   `resource`'s own limit allows one block, the kernel's other fields kept: the limit a launch that fits no
   block reports for that input (gpuocc_result.exceeded_limit).  `input`: GPUOCC_RESOURCE_WARPS (the threads
   per block), GPUOCC_RESOURCE_REGISTERS (the register demand: registers per thread, or the GRF),
   GPUOCC_RESOURCE_BARRIERS, GPUOCC_RESOURCE_AGPRS or GPUOCC_RESOURCE_SGPRS.  -1 when not even the least does. */
int64_t gpuocc_vector_room(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                           int32_t input, int32_t resource, int64_t most);
/* The shared-memory input over one block's limit of a vector vendor (AMD's LDS, Intel's SLM, one block at
   most smem_per_block_bytes): the dynamic bytes when there are some and the static fit, with what is left
   for them; else the static bytes, with the whole. */
void gpuocc_vector_smem_exceeded(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
/* For the per-resource rules (struct gpuocc_vendor_rules): a kernel of gpuocc_kernel_init's defaults with
   `threads` and `regs` of the register demand (what the functions given only those describe); one limit
   of a kernel, or of such a kernel. */
gpuocc_kernel gpuocc_vector_kernel(const struct gpuocc_limit_vector *v, int64_t threads, int64_t regs);
int32_t gpuocc_vector_limit(const struct gpuocc_limit_vector *v, const gpuocc_device *d, const gpuocc_kernel *k,
                            int32_t resource);
int32_t gpuocc_vector_limit_of(const struct gpuocc_limit_vector *v, const gpuocc_device *d, int64_t threads,
                               int64_t regs, int32_t resource);

/* A vector vendor's entries in its tables (struct gpuocc_vendor and struct gpuocc_vendor_rules pass no
   context, so each entry hands the generic operation the vendor's vector): static functions
   <prefix>_best_block, _smem_dynamic_available, _regs_max_for_blocks, _next_step, _sweep_next and
   _sweep_range over `vector()`, for the vendor's table file (lib/amd/vendor.c, lib/intel/vendor.c); and
   <prefix>_limit_warps, _limit_registers and _limit_smem, for its per-resource rules (lib/amd/limits.c,
   lib/intel/limits.c). */
#define GPUOCC_VECTOR_SEARCHES(prefix, vector)                                                                     \
    static int32_t prefix##_best_block(const gpuocc_device *d, const gpuocc_kernel *k,                             \
                                       const struct gpuocc_smem_rule *rule, int32_t *threads, int32_t *min_grid)   \
    {                                                                                                              \
        return gpuocc_vector_best_block(vector(), d, k, rule, threads, min_grid);                                  \
    }                                                                                                              \
    static int32_t prefix##_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,   \
                                                   int64_t *bytes)                                                 \
    {                                                                                                              \
        return gpuocc_vector_smem_dynamic_available(vector(), d, k, want, bytes);                                  \
    }                                                                                                              \
    static int32_t prefix##_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want,      \
                                                int32_t *regs)                                                     \
    {                                                                                                              \
        return gpuocc_vector_regs_max_for_blocks(vector(), d, k, want, regs);                                      \
    }                                                                                                              \
    static int32_t prefix##_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource,            \
                                      int64_t *new_value, int64_t *shed)                                           \
    {                                                                                                              \
        return gpuocc_vector_next_step(vector(), d, k, resource, new_value, shed);                                 \
    }                                                                                                              \
    /* the thresholds are found by bisection on the limits: bmax is not needed */                                 \
    static int64_t prefix##_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v,    \
                                       int64_t to, int32_t bmax)                                                   \
    {                                                                                                              \
        (void)bmax;                                                                                                \
        return gpuocc_vector_sweep_next(vector(), d, k, axis, v, to);                                              \
    }                                                                                                              \
    static void prefix##_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from,  \
                                     int64_t *to, int64_t *step)                                                   \
    {                                                                                                              \
        gpuocc_vector_sweep_range(vector(), d, k, axis, from, to, step);                                           \
    }
#define GPUOCC_VECTOR_LIMITS(prefix, vector)                                                                       \
    static int32_t prefix##_limit_warps(const gpuocc_device *d, int64_t threads)                                   \
    {                                                                                                              \
        return gpuocc_vector_limit_of(vector(), d, threads, 0, GPUOCC_RESOURCE_WARPS);                             \
    }                                                                                                              \
    static int32_t prefix##_limit_registers(const gpuocc_device *d, int64_t threads, int64_t regs)                 \
    {                                                                                                              \
        return gpuocc_vector_limit_of(vector(), d, threads, regs, GPUOCC_RESOURCE_REGISTERS);                      \
    }                                                                                                              \
    static int32_t prefix##_limit_smem(const gpuocc_device *d, const gpuocc_kernel *k)                             \
    {                                                                                                              \
        return gpuocc_vector_limit(vector(), d, k, GPUOCC_RESOURCE_SMEM);                                          \
    }

/* The kernel's carveout inputs, which no GPUOCC_INPUT_* names (carveout_percent, smem_optin,
   smem_dynamic_max_bytes), unset: gpuocc_kernel_init's values, or all three zero (a kernel zero-filled in C,
   `= {.size = ...}`, as 1.0.0 accepted on every device).  A vendor without carveouts refuses any other value
   (GPUOCC_ERR_ARGUMENT, exceeded GPUOCC_INPUT_NONE). */
static inline bool gpuocc_carveout_inputs_unset(const gpuocc_kernel *k)
{
    bool init = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT && k->smem_optin == 1 && k->smem_dynamic_max_bytes == -1;
    bool zero = (k->carveout_percent | k->smem_optin | k->smem_dynamic_max_bytes) == 0;
    return init || zero;
}

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
