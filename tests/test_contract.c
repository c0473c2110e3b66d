/*
 * The contract every exported function keeps, table-driven: one row per exported symbol, and
 * the suite FAILS when a symbol listed in tests/data/symbols.txt has no row here.
 *
 * From a valid baseline call (which must return GPUOCC_OK with finite results), each argument in turn is
 * made hostile while the others stay valid:
 *   - every pointer NULL: GPUOCC_ERR_NULL exactly (USER arguments excepted);
 *   - every size-versioned struct with size 0, 1, one below its first shipped layout, 4097 and UINT32_MAX
 *     (GPUOCC_ERR_STRUCT_SIZE), larger with a nonzero tail and every reserved field nonzero
 *     (GPUOCC_ERR_RESERVED), larger with a zero tail (same answer as the baseline);
 *   - INT32/INT64 extremes (and small edge values) in every integer argument and struct field;
 *   - NaN, +-inf (GPUOCC_ERR_NOT_FINITE exactly), +-DBL_MAX, +-subnormals, +-0, 1e+-300 in every double;
 *   - text/binary inputs NULL, truncated, empty and damaged.
 * Every call must return GPUOCC_OK or a known negative status.  Outputs are pre-filled with a byte
 * pattern and must be untouched on failure, except those the header names (*count on GPUOCC_ERR_BUFFER
 * and the arrays filled up to capacity then, *error_line on GPUOCC_ERR_PARSE / GPUOCC_ERR_TRUNCATED, a
 * refused launch's exceeded and exceeded_limit, a failed gpuocc_binary_scan's first_failed_entry,
 * first_failure and fault fields).
 * Results reported as OK must be finite, written (no pattern left in a double or byte-count field of a
 * result) and never the library's internal 2^60-byte saturation point.  Inputs are never modified.  Runs in the ASan+UBSan
 * build too (scripts/check), which catches crashes, overflows and out-of-bounds reads.
 *
 * HOW TO ADD A ROW for a new exported function gpuocc_foo(dev, n, x, out):
 *   1. a thunk calling it from the argument vector `a` (I32(k), I64(k), D(k) read scalars, P(k) pointers):
 *        static int32_t call_foo(arg *a) { return gpuocc_foo(P(0), I32(1), D(2), P(3)); }
 *   2. a row in `rows[]`, the arguments in order with their kind and a valid baseline value:
 *        ROW(gpuocc_foo, call_foo, IN(&device_layout, init_h100), I32_(256), DBL_(1.5), OUT(&foo_layout)),
 *      kinds: I32_(v) I64_(v) DBL_(v) COUNT_(v) (an array's length or capacity: no values above it)
 *      STR_(s) TEXT_(fixture) LEN_ (TEXT's length) IN(layout, init) OUT(layout) OUT_NOSIZE(layout)
 *      OUT_I32 OUT_I64 OUT_BYTES OUT_DBL OUT_STR (scalar outputs; OUT_BYTES for byte counts; OUT_COUNT and
 *      OUT_ERRLINE for the ones the header lets change on failure)
 *      OUT_ARRAY(layout, n) ARR_I32(n, v) ARR_I64(n, v) ARR_DBL(n, v) FN_ USER_;
 *   3. a new size-versioned struct gets a `layout`: sizeof, its first shipped size, and its fields
 *      (FIELD(struct, member, type), FIELDS for arrays, RESERVED(...) for reserved ones).
 *   A function that returns something other than a status gets a CUSTOM(name, check) row instead.
 */
#include "common.h"
#include <criterion/parameterized.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- struct layouts ------------------------------------------------------------------------------ */

enum ftype { T_I32, T_U32, T_I64, T_U64, T_DBL, T_BYTES /* int64 bytes: never the 2^60 saturation */ };

typedef struct field {
    const char *name;
    size_t offset;
    enum ftype type;
    int32_t count;  /* elements (arrays) */
    bool reserved;  /* must be zero */
} field;

typedef struct layout {
    const char *name;
    size_t size;       /* sizeof, this version */
    size_t first_size; /* the released (0.1.0) layout, or `size` for a struct new since: the smallest size the
                          library accepts; sizes between it and `size` are no layout */
    const field *fields;
} layout;

#define FIELD(s, m, t) {#m, offsetof(s, m), t, 1, false}
#define FIELDS(s, m, t, n) {#m, offsetof(s, m), t, n, false}
#define RESERVED(s, m, t, n) {#m, offsetof(s, m), t, n, true}
#define END_FIELDS {NULL, 0, T_I32, 0, false}

static const field device_fields[] = {
    FIELD(gpuocc_device, vendor, T_U32), FIELD(gpuocc_device, cc_major, T_I32),
    FIELD(gpuocc_device, cc_minor, T_I32), FIELD(gpuocc_device, sm_count, T_I32),
    FIELD(gpuocc_device, warp_size, T_I32), FIELD(gpuocc_device, max_threads_per_block, T_I32),
    FIELD(gpuocc_device, max_threads_per_sm, T_I32), FIELD(gpuocc_device, max_blocks_per_sm, T_I32),
    FIELD(gpuocc_device, regs_per_sm, T_I32), FIELD(gpuocc_device, regs_per_block, T_I32),
    FIELD(gpuocc_device, regs_per_thread_max, T_I32), FIELD(gpuocc_device, reg_alloc_unit, T_I32),
    FIELD(gpuocc_device, sub_partitions, T_I32), FIELD(gpuocc_device, reg_compat_sub_partitions, T_I32),
    FIELD(gpuocc_device, barriers_per_sm, T_I32), FIELD(gpuocc_device, smem_per_sm_bytes, T_I64),
    FIELD(gpuocc_device, smem_per_block_bytes, T_I64), FIELD(gpuocc_device, smem_per_block_optin_bytes, T_I64),
    FIELD(gpuocc_device, smem_reserved_per_block_bytes, T_I64), FIELD(gpuocc_device, smem_alloc_unit_bytes, T_I32),
    FIELD(gpuocc_device, carveout_count, T_I32), FIELDS(gpuocc_device, carveouts_kib, T_I32, GPUOCC_MAX_CARVEOUTS),
    FIELD(gpuocc_device, simds_per_cu, T_I32), FIELD(gpuocc_device, waves_per_simd, T_I32),
    FIELD(gpuocc_device, runtime_waves_per_simd, T_I32), FIELD(gpuocc_device, vgprs_per_simd, T_I32),
    FIELD(gpuocc_device, vgpr_granule, T_I32), FIELD(gpuocc_device, runtime_vgpr_granule, T_I32),
    FIELD(gpuocc_device, runtime_vgprs_legacy, T_I32), FIELD(gpuocc_device, runtime_vgpr_granule_legacy, T_I32),
    FIELD(gpuocc_device, agpr_file, T_I32), FIELD(gpuocc_device, sgprs_per_simd, T_I32),
    FIELD(gpuocc_device, cus_per_wgp, T_I32), FIELD(gpuocc_device, wave_sizes, T_I32),
    RESERVED(gpuocc_device, reserved0, T_I32, 1), RESERVED(gpuocc_device, reserved1, T_I32, 1),
    RESERVED(gpuocc_device, reserved, T_U64, 1), FIELD(gpuocc_device, xves_per_xecore, T_I32),
    FIELD(gpuocc_device, threads_per_xve, T_I32), FIELD(gpuocc_device, sub_group_sizes, T_I32),
    FIELD(gpuocc_device, grf_max, T_I32), FIELD(gpuocc_device, grf_table, T_I32),
    FIELD(gpuocc_device, runtime_barriers_per_xecore, T_I32),
    FIELDS(gpuocc_device, slm_sizes_kib, T_I32, GPUOCC_MAX_SLM_SIZES),
    FIELDS(gpuocc_device, runtime_slm_sizes_kib, T_I32, GPUOCC_MAX_SLM_SIZES), END_FIELDS,
};
static const layout device_layout = {"gpuocc_device", sizeof(gpuocc_device), 232, device_fields};

static const field kernel_fields[] = {
    FIELD(gpuocc_kernel, threads_per_block, T_I32), FIELD(gpuocc_kernel, regs_per_thread, T_I32),
    FIELD(gpuocc_kernel, barriers, T_I32), FIELD(gpuocc_kernel, smem_static_bytes, T_I64),
    FIELD(gpuocc_kernel, smem_dynamic_bytes, T_I64), FIELD(gpuocc_kernel, carveout_percent, T_I32),
    FIELD(gpuocc_kernel, smem_optin, T_I32), FIELD(gpuocc_kernel, smem_dynamic_max_bytes, T_I64),
    FIELD(gpuocc_kernel, max_threads_per_block, T_I32), FIELD(gpuocc_kernel, agprs, T_I32),
    FIELD(gpuocc_kernel, sgprs, T_I32), FIELD(gpuocc_kernel, wave_size, T_I32), FIELD(gpuocc_kernel, cu_mode, T_I32),
    FIELD(gpuocc_kernel, model, T_I32), FIELD(gpuocc_kernel, rocm_version, T_I32),
    RESERVED(gpuocc_kernel, reserved0, T_I32, 1), RESERVED(gpuocc_kernel, reserved, T_U64, 1),
    FIELD(gpuocc_kernel, sub_group, T_I32), FIELD(gpuocc_kernel, grf, T_I32),
    FIELD(gpuocc_kernel, virtual_resources, T_I32), RESERVED(gpuocc_kernel, reserved2, T_I32, 1),
    FIELD(gpuocc_kernel, tmem_columns, T_I32), FIELD(gpuocc_kernel, dvgpr, T_I32), END_FIELDS,
};
static const layout kernel_layout = {"gpuocc_kernel", sizeof(gpuocc_kernel), 88, kernel_fields};

static const field result_fields[] = {
    FIELD(gpuocc_result, occupancy, T_DBL), FIELD(gpuocc_result, smem_per_block_bytes, T_BYTES),
    FIELD(gpuocc_result, smem_per_sm_bytes, T_BYTES), FIELD(gpuocc_result, workgroups_per_gpu, T_I64), END_FIELDS,
};
static const layout result_layout = {"gpuocc_result", sizeof(gpuocc_result), 104, result_fields};

static const field verdict_fields[] = {
    FIELD(gpuocc_latency_verdict, in_flight, T_DBL), FIELD(gpuocc_latency_verdict, warps_needed, T_DBL),
    FIELD(gpuocc_latency_verdict, extra_warps, T_DBL), FIELD(gpuocc_latency_verdict, ilp_needed, T_DBL),
    END_FIELDS,
};
static const layout verdict_layout = {"gpuocc_latency_verdict", sizeof(gpuocc_latency_verdict),
                                      sizeof(gpuocc_latency_verdict), verdict_fields};

static const field perf_fields[] = {
    FIELD(gpuocc_perf, sm_clock_mhz, T_DBL), FIELD(gpuocc_perf, dram_bandwidth_gbps, T_DBL),
    FIELD(gpuocc_perf, l2_bandwidth_gbps, T_DBL), FIELD(gpuocc_perf, latency_clock_mhz, T_DBL),
    FIELD(gpuocc_perf, dram_latency_cycles, T_DBL), FIELD(gpuocc_perf, l2_latency_cycles, T_DBL),
    FIELD(gpuocc_perf, l1_latency_cycles, T_DBL), FIELD(gpuocc_perf, smem_latency_cycles, T_DBL),
    FIELD(gpuocc_perf, fp32_latency_cycles, T_DBL), FIELD(gpuocc_perf, fp32_lanes, T_DBL),
    FIELD(gpuocc_perf, issue_per_cycle, T_DBL), FIELD(gpuocc_perf, bytes_in_flight_target, T_DBL),
    FIELD(gpuocc_perf, dram_bus_bits, T_DBL), FIELD(gpuocc_perf, dram_attainable_gbps, T_DBL),
    FIELD(gpuocc_perf, dram_latency_own, T_I32), END_FIELDS,
};
static const layout perf_layout = {"gpuocc_perf", sizeof(gpuocc_perf), sizeof(gpuocc_perf), perf_fields};

static const field spill_in_fields[] = {
    FIELD(gpuocc_spill_input, sm_count, T_I32), FIELD(gpuocc_spill_input, spill_load_bytes, T_DBL),
    FIELD(gpuocc_spill_input, spill_store_bytes, T_DBL), FIELD(gpuocc_spill_input, executions, T_DBL),
    FIELD(gpuocc_spill_input, threads, T_DBL), FIELD(gpuocc_spill_input, access_bytes, T_DBL),
    FIELD(gpuocc_spill_input, l1_hit_rate, T_DBL), FIELD(gpuocc_spill_input, l2_hit_rate, T_DBL),
    FIELD(gpuocc_spill_input, l2_bandwidth_bytes_per_s, T_DBL),
    FIELD(gpuocc_spill_input, dram_bandwidth_bytes_per_s, T_DBL), FIELD(gpuocc_spill_input, clock_hz, T_DBL),
    RESERVED(gpuocc_spill_input, reserved, T_U64, 4), END_FIELDS,
};
static const layout spill_in_layout = {"gpuocc_spill_input", sizeof(gpuocc_spill_input), sizeof(gpuocc_spill_input),
                                       spill_in_fields};

static const field spill_cost_fields[] = {
    FIELD(gpuocc_spill_cost, local_bytes, T_DBL), FIELD(gpuocc_spill_cost, instructions, T_DBL),
    FIELD(gpuocc_spill_cost, issue_s, T_DBL), FIELD(gpuocc_spill_cost, l2_s, T_DBL),
    FIELD(gpuocc_spill_cost, dram_s, T_DBL), FIELD(gpuocc_spill_cost, spill_s, T_DBL), END_FIELDS,
};
static const layout spill_cost_layout = {"gpuocc_spill_cost", sizeof(gpuocc_spill_cost), sizeof(gpuocc_spill_cost),
                                         spill_cost_fields};

