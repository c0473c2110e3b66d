#!/usr/bin/env python3
"""Install the build into a scratch DESTDIR, then use it as a new user does, with no LD_LIBRARY_PATH,
no ldconfig and no GPUOCC_LIBRARY: run the CLI (install rpath), import the Python module with the
interpreter Meson found (the one running this script; the DESTDIR copy of its install folder on
PYTHONPATH), and check that both use the library of this install (the package gpuocc/ holds every module
and _paths.py, the library's recorded path); the man page and the bash completion
are installed where man and bash-completion look; every docs/*.md is installed, unchanged, in the folder
the man page names (share/doc/gpuocc), with each document the man page names; gpuocc.pc (made by
pkgconfig/meson.build) has exactly the lines derived below from the install layout.

Usage: check_install.py BUILD_DIR SOURCE_ROOT"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

build, source = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
clean = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "GPUOCC_LIBRARY", "PYTHONPATH")}
with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    subprocess.run(["meson", "install", "-C", str(build), "--destdir", tmp, "--no-rebuild", "--quiet"], check=True)
    files = [p for p in root.rglob("*") if p.is_file() or p.is_symlink()]
    installed = {p.name: p for p in files}
    for name in ("gpuocc.h", "gpuocc.pc", "gpuoccConfig.cmake", "LICENSE"):
        if name not in installed:
            sys.exit(f"not installed: {name} (installed: {sorted(installed)})")
    # the Python package: every module of the source tree's gpuocc/ in one installed gpuocc/, with _paths.py
    # (generated), and no gpuocc.py or gpuocc_paths.py of the one-module layout
    modules = {p.name for p in (source / "bindings" / "python" / "gpuocc").glob("*.py")} | {"_paths.py"}
    packages = {p.parent for p in files if p.parent.name == "gpuocc" and p.name == "__init__.py"}
    if len(packages) != 1:
        sys.exit(f"expected one installed gpuocc/__init__.py, found {sorted(map(str, packages))}")
    package = packages.pop()
    found = {p.name for p in package.iterdir() if p.is_file()}
    if found != modules:
        sys.exit(f"installed {package.relative_to(root)}: {sorted(found)}, expected {sorted(modules)}")
    if "gpuocc.py" in installed or "gpuocc_paths.py" in installed:
        sys.exit("installed gpuocc.py or gpuocc_paths.py beside the package gpuocc/")

    # gpuocc.pc comes from pkgconfig/meson.build (the top meson.build only enters that folder) and is
    # relocatable: its prefix is the .pc's folder (PREFIX/LIBDIR/pkgconfig) climbed back to PREFIX, one
    # ".." per component of LIBDIR and one for pkgconfig/.  Everything else is the project's own data.
    pc_build = source / "pkgconfig" / "meson.build"
    if not pc_build.is_file() or "import('pkgconfig')" not in pc_build.read_text() or \
            "import('pkgconfig')" in (source / "meson.build").read_text():
        sys.exit("gpuocc.pc must be made in pkgconfig/meson.build (and only there)")
    options = {o["name"]: o["value"] for o in json.loads(subprocess.run(
        ["meson", "introspect", "--buildoptions", str(build)], capture_output=True, text=True, check=True).stdout)}
    libdir, includedir = options["libdir"], options["includedir"]
    pc = installed["gpuocc.pc"]
    want_pc = root / options["prefix"].lstrip("/") / libdir / "pkgconfig" / "gpuocc.pc"
    if pc != want_pc:
        sys.exit(f"gpuocc.pc installed as {pc}, expected {want_pc}")
    expected_pc = [
        "prefix=${pcfiledir}" + "/.." * (len(pathlib.PurePosixPath(libdir).parts) + 1),
        "includedir=${prefix}/" + includedir,
        "libdir=${prefix}/" + libdir,
        "",
        "Name: gpuocc",
        "Description: Exact GPU occupancy, latency hiding and compiler-output reading (C11, libc only)",
        "Version: 1.0.0",
        "Libs: -L${prefix}/" + libdir + " -lgpuocc",
        "Libs.private: -lm",
        "Cflags: -I${includedir}",
    ]
    got_pc = pc.read_text()
    if got_pc != "\n".join(expected_pc) + "\n":
        sys.exit("installed gpuocc.pc differs from the expected lines:\n" + got_pc
                 + "\nexpected:\n" + "\n".join(expected_pc))
    print(f"pkg-config: {pc.relative_to(root)}: {len(expected_pc)} lines as expected")

    def one(suffix):
        """The one installed file whose path ends with suffix (the CLI and the completion share a name)."""
        found = [p for p in files if p.as_posix().endswith(suffix)]
        if len(found) != 1:
            sys.exit(f"expected one installed .../{suffix}, found {found} (installed: {sorted(installed)})")
        return found[0]
    cli = one("/bin/gpuocc")
    man = one("/man/man1/gpuocc.1").read_text()
    one("/bash-completion/completions/gpuocc")

    # The documents: the man page names the folder they are installed in (under the prefix, not DESTDIR).
    named = {root / m.replace("\\-", "-").lstrip("/") for m in re.findall(r"^\.I (?:\\%)?(/\S+)$", man, re.M)}
    folders = [p for p in named if p.suffix != ".md"]
    if len(folders) != 1 or folders[0].name != "gpuocc" or folders[0].parent.name != "doc":
        sys.exit(f"the man page names {sorted(map(str, named)) or 'no'} paths, not one .../doc/gpuocc folder")
    docdir = folders[0]
    if docdir / "output.md" not in named or not all(p.exists() for p in named):
        sys.exit(f"the man page names {sorted(map(str, named))}: not all installed, or no output.md")
    for doc in sorted((source / "docs").glob("*.md")):
        if not (docdir / doc.name).is_file() or (docdir / doc.name).read_bytes() != doc.read_bytes():
            sys.exit(f"docs/{doc.name} is not installed in {docdir.relative_to(root)}")
    mentioned = set(re.findall(r"\b(\w+\.md)\b", man))
    if "output.md" not in mentioned or any(not (docdir / name).is_file() for name in mentioned):
        sys.exit(f"the man page names {sorted(mentioned)}; installed: {sorted(p.name for p in docdir.iterdir())}")
    print(f"docs: {len(list(docdir.glob('*.md')))} documents in {docdir.relative_to(root)}, as the man page says")
    run = subprocess.run([str(cli), "--version"], capture_output=True, text=True, env=clean)
    if run.returncode != 0 or "1.0.0" not in run.stdout:
        sys.exit(f"{cli} --version: status {run.returncode}\n{run.stdout}{run.stderr}")
    print(f"cli: {run.stdout.strip()}")
    # ldd shows the library this install resolves to: the one inside the DESTDIR, through $ORIGIN
    ldd = subprocess.run(["ldd", str(cli)], capture_output=True, text=True, env=clean)
    if ldd.returncode == 0:
        line = next((l for l in ldd.stdout.splitlines() if "libgpuocc" in l), "")
        if tmp not in line:
            sys.exit(f"the installed CLI does not load the installed library: {line.strip()}")

    module_dir = package.parent
    code = ("import gpuocc, os; "
            "r = gpuocc.occupancy('A100', gpuocc.kernel(threads=256, regs=64)); "
            "print(os.path.realpath(gpuocc.library._name)); print(gpuocc.__file__); print(r.blocks_per_sm)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp,
                         env=dict(clean, PYTHONPATH=str(module_dir)))
    if run.returncode != 0:
        sys.exit(f"import gpuocc from the install failed:\n{run.stderr}")
    library, module, blocks = run.stdout.split()
    if not library.startswith(os.path.realpath(tmp)) or not module.startswith(tmp):
        sys.exit(f"the installed module ({module}) loaded a library outside the install: {library}")
    # A100, 256 threads, 64 registers: 2048 a warp, 8 warps per sub-partition, 32 warps = 4 blocks
    if blocks != "4":
        sys.exit(f"unexpected answer {blocks}")
    print(f"python: {module} loads {library}")
print("install: ok")
