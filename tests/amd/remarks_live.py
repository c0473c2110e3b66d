#!/usr/bin/env python3
"""`gpuocc remarks` against clang-19 live (suite `amd`): generates OpenCL kernels whose resources are pinned by
inline-asm clobbers (VGPRs, AGPRs, SGPRs) and static LDS arrays, one amdgpu_flat_work_group_size maximum per
file, compiles them with -Rpass-analysis=kernel-resource-usage for several targets and modes, and checks
every kernel's figures as `gpuocc remarks --json` parsed them against the remarks read here with a plain
regular expression, and gpuocc's waves per SIMD against LLVM's printed occupancy.  Exit 77 (skip) without
clang-19.

usage: remarks_live.py GPUOCC [--seed N] [--kernels N]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

CLANG = os.environ.get("CLANG", "clang-19")
# target, clang flags, the gpuocc flags that say the same, whether the target has AGPRs
CONFIGS = [("gfx900", [], [], False), ("gfx906", [], [], False), ("gfx908", [], [], True), ("gfx90a", [], [], True),
           ("gfx942", [], [], True), ("gfx1030", [], [], False), ("gfx1100", [], [], False),
           ("gfx1100", ["-mwavefrontsize64"], ["--wave-size", "64"], False),
           ("gfx1100", ["-mcumode"], ["--cu-mode"], False), ("gfx1201", [], [], False)]
# flat workgroup maxima, with VGPR and AGPR ceilings every target above can hold at that size
FLATS = [(64, 256, 128), (256, 200, 48), (512, 96, 64)]
LABELS = {"SGPRs": "sgprs", "VGPRs": "vgprs", "AGPRs": "agprs", "ScratchSize [bytes/lane]": "scratch",
          "Occupancy [waves/SIMD]": "llvm_waves_per_simd", "SGPRs Spill": "sgpr_spills", "VGPRs Spill": "vgpr_spills",
          "LDS Size [bytes/block]": "smem_static", "Dynamic Stack": "dynamic_stack"}
REMARK = re.compile(r"^\S+:\d+:\d+: remark: \s*([A-Za-z][^:]*): (.*) \[-Rpass-analysis=kernel-resource-usage\]$")


def source(rng, flat, vmax, amax, agprs_ok, n):
    out = []
    for i in range(n):
        v = rng.choice([0, rng.randint(1, 32), rng.randint(1, vmax)])
        a = rng.choice([0, rng.randint(1, amax)]) if agprs_ok else 0
        s = rng.choice([0, rng.randint(1, 95), rng.randint(60, 95)])
        words = rng.choice([0, rng.randint(1, 256), rng.randint(1, 12288)])
        clobbers = ['"v%d"' % (v - 1)] * bool(v) + ['"a%d"' % (a - 1)] * bool(a) + ['"s%d"' % (s - 1)] * bool(s)
        body = ["  unsigned t = __builtin_amdgcn_workitem_id_x();"]
        if words:
            body += ["  local int l[%d];" % words, "  l[t %% %du] = o[t];" % words, "  __builtin_amdgcn_s_barrier();",
                     "  o[t] = l[(t * 7u) %% %du];" % words]
        else:
            body.append("  o[t] = (int)t;")
        if clobbers:
            body.append('  __asm__ volatile("" ::: %s);' % ", ".join(clobbers))
        out.append("__attribute__((amdgpu_flat_work_group_size(1, %d)))\nkernel void k%d(global int *o)\n{\n%s\n}\n"
                   % (flat, i, "\n".join(body)))
    return "\n".join(out)


def llvm_said(text):
    kernels = []
    for line in text.splitlines():
        m = REMARK.match(line)
        if not m:
            continue
        label, value = m.groups()
        if label == "Function Name":
            kernels.append({"name": value})
        elif label in LABELS:
            kernels[-1][LABELS[label]] = {"True": 1, "False": 0}[value] if label == "Dynamic Stack" else int(value)
    return kernels


def one(gpuocc, tmp, config, flat, text):
    target, cflags, gflags, _ = config
    path = os.path.join(tmp, "%s%s_%d.cl" % (target, "".join(cflags), flat))
    with open(path, "w") as f:
        f.write(text)
    cc = subprocess.run([CLANG, "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, "-nogpulib", "-O2", "-c", path,
                         "-o", os.devnull, "-Rpass-analysis=kernel-resource-usage"] + cflags,
                        capture_output=True, text=True)
    if cc.returncode != 0:
        return [f"{target} {cflags} flat {flat}: clang failed: {cc.stderr[-500:]}"], 0
    want = llvm_said(cc.stderr)
    g = subprocess.run([gpuocc, "remarks", "-", "--arch", target, "--threads", str(flat), "--max-threads", str(flat),
                        "--model", "llvm19", "--json"] + gflags, input=cc.stderr, capture_output=True, text=True)
    if g.returncode != 0:
        return [f"{target} {cflags} flat {flat}: gpuocc remarks exit {g.returncode}: {g.stderr[-300:]}"], 0
    got = json.loads(g.stdout)
    problems = []
    if [k["name"] for k in got] != [k["name"] for k in want]:
        return [f"{target} {cflags} flat {flat}: kernels {len(got)} read, {len(want)} in the remarks"], 0
    for gk, wk in zip(got, want):
        for key in LABELS.values():
            if gk[key] != wk.get(key):
                problems.append(f"{target} {cflags} {wk['name']}: {key} {gk[key]} != LLVM's {wk.get(key)}")
        if gk["waves_per_simd"] != wk["llvm_waves_per_simd"]:
            problems.append(f"{target} {cflags} flat {flat} {wk['name']}: gpuocc {gk['waves_per_simd']} waves/SIMD, "
                            f"LLVM {wk['llvm_waves_per_simd']} ({wk})")
    return problems, len(got)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpuocc")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--kernels", type=int, default=24, help="kernels per file")
    args = ap.parse_args()
    if not shutil.which(CLANG):
        print(f"remarks_live: {CLANG} not found (Debian: apt-get install clang-19); skipped")
        return 77
    rng = random.Random(args.seed)
    jobs = []
    for config in CONFIGS:
        for flat, vmax, amax in FLATS:
            jobs.append((config, flat, source(rng, flat, vmax, amax, config[3], args.kernels)))
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda j: one(args.gpuocc, tmp, *j), jobs))
    problems = [p for ps, _ in results for p in ps]
    kernels = sum(n for _, n in results)
    for p in problems[:20]:
        print("FAIL", p)
    print(f"remarks_live: {kernels} kernels from {len(jobs)} compiles, {len(problems)} problems")
    return 1 if problems or kernels == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
