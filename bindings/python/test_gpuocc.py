#!/usr/bin/env python3
"""The Python module against the freshly built library (GPUOCC_LIBRARY) and the captured fixtures
(GPUOCC_TEST_DATA).  Expected values are derived by hand from the allocation rules (A100: 65536
registers per SM in 4 sub-partitions, 256-register warp allocation unit, 164 KiB shared memory per SM
with 1 KiB reserved per block), the seeds, the models' formulas or the captured ptxas output."""
import dataclasses
import json
import math
import random
import shutil
import struct
import tempfile
import os
import subprocess
import sys
import unittest
import warnings

import gpuocc

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("GPUOCC_TEST_DATA", os.path.join(HERE, "..", "..", "tests", "data"))
KIB = 1024


class Coverage(unittest.TestCase):
    def test_every_exported_symbol_is_wrapped(self):
        with open(os.path.join(DATA, "symbols.txt")) as f:
            exported = {line.strip() for line in f if line.strip()}
        missing = exported - set(gpuocc._SIGNATURES)
        self.assertFalse(missing, f"exported but not wrapped by gpuocc.py: {sorted(missing)}")

    def test_public_names_exist_and_are_documented(self):
        for name in gpuocc.__all__:
            obj = getattr(gpuocc, name)
            if callable(obj) and not isinstance(obj, type):
                self.assertTrue(obj.__doc__ and len(obj.__doc__) > 20, name)
        self.assertIn("blocks", gpuocc.occupancy.__doc__)

    def test_struct_sizes_match_the_frozen_c_layouts(self):
        import ctypes
        # lib/core/structs.c static-asserts these sizes
        self.assertEqual(ctypes.sizeof(gpuocc._CDevice), 400)  # 232 before Intel's tail, 384 before NVIDIA's,
        self.assertEqual(gpuocc._CDevice.tmem_columns_per_sm.offset, 392)
        self.assertEqual(gpuocc._CKernel.tmem_columns.offset, 104)  # a new tail, not reserved words
        self.assertEqual(gpuocc._CKernel.dvgpr.offset, 108)
        self.assertEqual(gpuocc._CDevice.xves_per_xecore.offset, 232)
        self.assertEqual(gpuocc._CDevice.virtual_resources_per_sm.offset, 384)
        self.assertEqual(ctypes.sizeof(gpuocc._CKernel), 128)  # 88 before sub_group and grf, 96 before virtual, 104 before tmem
        self.assertEqual(gpuocc._CKernel.trap_handler.offset, 112)  # 112 before AMD's compiler inputs
        self.assertEqual(gpuocc._CKernel.flat_workgroup_size_min.offset, 124)
        self.assertEqual(gpuocc._CDevice.barriers_per_block_max.offset, 388)
        self.assertEqual(gpuocc._CKernel.sub_group.offset, 88)
        self.assertEqual(gpuocc._CKernel.virtual_resources.offset, 96)
        self.assertEqual(ctypes.sizeof(gpuocc._CResult), 136)  # 104 before workgroups_per_gpu, 112 before virtual,
        # 120 before exceeded
        self.assertEqual(gpuocc._CResult.workgroups_per_gpu.offset, 104)
        self.assertEqual(gpuocc._CResult.limit_virtual_resources.offset, 112)
        self.assertEqual(ctypes.sizeof(gpuocc._CSweepPoint), 72)  # lib/api/sweep.c
        self.assertEqual(ctypes.sizeof(gpuocc._CCluster), 48)  # lib/api/clusters.c
        self.assertEqual(gpuocc._CCluster.grid_x.offset, 24)
        self.assertEqual(ctypes.sizeof(gpuocc._CGpcLayout), 152)
        self.assertEqual(ctypes.sizeof(gpuocc._CClusterResult), 48)
        self.assertEqual(gpuocc._CClusterResult.clusters_min.offset, 32)
        self.assertEqual(ctypes.sizeof(gpuocc._CCompiledKernel), 144)
        self.assertEqual(gpuocc._CCompiledKernel.max_threads_per_block.offset, 96)
        self.assertEqual(gpuocc._CCompiledKernel.arch_variant.offset, 124)  # 1.0's reserved0

    def test_versions_agree(self):
        self.assertRegex(gpuocc.version(), r"^\d+\.\d+\.\d+$")
        self.assertEqual(gpuocc.__version__, gpuocc.version())
        major, minor, patch = map(int, gpuocc.version().split("."))
        self.assertEqual(gpuocc.version_number(), major * 10000 + minor * 100 + patch)


