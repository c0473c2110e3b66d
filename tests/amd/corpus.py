#!/usr/bin/env python3
"""The LLVM oracle for AMD occupancy (suite `amd`).

Generates OpenCL kernels whose resources are pinned by inline-asm register clobbers (VGPRs, AGPRs, SGPRs),
static LDS arrays and amdgpu_flat_work_group_size bounds, many per file so that each target is one compile;
compiles them with clang-19 for every target LLVM 19 knows among gpuocc's (wave32/wave64, WGP/CU mode);
reads LLVM's kernel-resource-usage remarks, and asks gpuocc's LLVM 19 model (through the checker program)
for the same occupancy.  Every kernel must match.  Exit 77 (skip) when clang-19 is absent.

usage: corpus.py CHECKER [--kernels N] [--jobs N] [--seed N] [--keep DIR] [--rows FILE]
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

CLANG = os.environ.get("CLANG", "clang-19")

# gfx6 to gfx8: wave64, no AGPRs; the SGPR clobber ceiling (what LLVM lets a kernel address, less its own:
# gfx802 and gfx805 give every kernel 96 SGPRs) and the LDS a workgroup may use (32 KiB on gfx6)
GFX6_8 = [("gfx600", 101, 32768), ("gfx601", 101, 32768), ("gfx602", 101, 32768), ("gfx700", 99, 65536),
          ("gfx701", 99, 65536), ("gfx702", 99, 65536), ("gfx703", 99, 65536), ("gfx704", 99, 65536),
          ("gfx705", 99, 65536), ("gfx801", 95, 65536), ("gfx802", 89, 65536), ("gfx803", 99, 65536),
          ("gfx805", 89, 65536), ("gfx810", 95, 65536)]

# target, the modes it is compiled in, whether it has AGPRs, SGPR clobber ceiling, LDS per workgroup
GFX9 = [("gfx900", False), ("gfx902", False), ("gfx904", False), ("gfx906", False), ("gfx908", True),
        ("gfx909", False), ("gfx90a", True), ("gfx90c", False), ("gfx940", True), ("gfx941", True),
        ("gfx942", True), ("gfx9-generic", False)]
RDNA = ["gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx10-1-generic", "gfx1030", "gfx1031", "gfx1032", "gfx1033",
        "gfx1034", "gfx1035", "gfx1036", "gfx10-3-generic", "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
        "gfx1151", "gfx1152", "gfx1200", "gfx1201", "gfx12-generic"]

WG_SIZES = [1, 2, 31, 32, 33, 48, 63, 64, 65, 96, 100, 127, 128, 129, 160, 192, 200, 255, 256, 257,
            320, 384, 448, 500, 512, 513, 576, 640, 700, 768, 800, 896, 960, 1000, 1023, 1024]


def configs():
    for name, sgpr_max, lds_max in GFX6_8:
        yield name, [], False, sgpr_max, lds_max
    # generic targets need code object v6 (clang-19 crashes on them with its default v5)
    for name, agprs in GFX9:
        yield name, ["-mcode-object-version=6"] if "generic" in name else [], agprs, 101, 65536
    for name in RDNA:
        v6 = ["-mcode-object-version=6"] if "generic" in name else []
        for flags in ([], ["-mwavefrontsize64"], ["-mcumode"], ["-mwavefrontsize64", "-mcumode"]):
            yield name, v6 + flags, False, 105, 65536


def pick(rng, choices_weights):
    return rng.choices([c for c, _ in choices_weights], [w for _, w in choices_weights])[0]


def kernel_source(rng, index, agprs_ok, sgpr_max, lds_max):
    vgprs = pick(rng, [(0, 1), (rng.randint(1, 40), 3), (rng.randint(1, 256), 6)])
    agprs = pick(rng, [(0, 3), (rng.randint(1, 256), 2)]) if agprs_ok else 0
    sgprs = pick(rng, [(0, 2), (rng.randint(1, sgpr_max + 1), 3), (rng.randint(70, sgpr_max + 1), 3)])
    lds_words = pick(rng, [(0, 3), (rng.randint(1, 256), 2), (rng.randint(1, lds_max // 4), 4),
                           (lds_max // 4 // rng.randint(1, 40), 3)])
    hi = rng.choice(WG_SIZES) if rng.random() < 0.8 else rng.randint(1, 1024)
    lo = pick(rng, [(1, 2), (hi, 2), (rng.randint(1, hi), 1)])
    clobbers = []
    if vgprs:
        clobbers.append('"v%d"' % (vgprs - 1))
    if agprs:
        clobbers.append('"a%d"' % (agprs - 1))
    if sgprs:
        clobbers.append('"s%d"' % (sgprs - 1))
    body = ["  unsigned t = __builtin_amdgcn_workitem_id_x();"]
    if lds_words:
        body += ["  local int s[%d];" % lds_words,
                 "  s[t %% %d] = o[t];" % lds_words,
                 "  __builtin_amdgcn_s_barrier();",
                 "  o[t] = s[(t * 7u) %% %du];" % lds_words]
    else:
        body += ["  o[t] = (int)t;"]
    if clobbers:
        body.append('  __asm__ volatile("" ::: %s);' % ", ".join(clobbers))
    name = "k%d" % index
    src = ("__attribute__((amdgpu_flat_work_group_size(%d, %d)))\n"
           "kernel void %s(global int *o)\n{\n%s\n}\n" % (lo, hi, name, "\n".join(body)))
    return name, (lo, hi), src


REMARK = re.compile(r"remark:\s+(Function Name|SGPRs|VGPRs|AGPRs|Occupancy \[waves/SIMD\]|LDS Size \[bytes/block\]):"
                    r"\s+(\S+)")


def parse_remarks(text):
    kernels, cur = [], None
    for m in REMARK.finditer(text):
        key, value = m.group(1), m.group(2)
        if key == "Function Name":
            cur = {"name": value, "agprs": 0}
            kernels.append(cur)
        elif cur is not None:
            cur[{"SGPRs": "sgprs", "VGPRs": "vgprs", "AGPRs": "agprs", "Occupancy [waves/SIMD]": "occupancy",
                 "LDS Size [bytes/block]": "lds"}[key]] = int(value)
    return kernels


def run_config(workdir, cfg, count, seed):
    target, flags, agprs_ok, sgpr_max, lds_max = cfg
    rng = random.Random("%s %s %d" % (target, " ".join(flags), seed))
    bounds, sources = {}, []
    for i in range(count):
        name, wg, src = kernel_source(rng, i, agprs_ok, sgpr_max, lds_max)
        bounds[name] = wg
        sources.append(src)
    tag = target + "".join(f.replace("-m", "_") for f in flags if "code-object" not in f)
    path = os.path.join(workdir, tag + ".cl")
    with open(path, "w") as f:
        f.write("\n".join(sources))
    cmd = [CLANG, "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, "-nogpulib", "-O2", "-c", path,
           "-o", os.path.join(workdir, tag + ".o"), "-Rpass-analysis=kernel-resource-usage"] + flags
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), proc.stderr[-3000:]))
    kernels = parse_remarks(proc.stderr)
    if len(kernels) != count:
        raise RuntimeError("%s: %d remarks for %d kernels" % (tag, len(kernels), count))
    wave = 64 if (not target.startswith("gfx1") or "-mwavefrontsize64" in flags) else 32
    cumode = 1 if "-mcumode" in flags else 0
    rows = []
    for k in kernels:
        lo, hi = bounds[k["name"]]
        rows.append("%s %d %d %d %d %d %d %d %d %d %s" % (target, wave, cumode, lo, hi, k["lds"], k["vgprs"],
                                                            k["agprs"], k["sgprs"], k["occupancy"], tag))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("checker")
    ap.add_argument("--kernels", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    ap.add_argument("--sanitized", action="store_true", help="skip: the sanitized build runs the unit suites")
    ap.add_argument("--rows", help="also write the checker's input lines to this file")
    args = ap.parse_args()
    if args.sanitized:
        print("SKIP: the LLVM corpus runs in the non-sanitized build only")
        return 77
    if shutil.which(CLANG) is None:
        print("SKIP: %s not found (apt-get install clang-19)" % CLANG)
        return 77
    workdir = args.keep or tempfile.mkdtemp(prefix="gpuocc-amd-")
    os.makedirs(workdir, exist_ok=True)
    try:
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda c: run_config(workdir, c, args.kernels, args.seed), list(configs())))
        rows = [r for rs in results for r in rs]
        if args.rows:
            with open(args.rows, "w") as f:
                f.write("\n".join(rows) + "\n")
        proc = subprocess.run([args.checker], input="\n".join(rows) + "\n", stdout=subprocess.PIPE, text=True)
        sys.stdout.write(proc.stdout)
        return proc.returncode
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
