/*
 * Every exported function, called once with a real input and once with a missing pointer, without
 * Criterion: the test a target runs where Criterion does not install (scripts/check's 32-bit build,
 * tests/cross/i386.ini; Criterion's i386 package cannot sit beside the native one on Debian 12).  The
 * expected values are derived by hand from the rules (docs/model.md) or from the real tools' output the
 * fixtures carry (the ptxas log of the fixture cubins: 7 kernels; clang's remarks for gfx942: 9).
 * smoke-coverage checks that every name of lib/gpuocc.map is called here.
 *
 * Usage: smoke DATA_DIR (tests/data)
 */
#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                                             \
    do {                                                                                                        \
        if (!(cond)) {                                                                                          \
            fprintf(stderr, "smoke.c:%d: FAIL %s\n", __LINE__, #cond);                                          \
            failures++;                                                                                         \
        }                                                                                                       \
    } while (0)
#define NEAR(a, b) (fabs((double)(a) - (double)(b)) <= 1e-9 * (fabs((double)(b)) + 1.0))

static char *load(const char *dir, const char *name, size_t *length)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "smoke: cannot open %s\n", path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap)
            buf = realloc(buf, cap *= 2);
    fclose(f);
    if (!buf)
        exit(2);
    *length = n;
    return buf;
}

static int64_t smem_none(int32_t threads, void *user)
{
    (void)threads, (void)user;
    return 0;
}

/* H100 (sm_90, 132 SMs), 256 threads of 64 registers, 48 KiB dynamic shared memory: the README's example.
   Registers: 64 x 32 = 2,048 per warp, x 8 warps = 16,384 per block: 65,536 / 16,384 = 4 blocks.  Shared
   memory: 49,152 + the 1 KiB reserved per block = 50,176 per block; 228 KiB / 49 KiB = 4 blocks.  Warps:
   64 / 8 = 8 blocks.  Block slots: 32.  So 4 blocks, 32 warps of 64, occupancy 0.5. */
