#!/usr/bin/env python3
"""C, the CLI and Python give the same answer on the same inputs, with each interface's defaults
(CONVENTIONS.md: shared-memory opt-in on everywhere).  Expected values derived by hand:
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
readers = [("ptxas", "ptxas_sm90.log", lambda b: gpuocc.read_ptxas(b)),
           ("remarks", os.path.join("remarks", "gfx942.log"), lambda b: gpuocc.read_remarks(b)),
           ("cubin", "kernels_sm90.cubin", lambda b: gpuocc.read_cubin(b)),
           ("binary", "units_rdc_zstd.o", lambda b: gpuocc.read_binary(b).kernels),
           ("binary", "hip_ccob.o", lambda b: gpuocc.read_binary(b).kernels),
           ("binary", "amdgpu_gfx90a.o", lambda b: gpuocc.read_binary(b).kernels)]
for command, name, read in readers:
    path = os.path.join(DATA, name)
    arch = ["--arch", "gfx942"] if command == "remarks" else []  # remarks do not name their target
    out = subprocess.run([cli, command, path, "--threads", "64", "--json"] + arch, capture_output=True,
                         text=True).stdout
    rows = json.loads(out)
    rows = rows if isinstance(rows, list) else [rows]
    with open(path, "rb") as f:
        records = read(f.read())
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
sys.exit(1 if failed else 0)
