#!/usr/bin/env python3
"""gpuocc report --cluster and sweep --axis cluster: legality and resident clusters, every value derived by hand
from docs/model.md ("Thread-block clusters"): clusters from cc 9.0, 8 blocks portable, 16 non-portable on H100,
each cluster dimension dividing the grid's; a GPC of S SMs at b blocks per SM holds floor(S b / c) clusters; a
product's published die shape gives the range over its layouts, labelled a bound.  1024 threads of 64
registers fit 1 block per SM on H100 (2048 registers a warp: 8 warps a sub-partition, 32 of 64 warps).
Usage: test_cli_clusters.py GPUOCC"""
import csv
import io
import json
import subprocess
import sys

from checks import check, finish

GPUOCC = sys.argv[1]
H100 = ["--arch", "H100", "--threads", "1024", "--regs", "64"]


def run(*args):
    p = subprocess.run([GPUOCC] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def report_json(*args):
    rc, out, err = run("report", *H100, *args, "--json")
    return rc, (json.loads(out) if rc in (0, 1) and out else None), err


# 1. clusters of 2 on H100 SXM: every TPC holds one, whatever the layout: 66 to 66, still a bound
rc, j, err = report_json("--cluster", "2x1x1", "--grid-blocks", "264")
check("2x1x1 exit", rc == 0, err)
check("2x1x1 fields", j and (j["cluster_x"], j["cluster_y"], j["cluster_z"], j["cluster_blocks"], j["grid_x"],
                             j["cluster_verdict"], j["clusters_kind"], j["clusters_min"], j["clusters_max"],
                             j["cluster_blocks_max"]) == (2, 1, 1, 2, 264, "legal", "bound", 66, 66, 8), j)

# 2. clusters of 16 (non-portable): between 5 and 8 GPCs of 66 TPCs reach 8 TPCs (16 SMs)
rc, j, err = report_json("--cluster", "16", "--cluster-nonportable")
check("16 bound", rc == 0 and j and (j["cluster_nonportable"], j["cluster_blocks_max"], j["clusters_min"],
                                     j["clusters_max"], j["clusters_kind"]) == (1, 16, 5, 8, "bound"), (rc, j, err))
rc, out, err = run("report", *H100, "--cluster", "16", "--cluster-nonportable")
check("text labels the bound", rc == 0 and "5 to 8 resident at once: a BOUND" in out, out)

# 3. the caller's layout: six GPCs of 16 SMs and two of 18, clusters of 3x2: 6 x 2 + 2 x 3 = 18, exact
rc, j, err = report_json("--cluster", "3x2", "--gpc-sms", "16,16,16,16,16,16,18,18")
check("exact layout", rc == 0 and j and (j["clusters_kind"], j["clusters_min"], j["clusters_max"], j["gpc_sms"])
      == ("exact", 18, 18, "16,16,16,16,16,16,18,18"), (rc, j, err))
rc, out, err = run("report", *H100, "--cluster", "3x2", "--gpc-sms", "16,16,16,16,16,16,18,18", "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("csv", rc == 0 and rows and (rows[0]["clusters_kind"], rows[0]["clusters_max"], rows[0]["cluster_blocks"])
      == ("exact", "18", "6"), out)

# 4. without --cluster the fields are null
rc, j, err = report_json()
check("no cluster: null", rc == 0 and all(j[k] is None for k in ("cluster_x", "cluster_verdict", "clusters_max",
                                                                  "clusters_kind", "grid_x")), j)

# 5. no published layout (B200): floor(148 / 16) = 9 at most, the least unknown
rc, out, err = run("report", "--arch", "B200", "--threads", "1024", "--regs", "64", "--cluster", "16",
                   "--cluster-nonportable", "--json")
j = json.loads(out) if rc == 0 else {}
check("B200 upper bound", (j.get("clusters_min"), j.get("clusters_max"), j.get("clusters_kind")) == (None, 9, "bound"),
      (rc, out, err))

# 6. refusals: exit 2, one stderr line naming the flag and the rule
for args, flag, words in [
        (["--cluster", "3x3"], "--cluster", "more than the portable 8"),
        (["--cluster", "4x4x2", "--cluster-nonportable"], "--cluster", "more than the 16"),
        (["--cluster", "2", "--grid-blocks", "131"], "--grid-blocks", "not a whole number"),
        (["--cluster", "0x1"], "--cluster", "expected XxYxZ"),
        (["--gpc-sms", "66,66"], "--gpc-sms", "needs --cluster"),
        (["--cluster", "2", "--gpc-sms", "18,18"], "--gpc-sms", "36 SMs in all, but H100 has 132")]:
    rc, out, err = run("report", *H100, *args)
    check(f"refused {args}", rc == 2 and out == "" and err.count("\n") == 1 and flag in err and words in err,
          (rc, out, err))
rc, out, err = run("report", "--arch", "A100", "--threads", "1024", "--regs", "64", "--cluster", "2")
check("A100 has no clusters", rc == 2 and "compute capability 9.0" in err, (rc, err))
rc, out, err = run("report", "--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--cluster", "2")
check("AMD clusters not modelled", rc == 2 and "not modelled" in err, (rc, err))

# 7. RTX 5090: more than 8 non-portable is answered, unverified (the maximum of sm_120 is not published)
rc, out, err = run("report", "--arch", "RTX 5090", "--threads", "1024", "--regs", "32", "--cluster", "16",
                   "--cluster-nonportable", "--json")
j = json.loads(out) if rc == 0 else {}
check("unverified", (j.get("cluster_verdict"), j.get("cluster_blocks_max")) == ("unverified", None), (rc, out, err))

# 8. no cluster fits: 16 blocks at 1 per SM on GPCs of 8 and 8 SMs (bare sm_90): exit 1
rc, out, err = run("report", "--arch", "sm_90", "--threads", "1024", "--regs", "64", "--cluster", "16",
                   "--cluster-nonportable", "--gpc-sms", "8,8")
check("no cluster fits", rc == 1 and "no cluster of 16 blocks" in err, (rc, err))

# 9. sweep --axis cluster: one row per size, 1 to 16 with --cluster-nonportable; the H100 SXM ranges checked
#    against the hand derivations (c = 2: 66; c = 8: 13 to 16; c = 16: 5 to 8)
rc, out, err = run("sweep", *H100, "--axis", "cluster", "--cluster-nonportable", "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("sweep rows", rc == 0 and [int(r["cluster_blocks"]) for r in rows] == list(range(1, 17)), (rc, out, err))
by = {int(r["cluster_blocks"]): r for r in rows}
check("sweep values", rows and (by[1]["clusters_max"], by[2]["clusters_min"], by[8]["clusters_min"],
                                by[8]["clusters_max"], by[16]["clusters_min"], by[16]["clusters_max"])
      == ("132", "66", "13", "16", "5", "8"), rows[:3])
rc, out, err = run("sweep", *H100, "--axis", "cluster", "--json")
j = json.loads(out) if rc == 0 else []
check("sweep json portable", len(j) == 8 and j[-1]["cluster_blocks"] == 8 and j[0]["clusters_kind"] == "bound", out)
# a grid of 12: sizes 5, 7 and 8 do not divide it
rc, out, err = run("sweep", *H100, "--axis", "cluster", "--grid-blocks", "12", "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("sweep grid", rc == 0 and [r["cluster_blocks"] for r in rows if r["cluster_verdict"] == "grid"]
      == ["5", "7", "8"] and all(r["clusters_max"] == "-1" for r in rows if r["cluster_verdict"] == "grid"), out)
rc, out, err = run("sweep", *H100, "--axis", "cluster", "--cluster", "2")
check("sweep refuses --cluster", rc == 2 and "--cluster" in err, (rc, err))
rc, out, err = run("sweep", *H100, "--axis", "regs", "--cluster", "2")
check("cluster flags only with --axis cluster", rc == 2 and "only with --axis cluster" in err, (rc, err))
# plot --axis cluster --terminal: one bar per size with the counts; the SVG panel is not drawn yet
rc, out, err = run("plot", *H100, "--axis", "cluster", "--terminal", "--cluster-nonportable")
lines = out.splitlines()
check("plot terminal", rc == 0 and "BOUND" in lines[0] and lines[2].startswith("   2 |") and
      lines[2].endswith(" 66") and lines[16].endswith(" 5 to 8"), out)
rc, out, err = run("plot", *H100, "--axis", "cluster", "--output", "-")
check("plot svg refused, saying where the numbers are", rc == 2 and "--terminal only" in err, (rc, err))

# 10. the cluster a cubin records (tests/data/kernels_sm90.cubin: cluster_kernel has __cluster_dims__(2, 1, 1))
#     checked on the device evaluated: legal on sm_90, unsupported on A100; null for the kernels without one
import os
CUBIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "kernels_sm90.cubin")
for arch, want in [([], "legal"), (["--arch", "A100"], "unsupported")]:
    rc, out, err = run("cubin", CUBIN, "--threads", "256", *arch, "--json")
    rows = json.loads(out) if rc == 0 else []
    got = {r["short_name"]: r["cluster_verdict"] for r in rows}
    check(f"cubin cluster_verdict {arch}", got.get("cluster_kernel") == want and
          all(v is None for k, v in got.items() if k != "cluster_kernel"), (rc, got, err))
rc, out, err = run("binary", CUBIN, "--threads", "256", "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("binary csv cluster_verdict", rc == 0 and [r["cluster_verdict"] for r in rows if r["short_name"] == "cluster_kernel"]
      == ["legal"] and all(r["file"] == CUBIN for r in rows), out[:500])

finish("test_cli_clusters")