class Occupancy(unittest.TestCase):
    def test_a100_registers(self):
        # 64 regs x 32 lanes = 2048 per warp; 16384 per sub-partition / 2048 = 8 warps; x4 = 32 warps = 4 blocks
        r = gpuocc.occupancy(gpuocc.device("A100"), gpuocc.kernel(threads=256, regs=64))
        self.assertEqual((r.blocks_per_sm, r.warps_per_sm, r.occupancy), (4, 32, 0.5))
        self.assertEqual(r.limiters, ("registers",))
        self.assertEqual(r.limit_regs, 4)
        self.assertEqual(r.limit_warps, 8)               # 64 warp slots / 8 warps
        self.assertEqual(r.limit_smem, 164)              # no shared memory but 1 KiB reserved a block: 164 KiB / 1 KiB
        self.assertIsNone(r.limit_barriers)              # barriers are modelled from cc 9.0
        self.assertEqual(r.regs_per_block, 16384)
        # AMD's fields are None on NVIDIA, as `gpuocc report --json` writes null
        self.assertEqual((r.model, r.waves_per_simd, r.limit_sgprs), (None, None, None))
        # and AMD-only inputs are refused for an NVIDIA device, as `gpuocc report --arch H100 --model runtime`
        # and a batch row refuse them (NVIDIA's rules would not read them), by every call that takes a kernel
        for amd in (dict(model="runtime"), dict(model="compiler"), dict(agprs=4), dict(sgprs=32), dict(wave_size=32),
                    dict(cu_mode=1), dict(model="runtime", rocm="6.2"), dict(model="llvm19"), dict(trap_handler=-1),
                    dict(waves_per_eu_min=2), dict(waves_per_eu_max=4), dict(flat_workgroup_size_min=64)):
            k = gpuocc.kernel(threads=256, regs=64, **amd)
            for call in (lambda: gpuocc.occupancy("A100", k), lambda: gpuocc.limits("H100", k),
                         lambda: gpuocc.sweep("A100", k, "regs"), lambda: gpuocc.batch("A100", [256], [64], kern=k),
                         lambda: gpuocc.best_block("A100", k)):
                with self.assertRaises(gpuocc.Error, msg=amd) as e:
                    call()
                self.assertEqual(e.exception.name, "argument")
                self.assertIn("AMD only", str(e.exception))
        # the same kernel on an AMD device is an answer
        self.assertEqual(gpuocc.occupancy("MI300X", gpuocc.kernel(threads=256, regs=64, model="runtime")).model,
                         "runtime")

    def test_optin_is_on_by_default(self):
        # 64 KiB + 1 KiB reserved = 65 KiB a block; 164 KiB / 65 KiB = 2 blocks (opt-in on)
        k = gpuocc.kernel(threads=256, smem_dynamic=64 * KIB)
        r = gpuocc.occupancy("A100", k)
        self.assertEqual(r.blocks_per_sm, 2)
        self.assertEqual(r.smem_per_block, 65 * KIB)
        # without opt-in the 48 KiB per-block limit refuses the launch
        r = gpuocc.occupancy("A100", dataclasses.replace(k, smem_optin=False))
        self.assertEqual(r.blocks_per_sm, 0)

    def test_limits_per_resource(self):
        # H100: 2048 threads / 256 = 8 by warps; 32 block slots; 40 KiB + 1 KiB reserved = 41 KiB a block,
        # 228 KiB / 41 KiB = 5 by shared memory
        lim = gpuocc.limits(gpuocc.device("H100"), gpuocc.kernel(threads=256, regs=32, smem_dynamic=40 * KIB))
        self.assertEqual((lim.warps, lim.blocks, lim.shared_memory), (8, 32, 5))
        lim = gpuocc.limits("sm_80", gpuocc.kernel(threads=128, regs=0))
        self.assertIsNone(lim.registers)

    def test_granularity(self):
        a100 = gpuocc.device("A100")
        self.assertEqual(gpuocc.regs_per_warp(a100, 49), 1792)            # 1568 rounded up to 256
        self.assertEqual(gpuocc.regs_per_block(a100, 256, 64), 8 * 2048)
        self.assertEqual(gpuocc.smem_per_block(a100, 0, 64 * KIB), 65 * KIB)
        # the default preference is the largest carveout, 164 KiB
        self.assertEqual(gpuocc.smem_carveout(a100, gpuocc.kernel(threads=256, smem_dynamic=64 * KIB)), 164 * KIB)

    def test_inverse_queries(self):
        dev = gpuocc.device("A100")
        # 4 blocks of 256 threads: 16384 / (8 warps) = 2048 registers a warp -> 64 per thread
        self.assertEqual(gpuocc.regs_max_for_blocks(dev, gpuocc.kernel(threads=256), 4), 64)
        # 2 blocks: 164 KiB / 2 = 82 KiB each, less 1 KiB reserved = 81 KiB dynamic
        self.assertEqual(gpuocc.smem_dynamic_available(dev, gpuocc.kernel(threads=256), 2), 81 * KIB)
        # pipeline stages within those 81 KiB: 16 KiB each, 5; after an 8 KiB base, 4 (5 would be 88 KiB)
        self.assertEqual(gpuocc.max_stages(dev, gpuocc.kernel(threads=256), 2, stage_bytes=16 * KIB), 5)
        self.assertEqual(gpuocc.max_stages(dev, gpuocc.kernel(threads=256), 2, stage_bytes=16 * KIB,
                                           base_bytes=8 * KIB), 4)
        # one block (the default) on H100: the 227 KiB opt-in limit holds 7 stages of 32 KiB
        self.assertEqual(gpuocc.max_stages("H100", gpuocc.kernel(threads=256), stage_bytes=32 * KIB), 7)
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.max_stages(dev, gpuocc.kernel(threads=256), 2, stage_bytes=KIB, base_bytes=82 * KIB)
        self.assertEqual(e.exception.name, "unsatisfiable")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.max_stages(dev, gpuocc.kernel(threads=256), 2, stage_bytes=0)
        self.assertEqual(e.exception.name, "argument")
        best = gpuocc.best_block(dev, gpuocc.kernel(threads=1, regs=32))
        self.assertEqual(best, gpuocc.BestBlock(threads=1024, min_grid=2 * 108))  # 2 blocks of 1024 x 108 SMs
        self.assertEqual(gpuocc.best_block(dev, gpuocc.kernel(threads=1, regs=32), smem_fn=lambda t: 0), best)
        self.assertEqual(gpuocc.best_block(dev, gpuocc.kernel(threads=1, regs=32), smem_table=[0] * 1025), best)
        with self.assertRaises(ZeroDivisionError):
            gpuocc.best_block(dev, gpuocc.kernel(threads=1), smem_fn=lambda t: 1 // 0)

    def test_next_step(self):
        # 5 blocks of 8 warps = 10 warps per sub-partition: 16384 / 10 = 1638 -> 1536 a warp -> 48 regs
        step = gpuocc.next_step("A100", gpuocc.kernel(threads=256, regs=64), "registers")
        self.assertEqual(step, gpuocc.NextStep("registers", 48, 16))
        self.assertIsNone(gpuocc.next_step("A100", gpuocc.kernel(threads=32, regs=0), "blocks"))

    def test_next_steps_hold(self):
        # the README's example ties registers and shared memory at 4 (docs/model.md): one joint step, 5 blocks
        # (65536 / 5 / 8 = 1638 -> 1536 a warp -> 48 regs; 233472 / 5 = 46694 -> 46592 = 45568 + 1 KiB reserved)
        k = gpuocc.kernel(threads=256, regs=64, smem_dynamic=48 * 1024)
        self.assertEqual(gpuocc.next_steps("H100", k), [
            gpuocc.Step("registers", 48, 16, 5, (gpuocc.StepChange("shared_memory", 45568, 3584),))])
        # every step, applied alone, gives its count
        fields = {"warps": "threads", "registers": "regs", "barriers": "barriers", "sgprs": "sgprs", "agprs": "agprs"}
        rng = random.Random(22)
        for name in ("H100", "A100", "T4", "MI300X", "RX 7900 XTX", "MI50"):
            amd = gpuocc.device(name).vendor == 2
            for _ in range(60):
                kw = dict(threads=rng.randint(1, 1024), regs=rng.randint(0, 200), smem_dynamic=rng.randint(0, 65536))
                if amd and name == "MI300X":
                    kw["agprs"] = rng.randint(0, 128)
                k = gpuocc.kernel(**kw)
                for step in gpuocc.next_steps(name, k):
                    applied = k
                    for c in (step,) + step.also:
                        if c.resource == "shared_memory":
                            static = min(applied.smem_static, c.new_value)
                            applied = dataclasses.replace(applied, smem_static=static,
                                                          smem_dynamic=c.new_value - static)
                        else:
                            applied = dataclasses.replace(applied, **{fields[c.resource]: c.new_value})
                    self.assertEqual(gpuocc.occupancy(name, applied).blocks_per_sm, step.blocks_per_sm, (name, k, step))

    def test_tradeoff_staircase(self):
        # caps below 64 that change blocks/SM: 48 -> 5 blocks, 40 (1280 a warp, 12 warps a quarter) -> 6,
        # 32 -> 8 (then warp slots limit); slowdown (1000 + shed x 1 x 10) / 1000
        steps = gpuocc.tradeoff("A100", gpuocc.kernel(threads=256, regs=64), 1000, 1, 10)
        self.assertEqual([(s.regs, s.regs_shed, s.blocks_per_sm) for s in steps], [(48, 16, 5), (40, 24, 6), (32, 32, 8)])
        self.assertEqual([s.occupancy for s in steps], [0.625, 0.75, 1.0])
        for s in steps:
            self.assertAlmostEqual(s.spill_slowdown, (1000 + s.regs_shed * 10) / 1000)

    def test_device_table(self):
        table = gpuocc.devices()
        # 20 compute capabilities 5.0 .. 12.1 and 49 AMD targets, gfx600 on (docs/sources.md), every entry sourced,
        # each name resolvable
        self.assertEqual(sum(1 for e in table if e.kind == "arch" and e.name.startswith("sm_")), 20)
        self.assertEqual(sum(1 for e in table if e.kind == "arch" and e.name.startswith("gfx")), 49)
        self.assertIn("sm_90", [e.name for e in table])
        self.assertTrue(all(e.source for e in table))
        for e in table:
            self.assertEqual(gpuocc.catalog_device(e.index), gpuocc.device(e.name))

    def test_devices_by_hand(self):
        h100 = gpuocc.device("H100")
        self.assertEqual(h100.sm_count, 132)
        self.assertEqual(h100.carveouts_kib[-1], 228)
        smaller = dataclasses.replace(h100, sm_count=100)
        gpuocc.validate_device(smaller)
        self.assertEqual(gpuocc.best_block(smaller, gpuocc.kernel(threads=1, regs=32)).min_grid, 2 * 100)
        fields = {f.name: getattr(h100, f.name) for f in dataclasses.fields(h100)}
        self.assertEqual(gpuocc.custom_device(**fields), h100)
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.validate_device(dataclasses.replace(h100, warp_size=0))
        self.assertEqual(e.exception.name, "device")


    def test_launches_that_cannot_run(self):
        # 17 barriers (PTX ids 0..15) and 64 KiB static (the static limit is 48 KiB) are errors;
        # on base 0938ac9 both were answered (3 blocks each on H100)
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy("H100", gpuocc.kernel(threads=256, regs=32, barriers=17))
        self.assertEqual(e.exception.name, "exceeded")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy("H100", gpuocc.kernel(threads=256, regs=32, smem_static=64 * 1024))
        self.assertEqual(e.exception.name, "exceeded")
        self.assertEqual(gpuocc.occupancy("H100", gpuocc.kernel(threads=256, regs=32, barriers=16)).blocks_per_sm, 4)
        h100 = gpuocc.device("H100")
        self.assertEqual(h100.barriers_per_block_max, 0)  # 0: the architecture's 16
        eight = dataclasses.replace(h100, barriers_per_block_max=8)
        self.assertEqual(gpuocc.occupancy(eight, gpuocc.kernel(threads=256, regs=32, barriers=8)).blocks_per_sm, 8)
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy(eight, gpuocc.kernel(threads=256, regs=32, barriers=9))
        self.assertEqual(e.exception.name, "exceeded")
        self.assertEqual((e.exception.exceeded, e.exception.exceeded_limit), ("barriers", 8))

    def test_the_exceeded_limit_is_named(self):
        # the field over a limit and the limit's value, named as `gpuocc report --json` and `gpuocc
        # batch` name them (exceeded, exceeded_limit).  H100 (deviceQuery, docs/sources.md): 1024 threads per
        # block, 255 + 1 = 256 registers per thread as the device records it, 227 KiB = 232448 B opt-in per
        # block, 48 KiB = 49152 B static, 16 named barriers (PTX ids 0..15).
        for kw, field, limit in [(dict(barriers=17), "barriers", 16), (dict(smem_static=65536), "smem_static", 49152)]:
            with self.assertRaises(gpuocc.Error) as e:
                gpuocc.occupancy("H100", gpuocc.kernel(threads=256, regs=32, **kw))
            self.assertEqual((e.exception.exceeded, e.exception.exceeded_limit), (field, limit))
            self.assertIn(f"{field}={list(kw.values())[0]}", str(e.exception))
        for kw, field, limit in [(dict(threads=2000), "threads", 1024), (dict(regs=300), "regs", 256),
                                 (dict(smem_dynamic=300 * 1024), "smem_dynamic", 232448),
                                 (dict(smem_dynamic=48 * 1024 + 1, smem_optin=False), "smem_dynamic", 49152),
                                 (dict(smem_dynamic=100000, smem_dynamic_max=65536), "smem_dynamic", 65536)]:
            args = dict(threads=256, regs=32)
            args.update(kw)
            r = gpuocc.occupancy("H100", gpuocc.kernel(**args))
            self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, field, limit), kw)
        # AMD: threads over the flat workgroup limit (1024 on gfx942) is the one value AMD names
        r = gpuocc.occupancy("MI300X", gpuocc.kernel(threads=2048, regs=32))
        self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, "threads", 1024))
        r = gpuocc.occupancy("H100", gpuocc.kernel(threads=256, regs=32))
        self.assertEqual((r.exceeded, r.exceeded_limit), (None, None))
        # a 0-block answer from the register file names the registers with the most that fit one block (H100:
        # 1024 threads are 32 warps; a block may hold 65536 registers, so 65536 / 32 / 256 = 8 allocation
        # units of 256 a warp, 8 x 256 / 32 lanes = 64 registers a thread; the per-sub-partition file, 16384
        # registers for 8 warps, gives the same 8 units)
        r = gpuocc.occupancy("H100", gpuocc.kernel(threads=1024, regs=255))
        self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, "regs", 64))

    def test_batch_names_the_exceeded_limit(self):
        # `gpuocc batch`'s exceeded / exceeded_limit columns in batch() too, row by row, with the H100 limits
        # above; a row within every limit names none, one of 0 blocks from registers alone (1024 x 255) the most
        # registers that fit one block (64, above)
        c = gpuocc.batch("H100", threads=[256, 2000, 256, 256, 256, 1024], regs=[32, 32, 300, 32, 32, 255],
                         smem_static=[0, 0, 0, 0, 65536, 0], smem_dynamic=[0, 0, 0, 300 * 1024, 0, 0],
                         kern=gpuocc.kernel(threads=1, smem_optin=True))
        self.assertEqual(c["exceeded"], [None, "threads", "regs", "smem_dynamic", "smem_static", "regs"])
        self.assertEqual(c["exceeded_limit"], [None, 1024, 256, 232448, 49152, 64])
        self.assertEqual(c.row(1)["exceeded"], "threads")
        self.assertEqual(list(c)[-2:], ["exceeded", "exceeded_limit"])
        # Intel (Max 1550: 1024 work-items per work-group, docs/intel.md) and AMD (MI300X: 1024)
        for name in ("max-1550", "MI300X"):
            c = gpuocc.batch(name, threads=[512, 2048])
            self.assertEqual((c["exceeded"], c["exceeded_limit"]), ([None, "threads"], [None, 1024]), name)
        # Intel's own limits, as `gpuocc report` names them (docs/intel.md: Max 1550's largest GRF mode is 256
        # registers per hardware thread, a work-group's SLM at most 128 KiB)
        for kw, field, limit in [(dict(grf=512), "grf", 256), (dict(smem_static=200000), "smem_static", 131072),
                                 (dict(smem_dynamic=200000), "smem_dynamic", 131072)]:
            r = gpuocc.occupancy("max-1550", gpuocc.kernel(threads=256, sub_group=16, **kw))
            self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, field, limit), kw)
        # a sweep has no such columns, as `gpuocc sweep` prints none (docs/output.md)
        self.assertNotIn("exceeded", gpuocc.sweep("H100", gpuocc.kernel(threads=256, regs=64), "threads"))
        # columns reused as out= hold the later batch's answers: their own exceeded cannot be read any more
        first = gpuocc.batch("H100", threads=[2000])
        second = gpuocc.batch("H100", threads=[256], out=first)
        self.assertEqual(second["exceeded"], [None])
        with self.assertRaises(gpuocc.Error) as e:
            first["exceeded"]
        self.assertEqual(e.exception.name, "argument")


class Results(unittest.TestCase):
    def test_frozen_dataclasses(self):
        r = gpuocc.occupancy("A100", gpuocc.kernel(threads=256, regs=64))
        self.assertEqual(r, gpuocc.occupancy(gpuocc.device("A100"), gpuocc.kernel(threads=256, regs=64)))
        self.assertIn("blocks_per_sm=4", repr(r))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            r.blocks_per_sm = 5
        data = json.loads(json.dumps(dataclasses.asdict(r)))
        self.assertEqual(data["limiters"], ["registers"])
        self.assertIsNone(data["limit_barriers"])
        for value in (gpuocc.device("H100"), gpuocc.waves(300, 132, 2), gpuocc.perf("H100"),
                      gpuocc.latency_check(32, 400, 0.5, 2), gpuocc.kernel(threads=64)):
            json.dumps(dataclasses.asdict(value))

    def test_columns(self):
        import array
        c = gpuocc.Columns({"threads": array.array("i", [128, 256]), "blocks_per_sm": array.array("i", [8, 4])})
        self.assertEqual((len(c), c.rows), (2, 2))
        self.assertEqual(c.row(1), {"threads": 256, "blocks_per_sm": 4})
        with self.assertRaises(ValueError):
            gpuocc.Columns({"a": array.array("i", [1]), "b": array.array("i", [])})