static const field step_fields[] = {
    FIELD(gpuocc_tradeoff_step, occupancy, T_DBL), FIELD(gpuocc_tradeoff_step, spill_slowdown, T_DBL), END_FIELDS,
};
static const layout step_layout = {"gpuocc_tradeoff_step", sizeof(gpuocc_tradeoff_step),
                                   sizeof(gpuocc_tradeoff_step), step_fields};

static const field waves_fields[] = {
    FIELD(gpuocc_waves_result, last_wave_utilization, T_DBL), FIELD(gpuocc_waves_result, efficiency, T_DBL),
    END_FIELDS,
};
static const layout waves_layout = {"gpuocc_waves_result", sizeof(gpuocc_waves_result),
                                    sizeof(gpuocc_waves_result), waves_fields};

static const field setmaxnreg_fields[] = {
    FIELD(gpuocc_setmaxnreg_result, pool_regs, T_I64), FIELD(gpuocc_setmaxnreg_result, requested_regs, T_I64),
    FIELD(gpuocc_setmaxnreg_result, mean_regs_per_thread, T_DBL), END_FIELDS,
};
static const layout setmaxnreg_layout = {"gpuocc_setmaxnreg_result", sizeof(gpuocc_setmaxnreg_result),
                                         sizeof(gpuocc_setmaxnreg_result), setmaxnreg_fields};
static const field cluster_fields[] = {
    FIELD(gpuocc_cluster, cluster_x, T_I32), FIELD(gpuocc_cluster, cluster_y, T_I32),
    FIELD(gpuocc_cluster, cluster_z, T_I32), FIELD(gpuocc_cluster, cluster_nonportable, T_I32),
    FIELD(gpuocc_cluster, max_blocks_per_cluster, T_I32), FIELD(gpuocc_cluster, grid_x, T_I64),
    FIELD(gpuocc_cluster, grid_y, T_I64), FIELD(gpuocc_cluster, grid_z, T_I64), END_FIELDS};
static const layout cluster_layout = {"gpuocc_cluster", sizeof(gpuocc_cluster), sizeof(gpuocc_cluster),
                                      cluster_fields};
static const field gpc_layout_fields[] = {
    FIELD(gpuocc_gpc_layout, gpc_count, T_I32), FIELD(gpuocc_gpc_layout, exact, T_I32),
    FIELD(gpuocc_gpc_layout, sm_count, T_I32), FIELD(gpuocc_gpc_layout, sms_per_tpc, T_I32),
    FIELD(gpuocc_gpc_layout, tpcs_per_gpc_max, T_I32),
    FIELDS(gpuocc_gpc_layout, sms_per_gpc, T_I32, GPUOCC_MAX_GPCS), END_FIELDS};
static const layout gpc_layout_layout = {"gpuocc_gpc_layout", sizeof(gpuocc_gpc_layout),
                                         sizeof(gpuocc_gpc_layout), gpc_layout_fields};
static const field cluster_result_fields[] = {
    FIELD(gpuocc_cluster_result, verdict, T_I32), FIELD(gpuocc_cluster_result, cluster_blocks, T_I32),
    FIELD(gpuocc_cluster_result, clusters_min, T_I64), FIELD(gpuocc_cluster_result, clusters_max, T_I64),
    RESERVED(gpuocc_cluster_result, reserved0, T_I32, 1), END_FIELDS};
static const layout cluster_result_layout = {"gpuocc_cluster_result", sizeof(gpuocc_cluster_result),
                                             sizeof(gpuocc_cluster_result), cluster_result_fields};

static const field routing_fields[] = {
    FIELD(gpuocc_routing_result, random_paths, T_DBL), FIELD(gpuocc_routing_result, random_efficiency, T_DBL),
    FIELD(gpuocc_routing_result, sorted_paths, T_DBL), FIELD(gpuocc_routing_result, sorted_efficiency, T_DBL),
    END_FIELDS,
};
static const layout routing_layout = {"gpuocc_routing_result", sizeof(gpuocc_routing_result),
                                      sizeof(gpuocc_routing_result), routing_fields};

static const field bw_fields[] = {
    FIELD(gpuocc_bandwidth_prediction, bandwidth_gbps, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, fraction_of_peak, T_DBL), FIELD(gpuocc_bandwidth_prediction, peak_gbps, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, latency_ns, T_DBL), FIELD(gpuocc_bandwidth_prediction, loaded_latency_ns, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, bytes_in_flight_per_sm, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, warps_for_80, T_DBL), FIELD(gpuocc_bandwidth_prediction, warps_for_90, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, warps_for_95, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, attainable_gbps, T_DBL), FIELD(gpuocc_bandwidth_prediction, bus_bits, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, pin_rate_gbps, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, queue_service_ns, T_DBL),
    FIELD(gpuocc_bandwidth_prediction, fraction_of_attainable, T_DBL), END_FIELDS,
};
static const layout bw_layout = {"gpuocc_bandwidth_prediction", sizeof(gpuocc_bandwidth_prediction),
                                 sizeof(gpuocc_bandwidth_prediction), bw_fields};

static const field next_step_fields[] = {
    FIELD(gpuocc_step, blocks_per_sm, T_I32), FIELD(gpuocc_step, also_count, T_I32),
    FIELD(gpuocc_step, change.new_value, T_I64), FIELD(gpuocc_step, change.shed, T_I64), END_FIELDS,
};
static const layout next_step_layout = {"gpuocc_step", sizeof(gpuocc_step), sizeof(gpuocc_step), next_step_fields};

static const field sweep_fields[] = {
    FIELD(gpuocc_sweep_point, occupancy, T_DBL), FIELD(gpuocc_sweep_point, smem_per_block_bytes, T_BYTES),
    FIELD(gpuocc_sweep_point, smem_per_sm_bytes, T_BYTES), END_FIELDS,
};
static const layout sweep_layout = {"gpuocc_sweep_point", sizeof(gpuocc_sweep_point), sizeof(gpuocc_sweep_point),
                                    sweep_fields};

static const field prepared_fields[] = {
    FIELD(gpuocc_prepared, magic, T_U32), FIELDS(gpuocc_prepared, device, T_U64, sizeof(gpuocc_device) / 8),
    END_FIELDS,
};
static const layout prepared_layout = {"gpuocc_prepared", sizeof(gpuocc_prepared), sizeof(gpuocc_prepared),
                                       prepared_fields};

/* The column pointers are not mutated (any value but a valid array or NULL is the caller's lie). */
static const field batch_fields[] = {
    FIELD(gpuocc_batch, smem_width, T_I32), RESERVED(gpuocc_batch, reserved, T_U64, 2), END_FIELDS,
};
static const layout batch_layout = {"gpuocc_batch", sizeof(gpuocc_batch), sizeof(gpuocc_batch), batch_fields};

static const field binary_kernel_fields[] = {END_FIELDS};
static const layout binary_kernel_layout = {"gpuocc_binary_kernel", sizeof(gpuocc_binary_kernel),
                                            sizeof(gpuocc_binary_kernel), binary_kernel_fields};
static const field summary_fields[] = {END_FIELDS};
static const layout summary_layout = {"gpuocc_binary_summary", sizeof(gpuocc_binary_summary),
                                      sizeof(gpuocc_binary_summary), summary_fields};

static const field binary_entry_fields[] = {RESERVED(gpuocc_binary_entry, reserved, T_U64, 4), END_FIELDS};
static const layout binary_entry_layout = {"gpuocc_binary_entry", sizeof(gpuocc_binary_entry),
                                           sizeof(gpuocc_binary_entry), binary_entry_fields};

static const field remarks_kernel_fields[] = {END_FIELDS};
static const layout remarks_kernel_layout = {"gpuocc_remarks_kernel", sizeof(gpuocc_remarks_kernel),
                                             sizeof(gpuocc_remarks_kernel), remarks_kernel_fields};

static const field compiled_fields[] = {END_FIELDS};
static const layout compiled_layout = {"gpuocc_compiled_kernel", sizeof(gpuocc_compiled_kernel),
                                       sizeof(gpuocc_compiled_kernel), compiled_fields};

/* Valid baselines for input structs. */
static void init_h100(void *p)
{
    gpuocc_device *d = p;
    d->size = sizeof *d;
    cr_assert_eq(gpuocc_device_lookup("H100", d), GPUOCC_OK);
}
static void init_b200(void *p)
{
    gpuocc_device *d = p;
    d->size = sizeof *d;
    cr_assert_eq(gpuocc_device_lookup("B200", d), GPUOCC_OK);
}
static void init_cluster(void *p)
{
    gpuocc_cluster *c = p;
    c->size = sizeof *c;
    cr_assert_eq(gpuocc_cluster_init(c), GPUOCC_OK);
    c->cluster_x = 2;
    c->grid_x = 132, c->grid_y = 1, c->grid_z = 1;
}
static void init_gpc_layout(void *p)
{
    gpuocc_gpc_layout *l = p;
    l->size = sizeof *l;
    cr_assert_eq(gpuocc_gpc_layout_lookup("H100 SXM", l), GPUOCC_OK);
}
static void init_kernel(void *p)
{
    gpuocc_kernel *k = p;
    gpuocc_kernel_init(k);
    k->threads_per_block = 256;
    k->regs_per_thread = 40;
    k->smem_static_bytes = 4096;
    k->smem_dynamic_bytes = 8192;
}
/* AMD baselines: an MI300X (gfx942) and a kernel with AGPRs and SGPRs, the runtime model */
static void init_mi300x(void *p)
{
    gpuocc_device *d = p;
    d->size = sizeof *d;
    cr_assert_eq(gpuocc_device_lookup("MI300X", d), GPUOCC_OK);
}
static void init_amd_kernel(void *p)
{
    init_kernel(p);
    gpuocc_kernel *k = p;
    k->agprs = 16;
    k->sgprs = 90;
    k->model = GPUOCC_MODEL_RUNTIME;
}
static void init_amd_prepared(void *p)
{
    gpuocc_device d;
    init_mi300x(&d);
    ((gpuocc_prepared *)p)->size = sizeof(gpuocc_prepared);
    cr_assert_eq(gpuocc_prepare(&d, p), GPUOCC_OK);
}
/* register-bound (2 blocks of 256 at 128 registers), so the trade-off has steps */
static void init_kernel_regs(void *p)
{
    init_kernel(p);
    ((gpuocc_kernel *)p)->regs_per_thread = 128;
}
static void init_prepared(void *p)
{
    gpuocc_device d;
    init_h100(&d);
    ((gpuocc_prepared *)p)->size = sizeof(gpuocc_prepared);
    cr_assert_eq(gpuocc_prepare(&d, p), GPUOCC_OK);
}
/* Launches for the batch rows, hostile ones among them; each process runs one row, so static is fine. */
#define BATCH_N 8
static const int32_t batch_threads[BATCH_N] = {128, 256, 0, 1024, INT32_MAX, 64, 1, 96};
static const int32_t batch_regs[BATCH_N] = {32, 64, 16, 32, 255, 0, INT32_MAX, -1};
static const int64_t batch_smem[BATCH_N] = {0, 4096, 1024, INT64_MAX, -1, (int64_t)1 << 60, 1, 0};
static int32_t batch_status[BATCH_N], batch_blocks[BATCH_N], batch_warps[BATCH_N];
static double batch_occupancy[BATCH_N];
static int64_t batch_smem_block[BATCH_N];
static void init_batch(void *p)
{
    gpuocc_batch *b = p;
    memset(b, 0, sizeof *b);
    b->size = sizeof *b;
    b->smem_width = 8;
    b->threads_per_block = batch_threads;
    b->regs_per_thread = batch_regs;
    b->smem_dynamic_bytes = batch_smem;
    b->status = batch_status;
    b->blocks_per_sm = batch_blocks;
    b->warps_per_sm = batch_warps;
    b->occupancy = batch_occupancy;
    b->smem_per_block_bytes = batch_smem_block;
}

static void init_spill(void *p)
{
    gpuocc_spill_input *in = p;
    gpuocc_spill_input_init(in);
    in->sm_count = 108;
    in->spill_load_bytes = 8;
    in->spill_store_bytes = 8;
    in->executions = 1000;
    in->threads = 108 * 2048;
    in->access_bytes = 8;
    in->l1_hit_rate = 0.9;
    in->l2_hit_rate = 0.5;
    in->l2_bandwidth_bytes_per_s = 5.45e12;
    in->dram_bandwidth_bytes_per_s = 1.73e12;
    in->clock_hz = 1.41e9;
}

/* ---- argument specs and live arguments ------------------------------------------------------------ */

enum kind {
    K_END, K_I32, K_I64, K_DBL, K_COUNT, K_SIZE_COUNT, K_STR, K_TEXT, K_LEN, K_IN, K_OUT, K_OUT_I32, K_OUT_I64, K_OUT_BYTES, K_OUT_DBL,
    K_OUT_STR, K_OUT_ARRAY, K_ARR_I32, K_ARR_I64, K_ARR_DBL, K_FN, K_USER,
};
enum flag {
    F_COUNT = 1,   /* may change on GPUOCC_ERR_BUFFER */
    F_ERRLINE = 2, /* may change on GPUOCC_ERR_PARSE / GPUOCC_ERR_TRUNCATED */
    F_NOSIZE = 4,  /* an _init output: its size field is written, not read */
    F_OPAQUE = 8,  /* an input filled by the library (gpuocc_prepared): a changed size need not be accepted */
    F_NULLABLE = 16, /* an input the header lets be NULL (gpuocc_cluster_occupancy's layout) */
    F_EXACT = 32,    /* a struct of one size only (gpuocc_prepared): any other is GPUOCC_ERR_STRUCT_SIZE */
};

typedef struct spec {
    enum kind kind;
    int64_t i;
    double d;
    const char *s;
    const layout *lay;
    void (*init)(void *);
    int32_t n;
    unsigned flags;
} spec;

