/* The combined occupancy: every limit, the minimum, every resource that ties at it, and the input over a
   limit; the one rule of each vendor (its table's refusal and compute), and the single calls on it. */
#include "api.h"

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
   so the sum is skipped then). */
static inline int32_t refusal(const struct gpuocc_vendor *vendor, const gpuocc_device *d, const gpuocc_kernel *k,
                              int32_t *input, int64_t *limit)
{
    int32_t rc = vendor->refusal(d, k, input, limit);
    if (rc == GPUOCC_OK && ((k->smem_static_bytes | k->smem_dynamic_bytes) >> 40) &&
        vendor->rules()->smem_per_block(d, k->smem_static_bytes, k->smem_dynamic_bytes) >= GPUOCC_BYTES_HUGE)
        rc = GPUOCC_ERR_OVERFLOW;
    return rc;
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

/* The kernel's and the result's checks and the answer, on a checked device in the current layout. */
static int32_t occupancy_on(const gpuocc_device *d, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    gpuocc_kernel k_scratch;
    int32_t rc;
    const gpuocc_kernel *k = gpuocc_kernel_view(kernel, &k_scratch, &rc);
    if (!k)
        return rc;
    const struct gpuocc_vendor *vendor = gpuocc_vendor_of(d->vendor);
    int32_t input;
    int64_t limit;
    rc = refusal(vendor, d, k, &input, &limit);
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
        /* the current layout: the rule writes the caller's struct itself */
        vendor->compute(d, k, result);
        result->reserved0 = 0, result->reserved2 = 0, result->reserved3 = 0;
        memset(result->reserved, 0, sizeof result->reserved);
        return GPUOCC_OK;
    }
    gpuocc_result local;
    memset(&local, 0, sizeof local);
    local.size = sizeof local;
    vendor->compute(d, k, &local);
    local.reserved0 = 0, local.reserved2 = 0, local.reserved3 = 0;
    memset(local.reserved, 0, sizeof local.reserved);
    return gpuocc_struct_store_sized(result, size, GPUOCC_RESULT_SIZE_MIN, &local, sizeof local);
}

int32_t gpuocc_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    gpuocc_device d_scratch;
    int32_t rc;
    const gpuocc_device *d = gpuocc_device_view(dev, &d_scratch, &rc);
    return d ? occupancy_on(d, kernel, result) : rc;
}

int32_t gpuocc_occupancy_prepared(const gpuocc_prepared *prepared, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    int32_t rc;
    gpuocc_device bounded;
    const gpuocc_device *d = gpuocc_prepared_device(prepared, &bounded, &rc);
    return d ? occupancy_on(d, kernel, result) : rc;
}
