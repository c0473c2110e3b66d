#!/usr/bin/env python3
"""C, the CLI and Python give the same answer on the same inputs, with each interface's defaults
(shared-memory opt-in is on by default everywhere).  Expected values derived by hand:
  A100, 256 threads, 64 KiB dynamic: 64 KiB + 1 KiB reserved = 65 KiB a block; 164 KiB / 65 KiB
  = 2 blocks (16 warps, 25 %), limited by shared memory; without opt-in the 48 KiB per-block limit
  refuses it: 0 blocks.
  H100, 128 threads, 40 registers: 40 x 32 = 1280 a warp (256-multiple); 16384 / 1280 = 12 warps
  per sub-partition = 48 warps = 12 blocks (75 %), limited by registers.

Usage: check_agreement.py AGREE_EXE GPUOCC_CLI   (GPUOCC_LIBRARY and PYTHONPATH set by Meson)"""
import dataclasses
import json
import os
import subprocess
import sys
import tempfile

import gpuocc

agree, cli = sys.argv[1], sys.argv[2]
cases = [  # arch, threads, regs, smem_dynamic, optin (None: each interface's default), blocks, limiters
    ("A100", 256, 0, 64 * 1024, None, 2, ["shared_memory"]),
    ("A100", 256, 0, 64 * 1024, 0, 0, ["shared_memory"]),
    ("A100", 256, 0, 64 * 1024, 1, 2, ["shared_memory"]),
    ("H100", 128, 40, 0, None, 12, ["registers"]),
]
failed = False
for arch, threads, regs, smem, optin, blocks, limiters in cases:
    c = subprocess.run([agree, arch, str(threads), str(regs), str(smem)] + ([str(optin)] if optin is not None else []),
                       capture_output=True, text=True, check=True).stdout.split()
    c_answer = (int(c[0]), float(c[1]), list(gpuocc.limiter_names(int(c[2]))))

    args = [cli, "report", "--arch", arch, "--threads", str(threads), "--regs", str(regs),
            "--smem-dynamic", str(smem), "--json"] + (["--no-optin"] if optin == 0 else [])
    out = json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
    cli_answer = (out["blocks_per_sm"], round(out["occupancy"], 6), out["limiters"])

    kw = {} if optin is None else {"smem_optin": bool(optin)}
    r = gpuocc.occupancy(arch, gpuocc.kernel(threads=threads, regs=regs, smem_dynamic=smem, **kw))
    py_answer = (r.blocks_per_sm, round(r.occupancy, 6), list(r.limiters))

    max_warps = gpuocc.device(arch).max_threads_per_sm // 32
    expected = (blocks, round(blocks * ((threads + 31) // 32) / max_warps, 6), limiters)
    line = f"{arch} threads={threads} regs={regs} smem_dynamic={smem} optin={optin}"
    for name, answer in (("C", c_answer), ("CLI", cli_answer), ("Python", py_answer)):
        if answer != expected:
            print(f"{line}: {name} says {answer}, expected {expected}")
            failed = True
    print(f"{line}: C, CLI and Python: {blocks} blocks/SM")

# One vocabulary: the readers' records in Python have the keys and values of the CLI's JSON for the same
# input (None where JSON says null); the few fields only Python has are named here.
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
PYTHON_ONLY = {"entry", "line", "lmem", "max_blocks_per_cluster", "amd_mach", "code_object_version"}
def contents(path):
    with open(path, "rb") as f:
        return f.read()


# each reader is given what the CLI is given: a binary its path (the rows name their file), the others the bytes
readers = [("ptxas", "ptxas_sm90.log", lambda p: gpuocc.read_ptxas(contents(p))),
           ("remarks", os.path.join("remarks", "gfx942.log"), lambda p: gpuocc.read_remarks(contents(p))),
           ("cubin", "kernels_sm90.cubin", lambda p: gpuocc.read_cubin(contents(p))),
           ("binary", "units_rdc_zstd.o", lambda p: gpuocc.read_binary(p).kernels),
           ("binary", "hip_ccob.o", lambda p: gpuocc.read_binary(p).kernels),
           ("binary", "amdgpu_gfx90a.o", lambda p: gpuocc.read_binary(p).kernels)]
# a code object whose metadata records none of the counts (each key renamed, same length): -1 / null / None
with open(os.path.join(DATA, "amdgpu_gfx90a.o"), "rb") as f:
    blob = f.read()
for key in (b".sgpr_count", b".vgpr_count", b".vgpr_spill_count", b".sgpr_spill_count", b".wavefront_size",
            b".max_flat_workgroup_size", b".uses_dynamic_stack", b".private_segment_fixed_size",
            b".group_segment_fixed_size"):
    blob = blob.replace(key, key[:-1] + b"X")
unrecorded = os.path.join(tempfile.mkdtemp(), "unrecorded.o")
with open(unrecorded, "wb") as f:
    f.write(blob)
readers.append(("binary", unrecorded, lambda p: gpuocc.read_binary(p).kernels))
for command, name, read in readers:
    path = os.path.join(DATA, name)
    arch = ["--arch", "gfx942"] if command == "remarks" else []  # remarks do not name their target
    out = subprocess.run([cli, command, path, "--threads", "64", "--json"] + arch, capture_output=True,
                         text=True).stdout
    rows = json.loads(out)
    rows = rows if isinstance(rows, list) else [rows]
    records = read(path)
    if len(rows) != len(records):
        print(f"{command} {name}: the CLI read {len(rows)} kernels, Python {len(records)}")
        failed = True
        continue
    compared = 0
    for row, record in zip(rows, records):
        for key, value in dataclasses.asdict(record).items():
            if key not in row:
                if key not in PYTHON_ONLY:
                    print(f"{command} {name}: Python's {key} is no key of the CLI's JSON")
                    failed = True
            elif row[key] != value:
                print(f"{command} {name} {record.name}: {key} is {row[key]!r} in the CLI, {value!r} in Python")
                failed = True
            else:
                compared += 1
    print(f"{command} {name}: {len(records)} kernels, {compared} fields the same in the CLI and Python")
# the AMD result fields, null in JSON and None in Python for NVIDIA
for arch, extra in (("H100", []), ("MI300X", ["--model", "runtime"])):
    out = json.loads(subprocess.run([cli, "report", "--arch", arch, "--threads", "256", "--regs", "64", "--json"]
                                    + extra, capture_output=True, text=True).stdout)
    r = gpuocc.occupancy(arch, gpuocc.kernel(threads=256, regs=64, model="runtime" if extra else None))
    got, want = (r.model, r.waves_per_simd, r.limit_sgprs), (out["model"], out["waves_per_simd"], out["limit_sgprs"])
    if got != want:
        print(f"{arch}: Python says model, waves_per_simd, limit_sgprs = {got}, the CLI {want}")
        failed = True

# One vocabulary for the models: each Python model function takes the CLI's inputs under their JSON keys (the
# flag with '-' read as '_'), and answers the same.  The keywords below become both the CLI's flags and Python's
# keyword arguments, so a name that differs between the two fails here.
def cli_json(command, inputs, extra=()):
    argv = [cli, command] + [a for k, v in inputs.items() for a in ("--" + k.replace("_", "-"), str(v))]
    p = subprocess.run(argv + list(extra) + ["--json"], capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 else {"error": p.stderr.strip()}


def close(a, b):
    return a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-5 * abs(b))


A100_SPILL = {"l2_bandwidth_gbps": 5450, "dram_bandwidth_gbps": 2039, "sm_clock_mhz": 1410}
models = [  # CLI command, its inputs (= Python's keywords), CLI-only flags, Python call, [(JSON key, Python value)]
    ("bandwidth", {"warps_per_sm": 32, "bytes_per_warp": 256}, ["--arch", "A100"],
     lambda kw: gpuocc.bandwidth("A100", **kw),
     lambda r: [("bandwidth_gbps", r.bandwidth_gbps), ("fraction_of_peak", r.fraction_of_peak),
                ("warps_for_90", r.warps_for_90), ("sm_count", r.sm_count), ("peak_gbps", r.peak_gbps)]),
    ("bandwidth", {"warps_per_sm": 48, "bytes_per_warp": 512, "sm_count": 100, "latency_ns": 400, "peak_gbps": 1500,
                   "bus_bits": 4096, "attainable_gbps": 1400},
     [], lambda kw: gpuocc.bandwidth_model(**kw),
     lambda r: [("bandwidth_gbps", r.bandwidth_gbps), ("loaded_latency_ns", r.loaded_latency_ns),
                ("warps_for_80", r.warps_for_80)]),
    ("latency", {"warps_per_sm": 32, "latency_cycles": 400, "throughput_per_cycle": 4, "ilp": 2}, [],
     lambda kw: gpuocc.latency_check(**kw),
     lambda r: [("in_flight", r.in_flight), ("warps_needed", r.warps_needed), ("extra_warps", r.extra_warps),
                ("ilp_needed", r.ilp_needed)]),
    ("waves", {"grid_blocks": 300, "sm_count": 132, "blocks_per_sm": 2}, [], lambda kw: gpuocc.waves(**kw),
     lambda r: [("blocks_per_wave", r.blocks_per_wave), ("waves", r.waves), ("last_wave_blocks", r.last_wave_blocks),
                ("efficiency", r.efficiency), ("grid_down", r.grid_down), ("grid_up", r.grid_up)]),
    ("spill", {"work_cycles": 256, "spill_accesses": 2, "spill_latency_cycles": 300}, [],
     lambda kw: gpuocc.spill_slowdown(**kw), lambda r: [("slowdown", r)]),
    ("spill", {"spill_loads": 8, "spill_stores": 8, "executions": 2, "grid_threads": 1048576, "access_bytes": 8,
               "l1_hit_rate": 0.5, "l2_hit_rate": 0.75, "sm_count": 108},
     [a for k, v in A100_SPILL.items() for a in ("--" + k.replace("_", "-"), str(v))],
     lambda kw: gpuocc.spill_estimate(**kw, l2_bandwidth_bytes_per_s=5450e9, dram_bandwidth_bytes_per_s=2039e9,
                                      clock_hz=1410e6),
     lambda r: [("local_bytes", r.local_bytes), ("instructions", r.instructions), ("spill_us", r.spill_s * 1e6),
                ("dram_us", r.dram_s * 1e6)]),
    ("divergence", {"threads": 100, "warp_size": 32}, [], lambda kw: gpuocc.lane_efficiency(**kw),
     lambda r: [("lane_efficiency", r)]),
    ("divergence", {"experts": 8, "items": 4096, "warp_size": 64}, [], lambda kw: gpuocc.routing(**kw),
     lambda r: [("random_paths_per_warp", r.random_paths), ("sorted_simt_efficiency", r.sorted_efficiency)]),
    ("diagnose", {"stall": "long_scoreboard", "occupancy": 0.25}, [], lambda kw: gpuocc.diagnose(**kw),
     lambda r: [("stall", r.stall), ("occupancy", r.occupancy), ("meaning", r.meaning),
                ("occupancy_helps", r.occupancy_helps), ("verdict", r.verdict)]),
    ("tradeoff", {"work_cycles": 512, "spill_accesses_per_reg": 0.25, "spill_latency_cycles": 400},
     ["--arch", "A100", "--threads", "256", "--regs", "128"],
     lambda kw: gpuocc.tradeoff("A100", gpuocc.kernel(threads=256, regs=128), **kw),
     lambda r: [("steps", [{"regs": s.regs, "spill_slowdown": s.spill_slowdown} for s in r])]),
    ("tradeoff", {"work_cycles": 256, "spill_accesses_per_reg": 0.1, "spill_latency_cycles": 300},
     ["--arch", "MI300X", "--threads", "256", "--vgprs", "128", "--agprs", "64", "--model", "runtime"],
     lambda kw: gpuocc.tradeoff("MI300X", gpuocc.kernel(threads=256, regs=128, agprs=64, model="runtime"), **kw),
     lambda r: [("steps", [{"regs": s.regs, "spill_slowdown": s.spill_slowdown} for s in r])]),
]
for command, inputs, extra, call, pairs in models:
    out = cli_json(command, inputs, extra)
    try:
        py = pairs(call(dict(inputs)))
    except TypeError as e:  # a keyword Python does not take
        print(f"{command} {sorted(inputs)}: Python refuses the CLI's names: {e}")
        failed = True
        continue
    for key, value in py:
        got = out.get(key, "(absent)")
        if key == "steps":
            got = [{k: st[k] for k in ("regs", "spill_slowdown")} for st in got] if isinstance(got, list) else got
            same = isinstance(got, list) and len(got) == len(value) and all(
                a["regs"] == b["regs"] and close(a["spill_slowdown"], b["spill_slowdown"])
                for a, b in zip(got, value)) and len(value) > 0
        else:
            same = close(got, value)
        if not same:
            print(f"{command} {inputs}: {key} is {got!r} in the CLI, {value!r} in Python ({out.get('error', '')})")
            failed = True
    print(f"{command} {sorted(inputs)}: the CLI's keys are Python's keywords, {len(py)} answers the same")

# Columns: Python's sweep() and batch() on an AMD device have the result keys of `gpuocc sweep --json` and
# `gpuocc batch --json` (AMD's waves_per_simd and limit_sgprs included), with the same values (-1 in an array
# where JSON has null; limiters as a mask).  gfx906 with 100 SGPRs is limited by them at the small block sizes.
def column_value(key, value):
    if key == "limiters":
        return list(gpuocc.limiter_names(value))
    if key.startswith("limit_") and value == -1:
        return None
    return value


RESULT_KEYS = ["blocks_per_sm", "warps_per_sm", "occupancy", "limiters", "limit_warps", "limit_regs", "limit_smem",
               "limit_blocks", "limit_barriers", "regs_per_block", "smem_per_block", "waves_per_simd", "limit_sgprs"]
amd = gpuocc.kernel(64, regs=16, sgprs=100)
for axis, flags in (("regs", ["--from", "0", "--to", "96", "--step", "32"]), ("threads", [])):
    rows = json.loads(subprocess.run([cli, "sweep", "--arch", "gfx906", "--threads", "64", "--vgprs", "16", "--sgprs",
                                      "100", "--axis", axis, "--json"] + flags, capture_output=True, text=True).stdout)
    cols = gpuocc.sweep("gfx906", amd, axis, *((0, 96, 32) if flags else ()))
    swept = {"regs": "regs", "threads": "threads"}[axis]
    echo = [swept, "sgprs", "wave_size"]  # the launch as both print it (wave_size: the target's, 64 on gfx906)
    want = [[row[k] for k in echo] + [row[k] for k in RESULT_KEYS] for row in rows]
    got = [[cols[k][i] for k in echo] + [column_value(k, cols[k][i]) for k in RESULT_KEYS] for i in range(cols.rows)]
    if got != want or not want:
        print(f"sweep gfx906 --axis {axis}: Python {got[:3]}..., the CLI {want[:3]}...")
        failed = True
    print(f"sweep gfx906 --axis {axis}: Python's columns are the CLI's rows ({len(want)} points)")
threads, regs = [64, 256, 1024], [16, 100, 16]
lines = "".join(f"gfx906,{t},{r},100\n" for t, r in zip(threads, regs))
rows = [json.loads(line) for line in subprocess.run([cli, "batch", "--json"], input="arch,threads,regs,sgprs\n" + lines,
                                                    capture_output=True, text=True).stdout.splitlines()]
cols = gpuocc.batch("gfx906", threads, regs, kern=amd)
want = [[row[k] for k in RESULT_KEYS] for row in rows]
got = [[column_value(k, cols[k][i]) for k in RESULT_KEYS] for i in range(cols.rows)]
if got != want or len(want) != 3:
    print(f"batch gfx906: Python {got}, the CLI {want}")
    failed = True
print(f"batch gfx906: Python's columns are the CLI's rows ({len(want)} launches)")
sys.exit(1 if failed else 0)
