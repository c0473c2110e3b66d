#!/usr/bin/env python3
"""A sanitized build (as scripts/check makes it) skips the CUDA toolkit test saying that it is a sanitized
build, not that there is no toolkit (which was false on a machine with one); without nvcc it says that.
Reads the reason Meson gives the test's compile (TOOLKIT_SKIP) from `meson introspect --targets`.

Usage: check_skip_reasons.py SOURCE_ROOT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

source = sys.argv[1]


def reason(*options, env=None):
    with tempfile.TemporaryDirectory() as tmp:
        setup = subprocess.run(["meson", "setup", tmp + "/b", source, *options], capture_output=True, text=True,
                               env=env)
        if setup.returncode != 0:
            sys.exit(f"meson setup {' '.join(options)} failed:\n{setup.stdout[-2000:]}{setup.stderr}")
        targets = json.loads(subprocess.run(["meson", "introspect", "--targets", tmp + "/b"], capture_output=True,
                                            text=True, check=True).stdout)
        toolkit = next(t for t in targets if t["name"] == "test_toolkit")
        args = [a for s in toolkit["target_sources"] for a in s.get("parameters", [])]
        skip = [a for a in args if a.startswith("-DTOOLKIT_SKIP=")]
        return skip[0] if skip else None, any(a.startswith("-DTOOLKIT_LIB64=") for a in args)


nvcc = shutil.which("nvcc")
if nvcc and os.path.isdir(os.path.join(os.path.dirname(os.path.dirname(nvcc)), "lib64")):
    skip, reads = reason("-Db_sanitize=address,undefined", "-Db_lundef=false")
    if not skip or "sanitized build" not in skip or "no CUDA toolkit" in skip or reads:
        sys.exit(f"sanitized build with a toolkit: the toolkit test's skip reason is {skip!r}")
    print(f"sanitized, toolkit here: {skip}")
    skip, reads = reason()
    if skip or not reads:
        sys.exit(f"unsanitized build with a toolkit must read it, not skip ({skip!r})")
    print("unsanitized, toolkit here: read")
skip, reads = reason("-Dnvcc_path=", env=dict(os.environ, PATH="/usr/bin:/bin"))
if not skip or "no nvcc found" not in skip or reads:
    sys.exit(f"without nvcc: the toolkit test's skip reason is {skip!r}")
print(f"no nvcc: {skip}")
