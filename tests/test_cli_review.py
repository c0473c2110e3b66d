#!/usr/bin/env python3
"""Review findings on the CLI's output: JSON is UTF-8 text (RFC 8259 section 8.1) whatever bytes the input holds;
error messages name the unit of the flag's own axis.  Expected text is written from the RFCs and docs/output.md,
never read from gpuocc.  Usage: test_cli_review.py GPUOCC"""
import json
import os
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC = sys.argv[1]
REPLACEMENT = "\ufffd"


def run(args, stdin=None):
    p = subprocess.run([GPUOCC] + args, input=stdin, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def utf8_lines(out):
    """each line of out decoded as UTF-8 (strict) and parsed as JSON, or the error as a string"""
    try:
        return json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"


# ---- JSON: valid UTF-8 passes through, each byte that is not UTF-8 becomes U+FFFD ----
# docs/output.md: one U+FFFD per byte that is not UTF-8.  \xff and \xfe never occur in UTF-8 (2); \xed\xa0\x80
# would be the surrogate D800 (not allowed, RFC 3629 section 3: 3); \xc0\xaf an overlong "/" (2); the trailing
# \xe6\x97 a character cut short (2).  "é" (C3 A9) and "日" (E6 97 A5) are UTF-8 and stay.  (Unicode's
# "maximal subpart" practice, which Python's decoder follows, would give the cut-short pair one U+FFFD; gpuocc
# documents one per byte.)
cell = b"\xff\xfe x \xc3\xa9 \xe6\x97\xa5 \xed\xa0\x80 \xc0\xaf \xe6\x97"
want = REPLACEMENT * 2 + " x é 日 " + REPLACEMENT * 3 + " " + REPLACEMENT * 2 + " " + REPLACEMENT * 2
# A100, 256 threads, 64 registers: 64 x 32 = 2048 registers per warp, 65536 / 2048 = 32 warps = 4 blocks of 8
rc, out, err = run(["batch", "--json"], b'arch,threads,regs,note\nA100,256,64,"' + cell + b'"\n')
row = utf8_lines(out)
check("batch --json: a cell with bytes that are not UTF-8 is UTF-8 JSON", isinstance(row, dict)
      and row.get("note") == want and row.get("blocks_per_sm") == 4, (rc, row, err))
# a header cell (a JSON key) likewise
rc, out, err = run(["batch", "--json"], b"arch,threads,regs,n\xffte\nA100,256,64,x\n")
row = utf8_lines(out)
check("batch --json: a column name that is not UTF-8", isinstance(row, dict) and row.get("n" + REPLACEMENT + "te") == "x",
      (rc, row))

# a ptxas log whose kernel name holds 0xff: ptxas's own line format ("Compiling entry function 'NAME' for 'sm_90'",
# then "Used N registers"), as in tests/data/ptxas_sm90.log
log = (b"ptxas info    : Compiling entry function 'k\xffname' for 'sm_90'\n"
       b"ptxas info    : Function properties for k\xffname\n"
       b"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
       b"ptxas info    : Used 32 registers, used 1 barriers\n")
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "k.log")
    with open(path, "wb") as f:
        f.write(log)
    rc, out, err = run(["ptxas", path, "--threads", "256", "--json"])
rows = utf8_lines(out)
# the rest of the record read past the byte: sm_90, 32 registers, 256 threads = 8 warps; registers
# floor(floor(65536 / 4) / roundup(32 x 32, 256)) x 4 / 8 = 16 x 4 / 8 = 8, warps 64 / 8 = 8, barriers 64 / 1:
# 8 blocks (docs/model.md)
check("ptxas --json: a kernel name with 0xff is UTF-8 JSON, the byte as U+FFFD",
      isinstance(rows, list) and len(rows) == 1 and rows[0].get("name") == "k" + REPLACEMENT + "name"
      and rows[0].get("arch") == "sm_90" and rows[0].get("registers") == 32 and rows[0].get("blocks_per_sm") == 8,
      (rc, rows, err))

# ---- a bad --from / --to / --step names the unit of the axis it counts ----
# The units are those of the swept field (docs/output.md, "gpuocc sweep": threads, registers, barriers, bytes);
# AMD's registers are VGPRs (docs/amd.md, "Inputs"), Intel's threads work-items, its sub-group a count of
# work-items and its GRF GRF registers (docs/intel.md, "Words"); bytes only on the shared-memory axis (the
# CHANGELOG's entry for this fix).
for arch, axis, flag, unit in [("A100", "regs", "--step", "registers"), ("MI300X", "regs", "--from", "VGPRs"),
                               ("A100", "threads", "--to", "threads"), ("A100", "barriers", "--step", "barriers"),
                               ("A100", "smem", "--step", "byte count"), ("MI300X", "threads", "--to", "threads"),
                               ("pvc", "threads", "--to", "work-items"), ("pvc", "sub_group", "--from", "work-items"),
                               ("pvc", "grf", "--step", "GRF registers")]:
    rc, out, err = run(["sweep", "--arch", arch, "--threads", "256", "--axis", axis, flag, "-1"])
    line = err.decode()
    check(f"sweep --axis {axis} {flag} -1 on {arch}: the error names {unit}", rc == 2 and unit in line
          and line.startswith(f"gpuocc: {flag}: ") and (axis == "smem" or "byte" not in line), line)

finish("cli-review")
