/* GPC layouts and the clusters they hold (docs/model.md, "Thread-block clusters"): a cluster's blocks are
   resident at once on the SMs of one GPC, so a GPC of S SMs at b blocks per SM holds floor(S x b / c)
   clusters of c blocks.  Knows no vendor: the layouts come from the caller or a vendor's table. */
#include "core.h"

#define GPC_SMS_MAX 1024
#define TPC_SMS_MAX 16
#define GPC_TPCS_MAX 64
#define LAYOUT_TPCS_MAX (GPUOCC_MAX_GPCS * GPC_TPCS_MAX)

int32_t gpuocc_gpc_layout_check(const gpuocc_gpc_layout *l)
{
    if (l->gpc_count < 1 || l->gpc_count > GPUOCC_MAX_GPCS || (l->exact != 0 && l->exact != 1))
        return GPUOCC_ERR_ARGUMENT;
    int64_t sms = 0;
    for (int32_t g = 0; g < GPUOCC_MAX_GPCS; g++) {
        int32_t s = l->sms_per_gpc[g];
        bool used = l->exact && g < l->gpc_count;
        if (s < 0 || s > GPC_SMS_MAX || (!used && s != 0))
            return GPUOCC_ERR_ARGUMENT;
        sms += s;
    }
    if (l->exact)
        return sms >= 1 && l->sm_count == 0 && l->sms_per_tpc == 0 && l->tpcs_per_gpc_max == 0 ? GPUOCC_OK
                                                                                            : GPUOCC_ERR_ARGUMENT;
    if (l->sms_per_tpc < 1 || l->sms_per_tpc > TPC_SMS_MAX || l->tpcs_per_gpc_max < 1 ||
        l->tpcs_per_gpc_max > GPC_TPCS_MAX || l->sm_count < 1 || l->sm_count % l->sms_per_tpc != 0)
        return GPUOCC_ERR_ARGUMENT;
    /* the SMs must fit the die */
    int64_t most = (int64_t)l->gpc_count * l->tpcs_per_gpc_max * l->sms_per_tpc;
    return l->sm_count <= most ? GPUOCC_OK : GPUOCC_ERR_ARGUMENT;
}

int64_t gpuocc_gpc_layout_sms(const gpuocc_gpc_layout *l)
{
    if (!l->exact)
        return l->sm_count;
    int64_t sms = 0;
    for (int32_t g = 0; g < l->gpc_count; g++)
        sms += l->sms_per_gpc[g];
    return sms;
}

static int64_t gpc_clusters(int64_t sms, int32_t blocks_per_sm, int32_t cluster_blocks)
{
    /* sms <= 2^10 x 2^6, blocks_per_sm < 2^31: the product fits */
    return sms * blocks_per_sm / cluster_blocks;
}

void gpuocc_gpc_clusters(const gpuocc_gpc_layout *l, int32_t blocks_per_sm, int32_t cluster_blocks,
                         int64_t *least, int64_t *most)
{
    if (l->exact) {
        int64_t n = 0;
        for (int32_t g = 0; g < l->gpc_count; g++)
            n += gpc_clusters(l->sms_per_gpc[g], blocks_per_sm, cluster_blocks);
        *least = *most = n;
        return;
    }
    /* Over every layout: TPCs t_g in 0 .. tpcs_per_gpc_max per GPC, summing to sm_count / sms_per_tpc.
       lo[n] / hi[n]: the least / most clusters of the GPCs so far holding n TPCs (-1: no such layout). */
    int32_t tpcs = l->sm_count / l->sms_per_tpc, per = l->tpcs_per_gpc_max;
    int64_t lo[LAYOUT_TPCS_MAX + 1], hi[LAYOUT_TPCS_MAX + 1], nlo[LAYOUT_TPCS_MAX + 1], nhi[LAYOUT_TPCS_MAX + 1];
    for (int32_t n = 0; n <= tpcs; n++)
        lo[n] = hi[n] = n == 0 ? 0 : -1;
    for (int32_t g = 0; g < l->gpc_count; g++) {
        for (int32_t n = 0; n <= tpcs; n++)
            nlo[n] = nhi[n] = -1;
        for (int32_t n = 0; n <= tpcs; n++) {
            if (hi[n] < 0)
                continue;
            for (int32_t t = 0; t <= per && n + t <= tpcs; t++) {
                int64_t c = gpc_clusters((int64_t)t * l->sms_per_tpc, blocks_per_sm, cluster_blocks);
                if (nlo[n + t] < 0 || lo[n] + c < nlo[n + t])
                    nlo[n + t] = lo[n] + c;
                if (hi[n] + c > nhi[n + t])
                    nhi[n + t] = hi[n] + c;
            }
        }
        memcpy(lo, nlo, sizeof lo);
        memcpy(hi, nhi, sizeof hi);
    }
    /* the check made sm_count <= gpc_count x per x sms_per_tpc, so some layout holds them */
    *least = lo[tpcs];
    *most = hi[tpcs];
}
