/*
 * Performance constants for the latency and spill models.  Each value is a published measurement or a
 * datasheet figure, with its source and, for cycle counts, the clock it was measured at; 0 where no
 * published figure was found (docs/models.md lists the gaps).  Keys [Rn] are in docs/models.md.
 */
#include "../api/api.h"

#include <math.h>
#include <stdio.h>

#define KIB 1024.0

struct perf_row {
    const char *name; /* catalog name: an architecture ("sm_80") or a product ("A100") */
    double sm_clock_mhz, dram_gbps, l2_gbps;
    double latency_clock_mhz, dram_cycles, l2_cycles, l1_cycles, smem_cycles, fp32_cycles;
    double fp32_lanes, issue, bif_target;
};

/* DRAM interface of a product: data pins, memory type, the best bandwidth a published run reached, and
   where these and the row's peak and latency come from.  Keys [Rn], [An], [Dn] are in docs/models.md and
   docs/sources.md. */
struct dram_row {
    const char *name;
    double bus_bits;
    const char *memory;
    double attainable_gbps; /* 0: no published run */
    const char *source;
};

/* Architecture defaults.  FP32 lanes per SM: CUDA Programming Guide, arithmetic instruction throughput
   table [R1].  Issue: warp schedulers of 1 instruction per cycle per SM, 4 from cc 5.0, 2 on cc 6.0 [R1].  Bytes-in-flight
   targets: CUB tuning_transform.cuh arch_to_min_bytes_in_flight [R2].  Latencies: RRZE gpu-latency [R3]
   (V100 at 1380 MHz, A100 at 1410, GH200's H100 at 1980, L40 at 2490 for cc 8.9, A40 at 1740 for cc 8.6),
   Volkov 2016 §4.3 for Maxwell [R4], Accel-Sim TITAN V for shared memory and FP32 on Volta [R5],
   Abdelkhalik 2022 for A100 FP32 [R6]. */
static const struct perf_row arch_perf[] = {
    {"sm_52", 0, 0, 0, 0, 368, 0, 0, 22, 6, 128, 4, 12 * KIB},
    {"sm_50", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 12 * KIB},
    {"sm_53", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 12 * KIB},
    {"sm_60", 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 2, 12 * KIB},
    {"sm_61", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 12 * KIB},
    {"sm_62", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 12 * KIB},
    {"sm_70", 0, 0, 0, 1380, 434, 212, 27.9, 27, 4, 64, 4, 12 * KIB},
    {"sm_72", 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 4, 12 * KIB},
    {"sm_75", 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 4, 12 * KIB},
    {"sm_80", 0, 0, 0, 1410, 552, 206, 33.1, 0, 4, 64, 4, 16 * KIB},
    {"sm_86", 0, 0, 0, 1740, 556.6, 250, 33.1, 0, 0, 128, 4, 16 * KIB},
    {"sm_87", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 16 * KIB},
    {"sm_89", 0, 0, 0, 2490, 625, 274, 34.1, 0, 0, 128, 4, 16 * KIB},
    {"sm_90", 0, 0, 0, 1980, 689, 280, 32.1, 0, 0, 128, 4, 48 * KIB},
    {"sm_100", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 64 * KIB},
    {"sm_101", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 64 * KIB},
    {"sm_103", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 64 * KIB},
    {"sm_110", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 64 * KIB},
    {"sm_120", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 64 * KIB},
    {"sm_121", 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 4, 64 * KIB},
};

/* Products: clocks and DRAM bandwidth from the deviceQuery dumps of docs/sources.md (bandwidth =
   memory clock x 2 x bus width / 8, GB10 without the x2) or NVIDIA's figure where noted; measured L2
   bandwidth from RRZE gpu-l2-cache [R3]; A40, L40, Jetson Orin Nano and NX from their datasheets [R7]. */
