/*
 * The batch's vector loops against the scalar rule, as dav1d's checkasm holds its assembly to the C: for every
 * NVIDIA catalog device and random base kernels, random launches as columns (in range, at the lanes' edges,
 * past them, refused) go through the loop this processor gets (gpuocc_nv_batch_lanes, called directly: this
 * test links lib/nvidia/rule.c and rule_avx2.c) and, launch by launch, through the prepared single call (the
 * scalar rule); every output column must be equal, bit for bit.  The loop must answer most launches itself
 * (else the test would hold nothing); a processor or build without a loop skips.
 */
#include "common.h"

#include "../lib/nvidia/nvidia.h"

#include <string.h>

static uint64_t seed = 0x2545f4914f6cdd1du;
static int64_t draw(int64_t n) /* 0 .. n - 1 */
{
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((seed >> 33) % (uint64_t)n);
}

enum { ROWS = 200 };

struct columns {
    int32_t threads[ROWS], regs[ROWS], barriers[ROWS], virtual_resources[ROWS], tmem[ROWS];
    int64_t smem_static[ROWS], smem_dynamic[ROWS];
    int32_t smem_static32[ROWS], smem_dynamic32[ROWS];
    int32_t status[ROWS], blocks[ROWS], warps[ROWS], limit_warps[ROWS], limit_regs[ROWS], limit_smem[ROWS];
    int32_t limit_blocks[ROWS], limit_barriers[ROWS], regs_per_block[ROWS], waves[ROWS], limit_sgprs[ROWS];
    int32_t limit_virtual[ROWS], exceeded[ROWS];
    uint32_t limiters[ROWS];
    double occupancy[ROWS];
    int64_t smem_block[ROWS], smem_sm[ROWS], exceeded_limit[ROWS];
};

/* A value of one input: mostly ordinary, sometimes at or past an edge of the lanes or of its domain. */
static int64_t edge(int64_t ordinary, int64_t lane_edge)
{
    switch (draw(128)) {
    case 0: return -1 - draw(3);
    case 1: case 2: return lane_edge - 1 + draw(3);
    case 3: return draw(2) ? INT32_MAX : ((int64_t)1 << 40) + draw(5);
    default: return ordinary;
    }
}

static void fill(struct columns *c, const gpuocc_device *d)
{
    for (int i = 0; i < ROWS; i++) {
        c->threads[i] = (int32_t)edge(draw(4) == 0 ? 1 + draw(2048) : 32 * (1 + draw(32)), 1 << 20);
        c->regs[i] = (int32_t)edge(draw(260), 1 << 20);
        c->smem_static[i] = edge(draw(3) == 0 ? 0 : draw(50000), (int64_t)1 << 29);
        c->smem_dynamic[i] = edge(draw(3) == 0 ? 0 : draw(d->smem_per_block_optin_bytes + 8192), (int64_t)1 << 29);
        if (draw(4) == 0) /* at a KiB boundary (of the carveouts) or just past it */
            c->smem_dynamic[i] = 1024 * draw(200) + draw(3) - 1 - c->smem_static[i] % 1024;
        if (c->smem_static[i] > INT32_MAX || c->smem_static[i] < INT32_MIN)
            c->smem_static[i] = INT32_MAX;
        if (c->smem_dynamic[i] > INT32_MAX || c->smem_dynamic[i] < INT32_MIN)
            c->smem_dynamic[i] = -5;
        c->smem_static32[i] = (int32_t)c->smem_static[i];
        c->smem_dynamic32[i] = (int32_t)c->smem_dynamic[i];
        c->barriers[i] = (int32_t)edge(draw(3) == 0 ? draw(18) : 1, 16);
        c->virtual_resources[i] = (int32_t)edge(draw(2) ? 0 : draw(200), 1 << 24);
        c->tmem[i] = draw(32) == 0 ? (int32_t)(draw(3) == 0 ? draw(600) : 32 << draw(5)) : 0;
    }
}

