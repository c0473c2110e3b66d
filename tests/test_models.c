/*
 * Beyond occupancy: each model against numbers derived outside the code: the seeds' Examples 5, 7, 8,
 * Volkov 2016 / 2010, and the worked vectors TV1-TV14 of docs/sources.md (each with its primary source).
 */
#include "common.h"

#include <float.h>
#include <math.h>
#include <string.h>

Test(models, volkov_maxwell_arithmetic_and_memory)
{
    double w = 0;
    /* TV1: 6-cycle FADD at 4 IPC -> 24 warps */
    cr_expect_eq(gpuocc_warps_needed(6, 4, 1, &w), GPUOCC_OK);
    cr_expect_float_eq(w, 24.0, 1e-12);
    /* TV2: 368 cycles at 10.4 B/cycle/SM of 128-byte warp loads -> 29.9 ("about 30") */
    gpuocc_warps_needed(368, 10.4 / 128, 1, &w);
    cr_expect_float_eq(w, 29.9, 0.01);
    /* TV4: FFMA latency 4 at min(4 issue, 128 lanes / 32) on H100: 16 warps, 4 with ILP 4 */
    gpuocc_warps_needed(4, 4, 1, &w);
    cr_expect_float_eq(w, 16.0, 1e-12);
    gpuocc_warps_needed(4, 4, 4, &w);
    cr_expect_float_eq(w, 4.0, 1e-12);
    gpuocc_warps_needed(4, 2, 1, &w); /* A100: 64 lanes -> 2 per cycle: 8 warps */
    cr_expect_float_eq(w, 8.0, 1e-12);
}

Test(models, volkov_cusp)
{
    double alpha = 0, w = 0;
    /* TV3: alpha* = 4 / 0.08125 = 49.23, n_max = 24 + 29.9 = 53.9 */
    cr_expect_eq(gpuocc_mix_cusp(6, 4, 368, 0.08125, &alpha, &w), GPUOCC_OK);
    cr_expect_float_eq(alpha, 49.23, 0.01);
    cr_expect_float_eq(w, 53.9, 0.01);
    /* n(alpha) = (368 + 6 alpha) x min(0.08125, 4 / alpha): 34.77, 38.72, 25.47 */
    const double a[] = {10, 100, 1000}, want[] = {34.775, 38.72, 25.472};
    for (int i = 0; i < 3; i++) {
        gpuocc_mix_warps_needed(a[i], 6, 4, 368, 0.08125, 0, &w);
        cr_expect_float_eq(w, want[i], 0.001, "alpha %g", a[i]);
    }
    /* alpha 0: memory alone, 368 x 0.08125 */
    gpuocc_mix_warps_needed(0, 6, 4, 368, 0.08125, 0, &w);
    cr_expect_float_eq(w, 29.9, 0.001);
    /* The issue term binds: alpha 4, alu 3 cycles, mem 12 cycles, 1 IPC of issue:
       (12 + 4 x 3) x min(1, 1 / 4, 1 / 5) = 24 x 0.2 = 4.8 warps */
    gpuocc_mix_warps_needed(4, 3, 1, 12, 1, 1, &w);
    cr_expect_float_eq(w, 24.0 / 5.0, 1e-12);
}

