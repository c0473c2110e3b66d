#!/usr/bin/env python3
"""gpuocc binary on Intel zebins: the fixtures of tests/data/zebin, built by ocloc
(tests/data/zebin/regenerate.sh names the commands).  Expected fields come from the file's own .ze_info
text and .note.intelgt.compat note, read here by a parse of this test's own (regular expressions over the
text ocloc writes, not gpuocc's line reader); expected occupancies are derived by hand from docs/intel.md's
calculator rules and its device table: dg2 16 XVEs x 8 threads = 128 hardware threads per Xe-core, pvc
8 XVEs x 8 = 64, halved in large-GRF mode (256 GRF).
Usage: test_cli_zebin.py GPUOCC DATA_DIR [--ocloc]
  --ocloc: rebuild the fixtures with ocloc into a temporary folder and check gpuocc's reading of those
           against the same parse (exit 77, skipped, when ocloc is absent)."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from checks import check as tally, finish


def check(cond, what):
    """This file's checks read (condition, what was expected with the values seen); checks.check takes the
    name first."""
    tally(what, cond)

GPUOCC, DATA = sys.argv[1], os.path.join(sys.argv[2], "zebin")
OCLOC = "--ocloc" in sys.argv[3:]


def sections(path):
    """{name: bytes} of an ELF64 little-endian file."""
    d = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
    heads = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + 64 * i) for i in range(shnum)]
    names = heads[shstrndx][4]
    out = {}
    for h in heads[1:]:
        name = d[names + h[0]:d.index(b"\0", names + h[0])].decode()
        out[name] = d[h[4]:h[4] + h[5]]
    return d, out


def expected(path):
    """Per kernel name: the fields gpuocc binary should print, from the zebin's own text and note."""
    d, secs = sections(path)
    check(struct.unpack_from("<H", d, 18)[0] == 205, f"{path}: e_machine 205 (EM_INTELGT)")
    family = 0
    notes = secs[".note.intelgt.compat"]
    pos = 0
    while pos + 12 <= len(notes):
        namesz, descsz, kind = struct.unpack_from("<III", notes, pos)
        name_at = pos + 12
        desc_at = name_at + (namesz + 3) // 4 * 4
        if kind == 1 and notes[name_at:name_at + namesz] == b"IntelGT\0":
            family, = struct.unpack_from("<I", notes, desc_at)
        pos = desc_at + (descsz + 3) // 4 * 4
    text = secs[".ze_info"].decode()
    block = text.split("\nkernels:\n", 1)[1]
    block = re.split(r"\n(?=\S)", block, maxsplit=1)[0]  # up to the next top-level key
    kernels = {}
    for part in re.split(r"\n(?=  - name:)", block):
        name = re.match(r"\s*- name:\s+(\S+)", part).group(1)

        def env(key, default=None):
            m = re.search(rf"\n      {key}:\s+(\d+)\n", part + "\n")
            return int(m.group(1)) if m else default

        scratch = private = per_item = 0
        for m in re.finditer(r"- type:\s+(\w+)\n\s+usage:\s+\w+\n\s+size:\s+(\d+)(?:\n\s+is_simt_thread:\s+(\w+))?",
                             part):
            if m.group(1) == "scratch":
                scratch += int(m.group(2))
            elif m.group(1) == "global":
                private += int(m.group(2))
                per_item = int(m.group(3) == "true")
        # the launch bound: execution_env's required_work_group_size, x*y*z (zeinfo.md's int32x3); none: 0
        m = re.search(r"\n      required_work_group_size:\s+\[\s*(\d+),\s*(\d+),\s*(\d+)\s*\]\n", part + "\n")
        bound = int(m.group(1)) * int(m.group(2)) * int(m.group(3)) if m else 0
        kernels[name] = {"max_threads": bound, "launch_bound": "recorded" if bound else "none",
                         "sub_group": env("simd_size"), "grf": env("grf_count"), "slm": env("slm_size", 0),
                         "barriers": env("barrier_count", 0), "smem": env("slm_size", 0),
                         "smem_static": env("slm_size", 0), "scratch_per_thread": scratch, "private": private,
                         "private_per_work_item": per_item, "spill": env("spill_size"),
                         "product_family": family, "vendor": "intel"}
    return kernels


