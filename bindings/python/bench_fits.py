#!/usr/bin/env python3
"""Speed of gpuocc.fits (meson test --benchmark): 10,000 configurations as array columns (and numpy columns
where this interpreter has numpy) against gpuocc.batch on the same columns in the same process (target: at most
3x), and as a list of dicts, the way a tuner holds them (a budget a person feels: at most 50 ms for the call
and every verdict).  Best of several runs each; the machine's load printed beside the figures."""
import array
import sys
import time

import gpuocc

N = 10_000
RATIO = 3.0
DICTS_MS = 50.0


def best(fn, runs=15):
    t = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def main() -> int:
    dev = gpuocc.device("H100")
    threads = array.array("i", [(i * 37) % 1024 + 1 for i in range(N)])
    regs = array.array("i", [(i * 7) % 256 for i in range(N)])
    smem = array.array("i", [(i * 1311) % 70000 for i in range(N)])
    failed = 0
    lines = []
    kinds = [("array", threads, regs, smem)]
    try:
        import numpy
        kinds.append(("numpy", numpy.asarray(threads, dtype=numpy.int32), numpy.asarray(regs, dtype=numpy.int32),
                      numpy.asarray(smem, dtype=numpy.int32)))
    except ImportError:
        lines.append("fits, numpy columns: numpy is not installed for this interpreter (not measured)")
    for kind, t, r, s in kinds:
        reference = best(lambda: gpuocc.batch(dev, t, r, smem_dynamic=s))
        call = best(lambda: gpuocc.fits({"threads": t, "regs": r, "smem_dynamic": s}, dev))
        verdicts = best(lambda: gpuocc.fits({"threads": t, "regs": r, "smem_dynamic": s}, dev).mask())
        ratio = call / reference
        failed += ratio > RATIO
        lines.append(f"fits, {N} configurations as {kind} columns: {call * 1e3:.2f} ms (with every verdict, mask(): "
                     f"{verdicts * 1e3:.2f} ms); gpuocc.batch on the same columns {reference * 1e3:.2f} ms: "
                     f"{ratio:.2f}x (target <= {RATIO:.0f}x: {'met' if ratio <= RATIO else 'NOT met'})")
    rows = [{"threads": threads[i], "regs": regs[i], "smem_dynamic": smem[i]} for i in range(N)]
    dicts = best(lambda: gpuocc.fits(rows, dev).mask(), runs=7)
    failed += dicts * 1e3 > DICTS_MS
    lines.append(f"fits, {N} configurations as a list of dicts, with every verdict: {dicts * 1e3:.1f} ms "
                 f"(budget <= {DICTS_MS:.0f} ms: {'met' if dicts * 1e3 <= DICTS_MS else 'NOT met'})")
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    for line in lines:
        print(line)
    print(f"load average {load}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