Test(models, bytes_in_flight)
{
    double per_sm = 0, device = 0;
    /* TV5, Volkov GTC 2010: GTX 480, 177.4 GB/s, 800 cycles at 1.401 GHz = 571.0 ns, 15 SMs: 101.3 KB */
    cr_expect_eq(gpuocc_bytes_in_flight(177.4e9, 800 / 1.401, 15, &per_sm, &device), GPUOCC_OK);
    cr_expect_float_eq(device, 101.3e3, 0.1e3);
    cr_expect_float_eq(per_sm, 6.75e3, 0.01e3);
    /* TV6: A100-80, 2039 GB/s x 391.5 ns / 108 SMs: 798 KB, 7.39 KB per SM */
    gpuocc_bytes_in_flight(2039e9, 391.5, 108, &per_sm, &device);
    cr_expect_float_eq(device, 798.3e3, 0.1e3);
    cr_expect_float_eq(per_sm, 7.391e3, 0.001e3);
    cr_expect_eq(gpuocc_bytes_in_flight(2039e9, 0, 108, &per_sm, &device), GPUOCC_ERR_DOMAIN);
    cr_expect_eq(gpuocc_bytes_in_flight(NAN, 10, 108, &per_sm, &device), GPUOCC_ERR_NOT_FINITE);
    cr_expect_eq(gpuocc_bytes_in_flight(1e9, INFINITY, 108, &per_sm, &device), GPUOCC_ERR_NOT_FINITE);
    cr_expect_eq(gpuocc_bytes_in_flight(1e9, 10, 0, &per_sm, &device), GPUOCC_ERR_SM_COUNT);
    cr_expect_eq(gpuocc_bytes_in_flight(1e300, 1e300, 1, &per_sm, &device), GPUOCC_ERR_OVERFLOW);
}

Test(models, bandwidth_from_concurrency)
{
    /* TV13: A100-80 read kernel, 8 B per thread, L_eff 671 ns, 1908 GB/s saturated, 108 SMs.
       threads/SM 256 / 512 / 1024 / 2048: hard 330 / 659 / 1319 / 1908, smooth 329 / 652 / 1207 / 1726 */
    const double threads[] = {256, 512, 1024, 2048};
    const double hard[] = {330, 659, 1319, 1908}, smooth[] = {329, 652, 1207, 1726};
    for (int i = 0; i < 4; i++) {
        double bw = 0;
        gpuocc_bandwidth_at(8 * threads[i], 108, 671, 1908e9, 0, &bw);
        cr_expect_float_eq(bw / 1e9, hard[i], 1.0, "hard %g", threads[i]);
        gpuocc_bandwidth_at(8 * threads[i], 108, 671, 1908e9, GPUOCC_SMOOTH_K, &bw);
        cr_expect_float_eq(bw / 1e9, smooth[i], 1.5, "smooth %g", threads[i]);
    }
    /* TV14: 80 % of peak at the knee, 89.5 % at 1.33x, 92.7 % at 1.53x (Volkov: 90 % at 1.33x, 95 % at 1.53x) */
    double bw = 0;
    double knee = 671e-9 * 1908e9 / 108; /* bytes per SM at x = 1 */
    gpuocc_bandwidth_at(knee, 108, 671, 1908e9, GPUOCC_SMOOTH_K, &bw);
    cr_expect_float_eq(bw / 1908e9, 0.8, 1e-9);
    gpuocc_bandwidth_at(1.33 * knee, 108, 671, 1908e9, GPUOCC_SMOOTH_K, &bw);
    cr_expect_float_eq(bw / 1908e9, 0.895, 0.001);
    gpuocc_bandwidth_at(1.53 * knee, 108, 671, 1908e9, GPUOCC_SMOOTH_K, &bw);
    cr_expect_float_eq(bw / 1908e9, 0.927, 0.001);
    gpuocc_bandwidth_at(1e30, 108, 671, 1908e9, GPUOCC_SMOOTH_K, &bw);
    cr_expect_float_eq(bw, 1908e9, 1.0);
}

