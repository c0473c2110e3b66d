#!/usr/bin/env python3
"""Fill a Triton cache by compiling real kernels with triton.compile for named targets (no GPU needed):
    make_cache.py CACHE_DIR            the kernels of tests/data/triton_cache
    make_cache.py --softmax CACHE_DIR  Triton's tutorial softmax for sm_90, sm_100 and sm_120 instead
run with an interpreter that has `triton` (tests/test_triton.py runs it in its venv).  tests/data/triton_cache
holds what Triton 3.9.0 wrote for the first kernels (the .json, __grp__ manifest and binary of each, and every
intermediate of `add`), read by tests/test_cli_tune.py; the triton suite compiles them again and compares."""
import os
import sys

os.environ["TRITON_CACHE_DIR"] = os.path.abspath(sys.argv[-1])
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def mm(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]), tl.load(b + (k + rk)[:, None] * BN + rn[None, :]))
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def softmax(out, inp, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(inp + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out + row * out_stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


ADD = {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32", "BLOCK": "constexpr"}
MM = {"a": "*fp16", "b": "*fp16", "c": "*fp32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
# (kernel, signature, constexprs, target (backend, arch, warp size), options)
KERNELS = [
    (add, ADD, {"BLOCK": 1024}, ("cuda", 80, 32), {"num_warps": 4}),
    (add, ADD, {"BLOCK": 512}, ("cuda", 90, 32), {"num_warps": 8, "maxnreg": 128}),
    (mm, MM, {"BM": 128, "BN": 128, "BK": 64}, ("cuda", 90, 32), {"num_warps": 8, "num_stages": 3}),
    (mm, MM, {"BM": 128, "BN": 128, "BK": 64}, ("cuda", 100, 32), {"num_warps": 4, "num_stages": 3}),
    (add, ADD, {"BLOCK": 1024}, ("hip", "gfx942", 64), {"num_warps": 4}),
]

SOFTMAX = {"out": "*fp32", "inp": "*fp32", "in_stride": "i32", "out_stride": "i32", "n_cols": "i32", "BLOCK": "constexpr"}
SOFTMAX_KERNELS = [
    (softmax, SOFTMAX, {"BLOCK": 1024}, ("cuda", 90, 32), {"num_warps": 4}),
    (softmax, SOFTMAX, {"BLOCK": 4096}, ("cuda", 100, 32), {"num_warps": 16}),
    (softmax, SOFTMAX, {"BLOCK": 2048}, ("cuda", 120, 32), {"num_warps": 8}),
]

if __name__ == "__main__":
    for fn, sig, constexprs, target, options in SOFTMAX_KERNELS if "--softmax" in sys.argv else KERNELS:
        k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constexprs), target=GPUTarget(*target),
                           options=options)
        m = k.metadata
        print(f"{m.name} {target[0]} {target[1]}: hash {m.hash[:12]} num_warps {m.num_warps} num_ctas {m.num_ctas} maxnreg "
              f"{getattr(m, 'maxnreg', None)} shared {m.shared} tmem_size {getattr(m, 'tmem_size', 0)}")
