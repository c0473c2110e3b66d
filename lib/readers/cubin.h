/* NVIDIA cubins: their kernels from .nv.info, symbols and sections (cubin.c). */
#ifndef GPUOCC_READERS_CUBIN_H
#define GPUOCC_READERS_CUBIN_H

#include "elf.h"
#include "sink.h"

/* The kernels of one cubin at `image` (an EM_CUDA ELF); names are offsets from `origin`.  `index` (may be
   NULL) is memory for the index that reads every kernel's attributes and sections in one pass over
   .nv.info and one over the section table: with gpuocc_cubin_index_bytes(kernels) the cost is linear;
   with less, one pass per batch of kernels (128 where the memory holds fewer). */
int32_t gpuocc_cubin_image(const uint8_t *origin, const struct gpuocc_elf *image, struct gpuocc_kernel_sink *sink,
                           void *index, size_t index_len);
/* The index memory for a cubin of `kernels` kernels (or symbols: an upper bound), 8 bytes for alignment
   included. */
size_t gpuocc_cubin_index_bytes(uint64_t kernels);

#endif
