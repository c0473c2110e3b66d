/* The vendors this version models: the one place that lists them.  A new vendor adds its table here
   (docs/layers.md). */
#include "api.h"

#include "../amd/amd.h"
#include "../intel/intel.h"
#include "../nvidia/nvidia.h"

const struct gpuocc_vendor *gpuocc_vendor_of(uint32_t vendor)
{
    switch (vendor) {
    case GPUOCC_VENDOR_NVIDIA: return gpuocc_nvidia_vendor();
    case GPUOCC_VENDOR_AMD: return gpuocc_amd_vendor();
    case GPUOCC_VENDOR_INTEL: return gpuocc_intel_vendor();
    default: return NULL;
    }
}

/* Catalog order: NVIDIA's rows first, then AMD's, then Intel's (catalog indexes are part of the public
   interface). */
const struct gpuocc_vendor *gpuocc_vendor_at(size_t index)
{
    switch (index) {
    case 0: return gpuocc_nvidia_vendor();
    case 1: return gpuocc_amd_vendor();
    case 2: return gpuocc_intel_vendor();
    default: return NULL;
    }
}
