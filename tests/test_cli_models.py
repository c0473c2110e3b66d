#!/usr/bin/env python3
"""gpuocc bandwidth and the DRAM verdict of gpuocc latency (one model, docs/models.md), and the seeds'
Examples 7 and 8 through the CLI with their stated assumptions as inputs.  Expected values are derived
by hand from the model's equation, from the seeds, or from RRZE gpu-stream measurements.
Usage: test_cli_models.py GPUOCC"""
import json
import math
import subprocess
import sys

from checks import check, finish

GPUOCC = sys.argv[1]
C, Q = 1.69, 210.0                      # the law's constants (include/gpuocc.h): c measured, q (bits per pin) fitted
A100_L0_NS = 552 / 1.41                 # RRZE gpu-latency a100_80.txt: 552 cycles at 1410 MHz
A100_PEAK, A100_SMS = 2039, 108         # A100-SXM4-80GB deviceQuery: 2039 GB/s, 108 SMs
A100_BUS, A100_ATT = 5120, 1908         # 5120 data pins; RRZE gpu-stream a100_80.txt's best kernel, 1908 GB/s


def run(*args):
    p = subprocess.run([GPUOCC] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def js(*args):
    rc, out, err = run(*args, "--json")
    return rc, (json.loads(out) if rc == 0 else {}), err


def by_hand(warps, bytes_per_warp, l0=A100_L0_NS, peak=A100_PEAK, sms=A100_SMS, bus=A100_BUS, att=A100_ATT):
    """Fraction of peak: rho x att / peak, rho the root of (S - c L0) r^2 + (c L0 + y) r - y = 0 in [0, 1)
    (y = bytes in flight / attainable, S = q / pin rate), by the textbook formula."""
    y = warps * bytes_per_warp * sms / att
    s = Q / (8 * peak / bus)
    qa, qb, qc = s - C * l0, C * l0 + y, -y
    return (-qb + math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa) * att / peak


def warps_for(f, bytes_per_warp, l0=A100_L0_NS, peak=A100_PEAK, sms=A100_SMS, bus=A100_BUS, att=A100_ATT):
    """Warps for a fraction f of the attainable bandwidth."""
    s = Q / (8 * peak / bus)
    return f * att * (C * l0 + s * f / (1 - f)) / (bytes_per_warp * sms)


# ---- gpuocc bandwidth: fields, against the hand-solved quadratic ----
rc, j, err = js("bandwidth", "--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "256")
u = by_hand(32, 256)
check("bandwidth rc", rc == 0, err)
check("bandwidth fraction", abs(j.get("fraction_of_peak", 0) - u) < 1e-5, j)
check("bandwidth gbps", abs(j.get("bandwidth_gbps", 0) - u * 2039) < 0.01, j)
check("bandwidth constants", j.get("sm_count") == 108 and j.get("peak_gbps") == 2039
      and abs(j.get("latency_ns", 0) - A100_L0_NS) < 1e-3, j)
for f, key in ((0.8, "warps_for_80"), (0.9, "warps_for_90"), (0.95, "warps_for_95")):
    check(f"bandwidth {key}", abs(j.get(key, 0) - warps_for(f, 256)) < 1e-3, j)
# Little's law holds at the answer: loaded latency = bytes in flight / bandwidth
check("bandwidth loaded latency", abs(j.get("loaded_latency_ns", 0) - 8192 * 108 / (u * 2039)) < 0.01, j)
# RRZE gpu-stream @ 1038c5d, a100_80.txt: read 1119 GB/s at 32 warps/SM (8-byte loads: 256 B per warp)
check("bandwidth vs RRZE A100 at 32 warps", abs(j.get("bandwidth_gbps", 0) / 1119 - 1) < 0.10, j)
# explicit constants give the same answer
rc, k, err = js("bandwidth", "--warps-per-sm", "32", "--bytes-per-warp", "256", "--sm-count", "108",
                "--latency-ns", repr(A100_L0_NS), "--peak-gbps", "2039", "--bus-bits", "5120", "--attainable-gbps", "1908")
check("bandwidth explicit", rc == 0 and abs(k["bandwidth_gbps"] - j["bandwidth_gbps"]) < 1e-3, f"{k} {err}")
rc, out, _ = run("bandwidth", "--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "256")
check("bandwidth text", rc == 0 and "bandwidth_gbps" in out and "verdict:" in out, out)

# ---- the latency verdict uses the same model: A100 streaming at 32 warps is not "hidden" ----
rc, lat, err = js("latency", "--arch", "A100", "--warps-per-sm", "32", "--ilp", "2")
check("latency A100 ilp 2 exposed", rc == 0 and "exposed" in lat.get("verdict", "") and lat.get("model") == "loaded",
      f"{lat} {err}")
check("latency agrees with bandwidth", abs(lat.get("warps_needed", 0) - j.get("warps_for_90", -1)) < 1e-3
      and abs(lat.get("fraction_of_peak", 0) - j.get("fraction_of_peak", -1)) < 1e-9, f"{lat} {j}")
check("latency extra warps", abs(lat.get("extra_warps", 0) - (warps_for(0.9, 256) - 32)) < 1e-3, lat)
# hidden only at >= 90 % of peak: 64 warps of 1 KiB each
rc, lat, _ = js("latency", "--arch", "A100", "--warps-per-sm", "64", "--ilp", "8")
check("latency hidden at 90 %", rc == 0 and by_hand(64, 1024) * A100_PEAK / A100_ATT >= 0.9 and "hidden" in lat["verdict"]
      and lat["extra_warps"] == 0, lat)
# one clock per product: V100's latency, measured at 1380 MHz (434 cycles = 314.5 ns), is given in the
# product's 1530 MHz cycles; throughput too (898 GB/s / (1530 MHz x 80 x 128 B))
rc, lat, _ = js("latency", "--arch", "V100", "--warps-per-sm", "32")
check("latency V100 cycles at the product clock", rc == 0 and abs(lat["latency_cycles"] - 434 / 1380 * 1530) < 0.01
      and abs(lat["throughput_per_cycle"] / (898e3 / (1530 * 80 * 128)) - 1) < 1e-5, lat)

# ---- seeds' Example 7 ----
# Stated assumptions: L = 400 cycles, throughput = loads per cycle per SM at the DRAM's bandwidth (A100-80:
# 2039 GB/s over 108 SMs at 1410 MHz in 128-byte warp loads = 0.1046), a few (4) loads in flight per warp:
# 400 x 0.1046 / 4 = 10.46 warps, so 32 warps hide it: "do not chase 100 %".
thru = 2039e9 / (108 * 1410e6 * 128)
rc, e7, err = js("latency", "--warps-per-sm", "32", "--latency-cycles", "400", "--throughput-per-cycle", f"{thru:.4f}", "--ilp", "4")
check("example 7 hidden", rc == 0 and "hidden" in e7.get("verdict", "") and e7.get("extra_warps") == 0, f"{e7} {err}")
check("example 7 warps", abs(e7.get("warps_needed", 0) - 400 * 0.1046 / 4) < 1e-9, e7)
# The seeds' Step 1 throughput (4 issues per cycle) as given does not lead there: 1600 in flight
rc, e7b, _ = js("latency", "--warps-per-sm", "32", "--latency-cycles", "400", "--throughput-per-cycle", "4", "--ilp", "4")
check("example 7 with issue rate", rc == 0 and e7b["in_flight"] == 1600 and "exposed" in e7b["verdict"], e7b)
# A flag another model reads is refused (exit 2, one line naming it), never ignored: the loop and traffic models
# of spill, divergence's --items without --experts, the DRAM latency given twice, the DRAM inputs without --arch
for argv, named in [
        (["spill", "--work-cycles", "256", "--spill-accesses", "2", "--spill-latency-cycles", "300", "--access-bytes", "8"],
         "--access-bytes"),
        (["spill", "--work-cycles", "256", "--spill-accesses", "2", "--spill-latency-cycles", "300", "--arch", "A100"],
         "--arch"),
        (["spill", "--arch", "A100", "--spill-loads", "8", "--spill-stores", "8", "--grid-threads", "1048576",
          "--spill-accesses", "3"], "--spill-accesses"),
        (["divergence", "--threads", "100", "--items", "5"], "--items"),
        (["latency", "--arch", "A100", "--warps-per-sm", "32", "--latency-cycles", "300", "--latency-ns", "500"],
         "--latency-ns"),
        (["latency", "--warps-per-sm", "32", "--peak-gbps", "1000", "--latency-cycles", "400"], "--peak-gbps")]:
    rc, out, err = run(*argv, "--json")
    check(f"{' '.join(argv[:1])} {named}: refused", rc == 2 and not out and err.count("\n") == 1
          and err.startswith(f"gpuocc: {named}: "), f"{argv} {rc} {out!r} {err!r}")
# Little's law reads none of the DRAM model's inputs: given with --throughput-per-cycle they are refused, not ignored
for extra in (["--peak-gbps", "1000"], ["--latency-ns", "500"], ["--sm-count", "100"]):
    rc, out, err = run("latency", "--arch", "A100", "--warps-per-sm", "32", "--throughput-per-cycle", "4", *extra)
    check(f"latency {extra[0]} with Little's law: usage error", rc == 2 and not out and extra[0] in err
          and err.count("\n") == 1, f"{rc} {out!r} {err!r}")
# With the bandwidth model: a few (4) independent 16-byte loads per thread = 2 KiB per warp; doubling 32 -> 64
# warps gains <= 5 % (the seeds' Step 3): by hand 0.9268 / 0.9164 = 1.011
rc, a32, _ = js("bandwidth", "--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "2048")
rc2, a64, _ = js("bandwidth", "--arch", "A100", "--warps-per-sm", "64", "--bytes-per-warp", "2048")
check("example 7 bandwidth gain <= 5 %", rc == 0 and rc2 == 0 and a64["bandwidth_gbps"] / a32["bandwidth_gbps"] <= 1.05
      and abs(a32["fraction_of_peak"] - by_hand(32, 2048)) < 1e-5
      and abs(a64["fraction_of_peak"] - by_hand(64, 2048)) < 1e-5, f"{a32} {a64}")
# with 8-byte loads (1 KiB per warp) the same doubling gains 3.0 %, inside the seeds' bound
rc, b32, _ = js("bandwidth", "--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "1024")
rc2, b64, _ = js("bandwidth", "--arch", "A100", "--warps-per-sm", "64", "--bytes-per-warp", "1024")
check("example 7 with 8-byte loads", rc == 0 and rc2 == 0 and abs(b64["fraction_of_peak"] / b32["fraction_of_peak"]
      - by_hand(64, 1024) / by_hand(32, 1024)) < 1e-6 and 1.02 < by_hand(64, 1024) / by_hand(32, 1024) < 1.04, f"{b32} {b64}")

# ---- seeds' Example 8: 2 spill loads of 300 cycles on 256 cycles of work: 856 / 256 = 3.34x slower ----
rc, e8, _ = js("spill", "--work-cycles", "256", "--spill-accesses", "2", "--spill-latency-cycles", "300")
check("example 8", rc == 0 and e8["slowdown"] == 856 / 256 and "hurts" in e8["verdict"], e8)

# ---- spill: the flag of each input is its JSON key with '_' written '-' (one vocabulary: docs/vocabulary.md), and
# the launch's thread count has a name of its own (elsewhere `threads` is per block).  The traffic model by
# hand: (8 + 8) bytes x 1 execution x 1,048,576 threads = 16,777,216 local bytes; 4-byte accesses, so
# 16,777,216 / 4 / 32 = 131,072 warp instructions.
for args, inputs in (
        (["--work-cycles", "256", "--spill-accesses", "2", "--spill-latency-cycles", "300"],
         {"work_cycles": 256, "spill_accesses": 2, "spill_latency_cycles": 300}),
        (["--arch", "A100", "--spill-loads", "8", "--spill-stores", "8", "--executions", "1", "--grid-threads", "1048576"],
         {"spill_loads": 8, "spill_stores": 8, "executions": 1, "grid_threads": 1048576})):
    rc, j, err = js("spill", *args)
    flags = {a[2:].replace("-", "_"): float(v) for a, v in zip(args[::2], args[1::2]) if a != "--arch"}
    check(f"spill {args[0]}: every flag is its key", rc == 0 and {k: j.get(k) for k in flags} == inputs
          and flags == inputs and "threads" not in j, (j, err))
check("spill traffic by hand", j.get("local_bytes") == 16777216 and j.get("instructions") == 131072, j)
for old in (["--work", "256", "--accesses", "2", "--latency", "300"],
            ["--arch", "A100", "--load-bytes", "8", "--store-bytes", "8", "--threads", "1048576"]):
    rc, _, err = js("spill", *old)
    check(f"spill {old[0]}: the 0.2.0 development names are gone (renamed before release)", rc == 2, err)

# ---- every model command: the flag of each input is its JSON key with '_' written '-', and the key holds the
# value given (one vocabulary: docs/vocabulary.md).  The values are the inputs themselves, so
# the expected side is the command line: a renamed flag or key, or an input not echoed, fails here.
SWITCHES = {"--no-optin": ("smem_optin", 0)}
for cmd, args in (
        ("latency", ["--warps-per-sm", "32", "--latency-cycles", "400", "--throughput-per-cycle", "4", "--ilp", "2"]),
        ("latency", ["--arch", "A100", "--warps-per-sm", "32", "--latency-cycles", "400", "--throughput-per-cycle", "4"]),
        ("latency", ["--arch", "A100", "--warps-per-sm", "48", "--ilp", "2", "--sm-count", "100", "--latency-ns", "400",
                     "--peak-gbps", "1500"]),
        ("latency", ["--arch", "A100", "--warps-per-sm", "32", "--latency-cycles", "552"]),
        ("bandwidth", ["--warps-per-sm", "32", "--bytes-per-warp", "256", "--sm-count", "108", "--latency-ns", "391.5",
                       "--peak-gbps", "2039", "--bus-bits", "5120"]),
        ("bandwidth", ["--arch", "H100", "--warps-per-sm", "16", "--bytes-per-warp", "1024"]),
        ("spill", ["--work-cycles", "256", "--spill-accesses", "2", "--spill-latency-cycles", "300"]),
        ("spill", ["--arch", "A100", "--spill-loads", "8", "--spill-stores", "16", "--executions", "2",
                   "--grid-threads", "65536", "--access-bytes", "8", "--l1-hit-rate", "0.5", "--l2-hit-rate", "0.75",
                   "--sm-count", "100", "--l2-bandwidth-gbps", "5000", "--dram-bandwidth-gbps", "2000",
                   "--sm-clock-mhz", "1400"]),
        ("waves", ["--grid-blocks", "300", "--sm-count", "132", "--blocks-per-sm", "2"]),
        ("waves", ["--grid-blocks", "1000000", "--arch", "H100", "--blocks-per-sm", "4"]),
        ("roofline", ["--flops", "2", "--bytes", "12", "--peak-gflops", "19500", "--peak-gbps", "2039"]),
        ("roofline", ["--flops", "3", "--bytes", "5", "--peak-gflops", "60000", "--arch", "A100"]),
        ("divergence", ["--threads", "100", "--warp-size", "32"]),
        ("divergence", ["--experts", "8", "--items", "4096", "--warp-size", "64"]),
        ("tradeoff", ["--arch", "A100", "--threads", "256", "--regs", "128", "--smem-static", "1024",
                      "--smem-dynamic", "2048", "--barriers", "2", "--carveout", "50", "--no-optin",
                      "--work-cycles", "512", "--spill-accesses-per-reg", "0.25", "--spill-latency-cycles", "400",
                      "--warps-needed", "40"]),
        ("diagnose", ["--stall", "barrier", "--occupancy", "0.5"])):
    rc, j, err = js(cmd, *args)
    want, i = {}, 0
    while i < len(args):
        if args[i] in SWITCHES:
            key, value = SWITCHES[args[i]]
            i += 1
        else:
            key, text = args[i][2:].replace("-", "_"), args[i + 1]
            value = text if key in ("arch", "stall") else float(text)
            i += 2
        want[key] = value
    got = {k: j.get(k, "(absent)") for k in want}
    check(f"{cmd} {' '.join(args)}: every input is its flag's key with the value given", rc == 0 and got == want,
          (got, want, err))
# one name, one meaning: divergence's threads are per block (`threads`, as everywhere); roofline's peak bandwidth
# is peak_gbps (as gpuocc bandwidth's), bandwidth_gbps being the predicted bandwidth of bandwidth and latency
rc, j, _ = js("divergence", "--threads", "100")
check("divergence: threads, not threads_per_block", rc == 0 and "threads_per_block" not in j and j.get("threads") == 100, j)
rc, j, _ = js("roofline", "--flops", "2", "--bytes", "12", "--peak-gflops", "19500", "--peak-gbps", "2039")
check("roofline: peak_gbps, not bandwidth_gbps", rc == 0 and "bandwidth_gbps" not in j, j)
rc, j, _ = js("tradeoff", "--arch", "A100", "--threads", "256", "--regs", "128")
check("tradeoff: defaults echoed, warps_needed null when not given",
      rc == 0 and tuple(j.get(k, "(absent)") for k in ("work_cycles", "spill_accesses_per_reg", "spill_latency_cycles",
                                                       "warps_needed", "smem_optin", "carveout", "barriers"))
      == (256, 0.1, 300, None, 1, -1, 1), j)
# tradeoff on AMD takes AMD's launch flags, as report does (gfx942: one unified file of 512 per lane):
# 128 VGPRs + 64 AGPRs = 192 a wave, 2 waves per SIMD = 2 four-wave workgroups; the first cap that gains one is
# 104 VGPRs (104 + 64 = 168, 512 // 168 = 3); the caps are `regs` (registers per thread), as everywhere
rc, j, err = js("tradeoff", "--arch", "MI300X", "--threads", "256", "--vgprs", "128", "--agprs", "64",
                "--model", "runtime", "--rocm", "6.2")
check("tradeoff on AMD: AMD's flags, echoed as report echoes them",
      rc == 0 and (j.get("blocks_per_sm"), j.get("agprs"), j.get("model"), j.get("rocm"), j.get("wave_size"),
                   j.get("barriers"), j.get("sgprs")) == (2, 64, "runtime", "6.2", 64, None, None)
      and j["steps"][0]["regs"] == 104 and j["steps"][0]["blocks_per_sm"] == 3, (j, err))
rc, j, _ = js("tradeoff", "--arch", "A100", "--threads", "256", "--regs", "128")
check("tradeoff on NVIDIA: AMD's fields null", rc == 0 and all(j.get(k, 0) is None for k in
      ("agprs", "sgprs", "wave_size", "cu_mode", "max_threads", "model", "rocm")), j)
# a launch no register cap lets run is not "keep": 256 threads over __launch_bounds__(128) on H100 fit no block
# at any register count; answered (exceeded threads, limit 128, as report names it), the exit 1 as report's.
# A launch that fits says exceeded null.
rc, out, err = run("tradeoff", "--arch", "H100", "--threads", "256", "--regs", "128", "--max-threads", "128", "--json")
j = json.loads(out) if out else {}
check("tradeoff: a launch that cannot run", rc == 1 and j.get("blocks_per_sm") == 0 and j.get("steps") == []
      and (j.get("exceeded"), j.get("exceeded_limit")) == ("threads", 128) and j.get("verdict", "").startswith("cannot run")
      and "launch" in err, (rc, j, err))
rc, j, _ = js("tradeoff", "--arch", "A100", "--threads", "256", "--regs", "128")
check("tradeoff: exceeded null while a block fits", rc == 0 and j.get("exceeded", 0) is None
      and j.get("exceeded_limit", 0) is None, j)
for args, flag in ((["--arch", "MI300X", "--threads", "256", "--vgprs", "128", "--no-optin"], "--no-optin"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "128", "--barriers", "2"], "--barriers"),
                   (["--arch", "A100", "--threads", "256", "--regs", "128", "--sgprs", "32"], "--sgprs"),
                   (["--arch", "MI300X", "--threads", "256"], "--vgprs")):
    rc, out, err = run("tradeoff", *args)
    check(f"tradeoff {' '.join(args)}: usage error naming {flag}", rc == 2 and not out and
          err.startswith(f"gpuocc: {flag}:"), (rc, err))

# the 0.2.0 development names are gone (renamed before release): each alone in an otherwise good command exits 2
# naming it
for cmd, good, old in (
        ("latency", ["--warps-per-sm", "32", "--latency-cycles", "400", "--throughput-per-cycle", "4"],
         [["--warps", "32"], ["--latency", "400"], ["--throughput", "4"]]),
        ("latency", ["--arch", "A100", "--warps-per-sm", "32"], [["--bandwidth", "2039"], ["--sms", "108"]]),
        ("bandwidth", ["--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "256"],
         [["--warps", "32"], ["--sms", "108"], ["--bandwidth", "2039"]]),
        ("waves", ["--grid-blocks", "300", "--sm-count", "132", "--blocks-per-sm", "2"], [["--grid", "300"], ["--sms", "132"]]),
        ("roofline", ["--flops", "2", "--bytes", "12", "--peak-gflops", "19500", "--peak-gbps", "2039"],
         [["--peak-flops", "19500"], ["--bandwidth", "2039"]]),
        ("tradeoff", ["--arch", "A100", "--threads", "256", "--regs", "128"],
         [["--work", "256"], ["--accesses-per-reg", "0.1"], ["--spill-latency", "300"]]),
        ("spill", ["--arch", "A100", "--spill-loads", "8", "--spill-stores", "8", "--grid-threads", "1048576"],
         [["--sms", "108"], ["--l1-hit", "0.9"], ["--l2-hit", "1"], ["--l2-bandwidth", "5450"],
          ["--dram-bandwidth", "2039"], ["--clock", "1410"]]),
        ("plot", ["--arch", "A100", "--threads", "256", "--regs", "128", "--chart", "tradeoff", "--output", "-"],
         [["--work", "256"], ["--accesses-per-reg", "0.1"], ["--spill-latency", "300"]])):
    rc, out, err = run(cmd, *good)
    check(f"{cmd} {' '.join(good)}: the new names answer", rc == 0 and out, err)
    for o in old:
        rc, out, err = run(cmd, *good, *o)
        check(f"{cmd} {o[0]}: an unknown option now (exit 2, named)", rc == 2 and err.startswith(f"gpuocc: {o[0]}:")
              and not out, f"{rc} {err!r}")

# ---- errors: exit 2, the flag named ----
for args, field in ((["bandwidth", "--arch", "A100", "--bytes-per-warp", "256"], "--warps-per-sm"),
                    (["bandwidth", "--arch", "A100", "--warps-per-sm", "32"], "--bytes-per-warp"),
                    (["bandwidth", "--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "0"], "--bytes-per-warp"),
                    (["bandwidth", "--arch", "A100", "--warps-per-sm", "-1", "--bytes-per-warp", "256"], "--warps-per-sm"),
                    (["bandwidth", "--arch", "T4", "--warps-per-sm", "32", "--bytes-per-warp", "256"], "--latency-ns"),
                    (["bandwidth", "--arch", "sm_80", "--warps-per-sm", "32", "--bytes-per-warp", "256"], "--sm-count"),
                    (["bandwidth", "--arch", "A1000", "--warps-per-sm", "32", "--bytes-per-warp", "256"], "--arch"),
                    (["bandwidth", "--warps-per-sm", "32", "--bytes-per-warp", "256"], "--sm-count")):
    rc, out, err = run(*args)
    check(f"error {' '.join(args)}", rc == 2 and field in err and not out, f"{rc} {err!r}")

# ---- text rounds real numbers for people, JSON keeps every digit ----
# latency: in_flight = latency x throughput = 3 x 0.1, which as doubles is 0.30000000000000004
three_tenths = 3 * 0.1
rc, j, err = js("latency", "--warps-per-sm", "32", "--latency-cycles", "3", "--throughput-per-cycle", "0.1")
check("json full precision: in_flight", rc == 0 and j.get("in_flight") == three_tenths
      and j.get("warps_needed") == three_tenths, j)
rc, out, err = run("latency", "--warps-per-sm", "32", "--latency-cycles", "3", "--throughput-per-cycle", "0.1")
lines = dict(l.split(None, 1) for l in out.splitlines() if not l.startswith("verdict"))
check("text rounded: in_flight 0.3", rc == 0 and lines.get("in_flight") == "0.3"
      and lines.get("warps_needed") == "0.3", out)
# bandwidth on A100 at 7 warps of 100 bytes: warps_for_90 and the unloaded latency are long decimals
# (by hand: warps_for() above, and 552 cycles / 1.41 GHz = 391.48936170212767 ns)
want90, want_l0 = warps_for(0.9, 100), A100_L0_NS
rc, j, err = js("bandwidth", "--arch", "A100", "--warps-per-sm", "7", "--bytes-per-warp", "100")
check("json full precision: warps_for_90", rc == 0 and abs(j.get("warps_for_90", 0) - want90) < 1e-9 * want90
      and abs(j.get("latency_ns", 0) - want_l0) < 1e-12 * want_l0, j)
rc, out, err = run("bandwidth", "--arch", "A100", "--warps-per-sm", "7", "--bytes-per-warp", "100", "--json")
check("json prints more than 6 digits", f'"latency_ns":{repr(j.get("latency_ns"))}' in out, out)
rc, out, err = run("bandwidth", "--arch", "A100", "--warps-per-sm", "7", "--bytes-per-warp", "100")
lines = dict(l.split(None, 1) for l in out.splitlines() if not l.startswith("verdict"))
check("text rounded: latency_ns 391.489", rc == 0 and lines.get("latency_ns") == "391.489", out)
check("text rounded: warps_for_90", lines.get("warps_for_90") == f"{want90:.6g}", (f"{want90:.6g}", out))
check("text keeps whole numbers whole", lines.get("peak_gbps") == "2039" and lines.get("bytes_in_flight_per_sm") == "700",
      out)

# Verdicts within the hardware.  An A100 SM holds 2048 threads / 32 = 64 warps (CUDA C++ Programming
# Guide, compute capability 8.0); 80 is more: answered with the flag and one stderr line.  The 229.7 warps the
# loaded model asks for cannot reside: at 64 warps, in_flight / 64 loads per warp close the gap instead.
p = subprocess.run([GPUOCC, "latency", "--arch", "A100", "--warps-per-sm", "80", "--json"], capture_output=True,
                   text=True)
j = json.loads(p.stdout)
check("latency over the SM: flagged", p.returncode == 0 and j["max_warps_per_sm"] == 64 and j["warps_over_sm"] is True
      and j["warps_needed_over_sm"] is True, p.stdout)
check("latency over the SM: one stderr line", p.stderr.count("\n") == 1 and "64 warps" in p.stderr, p.stderr)
check("latency: the ILP at a full SM", math.isclose(j["ilp_at_max_warps"], j["in_flight"] / 64)
      and "an SM holds 64 warps" in j["verdict"], p.stdout)
p = subprocess.run([GPUOCC, "bandwidth", "--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "128",
                    "--json"], capture_output=True, text=True)
j = json.loads(p.stdout)
check("bandwidth within the SM", j["warps_over_sm"] is False and j["warps_needed_over_sm"] is True
      and math.isclose(j["bytes_per_warp_at_max_warps"], j["warps_for_90"] * 128 / 64) and p.stderr == "", p.stdout)

finish("test_cli_models")
