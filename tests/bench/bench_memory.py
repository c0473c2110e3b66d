#!/usr/bin/env python3
"""Bounded memory, as `meson test --benchmark` prints it: the CLI's peak resident size on inputs
whose size would show if it were held.  Each row runs the CLI under GNU time (`/usr/bin/time -f %M`: the
child's own peak, not this script's) and prints the peak, the wall time and the ratio against a reference:
the same kind of input at a tenth of the size (memory independent of size: <= 1.5x), or the input's size.
Rows: a 300 MB ptxas log, a 100 MB remarks log, two decompression bombs built here (a fatbinary whose zstd
entry expands to 4 GiB: one that claims it, over the default ceiling of 1 GiB, and one that claims 64 KiB),
and libcublasLt from the CUDA toolkit (nvcc on PATH, its ../lib64; skipped, saying why, without it).
Fails when a target is missed.
Usage: bench_memory.py GPUOCC DATA_DIR"""
import glob
import resource
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

GPUOCC, DATA = sys.argv[1], sys.argv[2]
TIME = "/usr/bin/time"
LIMIT_KIB = 16 << 10
DATA_LIMIT = 32 << 20
missed = []


def load():
    try:
        return open("/proc/loadavg").read().split()[0]
    except OSError:
        return "?"


def peak(args):
    """(exit status, peak resident KiB, wall seconds, stderr's last line) of the CLI, output to /dev/null."""
    t0 = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.run([TIME, "-f", "%M", GPUOCC, *args], stdout=null, stderr=subprocess.PIPE)
    wall = time.monotonic() - t0
    lines = [l for l in p.stderr.decode(errors="replace").strip().splitlines() if not l.startswith("Command exited")]
    return p.returncode, int(lines[-1]), wall, (lines[-2] if len(lines) > 1 else "")


def row(label, kib, wall, ratio=None, target=None, met=None, note=""):
    r = f"{label}: " + (f"peak {kib / 1024:.1f} MiB, {wall:.2f} s" if kib is not None else "")
    if ratio is not None:
        r += f"; ratio {ratio:.2f}"
    if target is not None:
        r += f"; target {target}: {'met' if met else 'NOT met'}"
    print(r + (f"; {note}" if note else "") + f" (load {load()})")
    if met is False:
        missed.append(label)


def write_repeated(path, unit, size):
    block = unit * max(1, (1 << 20) // len(unit))
    with open(path, "wb") as f:
        for _ in range(size // len(block) + 1):
            f.write(block)


def zstd_rle(content_size, byte=b"x"):
    """A zstd frame of `content_size` copies of one byte, in RLE blocks (RFC 8878 3.1.1: an 8-byte frame
    content size, single segment, then blocks of type 1 holding one byte repeated Block_Size times)."""
    out = bytearray(struct.pack("<IB", 0xFD2FB528, 0xE0) + struct.pack("<Q", content_size))
    left = content_size
    while left:
        n = min(left, 128 << 10)
        left -= n
        out += struct.pack("<I", (n << 3) | (1 << 1) | (left == 0))[:3] + byte
    return bytes(out)


def bomb(claim, content_size):
    """A fatbinary of one zstd ELF entry (the entry header of tests/data/units_zstd.fatbin) whose payload
    expands to content_size bytes and whose header claims `claim`."""
    base = open(os.path.join(DATA, "units_zstd.fatbin"), "rb").read()
    entry = bytearray(base[16:16 + 64])
    frame = zstd_rle(content_size)
    payload = frame + b"\0" * (-len(frame) % 8)
    struct.pack_into("<Q", entry, 8, len(payload))
    struct.pack_into("<I", entry, 0x10, len(frame))
    struct.pack_into("<Q", entry, 0x38, claim)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, 64 + len(payload)) + bytes(entry) + payload


if not os.path.exists(TIME):
    print(f"skipped: {TIME} (GNU time) is not installed: it measures the CLI's own peak resident size")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp:
    logs = [("ptxas", os.path.join(DATA, "ptxas_sm90.log"), 300 << 20, ["--threads", "256", "--csv"]),
            ("remarks", os.path.join(DATA, "remarks", "gfx942.log"), 100 << 20,
             ["--arch", "MI300X", "--threads", "256", "--csv"])]
    for cmd, unit_path, size, args in logs:
        unit = open(unit_path, "rb").read()
        results = []
        for s in (size // 10, size):
            path = os.path.join(tmp, f"{cmd}.log")
            write_repeated(path, unit, s)
            results.append(peak([cmd, path, *args]) + (os.path.getsize(path),))
            os.unlink(path)
        (rc0, small, _, _, _), (rc, big, wall, err, n) = results
        ok = rc == rc0 == 0 and big < LIMIT_KIB
        row(f"gpuocc {cmd}, a {n >> 20} MB log ({n / wall / 1e6:.0f} MB/s) against one of {n // 10 >> 20} MB", big, wall,
            big / small, "<= 1.5x and under 16 MiB", ok and big / small <= 1.5, f"{n // 10 >> 20} MB: "
            f"{small / 1024:.1f} MiB; exit {rc}")

    for label, claim, content in (("claims 4 GiB (over the 1 GiB ceiling)", 4 << 30, 4 << 30),
                                  ("claims 64 KiB, expands to 4 GiB", 64 << 10, 4 << 30)):
        path = os.path.join(tmp, "bomb.fatbin")
        data = bomb(claim, content)
        open(path, "wb").write(data)
        rc, kib, wall, err = peak(["binary", path, "--threads", "128", "--csv"])
        row(f"a {len(data) >> 10} KB fatbinary bomb that {label}", kib, wall, kib / 1024, "<= 16 (MiB)",
            rc == 2 and kib < LIMIT_KIB, f"exit {rc}: {err}")

nvcc = shutil.which("nvcc")
libs = sorted(glob.glob(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))), "lib64",
                                     "libcublasLt.so*"))) if nvcc else []
libs = [l for l in libs if not os.path.islink(l)] or libs
if not libs:
    print("libcublasLt: skipped: " + ("nvcc is not on PATH" if not nvcc else "no libcublasLt.so in the toolkit's lib64"))
else:
    lib = libs[0]
    size = os.path.getsize(lib)
    rc, kib, wall, err = peak(["binary", lib, "--threads", "256", "--csv"])
    # The resident peak counts the pages of the mapped file that the container scan touched (file-backed,
    # given back under pressure).  What the CLI allocates is bounded by the data-segment limit (RLIMIT_DATA:
    # heap and private writable mappings, not the read-only mapping of the file): the workspace is sized per
    # entry (the largest of libcublasLt's needs about 17 MB).
    def limit_data():
        resource.setrlimit(resource.RLIMIT_DATA, (DATA_LIMIT, DATA_LIMIT))
    with open(os.devnull, "wb") as null:
        limited = subprocess.run([GPUOCC, "binary", lib, "--threads", "256", "--csv"], stdout=null,
                                 stderr=subprocess.PIPE, preexec_fn=limit_data)
    row(f"gpuocc binary {os.path.basename(lib)} ({size >> 20} MB)", kib, wall, None, None, None,
        f"exit {rc}; resident includes the mapped file's pages")
    row(f"gpuocc binary {os.path.basename(lib)} in {DATA_LIMIT >> 20} MiB of heap (RLIMIT_DATA)", None, wall,
        None, "exit 0 within the limit", limited.returncode == 0,
        f"exit {limited.returncode} {limited.stderr.decode(errors='replace')[-200:]}")

if missed:
    print("targets missed: " + "; ".join(missed))
sys.exit(1 if missed else 0)
