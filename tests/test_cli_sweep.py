#!/usr/bin/env python3
"""gpuocc sweep: rows as `gpuocc batch` prints them (they join), the seeds' register staircase on A100 with
its steps derived by hand (tests/test_sweep.c writes the derivation out), default ranges, exit statuses.
Usage: test_cli_sweep.py GPUOCC"""
import csv
import io
import json
import subprocess
import sys

from checks import check, finish

GPUOCC = sys.argv[1]


def run(*args, stdin=None, stdout=None):
    p = subprocess.run([GPUOCC] + list(args), input=stdin, stdout=stdout or subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


LAUNCH = ["arch", "threads", "regs", "smem_static", "smem_dynamic", "barriers", "carveout", "smem_optin", "max_threads",
          "virtual_resources", "tmem_columns"]

# 1. sweep --csv joins batch: its launch columns fed to batch give back the same rows, on every axis
for axis, extra in [("regs", []), ("threads", ["--regs", "40"]), ("smem", ["--smem-static", "3000"]),
                    ("barriers", ["--arch", "H100", "--threads", "64"]),
                    # the kernel's launch bound, a launch column too: the points past it fit no block
                    ("threads", ["--regs", "40", "--max-threads", "128"])]:
    # the extra flags replace the defaults (a flag given twice is a usage error)
    base = {"--arch": "A100", "--threads": "256"}
    base.update({extra[i]: extra[i + 1] for i in range(0, len(extra), 2)})
    args = ["sweep", "--axis", axis, "--csv"] + [x for item in base.items() for x in item]
    rc, out, err = run(*args)
    check(f"sweep {axis} exit", rc == 0, err)
    rows = list(csv.reader(io.StringIO(out)))
    n = len(LAUNCH)
    check(f"sweep {axis} header", rows[0][:n] == LAUNCH and rows[0][n] == "status", rows[0])
    launches = "\n".join(",".join(r[:n]) for r in rows) + "\n"
    rc, batch, err = run("batch", stdin=launches)
    # batch appends its input's `exceeded`, `exceeded_limit`, `line` and `error` columns; the rest is the same,
    # byte for byte
    joined = [r[:-4] for r in csv.reader(io.StringIO(batch))]
    check(f"sweep {axis} joins batch", rc == 0 and joined == rows and all(r[-1] == "" for r in list(csv.reader(io.StringIO(batch)))[1:]),
          (rc, err, batch[:300], out[:300]))

# __launch_bounds__(128): every block above 128 threads fits none (exceeded threads), the launch column says 128
rc, out, err = run("sweep", "--arch", "A100", "--threads", "256", "--regs", "40", "--max-threads", "128", "--axis",
                   "threads", "--json")
rows = json.loads(out)
check("sweep past the launch bound", rc == 0 and all(r["max_threads"] == 128 for r in rows)
      and all((r["blocks_per_sm"] == 0) == (r["threads"] > 128) for r in rows), rows[:6])

# 2. default ranges at the natural granularity (A100: 1024 threads by 32; 255 registers; 163 KiB by 128 B;
#    barriers 0..16)
for axis, rows_expected in [("threads", 32), ("regs", 256), ("smem", 166912 // 128 + 1), ("barriers", 17)]:
    rc, out, err = run("sweep", "--arch", "A100", "--threads", "256", "--axis", axis, "--json")
    rows = json.loads(out)
    check(f"default range {axis}", rc == 0 and len(rows) == rows_expected, (len(rows), rows_expected))

# 3. the seeds' staircase: 16 -> 100 %, 64 -> 50 %, 128 -> 25 %; steps at 25, 33, 41, 49, 65, 81, 129
rc, out, err = run("sweep", "--arch", "A100", "--threads", "256", "--axis", "regs", "--json")
occ = {r["regs"]: r["occupancy"] for r in json.loads(out)}
check("seed 16 regs", occ[16] == 1.0, occ[16])
check("seed 64 regs", occ[64] == 0.5, occ[64])
check("seed 128 regs", occ[128] == 0.25, occ[128])
rc, out, err = run("sweep", "--arch", "A100", "--threads", "256", "--axis", "regs", "--steps", "--json")
steps = json.loads(out)
check("steps by hand", [s["regs"] for s in steps] == [0, 25, 33, 41, 49, 65, 81, 129], [s["regs"] for s in steps])
check("steps limiters", steps[1]["limiters"] == ["warps", "registers"] and steps[2]["limiters"] == ["registers"],
      steps[:3])
check("limits null in json", steps[0]["limit_barriers"] is None)

# 4. --from/--to/--step with sizes; the text table
rc, out, err = run("sweep", "--arch", "A100", "--threads", "256", "--axis", "smem", "--from", "40K", "--to", "48K",
                   "--step", "4K", "--csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("smem sizes", [int(r["smem_dynamic"]) for r in rows] == [40960, 45056, 49152], out)
# 49152 + 1 KiB reserved = 50176 per block; 167936 / 50176 = 3 blocks (the seeds' example 2: 37.5 %)
check("seed example 2", rows[-1]["blocks_per_sm"] == "3" and rows[-1]["occupancy"] == "0.375000", rows[-1])
rc, out, err = run("sweep", "--arch", "A100", "--threads", "256", "--axis", "regs", "--from", "64", "--to", "64")
check("text table", rc == 0 and "50.0%" in out and "registers" in out, out)

# 5. exit statuses
for args, want in [(["--arch", "A100"], 2), (["--arch", "A100", "--axis", "warps"], 2),
                   (["--axis", "regs"], 2), (["--arch", "A100", "--axis", "regs", "--from", "9", "--to", "3"], 2),
                   (["--arch", "A100", "--axis", "threads", "--from", "0"], 2),
                   (["--arch", "A100", "--axis", "regs", "--step", "0"], 2),
                   (["--arch", "A100", "--axis", "regs", "--csv", "--json"], 2)]:
    rc, out, err = run("sweep", *args)
    check(f"exit {args}", rc == want and err.count("\n") == 1, (rc, err))
with open("/dev/full", "w") as full:
    rc, _, _ = run("sweep", "--arch", "A100", "--axis", "smem", "--csv", stdout=full)
check("output not written: 3", rc == 3, rc)

finish("cli-sweep")
