#!/usr/bin/env python3
"""gpuocc.batch with numpy arrays: int32 columns used in place, other integer widths converted
once, numpy answers, out= of numpy arrays checked column by column before the call, every other dtype a
TypeError naming the column.  Runs under an interpreter that has numpy (bindings/python/meson.build picks
one); exits 77 (skipped) where none has it."""
import array
import dataclasses
import sys
import unittest

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed for", sys.executable)
    sys.exit(77)

import gpuocc


def single(dev, **launch):
    return gpuocc.occupancy(dev, gpuocc.kernel(**launch))


class NumpyBatch(unittest.TestCase):
    def test_int32_columns_in_place_and_numpy_answers(self):
        threads = np.array([256, 128], dtype=np.int32)
        c = gpuocc.batch("H100", threads=threads)
        self.assertIs(c["threads"], threads)  # in place: the caller's own array
        self.assertIsInstance(c["blocks_per_sm"], np.ndarray)
        self.assertEqual(c["blocks_per_sm"].dtype, np.int32)
        self.assertEqual(c["occupancy"].dtype, np.float64)
        self.assertEqual(c["smem_per_block"].dtype, np.int64)
        self.assertEqual(list(c["blocks_per_sm"]), [single("H100", threads=256).blocks_per_sm,
                                                     single("H100", threads=128).blocks_per_sm])

    def test_views_read_only_arrays_and_smem_widths(self):
        base = np.arange(0, 2048, dtype=np.int32)
        threads = base[32:288:1]  # a contiguous view into a larger array
        regs = np.full(len(threads), 64, dtype=np.int32)
        regs.flags.writeable = False  # inputs are only read
        smem = np.full(len(threads), 4096, dtype=np.int64)
        c = gpuocc.batch("A100", threads, regs, smem_dynamic=smem)
        self.assertIs(c["threads"], threads)
        self.assertIs(c["regs"], regs)
        self.assertIs(c["smem_dynamic"], smem)
        for i in (0, 100, 255):
            want = single("A100", threads=int(threads[i]), regs=64, smem_dynamic=4096)
            self.assertEqual(c["blocks_per_sm"][i], want.blocks_per_sm)
        c32 = gpuocc.batch("A100", threads, regs, smem_dynamic=smem.astype(np.int32))
        self.assertTrue(np.array_equal(c32["blocks_per_sm"], c["blocks_per_sm"]))

    def test_other_integer_widths_are_converted_once(self):
        for dtype in (np.int64, np.int16, np.uint8, np.uint32):
            threads = np.array([32, 64, 255], dtype=dtype)
            c = gpuocc.batch("H100", threads=threads, regs=np.array([32, 32, 32], dtype=dtype))
            self.assertEqual(c["threads"].dtype, np.int32)
            self.assertEqual(list(c["threads"]), [32, 64, 255])
            self.assertEqual(c["blocks_per_sm"][1], single("H100", threads=64, regs=32).blocks_per_sm)
        strided = np.arange(0, 1024, dtype=np.int32)[1::8]  # not contiguous: converted
        self.assertEqual(len(gpuocc.batch("H100", threads=strided)["status"]), len(strided))
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.batch("H100", threads=np.array([1 << 40], dtype=np.int64))
        self.assertEqual(e.exception.name, "argument")

    def test_other_dtypes_raise_type_error_naming_the_column(self):
        bad = {"bool": np.array([True]), "float": np.array([256.0]), "big-endian": np.array([256], dtype=">i4"),
               "object": np.array([256], dtype=object), "str": np.array(["256"])}
        for what, values in bad.items():
            for column in ("threads", "regs", "smem_static", "smem_dynamic"):
                with self.assertRaises(TypeError, msg=f"{what} {column}") as e:
                    gpuocc.batch("H100", **{column: values})
                self.assertIn(column, str(e.exception))
                self.assertIn("int32", str(e.exception))
        with self.assertRaises(TypeError):
            gpuocc.batch("H100", threads=np.ones((2, 2), dtype=np.int32))

    def test_out_takes_numpy_arrays_and_is_reused(self):
        threads = np.array([256, 512, 1024], dtype=np.int32)
        first = gpuocc.batch("H100", threads=threads)
        again = gpuocc.batch("H100", threads=threads[::-1].copy(), out=first)
        self.assertIs(again["occupancy"], first["occupancy"])
        self.assertEqual(list(again["blocks_per_sm"]), [single("H100", threads=t).blocks_per_sm for t in (1024, 512, 256)])

    def test_out_columns_checked_before_the_call(self):
        threads = np.array([256, 128], dtype=np.int32)
        out = gpuocc.batch("H100", threads=threads)
        short = dict(out)
        short["occupancy"] = out["occupancy"][:1]
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.batch("H100", threads=threads, out=short)
        self.assertIn("occupancy", str(e.exception))
        wrong = dict(out)
        wrong["blocks_per_sm"] = np.zeros(2, dtype=np.int64)
        with self.assertRaises(gpuocc.Error):
            gpuocc.batch("H100", threads=threads, out=wrong)
        frozen = dict(out)
        frozen["status"] = np.zeros(2, dtype=np.int32)
        frozen["status"].flags.writeable = False
        with self.assertRaises(gpuocc.Error):
            gpuocc.batch("H100", threads=threads, out=frozen)

    def test_shortened_array_out_column_is_refused(self):
        # array.array columns too: a column shortened after the fact is never written past its end
        out = gpuocc.batch("H100", array.array("i", [256, 128]))
        del out["occupancy"][1:]
        with self.assertRaises(gpuocc.Error) as e:
            gpuocc.batch("H100", array.array("i", [256, 128]), out=out)
        self.assertIn("occupancy", str(e.exception))

    def test_numpy_stays_optional(self):
        import subprocess
        code = ("import sys; sys.modules['numpy'] = None; import gpuocc, array; "
                "c = gpuocc.batch('H100', array.array('i', [256])); assert c['blocks_per_sm'][0] > 0; "
                "assert gpuocc.occupancy('A100', gpuocc.kernel(256)).blocks_per_sm > 0")
        subprocess.run([sys.executable, "-c", code], check=True)


