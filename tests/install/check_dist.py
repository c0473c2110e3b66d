#!/usr/bin/env python3
"""The release tarball builds on its own: `meson dist --no-tests` (from a build folder of its own, configured
from this git checkout), the tarball unpacked into a clean folder, configured, built and its unit suite run
(`meson test --suite unit`; the other suites run here already).  Skipped (77) when the source is not a git
checkout (meson dist packs what git tracks; an unpacked tarball has no repository) or git is not installed.
Uncommitted changes are not in the tarball (--allow-dirty): it is what the last commit holds.

Usage: check_dist.py SOURCE_ROOT"""
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

source = pathlib.Path(sys.argv[1]).resolve()
meson = os.environ.get("MESON", shutil.which("meson") or "meson")
if not shutil.which("git"):
    print("git is not installed: meson dist needs it; skipped")
    sys.exit(77)
if subprocess.run(["git", "-C", str(source), "rev-parse", "--show-toplevel"], capture_output=True, text=True).stdout.strip() \
        != str(source):
    print(f"{source} is not the top of a git checkout (meson dist packs what git tracks): skipped")
    sys.exit(77)
clean = {k: v for k, v in os.environ.items()
         if k not in ("LD_LIBRARY_PATH", "GPUOCC_LIBRARY", "PYTHONPATH", "MESON_BUILD_ROOT", "MESON_SOURCE_ROOT",
                      "MESONINTROSPECT")}


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, env=clean, **kw)
    if r.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))}: status {r.returncode}\n{r.stdout[-6000:]}{r.stderr[-6000:]}")
    return r


with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    # the tarball: a build folder of its own, nothing built in it (tests and the CLI off keep the setup short)
    run([meson, "setup", str(root / "dist-build"), str(source), "-Dtests=disabled"])
    run([meson, "dist", "-C", str(root / "dist-build"), "--no-tests", "--allow-dirty", "--formats", "xztar"])
    tarballs = list((root / "dist-build" / "meson-dist").glob("gpuocc-*.tar.xz"))
    if len(tarballs) != 1:
        sys.exit(f"expected one tarball in meson-dist, found {tarballs}")
    tarball = tarballs[0]
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
        tops = {n.split("/")[0] for n in names}
        if len(tops) != 1 or any(n.startswith("/") or ".." in n.split("/") for n in names):
            sys.exit(f"{tarball.name}: not one top folder of relative paths: {sorted(tops)[:5]}")
        tar.extractall(root / "unpacked")
    tree = root / "unpacked" / tops.pop()
    version = tarball.name[len("gpuocc-"):-len(".tar.xz")]
    print(f"{tarball.name}: {len(names)} entries, {tarball.stat().st_size} bytes")
    if any(p.name == ".git" for p in tree.iterdir()):
        sys.exit("the tarball holds a .git")
    # a clean folder: configured, built and its unit suite run as a packager does
    run([meson, "setup", str(root / "build"), str(tree), "-Dtests=enabled"])
    run([meson, "compile", "-C", str(root / "build")])
    test = run([meson, "test", "-C", str(root / "build"), "--suite", "unit", "--print-errorlogs"])
    summary = [l for l in test.stdout.splitlines() if l.startswith(("Ok:", "Fail:", "Skipped:"))]
    print(f"gpuocc {version} from the tarball: {', '.join(' '.join(l.split()) for l in summary)}")
print("dist: ok")
