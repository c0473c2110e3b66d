/* AMDGPU code objects: their kernels from the NT_AMDGPU_METADATA note (amdgpu.c). */
#ifndef GPUOCC_READERS_AMDGPU_H
#define GPUOCC_READERS_AMDGPU_H

#include "elf.h"
#include "sink.h"

/* The kernels of one AMDGPU code object at `image` (an EM_AMDGPU ELF); names are offsets from `origin`.
   GPUOCC_ERR_UNSUPPORTED without an NT_AMDGPU_METADATA note (code object v2, PAL or Mesa objects). */
int32_t gpuocc_amdgpu_image(const uint8_t *origin, const struct gpuocc_elf *image, struct gpuocc_kernel_sink *sink);
/* The same for the bytes of a bundle entry: GPUOCC_ERR_UNSUPPORTED for LLVM bitcode, GPUOCC_ERR_FORMAT for
   anything but an EM_AMDGPU ELF. */
int32_t gpuocc_amdgpu_read(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink);

#endif
