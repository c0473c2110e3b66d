#!/usr/bin/env python3
"""The two-file drop-in compiles alone with strict flags, passes the smoke test, and exports only gpuocc_*.

Usage: check_amalgamation.py CC SOURCE_ROOT"""
import pathlib
import subprocess
import sys
import tempfile

cc, root = sys.argv[1], pathlib.Path(sys.argv[2])
flags = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2"]
with tempfile.TemporaryDirectory() as tmp:
    out = pathlib.Path(tmp)
    subprocess.run([sys.executable, str(root / "scripts" / "amalgamate.py"), tmp], check=True)
    subprocess.run([cc, *flags, "-c", str(out / "gpuocc.c"), "-o", str(out / "gpuocc.o")], check=True)
    subprocess.run([cc, *flags, "-I", tmp, str(root / "tests" / "vendor" / "smoke.c"), str(out / "gpuocc.o"),
                    "-lm", "-o", str(out / "smoke")], check=True)
    run = subprocess.run([str(out / "smoke")], capture_output=True, text=True)
    print(run.stdout, end="")
    if run.returncode != 0:
        sys.exit(f"smoke test failed with status {run.returncode}")
    nm = subprocess.run(["nm", "-g", "--defined-only", str(out / "gpuocc.o")], capture_output=True, text=True)
    if nm.returncode == 0:
        leaked = [l.split()[-1] for l in nm.stdout.splitlines() if l.strip() and not l.split()[-1].startswith("gpuocc_")]
        if leaked:
            sys.exit(f"symbols outside gpuocc_*: {leaked}")
print("amalgamation: ok")
