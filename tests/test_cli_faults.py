#!/usr/bin/env python3
"""No signal ends the CLI: a file that shrinks while `gpuocc binary` reads its mapping is a problem
of that file (exit 1), never SIGBUS; the rows printed before stay, the files after it are read.  The moment
is made deterministic by the CLI's test-only hook (tools/cmd_binary.c): with GPUOCC_TEST_PAUSE_FIFO set, it
opens that FIFO after mapping a file, before reading entry GPUOCC_TEST_PAUSE_ENTRY, and reads it to its end
(once per run);
this script truncates the file while the CLI waits there.
Usage: test_cli_faults.py GPUOCC DATA_DIR"""
import csv
import errno
import io
import json
import os
import subprocess
import sys
import tempfile
import time

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]
UNIT = open(os.path.join(DATA, "units.fatbin"), "rb").read()  # one fatbinary: 3 entries, 6 kernels
COPIES = 200


def shrink_while_read(path, entry, new_size, args, extra=()):
    """Run gpuocc binary on path (and extra files), truncate path to new_size while the CLI waits before
    entry `entry`; (returncode, stdout, stderr, paused)."""
    fifo = os.path.join(os.path.dirname(path), "pause")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    env = dict(os.environ, GPUOCC_TEST_PAUSE_FIFO=fifo, GPUOCC_TEST_PAUSE_ENTRY=str(entry))
    # files, not pipes: the CLI must not block on a full pipe before it reaches the pause
    sink_out, sink_err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    p = subprocess.Popen([GPUOCC, "binary", path, *extra, *args], env=env, stdout=sink_out, stderr=sink_err)
    paused, fd = False, -1
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        try:  # succeeds once the CLI has opened the FIFO to read: it is waiting at the entry
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
            time.sleep(0.005)
    if fd >= 0:
        paused = True
        os.truncate(path, new_size)
        os.close(fd)  # the CLI reads the FIFO's end and goes on, into the pages that are gone
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    os.unlink(fifo)
    sink_out.seek(0)
    sink_err.seek(0)
    return p.returncode, sink_out.read(), sink_err.read(), paused


def rows(out):
    return list(csv.reader(io.StringIO(out.decode(), newline="")))


with tempfile.TemporaryDirectory() as tmp:
    big = os.path.join(tmp, "many.fatbin")
    small = os.path.join(tmp, "one.fatbin")
    with open(small, "wb") as f:
        f.write(UNIT)
    whole = UNIT * COPIES  # 200 fatbinaries back to back: 600 entries, 1,200 kernels, two per entry
    with open(big, "wb") as f:
        f.write(whole)
    p = subprocess.run([GPUOCC, "binary", big, "--threads", "256", "--csv"], capture_output=True)
    rc, clean, err = p.returncode, p.stdout, p.stderr
    clean_rows = rows(clean)
    check("the whole file: 1,200 kernels", rc == 0 and len(clean_rows) == 1 + 2 * 3 * COPIES, f"{rc} {len(clean_rows)} {err}")

    # Shrink it to its first 50 fatbinaries while the CLI waits before entry 300 (fatbinary 100's first).
    rc, out, err, paused = shrink_while_read(big, 300, 50 * len(UNIT), ["--threads", "256", "--csv"], [small])
    got = rows(out)
    errs = err.decode().splitlines()
    check("the CLI paused before entry 300 (the test hook)", paused, f"{rc} {err[-300:]}")
    check("shrunk while read: no signal, exit 1", rc == 1, f"rc {rc} (-7 is SIGBUS) {err[-300:]}")
    check("the 600 rows of entries 0-299 printed, as a whole read prints them", got[:601] == clean_rows[:601],
          f"{len(got)} rows")
    check("the next file is still read (its 6 kernels, after them)",
          len(got) == 601 + 6 and all(r[-1] == small for r in got[601:]), f"{len(got)} rows")
    check("one stderr line names the file and says it shrank, with both sizes",
          len(errs) == 1 and errs[0].startswith("gpuocc: " + big + ": the file shrank while it was read")
          and str(len(whole)) in errs[0] and str(50 * len(UNIT)) in errs[0], errs)

    # JSON: the array still closes; the file emptied before its first entry gives no row of its own.
    with open(big, "wb") as f:
        f.write(whole)
    rc, out, err, paused = shrink_while_read(big, 0, 0, ["--threads", "256", "--json"], [small])
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    check("emptied before entry 0: exit 1, valid JSON with the other file's 6 kernels only",
          paused and rc == 1 and doc is not None and len(doc) == 6 and all(k["file"] == small for k in doc),
          f"{rc} {out[-200:]} {err[-300:]}")
    check("emptied: the message says 0 bytes now", b"0 now" in err, err)

finish("test_cli_faults")
