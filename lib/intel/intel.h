/* Intel's rules and data (docs/intel.md): what the files of lib/intel/ share, and the table the API calls
   (gpuocc_intel_vendor).  Uses the ground layer only.
   The vendor-neutral words keep their meaning: a block is a work-group, an SM an Xe-core, a warp a hardware
   thread (one sub-group), shared memory the SLM; the register demand is the kernel's GRF count. */
#ifndef GPUOCC_INTEL_H
#define GPUOCC_INTEL_H

#include "../core/core.h"

/* Every resource's limit in work-groups per Xe-core as a vector (GPUOCC_NO_LIMIT where it cannot limit),
   indexed GPUOCC_RESOURCE_WARPS .. GPUOCC_RESOURCE_BARRIERS, for the kernel's model, its unit the kernel's
   sub-group (lib/intel/occupancy.c).  The register demand is the kernel's GRF count; 0 reads as the
   default mode's. */
#define GPUOCC_INTEL_LIMITS GPUOCC_RESOURCE_COUNT
#define GPUOCC_INTEL_GRF_DEFAULT 128
const struct gpuocc_limit_vector *gpuocc_intel_vector(void);
/* SLM one work-group is given: static + dynamic rounded up to the model's allowed sizes (bytes); the sum
   itself where no allowed size holds it. */
int64_t gpuocc_intel_slm_per_workgroup(const gpuocc_device *d, const gpuocc_kernel *k);
/* SLM per Xe-core the model divides among work-groups. */
int64_t gpuocc_intel_slm_per_xecore(const gpuocc_device *d, const gpuocc_kernel *k);

/* Checks: the device's own fields, and what only the pair can tell (the sub-group size, the model). */
int32_t gpuocc_intel_check_device(const gpuocc_device *d);
int32_t gpuocc_intel_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
void gpuocc_intel_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);


/* The inputs a next step may change (lib/intel/levers.c); the searches are GPUOCC_VECTOR_SEARCHES's, in
   lib/intel/vendor.c. */
int32_t gpuocc_intel_step_levers(const gpuocc_device *d, const gpuocc_kernel *k, struct gpuocc_lever *levers);

/* The catalog part (lib/intel/catalog.c), the per-resource rules (lib/intel/limits.c), the table
   (lib/intel/vendor.c). */
const struct gpuocc_catalog_part *gpuocc_intel_catalog(void);
const struct gpuocc_vendor_rules *gpuocc_intel_vendor_rules(void);
const struct gpuocc_vendor *gpuocc_intel_vendor(void);

#endif
