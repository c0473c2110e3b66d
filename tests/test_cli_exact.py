#!/usr/bin/env python3
"""gpuocc binary is exact on real binaries.
- AMD: a gfx90a code object with 256 arch VGPRs and 10 AGPRs (tests/amd/agpr.cl; its note says .vgpr_count 266,
  .agpr_count 10, which llvm-readelf-19 --notes confirms where installed) gets the answer `gpuocc report --arch
  gfx90a --vgprs 256 --agprs 10` gives for the same launch: the unified VGPR/AGPR file counted once.
- Which copy: tests/data/linked_app (tests/cuda/linked.cu, -rdc=true, linked) holds each of its 3 kernels for 3
  targets twice, relocatable in __nv_relfatbin and linked in .nv_fatbin (readelf -hW on the cubins: REL and
  EXEC); by default only the 9 linked rows print (`linked` 1), --all-copies adds the 9 relocatable (0); an -rdc
  object (units_rdc.o) has only relocatable ones, which print.
- Arch variants: units_variants.fatbin (-gencode ...code=sm_90a, sm_100f, sm_120f) and units_sm100a.cubin,
  units_sm100f.cubin (-arch=sm_100a, sm_100f; tests/cuda/capture.sh) print the arch they were built for.
- The toolkit (--toolkit LIB64): libcudadevrt.a's kernels are relocatable on every target (sm_75 ... sm_121), so
  no copy has the reserved window and each kernel's static shared memory is the same on all of them (its sm_110
  cubin carries a .nv.shared.reserved.0 section of a hardware workaround's own: 2056 bytes, not 1032).
Usage: test_cli_exact.py GPUOCC DATA_DIR
       test_cli_exact.py GPUOCC --toolkit LIB64_DIR  (suite cuda; skipped without the toolkit)"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]
TOOLKIT = sys.argv[3] if DATA == "--toolkit" else None


def run(args):
    p = subprocess.run([GPUOCC] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def data(name):
    return os.path.join(DATA, name)


if TOOLKIT:
    import collections
    devrt = os.path.join(TOOLKIT, "libcudadevrt.a")
    if not os.path.exists(devrt):
        print(f"SKIP: no {devrt}")
        sys.exit(77)
    p = subprocess.run([GPUOCC, "binary", devrt, "--threads", "128", "--json"], capture_output=True, text=True)
    rows = json.loads(p.stdout) if p.returncode == 0 else []
    check("libcudadevrt.a reads", p.returncode == 0 and rows, p.stderr)
    check("libcudadevrt.a: every copy relocatable", all(r["linked"] == 0 for r in rows))
    smem = collections.defaultdict(set)
    for r in rows:
        smem[r["name"]].add(r["smem"])
    check("libcudadevrt.a: each kernel's smem is the same on every target (no window in relocatable code)",
          all(len(v) == 1 for v in smem.values()),
          {n: sorted(v) for n, v in smem.items() if len(v) > 1})
    check("libcudadevrt.a: sm_110 read too", any(r["arch"] == "sm_110" for r in rows))
    finish("cli-exact-toolkit")

# ---- AMD: the unified register file, one rule for `binary` and `report` ----------------------------------
agpr = data("amdgpu_agpr_gfx90a.o")
readelf = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf")
if readelf:
    notes = subprocess.run([readelf, "--notes", agpr], capture_output=True, text=True).stdout
    counts = {k: int(v) for k, v in re.findall(r"\.(vgpr_count|agpr_count):\s+(\d+)", notes)}
    check("oracle: the note records 266 VGPRs (256 + 10) and 10 AGPRs", counts == {"vgpr_count": 266, "agpr_count": 10},
          counts)
for threads in (64, 128, 256):  # its flat workgroup size maximum is 256
    rc, out, err = run(["binary", agpr, "--threads", str(threads), "--json"])
    rows = json.loads(out) if rc == 0 else []
    rc2, out2, err2 = run(["report", "--arch", "gfx90a", "--threads", str(threads), "--vgprs", "256", "--agprs", "10",
                           "--json"])
    # `report` exits 1 when the launch cannot run (0 blocks); both must agree either way
    want = json.loads(out2) if out2.strip() else {}
    got = rows[0] if len(rows) == 1 else {}
    check(f"agpr {threads}: binary reads one kernel", rc == 0 and len(rows) == 1, (rc, err))
    check(f"agpr {threads}: binary and report agree on workgroups per CU",
          got.get("blocks_per_sm") == want.get("blocks_per_sm") and got.get("occupancy") == want.get("occupancy")
          and got.get("limiters") == want.get("limiters"), (got, want, err2))
    check(f"agpr {threads}: the kernel fits (the runtime runs it)", got.get("blocks_per_sm", 0) > 0, got)
    check(f"agpr {threads}: the record keeps the note's counts", got.get("vgprs") == 266 and got.get("agprs") == 10, got)

# ---- relocatable and linked copies ------------------------------------------------------------------------
def rows_of(args):
    rc, out, err = run(["binary"] + args + ["--threads", "128", "--json"])
    return rc, (json.loads(out) if out.strip() else []), err


rc, rows, err = rows_of([data("linked_app")])
check("linked_app: 9 linked rows by default", rc == 0 and len(rows) == 9 and all(r["linked"] == 1 for r in rows),
      (rc, [(r["name"], r["arch"], r["linked"]) for r in rows], err))
rc, rows2, err = rows_of([data("linked_app"), "--linked-only"])
check("--linked-only is the default", rows2 == rows, err)
rc, rows, err = rows_of([data("linked_app"), "--all-copies"])
check("linked_app --all-copies: 9 linked + 9 relocatable", rc == 0 and len(rows) == 18
      and sum(r["linked"] == 0 for r in rows) == 9, (rc, err))
check("both copies agree on linked.cu's shared memory (256, 0, 0)",
      all(r["smem"] == (256 if r["short_name"] == "static_smem" else 0) for r in rows),
      [(r["short_name"], r["arch"], r["linked"], r["smem"]) for r in rows])
rc, rows, err = rows_of([data("units_rdc.o")])
check("an -rdc object: its relocatable rows print", rc == 0 and len(rows) == 6 and all(r["linked"] == 0 for r in rows),
      (rc, err))
rc, out, err = run(["binary", data("linked_app"), "--threads", "128", "--csv", "--all-copies"])
header = out.split("\n", 1)[0].split(",")
check("CSV: a linked column before cluster_verdict and file", header[-3:] == ["linked", "cluster_verdict", "file"], header)

# ---- arch variants -----------------------------------------------------------------------------------------
for name, archs in [("units_variants.fatbin", {"sm_90a", "sm_100f", "sm_120f"}), ("units_sm100a.cubin", {"sm_100a"}),
                    ("units_sm100f.cubin", {"sm_100f"}), ("units.fatbin", {"sm_75", "sm_90", "sm_120"})]:
    rc, rows, err = rows_of([data(name)])
    check(f"{name}: arch {sorted(archs)}", rc == 0 and {r["arch"] for r in rows} == archs and len(rows) == 2 * len(archs),
          (rc, [r["arch"] for r in rows], err))
    check(f"{name}: answered on the base target's device", all(r["status"] == "ok" for r in rows), rows)

finish("cli-exact")
