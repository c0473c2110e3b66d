#!/usr/bin/env python3
"""The command line, for a person: report --csv; devices in 100 columns, filtered, --json; the
next step not at full occupancy and never above ptxas's 255 registers; the man page and the bash completion
generated from the commands (tests/install/check_install.py checks that they are installed).
Usage: test_cli_person.py GPUOCC BUILD_DIR"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys

from checks import check, finish

GPUOCC, BUILD = sys.argv[1], sys.argv[2]


def run(*args):
    p = subprocess.run([GPUOCC] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# report --csv: seeds' Example 1 by hand (H100: 64 regs -> 2048 per warp -> 32 warps -> 4 blocks of 8 warps)
rc, out, err = run("report", "--arch", "sm_90", "--threads", "256", "--regs", "64", "--csv")
t = list(csv.DictReader(io.StringIO(out)))
check("report --csv", rc == 0 and len(t) == 1 and t[0]["blocks_per_sm"] == "4" and t[0]["occupancy"] == "0.500000"
      and t[0]["limiters"] == "registers" and t[0]["sm_count"] == "-1", out + err)
rc, out, err = run("report", "--arch", "H100", "--threads", "256", "--regs", "64", "--json")
check("report --json sm_count", rc == 0 and json.loads(out)["sm_count"] == 132, out)
rc, out, err = run("report", "--arch", "sm_90", "--threads", "256", "--regs", "64", "--json")
check("report --json unknown sm_count is null", rc == 0 and json.loads(out)["sm_count"] is None, out)

# report exits 1 when the launch cannot run (255 registers x 1024 threads > 65536)
rc, out, err = run("report", "--arch", "A100", "--threads", "1024", "--regs", "255")
check("report 0 blocks: exit 1 with the reason", rc == 1 and "blocks/SM   0" in out and "cannot run" in err, err)

# next step: none at full occupancy (256 threads x 32 regs: 8 blocks of 8 warps = 64 of 64 warps)
rc, out, _ = run("report", "--arch", "H100", "--threads", "256", "--regs", "32")
check("no next step at full occupancy", rc == 0 and "occupancy   100.0 %" in out and "next step" not in out, out)
rc, out, _ = run("report", "--arch", "H100", "--threads", "256", "--regs", "32", "--json")
check("no next step at full occupancy (json)", json.loads(out)["next_steps"] == [], out)
# 64 threads x 300 registers cannot be compiled; the next step must be a count ptxas can allocate
rc, out, _ = run("report", "--arch", "H100", "--threads", "64", "--regs", "300", "--json")
steps = json.loads(out)["next_steps"]
check("next step at most 255 registers", steps and all(s["new_value"] <= 255 for s in steps if s["resource"] == "registers"),
      out)
# below full occupancy the next step is shown (its value is gpuocc_next_step's, checked in the unit suite)
rc, out, _ = run("report", "--arch", "H100", "--threads", "256", "--regs", "64")
check("next step below full occupancy", "next step   registers per thread: 64 ->" in out, out)

# devices: 100 columns, filters, --json
rc, out, _ = run("devices")
check("devices fits 100 columns", rc == 0 and max(len(l) for l in out.splitlines()) <= 100, max(len(l) for l in out.splitlines()))
rc, out, _ = run("devices", "H100")
names = [l[:18].strip() for l in out.splitlines()[1:]]
check("devices H100", rc == 0 and names and all("H100" in n for n in names) and "H100 SXM" in names, names)
rc, out, _ = run("devices", "sm_90", "--json")
d = json.loads(out) if rc == 0 else []
check("devices sm_90 --json", d and all(x["arch"] == "sm_90" for x in d) and any(x["name"] == "H100 SXM" for x in d)
      and next(x for x in d if x["name"] == "sm_90")["sm_count"] is None, out)
rc, out, err = run("devices", "Voodoo5")
check("devices without a match", rc == 2 and not out and "Voodoo5" in err, err)

# the man page and the completion: generated, every command in them
man = os.path.join(BUILD, "tools", "gpuocc.1")
comp = os.path.join(BUILD, "tools", "completion", "gpuocc")
listed = run("--help")[1]
commands = [l.split()[0] for l in listed.split("commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()]
page = open(man).read() if os.path.exists(man) else ""
check("man page lists every command", page and all(f'.SS "gpuocc {c} ' in page for c in commands), commands)
check("man page documents the exit statuses", ".SH EXIT STATUS" in page and ".B 3" in page)
if shutil.which("man"):
    p = subprocess.run(["man", "--warnings", "-l", man], capture_output=True, text=True, env=dict(os.environ, MANWIDTH="100"))
    check("man renders without warnings", p.returncode == 0 and not p.stderr.strip(), p.stderr)
script = open(comp).read() if os.path.exists(comp) else ""
check("completion lists every command", script and all(f" {c}" in script for c in commands))
p = subprocess.run(["bash", "-n", comp], capture_output=True, text=True)
check("completion is valid bash", p.returncode == 0, p.stderr)
p = subprocess.run(["bash", "-c", f'source "{comp}"; COMP_WORDS=(gpuocc report --thr); COMP_CWORD=2; _gpuocc; '
                    'echo "${COMPREPLY[@]}"'], capture_output=True, text=True)
check("completion completes a flag", p.stdout.split() == ["--threads"], p.stdout + p.stderr)

finish("test_cli_person")
