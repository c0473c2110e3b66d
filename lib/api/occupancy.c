/* The combined occupancy: every limit, the minimum, every resource that ties at it, and the input over a
   limit; the one rule of each vendor (its table's refusal and compute), and the single calls on it. */
#include "api.h"

#include "../nvidia/nvidia.h" /* NVIDIA's rule on its values: the common single call */

static const char *const resource_names[GPUOCC_RESOURCE_COUNT] = {
    "warps", "registers", "shared_memory", "blocks", "barriers",
};

const char *gpuocc_resource_name(int32_t resource)
{
    if (resource == GPUOCC_RESOURCE_SGPRS)
        return "sgprs";
    if (resource == GPUOCC_RESOURCE_AGPRS)
        return "agprs"; /* a next step's input only */
    if (resource == GPUOCC_RESOURCE_VIRTUAL)
        return "virtual_resources";
    if (resource < 0 || resource >= GPUOCC_RESOURCE_COUNT)
        return "";
    return resource_names[resource];
}

static const char *const input_names[GPUOCC_INPUT_COUNT] = {
    "", "threads", "regs", "smem_static", "smem_dynamic", "barriers", "virtual_resources", "tmem_columns",
    "agprs", "sgprs", "wave_size", "cu_mode", "model", "rocm", "dvgpr", "sub_group", "grf",
    "trap_handler", "waves_per_eu", "flat_workgroup_size",
};

const char *gpuocc_input_name(int32_t input)
{
    return input >= 0 && input < GPUOCC_INPUT_COUNT ? input_names[input] : "";
}

/* The rule's first part: the vendor's refusals, then a block's shared memory that saturated (static + dynamic
   >= 2^60 would be reported as a made-up number; sizes below 2^40 each, every real case, cannot get there,
   so the sum is skipped then).  NVIDIA's refusal has the last check already. */
static inline int32_t refusal(const struct gpuocc_vendor *vendor, const gpuocc_device *d, const gpuocc_kernel *k,
                              int32_t *input, int64_t *limit)
{
    int32_t rc = vendor->refusal(d, k, input, limit);
    if (rc == GPUOCC_OK && ((k->smem_static_bytes | k->smem_dynamic_bytes) >> 40) &&
        vendor->rules()->smem_per_block(d, k->smem_static_bytes, k->smem_dynamic_bytes) >= GPUOCC_BYTES_HUGE)
        rc = GPUOCC_ERR_OVERFLOW;
    return rc;
}

int32_t gpuocc_rule_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    return refusal(gpuocc_vendor_of(d->vendor), d, k, input, limit);
}

int32_t gpuocc_rule(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    const struct gpuocc_vendor *vendor = gpuocc_vendor_of(d->vendor);
    int32_t input;
    int64_t limit;
    int32_t rc = refusal(vendor, d, k, &input, &limit);
    if (rc == GPUOCC_OK) {
        vendor->compute(d, k, r);
        return GPUOCC_OK;
    }
    memset(r, 0, sizeof *r);
    r->size = sizeof *r;
    r->exceeded = input;
    r->exceeded_limit = limit;
    return rc;
}

/* The device a single call computes on: a checked device of any vendor, or NVIDIA's rule values (`v`,
   derived from a checked device or stored by gpuocc_prepare), which the NVIDIA rule reads instead. */
struct rule_on {
    const gpuocc_device *d;
    const gpuocc_nv_values *v;
};

static inline int32_t rule_refusal(const struct rule_on *on, const gpuocc_kernel *k, int32_t *input, int64_t *limit)
{
    return on->v ? gpuocc_nv_refusal_values(on->v, k, input, limit)
                 : refusal(gpuocc_vendor_of(on->d->vendor), on->d, k, input, limit);
}

static inline void rule_compute(const struct rule_on *on, const gpuocc_kernel *k, gpuocc_result *r)
{
    if (on->v)
        gpuocc_nv_compute(on->v, k, r);
    else
        gpuocc_vendor_of(on->d->vendor)->compute(on->d, k, r);
}

/* The kernel's and the result's checks, then the rule, for any layout of either: an older layout is normalised
   into today's first (a copy), then the same rule runs. */
