#!/usr/bin/env python3
"""Speed of gpuocc.batch from array('i') inputs to array outputs (meson test --benchmark).  Prints the
configurations per second of the best of several runs (the first allocates the output arrays; later ones
reuse them with out=), the machine's load beside it, and whether the 5,000,000 per second target is met."""
import array
import os
import sys
import time

import gpuocc

TARGET = 5_000_000
N = 1_000_000


def main() -> int:
    # a deterministic spread of launches over the whole space (threads 1..1100, regs 0..259, smem 0..70000)
    threads = array.array("i", [(i * 37) % 1100 + 1 for i in range(N)])
    regs = array.array("i", [(i * 7) % 260 for i in range(N)])
    smem = array.array("i", [(i * 1311) % 70000 for i in range(N)])
    columns = gpuocc.batch("H100", threads, regs, smem_dynamic=smem)
    best = float("inf")
    for _ in range(7):
        t0 = time.perf_counter()
        columns = gpuocc.batch("H100", threads, regs, smem_dynamic=smem, out=columns)
        best = min(best, time.perf_counter() - t0)
    rate = N / best
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    verdict = "met" if rate >= TARGET else "NOT met"
    print(f"python batch: {N} configurations, best {best * 1e3:.1f} ms: {rate / 1e6:.2f} M configurations/s "
          f"(target >= {TARGET / 1e6:.0f} M/s: {verdict}); load average {load}")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
