#!/usr/bin/env python3
"""The layers of docs/layers.md hold: no include or call of lib/ runs upward (scripts/layers check on the
source tree and the built objects), the checker catches an upward include and call planted on purpose,
docs/images/layers.svg is what scripts/layers draws for the tree as it is, and no two files of tools/ use
each other (scripts/layers tools on the CLI's objects).

Usage: test_layers.py SOURCE_ROOT OBJECT_DIR [CLI_OBJECT_DIR]"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

root, objects = pathlib.Path(sys.argv[1]), sys.argv[2]
script = root / "scripts" / "layers"
if not shutil.which("nm"):
    print("SKIP: nm (binutils) is not installed: the calls between object files cannot be read")
    sys.exit(77)
failures = []

run = subprocess.run([sys.executable, script, "check", objects], capture_output=True, text=True)
if run.returncode != 0 or "0 problem(s)" not in run.stdout:
    failures.append("the tree breaks its layers:\n" + run.stdout + run.stderr)

# The checker itself: an upward include planted in a copy of the tree must be reported, and so must a file
# that has no layer.
with tempfile.TemporaryDirectory() as tmp:
    copy = pathlib.Path(tmp)
    shutil.copytree(root / "lib", copy / "lib")
    (copy / "scripts").mkdir()
    shutil.copy(script, copy / "scripts" / "layers")
    structs = copy / "lib" / "core" / "structs.c"
    structs.write_text('#include "../api/api.h"\n' + structs.read_text())
    (copy / "lib" / "nvidia" / "stray.c").write_text("int x;\n")
    (copy / "lib" / "elsewhere").mkdir()
    (copy / "lib" / "elsewhere" / "new.c").write_text("int y;\n")
    run = subprocess.run([sys.executable, copy / "scripts" / "layers", "check"], capture_output=True, text=True)
    want = ["lib/core/structs.c includes lib/api/api.h: core (rank 0) may not use api (rank 2)",
            "lib/elsewhere/new.c: no layer"]
    for line in want:
        if line not in run.stdout:
            failures.append(f"the checker missed: {line}\n{run.stdout}")
    if run.returncode == 0:
        failures.append("the checker exited 0 on a tree that breaks its layers")
    if "lib/nvidia/stray.c: no layer" in run.stdout:
        failures.append("a new file in a vendor's folder has that vendor's layer, but the checker said none")

drawn = subprocess.run([sys.executable, script, "svg"], capture_output=True, text=True, check=True).stdout
kept = (root / "docs" / "images" / "layers.svg").read_text()
if drawn != kept:
    failures.append("docs/images/layers.svg is stale: run scripts/layers svg > docs/images/layers.svg")

checks = 3
if len(sys.argv) > 3:
    checks += 1
    run = subprocess.run([sys.executable, script, "tools", sys.argv[3]], capture_output=True, text=True)
    if run.returncode != 0 or "0 problem(s)" not in run.stdout:
        failures.append("files of tools/ use each other:\n" + run.stdout + run.stderr)

for f in failures:
    print("FAIL:", f)
print(f"layers: {max(checks - len(failures), 0)} of {checks} checks passed")
sys.exit(1 if failures else 0)