static GPUOCC_NOINLINE int32_t occupancy_on(const struct rule_on *on, const gpuocc_kernel *kernel,
                                            gpuocc_result *result)
{
    gpuocc_kernel k_scratch;
    int32_t rc;
    const gpuocc_kernel *k = gpuocc_kernel_view(kernel, &k_scratch, &rc);
    if (!k)
        return rc;
    int32_t input;
    int64_t limit;
    rc = rule_refusal(on, k, &input, &limit);
    if (!result)
        return rc ? rc : GPUOCC_ERR_NULL;
    uint32_t size = result->size;
    if (!gpuocc_struct_size_ok(size, GPUOCC_RESULT_SIZE_MIN, sizeof *result))
        return rc ? rc : GPUOCC_ERR_STRUCT_SIZE;
    if (rc) {
        /* a refusal that names an input writes it and its limit, where the caller's layout has them, and
           nothing else */
        if (input != GPUOCC_INPUT_NONE &&
            size >= offsetof(gpuocc_result, exceeded_limit) + sizeof result->exceeded_limit) {
            result->exceeded = input;
            result->exceeded_limit = limit;
        }
        return rc;
    }
    if (size == sizeof *result) {
        /* the current layout: the rule writes the caller's struct itself (every field but size) */
        rule_compute(on, k, result);
        return GPUOCC_OK;
    }
    gpuocc_result local;
    memset(&local, 0, sizeof local);
    local.size = sizeof local;
    rule_compute(on, k, &local);
    local.reserved0 = 0, local.reserved2 = 0, local.reserved3 = 0;
    memset(local.reserved, 0, sizeof local.reserved);
    return gpuocc_struct_store_sized(result, size, GPUOCC_RESULT_SIZE_MIN, &local, sizeof local);
}

/* NVIDIA's single call on the rule's values: a kernel and a result of the current layout whose fields pass in
   one pass (gpuocc_nv_kernel_plain) go straight to the rule; anything else takes the checks that name the
   status (nv_checked), which then run the same rule. */
static int32_t nv_checked(const gpuocc_nv_values *v, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    struct rule_on on = {NULL, v};
    return occupancy_on(&on, kernel, result);
}
static inline int32_t nv_occupancy(const gpuocc_nv_values *v, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    return gpuocc_nv_occupancy(v, kernel, result, nv_checked);
}

int32_t gpuocc_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    gpuocc_nv_values v;
    /* an NVIDIA device of the current layout that passes its checks in one pass: the common call */
    if (dev && dev->size == sizeof *dev && gpuocc_nv_device_fine(dev)) {
        gpuocc_nv_derive(dev, &v);
        return nv_occupancy(&v, kernel, result);
    }
    /* any other: normalised into the current layout, checked field by field */
    gpuocc_device d_scratch;
    int32_t rc;
    const gpuocc_device *d = gpuocc_device_view(dev, &d_scratch, &rc);
    if (!d)
        return rc;
    if (d->vendor == GPUOCC_VENDOR_NVIDIA) {
        gpuocc_nv_derive(d, &v);
        return nv_occupancy(&v, kernel, result);
    }
    struct rule_on on = {d, NULL};
    return occupancy_on(&on, kernel, result);
}

/* Any other prepared state: its checks, then the rule on its device (out of line, so that the common call
   needs no frame). */
static GPUOCC_NOINLINE int32_t prepared_checked(const gpuocc_prepared *prepared, const gpuocc_kernel *kernel,
                                                gpuocc_result *result)
{
    int32_t rc = gpuocc_prepared_check(prepared);
    if (rc)
        return rc;
    struct rule_on on = {&prepared->device, NULL};
    return occupancy_on(&on, kernel, result);
}

int32_t gpuocc_occupancy_prepared(const gpuocc_prepared *prepared, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    /* NVIDIA's rule reads the stored values, bounded where they are used.  The size word is read alone
       first: nothing past it is read for a state of another size (tested together, GCC loaded the size and
       the magic word as one 8-byte word, past a 4-byte state) */
    uint32_t size = 0;
    if (prepared)
        memcpy(&size, prepared, sizeof size);
    if (size == sizeof *prepared && prepared->magic == GPUOCC_PREPARED_MAGIC &&
        prepared->device.size == sizeof prepared->device && prepared->device.vendor == GPUOCC_VENDOR_NVIDIA)
        return nv_occupancy(&prepared->nvidia, kernel, result);
    return prepared_checked(prepared, kernel, result);
}