#define I32_(v) {.kind = K_I32, .i = (v)}
#define I64_(v) {.kind = K_I64, .i = (v)}
#define DBL_(v) {.kind = K_DBL, .d = (v)}
#define COUNT_(v) {.kind = K_COUNT, .i = (v)}
#define SIZE_COUNT_(v) {.kind = K_SIZE_COUNT, .i = (v)} /* a size_t count: 0, 1 and the real one */
#define IN_OPAQUE(l, f) {.kind = K_IN, .lay = (l), .init = (f), .flags = F_OPAQUE}
#define STR_(v) {.kind = K_STR, .s = (v)}
#define TEXT_(file) {.kind = K_TEXT, .s = (file)}
#define LEN_ {.kind = K_LEN}
#define IN(l, f) {.kind = K_IN, .lay = (l), .init = (f)}
#define IN_NULLABLE(l, f) {.kind = K_IN, .lay = (l), .init = (f), .flags = F_NULLABLE}
#define OUT(l) {.kind = K_OUT, .lay = (l)}
#define OUT_EXACT(l) {.kind = K_OUT, .lay = (l), .flags = F_EXACT}
#define IN_EXACT(l, f) {.kind = K_IN, .lay = (l), .init = (f), .flags = F_OPAQUE | F_EXACT}
#define OUT_NOSIZE(l) {.kind = K_OUT, .lay = (l), .flags = F_NOSIZE}
#define OUT_I32 {.kind = K_OUT_I32}
#define OUT_I64 {.kind = K_OUT_I64}
#define OUT_BYTES {.kind = K_OUT_BYTES} /* int64 bytes: never the internal 2^60 saturation */
#define OUT_DBL {.kind = K_OUT_DBL}
#define OUT_STR {.kind = K_OUT_STR}
#define OUT_COUNT {.kind = K_OUT_I32, .flags = F_COUNT}
#define OUT_ERRLINE {.kind = K_OUT_I32, .flags = F_ERRLINE}
#define OUT_ARRAY(l, len) {.kind = K_OUT_ARRAY, .lay = (l), .n = (len), .flags = F_COUNT}
#define ARR_I32(len, v) {.kind = K_ARR_I32, .n = (len), .i = (v)}
#define ARR_I64(len, v) {.kind = K_ARR_I64, .n = (len), .i = (v)}
#define ARR_DBL(len, v) {.kind = K_ARR_DBL, .n = (len), .d = (v)}
#define FN_ {.kind = K_FN}
#define USER_ {.kind = K_USER}

#define MAX_ARGS 10
#define TAIL 64 /* room past a struct for "larger" sizes */

typedef struct arg {
    const spec *sp;
    int64_t i;
    double d;
    void *p;            /* what the function receives */
    unsigned char *mem; /* owned storage */
    size_t len;         /* meaningful bytes in mem */
    unsigned char *snap; /* mem before the call */
} arg;

#define I32(k) ((int32_t)a[k].i)
#define I64(k) (a[k].i)
#define D(k) (a[k].d)
#define P(k) (a[k].p)
#define LEN(k) ((size_t)a[k].i)

typedef int32_t (*thunk)(arg *a);

typedef struct row {
    const char *name;
    thunk call;
    const spec *args;
    void (*custom)(void);
} row;

#define ROW(fn, th, ...) {#fn, th, (const spec[]){__VA_ARGS__, {.kind = K_END}}, NULL}
#define CUSTOM(fn, check) {#fn, NULL, NULL, check}

static const unsigned char PATTERN = 0xA5;

