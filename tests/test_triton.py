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
    # not the user's ~/.triton; FP fusion on, as Triton 3.9 defaults to it (it warns while it is unset)
    env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(build, "triton-test-cache"),
               TRITON_DEFAULT_FP_FUSION=os.environ.get("TRITON_DEFAULT_FP_FUSION", "1"))
    p = subprocess.run([python, __file__, "--inside", build], capture_output=True, text=True, timeout=1500, env=env)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr[-4000:])
    check("the checks inside the venv ran", p.returncode == 0 and "inside:" in p.stdout, p.returncode)


def inside() -> None:
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget

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

    matmul_autotune(triton, GPUTarget)

    # an AMD kernel after the compile: add for gfx942 (wave 64), 4 warps = 256 work-items, 4 waves a workgroup of
    # MI300X's 32 wave slots per CU (docs/amd.md): 8 workgroups, as tests/test_cli_tune.py derives for the same kernel
    from triton.compiler import ASTSource

    @triton.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)

    hip = triton.compile(ASTSource(fn=add, signature={"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32",
                                                      "BLOCK": "constexpr"}, constexprs={"BLOCK": 1024}),
                         target=GPUTarget("hip", "gfx942", 64), options={"num_warps": 4})
    row = gpuocc.triton.compiled_launch(hip, "MI300X")
    check("compiled_launch, AMD: the target's device by default", gpuocc.triton.compiled_launch(hip) == row)
    check("compiled_launch, AMD: the launch and the code object's registers",
          (row["threads"], row["wave_size"], row["regs"] > 0) == (256, 64, True), row)
    prune = gpuocc.triton.early_config_prune("MI300X", compiled=lambda cfg: hip)
    kept = prune([triton.Config({"BLOCK": 1024}, num_warps=4)], {})
    check("AMD after the compile: 8 workgroups", len(kept) == 1 and prune.last[0].blocks_per_sm == 8, list(prune.last))

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
        # read_binary(path), the Python reading of the same caches, gives the CLI's rows; a softmax too
        soft = os.path.join(tmp, "softmax")
        p = subprocess.run([sys.executable, os.path.join(here, "triton", "make_cache.py"), "--softmax", soft],
                           capture_output=True, text=True, timeout=900)
        check("make_cache.py --softmax ran", p.returncode == 0, p.stderr[-2000:])
        keys = ("name", "arch", "registers", "smem", "max_regs", "launch_threads", "tmem_columns", "smem_dynamic",
                "metadata", "virtual_resources")
        for folder in (os.path.join(tmp, name) for name in sorted(os.listdir(tmp))):
            q = subprocess.run([gpuocc_cli, "binary", folder, "--json"], capture_output=True, text=True)
            want = [{k: r[k] for k in keys} for r in json.loads(q.stdout or "[]")]
            read = gpuocc.read_binary(folder)
            got = [{k: getattr(x, k) for k in keys} for x in read]
            for row in got:
                if row["arch"] and row["arch"].startswith("gfx"):
                    row["max_regs"] = None  # an NVIDIA-only column: null on AMD rows
            check(f"read_binary({os.path.basename(folder)}): the CLI's rows", got == want and len(got) > 0
                  and read.problems == () and q.stderr == "", (got[:1], want[:1], read.problems, q.stderr))
            for x in read:  # the launch of Triton's own json: num_warps x the target's warp size, shared
                meta = json.load(open(x.metadata))
                check(f"{x.name} {x.arch}: the json's launch", (x.launch_threads, x.smem_dynamic) ==
                      (meta["num_warps"] * meta["target"]["warp_size"], meta["shared"]), x)
        softmax_rows = [x for x in gpuocc.read_binary(soft)]
        check("softmax: three targets", sorted(x.arch for x in softmax_rows) == ["sm_100a", "sm_120a", "sm_90a"],
              [x.arch for x in softmax_rows])
        # the hashes name the folders (and cover the venv's paths); the fixture's figures are Triton 3.9.0's
        if triton.__version__ == "3.9.0":
            check("gpuocc binary DIR: the same rows on the fresh compile", rows[0] == rows[1], (rows[0][:1], rows[1][:1]))
        else:
            print(f"inside: Triton {triton.__version__}, not 3.9.0: the fresh rows are not compared with the fixture's")
            check("the same kernels and launches", [(r["arch"], r["name"], r["threads"]) for r in rows[0]]
                  == [(r["arch"], r["name"], r["threads"]) for r in rows[1]])


# The devices' limits for one block (CUDA C++ Programming Guide, "Technical Specifications per Compute
# Capability"; docs/model.md): shared memory a block may opt in to (99 KiB on cc 12.0, 227 KiB on cc 9.0) and
# the register file of an SM (64 K 32-bit registers on both); registers are allocated per warp in units of 256
# (the CUDA Occupancy Calculator's allocation unit), and a block has at most 1,024 threads.
LIMITS = {"sm_120": {"smem_block": 99 * KIB, "regs_sm": 65536}, "H100": {"smem_block": 227 * KIB, "regs_sm": 65536}}
RESERVED_WINDOW = 1024  # the driver's reserved shared memory a linked sm_90+ cubin's shared section spans


