/*
 * Intel's built-in table: one row per architecture under Intel's short names (those of ocloc and the
 * compute runtime), one per named product.  Source keys (I1..I8) are those of docs/sources.md; the rules
 * that use these values are in docs/intel.md.
 */
#include "intel.h"

#define KIB 1024

/* Work-group SLM sizes in KiB: the calculator's (I1 TG_SLM_Sizes) and the runtime's
   (I5 alignSlmSizePerThreadGroup: powers of two on Gen12LP, the 24/48/96 steps from Xe-HP on). */
static const int32_t slm_pow2_64[GPUOCC_MAX_SLM_SIZES] = {1, 2, 4, 8, 16, 32, 64};
static const int32_t slm_steps_128[GPUOCC_MAX_SLM_SIZES] = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128};
static const int32_t slm_steps_384[GPUOCC_MAX_SLM_SIZES] = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384};

struct intel_arch_row {
    const char *name;    /* Intel's short name ("pvc") */
    const char *aliases; /* other normalized spellings, space-separated */
    int32_t major, minor; /* the graphics IP version (12.60 for Xe-HPC), informative */
    int32_t xves, threads_per_xve;
    int32_t sub_groups, max_wg;
    int32_t slm_per_xecore_kib, slm_per_wg_kib;
    int32_t wg_cap, barrier_cap; /* the calculator's per Xe-core */
    int32_t grf_max, grf_table;
    const int32_t *slm_sizes, *runtime_slm_sizes;
    const char *source;
};

#define SG_ALL (8 | 16 | 32)
#define SG_WIDE (16 | 32)

static const struct intel_arch_row intel_arch_rows[] = {
    {"skl", "gen9 kbl cfl", 9, 0, 8, 7, SG_ALL, 256, 64, 64, 56, 32, 128, GPUOCC_GRF_TABLE_TWO_MODES, slm_pow2_64,
     slm_pow2_64, "I1 (Gen9: 8 XVEs x 7 threads, 64 KB SLM, WG 256, 56 WGs, 32 barriers); I5 (Gen12LP's rounding)"},
    {"icllp", "gen11 icl", 11, 0, 8, 7, SG_ALL, 256, 64, 64, 56, 32, 128, GPUOCC_GRF_TABLE_TWO_MODES, slm_pow2_64,
     slm_pow2_64, "I1 (Gen11), I5 (Gen12LP's rounding)"},
    {"tgllp", "gen12lp xelp tgl rkl adls adlp", 12, 0, 16, 7, SG_ALL, 512, 64, 64, 112, 64, 128,
     GPUOCC_GRF_TABLE_TWO_MODES, slm_pow2_64, slm_pow2_64,
     "I1 (Xe-LP TGL/RKL/ADL: 16 XVEs x 7, 64 KB, WG 512, 112 WGs, 64 barriers), I4 (tgllp: 64 KB), I5, I6 (no large GRF)"},
    {"dg1", "iris xemax", 12, 10, 16, 7, SG_ALL, 512, 64, 64, 112, 64, 128, GPUOCC_GRF_TABLE_TWO_MODES, slm_pow2_64,
     slm_pow2_64, "I1 (Xe-LP DG1), I4 (dg1: 64 KB), I5, I6"},
    {"dg2", "acmg10 acmg11 acmg12 xehpg", 12, 55, 16, 8, SG_ALL, 1024, 128, 64, 128, 128, 256,
     GPUOCC_GRF_TABLE_TWO_MODES, slm_pow2_64, slm_steps_128,
     "I1 (Xe-HPG DG2: 16 XVEs x 8, 128 KB per Xe-core, 64 KB per WG, 128 WGs, 128 barriers), I4 (dg2: 64 KB), I5, I6"},
    {"ats-m", "atsm atsm150 atsm75 xehp", 12, 55, 16, 8, SG_ALL, 1024, 128, 64, 128, 128, 256,
     GPUOCC_GRF_TABLE_TWO_MODES, slm_pow2_64, slm_steps_128,
     "I1 (Xe HP ATS-M / Flex: as DG2), I4 (the DG2 family: 64 KB), I5, I6"},
    {"pvc", "xehpc pvcxt", 12, 60, 8, 8, SG_WIDE, 1024, 128, 128, 64, 64, 256, GPUOCC_GRF_TABLE_TWO_MODES,
     slm_steps_128, slm_steps_128,
     "I1 (Xe-HPC PVC: 8 XVEs x 8, 128 KB, large GRF, 64 WGs, 64 barriers, sub-groups 16/32), I4 (pvc: 128 KB), I5, I8"},
    {"mtl", "xelpg mtlu mtlh mtls", 12, 70, 16, 8, SG_ALL, 1024, 128, 64, 128, 128, 256, GPUOCC_GRF_TABLE_TWO_MODES,
     slm_pow2_64, slm_steps_128, "I1 (Xe-LPG MTL after 'fixed MTL thread count': 16 XVEs x 8 = 128), I4 (mtl: 64 KB), I5, I6"},
    {"lnl", "xe2lpg lnlm", 20, 4, 8, 8, SG_WIDE, 1024, 128, 128, 64, 64, 256, GPUOCC_GRF_TABLE_TWO_MODES,
     slm_steps_128, slm_steps_128, "I1 (Xe2-LPG LNL: 8 XVEs x 8, 128 KB, 64 WGs, 64 barriers), I4 (lnl: 128 KB), I5, I6"},
    {"bmg", "xe2hpg bmgg21", 20, 1, 8, 8, SG_WIDE, 1024, 128, 128, 64, 64, 256, GPUOCC_GRF_TABLE_TWO_MODES,
     slm_steps_128, slm_steps_128, "I1 (Xe2-HPG BMG), I4 (bmg: 128 KB), I5, I6"},
    /* Xe3: the runtime's table (I3: 10 threads per XVE up to 96 GRF ... 4 at 256; I4 128 KB; I5 its sizes);
       the calculator has no Xe3 row: its constants are Xe2's, unverified */
    {"ptl", "xe3 xe3lpg ptlh ptlu", 30, 0, 8, 10, SG_WIDE, 1024, 128, 128, 64, 64, 256, GPUOCC_GRF_TABLE_XE3,
     slm_steps_128, slm_steps_384,
     "I3 (Xe3: threads per XVE by GRF count), I4 (ptl: 128 KB, NumThreadsPerEu 10), I5 (Xe3 sizes); 8 XVEs and the calculator's constants (Xe2's): unverified"},
};

