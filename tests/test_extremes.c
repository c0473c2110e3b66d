/*
 * Every public model function (lib/models/) at extreme inputs: NaN, infinities, signed zeros, the
 * smallest subnormal, DBL_MIN, DBL_MAX, INT32_MIN/MAX, INT64_MIN/MAX, NULL.  Each call gives a specific error
 * code with every output untouched, or GPUOCC_OK with every double finite and in its documented range: the
 * header's contract ("no result reported as GPUOCC_OK is ever infinite or NaN").  Then, per function, the
 * inputs whose answer fits a double although an intermediate product does not (or underflows), where the
 * code before this test gave GPUOCC_ERR_OVERFLOW or a wrong finite answer; each expected value is worked by
 * hand from the formula in include/gpuocc.h and docs/models.md.  The suite also runs under UBSan and ASan
 * (meson setup -Db_sanitize=address,undefined), which turns any signed overflow or bad shift into a failure.
 */
#include "common.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#define SENTINEL (-7.25)

static const double D[] = {-INFINITY, -DBL_MAX, -1, -0.0, 0, 4.9406564584124654e-324, DBL_MIN, 1e-300, 0.5,
                           1, 3, 1e300, DBL_MAX, INFINITY, NAN};
#define ND (sizeof D / sizeof D[0])
/* a shorter list for the functions of five or six doubles */
static const double S[] = {-1, 0, 4.9406564584124654e-324, 1e-300, 1, 1e300, DBL_MAX, INFINITY, NAN};
#define NS (sizeof S / sizeof S[0])
static const int32_t I32[] = {INT32_MIN, -1, 0, 1, 32, 132, 1024, INT32_MAX};
#define NI32 (sizeof I32 / sizeof I32[0])
static const int64_t I64[] = {INT64_MIN, -1, 0, 1, 1000, INT64_MAX - 1, INT64_MAX};
#define NI64 (sizeof I64 / sizeof I64[0])

/* An error the header names for the models' inputs. */
static bool model_error(int32_t rc)
{
    return rc == GPUOCC_ERR_NOT_FINITE || rc == GPUOCC_ERR_DOMAIN || rc == GPUOCC_ERR_OVERFLOW ||
           rc == GPUOCC_ERR_SM_COUNT || rc == GPUOCC_ERR_NULL || rc == GPUOCC_ERR_ARGUMENT ||
           rc == GPUOCC_ERR_STRUCT_SIZE || rc == GPUOCC_ERR_THREADS;
}

static bool finite_all(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

static bool relative(double got, double want, double tol)
{
    return fabs(got - want) <= tol * fabs(want);
}

Test(extremes, warps_needed)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t b = 0; b < ND; b++)
            for (size_t c = 0; c < ND; c++) {
                double w = SENTINEL;
                int32_t rc = gpuocc_warps_needed(D[a], D[b], D[c], &w);
                if (rc == GPUOCC_OK)
                    cr_assert(isfinite(w) && w >= 0, "%g %g %g: %g", D[a], D[b], D[c], w);
                else
                    cr_assert(model_error(rc) && w == SENTINEL, "%g %g %g: %d", D[a], D[b], D[c], rc);
            }
    double w = SENTINEL;
    cr_expect_eq(gpuocc_warps_needed(1, 1, 1, NULL), GPUOCC_ERR_NULL);
    /* 1e200 x 1e200 / 1e200 = 1e200: the product passed DBL_MAX, so this was GPUOCC_ERR_OVERFLOW */
    cr_assert_eq(gpuocc_warps_needed(1e200, 1e200, 1e200, &w), GPUOCC_OK);
    cr_expect(relative(w, 1e200, 1e-15), "%g", w);
    /* the answer itself does not fit: still the error */
    cr_expect_eq(gpuocc_warps_needed(1e200, 1e200, 1, &w), GPUOCC_ERR_OVERFLOW);
}