class Batch(unittest.TestCase):
    def test_a100_by_hand(self):
        import array
        # A100 (as test_a100_registers): 256 threads x 64 regs -> 2048 per warp, 16384 per sub-partition
        # -> 8 warps each, 32 warps -> 4 blocks; 128 threads x 32 regs with 48 KiB dynamic: 49152 + 1024
        # reserved = 50176 per block, 167936 / 50176 = 3 blocks; 0 threads is rejected on its own row.
        c = gpuocc.batch("A100", array.array("i", [256, 128, 0]), [64, 32, 1], smem_dynamic=[0, 48 * KIB, 5])
        self.assertEqual(c.rows, 3)
        self.assertEqual(list(c["status"]), [0, 0, gpuocc.Error(-7).status])
        self.assertEqual(gpuocc.status_name(c["status"][2]), "threads")
        self.assertEqual(list(c["blocks_per_sm"]), [4, 3, 0])
        self.assertEqual(list(c["warps_per_sm"]), [32, 12, 0])
        self.assertEqual(gpuocc.limiter_names(c["limiters"][0]), ("registers",))
        self.assertEqual(gpuocc.limiter_names(c["limiters"][1]), ("shared_memory",))
        self.assertEqual(c["smem_per_block"][1], 50176)
        self.assertEqual(c["limit_barriers"][0], -1)  # barriers limit from cc 9.0 on: none on A100
        self.assertIsInstance(c["occupancy"], array.array)
        self.assertEqual(c["occupancy"][0], 0.5)

    def test_every_row_equals_a_single_call(self):
        import array
        threads = array.array("i", [(i * 37) % 1100 + 1 for i in range(2000)])
        regs = array.array("i", [(i * 7) % 260 for i in range(2000)])
        # static sizes within the 48 KiB static limit (above it a launch cannot run: an error, tested apart)
        smem = array.array("q", [(i * 1311) % 49153 for i in range(2000)])
        base = gpuocc.kernel(threads=1, barriers=3, carveout=50, smem_optin=False)
        c = gpuocc.batch("H100", threads, regs, smem_static=list(smem), kern=base)
        for i in range(0, 2000, 7):
            r = gpuocc.occupancy("H100", dataclasses.replace(base, threads=threads[i], regs=regs[i],
                                                             smem_static=smem[i]))
            row = c.row(i)
            self.assertEqual((row["blocks_per_sm"], row["warps_per_sm"], row["occupancy"]),
                             (r.blocks_per_sm, r.warps_per_sm, r.occupancy), i)
            self.assertEqual(gpuocc.limiter_names(row["limiters"]), r.limiters)
            self.assertEqual(row["limit_smem"], -1 if r.limit_smem is None else r.limit_smem)
            self.assertEqual((row["regs_per_block"], row["smem_per_block"], row["smem_per_sm"]),
                             (r.regs_per_block, r.smem_per_block, r.smem_per_sm))
        self.assertIs(c["threads"], threads)  # used in place
        self.assertEqual(list(c["smem_dynamic"][:2]), [0, 0])

    def test_out_reuses_the_arrays(self):
        first = gpuocc.batch("sm_80", [128, 256], [32, 64])
        again = gpuocc.batch("sm_80", [1024, 32], [255, 0], out=first)
        self.assertIs(again["blocks_per_sm"], first["blocks_per_sm"])
        # 1024 threads x 255 regs: 8160 -> 8192 per warp, 32 warps > 65536 per block: 0 blocks
        self.assertEqual(again["blocks_per_sm"][0], 0)
        with self.assertRaises(gpuocc.Error):
            gpuocc.batch("sm_80", [1, 2, 3], out=first)

    def test_bad_columns(self):
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.batch("H100", [128, 256], [32])
        self.assertEqual(e.exception.name, "argument")
        with self.assertRaises(gpuocc.Error):
            gpuocc.batch("H100", [2 ** 31])
        with self.assertRaises(TypeError):
            gpuocc.batch("H100", [1.5])
        with self.assertRaises(TypeError):
            gpuocc.batch("H100", "128")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.batch("H100", [128], kern=gpuocc.kernel(threads=1, carveout=101))
        self.assertEqual(e.exception.name, "carveout")
        self.assertEqual(gpuocc.batch("H100", []).rows, 0)


class Errors(unittest.TestCase):
    def assertStatus(self, name, fn, *args, **kw):
        with self.assertRaises(gpuocc.Error) as e:
            fn(*args, **kw)
        self.assertEqual(e.exception.name, name, str(e.exception))
        self.assertIsInstance(e.exception, ValueError)
        return e.exception

    def test_library_rejections_carry_the_status(self):
        self.assertStatus("unknown_device", gpuocc.device, "no such gpu")
        err = self.assertStatus("threads", gpuocc.occupancy, "A100", gpuocc.kernel(threads=0))
        self.assertEqual(err.status, -7)
        self.assertStatus("unsatisfiable", gpuocc.regs_max_for_blocks, "A100", gpuocc.kernel(threads=1024), 3)
        self.assertStatus("not_finite", gpuocc.warps_needed, float("nan"), 1)
        self.assertStatus("domain", gpuocc.warps_needed, 0, 1)

    def test_values_that_do_not_fit_their_c_type(self):
        # these used to wrap silently (256 threads, a grid of 5)
        self.assertStatus("argument", gpuocc.kernel, threads=2**32 + 256)
        self.assertStatus("argument", gpuocc.waves, 2**64 + 5, 132, 2)
        self.assertStatus("argument", gpuocc.kernel, threads=256, smem_dynamic=2**63)
        self.assertStatus("argument", gpuocc.warps_needed, 10**400, 1)
        self.assertStatus("argument", gpuocc.kernel, threads=256, smem_optin=2)
        self.assertStatus("argument", gpuocc.device, "H1\0")

    def test_wrong_types(self):
        for call in (lambda: gpuocc.device(b"H100"), lambda: gpuocc.read_ptxas(123),
                     lambda: gpuocc.read_cubin("text"), lambda: gpuocc.kernel(threads=256.0),
                     lambda: gpuocc.kernel(threads=True), lambda: gpuocc.kernel(threads="256"),
                     lambda: gpuocc.occupancy("A100", {"threads": 256}), lambda: gpuocc.occupancy(3, gpuocc.kernel(threads=1)),
                     lambda: gpuocc.warps_needed("400", 1), lambda: gpuocc.spill_estimate(nonsense=1)):
            with self.assertRaises(TypeError):
                call()

    def test_missing_library_is_an_import_error_naming_where(self):
        env = dict(os.environ, GPUOCC_LIBRARY="/nonexistent/libgpuocc.so", PYTHONPATH=HERE)
        run = subprocess.run([sys.executable, "-c", "import gpuocc"], env=env, capture_output=True, text=True)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("ImportError", run.stderr)
        self.assertIn("/nonexistent/libgpuocc.so", run.stderr)
        guarded = "try:\n import gpuocc\nexcept ImportError:\n print('guarded')"
        run = subprocess.run([sys.executable, "-c", guarded], env=env, capture_output=True, text=True)
        self.assertEqual(run.stdout.strip(), "guarded")


class Models(unittest.TestCase):
    def test_littles_law(self):
        # 400 cycles x 0.5 warp-instructions per cycle = 200 in flight; 2 independent each -> 100 warps
        self.assertEqual(gpuocc.warps_needed(400, 0.5, 2), 100)
        v = gpuocc.latency_check(32, 400, 0.5, 2)
        self.assertEqual((v.hidden, v.in_flight, v.warps_needed, v.extra_warps, v.ilp_needed),
                         (False, 200, 100, 68, 200 / 32))

    def test_instruction_mix(self):
        # cusp at alpha = 2 / 0.25 = 8; warps = 4 x 2 + 400 x 0.25 = 108; the mix there: (400 + 8 x 4) x 0.25
        self.assertEqual(gpuocc.mix_cusp(4, 2, 400, 0.25), gpuocc.Cusp(alpha=8, warps=108))
        self.assertEqual(gpuocc.mix_warps_needed(8, 4, 2, 400, 0.25), 108)

    def test_bandwidth(self):
        # 2 TB/s x 500 ns = 1 MB in flight device-wide, 10 KB on each of 100 SMs
        b = gpuocc.bytes_in_flight(2e12, 500, 100)
        self.assertAlmostEqual(b.bytes_device, 1e6)
        self.assertAlmostEqual(b.bytes_per_sm, 1e4)
        # half the bytes in flight: half the peak (hard form); at the knee the smooth form gives 80 %
        self.assertAlmostEqual(gpuocc.bandwidth_at(5e3, 100, 500, 2e12), 1e12, delta=1)
        self.assertAlmostEqual(gpuocc.bandwidth_at(1e4, 100, 500, 2e12, gpuocc.SMOOTH_K), 1.6e12, delta=1e3)

    def test_bandwidth_model(self):
        import ctypes
        self.assertEqual(ctypes.sizeof(gpuocc._CBandwidthPrediction), 152)   # static-asserted in bandwidth.c
        # latency 1000 ns, 1 GB/s on 8 pins (1 Gbit/s each: queue service 210 ns), 1 SM, 1 warp of 1000 bytes:
        # -1480 r^2 + 2690 r - 1000 = 0, r = (2690 - sqrt(1316100)) / 2960
        b = gpuocc.bandwidth_model(1, 1000, 1, 1000, 1, 8)
        self.assertAlmostEqual(b.fraction_of_peak, (2690 - 1316100 ** 0.5) / 2960, places=12)
        self.assertAlmostEqual(b.queue_service_ns, 210.0, places=12)
        # warps for 90 % of the attainable: 0.9 x (1690 + 210 x 9) / 1000 = 3.222
        self.assertAlmostEqual(b.warps_for_90, 3.222, places=12)
        # AMD answers: MI300X, 304 CUs, with its constants' sources
        m = gpuocc.bandwidth("MI300X", 16, 512)
        self.assertEqual((m.sm_count, m.bus_bits, m.attainable_gbps), (304, 8192, 4849))
        p = gpuocc.perf("MI300X")
        self.assertEqual(p.dram_memory, "HBM3")
        self.assertIn("gpu-latency/mi300x.txt", p.dram_source)
        # RRZE gpu-stream @ 1038c5d, A100-SXM4-80GB read at 32 warps/SM (8 bytes per thread): 1119 GB/s
        a = gpuocc.bandwidth("A100", 32, 256)
        self.assertAlmostEqual(a.bandwidth_gbps / 1119, 1, delta=0.1)
        self.assertEqual((a.sm_count, a.peak_gbps), (108, 2039))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.bandwidth("T4", 32, 256)     # no published DRAM latency for sm_75
        self.assertEqual(e.exception.name, "unsatisfiable")
        with self.assertRaises(TypeError):
            gpuocc.bandwidth("A100", "32", 256)

    def test_perf_constants(self):
        p = gpuocc.perf("H100 SXM")
        self.assertEqual(p.sm_count, 132)
        self.assertAlmostEqual(p.dram_bandwidth_gbps, 3350, delta=5)   # NVIDIA's H100 SXM datasheet: 3.35 TB/s

    def test_spills(self):
        # seeds: 2 spill accesses of 300 cycles on 256 cycles of work: (256 + 600) / 256
        self.assertEqual(gpuocc.spill_slowdown(256, 2, 300), 856 / 256)
        cost = gpuocc.spill_estimate(sm_count=100, spill_loads=8, spill_stores=8, executions=1,
                                     grid_threads=1e6, access_bytes=4, l2_bandwidth_bytes_per_s=1e12,
                                     dram_bandwidth_bytes_per_s=1e12, clock_hz=1e9)
        self.assertEqual(cost.local_bytes, 16e6)               # 16 bytes x 1e6 threads
        self.assertEqual(cost.instructions, 1e6 / 32 * 16 / 4)  # 4-byte accesses, per warp

    def test_waves(self):
        # seeds: 300 blocks at 2 per SM on 132 SMs: 264 a wave, 2 waves, 36 in the last
        w = gpuocc.waves(300, 132, 2)
        self.assertEqual((w.blocks_per_wave, w.full_waves, w.waves, w.last_wave_blocks, w.grid_down, w.grid_up),
                         (264, 1, 2, 36, 264, 528))
        self.assertAlmostEqual(w.efficiency, 300 / 528)

    def test_lanes_and_divergence(self):
        self.assertEqual(gpuocc.lane_efficiency(100), 100 / 128)
        # two halves of a warp, 10 and 30 cycles: 40 serialized; (16 x 10 + 16 x 30) / (32 x 40)
        self.assertEqual(gpuocc.divergence([16, 16], [10, 30]), gpuocc.Divergence(40, 0.5))
        r = gpuocc.routing(8, 1 << 20)
        self.assertAlmostEqual(r.random_paths, 8 * (1 - (7 / 8) ** 32))

    def test_roofline(self):
        # 10 flop/byte on a 10 flop/byte ridge: compute-bound at the peak
        r = gpuocc.roofline(1e9, 1e8, 1e13, 1e12)
        self.assertEqual(r, gpuocc.Roofline(10, 10, 1e13, True))

    def test_diagnosis(self):
        for i, name in enumerate(gpuocc.STALLS):
            self.assertEqual((gpuocc.stall_name(i), gpuocc.stall_from_name(name)), (name, i))
        self.assertIsNone(gpuocc.stall_from_name("nope"))
        d = gpuocc.diagnose("long_scoreboard", 0.25)
        self.assertEqual((d.stall, d.occupancy), ("long_scoreboard", 0.25))
        self.assertTrue(d.meaning and d.verdict)
        self.assertEqual(gpuocc.resource_name(2), "shared_memory")
        self.assertEqual(gpuocc.status_name(-7), "threads")
        self.assertTrue(gpuocc.strerror(-7))


class Example(unittest.TestCase):
    def test_autotuner_example_prunes_by_occupancy(self):
        sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
        import autotune
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            kept = autotune.prune("A100", min_warps=16)
        self.assertTrue(kept and all(r.warps_per_sm >= 16 for _, r in kept))
        # BM = BN = 64: 64 threads (2 warps), 64 registers: 2048 a warp, 8 warps a sub-partition = 32
        # warps = 16 blocks; 8 KiB of tiles x 16 = 128 KiB fits 164 KiB
        found = {cfg: r for cfg, r in kept}
        r = found[autotune.Config(64, 64, 8, 64)]
        self.assertEqual((r.blocks_per_sm, r.occupancy), (16, 0.5))
        # 256 x 256 tiles: 1024 threads at 255 registers cannot launch (255 x 1024 > 65536): pruned
        self.assertNotIn(autotune.Config(256, 256, 8, 255), found)