static unsigned char *read_fixture(const char *file, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", DATA_DIR, file);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "fixture %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    cr_assert(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static size_t elem_size(enum kind k)
{
    return k == K_ARR_I32 ? sizeof(int32_t) : k == K_ARR_I64 ? sizeof(int64_t) : sizeof(double);
}

/* The valid baseline arguments of a row. */
static int make_args(const row *r, arg *a)
{
    int n = 0;
    for (const spec *s = r->args; s->kind != K_END; s++, n++) {
        arg *x = &a[n];
        memset(x, 0, sizeof *x);
        x->sp = s;
        x->i = s->i;
        x->d = s->d;
        switch (s->kind) {
        case K_STR:
            x->p = (void *)s->s;
            break;
        case K_TEXT:
            x->mem = read_fixture(s->s, &x->len);
            x->p = x->mem;
            break;
        case K_LEN:
            x->i = (int64_t)a[n - 1].len;
            break;
        case K_IN:
        case K_OUT:
            x->len = s->lay->size + TAIL;
            x->mem = calloc(1, x->len);
            if (s->kind == K_IN) {
                s->init(x->mem);
            } else {
                memset(x->mem, PATTERN, x->len);
                uint32_t size = (uint32_t)s->lay->size;
                memcpy(x->mem, &size, sizeof size);
            }
            x->p = x->mem;
            break;
        case K_OUT_I32:
        case K_OUT_I64:
        case K_OUT_BYTES:
        case K_OUT_DBL:
        case K_OUT_STR:
            x->len = 8;
            x->mem = malloc(x->len);
            memset(x->mem, PATTERN, x->len);
            x->p = x->mem;
            break;
        case K_OUT_ARRAY:
            x->len = (size_t)s->n * s->lay->size;
            x->mem = malloc(x->len);
            memset(x->mem, PATTERN, x->len);
            x->p = x->mem;
            break;
        case K_ARR_I32:
        case K_ARR_I64:
        case K_ARR_DBL:
            x->len = (size_t)s->n * elem_size(s->kind);
            x->mem = malloc(x->len);
            for (int32_t j = 0; j < s->n; j++) {
                if (s->kind == K_ARR_I32)
                    ((int32_t *)x->mem)[j] = (int32_t)s->i;
                else if (s->kind == K_ARR_I64)
                    ((int64_t *)x->mem)[j] = s->i;
                else
                    ((double *)x->mem)[j] = s->d;
            }
            x->p = x->mem;
            break;
        case K_FN:
        case K_USER:
            x->p = x; /* any non-NULL pointer */
            break;
        default:
            break;
        }
    }
    return n;
}

static void free_args(arg *a, int n)
{
    for (int k = 0; k < n; k++) {
        free(a[k].mem);
        free(a[k].snap);
    }
}

/* Callbacks for gpuocc_best_block_callback: the baseline, and hostile ones. */
static int64_t cb_linear(int32_t threads, void *user)
{
    (void)user;
    return 16 * (int64_t)threads;
}
static int64_t cb_negative(int32_t threads, void *user)
{
    (void)threads, (void)user;
    return -1;
}
static int64_t cb_min(int32_t threads, void *user)
{
    (void)threads, (void)user;
    return INT64_MIN;
}
static int64_t cb_max(int32_t threads, void *user)
{
    (void)threads, (void)user;
    return INT64_MAX;
}

static bool is_output(enum kind k)
{
    return k == K_OUT || k == K_OUT_I32 || k == K_OUT_I64 || k == K_OUT_BYTES || k == K_OUT_DBL || k == K_OUT_STR ||
           k == K_OUT_ARRAY;
}

/* Sums of byte counts saturate here inside the library; it must never be reported. */
#define BYTES_SATURATED ((int64_t)1 << 60)

static bool is_pattern(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != PATTERN)
            return false;
    return true;
}

/* The listed fields of a result reported as OK: written (not the pattern), doubles finite, byte counts
   below the saturation point.  Returns the offending field's name, or NULL. */
static const char *bad_field(const layout *l, const unsigned char *base)
{
    for (const field *f = l->fields; f->name; f++)
        /* only the 8-byte kinds are checked here: their elements are 8 bytes apart (an int32 array's are 4) */
        for (int32_t e = 0; (f->type == T_DBL || f->type == T_BYTES) && e < f->count; e++) {
            const unsigned char *at = base + f->offset + (size_t)e * 8;
            double v;
            int64_t bytes;
            memcpy(&v, at, 8);
            memcpy(&bytes, at, 8);
            if ((f->type == T_DBL && (is_pattern(at, 8) || !isfinite(v))) ||
                (f->type == T_BYTES && (is_pattern(at, 8) || bytes >= BYTES_SATURATED)))
                return f->name;
        }
    return NULL;
}

/* One call with the arguments as they are now; checks everything that does not depend on the mutation.
   `expect` is the exact status the mutation must give, or 1 for "any known status". */
static int32_t check_call(const row *r, arg *a, int n, int32_t expect, const char *what)
{
    for (int k = 0; k < n; k++) {
        if (!a[k].mem)
            continue;
        free(a[k].snap);
        a[k].snap = malloc(a[k].len ? a[k].len : 1);
        memcpy(a[k].snap, a[k].mem, a[k].len);
    }
    int32_t rc = r->call(a);
    cr_expect(rc <= 0 && strcmp(gpuocc_status_name(rc), "unknown") != 0, "%s(%s): unknown status %d", r->name,
              what, rc);
    if (expect != 1)
        cr_expect_eq(rc, expect, "%s(%s): status %s, expected %s", r->name, what, gpuocc_status_name(rc),
                     gpuocc_status_name(expect));
    for (int k = 0; k < n; k++) {
        const spec *s = a[k].sp;
        if (!a[k].mem)
            continue;
        bool changed = memcmp(a[k].snap, a[k].mem, a[k].len) != 0;
        if (!is_output(s->kind)) {
            cr_expect(!changed, "%s(%s): input argument %d modified", r->name, what, k);
            continue;
        }
        if (rc != GPUOCC_OK && changed && s->lay == &result_layout && a[k].len >= sizeof(gpuocc_result)) {
            /* the named exception: a refusal writes the result's exceeded and exceeded_limit, nothing else */
            unsigned char *was = a[k].snap, *now = a[k].mem;
            size_t at = offsetof(gpuocc_result, exceeded), limit_at = offsetof(gpuocc_result, exceeded_limit);
            memcpy(was + at, now + at, sizeof(int32_t));
            memcpy(was + limit_at, now + limit_at, sizeof(int64_t));
            changed = memcmp(was, now, a[k].len) != 0;
        }
        if (rc != GPUOCC_OK && changed && s->lay == &summary_layout && a[k].len >= sizeof(gpuocc_binary_summary)) {
            /* the named exception: a failed scan writes which entry, the status and the fault, nothing else */
            unsigned char *was = a[k].snap, *now = a[k].mem;
            size_t from = offsetof(gpuocc_binary_summary, first_failed_entry), n = 2 * sizeof(int32_t);
            size_t fault = offsetof(gpuocc_binary_summary, fault), fault_n = sizeof(gpuocc_binary_summary) - fault;
            memcpy(was + from, now + from, n);
            memcpy(was + fault, now + fault, fault_n);
            changed = memcmp(was, now, a[k].len) != 0;
        }
        if (rc != GPUOCC_OK) {
            bool may = ((s->flags & F_COUNT) && rc == GPUOCC_ERR_BUFFER) ||
                       ((s->flags & F_ERRLINE) && (rc == GPUOCC_ERR_PARSE || rc == GPUOCC_ERR_TRUNCATED));
            cr_expect(may || !changed, "%s(%s): output argument %d written on failure (%s)", r->name, what, k,
                      gpuocc_status_name(rc));
            continue;
        }
        if (a[k].p != a[k].mem)
            continue;
        if (s->kind == K_OUT_DBL) {
            double v;
            memcpy(&v, a[k].mem, sizeof v);
            cr_expect(isfinite(v) && !is_pattern(a[k].mem, 8), "%s(%s): output argument %d is %g on OK", r->name,
                      what, k, v);
        } else if (s->kind == K_OUT_BYTES) {
            int64_t v;
            memcpy(&v, a[k].mem, sizeof v);
            cr_expect(v < BYTES_SATURATED && !is_pattern(a[k].mem, 8), "%s(%s): output argument %d is %lld on OK",
                      r->name, what, k, (long long)v);
        } else if (s->kind == K_OUT_STR) {
            const char *str;
            memcpy(&str, a[k].mem, sizeof str);
            cr_expect(str != NULL, "%s(%s): NULL string output on OK", r->name, what);
        } else if (s->kind == K_OUT) {
            const char *bad = bad_field(s->lay, a[k].mem);
            cr_expect(!bad, "%s(%s): %s.%s unwritten, non-finite or saturated on OK", r->name, what, s->lay->name,
                      bad);
        } else if (s->kind == K_OUT_ARRAY) {
            /* the elements written (any byte changed) must be whole */
            for (int32_t e = 0; e < s->n; e++) {
                const unsigned char *el = a[k].mem + (size_t)e * s->lay->size;
                const char *bad = is_pattern(el, s->lay->size) ? NULL : bad_field(s->lay, el);
                cr_expect(!bad, "%s(%s): %s[%d].%s unwritten, non-finite or saturated on OK", r->name, what,
                          s->lay->name, e, bad);
            }
        }
    }
    return rc;
}

/* ---- mutations ------------------------------------------------------------------------------------ */

static const int64_t i32_values[] = {INT32_MIN, INT32_MIN + 1, -2, -1, 0, 1, 2, 31, 32, 33, 255, 256, 1023, 1024,
                                     1025, 65536, INT32_MAX - 1, INT32_MAX};
static const int64_t i64_values[] = {INT64_MIN, INT64_MIN + 1, INT32_MIN, -2, -1, 0, 1, 1024, INT32_MAX,
                                     (int64_t)INT32_MAX + 1, (int64_t)1 << 40, ((int64_t)1 << 60) - 1,
                                     (int64_t)1 << 60, (int64_t)1 << 62, INT64_MAX - 1, INT64_MAX};
static const uint64_t u32_values[] = {0, 1, 2, 3, 0x7fffffff, 0x80000000, UINT32_MAX};
static const uint64_t u64_values[] = {1, (uint64_t)1 << 63, UINT64_MAX};
#define NV(x) (sizeof x / sizeof x[0])

static double dbl_value(size_t i, int32_t *expect)
{
    const double v[] = {NAN, -NAN, INFINITY, -INFINITY, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN,
                        0.0, -0.0, 1e300, -1e300, 1e-300, 1.0, 0.5};
    *expect = i < 4 ? GPUOCC_ERR_NOT_FINITE : 1;
    return v[i];
}
#define N_DBL 16

typedef void (*mutator)(arg *a, int k, size_t which, int32_t *expect, char *what, size_t what_len);

/* Run `r` once per value `which` in [0, count) of mutator `m` on argument k. */
static void each_mutation(const row *r, int k, mutator m, size_t count)
{
    for (size_t which = 0; which < count; which++) {
        arg a[MAX_ARGS];
        int n = make_args(r, a);
        int32_t expect = 1;
        char what[160];
        m(a, k, which, &expect, what, sizeof what);
        if (expect != 2) /* 2: this value does not apply */
            check_call(r, a, n, expect, what);
        free_args(a, n);
    }
}

static void mutate_null(arg *a, int k, size_t which, int32_t *expect, char *what, size_t len)
{
    (void)which;
    a[k].p = NULL;
    *expect = a[k].sp->kind == K_USER || (a[k].sp->flags & F_NULLABLE) ? 1 : GPUOCC_ERR_NULL;
    snprintf(what, len, "argument %d NULL", k);
}

static void mutate_scalar(arg *a, int k, size_t which, int32_t *expect, char *what, size_t len)
{
    switch (a[k].sp->kind) {
    case K_I32:
        a[k].i = i32_values[which];
        break;
    case K_I64:
        a[k].i = i64_values[which];
        break;
    case K_COUNT: {
        /* an array's length or capacity: no value above the real one (that would be the caller's lie) */
        const int64_t v[] = {INT32_MIN, -1, 0, 1, a[k].sp->i};
        a[k].i = v[which];
        break;
    }
    case K_SIZE_COUNT: {
        const int64_t v[] = {0, 1, a[k].sp->i};
        a[k].i = v[which];
        break;
    }
    case K_LEN: {
        /* prefixes of the text: empty, one byte, half, all but one */
        const size_t full = (size_t)a[k].i, v[] = {0, 1, full / 2, full - 1};
        a[k].i = (int64_t)v[which];
        break;
    }
    case K_DBL:
        a[k].d = dbl_value(which, expect);
        snprintf(what, len, "argument %d = %g", k, a[k].d);
        return;
    default:
        break;
    }
    snprintf(what, len, "argument %d = %lld", k, (long long)a[k].i);
}

static size_t scalar_count(enum kind k)
{
    return k == K_I32 ? NV(i32_values) : k == K_I64 ? NV(i64_values) : k == K_COUNT ? 5 : k == K_SIZE_COUNT ? 3 : k == K_LEN ? 4
                                                                     : k == K_DBL   ? N_DBL
                                                                                    : 0;
}

/* Struct sizes: 0, 1, one below the first layout, one below the current one (between the two layouts, or
   below the only one), 4097, UINT32_MAX (refused); larger with a nonzero tail (refused for inputs); larger
   with a zero tail (accepted). */
static void mutate_size(arg *a, int k, size_t which, int32_t *expect, char *what, size_t len)
{
    const layout *l = a[k].sp->lay;
    bool in = a[k].sp->kind == K_IN;
    const uint32_t sizes[] = {0, 1, (uint32_t)l->first_size - 1, (uint32_t)l->size - 1, 4097, UINT32_MAX,
                              (uint32_t)l->size + 8, (uint32_t)l->size + 8};
    uint32_t size = sizes[which];
    memcpy(a[k].mem, &size, sizeof size);
    *expect = which < 6 ? GPUOCC_ERR_STRUCT_SIZE : which == 6 ? (in ? GPUOCC_ERR_RESERVED : GPUOCC_OK) : GPUOCC_OK;
    if (which == 6 && in)
        a[k].mem[l->size + 7] = 1;
    if (which >= 6 && (a[k].sp->flags & F_OPAQUE))
        *expect = 1;
    if (which >= 6 && (a[k].sp->flags & F_EXACT))
        *expect = GPUOCC_ERR_STRUCT_SIZE;
    if (which >= 6 && !in) /* the library zeroes the tail of a larger output: compare from a zero tail */
        memset(a[k].mem + l->size, 0, TAIL);
    snprintf(what, len, "%s size %u%s", l->name, size, which == 6 && in ? " nonzero tail" : "");
}

/* Every field of an input struct: each element of each field in turn. */
static size_t field_slots(const layout *l)
{
    size_t n = 0;
    for (const field *f = l->fields; f->name; f++)
        n += (size_t)f->count;
    return n;
}

static const field *slot_field(const layout *l, size_t slot, int32_t *element)
{
    for (const field *f = l->fields; f->name; f++) {
        if (slot < (size_t)f->count) {
            *element = (int32_t)slot;
            return f;
        }
        slot -= (size_t)f->count;
    }
    return NULL;
}

static size_t values_for(enum ftype t)
{
    return t == T_I32 ? NV(i32_values) : t == T_U32 ? NV(u32_values) : t == T_I64 || t == T_BYTES ? NV(i64_values)
                                                       : t == T_U64 ? NV(u64_values)
                                                                    : N_DBL;
}

#define MAX_VALUES 18

static void mutate_field(arg *a, int k, size_t which, int32_t *expect, char *what, size_t len)
{
    const layout *l = a[k].sp->lay;
    int32_t element;
    const field *f = slot_field(l, which / MAX_VALUES, &element);
    size_t v = which % MAX_VALUES;
    if (v >= values_for(f->type)) {
        *expect = 2;
        return;
    }
    unsigned char *at = a[k].mem + f->offset;
    switch (f->type) {
    case T_I32: {
        int32_t x = (int32_t)i32_values[v];
        memcpy(at + (size_t)element * 4, &x, 4);
        snprintf(what, len, "%s.%s[%d] = %d", l->name, f->name, element, x);
        break;
    }
    case T_U32: {
        uint32_t x = (uint32_t)u32_values[v];
        memcpy(at + (size_t)element * 4, &x, 4);
        snprintf(what, len, "%s.%s[%d] = %u", l->name, f->name, element, x);
        break;
    }
    case T_I64:
    case T_BYTES: {
        int64_t x = i64_values[v];
        memcpy(at + (size_t)element * 8, &x, 8);
        snprintf(what, len, "%s.%s[%d] = %lld", l->name, f->name, element, (long long)x);
        break;
    }
    case T_U64: {
        uint64_t x = u64_values[v];
        memcpy(at + (size_t)element * 8, &x, 8);
        snprintf(what, len, "%s.%s[%d] = %llu", l->name, f->name, element, (unsigned long long)x);
        break;
    }
    case T_DBL: {
        double x = dbl_value(v, expect);
        memcpy(at + (size_t)element * 8, &x, 8);
        snprintf(what, len, "%s.%s[%d] = %g", l->name, f->name, element, x);
        break;
    }
    }
    if (f->reserved) {
        bool zero = f->type == T_I32 ? i32_values[v] == 0 : f->type == T_U32 ? u32_values[v] == 0 : false;
        *expect = zero ? GPUOCC_OK : GPUOCC_ERR_RESERVED;
    }
}

/* Element 0 of an input array: the scalar extremes of its type. */
static void mutate_element(arg *a, int k, size_t which, int32_t *expect, char *what, size_t len)
{
    switch (a[k].sp->kind) {
    case K_ARR_I32: {
        int32_t x = (int32_t)i32_values[which];
        memcpy(a[k].mem, &x, sizeof x);
        snprintf(what, len, "argument %d[0] = %d", k, x);
        break;
    }
    case K_ARR_I64: {
        int64_t x = i64_values[which];
        memcpy(a[k].mem, &x, sizeof x);
        snprintf(what, len, "argument %d[0] = %lld", k, (long long)x);
        break;
    }
    default: {
        double x = dbl_value(which, expect);
        memcpy(a[k].mem, &x, sizeof x);
        snprintf(what, len, "argument %d[0] = %g", k, x);
        break;
    }
    }
}

/* Text and binary inputs: damaged copies (a NUL, 0xFF bytes, a cut digit run) of the fixture. */
static void mutate_text(arg *a, int k, size_t which, int32_t *expect, char *what, size_t len)
{
    (void)expect;
    unsigned char *m = a[k].mem;
    size_t n = a[k].len;
    switch (which) {
    case 0:
        m[n / 2] = 0;
        break;
    case 1:
        for (size_t i = 0; i < n; i += 7)
            m[i] = 0xFF;
        break;
    case 2:
        for (size_t i = 0; i < n; i++)
            if (m[i] >= '0' && m[i] <= '9')
                m[i] = '9';
        break;
    default:
        for (size_t i = 16; i < n && i < 256; i++)
            m[i] = (unsigned char)(0x5A ^ i);
        break;
    }
    snprintf(what, len, "argument %d damaged (%zu)", k, which);
}

/* FN_ arguments carry an index into `callbacks` (0 is the baseline); NULL is the NULL mutation. */
static const gpuocc_smem_fn callbacks[] = {cb_linear, cb_negative, cb_min, cb_max};
#define FN(k) (a[k].p ? callbacks[a[k].i] : NULL)

static void mutate_fn(arg *a, int k, size_t which, int32_t *expect, char *what, size_t len)
{
    (void)expect;
    a[k].i = (int64_t)which + 1;
    snprintf(what, len, "callback %zu", which + 1);
}

/* ---- the thunks ----------------------------------------------------------------------------------- */

static int32_t call_bandwidth_at(arg *a) { return gpuocc_bandwidth_at(D(0), I32(1), D(2), D(3), D(4), P(5)); }
static int32_t call_bandwidth_model(arg *a)
{
    return gpuocc_bandwidth_model(D(0), D(1), I32(2), D(3), D(4), D(5), D(6), P(7));
}
static int32_t call_bandwidth_predict(arg *a) { return gpuocc_bandwidth_predict(P(0), D(1), D(2), P(3)); }
static int32_t call_best_block_affine(arg *a)
{
    return gpuocc_best_block_affine(P(0), P(1), I64(2), I64(3), P(4), P(5));
}
static int32_t call_best_block_callback(arg *a)
{
    return gpuocc_best_block_callback(P(0), P(1), FN(2), P(3), P(4), P(5));
}
static int32_t call_best_block_table(arg *a)
{
    return gpuocc_best_block_table(P(0), P(1), P(2), I32(3), P(4), P(5));
}
static int32_t call_binary_kernel_init(arg *a) { return gpuocc_binary_kernel_init(P(0)); }
static int32_t call_binary_scan(arg *a) { return gpuocc_binary_scan(P(0), LEN(1), P(2)); }
static int32_t call_binary_entry_info(arg *a) { return gpuocc_binary_entry_info(P(0), LEN(1), I32(2), P(3), NULL); }
static int32_t call_bytes_in_flight(arg *a) { return gpuocc_bytes_in_flight(D(0), D(1), I32(2), P(3), P(4)); }
static int32_t call_catalog_device(arg *a) { return gpuocc_catalog_device(I32(0), P(1)); }
static int32_t call_cubin_read(arg *a) { return gpuocc_cubin_read(P(0), LEN(1), P(2), I32(3), P(4)); }
static int32_t call_device_init(arg *a) { return gpuocc_device_init(P(0)); }
static int32_t call_device_lookup(arg *a) { return gpuocc_device_lookup(P(0), P(1)); }
static int32_t call_device_validate(arg *a) { return gpuocc_device_validate(P(0)); }
static int32_t call_diagnose(arg *a) { return gpuocc_diagnose(I32(0), D(1), P(2), P(3), P(4)); }
static int32_t call_divergence(arg *a) { return gpuocc_divergence(P(0), P(1), I32(2), I32(3), P(4), P(5)); }
static int32_t call_kernel_init(arg *a) { return gpuocc_kernel_init(P(0)); }
static int32_t call_lane_efficiency(arg *a) { return gpuocc_lane_efficiency(I32(0), I32(1), P(2)); }
static int32_t call_latency_check(arg *a) { return gpuocc_latency_check(D(0), D(1), D(2), D(3), P(4)); }
static int32_t call_limit_barriers(arg *a) { return gpuocc_limit_barriers(P(0), I32(1), P(2)); }
static int32_t call_limit_blocks(arg *a) { return gpuocc_limit_blocks(P(0), P(1)); }
static int32_t call_limit_registers(arg *a) { return gpuocc_limit_registers(P(0), I32(1), I32(2), P(3)); }
static int32_t call_limit_shared_memory(arg *a) { return gpuocc_limit_shared_memory(P(0), P(1), P(2)); }
static int32_t call_limit_warps(arg *a) { return gpuocc_limit_warps(P(0), I32(1), P(2)); }
static int32_t call_min_blocks_check(arg *a) { return gpuocc_min_blocks_check(P(0), P(1), I32(2), P(3), P(4)); }
static int32_t call_setmaxnreg_check(arg *a) { return gpuocc_setmaxnreg_check(P(0), P(1), P(2), I32(3), I32(4), P(5)); }
static int32_t call_tmem_holders(arg *a) { return gpuocc_tmem_holders(P(0), I32(1), P(2)); }
static int32_t call_mix_cusp(arg *a) { return gpuocc_mix_cusp(D(0), D(1), D(2), D(3), P(4), P(5)); }
static int32_t call_max_stages(arg *a) { return gpuocc_max_stages(P(0), P(1), I32(2), I64(3), I64(4), P(5)); }
static int32_t call_mix_warps_needed(arg *a)
{
    return gpuocc_mix_warps_needed(D(0), D(1), D(2), D(3), D(4), D(5), P(6));
}
static int32_t call_next_step(arg *a) { return gpuocc_next_step(P(0), P(1), I32(2), P(3), P(4)); }
static int32_t call_next_steps(arg *a) { return gpuocc_next_steps(P(0), P(1), P(2), I32(3), P(4)); }
static int32_t call_occupancy(arg *a) { return gpuocc_occupancy(P(0), P(1), P(2)); }
static int32_t call_occupancy_prepared(arg *a) { return gpuocc_occupancy_prepared(P(0), P(1), P(2)); }
static int32_t call_occupancy_batch(arg *a) { return gpuocc_occupancy_batch(P(0), P(1), P(2), (size_t)I64(3)); }
static int32_t call_prepare(arg *a) { return gpuocc_prepare(P(0), P(1)); }
static int32_t call_perf_lookup(arg *a) { return gpuocc_perf_lookup(P(0), P(1)); }
static int32_t call_remarks_kernel_init(arg *a) { return gpuocc_remarks_kernel_init(P(0)); }
static int32_t call_ptxas_parse(arg *a) { return gpuocc_ptxas_parse(P(0), LEN(1), P(2), I32(3), P(4), P(5)); }
static int32_t call_regs_max_for_blocks(arg *a) { return gpuocc_regs_max_for_blocks(P(0), P(1), I32(2), P(3)); }
static int32_t call_regs_per_block(arg *a) { return gpuocc_regs_per_block(P(0), I32(1), I32(2), P(3)); }
static int32_t call_regs_per_warp(arg *a) { return gpuocc_regs_per_warp(P(0), I32(1), P(2)); }
static int32_t call_roofline(arg *a) { return gpuocc_roofline(D(0), D(1), D(2), D(3), P(4), P(5), P(6), P(7)); }
static int32_t call_cluster_init(arg *a) { return gpuocc_cluster_init(P(0)); }
static int32_t call_cluster_check(arg *a) { return gpuocc_cluster_check(P(0), P(1), P(2)); }
static int32_t call_cluster_occupancy(arg *a) { return gpuocc_cluster_occupancy(P(0), P(1), P(2), P(3), P(4)); }
static int32_t call_cluster_size_max(arg *a) { return gpuocc_cluster_size_max(P(0), I32(1), P(2)); }
static int32_t call_clusters_per_gpc(arg *a) { return gpuocc_clusters_per_gpc(I32(0), I32(1), I32(2), P(3)); }
static int32_t call_gpc_layout_lookup(arg *a) { return gpuocc_gpc_layout_lookup(P(0), P(1)); }
static int32_t call_routing(arg *a) { return gpuocc_routing(I32(0), I64(1), I32(2), P(3)); }
static int32_t call_smem_carveout(arg *a) { return gpuocc_smem_carveout(P(0), P(1), P(2)); }
static int32_t call_smem_dynamic_available(arg *a)
{
    return gpuocc_smem_dynamic_available(P(0), P(1), I32(2), P(3));
}
static int32_t call_smem_per_block(arg *a) { return gpuocc_smem_per_block(P(0), I64(1), I64(2), P(3)); }
static int32_t call_spill_estimate(arg *a) { return gpuocc_spill_estimate(P(0), P(1)); }
static int32_t call_spill_input_init(arg *a) { return gpuocc_spill_input_init(P(0)); }
static int32_t call_spill_slowdown(arg *a) { return gpuocc_spill_slowdown(D(0), D(1), D(2), P(3)); }
static int32_t call_sweep(arg *a)
{
    return gpuocc_sweep(P(0), P(1), I32(2), I64(3), I64(4), I64(5), P(6), I32(7), P(8));
}
static int32_t call_sweep_range(arg *a) { return gpuocc_sweep_range(P(0), P(1), I32(2), P(3), P(4), P(5)); }
static int32_t call_sweep_steps(arg *a)
{
    return gpuocc_sweep_steps(P(0), P(1), I32(2), I64(3), I64(4), P(5), I32(6), P(7));
}
static int32_t call_tradeoff(arg *a)
{
    return gpuocc_tradeoff(P(0), P(1), D(2), D(3), D(4), P(5), I32(6), P(7));
}
static int32_t call_warps_needed(arg *a) { return gpuocc_warps_needed(D(0), D(1), D(2), P(3)); }
static int32_t call_waves(arg *a) { return gpuocc_waves(I64(0), I32(1), I32(2), P(3)); }

/* ---- functions that return something other than a status ----------------------------------------- */

static void check_strings_of_codes(void)
{
    for (size_t i = 0; i < NV(i32_values); i++) {
        int32_t v = (int32_t)i32_values[i];
        cr_expect_not_null(gpuocc_strerror(v));
        cr_expect_not_null(gpuocc_status_name(v));
        cr_expect_not_null(gpuocc_resource_name(v));
        cr_expect_not_null(gpuocc_stall_name(v));
        cr_expect_not_null(gpuocc_catalog_name(v));
        cr_expect_not_null(gpuocc_catalog_source(v));
        bool in_catalog = v >= 0 && v < gpuocc_catalog_count();
        int32_t kind = gpuocc_catalog_kind(v);
        if (in_catalog)
            cr_expect(kind == GPUOCC_CATALOG_ARCH || kind == GPUOCC_CATALOG_PRODUCT);
        else {
            cr_expect_eq(kind, GPUOCC_ERR_ARGUMENT, "catalog_kind(%d)", v);
            cr_expect_str_eq(gpuocc_catalog_name(v), "");
            cr_expect_str_eq(gpuocc_catalog_source(v), "");
        }
        if (v < 0 || v >= GPUOCC_RESOURCE_COUNT)
            cr_expect_str_eq(gpuocc_resource_name(v), "");
        cr_expect_not_null(gpuocc_input_name(v));
        if (v <= GPUOCC_INPUT_NONE || v >= GPUOCC_INPUT_COUNT)
            cr_expect_str_eq(gpuocc_input_name(v), "");
        if (v < 0 || v >= GPUOCC_STALL_COUNT)
            cr_expect_str_eq(gpuocc_stall_name(v), "");
    }
    for (int32_t code = -200; code <= 200; code++) {
        cr_expect_not_null(gpuocc_strerror(code));
        cr_expect_not_null(gpuocc_status_name(code));
    }
}

static void check_version(void)
{
    cr_expect_eq(gpuocc_version(),
                 GPUOCC_VERSION_MAJOR * 10000 + GPUOCC_VERSION_MINOR * 100 + GPUOCC_VERSION_PATCH);
    cr_expect_not_null(gpuocc_version_string());
    cr_expect_gt(gpuocc_catalog_count(), 0);
}

static void check_stall_from_name(void)
{
    char long_name[5000];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = 0;
    cr_expect_eq(gpuocc_stall_from_name(NULL), -1);
    cr_expect_eq(gpuocc_stall_from_name(""), -1);
    cr_expect_eq(gpuocc_stall_from_name(long_name), -1);
    cr_expect_eq(gpuocc_stall_from_name("barrier\n"), -1);
    for (int32_t i = 0; i < GPUOCC_STALL_COUNT; i++)
        cr_expect_eq(gpuocc_stall_from_name(gpuocc_stall_name(i)), i);
}

/* gpuocc_binary_read_entry: its record stride comes from kernels[0].size and its summary is in-out and
   optional, so it is checked by hand, on compressed binaries: NULLs, entries, workspace sizes,
   capacities, damaged bytes; outputs untouched on failure (the summary counts the call: allowed). */
static int32_t read_entry_case(const unsigned char *data, size_t length, int32_t entry, bool workspace,
                               size_t workspace_len, int32_t capacity, bool kernels, bool count, const char *what)
{
    static unsigned char space[1 << 20];
    gpuocc_binary_kernel ks[16], before[16];
    memset(ks, PATTERN, sizeof ks);
    ks[0].size = sizeof ks[0];
    memcpy(before, ks, sizeof ks);
    int32_t n = -7;
    gpuocc_binary_summary sum = {.size = sizeof sum};
    int32_t rc = gpuocc_binary_read_entry(data, length, entry, workspace ? space : NULL, workspace_len,
                                          kernels ? ks : NULL, capacity, count ? &n : NULL, &sum);
    cr_expect(rc <= 0 && strcmp(gpuocc_status_name(rc), "unknown") != 0, "read_entry(%s): status %d", what, rc);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        cr_expect_eq(n, -7, "read_entry(%s): count written on %s", what, gpuocc_status_name(rc));
        cr_expect_eq(memcmp(ks, before, sizeof ks), 0, "read_entry(%s): records written on %s", what,
                     gpuocc_status_name(rc));
    }
    return rc;
}

