/*
 * Thread-block clusters on NVIDIA devices: the most blocks per cluster by compute capability, and the
 * published GPC layouts of dies and products.  Source keys are those of docs/sources.md; docs/model.md
 * ("Thread-block clusters") explains the rules.
 */
#include "nvidia.h"

/* The non-portable maximum where a source gives it (cudaFuncAttributeNonPortableClusterSizeAllowed).
   The portable maximum, 8, holds on every cc >= 9.0 (S4 driver_types.h, S6, S7). */
struct cluster_row {
    int32_t major, minor;
    int32_t nonportable_max;
};
static const struct cluster_row cluster_rows[] = {
    {9, 0, 16},  /* S6 Hopper tuning guide: "H100 ... allows for a nonportable cluster size of 16" */
    {10, 0, 16}, /* S7 Blackwell tuning guide: "B200 ... allows for a nonportable cluster size of 16" */
    {10, 1, 8},  /* Thor before CUDA 13's renumbering: S9 (integrated parts cap at the portable 8) */
    {11, 0, 8},  /* Thor: S9 */
    {12, 1, 8},  /* GB10: D18 (cudaOccupancyMaxPotentialClusterSize 8, sizes 9-12 refused), S9 */
    /* 10.3 (B300) and 12.0 (RTX 50, RTX PRO 6000): not published, GPUOCC_CLUSTER_MAX_UNKNOWN */
};

int32_t gpuocc_nv_cluster_size_max(const gpuocc_device *d, int32_t nonportable)
{
    if (d->cc_major < 9)
        return 0; /* S1: clusters from cc 9.0 */
    if (!nonportable)
        return GPUOCC_CLUSTER_PORTABLE_MAX;
    for (size_t i = 0; i < sizeof cluster_rows / sizeof cluster_rows[0]; i++)
        if (cluster_rows[i].major == d->cc_major && cluster_rows[i].minor == d->cc_minor)
            return cluster_rows[i].nonportable_max;
    return GPUOCC_CLUSTER_MAX_UNKNOWN;
}

/* A die's shape: GPCs, TPCs per GPC on the full die, SMs per TPC. */
struct die {
    int32_t gpcs, tpcs_per_gpc, sms_per_tpc;
};
/* W1: NVIDIA H100 Tensor Core GPU Architecture whitepaper ("8 GPCs, 72 TPCs (9 TPCs/GPC), 2 SMs/TPC, 144
   SMs per full GPU").  W2: NVIDIA RTX Blackwell GPU Architecture whitepaper (GB202: "12 GPCs, 96 TPCs,
   192 SMs"). */
static const struct die gh100 = {8, 9, 2};
static const struct die gb202 = {12, 8, 2};

/* Names as gpuocc_key_normalize writes them: a product's is its catalog name's (the API resolves a
   catalog alias to that first); sm_count 0 is the full die, GPC by GPC. */
struct layout_row {
    const char *aliases;
    const struct die *die;
    int32_t sm_count;
};
static const struct layout_row layout_rows[] = {
    {"gh100", &gh100, 0},
    {"h100sxm", &gh100, 132},  /* W1: "H100 SXM5 ... 8 GPCs, 66 TPCs, 2 SMs/TPC, 132 SMs"; D10 */
    {"h100pcie", &gh100, 114}, /* W1: "H100 PCIe ... 7 or 8 GPCs, 57 TPCs, 2 SMs/TPC, 114 SMs"; D30 */
    {"h100nvl", &gh100, 132},  /* GH100 (W1) with 132 SMs (D11) */
    {"h200", &gh100, 132},     /* GH100 (W1) with 132 SMs (D3) */
    {"gh200", &gh100, 132},    /* GH100 (W1) with 132 SMs (D4) */
    {"gb202", &gb202, 0},
    {"rtx5090", &gb202, 170},  /* GB202 (W2) with 170 SMs (D5, D14) */
    {"rtxpro6000 rtxpro6000blackwell rtxpro6000blackwellworkstationedition rtxpro6000blackwellserveredition",
     &gb202, 188}, /* W2: RTX PRO 6000 Blackwell, 94 TPCs, 188 SMs */
};

static const char *const layout_brands[] = {"nvidia", "geforce", "tesla", "quadro"};

int32_t gpuocc_nv_gpc_layout(const char *key, gpuocc_gpc_layout *layout)
{
    const char *k = gpuocc_strip_brands(key, layout_brands, sizeof layout_brands / sizeof layout_brands[0]);
    for (size_t i = 0; i < sizeof layout_rows / sizeof layout_rows[0]; i++) {
        const struct layout_row *row = &layout_rows[i];
        if (!gpuocc_alias_matches(row->aliases, k))
            continue;
        memset(layout, 0, sizeof *layout);
        layout->size = sizeof *layout;
        layout->gpc_count = row->die->gpcs;
        if (row->sm_count == 0) {
            layout->exact = 1;
            for (int32_t g = 0; g < row->die->gpcs; g++)
                layout->sms_per_gpc[g] = row->die->tpcs_per_gpc * row->die->sms_per_tpc;
        } else {
            layout->sm_count = row->sm_count;
            layout->sms_per_tpc = row->die->sms_per_tpc;
            layout->tpcs_per_gpc_max = row->die->tpcs_per_gpc;
        }
        return GPUOCC_OK;
    }
    return GPUOCC_ERR_UNKNOWN_DEVICE;
}
