#!/usr/bin/env python3
"""A CMake consumer: install the build into a scratch DESTDIR, then build examples/occupancy.c with
find_package(gpuocc 1.0 CONFIG REQUIRED) and target_link_libraries(... gpuocc::gpuocc), run it, and
check that an incompatible version request is refused.  Skipped (77) without cmake.

Usage: check_cmake.py BUILD_DIR SOURCE_ROOT"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

build, source = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
cmake = shutil.which("cmake")
if not cmake:
    print("cmake not found (Debian package cmake): skipped")
    sys.exit(77)
generator = ["-G", "Ninja"] if shutil.which("ninja") else []
clean = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "CMAKE_PREFIX_PATH")}


def consumer(directory, version):
    directory.mkdir()
    shutil.copy(source / "examples" / "occupancy.c", directory / "occupancy.c")
    (directory / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\n"
        "project(consumer C)\n"
        f"find_package(gpuocc {version} CONFIG REQUIRED)\n"
        "add_executable(occupancy occupancy.c)\n"
        "target_link_libraries(occupancy PRIVATE gpuocc::gpuocc)\n")
    return directory


with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    subprocess.run(["meson", "install", "-C", str(build), "--destdir", str(root / "dest"), "--no-rebuild", "--quiet"],
                   check=True)
    configs = list((root / "dest").rglob("gpuoccConfig.cmake"))
    if len(configs) != 1:
        sys.exit(f"expected one installed gpuoccConfig.cmake, found {configs}")
    # <prefix>/<libdir>/cmake/gpuocc/gpuoccConfig.cmake: the prefix is the folder that holds include/
    prefix = next(p for p in configs[0].parents if (p / "include" / "gpuocc.h").exists())

    good = consumer(root / "good", "1.0")
    subprocess.run([cmake, *generator, "-S", str(good), "-B", str(good / "build"), f"-DCMAKE_PREFIX_PATH={prefix}"],
                   check=True, stdout=subprocess.DEVNULL, env=clean)
    subprocess.run([cmake, "--build", str(good / "build")], check=True, stdout=subprocess.DEVNULL, env=clean)
    out = subprocess.run([str(good / "build" / "occupancy"), "A100", "256", "64"], capture_output=True, text=True,
                         env=clean)
    # A100, 256 threads, 64 registers: 2048 a warp, 8 warps per sub-partition, 32 warps = 4 blocks = 50 %
    expected = "A100: 4 blocks/SM, 50 % occupancy, limited by registers"
    if out.returncode != 0 or expected not in out.stdout.splitlines():
        sys.exit(f"consumer: status {out.returncode}, output:\n{out.stdout}{out.stderr}")
    print(f"cmake consumer: {expected}")

    # 1.x: the major is the ABI (SameMajorVersion), so a request for 0.1 must not accept 1.0
    old = consumer(root / "old", "0.1")
    run = subprocess.run([cmake, *generator, "-S", str(old), "-B", str(old / "build"), f"-DCMAKE_PREFIX_PATH={prefix}"],
                         capture_output=True, text=True, env=clean)
    if run.returncode == 0:
        sys.exit("find_package(gpuocc 0.1) accepted version 1.0")
print("cmake: ok")
