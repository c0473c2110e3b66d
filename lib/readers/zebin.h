/* Intel zebin: each kernel's resources from the .ze_info section (zebin.c). */
#ifndef GPUOCC_READERS_ZEBIN_H
#define GPUOCC_READERS_ZEBIN_H

#include "elf.h"
#include "sink.h"

/* The kernels of one zebin at `p` (an EM_INTELGT ELF); names are offsets from `origin`.  GPUOCC_ERR_FORMAT
   for anything but an EM_INTELGT ELF or a .ze_info that breaks the rules zebin.c states;
   GPUOCC_ERR_UNSUPPORTED for an Intel ELF without .ze_info (the legacy patch-token format). */
int32_t gpuocc_zebin_read(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink);

#endif
