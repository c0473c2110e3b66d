#!/usr/bin/env python3
"""gpuocc.triton with the real Triton from PyPI: the module imports without Triton; then, in a venv under the
build folder with `triton` installed by this test (pip; .ci/run installs it there first), Triton's own
autotuner calls the hook (triton.autotune(..., prune_configs_by={"early_config_prune": fn}).prune_configs, the
call Triton makes) with real triton.Config objects, and kernels compiled by triton.compile for a named target
(no GPU) give the shared memory the hook judges.  Expected values come from the device's published limits
(docs/model.md) and from Triton's own compile, never from gpuocc.

    test_triton.py BUILD_DIR            (GPUOCC_LIBRARY and PYTHONPATH set by Meson)

Skipped (exit 77, saying why) when pip cannot install triton; .ci/run lists the suite in must_run, so there it
fails instead."""
import os
import subprocess
import sys

from checks import check, finish

KIB = 1024


def outside() -> None:
    build = sys.argv[1]
    # 1. gpuocc.triton imports where Triton cannot be imported at all
    code = ("import sys; sys.modules['triton'] = None\n"  # `import triton` raises ImportError from here on
            "import gpuocc.triton as t\n"
            "assert callable(t.early_config_prune(\"H100\"))\n"
            "print('imported without triton')")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    check("gpuocc.triton imports without Triton", p.returncode == 0 and "imported without triton" in p.stdout,
          p.stdout + p.stderr)
    # 2. the venv, made and filled here when it is not there yet
    venv = os.path.join(build, "triton-venv")
    python = os.path.join(venv, "bin", "python")
    has = lambda: os.path.exists(python) and subprocess.run([python, "-c", "import triton"],
                                                             capture_output=True).returncode == 0
    if not has():
        steps = [[sys.executable, "-m", "venv", venv], [python, "-m", "pip", "install", "-q", "triton"]]
        for step in steps:
            try:
                p = subprocess.run(step, capture_output=True, text=True, timeout=1500)
            except subprocess.TimeoutExpired:
                p = None
            if p is None or p.returncode != 0:
                reason = (p.stderr.strip().splitlines() or ["(no message)"])[-1] if p else "timed out"
                print(f"skipped: could not install triton into {venv} ({' '.join(step[2:4])}: {reason}); "
                      "run `python3 -m venv build/triton-venv && build/triton-venv/bin/pip install triton`, or "
                      "give the machine access to PyPI")
                sys.exit(77)
    env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(build, "triton-test-cache"))  # not the user's ~/.triton
    p = subprocess.run([python, __file__, "--inside", build], capture_output=True, text=True, timeout=1500, env=env)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr[-4000:])
    check("the checks inside the venv ran", p.returncode == 0 and "inside:" in p.stdout, p.returncode)