static void occupancy_queries(gpuocc_device *dev, gpuocc_kernel *k)
{
    CHECK(gpuocc_device_lookup("H100", dev) == GPUOCC_OK && dev->sm_count == 132);
    CHECK(gpuocc_device_validate(dev) == GPUOCC_OK);
    CHECK(gpuocc_device_lookup("no such gpu", dev) == GPUOCC_ERR_UNKNOWN_DEVICE);
    CHECK(gpuocc_device_lookup("H100", dev) == GPUOCC_OK);
    k->size = sizeof *k;
    CHECK(gpuocc_kernel_init(k) == GPUOCC_OK);
    k->threads_per_block = 256, k->regs_per_thread = 64, k->smem_dynamic_bytes = 49152;

    int32_t blocks = 0, regs32 = 0;
    int64_t regs = 0, bytes = 0;
    CHECK(gpuocc_limit_warps(dev, 256, &blocks) == GPUOCC_OK && blocks == 8);
    CHECK(gpuocc_limit_registers(dev, 256, 64, &blocks) == GPUOCC_OK && blocks == 4);
    CHECK(gpuocc_limit_shared_memory(dev, k, &blocks) == GPUOCC_OK && blocks == 4);
    CHECK(gpuocc_limit_blocks(dev, &blocks) == GPUOCC_OK && blocks == 32);
    CHECK(gpuocc_limit_barriers(dev, 1, &blocks) == GPUOCC_OK && blocks > 0);
    CHECK(gpuocc_regs_per_warp(dev, 64, &regs32) == GPUOCC_OK && regs32 == 2048);
    CHECK(gpuocc_regs_per_block(dev, 256, 64, &regs) == GPUOCC_OK && regs == 16384);
    CHECK(gpuocc_smem_per_block(dev, 0, 49152, &bytes) == GPUOCC_OK && bytes == 50176);
    CHECK(gpuocc_smem_carveout(dev, k, &bytes) == GPUOCC_OK && bytes == 228 * 1024);
    CHECK(gpuocc_limit_warps(NULL, 256, &blocks) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_limit_registers(dev, 256, 64, NULL) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_limit_shared_memory(dev, NULL, &blocks) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_limit_blocks(dev, NULL) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_limit_barriers(NULL, 1, &blocks) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_regs_per_warp(dev, 64, NULL) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_regs_per_block(NULL, 256, 64, &regs) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_smem_per_block(dev, 0, 0, NULL) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_smem_carveout(dev, k, NULL) == GPUOCC_ERR_NULL);

    gpuocc_result r = {.size = sizeof r};
    CHECK(gpuocc_occupancy(dev, k, &r) == GPUOCC_OK);
    CHECK(r.blocks_per_sm == 4 && r.warps_per_sm == 32 && r.occupancy == 0.5);
    CHECK(gpuocc_occupancy(dev, k, NULL) == GPUOCC_ERR_NULL);
    k->threads_per_block = 0;
    CHECK(gpuocc_occupancy(dev, k, &r) == GPUOCC_ERR_THREADS);
    k->threads_per_block = 256;

    /* 8 blocks of 8 warps fill the 64 warp slots: 65,536 / 64 warps = 1,024 registers a warp, 32 a thread */
    gpuocc_kernel plain = *k;
    plain.smem_dynamic_bytes = 0;
    CHECK(gpuocc_regs_max_for_blocks(dev, &plain, 8, &regs32) == GPUOCC_OK && regs32 == 32);
    CHECK(gpuocc_regs_max_for_blocks(dev, &plain, 9, &regs32) == GPUOCC_ERR_UNSATISFIABLE);
    CHECK(gpuocc_regs_max_for_blocks(dev, NULL, 8, &regs32) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_smem_dynamic_available(dev, &plain, 4, &bytes) == GPUOCC_OK && bytes > 0);
    CHECK(gpuocc_smem_dynamic_available(dev, &plain, 4, NULL) == GPUOCC_ERR_NULL);
    /* 2 blocks: 228 KiB / 2 = 114 KiB a block, 1 KiB reserved: 8 KiB + 6 stages of 16 KiB = 104 KiB fit, 7 do not */
    int64_t stages = 0;
    CHECK(gpuocc_max_stages(dev, &plain, 2, 8192, 16384, &stages) == GPUOCC_OK && stages == 6);
    CHECK(gpuocc_max_stages(dev, &plain, 2, 8192, 0, &stages) == GPUOCC_ERR_ARGUMENT);
    CHECK(gpuocc_max_stages(dev, &plain, 2, 8192, 16384, NULL) == GPUOCC_ERR_NULL);

    int32_t threads = 0, grid = 0;
    int64_t table[1025] = {0};
    CHECK(gpuocc_best_block_affine(dev, &plain, 0, 0, &threads, &grid) == GPUOCC_OK && threads > 0 &&
          threads <= 1024 && threads % 32 == 0 && grid > 0);
    CHECK(gpuocc_best_block_table(dev, &plain, table, 1025, &threads, &grid) == GPUOCC_OK && threads > 0);
    CHECK(gpuocc_best_block_callback(dev, &plain, smem_none, NULL, &threads, &grid) == GPUOCC_OK && threads > 0);
    CHECK(gpuocc_best_block_affine(dev, &plain, 0, 0, NULL, &grid) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_best_block_table(dev, &plain, NULL, 1025, &threads, &grid) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_best_block_callback(dev, &plain, NULL, NULL, &threads, &grid) == GPUOCC_ERR_NULL);

    int64_t value = 0, shed = 0;
    int32_t rc = gpuocc_next_step(dev, k, GPUOCC_RESOURCE_REGISTERS, &value, &shed);
    CHECK((rc == GPUOCC_OK && value < 64 && shed == 64 - value) || rc == GPUOCC_ERR_UNSATISFIABLE);
    CHECK(gpuocc_next_step(dev, k, 99, &value, &shed) == GPUOCC_ERR_RESOURCE);
    gpuocc_step steps[8];
    int32_t count = 0;
    CHECK(gpuocc_next_steps(dev, k, steps, 8, &count) == GPUOCC_OK && count >= 1);
    CHECK(gpuocc_next_steps(dev, k, steps, 8, NULL) == GPUOCC_ERR_NULL);

    /* threads 32..1024 by 32: 32 points */
    gpuocc_sweep_point points[64];
    CHECK(gpuocc_sweep(dev, k, GPUOCC_AXIS_THREADS, 32, 1024, 32, points, 64, &count) == GPUOCC_OK && count == 32);
    CHECK(gpuocc_sweep_steps(dev, k, GPUOCC_AXIS_REGS, 1, 255, points, 64, &count) == GPUOCC_OK && count >= 1);
    int64_t from = 0, to = 0, step = 0;
    CHECK(gpuocc_sweep_range(dev, k, GPUOCC_AXIS_THREADS, &from, &to, &step) == GPUOCC_OK && to >= from && step > 0);
    CHECK(gpuocc_sweep(dev, k, GPUOCC_AXIS_THREADS, 32, 1024, 32, NULL, 64, &count) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_sweep_steps(dev, k, 99, 1, 255, points, 64, &count) == GPUOCC_ERR_ARGUMENT);
    CHECK(gpuocc_sweep_range(dev, k, GPUOCC_AXIS_THREADS, NULL, &to, &step) == GPUOCC_ERR_NULL);

    /* the prepared device and a batch answer as gpuocc_occupancy does: 4 blocks at 256 threads, 8 (the
       register limit: 8,192 registers a block of 128 threads, 65,536 / 8,192) with no shared memory */
    static gpuocc_prepared prepared;
    prepared.size = sizeof prepared;
    CHECK(gpuocc_prepare(dev, &prepared) == GPUOCC_OK);
    CHECK(gpuocc_prepare(dev, NULL) == GPUOCC_ERR_NULL);
    gpuocc_result pr = {.size = sizeof pr};
    CHECK(gpuocc_occupancy_prepared(&prepared, k, &pr) == GPUOCC_OK && pr.blocks_per_sm == 4);
    CHECK(gpuocc_occupancy_prepared(&prepared, k, NULL) == GPUOCC_ERR_NULL);
    int32_t tpb[2] = {256, 128}, status[2] = {-1, -1}, out[2] = {0, 0};
    int64_t dyn[2] = {49152, 0};
    gpuocc_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b, b.smem_width = 8;
    b.threads_per_block = tpb, b.smem_dynamic_bytes = dyn, b.status = status, b.blocks_per_sm = out;
    CHECK(gpuocc_occupancy_batch(&prepared, k, &b, 2) == GPUOCC_OK);
    CHECK(status[0] == GPUOCC_OK && status[1] == GPUOCC_OK && out[0] == 4 && out[1] == 8);
    b.status = NULL;
    CHECK(gpuocc_occupancy_batch(&prepared, k, &b, 2) == GPUOCC_ERR_NULL);

    /* __launch_bounds__ asking for 8 blocks of this launch: 4 reached, registers and shared memory prevent 8 */
    uint32_t preventing = 0;
    CHECK(gpuocc_min_blocks_check(dev, k, 8, &blocks, &preventing) == GPUOCC_OK && blocks == 4 &&
          preventing == (GPUOCC_LIMIT_REGISTERS | GPUOCC_LIMIT_SMEM));
    CHECK(gpuocc_min_blocks_check(dev, k, 8, NULL, &preventing) == GPUOCC_ERR_NULL);
    /* setmaxnreg: a producer at 40 and two consumers at 232, 384 threads launched at 168 registers: the pool
       168 x 384 = 64,512 = (40 + 232 + 232) x 128, mean 168; one block (12 warps x 5,376 registers) */
    gpuocc_kernel ws = *k;
    ws.threads_per_block = 384, ws.regs_per_thread = 168, ws.smem_dynamic_bytes = 0;
    int32_t targets[3] = {40, 232, 232};
    gpuocc_setmaxnreg_result sr = {.size = sizeof sr};
    CHECK(gpuocc_setmaxnreg_check(dev, &ws, targets, 3, 1, &sr) == GPUOCC_OK && sr.fits == 1 &&
          sr.pool_regs == 64512 && sr.requested_regs == 64512 && NEAR(sr.mean_regs_per_thread, 168) &&
          sr.blocks_per_sm == 1);
    CHECK(gpuocc_setmaxnreg_check(dev, &ws, NULL, 3, 1, &sr) == GPUOCC_ERR_NULL);
    /* tensor memory: none on H100; 512 columns on sm_100, 4 holders of 128 */
    int32_t holders = 0;
    CHECK(gpuocc_tmem_holders(dev, 128, &holders) == GPUOCC_ERR_TMEM);
    gpuocc_device blackwell = {.size = sizeof blackwell};
    CHECK(gpuocc_device_lookup("sm_100", &blackwell) == GPUOCC_OK);
    CHECK(gpuocc_tmem_holders(&blackwell, 128, &holders) == GPUOCC_OK && holders == 4);
    CHECK(gpuocc_tmem_holders(&blackwell, 128, NULL) == GPUOCC_ERR_NULL);

    /* clusters on H100: 8 blocks portable, 16 non-portable; 2 x 1 x 1 divides a grid of 132 */
    int32_t most = 0, verdict = -1;
    CHECK(gpuocc_cluster_size_max(dev, 0, &most) == GPUOCC_OK && most == 8);
    CHECK(gpuocc_cluster_size_max(dev, 1, &most) == GPUOCC_OK && most == 16);
    CHECK(gpuocc_cluster_size_max(dev, 0, NULL) == GPUOCC_ERR_NULL);
    gpuocc_cluster c = {.size = sizeof c};
    CHECK(gpuocc_cluster_init(&c) == GPUOCC_OK && c.cluster_x == 1 && gpuocc_cluster_init(NULL) == GPUOCC_ERR_NULL);
    c.cluster_x = 2, c.grid_x = 132, c.grid_y = 1, c.grid_z = 1;
    CHECK(gpuocc_cluster_check(dev, &c, &verdict) == GPUOCC_OK && verdict == GPUOCC_CLUSTER_LEGAL);
    CHECK(gpuocc_cluster_check(dev, NULL, &verdict) == GPUOCC_ERR_NULL);
    /* a GPC of 18 SMs at 2 blocks each holds floor(36 / 16) = 2 clusters of 16 */
    int64_t per_gpc = 0;
    CHECK(gpuocc_clusters_per_gpc(18, 2, 16, &per_gpc) == GPUOCC_OK && per_gpc == 2);
    CHECK(gpuocc_clusters_per_gpc(18, 2, 16, NULL) == GPUOCC_ERR_NULL);
    gpuocc_gpc_layout full = {.size = sizeof full};
    CHECK(gpuocc_gpc_layout_lookup("GH100", &full) == GPUOCC_OK && full.exact == 1 && full.gpc_count == 8 &&
          full.sms_per_gpc[0] == 18 && full.sms_per_gpc[7] == 18);
    CHECK(gpuocc_gpc_layout_lookup("GH100", NULL) == GPUOCC_ERR_NULL);
    /* 1,024 threads of 64 registers: 1 block per SM; on the full die's 8 GPCs of 18 SMs, clusters of 2 hold
       floor(18 / 2) = 9 a GPC: 72 (on the bare architecture: H100's 132 SMs are not the full die's 144, and
       that mismatch is an argument error) */
    gpuocc_device sm90 = {.size = sizeof sm90};
    CHECK(gpuocc_device_lookup("sm_90", &sm90) == GPUOCC_OK);
    gpuocc_kernel big = *k;
    big.threads_per_block = 1024, big.regs_per_thread = 64, big.smem_dynamic_bytes = 0;
    c.grid_x = 0, c.grid_y = 0, c.grid_z = 0;
    gpuocc_cluster_result cr = {.size = sizeof cr};
    CHECK(gpuocc_cluster_occupancy(&sm90, &big, &c, &full, &cr) == GPUOCC_OK && cr.blocks_per_sm == 1 &&
          cr.clusters_min == 72 && cr.clusters_max == 72);
    CHECK(gpuocc_cluster_occupancy(dev, &big, &c, &full, &cr) == GPUOCC_ERR_ARGUMENT);
    CHECK(gpuocc_cluster_occupancy(dev, &big, &c, &full, NULL) == GPUOCC_ERR_NULL);
}

