/* AMD's rules and data (docs/amd.md): what the files of lib/amd/ share, and the table the API calls
   (gpuocc_amd_vendor).  Uses the ground layer only. */
#ifndef GPUOCC_AMD_H
#define GPUOCC_AMD_H

#include "../core/core.h"

/* gfx12's dynamic-VGPR mode (docs/amd.md, A13): at most this many blocks per wave, on this gfx major */
#define GPUOCC_AMD_DVGPR_BLOCKS 8
#define GPUOCC_AMD_DVGPR_GFX 12


/* AMD's rules (lib/amd/): device check, and the combined computation for an AMD device. */
int32_t gpuocc_amd_check_device(const gpuocc_device *d);
/* The AMD fields of a kernel that only make sense with its device (wave size, AGPRs). */
int32_t gpuocc_amd_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
void gpuocc_amd_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);
/* What gpuocc_amd_compute builds its answer from, each alone (lib/amd/occupancy.c): every resource's limit
   in blocks as a vector (GPUOCC_NO_LIMIT where none; indexes GPUOCC_RESOURCE_*, SGPRs included), the
   kernel's wave size its unit; the LDS per CU (or WGP) the kernel's model divides; LLVM's cap on
   workgroups with barriers (GPUOCC_NO_LIMIT for the runtime model); the kernel's wave size; the VGPRs one
   wave is given (per-lane allocation x wave size). */
#define GPUOCC_AMD_LIMITS (GPUOCC_RESOURCE_SGPRS + 1)
const struct gpuocc_limit_vector *gpuocc_amd_vector(void);
int64_t gpuocc_amd_lds_per_cu(const gpuocc_device *d, const gpuocc_kernel *k);
int32_t gpuocc_amd_barrier_cap(const gpuocc_device *d, const gpuocc_kernel *k);
int64_t gpuocc_amd_wave_size(const gpuocc_device *d, const gpuocc_kernel *k);
int64_t gpuocc_amd_regs_per_wave(const gpuocc_device *d, const gpuocc_kernel *k);

/* The inputs a next step may change (lib/amd/levers.c); the searches are GPUOCC_VECTOR_SEARCHES's, in
   lib/amd/vendor.c. */
int32_t gpuocc_amd_step_levers(const gpuocc_device *d, const gpuocc_kernel *k, struct gpuocc_lever *levers);

/* AMD's catalog part (lib/amd/catalog.c), per-resource rules (lib/amd/limits.c) and the whole table
   (lib/amd/vendor.c). */
const struct gpuocc_catalog_part *gpuocc_amd_catalog(void);
const struct gpuocc_vendor_rules *gpuocc_amd_vendor_rules(void);
const struct gpuocc_vendor *gpuocc_amd_vendor(void);

#endif