Test(extremes, mix_warps_needed)
{
    for (size_t a = 0; a < NS; a++)
        for (size_t b = 0; b < NS; b++)
            for (size_t c = 0; c < NS; c++)
                for (size_t d = 0; d < NS; d++)
                    for (size_t e = 0; e < NS; e++)
                        for (size_t f = 0; f < NS; f++) {
                            double w = SENTINEL;
                            int32_t rc = gpuocc_mix_warps_needed(S[a], S[b], S[c], S[d], S[e], S[f], &w);
                            if (rc == GPUOCC_OK)
                                cr_assert(isfinite(w) && w >= 0, "%g %g %g %g %g %g: %g", S[a], S[b], S[c], S[d],
                                          S[e], S[f], w);
                            else
                                cr_assert(model_error(rc) && w == SENTINEL, "rc %d", rc);
                        }
    double w = SENTINEL;
    /* alpha 1e300, ALU latency 1e300, ALU and memory throughput 1, memory latency 1, no issue limit: the ALU
       sets the rate, 1 / 1e300, and n = (1 + 1e300 x 1e300) / 1e300 = 1e300 + 1e-300 = 1e300; alpha x
       ALU latency (1e600) alone overflowed, so this was GPUOCC_ERR_OVERFLOW */
    cr_assert_eq(gpuocc_mix_warps_needed(1e300, 1e300, 1, 1, 1, 0, &w), GPUOCC_OK);
    cr_expect(relative(w, 1e300, 1e-15), "%g", w);
    /* the same with an issue limit of 2 per cycle: the rate 2 / (1e300 + 1) is the tightest, and n =
       (1 + 1e600) x 2 / 1e300 = 2e300 */
    cr_assert_eq(gpuocc_mix_warps_needed(1e300, 1e300, 1e10, 1, 1, 2, &w), GPUOCC_OK);
    cr_expect(relative(w, 2e300, 1e-15), "%g", w);
    /* memory-bound with a tiny memory rate: (1 + 1e200 x 1e200) x 1e-250 = 1e150 */
    cr_assert_eq(gpuocc_mix_warps_needed(1e200, 1e200, 1e300, 1, 1e-250, 0, &w), GPUOCC_OK);
    cr_expect(relative(w, 1e150, 1e-15), "%g", w);
}

Test(extremes, mix_cusp)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t b = 0; b < ND; b++)
            for (size_t c = 0; c < ND; c++)
                for (size_t d = 0; d < ND; d++) {
                    double al = SENTINEL, w = SENTINEL;
                    int32_t rc = gpuocc_mix_cusp(D[a], D[b], D[c], D[d], &al, &w);
                    if (rc == GPUOCC_OK)
                        cr_assert(isfinite(al) && isfinite(w) && al >= 0 && w >= 0);
                    else
                        cr_assert(model_error(rc) && al == SENTINEL && w == SENTINEL, "rc %d", rc);
                }
}

Test(extremes, bytes_in_flight)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t b = 0; b < ND; b++)
            for (size_t s = 0; s < NI32; s++) {
                double per = SENTINEL, dev = SENTINEL;
                int32_t rc = gpuocc_bytes_in_flight(D[a], D[b], I32[s], &per, &dev);
                if (rc == GPUOCC_OK)
                    cr_assert(isfinite(per) && isfinite(dev) && per >= 0 && per <= dev);
                else
                    cr_assert(model_error(rc) && per == SENTINEL && dev == SENTINEL, "rc %d", rc);
            }
    double per = SENTINEL, dev = SENTINEL;
    /* 1e300 B/s x 1e10 ns = 1e301 B; bandwidth x latency (1e310) overflowed before the 1e-9: was OVERFLOW */
    cr_assert_eq(gpuocc_bytes_in_flight(1e300, 1e10, 10, &per, &dev), GPUOCC_OK);
    cr_expect(relative(dev, 1e301, 1e-15) && relative(per, 1e300, 1e-15), "%g %g", dev, per);
}

