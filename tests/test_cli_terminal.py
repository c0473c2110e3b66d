#!/usr/bin/env python3
"""A command that reads standard input says so on stderr when that input is a terminal, instead of waiting
in silence: batch, ptxas and remarks (and binary's `-`) on a pseudo-terminal print one line
naming what they read and how to end it, before anything is typed; Ctrl-D then ends the input.  From a
pipe they print no such line.
Usage: test_cli_terminal.py GPUOCC"""
import os
import pty
import select
import subprocess
import sys
import time

from checks import check, finish

GPUOCC = sys.argv[1]
END = "from standard input (a terminal); end with Ctrl-D"
cases = [  # arguments, the line expected on stderr
    (["batch"], f"gpuocc batch: reading CSV {END}"),
    (["batch", "-", "--json"], f"gpuocc batch: reading CSV {END}"),
    (["ptxas", "--threads", "256"], f"gpuocc ptxas: reading ptxas -v reports {END}"),
    (["remarks", "--arch", "gfx942", "--threads", "256"], f"gpuocc remarks: reading LLVM's resource-usage remarks {END}"),
    (["binary", "-", "--threads", "256"], f"gpuocc binary: reading a binary {END}"),
]


def read_until(fd, want, seconds):
    """What fd gives within `seconds`, stopping once `want` is in it."""
    got, deadline = b"", time.monotonic() + seconds
    while want.encode() not in got and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        got += chunk
    return got.decode(errors="replace")


try:
    os.close(os.open(os.ttyname(pty.openpty()[1]), os.O_RDWR))
except OSError as e:  # a chroot or container without /dev/pts mounted
    print(f"skipped: no pseudo-terminal to test with ({e})")
    sys.exit(77)
for args, line in cases:
    master, slave = pty.openpty()
    err_r, err_w = os.pipe()
    p = subprocess.Popen([GPUOCC] + args, stdin=slave, stdout=subprocess.DEVNULL, stderr=err_w)
    os.close(slave)
    os.close(err_w)
    # nothing typed yet: the line must come while the command waits for input
    said = read_until(err_r, line, 10)
    check(f"{args[0]} on a terminal says so: {' '.join(args)}", said.splitlines()[:1] == [line], repr(said))
    check(f"{args[0]} still waits", p.poll() is None, p.returncode)
    os.write(master, b"\x04")  # Ctrl-D at the start of a line: end of input
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    check(f"{args[0]} ends at Ctrl-D", p.returncode is not None and p.returncode != -9, p.returncode)
    os.close(err_r)
    os.close(master)

    # from a pipe: no such line
    run = subprocess.run([GPUOCC] + args, input="", capture_output=True, text=True, timeout=30)
    check(f"{args[0]} from a pipe says nothing of a terminal", "terminal" not in run.stderr, run.stderr)

finish("test_cli_terminal")
