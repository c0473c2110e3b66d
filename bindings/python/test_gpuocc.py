#!/usr/bin/env python3
"""The ctypes module against the freshly built library (GPUOCC_LIBRARY) and the captured fixtures
(GPUOCC_TEST_DATA).  Expected values are derived by hand from the allocation rules, the seeds or the
captured ptxas output, as in the C suites."""
import ctypes
import os
import sys
import unittest

import gpuocc

DATA = os.environ.get("GPUOCC_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data"))


class Layout(unittest.TestCase):
    def test_struct_sizes_match_the_frozen_c_layouts(self):
        # lib/core/structs.c static-asserts these sizes
        self.assertEqual(ctypes.sizeof(gpuocc.Device), 232)
        self.assertEqual(ctypes.sizeof(gpuocc.Kernel), 88)
        self.assertEqual(ctypes.sizeof(gpuocc.Result), 104)
        self.assertEqual(ctypes.sizeof(gpuocc.CompiledKernel), 144)
        self.assertEqual(gpuocc.CompiledKernel.max_threads_per_block.offset, 96)

    def test_version(self):
        self.assertRegex(gpuocc.version(), r"^\d+\.\d+\.\d+$")


class Occupancy(unittest.TestCase):
    def test_a100_registers(self):
        # 64 regs x 32 lanes = 2048 per warp; 16384 per sub-partition / 2048 = 8 warps; x4 = 32 warps = 4 blocks
        r = gpuocc.occupancy(gpuocc.device("A100"), gpuocc.kernel(threads=256, regs=64))
        self.assertEqual(r.blocks_per_sm, 4)
        self.assertEqual(r.occupancy, 0.5)
        self.assertEqual(gpuocc.limiter_names(r.limiters), ["registers"])

    def test_limits_per_resource(self):
        # H100: 2048 threads / 256 = 8 by warps; 32 block slots; 40 KiB + 1 KiB reserved = 41 KiB a block,
        # 228 KiB / 41 KiB = 5 by shared memory
        lim = gpuocc.limits(gpuocc.device("H100"), gpuocc.kernel(threads=256, regs=32, smem_dynamic=40 * 1024))
        self.assertEqual(lim["warps"], 8)
        self.assertEqual(lim["blocks"], 32)
        self.assertEqual(lim["shared_memory"], 5)

    def test_unlimited_is_none(self):
        lim = gpuocc.limits(gpuocc.device("sm_80"), gpuocc.kernel(threads=128, regs=0))
        self.assertIsNone(lim["registers"])

    def test_inverse_queries(self):
        dev = gpuocc.device("A100")
        # 4 blocks of 256 threads: 16384 / (8 warps) = 2048 registers a warp -> 64 per thread
        self.assertEqual(gpuocc.regs_max_for_blocks(dev, gpuocc.kernel(threads=256), 4), 64)
        threads, grid = gpuocc.best_block(dev, gpuocc.kernel(threads=1, regs=32))
        self.assertEqual(threads, 1024)      # 32 regs never limit: the largest block wins the tie
        self.assertEqual(grid, 2 * 108)      # 2 blocks of 1024 on each of 108 SMs

    def test_device_table(self):
        table = gpuocc.devices()
        names = [name for name, _, _ in table]
        # 20 compute capabilities 5.0 .. 12.1 (docs/sources.md), every entry sourced, each name resolvable
        self.assertEqual(sum(1 for _, kind, _ in table if kind == "arch"), 20)
        self.assertIn("sm_90", names)
        self.assertTrue(all(source for _, _, source in table))
        for name in names:
            gpuocc.device(name)

    def test_errors_raise_with_the_status(self):
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.device("no such gpu")
        self.assertEqual(e.exception.name, "unknown_device")
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.occupancy(gpuocc.device("A100"), gpuocc.kernel(threads=0))
        self.assertEqual(e.exception.code, -7)


class Models(unittest.TestCase):
    def test_littles_law(self):
        # 400 cycles x 0.5 warp-instructions per cycle = 200 in flight; 2 independent each -> 100 warps
        self.assertEqual(gpuocc.warps_needed(400, 0.5, 2), 100)

    def test_waves(self):
        # seeds: 300 blocks at 2 per SM on 132 SMs: 264 a wave, 2 waves, 36 in the last
        w = gpuocc.waves(300, 132, 2)
        self.assertEqual((w.blocks_per_wave, w.waves, w.last_wave_blocks), (264, 2, 36))


class CompilerOutput(unittest.TestCase):
    def test_ptxas_log(self):
        with open(os.path.join(DATA, "ptxas_sm90.log")) as f:
            rows = {r["short_name"]: r for r in gpuocc.read_ptxas(f.read())}
        # "Used 64 registers", "56 bytes stack frame, 52 bytes spill stores, 56 bytes spill loads"
        s = rows["spilling"]
        self.assertEqual((s["registers"], s["stack_frame_bytes"], s["spill_store_bytes"]), (64, 56, 52))
        self.assertEqual(s["name"], "_Z8spillingPfPKfii")

    def test_cubin_agrees_with_the_log(self):
        with open(os.path.join(DATA, "ptxas_sm90.log")) as f:
            log = {r["name"]: r for r in gpuocc.read_ptxas(f.read())}
        with open(os.path.join(DATA, "kernels_sm90.cubin"), "rb") as f:
            binary = {r["name"]: r for r in gpuocc.read_cubin(f.read())}
        self.assertEqual(set(log), set(binary))
        for name in log:
            for field in ("cc", "registers", "barriers", "smem_bytes", "stack_frame_bytes"):
                self.assertEqual(log[name][field], binary[name][field], (name, field))
        self.assertEqual(binary["_Z14register_heavyPfPKfi"]["max_threads_per_block"], 256)  # __launch_bounds__(256, 2)

    def test_bad_input(self):
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_cubin(b"\x7fELF")
        self.assertEqual(e.exception.name, "truncated")
        with open(os.path.join(DATA, "units_zstd.fatbin"), "rb") as f:
            with self.assertRaises(gpuocc.Error) as e:
                gpuocc.read_cubin(f.read())
        self.assertIn("compressed fatbinary: not supported", str(e.exception))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.read_ptxas("ptxas info    : Compiling entry function 'k' for 'sm_90'\n")
        self.assertIn("line 1", str(e.exception))


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    sys.exit(0 if result.wasSuccessful() else 1)
