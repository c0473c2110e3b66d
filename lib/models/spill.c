/* Register spills: the latency form (a loop that waits on spill loads), the traffic form (bytes through
   L1, L2 and DRAM), and the register / occupancy trade-off.  docs/models.md §Spills. */
#include "../api/api.h"

#include <math.h>

int32_t gpuocc_spill_slowdown(double work_cycles, double spill_accesses, double spill_latency_cycles,
                              double *slowdown)
{
    int32_t rc;
    if ((rc = gpuocc_check(work_cycles, GPUOCC_POSITIVE)) || (rc = gpuocc_check(spill_accesses, GPUOCC_NONNEGATIVE)) ||
        (rc = gpuocc_check(spill_latency_cycles, GPUOCC_NONNEGATIVE)))
        return rc;
    if (!slowdown)
        return GPUOCC_ERR_NULL;
    /* 1 + accesses x latency / work, scaled: accesses x latency may pass DBL_MAX where the slowdown does not */
    double s = 1 + gpuocc_ratio(spill_accesses, spill_latency_cycles, 1, work_cycles, 1);
    if ((rc = gpuocc_finite(1, &s)))
        return rc;
    *slowdown = s;
    return GPUOCC_OK;
}

int32_t gpuocc_spill_input_init(gpuocc_spill_input *in)
{
    if (!in)
        return GPUOCC_ERR_NULL;
    memset(in, 0, sizeof *in);
    in->size = sizeof *in;
    in->executions = 1;
    in->access_bytes = 4;
    return GPUOCC_OK;
}

int32_t gpuocc_spill_estimate(const gpuocc_spill_input *input, gpuocc_spill_cost *cost)
{
    gpuocc_spill_input in;
    int32_t rc = gpuocc_struct_load(&in, sizeof in, input, sizeof in);
    if (rc)
        return rc;
    for (size_t i = 0; i < sizeof in.reserved / sizeof in.reserved[0]; i++)
        if (in.reserved[i] != 0)
            return GPUOCC_ERR_RESERVED;
    if (in.sm_count < 1)
        return GPUOCC_ERR_SM_COUNT;
    if ((rc = gpuocc_check(in.spill_load_bytes, GPUOCC_NONNEGATIVE)) || (rc = gpuocc_check(in.spill_store_bytes, GPUOCC_NONNEGATIVE)) ||
        (rc = gpuocc_check(in.executions, GPUOCC_NONNEGATIVE)) || (rc = gpuocc_check(in.threads, GPUOCC_NONNEGATIVE)) ||
        (rc = gpuocc_check(in.access_bytes, GPUOCC_POSITIVE)) || (rc = gpuocc_check(in.l1_hit_rate, GPUOCC_FRACTION)) ||
        (rc = gpuocc_check(in.l2_hit_rate, GPUOCC_FRACTION)) || (rc = gpuocc_check(in.l2_bandwidth_bytes_per_s, GPUOCC_POSITIVE)) ||
        (rc = gpuocc_check(in.dram_bandwidth_bytes_per_s, GPUOCC_POSITIVE)) || (rc = gpuocc_check(in.clock_hz, GPUOCC_POSITIVE)))
        return rc;
    gpuocc_spill_cost c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    double per_thread = in.spill_load_bytes + in.spill_store_bytes;
    /* products and quotients scaled (core/domain.h): each answer is infinite only where it does not fit */
    c.local_bytes = gpuocc_ratio(in.threads, in.executions, per_thread, 1, 1);
    /* one warp-level instruction moves access_bytes per lane; the load/store unit issues about one
       warp-instruction per cycle per SM (L1: 128 B per cycle per SM, RRZE) */
    c.instructions = gpuocc_ratio(in.threads, in.executions, per_thread, 32, in.access_bytes);
    c.issue_s = gpuocc_ratio(c.instructions, 1, 1, (double)in.sm_count, in.clock_hz);
    double l2_bytes = c.local_bytes * (1 - in.l1_hit_rate);
    c.l2_s = l2_bytes / in.l2_bandwidth_bytes_per_s;
    c.dram_s = l2_bytes * (1 - in.l2_hit_rate) / in.dram_bandwidth_bytes_per_s;
    c.spill_s = fmax(c.issue_s, fmax(c.l2_s, c.dram_s));
    double answers[6] = {c.local_bytes, c.instructions, c.issue_s, c.l2_s, c.dram_s, c.spill_s};
    if ((rc = gpuocc_finite(6, answers)))
        return rc;
    return gpuocc_struct_store(cost, sizeof c, &c, sizeof c);
}

/* Blocks per SM (and the rest of the answer) with the kernel's registers capped at `cap`. */
static int32_t blocks_at_cap(const gpuocc_device *d, const gpuocc_kernel *k, int32_t cap, gpuocc_result *r)
{
    gpuocc_kernel capped = *k;
    capped.regs_per_thread = cap;
    (void)gpuocc_rule(d, &capped, r); /* a refused launch: 0 blocks */
    return r->blocks_per_sm;
}