static void check_binary_read_entry_of(const char *fixture)
{
    size_t length;
    unsigned char *data = read_fixture(fixture, &length);
    gpuocc_binary_summary sum = {.size = sizeof sum};
    cr_assert_eq(gpuocc_binary_scan(data, length, &sum), GPUOCC_OK);
    cr_assert_gt(sum.entries, 0);
    size_t ws = (size_t)sum.workspace_bytes;
    cr_assert_leq(ws, (size_t)1 << 20);
    cr_expect_eq(read_entry_case(data, length, 0, true, ws, 16, true, true, "baseline"), GPUOCC_OK);
    cr_expect_eq(read_entry_case(NULL, length, 0, true, ws, 16, true, true, "data NULL"), GPUOCC_ERR_NULL);
    cr_expect_eq(read_entry_case(data, length, 0, true, ws, 16, false, true, "kernels NULL"), GPUOCC_ERR_NULL);
    cr_expect_eq(read_entry_case(data, length, 0, true, ws, 16, true, false, "count NULL"), GPUOCC_ERR_NULL);
    cr_expect_neq(read_entry_case(data, length, 0, false, ws, 16, true, true, "workspace NULL"), GPUOCC_OK);
    for (size_t i = 0; i < NV(i32_values); i++) {
        read_entry_case(data, length, (int32_t)i32_values[i], true, ws, 16, true, true, "entry");
        const int32_t caps[] = {INT32_MIN, -1, 0, 1};
        if (i < 4)
            read_entry_case(data, length, 0, true, ws, caps[i], true, true, "capacity");
    }
    const size_t wss[] = {0, 1, ws / 2, ws - 1};
    for (size_t i = 0; i < 4; i++)
        cr_expect_neq(read_entry_case(data, length, 0, true, wss[i], 16, true, true, "small workspace"), GPUOCC_OK);
    for (size_t cut = 0; cut < length; cut += 1 + length / 64)
        read_entry_case(data, cut, 0, true, ws, 16, true, true, "prefix");
    for (size_t at = 0; at < length; at += 1 + length / 97) {
        unsigned char keep = data[at];
        data[at] ^= 0xFF;
        read_entry_case(data, length, 0, true, ws, 16, true, true, "damaged");
        data[at] = keep;
    }
    free(data);
}

/* gpuocc_remarks_parse: size-versioned records (the stride is kernels[0].size), so a row of its own. */
static int32_t remarks_case(const char *text, size_t length, uint32_t size, int32_t capacity, bool kernels, bool count,
                            bool line, const char *what)
{
    static unsigned char ks[16 * 512], before[sizeof ks];
    memset(ks, PATTERN, sizeof ks);
    memcpy(ks, &size, sizeof size);
    memcpy(before, ks, sizeof ks);
    int32_t n = -7, error_line = -7;
    int32_t rc = gpuocc_remarks_parse(text, length, kernels ? (gpuocc_remarks_kernel *)(void *)ks : NULL, capacity,
                                      count ? &n : NULL, line ? &error_line : NULL);
    cr_expect(rc <= 0 && strcmp(gpuocc_status_name(rc), "unknown") != 0, "remarks_parse(%s): status %d", what, rc);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        cr_expect_eq(n, -7, "remarks_parse(%s): count written on %s", what, gpuocc_status_name(rc));
        cr_expect_eq(memcmp(ks, before, sizeof ks), 0, "remarks_parse(%s): records written on %s", what,
                     gpuocc_status_name(rc));
        if (rc != GPUOCC_ERR_PARSE && rc != GPUOCC_ERR_TRUNCATED)
            cr_expect_eq(error_line, -7, "remarks_parse(%s): line written on %s", what, gpuocc_status_name(rc));
    } else if (kernels && capacity > 0 && n > 0) {
        gpuocc_remarks_kernel first;
        memcpy(&first, ks, sizeof first);
        cr_expect_eq(first.size, size, "remarks_parse(%s): the record's size is the caller's", what);
    }
    return rc;
}

static void check_remarks_parse(void)
{
    size_t length;
    char *text = (char *)read_fixture("remarks/gfx942.log", &length);
    const uint32_t ok = sizeof(gpuocc_remarks_kernel);
    cr_expect_eq(remarks_case(text, length, ok, 16, true, true, true, "baseline"), GPUOCC_OK);
    cr_expect_eq(remarks_case(NULL, length, ok, 16, true, true, true, "text NULL"), GPUOCC_ERR_NULL);
    cr_expect_eq(remarks_case(text, length, ok, 16, false, true, true, "kernels NULL"), GPUOCC_ERR_NULL);
    cr_expect_eq(remarks_case(text, length, ok, 16, true, false, true, "count NULL"), GPUOCC_ERR_NULL);
    cr_expect_eq(remarks_case(text, length, ok, 16, true, true, false, "error_line NULL"), GPUOCC_ERR_NULL);
    const uint32_t sizes[] = {0, 1, ok - 1, 4097, UINT32_MAX};
    for (size_t i = 0; i < NV(sizes); i++)
        cr_expect_eq(remarks_case(text, length, sizes[i], 16, true, true, true, "size"), GPUOCC_ERR_STRUCT_SIZE);
    cr_expect_eq(remarks_case(text, length, ok + 64, 16, true, true, true, "larger"), GPUOCC_OK);
    const int32_t caps[] = {INT32_MIN, -1, 0, 1, 8, INT32_MAX};
    for (size_t i = 0; i < NV(caps); i++)
        remarks_case(text, length, ok, caps[i], true, true, true, "capacity"); /* 68 records fit: 9 are written */
    for (size_t cut = 0; cut < length; cut += 1 + length / 97)
        remarks_case(text, cut, ok, 16, true, true, true, "prefix");
    for (size_t at = 0; at < length; at += 1 + length / 89) {
        char keep = text[at];
        const char bytes[] = {'\0', '\n', ':', '9', 'x'};
        for (size_t b = 0; b < NV(bytes); b++) {
            text[at] = bytes[b];
            remarks_case(text, length, ok, 16, true, true, true, "damaged");
        }
        text[at] = keep;
    }
    free(text);
}

/* A compressed NVIDIA fatbinary, and a HIP object whose .hip_fatbin is a compressed offload bundle (CCOB). */
static void check_binary_read_entry(void)
{
    check_binary_read_entry_of("units_zstd.fatbin");
    check_binary_read_entry_of("hip_ccob.o");
}

