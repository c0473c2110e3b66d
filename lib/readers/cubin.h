/* NVIDIA cubins: their kernels from .nv.info, symbols and sections (cubin.c). */
#ifndef GPUOCC_READERS_CUBIN_H
#define GPUOCC_READERS_CUBIN_H

#include "elf.h"
#include "sink.h"

/* The kernels of one cubin at `image` (an EM_CUDA ELF); names are offsets from `origin`. */
int32_t gpuocc_cubin_image(const uint8_t *origin, const struct gpuocc_elf *image, struct gpuocc_kernel_sink *sink);

#endif
