#!/usr/bin/env python3
"""Install the build into a scratch DESTDIR (a prefix the dynamic linker does not search), then build and
run the examples the way the README's pkg-config paragraph says, with its two lines taken from README.md:
cc app.c $(pkg-config --cflags --libs gpuocc) -Wl,-rpath,$(pkg-config --variable=libdir gpuocc), run with
no LD_LIBRARY_PATH; and the plain line, run with LD_LIBRARY_PATH=$(pkg-config --variable=libdir gpuocc).
Each program must load the installed library.

Usage: check_pkgconfig.py BUILD_DIR SOURCE_ROOT CC"""
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

build, root, cc = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
data = root / "tests" / "data"
readme = (root / "README.md").read_text()
paragraph = readme.split("- **pkg-config**:", 1)[1].split("\n- **", 1)[0]
commands = re.findall(r"`([^`]*pkg-config[^`]*)`", paragraph.replace("\n  ", " "))
rpath_line = next((c for c in commands if c.startswith("cc app.c") and "-Wl,-rpath," in c), None)
plain_line = next((c for c in commands if c.startswith("cc app.c") and "rpath" not in c), None)
run_line = next((c for c in commands if c.startswith("LD_LIBRARY_PATH=")), None)
if not (rpath_line and plain_line and run_line):
    sys.exit(f"README's pkg-config paragraph lacks the build line, the rpath line or the LD_LIBRARY_PATH line: {commands}")
# example, arguments, stdin, a line its output must hold (derived by hand: see the comments)
cases = [
    # A100, 256 threads, 64 registers: 2048 a warp, 8 warps per sub-partition, 32 warps, 4 blocks = 50 %
    ("occupancy.c", ["A100", "256", "64"], None, "A100: 4 blocks/SM, 50 % occupancy, limited by registers"),
    # the captured sm_90 log: spilling uses 64 registers -> 4 blocks of 256 threads = 50 %
    ("build_log.c", ["256"], data / "ptxas_sm90.log", "spilling sm_90: 64 registers, 4 blocks/SM, 50.0 %"),
]
clean = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "PKG_CONFIG_SYSROOT_DIR")}
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run(["meson", "install", "-C", str(build), "--destdir", tmp, "--no-rebuild", "--quiet"], check=True)
    pcs = list(pathlib.Path(tmp).rglob("gpuocc.pc"))
    if len(pcs) != 1:
        sys.exit(f"expected one installed gpuocc.pc, found {pcs}")
    env = dict(clean, PKG_CONFIG_PATH=str(pcs[0].parent))
    strict = f"{shlex.quote(cc)} -std=c11 -Wall -Wextra -Wpedantic -Werror"
    for source, args, stdin, expected in cases:
        for how, line in (("rpath", rpath_line), ("LD_LIBRARY_PATH", plain_line)):
            exe = pathlib.Path(tmp) / f"{source.replace('.c', '')}-{how.lower()}"
            command = line.replace("cc app.c", f"{strict} {shlex.quote(str(root / 'examples' / source))}", 1)
            subprocess.run(f"{command} -o {shlex.quote(str(exe))}", shell=True, env=env, check=True)
            if how == "rpath":
                shell = f"{shlex.quote(str(exe))}"
            else:  # the README's run line, ./a.out being this program
                shell = run_line.replace("./a.out", shlex.quote(str(exe)))
            argv = " ".join(shlex.quote(a) for a in args)
            run = subprocess.run(f"{shell} {argv}", shell=True, stdin=open(stdin) if stdin else subprocess.DEVNULL,
                                 capture_output=True, text=True, env=env)
            if run.returncode != 0 or expected not in run.stdout.splitlines():
                sys.exit(f"{source} ({how}) {' '.join(args)}: status {run.returncode}, output:\n{run.stdout}{run.stderr}")
            ldd = subprocess.run(f"{'' if how == 'rpath' else shell.rsplit(' ', 1)[0] + ' '}ldd {shlex.quote(str(exe))}",
                                 shell=True, capture_output=True, text=True, env=env)
            lib = next((l for l in ldd.stdout.splitlines() if "libgpuocc" in l), "")
            if tmp not in lib:
                sys.exit(f"{source} ({how}) does not load the installed library: {lib.strip()}")
            print(f"{source} ({how}): {expected}")
print("examples: ok")
