#!/usr/bin/env python3
"""Answers that are answers, inputs within the launch API: a grid beyond what the vendor's launch API takes is
refused by name, waves of a grid without --cluster, error lines that state the true count and name the input
that overflowed, every product's whole name, a binary entry that cannot run on --arch said so (exit 1), and the
launch bounds a ptxas log does not record (and a cubin does) said so.  Every expected value is derived by hand
from the rules (docs/output.md, docs/model.md) or from the fixtures' own compile (tests/data).
Usage: test_cli_bounds.py GPUOCC DATA_DIR"""
import csv
import io
import json
import os
import subprocess
import sys

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]


def run(*args):
    p = subprocess.run([GPUOCC] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def data(name):
    return os.path.join(DATA, name)


# ---- bandwidth and latency: an overflow names the input it comes from ----
# H100: 3352 GB/s, 132 SMs, the light-load ratio 1.69.  The warps for 80 % of the attainable bandwidth are
# 0.8 x 3352 x (1.69 x L + ...) / (128 x 132): with L = 1e305 ns that is over 4.5e308, past the largest double
# (1.8e308).  The latency overflowed, not the one warp given.
rc, out, err = run("bandwidth", "--arch", "H100", "--warps-per-sm", "1", "--bytes-per-warp", "128", "--latency-ns", "1e305")
check("bandwidth: a latency overflow names --latency-ns", rc == 2 and "--latency-ns" in err and "--warps-per-sm" not in err,
      (rc, err))
rc, out, err = run("latency", "--arch", "H100", "--warps-per-sm", "1", "--latency-cycles", "1e306")
check("latency: a latency overflow names --latency-cycles", rc == 2 and "--latency-cycles" in err
      and "--warps-per-sm" not in err, (rc, err))
# 1e300 warps of 1e300 bytes: the bytes in flight overflow, the warps' input
rc, out, err = run("bandwidth", "--arch", "H100", "--warps-per-sm", "1e300", "--bytes-per-warp", "1e300")
check("bandwidth: bytes in flight overflowing name the warps", rc == 2 and "--warps-per-sm" in err, (rc, err))
rc, out, err = run("bandwidth", "--arch", "H100", "--warps-per-sm", "1", "--bytes-per-warp", "1e308")
check("bandwidth: bytes per warp overflowing name them", rc == 2 and "--bytes-per-warp" in err, (rc, err))

# ---- grids within the launch API, and their waves ----
H100 = ["report", "--arch", "H100", "--threads", "256", "--regs", "32"]
# H100, 256 threads of 32 registers: 8 warps a block, 8192 registers a block; 64 warp slots and 65536
# registers give 8 blocks per SM, 132 SMs x 8 = 1056 blocks a wave.
for grid, waves in (("300", 1), ("2500", 3), ("1056x2", 2), ("2147483647", -(-2147483647 // 1056)),
                    ("1x65535x65535", -(-65535 * 65535 // 1056))):
    rc, out, err = run(*H100, "--grid-blocks", grid, "--json")
    j = json.loads(out) if rc == 0 else {}
    dims = [int(x) for x in grid.split("x")]
    total = dims[0] * (dims[1] if len(dims) > 1 else 1) * (dims[2] if len(dims) > 2 else 1)
    check(f"H100 waves of {grid} without --cluster", rc == 0 and j.get("waves") == waves and j.get("grid_blocks") == total
          and j.get("cluster_x") is None, (rc, err, {k: j.get(k) for k in ("grid_blocks", "waves")}))
rc, out, err = run(*H100, "--grid-blocks", "2500")
check("H100 waves in text", rc == 0 and "waves       3 for a grid of 2500 blocks: 1056 per wave (132 SMs x 8); the last "
      "holds 388 (36.7 % full)" in out, out)
rc, out, err = run(*H100, "--grid-blocks", "2500", "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("H100 waves in CSV", rc == 0 and rows and rows[0].get("waves") == "3" and rows[0].get("grid_blocks") == "2500",
      (rc, out))
rc, out, err = run(*H100, "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("no grid: waves empty", rc == 0 and rows and rows[0].get("waves") == "" and rows[0].get("grid_blocks") == "", out)
# MI300X, 256 threads of 32 VGPRs: 4 waves of 64; 512 VGPRs a lane / 32 = 16, capped at 8 waves per SIMD, 4 SIMDs:
# 32 waves, 8 workgroups per CU; 304 CUs: 2432 a wave
rc, out, err = run("report", "--arch", "MI300X", "--threads", "256", "--vgprs", "32", "--grid-blocks", "5000", "--json")
j = json.loads(out) if rc == 0 else {}
check("MI300X waves", rc == 0 and j.get("blocks_per_sm") == 8 and j.get("waves") == 3, (rc, err, j.get("waves")))
# Max 1550, 256 work-items in sub-groups of 16: 16 hardware threads a work-group; an Xe-core's 8 XVEs x 8 threads
# hold 4; 128 Xe-cores: 512 a wave
rc, out, err = run("report", "--arch", "Max1550", "--threads", "256", "--grid-blocks", "10000")
check("Max 1550 waves", rc == 0 and "waves       20 for a grid of 10000 work-groups: 512 per wave (128 Xe-cores x 4)"
      in out, (rc, err, out))
rc, out, err = run("report", "--arch", "sm_90", "--threads", "256", "--regs", "32", "--grid-blocks", "300")
check("waves on a bare architecture: refused", rc == 2 and out == "" and "--grid-blocks" in err and "product" in err,
      (rc, err))
# a launch that fits no block: no waves (the report exits 1 for the launch)
rc, out, err = run("report", "--arch", "A100", "--threads", "1024", "--regs", "255", "--grid-blocks", "300", "--json")
j = json.loads(out) if out else {}
check("0 blocks: waves null", rc == 1 and j.get("waves") is None and j.get("grid_blocks") == 300, (rc, err))

# CUDA: gridDim.x at most 2^31-1, y and z at most 65535
for grid, limit in (("4294967296", "2147483647"), ("2147483648", "2147483647"), ("1x65536", "65535"),
                    ("1x1x65536", "65535"), ("4611686018427387904x4611686018427387904x4", "2147483647")):
    for extra in ([], ["--cluster", "1"]):
        rc, out, err = run(*H100, "--grid-blocks", grid, *extra)
        check(f"CUDA grid {grid} {extra} refused", rc == 2 and out == "" and err.count("\n") == 1
              and "--grid-blocks" in err and limit in err and "CUDA" in err, (rc, out[:200], err))
# HIP and Level Zero: 2^32-1 per dimension; any vendor: 2^63-1 in all
rc, out, err = run("report", "--arch", "MI300X", "--threads", "256", "--vgprs", "32", "--grid-blocks", "4294967296")
check("HIP grid x refused", rc == 2 and "4294967295" in err and "HIP" in err, (rc, err))
rc, out, err = run("report", "--arch", "MI300X", "--threads", "256", "--vgprs", "32", "--grid-blocks", "4294967295")
check("HIP grid x at its limit", rc == 0 and json.loads(run("report", "--arch", "MI300X", "--threads", "256", "--vgprs",
      "32", "--grid-blocks", "4294967295", "--json")[1])["waves"] == -(-4294967295 // 2432), (rc, err))
rc, out, err = run("report", "--arch", "MI300X", "--threads", "256", "--vgprs", "32", "--grid-blocks",
                   "4294967295x4294967295x4294967295")
check("a product past 2^63-1 refused", rc == 2 and "9223372036854775807" in err and "--grid-blocks" in err, (rc, err))
rc, out, err = run("report", "--arch", "Max1550", "--threads", "256", "--grid-blocks", "1x4294967296")
check("Level Zero grid y refused", rc == 2 and "4294967295" in err and "Level Zero" in err, (rc, err))
rc, out, err = run("sweep", *H100[1:], "--axis", "cluster", "--grid-blocks", "1x65536", "--csv")
check("sweep --axis cluster: grid refused", rc == 2 and out == "" and "65535" in err, (rc, err))

# ---- the cluster error states the true count ----
# each cluster dimension divides the grid's: y and z at most 65535 on CUDA, so the count fits 64 bits
rc, out, err = run(*H100, "--cluster", "2147483647x2147483647x2147483647")
check("cluster beyond the grid's limits refused", rc == 2 and "--cluster" in err and "65535" in err
      and "4611686024869838847" not in err, (rc, err))
rc, out, err = run("report", "--arch", "MI300X", "--threads", "256", "--vgprs", "32", "--cluster",
                   "2147483647x2147483647x2147483647")
check("an AMD cluster: refused as not modelled, not by a count", rc == 2 and "not modelled" in err, (rc, err))
rc, out, err = run(*H100, "--cluster", "3x65535x65535")
check("cluster count exact", rc == 2 and str(3 * 65535 * 65535) + " blocks" in err, (rc, err))
rc, out, err = run(*H100, "--cluster", "2147483647x65535x65535")
check("cluster count exact at the limits", rc == 2 and str(2147483647 * 65535 * 65535) + " blocks" in err, (rc, err))

# ---- devices: every product's whole name, and each name printed looks up to that device ----
rc, out, err = run("devices", "--json")
table = json.loads(out) if rc == 0 else []
rc, text, err = run("devices")
printed = []
for line in text.splitlines():
    if not line.strip() or line.startswith("name ") or line.startswith(" " * 18):
        continue  # blank, a vendor's header, the figures under a long name
    printed.append(line[:18].strip() if len(line) > 19 and line[18] == " " and line[19] != " " else line.strip())
names = [d["name"] for d in table]
check("devices: the table prints every name whole", printed == names, sorted(set(printed) ^ set(names)))
check("devices: no two names alike", len(set(names)) == len(names), names)
check("devices: the Intel products longer than 18 characters whole",
      {"Data Center GPU Max 1550", "Data Center GPU Max 1100", "Data Center GPU Flex 140 (one GPU)"} <= set(printed),
      printed)
check("devices: still 100 columns", max(len(l) for l in text.splitlines()) <= 100, "")
for d in table:
    regs = {"nvidia": ["--regs", "32"], "amd": ["--vgprs", "32"], "intel": []}[d["vendor"]]
    rc, out, err = run("report", "--arch", d["name"], "--threads", "64", *regs, "--json")
    r = json.loads(out) if rc in (0, 1) and out else {}
    check(f"devices: '{d['name']}' looks up to its device", (r.get("vendor"), r.get("arch"), r.get("sm_count"))
          == (d["vendor"], d["arch"], d["sm_count"]), (rc, err, r.get("arch"), r.get("sm_count"), d["arch"], d["sm_count"]))
# the short names the lookup took before still name the same products
for short, full in (("Max1550", "Data Center GPU Max 1550"), ("max1100", "Data Center GPU Max 1100"),
                    ("flex140", "Data Center GPU Flex 140 (one GPU)")):
    a = json.loads(run("report", "--arch", short, "--threads", "64", "--json")[1])
    b = json.loads(run("report", "--arch", full, "--threads", "64", "--json")[1])
    check(f"devices: '{short}' is '{full}'", (a["arch"], a["sm_count"]) == (b["arch"], b["sm_count"]), (a, b))

# ---- a binary entry that cannot run on --arch says why, and the exit is 1 ----
# hip_ccob.o holds scale and tile for gfx1100 (wave32, as llvm-readelf shows its notes' .wavefront_size) and for
# gfx90a (wave64); gfx942 (MI300X) runs wave64 only (docs/amd.md): the gfx1100 entries cannot run there.
for mode in ([], ["--csv"], ["--json"]):
    rc, out, err = run("binary", data("hip_ccob.o"), "--arch", "MI300X", "--threads", "256", *mode)
    check(f"ccob on MI300X {mode}: exit 1", rc == 1, (rc, err))
    check(f"ccob on MI300X {mode}: why, per entry", err.count("built for gfx1100 (wave32), cannot run on MI300X (gfx942: "
          "wave64 only)") == 2 and "_Z5scalePff" in err and "_Z4tilePf" in err and err.count("\n") == 2, err)
    if mode == ["--json"]:
        js = json.loads(out)
        check("ccob on MI300X: every row kept, the gfx90a ones answered",
              [(r["target"].rsplit("-", 1)[-1], r["status"], r["occupancy"] is None) for r in js]
              == [("gfx1100", "wave_size", True)] * 2 + [("gfx90a", "ok", False)] * 2, js)
    if mode == []:
        check("ccob on MI300X table: no 0.0 % argument", "argument" not in out and out.count("wave_size") == 2, out)
# on its own targets every entry runs (exit 0, no line)
rc, out, err = run("binary", data("hip_ccob.o"), "--threads", "256")
check("ccob on its own targets", rc == 0 and err == "", (rc, err))

# ---- launch bounds: a ptxas log does not record them (said so), a cubin does (used) ----
# tests/cuda/kernels.cu builds register_heavy with __launch_bounds__(256, 2); ptxas's log of it (ptxas_sm75.log:
# 48 registers) records no bound.  sm_75: 48 registers a thread are 1536 a warp, 10 warps a sub-partition's 16384,
# over the SM's 32 warp slots: the warps limit 32 at any block size, so the search takes the largest block.
rc, out, err = run("ptxas", data("ptxas_sm75.log"), "--best-block", "--json")
js = {r.get("short_name"): r for r in json.loads(out)} if rc == 0 else {}
rh = js.get("register_heavy", {})
check("ptxas: the bound is unknown, and said so", rc == 0 and all(r.get("launch_bound") == "unknown" and r.get("max_threads") is None
      and r.get("min_blocks") is None and r.get("threads_from") == "best_block" for r in js.values()) and len(js) == 6, (rc, err))
check("ptxas --best-block without --max-threads: past the source's 256", rh.get("threads") == 1024, rh)
# --max-threads 256: within it, 256 threads of 8 warps: 4 blocks, the 32 slots full (a smaller block ties: the
# largest wins)
rc, out, err = run("ptxas", data("ptxas_sm75.log"), "--best-block", "--max-threads", "256", "--json")
js = {r.get("short_name"): r for r in json.loads(out)} if rc == 0 else {}
rh = js.get("register_heavy", {})
check("ptxas --max-threads caps --best-block", rc == 0 and (rh.get("threads"), rh.get("blocks_per_sm"), rh.get("occupancy"))
      == (256, 4, 1.0) and all(r.get("threads") <= 256 and r.get("launch_bound") == "flag" and r.get("max_threads") == 256
                               for r in js.values()), (rc, err, rh))
rc, out, err = run("ptxas", data("ptxas_sm75.log"), "--threads", "512", "--max-threads", "256")
check("ptxas --threads above --max-threads refused", rc == 2 and "--threads" in err and "256" in err, (rc, err))
rc, out, err = run("ptxas", data("ptxas_sm75.log"), "--threads", "128", "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("ptxas CSV: launch_bound unknown, max_threads -1", rc == 0 and rows and all(
      (r.get("launch_bound"), r.get("threads_from"), r.get("max_threads"), r.get("min_blocks")) == ("unknown", "flag", "-1", "-1")
      for r in rows), rows[:1])
rc, out, err = run("ptxas", data("ptxas_sm75.log"))
check("ptxas without --threads: refused, saying why", rc == 2 and "launch bound" in err, (rc, err))

# a cubin records the bound (EIATTR_MAX_THREADS): without --threads it is the block.  bounds.cu's kernels are
# __launch_bounds__(256, 4) and (256, 8): at 256 threads bounds_reached (8 registers) fills the 64 warp slots with 8
# blocks; bounds_smem's 32 KiB + 1 KiB reserved leave 233472 / 33792 = 6 blocks, 48 warps
rc, out, err = run("cubin", data("bounds_sm90.cubin"), "--json")
js = {r.get("name"): r for r in json.loads(out)} if rc == 0 else {}
check("cubin without --threads: its recorded bound", rc == 0 and err == "" and
      {n: (r.get("threads"), r.get("threads_from"), r.get("launch_bound"), r.get("blocks_per_sm")) for n, r in js.items()}
      == {"bounds_reached": (256, "launch_bound", "recorded", 8), "bounds_smem": (256, "launch_bound", "recorded", 6)},
      (rc, err, out[:300]))
# kernels_sm90.cubin: only register_heavy records a bound (256): 43 registers, 48 allocated, 1536 a warp, 10 warps
# a sub-partition, 40 an SM: 5 blocks of 8 warps.  The others record none: a row each, a line each, exit 1.
rc, out, err = run("cubin", data("kernels_sm90.cubin"), "--csv")
rows = {r.get("short_name"): r for r in csv.DictReader(io.StringIO(out))}
rh = rows.get("register_heavy", {})
check("cubin: the kernel with a bound answered at it", (rh.get("threads"), rh.get("threads_from"), rh.get("status"),
      rh.get("blocks_per_sm"), rh.get("min_blocks_reached")) == ("256", "launch_bound", "ok", "5", "true"), rh)
others = [r for n, r in rows.items() if n != "register_heavy"]
check("cubin: the kernels without one kept, status no_threads", rc == 1 and len(rows) == 7 and all(
      (r.get("status"), r.get("threads"), r.get("threads_from"), r.get("launch_bound"), r.get("blocks_per_sm")) == ("no_threads", "-1", "", "none", "")
      for r in others) and err.count("no launch bound") == 6 and err.count("\n") == 6, (rc, err, others[:1]))
rc, out, err = run("cubin", data("kernels_sm90.cubin"), "--threads", "128")
check("cubin --threads: every kernel answered", rc == 0 and "no_threads" not in out, (rc, err))
# AMD code objects record .max_flat_workgroup_size (hipcc's default 1024 for these kernels, as the notes show);
# Intel zebins record required_work_group_size (reqd_work_group_size); kernels_dg2's have none: launch_bound none
# (reqd_pvc.bin's bounds are checked in tests/test_cli_zebin.py)
rc, out, err = run("binary", data("hip_ccob.o"), "--json")
js = json.loads(out) if rc == 0 else []
check("binary AMD without --threads: the flat workgroup maximum", rc == 0 and len(js) == 4 and all(
      (r.get("threads"), r.get("max_threads"), r.get("threads_from"), r.get("launch_bound"), r.get("status")) == (1024, 1024, "launch_bound",
                                                                                            "recorded", "ok") for r in js), (rc, err))
rc, out, err = run("binary", data("hip_ccob.o"), "--max-threads", "256", "--json")
js = json.loads(out) if rc == 0 else []
check("binary AMD --max-threads: the bound given", rc == 0 and all((r.get("threads"), r.get("launch_bound")) == (256, "flag")
                                                                  for r in js), (rc, err))
rc, out, err = run("binary", os.path.join(DATA, "zebin", "kernels_dg2.bin"), "--json")
js = json.loads(out) if rc == 1 else []
check("binary Intel without --threads: no bound, no_threads", len(js) == 2 and all(
      (r.get("status"), r.get("threads"), r.get("threads_from"), r.get("launch_bound"), r.get("max_threads")) ==
      ("no_threads", None, None, "none", 0)
      for r in js) and err.count("\n") == 2, (rc, err))
rc, out, err = run("binary", os.path.join(DATA, "zebin", "kernels_dg2.bin"))
check("table: no_threads rows show '-', not 0", rc == 1 and all(l.split()[-5:-2] == ["-", "-", "-"]
                                                               for l in out.splitlines()[1:]), out)

finish("test_cli_bounds")
