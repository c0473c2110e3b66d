/*
 * AMD's prepared device and batch: the checked device stored with a guard, and each launch of a batch
 * answered by gpuocc_amd_compute itself, so every row equals gpuocc_occupancy's answer for that launch.
 */
#include "amd.h"

struct GPUOCC_MAY_ALIAS amd_prepared {
    gpuocc_device device; /* first, as every vendor's prepared state (lib/core/batch.c reads its vendor) */
    uint64_t tag;         /* gpuocc_state_tag of the device: what a single call reads */
    uint64_t check;       /* amd_state_sum: a guard against stray writes */
};
_Static_assert(sizeof(struct amd_prepared) <= sizeof(((gpuocc_prepared *)0)->opaque), "prepared state fits");
_Static_assert(sizeof(struct amd_prepared) % sizeof(uint64_t) == 0, "prepared state is whole words");

static uint64_t amd_state_sum(const struct amd_prepared *p)
{
    return gpuocc_state_sum(p, sizeof *p, offsetof(struct amd_prepared, check));
}

void gpuocc_amd_prepare(const gpuocc_device *d, uint64_t *opaque)
{
    struct amd_prepared p;
    memset(&p, 0, sizeof p);
    p.device = *d;
    p.tag = gpuocc_state_tag(&p.device, sizeof p.device / sizeof(uint64_t));
    p.check = amd_state_sum(&p);
    memcpy(opaque, &p, sizeof p);
}

typedef struct amd_prepared amd_state; /* read in place (GPUOCC_MAY_ALIAS) */

const gpuocc_device *gpuocc_amd_prepared_device(const uint64_t *opaque)
{
    const amd_state *p = (const amd_state *)(const void *)opaque;
    return p->device.size == sizeof p->device &&
                   p->tag == gpuocc_state_tag(&p->device, sizeof p->device / sizeof(uint64_t))
               ? &p->device
               : NULL;
}

/* No fast path: the API checks the kernel against the state's device and computes with AMD's rules. */
bool gpuocc_amd_occupancy_prepared(const uint64_t *opaque, const gpuocc_kernel *k, gpuocc_result *r)
{
    (void)opaque, (void)k, (void)r;
    return false;
}

int32_t gpuocc_amd_batch(const uint64_t *opaque, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count)
{
    struct amd_prepared p;
    memcpy(&p, opaque, sizeof p);
    if (p.device.size != sizeof p.device || p.device.vendor != GPUOCC_VENDOR_AMD ||
        !gpuocc_device_reserved_zero(&p.device) || gpuocc_amd_check_device(&p.device) != GPUOCC_OK ||
        p.check != amd_state_sum(&p))
        return GPUOCC_ERR_DEVICE;
    int32_t rc = gpuocc_amd_check_kernel(&p.device, k);
    if (rc)
        return rc;
    gpuocc_batch_rows(&p.device, k, b, count, gpuocc_amd_compute);
    return GPUOCC_OK;
}
