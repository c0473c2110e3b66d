#!/usr/bin/env python3
"""The two-file drop-in, as vendors use it:
- compiles alone with strict flags (-std=c11 -Wall -Wextra -Wpedantic -Werror -Wvla) with CC, and with
  gcc and clang when present, passes the smoke test, and exports only gpuocc_*;
- compiles as C++17 and C++20 (g++ / clang++ -x c++, -Wall -Wextra -Werror), the smoke test linked
  against it;
- with -DGPUOCC_API=static (-Wall -Wextra -Wpedantic -Werror, no -Wno-unused-function): one translation
  unit that calls a single function builds warning-free with CC, gcc and clang, exports only its main and
  runs; nothing of gpuocc stays external: two copies, each wrapped in its own translation unit, link into
  one program and both answer;
- carries the licence (LICENSE beside it, and in both files).

Usage: check_amalgamation.py CC SOURCE_ROOT"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

cc, root = sys.argv[1], pathlib.Path(sys.argv[2])
flags = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wvla", "-O2"]
smoke = str(root / "tests" / "vendor" / "smoke.c")


def run(args, **kw):
    return subprocess.run([str(a) for a in args], check=True, **kw)


def defined_globals(obj):
    nm = subprocess.run(["nm", "-g", "--defined-only", str(obj)], capture_output=True, text=True)
    return None if nm.returncode != 0 else [l.split()[-1] for l in nm.stdout.splitlines() if l.strip()]


with tempfile.TemporaryDirectory() as tmp:
    out = pathlib.Path(tmp)
    run([sys.executable, root / "scripts" / "amalgamate.py", tmp])
    license_line = (root / "LICENSE").read_text().splitlines()[0]
    for name in ("gpuocc.c", "gpuocc.h"):
        if license_line not in (out / name).read_text():
            sys.exit(f"{name} does not carry the licence")
    if (out / "LICENSE").read_text().strip() != (root / "LICENSE").read_text().strip():
        sys.exit("LICENSE is not beside the amalgamation")

    compilers = [cc] + [c for c in ("gcc", "clang") if shutil.which(c) and c != cc]
    for c in compilers:
        obj = out / f"gpuocc-{pathlib.Path(c).name}.o"
        run([c, *flags, "-c", out / "gpuocc.c", "-o", obj])
        exe = out / f"smoke-{pathlib.Path(c).name}"
        run([c, *flags, "-I", tmp, smoke, obj, "-lm", "-o", exe])
        print(run([exe], capture_output=True, text=True).stdout.strip(), f"({c})")
        leaked = [s for s in defined_globals(obj) or [] if not s.startswith("gpuocc_")]
        if leaked:
            sys.exit(f"symbols outside gpuocc_* ({c}): {leaked}")

    # C's designated initializers are C++20's (and a g++/clang++ extension in C++17).
    for cxx, std in ((c, s) for c in ("g++", "clang++") if shutil.which(c) for s in ("c++17", "c++20")):
        cxx_flags = ["-x", "c++", f"-std={std}", "-Wall", "-Wextra", "-Werror", "-O2"]
        obj = out / f"gpuocc-{cxx}-{std}.o"
        run([cxx, *cxx_flags, "-c", out / "gpuocc.c", "-o", obj])
        exe = out / f"smoke-{cxx}-{std}"
        run([cxx, *cxx_flags, "-I", tmp, smoke, "-x", "none", obj, "-lm", "-o", exe])
        print(run([exe], capture_output=True, text=True).stdout.strip(), f"(as {std}, {cxx})")

    # The single-file mode the README documents: GPUOCC_API=static in a translation unit that calls one
    # function; the API it does not call must not warn (-Wunused-function is in -Wall).
    (out / "single.c").write_text(
        "#define GPUOCC_API static\n"
        '#include "gpuocc.c"\n'
        "#include <stdio.h>\n"
        "int main(void)\n"
        "{\n"
        '    printf("single translation unit: gpuocc %s\\n", gpuocc_version_string());\n'
        "    return 0;\n"
        "}\n")
    version = ".".join(l.split()[-1] for l in (root / "include" / "gpuocc.h").read_text().splitlines()
                       if l.startswith(("#define GPUOCC_VERSION_MAJOR ", "#define GPUOCC_VERSION_MINOR ",
                                        "#define GPUOCC_VERSION_PATCH ")))
    for c in compilers:
        obj = out / f"single-{pathlib.Path(c).name}.o"
        run([c, *flags, "-I", tmp, "-c", out / "single.c", "-o", obj])
        exported = defined_globals(obj)
        if exported is not None and exported != ["main"]:
            sys.exit(f"with GPUOCC_API=static, single.o exports {exported} ({c})")
        exe = out / f"single-{pathlib.Path(c).name}"
        run([c, obj, "-lm", "-o", exe])
        said = run([exe], capture_output=True, text=True).stdout.strip()
        if said != f"single translation unit: gpuocc {version}":
            sys.exit(f"single translation unit ({c}) said {said!r}, expected version {version}")
        print(f"{said} ({c})")

    # Two copies in one program: each translation unit includes gpuocc.c with GPUOCC_API=static and
    # exports only its own wrapper.
    for copy in ("first", "second"):
        (out / f"{copy}.c").write_text(
            "#define GPUOCC_API static\n"
            '#include "gpuocc.c"\n'
            f"int {copy}_blocks(const char *arch, int threads, int regs);\n"
            f"int {copy}_blocks(const char *arch, int threads, int regs)\n"
            "{\n"
            "    gpuocc_device d = {.size = sizeof d};\n"
            "    gpuocc_kernel k;\n"
            "    gpuocc_result r = {.size = sizeof r};\n"
            "    if (gpuocc_device_lookup(arch, &d) || gpuocc_kernel_init(&k))\n"
            "        return -1;\n"
            "    k.threads_per_block = threads;\n"
            "    k.regs_per_thread = regs;\n"
            "    return gpuocc_occupancy(&d, &k, &r) ? -1 : r.blocks_per_sm;\n"
            "}\n")
        run([cc, *flags, "-I", tmp, "-c", out / f"{copy}.c", "-o", out / f"{copy}.o"])
        exported = defined_globals(out / f"{copy}.o")
        if exported is not None and exported != [f"{copy}_blocks"]:
            sys.exit(f"with GPUOCC_API=static, {copy}.o still exports {exported}")
    (out / "main.c").write_text(
        "#include <stdio.h>\n"
        "int first_blocks(const char *arch, int threads, int regs);\n"
        "int second_blocks(const char *arch, int threads, int regs);\n"
        "int main(void)\n"
        "{\n"
        "    /* A100, 256 threads, 64 registers: 4 blocks; H100, 128 threads, 40 registers: 1280 a warp,\n"
        "       12 warps per sub-partition, 48 warps = 12 blocks */\n"
        "    int a = first_blocks(\"A100\", 256, 64), b = second_blocks(\"H100\", 128, 40);\n"
        "    printf(\"two copies: %d %d\\n\", a, b);\n"
        "    return !(a == 4 && b == 12);\n"
        "}\n")
    run([cc, *flags, out / "main.c", out / "first.o", out / "second.o", "-lm", "-o", out / "two"])
    print(run([out / "two"], capture_output=True, text=True).stdout.strip())
print("amalgamation: ok")
