/* Where the readers put the kernels they find (sink.c). */
#ifndef GPUOCC_READERS_SINK_H
#define GPUOCC_READERS_SINK_H

#include "entries.h"

/* Kernels go to the caller's array while it has room and are counted past it: gpuocc_compiled_kernel
   records (`kernels`), or, when `records` is set, gpuocc_binary_kernel records `stride` bytes apart that
   carry `entry` and `name_buffer`. */
struct gpuocc_kernel_sink {
    gpuocc_compiled_kernel *kernels;
    uint8_t *records;
    size_t stride;
    int32_t entry, name_buffer;
    int32_t capacity;
    int32_t count;
    uint32_t variant; /* the entry's arch variant ('a', 'f', 0) from its container; a reader may set it */
    int32_t linked;   /* set by the cubin reader for the image it reads */
    struct gpuocc_fault fault; /* set by a reader that fails, where it can say more than its status */
};

/* What a cubin records of a kernel beyond gpuocc_compiled_kernel's fields (gpuocc_binary_kernel's fields of
   the same names). */
struct gpuocc_cubin_records {
    int32_t virtual_resources, tmem_cta_group, setmaxnreg;
};

/* Store one kernel in the sink (if it has room) and count it; `records` go to gpuocc_binary_kernel records only. */
int32_t gpuocc_sink_put(struct gpuocc_kernel_sink *sink, const gpuocc_compiled_kernel *k,
                        const struct gpuocc_cubin_records *records);
/* The same for a whole gpuocc_binary_kernel record (its entry and name_buffer set from the sink); a sink
   of gpuocc_compiled_kernel records only counts it. */
int32_t gpuocc_sink_put_record(struct gpuocc_kernel_sink *sink, const gpuocc_binary_kernel *b);

#endif