class FastResults(unittest.TestCase):
    """The results and inputs built on the fast path are ordinary frozen dataclasses."""

    def test_result_repr_eq_hash_asdict_replace(self):
        dev, k = gpuocc.device("A100"), gpuocc.kernel(threads=256, regs=64)
        r = gpuocc.occupancy(dev, k)
        slow = gpuocc.Result(**dataclasses.asdict(r))
        self.assertEqual(r, slow)
        self.assertEqual(hash(r), hash(slow))
        self.assertEqual(repr(r), repr(slow))
        self.assertEqual(dataclasses.replace(r, blocks_per_sm=3).blocks_per_sm, 3)
        self.assertEqual((r.blocks_per_sm, r.limiters, r.limit_regs), (4, ("registers",), 4))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            r.blocks_per_sm = 1

    def test_kernel_and_device_fast_construction(self):
        k = gpuocc.kernel(threads=256, regs=64)
        self.assertEqual(k, gpuocc.Kernel(threads=256, regs=64))
        self.assertEqual(hash(k), hash(gpuocc.Kernel(threads=256, regs=64)))
        self.assertEqual(dataclasses.asdict(k), dataclasses.asdict(gpuocc.Kernel(threads=256, regs=64)))
        self.assertEqual(dataclasses.replace(k, regs=32).regs, 32)
        gpuocc.occupancy("A100", k)  # caches C structs beside the fields
        self.assertEqual(set(dataclasses.asdict(k)), {f.name for f in dataclasses.fields(k)})
        import pickle
        self.assertEqual(pickle.loads(pickle.dumps(k)), k)
        d = gpuocc.device("H100")
        self.assertIs(gpuocc.device("H100"), d)  # the per-process cache of looked-up devices
        self.assertEqual(pickle.loads(pickle.dumps(d)), d)
        self.assertEqual(dataclasses.replace(d, sm_count=100).sm_count, 100)
        with self.assertRaises(TypeError):
            gpuocc.kernel(threads=256.0)
        with self.assertRaises(gpuocc.Error):
            gpuocc.kernel(threads=1 << 31)

    def test_numpy_integers_still_accepted_by_kernel(self):
        self.assertEqual(gpuocc.kernel(threads=np.int32(256)), gpuocc.kernel(threads=256))


class NumpyFits(unittest.TestCase):
    def test_columns_in_place_and_a_numpy_mask(self):
        # A100 by hand: 256 threads at 64 registers 4 blocks; 1024 at 64 one; 1024 at 65 none; 2048 threads none
        threads = np.array([256, 1024, 1024, 2048], dtype=np.int32)
        regs = np.array([64, 64, 65, 0], dtype=np.int32)
        r = gpuocc.fits({"threads": threads, "regs": regs}, "A100")
        self.assertIs(r.columns["threads"], threads)
        mask = r.mask()
        self.assertIsInstance(mask, np.ndarray)
        self.assertEqual(mask.dtype, np.bool_)
        self.assertEqual(mask.tolist(), [True, True, False, False])
        self.assertEqual([f.blocks_per_sm for f in r], [4, 1, 0, 0])
        self.assertEqual(r.kept(["a", "b", "c", "d"]), ["a", "b"])
        # the register cap, column-wise: the smaller of regs and max_regs (128 -> 2 blocks of 256 threads)
        r = gpuocc.fits({"threads": np.full(2, 256, dtype=np.int32), "regs": np.array([200, 64], dtype=np.int32),
                         "max_regs": np.array([128, 128], dtype=np.int32)}, "A100")
        self.assertEqual([f.blocks_per_sm for f in r], [2, 4])
        # min_occupancy, column-wise: 4 blocks of 8 warps = half the 64 slots
        self.assertEqual(gpuocc.fits({"threads": threads, "regs": regs}, "A100", min_occupancy=0.75).mask().tolist(),
                         [False, False, False, False])
        # other integer widths converted, as batch() converts them
        r = gpuocc.fits({"threads": threads.astype(np.int64), "regs": regs.astype(np.int16)}, "A100")
        self.assertEqual(r.mask().tolist(), [True, True, False, False])


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    sys.exit(0 if result.wasSuccessful() else 1)
