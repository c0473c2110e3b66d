#!/usr/bin/env python3
"""The Python module's public surface: every name `import gpuocc` gave before the module became a
package is still there, and `__all__` is the same list in the same order.  (GPUOCC_LIBRARY and
PYTHONPATH set by Meson, as for test_gpuocc.py.)"""
import unittest

import gpuocc

# gpuocc.__all__ as bindings/python/gpuocc.py (one module, 0.2.0) defined it, in its order.
ALL = [
    "Error", "Device", "Kernel", "Result", "Limits", "BestBlock", "NextStep", "CatalogEntry", "LatencyVerdict",
    "Cusp", "BytesInFlight", "BandwidthPrediction", "Perf", "SpillCost", "TradeoffStep", "Waves", "Divergence",
    "Routing", "Diagnosis", "Roofline", "CompiledKernel", "BinaryKernel", "BinaryRead", "RemarksKernel",
    "Columns", "AXES", "RESOURCES", "STALLS", "UNLIMITED", "CARVEOUT_DEFAULT", "SMOOTH_K",
    "LOADED_LATENCY_BASE", "LOADED_LATENCY_QUEUE", "device", "devices", "catalog_device", "custom_device",
    "validate_device", "kernel", "occupancy", "limits", "regs_per_warp", "regs_per_block", "smem_per_block",
    "smem_carveout", "best_block", "smem_dynamic_available", "regs_max_for_blocks", "next_step", "batch",
    "sweep", "sweep_steps", "sweep_range", "warps_needed", "mix_warps_needed", "mix_cusp", "bytes_in_flight",
    "bandwidth_at", "bandwidth", "bandwidth_model", "latency_check", "perf", "spill_slowdown", "spill_estimate",
    "tradeoff", "waves", "lane_efficiency", "divergence", "routing", "stall_name", "stall_from_name",
    "diagnose", "roofline", "read_ptxas", "read_cubin", "read_binary", "read_remarks", "strerror",
    "status_name", "resource_name", "limiter_names", "version", "version_number", "library",
]
# The other names the one module had at its top level that code outside it reads: the version, the
# ctypes aliases without an underscore, and the C layouts and signatures the tests check.
OTHER = [
    "__version__", "c_i32", "c_u32", "c_i64", "c_u64", "c_dbl", "P", "_SIGNATURES",
    "_CDevice", "_CKernel", "_CResult", "_CLatencyVerdict", "_CPerf", "_CBandwidthPrediction", "_CSpillInput",
    "_CSpillCost", "_CTradeoffStep", "_CWaves", "_CRouting", "_CCompiledKernel", "_CSweepPoint", "_CPrepared",
    "_CBatch", "_CBinaryKernel", "_CRemarksKernel", "_CBinarySummary",
]


class PublicNames(unittest.TestCase):
    def test_all_is_unchanged(self):
        self.assertEqual(gpuocc.__all__, ALL)

    def test_every_name_is_still_there(self):
        missing = [name for name in ALL + OTHER if not hasattr(gpuocc, name)]
        self.assertFalse(missing, f"gone from import gpuocc: {missing}")


if __name__ == "__main__":
    unittest.main()
