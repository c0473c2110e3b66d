#!/usr/bin/env python3
"""Build the web page: the library and the CLI's commands compiled to WebAssembly with clang's wasm32-wasi
target (Debian: clang-19, lld-19, wasi-libc, libclang-rt-19-dev-wasm32), then inlined, base64, into one
self-contained HTML file with the page's script (docs/web.md).

    build.py --probe CLANG                      exit 0 when CLANG can build and link a wasm32-wasi reactor
    build.py CLANG OUTDIR SRCDIR SOURCE.c...    write OUTDIR/gpuocc.wasm and OUTDIR/index.html

The native build folder cannot cross-compile, so Meson's `web` target (web/meson.build) runs this script.
The objects go to OUTDIR/obj; they are compiled in parallel (os.cpu_count(), at most 4)."""
import base64
import concurrent.futures
import os
import subprocess
import sys
import tempfile

TARGET = ["--target=wasm32-wasi", "--sysroot=/usr"]
# -Oz with link-time optimization keeps the module under 500 KiB (docs/web.md, "Size and speed"); the warnings are the
# native build's, as errors
CFLAGS = ["-std=c11", "-Oz", "-flto", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
# report()'s path (the occupancy, its next steps, the report command and the module's entry: docs/web.md, "Size and
# speed") is optimized for speed, -O2, the rest (the readers of binaries, the other commands) for size, and the
# link at -O2 (a function compiled at -Oz keeps its size attributes): about 45 KB more than all at -Oz, and report()
# about a tenth faster
HOT = ("lib/core/", "lib/api/", "lib/nvidia/", "lib/amd/", "lib/intel/", "tools/cli.c", "tools/cmd_occupancy.c",
       "tools/cmd_clusters.c", "web/module.c")
# The stack: 1 MiB, first in memory, so that running out of it traps instead of writing over the module's data
# (wasm-ld's default is 64 KiB above the data: `report --cluster` needs more, LTO inlining the cluster count's
# arrays into one frame of 66 KB, and silently overwrote constant tables)
LDFLAGS = ["-mexec-model=reactor", "-O2", "-flto", "-Wl,--gc-sections", "-Wl,--strip-all", "-Wl,-z,stack-size=1048576",
           "-Wl,--stack-first", "-lm"]
SIZE_LIMIT = 500_000  # bytes: 500 KB (docs/web.md)


def probe(clang):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "p.c")
        with open(src, "w") as f:
            f.write('#include <stdio.h>\n__attribute__((export_name("f"))) int f(void) '
                    '{ char b[8]; return snprintf(b, sizeof b, "%.1f", 1.5); }\n')
        r = subprocess.run([clang, *TARGET, *LDFLAGS, "-o", os.path.join(d, "p.wasm"), src],
                           capture_output=True, text=True)
        if r.returncode:
            print(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "cannot link", file=sys.stderr)
        return r.returncode


def build(clang, outdir, srcdir, sources):
    objdir = os.path.join(outdir, "obj")
    os.makedirs(objdir, exist_ok=True)
    inc = ["-I" + os.path.join(srcdir, "include"), "-I" + os.path.join(srcdir, "tools")]

    def compile_one(src):
        rel = os.path.relpath(src, srcdir)
        obj = os.path.join(objdir, rel.replace(os.sep, "_") + ".o")
        hot = rel.replace(os.sep, "/").startswith(HOT)
        flags = ["-O2" if hot and f == "-Oz" else f for f in CFLAGS]
        r = subprocess.run([clang, *TARGET, *flags, *inc, "-MMD", "-MF", obj + ".d", "-c", src, "-o", obj],
                           capture_output=True, text=True)
        return obj, r

    objs = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        for obj, r in pool.map(compile_one, sources):
            sys.stderr.write(r.stderr)
            if r.returncode:
                return 1
            objs.append(obj)
    wasm = os.path.join(outdir, "gpuocc.wasm")
    r = subprocess.run([clang, *TARGET, *LDFLAGS, "-o", wasm, *objs])
    if r.returncode:
        return 1
    module = open(wasm, "rb").read()
    if len(module) > SIZE_LIMIT:
        print(f"web: the module is {len(module)} bytes, over the {SIZE_LIMIT} budget (docs/web.md)", file=sys.stderr)
        return 1
    web = os.path.join(srcdir, "web")
    page = open(os.path.join(web, "index.html"), encoding="utf-8").read()
    script = "\n".join(open(os.path.join(web, name), encoding="utf-8").read() for name in ("gpuocc.js", "page.js"))
    if "</script" in script.lower():
        print("web: a script holds '</script': it would end the inlined script early", file=sys.stderr)
        return 1
    page = page.replace("@GPUOCC_MODULE@", base64.b64encode(module).decode("ascii"), 1)
    page = page.replace("@GPUOCC_SCRIPT@", script, 1)
    tmp = os.path.join(outdir, "index.html.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, os.path.join(outdir, "index.html"))
    # every header the sources include, for Meson's depfile: a changed header rebuilds the page
    deps = set()
    for obj in objs:
        text = open(obj + ".d", encoding="utf-8").read().replace("\\\n", " ")
        deps.update(text.split(":", 1)[1].split())
    with open(os.path.join(outdir, "index.html.d"), "w", encoding="utf-8") as f:
        f.write(os.path.join(outdir, "index.html") + ": " + " ".join(sorted(d.replace(" ", "\\ ") for d in deps)) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        sys.exit(probe(sys.argv[2]))
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(build(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