Test(models, seed_example7_latency_decision)
{
    /* L = 400 cycles x 4 issues per cycle = 1600 loads in flight.  The seed's band: 16-32 warps suffice
       (each warp overlapping 50 down to 100 of them across its unrolled loop); 32 warps (50 %) sit at the
       top of the band, so latency is hidden and 100 % is not worth chasing. */
    gpuocc_latency_verdict v = {.size = sizeof v};
    cr_expect_eq(gpuocc_latency_check(32, 400, 4, 50, &v), GPUOCC_OK);
    cr_expect_float_eq(v.in_flight, 1600, 1e-9);
    cr_expect_float_eq(v.warps_needed, 32, 1e-9);
    cr_expect_eq(v.hidden, 1);
    cr_expect_float_eq(v.extra_warps, 0, 1e-12);
    /* at 25 % (16 warps) it is not hidden: 16 more warps, or 100 loads in flight per warp */
    cr_expect_eq(gpuocc_latency_check(16, 400, 4, 50, &v), GPUOCC_OK);
    cr_expect_eq(v.hidden, 0);
    cr_expect_float_eq(v.extra_warps, 16, 1e-9);
    cr_expect_float_eq(v.ilp_needed, 100, 1e-9);
    cr_expect_eq(gpuocc_latency_check(16, -1, 4, 1, &v), GPUOCC_ERR_DOMAIN);
    cr_expect_eq(gpuocc_latency_check(16, 400, 4, 0.5, &v), GPUOCC_ERR_DOMAIN);
}

Test(models, seed_example8_spill_slowdown)
{
    double s = 0;
    /* 2 spill loads x 300 cycles on 256 cycles of FMA work: 856 / 256 = 3.34375 */
    cr_expect_eq(gpuocc_spill_slowdown(256, 2, 300, &s), GPUOCC_OK);
    cr_expect_float_eq(s, 3.34375, 1e-12);
    cr_expect_eq(gpuocc_spill_slowdown(0, 2, 300, &s), GPUOCC_ERR_DOMAIN);
}

Test(models, spill_traffic_tv12)
{
    /* A100-80: 108 x 2048 threads, 1000 iterations, 8 B spill load + 8 B store each (8-byte accesses),
       L2 5.45 TB/s, DRAM 1.73 TB/s, 1.41 GHz.  B = 3.539 GB; LSU 13.8 M warp-instructions = 91 us;
       h1 = 0.9: t_L2 = 65 us, so 91 us; h1 = 0: t_L2 = 649 us; all to DRAM: 2.05 ms */
    gpuocc_spill_input in;
    gpuocc_spill_input_init(&in);
    in.sm_count = 108;
    in.spill_load_bytes = 8;
    in.spill_store_bytes = 8;
    in.executions = 1000;
    in.threads = 108 * 2048;
    in.access_bytes = 8;
    in.l1_hit_rate = 0.9;
    in.l2_hit_rate = 1;
    in.l2_bandwidth_bytes_per_s = 5.45e12;
    in.dram_bandwidth_bytes_per_s = 1.73e12;
    in.clock_hz = 1.41e9;
    gpuocc_spill_cost c = {.size = sizeof c};
    cr_assert_eq(gpuocc_spill_estimate(&in, &c), GPUOCC_OK);
    cr_expect_float_eq(c.local_bytes, 3.539e9, 0.001e9);
    cr_expect_float_eq(c.instructions, 13.8e6, 0.1e6);
    cr_expect_float_eq(c.l2_s * 1e6, 65, 1);
    cr_expect_float_eq(c.issue_s * 1e6, 91, 1);
    cr_expect_float_eq(c.spill_s * 1e6, 91, 1);
    in.l1_hit_rate = 0;
    gpuocc_spill_estimate(&in, &c);
    cr_expect_float_eq(c.l2_s * 1e6, 649, 1);
    in.l2_hit_rate = 0;
    gpuocc_spill_estimate(&in, &c);
    cr_expect_float_eq(c.dram_s * 1e3, 2.05, 0.01);
    in.l1_hit_rate = 1.5;
    cr_expect_eq(gpuocc_spill_estimate(&in, &c), GPUOCC_ERR_DOMAIN);
}

