#!/usr/bin/env python3
"""`gpuocc ptxas` and `gpuocc remarks` read their logs in windows, never whole: memory stays near
the window whatever the log's size, and the rows are those of reading the whole log at once.

The CLI's test-only knob GPUOCC_TEST_CHUNK_BYTES=N reads N bytes at a time (tools/cmd_inputs.c), so a window
boundary can be put anywhere; a chunk larger than the log reads it in one window, which is the whole-buffer
reading (one call of the library's parser over all of it).  Each log is compared between the two, at every
boundary position for the small records and at a few chunk sizes for whole logs; the kernels' number and
names are checked against a count made here from the text (a line holding "Compiling entry function" /
"Function Name:").  The memory check runs the CLI on generated logs of 48 MiB in 32 MiB of address space
(RLIMIT_AS), and reads its peak resident size from GNU time where that is installed.
Usage: test_cli_stream.py GPUOCC DATA_DIR"""
import concurrent.futures
import csv
import time
import io
import os
import re
import resource
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]
WHOLE = 1 << 30
with open(GPUOCC, "rb") as exe:
    SANITIZED = b"__asan_init" in exe.read()  # shadow memory: the resident size says nothing there

PTXAS = ["ptxas", "--threads", "128"]
REMARKS = ["remarks", "--arch", "MI300X", "--threads", "128"]


def run(args, data=None, chunk=WHOLE, path="-"):
    env = dict(os.environ, GPUOCC_TEST_CHUNK_BYTES=str(chunk))
    p = subprocess.run([GPUOCC, *args, path], input=data, capture_output=True, env=env)
    return p.returncode, p.stdout, p.stderr


def differing(args, data, chunks, whole):
    """The chunk sizes whose reading differs from `whole` (runs overlapped: most of a run is its start)."""
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda n: (n, run(args, data, n)), chunks))
    return [n for n, r in results if r != whole]


def names(out):
    return [r["name"] for r in csv.DictReader(io.StringIO(out.decode()))]


# ---- real logs: the same rows at every chunk size, and the kernels the text holds ----
logs = sorted(os.path.join(DATA, f) for f in os.listdir(DATA) if f.startswith("ptxas_") and f.endswith(".log"))
logs += sorted(os.path.join(DATA, "remarks", f) for f in os.listdir(os.path.join(DATA, "remarks")) if f.endswith(".log"))
for path in logs:
    text = open(path, "rb").read()
    remarks = "/remarks/" in path
    args = REMARKS if remarks else PTXAS
    if remarks:
        want = [re.search(rb"Function Name: (\S+)", l).group(1).decode() for l in text.splitlines()
                if b"remark: " in l and b"Function Name: " in l]
    else:
        want = [re.search(rb"'([^']+)'", l).group(1).decode() for l in text.splitlines()
                if b"Compiling entry function" in l]
    # a log of two targets' remarks (hip_*.log) names the second run of them and exits 1, at every chunk size
    again = [i + 1 for i, l in enumerate(text.splitlines()) if remarks and b"remark: " in l and b"Function Name: " in l
             and l in text.splitlines()[:i]]
    for fmt in ("--csv", "--json"):
        a = args + ([fmt] if fmt else [])
        whole = run(a, text)
        check(f"{os.path.basename(path)} {fmt} reads", whole[0] == (1 if again else 0) and
              [int(l.split(b": line ")[1].split(b":")[0]) for l in whole[2].splitlines()] == again[:1], whole)
        if fmt == "--csv":
            check(f"{os.path.basename(path)}: the kernels the text holds", names(whole[1]) == want,
                  f"{names(whole[1])} != {want}")
        for chunk in ((1, 7, 61, 500) if fmt == "--csv" else (3, 4096)):
            check(f"{os.path.basename(path)} {fmt} chunk {chunk}", run(a, text, chunk) == whole,
                  f"{run(a, text, chunk)[:2]} != {whole[:2]}")
    check(f"{os.path.basename(path)} from a file", run(args + ["--csv"], path=path, chunk=5) == run(args + ["--csv"], path=path))