class CompilerOutput(unittest.TestCase):
    def test_ptxas_log(self):
        with open(os.path.join(DATA, "ptxas_sm90.log")) as f:
            rows = {r.short_name: r for r in gpuocc.read_ptxas(f.read())}
        # "Used 64 registers", "56 bytes stack frame, 52 bytes spill stores, 56 bytes spill loads"
        s = rows["spilling"]
        self.assertEqual((s.registers, s.stack, s.spill_stores, s.spill_loads), (64, 56, 52, 56))
        self.assertEqual(s.arch, "sm_90")
        self.assertEqual(s.name, "_Z8spillingPfPKfii")

    def test_ptxas_arch_variant(self):
        # ptxas's own report (CUDA 13.0) of one kernel: `nvcc -arch sm_90 -Xptxas -v -c k.cu`, then -arch sm_90a,
        # sm_100a and sm_100f (tests/test_ptxas.c says how it was made)
        with open(os.path.join(DATA, "ptxas_variants.log")) as f:
            log = f.read()
        self.assertEqual([r.arch for r in gpuocc.read_ptxas(log)], ["sm_90", "sm_90a", "sm_100a", "sm_100f"])
        # the report of `nvcc -cubin -arch=sm_90a -Xptxas -v` and the cubin it made (tests/cuda/capture.sh): the
        # same arch for every kernel, as `gpuocc ptxas` and `gpuocc binary` print it
        with open(os.path.join(DATA, "ptxas_setmaxnreg.log")) as f:
            from_log = {r.name: r.arch for r in gpuocc.read_ptxas(f.read())}
        with open(os.path.join(DATA, "setmaxnreg_sm90a.cubin"), "rb") as f:
            from_cubin = {r.name: r.arch for r in gpuocc.read_cubin(f.read())}
        self.assertEqual(set(from_log.values()), {"sm_90a"})
        self.assertEqual(from_log, from_cubin)

    def test_cubin_agrees_with_the_log(self):
        with open(os.path.join(DATA, "ptxas_sm90.log")) as f:
            log = {r.name: r for r in gpuocc.read_ptxas(f.read())}
        with open(os.path.join(DATA, "kernels_sm90.cubin"), "rb") as f:
            binary = {r.name: r for r in gpuocc.read_cubin(f.read())}
        self.assertEqual(set(log), set(binary))
        for name in log:
            for field in ("arch", "registers", "barriers", "smem", "stack"):
                self.assertEqual(getattr(log[name], field), getattr(binary[name], field), (name, field))
        self.assertEqual(binary["_Z14register_heavyPfPKfi"].max_threads, 256)  # __launch_bounds__(256, 2)
        self.assertEqual(binary["_Z14register_heavyPfPKfi"].min_blocks, 2)
        # a log does not record launch bounds' register cap: None, as JSON's null
        self.assertIsNone(log["_Z14register_heavyPfPKfi"].max_regs)
        # nor the launch bounds themselves (kernels.cu says __launch_bounds__(256, 2)), nor clusters: None, not 0
        # ("none"), as `gpuocc ptxas` prints them
        r = log["_Z14register_heavyPfPKfi"]
        self.assertEqual((r.max_threads, r.min_blocks, r.cluster_x, r.cluster_y, r.cluster_z), (None,) * 5)

    def test_compressed_binary_agrees_with_the_log(self):
        # CUDA 13's default -rdc object (zstd entries) against ptxas's report of the same compile
        with open(os.path.join(DATA, "ptxas_units_rdc.log")) as f:
            log = {(r.name, r.arch): r for r in gpuocc.read_ptxas(f.read())}
        with open(os.path.join(DATA, "units_rdc_zstd.o"), "rb") as f:
            read = gpuocc.read_binary(f.read())
        self.assertEqual((read.entries, read.compressed_entries, read.entries_read, read.entries_failed),
                         (3, 3, 3, 0))
        self.assertIsNone(read.first_failure)
        binary = {(k.name, k.arch): k for k in read.kernels}
        self.assertEqual(set(log), set(binary))
        for key in log:
            for field in ("registers", "barriers", "smem", "stack"):
                self.assertEqual(getattr(log[key], field), getattr(binary[key], field), (key, field))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_binary(b"\x7fELF")
        self.assertEqual(e.exception.name, "truncated")
        # a fatbinary whose first entry header claims 8 bytes: the entry, its byte (the fatbinary's header size,
        # read here) and the size named; in an archive such a member is an error, not a host object skipped
        with open(os.path.join(DATA, "units.fatbin"), "rb") as f:
            fat = bytearray(f.read())
        first = struct.unpack_from("<H", fat, 6)[0]
        struct.pack_into("<I", fat, first + 4, 8)
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_binary(bytes(fat))
        self.assertEqual(e.exception.name, "format")
        self.assertIn(f"entry 0, byte {first}: a fatbinary entry header size of 8 bytes, below its 64",
                      str(e.exception))
        member = b"bad.fatbin/".ljust(16) + b"0".ljust(12) + b"0".ljust(6) * 2 + b"644".ljust(8) + \
            str(len(fat)).encode().ljust(10) + b"`\n"
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_binary(b"!<arch>\n" + member + bytes(fat) + b"\n" * (len(fat) & 1))
        self.assertIn("entry 0", str(e.exception))
        with self.assertRaises(TypeError):
            gpuocc.read_binary(["not", "bytes"])
        with self.assertRaises(FileNotFoundError):  # a str is a path (a file or a folder: test_caches.py)
            gpuocc.read_binary("text")

    def test_amd_code_objects_and_bundles(self):
        # values llvm-readelf-19 --notes prints for tests/data/hip_ccob.o (a compressed bundle of gfx1100 and
        # gfx90a code objects) and amdgpu_gfx90a.o
        with open(os.path.join(DATA, "hip_ccob.o"), "rb") as f:
            read = gpuocc.read_binary(f.read())
        self.assertEqual((read.entries, read.compressed_entries, read.entries_read), (1, 1, 1))
        got = [(k.name, k.target, k.arch, k.vendor, k.vgprs, k.agprs, k.sgprs, k.wave_size, k.smem_static,
                k.cu_mode) for k in read.kernels]
        # cu_mode: gfx1100's notes say .workgroup_processor_mode 1 (WGP mode, not -mcumode); gfx90a's none
        self.assertEqual(got, [("_Z5scalePff", "amdgcn-amd-amdhsa--gfx1100", "gfx1100", "amd", 2, None, 4, 32, 0, 0),
                               ("_Z4tilePf", "amdgcn-amd-amdhsa--gfx1100", "gfx1100", "amd", 3, None, 2, 32, 1024, 0),
                               ("_Z5scalePff", "amdgcn-amd-amdhsa--gfx90a", "gfx90a", "amd", 2, 0, 10, 64, 0, None),
                               ("_Z4tilePf", "amdgcn-amd-amdhsa--gfx90a", "gfx90a", "amd", 3, 0, 10, 64, 1024, None)])
        # the answer is a sequence of its kernels, as the other readers' answers are
        self.assertEqual((len(read), list(read), read[3]), (4, list(read.kernels), read.kernels[3]))
        # NVIDIA's fields are None on AMD kernels (as `gpuocc binary --json` writes null)
        self.assertEqual((read.kernels[0].barriers, read.kernels[0].cmem, read.kernels[0].cluster_x), (None,) * 3)
        with open(os.path.join(DATA, "amdgpu_gfx90a.o"), "rb") as f:
            k = gpuocc.read_binary(f.read()).kernels[1]
        self.assertEqual((k.name, k.short_name, k.vgprs, k.sgprs, k.smem_static, k.max_threads,
                          k.dynamic_stack, k.amd_mach, k.code_object_version, k.registers, k.smem),
                         ("lds", "lds", 46, 50, 4096, 64, 1, 0x3f, 5, 46, 4096))

    def test_blackwell_records(self):
        # tests/cuda/tcgen05.ptx through ptxas 13.0 for sm_100a: EIATTR 0x4a = 128 on the tcgen05 kernels, 0x51 on
        # the cta_group::1 one, 0x52 on the cta_group::2 one, 0x54 on the setmaxnreg one (a dump of .nv.info)
        with open(os.path.join(DATA, "tcgen05_sm100a.cubin"), "rb") as f:
            read = gpuocc.read_binary(f.read())
        got = {k.name: (k.arch, k.virtual_resources, k.tmem_cta_group, k.setmaxnreg) for k in read}
        self.assertEqual(got, {"tm_one": ("sm_100a", 128, 1, 0), "tm_two": ("sm_100a", 128, 2, 0),
                               "plain": ("sm_100a", 0, 0, 0), "smr": ("sm_100a", 0, 0, 1)})
        # the resulting limit: B200 has 128 virtual resources per SM (docs/model.md), a tcgen05 kernel takes all 128:
        # one block at 128 threads, where its registers and 4 warps alone allow 16 (64 warp slots)
        for k in read:
            r = gpuocc.occupancy("B200", gpuocc.kernel(threads=128, regs=k.registers, smem_static=k.smem,
                                                       virtual_resources=k.virtual_resources))
            want = (1, ("virtual_resources",)) if k.virtual_resources else (r.blocks_per_sm, r.limiters)
            self.assertEqual((r.blocks_per_sm, tuple(r.limiters)), tuple(want), k.name)
        plain = [k for k in read if k.name == "plain"][0]
        self.assertEqual(gpuocc.occupancy("B200", gpuocc.kernel(threads=128, regs=plain.registers)).blocks_per_sm, 16)

    def test_binary_kernel_registers(self):
        # tests/amd/agpr.cl: 256 arch VGPRs (v255) and 10 AGPRs (a9); llvm-readelf-19 --notes: .vgpr_count 266
        with open(os.path.join(DATA, "amdgpu_agpr_gfx90a.o"), "rb") as f:
            k = gpuocc.read_binary(f.read())[0]
        self.assertEqual((k.vgprs, k.agprs), (266, 10))
        self.assertEqual(gpuocc.binary_kernel_registers(gpuocc.device("gfx90a"), k), (256, 10))
        got = gpuocc.occupancy("gfx90a", gpuocc.kernel(threads=256, regs=256, agprs=10))
        self.assertGreater(got.blocks_per_sm, 0)  # the runtime runs it: one workgroup per CU
        with self.assertRaises(gpuocc.Error):
            gpuocc.binary_kernel_registers(gpuocc.device("H100"), k)
        with self.assertRaises(TypeError):
            gpuocc.binary_kernel_registers(gpuocc.device("gfx90a"), "k")
        with self.assertRaises(TypeError):
            gpuocc.binary_kernel_registers("gfx90a", k)

    def test_readers_take_what_the_cli_takes(self):
        # read_cubin reads compressed fatbinaries (zstd, LZ4) and archives as `gpuocc binary` does, and
        # returns a list; the unit_bounded kernel of tests/cuda/units.cu declares 64 floats of __shared__
        for name in ("units_zstd.fatbin", "units_lz4.fatbin", "units_rdc_zstd.o"):
            with open(os.path.join(DATA, name), "rb") as f:
                rows = gpuocc.read_cubin(f.read())
            self.assertIsInstance(rows, list, name)
            self.assertEqual(len(rows), 2 if name.endswith("fatbin") else 6, name)
            self.assertEqual({r.smem for r in rows if r.short_name == "unit_bounded"}, {256}, name)
        with open(os.path.join(DATA, "units_variants.fatbin"), "rb") as f:
            self.assertEqual({r.arch for r in gpuocc.read_cubin(f.read())}, {"sm_90a", "sm_100f", "sm_120f"})
        with open(os.path.join(DATA, "linked_app"), "rb") as f:
            read = gpuocc.read_binary(f.read())
        self.assertEqual(sorted(k.linked for k in read), [0] * 9 + [1] * 9)
        # an ar archive: a host-only member beside one with device code (as libcudadevrt.a is built)
        tmp = tempfile.mkdtemp()
        try:
            host = os.path.join(tmp, "host.o")
            with open(host, "wb") as f:
                f.write(b"\x7fELF\x02\x01\x01" + bytes(57))  # a header-only ELF: no device code
            archive = os.path.join(tmp, "lib.a")
            ar = shutil.which("ar")
            if ar:
                subprocess.run([ar, "rc", archive, host, os.path.join(DATA, "units_rdc_zstd.o")], check=True)
                with open(archive, "rb") as f:
                    data = f.read()
                self.assertEqual(len(gpuocc.read_cubin(data)), 6)
                read = gpuocc.read_binary(data)
                self.assertEqual((read.entries, read.entries_read, len(read)), (3, 3, 6))
        finally:
            shutil.rmtree(tmp)
        # one entry claiming 2^40 bytes decompressed: gpuocc.Error from read_cubin (all or nothing), the other
        # entries from read_binary; never MemoryError
        with open(os.path.join(DATA, "units.fatbin"), "rb") as f:
            blob = bytearray(f.read())
        at = struct.unpack_from("<H", blob, 6)[0]
        struct.pack_into("<Q", blob, at + 0x28, struct.unpack_from("<Q", blob, at + 0x28)[0] | 0x8000)
        struct.pack_into("<Q", blob, at + 0x38, 1 << 40)
        with self.assertRaises(gpuocc.Error):
            gpuocc.read_cubin(bytes(blob))
        read = gpuocc.read_binary(bytes(blob))
        self.assertEqual((read.entries, read.entries_failed, read.first_failed_entry, len(read)), (3, 1, 0, 4))
        with self.assertRaises(gpuocc.Error):
            gpuocc.read_cubin(b"!<arch>\nnot a member header")

    def test_no_kernel_found_raises(self):
        # `gpuocc ptxas FILE` and `gpuocc remarks FILE` exit 2 "no kernel found (expected ...)" for input that
        # holds no kernel (docs/python.md: gpuocc.Error "format"); an ELF file is pointed to read_binary
        for read, text, expected in ((gpuocc.read_ptxas, "hello\n", "ptxas -v output"),
                                     (gpuocc.read_ptxas, b"", "ptxas -v output"),
                                     (gpuocc.read_remarks, "garbage", "LLVM's remarks"),
                                     (gpuocc.read_remarks, "no remarks\n", "LLVM's remarks")):
            with self.assertRaises(gpuocc.Error) as e:
                read(text)
            self.assertEqual(e.exception.name, "format")
            self.assertIn(f"no kernel found (expected {expected}", str(e.exception))
        with open(os.path.join(DATA, "amdgpu_gfx90a.o"), "rb") as f:  # an AMD code object, not a log
            elf = f.read()
        for read in (gpuocc.read_ptxas, gpuocc.read_remarks):
            with self.assertRaises(gpuocc.Error) as e:
                read(elf)
            self.assertIn("no kernel found", str(e.exception))
            self.assertIn("it is an ELF file", str(e.exception))
            self.assertIn("read_binary reads it", str(e.exception))

    def test_text_given_to_read_binary(self):
        # `gpuocc binary FILE` on text: "input is not of the expected binary format (no cubin, ...); it is text:
        # ..." once, and a ptxas report is pointed to the reader that reads it
        with tempfile.TemporaryDirectory() as tmp:
            text = os.path.join(tmp, "notes.txt")
            with open(text, "w") as f:
                f.write("root:x:0:0:root:/root:/bin/sh\n")
            for data in (text, b"root:x:0:0:root:/root:/bin/sh\n"):
                with self.assertRaises(gpuocc.Error) as e:
                    gpuocc.read_binary(data)
                message = str(e.exception)
                self.assertEqual(message.count("not of the expected binary format"), 1, message)
                self.assertEqual(message.count("[format]"), 1, message)
                self.assertIn("no cubin, fatbinary, AMDGPU code object, offload bundle or Intel zebin", message)
                self.assertIn("it is text: gpuocc.read_ptxas reads ptxas -v reports", message)
            self.assertTrue(str(e.exception).startswith("input is not"), str(e.exception))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_binary(os.path.join(DATA, "ptxas_sm80.log"))
        self.assertIn("it is a ptxas report: gpuocc.read_ptxas reads it", str(e.exception))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_binary(os.path.join(DATA, "remarks", "hip_two_targets.log"))
        self.assertIn("it is LLVM's resource-usage remarks: gpuocc.read_remarks reads them", str(e.exception))
        # ocloc's default output (tests/data/zebin/regenerate.sh): a patch-token OpenCL ELF, named as the CLI names it
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_binary(os.path.join(DATA, "zebin", "kernels_pvc_patchtoken.bin"))
        self.assertIn("it is an Intel OpenCL ELF (e_type 0xff04) holding a patch-token program", str(e.exception))
        self.assertIn("-cl-intel-allow-zebin", str(e.exception))

    def test_bad_input(self):
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_cubin(b"\x7fELF")
        self.assertEqual(e.exception.name, "truncated")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_ptxas("ptxas info    : Compiling entry function 'k' for 'sm_90'\n")
        self.assertIn("line 1", str(e.exception))


