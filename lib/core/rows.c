/* A batch answered launch by launch through a vendor's own compute: each row's launch from the batch's
   columns (the base kernel's value where a column is absent), checked as every vendor checks a row, then
   computed; so every row equals gpuocc_occupancy's answer for that launch. */
#include "vendor.h"

static int64_t column_bytes(const void *column, int32_t width, size_t i, int64_t base)
{
    if (!column)
        return base;
    return width == 4 ? ((const int32_t *)column)[i] : ((const int64_t *)column)[i];
}

void gpuocc_batch_rows(const gpuocc_device *d, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count,
                       void (*compute)(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r))
{
    for (size_t i = 0; i < count; i++) {
        gpuocc_kernel at = *k;
        at.threads_per_block = b->threads_per_block ? b->threads_per_block[i] : k->threads_per_block;
        at.regs_per_thread = b->regs_per_thread ? b->regs_per_thread[i] : k->regs_per_thread;
        at.smem_static_bytes = column_bytes(b->smem_static_bytes, b->smem_width, i, k->smem_static_bytes);
        at.smem_dynamic_bytes = column_bytes(b->smem_dynamic_bytes, b->smem_width, i, k->smem_dynamic_bytes);
        int32_t bad = gpuocc_batch_values_status(at.threads_per_block, at.regs_per_thread, at.smem_static_bytes,
                                                 at.smem_dynamic_bytes);
        /* a saturated allocation is not reported, as in gpuocc_occupancy */
        if (!bad && gpuocc_sat_add(at.smem_static_bytes, at.smem_dynamic_bytes) >= GPUOCC_BYTES_HUGE)
            bad = GPUOCC_ERR_OVERFLOW;
        gpuocc_result r;
        memset(&r, 0, sizeof r);
        if (!bad)
            compute(d, &at, &r);
        gpuocc_batch_put(b, i, bad, &r);
    }
}
