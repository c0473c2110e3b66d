/*
 * Little's law on a GPU: how much must be in flight to hide a latency, and what a given concurrency
 * reaches.  Volkov, "Understanding Latency Hiding on GPUs", UCB/EECS-2016-143, §3.4-4.8; docs/models.md.
 */
#include "../core/core.h"

#include <math.h>

int32_t gpuocc_warps_needed(double latency_cycles, double throughput_per_cycle, double ilp, double *warps)
{
    int32_t rc;
    if ((rc = gpuocc_check(latency_cycles, GPUOCC_POSITIVE)) || (rc = gpuocc_check(throughput_per_cycle, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(ilp, GPUOCC_AT_LEAST_ONE)))
        return rc;
    if (!warps)
        return GPUOCC_ERR_NULL;
    /* scaled: latency x throughput may pass DBL_MAX where the warps, divided by the ILP, do not */
    double w = gpuocc_ratio(latency_cycles, throughput_per_cycle, 1, ilp, 1);
    if ((rc = gpuocc_finite(1, &w)))
        return rc;
    *warps = w;
    return GPUOCC_OK;
}

int32_t gpuocc_mix_warps_needed(double alpha, double alu_latency_cycles, double alu_throughput,
                                double mem_latency_cycles, double mem_throughput, double issue_throughput,
                                double *warps)
{
    int32_t rc;
    if ((rc = gpuocc_check(alpha, GPUOCC_NONNEGATIVE)) || (rc = gpuocc_check(alu_latency_cycles, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(alu_throughput, GPUOCC_POSITIVE)) || (rc = gpuocc_check(mem_latency_cycles, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(mem_throughput, GPUOCC_POSITIVE)) || (rc = gpuocc_check(issue_throughput, GPUOCC_NONNEGATIVE)))
        return rc;
    if (!warps)
        return GPUOCC_ERR_NULL;
    /* throughput of memory instructions per cycle: the tightest of the memory pipe, the ALU (alpha
       arithmetic instructions per memory one) and issue (alpha + 1 instructions per memory one) */
    double rate = mem_throughput;
    int bound = 0; /* 0 memory, 1 ALU, 2 issue */
    if (alpha > 0 && alu_throughput / alpha < rate)
        rate = alu_throughput / alpha, bound = 1;
    if (issue_throughput > 0 && issue_throughput / (alpha + 1) < rate)
        rate = issue_throughput / (alpha + 1), bound = 2;
    /* (mem_latency + alpha x alu_latency) x rate, term by term and scaled, so that a large alpha cancels
       where the rate divides by it: alpha x alu_latency alone may pass DBL_MAX where the warps do not */
    double w;
    if (bound == 1)
        w = gpuocc_ratio(mem_latency_cycles, alu_throughput, 1, alpha, 1) +
            alu_latency_cycles * alu_throughput;
    else if (bound == 2)
        w = gpuocc_ratio(mem_latency_cycles, issue_throughput, 1, alpha + 1, 1) +
            gpuocc_ratio(alu_latency_cycles, issue_throughput, alpha, alpha + 1, 1);
    else
        w = mem_latency_cycles * mem_throughput +
            gpuocc_ratio(alpha, alu_latency_cycles, mem_throughput, 1, 1);
    if ((rc = gpuocc_finite(1, &w)))
        return rc;
    *warps = w;
    return GPUOCC_OK;
}

int32_t gpuocc_mix_cusp(double alu_latency_cycles, double alu_throughput, double mem_latency_cycles,
                        double mem_throughput, double *alpha, double *warps)
{
    int32_t rc;
    if ((rc = gpuocc_check(alu_latency_cycles, GPUOCC_POSITIVE)) || (rc = gpuocc_check(alu_throughput, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(mem_latency_cycles, GPUOCC_POSITIVE)) || (rc = gpuocc_check(mem_throughput, GPUOCC_POSITIVE)))
        return rc;
    if (!alpha || !warps)
        return GPUOCC_ERR_NULL;
    double answers[2] = {alu_throughput / mem_throughput,
                         alu_latency_cycles * alu_throughput + mem_latency_cycles * mem_throughput};
    if ((rc = gpuocc_finite(2, answers)))
        return rc;
    *alpha = answers[0];
    *warps = answers[1];
    return GPUOCC_OK;
}

int32_t gpuocc_bytes_in_flight(double bandwidth_bytes_per_s, double latency_ns, int32_t sm_count,
                               double *bytes_per_sm, double *bytes_device)
{
    int32_t rc;
    if ((rc = gpuocc_check(bandwidth_bytes_per_s, GPUOCC_POSITIVE)) || (rc = gpuocc_check(latency_ns, GPUOCC_POSITIVE)))
        return rc;
    if (sm_count < 1)
        return GPUOCC_ERR_SM_COUNT;
    if (!bytes_per_sm || !bytes_device)
        return GPUOCC_ERR_NULL;
    double device = gpuocc_ratio(bandwidth_bytes_per_s, latency_ns, 1, 1e9, 1);
    if ((rc = gpuocc_finite(1, &device)))
        return rc;
    *bytes_device = device;
    *bytes_per_sm = device / sm_count;
    return GPUOCC_OK;
}

int32_t gpuocc_bandwidth_at(double bytes_in_flight_per_sm, int32_t sm_count, double latency_ns,
                            double peak_bytes_per_s, double smooth_k, double *bytes_per_s)
{
    int32_t rc;
    if ((rc = gpuocc_check(bytes_in_flight_per_sm, GPUOCC_NONNEGATIVE)) || (rc = gpuocc_check(latency_ns, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(peak_bytes_per_s, GPUOCC_POSITIVE)) || (rc = gpuocc_check(fabs(smooth_k), GPUOCC_NONNEGATIVE)))
        return rc;
    if (sm_count < 1)
        return GPUOCC_ERR_SM_COUNT;
    if (!bytes_per_s)
        return GPUOCC_ERR_NULL;
    /* scaled: no intermediate overflows or underflows.  x may still be infinite (more in flight than a
       double can say): the fraction is then 1 by either form, the limit of both as x grows */
    double x = gpuocc_ratio(bytes_in_flight_per_sm, (double)sm_count, 1e9, latency_ns, peak_bytes_per_s);
    double fraction;
    if (smooth_k <= 0)
        fraction = x < 1 ? x : 1;
    else
        /* x / (1 + x^k)^(1/k), written to stay finite for large x */
        fraction = x <= 1 ? x / pow(1 + pow(x, smooth_k), 1 / smooth_k) : 1 / pow(pow(x, -smooth_k) + 1, 1 / smooth_k);
    double rate = peak_bytes_per_s * fraction;
    if ((rc = gpuocc_finite(1, &rate)))
        return rc;
    *bytes_per_s = rate;
    return GPUOCC_OK;
}

int32_t gpuocc_latency_check(double warps_per_sm, double latency_cycles, double throughput_per_cycle, double ilp,
                             gpuocc_latency_verdict *verdict)
{
    int32_t rc;
    /* with no warps resident no ILP hides anything: ilp_needed would be infinite */
    if ((rc = gpuocc_check(warps_per_sm, GPUOCC_POSITIVE)))
        return rc;
    gpuocc_latency_verdict v;
    memset(&v, 0, sizeof v);
    if ((rc = gpuocc_warps_needed(latency_cycles, throughput_per_cycle, ilp, &v.warps_needed)))
        return rc;
    v.size = sizeof v;
    v.in_flight = latency_cycles * throughput_per_cycle;
    v.hidden = warps_per_sm >= v.warps_needed;
    v.extra_warps = v.hidden ? 0 : v.warps_needed - warps_per_sm;
    v.ilp_needed = v.in_flight / warps_per_sm;
    double answers[4] = {v.in_flight, v.warps_needed, v.extra_warps, v.ilp_needed};
    if ((rc = gpuocc_finite(4, answers)))
        return rc;
    return gpuocc_struct_store(verdict, sizeof v, &v, sizeof v);
}
