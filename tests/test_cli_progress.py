#!/usr/bin/env python3
"""`gpuocc binary` shows a progress line on stderr when it runs on a terminal for over a second:
files done, entries read, kernels; nothing when stderr is not a terminal.  Not timing-dependent: the CLI's
test-only GPUOCC_TEST_PROGRESS_AFTER_MS=0 (tools/cmd_binary.c) shows the line from the first entry on, so a
run of any speed draws it; stderr is a pseudo-terminal (pty) or a pipe.
Usage: test_cli_progress.py GPUOCC DATA_DIR"""
import os
import pty
import re
import subprocess
import sys

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]
FILES = [os.path.join(DATA, f) for f in ("units.fatbin", "kernels_sm90.cubin", "units_host.o")]
ARGS = [GPUOCC, "binary", *FILES, "--threads", "128", "--csv"]


def on_pty(env, args=ARGS):
    """Run with stderr on a pseudo-terminal (stdout a pipe); (exit status, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    out = p.stdout.read()
    p.wait()
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other end is closed and drained
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return p.returncode, out, seen


plain = subprocess.run(ARGS, capture_output=True)
check("the files read", plain.returncode == 0 and plain.stderr == b"", plain.stderr)
kernels = plain.stdout.count(b"\n") - 1

env = dict(os.environ, GPUOCC_TEST_PROGRESS_AFTER_MS="0")
rc, out, seen = on_pty(env)
check("on a terminal: the same rows", rc == 0 and out == plain.stdout, (rc, out[:200]))
lines = re.findall(rb"\r\x1b\[Kgpuocc binary: (\d+) of (\d+) files, (\d+) entries read, (\d+) kernels", seen)
check("on a terminal: a progress line", lines, seen[:500])
if lines:
    # redrawn at most ten times a second: a fast run may show one line; each counts what was done by then
    counts = [tuple(int(x) for x in a) for a in lines]
    check("the files named", all(c[1] == 3 and c[0] <= 3 for c in counts), counts)
    check("entries and kernels so far", all(c[2] >= 1 and c[3] <= kernels for c in counts) and
          counts == sorted(counts), counts)
check("erased at the end", seen.endswith(b"\r\x1b[K"), seen[-80:])

# stderr not a terminal: nothing, even with the threshold at 0
p = subprocess.run(ARGS, capture_output=True, env=env)
check("stderr a pipe: no progress line", p.returncode == 0 and p.stderr == b"" and p.stdout == plain.stdout, p.stderr)

# a problem on a terminal prints on a line of its own: the progress line is erased first
rc, out, seen = on_pty(env, [GPUOCC, "binary", FILES[0], "/nonexistent.cubin", FILES[1], "--threads", "128", "--csv"])
text = seen.replace(b"\r\n", b"\n")
check("a problem on its own line", rc == 1 and re.search(rb"(^|\x1b\[K)gpuocc: /nonexistent.cubin: cannot open",
                                                                    text, re.M), (rc, seen[-400:]))
check("the problem not glued to the progress text", not re.search(rb"kernels \([^)]*\)gpuocc:", text), text[-400:])

finish("cli-progress")
