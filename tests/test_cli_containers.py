#!/usr/bin/env python3
"""Device code wherever a host ELF keeps it: fatbinaries found by scanning sections other than
.nv_fatbin (a fixture with one in .rodata after a magic whose header does not validate; cuFFT, whose device
code is in ~24,000 fatbinaries in .ldata), and files without a compiled kernel (PTX only, a cubin of device
functions, a host binary without device code) ending with exit 2 and one line saying why.

The cuFFT check counts kernels with a deliberately simple reader written here: find every 0xBA55ED50 magic,
validate its header, decompress each ELF entry with the system's libzstd / liblz4 (ctypes) and count the
ELF symbols marked STO_CUDA_ENTRY, per SM.
Usage: test_cli_containers.py GPUOCC DATA_DIR            (fixtures; suite cli)
       test_cli_containers.py GPUOCC --toolkit LIB64_DIR  (cuFFT; suite cuda, skipped without it)"""
import collections
import csv
import ctypes
import ctypes.util
import io
import mmap
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC = sys.argv[1]


def run(args):
    p = subprocess.run([GPUOCC] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def kernels_of(path):
    rc, out, err = run(["binary", path, "--threads", "128", "--csv"])
    return rc, collections.Counter((r["name"], r["arch"]) for r in csv.DictReader(io.StringIO(out))), err


# ---- an independent reader: the fatbinary layout of docs/inputs.md, nothing from the library ----------
def cubin_kernels(image):
    """Names of the STO_CUDA_ENTRY function symbols of an ELF64 cubin."""
    shoff, = struct.unpack_from("<Q", image, 0x28)
    shnum, = struct.unpack_from("<H", image, 0x3c)
    names = []
    for i in range(shnum):
        sh = shoff + 64 * i
        kind, = struct.unpack_from("<I", image, sh + 4)
        if kind != 2:  # SHT_SYMTAB
            continue
        off, size, link = struct.unpack_from("<QQI", image, sh + 24)
        str_off, = struct.unpack_from("<Q", image, shoff + 64 * link + 24)
        for s in range(off, off + size, 24):
            name, info, other = struct.unpack_from("<IBB", image, s)
            if info & 0xf == 2 and other & 0x10:
                end = image.index(b"\0", str_off + name)
                names.append(image[str_off + name:end].decode())
    return names


def independent_count(path, zstd, lz4):
    """Counter of (kernel name, sm_XX) over every valid fatbinary found anywhere in the file."""
    found = collections.Counter()
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        pos = 0
        while True:
            at = m.find(b"\x50\xed\x55\xba", pos)
            if at < 0:
                return found
            pos = at + 1
            version, header, size = struct.unpack_from("<HHQ", m, at + 4)
            if version != 1 or header < 16 or at + header + size > len(m):
                continue
            p, end = at + header, at + header + size
            while p < end:
                kind, _, eh, payload = struct.unpack_from("<HHIQ", m, p)
                if kind == 2:
                    sm, = struct.unpack_from("<I", m, p + 0x1c)
                    flags, = struct.unpack_from("<Q", m, p + 0x28)
                    csize, = struct.unpack_from("<I", m, p + 0x10)
                    usize, = struct.unpack_from("<Q", m, p + 0x38)
                    data = m[p + eh:p + eh + payload]
                    if flags & 0x8000:
                        out = ctypes.create_string_buffer(usize)
                        n = zstd.ZSTD_decompress(out, usize, data, payload)
                        image = out.raw[:n]
                    elif flags & 0x2000:
                        out = ctypes.create_string_buffer(usize)
                        n = lz4.LZ4_decompress_safe(data, out, csize, usize)
                        image = out.raw[:n]
                    else:
                        image = data
                    for name in cubin_kernels(image):
                        found[(name, f"sm_{sm}")] += 1
                p += eh + payload
            pos = end


if sys.argv[2] == "--toolkit":
    cufft = os.path.join(sys.argv[3], "libcufft.so.12")
    libs = {n: ctypes.util.find_library(n) for n in ("zstd", "lz4")}
    if not os.path.exists(cufft) or not all(libs.values()):
        print(f"SKIP: needs {cufft} and libzstd, liblz4 (found: {libs})")
        sys.exit(77)
    zstd, lz4 = ctypes.CDLL(libs["zstd"]), ctypes.CDLL(libs["lz4"])
    zstd.ZSTD_decompress.restype = ctypes.c_size_t
    zstd.ZSTD_decompress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    lz4.LZ4_decompress_safe.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    expected = independent_count(cufft, zstd, lz4)
    rc, got, err = kernels_of(cufft)
    check("cufft: kernels found", rc == 0 and sum(got.values()) > 3000, (rc, sum(got.values()), err[:300]))
    check("cufft: the kernel set equals an independent scan", got == expected,
          (sum(got.values()), sum(expected.values()), list((got - expected).items())[:3],
           list((expected - got).items())[:3]))
    per_sm = collections.Counter(a for (_, a), n in got.items() for _ in range(n))
    print("cufft kernels per arch:", dict(sorted(per_sm.items())))
    rc, _, err = run(["binary", cufft, "--threads", "128", "--containers"])
    check("cufft: --containers names .ldata", rc == 0 and ": .ldata: " in err and "23984 containers" in err, err)
    finish("cli-containers (toolkit)")

DATA = sys.argv[2]


def data(name):
    return os.path.join(DATA, name)


# a fatbinary in .rodata, after a candidate whose version is not 1: its two sm_80 kernels, the candidate
# skipped and counted
rc, got, err = kernels_of(data("units_rodata.o"))
check("rodata: kernels", rc == 0 and got == collections.Counter(
    {("unit_add", "sm_80"): 1, ("_Z12unit_boundedPf", "sm_80"): 1}), (rc, got, err))
rc, _, err = run(["binary", data("units_rodata.o"), "--threads", "128", "--containers"])
check("rodata: where", rc == 0 and "1 containers" in err and "1 candidates skipped" in err
      and ".rodata: 1 compiled entries in 1 containers" in err, err)

# the same fatbinary embedded at test time by gcc (.incbin) in .rodata of an object with host code
cc = shutil.which("cc")
if cc:
    tmp = tempfile.mkdtemp()
    try:
        src, obj = os.path.join(tmp, "embed.c"), os.path.join(tmp, "embed.o")
        with open(src, "w") as f:
            f.write('__asm__(".section .rodata\\n.balign 8\\nfatbin: .incbin \\"%s\\"\\n.previous");\n'
                    "int host_function(int x) { return x + 1; }\n" % data("units_lz4.fatbin"))
        subprocess.run([cc, "-c", src, "-o", obj], check=True)
        rc, got, err = kernels_of(obj)
        check("incbin: kernels", rc == 0 and got == collections.Counter(
            {("unit_add", "sm_80"): 1, ("_Z12unit_boundedPf", "sm_80"): 1}), (rc, got, err))
    finally:
        shutil.rmtree(tmp)

# no compiled kernel: exit 2, one line naming the file and why
for name, says in [("units_ptx.fatbin", "holds PTX or LTO IR (1 entries) but no compiled kernel"),
                   ("no_kernel_sm90.cubin", "1 compiled entry but no kernel")]:
    rc, out, err = run(["binary", data(name), "--threads", "128"])
    lines = err.strip().split("\n")
    check(f"{name}: exit 2, one line", rc == 2 and len(lines) == 1 and says in lines[0] and name in lines[0],
          (rc, err))
    for fmt in ([], ["--csv"], ["--json"]):  # no row: no header, no "[]" either (nothing was answered)
        rc, out, err = run(["binary", data(name), "--threads", "128", *fmt])
        check(f"{name} {fmt}: nothing on stdout", rc == 2 and out == "", (rc, out))
host = shutil.which("true") or "/bin/true"
rc, out, err = run(["binary", os.path.realpath(host), "--threads", "128"])
check("host binary without device code: exit 2", rc == 2 and len(err.strip().split("\n")) == 1, (rc, err))
# with a file that has kernels beside it: its rows, and exit 1 for the other
rc, out, err = run(["binary", data("units_zstd.fatbin"), data("units_ptx.fatbin"), "--threads", "128", "--csv"])
check("one file without kernels beside one with: exit 1", rc == 1 and len(out.strip().split("\n")) == 3, (rc, err))
# one entry claiming 2^40 bytes decompressed: that entry fails alone, over the 1 GiB ceiling; the others print
blob = bytearray(open(data("units.fatbin"), "rb").read())
header, = struct.unpack_from("<H", blob, 6)
p, patched = header, None
while p < len(blob):
    kind, _, eh, payload = struct.unpack_from("<HHIQ", blob, p)
    if kind == 2 and patched is None:
        flags, = struct.unpack_from("<Q", blob, p + 0x28)
        struct.pack_into("<Q", blob, p + 0x28, flags | 0x8000)
        struct.pack_into("<Q", blob, p + 0x38, 1 << 40)
        patched = struct.unpack_from("<I", blob, p + 0x1c)[0]
    p += eh + payload
with tempfile.NamedTemporaryFile(suffix=".fatbin", delete=False) as f:
    f.write(blob)
try:
    rc, got, err = kernels_of(f.name)
    rest = {a for _, a in got}
    check("2^40 claim: the other entries print", rc == 1 and sum(got.values()) == 4 and f"sm_{patched}" not in rest,
          (rc, got, err))
    check("2^40 claim: a per-entry error naming the ceiling",
          err.count("\n") == 1 and "entry 0: claims 1099511627776 bytes" in err and "--max-entry-bytes" in err, err)
    rc, got, err = run(["binary", f.name, "--threads", "128", "--max-entry-bytes", "1x"])
    check("--max-entry-bytes is checked", rc == 2 and "--max-entry-bytes" in err, (rc, err))
finally:
    os.unlink(f.name)
finish("cli-containers")
