/* Many launches on one device: the prepared device, and the batch as one loop over the rule (gpuocc_rule),
   each launch the base kernel with the values of the batch's input columns. */
#include "api.h"

#include "../nvidia/nvidia.h" /* the bounds of a prepared NVIDIA device */

_Static_assert(sizeof(gpuocc_prepared) == 624, "gpuocc_prepared layout 1.0 (goc2)");
_Static_assert(offsetof(gpuocc_prepared, device) == 8, "gpuocc_prepared layout 1.0 (goc2)");
_Static_assert(offsetof(gpuocc_prepared, nvidia) == 408, "gpuocc_prepared layout 1.0 (goc2)");
_Static_assert(sizeof(gpuocc_prepared_nvidia) == 216, "gpuocc_prepared layout 1.0 (goc2)");
_Static_assert(offsetof(gpuocc_batch, status) == 40, "gpuocc_batch layout 1.0");
_Static_assert(offsetof(gpuocc_batch, waves_per_simd) == 144, "gpuocc_batch layout 1.0");
_Static_assert(offsetof(gpuocc_batch, reserved) == 160, "gpuocc_batch layout 1.0");
_Static_assert(sizeof(gpuocc_batch) == 224, "gpuocc_batch layout 1.0");

int32_t gpuocc_prepare(const gpuocc_device *dev, gpuocc_prepared *prepared)
{
    gpuocc_device scratch;
    int32_t rc;
    const gpuocc_device *d = gpuocc_device_view(dev, &scratch, &rc);
    if (!d)
        return rc;
    if (!prepared)
        return GPUOCC_ERR_NULL;
    if (prepared->size != sizeof *prepared)
        return GPUOCC_ERR_STRUCT_SIZE;
    prepared->magic = GPUOCC_PREPARED_MAGIC;
    prepared->device = *d;
    prepared->device.size = sizeof prepared->device; /* the view is the current layout */
    if (d->vendor == GPUOCC_VENDOR_NVIDIA)
        gpuocc_nv_derive(d, &prepared->nvidia);
    else
        memset(&prepared->nvidia, 0, sizeof prepared->nvidia);
    return GPUOCC_OK;
}

const gpuocc_device *gpuocc_prepared_device(const gpuocc_prepared *prepared, gpuocc_device *scratch, int32_t *rc)
{
    if (!prepared) {
        *rc = GPUOCC_ERR_NULL;
        return NULL;
    }
    /* nothing past the size word is read unless it is this layout's */
    if (prepared->size != sizeof *prepared) {
        *rc = GPUOCC_ERR_STRUCT_SIZE;
        return NULL;
    }
    const gpuocc_device *d = &prepared->device;
    *rc = GPUOCC_OK;
    if (prepared->magic != GPUOCC_PREPARED_MAGIC || d->size != sizeof *d) {
        *rc = GPUOCC_ERR_DEVICE;
        return NULL;
    }
    /* NVIDIA's stored device is bounded field by field, not checked again (gpuocc_prepare checked it); the
       other vendors' is checked as a caller's */
    if (d->vendor == GPUOCC_VENDOR_NVIDIA) {
        gpuocc_nv_device_bound(d, scratch);
        return scratch;
    }
    /* whatever is wrong with a stored device, it is not a device gpuocc_prepare filled */
    if (gpuocc_device_check(d) != GPUOCC_OK) {
        *rc = GPUOCC_ERR_DEVICE;
        return NULL;
    }
    return d;
}

/* Element i of a column (NULL: the base value). */
static inline int32_t column_at(const int32_t *column, size_t i, int32_t base)
{
    return column ? column[i] : base;
}
static inline int64_t bytes_at(const void *column, int32_t width, size_t i, int64_t base)
{
    if (!column)
        return base;
    return width == 4 ? ((const int32_t *)column)[i] : ((const int64_t *)column)[i];
}

/* Row i of the outputs: its status, and in each column the caller gave the field of `r`. */
static void put_row(const gpuocc_batch *b, size_t i, int32_t status, const gpuocc_result *r)
{
    b->status[i] = status;
#define PUT(field)                                                                                                 \
    if (b->field)                                                                                                  \
    b->field[i] = r->field
    PUT(blocks_per_sm);
    PUT(warps_per_sm);
    PUT(occupancy);
    PUT(limiters);
    PUT(limit_warps);
    PUT(limit_regs);
    PUT(limit_smem);
    PUT(limit_blocks);
    PUT(limit_barriers);
    PUT(regs_per_block);
    PUT(smem_per_block_bytes);
    PUT(smem_per_sm_bytes);
    PUT(waves_per_simd);
    PUT(limit_sgprs);
    PUT(limit_virtual_resources);
    PUT(exceeded);
    PUT(exceeded_limit);
#undef PUT
}

int32_t gpuocc_occupancy_batch(const gpuocc_prepared *prepared, const gpuocc_kernel *base, const gpuocc_batch *batch,
                               size_t count)
{
    int32_t rc;
    gpuocc_device bounded;
    const gpuocc_device *d = gpuocc_prepared_device(prepared, &bounded, &rc);
    if (!d)
        return rc;
    gpuocc_kernel scratch;
    const gpuocc_kernel *k = gpuocc_kernel_view(base, &scratch, &rc);
    if (!k)
        return rc;
    /* this layout, or a newer one with a zeroed tail */
    gpuocc_batch b;
    if ((rc = gpuocc_struct_load(&b, sizeof b, batch, sizeof b)))
        return rc;
    if ((b.reserved[0] | b.reserved[1]) != 0)
        return GPUOCC_ERR_RESERVED;
    if (!b.status)
        return GPUOCC_ERR_NULL;
    if (b.smem_width != 4 && b.smem_width != 8)
        return GPUOCC_ERR_ARGUMENT;
    for (size_t i = 0; i < count; i++) {
        gpuocc_kernel at = *k;
        at.size = sizeof at;
        at.threads_per_block = column_at(b.threads_per_block, i, k->threads_per_block);
        at.regs_per_thread = column_at(b.regs_per_thread, i, k->regs_per_thread);
        at.smem_static_bytes = bytes_at(b.smem_static_bytes, b.smem_width, i, k->smem_static_bytes);
        at.smem_dynamic_bytes = bytes_at(b.smem_dynamic_bytes, b.smem_width, i, k->smem_dynamic_bytes);
        at.barriers = column_at(b.barriers, i, k->barriers);
        at.virtual_resources = column_at(b.virtual_resources, i, k->virtual_resources);
        at.tmem_columns = column_at(b.tmem_columns, i, k->tmem_columns);
        gpuocc_result r;
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        /* the launch's own fields as gpuocc_occupancy checks them, then the rule */
        int32_t status = gpuocc_kernel_check(&at);
        if (status == GPUOCC_OK)
            status = gpuocc_rule(d, &at, &r);
        put_row(&b, i, status, &r);
    }
    return GPUOCC_OK;
}
