/*
 * AMD's built-in table: one row per LLVM target (gfxNNN), one per named product.  Source keys (A1..A12) are
 * those of docs/sources.md; the rules that use these values are in docs/amd.md.
 */
#include "amd.h"

#define KIB 1024



/* How a target's CUs are laid out: gfx9 (4 SIMDs per CU, wave64, SGPRs limit waves, HIP caps 8 waves), gfx10+
   with WGPs (2 SIMDs per CU, 2 CUs per WGP, wave32 default and wave64, SGPRs never limit, HIP caps 16),
   and gfx1250 (CU mode only, 4 SIMDs per CU, wave32 only). */
enum amd_family { AMD_GCN, AMD_RDNA, AMD_RDNA_CU };

struct amd_arch_row {
    const char *name; /* "gfx90a" */
    int32_t major, minor; /* gfx9, 0x0a: the hexadecimal digits of the target name */
    int32_t waves_per_simd, vgprs_per_simd, vgpr_granule; /* LLVM, wave64 units */
    int32_t runtime_vgpr_granule;                         /* HIP through comgr, wave64 units */
    int32_t legacy_vgprs, legacy_granule;                 /* HIP's old switch, wave64 units; 0 = unknown */
    int32_t agpr_file;
    int32_t lds_per_workgroup;
    int32_t lds_granule;     /* LDS allocation granule in bytes (AMDGPUUsage GRANULATED_LDS_SIZE) */
    enum amd_family family;
    int32_t wave_sizes;      /* 64, 32 | 64, or 32 */
    int32_t vgprs_addressable; /* arch VGPRs a lane addresses: 256, 1024 on gfx1250 */
    const char *source;
};

#define GCN AMD_GCN, 64, 256
#define RDNA AMD_RDNA, 32 | 64, 256

/*
 * gfx9 (A2, A3, A4): 4 SIMDs per CU, wave64 only, 800 SGPRs per SIMD, HIP caps 8 waves per SIMD.
 * gfx10+ (A2, A3, A4): 2 SIMDs per CU, 2 CUs per WGP, wave32 (default) and wave64, HIP caps 16.
 * LDS per CU 64 KiB, per workgroup as listed (A1, A2); the granule is the one LLVM's occupancy charges: 512
 * bytes wherever the LDS is 64 KiB (gfx9 to gfx12 and gfx13; the hardware allocates 1024 from gfx10.3 on, which
 * LLVM does not apply: docs/amd.md), 1280 on gfx950, 2048 on gfx1250 (A16); 16 workgroups with barriers per CU
 * (A2).  Targets LLVM 19 does not know (gfx950, gfx1153,
 * gfx1250, gfx1310) are checked against today's LLVM tests only (A12, A14).
 */
