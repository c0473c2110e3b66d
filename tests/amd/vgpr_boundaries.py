#!/usr/bin/env python3
"""LLVM 19 against gpuocc's inverse query (suite `amd`): "the most VGPRs at which N waves per SIMD fit".

For each target and wave size, and each occupancy w LLVM can report, gpuocc_regs_max_for_blocks gives V, the
most arch VGPRs at which one-wave workgroups still fit w per SIMD (w x the SIMDs of a CU or WGP).  Two
kernels are compiled with clang-19, one using exactly V VGPRs and one V + 1 (inline-asm clobbers, as in
corpus.py); LLVM's kernel-resource-usage remarks must report an occupancy of at least w for the first and
below w for the second.  Exit 77 (skip) when clang-19 is absent.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import gpuocc

CLANG = os.environ.get("CLANG", "clang-19")
# target, flags, wave size, LLVM's wave slots per SIMD (docs/amd.md)
CONFIGS = [("gfx900", [], 64, 10), ("gfx906", [], 64, 10), ("gfx908", [], 64, 10), ("gfx90a", [], 64, 8),
           ("gfx942", [], 64, 8), ("gfx1030", [], 32, 16), ("gfx1030", ["-mwavefrontsize64"], 64, 16),
           ("gfx1100", [], 32, 16), ("gfx1100", ["-mwavefrontsize64"], 64, 16), ("gfx1102", [], 32, 16),
           ("gfx1201", [], 32, 16)]
SIMDS = 4  # per CU on gfx9, per WGP (WGP mode) on gfx10+
REMARK = re.compile(r"remark:\s+(Function Name|VGPRs|Occupancy \[waves/SIMD\]):\s+(\S+)")


def kernel(name, wave, vgprs):
    return ("__attribute__((amdgpu_flat_work_group_size(%d, %d)))\n"
            "kernel void %s(global int *o)\n{\n  o[__builtin_amdgcn_workitem_id_x()] = 1;\n"
            '  __asm__ volatile("" ::: "v%d");\n}\n' % (wave, wave, name, vgprs - 1))


def main():
    if shutil.which(CLANG) is None:
        print("SKIP: %s not found (apt-get install clang-19)" % CLANG)
        return 77
    failures, checked = [], 0
    with tempfile.TemporaryDirectory(prefix="gpuocc-vgprs-") as work:
        for target, flags, wave, slots in CONFIGS:
            k = gpuocc.kernel(wave, wave_size=wave, max_threads=wave, model="llvm19")
            expect, sources = {}, []
            for w in range(1, slots + 1):
                v = gpuocc.regs_max_for_blocks(target, k, w * SIMDS)
                for vgprs, want_at_least in ((v, True), (v + 1, False)):
                    if vgprs < 1 or vgprs > 256:
                        continue
                    name = "w%d_v%d_%s" % (w, vgprs, "in" if want_at_least else "out")
                    expect[name] = (w, vgprs, want_at_least)
                    sources.append(kernel(name, wave, vgprs))
            path = os.path.join(work, target + "".join(flags) + ".cl")
            with open(path, "w") as f:
                f.write("\n".join(sources))
            proc = subprocess.run([CLANG, "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, "-nogpulib", "-O2",
                                   "-c", path, "-o", path + ".o", "-Rpass-analysis=kernel-resource-usage"] + flags,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if proc.returncode != 0:
                print("clang failed for %s:\n%s" % (target, proc.stderr[-2000:]))
                return 1
            got, cur = {}, None
            for m in REMARK.finditer(proc.stderr):
                if m.group(1) == "Function Name":
                    cur = m.group(2)
                    got[cur] = {}
                else:
                    got[cur][m.group(1)] = int(m.group(2))
            for name, (w, vgprs, at_least) in expect.items():
                r = got.get(name, {})
                occupancy, used = r.get("Occupancy [waves/SIMD]"), r.get("VGPRs")
                checked += 1
                ok = used == vgprs and occupancy is not None and ((occupancy >= w) if at_least else (occupancy < w))
                if not ok:
                    failures.append("%s%s wave%d: %s: LLVM %s VGPRs, occupancy %s; gpuocc: %d VGPRs %s %d waves"
                                    % (target, "".join(flags), wave, name, used, occupancy, vgprs,
                                       "allow" if at_least else "do not allow", w))
    for f in failures:
        print(f)
    print("%d kernels, %d disagree with LLVM 19" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