def inside() -> None:
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    import gpuocc
    import gpuocc.triton

    print(f"inside: triton {triton.__version__} from {os.path.dirname(triton.__file__)}")

    @triton.jit
    def copy(x, y, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

    # H100 (docs/model.md): 64 warp slots, 65,536 registers, 227 KiB of dynamic shared memory a block with the
    # opt-in, a 228 KiB carveout, 1 KiB reserved a block; clusters of up to 8 blocks (portable)
    configs = [
        triton.Config({"BLOCK": 1024}, num_warps=4, num_stages=3),              # 96 KiB: 2 blocks (2 x 97 <= 228)
        triton.Config({"BLOCK": 1024}, num_warps=4, num_stages=8),              # 256 KiB > 227 KiB: none
        triton.Config({"BLOCK": 1024}, num_warps=8, num_stages=2, maxnreg=255),  # 8 warps x 8192 = the file: 1
        triton.Config({"BLOCK": 1024}, num_warps=16, num_stages=2, maxnreg=255),  # 16 x 8192 > 65,536: none
        triton.Config({"BLOCK": 1024}, num_warps=4, num_stages=2, num_ctas=2),   # a legal cluster of 2
        triton.Config({"BLOCK": 1024}, num_warps=64, num_stages=1),             # 2048 threads: none
    ]
    prune = gpuocc.triton.early_config_prune("H100", smem=(0, 32 * KIB))
    tuned = triton.autotune(configs=configs, key=[], prune_configs_by={"early_config_prune": prune})(copy)
    tuned.nargs = dict(zip(tuned.arg_names, [None] * len(tuned.arg_names)))
    kept = tuned.prune_configs({})  # Triton's own call: early_config_prune(self.configs, self.nargs, **kwargs)
    check("Triton's autotuner keeps what fits, in order", kept == [configs[0], configs[2], configs[4]],
          [configs.index(c) for c in kept])
    last = prune.last
    check("blocks per SM", [f.blocks_per_sm for f in last] == [2, 0, 1, 0, 3, 0], [f.blocks_per_sm for f in last])
    check("maxnreg judged, its absence said", [f.regs_judged for f in last] == [False, False, True, True, False, False])
    check("the reasons", (last[1].exceeded, last[3].exceeded, last[5].exceeded) == ("smem_dynamic", "regs", "threads"),
          [f.exceeded for f in last])
    check("cluster", last[4].cluster == "legal" and last[4].clusters_max == 132 * 3 // 2, last[4])
    # min_occupancy: 2 blocks of 4 warps = 8 of 64 slots, below a quarter; 8 warps of one block too
    prune = gpuocc.triton.early_config_prune("H100", smem=(0, 32 * KIB), min_occupancy=0.25)
    check("min_occupancy", prune(configs, {}) == [], [f.occupancy for f in prune.last])
    # A100 has no clusters: the num_ctas=2 configuration goes
    prune = gpuocc.triton.early_config_prune("A100", smem=(0, 32 * KIB))
    kept = prune(configs[4:5], {})
    check("A100: no clusters", kept == [] and prune.last[0].cluster == "unsupported", prune.last[0])

    # compiled for sm_86 without a GPU: Triton's own shared-memory figure of each configuration, judged against
    # RTX 3090's 99 KiB of dynamic shared memory a block (opt-in; a 100 KiB carveout, 1 KiB reserved)
    @triton.jit
    def mm(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            acc += tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]), tl.load(b + (k + rk)[:, None] * BN + rn[None, :]))
        tl.store(c + rm[:, None] * BN + rn[None, :], acc)

    sig = {"a": "*fp16", "b": "*fp16", "c": "*fp32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    mm_configs = [triton.Config({"BM": 128, "BN": 256, "BK": 64}, num_warps=8, num_stages=3),
                  triton.Config({"BM": 256, "BN": 256, "BK": 128}, num_warps=8, num_stages=3),
                  triton.Config({"BM": 64, "BN": 64, "BK": 32}, num_warps=4, num_stages=2)]
    shared = {}
    for cfg in mm_configs:
        compiled = triton.compile(ASTSource(fn=mm, signature=sig, constexprs=dict(cfg.kwargs)),
                                  target=GPUTarget("cuda", 86, 32),
                                  options={"num_warps": cfg.num_warps, "num_stages": cfg.num_stages})
        shared[id(cfg)] = compiled.metadata.shared
    print("inside: compiled shared memory", [shared[id(c)] for c in mm_configs])
    prune = gpuocc.triton.early_config_prune("RTX 3090", smem=lambda cfg: shared[id(cfg)])
    kept = prune(mm_configs, {})
    expect = [c for c in mm_configs if shared[id(c)] <= 99 * KIB]
    check("compiled: kept where Triton's shared memory fits 99 KiB", kept == expect,
          [shared[id(c)] for c in mm_configs])
    check("compiled: both kinds met", 0 < len(expect) < len(mm_configs), [shared[id(c)] for c in mm_configs])
    check("compiled: the pruned say shared memory", all(f.exceeded == "smem_dynamic" for f in prune.last if not f),
          list(prune.last))

    # the Triton cache of tests/data/triton_cache compiled again (tests/triton/make_cache.py): the same hashes and
    # files, and gpuocc binary DIR gives the same rows on both
    import json
    import tempfile
    here = os.path.dirname(os.path.abspath(__file__))
    fixture = os.path.join(here, "data", "triton_cache")
    gpuocc_cli = os.path.join(sys.argv[2], "tools", "gpuocc")
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([sys.executable, os.path.join(here, "triton", "make_cache.py"), tmp], capture_output=True,
                           text=True, timeout=900)
        check("make_cache.py ran", p.returncode == 0, p.stderr[-2000:])
        rows = []
        for folder in (tmp, fixture):
            q = subprocess.run([gpuocc_cli, "binary", folder, "--json"], capture_output=True, text=True)
            got = [{k: v for k, v in r.items() if k not in ("file", "metadata")} for r in json.loads(q.stdout or "[]")]
            rows.append(sorted(got, key=lambda r: (r["arch"], r["name"], r["threads"])))
            check(f"gpuocc binary DIR pairs every kernel ({folder})", q.returncode == 0 and q.stderr == "" and len(got) == 5
                  and all(r["threads_from"] == "metadata" for r in got), q.stderr)
        # the hashes name the folders (and cover the venv's paths); the fixture's figures are Triton 3.9.0's
        if triton.__version__ == "3.9.0":
            check("gpuocc binary DIR: the same rows on the fresh compile", rows[0] == rows[1], (rows[0][:1], rows[1][:1]))
        else:
            print(f"inside: Triton {triton.__version__}, not 3.9.0: the fresh rows are not compared with the fixture's")
            check("the same kernels and launches", [(r["arch"], r["name"], r["threads"]) for r in rows[0]]
                  == [(r["arch"], r["name"], r["threads"]) for r in rows[1]])


if __name__ == "__main__":
    if sys.argv[1] == "--inside":
        inside()
    else:
        outside()
    finish("triton")
