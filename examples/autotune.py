#!/usr/bin/env python3
"""Prune an autotuner's configuration space by occupancy before timing anything.

A tiled matrix-multiply kernel has three knobs: the tile (BM x BN, each thread computing 8 x 8 outputs,
so threads = BM * BN / 64), the K-slice staged in shared memory (BK), and the register budget the
compiler is allowed (-maxrregcount).  Shared memory per block is (BM + BN) * BK * 4 bytes, double
buffered.  Timing every configuration costs minutes; the occupancy model costs microseconds, so:
drop every configuration that cannot launch, or leaves fewer than `min_warps` warps resident per SM to
hide latency, and time only the rest, best occupancy first.

Run: python3 examples/autotune.py [DEVICE]   (needs the gpuocc module and library: see docs/python.md)"""
import dataclasses
import itertools
import sys

import gpuocc


@dataclasses.dataclass(frozen=True)
class Config:
    bm: int
    bn: int
    bk: int
    regs: int

    @property
    def threads(self) -> int:
        return self.bm * self.bn // 64

    @property
    def smem_dynamic(self) -> int:
        return 2 * (self.bm + self.bn) * self.bk * 4   # float tiles, double buffered


def prune(device_name: str, min_warps: int = 16) -> list:
    dev = gpuocc.device(device_name)
    space = [Config(bm, bn, bk, regs)
             for bm, bn, bk, regs in itertools.product((64, 128, 256), (64, 128, 256), (8, 16, 32, 64),
                                                        (64, 96, 128, 168, 255))]
    kept = []
    for cfg in space:
        if not 32 <= cfg.threads <= dev.max_threads_per_block:
            continue
        r = gpuocc.occupancy(dev, gpuocc.kernel(threads=cfg.threads, regs=cfg.regs, smem_dynamic=cfg.smem_dynamic))
        if r.warps_per_sm >= min_warps:
            kept.append((cfg, r))
    kept.sort(key=lambda item: (-item[1].occupancy, item[0].regs))
    print(f"{device_name}: {len(kept)} of {len(space)} configurations worth timing (>= {min_warps} warps/SM)")
    for cfg, r in kept[:5]:
        print(f"  BM={cfg.bm:3} BN={cfg.bn:3} BK={cfg.bk:2} regs={cfg.regs:3}: {cfg.threads:4} threads, "
              f"{cfg.smem_dynamic // 1024:3} KiB, {r.blocks_per_sm} blocks/SM, {r.occupancy:.0%}, "
              f"limited by {', '.join(r.limiters)}")
    return kept


if __name__ == "__main__":
    prune(sys.argv[1] if len(sys.argv) > 1 else "A100")
