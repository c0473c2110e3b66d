#!/usr/bin/env python3
"""Install the build into a scratch DESTDIR, then build and run the examples the way a user does:
cc example.c $(pkg-config --cflags --libs gpuocc).

Usage: check_pkgconfig.py BUILD_DIR SOURCE_ROOT CC"""
import os
import pathlib
import subprocess
import sys
import tempfile

build, root, cc = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
data = root / "tests" / "data"
# example, arguments, stdin, a line its output must hold (derived by hand: see the comments)
cases = [
    # A100, 256 threads, 64 registers: 2048 a warp, 8 warps per sub-partition, 32 warps, 4 blocks = 50 %
    ("occupancy.c", ["A100", "256", "64"], None, "A100: 4 blocks/SM, 50 % occupancy, limited by registers"),
    # the captured sm_90 log: spilling uses 64 registers -> 4 blocks of 256 threads = 50 %
    ("build_log.c", ["256"], data / "ptxas_sm90.log", "spilling sm_90: 64 registers, 4 blocks/SM, 50.0 %"),
]
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run(["meson", "install", "-C", str(build), "--destdir", tmp, "--no-rebuild", "--quiet"], check=True)
    pcs = list(pathlib.Path(tmp).rglob("gpuocc.pc"))
    if len(pcs) != 1:
        sys.exit(f"expected one installed gpuocc.pc, found {pcs}")
    env = dict(os.environ, PKG_CONFIG_PATH=str(pcs[0].parent), PKG_CONFIG_SYSROOT_DIR=tmp)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "gpuocc"], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    libdirs = [f[2:] for f in flags if f.startswith("-L")]
    run_env = dict(os.environ, LD_LIBRARY_PATH=":".join(libdirs))
    for source, args, stdin, expected in cases:
        exe = pathlib.Path(tmp) / source.replace(".c", "")
        subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", str(root / "examples" / source),
                        *flags, "-o", str(exe)], check=True)
        run = subprocess.run([str(exe), *args], stdin=open(stdin) if stdin else subprocess.DEVNULL,
                             capture_output=True, text=True, env=run_env)
        if run.returncode != 0 or expected not in run.stdout.splitlines():
            sys.exit(f"{source} {' '.join(args)}: status {run.returncode}, output:\n{run.stdout}{run.stderr}")
        print(f"{source}: {expected}")
print("examples: ok")
