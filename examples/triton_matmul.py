#!/usr/bin/env python3
"""Prune a real Triton matmul's autotuner configurations with gpuocc.triton, before and after the compile.

The kernel is the blocked fp16 matmul of Triton's tutorial; the 24 configurations vary the tile (BM x BN),
the K-slice (BK), num_warps and num_stages.  Triton's software pipeliner keeps num_stages K-slices of A and B
in shared memory on sm_90 (num_stages - 1 on sm_120), so the deep and wide ones need more than a consumer
Blackwell's 99 KiB or an H100's 227 KiB a block: on a GPU they fail at launch with
`OutOfResources: Required: 131072, Hardware limit: 101376`, after being compiled for nothing.

Two hooks, for `triton.autotune(..., prune_configs_by={"early_config_prune": prune})`:
  before the compile: gpuocc.triton.early_config_prune(device, smem=rule), where rule(config) gives the
                      shared memory a configuration will need (here: the pipeline's buffers);
  after the compile:  gpuocc.triton.early_config_prune(device, compiled=get), where get(config) gives the
                      kernel triton.compile made of it: the shared memory from its metadata, the registers
                      from its own cubin.
No GPU is needed: triton.compile builds for a named target (GPUTarget).

Run: python3 examples/triton_matmul.py [sm_120|H100 ...]   (needs `pip install triton` and the gpuocc
module and library: see docs/python.md)"""
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import gpuocc
import gpuocc.triton


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def C(bm, bn, bk, warps, stages, **extra):  # noqa: N802 (a short name for the table below)
    return triton.Config({"BM": bm, "BN": bn, "BK": bk}, num_warps=warps, num_stages=stages, **extra)


CONFIGS = [
    C(64, 64, 32, 4, 2), C(64, 64, 64, 2, 2), C(64, 64, 64, 4, 3), C(64, 128, 32, 4, 3), C(64, 128, 64, 4, 4),
    C(128, 64, 64, 4, 3, maxnreg=128), C(128, 128, 32, 4, 3), C(128, 128, 32, 8, 4), C(128, 128, 64, 4, 2),
    C(128, 128, 64, 4, 3), C(128, 128, 64, 8, 4, maxnreg=255), C(128, 128, 64, 8, 5), C(128, 128, 128, 8, 3),
    C(128, 128, 128, 8, 4), C(128, 256, 64, 8, 3), C(128, 256, 64, 8, 4), C(128, 256, 64, 8, 5),
    C(256, 128, 64, 8, 3), C(256, 128, 32, 8, 6), C(256, 256, 32, 8, 3), C(256, 256, 64, 8, 3),
    C(256, 256, 64, 8, 4), C(64, 256, 32, 4, 6), C(256, 64, 64, 4, 4), C(128, 128, 32, 16, 4),
]

# the launcher's arguments: fp16 matrices, row-major (unit strides as constants), pointers and leading
# dimensions 16-byte aligned as Triton specialises them when the tensors are (what lets the pipeliner use
# cp.async: without the alignment no load is pipelined and num_stages changes nothing)
SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
             "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
             "stride_cm": "i32", "stride_cn": "constexpr", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
ALIGNED = {(matmul.arg_names.index(name),): [["tt.divisibility", 16]]
           for name in ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm")}
# the device gpuocc judges -> the target Triton compiles for
TARGETS = {"sm_120": GPUTarget("cuda", 120, 32), "H100": GPUTarget("cuda", 90, 32)}


def compile_config(config, target):
    """triton.compile for one configuration and a named target: what the autotuner would launch."""
    constexprs = dict(config.kwargs, stride_ak=1, stride_bn=1, stride_cn=1)
    options = {"num_warps": config.num_warps, "num_stages": config.num_stages}
    if config.maxnreg is not None:
        options["maxnreg"] = config.maxnreg
    return triton.compile(ASTSource(fn=matmul, signature=SIGNATURE, constexprs=constexprs, attrs=ALIGNED),
                          target=target, options=options)


def pipeline_bytes(config, arch):
    """The shared memory the pipeline's buffers take, before anything is compiled: a BM x BK slice of A and a
    BK x BN slice of B (fp16) per stage; Triton keeps num_stages of them where tl.dot becomes wgmma (sm_90, a
    warpgroup of 4 warps or more), num_stages - 1 where it becomes mma.sync (sm_120; sm_90 with 2 warps)
    (measured: compile_config's metadata.shared for every configuration above, Triton 3.9.0)."""
    bm, bn, bk = config.kwargs["BM"], config.kwargs["BN"], config.kwargs["BK"]
    wgmma = arch == 90 and config.num_warps >= 4
    stages = config.num_stages if wgmma else max(config.num_stages - 1, 1)
    return stages * (bm * bk + bk * bn) * 2


def main(devices):
    for name in devices:
        target = TARGETS[name]
        before = gpuocc.triton.early_config_prune(name, smem=lambda cfg: pipeline_bytes(cfg, target.arch))
        compiled = {id(cfg): compile_config(cfg, target) for cfg in CONFIGS}
        after = gpuocc.triton.early_config_prune(name, compiled=lambda cfg: compiled[id(cfg)])
        # as Triton calls it: triton.autotune(configs=CONFIGS, key=[...], prune_configs_by={"early_config_prune":
        # after})(matmul); its Autotuner.prune_configs calls after(CONFIGS, named_args)
        kept_before, kept_after = before(CONFIGS, {}), after(CONFIGS, {})
        print(f"{name}: {len(kept_after)} of {len(CONFIGS)} configurations fit "
              f"({'the same' if kept_before == kept_after else 'not the same'} before the compile)")
        for cfg, fit in zip(CONFIGS, after.last):
            k = compiled[id(cfg)].metadata
            why = f"{fit.blocks_per_sm} block(s)/SM, {fit.occupancy:.0%}" if fit else f"over the {fit.exceeded} limit"
            print(f"  BM={cfg.kwargs['BM']:3} BN={cfg.kwargs['BN']:3} BK={cfg.kwargs['BK']:3} warps={cfg.num_warps:2} "
                  f"stages={cfg.num_stages}: {k.shared:6} B shared: {why}")


if __name__ == "__main__":
    main(sys.argv[1:] or list(TARGETS))