Test(extremes, bandwidth_at)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t s = 0; s < NI32; s++)
            for (size_t c = 0; c < ND; c++)
                for (size_t d = 0; d < ND; d++)
                    for (size_t k = 0; k < ND; k += 2) {
                        double bw = SENTINEL;
                        int32_t rc = gpuocc_bandwidth_at(D[a], I32[s], D[c], D[d], D[k], &bw);
                        if (rc == GPUOCC_OK)
                            /* never above the peak, never below 0 */
                            cr_assert(isfinite(bw) && bw >= 0 && bw <= D[d], "%g %d %g %g %g: %g", D[a], I32[s],
                                      D[c], D[d], D[k], bw);
                        else
                            cr_assert(model_error(rc) && bw == SENTINEL, "rc %d", rc);
                    }
    double bw = SENTINEL;
    /* 1e307 B per SM on 132 SMs: more in flight than a double holds (x = 1e307 x 132 / (400e-9 x 1.5e12)),
       so the hard minimum is the peak, 1.5e12 B/s, and the smooth form's limit too: was OVERFLOW */
    cr_assert_eq(gpuocc_bandwidth_at(1e307, 132, 400, 1.5e12, 0, &bw), GPUOCC_OK);
    cr_expect_eq(bw, 1.5e12);
    cr_assert_eq(gpuocc_bandwidth_at(1e307, 132, 400, 1.5e12, GPUOCC_SMOOTH_K, &bw), GPUOCC_OK);
    cr_expect_eq(bw, 1.5e12);
    /* latency 1e-200 ns and peak 1e-200 B/s: latency x 1e-9 x peak underflowed to 0 (x = inf): was OVERFLOW;
       x = 1 x 1 x 1e9 / 1e-400 is beyond a double, so the answer is the peak */
    cr_assert_eq(gpuocc_bandwidth_at(1, 1, 1e-200, 1e-200, 0, &bw), GPUOCC_OK);
    cr_expect_eq(bw, 1e-200);
    /* 0 bytes in flight: 0 B/s, whatever the denominator */
    cr_assert_eq(gpuocc_bandwidth_at(0, 1, 1e-200, 1e-200, 0, &bw), GPUOCC_OK);
    cr_expect_eq(bw, 0);
}

Test(extremes, latency_check)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t b = 0; b < ND; b++)
            for (size_t c = 0; c < ND; c++)
                for (size_t d = 0; d < ND; d++) {
                    gpuocc_latency_verdict v;
                    memset(&v, 0xA5, sizeof v);
                    v.size = sizeof v;
                    gpuocc_latency_verdict before = v;
                    int32_t rc = gpuocc_latency_check(D[a], D[b], D[c], D[d], &v);
                    if (rc == GPUOCC_OK) {
                        const double out[] = {v.in_flight, v.warps_needed, v.extra_warps, v.ilp_needed};
                        cr_assert(finite_all(out, 4) && (v.hidden == 0 || v.hidden == 1) && v.extra_warps >= 0);
                    } else
                        cr_assert(model_error(rc) && memcmp(&v, &before, sizeof v) == 0, "rc %d", rc);
                }
    gpuocc_latency_verdict v = {.size = sizeof v};
    cr_expect_eq(gpuocc_latency_check(1, 1, 1, 1, NULL), GPUOCC_ERR_NULL);
    v.size = 3;
    cr_expect_eq(gpuocc_latency_check(1, 1, 1, 1, &v), GPUOCC_ERR_STRUCT_SIZE);
}