Test(models, register_tradeoff_staircase)
{
    /* A100, 256 threads at 128 regs: 2 blocks.  Caps that raise blocks (per sub-partition: 2 warps per
       block): 80 regs -> 3, 64 -> 4, 48 -> 5, 40 -> 6, 32 -> 8 (7 is skipped: 36 regs = 1280 per warp
       gives 12 per sub-partition = 6 blocks) */
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 128, 0, 0);
    gpuocc_tradeoff_step steps[8];
    int32_t n = 0;
    cr_assert_eq(gpuocc_tradeoff(&d, &k, 256, 1, 300, steps, 8, &n), GPUOCC_OK);
    cr_assert_eq(n, 5);
    const int32_t caps[] = {80, 64, 48, 40, 32}, blocks[] = {3, 4, 5, 6, 8};
    for (int i = 0; i < 5; i++) {
        cr_expect_eq(steps[i].regs_per_thread, caps[i]);
        cr_expect_eq(steps[i].blocks_per_sm, blocks[i]);
        cr_expect_eq(steps[i].regs_shed, 128 - caps[i]);
    }
    /* the first step sheds 48 registers: (256 + 48 x 300) / 256 = 57.25 */
    cr_expect_float_eq(steps[0].spill_slowdown, 57.25, 1e-9);
    cr_expect_eq(gpuocc_tradeoff(&d, &k, 256, 1, 300, steps, 2, &n), GPUOCC_ERR_BUFFER);
    cr_expect_eq(n, 5);
}

Test(models, waves)
{
    /* 300 blocks at 264 per wave (132 SMs x 2): 2 waves, the second 36 blocks = 13.6 % full */
    gpuocc_waves_result w = {.size = sizeof w};
    cr_assert_eq(gpuocc_waves(300, 132, 2, &w), GPUOCC_OK);
    cr_expect_eq(w.blocks_per_wave, 264);
    cr_expect_eq(w.full_waves, 1);
    cr_expect_eq(w.waves, 2);
    cr_expect_eq(w.last_wave_blocks, 36);
    cr_expect_float_eq(w.last_wave_utilization, 0.136, 0.001);
    cr_expect_float_eq(w.efficiency, 300.0 / 528.0, 1e-12);
    cr_expect_eq(w.grid_down, 264);
    cr_expect_eq(w.grid_up, 528);
    cr_assert_eq(gpuocc_waves(528, 132, 2, &w), GPUOCC_OK);
    cr_expect_eq(w.waves, 2);
    cr_expect_float_eq(w.efficiency, 1.0, 1e-12);
    cr_expect_eq(gpuocc_waves(INT64_MAX, INT32_MAX, INT32_MAX, &w), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_waves(INT64_MAX, 1, 1, &w), GPUOCC_OK);
    cr_expect_eq(w.waves, INT64_MAX);
    cr_expect_eq(gpuocc_waves(0, 132, 2, &w), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_waves(10, 0, 2, &w), GPUOCC_ERR_SM_COUNT);
}

Test(models, seed_example5_lanes)
{
    /* 1 thread per block: 1/32 of the lanes; at 50 % warp occupancy 1.5625 % useful lanes */
    double e = 0;
    cr_expect_eq(gpuocc_lane_efficiency(1, 32, &e), GPUOCC_OK);
    cr_expect_float_eq(e, 1.0 / 32, 1e-12);
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(1, 16, 0, 0);
    cr_expect_float_eq(test_occupancy(&d, &k).occupancy * e, 0.015625, 1e-12);
    gpuocc_lane_efficiency(100, 32, &e);
    cr_expect_float_eq(e, 100.0 / 128, 1e-12);
    cr_expect_eq(gpuocc_lane_efficiency(0, 32, &e), GPUOCC_ERR_THREADS);
}

