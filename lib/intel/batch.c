/*
 * Intel's prepared device and batch: the checked device stored with a guard, and each launch answered by
 * gpuocc_intel_compute itself, so every row equals gpuocc_occupancy's answer for that launch.  The
 * registers column does not apply (registers per thread are ignored on Intel; the base kernel's grf does).
 */
#include "intel.h"

struct GPUOCC_MAY_ALIAS intel_prepared {
    gpuocc_device device; /* first, as every vendor's prepared state (lib/api/batch.c reads its vendor) */
    uint64_t tag;         /* gpuocc_state_tag of the device: what a single call reads */
    uint64_t check;       /* intel_state_sum: a guard against stray writes */
};
_Static_assert(sizeof(struct intel_prepared) <= sizeof(((gpuocc_prepared *)0)->opaque), "prepared state fits");
_Static_assert(sizeof(struct intel_prepared) % sizeof(uint64_t) == 0, "prepared state is whole words");

static uint64_t intel_state_sum(const struct intel_prepared *p)
{
    return gpuocc_state_sum(p, sizeof *p, offsetof(struct intel_prepared, check));
}

void gpuocc_intel_prepare(const gpuocc_device *d, uint64_t *opaque)
{
    struct intel_prepared p;
    memset(&p, 0, sizeof p);
    p.device = *d;
    p.device.size = sizeof p.device;
    p.tag = gpuocc_state_tag(&p.device, sizeof p.device / sizeof(uint64_t));
    p.check = intel_state_sum(&p);
    memcpy(opaque, &p, sizeof p);
}

typedef struct intel_prepared intel_state; /* read in place (GPUOCC_MAY_ALIAS) */

const gpuocc_device *gpuocc_intel_prepared_device(const uint64_t *opaque)
{
    const intel_state *p = (const intel_state *)(const void *)opaque;
    return p->device.size == sizeof p->device &&
                   p->tag == gpuocc_state_tag(&p->device, sizeof p->device / sizeof(uint64_t))
               ? &p->device
               : NULL;
}

/* No fast path: the API checks the kernel against the state's device and computes with Intel's rules. */
bool gpuocc_intel_occupancy_prepared(const uint64_t *opaque, const gpuocc_kernel *k, gpuocc_result *r)
{
    (void)opaque, (void)k, (void)r;
    return false;
}

int32_t gpuocc_intel_batch(const uint64_t *opaque, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count)
{
    struct intel_prepared p;
    memcpy(&p, opaque, sizeof p);
    if (p.device.size != sizeof p.device || p.device.vendor != GPUOCC_VENDOR_INTEL ||
        !gpuocc_device_reserved_zero(&p.device) || gpuocc_intel_check_device(&p.device) != GPUOCC_OK ||
        p.check != intel_state_sum(&p))
        return GPUOCC_ERR_DEVICE;
    int32_t rc = gpuocc_intel_check_kernel(&p.device, k);
    if (rc)
        return rc;
    gpuocc_batch_rows(&p.device, k, b, count, gpuocc_intel_compute);
    return GPUOCC_OK;
}
