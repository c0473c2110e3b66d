#!/usr/bin/env python3
"""gpuocc as a Meson subproject: a scratch project with subprojects/gpuocc (a link to this tree) builds
examples/occupancy.c against dependency('gpuocc') and runs it.  With gpuocc's default options, the
parent sees no gpuocc test, installs nothing of gpuocc, and its werror=true does not reach gpuocc's
sources (a newer compiler's new warning must not break an embedder).  Then, when Criterion is here, the
parent turns gpuocc's tests on (-Dgpuocc:tests=enabled, then with -Dgpuocc:install=enabled too): meson
setup succeeds, the suites that install gpuocc on its own (install, cmake, pkg-config) are not defined,
the rest are, and the headers suite passes (the whole suite would take too long here).

Usage: check_subproject.py SOURCE_ROOT"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

root = pathlib.Path(sys.argv[1]).resolve()
with tempfile.TemporaryDirectory() as tmp:
    project = pathlib.Path(tmp) / "user"
    (project / "subprojects").mkdir(parents=True)
    os.symlink(root, project / "subprojects" / "gpuocc")
    shutil.copy(root / "examples" / "occupancy.c", project / "main.c")
    (project / "meson.build").write_text(
        "project('user', 'c', default_options: ['c_std=c11', 'warning_level=3', 'werror=true'])\n"
        "gpuocc = dependency('gpuocc', default_options: ['default_library=static'])\n"
        "executable('user', 'main.c', dependencies: gpuocc)\n")
    build = pathlib.Path(tmp) / "build"
    subprocess.run(["meson", "setup", str(build), str(project)], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["meson", "compile", "-C", str(build)], check=True, stdout=subprocess.DEVNULL)
    # A100, 256 threads, 64 registers: 4 blocks (see check_pkgconfig.py)
    out = subprocess.run([str(build / "user"), "A100", "256", "64"], capture_output=True, text=True, check=True).stdout
    expected = "A100: 4 blocks/SM, 50 % occupancy, limited by registers"
    if expected not in out.splitlines():
        sys.exit(f"unexpected output: {out}")
    print(f"subproject: {expected}")

    def introspect(what):
        return json.loads(subprocess.run(["meson", "introspect", str(build), what], capture_output=True,
                                         text=True, check=True).stdout)
    if introspect("--tests"):
        sys.exit(f"the subproject registered tests: {[t['name'] for t in introspect('--tests')]}")
    if introspect("--installed"):
        sys.exit(f"the subproject installs files: {introspect('--installed')}")
    commands = json.loads((build / "compile_commands.json").read_text())
    ours = [c for c in commands if "subprojects/gpuocc/lib/" in c["file"]]
    parent = [c for c in commands if c["file"].endswith("main.c")]
    if not ours or not parent or "-Werror" not in parent[0]["command"]:
        sys.exit("compile_commands.json lacks the expected entries")
    if any("-Werror" in c["command"] for c in ours):
        sys.exit(f"gpuocc's sources build with the parent's -Werror: {ours[0]['command']}")
    print(f"subproject: no tests, nothing installed, {len(ours)} sources built without -Werror")

    # The parent turns gpuocc's tests on.  Without Criterion, -Dgpuocc:tests=enabled must fail (a required
    # dependency), so that part needs it.
    criterion = subprocess.run(["pkg-config", "--exists", "criterion"]).returncode == 0 if shutil.which("pkg-config") else False
    if not criterion:
        print("subproject: Criterion not found (Debian package libcriterion-dev): the tests=enabled part skipped")
        sys.exit(0)
    for options, installs in ((["-Dgpuocc:tests=enabled"], False),
                              (["-Dgpuocc:tests=enabled", "-Dgpuocc:install=enabled"], True)):
        p = subprocess.run(["meson", "setup", "--reconfigure", str(build), str(project), *options],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"meson setup {' '.join(options)} failed:\n{p.stdout[-4000:]}{p.stderr[-4000:]}")
        tests = introspect("--tests")
        names = {t["name"] for t in tests}
        standalone = names & {"install", "cmake", "pkg-config"}
        if standalone:
            sys.exit(f"{options}: tests that install gpuocc on its own are defined in the parent: {sorted(standalone)}")
        missing = {"catalog", "header-c", "cli", "cli-person", "amalgamation"} - names
        if missing:
            sys.exit(f"{options}: gpuocc's tests lack {sorted(missing)} (defined: {sorted(names)})")
        installed = introspect("--installed").values()
        man = any(v.endswith("/man1/gpuocc.1") for v in installed)
        if bool(installed) != installs or man != installs:
            sys.exit(f"{options}: installs {sorted(installed)}")
        print(f"subproject {' '.join(options)}: {len(names)} tests, {len(installed)} files installed")

    # One quick suite, run from the parent: build its programs only, then run it.
    headers = [t for t in tests if "gpuocc:headers" in t["suite"]]
    programs = [os.path.relpath(t["cmd"][0], build) for t in headers]
    subprocess.run(["ninja", "-C", str(build), *programs], check=True, stdout=subprocess.DEVNULL)
    p = subprocess.run(["meson", "test", "-C", str(build), "--no-rebuild", "--suite", "gpuocc:headers"],
                       capture_output=True, text=True)
    if p.returncode != 0 or not headers:
        sys.exit(f"gpuocc:headers in the parent: status {p.returncode}\n{p.stdout[-4000:]}")
    print(f"subproject: suite gpuocc:headers passes in the parent ({len(headers)} tests)")
