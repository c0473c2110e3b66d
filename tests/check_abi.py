#!/usr/bin/env python3
"""The built library's ABI equals the reviewed baseline (abidiff, from abigail-tools); skipped (77) when
abidiff is not installed, and for a library of another architecture than the baseline's (a 32-bit build:
abidiff cannot compare across pointer widths, every pointer and int64_t typedef differs in spelling there;
such a build is held to the same ABI by check_layout.py, every struct's size and offsets, and
check_symbols.py, every exported name and version).  The functions of the experimental part (symbol
version GPUOCC_EXPERIMENTAL) are left out by SUPPRESSIONS.  After an intended change, run scripts/abi-baseline
and commit the result.

Usage: check_abi.py BASELINE LIBRARY HEADERS_DIR SUPPRESSIONS"""
import re
import shutil
import subprocess
import sys

# ELF e_machine values abidw names the architectures by
ELF_ARCH = {3: "elf-intel-80386", 62: "elf-amd-x86_64", 183: "elf-arm-aarch64"}

baseline, library, headers, suppressions = sys.argv[1:5]
if not shutil.which("abidiff"):
    print("abi: abidiff not found (Debian package abigail-tools); skipped")
    sys.exit(77)
with open(library, "rb") as f:
    header = f.read(20)
machine = ELF_ARCH.get(int.from_bytes(header[18:20], "little" if header[5] == 1 else "big"), "unknown")
with open(baseline) as f:
    wanted = re.search(r"architecture='([^']*)'", f.read(4096))
if wanted and machine != wanted.group(1):
    print(f"abi: the library is {machine}, the baseline {wanted.group(1)}; abidiff compares only like with like "
          "(tests/check_layout.py and check_symbols.py hold this build to the same ABI); skipped")
    sys.exit(77)
run = subprocess.run(["abidiff", "--suppressions", suppressions, "--headers-dir1", headers, "--headers-dir2", headers,
                      baseline, library],
                     capture_output=True, text=True)
print(run.stdout, end="")
print(run.stderr, end="", file=sys.stderr)
if run.returncode != 0:
    sys.exit(f"abi: the library differs from {baseline} (abidiff status {run.returncode}); if intended, "
             "run scripts/abi-baseline and commit the new baseline with the change")
print("abi: same as the baseline")