static void catalog_and_names(void)
{
    int32_t n = gpuocc_catalog_count();
    CHECK(n > 50);
    CHECK(gpuocc_catalog_kind(0) >= 1 && gpuocc_catalog_kind(n) == GPUOCC_ERR_ARGUMENT);
    CHECK(gpuocc_catalog_name(0)[0] != '\0' && gpuocc_catalog_name(-1)[0] == '\0');
    CHECK(gpuocc_catalog_source(0) != NULL && gpuocc_catalog_source(n)[0] == '\0');
    gpuocc_device d = {.size = sizeof d};
    CHECK(gpuocc_catalog_device(0, &d) == GPUOCC_OK && gpuocc_device_validate(&d) == GPUOCC_OK);
    CHECK(gpuocc_catalog_device(0, NULL) == GPUOCC_ERR_NULL);
    d.size = sizeof d;
    CHECK(gpuocc_device_init(&d) == GPUOCC_OK && gpuocc_device_init(NULL) == GPUOCC_ERR_NULL);

    CHECK(strcmp(gpuocc_status_name(GPUOCC_OK), "ok") == 0 && gpuocc_status_name(12345) != NULL);
    CHECK(gpuocc_strerror(GPUOCC_ERR_NULL)[0] != '\0' && gpuocc_strerror(12345) != NULL);
    char version[32];
    int32_t v = gpuocc_version();
    snprintf(version, sizeof version, "%d.%d.%d", (int)(v / 10000), (int)(v / 100 % 100), (int)(v % 100));
    CHECK(v >= 200 && strcmp(version, gpuocc_version_string()) == 0);
    CHECK(gpuocc_resource_name(GPUOCC_RESOURCE_REGISTERS)[0] != '\0' && gpuocc_resource_name(99) != NULL);
    CHECK(strcmp(gpuocc_input_name(GPUOCC_INPUT_BARRIERS), "barriers") == 0 && gpuocc_input_name(99)[0] == '\0');
    CHECK(gpuocc_stall_from_name(gpuocc_stall_name(GPUOCC_STALL_LONG_SCOREBOARD)) == GPUOCC_STALL_LONG_SCOREBOARD);
    CHECK(gpuocc_stall_from_name("no such stall") < 0 && gpuocc_stall_name(9999) != NULL);
    const char *meaning = NULL, *advice = NULL;
    int32_t helps = -1;
    CHECK(gpuocc_diagnose(GPUOCC_STALL_LONG_SCOREBOARD, 0.25, &meaning, &advice, &helps) == GPUOCC_OK &&
          meaning && advice && (helps == 0 || helps == 1));
    CHECK(gpuocc_diagnose(GPUOCC_STALL_LONG_SCOREBOARD, 0.25, NULL, &advice, &helps) == GPUOCC_ERR_NULL);
}