Test(extremes, perf_lookup_and_bandwidth_predict)
{
    gpuocc_perf p = {.size = sizeof p};
    cr_expect_eq(gpuocc_perf_lookup(NULL, &p), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_perf_lookup("H100", NULL), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_perf_lookup("", &p), GPUOCC_ERR_UNKNOWN_DEVICE);
    static char longname[1 << 16];
    memset(longname, 'H', sizeof longname - 1);
    cr_expect_eq(gpuocc_perf_lookup(longname, &p), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(gpuocc_perf_lookup("\xff\xfe", &p), GPUOCC_ERR_UNKNOWN_DEVICE);
    /* every catalog name: every constant finite and not negative; every prediction at extreme loads finite */
    for (int32_t i = 0; i < gpuocc_catalog_count(); i++) {
        const char *name = gpuocc_catalog_name(i);
        gpuocc_perf q = {.size = sizeof q};
        cr_assert_eq(gpuocc_perf_lookup(name, &q), GPUOCC_OK, "%s", name);
        const double out[] = {q.sm_clock_mhz, q.dram_bandwidth_gbps, q.l2_bandwidth_gbps, q.latency_clock_mhz,
                              q.dram_latency_cycles, q.l2_latency_cycles, q.l1_latency_cycles,
                              q.smem_latency_cycles, q.fp32_latency_cycles, q.fp32_lanes, q.issue_per_cycle,
                              q.bytes_in_flight_target, q.dram_bus_bits, q.dram_attainable_gbps};
        for (size_t f = 0; f < sizeof out / sizeof out[0]; f++)
            cr_assert(isfinite(out[f]) && out[f] >= 0, "%s field %zu", name, f);
        cr_assert(q.sm_count >= 0 && memchr(q.dram_memory, 0, sizeof q.dram_memory) &&
                  memchr(q.dram_source, 0, sizeof q.dram_source), "%s", name);
        for (size_t a = 0; a < ND; a++)
            for (size_t b = 0; b < ND; b++) {
                gpuocc_bandwidth_prediction r;
                memset(&r, 0xA5, sizeof r);
                r.size = sizeof r;
                gpuocc_bandwidth_prediction before = r;
                int32_t rc = gpuocc_bandwidth_predict(name, D[a], D[b], &r);
                if (rc == GPUOCC_OK) {
                    const double o[] = {r.bandwidth_gbps, r.fraction_of_peak, r.loaded_latency_ns, r.warps_for_80,
                                        r.warps_for_90, r.warps_for_95, r.fraction_of_attainable};
                    cr_assert(finite_all(o, 7), "%s %g %g", name, D[a], D[b]);
                } else
                    cr_assert((model_error(rc) || rc == GPUOCC_ERR_UNSATISFIABLE) &&
                              memcmp(&r, &before, sizeof r) == 0, "%s rc %d", name, rc);
            }
    }
}

Test(extremes, spill_slowdown)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t b = 0; b < ND; b++)
            for (size_t c = 0; c < ND; c++) {
                double s = SENTINEL;
                int32_t rc = gpuocc_spill_slowdown(D[a], D[b], D[c], &s);
                if (rc == GPUOCC_OK)
                    cr_assert(isfinite(s) && s >= 1, "%g %g %g: %g", D[a], D[b], D[c], s);
                else
                    cr_assert(model_error(rc) && s == SENTINEL, "rc %d", rc);
            }
    double s = SENTINEL;
    /* (1e300 + 1e10 x 1e300) / 1e300 = 1 + 1e10: accesses x latency (1e310) overflowed: was OVERFLOW */
    cr_assert_eq(gpuocc_spill_slowdown(1e300, 1e10, 1e300, &s), GPUOCC_OK);
    cr_expect(relative(s, 1 + 1e10, 1e-15), "%g", s);
    /* DBL_MAX accesses of 0 cycles: no slowdown */
    cr_assert_eq(gpuocc_spill_slowdown(1, DBL_MAX, 0, &s), GPUOCC_OK);
    cr_expect_eq(s, 1);
}