class AmdQueries(unittest.TestCase):
    def test_queries_on_an_amd_product(self):
        # MI300X (gfx942, docs/amd.md): a 256-thread workgroup is 4 waves on the CU's 4 SIMDs; 512 VGPRs per
        # SIMD at a granule of 8: 129 VGPRs -> 136, 3 waves per SIMD, 3 workgroups; 4 need 128 VGPRs.
        k = gpuocc.kernel(256, regs=129)
        self.assertEqual(gpuocc.occupancy("MI300X", k).blocks_per_sm, 3)
        self.assertEqual(gpuocc.regs_max_for_blocks("MI300X", k, 4), 128)
        self.assertEqual(gpuocc.next_step("MI300X", k, "registers"), gpuocc.NextStep("registers", 128, 1))
        lim = gpuocc.limits("MI300X", k)
        self.assertEqual((lim.warps, lim.registers, lim.shared_memory, lim.blocks, lim.barriers),
                         (8, 3, None, None, 16))
        # limits() counts every kernel field, as report's limit_*: 128 VGPRs + 64 AGPRs share gfx942's unified
        # 512-entry file: 192 a wave, 2 waves per SIMD = 2 workgroups (4 without the AGPRs)
        self.assertEqual(gpuocc.limits("MI300X", gpuocc.kernel(256, regs=128, agprs=64)).registers, 2)
        self.assertEqual(gpuocc.limits("MI300X", gpuocc.kernel(256, regs=128)).registers, 4)
        # 100 SGPRs: 800 / (112 + 16 for the trap handler) = 6 waves x 4 SIMDs; LLVM 19's table 8 waves
        self.assertEqual(gpuocc.limits("MI50", gpuocc.kernel(64, regs=16, sgprs=100)).sgprs, 24)
        self.assertEqual(gpuocc.limits("MI50", gpuocc.kernel(64, regs=16, sgprs=100, model="llvm19")).sgprs, 32)
        self.assertEqual(gpuocc.smem_dynamic_available("MI300X", k, 2), 32768)  # 64 KiB of LDS per CU / 2
        self.assertEqual(gpuocc.regs_per_warp("MI300X", 129), 136 * 64)
        with self.assertRaises(gpuocc.Error):
            gpuocc.regs_max_for_blocks("MI300X", k, 9)  # 8 wave slots per SIMD: never 9 workgroups
        # RX 7900 XTX (gfx1100) in wave64: 768 VGPRs at a granule of 12; 4 SIMDs per WGP.  96 VGPRs: 8 waves
        # per SIMD = 8 four-wave workgroups; 7 of them need 7 waves per SIMD: 768 / 7 = 109 -> 108.
        k = gpuocc.kernel(256, regs=96, wave_size=64)
        r = gpuocc.occupancy("RX 7900 XTX", k)
        self.assertEqual((r.blocks_per_sm, r.model, r.waves_per_simd), (8, "compiler", 8))
        self.assertEqual(gpuocc.regs_max_for_blocks("RX 7900 XTX", k, 7), 108)
        # The runtime's answer, gfx1100 wave64, 96 VGPRs, 16 KiB of LDS (as tests/test_cli_amd.py derives it):
        # HIP's newest rules 8 workgroups (the WGP's 128 KiB of LDS / 16 KiB); before ROCm 7 the LDS budget is
        # one workgroup's limit, 64 KiB / 16 KiB = 4.  `model` and `rocm` take the CLI's and CSV's values.
        k = gpuocc.kernel(256, regs=96, smem_static=16 * KIB, wave_size=64, model="runtime")
        self.assertEqual((gpuocc.occupancy("gfx1100", k).blocks_per_sm, gpuocc.occupancy("gfx1100", k).model),
                         (8, "runtime"))
        self.assertEqual(gpuocc.occupancy("gfx1100", dataclasses.replace(k, rocm="6.2")).blocks_per_sm, 4)
        self.assertEqual(dataclasses.replace(k, rocm="06.2").rocm, "6.2")
        for bad in (dict(model="hip"), dict(model="runtime", rocm="6"), dict(model="runtime", rocm="6.100")):
            with self.assertRaises(gpuocc.Error, msg=bad):
                gpuocc.kernel(256, **bad)
        # rocm without the runtime model, and amdgpu_waves_per_eu(4, 2), are refused by the call as the library
        # and the CLI refuse them: "argument", the input named (waves_per_eu with the maximum, 2, as its limit)
        for bad, named in ((dict(rocm="6.2"), ("rocm", 0)), (dict(rocm="6.2", model="llvm19"), ("rocm", 0)),
                           (dict(waves_per_eu_min=4, waves_per_eu_max=2), ("waves_per_eu", 2))):
            k = gpuocc.kernel(256, regs=32, **bad)
            for call in (lambda: gpuocc.occupancy("gfx1100", k), lambda: gpuocc.batch("gfx1100", [256], [32], kern=k)):
                with self.assertRaises(gpuocc.Error, msg=bad) as e:
                    call()
                self.assertEqual((e.exception.name, e.exception.exceeded, e.exception.exceeded_limit),
                                 ("argument", *named))
        self.assertIsNone(gpuocc.occupancy("gfx1100", gpuocc.kernel(256, regs=32, waves_per_eu_min=2,
                                                                    waves_per_eu_max=2)).exceeded)  # (2, 2) runs
        # NVIDIA's launch bound reaches the library: a block over it fits 0 blocks, threads over 256
        r = gpuocc.occupancy("H100", gpuocc.kernel(512, regs=32, max_threads=256))
        self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, "threads", 256))
        for bad in (dict(model=2), dict(model="runtime", rocm=602)):
            with self.assertRaises(TypeError, msg=bad):
                gpuocc.kernel(256, **bad)
        # NVIDIA-only inputs are refused for an AMD device, as `gpuocc report --arch MI300X --barriers 2` and an
        # AMD batch row with a carveout cell refuse them (AMD's rules have no barriers count, carveout or opt-in)
        for nvidia in (dict(barriers=2), dict(barriers=0), dict(carveout=50), dict(carveout=0),
                       dict(smem_optin=False), dict(smem_dynamic_max=4096)):
            k = gpuocc.kernel(256, regs=129, **nvidia)
            for call in (lambda: gpuocc.occupancy("MI300X", k), lambda: gpuocc.limits("MI300X", k),
                         lambda: gpuocc.sweep("MI300X", k, "regs"), lambda: gpuocc.batch("MI300X", [256], [129], kern=k),
                         lambda: gpuocc.best_block("MI300X", k), lambda: gpuocc.regs_max_for_blocks("MI300X", k, 2)):
                with self.assertRaises(gpuocc.Error, msg=nvidia) as e:
                    call()
                self.assertEqual(e.exception.name, "argument")
                self.assertIn("NVIDIA only", str(e.exception))
            # the same kernel on an NVIDIA device is an answer: 129 x 32 = 4128 -> 4352 registers a warp, 16384 /
            # 4352 = 3 warps per sub-partition, 12 per SM = one 8-warp block (none of these fields changes that)
            self.assertEqual(gpuocc.occupancy("H100", k).blocks_per_sm, 1, nvidia)
        # gfx906 SGPRs: 100 allow 8 waves per SIMD (LLVM 19's table): 32 one-wave workgroups; 88 allow 9.
        # (Today's LLVM with the trap handler: 800 / 128 = 6 waves; 25 workgroups need 96 SGPRs.)
        self.assertEqual(gpuocc.next_step("MI50", gpuocc.kernel(64, regs=16, sgprs=100), "sgprs"),
                         gpuocc.NextStep("sgprs", 96, 4))
        k = gpuocc.kernel(64, regs=16, sgprs=100, model="llvm19")
        self.assertEqual(gpuocc.occupancy("MI50", k).limiters, ("sgprs",))
        self.assertEqual(gpuocc.next_step("MI50", k, "sgprs"), gpuocc.NextStep("sgprs", 88, 12))
        # batch() and sweep() carry AMD's waves_per_simd and limit_sgprs too: 8 waves per SIMD x 4 SIMDs = 32
        # waves per CU, so 32 one-wave (64-thread) workgroups or 8 four-wave (256-thread) ones
        c = gpuocc.batch("MI50", [64, 256, 0], [16, 16, 16], kern=k)
        self.assertEqual((list(c["waves_per_simd"]), list(c["limit_sgprs"])), ([8, 8, 0], [32, 8, 0]))
        self.assertNotIn("waves_per_simd", gpuocc.batch("H100", [64], [16]))  # None on NVIDIA: no column
        # a workgroup larger than the flat maximum the kernel was compiled for does not launch: the library's 0
        # workgroups with threads over 256, as `gpuocc report --threads 512 --max-threads 256` and a batch row
        r = gpuocc.occupancy("MI300X", gpuocc.kernel(512, regs=64, max_threads=256))
        self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, "threads", 256))
        c = gpuocc.batch("MI300X", [256, 512], [64, 64], kern=gpuocc.kernel(1, max_threads=256))
        self.assertEqual([gpuocc.status_name(x) for x in c["status"]], ["ok", "ok"])
        self.assertEqual((c["blocks_per_sm"][1], c["exceeded"][1], c["exceeded_limit"][1]), (0, "threads", 256))
        self.assertEqual(c["blocks_per_sm"][0], 8)  # 64 VGPRs: 8 waves per SIMD, one per workgroup and SIMD
        # what the library refuses is named, as `gpuocc report` names it, with the library's status and input
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy("MI50", gpuocc.kernel(64, regs=16, agprs=8))  # gfx906 has no AGPRs
        self.assertEqual((e.exception.name, e.exception.exceeded, e.exception.exceeded_limit), ("argument", "agprs", 0))
        self.assertIn("no AGPRs", str(e.exception))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy("MI50", gpuocc.kernel(64, regs=16, wave_size=32))  # gfx9 runs wave64 only
        self.assertIn("wave64 only", str(e.exception))
        # out= reuse is per vendor: an AMD batch's columns would keep stale AMD answers in an NVIDIA batch
        for first, then in (("MI50", "H100"), ("H100", "MI50")):
            with self.assertRaises(gpuocc.Error, msg=(first, then)) as e:
                gpuocc.batch(then, [64], [16], out=gpuocc.batch(first, [64], [16]))
            self.assertIn("AMD", str(e.exception))
        reused = gpuocc.batch("MI50", [64], [16], kern=k)
        self.assertIs(gpuocc.batch("MI50", [256], [16], kern=k, out=reused)["limit_sgprs"], reused["limit_sgprs"])
        self.assertEqual(list(reused["limit_sgprs"]), [8])
        c = gpuocc.sweep("MI50", k, "threads", 64, 256, 192)
        self.assertEqual((list(c["threads"]), list(c["waves_per_simd"]), list(c["limit_sgprs"])),
                         ([64, 256], [8, 8], [32, 8]))
        self.assertEqual(list(c["sgprs"]), [100, 100])  # AMD's launch columns, as `gpuocc sweep` prints them
        self.assertNotIn("barriers", c)
        with self.assertRaises(gpuocc.Error) as e:  # AMD's rules count no barriers, as `gpuocc sweep` refuses
            gpuocc.sweep("MI50", k, "barriers")
        self.assertIn("NVIDIA and Intel only", str(e.exception))


