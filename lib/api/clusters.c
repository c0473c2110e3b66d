/* Thread-block clusters through the API: legality by the device's vendor (its table's cluster_size_max),
   published GPC layouts by name, and the resident clusters of a launch on a layout (docs/model.md). */
#include "api.h"

#define CLUSTER_SIZE_MIN sizeof(gpuocc_cluster)
#define LAYOUT_SIZE_MIN sizeof(gpuocc_gpc_layout)
#define CLUSTER_RESULT_SIZE_MIN sizeof(gpuocc_cluster_result)

int32_t gpuocc_cluster_init(gpuocc_cluster *cluster)
{
    if (!cluster)
        return GPUOCC_ERR_NULL;
    memset(cluster, 0, sizeof *cluster);
    cluster->size = sizeof *cluster;
    cluster->cluster_x = cluster->cluster_y = cluster->cluster_z = 1;
    return GPUOCC_OK;
}

int32_t gpuocc_gpc_layout_lookup(const char *name, gpuocc_gpc_layout *layout)
{
    if (!name || !layout)
        return GPUOCC_ERR_NULL;
    uint32_t size = layout->size;
    if (!gpuocc_struct_size_ok(size, LAYOUT_SIZE_MIN, LAYOUT_SIZE_MIN))
        return GPUOCC_ERR_STRUCT_SIZE;
    /* a catalog alias resolves to its product's name first ("h100" is "H100 SXM") */
    char key[64];
    int32_t index = gpuocc_catalog_find(name);
    if (!gpuocc_key_normalize(index >= 0 ? gpuocc_catalog_name(index) : name, key, sizeof key) || key[0] == '\0')
        return GPUOCC_ERR_UNKNOWN_DEVICE;
    const struct gpuocc_vendor *vendor;
    for (size_t i = 0; (vendor = gpuocc_vendor_at(i)) != NULL; i++) {
        gpuocc_gpc_layout l;
        if (vendor->gpc_layout(key, &l) == GPUOCC_OK)
            return gpuocc_struct_store_sized(layout, size, LAYOUT_SIZE_MIN, &l, sizeof l);
    }
    return GPUOCC_ERR_UNKNOWN_DEVICE;
}

int32_t gpuocc_cluster_size_max(const gpuocc_device *dev, int32_t nonportable, int32_t *blocks)
{
    if (!dev || !blocks)
        return GPUOCC_ERR_NULL;
    if (nonportable != 0 && nonportable != 1)
        return GPUOCC_ERR_ARGUMENT;
    gpuocc_device d;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (rc)
        return rc;
    *blocks = gpuocc_vendor_of(d.vendor)->cluster_size_max(&d, nonportable);
    return GPUOCC_OK;
}

/* Blocks per cluster of a loaded cluster (each dimension 1 .. INT32_MAX), saturated at INT32_MAX. */
static int32_t cluster_blocks(const gpuocc_cluster *c)
{
    int64_t blocks = (int64_t)c->cluster_x * c->cluster_y;
    blocks = blocks > INT32_MAX ? INT32_MAX : blocks * c->cluster_z;
    return blocks > INT32_MAX ? INT32_MAX : (int32_t)blocks;
}

/* The verdict on a checked device and a loaded cluster (its arguments checked). */
static int32_t verdict_of(const gpuocc_device *d, const gpuocc_cluster *c)
{
    const struct gpuocc_vendor *vendor = gpuocc_vendor_of(d->vendor);
    int32_t blocks = cluster_blocks(c);
    if (vendor->cluster_size_max(d, 0) == 0)
        return GPUOCC_CLUSTER_UNSUPPORTED;
    if (c->max_blocks_per_cluster > 0 && blocks > c->max_blocks_per_cluster)
        return GPUOCC_CLUSTER_KERNEL_MAX;
    int32_t nonportable_max = vendor->cluster_size_max(d, 1);
    bool unverified = false;
    if (blocks > GPUOCC_CLUSTER_PORTABLE_MAX) {
        if (!c->cluster_nonportable)
            return GPUOCC_CLUSTER_NEEDS_NONPORTABLE;
        if (nonportable_max == GPUOCC_CLUSTER_MAX_UNKNOWN)
            unverified = true;
        else if (blocks > nonportable_max)
            return GPUOCC_CLUSTER_TOO_LARGE;
    }
    if (c->grid_x != 0 && (c->grid_x % c->cluster_x != 0 || c->grid_y % c->cluster_y != 0 ||
                           c->grid_z % c->cluster_z != 0))
        return GPUOCC_CLUSTER_GRID;
    return unverified ? GPUOCC_CLUSTER_UNVERIFIED : GPUOCC_CLUSTER_LEGAL;
}