Test(extremes, spill_estimate)
{
    gpuocc_spill_input in;
    cr_expect_eq(gpuocc_spill_input_init(NULL), GPUOCC_ERR_NULL);
    long ok = 0;
    for (size_t t = 0; t < NS; t++)
        for (size_t x = 0; x < NS; x++)
            for (size_t l = 0; l < NS; l++)
                for (size_t a = 0; a < NS; a++)
                    for (size_t bw = 0; bw < NS; bw++)
                        for (size_t s = 0; s < NI32; s += 3) {
                            gpuocc_spill_input_init(&in);
                            in.sm_count = I32[s];
                            in.threads = S[t];
                            in.executions = S[x];
                            in.spill_load_bytes = S[l];
                            in.spill_store_bytes = S[l];
                            in.access_bytes = S[a];
                            in.l1_hit_rate = 0.5;
                            in.l2_hit_rate = 0.5;
                            in.l2_bandwidth_bytes_per_s = S[bw];
                            in.dram_bandwidth_bytes_per_s = S[bw];
                            in.clock_hz = S[bw];
                            gpuocc_spill_cost c;
                            memset(&c, 0xA5, sizeof c);
                            c.size = sizeof c;
                            gpuocc_spill_cost before = c;
                            int32_t rc = gpuocc_spill_estimate(&in, &c);
                            if (rc == GPUOCC_OK) {
                                const double out[] = {c.local_bytes, c.instructions, c.issue_s, c.l2_s, c.dram_s,
                                                      c.spill_s};
                                cr_assert(finite_all(out, 6) && c.spill_s >= c.issue_s && c.spill_s >= c.l2_s);
                                ok++;
                            } else
                                cr_assert(model_error(rc) && memcmp(&c, &before, sizeof c) == 0, "rc %d", rc);
                        }
    cr_expect_gt(ok, 1000);
    /* 1e200 threads x 1e200 executions x (1e-200 + 1e-200) B = 2e200 B (threads x executions alone is 1e400:
       was OVERFLOW); 4-byte accesses: 2e200 / 32 / 4 = 1.5625e198 warp instructions */
    gpuocc_spill_input_init(&in);
    in.sm_count = 1;
    in.threads = 1e200;
    in.executions = 1e200;
    in.spill_load_bytes = 1e-200;
    in.spill_store_bytes = 1e-200;
    in.l2_bandwidth_bytes_per_s = 1e300;
    in.dram_bandwidth_bytes_per_s = 1e300;
    in.clock_hz = 1e300;
    gpuocc_spill_cost c = {.size = sizeof c};
    cr_assert_eq(gpuocc_spill_estimate(&in, &c), GPUOCC_OK);
    cr_expect(relative(c.local_bytes, 2e200, 1e-15), "%g", c.local_bytes);
    cr_expect(relative(c.instructions, 1.5625e198, 1e-15), "%g", c.instructions);
    /* INT32_MAX SMs at 1e308 Hz: the issue time is 1.5625e198 / (2147483647 x 1e308) = 7.2760e-120 s; the
       product of the two (2e317) overflowed and the time was a wrong 0 with GPUOCC_OK */
    in.sm_count = INT32_MAX;
    in.clock_hz = 1e308;
    cr_assert_eq(gpuocc_spill_estimate(&in, &c), GPUOCC_OK);
    cr_expect(relative(c.issue_s, 1.5625e198 / 2147483647.0 / 1e308, 1e-14), "%g", c.issue_s);
}

Test(extremes, tradeoff)
{
    gpuocc_device d = test_device("A100");
    for (size_t r = 0; r < NI32; r++)
        for (size_t w = 0; w < NS; w++)
            for (size_t a = 0; a < NS; a++)
                for (size_t l = 0; l < NS; l++) {
                    gpuocc_kernel k = test_kernel(256, 128, 0, 0);
                    k.regs_per_thread = I32[r];
                    gpuocc_tradeoff_step steps[8];
                    memset(steps, 0xA5, sizeof steps);
                    unsigned char before[sizeof steps];
                    memcpy(before, steps, sizeof steps);
                    int32_t n = -9;
                    int32_t rc = gpuocc_tradeoff(&d, &k, S[w], S[a], S[l], steps, 8, &n);
                    if (rc == GPUOCC_OK) {
                        cr_assert(n >= 0 && n <= 8);
                        for (int32_t i = 0; i < n; i++)
                            cr_assert(isfinite(steps[i].spill_slowdown) && steps[i].spill_slowdown >= 1 &&
                                      isfinite(steps[i].occupancy));
                    } else
                        cr_assert((model_error(rc) || rc == GPUOCC_ERR_REGISTERS) && n == -9 &&
                                  memcmp(steps, before, sizeof steps) == 0, "rc %d", rc);
                }
    /* 1e300 cycles of work, 1e10 accesses of 1e300 cycles per shed register: each step's slowdown is
       1 + shed x 1e10 (1e300 x (1 + shed x 1e10 x 1e300 / 1e300) / 1e300); accesses x latency (1e310)
       overflowed: was OVERFLOW.  A100, 256 threads, 128 registers: 5 steps (test_models.c's staircase) */
    gpuocc_kernel k = test_kernel(256, 128, 0, 0);
    gpuocc_tradeoff_step steps[8];
    int32_t n = 0;
    cr_assert_eq(gpuocc_tradeoff(&d, &k, 1e300, 1e10, 1e300, steps, 8, &n), GPUOCC_OK);
    cr_assert_eq(n, 5);
    for (int32_t i = 0; i < n; i++)
        cr_expect(relative(steps[i].spill_slowdown, 1 + steps[i].regs_shed * 1e10, 1e-15), "step %d: %g", i,
                  steps[i].spill_slowdown);
}