/* gpuocc_binary_kernel_registers: NULL and size checks, a vendor mismatch refused, outputs untouched on failure;
   MI300X (gfx942, unified file): a note's 266 VGPRs with 10 AGPRs are 256 arch VGPRs and 10 AGPRs. */
static void check_binary_kernel_registers(void)
{
    gpuocc_device amd, nv;
    init_mi300x(&amd);
    init_h100(&nv);
    gpuocc_binary_kernel k;
    gpuocc_binary_kernel_init(&k);
    k.vendor = GPUOCC_VENDOR_AMD;
    k.vgprs = 266;
    k.agprs = 10;
    int32_t r = 7, a = 7;
    cr_expect_eq(gpuocc_binary_kernel_registers(NULL, &k, &r, &a), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_binary_kernel_registers(&amd, NULL, &r, &a), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_binary_kernel_registers(&amd, &k, NULL, &a), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_binary_kernel_registers(&amd, &k, &r, NULL), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_binary_kernel_registers(&nv, &k, &r, &a), GPUOCC_ERR_ARGUMENT);
    k.size = 239;
    cr_expect_eq(gpuocc_binary_kernel_registers(&amd, &k, &r, &a), GPUOCC_ERR_STRUCT_SIZE);
    k.size = sizeof k;
    k.agprs = 300;
    cr_expect_eq(gpuocc_binary_kernel_registers(&amd, &k, &r, &a), GPUOCC_ERR_ARGUMENT);
    cr_expect(r == 7 && a == 7, "outputs untouched on failure");
    k.agprs = 10;
    cr_expect_eq(gpuocc_binary_kernel_registers(&amd, &k, &r, &a), GPUOCC_OK);
    cr_expect(r == 256 && a == 10, "%d %d", r, a);
    k.agprs = -1;
    cr_expect_eq(gpuocc_binary_kernel_registers(&amd, &k, &r, &a), GPUOCC_OK);
    cr_expect(r == 266 && a == 0, "%d %d", r, a);
    gpuocc_binary_kernel_init(&k);
    k.registers = 40;
    cr_expect_eq(gpuocc_binary_kernel_registers(&nv, &k, &r, &a), GPUOCC_OK);
    cr_expect(r == 40 && a == 0);
}

/* ---- the table: one row per exported symbol ------------------------------------------------------- */

#define DEVICE IN(&device_layout, init_h100)
#define KERNEL IN(&kernel_layout, init_kernel)
#define AMD_DEVICE IN(&device_layout, init_mi300x)
#define AMD_KERNEL IN(&kernel_layout, init_amd_kernel)

static const row rows[] = {
    ROW(gpuocc_bandwidth_at, call_bandwidth_at, DBL_(40e3), I32_(132), DBL_(600), DBL_(3.35e12),
        DBL_(GPUOCC_SMOOTH_K), OUT_DBL),
    ROW(gpuocc_bandwidth_model, call_bandwidth_model, DBL_(16), DBL_(512), I32_(108), DBL_(400), DBL_(1555),
        DBL_(5120), DBL_(1539), OUT(&bw_layout)),
    ROW(gpuocc_bandwidth_predict, call_bandwidth_predict, STR_("A100"), DBL_(16), DBL_(512), OUT(&bw_layout)),
    ROW(gpuocc_best_block_affine, call_best_block_affine, DEVICE, KERNEL, I64_(1024), I64_(64), OUT_I32, OUT_I32),
    ROW(gpuocc_best_block_callback, call_best_block_callback, DEVICE, KERNEL, FN_, USER_, OUT_I32, OUT_I32),
    ROW(gpuocc_best_block_table, call_best_block_table, DEVICE, KERNEL, ARR_I64(1025, 2048), COUNT_(1025),
        OUT_I32, OUT_I32),
    ROW(gpuocc_binary_entry_info, call_binary_entry_info, TEXT_("units_zstd.fatbin"), LEN_, I32_(0),
        OUT(&binary_entry_layout)),
    ROW(gpuocc_binary_kernel_init, call_binary_kernel_init, OUT_NOSIZE(&binary_kernel_layout)),
    CUSTOM(gpuocc_binary_kernel_registers, check_binary_kernel_registers),
    CUSTOM(gpuocc_binary_read_entry, check_binary_read_entry),
    ROW(gpuocc_binary_scan, call_binary_scan, TEXT_("units_zstd.fatbin"), LEN_, OUT(&summary_layout)),
    ROW(gpuocc_bytes_in_flight, call_bytes_in_flight, DBL_(3.35e12), DBL_(600), I32_(132), OUT_DBL, OUT_DBL),
    CUSTOM(gpuocc_catalog_count, check_version),
    ROW(gpuocc_catalog_device, call_catalog_device, I32_(0), OUT(&device_layout)),
    CUSTOM(gpuocc_catalog_kind, check_strings_of_codes),
    CUSTOM(gpuocc_catalog_name, check_strings_of_codes),
    CUSTOM(gpuocc_catalog_source, check_strings_of_codes),
    ROW(gpuocc_cluster_check, call_cluster_check, DEVICE, IN(&cluster_layout, init_cluster), OUT_I32),
    ROW(gpuocc_cluster_init, call_cluster_init, OUT_NOSIZE(&cluster_layout)),
    ROW(gpuocc_cluster_occupancy, call_cluster_occupancy, DEVICE, KERNEL, IN(&cluster_layout, init_cluster),
        IN_NULLABLE(&gpc_layout_layout, init_gpc_layout), OUT(&cluster_result_layout)),
    ROW(gpuocc_cluster_size_max, call_cluster_size_max, DEVICE, I32_(1), OUT_I32),
    ROW(gpuocc_clusters_per_gpc, call_clusters_per_gpc, I32_(18), I32_(2), I32_(4), OUT_I64),
    ROW(gpuocc_gpc_layout_lookup, call_gpc_layout_lookup, STR_("H100 SXM"), OUT(&gpc_layout_layout)),
    ROW(gpuocc_cubin_read, call_cubin_read, TEXT_("kernels_sm90.cubin"), LEN_, OUT_ARRAY(&compiled_layout, 64),
        COUNT_(64), OUT_COUNT),
    ROW(gpuocc_device_init, call_device_init, OUT_NOSIZE(&device_layout)),
    ROW(gpuocc_device_lookup, call_device_lookup, STR_("H100"), OUT(&device_layout)),
    ROW(gpuocc_device_validate, call_device_validate, DEVICE),
    ROW(gpuocc_diagnose, call_diagnose, I32_(GPUOCC_STALL_LONG_SCOREBOARD), DBL_(0.25), OUT_STR, OUT_STR, OUT_I32),
    ROW(gpuocc_divergence, call_divergence, ARR_I32(2, 16), ARR_DBL(2, 10), COUNT_(2), I32_(32), OUT_DBL,
        OUT_DBL),
    ROW(gpuocc_kernel_init, call_kernel_init, OUT_NOSIZE(&kernel_layout)),
    ROW(gpuocc_lane_efficiency, call_lane_efficiency, I32_(100), I32_(32), OUT_DBL),
    ROW(gpuocc_latency_check, call_latency_check, DBL_(32), DBL_(400), DBL_(4), DBL_(50), OUT(&verdict_layout)),
    ROW(gpuocc_limit_barriers, call_limit_barriers, DEVICE, I32_(2), OUT_I32),
    ROW(gpuocc_limit_blocks, call_limit_blocks, DEVICE, OUT_I32),
    ROW(gpuocc_limit_registers, call_limit_registers, DEVICE, I32_(256), I32_(64), OUT_I32),
    ROW(gpuocc_limit_shared_memory, call_limit_shared_memory, DEVICE, KERNEL, OUT_I32),
    ROW(gpuocc_limit_warps, call_limit_warps, DEVICE, I32_(256), OUT_I32),
    ROW(gpuocc_min_blocks_check, call_min_blocks_check, DEVICE, KERNEL, I32_(2), OUT_I32, OUT_I32),
    ROW(gpuocc_mix_cusp, call_mix_cusp, DBL_(6), DBL_(4), DBL_(368), DBL_(0.3), OUT_DBL, OUT_DBL),
    ROW(gpuocc_mix_warps_needed, call_mix_warps_needed, DBL_(10), DBL_(6), DBL_(4), DBL_(368), DBL_(0.3), DBL_(4),
        OUT_DBL),
    ROW(gpuocc_next_step, call_next_step, DEVICE, KERNEL, I32_(GPUOCC_RESOURCE_REGISTERS), OUT_BYTES, OUT_BYTES),
    ROW(gpuocc_next_step, call_next_step, DEVICE, KERNEL, I32_(GPUOCC_RESOURCE_SMEM), OUT_BYTES, OUT_BYTES),
    ROW(gpuocc_next_steps, call_next_steps, DEVICE, KERNEL, OUT_ARRAY(&next_step_layout, GPUOCC_STEPS_MAX),
        COUNT_(GPUOCC_STEPS_MAX), OUT_COUNT),
    ROW(gpuocc_occupancy, call_occupancy, DEVICE, KERNEL, OUT(&result_layout)),
    ROW(gpuocc_occupancy_batch, call_occupancy_batch, IN_EXACT(&prepared_layout, init_prepared), KERNEL,
        IN(&batch_layout, init_batch), SIZE_COUNT_(BATCH_N)),
    ROW(gpuocc_occupancy_prepared, call_occupancy_prepared, IN_EXACT(&prepared_layout, init_prepared), KERNEL,
        OUT(&result_layout)),
    ROW(gpuocc_perf_lookup, call_perf_lookup, STR_("H100"), OUT(&perf_layout)),
    ROW(gpuocc_prepare, call_prepare, DEVICE, OUT_EXACT(&prepared_layout)),
    ROW(gpuocc_ptxas_parse, call_ptxas_parse, TEXT_("ptxas_sm90.log"), LEN_, OUT_ARRAY(&compiled_layout, 64),
        COUNT_(64), OUT_COUNT, OUT_ERRLINE),
    CUSTOM(gpuocc_remarks_parse, check_remarks_parse),
    ROW(gpuocc_remarks_kernel_init, call_remarks_kernel_init, OUT_NOSIZE(&remarks_kernel_layout)),
    ROW(gpuocc_regs_max_for_blocks, call_regs_max_for_blocks, DEVICE, KERNEL, I32_(2), OUT_I32),
    ROW(gpuocc_max_stages, call_max_stages, DEVICE, KERNEL, I32_(2), I64_(8192), I64_(16384), OUT_I64),
    ROW(gpuocc_regs_per_block, call_regs_per_block, DEVICE, I32_(256), I32_(64), OUT_I64),
    ROW(gpuocc_regs_per_warp, call_regs_per_warp, DEVICE, I32_(64), OUT_I32),
    CUSTOM(gpuocc_resource_name, check_strings_of_codes),
    CUSTOM(gpuocc_input_name, check_strings_of_codes),
    ROW(gpuocc_roofline, call_roofline, DBL_(1e12), DBL_(4e9), DBL_(60e12), DBL_(3.35e12), OUT_DBL, OUT_DBL,
        OUT_DBL, OUT_I32),
    ROW(gpuocc_routing, call_routing, I32_(8), I64_(4096), I32_(32), OUT(&routing_layout)),
    ROW(gpuocc_smem_carveout, call_smem_carveout, DEVICE, KERNEL, OUT_BYTES),
    ROW(gpuocc_smem_dynamic_available, call_smem_dynamic_available, DEVICE, KERNEL, I32_(2), OUT_BYTES),
    ROW(gpuocc_setmaxnreg_check, call_setmaxnreg_check, DEVICE, KERNEL, ARR_I32(2, 40), COUNT_(2), I32_(1),
        OUT(&setmaxnreg_layout)),
    ROW(gpuocc_smem_per_block, call_smem_per_block, DEVICE, I64_(4096), I64_(8192), OUT_BYTES),
    ROW(gpuocc_spill_estimate, call_spill_estimate, IN(&spill_in_layout, init_spill), OUT(&spill_cost_layout)),
    ROW(gpuocc_spill_input_init, call_spill_input_init, OUT_NOSIZE(&spill_in_layout)),
    ROW(gpuocc_spill_slowdown, call_spill_slowdown, DBL_(256), DBL_(2), DBL_(300), OUT_DBL),
    CUSTOM(gpuocc_stall_from_name, check_stall_from_name),
    CUSTOM(gpuocc_stall_name, check_strings_of_codes),
    CUSTOM(gpuocc_status_name, check_strings_of_codes),
    CUSTOM(gpuocc_strerror, check_strings_of_codes),
    ROW(gpuocc_sweep, call_sweep, DEVICE, KERNEL, I32_(GPUOCC_AXIS_THREADS), I64_(32), I64_(1024), I64_(32),
        OUT_ARRAY(&sweep_layout, 64), COUNT_(64), OUT_COUNT),
    ROW(gpuocc_sweep, call_sweep, DEVICE, KERNEL, I32_(GPUOCC_AXIS_SMEM), I64_(0), I64_(65536), I64_(4096),
        OUT_ARRAY(&sweep_layout, 64), COUNT_(64), OUT_COUNT),
    /* `to` may be the caller's own smem_dynamic_max_bytes (any int64), not a sum: OUT_I64 */
    ROW(gpuocc_sweep_range, call_sweep_range, DEVICE, KERNEL, I32_(GPUOCC_AXIS_SMEM), OUT_BYTES, OUT_I64,
        OUT_BYTES),
    ROW(gpuocc_sweep_steps, call_sweep_steps, DEVICE, KERNEL, I32_(GPUOCC_AXIS_REGS), I64_(0), I64_(255),
        OUT_ARRAY(&sweep_layout, 256), COUNT_(256), OUT_COUNT),
    ROW(gpuocc_sweep_steps, call_sweep_steps, DEVICE, KERNEL, I32_(GPUOCC_AXIS_SMEM), I64_(0), I64_(233472),
        OUT_ARRAY(&sweep_layout, 256), COUNT_(256), OUT_COUNT),
    ROW(gpuocc_tmem_holders, call_tmem_holders, IN(&device_layout, init_b200), I32_(128), OUT_I32),
    ROW(gpuocc_tradeoff, call_tradeoff, DEVICE, IN(&kernel_layout, init_kernel_regs), DBL_(256), DBL_(1),
        DBL_(300), OUT_ARRAY(&step_layout, 8), COUNT_(8), OUT_COUNT),
    CUSTOM(gpuocc_version, check_version),
    CUSTOM(gpuocc_version_string, check_version),
    ROW(gpuocc_warps_needed, call_warps_needed, DBL_(400), DBL_(4), DBL_(2), OUT_DBL),
    ROW(gpuocc_waves, call_waves, I64_(1000), I32_(132), I32_(4), OUT(&waves_layout)),
    /* AMD devices answer the same functions (docs/amd.md, "The other queries") */
    ROW(gpuocc_limit_warps, call_limit_warps, AMD_DEVICE, I32_(256), OUT_I32),
    ROW(gpuocc_limit_registers, call_limit_registers, AMD_DEVICE, I32_(256), I32_(64), OUT_I32),
    ROW(gpuocc_limit_shared_memory, call_limit_shared_memory, AMD_DEVICE, AMD_KERNEL, OUT_I32),
    ROW(gpuocc_limit_barriers, call_limit_barriers, AMD_DEVICE, I32_(1), OUT_I32),
    ROW(gpuocc_regs_per_block, call_regs_per_block, AMD_DEVICE, I32_(256), I32_(64), OUT_I64),
    ROW(gpuocc_smem_carveout, call_smem_carveout, AMD_DEVICE, AMD_KERNEL, OUT_BYTES),
    ROW(gpuocc_occupancy, call_occupancy, AMD_DEVICE, AMD_KERNEL, OUT(&result_layout)),
    ROW(gpuocc_regs_max_for_blocks, call_regs_max_for_blocks, AMD_DEVICE, AMD_KERNEL, I32_(2), OUT_I32),
    ROW(gpuocc_smem_dynamic_available, call_smem_dynamic_available, AMD_DEVICE, AMD_KERNEL, I32_(2), OUT_BYTES),
    ROW(gpuocc_max_stages, call_max_stages, AMD_DEVICE, AMD_KERNEL, I32_(2), I64_(1024), I64_(4096), OUT_I64),
    ROW(gpuocc_next_step, call_next_step, AMD_DEVICE, AMD_KERNEL, I32_(GPUOCC_RESOURCE_REGISTERS), OUT_BYTES,
        OUT_BYTES),
    ROW(gpuocc_next_step, call_next_step, AMD_DEVICE, AMD_KERNEL, I32_(GPUOCC_RESOURCE_SGPRS), OUT_BYTES,
        OUT_BYTES),
    ROW(gpuocc_next_steps, call_next_steps, AMD_DEVICE, AMD_KERNEL, OUT_ARRAY(&next_step_layout, GPUOCC_STEPS_MAX),
        COUNT_(GPUOCC_STEPS_MAX), OUT_COUNT),
    ROW(gpuocc_best_block_affine, call_best_block_affine, AMD_DEVICE, AMD_KERNEL, I64_(1024), I64_(64), OUT_I32,
        OUT_I32),
    ROW(gpuocc_sweep_steps, call_sweep_steps, AMD_DEVICE, AMD_KERNEL, I32_(GPUOCC_AXIS_REGS), I64_(0), I64_(256),
        OUT_ARRAY(&sweep_layout, 256), COUNT_(256), OUT_COUNT),
    ROW(gpuocc_prepare, call_prepare, AMD_DEVICE, OUT_EXACT(&prepared_layout)),
    ROW(gpuocc_occupancy_batch, call_occupancy_batch, IN_EXACT(&prepared_layout, init_amd_prepared), AMD_KERNEL,
        IN(&batch_layout, init_batch), SIZE_COUNT_(BATCH_N)),
    ROW(gpuocc_occupancy_prepared, call_occupancy_prepared, IN_EXACT(&prepared_layout, init_amd_prepared),
        AMD_KERNEL, OUT(&result_layout)),
};
#define N_ROWS (sizeof rows / sizeof rows[0])