class Remarks(unittest.TestCase):
    """LLVM's kernel-resource-usage remarks as clang-19 printed them (tests/data/remarks/capture.sh)."""

    def test_gfx942_log(self):
        with open(os.path.join(DATA, "remarks", "gfx942.log"), "rb") as f:
            rows = gpuocc.read_remarks(f.read())
        by = {r.name: r for r in rows}
        self.assertEqual(len(rows), 9)
        # "VGPRs: 38", "AGPRs: 64", "Occupancy [waves/SIMD]: 4" in the log
        self.assertEqual((by["agpr_mix"].vgprs, by["agpr_mix"].agprs, by["agpr_mix"].llvm_waves_per_simd), (38, 64, 4))
        self.assertEqual(by["lds_16k"].smem_static, 16384)
        self.assertEqual(by["lds_16k"].line, 1)
        self.assertEqual(by["with_call"].scratch, 68)
        self.assertEqual(by["plain"].dynamic_stack, 1)
        self.assertEqual(by["sgpr_heavy"].sgprs, 107)

    def test_a_remark_evaluated_on_mi300x(self):
        # agpr_mix on MI300X (gfx942, docs/amd.md): unified file, VGPRs rounded to 4 then the AGPRs:
        # 40 + 64 = 104 per lane, a multiple of the granule 8; 512 / 104 = 4 waves per SIMD.  256 threads =
        # 4 wave64 on 4 SIMDs: 4 workgroups per CU; 8 SGPRs allow 10 waves (capped at 8): 8 workgroups.  LLVM
        # printed "Occupancy [waves/SIMD]: 4" for it.
        with open(os.path.join(DATA, "remarks", "gfx942.log")) as f:
            rk = {r.name: r for r in gpuocc.read_remarks(f.read())}["agpr_mix"]
        k = gpuocc.kernel(256, regs=rk.vgprs, agprs=rk.agprs, sgprs=rk.sgprs, smem_static=rk.smem_static,
                          max_threads=256)
        r = gpuocc.occupancy("MI300X", k)
        self.assertEqual((r.blocks_per_sm, r.warps_per_sm, r.waves_per_simd), (4, 16, 4))
        self.assertEqual(r.waves_per_simd, rk.llvm_waves_per_simd)
        self.assertEqual(r.limiters, ("registers",))
        self.assertEqual(r.limit_sgprs, 8)

    def test_mangled_names_and_absent_agprs(self):
        with open(os.path.join(DATA, "remarks", "hip_two_targets.log")) as f, self.assertWarns(UserWarning):
            rows = gpuocc.read_remarks(f.read())
        self.assertEqual([r.short_name for r in rows], ["saxpy", "_Z5tiledILi1024EEvPf", "saxpy", "_Z5tiledILi1024EEvPf"])
        self.assertEqual(rows[0].name, "_Z5saxpyPfPKff")
        self.assertEqual((rows[0].agprs, rows[2].agprs), (None, 0))  # gfx1100 prints no AGPRs line, gfx942 does

    def test_two_targets_named_every_row_kept(self):
        # One clang-19 command for gfx942 and gfx1100 (capture.sh): gfx1100's remarks (lines 1-22, LLVM's
        # Occupancy 16 and 12), then gfx942's (8 and 4), naming neither target.  The second run is named as
        # `gpuocc remarks` names it on stderr; every record is returned.
        with open(os.path.join(DATA, "remarks", "hip_light_heavy.log")) as f:
            text = f.read()
        with self.assertWarns(UserWarning) as w:
            rows = gpuocc.read_remarks(text)
        self.assertEqual([(r.short_name, r.line, r.llvm_waves_per_simd) for r in rows],
                         [("light", 1, 16), ("heavy", 12, 12), ("light", 23, 8), ("heavy", 35, 4)])
        self.assertEqual(len(w.warnings), 1)
        self.assertTrue(str(w.warning).startswith("line 23: kernel '_Z5lightPfPKf' again (first at line 1): "
                                                  "another compile's remarks start here"), str(w.warning))
        self.assertEqual(w.filename, __file__)
        # each target's remarks on their own: no warning, and LLVM's answer on that target (HIP's flat size 1024)
        lines = text.splitlines(keepends=True)
        for arch, part, llvm in [("gfx1100", lines[:22], (16, 12)), ("gfx942", lines[22:], (8, 4))]:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                got = gpuocc.read_remarks("".join(part))
            waves = tuple(gpuocc.occupancy(arch, gpuocc.kernel(256, regs=r.vgprs, agprs=r.agprs or 0, sgprs=r.sgprs,
                                                                  max_threads=1024, model="llvm19")).waves_per_simd
                          for r in got)
            self.assertEqual(waves, llvm, arch)

    def test_errors(self):
        with self.assertRaises(gpuocc.Error):  # no kernel: test_no_kernel_found_raises
            gpuocc.read_remarks("no remarks\n")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_remarks("x\nremark: k.cl:1:0: Function Name: k\nremark: k.cl:1:0:     SGPRs: 8\n")
        self.assertEqual(e.exception.name, "truncated")
        self.assertIn("line 2", str(e.exception))
        with self.assertRaises(TypeError):
            gpuocc.read_remarks(42)


class Sweep(unittest.TestCase):
    """A100 at 256 threads (8 warps per block, 8 blocks by warp slots): registers go to a warp in units of
    256 and each of 4 sub-partitions holds 16384, so blocks = floor(floor(16384 / per_warp) x 4 / 8)."""

    def test_seed_staircase_points(self):
        c = gpuocc.sweep("A100", gpuocc.kernel(threads=256), "regs", 16, 128, 48)
        self.assertEqual(list(c["regs"]), [16, 64, 112])
        # 16: 512 per warp -> 16 blocks, warps bind at 8 (100 %); 64: 2048 -> 8 per part -> 4 (50 %);
        # 112: 3584 -> 4 per part -> 2 (25 %)
        self.assertEqual(list(c["blocks_per_sm"]), [8, 4, 2])
        self.assertEqual(list(c["occupancy"]), [1.0, 0.5, 0.25])
        self.assertEqual(list(c["threads"]), [256, 256, 256])
        self.assertEqual(gpuocc.limiter_names(c["limiters"][1]), ("registers",))
        self.assertEqual(c["limit_smem"][0], 164)  # 1 KiB reserved: 167936 / 1024
        self.assertEqual(list(c)[:7], ["threads", "regs", "smem_static", "smem_dynamic", "barriers", "carveout",
                                       "smem_optin"])
        # batch()'s results, in batch()'s order: status 0 and the carveout, A100's 164 KiB, at every point
        self.assertEqual(list(c)[7:], ["status", "blocks_per_sm", "warps_per_sm", "occupancy", "limiters",
                                       "limit_warps", "limit_regs", "limit_smem", "limit_blocks", "limit_barriers",
                                       "regs_per_block", "smem_per_block", "smem_per_sm",
                                       "limit_virtual_resources"])  # docs/output.md
        self.assertEqual((list(c["status"]), list(c["smem_per_sm"])), ([0] * 3, [164 * KIB] * 3))

    def test_every_row_equals_a_single_call(self):
        k = gpuocc.kernel(threads=128, regs=40, smem_static=1000)
        for axis in gpuocc.AXES[:4]:  # sub_group and grf are Intel's
            c = gpuocc.sweep("H100", k, axis)
            for row in c.to_dicts()[::7]:
                r = gpuocc.occupancy("H100", gpuocc.kernel(threads=row["threads"], regs=row["regs"],
                                                           smem_static=1000, smem_dynamic=row["smem_dynamic"],
                                                           barriers=row["barriers"]))
                self.assertEqual((row["blocks_per_sm"], row["occupancy"]), (r.blocks_per_sm, r.occupancy))
                self.assertEqual(gpuocc.limiter_names(row["limiters"]), r.limiters)

    def test_steps_by_hand(self):
        # the runs derived in the class docstring: 8 blocks (warps; from 25 tied with registers), then
        # 6, 5, 4, 3, 2, 1
        c = gpuocc.sweep_steps("A100", gpuocc.kernel(threads=256), "regs", 0, 256)
        self.assertEqual(list(c["regs"]), [0, 25, 33, 41, 49, 65, 81, 129])
        self.assertEqual(list(c["blocks_per_sm"]), [8, 8, 6, 5, 4, 3, 2, 1])

    def test_virtual_resources_limit(self):
        # batch's limit_virtual_resources column, as `gpuocc sweep` prints it: sm_110 has 128 virtual resources per
        # SM, so 109 a block allow floor(128 / 109) = 1 block at every point (no axis moves it); H100 (cc 9.0) has
        # none (-1); AMD has no such column
        k = gpuocc.kernel(threads=160, regs=123, virtual_resources=109)
        c = gpuocc.sweep("sm_110", k, "barriers", 0, 2, 1)
        self.assertEqual(list(c["limit_virtual_resources"]), [1, 1, 1])
        self.assertEqual(list(c["blocks_per_sm"]), [1, 1, 1])
        self.assertEqual(list(gpuocc.sweep("H100", gpuocc.kernel(threads=160, regs=123), "regs", 0, 64, 32)
                              ["limit_virtual_resources"]), [-1, -1, -1])
        self.assertNotIn("limit_virtual_resources", gpuocc.sweep("MI300X", gpuocc.kernel(threads=256, regs=64), "regs"))

    def test_ranges_and_errors(self):
        k = gpuocc.kernel(threads=256, regs=32)
        self.assertEqual(gpuocc.sweep_range("A100", k, "threads"), (32, 1024, 32))
        self.assertEqual(gpuocc.sweep_range("A100", k, "smem"), (0, 163 * KIB, 128))
        self.assertEqual(gpuocc.sweep("A100", k, "threads").rows, 32)
        with self.assertRaises(gpuocc.Error):
            gpuocc.sweep("A100", k, "warps")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.sweep("A100", k, "threads", 0, 10, 1)
        self.assertEqual(e.exception.name, "threads")
        with self.assertRaises(TypeError):
            gpuocc.sweep("A100", k, "regs", 1.5, 10, 1)

