#!/usr/bin/env python3
"""Every library of the CUDA toolkit's lib64 against `gpuocc binary`'s exit status: one that holds
compiled device code reads with exit 0 (or 1, each stderr line naming an entry it could not read); each other
exits 2 with one line saying it holds none.  Which files hold device code is decided here, independently of
the library's readers, by a deliberately simple scan: a fatbinary header (magic 0xBA55ED50, version 1, a
16-byte header) whose entries, walked by their sizes, stay inside the file and include one of kind 2 (a
compiled ELF image, plain or compressed).  Skipped, saying why, when the toolkit is absent.
Usage: test_cli_toolkit_sweep.py GPUOCC LIB64"""
import concurrent.futures
import mmap
import os
import struct
import subprocess
import sys

from checks import check, finish

GPUOCC, LIB64 = sys.argv[1], sys.argv[2]
if not os.path.isdir(LIB64):
    print(f"skipped: no CUDA toolkit ({LIB64} is not a folder; nvcc not on PATH when configured)")
    sys.exit(77)

MAGIC = struct.pack("<I", 0xBA55ED50)


def holds_compiled_code(path):
    """"kernels" when some fatbinary in the file has a compiled (kind 2) entry that is compressed (flags 0x2000
    LZ4, 0x8000 zstd: not looked into) or holds a kernel's info section (".nv.info.NAME": one per kernel);
    "no kernel" when it has compiled entries, all plain and without one (device functions only); None when
    it has none.  The walk checks only sizes."""
    compiled = False
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            return False
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            at = m.find(MAGIC)
            while at >= 0:
                if at + 16 <= size:
                    version, header, total = struct.unpack_from("<HHQ", m, at + 4)
                    if version == 1 and header == 16 and at + 16 + total <= size:
                        pos, end = at + 16, at + 16 + total
                        while pos + 64 <= end:
                            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", m, pos)
                            if entry_header < 64 or pos + entry_header + payload > end:
                                break
                            if kind == 2:
                                compiled = True
                                flags, = struct.unpack_from("<Q", m, pos + 0x28)
                                body = m[pos + entry_header:pos + entry_header + payload]
                                if flags & 0xA000 or b".nv.info." in body:
                                    return "kernels"
                            pos += entry_header + payload
                at = m.find(MAGIC, at + 1)
    return "no kernel" if compiled else None


SAYS_NONE = ("no cubin, fatbinary", "holds no compiled device code", "but no compiled kernel",
             "no member of the archive holds device code", "but no kernel")

files = sorted(os.path.join(LIB64, f) for f in os.listdir(LIB64)
               if (".so" in f or f.endswith(".a")) and os.path.isfile(os.path.join(LIB64, f))
               and not os.path.islink(os.path.join(LIB64, f)))
check("the toolkit has libraries", len(files) > 5, files)


def sweep(path):
    p = subprocess.run([GPUOCC, "binary", path, "--threads", "128", "--csv"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    rows = max(0, p.stdout.count(b"\n") - 1)
    return path, holds_compiled_code(path), p.returncode, rows, p.stderr.decode(errors="replace")


with concurrent.futures.ThreadPoolExecutor(2) as pool:
    results = list(pool.map(sweep, files))

held = 0
for path, holds, rc, rows, err in results:
    name = os.path.basename(path)
    lines = err.strip().splitlines()
    if holds == "no kernel":
        check(f"{name}: compiled code without a kernel: exit 2, one line saying so", rc == 2 and rows == 0 and
              len(lines) == 1 and "but no kernel" in lines[0], (rc, rows, lines[:5]))
    elif holds:
        held += 1
        named = all(f"{path}" in l and ("entry " in l or "member" in l) for l in lines)
        check(f"{name}: holds device code: exit 0, or 1 naming the entries", rows > 0 and
              (rc == 0 and not lines or rc == 1 and lines and named), (rc, rows, lines[:5]))
    else:
        check(f"{name}: no device code: exit 2, one line saying so", rc == 2 and rows == 0 and len(lines) == 1
              and any(s in lines[0] for s in SAYS_NONE), (rc, rows, lines[:5]))
    print(f"{name}: {holds or 'no device code'}, exit {rc}, {rows} kernels")
check("some libraries hold device code and some do not", 0 < held < len(files), held)

finish("cli-toolkit-sweep")
