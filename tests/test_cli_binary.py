#!/usr/bin/env python3
"""gpuocc binary (alias cubin) and gpuocc ptxas over several inputs: a file column on every row, archive
members as lib.a(member.o), compressed entries read, a damaged entry reported on stderr while the others
print (exit 1), exit 2 when nothing could be read.  Expected rows come from ptxas's report of the same
compile (tests/data/ptxas_units_rdc.log).  Usage: test_cli_binary.py GPUOCC DATA_DIR"""
import csv
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]


def run(args):
    p = subprocess.run([GPUOCC] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def data(name):
    return os.path.join(DATA, name)


# ptxas's report of the -rdc compile: registers and shared memory per (kernel, target)
log = {}
target = None
for line in open(data("ptxas_units_rdc.log")):
    if "Compiling entry function" in line:
        name = line.split("'")[1]
        target = (name, line.split("'")[3])
    elif "Used" in line and target:
        log[target] = int(line.split("Used ")[1].split(" registers")[0])

# the compressed default -rdc object and the -no-compress one, in one call: 12 rows, each with its file
rc, out, err = run(["binary", data("units_rdc_zstd.o"), data("units_rdc.o"), "--threads", "128", "--csv"])
rows = list(csv.DictReader(io.StringIO(out)))
check("two files", rc == 0 and err == "" and len(rows) == 12, (rc, err, len(rows)))
check("file column", {r["file"] for r in rows} == {data("units_rdc_zstd.o"), data("units_rdc.o")}, out)
by_file = {}
for r in rows:
    by_file.setdefault(r["file"], {})[(r["name"], r["arch"])] = r["registers"]
check("compressed equals uncompressed", by_file.get(data("units_rdc_zstd.o")) == by_file.get(data("units_rdc.o")), by_file)
check("registers as ptxas reports",
      all(int(r["registers"]) == log.get((r["name"], r["arch"])) for r in rows), (log, rows[:2]))

# LZ4 entries (-compress-mode=speed -Xfatbin=-compress-all), JSON with the file key
rc, out, err = run(["binary", data("units_lz4.fatbin"), "--threads", "128", "--json"])
js = json.loads(out) if rc == 0 else []
check("lz4 json", rc == 0 and len(js) == 2 and all(r["file"] == data("units_lz4.fatbin") for r in js), out + err)

# a static archive: a host object without device code is skipped, the device object is named as a member
tmp = tempfile.mkdtemp()
try:
    member = os.path.join(tmp, "device_code.o")
    shutil.copy(data("units_rdc_zstd.o"), member)
    host = os.path.join(tmp, "host.o")
    shutil.copy(data("units_rdc.o"), host)  # replaced below by a plain host object when cc is here
    cc = shutil.which("cc") or shutil.which("gcc")
    ar = shutil.which("ar")
    if cc and ar:
        src = os.path.join(tmp, "h.c")
        open(src, "w").write("int h(void) { return 1; }\n")
        subprocess.run([cc, "-c", src, "-o", host], check=True)
        lib = os.path.join(tmp, "libfoo.a")
        subprocess.run([ar, "rcs", lib, host, member], check=True)
        rc, out, err = run(["binary", lib, "--threads", "64", "--csv"])
        rows = list(csv.DictReader(io.StringIO(out)))
        check("archive", rc == 0 and err == "" and len(rows) == 6 and
              all(r["file"] == lib + "(device_code.o)" for r in rows), (rc, out, err))
    else:
        print("SKIP archive: no cc or ar")

    # a damaged second entry: its failure on stderr naming the entry, the other entries' rows printed
    blob = bytearray(open(data("units_rdc_zstd.o"), "rb").read())
    frames = [i for i in range(len(blob) - 4) if blob[i:i + 4] == b"\x28\xb5\x2f\xfd"]
    blob[frames[1] + 40] ^= 0x5A
    damaged = os.path.join(tmp, "damaged.o")
    open(damaged, "wb").write(bytes(blob))
    rc, out, err = run(["binary", damaged, "--threads", "128", "--csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    check("damaged entry: exit 1", rc == 1, (rc, err))
    check("damaged entry: stderr names it", "entry 1" in err and len(err.strip().splitlines()) == 1, err)
    check("damaged entry: the others read", len(rows) == 4, out)
finally:
    shutil.rmtree(tmp)

# nothing readable: exit 2; one readable and one not: exit 1
rc, out, err = run(["binary", data("ptxas_sm90.log"), "--threads", "128"])
check("nothing read", rc == 2 and "ptxas_sm90.log" in err and "format" in err, err)
rc, out, err = run(["binary", data("kernels_sm90.cubin"), "/nonexistent.o", "--threads", "128", "--csv"])
check("some read", rc == 1 and "/nonexistent.o" in err and len(out.strip().splitlines()) == 8, (rc, err))
rc, out, err = run(["binary", "--threads", "128"])
check("needs a file", rc == 2 and "FILE" in err, err)

# ptxas: several logs, each row with its file
rc, out, err = run(["ptxas", data("ptxas_sm90.log"), data("ptxas_sm75.log"), "--threads", "128", "--json"])
js = json.loads(out) if rc == 0 else []
check("ptxas two logs", rc == 0 and {r["file"] for r in js} == {data("ptxas_sm90.log"), data("ptxas_sm75.log")}
      and len(js) == 13, (rc, err))  # 7 kernels for sm_90, 6 for sm_75 (no cluster kernel)
rc, out, err = run(["ptxas", data("ptxas_sm90.log"), data("kernels_sm90.cubin"), "--threads", "128", "--csv"])
check("ptxas one bad log", rc == 1 and "kernels_sm90.cubin" in err and len(out.strip().splitlines()) == 8, (rc, err))

# AMD: a code object, and HIP objects with a plain and a compressed offload bundle.  Resources as
# llvm-readelf-19 --notes prints them; waves_per_simd as LLVM's remarks of the compile say and as derived by
# hand: gfx90a, "small" 32 VGPRs (granule 8: 512 / 32 = 16, the cap of 8 waves per SIMD) gives 8; "lds"
# 4096 bytes of LDS in 64-lane workgroups: 65536 / 4096 = 16 workgroups of one wave per CU, over 4 SIMDs = 4.
rc, out, err = run(["binary", data("amdgpu_gfx90a.o"), "--threads", "64", "--json"])
js = json.loads(out) if rc == 0 else []
got = [(r["name"], r["arch"], r["vendor"], r["target"], r["vgprs"], r["agprs"], r["sgprs"], r["smem_static"], r["scratch"],
        r["wave_size"], r["max_threads"], r["dynamic_stack"], r["registers"], r["smem"], r["barriers"],
        r["status"], r["model"], r["waves_per_simd"]) for r in js]
check("amd code object", got == [
    ("small", "gfx90a", "amd", "amdgcn-amd-amdhsa--gfx90a", 32, 0, 42, 0, 0, 64, 256, 1, 32, 0, None, "ok", "compiler", 8),
    ("lds", "gfx90a", "amd", "amdgcn-amd-amdhsa--gfx90a", 46, 0, 50, 4096, 0, 64, 64, 1, 46, 4096, None, "ok", "compiler", 4),
], (rc, err, got))
# amdgpu-waves-per-eu is not recorded in a code object (docs/inputs.md): tests/data/amdgpu_attributes_gfx942.o's
# "2,4" kernel is counted with the 2 VGPRs it uses (8 waves per SIMD) unless --waves-per-eu says it; then LLVM's
# minimum for 4 waves, 512 / 5 = 102 -> 96 + 1 = 97 VGPRs (104 allocated): 512 / 104 = 4, what llc-19 prints
for flags, want in (([], 8), (["--waves-per-eu", "2,4"], 4)):
    rc, out, err = run(["binary", data("amdgpu_attributes_gfx942.o"), "--json"] + flags)
    js = json.loads(out) if rc == 0 else []
    got = [(r["name"], r["max_threads"], r["vgprs"], r["waves_per_simd"]) for r in js][:1]
    check("amd waves per eu " + " ".join(flags), got == [("waves_per_eu", 256, 2, want)], (rc, err, got))
# the compressed bundle gives the same rows as the plain one; both targets' kernels, in bundle order
rows = {}
for f in ("hip_bundle.o", "hip_ccob.o"):
    rc, out, err = run(["binary", data(f), "--threads", "256", "--csv"])
    rows[f] = [{k: v for k, v in r.items() if k != "file"} for r in csv.DictReader(io.StringIO(out))]
    check(f + " exit 0", rc == 0 and err == "", (rc, err))
check("ccob equals plain bundle", rows["hip_bundle.o"] == rows["hip_ccob.o"] and len(rows["hip_ccob.o"]) == 4, rows)
check("bundle targets", [(r["short_name"], r["arch"], r["wave_size"], r["sgprs"], r["smem_static"]) for r in rows["hip_ccob.o"]]
      == [("scale", "gfx1100", "32", "4", "0"), ("tile", "gfx1100", "32", "2", "1024"),
          ("scale", "gfx90a", "64", "10", "0"), ("tile", "gfx90a", "64", "10", "1024")], rows["hip_ccob.o"])
# report's names for report's fields (one vocabulary): static LDS is smem_static, and cu_mode is the opposite of
# the code object's .workgroup_processor_mode: hipcc compiles gfx1100 in WGP mode by default (1 in the note,
# cu_mode 0); gfx90a's notes record no such key (not recorded: -1 in CSV)
check("bundle cu_mode", [(r["arch"], r["cu_mode"]) for r in rows["hip_ccob.o"]]
      == [("gfx1100", "0"), ("gfx1100", "0"), ("gfx90a", "-1"), ("gfx90a", "-1")], rows["hip_ccob.o"])
check("no lds or wgp_mode column", all("lds" not in r and "wgp_mode" not in r for r in rows["hip_ccob.o"]),
      rows["hip_ccob.o"][0])
check("amd csv: NVIDIA-only cells empty", all(r["barriers"] == "" and r["cmem"] == "" and r["cluster_x"] == ""
                                              for r in rows["hip_ccob.o"]), rows["hip_ccob.o"][0])
# NVIDIA and AMD in one CSV: one header; NVIDIA rows say nvidia and leave the AMD cells empty
rc, out, err = run(["binary", data("kernels_sm90.cubin"), data("hip_ccob.o"), "--threads", "128", "--csv"])
mixed = list(csv.DictReader(io.StringIO(out)))
check("mixed vendors", rc == 0 and len(mixed) == 11 and {r["vendor"] for r in mixed} == {"nvidia", "amd"}
      and all(r["vgprs"] == "" and r["waves_per_simd"] == "" for r in mixed if r["vendor"] == "nvidia")
      and all(len(r) == len(mixed[0]) for r in mixed), (rc, err, out[:300]))
# smem_static is shared with report's vocabulary: an NVIDIA kernel's static shared memory (its smem) too
check("nvidia smem_static is smem", all(r["smem_static"] == r["smem"] != "" for r in mixed), mixed[:2])
# --arch: another AMD target evaluates there; an NVIDIA one is the wrong vendor for AMD kernels
rc, out, err = run(["binary", data("hip_bundle.o"), "--threads", "256", "--arch", "MI300X", "--json"])
js = json.loads(out) if rc in (0, 1) else []
# (the gfx1100 kernels were compiled for wave32, which gfx942 does not run: status wave_size, a line each, exit 1)
check("amd --arch", rc == 1 and [r["arch"] for r in js] == ["gfx942"] * 4
      and [r["status"] for r in js] == ["wave_size", "wave_size", "ok", "ok"]
      and err.count("built for gfx1100 (wave32), cannot run on MI300X (gfx942: wave64 only)") == 2,
      (rc, err, [r.get("arch") for r in js]))
rc, out, err = run(["binary", data("hip_bundle.o"), "--threads", "256", "--arch", "H100", "--json"])
js = json.loads(out) if rc in (0, 1) else []
check("amd kernels on an NVIDIA --arch", rc == 1 and all(r["status"] == "vendor" and r["waves_per_simd"] is None
                                                          for r in js) and len(js) == 4
      and err.count("cannot run on H100 (sm_90, NVIDIA)") == 4, (rc, err, out[:300]))
rc, out, err = run(["binary", data("kernels_sm90.cubin"), "--threads", "256", "--arch", "MI300X", "--csv"])
check("nvidia kernels on an AMD --arch", rc == 1 and all(r["status"] == "vendor"
                                                         for r in csv.DictReader(io.StringIO(out)))
      and err.count("built for sm_90 (NVIDIA), cannot run on MI300X (gfx942, AMD)") == 7, (rc, err))
# AMD's launch flags: --model runtime fills blocks_per_sm with HIP's answer; waves_per_simd stays LLVM's
# --max-threads is the launch's, as report takes it: it wins over what the binary records (kernels_sm90.cubin
# records no bound; the code object's lds records .max_flat_workgroup_size 64), is printed as max_threads with
# launch_bound flag, and a block over it does not launch
rc, out, err = run(["binary", data("kernels_sm90.cubin"), "--threads", "256", "--max-threads", "128", "--json"])
js = json.loads(out) if out else []
check("cubin --max-threads", js and all((r["status"], r["max_threads"], r["launch_bound"]) ==
                                        ("exceeds_launch_bounds", 128, "flag") for r in js), (rc, err, out[:300]))
rc, out, err = run(["binary", data("amdgpu_gfx90a.o"), "--threads", "64", "--max-threads", "512", "--json"])
check("code object --max-threads", [(r["name"], r["max_threads"], r["launch_bound"], r["status"])
                                    for r in (json.loads(out) if out else [])] ==
      [("small", 512, "flag", "ok"), ("lds", 512, "flag", "ok")], (rc, err, out[:300]))
rc, out, err = run(["binary", data("amdgpu_gfx90a.o"), "--threads", "64", "--model", "runtime", "--json"])
js = json.loads(out) if rc == 0 else []
check("amd --model runtime", rc == 0 and [(r["model"], r["waves_per_simd"]) for r in js]
      == [("runtime", 8), ("runtime", 4)], (rc, err, out[:300]))
rc, out, err = run(["binary", data("amdgpu_gfx90a.o"), "--threads", "64", "--rocm", "6.2"])
check("--rocm needs --model runtime", rc == 2 and "--rocm" in err, (rc, err))
# --best-block: within the kernel's flat workgroup size (64 for "lds")
rc, out, err = run(["binary", data("amdgpu_gfx90a.o"), "--best-block", "--json"])
js = json.loads(out) if rc == 0 else []
check("amd best block", rc == 0 and len(js) == 2 and js[1]["threads"] <= 64 and js[1]["threads"] % 64 == 0
      and all(r["status"] == "ok" for r in js), (rc, err, out[:300]))
# a bundle whose code object is damaged: that entry fails alone (exit 1), the other prints
blob = bytearray(open(data("hip_bundle.o"), "rb").read())
at = blob.index(b"__CLANG_OFFLOAD_BUNDLE__")
# the third descriptor (host, gfx1100, gfx90a): u64 offset, u64 size, u64 triple size, the triple
pos = at + 32
for _ in range(2):
    pos += 24 + int.from_bytes(blob[pos + 16:pos + 24], "little")
second = at + int.from_bytes(blob[pos:pos + 8], "little")
assert blob[second:second + 4] == b"\x7fELF", blob[second:second + 4]
blob[second + 7] = 65  # EI_OSABI: PAL, not HSA
tmp = tempfile.mkdtemp()
try:
    damaged = os.path.join(tmp, "pal.o")
    open(damaged, "wb").write(bytes(blob))
    rc, out, err = run(["binary", damaged, "--threads", "256", "--csv"])
    check("damaged bundle entry", rc == 1 and "entry 1" in err and len(list(csv.DictReader(io.StringIO(out)))) == 2,
          (rc, err))
finally:
    shutil.rmtree(tmp)

# Launch bounds checked (tests/cuda/bounds.cu, nvcc 13.0 sm_90): __launch_bounds__(256, 8) is recorded
# only as the register cap 65536 / (256 x 8) = 32, which guarantees 8 blocks; 32768 B of __shared__ + 1024
# reserved = 33792 B, 233472 / 33792 = 6 blocks: shared memory prevents the minimum.  (256, 4) reaches it.
p = subprocess.run([GPUOCC, "cubin", os.path.join(DATA, "bounds_sm90.cubin"), "--threads", "256", "--json"],
                   capture_output=True, text=True)
rows = {r["short_name"]: r for r in json.loads(p.stdout)}
b = rows.get("bounds_smem", {})
check("bounds: the cap is recorded, the minimum derived", b.get("max_regs") == 32 and b.get("max_threads") == 256
      and b.get("min_blocks") == 8, p.stdout)
check("bounds: shared memory prevents it", b.get("blocks_per_sm") == 6 and b.get("min_blocks_reached") is False
      and b.get("min_blocks_preventing") == ["shared_memory"], p.stdout)
r = rows.get("bounds_reached", {})
check("bounds: reached", r.get("min_blocks") == 4 and r.get("min_blocks_reached") is True
      and r.get("min_blocks_preventing") == [], p.stdout)
p = subprocess.run([GPUOCC, "cubin", os.path.join(DATA, "kernels_sm90.cubin"), "--threads", "256", "--json"],
                   capture_output=True, text=True)
check("bounds: null without a minimum", all(r["min_blocks_reached"] is None for r in json.loads(p.stdout)
                                            if r["min_blocks"] == 0), p.stdout)

# Messages that name the cause (the library's fault fields, in the CLI's words): a damaged fatbinary entry
# header names the entry, its byte and what is wrong; a zebin's .ze_info the YAML line; AMDGPU metadata nested
# too deep says so and gives the limit.  Offsets and lines are found here by reading the files' own layouts.
tmp = tempfile.mkdtemp()
try:
    fat = bytearray(open(data("units.fatbin"), "rb").read())
    first = struct.unpack_from("<H", fat, 6)[0]                      # the fatbinary header's size: entry 0 there
    second = first + struct.unpack_from("<I", fat, first + 4)[0] + struct.unpack_from("<Q", fat, first + 8)[0]
    for entry, at in ((0, first), (1, second)):
        bad = bytearray(fat)
        struct.pack_into("<I", bad, at + 4, 8)                        # an entry header of 8 bytes
        path = os.path.join(tmp, f"bad{entry}.fatbin")
        open(path, "wb").write(bytes(bad))
        rc, out, err = run(["binary", path, "--threads", "128"])
        check(f"a damaged fatbinary entry {entry} header: its entry, byte and size named (exit 2)", rc == 2 and err ==
              f"gpuocc: {path}: entry {entry}: input is not of the expected binary format: its fatbinary entry header "
              f"at byte {at} gives a header size of 8 bytes, below the 64 of an entry header\n", (rc, err))
    bad = bytearray(fat)
    struct.pack_into("<Q", bad, first + 8, 10**9)
    path = os.path.join(tmp, "long.fatbin")
    open(path, "wb").write(bytes(bad))
    rc, out, err = run(["binary", path, "--threads", "128"])
    left = struct.unpack_from("<Q", fat, 8)[0]
    check("a fatbinary entry past its fatbinary's end: named, with the bytes left", rc == 2 and err.endswith(
          f": entry 0: input is not of the expected binary format: its fatbinary entry at byte {first} runs past the "
          f"end of its fatbinary ({left} bytes left from its header)\n"), err)
    # in an archive, a member whose fatbinary is damaged is device code: named, not skipped as a host object
    ar = shutil.which("ar")
    if ar:
        lib = os.path.join(tmp, "libbad.a")
        subprocess.run([ar, "rcs", lib, os.path.join(tmp, "bad0.fatbin"), data("kernels_sm90.cubin")], check=True)
        rc, out, err = run(["binary", lib, "--threads", "128", "--csv"])
        check("a damaged fatbinary in an archive: named, the other member read (exit 1)", rc == 1
              and err.startswith(f"gpuocc: {lib}(bad0.fatbin): entry 0: input is not of the expected binary format: ")
              and len(out.strip().splitlines()) == 8, (rc, err))

    # a zebin: a value of .ze_info made unreadable (a digit of simd_size turned into 'x'), its line counted here
    zebin = bytearray(open(data("zebin/kernels_pvc.bin"), "rb").read())
    shoff, = struct.unpack_from("<Q", zebin, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", zebin, 0x3c)
    heads = [struct.unpack_from("<IIQQQQ", zebin, shoff + 64 * i) for i in range(shnum)]
    strtab = heads[shstrndx][4]
    name_of = lambda h: bytes(zebin[strtab + h[0]:zebin.index(b"\0", strtab + h[0])]).decode()
    info = next(h for h in heads if name_of(h) == ".ze_info")
    text_at, text_len = info[4], info[5]
    value = zebin.index(b"simd_size: ", text_at) + len(b"simd_size: ")
    zebin[value] = ord("x")
    line = zebin[text_at:value].count(b"\n") + 1
    line_at = zebin.rindex(b"\n", text_at, value) + 1
    path = os.path.join(tmp, "bad.zebin")
    open(path, "wb").write(bytes(zebin))
    rc, out, err = run(["binary", path, "--threads", "64"])
    check("a zebin's broken .ze_info names its line and byte", rc == 2 and err ==
          f"gpuocc: {path}: entry 0: input is not of the expected binary format: the .ze_info YAML does not read at "
          f"line {line} (at byte {line_at})\n", (rc, err, line))

    # AMDGPU metadata: the note's MessagePack replaced by arrays nested as deep as its bytes allow
    amd = bytearray(open(data("amdgpu_gfx90a.o"), "rb").read())
    note = next(i for i in range(len(amd) - 20) if amd[i + 12:i + 19] == b"AMDGPU\0" and amd[i] == 7 and amd[i + 8] == 32)
    desc, descsz = note + 20, struct.unpack_from("<I", amd, note + 4)[0]
    amd[desc:desc + descsz] = b"\x91" * (descsz - 1) + b"\xc0"
    path = os.path.join(tmp, "deep.o")
    open(path, "wb").write(bytes(amd))
    rc, out, err = run(["binary", path, "--threads", "64"])
    check("AMDGPU metadata nested too deep: says so, with the limit (32 levels) and the byte", rc == 2 and err ==
          f"gpuocc: {path}: entry 0: input of a kind this version does not read: the AMDGPU metadata nests arrays and "
          f"maps deeper than 32 levels at byte {desc + 32}, more than gpuocc follows\n", (rc, err))
finally:
    shutil.rmtree(tmp)

# A pipe named as a file (bash's <(...), /dev/stdin on a pipe) is read whole, as "-" is: registers as ptxas
# reported them for the same compile (tests/data/ptxas_sm90.log); an empty file or input is named as empty.
sm90 = {}
for line in open(data("ptxas_sm90.log")):
    if "Compiling entry function" in line:
        name = line.split("'")[1]
    elif "Used" in line:
        sm90[name] = int(line.split("Used ")[1].split(" registers")[0])
tmp = tempfile.mkdtemp()
try:
    fifo = os.path.join(tmp, "pipe")
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", data("kernels_sm90.cubin"), fifo])
    rc, out, err = run(["binary", fifo, "--threads", "128", "--csv"])
    writer.wait()
    rows = list(csv.DictReader(io.StringIO(out)))
    check("a pipe by its path: read whole", rc == 0 and err == "" and len(rows) == len(sm90)
          and all(int(r["registers"]) == sm90[r["name"]] for r in rows), (rc, err, out))
    empty = os.path.join(tmp, "empty.cubin")
    open(empty, "wb").close()
    rc, out, err = run(["binary", empty])
    check("an empty file is named as empty", rc == 2 and out == ""
          and err == f"gpuocc: {empty}: cannot read: the file is empty (0 bytes)\n", (rc, err))
    p = subprocess.run([GPUOCC, "binary", "-"], input=b"", capture_output=True)
    check("empty standard input is named as empty", p.returncode == 2
          and p.stderr == b"gpuocc: -: cannot read: the input is empty (0 bytes)\n", (p.returncode, p.stderr))
finally:
    shutil.rmtree(tmp)

finish("cli-binary")
