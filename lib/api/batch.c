/* Many launches on one device: the prepared device and the batch call (struct checks; the rules' own loop
   is the vendor's: its table's prepare and batch). */
#include "api.h"

_Static_assert(sizeof(gpuocc_prepared) == 4000, "gpuocc_prepared layout 0.2 is frozen");
_Static_assert(sizeof(gpuocc_batch) == 176, "gpuocc_batch layout 0.2 is frozen");
_Static_assert(offsetof(gpuocc_batch, status) == 40, "gpuocc_batch layout 0.2 is frozen");
_Static_assert(offsetof(gpuocc_batch, waves_per_simd) == 144, "gpuocc_batch layout 0.2 is frozen");
_Static_assert(offsetof(gpuocc_batch, reserved) == 160, "gpuocc_batch layout 0.2 is frozen");

int32_t gpuocc_prepare(const gpuocc_device *dev, gpuocc_prepared *prepared)
{
    gpuocc_device scratch;
    int32_t rc;
    const gpuocc_device *d = gpuocc_device_view(dev, &scratch, &rc);
    if (!d)
        return rc;
    if (!prepared)
        return GPUOCC_ERR_NULL;
    uint32_t size = prepared->size;
    if (size < sizeof *prepared || size > GPUOCC_STRUCT_SIZE_MAX)
        return GPUOCC_ERR_STRUCT_SIZE;
    prepared->reserved0 = 0;
    memset(prepared->opaque, 0, sizeof prepared->opaque);
    gpuocc_vendor_of(d->vendor)->prepare(d, prepared->opaque);
    if (size > sizeof *prepared)
        memset((unsigned char *)prepared + sizeof *prepared, 0, size - sizeof *prepared);
    return GPUOCC_OK;
}

int32_t gpuocc_prepared_check(const gpuocc_prepared *prepared)
{
    if (!prepared)
        return GPUOCC_ERR_NULL;
    if (prepared->size < sizeof *prepared || prepared->size > GPUOCC_STRUCT_SIZE_MAX)
        return GPUOCC_ERR_STRUCT_SIZE;
    if (prepared->reserved0 != 0)
        return GPUOCC_ERR_RESERVED;
    for (size_t i = sizeof *prepared; i < prepared->size; i++)
        if (((const unsigned char *)prepared)[i] != 0)
            return GPUOCC_ERR_RESERVED;
    return GPUOCC_OK;
}

const struct gpuocc_vendor *gpuocc_prepared_vendor(const gpuocc_prepared *prepared)
{
    /* every vendor's prepared state starts with its checked device: its vendor picks the rules */
    uint32_t vendor;
    memcpy(&vendor, (const unsigned char *)prepared->opaque + offsetof(gpuocc_device, vendor), sizeof vendor);
    return gpuocc_vendor_of(vendor);
}

/* One launch of the base kernel (no input column), every struct in its current layout and no reserved word
   set: the vendor's prepared single call, which checks its state and the kernel itself; false for anything
   else (the checks of gpuocc_occupancy_batch then, which name the error). */
static bool batch_of_one(const gpuocc_prepared *prepared, const gpuocc_kernel *base, const gpuocc_batch *batch)
{
    if (!(prepared && base && batch) || prepared->size != sizeof *prepared || prepared->reserved0 != 0 ||
        base->size != sizeof *base || batch->size != sizeof *batch || !batch->status ||
        (batch->smem_width != 4 && batch->smem_width != 8) || (batch->reserved[0] | batch->reserved[1]) != 0 ||
        batch->threads_per_block || batch->regs_per_thread || batch->smem_static_bytes || batch->smem_dynamic_bytes)
        return false;
    const struct gpuocc_vendor *rules = gpuocc_prepared_vendor(prepared);
    gpuocc_result result;
    result.size = sizeof result;
    if (!rules || !rules->occupancy_prepared(prepared->opaque, base, &result))
        return false;
    gpuocc_batch_put(batch, 0, GPUOCC_OK, &result);
    return true;
}

int32_t gpuocc_occupancy_batch(const gpuocc_prepared *prepared, const gpuocc_kernel *base, const gpuocc_batch *batch,
                               size_t count)
{
    if (count == 1 && batch_of_one(prepared, base, batch))
        return GPUOCC_OK;
    int32_t rc = gpuocc_prepared_check(prepared);
    if (rc)
        return rc;
    gpuocc_kernel scratch;
    const gpuocc_kernel *k = gpuocc_kernel_view(base, &scratch, &rc);
    if (!k)
        return rc;
    if (!batch)
        return GPUOCC_ERR_NULL;
    if (batch->size < sizeof *batch || batch->size > GPUOCC_STRUCT_SIZE_MAX)
        return GPUOCC_ERR_STRUCT_SIZE;
    if ((batch->reserved[0] | batch->reserved[1]) != 0)
        return GPUOCC_ERR_RESERVED;
    for (size_t i = sizeof *batch; i < batch->size; i++)
        if (((const unsigned char *)batch)[i] != 0)
            return GPUOCC_ERR_RESERVED;
    if (!batch->status)
        return GPUOCC_ERR_NULL;
    if (batch->smem_width != 4 && batch->smem_width != 8)
        return GPUOCC_ERR_ARGUMENT;
    const struct gpuocc_vendor *rules = gpuocc_prepared_vendor(prepared);
    /* no vendor's state: not a prepared device at all (each vendor's batch re-checks its own state) */
    return rules ? rules->batch(prepared->opaque, k, batch, count) : GPUOCC_ERR_DEVICE;
}
