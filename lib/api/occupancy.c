/* The combined occupancy: every limit, the minimum, and every resource that ties at it. */
#include "api.h"

#include "../nvidia/nvidia.h" /* the fast path of the common case, tried before any dispatch */

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

void gpuocc_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    gpuocc_vendor_of(d->vendor)->compute(d, k, r);
}

/* The kernel's and the result's checks and the answer, on a checked device in the current layout. */
static int32_t occupancy_on(const gpuocc_device *d, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    gpuocc_kernel k_scratch;
    int32_t rc;
    const gpuocc_kernel *k = gpuocc_kernel_view(kernel, &k_scratch, &rc);
    if (!k)
        return rc;
    rc = gpuocc_pair_check(d, k);
    if (rc)
        return rc;
    if (!result)
        return GPUOCC_ERR_NULL;
    uint32_t size = result->size;
    if (size < GPUOCC_RESULT_SIZE_MIN || size > GPUOCC_STRUCT_SIZE_MAX)
        return GPUOCC_ERR_STRUCT_SIZE;
    /* A block's allocation that saturated (static + dynamic + reserved >= 2^60) would be reported as a
       made-up number; sizes below 2^40 each (every real case) cannot get there, so skip the sum then. */
    if (((k->smem_static_bytes | k->smem_dynamic_bytes) >> 40) &&
        gpuocc_vendor_of(d->vendor)->rules()->smem_per_block(d, k->smem_static_bytes, k->smem_dynamic_bytes) >=
            GPUOCC_BYTES_HUGE)
        return GPUOCC_ERR_OVERFLOW;
    if (size < sizeof *result) {
        /* an older, shorter layout: computed here, written up to its size */
        gpuocc_result local;
        memset(&local, 0, sizeof local);
        gpuocc_compute(d, k, &local);
        return gpuocc_struct_store_sized(result, size, GPUOCC_RESULT_SIZE_MIN, &local, sizeof local);
    }
    /* The caller's struct holds the current layout: filled in place, the size field kept. */
    gpuocc_compute(d, k, result);
    memset(result->reserved, 0, sizeof result->reserved);
    if (size > sizeof *result)
        memset((unsigned char *)result + sizeof *result, 0, size - sizeof *result);
    return GPUOCC_OK;
}

/* Every other case: field-by-field checks (naming the error), layouts of other sizes, other vendors. */
static GPUOCC_NOINLINE int32_t occupancy_plain(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    gpuocc_device d_scratch;
    int32_t rc;
    const gpuocc_device *d = gpuocc_device_view(dev, &d_scratch, &rc);
    return d ? occupancy_on(d, kernel, result) : rc;
}

int32_t gpuocc_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    /* the common case: an NVIDIA device and a kernel in the current layout, checked conservatively (the
       pointers and sizes with the rest); every other case, occupancy_plain, tail-called */
    return gpuocc_nv_occupancy_or(dev, kernel, result, occupancy_plain);
}

/* A prepared device's own checks (gpuocc_occupancy_batch's), then its vendor's state: NULL when not prepared. */
static GPUOCC_NOINLINE int32_t prepared_plain(const gpuocc_prepared *prepared, const gpuocc_kernel *kernel,
                                             gpuocc_result *result)
{
    int32_t rc = gpuocc_prepared_check(prepared);
    if (rc)
        return rc;
    const struct gpuocc_vendor *vendor = gpuocc_prepared_vendor(prepared);
    const gpuocc_device *d = vendor ? vendor->prepared_device(prepared->opaque) : NULL;
    return d ? occupancy_on(d, kernel, result) : GPUOCC_ERR_DEVICE;
}

/* Every prepared call but NVIDIA's common case: any other vendor's state by its table, then the checks. */
static GPUOCC_NOINLINE int32_t prepared_other(const gpuocc_prepared *prepared, const gpuocc_kernel *kernel,
                                              gpuocc_result *result)
{
    if (prepared && kernel && result && prepared->size == sizeof *prepared && prepared->reserved0 == 0 &&
        kernel->size == sizeof *kernel && result->size == sizeof *result) {
        uint32_t vendor;
        memcpy(&vendor, (const unsigned char *)prepared->opaque + offsetof(gpuocc_device, vendor), sizeof vendor);
        const struct gpuocc_vendor *rules = vendor == GPUOCC_VENDOR_NVIDIA ? NULL : gpuocc_vendor_of(vendor);
        if (rules && rules->occupancy_prepared(prepared->opaque, kernel, result))
            return GPUOCC_OK;
    }
    return prepared_plain(prepared, kernel, result);
}

int32_t gpuocc_occupancy_prepared(const gpuocc_prepared *prepared, const gpuocc_kernel *kernel, gpuocc_result *result)
{
    /* the common case: every struct in the current layout and NVIDIA's state, answered by its fast path
       directly (which checks the sizes and the vendor word with the rest) */
    return gpuocc_nv_occupancy_prepared_or(prepared, kernel, result, prepared_other);
}