Test(extremes, waves)
{
    for (size_t g = 0; g < NI64; g++)
        for (size_t s = 0; s < NI32; s++)
            for (size_t b = 0; b < NI32; b++) {
                gpuocc_waves_result w;
                memset(&w, 0xA5, sizeof w);
                w.size = sizeof w;
                gpuocc_waves_result before = w;
                int32_t rc = gpuocc_waves(I64[g], I32[s], I32[b], &w);
                if (rc == GPUOCC_OK) {
                    cr_assert(w.blocks_per_wave == (int64_t)I32[s] * I32[b]);
                    cr_assert(w.grid_down <= I64[g] && w.grid_up >= I64[g] && w.waves >= 1);
                    cr_assert(isfinite(w.efficiency) && w.efficiency > 0 && w.efficiency <= 1);
                    cr_assert(isfinite(w.last_wave_utilization) && w.last_wave_utilization > 0 &&
                              w.last_wave_utilization <= 1);
                } else
                    cr_assert(model_error(rc) && memcmp(&w, &before, sizeof w) == 0, "rc %d", rc);
            }
    gpuocc_waves_result w = {.size = sizeof w};
    /* INT64_MAX blocks one at a time: INT64_MAX full waves, no tail */
    cr_assert_eq(gpuocc_waves(INT64_MAX, 1, 1, &w), GPUOCC_OK);
    cr_expect(w.full_waves == INT64_MAX && w.waves == INT64_MAX && w.grid_up == INT64_MAX && w.efficiency == 1);
    /* (2^31 - 1)^2 = 2^62 - 2^32 + 1 blocks per wave.  2 x that - 1 blocks: 1 full wave and a tail, 2 waves,
       and the tail-free grid above, 2 x (2^62 - 2^32 + 1) = 2^63 - 2^33 + 2, fits */
    const int64_t wave = (int64_t)INT32_MAX * INT32_MAX;
    cr_assert_eq(gpuocc_waves(2 * wave - 1, INT32_MAX, INT32_MAX, &w), GPUOCC_OK);
    cr_expect(w.full_waves == 1 && w.waves == 2 && w.grid_down == wave && w.grid_up == 2 * wave &&
              w.last_wave_blocks == wave - 1);
    /* INT64_MAX blocks: 2 full waves and a tail of 2^33 - 3, so 3 waves, and 3 x the wave passes INT64_MAX:
       the tail-free grid above does not fit */
    gpuocc_waves_result untouched = w;
    cr_expect_eq(gpuocc_waves(INT64_MAX, INT32_MAX, INT32_MAX, &w), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(memcmp(&w, &untouched, sizeof w), 0);
    cr_expect_eq(gpuocc_waves(1, 1, 1, NULL), GPUOCC_ERR_NULL);
}

Test(extremes, lane_efficiency)
{
    for (size_t t = 0; t < NI32; t++)
        for (size_t w = 0; w < NI32; w++) {
            double e = SENTINEL;
            int32_t rc = gpuocc_lane_efficiency(I32[t], I32[w], &e);
            if (rc == GPUOCC_OK)
                cr_assert(isfinite(e) && e > 0 && e <= 1);
            else
                cr_assert(model_error(rc) && e == SENTINEL, "rc %d", rc);
        }
    double e = SENTINEL;
    /* INT32_MAX threads in warps of 1024: 2097152 warps, 2147483647 / 2147483648 */
    cr_assert_eq(gpuocc_lane_efficiency(INT32_MAX, 1024, &e), GPUOCC_OK);
    cr_expect_eq(e, 2147483647.0 / 2147483648.0);
}

Test(extremes, divergence)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t b = 0; b < ND; b++)
            for (size_t l = 0; l < NI32; l++)
                for (size_t w = 0; w < NI32; w++) {
                    const int32_t lanes[2] = {I32[l], 1};
                    const double cost[2] = {D[a], D[b]};
                    double ser = SENTINEL, eff = SENTINEL;
                    int32_t rc = gpuocc_divergence(lanes, cost, 2, I32[w], &ser, &eff);
                    if (rc == GPUOCC_OK)
                        cr_assert(isfinite(ser) && isfinite(eff) && eff >= 0 && eff <= 1, "%g %g: %g", D[a], D[b],
                                  eff);
                    else
                        cr_assert(model_error(rc) && ser == SENTINEL && eff == SENTINEL, "rc %d", rc);
                }
    double ser = SENTINEL, eff = SENTINEL;
    /* one path of 1e308 cycles on every lane: serialized 1e308, efficiency 32 x 1e308 / (32 x 1e308) = 1;
       32 x 1e308 overflowed: was OVERFLOW */
    const int32_t all[1] = {32};
    const double big[1] = {1e308};
    cr_assert_eq(gpuocc_divergence(all, big, 1, 32, &ser, &eff), GPUOCC_OK);
    cr_expect(ser == 1e308 && eff == 1, "%g %g", ser, eff);
    /* 24 lanes at 1e308 and 8 at 5e307: serialized 1.5e308, efficiency (24 + 8 x 0.5) / (32 x 1.5) = 7 / 12 */
    const int32_t split[2] = {24, 8};
    const double costs[2] = {1e308, 5e307};
    cr_assert_eq(gpuocc_divergence(split, costs, 2, 32, &ser, &eff), GPUOCC_OK);
    cr_expect(relative(ser, 1.5e308, 1e-15) && relative(eff, 7.0 / 12, 1e-15), "%g %g", ser, eff);
    /* two paths of DBL_MAX: the serialized cost does not fit */
    const double huge[2] = {DBL_MAX, DBL_MAX};
    cr_expect_eq(gpuocc_divergence(split, huge, 2, 32, &ser, &eff), GPUOCC_ERR_OVERFLOW);
    cr_expect_eq(gpuocc_divergence(NULL, costs, 2, 32, &ser, &eff), GPUOCC_ERR_NULL);
}

