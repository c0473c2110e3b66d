/* Devices through the API: the default device, and the checks that pick the device's vendor (its table's
   check_device and refusal). */
#include "api.h"

#include "../nvidia/nvidia.h" /* the speculative fast check of the common vendor (gpuocc_device_view) */

int32_t gpuocc_device_init(gpuocc_device *dev)
{
    if (!dev)
        return GPUOCC_ERR_NULL;
    memset(dev, 0, sizeof *dev);
    dev->size = sizeof *dev;
    dev->vendor = GPUOCC_VENDOR_NVIDIA;
    return GPUOCC_OK;
}

/* The reserved words, then the vendor's own checks. */
static int32_t check_device(const gpuocc_device *d)
{
    if (!gpuocc_device_reserved_zero(d))
        return GPUOCC_ERR_RESERVED;
    const struct gpuocc_vendor *vendor = gpuocc_vendor_of(d->vendor);
    return vendor ? vendor->check_device(d) : GPUOCC_ERR_VENDOR;
}

int32_t gpuocc_device_load(gpuocc_device *local, const gpuocc_device *dev)
{
    int32_t rc = gpuocc_struct_load(local, sizeof *local, dev, GPUOCC_DEVICE_SIZE_MIN);
    return rc ? rc : check_device(local);
}

const gpuocc_device *gpuocc_device_view(const gpuocc_device *dev, gpuocc_device *scratch, int32_t *rc)
{
    const gpuocc_device *d = (const gpuocc_device *)gpuocc_struct_view(dev, sizeof *dev, GPUOCC_DEVICE_SIZE_MIN, scratch, rc);
    if (d && !gpuocc_nv_device_fine(d)) {
        /* the vendor's own checks name the failing field, and accept what the one-pass NVIDIA check does not */
        *rc = check_device(d);
        return *rc ? NULL : d;
    }
    return d;
}

const gpuocc_kernel *gpuocc_kernel_view_api(const gpuocc_kernel *kernel, gpuocc_kernel *scratch, int32_t *rc)
{
    if (kernel && kernel->size == sizeof *kernel && gpuocc_nv_kernel_plain(kernel)) {
        *rc = GPUOCC_OK;
        return kernel;
    }
    return gpuocc_kernel_view(kernel, scratch, rc);
}

int32_t gpuocc_device_check(const gpuocc_device *d)
{
    return gpuocc_nv_device_fine(d) ? GPUOCC_OK : check_device(d);
}

int32_t gpuocc_device_validate(const gpuocc_device *dev)
{
    gpuocc_device local;
    return gpuocc_device_load(&local, dev);
}

int32_t gpuocc_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k, const gpuocc_kernel *kernel)
{
    int32_t rc = gpuocc_device_load(d, dev);
    if (!rc)
        rc = gpuocc_kernel_load(k, kernel);
    return rc ? rc : gpuocc_pair_check(d, k);
}

int32_t gpuocc_pair_check(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int32_t input;
    int64_t limit;
    return gpuocc_rule_refusal(d, k, &input, &limit);
}
