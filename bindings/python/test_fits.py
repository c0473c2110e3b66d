#!/usr/bin/env python3
"""gpuocc.fits: many configurations against one device, answered in order, each Fit truthy when its launch
fits; values derived by hand from the rules (docs/model.md) and, for the many-row checks, against
gpuocc.occupancy() of each launch.  (GPUOCC_LIBRARY and PYTHONPATH set by Meson.)"""
import array
import unittest

import gpuocc

KIB = 1024


class Fits(unittest.TestCase):
    def test_rows_by_hand(self):
        # A100: 64 warp slots, 65,536 registers, a 164 KiB carveout, 1 KiB reserved a block
        rows = [
            {"threads": 256, "regs": 64},                # 8 warps x 2048 = 16,384 registers: 4 blocks, 32 warps
            {"threads": 1024, "regs": 64},               # 32 warps x 2048 = the whole file: 1 block
            {"threads": 1024, "regs": 65},               # 65 x 32 -> 2304 a warp x 32 > 65,536: none
            {"threads": 2048},                           # above the 1024-thread block
            {"threads": 256, "smem_dynamic": 100 * KIB},  # 101 KiB a block: 1 of 164 KiB
            {"threads": 256, "max_regs": 128},           # judged at the cap: 4096 a warp x 8 -> 2 blocks
            {"threads": 256, "regs": 200, "max_regs": 128},  # the smaller: 128, 2 blocks
        ]
        r = gpuocc.fits(rows, "A100")
        self.assertEqual(len(r), len(rows))
        self.assertEqual([f.blocks_per_sm for f in r], [4, 1, 0, 0, 1, 2, 2])
        self.assertEqual([bool(f) for f in r], [True, True, False, False, True, True, True])
        self.assertEqual(r.mask(), [True, True, False, False, True, True, True])
        self.assertEqual(r[0].occupancy, 0.5)
        self.assertEqual(r[0].limiters, ("registers",))
        self.assertEqual((r[2].exceeded, r[2].exceeded_limit), ("regs", 64))  # 1024 threads fit at 64 at most
        self.assertEqual((r[3].exceeded, r[3].exceeded_limit), ("threads", 1024))
        self.assertEqual(r[4].occupancy, 8 / 64)
        self.assertEqual(r[4].limiters, ("shared_memory",))
        self.assertEqual([f.regs_judged for f in r], [True, True, True, False, False, True, True])
        self.assertIsNone(r[0].exceeded)
        self.assertEqual(r[0].status, "ok")
        self.assertEqual(r[-1], r[6])
        self.assertEqual(r[1:3], [r[1], r[2]])
        # thresholds: two blocks, a quarter of the warp slots
        r2 = gpuocc.fits(rows, "A100", min_blocks=2)
        self.assertEqual(r2.mask(), [True, False, False, False, False, True, True])
        r3 = gpuocc.fits(rows, "A100", min_occupancy=0.25)
        self.assertEqual(r3.mask(), [True, True, False, False, False, True, True])
        self.assertEqual(r3.kept(rows), [rows[0], rows[1], rows[5], rows[6]])

    def test_kernel_fields_group_and_keep_the_order(self):
        # carveout 0 on A100: the smallest carveout holding the 21 KiB block is 32 KiB: 1 block (default: 7,
        # 164 / 21, below the 8 that the warps allow)
        rows = [{"threads": 256, "smem_dynamic": 20 * KIB}, {"threads": 256, "smem_dynamic": 20 * KIB, "carveout": 0},
                {"threads": 256, "smem_dynamic": 20 * KIB}, {"threads": 256, "smem_dynamic": 20 * KIB, "smem_optin": 0}]
        r = gpuocc.fits(rows, "A100")
        self.assertEqual([f.blocks_per_sm for f in r], [7, 1, 7, 7])
        self.assertEqual(r.mask(), [True, True, True, True])
        # a static 48 KiB kernel field in `kern` applies to every row: 69 KiB a block, 2 blocks
        r = gpuocc.fits(rows[:1], "A100", kern=gpuocc.kernel(threads=1, smem_static=48 * KIB))
        self.assertEqual(r[0].blocks_per_sm, 2)

    def test_clusters(self):
        # H100: 8 blocks of one warp, clusters of 4: legal, resident (132 SMs x 8 / 4 = 264 at most); 16 need
        # the non-portable opt-in; A100 has no clusters
        r = gpuocc.fits([{"threads": 32, "cluster_x": 4}, {"threads": 32, "cluster_x": 16}, {"threads": 32}], "H100")
        self.assertEqual(r[0].cluster, "legal")
        self.assertEqual(r[0].clusters_max, gpuocc.cluster_occupancy("H100", gpuocc.kernel(threads=32), 4).clusters_max)
        self.assertEqual(r[1].cluster, "needs_nonportable")
        self.assertIsNone(r[1].clusters_max)
        self.assertEqual(r.mask(), [True, False, True])
        self.assertIsNone(r[2].cluster)
        r = gpuocc.fits([{"threads": 32, "cluster_x": 2}], "A100")
        self.assertEqual((bool(r[0]), r[0].cluster), (False, "unsupported"))

    def test_columns(self):
        threads = array.array("i", [256, 1024, 1024, 2048])
        regs = array.array("i", [64, 64, 65, 0])
        r = gpuocc.fits({"threads": threads, "regs": regs}, "A100")
        self.assertIs(r.columns["threads"], threads)  # in place, as batch()
        self.assertEqual(r.mask(), [True, True, False, False])
        # a scalar applies to every configuration: a kernel field, or a column given once
        r = gpuocc.fits({"threads": threads, "regs": 32, "carveout": 0}, "A100")
        self.assertEqual([f.blocks_per_sm for f in r], [8, 2, 2, 0])
        r = gpuocc.fits({"threads": threads, "max_regs": array.array("i", [128, 128, 64, 64])}, "A100")
        self.assertEqual([f.blocks_per_sm for f in r], [2, 0, 1, 0])
        with self.assertRaises(TypeError):
            gpuocc.fits({"threads": threads, "carveout": [0, 0, 0, 0]}, "A100")  # one value for every row
        with self.assertRaises(gpuocc.Error):
            gpuocc.fits({"threads": threads, "regs": [1, 2]}, "A100")

    def test_every_row_is_occupancy(self):
        # many launches on three vendors: each Fit is occupancy()'s answer for its launch
        for dev in ("H100", "MI300X", "pvc"):
            rows = []
            for i in range(300):
                row = {"threads": (i * 37) % 1100 + 1, "smem_dynamic": (i * 1311) % 90000}
                if dev != "pvc":
                    row["regs"] = (i * 7) % 300
                if i % 3 == 0:
                    row["smem_static"] = (i * 97) % 20000
                rows.append(row)
            r = gpuocc.fits(rows, dev)
            for row, f in zip(rows, r):
                k = gpuocc.kernel(**row)
                try:
                    o = gpuocc.occupancy(dev, k)
                except gpuocc.Error as e:
                    self.assertEqual((f.status, bool(f)), (e.name, False), (dev, row))
                    continue
                self.assertEqual((f.blocks_per_sm, f.occupancy, f.limiters), (o.blocks_per_sm, o.occupancy, o.limiters),
                                 (dev, row))
                self.assertEqual(bool(f), o.blocks_per_sm >= 1, (dev, row))

    def test_names(self):
        for key, hint in (("num_warps", "threads = num_warps"), ("maxnreg", "max_regs"), ("num_stages", "num_stages"),
                          ("num_ctas", "cluster_x"), ("bogus", "vocabulary")):
            with self.assertRaises(TypeError) as e:
                gpuocc.fits([{"threads": 128, key: 4}], "H100")
            self.assertIn(key, str(e.exception))
            self.assertIn(hint, str(e.exception))
        with self.assertRaises(TypeError):
            gpuocc.fits([128], "H100")
        with self.assertRaises(TypeError):
            gpuocc.fits("threads", "H100")
        self.assertEqual(len(gpuocc.fits([], "H100")), 0)
        self.assertEqual(gpuocc.fits(iter([{"threads": 64}]), "H100").mask(), [True])  # any iterable

    def test_lazy(self):
        r = gpuocc.fits([{"threads": 64}] * 1000, "H100")
        self.assertEqual(len(r._built), 0)  # nothing built before it is read
        self.assertIs(r[5], r[5])
        self.assertEqual(len(r._built), 1)


if __name__ == "__main__":
    unittest.main()
