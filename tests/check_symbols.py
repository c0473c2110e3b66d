#!/usr/bin/env python3
"""ABI checks: the shared library exports exactly the header's functions, which equal lib/gpuocc.map
and tests/data/symbols.txt (the shipped list; changing it is an ABI review)."""
import re
import subprocess
import sys

header, mapfile, shipped, lib = sys.argv[1:5]
declared = set(re.findall(r'GPUOCC_API\s+[^;(]*?\b(gpuocc_\w+)\s*\(', open(header).read()))
mapped = set(re.findall(r'^\s+(gpuocc_\w+);', open(mapfile).read(), re.M))
listed = set(open(shipped).read().split())
out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
exported = {l.split()[-1].split("@")[0] for l in out.splitlines() if l.split()[-2:-1] == ["T"]}
ok = True
for name, got in [("lib/gpuocc.map", mapped), ("tests/data/symbols.txt", listed), ("exported", exported)]:
    if got != declared:
        ok = False
        print(f"FAIL {name}: missing {sorted(declared - got)}, extra {sorted(got - declared)}")
print(f"symbols: {len(declared)} declared; {1 if ok else 0} passed, {0 if ok else 1} failed")
sys.exit(0 if ok else 1)
