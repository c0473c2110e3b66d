/* Diagnosis: the stall-reason table of the seeds ("Occupancy and Warp Divergence" §6, after Nsight
   Compute's Warp State Statistics) as data, and the roofline (Williams, Waterman, Patterson, CACM 2009). */
#include "../core/core.h"

#include <math.h>

/* Below this occupancy a latency-bound kernel usually gains from more warps: the seeds' "12 % -> 50 %:
   2-4x faster; 50 % -> 100 %: 1.1-1.3x" (§7). */
#define LOW_OCCUPANCY 0.5

struct stall {
    const char *name;
    const char *meaning;
    const char *advice_low;  /* at low occupancy */
    const char *advice_high; /* at high occupancy */
    bool helps_when_low;     /* more warps are the first thing to try at low occupancy */
};

static const struct stall stalls[GPUOCC_STALL_COUNT] = {
    {"long_scoreboard", "warps wait on global or local memory (L1TEX)",
     "add warps (occupancy) or independent loads per thread (ILP) to cover the latency",
     "occupancy is already high: improve access patterns (coalescing, caching, fewer bytes)", true},
    {"short_scoreboard", "warps wait on shared memory or special-function results",
     "reduce shared-memory bank conflicts; more warps help only a little",
     "reduce shared-memory bank conflicts and MUFU use", false},
    {"barrier", "warps wait at __syncthreads()", "fewer barriers, more work between them, smaller blocks",
     "fewer barriers, more work between them, balance the work of the warps in a block", false},
    {"mio_throttle", "the memory input/output pipe (shared memory, special functions) is saturated",
     "reduce memory instructions: wider accesses, fewer shared-memory round trips",
     "reduce memory instructions: wider accesses, fewer shared-memory round trips", false},
    {"lg_throttle", "the local/global memory queue is full", "vectorize loads and stores; remove local-memory spills",
     "vectorize loads and stores; remove local-memory spills", false},
    {"math_pipe_throttle", "an arithmetic pipe is saturated: the kernel is compute bound",
     "you are compute bound (good): occupancy will not help; use cheaper or tensor-core instructions",
     "you are compute bound (good): occupancy will not help; use cheaper or tensor-core instructions", false},
    {"not_selected", "warps are ready but another was issued: there is parallelism to spare",
     "fine: no occupancy problem", "fine: fewer warps would do, registers could buy ILP instead", false},
    {"no_instruction", "instruction cache misses or branch targets not ready",
     "unusual: shrink huge unrolled loops or kernels", "unusual: shrink huge unrolled loops or kernels", false},
};

const char *gpuocc_stall_name(int32_t reason)
{
    return reason >= 0 && reason < GPUOCC_STALL_COUNT ? stalls[reason].name : "";
}

int32_t gpuocc_stall_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int32_t i = 0; i < GPUOCC_STALL_COUNT; i++)
        if (strcmp(stalls[i].name, name) == 0)
            return i;
    return -1;
}

int32_t gpuocc_diagnose(int32_t reason, double occupancy, const char **meaning, const char **advice,
                        int32_t *occupancy_helps)
{
    if (reason < 0 || reason >= GPUOCC_STALL_COUNT)
        return GPUOCC_ERR_ARGUMENT;
    int32_t rc = gpuocc_check(occupancy, GPUOCC_FRACTION);
    if (rc)
        return rc;
    if (!meaning || !advice || !occupancy_helps)
        return GPUOCC_ERR_NULL;
    bool low = occupancy < LOW_OCCUPANCY;
    *meaning = stalls[reason].meaning;
    *advice = low ? stalls[reason].advice_low : stalls[reason].advice_high;
    *occupancy_helps = low && stalls[reason].helps_when_low;
    return GPUOCC_OK;
}

int32_t gpuocc_roofline(double flops, double bytes, double peak_flops_per_s, double peak_bytes_per_s,
                        double *intensity, double *ridge, double *attainable_flops_per_s, int32_t *compute_bound)
{
    int32_t rc;
    if ((rc = gpuocc_check(flops, GPUOCC_NONNEGATIVE)) || (rc = gpuocc_check(bytes, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(peak_flops_per_s, GPUOCC_POSITIVE)) || (rc = gpuocc_check(peak_bytes_per_s, GPUOCC_POSITIVE)))
        return rc;
    if (!intensity || !ridge || !attainable_flops_per_s || !compute_bound)
        return GPUOCC_ERR_NULL;
    double ai = flops / bytes;
    /* scaled (core/domain.h): flops x bandwidth / bytes neither overflows where min() would take the peak
       nor underflows where the intensity alone would; and the verdict compares flops x bandwidth with
       peak x bytes exactly in exponent, not the two quotients, either of which may underflow to 0 */
    double roof = gpuocc_ratio(flops, peak_bytes_per_s, 1, bytes, 1);
    double answers[3] = {ai, peak_flops_per_s / peak_bytes_per_s, fmin(peak_flops_per_s, roof)};
    if ((rc = gpuocc_finite(3, answers)))
        return rc;
    *intensity = answers[0];
    *ridge = answers[1];
    *attainable_flops_per_s = answers[2];
    *compute_bound = gpuocc_ratio(flops, peak_bytes_per_s, 1, bytes, peak_flops_per_s) >= 1;
    return GPUOCC_OK;
}
