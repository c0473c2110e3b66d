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
import subprocess
import sys
import tempfile

GPUOCC, DATA = sys.argv[1], sys.argv[2]
failures = passed = 0


def check(name, cond, detail=""):
    global failures, passed
    if cond:
        passed += 1
    else:
        failures += 1
        print(f"FAIL {name} {detail}")


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

print(f"cli-binary: {passed} passed, {failures} failed")
sys.exit(1 if failures else 0)