/*
 * The staircase: the caps below the kernel's registers at which blocks per SM rises, each the largest cap
 * reaching its count.  Blocks per SM never fall as the cap falls (fewer registers per thread never take
 * more of the register file), so from each step the next is found by galloping down (1, 2, 4, ... caps
 * below it) until the count rises, then bisecting that bracket: about 2 log2(gap) evaluations a step
 * rather than one per register (a described device may allow 2^20 registers per thread).  Writes up to
 * `capacity` steps when `steps` is not NULL, all but their spill_slowdown; returns the number of steps
 * and the registers shed by the last one that fits in `capacity`.
 */
static int32_t staircase(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_tradeoff_step *steps,
                         int32_t capacity, int32_t *last_shed)
{
    gpuocc_result now, r;
    (void)gpuocc_rule(d, k, &now); /* a refused launch: 0 blocks */
    int32_t n = 0, best = now.blocks_per_sm;
    int32_t top = k->regs_per_thread < d->regs_per_thread_max ? k->regs_per_thread : d->regs_per_thread_max;
    for (int32_t cap = top; cap >= 0;) {
        /* the largest c <= cap with more than `best` blocks: `fail` gives no more, `ok` more */
        int32_t ok = -1, fail = cap + 1;
        for (int64_t gap = 0; ok < 0; gap = gap ? 2 * gap : 1) {
            int32_t probe = cap - gap > 0 ? (int32_t)(cap - gap) : 0;
            if (blocks_at_cap(d, k, probe, &r) > best)
                ok = probe;
            else if (probe == 0)
                break;
            else
                fail = probe;
        }
        if (ok < 0)
            break; /* no cap down to 0 gives more */
        while (fail - ok > 1) {
            int32_t mid = ok + (fail - ok) / 2;
            if (blocks_at_cap(d, k, mid, &r) > best)
                ok = mid;
            else
                fail = mid;
        }
        blocks_at_cap(d, k, ok, &r);
        best = r.blocks_per_sm;
        if (n < capacity) {
            *last_shed = k->regs_per_thread - ok;
            if (steps) {
                gpuocc_tradeoff_step *s = &steps[n];
                s->regs_per_thread = ok;
                s->regs_shed = k->regs_per_thread - ok;
                s->blocks_per_sm = r.blocks_per_sm;
                s->warps_per_sm = r.warps_per_sm;
                s->occupancy = r.occupancy;
            }
        }
        n++;
        cap = ok - 1;
    }
    return n;
}

/* The slowdown of shedding `shed` registers: 1 + shed x accesses x latency / work, scaled, so it is 1 when
   accesses or latency is 0 and overflows only when the answer does. */
static int32_t shed_slowdown(int32_t shed, double work_cycles, double accesses_per_reg, double latency_cycles,
                             double *slowdown)
{
    double s = 1 + gpuocc_ratio((double)shed, accesses_per_reg, latency_cycles, work_cycles, 1);
    int32_t rc = gpuocc_finite(1, &s);
    if (rc)
        return rc;
    *slowdown = s;
    return GPUOCC_OK;
}

int32_t gpuocc_tradeoff(const gpuocc_device *dev, const gpuocc_kernel *kernel, double work_cycles,
                        double spill_accesses_per_reg, double spill_latency_cycles, gpuocc_tradeoff_step *steps,
                        int32_t capacity, int32_t *count)
{
    gpuocc_device d;
    gpuocc_kernel k;
    int32_t rc = gpuocc_pair_load(&d, dev, &k, kernel);
    if (rc)
        return rc;
    if ((rc = gpuocc_check(work_cycles, GPUOCC_POSITIVE)) || (rc = gpuocc_check(spill_accesses_per_reg, GPUOCC_NONNEGATIVE)) ||
        (rc = gpuocc_check(spill_latency_cycles, GPUOCC_NONNEGATIVE)))
        return rc;
    if (!count || (capacity > 0 && !steps))
        return GPUOCC_ERR_NULL;
    if (capacity < 0)
        return GPUOCC_ERR_ARGUMENT;
    /* The slowdown grows with the registers shed, and the last step reported sheds the most: it is checked
       before anything is written, so an overflow leaves every output untouched.  No step sheds more than the
       kernel's registers: when that much is finite (every real case) the staircase is walked once, writing;
       else it is counted first and its last step checked. */
    int32_t last_shed = 0, n;
    double slowdown;
    if (shed_slowdown(k.regs_per_thread, work_cycles, spill_accesses_per_reg, spill_latency_cycles, &slowdown) ==
        GPUOCC_OK)
        n = staircase(&d, &k, steps, capacity, &last_shed);
    else {
        n = staircase(&d, &k, NULL, capacity, &last_shed);
        if (n > 0 && capacity > 0 &&
            (rc = shed_slowdown(last_shed, work_cycles, spill_accesses_per_reg, spill_latency_cycles, &slowdown)))
            return rc;
        staircase(&d, &k, steps, capacity, &last_shed);
    }
    for (int32_t i = 0; i < n && i < capacity; i++)
        shed_slowdown(steps[i].regs_shed, work_cycles, spill_accesses_per_reg, spill_latency_cycles,
                      &steps[i].spill_slowdown);
    *count = n;
    return n > capacity ? GPUOCC_ERR_BUFFER : GPUOCC_OK;
}