def cuobjdump_resources(cubin: bytes, triton_dir: str) -> dict:
    """REG and SHARED of the cubin's one kernel, as the CUDA toolkit's cuobjdump --dump-resource-usage prints
    them (the toolkit's, else the copy Triton ships in triton/backends/nvidia/bin)."""
    import re
    import shutil
    import tempfile
    tool = shutil.which("cuobjdump", path="/usr/local/cuda/bin:" + os.environ.get("PATH", "")) or \
        os.path.join(triton_dir, "backends", "nvidia", "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run([tool, "--dump-resource-usage", f.name], capture_output=True, text=True, check=True).stdout
    found = re.findall(r"REG:(\d+) STACK:\d+ SHARED:(\d+)", out)
    assert len(found) == 1, out
    return {"regs": int(found[0][0]), "shared": int(found[0][1])}


def matmul_autotune(triton, GPUTarget) -> None:
    """examples/triton_matmul.py's 25 configurations of Triton's tutorial matmul, compiled for sm_120 and
    sm_90 (H100) without a GPU: the hook, called as Triton's autotuner calls it, keeps exactly the
    configurations whose compiled shared memory (Triton's metadata.shared) and registers (cuobjdump on the
    cubin) fit the device, by the limits above; before the compile (with the example's smem rule) and after
    it (from each compiled kernel)."""
    import gpuocc.triton
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "examples"))
    import triton_matmul as ex
    configs = ex.CONFIGS
    check("matmul: 20+ configurations", len(configs) >= 20, len(configs))
    for device, limits in LIMITS.items():
        target = ex.TARGETS[device]
        compiled = {id(cfg): ex.compile_config(cfg, target) for cfg in configs}
        shared = [compiled[id(cfg)].metadata.shared for cfg in configs]
        res = [cuobjdump_resources(compiled[id(cfg)].asm["cubin"], os.path.dirname(triton.__file__)) for cfg in configs]
        print(f"inside: {device}: metadata.shared {shared}; cuobjdump REG {[r['regs'] for r in res]}")
        check(f"matmul {device}: the example's pipeline rule is Triton's shared memory",
              [ex.pipeline_bytes(cfg, target.arch) for cfg in configs] == shared, shared)
        check(f"matmul {device}: no static shared memory beyond the reserved window",
              all(r["shared"] == RESERVED_WINDOW for r in res), res)
        regs_per_warp = [-(-r["regs"] * 32 // 256) * 256 for r in res]
        fits_smem = [s <= limits["smem_block"] for s in shared]
        fits_regs = [cfg.num_warps * w <= limits["regs_sm"] for cfg, w in zip(configs, regs_per_warp)]
        expect = [c for c, a, b in zip(configs, fits_smem, fits_regs) if a and b and c.num_warps * 32 <= 1024]
        check(f"matmul {device}: shared memory fits some, not all", 0 < sum(fits_smem) < len(configs), shared)
        # Triton declares .reqntid num_warps x 32, so ptxas fits the registers to the block: none is over
        check(f"matmul {device}: registers fit every one", all(fits_regs), res)
        for when, prune in (
                ("before the compile", gpuocc.triton.early_config_prune(device,
                                                                       smem=lambda cfg: ex.pipeline_bytes(cfg, target.arch))),
                ("after the compile", gpuocc.triton.early_config_prune(device, compiled=lambda cfg: compiled[id(cfg)]))):
            tuned = triton.autotune(configs=configs, key=["M", "N", "K"], prune_configs_by={"early_config_prune": prune})(ex.matmul)
            tuned.nargs = dict(zip(tuned.arg_names, [None] * len(tuned.arg_names)))
            kept = tuned.prune_configs({})  # Triton's call: early_config_prune(self.configs, self.nargs, **kwargs)
            check(f"matmul {device} {when}: kept exactly what fits", kept == expect,
                  ([configs.index(c) for c in kept], [configs.index(c) for c in expect]))
            check(f"matmul {device} {when}: the pruned say shared memory",
                  all(f.exceeded == "smem_dynamic" and f.exceeded_limit == limits["smem_block"]
                      for f in prune.last if not f), list(prune.last))
        check(f"matmul {device} after the compile: registers judged", all(f.regs_judged for f in prune.last))
        by_target = gpuocc.triton.early_config_prune(target, compiled=lambda cfg: compiled[id(cfg)])
        check(f"matmul {device}: the GPUTarget names a device of the same limits", by_target(configs, {}) == expect,
              by_target.device)
        # the example as a user runs it (its compiles are in the cache by now): the same verdicts before and after
        p = subprocess.run([sys.executable, os.path.join(here, "..", "examples", "triton_matmul.py"), device],
                           capture_output=True, text=True, timeout=900)
        check(f"examples/triton_matmul.py {device}", p.returncode == 0 and
              f"{device}: {len(expect)} of {len(configs)} configurations fit (the same before the compile)" in p.stdout,
              (p.stdout[:300], p.stderr[-1000:]))
        rows = [gpuocc.triton.compiled_launch(compiled[id(cfg)]) for cfg in configs]
        check(f"matmul {device}: static shared memory 0 (the window is not the kernel's)",
              all(r["smem_static"] == 0 for r in rows), rows[:1])
        check(f"matmul {device}: compiled_launch reads the binary's registers and the metadata's launch",
              [(r["regs"], r["smem_dynamic"], r["threads"]) for r in rows]
              == [(x["regs"], s, c.num_warps * 32) for x, s, c in zip(res, shared, configs)], rows[:2])


if __name__ == "__main__":
    if sys.argv[1] == "--inside":
        inside()
    else:
        outside()
    finish("triton")
