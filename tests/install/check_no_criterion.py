#!/usr/bin/env python3
"""Without Criterion (hidden from pkg-config and CMake here), `meson setup` succeeds, says the tests
are off, and registers only the Criterion-free smoke suite (tests/smoke); -Dtests=enabled then fails,
naming Criterion.

Usage: check_no_criterion.py SOURCE_ROOT"""
import json
import os
import subprocess
import sys
import tempfile

source = sys.argv[1]
env = dict(os.environ, PKG_CONFIG_LIBDIR="/nonexistent", PKG_CONFIG_PATH="", CMAKE_PREFIX_PATH="/nonexistent")
with tempfile.TemporaryDirectory() as tmp:
    setup = subprocess.run(["meson", "setup", tmp + "/build", source, "-Dcmake_prefix_path=/nonexistent"],
                           capture_output=True, text=True, env=env)
    if setup.returncode != 0:
        sys.exit(f"meson setup without Criterion failed:\n{setup.stdout}{setup.stderr}")
    if "tests are off (Criterion not found: the smoke test only)" not in setup.stdout:
        sys.exit(f"meson setup does not say the tests are off:\n{setup.stdout}")
    tests = json.loads(subprocess.run(["meson", "introspect", tmp + "/build", "--tests"], capture_output=True,
                                      text=True, check=True).stdout)
    if sorted(t["name"] for t in tests) != ["smoke", "smoke-coverage"]:
        sys.exit(f"tests registered without Criterion, beyond the smoke suite: {[t['name'] for t in tests]}")
    forced = subprocess.run(["meson", "setup", tmp + "/forced", source, "-Dtests=enabled"], capture_output=True,
                            text=True, env=env)
    if forced.returncode == 0 or "criterion" not in (forced.stdout + forced.stderr).lower():
        sys.exit("-Dtests=enabled without Criterion should fail naming it")
print("no Criterion: setup succeeds, tests are off but the smoke suite")
