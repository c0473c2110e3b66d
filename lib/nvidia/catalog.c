/*
 * The built-in device table: one row per compute capability, one per named product.  Source keys
 * (S1..S9, D1..D35) are those of docs/sources.md, which lists each document; the rule-level constants
 * (granularities, sub-partitions, carveout steps, block caps, barriers) are explained in docs/model.md.
 */
#include "nvidia.h"

#include <ctype.h>

#define KIB 1024

/* Carveout steps in KiB (S1 Table 32, S2 §20.6.4 / §20.7.3, S3, S8). */
static const int32_t carve_volta[] = {0, 8, 16, 32, 64, 96};
static const int32_t carve_turing[] = {32, 64};
static const int32_t carve_ga100[] = {0, 8, 16, 32, 64, 100, 132, 164};
static const int32_t carve_ga10x[] = {0, 8, 16, 32, 64, 100};
static const int32_t carve_hopper[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

#define CARVE(list) list, (int32_t)(sizeof list / sizeof list[0])
#define NO_CARVE NULL, 0

/* Virtual resources per SM from cc 10.0 to 12.x (S3). */
#define TMEM_COLUMNS_PER_SM 512
#define VIRTUAL_RESOURCES_PER_SM 128

struct arch_row {
    const char *name; /* "sm_90" */
    int32_t major, minor;
    int32_t threads_per_sm, blocks_per_sm, regs_per_block;
    int32_t regs_per_thread_max, sub_partitions, reg_compat_sub_partitions, barriers_per_sm;
    int64_t smem_per_sm, smem_optin, smem_reserved;
    int32_t smem_unit;
    const int32_t *carveouts;
    int32_t carveout_count;
    const char *source;
};

/*
 * Common to all rows (S1 Tables 30/31, S2 Table 27, S5, every dump in docs/sources.md): warp size 32,
 * 1024 threads per block, 65536 registers per SM, 48 KiB per block without opt-in, 256-register warp
 * allocation unit (S3).  Shared-memory unit 256 B to cc 7.x, 128 B from 8.0; per-thread register check
 * 255 to cc 6.x, 256 from 7.0; reserved 1 KiB per block from 8.0 (S3, S5, S2 §20.7.3).  Barriers per SM
 * = 2 x block cap (9.0, 10.0, 10.3) or 1 x (10.1, 11.0, 12.x), applied from cc 9.0 as the runtime does (S3).
 */
static const struct arch_row arch_rows[] = {
    {"sm_50", 5, 0, 2048, 32, 65536, 255, 4, 0, 0, 65536, 49152, 0, 256, NO_CARVE,
     "S2 §20.4.1 (64 KB smem), S3 (32 blocks), GTX 950M deviceQuery (2048 threads); opt-in 48 KB from the older guide"},
    {"sm_52", 5, 2, 2048, 32, 65536, 255, 4, 0, 0, 98304, 49152, 0, 256, NO_CARVE,
     "S2 §20.4.1 (96 KB smem), S3, GTX TITAN X dump (65536 regs/block)"},
    {"sm_53", 5, 3, 2048, 32, 32768, 255, 4, 0, 0, 65536, 49152, 0, 256, NO_CARVE,
     "D22 (Jetson Nano: 32768 regs/block, 2048 threads), S3; 64 KB smem from the CUDA 12 guide table (single source)"},
    {"sm_60", 6, 0, 2048, 32, 65536, 255, 2, 4, 0, 65536, 49152, 0, 256, NO_CARVE,
     "S5 sm_60, S2 §20.5.1, D23 (Quadro GP100); 2 sub-partitions on GP100 (S3)"},
    {"sm_61", 6, 1, 2048, 32, 65536, 255, 4, 0, 0, 98304, 49152, 0, 256, NO_CARVE, "S5 sm_61, S2 §20.5.1"},
    {"sm_62", 6, 2, 2048, 32, 32768, 255, 4, 0, 0, 65536, 49152, 0, 256, NO_CARVE,
     "S5 sm_62 (32 K regs/block, 64 KB), D21 (Jetson TX2 deviceQuery)"},
    {"sm_70", 7, 0, 2048, 32, 65536, 256, 4, 0, 0, 98304, 98304, 0, 256, CARVE(carve_volta),
     "S5 sm_70, S2 §20.6.4 (carveouts, 96 KB per block), S3, D1 (V100), D23 (GV100)"},
    {"sm_72", 7, 2, 2048, 32, 65536, 256, 4, 0, 0, 98304, 98304, 0, 256, CARVE(carve_volta),
     "S3 (Volta rules), Xavier deviceQuery (65536 regs/block); smem from the CUDA 12 guide table (single source)"},
    {"sm_75", 7, 5, 1024, 16, 65536, 256, 4, 0, 0, 65536, 65536, 0, 256, CARVE(carve_turing),
     "S1 Tables 30-32, S2 §20.6.4, S3, S5 sm_75, D15, D26 (RTX 2080: opt-in 65536, 16 blocks)"},
    {"sm_80", 8, 0, 2048, 32, 65536, 256, 4, 0, 0, 167936, 166912, 1024, 128, CARVE(carve_ga100),
     "S1 Tables 30-32, S5 sm_80, S3, S8, D6, D34 (A100: 167936)"},
    {"sm_86", 8, 6, 1536, 16, 65536, 256, 4, 0, 0, 102400, 101376, 1024, 128, CARVE(carve_ga10x),
     "S1, S5 sm_86, S3, D2, D12, D25 (RTX A2000: 102400 / 101376 / 1024)"},
    {"sm_87", 8, 7, 1536, 16, 65536, 256, 4, 0, 0, 167936, 166912, 1024, 128, CARVE(carve_ga100),
     "S1 Tables 31-32, S5 sm_87, S3, D16, D32 (Orin: 167936, 1536 threads)"},
    {"sm_89", 8, 9, 1536, 24, 65536, 256, 4, 0, 0, 102400, 101376, 1024, 128, CARVE(carve_ga10x),
     "S1, S5 sm_89 (24 blocks), S3, D7, D8, D9"},
    {"sm_90", 9, 0, 2048, 32, 65536, 256, 4, 0, 64, 233472, 232448, 1024, 128, CARVE(carve_hopper),
     "S1, S6 (32 blocks, 228 KB, 227 KB per block), S5 sm_90, S3, D10, D24 (opt-in 232448, 32 blocks)"},
    {"sm_100", 10, 0, 2048, 32, 65536, 256, 4, 0, 64, 233472, 232448, 1024, 128, CARVE(carve_hopper),
     "S1, S7 (64 warps, 228 KB, 227 KB, carveouts, 1 KB reserved), S3, S5 sm_100, D13 (B200)"},
    {"sm_101", 10, 1, 1536, 24, 65536, 256, 4, 0, 24, 233472, 232448, 1024, 128, CARVE(carve_hopper),
     "Thor before CUDA 13 (D29 renumbering); same limits as sm_110 (S3 handles 10.1 as 24 blocks)"},
    {"sm_103", 10, 3, 2048, 32, 65536, 256, 4, 0, 64, 233472, 232448, 1024, 128, CARVE(carve_hopper),
     "S1 (10.3 column), S3 (10.x minor 3), S5 (sm_103 = sm_100), D28 (B300, 2048 threads); smem bytes single source"},
    {"sm_110", 11, 0, 1536, 24, 65536, 256, 4, 0, 24, 233472, 232448, 1024, 128, CARVE(carve_hopper),
     "S1 (11.0 column), S3, S5 sm_110, D16, D17 (Thor: 1536 threads, 233472), D20 (232448)"},
    {"sm_120", 12, 0, 1536, 24, 65536, 256, 4, 0, 24, 102400, 101376, 1024, 128, CARVE(carve_ga10x),
     "S1, S3, S5 sm_120, D5, D14 (RTX 5090: 102400, 1536); S7's 32 blocks / 128 KB rejected, see docs/sources.md"},
    {"sm_121", 12, 1, 1536, 24, 65536, 256, 4, 0, 24, 102400, 101376, 1024, 128, CARVE(carve_ga10x),
     "S1, S5 (sm_121 = sm_120), S3, D18 (GB10: 24 blocks, 102400), D19 (opt-in 101376)"},
};

struct product_row {
    const char *name;    /* display name */
    const char *aliases; /* normalized spellings, space-separated */
    const char *arch;    /* arch_rows name */
    int32_t sm_count;
    const char *source;
};

static const struct product_row product_rows[] = {
    {"V100", "v100 v100sxm2 v100sxm216gb teslav100", "sm_70", 80, "D1 (Tesla V100-SXM2-16GB deviceQuery: 80 SMs)"},
    {"T4", "t4 teslat4", "sm_75", 40, "T4 deviceQuery copies, D15"},
    {"A100", "a100 a100sxm a100sxm480gb a10080gb", "sm_80", 108, "D6 (A100-SXM4-80GB: 108 SMs)"},
    {"A100 40GB", "a10040gb a100sxm440gb", "sm_80", 108, "D34 (A100-SXM4-40GB: 108 SMs)"},
    {"A10", "a10", "sm_86", 72, "D2 (A10 deviceQuery: 72 SMs)"},
    {"A40", "a40", "sm_86", 84, "D36 (NVIDIA A40 product brief: 10752 CUDA cores = 84 SMs of 128)"},
    {"RTX 3090", "rtx3090 3090", "sm_86", 82, "D12 (GeForce RTX 3090 deviceQuery: 82 SMs)"},
    {"RTX 4090", "rtx4090 4090", "sm_89", 128, "D8 (GeForce RTX 4090 deviceQuery: 128 SMs)"},
    {"L4", "l4", "sm_89", 58, "D7 (L4 deviceQuery: 58 SMs)"},
    {"L40", "l40", "sm_89", 142, "D37 (NVIDIA L40 datasheet: 18176 CUDA cores = 142 SMs of 128)"},
    {"L40S", "l40s", "sm_89", 142, "D9 (L40S deviceQuery: 142 SMs)"},
    {"H100 SXM", "h100 h100sxm h100sxm5 h10080gbhbm3", "sm_90", 132, "D10 (H100 80GB HBM3 deviceQuery: 132 SMs)"},
    {"H100 PCIe", "h100pcie", "sm_90", 114, "D30 (NVIDIA LaunchPad: H100 PCIe 114 SMs)"},
    {"H100 NVL", "h100nvl", "sm_90", 132, "D11 (H100 NVL deviceQuery: 132 SMs)"},
    {"H200", "h200 h200sxm", "sm_90", 132, "D3 (H200 deviceQuery: 132 SMs)"},
    {"GH200", "gh200 gh200480gb", "sm_90", 132, "D4 (GH200 480GB deviceQuery: 132 SMs)"},
    {"B200", "b200", "sm_100", 148, "D13 (pytorch/ao PR #4002 B200 device query: 148 SMs)"},
    {"RTX 5090", "rtx5090 5090", "sm_120", 170, "D5, D14 (GeForce RTX 5090 deviceQuery: 170 SMs)"},
    {"Jetson AGX Orin", "orin jetsonorin jetsonagxorin agxorin jetsonagxorin64gb", "sm_87", 16,
     "trtexec report (16 SMs, single source); per-SM limits D16, D32"},
    {"Jetson Orin NX", "orinnx jetsonorinnx jetsonorinnx16gb", "sm_87", 8, "D32 (Orin NX 16GB deviceQuery: 8 SMs)"},
    {"Jetson Orin Nano", "orinnano jetsonorinnano", "sm_87", 4, "D16 (Orin Nano deviceQuery: 4 SMs)"},
    {"Jetson AGX Thor", "thor jetsonthor jetsonagxthor t5000", "sm_110", 20, "D16, D17 (Thor deviceQuery: 20 SMs)"},
    {"GB10", "gb10 dgxspark spark", "sm_121", 48, "D18 (GB10 runtime dump: 48 SMs), D31"},
};

/* (Every vendor's part counts, names and fills its rows alike, struct gpuocc_catalog_part, over row types
   of its own: its architectures' facts differ, and each spells its names its own way.) */
#define ARCH_COUNT ((int32_t)(sizeof arch_rows / sizeof arch_rows[0]))
#define PRODUCT_COUNT ((int32_t)(sizeof product_rows / sizeof product_rows[0]))

static void fill_from_arch(gpuocc_device *d, const struct arch_row *a)
{
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
    d->vendor = GPUOCC_VENDOR_NVIDIA;
    d->cc_major = a->major;
    d->cc_minor = a->minor;
    d->warp_size = 32;
    d->max_threads_per_block = 1024;
    d->max_threads_per_sm = a->threads_per_sm;
    d->max_blocks_per_sm = a->blocks_per_sm;
    d->regs_per_sm = 65536;
    d->regs_per_block = a->regs_per_block;
    d->regs_per_thread_max = a->regs_per_thread_max;
    d->reg_alloc_unit = 256;
    d->sub_partitions = a->sub_partitions;
    d->reg_compat_sub_partitions = a->reg_compat_sub_partitions;
    d->barriers_per_sm = a->barriers_per_sm;
    d->smem_per_sm_bytes = a->smem_per_sm;
    d->smem_per_block_bytes = 48 * KIB;
    d->smem_per_block_optin_bytes = a->smem_optin;
    d->smem_reserved_per_block_bytes = a->smem_reserved;
    d->smem_alloc_unit_bytes = a->smem_unit;
    d->carveout_count = a->carveout_count;
    for (int32_t i = 0; i < a->carveout_count; i++)
        d->carveouts_kib[i] = a->carveouts[i];
    /* 128 virtual resources per SM on every cc 10.x, 11.x and 12.x, none before (S3, CUDA 13:
       the per-SM count by major version) */
    d->virtual_resources_per_sm = a->major >= 10 && a->major <= 12 ? VIRTUAL_RESOURCES_PER_SM : 0;
    /* tensor memory, 512 columns of 128 lanes x 32 bits per SM, on the tcgen05 targets: sm_100, sm_101
       (sm_110 before CUDA 13), sm_103, sm_110; none on sm_90 nor on sm_12x (P4, docs/model.md) */
    d->tmem_columns_per_sm = a->major == 10 || a->major == 11 ? TMEM_COLUMNS_PER_SM : 0;
}

static const struct arch_row *arch_by_cc(int32_t major, int32_t minor)
{
    for (int32_t i = 0; i < ARCH_COUNT; i++)
        if (arch_rows[i].major == major && arch_rows[i].minor == minor)
            return &arch_rows[i];
    return NULL;
}

static const struct arch_row *arch_by_name(const char *name)
{
    for (int32_t i = 0; i < ARCH_COUNT; i++)
        if (strcmp(arch_rows[i].name, name) == 0)
            return &arch_rows[i];
    return NULL;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* "sm90", "sm90a", "compute90", "9.0", "90", "100f", "10.1" -> major, minor. */
static bool parse_arch(const char *s, int32_t *major, int32_t *minor)
{
    if (starts_with(s, "sm"))
        s += 2;
    else if (starts_with(s, "compute"))
        s += 7;
    char digits[8];
    size_t n = 0;
    bool dot = false;
    size_t dot_at = 0;
    for (; *s && (isdigit((unsigned char)*s) || *s == '.'); s++) {
        if (*s == '.') {
            if (dot || n == 0)
                return false;
            dot = true, dot_at = n;
            continue;
        }
        if (n + 1 >= sizeof digits)
            return false;
        digits[n++] = *s;
    }
    /* an architecture-specific ('a') or family ('f') suffix names the same limits */
    if ((*s == 'a' || *s == 'f') && s[1] == '\0')
        s++;
    if (*s != '\0' || n < 2 || (dot && dot_at != n - 1))
        return false;
    int32_t value = 0;
    for (size_t i = 0; i < n; i++)
        value = value * 10 + (digits[i] - '0');
    *major = value / 10;
    *minor = value % 10;
    return true;
}

static const char *const nvidia_brands[] = {"nvidia", "geforce", "tesla"};

static int32_t product_device(const struct product_row *p, gpuocc_device *d)
{
    fill_from_arch(d, arch_by_name(p->arch));
    d->sm_count = p->sm_count;
    return GPUOCC_OK;
}

/* The NVIDIA row a normalized name resolves to (index in NVIDIA's part of the catalog), or -1. */
static int32_t nvidia_catalog_find(const char *key)
{
    int32_t major, minor;
    if (parse_arch(key, &major, &minor)) {
        const struct arch_row *a = arch_by_cc(major, minor);
        return a ? (int32_t)(a - arch_rows) : -1;
    }
    const char *k = gpuocc_strip_brands(key, nvidia_brands, sizeof nvidia_brands / sizeof nvidia_brands[0]);
    for (int32_t i = 0; i < PRODUCT_COUNT; i++)
        if (gpuocc_alias_matches(product_rows[i].aliases, k))
            return ARCH_COUNT + i;
    return -1;
}

/* (alike in every vendor's part: see ARCH_COUNT) */
static const char *nvidia_catalog_name(int32_t index)
{
    return index < ARCH_COUNT ? arch_rows[index].name : product_rows[index - ARCH_COUNT].name;
}

static const char *nvidia_catalog_source(int32_t index)
{
    return index < ARCH_COUNT ? arch_rows[index].source : product_rows[index - ARCH_COUNT].source;
}

static void nvidia_catalog_fill(int32_t index, gpuocc_device *d)
{
    if (index < ARCH_COUNT)
        fill_from_arch(d, &arch_rows[index]);
    else
        product_device(&product_rows[index - ARCH_COUNT], d);
}

const struct gpuocc_catalog_part *gpuocc_nvidia_catalog(void)
{
    static const struct gpuocc_catalog_part part = {
        ARCH_COUNT, PRODUCT_COUNT, nvidia_catalog_find, nvidia_catalog_name, nvidia_catalog_source, nvidia_catalog_fill,
    };
    return &part;
}