static const struct perf_row product_perf[] = {
    {"V100", 1530, 898, 0, 1380, 434, 0, 0, 0, 0, 0, 0, 0},
    {"T4", 1590, 320, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A100", 1410, 2039, 5450, 1410, 552, 0, 0, 0, 0, 0, 0, 0},
    {"A100 40GB", 1410, 1555, 0, 1410, 574.6, 0, 0, 0, 0, 0, 0, 0},
    {"A10", 1695, 600, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RTX 3090", 1695, 936, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RTX 4090", 2520, 1008, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"L4", 2040, 300, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A40", 1740, 696, 0, 1740, 556.6, 0, 0, 0, 0, 0, 0, 0},
    {"L40", 2490, 864, 0, 2490, 625, 0, 0, 0, 0, 0, 0, 0},
    {"L40S", 2520, 864, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"H100 SXM", 1980, 3352, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"H100 PCIe", 1755, 2000, 7100, 1755, 658.4, 0, 0, 0, 0, 0, 0, 0},
    {"H100 NVL", 1785, 4023, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"H200", 1980, 4800, 9600, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"GH200", 1980, 4023, 0, 1980, 689, 0, 0, 0, 0, 0, 0, 0},
    {"B200", 0, 7672, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RTX 5090", 2407, 1792, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson AGX Orin", 1300, 204.8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson Orin NX", 918, 102.4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson Orin Nano", 625, 68, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson AGX Thor", 1049, 273, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"GB10", 2418, 273, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* AMD (a CU for an SM): peak DRAM bandwidth from AMD's product specifications [A13]; DRAM latency from
       RRZE gpu-latency [R3] on the DRAM plateau before the TLB creep (docs/models.md, "Constants"), the
       MI210's for every gfx90a part, the MI300X's for the MI325X. */
    {"MI25", 0, 484, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"MI50", 0, 1024, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"MI60", 0, 1024, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"MI100", 1502, 1228.8, 0, 1430, 542, 0, 0, 0, 0, 0, 0, 0},
    {"MI210", 1700, 1638.4, 0, 1700, 587.2, 0, 0, 0, 0, 0, 0, 0},
    {"MI250 GCD", 1700, 1638.4, 0, 1700, 587.2, 0, 0, 0, 0, 0, 0, 0},
    {"MI250X GCD", 1700, 1638.4, 0, 1700, 587.2, 0, 0, 0, 0, 0, 0, 0},
    {"MI300A", 2100, 5324.8, 0, 2096, 803.1, 0, 0, 0, 0, 0, 0, 0},
    {"MI300X", 2100, 5324.8, 0, 2092, 868, 0, 0, 0, 0, 0, 0, 0},
    {"MI325X", 2100, 6144, 0, 2092, 868, 0, 0, 0, 0, 0, 0, 0},
    {"MI350X", 0, 8192, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"MI355X", 0, 8192, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 6900 XT", 0, 512, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 6800 XT", 0, 512, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 7900 XTX", 0, 960, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 7900 XT", 0, 800, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"PRO W7900", 0, 864, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 7800 XT", 0, 624, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 7600", 0, 288, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Radeon 890M", 0, 120, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Strix Halo", 0, 256, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 9060 XT", 0, 320, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 9070", 0, 640, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RX 9070 XT", 0, 640, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};

#define RRZE "RRZE-HPC/gpu-benches @ 1038c5d "
#define RRZE_2023 "RRZE-HPC/gpu-benches @ fd7091f "
#define RRZE_OLD "RRZE-HPC/gpu-benches @ 960491d "
static const struct dram_row dram_rows[] = {
    {"V100", 4096, "HBM2", 897, "peak, bus: deviceQuery D1 (4096-bit, 877 MHz DDR); latency: " RRZE
     "gpu-latency/v100.txt (434 cycles at 1380 MHz); attainable: " RRZE "gpu-stream/v100.txt, best kernel"},
    {"T4", 256, "GDDR6", 0, "peak, bus: T4 deviceQuery (256-bit, 5001 MHz); no published latency"},
    {"A100", 5120, "HBM2e", 1908, "peak, bus: deviceQuery D6 (5120-bit, 1593 MHz DDR); latency: " RRZE
     "gpu-latency/a100_80.txt (552 cycles at 1410 MHz); attainable: " RRZE "gpu-stream/a100_80.txt, best kernel"},
    {"A100 40GB", 5120, "HBM2", 1539, "peak, bus: deviceQuery D34 (5120-bit, 1215 MHz DDR); latency: " RRZE_OLD
     "gpu-latency/a100_40.txt (574.6 cycles at 1410 MHz, 1.5 GB set); attainable: " RRZE "gpu-stream/a100_40.txt, best kernel"},
    {"A10", 384, "GDDR6", 0, "peak, bus: deviceQuery D2 (384-bit, 6251 MHz); latency: the A40's (cc 8.6)"},
    {"RTX 3090", 384, "GDDR6X", 0, "peak, bus: deviceQuery D12 (384-bit, 9751 MHz); latency: the A40's (cc 8.6)"},
    {"RTX 4090", 384, "GDDR6X", 0, "peak, bus: deviceQuery D8 (384-bit, 10501 MHz); latency: the L40's (cc 8.9)"},
    {"L4", 192, "GDDR6", 0, "peak, bus: deviceQuery D7 (192-bit, 6251 MHz); latency: the L40's (cc 8.9)"},
    {"A40", 384, "GDDR6", 680, "peak: NVIDIA A40 product brief D36 (696 GB/s, 384-bit GDDR6); latency: " RRZE
     "gpu-latency/a40.txt (556.6 cycles at 1740 MHz); attainable: " RRZE "gpu-stream/a40.txt, best kernel"},
    {"L40", 384, "GDDR6", 847, "peak: NVIDIA L40 datasheet D37 (864 GB/s, 384-bit GDDR6); latency: " RRZE
     "gpu-latency/l40.txt (625 cycles at 2490 MHz); attainable: " RRZE "gpu-stream/l40.txt, best kernel"},
    {"L40S", 384, "GDDR6", 0, "peak, bus: deviceQuery D9 (384-bit, 9001 MHz); latency: the L40's (cc 8.9)"},
    {"H100 SXM", 5120, "HBM3", 0, "peak, bus: deviceQuery D10 (5120-bit, 2619 MHz); latency: GH200's (cc 9.0)"},
    {"H100 PCIe", 5120, "HBM2e", 2000, "peak, bus: NVIDIA D30 (2.0 TB/s, 5120-bit HBM2e); latency: " RRZE_OLD
     "gpu-latency/h100_pcie.txt (658.4 cycles at 1755 MHz, 1.5 GB set); attainable: the peak (" RRZE
     "gpu-stream/h100_pcie.txt's best kernel, 2018 GB/s, is above NVIDIA's rounded figure)"},
    {"H100 NVL", 6144, "HBM3", 0, "peak, bus: deviceQuery D11 (6144-bit, 2619 MHz); latency: GH200's (cc 9.0)"},
    {"H200", 6144, "HBM3e", 3898, "peak: NVIDIA (4.8 TB/s), bus: deviceQuery D3 (6144-bit); latency: GH200's (cc 9.0); "
     "attainable: " RRZE_2023 "gpu-stream/h200.txt, best kernel"},
    {"GH200", 6144, "HBM3", 3944, "peak, bus: deviceQuery D4 (6144-bit, 2619 MHz); latency: " RRZE
     "gpu-latency/gh200.txt (689 cycles at 1980 MHz); attainable: " RRZE "gpu-stream/gh200.txt, best kernel"},
    {"B200", 7680, "HBM3e", 0, "peak, bus: deviceQuery D13 (7680-bit, 3996 MHz); no published latency"},
    {"RTX 5090", 512, "GDDR7", 0, "peak, bus: deviceQuery D5 (512-bit, 14001 MHz); no published latency"},
    {"Jetson AGX Orin", 256, "LPDDR5", 0, "peak: NVIDIA datasheet (204.8 GB/s, 256-bit LPDDR5); no published latency"},
    {"Jetson Orin NX", 128, "LPDDR5", 0, "peak: Jetson Orin NX data sheet D39 (102.4 GB/s, 128-bit LPDDR5); no published latency"},
    {"Jetson Orin Nano", 128, "LPDDR5", 0, "peak: Jetson Orin Nano data sheet D38 (68 GB/s, 128-bit LPDDR5); no published latency"},
    {"Jetson AGX Thor", 256, "LPDDR5X", 0, "peak, bus: deviceQuery D16/D17 (256-bit, 4266 MHz); no published latency"},
    {"GB10", 256, "LPDDR5X", 0, "peak, bus: GB10 deviceQuery (256-bit, 8533 MT/s); no published latency"},
    {"MI25", 2048, "HBM2", 0, "peak, bus: AMD specifications A13 (484 GB/s, 2048-bit HBM2); no published latency"},
    {"MI50", 4096, "HBM2", 0, "peak, bus: AMD specifications A13 (1024 GB/s, 4096-bit HBM2); no published latency"},
    {"MI60", 4096, "HBM2", 0, "peak, bus: AMD specifications A13 (1024 GB/s, 4096-bit HBM2); no published latency"},
    {"MI100", 4096, "HBM2", 1095, "peak, bus: AMD specifications A13 (1228.8 GB/s, 4096-bit HBM2); latency: " RRZE
     "gpu-latency/mi100.txt (542 cycles at 1430 MHz, plateau 25-64 MB); attainable: " RRZE "gpu-stream/mi100.txt, best kernel"},
    {"MI210", 4096, "HBM2e", 1533, "peak, bus: AMD specifications A13 (1638.4 GB/s, 4096-bit HBM2e); latency: " RRZE
     "gpu-latency/mi210.txt (587.2 cycles at 1700 MHz, plateau 12-64 MB); attainable: " RRZE "gpu-stream/mi210.txt, best kernel"},
    {"MI250 GCD", 4096, "HBM2e", 0, "peak, bus: AMD specifications A13 (3276.8 GB/s, 8192-bit HBM2e, half per GCD); "
     "latency: the MI210's (gfx90a)"},
    {"MI250X GCD", 4096, "HBM2e", 0, "peak, bus: AMD specifications A13 (3276.8 GB/s, 8192-bit HBM2e, half per GCD); "
     "latency: the MI210's (gfx90a)"},
    {"MI300A", 8192, "HBM3", 3069, "peak, bus: AMD specifications A13 (5.3 TB/s, 8192-bit HBM3); latency: " RRZE
     "gpu-latency/mi300a.txt (803.1 cycles at 2096 MHz, first set past the MALL); attainable: " RRZE
     "gpu-stream/mi300a.txt, best kernel"},
    {"MI300X", 8192, "HBM3", 4849, "peak, bus: AMD specifications A13 (5.3 TB/s, 8192-bit HBM3); latency: " RRZE
     "gpu-latency/mi300x.txt (868 cycles at 2092 MHz, first set past the MALL); attainable: " RRZE
     "gpu-stream/mi300x.txt, best kernel"},
    {"MI325X", 8192, "HBM3e", 0, "peak, bus: AMD specifications A13 (6 TB/s, 8192-bit HBM3E); latency: the MI300X's (gfx942)"},
    {"MI350X", 8192, "HBM3e", 0, "peak, bus: AMD specifications A13 (8 TB/s, 8192-bit HBM3E); no published latency"},
    {"MI355X", 8192, "HBM3e", 0, "peak, bus: AMD specifications A13 (8 TB/s, 8192-bit HBM3E); no published latency"},
    {"RX 6900 XT", 256, "GDDR6", 508, "peak, bus: AMD specifications A13 (512 GB/s, 256-bit GDDR6); latency: " RRZE
     "gpu-latency/rx6900xt.txt's DRAM step (2000 cycles) is 3x the streaming round trip, not used; attainable: " RRZE
     "gpu-stream/rx6900xt.txt, best kernel"},
    {"RX 6800 XT", 256, "GDDR6", 0, "peak, bus: AMD specifications A13 (512 GB/s, 256-bit GDDR6); no usable latency"},
    {"RX 7900 XTX", 384, "GDDR6", 0, "peak, bus: AMD specifications A13 (960 GB/s, 384-bit GDDR6); no published latency"},
    {"RX 7900 XT", 320, "GDDR6", 0, "peak, bus: AMD specifications A13 (800 GB/s, 320-bit GDDR6); no published latency"},
    {"PRO W7900", 384, "GDDR6", 0, "peak, bus: AMD specifications A13 (864 GB/s, 384-bit GDDR6); no published latency"},
    {"RX 7800 XT", 256, "GDDR6", 0, "peak, bus: AMD specifications A13 (624 GB/s, 256-bit GDDR6); no published latency"},
    {"RX 7600", 128, "GDDR6", 0, "peak, bus: AMD specifications A13 (288 GB/s, 128-bit GDDR6); no published latency"},
    {"Radeon 890M", 128, "LPDDR5X", 0, "peak, bus: AMD specifications A13 (LPDDR5X-7500, 128-bit: 120 GB/s); "
     "no published latency"},
    {"Strix Halo", 256, "LPDDR5X", 0, "peak, bus: AMD specifications A13 (LPDDR5X-8000, 256-bit: 256 GB/s); "
     "no published latency"},
    {"RX 9060 XT", 128, "GDDR6", 0, "peak, bus: AMD specifications A13 (320 GB/s, 128-bit GDDR6); no published latency"},
    {"RX 9070", 256, "GDDR6", 0, "peak, bus: AMD specifications A13 (640 GB/s, 256-bit GDDR6); no published latency"},
    {"RX 9070 XT", 256, "GDDR6", 0, "peak, bus: AMD specifications A13 (640 GB/s, 256-bit GDDR6); no published latency"},
};

static const struct perf_row *find_row(const struct perf_row *rows, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

/* Copy the fields a row knows (non-zero) over `p`. */
static void overlay(gpuocc_perf *p, const struct perf_row *r)
{
    const double from[] = {r->sm_clock_mhz, r->dram_gbps, r->l2_gbps, r->latency_clock_mhz, r->dram_cycles,
                           r->l2_cycles, r->l1_cycles, r->smem_cycles, r->fp32_cycles, r->fp32_lanes, r->issue,
                           r->bif_target};
    double *to[] = {&p->sm_clock_mhz, &p->dram_bandwidth_gbps, &p->l2_bandwidth_gbps, &p->latency_clock_mhz,
                    &p->dram_latency_cycles, &p->l2_latency_cycles, &p->l1_latency_cycles, &p->smem_latency_cycles,
                    &p->fp32_latency_cycles, &p->fp32_lanes, &p->issue_per_cycle, &p->bytes_in_flight_target};
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++)
        if (from[i] != 0)
            *to[i] = from[i];
}

int32_t gpuocc_perf_lookup(const char *name, gpuocc_perf *perf)
{
    if (!name || !perf)
        return GPUOCC_ERR_NULL;
    gpuocc_device d = {.size = sizeof d};
    int32_t rc = gpuocc_device_lookup(name, &d);
    if (rc)
        return rc;
    gpuocc_perf p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.sm_count = d.sm_count;
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d%d", d.cc_major, d.cc_minor);
    const struct perf_row *a = find_row(arch_perf, sizeof arch_perf / sizeof arch_perf[0], arch);
    if (a)
        overlay(&p, a);
    const char *product = gpuocc_catalog_name(gpuocc_catalog_find(name));
    const struct perf_row *prod = find_row(product_perf, sizeof product_perf / sizeof product_perf[0], product);
    if (prod) {
        overlay(&p, prod);
        p.dram_latency_own = prod->dram_cycles != 0;
    }
    for (size_t i = 0; product && i < sizeof dram_rows / sizeof dram_rows[0]; i++)
        if (strcmp(dram_rows[i].name, product) == 0) {
            p.dram_bus_bits = dram_rows[i].bus_bits;
            p.dram_attainable_gbps = dram_rows[i].attainable_gbps;
            snprintf(p.dram_memory, sizeof p.dram_memory, "%s", dram_rows[i].memory);
            snprintf(p.dram_source, sizeof p.dram_source, "%s", dram_rows[i].source);
        }
    return gpuocc_struct_store(perf, sizeof p, &p, sizeof p);
}