T0 = time.monotonic()
# ---- a record split across a window boundary, at every byte of two records ----
sm80 = open(os.path.join(DATA, "ptxas_sm80.log"), "rb").read().splitlines(keepends=True)
two = b"".join(sm80[6:17])  # the gmem line, then two whole records with their compile times
check("two ptxas records", two.count(b"Compiling entry function") == 2, two)
whole = run(PTXAS + ["--csv"], two)
check("two ptxas records read", whole[0] == 0 and len(names(whole[1])) == 2, whole)
split = differing(PTXAS + ["--csv"], two, range(1, len(two) + 1), whole)
check("a ptxas record split at every byte", not split, split[:20])

gfx942 = open(os.path.join(DATA, "remarks", "gfx942.log"), "rb").read().splitlines(keepends=True)
two = b"".join(gfx942[:24])  # two kernels' remarks, with the source lines clang quotes between them
check("two remarks records", two.count(b"Function Name") == 2, two)
whole = run(REMARKS + ["--csv"], two)
check("two remarks records read", whole[0] == 0 and len(names(whole[1])) == 2, whole)
split = differing(REMARKS + ["--csv"], two, range(1, len(two) + 1, 3), whole)
check("a remarks record split at every third byte", not split, split[:20])

# A record takes the figures of the last "Function properties for" line of its name, wherever that was:
# here the previous kernel's record, before the boundary; the stack (24) is the one that line prints.
carried = (b"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
           b"ptxas info    : Function properties for k\n"
           b"    24 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
           b"ptxas info    : Used 16 registers, 360 bytes cmem[0]\n"
           + b"some other build output\n" * 40 +
           b"ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
           b"ptxas info    : Used 18 registers, 360 bytes cmem[0]\n")
whole = run(PTXAS + ["--csv"], carried)
rows = list(csv.DictReader(io.StringIO(whole[1].decode())))
check("the figures carried to the next record", [(r["arch"], r["stack"], r["spill_stores"]) for r in rows] ==
      [("sm_80", "24", "8"), ("sm_90", "24", "8")], rows)
split = differing(PTXAS + ["--csv"], carried, range(1, len(carried) + 1, 5), whole)
check("the figures carried across every boundary", not split, split[:20])

# A problem names the file's line, whatever window it falls in; the record is skipped, every other one is
# printed, the same at every chunk size (exit 1).
bad = b"".join(sm80) * 50 + b"ptxas info    : Compiling entry function 'cut' for 'sm_80'\n" + b"".join(sm80)
line = bad[:bad.index(b"'cut'")].count(b"\n") + 1
want = [re.search(rb"'([^']+)'", l).group(1).decode() for l in bad.splitlines()
        if b"Compiling entry function" in l and b"'cut'" not in l]
for chunk in (WHOLE, 100, 4096):
    rc, out, err = run(PTXAS + ["--csv"], bad, chunk)
    check(f"the problem's line at chunk {chunk}", f"line {line}: kernel 'cut' skipped".encode() in err and
          len(err.splitlines()) == 1, err)
    check(f"every other record at chunk {chunk}", rc == 1 and names(out) == want, (rc, out[:200]))

# Lines dropped from a window (a long run without remarks after a record) still count: the next kernels'
# lines are the file's.
unit = open(os.path.join(DATA, "remarks", "gfx942.log"), "rb").read()
tail = unit + b"[ 50%] Building CXX object x.o\n" * 20000 + unit + b"noise\n" * 3000 + unit
whole = run(REMARKS + ["--csv"], tail)
runs = [b"line %d: kernel 'lds_16k' again" % n for n in (unit.count(b"\n") + 20001, 2 * unit.count(b"\n") + 23001)]
check("remarks after a long run read (the same log three times: two notices, exit 1)", whole[0] == 1 and
      len(names(whole[1])) == 3 * unit.count(b"Function Name") and
      [r in l for r, l in zip(runs, whole[2].splitlines())] == [True, True], whole[2])