/* ---- the driver ----------------------------------------------------------------------------------- */

static void run_row(const row *r)
{
    if (r->custom) {
        r->custom();
        return;
    }
    arg a[MAX_ARGS];
    int n = make_args(r, a);
    cr_assert_lt(n, MAX_ARGS);
    /* the baseline is valid, and pure: the same answer twice */
    cr_assert_eq(check_call(r, a, n, GPUOCC_OK, "baseline"), GPUOCC_OK, "%s: baseline", r->name);
    arg b[MAX_ARGS];
    make_args(r, b);
    check_call(r, b, n, GPUOCC_OK, "baseline again");
    for (int k = 0; k < n; k++)
        if (is_output(a[k].sp->kind))
            cr_expect_eq(memcmp(a[k].mem, b[k].mem, a[k].len), 0, "%s: baseline not reproducible", r->name);
    free_args(b, n);

    for (int k = 0; k < n; k++) {
        const spec *s = a[k].sp;
        switch (s->kind) {
        case K_I32:
        case K_I64:
        case K_DBL:
        case K_COUNT:
        case K_SIZE_COUNT:
        case K_LEN:
            each_mutation(r, k, mutate_scalar, scalar_count(s->kind));
            break;
        case K_STR:
            each_mutation(r, k, mutate_null, 1);
            break;
        case K_TEXT:
            each_mutation(r, k, mutate_null, 1);
            each_mutation(r, k, mutate_text, 4);
            break;
        case K_IN:
            each_mutation(r, k, mutate_null, 1);
            each_mutation(r, k, mutate_size, 8);
            each_mutation(r, k, mutate_field, field_slots(s->lay) * MAX_VALUES);
            break;
        case K_OUT:
            each_mutation(r, k, mutate_null, 1);
            if (!(s->flags & F_NOSIZE))
                each_mutation(r, k, mutate_size, 8);
            break;
        case K_OUT_I32:
        case K_OUT_I64:
        case K_OUT_BYTES:
        case K_OUT_DBL:
        case K_OUT_STR:
        case K_OUT_ARRAY:
            each_mutation(r, k, mutate_null, 1);
            break;
        case K_ARR_I32:
        case K_ARR_I64:
            each_mutation(r, k, mutate_null, 1);
            each_mutation(r, k, mutate_element, s->kind == K_ARR_I32 ? NV(i32_values) : NV(i64_values));
            break;
        case K_ARR_DBL:
            each_mutation(r, k, mutate_null, 1);
            each_mutation(r, k, mutate_element, N_DBL);
            break;
        case K_FN:
            each_mutation(r, k, mutate_fn, 3);
            break;
        default:
            break;
        }
    }
    free_args(a, n);
}

/* One Criterion test per row would need one function per symbol; a parameterized test gives each row its
   own test case and report line instead. */
ParameterizedTestParameters(contract, every_function)
{
    static size_t index[N_ROWS];
    for (size_t i = 0; i < N_ROWS; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, N_ROWS);
}

ParameterizedTest(size_t *i, contract, every_function)
{
    cr_log_info("%s", rows[*i].name);
    run_row(&rows[*i]);
}

/* The batch's outputs are in arrays the generic rows cannot see: each launch, hostile ones included, must
   be exactly what gpuocc_occupancy says of it (status, and the fields when OK: finite, never saturated). */
Test(contract, batch_launches_match_single_calls)
{
    gpuocc_prepared prep;
    init_prepared(&prep);
    gpuocc_kernel base;
    init_kernel(&base);
    gpuocc_batch b;
    init_batch(&b);
    memset(batch_status, PATTERN, sizeof batch_status);
    cr_assert_eq(gpuocc_occupancy_batch(&prep, &base, &b, BATCH_N), GPUOCC_OK);
    gpuocc_device d;
    init_h100(&d);
    for (int i = 0; i < BATCH_N; i++) {
        gpuocc_kernel k = base;
        k.threads_per_block = batch_threads[i];
        k.regs_per_thread = batch_regs[i];
        k.smem_dynamic_bytes = batch_smem[i];
        gpuocc_result r = {.size = sizeof r};
        int32_t rc = gpuocc_occupancy(&d, &k, &r);
        cr_expect_eq(batch_status[i], rc, "launch %d: batch %s, single %s", i, gpuocc_status_name(batch_status[i]),
                     gpuocc_status_name(rc));
        if (rc == GPUOCC_OK && batch_status[i] == GPUOCC_OK) {
            cr_expect_eq(batch_blocks[i], r.blocks_per_sm, "launch %d", i);
            cr_expect_eq(batch_warps[i], r.warps_per_sm, "launch %d", i);
            cr_expect(isfinite(batch_occupancy[i]) && batch_occupancy[i] == r.occupancy, "launch %d", i);
            cr_expect_eq(batch_smem_block[i], r.smem_per_block_bytes, "launch %d", i);
            cr_expect_lt(batch_smem_block[i], BYTES_SATURATED, "launch %d", i);
        }
    }
}

/* Every exported symbol (tests/data/symbols.txt) has a row, and every row names an exported symbol. */
Test(contract, every_symbol_has_a_row)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/symbols.txt", DATA_DIR);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    char line[256];
    size_t symbols = 0;
    bool listed[N_ROWS] = {false};
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0])
            continue;
        symbols++;
        bool found = false;
        for (size_t i = 0; i < N_ROWS; i++)
            if (strcmp(rows[i].name, line) == 0)
                found = listed[i] = true;
        cr_expect(found, "exported symbol %s has no row in tests/test_contract.c (see the top of the file)", line);
    }
    fclose(f);
    cr_expect_gt(symbols, 0);
    for (size_t i = 0; i < N_ROWS; i++)
        cr_expect(listed[i], "row %s is not an exported symbol (tests/data/symbols.txt)", rows[i].name);
}

/* ---- gpuocc_occupancy_prepared: gpuocc_occupancy's answers and errors, and a prepared state that was
   changed is refused, never read out of bounds ---- */
static uint64_t prepared_seed = 0x2545f4914f6cdd1du;
static int64_t prepared_draw(int64_t n)
{
    prepared_seed = prepared_seed * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((prepared_seed >> 33) % (uint64_t)n);
}

static void prepared_random_kernel(gpuocc_kernel *k, bool amd)
{
    gpuocc_kernel_init(k);
    k->threads_per_block = (int32_t)prepared_draw(1100) - 2; /* a few invalid, a few past the block limit */
    k->regs_per_thread = (int32_t)prepared_draw(300) - 1;
    k->smem_static_bytes = prepared_draw(60000) - (prepared_draw(50) == 0);
    k->smem_dynamic_bytes = prepared_draw(8) == 0 ? prepared_draw(300000) : prepared_draw(40000);
    if (!amd) {
        k->barriers = (int32_t)prepared_draw(20);
        k->carveout_percent = (int32_t)prepared_draw(103) - 2;
        k->smem_optin = (int32_t)prepared_draw(2);
        k->smem_dynamic_max_bytes = prepared_draw(4) == 0 ? prepared_draw(100000) : -1;
        /* none, or a few to past the 128 an SM of cc 10.x-12.x has */
        k->virtual_resources = prepared_draw(3) == 0 ? 0 : (int32_t)prepared_draw(300);
    } else {
        k->wave_size = prepared_draw(2) ? 64 : 0;
    }
    if (prepared_draw(200) == 0)
        k->reserved[0] = 1; /* GPUOCC_ERR_RESERVED */
}

Test(contract, prepared_single_call_equals_gpuocc_occupancy)
{
    int32_t count = gpuocc_catalog_count();
    for (int32_t e = 0; e < count; e++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(e, &d), GPUOCC_OK);
        gpuocc_prepared prep = {.size = sizeof prep};
        cr_assert_eq(gpuocc_prepare(&d, &prep), GPUOCC_OK);
        for (int i = 0; i < 400; i++) {
            gpuocc_kernel k;
            prepared_random_kernel(&k, d.vendor == GPUOCC_VENDOR_AMD);
            gpuocc_result want, got;
            memset(&want, 0x5a, sizeof want);
            memset(&got, 0x5a, sizeof got);
            want.size = got.size = sizeof want;
            int32_t rc_want = gpuocc_occupancy(&d, &k, &want), rc_got = gpuocc_occupancy_prepared(&prep, &k, &got);
            cr_assert_eq(rc_got, rc_want, "%s launch %d: prepared %s, single %s", gpuocc_catalog_name(e), i,
                         gpuocc_status_name(rc_got), gpuocc_status_name(rc_want));
            cr_assert_eq(memcmp(&got, &want, sizeof got), 0, "%s launch %d: results differ", gpuocc_catalog_name(e), i);
        }
    }
}

static int32_t shift_or_minus_one(int32_t unit)
{
    for (int32_t s = 0; s < 31; s++)
        if (unit == (int32_t)1 << s)
            return s;
    return -1;
}

/* The layout of gpuocc_prepared (0.2.0's final one: size, magic "goc2", the checked device, NVIDIA's derived
   values), and the values gpuocc_prepare derives, computed here from the device's fields as the header
   documents them; zero for another vendor. */
