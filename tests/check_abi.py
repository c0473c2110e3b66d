#!/usr/bin/env python3
"""The built library's ABI equals the reviewed baseline (abidiff, from abigail-tools); skipped (77) when
abidiff is not installed.  After an intended change, run scripts/abi-baseline and commit the result.

Usage: check_abi.py BASELINE LIBRARY HEADERS_DIR"""
import shutil
import subprocess
import sys

baseline, library, headers = sys.argv[1:4]
if not shutil.which("abidiff"):
    print("abi: abidiff not found (Debian package abigail-tools); skipped")
    sys.exit(77)
run = subprocess.run(["abidiff", "--headers-dir1", headers, "--headers-dir2", headers, baseline, library],
                     capture_output=True, text=True)
print(run.stdout, end="")
print(run.stderr, end="", file=sys.stderr)
if run.returncode != 0:
    sys.exit(f"abi: the library differs from {baseline} (abidiff status {run.returncode}); if intended, "
             "run scripts/abi-baseline and commit the new baseline with the change")
print("abi: same as the baseline")
