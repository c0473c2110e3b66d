/*
 * The built-in table: each vendor's part (its table's catalog) one after another, in the order of
 * lib/api/vendors.c.  Names are normalized once here; each vendor resolves its own spellings.
 */
#include "api.h"

/* The vendors' parts in catalog order. */
static const struct gpuocc_catalog_part *part_at(size_t i)
{
    const struct gpuocc_vendor *vendor = gpuocc_vendor_at(i);
    return vendor ? vendor->catalog() : NULL;
}

static int32_t part_size(const struct gpuocc_catalog_part *part)
{
    return part->arch_count + part->product_count;
}

/* The part holding a catalog index, and the index within it; NULL when out of range. */
static const struct gpuocc_catalog_part *part_of(int32_t index, int32_t *local)
{
    const struct gpuocc_catalog_part *part;
    for (size_t i = 0; (part = part_at(i)) != NULL && index >= 0; i++) {
        if (index < part_size(part)) {
            *local = index;
            return part;
        }
        index -= part_size(part);
    }
    return NULL;
}

int32_t gpuocc_catalog_find(const char *name)
{
    char key[64];
    if (!gpuocc_key_normalize(name, key, sizeof key) || key[0] == '\0')
        return -1;
    int32_t offset = 0;
    const struct gpuocc_catalog_part *part;
    for (size_t i = 0; (part = part_at(i)) != NULL; i++) {
        int32_t index = part->find(key);
        if (index >= 0)
            return offset + index;
        offset += part_size(part);
    }
    return -1;
}

int32_t gpuocc_catalog_count(void)
{
    int32_t n = 0;
    const struct gpuocc_catalog_part *part;
    for (size_t i = 0; (part = part_at(i)) != NULL; i++)
        n += part_size(part);
    return n;
}

int32_t gpuocc_catalog_kind(int32_t index)
{
    int32_t local;
    const struct gpuocc_catalog_part *part = part_of(index, &local);
    if (!part)
        return GPUOCC_ERR_ARGUMENT;
    return local < part->arch_count ? GPUOCC_CATALOG_ARCH : GPUOCC_CATALOG_PRODUCT;
}

const char *gpuocc_catalog_name(int32_t index)
{
    int32_t local;
    const struct gpuocc_catalog_part *part = part_of(index, &local);
    return part ? part->name(local) : "";
}

const char *gpuocc_catalog_source(int32_t index)
{
    int32_t local;
    const struct gpuocc_catalog_part *part = part_of(index, &local);
    return part ? part->source(local) : "";
}

/* The caller's declared size is read before the vendor's functions are called through their descriptor:
   a compiler that inlines this into the caller (the two-file amalgamation) then still sees the size the
   caller set, instead of assuming the indirect calls changed it (GCC's -Warray-bounds at -O2). */
static int32_t catalog_device(int32_t index, gpuocc_device *dev, uint32_t size)
{
    int32_t local;
    const struct gpuocc_catalog_part *part = part_of(index, &local);
    if (!part)
        return GPUOCC_ERR_ARGUMENT;
    gpuocc_device d;
    part->fill(local, &d);
    /* the 0.1.0 layout takes the entries whose fields it holds (every NVIDIA and AMD one); NVIDIA's virtual
       resources per SM, the barrier limit (0: the default) and the tensor-memory columns, which it does not
       hold, are left out (a kernel of that layout cannot use them either) */
    if (size == GPUOCC_DEVICE_SIZE_MIN)
        for (size_t i = size; i < GPUOCC_DEVICE_INTEL_END; i++)
            if (((const unsigned char *)&d)[i] != 0)
                return GPUOCC_ERR_STRUCT_SIZE;
    return gpuocc_struct_store_sized(dev, size, GPUOCC_DEVICE_SIZE_MIN, &d, sizeof d);
}

int32_t gpuocc_catalog_device(int32_t index, gpuocc_device *dev)
{
    if (!dev)
        return GPUOCC_ERR_NULL;
    return catalog_device(index, dev, dev->size);
}

int32_t gpuocc_device_lookup(const char *name, gpuocc_device *dev)
{
    if (!name || !dev)
        return GPUOCC_ERR_NULL;
    uint32_t size = dev->size;
    int32_t index = gpuocc_catalog_find(name);
    if (index < 0)
        return GPUOCC_ERR_UNKNOWN_DEVICE;
    return catalog_device(index, dev, size);
}