Test(models, divergence_ncu_ratios)
{
    /* thread_inst_executed_per_inst_executed: 32 uniform, 16 for a 2-way split, 1 fully divergent */
    int32_t one[] = {32}, two[] = {16, 16}, all[32];
    double c1[] = {10}, c2[] = {10, 10}, c32[32];
    for (int i = 0; i < 32; i++)
        all[i] = 1, c32[i] = 10;
    double serial = 0, eff = 0;
    gpuocc_divergence(one, c1, 1, 32, &serial, &eff);
    cr_expect_float_eq(32 * eff, 32, 1e-12);
    gpuocc_divergence(two, c2, 2, 32, &serial, &eff);
    cr_expect_float_eq(32 * eff, 16, 1e-12);
    cr_expect_float_eq(serial, 20, 1e-12); /* both bodies run: ~2x */
    gpuocc_divergence(all, c32, 32, 32, &serial, &eff);
    cr_expect_float_eq(32 * eff, 1, 1e-12);
    int32_t too_many[] = {20, 20};
    cr_expect_eq(gpuocc_divergence(too_many, c2, 2, 32, &serial, &eff), GPUOCC_ERR_ARGUMENT);
}

/* E[1/k] by Stirling numbers of the second kind: P(k) = C(E, k) S(32, k) k! / E^32 */
static double expected_inverse_distinct(int e, int lanes)
{
    double s[33][33] = {{0}};
    s[0][0] = 1;
    for (int n = 1; n <= lanes; n++)
        for (int k = 1; k <= n; k++)
            s[n][k] = k * s[n - 1][k] + s[n - 1][k - 1];
    double total = 0;
    for (int k = 1; k <= e && k <= lanes; k++) {
        double falling = 1; /* E! / (E - k)! */
        for (int i = 0; i < k; i++)
            falling *= e - i;
        total += falling * s[lanes][k] / pow(e, lanes) / k;
    }
    return total;
}

Test(models, moe_routing)
{
    /* 8 experts, 32 lanes: 8 (1 - (7/8)^32) = 7.888 distinct paths per warp */
    gpuocc_routing_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_routing(8, 1024, 32, &r), GPUOCC_OK);
    cr_expect_float_eq(r.random_paths, 8 * (1 - pow(7.0 / 8, 32)), 1e-12);
    cr_expect_float_eq(r.random_paths, 7.888, 0.001);
    cr_expect_float_eq(r.random_efficiency, expected_inverse_distinct(8, 32), 1e-9);
    /* sorted: 1024 tokens = 32 warps, 7 group boundaries, each inside a warp with probability 31/32 */
    cr_expect_float_eq(r.sorted_paths, 1 + 7 * 31.0 / 32 / 32, 1e-12);
    cr_expect_float_eq(r.sorted_efficiency, 1 - 0.5 * 7 * 31.0 / 32 / 32, 1e-12);
    cr_assert_eq(gpuocc_routing(1, 64, 32, &r), GPUOCC_OK);
    cr_expect_float_eq(r.random_efficiency, 1.0, 1e-12);
    cr_expect_eq(gpuocc_routing(0, 64, 32, &r), GPUOCC_ERR_ARGUMENT);
}

Test(models, diagnose_and_roofline)
{
    const char *meaning = NULL, *advice = NULL;
    int32_t helps = -1;
    cr_assert_eq(gpuocc_diagnose(GPUOCC_STALL_LONG_SCOREBOARD, 0.15, &meaning, &advice, &helps), GPUOCC_OK);
    cr_expect_eq(helps, 1); /* the classic "add more warps" signal */
    gpuocc_diagnose(GPUOCC_STALL_LONG_SCOREBOARD, 0.75, &meaning, &advice, &helps);
    cr_expect_eq(helps, 0);
    gpuocc_diagnose(GPUOCC_STALL_MATH_PIPE, 0.15, &meaning, &advice, &helps);
    cr_expect_eq(helps, 0); /* compute bound: occupancy will not help */
    cr_expect_eq(gpuocc_stall_from_name("mio_throttle"), GPUOCC_STALL_MIO_THROTTLE);
    cr_expect_eq(gpuocc_diagnose(GPUOCC_STALL_COUNT, 0.5, &meaning, &advice, &helps), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_diagnose(0, NAN, &meaning, &advice, &helps), GPUOCC_ERR_NOT_FINITE);

    /* SAXPY on A100 (19.5 TFLOP/s FP32, 2039 GB/s): 2 FLOPs per 12 bytes, ridge 9.56 FLOP/B */
    double ai, ridge, attain;
    int32_t compute;
    cr_assert_eq(gpuocc_roofline(2, 12, 19.5e12, 2039e9, &ai, &ridge, &attain, &compute), GPUOCC_OK);
    cr_expect_float_eq(ai, 1.0 / 6, 1e-12);
    cr_expect_float_eq(ridge, 9.563, 0.001);
    cr_expect_float_eq(attain, 2039e9 / 6, 1e3);
    cr_expect_eq(compute, 0);
    gpuocc_roofline(2 * 4096.0 * 4096 * 4096, 3 * 4096.0 * 4096 * 2, 19.5e12, 2039e9, &ai, &ridge, &attain, &compute);
    cr_expect_eq(compute, 1);
    cr_expect_float_eq(attain, 19.5e12, 1);
}