static gpuocc_batch batch_of(struct columns *c, int width, unsigned wanted)
{
    gpuocc_batch b = {.size = sizeof b, .smem_width = width};
    b.threads_per_block = c->threads, b.regs_per_thread = c->regs;
    b.smem_static_bytes = width == 8 ? (const void *)c->smem_static : (const void *)c->smem_static32;
    b.smem_dynamic_bytes = width == 8 ? (const void *)c->smem_dynamic : (const void *)c->smem_dynamic32;
    b.barriers = c->barriers, b.virtual_resources = c->virtual_resources, b.tmem_columns = c->tmem;
    b.status = c->status;
    /* every output, or a few (the loop computes only what is asked; exceeded decides a fallback) */
    b.blocks_per_sm = c->blocks, b.warps_per_sm = c->warps, b.occupancy = c->occupancy, b.limiters = c->limiters;
    if (wanted) {
        b.limit_warps = c->limit_warps, b.limit_regs = c->limit_regs, b.limit_smem = c->limit_smem;
        b.limit_blocks = c->limit_blocks, b.limit_barriers = c->limit_barriers, b.regs_per_block = c->regs_per_block;
        b.smem_per_block_bytes = c->smem_block, b.smem_per_sm_bytes = c->smem_sm, b.waves_per_simd = c->waves;
        b.limit_sgprs = c->limit_sgprs, b.limit_virtual_resources = c->limit_virtual, b.exceeded = c->exceeded;
        b.exceeded_limit = c->exceeded_limit;
    }
    return b;
}

/* The scalar rule's row, as the batch answers a launch the loop leaves: the prepared single call. */
struct scalar {
    const gpuocc_prepared *p;
    const gpuocc_kernel *k;
    const gpuocc_batch *b;
    int calls;
};

static void scalar_row(void *context, size_t i)
{
    struct scalar *s = context;
    const gpuocc_batch *b = s->b;
    gpuocc_kernel at = *s->k;
    at.threads_per_block = b->threads_per_block[i];
    at.regs_per_thread = b->regs_per_thread[i];
    at.smem_static_bytes = b->smem_width == 8 ? ((const int64_t *)b->smem_static_bytes)[i]
                                              : ((const int32_t *)b->smem_static_bytes)[i];
    at.smem_dynamic_bytes = b->smem_width == 8 ? ((const int64_t *)b->smem_dynamic_bytes)[i]
                                               : ((const int32_t *)b->smem_dynamic_bytes)[i];
    at.barriers = b->barriers[i];
    at.virtual_resources = b->virtual_resources[i];
    at.tmem_columns = b->tmem_columns[i];
    gpuocc_result r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    int32_t rc = gpuocc_occupancy_prepared(s->p, &at, &r);
    if (rc != GPUOCC_OK) {
        int32_t exceeded = r.exceeded;
        int64_t limit = r.exceeded_limit;
        memset(&r, 0, sizeof r);
        r.exceeded = exceeded, r.exceeded_limit = limit;
    }
    b->status[i] = rc;
#define PUT(field)                                                                                                 \
    if (b->field)                                                                                                  \
    b->field[i] = r.field
    PUT(blocks_per_sm);
    PUT(warps_per_sm);
    PUT(occupancy);
    PUT(limiters);
    PUT(limit_warps);
    PUT(limit_regs);
    PUT(limit_smem);
    PUT(limit_blocks);
    PUT(limit_barriers);
    PUT(regs_per_block);
    PUT(smem_per_block_bytes);
    PUT(smem_per_sm_bytes);
    PUT(waves_per_simd);
    PUT(limit_sgprs);
    PUT(limit_virtual_resources);
    PUT(exceeded);
    PUT(exceeded_limit);
#undef PUT
    s->calls++;
}

