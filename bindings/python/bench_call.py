#!/usr/bin/env python3
"""Speed of gpuocc's per-call Python functions (meson test --benchmark), as ratios against a hand-written
pure-Python formula for the same A100 launch in the same process: occupancy() with a reused Device and
Kernel (target <= 3x), occupancy() by device name (<= 6x), batch() of one launch (<= 20x), kernel() (<= 4x).
Each side is timed in interleaved repetitions; the ratio is the median of the repetitions' ratios.  Prints
the ratio, the target and the load average; fails when a target is missed."""
import array
import os
import sys
import time

import gpuocc

REPS, CALLS = 15, 2000


def a100_by_hand(threads, regs, smem):
    """The A100 rules written out (65536 registers in 4 sub-partitions, 256-register units, 64 warp slots,
    32 blocks, 164 KiB of shared memory with 1 KiB reserved a block, 128-byte units), returning what a
    Result carries: blocks, warps, occupancy, limiters and every limit, registers and shared memory per block."""
    wpb = (threads + 31) // 32
    per_warp = (regs * 32 + 255) // 256 * 256
    limit_warps = 64 // wpb
    limit_regs = (16384 // per_warp) * 4 // wpb if per_warp else None
    alloc = (smem + 1024 + 127) // 128 * 128
    limit_smem = 167936 // alloc
    limits = (limit_warps, limit_regs if limit_regs is not None else 1 << 31, limit_smem, 32)
    blocks = min(limits)
    limiters = tuple(name for name, v in zip(("warps", "registers", "shared_memory", "blocks"), limits) if v == blocks)
    return {"blocks_per_sm": blocks, "warps_per_sm": blocks * wpb, "occupancy": blocks * wpb / 64,
            "limiters": limiters, "limit_warps": limit_warps, "limit_regs": limit_regs, "limit_smem": limit_smem,
            "limit_blocks": 32, "regs_per_block": per_warp * wpb, "smem_per_block": alloc}


def a100_blocks_only(threads, regs, smem):
    """The bare minimum of the same rules: blocks per SM and occupancy, no limiters, no limits kept."""
    wpb = (threads + 31) // 32
    per_warp = (regs * 32 + 255) // 256 * 256
    blocks = min(64 // wpb, (16384 // per_warp) * 4 // wpb if per_warp else 32,
                 167936 // ((smem + 1024 + 127) // 128 * 128), 32)
    return blocks, blocks * wpb / 64


def timed(fn):
    t0 = time.perf_counter()
    for _ in range(CALLS):
        fn()
    return (time.perf_counter() - t0) / CALLS


def median(values):
    return sorted(values)[len(values) // 2]


def ratio(ours, reference):
    """Median over interleaved repetitions of ours / reference, and each side's median time."""
    ours(), reference()
    rs, a, b = [], [], []
    for _ in range(REPS):
        x, y = timed(ours), timed(reference)
        rs.append(x / y), a.append(x), b.append(y)
    return median(rs), median(a), median(b)


def main() -> int:
    dev, kern = gpuocc.device("A100"), gpuocc.kernel(threads=256, regs=64)
    want = a100_by_hand(256, 64, 0)
    got = gpuocc.occupancy(dev, kern)
    assert all(getattr(got, k) == v for k, v in want.items()), (got, want)  # the reference answers the same
    threads, regs = array.array("i", [256]), array.array("i", [64])
    hand = lambda: a100_by_hand(256, 64, 0)  # noqa: E731
    rows = [("occupancy(dev, kern), reused Device and Kernel", lambda: gpuocc.occupancy(dev, kern), 3.0),
            ("occupancy('A100', kern), by name", lambda: gpuocc.occupancy("A100", kern), 6.0),
            ("batch(dev, threads, regs), one launch", lambda: gpuocc.batch(dev, threads, regs), 20.0),
            ("kernel(threads=256, regs=64)", lambda: gpuocc.kernel(threads=256, regs=64), 4.0),
            ("best_block(dev, kern)", lambda: gpuocc.best_block(dev, kern), None),
            ("next_step(dev, kern, 'registers')", lambda: gpuocc.next_step(dev, kern, "registers"), None)]
    missed = 0
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"python per call, against a hand-written A100 formula in Python (load average {load}; medians of "
          f"{REPS} interleaved repetitions of {CALLS} calls)")
    for name, fn, target in rows:
        r, ours, theirs = ratio(fn, hand)
        met = target is None or r <= target
        missed += not met
        verdict = "" if target is None else f"target <= {target:.0f}x {'met' if met else 'NOT met'}"
        print(f"  {name:50s} {ours * 1e6:7.2f} us  hand {theirs * 1e6:5.2f} us  {r:6.2f}x  {verdict}")
    bare, _, t_bare = ratio(lambda: gpuocc.occupancy(dev, kern), lambda: a100_blocks_only(256, 64, 0))
    print(f"  (for scale: occupancy(dev, kern) is {bare:.2f}x a formula of blocks and occupancy alone, "
          f"{t_bare * 1e6:.2f} us; the targets above are against the formula of every field a Result carries)")
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
