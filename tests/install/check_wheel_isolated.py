#!/usr/bin/env python3
"""pip install . with build isolation (pip fetches meson-python, meson and ninja from the package index into a
throw-away build environment), as a user does with any Python 3: into a fresh venv of each interpreter tried,
then the package must load its own library and answer.  Interpreters: every Python 3 found (python3 and
python3.N on PATH, /usr/bin, and pyenv's versions when pyenv is installed) that Meson can run (3.7 and later:
older ones are named and left out); by default the oldest and the newest of them and the one running this
test, with --all every one.  Skipped (77) when the package index cannot be reached, or no interpreter has
venv.  The offline install with Debian's python3-mesonpy is check_wheel.py.

Usage: check_wheel_isolated.py SOURCE_ROOT [--all]"""
import glob
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.request

source = pathlib.Path(sys.argv[1])
every = "--all" in sys.argv[2:]
INDEX = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/") + "/meson-python/"


def interpreters():
    """{real path: (major, minor)} of every Python 3 found that runs."""
    names = ["python3"] + [f"python3.{n}" for n in range(0, 30)]
    paths = [shutil.which(n) for n in names] + glob.glob("/usr/bin/python3.*") + glob.glob("/usr/local/bin/python3.*")
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        paths += glob.glob(os.path.join(root, "versions", "*", "bin", "python3"))
    found = {}
    for p in filter(None, paths):
        if p.endswith("-config"):
            continue
        run = subprocess.run([p, "-c", "import sys; print(sys.executable, *sys.version_info[:2])"],
                             capture_output=True, text=True)
        if run.returncode == 0 and run.stdout.split():
            exe, major, minor = run.stdout.split()
            if major == "3":
                found[os.path.realpath(exe)] = (3, int(minor))
    return found


try:
    urllib.request.urlopen(INDEX, timeout=15).close()
except OSError as e:
    print(f"the package index is not reachable ({INDEX}: {e}): skipped")
    sys.exit(77)

found = interpreters()
old = sorted(f"{p} (3.{v[1]})" for p, v in found.items() if v < (3, 7))
if old:
    print(f"left out, older than Meson runs on (3.7): {', '.join(old)}")
usable = sorted((v, p) for p, v in found.items() if v >= (3, 7))
if not every and usable:
    me = os.path.realpath(sys.executable)
    usable = sorted({usable[0], usable[-1]} | {(v, p) for v, p in usable if p == me})
clean = {k: v for k, v in os.environ.items()
         if k not in ("LD_LIBRARY_PATH", "GPUOCC_LIBRARY", "PYTHONPATH", "MESON_BUILD_ROOT", "MESON_SOURCE_ROOT",
                      "PIP_NO_BUILD_ISOLATION", "PIP_NO_INDEX")}
tried = 0
failed = []
with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    tree = root / "src"
    shutil.copytree(source, tree, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", "build*", "__pycache__", ".mesonpy*", "subprojects"))
    for (major, minor), python in usable:
        venv = root / f"venv{major}.{minor}"
        if subprocess.run([python, "-m", "venv", str(venv)], capture_output=True).returncode != 0:
            print(f"{python} (3.{minor}): no venv module; left out")
            continue
        tried += 1
        pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(tree)],
                             capture_output=True, text=True, env=clean, cwd=tmp)
        if pip.returncode != 0:
            failed.append(f"{python} (3.{minor}): pip install failed:\n{pip.stdout[-3000:]}{pip.stderr[-3000:]}")
            continue
        code = ("import gpuocc, os; r = gpuocc.occupancy('A100', gpuocc.kernel(threads=256, regs=64)); "
                "print(os.path.dirname(gpuocc.library._name) == os.path.dirname(gpuocc.__file__), gpuocc.__version__, "
                "r.blocks_per_sm)")
        run = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, env=clean,
                             cwd=tmp)
        version = next(l.split("'")[1] for l in (source / "pyproject.toml").read_text().splitlines()
                       if l.startswith("version"))
        # A100, 256 threads at 64 registers: 2048 registers a warp, 8 warps a block, 64K registers: 4 blocks
        if run.returncode != 0 or run.stdout.split() != ["True", version, "4"]:
            failed.append(f"{python} (3.{minor}): the installed package: status {run.returncode}\n{run.stdout}{run.stderr}")
            continue
        print(f"{python} (3.{minor}): pip install . (isolated build) gives gpuocc {version}, 4 blocks/SM")
if tried == 0:
    print("no Python 3 with venv found: skipped")
    sys.exit(77)
for f in failed:
    print(f"FAIL {f}")
print(f"wheel-isolated: {tried - len(failed)} of {tried} interpreters installed and ran the package")
sys.exit(1 if failed else 0)