class Intel(unittest.TestCase):
    """Intel's rules through Python; values derived by hand as in tests/test_intel.c."""

    def test_calculator_and_runtime(self):
        # PVC: 512 / 16 = 32 hardware threads; large GRF leaves 64 / 2 = 32: 1 work-group, 32 / 64 = 50 %
        r = gpuocc.occupancy("pvc", gpuocc.kernel(threads=512, sub_group=16, grf=256, smem_static=64 * 1024))
        self.assertEqual((r.blocks_per_sm, r.occupancy, r.limiters, r.model), (1, 0.5, ("registers",), "calculator"))
        self.assertIsNone(r.waves_per_simd)
        # the runtime on Max 1550 (128 Xe-cores): 48 KiB, 128 x 128 KiB / 48 KiB = 341 work-groups on the GPU
        r = gpuocc.occupancy("Max 1550", gpuocc.kernel(threads=256, sub_group=16, smem_static=48 * 1024,
                                                       model="runtime"))
        self.assertEqual((r.blocks_per_sm, r.workgroups_per_gpu, r.model), (2, 341, "runtime"))

    def test_kernel_work_group_maximum(self):
        # PVC (8 XVEs x 8 threads): 256 work-items at sub-group 16 are 16 threads, 64 / 16 = 4 work-groups;
        # a kernel whose max_work_group_size is 128 cannot be enqueued with 256 (CL_INVALID_WORK_GROUP_SIZE)
        k = dict(threads=256, sub_group=16)
        self.assertEqual(gpuocc.occupancy("pvc", gpuocc.kernel(max_threads=256, **k)).blocks_per_sm, 4)
        r = gpuocc.occupancy("pvc", gpuocc.kernel(max_threads=128, **k))
        self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, "threads", 128))

    def test_read_binary_launch_bound(self):
        # tests/data/zebin/reqd_pvc.bin (ocloc, reqd.cl): .ze_info says `required_work_group_size: [ 128, 1, 1 ]`
        # for fixed, `[ 8, 4, 2 ]` for tile, none for hinted (a work_group_size_hint only); SIMD32, product
        # family 1271 (pvc).  max_threads is x*y*z, as the CLI's row; kernels_pvc.bin's kernels have none: 0
        got = {k.name: k for k in gpuocc.read_binary(os.path.join(DATA, "zebin", "reqd_pvc.bin")).kernels}
        self.assertEqual({n: (k.vendor, k.arch, k.sub_group, k.max_threads) for n, k in got.items()},
                         {"fixed": ("intel", "pvc", 32, 128), "tile": ("intel", "pvc", 32, 64),
                          "hinted": ("intel", "pvc", 32, 0)})
        self.assertEqual([k.max_threads for k in gpuocc.read_binary(os.path.join(DATA, "zebin", "kernels_pvc.bin")).kernels],
                         [0, 0])
        # the bound as the launch's: 256 work-items over 128 fit no work-group (threads exceeded at 128); at the
        # bound, 128 / 32 = 4 threads, pvc's 64 / 4 = 16 work-groups
        fixed = got["fixed"]
        r = gpuocc.occupancy(fixed.arch, gpuocc.kernel(threads=256, sub_group=fixed.sub_group, grf=fixed.grf,
                                                       max_threads=fixed.max_threads))
        self.assertEqual((r.blocks_per_sm, r.exceeded, r.exceeded_limit), (0, "threads", 128))
        r = gpuocc.occupancy(fixed.arch, gpuocc.kernel(threads=fixed.max_threads, sub_group=fixed.sub_group,
                                                       grf=fixed.grf, max_threads=fixed.max_threads))
        self.assertEqual(r.blocks_per_sm, 16)

    def test_batch_workgroups_per_gpu(self):
        # Max 1550 (128 Xe-cores, pvc's 8 XVEs x 8 threads), the runtime: 256 work-items (16 threads), no SLM:
        # 128 x 64 / 16 = 512; 128 (8 threads) with 48 KiB: min(1024, 1024, 128 x 32, 128 x 128 / 48 = 341) = 341;
        # 512 (32 threads) with 48 KiB: min(256, 2 x 128, 4096, 341) = 256; 4096 work-items: over the largest
        # work-group (1024): 0 work-groups
        k = gpuocc.kernel(threads=1, model="runtime")
        c = gpuocc.batch("Max 1550", threads=[256, 128, 512, 4096], smem_static=[0, 48 * KIB, 48 * KIB, 0], kern=k)
        self.assertEqual(list(c["workgroups_per_gpu"]), [512, 341, 256, 0])
        self.assertEqual(list(c["blocks_per_sm"]), [4, 2, 2, 0])
        # the calculator: blocks_per_sm x 128 (4 x 128); a bad row (0 work-items) 0, as its other columns
        c = gpuocc.batch("Max 1550", threads=[256, 0])
        self.assertEqual((list(c["workgroups_per_gpu"]), c["status"][1] != 0), ([512, 0], True))
        # pvc (a bare architecture): no Xe-core count, `gpuocc batch --json` says null: no column, as on A100
        self.assertNotIn("workgroups_per_gpu", gpuocc.batch("pvc", threads=[256]))
        self.assertNotIn("workgroups_per_gpu", gpuocc.batch("A100", threads=[256]))
        out = gpuocc.batch("Max 1550", threads=[256, 512], kern=k)
        again = gpuocc.batch("Max 1550", threads=[512, 256], kern=k, out=out)
        self.assertEqual(list(again["workgroups_per_gpu"]), [256, 512])

    def test_workgroups_per_gpu_none_where_the_json_says_null(self):
        # `gpuocc report --json` (docs/output.md): workgroups_per_gpu is null on NVIDIA and AMD and for an
        # Intel architecture without an Xe-core count (pvc), a number for a product with one, 0 included (a
        # launch that cannot run on Max 1550: 4096 work-items are over its largest work-group, 1024)
        for dev in ("A100", "MI300X", "pvc"):
            self.assertIsNone(gpuocc.occupancy(dev, gpuocc.kernel(threads=256, regs=0 if dev == "pvc" else 64))
                              .workgroups_per_gpu, dev)
        self.assertEqual(gpuocc.occupancy("Max 1550", gpuocc.kernel(threads=256)).workgroups_per_gpu, 4 * 128)
        self.assertEqual(gpuocc.occupancy("Max 1550", gpuocc.kernel(threads=4096)).workgroups_per_gpu, 0)
        self.assertIsNone(dataclasses.asdict(gpuocc.occupancy("A100", gpuocc.kernel(threads=256)))["workgroups_per_gpu"])
        # a sweep on pvc carries no column either (`gpuocc sweep --json`: null at every point)
        self.assertNotIn("workgroups_per_gpu", gpuocc.sweep("pvc", gpuocc.kernel(threads=256), "grf"))

    def test_sweep_axes(self):
        # dg2 (16 XVEs x 8 = 128 threads, 128 KiB SLM, sub-groups 8, 16, 32), 256 work-items, 32 KiB SLM: SLM
        # 128 / 32 = 4 work-groups; sub-group 8: 32 threads per WG, 128 / 32 = 4 (a tie), 100 %; 16: 16 threads,
        # 4 WGs, 50 %; 32: 8 threads, 25 %
        c = gpuocc.sweep("dg2", gpuocc.kernel(threads=256, smem_static=32 * KIB), "sub_group")
        self.assertEqual(list(c["sub_group"]), [8, 16, 32])
        self.assertEqual(list(c["occupancy"]), [1.0, 0.5, 0.25])
        self.assertEqual([gpuocc.limiter_names(m) for m in c["limiters"]],
                         [("warps", "shared_memory"), ("shared_memory",), ("shared_memory",)])
        self.assertEqual(list(c["grf"]), [128] * 3)
        # pvc: sub-groups 16 and 32 only
        self.assertEqual(list(gpuocc.sweep("pvc", gpuocc.kernel(threads=256), "sub-group", 8, 32, 8)["sub_group"]),
                         [16, 32])
        # pvc, 256 work-items: 128 GRF 4 WGs; 256 (large GRF: 32 threads) 2 WGs, 50 %, the GRF mode limits
        c = gpuocc.sweep("pvc", gpuocc.kernel(threads=256), "grf")
        self.assertEqual((list(c["grf"]), list(c["blocks_per_sm"]), list(c["limit_regs"])), ([128, 256], [4, 2], [-1, 2]))
        # ptl, the runtime (Xe3: 10 threads per XVE to 96 GRF, 8 to 128, 6 to 160, 5 to 192, 4 to 256), 16
        # threads per WG on 8 XVEs: 5, 4, 3, 2 work-groups, changing at 97, 129, 161
        c = gpuocc.sweep_steps("ptl", gpuocc.kernel(threads=256, model="runtime"), "grf", 1, 256)
        self.assertEqual((list(c["grf"]), list(c["blocks_per_sm"])), ([1, 97, 129, 161], [5, 4, 3, 2]))
        self.assertEqual(gpuocc.sweep_range("ptl", gpuocc.kernel(threads=256), "grf"), (32, 256, 32))
        # Max 1550's GPU-wide count along the SLM axis: 4 x 128 while threads bind
        c = gpuocc.sweep("Max 1550", gpuocc.kernel(threads=256), "slm", 0, 8 * KIB, 4 * KIB)
        self.assertEqual(list(c["workgroups_per_gpu"]), [512] * 3)
        for dev, axis in (("A100", "grf"), ("MI300X", "sub_group"), ("pvc", "regs")):
            with self.assertRaises(gpuocc.Error):
                gpuocc.sweep(dev, gpuocc.kernel(threads=256), axis)

    def test_refusals(self):
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("H100", gpuocc.kernel(threads=256, regs=32, sub_group=16))
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("pvc", gpuocc.kernel(threads=256, regs=32))
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("pvc", gpuocc.kernel(threads=256, sub_group=8))
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("MI300X", gpuocc.kernel(threads=256, regs=32, model="calculator"))

    def test_device_round_trip(self):
        d = gpuocc.device("bmg")
        self.assertEqual(d.slm_sizes_kib, (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128))
        gpuocc.validate_device(d)


class VirtualResources(unittest.TestCase):
    def test_limit(self):
        # B200: 128 threads at 32 registers allow 16 blocks; 40 of the SM's 128 virtual resources: 3
        k = gpuocc.kernel(threads=128, regs=32, virtual_resources=40)
        r = gpuocc.occupancy("B200", k)
        self.assertEqual((r.blocks_per_sm, r.limiters, r.limit_virtual_resources), (3, ("virtual_resources",), 3))
        self.assertEqual(gpuocc.device("B200").virtual_resources_per_sm, 128)
        self.assertEqual(gpuocc.device("H100").virtual_resources_per_sm, 0)
        r = gpuocc.occupancy("H100", k)  # cc 9.0 has none
        self.assertEqual((r.blocks_per_sm, r.limit_virtual_resources), (16, None))
        self.assertIsNone(gpuocc.occupancy("B200", dataclasses.replace(k, virtual_resources=0)).limit_virtual_resources)
        c = gpuocc.batch("B200", [32, 128], [32, 64], kern=k)
        self.assertEqual(list(c["blocks_per_sm"]), [3, 3])
        self.assertEqual(gpuocc.limiter_names(c["limiters"][0]), ("virtual_resources",))

    def test_refused(self):
        for name in ("MI300X", "bmg"):
            with self.assertRaises(gpuocc.Error):
                gpuocc.occupancy(name, gpuocc.kernel(threads=128, regs=32, virtual_resources=4))
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("B200", gpuocc.kernel(threads=128, regs=32, virtual_resources=-1))



