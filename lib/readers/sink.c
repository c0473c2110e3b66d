/* Where the readers put the kernels they find: the caller's array while it has room, counted past it. */
#include "sink.h"

#include <stddef.h>
#include <string.h>

int32_t gpuocc_sink_put_record(struct gpuocc_kernel_sink *sink, const gpuocc_binary_kernel *b)
{
    if (sink->count == INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    if (sink->count < sink->capacity && sink->records) {
        uint8_t *dst = sink->records + (size_t)sink->count * sink->stride;
        /* the stride is this layout or a later one (gpuocc_binary_read_entry checks it): its fields unknown here */
        memcpy(dst, b, sizeof *b);
        memset(dst + sizeof *b, 0, sink->stride - sizeof *b);
        uint32_t stride = (uint32_t)sink->stride;
        int32_t entry = sink->entry, name_buffer = sink->name_buffer;
        memcpy(dst + offsetof(gpuocc_binary_kernel, size), &stride, sizeof stride);
        memcpy(dst + offsetof(gpuocc_binary_kernel, entry), &entry, sizeof entry);
        memcpy(dst + offsetof(gpuocc_binary_kernel, name_buffer), &name_buffer, sizeof name_buffer);
    }
    sink->count++;
    return GPUOCC_OK;
}

int32_t gpuocc_sink_put(struct gpuocc_kernel_sink *sink, const gpuocc_compiled_kernel *k,
                        const struct gpuocc_cubin_records *records)
{
    if (!sink->records) {
        if (sink->count == INT32_MAX)
            return GPUOCC_ERR_OVERFLOW;
        if (sink->count < sink->capacity)
            sink->kernels[sink->count] = *k;
        sink->count++;
        return GPUOCC_OK;
    }
    gpuocc_binary_kernel b;
    memset(&b, 0, sizeof b);
    b.size = (uint32_t)sizeof b;
    b.vendor = GPUOCC_VENDOR_NVIDIA;
    b.name_offset = k->name_offset;
    b.name_length = k->name_length;
    b.short_offset = k->short_offset;
    b.short_length = k->short_length;
    b.cc = k->cc;
    b.registers = k->registers;
    b.barriers = k->barriers;
    b.max_threads_per_block = k->max_threads_per_block;
    b.smem_bytes = k->smem_bytes;
    b.cmem_bytes = k->cmem_bytes;
    b.stack_frame_bytes = k->stack_frame_bytes;
    b.min_blocks_per_sm = k->min_blocks_per_sm;
    b.max_regs_per_thread = k->max_regs_per_thread;
    b.max_blocks_per_cluster = k->max_blocks_per_cluster;
    b.cluster_x = k->cluster_x;
    b.cluster_y = k->cluster_y;
    b.cluster_z = k->cluster_z;
    b.linked = sink->linked;
    b.arch_variant = k->arch_variant;
    b.virtual_resources = records->virtual_resources;
    b.tmem_cta_group = records->tmem_cta_group;
    b.setmaxnreg = records->setmaxnreg;
    return gpuocc_sink_put_record(sink, &b);
}
