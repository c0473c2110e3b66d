#!/usr/bin/env python3
"""The code-object and offload-bundle readers against LLVM 19 (suite `amd`).

Generates OpenCL kernels of varied register pressure (inline-asm clobbers of VGPRs, AGPRs, SGPRs), static
LDS, private arrays (scratch) and amdgpu_flat_work_group_size bounds, compiles them with clang-19 for
several targets (wave32/wave64, WGP/CU mode), and checks every kernel `gpuocc binary --json` reads from the
code object against `llvm-readelf-19 --notes` (the NT_AMDGPU_METADATA note) and against the
`-Rpass-analysis=kernel-resource-usage` remarks of the same compile (VGPRs, AGPRs, SGPRs, LDS, scratch,
spills, dynamic stack, and the compiler's occupancy in waves per SIMD).  Then the same code objects in
offload bundles made by clang-offload-bundler-19, plain and `-compress` (CCOB), and a HIP object made by
clang++-19 (needs ld.lld-19) with and without --offload-compress, against its unbundled code objects, and
both linked into one shared library.
Exit 77 (skip) when clang-19 or llvm-readelf-19 is absent; the bundle and HIP parts are skipped, with the
reason printed, when their tools are.

usage: codeobj_oracle.py GPUOCC [--kernels N] [--seed N] [--keep DIR]
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

CLANG, CLANGXX = "clang-19", "clang++-19"
READELF, BUNDLER, OBJCOPY = "llvm-readelf-19", "clang-offload-bundler-19", "llvm-objcopy-19"

# target, extra flags, has AGPRs
TARGETS = [("gfx900", [], False), ("gfx906", [], False), ("gfx908", [], True), ("gfx90a", [], True),
           ("gfx942", [], True), ("gfx1030", [], False), ("gfx1030", ["-mwavefrontsize64"], False),
           ("gfx1100", [], False), ("gfx1100", ["-mcumode"], False), ("gfx1151", [], False),
           ("gfx1201", [], False)]
WG = [64, 96, 128, 256, 384, 512, 768, 1024]

failures = 0
checked = 0


def fail(msg):
    global failures
    failures += 1
    if failures <= 30:
        print("FAIL", msg)


def kernel_source(rng, index, agprs_ok):
    vgprs = rng.choice([0, rng.randint(1, 40), rng.randint(1, 256)])
    agprs = rng.choice([0, rng.randint(1, 256)]) if agprs_ok else 0
    sgprs = rng.choice([0, rng.randint(1, 100)])
    lds_words = rng.choice([0, 0, rng.randint(1, 256), rng.randint(1, 8192)])
    private_words = rng.choice([0, 0, 0, rng.randint(2, 64)])
    hi = rng.choice(WG)
    clobbers = ['"v%d"' % (vgprs - 1)] if vgprs else []
    clobbers += ['"a%d"' % (agprs - 1)] if agprs else []
    clobbers += ['"s%d"' % (sgprs - 1)] if sgprs else []
    body = ["  unsigned t = __builtin_amdgcn_workitem_id_x();"]
    if lds_words:
        body += ["  local int s[%d];" % lds_words, "  s[t %% %d] = o[t];" % lds_words,
                 "  __builtin_amdgcn_s_barrier();", "  o[t] = s[(t * 7u) %% %du];" % lds_words]
    if private_words:  # dynamically indexed: it lives in scratch
        body += ["  int p[%d];" % private_words,
                 "  for (int i = 0; i < %d; i++) p[i] = o[i + t];" % private_words,
                 "  o[t + 1] = p[o[t] %% %d];" % private_words]
    body.append("  o[t] += (int)t;")
    if clobbers:
        body.append('  __asm__ volatile("" ::: %s);' % ", ".join(clobbers))
    name = "k%d" % index
    return name, ("__attribute__((amdgpu_flat_work_group_size(1, %d)))\n"
                  "kernel void %s(global int *o)\n{\n%s\n}\n" % (hi, name, "\n".join(body)))


REMARK = re.compile(r"remark:\s+(Function Name|SGPRs|VGPRs|AGPRs|ScratchSize \[bytes/lane\]|Dynamic Stack|"
                    r"Occupancy \[waves/SIMD\]|SGPRs Spill|VGPRs Spill|LDS Size \[bytes/block\]):\s+(\S+)")


def parse_remarks(text):
    kernels, cur = {}, None
    for m in REMARK.finditer(text):
        key, value = m.group(1), m.group(2)
        if key == "Function Name":
            cur = kernels.setdefault(value, {})
        elif cur is not None:
            cur[key.split(" [")[0]] = value
    return kernels


NOTE_KEY = re.compile(r"^(?:  - |    )(\.[a-z_]+):\s*(.*)$")


def parse_notes(text):
    """llvm-readelf --notes: the kernels of amdhsa.kernels (keys at the kernel map's indentation) and the target."""
    kernels, cur, target, in_kernels = [], None, None, False
    for line in text.splitlines():
        if line.startswith("amdhsa.kernels:"):
            in_kernels = True
            continue
        if line.startswith("amdhsa.target:"):
            target = line.split(":", 1)[1].strip().strip("'")
        if line and not line.startswith(" ") and not line.startswith("amdhsa.kernels"):
            in_kernels = False
        if not in_kernels:
            continue
        m = NOTE_KEY.match(line)
        if not m:
            continue
        if line.startswith("  - "):
            cur = {}
            kernels.append(cur)
        if cur is not None and m.group(2) != "":
            cur[m.group(1)] = m.group(2).strip("'")
    return {k[".name"]: k for k in kernels}, target


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def gpuocc_rows(gpuocc, path, extra=()):
    # LLVM 19 compiled them: its rules give the occupancy its remarks print
    p = run([gpuocc, "binary", path, "--threads", "64", "--model", "llvm19", "--json"] + list(extra))
    if p.returncode != 0:
        fail("gpuocc binary %s: exit %d %s" % (path, p.returncode, p.stderr.strip()))
        return []
    return json.loads(p.stdout)


def as_int(text):
    return {"true": 1, "false": 0, "True": 1, "False": 0}.get(text, None) if not re.fullmatch(r"-?\d+", text) \
        else int(text)


def check_object(gpuocc, path, remarks, where):
    """Every kernel of one code object against readelf's notes and the compile's remarks."""
    global checked
    notes, target = parse_notes(run([READELF, "--notes", path]).stdout)
    rows = gpuocc_rows(gpuocc, path)
    if len(rows) != len(notes) or not rows:
        fail("%s: %d kernels read, readelf lists %d" % (where, len(rows), len(notes)))
    for r in rows:
        n = notes.get(r["name"])
        if n is None:
            fail("%s: %s not in readelf's notes" % (where, r["name"]))
            continue
        checked += 1
        expect = {"vgprs": ".vgpr_count", "agprs": ".agpr_count", "sgprs": ".sgpr_count",
                  "smem_static": ".group_segment_fixed_size", "scratch": ".private_segment_fixed_size",
                  "wave_size": ".wavefront_size", "max_threads": ".max_flat_workgroup_size",
                  "vgpr_spills": ".vgpr_spill_count", "sgpr_spills": ".sgpr_spill_count",
                  "dynamic_stack": ".uses_dynamic_stack", "cu_mode": ".workgroup_processor_mode"}
        for field, key in expect.items():
            want = as_int(n[key]) if key in n else None
            if field == "cu_mode" and want is not None:
                want = 1 - want  # report's cu_mode: the opposite of WGP mode
            if r[field] != want:
                fail("%s %s: %s = %r, readelf %s = %r" % (where, r["name"], field, r[field], key, want))
        if r["target"] != target:
            fail("%s %s: target %r, readelf %r" % (where, r["name"], r["target"], target))
        if r["registers"] != r["vgprs"] or r["smem"] != r["smem_static"] or r["stack"] != r["scratch"]:
            fail("%s %s: the shared columns differ from the AMD ones" % (where, r["name"]))
        rem = remarks.get(r["name"]) if remarks is not None else None
        if remarks is None:
            continue
        if rem is None:
            fail("%s %s: no remark" % (where, r["name"]))
            continue
        # the note's .vgpr_count counts the AGPRs where they are used (AMDGPUUsage): gfx908 the larger of the
        # two files, gfx90a and later one file, the arch VGPRs rounded up to 4 first
        vgprs, agprs = int(rem["VGPRs"]), int(rem.get("AGPRs", "0"))
        if agprs:
            vgprs = max(vgprs, agprs) if r["arch"] == "gfx908" else (vgprs + 3) // 4 * 4 + agprs
        if r["vgprs"] != vgprs:
            fail("%s %s: vgprs = %r, from the remarks (VGPRs %s, AGPRs %d) %d" % (where, r["name"], r["vgprs"],
                                                                                 rem["VGPRs"], agprs, vgprs))
        pairs = [("sgprs", "SGPRs"), ("smem_static", "LDS Size"), ("scratch", "ScratchSize"),
                 ("vgpr_spills", "VGPRs Spill"), ("sgpr_spills", "SGPRs Spill"), ("dynamic_stack", "Dynamic Stack")]
        if "AGPRs" in rem:
            pairs.append(("agprs", "AGPRs"))
        for field, key in pairs:
            if key in rem and r[field] != as_int(rem[key]):
                fail("%s %s: %s = %r, remark %s = %s" % (where, r["name"], field, r[field], key, rem[key]))
        if r["status"] == "ok" and "Occupancy" in rem and r["waves_per_simd"] != int(rem["Occupancy"]):
            fail("%s %s: waves_per_simd %r, remark Occupancy %s" % (where, r["name"], r["waves_per_simd"],
                                                                      rem["Occupancy"]))
        elif r["status"] != "ok":
            fail("%s %s: status %s" % (where, r["name"], r["status"]))
    return rows


def key_rows(rows):
    fields = ("name", "target", "vgprs", "agprs", "sgprs", "smem_static", "scratch", "wave_size", "max_threads",
              "vgpr_spills", "sgpr_spills", "dynamic_stack", "cu_mode", "waves_per_simd")
    return sorted(tuple(r[f] for f in fields) for r in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpuocc")
    ap.add_argument("--kernels", type=int, default=40)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--keep")
    args = ap.parse_args()
    for tool in (CLANG, READELF):
        if not shutil.which(tool):
            print("SKIP: %s not found (Debian: clang-19, llvm-19)" % tool)
            return 77
    tmp = args.keep or tempfile.mkdtemp(prefix="gpuocc-codeobj-")
    os.makedirs(tmp, exist_ok=True)
    rng = random.Random(args.seed)
    objects = {}
    for target, flags, agprs in TARGETS:
        srcs = [kernel_source(rng, i, agprs) for i in range(args.kernels)]
        cl = os.path.join(tmp, "k_%s%s.cl" % (target, "".join(flags)))
        with open(cl, "w") as f:
            f.write("\n".join(s for _, s in srcs))
        obj = cl[:-3] + ".o"
        p = run([CLANG, "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, "-nogpulib", "-O2", "-c", cl, "-o", obj,
                 "-Rpass-analysis=kernel-resource-usage"] + flags)
        if p.returncode != 0:
            fail("clang-19 %s %s: %s" % (target, flags, p.stderr[-500:]))
            continue
        objects[(target, tuple(flags))] = (obj, check_object(args.gpuocc, obj, parse_remarks(p.stderr),
                                                             "%s%s" % (target, "".join(flags))))
    # offload bundles of three of those objects, plain and compressed
    if not shutil.which(BUNDLER):
        print("SKIP (bundles): %s not found (Debian: clang-19)" % BUNDLER)
    else:
        chosen = [(t, f) for t, f in [("gfx90a", ()), ("gfx1100", ()), ("gfx942", ())] if (t, f) in objects]
        expect = key_rows([r for c in chosen for r in objects[c][1]])
        triples = ["host-x86_64-unknown-linux-gnu"] + ["hipv4-amdgcn-amd-amdhsa--" + t for t, _ in chosen]
        inputs = ["-input=/dev/null"] + ["-input=" + objects[c][0] for c in chosen]
        for compress in ([], ["-compress"]):
            out = os.path.join(tmp, "bundle%s.hipfb" % ("-z" if compress else ""))
            p = run([BUNDLER, "-type=o", "-bundle-align=4096", "-targets=" + ",".join(triples), "-output=" + out]
                    + inputs + compress)
            if p.returncode != 0:
                fail("bundler %s: %s" % (compress, p.stderr))
                continue
            rows = gpuocc_rows(args.gpuocc, out)
            if key_rows(rows) != expect:
                fail("bundle%s: %d kernels, expected those of the %d code objects (%d)" %
                     (" -compress" if compress else "", len(rows), len(chosen), len(expect)))
            else:
                print("ok bundle%s: %d kernels of %s" % (" -compress" if compress else "", len(rows),
                                                          ", ".join(t for t, _ in chosen)))
    # a HIP object: .hip_fatbin, plain and compressed, against its unbundled code objects
    if not (shutil.which(CLANGXX) and shutil.which("ld.lld-19") and shutil.which(BUNDLER) and shutil.which(OBJCOPY)):
        print("SKIP (HIP): clang++-19, ld.lld-19, %s or %s not found (Debian: clang-19, lld-19, llvm-19)" %
              (BUNDLER, OBJCOPY))
    else:
        hip = os.path.join(tmp, "h.hip")
        with open(hip, "w") as f:
            f.write(HIP_SOURCE)
        both = []
        for compress in ([], ["--offload-compress"]):
            obj = os.path.join(tmp, "h%s.o" % ("-z" if compress else ""))
            p = run([CLANGXX, "-x", "hip", "--offload-arch=gfx90a", "--offload-arch=gfx1100", "-nogpulib",
                     "-nogpuinc", "-O2", "-fPIC", "-c", hip, "-o", obj, "-DNS=" + ("packed" if compress else "plain")]
                    + compress)
            if p.returncode != 0:
                fail("clang++-19 -x hip %s: %s" % (compress, p.stderr[-800:]))
                continue
            fatbin = obj + ".hipfb"
            run([OBJCOPY, "--dump-section", ".hip_fatbin=" + fatbin, obj])
            expect = []
            for arch in ("gfx90a", "gfx1100"):
                co = os.path.join(tmp, "h-%s%s.co" % (arch, "-z" if compress else ""))
                u = run([BUNDLER, "-unbundle", "-type=o", "-input=" + fatbin, "-output=" + co,
                         "-targets=hipv4-amdgcn-amd-amdhsa--" + arch])
                if u.returncode != 0:
                    fail("unbundle %s: %s" % (arch, u.stderr))
                    continue
                expect += check_object(args.gpuocc, co, None, "hip %s%s" % (arch, " compressed" if compress else ""))
            rows = gpuocc_rows(args.gpuocc, obj)
            if not rows or key_rows(rows) != key_rows(expect):
                fail("HIP object%s: %d kernels, the unbundled code objects %d" %
                     (" (compressed)" if compress else "", len(rows), len(expect)))
            else:
                print("ok HIP object%s: %d kernels" % (" --offload-compress" if compress else "", len(rows)))
            both.append((obj, rows))
        # both objects linked into a shared library: one .hip_fatbin, a plain bundle and a CCOB one after the
        # other (zero padding between them), every kernel of both
        if len(both) == 2:
            lib = os.path.join(tmp, "libh.so")
            p = run([CLANGXX, "-shared", both[0][0], both[1][0], "-o", lib])
            if p.returncode != 0:
                fail("clang++-19 -shared: %s" % p.stderr[-500:])
            else:
                rows = gpuocc_rows(args.gpuocc, lib)
                if key_rows(rows) != key_rows(both[0][1] + both[1][1]):
                    fail("HIP shared library: %d kernels, its two objects %d" %
                         (len(rows), len(both[0][1]) + len(both[1][1])))
                else:
                    print("ok HIP shared library: %d kernels of a plain and a compressed bundle" % len(rows))
    print("%d kernels checked against readelf and the remarks, %d failures" % (checked, failures))
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


HIP_SOURCE = r"""
typedef struct { unsigned x, y, z; } dim3;
typedef struct ihipStream_t *hipStream_t;
extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, hipStream_t);
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#ifdef __HIP_DEVICE_COMPILE__
#define TID __builtin_amdgcn_workitem_id_x()
#define SYNC __builtin_amdgcn_s_barrier()
#define CLOBBER(...) __asm__ volatile("" ::: __VA_ARGS__)
#else
#define TID 0
#define SYNC
#define CLOBBER(...)
#endif
namespace NS {  // one name per object, so that both link into one library
__global__ void scale(float *a, float s) { a[TID] *= s; }
__global__ void tile(float *a) { __shared__ float t[256]; unsigned i = TID; t[i] = a[i]; SYNC; a[i] = t[255 - i]; }
__global__ __attribute__((amdgpu_flat_work_group_size(1, 128))) void heavy(int *o) { o[TID] = 1; CLOBBER("v120", "s60"); }
template <int N> __global__ void lds(int *o) { __shared__ int s[N]; s[TID % N] = o[TID]; SYNC; o[TID] = s[(TID * 3) % N]; }
template __global__ void lds<1000>(int *);
template __global__ void lds<12000>(int *);
}
"""

if __name__ == "__main__":
    sys.exit(main())
