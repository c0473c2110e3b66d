/*
 * DRAM bandwidth against concurrency: Little's law with a latency that grows with load.
 *
 *   bandwidth = bytes in flight / loaded latency                              (Little 1961)
 *   loaded latency = L0 (c + a u / (1 - u)),   u = bandwidth / peak
 *
 * L0 is the product's unloaded pointer-chase latency (ns), c the ratio of a streaming warp's round trip
 * to it at light load, and a u / (1 - u) the queueing delay of an open M/M/1 server at utilisation u
 * (Kleinrock 1975, vol. 1 §3.2), in units of L0.  With x = bytes in flight / (L0 x peak) the fixed point
 * u (c + a u / (1 - u)) = x is the quadratic (a - c) u^2 + (c + x) u - x = 0, whose root in [0, 1) is
 * taken in the cancellation-free form below.  c is measured (Little's law at RRZE gpu-stream's lightest
 * loads); a is the one constant fitted, on the V100 and A100-80 read curves; docs/models.md has both and
 * what the model ignores.
 */
#include "../core/core.h"

#include <math.h>

_Static_assert(sizeof(gpuocc_bandwidth_prediction) == 112, "gpuocc_bandwidth_prediction layout 0.2 is frozen");
_Static_assert(offsetof(gpuocc_bandwidth_prediction, warps_for_80) == 56,
               "gpuocc_bandwidth_prediction layout 0.2 is frozen");

/* Fraction of peak reached at normalised concurrency x >= 0. */
static double utilisation(double x)
{
    const double c = GPUOCC_LOADED_LATENCY_BASE, a = GPUOCC_LOADED_LATENCY_QUEUE;
    return 2 * x / ((c + x) + hypot(c - x, 2 * sqrt(a * x)));
}

/* Normalised concurrency that reaches utilisation u in [0, 1). */
static double concurrency_for(double u)
{
    return u * (GPUOCC_LOADED_LATENCY_BASE + GPUOCC_LOADED_LATENCY_QUEUE * u / (1 - u));
}

int32_t gpuocc_bandwidth_model(double warps_per_sm, double bytes_per_warp, int32_t sm_count, double latency_ns,
                               double peak_gbps, gpuocc_bandwidth_prediction *prediction)
{
    int32_t rc;
    if ((rc = gpuocc_check(warps_per_sm, GPUOCC_NONNEGATIVE)) || (rc = gpuocc_check(bytes_per_warp, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(latency_ns, GPUOCC_POSITIVE)) || (rc = gpuocc_check(peak_gbps, GPUOCC_POSITIVE)))
        return rc;
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
    p.bytes_in_flight_per_sm = warps_per_sm * bytes_per_warp;
    /* GB/s is bytes per ns, so bytes / (ns x GB/s) is a pure number */
    double scale = latency_ns * peak_gbps;
    double x = p.bytes_in_flight_per_sm * sm_count / scale;
    if (!isfinite(p.bytes_in_flight_per_sm) || !isfinite(scale) || !isfinite(x))
        return GPUOCC_ERR_OVERFLOW;
    double u = utilisation(x);
    p.fraction_of_peak = u;
    p.bandwidth_gbps = u * peak_gbps;
    /* the loaded latency from Little's law itself, finite even where u rounds to 1 */
    p.loaded_latency_ns = u > 0 ? x / u * latency_ns : GPUOCC_LOADED_LATENCY_BASE * latency_ns;
    /* a latency near DBL_MAX, raised by the queueing, passes it: no answer is exact then */
    if (!isfinite(p.loaded_latency_ns) || !isfinite(p.bandwidth_gbps))
        return GPUOCC_ERR_OVERFLOW;
    const double targets[] = {0.80, 0.90, 0.95};
    double *warps[] = {&p.warps_for_80, &p.warps_for_90, &p.warps_for_95};
    for (int i = 0; i < 3; i++) {
        *warps[i] = concurrency_for(targets[i]) * scale / (bytes_per_warp * sm_count);
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
    if (!(perf.dram_bandwidth_gbps > 0) || !(perf.dram_latency_cycles > 0) || !(perf.latency_clock_mhz > 0))
        return GPUOCC_ERR_UNSATISFIABLE;
    /* cycles at the clock they were measured at, to ns: the latency of the memory, not of a clock */
    double latency_ns = perf.dram_latency_cycles / perf.latency_clock_mhz * 1e3;
    return gpuocc_bandwidth_model(warps_per_sm, bytes_per_warp, perf.sm_count, latency_ns, perf.dram_bandwidth_gbps,
                                  prediction);
}