def run(args):
    p = subprocess.run([GPUOCC] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def read_fields(folder, names):
    for name in names:
        path = os.path.join(folder, name)
        want = expected(path)
        rc, out, err = run(["binary", path, "--threads", "256", "--json"])
        check(rc == 0, f"{name}: exit 0 ({rc}: {err.strip()})")
        got = {r["name"]: r for r in json.loads(out or "[]")}
        check(sorted(got) == sorted(want), f"{name}: kernels {sorted(got)} == {sorted(want)}")
        for kernel, fields in want.items():
            row = got.get(kernel, {})
            for key, value in fields.items():
                check(row.get(key) == value, f"{name} {kernel}: {key} {row.get(key)!r} == {value!r}")


FIXTURES = ["kernels_dg2.bin", "kernels_pvc.bin", "kernels_pvc_256grf.bin", "private_dg2.bin", "private_pvc.bin",
            "reqd_pvc.bin"]

if OCLOC:
    if not shutil.which("ocloc"):
        print("ocloc is absent (Debian: intel-opencl-icd): the regeneration is not checked")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        for f in ["kernels.cl", "private.cl", "reqd.cl", "regenerate.sh"]:
            shutil.copy(os.path.join(DATA, f), tmp)
        p = subprocess.run(["sh", "regenerate.sh"], cwd=tmp, capture_output=True, text=True)
        check(p.returncode == 0, f"regenerate.sh ran ({p.stderr.strip()})")
        if p.returncode == 0:
            read_fields(tmp, FIXTURES)
    finish("cli-zebin-ocloc")

# ---- the committed fixtures: every field against the file's own text ----
read_fields(DATA, FIXTURES)

# ---- what the text says, stated here too, so that a changed fixture is noticed ----
# kernels.cl: copy without a required sub-group size (ocloc chose SIMD32), reduce with
# intel_reqd_sub_group_size(16), a __local float[1024] (4096 bytes) and barrier(); private.cl: a
# float[256] per work-item: dg2 keeps it in global memory per work-item (1024 bytes), pvc in scratch per
# hardware thread (32768 = 1024 x 32 lanes).
want = {"kernels_dg2.bin": {"copy": (32, 128, 0, 0), "reduce": (16, 128, 4096, 1)},
        "kernels_pvc_256grf.bin": {"copy": (32, 256, 0, 0), "reduce": (16, 256, 4096, 1)}}
for name, kernels in want.items():
    rc, out, err = run(["binary", os.path.join(DATA, name), "--threads", "256", "--json"])
    got = {r["name"]: r for r in json.loads(out or "[]")}
    for kernel, (simd, grf, slm, barriers) in kernels.items():
        row = got.get(kernel, {})
        check((row.get("sub_group"), row.get("grf"), row.get("slm"), row.get("barriers")) == (simd, grf, slm, barriers),
              f"{name} {kernel}: SIMD, GRF, SLM, barriers")
rc, out, _ = run(["binary", os.path.join(DATA, "private_pvc.bin"), "--threads", "256", "--json"])
row = json.loads(out)[0]
check((row["scratch_per_thread"], row["private"]) == (32768, 0), "private_pvc: scratch 32768 per thread")
rc, out, _ = run(["binary", os.path.join(DATA, "private_dg2.bin"), "--threads", "256", "--json"])
row = json.loads(out)[0]
check((row["scratch_per_thread"], row["private"], row["private_per_work_item"]) == (0, 1024, 1),
      "private_dg2: 1024 bytes per work-item")

# ---- occupancy at 256 work-items, by hand ----
# threads per work-group = 256 / SIMD: copy 8, reduce 16.  dg2: 128 / 8 = 16 and 128 / 16 = 8 work-groups
# (SLM 8 x 4 KB = 32 KB fits 128 KB); pvc: 64 / 8 = 8 and 64 / 16 = 4; pvc at 256 GRF: 32 threads, 4 and 2,
# occupancy 32 / 64 = 0.5.  The architecture comes from the product family (1270 dg2, 1271 pvc).
cases = {"kernels_dg2.bin": ("dg2", {"copy": (16, 1.0), "reduce": (8, 1.0)}),
         "kernels_pvc.bin": ("pvc", {"copy": (8, 1.0), "reduce": (4, 1.0)}),
         "kernels_pvc_256grf.bin": ("pvc", {"copy": (4, 0.5), "reduce": (2, 0.5)})}
for name, (arch, kernels) in cases.items():
    rc, out, err = run(["binary", os.path.join(DATA, name), "--threads", "256", "--json"])
    for r in json.loads(out or "[]"):
        blocks, occ = kernels[r["name"]]
        check(r["arch"] == arch and r["status"] == "ok", f"{name} {r['name']}: on {arch}")
        check(r["blocks_per_sm"] == blocks and abs(r["occupancy"] - occ) < 1e-9 and r["model"] == "calculator",
              f"{name} {r['name']}: {blocks} work-groups per Xe-core, occupancy {occ} ({r['blocks_per_sm']}, "
              f"{r['occupancy']})")

# --arch: another Intel architecture is a what-if; another vendor's is the status `vendor`
rc, out, _ = run(["binary", os.path.join(DATA, "kernels_dg2.bin"), "--threads", "256", "--arch", "pvc", "--json"])
check([r["blocks_per_sm"] for r in json.loads(out)] == [8, 4], "dg2's kernels on --arch pvc: 8 and 4")
rc, out, _ = run(["binary", os.path.join(DATA, "kernels_dg2.bin"), "--threads", "256", "--arch", "H100", "--json"])
check([r["status"] for r in json.loads(out)] == ["vendor", "vendor"], "an NVIDIA --arch: status vendor")
# a launch flag overrides the binary's figure: --grf 256 on dg2 halves the threads (16 -> 8 work-groups)
rc, out, _ = run(["binary", os.path.join(DATA, "kernels_dg2.bin"), "--threads", "256", "--grf", "256", "--json"])
check([r["blocks_per_sm"] for r in json.loads(out)] == [8, 4], "--grf 256 on dg2: 8 and 4")
# reqd.cl: reqd_work_group_size(128,1,1) on fixed, (8,4,2) on tile, only work_group_size_hint(256,1,1) on hinted.
# Their .ze_info says (ocloc 22.43, pvc): fixed `required_work_group_size: [ 128, 1, 1 ]`, tile `[ 8, 4, 2 ]`,
# hinted none; all three SIMD32.  The bound is x*y*z: 128, 64, none.  A larger work-group cannot be enqueued:
# --threads 256 exceeds both bounds (no occupancy), and hinted (no bound) gives 256 / 32 = 8 threads, 64 / 8 = 8
# work-groups.  Without --threads the bound is the launch: fixed 128 / 32 = 4 threads, 64 / 4 = 16 work-groups;
# tile 64 / 32 = 2 threads, 32 work-groups (pvc's cap is 64); hinted has none to take: no_threads, one stderr line.
reqd = os.path.join(DATA, "reqd_pvc.bin")
text = sections(reqd)[1][".ze_info"].decode()
check("required_work_group_size: [ 128, 1, 1 ]" in text and "required_work_group_size: [ 8, 4, 2 ]" in text
      and text.count("required_work_group_size") == 2, "reqd_pvc.bin's .ze_info holds the two required sizes")
rc, out, err = run(["binary", reqd, "--threads", "256", "--json"])
rows = {r["name"]: r for r in json.loads(out or "[]")}
got = {n: (r["status"], r["max_threads"], r["launch_bound"], r["threads"], r["threads_from"], r["blocks_per_sm"])
       for n, r in rows.items()}
check(rc == 0 and got == {"fixed": ("exceeds_launch_bounds", 128, "recorded", 256, "flag", None),
                          "tile": ("exceeds_launch_bounds", 64, "recorded", 256, "flag", None),
                          "hinted": ("ok", 0, "none", 256, "flag", 8)}, f"reqd --threads 256: {rc} {got} {err}")
# the library's single call at that bound, as `report --max-threads` asks it: 0 work-groups, threads exceeded at 128
rc, out, err = run(["report", "--arch", "pvc", "--threads", "256", "--sub-group", "32",
                    "--max-threads", str(rows.get("fixed", {}).get("max_threads")), "--json"])
r = json.loads(out) if out else {}
check((r.get("blocks_per_sm"), r.get("exceeded"), r.get("exceeded_limit")) == (0, "threads", 128),
      f"report at fixed's bound: 0 work-groups, exceeded threads 128 ({rc} {out[:300]} {err})")
rc, out, err = run(["binary", reqd, "--json"])
rows = {r["name"]: r for r in json.loads(out or "[]")}
got = {n: (r["status"], r["threads"], r["threads_from"], r["blocks_per_sm"]) for n, r in rows.items()}
check(rc == 1 and got == {"fixed": ("ok", 128, "launch_bound", 16), "tile": ("ok", 64, "launch_bound", 32),
                          "hinted": ("no_threads", None, None, None)} and err.count("\n") == 1
      and "hinted: no launch bound read from the binary" in err, f"reqd without --threads: {rc} {got} {err}")
rc, out, err = run(["binary", reqd])
check(re.search(r"^fixed\s+pvc\s+128\s+0\s+0\s+0\s+-\s+128\s+128\s+16\s+100\.0%", out, re.M) is not None
      and re.search(r"^tile\s+pvc\s+128\s+0\s+0\s+0\s+-\s+64\s+64\s+32\s", out, re.M) is not None,
      f"table: the bound and the launch it gives: {out}")
rc, out, err = run(["binary", reqd, "--csv"])
lines = out.splitlines()
head = lines[0].split(",") if lines else []
csv_rows = {c["name"]: c for c in (dict(zip(head, line.split(","))) for line in lines[1:])}
check({n: (c.get("max_threads"), c.get("launch_bound"), c.get("threads")) for n, c in csv_rows.items()} ==
      {"fixed": ("128", "recorded", "128"), "tile": ("64", "recorded", "64"), "hinted": ("0", "none", "-1")},
      f"CSV max_threads and launch_bound: {csv_rows}")
# --best-block stays within the bound; --max-threads wins over the record (as on NVIDIA and AMD)
rc, out, _ = run(["binary", reqd, "--best-block", "--json"])
rows = {r["name"]: r for r in json.loads(out or "[]")}
check(0 < rows.get("fixed", {}).get("threads", 0) <= 128 and 0 < rows.get("tile", {}).get("threads", 0) <= 64,
      f"--best-block within the bound: {out[:400]}")
rc, out, _ = run(["binary", reqd, "--threads", "256", "--max-threads", "512", "--json"])
check([(r["max_threads"], r["launch_bound"], r["status"]) for r in json.loads(out or "[]")] ==
      [(512, "flag", "ok")] * 3, f"--max-threads over the record: {out[:300]}")

# --max-threads on a zebin without required_work_group_size: the flag gives the kernel's largest work-group
# (launch_bound flag).  256 work-items over a maximum of 128 cannot be enqueued; within it, dg2's answers
# above (16 and 8 work-groups); the best block stays within it
dg2 = os.path.join(DATA, "kernels_dg2.bin")
rc, out, _ = run(["binary", dg2, "--threads", "256", "--max-threads", "128", "--json"])
check([(r["status"], r["max_threads"], r["launch_bound"]) for r in json.loads(out)] ==
      [("exceeds_launch_bounds", 128, "flag")] * 2, f"--max-threads 128 below --threads 256: {out[:300]}")
rc, out, _ = run(["binary", dg2, "--threads", "256", "--max-threads", "256", "--json"])
check([(r["blocks_per_sm"], r["max_threads"], r["launch_bound"]) for r in json.loads(out)] ==
      [(16, 256, "flag"), (8, 256, "flag")], f"--max-threads 256: {out[:300]}")
rc, out, _ = run(["binary", dg2, "--best-block", "--max-threads", "128", "--json"])
check(rc == 0 and all(0 < r["threads"] <= 128 for r in json.loads(out)), f"--best-block within --max-threads: {out[:300]}")

# CSV: the Intel columns after the AMD ones, before the launch bound's and file; an NVIDIA row leaves them empty
rc, out, _ = run(["binary", os.path.join(DATA, "kernels_pvc.bin"), os.path.join(sys.argv[2], "kernels_sm90.cubin"),
                  "--threads", "256", "--csv"])
lines = out.splitlines()
head = lines[0].split(",")
intel = ["sub_group", "grf", "slm", "scratch_per_thread", "private", "private_per_work_item", "spill", "product_family"]
at = head.index("sub_group") if "sub_group" in head else -1
check(at > head.index("vendor") and head[at:at + 8] == intel and at < head.index("launch_bound") and head[-1] == "file",
      f"CSV Intel columns, after the vendors' and before the launch bound's and file: {head}")
check(all(len(line.split(",")) == len(head) for line in lines[1:]), "every CSV row has every column")
copy = dict(zip(head, lines[1].split(",")))
check((copy["vendor"], copy["sub_group"], copy["grf"], copy["spill"], copy["product_family"]) ==
      ("intel", "32", "128", "-1", "1271"), f"CSV copy row: {copy}")

# the table: GRF in the regs column, Intel's words for the limiter, the SIMD width
rc, out, _ = run(["binary", os.path.join(DATA, "kernels_pvc_256grf.bin"), "--threads", "256"])
check(re.search(r"^reduce\s+pvc\s+256\s+1\s+4096 .* 2\s+50\.0%\s+GRF \(SIMD16\)$", out, re.M) is not None,
      f"table row of reduce: {out}")

# damaged: a zebin cut short is a problem of the file (exit 2, no kernel), never a crash
with tempfile.TemporaryDirectory() as tmp:
    data = open(os.path.join(DATA, "kernels_dg2.bin"), "rb").read()
    for cut in [64, len(data) // 2, len(data) - 1]:
        path = os.path.join(tmp, "cut.bin")
        open(path, "wb").write(data[:cut])
        rc, out, err = run(["binary", path, "--threads", "256"])
        check(rc == 2 and err.strip(), f"cut at {cut}: exit 2 with a reason ({rc}, {err.strip()})")
# ocloc's default output (regenerate.sh, no -cl-intel-allow-zebin): an ELF of e_machine 0, e_type 0xff04, its
# program in a section of type 0xff000005 (readelf: LOUSER+0x7f000005 "Intel(R) OpenCL Device Binary"); not read,
# and said to be what it is, with the option that makes ocloc write a zebin
pt = os.path.join(DATA, "kernels_pvc_patchtoken.bin")
head = open(pt, "rb").read(64)
check(head[:4] == b"\x7fELF" and struct.unpack_from("<HH", head, 16) == (0xff04, 0), "the fixture is ocloc's OpenCL ELF")
rc, out, err = run(["binary", pt, "--threads", "256"])
check(rc == 2 and out == "" and "Intel OpenCL ELF (e_type 0xff04) holding a patch-token program" in err
      and "-cl-intel-allow-zebin" in err and err.count("\n") == 1, f"patch-token binary named ({rc}, {err!r})")
finish("cli-zebin")