struct intel_product_row {
    const char *name;    /* display name */
    const char *aliases; /* normalized spellings past the brands, space-separated */
    const char *arch;
    int32_t xecores;
    const char *source;
};

static const struct intel_product_row intel_product_rows[] = {
    {"Arc A770", "a770", "dg2", 32, "I7 (32 Xe-cores), I1 (512 EUs)"},
    {"Arc A750", "a750", "dg2", 28, "I7 (28 Xe-cores), I1 (448 EUs)"},
    {"Arc A580", "a580", "dg2", 24, "I7 (24 Xe-cores), I1 (384 EUs)"},
    {"Arc A380", "a380", "dg2", 8, "I7 (8 Xe-cores), I1 (128 EUs)"},
    {"Arc B580", "b580", "bmg", 20, "I7 (20 Xe2-cores), I1 (160 EUs)"},
    {"Arc B570", "b570", "bmg", 18, "I7 (18 Xe2-cores), I1 (144 EUs)"},
    {"Data Center GPU Max 1550", "max1550", "pvc", 128, "I7 (128 Xe-cores, two stacks), I1 (1024 EUs)"},
    {"Data Center GPU Max 1100", "max1100", "pvc", 56, "I7 (56 Xe-cores), I1 (448 EUs)"},
    {"Data Center GPU Flex 170", "flex170", "ats-m", 32, "I7 (32 Xe-cores), I1 (512 EUs)"},
    {"Data Center GPU Flex 140 (one GPU)", "flex140", "ats-m", 8, "I7 (2 GPUs of 8 Xe-cores), I1 (128 EUs)"},
    {"Core Ultra 7 155H (Arc Graphics)", "ultra7155h 155h", "mtl", 8, "I7 (8 Xe-cores), I1 (128 EUs)"},
    {"Core Ultra 5 125H (Arc Graphics)", "ultra5125h 125h", "mtl", 7, "I7 (7 Xe-cores), I1 (112 EUs)"},
    {"Core Ultra 7 258V (Arc 140V)", "140v ultra7258v 258v", "lnl", 8, "I7 (8 Xe2-cores), I1 (64 EUs)"},
    {"Core Ultra 5 226V (Arc 130V)", "130v ultra5226v 226v", "lnl", 7, "I7 (7 Xe2-cores), I1 (56 EUs)"},
    {"Iris Xe (96 EUs)", "irisxe irisxe96 i71185g7 1185g7", "tgllp", 6, "I7 (96 EUs), I1 (16 XVEs per sub-slice)"},
    {"Iris Xe MAX", "irisxemax xemax", "dg1", 6, "I7 (96 EUs), I1 (DG1: 96 EUs)"},
};

