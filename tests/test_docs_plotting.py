#!/usr/bin/env python3
"""docs/plotting.md's Python recipe runs as written against the built library: with matplotlib it writes
occupancy.png (an 800 x 900 PNG at its figsize and dpi), without it prints the numbers, whose first
points are the seeds' (A100, 256 threads: 16 registers 100 %) and the sweep's own.
Usage: test_docs_plotting.py DOCS_DIR (GPUOCC_LIBRARY and PYTHONPATH set by Meson)"""
import contextlib
import io
import os
import re
import struct
import sys
import tempfile

source = open(os.path.join(sys.argv[1], "plotting.md")).read()
code = re.findall(r"```python\n(.*?)```", source, re.S)[0]
failures = 0
with tempfile.TemporaryDirectory() as scratch:
    os.chdir(scratch)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/plotting.md", "exec"), {})
    try:
        import matplotlib  # noqa: F401
        png = open("occupancy.png", "rb").read()
        size = struct.unpack(">II", png[16:24])
        if png[:8] != b"\x89PNG\r\n\x1a\n" or size != (800, 900):
            failures += 1
            print("FAIL the recipe's PNG", size)
        print("docs-plotting: matplotlib present, occupancy.png", size)
    except ImportError:
        text = out.getvalue()
        if "regs [(0.0, 100.0), (1.0, 100.0)" not in text or "threads [(32.0, 14.0625)" not in text:
            failures += 1
            print("FAIL the recipe's printout", text[:300])
        print("docs-plotting: matplotlib absent, numbers printed")
print(f"docs-plotting: {1 - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