class HopperBlackwell(unittest.TestCase):
    """Hopper- and Blackwell-era resources, values derived by hand (docs/model.md, docs/amd.md)."""

    def test_tmem(self):
        # 512 columns per SM on B200: floor(512 / 256) = 2 holders, none for 0 columns
        self.assertEqual(gpuocc.device("B200").tmem_columns_per_sm, 512)
        self.assertEqual(gpuocc.device("H100").tmem_columns_per_sm, 0)
        self.assertEqual(gpuocc.tmem_holders("B200", 256), 2)
        self.assertEqual(gpuocc.tmem_holders("sm_110", 32), 16)
        self.assertIsNone(gpuocc.tmem_holders("B200", 0))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.tmem_holders("H100", 128)
        self.assertEqual(e.exception.name, "tmem")
        with self.assertRaises(gpuocc.Error):
            gpuocc.tmem_holders("B200", 48)
        # never lowers the blocks: 128 threads at 32 registers are 16 blocks with or without
        k = gpuocc.kernel(threads=128, regs=32, tmem_columns=256)
        self.assertEqual(gpuocc.occupancy("B200", k).blocks_per_sm, 16)
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy("RTX 5090", k)
        self.assertEqual(e.exception.name, "tmem")

    def test_batch_refuses_what_occupancy_refuses(self):
        # a base kernel the single call refuses gave 8 blocks in batch(): tensor memory on H100 (none there),
        # AMD's dynamic VGPRs on an NVIDIA device; now the single call's status and input, row by row or for
        # the call, never an answer
        for kw, status in [(dict(tmem_columns=128), "tmem"), (dict(dvgpr=16), "argument")]:
            k = gpuocc.kernel(threads=256, regs=32, **kw)
            with self.assertRaises(gpuocc.Error) as single:
                gpuocc.occupancy("H100", k)
            field = next(iter(kw))
            self.assertEqual((single.exception.name, single.exception.exceeded), (status, field))
            try:
                c = gpuocc.batch("H100", threads=[256, 128], kern=k)
            except gpuocc.Error as e:
                self.assertEqual((e.name, e.exceeded), (status, field))
            else:
                self.assertEqual([gpuocc.status_name(x) for x in c["status"]], [status, status])
                self.assertEqual(list(c["blocks_per_sm"]), [0, 0])
                self.assertEqual(c["exceeded"], [field, field])
        # tensor memory as a column: refused where the device has none, held on sm_100
        c = gpuocc.batch("H100", threads=[256], tmem_columns=[128])
        self.assertEqual((gpuocc.status_name(c["status"][0]), c["exceeded"][0]), ("tmem", "tmem_columns"))
        c = gpuocc.batch("B200", threads=[256], regs=[32], tmem_columns=[128])
        self.assertEqual((gpuocc.status_name(c["status"][0]), c["blocks_per_sm"][0]), ("ok", 8))

    def test_setmaxnreg_golden(self):
        # producer 40, consumers 232, 384 threads at 168: (40 + 232 + 232) x 128 = 64512 = 168 x 384
        r = gpuocc.setmaxnreg("H100", gpuocc.kernel(threads=384, regs=168), [40, 232, 232])
        self.assertTrue(r.fits)
        self.assertEqual((r.pool_regs, r.requested_regs, r.mean_regs_per_thread), (64512, 64512, 168.0))
        self.assertEqual(r.blocks_per_sm, 1)
        self.assertFalse(r.unfixed)
        r = gpuocc.setmaxnreg("H100", gpuocc.kernel(threads=384, regs=168), [40, 240, 232], regs_fixed=False)
        self.assertFalse(r.fits)
        self.assertTrue(r.unfixed)
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.setmaxnreg("A100", gpuocc.kernel(threads=384, regs=168), [40, 232, 232])
        self.assertEqual(e.exception.name, "setmaxnreg")
        with self.assertRaises(gpuocc.Error):
            gpuocc.setmaxnreg("H100", gpuocc.kernel(threads=384, regs=168), [40, 232, 230])

    def test_min_blocks(self):
        # (256, 4) on H100 at 64 registers: 4 blocks; 60000 B dynamic shared memory leaves 3 (61056 B each)
        k = gpuocc.kernel(threads=256, regs=64)
        self.assertTrue(gpuocc.min_blocks_check("H100", k, 4).reached)
        m = gpuocc.min_blocks_check("H100", dataclasses.replace(k, smem_dynamic=60000), 4)
        self.assertEqual((m.blocks_per_sm, m.reached, m.preventing), (3, False, ("shared_memory",)))

    def test_dvgpr(self):
        # gfx1200, 256 threads at 128 VGPRs: 5 workgroups static (1536 / 144 = 10 waves per SIMD, x 4 / 8);
        # blocks of 16: no VGPR limit, the 16 wave slots give 8; 129 VGPRs exceed 8 x 16
        self.assertEqual(gpuocc.occupancy("gfx1200", gpuocc.kernel(threads=256, regs=128)).blocks_per_sm, 5)
        r = gpuocc.occupancy("gfx1200", gpuocc.kernel(threads=256, regs=128, dvgpr=16))
        self.assertEqual((r.blocks_per_sm, r.limit_regs), (8, None))
        self.assertEqual(gpuocc.occupancy("gfx1200", gpuocc.kernel(threads=256, regs=129, dvgpr=16)).blocks_per_sm, 0)
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("H100", gpuocc.kernel(threads=256, regs=64, dvgpr=16))
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("gfx942", gpuocc.kernel(threads=256, regs=64, dvgpr=16))


    def test_llvm_generations_and_compiler_inputs(self):
        # gfx900, 88 SGPRs, one-wave workgroups compiled for 1..64 (occupancy-levels.ll): LLVM 19's table 9 waves;
        # today's LLVM 800 / 96 = 8 without the trap handler, 800 / (96 + 16) = 7 with it (the default)
        k = gpuocc.kernel(64, regs=1, sgprs=88, max_threads=64)
        self.assertEqual(gpuocc.occupancy("gfx900", dataclasses.replace(k, model="llvm19")).waves_per_simd, 9)
        self.assertEqual(gpuocc.occupancy("gfx900", dataclasses.replace(k, model="llvm19")).model, "llvm19")
        self.assertEqual(gpuocc.occupancy("gfx900", dataclasses.replace(k, trap_handler=-1)).waves_per_simd, 8)
        self.assertEqual(gpuocc.occupancy("gfx900", k).waves_per_simd, 7)
        # waves per EU 1,3 on 1..256: 65 VGPRs given (68 allocated), 3 waves per SIMD, 3 workgroups of 256
        r = gpuocc.occupancy("gfx900", gpuocc.kernel(256, regs=16, max_threads=256, waves_per_eu_min=1,
                                                     waves_per_eu_max=3))
        self.assertEqual((r.waves_per_simd, r.blocks_per_sm, r.regs_per_block), (3, 3, 68 * 64 * 4))
        # the flat range: 1..1024 without LDS is LLVM's best case (1-wave workgroups: 10 per SIMD); the launch of
        # 1024 threads holds 2 workgroups
        r = gpuocc.occupancy("gfx900", gpuocc.kernel(1024, regs=1, max_threads=1024, flat_workgroup_size_min=1))
        self.assertEqual((r.waves_per_simd, r.blocks_per_sm), (10, 2))
        # a flat minimum needs its maximum
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy("gfx900", gpuocc.kernel(256, regs=1, flat_workgroup_size_min=64))
        self.assertEqual(e.exception.name, "argument")
        with self.assertRaises(gpuocc.Error):
            gpuocc.occupancy("ptl", gpuocc.kernel(256, model="llvm19"))


class Clusters(unittest.TestCase):
    """Thread-block clusters, values derived by hand (docs/model.md, "Thread-block clusters"): 1024 threads
    of 64 registers fit 1 block per SM on H100 (2048 registers a warp, 8 warps a sub-partition, 32 of 64),
    of 32 registers 2."""

    def test_size_max(self):
        self.assertEqual(gpuocc.cluster_size_max("A100"), 0)
        self.assertEqual(gpuocc.cluster_size_max("H100"), 8)
        self.assertEqual(gpuocc.cluster_size_max("H100", True), 16)
        self.assertEqual(gpuocc.cluster_size_max("GB10", True), 8)
        self.assertIsNone(gpuocc.cluster_size_max("RTX 5090", True))  # not published
        with self.assertRaises(TypeError):
            gpuocc.cluster_size_max("H100", 1)

    def test_check(self):
        self.assertEqual(gpuocc.cluster_check("H100", (2, 1, 1)), "legal")
        self.assertEqual(gpuocc.cluster_check("A100", 2), "unsupported")
        self.assertEqual(gpuocc.cluster_check("H100", (3, 3)), "needs_nonportable")
        self.assertEqual(gpuocc.cluster_check("H100", (3, 3), cluster_nonportable=True), "legal")
        self.assertEqual(gpuocc.cluster_check("H100", (4, 4, 2), cluster_nonportable=True), "too_large")
        self.assertEqual(gpuocc.cluster_check("H100", 8, max_blocks_per_cluster=4), "kernel_max")
        self.assertEqual(gpuocc.cluster_check("H100", 2, grid_blocks=131), "grid")
        self.assertEqual(gpuocc.cluster_check("H100", (2, 2), grid_blocks=(132, 4)), "legal")
        self.assertEqual(gpuocc.cluster_check("RTX 5090", 16, cluster_nonportable=True), "unverified")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.cluster_check("H100", 0)
        self.assertEqual(e.exception.name, "argument")

    def test_layouts(self):
        full = gpuocc.gpc_layout("GH100")
        self.assertTrue(full.exact)
        self.assertEqual(full.sms_per_gpc, (18,) * 8)
        sxm = gpuocc.gpc_layout("H100")
        self.assertEqual((sxm.exact, sxm.gpc_count, sxm.sm_count, sxm.sms_per_tpc, sxm.tpcs_per_gpc_max),
                         (False, 8, 132, 2, 9))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.gpc_layout("B200")
        self.assertEqual(e.exception.name, "unknown_device")
        self.assertEqual(gpuocc.clusters_per_gpc(18, 2, 16), 2)

    def test_occupancy(self):
        k1 = gpuocc.kernel(threads=1024, regs=64)
        k2 = gpuocc.kernel(threads=1024, regs=32)
        # any layout of 66 TPCs in 8 GPCs of at most 9: between 5 and 8 GPCs reach 16 SMs
        r = gpuocc.cluster_occupancy("H100", k1, 16, cluster_nonportable=True, gpc_sms="H100 SXM")
        self.assertEqual((r.verdict, r.clusters_exact, r.clusters_min, r.clusters_max), ("legal", False, 5, 8))
        # six GPCs of 16 and two of 18 at 2 blocks per SM, clusters of 6: 6 x 5 + 2 x 6
        r = gpuocc.cluster_occupancy("H100", k2, (3, 2), gpc_sms=[16] * 6 + [18] * 2)
        self.assertEqual((r.blocks_per_sm, r.clusters_exact, r.clusters_min, r.clusters_max), (2, True, 42, 42))
        # no layout: floor(148 / 16) on B200, the least unknown
        r = gpuocc.cluster_occupancy("B200", k1, 16, cluster_nonportable=True)
        self.assertEqual((r.clusters_min, r.clusters_max, r.gpc_count), (None, 9, 0))
        r = gpuocc.cluster_occupancy("RTX 5090", gpuocc.kernel(threads=1024, regs=32), 16, cluster_nonportable=True)
        self.assertEqual((r.verdict, r.cluster_blocks_max, r.clusters_max), ("unverified", None, 10))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.cluster_occupancy("H100", k1, (3, 3))
        self.assertEqual(e.exception.name, "cluster")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.cluster_occupancy("H100", k1, 2, gpc_sms="GH100")  # 144 SMs on a 132-SM device
        self.assertEqual(e.exception.name, "argument")
        with self.assertRaises(TypeError):
            gpuocc.cluster_occupancy("H100", k1, 2, gpc_sms=18)

if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    sys.exit(0 if result.wasSuccessful() else 1)