Test(models, perf_constants)
{
    gpuocc_perf p = {.size = sizeof p};
    cr_assert_eq(gpuocc_perf_lookup("A100", &p), GPUOCC_OK);
    cr_expect_eq(p.sm_count, 108);
    cr_expect_float_eq(p.dram_bandwidth_gbps, 2039, 1e-9);  /* D6 */
    cr_expect_float_eq(p.dram_latency_cycles, 552, 1e-9);   /* RRZE a100_80 at 1410 MHz */
    cr_expect_float_eq(p.latency_clock_mhz, 1410, 1e-9);
    cr_expect_float_eq(p.bytes_in_flight_target, 16384, 1e-9); /* CUB: 16 KiB for A100 */
    cr_assert_eq(gpuocc_perf_lookup("H200", &p), GPUOCC_OK);
    cr_expect_float_eq(p.bytes_in_flight_target, 48 * 1024, 1e-9);
    cr_expect_float_eq(p.fp32_lanes, 128, 1e-9);
    cr_assert_eq(gpuocc_perf_lookup("T4", &p), GPUOCC_OK);
    cr_expect_float_eq(p.dram_latency_cycles, 0, 0); /* no published figure: unknown, not invented */
    cr_expect_eq(gpuocc_perf_lookup("nope", &p), GPUOCC_ERR_UNKNOWN_DEVICE);
}

/* When a step's spill slowdown overflows (work 1e-300, 1e300 accesses of 1e300
   cycles), the step's spill_slowdown was never written and the call returned OK. */
