#!/usr/bin/env python3
"""ABI checks: the shared library exports exactly the header's functions, which equal lib/gpuocc.map and
tests/data/symbols.txt (the shipped list; changing it is an ABI review); the stable part of the header is
the map's GPUOCC_1.0 node and the part under GPUOCC_EXPERIMENTAL its GPUOCC_EXPERIMENTAL node, and the
library exports each symbol under that version."""
import re
import subprocess
import sys

header, mapfile, shipped, lib = sys.argv[1:5]
DECLARED = re.compile(r'GPUOCC_API\s+[^;(]*?\b(gpuocc_\w+)\s*\(')
text = open(header).read()
cut = text.index("#if defined(GPUOCC_EXPERIMENTAL)")
stable, experimental = set(DECLARED.findall(text[:cut])), set(DECLARED.findall(text[cut:]))
declared = stable | experimental
maptext = open(mapfile).read()
nodes = {m.group(1): set(re.findall(r'^\s+(gpuocc_\w+);', m.group(2), re.M))
         for m in re.finditer(r'^(\w[\w.]*)\s*\{(.*?)\}', maptext, re.M | re.S)}
mapped = set().union(*nodes.values()) if nodes else set()
listed = set(open(shipped).read().split())
out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
versions = {}
for line in out.splitlines():
    fields = line.split()
    if fields[-2:-1] == ["T"]:
        name, _, version = fields[-1].partition("@")
        versions[name] = version.lstrip("@")
exported = set(versions)
ok = True
for name, got in [("lib/gpuocc.map", mapped), ("tests/data/symbols.txt", listed), ("exported", exported)]:
    if got != declared:
        ok = False
        print(f"FAIL {name}: missing {sorted(declared - got)}, extra {sorted(got - declared)}")
if set(nodes) != {"GPUOCC_1.0", "GPUOCC_EXPERIMENTAL"}:
    ok = False
    print(f"FAIL lib/gpuocc.map: nodes {sorted(nodes)}, expected GPUOCC_1.0 and GPUOCC_EXPERIMENTAL")
for node, part in [("GPUOCC_1.0", stable), ("GPUOCC_EXPERIMENTAL", experimental)]:
    got = nodes.get(node, set())
    if got != part:
        ok = False
        print(f"FAIL {node}: missing {sorted(part - got)}, extra {sorted(got - part)} (the header's part)")
    wrong = sorted(s for s in part & exported if versions[s] != node)
    if wrong:
        ok = False
        print(f"FAIL exported under another version than {node}: {wrong}")
print(f"symbols: {len(declared)} declared ({len(stable)} stable, {len(experimental)} experimental); "
      f"{1 if ok else 0} passed, {0 if ok else 1} failed")
sys.exit(0 if ok else 1)
