/* The API layer (lib/api/): the public entry points that choose a vendor, and what the layers above it
   (models, readers) use of them.  Uses the vendors and the ground layer. */
#ifndef GPUOCC_API_H
#define GPUOCC_API_H

#include "../core/core.h"

/* The table of a vendor (lib/api/vendors.c, the one place that lists the vendors): NULL for a vendor
   this version does not model.  gpuocc_vendor_at gives them in catalog order (NULL past the last). */
const struct gpuocc_vendor *gpuocc_vendor_of(uint32_t vendor);
const struct gpuocc_vendor *gpuocc_vendor_at(size_t index);
/* A prepared state's checks (lib/api/batch.c): its size, magic word and device size; then an AMD or Intel
   stored device checked as a caller's (NVIDIA's rule reads the stored values, bounded where they are used).
   GPUOCC_OK or the status. */
int32_t gpuocc_prepared_check(const gpuocc_prepared *prepared);

/* Load and check a device: the struct, its reserved words, then its vendor's checks (lib/api/devices.c). */
int32_t gpuocc_device_load(gpuocc_device *local, const gpuocc_device *dev);
/* The same checks without a copy: the caller's struct itself when it holds at least the current layout,
   else a zero-extended copy in `scratch`.  NULL (and *rc set) when a check fails. */
const gpuocc_device *gpuocc_device_view(const gpuocc_device *dev, gpuocc_device *scratch, int32_t *rc);
/* gpuocc_kernel_view (lib/core/structs.c), trying first the kernel most calls pass, as gpuocc_device_view does
   the device: the current layout, every field in its domain and none of another vendor's (NVIDIA's one-pass
   check); any other takes the field-by-field checks. */
const gpuocc_kernel *gpuocc_kernel_view_api(const gpuocc_kernel *kernel, gpuocc_kernel *scratch, int32_t *rc);
/* A device's checks in place, for a struct of the current layout whose size field is trusted (a prepared
   device's): GPUOCC_OK or the status naming the first bad field. */
int32_t gpuocc_device_check(const gpuocc_device *d);
/* What only the pair can tell, by the device's vendor: the refusals of gpuocc_rule (gpuocc_rule_refusal, with
   the input and its limit; lib/api/occupancy.c). */
int32_t gpuocc_rule_refusal(const gpuocc_device *d, const gpuocc_kernel *k, int32_t *input, int64_t *limit);
int32_t gpuocc_pair_check(const gpuocc_device *d, const gpuocc_kernel *k);
/* Device, kernel, then the pair. */
int32_t gpuocc_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k, const gpuocc_kernel *kernel);

/* The rule of the device's vendor on a checked device and a kernel whose fields are checked, the one every
   query computes through (lib/api/occupancy.c): GPUOCC_OK with every field of `r` but size and reserved
   filled, or the refusal's status with `r` zeroed but for exceeded and exceeded_limit. */
int32_t gpuocc_rule(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);

/* The batch's loop (lib/api/batch.c) on checked inputs: for each of `count` launches of `k` with the values
   of b's input columns (b in the current layout, status and the columns it asks for), the row gpuocc_occupancy
   gives it.  `v`: NVIDIA's rule values (the rule reads them, not d), NULL for another vendor.  `room` (>= count):
   the rows the columns hold; rows count .. room - 1 hold valid inputs of the caller's, and their outputs may be
   written when a vector's worth of rows is cheaper so (a sweep pads its last rows; a caller's batch has none).
   The sweeps are this loop with the swept input as the one column. */
void gpuocc_batch_rows(const gpuocc_device *d, const gpuocc_prepared_nvidia *v, const gpuocc_kernel *k,
                       const gpuocc_batch *b, size_t count, size_t room);

/* The catalog index a name resolves to, or -1 (lib/api/catalog.c). */
int32_t gpuocc_catalog_find(const char *name);

#endif
