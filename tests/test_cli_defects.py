#!/usr/bin/env python3
"""The CLI defects 7-17 found by the contract review, one regression check (or a few) each; defect 6 is tests/test_cli_io.py.
Expected values come from the rules by hand (seeds' Example 1: H100, 256 threads, 64 registers -> 4 blocks,
32 warps, 50 %, registers) or from the input itself.  Usage: test_cli_defects.py GPUOCC DATA_DIR"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]


def run(args, stdin=None, binary=False, timeout=60):
    try:
        p = subprocess.run([GPUOCC] + args, input=stdin, capture_output=True, text=not binary, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -9, "", "timed out"
    return p.returncode, p.stdout, p.stderr


class Row(dict):
    def __missing__(self, key):  # a column the output lacks reads as None (the check fails, the test goes on)
        return None


def rows(text):
    return [Row(r) for r in csv.DictReader(io.StringIO(text, newline=""))]


def loads(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


# Example 1 of the seeds, by hand: 64 regs x 32 lanes = 2048 per warp, 65536 / 2048 = 32 warps = 4 blocks of 8
EX1 = {"status": "ok", "blocks_per_sm": "4", "warps_per_sm": "32", "occupancy": "0.500000", "limiters": "registers"}


def is_ex1(row):
    return all(row.get(k) == v for k, v in EX1.items())


# 7: lines ending in a bare CR
rc, out, err = run(["batch"], "arch,threads,regs\rH100,256,64\rH100,256,64\r")
t = rows(out)
check("7 bare CR rows", rc == 0 and len(t) == 2 and all(is_ex1(r) for r in t), out + err)
check("7 bare CR lines", [r.get("line") for r in t] == ["2", "3"], out)

# 8: too few / too many cells: the status stays in the status column; the cells are kept
rc, out, err = run(["batch"], "arch,threads,regs,tag\nH100,256\nH100,256,64,a,b\nH100,256,64,c\n")
t = rows(out)
check("8 rows", rc == 1 and len(t) == 3, out)
if len(t) == 3:
    check("8 short row status column", t[0]["status"] == "parse" and t[0]["arch"] == "H100" and t[0]["threads"] == "256"
          and t[0]["tag"] == "" and "2 cells" in t[0]["error"], str(t[0]))
    check("8 long row status column", t[1]["status"] == "parse" and t[1]["tag"] == "a" and "b" in t[1]["error"]
          and None not in t[1], str(t[1]))
    check("8 good row after bad ones", is_ex1(t[2]) and t[2]["tag"] == "c", str(t[2]))

# 9: a UTF-8 byte-order mark before the header
rc, out, err = run(["batch"], "\ufeffarch,threads,regs\nH100,256,64\n")
t = rows(out)
check("9 BOM", rc == 0 and len(t) == 1 and is_ex1(t[0]) and out.startswith("arch,"), out + err)

# 10: errors name the line; blank lines skipped but counted; smem_optin=2 named; NUL kept; quoted cells
rc, out, err = run(["batch"], "arch,threads,regs\n\nH100,256,64\n   \nH100,x,64\n")
t = rows(out)
check("10 blank lines skipped", rc == 1 and len(t) == 2 and is_ex1(t[0]), out)
check("10 line column", [r["line"] for r in t] == ["3", "5"], out)
check("10 error names line and column", "line 5" in err and "threads" in err and len(err.strip().splitlines()) == 1, err)
rc, out, err = run(["batch"], "arch,threads,regs,smem_optin\nH100,256,64,2\n")
t = rows(out)
check("10 smem_optin=2 named", rc == 1 and t and t[0]["status"] == "argument" and t[0]["error"].startswith("smem_optin:")
      and "smem_optin" in err, out + err)
rc, out, err = run(["batch"], b"arch,threads,regs,tag\nH100,256,64,a\x00b\n", binary=True)
check("10 NUL kept in echo", rc == 0 and b"a\x00b,ok," in out, repr(out))
rc, out, err = run(["batch"], 'arch,threads,regs,tag\n"H100","256",64,"x, ""y"""\n')
t = rows(out)
check("10 quoted cells", rc == 0 and len(t) == 1 and is_ex1(t[0]) and t[0]["tag"] == 'x, "y"', out + err)

# 11: waves prints integers whole (text and JSON): 1234567 blocks / (132 SMs x 2) = 4676 full waves + 103
rc, out, _ = run(["waves", "--grid-blocks", "1234567", "--sm-count", "132", "--blocks-per-sm", "2", "--json"])
j = Row(loads(out) or {})
check("11 waves json ints", rc == 0 and j["grid_blocks"] == 1234567 and j["full_waves"] == 4676
      and j["last_wave_blocks"] == 103 and j["grid_up"] == 1234728 and "e+" not in out, out)
rc, out, _ = run(["waves", "--grid-blocks", "1234567", "--sm-count", "132", "--blocks-per-sm", "2"])
check("11 waves text ints", rc == 0 and "1234567" in out and "e+" not in out, out)

# 12: kernel names longer than 511 bytes, names with commas, in CSV and JSON
long_name = "_Z" + "k" * 700 + "v"
log = ("ptxas info    : Compiling entry function '%s' for 'sm_90'\n"
       "ptxas info    : Used 32 registers, used 1 barriers\n"
       "ptxas info    : Compiling entry function 'a,b\"c' for 'sm_90'\n"
       "ptxas info    : Used 32 registers, used 1 barriers\n") % long_name