Test(extremes, routing)
{
    const int32_t paths[] = {INT32_MIN, -1, 0, 1, 2, 64, 1 << 20, (1 << 20) + 1, INT32_MAX};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        for (size_t i = 0; i < NI64; i++)
            for (size_t w = 0; w < NI32; w++) {
                gpuocc_routing_result r;
                memset(&r, 0xA5, sizeof r);
                r.size = sizeof r;
                gpuocc_routing_result before = r;
                int32_t rc = gpuocc_routing(paths[p], I64[i], I32[w], &r);
                if (rc == GPUOCC_OK) {
                    const double out[] = {r.random_paths, r.random_efficiency, r.sorted_paths, r.sorted_efficiency};
                    cr_assert(finite_all(out, 4));
                    cr_assert(r.random_paths >= 1 - 1e-9 && r.random_efficiency > 0 && r.random_efficiency <= 1 + 1e-9);
                    cr_assert(r.sorted_paths >= 1 && r.sorted_paths <= 2 && r.sorted_efficiency >= 0.5 &&
                              r.sorted_efficiency <= 1);
                } else
                    cr_assert(model_error(rc) && memcmp(&r, &before, sizeof r) == 0, "rc %d", rc);
            }
    /* one path: every lane takes it, 1 path, efficiency 1 */
    gpuocc_routing_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_routing(1, INT64_MAX, 1024, &r), GPUOCC_OK);
    cr_expect(r.random_paths == 1 && r.random_efficiency == 1 && r.sorted_paths == 1 && r.sorted_efficiency == 1);
}

