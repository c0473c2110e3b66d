#!/usr/bin/env python3
"""Nothing silently dropped from a build log: `gpuocc ptxas` and `gpuocc remarks` keep every record around one
they cannot read, name that one on stderr (its line and the field) and exit 1; a record longer than
--max-record-bytes is skipped up to the next record, not the end of the log; a log without a record quotes the
compiler's error lines.

The logs are real tools' output (tests/data/ptxas_multi.log: nvcc -Xptxas -v, 13 kernels; tests/data/remarks;
tests/data/failed: nvcc and clang-19 on a source with an undefined identifier and on a missing file,
captured by tests/data/failed/capture.sh), each spoiled in one place here.  The kernels expected are read
from the text by a regular expression, the lines and error lines by hand.  Each spoiled log is read at several
window sizes (GPUOCC_TEST_CHUNK_BYTES) with the same result.
Usage: test_cli_records.py GPUOCC DATA_DIR
       test_cli_records.py GPUOCC DATA_DIR --live   (suite cuda: nvcc and clang-19 themselves, piped in; each
                                                    skipped when absent)"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC, DATA = os.path.abspath(sys.argv[1]), sys.argv[2]
LIVE = "--live" in sys.argv[3:]
PTXAS = ["ptxas", "--threads", "128", "--csv"]
REMARKS = ["remarks", "--arch", "gfx942", "--threads", "128", "--csv"]


def run(args, data, chunk=None):
    """The CLI on `data` read `chunk` bytes at a time (None: all at once, one window)."""
    env = dict(os.environ, GPUOCC_TEST_CHUNK_BYTES=str(chunk or len(data) + 1))
    p = subprocess.run([GPUOCC, *args, "-"], input=data, capture_output=True, env=env)
    return p.returncode, p.stdout, p.stderr


def rows(out):
    return list(csv.DictReader(io.StringIO(out.decode()))) if out else []


def ptxas_kernels(text):
    """(name, arch, registers) of every record of a ptxas log, read here from its text."""
    found, current = [], None
    for line in text.splitlines():
        m = re.search(rb"Compiling entry function '([^']+)' for '(sm_\d+)'", line)
        if m:
            current = (m.group(1).decode(), m.group(2).decode())
        m = re.search(rb"Used (\d+) registers", line)
        if m and current:
            found.append((*current, m.group(1).decode()))
            current = None
    return found


def same_at_every_chunk(label, args, data, whole):
    for chunk in (1, 7, 61, 500, 4096):
        got = run(args, data, chunk)
        check(f"{label}: the same at chunk {chunk}", got == whole, (got[0], got[2], whole[2]))


# ---- gpuocc ptxas: one bad record among thirteen ----
multi = open(os.path.join(DATA, "ptxas_multi.log"), "rb").read()
lines = multi.splitlines(keepends=True)
all13 = ptxas_kernels(multi)
check("the log has 13 kernels", len(all13) == 13, all13)
# line 33 opens the sm_90 'dynamic_smem' record (the 7th), line 36 is its "Used" line
check("line 33 opens the 7th record", b"Compiling entry function 'dynamic_smem' for 'sm_90'" in lines[32], lines[32])
check("line 36 is its Used line", lines[35] == b"ptxas info    : Used 12 registers, used 1 barriers\n", lines[35])
twelve = [k for i, k in enumerate(all13) if i != 6]


def spoiled(line_no, new):
    return b"".join(lines[:line_no - 1]) + new + b"".join(lines[line_no:])


last_used = max(i for i, l in enumerate(lines) if l.startswith(b"ptxas info    : Used "))
last_open = max(i for i, l in enumerate(lines) if b"Compiling entry function" in l)
cases = [  # label, the log, the stderr line expected (by hand), the kernels kept
    ("a malformed register count", spoiled(36, b"ptxas info    : Used x12 registers, used 1 barriers\n"),
     "gpuocc: -: line 36: kernel 'dynamic_smem' skipped: registers: cannot read \"x12 registers\"", twelve),
    ("a NUL in the register count", spoiled(36, b"ptxas info    : Used 1\x002 registers, used 1 barriers\n"),
     "gpuocc: -: line 36: kernel 'dynamic_smem' skipped: registers: cannot read \"1\\x002 registers\"", twelve),
    ("a malformed barrier count", spoiled(36, b"ptxas info    : Used 12 registers, used one barriers\n"),
     "gpuocc: -: line 36: kernel 'dynamic_smem' skipped: barriers: cannot read \"used one barriers\"", twelve),
    ("a NUL in the word Used", spoiled(36, b"ptxas info    : U\x00ed 12 registers, used 1 barriers\n"),
     "gpuocc: -: line 33: kernel 'dynamic_smem' skipped: no \"Used\" line before the next kernel", twelve),
    ("malformed figures", spoiled(35, b"    0 bytes stack frame, x bytes spill stores, 0 bytes spill loads\n"),
     "gpuocc: -: line 35: kernel 'dynamic_smem' skipped: stack frame and spills: cannot read "
     "\"    0 bytes stack frame, x bytes spill stores, 0 bytes spill loads\"", twelve),
    ("no name in quotes", spoiled(33, b"ptxas info    : Compiling entry function dynamic_smem for sm_90\n"),
     "gpuocc: -: line 33: a kernel without a name skipped: no kernel name in quotes", twelve),
    # the last record's "Used" line lost: the log ends in the middle of it
    ("the last record cut off", b"".join(lines[:last_used] + lines[last_used + 1:]),
     f"gpuocc: -: line {last_open + 1}: kernel 'plain_copy' skipped: no \"Used\" line before the end of the "
     "input", all13[:-1]),
    # a device function's figures that do not read, outside any record: that line pair only
    ("figures outside a record", spoiled(37, lines[36] + b"ptxas info    : Function properties for _Z3devv\n"
                                             b"    8 bytes stack frame, many bytes spill stores, 0 bytes spill loads\n"),
     "gpuocc: -: line 39: a \"Function properties\" line skipped: stack frame and spills: cannot read "
     "\"    8 bytes stack frame, many bytes spill stores, 0 bytes spill loads\"", all13),
]
for label, text, want_err, want in cases:
    whole = run(PTXAS, text)
    rc, out, err = whole
    got = [(r["name"], r["arch"], r["registers"]) for r in rows(out)]
    check(f"ptxas, {label}: exit 1", rc == 1, (rc, err))
    check(f"ptxas, {label}: every other kernel", got == want, got)
    check(f"ptxas, {label}: named", err.decode().splitlines() == [want_err], err)
    same_at_every_chunk(f"ptxas, {label}", PTXAS, text, whole)

# several bad records, one after another and at both ends: each named, the good ones between them kept
bad = spoiled(36, b"ptxas info    : Used x12 registers\n")
bad = bad.replace(b"Used 10 registers, used 1 barriers, 360 bytes cmem[0]", b"Used 10 registers, used 1 barriers, "
                  b"360 bytes cmem[0], 7 bytes what")  # the first record (line 5)
bad = bad.replace(b"Used 12 registers, used 4 barriers, 1024 bytes smem",  # the 9th (sm_90 named_barriers)
                  b"Used 12 registers, used 4 barriers, 1024 bytes smem, 99999999999999999999 bytes lmem")
rc, out, err = whole = run(PTXAS, bad)
got = [r["name"] for r in rows(out)]
check("ptxas, three bad records: the ten others", got == [k[0] for i, k in enumerate(all13) if i not in (0, 6, 8)],
      got)
named = [re.match(r"gpuocc: -: line (\d+): kernel '(\w+)'", l) for l in err.decode().splitlines()]
check("ptxas, three bad records: three lines", [m.groups() if m else None for m in named] ==
      [("5", "dynamic_smem"), ("36", "dynamic_smem"), ("46", "_Z14named_barriersPf")], err)
check("ptxas, an unknown item named", "the \"Used\" line's item \"7 bytes what\" is not one gpuocc reads" in
      err.decode(), err)
check("ptxas, an lmem figure too large", "lmem: cannot read \"99999999999999999999 bytes lmem\"" in err.decode(), err)
same_at_every_chunk("ptxas, three bad records", PTXAS, bad, whole)

# every record bad: no kernel (exit 2), each named
rc, out, err = run(PTXAS, multi.replace(b"Used ", b"Used x"))
check("ptxas, every record bad: exit 2", rc == 2 and out == b"", (rc, out))
check("ptxas, every record bad: 13 named, then no kernel", len(err.splitlines()) == 14 and
      b"no kernel found" in err.splitlines()[-1], err)

# ---- gpuocc remarks: the same ----
gfx942 = open(os.path.join(DATA, "remarks", "gfx942.log"), "rb").read()
rl = gfx942.splitlines(keepends=True)
nine = [re.search(rb"Function Name: (\w+)", l).group(1).decode() for l in rl if b"Function Name: " in l]
check("gfx942.log has 9 kernels", len(nine) == 9, nine)
# line 13 opens 'vgpr_97', line 16 is its SGPRs, line 17 its VGPRs
check("line 13 opens vgpr_97", b"Function Name: vgpr_97 " in rl[12] and b"VGPRs: 97 " in rl[16], rl[12:17])


def rspoiled(line_no, new):
    return b"".join(rl[:line_no - 1]) + new + b"".join(rl[line_no:])


eight = [k for k in nine if k != "vgpr_97"]
rcases = [
    ("a value too large", rspoiled(17, rl[16].replace(b"VGPRs: 97", b"VGPRs: 99999999999")),
     "gpuocc: -: line 17: kernel 'vgpr_97' skipped: VGPRs: cannot read \"99999999999\"", eight),
    ("a remark twice", rspoiled(17, rl[16] + rl[15]),
     "gpuocc: -: line 18: kernel 'vgpr_97' skipped: SGPRs: given twice", eight),
    ("a required remark missing", rspoiled(16, b""),
     "gpuocc: -: line 13: kernel 'vgpr_97' skipped: no SGPRs remark before the next kernel", eight),
    ("a malformed flag", rspoiled(20, rl[19].replace(b"Dynamic Stack: False", b"Dynamic Stack: Maybe")),
     "gpuocc: -: line 20: kernel 'vgpr_97' skipped: Dynamic Stack: cannot read \"Maybe\"", eight),
]
check("line 20 is vgpr_97's Dynamic Stack", b"Dynamic Stack: False" in rl[19], rl[19])
for label, text, want_err, want in rcases:
    whole = run(REMARKS, text)
    rc, out, err = whole
    got = [r["name"] for r in rows(out)]
    check(f"remarks, {label}: exit 1", rc == 1, (rc, err))
    check(f"remarks, {label}: every other kernel", got == want, got)
    check(f"remarks, {label}: named", err.decode().splitlines() == [want_err], err)
    same_at_every_chunk(f"remarks, {label}", REMARKS, text, whole)
# the kernels after the bad one keep the file's lines
rc, out, err = run(REMARKS, rcases[1][1])
check("remarks: the lines after a skipped record", [r["line"] for r in rows(out)][1:3] == ["26", "38"], out)

# ---- a record over --max-record-bytes: skipped up to the next one, the rest read ----
sm80 = open(os.path.join(DATA, "ptxas_sm80.log"), "rb").read()
six = ptxas_kernels(sm80)
noise = b"x" * 99 + b"\n"
for label, middle, first_line in [
        ("an open record", b"ptxas info    : Compiling entry function 'big' for 'sm_80'\n" + noise * 30000 +
         b"ptxas info    : Used 8 registers\n", "kernel 'big'"),
        ("a line without a break", b"y" * (3 << 20) + b"\n", "a line")]:
    text = sm80 + middle + sm80
    line = sm80.count(b"\n") + 1
    for chunk in (None, 65536):
        env_chunk = chunk or (1 << 20)
        rc, out, err = run(PTXAS + ["--max-record-bytes", "64k"], text, env_chunk)
        got = [(r["name"], r["arch"], r["registers"]) for r in rows(out)]
        check(f"ptxas over-long, {label}, chunk {env_chunk}: the records after it", rc == 1 and got == six + six,
              (rc, got, err))
        check(f"ptxas over-long, {label}, chunk {env_chunk}: named at its line",
              err.decode().splitlines() == [f"gpuocc: -: line {line}: {first_line} skipped: more than 65536 bytes "
                                            "before its end (--max-record-bytes raises the limit); read on at the "
                                            "next kernel"], err)
    # the rows that follow have the file's lines: a bad record after the skipped text is named at its own
    after = sm80 + middle + sm80.replace(b"Used 10 registers", b"Used ten registers", 1)
    bad_line = (sm80 + middle).count(b"\n") + sm80[:sm80.index(b"Used 10 registers")].count(b"\n") + 1
    rc, out, err = run(PTXAS + ["--max-record-bytes", "64k"], after)
    check(f"ptxas over-long, {label}: a later line numbered as the file's",
          f"line {bad_line}: kernel 'dynamic_smem' skipped".encode() in err, err)

rem = gfx942
big = (b"k.cl:1:1: remark: Function Name: big [-Rpass-analysis=kernel-resource-usage]\n" +
       b"k.cl:1:1: remark: a remark of another pass [-Rpass=x]\n" * 40000)
text = rem + big + rem
rc, out, err = run(REMARKS + ["--max-record-bytes", "64k"], text, 1 << 20)
got = [r["name"] for r in rows(out)]
check("remarks over-long: the records after it", rc == 1 and got == nine + nine, (rc, got, err))
line = rem.count(b"\n") + 1
again = (rem + big).count(b"\n") + 1  # the log again after it: its first kernel named as another run of remarks
check("remarks over-long: named at its line", err.decode().splitlines()[:1] ==
      [f"gpuocc: -: line {line}: kernel 'big' skipped: more than 65536 bytes before its end (--max-record-bytes "
       "raises the limit); read on at the next kernel"], err)
check("remarks over-long: the log's second run named after it", len(err.decode().splitlines()) == 2 and
      err.decode().splitlines()[1].startswith(f"gpuocc: -: line {again}: kernel 'lds_16k' again (first at line 1): "),
      err)
second = ([r["line"] for r in rows(out)] + [None] * 10)[9]
check("remarks over-long: the next kernel at its file line", second == str((rem + big).count(b"\n") + 1), second)

# ---- no record: the compiler's error lines quoted ----
failed = os.path.join(DATA, "failed")
PTX_EXPECTED = "no kernel found (expected ptxas -v output: \"ptxas info : Compiling entry function\")"
REM_EXPECTED = "no kernel found (expected LLVM's remarks: clang -Rpass-analysis=kernel-resource-usage)"
quoted = [  # fixture, command, stderr (by hand, from the fixture's lines)
    ("nvcc_syntax.log", PTXAS, [f"gpuocc: -: {PTX_EXPECTED}; the input reports 2 error lines:",
                                "gpuocc: -: line 1: k.cu(3): error: identifier \"nope\" is undefined",
                                "gpuocc: -: line 5: 1 error detected in the compilation of \"k.cu\"."]),
    ("nvcc_missing.log", PTXAS, [f"gpuocc: -: {PTX_EXPECTED}; the input reports 1 error line:",
                                 "gpuocc: -: line 1: cc1plus: fatal error: missing.cu: No such file or directory"]),
    ("clang_syntax.log", REMARKS, [f"gpuocc: -: {REM_EXPECTED}; the input reports 2 error lines:",
                                   "gpuocc: -: line 1: k.cl:3:12: error: use of undeclared identifier 'nope'",
                                   "gpuocc: -: line 4: 1 error generated."]),
    ("clang_missing.log", REMARKS, [f"gpuocc: -: {REM_EXPECTED}; the input reports 2 error lines:",
                                    "gpuocc: -: line 1: clang-19: error: no such file or directory: 'missing.cl'",
                                    "gpuocc: -: line 2: clang-19: error: no input files"]),
]
for name, args, want in quoted:
    text = open(os.path.join(failed, name), "rb").read()
    for chunk in (None, 5):
        rc, out, err = run(args, text, chunk)
        check(f"{name} at chunk {chunk}: exit 2, nothing printed", rc == 2 and out == b"", (rc, out))
        check(f"{name} at chunk {chunk}: the compiler's errors quoted", err.decode().splitlines() == want, err)
# at most five quoted, the rest counted; a log's other lines are not
many = b"".join(b"make: note %d\nk%d.cu(1): error: bad thing %d\n" % (i, i, i) for i in range(8))
rc, out, err = run(PTXAS, many)
e = err.decode().splitlines()
check("eight error lines: five quoted, three counted", rc == 2 and len(e) == 7 and
      e[0].endswith("the input reports 8 error lines:") and e[1] == "gpuocc: -: line 2: k0.cu(1): error: bad thing 0"
      and e[5] == "gpuocc: -: line 10: k4.cu(1): error: bad thing 4" and e[6] == "gpuocc: -: ... and 3 more", e)
# a log whose kernels were found is not searched: its errors are not quoted
rc, out, err = run(PTXAS, open(os.path.join(failed, "nvcc_syntax.log"), "rb").read() + sm80)
check("errors beside kernels: not quoted", rc == 0 and err == b"" and len(rows(out)) == 6, (rc, err))
# control bytes in a quoted line are shown escaped, a long line cut
rc, out, err = run(PTXAS, b"\x1b[1merror\x1b[0m: " + b"z" * 300 + b"\n")
check("a quoted line escaped and cut", (err.decode().splitlines() + ["", ""])[1] ==
      "gpuocc: -: line 1: \\x1b[1merror\\x1b[0m: " + "z" * (120 - 15) + "...", err)

# error lines after a record's remarks, past a long run of other lines (dropped from the window as they come):
# quoted at their own lines, at every window size
noise = b"[ 50%] Building CXX object x.o\n"
text = (b"k.cl:1:1: remark: Function Name: k [-Rpass-analysis=kernel-resource-usage]\n" + noise * 70000 +
        b"x.c:1: error: boom\n" + noise * 10 + b"k.cl:1:1: remark:     SGPRs: 8 [-Rpass-analysis=kernel-resource-usage]\n"
        + noise * 5 + b"y.c:2: error: again\n")
for chunk in (None, 4096, 65536):
    rc, out, err = run(REMARKS, text, chunk)
    check(f"remarks, errors after a long run, chunk {chunk}", rc == 2 and err.decode().splitlines() == [
        "gpuocc: -: line 1: kernel 'k' skipped: no VGPRs or Occupancy [waves/SIMD] remark before the end of the input",
        f"gpuocc: -: {REM_EXPECTED}; the input reports 2 error lines:",
        "gpuocc: -: line 70002: x.c:1: error: boom", "gpuocc: -: line 70019: y.c:2: error: again"], err)

# ---- the other reader named: a binary given to ptxas or remarks, a log or a source given to binary ----
def run_file(args, path):
    p = subprocess.run([GPUOCC, *args, path], capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode()


ELF_HINT = "; it is an ELF file (a cubin, code object, zebin or host binary): gpuocc binary reads it"
for args, name, hint in [
        (PTXAS, "kernels_sm90.cubin", ELF_HINT),
        (PTXAS, "units.fatbin", "; it is a fatbinary: gpuocc binary reads it"),
        (REMARKS, "amdgpu_gfx90a.o", ELF_HINT)]:
    path = os.path.join(DATA, name)
    rc, out, err = run_file(args, path)
    check(f"{args[0]} {name}: gpuocc binary named", rc == 2 and out == b"" and err.endswith(hint + "\n") and
          len(err.splitlines()) == 1, (rc, err))
archive = b"!<arch>\n" + b"x" * 100
rc, out, err = run(PTXAS, archive)
check("ptxas on an archive: gpuocc binary named", rc == 2 and err.decode().rstrip().endswith(
      "; it is an archive: gpuocc binary reads it"), err)
NOT_BINARY = ("input is not of the expected binary format (no cubin, fatbinary, AMDGPU code object, offload bundle "
              "or Intel zebin, in a section or anywhere in one)")
with tempfile.TemporaryDirectory() as tmp:
    source = os.path.join(tmp, "k.cu")
    with open(source, "w") as f:
        f.write("__global__ void k(float *p) { p[0] = 1.0f; }\n")
    for cmd, path, hint in [
            ("cubin", source, "; it is text: gpuocc ptxas reads ptxas -v reports (nvcc -Xptxas -v -c k.cu 2>&1 | "
             "gpuocc ptxas), gpuocc remarks LLVM's remarks, gpuocc binary what nvcc -cubin, nvcc -c or clang -c "
             "wrote"),
            ("binary", os.path.join(DATA, "ptxas_sm90.log"), "; it is a ptxas report: gpuocc ptxas reads it"),
            ("binary", os.path.join(DATA, "remarks", "gfx942.log"),
             "; it is LLVM's resource-usage remarks: gpuocc remarks reads them")]:
        rc, out, err = run_file([cmd, "--threads", "128"], path)
        check(f"{cmd} {os.path.basename(path)}: the reader named", rc == 2 and
              err == f"gpuocc: {path}: {NOT_BINARY}{hint}\n", (rc, err))

# ---- the compilers themselves, piped in (suite cuda) ----
if LIVE:
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    clang = shutil.which("clang-19")
    with tempfile.TemporaryDirectory() as tmp:
        if nvcc:
            with open(os.path.join(tmp, "k.cu"), "w") as f:
                f.write("__global__ void k(float *p)\n{\n    p[0] = nope;\n}\n")
            for src, needle in (("k.cu", 'error: identifier "nope" is undefined'),
                                ("missing.cu", "No such file or directory")):
                p = subprocess.run(f"{nvcc} -Xptxas -v -c {src} -o /dev/null 2>&1 | {GPUOCC} ptxas --threads 128",
                                   shell=True, cwd=tmp, capture_output=True)
                check(f"nvcc {src} piped: its error quoted", p.returncode == 2 and needle.encode() in p.stderr,
                      p.stderr)
        else:
            print("SKIP nvcc: not installed")
        if clang:
            with open(os.path.join(tmp, "k.cl"), "w") as f:
                f.write("__kernel void k(__global float *p)\n{\n    p[0] = nope;\n}\n")
            for src, needle in (("k.cl", "error: use of undeclared identifier 'nope'"),
                                ("missing.cl", "error: no such file or directory")):
                p = subprocess.run(f"{clang} -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c {src} -o /dev/null "
                                   f"-Rpass-analysis=kernel-resource-usage 2>&1 | {GPUOCC} remarks --arch gfx942 "
                                   "--threads 128", shell=True, cwd=tmp, capture_output=True)
                check(f"clang {src} piped: its error quoted", p.returncode == 2 and needle.encode() in p.stderr,
                      p.stderr)
        else:
            print("SKIP clang-19: not installed")
        if not nvcc and not clang:
            sys.exit(77)

finish("cli-records")
