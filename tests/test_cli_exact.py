#!/usr/bin/env python3
"""gpuocc binary is exact on real binaries (issue 27, point 6).
- AMD: a gfx90a code object with 256 arch VGPRs and 10 AGPRs (tests/amd/agpr.cl; its note says .vgpr_count 266,
  .agpr_count 10, which llvm-readelf-19 --notes confirms where installed) gets the answer `gpuocc report --arch
  gfx90a --vgprs 256 --agprs 10` gives for the same launch: the unified VGPR/AGPR file counted once.
Usage: test_cli_exact.py GPUOCC DATA_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]


def run(args):
    p = subprocess.run([GPUOCC] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def data(name):
    return os.path.join(DATA, name)


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

finish("cli-exact")
