/*
 * Fuzz target: one rule per vendor.  The input picks a catalog device and every kernel field; the single call,
 * the prepared call, a batch of one, a batch whose columns carry the launch's values, eleven launches around it
 * as a batch (the vector loop where the processor has one, and a padded tail), a one-point sweep, the
 * per-resource functions and every next step applied must agree with it exactly (abort otherwise); then the
 * input's tail changes bytes of the prepared state, and the prepared calls on it must still answer with a
 * known status, never crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuocc.h"
#include "../step_apply.h"

/* Little-endian fields taken from the input, zero past its end. */
struct bytes {
    const uint8_t *p;
    size_t n, at;
};
static uint64_t take(struct bytes *b, int width)
{
    uint64_t v = 0;
    for (int i = 0; i < width; i++, b->at++)
        v |= (uint64_t)(b->at < b->n ? b->p[b->at] : 0) << (8 * i);
    return v;
}
static int32_t take_i32(struct bytes *b, int width)
{
    return (int32_t)(uint32_t)take(b, width);
}

static void check(int ok)
{
    if (!ok)
        abort();
}

static int known(int32_t rc)
{
    return rc <= 0 && strcmp(gpuocc_status_name(rc), "unknown") != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bytes in = {data, size, 0};
    gpuocc_device d = {.size = sizeof d};
    if (gpuocc_catalog_device((int32_t)(take(&in, 2) % (uint64_t)gpuocc_catalog_count()), &d) != GPUOCC_OK)
        abort();
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    /* small values mostly (one byte), any value where the byte's top bit asks for four */
    k.threads_per_block = take_i32(&in, 2) - 8;
    k.regs_per_thread = take_i32(&in, 2) - 4;
    k.smem_static_bytes = (int64_t)take(&in, 3) - 16;
    k.smem_dynamic_bytes = (int64_t)take(&in, 3) - 16;
    k.barriers = take_i32(&in, 1) - 2;
    k.carveout_percent = take_i32(&in, 1) - 2;
    k.smem_optin = take_i32(&in, 1) % 3;
    k.smem_dynamic_max_bytes = (int64_t)take(&in, 3) - 2;
    k.max_threads_per_block = take_i32(&in, 2) - 1;
    uint64_t others = take(&in, 1); /* which other fields are set, one bit each */
    if (others & 1)
        k.agprs = take_i32(&in, 1);
    if (others & 2)
        k.sgprs = take_i32(&in, 1);
    if (others & 4)
        k.wave_size = take_i32(&in, 1);
    if (others & 8)
        k.model = take_i32(&in, 1) % 6;
    if (others & 16)
        k.sub_group = take_i32(&in, 1);
    if (others & 32)
        k.grf = take_i32(&in, 2);
    if (others & 64)
        k.virtual_resources = take_i32(&in, 1);
    if (others & 128)
        k.tmem_columns = take_i32(&in, 2), k.dvgpr = take_i32(&in, 1) % 40;

    gpuocc_result want = {.size = sizeof want};
    int32_t rc = gpuocc_occupancy(&d, &k, &want);
    check(known(rc));
    gpuocc_prepared p = {.size = sizeof p};
    check(gpuocc_prepare(&d, &p) == GPUOCC_OK);
    gpuocc_result got = {.size = sizeof got};
    check(gpuocc_occupancy_prepared(&p, &k, &got) == rc);
    check(rc != GPUOCC_OK || memcmp(&got, &want, sizeof got) == 0);
    check(got.exceeded == want.exceeded && got.exceeded_limit == want.exceeded_limit);

    /* a batch of one, and the launch's values as columns over a base of zeros */
    int32_t status[2], blocks[2], exceeded[2];
    int64_t limit[2];
    gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = status, .blocks_per_sm = blocks,
                      .exceeded = exceeded, .exceeded_limit = limit};
    int32_t base_rc = gpuocc_occupancy_batch(&p, &k, &b, 1);
    gpuocc_kernel base = k;
    base.threads_per_block = 1, base.regs_per_thread = 0, base.smem_static_bytes = 0, base.smem_dynamic_bytes = 0;
    base.barriers = 0, base.virtual_resources = 0, base.tmem_columns = 0;
    int32_t threads = k.threads_per_block, regs = k.regs_per_thread, bars = k.barriers;
    int32_t virt = k.virtual_resources, tmem = k.tmem_columns;
    int64_t st = k.smem_static_bytes, dy = k.smem_dynamic_bytes;
    gpuocc_batch cols = {.size = sizeof cols, .smem_width = 8, .threads_per_block = &threads,
                         .regs_per_thread = &regs, .smem_static_bytes = &st, .smem_dynamic_bytes = &dy,
                         .barriers = &bars, .virtual_resources = &virt, .tmem_columns = &tmem,
                         .status = status + 1, .blocks_per_sm = blocks + 1, .exceeded = exceeded + 1,
                         .exceeded_limit = limit + 1};
    int32_t cols_rc = gpuocc_occupancy_batch(&p, &base, &cols, 1);
    /* a base kernel whose own fields are invalid is the call's error; a valid one gives the row its status */
    check(base_rc == GPUOCC_OK || base_rc == rc);
    if (base_rc == GPUOCC_OK && cols_rc == GPUOCC_OK) {
        for (int j = 0; j < 2; j++) {
            check(status[j] == rc && exceeded[j] == want.exceeded && limit[j] == want.exceeded_limit);
            check(rc != GPUOCC_OK || blocks[j] == want.blocks_per_sm);
        }
    }

    /* eleven launches around this one as columns (the vector loop's eight where the processor has one, a
       padded tail of three), each equal to its single call */
    enum { ROWS = 11 };
    int32_t r_threads[ROWS], r_regs[ROWS], r_bars[ROWS], r_virt[ROWS], r_tmem[ROWS], r_status[ROWS], r_blocks[ROWS];
    int32_t r_exceeded[ROWS], r_limit_regs[ROWS];
    int64_t r_st[ROWS], r_dy[ROWS], r_limit[ROWS], r_smem_sm[ROWS];
    uint32_t r_limiters[ROWS];
    double r_occupancy[ROWS];
    for (int j = 0; j < ROWS; j++) {
        r_threads[j] = (int32_t)((uint32_t)k.threads_per_block + 32u * (uint32_t)j);
        r_regs[j] = (int32_t)((uint32_t)k.regs_per_thread + (uint32_t)j);
        r_bars[j] = k.barriers, r_virt[j] = (int32_t)((uint32_t)k.virtual_resources + (uint32_t)(j & 3));
        r_tmem[j] = k.tmem_columns;
        r_st[j] = k.smem_static_bytes, r_dy[j] = k.smem_dynamic_bytes + 1000 * j;
    }
    gpuocc_batch rows = {.size = sizeof rows, .smem_width = 8, .threads_per_block = r_threads, .regs_per_thread = r_regs,
                         .smem_static_bytes = r_st, .smem_dynamic_bytes = r_dy, .barriers = r_bars,
                         .virtual_resources = r_virt, .tmem_columns = r_tmem, .status = r_status,
                         .blocks_per_sm = r_blocks, .occupancy = r_occupancy, .limiters = r_limiters,
                         .limit_regs = r_limit_regs, .smem_per_sm_bytes = r_smem_sm, .exceeded = r_exceeded,
                         .exceeded_limit = r_limit};
    if (gpuocc_occupancy_batch(&p, &base, &rows, ROWS) == GPUOCC_OK) {
        for (int j = 0; j < ROWS; j++) {
            gpuocc_kernel at = base;
            at.threads_per_block = r_threads[j], at.regs_per_thread = r_regs[j], at.barriers = r_bars[j];
            at.virtual_resources = r_virt[j], at.tmem_columns = r_tmem[j];
            at.smem_static_bytes = r_st[j], at.smem_dynamic_bytes = r_dy[j];
            gpuocc_result one = {.size = sizeof one};
            int32_t one_rc = gpuocc_occupancy_prepared(&p, &at, &one);
            check(r_status[j] == one_rc && r_exceeded[j] == one.exceeded && r_limit[j] == one.exceeded_limit);
            check(one_rc != GPUOCC_OK ||
                  (r_blocks[j] == one.blocks_per_sm && r_limiters[j] == one.limiters && r_limit_regs[j] == one.limit_regs &&
                   r_smem_sm[j] == one.smem_per_sm_bytes && memcmp(&r_occupancy[j], &one.occupancy, sizeof one.occupancy) == 0));
        }
    }

    /* a one-point sweep, an eleven-point one (the vector loop's eight where the processor has one, then three
       padded to eight), and the per-resource functions */
    gpuocc_sweep_point pt, pts[ROWS];
    int32_t count = 0;
    if (rc == GPUOCC_OK) {
        check(gpuocc_sweep(&d, &k, GPUOCC_AXIS_THREADS, k.threads_per_block, k.threads_per_block, 1, &pt, 1,
                           &count) == GPUOCC_OK);
        check(pt.blocks_per_sm == want.blocks_per_sm && pt.limiters == want.limiters);
        if (k.regs_per_thread <= INT32_MAX - (ROWS - 1) &&
            gpuocc_sweep(&d, &k, GPUOCC_AXIS_REGS, k.regs_per_thread, k.regs_per_thread + ROWS - 1, 1, pts, ROWS,
                         &count) == GPUOCC_OK) {
            check(count == ROWS);
            for (int j = 0; j < ROWS; j++) {
                gpuocc_kernel at = k;
                at.regs_per_thread = k.regs_per_thread + j;
                gpuocc_result one = {.size = sizeof one};
                check(gpuocc_occupancy(&d, &at, &one) == GPUOCC_OK && pts[j].value == at.regs_per_thread &&
                      pts[j].blocks_per_sm == one.blocks_per_sm && pts[j].limiters == one.limiters &&
                      pts[j].limit_regs == one.limit_regs && pts[j].regs_per_block == one.regs_per_block &&
                      pts[j].smem_per_sm_bytes == one.smem_per_sm_bytes);
            }
        }
        int32_t smem = -2;
        check(gpuocc_limit_shared_memory(&d, &k, &smem) == GPUOCC_OK && smem == want.limit_smem);
    }
    int32_t barriers = -2;
    int32_t barriers_rc = gpuocc_limit_barriers(&d, k.barriers, &barriers);
    check(known(barriers_rc));
    if (rc == GPUOCC_ERR_EXCEEDED && want.exceeded == GPUOCC_INPUT_BARRIERS)
        check(barriers_rc == GPUOCC_ERR_EXCEEDED);
    /* the functions given a block size and registers alone describe a kernel of gpuocc_kernel_init's
       defaults otherwise: they agree with the single call for such a kernel */
    gpuocc_kernel plain;
    gpuocc_kernel_init(&plain);
    plain.threads_per_block = k.threads_per_block, plain.regs_per_thread = k.regs_per_thread;
    plain.grf = k.grf, plain.barriers = k.barriers;
    gpuocc_result p_want = {.size = sizeof p_want};
    if (gpuocc_occupancy(&d, &plain, &p_want) == GPUOCC_OK) {
        int32_t limit = -2;
        int32_t regs = d.vendor == GPUOCC_VENDOR_INTEL ? plain.grf : plain.regs_per_thread;
        check(gpuocc_limit_warps(&d, plain.threads_per_block, &limit) == GPUOCC_OK && limit == p_want.limit_warps);
        check(gpuocc_limit_registers(&d, plain.threads_per_block, regs, &limit) == GPUOCC_OK &&
              limit == p_want.limit_regs);
        check(gpuocc_limit_blocks(&d, &limit) == GPUOCC_OK && limit == p_want.limit_blocks);
    }

    /* each next step, applied through the public fields as the header says, gives exactly its count */
    gpuocc_step steps[GPUOCC_STEPS_MAX];
    int32_t nsteps = 0;
    if (rc == GPUOCC_OK && gpuocc_next_steps(&d, &k, steps, GPUOCC_STEPS_MAX, &nsteps) == GPUOCC_OK) {
        for (int32_t s = 0; s < nsteps; s++) {
            gpuocc_kernel applied = k;
            for (int32_t c = -1; c < steps[s].also_count; c++)
                step_apply(&applied, c < 0 ? &steps[s].change : &steps[s].also[c]);
            gpuocc_result r = {.size = sizeof r};
            check(gpuocc_occupancy(&d, &applied, &r) == GPUOCC_OK && r.blocks_per_sm == steps[s].blocks_per_sm &&
                  r.blocks_per_sm > want.blocks_per_sm);
        }
    }

    /* the rest of the input changes the prepared state: answers with a known status, never a crash */
    while (in.at + 3 <= in.n) {
        size_t at = (size_t)(take(&in, 2) % sizeof p);
        ((uint8_t *)&p)[at] ^= (uint8_t)take(&in, 1);
        gpuocc_result r = {.size = sizeof r};
        check(known(gpuocc_occupancy_prepared(&p, &k, &r)));
        check(known(gpuocc_occupancy_batch(&p, &k, &b, 1)));
        if (known(gpuocc_occupancy_batch(&p, &base, &rows, ROWS)))
            for (int j = 0; j < ROWS; j++)
                check(known(r_status[j]));
    }
    return 0;
}
