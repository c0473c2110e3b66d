/* Size-versioned structs: loading, storing, defaults and validation of devices and kernels. */
#include "internal.h"

_Static_assert(sizeof(gpuocc_device) == 232, "gpuocc_device layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_device, smem_per_sm_bytes) == 64, "gpuocc_device layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_device, carveouts_kib) == 104, "gpuocc_device layout 0.1 is frozen");
_Static_assert(sizeof(gpuocc_kernel) == 88, "gpuocc_kernel layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_kernel, smem_dynamic_max_bytes) == 40, "gpuocc_kernel layout 0.1 is frozen");
_Static_assert(sizeof(gpuocc_result) == 104, "gpuocc_result layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_result, occupancy) == 24, "gpuocc_result layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_result, smem_per_block_bytes) == 56, "gpuocc_result layout 0.1 is frozen");
_Static_assert(sizeof(gpuocc_compiled_kernel) == 144, "gpuocc_compiled_kernel layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_compiled_kernel, max_threads_per_block) == 96, "gpuocc_compiled_kernel layout 0.1 is frozen");

static uint32_t declared_size(const void *p)
{
    uint32_t size;
    memcpy(&size, p, sizeof size);
    return size;
}

int32_t gpuocc_struct_load(void *dst, size_t known_size, const void *src, size_t min_size)
{
    if (!src)
        return GPUOCC_ERR_NULL;
    uint32_t size = declared_size(src);
    if (size < min_size || size > GPUOCC_STRUCT_SIZE_MAX)
        return GPUOCC_ERR_STRUCT_SIZE;
    const unsigned char *bytes = src;
    for (size_t i = known_size; i < size; i++)
        if (bytes[i] != 0)
            return GPUOCC_ERR_RESERVED;
    memset(dst, 0, known_size);
    memcpy(dst, src, size < known_size ? size : known_size);
    return GPUOCC_OK;
}

int32_t gpuocc_struct_store(void *dst, size_t min_size, const void *src, size_t known_size)
{
    if (!dst)
        return GPUOCC_ERR_NULL;
    uint32_t size = declared_size(dst);
    if (size < min_size || size > GPUOCC_STRUCT_SIZE_MAX)
        return GPUOCC_ERR_STRUCT_SIZE;
    /* the caller's size field is kept; everything we know past it is written */
    size_t n = size < known_size ? size : known_size;
    memcpy((unsigned char *)dst + sizeof size, (const unsigned char *)src + sizeof size, n - sizeof size);
    if (size > known_size)
        memset((unsigned char *)dst + known_size, 0, size - known_size);
    return GPUOCC_OK;
}

static bool all_zero(const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (words[i] != 0)
            return false;
    return true;
}

int32_t gpuocc_device_init(gpuocc_device *dev)
{
    if (!dev)
        return GPUOCC_ERR_NULL;
    memset(dev, 0, sizeof *dev);
    dev->size = sizeof *dev;
    dev->vendor = GPUOCC_VENDOR_NVIDIA;
    return GPUOCC_OK;
}

/* Bounds keep every product in the rules inside int64 and every count inside int32. */
#define SMALL_MAX (1 << 20)
#define SMEM_MAX ((int64_t)1 << 40)

static bool in_range(int64_t v, int64_t lo, int64_t hi)
{
    return v >= lo && v <= hi;
}

static int32_t check_device(const gpuocc_device *d)
{
    if (!all_zero(d->reserved, sizeof d->reserved / sizeof d->reserved[0]))
        return GPUOCC_ERR_RESERVED;
    if (d->vendor != GPUOCC_VENDOR_NVIDIA)
        return GPUOCC_ERR_VENDOR;
    bool ok = in_range(d->cc_major, 0, 1000) && in_range(d->cc_minor, 0, 1000) &&
              in_range(d->sm_count, 0, SMALL_MAX) && in_range(d->warp_size, 1, 1024) &&
              in_range(d->max_threads_per_block, 1, SMALL_MAX) &&
              in_range(d->max_threads_per_sm, d->warp_size, SMALL_MAX) &&
              in_range(d->max_blocks_per_sm, 1, SMALL_MAX) && in_range(d->regs_per_sm, 1, INT32_MAX) &&
              in_range(d->regs_per_block, 1, INT32_MAX) && in_range(d->regs_per_thread_max, 1, SMALL_MAX) &&
              in_range(d->reg_alloc_unit, 1, SMALL_MAX) && in_range(d->sub_partitions, 1, 64) &&
              in_range(d->reg_compat_sub_partitions, 0, 64) && in_range(d->barriers_per_sm, 0, SMALL_MAX) &&
              in_range(d->smem_per_sm_bytes, 0, SMEM_MAX) && in_range(d->smem_per_block_bytes, 0, SMEM_MAX) &&
              in_range(d->smem_per_block_optin_bytes, d->smem_per_block_bytes, SMEM_MAX) &&
              in_range(d->smem_reserved_per_block_bytes, 0, SMEM_MAX) &&
              in_range(d->smem_alloc_unit_bytes, 1, SMALL_MAX) &&
              in_range(d->carveout_count, 0, GPUOCC_MAX_CARVEOUTS);
    if (!ok)
        return GPUOCC_ERR_DEVICE;
    for (int32_t i = 0; i < d->carveout_count; i++) {
        int32_t c = d->carveouts_kib[i];
        if (!in_range(c, 0, SMEM_MAX / 1024) || (i > 0 && c <= d->carveouts_kib[i - 1]))
            return GPUOCC_ERR_DEVICE;
    }
    for (int32_t i = d->carveout_count; i < GPUOCC_MAX_CARVEOUTS; i++)
        if (d->carveouts_kib[i] != 0)
            return GPUOCC_ERR_DEVICE;
    if (d->carveout_count > 0) {
        /* the largest carveout must hold the whole per-SM capacity and the largest block */
        int64_t top = (int64_t)d->carveouts_kib[d->carveout_count - 1] * 1024;
        if (top < d->smem_per_sm_bytes ||
            top < d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes)
            return GPUOCC_ERR_DEVICE;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_device_load(gpuocc_device *local, const gpuocc_device *dev)
{
    int32_t rc = gpuocc_struct_load(local, sizeof *local, dev, sizeof *local);
    return rc ? rc : check_device(local);
}

int32_t gpuocc_device_validate(const gpuocc_device *dev)
{
    gpuocc_device local;
    return gpuocc_device_load(&local, dev);
}

int32_t gpuocc_kernel_init(gpuocc_kernel *k)
{
    if (!k)
        return GPUOCC_ERR_NULL;
    memset(k, 0, sizeof *k);
    k->size = sizeof *k;
    k->threads_per_block = 1;
    k->barriers = 1;
    k->carveout_percent = GPUOCC_CARVEOUT_DEFAULT;
    k->smem_dynamic_max_bytes = -1;
    return GPUOCC_OK;
}

int32_t gpuocc_kernel_load(gpuocc_kernel *local, const gpuocc_kernel *kernel)
{
    int32_t rc = gpuocc_struct_load(local, sizeof *local, kernel, sizeof *local);
    if (rc)
        return rc;
    const gpuocc_kernel *k = local;
    if (k->reserved0 != 0 || !all_zero(k->reserved, sizeof k->reserved / sizeof k->reserved[0]))
        return GPUOCC_ERR_RESERVED;
    if (k->threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    if (k->regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    if (k->barriers < 0)
        return GPUOCC_ERR_BARRIERS;
    if (k->smem_static_bytes < 0 || k->smem_dynamic_bytes < 0 || k->smem_dynamic_max_bytes < -1)
        return GPUOCC_ERR_SMEM;
    if (k->carveout_percent < -1 || k->carveout_percent > 100)
        return GPUOCC_ERR_CARVEOUT;
    if ((k->smem_optin != 0 && k->smem_optin != 1) || k->max_threads_per_block < 0)
        return GPUOCC_ERR_ARGUMENT;
    return GPUOCC_OK;
}

int32_t gpuocc_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k, const gpuocc_kernel *kernel)
{
    int32_t rc = gpuocc_device_load(d, dev);
    return rc ? rc : gpuocc_kernel_load(k, kernel);
}
