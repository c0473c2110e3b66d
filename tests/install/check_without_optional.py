#!/usr/bin/env python3
"""On a machine with the README's packages only (no libzstd-dev, no liblz4-dev: hidden from pkg-config
here, every other .pc kept), a -Dwerror=true build compiles the decoder tests without a warning, and their
differential tests are skipped, each with its reason, while the rest runs.

Usage: check_without_optional.py SOURCE_ROOT"""
import os
import pathlib
import subprocess
import sys
import tempfile

source = sys.argv[1]
hidden = {"libzstd.pc", "liblz4.pc"}
with tempfile.TemporaryDirectory() as tmp:
    pcdir = pathlib.Path(tmp) / "pkgconfig"
    pcdir.mkdir()
    for d in ("/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/lib/pkgconfig", "/usr/share/pkgconfig",
              "/usr/local/lib/pkgconfig"):
        for pc in pathlib.Path(d).glob("*.pc") if os.path.isdir(d) else []:
            if pc.name not in hidden and not (pcdir / pc.name).exists():
                (pcdir / pc.name).symlink_to(pc)
    env = dict(os.environ, PKG_CONFIG_LIBDIR=str(pcdir), PKG_CONFIG_PATH="")
    build = pathlib.Path(tmp) / "build"
    setup = subprocess.run(["meson", "setup", str(build), source, "-Dwerror=true", "-Dcmake_prefix_path=/nonexistent"],
                           capture_output=True, text=True, env=env)
    if setup.returncode != 0:
        sys.exit(f"meson setup failed:\n{setup.stdout}{setup.stderr}")
    for name in ("libzstd", "liblz4"):
        if f"Run-time dependency {name} found: NO" not in setup.stdout:
            sys.exit(f"{name} is not hidden:\n{setup.stdout}")
    comp = subprocess.run(["meson", "compile", "-C", str(build), "tests/test_decode"], capture_output=True,
                          text=True, env=env)
    if comp.returncode != 0 or "warning:" in comp.stdout + comp.stderr:
        sys.exit(f"test_decode without libzstd-dev and liblz4-dev does not build cleanly:\n{comp.stdout}{comp.stderr}")
    run = subprocess.run([str(build / "tests" / "test_decode"), "--tap=/dev/stdout", "--jobs=1"],
                         capture_output=True, text=True)
    skips = [l for l in run.stdout.splitlines() if "# SKIP" in l]
    if run.returncode != 0 or len(skips) != 2 or not all(any(w in s for s in skips) for w in
                                                          ("libzstd-dev is not installed", "liblz4-dev is not installed")):
        sys.exit(f"expected the two differential tests skipped with their reasons, status 0:\n{run.stdout}{run.stderr}")
    passed = [l for l in run.stdout.splitlines() if l.startswith("ok ") and "# SKIP" not in l]
    if not passed or any(l.startswith("not ok") for l in run.stdout.splitlines()):
        sys.exit(f"the decoder's own tests did not pass:\n{run.stdout}")
print("without libzstd-dev and liblz4-dev: test_decode builds with -Werror, "
      f"{len(passed)} pass, the 2 differential tests skip with their reasons")
