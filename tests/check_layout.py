#!/usr/bin/env python3
"""Every public struct of include/gpuocc.h has one layout on every target: the same size and each field at
the same offset with the same size on x86_64, i386 and wasm32 (the web calculator's target), so that a
caller, a binding or a saved record never depends on the pointer width.  clang's own record layouts
(-fdump-record-layouts) are the oracle; skipped (77) without clang-19.  Usage: check_layout.py INCLUDE_DIR"""
import re
import shutil
import subprocess
import sys
import tempfile

from checks import check, finish

TARGETS = ["x86_64-linux-gnu", "i386-linux-gnu", "wasm32-wasi"]
clang = shutil.which("clang-19") or shutil.which("clang")
if not clang:
    print("layout: clang-19 not found (apt-get install clang-19); skipped")
    sys.exit(77)
include = sys.argv[1]


def layouts(target):
    """{struct name: (sizeof, [(offset, field name, field size)])} for every gpuocc_ record."""
    with tempfile.NamedTemporaryFile("w", suffix=".c") as src:
        src.write("#define GPUOCC_EXPERIMENTAL\n#include \"gpuocc.h\"\n")
        src.flush()
        # -nostdinc with clang's own headers: the layouts do not depend on a target's libc being installed
        resource = subprocess.run([clang, "-print-resource-dir"], capture_output=True, text=True).stdout.strip()
        cmd = [clang, f"--target={target}", "-ffreestanding", "-nostdinc", "-isystem", resource + "/include",
               "-I", include, "-fsyntax-only", "-Xclang", "-fdump-record-layouts-complete", src.name]
        run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr)
        check(f"clang --target={target} compiles gpuocc.h", False)
        return {}
    out, name, fields = {}, None, []
    for line in run.stdout.splitlines():
        m = re.match(r"\s*(\d+) \|(\s*)(.*)$", line)
        if m and m.group(3).startswith("struct gpuocc_") and len(m.group(2)) == 1:
            name, fields = m.group(3).split()[1], []
        elif m and name:
            fields.append((int(m.group(1)), len(m.group(2)), m.group(3).split()[-1]))
        s = re.match(r"\s*\| \[sizeof=(\d+)", line)
        if s and name:
            out[name] = (int(s.group(1)), fields)
            name = None
    return out


native = None
for target in TARGETS:
    got = layouts(target)
    if native is None:
        native = got
        check(f"{target}: the public structs are found", len(native) >= 20, len(native))
        continue
    check(f"{target}: the same public structs as {TARGETS[0]}", sorted(got) == sorted(native))
    for struct, (size, fields) in sorted(native.items()):
        other = got.get(struct)
        if other is None:
            continue
        check(f"{target}: sizeof({struct}) is {size}", other[0] == size, other[0])
        # each field of the 64-bit layout at the same offset (and nesting); a 32-bit target may add only the
        # padding beside a pointer (GPUOCC_PTR64's <name>_pad fields)
        # keyed by nesting, name and occurrence: two nested structs may have fields of the same name
        # (gpuocc_prepared's device and nvidia)
        def keyed(rows):
            seen, keys = {}, []
            for off, depth, name in rows:
                n = seen[(depth, name)] = seen.get((depth, name), 0) + 1
                keys.append(((depth, name, n), off))
            return keys
        theirs = dict(keyed(other[1]))
        moved = [f"{key[1]} at {theirs.get(key)} (not {off})" for key, off in keyed(fields) if theirs.get(key) != off]
        extra = {name for _, _, name in other[1]} - {name for _, _, name in fields}
        check(f"{target}: {struct}'s fields at the same offsets", not moved, ", ".join(moved[:4]))
        check(f"{target}: {struct} adds only pointer padding", all(n.endswith("_pad") for n in extra), extra)
finish("layout")
