/*
 * DRAM bandwidth against concurrency: Little's law with a latency that grows with the interface's queue.
 *
 *   bandwidth = bytes in flight / loaded latency                                   (Little 1961)
 *   loaded latency = c L0 + S rho / (1 - rho),  rho = bandwidth / attainable,  S = q / r
 *
 * L0 is the product's unloaded pointer-chase latency (ns), c the ratio of a streaming warp's round trip to it
 * at light load, and S rho / (1 - rho) the waiting time of an open M/M/1 queue (Kleinrock 1975, vol. 1 §3.2)
 * at utilisation rho of the attainable bandwidth, whose service time S is q bit times of one data pin
 * (r = 8 peak / bus, Gbit/s per pin): every interface then holds q/8 rho^2 / (1 - rho) bytes per pin in its
 * queue.  With y = bytes in flight / attainable (ns) the fixed point rho (c L0 + S rho / (1 - rho)) = y is
 * the quadratic (S - c L0) rho^2 + (c L0 + y) rho - y = 0, whose root in [0, 1) is taken in the
 * cancellation-free form below.  c is measured and q fitted (docs/models.md, with the curves and the loss).
 */
#include "../core/core.h"

#include <math.h>

_Static_assert(sizeof(gpuocc_bandwidth_prediction) == 152, "gpuocc_bandwidth_prediction layout 1.0");
_Static_assert(offsetof(gpuocc_bandwidth_prediction, warps_for_80) == 56, "gpuocc_bandwidth_prediction layout 1.0");
_Static_assert(offsetof(gpuocc_bandwidth_prediction, attainable_gbps) == 112, "gpuocc_bandwidth_prediction layout 1.0");

/* Utilisation of the attainable bandwidth at y = bytes in flight / attainable (ns), light-load round trip
   b = c L0 (ns) and queue service time s (ns). */
static double utilisation(double y, double b, double s)
{
    return 2 * y / ((b + y) + hypot(b - y, 2 * sqrt(s * y)));
}

int32_t gpuocc_bandwidth_model(double warps_per_sm, double bytes_per_warp, int32_t sm_count, double latency_ns,
                               double peak_gbps, double bus_bits, double attainable_gbps,
                               gpuocc_bandwidth_prediction *prediction)
{
    int32_t rc;
    if ((rc = gpuocc_check(warps_per_sm, GPUOCC_NONNEGATIVE)) || (rc = gpuocc_check(bytes_per_warp, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(latency_ns, GPUOCC_POSITIVE)) || (rc = gpuocc_check(peak_gbps, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(bus_bits, GPUOCC_POSITIVE)) || (rc = gpuocc_check(attainable_gbps, GPUOCC_NONNEGATIVE)))
        return rc;
    if (attainable_gbps > peak_gbps)
        return GPUOCC_ERR_DOMAIN;
    if (sm_count < 1)
        return GPUOCC_ERR_SM_COUNT;
    if (!prediction)
        return GPUOCC_ERR_NULL;
    gpuocc_bandwidth_prediction p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.sm_count = sm_count;
    p.peak_gbps = peak_gbps;
    p.latency_ns = latency_ns;
    p.bus_bits = bus_bits;
    p.attainable_gbps = attainable_gbps > 0 ? attainable_gbps : peak_gbps;
    p.pin_rate_gbps = 8 * peak_gbps / bus_bits;
    p.queue_service_ns = GPUOCC_DRAM_QUEUE_BITS / p.pin_rate_gbps;
    p.bytes_in_flight_per_sm = warps_per_sm * bytes_per_warp;
    double base = GPUOCC_LOADED_LATENCY_BASE * latency_ns, s = p.queue_service_ns;
    /* GB/s is bytes per ns, so bytes / GB/s is ns */
    double y = p.bytes_in_flight_per_sm * sm_count / p.attainable_gbps;
    if (!isfinite(p.bytes_in_flight_per_sm) || !isfinite(y) || !isfinite(base) || !isfinite(s) || !(s > 0))
        return GPUOCC_ERR_OVERFLOW;
    double rho = utilisation(y, base, s);
    p.fraction_of_attainable = rho;
    p.bandwidth_gbps = rho * p.attainable_gbps;
    p.fraction_of_peak = p.bandwidth_gbps / peak_gbps;
    /* the loaded latency from the law itself (not y / rho): finite where rho rounds to 1, and equal to
       Little's bytes in flight / bandwidth wherever both are representable */
    p.loaded_latency_ns = rho < 1 ? base + s * rho / (1 - rho) : y;
    if (!isfinite(p.loaded_latency_ns))
        return GPUOCC_ERR_OVERFLOW;
    /* a latency near DBL_MAX, raised by the queueing, passes it: no answer is exact then */
    if (!isfinite(p.bandwidth_gbps) || !isfinite(p.fraction_of_peak))
        return GPUOCC_ERR_OVERFLOW;
    const double targets[] = {0.80, 0.90, 0.95};
    double *warps[] = {&p.warps_for_80, &p.warps_for_90, &p.warps_for_95};
    for (int i = 0; i < 3; i++) {
        double f = targets[i];
        /* bytes in flight for rho = f: f x attainable x L(f) */
        *warps[i] = f * p.attainable_gbps * (base + s * f / (1 - f)) / (bytes_per_warp * sm_count);
        if (!isfinite(*warps[i]))
            return GPUOCC_ERR_OVERFLOW;
    }
    return gpuocc_struct_store(prediction, sizeof p, &p, sizeof p);
}

int32_t gpuocc_bandwidth_predict(const char *name, double warps_per_sm, double bytes_per_warp,
                                 gpuocc_bandwidth_prediction *prediction)
{
    if (!name || !prediction)
        return GPUOCC_ERR_NULL;
    gpuocc_perf perf = {.size = sizeof perf};
    int32_t rc = gpuocc_perf_lookup(name, &perf);
    if (rc)
        return rc;
    if (perf.sm_count < 1)
        return GPUOCC_ERR_SM_COUNT;
    if (!(perf.dram_bandwidth_gbps > 0) || !(perf.dram_bus_bits > 0) || !(perf.dram_latency_cycles > 0) ||
        !(perf.latency_clock_mhz > 0))
        return GPUOCC_ERR_UNSATISFIABLE;
    /* cycles at the clock they were measured at, to ns: the latency of the memory, not of a clock */
    double latency_ns = perf.dram_latency_cycles / perf.latency_clock_mhz * 1e3;
    return gpuocc_bandwidth_model(warps_per_sm, bytes_per_warp, perf.sm_count, latency_ns, perf.dram_bandwidth_gbps,
                                  perf.dram_bus_bits, perf.dram_attainable_gbps, prediction);
}
