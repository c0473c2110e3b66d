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

int32_t gpuocc_prepared_check(const gpuocc_prepared *prepared)
{
    if (!prepared)
        return GPUOCC_ERR_NULL;
    /* nothing past the size word is read unless it is this layout's */
    if (prepared->size != sizeof *prepared)
        return GPUOCC_ERR_STRUCT_SIZE;
    if (prepared->magic != GPUOCC_PREPARED_MAGIC || prepared->device.size != sizeof prepared->device)
        return GPUOCC_ERR_DEVICE;
    /* NVIDIA's rule reads the stored values, each bounded where it is used, not checked again; another vendor's
       stored device is checked as a caller's (whatever is wrong with it, it is not a device gpuocc_prepare
       filled) */
    if (prepared->device.vendor == GPUOCC_VENDOR_NVIDIA)
        return GPUOCC_OK;
    return gpuocc_device_check(&prepared->device) == GPUOCC_OK ? GPUOCC_OK : GPUOCC_ERR_DEVICE;
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
static GPUOCC_ALWAYS_INLINE void put_row(const gpuocc_batch *b, size_t i, int32_t status, const gpuocc_result *r)
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

/* What every launch of a batch shares: the device (NVIDIA: the rule's values), the base kernel, and the base
   kernel's field of another vendor (NVIDIA: refused the same way at every launch whose own fields pass). */
struct batch_rule {
    const gpuocc_device *d;
    const gpuocc_nv_values *v;
    int32_t foreign;
};

/* Launch i: the base kernel with the values of the input columns; its fields as gpuocc_occupancy checks them
   (the base kernel's were checked: the columns' values, in one pass, then field by field for the status);
   then the rule. */
static GPUOCC_ALWAYS_INLINE void batch_row(const struct batch_rule *rule, const gpuocc_kernel *k, const gpuocc_batch *b, size_t i)
{
    gpuocc_kernel at = *k;
    at.threads_per_block = column_at(b->threads_per_block, i, k->threads_per_block);
    at.regs_per_thread = column_at(b->regs_per_thread, i, k->regs_per_thread);
    at.smem_static_bytes = bytes_at(b->smem_static_bytes, b->smem_width, i, k->smem_static_bytes);
    at.smem_dynamic_bytes = bytes_at(b->smem_dynamic_bytes, b->smem_width, i, k->smem_dynamic_bytes);
    at.barriers = column_at(b->barriers, i, k->barriers);
    at.virtual_resources = column_at(b->virtual_resources, i, k->virtual_resources);
    at.tmem_columns = column_at(b->tmem_columns, i, k->tmem_columns);
    gpuocc_result r;
    int32_t status = GPUOCC_OK, input = GPUOCC_INPUT_NONE;
    int64_t limit = 0;
    int64_t sign = ((int64_t)at.threads_per_block - 1) | at.regs_per_thread | at.barriers | at.smem_static_bytes |
                   at.smem_dynamic_bytes | at.virtual_resources;
    if (sign < 0 || !gpuocc_tmem_columns_ok(at.tmem_columns))
        status = gpuocc_kernel_check(&at);
    if (status == GPUOCC_OK) {
        if (!rule->v) {
            status = gpuocc_rule(rule->d, &at, &r);
            put_row(b, i, status, &r);
            return;
        }
        if (rule->foreign != GPUOCC_INPUT_NONE) {
            status = GPUOCC_ERR_ARGUMENT, input = rule->foreign;
        } else if ((status = gpuocc_nv_launch_refusal(rule->v, &at, &input, &limit)) == GPUOCC_OK) {
            gpuocc_nv_compute(rule->v, &at, &r);
            put_row(b, i, GPUOCC_OK, &r);
            return;
        }
    }
    /* a refused launch: its status, the input it names and that input's limit, zeros */
    memset(&r, 0, sizeof r);
    r.exceeded = input;
    r.exceeded_limit = limit;
    put_row(b, i, status, &r);
}

/* batch_row as the vector loop calls it back */
struct batch_context {
    const struct batch_rule *rule;
    const gpuocc_kernel *k;
    const gpuocc_batch *b;
};
static void scalar_row(void *context, size_t i)
{
    const struct batch_context *c = (const struct batch_context *)context;
    batch_row(c->rule, c->k, c->b, i);
}

/* The last rows (fewer than a vector's eight) through the vector loop too: their inputs copied into eight
   rows (the last repeated), the loop run on those, the rows asked for copied back. */
static void batch_tail(const struct batch_rule *rule, gpuocc_nv_lanes_fn lanes, const gpuocc_kernel *k,
                       const gpuocc_batch *b, size_t from, size_t count)
{
    enum { LANES = 8 };
    int32_t threads[LANES], regs[LANES], barriers[LANES], virtual_resources[LANES], tmem[LANES];
    int64_t smem_static[LANES], smem_dynamic[LANES];
    int32_t status[LANES], blocks[LANES], warps[LANES], limit_warps[LANES], limit_regs[LANES], limit_smem[LANES];
    int32_t limit_blocks[LANES], limit_barriers[LANES], regs_per_block[LANES], waves[LANES], sgprs[LANES];
    int32_t limit_virtual[LANES], exceeded[LANES];
    uint32_t limiters[LANES];
    double occupancy[LANES];
    int64_t smem_block[LANES], smem_sm[LANES], exceeded_limit[LANES];
    gpuocc_batch t = *b;
    t.smem_width = 8;
    for (size_t j = 0; j < LANES; j++) {
        size_t i = from + j < count ? from + j : count - 1;
        threads[j] = column_at(b->threads_per_block, i, k->threads_per_block);
        regs[j] = column_at(b->regs_per_thread, i, k->regs_per_thread);
        smem_static[j] = bytes_at(b->smem_static_bytes, b->smem_width, i, k->smem_static_bytes);
        smem_dynamic[j] = bytes_at(b->smem_dynamic_bytes, b->smem_width, i, k->smem_dynamic_bytes);
        barriers[j] = column_at(b->barriers, i, k->barriers);
        virtual_resources[j] = column_at(b->virtual_resources, i, k->virtual_resources);
        tmem[j] = column_at(b->tmem_columns, i, k->tmem_columns);
    }
    t.threads_per_block = threads, t.regs_per_thread = regs, t.smem_static_bytes = smem_static;
    t.smem_dynamic_bytes = smem_dynamic, t.barriers = barriers, t.virtual_resources = virtual_resources;
    t.tmem_columns = tmem;
#define LOCAL(field, array)                                                                                            t.field = b->field ? array : NULL
    t.status = status;
    LOCAL(blocks_per_sm, blocks);
    LOCAL(warps_per_sm, warps);
    LOCAL(occupancy, occupancy);
    LOCAL(limiters, limiters);
    LOCAL(limit_warps, limit_warps);
    LOCAL(limit_regs, limit_regs);
    LOCAL(limit_smem, limit_smem);
    LOCAL(limit_blocks, limit_blocks);
    LOCAL(limit_barriers, limit_barriers);
    LOCAL(regs_per_block, regs_per_block);
    LOCAL(smem_per_block_bytes, smem_block);
    LOCAL(smem_per_sm_bytes, smem_sm);
    LOCAL(waves_per_simd, waves);
    LOCAL(limit_sgprs, sgprs);
    LOCAL(limit_virtual_resources, limit_virtual);
    LOCAL(exceeded, exceeded);
    LOCAL(exceeded_limit, exceeded_limit);
#undef LOCAL
    struct batch_context context = {rule, k, &t};
    lanes(rule->v, k, &t, LANES, scalar_row, &context);
    for (size_t j = 0; from + j < count; j++) {
        size_t i = from + j;
        b->status[i] = status[j];
#define BACK(field)                                                                                                    if (b->field)                                                                                                      b->field[i] = t.field[j]
        BACK(blocks_per_sm);
        BACK(warps_per_sm);
        BACK(occupancy);
        BACK(limiters);
        BACK(limit_warps);
        BACK(limit_regs);
        BACK(limit_smem);
        BACK(limit_blocks);
        BACK(limit_barriers);
        BACK(regs_per_block);
        BACK(smem_per_block_bytes);
        BACK(smem_per_sm_bytes);
        BACK(waves_per_simd);
        BACK(limit_sgprs);
        BACK(limit_virtual_resources);
        BACK(exceeded);
        BACK(exceeded_limit);
#undef BACK
    }
}

void gpuocc_batch_rows(const gpuocc_device *d, const gpuocc_nv_values *v, const gpuocc_kernel *k,
                       const gpuocc_batch *b, size_t count, size_t room)
{
    struct batch_rule rule = {d, v, GPUOCC_INPUT_NONE};
    if (v)
        rule.foreign = gpuocc_nv_foreign_input(k);
    size_t i = 0;
    /* NVIDIA: the rule's vector loop where there is one for this processor and these values, which leaves
       the launches it does not answer to the scalar rule (batch_row) */
    if (v && rule.foreign == GPUOCC_INPUT_NONE && count > 2) {
        gpuocc_nv_lanes_fn lanes = gpuocc_nv_batch_lanes(v, k);
        if (lanes) {
            struct batch_context context = {&rule, k, b};
            /* rows past the count the columns hold (a sweep's): the vector loop over the last rows too */
            size_t whole = (count + 7) / 8 * 8;
            if (whole <= room) {
                lanes(v, k, b, whole, scalar_row, &context);
                return;
            }
            i = lanes(v, k, b, count, scalar_row, &context);
            /* a tail of a row or two costs less through the scalar rule than a padded vector's copies */
            if (count - i > 2) {
                batch_tail(&rule, lanes, k, b, i, count);
                return;
            }
        }
    }
    for (; i < count; i++)
        batch_row(&rule, k, b, i);
}

int32_t gpuocc_occupancy_batch(const gpuocc_prepared *prepared, const gpuocc_kernel *base, const gpuocc_batch *batch,
                               size_t count)
{
    int32_t rc = gpuocc_prepared_check(prepared);
    if (rc)
        return rc;
    bool nvidia = prepared->device.vendor == GPUOCC_VENDOR_NVIDIA;
    /* the base kernel: in place when it is of this layout and its fields pass in one pass, else checked field
       by field (a copy for an older layout) */
    gpuocc_kernel scratch;
    const gpuocc_kernel *k = gpuocc_kernel_view_api(base, &scratch, &rc);
    if (!k)
        return rc;
    /* the batch: in place when it is of this layout (a newer one's tail checked zero), else refused */
    gpuocc_batch copy;
    const gpuocc_batch *b = (const gpuocc_batch *)gpuocc_struct_view(batch, sizeof copy, sizeof copy, &copy, &rc);
    if (!b)
        return rc;
    if ((b->reserved[0] | b->reserved[1]) != 0)
        return GPUOCC_ERR_RESERVED;
    if (!b->status)
        return GPUOCC_ERR_NULL;
    if (b->smem_width != 4 && b->smem_width != 8)
        return GPUOCC_ERR_ARGUMENT;
    gpuocc_batch_rows(&prepared->device, nvidia ? &prepared->nvidia : NULL, k, b, count, count);
    return GPUOCC_OK;
}
