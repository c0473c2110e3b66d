/* Lanes: partial warps, divergent branches and random routing (the seeds' "Occupancy and Warp Divergence"). */
#include "../core/core.h"

#include <math.h>

#define WARP_SIZE_MAX 1024

int32_t gpuocc_lane_efficiency(int32_t threads_per_block, int32_t warp_size, double *efficiency)
{
    if (threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    if (warp_size < 1 || warp_size > WARP_SIZE_MAX)
        return GPUOCC_ERR_ARGUMENT;
    if (!efficiency)
        return GPUOCC_ERR_NULL;
    int64_t warps = gpuocc_div_up(threads_per_block, warp_size);
    *efficiency = (double)threads_per_block / ((double)warps * warp_size);
    return GPUOCC_OK;
}

int32_t gpuocc_divergence(const int32_t *lanes, const double *cost_cycles, int32_t paths, int32_t warp_size,
                          double *serialized_cycles, double *simt_efficiency)
{
    if (!lanes || !cost_cycles || !serialized_cycles || !simt_efficiency)
        return GPUOCC_ERR_NULL;
    if (paths < 1 || warp_size < 1 || warp_size > WARP_SIZE_MAX)
        return GPUOCC_ERR_ARGUMENT;
    double total = 0;
    int64_t lane_sum = 0;
    for (int32_t i = 0; i < paths; i++) {
        int32_t rc = gpuocc_check(cost_cycles[i], GPUOCC_NONNEGATIVE);
        if (rc)
            return rc;
        if (lanes[i] < 1)
            return GPUOCC_ERR_ARGUMENT;
        lane_sum += lanes[i];
        total += cost_cycles[i];
    }
    if (lane_sum > warp_size)
        return GPUOCC_ERR_ARGUMENT;
    /* a path that costs nothing costs no issue slots; all-zero costs mean nothing ran.  Each path's share
       of the total (<= 1) is taken before its lanes weigh it, so the efficiency stays finite wherever the
       total is, even where sum(lanes x cost) alone would pass DBL_MAX */
    double useful = 0;
    if (total > 0 && total - total == 0)
        for (int32_t i = 0; i < paths; i++)
            useful += lanes[i] * (cost_cycles[i] / total);
    double answers[2] = {total, total > 0 ? useful / warp_size : 0};
    int32_t rc = gpuocc_finite(2, answers);
    if (rc)
        return rc;
    *serialized_cycles = answers[0];
    *simt_efficiency = answers[1];
    return GPUOCC_OK;
}

int32_t gpuocc_routing(int32_t paths, int64_t items, int32_t warp_size, gpuocc_routing_result *out)
{
    if (paths < 1 || paths > (1 << 20) || items < 1 || warp_size < 1 || warp_size > WARP_SIZE_MAX)
        return GPUOCC_ERR_ARGUMENT;
    gpuocc_routing_result r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    double e = paths, w = warp_size;
    r.random_paths = e * (1 - pow(1 - 1 / e, w));
    /* distribution of the distinct count k after each lane: the next lane either repeats one of the k
       paths seen (k / E) or opens a new one; efficiency with equal costs is 1 / k */
    double p[WARP_SIZE_MAX + 1] = {0};
    p[0] = 1;
    for (int32_t lane = 0; lane < warp_size; lane++) {
        for (int32_t k = lane + 1; k >= 1; k--)
            p[k] = p[k] * k / e + p[k - 1] * (e - (k - 1)) / e;
        p[0] = 0; /* after a lane, at least one path is taken */
    }
    for (int32_t k = 1; k <= warp_size; k++)
        r.random_efficiency += p[k] / k;
    /* sorted: each boundary between the (at most `paths`) groups falls inside a warp unless it lands on a
       warp edge (1 / warp_size); a warp holding a boundary runs two paths, assuming at most one per warp */
    double warps = ceil((double)items / w);
    double groups = fmin(e, (double)items);
    double split = fmin(warps, (groups - 1) * (1 - 1 / w));
    r.sorted_paths = 1 + split / warps;
    r.sorted_efficiency = 1 - 0.5 * split / warps;
    return gpuocc_struct_store(out, sizeof r, &r, sizeof r);
}