/* (Every vendor's part counts, names and fills its rows alike, struct gpuocc_catalog_part, over row types
   of its own: its architectures' facts differ, and each spells its names its own way.) */
#define ARCH_COUNT ((int32_t)(sizeof intel_arch_rows / sizeof intel_arch_rows[0]))
#define PRODUCT_COUNT ((int32_t)(sizeof intel_product_rows / sizeof intel_product_rows[0]))

static void intel_fill_from_arch(gpuocc_device *d, const struct intel_arch_row *a)
{
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
    d->vendor = GPUOCC_VENDOR_INTEL;
    d->cc_major = a->major;
    d->cc_minor = a->minor;
    d->warp_size = 16; /* every target runs sub-groups of 16 */
    d->max_threads_per_block = a->max_wg;
    d->xves_per_xecore = a->xves;
    d->threads_per_xve = a->threads_per_xve;
    d->max_threads_per_sm = a->xves * a->threads_per_xve;
    d->max_blocks_per_sm = a->wg_cap;
    d->barriers_per_sm = a->barrier_cap;
    d->runtime_barriers_per_xecore = 32; /* I2: getMaxBarrierRegisterPerSlice */
    d->sub_group_sizes = a->sub_groups;
    d->grf_max = a->grf_max;
    d->grf_table = a->grf_table;
    d->smem_per_sm_bytes = (int64_t)a->slm_per_xecore_kib * KIB;
    d->smem_per_block_bytes = (int64_t)a->slm_per_wg_kib * KIB;
    d->smem_per_block_optin_bytes = d->smem_per_block_bytes;
    d->smem_alloc_unit_bytes = KIB;
    memcpy(d->slm_sizes_kib, a->slm_sizes, sizeof d->slm_sizes_kib);
    memcpy(d->runtime_slm_sizes_kib, a->runtime_slm_sizes, sizeof d->runtime_slm_sizes_kib);
}

static int32_t intel_arch_index(const char *key)
{
    for (int32_t i = 0; i < ARCH_COUNT; i++) {
        char name[16];
        if (gpuocc_key_normalize(intel_arch_rows[i].name, name, sizeof name) &&
            (strcmp(name, key) == 0 || gpuocc_alias_matches(intel_arch_rows[i].aliases, key)))
            return i;
    }
    return -1;
}

static const char *const intel_brands[] = {"intel", "arc", "datacenter", "gpu", "core", "graphics"};

static int32_t intel_catalog_find(const char *key)
{
    int32_t a = intel_arch_index(key);
    if (a >= 0)
        return a;
    const char *k = gpuocc_strip_brands(key, intel_brands, sizeof intel_brands / sizeof intel_brands[0]);
    for (int32_t i = 0; i < PRODUCT_COUNT; i++) {
        char name[64]; /* the display name itself, as gpuocc_catalog_name gives it */
        if (gpuocc_alias_matches(intel_product_rows[i].aliases, k) ||
            (gpuocc_key_normalize(intel_product_rows[i].name, name, sizeof name) && strcmp(name, key) == 0))
            return ARCH_COUNT + i;
    }
    return -1;
}

/* (alike in every vendor's part: see ARCH_COUNT) */
static const char *intel_catalog_name(int32_t index)
{
    return index < ARCH_COUNT ? intel_arch_rows[index].name : intel_product_rows[index - ARCH_COUNT].name;
}

static const char *intel_catalog_source(int32_t index)
{
    return index < ARCH_COUNT ? intel_arch_rows[index].source : intel_product_rows[index - ARCH_COUNT].source;
}

static void intel_catalog_fill(int32_t index, gpuocc_device *d)
{
    if (index < ARCH_COUNT) {
        intel_fill_from_arch(d, &intel_arch_rows[index]);
        return;
    }
    const struct intel_product_row *p = &intel_product_rows[index - ARCH_COUNT];
    char key[16];
    gpuocc_key_normalize(p->arch, key, sizeof key);
    intel_fill_from_arch(d, &intel_arch_rows[intel_arch_index(key)]);
    d->sm_count = p->xecores;
}

const struct gpuocc_catalog_part *gpuocc_intel_catalog(void)
{
    static const struct gpuocc_catalog_part part = {
        ARCH_COUNT, PRODUCT_COUNT, intel_catalog_find, intel_catalog_name, intel_catalog_source, intel_catalog_fill,
    };
    return &part;
}