Test(extremes, stalls_and_diagnose)
{
    const int32_t reasons[] = {INT32_MIN, -1, 0, GPUOCC_STALL_COUNT - 1, GPUOCC_STALL_COUNT, INT32_MAX};
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        const char *name = gpuocc_stall_name(reasons[i]);
        cr_assert_not_null(name);
        bool known = reasons[i] >= 0 && reasons[i] < GPUOCC_STALL_COUNT;
        cr_expect_eq(gpuocc_stall_from_name(name), known ? reasons[i] : -1);
        for (size_t a = 0; a < ND; a++) {
            const char *meaning = "untouched", *advice = "untouched";
            int32_t helps = -9;
            int32_t rc = gpuocc_diagnose(reasons[i], D[a], &meaning, &advice, &helps);
            if (rc == GPUOCC_OK)
                cr_assert(known && D[a] >= 0 && D[a] <= 1 && meaning && advice && (helps == 0 || helps == 1));
            else
                cr_assert(model_error(rc) && !strcmp(meaning, "untouched") && helps == -9, "rc %d", rc);
        }
    }
    cr_expect_eq(gpuocc_stall_from_name(NULL), -1);
    cr_expect_eq(gpuocc_stall_from_name(""), -1);
    cr_expect_eq(gpuocc_diagnose(0, 0.5, NULL, NULL, NULL), GPUOCC_ERR_NULL);
}

Test(extremes, roofline)
{
    for (size_t a = 0; a < ND; a++)
        for (size_t b = 0; b < ND; b++)
            for (size_t c = 0; c < ND; c++)
                for (size_t d = 0; d < ND; d++) {
                    double ai = SENTINEL, ridge = SENTINEL, att = SENTINEL;
                    int32_t cb = -9;
                    int32_t rc = gpuocc_roofline(D[a], D[b], D[c], D[d], &ai, &ridge, &att, &cb);
                    if (rc == GPUOCC_OK)
                        cr_assert(isfinite(ai) && isfinite(ridge) && isfinite(att) && att <= D[c] && att >= 0 &&
                                  (cb == 0 || cb == 1));
                    else
                        cr_assert(model_error(rc) && ai == SENTINEL && att == SENTINEL && cb == -9, "rc %d", rc);
                }
    double ai, ridge, att;
    int32_t cb = -9;
    /* no flops: memory bound whatever the ridge; a ridge of 4.9e-324 / 1e10 underflows to 0, and 0 >= 0 said
       compute bound */
    cr_assert_eq(gpuocc_roofline(0, 1, 4.9406564584124654e-324, 1e10, &ai, &ridge, &att, &cb), GPUOCC_OK);
    cr_expect_eq(cb, 0);
    /* 1e-300 flops on 1e300 bytes at 1e300 B/s: attainable min(1e20, 1e-600 x 1e300) = 1e-300 flop/s; the
       intensity 1e-600 underflows to 0, and the attainable rate was a wrong 0 */
    cr_assert_eq(gpuocc_roofline(1e-300, 1e300, 1e20, 1e300, &ai, &ridge, &att, &cb), GPUOCC_OK);
    cr_expect(relative(att, 1e-300, 1e-15), "%g", att);
    cr_expect_eq(cb, 0);
    /* at the ridge exactly (flops x bandwidth = peak x bytes): compute bound */
    cr_assert_eq(gpuocc_roofline(10, 1, 10, 1, &ai, &ridge, &att, &cb), GPUOCC_OK);
    cr_expect_eq(cb, 1);
}