Test(models, tradeoff_slowdown_overflow_is_an_error)
{
    gpuocc_device d = test_device("A100");
    gpuocc_kernel k = test_kernel(256, 128, 0, 0);
    gpuocc_tradeoff_step steps[8];
    memset(steps, 0xA5, sizeof steps);
    unsigned char before[sizeof steps];
    memcpy(before, steps, sizeof steps);
    int32_t n = -9;
    cr_expect_eq(gpuocc_tradeoff(&d, &k, 1e-300, 1e300, 1e300, steps, 8, &n), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(n, -9);
    cr_expect_eq(memcmp(steps, before, sizeof steps), 0);
    /* shed x accesses alone overflows (48 x DBL_MAX) though every input is finite */
    cr_expect_eq(gpuocc_tradeoff(&d, &k, 1, DBL_MAX, 1, steps, 8, &n), GPUOCC_ERR_OVERFLOW);
    /* accesses x latency = 0: no slowdown at all, even with DBL_MAX accesses */
    cr_assert_eq(gpuocc_tradeoff(&d, &k, 1, DBL_MAX, 0, steps, 8, &n), GPUOCC_OK);
    cr_expect_eq(n, 5);
    for (int i = 0; i < n; i++)
        cr_expect_eq(steps[i].spill_slowdown, 1.0);
    /* with room for only the first step (48 shed, a small slowdown), the count is still returned */
    cr_expect_eq(gpuocc_tradeoff(&d, &k, 256, 1, 300, steps, 1, &n), GPUOCC_ERR_BUFFER);
    cr_expect_eq(n, 5);
    cr_expect_float_eq(steps[0].spill_slowdown, 57.25, 1e-9);
}

/* Finite inputs whose answer does not fit a double gave OK with an infinite result. */
Test(models, infinite_results_from_finite_inputs_are_overflow)
{
    double w = -1, a = -1, x = -1;
    int32_t cb = -1;
    cr_expect_eq(gpuocc_warps_needed(1e300, 1e300, 1, &w), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(w, -1);
    cr_expect_eq(gpuocc_mix_warps_needed(1, 1e300, 1e300, 1e300, 1e300, 0, &w), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_mix_warps_needed(DBL_MAX, 1e300, 1e300, 1, 1e300, 0, &w), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(w, -1);
    cr_expect_eq(gpuocc_mix_cusp(1e300, 1e300, 1, 1, &a, &w), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_mix_cusp(1, 1e300, 1, 1e-300, &a, &w), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(a, -1);
    cr_expect_eq(w, -1);
    /* the intensity fits, the ridge 1e300 / 1e-300 does not */
    cr_expect_eq(gpuocc_roofline(1, 1, 1e300, 1e-300, &a, &w, &x, &cb), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(a, -1);
    cr_expect_eq(w, -1);
    cr_expect_eq(x, -1);
    cr_expect_eq(cb, -1);
    gpuocc_latency_verdict v;
    memset(&v, 0xA5, sizeof v);
    v.size = sizeof v;
    gpuocc_latency_verdict before = v;
    cr_expect_eq(gpuocc_latency_check(1, 1e300, 1e300, 1, &v), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(memcmp(&v, &before, sizeof v), 0);
    /* in_flight = 1e310 does not fit */
    cr_expect_eq(gpuocc_latency_check(1, 1e300, 1e10, 1e10, &v), GPUOCC_ERR_OVERFLOW);
    /* no warps resident: the ILP that would hide the latency is infinite; no answer to report */
    cr_expect_eq(gpuocc_latency_check(0, 400, 4, 1, &v), GPUOCC_ERR_DOMAIN);
    cr_expect_eq(memcmp(&v, &before, sizeof v), 0);
}

/* The spill input's reserved words must be zero, as the header says of all structs. */
Test(models, spill_estimate_rejects_nonzero_reserved)
{
    for (int word = 0; word < 4; word++) {
        gpuocc_spill_input in;
        gpuocc_spill_input_init(&in);
        in.sm_count = 108;
        in.threads = 1024;
        in.l2_bandwidth_bytes_per_s = 5e12;
        in.dram_bandwidth_bytes_per_s = 2e12;
        in.clock_hz = 1.4e9;
        gpuocc_spill_cost c = {.size = sizeof c};
        cr_assert_eq(gpuocc_spill_estimate(&in, &c), GPUOCC_OK);
        in.reserved[word] = 1;
        gpuocc_spill_cost untouched;
        memset(&untouched, 0xA5, sizeof untouched);
        untouched.size = sizeof untouched;
        c = untouched;
        cr_expect_eq(gpuocc_spill_estimate(&in, &c), GPUOCC_ERR_RESERVED, "reserved[%d]", word);
        cr_expect_eq(memcmp(&c, &untouched, sizeof c), 0);
    }
}

/* The staircase by its definition, one cap at a time through the public call: each cap below the kernel's
   registers (and the device's maximum) at which blocks per SM rises above every larger cap's. */
static int32_t staircase_by_walk(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_tradeoff_step *out,
                                 int32_t cap_max)
{
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(d, k, &r), GPUOCC_OK);
    int32_t best = r.blocks_per_sm, n = 0;
    int32_t top = k->regs_per_thread < d->regs_per_thread_max ? k->regs_per_thread : d->regs_per_thread_max;
    for (int32_t cap = top; cap >= 0; cap--) {
        gpuocc_kernel c = *k;
        c.regs_per_thread = cap;
        cr_assert_eq(gpuocc_occupancy(d, &c, &r), GPUOCC_OK);
        if (r.blocks_per_sm <= best)
            continue;
        best = r.blocks_per_sm;
        if (n < cap_max)
            out[n] = (gpuocc_tradeoff_step){cap, k->regs_per_thread - cap, r.blocks_per_sm, r.warps_per_sm,
                                            r.occupancy, 0};
        n++;
    }
    return n;
}

/* Gpuocc_tradeoff walked every register cap, 2^20 occupancy evaluations (about 0.1 s) on a
   described device allowing 2^20 registers per thread; it now gallops and bisects.  Its steps must be
   exactly the walk's, on every catalog device (NVIDIA and AMD) and on that described device. */
Test(models, tradeoff_staircase_is_the_walks_on_every_device)
{
    srand(2222);
    int32_t count = gpuocc_catalog_count();
    long compared = 0;
    for (int32_t i = 0; i < count; i++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(i, &d), GPUOCC_OK);
        if (d.vendor == GPUOCC_VENDOR_INTEL)
            continue; /* Intel's register demand is grf, not regs_per_thread */
        for (int trial = 0; trial < 6; trial++) {
            gpuocc_kernel k;
            gpuocc_kernel_init(&k);
            int32_t warp = d.warp_size > 0 ? d.warp_size : 32;
            k.threads_per_block = warp * (1 + rand() % 8);
            k.regs_per_thread = 1 + rand() % (d.regs_per_thread_max < 255 ? d.regs_per_thread_max : 255);
            k.smem_dynamic_bytes = rand() % 3 ? 0 : 1024 * (rand() % 16);
            gpuocc_tradeoff_step want[300], got[300];
            int32_t n_want = staircase_by_walk(&d, &k, want, 300), n_got = -1;
            int32_t rc = gpuocc_tradeoff(&d, &k, 1000, 1, 300, got, 300, &n_got);
            cr_assert_eq(rc, GPUOCC_OK, "%s threads %d regs %d: %s", gpuocc_catalog_name(i), k.threads_per_block,
                         k.regs_per_thread, gpuocc_status_name(rc));
            cr_assert_eq(n_got, n_want, "%s threads %d regs %d", gpuocc_catalog_name(i), k.threads_per_block,
                         k.regs_per_thread);
            for (int32_t s = 0; s < n_got; s++) {
                cr_expect_eq(got[s].regs_per_thread, want[s].regs_per_thread, "%s step %d", gpuocc_catalog_name(i), s);
                cr_expect_eq(got[s].blocks_per_sm, want[s].blocks_per_sm);
                cr_expect_eq(got[s].warps_per_sm, want[s].warps_per_sm);
            }
            compared++;
        }
    }
    cr_expect_gt(compared, 100);
    /* H100 allowing 2^20 registers per thread; a kernel of 2^20 - 7: the walk's steps, at once */
    gpuocc_device d = test_device("H100");
    d.regs_per_thread_max = 1 << 20;
    d.regs_per_sm = 1 << 26; /* 2 warps of 2^20 registers per lane */
    d.regs_per_block = 1 << 26;
    cr_assert_eq(gpuocc_device_validate(&d), GPUOCC_OK);
    gpuocc_kernel k = test_kernel(32, (1 << 20) - 7, 0, 0);
    static gpuocc_tradeoff_step want[64], got[64];
    int32_t n_want = staircase_by_walk(&d, &k, want, 64), n_got = -1;
    cr_assert_eq(gpuocc_tradeoff(&d, &k, 1000, 1, 300, got, 64, &n_got), GPUOCC_OK);
    cr_assert_eq(n_got, n_want);
    cr_expect_gt(n_got, 1);
    for (int32_t s = 0; s < n_got && s < 64; s++)
        cr_expect_eq(got[s].regs_per_thread, want[s].regs_per_thread, "step %d", s);
}
