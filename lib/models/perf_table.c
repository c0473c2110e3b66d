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
    {"sm_86", 0, 0, 0, 1740, 550, 250, 33.1, 0, 0, 128, 4, 16 * KIB},
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
    {"V100", 1530, 898, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"T4", 1590, 320, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A100", 1410, 2039, 5450, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A100 40GB", 1410, 1555, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A10", 1695, 600, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RTX 3090", 1695, 936, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RTX 4090", 2520, 1008, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"L4", 2040, 300, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A40", 1740, 696, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"L40", 2490, 864, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"L40S", 2520, 864, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"H100 SXM", 1980, 3352, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"H100 PCIe", 1755, 2000, 7100, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"H100 NVL", 1785, 4023, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"H200", 1980, 4800, 9600, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"GH200", 1980, 4023, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"B200", 0, 7672, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"RTX 5090", 2407, 1792, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson AGX Orin", 1300, 204.8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson Orin NX", 918, 102.4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson Orin Nano", 625, 68, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Jetson AGX Thor", 1049, 273, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"GB10", 2418, 273, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
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
    const struct perf_row *prod = find_row(product_perf, sizeof product_perf / sizeof product_perf[0],
                                           gpuocc_catalog_name(gpuocc_catalog_find(name)));
    if (prod)
        overlay(&p, prod);
    return gpuocc_struct_store(perf, sizeof p, &p, sizeof p);
}