Test(contract, prepared_layout_and_derived_values)
{
    cr_assert_eq(sizeof(gpuocc_prepared), 624);
    cr_assert_eq(offsetof(gpuocc_prepared, device), 8);
    cr_assert_eq(offsetof(gpuocc_prepared, nvidia), 408);
    cr_assert_eq(sizeof(gpuocc_prepared_nvidia), 216);
    cr_assert_eq(offsetof(gpuocc_prepared_nvidia, carveouts_kib), 88);
    cr_assert_eq(offsetof(gpuocc_prepared_nvidia, smem_per_sm_bytes), 152);
    cr_assert_eq(offsetof(gpuocc_prepared_nvidia, reserved), 184);
    cr_assert_eq(GPUOCC_PREPARED_MAGIC, 0x32636f67u);
    int32_t count = gpuocc_catalog_count();
    for (int32_t e = 0; e < count; e++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(e, &d), GPUOCC_OK);
        gpuocc_prepared p;
        memset(&p, 0x5a, sizeof p);
        p.size = sizeof p;
        cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
        cr_assert_eq(p.magic, GPUOCC_PREPARED_MAGIC);
        cr_assert_eq(memcmp(&p.device, &d, sizeof d), 0, "%s: the stored device", gpuocc_catalog_name(e));
        gpuocc_prepared_nvidia want;
        memset(&want, 0, sizeof want);
        if (d.vendor == GPUOCC_VENDOR_NVIDIA) {
            want.warp_size = d.warp_size;
            want.warp_shift = shift_or_minus_one(d.warp_size);
            want.reg_alloc_unit = d.reg_alloc_unit;
            want.reg_alloc_shift = shift_or_minus_one(d.reg_alloc_unit);
            want.sub_partitions = d.sub_partitions;
            want.sub_partition_shift = shift_or_minus_one(d.sub_partitions);
            want.reg_compat_sub_partitions = d.reg_compat_sub_partitions;
            want.reg_compat_shift = shift_or_minus_one(d.reg_compat_sub_partitions);
            want.smem_alloc_unit_bytes = d.smem_alloc_unit_bytes;
            want.smem_alloc_shift = shift_or_minus_one(d.smem_alloc_unit_bytes);
            want.max_threads_per_block = d.max_threads_per_block;
            want.max_warps_per_sm = d.max_threads_per_sm / d.warp_size;
            want.max_blocks_per_sm = d.max_blocks_per_sm;
            want.regs_per_thread_max = d.regs_per_thread_max;
            want.regs_per_block = d.regs_per_block;
            want.regs_per_sub_partition = d.regs_per_sm / d.sub_partitions;
            want.regs_per_compat_sub_partition =
                d.reg_compat_sub_partitions ? d.regs_per_sm / d.reg_compat_sub_partitions : 0;
            want.barriers_per_sm = d.barriers_per_sm;
            want.barriers_per_block_max = d.barriers_per_block_max ? d.barriers_per_block_max : 16;
            want.virtual_resources_per_sm = d.virtual_resources_per_sm;
            want.tmem_columns_per_sm = d.tmem_columns_per_sm;
            want.carveout_count = d.carveout_count;
            memcpy(want.carveouts_kib, d.carveouts_kib, sizeof want.carveouts_kib);
            want.smem_per_sm_bytes = d.smem_per_sm_bytes;
            want.smem_per_block_bytes = d.smem_per_block_bytes;
            want.smem_per_block_optin_bytes = d.smem_per_block_optin_bytes;
            want.smem_reserved_per_block_bytes = d.smem_reserved_per_block_bytes;
            cr_assert_geq(want.warp_shift, 0, "%s: NVIDIA's units are powers of two", gpuocc_catalog_name(e));
            cr_assert_geq(want.reg_alloc_shift, 0);
            cr_assert_geq(want.sub_partition_shift, 0);
            cr_assert_geq(want.smem_alloc_shift, 0);
        }
        cr_assert_eq(memcmp(&p.nvidia, &want, sizeof want), 0, "%s: the derived values", gpuocc_catalog_name(e));
    }
    /* a unit that is not a power of two: shift -1, the unit kept */
    gpuocc_device odd = {.size = sizeof odd};
    cr_assert_eq(gpuocc_device_lookup("sm_80", &odd), GPUOCC_OK);
    odd.warp_size = 24, odd.max_threads_per_sm = 24 * 64, odd.reg_alloc_unit = 192, odd.smem_alloc_unit_bytes = 96;
    cr_assert_eq(gpuocc_device_validate(&odd), GPUOCC_OK);
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&odd, &p), GPUOCC_OK);
    cr_expect_eq(p.nvidia.warp_size, 24);
    cr_expect_eq(p.nvidia.warp_shift, -1);
    cr_expect_eq(p.nvidia.reg_alloc_shift, -1);
    cr_expect_eq(p.nvidia.smem_alloc_shift, -1);
    cr_expect_eq(p.nvidia.max_warps_per_sm, 64);
    cr_expect_eq(p.nvidia.sub_partition_shift, 2);
    cr_expect_eq(p.nvidia.reg_compat_shift, -1); /* no compatibility split */
}

Test(contract, prepared_single_call_errors)
{
    gpuocc_device d = {.size = sizeof d};
    cr_assert_eq(gpuocc_device_lookup("H100", &d), GPUOCC_OK);
    gpuocc_prepared prep = {.size = sizeof prep};
    cr_assert_eq(gpuocc_prepare(&d, &prep), GPUOCC_OK);
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.threads_per_block = 256;
    gpuocc_result r = {.size = sizeof r};
    cr_expect_eq(gpuocc_occupancy_prepared(NULL, &k, &r), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_occupancy_prepared(&prep, NULL, &r), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_occupancy_prepared(&prep, &k, NULL), GPUOCC_ERR_NULL);
    gpuocc_prepared zero = {.size = sizeof zero}; /* never prepared */
    cr_expect_eq(gpuocc_occupancy_prepared(&zero, &k, &r), GPUOCC_ERR_DEVICE);
    /* only this layout's size: smaller, larger (a size word raised to 4096 reads nothing past the struct:
       run under ASan) */
    const uint32_t sizes[] = {16, sizeof prep - 8, sizeof prep + 8, 4096, 4097, UINT32_MAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        prep.size = sizes[i];
        cr_expect_eq(gpuocc_occupancy_prepared(&prep, &k, &r), GPUOCC_ERR_STRUCT_SIZE, "size %u", sizes[i]);
        gpuocc_prepared fresh = {.size = sizes[i]};
        cr_expect_eq(gpuocc_prepare(&d, &fresh), GPUOCC_ERR_STRUCT_SIZE, "size %u", sizes[i]);
    }
    prep.size = sizeof prep;
    prep.magic ^= 1;
    cr_expect_eq(gpuocc_occupancy_prepared(&prep, &k, &r), GPUOCC_ERR_DEVICE);
    prep.magic ^= 1;
    cr_expect_eq(gpuocc_occupancy_prepared(&prep, &k, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, 8); /* 64 warp slots / 8 warps */
}

/* Every bit of a prepared state past its size word changed in turn (one flip, and two flips of opposite sign
   that would cancel in a sum), and states of random bytes.  An AMD or Intel state answers exactly as
   gpuocc_occupancy answers for the changed device where it is valid, and is refused (GPUOCC_ERR_DEVICE: checked
   as a caller's) where it is not; its `nvidia` block is never read.  An NVIDIA state's rule reads the stored
   values (`nvidia`), not the stored device: a change to the device past its size and vendor words changes
   nothing, and a change to the values gives some answer with a known status, never a read past the struct
   or undefined behaviour (the sanitized build runs this). */
Test(contract, prepared_state_corrupted_is_refused)
{
    const char *names[] = {"H100", "sm_60", "MI300X", "B580"};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_device_lookup(names[n], &d), GPUOCC_OK);
        gpuocc_prepared good = {.size = sizeof good};
        cr_assert_eq(gpuocc_prepare(&d, &good), GPUOCC_OK);
        cr_assert_eq(good.magic, GPUOCC_PREPARED_MAGIC);
        cr_assert_eq(memcmp(&good.device, &d, sizeof d), 0, "the stored device is the checked one");
        gpuocc_kernel k;
        gpuocc_kernel_init(&k);
        k.threads_per_block = 256, k.smem_dynamic_bytes = 4096;
        if (d.vendor != GPUOCC_VENDOR_INTEL)
            k.regs_per_thread = 64;
        gpuocc_result unchanged = {.size = sizeof unchanged};
        cr_assert_eq(gpuocc_occupancy(&d, &k, &unchanged), GPUOCC_OK);
        enum { LONG = 100 };
        int32_t status[LONG], blocks[LONG];
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = status, .blocks_per_sm = blocks};
        size_t first = offsetof(gpuocc_prepared, device), device_end = first + sizeof d;
        for (size_t bit = 8 * first; bit < 8 * sizeof good; bit++) {
            gpuocc_prepared bad = good;
            unsigned char *bytes = (unsigned char *)&bad;
            size_t at = bit / 8;
            bytes[at] ^= (unsigned char)(1u << (bit % 8));
            /* a second flip the other way, a word later, within the same part */
            size_t part_end = at < device_end ? device_end : sizeof bad;
            if (bit % 3 == 0 && at + 8 < part_end)
                bytes[at + 8] ^= (unsigned char)(1u << (bit % 8));
            bool in_device = at < device_end;
            gpuocc_result want = {.size = sizeof want}, r = {.size = sizeof r};
            int32_t rc = gpuocc_occupancy_prepared(&bad, &k, &r);
            int32_t rc_short = gpuocc_occupancy_batch(&bad, &k, &b, 1);
            int32_t rc_long = gpuocc_occupancy_batch(&bad, &k, &b, LONG);
            cr_assert_eq(rc_long, rc_short, "%s: bit %zu", names[n], bit);
            bool size_ok = bad.device.size == sizeof d;
            bool nvidia = bad.device.vendor == GPUOCC_VENDOR_NVIDIA; /* the stored vendor word decides */
            if (!size_ok) {
                cr_assert_eq(rc, GPUOCC_ERR_DEVICE, "%s: bit %zu", names[n], bit);
                cr_assert_eq(rc_short, GPUOCC_ERR_DEVICE, "%s: bit %zu", names[n], bit);
            } else if (nvidia && (d.vendor != GPUOCC_VENDOR_NVIDIA || !in_device)) {
                /* values changed (or zero: a state of another vendor turned NVIDIA): some answer, in bounds */
                cr_assert(rc <= 0 && strcmp(gpuocc_status_name(rc), "unknown") != 0, "%s: bit %zu", names[n], bit);
                cr_assert_eq(rc_short, GPUOCC_OK, "%s: bit %zu", names[n], bit);
                cr_assert(status[0] <= 0 && strcmp(gpuocc_status_name(status[0]), "unknown") != 0, "%s: bit %zu",
                          names[n], bit);
            } else if (nvidia) {
                /* the stored device is not what NVIDIA's rule reads: the unchanged answer */
                cr_assert_eq(rc, GPUOCC_OK, "%s: bit %zu", names[n], bit);
                cr_assert_eq(memcmp(&r, &unchanged, sizeof r), 0, "%s: bit %zu", names[n], bit);
                cr_assert_eq(rc_short, GPUOCC_OK, "%s: bit %zu", names[n], bit);
                cr_assert_eq(blocks[LONG - 1], unchanged.blocks_per_sm, "%s: bit %zu", names[n], bit);
            } else {
                /* AMD or Intel (or a vendor word no vendor has): the stored device, checked as a caller's */
                bool device_ok = gpuocc_device_validate(&bad.device) == GPUOCC_OK;
                int32_t rc_want = device_ok ? gpuocc_occupancy(&bad.device, &k, &want) : GPUOCC_ERR_DEVICE;
                cr_assert_eq(rc, rc_want, "%s: bit %zu", names[n], bit);
                if (rc == GPUOCC_OK)
                    cr_assert_eq(memcmp(&r, &want, sizeof r), 0, "%s: bit %zu", names[n], bit);
                cr_assert_eq(rc_short, device_ok ? GPUOCC_OK : GPUOCC_ERR_DEVICE, "%s: bit %zu", names[n], bit);
                if (device_ok) {
                    cr_assert_eq(status[LONG - 1], rc_want, "%s: bit %zu", names[n], bit);
                    if (rc_want == GPUOCC_OK)
                        cr_assert_eq(blocks[LONG - 1], want.blocks_per_sm, "%s: bit %zu", names[n], bit);
                }
            }
        }
        for (int t = 0; t < 200; t++) { /* states of random bytes, with the magic word or without */
            gpuocc_prepared foreign = {.size = sizeof foreign};
            unsigned char *bytes = (unsigned char *)&foreign;
            for (size_t i = sizeof foreign.size; i < sizeof foreign; i++)
                bytes[i] = (unsigned char)prepared_draw(256);
            if (t % 2)
                foreign.magic = GPUOCC_PREPARED_MAGIC;
            gpuocc_result r = {.size = sizeof r};
            cr_assert_eq(gpuocc_occupancy_prepared(&foreign, &k, &r), GPUOCC_ERR_DEVICE);
            cr_assert_eq(gpuocc_occupancy_batch(&foreign, &k, &b, 1), GPUOCC_ERR_DEVICE);
            cr_assert_eq(gpuocc_occupancy_batch(&foreign, &k, &b, LONG), GPUOCC_ERR_DEVICE);
        }
        /* NVIDIA's values of random bytes behind a valid header (a forged state): some answer with a known
           status for random launches, never undefined behaviour or a read past the struct */
        for (int t = 0; t < 300; t++) {
            gpuocc_prepared forged = good;
            forged.device.vendor = GPUOCC_VENDOR_NVIDIA;
            unsigned char *bytes = (unsigned char *)&forged.nvidia;
            for (size_t i = 0; i < sizeof forged.nvidia; i++)
                bytes[i] = (unsigned char)(t % 3 == 0 ? 0xff * (prepared_draw(2)) : prepared_draw(256));
            gpuocc_kernel launch;
            prepared_random_kernel(&launch, false);
            gpuocc_result r = {.size = sizeof r};
            int32_t rc = gpuocc_occupancy_prepared(&forged, &launch, &r);
            cr_assert(rc <= 0 && strcmp(gpuocc_status_name(rc), "unknown") != 0, "%s: forged state %d", names[n], t);
            /* the base kernel's own errors refuse the batch; else every row has a known status */
            int32_t rc_batch = gpuocc_occupancy_batch(&forged, &launch, &b, LONG);
            cr_assert(rc_batch <= 0 && strcmp(gpuocc_status_name(rc_batch), "unknown") != 0);
            if (rc_batch == GPUOCC_OK)
                cr_assert(strcmp(gpuocc_status_name(status[LONG - 1]), "unknown") != 0);
        }
    }
}
