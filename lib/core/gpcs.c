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

/* F(m) = floor(m x step / c) as a quotient and a remainder, moved by one m at a time without a division. */
struct floor_walk {
    int64_t q, r;
};

static inline void floor_up(struct floor_walk *w, int64_t q_step, int64_t r_step, int64_t c)
{
    w->q += q_step, w->r += r_step;
    if (w->r >= c)
        w->r -= c, w->q++;
}

static inline void floor_down(struct floor_walk *w, int64_t q_step, int64_t r_step, int64_t c)
{
    w->q -= q_step, w->r -= r_step;
    if (w->r < 0)
        w->r += c, w->q--;
}

#define UNREACHED (-1)

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
    /* Over every layout: TPCs t_g in 0 .. tpcs_per_gpc_max per GPC, summing to T = sm_count / sms_per_tpc;
       a GPC of t TPCs holds F(t) = floor(t x step / c) clusters (step: SMs per TPC x blocks per SM).  A sum
       of g such floors is at most g - 1 short of the floor of the sum, F(n) for the n TPCs they hold, so
       the GPCs so far are kept as that shortfall: lo[n] the largest (the least clusters), hi[n] the
       smallest (the most), 0 .. GPUOCC_MAX_GPCS - 1, UNREACHED where no layout holds n TPCs.  Bytes, not
       cluster counts: 4 KiB of stack, where the counts took 64 KiB (a thread's or a wasm module's stack
       may be that small).  Updated in place from the top: n's candidates read only entries <= n. */
    int32_t tpcs = l->sm_count / l->sms_per_tpc, per = l->tpcs_per_gpc_max;
    int64_t c = cluster_blocks, step = (int64_t)l->sms_per_tpc * blocks_per_sm; /* < 2^35 */
    int64_t q_step = step / c, r_step = step % c;
    int8_t lo[LAYOUT_TPCS_MAX + 1], hi[LAYOUT_TPCS_MAX + 1];
    for (int32_t n = 0; n <= tpcs; n++)
        lo[n] = hi[n] = n == 0 ? 0 : UNREACHED;
    /* T x step < 2^11 x 2^35: no overflow */
    const struct floor_walk top = {(int64_t)tpcs * step / c, (int64_t)tpcs * step % c};
    for (int32_t g = 0; g < l->gpc_count; g++) {
        struct floor_walk at_n = top; /* F(n) */
        for (int32_t n = tpcs; n >= 0; n--) {
            int32_t most_short = UNREACHED, least_short = INT32_MAX;
            struct floor_walk rest = at_n, own = {0, 0}; /* F(n - t), F(t) */
            for (int32_t t = 0; t <= per && t <= n; t++) {
                if (lo[n - t] != UNREACHED) {
                    /* F(n) - (F(n - t) - shortfall + F(t)): the floors' own shortfall, 0 or 1, added */
                    int32_t gap = (int32_t)(at_n.q - rest.q - own.q);
                    int32_t most_gap = lo[n - t] + gap, least_gap = hi[n - t] + gap;
                    most_short = most_gap > most_short ? most_gap : most_short;
                    least_short = least_gap < least_short ? least_gap : least_short;
                }
                floor_down(&rest, q_step, r_step, c);
                floor_up(&own, q_step, r_step, c);
            }
            lo[n] = (int8_t)most_short;
            hi[n] = (int8_t)(most_short == UNREACHED ? UNREACHED : least_short);
            floor_down(&at_n, q_step, r_step, c);
        }
    }
    /* the check made sm_count <= gpc_count x per x sms_per_tpc, so some layout holds them */
    *least = top.q - lo[tpcs];
    *most = top.q - hi[tpcs];
}