static const struct amd_arch_row amd_arch_rows[] = {
    /* gfx6 to gfx8 (A2, A17): 4 SIMDs per CU, wave64, 10 waves, 256 VGPRs at granule 4; SGPRs per SIMD 512 on
       gfx6-7 (granule 8), 800 on gfx8 (granule 16); LDS per workgroup 32 KiB on gfx6 (LLVM's LDS per CU too),
       64 KiB from gfx7.  HIP never supported gfx6-7; its rules there and on gfx8 are unverified. */
    {"gfx600", 6, 0x00, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 32 * KIB, 256, GCN,
     "A2 (SOUTHERN_ISLANDS: 10 waves, 256 VGPRs, granule 4, 512 SGPRs, LDS 32768), A16 (LDS granule 64 dwords), "
     "A17 (64 KiB LDS per CU, 32 KiB per workgroup); tahiti; HIP: unverified"},
    {"gfx601", 6, 0x01, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 32 * KIB, 256, GCN,
     "A2, A16, A17 (as gfx600); pitcairn, verde; HIP: unverified"},
    {"gfx602", 6, 0x02, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 32 * KIB, 256, GCN,
     "A2, A16, A17 (as gfx600); hainan, oland; HIP: unverified"},
    {"gfx700", 7, 0x00, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (SEA_ISLANDS: 10 waves, 256 VGPRs, granule 4, 512 SGPRs, LDS 65536), A16 (128 dwords), A17; kaveri; "
     "HIP: unverified"},
    {"gfx701", 7, 0x01, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2, A16, A17 (as gfx700); hawaii; HIP: unverified"},
    {"gfx702", 7, 0x02, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2, A16, A17 (as gfx700); HIP: unverified"},
    {"gfx703", 7, 0x03, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2, A16, A17 (as gfx700); kabini, mullins; HIP: unverified"},
    {"gfx704", 7, 0x04, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2, A16, A17 (as gfx700); bonaire; HIP: unverified"},
    {"gfx705", 7, 0x05, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2, A16, A17 (as gfx700); HIP: unverified"},
    {"gfx801", 8, 0x01, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (VOLCANIC_ISLANDS: 10 waves, 256 VGPRs, granule 4, 800 SGPRs, LDS 65536), A16, A17; carrizo; HIP: "
     "unverified"},
    {"gfx802", 8, 0x02, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx801; SGPR init bug: every kernel is given 96 SGPRs), A16, A17; iceland, tonga; HIP: unverified"},
    {"gfx803", 8, 0x03, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx801), A16, A17; fiji, polaris10, polaris11; HIP: unverified"},
    {"gfx805", 8, 0x05, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx802: SGPR init bug, 96 SGPRs), A16, A17; tongapro; HIP: unverified"},
    {"gfx810", 8, 0x10, 10, 256, 4, 4, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx801), A16, A17; stoney; HIP: unverified"},
    {"gfx900", 9, 0x00, 10, 256, 4, 4, 256, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (IsaInfo: 10 waves, 256 VGPRs, granule 4), A3 (HIP), A4 (HIP VGPR switch), A1 (MI25)"},
    {"gfx902", 9, 0x02, 10, 256, 4, 4, 256, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx900: 10 waves, 256 VGPRs, granule 4), A4 (HIP's switch: 256/4); an APU, no product listed"},
    {"gfx904", 9, 0x04, 10, 256, 4, 4, 256, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx900: 10 waves, 256 VGPRs, granule 4), A4 (HIP's switch: 256/4); no product listed"},
    {"gfx906", 9, 0x06, 10, 256, 4, 4, 256, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2, A3, A4, A1 (MI50/MI60: 64 KiB LDS, 256 KiB VGPR file)"},
    {"gfx909", 9, 0x09, 10, 256, 4, 4, 256, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx900: 10 waves, 256 VGPRs, granule 4), A4 (HIP's switch: 256/4); an APU, no product listed"},
    {"gfx90c", 9, 0x0c, 10, 256, 4, 4, 256, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, GCN,
     "A2 (as gfx900: 10 waves, 256 VGPRs, granule 4), A4 (HIP's switch: 256/4); an APU, no product listed"},
    {"gfx908", 9, 0x08, 10, 256, 4, 4, 256, 4, GPUOCC_AGPR_SEPARATE, 64 * KIB, 512, GCN,
     "A2, A3, A4, A1 (MI100: 256 VGPR and 256 AccVGPR), A5 (max of VGPRs and AGPRs)"},
    {"gfx90a", 9, 0x0a, 8, 512, 8, 8, 512, 8, GPUOCC_AGPR_UNIFIED, 64 * KIB, 512, GCN,
     "A2 (GFX90AInsts: 8 waves, 512 unified, granule 8), A3, A4, A1 (MI210/MI250: 512 KiB VGPR file), A5"},
    {"gfx940", 9, 0x40, 8, 512, 8, 8, 512, 8, GPUOCC_AGPR_UNIFIED, 64 * KIB, 512, GCN,
     "A2 (as gfx942: GFX90AInsts, 8 waves, 512 unified, granule 8), A4 (gfx94x: 512/8), A5; early MI300 parts"},
    {"gfx941", 9, 0x41, 8, 512, 8, 8, 512, 8, GPUOCC_AGPR_UNIFIED, 64 * KIB, 512, GCN,
     "A2 (as gfx942: GFX90AInsts, 8 waves, 512 unified, granule 8), A4 (gfx94x: 512/8), A5; early MI300 parts"},
    {"gfx942", 9, 0x42, 8, 512, 8, 8, 512, 8, GPUOCC_AGPR_UNIFIED, 64 * KIB, 512, GCN,
     "A2, A3, A4 (gfx94x: 512/8), A1 (MI300A/X, MI325X), A5"},
    {"gfx950", 9, 0x50, 8, 512, 8, 8, 0, 0, GPUOCC_AGPR_UNIFIED, 160 * KIB, 1280, GCN,
     "A2 (LDS 163840), A16 (LDS granule 320 dwords), A1 (MI350X/MI355X: 160 KiB LDS), A12/A14 (LLVM's "
     "occupancy-levels.ll); unknown to LLVM 19 and to HIP's old switch"},
    {"gfx1010", 10, 0x10, 20, 512, 4, 4, 512, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (GFX10.1: 20 waves, 1024 VGPRs, granule 8 wave32), A4 (HIP old: 1024/8), A6, A12/A14"},
    {"gfx1011", 10, 0x11, 20, 512, 4, 4, 512, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1010: GFX10.1, 20 waves, 1024 VGPRs, granule 8 wave32), A4, A6; products not listed"},
    {"gfx1012", 10, 0x12, 20, 512, 4, 4, 512, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1010: GFX10.1, 20 waves, 1024 VGPRs, granule 8 wave32), A4, A6; products not listed"},
    {"gfx1013", 10, 0x13, 20, 512, 4, 4, 512, 4, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1010: GFX10.1, 20 waves, 1024 VGPRs, granule 8 wave32), A4, A6; products not listed"},
    {"gfx1030", 10, 0x30, 16, 512, 8, 4, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (GFX10_3: 16 waves, 1024/16 wave32), A4 (HIP old: 1024/16), A6 (comgr: granule 8), A7 (RX 6900 XT)"},
    {"gfx1031", 10, 0x31, 16, 512, 8, 4, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1030: GFX10_3, 16 waves, 1024/16 wave32), A4 (HIP old: 1024/16), A6 (comgr: granule 8)"},
    {"gfx1032", 10, 0x32, 16, 512, 8, 4, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1030: GFX10_3, 16 waves, 1024/16 wave32), A4 (HIP old: 1024/16), A6 (comgr: granule 8)"},
    {"gfx1033", 10, 0x33, 16, 512, 8, 4, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1030: GFX10_3, 16 waves, 1024/16 wave32), A4 (HIP old: 1024/16), A6 (comgr: granule 8)"},
    {"gfx1034", 10, 0x34, 16, 512, 8, 4, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1030: GFX10_3, 16 waves, 1024/16 wave32), A4 (HIP old: 1024/16), A6 (comgr: granule 8)"},
    {"gfx1035", 10, 0x35, 16, 512, 8, 4, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1030: GFX10_3, 16 waves, 1024/16 wave32), A4 (HIP old: 1024/16), A6 (comgr: granule 8)"},
    {"gfx1036", 10, 0x36, 16, 512, 8, 4, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1030: GFX10_3, 16 waves, 1024/16 wave32), A4 (HIP old: 1024/16), A6 (comgr: granule 8)"},
    {"gfx1100", 11, 0x00, 16, 768, 12, 12, 768, 12, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (1536 VGPRs, granule 24 wave32), A4, A6, A1 (RX 7900 XTX: 768 KiB VGPR file)"},
    {"gfx1101", 11, 0x01, 16, 768, 12, 12, 768, 12, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2, A4, A6, A1 (RX 7800 XT, PRO W7700: 768 KiB VGPR file)"},
    {"gfx1102", 11, 0x02, 16, 512, 8, 8, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (no 1536-VGPR feature), A4, A6, A1 (RX 7600: 512 KiB VGPR file)"},
    {"gfx1103", 11, 0x03, 16, 512, 8, 8, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (as gfx1102: no 1536-VGPR feature), A4, A6; APUs (Radeon 780M)"},
    {"gfx1150", 11, 0x50, 16, 512, 8, 8, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2, A4, A6, A1 (Radeon 890M: 512 KiB VGPR file)"},
    {"gfx1151", 11, 0x51, 16, 768, 12, 12, 768, 12, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (1536 VGPRs), A4, A6, A1 (Radeon 8060S: 768 KiB VGPR file)"},
    {"gfx1152", 11, 0x52, 16, 512, 8, 8, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (no 1536-VGPR feature), A6, A12/A14 (as gfx1030's rows); HIP's old switch: unverified"},
    {"gfx1153", 11, 0x53, 16, 512, 8, 8, 512, 8, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A12/A14 (as gfx1030's rows), A16; unknown to LLVM 19; HIP: unverified"},
    /* HIP's old switch has no gfx12 case: its default (256 / 4 in wave32 units) applies (A4). */
    {"gfx1200", 12, 0x00, 16, 768, 12, 12, 128, 2, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2 (1536 VGPRs), A4 (default case), A6, A1 (RX 9060 XT: 768 KiB VGPR file)"},
    {"gfx1201", 12, 0x01, 16, 768, 12, 12, 128, 2, GPUOCC_AGPR_NONE, 64 * KIB, 512, RDNA,
     "A2, A4 (default case), A6, A1 (RX 9070 XT: 768 KiB VGPR file)"},
    /* CU mode only, 4 SIMDs per CU, wave32, 1024 VGPRs at granule 16 (wave32), 1024 addressable */
    {"gfx1250", 12, 0x50, 16, 512, 8, 8, 0, 0, GPUOCC_AGPR_NONE, 320 * KIB, 2048, AMD_RDNA_CU, 32, 1024,
     "A14 (occupancy-levels.ll: 16 waves, VGPR granule 16), A16 (LDS 327680, granule 512 dwords, CU mode "
     "only, 1024 addressable VGPRs); unknown to LLVM 19; HIP: unverified"},
    {"gfx1310", 13, 0x10, 16, 768, 12, 12, 0, 0, GPUOCC_AGPR_NONE, 64 * KIB, 512, AMD_RDNA, 32, 256,
     "A14 (occupancy-levels.ll: gfx1100's wave32 rows); wave64, HIP and the product: unverified"},
};

#undef GCN
#undef RDNA

struct amd_product_row {
    const char *name;    /* display name */
    const char *aliases; /* normalized spellings, space-separated */
    const char *arch;
    int32_t cus;         /* compute units on the product (one GCD for MI250/MI250X) */
    const char *source;
};

static const struct amd_product_row amd_product_rows[] = {
    {"MI25", "mi25", "gfx900", 64, "A1 (64 CUs)"},
    {"MI50", "mi50 mi5016gb mi5032gb", "gfx906", 60, "A1 (60 CUs)"},
    {"MI60", "mi60", "gfx906", 64, "A1 (64 CUs)"},
    {"MI100", "mi100", "gfx908", 120, "A1 (120 CUs)"},
    {"MI210", "mi210", "gfx90a", 104, "A1 (104 CUs)"},
    {"MI250 GCD", "mi250 mi250gcd", "gfx90a", 104, "A1 (208 CUs, 104 per GCD; HIP shows each GCD as a device)"},
    {"MI250X GCD", "mi250x mi250xgcd", "gfx90a", 110, "A1 (220 CUs, 110 per GCD; HIP shows each GCD as a device)"},
    {"MI300A", "mi300a", "gfx942", 228, "A1 (228 CUs)"},
    {"MI300X", "mi300x", "gfx942", 304, "A1 (304 CUs), A8 (rocminfo: 304 CUs, 4 SIMDs, 32 waves per CU)"},
    {"MI325X", "mi325x", "gfx942", 304, "A1 (304 CUs)"},
    {"MI350X", "mi350x", "gfx950", 256, "A1 (256 CUs)"},
    {"MI355X", "mi355x", "gfx950", 256, "A1 (256 CUs)"},
    {"RX 6900 XT", "rx6900xt 6900xt", "gfx1030", 80, "A7 (80 CUs)"},
    {"RX 6800 XT", "rx6800xt 6800xt", "gfx1030", 72, "A7 (72 CUs), A9 (clinfo: 36 compute units = WGPs)"},
    {"RX 7900 XTX", "rx7900xtx 7900xtx", "gfx1100", 96, "A1 (96 CUs), A8 (rocminfo Navi31: 96 CUs, 2 SIMDs)"},
    {"RX 7900 XT", "rx7900xt 7900xt", "gfx1100", 84, "A1 (84 CUs)"},
    {"PRO W7900", "prow7900 w7900", "gfx1100", 96, "A1 (96 CUs)"},
    {"RX 7800 XT", "rx7800xt 7800xt", "gfx1101", 60, "A1 (60 CUs)"},
    {"RX 7600", "rx7600 7600", "gfx1102", 32, "A1 (32 CUs)"},
    {"Radeon 890M", "890m radeon890m strixpoint", "gfx1150", 16, "A1 (Ryzen AI 9 HX 370: 16 CUs)"},
    {"Strix Halo", "strixhalo 8060s radeon8060s ryzenaimax+395 aimax+395 max+395", "gfx1151", 40,
     "A1 (Ryzen AI Max+ 395, Radeon 8060S: 40 CUs)"},
    {"RX 9060 XT", "rx9060xt 9060xt", "gfx1200", 32, "A1 (32 CUs)"},
    {"RX 9070", "rx9070 9070", "gfx1201", 56, "A1 (56 CUs)"},
    {"RX 9070 XT", "rx9070xt 9070xt", "gfx1201", 64, "A1 (64 CUs)"},
};

/* (Every vendor's part counts, names and fills its rows alike, struct gpuocc_catalog_part, over row types
   of its own: its architectures' facts differ, and each spells its names its own way.) */
#define ARCH_COUNT ((int32_t)(sizeof amd_arch_rows / sizeof amd_arch_rows[0]))
#define PRODUCT_COUNT ((int32_t)(sizeof amd_product_rows / sizeof amd_product_rows[0]))

static void amd_fill_from_arch(gpuocc_device *d, const struct amd_arch_row *a)
{
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
    d->vendor = GPUOCC_VENDOR_AMD;
    d->cc_major = a->major;
    d->cc_minor = a->minor;
    bool gcn = a->family == AMD_GCN;
    d->simds_per_cu = a->family == AMD_RDNA ? 2 : 4;
    d->waves_per_simd = a->waves_per_simd;
    d->runtime_waves_per_simd = gcn ? 8 : 16;
    d->vgprs_per_simd = a->vgprs_per_simd;
    d->vgpr_granule = a->vgpr_granule;
    d->runtime_vgpr_granule = a->runtime_vgpr_granule;
    d->runtime_vgprs_legacy = a->legacy_vgprs;
    d->runtime_vgpr_granule_legacy = a->legacy_granule;
    d->agpr_file = a->agpr_file;
    d->sgprs_per_simd = !gcn ? 0 : a->major < 8 ? 512 : 800;
    d->cus_per_wgp = a->family == AMD_RDNA ? 2 : 1;
    d->wave_sizes = a->wave_sizes;
    d->warp_size = gcn ? 64 : 32;
    d->max_threads_per_block = 1024;
    d->max_threads_per_sm = d->simds_per_cu * a->waves_per_simd * (a->wave_sizes & 64 ? 64 : 32);
    d->regs_per_thread_max = a->vgprs_addressable;
    d->barriers_per_sm = 16;
    /* gfx6: LLVM counts the 32 KiB a workgroup may address as the CU's LDS (the hardware has 64 KiB, A17) */
    d->smem_per_sm_bytes = a->major < 7 ? a->lds_per_workgroup
                           : 64 * KIB > a->lds_per_workgroup ? 64 * KIB : a->lds_per_workgroup;
    d->smem_per_block_bytes = a->lds_per_workgroup;
    d->smem_per_block_optin_bytes = a->lds_per_workgroup;
    d->smem_alloc_unit_bytes = a->lds_granule;
}

static const struct amd_arch_row *amd_arch_by_name(const char *name)
{
    for (int32_t i = 0; i < ARCH_COUNT; i++)
        if (strcmp(amd_arch_rows[i].name, name) == 0)
            return &amd_arch_rows[i];
    return NULL;
}

static const char *const amd_brands[] = {"amd", "instinct", "radeon", "ryzen"};

/* LLVM's generic targets whose members share one set of occupancy facts, as the normalized key spells them
   (no '-'): looked up as a member (A16).  gfx9-4-generic (gfx940-gfx950: two LDS sizes) and gfx11-generic
   (two VGPR files) have none. */
static const struct { const char *generic, *member; } amd_generics[] = {
    {"gfx9generic", "gfx900"}, {"gfx101generic", "gfx1010"}, {"gfx103generic", "gfx1030"},
    {"gfx12generic", "gfx1200"},
};

/* "gfx90a", "gfx90a:sramecc+:xnack-" (target features do not change occupancy), "amdgcn-amd-amdhsa--gfx942". */
static int32_t amd_find_arch(const char *key)
{
    const char *gfx = strstr(key, "gfx");
    if (!gfx)
        return -1;
    char name[16];
    size_t n = strcspn(gfx, ":");
    if (n >= sizeof name)
        return -1;
    memcpy(name, gfx, n);
    name[n] = '\0';
    for (size_t i = 0; i < sizeof amd_generics / sizeof amd_generics[0]; i++)
        if (strcmp(name, amd_generics[i].generic) == 0)
            memcpy(name, amd_generics[i].member, strlen(amd_generics[i].member) + 1);
    const struct amd_arch_row *a = amd_arch_by_name(name);
    return a ? (int32_t)(a - amd_arch_rows) : -1;
}

/* LLVM's processor names for gfx6-8 targets (each as llc-19 writes its code object's amdhsa.target). */
static const struct { const char *name, *target; } amd_processor_names[] = {
    {"tahiti", "gfx600"},   {"pitcairn", "gfx601"},  {"verde", "gfx601"},     {"oland", "gfx602"},
    {"hainan", "gfx602"},   {"kaveri", "gfx700"},    {"hawaii", "gfx701"},    {"kabini", "gfx703"},
    {"mullins", "gfx703"},  {"bonaire", "gfx704"},   {"carrizo", "gfx801"},   {"iceland", "gfx802"},
    {"tonga", "gfx802"},    {"fiji", "gfx803"},      {"polaris10", "gfx803"}, {"polaris11", "gfx803"},
    {"tongapro", "gfx805"}, {"stoney", "gfx810"},
};

static int32_t amd_catalog_find(const char *key)
{
    int32_t a = amd_find_arch(key);
    if (a >= 0)
        return a;
    const char *k = gpuocc_strip_brands(key, amd_brands, sizeof amd_brands / sizeof amd_brands[0]);
    for (size_t i = 0; i < sizeof amd_processor_names / sizeof amd_processor_names[0]; i++)
        if (strcmp(k, amd_processor_names[i].name) == 0)
            return amd_find_arch(amd_processor_names[i].target);
    for (int32_t i = 0; i < PRODUCT_COUNT; i++)
        if (gpuocc_alias_matches(amd_product_rows[i].aliases, k))
            return ARCH_COUNT + i;
    return -1;
}

/* (alike in every vendor's part: see ARCH_COUNT) */
static const char *amd_catalog_name(int32_t index)
{
    return index < ARCH_COUNT ? amd_arch_rows[index].name : amd_product_rows[index - ARCH_COUNT].name;
}

static const char *amd_catalog_source(int32_t index)
{
    return index < ARCH_COUNT ? amd_arch_rows[index].source : amd_product_rows[index - ARCH_COUNT].source;
}

static void amd_catalog_fill(int32_t index, gpuocc_device *d)
{
    if (index < ARCH_COUNT) {
        amd_fill_from_arch(d, &amd_arch_rows[index]);
        return;
    }
    const struct amd_product_row *p = &amd_product_rows[index - ARCH_COUNT];
    const struct amd_arch_row *a = amd_arch_by_name(p->arch);
    amd_fill_from_arch(d, a);
    /* HIP counts WGPs on gfx10+ (its default WGP mode halves the CU count). */
    d->sm_count = a->family == AMD_RDNA ? p->cus / 2 : p->cus;
}

const struct gpuocc_catalog_part *gpuocc_amd_catalog(void)
{
    static const struct gpuocc_catalog_part part = {
        ARCH_COUNT, PRODUCT_COUNT, amd_catalog_find, amd_catalog_name, amd_catalog_source, amd_catalog_fill,
    };
    return &part;
}
