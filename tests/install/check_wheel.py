#!/usr/bin/env python3
"""pip install . through pyproject.toml (meson-python), offline, into a venv that sees the system
site-packages, as Debian's python3-mesonpy allows; then check the wheel carries the Python package gpuocc/
only, the library inside it, and that the package works from it with no other gpuocc on the system paths.  Skipped (77)
without python3-mesonpy or python3-venv.  The source tree is copied first: the build writes beside
pyproject.toml.

Usage: check_wheel.py SOURCE_ROOT"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

source = pathlib.Path(sys.argv[1])
probe = "import mesonpy, venv, ensurepip"
python = next((p for p in (sys.executable, "/usr/bin/python3") if p and os.path.exists(p)
               and subprocess.run([p, "-c", probe], capture_output=True).returncode == 0), None)
if python is None:
    print("meson-python or venv not found (Debian packages python3-mesonpy, python3-venv): skipped")
    sys.exit(77)
clean = {k: v for k, v in os.environ.items()
         if k not in ("LD_LIBRARY_PATH", "GPUOCC_LIBRARY", "PYTHONPATH", "MESON_BUILD_ROOT", "MESON_SOURCE_ROOT")}
with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    tree = root / "src"
    shutil.copytree(source, tree, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", "build*", "__pycache__", ".mesonpy*", "subprojects"))
    venv = root / "venv"
    subprocess.run([python, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-build-isolation", "--no-index",
                          "--no-deps", "--quiet", str(tree)], capture_output=True, text=True, env=clean, cwd=tmp)
    if pip.returncode != 0:
        sys.exit(f"pip install failed:\n{pip.stdout}{pip.stderr}")
    records = list(venv.rglob("gpuocc-*.dist-info/RECORD"))
    if len(records) != 1:
        sys.exit(f"expected one installed gpuocc dist-info, found {records}")
    files = [line.split(",")[0] for line in records[0].read_text().splitlines() if line]
    payload = sorted(f for f in files if ".dist-info/" not in f and "__pycache__" not in f)
    modules = sorted("gpuocc/" + p.name for p in (source / "bindings" / "python" / "gpuocc").glob("*.py"))
    libraries = [f for f in payload if f.startswith("gpuocc/libgpuocc.so")]
    if len(libraries) != 1 or sorted(set(payload) - set(libraries)) != modules:
        sys.exit(f"the wheel must carry the package gpuocc/ ({', '.join(modules)}) and the library in it only, "
                 f"not {payload}")
    print(f"wheel: {', '.join(payload)}")
    code = ("import gpuocc, os; r = gpuocc.occupancy('A100', gpuocc.kernel(threads=256, smem_dynamic=64 * 1024)); "
            "print(os.path.dirname(gpuocc.library._name) == os.path.dirname(gpuocc.__file__), r.blocks_per_sm)")
    run = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, env=clean, cwd=tmp)
    # A100, 64 KiB dynamic + 1 KiB reserved = 65 KiB a block, opt-in on: 164 KiB / 65 KiB = 2 blocks
    if run.returncode != 0 or run.stdout.split() != ["True", "2"]:
        sys.exit(f"the installed wheel: status {run.returncode}\n{run.stdout}{run.stderr}")
    print("wheel package loads the library in its folder: 2 blocks/SM")
print("wheel: ok")