static void models(const gpuocc_device *dev, const gpuocc_kernel *k)
{
    double x = 0, y = 0;
    /* 400 cycles x 1 instruction a cycle = 400 in flight; ILP 2: 200 warps */
    CHECK(gpuocc_warps_needed(400, 1, 2, &x) == GPUOCC_OK && NEAR(x, 200));
    CHECK(gpuocc_warps_needed(NAN, 1, 2, &x) == GPUOCC_ERR_NOT_FINITE);
    CHECK(gpuocc_warps_needed(400, 1, 2, NULL) == GPUOCC_ERR_NULL);
    gpuocc_latency_verdict lv = {.size = sizeof lv};
    CHECK(gpuocc_latency_check(64, 400, 1, 2, &lv) == GPUOCC_OK && lv.hidden == 0 && NEAR(lv.warps_needed, 200) &&
          NEAR(lv.extra_warps, 136));
    CHECK(gpuocc_latency_check(64, 400, 1, 2, NULL) == GPUOCC_ERR_NULL);
    /* the cusp: alpha* = 4 / 0.5 = 8; warps = 4 x 4 + 400 x 0.5 = 216 */
    CHECK(gpuocc_mix_cusp(4, 4, 400, 0.5, &x, &y) == GPUOCC_OK && NEAR(x, 8) && NEAR(y, 216));
    CHECK(gpuocc_mix_cusp(4, 4, 400, 0.5, NULL, &y) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_mix_warps_needed(8, 4, 4, 400, 0.5, 1, &x) == GPUOCC_OK && isfinite(x) && x > 0);
    CHECK(gpuocc_mix_warps_needed(8, 4, 4, 400, 0.5, 1, NULL) == GPUOCC_ERR_NULL);
    /* 2e12 B/s x 500 ns = 1e6 bytes, 1e4 per SM of 100 */
    CHECK(gpuocc_bytes_in_flight(2e12, 500, 100, &x, &y) == GPUOCC_OK && NEAR(x, 1e4) && NEAR(y, 1e6));
    CHECK(gpuocc_bytes_in_flight(2e12, 500, 100, NULL, &y) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_bandwidth_at(1e4, 100, 500, 2e12, 4, &x) == GPUOCC_OK && x > 0 && x <= 2e12);
    CHECK(gpuocc_bandwidth_at(1e4, 100, 500, 2e12, 4, NULL) == GPUOCC_ERR_NULL);
    gpuocc_perf perf = {.size = sizeof perf};
    CHECK(gpuocc_perf_lookup("H100", &perf) == GPUOCC_OK && perf.sm_count == 132);
    CHECK(gpuocc_perf_lookup("H100", NULL) == GPUOCC_ERR_NULL);
    gpuocc_bandwidth_prediction bp = {.size = sizeof bp};
    CHECK(gpuocc_bandwidth_predict("H100", 32, 512, &bp) == GPUOCC_OK);
    CHECK(gpuocc_bandwidth_predict("H100", 32, 512, NULL) == GPUOCC_ERR_NULL);
    bp.size = sizeof bp;
    CHECK(gpuocc_bandwidth_model(32, 512, 132, 600, 3350, 5120, 0, &bp) == GPUOCC_OK);
    CHECK(gpuocc_bandwidth_model(32, 512, 132, 600, 3350, 5120, 0, NULL) == GPUOCC_ERR_NULL);
    /* the seeds: 2 accesses x 300 cycles on 256 cycles of work: (256 + 600) / 256 = 3.34375 */
    CHECK(gpuocc_spill_slowdown(256, 2, 300, &x) == GPUOCC_OK && NEAR(x, 3.34375));
    CHECK(gpuocc_spill_slowdown(256, 2, 300, NULL) == GPUOCC_ERR_NULL);
    gpuocc_spill_input in = {.size = sizeof in};
    CHECK(gpuocc_spill_input_init(&in) == GPUOCC_OK && gpuocc_spill_input_init(NULL) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_spill_estimate(&in, &(gpuocc_spill_cost){.size = sizeof(gpuocc_spill_cost)}) == GPUOCC_ERR_SM_COUNT);
    /* 8 + 8 spilled bytes a thread, once, by a million threads: 16 MB of local traffic */
    in.sm_count = 132, in.spill_load_bytes = 8, in.spill_store_bytes = 8, in.threads = 1e6;
    in.l2_bandwidth_bytes_per_s = 1e13, in.dram_bandwidth_bytes_per_s = 3e12, in.clock_hz = 1.7e9;
    gpuocc_spill_cost cost = {.size = sizeof cost};
    CHECK(gpuocc_spill_estimate(&in, &cost) == GPUOCC_OK && NEAR(cost.local_bytes, 1.6e7));
    CHECK(gpuocc_spill_estimate(&in, NULL) == GPUOCC_ERR_NULL);
    gpuocc_tradeoff_step ts[16];
    int32_t count = -1;
    CHECK(gpuocc_tradeoff(dev, k, 256, 1, 300, ts, 16, &count) == GPUOCC_OK && count >= 0);
    CHECK(gpuocc_tradeoff(dev, k, 256, 1, 300, ts, 16, NULL) == GPUOCC_ERR_NULL);
    /* 132 SMs x 4 = 528 a wave: 1,000 blocks are 1 full wave and 472 */
    gpuocc_waves_result w = {.size = sizeof w};
    CHECK(gpuocc_waves(1000, 132, 4, &w) == GPUOCC_OK && w.blocks_per_wave == 528 && w.full_waves == 1 &&
          w.waves == 2 && w.last_wave_blocks == 472);
    CHECK(gpuocc_waves(1000, 132, 4, NULL) == GPUOCC_ERR_NULL);
    /* 100 threads in 4 warps of 32: 100 / 128 */
    CHECK(gpuocc_lane_efficiency(100, 32, &x) == GPUOCC_OK && NEAR(x, 0.78125));
    CHECK(gpuocc_lane_efficiency(100, 32, NULL) == GPUOCC_ERR_NULL);
    /* half the lanes on a 10-cycle path, half on a 30-cycle one: 40 cycles; (160 + 480) / (32 x 40) = 0.5 */
    int32_t lanes[2] = {16, 16};
    double costs[2] = {10, 30};
    CHECK(gpuocc_divergence(lanes, costs, 2, 32, &x, &y) == GPUOCC_OK && NEAR(x, 40) && NEAR(y, 0.5));
    CHECK(gpuocc_divergence(NULL, costs, 2, 32, &x, &y) == GPUOCC_ERR_NULL);
    /* one path: every lane takes it */
    gpuocc_routing_result rr = {.size = sizeof rr};
    CHECK(gpuocc_routing(1, 1024, 32, &rr) == GPUOCC_OK && NEAR(rr.random_paths, 1) && NEAR(rr.random_efficiency, 1));
    CHECK(gpuocc_routing(1, 1024, 32, NULL) == GPUOCC_ERR_NULL);
    /* 100 flops on 50 bytes: intensity 2; ridge 1000 / 100 = 10; attainable min(1000, 2 x 100) = 200 */
    double ridge = 0, attainable = 0;
    int32_t compute = -1;
    CHECK(gpuocc_roofline(100, 50, 1000, 100, &x, &ridge, &attainable, &compute) == GPUOCC_OK && NEAR(x, 2) &&
          NEAR(ridge, 10) && NEAR(attainable, 200) && compute == 0);
    CHECK(gpuocc_roofline(100, 50, 1000, 100, NULL, &ridge, &attainable, &compute) == GPUOCC_ERR_NULL);
}

