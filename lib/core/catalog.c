/*
 * The built-in table, vendor-neutral: NVIDIA's rows (lib/nvidia/catalog.c), then AMD's (lib/amd/catalog.c).
 * Names are normalized once here; each vendor resolves its own spellings.
 */
#include "internal.h"

#include <ctype.h>

/* Lower-case, without spaces, '-' or '_'; false if it does not fit. */
static bool normalize(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in; in++) {
        unsigned char c = (unsigned char)*in;
        if (c == ' ' || c == '-' || c == '_' || c == '\t')
            continue;
        if (n + 1 >= cap)
            return false;
        out[n++] = (char)tolower(c);
    }
    out[n] = '\0';
    return true;
}

int32_t gpuocc_catalog_find(const char *name)
{
    char key[64];
    if (!normalize(name, key, sizeof key) || key[0] == '\0')
        return -1;
    int32_t index = gpuocc_nvidia_catalog_find(key);
    if (index >= 0)
        return index;
    index = gpuocc_amd_catalog_find(key);
    return index >= 0 ? gpuocc_nvidia_catalog_count() + index : -1;
}

int32_t gpuocc_catalog_count(void)
{
    return gpuocc_nvidia_catalog_count() + gpuocc_amd_catalog_count();
}

/* The AMD index of a catalog index, or -1 for an NVIDIA one. */
static int32_t amd_index(int32_t index)
{
    int32_t nv = gpuocc_nvidia_catalog_count();
    return index >= nv ? index - nv : -1;
}

int32_t gpuocc_catalog_kind(int32_t index)
{
    if (index < 0 || index >= gpuocc_catalog_count())
        return GPUOCC_ERR_ARGUMENT;
    int32_t a = amd_index(index);
    return a >= 0 ? gpuocc_amd_catalog_kind(a) : gpuocc_nvidia_catalog_kind(index);
}

const char *gpuocc_catalog_name(int32_t index)
{
    if (index < 0 || index >= gpuocc_catalog_count())
        return "";
    int32_t a = amd_index(index);
    return a >= 0 ? gpuocc_amd_catalog_name(a) : gpuocc_nvidia_catalog_name(index);
}

const char *gpuocc_catalog_source(int32_t index)
{
    if (index < 0 || index >= gpuocc_catalog_count())
        return "";
    int32_t a = amd_index(index);
    return a >= 0 ? gpuocc_amd_catalog_source(a) : gpuocc_nvidia_catalog_source(index);
}

int32_t gpuocc_catalog_device(int32_t index, gpuocc_device *dev)
{
    if (!dev)
        return GPUOCC_ERR_NULL;
    if (index < 0 || index >= gpuocc_catalog_count())
        return GPUOCC_ERR_ARGUMENT;
    gpuocc_device d;
    int32_t a = amd_index(index);
    if (a >= 0)
        gpuocc_amd_catalog_fill(a, &d);
    else
        gpuocc_nvidia_catalog_fill(index, &d);
    return gpuocc_struct_store(dev, sizeof d, &d, sizeof d);
}

int32_t gpuocc_device_lookup(const char *name, gpuocc_device *dev)
{
    if (!name || !dev)
        return GPUOCC_ERR_NULL;
    int32_t index = gpuocc_catalog_find(name);
    if (index < 0)
        return GPUOCC_ERR_UNKNOWN_DEVICE;
    return gpuocc_catalog_device(index, dev);
}
