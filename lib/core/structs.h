/* Size-versioned structs: loading a caller's struct of any known layout into the current one, storing
   back, and the kernel's field checks.  No vendor. */
#ifndef GPUOCC_CORE_STRUCTS_H
#define GPUOCC_CORE_STRUCTS_H

#ifndef GPUOCC_EXPERIMENTAL
#define GPUOCC_EXPERIMENTAL /* the library defines the experimental part too */
#endif
#include "gpuocc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sizes past this are taken as garbage rather than a future layout. */
#define GPUOCC_STRUCT_SIZE_MAX 4096u

/* The 0.1.0 layouts (released): a caller's struct is this size, the current size, or larger with a zeroed
   tail (a newer header's layout).  Sizes in between are no layout and are refused. */
#define GPUOCC_DEVICE_SIZE_MIN 232u
#define GPUOCC_KERNEL_SIZE_MIN 88u
#define GPUOCC_RESULT_SIZE_MIN 104u
/* The end of the device's Intel tail: bytes a catalog entry of another vendor leaves zero up to here. */
#define GPUOCC_DEVICE_INTEL_END 384u

/* Whether a declared size is a layout: `released` (the 0.1.0 size, or the current one for a struct new
   since), `current` (sizeof), or more up to GPUOCC_STRUCT_SIZE_MAX. */
static inline bool gpuocc_struct_size_ok(uint32_t size, size_t released, size_t current)
{
    return size == released || (size >= current && size <= GPUOCC_STRUCT_SIZE_MAX);
}

/* The domains of AMD's dynamic-VGPR block size (0, 16, 32) and of NVIDIA's tensor-memory columns per block
   (0, or a power of two from 32 to 512).  int, not bool: combined with `&` (clang warns on `&` of bools). */
static inline int gpuocc_dvgpr_ok(int32_t dvgpr)
{
    return (dvgpr == 0) | (dvgpr == 16) | (dvgpr == 32);
}
static inline int gpuocc_tmem_columns_ok(int32_t columns)
{
    /* 0, or a power of two from 32 to 512: at most one bit set, and none outside 32 .. 512 (no branch: the
       single call's one-pass check reads it) */
    uint32_t c = (uint32_t)columns;
    return ((c & (c - 1)) | (c & ~(uint32_t)0x3e0)) == 0;
}

/* The domains of AMD's compiler inputs, each on its own (the pairs are the vendor's): the trap handler -1,
   0 or 1; waves per EU and the flat workgroup minimum 0 (unset) to 1024. */
static inline int gpuocc_compiler_inputs_ok(const gpuocc_kernel *k)
{
    return (k->trap_handler >= -1) & (k->trap_handler <= 1) & (k->waves_per_eu_min >= 0) &
           (k->waves_per_eu_min <= 1024) & (k->waves_per_eu_max >= 0) & (k->waves_per_eu_max <= 1024) &
           (k->flat_workgroup_size_min >= 0) & (k->flat_workgroup_size_min <= 1024);
}

/* The largest GRF count a kernel may name (Xe3P's 512 fits). */
#define GPUOCC_GRF_MAX 1024

/*
 * Copy a caller's size-versioned struct into a zeroed local copy of the current layout.  `min_size` is
 * the released (0.1.0) layout's size (gpuocc_struct_size_ok); bytes the caller declares past `known_size`
 * must be zero.
 */
int32_t gpuocc_struct_load(void *dst, size_t known_size, const void *src, size_t min_size);
/* Write a local result into the caller's struct, as many bytes as both layouts share. */
int32_t gpuocc_struct_store(void *dst, size_t min_size, const void *src, size_t known_size);
/* The same with the caller's declared size read beforehand (dst non-NULL). */
int32_t gpuocc_struct_store_sized(void *dst, uint32_t size, size_t min_size, const void *src, size_t known_size);

/* The caller's struct itself when it holds at least the current layout of `known_size` bytes (the tail
   past it checked zero), else a zero-extended copy in `scratch`; NULL (and *rc set) when neither. */
const void *gpuocc_struct_view(const void *src, size_t known_size, size_t min_size, void *scratch, int32_t *rc);

/* Load and check a kernel's fields, each against its own domain (what needs the device is the vendor's
   check); the local copy is the current layout. */
int32_t gpuocc_kernel_load(gpuocc_kernel *local, const gpuocc_kernel *kernel);
/* The same checks on a kernel already in the current layout (a batch's launch): GPUOCC_OK or the status
   naming the first bad field. */
int32_t gpuocc_kernel_check(const gpuocc_kernel *k);
/* The same checks without a copy: the caller's struct itself when it holds at least the current layout,
   else a zero-extended copy in `scratch`.  NULL (and *rc set) when a check fails. */
const gpuocc_kernel *gpuocc_kernel_view(const gpuocc_kernel *kernel, gpuocc_kernel *scratch, int32_t *rc);
/* Set the input a next step names (GPUOCC_RESOURCE_*: threads, registers per thread, static + dynamic
   shared memory, barriers, SGPRs, AGPRs) to v, which fits its field; shared memory as a step applies it: the
   static bytes kept while they fit, the dynamic bytes the rest. */
static inline void gpuocc_kernel_set_input(gpuocc_kernel *k, int32_t resource, int64_t v)
{
    switch (resource) {
    case GPUOCC_RESOURCE_WARPS: k->threads_per_block = (int32_t)v; break;
    case GPUOCC_RESOURCE_REGISTERS: k->regs_per_thread = (int32_t)v; break;
    case GPUOCC_RESOURCE_SMEM:
        k->smem_static_bytes = k->smem_static_bytes < v ? k->smem_static_bytes : v;
        k->smem_dynamic_bytes = v - k->smem_static_bytes;
        break;
    case GPUOCC_RESOURCE_BARRIERS: k->barriers = (int32_t)v; break;
    case GPUOCC_RESOURCE_SGPRS: k->sgprs = (int32_t)v; break;
    default: k->agprs = (int32_t)v; break;
    }
}

/* Whether the bytes of a device from `offset` to the end of the current layout are all zero (a vendor's
   check that another vendor's fields are unset). */
bool gpuocc_device_zero_from(const gpuocc_device *d, size_t offset);
/* Whether bytes [from, to) of the device are all zero. */
bool gpuocc_device_zero_between(const gpuocc_device *d, size_t from, size_t to);
/* Whether a device's reserved words are zero (the vendor checks the rest). */
bool gpuocc_device_reserved_zero(const gpuocc_device *d);

#endif