static void readers(const char *data)
{
    size_t n = 0;
    int32_t count = 0, line = 0;
    gpuocc_compiled_kernel ks[16];
    char *log = load(data, "ptxas_sm90.log", &n);
    CHECK(gpuocc_ptxas_parse(log, n, ks, 16, &count, &line) == GPUOCC_OK && count == 7);
    CHECK(gpuocc_ptxas_parse(NULL, n, ks, 16, &count, &line) == GPUOCC_ERR_NULL);
    free(log);
    char *cubin = load(data, "kernels_sm90.cubin", &n);
    CHECK(gpuocc_cubin_read(cubin, n, ks, 16, &count) == GPUOCC_OK && count == 7 && ks[0].cc == 90);
    CHECK(gpuocc_cubin_read(cubin, n, ks, 16, NULL) == GPUOCC_ERR_NULL);
    free(cubin);

    gpuocc_remarks_kernel rk[16];
    for (int i = 0; i < 16; i++) {
        rk[i].size = sizeof rk[i];
        CHECK(gpuocc_remarks_kernel_init(&rk[i]) == GPUOCC_OK);
    }
    CHECK(gpuocc_remarks_kernel_init(NULL) == GPUOCC_ERR_NULL);
    char *remarks = load(data, "remarks/gfx942.log", &n);
    CHECK(gpuocc_remarks_parse(remarks, n, rk, 16, &count, &line) == GPUOCC_OK && count == 9);
    CHECK(gpuocc_remarks_parse(remarks, n, rk, 16, NULL, &line) == GPUOCC_ERR_NULL);
    free(remarks);

    /* units.fatbin: two kernels for each of sm_75, sm_90 and sm_120, as its ptxas log (ptxas_units.log) says */
    char *fatbin = load(data, "units.fatbin", &n);
    gpuocc_binary_summary s = {.size = sizeof s};
    CHECK(gpuocc_binary_scan(fatbin, n, &s) == GPUOCC_OK && s.entries >= 1);
    CHECK(gpuocc_binary_scan(fatbin, n, NULL) == GPUOCC_ERR_NULL);
    gpuocc_binary_kernel bk[16];
    for (int i = 0; i < 16; i++) {
        bk[i].size = sizeof bk[i];
        CHECK(gpuocc_binary_kernel_init(&bk[i]) == GPUOCC_OK);
    }
    CHECK(gpuocc_binary_kernel_init(NULL) == GPUOCC_ERR_NULL);
    void *workspace = malloc(s.workspace_bytes ? (size_t)s.workspace_bytes : 1);
    int32_t total = 0;
    for (int32_t e = 0; e < s.entries; e++) {
        gpuocc_binary_entry info = {.size = sizeof info};
        CHECK(gpuocc_binary_entry_info(fatbin, n, e, &info, &s) == GPUOCC_OK && info.entry == e);
        CHECK(gpuocc_binary_read_entry(fatbin, n, e, workspace, (size_t)s.workspace_bytes, bk, 16, &count, &s) ==
              GPUOCC_OK);
        total += count;
    }
    CHECK(total == 6);
    CHECK(gpuocc_binary_entry_info(fatbin, n, 0, NULL, &s) == GPUOCC_ERR_NULL);
    CHECK(gpuocc_binary_read_entry(fatbin, n, 0, workspace, (size_t)s.workspace_bytes, bk, 16, NULL, &s) ==
          GPUOCC_ERR_NULL);
    free(workspace);
    free(fatbin);

    /* gfx90a's unified register file: a code object's 266 VGPRs with 10 AGPRs among them are 256 arch VGPRs
       and 10 AGPRs to the occupancy (docs/amd.md) */
    gpuocc_device mi = {.size = sizeof mi};
    CHECK(gpuocc_device_lookup("gfx90a", &mi) == GPUOCC_OK);
    gpuocc_binary_kernel amd = {.size = sizeof amd};
    CHECK(gpuocc_binary_kernel_init(&amd) == GPUOCC_OK);
    amd.vendor = GPUOCC_VENDOR_AMD, amd.vgprs = 266, amd.agprs = 10;
    int32_t vgprs = 0, agprs = 0;
    CHECK(gpuocc_binary_kernel_registers(&mi, &amd, &vgprs, &agprs) == GPUOCC_OK && vgprs == 256 && agprs == 10);
    CHECK(gpuocc_binary_kernel_registers(&mi, NULL, &vgprs, &agprs) == GPUOCC_ERR_NULL);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: smoke DATA_DIR\n");
        return 2;
    }
    gpuocc_device dev = {.size = sizeof dev};
    gpuocc_kernel k = {.size = sizeof k};
    occupancy_queries(&dev, &k);
    catalog_and_names();
    models(&dev, &k);
    readers(argv[1]);
    printf("smoke: %s\n", failures ? "FAILED" : "every exported function answered as expected");
    return failures ? 1 : 0;
}