Test(simd, vector_loop_equals_scalar_rule)
{
    int32_t count = gpuocc_catalog_count(), devices = 0, checked = 0;
    long rows = 0, in_lanes = 0;
    for (int32_t e = 0; e < count; e++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(e, &d), GPUOCC_OK);
        if (d.vendor != GPUOCC_VENDOR_NVIDIA)
            continue;
        devices++;
        gpuocc_prepared p = {.size = sizeof p};
        cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
        for (int round = 0; round < 24; round++) {
            gpuocc_kernel k;
            gpuocc_kernel_init(&k);
            k.carveout_percent = (int32_t)draw(102) - 1;
            k.smem_optin = (int32_t)draw(2);
            k.smem_dynamic_max_bytes = draw(3) == 0 ? draw(200000) : -1;
            gpuocc_nv_lanes_fn lanes = gpuocc_nv_batch_lanes(&p.nvidia, &k);
            if (!lanes)
                continue;
            checked++;
            static struct columns vector, scalar;
            fill(&vector, &d);
            int width = draw(2) ? 8 : 4;
            unsigned wanted = draw(3) == 0; /* all the outputs, exceeded among them */
            memset(&vector.status, 0x5a, sizeof vector - offsetof(struct columns, status));
            scalar = vector;
            gpuocc_batch bv = batch_of(&vector, width, wanted), bs = batch_of(&scalar, width, wanted);
            struct scalar fallback = {&p, &k, &bv, 0}, reference = {&p, &k, &bs, 0};
            size_t done = lanes(&p.nvidia, &k, &bv, ROWS, scalar_row, &fallback);
            cr_assert_eq(done, ROWS - ROWS % 8);
            in_lanes += (long)done - fallback.calls;
            for (size_t i = done; i < ROWS; i++)
                scalar_row(&fallback, i);
            for (size_t i = 0; i < ROWS; i++)
                scalar_row(&reference, i);
            rows += (long)done;
            /* column by column, for a message that names the launch */
#define SAME(field)                                                                                                \
    for (int i = 0; i < ROWS; i++)                                                                                 \
        cr_assert(memcmp(&vector.field[i], &scalar.field[i], sizeof vector.field[i]) == 0,                          \
                  "%s, launch %d (threads %d regs %d static %lld dynamic %lld barriers %d virtual %d tmem %d; "       \
                  "carveout %d optin %d attribute %lld): " #field " differs",                                        \
                  gpuocc_catalog_name(e), i, vector.threads[i], vector.regs[i], (long long)vector.smem_static[i],    \
                  (long long)vector.smem_dynamic[i], vector.barriers[i], vector.virtual_resources[i],                \
                  vector.tmem[i], k.carveout_percent, k.smem_optin, (long long)k.smem_dynamic_max_bytes)
            SAME(status);
            SAME(blocks);
            SAME(warps);
            SAME(occupancy);
            SAME(limiters);
            SAME(limit_warps);
            SAME(limit_regs);
            SAME(limit_smem);
            SAME(limit_blocks);
            SAME(limit_barriers);
            SAME(regs_per_block);
            SAME(smem_block);
            SAME(smem_sm);
            SAME(waves);
            SAME(limit_sgprs);
            SAME(limit_virtual);
            SAME(exceeded);
            SAME(exceeded_limit);
#undef SAME
        }
    }
    cr_assert_gt(devices, 20);
    if (checked == 0)
        cr_skip_test("no vector loop for this processor or build (GPUOCC_SIMD=0, or no AVX2)");
    /* the lanes answered most launches themselves: the comparison above held the loop, not the fallback */
    cr_assert_gt(in_lanes * 2, rows, "the loop answered %ld of %ld launches", in_lanes, rows);
}

/* The public batch (the loop, a padded vector for a tail of three rows or more, the scalar rule for the rest)
   against the prepared single call row by row, for every count from 1 to 40. */
Test(simd, batch_of_any_count_equals_single_calls)
{
    const char *names[] = {"sm_52", "sm_60", "sm_61", "sm_75", "sm_80", "sm_90", "sm_100", "sm_120", "H100"};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        gpuocc_device d = test_device(names[n]);
        gpuocc_prepared p = {.size = sizeof p};
        cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
        for (size_t count = 1; count <= 40; count++) {
            static struct columns batch, single;
            fill(&batch, &d);
            memset(&batch.status, 0x5a, sizeof batch - offsetof(struct columns, status));
            single = batch;
            gpuocc_kernel k;
            gpuocc_kernel_init(&k);
            k.carveout_percent = (int32_t)draw(102) - 1;
            k.smem_optin = (int32_t)draw(2);
            unsigned wanted = (unsigned)draw(2);
            gpuocc_batch bb = batch_of(&batch, 8, wanted), bs = batch_of(&single, 8, wanted);
            cr_assert_eq(gpuocc_occupancy_batch(&p, &k, &bb, count), GPUOCC_OK);
            struct scalar reference = {&p, &k, &bs, 0};
            for (size_t i = 0; i < count; i++)
                scalar_row(&reference, i);
            cr_assert_eq(memcmp(batch.status, single.status, sizeof batch.status), 0, "%s, %zu rows: status", names[n], count);
            cr_assert_eq(memcmp(batch.blocks, single.blocks, sizeof batch.blocks), 0, "%s, %zu rows", names[n], count);
            cr_assert_eq(memcmp(batch.occupancy, single.occupancy, sizeof batch.occupancy), 0, "%s, %zu rows", names[n], count);
            cr_assert_eq(memcmp(batch.limiters, single.limiters, sizeof batch.limiters), 0, "%s, %zu rows", names[n], count);
            cr_assert_eq(memcmp(batch.exceeded_limit, single.exceeded_limit, sizeof batch.exceeded_limit), 0, "%s, %zu rows",
                         names[n], count);
            cr_assert_eq(memcmp(batch.smem_sm, single.smem_sm, sizeof batch.smem_sm), 0, "%s, %zu rows", names[n], count);
            cr_assert_eq(memcmp(batch.regs_per_block, single.regs_per_block, sizeof batch.regs_per_block), 0,
                         "%s, %zu rows", names[n], count);
        }
    }
}
