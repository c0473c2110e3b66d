#!/usr/bin/env python3
"""Every example line of every subcommand's --help runs from an installed copy: the build installed into a
scratch DESTDIR, its bin/ first on PATH, each line run by sh as written in a scratch folder holding the
user's files the examples name (build.log, kernels.cubin... here copies of tests/data fixtures).  A line is
skipped only with its reason (a compiler that is not installed); each must exit 0, or N where its comment
says "status N".

Usage: check_help_examples.py BUILD_DIR SOURCE_ROOT"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

build, source = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
data, corpus = source / "tests" / "data", source / "tests" / "fuzz" / "corpus"
K_CL = "kernel void k(global float *x) { x[get_global_id(0)] *= 2.0f; }\n"
# the user's files each command's examples name
files = {
    "batch": {"launches.csv": "arch,threads,regs\nA100,256,64\n"},
    "ptxas": {"build.log": data / "ptxas_sm90.log", "other.log": data / "ptxas_multi.log", "k.cu": source / "tests" / "cuda" / "units.cu"},
    "remarks": {"build.log": data / "remarks" / "gfx942.log", "other.log": data / "remarks" / "gfx1100.log", "k.cl": K_CL},
    "binary": {"kernels.cubin": data / "kernels_sm90.cubin", "app.o": data / "units_host.o",
               "kernel-gfx90a.o": corpus / "bundle" / "gfx90a-code-object.o", "hip_app.o": data / "hip_bundle.o",
               "app.hipfb": corpus / "bundle" / "hip-bundle.bin", "kernels_dg2.bin": data / "zebin" / "kernels_dg2.bin",
               "libfoo.a": ("archive", data / "units_host.o"), "triton_cache": ("tree", data / "triton_cache")},
    "cubin": {"kernels.cubin": data / "kernels_sm90.cubin"},
}
clean = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "GPUOCC_LIBRARY", "PYTHONPATH")}
ran = skipped = 0
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run(["meson", "install", "-C", str(build), "--destdir", tmp, "--no-rebuild", "--quiet"], check=True)
    cli = [p for p in pathlib.Path(tmp).rglob("gpuocc") if p.parent.name == "bin"]
    if len(cli) != 1:
        sys.exit(f"expected one installed bin/gpuocc, found {cli}")
    env = dict(clean, PATH=f"{cli[0].parent}{os.pathsep}{clean.get('PATH', '')}")
    listed = subprocess.run(["gpuocc", "--help"], capture_output=True, text=True, env=env, check=True).stdout
    commands = [l.split()[0] for l in listed.split("commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()]
    failed = []
    for name in commands:
        helptext = subprocess.run(["gpuocc", name, "--help"], capture_output=True, text=True, env=env, check=True).stdout
        lines = [l.strip() for l in helptext.split("examples:\n", 1)[1].split("\n\n", 1)[0].splitlines() if l.strip()]
        for line in lines:
            work = pathlib.Path(tmp) / "work" / name
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            for fname, what in files.get(name, {}).items():
                if isinstance(what, str):
                    (work / fname).write_text(what)
                elif isinstance(what, tuple) and what[0] == "tree":
                    shutil.copytree(what[1], work / fname)
                elif isinstance(what, tuple):
                    subprocess.run(["ar", "rcs", str(work / fname), str(what[1])], check=True)
                else:
                    shutil.copy(what, work / fname)
            first = line.split()[0]
            if first != "gpuocc" and not shutil.which(first, path=env["PATH"]):
                print(f"SKIP {name}: {line}\n     ({first} is not installed)")
                skipped += 1
                continue
            missing = [w for w in line.split() if w.startswith("/") and not os.path.exists(w)]
            if missing:
                print(f"SKIP {name}: {line}\n     ({missing[0]} is not installed: the CUDA toolkit)")
                skipped += 1
                continue
            run = subprocess.run(["sh", "-c", "set -e; " + line.split("   #")[0]], cwd=work, capture_output=True,
                                 text=True, env=env, timeout=300)
            ran += 1
            # an example whose comment says "status N" shows an exit that is not 0 (a row that cannot run)
            said = re.search(r"#.*\bstatus (\d)\b", line)
            want = int(said.group(1)) if said else 0
            if run.returncode != want or not (run.stdout.strip() or list(work.glob("*.svg")) or ">" in line):
                failed.append(f"{name}: {line}: status {run.returncode}\n{run.stdout[-500:]}{run.stderr[-800:]}")
    if failed:
        sys.exit("examples that do not run from the install:\n" + "\n".join(failed))
print(f"help examples: {ran} ran from the install, {skipped} skipped (with the reason above)")