static int32_t cluster_load(gpuocc_cluster *c, const gpuocc_cluster *cluster)
{
    int32_t rc = gpuocc_struct_load(c, sizeof *c, cluster, CLUSTER_SIZE_MIN);
    if (rc)
        return rc;
    bool no_grid = c->grid_x == 0 && c->grid_y == 0 && c->grid_z == 0;
    bool grid = c->grid_x >= 1 && c->grid_y >= 1 && c->grid_z >= 1;
    if (c->cluster_x < 1 || c->cluster_y < 1 || c->cluster_z < 1 ||
        (c->cluster_nonportable != 0 && c->cluster_nonportable != 1) || c->max_blocks_per_cluster < 0 ||
        !(no_grid || grid))
        return GPUOCC_ERR_ARGUMENT;
    return GPUOCC_OK;
}

int32_t gpuocc_cluster_check(const gpuocc_device *dev, const gpuocc_cluster *cluster, int32_t *verdict)
{
    if (!dev || !cluster || !verdict)
        return GPUOCC_ERR_NULL;
    gpuocc_device d;
    gpuocc_cluster c;
    int32_t rc = gpuocc_device_load(&d, dev);
    if (!rc)
        rc = cluster_load(&c, cluster);
    if (rc)
        return rc;
    *verdict = verdict_of(&d, &c);
    return GPUOCC_OK;
}

int32_t gpuocc_clusters_per_gpc(int32_t sms, int32_t blocks_per_sm, int32_t cluster_blocks, int64_t *clusters)
{
    if (!clusters)
        return GPUOCC_ERR_NULL;
    if (sms < 0 || blocks_per_sm < 0 || cluster_blocks < 1)
        return GPUOCC_ERR_ARGUMENT;
    *clusters = (int64_t)sms * blocks_per_sm / cluster_blocks;
    return GPUOCC_OK;
}

int32_t gpuocc_cluster_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                 const gpuocc_cluster *cluster, const gpuocc_gpc_layout *layout,
                                 gpuocc_cluster_result *result)
{
    if (!dev || !kernel || !cluster || !result)
        return GPUOCC_ERR_NULL;
    uint32_t size = result->size;
    if (!gpuocc_struct_size_ok(size, CLUSTER_RESULT_SIZE_MIN, CLUSTER_RESULT_SIZE_MIN))
        return GPUOCC_ERR_STRUCT_SIZE;
    gpuocc_device d;
    gpuocc_kernel k;
    gpuocc_cluster c;
    gpuocc_gpc_layout l;
    int32_t rc = gpuocc_pair_load(&d, dev, &k, kernel);
    if (!rc)
        rc = cluster_load(&c, cluster);
    if (!rc && layout) {
        rc = gpuocc_struct_load(&l, sizeof l, layout, LAYOUT_SIZE_MIN);
        if (!rc)
            rc = gpuocc_gpc_layout_check(&l);
        if (!rc && d.sm_count != 0 && gpuocc_gpc_layout_sms(&l) != d.sm_count)
            rc = GPUOCC_ERR_ARGUMENT;
    }
    if (!rc && !layout && d.sm_count == 0)
        rc = GPUOCC_ERR_SM_COUNT;
    if (rc)
        return rc;
    int32_t verdict = verdict_of(&d, &c);
    if (verdict != GPUOCC_CLUSTER_LEGAL && verdict != GPUOCC_CLUSTER_UNVERIFIED)
        return GPUOCC_ERR_CLUSTER;
    gpuocc_result occ = {.size = sizeof occ};
    rc = gpuocc_occupancy(&d, &k, &occ);
    if (rc)
        return rc;
    gpuocc_cluster_result r = {.size = sizeof r};
    r.verdict = verdict;
    r.cluster_blocks = cluster_blocks(&c);
    r.cluster_blocks_max = gpuocc_vendor_of(d.vendor)->cluster_size_max(&d, c.cluster_nonportable);
    r.blocks_per_sm = occ.blocks_per_sm;
    if (layout) {
        gpuocc_gpc_clusters(&l, r.blocks_per_sm, r.cluster_blocks, &r.clusters_min, &r.clusters_max);
        r.clusters_exact = l.exact;
        r.gpc_count = l.gpc_count;
    } else {
        /* a sum of floors is at most the floor of the sum: no layout holds more */
        r.clusters_min = -1;
        r.clusters_max = (int64_t)d.sm_count * r.blocks_per_sm / r.cluster_blocks;
    }
    return gpuocc_struct_store_sized(result, size, CLUSTER_RESULT_SIZE_MIN, &r, sizeof r);
}

/* The layouts of 1.0.0, the same on 32-bit targets (no pointer, no implicit padding). */
_Static_assert(sizeof(gpuocc_cluster) == 48 && offsetof(gpuocc_cluster, grid_x) == 24, "gpuocc_cluster layout 1.0");
_Static_assert(sizeof(gpuocc_gpc_layout) == 152 && offsetof(gpuocc_gpc_layout, sms_per_gpc) == 24,
               "gpuocc_gpc_layout layout 1.0");
_Static_assert(sizeof(gpuocc_cluster_result) == 48 && offsetof(gpuocc_cluster_result, clusters_min) == 32,
               "gpuocc_cluster_result layout 1.0");
