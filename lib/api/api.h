/* The API layer (lib/api/): the public entry points that choose a vendor, and what the layers above it
   (models, readers) use of them.  Uses the vendors and the ground layer. */
#ifndef GPUOCC_API_H
#define GPUOCC_API_H

#include "../core/core.h"

/* The table of a vendor (lib/api/vendors.c, the one place that lists the vendors): NULL for a vendor
   this version does not model.  gpuocc_vendor_at gives them in catalog order (NULL past the last). */
const struct gpuocc_vendor *gpuocc_vendor_of(uint32_t vendor);
const struct gpuocc_vendor *gpuocc_vendor_at(size_t index);
/* A prepared device's struct checks (size, reserved words: gpuocc_occupancy_batch's), and the vendor its
   state names (NULL: none this version models) (lib/api/batch.c). */
int32_t gpuocc_prepared_check(const gpuocc_prepared *prepared);
const struct gpuocc_vendor *gpuocc_prepared_vendor(const gpuocc_prepared *prepared);

/* Load and check a device: the struct, its reserved words, then its vendor's checks (lib/api/devices.c). */
int32_t gpuocc_device_load(gpuocc_device *local, const gpuocc_device *dev);
/* The same checks without a copy: the caller's struct itself when it holds at least the current layout,
   else a zero-extended copy in `scratch`.  NULL (and *rc set) when a check fails. */
const gpuocc_device *gpuocc_device_view(const gpuocc_device *dev, gpuocc_device *scratch, int32_t *rc);
/* What only the pair can tell, by the device's vendor. */
int32_t gpuocc_pair_check(const gpuocc_device *d, const gpuocc_kernel *k);
/* Device, kernel, then the pair. */
int32_t gpuocc_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k, const gpuocc_kernel *kernel);

/* The combined computation on checked copies, by the device's vendor; fills every field of `r` except
   size and reserved (lib/api/occupancy.c). */
void gpuocc_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);

/* The catalog index a name resolves to, or -1 (lib/api/catalog.c). */
int32_t gpuocc_catalog_find(const char *name);

#endif