rc, out, err = run(["ptxas", "--threads", "256", "--json"], log)
names = [r.get("name") for r in (loads(out) or [])]
check("12 long name whole (json)", names == [long_name, 'a,b"c'], out + err)
rc, out, err = run(["ptxas", "--threads", "256", "--csv"], log)
t = rows(out)
check("12 csv quoted", rc == 0 and [r["name"] for r in t] == [long_name, 'a,b"c'] and all(None not in r for r in t)
      and t[1]["status"] == "ok", out + err)

# 13: ptxas on input with no kernels: exit 2 with a word
for name, data in [("garbage", "hello\nworld\n"), ("csv", "arch,threads,regs\nH100,256,64\n"), ("empty", "")]:
    rc, out, err = run(["ptxas", "--threads", "256"], data)
    check(f"13 ptxas {name}", rc == 2 and "no kernel" in err and not out, f"{rc} {out} {err}")

# 14: errors blame the flag that carries the bad value
for args, flag in [
    (["latency", "--warps-per-sm", "-5", "--latency-cycles", "400", "--throughput-per-cycle", "4"], "--warps-per-sm"),
    (["latency", "--warps-per-sm", "5", "--latency-cycles", "400", "--throughput-per-cycle", "4", "--ilp", "0"], "--ilp"),
    (["roofline", "--flops", "1", "--bytes", "0", "--peak-gflops", "3", "--peak-gbps", "3"], "--bytes"),
    (["spill", "--work-cycles", "256", "--spill-accesses", "-1", "--spill-latency-cycles", "300"], "--spill-accesses"),
]:
    rc, out, err = run(args)
    check(f"14 {flag}", rc == 2 and err.startswith(f"gpuocc: {flag}:") and len(err.strip().splitlines()) == 1, err)

# 15: --paths longer than 1023 characters: every path counts.  32 one-lane paths; the last costs 1000,
# the others 1 written with 40 digits: serialized = 31 + 1000 = 1031 cycles
paths = ",".join(["1:1." + "0" * 40] * 31 + ["1:1000"])
rc, out, err = run(["divergence", "--paths", paths, "--json"])
check("15 long --paths", len(paths) > 1023 and rc == 0 and (loads(out) or {}).get("serialized_cycles") == 1031
      and (loads(out) or {}).get("paths") == 32, out + err)

# 16: /dev/zero does not exhaust memory; a directory and a missing file say why
start = time.time()
for args in (["ptxas", "--threads", "32", "/dev/zero"], ["batch", "/dev/zero"]):
    rc, out, err = run(args, timeout=60)
    check(f"16 {args[0]} /dev/zero", rc == 2 and len(err.strip().splitlines()) == 1, f"{rc} {err}")
with tempfile.TemporaryDirectory() as d:
    for cmd in (["batch", d], ["ptxas", "--threads", "32", d]):
        rc, out, err = run(cmd)
        check(f"16 {cmd[0]} directory", rc == 2 and "Is a directory" in err, err)
    # binary (cubin) reads a folder (a Triton cache, or any folder of binaries): an empty one says so
    rc, out, err = run(["cubin", "--threads", "32", d])
    check("16 cubin empty directory", rc == 2 and "the folder holds no file to read" in err, err)
    missing = os.path.join(d, "missing.csv")
    for cmd in (["batch", missing], ["ptxas", "--threads", "32", missing], ["cubin", "--threads", "32", missing]):
        rc, out, err = run(cmd)
        check(f"16 {cmd[0]} missing", rc == 2 and "No such file or directory" in err, err)

# 17: one number grammar: 64iB is not a size; no hex; a tiny finite value is finite; 1.5 is not an occupancy
rc, _, err = run(["report", "--arch", "H100", "--threads", "32", "--regs", "32", "--smem-static", "64iB"])
check("17 64iB", rc == 2 and "--smem-static" in err, err)
rc, out, _ = run(["report", "--arch", "H100", "--threads", "32", "--regs", "32", "--smem-static", "48KiB", "--json"])
check("17 48KiB", rc == 0 and (loads(out) or {}).get("smem_static") == 49152, out)
rc, _, err = run(["latency", "--warps-per-sm", "0x10", "--latency-cycles", "400", "--throughput-per-cycle", "4"])
check("17 hex", rc == 2 and "--warps-per-sm" in err, err)
rc, _, err = run(["report", "--arch", "H100", "--threads", "0x20", "--regs", "32"])
check("17 hex int", rc == 2 and "--threads" in err, err)
# (latency x throughput = 1: the ILP needed, 1 / 1e-308, still fits a double)
rc, out, err = run(["latency", "--warps-per-sm", "1e-308", "--latency-cycles", "1", "--throughput-per-cycle", "1", "--json"])
check("17 tiny finite", rc == 0 and (loads(out) or {}).get("warps_per_sm") == 1e-308, out + err)
rc, _, err = run(["diagnose", "--stall", "barrier", "--occupancy", "1.5"])
check("17 occupancy 1.5", rc == 2 and "--occupancy" in err, err)
rc, out, _ = run(["diagnose", "--stall", "barrier", "--occupancy", "37.5%", "--json"])
check("17 occupancy 37.5%", rc == 0 and (loads(out) or {}).get("occupancy") == 0.375, out)
rc, out, _ = run(["batch"], "arch,threads,regs,smem_static\nH100,256,64,64iB\n")
check("17 batch 64iB", rc == 1 and rows(out)[0]["status"] == "parse", out)

finish("test_cli_defects")