for chunk in (4096, 65536):
    check(f"remarks after a long run, chunk {chunk}", run(REMARKS + ["--csv"], tail, chunk) == whole)

# Not a text log at all: no line break in the first MiB (/dev/zero) stops at once.
for args in (PTXAS, REMARKS):
    rc, out, err = run(args, path="/dev/zero")
    check(f"{args[0]} /dev/zero", rc == 2 and out == b"" and len(err.splitlines()) == 1, (rc, err))
# A record over --max-record-bytes is skipped (its lines read and dropped up to the next record); here none
# follows: no kernel (exit 2), the record named at its line.
rc, out, err = run(PTXAS + ["--max-record-bytes", "4k"], b"ptxas info    : Compiling entry function 'k' for "
                   b"'sm_80'\n" + b"x\n" * 5000 + b"ptxas info    : Used 8 registers\n", chunk=1024)
check("a record over --max-record-bytes", rc == 2 and b"line 1: kernel 'k' skipped" in err and
      b"--max-record-bytes" in err and b"no kernel found" in err and len(err.splitlines()) == 2, (rc, err))


print(f"splits {time.monotonic() - T0:.1f} s")
T0 = time.monotonic()
# ---- memory independent of the log's size ----
# Deterministic: the CLI runs in 32 MiB of address space (a reader holding the 48 MiB log cannot); and the
# peak resident size GNU time reports, where it is installed, stays under 16 MiB.  (Not in a sanitized
# build: its shadow memory is reserved at start.)
def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (32 << 20, 32 << 20))


def peak_kib(args, path):
    """The CLI's exit status under the address-space limit, and its peak resident size in KiB (None
    without /usr/bin/time)."""
    with open(os.devnull, "wb") as null:
        p = subprocess.run([GPUOCC, *args, path], stdout=null, stderr=subprocess.PIPE, preexec_fn=limit_memory)
        kib = None
        if os.path.exists("/usr/bin/time"):
            t = subprocess.run(["/usr/bin/time", "-f", "%M", GPUOCC, *args, path], stdout=null,
                               stderr=subprocess.PIPE)
            kib = int(t.stderr.split()[-1])
    return p.returncode, kib, p.stderr


BIG = 48 << 20  # over the 32 MiB address-space limit: a reader that holds it fails
LIMIT_KIB = 16 << 10
with tempfile.TemporaryDirectory() as tmp:
    ptx = open(os.path.join(DATA, "ptxas_sm90.log"), "rb").read()
    rem = open(os.path.join(DATA, "remarks", "gfx942.log"), "rb").read()
    cases = [  # label, arguments, the text's head, the line repeated after it, how often, expected exit status
        ("ptxas log", PTXAS + ["--csv"], b"", ptx, BIG // len(ptx) + 1, 0),
        # the same log again and again: each repeat named (exit 1), in the same memory
        ("remarks log", REMARKS + ["--csv"], b"", rem, BIG // len(rem) + 1, 1),
        # one kernel, then a build's output with no remark: the record is kept with its remarks only
        ("remarks with a long tail", REMARKS + ["--csv"], rem, b"[ 50%] Building CXX object x.o\n", BIG // 32, 0),
        ("a log with no record", PTXAS + ["--csv"], b"", b"make[2]: Leaving directory\n", BIG // 28, 2),
    ]
    path = os.path.join(tmp, "big.log")
    for label, args, head, unit, copies, want in cases:
        with open(path, "wb") as f:
            f.write(head)
            block = unit * 1000
            for _ in range(copies // 1000 + 1):
                f.write(block)
        size = os.path.getsize(path) >> 20
        rc, kib, err = peak_kib(args, path)
        if SANITIZED:
            continue
        check(f"{label}: {size} MiB read in 32 MiB of address space", rc == want, (rc, err[-300:]))
        if kib is not None:
            check(f"{label}: peak resident {kib} KiB for {size} MiB, under {LIMIT_KIB} KiB", kib < LIMIT_KIB, kib)

print(f"memory {time.monotonic() - T0:.1f} s")
finish("cli-stream")
